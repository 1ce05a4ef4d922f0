"""Scenario tests: what stopping does, and battles (order of rolls, defence bonuses,
ties, captures, bonuses, stored prosperity of a captured castle).

Expected numbers are worked out by hand from the rules (docs/rules.md).
Base values used: Tokyo 50, Osaka 45, Saitama 40, Okayama 25, Ehime 20, Kochi 10.
"""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.japan_conquest import BattleRoll

from .conftest import events, level, new_game, owner

# --------------------------------------------------------------------- stopping


def test_stopping_on_neutral_prefecture_claims_it_as_territory():
    g = new_game(dice=[1])
    g.plan_route(["Saitama"], dice=1)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (0, "territory")
    assert g.score(0)["prefectures"] == 150 + 40
    assert [(e["pref"], e["points"]) for e in events(g, "claimed")] == [(11, 40)]


def test_stopping_on_own_territory_upgrades_it_to_base():
    g = new_game(dice=[1])
    g.edit_prefecture("Saitama", owner=0, level="territory")
    g.plan_route(["Saitama"], dice=1)
    assert level(g, "Saitama") == "base"
    assert g.score(0)["prefectures"] == 150 + 80
    up = events(g, "upgraded")
    assert [(e["frm"], e["level"], e["points"]) for e in up] == [("territory", "base", 40)]


def test_stopping_on_own_base_upgrades_it_to_castle():
    g = new_game(dice=[1])
    g.edit_prefecture("Saitama", owner=0, level="base")
    g.plan_route(["Saitama"], dice=1)
    assert level(g, "Saitama") == "castle"
    assert g.score(0)["prefectures"] == 150 + 120


def test_stopping_on_own_castle_leaves_it_unchanged():
    g = new_game(dice=[1])
    g.edit_prefecture("Saitama", owner=0, level="castle")
    g.plan_route(["Saitama"], dice=1)
    assert level(g, "Saitama") == "castle"
    assert g.score(0)["prefectures"] == 150 + 120
    assert not events(g, "upgraded")


def test_stopping_on_own_home_base_leaves_it_unchanged():
    g = new_game(dice=[2])
    g.plan_route(["Saitama", "Tokyo"], dice=1)
    assert level(g, "Tokyo") == "home"
    assert g.score(0)["prefectures"] == 150
    assert owner(g, "Saitama") is None  # passed through, not claimed


def test_stopping_on_enemy_territory_captures_it_as_own_base():
    g = new_game(dice=[1])
    g.edit_prefecture("Saitama", owner=1, level="territory")
    g.plan_route(["Saitama"], dice=1)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (0, "base")
    assert g.score(0)["prefectures"] == 150 + 80
    assert g.score(1)["prefectures"] == 135
    assert g.phase == "roll" and g.current_player == 1  # no battle
    assert not events(g, "battle_start")


@pytest.mark.parametrize("lvl", ["base", "castle"])
def test_stopping_on_enemy_base_or_castle_starts_a_battle(lvl):
    g = new_game(dice=[2])
    g.edit_prefecture("Saitama", owner=1, level=lvl)
    g.edit_player(0, banked=20)
    # a 2: straight into the castle (cost 2), or Chiba then the base (1 + 1)
    g.plan_route(["Saitama"] if lvl == "castle" else ["Chiba", "Saitama"], dice=1)
    assert g.phase == "battle_attack" and g.actor == 0
    b = events(g, "battle_start")[-1]
    assert (b["player"], b["defender"], b["pref"], b["level"]) == (0, 1, 11, lvl)


def test_battle_happens_only_when_the_last_movement_ends_on_the_enemy_base():
    g = new_game(dice=[3])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.roll(1)
    g.step("Saitama")
    assert g.remaining == 2 and not g.can_confirm()  # no early stop on an enemy base


def test_toll_is_paid_when_stopping_at_enemy_castle():
    g = new_game(dice=[2])
    g.edit_prefecture("Saitama", owner=1, level="castle")
    g.edit_player(0, banked=20)
    g.plan_route(["Saitama"], dice=1)
    assert g.score(0)["banked"] == 0 and g.score(1)["banked"] == 20


# ----------------------------------------------------------------------- battle


