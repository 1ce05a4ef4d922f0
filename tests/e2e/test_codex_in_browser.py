"""The Codex of Conquest as a user plays it: examples/play.ipynb served by Voila (as
``make play``), in chromium, offline — the picker, the setup form, a whole game of one
human against CPUs by clicking plots and buttons, the results screen.

Selectors: plots ``path.cw-plot-<territory>-<row>-<col>`` (a legal plot has the stroke
``#ff8f00``), buttons by their CSS class (``button.cw-roll``, ``button.cw-confirm``...),
panels ``.cw-market``, ``.cw-preview``, ``.cw-forced``, ``.cw-results``.
Screenshots go to ``test-artifacts/e2e/codex-*.png``.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .harness import open_hosted_game

LEGAL = "#ff8f00"
TIMEOUT_S = 300

# What the human can do now, read from the page (visible = laid out).
_STATE_JS = """
() => {
  const vis = (sel) => [...document.querySelectorAll(sel)].some(e => e.offsetParent !== null || e.getClientRects().length);
  if (vis('.cw-results')) return 'results';
  if (vis('button.cw-confirm')) return 'confirm';
  if (vis('.cw-joker button[class*="cw-joker-"]:not(.cw-joker-cancel)')) return 'joker';
  if (vis('.cw-forced button')) return 'forced';
  if (vis('button[class*="cw-share-"]')) return 'share';
  if (vis('button.cw-roll')) return 'roll';
  if (document.querySelectorAll('path.cw-plot[stroke="LEGAL"]').length) return 'place';
  if (vis('button.cw-end-turn')) return 'end';
  return '';
}
""".replace("LEGAL", LEGAL)


@pytest.fixture
def codex(page: Page, voila_url: str) -> Page:
    return open_hosted_game(page, voila_url, "codex")


_VERSION_JS = """
() => { const b = document.querySelector('.cw-codex-board');
        return b ? [...b.classList].find(c => c.startsWith('cw-v-')) || '' : ''; }
