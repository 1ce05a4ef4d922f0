"""CPU players of Japanese Risk: legal play to the end, Normal's exact-odds rules, Hard's
determinized commitment.  Strength is measured in tests/benchmarks/test_bench_risk.py."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from conquest_widget.core.bots import decision, play_bots
from conquest_widget.games.japanese_risk.bots import (
    BOTS,
    DEFAULT_BOT,
    HardBot,
    NormalBot,
)
from conquest_widget.games.japanese_risk.engine import (
    CPU_LEVELS,
    NEUTRAL,
    Attack,
    EndTurn,
    JapaneseRisk,
    RiskSetup,
)
from conquest_widget.games.japanese_risk.odds import battle_odds_float

from .helpers import new_match, put, turn_of


def test_bot_table():
    assert set(BOTS) == {"easy", "normal", "hard"} and DEFAULT_BOT in BOTS
    for factory in BOTS.values():
        assert factory().label in BOTS
    # the levels a setup accepts (the engine's list, in its order) are the bots' levels
    assert tuple(BOTS) == CPU_LEVELS


def test_the_engine_does_not_import_the_bots():
    """The dependency goes bots -> engine only (issue 29): making and validating a setup
    with CPU seats and playing a match never loads the bots module."""
    code = (
        "import sys\n"
        "from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup\n"
        "m = JapaneseRisk(RiskSetup(players=('A', 'B'), bots=('human', 'hard')), seed=1)\n"
        "m.hidden_variant(0, __import__('random').Random(1))\n"
        "assert 'conquest_widget.games.japanese_risk.bots' not in sys.modules, 'bots imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("labels", [("easy", "normal"), ("normal", "hard"), ("hard", "easy", "normal", "hard", "easy")])
def test_bots_play_whole_games_legally(labels):
    m = JapaneseRisk(RiskSetup(players=tuple(f"C{i}" for i in range(len(labels))), round_limit=6), seed=len(labels))
    n = play_bots(m, {i: BOTS[lab]() for i, lab in enumerate(labels)}, seed=3)
    assert m.outcome() is not None and n > 20


def _choose(bot, m, seat=0):
    return bot.choose(*decision(m, seat, 1))


def test_normal_never_attacks_where_it_cannot_win():
    m = turn_of(new_match(2))
    for c in range(1, 10):
        m.state["card"][c] = 0
    put(m, 7, 0, board=1)            # one army next to unknown land: hopeless
    assert battle_odds_float(1, 2).win < NormalBot.threshold
    assert _choose(NormalBot(), m) == EndTurn()


def test_normal_commits_everything_next_to_its_target():
    m = turn_of(new_match(2))
    for c in range(1, 10):
        m.state["card"][c] = 0
    put(m, 7, 0, board=6)
    put(m, 15, NEUTRAL, board=2)
    m.state["revealed"][15] = True
    a = _choose(NormalBot(), m)
    assert isinstance(a, Attack) and a.count == 6


def test_hard_commits_just_enough_against_a_known_weak_defence():
    m = turn_of(new_match(2))
    for c in range(1, 10):
        m.state["card"][c] = 0
    put(m, 7, 0, board=20)
    put(m, 15, NEUTRAL, board=2)
    m.state["revealed"][15] = True
    a = _choose(HardBot(), m)
    assert isinstance(a, Attack) and a.count < 20
    assert battle_odds_float(a.count, 2).win >= HardBot.target_p


def test_bots_decide_on_resampled_states_too():
    """A bot only needs a view: it plays on from states drawn by resample_hidden."""
    from conquest_widget.games.japanese_risk.resample import resample_match

    rng = random.Random(5)
    m = JapaneseRisk(RiskSetup(players=("A", "B", "C"), round_limit=4), seed=9)
    play_bots(m, {i: BOTS["normal"]() for i in range(3)}, seed=1, max_actions=150)
    sim = resample_match(m.view(0), rng)
    play_bots(sim, {i: BOTS["hard"]() for i in range(3)}, seed=2, max_actions=300)
    assert len(sim.log) > 0