def test_attacker_rolls_first_then_defender_chooses_after_seeing_the_roll():
    g = new_game(dice=[1, 5, 3, 3])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.plan_route(["Saitama"], dice=1)
    assert g.phase == "battle_attack" and g.actor == 0 and g.current_player == 0
    assert set(g.legal_moves()) == {BattleRoll(1), BattleRoll(2), BattleRoll(3)}
    g.battle_roll(1)
    assert g.phase == "battle_defend" and g.actor == 1
    seen = events(g, "battle_roll")[-1]
    assert (seen["side"], seen["faces"], seen["total"]) == ("attacker", [5], 5)
    g.battle_roll(2)  # the defender answers a 5 with a Double Dice: 3 + 3 = 6
    assert g.items(1) == {"double": 0, "triple": 1}
    res = events(g, "battle_result")[-1]
    assert (res["attack"], res["defence"], res["winner"]) == (5, 6, 1)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (1, "base")


def test_defender_cannot_use_an_item_they_do_not_hold():
    g = new_game(dice=[1, 5, 2])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.edit_player(1, doubles=0, triples=0)
    g.plan_route(["Saitama"], dice=1)
    g.battle_roll(1)
    assert g.legal_moves() == [BattleRoll(1)]
    with pytest.raises(IllegalActionError):
        g.battle_roll(2)
    assert g.phase == "battle_defend"


def test_base_outside_controlled_region_has_no_defence_bonus():
    g = new_game(dice=[1, 4, 3])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.plan_route(["Saitama"], dice=1)
    assert events(g, "battle_start")[-1]["bonus"] == 0
    g.battle_roll(1)
    g.battle_roll(1)
    # 4 > 3 + 0: the attacker wins
    assert owner(g, "Saitama") == 0


def test_castle_gives_plus_two_defence_and_captured_castle_stays_castle():
    # attack 6 vs 3 + 2 = 5: captured at its level; toll 20 paid on the way in; +10 battle bonus
    g = new_game(dice=[2, 6, 3])
    g.edit_prefecture("Saitama", owner=1, level="castle")
    g.edit_player(0, banked=20)
    g.plan_route(["Saitama"], dice=1)
    start = events(g, "battle_start")[-1]
    assert start["bonus"] == 2 and start["bonus_parts"] == {"castle": 2, "region": 0, "full_region": 0}
    g.battle_roll(1)
    g.battle_roll(1)
    res = events(g, "battle_result")[-1]
    assert (res["attack"], res["defence"], res["winner"]) == (6, 5, 0)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (0, "castle")
    assert g.score(0) == {"prefectures": 150 + 120, "regions": 0, "banked": 20 - 20 + 10, "total": 280}
    assert g.score(1) == {"prefectures": 135, "regions": 0, "banked": 20, "total": 155}


