"""Mouse moves over a map stay in the page (issue 18: every move lean, the click sooner).

jupyter-leaflet forwards every mouse event of a map and of the shape under the pointer to
the kernel, whether Python listens or not: moving the mouse across the map sends two
messages per ``mousemove`` event (dozens a second), the kernel answers each with a
busy/idle pair, and a click waits behind all of them.  Nothing in this package listens
to ``mousemove``.  :class:`QuietPointer` installs one listener in the page that keeps the
map's hover-only ``mousemove`` events (no button pressed) away from Leaflet; hovering a
shape (``mouseover``), clicks, and dragging the map (a button pressed) are unchanged.

A map view adds one (hidden) to its children::

    from conquest_widget.maps.quiet_pointer import QuietPointer
    box = W.VBox([leaflet_map, QuietPointer()])

In the page, ``window.__cwQuietPointer.kept`` counts the events kept from Leaflet.
"""

from __future__ import annotations

from typing import Any

import anywidget

from conquest_widget.ui.lean import Layout

__all__ = ["QuietPointer"]

_ESM = """function install() {
if (window.__cwQuietPointer) return;
const state = window.__cwQuietPointer = {kept: 0};
document.addEventListener('mousemove', (e) => {
if (e.buttons === 0 && e.target instanceof Element && e.target.closest('.leaflet-container')) {
e.stopPropagation(); state.kept += 1;
}
}, true);
}
export default { initialize() { install(); }, render() { install(); } };"""


class QuietPointer(anywidget.AnyWidget):
    """Keeps hover-only mouse moves over Leaflet maps in the page (see the module).

    >>> QuietPointer().layout.display
    'none'
    """

    _esm = _ESM

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("layout", Layout(display="none"))
        super().__init__(**kwargs)
