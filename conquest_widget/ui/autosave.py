"""One page's autosave of the game it shows: every app of the shell writes it the same way
(issue 29: one autosave path for all four games).

An :class:`Autosaver` owns the save store, the game id and the page's claim on the
autosave file (:class:`~conquest_widget.saves.AutosaveClaim`: another page of the same
save folder may take it, issue 31).  The app tells it when a game begins and when the
game changed; it writes:

- off the click -> visible update path (issue 18): inside an event loop (a kernel) the
  write runs :data:`AUTOSAVE_DELAY` seconds after the first unsaved change, once for all
  the changes in between; without a loop (a script, a test), or with ``deferred=False``,
  it is written at once;
- at once for a new or loaded game and for the end of a game, whose result is recorded
  once (a finished game is kept as the autosave or cleared, as the app chooses);
- what is pending, when the app calls :meth:`Autosaver.flush` (every path that leaves
  the game: Exit, Back to games, a new game, Resume, a slot, a replay) and at the
  interpreter's exit (``atexit``), so no change is lost on a crash-free exit.

When another page wrote the autosave meanwhile, nothing is written and ``on_elsewhere``
is called (the app says so and offers :meth:`Autosaver.reclaim`); a store error goes to
``on_error`` (each app words it its own way).  This module knows no game.

    >>> import random, tempfile
    >>> from conquest_widget.games.codex.engine import CodexMatch
    >>> from conquest_widget.saves import SaveStore
    >>> from conquest_widget.ui.controller import MatchController
    >>> store = SaveStore(tempfile.mkdtemp())
    >>> c = MatchController(CodexMatch(CodexMatch.random_setup(random.Random(1), 2), seed=3), humans={0, 1})
    >>> told = []
    >>> saver = Autosaver(store, "codex", lambda: c, on_elsewhere=lambda: told.append("elsewhere"))
    >>> saver.begin(); saver.write()                       # a new game: written at once
    >>> store.load_autosave("codex").to_dict() == c.document()
    True
    >>> other = Autosaver(store, "codex", lambda: c)       # a second page starts the same game
    >>> other.begin(); other.write()
    >>> saver.request()                                   # no event loop here: written at once, refused
    >>> told, saver.lost
    (['elsewhere'], True)
    >>> saver.reclaim(); saver.lost                       # "Autosave this game here"
    False
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from conquest_widget.errors import ConquestError
from conquest_widget.saves import AutosaveClaim, SaveStore

#: seconds between a change and its autosave inside a kernel: the write (about 15 ms for a
#: mid-game save) runs after the views are published, once for quick successive clicks
AUTOSAVE_DELAY = 0.4

#: autosavers that may hold a pending write, flushed at the interpreter's exit
_PENDING: weakref.WeakSet[Autosaver] = weakref.WeakSet()


class Saved(Protocol):
    """What an autosaver writes: an app's controller (it keeps its match to itself)."""

    @property
    def is_over(self) -> bool: ...

    def save(self, store: Any, slot: int | None = None, *, overwrite: bool = True, claim: Any = None) -> Any: ...

    def record_result(self, store: Any) -> bool: ...


@atexit.register
def _flush_pending() -> None:
    for saver in list(_PENDING):
        with contextlib.suppress(Exception):  # at exit, one page's problem must not stop the others
            saver.flush()


