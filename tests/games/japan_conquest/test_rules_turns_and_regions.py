"""Scenario tests: start and end of a turn (prosperity, full-control payout, Triple Dice
on turns 11/21/31, defeat check) and regional control (gain, loss, regain, rewards).

Expected numbers are worked out by hand from the rules (docs/rules.md).
Shikoku = Tokushima 10, Kagawa 15, Ehime 20, Kochi 10 (4 prefectures: bonus 120).
"""

from __future__ import annotations

from .conftest import code, events, level, new_game, owner

SHIKOKU = ("Tokushima", "Kagawa", "Ehime")  # with seat 0's home Kochi: all four


# ------------------------------------------------------------ end of a turn


def test_end_of_turn_castle_stores_15_and_home_base_30():
    g = new_game(dice=[1])
    g.edit_prefecture("Chiba", owner=0, level="castle")
    g.edit_prefecture("Kyoto", owner=1, level="castle")  # the opponent's castle stores nothing now
    g.plan_route(["Saitama"], dice=1)
    assert g.prefecture_info("Chiba")["stored"] == 15
    assert g.prefecture_info("Tokyo")["stored"] == 30
    assert g.prefecture_info("Kyoto")["stored"] == 0
    assert g.prefecture_info("Osaka")["stored"] == 0
    assert g.prefecture_info("Saitama")["stored"] == 0  # territory stores nothing
    assert events(g, "prosperity_stored")[-1]["amount"] == 45
    assert g.score(0)["banked"] == 0  # stored, not yet collected


def test_bases_and_territories_store_no_prosperity():
    g = new_game(dice=[1])
    g.edit_prefecture("Chiba", owner=0, level="base")
    g.edit_prefecture("Kanagawa", owner=0, level="territory")
    g.plan_route(["Saitama"], dice=1)
    assert g.prefecture_info("Chiba")["stored"] == 0
    assert g.prefecture_info("Kanagawa")["stored"] == 0


# ---------------------------------------------------------- start of a turn


def test_start_of_turn_collects_stored_prosperity_of_every_owned_castle_and_home():
    g = new_game(dice=[1, 1])
    g.edit_prefecture("Chiba", owner=0, level="castle", stored=15)
    g.plan_route(["Saitama"], dice=1)  # end: Chiba 15 + 15 = 30, Tokyo 30
    assert g.prefecture_info("Chiba")["stored"] == 30
    g.plan_route(["Kyoto"], dice=1)  # seat 1's turn; then seat 0 collects 60
    assert g.current_player == 0
    assert g.score(0)["banked"] == 60
    assert g.prefecture_info("Chiba")["stored"] == 0 and g.prefecture_info("Tokyo")["stored"] == 0
    col = events(g, "prosperity_collected")[-1]
    assert (col["player"], col["amount"], sorted(col["prefs"])) == (0, 60, [12, 13])


def test_prosperity_stored_at_end_of_game_does_not_count():
    g = new_game(dice=[1, 1], turns=5)
    g.edit_turn(0, turn=5)
    g.plan_route(["Saitama"], dice=1)
    g.plan_route(["Kyoto"], dice=1)
    assert g.is_over
    assert g.prefecture_info("Tokyo")["stored"] == 30
    assert g.prefecture_info("Osaka")["stored"] == 30
    assert g.score(0) == {"prefectures": 150 + 40, "regions": 0, "banked": 0, "total": 190}
    assert g.score(1) == {"prefectures": 135 + 30, "regions": 0, "banked": 0, "total": 165}


def test_start_of_turn_effects_in_order_collect_payout_triple_dice():
    # Seat 0 (home Kochi) holds full control of Shikoku; its three castles store 15 each;
    # seat 0's next turn is its 11th: collect 45, full control pays 120, one Triple Dice.
    g = new_game(["Kochi", "Tokyo"], dice=[1], turns=15)
    g.edit_turn(1, turn=10)
    for name in SHIKOKU:
        g.edit_prefecture(name, owner=0, level="castle", stored=15)
    n = len(g.events)
    g.plan_route(["Saitama"], dice=1)  # seat 1's 10th turn
    assert g.current_player == 0 and g.turn_number(0) == 11
    kinds = [e["type"] for e in g.full_events(n)]
    start = kinds.index("turn_start", kinds.index("turn_end"))
    assert kinds[start:] == ["turn_start", "prosperity_collected", "full_control_paid", "item_received"]
    assert g.score(0)["banked"] == 45 + 120
    assert g.items(0) == {"double": 1, "triple": 2}


