"""Golden scenarios for placing a piece (legality, conquest, growth income, dividends,
losses), with the input-validation cases."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import Buy, EndTurn, Place, Roll

from .helpers import EMBER, GROVE, JOKER, SUN, TIDE, events, frozen, new_match


def test_place_lone_piece_lists_the_faction_and_pays_income_and_dividends() -> None:
    # seat 0 holds 1 sun (free share), seat 1 holds 1 sun
    m = new_match(dice=[(2, SUN)])
    m.apply(Roll(), 0)
    m.apply(Place(2, 1, 1, "sun"), 0)
    # largest 0 -> 1: income 1,000 x 1 to the placer, dividend 1,000 x 1 per share to each holder
    assert m.prices()["sun"] == 1000
    assert [(e["seat"], e["amount"], e["cause"]) for e in m.ledger()] == [
        (0, 1000, "income"), (0, 1000, "dividend"), (1, 1000, "dividend")]
    assert m.cash(0) == 2000 and m.cash(1) == 1000


def test_place_growing_the_largest_group_pays_new_price_and_per_share_rise() -> None:
    m = new_match(dice=[(1, EMBER)], picks=["ember", "tide"])
    m.edit_pieces("ember", [(1, 1, 1), (1, 1, 2)])            # ember group of 2: price 2,000
    m.edit_shares(1, "ember", 3)
    m.apply(Roll(), 0)
    m.apply(Place(1, 1, 3, "ember"), 0)                       # group of 3
    assert m.prices()["ember"] == 3000
    # placer: income 3,000 + dividend 1,000 x 1 share; seat 1: 1,000 x 3 shares
    assert m.cash(0) == 4000 and m.cash(1) == 3000


def test_place_not_growing_the_largest_group_pays_nothing() -> None:
    m = new_match(dice=[(3, EMBER)], picks=["ember", "ember"])
    m.edit_pieces("ember", [(1, 1, 1), (1, 1, 2)])
    m.apply(Roll(), 0)
    m.apply(Place(3, 3, 3, "ember"), 0)                       # a new group of 1 < 2
    assert m.cash(0) == 0 and m.cash(1) == 0 and m.prices()["ember"] == 2000


def test_place_groups_span_territory_borders() -> None:
    m = new_match(dice=[(2, GROVE)], picks=["grove", "grove"])
    m.edit_pieces("grove", [(1, 2, 2), (1, 2, 3)])            # touches territory 2's column 1
    m.apply(Roll(), 0)
    m.apply(Place(2, 2, 1, "grove"), 0)
    assert m.prices()["grove"] == 3000
    assert events(m, "place")[-1]["size"] == 3


def test_place_territories_1_and_4_are_vertical_neighbours() -> None:
    m = new_match(dice=[(4, GROVE)], picks=["grove", "grove"])
    m.edit_pieces("grove", [(1, 3, 1)])
    m.apply(Roll(), 0)
    m.apply(Place(4, 1, 1, "grove"), 0)
    assert m.prices()["grove"] == 2000


def test_place_conquest_removes_smaller_enemy_groups_for_good_and_charges_holders_but_not_the_placer() -> None:
    m = new_match(3, dice=[(1, EMBER)], picks=["tide", "tide", "tide"], cash=5000)
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2)])             # tide group of 2: price 2,000
    m.edit_pieces("tide", [(3, 3, 3)])                        # another tide group of 1
    m.edit_pieces("ember", [(1, 3, 1), (1, 3, 2)])
    placed_before = m.state["placed"][1]
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)                       # ember 3 > tide 2
    removed = events(m, "removed")
    assert [(e["faction"], e["size"]) for e in removed] == [("tide", 2)]
    assert m.view(None)["board"][m.board.g.plot(1, 1, 1)] is None
    assert m.prices()["tide"] == 1000                          # the remaining group of 1
    assert m.state["placed"][1] == placed_before               # removed pieces do not return to supply
    # tide dropped 1,000: seats 1 and 2 lose 1,000 per share; the placer does not
    losses = [(e["seat"], e["amount"]) for e in m.ledger() if e["cause"] == "loss"]
    assert losses == [(1, -1000), (2, -1000)]
    # ember rose 2 -> 3 only because 3 > 2: income 3,000 to the placer (no ember holders)
    assert [e["amount"] for e in m.ledger() if e["cause"] == "income"] == [3000]


def test_place_equal_group_is_illegal_with_explanation_and_changes_nothing() -> None:
    m = new_match(dice=[(1, EMBER)], picks=["tide", "tide"])
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])
    m.edit_pieces("ember", [(1, 3, 1), (1, 3, 2)])
    m.apply(Roll(), 0)
    before = frozen(m)
    err = m.explain(0, Place(1, 2, 1, "ember"))
    assert str(err) == "group of 3 is not larger than the enemy group of 3 next to it"
    assert err.reason == "not_larger"
    with pytest.raises(IllegalActionError, match="not larger"):
        m.apply(Place(1, 2, 1, "ember"), 0)
    assert frozen(m) == before
    assert Place(1, 2, 1, "ember") not in m.legal_actions(0)


def test_place_new_group_must_beat_every_touched_enemy_group() -> None:
    m = new_match(dice=[(1, EMBER)], picks=["tide", "grove"])
    m.edit_pieces("tide", [(1, 1, 2)])                         # tide 1 above
    m.edit_pieces("grove", [(1, 3, 2), (1, 3, 3), (2, 3, 1)])  # grove 3 below
    m.edit_pieces("ember", [(1, 2, 1)])                        # ember 1 left
    m.apply(Roll(), 0)
    err = m.explain(0, Place(1, 2, 2, "ember"))                # ember group 2: beats tide, not grove
    assert err is not None and err.reason == "not_larger" and err.details["enemy"] == 3


def test_place_joker_lets_the_player_choose_any_faction() -> None:
    m = new_match(dice=[(5, JOKER)])
    m.apply(Roll(), 0)
    factions = {a.faction for a in m.legal_actions(0)}
    assert factions == {"ember", "tide", "grove", "sun"}
    assert all(a.territory == 5 for a in m.legal_actions(0))
    m.apply(Place(5, 2, 2, "tide"), 0)
    assert m.prices()["tide"] == 1000


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Place(2, 1, 1, "ember"), "wrong_territory"),
        (Place(1, 1, 1, "tide"), "wrong_faction"),
        (Place(1, 4, 1, "ember"), "off_board"),
        (Place(7, 1, 1, "ember"), "off_board"),
        (Place(1, 0, 1, "ember"), "off_board"),
        (Place(1, 1, 1, "purple"), "unknown_faction"),
        (Place(1, 1, 1, "ember"), "occupied"),
    ],
)
def test_place_input_validation(action: Place, reason: str) -> None:
    m = new_match(dice=[(1, EMBER)])
    m.edit_pieces("sun", [(1, 1, 1)])
    m.apply(Roll(), 0)
    before = frozen(m)
    with pytest.raises(IllegalActionError) as info:
        m.apply(action, 0)
    assert info.value.reason == reason
    assert frozen(m) == before


def test_place_before_rolling_or_twice_is_refused() -> None:
    m = new_match(dice=[(1, EMBER)])
    assert m.explain(0, Place(1, 1, 1, "ember")).reason == "not_rolled"
    m.apply(Roll(), 0)
    m.apply(Place(1, 1, 1, "ember"), 0)
    assert m.explain(0, Place(1, 1, 2, "ember")).reason == "wrong_phase"
    assert m.explain(1, Place(1, 1, 2, "ember")).reason == "not_your_turn"


def test_place_is_compulsory_when_legal() -> None:
    m = new_match(dice=[(1, EMBER)], cash=5000)
    m.edit_pieces("sun", [(6, 1, 1)])
    m.apply(Roll(), 0)
    assert {a.kind for a in m.legal_actions(0)} == {"place"}
    assert m.explain(0, EndTurn()).reason == "must_place"
    assert m.explain(0, Buy("sun")).reason == "must_place"


def test_place_touching_two_own_groups_merges_them() -> None:
    m = new_match(dice=[(1, TIDE)], picks=["tide", "sun"])
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 3), (1, 2, 3)])   # groups of 1 and 2
    m.apply(Roll(), 0)
    m.apply(Place(1, 1, 2, "tide"), 0)
    assert m.prices()["tide"] == 4000 and m.cash(0) == 4000 + 2000
