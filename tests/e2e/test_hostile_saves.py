"""Hostile save files in a real browser: no script from a file runs, no element from a
file is injected (issue: stored XSS through a player colour).

A save directory is prepared with HTML/JS in every string a player can type (names, in the
autosave, a slot, the results and the preferences) and with a script in a colour (a slot
whose colour is ``rgb(1,2,3)"><img ...>``, which older versions accepted).  The app is
served by Voila from that directory, the saved games are resumed and every screen that shows
them is opened; the page must show the names as text, run nothing, and report the bad slot.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
from conquest_widget.games.codex.setup import CodexPlayer
from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    PlayerSetup,
)
from conquest_widget.games.japan_conquest.cpu import play_cpu_turns
from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
from conquest_widget.saves import SaveStore

from .app_page import AppPage
from .harness import open_hosted_game, serve_copy, voila_server

#: names that would run a script or inject an element if written into HTML unescaped
#: (each within the 24-character name limit)
PAYLOAD_NAMES = ("<img src onerror=cwx=1>", "<svg onload=cwx=2>", "<b id=cwinj>B</b>")
#: a colour that closes the style attribute and opens an image with a script
PAYLOAD_COLOUR = 'rgb(1,2,3)"></span><img src=x onerror="window.cwx=3"><span x="'

#: what the page would contain if a payload got through
INJECTED_JS = """() => ({
  cwx: typeof window.cwx === 'undefined' ? null : window.cwx,
  injected: document.querySelectorAll('img[onerror], svg[onload], #cwinj, span[x]').length,
})"""


def _hostile_game(names: tuple[str, ...], *, finish: bool) -> JapanMatch:
    players = tuple(
        PlayerSetup(name=n, home=h, colour=c, cpu=True)
        for n, h, c in zip(names, (13, 27, 40), ("#d62728", "#1f77b4", "#2ca02c"), strict=True)
    )
    game = JapanMatch(GameSetup(players, turns=10, seed=5))
    if finish:
        play_cpu_turns(game)
    else:
        for _ in range(6):  # a few CPU actions, so the log has lines that name the players
            from conquest_widget.games.japan_conquest.cpu import cpu_action
            game.push(cpu_action(game))
    return game


def _hostile_codex() -> CodexMatch:
    """A Codex game of the payload names (the first a human, to act: its free share), the
    players' colours those of the setup form."""
    players = tuple(CodexPlayer(n, c, cpu=i > 0)
                    for i, (n, c) in enumerate(zip(PAYLOAD_NAMES, ("#e377c2", "#17becf", "#bcbd22"), strict=True)))
    return CodexMatch(CodexSetup(players, k=3), seed=5)


def _finished_codex() -> CodexMatch:
    """A Codex game of the payload names played to its end by random bots (its result is
    recorded: the shell's Previous results name them)."""
    from conquest_widget.core.bots import RandomBot, play_bots

    match = _hostile_codex()
    play_bots(match, {s: RandomBot() for s in range(match.n_seats)}, seed=5)
    assert match.outcome() is not None
    return match


def _hostile_risk() -> JapaneseRisk:
    """A Japanese Risk game of the payload names (the first a human, placing its income)."""
    return JapaneseRisk(RiskSetup(PAYLOAD_NAMES, bots=("human", "easy", "easy")), seed=5)


def _prepare(saves: Path) -> None:
    store = SaveStore(saves)
    store.autosave(_hostile_codex())
    store.record_result(_finished_codex())
    store.autosave(_hostile_risk())
    store.autosave(_hostile_game(PAYLOAD_NAMES, finish=False))
    store.save_slot(1, _hostile_game(PAYLOAD_NAMES, finish=False))
    finished = _hostile_game(PAYLOAD_NAMES, finish=True)
    store.record_result(finished)
    # the New game form starts from the setup of the game started last (names from a file)
    store.save_preferences({"last_setups": {"japan_conquest": finished.setup}, "language": "en"})
    # slot 2: the colour payload, written as an old version could have written it
    doc = json.loads((store.slot_path(1)).read_text())
    for p in doc["match"]["setup"]["players"]:
        p["colour"] = PAYLOAD_COLOUR
    store.slot_path(2).write_text(json.dumps(doc))


