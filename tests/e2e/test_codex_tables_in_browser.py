"""The Codex of Conquest at two screens (issue 28), in chromium against ``make play``'s
server: a host makes a Codex table of two humans from the New game form (the smallest
territories, k = 2, a fixed seed; Separate screens; Start), two browser contexts (separate
cookies, so separate logins) each open their own seat link and play the game to the end
by clicks, each page following the other's moves without a reload.

After every move that reaches the store (a free share, a roll, a confirmed placement, a
forced sale, an end of turn) the other page shows it by itself: the same dice, the same
pieces on the plots and the same market (prices, players' cash and shares) as the page
that moved.  The page whose seat is not to act offers no move: no enabled button on its
board, no highlighted plot, and a real click on an empty plot there opens nothing and
makes no move (the store's log gets no action of its seat).  Neither page is reloaded
(a mark set in each window at the start is still there at the end).  Both end on the
results.

Selectors: those of :mod:`test_codex_in_browser` (plots ``path.cw-plot-<t>-<r>-<c>``, a
legal one stroked ``#ff8f00``; ``button.cw-roll``, ``button.cw-confirm`` ...), the form's
``.cw-screens``, the links ``a.cw-seat-link-<n>``, a seat's page ``.cw-table-seat-<n>``.
Screenshots go to ``test-artifacts/e2e/tables-codex-*.png``.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conquest_widget import tables

from .harness import OfflineGuard, new_context, new_page, open_hosted_game
from .test_codex_in_browser import _STATE_JS, LEGAL, click_legal_plot, first_visible
from .test_tables_in_browser import login

#: territories of 2 x 2 plots (the form's smallest) and a seed whose game is short when each
#: player takes the first share, places on the first highlighted plot and never trades
#: (about 90 clicks, 23 turns)
K, SEED = 2, 21
TIMEOUT_S = 600

#: what both seats' pages show alike (the Codex has no hidden information): the dice, the
#: pieces on the plots (placed pieces only: the legal highlights are the acting page's own)
#: and the market, players included
_PUBLIC_JS = """
() => {
  const b = document.querySelector('.cw-codex-board');
  if (!b) return '';
  const text = (sel) => { const e = b.querySelector(sel); return e ? e.innerText.trim() : null; };
  const pieces = [...b.querySelectorAll('path.cw-plot')]
    .filter(p => p.getAttribute('fill-opacity') === '0.92')
    .map(p => (p.getAttribute('class').match(/cw-plot-\\d-\\d-\\d/) || ['?'])[0] + '=' + p.getAttribute('fill'))
    .sort();
  return JSON.stringify({dice: text('.cw-dice-box'), market: text('.cw-market'), pieces});
}
"""

#: the board offers no move: no enabled button shown, no highlighted plot, no dialog open
_NO_MOVE_JS = """
() => {
  const b = document.querySelector('.cw-codex-board');
  if (!b) return false;
  const shown = (e) => e.offsetParent !== null || e.getClientRects().length > 0;
  const buttons = [...b.querySelectorAll('button')].filter(e => shown(e) && !e.disabled);
  const dialogs = [...b.querySelectorAll('.cw-preview-box, .cw-joker, .cw-forced')].filter(shown);
  return buttons.length === 0 && dialogs.length === 0
         && b.querySelectorAll('path.cw-plot[stroke="LEGAL"]').length === 0;
}
""".replace("LEGAL", LEGAL)

#: the plots with a piece whose border is dashed (what the page shows; for the walk's notes)
_DASHED_JS = """
() => [...document.querySelectorAll('.cw-codex-board path.cw-plot[fill-opacity="0.92"][stroke-dasharray]')]
      .map(p => (p.getAttribute('class').match(/cw-plot-\\d-\\d-\\d/) || ['?'])[0]).sort()
