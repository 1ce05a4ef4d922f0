"""A page's controller at a table (issue 28): the traits a game board draws from
(:class:`~conquest_widget.ui.controller.PublishedTraits`), fed by one seat's
:class:`~conquest_widget.tables.SeatClient`, so a board draws a table exactly as it draws
a match at one screen.

- It publishes only what its seat may know (the watch page: the public view).  There is no
  cover screen: each person has their own page.
- :meth:`TableController.act` applies an action in one store transaction.  When another page
  acted first, nothing is applied: the page catches up and says so (``message``).
- :meth:`TableController.poll` catches up with the other pages; in a kernel with a running
  event loop (a Voila page, JupyterLab) :meth:`TableController.start` calls it on a timer,
  so changes appear without a reload.  Each poll is one indexed read of the table's version.
- The timer's look survives what goes wrong in it: a store that cannot be read, a redraw
  (an observer of ``version``: the board, the page) that raises.  The page's ``message``
  names the problem, the next look tries again, and a change read but not yet drawn is
  published again until a redraw succeeds; the message goes at the first look that works.
- CPU seats are played by the one page holding the table's lease (its kernel); when that
  kernel dies, the lease expires and another page's kernel takes over.

    >>> import random, tempfile
    >>> from conquest_widget import tables
    >>> from conquest_widget.games.codex.engine import CodexMatch
    >>> store = tables.open_store(tempfile.mkdtemp())
    >>> new = tables.create_table(store, "codex", CodexMatch.random_setup(random.Random(1), 2), ["human", "human"], seed=3)
    >>> a, b = (TableController(tables.join(store, new.invites[s])) for s in (0, 1))
    >>> mover = a if a.legal else b
    >>> mover.act(mover.legal[0]); other = b if mover is a else a
    >>> other.poll(), other.view == tables.join(store, new.invites[other.viewer]).view()
    (True, True)
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Mapping
from typing import Any

from conquest_widget.core.protocol import Action
from conquest_widget.errors import IllegalActionError, SerializationError
from conquest_widget.tables import SeatClient, StaleTableError, TableClosedError
from conquest_widget.tables.store import store_errors
from conquest_widget.ui.controller import PublishedTraits

#: seconds between two looks at the store while a page is open
POLL_SECONDS = 0.25
#: seconds a CPU lease lasts without renewal (another kernel takes over after it)
LEASE_SECONDS = 10.0

MESSAGES = {
    "stale": ("Another player acted first: the board shows the game as it is now.",
              "ほかのプレイヤーが先に動きました。盤面を最新の状態にしました。"),
    "closed": ("This table is closed: no more moves can be made.", "このテーブルは閉じられました。もう手を指せません。"),
    "watch": ("This page watches the table: it cannot act.", "このページは観戦用です。手を指せません。"),
    "unreadable": ("The table cannot be read just now ({problem}); the page keeps trying.",
                   "テーブルを今は読めません（{problem}）。このページは読み直し続けます。"),
    "undrawn": ("The page could not be redrawn ({problem}); it tries again at its next look at the table.",
                "画面を描き直せませんでした（{problem}）。次にテーブルを見るときにもう一度描きます。"),
}

log = logging.getLogger(__name__)


def problem_text(exc: BaseException) -> str:
    """An exception as a page may name it: its type and the first line of its text."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:200] if text else type(exc).__name__


