"""Exact battle odds: the absorbing chain against hand-computed cases, the float path, a
seeded Monte Carlo (10^5 battles a case here; 10^6 in the benchmark) and the engine itself."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquest_widget.games.japanese_risk import odds
from conquest_widget.games.japanese_risk.engine import NEUTRAL, Attack, Launch
from conquest_widget.games.japanese_risk.odds import (
    OddsError,
    battle_odds,
    battle_odds_float,
    neutral_odds,
)

from .helpers import new_match, put, turn_of
from .reference_odds import reference_sweep

MC = 100_000


def monte_carlo(a0: int, d0: int, *, castle: bool = False, wounded: int = 0, sea: int = 0, n: int = MC,
                seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Simulate ``n`` battles with literal dice, independently of odds.py.
    Returns (attackers left, defender armies left) per battle."""
    rng = np.random.default_rng(seed)
    a = np.full(n, a0)
    hp = np.full(n, 2 * d0 - wounded if castle else d0)

    def armies(h):
        return (h + 1) // 2 if castle else h

    if sea and d0:
        dice = rng.integers(1, 7, size=(n, d0))
        hits = (dice <= 4).sum(axis=1)
        a = a - np.minimum(hits, sea)
    width = max(a0, d0) + 1
    while True:
        live = (a > 0) & (hp > 0)
        if not live.any():
            break
        ad = rng.integers(1, 7, size=(n, width))
        dd = rng.integers(1, 7, size=(n, width))
        col = np.arange(width)[None, :]
        ah = ((ad <= 3) & (col < a[:, None])).sum(axis=1)
        dh = ((dd <= 4) & (col < armies(hp)[:, None])).sum(axis=1)
        hp = np.where(live, np.maximum(hp - ah, 0), hp)
        a = np.where(live, np.maximum(a - dh, 0), a)
    return a, armies(hp)


def test_one_against_one_by_hand():
    # per round: only the attacker hits 1/2*1/3 = 1/6, both 1/3, only the defender 1/2*2/3 = 1/3
    o = battle_odds(1, 1)
    assert o.win == Fraction(1, 5)
    assert o.distribution == {("attacker", 1): Fraction(1, 5), ("defender", 1): Fraction(2, 5),
                              ("defender", 0): Fraction(2, 5)}
    assert o.expected_attackers == Fraction(1, 5) and o.expected_defenders == Fraction(2, 5)


def test_distributions_sum_to_one_and_are_exact():
    for a, d, castle, sea in [(3, 2, False, 0), (4, 3, True, 0), (5, 2, False, 5), (6, 4, True, 2), (2, 5, False, 0)]:
        o = battle_odds(a, d, castle=castle, sea=sea)
        assert sum(o.distribution.values()) == 1
        assert all(isinstance(p, Fraction) for p in o.distribution.values())
        assert 0 <= o.win <= 1


def test_castle_and_sea_cost_the_attacker():
    assert battle_odds(6, 3, castle=True).win < battle_odds(6, 3).win
    assert battle_odds(6, 3, sea=6).win < battle_odds(6, 3, sea=1).win < battle_odds(6, 3).win
    assert battle_odds(6, 3, sea=6).win == battle_odds(6, 3, sea=3).win  # 3 dice hit at most 3
    assert battle_odds(4, 1, castle=True, wounded=1).win > battle_odds(4, 1, castle=True).win
    assert neutral_odds(4).win == battle_odds(4, 2).win


def test_float_path_agrees_with_the_exact_chain():
    for a, d, castle, wounded, sea in [(7, 5, False, 0, 0), (8, 4, True, 1, 3), (10, 10, False, 0, 10), (3, 9, True, 0, 0)]:
        e = battle_odds(a, d, castle=castle, wounded=wounded, sea=sea)
        f = battle_odds_float(a, d, castle=castle, wounded=wounded, sea=sea)
        assert abs(float(e.win) - f.win) < 1e-12
        assert abs(float(e.expected_attackers) - f.expected_attackers) < 1e-11
        assert abs(float(e.expected_defenders) - f.expected_defenders) < 1e-11
        for k, p in e.distribution.items():
            assert abs(float(p) - f.distribution.get(k, 0.0)) < 1e-12


def _both_sweeps(a: int, d: int, castle: bool, wounded: int, sea: int) -> tuple[np.ndarray, np.ndarray]:
    """(the reference sweep's absorption vector, the current one's) for one battle."""
    h0 = 2 * d - wounded if castle else d
    start = tuple(odds._start(a, d, sea, 2.0 / 3.0, lambda n, p: tuple(float(x) for x in odds._fbinom(n, p)), 1.0))
    ref = reference_sweep.__wrapped__(start, h0, castle)
    new = odds._float_sweep.__wrapped__(start, h0, castle)
    return np.concatenate(ref), np.concatenate(new)


def _assert_same_chain(ref: np.ndarray, new: np.ndarray) -> None:
    assert ref.shape == new.shape
    assert np.abs(ref - new).max() <= 1e-15
    big = ref > 1e-200  # and the tiny tails agree relatively, not only absolutely
    assert (np.abs(ref - new)[big] / ref[big]).max() <= 1e-12
    assert ((new == 0) == (ref == 0)).all()


