"""Speed of the shell's replay explorer (``conquest_widget.ui.replay``) for every game with
an engine (issue 18, item 2).  Run on demand: ``make bench``, or
``.venv/bin/python -m pytest tests/benchmarks/test_bench_shell_replay.py -p no:cacheprovider -o addopts="" -s``.

No timed assertions: the figures are printed and written to ``docs/performance.md`` in the
block between ``<!-- shell-replay-bench:start -->`` and ``<!-- shell-replay-bench:end -->``.

The games: 4 seats played by the game's default CPUs, fixed seeds.  Japan Conquest plays a
50-turn standard game (200 turns in all, the issue's "200-turn 4-player game"); the other
games play one whole game.  "Short" is the same game cut after a quarter of its actions.

- **load**: ``Replay(match)`` (one replay pass with a state record every 32 log entries),
  ``Replay(document)`` (a save document: the log is replayed once to check it, once for
  the records), and ``ReplayExplorer(match)`` (the records plus every widget, the game's
  board drawn at the last position).
- **show a point**: for random ``k`` (fixed seed): the engine part
  (``replay.view(k, 0)``), ``controller.index = k`` (view, events, traits) and
  ``explorer.go(k)`` (the board redrawn, the move list updated).

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
from typing import Any

import pytest
from perfdoc import update_block

from conquest_widget.core import registry
from conquest_widget.core.bots import play_bots
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE
from conquest_widget.ui.replay import (
    DEFAULT_EVERY,
    Replay,
    ReplayController,
    ReplayExplorer,
)

SEED = 1818
LOADS = int(os.environ.get("REPLAY_LOADS", "5"))
JUMPS = int(os.environ.get("REPLAY_JUMPS", "60"))
AIM_LOAD, AIM_SHOW = 300.0, 50.0


def long_game(spec: Any) -> Match:
    """A whole 4-seat game of ``spec`` played by its default CPUs (Japan: 50 turns each)."""
    cls = spec.engine_class()
    if spec.id == "japan_conquest":
        from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup

        homes = ("Hokkaido", "Tokyo", "Osaka", "Fukuoka")
        colours = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
        setup = GameSetup(players=tuple(PlayerSetup(f"P{i + 1}", h, colour=colours[i], cpu=True)
                                        for i, h in enumerate(homes)), turns=50, seed=SEED)
    else:
        setup = cls.random_setup(random.Random(SEED), 4)
    m = cls(setup, seed=SEED)
    mod = spec.bots_module()
    play_bots(m, {s: mod.BOTS[mod.DEFAULT_BOT]() for s in range(m.n_seats)}, seed=SEED)
    assert m.is_over, spec.id
    return m


def cut(m: Match, actions: int) -> Match:
    """``m`` after its first ``actions`` actions (a fresh replay of the log prefix)."""
    doc = m.to_dict()
    starts = [i for i, e in enumerate(doc["log"]) if e["seat"] != CHANCE]
    doc["log"] = doc["log"][: starts[actions]] if actions < len(starts) else doc["log"]
    return type(m).from_dict(doc)


class Clock:
    """Wall-clock and thread CPU time of a block, in ms, appended to a list (with several
    agents sharing the cores the wall clock includes waiting for a core)."""

    def __init__(self, out: list[tuple[float, float]]) -> None:
        self.out = out

    def __enter__(self) -> None:
        self.t, self.c = time.perf_counter(), time.thread_time()

    def __exit__(self, *exc: object) -> None:
        self.out.append(((time.perf_counter() - self.t) * 1000, (time.thread_time() - self.c) * 1000))


def stats(xs: list[tuple[float, float]]) -> str:
    wall, cpu = [w for w, _ in xs], [c for _, c in xs]
    return (f"{min(wall):.1f} / {statistics.median(wall):.1f} / {max(wall):.1f} ms "
            f"(CPU {min(cpu):.1f} / {statistics.median(cpu):.1f} / {max(cpu):.1f} ms)")


def spread(xs: list[tuple[float, float]]) -> dict[str, list[float]]:
    """min, median, max of the wall-clock and of the CPU times (for the summary)."""
    wall, cpu = [w for w, _ in xs], [c for _, c in xs]
    return {"wall": [min(wall), statistics.median(wall), max(wall)], "cpu": [min(cpu), statistics.median(cpu), max(cpu)]}


def verdict(xs: list[tuple[float, float]], aim: float) -> str:
    """The aim against the slowest CPU time and the slowest wall-clock time."""
    worst_cpu, worst_wall = max(c for _, c in xs), max(w for w, _ in xs)
    ok = "met" if worst_cpu <= aim else "NOT MET"
    wall = "" if worst_wall <= aim else f"; wall clock max {worst_wall:.0f} ms with the cores shared"
    return f" (aim max <= {aim:g} ms: {ok} on CPU time{wall})"


def measure(m: Match) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {k: [] for k in ("replay", "document", "explorer", "engine",
                                                                  "controller", "widget")}
    doc = m.to_dict()
    for _ in range(LOADS):
        gc.collect()
        with Clock(out["replay"]):
            r = Replay(m)
        gc.collect()
        with Clock(out["document"]):
            Replay(doc)
    ex = None
    for _ in range(LOADS):
        if ex is not None:
            ex.close()
        gc.collect()
        with Clock(out["explorer"]):
            ex = ReplayExplorer(m, viewer=0)
    assert ex is not None
    c = ReplayController(r, viewer=0)
    rng = random.Random(SEED)
    for _ in range(JUMPS):
        k = rng.randrange(r.length + 1)
        with Clock(out["engine"]):
            r.view(k, 0)
        k = rng.randrange(r.length + 1)
        with Clock(out["controller"]):
            c.index = k
        k = rng.randrange(r.length + 1)
        with Clock(out["widget"]):
            ex.go(k)
    ex.close()
    return out


@pytest.mark.benchmark
@pytest.mark.parametrize("spec", [s for s in registry.all_games() if s.engine is not None], ids=lambda s: s.id)
def test_bench_shell_replay_load_and_scrub(spec: Any) -> None:
    full = long_game(spec)
    n_full = sum(e["seat"] != CHANCE for e in full.log)
    ReplayExplorer(cut(full, 10)).close()  # warm up imports and the board's assets
    rows: list[tuple[str, str]] = []
    medians = {}
    figures: dict = {"loads": LOADS, "jumps": JUMPS, "aim_load": AIM_LOAD, "aim_show": AIM_SHOW}
    for name, m in (("short", cut(full, n_full // 4)), ("whole", full)):
        res = measure(m)
        figures[name] = {"actions": sum(e["seat"] != CHANCE for e in m.log), **{k: spread(v) for k, v in res.items()}}
        medians[name] = {k: statistics.median(c for _, c in v) for k, v in res.items()}
        n_actions = sum(e["seat"] != CHANCE for e in m.log)
        label = f"{name} ({n_actions} actions, {len(m.log)} log entries, {len(m.events)} events)"
        aim_load = verdict(res["explorer"], AIM_LOAD) if name == "whole" else ""
        aim_show = verdict(res["widget"], AIM_SHOW) if name == "whole" else ""
        rows += [
            (f"{label}: `Replay(match)`, min / median / max", stats(res["replay"])),
            (f"{name}: `Replay(document)` (checks the log, then the records)", stats(res["document"])),
            (f"{name}: `ReplayExplorer(match)` with the board", stats(res["explorer"]) + aim_load),
            (f"{name}: show a point, engine (`replay.view(k, 0)`)", stats(res["engine"])),
            (f"{name}: show a point, `controller.index = k`", stats(res["controller"])),
            (f"{name}: show a point, `explorer.go(k)` (board and move list)", stats(res["widget"]) + aim_show),
        ]
    ratio = {k: medians["whole"][k] / max(medians["short"][k], 1e-6) for k in ("replay", "explorer", "widget")}
    rows.append(("growth short -> whole (CPU-time medians): `Replay` / explorer / `go(k)`",
                 (f"{ratio['replay']:.1f}x / {ratio['explorer']:.1f}x / {ratio['widget']:.1f}x "
                 f"(log {len(full.log) / len(cut(full, n_full // 4).log):.1f}x)")))
    rows.append(("repetitions", (f"{LOADS} loads, {JUMPS} random points per size; a state record every "
                                f"{DEFAULT_EVERY} log entries")))
    rows.append(("1-minute load average at the end (2 = both cores busy)", f"{os.getloadavg()[0]:.2f}"))
    print()
    for a, b in rows:
        print(f"  {spec.id}: {a}: {b}")
    update_block(
        "shell-replay-bench", "Shell replay explorer (issue 18, every game)",
        "Written by `tests/benchmarks/test_bench_shell_replay.py` (`make bench`): `conquest_widget.ui.replay` "
        "for each game with an engine; 4 seats played by the game's default CPUs, fixed seed (Japan Conquest: a "
        "50-turn standard game, 200 turns in all; the others one whole game); \"short\" is the same game cut "
        "after a quarter of its actions. Checkpoints are `Match.snapshot()` state records; a point is shown by "
        "restoring the nearest one and applying the logged actions since, chance forced from the log. "
        "Aims: load <= 300 ms, any point <= 50 ms.",
        spec.id, spec.title.get("en", spec.id), rows, figures,
    )
