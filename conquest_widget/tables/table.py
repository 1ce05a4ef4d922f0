"""Tables from Python: create one for any registered game, join a seat by its key, act, and
let one process play the CPU seats.

    >>> import random, tempfile
    >>> from conquest_widget.games.codex.engine import CodexMatch
    >>> store = open_store(tempfile.mkdtemp())
    >>> new = create_table(store, "codex", CodexMatch.random_setup(random.Random(1), 2), ["human", "human"], seed=3)
    >>> ann, ben = join(store, new.invites[0]), join(store, new.invites[1])
    >>> ann.seat, ben.seat, join(store, new.watch).seat       # the watch key sees the public view
    (0, 1, None)
    >>> seat = ann.to_act()[0]; me = (ann, ben)[seat]
    >>> me.act(me.legal()[0])                                 # one transaction, checked against the version seen
    >>> other = (ann, ben)[1 - seat]
    >>> other.version < me.version, other.refresh(), other.version == me.version
    (True, True, True)

A page sees only ``view(seat)`` and ``events(seat)``: the match is kept here, never handed
out.  Seat keys are random (128 bits); the store keeps only their SHA-256.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
import uuid
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conquest_widget.core import registry
from conquest_widget.core.bots import decision
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE, Action
from conquest_widget.errors import IllegalActionError, SerializationError, SetupError

from .errors import StaleTableError, TableError
from .store import PostgresStore, SeatRow, SQLiteStore, SQLStore, TableRow

#: the file of the default store, in the app's data folder
STORE_FILE = "tables.sqlite3"
#: the environment variable naming the store (a PostgreSQL URL or a path)
STORE_ENV = "CONQUEST_TABLES_STORE"
#: bits of randomness in a seat key
KEY_BYTES = 16
HUMAN = "human"


def key_hash(key: str) -> str:
    """What the store keeps of a key (its SHA-256, hex)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def open_store(where: str | Path | None = None) -> SQLStore:
    """The table store at ``where``: a PostgreSQL URL (``postgresql://user@host/db``), a
    ``.sqlite3`` file, or a data folder (its ``tables.sqlite3``); created when absent.
    None reads the ``CONQUEST_TABLES_STORE`` environment variable, else the app's data
    folder ``conquest_saves``."""
    if where is None:
        where = os.environ.get(STORE_ENV) or "conquest_saves"
    if isinstance(where, str) and where.startswith(("postgresql://", "postgres://")):
        return PostgresStore(where)
    path = Path(where)
    return SQLiteStore(path if path.suffix in (".sqlite3", ".db") else path / STORE_FILE)


@dataclass(frozen=True)
class NewTable:
    """A table just created: its id and the keys of its links, shown once (the store
    keeps only their hashes).  ``invites`` has a key per human seat; ``watch`` the key of
    the public view."""

    id: str
    invites: Mapping[int, str]
    watch: str


def create_table(store: SQLStore, game: str, setup: Any, seats: Sequence[str], *, seed: int | None = None,
                 title: str = "") -> NewTable:
    """A new table of ``game`` with ``setup`` (the engine's setup object or its dict) and
    one entry per seat: ``"human"`` or the label of one of the game's bots."""
    spec = registry.get(game)
    if spec.engine is None:
        raise TableError(f"{spec.title['en']} has no engine yet")
    engine = spec.engine_class()
    if isinstance(setup, Mapping):
        setup = engine.setup_class.from_dict(dict(setup))
    return table_from_match(store, engine(setup, seed=seed), seats, title=title)


def table_from_match(store: SQLStore, match: Match, seats: Sequence[str], *, title: str = "") -> NewTable:
    """A new table that goes on from ``match`` (a new match, a saved game, or one made for
    a lesson or a test): its setup, seed and log as they are; ``seats`` as for
    :func:`create_table`."""
    game = match.spec.id
    spec = registry.get(game)
    if match.outcome() is not None:
        raise TableError("this match is over: there is nothing left to play at a table")
    if len(seats) != match.n_seats:
        raise SetupError(f"the setup has {match.n_seats} seats, but {len(seats)} seat kinds were given")
    bots = spec.bots_module().BOTS
    for kind in seats:
        if kind != HUMAN and kind not in bots:
            raise SetupError(f"{kind!r} is neither 'human' nor a bot of {game} ({', '.join(bots)})"[:300])
    doc = match.to_dict()
    invites = {s: secrets.token_urlsafe(KEY_BYTES) for s, kind in enumerate(seats) if kind == HUMAN}
    watch = secrets.token_urlsafe(KEY_BYTES)
    row = TableRow(id=uuid.uuid4().hex, game=game, game_version=doc["version"], setup=doc["setup"], seed=doc["seed"],
                   created_at=time.time(), version=len(doc["log"]), status="open", title=str(title)[:200])
    store.insert_table(row, [(SeatRow(s, HUMAN if kind == HUMAN else "cpu", None if kind == HUMAN else kind),
                              key_hash(invites[s]) if s in invites else None) for s, kind in enumerate(seats)],
                       key_hash(watch), doc["log"])
    return NewTable(row.id, invites, watch)


