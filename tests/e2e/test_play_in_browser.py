"""The game as a user plays it: examples/play.ipynb served by Voila, in chromium, offline.

Screenshots of the key moments go to ``test-artifacts/e2e/``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conquest_widget.maps.japan.board import japan
from conquest_widget.saves import SaveStore

from .app_page import HIGHLIGHT, NEUTRAL_FILL, SELECTED, AppPage


@pytest.fixture
def app(page, voila_url, artifacts) -> AppPage:
    return AppPage(page, voila_url, artifacts)


def test_start_screen_and_map_render_offline(app: AppPage, offline) -> None:
    app.open()
    expect(app.page.locator("path.cw-pref")).to_have_count(47)
    assert app.page.locator("path.leaflet-interactive").count() >= 47
    # labels: one marker per prefecture, titled with its name
    expect(app.page.locator('.leaflet-marker-icon[title="Saitama"]')).to_have_count(1)
    # nothing is fetched from outside (no tiles, no CDN) apart from Voila's own template CSS
    assert app.page.locator(".leaflet-tile").count() == 0
    assert offline.unexpected() == []
    assert app.page.page_errors == []  # type: ignore[attr-defined]
    app.shot("01-start")


def test_human_vs_cpu_journey(app: AppPage) -> None:
    page = app.page
    app.open()

    # --- set up a human vs CPU game
    set_up_human_vs_cpu(app, shot="02-setup")

    # --- the game screen: player 1 (human) to roll
    expect(app.button("Roll")).to_be_visible()
    expect(page.get_by_role("heading", name="Player 1's turn 1")).to_be_visible()
    board = app.scoreboard
    expect(board.locator("tr[data-seat]")).to_have_count(2)
    expect(board.locator("tr.cw-current")).to_have_attribute("data-seat", "0")
    expect(board.locator('tr[data-seat="1"]')).to_contain_text("(CPU)")
    # map labels follow the game: home bases show their icon, owned prefectures no value
    tokyo = page.locator('.leaflet-marker-icon[title="Tokyo"]')
    expect(tokyo).to_contain_text("🏠")
    expect(tokyo).not_to_contain_text("50")
    expect(page.locator('.leaflet-marker-icon[title="Saitama"]')).to_contain_text("40")
    score_before = board.locator('tr[data-seat="0"] .cw-total').inner_text()
    log_before = app.log_lines.count()
    app.shot("03-game")

    # --- roll; the legal next steps are highlighted on the map
    total = roll(app)
    assert 1 <= total <= 6
    assert app.wait_for_highlights()
    app.shot("04-rolled")

    # --- plan a route by clicking highlighted prefectures, undo a step, confirm
    route = plan_route(app, total, undo=True, shots=("05-route-planned", "06-route-ready"))
    confirm = app.button("Confirm Route")
    app.set_cpu_speed("Normal")  # a CPU turn you can watch
    confirm.click()
    expect(confirm).to_be_hidden()

    # --- the scoreboard and the log changed; the CPU plays, then it is player 1 again
    expect(app.log_lines).not_to_have_count(log_before)
    expect(page.get_by_text("Player 2 (CPU) is playing")).to_be_visible()
    app.shot("07-cpu-playing")
    wait_for_human_turn(app, turn=2)
    expect(board.locator("tr.cw-current")).to_have_attribute("data-seat", "0")
    assert board.locator('tr[data-seat="0"] .cw-total').inner_text() != score_before
    expect(page.locator(".cw-log")).to_contain_text("Player 2")
    app.shot("08-after-cpu")

    # --- open a prefecture's info: where player 1 stopped
    stop = route[-1]
    app.click_prefecture(stop)
    info = page.locator(f'.cw-info[data-code="{stop}"]')
    expect(info).to_be_visible()
    # Player 1 claimed it; since then the CPU may have captured it, or passed through and made it neutral
    expect(info).to_contain_text(re.compile(japan().prefectures[stop - 1].name_en + r"\s*Owner: (Player [12]|Nobody)"))
    expect(app.prefecture(stop)).to_have_attribute("stroke", SELECTED)
    app.shot("09-info")

    # --- Japanese and back
    page.get_by_role("button", name="日本語", exact=True).click()
    expect(app.button("ダイスを振る")).to_be_visible()
    expect(page.get_by_text("全国制覇すごろく").first).to_be_visible()
    expect(info).to_contain_text("所有")
    app.shot("10-japanese")
    page.get_by_role("button", name="English", exact=True).click()
    expect(app.button("Roll")).to_be_visible()
    expect(info).to_contain_text("Owner")
    assert app.page.page_errors == []  # type: ignore[attr-defined]


def set_up_human_vs_cpu(app: AppPage, shot: str | None = None) -> None:
    """Start screen -> New game -> 2 players, player 1 human, player 2 CPU -> Start."""
    app.new_game_button.click()
    expect(app.start_button).to_be_visible()
    app.toggle_after_label("Number of players", "2").click()
    expect(app.toggle_after_label("Number of players", "2")).to_have_class(re.compile(r"\bmod-active\b"))
    kinds = app.kind_toggles()
    expect(kinds.nth(0)).to_be_visible()
    expect(kinds.nth(2)).to_be_hidden()  # seats 3 and 4 are gone
    kinds.nth(0).get_by_role("button", name="Human").click()
    kinds.nth(1).get_by_role("button", name="CPU").click()
    expect(kinds.nth(0).get_by_role("button", name="Human")).to_have_class(re.compile(r"\bmod-active\b"))
    expect(kinds.nth(1).get_by_role("button", name="CPU")).to_have_class(re.compile(r"\bmod-active\b"))
    if shot:
        app.shot(shot)
    app.start_button.click()


def plan_route(app: AppPage, total: int, *, undo: bool, shots: tuple[str, str] | None = None) -> list[int]:
    """After a roll: click highlighted prefectures until the route can be confirmed,
    undoing one step on the way if asked.  Returns the planned route (codes)."""
    confirm, undo_button = app.button("Confirm Route"), app.button("Undo Step")
    expect(undo_button).to_be_disabled()
    undone = not undo
    route: list[int] = []
    for _ in range(2 * total + 4):
        # read "can confirm" from the route text, which changes in one message with the steps
        # listed; the button's own state is a separate message that may lag a fresh undo
        confirmable = route_confirmable(app)
        if confirmable and undone:
            break
        if route and (confirmable or len(route) >= 2) and not undone:
            undo_button.click()
            route.pop()
            undone = True
            expect_route(app, len(route))
            continue
        # the route may be complete (0 left: no highlight) while Confirm's state is still arriving
        app.page.wait_for_function(_HIGHLIGHT_OR_CONFIRM_JS)
        if not app.highlighted_codes():
            continue  # the route is complete: confirm it (or undo a step) at the top of the loop
        legal = app.wait_for_highlights()
        # prefer an unowned prefecture (no battle on the way)
        choice = next((c for c in legal if app.fill(c) == NEUTRAL_FILL), legal[0])
        expect(app.prefecture(choice)).to_have_attribute("stroke", HIGHLIGHT)
        app.click_prefecture(choice)
        route.append(choice)
        expect_route(app, len(route))
        if len(route) == 1 and shots:
            app.shot(shots[0])
    assert undone, "the route never reached a state where a step could be undone"
    expect(confirm).to_be_enabled()
    if shots:
        app.shot(shots[1])
    return route


_ROUTE_TEXT_JS = """[...document.querySelectorAll('.cw-route')]
  .find(e => /^(Movement|移動力) \\d+/.test(e.innerText))"""

_HIGHLIGHT_OR_CONFIRM_JS = f"""() => document.querySelectorAll('path.cw-pref[stroke="{HIGHLIGHT}"]').length > 0
  || /You can confirm this route/.test(({_ROUTE_TEXT_JS} || {{}}).innerText || '')"""


def route_confirmable(app: AppPage) -> bool:
    """Does the planned route's text (steps and hint, one message) say it can be confirmed?"""
    return app.page.evaluate(f"() => /You can confirm this route/.test(({_ROUTE_TEXT_JS} || {{}}).innerText || '')")


