"""Moving the mouse over the map sends nothing to the kernel and a click one message; hovering,
clicking and dragging still work (issue 18: jupyter-leaflet forwards every mouse event of the
map and of the shape under the pointer, each answered by a busy/idle pair;
``maps/quiet_pointer.py`` keeps those without a Python handler in the page).

Run one file at a time (``.venv/bin/python -m pytest -q tests/e2e/test_map_pointer.py``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .app_page import _FIND_POINT_JS, AppPage
from .harness import WS_COUNT_JS, WS_RECORD_JS

NAGANO, GIFU = 20, 21


@pytest.fixture
def app(page, voila_url, artifacts) -> AppPage:
    page.add_init_script(WS_COUNT_JS)
    page.add_init_script(WS_RECORD_JS)
    return AppPage(page, voila_url, artifacts)


def _point(app: AppPage, code: int) -> tuple[float, float]:
    p = app.page.evaluate(_FIND_POINT_JS, code)
    assert p is not None, f"prefecture {code} has no visible point"
    return p["x"], p["y"]


def _event(text: str) -> str:
    """What a message the page sent is: a widget event ("click", "mouseover"; jupyter-leaflet's
    "interaction" with its type), else the message's content method ("update"...)."""
    event = re.search(r'"event":\s*"(\w+)"', text)
    kind = re.search(r'"type":\s*"(\w+)"', text)
    if event:
        return event.group(1) if event.group(1) != "interaction" or not kind else kind.group(1)
    method = re.search(r'"method":\s*"(\w+)"', text)
    if method and method.group(1) == "update":
        state = text[text.find('"state"'):][:300]
        # the map's view (its centre and bounds), which the page syncs when the map is resized
        # or panned: not a pointer event
        return "view" if re.match(r'"state":\{"(center|zoom|north|south|east|west|bounds|pixel_bounds)"', state) else "update " + state[:160]
    return method.group(1) if method else text[:120]


def test_only_handled_mouse_events_reach_the_kernel_while_hover_click_and_drag_work(app: AppPage) -> None:
    page = app.page
    app.open()
    hover = page.locator(".cw-hover")

    # hovering a prefecture shows its name (mouseover still reaches the kernel)
    x, y = _point(app, NAGANO)
    page.mouse.move(x, y)
    expect(hover).to_have_text("Nagano")

    # moving the mouse around the map (no button pressed): the kernel hears nothing of it
    page.wait_for_function("() => window.__cwQuietPointer !== undefined")
    gx, gy = _point(app, GIFU)
    page.evaluate("window.__wsSent = 0")
    for i in range(1, 41):  # back and forth inside Gifu and Nagano: 40 moves, 2 shape changes
        t = (i % 20) / 20
        page.mouse.move(x + (gx - x) * t, y + (gy - y) * t)
    expect(hover).to_have_text("Nagano")  # the last move ends in Nagano again
    sent = page.evaluate("window.__wsSent")
    kept = page.evaluate("window.__cwQuietPointer.kept")
    assert kept >= 40, kept
    assert sent <= 4, f"{sent} messages for 40 mouse moves (only the shapes' mouseover has a Python handler)"

    # a click on a prefecture is one message, the polygon's click (jupyter-leaflet sends ten:
    # the map's and the shape's mouseover, mousedown, mouseup, preclick and click); the
    # browser tests that plan routes by clicking show the click still does its work
    page.evaluate("window.__wsSent = 0")
    page.mouse.click(x, y)
    page.wait_for_function("() => window.__wsSent >= 1")
    page.wait_for_timeout(300)  # anything else the click would send goes out at once
    assert page.evaluate("window.__wsSent") == 1

    # planning a step: the shape's mouseover and click, nothing more (the route badge the
    # kernel moves is not echoed back as a marker "move")
    app.start_game(("Human", "Human"))
    app.button("Roll").click()
    code = app.wait_for_highlights()[0]
    px, py = _point(app, code)
    first = page.evaluate("window.__wsSentText.length")
    page.mouse.click(px, py)
    expect(app.prefecture(code)).to_have_attribute("stroke", "#1b1b1b")  # on the route
    page.wait_for_timeout(300)
    sent = page.evaluate("n => window.__wsSentText.slice(n)", first)
    events = [_event(text) for text in sent]
    # the click is one message; besides it only the shape's mouseover (it has a Python
    # handler: the restyled shape under the pointer may be entered again) and, when the page's
    # layout moves the map (the route panel grows), the map's view state
    assert events.count("click") == 1 and set(events) <= {"click", "mouseover", "view"}, events

    # a drag still pans the map (the button is pressed, so Leaflet gets the moves)
    pane = page.locator(".leaflet-map-pane")
    before = pane.get_attribute("style")
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(x + 12 * i, y + 6 * i)
    page.mouse.up()
    expect(pane).not_to_have_attribute("style", before)
    app.shot("map-pointer-dragged")

    # and never, however late, a marker's "move" echo (nothing handles on_move): on a quiet
    # machine it went out within the 300 ms above (3 messages), on a busy one after them
    moves = page.evaluate("window.__wsSentText.filter(t => /\"event\":\\s*\"move\"/.test(t)).length")
    assert page.evaluate("window.__wsSentText.length") > 0
    assert moves == 0, f"{moves} marker 'move' echoes reached the kernel"
