"""A reusable map of the 47 prefectures: one ipyleaflet Polygon per prefecture (no tile
layer: it works offline), restyled incrementally, with optional labels.

Games draw on it with plain style dicts; only the polygons whose style changed are
touched, in one ``hold_sync`` batch each, so a move sends a few style traits instead of
re-sending geometry.  Every polygon's SVG path carries the stable CSS classes
``cw-pref cw-pref-<code>`` (for browser tests and page styling).

    >>> m = PrefectureMap()
    >>> len(m.polygons), m.polygons[13].class_name
    (47, 'cw-pref cw-pref-13')
    >>> clicked = []
    >>> m.on_region_click(clicked.append)
    >>> m.click(13); clicked
    [13]
    >>> m.apply_styles({13: {"fill_color": "#ff0000"}, 27: {"fill_color": "#00ff00"}})
    [13, 27]
    >>> m.apply_styles({13: {"fill_color": "#ff0000"}, 27: {"fill_color": "#0000ff"}})   # only Osaka changed
    [27]
    >>> m.set_labels({13: "<b>5</b>"}), m.label_of(13), m.painter.label(13)
    ([13], '<b>5</b>', '<b>5</b>')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import ipyleaflet as L
import ipywidgets as W
from traitlets import Unicode

from conquest_widget.core.safe_text import html_text
from conquest_widget.errors import ConquestError
from conquest_widget.lean import Layout, page_file
from conquest_widget.maps import lean
from conquest_widget.maps.japan.board import japan
from conquest_widget.maps.japan.geo import prefecture_shapes
from conquest_widget.maps.japan.outlines import outline_locations
from conquest_widget.maps.painter import STYLE_KEYS, MapPainter, OutlinedPolygon
from conquest_widget.maps.quiet_pointer import QuietPointer

__all__ = ["BASE_STYLE", "NAME_ZOOM", "STYLE_KEYS", "PrefectureMap", "PrefecturePolygon", "fit_view", "japan_bounds", "visible_bounds"]

_HERE = Path(__file__).parent

#: every polygon's style before the first :meth:`PrefectureMap.apply_styles`
BASE_STYLE: dict[str, Any] = {"fill_color": "#efe9da", "fill_opacity": 0.75, "color": "#6b6b6b", "weight": 1,
                              "dash_array": None, "opacity": 1.0}
CENTER = [37.0, 137.5]
#: the default view keeps every prefecture at least this far from the map's edges
FIT_MARGIN_PX = 20
#: the narrowest map the default view is fitted for (the height is the map's own)
FIT_MIN_WIDTH_PX = 560
#: with ``names``, prefecture names are written on the map from this zoom on (they fit
#: without overlapping); at any zoom the prefecture under the pointer is named in a chip
NAME_ZOOM = 7
#: Leaflet's zoom step on this map
ZOOM_SNAP = 0.25
#: a label's icon: width, height and anchor (x, y) in pixels
LABEL_BOX = (44, 30, 22, 15)


def _merc(lat: float) -> float:
    return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def _unmerc(y: float) -> float:
    return math.degrees(2 * math.atan(math.exp(y)) - math.pi / 2)


@cache
def japan_bounds() -> tuple[tuple[float, float], tuple[float, float]]:
    """``((south, west), (north, east))`` of all 47 prefecture geometries (Okinawa's main
    island to Hokkaido).

    >>> (s, w), (n, e) = japan_bounds(); round(s, 1), round(n, 1)
    (26.1, 45.5)
    """
    shapes = prefecture_shapes()
    b = [shapes[c].bounds for c in shapes]
    return (min(x[1] for x in b), min(x[0] for x in b)), (max(x[3] for x in b), max(x[2] for x in b))


def fit_view(height_px: float, width_px: float = FIT_MIN_WIDTH_PX, margin_px: float = FIT_MARGIN_PX,
             bounds: tuple[tuple[float, float], tuple[float, float]] | None = None) -> tuple[list[float], float]:
    """``(center, zoom)`` of a Leaflet map of ``height_px`` x ``width_px`` pixels showing all
    of ``bounds`` (default: :func:`japan_bounds`) with ``margin_px`` to spare, at the largest
    zoom on the map's 0.25 steps (Web Mercator: 256 * 2**zoom pixels round the world).

    >>> center, zoom = fit_view(660); zoom, [round(x, 2) for x in center]
    (5.0, [36.4, 136.73])
    """
    (s, w), (n, e) = bounds or japan_bounds()
    per_unit = 256 / (2 * math.pi)  # pixels per Mercator unit at zoom 0
    z_h = math.log2((height_px - 2 * margin_px) / (per_unit * (_merc(n) - _merc(s))))
    z_w = math.log2((width_px - 2 * margin_px) / (per_unit * math.radians(e - w)))
    zoom = math.floor(min(z_h, z_w) / ZOOM_SNAP) * ZOOM_SNAP
    return [_unmerc((_merc(s) + _merc(n)) / 2), (w + e) / 2], zoom


def visible_bounds(center: list[float], zoom: float, height_px: float,
                   width_px: float = FIT_MIN_WIDTH_PX) -> tuple[tuple[float, float], tuple[float, float]]:
    """``((south, west), (north, east))`` a Leaflet map of that size shows at ``center`` and
    ``zoom`` (the inverse of :func:`fit_view`, for tests).

    >>> (s, w), (n, e) = visible_bounds(*fit_view(660), 660)
    >>> s < japan_bounds()[0][0] and n > japan_bounds()[1][0]
    True
    """
    scale = 256 / (2 * math.pi) * 2 ** zoom
    y = _merc(center[0])
    half_h, half_w = height_px / 2 / scale, math.degrees(width_px / 2 / scale)
    return (_unmerc(y - half_h), center[1] - half_w), (_unmerc(y + half_h), center[1] + half_w)


def _pixels(height: str) -> float | None:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)px\s*", height)
    return float(m.group(1)) if m else None


class PrefecturePolygon(OutlinedPolygon):
    """A prefecture's Polygon: its SVG path carries stable CSS classes (Leaflet's
    ``className`` option, passed through ipyleaflet's options list); its outline is sent
    by its map's painter (:class:`~conquest_widget.maps.painter.OutlinedPolygon`)."""

    class_name = Unicode("").tag(sync=True, o=True)


