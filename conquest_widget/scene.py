"""One front-end widget drawn from a small JSON *scene* that the kernel writes, sending
only what changed (issue 32: a lean wire).

A :class:`SceneWidget` subclass writes its scene in :meth:`~SceneWidget.draw_scene` (a
dict of JSON values, from what its viewer may see only) and calls
:meth:`~SceneWidget.redraw` after a change: the keys that changed are sent to the page as
one custom message ``{"patch": {...}, "drop": [...]}`` numbered by the redraw (``n``), and
nothing when nothing changed.  The trait ``scene`` keeps the whole scene for a page that
opens the model later; the page may not write it.  A page whose scene is not the one a
patch follows says so (``{"have": n}``) and gets the whole scene again.  A subclass that
sets ``drop_prefixes`` has the keys it drops together sent as their common beginnings
(``"*": [prefix, ...]``: every key of the page's scene that starts with one goes, before
the patch is merged; see :func:`group_drops`): a panel emptied at a hand-over drops a
dozen keys in a few bytes.  A click in the
page comes back as one message ``{"click": target}`` handled by :meth:`~SceneWidget.click`.

The page side is ``scene.js`` beside this file (``sceneInitialize``, ``sceneRender``,
``sceneNode``), put before the widget's own module (:meth:`SceneWidget.page_module`).

    >>> class Counter(SceneWidget):
    ...     _esm = SceneWidget.page_module()
    ...     count = 0
    ...     def draw_scene(self): return {"count": self.count}
    >>> w = Counter()
    >>> w.scene
    {'count': 0, 'n': 0}
    >>> w.count = 2; w.redraw(); w.scene
    {'count': 2, 'n': 1}
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

    def redraw(self) -> None:
        """Write the scene again and send the page the keys that changed (one message)."""
        new = self.draw_scene()
        old = self.scene
        patch = {k: v for k, v in new.items() if old.get(k) != v}
        drop = [k for k in old if k not in new and k != "n"]
        if not patch and not drop:
            return
        # the redraw's number: the page applies a patch only to the scene before it
        new["n"] = patch["n"] = old.get("n", 0) + 1
        # the trait keeps the whole scene (a page that opens the model later gets it all)
        # without sending it: the page gets only the patch
        self._trait_values["scene"] = new
        msg: dict[str, Any] = {"patch": patch}
        prefixes: list[str] = []
        if self.drop_prefixes and len(drop) > 1:
            drop, prefixes = group_drops(drop, old, patch)
        if drop:
            msg["drop"] = drop
        if prefixes:
            msg["*"] = prefixes
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
