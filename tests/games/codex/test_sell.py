"""Golden scenarios for selling shares (half price, any number, listed factions only),
with the input-validation cases."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import Place, Roll, Sell

from .helpers import EMBER, frozen, new_match


def test_sell_pays_half_the_current_price() -> None:
    m = new_match(picks=["tide", "sun"])
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])
    m.apply(Sell("tide"), 0)
    assert m.cash(0) == 1500 and m.shares(0)["tide"] == 0
    assert m.ledger(0)[-1]["cause"] == "sell"


def test_sell_any_number_in_both_trade_steps() -> None:
    m = new_match(picks=["tide", "sun"], dice=[(6, EMBER)])
    m.edit_pieces("tide", [(1, 1, 1)])
    m.edit_shares(0, "tide", 12)
    for _ in range(7):
        m.apply(Sell("tide"), 0)
    m.apply(Roll(), 0)
    m.apply(Place(6, 1, 1, "ember"), 0)
    for _ in range(5):
        m.apply(Sell("tide"), 0)
    assert m.shares(0)["tide"] == 0 and m.cash(0) == 12 * 500 + 1000


def test_sell_unlisted_or_unheld_shares_is_refused() -> None:
    m = new_match(picks=["tide", "sun"])
    assert m.explain(0, Sell("tide")).reason == "unlisted"          # held, but no tide piece
    m.edit_pieces("grove", [(1, 1, 1)])
    err = m.explain(0, Sell("grove"))
    assert err.reason == "no_shares" and str(err) == "you hold no Grove Wardens share"


@pytest.mark.parametrize(("action", "seat", "reason"), [(Sell("x"), 0, "unknown_faction"), (Sell("tide"), 1, "not_your_turn")])
def test_sell_input_validation(action: Sell, seat: int, reason: str) -> None:
    m = new_match(picks=["tide", "tide"])
    m.edit_pieces("tide", [(1, 1, 1)])
    before = frozen(m)
    with pytest.raises(IllegalActionError) as info:
        m.apply(action, seat)
    assert info.value.reason == reason and frozen(m) == before
