"""Scenario tests: the end of the game (standard turn limit, Final Showdown, conquest
and total conquest, defeat, ranking).

Expected numbers are worked out by hand from the rules (docs/rules.md).
Base values used: Tokyo 50, Osaka 45, Hokkaido 40, Aomori 20, Iwate 20, Kyoto 30, Okinawa 25.
"""

from __future__ import annotations

import pytest

from conquest_widget.errors import GameOverError
from conquest_widget.games.japan_conquest import Roll

from .conftest import events, new_game

HOMES = ("Tokyo", "Osaka")


def _fill(g, level_name, skip=(), owners=(0, 1)):
    """Editor: every prefecture except home bases and ``skip`` owned at ``level_name``,
    alternating between ``owners`` by JIS code."""
    for c in range(1, 48):
        if g.prefecture_info(c)["level"] == "home" or c in skip:
            continue
        g.edit_prefecture(c, owner=owners[c % len(owners)], level=level_name)


def _shuttle(g, n):
    """Play ``n`` one-step turns with 1s: seat 0 Tokyo<->Saitama, seat 1 Osaka<->Kyoto."""
    for _ in range(n):
        seat = g.current_player
        pos = g.state.players[seat].position
        dest = {13: "Saitama", 11: "Tokyo", 27: "Kyoto", 26: "Osaka"}[pos]
        g.plan_route([dest], dice=1)


# ------------------------------------------------------------ standard games


def test_standard_game_ends_when_every_player_has_completed_the_chosen_turns():
    g = new_game(HOMES, dice=[1, 1], turns=5)
    g.edit_turn(0, turn=5)
    _shuttle(g, 1)
    assert not g.is_over and g.current_player == 1 and g.turn_number(1) == 5
    _shuttle(g, 1)
    assert g.is_over and g.phase == "over"
    assert g.state.end_reason == "turns"
    end = events(g, "game_end")[-1]
    assert end["reason"] == "turns" and end["decisive"] is False
    assert [p.turns_done for p in g.state.players] == [5, 5]


def test_standard_game_length_counts_every_players_turns():
    # a whole 5-turn game of one-step moves: 10 turns in all, then over
    g = new_game(HOMES, dice=[1] * 10, turns=5)
    _shuttle(g, 9)
    assert not g.is_over
    _shuttle(g, 1)
    assert g.is_over
    # Tokyo and Osaka stored prosperity is collected each turn 2..5 (4 x 30); the 5th store is lost
    assert g.score(0)["banked"] == 120 and g.score(1)["banked"] == 120


def test_claiming_every_prefecture_does_not_end_a_standard_game_early():
    g = new_game(HOMES, dice=[1], turns=10)
    _fill(g, "castle", owners=(0,))  # every prefecture a castle or home base
    g.edit_player(1, banked=100)  # so seat 1 can pay tolls and is not stranded
    g.plan_route(["Saitama"], dice=1)
    assert not g.is_over
    assert g.current_player == 1 and g.phase == "roll"


def test_final_showdown_hides_totals_in_the_last_three_turns():
    g = new_game(HOMES, dice=[1] * 8, turns=10)
    g.edit_turn(0, turn=7)
    assert g.totals_hidden is False  # turn 7 of 10
    _shuttle(g, 1)
    assert g.turn_number() == 7 and g.totals_hidden is False
    seen = []
    for _ in range(6):  # turns 8, 9 and 10 of each player
        _shuttle(g, 1)
        seen.append((g.current_player, g.turn_number(), g.totals_hidden))
    assert seen == [(0, 8, True), (1, 8, True), (0, 9, True), (1, 9, True), (0, 10, True), (1, 10, True)]
    _shuttle(g, 1)
    assert g.is_over
    assert g.totals_hidden is False  # the final standings reveal the totals
    assert [r["score"] for r in g.ranking()] == [g.score(r["seat"])["total"] for r in g.ranking()]


@pytest.mark.parametrize("turns, first_hidden", [(5, 3), (15, 13), (50, 48)])
def test_final_showdown_starts_three_turns_before_the_end(turns, first_hidden):
    g = new_game(HOMES, turns=turns)
    g.edit_turn(0, turn=first_hidden - 1)
    assert g.totals_hidden is False
    g.edit_turn(0, turn=first_hidden)
    assert g.totals_hidden is True
    g.edit_turn(1, turn=turns)
    assert g.totals_hidden is True


@pytest.mark.parametrize("mode", ["conquest", "total_conquest"])
def test_conquest_modes_have_no_final_showdown(mode):
    g = new_game(HOMES, mode=mode)
    for turn in (1, 8, 50, 500):
        g.edit_turn(0, turn=turn)
        assert g.totals_hidden is False


# ---------------------------------------------------------- conquest modes


def test_conquest_ends_the_moment_all_47_prefectures_are_bases_or_higher():
    g = new_game(HOMES, dice=[1], mode="conquest")
    _fill(g, "base", skip=(11,))
    g.edit_prefecture("Saitama", owner=0, level="territory")
    assert not g.is_over
    n = len(g.events)
    g.plan_route(["Saitama"], dice=1)  # territory -> base: the 47th base
    assert g.is_over and g.state.end_reason == "conquest"
    kinds = [e["type"] for e in g.full_events(n)]
    assert kinds[-1] == "game_end"
    assert "turn_end" not in kinds  # the game ends at once, not at the end of the turn
    assert events(g, "game_end")[-1]["reason"] == "conquest"


