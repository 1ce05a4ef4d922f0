"""The Japanese Risk panels' page module (``panels.js``) draws what the kernel side says the
page shows: the panels' messages of a game are replayed into the module in Node.js with a
minimal DOM (``page/run_panels.mjs``, no browser), and after each one the page's status,
message, guide, prompts, selected territory, odds, battle and knowledge texts, its buttons
(enabled, labels, CSS classes), its fields (labels, values, bounds) and the board's version
class are compared with what :class:`~conquest_widget.games.japanese_risk.widget.panels.RiskPanels`
reads from its scene.  Skipped where Node.js is missing (a failure in CI, as
tests/test_page_files.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import ipywidgets as W
import pytest
from page_runner import PageRecorder

from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
from conquest_widget.games.japanese_risk.text import STRINGS, t
from conquest_widget.games.japanese_risk.widget.board import RiskBoard
from conquest_widget.games.japanese_risk.widget.panel_scene import TEXTS, field_names, fmt
from conquest_widget.games.japanese_risk.widget.panels import RiskPanels
from conquest_widget.ui.controller import MatchController

from .test_widget import last_action, play_turn_step, saitama_attacked

RUNNER = Path(__file__).parent / "page" / "run_panels.mjs"
HOSTILE = "<b onclick=x>&amp;</b>"  # a name of 19 characters (at most 24)


@pytest.fixture(autouse=True)
def _fresh_widgets():
    W.Widget.close_all()
    yield
    W.Widget.close_all()


def _flat(text: str) -> str:
    """A text without its spaces and line breaks (the page's layout puts some between parts)."""
    return re.sub(r"\s", "", text)


def _expected(panels: RiskPanels) -> dict[str, Any]:
    """What the kernel side says the page shows now."""
    s = panels.scene
    buttons = {b[0]: (bool(b[2]), fmt(s, b[1])) for item in panels.items() if item[0] == "b" for b in item[1]}
    fields = [[item[1], fmt(s, item[2]), int(item[3]), *(item[4:6] if item[0] == "n" else [None, None])]
              for item in panels.items() if item[0] in ("n", "c")]
    return {"version": f"cw-v-{s['n']}", "status": panels.text("status").splitlines(),
            **{part: panels.text(part) for part in ("message", "guide", "info", "odds", "battle", "knowledge")},
            "prompts": [fmt(s, item[2]) for item in panels.items() if item[0] == "t"],
            "buttons": buttons, "fields": fields}


class Recorder(PageRecorder):
    """The panels' messages to the page, with what the kernel side says after each."""

    def __init__(self, panels: RiskPanels) -> None:
        super().__init__(panels, _expected, RUNNER, only_patches=False)


def _compare(page: dict[str, Any], want: dict[str, Any], step: int) -> None:
    where = f"after message {step}"
    assert page["version"] == page["board"] == [want["version"]], where
    assert [_flat(x) for x in page["status"]] == [_flat(x) for x in want["status"]], where
    for part in ("message", "guide", "info", "odds", "battle", "knowledge"):
        assert _flat(page[part]) == _flat(want[part]), (where, part, page[part], want[part])
    assert page["prompts"] == want["prompts"], where
    buttons = {}
    for cls, disabled, label in page["buttons"]:
        (target,) = [c[3:] for c in cls.split() if c.startswith("cw-")]
        buttons[target] = (not disabled, label)
    assert buttons == want["buttons"], where
    fields = []
    for cls, label, value, low, high in page["fields"]:
        (name,) = [c[3:] for c in cls.split() if c.startswith("cw-")]
        fields.append([name, label, value, low, high])
    assert fields == want["fields"], where


def test_the_page_draws_what_the_kernel_says_through_a_game_by_clicks(tmp_path: Path) -> None:
    """A human against a CPU clicks through four rounds (income, deploys, moves, gathered
    attacks, battles, windows), the language switched half-way; every message replayed."""
    setup = RiskSetup((HOSTILE, "Bo"), round_limit=4, bots=("human", "easy"))
    c = MatchController(JapaneseRisk(setup, seed=3), humans={0})
    board = RiskBoard(c, "en")
    rec = Recorder(board.panels)
    rng = random.Random(3)
    steps = 0
    while not c.is_over and steps < 120:
        if steps == 10:
            board.set_lang("ja")
        play_turn_step(board, rng, steps % 30)
        steps += 1
    shown, sent = rec.shown(tmp_path)
    assert len(shown) == len(rec.expected) >= 30
    for i, (page, want) in enumerate(zip(shown, rec.expected, strict=True)):
        _compare(page, want, i)
    assert sent[0] == {"have": rec.steps[0][0]["n"]}        # the page says which scene it holds
    assert any(HOSTILE in line for p in shown for line in p["status"])   # a name drawn as text
    assert any("巡" in line for line in shown[-1]["status"]), (steps, shown[-1]["status"])
    assert any(p["battle"] for p in shown) and any(p["odds"] for p in shown)


def test_the_defence_question_and_its_fields_in_the_page(tmp_path: Path) -> None:
    """The defender's question (reserve ninjas, the count): the page draws the fields with
    the kernel's bounds; a change in the page comes back as one message ``<field>:<n>``,
    clamped to the field's bounds, and a button's click as its target."""
    m, c, board = saitama_attacked(ninja=True)
    rec = Recorder(board.panels)
    c.uncover()
    board.commit_ninjas.value = 1
    board.count.value = 2
    shown, sent = rec.shown(tmp_path)
    for i, (page, want) in enumerate(zip(shown, rec.expected, strict=True)):
        _compare(page, want, i)
    last = shown[-1]
    assert [f[0].split()[-1] for f in last["fields"]] == ["cw-commit-ninjas", "cw-count"]
    assert last["fields"][1][2:] == [2, 1, 6]
    clicks = [x["click"] for x in sent if "click" in x]
    assert clicks == ["commit-none", "commit-ninjas:0"]     # the last button; the first field, at its bottom
    assert board.panels.click("commit-none")                # what the page sends, handled in the kernel
    assert last_action(m) == {"type": "commit", "count": 0, "ninjas": 1}
    assert not board.panels.click("commit-ninjas:0")        # no longer shown: nothing


def _texts(x: Any) -> Any:
    """Every ``[key, {fields}]`` or ``[key, [values]]`` text in a part of the scene (``key``
    the template's place in ``T``: ``TEXTS[key]`` in the game's table)."""
    if isinstance(x, list):
        if len(x) == 2 and type(x[0]) is int and 0 <= x[0] < len(TEXTS) and isinstance(x[1], dict | list):
            yield x
            for v in (x[1].values() if isinstance(x[1], dict) else x[1]):
                yield from _texts(v)
        else:
            for y in x:
                yield from _texts(y)


def test_the_scene_texts_read_as_the_games_text_table_says() -> None:
    """A text sent as its key and fields (its template once in ``T``) reads in the page as
    ``text.t`` writes it in the kernel, in both languages, counted nouns included."""
    setup = RiskSetup(("Ann", "Bo"), round_limit=3, bots=("human", "easy"))
    c = MatchController(JapaneseRisk(setup, seed=5), humans={0})
    board = RiskBoard(c, "en")
    rng = random.Random(5)
    seen = 0
    for steps in range(60):
        if c.is_over:
            break
        if steps == 20:
            board.set_lang("ja")
        scene = board.panels.scene
        lang = "ja" if scene["T"][TEXTS.index("ui_count")] == STRINGS["ui_count"][1] else "en"
        for key, value in scene.items():
            if key in ("T", "N"):
                continue
            for text in _texts(value):
                given = text[1] if isinstance(text[1], dict) else dict(zip(field_names(scene["T"][text[0]]), text[1],
                                                                          strict=True))
                fields = {k: fmt(scene, v) if isinstance(v, list) else v for k, v in given.items()}
                assert fmt(scene, text) == t(TEXTS[text[0]], lang, **fields), text
                seen += 1
        play_turn_step(board, rng, steps % 30)
    assert seen > 100