@pytest.fixture(scope="module")
def hostile_url(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    served = serve_copy(tmp_path_factory.mktemp("hostile"))
    _prepare(served / "conquest_saves")
    with voila_server(served, tmp_path_factory.mktemp("voila-home-hostile"), artifacts / "voila-hostile.log") as url:
        yield url


def _assert_clean(app: AppPage) -> None:
    found = app.page.evaluate(INJECTED_JS)
    assert found == {"cwx": None, "injected": 0}, f"a payload from a save file reached the page: {found}"


def test_html_in_every_saved_string_is_shown_as_text_and_never_run(page, hostile_url, artifacts) -> None:
    app = AppPage(page, hostile_url, artifacts)
    app.open()
    _assert_clean(app)

    # the slot with the colour payload is reported as unreadable and cannot be loaded; the
    # other is listed with its names as text
    expect(page.get_by_text(re.compile(r"Slot 2: .*(unreadable|cannot)", re.IGNORECASE))).to_be_visible()
    expect(app.shell_button("cw-load-2")).to_have_count(0)
    expect(app.shell_button("cw-delete-2")).to_have_count(1)  # it can go
    players = ", ".join(f"{name} (CPU)" for name in PAYLOAD_NAMES)
    expect(page.get_by_text(f"Slot 1: {players} (")).to_be_visible()
    # the autosave's names, as text, beside Resume
    expect(page.get_by_text(re.compile(r"Last game: .*" + re.escape(players)))).to_be_visible()

    # beside the long names (and beside the map), every button keeps its whole label
    for cls in ("cw-resume", "cw-replay-autosave", "cw-load-1", "cw-replay-1", "cw-delete-1", "cw-delete-2"):
        button = app.shell_button(cls)
        expect(button).to_be_visible()
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), f"{cls} shows {button.inner_text()!r} cut"

    # load the slot whose names are HTML: they appear as text in the scoreboard
    app.shell_button("cw-load-1").click()
    expect(app.scoreboard).to_contain_text(PAYLOAD_NAMES[0])
    expect(app.scoreboard).to_contain_text(PAYLOAD_NAMES[2])
    app.wait_for_map()
    _assert_clean(app)
    app.shot("hostile-01-resumed")

    # previous results (names from results.json) and the setup screen (names from preferences)
    app.exit_game()
    app.shell_button("cw-previous-results").click()
    shown = page.locator(".cw-previous-results-list")
    for name in PAYLOAD_NAMES:
        expect(shown).to_contain_text(name)
    _assert_clean(app)
    app.shell_button("cw-back").click()
    app.new_game_button.click()
    names = page.locator(".cw-setup-form input.cwj-name")
    for i, name in enumerate(PAYLOAD_NAMES):
        expect(names.nth(i)).to_have_value(name)
    _assert_clean(app)
    app.shot("hostile-02-setup")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_the_codex_board_shows_hostile_names_as_text(page, hostile_url, artifacts) -> None:
    """The Codex board (one anywidget drawing its scene with textContent) resumed from an
    autosave whose names are HTML: the status, the players' table and the preview name
    them as written, and nothing runs."""
    app = AppPage(page, hostile_url, artifacts)
    page.goto(hostile_url)
    resume = page.locator(".cw-continue-codex")
    expect(resume).to_be_enabled()
    resume.click()
    board = page.locator(".cw-codex-board")
    expect(board.locator(".cw-market-players tr[data-seat]")).to_have_count(3)
    for name in PAYLOAD_NAMES:
        expect(board.locator(".cw-market-players")).to_contain_text(name)
    expect(board.locator(".cw-status")).to_contain_text(f"Your move, {PAYLOAD_NAMES[0]}")
    _assert_clean(app)
    # a move, and the CPUs' answers drawn by the page: still text
    board.locator('button[class*="cw-share-"]').first.click()
    expect(board.locator('button[class*="cw-share-"]')).to_have_count(0)
    # whoever is to act is named, as written
    expect(board.locator(".cw-status")).to_contain_text(re.compile("|".join(map(re.escape, PAYLOAD_NAMES))))
    _assert_clean(app)
    app.shot("hostile-03-codex")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_the_risk_panels_show_hostile_names_as_text(page, hostile_url, artifacts) -> None:
    """Japanese Risk's side panels (one anywidget drawing its scene with textContent, issue
    32) resumed from an autosave whose names are HTML: the status and the knowledge panel
    name them as written, a click in the panels plays, and nothing runs."""
    app = AppPage(page, hostile_url, artifacts)
    page.goto(hostile_url)
    resume = page.locator(".cw-continue-japanese_risk")
    expect(resume).to_be_enabled()
    resume.click()
    board = page.locator(".cw-risk-board")
    expect(board.locator(".cwr-panels")).to_have_count(1)  # the panels: one widget
    expect(board.locator(".cw-status")).to_contain_text(f"You are {PAYLOAD_NAMES[0]}")
    for name in PAYLOAD_NAMES[1:]:
        expect(board.locator(".cw-knowledge")).to_contain_text(name)
    _assert_clean(app)
    board.locator("button.cw-buy-ninja").click()     # a move from the panels: one ninja bought
    expect(board.locator(".cw-reserve")).to_contain_text("Ninjas in reserve: 1")
    expect(board.locator(".cw-status")).to_contain_text(f"You are {PAYLOAD_NAMES[0]}")
    _assert_clean(app)
    app.shot("hostile-04-risk")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_the_shells_previous_results_show_hostile_names_as_text(page, hostile_url, artifacts) -> None:
    """The shell's start screen of the Codex (picked in the game picker, as every hosted
    game is: the page first shows the picker), its Previous results from a results file whose
    names are HTML: shown as text, nothing runs; then its Save data screen and Back."""
    app = AppPage(page, hostile_url, artifacts)
    open_hosted_game(page, hostile_url, "codex")
    page.locator("button.cw-previous-results").click()
    shown = page.locator(".cw-previous-results-list")
    for name in PAYLOAD_NAMES:
        expect(shown).to_contain_text(name)
    _assert_clean(app)
    app.shot("hostile-05-codex-previous-results")
    page.locator("button.cw-back").click()
    page.locator("button.cw-save-data").click()
    expect(page.locator(".cw-save-data-screen")).to_be_visible()
    page.locator(".cw-save-data-screen button.cw-back").click()
    expect(page.get_by_role("button", name="New game", exact=True)).to_be_visible()
    _assert_clean(app)
    assert page.page_errors == []  # type: ignore[attr-defined]
