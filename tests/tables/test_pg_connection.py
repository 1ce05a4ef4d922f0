"""A PostgreSQL store keeps its connection (one per store, not one per read and action),
and a broken one does not break the store: the operation that finds it broken runs once
more on a new connection.  Real server (tests/tables/conftest.py), real backend ends."""

from __future__ import annotations

import gc
import random
import threading
import time
from typing import Any

import psycopg
import pytest

from conquest_widget import tables
from conquest_widget.core import registry
from conquest_widget.tables import SQLStore

CARDS = "conquest_cards"


def new_table(store: Any) -> tables.NewTable:
    setup = registry.get(CARDS).engine_class().random_setup(random.Random(1), 2)
    return tables.create_table(store, CARDS, setup, ["human", "human"], seed=5)


def backend(store: Any) -> int:
    """The server process behind the store's connection."""
    with store._connect() as db:
        return int(db.info.backend_pid)


def backends(url: str) -> set[int]:
    """The server processes connected to the database of ``url`` (this look's own excepted)."""
    with psycopg.connect(url, autocommit=True) as db:
        return {r[0] for r in db.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                                         " AND pid <> pg_backend_pid()").fetchall()}


def terminate(url: str, pid: int) -> None:
    """End a backend from another connection (as a server restart or an idle timeout does)
    and wait until it is gone."""
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
    deadline = time.monotonic() + 30
    while pid in backends(url):
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_store_keeps_one_connection_for_its_reads_and_actions(pg_where: str) -> None:
    store = tables.open_store(pg_where)
    new = new_table(store)
    pid = backend(store)
    clients = {s: tables.join(store, key) for s, key in new.invites.items()}
    for _ in range(5):
        for c in clients.values():
            c.refresh()
        me = clients[clients[0].to_act()[0]]
        me.act(me.legal()[0])
    assert backend(store) == pid and backends(pg_where) == {pid}


def test_a_terminated_connection_is_replaced_and_the_next_operation_works(pg_where: str) -> None:
    store = tables.open_store(pg_where)
    new = new_table(store)
    version = store.version(new.id)
    ann, ben = (tables.join(store, new.invites[s]) for s in (0, 1))
    first = backend(store)
    terminate(pg_where, first)
    with pytest.raises(psycopg.OperationalError):  # the kept connection is broken: one try fails ...
        SQLStore.version.__wrapped__(store, new.id)  # type: ignore[attr-defined]
    terminate(pg_where, backend(store))
    assert store.version(new.id) == version  # ... so a read runs once more, on a new connection
    second = backend(store)
    assert second != first and backends(pg_where) == {second}
    terminate(pg_where, second)
    me = (ann, ben)[ann.to_act()[0]]
    me.act(me.legal()[0])  # an action: its transaction, run again on a new connection, applied once
    assert store.version(new.id) == me.version > version
    assert store.log(new.id) == me._match.log
    terminate(pg_where, backend(store))
    other = (ann, ben)[1 - me.seat]  # type: ignore[index]
    assert other.refresh() and other.version == me.version


def test_when_no_new_connection_can_be_made_the_error_is_raised(pg_where: str) -> None:
    """The operation runs once more, not forever: when the kept connection is broken and no
    new one can be made (the server is down), the error is raised; the store works again
    once the server is back."""
    store = tables.open_store(pg_where)
    new = new_table(store)
    terminate(pg_where, backend(store))
    real_get = store._kept.get
    tries: list[int] = []

    def server_down() -> Any:
        tries.append(1)
        if len(tries) == 1:
            return real_get()  # the kept connection, broken
        raise psycopg.OperationalError("connection refused (the server is down)")

    store._kept.get = server_down  # type: ignore[method-assign]
    with pytest.raises(psycopg.OperationalError, match="server is down"):
        store.version(new.id)
    store._kept.get = real_get  # type: ignore[method-assign]
    assert len(tries) == 2 and store.version(new.id) >= 0


