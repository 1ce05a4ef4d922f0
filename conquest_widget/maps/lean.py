"""ipyleaflet layers that cost less to send (issue 18: the first render).

When a widget model is opened, ipywidgets sends every synced trait, and most of a marker's
or a polygon's are the values the front end's model starts with anyway (``opacity`` 1,
``popup`` null, ``line_cap`` "round"...): about 350 B per marker and 300 B per polygon, on a
map of 47 polygons and 55 markers.  The classes here leave those out of the full state; a
later change is sent as usual, whatever its value.

The defaults are those of jupyter-leaflet's models for ipyleaflet 0.20 (the ``defaults()``
of ``LeafletLayerModel``, ``LeafletUILayerModel``, ``LeafletMarkerModel``,
``LeafletPathModel``, ``LeafletPolylineModel`` and ``LeafletDivIconModel``); with any other
ipyleaflet version nothing is left out.

>>> from conquest_widget.maps.lean import Marker
>>> state = Marker(location=[35.0, 139.0], draggable=False).get_state()
>>> state["location"], state["draggable"], "opacity" in state, "options" in state
([35.0, 139.0], False, False, True)
>>> Marker().get_state("opacity")  # a single property is always sent
{'opacity': 1.0}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import ipyleaflet as L

__all__ = ["DivIcon", "Marker", "Polygon", "Polyline", "lean_state"]

#: the version of ipyleaflet whose front-end defaults are written below
DEFAULTS_FOR = "0.20."

_WIDGET = {"_view_count": None}
_LAYER = _WIDGET | {
    "opacity": 1, "bottom": False, "name": "", "base": False, "popup": None, "popup_min_width": 50,
    "popup_max_width": 300, "popup_max_height": None, "pane": "", "subitems": [], "pm_ignore": True,
}
MARKER_DEFAULTS: Mapping[str, Any] = _LAYER | {
    "visible": True, "z_index_offset": 0, "draggable": True, "keyboard": True, "title": "", "alt": "",
    "rise_on_hover": False, "rise_offset": 250, "rotation_angle": 0, "rotation_origin": "",
}
_PATH = _LAYER | {
    "stroke": True, "color": "#0033FF", "weight": 5, "fill": True, "fill_color": None, "fill_opacity": 0.2,
    "dash_array": None, "line_cap": "round", "line_join": "round", "pointer_events": "",
}
POLYLINE_DEFAULTS: Mapping[str, Any] = _PATH | {"smooth_factor": 1, "no_clip": True}
DIVICON_DEFAULTS: Mapping[str, Any] = _LAYER | {
    "html": "", "bg_pos": [0, 0], "icon_size": None, "icon_anchor": None, "popup_anchor": [0, 0],
}


def _same(value: Any, default: Any) -> bool:
    """JSON-equal: 1.0 is 1, a tuple is a list, but False is not 0."""
    if isinstance(value, bool) or isinstance(default, bool):
        return value is default
    if isinstance(value, int | float) and isinstance(default, int | float):
        return value == default
    if isinstance(value, list | tuple) and isinstance(default, list | tuple):
        return len(value) == len(default) and all(_same(a, b) for a, b in zip(value, default, strict=True))
    return type(value) is type(default) and value == default


def lean_state(state: dict[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``state`` without the entries equal to the front end's ``defaults`` (none left out
    unless the installed ipyleaflet is the version the defaults were read from).

    >>> lean_state({"opacity": 1.0, "visible": False, "name": "x"}, MARKER_DEFAULTS) == (
    ...     {"visible": False, "name": "x"} if L.__version__.startswith(DEFAULTS_FOR) else
    ...     {"opacity": 1.0, "visible": False, "name": "x"})
    True
    """
    if not L.__version__.startswith(DEFAULTS_FOR):
        return state
    return {k: v for k, v in state.items() if not (k in defaults and _same(v, defaults[k]))}


class _Lean:
    """Mixin: the full state leaves out what equals the front end's defaults."""

    _front_end_defaults: ClassVar[Mapping[str, Any]] = {}

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        state = super().get_state(key=key, drop_defaults=drop_defaults)  # type: ignore[misc]
        return lean_state(state, self._front_end_defaults) if key is None else state


class Marker(_Lean, L.Marker):
    """``ipyleaflet.Marker``, sent lean."""

    _front_end_defaults = MARKER_DEFAULTS


class Polyline(_Lean, L.Polyline):
    """``ipyleaflet.Polyline``, sent lean."""

    _front_end_defaults = POLYLINE_DEFAULTS


class Polygon(_Lean, L.Polygon):
    """``ipyleaflet.Polygon``, sent lean (the front end's polygon model is a polyline's)."""

    _front_end_defaults = POLYLINE_DEFAULTS


class DivIcon(_Lean, L.DivIcon):
    """``ipyleaflet.DivIcon``, sent lean."""

    _front_end_defaults = DIVICON_DEFAULTS
