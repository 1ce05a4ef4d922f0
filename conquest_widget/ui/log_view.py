"""The shell's log: the last lines of a match's events, newest first, as one front-end
widget that is sent only the lines that are new (issue 32: a lean wire).

Each line is a key of the scene (``l<k>``, ``k`` its number in the game), the heading is
``h``; a move that adds one line sends that line and drops the oldest shown, never the
whole log again.  The page puts the text in with ``textContent`` (names are the players').

    >>> log = LogView()
    >>> log.show(["Ann draws", "Ben plays"], "Log")
    >>> log.lines()
    ['Ben plays', 'Ann draws']
    >>> log.show(["Ann draws", "Ben plays", "Ann ends"], "Log"); sorted(log.scene)
    ['h', 'l0', 'l1', 'l2', 'n']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquest_widget.lean import page_file
from conquest_widget.ui.scene import SceneWidget

_HERE = Path(__file__).parent

#: the most lines shown
LOG_LINES = 40


class LogView(SceneWidget):
    """The log box (``.cw-log``): :meth:`show` the lines of the game so far."""

    _esm = SceneWidget.page_module(_HERE / "log_view.js")
    _css = page_file(_HERE / "log_view.css")

    def __init__(self, **kwargs: Any) -> None:
        self._lines: list[str] = []
        self._head = ""
        super().__init__(**kwargs)
        self.add_class("cw-log")

    def show(self, lines: list[str], head: str) -> None:
        """Show the last :data:`LOG_LINES` of ``lines`` (the game's, oldest first) under
        ``head``; only what changed reaches the page."""
        self._lines, self._head = list(lines), head
        self.redraw()

    def draw_scene(self) -> dict[str, Any]:
        first = max(0, len(self._lines) - LOG_LINES)
        scene: dict[str, Any] = {"h": self._head}
        scene.update({f"l{k}": self._lines[k] for k in range(first, len(self._lines))})
        return scene

    def lines(self) -> list[str]:
        """The lines shown, newest first (what the page shows)."""
        shown = sorted((int(k[1:]), v) for k, v in self.scene.items() if k.startswith("l"))
        return [v for _k, v in reversed(shown)]

    @property
    def text(self) -> str:
        """The log as shown: its heading, then its lines newest first, one per line."""
        return "\n".join([self._head, *self.lines()])