def test_captured_base_stays_base_and_attacker_gains_ten():
    g = new_game(dice=[1, 6, 1])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.plan_route(["Saitama"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (0, "base")
    assert g.score(0) == {"prefectures": 150 + 80, "regions": 0, "banked": 10, "total": 240}
    assert g.score(1)["prefectures"] == 135 and g.score(1)["banked"] == 0


def test_tie_goes_to_the_defender():
    # attack 5 vs 3 + castle 2 = 5: defender wins, keeps the castle, gains 10
    g = new_game(dice=[2, 5, 3])
    g.edit_prefecture("Saitama", owner=1, level="castle")
    g.edit_player(0, banked=20)
    g.plan_route(["Saitama"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)
    res = events(g, "battle_result")[-1]
    assert (res["attack"], res["defence"], res["winner"], res["attacker_won"]) == (5, 5, 1, False)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (1, "castle")
    assert g.score(1)["banked"] == 20 + 10
    assert g.score(0)["banked"] == 0


def test_attacker_wins_only_with_a_strictly_greater_total():
    g = new_game(dice=[1, 4, 4, 1])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.plan_route(["Saitama"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)  # 4 vs 4: defender
    assert owner(g, "Saitama") == 1
    assert g.score(1)["banked"] == 10 and g.score(0)["banked"] == 0


def test_successful_defence_keeps_level_and_gives_defender_ten():
    g = new_game(dice=[1, 1, 6])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.plan_route(["Saitama"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (1, "base")
    assert g.score(1) == {"prefectures": 135 + 80, "regions": 0, "banked": 10, "total": 225}
    assert g.phase == "roll" and g.current_player == 1


def test_regional_control_gives_plus_one_defence():
    # Seat 1 holds Shikoku with bases; Hiroshima -> Ehime costs 1 + 1 (region surcharge).
    # attack 4 vs 3 + 1 = 4: the defender wins the tie thanks to the region bonus.
    g = new_game(["Okayama", "Kochi"], dice=[2, 4, 3])
    for name in ("Tokushima", "Kagawa", "Ehime"):
        g.edit_prefecture(name, owner=1, level="base")
    g.edit_player(0, position="Hiroshima")
    g.plan_route(["Ehime"], dice=1)
    start = events(g, "battle_start")[-1]
    assert start["bonus_parts"] == {"castle": 0, "region": 1, "full_region": 0}
    g.battle_roll(1)
    g.battle_roll(1)
    assert owner(g, "Ehime") == 1
    assert events(g, "battle_result")[-1]["defence"] == 4


def test_full_regional_control_castle_defence_bonus_is_four_at_most():
    # Seat 1 holds Shikoku with castles (Kochi home counts): castle 2 + region 1 + full 1 = 4.
    # Hiroshima -> Ehime: 2 (castle) + 1 (surcharge) = 3, toll 20.  Triple 6+6+6 = 18 vs 6 + 4 = 10.
    g = new_game(["Okayama", "Kochi"], dice=[3, 6, 6, 6, 6])
    for name in ("Tokushima", "Kagawa", "Ehime"):
        g.edit_prefecture(name, owner=1, level="castle")
    assert g.region_status()["shikoku"] == {"controller": 1, "full": True, "bonus": 120}
    g.edit_player(0, position="Hiroshima", banked=20)
    g.plan_route(["Ehime"], dice=1)
    start = events(g, "battle_start")[-1]
    assert start["bonus"] == 4
    assert start["bonus_parts"] == {"castle": 2, "region": 1, "full_region": 1}
    g.battle_roll(3)
    g.battle_roll(1)
    res = events(g, "battle_result")[-1]
    assert (res["attack"], res["defence"], res["winner"]) == (18, 10, 0)
    assert (owner(g, "Ehime"), level(g, "Ehime")) == (0, "castle")
    assert g.items(0) == {"double": 1, "triple": 0}
    # capturing a castle breaks the defender's regional and full regional control at once
    assert g.region_status()["shikoku"]["controller"] is None
    assert g.region_status()["shikoku"]["full"] is False
    assert g.score(1)["regions"] == 0
    assert {e["type"] for e in events(g) if e.get("region") == "shikoku"} >= {"region_lost", "full_control_lost"}
    # Okayama home 75 + Ehime castle 60; 20 - 20 toll + 10 bonus
    assert g.score(0) == {"prefectures": 135, "regions": 0, "banked": 10, "total": 145}


def test_stored_prosperity_goes_with_a_captured_castle():
    # Ehime (seat 1's castle) holds 45.  Seat 0 captures it: the store stays on Ehime, gets
    # +15 at the end of seat 0's turn, and seat 0 collects 60 + Tokyo's 30 next turn.
    g = new_game(["Tokyo", "Kochi"], dice=[2, 6, 1, 1])
    g.edit_prefecture("Ehime", owner=1, level="castle", stored=45)
    g.edit_player(0, position="Hiroshima", banked=20)
    g.plan_route(["Ehime"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)  # 6 vs 1 + 2
    assert owner(g, "Ehime") == 0
    assert g.prefecture_info("Ehime")["stored"] == 45 + 15
    assert g.prefecture_info("Tokyo")["stored"] == 30
    assert g.current_player == 1
    assert g.score(1)["banked"] == 20  # the toll only; seat 1 collected nothing from Ehime
    g.plan_route(["Tokushima"], dice=1)
    assert g.current_player == 0
    assert g.score(0)["banked"] == 10 + 60 + 30
    assert g.prefecture_info("Ehime")["stored"] == 0
    assert events(g, "prosperity_collected")[-1]["amount"] == 90