"""


def acted(page: Page, before: str, timeout: int = 60_000) -> None:
    """Wait until the board shows a newer controller version than ``before`` (the class
    is set after every other update of a version)."""
    page.wait_for_function(f"() => ({_VERSION_JS})() !== {before!r}", timeout=timeout)


def click_and_wait(page: Page, target) -> None:
    """Click ``target`` (a Locator) and wait for the board's next controller version.

    The shell redraws its Save/Exit bar on every version, which can shift the page for a
    moment, and a click in that moment lands beside the button and is lost.  A click is
    therefore retried, at most three times, while the version has not changed after 15 s.
    (Should a very slow kernel get both clicks, the second is refused — a second roll, an
    end of turn out of turn, a Confirm with nothing chosen — or harmless: one more sale.)"""
    before = page.evaluate(_VERSION_JS)
    for _ in range(3):
        try:
            target.click(timeout=15_000)
        except PlaywrightTimeout:
            pass                                       # hidden meanwhile: the action went through
        try:
            acted(page, before, timeout=15_000)
            return
        except PlaywrightTimeout:
            if page.evaluate(_VERSION_JS) != before:
                return
    raise AssertionError(f"three clicks on {target} changed nothing; the page then: {_what_the_page_says(page, target)}")


_SAYS_JS = """
() => { const txt = (sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
                              .map(e => e.innerText.trim()).filter(Boolean).join(' | ');
        return {status: txt('.cw-status'), note: txt('.cw-board-message, .cw-message'), busy: txt('.cw-busy'),
                buttons: txt('button:not([disabled])')}; }
"""


def _what_the_page_says(page: Page, target) -> str:
    """What a player would see when a click changed nothing (for the failure's message:
    CI keeps no screenshots)."""
    try:
        said = page.evaluate(_SAYS_JS)
        said["target"] = {"count": target.count(), "visible": target.first.is_visible(),
                          "enabled": target.first.is_enabled()} if target.count() else "absent"
        said["version"] = page.evaluate(_VERSION_JS)
        said["page_errors"] = getattr(page, "page_errors", None)
        return repr(said)
    except Exception as exc:  # a diagnostic must not hide the failure
        return f"(could not read the page: {exc})"


def shot(page: Page, artifacts, name: str) -> None:
    page.screenshot(path=str(artifacts / f"codex-{name}.png"), full_page=True)


def first_visible(page: Page, selector: str):
    loc = page.locator(selector)
    for i in range(loc.count()):
        if loc.nth(i).is_visible():
            return loc.nth(i)
    raise AssertionError(f"nothing visible matches {selector}")


def click_legal_plot(page: Page) -> str:
    """Click the centre of the first highlighted plot (a real mouse click); its classes."""
    plot = page.locator(f'path.cw-plot[stroke="{LEGAL}"]').first
    cls = plot.get_attribute("class") or ""
    box = plot.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return cls


def set_up(page: Page, n_cpus: int) -> None:
    page.get_by_role("button", name="New game", exact=True).click()
    page.locator(".cw-n-players select").select_option(label=str(n_cpus + 1))
    for i in range(1, n_cpus + 1):
        page.locator(f".cw-seat-{i} select").select_option(label="CPU: easy" if i == 1 else "CPU: normal")
    k = page.locator(".cw-option-k input")
    k.fill("3")
    k.press("Tab")
    page.locator(".cw-cpu-speed").get_by_role("button", name="Instant", exact=True).click()
    seed = page.locator("xpath=//div[contains(@class,'widget-html')][contains(normalize-space(.), 'Seed')]"
                        "/following-sibling::div[contains(@class,'widget-text')][1]//input")
    seed.fill("11")
    seed.press("Tab")


@pytest.mark.parametrize("n_cpus", [1, 2])
def test_a_whole_codex_game_against_cpus(codex: Page, artifacts, n_cpus: int) -> None:
    page = codex
    set_up(page, n_cpus)
    shot(page, artifacts, f"{n_cpus}cpu-01-setup")
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator(".cw-market")).to_be_visible()
    expect(page.locator("path.cw-plot")).to_have_count(54)                   # 6 territories of 3 x 3
    expect(page.locator(".cw-market-players tr[data-seat]")).to_have_count(n_cpus + 1)
    assert page.locator(".leaflet-tile").count() == 0                        # no tiles: offline
    shot(page, artifacts, f"{n_cpus}cpu-02-start")

    seen: set[str] = set()
    bought = False
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        assert time.monotonic() < deadline, f"the game did not end in {TIMEOUT_S} s (seen {sorted(seen)})"
        page.wait_for_function(_STATE_JS, timeout=60_000)
        state = page.evaluate(_STATE_JS)
        if state == "results":
            break
        first = state not in seen
        seen.add(state)
        if state == "share":
            button = first_visible(page, 'button[class*="cw-share-"]')
            click_and_wait(page, button)
        elif state == "roll":
            buy = page.locator(".cw-market button[class*='cw-buy-']:not([disabled])")
            if not bought and buy.count():
                before = page.locator(".cw-purchases-left").inner_text()
                click_and_wait(page, buy.first)
                expect(page.locator(".cw-purchases-left")).not_to_have_text(before)
                bought = True
                shot(page, artifacts, f"{n_cpus}cpu-03-bought")
                continue
            click_and_wait(page, page.locator("button.cw-roll"))
            expect(page.locator(".cw-dice .cw-die-number")).to_be_visible()
        elif state == "place":
            if first:
                shot(page, artifacts, f"{n_cpus}cpu-04-legal-plots")
            for _ in range(3):                        # a lost click (see click_and_wait) is retried
                cls = click_legal_plot(page)
                assert re.search(r"cw-plot-\d-\d-\d", cls)
                try:
                    page.wait_for_function(f"() => ['confirm', 'joker'].includes(({_STATE_JS})())", timeout=15_000)
                    break
                except PlaywrightTimeout:
                    continue
        elif state == "joker":
            if first:
                shot(page, artifacts, f"{n_cpus}cpu-05-joker")
            first_visible(page, '.cw-joker button[class*="cw-joker-"]:not(.cw-joker-cancel)').click()
            expect(page.locator("button.cw-confirm")).to_be_visible()
        elif state == "confirm":
            expect(page.locator(".cw-preview")).to_be_visible()
            if first:
                shot(page, artifacts, f"{n_cpus}cpu-06-preview")
            click_and_wait(page, page.locator("button.cw-confirm"))
        elif state == "forced":
            if first:
                shot(page, artifacts, f"{n_cpus}cpu-07-forced-sale")
            click_and_wait(page, first_visible(page, ".cw-forced button"))
        elif state == "end":
            if first:
                shot(page, artifacts, f"{n_cpus}cpu-08-trade2")
            click_and_wait(page, page.locator("button.cw-end-turn"))

    results = page.locator(".cw-results")
    expect(results).to_contain_text("Final wealth")
    expect(results.locator(".cw-codex-results tr[data-seat]")).to_have_count(n_cpus + 1)
    expect(page.locator(".cw-log")).to_contain_text("The game ends")
    assert {"roll", "place", "confirm", "end"} <= seen
    shot(page, artifacts, f"{n_cpus}cpu-09-results")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_codex_board_in_japanese(codex: Page, artifacts) -> None:
    page = codex
    set_up(page, 1)
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator(".cw-market")).to_be_visible()
    page.get_by_role("button", name="日本語", exact=True).click()
    expect(page.locator(".cw-market")).to_contain_text("市場")
    expect(page.locator(".cw-market")).to_contain_text("未上場")
    share = first_visible(page, 'button[class*="cw-share-"]')
    expect(share).to_contain_text("の無料株を受け取る")
    click_and_wait(page, share)
    roll = page.locator("button.cw-roll")
    expect(roll).to_have_text("ダイスを振る")
    click_and_wait(page, roll)
    expect(page.locator(".cw-dice")).to_contain_text("領域")
    if page.locator(f'path.cw-plot[stroke="{LEGAL}"]').count():
        click_legal_plot(page)
        page.wait_for_function(f"() => ['confirm', 'joker'].includes(({_STATE_JS})())", timeout=60_000)
        if page.evaluate(_STATE_JS) == "joker":
            first_visible(page, '.cw-joker button[class*="cw-joker-"]:not(.cw-joker-cancel)').click()
        expect(page.locator(".cw-preview")).to_contain_text("置きますか")
        expect(page.locator("button.cw-confirm")).to_have_text("確定")
    shot(page, artifacts, "ja-preview")
    assert page.page_errors == []  # type: ignore[attr-defined]
