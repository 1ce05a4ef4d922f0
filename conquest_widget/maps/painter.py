"""One message restyles a whole map (issue 32: a lean wire).

ipywidgets sends one message per changed widget, and every prefecture outline is a widget
(an ipyleaflet ``Polygon``): a move that restyles the route's shapes, the legal steps and
an owner's colour was one message per shape.  A :class:`MapPainter` is one
:class:`~conquest_widget.scene.SceneWidget` per map whose scene holds each restyled
shape's style (a shape at its base style is not in it): a restyle of any number of shapes
is one patch, and each shape's entry in it is the number of its style (a style is sent
once while shapes show it; the scene holds only what the page draws now).  In the page, ``painter.js`` sets those styles on the shapes' own models
there (``model.set``, never sent back), so jupyter-leaflet draws them as if the kernel had
set the traits — with Leaflet's own ``setStyle``, in every view of the map, a view made
later included — while the polygons' geometry, classes and clicks stay ipyleaflet's.

The polygons' traits in the kernel keep their first style; what a shape shows is the
painter's (:meth:`MapPainter.style_of`).

An :class:`OutlinedPolygon`'s outline is sent by the painter too, once, each ring as an
*encoded polyline* (Google's Encoded Polyline Algorithm, the ``polyline`` library; the page
decodes it in ``painter.js``): its ``locations`` are left out of the state sent when the
polygon opens.  The 47 prefecture outlines cost 12.7 KB instead of 63.2 KB of JSON points.

    >>> import ipyleaflet as L
    >>> base = {"fill_color": "#eeeeee", "fill_opacity": 0.75, "color": "#666666", "weight": 1,
    ...         "dash_array": None, "opacity": 1.0}
    >>> shapes = {13: L.Polygon(locations=[(35, 139), (36, 139), (36, 140)], **base)}
    >>> p = MapPainter(shapes, base)
    >>> p.paint({13: base | {"fill_color": "#ff0000"}}), p.scene["13"], p.scene["s1"]
    ([13], 1, ['#ff0000', 0.75, '#666666', 1, None, 1.0])
    >>> p.paint({13: base | {"fill_color": "#ff0000"}}), p.scene["n"]   # nothing changed: nothing sent
    ([], 1)
    >>> p.paint({13: base}), "13" in p.scene                           # back to its base style
    ([13], False)

A painter given ``labels`` (a point per key) and the map draws those labels itself: in the
page ``painter.js`` puts one Leaflet marker with a ``divIcon`` per label on the map (in its
marker pane, class ``leaflet-div-icon`` as an ipyleaflet ``DivIcon``'s, not interactive: a
click goes to the shape under it), so no marker or icon model is opened for them.  The
points, the icons' size and the labels' titles are sent once; each label's HTML (built and
escaped by the kernel) is a key of its own, ``h<key>``, sent when it changes and dropped
when the label is empty: a new text costs its HTML in the painter's message.

    >>> m = L.Map()
    >>> p = MapPainter(shapes, base, leaflet_map=m, labels={13: (35.69, 139.69)}, titles={13: "Tokyo"})
    >>> p.set_label(13, "<b>5</b>"), p.scene["h13"], p.label(13), p.scene["P"]
    (True, '<b>5</b>', '<b>5</b>', {'13': [35.69, 139.69]})
    >>> p.set_label(13, ""), "h13" in p.scene
    (True, False)

A map whose styles are a known, public set (one per owner and outline, say: nothing a
seat keeps secret) gives them as ``palette``: they are sent once, in the first scene
(``"S"``, style ``i`` being ``S[i - 1]``), and a shape that shows one costs only its number
in a move's message; a style not in it is sent as above.  ``label_class`` has the page put
each label's HTML in ``<div class='C C-<key>'>`` itself (``C`` the class), so that only
what is inside travels:

    >>> red = base | {"fill_color": "#ff0000"}
    >>> p = MapPainter(shapes, base, palette=[red], leaflet_map=m, labels={13: (35.69, 139.69)}, label_class="cw-label")
    >>> p.scene["S"], p.paint({13: red}), p.scene["13"], "s1" in p.scene
    ([['#ff0000', 0.75, '#666666', 1, None, 1.0]], [13], 1, False)
    >>> p.set_label(13, "<b>5</b>"), p.scene["h13"], p.label(13)
    (True, '<b>5</b>', "<div class='cw-label cw-label-13'><b>5</b></div>")

A map whose labels are made of a few public pieces (a mark, a count in a badge) gives them
as ``label_parts``: HTML fragments, each with at most one ``{}`` where a whole number goes,
sent once in the first scene (``"LP"``).  A label that is those parts joined by single
spaces is then sent as their numbers, each followed by the number in it where it has one
(:func:`encode_label`; the page puts the HTML together again, :func:`decode_label`); any
other label goes as its HTML:

    >>> p = MapPainter(shapes, base, leaflet_map=m, labels={13: (35.69, 139.69)}, label_parts=["<b>{}</b>", "⚔"])
    >>> p.set_label(13, "⚔ <b>12</b>"), p.scene["h13"], p.label(13), scene_labels(p.scene)
    (True, [1, 0, 12], '⚔ <b>12</b>', {13: '⚔ <b>12</b>'})
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import ipyleaflet as L
import polyline

from conquest_widget.lean import Layout
from conquest_widget.maps import lean
from conquest_widget.scene import SceneWidget

__all__ = ["STYLE_KEYS", "MapPainter", "OutlinedPolygon", "decode_label", "decode_locations", "encode_label",
           "encode_locations", "scene_labels"]

#: the style traits a painter sets, in the order of a scene entry's list
STYLE_KEYS = ("fill_color", "fill_opacity", "color", "weight", "dash_array", "opacity")
#: decimals of an encoded outline (0.001 degree: about 100 m, under a pixel up to zoom 9)
OUTLINE_DECIMALS = 3


def _is_ring(x: Any) -> bool:
    return bool(x) and isinstance(x[0], list | tuple) and bool(x[0]) and not isinstance(x[0][0], list | tuple)


def encode_locations(locations: Any, precision: int = OUTLINE_DECIMALS) -> Any:
    """ipyleaflet ``locations`` with each ring of [lat, lon] points replaced by its
    encoded-polyline text (the same nesting).

    >>> encode_locations([[[35.0, 139.0], [35.5, 139.25]]])
    ['ojcAonnGg^sN']
    >>> decode_locations(['ojcAonnGg^sN'])
    [[[35.0, 139.0], [35.5, 139.25]]]
    """
    if _is_ring(locations):
        return polyline.encode([(p[0], p[1]) for p in locations], precision)
    return [encode_locations(x, precision) for x in locations]


def decode_locations(encoded: Any, precision: int = OUTLINE_DECIMALS) -> Any:
    """The inverse of :func:`encode_locations` (what ``painter.js`` does in the page)."""
    if isinstance(encoded, str):
        return [list(p) for p in polyline.decode(encoded, precision)]
    return [decode_locations(x, precision) for x in encoded]


def _part_pattern(part: str) -> re.Pattern[str]:
    before, slot, after = part.partition("{}")
    return re.compile(re.escape(before) + ("(0|[1-9][0-9]{0,8})" if slot else "") + re.escape(after))


def encode_label(html: str, parts: Sequence[str]) -> str | list[int]:
    """``html`` as the numbers of the ``parts`` it is made of, joined by single spaces (a
    part's ``{}``: a whole number, which follows the part's number), when that is shorter;
    else ``html`` itself.

    >>> parts = ["<b class='n'>{}</b>", "🏯"]
    >>> encode_label("🏯 <b class='n'>12</b>", parts), encode_label("<i>x</i>", parts)
    ([1, 0, 12], '<i>x</i>')
    """
    out: list[int] = []
    patterns = [_part_pattern(p) for p in parts]
    pos = 0
    while html and pos <= len(html):
        for i, pattern in enumerate(patterns):
            m = pattern.match(html, pos)
            if m and (m.end() == len(html) or html[m.end()] == " "):
                out += [i, *(int(m.group(1)) for _ in m.groups())]
                pos = m.end() + 1
                break
        else:
            return html
    if not out or decode_label(out, parts) != html or len(json.dumps(out)) >= len(json.dumps(html, ensure_ascii=False)):
        return html
    return out


def decode_label(value: Any, parts: Sequence[str]) -> str:
    """A label as :func:`encode_label` gives it (a list of numbers, or the HTML) -> its
    HTML, as ``painter.js`` puts it together ("" for anything else).

    >>> decode_label([1, 0, 12], ["<b class='n'>{}</b>", "🏯"])
    "🏯 <b class='n'>12</b>"
    """
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        return ""
    out, i = [], 0
    while i < len(value):
        k = value[i]
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(parts):
            return ""
        part = str(parts[k])
        i += 1
        if "{}" in part:
            if i >= len(value) or not isinstance(value[i], int) or isinstance(value[i], bool):
                return ""
            part = part.replace("{}", str(value[i]), 1)
            i += 1
        out.append(part)
    return " ".join(out)


def scene_labels(scene: Mapping[str, Any]) -> dict[int, str]:
    """Every label a painter's scene shows (its ``h<key>`` keys), as the page draws it: the
    HTML put together from the label's parts (``LP``) and in its box (``W``).  What a test
    looking for a secret in the page reads."""
    parts = scene.get("LP") or []
    box = scene.get("W")
    out = {}
    for key, value in scene.items():
        if key[:1] == "h" and key[1:].isdigit() and (html := decode_label(value, parts)):
            out[int(key[1:])] = f"<div class='{box} {box}-{key[1:]}'>{html}</div>" if box else html
    return out


class OutlinedPolygon(lean.Polygon):
    """A polygon whose outline its map's :class:`MapPainter` sends, encoded (see the
    module): ``locations`` (the kernel's truth) is left out of the state sent when the
    polygon opens.  Give it to a painter, whose map it is on, with points of at most
    :data:`OUTLINE_DECIMALS` decimals."""

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        state = super().get_state(key=key, drop_defaults=drop_defaults)
        if key is None:
            state.pop("locations", None)
        return state


class MapPainter(SceneWidget):
    """The styles of a map's shapes, sent as one patch per restyle (see the module).

    ``shapes`` maps a key (a prefecture code) to its ``Polygon``; ``base`` is the style
    every shape was made with (the values of :data:`STYLE_KEYS`); ``css``, the map's
    stylesheet (the classes its labels use, from a ``.css`` file), goes to the page once;
    ``layers`` names other layers the map will place through :meth:`set_layer` (their
    models' references then go with the first scene, not with a move); ``keep_styles``
    keeps every style once sent in the scene (only for a map whose styles tell no secret:
    by default a style no shape shows any more leaves it).  ``labels`` (key -> ``[lat,
    lon]``) has the painter draw a label at each point on ``leaflet_map`` (see the
    module), ``label_box`` the labels' icon size and anchor in pixels (``[width, height,
    x, y]``), ``titles`` their titles (the markers' ``title``), ``label_parts`` the public
    pieces the labels are made of (see the module).  Put it in the displayed
    widget tree beside the map (it draws nothing of its own)."""

    _esm = SceneWidget.page_module(Path(__file__).with_name("painter.js"))

    def __init__(self, shapes: Mapping[int, L.Polygon], base: Mapping[str, Any], *, css: str = "",
                 layers: Mapping[str, L.Layer] | None = None, keep_styles: bool = False,
                 leaflet_map: L.Map | None = None, labels: Mapping[int, Sequence[float]] | None = None,
                 label_box: Sequence[int] = (44, 30, 22, 15), titles: Mapping[int, str] | None = None,
                 palette: Sequence[Mapping[str, Any]] = (), label_class: str = "",
                 label_parts: Sequence[str] = (), **kwargs: Any) -> None:
        #: the map's stylesheet (its labels' classes), sent once with the painter
        self._css = css
        self._refs = {str(k): f"IPY_MODEL_{poly.model_id}" for k, poly in shapes.items()}
        #: the outlines the page sets on the shapes (OutlinedPolygon), encoded
        self._outlines = {str(k): encode_locations(poly.locations) for k, poly in shapes.items()
                          if isinstance(poly, OutlinedPolygon)}
        base_values = [base[k] for k in STYLE_KEYS]
        #: the styles shown now, by number (0 = the base); a style no shape shows any more
        #: is dropped, so the scene holds only what the page draws now
        self._palette: dict[int, list[Any]] = {0: base_values}
        #: a map whose styles are all public (no shape's style tells a secret) keeps every
        #: style once sent, so that a style shown again costs its number only
        self._keep_styles = keep_styles
        self._index: dict[str, int] = {json.dumps(base_values): 0}
        #: the public styles given (``palette``): numbers 1.., sent once ("S"), never dropped
        self._public = [[style[k] for k in STYLE_KEYS] for style in palette]
        for i, values in enumerate(self._public, 1):
            self._palette[i] = values
            self._index.setdefault(json.dumps(values), i)
        self._next = len(self._public) + 1
        self._styles: dict[str, int] = {}
        #: other layers placed through the painter: name -> (model reference, attributes)
        self._layers: dict[str, tuple[str, dict[str, Any]]] = {
            name: (f"IPY_MODEL_{layer.model_id}", {}) for name, layer in (layers or {}).items()}
        #: the labels the page draws: their points, icon box and titles (sent once, the
        #: titles again if they change) and the HTML each shows (none: not in the dict)
        if labels and leaflet_map is None:
            raise ValueError("a painter that draws labels needs the map (leaflet_map=)")
        self._map_ref = f"IPY_MODEL_{leaflet_map.model_id}" if labels and leaflet_map is not None else ""
        self._points = {str(k): [float(x) for x in point] for k, point in (labels or {}).items()}
        self._box = [int(x) for x in label_box]
        self._titles = {str(k): str(t) for k, t in (titles or {}).items()}
        self._html: dict[str, str] = {}
        if label_class and not re.fullmatch(r"[A-Za-z0-9_-]+", label_class):
            raise ValueError(f"a label class is letters, digits, - and _: {label_class!r}")
        #: the class of the box the page puts each label's HTML in ("": none)
        self._label_class = label_class
        if any(part.count("{}") > 1 for part in label_parts):
            raise ValueError("a label part has one {} at most")
        #: the public pieces labels are made of (sent once; a label made of them goes as numbers)
        self._parts = [str(part) for part in label_parts]
        self._batch = 0
        self._dirty = False
        kwargs.setdefault("layout", Layout(display="none"))
        super().__init__(**kwargs)

    def draw_scene(self) -> dict[str, Any]:
        # "m": each shape's model, sent once; "o": the encoded outlines, sent once;
        # "s<i>": the styles shown, each sent once; then
        # one key per shape not at its base style: the number of its style
        # and "r<name>" / "a<name>": another layer's model (sent once) and the attributes set on it
        # (a line's points go as an encoded polyline, as the outlines do);
        # labels: "M" the map's model, "P" the points, "B" the icon box, "T" the titles (sent
        # once), "W" the class of the box each label's HTML goes in (none: not sent),
        # "h<key>" the HTML of each label that shows one ("LP": the public parts it may be
        # made of, sent once; such a label goes as their numbers, encode_label)
        labels: dict[str, Any] = {}
        if self._points:
            labels = {"M": self._map_ref, "P": self._points, "B": self._box, "T": self._titles}
            if self._label_class:
                labels["W"] = self._label_class
            if self._parts:
                labels["LP"] = self._parts
            labels |= {f"h{k}": encode_label(html, self._parts) if self._parts else html for k, html in self._html.items()}
        layers = {}
        for name, (ref, attrs) in self._layers.items():
            layers[f"r{name}"] = ref
            layers[f"a{name}"] = {k: encode_locations(v) if k == "locations" and _is_ring(v) else v
                                  for k, v in attrs.items()}
        public = {"S": self._public} if self._public else {}
        n = len(self._public)
        return ({"m": self._refs, "o": self._outlines} | public
                | {f"s{i}": style for i, style in self._palette.items() if i == 0 or i > n}
                | self._styles | layers | labels)

    def batch(self) -> _Batch:
        """``with painter.batch():`` every change inside is sent as one message at the end."""
        return _Batch(self)

    def _changed(self) -> None:
        if self._batch:
            self._dirty = True
        else:
            self.redraw()

    def set_layer(self, name: str, layer: L.Layer, **attrs: Any) -> bool:
        """Set attributes of another layer of the map (a marker's ``location`` or
        ``visible``, a line's ``locations``: a list of points, sent encoded with
        :data:`OUTLINE_DECIMALS` decimals) in the page, with the shapes' styles in the
        same message.  The layer's traits in the kernel keep their first values (read
        them with :meth:`layer_attrs`).  Returns whether anything changed."""
        ref = f"IPY_MODEL_{layer.model_id}"
        old_ref, old = self._layers.get(name, (ref, {}))
        new = old | attrs
        if old_ref == ref and new == old and name in self._layers:
            return False
        self._layers[name] = (ref, new)
        self._changed()
        return True

    def set_label(self, key: int, html: str) -> bool:
        """Have label ``key`` show ``html`` (escaped by the caller; ``""``: nothing), in the
        painter's message.  Returns whether it changed."""
        k = str(key)
        if k not in self._points:
            raise KeyError(f"no label {key!r} on this map")
        if self._html.get(k, "") == html:
            return False
        if html:
            self._html[k] = html
        else:
            del self._html[k]
        self._changed()
        return True

    def set_titles(self, titles: Mapping[int, str]) -> bool:
        """Give the labels these titles (all of them: one key, sent again whole).  Returns
        whether anything changed."""
        new = {str(k): str(t) for k, t in titles.items()}
        if new == self._titles:
            return False
        self._titles = new
        self._changed()
        return True

    def label(self, key: int) -> str:
        """The HTML label ``key`` shows in the page (``""``: none), in its box when the
        painter has a ``label_class``."""
        html = self._html.get(str(key), "")
        if html and self._label_class:
            c = self._label_class
            return f"<div class='{c} {c}-{key}'>{html}</div>"
        return html

    def label_title(self, key: int) -> str:
        """Label ``key``'s title."""
        return self._titles.get(str(key), "")

    def label_point(self, key: int) -> list[float]:
        """``[lat, lon]`` of label ``key``."""
        return list(self._points[str(key)])

    def layer_attrs(self, name: str, layer: L.Layer) -> dict[str, Any]:
        """What the page shows of ``layer``'s attributes set through :meth:`set_layer`,
        over its own traits."""
        ref, attrs = self._layers.get(name, ("", {}))
        return attrs if ref == f"IPY_MODEL_{layer.model_id}" else {}

    def forget_layer(self, name: str) -> None:
        """Stop placing layer ``name`` (it was closed)."""
        if self._layers.pop(name, None) is not None:
            self._changed()

    def style_of(self, key: int) -> dict[str, Any]:
        """The style shape ``key`` shows."""
        return dict(zip(STYLE_KEYS, self._palette[self._styles.get(str(key), 0)], strict=True))

    def paint(self, styles: Mapping[int, Mapping[str, Any]]) -> list[int]:
        """Give shapes these whole styles (every key of :data:`STYLE_KEYS`); one message
        for all the shapes that changed, none if none did.  Returns the keys changed."""
        changed = []
        for key, style in styles.items():
            k = str(key)
            if k not in self._refs:
                raise KeyError(f"no shape {key!r} on this map")
            values = [style[s] for s in STYLE_KEYS]
            text = json.dumps(values)
            index = self._index.get(text)
            if index is None:
                index = self._index[text] = self._next
                self._palette[index] = values
                self._next += 1
            if index == self._styles.get(k, 0):
                continue
            if index == 0:
                del self._styles[k]
            else:
                self._styles[k] = index
            changed.append(key)
        if changed and not self._keep_styles:
            used = set(self._styles.values())
            for index in [i for i in self._palette if i > len(self._public) and i not in used]:
                del self._index[json.dumps(self._palette.pop(index))]
        if changed:
            self._changed()
        return changed


class _Batch:
    def __init__(self, painter: MapPainter) -> None:
        self.painter = painter

    def __enter__(self) -> MapPainter:
        self.painter._batch += 1
        return self.painter

    def __exit__(self, *exc: object) -> None:
        p = self.painter
        p._batch -= 1
        if not p._batch and p._dirty:
            p._dirty = False
            p.redraw()
