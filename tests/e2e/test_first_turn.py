"""A first-time player's first turn, guided by the page's own words (issue 30): for Japan
Conquest, the card game and The Codex of Conquest, the test starts a game as a newcomer
would (New game, the form as it comes, Start), then at every step reads the guidance the
page shows and does what it says, until the turn has ended.  A step where the page says
nothing the test can follow fails: "the page gives no guidance".

The guidance read: Japan Conquest's turn panel (``.cw-turn-hint``: press “Roll”; the
route's hint: click a highlighted prefecture, press “Confirm Route”); the card table's
status line (``.cw-cards-board .cw-status``: draw a card, select cards, click your Jack,
Queen or King); the Codex board's status (``.cw-codex-board .cw-status``: choose your free
share, roll the dice, click a highlighted plot, end your turn) and its placement question
(``.cw-preview-box``: Confirm).  Screenshots: ``test-artifacts/e2e/first-turn-*.png``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, expect

from .app_page import AppPage
from .harness import open_hosted_game
from .test_codex_in_browser import LEGAL, click_and_wait, click_legal_plot, first_visible

STEPS_MAX = 40
QUOTED = re.compile(r"press “(.+?)”")


def _shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"first-turn-{name}.png"), full_page=True)


def _text(page: Page, selector: str) -> str:
    loc = page.locator(selector)
    return " ".join(loc.nth(i).inner_text() for i in range(loc.count()) if loc.nth(i).is_visible()).strip()


def _new_game_as_it_comes(page: Page, voila_url: str, game: str, status: str, yours: str) -> str:
    """A hosted game from the picker: New game, the form as it comes, Start; waits until
    the status line (``status``) says it is the player's turn (a CPU may start)."""
    open_hosted_game(page, voila_url, game)
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator(status)).to_contain_text(yours, timeout=90_000)
    return status


