"""Golden scenarios for the free starting share (seat order, any faction, listed or not)
and the random first player, with the input-validation cases."""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.codex.engine import CodexMatch, CodexSetup, Pick, Roll

from .helpers import frozen


def test_pick_in_seat_order_free_of_charge_any_faction() -> None:
    m = CodexMatch(CodexSetup.quick(3, starting_cash=1000), seed=5, forced=[2])
    assert m.to_act() == (0,) and len(m.legal_actions(0)) == 4
    m.apply(Pick("grove"), 0)
    assert m.to_act() == (1,)
    m.apply(Pick("grove"), 1)
    m.apply(Pick("sun"), 2)
    assert [m.shares(s)["grove"] for s in range(3)] == [1, 1, 0] and m.shares(2)["sun"] == 1
    assert [m.cash(s) for s in range(3)] == [1000, 1000, 1000]           # the share costs nothing
    assert [e["cause"] for e in m.ledger()] == ["start"] * 3


def test_pick_then_the_first_player_is_drawn_at_random_and_logged() -> None:
    m = CodexMatch(CodexSetup.quick(3), seed=5, forced=[2])
    for s in range(3):
        m.apply(Pick("tide"), s)
    assert {"seat": -1, "kind": "first_player", "outcome": 2} in m.log
    assert m.to_act() == (2,) and m.view(None)["first_player"] == 2 and m.view(None)["turn"] == 1
    firsts = set()
    for seed in range(40):
        g = CodexMatch(CodexSetup.quick(3), seed=seed)
        for s in range(3):
            g.apply(Pick("tide"), s)
        firsts.add(g.to_act()[0])
    assert firsts == {0, 1, 2}


def test_pick_input_validation() -> None:
    m = CodexMatch(CodexSetup.quick(2), seed=5)
    before = frozen(m)
    for action, seat, reason in [(Pick("ruby"), 0, "unknown_faction"), (Pick("tide"), 1, "not_your_turn"),
                                 (Roll(), 0, "wrong_phase")]:
        with pytest.raises(IllegalActionError) as info:
            m.apply(action, seat)
        assert info.value.reason == reason
    assert frozen(m) == before
    m.apply(Pick("tide"), 0)
    m.apply(Pick("tide"), 1)
    assert m.explain(m.to_act()[0], Pick("tide")).reason == "wrong_phase"
