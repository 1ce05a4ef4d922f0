"""The Codex board's page module (``board.js``) draws what the kernel side says the page
shows: the board's messages of a game are replayed into the module in Node.js with a
minimal DOM (``page/run_board.mjs``, no browser), and after each one the page's status,
board message, dice, purchases left, market rows, players' rows, preview, Joker and
forced-sale panels, its buttons (enabled, labels) and every plot's SVG attributes are
compared with the board's ``text()``, ``clickable()`` and ``plot_attrs()``.  Skipped where
Node.js is missing (a failure in CI, as tests/test_page_files.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from page_runner import PageRecorder

from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
from conquest_widget.games.codex.rules import FACTIONS
from conquest_widget.games.codex.setup import CodexPlayer
from conquest_widget.games.codex.widget.board import CodexBoard
from conquest_widget.ui.controller import MatchController

from .helpers import EMBER, JOKER, new_match
from .test_widget import HOSTILE, play_one_step, press

RUNNER = Path(__file__).parent / "page" / "run_board.mjs"


def _flat(text: str) -> str:
    """A text without its spaces and the players' dots (the page's layout puts some between
    the parts the kernel's text() joins with one space)."""
    return re.sub(r"[\s●]", "", text)


def _expected(board: CodexBoard) -> dict[str, Any]:
    """What the kernel side says the page shows now."""
    shown = board.shown()
    return {
        "root": board.classes("board"),
        "status": board.text("status"), "message": board.text("message"), "dice": board.text("dice"),
        "purchases": board.text("purchases"), "preview": board.text("preview"), "joker": board.text("joker"),
        "forced": board.text("forced"), "players": board.text("players").splitlines(),
        "market": [board.text(f"market-{f}") for f in FACTIONS],
        "buttons": {t: (t in board.clickable(), board.text(t)) for t in shown if not t.startswith("plot-")},
        "plots": [board.plot_attrs(p) for p in range(board.grid.n)],
    }


class Recorder(PageRecorder):
    """The board's messages to the page, with what the kernel side says after each."""

    def __init__(self, board: CodexBoard) -> None:
        super().__init__(board, _expected, RUNNER)


def _compare(page: dict[str, Any], want: dict[str, Any], step: int) -> None:
    where = f"after message {step}"
    assert set(page["root"].split()) >= want["root"], where
    for part in ("status", "message", "purchases", "joker", "forced", "preview"):
        if part in ("joker", "forced"):  # the panel's title, then its buttons
            assert _flat(page[part]).startswith(_flat(want[part])), (where, part, page[part], want[part])
        else:
            assert _flat(page[part]) == _flat(want[part]), (where, part, page[part], want[part])
    assert _flat(page["dice"]) == _flat(want["dice"]), where
    assert [_flat(x) for x in page["market"]] == [_flat(x) for x in want["market"]], where
    assert [_flat(x) for x in page["players"]] == [_flat(x) for x in want["players"]], where
    buttons = {}
    for cls, disabled, label in page["buttons"]:
        (target,) = [c[3:] for c in cls.split() if c.startswith("cw-") and c[3:] in want["buttons"]] or [cls]
        buttons[target] = (not disabled, label)
    assert buttons == want["buttons"], where
    assert len(page["plots"]) == len(want["plots"]), where
    for (cls, fill, opacity, stroke, width, dash), attrs in zip(page["plots"], want["plots"], strict=True):
        assert [fill, opacity, stroke, width, dash] == [attrs["fill"], attrs["fill-opacity"], attrs["stroke"],
                                                        attrs["stroke-width"], attrs["stroke-dasharray"]], (where, cls)


def test_the_page_draws_what_the_board_says_through_a_scripted_game(tmp_path: Path) -> None:
    # a placement that conquers and puts the other player in debt, a refused plot, the
    # forced sales, a Joker's faction chosen, the language switched, a cancel
    m = new_match(2, k=3, picks=["ember", "tide"], dice=[[1, EMBER], [2, JOKER]])
    m.edit_pieces("tide", [(1, 1, 1)])
    m.edit_pieces("ember", [(1, 2, 2)])
    m.edit_pieces("sun", [(4, 3, 2), (4, 3, 3)])
    m.edit_shares(1, "tide", 2)
    m.edit_shares(1, "sun", 5)
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    rec = Recorder(board)
    for target in ("roll", "plot-2-1-1", "plot-1-1-2", "cancel", "plot-1-1-2", "confirm", "forced-sun", "forced-sun",
                   "end-turn", "roll", "plot-2-1-1", "joker-grove"):
        press(board, target)
    board.set_lang("ja")
    press(board, "confirm")
    assert c.view["board"][board.grid.plot(2, 1, 1)] == "grove"
    shown, sent = rec.shown(tmp_path)
    assert len(shown) == len(rec.expected) >= 14
    for i, (page, want) in enumerate(zip(shown, rec.expected, strict=True)):
        _compare(page, want, i)
    assert {"have": 0} in sent                     # the page says which scene it holds


def test_the_page_draws_hostile_names_as_text_through_a_whole_game(tmp_path: Path) -> None:
    setup = CodexSetup((CodexPlayer(HOSTILE, "#112233"), CodexPlayer("B&B <i>", "#445566", cpu=True)), k=2)
    c = MatchController(CodexMatch(setup, seed=4), humans={0})
    board = CodexBoard(c, "en")
    rec = Recorder(board)
    rng = random.Random(1)
    while not c.is_over:
        play_one_step(board, rng)
    shown, _sent = rec.shown(tmp_path)
    for i, (page, want) in enumerate(zip(shown, rec.expected, strict=True)):
        _compare(page, want, i)
    assert HOSTILE in shown[0]["players"][0] and any(HOSTILE in p["status"] for p in shown)
    assert "The game ends" in shown[-1]["status"]
