"""A map's shapes restyled in one message (``conquest_widget/maps/painter.py``, issue 32):
the kernel sends one patch for any number of shapes, and the page module, run in Node.js
with models as the widget manager hands them out, leaves every shape's model with the
style the kernel says it shows; the map's labels are drawn by the page module too, each
label's HTML sent when it changes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import ipyleaflet as L
import pytest
from page_runner import node

from conquest_widget.maps.japan.board import japan
from conquest_widget.maps.japan.prefecture_map import BASE_STYLE, NAME_ZOOM, PrefectureMap, label_point
from conquest_widget.maps.painter import STYLE_KEYS, MapPainter, scene_labels
from conquest_widget.scene import read_message

# The page: the module's initialize() with a model whose widget manager hands out models
# (``getModel``, the driver's); each message of the kernel is delivered as jupyter-widgets
# does (msg:custom).  A driver puts its own lines before and after.
PAGE = """
const listeners = {};
const sent = [];
const model = {
  _scene: scene,
  get(k) { return k === 'scene' ? this._scene : undefined; },
  set(k, v) { if (k === 'scene') { this._scene = v; (listeners['change:scene'] || []).forEach(f => f()); } },
  on(ev, f) { (listeners[ev] = listeners[ev] || []).push(f); },
  off(ev, f) { listeners[ev] = (listeners[ev] || []).filter(g => g !== f); },
  send(m) { sent.push(m); },
  widget_manager: { get_model: async (id) => getModel(id) },
};
mod.initialize({ model });
const tick = () => new Promise(r => setTimeout(r, 0));
await tick();
for (const msg of messages) { (listeners['msg:custom'] || []).forEach(f => f(msg)); await tick(); }
"""

# Shapes that record what is set on them; then every shape's attributes are printed.
DRIVER = """
import mod from './painter.mjs';
const [scene, messages] = JSON.parse(process.argv[2]);
const shapes = {};
const getModel = (id) => (shapes[id] = shapes[id] || { id, attrs: {},
  set(o) { Object.assign(this.attrs, o); }, get(k) { return this.attrs[k]; } });
