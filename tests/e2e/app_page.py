"""What a user sees and clicks in Japan Conquest, as Playwright helpers.

Japan Conquest opens from the game picker as the shell's app (``MatchApp``, the same page
as the other three games, ``.cw-match-app.cw-app-japan_conquest``): its map (the stage,
``.cw-japan-stage``) left of every screen but the replay, the screens in the column beside
it.

Selectors (stable across re-renders):

- the shell's buttons by their class: ``button.cw-new-game``, ``.cw-watch-cpus``,
  ``.cw-resume``, ``.cw-replay-autosave``, ``.cw-load-<n>``, ``.cw-replay-<n>``,
  ``.cw-delete-<n>``, ``.cw-previous-results``, ``.cw-save-data``, ``.cw-back``; in a game
  ``.cw-save`` (the Save box: ``.cw-save-slot`` select, ``.cw-save-confirm``,
  ``.cw-save-overwrite``, ``.cw-save-cancel``), ``.cw-exit``, the CPU speed
  ``.cw-cpu-speed select``; the message above the screens ``.cw-message``; the results
  ``.cw-results`` with ``.cw-play-again``, ``.cw-replay-finished``;
- Japan's New game form (``.cw-setup-form``, ``setup_form.js``): a ``widget-html`` label
  before its ``widget-toggle-buttons`` / ``widget-dropdown`` box, ``mod-active`` on the
  option picked, the seats' Human/CPU toggles ``.cwj-kind``, ``button.cw-start``,
  ``button.cw-back``, the problem ``.cw-msg``;
- prefecture shapes: ``path.cw-pref`` and ``path.cw-pref-<code>`` (Leaflet ``className``);
  a legal next step has the highlight stroke ``#ffb000``;
- prefecture labels: Leaflet markers whose ``title`` is the prefecture's name (they let
  clicks through to the shape below);
- panels (one widget drawn by ``widget/panels.js``): ``.cw-turn-title`` (a heading),
  ``.cw-turn-hint``, ``.cw-route`` (the planned route), ``.cw-score`` (scoreboard rows
  ``tr[data-seat]``), ``.cw-info``, ``.cw-dice``, ``.cw-msg``; the buttons ``button.cw-roll``,
  ``.cw-undo``, ``.cw-confirm``, ``.cw-dice-<n>``, ``.cw-battle-<n>``, ``.cw-battle-ok``, found by
  their visible text (``conquest_widget.games.japan_conquest.text.STRINGS``); the shell's log
  ``.cw-log`` (lines ``.cw-log-line``, newest first).
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

HIGHLIGHT = "#ffb000"
NEUTRAL_FILL = "#efe9da"
SELECTED = "#7a00c2"
PREF_CLASS = re.compile(r"\bcw-pref-(\d+)\b")

#: some visible map shows the 47 prefectures (the stage, or the replay's own map while the
#: stage is hidden)
_MAP_SHOWN_JS = """() => [...document.querySelectorAll('.leaflet-container')]
  .some(m => m.getClientRects().length > 0 && m.querySelectorAll('path.cw-pref').length === 47)"""


class AppPage:
    def __init__(self, page: Page, url: str, artifacts: Path) -> None:
        self.page = page
        self.url = url
        self.artifacts = artifacts

    # ------------------------------------------------------------ navigation
    def open(self) -> None:
        """Load the app (the game picker), choose Japan Conquest and wait for its start
        screen and all 47 prefecture shapes."""
        self.page.goto(self.url)
        self.pick_japan()

    def pick_japan(self) -> None:
        """On the game picker (a fresh page or a reload), press Japan Conquest's Play; waits
        for the shell's app of Japan Conquest (its start screen's New game) and its map."""
        pick = self.page.locator(".cw-pick-japan_conquest")
        expect(pick).to_be_enabled()
        expect(self.page.locator(".cw-game-card")).to_have_count(4)
        if not (self.artifacts / "00-picker.png").exists():
            self.shot("00-picker")
        pick.click()
        expect(self.page.locator(".cw-match-app.cw-app-japan_conquest")).to_be_visible()
        expect(self.new_game_button).to_be_visible()
        self.wait_for_map()

    def wait_for_map(self) -> None:
        """Wait until a map on screen shows the 47 prefectures (the stage, or the replay's)."""
        self.page.wait_for_function(_MAP_SHOWN_JS)

    def shot(self, name: str) -> Path:
        path = self.artifacts / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    # ------------------------------------------------------------ widgets
    def button(self, text: str) -> Locator:
        """A visible button by its exact text."""
        return self.page.get_by_role("button", name=text, exact=True)

    def shell_button(self, cls: str) -> Locator:
        """A button of the shell's app by its class (``cw-new-game``, ``cw-resume``...)."""
        return self.page.locator(f"button.{cls}")

    @property
    def new_game_button(self) -> Locator:
        """The start screen's New game (the results show one too)."""
        return self.page.locator(".cw-match-app button.cw-new-game").first

    @property
    def start_button(self) -> Locator:
        """The New game form's Start."""
        return self.page.locator(".cw-setup-form button.cw-start")

    @property
    def message(self) -> Locator:
        """The message above the screens (news in green, a refusal in red)."""
        return self.page.locator(".cw-match-app .cw-message")

    def exit_game(self) -> None:
        """Exit (the game stays autosaved) and wait for the start screen."""
        self.shell_button("cw-exit").click()
        expect(self.new_game_button).to_be_visible()
        expect(self.message).to_contain_text("The game is autosaved")

    def set_cpu_speed(self, speed: str) -> None:
        """Pick the CPUs' speed ("Instant", "Fast", "Normal") in the game's bar."""
        select = self.page.locator(".cw-cpu-speed select")
        select.select_option(label=f"CPU speed: {speed}")
        expect(select).to_have_value(re.compile(".+"))

    def save_to_slot(self, n: int) -> None:
        """Save (the game's bar) -> slot ``n`` -> Save, answering "Overwrite it?" with Overwrite
        if the slot holds something: waits for the question or "Saved to slot n.", whichever
        comes (deciding at once would race the kernel on a busy machine), then for the news."""
        self.shell_button("cw-save").click()
        slot = self.page.locator(".cw-save-slot select")
        expect(slot).to_be_visible()
        slot.select_option(index=n - 1)
        expect(slot.locator("option:checked")).to_have_text(re.compile(rf"^Slot\s{n}:"))  # ipywidgets writes spaces as &nbsp;
        self.shell_button("cw-save-confirm").click()
        saved, question = self.message.get_by_text(f"Saved to slot {n}."), self.shell_button("cw-save-overwrite")
        expect(saved.or_(question)).to_be_visible()
        if question.is_visible():
            question.click()
        expect(saved).to_be_visible()

    def toggle_after_label(self, label: str, option: str) -> Locator:
        """The option button of the ToggleButtons that follows an HTML label."""
        return self.page.locator(
            f"xpath=//div[contains(@class,'widget-html')][contains(normalize-space(.), '{label}')]"
            f"/following-sibling::div[contains(@class,'widget-toggle-buttons')][1]"
            f"//button[normalize-space(.)='{option}']"
        )

    def select_after_label(self, label: str) -> Locator:
        """The drop-down that follows an HTML label."""
        return self.page.locator(
            f"xpath=//div[contains(@class,'widget-html')][contains(normalize-space(.), '{label}')]"
            f"/following-sibling::div[contains(@class,'widget-dropdown')][1]//select"
        )

    def kind_toggles(self) -> Locator:
        """The Human/CPU ToggleButtons of the New game form's seats, in seat order."""
        return self.page.locator(".cw-setup-form .cwj-kind")

    def start_game(self, kinds: tuple[str, ...]) -> None:
        """Start screen -> New game -> one seat per entry of ``kinds`` ("Human" or "CPU")
        -> Start; returns once the first turn's Roll button shows."""
        self.fill_form(kinds)
        self.start_button.click()
        expect(self.button("Roll")).to_be_visible()

    def fill_form(self, kinds: tuple[str, ...]) -> None:
        """Start screen -> New game -> one seat per entry of ``kinds`` ("Human" or "CPU");
        Start is left to the caller."""
        self.new_game_button.click()
        expect(self.start_button).to_be_visible()
        count = self.toggle_after_label("Number of players", str(len(kinds)))
        count.click()
        expect(count).to_have_class(re.compile(r"\bmod-active\b"))
        toggles = self.kind_toggles()
        if len(kinds) < 4:
            expect(toggles.nth(len(kinds))).to_be_hidden()
        for i, kind in enumerate(kinds):
            toggles.nth(i).get_by_role("button", name=kind).click()
            expect(toggles.nth(i).get_by_role("button", name=kind)).to_have_class(re.compile(r"\bmod-active\b"))

    @property
    def scoreboard(self) -> Locator:
        return self.page.locator(".cw-score").first

    @property
    def log_lines(self) -> Locator:
        return self.page.locator(".cw-log .cw-log-line")  # the shell's log (log_view.js), newest first

    @property
    def route_info(self) -> Locator:
        return self.page.locator(".cw-route")  # the planned route (Japan's side panels, panels.js)

    def route_length(self) -> int:
        if self.route_info.count() == 0:
            return 0
        text = self.route_info.first.inner_text()
        return len(re.findall(r"^\d+\. ", text, flags=re.MULTILINE))

    # ------------------------------------------------------------ the map
    def prefecture(self, code: int) -> Locator:
        """A prefecture's shape on the map shown (the stage is hidden, not gone, in the replay)."""
        return self.page.locator(f"path.cw-pref-{code}").locator("visible=true")

    def highlighted_codes(self) -> list[int]:
        """Prefectures drawn as legal next steps (highlight stroke)."""
        classes = self.page.eval_on_selector_all(
            f'path.cw-pref[stroke="{HIGHLIGHT}"]', "els => els.map(e => e.getAttribute('class'))")
        return sorted(int(PREF_CLASS.search(c).group(1)) for c in classes)

    def wait_for_highlights(self) -> list[int]:
        self.page.wait_for_function(
            f"document.querySelectorAll('path.cw-pref[stroke=\"{HIGHLIGHT}\"]').length > 0")
        return self.highlighted_codes()

    def fill(self, code: int) -> str:
        return (self.prefecture(code).get_attribute("fill") or "").lower()

    def click_prefecture(self, code: int) -> None:
        """Click a prefecture where a user could: a point of its shape that nothing else
        covers (labels and pawns let clicks through to the map)."""
        # the map may still be gliding to follow the last move (issue 16): wait until the
        # shape stands still, as a user would, so the click lands where it was aimed
        point = self.page.evaluate(_FIND_POINT_JS, code)
        for _ in range(40):
            self.page.wait_for_timeout(100)
            again = self.page.evaluate(_FIND_POINT_JS, code)
            if again == point:
                break
            point = again
        assert point is not None, f"prefecture {code} has no visible point to click"
        self.page.mouse.click(point["x"], point["y"])


# Sample the shape's box on a grid, nearest the centre first; accept a point whose
# topmost element is the shape itself.
_FIND_POINT_JS = """
(code) => {
  // the shape on the map shown (the stage's is hidden, not gone, in the replay)
  const el = [...document.querySelectorAll('path.cw-pref-' + code)].find(e => e.getBoundingClientRect().width > 0);
  if (!el) return null;
  const map = el.closest('.leaflet-container').getBoundingClientRect();
  const b = el.getBoundingClientRect();
  const x0 = Math.max(b.left, map.left + 2), x1 = Math.min(b.right, map.right - 2);
  const y0 = Math.max(b.top, map.top + 2), y1 = Math.min(b.bottom, map.bottom - 2);
  if (x1 <= x0 || y1 <= y0) return null;
  const n = 16, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, pts = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++)
    pts.push([x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * j / n]);
  pts.sort((p, q) => Math.hypot(p[0] - cx, p[1] - cy) - Math.hypot(q[0] - cx, q[1] - cy));
  for (const [x, y] of pts) if (document.elementFromPoint(x, y) === el) return {x, y};
  return null;
}
"""
