"""Golden scenarios for rolling (logged dice, Jokers, automatic skip), with the
input-validation cases."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import CodexMatch, EndTurn, Roll

from .helpers import EMBER, JOKER, TIDE, events, frozen, new_match


def test_roll_is_logged_as_chance_and_shown_in_the_view() -> None:
    m = new_match(dice=[(4, TIDE)])
    m.apply(Roll(), 0)
    assert m.log[-1] == {"seat": -1, "kind": "dice", "outcome": [4, 2]}
    assert m.view(None)["dice"] == {"territory": 4, "colour": 2, "faction": "tide"}
    assert m.view(None)["phase"] == "place"


@pytest.mark.parametrize("face", [5, 6])
def test_roll_faces_5_and_6_are_jokers(face: int) -> None:
    m = new_match(dice=[(3, face)])
    m.apply(Roll(), 0)
    assert m.view(None)["dice"]["faction"] is None
    assert len(m.legal_actions(0)) == 9 * 4                 # any empty plot, any faction


def test_roll_with_no_legal_placement_is_skipped_automatically() -> None:
    m = new_match(dice=[(1, EMBER)])
    # territory 1 full of tide except one plot whose neighbours hold a tide group of 8
    plots = [(1, r, c) for r in range(1, 4) for c in range(1, 4) if (r, c) != (2, 2)]
    m.edit_pieces("tide", plots)
    m.apply(Roll(), 0)
    assert events(m, "skip")[-1]["territory"] == 1
    assert m.view(None)["phase"] == "trade2"
    assert "end_turn" in {a.kind for a in m.legal_actions(0)} and "roll" not in {a.kind for a in m.legal_actions(0)}


def test_roll_into_a_full_territory_is_skipped_even_with_a_joker() -> None:
    m = new_match(dice=[(1, JOKER)])
    m.edit_pieces("tide", [(1, r, c) for r in range(1, 4) for c in range(1, 4)])
    m.apply(Roll(), 0)
    assert m.view(None)["phase"] == "trade2" and events(m, "skip")


def test_roll_input_validation() -> None:
    m = new_match(dice=[(1, EMBER)])
    m.apply(Roll(), 0)
    before = frozen(m)
    for seat, reason in [(0, "already_rolled"), (1, "not_your_turn")]:
        with pytest.raises(IllegalActionError) as info:
            m.apply(Roll(), seat)
        assert info.value.reason == reason
    assert frozen(m) == before
    fresh = CodexMatch(m.setup, seed=3)
    assert fresh.explain(0, Roll()).reason == "wrong_phase"   # before the free shares


def test_roll_replays_from_the_log_not_the_seed() -> None:
    m = new_match(dice=[(2, EMBER)])
    m.apply(Roll(), 0)
    doc = m.to_dict()
    doc["seed"] = 12345
    again = CodexMatch.from_dict(doc)
    assert again.view(None) == m.view(None)
    assert EndTurn() not in again.legal_actions(0)
