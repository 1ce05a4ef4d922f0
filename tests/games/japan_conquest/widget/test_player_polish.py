"""Issue 16 (Japan Conquest as players meet it): widget-level tests, each written to fail
before its fix; on the shell's app (issue 29)."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest
from page_runner import run_form

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup, ScriptedDice

from .conftest import button, click_map, find, play, play_to_the_end


async def until(test, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def _human_then_cpu(app: JapanConquestApp, speed: str = "normal"):
    """Me (human) against Bot (CPU): Me's first turn played; the CPU's turn is next."""
    setup = GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1)
    c = play(app, setup, speed=speed)
    c.roll()
    while not c.can_confirm:
        c.click_prefecture(c.legal_steps[0])
    c.confirm_route()
    return c


def save_to(app, slot: int) -> None:
    button(app, "cw-save").click()
    (pick,) = find(app, "cw-save-slot")
    pick.value = slot
    button(app, "cw-save-confirm").click()


# ---------------------------------------------------------------- item 2: the freeze
def test_save_and_exit_during_a_cpu_turn_then_resume_the_cpu_finishes_its_turn(tmp_path):
    async def main():
        app = JapanConquestApp(save_dir=tmp_path / "saves")
        c = _human_then_cpu(app, "normal")
        assert app.controller.cpu_running and c.current_player == 1  # "CPU Bot is playing..."
        save_to(app, 1)
        assert "Saved to slot 1" in app.message.value
        button(app, "cw-exit").click()
        assert app.screen == "start"
        button(app, "cw-load-1").click()  # at once, while the old CPU loop still sleeps
        assert app.screen == "play"
        await until(lambda: c.current_player == 0 and c.phase == "roll")
        await app.controller.wait_cpus()
        assert not app.controller.cpu_busy
        app.close()

    asyncio.run(main())


def test_leaving_the_game_screen_stops_the_cpu(tmp_path):
    async def main():
        app = JapanConquestApp(save_dir=tmp_path / "saves")
        c = _human_then_cpu(app, "normal")
        controller, match = app.controller, app.controller._match
        events = len(match.events)
        button(app, "cw-exit").click()
        assert app.screen == "start" and not controller.cpu_running and not controller.cpu_busy
        await asyncio.sleep(1.2)
        assert len(match.events) == events  # nothing played behind the start screen
        button(app, "cw-resume").click()
        await until(lambda: c.current_player == 0)
        assert c.current_player == 0 and c.phase == "roll"
        await app.controller.wait_cpus()
        app.close()

    asyncio.run(main())


# ---------------------------------------------------------------- item 8: double-clicks
@pytest.fixture
def app():
    """No save folder: these games play with scripted dice, which saves refuse."""
    a = JapanConquestApp(save_dir=None)
    yield a
    a.close()


def _human_pair(app: JapanConquestApp, roll: int = 3):
    return play(app, GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("You", 27)), turns=5, seed=1),
                dice=ScriptedDice([roll], then_seed=5))


def test_a_double_click_on_roll_rolls_once_and_says_nothing(app):
    c = _human_pair(app)
    app.board.turn_panel.roll_button.click()
    app.board.turn_panel.roll_button.click()  # the second click of a double-click
    assert c.phase == "route" and [e["type"] for e in app.controller._match.full_events()].count("roll") == 1
    assert c.message == "" and "phase" not in app.board.turn_panel.msg.value and app.message.value == ""


def test_a_double_click_on_a_prefecture_adds_one_step_silently(app):
    c = _human_pair(app)
    c.roll()
    step = c.legal_steps[0]
    click_map(app, step)
    click_map(app, step)  # the second click of a double-click, on where the route now ends
    assert c.route == [step]
    assert c.message == "" and app.board.turn_panel.msg.value == "" and app.message.value == ""
    assert app.stage.map_view.map.double_click_zoom is False  # and the map does not zoom


def test_stale_clicks_of_other_phases_are_silent_and_change_nothing(app):
    c = _human_pair(app)
    before = app.controller._match.state.snapshot()
    for press in (c.confirm_route, c.undo_step, c.battle_roll):
        press()
        assert c.message == "" and app.message.value == ""
    assert app.controller._match.state.snapshot() == before


def test_no_developer_words_reach_players(app):
    """A route that cannot end yet is explained in the player's language, not the engine's."""
    c = _human_pair(app, roll=6)
    c.roll()
    c.click_prefecture(c.legal_steps[0])
    for lang in ("en", "ja"):
        app.set_lang(lang)
        c.confirm_route()
        assert c.message and "end early only at your own base" not in c.message
        assert "end early only at your own base" not in app.message.value
        assert c.route  # nothing changed
    assert "移動力" in c.message


# ---------------------------------------------------------------- item 7: setup errors
def _setup(app: JapanConquestApp, lang: str = "en"):
    app.set_lang(lang)
    button(app, "cw-new-game").click()
    s = app.form
    s.count.value = 2
    return s


def _refused(app, s) -> str:
    """Press Start: nothing starts; the problem the form shows."""
    s.start_button.click()
    assert app.screen == "setup" and app.controller is None
    return s.problem


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_shared_homes_are_explained_in_the_players_language(app, lang):
    s = _setup(app, lang)
    s.rows[1].home.value = s.rows[0].home.value  # both Tokyo
    err = _refused(app, s)
    assert "SetupError" not in err and "malformed" not in err and "distinct" not in err
    assert ("Tokyo" in err) if lang == "en" else ("東京都" in err)
    assert "cw-msg" in s.error.value


def test_neighbouring_homes_and_equal_names_are_explained(app):
    s = _setup(app)
    s.rows[1].home.value = 11  # Saitama, next to Tokyo
    err = _refused(app, s)
    assert "Saitama" in err and "next to" in err
    s.rows[1].home.value = 27
    s.rows[1].name.value = s.rows[0].name.value
    assert "are called Player 1" in _refused(app, s)


def test_a_seed_error_goes_when_the_field_is_changed(app):
    s = _setup(app, "ja")
    s.seed.value = "abc"
    assert "シード" in _refused(app, s)
    s.seed.value = ""
    assert s.problem == "" and s.error.value == ""


def test_cpu_settings_are_labelled_and_hidden_for_human_seats(app, tmp_path):
    """In the page (the form's module run in Node.js): a CPU seat's difficulty and strategy
    are labelled, a human seat shows none, and a seat made a CPU shows them; in 日本語 the
    labels are Japanese."""
    s = _setup(app)
    human, cpu = s.rows[0], s.rows[1]
    assert human.kind.value is False and cpu.kind.value is True
    labels = [{"cls": f"cw-seat-{i}", "tag": "label", "nth": n} for i in (0, 1) for n in (0, 1)]
    steps = [{"press": {"cls": "cw-seat-0", "tag": "button", "nth": 1}},  # seat 1: CPU
             {"kernel": {"desc": {**s.desc, "t": {**s.desc["t"], "difficulty": "強さ"}}}}]
    shown, sent = run_form(s, {"desc": s.desc, "values": s.values, "problem": ""}, labels, steps, tmp_path)
    assert [(x["text"], x["visible"]) for x in shown[0]] == [
        ("Difficulty", False), ("Strategy", False), ("Difficulty", True), ("Strategy", True)]
    assert all(x["visible"] for x in shown[1]) and sent[0]["save"]["seats"][0]["cpu"] is True
    assert shown[2][0]["text"] == "強さ"
    app.set_lang("ja")
    assert s.desc["t"]["difficulty"] == "強さ" and cpu.difficulty.label == "普通"


# ---------------------------------------------------------------- item 9: names
def test_the_name_field_keeps_at_most_24_characters(app):
    s = _setup(app)
    s.rows[0].name.value = "A" * 120
    assert s.rows[0].name.value == "A" * 24
    s.start_button.click()
    assert app.screen == "play" and app.controller._match.setup.players[0].name == "A" * 24


def test_long_names_are_ellipsized_in_the_scoreboard(app):
    play(app, GameSetup(players=(PlayerSetup("W" * 24, 13), PlayerSetup("Bot", 27)), turns=5, seed=1))
    assert app.board.scoreboard.rows()[0]["name"] == "W" * 24  # in the cell that ellipsizes (.cw-name)
    from pathlib import Path

    from conquest_widget.games.japan_conquest.widget import panels
    css = (Path(panels.__file__).parent / "panels.css").read_text()
    assert ".cw-name" in css and "text-overflow: ellipsis" in css
    assert 'const who = el("span", "cw-name", name)' in (Path(panels.__file__).parent / "panels.js").read_text()


def test_pawns_are_told_apart_by_initials_and_seat_number(app):
    from conquest_widget.games.japan_conquest.widget.style import pawn_label

    assert pawn_label("CPU Bob", 1) != pawn_label("CPU Carol", 2)
    assert pawn_label("CPU Bob", 1) == "B2" and pawn_label("Player 1", 0) == "P1"
    play(app, GameSetup(players=(PlayerSetup("CPU Bob", 13), PlayerSetup("CPU Carol", 27)), turns=5, seed=1))
    htmls = [m.icon.html for m in app.stage.map_view.pawns]
    assert ">B1<" in htmls[0] and ">C2<" in htmls[1]


# ---------------------------------------------------------------- item 10: saves and results
def _finished_cpu_games(app: JapanConquestApp, seeds=(3, 4)) -> None:
    for seed in seeds:
        play(app, GameSetup(players=(PlayerSetup("Ann", 13, cpu=True), PlayerSetup(f"Bot{seed}", 27, cpu=True)),
                            turns=5, seed=seed))
        assert app.screen == "results"


def _to_start(app: JapanConquestApp) -> None:
    """From the results: New game, then the form's Back."""
    button(app, "cw-new-game").click()
    app.form.back_button.click()
    assert app.screen == "start"


def test_continue_is_off_for_a_finished_game_and_says_why(tmp_path):
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    try:
        _finished_cpu_games(app, seeds=(3,))
        _to_start(app)
        assert not find(app, "cw-resume") and not find(app, "cw-replay-autosave")  # nothing to continue
        app.resume()  # a Resume that gets through anyway
        assert app.screen == "start" and "nothing to resume" in app.message.value
    finally:
        app.close()


def test_exit_says_what_happens_to_the_autosave(tmp_path):
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    try:
        _human_then_cpu(app, "instant")
        button(app, "cw-exit").click()
        assert "The game is autosaved: Resume continues it" in app.message.value
        button(app, "cw-resume").click()
        app.set_lang("ja")
        button(app, "cw-exit").click()
        assert "ゲームは自動保存されています" in app.message.value
    finally:
        app.close()


def test_previous_results_list_every_recorded_game(tmp_path):
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    try:
        _finished_cpu_games(app, seeds=(3, 4))
        _to_start(app)
        button(app, "cw-previous-results").click()
        (shown,) = find(app, "cw-previous-results-list")
        assert "Bot3" in shown.value and "Bot4" in shown.value  # both games, not only the latest
    finally:
        app.close()


def test_records_are_per_cpu_opponent_and_say_so(tmp_path):
    from conquest_widget.saves import SaveStore

    store = SaveStore(tmp_path / "saves")
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    try:
        setup = GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("B1", 27, cpu=True), PlayerSetup("B2", 1, cpu=True)),
                          turns=5, seed=3)
        play(app, setup)
        play_to_the_end(app)  # the human seat played as a CPU would
        _to_start(app)
        button(app, "cw-previous-results").click()
        (shown,) = find(app, "cw-previous-results-list")
        records = shown.value
        assert sum(v["wins"] + v["losses"] + v["draws"] for v in store.records().values()) == 2  # one game, two CPU opponents
        assert "per CPU opponent" in records  # what is counted
        assert "<th>CPU opponent</th><th>Human players&#x27; record</th>" in records  # the columns
    finally:
        app.close()


