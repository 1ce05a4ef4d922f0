"""Speed of the replay explorer (issue 18, item 2).  Run on demand: ``make bench``, or
``.venv/bin/python -m pytest tests/benchmarks/test_bench_replay.py -p no:cacheprovider -o addopts="" -s``.

No timed assertions: the figures are printed and written to ``docs/performance.md`` in
the block between ``<!-- replay-bench:start -->`` and ``<!-- replay-bench:end -->``.

The game: 4 normal CPUs (one per strategy), a 50-turn standard game, fixed seed: 200
turns in all (50 per player).  "50 turns" is the same game cut after its 50th turn.

- **load**: ``ReplayExplorer(game)`` -- replay the log, build the checkpoints, build
  and draw the widgets (map, scoreboard, log) at the last position; and ``load(game)``
  into an existing explorer (no widget construction).
- **show a point**: ``explorer.go(k)`` for random ``k`` (fixed seed): rebuild the
  position (restore the nearest checkpoint, apply the actions since) and redraw every
  view; and the engine part alone, ``replay.branch(k)``.

The explorer is the shell's (``conquest_widget.ReplayExplorer`` drawing Japan's board;
issue 29 retired Japan Conquest's own): figures in docs/performance.md measured before
that are of the old explorer until this benchmark is run again.

Aims (issue 18): load a 200-turn 4-player game in <= 300 ms, show any point in <= 50 ms.

Fewer repetitions for a trial run (the defaults are the full measurement; with
``CONQUEST_PERFDOC=/tmp/x.md`` the trial does not touch docs/performance.md):
``REPLAY_LOADS`` (default 5), ``REPLAY_JUMPS`` (default 60).
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import time

import pytest
from perfdoc import update_block

from conquest_widget import ReplayExplorer
from conquest_widget.core.protocol import CHANCE
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup, RandomDice
from conquest_widget.games.japan_conquest.cpu import play_cpu_turns

SEED = 1818
LOADS = int(os.environ.get("REPLAY_LOADS", "5"))  # explorer constructions per size
JUMPS = int(os.environ.get("REPLAY_JUMPS", "60"))  # random positions shown per size
AIM_LOAD, AIM_SHOW = 300.0, 50.0


def full_game() -> JapanMatch:
    strategies = ("aggressive", "expansionist", "defensive", "balanced")
    homes = ("Hokkaido", "Tokyo", "Osaka", "Fukuoka")
    setup = GameSetup(
        players=tuple(PlayerSetup(f"P{i + 1}", h, colour=("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")[i], cpu=True,
                                  strategy=s) for i, (h, s) in enumerate(zip(homes, strategies, strict=True))),
        turns=50, seed=SEED,
    )
    g = JapanMatch(setup, dice=RandomDice(SEED))  # (the dice of the older engine's game: the same game)
    play_cpu_turns(g)
    assert g.is_over
    return g


def cut_after_turns(game: JapanMatch, turns: int) -> JapanMatch:
    """The game after its first ``turns`` turns (all players counted)."""
    g = JapanMatch(game.setup, seed=game.chance.seed, forced=[e["outcome"] for e in game.log if e["seat"] == CHANCE])
    done = 0
    for action in game.actions():
        g.push(action)
        done = sum(p.turns_done for p in g.state.players)
        if done >= turns:
            break
    assert done == turns or (turns >= 200 and g.is_over)
    return g


def stats(xs: list[tuple[float, float]]) -> str:
    """min / median / max of the wall-clock times, then of the CPU times of this thread."""
    wall, cpu = [w for w, _ in xs], [c for _, c in xs]
    return (f"{min(wall):.1f} / {statistics.median(wall):.1f} / {max(wall):.1f} ms "
            f"(CPU {min(cpu):.1f} / {statistics.median(cpu):.1f} / {max(cpu):.1f} ms)")


class Clock:
    """Wall-clock and thread CPU time of a block, in ms, appended to a list.  With
    several agents sharing the cores the wall clock includes waiting for a core; the
    CPU time does not."""

    def __init__(self, out: list[tuple[float, float]]) -> None:
        self.out = out

    def __enter__(self) -> None:
        self.t, self.c = time.perf_counter(), time.thread_time()

    def __exit__(self, *exc: object) -> None:
        self.out.append(((time.perf_counter() - self.t) * 1000, (time.thread_time() - self.c) * 1000))


def spread(xs: list[tuple[float, float]]) -> dict[str, list[float]]:
    """min, median, max of the wall-clock and of the CPU times (for the summary)."""
    wall, cpu = [w for w, _ in xs], [c for _, c in xs]
    return {"wall": [min(wall), statistics.median(wall), max(wall)], "cpu": [min(cpu), statistics.median(cpu), max(cpu)]}


def verdict(x: float, aim: float) -> str:
    """The aim against the slowest wall-clock time."""
    return f" (aim: max <= {aim:g} ms: {'met' if x <= aim else 'NOT MET'})"


def measure(game: JapanMatch) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {"construct": [], "load": [], "show": [], "engine": []}
    ex = None
    for _ in range(LOADS):
        gc.collect()
        with Clock(out["construct"]):
            ex = ReplayExplorer(game)
    assert ex is not None
    for _ in range(LOADS):
        gc.collect()
        with Clock(out["load"]):
            ex.load(game)
    rng = random.Random(SEED)
    n = game.action_count
    for _ in range(JUMPS):
        k = rng.randrange(n + 1)
        with Clock(out["show"]):
            ex.go(k)
        k = rng.randrange(n + 1)
        with Clock(out["engine"]):
            ex.replay.branch(k)
    return out


@pytest.mark.benchmark
def test_bench_replay_load_and_scrub():
    full = full_game()
    ReplayExplorer(cut_after_turns(full, 20))  # warm up imports and the map's geodata
    rows: list[tuple[str, str]] = []
    medians = {}
    figures: dict = {"loads": LOADS, "jumps": JUMPS, "aim_load": AIM_LOAD, "aim_show": AIM_SHOW}
    for turns in (50, 200):
        g = full if turns == 200 else cut_after_turns(full, turns)
        m = measure(g)
        figures[str(turns)] = {"actions": g.action_count, **{k: spread(v) for k, v in m.items()}}
        medians[turns] = {k: statistics.median(c for _, c in v) for k, v in m.items()}
        label = f"{turns} turns ({g.action_count} actions, {len(g.events)} events)"
        rows.append((f"{label}: new explorer, min / median / max",
                     stats(m["construct"]) + (verdict(max(m["construct"])[0], AIM_LOAD) if turns == 200 else "")))
        rows.append((f"{turns} turns: `load(game)` into an explorer, min / median / max", stats(m["load"])))
        rows.append((f"{turns} turns: show a random point (`go(k)`, all views), min / median / max",
                     stats(m["show"]) + (verdict(max(m["show"])[0], AIM_SHOW) if turns == 200 else "")))
        rows.append((f"{turns} turns: engine only (`replay.branch(k)`), min / median / max", stats(m["engine"])))
    ratio = {k: medians[200][k] / medians[50][k] for k in ("construct", "load", "show")}
    rows.append(("growth 50 -> 200 turns (CPU-time medians): new explorer / load / show",
                 (f"{ratio['construct']:.1f}x / {ratio['load']:.1f}x / {ratio['show']:.1f}x "
                  f"(log {full.action_count / cut_after_turns(full, 50).action_count:.1f}x)")))
    before = ("before issue 18 (checkpoints were `Game.copy()` of the older engine; commit 4d39251, this benchmark, 2026-11-30, "
              "load average ~10), 200 turns, CPU-time medians")
    rows.append((before, ("new explorer 355 ms, `load(game)` 277 ms, show a point 15.1 ms (max 28.3 ms), `game_at` "
                          "10.6 ms (max 213 ms); growth 50 -> 200 turns of `load(game)` 6.2x for a 3.7x longer log")))
    rows.append(("repetitions", f"{LOADS} loads, {JUMPS} random points per size; a state record every 32 log entries"))
    rows.append(("1-minute load average at the end (2 = both cores busy)", f"{os.getloadavg()[0]:.2f}"))
    print()
    for a, b in rows:
        print(f"  {a}: {b}")
    update_block(
        "replay-bench", "Replay explorer (issue 18)",
        "Written by `tests/benchmarks/test_bench_replay.py` (`make bench`): 4 normal CPUs, 50-turn standard game "
        "(200 turns in all), fixed seed; the 50-turn figures use the same game cut after its 50th turn. "
        "The explorer reads positions from the shell's `Replay` (issue 11): the engine game is read as a match "
        "(its dice faces logged), loaded once with a state record every 32 log entries; a position restores the "
        "nearest record and replays the logged actions since.  `game_at(k)` is an independent engine game: a "
        "branch replayed from the start, so it grows with k.",
        "load_scrub", "Loading a game into the explorer and showing points of it", rows, figures,
    )
