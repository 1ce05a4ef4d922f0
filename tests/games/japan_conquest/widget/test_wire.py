"""What goes over the wire per move (issue 18): counted at the comm, envelopes and comm
opens included (tests/games/japan_conquest/widget/wire.py), not at ``Widget._send``."""

from __future__ import annotations

import pytest

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup, ScriptedDice
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.scene import read_message
from conquest_widget.ui.log_view import LOG_LINES
from tests.games.japan_conquest.widget.conftest import button as _button
from tests.games.japan_conquest.widget.conftest import click_map as _click_map

from .wire import WireCounter


@pytest.fixture
def refreshes(monkeypatch):
    """Counts MapView.refresh calls (the map's full redraw)."""
    calls = []
    original = MapView.refresh

    def refresh(self):
        calls.append(self)
        original(self)

    monkeypatch.setattr(MapView, "refresh", refresh)
    return calls








def _two_humans(tmp_path, match: JapanMatch | None = None):
    """The app with a game of two humans at one screen on it (scripted dice)."""
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    setup = GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=30)
    app._play(match or JapanMatch(setup, dice=ScriptedDice([3, 2, 4, 1, 5, 3, 2, 6], then_seed=3)), speed="fast")
    return app


def test_the_wire_counter_sees_comm_opens_and_envelopes():
    import ipywidgets as W

    with WireCounter() as wire:
        w = W.HTML("x")
        opened = (wire.opens, wire.data, wire.frames)
        wire.reset()
        w.value = "hello"
    assert opened[0] == 3  # the HTML, its Layout and its style
    assert opened[2] > opened[1] > 0
    assert wire.opens == 0 and wire.messages == 1
    assert 40 < wire.data < 100  # {"method": "update", "state": {"value": "hello"}, "buffer_paths": []}
    assert wire.frames > wire.data + 400  # header, parent header, signature...


def test_a_move_opens_no_widget_and_a_click_redraws_the_map_once(tmp_path, refreshes):
    with WireCounter() as wire:
        app = _two_humans(tmp_path)
        c = app.board.inner  # the board's controller: what the panels and the map show
        clicks = confirms = 0
        for _ in range(8):
            wire.reset()
            app.board.turn_panel.roll_button.click()
            assert wire.opens == 0
            while c.phase == "route" and not c.can_confirm:
                refreshes.clear()
                wire.reset()
                _click_map(app, c.legal_steps[0])
                assert len(refreshes) == 1, "one map redraw per planning click"
                assert wire.opens == 0
                assert wire.data < 2500, wire.summary()  # the route, highlights, panel
                clicks += 1
            if c.phase == "route":
                wire.reset()
                app.board.turn_panel.confirm_button.click()
                assert wire.opens == 0, wire.opens_by_model  # the log sends its new lines, no widget
                assert wire.data < 4500, wire.summary()
                confirms += 1
            while c.phase.startswith("battle"):
                c.battle_roll(1)
    assert clicks >= 8 and confirms >= 6
    assert app.screen == "play" and len(app.log_view.lines()) == LOG_LINES
    app.close()


def test_the_labels_open_no_model_and_a_changed_label_costs_its_html(tmp_path):
    """The map's 47 labels are drawn by its painter (issue 32): the map opens no marker or
    icon model for them (the markers it opens are the route's step badges and the pawns),
    and a label that changes (A's base Saitama becoming a castle when A stops there) is its
    new HTML in the painter's one message, nothing opened."""
    m = JapanMatch(GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=30),
                   dice=ScriptedDice([1], then_seed=3))
    m.edit_prefecture("Saitama", owner=0, level="base")
    with WireCounter() as wire:
        app = _two_humans(tmp_path, m)
        view = app.stage.map_view
        markers = len(view.step_markers) + len(view.pawns)
        assert wire.opens_by_model["LeafletMarkerModel"] == markers, wire.opens_by_model
        assert wire.opens_by_model["LeafletDivIconModel"] == markers, wire.opens_by_model
        app.board.turn_panel.roll_button.click()
        _click_map(app, 11)
        assert app.board.inner.route == [11]
        wire.reset()
        app.board.turn_panel.confirm_button.click()
    assert any(e["type"] == "upgraded" and e["pref"] == 11 and e["level"] == "castle" for e in app.controller.events)
    assert view.label_of(11).startswith('<div class="cw-label">🏯')  # a castle (with its value)
    assert wire.opens == 0, wire.opens_by_model
    painter = [data for model, kind, data in wire.sent if model == "AnyModel" and "h11" in str(data)]
    assert len(painter) == 1 and read_message(painter[0]["content"])["patch"]["h11"] == view.label_of(11), wire.sent
    app.close()