# ---------------------------------------------------------------- item 6: battle results
def _human_attacks_cpu(speed: str = "fast") -> JapanConquestApp:
    app = JapanConquestApp(save_dir=None)
    m = JapanMatch(GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1),
                   dice=ScriptedDice([1, 6, 1], then_seed=5))
    m.edit_prefecture("Saitama", owner=1, level="base")
    c = play(app, m, speed=speed)
    c.roll()
    c.click_prefecture(11)
    c.confirm_route()
    assert c.phase == "battle_attack"
    return app


def test_a_battle_result_stays_until_the_player_dismisses_it():
    async def main():
        app = _human_attacks_cpu("fast")
        c = app.board.inner
        app.board.battle_panel.buttons[0].click()  # attack: 6; the CPU defends: 1 (+ bonus)
        await until(lambda: bool(c.battle_report), 3)
        report = c.battle_report
        assert report and report["attack"] == 6 and report["defence"] == sum(report["defence_faces"]) + report["bonus"] and report["pref"] == 11
        await asyncio.sleep(1.0)  # the CPU waits: its turn does not start behind the result
        rolls = [e for e in app.controller._match.full_events() if e["type"] == "roll" and e["player"] == 1]
        assert rolls == [] and c.battle_report == report
        text = app.board.battle_panel.text.value
        assert "Saitama" in text and "Me" in text and "+" in text and app.board.battle_panel.ok_button.shown
        app.board.battle_panel.ok_button.click()
        assert not c.battle_report
        await until(lambda: c.current_player == 0 and c.phase == "roll")
        await app.controller.wait_cpus()
        app.close()

    asyncio.run(main())


