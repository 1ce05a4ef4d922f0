"""Issue 29: Japan Conquest in the shared shell's app (``app_class(UI)``) with everything
its own app gives a player: the prefecture map beside every screen (one map per app: the
start screen, the New game form, the game and the results draw on it), Japan's own New
game form (homes picked on the map, colours, mode), the setup remembered for the next
game, "Watch CPUs", the story of the finished game on the results, the map's tools and
the CPUs' speed while playing, and Separate screens from the form."""

from __future__ import annotations

import ipyleaflet as L
import pytest
from ipywidgets.widgets.widget import _instances

from conquest_widget import tables
from conquest_widget.games.japan_conquest.widget.board import JapanBoard
from conquest_widget.games.japan_conquest.widget.setup_form import SetupScreen
from conquest_widget.games.japan_conquest.widget.shell import UI
from conquest_widget.saves import SaveStore
from conquest_widget.ui.match_app import app_class
from tests.games.japan_conquest.widget.conftest import button, click_map
from tests.games.japan_conquest.widget.conftest import walk as _walk

App = app_class(UI)






def shown(app, cls):
    """The widgets of class ``cls`` on the page (shown from the app's root)."""
    return [w for w in _walk(app) if isinstance(w, cls)]




@pytest.fixture
def app(tmp_path):
    a = App(save_dir=tmp_path / "saves")
    yield a
    a.close()


def two_player_form(app, *, home0: int = 40, home1: int = 13) -> SetupScreen:
    button(app, "cw-new-game").click()
    form = app.form
    assert isinstance(form, SetupScreen)
    form.count.value = 2
    form.rows[1].kind.value = True  # a CPU
    form.selected_seat.value = 0
    click_map(app, home0)
    form.rows[1].home.value = home1
    return form


def test_the_map_is_beside_every_screen_and_there_is_one(app) -> None:
    maps = shown(app, L.Map)
    assert len(maps) == 1 and maps[0] is app.stage.map_view.map  # the start screen shows Japan
    form = two_player_form(app)
    colours = [row.colour.value for row in form.rows[:2]]
    form.click("start")
    assert app.screen == "play" and isinstance(app.board, JapanBoard)
    assert shown(app, L.Map) == maps  # the game draws on the same map: its 47 outlines are not sent again
    # ... at once: the players' homes in their colours (the game's, the form's preview is gone)
    paint = app.stage.map_view.style_of
    assert [paint(40)["fill_color"], paint(13)["fill_color"]] == colours and paint(20)["fill_color"] not in colours
    assert app.board.map_view is app.stage.map_view and app.board.inner is app.stage.seat
    button(app, "cw-exit").click()
    assert app.screen == "start" and shown(app, L.Map) == maps