def test_triple_dice_on_turns_11_21_31():
    g = new_game(["Tokyo", "Osaka"], dice=[1] * 8, turns=50)
    got = {}
    for turn in (10, 20, 30, 40):
        g.edit_turn(1, turn=turn)
        g.edit_player(0, triples=0)
        g.plan_route(["Kyoto" if g.state.players[1].position == code("Osaka") else "Osaka"], dice=1)
        got[turn + 1] = g.items(0)["triple"]
        g.plan_route(["Saitama" if g.state.players[0].position == code("Tokyo") else "Tokyo"], dice=1)
    assert got == {11: 1, 21: 1, 31: 1, 41: 1}
    recv = [(e["player"], e["turn_number"]) for e in events(g, "item_received") if e["reason"] == "turn"]
    # seat 1 reaches its own turns 11, 21, 31 after seat 0 (and gets its Triple Dice too)
    assert recv == [(0, 11), (1, 11), (0, 21), (1, 21), (0, 31), (1, 31), (0, 41), (1, 41)]


def test_no_triple_dice_on_other_turns():
    g = new_game(["Tokyo", "Osaka"], dice=[1] * 6, turns=50)
    for turn in (1, 9, 11, 19):  # seat 0's next turns: 2, 10, 12, 20
        g.edit_turn(1, turn=turn)
        g.edit_player(0, triples=0)
        g.plan_route(["Kyoto" if g.state.players[1].position == code("Osaka") else "Osaka"], dice=1)
        assert g.turn_number(0) == turn + 1
        assert g.items(0)["triple"] == 0, f"Triple Dice given on turn {turn + 1}"


def test_full_control_payout_starts_on_the_next_turn_not_immediately():
    # Kochi home + Tokushima/Ehime castles + Kagawa base; seat 0 stops on Kagawa -> castle:
    # full control of Shikoku now, first time: one Triple Dice, but no payout this turn.
    g = new_game(["Kochi", "Tokyo"], dice=[1, 1, 1])
    g.edit_prefecture("Tokushima", owner=0, level="castle")
    g.edit_prefecture("Ehime", owner=0, level="castle")
    g.edit_prefecture("Kagawa", owner=0, level="base")
    g.edit_player(0, position="Ehime")
    g.plan_route(["Kagawa"], dice=1)
    assert g.region_status()["shikoku"]["full"] is True
    assert [e["type"] for e in events(g) if e.get("region") == "shikoku"][-2:] == ["full_control_gained", "item_received"]
    assert g.items(0) == {"double": 1, "triple": 2}
    assert g.score(0)["banked"] == 0
    assert not events(g, "full_control_paid")
    g.plan_route(["Saitama"], dice=1)  # seat 1
    # next turn: collect Kochi 30 + 3 castles x 15 = 75, and the payout 4 x 30 = 120
    assert g.current_player == 0
    assert g.score(0)["banked"] == 75 + 120
    paid = events(g, "full_control_paid")
    assert [(e["player"], e["region"], e["amount"]) for e in paid] == [(0, "shikoku", 120)]


def test_full_control_pays_at_the_start_of_every_turn_while_held():
    g = new_game(["Kochi", "Tokyo"], dice=[2, 1, 2, 1])
    for name in SHIKOKU:
        g.edit_prefecture(name, owner=0, level="castle")
    g.plan_route(["Tokushima", "Kochi"], dice=1)
    g.plan_route(["Saitama"], dice=1)
    g.plan_route(["Tokushima", "Kochi"], dice=1)
    g.plan_route(["Tokyo"], dice=1)
    assert [e["amount"] for e in events(g, "full_control_paid")] == [120, 120]
    # collected: 2 turns x (30 + 3 x 15) = 150
    assert g.score(0)["banked"] == 240 + 150


def test_home_base_counts_as_a_castle_for_full_regional_control():
    g = new_game(["Kochi", "Tokyo"])
    for name in SHIKOKU:
        g.edit_prefecture(name, owner=0, level="castle")
    assert level(g, "Kochi") == "home"
    assert g.region_status()["shikoku"] == {"controller": 0, "full": True, "bonus": 120}


