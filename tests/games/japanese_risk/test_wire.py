"""What the page receives per move of Japanese Risk at one screen (issue 32: a lean wire),
counted at the comm (``tests/games/japan_conquest/widget/wire.py``: envelopes, comm opens
and every model included), as ``tests/benchmarks/test_bench_lean_wire.py`` measures it:
a hot-seat game of two humans driven as a player presses the buttons
(``tests/ui/player.py``), each move followed by everything every view sends.

The map's painter and the label icons it opens are another part of issue 32 (labels into
the painter) and are counted apart: what the rest of the page receives per move (the
side panels, the log, the cover) is the scene patches asserted on here."""

from __future__ import annotations

import statistics
from pathlib import Path

import ipywidgets as W
import pytest
from ipywidgets.widgets.widget import _instances
from jupyter_client.session import json_packer
from ui.player import Player

from games.japan_conquest.widget.wire import WireCounter

#: the map's models: its painter's messages and the label icons it opens
MAP = ("MapPainter", "LeafletDivIconModel")
MOVES = 40


@pytest.fixture(autouse=True)
def _fresh_widgets():
    W.Widget.close_all()
    yield
    W.Widget.close_all()


class _Counter(WireCounter):
    """A wire counter that names each message's widget (the map's painter is an AnyModel
    like the panels and the log)."""

    def count(self, c, msg_type, data, metadata, buffers, keys):  # type: ignore[no-untyped-def]
        super().count(c, msg_type, data, metadata, buffers, keys)
        widget = _instances.get(c.comm_id)
        name = type(widget).__name__ if widget is not None and msg_type != "comm_open" else self.sent[-1][0]
        self.per_move.append((name, msg_type, len(json_packer(data))))

    def reset(self) -> None:
        super().reset()
        self.per_move: list[tuple[str, str, int]] = []


def _moves(tmp_path: Path) -> list[dict]:
    with _Counter() as wire:
        p = Player("japanese_risk", tmp_path / "saves")
        p.play()
        p.new_game(humans=2)
        moves = []
        while len(moves) < MOVES:
            for _ in range(10):
                if not p.pass_cover():
                    break
            wire.reset()
            if not p.move():
                break
            sent = wire.per_move
            rest = [(name, n) for name, _t, n in sent if name not in MAP]
            moves.append({"kind": p.last, "messages": sum(1 for name, t, _n in sent
                                                          if not (name == "LeafletDivIconModel" and t == "comm_open")),
                          "scene": sum(n for _name, n in rest), "rest": rest,
                          "handover": p.app.controller.cover != ""})
    assert len(moves) == MOVES
    return moves


def test_a_hot_seat_move_sends_at_most_three_messages_and_small_scene_patches(tmp_path) -> None:
    """Every move, a hand-over to the other human included, reaches the page as at most
    three messages (the map's painter, the panels' patch, the log's with the cover), label
    icons opened apart; the panels', log's and cover's patches together are at most 600 B
    at the median and 1,700 B at the 95th percentile (before: 7 messages on a hand-over, the
    cover's title, button and two layouts besides, a button row sent whole for one changed
    label, the log renumbered and sent whole at every change of viewer, up to 3.7 KB)."""
    moves = _moves(tmp_path)
    assert sum(m["handover"] for m in moves) >= 5  # the game hands the screen on, often
    too_many = [(m["kind"], m["messages"], m["rest"]) for m in moves if m["messages"] > 3]
    assert too_many == []
    sizes = sorted(m["scene"] for m in moves)
    p95 = sizes[-(-95 * len(sizes) // 100) - 1]
    assert statistics.median(sizes) <= 600 and p95 <= 1700, (statistics.median(sizes), p95, sizes)
    # nothing but scene widgets speak for the rest of the page (no ipywidget shown, hidden
    # or re-texted around the board)
    assert {name for m in moves for name, _n in m["rest"]} <= {"RiskPanels", "LogView", "Sound"}