class Autosaver:
    """The autosave of ``game`` (a game id) in ``store`` for one page.

    ``source``: returns the controller of the game on screen (None: no game), asked at
    each write (:class:`Saved`: ``save(store, claim=...)``, ``record_result``, ``is_over``).
    ``keep_finished``: a finished game stays the autosave (written, then its result
    recorded); else its result is recorded and the autosave cleared if it is still this
    page's (another page's game stays).  ``on_elsewhere``: called when a write is refused
    because another page holds the autosave now.  ``on_error``: called with the
    :class:`~conquest_widget.errors.ConquestError` of a failed write (without it, raised).
    ``deferred``: write a change off the click path inside an event loop (else at once).
    A ``store`` of None writes nothing."""

    def __init__(self, store: SaveStore | None, game: str, source: Callable[[], Saved | None], *,
                 keep_finished: bool = False, deferred: bool = True, on_elsewhere: Callable[[], None] | None = None,
                 on_error: Callable[[ConquestError], None] | None = None) -> None:
        self.store = store
        self.game = game
        self.keep_finished = keep_finished
        self.deferred = deferred
        self.on_elsewhere = on_elsewhere or (lambda: None)
        self.on_error = on_error
        self._source = source
        #: this page's claim on the autosave (None before a game begins)
        self.claim: AutosaveClaim | None = None
        self._recorded = False
        self._handle: asyncio.TimerHandle | None = None
        _PENDING.add(self)

    def __repr__(self) -> str:
        return f"<Autosaver game={self.game!r} pending={self.pending} lost={self.lost}>"

    # ------------------------------------------------------------ the claim
    def claim_now(self) -> AutosaveClaim | None:
        """The autosave as it is now, for :meth:`begin`: take it *before* reading the
        autosave to continue it, so that a write by another page in between makes this
        page's first write a refused one, never a silent overwrite.  A pending write of
        the game shown is written first (the version is then this page's own)."""
        self.flush()
        return AutosaveClaim(self.store, self.game) if self.store is not None else None

    def begin(self, claim: AutosaveClaim | None = None) -> None:
        """A new or loaded game is shown: claim the autosave (``claim`` from
        :meth:`claim_now`, taken before reading it; else as it is now: a new game, a slot,
        a branch replace it).  A write still pending is dropped: leaving the game shown
        before flushes it (:meth:`flush`).  The caller writes the new game (:meth:`write`)."""
        self._cancel()
        self._recorded = False
        self.claim = claim or (AutosaveClaim(self.store, self.game) if self.store is not None else None)

    def watch(self) -> None:
        """A game nobody plays is shown (the CPUs' demo): it is not the autosave (the
        player's own autosave stays as it is) and its end records no result."""
        self._cancel()
        self.claim = None

    @property
    def lost(self) -> bool:
        """Has another page written the autosave since this page's last write?"""
        return self.claim is not None and self.claim.lost

    def reclaim(self) -> None:
        """Make this page's game the autosave again ("Autosave this game here": the other
        page is told at its next write) and write it."""
        if self.claim is None:
            return
        self.claim.reclaim()
        self.write()

    # ------------------------------------------------------------ writing
    def request(self) -> None:
        """The game changed: write it off the click path (see the module's docstring)."""
        if self.store is None or self._handle is not None:
            return  # nothing to write to, or a write is due that will include this change
        if not self.deferred:
            self.write()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.write()
            return
        self._handle = loop.call_later(AUTOSAVE_DELAY, self.flush)

    @property
    def pending(self) -> bool:
        """Is a write scheduled but not done yet?"""
        return self._handle is not None

    def flush(self) -> None:
        """Write a pending change now (nothing if none is pending)."""
        if self._handle is not None:
            self.write()

    def write(self) -> None:
        """Write the game now (a pending write included): the autosave, or at the end its
        result, recorded once per game begun."""
        self._cancel()
        c = self._source() if self.store is not None and self.claim is not None else None
        if c is None:
            return
        assert self.store is not None and self.claim is not None
        try:
            over = c.is_over
            if (not over or self.keep_finished) and c.save(self.store, claim=self.claim) is False:
                self.on_elsewhere()  # another page holds the autosave: nothing written
            if over and not self._recorded:
                c.record_result(self.store)  # idempotent in the store; once here
                self._recorded = True
                if not self.keep_finished:
                    self.claim.clear()  # the finished game is no longer the autosave; another page's stays
        except ConquestError as exc:
            if self.on_error is None:
                raise
            self.on_error(exc)

    def close(self) -> None:
        """Write what is pending; nothing is written after (the page goes away)."""
        self.flush()
        _PENDING.discard(self)
        self.claim = None

    def _cancel(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.cancel()