""" + PAGE + """
const out = {};
for (const [id, s] of Object.entries(shapes)) out[id] = s.attrs;
console.log(JSON.stringify({ shapes: out, sent }));
"""


def run_page(painter: MapPainter, scene: dict[str, Any], messages: list[dict[str, Any]], tmp_path: Path) -> dict[str, Any]:
    (tmp_path / "painter.mjs").write_text(painter._esm, encoding="utf-8")
    (tmp_path / "driver.mjs").write_text(DRIVER, encoding="utf-8")
    proc = subprocess.run([node(), str(tmp_path / "driver.mjs"), json.dumps([scene, messages])], capture_output=True,
                          text=True, timeout=60, check=False, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _shapes(n: int) -> dict[int, L.Polygon]:
    return {k: L.Polygon(locations=[(35, 130 + k), (36, 130 + k), (36, 131 + k)], **BASE_STYLE) for k in range(1, n + 1)}


def test_a_restyle_of_many_shapes_is_one_message_and_the_page_draws_it(tmp_path: Path) -> None:
    shapes = _shapes(4)
    painter = MapPainter(shapes, BASE_STYLE)
    first = dict(painter.scene)
    sent: list[dict[str, Any]] = []
    painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    red = BASE_STYLE | {"fill_color": "#d62728", "fill_opacity": 0.9}
    lit = BASE_STYLE | {"color": "#ffb000", "weight": 3}
    assert painter.paint({1: red, 2: lit, 3: lit}) == [1, 2, 3]
    # one message: the two styles (each once) and the three shapes' numbers
    assert len(sent) == 1 and set(read_message(sent[0])["patch"]) == {"s1", "s2", "1", "2", "3", "n"}
    assert painter.paint({1: red, 2: BASE_STYLE, 4: BASE_STYLE}) == [2]  # 2 back to its base; 1 and 4 unchanged
    assert len(sent) == 2 and read_message(sent[1])["drop"] == ["2"] and set(read_message(sent[1])["patch"]) == {"n"}
    assert painter.paint({3: BASE_STYLE}) == [3]  # nobody shows "lit" any more: it leaves the scene
    assert sorted(read_message(sent[2])["drop"]) == ["3", "s2"]
    page = run_page(painter, first, sent, tmp_path)
    assert page["sent"] == [{"have": 0}]  # the module says which scene it holds, once
    for k, poly in shapes.items():
        assert page["shapes"][poly.model_id] == {s: painter.style_of(k)[s] for s in STYLE_KEYS}, k
    assert painter.style_of(1)["fill_color"] == "#d62728" and painter.style_of(2) == {s: BASE_STYLE[s] for s in STYLE_KEYS}


def test_a_page_that_missed_a_patch_asks_for_the_scene(tmp_path: Path) -> None:
    shapes = _shapes(2)
    painter = MapPainter(shapes, BASE_STYLE)
    first = dict(painter.scene)
    sent: list[dict[str, Any]] = []
    painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    painter.paint({1: BASE_STYLE | {"fill_color": "#111111"}})
    painter.paint({2: BASE_STYLE | {"fill_color": "#222222"}})
    page = run_page(painter, first, sent[1:], tmp_path)  # the first patch was lost
    assert {"have": 0} in page["sent"]
    painter._on_page_msg(painter, {"have": 0}, None)  # the kernel answers with the whole scene
    page = run_page(painter, first, [sent[-1]], tmp_path)
    assert page["shapes"][shapes[1].model_id]["fill_color"] == "#111111"
    assert page["shapes"][shapes[2].model_id]["fill_color"] == "#222222"


def test_the_prefecture_map_restyles_through_its_painter() -> None:
    m = PrefectureMap(labels=False)
    sent: list[dict[str, Any]] = []
    m.painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    written: list[str] = []
    for poly in m.polygons.values():
        poly.observe(lambda ch: written.append(ch["name"]), names=list(STYLE_KEYS))
    assert m.apply_styles({c: {"fill_color": "#00ff00"} for c in range(1, 48)}) == list(range(1, 48))
    assert len(sent) == 1 and written == []  # 47 shapes, one message, no polygon model written
    assert m.style_of(13)["fill_color"] == "#00ff00"
    with pytest.raises(KeyError, match="no shape 48"):
        m.painter.paint({48: BASE_STYLE})


def test_the_scene_holds_only_what_is_shown_now() -> None:
    """A style no shape shows any more leaves the scene (a hot seat's next viewer's page
    keeps nothing of what the previous viewer was shown): two painters with different
    pasts, the same shapes shown now, hold the same styles."""
    secret = BASE_STYLE | {"fill_color": "#2ca02c", "weight": 4}
    a, b = MapPainter(_shapes(3), BASE_STYLE), MapPainter(_shapes(3), BASE_STYLE)
    a.paint({1: secret, 2: secret})
    a.paint({1: BASE_STYLE, 2: BASE_STYLE})
    a.paint({3: BASE_STYLE | {"color": "#ffb000"}})
    b.paint({3: BASE_STYLE | {"color": "#ffb000"}})
    assert "#2ca02c" not in json.dumps(a.scene)
    assert sorted(a.scene[k] for k in a.scene if k.startswith("s")) == sorted(b.scene[k] for k in b.scene if k.startswith("s"))


def test_other_layers_move_in_the_same_message(tmp_path: Path) -> None:
    """A route line's points and a badge's place are set on their models in the page, in
    the restyle's message; the layers' kernel traits keep their first values."""
    shapes = _shapes(2)
    painter = MapPainter(shapes, BASE_STYLE)
    line = L.Polyline(locations=[])
    badge = L.Marker(location=[0, 0], visible=False)
    first = dict(painter.scene)
    sent: list[dict[str, Any]] = []
    painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    with painter.batch():
        painter.paint({1: BASE_STYLE | {"color": "#1b1b1b"}})
        painter.set_layer("route", line, locations=[[35.0, 139.0], [36.0, 138.0]])
        painter.set_layer("step0", badge, location=[36.0, 138.0], visible=True)
    assert len(sent) == 1
    assert isinstance(read_message(sent[0])["patch"]["aroute"]["locations"], str)  # the line's points, encoded
    assert painter.set_layer("step0", badge, visible=True) is False and len(sent) == 1  # nothing new: nothing sent
    painter.set_layer("step0", badge, visible=False)
    assert len(sent) == 2 and read_message(sent[1])["patch"]["astep0"] == {"location": [36.0, 138.0], "visible": False}
    assert line.locations == [] and badge.visible is False  # the kernel's traits are untouched
    assert painter.layer_attrs("route", line) == {"locations": [[35.0, 139.0], [36.0, 138.0]]}
    page = run_page(painter, first, sent, tmp_path)
    assert page["shapes"][line.model_id] == {"locations": [[35.0, 139.0], [36.0, 138.0]]}
    assert page["shapes"][badge.model_id] == {"location": [36.0, 138.0], "visible": False}
    assert page["shapes"][shapes[1].model_id]["color"] == "#1b1b1b"
    painter.forget_layer("route")
    assert "aroute" not in painter.scene and "rroute" not in painter.scene


def test_the_outlines_reach_the_page_once_and_compact(tmp_path: Path) -> None:
    """A prefecture map's polygons open without their points; the painter sends every
    outline once, encoded, and the page sets on each polygon's model exactly the points the
    kernel's polygon holds (Tokyo's islands and Hokkaido's rings included)."""
    pm = PrefectureMap(labels=False, sea_links=False)
    painter = pm.painter
    for poly in pm.polygons.values():
        assert "locations" not in poly.get_state() and poly.get_state("locations")["locations"]
    points = json.dumps({c: p.locations for c, p in pm.polygons.items()})
    encoded = json.dumps(painter.scene["o"])
    assert len(encoded) < len(points) / 4, (len(encoded), len(points))
    page = run_page(painter, dict(painter.scene), [], tmp_path)
    for code, poly in pm.polygons.items():
        assert page["shapes"][poly.model_id]["locations"] == poly.locations, code
    # a restyle does not send the outlines again
    sent: list[dict[str, Any]] = []
    painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    pm.apply_styles({13: {"fill_color": "#d62728"}})
    assert len(sent) == 1 and "o" not in read_message(sent[0])["patch"] and len(json.dumps(sent[0])) < 200


