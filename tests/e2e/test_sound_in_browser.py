"""Sound in the browser (issue 16, "Also"): after a click on the page, a Roll with sound on
plays the "roll" effect; with the header's switch off, a later Roll plays nothing.

The page side of conquest_widget/ui/sound.py records every request it receives in
``window.__cwSound`` (``{effect, t, status}``, the last 50), whether or not the browser
can make a sound (headless chromium has WebAudio but no speech voices).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from conquest_widget.saves import SaveStore

from .app_page import AppPage
from .test_play_in_browser import (
    plan_route,
    roll,
    set_up_human_vs_cpu,
    wait_for_human_turn,
)

ACTIVE = re.compile(r"\bmod-active\b")


@pytest.fixture
def app(page, voila_url, artifacts) -> AppPage:
    return AppPage(page, voila_url, artifacts)


def _sounds(app: AppPage) -> list[dict]:
    return app.page.evaluate("() => (window.__cwSound || []).slice()")


def _set_sound(app: AppPage, on: bool) -> None:
    toggle = app.page.locator("button.cw-sound-toggle")
    expect(toggle).to_be_visible()
    if bool(ACTIVE.search(toggle.get_attribute("class") or "")) != on:
        toggle.click()
    if on:
        expect(toggle).to_have_class(ACTIVE)
        expect(toggle).to_have_text("🔊 Sound")
    else:
        expect(toggle).not_to_have_class(ACTIVE)
        expect(toggle).to_have_text("🔇 Sound")


def test_a_roll_sounds_with_sound_on_and_not_with_sound_off(app: AppPage, served_dir, artifacts) -> None:
    page = app.page
    # earlier tests in the same served folder leave remembered setups (other player names) in
    # its preferences; this test starts from a first visit's preferences
    (served_dir / "conquest_saves" / "preferences.json").unlink(missing_ok=True)
    app.open()
    # before any click on the page: no AudioContext has been made (browsers block autoplay)
    assert page.evaluate("() => window.__cwAudio ? window.__cwAudio.ctx === null && !window.__cwAudio.unlocked : true")
    page.locator(".cw-match-app .cw-bar").click()  # the first click on the page allows sound
    assert page.evaluate("() => window.__cwAudio.unlocked === true")
    _set_sound(app, True)
    volume = page.locator(".cw-sound-volume")
    expect(volume).to_be_visible()
    expect(volume).to_contain_text("Volume")
    page.locator(".cw-match-app .cw-bar").screenshot(path=str(artifacts / "sound-header.png"))

    set_up_human_vs_cpu(app)
    total = roll(app)
    page.wait_for_function("() => (window.__cwSound || []).some(e => e.effect === 'roll')")
    rolls = [e for e in _sounds(app) if e["effect"] == "roll"]
    assert len(rolls) == 1, _sounds(app)
    # the page was clicked: the effect was synthesised (or at worst the context was not running yet)
    assert rolls[0]["status"] in ("played", "suspended"), rolls
    # the game's start is announced with the first player's name (the setup form remembers the
    # names of an earlier game in the same save folder, so the name is read from the scoreboard)
    first_row = app.scoreboard.locator("tr").nth(1).inner_text()
    turns = [e["text"] for e in _sounds(app) if e["effect"] == "say" and e["text"].endswith("'s turn")]
    assert turns and turns[0].removesuffix("'s turn") in first_row, (first_row, _sounds(app))
    app.shot("sound-on-rolled")

    # --- sound off: the rest of this turn, the CPU's turn and the next Roll make no request
    _set_sound(app, False)
    prefs = SaveStore(served_dir / "conquest_saves").preferences()
    assert prefs["sound"]["enabled"] is False
    before = len(_sounds(app))
    plan_route(app, total, undo=False)
    app.button("Confirm Route").click()
    wait_for_human_turn(app, turn=2)
    total = roll(app)
    # a later round trip (a planned step) is on the page after anything the roll could have sent
    legal = app.wait_for_highlights()
    app.click_prefecture(legal[0])
    expect(app.button("Undo Step")).to_be_enabled()
    after = _sounds(app)
    (artifacts / "sound-log.json").write_text(json.dumps(after, ensure_ascii=False, indent=1), encoding="utf-8")
    assert len(after) == before, after[before:]
    assert page.page_errors == []  # type: ignore[attr-defined]

    _set_sound(app, True)  # leave the served copy's preferences as they were