"""

#: the store-changing steps (the others, a plot chosen or a Joker's faction, stay in the page)
MOVES = {"share", "roll", "confirm", "forced", "end"}


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"tables-codex-{name}.png"), full_page=True)


def make_table(host: Page, voila_url: str) -> dict[str, str]:
    """The Codex's New game form: two humans, k = 2, seed ``SEED``, Separate screens, Start;
    the links shown."""
    open_hosted_game(host, voila_url, "codex")
    host.get_by_role("button", name="New game", exact=True).click()
    host.locator(".cw-n-players select").select_option(label="2")
    for s in (0, 1):
        host.locator(f".cw-seat-{s} select").select_option(label="Human")
    k = host.locator(".cw-option-k input")
    k.fill(str(K))
    k.press("Tab")
    seed = host.locator("xpath=//div[contains(@class,'widget-html')][contains(normalize-space(.), 'Seed')]"
                        "/following-sibling::div[contains(@class,'widget-text')][1]//input")
    seed.fill(str(SEED))
    seed.press("Tab")
    host.locator(".cw-screens").get_by_role("button", name="Separate screens", exact=True).click()
    host.get_by_role("button", name="Start", exact=True).click()
    expect(host.locator("a.cw-watch-link")).to_be_visible()
    return {cls: host.locator(f"a.{cls}").get_attribute("href") or "" for cls in ("cw-seat-link-0", "cw-seat-link-1",
                                                                               "cw-watch-link")}


def offers_no_move(page: Page, name: str) -> None:
    try:
        page.wait_for_function(_NO_MOVE_JS, timeout=20_000)
    except PlaywrightTimeout:
        raise AssertionError(f"{name}'s seat is not to act, but its page offers a move") from None


def agree(me: Page, other: Page, before: str | None, names: tuple[str, str]) -> str:
    """Wait (bounded) until both pages show the same public state, and another one than
    ``before`` (every move changes it: the dice, a piece, a share, cash, whose turn it is);
    that state.  ``me`` shows its own move when its kernel has answered the click, ``other``
    by itself, without a reload, when its kernel next looks at the store (every 0.25 s)."""
    deadline = time.monotonic() + 20
    while True:
        mine, theirs = me.evaluate(_PUBLIC_JS), other.evaluate(_PUBLIC_JS)
        if mine == theirs != before:
            return mine
        if time.monotonic() > deadline:
            raise AssertionError(f"{names[1]} did not follow {names[0]}'s move:\n{theirs}\n!=\n{mine}")
        me.wait_for_timeout(50)


def reached_store(page: Page, watcher: tables.SeatClient, version: int, timeout_s: float = 15.0) -> bool:
    """Wait (bounded) until the store has a move after ``version``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        watcher.refresh()
        if watcher.version > version:
            return True
        page.wait_for_timeout(50)
    return False


def move(page: Page, target, watcher: tables.SeatClient) -> None:
    """Click ``target`` (a Locator) to make a move, which counts once the store has it.  (Not
    once the page shows a new version, as click_and_wait of test_codex_in_browser waits:
    here the page may still be finishing to draw the other page's move when its buttons
    show, and that version looked like the click's answer: the test then went on before
    the click reached the store.)  A click that reaches nothing in 15 s is made again, at
    most three times in all."""
    version = watcher.version
    for _ in range(3):
        try:
            target.click(timeout=15_000)
        except PlaywrightTimeout:
            pass  # hidden meanwhile: the move went through
        if reached_store(page, watcher, version):
            return
    raise AssertionError(f"three clicks on {target} made no move")


def empty_plot_click(page: Page) -> None:
    """A real mouse click on the first empty plot of ``page``'s board."""
    plot = page.locator(f'path.cw-plot[fill-opacity="0.95"]:not([stroke="{LEGAL}"])').first
    box = plot.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def step(page: Page, state: str, seen: set[str], artifacts: Path, name: str, watcher: tables.SeatClient) -> None:
    """One click of the player at ``page`` in ``state`` (as tests/e2e/test_codex_in_browser.py
    plays), waiting for its effect: the store's for a move (``MOVES``), the page's for a
    plot or a Joker's faction chosen."""
    first = state not in seen
    seen.add(state)
    if state == "share":
        move(page, first_visible(page, 'button[class*="cw-share-"]'), watcher)
    elif state == "roll":
        move(page, page.locator("button.cw-roll"), watcher)
        expect(page.locator(".cw-dice .cw-die-number")).to_be_visible()
    elif state == "place":
        if first:
            shot(page, artifacts, f"03-legal-plots-{name}")
        for _ in range(3):  # a lost click (see move) is made again
            click_legal_plot(page)
            try:
                page.wait_for_function(f"() => ['confirm', 'joker'].includes(({_STATE_JS})())", timeout=15_000)
                break
            except PlaywrightTimeout:
                continue
    elif state == "joker":
        first_visible(page, '.cw-joker button[class*="cw-joker-"]:not(.cw-joker-cancel)').click()
        expect(page.locator("button.cw-confirm")).to_be_visible()
    elif state == "confirm":
        expect(page.locator(".cw-preview")).to_be_visible()
        if first:
            shot(page, artifacts, f"04-preview-{name}")
        move(page, page.locator("button.cw-confirm"), watcher)
    elif state == "forced":
        move(page, first_visible(page, ".cw-forced button"), watcher)
    elif state == "end":
        move(page, page.locator("button.cw-end-turn"), watcher)