def roll(app: AppPage) -> int:
    """Press Roll; returns the movement rolled (the dice faces shown)."""
    app.button("Roll").click()
    dice = app.page.locator(".cw-dice")
    expect(dice).to_be_visible()
    total = sum(int(f) for f in dice.get_attribute("data-faces").split(","))
    expect(app.page.get_by_text(f"Movement {total}")).to_be_visible()
    return total


def expect_route(app: AppPage, n: int) -> None:
    """Wait until the planned route lists n steps."""
    app.page.wait_for_function(
        """(n) => { const el = [...document.querySelectorAll('.cw-route')]
              .find(e => /^(Movement|移動力) \\d+/.test(e.innerText));
            return (el ? (el.innerText.match(/^\\d+\\. /gm) || []).length : 0) === n; }""",
        arg=n,
    )


# The visible buttons that mean "a human must act now": Roll, or a battle roll.
_HUMAN_TO_ACT_JS = """
(turn) => {
  const shown = [...document.querySelectorAll('button')].filter(b => b.offsetParent !== null);
  if (shown.some(b => b.innerText.trim().startsWith('Roll: '))) return true;   // battle dice
  if (shown.some(b => b.classList.contains('cw-battle-ok'))) return true;      // a battle's result, until Continue
  return shown.some(b => b.innerText.trim() === 'Roll')
    && document.body.innerText.includes("Player 1's turn " + turn);
}
"""