def test_conquest_counts_prefectures_whoever_owns_them():
    g = new_game(["Tokyo", "Osaka", "Hokkaido"], dice=[1], mode="conquest")
    _fill(g, "castle", skip=(11,), owners=(1, 2))  # seat 0 owns only its home
    g.edit_prefecture("Saitama", owner=0, level="base")
    g.edit_player(0, banked=100)
    g.plan_route(["Saitama"], dice=1)
    assert g.is_over and g.state.end_reason == "conquest"


def test_conquest_ends_when_capturing_enemy_territory_makes_the_last_base():
    # stopping on enemy territory captures it as a base: that completes the conquest
    g = new_game(HOMES, dice=[1], mode="conquest")
    _fill(g, "base", skip=(11,))
    g.edit_prefecture("Saitama", owner=1, level="territory")
    g.plan_route(["Saitama"], dice=1)
    assert g.prefecture_info("Saitama")["level"] == "base"
    assert g.is_over and g.state.end_reason == "conquest"


def test_conquest_does_not_end_while_a_prefecture_is_below_base():
    g = new_game(HOMES, dice=[1], mode="conquest")
    _fill(g, "base", skip=(11,))
    g.plan_route(["Saitama"], dice=1)  # neutral -> territory only
    assert not g.is_over and g.current_player == 1


def test_total_conquest_ends_the_moment_all_are_castles_or_home_bases():
    g = new_game(HOMES, dice=[1], mode="total_conquest")
    _fill(g, "castle", skip=(11,))
    g.edit_prefecture("Saitama", owner=0, level="base")
    assert not g.is_over
    g.plan_route(["Saitama"], dice=1)  # base -> castle: the last one (homes count as castles)
    assert g.is_over and g.state.end_reason == "total_conquest"
    assert events(g, "game_end")[-1]["reason"] == "total_conquest"


def test_total_conquest_does_not_end_when_all_are_only_bases():
    g = new_game(HOMES, dice=[1], mode="total_conquest")
    _fill(g, "base", skip=(11,))
    g.edit_prefecture("Saitama", owner=0, level="territory")
    g.plan_route(["Saitama"], dice=1)  # every prefecture now a base or higher
    assert not g.is_over and g.current_player == 1


def test_conquest_modes_have_no_turn_limit():
    g = new_game(HOMES, dice=[1, 1], mode="conquest")
    g.edit_turn(0, turn=1000)
    _shuttle(g, 2)
    assert not g.is_over and g.turn_number(0) == 1001


# ---------------------------------------------------------------- ranking


def test_highest_score_wins():
    g = new_game(HOMES, dice=[1, 1], turns=5)
    g.edit_turn(0, turn=5)
    g.edit_prefecture("Hyogo", owner=1, level="castle")  # 120 for seat 1
    _shuttle(g, 2)
    # seat 0: Tokyo 150 + Saitama 40; seat 1: Osaka 135 + Hyogo 120 + Kyoto 30
    assert [(r["seat"], r["score"], r["rank"]) for r in g.ranking()] == [(1, 285, 1), (0, 190, 2)]
    assert g.winners() == [1]
    assert events(g, "game_end")[-1]["winners"] == [1]


def test_equal_scores_share_a_rank():
    # Tokyo 150 vs Osaka 135 + 15 banked vs Hokkaido 120
    g = new_game(["Tokyo", "Osaka", "Hokkaido"])
    g.edit_player(1, banked=15)
    ranks = {r["seat"]: r["rank"] for r in g.ranking()}
    assert ranks == {0: 1, 1: 1, 2: 3}
    assert g.winners() == [0, 1]


def test_defeated_player_ranks_last_and_the_highest_remaining_player_wins_decisively():
    # Seat 1 (Osaka 135 + Kyoto castle 90 = 225) is stranded on Hokkaido and loses anyway;
    # seat 0 (Aomori 60 + Iwate 20 = 80) beats seat 2 (Okinawa 75).
    g = new_game(["Aomori", "Osaka", "Okinawa"], dice=[1])
    g.edit_player(1, position="Hokkaido")
    g.edit_prefecture("Kyoto", owner=1, level="castle")
    g.plan_route(["Iwate"], dice=1)
    assert g.is_over and g.state.end_reason == "defeat"
    rows = [(r["seat"], r["score"], r["rank"]) for r in g.ranking()]
    assert rows == [(0, 80, 1), (2, 75, 2), (1, 225, 3)]
    end = events(g, "game_end")[-1]
    assert end["winners"] == [0] and end["decisive"] is True


def test_no_action_is_possible_after_the_game_ends():
    g = new_game(HOMES, dice=[1, 1, 1], turns=5)
    g.edit_turn(0, turn=5)
    _shuttle(g, 2)
    assert g.legal_moves() == []
    with pytest.raises(GameOverError):
        g.push(Roll(1))
    with pytest.raises(GameOverError):
        g.edit_player(0, banked=1)
