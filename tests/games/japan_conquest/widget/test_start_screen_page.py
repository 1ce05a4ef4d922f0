"""Japan Conquest's start screen's page module (``start_screen.js``) draws what the kernel
side says the page shows: the start screen's messages are replayed into the module in
Node.js with a minimal DOM (``page/run_start.mjs``, no browser), and after each one the
page's title, autosave line, slot lines, question, message, Previous Results, records and
buttons (enabled, labels, tooltips) are compared with :class:`StartScreen` and its
:class:`StartSaves` (``shown()``, ``enabled()``, ``label()``, the texts' ``value``).  Players'
names come from save files: hostile ones must be shown as text.  Skipped where Node.js is
missing (a failure in CI, as tests/test_page_files.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from page_runner import PageRecorder

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup
from conquest_widget.games.japan_conquest.widget.start_screen import StartScreen
from conquest_widget.saves import SaveStore

RUNNER = Path(__file__).parent / "page" / "run_start.mjs"
HOSTILE = "<b>{name}</b>&amp;<i"  # markup and a template field: the page must show it as text
TARGET = re.compile(r"\bcw-(new-game|watch|continue|replay-autosave|(?:resume|replay|delete)-\d|yes|no|results|data)\b")


def _flat(text: str) -> str:
    """A text without its whitespace (the page's rows and cells are elements, the kernel's
    lines and tabs)."""
    return re.sub(r"\s", "", text)


def _expected(screen: StartScreen) -> dict[str, Any]:
    """What the kernel side says the page shows now."""
    saves = screen.saves
    assert saves is not None
    tip = {t: screen.saves.replay_buttons[0].tooltip for t in screen.shown() if t.startswith("replay-")}
    return {
        "title": screen.scene["ti"],
        "auto": saves.auto_info.value,
        "slots": [[n, label.value] for n, (label, _r, _d) in enumerate(saves.slot_rows, 1)],
        "ask": saves.confirm.text.value,
        "message": saves.message.value,
        "results": saves.results_html.value,
        "records": saves.records_html.value,
        "buttons": {t: (screen.enabled(t), screen.label(t), tip.get(t, "")) for t in screen.shown()},
    }


def _compare(page: dict[str, Any], want: dict[str, Any], step: int) -> None:
    where = f"after message {step}"
    assert page["root"] == "cw-start-screen", where
    for part in ("title", "auto", "ask", "message", "results", "records"):
        assert _flat(page[part]) == _flat(want[part]), (where, part, page[part], want[part])
    assert [[n, _flat(x)] for n, x in page["slots"]] == [[n, _flat(x)] for n, x in want["slots"]], where
    buttons = {}
    for cls, disabled, label, tip in page["buttons"]:
        buttons[TARGET.search(cls).group(1)] = (not disabled, label, tip)  # type: ignore[union-attr]
    assert buttons == want["buttons"], where
    assert all(text == title for text, title in page["names"]), where  # a name in full on hover


def test_the_page_draws_what_the_start_screen_says_with_hostile_names(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    store = SaveStore(folder)
    game = __import__("conquest_widget.games.japan_conquest", fromlist=["JapanMatch"]).JapanMatch(
        GameSetup(players=(PlayerSetup(HOSTILE, 13), PlayerSetup("Ben", 27, cpu=True)), turns=5, seed=1))
    store.save_slot(1, game)
    (folder / "slot-3.json").write_text("{not json <script>", encoding="utf-8")
    app = JapanConquestApp(save_dir=folder)
    c, screen, saves = app.controller, app.start_screen, app.start_saves
    assert saves is not None
    rec = PageRecorder(screen, _expected, RUNNER)
    saves.resume(3)  # unreadable: said in the message
    saves.slot_rows[0][2].click()  # Delete slot 1? ... No
    assert screen.click("no") and not saves.confirm.shown
    # a finished CPU game with a hostile name: the autosave, Previous Results and the records
    c.cpu_speed = "instant"
    c.new_game(GameSetup(players=(PlayerSetup(HOSTILE, 13, cpu=True), PlayerSetup("Bot", 27, cpu=True)),
                         turns=5, seed=3))
    assert c.screen == "results"
    c.screen = "start"
    assert screen.click("results")
    app.language.value = "ja"
    assert not screen.click("delete-2")  # an empty slot's Delete: not offered ...
    screen.click("delete-3")  # ... the unreadable one's is asked
    app.language.value = "en"
    assert screen.click("yes") and store.slot_info(3).status == "empty"
    shown, sent = rec.shown(tmp_path)
    assert len(shown) == len(rec.expected) >= 8
    for i, (page, want) in enumerate(zip(shown, rec.expected, strict=True)):
        _compare(page, want, i)
    assert any(HOSTILE in x for p in shown for _n, x in p["slots"])  # the slot's players, as text
    assert any([HOSTILE, HOSTILE] in p["names"] for p in shown)  # Previous Results' name, as text
    assert any("スロット" in x for p in shown for _n, x in p["slots"])  # the Japanese labels were drawn
    # the page says which scene it holds, then a click on its last enabled button is one message
    assert sent == [{"have": rec.steps[0][0]["n"]}, {"click": "data"}]


def test_a_click_is_one_small_message_and_one_not_offered_does_nothing(tmp_path: Path) -> None:
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    screen, c = app.start_screen, app.controller
    assert [t for t in screen.shown() if screen.enabled(t)] == ["new-game", "watch", "results", "data"]
    for target in ("continue", "replay-autosave", "resume-1", "replay-2", "delete-3", "yes", "no", "<img>", "x" * 100):
        screen._on_page_msg(screen, {"click": target}, [])
    assert c.screen == "start" and not c.has_game and app.start_saves.message.value == ""
    screen._on_page_msg(screen, {"click": "new-game"}, [])  # as the page sends it
    assert c.screen == "setup" and len(json.dumps({"click": "new-game"})) < 40
