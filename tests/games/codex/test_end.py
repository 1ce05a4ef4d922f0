"""Golden scenarios for the end of the game: a group of 15, a faction's 20th piece
(removed pieces count), immediately (no further trade step, no forced sale), final wealth
over all four factions, equal wealth shares a rank."""

from __future__ import annotations

from conquest_widget.games.codex.engine import Buy, EndTurn, ForcedSell, Place, Roll

from .helpers import EMBER, GROVE, TIDE, events, new_match


def _line(territories: list[int], row: int) -> list[tuple[int, int, int]]:
    return [(t, row, c) for t in territories for c in range(1, 4)]


def test_end_when_a_group_reaches_15_immediately() -> None:
    m = new_match(dice=[(3, TIDE)], picks=["tide", "ember"], cash=50_000)
    # a tide group of 14: rows 1 of territories 1-3 (9) + row 2 of territory 1 (3) + 2 more
    m.edit_pieces("tide", _line([1, 2, 3], 1) + [(1, 2, 1), (1, 2, 2), (1, 2, 3), (2, 2, 1), (2, 2, 2)])
    assert m.prices()["tide"] == 14_000
    m.apply(Roll(), 0)
    m.apply(Place(3, 2, 1, "tide"), 0)
    out = m.outcome()
    assert out is not None and out.reason == "group_15"
    assert m.to_act() == () and m.legal_actions(0) == []          # no second trade step
    assert m.explain(0, Buy("tide")).reason == "game_over"
    assert m.explain(0, EndTurn()).reason == "game_over"
    assert events(m, "end")[-1]["triggers"] == ["group_15"]


def test_end_a_group_of_14_does_not_end() -> None:
    m = new_match(dice=[(6, TIDE)], picks=["tide", "ember"])
    m.edit_pieces("tide", _line([1, 2, 3], 1) + [(1, 2, 1), (1, 2, 2), (1, 2, 3), (2, 2, 1)])
    m.apply(Roll(), 0)
    m.apply(Place(6, 3, 3, "tide"), 0)
    assert m.outcome() is None and m.prices()["tide"] == 13_000


def test_end_when_the_20th_piece_of_a_faction_is_placed_removed_pieces_count() -> None:
    m = new_match(dice=[(6, GROVE)], picks=["grove", "ember"])
    m.edit_pieces("grove", [(1, 1, 1)])
    m.edit_placed("grove", 19)                                   # 18 of them removed earlier
    assert m.view(None)["factions"][2]["supply_left"] == 1
    m.apply(Roll(), 0)
    m.apply(Place(6, 2, 2, "grove"), 0)
    assert m.outcome() is not None and m.outcome().reason == "supply_20"


def test_end_no_forced_sale_after_the_trigger() -> None:
    m = new_match(dice=[(1, EMBER)], picks=["tide", "tide"])
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])
    m.edit_pieces("ember", [(1, 3, 1), (1, 3, 2), (1, 3, 3)])
    m.edit_placed("ember", 19)
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)                          # conquers tide and is ember's 20th
    assert m.cash(1) == -3000 and m.is_over
    assert m.outcome().reason == "supply_20"
    assert m.explain(1, ForcedSell("tide")).reason == "game_over"
    # the player in debt keeps the debt in the final wealth
    wealth = {w["seat"]: w["wealth"] for w in m.outcome().details["wealth"]}
    assert wealth[1] == -3000 and m.outcome().ranks == (1, 2)


def test_end_final_wealth_counts_all_four_factions_and_ties_share_a_rank() -> None:
    m = new_match(3, dice=[(6, GROVE)], picks=["ember", "tide", "sun"])
    m.edit_pieces("ember", [(1, 1, 1), (1, 1, 2)])                # 2,000
    m.edit_pieces("tide", [(2, 2, 2), (2, 2, 3)])                 # 2,000
    m.edit_pieces("sun", [(4, 2, 2)])                             # 1,000
    m.edit_pieces("grove", [(6, 1, 1)])
    m.edit_placed("grove", 19)
    m.edit_cash(2, 1000)
    m.apply(Roll(), 0)
    m.apply(Place(6, 3, 3, "grove"), 0)                           # 20th grove: no growth (1 -> 1)
    out = m.outcome()
    w = [x["wealth"] for x in out.details["wealth"]]
    assert w == [2000, 2000, 2000]
    assert out.ranks == (1, 1, 1)
    assert out.details["wealth"][0]["shares"]["ember"] == {"count": 1, "value": 2000}
