"""Issue 16 in a browser: the lost first click, the half-drawn map, the 1280x720 layout.

Run one file at a time (``nice -n 5 .venv/bin/python -m pytest -q tests/e2e/test_player_polish.py``);
every wait is for a state of the page, never a sleep.  Screenshots go to ``test-artifacts/e2e/``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .app_page import NEUTRAL_FILL, AppPage
from .test_play_in_browser import (
    expect_route,
    plan_route,
    roll,
    set_up_human_vs_cpu,
    wait_for_human_turn,
)

SMALL = {"width": 1280, "height": 720}


@pytest.fixture
def app(page, voila_url, artifacts) -> AppPage:
    return AppPage(page, voila_url, artifacts)


# Every scroll offset of the page (the window and any scrolling element): it must not
# change when the player clicks the map.
_SCROLLS_JS = """() => [window.scrollY, ...[...document.querySelectorAll('*')]
    .filter(e => e.scrollTop > 0).map(e => e.scrollTop)].join(',')"""

# Does Leaflet's drawing layer (the SVG of the overlay pane) cover the whole map container?
_PANE_COVERS_JS = """() => {
  const c = document.querySelector('.leaflet-container');
  const svg = c && c.querySelector('.leaflet-overlay-pane svg');
  if (!svg) return null;
  const a = c.getBoundingClientRect(), b = svg.getBoundingClientRect();
  return {container: [a.left, a.top, a.width, a.height], svg: [b.left, b.top, b.width, b.height],
          covers: b.left <= a.left + 1 && b.top <= a.top + 1 && b.right >= a.right - 1 && b.bottom >= a.bottom - 1};
}"""


def test_first_click_right_after_roll_adds_the_step_at_1280x720(app: AppPage) -> None:
    """Issue 16 item 1: press Roll, click a highlighted prefecture at once: the step is
    added and the page does not move under the pointer."""
    page = app.page
    page.set_viewport_size(SMALL)
    app.open()
    set_up_human_vs_cpu(app)
    expect(app.button("Roll")).to_be_visible()
    app.button("Roll").click()
    legal = app.wait_for_highlights()
    choice = next((c for c in legal if app.fill(c) == NEUTRAL_FILL), legal[0])
    before = page.evaluate(_SCROLLS_JS)
    app.click_prefecture(choice)
    expect_route(app, 1)
    assert page.evaluate(_SCROLLS_JS) == before, "the page scrolled under the pointer"
    # once the app is scrolled to (the notebook's introduction is above it), the whole
    # map and the route buttons are on the screen at 1280x720
    page.locator(".cw-match-app").evaluate("e => e.scrollIntoView({block: 'start'})")
    box = page.locator(".leaflet-container").first.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SMALL["height"] + 1, box
    confirm = app.button("Confirm Route").bounding_box()
    assert confirm is not None and confirm["y"] + confirm["height"] <= SMALL["height"], confirm
    app.shot("polish-1280x720-route")
    assert page.page_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [SMALL, {"width": 1400, "height": 1000}], ids=["1280x720", "1400x1000"])
def test_leaflet_pane_covers_the_map_after_the_side_panel_grows(app: AppPage, size: dict) -> None:
    """Issue 16 item 3: after a turn (the log and the panels have grown) and a drag, the
    drawing layer still covers the whole map container."""
    page = app.page
    page.set_viewport_size(size)
    app.open()
    set_up_human_vs_cpu(app)
    expect(app.button("Roll")).to_be_visible()
    expect_pane_covers(app)
    plan_route(app, roll(app), undo=False)
    app.button("Confirm Route").click()
    wait_for_human_turn(app, turn=2)
    expect_pane_covers(app)
    box = page.locator(".leaflet-container").first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 + 80, steps=8)
    page.mouse.up()
    expect_pane_covers(app)
    app.shot(f"polish-{size['width']}x{size['height']}-turn2")
    assert page.page_errors == []  # type: ignore[attr-defined]


def expect_pane_covers(app: AppPage) -> None:
    """Wait (a pan may still be animating: Leaflet moves its drawing layer at the end of a
    move) until the drawing layer covers the map container; fail with the sizes if never."""
    try:
        app.page.wait_for_function(f"() => ({_PANE_COVERS_JS})().covers", timeout=15_000)
    except Exception:
        raise AssertionError(f"Leaflet's pane does not cover the map: {app.page.evaluate(_PANE_COVERS_JS)}") from None


def test_save_and_exit_during_a_cpu_turn_then_resume_the_cpu_finishes(app: AppPage) -> None:
    """Issue 16 item 2 in the browser: Save and Exit while "CPU ... is playing", Load the
    slot at once: the CPU finishes its turn and it is player 1's turn 2."""
    page = app.page
    app.open()
    set_up_human_vs_cpu(app)
    expect(app.button("Roll")).to_be_visible()
    plan_route(app, roll(app), undo=False)
    app.set_cpu_speed("Normal")
    app.button("Confirm Route").click()
    expect(page.get_by_text("Player 2 (CPU) is playing")).to_be_visible()
    app.save_to_slot(2)  # answering "overwrite?" if an earlier run used the slot
    expect(page.get_by_text("Player 2 (CPU) is playing")).to_be_visible()  # saved during the CPU's turn
    app.exit_game()
    app.shell_button("cw-load-2").click()
    wait_for_human_turn(app, turn=2)
    assert page.page_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [SMALL, {"width": 1400, "height": 1000}], ids=["1280x720", "1400x1000"])
