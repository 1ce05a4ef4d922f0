"""Japanese Risk measurements, run on demand (benchmarks are not part of the normal run):

    nice -n 10 .venv/bin/python -m pytest -q -s tests/benchmarks/test_bench_risk.py

Environment: ``JR_BENCH_GAMES`` (games per CPU match-up, default 1000), ``JR_MC`` (Monte
Carlo battles per case, default 10^6).  CPU strength is asserted (Wilson 95% intervals);
times are printed only (no timed assertions).  Results: docs/ai_risk.md.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.japanese_risk.test_odds import monte_carlo

from conquest_widget.core.bots import decision
from conquest_widget.core.stats import format_share, wilson
from conquest_widget.games.japanese_risk import odds
from conquest_widget.games.japanese_risk.bots import BOTS
from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup

GAMES = int(os.environ.get("JR_BENCH_GAMES", "1000"))
MC = int(os.environ.get("JR_MC", "1000000"))
#: print the running share every this many games
PROGRESS = 50
#: bot games end by Shogun; the limit only guards against a stalemate (most territories wins)
ROUND_LIMIT = 60

pytestmark = pytest.mark.benchmark


def _duel(a: str, b: str, games: int, seed0: int, times: dict[str, list[float]] | None = None) -> tuple[float, int, dict]:
    """``a`` against ``b`` in 2-player games with the seats swapped every game; returns
    (a's wins, ties counting half; games; end reasons)."""
    score = 0.0
    reasons: dict[str, int] = {}
    for g in range(games):
        labels = (a, b) if g % 2 == 0 else (b, a)
        bots = {i: BOTS[lab]() for i, lab in enumerate(labels)}
        m = JapaneseRisk(RiskSetup(players=("X", "Y"), round_limit=ROUND_LIMIT), seed=seed0 + g)
        n = 0
        while m.outcome() is None:
            seat = m.to_act()[0]
            inputs = decision(m, seat, seed0 + g)
            t0 = time.perf_counter()
            action = bots[seat].choose(*inputs)
            if times is not None:
                times.setdefault(labels[seat], []).append(time.perf_counter() - t0)
            m.apply(action, seat)
            n += 1
        out = m.outcome()
        reasons[out.reason] = reasons.get(out.reason, 0) + 1
        ia = labels.index(a)
        if out.ranks[ia] == 1:
            score += 0.5 if out.ranks[1 - ia] == 1 else 1.0
        if (g + 1) % PROGRESS == 0:
            print(f"  {a} vs {b} after {g + 1} games: {format_share(score, g + 1)}", flush=True)
    return score, games, reasons


@pytest.mark.strength
def test_hard_beats_normal_two_player():
    times: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    score, n, reasons = _duel("hard", "normal", GAMES, 100_000, times)
    lo, _hi = wilson(score, n)
    hard = times["hard"]
    print(f"\nhard vs normal: {format_share(score, n)}, ends {reasons}, {time.perf_counter() - t0:.0f} s")
    print(f"hard decision time: median {1000 * statistics.median(hard):.2f} ms, "
          f"p95 {1000 * sorted(hard)[int(0.95 * len(hard))]:.2f} ms, max {1000 * max(hard):.1f} ms "
          f"over {len(hard)} decisions")
    assert lo > 0.55, format_share(score, n)


@pytest.mark.strength
def test_normal_beats_easy_clearly():
    score, n, reasons = _duel("normal", "easy", GAMES, 200_000)
    print(f"\nnormal vs easy: {format_share(score, n)}, ends {reasons}")
    assert wilson(score, n)[0] > 0.75


def test_random_games_per_second():
    rng = random.Random(1)
    t0 = time.perf_counter()
    games = actions = 0
    while time.perf_counter() - t0 < 30:
        m = JapaneseRisk(JapaneseRisk.random_setup(rng, rng.choice([2, 3, 4, 5])), seed=rng.randrange(2**31))
        while m.outcome() is None:
            seat = rng.choice(m.to_act())
            m.apply(rng.choice(m.legal_actions(seat)), seat)
            actions += 1
        games += 1
    dt = time.perf_counter() - t0
    print(f"\nrandom games (2-5 players, round limit 3-8): {games / dt:.2f} games/s, {actions / dt:.0f} actions/s")


def _ms(ts: list[float]) -> str:
    return f"min {1000 * min(ts):.2f} / median {1000 * statistics.median(ts):.2f} / max {1000 * max(ts):.2f} ms"


def test_odds_times():
    """Float odds (the exact chain in float64): every castle/bonus combination at 60 vs 60
    (open, castle, castle with a wounded defender; every sea count 0..60), cold (every cache
    cleared before each battle: ``odds.clear_caches()``), warm (the per-process transition
    tables kept: binomials, defender dice, index; the result caches cleared) and cached (the same battle again); then a grid of
    sizes; then exact Fractions."""
    combos = [(c, w, sea) for c, w in ((False, 0), (True, 0), (True, 1)) for sea in range(61)]
    odds.battle_odds_float(2, 2)  # numpy imported, BLAS loaded
    load0 = os.getloadavg()[0]
    for label, setup in (("cold", odds.clear_caches),
                         ("warm", lambda: (odds._float_sweep.cache_clear(), odds._float_cached.cache_clear()))):
        wall: list[float] = []
        cpu: list[float] = []
        worst = None
        for castle, wounded, sea in combos:
            setup()
            t0, c0 = time.perf_counter(), time.process_time()
            odds.battle_odds_float(60, 60, castle=castle, wounded=wounded, sea=sea)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            if wall[-1] == max(wall):
                worst = (castle, wounded, sea)
        print(f"\nRESULT float odds 60 vs 60, {label}, {len(combos)} castle/wounded/sea combinations: "
              f"wall {_ms(wall)} (slowest {worst}); CPU {_ms(cpu)}")
    from games.japanese_risk.reference_odds import reference_sweep

    before: list[float] = []
    for castle, wounded, sea in combos:  # the sweep this one replaced (9002694), same battles
        start = tuple(odds._start(60, 60, sea, 2.0 / 3.0, lambda n, p: tuple(map(float, odds._fbinom(n, p))), 1.0))
        c0 = time.process_time()
        reference_sweep.__wrapped__(start, 120 - wounded if castle else 60, castle)
        before.append(time.process_time() - c0)
    print(f"RESULT previous sweep (reference_odds.py), same 183 battles, warm: CPU {_ms(before)}")
    for castle, wounded, sea in combos:
        odds.battle_odds_float(60, 60, castle=castle, wounded=wounded, sea=sea)
    hits = []
    for castle, wounded, sea in combos:
        t0 = time.perf_counter()
        odds.battle_odds_float(60, 60, castle=castle, wounded=wounded, sea=sea)
        hits.append(time.perf_counter() - t0)
    print(f"RESULT float odds 60 vs 60, cached result: wall {_ms(hits)}")
    for castle in (False, True):
        ts, cs = [], []
        for a in range(5, 61, 5):
            for d in range(5, 61, 5):
                odds.clear_caches()
                t0, c0 = time.perf_counter(), time.process_time()
                odds.battle_odds_float(a, d, castle=castle, sea=a // 2)
                ts.append(time.perf_counter() - t0)
                cs.append(time.process_time() - c0)
        print(f"RESULT float odds, castle={castle}, cold, 144 sizes 5..60 x 5..60 with a sea pre-roll: "
              f"wall {_ms(ts)}; CPU {_ms(cs)}")
    print(f"RESULT 1-minute load average before / after the float figures: {load0:.2f} / {os.getloadavg()[0]:.2f}")
    for n in (10, 15, 20):
        odds.battle_odds.cache_clear()
        odds._exact_sweep.cache_clear()
        t0 = time.perf_counter()
        odds.battle_odds(n, n)
        print(f"exact Fractions {n} vs {n}: {1000 * (time.perf_counter() - t0):.0f} ms")
    t0 = time.perf_counter()
    odds.battle_odds(20, 20)
    print(f"exact 20 vs 20 again (cached): {1e6 * (time.perf_counter() - t0):.1f} us")


@pytest.mark.parametrize("case", [
    {"a0": 5, "d0": 4}, {"a0": 6, "d0": 3, "castle": True}, {"a0": 4, "d0": 2}, {"a0": 5, "d0": 3, "sea": 5},
    {"a0": 12, "d0": 4, "castle": True, "sea": 4},
], ids=["plain", "castle", "neutral", "sea", "castle-sea-12v4"])
def test_monte_carlo_million(case):
    o = odds.battle_odds(case["a0"], case["d0"], castle=case.get("castle", False), sea=case.get("sea", 0))
    a, _ = monte_carlo(**case, n=MC, seed=7)
    p = float(o.win)
    z = (float((a > 0).mean()) - p) / math.sqrt(p * (1 - p) / MC)
    print(f"\nMonte Carlo {case}: exact {p:.6f}, simulated {(a > 0).mean():.6f} (n={MC}), z = {z:+.2f}")
    assert abs(z) <= 3


def test_widget_bytes_per_move(tmp_path) -> None:
    """What the Japanese Risk board sends over the wire (``tests/games/japan_conquest/widget/wire.py``: every comm
    message as ipykernel sends it, comm opens included), per decision of a human playing
    against a Normal CPU by clicks (each decision = the clicks and the act(s) it takes,
    plus the CPU moves that follow it), and in the shell's MatchApp (log, autosave)."""
    import ipywidgets as W
    from games.japan_conquest.widget.wire import WireCounter, state_request_bytes
    from games.japanese_risk.test_widget import play_turn_step

    from conquest_widget.games.japanese_risk.widget import App, RiskBoard
    from conquest_widget.ui.controller import MatchController

    def run(c, board, wire, seed: int) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {"data": [], "frames": [], "map": [], "opens": [], "acts": [], "ms": []}
        rng = random.Random(seed)
        last, steps = None, 0
        while not c.is_over:
            turn = (c.view.get("round"), c.view.get("current"))
            steps = steps + 1 if turn == last else 0
            last = turn
            wire.reset()
            v0 = c.version
            t = time.perf_counter()
            play_turn_step(board, rng, steps)
            out["ms"].append((time.perf_counter() - t) * 1000)
            out["data"].append(wire.data)
            out["frames"].append(wire.frames)
            out["map"].append(wire.map_data())
            out["opens"].append(wire.opens)
            out["acts"].append(c.version - v0)
        return out

    def med(xs):
        return statistics.median(xs)

    def p95(xs):
        return sorted(xs)[int(0.95 * (len(xs) - 1))]

    W.Widget.close_all()
    rows = []
    with WireCounter() as wire:
        setup = RiskSetup(("Ann", "Ben"), round_limit=6, bots=("human", "normal"))
        c = MatchController(JapaneseRisk(setup, seed=5), humans={0})
        board = RiskBoard(c, "en")
        first = (wire.data, wire.frames, wire.opens)
        state = state_request_bytes()
        r = run(c, board, wire, 5)
        W.Widget.close_all()
        app = App(save_dir=tmp_path)
        app.new_game()
        app.n_players.value = 2
        app.seat_rows[1][1].value = "normal"
        app.option_widgets["round_limit"].value = 6
        app.speed.value = "instant"
        app.seed.value = "5"
        wire.reset()
        app.start()
        shell_first = (wire.data, wire.frames, wire.opens)
        s = run(app.controller, app.board, wire, 5)
    per_act = [d / a for d, a in zip(r["data"], r["acts"], strict=True) if a]
    rows.append(f"first render of the board: data {first[0]:,} B, frames {first[1]:,} B, {first[2]} comm opens; "
                f"state request {state:,} B")
    rows.append(f"per human decision ({len(r['data'])} decisions, {sum(r['acts'])} controller versions): data median "
                f"{med(r['data']):,.0f} B / p95 {p95(r['data']):,.0f} B; map layers median {med(r['map']):,.0f} B; "
                f"frames median {med(r['frames']):,.0f} B; comm opens median {med(r['opens']):.0f}, max {max(r['opens'])}")
    rows.append(f"per controller version (a move, CPU moves included): data median {med(per_act):,.0f} B / "
                f"p95 {p95(per_act):,.0f} B")
    rows.append(f"kernel time per decision (board + controller + CPU replies): median {med(r['ms']):.1f} ms, "
                f"p95 {p95(r['ms']):.1f} ms")
    rows.append(f"in the shell's MatchApp: first render data {shell_first[0]:,} B ({shell_first[2]} opens); per "
                f"decision data median {med(s['data']):,.0f} B / p95 {p95(s['data']):,.0f} B; kernel time median "
                f"{med(s['ms']):.1f} ms, p95 {p95(s['ms']):.1f} ms (log and autosave included)")
    for row in rows:
        print("RESULT japanese risk widget", row)
    assert len(r["data"]) >= 10
    assert med(r["map"]) < first[0] / 20  # incremental: a decision sends a small share of the first render
