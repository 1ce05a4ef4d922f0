"""Golden scenarios for buying shares (price, 5 purchases a turn across both trade steps,
never into debt, unlisted factions), with the input-validation cases."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import Buy, EndTurn, Place, Roll

from .helpers import EMBER, frozen, new_match


def test_buy_costs_the_current_price_and_adds_one_share() -> None:
    m = new_match(cash=10_000)
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2)])
    m.apply(Buy("tide"), 0)
    assert m.cash(0) == 8000 and m.shares(0)["tide"] == 1
    assert m.ledger(0)[-1] == {"seat": 0, "amount": -2000, "cause": "buy", "faction": "tide", "balance": 8000}


def test_buy_at_most_five_purchases_across_both_trade_steps() -> None:
    m = new_match(cash=100_000, dice=[(6, EMBER)])
    m.edit_pieces("tide", [(1, 1, 1)])
    for _ in range(3):
        m.apply(Buy("tide"), 0)
    m.apply(Roll(), 0)
    m.apply(Place(6, 1, 1, "ember"), 0)
    m.apply(Buy("ember"), 0)
    m.apply(Buy("tide"), 0)
    before = frozen(m)
    err = m.explain(0, Buy("tide"))
    assert str(err) == "5 purchases already this turn" and err.reason == "purchase_limit"
    with pytest.raises(IllegalActionError):
        m.apply(Buy("ember"), 0)
    assert frozen(m) == before
    assert not [a for a in m.legal_actions(0) if a.kind == "buy"]
    assert m.view(None)["purchases_left"] == 0
    m.apply(EndTurn(), 0)                                   # the next player starts at 0
    m.edit_cash(1, 5000)
    assert m.view(None)["purchases_left"] == 5 and m.explain(1, Buy("tide")) is None


def test_buy_never_into_debt() -> None:
    m = new_match(cash=2999)
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])
    err = m.explain(0, Buy("tide"))
    assert err.reason == "cannot_afford"
    assert str(err) == "a Tide Covenant share costs 3,000 but you have 2,999: no buying into debt"
    m.edit_cash(0, 3000)
    m.apply(Buy("tide"), 0)
    assert m.cash(0) == 0


def test_buy_unlisted_faction_is_refused() -> None:
    m = new_match(cash=5000)
    err = m.explain(0, Buy("grove"))
    assert err.reason == "unlisted" and "not listed" in str(err)


def test_buy_a_player_without_money_still_gets_both_trade_steps() -> None:
    """The 18xx-tracker bug: a player who cannot afford anything loses no step."""
    m = new_match(dice=[(6, EMBER)])
    m.edit_pieces("tide", [(1, 1, 1)])
    assert m.cash(0) == 0
    assert [a.kind for a in m.legal_actions(0)] == ["roll"]
    m.apply(Roll(), 0)
    m.apply(Place(6, 1, 1, "ember"), 0)
    assert m.view(None)["phase"] == "trade2"
    assert "buy" in {a.kind for a in m.legal_actions(0)}          # income arrived: now it can buy


@pytest.mark.parametrize(
    ("action", "seat", "reason"),
    [(Buy("gold"), 0, "unknown_faction"), (Buy("tide"), 1, "not_your_turn")],
)
def test_buy_input_validation(action: Buy, seat: int, reason: str) -> None:
    m = new_match(cash=5000)
    m.edit_pieces("tide", [(1, 1, 1)])
    before = frozen(m)
    with pytest.raises(IllegalActionError) as info:
        m.apply(action, seat)
    assert info.value.reason == reason and frozen(m) == before


def test_buy_is_refused_in_the_start_phase() -> None:
    from conquest_widget.games.codex.engine import CodexMatch, CodexSetup

    m = CodexMatch(CodexSetup.quick(2), seed=1)
    assert m.explain(0, Buy("tide")).reason == "wrong_phase"
