"""Japanese Risk at three screens (issue 28): a table of three humans made from Python in the
app server's store (a round limit of 2), three Chromium contexts (separate cookies) each on
its own seat link play it to the end by clicks while a fourth context watches.

The clicks are :class:`twins.RiskPlayer`'s (every human buys a ninja with each income, puts
the rest on their cards, holds at ninja windows, commits everything when defending, one
attack per turn), made on the page of the seat the store says is to act; the other pages
follow by themselves.  Before each step every page shows only its own secrets, as the
store's view of its seat has them: its reserve (``.cw-reserve``, "Ninjas in reserve: N")
and its card armies (the ``✋N`` badges of the map's labels, by prefecture code); the watch
page shows neither.
Each such check waits (bounded) for the page to catch up with the store, so a page that is
one poll behind is not a failure, and a leak, which never converges, is.  A planned badge
(dashed: income chosen on the page, not yet placed) is reported as "N planned": there
should be none between steps, so it fails the check too, but says what it is.  On a failure
the page's screenshot, its badge labels, console and websocket frames go to the artifacts.
Every page ends on the results.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from conquest_widget import tables
from conquest_widget.games.japanese_risk.widget import make_setup
from conquest_widget.ui.game_ui import SeatChoice

from . import twins as T
from .harness import OfflineGuard, new_context, new_page
from .test_tables_in_browser import login

GAME = "japanese_risk"
NAMES = ["Ann", "Ben", "Chika"]
TIMEOUT_S = 900

#: what a page shows of the secrets: its reserve line and its card badges [[code, armies]...]
_SECRETS_JS = """
() => {
  const r = document.querySelector('.cw-risk-board .cw-reserve');
  const badges = [];
  for (const b of document.querySelectorAll('.cw-risk-board .cw-card-badge')) {
    const label = b.closest('[class*="cw-label-"]');
    const m = label && label.getAttribute('class').match(/cw-label-(\\d+)/);
    badges.push([m ? Number(m[1]) : -1, b.textContent.replace('\\u270b', '').trim()
                 + (getComputedStyle(b).borderTopStyle === 'dashed' ? ' planned' : '')]);
  }
  badges.sort((x, y) => x[0] - y[0]);
  return JSON.stringify({reserve: r ? r.textContent : null, badges});
}
"""


def expected(view: dict | None) -> str:
    """What a page at the seat of ``view`` shows of its secrets (None: the watch page)."""
    if view is None:
        return json.dumps({"reserve": None, "badges": []}, separators=(",", ":"))
    me = view["me"]
    return json.dumps({"reserve": f"Ninjas in reserve: {me['reserve']}",
                       "badges": sorted([c, str(n)] for c, n in me["card_armies"])}, separators=(",", ":"))


_DIAG_JS = """
() => [...document.querySelectorAll('.cw-risk-board .cw-card-badge')].map(b => b.closest('.cw-label').outerHTML)
      .concat([document.querySelector('.cw-risk-board .cw-status')?.innerText || ''])
