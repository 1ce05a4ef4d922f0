"""A map's shapes restyled in one message (``conquest_widget/maps/painter.py``, issue 32):
the kernel sends one patch for any number of shapes, and the page module, run in Node.js
with models as the widget manager hands them out, leaves every shape's model with the
style the kernel says it shows."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import ipyleaflet as L
import pytest
from page_runner import node

from conquest_widget.maps.japan.prefecture_map import BASE_STYLE, PrefectureMap
from conquest_widget.maps.painter import STYLE_KEYS, MapPainter

# The page: the module's initialize() with a model whose widget manager hands out shape
# models (they record what is set on them); each message of the kernel is delivered as
# jupyter-widgets does (msg:custom), then every shape's attributes are printed.
DRIVER = """
import mod from './painter.mjs';
const [scene, messages] = JSON.parse(process.argv[2]);
const listeners = {};
const shapes = {};
const sent = [];
const model = {
  _scene: scene,
  get(k) { return k === 'scene' ? this._scene : undefined; },
  set(k, v) { if (k === 'scene') { this._scene = v; (listeners['change:scene'] || []).forEach(f => f()); } },
  on(ev, f) { (listeners[ev] = listeners[ev] || []).push(f); },
  off(ev, f) { listeners[ev] = (listeners[ev] || []).filter(g => g !== f); },
  send(m) { sent.push(m); },
  widget_manager: { get_model: async (id) => (shapes[id] = shapes[id] || { id, attrs: {}, drawn: 0,
    set(o) { Object.assign(this.attrs, o); }, get(k) { return this.attrs[k]; },
    trigger(ev) { if (ev === 'change:icon') this.drawn += 1; } }) },
};
mod.initialize({ model });
const tick = () => new Promise(r => setTimeout(r, 0));
await tick();
for (const msg of messages) { (listeners['msg:custom'] || []).forEach(f => f(msg)); await tick(); }
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
    assert len(sent) == 1 and set(sent[0]["patch"]) == {"s1", "s2", "1", "2", "3", "n"}
    assert painter.paint({1: red, 2: BASE_STYLE, 4: BASE_STYLE}) == [2]  # 2 back to its base; 1 and 4 unchanged
    assert len(sent) == 2 and sent[1]["drop"] == ["2"] and set(sent[1]["patch"]) == {"n"}
    assert painter.paint({3: BASE_STYLE}) == [3]  # nobody shows "lit" any more: it leaves the scene
    assert sorted(sent[2]["drop"]) == ["3", "s2"]
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
    assert isinstance(sent[0]["patch"]["aroute"]["locations"], str)  # the line's points, encoded
    assert painter.set_layer("step0", badge, visible=True) is False and len(sent) == 1  # nothing new: nothing sent
    painter.set_layer("step0", badge, visible=False)
    assert len(sent) == 2 and sent[1]["patch"]["astep0"] == {"location": [36.0, 138.0], "visible": False}
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
    assert len(sent) == 1 and "o" not in sent[0]["patch"] and len(json.dumps(sent[0])) < 200


def test_labels_switch_icons_in_the_restyles_message(tmp_path: Path) -> None:
    """A label's first text gets it an icon of its own; on a prefecture map the labels of
    any number of prefectures and the shapes' restyle are one message; a later text
    rewrites the icon's HTML through the painter (no icon opened, the former text nowhere),
    and the page draws the marker's icon again; the markers' and icons' traits in the kernel
    follow without messages of their own."""
    from ipywidgets.widgets.widget import _instances

    pm = PrefectureMap(sea_links=False)
    first = dict(pm.painter.scene)
    sent: list[dict[str, Any]] = []
    pm.painter.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    own: list[Any] = []
    for marker in pm.labels.values():
        marker.send = lambda msg, buffers=None: own.append(msg)  # type: ignore[method-assign]
    with pm.painter.batch():
        pm.apply_styles({13: {"fill_color": "#d62728"}})
        pm.set_labels({13: "<b>5</b>", 27: "<b>7</b>"})
    assert len(sent) == 1 and own == []
    assert pm.labels[13].icon.html == "<b>5</b>" and pm.label_of(27) == "<b>7</b>"
    icon = pm.labels[13].icon
    icon.send = lambda msg, buffers=None: own.append(msg)  # type: ignore[method-assign]
    before = set(_instances)
    pm.set_labels({13: "<b>6</b>"})                 # the same icon, its HTML rewritten
    assert set(_instances) == before and pm.labels[13].icon is icon and icon.html == "<b>6</b>"
    assert len(sent) == 2 and own == [] and sent[1]["patch"]["al13"]["html"] == "<b>6</b>"
    assert "<b>5</b>" not in json.dumps(pm.painter.scene) and "<b>5</b>" not in json.dumps(icon.get_state())
    page = run_page(pm.painter, first, sent, tmp_path)
    assert page["shapes"][pm.labels[13].model_id]["icon"]["id"] == icon.model_id
    assert page["shapes"][icon.model_id]["html"] == "<b>6</b>"
    assert page["shapes"][pm.labels[27].model_id]["icon"]["id"] == pm.labels[27].icon.model_id


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
        assert any(k.startswith("s") for k in sent[2]["patch"]) is resent, keep
        assert painter.style_of(2) == dict(lit) and painter.style_of(1) == dict(BASE_STYLE)
