"""Scenario tests: movement (dice, connections, route planning, costs, tolls, early
stops, the enemy-home end ban, neutralisation, region breaks, dead ends).

Expected numbers are worked out by hand from the rules (docs/rules.md).
"""

from __future__ import annotations

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.japan_conquest import ConfirmRoute, Roll, Step, UndoStep

from .conftest import code, events, level, new_game, owner

# ------------------------------------------------------------------------ dice


def test_one_die_allowance_is_the_face_rolled():
    g = new_game(dice=[4])
    g.roll(1)
    assert g.allowance == 4 and g.remaining == 4
    assert g.items(0) == {"double": 1, "triple": 1}


def test_double_dice_item_rolls_two_dice_and_is_used_up():
    g = new_game(dice=[3, 4])
    g.roll(2)
    assert g.allowance == 7
    assert g.items(0) == {"double": 0, "triple": 1}
    assert events(g, "item_used")[-1]["item"] == "double"


def test_triple_dice_item_rolls_three_dice_and_is_used_up():
    g = new_game(dice=[6, 5, 4])
    g.roll(3)
    assert g.allowance == 15
    assert g.items(0) == {"double": 1, "triple": 0}


def test_dice_item_cannot_be_used_without_holding_one():
    g = new_game(dice=[2])
    g.edit_player(0, doubles=0)
    assert Roll(2) not in g.legal_moves() and Roll(3) in g.legal_moves()
    with pytest.raises(IllegalActionError):
        g.roll(2)
    assert g.phase == "roll"
    g.roll(1)
    assert g.allowance == 2


# ----------------------------------------------------------------- connections


def test_route_steps_go_to_game_connections_only():
    g = new_game(["Tokyo", "Fukuoka"], dice=[1])
    g.roll(1)
    assert sorted(g.legal_steps()) == [code(n) for n in ("Saitama", "Chiba", "Kanagawa", "Yamanashi")]
    with pytest.raises(IllegalActionError):
        g.step("Gunma")  # not connected to Tokyo
    assert g.route == []


@pytest.mark.parametrize(
    "start, across",
    [
        ("Hokkaido", "Aomori"),
        ("Hyogo", "Tokushima"),
        ("Okayama", "Kagawa"),
        ("Hiroshima", "Ehime"),
        ("Yamaguchi", "Fukuoka"),
        ("Ehime", "Oita"),
    ],
)
def test_special_sea_connections_can_be_crossed(start, across):
    g = new_game(["Tokyo", "Niigata"], dice=[1])
    g.edit_player(0, position=start)
    g.plan_route([across], dice=1)
    assert g.state.players[0].position == code(across)
    assert owner(g, across) == 0


def test_okinawa_connects_directly_to_all_seven_kyushu_prefectures():
    g = new_game(["Tokyo", "Osaka"], dice=[1])
    g.edit_player(0, position="Okinawa")
    g.roll(1)
    kyushu = ("Fukuoka", "Saga", "Nagasaki", "Kumamoto", "Oita", "Miyazaki", "Kagoshima")
    assert sorted(g.legal_steps()) == sorted(code(n) for n in kyushu)


# --------------------------------------------------------- planning the route


def test_undo_step_removes_the_last_prefecture_and_gives_back_its_movement():
    g = new_game(dice=[3])
    g.roll(1)
    g.step("Saitama")
    g.step("Gunma")
    assert g.route == [11, 10] and g.remaining == 1
    g.undo_step()
    assert g.route == [11] and g.remaining == 2
    g.undo_step()
    assert g.route == [] and g.remaining == 3
    assert UndoStep() not in g.legal_moves()
    with pytest.raises(IllegalActionError):
        g.undo_step()


def test_route_must_use_the_whole_allowance():
    g = new_game(dice=[3])
    g.roll(1)
    g.step("Saitama")  # neutral, 2 movement left
    assert not g.can_confirm() and ConfirmRoute() not in g.legal_moves()
    with pytest.raises(IllegalActionError):
        g.confirm_route()
    g.step("Gunma")
    g.step("Nagano")
    assert g.remaining == 0 and g.can_confirm()
    g.confirm_route()
    assert g.state.players[0].position == code("Nagano")
    assert owner(g, "Nagano") == 0 and owner(g, "Saitama") is None and owner(g, "Gunma") is None