"""


def shows_only_its_own(tw: T.Twin, want: str, artifacts: Path) -> None:
    """The page shows ``want`` (waiting, bounded, for it to catch up with the store)."""
    page = tw.page
    try:
        page.wait_for_function(f"() => ({_SECRETS_JS})() === {json.dumps(want)}", timeout=20_000)
    except Exception:
        tw.shot(artifacts, "tables-risk-FAILED")
        (artifacts / f"tables-risk-FAILED-{tw.name}.json").write_text(json.dumps(
            {"labels": page.evaluate(_DIAG_JS), "console": getattr(page, "console_lines", []),
             "frames": [f if isinstance(f, str) else f.decode("utf-8", "replace") for f in tw.frames()]},
            ensure_ascii=False, indent=1), encoding="utf-8")
        raise AssertionError(f"{tw.name} shows {page.evaluate(_SECRETS_JS)}, its seat's view has {want}") from None


def ready(page: Page, watcher: tables.SeatClient, artifacts: Path, pages: dict) -> bool:
    """Wait (bounded) until the page of the seat to act offers it something to do (True), or
    the table moved on without it (False: its page answered by itself, e.g. a ninja window
    passed by a player with no ninja in reserve)."""
    version = watcher.version
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if page.evaluate(T._RISK_STATE_JS):
            return True
        if watcher.refresh() and watcher.version != version:
            return False
        page.wait_for_timeout(200)
    for tw in pages.values():
        tw.shot(artifacts, "tables-risk-FAILED")
    raise AssertionError(f"seats {watcher.to_act()} are to act, but the page of seat {watcher.to_act()[0]} offers nothing "
                         f"(phase {watcher.view().get('phase')!r}, version {watcher.version})")


def test_three_players_at_their_own_screens_play_japanese_risk_while_a_fourth_watches(
        browser, voila_url: str, served_dir: Path, artifacts: Path) -> None:
    store = tables.open_store(served_dir / "conquest_saves")
    setup = make_setup([SeatChoice(n) for n in NAMES], {"round_limit": 2})
    new = tables.create_table(store, GAME, setup, ["human"] * 3, seed=2024, title="Ann, Ben, Chika")
    base = voila_url.partition("?")[0]
    token = T._token(voila_url)
    clients = {s: tables.join(store, new.invites[s]) for s in range(3)}
    watcher = tables.join(store, new.watch)
    contexts = []
    try:
        pages: dict[int | None, T.Twin] = {}
        for s in (0, 1, 2, None):
            link = tables.watch_link(base, new.id, new.watch) if s is None else tables.seat_link(base, new.id, s, new.invites[s])
            context = new_context(browser, OfflineGuard())
            contexts.append(context)
            pages[s] = T.Twin(f"seat-{s}" if s is not None else "watch", served_dir, link, new_page(context), token=token)
            T._record(pages[s])
            lines: list[str] = []
            pages[s].page.on("console", lambda m, lines=lines: lines.append(f"{m.type}: {m.text}"[:2000]))
            pages[s].page.console_lines = lines  # type: ignore[attr-defined]
            pages[s].page.goto(login(link, voila_url))
        for s, tw in pages.items():
            where = ".cw-table-watch" if s is None else f".cw-table-seat-{s}"
            expect(tw.page.locator(f"{where} .cw-risk-board")).to_be_visible()
            assert "token" not in tw.page.url
        for tw in pages.values():
            tw.shot(artifacts, "tables-risk-01-start")

        player = T.RiskPlayer()
        checks = steps = 0
        seen_reserve: set[int] = set()
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            assert time.monotonic() < deadline, f"the game did not end in {TIMEOUT_S} s ({steps} steps)"
            watcher.refresh()
            if watcher.outcome() is not None:
                break
            for s, tw in pages.items():
                view = None
                if s is not None:
                    clients[s].refresh()
                    view = clients[s].view()
                    if view["me"]["reserve"]:
                        seen_reserve.add(s)
                shows_only_its_own(tw, expected(view), artifacts)
            checks += 1
            x = watcher.to_act()[0]
            if ready(pages[x].page, watcher, artifacts, pages):
                player.step([pages[x]], x)
                steps += 1
        assert checks > 20 and seen_reserve == {0, 1, 2}, (checks, seen_reserve)
        assert player.launched > 0, "no attack was launched"

        for tw in pages.values():
            expect(tw.page.locator(".cw-results")).to_be_visible()
            tw.shot(artifacts, "tables-risk-02-results")
            assert tw.page.page_errors == []  # type: ignore[attr-defined]
        (row,) = [r for r in tables.list_tables(store) if r.id == new.id]
        assert row.status == "over" and store.result(new.id)["ranks"]
        (artifacts / "tables-risk-walk.txt").write_text(f"{steps} steps, {checks} checks of every page, "
                                                        f"{player.launched} attacks launched\n", encoding="utf-8")
    finally:
        for c in contexts:
            with contextlib.suppress(Exception):
                c.close()
