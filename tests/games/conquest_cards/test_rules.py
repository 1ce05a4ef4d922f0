"""One named test per rule of Conquest (docs/rules_conquest.md lists them with the seed
sentences they interpret)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from conquest_widget.core.protocol import CHANCE
from conquest_widget.errors import IllegalActionError, SetupError
from conquest_widget.games.conquest_cards.cards import (
    deck_cards,
    number_cards,
    sort_cards,
    value,
)
from conquest_widget.games.conquest_cards.engine import (
    ConquestCards,
    Draw,
    EndTurn,
    Joker,
    Place,
    PlayOn,
    Select,
    Unselect,
)
from conquest_widget.games.conquest_cards.scoring import score
from conquest_widget.games.conquest_cards.setup import CardsSetup, PlayerSeat

from .util import (
    all_cards_of,
    end_match,
    full_set,
    play_random,
    play_turn,
    pos_match,
    random_match,
)

E = [[], [], []]


# ------------------------------------------------------------------ players and setup
def test_players_two_to_four() -> None:
    for n in (2, 3, 4):
        assert ConquestCards(CardsSetup.quick(n), seed=1).n_seats == n
    for n in (1, 5):
        with pytest.raises(SetupError, match="2-4 players"):
            CardsSetup.quick(n)
    with pytest.raises(SetupError, match="2-4"):
        CardsSetup.from_dict({"players": [{"name": f"P{i}"} for i in range(5)]})


def test_each_player_gets_jqk_of_one_suit_random_or_chosen() -> None:
    seen = set()
    for seed in range(30):
        m = ConquestCards(CardsSetup.quick(3), seed=seed)
        suits = [p["suit"] for p in m.view(None)["players"]]
        assert len(set(suits)) == 3 and set(suits) <= set("SHCD")
        assert [pile["face"] for pile in m.view(None)["players"][0]["piles"]] == ["J", "Q", "K"]
        assert m.log[0]["seat"] == CHANCE and m.log[0]["kind"] == "suits"
        seen.add(tuple(suits))
    assert len(seen) > 5, "random suits should vary"
    m = ConquestCards(CardsSetup.quick(3, suits=("D", "C", "H")), seed=1)
    assert [p["suit"] for p in m.view(None)["players"]] == ["D", "C", "H"]
    assert not any(e.get("kind") == "suits" for e in m.log)


def test_absent_suits_and_jokers_are_set_aside() -> None:
    m = ConquestCards(CardsSetup.quick(2, suits=("S", "H")), seed=1)
    assert sorted(m.view(None)["set_aside"]) == sorted(["JC", "QC", "KC", "JD", "QD", "KD", "JK", "JK"])
    m = ConquestCards(CardsSetup.quick(2, suits=("S", "H"), jokers=True), seed=1)
    assert "JK" not in m.view(None)["set_aside"]
    assert Counter(m.state["deck"] + [c for h in m.state["hands"] for c in h])["JK"] == 2
    m = ConquestCards(CardsSetup.quick(4), seed=1)
    assert m.view(None)["set_aside"] == ["JK", "JK"]


def test_deck_is_forty_number_cards_shuffled_two_dealt_each() -> None:
    orders = set()
    for seed in range(10):
        for n in (2, 3, 4):
            m = ConquestCards(CardsSetup.quick(n), seed=seed)
            assert [len(h) for h in m.state["hands"]] == [2] * n
            assert len(m.state["deck"]) == 40 - 2 * n
            dealt = sorted(m.state["deck"] + [c for h in m.state["hands"] for c in h])
            assert dealt == sorted(number_cards())
            shuffle = [e for e in m.log if e["seat"] == CHANCE and e["kind"] == "shuffle"]
            assert len(shuffle) == 1 and sorted(shuffle[0]["outcome"]) == list(range(40))
            orders.add(tuple(shuffle[0]["outcome"]))
    assert len(orders) == 10   # one shuffle per seed
    # the suits nobody plays are in the deck too
    m = ConquestCards(CardsSetup.quick(2, suits=("S", "H")), seed=3)
    assert any(c.endswith("D") for c in m.state["deck"])


@pytest.mark.parametrize("suits,starter", [
    (("D", "C"), 1), (("H", "D", "C"), 0), (("D", "S"), 1), (("C", "D"), 0), (("D", "C", "H", "S"), 3),
    (("D", "H"), 1), (("C", "D", "H"), 2),
])
def test_starting_player_spades_then_hearts_then_clubs(suits, starter) -> None:
    m = ConquestCards(CardsSetup.quick(len(suits), suits=suits), seed=1)
    assert m.to_act() == (starter,)
    assert m.events_for(None)[0]["starter"] == starter


def test_play_passes_to_the_left_in_seat_order() -> None:
    m = ConquestCards(CardsSetup.quick(3, suits=("H", "S", "C")), seed=1)
    order = []
    for _ in range(6):
        seat = m.to_act()[0]
        order.append(seat)
        play_turn(m, seat, [], None)
    assert order == [1, 2, 0, 1, 2, 0]


# ------------------------------------------------------------------ a turn
def test_a_turn_starts_with_one_draw() -> None:
    m = pos_match([["7S"], ["2H"]], deck=None)
    assert m.legal_actions(0) == [Draw()]
    err = m.explain(0, Select("7S"))
    assert err is not None and err.reason == "draw_first" and str(err) == "draw a card first"
    top = m.state["deck"][-1]
    m.apply(Draw(), 0)
    assert sorted(m.state["hands"][0]) == sorted(["7S", top]) and len(m.state["deck"]) == 40 - 3
    assert m.explain(0, Draw()).reason == "already_drew"


def test_play_cards_sharing_a_suit_or_a_value_on_one_face() -> None:
    m = pos_match([["7S", "9S", "7H", "3D"], ["2H"]], deck=None)
    m.apply(Draw(), 0)
    hand = m.state["hands"][0]
    m.apply(Select("7S"), 0)
    offered = {a.card for a in m.legal_actions(0) if isinstance(a, Select)}
    assert {"9S", "7H"} <= offered and "3D" not in offered
    m.apply(Select("9S"), 0)   # now a suit group: 7H no longer fits
    offered = {a.card for a in m.legal_actions(0) if isinstance(a, Select)}
    assert "7H" not in offered and all(c.endswith("S") for c in offered)
    assert m.explain(0, Select("7H")).reason == "group_broken"
    m.apply(PlayOn("K"), 0)
    k = m.view(1)["players"][0]["piles"][2]
    assert k["cards"] == ["7S", "9S"] and k["total"] == 16
    assert "7S" not in hand and "9S" not in hand
    # a value group
    m2 = pos_match([["7S", "7H", "7D", "9S"], ["2H"]], deck=None)
    play_turn(m2, 0, ["7H", "7S", "7D"], "Q")
    assert m2.view(0)["players"][0]["piles"][1]["total"] == 21


def test_cards_need_not_match_the_face_suit() -> None:
    m = pos_match([["5H", "5D"], ["2C"]], deck=None)
    play_turn(m, 0, ["5H", "5D"], "J")   # a spades player plays hearts and diamonds
    assert m.view(0)["players"][0]["piles"][0]["cards"] == ["5H", "5D"]


def test_a_single_card_is_always_fine() -> None:
    hand = ["AS", "2H", "3C", "4D", "10S"]
    m = pos_match([hand, ["2S"]], deck=None)
    m.apply(Draw(), 0)
    offered = {a.card for a in m.legal_actions(0) if isinstance(a, Select)}
    assert set(hand) <= offered
    for c in hand:
        assert m.explain(0, Select(c)) is None


def test_mixed_suit_and_value_is_refused_with_a_clear_message() -> None:
    m = pos_match([["7S", "9H"], ["2S"]], deck=None)
    m.apply(Draw(), 0)
    m.apply(Select("7S"), 0)
    err = m.explain(0, Select("9H"))
    assert str(err) == "a 7♠ and a 9♥ share neither suit nor value" and err.reason == "no_match"
    with pytest.raises(IllegalActionError, match="share neither suit nor value"):
        m.apply(Select("9H"), 0)


def test_playing_zero_cards_is_allowed() -> None:
    m = pos_match([["7S", "9S"], ["2H"]], deck=None)
    m.apply(Draw(), 0)
    assert EndTurn() in m.legal_actions(0)
    m.apply(Select("7S"), 0)
    m.apply(EndTurn(), 0)   # a selection goes back to the hand
    assert len(m.state["hands"][0]) == 3 and m.to_act() == (1,)
    assert all(not pile["cards"] for pile in m.view(0)["players"][0]["piles"])
    assert m.events_for(1)[-1] == {"type": "pass", "seat": 0}


def test_cards_go_on_one_face_and_then_the_turn_ends() -> None:
    m = pos_match([["7S", "9S"], ["2H"]], deck=None)
    play_turn(m, 0, ["7S"], "J")
    assert m.to_act() == (1,) and m.state["stage"] == "draw"
    assert m.explain(0, Select("9S")).reason == "not_your_turn"
    m.apply(Draw(), 1)
    assert m.explain(1, PlayOn("J")).reason == "nothing_selected"
    assert m.explain(1, PlayOn("A")).reason == "not_a_face"


def test_game_ends_after_the_turn_of_the_last_draw() -> None:
    m = end_match([E, E], last="5S")
    assert m.outcome() is None
    m.apply(Draw(), 0)
    assert m.events_for(0)[-1]["last"] is True and m.events_for(1)[-1] == {"type": "draw", "seat": 0, "last": True, "deck_size": 0}
    assert m.outcome() is None and m.to_act() == (0,)   # the drawer finishes the turn
    m.apply(Select("5S"), 0)
    m.apply(PlayOn("K"), 0)
    assert m.outcome() is not None and m.to_act() == ()
    assert m.outcome().winners == (0,)   # only seat 0 has a card on a pile: K scores 3
    with pytest.raises(IllegalActionError, match="over"):
        m.apply(Draw(), 1)


# ------------------------------------------------------------------ values and scoring
def test_card_values_ace_one_numbers_their_number() -> None:
    assert [value(c) for c in ["AS", "2H", "5C", "9D", "10S"]] == [1, 2, 5, 9, 10]
    m = end_match([[["AS", "2S", "3S", "10S"], [], []], E])
    assert m.view(None)["players"][0]["piles"][0]["total"] == 16


def test_piles_score_jack_1_queen_2_king_3() -> None:
    m = end_match([[["10S"], ["9S"], ["2S"]], [["5H"], ["3H"], ["10H"]]])
    play_turn(m, 0, [], None)
    d = m.outcome().details
    assert d["points"] == [3, 3]
    assert [p["winners"] for p in d["piles"]] == [[0], [0], [1]]
    assert [p["points"] for p in d["piles"]] == [1, 2, 3]


def test_pile_tie_goes_to_more_aces_then_every_tied_player_scores() -> None:
    m = end_match([[["AS", "4S"], ["6S"], E[0]], [["5H"], ["6H"], ["4H"]]])
    play_turn(m, 0, [], None)
    piles = m.outcome().details["piles"]
    assert piles[0]["winners"] == [0] and piles[0]["by"] == "aces"
    assert piles[1]["winners"] == [0, 1] and piles[1]["by"] == "shared"
    assert m.outcome().details["points"] == [1 + 2, 2 + 3]
    # equal totals and equal aces: both score
    r = score([[5, 0, 0], [5, 0, 0], [2, 0, 0]], [[1, 0, 0], [1, 0, 0], [0, 0, 0]], [[True, False, False]] * 3)
    assert r["piles"][0]["winners"] == [0, 1] and r["points"] == [1, 1, 0]


def test_an_empty_pile_never_scores() -> None:
    m = end_match([[["9S"], E[0], E[0]], [E[0], E[0], ["2H"]]])
    play_turn(m, 0, [], None)
    d = m.outcome().details
    assert d["piles"][1]["by"] == "empty" and d["piles"][1]["winners"] == []
    assert d["points"] == [1, 3]
    # a pile holding only an opponent's joker is still empty (it scores nothing)
    m = end_match([[E[0], E[0], E[0]], [E[0], E[0], ["JK"]]], jokers=True)
    play_turn(m, 0, [], None)
    assert m.outcome().details["points"] == [0, 0]
    assert m.outcome().details["decided_by"] == "sum" and m.outcome().winners == (0,)   # -5 counts in the sum


def test_winner_most_points_then_sum_then_aces_then_jack_queen_then_shared() -> None:
    t = [[True] * 3] * 2
    # most points
    assert score([[1, 1, 9], [2, 2, 10]], [[0] * 3] * 2, t)["decided_by"] == "points"
    # equal points (3 each) -> higher sum of the three totals
    r = score([[10, 9, 2], [5, 3, 12]], [[0] * 3] * 2, t)
    assert r["points"] == [3, 3] and r["decided_by"] == "sum" and r["ranks"] == [1, 2]
    # equal points and sums -> more aces in all
    r = score([[10, 9, 2], [5, 3, 13]], [[1, 0, 0], [0, 0, 0]], t)
    assert r["chain"]["sum"] == [21, 21] and r["decided_by"] == "aces" and r["winners"] == [0]
    # ... -> higher Jack + Queen total
    r = score([[10, 9, 2], [5, 4, 12]], [[0, 0, 0], [0, 0, 0]], t)
    assert r["chain"]["jack_queen"] == [19, 9] and r["decided_by"] == "jack_queen" and r["winners"] == [0]
    # all equal -> shared win with equal rank
    r = score([[3, 3, 3], [3, 3, 3]], [[0] * 3] * 2, t)
    assert r["decided_by"] == "shared" and r["ranks"] == [1, 1]
    # end to end: the outcome names the deciding step
    m = end_match([[["10S"], ["9S"], ["2S"]], [["5H"], ["3H"], ["10H", "2H"]]])
    play_turn(m, 0, [], None)
    out = m.outcome()
    assert out.details["decided_by"] == "sum" and out.reason == "decided_by_sum" and out.ranks == (1, 2)


# ------------------------------------------------------------------ optional rules
def test_option1_ace_on_its_own_suit_face_is_eleven() -> None:
    for on, expected in ((True, (11, 1)), (False, (1, 1))):
        m = end_match([[["AS"], ["AH"], E[0]], E], ace_eleven=on)
        v = m.view(None)["players"][0]["piles"]
        assert (v[0]["total"], v[1]["total"]) == expected
    m = pos_match([["AS"], ["AH", "2H"]], deck=None, suits=("S", "H"), ace_eleven=True)
    play_turn(m, 0, [], None)
    play_turn(m, 1, ["AH"], "Q")   # the hearts player's ace on a hearts face card
    assert m.view(0)["players"][1]["piles"][1]["total"] == 11


def test_option2_revealed_hands_go_to_the_suit_owner() -> None:
    # seat 1 (hearts) ends holding spades (seat 0's suit), its own hearts, clubs and a joker
    m = end_match([[["5S"], E[0], E[0]], [E[0], ["9H"], E[0]]], reveal_hands=True, jokers=True,
                  hands=[["8H"], []], dump=1)
    held1 = sort_cards(m.state["hands"][1])
    play_turn(m, 0, [], None)
    assert m.outcome() is None and m.state["stage"] == "place"
    v0 = m.view(0)
    assert v0["revealed"][1] == held1 and v0["revealed"] == m.view(None)["revealed"]   # public
    spades = [c for c in held1 if c.endswith("S")]
    assert v0["to_place"][0] == spades and v0["to_place"][1] == ["8H"]   # seat 0's hearts go to seat 1
    assert "JK" in v0["dead"] and all(c in v0["dead"] for c in held1 if c[-1] in "HCD")
    # placing: any own pile, no grouping; the next player to the left of the last player starts
    assert m.to_act() == (1,)
    assert m.explain(1, Place("AS", "J")).reason == "not_received"
    m.apply(Place("8H", "J"), 1)
    assert m.to_act() == (0,)
    assert {a.card for a in m.legal_actions(0)} == set(spades)
    for i, c in enumerate(spades):
        m.apply(Place(c, "JQK"[i % 3]), 0)
    out = m.outcome()
    assert out is not None
    placed = sum(len(p["cards"]) for p in m.view(None)["players"][0]["piles"])
    assert placed == 1 + len(spades)
    # without the rule, hands stay hidden at the end
    m = end_match([E, E])
    play_turn(m, 0, [], None)
    assert m.outcome() is not None and "revealed" not in m.view(0) and "hand" not in m.view(None)


def test_option3_jokers_are_minus_five_on_an_opponents_face() -> None:
    m = pos_match([["JK", "7S"], ["2H"]], [[[], [], []], [[], [], ["10H"]]], deck=None, jokers=True)
    m.apply(Draw(), 0)
    jokers = [a for a in m.legal_actions(0) if isinstance(a, Joker)]
    assert jokers and all(a.target == 1 for a in jokers)
    assert m.explain(0, Joker(0, "K")).reason == "joker_own_pile"
    assert m.explain(0, Select("JK")).reason == "joker_not_selectable"
    m.apply(Select("7S"), 0)
    assert m.explain(0, Joker(1, "K")).reason == "joker_instead"
    m.apply(Unselect("7S"), 0)
    m.apply(Joker(1, "K"), 0)
    assert m.view(0)["players"][1]["piles"][2] == {"face": "K", "cards": ["10H", "JK"], "total": 5, "aces": 0}
    assert m.to_act() == (1,)   # instead of playing cards: the turn is over
    # without the rule there are no jokers
    m = pos_match([["7S"], ["2H"]], deck=None)
    m.apply(Draw(), 0)
    assert m.explain(0, Joker(1, "K")).reason == "no_jokers_rule"


@pytest.mark.parametrize("ace_eleven,reveal_hands,jokers", list(itertools.product([False, True], repeat=3)))
def test_all_eight_option_combinations(ace_eleven, reveal_hands, jokers) -> None:
    rng = random.Random(hash((ace_eleven, reveal_hands, jokers)) % 1000)
    revealed = jokers_played = aces11 = 0
    for _ in range(25):
        m = random_match(rng, ace_eleven=ace_eleven, reveal_hands=reveal_hands, jokers=jokers)
        assert sum(1 for c in m.state["deck"] + [c for h in m.state["hands"] for c in h] if c == "JK") == (2 if jokers else 0)
        play_random(m, rng)
        assert m.outcome() is not None
        assert all_cards_of(m) == full_set(m.state["suits"])
        v = m.view(0)
        assert ("revealed" in v) == reveal_hands
        revealed += "revealed" in v
        for p in v["players"]:
            for pile in p["piles"]:
                expect = sum(11 if ace_eleven and c[0] == "A" and c[-1] == p["suit"] else value(c) for c in pile["cards"])
                assert pile["total"] == expect
                jokers_played += pile["cards"].count("JK")
                aces11 += sum(1 for c in pile["cards"] if c[0] == "A" and c[-1] == p["suit"])
        if not jokers:
            assert jokers_played == 0
    if jokers:
        assert jokers_played > 0
    assert aces11 > 0


# ------------------------------------------------------------------ information
def test_view_shows_own_hand_hand_sizes_deck_and_piles_only() -> None:
    m = pos_match([["7S", "9S"], ["2H", "3H", "4H"]], [[["AS"], [], []], [[], ["5H"], []]], deck=None)
    v = m.view(0)
    assert v["hand"] == ["7S", "9S"] and v["players"][1]["hand_size"] == 3 and v["deck_size"] == 40 - 7
    assert v["players"][1]["piles"][1]["cards"] == ["5H"]
    text = json.dumps(v)
    for c in ["2H", "3H", "4H"]:
        assert f'"{c}"' not in text
    assert "hand" not in m.view(None) and "deck" not in v


def test_a_draw_is_seen_by_the_drawer_only() -> None:
    m = pos_match([["7S"], ["2H"]], deck=None)
    m.apply(Draw(), 0)
    card = m.state["hands"][0][-1]
    assert m.events_for(0)[-1]["card"] == card
    assert "card" not in m.events_for(1)[-1] and "card" not in m.events_for(None)[-1]
    m.apply(Select("7S"), 0)
    assert m.events_for(1)[-1]["type"] == "draw"   # selections are private too


def test_deck_order_is_seen_by_nobody() -> None:
    m = ConquestCards(CardsSetup.quick(2), seed=3)
    for seat in (None, 0, 1):
        v = json.dumps(m.view(seat))
        assert all(f'"{c}"' not in v for c in m.state["deck"])


# ------------------------------------------------------------------ engine services
def test_editor_position_is_part_of_the_setup_and_replays() -> None:
    m = pos_match([["7S", "9S"], ["2H"]], [[["AS"], [], []], E], deck=None, seed=9)
    play_random(m, random.Random(1))
    doc = json.loads(json.dumps(m.to_dict()))
    assert doc["setup"]["position"]["hands"] == [["7S", "9S"], ["2H"]]
    m2 = ConquestCards.from_dict(doc)
    assert m2.to_dict() == m.to_dict() and m2.view(None) == m.view(None)
    with pytest.raises(SetupError, match="twice"):
        pos_match([["7S", "7S"], ["2H"]], deck=None)
    with pytest.raises(SetupError, match="needs the suits"):
        CardsSetup(CardsSetup.quick(2).players, None, position=m.setup.position)


def test_setup_from_dict_refuses_hostile_input() -> None:
    good = CardsSetup.quick(2).to_dict()
    bad = [
        {**good, "suits": ["S", "X"]},
        {**good, "jokers": "yes"},
        {**good, "players": [{"name": "<b>x</b>\x00"}, {"name": "B"}]},
        {**good, "players": [{"name": "A"}, {"name": "A"}]},
        {**good, "players": [{"name": "A", "bot": "godlike"}, {"name": "B"}]},
        {**good, "extra": 1},
        {**good, "position": {"hands": [["7S"], ["ZZ"]], "piles": [[[], [], []], [[], [], []]]}, "suits": ["S", "H"]},
        {**good, "position": {"hands": [["7S"], []], "piles": [[[], [], []]]}, "suits": ["S", "H"]},
        "not a dict",
    ]
    for data in bad:
        with pytest.raises(SetupError):
            CardsSetup.from_dict(data)
    assert CardsSetup.from_dict(good) == CardsSetup.quick(2)
    assert CardsSetup(tuple(PlayerSeat(n) for n in "AB")).n == 2


def test_actions_have_text_and_dict_forms() -> None:
    codec = ConquestCards.codec
    for a in [Draw(), Select("10H"), Unselect("AS"), PlayOn("K"), EndTurn(), Joker(2, "Q"), Place("7C", "J")]:
        assert codec.from_dict(a.to_dict()) == a
        assert codec.parse(str(a)) == a
    assert str(Select("10H")) == "select 10H"
    m = pos_match([["7S"], ["2H"]], deck=None)
    m.apply(Draw(), 0)
    assert m.explain(0, Select("7X")).reason == "not_a_card"
    assert m.explain(0, Select("JS")).reason == "not_in_hand"


def test_deck_cards_count() -> None:
    assert len(deck_cards()) == 40 and len(deck_cards(True)) == 42


def test_an_emitted_event_is_not_changed_by_later_play() -> None:
    """The reveal event (optional rule 2) lists the cards to place; placing them afterwards
    must not rewrite the event already emitted (events are history)."""
    from conquest_widget.core.bots import RandomBot, decision
    from conquest_widget.games.conquest_cards.engine import ConquestCards
    from conquest_widget.games.conquest_cards.setup import CardsSetup

    for seed in range(40):
        m = ConquestCards(CardsSetup.quick(3, reveal_hands=True), seed=seed)
        snapshot = None
        while m.outcome() is None:
            if snapshot is None and any(e.data.get("type") == "reveal" for e in m.events):
                snapshot = json.dumps([e.data for e in m.events], sort_keys=True)
            seat = m.to_act()[0]
            m.apply(RandomBot().choose(*decision(m, seat, seed)), seat)
        if snapshot is not None:
            n = len(json.loads(snapshot))
            assert json.dumps([e.data for e in m.events[:n]], sort_keys=True) == snapshot
            return
    raise AssertionError("no game with a reveal in 40 seeds")
