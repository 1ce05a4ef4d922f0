"""Acceptance measurements of the card game's CPUs and engine (issue 12).  On demand only:

    nice -n 10 .venv/bin/python -m pytest tests/benchmarks/test_bench_conquest_cards.py \\
        -p no:cacheprovider -o addopts="" -s

Sizes come from the environment: ``CC_DEALS`` (default 1000) seat-swapped deals for the
fast pairings and the first-player advantage, ``CC_HARD_DEALS`` (default 1000) for the
pairings with the Hard CPU (about 2 s per game on a busy 2-core machine).  Every result
is printed and written to the block between the markers of docs/ai_conquest_cards.md.
No test asserts on strength or time.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import random
import re
import statistics
import time
from pathlib import Path

import pytest

from conquest_widget.core.bots import decision
from conquest_widget.core.stats import format_share, wilson
from conquest_widget.games.conquest_cards.bots import BOTS, HardBot
from conquest_widget.games.conquest_cards.engine import ConquestCards
from conquest_widget.games.conquest_cards.resample import true_state
from conquest_widget.games.conquest_cards.setup import CardsSetup, PlayerSeat

pytestmark = pytest.mark.benchmark

DOC = Path(__file__).resolve().parents[2] / "docs" / "ai_conquest_cards.md"
DEALS = int(os.environ.get("CC_DEALS", "1000"))
HARD_DEALS = int(os.environ.get("CC_HARD_DEALS", "1000"))
#: first deal of the Hard pairings (to extend a measurement with further deals in parallel runs)
HARD_OFFSET = int(os.environ.get("CC_HARD_OFFSET", "0"))
HARD_TIMES: list[float] = []
HARD_FIRST_TIMES: list[float] = []


def _write(key: str, title: str, rows: list[tuple[str, str]]) -> None:
    """Set section ``key`` of the results block of docs/ai_conquest_cards.md."""
    start, end = "<!-- bench:start -->", "<!-- bench:end -->"
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# CPU players of Conquest\n"
    i, j = text.find(start), text.find(end)
    sections: dict = {}
    if i != -1 and j > i and (m := re.search(r"<!-- bench-results: (.*?) -->", text[i:j], re.DOTALL)):
        sections = json.loads(m.group(1))
    sections[key] = {"title": title, "date": _dt.date.today().isoformat(), "rows": rows}
    lines = [start]
    for s in sections.values():
        lines += [f"### {s['title']}", "", f"Measured {s['date']}.", "", "| measure | value |", "|---|---|"]
        lines += [f"| {a} | {b} |" for a, b in s["rows"]]
        lines.append("")
    lines += [f"<!-- bench-results: {json.dumps(sections, ensure_ascii=False)} -->", end]
    block = "\n".join(lines)
    text = text[:i] + block + text[j + len(end):] if i != -1 and j > i else text.rstrip("\n") + "\n\n" + block + "\n"
    DOC.write_text(text, encoding="utf-8")
    print(f"\n{title}")
    for a, b in rows:
        print(f"  {a}: {b}")


def _play(m: ConquestCards, bots: dict, seed: int, timed: set[int] = frozenset()) -> None:
    while m.outcome() is None:
        seat = m.to_act()[0]
        view, legal, rng = decision(m, seat, seed)
        t = time.perf_counter()
        action = bots[seat].choose(view, legal, rng)
        if seat in timed and len(legal) > 1:
            dt = time.perf_counter() - t
            HARD_TIMES.append(dt)
            if view["stage"] == "play" and not view["selected"]:
                HARD_FIRST_TIMES.append(dt)
        m.apply(action, seat)


def _duel(make_a, make_b, deals: int, *, time_a: bool = False, seed0: int = 0, report=None) -> tuple[float, int]:
    """Wins of A over seat-swapped 2-player deals (the same deal played twice, A in each
    seat); a shared win counts half.  ``report(won, games, deals_done)`` is called every
    10 deals (long runs write their figures as they go)."""
    won = 0.0
    for d in range(deals):
        for seat_a in (0, 1):
            m = ConquestCards(CardsSetup.quick(2), seed=seed0 + d)
            bots = {seat_a: make_a(m), 1 - seat_a: make_b(m)}
            _play(m, bots, seed0 + d, {seat_a} if time_a else set())
            r = m.outcome().ranks
            won += 1.0 if r[seat_a] < r[1 - seat_a] else 0.5 if r[seat_a] == r[1 - seat_a] else 0.0
        if (d + 1) % 10 == 0:
            print(f"  ... {d + 1} deals: {format_share(won, 2 * (d + 1))}", flush=True)
            if report is not None:
                report(won, 2 * (d + 1), d + 1)
    return won, 2 * deals


def _share_row(label: str, won: float, n: int) -> tuple[str, str]:
    lo, _ = wilson(won, n)
    return label, f"{format_share(won, n)}; lower end {100 * lo:.1f}%"


@pytest.mark.strength
def test_bench_normal_vs_easy() -> None:
    t = time.perf_counter()
    won, n = _duel(lambda m: BOTS["normal"](), lambda m: BOTS["easy"](), DEALS)
    _write("normal_easy", "Normal vs Easy, 2 players (aim: lower end > 60%)", [
        _share_row("Normal's share of wins", won, n), ("deals x 2 seats", f"{DEALS} x 2"),
        ("wall time", f"{time.perf_counter() - t:.0f} s")])


@pytest.mark.strength
def test_bench_first_player_advantage() -> None:
    rows = []
    for n in (2, 3, 4):
        first = 0.0
        for d in range(DEALS):
            m = ConquestCards(CardsSetup.quick(n), seed=10_000 + d)
            starter = m.to_act()[0]
            _play(m, {s: BOTS["normal"]() for s in range(n)}, d)
            w = m.outcome().winners
            first += (1 / len(w)) if starter in w else 0.0
        rows.append(_share_row(f"{n} players: starter's share of wins (fair: {100 / n:.1f}%)", first, DEALS))
    _write("first_player", "First-player advantage, Normal CPUs in every seat", rows)


def test_bench_random_legal_speed() -> None:
    rng = random.Random(1)
    games, actions = 300, 0
    t = time.perf_counter()
    cpu = time.process_time()
    for i in range(games):
        m = ConquestCards(CardsSetup.quick(4), seed=i)
        while m.outcome() is None:
            seat = m.to_act()[0]
            legal = m.legal_actions(seat)
            m.apply(legal[rng.randrange(len(legal))], seat)
            actions += 1
    dt = time.perf_counter() - t
    dcpu = time.process_time() - cpu
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    _write("speed", "Engine speed: random-legal 4-player games (aim >= 500/s on one core)", [
        ("games per second of CPU time (one core)", f"{games / dcpu:.0f}"),
        ("games per second of wall time", f"{games / dt:.0f} (load average {load:.1f} on {os.cpu_count()} cores)"),
        ("actions per game", f"{actions / games:.0f}"), ("actions per CPU second", f"{actions / dcpu:.0f}")])


@pytest.mark.strength
def test_bench_hard_vs_normal() -> None:
    HARD_TIMES.clear()
    HARD_FIRST_TIMES.clear()
    t = time.perf_counter()

    def report(won: float, n: int, done: int) -> None:
        times, first = sorted(HARD_TIMES), sorted(HARD_FIRST_TIMES)
        key = "hard_normal" + (f"_from_{HARD_OFFSET}" if HARD_OFFSET else "")
        title = "Hard vs Normal, 2 players (aim: lower end > 55%)" + (f", deals from {HARD_OFFSET}" if HARD_OFFSET else "")
        _write(key, title, [
            _share_row("Hard's share of wins", won, n), ("deals x 2 seats", f"{done} x 2 (of {HARD_DEALS} planned)"),
            ("Hard decision time, median (all decisions with a choice)", f"{1000 * statistics.median(times):.0f} ms"),
            ("Hard decision time, 95th percentile", f"{1000 * times[int(0.95 * len(times))]:.0f} ms"),
            ("Hard first decision of a turn, median", f"{1000 * statistics.median(first):.0f} ms"),
            ("decisions timed", str(len(times))), ("wall time", f"{time.perf_counter() - t:.0f} s")])

    won, n = _duel(lambda m: HardBot(), lambda m: BOTS["normal"](), HARD_DEALS, time_a=True, seed0=50_000 + HARD_OFFSET, report=report)
    report(won, n, HARD_DEALS)


@pytest.mark.strength
def test_bench_value_of_hidden_information() -> None:
    """The same search allowed to see every card (``peek``) against the real Hard."""
    t = time.perf_counter()

    def seeing(m: ConquestCards) -> HardBot:
        return HardBot(peek=lambda: true_state(m))

    def report(won: float, n: int, done: int) -> None:
        _write("hidden", "Value of hidden information: Hard seeing all cards vs Hard", [
            _share_row("share of wins of the all-seeing search", won, n),
            ("deals x 2 seats", f"{done} x 2 (of {HARD_DEALS} planned)"), ("wall time", f"{time.perf_counter() - t:.0f} s")])

    won, n = _duel(seeing, lambda m: HardBot(), HARD_DEALS, seed0=90_000, report=report)
    report(won, n, HARD_DEALS)


def test_bench_hard_decision_time() -> None:
    """Hard's decisions (with a choice) in 2- and 4-player games against Normal: wall time
    and CPU time of this process (the machine may be shared)."""
    rows = []
    for n in (2, 4):
        wall: list[float] = []
        cpu: list[float] = []
        for g in range(3):
            m = ConquestCards(CardsSetup.quick(n, jokers=g == 1, reveal_hands=g == 2), seed=70_000 + g)
            bots = {s: HardBot() if s == 0 else BOTS["normal"]() for s in range(n)}
            while m.outcome() is None:
                seat = m.to_act()[0]
                view, legal, rng = decision(m, seat, g)
                t, c = time.perf_counter(), time.process_time()
                action = bots[seat].choose(view, legal, rng)
                if seat == 0 and len(legal) > 1:
                    wall.append(time.perf_counter() - t)
                    cpu.append(time.process_time() - c)
                m.apply(action, seat)
        wall.sort()
        cpu.sort()
        rows.append((f"{n} players: median wall / CPU time ({len(wall)} decisions)",
                     f"{1000 * statistics.median(wall):.0f} ms / {1000 * statistics.median(cpu):.0f} ms"))
        rows.append((f"{n} players: 95th percentile wall / CPU time",
                     f"{1000 * wall[int(0.95 * len(wall))]:.0f} ms / {1000 * cpu[int(0.95 * len(cpu))]:.0f} ms"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows.append(("load average during the run", f"{load:.1f} on {os.cpu_count()} cores"))
    _write("hard_time", "Hard decision time (aim: median < 0.5 s)", rows)


def test_bench_card_widget_bytes_per_play(monkeypatch, tmp_path) -> None:
    """Bytes the kernel sends to the browser per click on the card table (every comm
    message of every widget, JSON + buffers, as tests/benchmarks/test_bench_widget.py
    counts them): a human against an Instant CPU, every turn "draw, select the cards of a
    group, play on a face card".  The play click's bytes include the CPU's whole reply
    turn.  Measured twice: the board alone, and the board inside the shell's MatchApp
    (log, autosave, buttons).  Written to the "Conquest (card game) widget" block of
    docs/performance.md."""
    import ipywidgets as W
    from ipywidgets import Widget
    from ipywidgets.widgets.widget import _instances
    from perfdoc import update_block

    from conquest_widget.games.conquest_cards.widget import App, CardsBoard
    from conquest_widget.ui.controller import MatchController

    sent = [0]
    original = Widget._send

    def _send(self, msg, buffers=None):
        sent[0] += len(json.dumps(msg, default=str)) + sum(len(b) for b in buffers or [])
        return original(self, msg, buffers)

    monkeypatch.setattr(Widget, "_send", _send)

    def click(target: str) -> int:
        sent[0] = 0
        assert board.click(target), target
        return sent[0]

    def play(c: MatchController, board: CardsBoard) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {"draw": [], "select": [], "play": [], "turn": []}
        while not c.is_over:
            turn = click("draw")
            out["draw"].append(turn)
            while True:
                free = [x for x in board.clickable() if x.startswith("card-") and x != "card-JK"
                        and "cwc-selected" not in board.classes(x)]
                if not free:
                    break
                n = click(free[0])
                out["select"].append(n)
                turn += n
            faces = [x for x in board.clickable() if x.startswith(f"face-{c.viewer}-")]
            n = click(faces[-1] if faces else "end-turn")
            out["play"].append(n)
            out["turn"].append(turn + n)
        return out

    def med(xs: list[int]) -> str:
        return f"{statistics.median(xs):,.0f} B (max {max(xs):,})" if xs else "-"

    rows = []
    for label, make in (("board alone", "board"), ("board in the shell's MatchApp", "app")):
        W.Widget.close_all()
        if make == "board":
            m = ConquestCards(CardsSetup(tuple(PlayerSeat(f"P{i}", cpu=i > 0, bot="easy") for i in range(3)), None), seed=9)
            c = MatchController(m, humans={0})
            board = CardsBoard(c, "en")
        else:
            app = App(save_dir=tmp_path / "saves")
            app.new_game()
            app.n_players.value = 3
            for i, (_name, kind) in enumerate(app.seat_rows[:3]):
                kind.value = "human" if i == 0 else "easy"
            app.speed.value = "instant"
            app.seed.value = "9"
            app.start()
            c, board = app.controller, app.board
        # widgets are created with their whole state (comm open, not counted by _send)
        first = sum(len(json.dumps(w.get_state(), default=str)) for w in _instances.values())
        out = play(c, board)
        rows += [
            (f"{label}: state of every live widget at the start", f"{first:,} B"),
            (f"{label}: per draw click (median)", med(out["draw"])),
            (f"{label}: per card selected (median)", med(out["select"])),
            (f"{label}: per play click incl. the CPUs' replies (median)", med(out["play"])),
            (f"{label}: per whole human turn (median, {len(out['turn'])} turns)", med(out["turn"])),
        ]
    print()
    for a, b in rows:
        print(f"  {a}: {b}")
    update_block("cards-widget-bench", "Conquest (card game) widget (issue 12)",
                 "Bytes the kernel sends to the browser per click on the card table, 1 human vs 2 Easy CPUs "
                 "(Instant), counted over every comm message (`tests/benchmarks/test_bench_conquest_cards.py::"
                 "test_bench_card_widget_bytes_per_play`).  The board is one front-end widget (issue 32): its "
                 "JavaScript and CSS are sent once with its state, then each redraw sends only the keys of its "
                 "scene that changed, one message.",
                 "bytes", "Bytes per click", rows)