@pytest.mark.parametrize("lvl", ["base", "castle"])
def test_route_may_end_early_at_own_base_or_castle(lvl):
    g = new_game(dice=[5])
    g.edit_prefecture("Saitama", owner=0, level=lvl)
    g.roll(1)
    g.step("Saitama")
    assert g.remaining == 4 and g.can_confirm()
    g.confirm_route()
    assert g.state.players[0].position == code("Saitama")
    assert level(g, "Saitama") == "castle"  # base -> castle; castle unchanged
    assert g.current_player == 1


def test_route_may_end_early_at_own_home_base():
    g = new_game(dice=[6])
    g.edit_player(0, position="Saitama")
    g.roll(1)
    g.step("Tokyo")
    assert g.remaining == 5 and g.can_confirm()
    g.confirm_route()
    assert g.state.players[0].position == code("Tokyo") and level(g, "Tokyo") == "home"


def test_route_may_not_end_early_at_own_territory():
    g = new_game(dice=[4])
    g.edit_prefecture("Saitama", owner=0, level="territory")
    g.roll(1)
    g.step("Saitama")
    assert g.remaining == 3 and not g.can_confirm()
    with pytest.raises(IllegalActionError):
        g.confirm_route()


def test_route_must_contain_at_least_one_step():
    # standing at one's own home base does not count as stopping there early
    g = new_game(dice=[3])
    g.roll(1)
    assert not g.can_confirm() and ConfirmRoute() not in g.legal_moves()
    with pytest.raises(IllegalActionError):
        g.confirm_route()
    assert g.phase == "route" and g.current_player == 0


def test_entering_own_home_base_costs_one_movement_passing_or_stopping():
    # 本拠地も通過・停止ともに通常どおり移動力を1使います
    g = new_game(dice=[2, 1, 1])
    g.edit_player(0, position="Saitama")
    g.roll(1)
    g.step("Tokyo")  # pass through own home base
    assert g.remaining == 1
    g.step("Chiba")
    assert g.remaining == 0
    g.confirm_route()
    g.plan_route(["Kyoto"], dice=1)  # seat 1
    g.roll(1)
    g.step("Tokyo")  # stop at own home base with a 1
    assert g.remaining == 0 and g.can_confirm()


def test_revisiting_a_prefecture_within_a_route_is_allowed():
    g = new_game(dice=[4])
    g.roll(1)
    for name in ("Saitama", "Tokyo", "Saitama", "Gunma"):
        g.step(name)
    assert g.remaining == 0
    g.confirm_route()
    assert g.state.players[0].position == code("Gunma") and owner(g, "Gunma") == 0


# ------------------------------------------------------------ costs and tolls


def test_entering_enemy_castle_costs_two_movement():
    g = new_game(dice=[3])
    g.edit_prefecture("Saitama", owner=1, level="castle")
    g.edit_player(0, banked=100)
    g.roll(1)
    g.step("Saitama")
    assert g.remaining == 1


def test_entering_enemy_base_or_territory_costs_one_movement():
    g = new_game(dice=[3])
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.edit_prefecture("Gunma", owner=1, level="territory")
    g.roll(1)
    g.step("Saitama")
    assert g.remaining == 2
    g.step("Gunma")
    assert g.remaining == 1


def test_entering_enemy_home_base_costs_two_movement_and_a_50_point_toll():
    g = new_game(["Tokyo", "Gunma"], dice=[3])
    g.edit_player(0, position="Saitama", banked=70)
    g.roll(1)
    g.step("Gunma")
    assert g.remaining == 1
    g.step("Nagano")
    g.confirm_route()
    assert g.score(0)["banked"] == 20
    assert g.score(1)["banked"] == 50
    toll = events(g, "toll")
    assert [(e["player"], e["to_player"], e["pref"], e["amount"]) for e in toll] == [(0, 1, 10, 50)]


