"""One front-end widget drawn from a small JSON *scene* that the kernel writes, sending
only what changed (issue 32: a lean wire).

A :class:`SceneWidget` subclass writes its scene in :meth:`~SceneWidget.draw_scene` (a
dict of JSON values, from what its viewer may see only) and calls
:meth:`~SceneWidget.redraw` after a change: the keys that changed are sent to the page as
one custom message ``{"patch": {...}, "drop": [...]}`` numbered by the redraw (``n``), and
nothing when nothing changed.  The trait ``scene`` keeps the whole scene for a page that
opens the model later; the page may not write it.  A page whose scene is not the one a
patch follows says so (``{"have": n}``) and gets the whole scene again.  A click in the
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


class SceneWidget(anywidget.AnyWidget):
    """A widget drawn in the page from ``scene`` (see the module docstring)."""

    #: what the page draws; after the first render only changed keys are sent (a patch)
    scene = traitlets.Dict().tag(sync=True)

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
        if drop:
            msg["drop"] = drop
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
