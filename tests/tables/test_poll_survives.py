"""A page's look at the store (``TableController``'s poll loop, kernel side) survives what
goes wrong in it: a store that cannot be read for a while, a redraw that raises, a
PostgreSQL backend ended.  The page says what went wrong (``message``), the next look tries
again, and nothing is lost: once the trouble is over the page shows the table as it is and
the message goes.  Both stores (the PostgreSQL backend test: PostgreSQL only)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import psycopg

from conquest_widget import tables
from conquest_widget.games.conquest_cards.widget import UI
from conquest_widget.ui.game_ui import SeatChoice
from conquest_widget.ui.table_page import TablePage

EVERY = 0.05  # seconds between two looks here (0.25 s in a page)


def new_table(where: str) -> tuple[Any, tables.NewTable]:
    store = tables.open_store(where)
    setup = UI.make_setup([SeatChoice("Ann"), SeatChoice("Ben")], {})
    return store, tables.create_table(store, "conquest_cards", setup, ["human", "human"], seed=1)


def pages(where: str) -> tuple[Any, tables.NewTable, TablePage, tables.SeatClient]:
    """The watch page (not started) and the client of the seat to act, each on a store of its own."""
    store, new = new_table(where)
    page = TablePage(tables.join(tables.open_store(where), new.watch), UI, start=False)
    first = tables.join(tables.open_store(where), new.invites[0])
    mover = tables.join(first.store, new.invites[first.to_act()[0]])
    return store, new, page, mover


async def until(test: Callable[[], bool], seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while not test():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def rename(store: Any, old: str, new: str) -> None:
    with store.transaction() as db:
        store._run(db, f"ALTER TABLE {old} RENAME TO {new}")


def shows(page: TablePage, where: str, key: str) -> bool:
    """The page shows the table as the store has it now."""
    return page.table.view == tables.join(tables.open_store(where), key).view()


def test_a_store_that_cannot_be_read_for_a_while_is_said_and_the_page_catches_up(where: str) -> None:
    store, new, page, mover = pages(where)
    mover.act(mover.legal()[0])  # a move the page has not seen yet

    async def scenario() -> None:
        rename(store, "log", "log_away")  # the store cannot be read: every look fails
        assert page.table.start(EVERY)
        assert await until(lambda: "cannot be read" in page.table.message)
        text = page.table.message
        assert "log" in text  # it names the problem (the missing table)
        assert "cannot be read" in page.message.value  # and the page shows it
        await asyncio.sleep(5 * EVERY)
        assert page.table._task is not None and not page.table._task.done()  # still looking
        rename(store, "log_away", "log")
        assert await until(lambda: page.table.message == "")  # the message goes once a look works ...
        assert shows(page, where, new.watch)  # ... and the page has the move it missed
        assert page.message.value == ""
        mover.act(mover.legal()[0])  # and it goes on following the table
        assert await until(lambda: shows(page, where, new.watch))
        page.leave()

    asyncio.run(scenario())


def test_a_board_redraw_that_raises_is_said_and_drawn_again_at_the_next_look(where: str) -> None:
    _store, new, page, mover = pages(where)
    board = page.board
    real = board.redraw
    drawn: list[Any] = []
    fail = [1]

    def redraw() -> None:
        if fail:
            fail.pop()
            raise RuntimeError("a bug in the board")
        real()
        drawn.append(page.table.view)

    board.redraw = redraw  # type: ignore[method-assign]
    messages: list[str] = []
    page.table.observe(lambda change: messages.append(change["new"]), names="message")

    async def scenario() -> None:
        assert page.table.start(EVERY)
        mover.act(mover.legal()[0])
        assert await until(lambda: not fail)  # the board's redraw raised once
        assert await until(lambda: bool(drawn) and drawn[-1] == page.table.view)  # drawn again, at the next look
        assert shows(page, where, new.watch)
        assert await until(lambda: page.table.message == "")
        assert messages == ["The page could not be redrawn (RuntimeError: a bug in the board); it tries again at its"
                            " next look at the table.", ""]
        page.leave()

    asyncio.run(scenario())


def test_a_redraw_that_keeps_failing_keeps_the_loop_alive_and_says_so(where: str) -> None:
    """Even when the page's own redraw fails while it shows the problem, the loop goes on;
    once the bug is gone the page catches up."""
    _store, new, page, mover = pages(where)
    broken = [True]
    real = page._redraw

    def redraw() -> None:
        if broken[0]:
            raise ValueError("the page's redraw is broken")
        real()

    page._redraw = redraw  # type: ignore[method-assign]

    async def scenario() -> None:
        assert page.table.start(EVERY)
        mover.act(mover.legal()[0])
        assert await until(lambda: "could not be redrawn" in page.table.message)
        assert "ValueError" in page.table.message and "redraw is broken" in page.table.message
        await asyncio.sleep(5 * EVERY)
        assert page.table._task is not None and not page.table._task.done()
        broken[0] = False
        assert await until(lambda: page.table.message == "")
        assert shows(page, where, new.watch)
        page.leave()

    asyncio.run(scenario())


def test_a_postgresql_backend_ended_under_a_page_is_not_even_noticed(pg_where: str) -> None:
    _store, new, page, mover = pages(pg_where)

    async def scenario() -> None:
        assert page.table.start(EVERY)
        await asyncio.sleep(3 * EVERY)
        with page._client.store._connect() as db:
            pid = db.info.backend_pid
        with psycopg.connect(pg_where, autocommit=True) as db:
            assert db.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
        messages: list[str] = []
        page.table.observe(lambda change: messages.append(change["new"]), names="message")
        mover.act(mover.legal()[0])
        assert await until(lambda: shows(page, pg_where, new.watch))
        assert messages == []
        page.leave()

    asyncio.run(scenario())