def test_cpu_against_cpu_battles_pause_at_the_chosen_speed(monkeypatch):
    from conquest_widget.games.japan_conquest.widget import controller as ctl

    monkeypatch.setitem(ctl.CPU_DELAYS, "fast", 0.0)
    monkeypatch.setitem(ctl.BATTLE_PAUSE, "fast", 0.3)

    async def main():
        app = JapanConquestApp(save_dir=None)
        stamps: list[tuple[float, set[str]]] = []
        seen = [0]

        def published(_change):
            events = app.controller.events
            stamps.append((time.monotonic(), {e["type"] for e in events[seen[0]:]}))
            seen[0] = len(events)

        play(app, GameSetup.quick(["Tokyo", "Osaka", "Fukuoka"], cpu=[True, True, True], turns=5, seed=7), speed="fast")
        c = app.controller
        c.observe(published, names="version")

        def battle():
            return next((k for k, (_, kinds) in enumerate(stamps) if "battle_result" in kinds), None)

        await until(lambda: (battle() is not None and len(stamps) > battle() + 1) or c.is_over, 30)
        c.stop_cpus()
        k = battle()
        assert k is not None and len(stamps) > k + 1, "no CPU battle in this game"
        assert stamps[k + 1][0] - stamps[k][0] >= 0.29  # the battle's moment
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(stamps[1:k])]
        assert not gaps or sorted(gaps)[len(gaps) // 2] < 0.1  # the rest plays at the chosen speed
        app.close()

    asyncio.run(main())


# ---------------------------------------------------------------- item 5: the map follows the action
def test_a_new_game_opens_on_the_homes_not_the_last_games_zoom(app):
    m = app.stage.map_view
    m.map.center, m.map.zoom = [43.0, 142.0], 9  # the last game ended zoomed in on Hokkaido
    play(app, GameSetup.quick(["Tokyo", "Osaka", "Fukuoka"], turns=5, seed=1))
    assert m.map.zoom <= 6
    lat, lon = m.map.center
    assert 33 < lat < 36 and 131 < lon < 140  # between Fukuoka and Tokyo


def test_the_route_and_the_next_steps_stay_in_view(app):
    m = app.stage.map_view
    c = play(app, GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("You", 1)), turns=5, seed=1),
             dice=ScriptedDice([6], then_seed=5))
    c.roll()
    m.map.set_trait("bounds", ((40.0, 139.0), (45.0, 146.0)))  # the player looks at Hokkaido
    m.map.center = [42.5, 142.5]
    c.click_prefecture(c.legal_steps[0])
    lat, _lon = m.map.center
    assert lat < 38  # the map went back to where the route is


