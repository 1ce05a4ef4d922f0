"""The CPU players: legal play from views only, every option, decision time, strength
smoke tests (the acceptance figures are measured by tests/benchmarks/test_bench_conquest_cards.py)."""

from __future__ import annotations

import copy
import itertools
import random
import statistics
import time

import pytest

from conquest_widget.core.bots import decision, play_bots
from conquest_widget.games.conquest_cards.bots import (
    BOTS,
    DEFAULT_BOT,
    HardBot,
    step_towards,
)
from conquest_widget.games.conquest_cards.engine import (
    ConquestCards,
    EndTurn,
    PlayOn,
    Select,
    Unselect,
)
from conquest_widget.games.conquest_cards.setup import CardsSetup


def _duel(a: str, b: str, deals: int, seed: int = 0) -> float:
    """Share of wins of ``a`` over seat-swapped 2-player deals (ties count half)."""
    won = 0.0
    for d in range(deals):
        for swap in (0, 1):
            m = ConquestCards(CardsSetup.quick(2), seed=seed + d)
            seat_a = swap
            play_bots(m, {seat_a: BOTS[a](), 1 - seat_a: BOTS[b]()}, seed=d)
            r = m.outcome().ranks
            won += 1.0 if r[seat_a] < r[1 - seat_a] else 0.5 if r[seat_a] == r[1 - seat_a] else 0.0
    return won / (2 * deals)


def test_bot_registry() -> None:
    assert set(BOTS) == {"easy", "normal", "hard"} and DEFAULT_BOT in BOTS
    for label, factory in BOTS.items():
        assert factory().label == label


@pytest.mark.parametrize("ace_eleven,reveal_hands,jokers", list(itertools.product([False, True], repeat=3)))
def test_easy_and_normal_finish_games_under_every_option(ace_eleven, reveal_hands, jokers) -> None:
    for n in (2, 3, 4):
        m = ConquestCards(CardsSetup.quick(n, ace_eleven=ace_eleven, reveal_hands=reveal_hands, jokers=jokers), seed=n)
        play_bots(m, {s: BOTS["easy" if s % 2 else "normal"]() for s in range(n)}, seed=n)
        assert m.outcome() is not None


def test_hard_finishes_a_four_player_game_with_every_option() -> None:
    m = ConquestCards(CardsSetup.quick(4, ace_eleven=True, reveal_hands=True, jokers=True), seed=3)
    play_bots(m, {s: BOTS["hard" if s == 0 else "normal"]() for s in range(4)}, seed=3)
    assert m.outcome() is not None


def test_bots_see_only_the_view_and_do_not_change_it() -> None:
    m = ConquestCards(CardsSetup.quick(3, jokers=True), seed=8)
    rng = random.Random(0)
    for _ in range(40):
        if m.outcome() is not None:
            break
        seat = m.to_act()[0]
        view, legal = m.view(seat), m.legal_actions(seat)
        before = copy.deepcopy(view)
        for label, factory in BOTS.items():
            a = factory().choose(*decision(m, seat, 1))
            assert a in legal and view == before, label
        m.apply(legal[rng.randrange(len(legal))], seat)


def test_a_bot_turn_always_ends() -> None:
    """Bots commit to their selection: a turn takes at most hand size + 2 actions."""
    for label in BOTS:
        m = ConquestCards(CardsSetup.quick(2, jokers=True), seed=11)
        steps = 0
        turn_start, turns = 0, 0
        while m.outcome() is None and turns < 12:
            seat = m.to_act()[0]
            a = BOTS[label]().choose(*decision(m, seat, 2))
            hand = len(m.state["hands"][seat])
            m.apply(a, seat)
            steps += 1
            if m.to_act() != (seat,) or m.outcome() is not None:
                assert steps - turn_start <= hand + 3, label
                turn_start, turns = steps, turns + 1


def test_step_towards_a_planned_play() -> None:
    view = {"selected": ["7S"]}
    legal = [Select("9S"), Unselect("7S"), PlayOn("J"), PlayOn("Q"), PlayOn("K"), EndTurn()]
    assert step_towards(("play", 2, ("7S", "9S")), view, legal) == Select("9S")
    assert step_towards(("play", 2, ("7S",)), view, legal) == PlayOn("K")
    assert step_towards(("pass",), view, legal) == EndTurn()
    assert step_towards(("joker", 1, 0), view, legal) == Unselect("7S")


def test_hard_decides_in_under_half_a_second_median() -> None:
    m = ConquestCards(CardsSetup.quick(2), seed=21)
    bots = {0: HardBot(), 1: BOTS["normal"]()}
    times = []
    while m.outcome() is None and len(times) < 15:
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        t = time.perf_counter()
        a = bots[seat].choose(*decision(m, seat, 0))
        if seat == 0 and len(legal) > 1:
            times.append(time.perf_counter() - t)
        m.apply(a, seat)
    assert statistics.median(times) < 0.5


def test_normal_beats_easy_in_a_small_sample() -> None:
    assert _duel("normal", "easy", 25) > 0.6
