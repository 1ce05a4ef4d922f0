"""Japanese Risk as a user plays it: examples/play.ipynb served by Voila (as ``make play``),
in chromium, offline — the picker, the setup form (1 human vs 1 CPU, Instant, a round
limit of 2), a whole game by real mouse clicks on the prefecture map and the board's
buttons, the results screen; and the secrets test: every websocket frame the page
receives is recorded and checked against the engine's full state (read from the served
app's autosave) for the CPU's hidden data.

Selectors: prefectures ``path.cw-pref-<code>`` (fill = the owner's colour as the viewer
knows it, stroke ``#d50000`` = attack target, ``#00a651`` = move target), buttons by CSS
class (``button.cw-place-confirm``, ``button.cw-launch``...), ``.cw-results``.
Screenshots go to ``test-artifacts/e2e/risk-*.png``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from conquest_widget.games.japanese_risk.engine import JapaneseRisk
from conquest_widget.games.japanese_risk.widget.board import ATTACK_BORDER, COLOURS

from .harness import labels_in_page, open_hosted_game, painted_in_page, record_frames

TIMEOUT_S = 300
HUMAN, CPU = COLOURS[0], COLOURS[1]

_STATE_JS = """
() => {
  const vis = (sel) => [...document.querySelectorAll(sel)].some(e => e.offsetParent !== null || e.getClientRects().length);
  if (vis('.cw-results')) return 'results';
  if (vis('button.cw-place-confirm')) return 'income';
  if (vis('button.cw-commit-all')) return 'commit';
  if (vis('button.cw-hold')) return 'window';
  if (vis('button.cw-launch')) return 'launch';
  if (vis('button.cw-end-turn')) return 'turn';
  return '';
}
"""

_VERSION_JS = """
() => { const b = document.querySelector('.cw-risk-board');
        return b ? [...b.classList].find(c => c.startsWith('cw-v-')) || '' : ''; }