def test_toll_is_paid_on_every_entry_into_enemy_castle():
    # 敵の城へ入るたびに通行料20pt: Tokyo -> Saitama(castle, 2) -> Tokyo(1) -> Saitama(2) -> Gunma(1) = 6
    g = new_game(dice=[6])
    g.edit_prefecture("Saitama", owner=1, level="castle")
    g.edit_player(0, banked=50)
    g.plan_route(["Saitama", "Tokyo", "Saitama", "Gunma"], dice=1)
    assert g.score(0)["banked"] == 10
    assert g.score(1)["banked"] == 40
    assert [e["amount"] for e in events(g, "toll")] == [20, 20]
    assert owner(g, "Saitama") == 1 and level(g, "Saitama") == "castle"  # passing leaves it alone
    assert owner(g, "Gunma") == 0


def test_toll_larger_than_banked_points_makes_the_step_illegal():
    g = new_game(dice=[3])
    g.edit_prefecture("Saitama", owner=1, level="castle")
    g.edit_player(0, banked=19)
    g.roll(1)
    assert code("Saitama") not in g.legal_steps()
    with pytest.raises(IllegalActionError):
        g.step("Saitama")
    assert g.route == [] and g.score(0)["banked"] == 19


def test_each_step_is_judged_on_the_points_left_by_earlier_tolls():
    # 30 banked: the first castle entry (20) is affordable, a second one (another 20) is not
    g = new_game(dice=[5])
    g.edit_prefecture("Saitama", owner=1, level="castle")
    g.edit_player(0, banked=30)
    g.roll(1)
    g.step("Saitama")
    g.step("Tokyo")
    assert g.remaining == 2
    assert code("Saitama") not in g.legal_steps()
    with pytest.raises(IllegalActionError):
        g.step("Saitama")


def test_entering_opponent_controlled_region_from_outside_costs_one_more():
    # Kochi's owner (seat 1) holds all of Shikoku; seat 0 enters from Okayama (Chugoku)
    g = new_game(["Okayama", "Kochi"], dice=[4])
    for name in ("Tokushima", "Kagawa", "Ehime"):
        g.edit_prefecture(name, owner=1, level="base")
    assert g.region_status()["shikoku"]["controller"] == 1
    g.roll(1)
    g.step("Kagawa")  # enemy base 1 + surcharge 1
    assert g.remaining == 2
    g.step("Ehime")  # already inside the region: no surcharge
    assert g.remaining == 1
    g.step("Hiroshima")  # leaving costs 1
    assert g.remaining == 0


def test_entering_enemy_castle_in_opponent_controlled_region_from_outside_costs_three():
    g = new_game(["Okayama", "Kochi"], dice=[3])
    for name in ("Tokushima", "Ehime"):
        g.edit_prefecture(name, owner=1, level="base")
    g.edit_prefecture("Kagawa", owner=1, level="castle")
    g.edit_player(0, banked=20)
    g.roll(1)
    g.step("Kagawa")
    assert g.remaining == 0


def test_no_surcharge_for_own_region_or_region_nobody_controls():
    g = new_game(["Okayama", "Kochi"], dice=[2, 2, 2])
    g.edit_prefecture("Tokushima", owner=1, level="base")  # Ehime, Kagawa neutral: no control
    g.roll(1)
    g.step("Kagawa")
    assert g.remaining == 1
    g.undo_step()
    g.step("Hiroshima")
    g.step("Ehime")
    g.confirm_route()
    # seat 0 now controls nothing in Shikoku; seat 1 moves; then seat 0 holds Chugoku itself
    g.plan_route(["Tokushima", "Kochi"], dice=1)
    for name in ("Tottori", "Shimane", "Hiroshima", "Yamaguchi"):
        g.edit_prefecture(name, owner=0, level="territory")
    assert g.region_status()["chugoku"]["controller"] == 0
    g.roll(1)
    g.step("Hiroshima")  # into own controlled region from outside: 1
    assert g.remaining == 1


# ------------------------------------------------------- enemy home end ban


def test_route_may_not_end_on_enemy_home_base():
    # Saitama -> Gunma (enemy home, 2): with a 2 the route would end there
    g = new_game(["Tokyo", "Gunma"], dice=[2])
    g.edit_player(0, position="Saitama", banked=100)
    g.roll(1)
    assert code("Gunma") not in g.legal_steps()
    with pytest.raises(IllegalActionError):
        g.step("Gunma")
    assert g.score(0)["banked"] == 100