# The page with Leaflet: ``window.L`` (jupyter-leaflet loads Leaflet so) makes markers and
# divIcons that record what they are given; the map's model hands out its views' Leaflet
# maps (``views``), the first at once or (``later``) only after every message, announced as
# jupyter-leaflet does when a view's map is drawn (its bounds change).  Prints, per Leaflet
# map, each label marker as the page shows it.
LABEL_DRIVER = """
import mod from './painter.mjs';
const [scene, messages, mapId, later] = JSON.parse(process.argv[2]);
globalThis.L = {
  divIcon: (options) => ({ options }),
  marker: (latlng, options) => ({ latlng, options: { ...options }, icons: 1,
    addTo(map) { map.layers.push(this); return this; },
    setIcon(icon) { this.options.icon = icon; this.icons += 1; return this; } }),
};
const leafletMaps = [{ layers: [] }, { layers: [] }];
const mapListeners = {};
const mapModel = { views: {}, on(events, f) { for (const e of events.split(' ')) (mapListeners[e] = mapListeners[e] || []).push(f); } };
const showView = (i) => { mapModel.views['v' + i] = Promise.resolve({ obj: leafletMaps[i] }); };
if (!later) showView(0);
const getModel = (id) => (id === mapId ? mapModel : { set() {}, get() {} });
""" + PAGE + """
showView(1);  // a view made later: drawn when its map reports its bounds
(mapListeners['change:north'] || []).forEach(f => f());
await tick();
console.log(JSON.stringify(leafletMaps.map(m => m.layers.map(x => ({
  point: x.latlng, html: x.options.icon.options.html, title: x.options.title, interactive: x.options.interactive,
  keyboard: x.options.keyboard, size: x.options.icon.options.iconSize, anchor: x.options.icon.options.iconAnchor,
  icons: x.icons })))));
"""


