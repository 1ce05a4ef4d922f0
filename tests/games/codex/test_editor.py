"""The position editor: only in editor matches, logged and replayed, validated."""

from __future__ import annotations

import json

import pytest

from conquest_widget.errors import IllegalActionError, SerializationError
from conquest_widget.games.codex.engine import CodexMatch, Edit, Place, Roll

from .helpers import EMBER, frozen, new_match


def test_editor_changes_replay_from_the_log() -> None:
    m = new_match(dice=[(1, EMBER)])
    m.edit_pieces("tide", [(2, 1, 1), (2, 1, 2)])
    m.edit_cash(1, 7000)
    m.edit_shares(0, "tide", 3)
    m.edit_placed("tide", 5)
    m.edit_purchases(2)
    m.apply(Roll(), 0)
    m.apply(Place(1, 1, 1, "ember"), 0)
    doc = json.loads(json.dumps(m.to_dict()))
    again = CodexMatch.from_dict(doc)
    assert again.view(None) == m.view(None) and again.ledger() == m.ledger()
    assert m.ledger(1)[-1] == {"seat": 1, "amount": 7000, "cause": "edit", "faction": None, "balance": 7000}


def test_editor_turn_makes_a_seat_current() -> None:
    m = new_match(3)
    m.edit_turn(2)
    assert m.to_act() == (2,) and m.view(None)["phase"] == "trade1"


def test_editor_is_refused_in_a_normal_match() -> None:
    m = new_match(editor=False)
    before = frozen(m)
    with pytest.raises(IllegalActionError) as info:
        m.edit_cash(0, 10**6)
    assert info.value.reason == "editor_off" and frozen(m) == before
    # nor can a document smuggle edits into a normal match
    doc = m.to_dict()
    doc["log"].append({"seat": 0, "action": Edit("cash", 0, "", 5).to_dict()})
    with pytest.raises(SerializationError):
        CodexMatch.from_dict(doc)


@pytest.mark.parametrize(
    "edit",
    [Edit("steal"), Edit("cash", 9, "", 1), Edit("shares", 0, "gold", 1), Edit("shares", 0, "tide", -1),
     Edit("pieces", -1, "tide", 0, (999,)), Edit("pieces", -1, "ruby", 0, (1,)),
     Edit("purchases", -1, "", 6), Edit("placed", -1, "tide", 20)],
)
def test_editor_bad_edits_change_nothing(edit: Edit) -> None:
    m = new_match()
    before = frozen(m)
    with pytest.raises(IllegalActionError) as info:
        m.apply(edit, 0)
    assert info.value.reason == "bad_edit" and frozen(m) == before


def test_editor_refuses_boards_breaking_the_rules() -> None:
    m = new_match()
    m.edit_pieces("tide", [(1, 1, 1)])
    with pytest.raises(IllegalActionError, match="adjacent with different factions"):
        m.edit_pieces("ember", [(1, 1, 2)])
    with pytest.raises(IllegalActionError, match="group of 15"):
        m.edit_pieces("sun", [(t, r, c) for t in (4, 5) for r in (1, 2, 3) for c in (1, 2, 3)])
    with pytest.raises(IllegalActionError, match="no plot"):
        m.edit_pieces("sun", [(1, 9, 9)])


def test_editor_clearing_plots_splits_groups_correctly() -> None:
    m = new_match()
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])
    m.edit_pieces(None, [(1, 1, 2)])
    assert m.prices()["tide"] == 1000 and m.board.group_sizes(1) == [1, 1]
