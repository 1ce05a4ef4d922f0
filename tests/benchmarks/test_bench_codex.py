"""Codex of Conquest: CPU acceptance (strength with 95% Wilson intervals), Hard's decision
time, random-game speed, and game statistics for k = 3, 4, 5.  Run on demand:

    nice -n 10 .venv/bin/python -m pytest tests/benchmarks/test_bench_codex.py -p no:cacheprovider -o addopts="" -s

``CODEX_GAMES`` sets the games per strength measurement (default 1,000, seat-rotated),
``CODEX_STATS_GAMES`` the games per k for the statistics (default 300).  Results are
printed (one ``RESULT`` line per measure) and recorded by hand in docs/ai_codex.md.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter

import pytest

from conquest_widget.core.bots import decision
from conquest_widget.core.stats import format_share, wilson
from conquest_widget.games.codex.bots import BOTS
from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
from conquest_widget.games.codex.rules import FACTIONS as FACTIONS_

GAMES = int(os.environ.get("CODEX_GAMES", "1000"))
STATS_GAMES = int(os.environ.get("CODEX_STATS_GAMES", "300"))
pytestmark = pytest.mark.benchmark


def play(labels: list[str], seed: int, k: int = 4, timing: dict[str, list[float]] | None = None,
         timed: str | None = None) -> CodexMatch:
    """One CPU game; ``timing`` collects, by phase, the CPU time (``time.thread_time``) of
    each decision of the ``timed`` label."""
    m = CodexMatch(CodexSetup.quick(len(labels), k=k), seed=seed)
    bots = [BOTS[lab]() for lab in labels]
    while not m.is_over:
        seat = m.to_act()[0]
        phase = m.state["phase"]
        inputs = decision(m, seat, seed)
        t0 = time.thread_time()
        a = bots[seat].choose(*inputs)
        if timing is not None and labels[seat] == timed:
            timing.setdefault(phase, []).append(time.thread_time() - t0)
        m.apply(a, seat)
    return m


def share_of_wins(m: CodexMatch, seat: int) -> float:
    """1 for a sole win, 1/w for a win shared by w seats, else 0."""
    winners = m.outcome().winners
    return 1.0 / len(winners) if seat in winners else 0.0


def strength(a: str, b: str, n_players: int, games: int, seed: int) -> tuple[float, int]:
    """``a`` in one seat (rotated over the seats), ``b`` in all others: ``a``'s win share."""
    won = 0.0
    for i in range(games):
        seat = i % n_players
        labels = [b] * n_players
        labels[seat] = a
        won += share_of_wins(play(labels, seed + i), seat)
    return won, games


def report(name: str, won: float, n: int) -> tuple[float, float]:
    lo, hi = wilson(won, n)
    print(f"RESULT {name}: {format_share(won, n)}")
    return lo, hi


@pytest.mark.strength
def test_hard_beats_normal_two_players() -> None:
    won, n = strength("hard", "normal", 2, GAMES, 10_000)
    lo, _ = report("hard vs normal, 2 players, hard's win share", won, n)
    assert lo > 0.55


@pytest.mark.strength
def test_hard_wins_at_least_40_percent_against_three_normals() -> None:
    won, n = strength("hard", "normal", 4, GAMES, 20_000)
    report("hard + 3 normal, 4 players, hard's win share", won, n)
    assert won / n >= 0.40


@pytest.mark.strength
def test_normal_beats_easy_clearly() -> None:
    won, n = strength("normal", "easy", 2, GAMES, 30_000)
    lo, _ = report("normal vs easy, 2 players, normal's win share", won, n)
    assert lo > 0.6


def test_hard_decision_time() -> None:
    """CPU time per Hard decision (4 players, 1 Hard + 3 Normal, k=4), by phase and overall."""
    times: dict[str, list[float]] = {}
    for i in range(20):
        play(["hard", "normal", "normal", "normal"], 40_000 + i, timing=times, timed="hard")
    every = sorted(x for ts in times.values() for x in ts)
    for phase, ts in sorted(times.items()):
        ts.sort()
        print(f"RESULT hard decision CPU time, phase {phase}: median {1000 * statistics.median(ts):.2f} ms, "
              f"p95 {1000 * ts[int(0.95 * len(ts))]:.1f} ms, max {1000 * ts[-1]:.1f} ms over {len(ts)} decisions")
    med = statistics.median(every)
    print(f"RESULT hard decision CPU time, all: median {1000 * med:.2f} ms, max {1000 * every[-1]:.1f} ms over {len(every)}")
    assert med < 0.5
    assert statistics.median(times["place"]) < 0.5