def test_home_bases_cannot_be_captured_by_passing_or_stopping():
    g = new_game(["Tokyo", "Gunma"], dice=[3])
    g.edit_player(0, position="Saitama", banked=100)
    g.plan_route(["Gunma", "Nagano"], dice=1)
    assert owner(g, "Gunma") == 1 and level(g, "Gunma") == "home"


# ---------------------------------------------------------- neutralisation


def test_passing_through_enemy_territory_makes_it_neutral():
    g = new_game(dice=[2])
    g.edit_prefecture("Saitama", owner=1, level="territory")  # 40 points to seat 1
    assert g.score(1)["prefectures"] == 135 + 40
    g.plan_route(["Saitama", "Gunma"], dice=1)
    assert owner(g, "Saitama") is None and level(g, "Saitama") == "neutral"
    assert g.score(1)["prefectures"] == 135
    assert [(e["pref"], e["from_player"]) for e in events(g, "neutralised")] == [(11, 1)]


@pytest.mark.parametrize("lvl", ["base", "castle"])
def test_passing_through_enemy_base_or_castle_leaves_it(lvl):
    g = new_game(dice=[3])
    g.edit_prefecture("Saitama", owner=1, level=lvl)
    g.edit_player(0, banked=20)
    route = ["Saitama", "Gunma"] if lvl == "castle" else ["Saitama", "Gunma", "Nagano"]
    g.plan_route(route, dice=1)
    assert owner(g, "Saitama") == 1 and level(g, "Saitama") == lvl
    assert not events(g, "neutralised")


def test_passing_through_neutral_or_own_prefectures_changes_nothing():
    g = new_game(dice=[3])
    g.edit_prefecture("Saitama", owner=0, level="territory")
    g.plan_route(["Saitama", "Gunma", "Nagano"], dice=1)
    assert owner(g, "Saitama") == 0 and level(g, "Saitama") == "territory"
    assert owner(g, "Gunma") is None
    assert owner(g, "Nagano") == 0


def test_neutralising_territory_breaks_region_control_at_once():
    # Seat 1 holds Shikoku (Kochi home, Tokushima/Ehime bases, Kagawa territory).
    # Okayama -> Kagawa costs 1 + 1 (surcharge) and neutralises Kagawa: control is broken,
    # so Kagawa -> Okayama -> Kagawa costs 1 + 1 with no surcharge: 4 in all.
    g = new_game(["Okayama", "Kochi"], dice=[4])
    g.edit_prefecture("Tokushima", owner=1, level="base")
    g.edit_prefecture("Ehime", owner=1, level="base")
    g.edit_prefecture("Kagawa", owner=1, level="territory")
    assert g.score(1)["regions"] == 120
    g.roll(1)
    g.step("Kagawa")
    assert g.remaining == 2
    g.step("Okayama")
    assert g.remaining == 1
    g.step("Kagawa")
    assert g.remaining == 0
    g.confirm_route()
    assert g.region_status()["shikoku"]["controller"] is None
    assert g.score(1)["regions"] == 0
    assert owner(g, "Kagawa") == 0 and level(g, "Kagawa") == "territory"
    assert [e["region"] for e in events(g, "region_lost")] == ["shikoku"]


def test_region_surcharge_still_applies_on_reentry_when_control_is_not_broken():
    # same as above with Kagawa a base (passing does not neutralise it): 2 + 1 + 2 = 5
    g = new_game(["Okayama", "Kochi"], dice=[4])
    for name in ("Tokushima", "Ehime", "Kagawa"):
        g.edit_prefecture(name, owner=1, level="base")
    g.roll(1)
    g.step("Kagawa")
    g.step("Okayama")
    assert g.remaining == 1
    assert code("Kagawa") not in g.legal_steps()


# ------------------------------------------------ no route / no dead ends


