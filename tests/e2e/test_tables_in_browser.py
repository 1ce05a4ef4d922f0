"""Each player at their own screen (issue 28), in chromium against ``make play``'s server:
a host makes a card-game table from the New game form (Separate screens), two browser
contexts (separate cookies, so separate logins) each open their own seat link and play the
game to the end by clicks, while a third context watches.  Each page shows its own hand
only (checked against the store's view of its seat whenever its player is to draw), the
watch page no hand at all; the pages follow each other's moves without a reload; a reload
returns to the same seat; every page ends on the results.  A mangled link shows one
message and no board.

Selectors: the form's ``.cw-screens``; the links ``a.cw-seat-link-<n>``, ``a.cw-watch-link``;
a seat's page ``.cw-table-seat-<n>``, the watch page ``.cw-table-watch``; a bad link
``.cw-table-problem``; the card game's ``.cwc-hand button.cw-card-<code>`` and the selectors
of :mod:`test_cards_in_browser`.  Screenshots go to ``test-artifacts/e2e/tables-*.png``.
"""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conquest_widget import tables

from .harness import OfflineGuard, new_context, new_page, open_hosted_game
from .test_cards_in_browser import _STATE_JS, set_up, turn_over

TIMEOUT_S = 420
HAND = ".cw-cards-board .cwc-hand button[class*='cw-card-']"


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"tables-{name}.png"), full_page=True)


def make_table(host: Page, voila_url: str) -> dict[str, str]:
    """The card game's New game form: two humans, Separate screens, Start; the links shown."""
    open_hosted_game(host, voila_url, "conquest_cards")
    set_up(host, 1, jokers=False, seed=41)
    host.locator(".cw-seat-1 select").select_option(label="Human")
    host.locator(".cw-screens").get_by_role("button", name="Separate screens", exact=True).click()
    host.get_by_role("button", name="Start", exact=True).click()
    expect(host.locator("a.cw-watch-link")).to_be_visible()
    return {cls: host.locator(f"a.{cls}").get_attribute("href") or ""
            for cls in ("cw-seat-link-0", "cw-seat-link-1", "cw-watch-link")}


def login(url: str, voila_url: str) -> str:
    """``url`` with the server's token: a browser that has not logged in yet opens it so (the
    server sets its login cookie and sends it on to the same address without the token)."""
    token = parse_qs(urlsplit(voila_url).query)["token"][0]
    return f"{url}&token={token}"


def hand(page: Page) -> set[str]:
    return {m.group(1) for c in page.locator(HAND).evaluate_all("bs => bs.map(b => b.className)")
            if (m := re.search(r"cw-card-(\w+)", c))}


def click(page: Page, selector: str) -> bool:
    """Click the first enabled ``selector``; False when there is none any more (the page
    moved on since its state was read: the loop reads it again)."""
    try:
        page.locator(f"{selector}:not([disabled])").first.click(timeout=10_000)
    except PlaywrightTimeout:
        return False
    return True


def step(page: Page, state: str, turn: int) -> None:
    """One step of the human at ``page`` (whose state is ``state``), waiting for its effect."""
    if state == "draw":
        if click(page, "button.cw-draw"):
            expect(page.locator("button.cw-draw")).to_be_disabled()
    elif state == "target":
        if click(page, ".cw-cards-board button.cwc-target"):
            turn_over(page)
    elif state == "play":
        cards = page.locator(".cw-cards-board button[class*='cw-card-']:not([disabled]):not(.cwc-selected)")
        if turn % 3 == 2 or cards.count() == 0:
            if click(page, "button.cw-end-turn"):
                turn_over(page)
        else:
            try:  # the page may move on between the count and this read: the loop reads it again
                code = re.search(r"cw-card-(\w+)", cards.first.get_attribute("class", timeout=5_000) or "").group(1)
            except PlaywrightTimeout:
                return
            if click(page, f".cw-cards-board button.cw-card-{code}"):
                expect(page.locator(f".cw-cards-board button.cw-card-{code}").first).to_have_class(
                    re.compile(r"\bcwc-selected\b"))