def test_the_log_keeps_the_last_lines_newest_first(tmp_path):
    """The shell's log shows the game's last ``LOG_LINES`` lines, newest first, each once."""
    from conquest_widget.games.japan_conquest.widget.shell import UI

    app = _two_humans(tmp_path)
    c = app.board.inner
    for _ in range(12):
        app.board.turn_panel.roll_button.click()
        while c.phase == "route" and not c.can_confirm:
            _click_map(app, c.legal_steps[0])
        if c.phase == "route":
            app.board.turn_panel.confirm_button.click()
        while c.phase.startswith("battle"):
            c.battle_roll(1)
    names = [p.name for p in app.controller._match.setup.players]
    every = [line for e in app.controller.events if (line := UI.log_line(e, "en", names))]
    assert len(every) > LOG_LINES
    lines = app.log_view.lines()
    assert lines == every[::-1][:LOG_LINES]  # the newest first, the oldest gone
    turn = app.controller._match.turn_number()
    starts = [x for x in lines if x.startswith("—")]
    assert starts and str(turn) in starts[0] and names[c.current_player] in starts[0]
    assert len([k for k in app.log_view.scene if k.startswith("l")]) == LOG_LINES  # the page holds no more
    app.close()


def test_the_first_render_is_within_300_kb(tmp_path, monkeypatch):
    """What a player's page builds (issue 18 item 1): the game picker of examples/play.ipynb,
    Japan Conquest's Play, its New game form, then Start.  Shared layouts and styles, lean
    Layout and map layer models, the replay and save-data screens built when first shown,
    simplified outlines."""
    from conquest_widget import ConquestApp

    monkeypatch.chdir(tmp_path)  # the picker's games save next to the notebook
    with WireCounter() as wire:
        shell = ConquestApp()
        picker = wire.data
        app = shell.play("japan_conquest")
        _button(app, "cw-new-game").click()
        app.form.count.value = 2
        app.form.seed.value = "11"
        app.form.click("start")
    assert app.screen == "play", app.message.value
    assert picker <= 30_000, wire.summary()
    assert wire.data <= 300_000, wire.summary()
    assert wire.opens_by_model["LayoutModel"] <= 50, wire.opens_by_model
    assert app.save_data is None and getattr(app, "explorer", None) is None  # not sent until shown


def test_map_layers_are_sent_without_the_front_ends_defaults():
    """A marker's or polygon's model opens with what differs from jupyter-leaflet's defaults
    (about 350 B less each); what the map sets is all there."""
    from conquest_widget.maps import lean
    from conquest_widget.maps.japan.prefecture_map import PrefectureMap

    with WireCounter() as wire:
        PrefectureMap()
        lean.Marker(location=[35.0, 139.0], draggable=False, keyboard=False, icon=lean.DivIcon(html="<b>1</b>"))
    opened = {}
    for model, kind, data in wire.sent:
        if kind == "comm_open":
            opened.setdefault(model, data["state"])
    marker, polygon = opened["LeafletMarkerModel"], opened["LeafletPolygonModel"]
    assert {"location", "icon", "draggable", "options"} <= set(marker) and marker["draggable"] is False
    assert not {"opacity", "popup", "pane", "visible", "rise_offset"} & set(marker)
    assert {"class_name", "options", "fill_color", "weight"} <= set(polygon)
    # the outline comes with the map's painter, encoded (tests/test_map_painter.py)
    assert not {"line_cap", "line_join", "popup", "smooth_factor", "dash_array", "locations"} & set(polygon)


def test_a_layout_is_sent_with_only_the_properties_it_sets():
    """About 1 KB of nulls per Layout model before (issue 18); a property set back to
    None later still reaches the front end."""
    import ipywidgets as W

    from conquest_widget.lean import Layout

    with WireCounter() as wire:
        layout = Layout(width="auto", display="none")
        W.HTML("x", layout=layout)
        opened = next(data["state"] for model, kind, data in wire.sent if model == "LayoutModel" and kind == "comm_open")
        assert {k: v for k, v in opened.items() if not k.startswith("_")} == {"width": "auto", "display": "none"}
        assert opened["_model_name"] == "LayoutModel" and opened["_view_name"] == "LayoutView"
        layout.display = None
        model, kind, data = wire.sent[-1]
        assert (model, kind, data["state"]) == ("LayoutModel", "comm_msg", {"display": None})


def test_widgets_that_are_shown_and_hidden_have_their_own_layout(tmp_path):
    """A shared Layout would show or hide every widget using it at once."""
    from ipywidgets.widgets.widget import _instances

    def own_layouts(toggled) -> None:
        layouts = [w.layout for w in toggled]
        assert len({id(x) for x in layouts}) == len(layouts)
        users = {}
        for w in list(_instances.values()):
            layout = getattr(w, "layout", None)
            if layout is not None and not isinstance(w, type(layout)):
                users.setdefault(id(layout), []).append(w)
        assert all(len(users[id(x)]) == 1 for x in layouts)

    app = JapanConquestApp(save_dir=tmp_path / "saves")
    # the start screen: the Delete confirm, the map's hover, the stage (hidden by the replay)
    own_layouts([app._start_confirm, app.stage.map_view.hover, app._stage_box, app._column])
    _button(app, "cw-new-game").click()
    app.form.count.value = 2
    app.form.click("start")
    assert app.screen == "play"
    # the game: "the autosave is elsewhere" (shown when another page took the autosave)
    own_layouts([app.elsewhere, app.stage.map_view.hover, app._stage_box, app._column])
    app.exit()
    _button(app, "cw-save-data").click()
    own_layouts([app.save_data.restore_button, app.stage.map_view.hover, app._stage_box, app._column])
    app.close()
