"""Japanese Risk's map labels: classes in the label HTML, their styles in ``labels.css``
(sent once with the map's painter, not in every label icon)."""

from __future__ import annotations

import re
from pathlib import Path

from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
from conquest_widget.games.japanese_risk.widget.board import ATTACK_BORDER, MOVE_BORDER, RiskBoard
from conquest_widget.ui.controller import MatchController

CSS = (Path(__file__).parents[3] / "conquest_widget/games/japanese_risk/widget/labels.css").read_text(encoding="utf-8")


def _rule(selector: str) -> str:
    m = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert m, f"no rule for {selector} in labels.css"
    return m.group(1)


def test_the_marks_are_drawn_in_the_colours_of_the_outlines() -> None:
    assert ATTACK_BORDER in _rule(".cw-mark-attack") and MOVE_BORDER in _rule(".cw-mark-move")
    assert "dashed" in _rule(".cw-card-badge.cw-planned")


def test_labels_carry_classes_not_styles_and_the_page_gets_the_stylesheet_once() -> None:
    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=2), humans={0})
    board = RiskBoard(c, "en")
    mine = c.view["me"]["cards"][0]
    board.map.click(mine)                         # income: one army planned on a card
    label = board.map.label_of(mine)
    assert "cw-card-badge cw-planned" in label and "style=" not in label
    assert ".cw-card-badge" in board.map.painter._css and ".cw-map-name" in board.map.painter._css
    assert all("style=" not in board.map.label_of(code) for code in range(1, 48))
