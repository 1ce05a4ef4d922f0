"""Where tables are kept: a SQLite file (stdlib ``sqlite3``, WAL) in the app's data folder
(:class:`SQLiteStore`, the default), or a PostgreSQL server for kernels that share no disk
(:class:`PostgresStore`, psycopg 3).  Both run the same SQL (:class:`SQLStore`).

One table row per match (its game, setup, chance seed and **version**: the number of log
entries), one row per seat (human or a CPU's bot label, and the SHA-256 of the seat's key:
never the key), the log one entry per row, the CPU lease, and the result once the game is
over.  Every change is one ``BEGIN IMMEDIATE`` transaction that first checks the version
it was decided on, so of two pages acting at once one is applied and the other is told
(:class:`~.errors.StaleTableError`); nothing is applied twice or half.

A :class:`PostgresStore` keeps one connection (opened at the first use, shared by the
store's threads under a lock) instead of connecting for every read and action; a connection
found broken (the server restarted, the backend was ended) is dropped and the operation is
run once more on a new one.  :meth:`SQLStore.disconnect` (or leaving a ``with store:`` block)
closes it; so does the store's garbage collection.

Schema versions are migrations (:data:`MIGRATIONS`, applied in order, recorded in
``meta.schema_version``); a store made by a newer package is refused, never altered.

    >>> import tempfile, pathlib
    >>> store = SQLiteStore(pathlib.Path(tempfile.mkdtemp()) / "tables.sqlite3")
    >>> store.schema_version()
    1
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import NoSuchTableError, StaleTableError, StoreSchemaError, TableClosedError, TableError

#: schema migrations, in order: ``MIGRATIONS[i]`` takes a store from version i to i + 1
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        game_version BIGINT NOT NULL,
        setup TEXT NOT NULL,
        seed BIGINT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        version BIGINT NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'over', 'closed')),
        watch_hash TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('human', 'cpu')),
        bot TEXT,
        key_hash TEXT UNIQUE,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE log (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        n BIGINT NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE leases (
        table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
        holder TEXT NOT NULL,
        expires DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE results (
        table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
        outcome TEXT NOT NULL,
        recorded_at DOUBLE PRECISION NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


F = TypeVar("F", bound=Callable[..., Any])
#: set on an exception raised because the store's connection broke before the operation
#: committed anything: the operation may be run again on a new connection
_DROPPED = "_conquest_connection_dropped"
#: set on an exception of a COMMIT: whether it was applied is unknown, so it is never run again
_COMMIT_SENT = "_conquest_commit_sent"


def _once_more_if_dropped(method: F) -> F:
    """Run a store operation again, once, when its connection was found broken (each
    operation is one read or one transaction: nothing of the first try was kept)."""

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            if not getattr(exc, _DROPPED, False):
                raise
        return method(self, *args, **kwargs)

    return run  # type: ignore[return-value]


def store_errors() -> tuple[type[BaseException], ...]:
    """What reading or writing a store may raise: the package's errors, the file system's,
    SQLite's and (when installed) psycopg's."""
    from conquest_widget.errors import ConquestError

    errors: tuple[type[BaseException], ...] = (ConquestError, OSError, sqlite3.Error)
    try:
        import psycopg
    except ImportError:
        return errors
    return (*errors, psycopg.Error)


@dataclass(frozen=True)
class TableRow:
    """A table as stored (no keys: only their hashes are stored, and not shown here)."""

    id: str
    game: str
    game_version: int
    setup: dict[str, Any]
    seed: int
    created_at: float
    version: int
    status: str
    title: str


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    bot: str | None


class SQLStore(ABC):
    """The table store's SQL, shared by SQLite and PostgreSQL.  A subclass opens
    connections (:meth:`_connect`), starts write transactions that lock what they check
    (:meth:`transaction`) and says how it writes placeholders and row locks."""

    #: appended to a SELECT that checks what a transaction then changes
    _for_update = ""
    #: the statement that makes a migration exclusive ("" where a write transaction is)
    _lock_meta = ""
    where: str = ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.where!r})"

    def disconnect(self) -> None:  # noqa: B027 - a store that keeps no connection has nothing to close
        """Close the connections this store keeps (none for SQLite, which opens one per
        operation); the next operation opens a new one.  (``close`` closes a *table*.)"""

    def __enter__(self) -> SQLStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.disconnect()

    # ------------------------------------------------------------ subclass hooks
    @abstractmethod
    def _connect(self) -> AbstractContextManager[Any]:
        """A connection in autocommit mode (reads)."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Any]:
        """One write transaction, committed at the end of the block, rolled back on any
        exception."""

    def _sql(self, query: str) -> str:
        return query

    def _run(self, db: Any, query: str, params: Sequence[Any] = ()) -> Any:
        return db.execute(self._sql(query), tuple(params))

    def _many(self, db: Any, query: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._cursor(db).executemany(self._sql(query), [tuple(r) for r in rows])

    @staticmethod
    def _cursor(db: Any) -> Any:
        return db.cursor()

    # ------------------------------------------------------------ schema
    @_once_more_if_dropped
    def _migrate(self) -> None:
        with self.transaction() as db:
            self._run(db, "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            if self._lock_meta:  # two processes opening a new store at once migrate it once
                self._run(db, self._lock_meta)
            row = self._run(db, "SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            have = int(row[0]) if row else 0
            if have > SCHEMA_VERSION:
                raise StoreSchemaError(f"{self.where}: made by a newer conquest_widget (table schema {have}; "
                                       f"this package knows 1-{SCHEMA_VERSION}); left untouched")
            for i in range(have, SCHEMA_VERSION):
                for statement in MIGRATIONS[i].split(";"):
                    if statement.strip():
                        self._run(db, statement)
            if have != SCHEMA_VERSION:
                self._run(db, "DELETE FROM meta WHERE key = 'schema_version'")
                self._run(db, "INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    @_once_more_if_dropped
    def schema_version(self) -> int:
        with self._connect() as db:
            return int(self._run(db, "SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])

    # ------------------------------------------------------------ tables
    @_once_more_if_dropped
    def insert_table(self, row: TableRow, seats: Sequence[tuple[SeatRow, str | None]], watch_hash: str,
                     log: Sequence[dict[str, Any]]) -> None:
        """A new table with its seats (each with its key's hash, None for a CPU) and the log
        of its start (chance drawn while setting up: deals, shuffles)."""
        with self.transaction() as db:
            self._run(db, "INSERT INTO tables (id, game, game_version, setup, seed, created_at, version, status, watch_hash, title)"
                          " VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
                      (row.id, row.game, row.game_version, json.dumps(row.setup), row.seed, row.created_at,
                       len(log), watch_hash, row.title))
            self._many(db, "INSERT INTO seats (table_id, seat, kind, bot, key_hash) VALUES (?, ?, ?, ?, ?)",
                       [(row.id, s.seat, s.kind, s.bot, key_hash) for s, key_hash in seats])
            self._many(db, "INSERT INTO log (table_id, n, entry) VALUES (?, ?, ?)",
                       [(row.id, n, json.dumps(e)) for n, e in enumerate(log)])

    @_once_more_if_dropped
    def table(self, table_id: str) -> TableRow:
        with self._connect() as db:
            return self._table(db, table_id)

    def _table(self, db: Any, table_id: str) -> TableRow:
        r = self._run(db, "SELECT id, game, game_version, setup, seed, created_at, version, status, title FROM tables"
                          " WHERE id = ?", (table_id,)).fetchone()
        if r is None:
            raise NoSuchTableError(f"there is no table {table_id!r}"[:120])
        return TableRow(r[0], r[1], int(r[2]), json.loads(r[3]), int(r[4]), float(r[5]), int(r[6]), r[7], r[8])

    @_once_more_if_dropped
    def tables(self, *, status: str | None = None) -> list[TableRow]:
        with self._connect() as db:
            ids = [r[0] for r in self._run(
                db, "SELECT id FROM tables" + (" WHERE status = ?" if status else "") + " ORDER BY created_at, id",
                (status,) if status else ()).fetchall()]
            return [self._table(db, i) for i in ids]

    @_once_more_if_dropped
    def seats(self, table_id: str) -> list[SeatRow]:
        with self._connect() as db:
            return [SeatRow(int(r[0]), r[1], r[2]) for r in self._run(
                db, "SELECT seat, kind, bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()]

    @_once_more_if_dropped
    def find_key(self, key_hash: str) -> tuple[str, int | None]:
        """``(table id, seat)`` of a seat key's hash; ``(table id, None)`` for a watch key."""
        with self._connect() as db:
            r = self._run(db, "SELECT table_id, seat FROM seats WHERE key_hash = ?", (key_hash,)).fetchone()
            if r is not None:
                return r[0], int(r[1])
            r = self._run(db, "SELECT id FROM tables WHERE watch_hash = ?", (key_hash,)).fetchone()
            if r is not None:
                return r[0], None
        raise NoSuchTableError("no table has a seat with this key (check the link)")

    @_once_more_if_dropped
    def version(self, table_id: str) -> int:
        with self._connect() as db:
            r = self._run(db, "SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
        if r is None:
            raise NoSuchTableError(f"there is no table {table_id!r}"[:120])
        return int(r[0])

    @_once_more_if_dropped
    def log(self, table_id: str, since: int = 0) -> list[dict[str, Any]]:
        with self._connect() as db:
            return [json.loads(r[0]) for r in self._run(
                db, "SELECT entry FROM log WHERE table_id = ? AND n >= ? ORDER BY n", (table_id, since)).fetchall()]

    @_once_more_if_dropped
    def append(self, table_id: str, expect: int, entries: Sequence[dict[str, Any]], *, over: dict[str, Any] | None) -> int:
        """Append ``entries`` to the log of a table at version ``expect`` (checked inside
        the transaction: :class:`StaleTableError` if another page acted first), marking the
        table over with its ``over`` outcome; returns the new version."""
        with self.transaction() as db:
            r = self._run(db, "SELECT version, status FROM tables WHERE id = ?" + self._for_update, (table_id,)).fetchone()
            if r is None:
                raise NoSuchTableError(f"there is no table {table_id!r}"[:120])
            version, status = int(r[0]), r[1]
            if status != "open":
                raise TableClosedError(f"the table is {status}: it takes no more actions")
            if version != expect:
                raise StaleTableError(f"the table moved on (version {version}, the action was decided at {expect})",
                                      version=version)
            self._many(db, "INSERT INTO log (table_id, n, entry) VALUES (?, ?, ?)",
                       [(table_id, expect + i, json.dumps(e)) for i, e in enumerate(entries)])
            new = expect + len(entries)
            self._run(db, "UPDATE tables SET version = ?, status = ? WHERE id = ?",
                      (new, "over" if over is not None else "open", table_id))
            if over is not None:
                self._run(db, "INSERT INTO results (table_id, outcome, recorded_at) VALUES (?, ?, ?)",
                          (table_id, json.dumps(over), time.time()))
            return new

    @_once_more_if_dropped
    def result(self, table_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            r = self._run(db, "SELECT outcome FROM results WHERE table_id = ?", (table_id,)).fetchone()
        return None if r is None else json.loads(r[0])

    @_once_more_if_dropped
    def close(self, table_id: str) -> None:
        """Close a table (it keeps its log and result; it takes no more actions)."""
        with self.transaction() as db:
            if self._run(db, "UPDATE tables SET status = 'closed' WHERE id = ? AND status = 'open'",
                         (table_id,)).rowcount == 0:
                self._table(db, table_id)  # NoSuchTableError, or it was over/closed already

    # ------------------------------------------------------------ the CPU lease
    @_once_more_if_dropped
    def take_lease(self, table_id: str, holder: str, ttl: float) -> bool:
        """Hold (or renew) the lease to play a table's CPU seats for ``ttl`` seconds: True
        when ``holder`` has it now (nobody held it, it expired, or ``holder`` held it)."""
        now = time.time()
        with self.transaction() as db:
            cur = self._run(db, "INSERT INTO leases (table_id, holder, expires) VALUES (?, ?, ?)"
                                " ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder, expires = excluded.expires"
                                " WHERE leases.holder = excluded.holder OR leases.expires <= ?",
                            (table_id, holder, now + ttl, now))
            return bool(cur.rowcount)

    @_once_more_if_dropped
    def release_lease(self, table_id: str, holder: str) -> None:
        with self.transaction() as db:
            self._run(db, "DELETE FROM leases WHERE table_id = ? AND holder = ?", (table_id, holder))

    @_once_more_if_dropped
    def lease_holder(self, table_id: str) -> str | None:
        with self._connect() as db:
            r = self._run(db, "SELECT holder, expires FROM leases WHERE table_id = ?", (table_id,)).fetchone()
        return r[0] if r is not None and r[1] > time.time() else None


class SQLiteStore(SQLStore):
    """The default table store: one SQLite file (created with its folder when absent), WAL
    journal; a write transaction is ``BEGIN IMMEDIATE`` (writers queue, readers go on)."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 30.0) -> None:
        self.path = Path(path)
        self.where = str(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._timeout = busy_timeout
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
        self._migrate()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys=ON")
            yield db
        finally:
            db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")


class PostgresStore(SQLStore):
    """Tables on a PostgreSQL server (psycopg 3), for kernels that share no disk (JupyterHub
    with one server per student): ``open_store("postgresql://user@host/db")``.  A write
    transaction locks the rows it checks (``SELECT … FOR UPDATE``).

    The store keeps one connection (see the module docstring): opened at the first use,
    reopened when found broken (the operation is then run once more),
    closed by :meth:`disconnect` or with the store."""

    _for_update = " FOR UPDATE"
    _lock_meta = "LOCK TABLE meta IN EXCLUSIVE MODE"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - psycopg is a dependency
            raise TableError("a PostgreSQL store needs psycopg 3 (pip install 'psycopg[binary]')") from exc
        self._psycopg = psycopg
        self.url = url
        self.where = _without_password(url)
        self._kept = _KeptConnection(psycopg, url)
        weakref.finalize(self, self._kept.close)  # the store's connection goes with it
        self._migrate()

    def _sql(self, query: str) -> str:
        return query.replace("%", "%%").replace("?", "%s")

    def disconnect(self) -> None:
        self._kept.close()

    @contextmanager
    def _connect(self) -> Iterator[Any]:
        with self._kept.lock:
            db = self._kept.get()
            try:
                yield db
            except BaseException as exc:
                if not db.closed and db.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE:
                    db.close()  # left in the middle of something (an interrupt): not reused
                if db.closed:  # it broke: the next operation opens a new one
                    self._kept.db = None
                    if isinstance(exc, self._psycopg.OperationalError) and not getattr(exc, _COMMIT_SENT, False):
                        setattr(exc, _DROPPED, True)
                raise

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        with self._connect() as db:
            body_done = False
            try:
                with db.transaction():  # BEGIN; COMMIT at the end, ROLLBACK on an exception
                    yield db
                    body_done = True
            except self._psycopg.OperationalError as exc:
                if body_done:  # the COMMIT was sent: whether it was applied is unknown, never redo it
                    setattr(exc, _COMMIT_SENT, True)
                raise


class _KeptConnection:
    """A store's one PostgreSQL connection (autocommit: a write transaction is an explicit
    ``BEGIN … COMMIT`` on it), its lock, and the process it belongs to (a connection is
    never used across a fork)."""

    def __init__(self, psycopg: Any, url: str) -> None:
        self._psycopg = psycopg
        self._url = url
        self.lock = threading.RLock()
        self.db: Any = None
        self._pid = os.getpid()

    def get(self) -> Any:
        if self._pid != os.getpid():  # a forked child: the parent's connection is not ours to use or close
            self.db, self._pid = None, os.getpid()
        if self.db is None or self.db.closed:
            self.db = self._psycopg.connect(self._url, autocommit=True)
        return self.db

    def close(self) -> None:
        with self.lock:
            db, self.db = self.db, None
            if db is not None and self._pid == os.getpid():
                db.close()


def _without_password(url: str) -> str:
    """A store's URL as it may be shown (never its password)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