def _guidance(page: Page, status: str, done: list[str]) -> Iterator[str]:
    """The status line's words, read again after every step (at most ``STEPS_MAX`` steps
    and four minutes)."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and len(done) < STEPS_MAX:
        yield _text(page, status)


def _turn_over(page: Page, artifacts: Path, name: str) -> None:
    _shot(page, artifacts, name)
    assert page.page_errors == []  # type: ignore[attr-defined]


# ------------------------------------------------------------------ Japan Conquest
def test_japan_conquest_first_turn_follows_the_turn_panel(page: Page, voila_url: str, artifacts: Path) -> None:
    app = AppPage(page, voila_url, artifacts)
    app.open()
    app.start_game(("Human", "CPU"))
    done: list[str] = []
    for step in range(STEPS_MAX):
        hint = _text(page, ".cw-turn-hint")
        route = app.route_info.first.inner_text() if app.route_info.count() else ""
        if not done:
            assert hint, "the page gives no guidance at the start of the turn"
            _shot(page, artifacts, "japan-01-roll")
        said = hint or route
        if "Click a highlighted prefecture" in said:  # the route's hint (Movement N · ...)
            length = app.route_length()
            code = app.wait_for_highlights()[0]
            app.click_prefecture(code)
            page.wait_for_function(
                "n => [...document.querySelectorAll('.cw-route')].some(e => /^(Movement|移動力) \\d+/.test(e.innerText)"
                " && (e.innerText.match(/^\\d+\\. /gm) || []).length > n)", arg=length, timeout=30_000)
            if "step" not in done:
                _shot(page, artifacts, "japan-02-route")
            done.append("step")
            continue
        pressed = QUOTED.search(said)
        assert pressed, f"step {step}: the page gives no guidance the player can follow: {said!r}"
        name = pressed.group(1)
        if name == "Confirm Route":
            _shot(page, artifacts, "japan-03-confirm")
        app.button(name).click()
        done.append(name)
        if name == "Confirm Route":
            break
        expect(app.button(name)).to_be_hidden()
        # the panel's parts arrive one message each (the button goes before the route's text):
        # read the guidance once the page shows its next words
        page.wait_for_function(
            "() => [...document.querySelectorAll('.cw-turn-hint')].some(e => e.innerText.trim()) ||"
            " [...document.querySelectorAll('.cw-route')].some(e => /^(Movement|移動力) \\d+/.test(e.innerText))",
            timeout=30_000)
    assert done[0] == "Roll" and "step" in done and done[-1] == "Confirm Route", done
    # the turn is over: the CPU plays (or, at once, it is my second turn)
    page.wait_for_function(
        "() => /is playing|turn 2/.test(document.body.innerText)", timeout=60_000)
    expect(app.log_lines.first).to_be_visible()
    _turn_over(page, artifacts, "japan-04-turn-over")
    # a reload mid-game: the picker offers "Continue Japan Conquest", one click back to the game
    page.reload()
    again = page.locator(".cw-continue-japan_conquest")
    expect(again).to_have_text("Continue Japan Conquest")
    _shot(page, artifacts, "japan-05-picker-after-reload")
    again.click()
    expect(app.shell_button("cw-save")).to_be_visible()  # the game itself, not its start screen
    expect(app.shell_button("cw-exit")).to_be_visible()
    app.wait_for_map()
    expect(app.log_lines.filter(has_text="Player 1 rolled")).to_have_count(1)  # the same game
    _turn_over(page, artifacts, "japan-06-continued")


# ------------------------------------------------------------------ the card game
def test_card_game_first_turn_follows_the_status_line(page: Page, voila_url: str, artifacts: Path) -> None:
    status = _new_game_as_it_comes(page, voila_url, "conquest_cards", ".cw-cards-board .cw-status", "Your turn")
    done: list[str] = []
    for said in _guidance(page, status, done):
        if "Your turn: draw a card" in said:
            _shot(page, artifacts, "cards-01-draw")
            page.get_by_role("button", name=re.compile(r"^Draw")).click()
            expect(page.locator(status)).not_to_contain_text("draw a card")
            done.append("draw")
        elif "Select cards that share a suit or a value" in said:
            if "select" not in done:
                _shot(page, artifacts, "cards-02-select")
            playable = page.locator(".cw-cards-board button[class*='cw-card-']:not([disabled])")
            if playable.count():
                playable.first.click()
                expect(page.locator(status)).to_contain_text("Selected:")
                done.append("select")
            else:  # "... or End turn to play nothing"
                page.get_by_role("button", name="End turn", exact=True).click()
                done.append("end")
                break
        elif "click your Jack, Queen or King" in said:
            _shot(page, artifacts, "cards-03-selected")
            page.locator(".cw-cards-board button.cwc-target:not([disabled])").first.click()
            done.append("play")
            break
        else:
            raise AssertionError(f"the page gives no guidance the player can follow: {said!r} (after {done})")
    assert done[0] == "draw" and done[-1] in ("play", "end"), done
    # the turn is over: the status line says whose turn it is now
    expect(page.locator(status)).not_to_contain_text("Your turn", timeout=60_000)
    expect(page.locator(".cw-log")).to_contain_text("played" if done[-1] == "play" else "played no cards")
    _turn_over(page, artifacts, "cards-04-turn-over")


# ------------------------------------------------------------------ The Codex of Conquest
def test_codex_first_turn_follows_the_status_line(page: Page, voila_url: str, artifacts: Path) -> None:
    status = _new_game_as_it_comes(page, voila_url, "codex", ".cw-codex-board .cw-status", "Your move")
    done: list[str] = []
    for said in _guidance(page, status, done):
        question = _text(page, ".cw-preview-box")
        if "is playing" in said:  # the CPUs take their free shares: the page says so; wait
            page.wait_for_function("s => !/is playing/.test(document.querySelector(s).innerText)", arg=status,
                                   timeout=90_000)
            continue
        if question.startswith("Place a piece") or ("Confirm" in question and page.locator("button.cw-confirm").is_visible()):
            if "confirm" not in done:
                _shot(page, artifacts, "codex-04-confirm")
            click_and_wait(page, page.get_by_role("button", name="Confirm", exact=True))
            done.append("confirm")
        elif "Choose your free starting share" in said:
            _shot(page, artifacts, "codex-01-share")
            click_and_wait(page, first_visible(page, 'button[class*="cw-share-"]'))
            done.append("share")
        elif "then roll the dice" in said:
            _shot(page, artifacts, "codex-02-roll")
            click_and_wait(page, page.get_by_role("button", name="Roll the dice", exact=True))
            done.append("roll")
        elif "Which faction goes on" in _text(page, ".cw-joker"):
            first_visible(page, '.cw-joker button[class*="cw-joker-"]:not(.cw-joker-cancel)').click()
            expect(page.locator("button.cw-confirm")).to_be_visible()  # the question comes (no move yet)
            done.append("faction")
        elif "Click a highlighted plot" in said or "click a highlighted plot" in said:
            if "plot" not in done:
                _shot(page, artifacts, "codex-03-plot")
            assert page.locator(f'path.cw-plot[stroke="{LEGAL}"]').count(), "the status names plots that are not lit"
            click_legal_plot(page)
            page.wait_for_function(
                "() => [...document.querySelectorAll('button.cw-confirm, .cw-joker button')].some("
                "e => e.offsetParent !== null)", timeout=30_000)
            done.append("plot")
        elif "then end your turn" in said:
            _shot(page, artifacts, "codex-05-end")
            click_and_wait(page, page.get_by_role("button", name="End turn", exact=True))
            done.append("end")
            break
        elif "sell shares" in said or "in debt" in said:
            click_and_wait(page, first_visible(page, ".cw-forced button"))
            done.append("forced")
        else:
            raise AssertionError(f"the page gives no guidance the player can follow: {said!r} (after {done})")
    assert "roll" in done and "plot" in done and "confirm" in done and done[-1] == "end", done
    # the turn is over: another player is playing, or (CPUs being quick) my next turn has come
    page.wait_for_function(
        "() => /is playing|Turn [2-9]/.test(document.querySelector('.cw-codex-board .cw-status').innerText)",
        timeout=60_000)
    _turn_over(page, artifacts, "codex-06-turn-over")