def test_two_players_at_their_own_screens_play_a_codex_game(
        page: Page, browser, voila_url: str, artifacts: Path, served_dir: Path) -> None:
    host = page
    links = make_table(host, voila_url)
    shot(host, artifacts, "01-links")
    keys = {cls: parse_qs(urlsplit(url).query)["key"][0] for cls, url in links.items()}
    table_id = parse_qs(urlsplit(links["cw-watch-link"]).query)["table"][0]
    store = tables.open_store(served_dir / "conquest_saves")
    watcher = tables.join(store, keys["cw-watch-link"])
    setup = watcher.setup
    assert setup.k == K and watcher.document()["seed"] == SEED and [p.cpu for p in setup.players] == [False, False]

    contexts = [new_context(browser, OfflineGuard()) for _ in range(2)]
    seats = {s: new_page(contexts[s]) for s in (0, 1)}
    try:
        names = {0: "seat-1", 1: "seat-2"}
        for s, p in seats.items():
            p.goto(login(links[f"cw-seat-link-{s}"], voila_url))
            expect(p.locator(f".cw-table-seat-{s} .cw-codex-board")).to_be_visible()
            expect(p.locator("path.cw-plot")).to_have_count(6 * K * K)
            assert "token" not in p.url and f"seat={s}" in p.url
            p.evaluate("() => { window.__cwSamePage = 'no reload'; }")
        shot(seats[0], artifacts, "02-seat-1")
        shot(seats[1], artifacts, "02-seat-2")

        agreed = agree(seats[0], seats[1], None, (names[0], names[1]))
        seen: set[str] = set()
        moves = followed = idle_checked = refused = 0
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            assert time.monotonic() < deadline, f"the game did not end in {TIMEOUT_S} s ({moves} moves)"
            watcher.refresh()
            if watcher.outcome() is not None:
                break
            (s,) = watcher.to_act()
            me, other = seats[s], seats[1 - s]
            # the other page's last move reaches this page by itself (it looks every 0.25 s)
            me.wait_for_function(f"() => ({_STATE_JS})() !== ''", timeout=60_000)
            state = me.evaluate(_STATE_JS)
            if state == "results":
                continue
            # the page whose seat is not to act offers nothing, and a click there does nothing
            offers_no_move(other, names[1 - s])
            idle_checked += 1
            clicked_at = None
            if state in ("roll", "end") and refused < 6:
                clicked_at = watcher.version
                empty_plot_click(other)
            version = watcher.version
            step(me, state, seen, artifacts, names[s], watcher)
            if state not in MOVES:
                continue
            moves += 1
            watcher.refresh()
            assert watcher.version > version, f"{names[s]}'s {state} did not reach the store"
            # the other page shows the move without a reload: the same dice, pieces and market
            agreed = agree(me, other, agreed, (names[s], names[1 - s]))
            followed += 1
            if clicked_at is not None:
                log = watcher.document()["log"][clicked_at:]
                assert all(e["seat"] != 1 - s for e in log), f"a click on {names[1 - s]}'s idle board made a move"
                expect(other.locator(".cw-preview-box")).to_be_hidden()
                expect(other.locator(".cw-joker")).to_be_hidden()
                refused += 1
            if moves == 8:
                shot(me, artifacts, f"05-moved-{names[s]}")
                shot(other, artifacts, f"05-followed-{names[1 - s]}")
        assert {"share", "roll", "place", "confirm", "end"} <= seen, seen
        assert moves >= 40 and followed == moves and idle_checked >= moves and refused == 6, (moves, idle_checked, refused)

        for s, p in seats.items():
            results = p.locator(".cw-results")
            expect(results).to_be_visible()
            expect(results).to_contain_text("Final wealth")
            expect(results.locator(".cw-codex-results tr[data-seat]")).to_have_count(2)
            expect(p.locator(".cw-log")).to_contain_text("The game ends")
            assert p.evaluate("() => window.__cwSamePage") == "no reload", f"{names[s]}'s page was reloaded"
            shot(p, artifacts, f"06-results-{names[s]}")
        dashed = {names[s]: p.evaluate(_DASHED_JS) for s, p in seats.items()}
        (artifacts / "tables-codex-walk.txt").write_text(
            f"{moves} moves, each followed by the other page; {idle_checked} checks of the idle page, {refused} clicks "
            f"there refused; states {sorted(seen)}; plots with a piece drawn dashed at the end: {dashed}\n",
            encoding="utf-8")
        (row,) = [r for r in tables.list_tables(store) if r.id == table_id]
        assert row.status == "over" and store.result(row.id)["ranks"]
        for p in seats.values():
            assert p.page_errors == []  # type: ignore[attr-defined]
    except BaseException:
        for s, p in seats.items():  # both seats' pages as they were (the host's is kept by the fixture)
            with contextlib.suppress(Exception):
                shot(p, artifacts, f"FAILED-seat-{s + 1}")
                (artifacts / f"tables-codex-FAILED-seat-{s + 1}.txt").write_text(
                    f"page errors: {p.page_errors}\nstate: {p.evaluate(_STATE_JS)!r}\n"  # type: ignore[attr-defined]
                    f"public: {p.evaluate(_PUBLIC_JS)}\n", encoding="utf-8")
        raise
    finally:
        for c in contexts:
            with contextlib.suppress(Exception):
                c.close()
