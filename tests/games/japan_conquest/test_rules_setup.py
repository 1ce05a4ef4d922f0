"""Scenario tests: setup, turn order, levels and score, and the position editor's rules.

Each test is named after the rule it checks (docs/rules.md maps rules to tests).
Expected numbers are worked out by hand from the rules; base values come from the
board data (Tokyo 50, Osaka 45, Saitama 40, Chiba 40, Kanagawa 45, Kochi 10, ...).
"""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError, SetupError
from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    PlayerSetup,
    ScriptedDice,
)

from .conftest import code, events, level, new_game, owner

# --------------------------------------------------------------------------- setup


def test_each_player_starts_at_home_prefecture_owned_as_home_base():
    g = new_game(["Tokyo", "Osaka", "Hokkaido"])
    for seat, home in enumerate(["Tokyo", "Osaka", "Hokkaido"]):
        assert g.state.players[seat].position == code(home)
        assert owner(g, home) == seat
        assert level(g, home) == "home"
    # nothing else is owned
    assert sum(1 for c in range(1, 48) if owner(g, c) is not None) == 3


def test_home_prefectures_must_be_distinct():
    with pytest.raises(SetupError):
        GameSetup.quick(["Tokyo", "Tokyo"])


@pytest.mark.parametrize(
    "homes",
    [
        ("Tokyo", "Kanagawa"),  # land border
        ("Hokkaido", "Aomori"),  # sea connection
        ("Hyogo", "Tokushima"),  # sea connection
        ("Okinawa", "Nagasaki"),  # Okinawa's special connections
    ],
)
def test_home_prefectures_must_not_be_adjacent(homes):
    with pytest.raises(SetupError):
        GameSetup.quick(list(homes))


def test_non_adjacent_distinct_homes_are_accepted():
    s = GameSetup.quick(["Hokkaido", "Tokyo", "Osaka", "Okinawa"])
    assert [p.home for p in s.players] == [1, 13, 27, 47]


@pytest.mark.parametrize("n", [1, 5])
def test_game_has_two_to_four_players(n):
    homes = ["Hokkaido", "Tokyo", "Osaka", "Okinawa", "Kochi"][:n]
    with pytest.raises(SetupError):
        GameSetup.quick(homes)


@pytest.mark.parametrize("turns", [5, 10, 15, 30, 50])
def test_standard_game_lasts_5_10_15_30_or_50_turns(turns):
    assert GameSetup.quick(["Tokyo", "Osaka"], turns=turns).turns == turns


@pytest.mark.parametrize("turns", [0, 3, 20, 100, None])
def test_standard_game_rejects_other_lengths(turns):
    with pytest.raises(SetupError):
        GameSetup.quick(["Tokyo", "Osaka"], turns=turns)


@pytest.mark.parametrize("mode", ["conquest", "total_conquest"])
def test_conquest_modes_have_no_turn_limit(mode):
    assert GameSetup.quick(["Tokyo", "Osaka"], mode=mode, turns=10).turns is None


def test_cpu_settings_default_to_normal_balanced_and_are_kept_while_human():
    p = PlayerSetup(name="A", home=13)
    assert (p.cpu, p.difficulty, p.strategy) == (False, "normal", "balanced")
    human = PlayerSetup(name="B", home=27, cpu=False, difficulty="hard", strategy="aggressive")
    s = GameSetup(players=(p, human))
    assert (s.players[1].cpu, s.players[1].difficulty, s.players[1].strategy) == (False, "hard", "aggressive")
    with pytest.raises(SetupError):
        GameSetup(players=(p, PlayerSetup(name="C", home=27, difficulty="insane")))
    with pytest.raises(SetupError):
        GameSetup(players=(p, PlayerSetup(name="C", home=27, strategy="cowardly")))


def test_everyone_starts_with_zero_banked_one_double_and_one_triple():
    g = new_game(["Tokyo", "Osaka", "Hokkaido", "Okinawa"])
    for seat in range(4):
        assert g.score(seat)["banked"] == 0
        assert g.items(seat) == {"double": 1, "triple": 1}


# ------------------------------------------------------------------- turn order


def test_turn_order_is_seat_order_without_roll_for_order():
    g = new_game(["Tokyo", "Osaka", "Hokkaido"], dice=[1, 1])
    assert g.state.order == [0, 1, 2]
    assert g.current_player == 0
    g.plan_route(["Saitama"], dice=1)
    assert g.current_player == 1
    g.plan_route(["Kyoto"], dice=1)
    assert g.current_player == 2


