"""Widget models that cost less to send (issue 18: the first render).

A ``Layout`` has 39 CSS properties, and the front end's ``LayoutModel`` starts every one of
them at ``null``.  ``ipywidgets.Layout`` still sends all of them when its model is opened,
about 1 KB per Layout, nearly all of it ``null``.  The ``Layout`` here sends only the
properties that are set; a later change is sent as usual, ``None`` included.

A widget whose layout and style never change can share them with every such widget
(:func:`plain`, :func:`shared_layout`, :func:`shared_style`): each model not made is one less
to send.

>>> from conquest_widget.lean import Layout
>>> state = Layout(width="auto").get_state()
>>> state["width"], "height" in state, state["_model_name"]
('auto', False, 'LayoutModel')
>>> Layout(width="auto").get_state("height")  # a single property is always sent
{'height': None}
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import ipywidgets as W

__all__ = ["Layout", "page_file", "plain", "shared_layout", "shared_style"]


class Layout(W.Layout):
    """An ``ipywidgets.Layout`` whose full state leaves out unset CSS properties (the front
    end's defaults for them are the same ``null``)."""

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        state = super().get_state(key=key, drop_defaults=drop_defaults)
        if key is None:
            state = {k: v for k, v in state.items() if v is not None or k.startswith("_")}
        return state


_SHARED: dict[object, W.Widget] = {}


def page_file(path: Path | str) -> str:
    r"""The text of one of the package's page files (a ``.js`` ES module or a ``.css`` sheet
    for an anywidget's ``_esm`` / ``_css``), as sent to the page: without blank lines,
    whole-line ``//`` comments and indentation (it is sent with each widget's first render,
    issue 18).  The files keep no multi-line template literals or strings, which this would
    change.  A style sheet's ``/* */`` comments are left out too.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "m.js"
    >>> _ = f.write_text("// what it is\nexport default {\n  render({ el }) { el.textContent = 'a'; },\n};\n")
    >>> print(page_file(f))
    export default {
    render({ el }) { el.textContent = 'a'; },
    };
    """
    text = Path(path).read_text(encoding="utf-8")
    if str(path).endswith(".css"):
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)  # a style sheet's comments
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


def shared_style(widget_class: type[W.DOMWidget]) -> W.Widget:
    """One default style for every widget of ``widget_class`` (``W.HTML``, ``W.Button``...)
    that never changes its style: each widget's own default style is one more model sent
    to the front end (issue 18: the first render).  A closed one is replaced.

    >>> shared_style(W.HTML) is shared_style(W.HTML), type(shared_style(W.Button)).__name__
    (True, 'ButtonStyle')
    """
    cls = widget_class.class_traits()["style"].klass
    style = _SHARED.get(cls)
    if style is None or style.comm is None:
        style = _SHARED[cls] = cls()
    return style  # type: ignore[return-value]


def shared_layout(**traits: str) -> W.Layout:
    """One Layout per set of ``traits`` for every widget that never changes its layout (never
    for a widget that is shown and hidden: they would all show and hide at once).

    >>> shared_layout() is shared_layout(), shared_layout(width="auto") is shared_layout()
    (True, False)
    """
    key = ("layout", *sorted(traits.items()))
    layout = _SHARED.get(key)
    if layout is None or layout.comm is None:
        layout = _SHARED[key] = Layout(**traits)
    return layout  # type: ignore[return-value]


def plain(cls: type[W.Widget], **kwargs: object) -> W.Widget:
    """A widget of class ``cls`` whose layout and style are the shared defaults (unless
    given), for widgets whose layout and style never change after construction.

    >>> box = plain(W.HBox, children=[plain(W.HTML, value="a")])
    >>> box.layout is shared_layout(), box.children[0].style is shared_style(W.HTML)
    (True, True)
    """
    kwargs.setdefault("layout", shared_layout())
    if "style" in cls.class_traits() and "style" not in kwargs:
        kwargs["style"] = shared_style(cls)
    return cls(**kwargs)


def close_tree(widget: Any, keep: Iterable[Any] = ()) -> None:
    """Close ``widget`` and every widget reachable from its traits (children, map layers,
    layouts...) and from its own attributes (parts not shown now, caches), so nothing of a board drawn for one viewer stays alive in the kernel or
    the page; the shared layouts and styles of :func:`shared_layout` and
    :func:`shared_style` stay open (other widgets use them), and so do the widgets of
    ``keep`` with everything under them (a screen's parts that live on in the next one).

    >>> inner = W.HTML("kept"); box = W.VBox([W.HTML("gone"), inner])
    >>> close_tree(box, keep=[inner])
    >>> box.comm is None, box.children[0].comm is None, inner.comm is not None
    (True, True, True)
    """
    shared = {id(w) for w in _SHARED.values()} | {id(w) for w in keep}
    seen: set[int] = set()
    stack = [widget]
    while stack:
        w = stack.pop()
        if id(w) in seen or id(w) in shared or not isinstance(w, W.Widget):
            continue
        seen.add(id(w))
        for name in w.keys:
            _widgets_in(getattr(w, name, None), stack)
        # the parts a widget keeps in attributes of its own: a panel's pieces not shown
        # now, a cache of map icons, a screen built but not on screen
        for name, value in vars(w).items():
            if not name.startswith("_trait"):
                _widgets_in(value, stack)
        W.Widget.close(w)


def _widgets_in(value: Any, found: list[Any], depth: int = 0) -> None:
    """Add the widgets in ``value`` (a widget, or lists, tuples, sets and dicts of them,
    three levels deep) to ``found``."""
    if isinstance(value, W.Widget):
        found.append(value)
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _widgets_in(v, found, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for v in value.values():
            _widgets_in(v, found, depth + 1)
