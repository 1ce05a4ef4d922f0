"""The app driven like a user: buttons pressed, map clicked, screens followed."""

import json

from ipywidgets.widgets.widget import _instances

from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup, ScriptedDice
from conquest_widget.games.japan_conquest.widget.style import HIGHLIGHT, ROUTE

from .conftest import click_map


def start_from_setup_screen(app, *, players=2, cpu=(False, True), homes=(13, 27)):
    app.start_screen.new_button.click()
    assert app.controller.screen == "setup"
    s = app.setup_screen
    s.count.value = players
    for row, is_cpu, home in zip(s.rows, cpu, homes, strict=False):
        row.kind.value = is_cpu
        row.home.value = home
    s.start_button.click()


def test_setup_to_first_move_with_undo(app):
    c = app.controller
    start_from_setup_screen(app)
    assert c.screen == "game" and c.phase == "roll"
    assert app.side.children == (app.game_screen,)
    app.turn_panel.roll_button.click()
    assert c.phase == "route" and 1 <= c.allowance <= 6
    faces, total = app.turn_panel.faces.value.split(" = ")  # the dice rolled, as the page shows them
    assert len(faces) == 1 and int(total) == c.allowance
    legal = list(c.legal_steps)
    assert legal and set(legal) <= {11, 12, 14, 19}  # Tokyo's neighbours
    for code in legal:  # highlighted on the map
        assert app.map_view.style_of(code)["color"] == HIGHLIGHT
    first = legal[0]
    click_map(app, first)
    assert c.route == [first] and c.remaining == c.allowance - 1
    assert app.map_view.style_of(first)["color"] in (ROUTE, HIGHLIGHT)
    assert "1." in app.turn_panel.route_info.value
    app.turn_panel.undo_button.click()
    assert c.route == [] and c.remaining == c.allowance
    while not c.can_confirm:
        click_map(app, c.legal_steps[0])
    end = c.route[-1]
    app.turn_panel.confirm_button.click()
    # the human's stop took effect, and the CPU (no event loop here) played its whole turn
    stops = [e for e in c._match.full_events() if e["type"] in ("claimed", "upgraded", "stayed") and e["player"] == 0]
    assert stops and stops[0]["pref"] == end
    assert c.phase == "roll" and c.current_player == 0 and c._match.turn_number() == 2
    for code in range(1, 48):  # the map shows exactly what the engine holds
        owner = c._match.prefecture_info(code)["owner"]
        expected = c._match.setup.players[owner].colour if owner is not None else "#efe9da"
        assert app.map_view.style_of(code)["fill_color"] == expected
    lines = app.log_view.lines()
    assert any("Player 2 rolled" in x for x in lines) and any("Player 1 moved" in x for x in lines)


def test_clicking_an_unreachable_prefecture_explains_why(app):
    c = app.controller
    c.new_game(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([1]))
    app.turn_panel.roll_button.click()
    click_map(app, 47)  # Okinawa: far away
    assert c.route == []
    assert "Okinawa is not connected" in c.message
    assert "not connected" in app.turn_panel.msg.value
    # a castle next door costs 2: with 1 movement left it is refused with the numbers
    c.new_game(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([1]))
    c._match.edit_prefecture("Saitama", owner=1, level="castle")
    c._match.edit_player(0, banked=100)
    c.load_game(c._match)
    app.turn_panel.roll_button.click()
    click_map(app, 11)
    assert c.message == "Entering Saitama costs 2, only 1 left"
    c.lang = "ja"
    click_map(app, 11)
    assert c.message == "埼玉県へは移動力2が必要ですが、残りは1です"


def test_battle_with_a_human_defender_hot_seat(app):
    c = app.controller
    setup = GameSetup(players=(PlayerSetup("Aki", 13), PlayerSetup("Ben", 27)), turns=10)
    # movement 2 (entering an enemy castle costs 2); attacker rolls 6; defender 3 + castle 2 = 5
    c.new_game(setup, dice=ScriptedDice([2, 6, 3]))
    c._match.edit_prefecture("Saitama", owner=1, level="castle")
    c._match.edit_player(0, banked=100)
    c.load_game(c._match)
    app.turn_panel.roll_button.click()
    click_map(app, 11)
    app.turn_panel.confirm_button.click()
    assert c.phase == "battle_attack"
    panel = app.battle_panel
    assert panel.shown and "Battle for Saitama" in panel.text.value
    assert "Aki attacks" in panel.text.value
    panel.buttons[0].click()  # one die
    assert c.phase == "battle_defend" and c.actor == 1
    assert "Ben defends against 6 (+2 defence)" in panel.text.value
    assert panel.buttons[2].shown  # Ben holds a Triple and may use it
    panel.buttons[0].click()
    assert c.phase == "roll" and c.current_player == 1
    assert c._match.prefecture_info("Saitama") == {
        "code": 11, "owner": 0, "level": "castle", "points": 120, "base_value": 40, "stored": 15,
    }  # captured castle stays a castle; it stored 15 at the end of Aki's turn
    assert any("Aki wins Saitama! Battle bonus +10" in x for x in app.log_view.lines())
    assert app.map_view.style_of(11)["fill_color"] == "#d62728"


