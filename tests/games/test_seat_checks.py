"""Issue 31, item 8: ``view``, ``legal_actions`` and ``events_for`` check the seat in every
game, with the error of ``Replay.view`` (NoSuchSeatError).  Before, the card game and
Japanese Risk indexed their lists with it: ``view(3)`` of a 3-seat game raised IndexError,
``view("0")`` TypeError, and ``view(-1)`` returned the last seat's private view (its hand;
Risk: the secret neutral territories, its reserve and income); in Risk ``events_for(True)``
was seat 1's private events (``True == 1``)."""

from __future__ import annotations

import json
import random

import pytest

from conquest_widget.errors import NoSuchSeatError
from conquest_widget.games.conquest_cards.engine import ConquestCards
from conquest_widget.games.japanese_risk.engine import JapaneseRisk


@pytest.fixture(params=[ConquestCards, JapaneseRisk], ids=["conquest_cards", "japanese_risk"])
def match(request):
    cls = request.param
    return cls(cls.random_setup(random.Random(4), 3), seed=9)


def test_view_minus_one_is_refused_not_the_last_seats_private_view(match) -> None:
    last = json.dumps(match.view(match.n_seats - 1), sort_keys=True)
    assert last != json.dumps(match.view(None), sort_keys=True)  # the last seat has secrets
    with pytest.raises(NoSuchSeatError, match=r"there is no seat -1: seats are 0-2 \(None = the public view\)"):
        match.view(-1)


@pytest.mark.parametrize("seat", [3, "0", True, 1.0, -3])
def test_view_of_a_seat_that_does_not_exist_is_no_such_seat(match, seat) -> None:
    with pytest.raises(NoSuchSeatError, match="there is no seat"):
        match.view(seat)


@pytest.mark.parametrize("seat", [True, 1.0, -1, 3])
def test_events_and_legal_actions_of_a_seat_that_does_not_exist_are_refused(match, seat) -> None:
    """``True`` and ``1.0`` compare equal to seat 1: they must not open its private events."""
    with pytest.raises(NoSuchSeatError):
        match.events_for(seat)
    with pytest.raises(NoSuchSeatError):
        match.legal_actions(seat)
