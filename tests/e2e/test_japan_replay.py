"""Replay in Japan Conquest's app, as a user finds it (issue 29): examples/play.ipynb served
by Voila, in chromium, offline.  The picker -> Japan Conquest (the shell's app) -> a short
game against a CPU, a turn played -> Exit -> Replay on the start screen's Resume row:
the explorer (the shell's, drawing Japan Conquest's board with its own map; the app's map
is hidden meanwhile) opens on that game at its last action, inside the app; its buttons
scrub through the history and the map follows; Back returns to the start screen; Replay
again opens the explorer on the game anew, and "Branch here" plays on from there in the
app.

Screenshots: ``test-artifacts/e2e/japan-replay-*.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .app_page import NEUTRAL_FILL, AppPage
from .test_play_in_browser import plan_route, roll, wait_for_human_turn


@pytest.fixture
def app(page, voila_url, artifacts) -> AppPage:
    return AppPage(page, voila_url, artifacts)


def _status(app: AppPage) -> tuple[int, int]:
    """The explorer's "Move k of n" as (k, n)."""
    text = app.page.locator(".cw-replay-position").inner_text()
    k, n = re.search(r"Move (\d+) of (\d+)", text).groups()
    return int(k), int(n)


def _expect_status(app: AppPage, pattern: str) -> None:
    """Wait for the explorer's position to match ``pattern``."""
    expect(app.page.locator(".cw-replay-position")).to_contain_text(re.compile(pattern))


#: how many prefectures someone owns (filled in a player's colour) on the map shown (the
#: app's map is hidden, not gone, while the replay shows its own)
_COUNT_OWNED_JS = f"""() => [...document.querySelectorAll('path.cw-pref')]
    .filter(e => e.getBoundingClientRect().width > 0)
    .filter(e => (e.getAttribute('fill') || '').toLowerCase() !== '{NEUTRAL_FILL}').length"""


def _owned(app: AppPage) -> int:
    return app.page.evaluate(_COUNT_OWNED_JS)


def test_replay_the_last_game_from_the_start_screen(app: AppPage) -> None:
    page = app.page
    app.open()

    # --- a short game (5 turns): player 1 human, player 2 CPU
    app.fill_form(("Human", "CPU"))
    app.select_after_label("Turns").select_option(label="5")
    app.start_button.click()
    expect(app.button("Roll")).to_be_visible()

    # --- play a little: player 1's first turn, then the CPU's
    plan_route(app, roll(app), undo=False)
    app.button("Confirm Route").click()
    wait_for_human_turn(app, turn=2)
    owned = _owned(app)
    assert owned >= 3  # the two homes and what was claimed since

    # --- exit; the start screen offers Replay beside Resume
    app.exit_game()
    expect(app.shell_button("cw-resume")).to_be_enabled()
    replay = page.locator(".cw-replay-autosave")
    expect(replay).to_be_enabled()
    expect(replay).to_have_text("Replay")
    # a slot's row has one too once it holds this game (test_play_in_browser saves one)
    app.shot("japan-replay-01-start")
    replay.click()

    # --- the explorer, in the app: the last action shown, the map as the game left it
    back = app.shell_button("cw-back")
    expect(back).to_be_visible()
    expect(page.get_by_role("heading", name="Replay: Japan Conquest")).to_be_visible()
    expect(app.new_game_button).to_be_hidden()
    expect(page.locator(".cw-japan-stage")).to_be_hidden()  # the app's map is off the page meanwhile
    app.wait_for_map()  # the explorer's own map
    _expect_status(app, r"Move (\d+) of \1(?!\d)")
    k, n = _status(app)
    assert k == n > 3
    page.wait_for_function(f"({_COUNT_OWNED_JS})() === {owned}")
    expect(app.button("Branch here")).to_be_enabled()
    app.shot("japan-replay-02-opened")

    # --- scrub: a turn back, a step back, then the very start (only the home bases)
    app.button("◀ turn").click()
    _expect_status(app, rf"Move (?!{n} )\d+ of {n}(?!\d)")
    k1, _ = _status(app)
    assert 0 <= k1 < n
    if k1 > 0:
        app.button("<").click()
        _expect_status(app, rf"Move {k1 - 1} of {n}(?!\d)")
    app.button("|<").click()
    _expect_status(app, rf"Move 0 of {n}(?!\d)")
    expect(page.locator(".cw-replay-status")).to_contain_text("start of the game")
    page.wait_for_function(f"({_COUNT_OWNED_JS})() === 2")  # the two home bases alone
    app.button("turn ▶").click()  # the start of the CPU's turn 1
    _expect_status(app, rf"Move [1-9]\d* of {n}(?!\d)")
    k2, _ = _status(app)
    if k2 < n:
        app.button(">").click()  # one action into it
        _expect_status(app, rf"Move {k2 + 1} of {n}(?!\d)")
    page.locator("select").filter(has=page.locator("option", has_text="reachable stops")).select_option(
        label="regional control")
    legend = page.locator("div.cw-legend").last
    expect(legend).to_contain_text("Kanto")
    legend.scroll_into_view_if_needed()  # the map's legend is below the fold
    app.shot("japan-replay-03-scrubbed")
    # back to the top of the page (not the mouse wheel: over the explorer's map it zooms the
    # map, and Back closing the map mid-zoom makes jupyter-leaflet throw in the page)
    page.evaluate("window.scrollTo(0, 0)")

    # --- Back: the start screen and the app's map, as they were
    back.click()
    expect(app.new_game_button).to_be_visible()
    expect(back).to_be_hidden()
    expect(page.locator(".cw-replay")).to_have_count(0)  # the explorer is closed, not hidden
    expect(page.locator(".cw-japan-stage")).to_be_visible()
    app.wait_for_map()
    expect(app.shell_button("cw-resume")).to_be_enabled()
    app.shot("japan-replay-04-back")

    # --- Replay again: the same explorer, loaded anew (at the end, no overlay); Branch here plays on
    replay.click()
    expect(back).to_be_visible()
    _expect_status(app, rf"Move {n} of {n}(?!\d)")
    page.wait_for_function(f"({_COUNT_OWNED_JS})() === {owned}")
    expect(page.locator("div.cw-legend:visible")).to_have_count(0)  # the overlay was cleared
    app.button("Branch here").click()
    expect(app.button("Roll")).to_be_visible()  # the human's turn 2, played on in the app
    expect(back).to_be_hidden()
    expect(page.locator(".cw-japan-stage")).to_be_visible()
    app.wait_for_map()
    page.wait_for_function(f"({_COUNT_OWNED_JS})() === {owned}")
    app.shot("japan-replay-05-branched")
    assert page.page_errors == []  # type: ignore[attr-defined]