def test_cpu_only_game_runs_to_the_end_and_results_offer_a_rematch(app):
    c = app.controller
    setup = GameSetup(players=(PlayerSetup("A", 13, cpu=True), PlayerSetup("B", 27, cpu=True, strategy="aggressive")), turns=5, seed=2)
    c.new_game(setup)
    assert c._match.is_over and c.screen == "results"
    assert app.side.children[0].children[0] is app.results_screen
    table = app.results_screen.table.value
    assert "Final standings" in table and "Winner:" in table
    first = c._match
    app.results_screen.again_button.click()
    assert c._match is not first and c._match.setup == first.setup and c._match.is_over


def test_info_panel_and_scoreboard(app):
    c = app.controller
    c.new_game(GameSetup.quick(["Tokyo", "Osaka"]))
    click_map(app, 13)  # not planning: a click shows the prefecture's info
    info = app.info_panel.value
    assert "Tokyo" in info and "Owner: Player 1" in info and "Level: Home base" in info and "Points: 150" in info
    rows = app.scoreboard.rows()
    assert [r["seat"] for r in rows] == [0, 1]  # fixed turn order
    assert [r["current"] for r in rows] == [True, False]
    assert [r["score"] for r in rows] == ["150", "135"]  # home bases: Tokyo 50 x 3, Osaka 45 x 3


def test_final_showdown_hides_totals(app):
    c = app.controller
    c.new_game(GameSetup.quick(["Tokyo", "Osaka"], turns=5))
    c._match.edit_turn(0, turn=3)
    c.load_game(c._match)
    assert "Final Showdown" in app.scoreboard.value
    assert [r["score"] for r in app.scoreboard.rows()] == ["???", "???"] and "150" not in app.scoreboard.value


def test_language_switch_changes_every_text(app):
    c = app.controller
    start_from_setup_screen(app)
    app.language.value = "ja"
    assert c.lang == "ja"
    assert app.turn_panel.roll_button.description == "ダイスを振る"
    assert "全国制覇すごろく" in app.title.value
    assert "ターン目" in app.turn_panel.title.value
    assert all(not any(ch.isascii() and ch.isalpha() for ch in line.replace("Player", "")) for line in app.log_view.lines()[:3])
    assert app.setup_screen.rows[0].home.label == "東京都"
    assert "総得点" in app.scoreboard.value
    app.language.value = "en"
    assert app.turn_panel.roll_button.description == "Roll"


def test_invalid_setup_is_explained_not_crashed(app):
    c = app.controller
    app.start_screen.new_button.click()
    s = app.setup_screen
    s.count.value = 2
    s.rows[0].home.value = 13
    s.rows[1].home.value = 11  # Saitama borders Tokyo
    s.start_button.click()
    assert c.screen == "setup" and not c.has_game
    assert "next to each other" in s.error.value and "Saitama" in s.error.value  # the player's words (issue 16)
    s.rows[1].home.value = 13
    s.start_button.click()
    assert "the same home, Tokyo" in s.error.value
    s.seed.value = "abc"
    s.rows[1].home.value = 27
    s.start_button.click()
    assert "seed" in s.error.value and not c.has_game


def test_map_click_picks_a_home_during_setup(app):
    app.start_screen.new_button.click()
    s = app.setup_screen
    s.selected_seat.value = 1
    click_map(app, 46)
    assert s.rows[1].home.value == 46
    assert app.map_view.style_of(46)["fill_color"] == s.rows[1].colour.value


def test_cpu_settings_are_kept_while_human(app):
    app.start_screen.new_button.click()
    row = app.setup_screen.rows[1]
    row.difficulty.value = "hard"
    row.strategy.value = "defensive"
    row.kind.value = False
    row.kind.value = True
    assert (row.difficulty.value, row.strategy.value) == ("hard", "defensive")
    app.language.value = "ja"
    assert (row.difficulty.value, row.strategy.value, row.difficulty.label) == ("hard", "defensive", "強い")