@pytest.mark.parametrize("castle,wounded", [(False, 0), (True, 0), (True, 1)], ids=["open", "castle", "castle-wounded"])
def test_fast_float_sweep_reproduces_the_reference_sweep(castle, wounded):
    """The faster sweep (scratch transition matrix, summed columns, trimmed rows) gives the
    same numbers as the sweep it replaced, over a grid up to 60 vs 60 with every kind of sea."""
    for a in (1, 2, 5, 16, 37, 60):
        for d in (1, 2, 7, 30, 60):
            for sea in sorted({0, 1, a // 2, a}):
                _assert_same_chain(*_both_sweeps(a, d, castle, wounded, sea))


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 60), d=st.integers(1, 60), castle=st.booleans(), wounded=st.integers(0, 1),
       sea_share=st.floats(0, 1))
def test_fast_float_sweep_property(a, d, castle, wounded, sea_share):
    _assert_same_chain(*_both_sweeps(a, d, castle, wounded if castle else 0, round(a * sea_share)))


@settings(max_examples=40, deadline=None)
@given(a=st.integers(0, 6), d=st.integers(0, 5), castle=st.booleans(), wounded=st.integers(0, 1),
       sea_share=st.floats(0, 1))
def test_float_path_equals_the_fractions_property(a, d, castle, wounded, sea_share):
    """Against exact Fractions (small battles: the fractions grow fast)."""
    w = wounded if castle and d else 0
    sea = round(a * sea_share)
    e = battle_odds(a, d, castle=castle, wounded=w, sea=sea)
    f = battle_odds_float(a, d, castle=castle, wounded=w, sea=sea)
    assert abs(float(e.win) - f.win) < 1e-14
    assert abs(float(e.expected_attackers) - f.expected_attackers) < 1e-13
    assert abs(float(e.expected_defenders) - f.expected_defenders) < 1e-13
    assert set(e.distribution) == set(f.distribution)
    for k, p in e.distribution.items():
        assert abs(float(p) - f.distribution[k]) < 1e-14


def test_clear_caches_forgets_results_and_transition_tables():
    battle_odds_float(60, 60, castle=True)
    assert odds._defence.cache_info().currsize and odds._float_cached.cache_info().currsize
    odds.clear_caches()
    assert odds._defence.cache_info().currsize == 0 and odds._float_cached.cache_info().currsize == 0
    assert odds._fbinom.cache_info().currsize == 0
    assert battle_odds_float(60, 60, castle=True).win == battle_odds_float(60, 60, castle=True).win


def test_sixty_against_sixty_float_is_a_distribution():
    for castle in (False, True):
        f = battle_odds_float(60, 60, castle=castle, sea=20)
        assert abs(sum(f.distribution.values()) - 1) < 1e-9


def test_bad_battles_are_refused():
    with pytest.raises(OddsError, match="non-negative"):
        battle_odds(3, -1)
    with pytest.raises(OddsError, match="sea"):
        battle_odds(3, 1, sea=4)
    with pytest.raises(OddsError, match="wounded"):
        battle_odds(3, 1, wounded=1)
    with pytest.raises(OddsError, match="at most"):
        battle_odds_float(500, 1)


@pytest.mark.parametrize("case", [
    {"a0": 5, "d0": 4}, {"a0": 6, "d0": 3, "castle": True}, {"a0": 4, "d0": 2}, {"a0": 5, "d0": 3, "sea": 5},
    {"a0": 7, "d0": 3, "castle": True, "wounded": 1, "sea": 2},
], ids=["plain", "castle", "neutral", "sea", "castle-wounded-mixed-sea"])
def test_monte_carlo_within_three_sigma(case):
    o = battle_odds(case["a0"], case["d0"], castle=case.get("castle", False), wounded=case.get("wounded", 0),
                    sea=case.get("sea", 0))
    a, d = monte_carlo(**case, seed=sum(map(int, case.values())))
    n = len(a)
    p = float(o.win)
    win = (a > 0).mean()
    assert abs(win - p) <= 3 * math.sqrt(p * (1 - p) / n) + 1e-12
    for arr, expected in ((a, o.expected_attackers), (d, o.expected_defenders)):
        assert abs(arr.mean() - float(expected)) <= 3 * arr.std() / math.sqrt(n) + 1e-12
    # the whole outcome distribution: each cell within 3 sigma (and 4 for the many cells)
    for (side, k), pk in o.distribution.items():
        freq = ((a == k) & (d == 0)).mean() if side == "attacker" else ((a == 0) & (d == k)).mean()
        assert abs(freq - float(pk)) <= 4 * math.sqrt(float(pk) * (1 - float(pk)) / n) + 1e-9, (side, k)


def test_engine_battles_follow_the_odds():
    """The engine's own battles (logged dice) win as often as the chain says."""
    m = turn_of(new_match(2))
    put(m, 7, 0, board=4)
    put(m, 15, NEUTRAL)
    m.apply(Attack(7, 15, 4), 0)
    snap = m.snapshot()
    n = 3000
    wins = 0
    for i in range(n):
        m.restore(snap)
        m.chance.seed = 1000 + i
        m.apply(Launch(), 0)
        wins += m.state["owner"][15] == 0
    p = float(neutral_odds(4).win)
    assert abs(wins / n - p) <= 3 * math.sqrt(p * (1 - p) / n)


def test_results_are_cached():
    battle_odds.cache_clear()
    battle_odds(9, 7)
    info = battle_odds.cache_info()
    battle_odds(9, 7)
    assert battle_odds.cache_info().hits == info.hits + 1
