"""Speed benchmarks of the Japan Conquest engine (issue 3).  Run on demand: ``make bench``.

No timed assertions: the figures are printed and written to ``docs/performance.md``.

(a) Legal next steps for a fresh allowance of 18 from the most connected prefecture of a
    mid-game state (a seeded random 4-player game played for 20 turns each): median and p95
    of ``legal_steps()``, cold (route cache invalidated before each call, so the
    RouteContext and its feasibility memo are rebuilt) and warm (cached).  Aim: p95 < 5 ms.
(b) Full 4-player 50-turn games with every decision random-legal: games per second.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ -> the japan helpers

from games.japan_conquest.random_play import BOARD, choose_action, random_homes
from perfdoc import update_block

from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    RandomDice,
    ScriptedDice,
)

REPS = 300
GAMES = 20
MID_GAME_TURNS = 20
SEED = 2024


class RecordingDice(RandomDice):
    """Random dice that remember every face, so a position can be rebuilt with scripted dice."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.faces: list[int] = []

    def roll(self, n: int) -> tuple[int, ...]:
        out = super().roll(n)
        self.faces.extend(out)
        return out


def most_connected() -> int:
    return max(BOARD.codes, key=lambda c: (len(BOARD.adjacency[c]), -c))


def mid_game_with_allowance_18(pos: int) -> JapanMatch:
    """A 4-player game after 20 random turns each, the current player moved to ``pos`` with
    a Triple Dice rolled as 6+6+6 (a fresh allowance of 18)."""
    rng = random.Random(SEED)
    setup = GameSetup.quick(random_homes(rng, 4), turns=50, seed=SEED)
    dice = RecordingDice(SEED)
    game = JapanMatch(setup, dice=dice)
    while not (game.phase == "roll" and min(p.turns_done for p in game.state.players) >= MID_GAME_TURNS):
        game.push(choose_action(game, rng))
        assert not game.is_over
    # rebuild the same position with scripted dice that then roll 6, 6, 6
    first = game
    game = JapanMatch(setup, dice=ScriptedDice(dice.faces + [6, 6, 6]))
    for action in first.actions():
        game.push(action)
    seat = game.current_player
    game.edit_player(seat, position=pos, triples=max(1, game.items(seat)["triple"]))
    game.roll(3)
    assert game.phase == "route" and game.allowance == 18
    return game


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def time_legal_steps(game: JapanMatch, *, cold: bool, reps: int = REPS) -> list[float]:
    out = []
    expected = game.legal_steps()
    for _ in range(reps):
        if cold:
            game._invalidate()  # drop the cached RouteContext and its memo
        t = time.perf_counter()
        steps = game.legal_steps()
        out.append((time.perf_counter() - t) * 1000)
        assert steps == expected
    return out


def ms(x: float) -> str:
    return f"{x:.3f} ms" if x < 10 else f"{x:.1f} ms"


# ----------------------------------------------------------------------------- report
TITLES = {
    "legal_steps": "Legal next steps, fresh allowance of 18, most connected prefecture, mid-game",
    "full_games": "Full 4-player 50-turn games, every decision random-legal",
}


def update_doc(key: str, rows: list[tuple[str, str]]) -> None:
    """Write this benchmark's rows into its block of docs/performance.md."""
    update_block(
        "engine-bench", "Rules engine (issue 3)",
        "Written by `tests/benchmarks/test_bench_engine.py` (`make bench`).", key, TITLES[key], rows,
    )


# ----------------------------------------------------------------------------- benchmarks
@pytest.mark.benchmark
def test_bench_legal_steps_allowance_18():
    pos = most_connected()
    game = mid_game_with_allowance_18(pos)
    name = BOARD.prefecture(pos).name_en
    for _ in range(20):  # warm up the interpreter
        game._invalidate()
        game.legal_steps()
    cold = time_legal_steps(game, cold=True)
    warm = time_legal_steps(game, cold=False)
    # every other start prefecture, cold, to find the slowest one
    others = []
    for code in BOARD.codes:
        g = mid_game_with_allowance_18(code)
        t = time_legal_steps(g, cold=True, reps=40)
        others.append((code, statistics.median(t), percentile(t, 0.95)))
    worst = max(others, key=lambda o: o[2])
    # planning a whole route: legal_steps() after every step (cold start), random steps
    plans = []
    prng = random.Random(1)
    for _ in range(100):
        while game.route:
            game.undo_step()
        game._invalidate()
        t = time.perf_counter()
        while True:
            steps = game.legal_steps()
            if game.can_confirm() or not steps:
                break
            game.step(prng.choice(steps))
        plans.append((time.perf_counter() - t) * 1000)
    while game.route:
        game.undo_step()
    st = game.state
    owned = sum(o >= 0 for o in st.owner[1:])
    rows = [
        ("position", (f"{name} ({pos}), {len(BOARD.adjacency[pos])} neighbours; turn {game.turn_number()} of 50, "
                      f"{owned}/47 prefectures owned; {len(game.legal_steps())} legal first steps")),
        (f"cold `legal_steps()` median ({REPS} runs)", ms(statistics.median(cold))),
        (f"cold `legal_steps()` p95 ({REPS} runs)", ms(percentile(cold, 0.95))),
        ("cold max", ms(max(cold))),
        (f"warm `legal_steps()` median ({REPS} runs)", ms(statistics.median(warm))),
        (f"warm `legal_steps()` p95 ({REPS} runs)", ms(percentile(warm, 0.95))),
        ("target (issue 3)", "p95 < 5 ms: " + ("met" if percentile(cold, 0.95) < 5 else "NOT MET")),
    ]
    rows.append((f"plan a full route step by step (`legal_steps()` after each step), cold, {len(plans)} routes",
                 f"median {ms(statistics.median(plans))}, p95 {ms(percentile(plans, 0.95))}"))
    code, med, p95 = worst
    rows.append(("slowest start of all 47 (cold, 40 runs each)",
                 (f"{BOARD.prefecture(code).name_en} ({code}, {len(BOARD.adjacency[code])} neighbours): "
                  f"median {ms(med)}, p95 {ms(p95)}")))
    print()
    for a, b in rows:
        print(f"  {a}: {b}")
    update_doc("legal_steps", rows)


@pytest.mark.benchmark
def test_bench_full_random_games():
    rng = random.Random(SEED)
    games = []
    for i in range(GAMES):
        setup = GameSetup.quick(random_homes(rng, 4), turns=50, seed=SEED + i)
        games.append((JapanMatch(setup, dice=RandomDice(SEED + i)), random.Random(i)))
    actions = 0
    times = []
    for game, choice in games:
        t = time.perf_counter()
        while not game.is_over:
            game.push(choose_action(game, choice))
        times.append(time.perf_counter() - t)
        actions += game.action_count
        assert game.state.end_reason in ("turns", "defeat")
    total = sum(times)
    ended = sum(g.state.end_reason == "turns" for g, _ in games)
    rows = [
        ("games", f"{GAMES} (4 players, 50 turns; {ended} reached the turn limit, {GAMES - ended} ended by a defeat)"),
        ("decisions", "random legal actions; a legal ConfirmRoute is taken with probability 0.8"),
        ("total time", f"{total:.2f} s"),
        ("games per second", f"{GAMES / total:.2f}"),
        ("time per game: median / max", f"{statistics.median(times):.3f} s / {max(times):.3f} s"),
        ("actions per game (mean)", f"{actions / GAMES:.0f}"),
        ("actions per second", f"{actions / total:,.0f}"),
    ]
    print()
    for a, b in rows:
        print(f"  {a}: {b}")
    update_doc("full_games", rows)