def test_names_on_the_map_when_zoomed_in_and_no_crowded_values_at_the_overview(app):
    m = app.stage.map_view
    m.map.zoom = 5
    assert "50" not in m.label_of(13) and "Saitama" not in m.label_of(11)  # Tokyo's value left out
    assert "40" in m.label_of(11)
    m.map.zoom = 7
    assert "Saitama" in m.label_of(11) and "50" in m.label_of(13)
    app.set_lang("ja")
    assert "埼玉県" in m.label_of(11)


def test_a_failed_autosave_is_told_in_the_players_words(tmp_path):
    (tmp_path / "saves").write_text("a file where the save folder should be")  # nothing can be written there
    app = JapanConquestApp(save_dir=tmp_path / "saves", lang="ja")
    try:
        play(app, GameSetup.quick(["Tokyo", "Osaka"], seed=2))
        assert app.screen == "play"
        assert "オートセーブできませんでした" in app.message.value and "Errno" not in app.message.value
    finally:
        app.close()


# ---------------------------------------------------------------- also: the one-click demo
def test_watch_four_cpus_is_one_click_from_the_start_screen():
    async def main():
        app = JapanConquestApp(save_dir=None)
        watch = button(app, "cw-watch-cpus")
        assert watch.description == "Watch CPUs play"
        watch.click()
        c = app.controller
        assert app.screen == "play" and len(c._match.setup.players) == 4 and all(p.cpu for p in c._match.setup.players)
        assert c.cpu_running  # playing, step by step, while the page stays responsive
        await until(lambda: len(c._match.events) > 12, 5)
        c.stop_cpus()
        app.close()

    asyncio.run(main())


