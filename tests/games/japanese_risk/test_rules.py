"""Rule tests of Japanese Risk: one or more per rule of issue 14 / docs/rules_risk.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquest_widget.core.protocol import CHANCE
from conquest_widget.errors import IllegalActionError, SerializationError, SetupError
from conquest_widget.games.japanese_risk.engine import (
    ADJ,
    CODES,
    NEUTRAL,
    RULES,
    Attack,
    BuildCastle,
    BuyNinja,
    Commit,
    Deploy,
    EndTurn,
    Hold,
    JapaneseRisk,
    Launch,
    Move,
    NinjaMove,
    Place,
    RiskSetup,
    Strike,
)

from .helpers import defend, hold_windows, new_match, own, place_all, put, turn_of


# ------------------------------------------------------------ set-up and deal
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deal_five_piles_of_nine_rest_neutral(n):
    m = JapaneseRisk(RiskSetup(players=tuple("ABCDE"[:n])), seed=11)
    counts = [sum(1 for c in CODES if m.state["owner"][c] == p) for p in range(n)]
    assert counts == [9] * n
    assert sum(1 for c in CODES if m.state["owner"][c] == NEUTRAL) == 47 - 9 * n
    deal = [e for e in m.log if e["seat"] == CHANCE and e["kind"] == "deal"]
    assert len(deal) == 1 and sorted(deal[0]["outcome"]) == list(range(47))
    # the five piles are the first 45 cards in nines; the players take the first n piles
    order = [x + 1 for x in deal[0]["outcome"]]
    for p in range(n):
        assert sorted(order[9 * p: 9 * p + 9]) == own(m, p)


def test_neutral_cards_are_unknown_to_everyone():
    m = new_match(3)
    for seat in (None, 0, 1, 2):
        v = m.view(seat)
        assert all(t["owner"] is None or t["owner"] == seat for t in v["territories"])


def test_setup_validation():
    with pytest.raises(SetupError, match="2-5 players"):
        RiskSetup(players=tuple("ABCDEF"))
    with pytest.raises(SetupError, match="shogun"):
        RiskSetup(players=("A", "B"), shogun="some")
    with pytest.raises(SetupError, match="round_limit"):
        RiskSetup(players=("A", "B"), round_limit=0)
    with pytest.raises(SetupError, match="unknown setup fields"):
        RiskSetup.from_dict({"players": ["A", "B"], "cheat": True})
    with pytest.raises(SetupError, match="name"):
        RiskSetup.from_dict({"players": ["A", "<b>\n"]})
    assert RiskSetup.from_dict(RiskSetup(("A", "B"), "players", 9).to_dict()) == RiskSetup(("A", "B"), "players", 9)


# ------------------------------------------------------------ turn order
def test_turn_order_is_rolled_every_round_with_ties_rolled_again():
    # round 1: seats roll 3, 5, 3 -> seat 1 first, seats 0 and 2 roll again: 2, 6 -> 2 then 0
    m = JapaneseRisk(RiskSetup(players=("A", "B", "C")), seed=1, forced=[list(range(47)), [3, 5, 3], [2, 6]])
    assert m.state["order"] == [1, 2, 0]
    kinds = [e["kind"] for e in m.log if e["seat"] == CHANCE]
    assert kinds == ["deal", "order", "order"]
    turn_of(m)
    for _ in range(3):
        m.apply(EndTurn(), m.current())
        hold_windows(m)
    assert m.state["round"] == 2
    assert sum(1 for e in m.log if e["seat"] == CHANCE and e["kind"] == "order") >= 3


# ------------------------------------------------------------ income
def test_income_is_one_army_per_territory_placed_secretly():
    m = new_match(2)
    assert m.state["income_left"] == [9, 9]
    assert set(m.to_act()) == {0, 1}  # income is placed at the same time
    m.apply(Place(3, 4), 0)
    assert m.view(0)["me"]["card_armies"] == [[3, 4]]
    assert "card_armies" not in str(m.view(1)["players"]) and m.view(1)["me"]["card_armies"] == []
    assert all(e.get("type") != "placed" for e in m.events_for(1))
    assert any(e.get("type") == "placed" for e in m.events_for(0))
    with pytest.raises(IllegalActionError, match="not one of your territories"):
        m.apply(Place(10, 1), 0)
    with pytest.raises(IllegalActionError, match="only 5 armies"):
        m.apply(Place(3, 6), 0)
    assert m.to_act() == (0, 1)  # income must be spent before the turns begin


def test_castle_costs_five_is_public_and_reveals_the_owner():
    m = new_match(2)
    m.apply(BuildCastle(4), 0)
    assert m.state["income_left"][0] == 4
    t = m.view(1)["territories"][3]
    assert t["castle"] and t["owner"] == 0 and t["revealed"]
    with pytest.raises(IllegalActionError, match="already has a castle"):
        m.apply(BuildCastle(4), 0)
    with pytest.raises(IllegalActionError, match="costs 5"):
        m.apply(BuildCastle(5), 0)


def test_ninjas_cost_three_and_stay_secret():
    m = new_match(2)
    m.apply(BuyNinja(2), 0)
    assert m.state["income_left"][0] == 3 and m.state["reserve"][0] == 2
    assert m.view(0)["me"]["reserve"] == 2
    assert "reserve" not in str(m.view(1)["players"]) and m.view(1)["me"]["reserve"] == 0
    assert all(e.get("type") != "ninja_bought" for e in m.events_for(1))
    with pytest.raises(IllegalActionError, match="cost"):
        m.apply(BuyNinja(2), 0)


def test_income_counts_captured_territories_next_round():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=8)
    m.apply(Attack(9, 11, 8), 0)
    # Saitama (11) is seat 1's with 0 armies anywhere: handed over without battle
    m.apply(Launch(), 0)
    assert m.state["owner"][11] == 0
    hold_windows(m)
    m.apply(EndTurn(), 0)
    hold_windows(m)
    m.apply(EndTurn(), 1)
    assert m.state["income_left"] == [10, 8]


# ------------------------------------------------------------ moves
def test_armies_have_two_moves_and_card_armies_come_onto_the_board_first():
    m = turn_of(new_match(2), {0: 4})
    assert m.current() == 0
    with pytest.raises(IllegalActionError, match="can still move"):
        m.apply(Move(4, 3, 1), 0)
    m.apply(Deploy(4, 3), 0)
    assert m.view(1)["territories"][3]["owner"] == 0  # armies on the board show their colour
    m.apply(Move(4, 3, 3), 0)   # 1st move
    m.apply(Move(3, 2, 3), 0)   # 2nd move
    with pytest.raises(IllegalActionError, match="can still move"):
        m.apply(Move(2, 1, 1), 0)
    assert m.state["board"][2] == 3 and m.state["card"][4] == 6


def test_move_needs_adjacency_and_own_destination_and_sea_links_count():
    m = turn_of(new_match(2), {0: 1})
    m.apply(Deploy(1, 2), 0)
    with pytest.raises(IllegalActionError, match="not connected"):
        m.apply(Move(1, 3, 1), 0)
    m.apply(Move(1, 2, 2), 0)  # Hokkaido - Aomori is a sea link: one move
    assert m.state["board"][2] == 2
    put(m, 9, 0, board=1)
    with pytest.raises(IllegalActionError, match="moving there is an attack"):
        m.apply(Move(9, 10, 1), 0)


def test_cannot_move_diagonally_across_corners_point_neighbours_are_not_adjacent():
    m = turn_of(new_match(2), {0: 9})
    m.apply(Deploy(9, 1), 0)
    with pytest.raises(IllegalActionError, match="not connected"):
        m.apply(Move(9, 12, 1), 0)


def test_cards_never_go_back_and_no_card_to_card_moves():
    m = turn_of(new_match(2), {0: 4})
    kinds = {a.kind for a in m.legal_actions(0)}
    assert kinds <= {"deploy", "move", "attack", "end_turn", "ninja_move"}
    assert not any(isinstance(a, Move) and m.state["board"][a.src] == 0 for a in m.legal_actions(0))


# ------------------------------------------------------------ attacks
def test_several_groups_join_one_attack_and_fighters_stop():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=3)
    put(m, 8, 0, board=3)
    put(m, 11, 1, board=1)
    m.apply(Attack(9, 11, 3), 0)
    m.apply(Attack(8, 11, 2), 0)
    with pytest.raises(IllegalActionError, match="launch it first"):
        m.apply(Attack(8, 12, 1), 0)
    with pytest.raises(IllegalActionError, match="no retreat"):
        m.apply(EndTurn(), 0)
    m.chance.forced.extend([[1, 1, 1, 1, 1], [6]])  # 5 hits, no defence hit
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    assert m.state["owner"][11] == 0 and m.state["board"][11] == 5
    hold_windows(m)
    assert m.state["fresh"][11] == 0 and m.state["half"][11] == 0  # an army that fought stops
    with pytest.raises(IllegalActionError, match="can still move"):
        m.apply(Move(11, 9, 1), 0)


def test_no_attacking_the_same_territory_twice_in_a_turn():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=2)
    put(m, 8, 0, board=2)
    put(m, 11, 1, board=3)
    m.apply(Attack(9, 11, 2), 0)
    m.chance.forced.extend([[6, 6], [1, 1, 1]])
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    assert m.state["owner"][11] == 1
    hold_windows(m)
    with pytest.raises(IllegalActionError, match="already attacked this turn"):
        m.apply(Attack(8, 11, 2), 0)


def test_owner_without_armies_hands_the_card_over():
    m = turn_of(new_match(2), {1: 10})
    put(m, 9, 0, board=2)
    assert m.state["card"][11] == 0 and m.state["board"][11] == 0
    m.apply(Attack(9, 11, 2), 0)
    draws = m.chance.draws
    m.apply(Launch(), 0)
    assert m.chance.draws == draws  # no battle, no dice
    assert m.state["owner"][11] == 0 and m.state["board"][11] == 2
    assert any(e["type"] == "handed_over" for e in m.events_for(None))


def test_defender_is_revealed_and_brings_card_armies_all_by_default():
    m = turn_of(new_match(2), {1: 11})
    put(m, 9, 0, board=4)
    m.apply(Attack(9, 11, 4), 0)
    m.apply(Launch(), 0)
    assert m.view(0)["territories"][10]["owner"] == 1
    assert m.to_act() == (1,)
    legal = m.legal_actions(1)
    assert legal[0] == Commit(9) and Commit(0) not in legal  # no defender on the board: at least one
    with pytest.raises(IllegalActionError, match="at least one"):
        m.apply(Commit(0), 1)
    m.chance.forced.extend([[6, 6, 6, 6], [6, 6]])  # a round without hits
    m.apply(Commit(2), 1)
    # seat 1 kept 7 on the card; it is asked again between rounds
    assert m.to_act() == (1,) and m.legal_actions(1)[0] == Commit(7) and Commit(0) in m.legal_actions(1)


def _defended_by_board_armies(card_on_11: bool) -> JapaneseRisk:
    """Seat 0 attacks Saitama (11): seat 1's, 2 armies on the board; seat 1 put its whole
    income (9) secretly on the card of 11 or of 10 — the only difference between the two."""
    m = turn_of(new_match(2), {1: 11 if card_on_11 else 10})
    put(m, 9, 0, board=3)
    put(m, 11, 1, board=2, card=m.state["card"][11])
    m.apply(Attack(9, 11, 3), 0)
    return m


def test_defender_is_asked_before_every_round_whatever_the_card_holds():
    """Issue 27: a player defender is asked before every battle round, card armies or not,
    so the question shows nothing about the card; only a territory with no army on the
    board nor on the card is lost without a question."""
    # armies on the board, an empty card: asked before each round, "bring none" the only answer
    m = _defended_by_board_armies(False)
    assert m.state["card"][11] == 0
    m.chance.forced.extend([[1, 6, 6], [6, 6]])  # round 1: one attacker hit, no defence hit
    m.chance.forced.extend([[1, 6, 6], [6]])     # round 2: the last defender falls
    draws = m.chance.draws
    m.apply(Launch(), 0)
    assert m.chance.draws == draws  # nothing rolled before the answer
    assert m.to_act() == (1,) and m.legal_actions(1) == [Commit(0)] and m.legal_actions(0) == []
    m.apply(Commit(0), 1)
    assert m.state["battle"]["rounds"] == 1 and m.state["board"][11] == 1
    assert m.to_act() == (1,) and m.legal_actions(1) == [Commit(0)]  # asked again before round 2
    m.apply(Commit(0), 1)
    assert m.state["battle"] is None and m.state["owner"][11] == 0 and m.state["board"][11] == 3
    committed = [e for e in m.events_for(0) if e["type"] == "committed"]
    assert [e["n"] for e in committed] == [0, 0]
    # card armies and board armies: asked as before, from all of the card down to none
    m = _defended_by_board_armies(True)
    m.apply(Launch(), 0)
    assert m.to_act() == (1,) and m.legal_actions(1) == [Commit(n) for n in range(9, -1, -1)]
    # neither board nor card armies: lost at once, no question, no dice
    m = turn_of(new_match(2), {1: 10})
    put(m, 9, 0, board=2)
    put(m, 11, 1)
    m.apply(Attack(9, 11, 2), 0)
    draws = m.chance.draws
    m.apply(Launch(), 0)
    assert m.chance.draws == draws and m.state["battle"] is None and m.state["owner"][11] == 0
    assert all(e["type"] != "committed" for e in m.events_for(None))


def test_defence_question_tells_the_attacker_nothing_about_the_card():
    """Two matches that differ only in whether the defender's card holds armies look the
    same to the attacker's seat (and to the public) up to the defender's answer."""
    empty, full = _defended_by_board_armies(False), _defended_by_board_armies(True)
    assert empty.state["card"][11] == 0 and full.state["card"][11] == 9
    assert empty.view(1) != full.view(1)  # the defender knows its card
    for m in (empty, full):
        m.apply(Launch(), 0)
    assert empty.to_act() == full.to_act() == (1,)
    for seat in (0, None):
        assert empty.view(seat) == full.view(seat)
        assert empty.events_for(seat) == full.events_for(seat)


def test_neutral_territory_gets_two_fresh_armies():
    m2 = turn_of(new_match(2))
    put(m2, 7, 0, board=5)
    put(m2, 15, NEUTRAL)  # Niigata neutral
    m2.apply(Attack(7, 15, 5), 0)
    m2.chance.forced.extend([[1, 1, 6, 6, 6], [6, 6]])
    m2.apply(Launch(), 0)
    ev = [e["type"] for e in m2.events_for(1)]
    assert "neutral_armies" in ev
    assert m2.state["owner"][15] == 0 and m2.state["board"][15] == 5


def test_battle_round_attacker_hits_on_3_defender_on_4_and_tie_keeps_territory():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=2)
    put(m, 11, 1, board=2)
    m.apply(Attack(9, 11, 2), 0)
    m.chance.forced.extend([[3, 4], [4, 5]])  # attacker: one hit (3); defender: one hit (4)
    m.chance.forced.extend([[1], [2]])  # then both die: the defender keeps the territory
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    rnd = [e for e in m.events_for(None) if e["type"] == "battle_round"]
    assert rnd[0]["ah"] == 1 and rnd[0]["dh"] == 1 and len(rnd) == 2
    assert m.state["owner"][11] == 1 and m.state["board"][11] == 0


def test_no_retreat_the_battle_is_fought_to_the_end():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=1)
    put(m, 11, 1, board=5)
    m.apply(Attack(9, 11, 1), 0)
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    assert m.state["battle"] is None and m.state["board"][9] == 0


def test_attacker_takes_the_card_and_the_castle():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=6)
    put(m, 11, 1, board=1, castle=True)
    m.apply(Attack(9, 11, 6), 0)
    m.chance.forced.extend([[1, 6, 6, 6, 6, 6], [6]])  # one hit: the castle army is wounded
    m.chance.forced.extend([[1, 6, 6, 6, 6, 6], [6]])  # second hit kills it
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    rounds = [e for e in m.events_for(None) if e["type"] == "battle_round"]
    assert rounds[0]["defenders"] == 1 and rounds[0]["wounded"] == 1 and rounds[1]["defenders"] == 0
    assert m.state["owner"][11] == 0 and m.state["castle"][11]


def test_castle_two_hits_per_army_one_army_at_a_time_and_healing():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=3)
    put(m, 11, 1, board=2, castle=True)
    m.apply(Attack(9, 11, 3), 0)
    m.chance.forced.extend([[1, 1, 1], [6, 6]])  # 3 hits on 4 hit points: 1 army left, wounded
    m.chance.forced.extend([[6, 6, 6], [1], [6, 6], [1], [6], [1]])
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    first = next(e for e in m.events_for(None) if e["type"] == "battle_round")
    assert first["defenders"] == 1 and first["wounded"] == 1 and len(first["dfn"]) == 2
    assert m.state["owner"][11] == 1 and m.state["board"][11] == 1 and m.state["wounded"][11] == 1
    hold_windows(m)
    m.apply(EndTurn(), 0)
    hold_windows(m)
    # seat 1's turn: the wounded army cannot leave the castle
    assert m.current() == 1
    assert not any(isinstance(a, (Move, Attack)) and a.src == 11 for a in m.legal_actions(1))
    m.apply(EndTurn(), 1)
    assert m.state["wounded"][11] == 0  # healed at the next turn round


def test_castles_never_attack():
    from conquest_widget.games.japanese_risk.odds import battle_odds
    # a castle only changes the defence: the attacker's odds from a castle are the plain ones
    assert battle_odds(3, 2).win != battle_odds(3, 2, castle=True).win
    m = turn_of(new_match(2))
    put(m, 9, 0, board=2, castle=True)
    put(m, 11, 1, board=2)
    m.apply(Attack(9, 11, 2), 0)
    m.chance.forced.extend([[6, 6], [1, 1]])
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    att = next(e for e in m.events_for(None) if e["type"] == "battle_round")
    assert len(att["att"]) == 2


def test_sea_attack_defender_prerolls_once_per_army():
    m = turn_of(new_match(2))
    put(m, 1, 1, board=3)   # Hokkaido to seat 1
    put(m, 2, 0, board=4)
    m.apply(Attack(2, 1, 4), 0)
    m.chance.forced.extend([[1, 4, 5], [1, 1], [6, 6, 6]])  # pre-roll: two hits (<= 4)
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    ev = [e for e in m.events_for(None) if e["type"] in ("preroll", "battle_round")]
    assert ev[0]["type"] == "preroll" and ev[0]["hits"] == 2 and len(ev[0]["dice"]) == 3
    assert len(ev[1]["att"]) == 2  # two attackers left for the first round


# ------------------------------------------------------------ ninjas
def m_adj(c: int) -> tuple[int, ...]:
    return ADJ[c]


def _with_ninjas(reserve: dict[int, int]) -> JapaneseRisk:
    m = new_match(3)
    for seat, k in reserve.items():
        m.apply(BuyNinja(k), seat)
    place_all(m)
    return m


def test_ninja_windows_at_turn_start_in_seat_order_from_the_current_player():
    m = new_match(3, order=[2, 6, 4])  # seat 1 first
    place_all(m)
    assert m.current() == 1 and m.state["window"] is not None
    asked = []
    while m.state["window"] is not None:
        asked.append(m.to_act()[0])
        m.apply(Hold(), m.to_act()[0])
    assert asked == [1, 2, 0]


def test_ninja_strike_fights_never_claims_and_hides_its_owner():
    m = _with_ninjas({2: 2})
    assert m.current() == 0
    put(m, 9, 0, board=1)
    m.apply(Hold(), 0)
    m.apply(Hold(), 1)
    m.chance.forced.extend([[1, 1], [6]])
    m.apply(Strike(9, 2), 2)
    defend(m)  # asked before each round (board armies, empty card): brings none
    assert m.state["owner"][9] == 0 and m.state["board"][9] == 0  # stays with its owner, empty
    assert m.state["ninjas"][9] == [2, 2]
    for seat in (0, 1, None):
        assert "2, 2" not in str(m.view(seat)["territories"][8]) and m.view(seat)["territories"][8]["ninjas"] == 2
        for e in m.events_for(seat):
            assert not (e["type"] in ("strike", "strike_declared") and e.get("seat") == 2)
    assert m.view(2)["me"]["ninjas"] == [[9, 2]]


def test_declared_strikes_stay_secret_until_the_window_closes():
    m = _with_ninjas({0: 1, 1: 1})
    m.apply(Strike(20, 1), 0)
    assert m.view(1)["me"]["strikes"] == [] and m.view(0)["me"]["strikes"] == [[20, 1]]
    assert [e for e in m.events_for(1) if e["type"].startswith("strike")] == []


def test_strikes_on_the_same_territory_fight_together():
    m = _with_ninjas({0: 1, 1: 1})
    m.apply(Strike(47, 1), 0)
    m.apply(Strike(47, 1), 1)
    m.chance.forced.extend([[1, 1], [6, 6]])
    m.apply(Hold(), 2)
    strike = [e for e in m.events_for(None) if e["type"] == "strike"]
    assert strike == [{"type": "strike", "territory": 47, "n": 2}]
    assert m.state["owner"][47] == NEUTRAL and sorted(m.state["ninjas"][47]) == [0, 1]


def test_window_after_every_battle():
    m = turn_of(new_match(2))
    put(m, 9, 0, board=2)
    put(m, 11, 1, board=1)
    m.apply(Attack(9, 11, 2), 0)
    m.chance.forced.extend([[1, 1], [6]])
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    assert m.state["window"] is not None and m.state["window"]["trigger"] == "battle"
    assert m.to_act() == (0,)


def test_placed_ninjas_move_and_attack_on_their_owners_turn_without_claiming():
    m = turn_of(new_match(2))
    m.state["ninjas"][8] = [0, 0]
    m.state["nfresh"][8] = 2
    put(m, 12, 1, board=1)
    m.apply(NinjaMove(8, 11, 1), 0)  # a pure move: no battle in seat 1's Saitama
    assert m.state["battle"] is None and m.state["ninjas"][11] == [0]
    m.apply(Attack(8, 12, 1, True), 0)
    m.chance.forced.extend([[1], [6]])
    m.apply(Launch(), 0)
    defend(m)  # asked before each round (board armies, empty card): brings none
    assert m.state["owner"][12] == 1 and m.state["board"][12] == 0 and m.state["ninjas"][12] == [0]


# ------------------------------------------------------------ end of the game
def test_shogun_more_than_half_of_all_47():
    m = turn_of(new_match(2))
    for c in range(19, 33):
        m.state["owner"][c] = 0   # 9 + 14 = 23: not yet
    put(m, 32, 0, board=3)
    assert not m._check_shogun()
    target = next(d for d in m_adj(32) if m.state["owner"][d] == NEUTRAL)
    m.apply(Attack(32, target, 3), 0)
    m.chance.forced.extend([[1, 1, 1], [6, 6]])
    m.apply(Launch(), 0)
    assert sum(1 for c in CODES if m.state["owner"][c] == 0) == 24
    out = m.outcome()
    assert out is not None and out.reason == "shogun" and out.winners == (0,)


def test_shogun_players_only_switch():
    m = turn_of(new_match(2, shogun="players"))
    put(m, 7, 0, board=4)
    m.apply(Attack(7, 15, 4), 0)   # Niigata: seat 1's card (identity deal), no armies
    m.apply(Launch(), 0)
    out = m.outcome()
    assert out is not None and out.reason == "shogun" and out.winners == (0,)  # 10 > 8


def test_round_limit_most_territories_wins():
    m = turn_of(new_match(3, round_limit=1))
    for c in (19, 20):
        m.state["owner"][c] = 1
    for _seat in (0, 1, 2):
        hold_windows(m)
        m.apply(EndTurn(), m.current())
    out = m.outcome()
    assert out is not None and out.reason == "round_limit" and out.ranks == (2, 1, 3)


def test_illegal_actions_change_nothing():
    m = turn_of(new_match(2))
    before = (m.to_dict(), [m.view(s) for s in (0, 1)], len(m.events))
    for seat, action in [(1, EndTurn()), (0, Commit(1)), (0, Attack(9, 12, 1)), (0, Move(9, 10, 1)),
                         (0, Deploy(10, 1)), (0, Attack(1, 47, 1)), (0, Launch()), (0, Place(1, 1)),
                         (0, Deploy(99, 1)), (0, Deploy(1, -1)), (0, Attack(1, 2, 1, "yes"))]:
        err = m.explain(seat, action)
        assert isinstance(err, IllegalActionError) and str(err), action
        with pytest.raises(IllegalActionError):
            m.apply(action, seat)
    assert before == (m.to_dict(), [m.view(s) for s in (0, 1)], len(m.events))


# ------------------------------------------------------------ issue 30: the seed's rules
# Tokyo 13, Saitama 11, Gunma 10, Kanagawa 14, Yamanashi 19, Tochigi 9 (identity deal:
# seat 0 holds 1-9, seat 1 10-18, seat 2 19-27).
DATA = Path(__file__).parent / "data"


def test_ninjas_defend_placed_ones_fight_for_their_owner_others_do_not():
    # seed: ninjas "attack and defend with the same dice rolls as normal army units, but they
    # cannot claim land"; only the owner's own ninjas standing there defend
    m = turn_of(new_match(3))
    put(m, 9, 0, board=2)
    put(m, 11, 1)                   # Saitama: no army on the board nor on the card ...
    m.state["ninjas"][11] = [2, 1]  # ... but one of its owner's ninjas (and one of seat 2's)
    m.apply(Attack(9, 11, 2), 0)
    m.apply(Launch(), 0)
    assert m.state["battle"] is not None, "not handed over: the owner's ninja defends"
    assert m.to_act() == (1,)       # the defender is asked, as before any battle round
    m.chance.forced.extend([[6, 6], [1]])  # the one defending die (not two) hits
    m.apply(Commit(0), 1)
    rnd = [e for e in m.events_for(None) if e["type"] == "battle_round"][-1]
    assert rnd["dfn"] == [1] and rnd["ninjas"] == 1
    revealed = [e for e in m.events_for(None) if e["type"] == "revealed"][-1]
    assert revealed == {"type": "revealed", "territory": 11, "owner": 1, "ninjas": 1}
    m.chance.forced.extend([[1], [6]])
    defend(m)
    assert m.state["owner"][11] == 0 and m.state["board"][11] == 1
    assert m.state["ninjas"][11] == [2]  # seat 2's ninja took no part and still stands there


def test_defender_brings_reserve_ninjas_into_the_battle_and_they_stay():
    # seed: ninjas are placed "anywhere on the board wherever and whenever you need them"
    m = new_match(3)
    m.apply(BuyNinja(2), 1)
    place_all(m)
    hold_windows(m)
    put(m, 9, 0, board=3)
    put(m, 11, 1, board=1)
    m.apply(Attack(9, 11, 3), 0)
    m.apply(Launch(), 0)
    assert Commit(0, 2) in m.legal_actions(1) and m.legal_actions(1)[0] == Commit(0)
    m.chance.forced.extend([[6, 6, 6], [1, 1, 1]])  # three defending dice: 1 army + 2 ninjas
    m.apply(Commit(0, 2), 1)
    defend(m)
    assert m.state["owner"][11] == 1 and m.state["board"][11] == 1
    assert m.state["ninjas"][11] == [1, 1] and m.state["reserve"][1] == 0  # placed for good
    committed = [e for e in m.events_for(2) if e["type"] == "committed"]
    assert committed == [{"type": "committed", "seat": 1, "territory": 11, "n": 0, "ninjas": 2}]
    assert m.view(2)["territories"][10]["ninjas"] == 2


def test_defending_ninjas_and_armies_are_one_force_armies_fall_first():
    # decision (rules table #60): in a castle every defender takes two hits, armies fall first
    m = turn_of(new_match(2))
    put(m, 9, 0, board=3)
    put(m, 11, 1, board=1, castle=True)
    m.state["ninjas"][11] = [1]
    m.apply(Attack(9, 11, 3), 0)
    m.apply(Launch(), 0)
    m.chance.forced.extend([[1, 6, 6], [6, 6]])  # 1 hit of 4 hit points; two defending dice
    m.apply(Commit(0), 1)
    assert (m.state["board"][11], m.state["wounded"][11], m.state["ninjas"][11]) == (1, 1, [1])
    m.chance.forced.extend([[1, 1, 6], [6, 6]])  # 2 more hits: the army falls, the ninja is wounded
    m.apply(Commit(0), 1)
    assert (m.state["board"][11], m.state["wounded"][11], m.state["ninjas"][11]) == (0, 1, [1])
    m.chance.forced.extend([[1, 6, 6], [1]])     # the last hit point; its die still hits back
    m.apply(Commit(0), 1)
    assert m.state["owner"][11] == 0 and m.state["board"][11] == 2 and m.state["ninjas"][11] == []


def test_defending_ninjas_roll_in_the_sea_pre_roll():
    # "the defender gets one free dice roll once for each army they have on the invaded
    # territory": the owner's ninja there is one of its defenders (rules table #60)
    m = turn_of(new_match(2))
    put(m, 1, 0, board=2)
    put(m, 2, 1, board=1)
    m.state["ninjas"][2] = [1]
    m.apply(Attack(1, 2, 2), 0)
    m.apply(Launch(), 0)
    m.chance.forced.extend([[6, 6]])  # two pre-roll dice: the army and the ninja
    m.apply(Commit(0), 1)
    pre = [e for e in m.events_for(None) if e["type"] == "preroll"]
    assert pre == [{"type": "preroll", "territory": 2, "dice": [6, 6], "hits": 0}]


def test_reserve_ninjas_alone_do_not_stop_a_hand_over():
    # seed: "If the owner has no armies on the territory card or already on the gameboard,
    # he/she must hand over the territory card without a battle" (decision: reserve ninjas
    # are not asked for, so no question shows who holds a reserve)
    m = new_match(3)
    m.apply(BuyNinja(1), 1)
    place_all(m, {1: 10})
    hold_windows(m)
    put(m, 9, 0, board=2)
    m.apply(Attack(9, 11, 2), 0)
    m.apply(Launch(), 0)
    assert m.state["owner"][11] == 0 and m.state["reserve"][1] == 1


def test_a_hand_over_leaves_the_winners_their_second_move():
    # seed: "Each army gets two moves"; only an army that fought stops
    m = turn_of(new_match(2))
    put(m, 13, 0, board=2)
    put(m, 19, 0)
    put(m, 14, 1)  # Kanagawa: its owner has no armies at all
    m.apply(Attack(13, 14, 2), 0)
    m.apply(Launch(), 0)
    assert m.state["owner"][14] == 0
    hold_windows(m)
    m.apply(Move(14, 19, 2), 0)  # on to Yamanashi: the second move
    assert m.state["board"][19] == 2
    with pytest.raises(IllegalActionError, match="only 0 armies in Yamanashi can still move"):
        m.apply(Move(19, 14, 1), 0)


def test_the_player_chooses_which_armies_move():
    # seed: "Your armies can keep moving until they use up their two moves each"
    m = turn_of(new_match(2))
    put(m, 13, 0, board=1)
    put(m, 12, 0, board=1)
    put(m, 11, 0)
    put(m, 10, 0)
    m.apply(Move(12, 13, 1), 0)  # one fresh and one once-moved army on Tokyo
    assert (m.state["fresh"][13], m.state["half"][13]) == (1, 1)
    before = m.snapshot()
    m.apply(Move(13, 11, 1), 0)  # default: the once-moved one goes, as before
    with pytest.raises(IllegalActionError, match="only 0 armies in Saitama can still move"):
        m.apply(Move(11, 10, 1), 0)
    m.restore(before)
    assert Move(13, 11, 1, fresh=1) in m.legal_actions(0)
    m.apply(Move(13, 11, 1, fresh=1), 0)  # the fresh one: to Saitama, then on to Gunma
    m.apply(Move(11, 10, 1), 0)
    assert m.state["board"][10] == 1 and (m.state["fresh"][13], m.state["half"][13]) == (0, 1)
    with pytest.raises(IllegalActionError, match="have not moved yet"):
        m.apply(Move(13, 11, 1, fresh=1), 0)
    assert Move(13, 11, 1).to_dict() == {"type": "move", "src": 13, "dst": 11, "count": 1}


def test_a_document_of_rules_edition_1_replays_identically():
    # written by main before issue 30 (3 random players, one battle on a territory where one
    # of its owner's ninjas stood): without a "rules" field it replays under edition 1
    text = (DATA / "rules_edition_1_save.json").read_text()
    doc = json.loads(text)
    m = JapaneseRisk.from_dict(doc)
    assert m.setup.rules == 1 and json.dumps(m.to_dict(), sort_keys=True) == text
    with pytest.raises(SerializationError):  # under edition 2 that ninja would have defended
        JapaneseRisk.from_dict(dict(doc, setup=dict(doc["setup"], rules=2)))
    assert RiskSetup(players=("A", "B")).to_dict()["rules"] == RULES == 2
