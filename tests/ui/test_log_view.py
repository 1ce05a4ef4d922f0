"""The shell's log (``ui/log_view.py``): the page is sent the lines that are new, never the
whole log again (issue 32), shows at most LOG_LINES lines newest first, and what the page
merges is what the kernel shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from page_runner import PageRecorder

from conquest_widget.scene import read_message
from conquest_widget.ui.log_view import LOG_LINES, LogView

RUNNER = Path(__file__).parent / "page" / "run_log.mjs"


class _Page:
    """The page's side of the wire as scene.js does it: the synced scene, then patches."""

    def __init__(self, log: LogView) -> None:
        self.scene = dict(log.scene)
        self.sent: list[Any] = []
        log.send = self._receive  # type: ignore[method-assign]

    def _receive(self, sent: Any, buffers: Any = None) -> None:
        self.sent.append(sent)
        if isinstance(sent, dict) and "scene" in sent:
            self.scene = dict(sent["scene"])
            return
        msg = read_message(sent)
        assert msg is not None and msg["patch"]["n"] == self.scene["n"] + 1
        for key in msg.get("drop", []):
            del self.scene[key]
        for prefix in msg.get("*", []):  # every key that starts with it (scene.js)
            for key in [k for k in self.scene if k.startswith(prefix)]:
                del self.scene[key]
        self.scene.update(msg["patch"])


def test_a_new_line_sends_that_line_and_drops_the_oldest_shown() -> None:
    log = LogView()
    page = _Page(log)
    lines = [f"line {k}" for k in range(LOG_LINES)]
    log.show(lines, "Log")
    assert len(page.sent) == 1
    page.sent.clear()
    log.show([*lines, "Ann plays the 7♠"], "Log")
    msg = read_message(page.sent[0])
    assert len(page.sent) == 1 and msg is not None
    assert msg["patch"] == {f"l{LOG_LINES}": "Ann plays the 7♠", "n": 2} and msg["drop"] == ["l0"]
    assert log.lines()[0] == "Ann plays the 7♠" and len(log.lines()) == LOG_LINES
    assert page.scene == log.scene
    page.sent.clear()
    log.show([*lines, "Ann plays the 7♠"], "Log")  # nothing new: nothing sent
    assert page.sent == []


def test_a_language_switch_sends_the_lines_again_and_the_page_follows() -> None:
    log = LogView()
    page = _Page(log)
    log.show(["Ann draws"], "Log")
    log.show(["アンが引く"], "ログ")
    assert page.scene == log.scene and log.text == "ログ\nアンが引く"


def test_a_page_that_missed_a_patch_asks_and_gets_the_whole_log() -> None:
    log = LogView()
    log.show(["a", "b"], "Log")
    page = _Page(log)
    page.scene = {"n": 0}  # the module started after the first patch went out
    log._on_page_msg(log, {"have": 0}, None)
    assert page.scene == log.scene and log.lines() == ["b", "a"]
    log._on_page_msg(log, {"have": log.scene["n"]}, None)  # up to date: nothing more
    assert len(page.sent) == 1


def test_the_page_cannot_write_the_log() -> None:
    log = LogView()
    log.show(["Ann draws"], "Log")
    log.set_state({"scene": {"h": "<b>x</b>", "l0": "forged", "n": 9}})
    assert log.lines() == ["Ann draws"]


def test_the_page_module_draws_the_cover_and_the_lines_the_kernel_shows(tmp_path) -> None:
    """The log's page module (log_view.js, run in Node.js) after each message: the cover's
    title and button while it is up (the widget then carries ``cw-covered``, by which the
    page hides the board), the heading and the lines newest first, hostile text as text;
    its button's click comes back as ``uncover``."""
    hostile = "<img src=x onerror=alert(1)>"
    pressed: list[int] = []
    log = LogView(on_uncover=lambda: pressed.append(1))

    def expected(w: LogView) -> dict[str, Any]:
        return {"cover": w.cover, "button": w.uncover_label, "covered": bool(w.cover), "head": "Log",
                "lines": w.lines()}

    log.show(["Ann draws"], "Log")
    rec = PageRecorder(log, expected, RUNNER)
    log.show(["Ann draws", f"{hostile} plays"], "Log", cover=(hostile + "{name}$&", "Pass the screen to {name}", "I am {name}"))
    log.show(["Ann draws", f"{hostile} plays"], "Log", cover=("Ann", "Pass the screen to {name}", "I am {name}: show my view"))
    log.show(["Ann draws", f"{hostile} plays", "Ann ends"], "Log")
    shown, sent = rec.shown(tmp_path)
    assert shown == rec.expected and shown[1]["covered"] and not shown[-1]["covered"]
    # the name written in as text, once: not read as markup, nor as a template
    assert shown[1]["cover"] == f"Pass the screen to {hostile}{{name}}$&" and shown[1]["button"] == f"I am {hostile}{{name}}$&"
    assert len(rec.steps) == 4  # each show: one message
    assert {"click": "uncover"} not in sent  # no cover at the end: no button to click
    log.show(["Ann draws"], "Log", cover=("Ann", "Pass the screen to {name}", "I am {name}"))
    rec2 = PageRecorder(log, expected, RUNNER)
    _shown, sent = rec2.shown(tmp_path)
    assert {"click": "uncover"} in sent
    assert log.click("uncover") and pressed == [1]
    log.show(["Ann draws"], "Log")
    assert not log.click("uncover") and pressed == [1]  # no cover: the click does nothing


def test_a_long_games_log_words_only_the_lines_it_shows() -> None:
    """The app's log (``match_app.show_log``) words the newest events only, until it has the
    LOG_LINES lines the page shows: a move costs the same at the end of a long game as at its
    start (it worded every event of the game at each move: 2.4 ms a move late in a Japan
    Conquest game).  What is shown is what wording every event shows."""
    from conquest_widget.ui.game_ui import GameUI
    from conquest_widget.ui.match_app import show_log

    worded: list[int] = []

    def event_text(e: dict[str, Any], lang: str) -> str | None:
        worded.append(e["n"])
        return None if e["n"] % 3 == 0 else f"event {e['n']}"  # some events write no line

    ui = GameUI("g", None, None, None, None, event_text)
    events = [{"type": "x", "n": n} for n in range(600)]
    keys = [str(n + 1) for n in range(600)]
    fast, full = LogView(), LogView()
    show_log(fast, ui, events, "en", [], keys=keys)
    assert len(worded) <= LOG_LINES * 3 // 2 + 1 and min(worded) > 500
    full.show([f"event {n}" for n in range(600) if n % 3], "Log", None, [str(n + 1) for n in range(600) if n % 3])
    assert fast.scene == full.scene and len(fast.lines()) == LOG_LINES and fast.lines()[0] == "event 599"