def test_disconnect_and_the_garbage_collector_close_the_connection(pg_where: str) -> None:
    store = tables.open_store(pg_where)
    pid = backend(store)
    store.disconnect()
    assert pid not in backends(pg_where)
    assert store.schema_version() == 1  # opens a new one when needed
    with store:
        pid = backend(store)
    assert pid not in backends(pg_where)
    pid = backend(store)
    del store
    gc.collect()
    deadline = time.monotonic() + 10
    while pid in backends(pg_where):
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_threads_share_the_connection_one_operation_at_a_time(pg_where: str) -> None:
    store = tables.open_store(pg_where)
    new = new_table(store)
    version = store.version(new.id)
    errors: list[BaseException] = []

    def read() -> None:
        try:
            for _ in range(50):
                assert store.version(new.id) == version and len(store.log(new.id)) == version
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and backends(pg_where) == {backend(store)}


def test_a_page_that_leaves_closes_its_connection(pg_where: str) -> None:
    from conquest_widget.games.conquest_cards.widget import UI
    from conquest_widget.ui.game_ui import SeatChoice
    from conquest_widget.ui.table_page import TablePage

    store = tables.open_store(pg_where)
    new = tables.create_table(store, CARDS, UI.make_setup([SeatChoice("Ann"), SeatChoice("Ben")], {}),
                              ["human", "human"], seed=1)
    page = TablePage(tables.join(store, new.invites[0]), UI, start=False)
    pid = backend(store)
    page.table.poll()
    assert backends(pg_where) == {pid}
    page.leave()
    assert backends(pg_where) == set()


def test_a_connection_lost_at_the_commit_is_reported_not_run_again(pg_where: str) -> None:
    """Whether a COMMIT whose connection broke was applied is unknown to the client: the
    action is not run again (it could be applied twice); its error is raised, and the next
    operation works on a new connection and sees what the server kept."""
    store = tables.open_store(pg_where)
    new = new_table(store)
    version = store.version(new.id)
    me = tables.join(store, new.invites[tables.join(store, new.invites[0]).to_act()[0]])
    real_run = store._run
    bodies: list[str] = []

    def run(db: Any, query: str, params: Any = ()) -> Any:
        out = real_run(db, query, params)
        if query.startswith("UPDATE tables SET version"):  # the action's last statement: end the backend
            bodies.append(query)
            terminate(pg_where, db.info.backend_pid)
        return out

    store._run = run  # type: ignore[method-assign]
    with pytest.raises(psycopg.OperationalError):
        me.act(me.legal()[0])
    store._run = real_run  # type: ignore[method-assign]
    assert len(bodies) == 1  # one try: the COMMIT was not sent again
    assert store.version(new.id) == version == me.version  # the server rolled it back; the page's copy too
    me.act(me.legal()[0])
    assert store.version(new.id) == me.version > version


def test_a_page_whose_move_is_lost_at_the_commit_says_so_and_goes_on(pg_where: str) -> None:
    """The same loss under a page's click: the page names the problem in its message (no
    exception reaches the click), and its next look shows the table as the server kept it."""
    from conquest_widget.ui.table_controller import TableController

    store = tables.open_store(pg_where)
    new = new_table(store)
    seat = tables.join(store, new.invites[0]).to_act()[0]
    page = TableController(tables.join(store, new.invites[seat]))
    version = store.version(new.id)
    client_store = page._client.store
    real_run = client_store._run

    def run(db: Any, query: str, params: Any = ()) -> Any:
        out = real_run(db, query, params)
        if query.startswith("UPDATE tables SET version"):
            terminate(pg_where, db.info.backend_pid)
        return out

    client_store._run = run  # type: ignore[method-assign]
    page.act(page.legal[0])
    client_store._run = real_run  # type: ignore[method-assign]
    assert "cannot be read just now" in page.message and "terminating connection" in page.message
    assert store.version(new.id) == version
    page.look()
    assert page.message == "" and page.legal  # caught up; the move can be made again
    page.act(page.legal[0])
    assert store.version(new.id) > version and page.message == ""
