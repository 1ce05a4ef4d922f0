"""Japan Conquest's side panels' page module (``panels.js``) draws what the kernel side says
the page shows: the panels' messages of a game are replayed into the module in Node.js with
a minimal DOM (``page/run_panels.mjs``, no browser), and after each one the page's turn
title, hint, dice rolled, route, message, battle, scoreboard and prefecture info, and its
buttons (enabled, labels) are compared with :class:`JapanPanels`' ``text()``, ``shown()``,
``clickable()`` and ``label()``.  Skipped where Node.js is missing (a failure in CI, as
tests/test_page_files.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from page_runner import PageRecorder

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup, ScriptedDice
from conquest_widget.games.japan_conquest.widget.panels import JapanPanels

RUNNER = Path(__file__).parent / "page" / "run_panels.mjs"
HOSTILE = "<b>{name}</b>&amp;<i"  # markup and a template field: the page must show it as text
PARTS = ("title", "hint", "faces", "route", "message", "battle", "score", "info")


def _flat(text: str) -> str:
    """A text without its whitespace (the page's lines are elements, the kernel's newlines)."""
    return re.sub(r"\s", "", text)


def _expected(panels: JapanPanels) -> dict[str, Any]:
    """What the kernel side says the page shows now."""
    return {
        "texts": {part: panels.text(part) for part in PARTS},
        "buttons": {t: (t in panels.clickable(), panels.label(t)) for t in panels.shown()},
        "rows": [[r["seat"], r["current"], r["colour"]] for r in panels.score_rows()] if "sh" in panels.scene else [],
    }


class Recorder(PageRecorder):
    """The panels' messages to the page, with what the kernel side says after each."""

    def __init__(self, panels: JapanPanels) -> None:
        super().__init__(panels, _expected, RUNNER)


TARGET = re.compile(r"\bcw-(dice-\d|roll|undo|confirm|battle-\d|battle-ok)\b")


def _compare(page: dict[str, Any], want: dict[str, Any], step: int) -> None:
    where = f"after message {step}"
    for part in PARTS:
        assert _flat(page[part]) == _flat(want["texts"][part]), (where, part, page[part], want["texts"][part])
    buttons = {}
    for cls, disabled, label in page["buttons"]:
        target = TARGET.search(cls).group(1).replace("battle-ok", "ok")  # type: ignore[union-attr]
        buttons[target] = (not disabled, label)
    assert buttons == want["buttons"], where
    assert page["rows"] == want["rows"], where


def click_map(app: JapanConquestApp, code: int) -> None:
    """A click on a prefecture of the app's map, as ipyleaflet delivers it."""
    app.stage.map_view.polygons[code]._handle_mouse_events(None, {"type": "click", "coordinates": [35.0, 135.0]}, [])


def _battle_game(app: JapanConquestApp) -> None:
    """Two humans at one screen (a hostile name), a battle for Saitama: Aki attacks with 6,
    Ben defends with 3 + 2 (a castle)."""
    setup = GameSetup(players=(PlayerSetup(HOSTILE, 13), PlayerSetup("Ben", 27)), turns=10)
    m = JapanMatch(setup, dice=ScriptedDice([2, 6, 3], then_seed=4))
    m.edit_prefecture("Saitama", owner=1, level="castle")
    m.edit_player(0, banked=100)  # the castle's toll
    app._play(m, speed="fast")
    assert app.screen == "play"


def test_the_page_draws_what_the_panels_say_through_a_scripted_game(tmp_path: Path) -> None:
    app = JapanConquestApp(save_dir=None)
    _battle_game(app)
    panels = app.board.panels
    rec = Recorder(panels)
    for target in ("dice-2", "dice-1", "roll"):
        assert panels.click(target), target
    click_map(app, 40)   # Fukuoka: refused, said in the message
    click_map(app, 11)   # Saitama
    panels.click("undo")
    click_map(app, 11)
    assert panels.click("confirm")
    assert "battle-1" in panels.clickable()
    panels.click("battle-1")  # Aki attacks: 6
    panels.click("battle-1")  # Ben defends: 3 + 2
    assert "ok" in panels.clickable() and "⚅" in panels.text("battle")  # the result, until Continue
    app.set_lang("ja")
    click_map(app, 13)  # Ben's turn to roll: a click shows Tokyo's info
    assert panels.click("ok")
    assert panels.click("roll")
    app.set_lang("en")
    assert not panels.click("confirm")  # not offered: ignored
    shown, sent = rec.shown(tmp_path)
    assert len(shown) == len(rec.expected) >= 14
    for i, (page, want) in enumerate(zip(shown, rec.expected, strict=True)):
        _compare(page, want, i)
    assert HOSTILE in shown[0]["title"] and any(HOSTILE in p["score"] for p in shown)
    assert any("ダイス" in b[2] for p in shown for b in p["buttons"])  # the Japanese labels were drawn
    assert sent == [{"have": rec.steps[0][0]["n"]}]  # the page says which scene it holds; no button is enabled


def test_a_click_is_one_small_message_and_a_stale_one_does_nothing(tmp_path: Path) -> None:
    app = JapanConquestApp(save_dir=None)
    _battle_game(app)
    panels = app.board.panels
    rec = Recorder(panels)
    _shown, sent = rec.shown(tmp_path)
    assert sent == [{"have": panels.scene["n"]}, {"click": "dice-1"}]  # the first enabled button: the dice choice
    assert len(json.dumps(sent[-1])) < 40
    version, seat = app.controller.version, app.board.inner
    for target in ("confirm", "undo", "battle-1", "ok", "<img>", "x" * 100):
        assert not panels.click(target)
        panels._on_page_msg(panels, {"click": target}, [])
    assert app.controller.version == version and seat.phase == "roll"
    panels._on_page_msg(panels, {"click": "roll"}, [])  # as the page sends it
    assert seat.phase == "route" and app.controller.version > version


def test_closed_panels_stop_drawing_and_leave_no_observer() -> None:
    """close_tree closes the panels without their close(): the next change of the
    controller finds them closed, and they stop observing it (nothing of them stays alive)."""
    from ipywidgets import Widget

    from conquest_widget.games.japan_conquest.widget.controller import SeatController
    from conquest_widget.ui.controller import MatchController

    c = SeatController(MatchController(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"])), humans={0, 1}))
    panels = JapanPanels(c)
    Widget.close(panels)
    c.roll()
    observers = [h for name in JapanPanels.OBSERVED for h in c._trait_notifiers.get(name, {}).get("change", [])]
    assert not [h for h in observers if getattr(h, "__self__", None) is panels]
