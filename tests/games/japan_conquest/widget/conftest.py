"""Helpers to drive the app the way a user (and ipyleaflet) would, without a browser.

The app is the shell's (``JapanConquestApp`` = ``app_class(UI)``): its map is the stage's
(``app.stage.map_view``), the board of the match shown is ``app.board`` (its Japan
controller ``app.board.inner``), the match's controller ``app.controller``."""

import json

import pytest
from ipywidgets import Widget

from conquest_widget import JapanConquestApp


def map_of(where):
    """The map of an app (its stage's) or of a board (a replay's, a table's: its own)."""
    stage = getattr(where, "stage", None)
    return stage.map_view if stage is not None else where.map_view


def click_map(where, code):
    """Deliver a click on a prefecture polygon exactly as ipyleaflet does (a comm message):
    on the app's map (``where`` an app) or on a board's (a replay's, a table's)."""
    map_of(where).polygons[code]._handle_mouse_events(None, {"type": "click", "coordinates": [35.0, 135.0]}, [])


def walk(w):
    """``w`` and every widget under it."""
    yield w
    for c in getattr(w, "children", ()):
        yield from walk(c)


def find(app, css):
    """The widgets shown in ``app`` with the CSS class ``css``."""
    return [w for w in walk(app) if css in getattr(w, "_dom_classes", ())]


def button(app, css):
    """The button with the CSS class ``css`` on the app's screen (fails when none is shown)."""
    found = [w for w in find(app, css) if hasattr(w, "click")]
    assert found, f"no .{css} on screen"
    return found[0]


def play(app, game, *, dice=None, speed="instant", demo=False):
    """Show ``game`` (a ``JapanMatch``, or a ``GameSetup`` made one with ``dice``) in the app
    as a loaded game is shown, and return the board's Japan controller (the seat)."""
    from conquest_widget.games.japan_conquest import JapanMatch

    match = game if isinstance(game, JapanMatch) else JapanMatch(game, dice=dice)
    app._play(match, speed=speed, demo=demo)
    return app.board.inner


def play_to_the_end(app):
    """Play the game shown to its end: the human seats' actions as a CPU would choose them,
    through the app's controller (the CPUs play at once: no event loop here), each battle
    a human fought closed with its Continue."""
    from conquest_widget.games.japan_conquest.cpu import cpu_action

    g = app.controller._match
    while not g.is_over:
        if app.board.inner.battle_waiting:
            app.board.battle_panel.ok_button.click()
        elif not g.setup.players[g.actor].cpu:
            app.controller.act(cpu_action(g, g.actor))
        else:
            app.controller.play_cpus_now()


@pytest.fixture
def app(tmp_path):
    a = JapanConquestApp(save_dir=tmp_path / "saves")
    yield a
    a.close()


class ByteCounter:
    """Counts the bytes the kernel sends to the front end, at ``Widget._send``."""

    def __init__(self):
        self.total = 0
        self.by_class = {}

    def __call__(self, widget, msg, buffers):
        n = len(json.dumps(msg, default=str)) + sum(len(b) for b in buffers or [])
        self.total += n
        name = type(widget).__name__
        self.by_class[name] = self.by_class.get(name, 0) + n

    def reset(self):
        self.total = 0
        self.by_class = {}

    def map_bytes(self):
        return sum(v for k, v in self.by_class.items() if k in ("Polygon", "Polyline", "Marker", "DivIcon", "LayerGroup"))


@pytest.fixture
def sent(monkeypatch):
    counter = ByteCounter()
    original = Widget._send

    def _send(self, msg, buffers=None):
        counter(self, msg, buffers)
        return original(self, msg, buffers)

    monkeypatch.setattr(Widget, "_send", _send)
    return counter