def test_the_map_draws_the_game_as_soon_as_its_screen_is_the_games() -> None:
    """The map shows the game of the seat it draws from while its screen is "game", from
    the moment the screen changes (whatever the order in which the seat was bound)."""
    from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    from conquest_widget.games.japan_conquest.widget.controller import SeatController
    from conquest_widget.games.japan_conquest.widget.map_view import MapView
    from conquest_widget.ui.controller import MatchController

    seat = SeatController(None, screen="start")
    view = MapView(seat)
    seat.bind(MatchController(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"])), humans={0, 1}))
    colours = [p["colour"] for p in seat.view["players"]]
    assert view.style_of(13)["fill_color"] not in colours  # the start screen: Japan with no game
    seat.screen = "game"
    assert [view.style_of(13)["fill_color"], view.style_of(27)["fill_color"]] == colours
    seat.screen = "start"
    assert view.style_of(13)["fill_color"] not in colours
    view.close()


def test_a_click_on_the_map_picks_the_selected_seats_home_and_colours_it(app) -> None:
    form = two_player_form(app, home0=40)
    assert form.rows[0].home.value == 40
    assert app.stage.map_view.style_of(40)["fill_color"] == form.rows[0].colour.value
    form.selected_seat.value = 1
    click_map(app, 1)
    assert form.rows[1].home.value == 1
    assert app.stage.map_view.style_of(1)["fill_color"] == form.rows[1].colour.value
    # Back: the start screen's map shows no homes, and a click there picks nothing
    form.click("back")
    assert app.screen == "start"
    assert app.stage.map_view.style_of(1)["fill_color"] != form.rows[1].colour.value
    click_map(app, 5)
    assert form.rows[1].home.value == 1


def test_a_bad_form_is_explained_and_starts_nothing(app, tmp_path) -> None:
    form = two_player_form(app, home0=13, home1=13)
    form.click("start")
    assert app.screen == "setup" and app.controller is None
    assert "same home" in form.problem and "Tokyo" in form.problem
    assert app.message.value == ""  # said once, on the form
    assert SaveStore(tmp_path / "saves").autosave_info("japan_conquest").status == "empty"
    form.seed.value = "abc"
    form.rows[1].home.value = 27
    form.click("start")
    assert app.screen == "setup" and form.problem  # the seed is named as the problem
    form.seed.value = "12"
    form.click("start")
    assert app.screen == "play" and app.controller.view["players"][1]["home"] == 27


def test_the_game_is_played_on_the_stage_map_route_planning_by_clicks(app) -> None:
    two_player_form(app).click("start")
    board = app.board
    board.turn_panel.roll_button.click()
    assert board.inner.phase == "route"
    step = board.inner.legal_steps[0]
    click_map(app, step)
    assert board.inner.route == [step]
    assert app.stage.map_view.route_locations()  # the route is drawn on the app's map
    click_map(app, 1)  # Hokkaido is not next to where the route stands: explained
    assert "not connected" in board.inner.message or "not" in app.controller.message


def test_leaving_a_game_leaves_the_map_with_no_game_and_no_widget_alive(app) -> None:
    counts = []
    for _round in range(3):
        two_player_form(app).click("start")
        app.board.turn_panel.roll_button.click()
        button(app, "cw-exit").click()
        assert app.stage.seat.source is None and not app.stage.seat.view
        assert not app.stage.map_view.route_locations()
        counts.append(len(_instances))
    assert counts[-1] == counts[0], counts


def test_the_next_new_game_form_starts_from_the_last_setup(app, tmp_path) -> None:
    form = two_player_form(app, home0=40, home1=1)
    form.rows[0].name.value = "Akiko <b>"
    form.click("start")
    button(app, "cw-exit").click()
    again = App(save_dir=tmp_path / "saves")  # another page of the folder
    try:
        button(again, "cw-new-game").click()
        assert again.form.count.value == 2
        assert [r.home.value for r in again.form.rows_shown] == [40, 1]
        assert again.form.rows[0].name.value == "Akiko <b>" and again.form.rows[1].kind.value is True
    finally:
        again.close()


def test_watching_the_cpus_keeps_the_players_autosave(app, tmp_path) -> None:
    two_player_form(app).click("start")
    app.board.turn_panel.roll_button.click()
    button(app, "cw-exit").click()
    store = SaveStore(tmp_path / "saves")
    before = store.autosave_info("japan_conquest")
    assert before.status == "used"
    button(app, "cw-watch-cpus").click()  # outside a kernel the CPUs play at once, to the end
    assert app.demo and app.screen == "results"
    assert all(p["cpu"] for p in app.controller.view["players"])
    after = store.autosave_info("japan_conquest")
    assert (after.saved_at, after.player_names) == (before.saved_at, before.player_names)
    assert store.results() == []  # a game nobody played records no result
    button(app, "cw-new-game").click()  # the demo is not remembered as the player's setup
    assert app.form.count.value == 2


def test_the_results_tell_the_story_of_the_game(app) -> None:
    button(app, "cw-watch-cpus").click()
    (results,) = [w for w in _walk(app) if "cw-results" in getattr(w, "_dom_classes", ())]
    assert 'class="cw-story-line"' in results.value and "<svg" in results.value
    app.set_lang("ja")
    (results,) = [w for w in _walk(app) if "cw-results" in getattr(w, "_dom_classes", ())]
    assert "ターンごとの総得点" in results.value
    # the map stays beside the results with the final position
    assert app.stage.seat.view["outcome"] is not None


def test_the_replay_hides_the_stage_and_back_shows_it(app) -> None:
    two_player_form(app).click("start")
    app.board.turn_panel.roll_button.click()
    button(app, "cw-exit").click()
    button(app, "cw-replay-autosave").click()
    assert app.screen == "replay" and app._stage_box.layout.display == "none"
    # the explorer draws its own map (with its overlays); the stage's is hidden meanwhile
    replay_maps = [m for m in shown(app, L.Map) if m is not app.stage.map_view.map]
    assert len(replay_maps) == 1
    button(app, "cw-back").click()
    assert app.screen == "start" and app._stage_box.layout.display is None


def test_map_tools_and_cpu_speed_while_playing(app) -> None:
    two_player_form(app).click("start")
    speed = next(w for w in _walk(app) if "cw-cpu-speed" in getattr(w, "_dom_classes", ()))
    speed.value = "normal"
    assert app.controller.cpu_speed == "normal"
    app.board.basemap.value = True
    assert app.stage.map_view.basemap_layer is not None
    button(app, "cw-exit").click()
    assert app.stage.map_view.basemap_layer is None  # the start screen's map is offline again


def test_english_and_japanese(app) -> None:
    two_player_form(app)
    app.set_lang("ja")
    assert app.form.desc["t"]["start"] == "出陣" and app.stage.seat.lang == "ja"
    app.form.click("start")
    assert app.board.overview_button.description == "全体"
    app.set_lang("en")
    assert app.board.overview_button.description == "Overview"


def test_separate_screens_from_japans_form_make_a_table_of_its_setup(app, tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("CONQUEST_TABLES_STORE", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    form = two_player_form(app, home0=40, home1=1)
    form.rows[1].kind.value = False  # two humans
    form.screens.value = "tables"
    form.click("start")
    assert app.screen == "links" and app.new_table is not None
    assert sorted(app.new_table.invites) == [0, 1]
    client = tables.join(tables.open_store(tmp_path / "saves"), app.new_table.invites[1])
    assert [p.home for p in client.setup.players] == [40, 1]
    # a bad form makes no table and says why
    button(app, "cw-new-game").click()
    app.form.screens.value = "tables"
    app.form.rows[1].home.value = app.form.rows[0].home.value
    app.form.click("start")
    assert app.screen == "setup" and "same home" in app.form.problem and app.message.value == ""
    assert len(tables.list_tables(tables.open_store(tmp_path / "saves"))) == 1
