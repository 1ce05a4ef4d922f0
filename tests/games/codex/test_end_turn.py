"""Golden scenarios for ending the turn, with the input-validation cases."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import EndTurn, Place, Roll

from .helpers import EMBER, TIDE, events, frozen, new_match


def test_end_turn_passes_to_the_next_seat_with_a_fresh_purchase_count() -> None:
    m = new_match(3, first=2, dice=[(1, EMBER), (2, TIDE)])
    m.apply(Roll(), 2)
    m.apply(Place(1, 1, 1, "ember"), 2)
    m.apply(EndTurn(), 2)
    assert m.to_act() == (0,) and m.view(None)["turn"] == 2
    assert m.view(None)["dice"] is None and m.view(None)["purchases"] == 0
    assert events(m, "turn")[-1] == {"type": "turn", "seat": 0, "turn": 2}


def test_end_turn_input_validation() -> None:
    m = new_match(dice=[(1, EMBER)])
    for seat, reason in [(0, "not_rolled"), (1, "not_your_turn")]:
        before = frozen(m)
        with pytest.raises(IllegalActionError) as info:
            m.apply(EndTurn(), seat)
        assert info.value.reason == reason and frozen(m) == before
    m.apply(Roll(), 0)
    assert m.explain(0, EndTurn()).reason == "must_place"