def label_point(code: int) -> list[float]:
    """``[lat, lon]`` of a prefecture's label point.

    >>> [round(x) for x in label_point(13)]
    [36, 139]
    """
    lon, lat = japan().prefecture(code).label
    return [lat, lon]


class PrefectureMap(W.VBox):
    """The 47 prefectures on an ipyleaflet map (see the module docstring).

    Without ``center`` and ``zoom`` (and with a height in pixels) the map opens on a view
    that shows all 47 prefectures, Okinawa to Hokkaido (:func:`fit_view`), for any width of
    at least ``FIT_MIN_WIDTH_PX``.

    ``sea_links`` draws the board's sea connections as dashed lines; ``labels`` has the
    map's painter draw a label on each prefecture (no model of its own: see
    :class:`~conquest_widget.maps.painter.MapPainter`) whose HTML :meth:`set_labels`
    changes; a label takes no click (clicking it clicks its prefecture).

    ``label_css`` is the stylesheet of the game's label HTML (read from the game's ``.css``
    file with :func:`~conquest_widget.lean.page_file`), sent once with the map.
    ``palette`` (styles of :data:`STYLE_KEYS`, public), ``label_class`` and ``label_parts``
    go to the painter (see :class:`~conquest_widget.maps.painter.MapPainter`): the styles
    and the parts are sent once, the page puts each label in a box of that class, and a
    label made of the parts goes as their numbers.

    ``names`` names the prefecture under the pointer in a chip at the map's top right
    (``hover``) and writes every name above its label from :data:`NAME_ZOOM` on, in the
    language of :meth:`set_lang`; names are the board's, the same whoever owns what.
    """

    def __init__(self, *, height: str = "520px", sea_links: bool = True, labels: bool = True,
                 zoom: float | None = None, center: list[float] | None = None, names: bool = False,
                 lang: str = "en", label_css: str = "", palette: Sequence[Mapping[str, Any]] = (),
                 label_class: str = "", label_parts: Sequence[str] = (), **kwargs: Any) -> None:
        if zoom is None and center is None and _pixels(height):
            # every prefecture in view, Okinawa included (:func:`fit_view`)
            center, zoom = fit_view(_pixels(height))
        self.map = L.Map(
            center=center or CENTER, zoom=5 if zoom is None else zoom, zoom_snap=0.25, zoom_delta=0.5, min_zoom=4, max_zoom=10, scroll_wheel_zoom=True,
            keyboard=False, double_click_zoom=False, layers=(), attribution_control=False,
            layout=Layout(height=height, width="100%", flex="0 0 auto"),
        )
        self.polygons: dict[int, PrefecturePolygon] = {}
        #: the prefectures' labels: the game's HTML of each (drawn by the painter)
        self._label_html: dict[int, str] = {p.code: "" for p in japan().prefectures} if labels else {}
        self._styles: dict[int, dict[str, Any]] = {}
        self._callbacks: list[Callable[[int], Any]] = []
        #: codes restyled by the last :meth:`apply_styles` (tests, benchmarks)
        self.touched: list[int] = []
        layers: list[L.Layer] = []
        for p in japan().prefectures:
            poly = PrefecturePolygon(locations=outline_locations(p.code), name=p.name_en,
                                     class_name=f"cw-pref cw-pref-{p.code}", **BASE_STYLE)
            poly.on_click(self._clicker(p.code))
            self.polygons[p.code] = poly
            self._styles[p.code] = dict(BASE_STYLE)
            layers.append(poly)
        if sea_links:  # every sea link in one (multi-)polyline: one layer to send
            layers.append(lean.Polyline(
                locations=[[label_point(c.a), label_point(c.b)] for c in japan().connections if c.kind == "sea"],
                color="#2a6f97", weight=2, dash_array="5 7", fill=False, name="sea links"))
        self.map.layers = tuple(layers)
        #: the prefectures' styles and labels, one message per redraw (the polygons keep BASE_STYLE)
        self.painter = MapPainter(
            self.polygons, BASE_STYLE, css=page_file(_HERE / "prefecture_map.css") + label_css, leaflet_map=self.map,
            labels={p.code: label_point(p.code) for p in japan().prefectures} if labels else None,
            label_box=LABEL_BOX, titles={p.code: p.name_en for p in japan().prefectures},
            palette=[{**BASE_STYLE, **style} for style in palette], label_class=label_class,
            label_parts=label_parts)
        self.names = names and labels
        self.lang = lang
        #: the name of the prefecture under the pointer (with ``names``)
        self.hover = W.HTML("", layout=Layout(display="none"))
        self.hover.add_class("cw-hover-name")
        self.hovered = 0
        if self.names:
            for code, poly in self.polygons.items():
                poly.on_mouseover(self._hoverer(code))
            self.map.add(L.WidgetControl(widget=self.hover, position="topright"))
            self.map.observe(lambda _c: self._relabel(), names="zoom")
        super().__init__(children=[self.map, QuietPointer(self.map), self.painter], **kwargs)
        self.add_class("cw-prefecture-map")

    # ------------------------------------------------------------ names
    def name(self, code: int) -> str:
        """Prefecture ``code``'s name in the map's language."""
        return japan().prefecture(code).name(self.lang)

    def set_lang(self, lang: str) -> None:
        """Write the names (hover chip, labels) in ``lang`` ("en" or "ja")."""
        self.lang = lang
        self.hover_over(self.hovered)
        self._relabel()

    def hover_over(self, code: int) -> None:
        """Name prefecture ``code`` in the hover chip (what the pointer entering it does)."""
        self.hovered = code
        if code in self.polygons:
            value = f"<div class='cw-hover'>{html_text(self.name(code))}</div>"
            if self.hover.value != value:
                self.hover.value = value
            self.hover.layout.display = ""

    def _hoverer(self, code: int) -> Callable[..., None]:
        def on_mouseover(**_: Any) -> None:
            self.hover_over(code)
        return on_mouseover

    def _shown(self, code: int) -> str:
        """The label HTML drawn: the game's, under the name when names are written."""
        html = self._label_html[code]
        if self.names and self.map.zoom >= NAME_ZOOM:
            name = f"<div class='cw-map-name'>{html_text(self.name(code))}</div>"
            return name + html
        return html

    def _relabel(self) -> None:
        with self.painter.batch():  # every label in one message
            for code in self._label_html:
                self.painter.set_label(code, self._shown(code))

    # ------------------------------------------------------------ clicks
    def on_region_click(self, callback: Callable[[int], Any]) -> None:
        """Call ``callback(code)`` when a prefecture (or its label) is clicked."""
        self._callbacks.append(callback)

    def click(self, code: int) -> None:
        """Act as if prefecture ``code`` was clicked (what the browser's click does)."""
        if code not in self.polygons:
            raise ConquestError(f"there is no prefecture {code!r} (expected a JIS code 1-47)")
        for cb in list(self._callbacks):
            cb(code)

    def _clicker(self, code: int) -> Callable[..., None]:
        def on_click(**_: Any) -> None:
            self.click(code)
        return on_click

    # ------------------------------------------------------------ styles
    def style_of(self, code: int) -> dict[str, Any]:
        """The style prefecture ``code`` shows now."""
        return dict(self._styles[code])

    def apply_styles(self, styles: Mapping[int, Mapping[str, Any]]) -> list[int]:
        """Restyle prefectures: ``styles`` maps a code to style keys of :data:`STYLE_KEYS`
        (missing keys fall back to :data:`BASE_STYLE`).  All the prefectures that changed
        are sent as one message (:class:`~conquest_widget.maps.painter.MapPainter`);
        returns the codes touched."""
        full_styles = {}
        for code, style in styles.items():
            if code not in self.polygons:
                raise ConquestError(f"a style for an unknown prefecture {code!r} (expected 1-47)")
            bad = set(style) - set(STYLE_KEYS)
            if bad:
                raise ConquestError(f"style keys must be among {STYLE_KEYS}, got {sorted(bad)}")
            full_styles[code] = {**BASE_STYLE, **style}
        touched = self.painter.paint(full_styles)
        for code in touched:
            self._styles[code] = full_styles[code]
        self.touched = touched
        return touched

    # ------------------------------------------------------------ labels
    def set_labels(self, labels: Mapping[int, str]) -> list[int]:
        """Set the label HTML of some prefectures (``""`` = none; escaped by the caller);
        returns the codes changed.

        The map's painter draws the labels: a label's new HTML is one key of the painter's
        message (every label in one message with the shapes' styles when the caller
        batches them, ``with m.painter.batch():``), and no model is opened; a label's
        former text lives nowhere once replaced (a private badge, say, is gone from the
        kernel and the page)."""
        if not self._label_html:
            raise ConquestError("this map was made with labels=False")
        unknown = [code for code in labels if code not in self._label_html]
        if unknown:
            raise ConquestError(f"a label for an unknown prefecture {unknown[0]!r} (expected 1-47)")
        changed = []
        with self.painter.batch():
            for code, html in labels.items():
                if html != self._label_html[code]:
                    self._label_html[code] = html
                    self.painter.set_label(code, self._shown(code))
                    changed.append(code)
        return changed

    def label_of(self, code: int) -> str:
        """The label HTML the game set on prefecture ``code``."""
        return self._label_html.get(code, "")

    def label_shown(self, code: int) -> str:
        """The HTML label ``code`` shows in the page (the game's, under the prefecture's
        name when names are written)."""
        return self.painter.label(code)
