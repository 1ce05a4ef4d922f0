"""Stop and restart ``conquest-widget play`` (issue 28): a table's links still work and its
game goes on.  The real command runs as a subprocess (``python -m conquest_widget play
--dir D --port P``, the SQLite store in ``D/conquest_saves``), is stopped as a user stops it
(SIGTERM, as ``kill`` does; Ctrl-C takes the same path) and started again with the same
folder and port; chromium opens the same seat link before and after.  The token changes at
each start: the old login no longer opens anything, the new token does.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, expect

from conquest_widget import tables
from conquest_widget.core import registry
from conquest_widget.serve import free_port

from .harness import OfflineGuard, new_context, new_page
from .test_server_security import wait_for
from .test_tables_in_browser import _STATE_JS, hand, step

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def play(folder: Path, port: int, home: Path, log: Path) -> Iterator[tuple[subprocess.Popen, str]]:
    """``conquest-widget play --dir folder --port port`` until the block ends (then SIGTERM,
    and the exit is awaited); yields the process and the URL it printed."""
    env = dict(os.environ, HOME=str(home), JUPYTER_PLATFORM_DIRS="1",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "conquest_widget", "play", "--dir", str(folder), "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        url: list[str] = []

        def printed() -> bool:
            assert proc.poll() is None, log.read_text()[-3000:]
            url[:] = re.findall(rf"http://127\.0\.0\.1:{port}/\?token=\w+", log.read_text())
            return bool(url)

        wait_for(printed, timeout=120, what="conquest-widget play to print its address")
        yield proc, url[0]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, log.read_text()[-3000:]
        assert "Stopping the conquest games server" in log.read_text()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def state(page: Page) -> str:
    return page.evaluate(_STATE_JS)


def play_until(page: Page, seat: tables.SeatClient, done, timeout: float = 240.0) -> None:
    """Seat 0's player clicks through their turns (the CPU plays seat 1) until ``done()``."""
    deadline = time.monotonic() + timeout
    turn = 0
    while not done():
        assert time.monotonic() < deadline, "the game did not go on"
        page.wait_for_function("() => ['draw', 'target', 'play', 'results'].includes((" + _STATE_JS + ")())",
                               timeout=60_000)
        now = state(page)
        if now == "results":
            return
        turn += now == "draw"
        step(page, now, turn)
        seat.refresh()


def test_after_a_restart_of_play_the_links_still_work_and_the_game_goes_on(
        browser, artifacts: Path, tmp_path: Path) -> None:
    folder, port = tmp_path / "app", free_port()
    folder.mkdir()
    store = tables.open_store(folder / "conquest_saves")  # where play's kernels keep the tables
    setup = registry.get("conquest_cards").engine_class().random_setup(random.Random(8), 2)
    new = tables.create_table(store, "conquest_cards", setup, ["human", "normal"], seed=8)
    seat = tables.join(store, new.invites[0])

    context = new_context(browser, OfflineGuard())
    try:
        with play(folder, port, tmp_path / "home", artifacts / "play-restart-1.log") as (_, url1):
            link = tables.seat_link(f"http://127.0.0.1:{port}/", new.id, 0, new.invites[0])
            page = new_page(context)
            page.goto(f"{link}&token={url1.partition('token=')[2]}")
            board = page.locator(".cw-table-seat-0 .cw-cards-board")
            expect(board).to_be_visible()
            start = seat.version
            # a first move and the CPU's answer, before the stop
            play_until(page, seat, lambda: any(e["seat"] == 1 for e in store.log(new.id, since=start)))
            page.screenshot(path=str(artifacts / "restart-1-before.png"), full_page=True)
            page.close()
        before_restart = seat.version
        with play(folder, port, tmp_path / "home", artifacts / "play-restart-2.log") as (_, url2):
            assert url2 != url1  # a new token
            page = new_page(context)
            page.goto(link)  # the login of the stopped server opens nothing now
            expect(page.locator("input[type=password]").first).to_be_visible()
            page.goto(f"{link}&token={url2.partition('token=')[2]}")
            expect(page.locator(".cw-table-seat-0 .cw-cards-board")).to_be_visible()
            assert "token" not in page.url and "seat=0" in page.url
            page.wait_for_function("() => ['draw', 'target', 'play'].includes((" + _STATE_JS + ")())", timeout=60_000)
            seat.refresh()
            assert hand(page) == set(seat.view()["hand"])  # the same seat at the current position
            # the game goes on: seat 0 plays, and the CPU (its lease now held by the new kernel) answers
            play_until(page, seat, lambda: any(e["seat"] == 1 for e in store.log(new.id, since=before_restart + 1)))
            assert seat.version > before_restart
            page.screenshot(path=str(artifacts / "restart-2-after.png"), full_page=True)
            assert page.page_errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
    assert len(tables.list_tables(store)) == 1
