"""Japan Conquest with each player at their own screen (issue 28), in chromium against
``make play``'s server: the host makes a table from Japan Conquest's New game form (two
humans, five turns, Screens: Separate screens), two browser contexts (separate cookies,
so separate logins) each open their own seat link and play the whole game by clicks —
Roll, the route clicked on the map, Confirm Route, the battle dice, Continue after a
battle — while the host's browser watches.  Each page follows the other's moves without a
reload; the page whose player is not to act offers nothing to press; every page ends on
the results.

Selectors: the form's ``.cw-screens``; the links ``a.cw-seat-link-<n>``, ``a.cw-watch-link``;
a seat's page ``.cw-table-seat-<n>``, the watch page ``.cw-table-watch``; the Japan board
``.cw-japan-board`` and :mod:`app_page`'s map selectors; the battle panel ``.cw-battle``
(its Continue ``.cw-battle-ok``).  Screenshots: ``test-artifacts/e2e/tables-japan-*.png``.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect

from conquest_widget import tables

from .app_page import HIGHLIGHT, AppPage
from .harness import OfflineGuard, new_context, new_page
from .test_tables_in_browser import login

TIMEOUT_S = 480

#: what the page offers its player now: "ok" (a battle's Continue), "roll", "battle" (the
#: battle dice), "confirm", "route" (highlighted prefectures to click), "results" or ""
_STATE_JS = f"""() => {{
  const seen = el => !!el && el.offsetParent !== null;
  const buttons = sel => [...document.querySelectorAll(sel)].filter(b => seen(b) && !b.disabled);
  if (buttons('.cw-battle-ok').length) return 'ok';
  if (buttons('.cw-battle button:not(.cw-battle-ok)').length) return 'battle';
  const named = name => buttons('.cw-japan-board button').some(b => b.innerText.trim() === name);
  if (named('Roll')) return 'roll';
  if (named('Confirm Route')) return 'confirm';
  if (document.querySelectorAll('path.cw-pref[stroke="{HIGHLIGHT}"]').length) return 'route';
  if (seen(document.querySelector('.cw-results'))) return 'results';
  return '';
}}"""


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"tables-japan-{name}.png"), full_page=True)


def make_table(host: AppPage) -> dict[str, str]:
    """Japan Conquest's New game form: two humans, five turns, Separate screens."""
    host.open()
    host.fill_form(("Human", "Human"))
    host.select_after_label("Turns").select_option("5")
    host.page.locator(".cw-screens").get_by_role("button", name="Separate screens", exact=True).click()
    host.start_button.click()
    expect(host.page.locator("a.cw-watch-link")).to_be_visible()
    return {cls: host.page.locator(f"a.{cls}").get_attribute("href") or ""
            for cls in ("cw-seat-link-0", "cw-seat-link-1", "cw-watch-link")}


def offers_nothing(page: Page) -> bool:
    return page.evaluate(_STATE_JS) in ("", "results")


def step(seat: AppPage, legal: list[dict], store: tables.SQLStore, watch_key: str) -> str:
    """One click of the player at ``seat``, who may play ``legal`` now (as the store has
    it): waits until the page offers that move (its own kernel catches up by itself),
    clicks it, then waits until the store has it.  Returns what was clicked."""
    page = seat.page
    kinds = {a["type"] for a in legal}
    before = tables.join(store, watch_key).version  # the log's length: a route step writes no event
    if "roll" in kinds:
        state = "roll"
        seat.button("Roll").click()
    elif "battle" in kinds:
        state = "battle"
        page.locator(".cw-battle button:not(.cw-battle-ok):visible").first.click()
    elif "confirm" in kinds:
        state = "confirm"
        seat.button("Confirm Route").click()
    else:
        state = "route"
        steps = sorted(a["to"] for a in legal if a["type"] == "step")
        deadline = time.monotonic() + 30
        while seat.highlighted_codes() != steps:  # the page shows the steps the store allows
            assert time.monotonic() < deadline, f"the page highlights {seat.highlighted_codes()}, not {steps}"
            page.wait_for_timeout(100)
        seat.click_prefecture(steps[0])
    deadline = time.monotonic() + 30
    while tables.join(store, watch_key).version == before:
        if time.monotonic() > deadline:
            page.screenshot(path=str(seat.artifacts / "tables-japan-FAILED-click.png"), full_page=True)
            raise AssertionError(f"the click ({state}) changed nothing in 30 s")
        page.wait_for_timeout(100)
    return state