def battle_button(app: AppPage):
    return app.page.get_by_role("button", name=re.compile(r"^Roll: One die"))


def wait_for_human_turn(app: AppPage, turn: int) -> None:
    """Wait until it is player 1's given turn (the CPU has finished), answering any
    battle that needs player 1's dice on the way."""
    for _ in range(30):
        app.page.wait_for_function(_HUMAN_TO_ACT_JS, arg=turn)
        seen = app.page.locator("button.cw-battle-ok")
        if seen.count() and seen.first.is_visible():  # a battle's result stays until Continue (issue 16)
            seen.first.click()
            expect(seen).to_be_hidden()
            continue
        battle = battle_button(app)
        if battle.count() and battle.first.is_visible():
            battle.first.click()
            expect(battle).to_be_hidden()
            continue
        expect(app.page.get_by_role("heading", name=f"Player 1's turn {turn}")).to_be_visible()
        expect(app.button("Roll")).to_be_visible()
        return
    raise AssertionError("the CPU turn did not hand back to player 1")


def test_save_to_a_slot_reload_and_continue(app: AppPage, served_dir) -> None:
    page = app.page
    app.open()
    set_up_human_vs_cpu(app)
    expect(app.button("Roll")).to_be_visible()
    plan_route(app, roll(app), undo=False)
    app.button("Confirm Route").click()
    wait_for_human_turn(app, turn=2)
    board = app.scoreboard
    colour = _seat_colour(app, 0)
    claimed = page.evaluate(_COUNT_FILLED_JS, colour)
    assert claimed >= 1  # at least the home

    # --- Save into slot 1 (answering "overwrite?" if an earlier run used it), then Exit
    app.save_to_slot(1)
    assert (served_dir / "conquest_saves").is_dir()
    saved = SaveStore(served_dir / "conquest_saves").load_slot(1)  # what the slot holds, from the file
    assert saved.turn_number() == 2 and [p.name for p in saved.setup.players] == ["Player 1", "Player 2"]
    scores = [str(saved.score(seat)["total"]) for seat in saved.state.order]
    app.exit_game()
    expect(page.get_by_text(re.compile(r"Slot 1: Player 1, Player 2 \("))).to_be_visible()
    app.shot("11-saved")

    # --- reload the page (a new kernel): the start screen offers the saved game
    page.reload()
    app.pick_japan()
    expect(app.shell_button("cw-resume")).to_be_enabled()
    resume = app.shell_button("cw-load-1")
    expect(resume).to_be_enabled()
    expect(page.get_by_text(re.compile(r"Slot 1: Player 1, Player 2 \("))).to_be_visible()
    app.shot("12-reloaded")
    resume.click()

    # --- the same game continues: player 1's turn 2, same scores, same map
    expect(page.get_by_role("heading", name="Player 1's turn 2")).to_be_visible()
    expect(board.locator(".cw-total")).to_have_text(scores)
    page.wait_for_function(f"(c) => ({_COUNT_FILLED_JS})(c) === {claimed}", arg=colour)
    total = roll(app)
    plan_route(app, total, undo=False)
    app.button("Confirm Route").click()
    wait_for_human_turn(app, turn=3)
    app.shot("13-continued")
    assert page.page_errors == []  # type: ignore[attr-defined]


def _seat_colour(app: AppPage, seat: int) -> str:
    """A player's colour as the scoreboard shows it (the swatch), as '#rrggbb'."""
    style = app.scoreboard.locator(f'tr[data-seat="{seat}"] .cw-swatch').get_attribute("style") or ""
    # the page sets the colour through the style object: the browser writes it as rgb(r, g, b)
    rgb = re.search(r"rgb\((\d+), *(\d+), *(\d+)\)", style)
    if rgb:
        return "#" + "".join(f"{int(x):02x}" for x in rgb.groups())
    return re.search(r"#[0-9a-fA-F]{6}", style).group(0).lower()


_COUNT_FILLED_JS = """(colour) => [...document.querySelectorAll('path.cw-pref')]
    .filter(e => (e.getAttribute('fill') || '').toLowerCase() === colour).length"""
