"""A map forwards only the mouse events Python listens for (issue 18: every move lean, the
click sooner).

jupyter-leaflet sends the kernel every mouse event of a map and of the shape under the
pointer, whether Python listens or not: a click on a prefecture is ten messages (the
map's and the shape's mouseover, mousedown, mouseup, preclick and click), moving the
mouse across the map two per ``mousemove`` (dozens a second), and the kernel answers each
with a busy/idle pair, so the click that matters waits behind all of them.

:class:`QuietPointer` tells the page, for the map and each of its layers, which mouse
events have a Python handler (``on_click``, ``on_mouseover``... of ipyleaflet's layers;
any ``on_interaction`` handler of the map forwards all of the map's events).  In the page
it wraps those models' ``send`` so that every other mouse event stays there: the map still
pans, zooms and highlights as before, only the kernel hears less.  The same goes for a
marker's ``move`` event without an ``on_move`` handler: jupyter-leaflet sends one back
for every location the kernel sets (each pawn or route badge moved was an echo message).
Layers added later (to the map or to a ``LayerGroup``) are followed; a handler
registered after the layer was seen needs :meth:`QuietPointer.rescan`.  Layers of kinds
with their own event handling (``GeoJSON`` and the like) are left as they are.

A map view adds one (hidden) to its children::

    from conquest_widget.maps.quiet_pointer import QuietPointer
    box = W.VBox([leaflet_map, QuietPointer(leaflet_map)])

In the page, ``window.__cwQuietPointer.kept`` counts the mouse events kept from the kernel.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import ipyleaflet as L
import traitlets

from conquest_widget.lean import Layout, page_file

__all__ = ["QuietPointer", "forwarded_events"]

#: the mouse events ipyleaflet's ``Layer`` hands to its ``on_<event>`` handlers
LAYER_EVENTS = ("click", "dblclick", "mousedown", "mouseup", "mouseover", "mouseout")
#: the events jupyter-leaflet's map view sends (all reach ``Map.on_interaction``)
MAP_EVENTS = ("click", "dblclick", "mousedown", "mouseup", "mouseover", "mouseout", "mousemove", "contextmenu",
              "preclick")

#: the page side (an ES module for anywidget): ``quiet_pointer.js`` beside this file
_ESM = page_file(Path(__file__).with_name("quiet_pointer.js"))


def forwarded_events(layer: L.Layer | L.Map) -> list[str] | None:
    """The mouse events of ``layer`` (or map) that have a Python handler, in the order
    jupyter-leaflet names them, and a marker's ``move`` if it has an ``on_move`` handler;
    ``None`` for a layer kind with its own event handling (left unfiltered).

    >>> poly = L.Polygon(locations=[(35, 135), (36, 135), (36, 136)])
    >>> forwarded_events(poly)
    []
    >>> poly.on_click(lambda **_: None)
    >>> forwarded_events(poly)
    ['click']
    >>> pawn = L.Marker(location=(35, 135))
    >>> pawn.on_move(lambda **_: None)
    >>> forwarded_events(pawn)
    ['move']
    """
    if isinstance(layer, L.Map):
        return list(MAP_EVENTS) if layer._interaction_callbacks.callbacks else []
    if type(layer)._handle_mouse_events is not L.Layer._handle_mouse_events:
        return None
    events = [e for e in LAYER_EVENTS if getattr(layer, f"_{e}_callbacks").callbacks]
    moves = getattr(layer, "_move_callbacks", None)  # a Marker's
    if moves is not None and moves.callbacks:
        events.append("move")
    return events


class QuietPointer(anywidget.AnyWidget):
    """Keeps a map's mouse events without a Python handler in the page (see the module).

    >>> m = L.Map(center=(36, 138), zoom=5, layers=())
    >>> pin = L.Marker(location=(35.7, 139.7))
    >>> pin.on_click(lambda **_: None)
    >>> quiet = QuietPointer(m)
    >>> m.layers = (pin,)  # followed: the map forwards nothing, the marker its clicks
    >>> {events: len(ids) for events, ids in quiet.forward.items()}
    {'': 1, 'click': 1}
    >>> quiet.layout.display
    'none'
    """

    _esm = _ESM
    #: the mouse events the page forwards (space-separated, "" for none) -> the models
    #: (references as ipywidgets writes them, ``IPY_MODEL_<id>``)
    forward = traitlets.Dict().tag(sync=True)

    def __init__(self, leaflet_map: L.Map | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("layout", Layout(display="none"))
        super().__init__(**kwargs)
        self._map: L.Map | None = None
        self._groups: set[str] = set()
        if leaflet_map is not None:
            self.watch(leaflet_map)

    def watch(self, leaflet_map: L.Map) -> None:
        """Follow ``leaflet_map`` and its layers (one map per QuietPointer)."""
        self._map = leaflet_map
        leaflet_map.observe(self.rescan, names="layers")
        self.rescan()

    def rescan(self, _change: Any = None) -> None:
        """Work out again which events each layer forwards (called when layers change)."""
        if self._map is None:
            return
        forward: dict[str, list[str]] = {}

        def visit(layer: L.Layer | L.Map) -> None:
            events = forwarded_events(layer)
            if events is not None:
                forward.setdefault(" ".join(events), []).append(f"IPY_MODEL_{layer.model_id}")
            if isinstance(layer, L.LayerGroup):
                if layer.model_id not in self._groups:
                    self._groups.add(layer.model_id)
                    layer.observe(self.rescan, names="layers")
                for member in layer.layers:
                    visit(member)

        visit(self._map)
        for layer in self._map.layers:
            visit(layer)
        if forward != self.forward:
            self.forward = forward