def test_two_players_at_their_own_screens_play_japan_conquest_while_the_host_watches(
        page: Page, browser, voila_url: str, artifacts: Path, served_dir: Path) -> None:
    host = AppPage(page, voila_url, artifacts)
    links = make_table(host)
    shot(page, artifacts, "01-links")
    keys = {cls: parse_qs(urlsplit(url).query)["key"][0] for cls, url in links.items()}
    store = tables.open_store(served_dir / "conquest_saves")

    contexts = [new_context(browser, OfflineGuard()) for _ in range(2)]
    try:
        seats = {s: AppPage(new_page(contexts[s]), voila_url, artifacts) for s in (0, 1)}
        for s, seat in seats.items():
            seat.page.goto(login(links[f"cw-seat-link-{s}"], voila_url))
            expect(seat.page.locator(f".cw-table-seat-{s} .cw-japan-board")).to_be_visible()
            seat.wait_for_map()
        page.goto(links["cw-watch-link"])  # the host's browser is logged in already: it watches
        expect(page.locator(".cw-table-watch .cw-japan-board")).to_be_visible()
        shot(seats[0].page, artifacts, "02-seat-1")
        shot(seats[1].page, artifacts, "03-seat-2")

        clicks = {"roll": 0, "route": 0, "confirm": 0, "battle": 0, "ok": 0}
        waited_checked = 0
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            assert time.monotonic() < deadline, f"the game did not end in {TIMEOUT_S} s"
            table = tables.join(store, keys["cw-watch-link"])  # who is to act, as the store has it
            if table.outcome() is not None:
                break
            (s,) = table.to_act()
            me, other = seats[s], seats[1 - s]
            for seat in seats.values():  # a battle's result waits for Continue on the page that fought it
                ok = seat.page.locator(".cw-battle-ok")
                if ok.is_visible():
                    if clicks["ok"] == 0:
                        shot(seat.page, artifacts, "04-battle")
                    ok.click()
                    expect(ok).to_be_hidden()
                    clicks["ok"] += 1
            legal = [a.to_dict() for a in tables.join(store, keys[f"cw-seat-link-{s}"]).legal()]
            if waited_checked < 5 and legal[0]["type"] == "roll":
                # the other page's move reached this page by itself (it looks every 0.25 s):
                # no reload; the page not to act offers nothing to press
                expect(me.button("Roll")).to_be_visible(timeout=60_000)
                expect(other.page.locator(".cw-japan-board")).to_contain_text("Waiting for")
                assert offers_nothing(other.page), "the page not to act offers nothing to press"
                waited_checked += 1
            clicks[step(me, legal, store, keys["cw-watch-link"])] += 1
        assert clicks["roll"] >= 10 and clicks["route"] >= 10 and waited_checked == 5, clicks

        for p in (*(s.page for s in seats.values()), page):
            expect(p.locator(".cw-results")).to_be_visible(timeout=30_000)
        shot(seats[0].page, artifacts, "05-results-seat-1")
        shot(page, artifacts, "06-results-watch")
        (row,) = [r for r in tables.list_tables(store) if r.game == "japan_conquest"]
        assert row.status == "over" and store.result(row.id)["ranks"]
        for p in (*(s.page for s in seats.values()), page):
            assert p.page_errors == []  # type: ignore[attr-defined]
    finally:
        for c in contexts:
            with contextlib.suppress(Exception):
                c.close()