# ---------------------------------------------------------------- issue 30: after watching
def _form_seats(app: JapanConquestApp) -> list[tuple[str, bool]]:
    button(app, "cw-new-game").click()
    seats = [(p["name"], p["cpu"]) for p in app.form.form()["players"]]
    app.form.back_button.click()
    return seats


def test_watching_4_cpus_leaves_the_players_own_setup_in_the_next_new_game_form(tmp_path):
    """"Watch 4 CPUs" left an all-CPU setup in the next New Game form (issue 30)."""
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    try:
        button(app, "cw-new-game").click()
        s = app.form
        s.count.value = 2
        s.rows[0].name.value, s.rows[1].name.value = "Me", "Bot"
        s.rows[0].kind.value, s.rows[1].kind.value = False, True
        s.start_button.click()
        button(app, "cw-exit").click()
        button(app, "cw-watch-cpus").click()  # no event loop: the demo plays to its end at once
        assert app.controller.is_over and all(p["cpu"] for p in app.controller.view["players"])
        button(app, "cw-play-again").click()  # the demo's Play again: still the demo
        assert app.demo
        assert _form_seats(app) == [("Me", False), ("Bot", True)]
        again = JapanConquestApp(save_dir=tmp_path / "saves")  # and after a reload
        try:
            assert _form_seats(again) == [("Me", False), ("Bot", True)]
        finally:
            again.close()
    finally:
        app.close()


def test_after_only_watching_the_new_game_form_is_the_default(tmp_path):
    fresh = JapanConquestApp(save_dir=None)
    default = _form_seats(fresh)
    fresh.close()
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    button(app, "cw-watch-cpus").click()
    assert app.demo and app.controller.is_over
    app.close()
    again = JapanConquestApp(save_dir=tmp_path / "saves")
    try:
        assert _form_seats(again) == default
    finally:
        again.close()


@pytest.mark.parametrize(("lang", "roll", "step", "confirm"), [
    ("en", "press “Roll”", "Click a highlighted prefecture on the map", "press “Confirm Route”"),
    ("ja", "「ダイスを振る」を押してください", "地図上の光っている県をクリック", "「このルートで確定」を押す"),
])
def test_the_turn_panel_says_what_to_do_first_on_a_turn(lang, roll, step, confirm):
    """A newcomer's first turn is guided by the page (issue 30): Roll, then the route's
    steps, then Confirm Route, each said in the turn panel; nothing is said on a CPU's turn."""
    app = JapanConquestApp(save_dir=None, lang=lang)
    try:
        c = play(app, GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1))
        panel = app.board.turn_panel
        assert roll in panel.hint.value and "Me" in panel.hint.value
        assert panel.roll_button.description in panel.hint.value  # it names the button to press
        panel.roll_button.click()
        assert panel.hint.value == "" and step in panel.route_info.value
        while not c.can_confirm:
            c.click_prefecture(c.legal_steps[0])
        assert confirm in panel.route_info.value and panel.confirm_button.description in panel.route_info.value
        c.confirm_route()
        while c.battle_report or c.phase.startswith("battle"):
            if c.battle_report:
                c.dismiss_battle()
            else:
                c.battle_roll(1)
        assert c.current_player == 0 and roll in panel.hint.value  # the CPU played at once; my turn 2
    finally:
        app.close()