def test_full_control_needs_every_prefecture_a_castle():
    g = new_game(["Kochi", "Tokyo"])
    g.edit_prefecture("Tokushima", owner=0, level="castle")
    g.edit_prefecture("Kagawa", owner=0, level="castle")
    g.edit_prefecture("Ehime", owner=0, level="base")
    assert g.region_status()["shikoku"] == {"controller": 0, "full": False, "bonus": 120}


def test_full_control_broken_by_losing_a_castle_stops_the_payout():
    # seat 0 holds Shikoku fully; seat 1 captures Ehime (castle) before seat 0's next turn
    g = new_game(["Kochi", "Okayama"], dice=[1, 3, 6, 6, 6, 1])
    for name in SHIKOKU:
        g.edit_prefecture(name, owner=0, level="castle")
    g.plan_route(["Tokushima"], dice=1)  # seat 0 stays on its own castle
    g.edit_player(1, position="Hiroshima", banked=20)
    g.plan_route(["Ehime"], dice=1)  # 2 (castle) + 1 (surcharge) = 3
    g.battle_roll(3)  # 18
    g.battle_roll(1)  # 1 + 4
    assert owner(g, "Ehime") == 1
    assert g.current_player == 0
    assert g.region_status()["shikoku"] == {"controller": None, "full": False, "bonus": 120}
    assert not events(g, "full_control_paid")
    # collected: Kochi 30 + Tokushima 15 + Kagawa 15 (Ehime's 15 went to seat 1) + toll 20 from seat 1
    assert g.score(0)["banked"] == 30 + 15 + 15 + 20
    assert g.score(0)["regions"] == 0


# ---------------------------------------------------------------- regions


def test_regional_control_gained_adds_30_per_prefecture_and_a_double_dice():
    g = new_game(["Kochi", "Tokyo"], dice=[1])
    g.edit_prefecture("Tokushima", owner=0, level="territory")
    g.edit_prefecture("Ehime", owner=0, level="territory")
    g.edit_player(0, position="Ehime")
    before = g.score(0)
    assert before == {"prefectures": 30 + 10 + 20, "regions": 0, "banked": 0, "total": 60}
    g.plan_route(["Kagawa"], dice=1)
    assert g.region_status()["shikoku"]["controller"] == 0
    assert g.score(0) == {"prefectures": 60 + 15, "regions": 120, "banked": 0, "total": 195}
    assert g.items(0) == {"double": 2, "triple": 1}
    gained = events(g, "region_gained")
    assert [(e["player"], e["region"], e["points"]) for e in gained] == [(0, "shikoku", 120)]


def test_hokkaido_tohoku_region_bonus_is_210():
    g = new_game(["Hokkaido", "Tokyo"])
    for name in ("Aomori", "Iwate", "Miyagi", "Akita", "Yamagata", "Fukushima"):
        g.edit_prefecture(name, owner=0, level="territory")
    assert g.score(0)["regions"] == 210
    assert g.region_status()["hokkaido_tohoku"]["bonus"] == 210


def test_regional_control_is_lost_at_once_and_regained_without_a_second_double_dice():
    # seat 0 (home Kochi) completes Shikoku by claiming Kagawa: +120, Double Dice (1 -> 2).
    # seat 1 (home Okayama) passes through Kagawa: neutral, control and bonus lost.
    # seat 0 claims Kagawa again: control and bonus back, no second Double Dice.
    g = new_game(["Kochi", "Okayama"], dice=[1, 3, 2])
    g.edit_prefecture("Tokushima", owner=0, level="territory")
    g.edit_prefecture("Ehime", owner=0, level="territory")
    g.edit_player(0, position="Ehime")
    g.plan_route(["Kagawa"], dice=1)
    assert g.score(0)["regions"] == 120 and g.items(0)["double"] == 2
    g.plan_route(["Kagawa", "Okayama"], dice=1)  # 1 + 1 surcharge, then 1 home
    assert owner(g, "Kagawa") is None
    assert g.region_status()["shikoku"]["controller"] is None
    # seat 0's turn 2 began by collecting Kochi's 30
    assert g.score(0) == {"prefectures": 30 + 10 + 20, "regions": 0, "banked": 30, "total": 90}
    g.plan_route(["Ehime", "Kagawa"], dice=1)
    assert g.region_status()["shikoku"]["controller"] == 0
    assert g.score(0)["regions"] == 120
    assert g.items(0) == {"double": 2, "triple": 1}
    assert [e["type"] for e in events(g) if e.get("region") == "shikoku"] == [
        "region_gained",
        "item_received",
        "region_lost",
        "region_gained",
    ]


