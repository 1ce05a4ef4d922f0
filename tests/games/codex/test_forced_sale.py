"""Golden scenarios for forced sales: out of turn, from the placer round in seat order,
one share at a time at half the new price, stopping exactly when the balance is no longer
negative; elimination when nothing is sellable."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import (
    Buy,
    EndTurn,
    ForcedSell,
    Place,
    Roll,
    Sell,
)

from .helpers import EMBER, SUN, TIDE, events, frozen, new_match


def _conquest_setup(n: int = 4, placer: int = 1):
    """Tide group of 3 next to an ember group of 3 (placing ember at (1,2,1) conquers it)."""
    m = new_match(n, first=placer, dice=[(1, EMBER), (6, TIDE)], picks=["sun"] * n)
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])   # tide 3: price 3,000
    m.edit_pieces("ember", [(1, 3, 1), (1, 3, 2), (1, 3, 3)])
    m.edit_pieces("grove", [(3, 3, 3)])                         # grove 1: price 1,000
    return m


def test_forced_sale_order_starts_with_the_placer_and_goes_round_in_seat_order() -> None:
    m = _conquest_setup(4, placer=2)
    for s in range(4):
        m.edit_shares(s, "tide", 1)
        m.edit_shares(s, "grove", 4)
    m.apply(Roll(), 2)
    m.apply(Place(1, 2, 1, "ember"), 2)               # tide 3 -> 0: holders lose 3,000 except the placer
    assert m.view(None)["phase"] == "forced"
    assert m.view(None)["forced"] == [3, 0, 1]         # round from the placer (2 is never in debt)
    assert m.to_act() == (3,)                          # out of turn
    assert m.legal_actions(3) == [ForcedSell("grove")] # tide is unlisted now: cannot be sold
    assert m.explain(2, Buy("grove")).reason == "not_your_turn"


def test_forced_sale_stops_exactly_when_the_balance_is_not_negative() -> None:
    m = _conquest_setup(2, placer=0)
    m.edit_shares(1, "tide", 1)
    m.edit_shares(1, "grove", 10)
    m.edit_cash(1, 1000)
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)
    assert m.cash(1) == -2000
    for expected in (-1500, -1000, -500):
        m.apply(ForcedSell("grove"), 1)                 # 500 each (half of 1,000)
        assert m.cash(1) == expected and m.to_act() == (1,)
    m.apply(ForcedSell("grove"), 1)
    assert m.cash(1) == 0 and m.to_act() == (0,) and m.view(None)["phase"] == "trade2"
    assert m.shares(1)["grove"] == 6                     # not one share more
    assert [e["cause"] for e in m.ledger(1)][-4:] == ["forced_sell"] * 4


def test_forced_sale_seller_chooses_which_share() -> None:
    m = _conquest_setup(2, placer=0)
    m.edit_pieces("sun", [(6, 3, 3), (6, 3, 2)])        # sun price 2,000
    m.edit_shares(1, "tide", 1)
    m.edit_shares(1, "grove", 5)
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)
    assert {a.faction for a in m.legal_actions(1)} == {"grove", "sun"}
    m.apply(ForcedSell("sun"), 1)                       # 1,000: -3,000 -> -2,000
    assert m.cash(1) == -2000


def test_forced_sale_with_nothing_sellable_eliminates_and_the_player_never_acts_again() -> None:
    m = _conquest_setup(3, placer=0)
    m.edit_shares(1, "tide", 1)                           # only tide (sun is unlisted)
    m.edit_shares(2, "tide", 1)
    m.edit_shares(2, "grove", 6)
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)
    assert events(m, "eliminated")[0]["seat"] == 1       # nothing to sell: eliminated at once
    assert m.to_act() == (2,)
    for _ in range(6):
        m.apply(ForcedSell("grove"), 2)
    assert m.cash(2) == 0 and m.to_act() == (0,)
    m.apply(EndTurn(), 0)
    assert m.to_act() == (2,)                             # seat 1 is skipped
    assert m.view(None)["players"][1]["eliminated"] is True
    assert m.shares(1) == {"ember": 0, "tide": 0, "grove": 0, "sun": 0}   # forfeited


def test_forced_sale_last_survivor_ends_the_game_and_eliminated_rank_below() -> None:
    m = _conquest_setup(2, placer=0)
    m.edit_shares(1, "tide", 1)
    m.edit_cash(0, 0)
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)
    out = m.outcome()
    assert out is not None and out.reason == "last_survivor" and out.ranks == (1, 2)


def test_forced_sale_eliminated_players_rank_by_elimination_order() -> None:
    m = new_match(4, first=0, dice=[(1, EMBER), (5, SUN), (3, SUN)])
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])
    m.edit_pieces("ember", [(1, 3, 1), (1, 3, 2), (1, 3, 3)])
    m.edit_pieces("grove", [(3, 3, 3)])
    m.edit_pieces("sun", [(3, 1, 3)])
    for s in range(4):
        m.edit_shares(s, "sun", 0)
    m.edit_shares(1, "tide", 1)
    m.edit_shares(2, "tide", 1)
    m.edit_shares(3, "grove", 1)
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)                  # 1 and 2 eliminated together
    assert [e["seat"] for e in events(m, "eliminated")] == [1, 2]
    m.apply(EndTurn(), 0)
    assert m.to_act() == (3,)
    m.apply(Roll(), 3)
    m.apply(Place(5, 2, 2, "sun"), 3)                    # sun stays at 1: no income
    m.apply(EndTurn(), 3)
    m.apply(Roll(), 0)
    m.apply(Place(3, 2, 3, "sun"), 0)                    # sun 2 conquers grove 1: seat 3 eliminated
    out = m.outcome()
    assert out is not None and out.reason == "last_survivor"
    assert out.ranks == (1, 3, 3, 2)                      # later elimination ranks higher; same step ties


def test_forced_sale_input_validation() -> None:
    m = _conquest_setup(2, placer=0)
    m.edit_shares(1, "tide", 1)
    m.edit_shares(1, "grove", 10)
    assert m.explain(0, ForcedSell("grove")).reason == "not_forced"
    m.apply(Roll(), 0)
    m.apply(Place(1, 2, 1, "ember"), 0)
    before = frozen(m)
    for action, seat, reason in [(ForcedSell("tide"), 1, "unlisted"), (ForcedSell("sun"), 1, "unlisted"),
                                 (ForcedSell("ember"), 1, "no_shares"), (Sell("grove"), 1, "wrong_phase"),
                                 (ForcedSell("grove"), 0, "not_your_turn"), (ForcedSell("nope"), 1, "unknown_faction")]:
        with pytest.raises(IllegalActionError) as info:
            m.apply(action, seat)
        assert info.value.reason == reason, action
    assert frozen(m) == before
