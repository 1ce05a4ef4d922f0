"""One front-end widget drawn from a small JSON *scene* that the kernel writes, sending
only what changed (issue 32: a lean wire).

A :class:`SceneWidget` subclass writes its scene in :meth:`~SceneWidget.draw_scene` (a
dict of JSON values, from what its viewer may see only) and calls
:meth:`~SceneWidget.redraw` after a change: the keys that changed are sent to the page as
one custom message ``[n, {key: value, ...}, [key, ...]]``: the redraw's number, the patch
and the keys dropped (left out when none); nothing when nothing changed.  (A list, not a
dict of named parts: the names were a tenth of a move's bytes; :func:`read_message` reads
one back as ``{"patch": {..., "n": n}, "drop": [...]}``.)  The trait ``scene`` keeps the
whole scene for a page that opens the model later; the page may not write it.  A page
whose scene is not the one a patch follows says so (``{"have": n}``) and gets the whole
scene again.  A subclass that sets ``drop_prefixes`` has the keys it drops together sent as
their common beginnings (a fourth item ``[prefix, ...]``: every key of the page's scene
that starts with one goes, before the patch is merged; see :func:`group_drops`): a panel
emptied at a hand-over drops a dozen keys in a few bytes.  A click in the page comes back
as one message ``{"click": target}`` handled by :meth:`~SceneWidget.click`.

The page side is ``scene.js`` beside this file (``sceneInitialize``, ``sceneRender``,
``sceneNode``), put before the widget's own module (:meth:`SceneWidget.page_module`).

    >>> class Counter(SceneWidget):
    ...     _esm = SceneWidget.page_module()
    ...     count = 0
    ...     def draw_scene(self): return {"count": self.count}
    >>> w = Counter()
    >>> w.scene
    {'count': 0, 'n': 0}
    >>> sent = []; w.send = sent.append
    >>> w.count = 2; w.redraw(); w.scene, sent
    ({'count': 2, 'n': 1}, [[1, {'count': 2}]])
    >>> read_message(sent[0])
    {'patch': {'count': 2, 'n': 1}}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from conquest_widget.lean import page_file

_HERE = Path(__file__).parent

#: the longest click target a page may send (anything longer is ignored)
MAX_TARGET = 40


def read_message(msg: Any) -> dict[str, Any] | None:
    """A patch as :meth:`SceneWidget.redraw` sends it (``[n, patch, drop, prefixes]``, the
    last two left out when empty) read as ``{"patch": {..., "n": n}, "drop": [...], "*":
    [prefix, ...]}`` (the parts present only): what ``scene.js`` merges.  None for another
    message (the whole scene again, a click).

    >>> read_message([4, {"a": 1}, [], ["b"]])
    {'patch': {'a': 1, 'n': 4}, '*': ['b']}
    """
    if not isinstance(msg, list) or len(msg) < 2 or not isinstance(msg[0], int) or not isinstance(msg[1], dict):
        return None
    out: dict[str, Any] = {"patch": {**msg[1], "n": msg[0]}}
    if len(msg) > 2 and msg[2]:
        out["drop"] = list(msg[2])
    if len(msg) > 3 and msg[3]:
        out["*"] = list(msg[3])
    return out


def group_drops(drop: list[str], old: dict[str, Any], patch: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The keys ``drop`` of scene ``old`` as ``(keys, prefixes)``: a prefix stands for every
    key of ``old`` that starts with it, so one is used only where each such key is dropped
    or written again by ``patch`` (the page deletes the prefixes' keys, then merges the
    patch), and only where it is shorter than the keys it names.

    >>> old = {"a": 3, "a0": 1, "a1": 2, "ab": 0, "b": 1, "st0": 1, "st3": 2, "st4": 3, "n": 4}
    >>> group_drops(["a0", "a1", "ab", "st3", "st4"], old, {"a": 0, "n": 5})
    (['st3', 'st4'], ['a'])
    """
    dropped = set(drop)
    keys = sorted(old)
    prefixes: list[str] = []
    covered: set[str] = set()
    for p in sorted({k[:i] for k in drop for i in range(1, len(k))}, key=lambda x: (len(x), x)):
        named = [k for k in keys if k.startswith(p)]
        new = [k for k in named if k in dropped and k not in covered]
        if len(new) < 2 or any(k not in dropped and k not in patch for k in named):
            continue
        if len(p) + 4 >= sum(len(k) + 4 for k in new):
            continue
        prefixes.append(p)
        covered.update(named)
    return [k for k in drop if k not in covered], prefixes


class SceneWidget(anywidget.AnyWidget):
    """A widget drawn in the page from ``scene`` (see the module docstring)."""

    #: what the page draws; after the first render only changed keys are sent (a patch)
    scene = traitlets.Dict().tag(sync=True)
    #: send the keys dropped together as their common beginnings (:func:`group_drops`)
    drop_prefixes = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(scene=self.draw_scene() | {"n": 0}, **kwargs)
        self.on_msg(self._on_page_msg)

    @staticmethod
    def page_module(*files: Path) -> str:
        """The ES module of a scene widget: ``scene.js`` followed by ``files`` (the
        widget's own module, which has the ``export default``)."""
        return "\n".join(page_file(f) for f in (_HERE / "scene.js", *files))

    def draw_scene(self) -> dict[str, Any]:
        """The scene to draw now (subclasses; JSON values only, never another seat's secret)."""
        return {}

    def click(self, target: str) -> bool:
        """A click on ``target`` in the page (subclasses); True if it did something."""
        return False

    def redraw(self, always: bool = False) -> None:
        """Write the scene again and send the page the keys that changed (one message;
        none when nothing changed, unless ``always``: then the new number at least)."""
        new = self.draw_scene()
        old = self.scene
        patch = {k: v for k, v in new.items() if old.get(k) != v}
        drop = [k for k in old if k not in new and k != "n"]
        if not patch and not drop and not always:
            return
        # the redraw's number: the page applies a patch only to the scene before it
        new["n"] = n = old.get("n", 0) + 1
        # the trait keeps the whole scene (a page that opens the model later gets it all)
        # without sending it: the page gets only the patch
        self._trait_values["scene"] = new
        prefixes: list[str] = []
        if self.drop_prefixes and len(drop) > 1:
            drop, prefixes = group_drops(drop, old, {**patch, "n": n})
        msg: list[Any] = [n, patch]
        if drop or prefixes:
            msg.append(drop)
        if prefixes:
            msg.append(prefixes)
        self.send(msg)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """The page may not write the scene (it is the kernel's; the page only merges the
        kernel's patches into its own copy)."""
        super().set_state({k: v for k, v in sync_data.items() if k != "scene"})

    def _on_page_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """``{"click": target}``: a click; ``{"have": n}``: the page holds the scene of
        redraw ``n``; the whole scene is sent again if that is not the latest.  Anything
        else is ignored."""
        if not isinstance(content, dict):
            return
        target = content.get("click")
        if isinstance(target, str) and len(target) <= MAX_TARGET:
            self.click(target)
        elif "have" in content and content["have"] != self.scene.get("n"):
            self.send({"scene": self.scene})
