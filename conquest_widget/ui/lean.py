"""Widget models that cost less to send (issue 18: the first render).

A ``Layout`` has 39 CSS properties, and the front end's ``LayoutModel`` starts every one of
them at ``null``.  ``ipywidgets.Layout`` still sends all of them when its model is opened,
about 1 KB per Layout, nearly all of it ``null``.  The ``Layout`` here sends only the
properties that are set; a later change is sent as usual, ``None`` included.

>>> from conquest_widget.ui.lean import Layout
>>> state = Layout(width="auto").get_state()
>>> state["width"], "height" in state, state["_model_name"]
('auto', False, 'LayoutModel')
>>> Layout(width="auto").get_state("height")  # a single property is always sent
{'height': None}
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

__all__ = ["Layout"]


class Layout(W.Layout):
    """An ``ipywidgets.Layout`` whose full state leaves out unset CSS properties (the front
    end's defaults for them are the same ``null``)."""

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        state = super().get_state(key=key, drop_defaults=drop_defaults)
        if key is None:
            state = {k: v for k, v in state.items() if v is not None or k.startswith("_")}
        return state