def test_random_legal_games_per_second() -> None:
    rng = random.Random(5)
    games, t0, c0 = 300, time.perf_counter(), time.process_time()
    actions = 0
    for i in range(games):
        m = CodexMatch(CodexSetup.quick(4), seed=i)
        while not m.is_over:
            seat = m.to_act()[0]
            m.apply(rng.choice(m.legal_actions(seat)), seat)
            actions += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"RESULT random legal 4-player games (k=4): {games / cpu:.0f} games/s of CPU time "
          f"({games / wall:.0f}/s wall), {actions / games:.0f} actions per game")


@pytest.mark.parametrize("k", [3, 4, 5])
def test_game_statistics_by_k(k: int) -> None:
    """4 Normal CPUs: turns per game, conquests per game, which trigger ends the game."""
    turns, conquests, removed_pieces, skips = [], [], [], []
    triggers: Counter[str] = Counter()
    eliminations = 0
    for i in range(STATS_GAMES):
        m = play(["normal"] * 4, 50_000 + i, k=k)
        ev = m.events_for(None)
        turns.append(m.state["turn"])
        conquests.append(sum(1 for e in ev if e["type"] == "removed"))
        removed_pieces.append(sum(e["size"] for e in ev if e["type"] == "removed"))
        skips.append(sum(1 for e in ev if e["type"] == "skip"))
        eliminations += sum(1 for e in ev if e["type"] == "eliminated")
        triggers[m.outcome().reason] += 1
    n = STATS_GAMES
    print(f"RESULT k={k}, 4 Normal CPUs, {n} games: turns mean {statistics.mean(turns):.1f} "
          f"(median {statistics.median(turns)}), conquests/game {statistics.mean(conquests):.2f} "
          f"(pieces removed {statistics.mean(removed_pieces):.1f}), skipped placements/game {statistics.mean(skips):.2f}, "
          f"eliminations/game {eliminations / n:.2f}, triggers "
          + ", ".join(f"{r} {100 * c / n:.1f}%" for r, c in triggers.most_common()))


def _main(argv: list[str]) -> None:
    """Sharded strength runs (several niced processes use idle cores better than one):

        python tests/benchmarks/test_bench_codex.py run hard normal 2 1000 10000 0/4 out.jsonl
        python tests/benchmarks/test_bench_codex.py combine out*.jsonl

    ``run A B PLAYERS GAMES SEED SHARD/SHARDS FILE`` plays the games ``i`` of the same
    seat-rotated series as :func:`strength` with ``i % SHARDS == SHARD`` and appends one JSON
    line per game; ``combine`` sums the files (one series per label pair and table size)."""
    import json

    if argv[0] == "run":
        a, b, players, games, seed, shard, out = argv[1:8]
        n, total, seed0 = int(players), int(games), int(seed)
        k, shards = (int(x) for x in shard.split("/"))
        with open(out, "a", encoding="utf-8") as fh:
            for i in range(k, total, shards):
                seat = i % n
                labels = [b] * n
                labels[seat] = a
                won = share_of_wins(play(labels, seed0 + i), seat)
                fh.write(json.dumps({"a": a, "b": b, "players": n, "game": i, "won": won}) + "\n")
                fh.flush()
    elif argv[0] == "combine":
        series: dict[tuple[str, str, int], dict[int, float]] = {}
        for path in argv[1:]:
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    r = json.loads(line)
                    series.setdefault((r["a"], r["b"], r["players"]), {})[r["game"]] = r["won"]
        for (a, b, n), games in sorted(series.items()):
            print(f"RESULT {a} vs {b}, {n} players, {a}'s win share: {format_share(sum(games.values()), len(games))}")


if __name__ == "__main__":
    import sys

    _main(sys.argv[1:])


