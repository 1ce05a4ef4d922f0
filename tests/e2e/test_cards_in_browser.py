"""Conquest (the card game) as a user plays it: examples/play.ipynb served by Voila (as
``make play``), in chromium, offline — the picker, the setup form, a whole game of one
human against CPUs by clicking cards and face cards, the results screen; and the secrecy
of the other hands measured on the wire: every websocket frame the browser receives is
recorded and no card of a hand the player has not seen is ever in one.

Selectors: ``.cw-cards-board``; your hand's cards ``button.cw-card-<code>``, face cards
``button.cw-face-<seat>-<J|Q|K>`` (a face card you can play on has ``.cwc-target``),
``button.cw-draw``, ``button.cw-end-turn``; the shell's ``.cw-results``, ``.cw-log``.
Screenshots go to ``test-artifacts/e2e/cards-*.png``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conquest_widget.games.conquest_cards.cards import JOKER
from conquest_widget.saves import SaveStore

from .harness import open_hosted_game, record_frames

TIMEOUT_S = 420
# a card code standing alone (not a colour like #9C27B0, not URL-encoding like %E6%9C%AC)
CODE = re.compile(r"(?<![0-9A-Za-z#%])(10|[2-9A])([SHCD])(?![0-9A-Za-z])")
SHOWN = re.compile(r"(10|[2-9A])(♠|♥|♣|♦|\\u2660|\\u2665|\\u2663|\\u2666)")
SUIT_OF = {"♠": "S", "♥": "H", "♣": "C", "♦": "D", "\\u2660": "S", "\\u2665": "H", "\\u2663": "C", "\\u2666": "D"}

# What the human can do now, read from the page (visible = laid out).
_STATE_JS = """
() => {
  const vis = (e) => e && (e.offsetParent !== null || e.getClientRects().length > 0);
  const q = (sel) => [...document.querySelectorAll(sel)].filter(vis);
  if (q('.cw-results').length) return 'results';
  if (q('.cw-cover button').length) return 'cover';
  const board = document.querySelector('.cw-cards-board');
  if (!vis(board)) return '';
  if (q('.cw-cards-board button.cw-draw:not([disabled])').length) return 'draw';
  if (q('.cw-cards-board button.cwc-target:not([disabled])').length) return 'target';
  if (q('.cw-cards-board button.cw-end-turn:not([disabled])').length) return 'play';
  return '';
}
"""

@pytest.fixture
def cards(page: Page, voila_url: str) -> Page:
    return open_cards(page, voila_url)


def open_cards(page: Page, voila_url: str) -> Page:
    """The picker, then Conquest (card game)'s start screen."""
    return open_hosted_game(page, voila_url, "conquest_cards")


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"cards-{name}.png"), full_page=True)


def set_up(page: Page, n_cpus: int, *, jokers: bool, seed: int) -> None:
    page.get_by_role("button", name="New game", exact=True).click()
    page.locator(".cw-n-players select").select_option(label=str(n_cpus + 1))
    page.locator(".cw-seat-0 select").select_option(label="Human")
    for i in range(1, n_cpus + 1):
        page.locator(f".cw-seat-{i} select").select_option(label="CPU: easy" if i == 1 else "CPU: normal")
    box = page.locator(".cw-option-jokers input")
    if box.is_checked() != jokers:
        box.click()
    page.locator(".cw-cpu-speed").get_by_role("button", name="Instant", exact=True).click()
    seed_box = page.locator(".cw-seed input")
    seed_box.fill(str(seed))
    seed_box.press("Tab")


def turn_over(page: Page) -> None:
    """Wait until the human's turn has ended (End turn disabled) or the game is over (the
    results shown: a table's page holds its results hidden from the start, so being there
    says nothing)."""
    page.wait_for_function(
        "() => { const r = document.querySelector('.cw-results');"
        " return !!(r && (r.offsetParent !== null || r.getClientRects().length > 0)) ||"
        " !!document.querySelector('.cw-cards-board button.cw-end-turn[disabled]'); }", timeout=60_000)