def test_roll_for_order_higher_roll_goes_first():
    # seat 0 rolls 2, seat 1 rolls 6, seat 2 rolls 4 -> order 1, 2, 0
    g = new_game(["Tokyo", "Osaka", "Hokkaido"], dice=[2, 6, 4], roll_for_order=True)
    assert g.state.order == [1, 2, 0]
    assert g.current_player == 1
    assert g.script.rolled == 3


def test_roll_for_order_only_tied_players_roll_again():
    # first rolls: 3, 5, 3, 2 -> seat 1 first, seat 3 last, seats 0 and 2 tied;
    # only seats 0 and 2 re-roll: 2, 4 -> seat 2 before seat 0.
    g = new_game(["Hokkaido", "Tokyo", "Osaka", "Okinawa"], dice=[3, 5, 3, 2, 2, 4], roll_for_order=True)
    assert g.state.order == [1, 2, 0, 3]
    assert g.script.rolled == 6
    rolls = [e["rolls"] for e in events(g, "order_roll")]
    assert rolls == [{"0": 3, "1": 5, "2": 3, "3": 2}, {"0": 2, "2": 4}]


def test_roll_for_order_repeats_until_order_is_strict():
    # all three tie twice (4,4,4 then 2,2,2), then 1, 5, 3 -> seats 1, 2, 0
    g = new_game(["Tokyo", "Osaka", "Hokkaido"], dice=[4, 4, 4, 2, 2, 2, 1, 5, 3], roll_for_order=True)
    assert g.state.order == [1, 2, 0]
    assert g.script.rolled == 9


def test_roll_for_order_nested_ties_are_resolved_within_their_group():
    # 6,6,1,1: seats 0/1 tie high, 2/3 tie low; high group re-rolls 2,5 -> 1,0;
    # low group re-rolls 3,3 (tie again) then 6,1 -> 2,3.
    g = new_game(["Hokkaido", "Tokyo", "Osaka", "Okinawa"], dice=[6, 6, 1, 1, 2, 5, 3, 3, 6, 1], roll_for_order=True)
    assert g.state.order == [1, 0, 2, 3]
    assert g.script.rolled == 10


def test_scoreboard_order_is_the_turn_order_fixed_at_the_start():
    g = new_game(["Tokyo", "Osaka"], dice=[2, 5, 1, 1], roll_for_order=True)
    assert g.state.order == [1, 0]
    g.edit_player(0, banked=1000)  # seat 0 far ahead on points
    g.plan_route(["Kyoto"], dice=1)
    g.plan_route(["Saitama"], dice=1)
    assert g.state.order == [1, 0]
    assert g.current_player == 1


# ------------------------------------------------------------- levels and score


def test_level_value_is_base_value_times_1_2_3_3():
    g = new_game(["Tokyo", "Osaka"])
    g.edit_prefecture("Saitama", owner=0, level="territory")  # base value 40
    g.edit_prefecture("Chiba", owner=0, level="base")  # 40
    g.edit_prefecture("Kanagawa", owner=0, level="castle")  # 45
    assert g.prefecture_info("Saitama")["points"] == 40
    assert g.prefecture_info("Chiba")["points"] == 80
    assert g.prefecture_info("Kanagawa")["points"] == 135
    assert g.prefecture_info("Tokyo")["points"] == 150  # home base 50 x 3
    assert g.prefecture_info("Gunma")["points"] == 0  # neutral


def test_score_is_level_values_plus_region_bonus_plus_banked():
    g = new_game(["Tokyo", "Osaka"])
    g.edit_prefecture("Saitama", owner=0, level="territory")
    g.edit_prefecture("Chiba", owner=0, level="base")
    g.edit_prefecture("Kanagawa", owner=0, level="castle")
    g.edit_player(0, banked=25)
    assert g.score(0) == {"prefectures": 150 + 40 + 80 + 135, "regions": 0, "banked": 25, "total": 430}
    # complete Kanto (Ibaraki 35, Tochigi 25, Gunma 30 as territory): +90 prefs, +7x30 region bonus
    for name in ("Ibaraki", "Tochigi", "Gunma"):
        g.edit_prefecture(name, owner=0, level="territory")
    assert g.score(0) == {"prefectures": 495, "regions": 210, "banked": 25, "total": 730}
    assert g.score(1) == {"prefectures": 135, "regions": 0, "banked": 0, "total": 135}