def _placements(board, c, sizes: dict[str, int], rng: random.Random, n: int) -> dict[str, list[float]]:
    """Play ``n`` placements through ``board`` (every seat human), measuring each one."""
    out: dict[str, list[float]] = {k: [] for k in ("preview", "confirm", "confirm_map", "whole", "whole_map", "ms")}
    while not c.is_over and len(out["confirm"]) < n:
        legal = c.legal
        kinds = {a["type"] for a in legal}
        if "pick" in kinds:
            board.click(f"share-{rng.choice(FACTIONS_)}")
        elif "forced_sell" in kinds:
            c.act(legal[0])
        elif "roll" in kinds:
            sizes["total"] = sizes["map"] = 0
            board.click("roll")
            if c.view["phase"] != "place":
                continue
            roll_total, roll_map = sizes["total"], sizes["map"]
            plot = rng.choice(sorted(board.legal_plots()))
            sizes["total"] = sizes["map"] = 0
            board.click_plot(plot)
            if board.joker_plot is not None:
                board.choose_faction(board.legal_plots()[plot][0])
            out["preview"].append(sizes["total"])
            click_total, click_map = sizes["total"], sizes["map"]
            sizes["total"] = sizes["map"] = 0
            t0 = time.perf_counter()
            board.confirm()
            out["ms"].append(1000 * (time.perf_counter() - t0))
            out["confirm"].append(sizes["total"])
            out["confirm_map"].append(sizes["map"])
            out["whole"].append(roll_total + click_total + sizes["total"])
            out["whole_map"].append(roll_map + click_map + sizes["map"])
        elif "end_turn" in kinds:
            board.click("end-turn")
    return out


def test_widget_bytes_per_placement(monkeypatch, tmp_path) -> None:
    """Bytes the kernel sends per placement through the Codex board (counted at
    ``Widget._send`` as tests/benchmarks/test_bench_widget.py does): the click that opens
    the preview, and the Confirm (the controller's new version drawn once), the board's own
    messages apart; two humans so every placement goes through the board.  Then the same inside
    the shell's MatchApp (log, autosave, its Save/Exit bar)."""
    import json

    from ipywidgets import Widget
    from ipywidgets.widgets.widget import _instances

    from conquest_widget.games.codex.widget import App
    from conquest_widget.games.codex.widget.board import CodexBoard
    from conquest_widget.ui.controller import MatchController

    sizes: dict[str, int] = {"total": 0, "map": 0}
    original = Widget._send

    def _send(self, msg, buffers=None):
        n = len(json.dumps(msg, default=str)) + sum(len(b) for b in buffers or [])
        sizes["total"] += n
        if isinstance(self, CodexBoard):  # the board's own messages (the realm is drawn in the page)
            sizes["map"] += n
        return original(self, msg, buffers)

    monkeypatch.setattr(Widget, "_send", _send)
    before = set(_instances)
    c = MatchController(CodexMatch(CodexSetup.quick(2, k=4), seed=5), humans={0, 1})
    board = CodexBoard(c, "en")
    first_render = sum(len(json.dumps(w.get_state(), default=str)) for k, w in _instances.items() if k not in before)
    r = _placements(board, c, sizes, random.Random(5), 60)

    app = App(save_dir=tmp_path)
    app.new_game()
    app.n_players.value = 2
    app.seat_rows[1][1].value = "human"
    app.option_widgets["k"].value = 4
    app.seed.value = "5"
    app.start()
    shell = _placements(app.board, app.controller, sizes, random.Random(5), 60)

    def med(xs):
        return statistics.median(xs)

    def p95(xs):
        return sorted(xs)[int(0.95 * (len(xs) - 1))]

    print(f"RESULT codex widget first render (state of every widget): {first_render:,} B")
    print(f"RESULT codex widget click on a plot (preview shown): median {med(r['preview']):,.0f} B, p95 {p95(r['preview']):,.0f} B")
    print(f"RESULT codex widget confirm: the board's messages median {med(r['confirm_map']):,.0f} B / p95 {p95(r['confirm_map']):,.0f} B; "
          f"everything median {med(r['confirm']):,.0f} B / p95 {p95(r['confirm']):,.0f} B")
    print(f"RESULT codex widget whole placement (roll + click + confirm): the board's messages median {med(r['whole_map']):,.0f} B; "
          f"everything median {med(r['whole']):,.0f} B / p95 {p95(r['whole']):,.0f} B over {len(r['whole'])} placements")
    print(f"RESULT codex widget kernel time per confirm (engine + controller + board): median {med(r['ms']):.1f} ms, "
          f"p95 {p95(r['ms']):.1f} ms")
    print(f"RESULT codex in the shell's MatchApp: confirm everything median {med(shell['confirm']):,.0f} B, "
          f"whole placement median {med(shell['whole']):,.0f} B / p95 {p95(shell['whole']):,.0f} B over "
          f"{len(shell['whole'])} placements; kernel time per confirm (with log and autosave) median "
          f"{med(shell['ms']):.1f} ms, p95 {p95(shell['ms']):.1f} ms")
    assert len(r["whole"]) >= 20 and len(shell["whole"]) >= 20
    assert med(r["confirm_map"]) < first_render / 20