class TableController(PublishedTraits):
    """One page of a table (see the module docstring).  ``holder`` names this kernel for
    the CPU lease (a random id by default)."""

    def __init__(self, client: SeatClient, *, lang: str = "en", holder: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._client = client
        self.lang = lang
        self.holder = holder or uuid.uuid4().hex
        self._task: asyncio.Task | None = None
        #: a change read from the store (or made here) that the observers have not all drawn yet
        self._unpublished = False
        self._drawing = False  # inside _publish (a failure there is a redraw's)
        #: the message of the timer's last failed look (cleared at the first look that works)
        self._problem = ""
        self.viewer = client.seat
        self._cpus = any(s.kind == "cpu" for s in client.seats)
        self.play_cpus()
        self._publish()

    # ------------------------------------------------------------ reading
    @property
    def spec(self) -> Any:
        from conquest_widget.core import registry

        return registry.get(self._client.game)

    @property
    def table_id(self) -> str:
        return self._client.table_id

    @property
    def is_over(self) -> bool:
        return self._client.outcome() is not None

    def outcome(self) -> dict[str, Any] | None:
        return self._client.outcome()

    def _say(self, key: str) -> None:
        en, ja = MESSAGES[key]
        self.message = ja if self.lang == "ja" else en

    def _publish(self) -> None:
        c = self._client
        self._unpublished = self._drawing = True  # until every observer has drawn it
        self.view = c.view()
        self.legal = [a.to_dict() for a in c.legal()]
        self.events = c.events()
        self.version += 1
        self._unpublished = self._drawing = False

    # ------------------------------------------------------------ acting
    def act(self, action: Action | Mapping[str, Any]) -> None:
        """Apply this seat's action.  An illegal one is refused with a message (nothing
        applied); when another page acted first the page catches up and says so."""
        self.message = ""
        if self.viewer is None:
            self._say("watch")
            return
        try:
            self._client.act(action)
        except StaleTableError:
            self._client.refresh()
            self._say("stale")
        except TableClosedError:
            self._say("closed")
        except (IllegalActionError, SerializationError) as exc:
            self.message = self.refusal(exc)[:300]
        except store_errors() as exc:  # the store failed under the move (e.g. a connection lost at COMMIT)
            self._unpublished = True  # the timer's next look shows what the store has
            en, ja = MESSAGES["unreadable"]
            self._problem = (ja if self.lang == "ja" else en).format(problem=problem_text(exc))[:300]
            self._show(self._problem)  # cleared by the first look that works
            return
        self._unpublished = True  # drawn below, or by the timer's next look if this raises
        self.play_cpus()
        self._publish()

    def play_cpus(self) -> int:
        """Play the CPU seats' turns now if this kernel holds (or can take) the lease."""
        if not self._cpus or self.is_over:
            return 0
        return self._client.play_cpus(self.holder, ttl=LEASE_SECONDS)

    # ------------------------------------------------------------ live
    def poll(self) -> bool:
        """Catch up with the other pages (and play the CPUs if it is their turn): True
        when something changed.  A change read earlier whose publication raised (an
        observer's redraw) is published again."""
        changed = self._client.refresh()
        if changed:
            self._unpublished = True
        if self.play_cpus():
            changed = self._unpublished = True
        if self._unpublished:
            self._publish()
        return changed

    def look(self) -> None:
        """One look of the timer: :meth:`poll`, and whatever it raises is said in
        ``message`` (the store could not be read, or the page could not be redrawn) instead
        of ending the timer; the next look tries again, and the first one that works clears
        that message."""
        self._drawing = False
        try:
            self.poll()
        except Exception as exc:
            key = "undrawn" if self._drawing else "unreadable"
            self._drawing = False
            en, ja = MESSAGES[key]
            text = (ja if self.lang == "ja" else en).format(problem=problem_text(exc))[:300]
            if text != self._problem:  # logged once, not at every look while it lasts
                log.warning("table %s: a look at the table failed", self.table_id, exc_info=True)
            self._problem = text
            self._show(text)
            return
        if self._problem:
            if self.message == self._problem:
                self._show("")
            self._problem = ""

    def _show(self, message: str) -> None:
        """Set ``message``; an observer that raises while showing it is logged, not raised
        (the timer goes on)."""
        try:
            self.message = message
        except Exception:
            log.warning("table %s: the page could not show its message", self.table_id, exc_info=True)

    async def _poll_loop(self, every: float) -> None:
        while not self.is_over or self._unpublished:
            await asyncio.sleep(every)
            self.look()

    def start(self, every: float = POLL_SECONDS) -> bool:
        """Look at the store every ``every`` seconds in the running event loop (a page's
        kernel); False when no loop runs (call :meth:`poll` yourself)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._poll_loop(every))
        return True

    def stop(self) -> None:
        """Stop looking at the store (the page closes) and close the connection the store
        keeps (PostgreSQL; its next use opens a new one); the table goes on."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._client.store.disconnect()
