"""Small helpers for the Japan Conquest rule scenario tests (tests/games/japan_conquest/test_rules_*.py).

Every scenario is built the same way: a :class:`JapanMatch` from ``GameSetup.quick`` with
:class:`ScriptedDice`, then the position editor, then actions.  Expected numbers in
the tests are worked out by hand from the rules (issue 3); the base values used are
the board data's (Tokyo 50, Osaka 45, ...) and are spelled out in each test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, ScriptedDice
from conquest_widget.maps.japan.board import japan

BOARD = japan()


def code(name: str | int) -> int:
    """JIS code of a prefecture name."""
    return BOARD.code(name)


def new_game(
    homes: Sequence[str] = ("Tokyo", "Osaka"),
    dice: Sequence[int] = (),
    *,
    mode: str = "standard",
    turns: int | None = 10,
    roll_for_order: bool = False,
) -> JapanMatch:
    """A game with scripted dice (the script must hold every die the test rolls)."""
    setup = GameSetup.quick(list(homes), mode=mode, turns=turns, roll_for_order=roll_for_order, seed=0)
    return JapanMatch(setup, dice=ScriptedDice(list(dice)))


def events(game: JapanMatch, kind: str | None = None, since: int = 0) -> list[dict[str, Any]]:
    """Events of one type (or all) emitted from index ``since`` on."""
    return [e for e in game.full_events(since) if kind is None or e["type"] == kind]


def owner(game: JapanMatch, name: str | int) -> int | None:
    return game.prefecture_info(name)["owner"]


def level(game: JapanMatch, name: str | int) -> str:
    return game.prefecture_info(name)["level"]


def own(game: JapanMatch, seat: int | None, level_name: str, *names: str, stored: int | None = None) -> None:
    """Editor shortcut: give every named prefecture to ``seat`` at ``level_name``."""
    for n in names:
        if seat is None:
            game.edit_prefecture(n, owner=None)
        elif stored is None:
            game.edit_prefecture(n, owner=seat, level=level_name)
        else:
            game.edit_prefecture(n, owner=seat, level=level_name, stored=stored)


def move(game: JapanMatch, route: Sequence[str], dice: int = 1) -> None:
    """Roll (``dice`` dice from the script) and walk ``route``, then confirm."""
    game.plan_route(list(route), dice=dice)


@pytest.fixture
def board():
    return BOARD