def test_double_dice_reward_is_given_once_for_each_region():
    # seat 0 completes Shikoku (+1 Double), then Chugoku (+1 Double): one per region
    g = new_game(["Kochi", "Tokyo"], dice=[1, 1, 2])
    g.edit_prefecture("Tokushima", owner=0, level="territory")
    g.edit_prefecture("Ehime", owner=0, level="territory")
    g.edit_player(0, position="Ehime")
    g.plan_route(["Kagawa"], dice=1)
    g.plan_route(["Saitama"], dice=1)
    for name in ("Tottori", "Shimane", "Okayama", "Yamaguchi"):
        g.edit_prefecture(name, owner=0, level="territory")
    g.plan_route(["Ehime", "Hiroshima"], dice=1)
    assert g.region_status()["chugoku"]["controller"] == 0
    assert g.score(0)["regions"] == 120 + 150
    assert g.items(0) == {"double": 3, "triple": 1}
    rewards = [e["region"] for e in events(g, "item_received") if e["reason"] == "first_region_control"]
    assert rewards == ["shikoku", "chugoku"]


def test_full_control_triple_dice_reward_is_given_only_once_per_region():
    # seat 0 gains Shikoku by play, builds Kagawa up to a castle (full control, +1 Triple),
    # loses Kagawa in battle, recaptures it (full control again, no second Triple).
    g = new_game(
        ["Kochi", "Tokyo"],
        dice=[
            1,  # s0: Ehime -> Kagawa (claim: region control, +1 Double)
            1,  # s1: Tokyo -> Saitama
            2,  # s0: Kagawa -> Ehime -> Kagawa (base)
            1,  # s1: Saitama -> Tokyo
            2,  # s0: Kagawa -> Ehime -> Kagawa (castle: full control, +1 Triple)
            3, 6, 6, 6, 1,  # s1 from Okayama: Kagawa (2 + 1 surcharge), Triple 18 vs 1 + 4
            3, 6, 1,  # s0: Kagawa -> Ehime -> Kagawa (enemy castle, 1 + 2); 6 vs 1 + 2
        ],
    )
    g.edit_prefecture("Tokushima", owner=0, level="castle")
    g.edit_prefecture("Ehime", owner=0, level="castle")
    g.edit_player(0, position="Ehime")
    g.plan_route(["Kagawa"], dice=1)
    g.plan_route(["Saitama"], dice=1)
    g.plan_route(["Ehime", "Kagawa"], dice=1)
    g.plan_route(["Tokyo"], dice=1)
    g.plan_route(["Ehime", "Kagawa"], dice=1)
    assert level(g, "Kagawa") == "castle" and g.region_status()["shikoku"]["full"] is True
    assert g.items(0) == {"double": 2, "triple": 2}
    g.edit_player(1, position="Okayama", banked=20)
    g.plan_route(["Kagawa"], dice=1)
    g.battle_roll(3)
    g.battle_roll(1)
    assert (owner(g, "Kagawa"), level(g, "Kagawa")) == (1, "castle")
    assert g.region_status()["shikoku"]["full"] is False
    g.plan_route(["Ehime", "Kagawa"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)
    assert (owner(g, "Kagawa"), level(g, "Kagawa")) == (0, "castle")
    assert g.region_status()["shikoku"] == {"controller": 0, "full": True, "bonus": 120}
    assert g.items(0) == {"double": 2, "triple": 2}
    reasons = [e["reason"] for e in events(g, "item_received") if e["player"] == 0]
    assert reasons == ["first_region_control", "first_full_control"]
    assert len(events(g, "full_control_gained")) == 2


# ------------------------------------------------------------------ defeat


def test_player_with_no_route_for_any_roll_is_defeated_and_the_game_ends():
    # Seat 1 stands on Hokkaido; its only connection, Aomori, is seat 0's home base
    # (toll 50) and seat 1 has 0 points: no roll, not even with its Double or Triple, helps.
    g = new_game(["Aomori", "Osaka"], dice=[1])
    g.edit_player(1, position="Hokkaido")
    assert g.items(1) == {"double": 1, "triple": 1}
    g.plan_route(["Iwate"], dice=1)
    assert g.is_over
    assert g.state.end_reason == "defeat"
    assert g.state.players[1].defeated is True
    assert [(e["player"], e["pref"]) for e in events(g, "defeated")] == [(1, 1)]
    end = events(g, "game_end")[-1]
    assert end["decisive"] is True and end["winners"] == [0]
    assert g.items(1) == {"double": 1, "triple": 1}  # the check spends nothing


def test_player_with_some_possible_route_is_not_defeated():
    # same position with 50 points: Hokkaido -> Aomori (2, toll 50) -> Iwate (1) works with a 3
    g = new_game(["Aomori", "Osaka"], dice=[1, 3])
    g.edit_player(1, position="Hokkaido", banked=50)
    g.plan_route(["Iwate"], dice=1)
    assert not g.is_over and g.current_player == 1 and g.phase == "roll"
    assert not g.state.players[1].defeated
    g.plan_route(["Aomori", "Akita"], dice=1)
    # seat 0: toll 50 + Aomori's 30 collected at the start of its turn 2
    assert g.score(1)["banked"] == 0 and g.score(0)["banked"] == 50 + 30


def test_defeat_is_checked_after_start_of_turn_income():
    # Seat 1 on Hokkaido with 20 points and a castle holding 30: collecting it first gives 50
    g = new_game(["Aomori", "Osaka"], dice=[1])
    g.edit_player(1, position="Hokkaido", banked=20)
    g.edit_prefecture("Kyoto", owner=1, level="castle", stored=30)
    g.plan_route(["Iwate"], dice=1)
    assert not g.is_over
    assert g.score(1)["banked"] == 50


def test_first_regional_control_won_in_battle_also_earns_a_double_dice():
    # seat 0 holds Kochi (home), Tokushima, Kagawa; Ehime is seat 1's base.
    # Kagawa -> Ehime with a 1; 6 vs 1 + 0: captured as a base, Shikoku now seat 0's.
    g = new_game(["Kochi", "Tokyo"], dice=[1, 6, 1])
    g.edit_prefecture("Tokushima", owner=0, level="territory")
    g.edit_prefecture("Kagawa", owner=0, level="territory")
    g.edit_prefecture("Ehime", owner=1, level="base")
    g.edit_player(0, position="Kagawa")
    g.plan_route(["Ehime"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)
    assert (owner(g, "Ehime"), level(g, "Ehime")) == (0, "base")
    assert g.region_status()["shikoku"]["controller"] == 0
    # Kochi 30 + Tokushima 10 + Kagawa 15 + Ehime base 40; bonus 120; battle bonus 10
    assert g.score(0) == {"prefectures": 95, "regions": 120, "banked": 10, "total": 225}
    assert g.items(0) == {"double": 2, "triple": 1}


def test_castle_downgraded_to_base_breaks_full_control_but_not_regional_control():
    g = new_game(["Kochi", "Tokyo"])
    for name in SHIKOKU:
        g.edit_prefecture(name, owner=0, level="castle")
    assert g.region_status()["shikoku"]["full"] is True
    g.edit_prefecture("Ehime", owner=0, level="base")
    assert g.region_status()["shikoku"] == {"controller": 0, "full": False, "bonus": 120}
    assert g.score(0)["regions"] == 120
    assert events(g)[-2]["type"] == "full_control_lost"


def test_turn_end_event_reports_the_turn_that_ended():
    # seat 0's first turn: every event of it, the turn_end included, belongs to turn 1
    g = new_game(dice=[1])
    g.plan_route(["Saitama"], dice=1)
    mine = [e for e in g.full_events() if e.get("player") == 0 and e["type"] in ("roll", "claimed", "prosperity_stored", "turn_end")]
    assert [(e["type"], e["turn"]) for e in mine] == [
        ("roll", 1),
        ("claimed", 1),
        ("prosperity_stored", 1),
        ("turn_end", 1),
    ]