def play_to_the_end(page: Page, artifacts: Path, tag: str, on_quiet=None, on_cover=None) -> set[str]:
    """Play the human's turns by clicking until the results screen; returns the kinds of
    step taken.  Every click waits for its visible effect.  ``on_quiet(turn)`` runs at the
    start of each of the human's turns."""
    seen: set[str] = set()
    turn = 0
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        assert time.monotonic() < deadline, f"the game did not end in {TIMEOUT_S} s (seen {sorted(seen)})"
        page.wait_for_function(_STATE_JS, timeout=90_000)
        state = page.evaluate(_STATE_JS)
        if state == "results":
            return seen
        if state == "cover":
            if on_cover:
                on_cover()
            page.locator(".cw-cover button").click()
            expect(page.locator(".cw-cover button")).to_be_hidden()
            continue
        if state == "draw":
            turn += 1
            if on_quiet:
                on_quiet(turn)
            if turn == 2:
                shot(page, artifacts, f"{tag}-02-your-turn")
            page.locator("button.cw-draw").click()
            expect(page.locator("button.cw-draw")).to_be_disabled()
            seen.add("draw")
        elif state == "target":
            # cards selected (or the joker ready): play on the first face card offered
            if "target" not in seen:
                shot(page, artifacts, f"{tag}-03-selected")
            page.locator(".cw-cards-board button.cwc-target:not([disabled])").first.click()
            turn_over(page)
            seen.add("target")
        elif state == "play":
            hand = page.locator(".cw-cards-board button[class*='cw-card-']:not([disabled]):not(.cwc-selected)")
            joker = page.locator(f".cw-cards-board button.cw-card-{JOKER}:not([disabled])")
            if joker.count() and "joker" not in seen:
                joker.first.click()
                expect(page.locator(".cw-cards-board .cw-status")).to_contain_text("Joker ready")
                shot(page, artifacts, f"{tag}-04-joker")
                seen.add("joker")
            elif turn % 5 == 4 or hand.count() == 0:
                page.locator("button.cw-end-turn").click()
                turn_over(page)
                seen.add("end")
            else:
                first = hand.first
                code = re.search(r"cw-card-(\w+)", first.get_attribute("class") or "").group(1)
                first.click()
                expect(page.locator(f".cw-cards-board button.cw-card-{code}").first).to_have_class(
                    re.compile(r"\bcwc-selected\b"))
                seen.add("select")


@pytest.mark.parametrize("n_cpus", [1, 2])
def test_a_whole_card_game_against_cpus(cards: Page, artifacts: Path, n_cpus: int) -> None:
    page = cards
    set_up(page, n_cpus, jokers=n_cpus == 2, seed=5 + n_cpus)
    tag = f"{n_cpus}cpu"
    shot(page, artifacts, f"{tag}-01-setup")
    page.get_by_role("button", name="Start", exact=True).click()
    board = page.locator(".cw-cards-board")
    expect(board).to_be_visible()
    expect(page.locator(".cw-cards-board .cwc-seat")).to_have_count(n_cpus + 1)
    for seat in range(n_cpus + 1):
        for face in "JQK":
            expect(page.locator(f"button.cw-face-{seat}-{face}")).to_be_visible()
    seen = play_to_the_end(page, artifacts, tag)
    results = page.locator(".cw-results")
    expect(results).to_contain_text("How the game was scored")
    expect(results).to_contain_text("King (3 pt)")
    expect(results).to_contain_text(re.compile(r"won on|shared win"))
    expect(page.locator(".cw-log")).to_contain_text("game over")
    expect(page.get_by_role("button", name="Play again", exact=True)).to_be_visible()
    assert {"draw", "select", "target", "end"} <= seen, seen
    shot(page, artifacts, f"{tag}-05-results")
    # Japanese on the results screen
    page.get_by_role("button", name="日本語", exact=True).click()
    expect(page.locator(".cw-results")).to_contain_text("得点の内訳")
    shot(page, artifacts, f"{tag}-06-results-ja")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_no_card_of_a_hidden_hand_ever_reaches_the_browser(page: Page, voila_url: str, artifacts: Path,
                                                           served_dir: Path) -> None:
    """Every websocket frame from the kernel is kept; at several points of a game against
    a CPU, the cards the human cannot know (the CPU's hand, the deck: read from the
    autosave on disk) are looked for in all of them.  The human's own cards are found
    (the scan works)."""
    frames = record_frames(page)  # before the page opens its kernel's websocket
    open_cards(page, voila_url)
    set_up(page, 1, jokers=False, seed=23)
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator(".cw-cards-board")).to_be_visible()
    store = SaveStore(served_dir / "conquest_saves")
    checked = []

    def check(turn: int) -> None:
        if turn % 3 != 1:
            return
        # the autosave is written right after the redraw: wait for the one of this moment
        for _ in range(100):
            match = store.load_autosave("conquest_cards")
            st = match.state
            if st["turn"] == 0 and st["stage"] == "draw":
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"the autosave never reached the human's turn {turn}")
        me = 0
        hidden = set(st["deck"]) | {c for s, h in enumerate(st["hands"]) if s != me for c in h}
        found = cards_in(frames)
        assert not hidden & found, f"turn {turn}: the browser received {sorted(hidden & found)} of hidden cards"
        assert set(st["hands"][me]) <= found  # the scan sees the human's own cards
        checked.append((turn, len(hidden), len(frames)))

    play_to_the_end(page, artifacts, "secret", on_quiet=check)
    assert len(checked) >= 4 and checked[0][1] > 20, checked
    shot(page, artifacts, "secret-results")


