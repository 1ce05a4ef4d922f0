"""The same game in two tabs (issue 31 item 10), in chromium against ``make play``'s server:
each tab has its own kernel, both share the save folder.  Tab B continues tab A's card
game and plays; A's next move is not written over B's game: A says so above its board
and offers to make its game the autosave again, after which B is the tab that is told.
Leaving a tab whose game is saved nowhere asks first.

Selectors: the shell's ``.cw-elsewhere`` (the notice and its ``button.cw-autosave-here``),
``button.cw-exit-confirm``; the card game's ``button.cw-draw``, ``button.cw-end-turn``.
Screenshots go to ``test-artifacts/e2e/two-tabs-*.png``.
"""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Page, expect

from conquest_widget.saves import SaveStore

from .harness import new_page, open_hosted_game
from .test_cards_in_browser import set_up


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"two-tabs-{name}.png"), full_page=True)


def draw(page: Page) -> None:
    page.locator("button.cw-draw").click()
    expect(page.locator("button.cw-draw")).to_be_disabled()


def test_a_game_continued_in_a_second_tab_is_never_overwritten_by_the_first(
        page: Page, voila_url: str, artifacts: Path, served_dir: Path) -> None:
    store = SaveStore(served_dir / "conquest_saves")
    tab_a = page
    open_hosted_game(tab_a, voila_url, "conquest_cards")
    set_up(tab_a, 1, jokers=False, seed=31)
    earlier = store.autosave_version("conquest_cards")  # an earlier test's game, or None
    tab_a.get_by_role("button", name="Start", exact=True).click()
    expect(tab_a.locator("button.cw-draw")).to_be_enabled()
    before = _wait_for_new_autosave(store, earlier)

    tab_b = new_page(tab_a.context)  # a second tab of the same browser: its own kernel
    open_hosted_game(tab_b, voila_url, "conquest_cards")
    tab_b.get_by_role("button", name="Resume", exact=True).click()
    draw(tab_b)
    expect(tab_b.locator("button.cw-end-turn")).to_be_enabled()
    theirs = _wait_for_new_autosave(store, before)

    draw(tab_a)  # A's move: on A's screen, but B's game stays the autosave
    notice = tab_a.locator(".cw-elsewhere")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Another tab")
    assert store.autosave_version("conquest_cards") == theirs
    expect(tab_b.locator(".cw-elsewhere")).to_be_hidden()
    shot(tab_a, artifacts, "01-first-tab-told")

    # leaving A now would lose its game: asked first, Cancel keeps it
    tab_a.get_by_role("button", name="Exit", exact=True).click()
    expect(tab_a.locator("button.cw-exit-confirm")).to_be_visible()
    tab_a.get_by_role("button", name="Cancel", exact=True).click()
    expect(tab_a.locator("button.cw-draw")).to_be_visible()

    # A takes the autosave back; B is told at its next move
    tab_a.locator("button.cw-autosave-here").click()
    expect(notice).to_be_hidden()
    mine = _wait_for_new_autosave(store, theirs)
    tab_b.locator("button.cw-end-turn").click()
    expect(tab_b.locator(".cw-elsewhere")).to_be_visible()
    assert store.autosave_version("conquest_cards") == mine
    shot(tab_b, artifacts, "02-second-tab-told")
    assert tab_a.page_errors == [] and tab_b.page_errors == []  # type: ignore[attr-defined]
    tab_b.close()


def _wait_for_new_autosave(store: SaveStore, old: object) -> object:
    """The autosave's version once it differs from ``old`` (the kernel writes it right
    after publishing the move)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        now = store.autosave_version("conquest_cards")
        if now != old and now is not None:
            return now
        time.sleep(0.05)
    raise AssertionError("the autosave was not written within 30 s")
