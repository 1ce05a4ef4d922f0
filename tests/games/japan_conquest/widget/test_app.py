"""The app driven like a user: buttons pressed, map clicked, screens followed."""

import json

from ipywidgets.widgets.widget import _instances

from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup, ScriptedDice
from conquest_widget.games.japan_conquest.widget.style import HIGHLIGHT, ROUTE

from .conftest import button, click_map, find, play


def start_from_setup_screen(app, *, players=2, cpu=(False, True), homes=(13, 27)):
    button(app, "cw-new-game").click()
    assert app.screen == "setup"
    s = app.form
    s.count.value = players
    for row, is_cpu, home in zip(s.rows, cpu, homes, strict=False):
        row.kind.value = is_cpu
        row.home.value = home
    s.start_button.click()
    return app.board.inner if app.board is not None else None


def test_setup_to_first_move_with_undo(app):
    c = start_from_setup_screen(app)
    assert app.screen == "play" and c.screen == "game" and c.phase == "roll"
    assert app.board in app.body.children
    turn_panel, m = app.board.turn_panel, app.stage.map_view
    turn_panel.roll_button.click()
    assert c.phase == "route" and 1 <= c.allowance <= 6
    faces, total = turn_panel.faces.value.split(" = ")  # the dice rolled, as the page shows them
    assert len(faces) == 1 and int(total) == c.allowance
    legal = list(c.legal_steps)
    assert legal and set(legal) <= {11, 12, 14, 19}  # Tokyo's neighbours
    for code in legal:  # highlighted on the map
        assert m.style_of(code)["color"] == HIGHLIGHT
    first = legal[0]
    click_map(app, first)
    assert c.route == [first] and c.remaining == c.allowance - 1
    assert m.style_of(first)["color"] in (ROUTE, HIGHLIGHT)
    assert "1." in turn_panel.route_info.value
    turn_panel.undo_button.click()
    assert c.route == [] and c.remaining == c.allowance
    while not c.can_confirm:
        click_map(app, c.legal_steps[0])
    end = c.route[-1]
    turn_panel.confirm_button.click()
    # the human's stop took effect, and the CPU (no event loop here) played its whole turn
    match = app.controller._match
    stops = [e for e in match.full_events() if e["type"] in ("claimed", "upgraded", "stayed") and e["player"] == 0]
    assert stops and stops[0]["pref"] == end
    assert c.phase == "roll" and c.current_player == 0 and match.turn_number() == 2
    for code in range(1, 48):  # the map shows exactly what the engine holds
        owner = match.prefecture_info(code)["owner"]
        expected = match.setup.players[owner].colour if owner is not None else "#efe9da"
        assert m.style_of(code)["fill_color"] == expected
    lines = app.log_view.lines()
    assert any("Player 2 rolled" in x for x in lines) and any("Player 1 moved" in x for x in lines)


def test_clicking_an_unreachable_prefecture_explains_why(app):
    c = play(app, GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([1]))
    app.board.turn_panel.roll_button.click()
    click_map(app, 47)  # Okinawa: far away
    assert c.route == []
    assert "Okinawa is not connected" in c.message
    assert "not connected" in app.board.turn_panel.msg.value
    # a castle next door costs 2: with 1 movement left it is refused with the numbers
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([1]))
    m.edit_prefecture("Saitama", owner=1, level="castle")
    m.edit_player(0, banked=100)
    c = play(app, m)
    app.board.turn_panel.roll_button.click()
    click_map(app, 11)
    assert c.message == "Entering Saitama costs 2, only 1 left"
    app.set_lang("ja")
    click_map(app, 11)
    assert c.message == "埼玉県へは移動力2が必要ですが、残りは1です"


def test_battle_with_a_human_defender_hot_seat(app):
    setup = GameSetup(players=(PlayerSetup("Aki", 13), PlayerSetup("Ben", 27)), turns=10)
    # movement 2 (entering an enemy castle costs 2); attacker rolls 6; defender 3 + castle 2 = 5
    m = JapanMatch(setup, dice=ScriptedDice([2, 6, 3]))
    m.edit_prefecture("Saitama", owner=1, level="castle")
    m.edit_player(0, banked=100)
    c = play(app, m)
    app.board.turn_panel.roll_button.click()
    click_map(app, 11)
    app.board.turn_panel.confirm_button.click()
    assert c.phase == "battle_attack"
    panel = app.board.battle_panel
    assert panel.shown and "Battle for Saitama" in panel.text.value
    assert "Aki attacks" in panel.text.value
    panel.buttons[0].click()  # one die
    assert c.phase == "battle_defend" and c.actor == 1
    assert "Ben defends against 6 (+2 defence)" in panel.text.value
    assert panel.buttons[2].shown  # Ben holds a Triple and may use it
    panel.buttons[0].click()
    assert c.phase == "roll" and c.current_player == 1
    assert app.controller._match.prefecture_info("Saitama") == {
        "code": 11, "owner": 0, "level": "castle", "points": 120, "base_value": 40, "stored": 15,
    }  # captured castle stays a castle; it stored 15 at the end of Aki's turn
    assert any("Aki wins Saitama! Battle bonus +10" in x for x in app.log_view.lines())
    assert app.stage.map_view.style_of(11)["fill_color"] == "#d62728"