#: the page code of a front-end widget (anywidget's ``_esm``: the package's own static
#: JavaScript, the same for every game) is not game state; a variable named like a card
#: (``AC``) must not count as a card sent to the page
ESM = re.compile(r'"_esm"\s*:\s*"(?:[^"\\]|\\.)*"')


def cards_in(frames: list[str]) -> set[str]:
    text = ESM.sub('"_esm": ""', "\n".join(frames))
    found = {a + b for a, b in CODE.findall(text)}
    found |= {a + SUIT_OF[b] for a, b in SHOWN.findall(text)}
    return found


def test_hot_seat_the_page_holds_only_the_viewers_hand(page: Page, voila_url: str, artifacts: Path,
                                                      served_dir: Path) -> None:
    """Two humans at one screen: the cover screen between their turns, and at the start of
    every turn the whole page (every element, hidden ones too, with its classes and
    attributes) holds no card of the other hand or of the deck, while it does show the
    viewer's own hand."""
    open_cards(page, voila_url)
    page.get_by_role("button", name="New game", exact=True).click()
    page.locator(".cw-n-players select").select_option(label="2")
    for i in range(2):
        page.locator(f".cw-seat-{i} select").select_option(label="Human")
    page.locator(".cw-cpu-speed").get_by_role("button", name="Instant", exact=True).click()
    page.get_by_role("button", name="Start", exact=True).click()
    # who is at the screen is not known yet: the first player's cover, not a hand
    expect(page.locator(".cw-cover")).to_contain_text("Pass the screen to")
    assert not page.locator(".cw-cards-board").is_visible()
    store = SaveStore(served_dir / "conquest_saves")
    viewers: list[int] = []
    covers = [0]

    def check(turn: int) -> None:
        for _ in range(100):
            st = store.load_autosave("conquest_cards").state
            if st["stage"] == "draw":
                break
            time.sleep(0.1)
        viewer = st["turn"]
        hidden = set(st["deck"]) | set(st["hands"][1 - viewer])
        # the whole app's DOM (hidden elements too), classes and attributes included
        html = page.evaluate("() => document.querySelector('.cw-shell').outerHTML")
        found = cards_in([html])
        if hidden & found:
            (artifacts / "hotseat-leak.html").write_text(html + "\n<!-- " + json.dumps(st) + " -->")
        assert not hidden & found, f"turn {turn}: the page of seat {viewer} holds {sorted(hidden & found)}"
        assert set(st["hands"][viewer]) <= found
        viewers.append(viewer)
        if turn == 3:
            shot(page, artifacts, "hotseat-turn")

    def on_cover() -> None:
        covers[0] += 1
        if covers[0] == 1:
            expect(page.locator(".cw-cover")).to_contain_text("Pass the screen to")
            assert not page.locator(".cw-cards-board").is_visible()
            shot(page, artifacts, "hotseat-cover")

    play_to_the_end(page, artifacts, "hotseat", on_quiet=check, on_cover=on_cover)
    assert covers[0] >= 10 and {0, 1} <= set(viewers), (covers, viewers)
    shot(page, artifacts, "hotseat-results")
