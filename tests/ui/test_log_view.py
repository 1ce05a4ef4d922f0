"""The shell's log (``ui/log_view.py``): the page is sent the lines that are new, never the
whole log again (issue 32), shows at most LOG_LINES lines newest first, and what the page
merges is what the kernel shows."""

from __future__ import annotations

from typing import Any

from conquest_widget.ui.log_view import LOG_LINES, LogView


class _Page:
    """The page's side of the wire as scene.js does it: the synced scene, then patches."""

    def __init__(self, log: LogView) -> None:
        self.scene = dict(log.scene)
        self.sent: list[dict[str, Any]] = []
        log.send = self._receive  # type: ignore[method-assign]

    def _receive(self, msg: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(msg)
        if "scene" in msg:
            self.scene = dict(msg["scene"])
            return
        assert msg["patch"]["n"] == self.scene["n"] + 1
        self.scene.update(msg["patch"])
        for key in msg.get("drop", []):
            del self.scene[key]


def test_a_new_line_sends_that_line_and_drops_the_oldest_shown() -> None:
    log = LogView()
    page = _Page(log)
    lines = [f"line {k}" for k in range(LOG_LINES)]
    log.show(lines, "Log")
    assert len(page.sent) == 1
    page.sent.clear()
    log.show([*lines, "Ann plays the 7♠"], "Log")
    (msg,) = page.sent
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