def test_a_move_sends_a_small_fraction_of_the_first_render(app, sent):
    c = app.controller
    setup = GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=10)
    c.new_game(setup, dice=ScriptedDice([3]))
    first_render = sum(len(json.dumps(w.get_state(), default=str)) for w in _instances.values())
    sent.reset()
    app.turn_panel.roll_button.click()
    while not c.can_confirm:
        click_map(app, c.legal_steps[0])
    planning = sent.total
    sent.reset()
    app.turn_panel.confirm_button.click()
    confirm_map, confirm_total = sent.map_bytes(), sent.total
    assert first_render > 300_000  # the geometry goes once
    assert confirm_map < 1500, sent.by_class
    assert confirm_total < 5000, sent.by_class
    assert planning + confirm_total < first_render / 40


def _human_moved_cpu_next(speed):
    """A human-vs-CPU controller right after the human's one-step move (inside an event loop)."""
    from conquest_widget.games.japan_conquest.widget.controller import GameController

    c = GameController(cpu_speed=speed)
    setup = GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1)
    c.new_game(setup, dice=ScriptedDice([1], then_seed=5))
    c.roll()
    c.click_prefecture(c.legal_steps[0])
    c.confirm_route()
    return c


def test_cpu_turns_play_as_asyncio_tasks_and_keep_the_loop_free():
    import asyncio

    async def main():
        c = _human_moved_cpu_next("fast")
        assert c.cpu_busy and c.current_player == 1  # scheduled, not played inside the click
        ticks = 0
        while c.cpu_busy:
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks > 3  # the event loop kept running between CPU steps
        assert c.current_player == 0 and c.phase == "roll" and c._match.turn_number() == 2
        c.roll()  # the clicks during a CPU turn are refused politely, afterwards they work
        assert c.phase == "route"

    asyncio.run(main())


def test_clicks_during_a_cpu_turn_are_refused_with_a_message():
    import asyncio

    async def main():
        c = _human_moved_cpu_next("normal")
        before = c._match.state.snapshot()
        c.roll()
        assert c.message == "Wait for your turn"
        assert c._match.state.snapshot() == before
        await c.wait_cpu()

    asyncio.run(main())


def test_hover_shows_the_name_in_the_current_language(app):
    m = app.map_view
    assert m.hover.layout.display == "none"  # nothing hovered yet: no empty box
    m.polygons[3]._handle_mouse_events(None, {"type": "mouseover", "coordinates": [39.6, 141.3]}, [])
    assert "Iwate" in m.hover.value and m.hover.layout.display == ""
    app.language.value = "ja"
    assert "岩手県" in m.hover.value


def test_a_turn_brings_the_players_position_into_view_and_roll_does_not_move_the_map(app):
    c = app.controller
    app.map_view.map.zoom = 5
    c.new_game(GameSetup.quick(["Fukuoka", "Osaka"]), dice=ScriptedDice([2]))
    lat, lon = app.map_view.map.center  # a new game opens on both homes (issue 16)
    assert 33.5 < lat < 34.7 and 130.6 < lon < 135.5 and app.map_view.map.zoom >= 6
    app.map_view.map.center, app.map_view.map.zoom = [36.0, 138.0], 6  # the player looks elsewhere
    app.turn_panel.roll_button.click()
    assert list(app.map_view.map.center) == [36.0, 138.0]  # issue 16: nothing moves under the pointer


def test_homes_are_previewed_only_on_the_setup_screen(app):
    colours = {p.fill_color for p in app.map_view.polygons.values()}
    assert colours == {"#efe9da"}  # start screen: a plain map
    app.start_screen.new_button.click()
    assert app.map_view.style_of(13)["fill_color"] == app.setup_screen.rows[0].colour.value
    app.setup_screen.back_button.click()
    assert app.map_view.style_of(13)["fill_color"] == "#efe9da"


def test_map_labels_follow_owner_and_level(app):
    c = app.controller
    m = app.map_view
    m.map.zoom = 6  # below it the smallest prefectures' values are left out (issue 16: no overlap)
    assert "50" in m.label_of(13)  # start screen: every base value shown
    c.new_game(GameSetup.quick(["Tokyo", "Osaka"]))
    assert m.label_of(13) == '<div class="cw-label">🏠</div>'  # own home: icon, no value
    assert "45" not in m.label_of(27) and "🏠" in m.label_of(27)
    c._match.edit_prefecture("Saitama", owner=0, level="castle")
    c.load_game(c._match)
    assert m.label_of(11) == '<div class="cw-label">🏯</div>'
    assert m.label_of(12) == m.label_of(40) or "40" in m.label_of(12)  # Chiba and Fukuoka: the same value
