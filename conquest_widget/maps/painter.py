"""One message restyles a whole map (issue 32: a lean wire).

ipywidgets sends one message per changed widget, and every prefecture outline is a widget
(an ipyleaflet ``Polygon``): a move that restyles the route's shapes, the legal steps and
an owner's colour was one message per shape.  A :class:`MapPainter` is one
:class:`~conquest_widget.scene.SceneWidget` per map whose scene holds each restyled
shape's style (a shape at its base style is not in it): a restyle of any number of shapes
is one patch.  In the page, ``painter.js`` sets those styles on the shapes' own models
there (``model.set``, never sent back), so jupyter-leaflet draws them as if the kernel had
set the traits — with Leaflet's own ``setStyle``, in every view of the map, a view made
later included — while the polygons' geometry, classes and clicks stay ipyleaflet's.

The polygons' traits in the kernel keep their first style; what a shape shows is the
painter's (:meth:`MapPainter.style_of`).

    >>> import ipyleaflet as L
    >>> base = {"fill_color": "#eeeeee", "fill_opacity": 0.75, "color": "#666666", "weight": 1,
    ...         "dash_array": None, "opacity": 1.0}
    >>> shapes = {13: L.Polygon(locations=[(35, 139), (36, 139), (36, 140)], **base)}
    >>> p = MapPainter(shapes, base)
    >>> p.paint({13: base | {"fill_color": "#ff0000"}}), p.scene["13"]
    ([13], ['#ff0000', 0.75, '#666666', 1, None, 1.0])
    >>> p.paint({13: base | {"fill_color": "#ff0000"}}), p.scene["n"]   # nothing changed: nothing sent
    ([], 1)
    >>> p.paint({13: base}), "13" in p.scene                           # back to its base style
    ([13], False)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipyleaflet as L

from conquest_widget.lean import Layout
from conquest_widget.scene import SceneWidget

__all__ = ["STYLE_KEYS", "MapPainter"]

#: the style traits a painter sets, in the order of a scene entry's list
STYLE_KEYS = ("fill_color", "fill_opacity", "color", "weight", "dash_array", "opacity")


class MapPainter(SceneWidget):
    """The styles of a map's shapes, sent as one patch per restyle (see the module).

    ``shapes`` maps a key (a prefecture code) to its ``Polygon``; ``base`` is the style
    every shape was made with (the values of :data:`STYLE_KEYS`).  Put it in the displayed
    widget tree beside the map (it draws nothing)."""

    _esm = SceneWidget.page_module(Path(__file__).with_name("painter.js"))

    def __init__(self, shapes: Mapping[int, L.Polygon], base: Mapping[str, Any], **kwargs: Any) -> None:
        self._refs = {str(k): f"IPY_MODEL_{poly.model_id}" for k, poly in shapes.items()}
        self._base = [base[k] for k in STYLE_KEYS]
        self._styles: dict[str, list[Any]] = {}
        kwargs.setdefault("layout", Layout(display="none"))
        super().__init__(**kwargs)

    def draw_scene(self) -> dict[str, Any]:
        # "m": each shape's model and "b": the base style, sent once; then one key per
        # shape that is not at its base style
        return {"m": self._refs, "b": self._base} | self._styles

    def style_of(self, key: int) -> dict[str, Any]:
        """The style shape ``key`` shows."""
        return dict(zip(STYLE_KEYS, self._styles.get(str(key), self._base), strict=True))

    def paint(self, styles: Mapping[int, Mapping[str, Any]]) -> list[int]:
        """Give shapes these whole styles (every key of :data:`STYLE_KEYS`); one message
        for all the shapes that changed, none if none did.  Returns the keys changed."""
        changed = []
        for key, style in styles.items():
            k = str(key)
            if k not in self._refs:
                raise KeyError(f"no shape {key!r} on this map")
            values = [style[s] for s in STYLE_KEYS]
            if values == self._styles.get(k, self._base):
                continue
            if values == self._base:
                self._styles.pop(k, None)
            else:
                self._styles[k] = values
            changed.append(key)
        if changed:
            self.redraw()
        return changed
