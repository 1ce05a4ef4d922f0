"""What goes over the wire per move (issue 18): counted at the comm, envelopes and comm
opens included (tests/games/japan_conquest/widget/wire.py), not at ``Widget._send``."""

from __future__ import annotations

import pytest

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup, ScriptedDice
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.scene import read_message

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


def _two_humans(tmp_path, wire):
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    setup = GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=30)
    app.controller.new_game(setup, dice=ScriptedDice([3, 2, 4, 1, 5, 3, 2, 6], then_seed=3))
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
        app = _two_humans(tmp_path, wire)
        c = app.controller
        clicks = confirms = 0
        for _ in range(8):
            wire.reset()
            c.roll()
            assert wire.opens == 0
            while c.phase == "route" and not c.can_confirm:
                refreshes.clear()
                wire.reset()
                c.click_prefecture(c.legal_steps[0])
                assert len(refreshes) == 1, "one map redraw per planning click"
                assert wire.opens == 0
                assert wire.data < 2500, wire.summary()  # median about 750 B: the route, highlights, panel
                clicks += 1
            if c.phase == "route":
                wire.reset()
                c.confirm_route()
                assert wire.opens == 0, wire.opens_by_model  # the log reuses its blocks
                assert wire.data < 4500, wire.summary()  # about 2.6 KB (5.3 KB before issue 18)
                confirms += 1
            while c.phase.startswith("battle"):
                c.battle_roll(1)
    assert clicks >= 8 and confirms >= 6
    assert len(app.log_view.blocks.children) == app.log_view.RING


def test_the_labels_open_no_model_and_a_changed_label_costs_its_html(tmp_path):
    """The map's 47 labels are drawn by its painter (issue 32): the map opens no marker or
    icon model for them (the markers it opens are the route's step badges and the pawns),
    and a label that changes (Saitama becoming a castle) is its new HTML in the painter's
    one message, nothing opened."""
    with WireCounter() as wire:
        app = _two_humans(tmp_path, wire)
        view = app.map_view
        markers = len(view.step_markers) + len(view.pawns)
        assert wire.opens_by_model["LeafletMarkerModel"] == markers, wire.opens_by_model
        assert wire.opens_by_model["LeafletDivIconModel"] == markers, wire.opens_by_model
        c = app.controller
        c._match.edit_prefecture("Saitama", owner=0, level="castle")
        wire.reset()
        c.load_game(c._match)
    assert view.label_of(11) == '<div class="cw-label">🏯</div>'
    assert wire.opens == 0, wire.opens_by_model
    painter = [data for model, kind, data in wire.sent if model == "AnyModel" and "h11" in str(data)]
    assert len(painter) == 1 and read_message(painter[0]["content"])["patch"]["h11"] == view.label_of(11), wire.sent


def test_the_log_keeps_the_last_turns_newest_first(tmp_path):
    app = _two_humans(tmp_path, None)
    c = app.controller
    for _ in range(app.log_view.RING + 3):
        c.roll()
        while c.phase == "route" and not c.can_confirm:
            c.click_prefecture(c.legal_steps[0])
        if c.phase == "route":
            c.confirm_route()
        while c.phase.startswith("battle"):
            c.battle_roll(1)
    lines = app.log_view.lines()
    starts = [x for x in lines if x.startswith("—")]
    assert len(starts) == app.log_view.RING  # the last RING turns, each once
    turn = c._match.turn_number()
    assert str(turn) in starts[0] and c._match.setup.players[c.current_player].name in starts[0]
    shown = [b for b in app.log_view.blocks.children if b.layout.display != "none"]
    orders = sorted(int(b.layout.order) for b in shown)
    assert len(shown) == app.log_view.RING and orders == list(range(orders[0], orders[0] + len(orders)))


def test_the_first_render_is_within_300_kb(tmp_path, monkeypatch):
    """What a player's page builds (issue 18 item 1): the game picker of examples/play.ipynb,
    Japan Conquest's Play, then a new game.  Shared layouts and styles, lean Layout and map
    layer models, the setup/results/data screens built when first shown, simplified outlines."""
    from conquest_widget import ConquestApp

    monkeypatch.chdir(tmp_path)  # the picker's games save next to the notebook
    with WireCounter() as wire:
        shell = ConquestApp()
        picker = wire.data
        app = shell.play("japan_conquest")
        app.controller.new_game(GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=30, seed=11))
    assert picker <= 30_000, wire.summary()
    assert wire.data <= 300_000, wire.summary()
    assert wire.opens_by_model["LayoutModel"] <= 50, wire.opens_by_model
    assert app._setup_screen is None and app._data_screen is None  # not sent until shown


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
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    app.start_screen.new_button.click()
    # the start screen and the New game form are one widget each: they show and hide in the page
    toggled = [app.save_exit.chooser, app.save_exit.confirm, app.data_screen.restore_button, app.map_view.hover]
    layouts = [w.layout for w in toggled]
    assert len({id(x) for x in layouts}) == len(layouts)
    from ipywidgets.widgets.widget import _instances

    users = {}
    for w in list(_instances.values()):
        layout = getattr(w, "layout", None)
        if layout is not None and not isinstance(w, type(layout)):
            users.setdefault(id(layout), []).append(w)
    assert all(len(users[id(x)]) == 1 for x in layouts)
