"""The map: one ipyleaflet Polygon per prefecture, restyled incrementally.

Only the prefectures whose owner/level/highlight changed are touched after the first
render, all in one message of the map's painter (:class:`~conquest_widget.maps.painter.MapPainter`)
with the labels that changed (the painter draws the labels in the page: a label's new
HTML is sent, no model opened), the route and the pawns, instead of re-sending geometry.
"""

from __future__ import annotations

from typing import Any

import ipyleaflet as L
import ipywidgets as W

from conquest_widget.errors import ConquestError
from conquest_widget.games.japan_conquest.text import pref_name
from conquest_widget.games.japan_conquest.widget.controller import BoardModel
from conquest_widget.games.japan_conquest.widget.style import (
    HIGHLIGHT,
    ROUTE,
    label_html,
    player_icon_html,
    prefecture_style,
    step_html,
)
from conquest_widget.lean import Layout, close_tree
from conquest_widget.maps import lean
from conquest_widget.maps.japan.board import japan
from conquest_widget.maps.japan.geo import prefecture_shapes
from conquest_widget.maps.japan.outlines import outline_locations
from conquest_widget.maps.japan.prefecture_map import PrefecturePolygon
from conquest_widget.maps.painter import STYLE_KEYS as PAINT_KEYS
from conquest_widget.maps.painter import MapPainter
from conquest_widget.maps.quiet_pointer import QuietPointer

JAPAN_BOUNDS = [[24.0, 122.9], [45.6, 146.0]]
STYLE_KEYS = ("fill_color", "fill_opacity", "color", "weight", "dash_array")
MAX_STEPS = 18
#: step markers made with the map; a longer route adds its own (once)
FIRST_STEPS = 6
#: the map fills the window's height (less the header) within limits, and never changes size
#: with the side panel: Leaflet only re-measures its container when the window resizes
MAP_HEIGHT = "clamp(420px, calc(100vh - 70px), 860px)"
#: prefecture names are written on the map from this zoom on (they fit without overlap)
NAME_ZOOM = 7
#: below this zoom the values of the smallest prefectures (Kanto, Kansai...) are left out
#: so that labels do not overlap; their shapes stay clickable and show the hover chip
DETAIL_ZOOM = 6
#: a label's icon: width, height and anchor (x, y) in pixels
LABEL_BOX = (36, 26, 18, 13)
SMALL_AREA = 0.3  # square degrees: Tokyo, Osaka, Kanagawa, Kagawa, Saga, Nagasaki (not Okinawa: alone at sea)


def _latlon(code: int) -> list[float]:
    lon, lat = japan().prefectures[code - 1].label
    return [lat, lon]