"""

# A point inside one of the paths matching the selector that a real click reaches (not
# covered by a label or a neighbour), in the viewport: [x, y, classes] or null.
_POINT_JS = """
(sel) => {
  const paths = [...document.querySelectorAll(sel)];
  for (const p of paths) {
    const r = p.getBoundingClientRect();
    if (r.width < 3 || r.height < 3) continue;
    for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
      const x = r.left + r.width * i / 10, y = r.top + r.height * j / 10;
      if (x < 1 || y < 1 || x > innerWidth - 1 || y > innerHeight - 1) continue;
      if (document.elementFromPoint(x, y) === p) return [x, y, p.getAttribute('class')];
    }
  }
  return null;
}
"""


# codes of prefecture paths whose box is not inside the map container's box (page pixels)
_OUTSIDE_JS = """
() => {
  const box = document.querySelector('.cw-prefecture-map .leaflet-container').getBoundingClientRect();
  const out = [];
  for (const p of document.querySelectorAll('path.cw-pref')) {
    const r = p.getBoundingClientRect();
    if (r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom || r.width === 0)
      out.push([p.getAttribute('class'), Math.round(r.top), Math.round(r.bottom), Math.round(box.top), Math.round(box.bottom)]);
  }
  return out;
}
"""


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"risk-{name}.png"), full_page=True)


def acted(page: Page, before: str) -> None:
    page.wait_for_function(f"() => ({_VERSION_JS})() !== {before!r}", timeout=60_000)


def click_pref(page: Page, selector: str) -> int | None:
    """Click (a real mouse click) a reachable prefecture matching ``selector``; its code."""
    point = page.evaluate(_POINT_JS, selector)
    if point is None:
        return None
    x, y, cls = point
    before = page.evaluate(_VERSION_JS)
    page.mouse.click(x, y)
    acted(page, before)
    return int(re.search(r"cw-pref-(\d+)", cls).group(1))


def press(page: Page, cls: str) -> None:
    before = page.evaluate(_VERSION_JS)
    page.locator(f"button.{cls}").click()
    acted(page, before)


def set_up(page: Page, voila_url: str, *, seed: int, limit: int) -> None:
    open_hosted_game(page, voila_url, "japanese_risk")
    page.get_by_role("button", name="New game", exact=True).click()
    page.locator(".cw-n-players select").select_option(label="2")
    page.locator(".cw-seat-1 select").select_option(label="CPU: normal")
    rl = page.locator(".cw-option-round_limit input")
    rl.fill(str(limit))
    rl.press("Tab")
    page.locator(".cw-cpu-speed").get_by_role("button", name="Instant", exact=True).click()
    seed_box = page.locator(".cw-seed input")
    seed_box.fill(str(seed))
    seed_box.press("Tab")


def autosave(served_dir: Path) -> JapaneseRisk | None:
    """The match as the served app autosaved it (the whole game: the test's referee)."""
    path = served_dir / "conquest_saves" / "autosave-japanese_risk.json"
    if not path.exists():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc = doc.get("match", doc)
    return JapaneseRisk.from_dict(doc)


def play_game(page: Page, artifacts: Path, on_step=None) -> set[str]:
    """Play the human's side by clicking until the results screen; the states seen."""
    seen: set[str] = set()
    deadline = time.monotonic() + TIMEOUT_S
    tries = 0
    last_round = None
    while True:
        assert time.monotonic() < deadline, f"the game did not end in {TIMEOUT_S} s (seen {sorted(seen)})"
        page.wait_for_function(_STATE_JS, timeout=60_000)
        state = page.evaluate(_STATE_JS)
        if on_step is not None:
            on_step()
        if state == "results":
            break
        first = state not in seen
        seen.add(state)
        if state == "income":
            if first:
                shot(page, artifacts, "02-income")
            while page.locator("button.cw-place-confirm").is_disabled() or \
                    page.locator("button.cw-plus").is_enabled():
                if click_pref(page, f'path.cw-pref[fill="{HUMAN}"]') is None:
                    break
            if first:
                shot(page, artifacts, "03-placed-on-cards")
            press(page, "cw-place-confirm")
            tries = 0
        elif state == "commit":
            shot(page, artifacts, "06-commit")
            press(page, "cw-commit-all")
        elif state == "window":
            press(page, "cw-hold")
        elif state == "launch":
            if "launch" not in seen or first:
                shot(page, artifacts, "05-odds")
            expect(page.locator(".cw-odds")).to_contain_text("win")
            press(page, "cw-launch")
            if "battle" not in seen:
                seen.add("battle")
                shot(page, artifacts, "05b-battle")
        elif state == "turn":
            rnd = page.locator(".cw-status").inner_text()
            if rnd != last_round:
                tries, last_round = 0, rnd
            tries += 1
            if tries > 3:
                press(page, "cw-end-turn")
                continue
            code = click_pref(page, f'path.cw-pref[fill="{HUMAN}"]')
            if code is None:
                press(page, "cw-end-turn")
                continue
            if page.locator("button.cw-deploy").is_visible():
                press(page, "cw-deploy")
                if "deployed" not in seen:
                    seen.add("deployed")
                    shot(page, artifacts, "04-deployed")
            if click_pref(page, f'path.cw-pref[stroke="{ATTACK_BORDER}"]') is not None:
                seen.add("attack")
            elif page.locator("button.cw-clear").is_visible():
                press(page, "cw-clear")
    return seen


def test_a_whole_risk_game_against_a_cpu(page: Page, voila_url: str, served_dir: Path, artifacts: Path) -> None:
    set_up(page, voila_url, seed=3, limit=2)
    shot(page, artifacts, "01-setup")
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("path.cw-pref")).to_have_count(47)
    assert page.locator(".leaflet-tile").count() == 0                        # no tiles: offline
    # the map opens on all 47 prefectures: Okinawa (47) and the rest lie inside the map's box
    page.wait_for_timeout(500)  # Leaflet settles its first view
    shot(page, artifacts, "01b-board")
    assert page.evaluate(_OUTSIDE_JS) == []
    seen = play_game(page, artifacts)
    assert {"income", "turn"} <= seen
    results = page.locator(".cw-results")
    expect(results).to_contain_text("Territories")
    expect(page.locator(".cw-log")).to_contain_text("round limit")
    shot(page, artifacts, "07-results")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_the_cpus_secrets_never_reach_the_page(page: Page, voila_url: str, served_dir: Path,
                                              artifacts: Path) -> None:
    """Every websocket frame is recorded; at every decision of the human the engine's full
    state (the app's autosave) says what the CPU hides — its card armies, its unrevealed
    territories — and no frame received so far may carry it."""
    frames = record_frames(page)  # before the page opens its kernel's websocket
    set_up(page, voila_url, seed=4, limit=2)   # the human plays first: the CPU still hides its card armies
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("path.cw-pref")).to_have_count(47)
    checks = {"n": 0, "cpu_cards": 0, "hidden_codes": 0}
    human_ever: set[int] = set()

    def check() -> None:
        m = autosave(served_dir)
        # the app writes its autosave 0.4 s after the last move (quick clicks put it off): at
        # the first decision the test waits for it, so that the first check sees the start,
        # when the CPU still holds its card armies (once, under load, every check came later)
        deadline = time.monotonic() + 20
        while m is None and checks["n"] == 0 and time.monotonic() < deadline:
            page.wait_for_timeout(200)
            m = autosave(served_dir)
        if m is None:
            return
        s = m.state
        human_ever.update(c for c in range(1, 48) if s["owner"][c] == 0)
        text = "".join(frames)
        # 1. card armies: a badge only ever on a territory the human owned
        # (a label's HTML as the map's painter sends it, "h<code>": the page puts it in its box)
        badges = re.findall(r"cw-label-(\d+)'[^\"]*?cw-card-badge", text)
        badges += re.findall(r'"h(\d+)":\s*"[^"]*?cw-card-badge', text)
        # and as the page puts them together (a label may go as the numbers of its parts)
        badges += [str(code) for shown in labels_in_page(frames) for code, html in shown.items()
                   if "cw-card-badge" in html]
        checks["badges"] = max(checks.get("badges", 0), len(badges))
        for code in badges:
            assert int(code) in human_ever, f"a card badge on {code}, never the human's"
        # 2. the CPU's card armies: no label of a CPU territory shows a badge
        cpu_cards = [(c, s["card"][c]) for c in range(1, 48) if s["owner"][c] == 1 and s["card"][c]]
        checks["cpu_cards"] = max(checks["cpu_cards"], len(cpu_cards))
        # 3. unrevealed CPU territories are never painted in the CPU's colour
        hidden = {c for c in range(1, 48) if s["owner"][c] == 1 and not s["revealed"][c]}
        checks["hidden_codes"] = max(checks["hidden_codes"], len(hidden))
        comm_code: dict[str, int] = {}
        for f in frames:
            # a comm_open: the polygon's state (its class), then its comm_id
            for m_ in re.finditer(r'"class_name":\s*"cw-pref cw-pref-(\d+)".*?"comm_id":\s*"([0-9a-f]+)"', f):
                comm_code[m_.group(2)] = int(m_.group(1))
        checks["polygons"] = len(comm_code)
        painted = set()
        for f in frames:   # a polygon's own model restyled (ipyleaflet's way)
            if not re.search(r'"fill_color":\s*"' + CPU, f):
                continue
            painted.update(code for cid, code in comm_code.items() if f'"comm_id": "{cid}"' in f)
        for shown in painted_in_page(frames):   # the map painter's scenes (one message per restyle)
            painted.update(code for code, style in shown.items() if style["fill_color"] == CPU)
        assert not painted & hidden, f"the CPU's hidden territories {sorted(painted & hidden)} were painted its colour"
        checks["painted"] = max(checks.get("painted", 0), len(painted))
        checks["n"] += 1

    play_game(page, artifacts, on_step=check)
    assert checks["n"] >= 3 and checks["hidden_codes"] > 0 and checks["cpu_cards"] > 0
    # the patterns did match the real traffic: the human's own badges, all 47 polygons
    # (the CPU's revealed territories were painted in its colour: the detection works)
    assert checks["badges"] > 0 and checks["polygons"] == 47 and checks["painted"] > 0, checks
    # the frames did carry the map (the test saw real traffic)
    assert any("cw-pref cw-pref-13" in f for f in frames)
    assert page.page_errors == []  # type: ignore[attr-defined]
