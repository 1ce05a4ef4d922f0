"""Japan Conquest's New game form in the page (``widget/setup_form.js``, run in Node.js with a
minimal DOM by ``tests/page/run_form.mjs``, no browser): it shows what the kernel's fields
hold, hides what does not apply, puts hostile names in as input values and problems as
text, and its Start carries what it shows.  Skipped where Node.js is missing (a failure in
CI, as tests/test_page_files.py)."""

from __future__ import annotations

from pathlib import Path

from page_runner import run_form

from conquest_widget.games.japan_conquest.widget.controller import SeatController
from conquest_widget.games.japan_conquest.widget.setup_form import SetupScreen

HOSTILE = "<img src=x onerror=1>"


def spec(cls: str, tag: str | None = None, nth: int = 0) -> dict:
    return {"cls": cls, "tag": tag, "nth": nth} if tag else {"cls": cls}


def model(form: SetupScreen) -> dict:
    return {"desc": form.desc, "values": form.values, "problem": form.problem}


def test_the_page_shows_the_fields_and_hides_what_does_not_apply(tmp_path: Path) -> None:
    c = SeatController(None)
    form = SetupScreen(c)
    form.load({"players": [{"name": HOSTILE, "home": 1}, {"name": "B", "cpu": True, "difficulty": "hard"}],
               "mode": "conquest"})
    watch = [spec("cw-seat-0", "input"), spec("cw-seat-0", "select"), spec("cw-seat-2"),
             spec("cw-seat-1", "select", 1), spec("cwj-mode", "select", 1), spec("cw-msg")]
    opened = model(form)
    form.pick_home(46)  # a map click: the selected seat (the first) gets Kagoshima
    steps = [{"kernel": {"values": form.values}}, {"pick": [spec("cwj-mode", "select"), "Standard"]},
             {"kernel": {"problem": "<b>two homes</b>"}}]
    shown, sent = run_form(form, opened, watch, steps, tmp_path)
    first = shown[0]
    assert first[0]["value"] == HOSTILE and first[1]["picked"] == "Hokkaido"  # a name is an input's value
    assert not first[2]["visible"]  # two players: seat 3 hidden
    assert first[3]["picked"] == "Hard" and first[3]["visible"]  # seat 2 is a CPU: its difficulty shows
    assert not first[4]["visible"]  # the turns: standard mode only
    assert shown[1][1]["picked"] == "Kagoshima" and form.rows[0].home.value == 46
    assert shown[2][4]["visible"] and sent[-1]["save"]["mode"] == "standard"
    assert shown[3][5]["text"] == "<b>two homes</b>"  # a problem is text, never markup


def test_start_carries_the_form_the_page_shows(tmp_path: Path) -> None:
    c = SeatController(None)
    started: list = []
    form = SetupScreen(c, on_start=lambda: started.append(form.read()))
    steps = [{"press": spec("cwj-count", "button", 0)},  # 2 players
             {"press": spec("cw-seat-1", "button", 0)},  # seat 2: Human
             {"type": [spec("cwj-seed-row", "input"), "12"]},
             {"press": spec("cw-start")}]
    shown, sent = run_form(form, model(form), [spec("cwj-count", "button", 0)], steps, tmp_path)
    assert shown[1][0]["on"] and [m.get("custom", {}).get("click") for m in sent] == [None, None, None, "start"]
    form._on_page_msg(form, sent[-1]["custom"], [])  # the edits' own messages never arrived
    ((setup, _seed),) = started  # Start read the form the page showed
    assert [p.cpu for p in setup.players] == [False, False] and setup.seed == 12