def test_cpu_only_game_runs_to_the_end_and_results_offer_a_rematch(app):
    setup = GameSetup(players=(PlayerSetup("A", 13, cpu=True), PlayerSetup("B", 27, cpu=True, strategy="aggressive")), turns=5, seed=2)
    play(app, setup)
    first = app.controller._match
    assert first.is_over and app.screen == "results"
    (results,) = find(app, "cw-results")
    assert "cw-standings" in results.value and "wins!" in results.value
    button(app, "cw-play-again").click()
    again = app.controller._match
    assert again is not first and again.setup.players == first.setup.players and again.is_over
    assert app.screen == "results"


def test_info_panel_and_scoreboard(app):
    play(app, GameSetup.quick(["Tokyo", "Osaka"]))
    click_map(app, 13)  # not planning: a click shows the prefecture's info
    info = app.board.info_panel.value
    assert "Tokyo" in info and "Owner: Player 1" in info and "Level: Home base" in info and "Points: 150" in info
    rows = app.board.scoreboard.rows()
    assert [r["seat"] for r in rows] == [0, 1]  # fixed turn order
    assert [r["current"] for r in rows] == [True, False]
    assert [r["score"] for r in rows] == ["150", "135"]  # home bases: Tokyo 50 x 3, Osaka 45 x 3


def test_final_showdown_hides_totals(app):
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], turns=5))
    m.edit_turn(0, turn=3)
    play(app, m)
    scoreboard = app.board.scoreboard
    assert "Final Showdown" in scoreboard.value
    assert [r["score"] for r in scoreboard.rows()] == ["???", "???"] and "150" not in scoreboard.value


def test_language_switch_changes_every_text(app):
    c = start_from_setup_screen(app)
    app.set_lang("ja")
    assert c.lang == "ja"
    assert app.board.turn_panel.roll_button.description == "ダイスを振る"
    assert "全国制覇すごろく" in app.title.value
    assert "ターン目" in app.board.turn_panel.title.value
    assert all(not any(ch.isascii() and ch.isalpha() for ch in line.replace("Player", "")) for line in app.log_view.lines()[:3])
    assert "総得点" in app.board.scoreboard.value
    app.set_lang("en")
    assert app.board.turn_panel.roll_button.description == "Roll"
    app.set_lang("ja")
    button(app, "cw-exit").click()
    button(app, "cw-new-game").click()
    assert app.form.rows[0].home.label == "東京都"


def test_invalid_setup_is_explained_not_crashed(app):
    button(app, "cw-new-game").click()
    s = app.form
    s.count.value = 2
    s.rows[0].home.value = 13
    s.rows[1].home.value = 11  # Saitama borders Tokyo
    s.start_button.click()
    assert app.screen == "setup" and app.controller is None
    assert "next to each other" in s.error.value and "Saitama" in s.error.value  # the player's words (issue 16)
    s.rows[1].home.value = 13
    s.start_button.click()
    assert "the same home, Tokyo" in s.error.value
    s.seed.value = "abc"
    s.rows[1].home.value = 27
    s.start_button.click()
    assert "seed" in s.error.value and app.controller is None


def test_map_click_picks_a_home_during_setup(app):
    button(app, "cw-new-game").click()
    s = app.form
    s.selected_seat.value = 1
    click_map(app, 46)
    assert s.rows[1].home.value == 46
    assert app.stage.map_view.style_of(46)["fill_color"] == s.rows[1].colour.value


def test_cpu_settings_are_kept_while_human(app):
    button(app, "cw-new-game").click()
    row = app.form.rows[1]
    row.difficulty.value = "hard"
    row.strategy.value = "defensive"
    row.kind.value = False
    row.kind.value = True
    assert (row.difficulty.value, row.strategy.value) == ("hard", "defensive")
    app.set_lang("ja")
    assert (row.difficulty.value, row.strategy.value, row.difficulty.label) == ("hard", "defensive", "強い")