def run_labels(pm: PrefectureMap, scene: dict[str, Any], messages: list[dict[str, Any]], tmp_path: Path, *,
               later: bool = False) -> list[dict[str, dict[str, Any]]]:
    """Each Leaflet map's labels as the page draws them, by title."""
    (tmp_path / "painter.mjs").write_text(pm.painter._esm, encoding="utf-8")
    (tmp_path / "labels.mjs").write_text(LABEL_DRIVER, encoding="utf-8")
    proc = subprocess.run([node(), str(tmp_path / "labels.mjs"), json.dumps([scene, messages, pm.map.model_id, later])],
                          capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return [{marker["title"]: marker for marker in layers} for layers in json.loads(proc.stdout)]


def test_the_painter_draws_the_labels_and_a_new_text_costs_its_html(tmp_path: Path) -> None:
    """A prefecture map opens no model for its labels: the painter draws one marker per
    prefecture in the page (at its label point, titled with its name, taking no click).  The
    labels of any number of prefectures and the shapes' restyle are one message; a label's
    new text is that label's HTML alone in the painter's message (no model opened, the
    former text nowhere); an emptied label leaves the scene.  The page draws each label's
    HTML on every view of the map, a view made later included, one marker per label."""
    from ipywidgets.widgets.widget import _instances

    before = set(_instances)
    pm = PrefectureMap(sea_links=False)
    made = {type(w).__name__ for k, w in _instances.items() if k not in before}
    assert not made & {"Marker", "DivIcon"}, made  # no label model
    first = dict(pm.painter.scene)
    sent: list[dict[str, Any]] = []
    pm.painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    with pm.painter.batch():
        pm.apply_styles({13: {"fill_color": "#d62728"}})
        pm.set_labels({13: "<b>5</b>", 27: "<b>7</b>", 1: "<i>2</i>"})
    assert len(sent) == 1 and {"13", "h13", "h27", "h1"} <= set(read_message(sent[0])["patch"])
    opened = set(_instances)
    assert pm.set_labels({13: "<b>6</b>"}) == [13]
    assert set(_instances) == opened and len(sent) == 2
    assert read_message(sent[1]) == {"patch": {"h13": "<b>6</b>", "n": read_message(sent[1])["patch"]["n"]}}
    assert len(json.dumps(sent[1])) <= 50  # the new HTML and the redraw's number
    assert pm.set_labels({27: ""}) == [27] and read_message(sent[2])["drop"] == ["h27"]
    assert pm.set_labels({13: "<b>6</b>"}) == [] and len(sent) == 3  # nothing new: nothing sent
    assert "<b>5</b>" not in json.dumps(pm.painter.scene) and "<b>7</b>" not in json.dumps(pm.painter.scene)
    assert pm.label_of(13) == pm.label_shown(13) == "<b>6</b>" and pm.label_shown(27) == ""
    drawn, made_later = run_labels(pm, first, sent, tmp_path)  # a view at once; one made after every message
    only_later = run_labels(pm, first, sent, tmp_path, later=True)
    assert only_later[0] == {}
    for labels in (drawn, made_later, only_later[1]):
        assert len(labels) == 47
        for code in range(1, 48):
            label = labels[japan().prefecture(code).name_en]
            assert label["point"] == label_point(code) and label["html"] == pm.label_shown(code)
            assert label["interactive"] is False and label["keyboard"] is False
            assert label["size"] == [44, 30] and label["anchor"] == [22, 15]
    assert drawn["Tokyo"]["icons"] == 3 and made_later["Tokyo"]["icons"] == 1  # its icon again for each new text


def test_the_labels_follow_the_language_and_the_zoom(tmp_path: Path) -> None:
    """With names, a label is written under its prefecture's name from NAME_ZOOM on, in the
    map's language; the game's own text is kept."""
    pm = PrefectureMap(sea_links=False, names=True)
    pm.set_labels({13: "<b>5</b>"})
    assert pm.label_shown(13) == "<b>5</b>" and pm.label_shown(27) == ""
    pm.map.zoom = NAME_ZOOM
    assert "Tokyo" in pm.label_shown(13) and pm.label_shown(13).endswith("<b>5</b>") and "Osaka" in pm.label_shown(27)
    pm.set_lang("ja")
    assert "東京都" in pm.label_shown(13) and pm.label_of(13) == "<b>5</b>"


def test_a_map_of_public_styles_sends_a_style_once() -> None:
    """With keep_styles (a map whose styles tell no secret: Japan Conquest's), a style
    shown again is sent as its number only; by default it is sent again (the scene held
    only what was shown)."""
    lit = BASE_STYLE | {"color": "#ffb000", "weight": 3}
    for keep, resent in ((True, False), (False, True)):
        painter = MapPainter(_shapes(2), BASE_STYLE, keep_styles=keep)
        sent: list[dict[str, Any]] = []
        painter.send = lambda msg, buffers=None, sent=sent: sent.append(msg)  # type: ignore[method-assign]
        painter.paint({1: lit})
        painter.paint({1: BASE_STYLE})
        painter.paint({2: lit})
        assert any(k.startswith("s") for k in read_message(sent[2])["patch"]) is resent, keep
        assert painter.style_of(2) == dict(lit) and painter.style_of(1) == dict(BASE_STYLE)


def test_a_public_palette_is_sent_once_and_a_move_sends_numbers_only(tmp_path: Path) -> None:
    """A painter given its public ``palette`` sends those styles once, in the first scene
    (``S``): a shape that shows one, or goes back to the base, costs only its number in a
    move's message, the next move as the first (Japanese Risk's restyles); a style not in
    the palette is sent as before.  The page draws the palette's styles."""
    shapes = _shapes(3)
    red = BASE_STYLE | {"fill_color": "#d62728"}
    lit = BASE_STYLE | {"color": "#ffb000", "weight": 3}
    painter = MapPainter(shapes, BASE_STYLE, palette=[red, lit])
    first = dict(painter.scene)
    assert first["S"] == [[red[k] for k in STYLE_KEYS], [lit[k] for k in STYLE_KEYS]]
    sent: list[dict[str, Any]] = []
    painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    painter.paint({1: red, 2: lit})
    painter.paint({1: BASE_STYLE, 2: red, 3: lit})   # red and lit: shown again, no style sent
    painter.paint({3: BASE_STYLE})
    for msg in map(read_message, sent):
        assert not any(k[0] in "sS" for k in msg["patch"]) and not any(k[0] == "s" for k in msg.get("drop", ())), msg
    assert read_message(sent[1])["patch"] == {"2": 1, "3": 2, "n": 2} and read_message(sent[1])["drop"] == ["1"]
    other = BASE_STYLE | {"fill_color": "#123456"}
    painter.paint({3: other})                        # not in the palette: sent with its own number
    assert read_message(sent[-1])["patch"] == {"s3": [other[k] for k in STYLE_KEYS], "3": 3, "n": 4}
    page = run_page(painter, first, sent, tmp_path)
    for k, poly in shapes.items():
        assert page["shapes"][poly.model_id] == {s: painter.style_of(k)[s] for s in STYLE_KEYS}, k
    assert painter.style_of(2) == {s: red[s] for s in STYLE_KEYS}


def test_a_label_class_puts_each_label_in_its_box_in_the_page(tmp_path: Path) -> None:
    """With ``label_class``, only the label's own HTML travels (``h<code>``); the page puts
    it in ``<div class='C C-<code>'>`` (what ``label_shown`` says it shows); a class that is
    not a plain name is refused."""
    pm = PrefectureMap(sea_links=False, label_class="cw-label")
    first = dict(pm.painter.scene)
    sent: list[dict[str, Any]] = []
    pm.painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    pm.set_labels({13: "<b>5</b>", 27: "<b>7</b>"})
    pm.set_labels({27: ""})
    assert read_message(sent[0])["patch"]["h13"] == "<b>5</b>" and "cw-label" not in json.dumps(sent)
    assert pm.label_shown(13) == "<div class='cw-label cw-label-13'><b>5</b></div>" and pm.label_shown(27) == ""
    drawn, _later = run_labels(pm, first, sent, tmp_path)
    for code in range(1, 48):
        assert drawn[japan().prefecture(code).name_en]["html"] == pm.label_shown(code), code
    with pytest.raises(ValueError):
        MapPainter(_shapes(1), BASE_STYLE, label_class="x' onload='y")


def test_a_label_made_of_public_parts_goes_as_their_numbers_and_the_page_draws_it(tmp_path: Path) -> None:
    """With ``label_parts`` (sent once), a label that is those parts joined by spaces goes
    as their numbers and the numbers in them; any other label as its HTML.  The page puts
    the same HTML together (what ``label_shown`` and ``scene_labels`` say), a hostile label
    included; a part with two slots is refused."""
    parts = ["<span class='m'>⚔</span>", "<b class='a'>{}</b>", "<span class='c'>✋{}</span>"]
    pm = PrefectureMap(sea_links=False, label_class="cw-label", label_parts=parts)
    first = dict(pm.painter.scene)
    assert first["LP"] == parts
    sent: list[Any] = []
    pm.painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    hostile = "<img src=x onerror=alert(1)> <b class='a'>1</b>"
    pm.set_labels({13: "<span class='m'>⚔</span> <b class='a'>12</b> <span class='c'>✋3</span>",
                   27: "<b class='a'>0</b>", 1: hostile, 2: "<b class='a'>07</b>", 3: "<b class='a'>4</b> "})
    pm.set_labels({27: "<span class='c'>✋105</span>"})
    patch = read_message(sent[0])["patch"]
    assert patch["h13"] == [0, 1, 12, 2, 3] and patch["h27"] == [1, 0] and read_message(sent[1])["patch"]["h27"] == [2, 105]
    assert patch["h1"] == hostile and patch["h2"] == "<b class='a'>07</b>" and patch["h3"] == "<b class='a'>4</b> "
    assert len(json.dumps(sent[1])) < 30
    labels = scene_labels(pm.painter.scene)
    drawn, later = run_labels(pm, first, sent, tmp_path)
    for code in range(1, 48):
        assert drawn[japan().prefecture(code).name_en]["html"] == pm.label_shown(code) == labels.get(code, ""), code
        assert later[japan().prefecture(code).name_en]["html"] == pm.label_shown(code), code
    with pytest.raises(ValueError):
        MapPainter(_shapes(1), BASE_STYLE, label_parts=["{}{}"])
