"""The shell's log: the last lines of a match's events, newest first, as one front-end
widget that is sent only the lines that are new (issue 32: a lean wire); with the hot
seat's cover above them while the screen is passed on.

Each line is a key of the scene (``l<k>``: ``k`` the name of its event, ``<p>`` or
``<p>_<j>`` (``Match.event_keys_for``: the same in every seat's list for an event all
see), else its number in the game), the heading is ``h``; a move that adds one line sends
that line and drops the oldest shown, never the whole log again, and a change of viewer
in a hot seat sends only the lines of the events one viewer sees and the other does not.
The cover is ``c``, the name of the player the screen goes to, while it is up (absent
otherwise), and ``C`` its two texts ``[title, button]`` with ``{name}`` where the name goes
(in the scene from the first cover on: a hand-over sends the name only); the page writes
them (``{name}`` replaced by the name, as :meth:`LogView.cover` does), draws the cover
above the lines (``.cw-cover``, its button ``button.cw-uncover``, whose click comes back as
``uncover``) and hides the match's board beside it (the element of class
``cw-match-board`` in the same box, by ``log_view.css``: not shown, no height, its map
keeping its size), so that a move which hands the screen on sends the cover, the log and
nothing else in one message.  The page puts every text in with ``textContent`` (names are the players').

    >>> log = LogView()
    >>> log.show(["Ann draws", "Ben plays"], "Log")
    >>> log.lines()
    ['Ben plays', 'Ann draws']
    >>> log.show(["Ann draws", "Ben plays", "Ann ends"], "Log"); sorted(log.scene)
    ['h', 'l0', 'l1', 'l2', 'n']
    >>> log.show(["Ann draws"], "Log", cover=("Ben", "Pass the screen to {name}", "I am {name}"))
    >>> log.cover, log.uncover_label, log.scene["c"]
    ('Pass the screen to Ben', 'I am Ben', 'Ben')
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conquest_widget.lean import page_file
from conquest_widget.ui.scene import SceneWidget

_HERE = Path(__file__).parent

#: the most lines shown
LOG_LINES = 40


def line_order(key: str) -> tuple[int, int]:
    """Where the line of scene key ``l<p>`` or ``l<p>_<j>`` goes (as log_view.js sorts).

    >>> sorted(["l2", "l1_10", "l1_9", "l1"], key=line_order)
    ['l1', 'l1_9', 'l1_10', 'l2']
    """
    p, _, j = key[1:].partition("_")
    return int(p), int(j or 0)


class LogView(SceneWidget):
    """The log box (``.cw-log``): :meth:`show` the lines of the game so far."""

    _esm = SceneWidget.page_module(_HERE / "log_view.js")
    _css = page_file(_HERE / "log_view.css")
    #: lines a change of viewer hides go as their common beginnings (``l6_`` for l6_1, l6_2...)
    drop_prefixes = True

    def __init__(self, on_uncover: Callable[[], Any] | None = None, **kwargs: Any) -> None:
        self._lines: list[str] = []
        self._keys: list[str] | None = None
        self._head = ""
        self._cover: str | None = None
        self._cover_texts: list[str] | None = None
        self._on_uncover = on_uncover
        super().__init__(**kwargs)
        self.add_class("cw-log")

    def show(self, lines: list[str], head: str, cover: tuple[str, str, str] | None = None,
             keys: list[str] | None = None) -> None:
        """Show the last :data:`LOG_LINES` of ``lines`` (the game's, oldest first) under
        ``head``, below the cover ``(name, title, button)`` when one is given (the board is
        then hidden; the texts say ``{name}`` where the name goes); ``keys`` name the lines
        (``<p>`` or ``<p>_<j>``, increasing; else they are numbered); only what changed
        reaches the page, as one message."""
        self._lines, self._head = list(lines), head
        self._cover = cover[0] if cover else None
        if cover:
            self._cover_texts = [cover[1], cover[2]]
        self._keys = list(keys) if keys is not None and len(keys) == len(lines) else None
        self.redraw()

    def _cover_text(self, i: int) -> str:
        name, texts = self.scene.get("c"), self.scene.get("C")
        return str(texts[i]).replace("{name}", str(name)) if name and texts else ""

    @property
    def cover(self) -> str:
        """The cover's title the page shows, or "" (no cover)."""
        return self._cover_text(0)

    @property
    def uncover_label(self) -> str:
        """The cover's button as the page writes it, or "" (no cover)."""
        return self._cover_text(1)

    def click(self, target: str) -> bool:
        """The cover's button (``uncover``), when the cover is shown."""
        if target != "uncover" or not self.scene.get("c") or self._on_uncover is None:
            return False
        self._on_uncover()
        return True

    def draw_scene(self) -> dict[str, Any]:
        first = max(0, len(self._lines) - LOG_LINES)
        scene: dict[str, Any] = {"h": self._head}
        if self._cover_texts:
            scene["C"] = list(self._cover_texts)
        if self._cover:
            scene["c"] = self._cover
        keys = self._keys or [str(k) for k in range(len(self._lines))]
        scene.update({f"l{keys[k]}": self._lines[k] for k in range(first, len(self._lines))})
        return scene

    def lines(self) -> list[str]:
        """The lines shown, newest first (what the page shows)."""
        shown = sorted((line_order(k), v) for k, v in self.scene.items() if k.startswith("l"))
        return [v for _k, v in reversed(shown)]

    @property
    def text(self) -> str:
        """The log as shown: its heading, then its lines newest first, one per line."""
        return "\n".join([self._head, *self.lines()])