def test_setup_screen_labels_and_a_translated_error(app: AppPage, size: dict) -> None:
    """Issue 16 item 7: CPU settings labelled (human seats have none); a shared home is
    explained in Japanese in 日本語 mode.  Screenshots of both sizes."""
    page = app.page
    page.set_viewport_size(size)
    app.open()
    app.new_game_button.click()
    expect(app.start_button).to_be_visible()
    app.toggle_after_label("Number of players", "4").click()  # the form remembers the last game's setup
    kinds = app.kind_toggles()
    kinds.nth(0).get_by_role("button", name="Human").click()
    for seat in (1, 2, 3):
        kinds.nth(seat).get_by_role("button", name="CPU").click()
    labels = page.locator("label.widget-label", has_text="Difficulty")
    expect(labels.first).to_be_hidden()  # seat 1 is human: no CPU settings
    expect(labels.filter(visible=True)).to_have_count(3)  # seats 2-4 are CPUs
    page.locator(".cw-match-app").evaluate("e => e.scrollIntoView({block: 'start'})")
    app.shot(f"polish-{size['width']}x{size['height']}-setup")
    page.get_by_role("button", name="日本語", exact=True).click()
    homes = page.locator("select").filter(has=page.locator("option", has_text="北海道"))
    homes.nth(1).select_option(label="東京都")
    page.get_by_role("button", name="出陣", exact=True).click()
    # said once, in the form (the shell does not say it again above the screens)
    expect(page.locator(".cw-setup-form .cw-msg")).to_contain_text("二人の本拠地が同じ東京都です")
    expect(app.message).not_to_contain_text("二人の本拠地")
    app.shot(f"polish-{size['width']}x{size['height']}-setup-error-ja")
    page.get_by_role("button", name="English", exact=True).click()
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_double_clicks_are_harmless_and_silent(app: AppPage) -> None:
    """Issue 16 item 8: a double-click on Roll rolls once and says nothing; a double-click
    on a prefecture adds one step, says nothing and does not zoom the map."""
    page = app.page
    app.open()
    set_up_human_vs_cpu(app)
    expect(app.button("Roll")).to_be_visible()
    app.button("Roll").dblclick()
    app.wait_for_highlights()
    expect(page.locator(".cw-msg").filter(visible=True)).to_have_text([""] * page.locator(".cw-msg").filter(visible=True).count())
    legal = app.highlighted_codes()
    choice = next((c for c in legal if app.fill(c) == NEUTRAL_FILL), legal[0])
    zoom = page.evaluate(_ZOOM_JS)
    point = page.evaluate(_POINT_JS, choice)
    page.mouse.dblclick(point["x"], point["y"])
    expect_route(app, 1)
    said = page.inner_text(".cw-match-app")
    assert "phase" not in said and "not connected" not in said
    assert page.evaluate(_ZOOM_JS) == zoom  # the map may pan to the route, but does not zoom
    assert page.page_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [SMALL, {"width": 1400, "height": 1000}], ids=["1280x720", "1400x1000"])
def test_watch_four_cpus_shows_each_battle(app: AppPage, size: dict) -> None:
    """The one-click demo; a CPU-against-CPU battle is shown (both rolls, the winner) for a
    moment at the chosen speed.  Screenshots of the battle at both sizes."""
    page = app.page
    page.set_viewport_size(size)
    app.open()
    page.locator("button.cw-watch-cpus").click()
    expect(page.locator(".cw-score tr[data-seat]")).to_have_count(4)
    page.locator(".cw-match-app").evaluate("e => e.scrollIntoView({block: 'start'})")
    result = page.locator(".cw-battle-result")
    expect(result).to_be_visible(timeout=240_000)
    expect(result.locator(".cw-battle-winner")).to_contain_text("!")
    app.shot(f"polish-{size['width']}x{size['height']}-cpu-battle")
    expect(result).to_be_hidden(timeout=30_000)  # no Continue needed between two CPUs
    assert page.page_errors == []  # type: ignore[attr-defined]


# Leaflet's zoom, as the scale of its proxy element (the map's own state in the page)
_ZOOM_JS = "() => (document.querySelector('.leaflet-proxy').style.transform.match(/scale\\(([^)]+)\\)/) || [])[1]"

_POINT_JS = """(code) => {
  const el = document.querySelector('path.cw-pref-' + code);
  const map = el.closest('.leaflet-container').getBoundingClientRect();
  const b = el.getBoundingClientRect();
  const x0 = Math.max(b.left, map.left + 2), x1 = Math.min(b.right, map.right - 2);
  const y0 = Math.max(b.top, map.top + 2), y1 = Math.min(b.bottom, map.bottom - 2);
  for (let i = 0; i <= 16; i++) for (let j = 0; j <= 16; j++) {
    const x = x0 + (x1 - x0) * (0.5 + (i % 2 ? 1 : -1) * Math.ceil(i / 2) / 16);
    const y = y0 + (y1 - y0) * (0.5 + (j % 2 ? 1 : -1) * Math.ceil(j / 2) / 16);
    if (document.elementFromPoint(x, y) === el) return {x, y};
  }
  return null;
}"""
