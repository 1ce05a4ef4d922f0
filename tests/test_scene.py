"""The scene widgets' wire (``conquest_widget/scene.py`` and ``scene.js``): a widget that
sends the keys it drops together as prefixes (``drop_prefixes``) leaves the page holding
exactly the kernel's scene, nothing that was dropped (a hand-over's secrets) kept."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from page_runner import node

from conquest_widget.scene import SceneWidget, group_drops, read_message

# scene.js as sent, then a model that is given the first scene and each message
DRIVER = """
const [scene, messages] = JSON.parse(process.argv[2]);
const listeners = {};
const model = {
  _scene: scene,
  get(k) { return k === 'scene' ? this._scene : undefined; },
  set(k, v) { if (k === 'scene') this._scene = v; },
  on(ev, f) { (listeners[ev] = listeners[ev] || []).push(f); },
  off() {},
  send() {},
};
sceneInitialize(model);
for (const msg of messages) (listeners['msg:custom'] || []).forEach(f => f(msg));
console.log(JSON.stringify(model.get('scene')));
"""


class Panel(SceneWidget):
    _esm = SceneWidget.page_module()
    drop_prefixes = True
    shown: dict[str, Any] = {}

    def draw_scene(self) -> dict[str, Any]:
        return dict(self.shown)


def _random_scene(rng: random.Random) -> dict[str, Any]:
    names = ["a", "a0", "a1", "a2", "ab", "B", "Bplus", "Bminus", "Bend-turn", "g", "g0", "g1", "st", "st0", "st3",
             "st4", "l6_1", "l6_2", "l30_1", "k", "k1", "r13", "r19"]
    return {k: rng.randrange(3) for k in names if rng.random() < 0.5}


def test_drops_sent_as_prefixes_leave_the_page_with_the_kernels_scene(tmp_path: Path) -> None:
    rng = random.Random(32)
    w = Panel()
    first = dict(w.scene)
    sent: list[Any] = []
    w.send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    page = dict(first)
    used = 0
    for _ in range(300):
        w.shown = _random_scene(rng)
        w.redraw()
        msg = read_message(sent[-1]) if sent else None
        if msg is None or msg["patch"]["n"] != w.scene["n"]:
            continue
        used += bool(msg.get("*"))
        for key in msg.get("drop", []):
            del page[key]
        for prefix in msg.get("*", []):
            for key in [k for k in page if k.startswith(prefix)]:
                del page[key]
        page.update(msg["patch"])
        assert page == w.scene, msg
    assert used > 50  # prefixes were sent
    (tmp_path / "driver.mjs").write_text(w._esm + DRIVER, encoding="utf-8")
    proc = subprocess.run([node(), str(tmp_path / "driver.mjs"), json.dumps([first, sent])], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == w.scene


def test_a_prefix_is_sent_only_where_every_key_it_names_goes_or_is_written_again() -> None:
    old = {"a": 4, "a0": 1, "a1": 2, "a2": 3, "Bplus": 1, "Bminus": 0, "Bend": 1, "st0": 1, "st3": 2, "n": 7}
    keys, prefixes = group_drops(["a0", "a1", "a2", "Bplus", "Bminus", "st3"], old, {"a": 0, "n": 8})
    assert prefixes == ["a"] and keys == ["Bplus", "Bminus", "st3"]  # Bend stays: no "B"; "a" is written again
    assert group_drops(["a0"], old, {}) == (["a0"], [])
