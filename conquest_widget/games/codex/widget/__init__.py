"""The Codex of Conquest in the shared shell: its :class:`~conquest_widget.ui.game_ui.GameUI`
(setup from the form, the board, log lines, the end screen, the sounds
of its events) and ``App`` for the picker.

    >>> from conquest_widget.ui.game_ui import SeatChoice
    >>> s = make_setup([SeatChoice("Ann"), SeatChoice("Bo", bot="hard")], {"k": 3, "starting_cash": 2000})
    >>> s.k, s.starting_cash, [(p.name, p.cpu, p.bot) for p in s.players]
    (3, 2000, [('Ann', False, 'normal'), ('Bo', True, 'hard')])
    >>> [c.bot for c in seat_choices(s)]
    ['human', 'hard']
    >>> event_text({"type": "turn", "seat": 0, "turn": 1}, "ja", names=["Ann", "Bo"])
    '1ターン目：Ann'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conquest_widget.errors import SetupError
from conquest_widget.ui.game_ui import HUMAN, GameUI, Option, SeatChoice
from conquest_widget.ui.match_app import app_class

from ..rules import DEFAULT_K, DEFAULT_STARTING_CASH, K_RANGE, MAX_STARTING_CASH
from ..setup import DEFAULT_COLOURS, CodexPlayer, CodexSetup
from ..sounds import SOUNDS
from ..text import STRINGS, describe_event
from .board import CodexBoard
from .render import results_table


def make_setup(seats: list[SeatChoice], options: dict[str, Any]) -> CodexSetup:
    """The engine's setup from the shell's form: names, Human or a CPU level per seat,
    ``k`` and ``starting_cash`` (:class:`SetupError` names a bad value)."""
    if not isinstance(seats, list) or not seats:
        raise SetupError("the setup needs a list of seats")
    players = tuple(CodexPlayer(s.name, DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)], not s.human,
                                "normal" if s.human else s.bot) for i, s in enumerate(seats))
    return CodexSetup(players, options.get("k", DEFAULT_K), options.get("starting_cash", DEFAULT_STARTING_CASH))


def seat_choices(setup: CodexSetup) -> list[SeatChoice]:
    """Who plays each seat of ``setup``: Human or the CPU level."""
    return [SeatChoice(p.name, p.bot if p.cpu else HUMAN) for p in setup.players]


def event_text(event: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str | None:
    """One log line for an engine event (``names``: the players' names in seat order; the
    shell passes them; without them seats are written P1, P2...)."""
    return describe_event(event, lang, list(names) if names else [f"P{i + 1}" for i in range(6)])


def results_html(outcome: dict[str, Any], view: dict[str, Any], lang: str) -> str:
    """The end screen's wealth breakdown (cash + holdings x price per player)."""
    return results_table(outcome, view, lang)


UI = GameUI(
    game="codex",
    options=(
        # a whole number in the engine's range (K_RANGE, 2-8: the seed gives no size, issue 13
        # chose it) rather than a choice: MatchApp builds a choice's Dropdown with its value
        # before its options, which ipywidgets refuses
        Option("k", {"en": STRINGS["ui_k"][0], "ja": STRINGS["ui_k"][1]}, default=DEFAULT_K,
               low=K_RANGE.start, high=K_RANGE.stop - 1),
        Option("starting_cash", {"en": STRINGS["ui_starting_cash"][0], "ja": STRINGS["ui_starting_cash"][1]},
               default=DEFAULT_STARTING_CASH, low=0, high=MAX_STARTING_CASH),
    ),
    make_setup=make_setup,
    seat_choices=seat_choices,
    board=CodexBoard,
    results_html=results_html,
    event_text=event_text,
    sounds=SOUNDS,
)
App = app_class(UI)

__all__ = ["UI", "App", "CodexBoard", "event_text", "make_setup", "results_html", "seat_choices"]