def test_a_move_sends_a_small_fraction_of_the_first_render(tmp_path, sent):
    from conquest_widget import JapanConquestApp

    before = set(_instances)  # (widgets another test left open are not this app's render)
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    setup = GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=10)
    c = play(app, setup, dice=ScriptedDice([3]))
    first_render = sum(len(json.dumps(w.get_state(), default=str)) for k, w in list(_instances.items()) if k not in before)
    sent.reset()
    app.board.turn_panel.roll_button.click()
    while not c.can_confirm:
        click_map(app, c.legal_steps[0])
    planning = sent.total
    sent.reset()
    app.board.turn_panel.confirm_button.click()
    confirm_map, confirm_total = sent.map_bytes(), sent.total
    # the geometry goes once (counted over this app's widgets alone: each test's app is closed)
    assert first_render > 100_000
    assert confirm_map < 1500, sent.by_class
    assert confirm_total < 5000, sent.by_class
    assert planning + confirm_total < first_render / 40
    app.close()


def _human_moved_cpu_next(app, speed):
    """The app's human-vs-CPU game right after the human's one-step move (inside an event loop)."""
    setup = GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1)
    c = play(app, setup, dice=ScriptedDice([1], then_seed=5), speed=speed)
    c.roll()
    c.click_prefecture(c.legal_steps[0])
    c.confirm_route()
    return c


def test_cpu_turns_play_as_asyncio_tasks_and_keep_the_loop_free(app):
    import asyncio

    async def main():
        c = _human_moved_cpu_next(app, "fast")
        assert app.controller.cpu_running and c.current_player == 1  # scheduled, not played inside the click
        ticks = 0
        while app.controller.cpu_running:
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks > 3  # the event loop kept running between CPU steps
        assert c.current_player == 0 and c.phase == "roll" and app.controller._match.turn_number() == 2
        c.roll()  # the clicks during a CPU turn are refused politely, afterwards they work
        assert c.phase == "route"

    asyncio.run(main())


def test_clicks_during_a_cpu_turn_are_refused_with_a_message(app):
    import asyncio

    async def main():
        c = _human_moved_cpu_next(app, "normal")
        before = app.controller._match.state.snapshot()
        c.roll()
        assert c.message == "Wait for your turn"
        assert app.controller._match.state.snapshot() == before
        app.controller.stop_cpus()

    asyncio.run(main())


def test_hover_shows_the_name_in_the_current_language(app):
    m = app.stage.map_view
    assert m.hover.layout.display == "none"  # nothing hovered yet: no empty box
    m.polygons[3]._handle_mouse_events(None, {"type": "mouseover", "coordinates": [39.6, 141.3]}, [])
    assert "Iwate" in m.hover.value and m.hover.layout.display == ""
    app.set_lang("ja")
    assert "岩手県" in m.hover.value


def test_a_turn_brings_the_players_position_into_view_and_roll_does_not_move_the_map(app):
    m = app.stage.map_view
    m.map.zoom = 5
    play(app, GameSetup.quick(["Fukuoka", "Osaka"]), dice=ScriptedDice([2]))
    lat, lon = m.map.center  # a new game opens on both homes (issue 16)
    assert 33.5 < lat < 34.7 and 130.6 < lon < 135.5 and m.map.zoom >= 6
    m.map.center, m.map.zoom = [36.0, 138.0], 6  # the player looks elsewhere
    app.board.turn_panel.roll_button.click()
    assert list(m.map.center) == [36.0, 138.0]  # issue 16: nothing moves under the pointer


def test_homes_are_previewed_only_on_the_setup_screen(app):
    m = app.stage.map_view
    colours = {p.fill_color for p in m.polygons.values()}
    assert colours == {"#efe9da"}  # start screen: a plain map
    button(app, "cw-new-game").click()
    assert m.style_of(13)["fill_color"] == app.form.rows[0].colour.value
    app.form.back_button.click()
    assert app.screen == "start" and m.style_of(13)["fill_color"] == "#efe9da"


def test_map_labels_follow_owner_and_level(app):
    m = app.stage.map_view
    m.map.zoom = 6  # below it the smallest prefectures' values are left out (issue 16: no overlap)
    assert "50" in m.label_of(13)  # start screen: every base value shown
    play(app, GameSetup.quick(["Tokyo", "Osaka"]))
    assert m.label_of(13) == '<div class="cw-label">🏠</div>'  # own home: icon, no value
    assert "45" not in m.label_of(27) and "🏠" in m.label_of(27)
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]))
    g.edit_prefecture("Saitama", owner=0, level="castle")
    play(app, g)
    assert m.label_of(11) == '<div class="cw-label">🏯</div>'
    assert m.label_of(12) == m.label_of(40) or "40" in m.label_of(12)  # Chiba and Fukuoka: the same value