def test_turn_ends_without_moving_when_no_complete_route_exists():
    # Hokkaido's only connection is Aomori, an enemy home base: entering it costs 2
    g = new_game(["Tokyo", "Aomori"], dice=[1])
    g.edit_player(0, position="Hokkaido", banked=50)
    g.roll(1)
    assert g.current_player == 1 and g.phase == "roll"
    assert g.state.players[0].position == code("Hokkaido")
    assert g.score(0)["banked"] == 50
    assert [(e["player"], e["allowance"]) for e in events(g, "no_route")] == [(0, 1)]
    assert g.turn_number(0) == 2
    assert g.prefecture_info("Tokyo")["stored"] == 30  # the turn ended normally


def test_planner_never_offers_a_step_into_a_dead_end():
    # From Iwate with a 2, Aomori (enemy home, cost 2) would leave the route ending on it.
    g = new_game(["Tokyo", "Aomori"], dice=[2])
    g.edit_player(0, position="Iwate", banked=100)
    g.roll(1)
    assert sorted(g.legal_steps()) == [code("Miyagi"), code("Akita")]
    assert Step(code("Aomori")) not in g.legal_moves()
    with pytest.raises(IllegalActionError):
        g.step("Aomori")


def test_planner_offers_the_enemy_home_base_when_the_route_can_continue():
    g = new_game(["Tokyo", "Aomori"], dice=[3])
    g.edit_player(0, position="Iwate", banked=100)
    g.roll(1)
    assert code("Aomori") in g.legal_steps()
    g.step("Aomori")
    assert g.remaining == 1
    assert sorted(g.legal_steps()) == [code("Hokkaido"), code("Iwate"), code("Akita")]


def test_planner_excludes_steps_that_can_only_end_in_a_dead_end_later():
    # Hokkaido is a dead end for a 3 from Iwate: Iwate -> Aomori(enemy home, 2) -> Hokkaido (1)
    # is fine; but with a 4, entering Hokkaido would leave 1 movement and the only way on is
    # back into Aomori (cost 2): so after Aomori, Hokkaido is not offered with 2 left.
    g = new_game(["Tokyo", "Aomori"], dice=[4])
    g.edit_player(0, position="Iwate", banked=100)
    g.roll(1)
    g.step("Aomori")
    assert g.remaining == 2
    assert code("Hokkaido") not in g.legal_steps()
    assert sorted(g.legal_steps()) == [code("Iwate"), code("Akita")]


def test_enemy_territory_passed_earlier_in_the_route_is_neutral_when_stopped_on():
    # Saitama (seat 1's territory) is passed first (neutralised), then the route ends on it:
    # it is neutral by then, so stopping claims it as territory (not a captured base).
    g = new_game(dice=[3])
    g.edit_prefecture("Saitama", owner=1, level="territory")
    g.plan_route(["Saitama", "Tokyo", "Saitama"], dice=1)
    assert (owner(g, "Saitama"), level(g, "Saitama")) == (0, "territory")
    assert [e["pref"] for e in events(g, "neutralised")] == [11]
    assert [e["pref"] for e in events(g, "claimed")] == [11]
    assert not events(g, "captured")


def test_leaving_the_enemy_territory_you_start_on_does_not_neutralise_it():
    """Rule M24 (docs/rules.md): "Passing through enemy territory makes it neutral" /
    「敵の領地を通過すると、その県は中立に戻ります」 — a route starting on an enemy territory
    leaves it without passing through it: it stays the owner's; entering it again later in
    the route is passing through, and neutralises it."""
    g = new_game(dice=[1])
    g.edit_prefecture("Saitama", owner=1, level="territory")
    g.edit_player(0, position="Saitama")  # e.g. B neutralised it after A stopped there, then C claimed it
    g.plan_route(["Gunma"], dice=1)
    assert owner(g, "Saitama") == 1 and level(g, "Saitama") == "territory"
    assert not events(g, "neutralised")
    # the same start, a route that comes back through Saitama: that entry neutralises it
    h = new_game(dice=[3])
    h.edit_prefecture("Saitama", owner=1, level="territory")
    h.edit_player(0, position="Saitama")
    h.plan_route(["Gunma", "Saitama", "Tokyo"], dice=1)
    assert owner(h, "Saitama") is None and [e["pref"] for e in events(h, "neutralised")] == [code("Saitama")]