# ------------------------------------------------------------ the position editor


def test_editor_cannot_edit_a_home_base():
    g = new_game(["Tokyo", "Osaka"])
    for kwargs in ({"owner": 1}, {"owner": None}, {"owner": 0, "level": "castle"}, {"owner": 0, "stored": 45}):
        with pytest.raises(IllegalActionError):
            g.edit_prefecture("Tokyo", **kwargs)
    assert (owner(g, "Tokyo"), level(g, "Tokyo"), g.prefecture_info("Tokyo")["stored"]) == (0, "home", 0)


def test_editor_cannot_create_a_home_base():
    g = new_game(["Tokyo", "Osaka"])
    with pytest.raises(IllegalActionError):
        g.edit_prefecture("Hokkaido", owner=0, level="home")
    assert owner(g, "Hokkaido") is None


def test_editor_works_only_in_the_roll_phase():
    g = new_game(["Tokyo", "Osaka"], dice=[3])
    g.roll(1)
    assert g.phase == "route"
    with pytest.raises(IllegalActionError):
        g.edit_prefecture("Saitama", owner=0)
    with pytest.raises(IllegalActionError):
        g.edit_player(0, banked=100)
    with pytest.raises(IllegalActionError):
        g.edit_turn(1)
    assert owner(g, "Saitama") is None and g.score(0)["banked"] == 0


def test_editor_does_not_grant_first_control_item_rewards():
    g = new_game(["Kochi", "Tokyo"])
    for name in ("Tokushima", "Kagawa", "Ehime"):
        g.edit_prefecture(name, owner=0, level="castle")
    # seat 0 now holds Shikoku with full control (home base Kochi counts as a castle)
    assert g.region_status()["shikoku"]["controller"] == 0
    assert g.region_status()["shikoku"]["full"] is True
    assert g.score(0)["regions"] == 120
    assert g.items(0) == {"double": 1, "triple": 1}
    assert not events(g, "item_received")


def test_editor_made_control_counts_as_had_so_regaining_it_in_play_earns_no_double():
    g = new_game(["Kochi", "Tokyo"], [1])
    for name in ("Tokushima", "Kagawa", "Ehime"):
        g.edit_prefecture(name, owner=0, level="territory")
    g.edit_prefecture("Ehime", owner=None)  # control lost again by an edit
    assert g.region_status()["shikoku"]["controller"] is None
    n = len(g.events)
    g.plan_route(["Ehime"], dice=1)  # Kochi -> Ehime: claimed, Shikoku controlled again in play
    assert g.region_status()["shikoku"]["controller"] == 0
    assert [e["region"] for e in events(g, "region_gained", n)] == ["shikoku"]
    assert not events(g, "item_received", n) and g.items(0)["double"] == 1


def test_edit_turn_applies_no_start_of_turn_effects():
    g = new_game(["Kochi", "Tokyo"], turns=15)
    for name in ("Tokushima", "Kagawa", "Ehime"):
        g.edit_prefecture(name, owner=0, level="castle", stored=15)
    n = len(g.events)
    g.edit_turn(0, turn=11)  # turn 11 would bring a Triple Dice; castles hold 45 and full control pays 120
    assert g.turn_number(0) == 11
    assert g.items(0) == {"double": 1, "triple": 1}
    assert g.score(0)["banked"] == 0
    assert sum(g.prefecture_info(c)["stored"] for c in ("Tokushima", "Kagawa", "Ehime")) == 45
    assert [e["type"] for e in g.full_events(n)] == ["edited"]


def test_edit_turn_sets_whose_turn_and_turn_number():
    g = new_game(["Tokyo", "Osaka", "Hokkaido"], turns=10)
    g.edit_turn(1, turn=4)
    assert g.current_player == 1
    assert [g.turn_number(s) for s in range(3)] == [5, 4, 4]  # seat 0 already played turn 4


def test_game_setup_round_trip_with_explicit_players():
    s = GameSetup(
        players=(PlayerSetup("Ann", "Tokyo", cpu=True, difficulty="easy", strategy="aggressive"), PlayerSetup("Ben", "大阪")),
        mode="conquest",
    )
    g = JapanMatch(s, dice=ScriptedDice([]))
    assert g.state.players[1].position == 27
    assert GameSetup.from_dict(s.to_dict()) == s
