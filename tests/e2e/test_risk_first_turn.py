"""A first-time player's first turn of Japanese Risk, guided by the page's own words
(issue 30): served by Voila, in chromium, with real mouse clicks.  At each step the test
reads the guide box (``.cw-guide``) and does only what it says — click a territory
"outlined in yellow" or "marked ⚔" / "marked ➜" (found by that outline on the map), or
press the button it quotes (“...”, found by its name) — until it has ended the turn.
It also points at a prefecture (the name chip), reads the log, and zooms in (the names
written on the map).

Screenshots: ``test-artifacts/e2e/risk-first-<nn>-<step>.png``.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from conquest_widget.games.japanese_risk.widget.board import ATTACK_BORDER, MOVE_BORDER, PICK_BORDER

from .test_risk_in_browser import _POINT_JS, _VERSION_JS, acted, click_pref, set_up, shot

#: the guide's words for the territories it asks to click, and their outline on the map
KINDS = (("marked ⚔", ATTACK_BORDER, "attack"), ("marked ➜", MOVE_BORDER, "move"),
         ("outlined in yellow", PICK_BORDER, "select"))


def guide_text(page: Page) -> str:
    page.wait_for_function("() => { const g = document.querySelector('.cw-guide');"
                           " return g && g.offsetParent !== null && g.innerText.trim() !== ''; }", timeout=60_000)
    return page.locator(".cw-guide").inner_text()


def test_the_guide_leads_a_newcomer_through_the_first_turn(page: Page, voila_url: str, artifacts: Path) -> None:
    set_up(page, voila_url, seed=3, limit=2)
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("path.cw-pref")).to_have_count(47)
    page.wait_for_timeout(500)  # Leaflet settles its first view
    # pointing at a prefecture names it (whoever owns it); Tokyo is small: point at Hokkaido
    x, y, _cls = page.evaluate(_POINT_JS, "path.cw-pref-1")
    page.mouse.move(x, y)
    expect(page.locator(".cw-hover")).to_have_text("Hokkaido")
    steps: list[str] = []
    texts: list[str] = []
    for n in range(60):
        text = guide_text(page)
        texts.append(text)
        shot(page, artifacts, f"first-{n:02d}-{steps[-1] if steps else 'start'}")
        kind = next(((label, colour, step) for label, colour, step in KINDS if label in text), None)
        if (steps and steps[-1] == "launch") or kind is None or (kind[2] == "select" and "gathered" in text):
            # a button: after the battle the turn ends ("When you are done, press “End turn”")
            names = re.findall(r"“([^”]+)”", text)
            assert names, text
            name = "End turn" if steps and steps[-1] == "launch" and "End turn" in names else names[0]
            before = page.evaluate(_VERSION_JS)
            page.get_by_role("button", name=name, exact=True).click()
            acted(page, before)
            steps.append({"Place these armies": "place", "Bring onto the board": "deploy",
                          "Launch the attack": "launch", "End turn": "end"}.get(name, name))
            if name == "End turn":
                break
            continue
        label, colour, step = kind
        if step == "select" and page.locator("button.cw-place-confirm").is_visible():
            step = "income"
        code = click_pref(page, f'path.cw-pref[stroke="{colour}"]')
        assert code is not None, f"the guide says {label!r} but no such territory can be clicked"
        steps.append(step)
    shot(page, artifacts, "first-98-turn-ended")
    # zoomed in (four clicks on "+", 5.25 -> 7.25), every prefecture's name is written on the map
    names = page.locator(".cw-map-name", has_text="Tokyo")
    for _ in range(8):
        if names.count():
            break
        page.locator(".leaflet-control-zoom-in").click()
        page.wait_for_timeout(700)  # a click during Leaflet's zoom animation is ignored
    expect(names).to_have_count(1, timeout=30_000)
    shot(page, artifacts, "first-99-names-zoomed-in")
    assert steps[0] == "income" and "place" in steps and "deploy" in steps and steps[-1] == "end", steps
    assert "attack" in steps or "move" in steps, steps
    if "attack" in steps:
        assert "launch" in steps, steps
    said = "\n".join(texts)  # the guide named every step it led
    for words in ("outlined in yellow", "“Place these armies”", "“Bring onto the board”", "“End turn”"):
        assert words in said, words
    # the log reads as sentences
    log = page.locator(".cw-log").inner_text()
    assert "Ann receives" in log and "armies" in log
    assert not re.search(r"\[\d|\b1 (armies|hits)\b|belongs to neutral", log), log
    assert page.page_errors == []  # type: ignore[attr-defined]
