"""Helpers to drive the app the way a user (and ipyleaflet) would, without a browser."""

import json

import pytest
from ipywidgets import Widget

from conquest_widget import JapanConquestApp


def click_map(app, code):
    """Deliver a click on a prefecture polygon exactly as ipyleaflet does (a comm message)."""
    app.map_view.polygons[code]._handle_mouse_events(None, {"type": "click", "coordinates": [35.0, 135.0]}, [])


@pytest.fixture
def app(tmp_path):
    return JapanConquestApp(save_dir=tmp_path / "saves")


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