def list_tables(store: SQLStore, *, status: str | None = None) -> list[TableRow]:
    """Every table of the store (``status``: "open", "over" or "closed" to filter)."""
    return store.tables(status=status)


def close_table(store: SQLStore, table_id: str) -> None:
    """Close a table: it keeps its log; nobody can act any more."""
    store.close(table_id)


def join(store: SQLStore, key: str) -> SeatClient:
    """The seat a key opens (a watch key opens the public view)."""
    if not isinstance(key, str) or not 8 <= len(key) <= 200:
        raise TableError("not a table key (check the link)")
    table_id, seat = store.find_key(key_hash(key))
    return SeatClient(store, table_id, seat)


class SeatClient:
    """One page at a table: what ``seat`` may see (None = the public), and its actions.

    It keeps the match privately, at the version it last read; :meth:`refresh` catches up
    with what other pages did; :meth:`act` applies an action in one store transaction
    checked against that version."""

    def __init__(self, store: SQLStore, table_id: str, seat: int | None) -> None:
        self.store = store
        self.table_id = table_id
        self.seat = seat
        row = store.table(table_id)
        self.game = row.game
        self._engine: type[Match] = registry.get(row.game).engine_class()
        self._match = self._engine.from_dict({"game": row.game, "version": row.game_version, "setup": row.setup,
                                              "seed": row.seed, "log": store.log(table_id)})
        self.seats = store.seats(table_id)

    # ------------------------------------------------------------ reading
    @property
    def version(self) -> int:
        """The version this page shows (the number of log entries it has applied)."""
        return len(self._match.log)

    def refresh(self) -> bool:
        """Catch up with the store; True when something changed."""
        new = self.store.log(self.table_id, since=self.version)
        if not new:
            return False
        m = self._match
        before = len(m.log)
        m.chance.forced = deque(e["outcome"] for e in new if e["seat"] == CHANCE)
        for e in new:
            if e["seat"] != CHANCE:
                m.apply(self._engine.codec.from_dict(e["action"]), e["seat"])
        if m.chance.forced or m.log[before:] != new:
            raise SerializationError(f"table {self.table_id}: its log does not replay the same way")
        return True

    @property
    def setup(self) -> Any:
        """The table's setup (the engine's setup object: the players and options, as the
        store's table row has them; no secret)."""
        return self._match.setup

    def document(self) -> dict[str, Any]:
        """The whole match as a document (setup, seed, log: every seat's secrets can be
        replayed from it), for a replay in this page's kernel: the public view while the
        game runs, every view once it is over."""
        return self._match.to_dict()

    def view(self) -> dict[str, Any]:
        return self._match.view(self.seat)

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        return self._match.events_for(self.seat, since)

    def legal(self) -> list[Action]:
        return [] if self.seat is None else self._match.legal_actions(self.seat)

    def to_act(self) -> tuple[int, ...]:
        return self._match.to_act()

    def outcome(self) -> dict[str, Any] | None:
        out = self._match.outcome()
        return None if out is None else out.to_dict()

    # ------------------------------------------------------------ acting
    def act(self, action: Action | Mapping[str, Any], *, seat: int | None = None) -> None:
        """Apply ``action`` for this page's seat, decided on the version it shows: one
        transaction; :class:`StaleTableError` (nothing applied) if another page acted
        first, IllegalActionError (nothing applied) if it is not legal."""
        seat = self.seat if seat is None else seat
        if seat is None:
            raise IllegalActionError("the watch page cannot act")
        if isinstance(action, Mapping):
            action = self._engine.codec.from_dict(dict(action))
        m = self._match
        expect = len(m.log)
        snap = m.snapshot()
        m.apply(action, seat)  # IllegalActionError: unchanged
        out = m.outcome()
        try:
            self.store.append(self.table_id, expect, m.log[expect:], over=None if out is None else out.to_dict())
        except BaseException:
            m.restore(snap)
            raise

    # ------------------------------------------------------------ CPU seats
    def play_cpus(self, holder: str, *, ttl: float = 10.0, max_actions: int = 1_000_000, seed: int = 0) -> int:
        """Play this table's CPU seats while ``holder`` holds the lease (one process per
        table plays them; when it dies, its lease expires after ``ttl`` seconds and another
        takes over).  Each bot gets its seat's view only.  Returns the actions played."""
        bots_module = registry.get(self.game).bots_module()
        cpus = {s.seat: bots_module.BOTS[s.bot]() for s in self.seats if s.kind == "cpu" and s.bot}
        played = 0
        while played < max_actions and self.store.take_lease(self.table_id, holder, ttl):
            self.refresh()
            if self._match.is_over:
                break
            turn = [s for s in self._match.to_act() if s in cpus]
            if not turn:
                break
            seat = turn[0]
            try:
                self.act(cpus[seat].choose(*decision(self._match, seat, seed)), seat=seat)
            except StaleTableError:
                continue
            played += 1
        return played