class MapView(W.VBox):
    """The game map, a thin view over a :class:`~.controller.BoardModel`."""

    def __init__(self, controller: BoardModel, *, every_label: bool = False, **kwargs: Any) -> None:
        """``every_label=True`` makes every route step marker there can be at once (the
        replay explorer, which jumps anywhere in a game and must create no widget then); by
        default long routes' steps are made when first needed.  The prefectures' labels are
        drawn by the map's painter (no model of theirs is opened)."""
        self.controller = controller
        self.map = L.Map(
            center=[37.0, 137.5], zoom=5, min_zoom=4, max_zoom=10, scroll_wheel_zoom=True,
            # keyboard=False: Leaflet's keyboard handler focuses the map on mousedown, and the
            # browser then scrolled the page so that the pointer's mouseup landed elsewhere
            # (issue 16: the lost first click); double_click_zoom=False: double-clicks are harmless
            keyboard=False, double_click_zoom=False,
            layers=(), attribution_control=False, layout=Layout(height=MAP_HEIGHT, width="100%", flex="0 0 auto"),
        )
        self.preview: dict[int, str] = {}  # setup screen: home -> colour
        self.polygons: dict[int, L.Polygon] = {}
        self._styles: dict[int, dict] = {}
        self._overlay: dict[int, dict] = {}  # set_overlay(): per-prefecture style overrides
        self.legend: W.HTML | None = None  # set_legend(): created on first use, in a WidgetControl
        shapes = prefecture_shapes()
        layers: list[L.Layer] = []
        for p in japan().prefectures:
            code = p.code
            poly = PrefecturePolygon(
                locations=outline_locations(code), name=p.name_en, class_name=f"cw-pref cw-pref-{code}",
                fill_color="#efe9da", fill_opacity=0.75,
                color="#6b6b6b", weight=1, dash_array=None,
            )
            poly.on_click(self._clicker(code))
            poly.on_mouseover(self._hoverer(code))
            self.polygons[code] = poly
            self._styles[code] = {k: getattr(poly, k) for k in STYLE_KEYS}
            layers.append(poly)
        # every sea link in one (multi-)polyline: one layer to send instead of one per link
        self.sea_links = lean.Polyline(
            locations=[[_latlon(c.a), _latlon(c.b)] for c in japan().connections if c.kind == "sea"],
            color="#2a6f97", weight=2, dash_array="5 7", fill=False, name="sea links",
        )
        layers.append(self.sea_links)
        self.route_line = lean.Polyline(locations=[], color=ROUTE, weight=3, fill=False, name="route")
        layers.append(self.route_line)
        # numbered route steps: the usual route lengths now, more when a route first needs them
        self.step_markers: list[L.Marker] = [self._step_marker(i) for i in range(MAX_STEPS if every_label else FIRST_STEPS)]
        self.step_layer = L.LayerGroup(layers=tuple(self.step_markers), name="route steps")
        layers.append(self.step_layer)
        self.pawns: list[L.Marker] = []
        self.pawn_layer = L.LayerGroup(layers=(), name="players")
        layers.append(self.pawn_layer)
        self.map.layers = tuple(layers)
        self.hover = W.HTML("", layout=Layout(display="none"))
        self._hovered = 0
        self.map.add(L.WidgetControl(widget=self.hover, position="topright"))
        self.basemap_layer: L.TileLayer | None = None
        #: the prefectures' styles and labels, one message per redraw (the polygons keep their first style)
        self.painter = MapPainter(self.polygons, {k: getattr(self.polygons[1], k) for k in PAINT_KEYS},
                                  layers={"route": self.route_line} | {f"step{i}": m for i, m in enumerate(self.step_markers)},
                                  # every style of this map is public (owners, the route, the steps
                                  # the player to move may take): a style shown again is its number only
                                  keep_styles=True, leaflet_map=self.map,
                                  labels={p.code: _latlon(p.code) for p in japan().prefectures}, label_box=LABEL_BOX,
                                  titles=self._titles())
        super().__init__(children=[self.map, QuietPointer(self.map), self.painter], **kwargs)
        self._small = {code for code, shape in shapes.items() if shape.area < SMALL_AREA and code != 47}
        self.map.observe(self._refresh, names="zoom")
        # one redraw per change: legal steps, route and current player change only together
        # with ``version`` (the controller sets them in one batch), so observing them too
        # redrew the map three times per click (issue 11); ``screen`` says whether the game is drawn
        controller.observe(self._refresh, names=["version", "selected_prefecture", "lang", "screen"])
        controller.observe(lambda _: self._show_hover(), names="lang")
        self._followed: tuple | None = None
        controller.observe(self._follow_player, names="version")
        self.refresh()

    # ------------------------------------------------------------ events
    @staticmethod
    def _step_marker(i: int) -> L.Marker:
        return lean.Marker(location=[0, 0], visible=False, draggable=False, keyboard=False,
                        icon=lean.DivIcon(html=step_html(i + 1), icon_size=[18, 18], icon_anchor=[9, 22]))

    def _titles(self) -> dict[int, str]:
        """The labels' titles: the prefectures' names in the game's language."""
        return {p.code: pref_name(p.code, self.controller.lang) for p in japan().prefectures}

    def label_of(self, code: int) -> str:
        """The HTML of prefecture ``code``'s label as the page shows it (``""``: none)."""
        return self.painter.label(code)

    def label_point(self, code: int) -> list[float]:
        """Where prefecture ``code``'s label stands (``[lat, lon]``)."""
        return self.painter.label_point(code)

    def _clicker(self, code: int):
        def on_click(**_: Any) -> None:
            self.controller.click_prefecture(code)
        return on_click

    def _hoverer(self, code: int):
        def on_hover(**_: Any) -> None:
            self._hovered = code
            self._show_hover()
        return on_hover

    def _show_hover(self) -> None:
        if self._hovered:
            self.hover.value = f'<div class="cw-hover">{pref_name(self._hovered, self.controller.lang)}</div>'
            self.hover.layout.display = ""

    def _follow_player(self, _change: Any = None) -> None:
        """When a turn begins, bring the player's position into view (for a human zoomed in
        enough to click small prefectures such as Tokyo).  Done at the start of the turn,
        never after Roll: the map must not move while the player aims at it (issue 16)."""
        c = self.controller
        v = c.view
        if not v or c.screen != "game" or v["outcome"] is not None:
            return
        key = (c.game_key, v["turn"], v["current_player"])
        if key == self._followed:
            self._keep_in_view(v)
            return
        new_game = self._followed is None or self._followed[0] != c.game_key
        self._followed = key
        if new_game:  # a new or resumed game opens on every player's home
            self.show_codes([p["position"] for p in v["players"]] + [p["home"] for p in v["players"]])
            return
        zoom = max(self.map.zoom, 6) if c.human_to_act else self.map.zoom
        self.centre_on(v["players"][v["current_player"]]["position"], zoom=zoom)

    def _keep_in_view(self, v: dict) -> None:
        """Inside a turn: if where the action is (a CPU's pawn; the end of a human's route
        and its next legal steps) has left the visible map, pan to it (zoom kept).  Uses
        the map's bounds as the browser reports them; without a browser nothing moves."""
        c = self.controller
        position = v["players"][v["current_player"]]["position"]
        if c.human_to_act and v["phase"] == "route":
            here = v["route"][-1] if v["route"] else position
            codes = [here, *c.legal_steps]
        elif not c.human_to_act:
            codes = [position]
        else:
            return
        if not self.visible(codes):
            self.map.center = _latlon(codes[0])

    def visible(self, codes: list[int], margin: float = 0.08) -> bool:
        """Are these prefectures' label points inside the visible map (with a margin, as a
        share of the view)?  True when the browser has not reported the bounds yet."""
        bounds = self.map.bounds
        if not bounds or len(bounds) != 2:
            return True
        (s, w), (n, e) = bounds
        dy, dx = (n - s) * margin, (e - w) * margin
        return all(s + dy <= lat <= n - dy and w + dx <= lon <= e - dx for lat, lon in map(_latlon, codes))

    def show_codes(self, codes: list[int]) -> None:
        """Centre and zoom the map so that these prefectures are all in view (the homes
        at the start of a game).

        >>> from conquest_widget.games.japan_conquest.widget.controller import BoardModel
        >>> view = MapView(BoardModel())
        >>> view.show_codes([13, 27]); int(view.map.zoom), [round(x, 1) for x in view.map.center]
        (6, [35.1, 137.4])
        >>> view.show_codes([1, 47]); int(view.map.zoom)
        5
        """
        pts = [_latlon(code) for code in codes]
        lats, lons = [p[0] for p in pts], [p[1] for p in pts]
        span = max((max(lats) - min(lats)) * 1.3, max(lons) - min(lons)) + 1.0
        self.map.zoom = 7 if span <= 4 else 6 if span <= 9 else 5
        self.map.center = [(max(lats) + min(lats)) / 2, (max(lons) + min(lons)) / 2]

    def overview(self) -> None:
        """Fit the whole country."""
        self.map.fit_bounds(JAPAN_BOUNDS)

    def centre_on(self, code: int, zoom: int = 7) -> None:
        """Centre the map on a prefecture."""
        self.map.center = _latlon(code)
        self.map.zoom = zoom

    def set_basemap(self, on: bool) -> None:
        """Show or hide an online tile basemap (off by default: works offline), with the
        tile provider's attribution while it is shown.

        >>> from conquest_widget.games.japan_conquest.widget.controller import BoardModel
        >>> view = MapView(BoardModel())
        >>> view.set_basemap(True); [c.__class__.__name__ for c in view.map.controls][-1]
        'AttributionControl'
        >>> view.set_basemap(False); "AttributionControl" in str(view.map.controls)
        False
        """
        if on and self.basemap_layer is None:
            self.basemap_layer = L.basemap_to_tiles(L.basemaps.OpenStreetMap.Mapnik)
            self.basemap_layer.base = True
            self.map.layers = (self.basemap_layer,) + tuple(self.map.layers)
            # the tiles' attribution ("© OpenStreetMap contributors"), required by the tile policy
            self.basemap_attribution = L.AttributionControl(position="bottomright")
            self.map.add(self.basemap_attribution)
        elif not on and self.basemap_layer is not None:
            self.map.layers = tuple(layer for layer in self.map.layers if layer is not self.basemap_layer)
            self.basemap_layer = None
            self.map.remove(self.basemap_attribution)

    def set_preview(self, homes: dict[int, str]) -> None:
        """Setup screen: colour the chosen home prefectures."""
        self.preview = dict(homes)
        self.refresh()

    def style_of(self, code: int) -> dict[str, Any]:
        """The style prefecture ``code`` shows (its colours and border: what the page draws)."""
        return dict(self._styles[code])

    def set_overlay(self, styles: dict[int, dict] | None, legend: str | None = None) -> None:
        """Override the computed style of some prefectures (analysis overlays), with an
        optional legend (HTML) shown in the map's bottom-left corner.

        ``styles`` maps a prefecture code to style keys from ``STYLE_KEYS``; ``None`` (or
        ``{}``) removes the overlay.  Only the traits that change are sent::

            view.set_overlay({13: {"fill_color": "#ff0000", "fill_opacity": 0.9}}, legend="<b>Tokyo</b>")
            view.set_overlay(None)     # back to the game's own colours
        """
        overlay: dict[int, dict] = {}
        for code, style in (styles or {}).items():
            bad = set(style) - set(STYLE_KEYS)
            if bad:
                raise ConquestError(f"overlay style keys must be among {STYLE_KEYS}, got {sorted(bad)}")
            if code not in self.polygons:
                raise ConquestError(f"overlay for an unknown prefecture code {code!r} (expected 1-47)")
            overlay[int(code)] = dict(style)
        self._overlay = overlay
        self.set_legend(legend)
        self.refresh()

    def set_legend(self, legend: str | None) -> None:
        """Show an HTML legend on the map (``None`` or ``""`` hides it)."""
        if self.legend is None:
            if not legend:
                return
            self.legend = W.HTML("")
            self.legend.add_class("cw-legend")
            self.map.add(L.WidgetControl(widget=self.legend, position="bottomleft"))
        if self.legend.value != (legend or ""):
            self.legend.value = legend or ""
        display = "" if legend else "none"
        if self.legend.layout.display != display:
            self.legend.layout.display = display

    # ------------------------------------------------------------ rendering
    def _refresh(self, _change: Any = None) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Restyle what changed: polygons, labels, route, pawns (nothing once the map or
        one of its layers is closed: ``Widget.close_all`` closes them in any order)."""
        if self.map.comm is None or any(layer.comm is None for layer in self.map.layers):
            return
        c = self.controller
        v = c.view if c.screen == "game" and c.view else None
        board = japan()
        legal = set(c.legal_steps) if v is not None and c.human_to_act else set()
        route = list(c.route) if v is not None else []
        in_route = set(route)
        viewer = v["current_player"] if v is not None else -1
        restyled: dict[int, dict[str, Any]] = {}
        with self.painter.batch():  # shapes, labels, route, step badges and pawns: one message
            self._refresh_shapes(v, c, board, legal, in_route, viewer, restyled)
            self.painter.paint(restyled)
            self._draw_route(v, route)
            self._draw_pawns(v)

    def _refresh_shapes(self, v: dict | None, c: Any, board: Any, legal: set[int], in_route: set[int], viewer: int,
                        restyled: dict[int, dict[str, Any]]) -> None:
        for code in board.codes:
            if v is not None:
                info = v["prefectures"][str(code)]
                owner, level = info["owner"], info["level"]
                colour = v["players"][owner]["colour"] if owner is not None else None
            else:
                colour = self.preview.get(code)
                owner, level = (None, "neutral") if colour is None else (-2, "home")
            style = prefecture_style(colour, level, legal=code in legal, in_route=code in in_route,
                                     selected=code == c.selected_prefecture)
            if code in self._overlay:
                style = {**style, **self._overlay[code]}
            if style != self._styles[code]:
                restyled[code] = style | {"opacity": 1.0}
                self._styles[code] = style
            show_value = (owner is None or (v is not None and owner != viewer)) and (
                self.map.zoom >= DETAIL_ZOOM or code not in self._small)
            name = pref_name(code, c.lang) if self.map.zoom >= NAME_ZOOM else None
            html = label_html(board.prefectures[code - 1].base_value if show_value and level != "home" else None, level, name)
            self.painter.set_label(code, html)  # the page draws it; sent only if it changed
        self.painter.set_titles(self._titles())

    def _draw_route(self, v: dict | None, route: list[int]) -> None:
        paint = self.painter
        start = v["players"][v["current_player"]]["position"] if v is not None else 0
        locs = [_latlon(start)] + [_latlon(r) for r in route] if v is not None and route else []
        paint.set_layer("route", self.route_line, locations=locs)
        if len(route) > len(self.step_markers):
            self.step_markers += [self._step_marker(i) for i in range(len(self.step_markers), len(route))]
            self.step_layer.layers = tuple(self.step_markers)
        for i, m in enumerate(self.step_markers):
            if i < len(route):
                paint.set_layer(f"step{i}", m, location=_latlon(route[i]), visible=True)
            elif self.layer_attrs(f"step{i}", m).get("visible", m.visible):
                paint.set_layer(f"step{i}", m, visible=False)

    def layer_attrs(self, name: str, layer: L.Layer) -> dict[str, Any]:
        """What the page shows of a layer the map moves in one message with its restyle
        (``"route"``: the route line's ``locations``; ``"step<i>"``: step badge i's
        ``location`` and ``visible``; ``"pawn<seat>"``: a pawn's ``location``)."""
        return self.painter.layer_attrs(name, layer)

    def route_locations(self) -> list[list[float]]:
        """The route line's points as the page draws them."""
        return list(self.layer_attrs("route", self.route_line).get("locations", self.route_line.locations))

    def pawn_location(self, seat: int) -> list[float]:
        """Where seat ``seat``'s pawn stands on the page."""
        pawn = self.pawns[seat]
        return list(self.layer_attrs(f"pawn{seat}", pawn).get("location", pawn.location))

    def _draw_pawns(self, v: dict | None) -> None:
        old = self.pawns
        if v is None:
            if self.pawns:
                self.pawn_layer.layers = ()
                self.pawns = []
                for s, m in enumerate(old):  # a new game's pawns replace them: nothing of them stays open
                    self.painter.forget_layer(f"pawn{s}")
                    close_tree(m)
            return
        players = v["players"]
        if len(self.pawns) != len(players) or [m.name for m in self.pawns] != [p["name"] for p in players]:
            self.pawns = [
                lean.Marker(location=_latlon(p["position"]), draggable=False, keyboard=False, name=p["name"], title=p["name"],
                            z_index_offset=1000, icon=lean.DivIcon(html=player_icon_html(p["colour"], p["name"], s),
                                                                   icon_size=[26, 30], icon_anchor=[28 - 10 * s, 32]))
                for s, p in enumerate(players)
            ]
            for s in range(len(old)):  # the page moves the new pawns only
                self.painter.forget_layer(f"pawn{s}")
            for s, m in enumerate(self.pawns):  # their models' references go now, not with a move
                self.painter.set_layer(f"pawn{s}", m)
            self.pawn_layer.layers = tuple(self.pawns)
            for m in old:
                close_tree(m)
        for s, m in enumerate(self.pawns):
            loc = _latlon(players[s]["position"])
            if self.pawn_location(s) != loc:
                self.painter.set_layer(f"pawn{s}", m, location=loc)


__all__ = ["HIGHLIGHT", "MapView"]