#: the page offers its player an action (its turn, as its own kernel published it)
_ACTIONABLE_JS = f"() => ['draw', 'target', 'play', 'results'].includes(({_STATE_JS})())"


def test_two_players_at_their_own_screens_play_a_card_game_while_a_third_browser_watches(
        page: Page, browser, voila_url: str, artifacts: Path, served_dir: Path) -> None:
    host = page
    links = make_table(host, voila_url)
    shot(host, artifacts, "01-links")
    for url in links.values():
        assert url.startswith("http://127.0.0.1:") and "token" not in url
    keys = {cls: parse_qs(urlsplit(url).query)["key"][0] for cls, url in links.items()}
    store = tables.open_store(served_dir / "conquest_saves")

    contexts = [new_context(browser, OfflineGuard()) for _ in range(2)]
    try:
        seats = {s: new_page(contexts[s]) for s in (0, 1)}
        for s, p in seats.items():
            p.goto(login(links[f"cw-seat-link-{s}"], voila_url))
            expect(p.locator(f".cw-table-seat-{s} .cw-cards-board")).to_be_visible()
            assert "token" not in p.url and f"seat={s}" in p.url
        host.goto(links["cw-watch-link"])  # the host's browser is logged in already: it watches
        watch = host
        expect(watch.locator(".cw-table-watch .cw-cards-board")).to_be_visible()
        shot(seats[0], artifacts, "02-seat-1")
        shot(seats[1], artifacts, "03-seat-2")

        turns = {0: 0, 1: 0}
        checked = reloaded = 0
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            assert time.monotonic() < deadline, f"the game did not end in {TIMEOUT_S} s"
            table = tables.join(store, keys["cw-watch-link"])  # who is to act, as the store has it
            if table.outcome() is not None:
                break
            (s,) = table.to_act()
            me, other = seats[s], seats[1 - s]
            # the other page's move reaches this page by itself (it looks every 0.25 s): no reload
            me.wait_for_function(_ACTIONABLE_JS, timeout=60_000)
            state = me.evaluate(_STATE_JS)
            if state == "results":
                continue
            if state == "draw":
                turns[s] += 1
                mine = set(tables.join(store, keys[f"cw-seat-link-{s}"]).view()["hand"])
                assert hand(me) == mine  # its own hand, as its seat sees it
                assert not hand(other) & mine and not hand(watch)  # and nowhere else
                checked += 1
                if s == 0 and turns[0] == 3 and not reloaded:
                    me.reload()  # a reload returns to the same seat at the current position
                    expect(me.locator(".cw-table-seat-0 button.cw-draw")).to_be_enabled()
                    assert hand(me) == mine
                    reloaded = 1
            step(me, state, turns[s])
        assert checked >= 6 and reloaded

        for p in (*seats.values(), watch):
            expect(p.locator(".cw-results")).to_be_visible()
            expect(p.locator(".cw-results")).to_contain_text(re.compile(r"wins!|Shared win"))
        (row,) = [r for r in tables.list_tables(store) if r.id == parse_qs(urlsplit(links["cw-watch-link"]).query)["table"][0]]
        assert row.status == "over" and store.result(row.id)["ranks"]
        shot(seats[0], artifacts, "04-results-seat-1")
        shot(watch, artifacts, "05-results-watch")
        # the replay, every view now that the game is over
        watch.locator("button.cw-replay-table").click()
        expect(watch.locator(".cw-replay")).to_be_visible()
        for p in (*seats.values(), watch):
            assert p.page_errors == []  # type: ignore[attr-defined]
    finally:
        for c in contexts:
            with contextlib.suppress(Exception):
                c.close()


def test_a_mangled_link_says_so_and_opens_nothing(page: Page, voila_url: str) -> None:
    base = voila_url.partition("?")[0]
    page.goto(login(f"{base}?table={'0' * 32}&seat=0&key=notakeyatall1234", voila_url))
    expect(page.locator(".cw-table-problem")).to_contain_text("This link opens no table here")
    expect(page.locator(".cw-cards-board")).to_have_count(0)
    assert "notakeyatall1234" not in page.locator(".cw-table-problem").inner_text()
