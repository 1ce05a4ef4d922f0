"""Japanese Risk in the shared shell: its :class:`~conquest_widget.ui.game_ui.GameUI`
(setup from the form, the board, log lines, the end screen, the sounds
of its events) and ``App`` for the picker.

    >>> from conquest_widget.ui.game_ui import SeatChoice
    >>> s = make_setup([SeatChoice("Ann"), SeatChoice("Bo", bot="hard")], {"round_limit": 8, "shogun_players": False})
    >>> s.round_limit, s.shogun, s.bots
    (8, 'all', ('human', 'hard'))
    >>> [c.bot for c in seat_choices(s)]
    ['human', 'hard']
    >>> make_setup([SeatChoice("Ann"), SeatChoice("Bo")], {"round_limit": 0}).round_limit is None   # 0 = off
    True
    >>> event_text({"type": "captured", "seat": 1, "territory": 13, "armies": 2}, "en", ["Ann", "Bo"])
    'Bo took Tokyo with 2 armies'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conquest_widget.core.safe_text import html_text
from conquest_widget.errors import SetupError
from conquest_widget.ui.game_ui import HUMAN, GameUI, Option, SeatChoice
from conquest_widget.ui.match_app import app_class

from ..engine import RiskSetup
from ..sounds import SOUNDS
from ..text import STRINGS, describe_event, t
from .board import COLOURS, RiskBoard

#: the default round limit of a game started from the form (0 = off)
DEFAULT_ROUND_LIMIT = 12

def make_setup(seats: list[SeatChoice], options: dict[str, Any]) -> RiskSetup:
    """The engine's setup from the shell's form: names and Human or a CPU level per seat,
    ``round_limit`` (0 = off) and ``shogun_players`` (Shogun counts only the other
    players' land).  :class:`SetupError` names a bad value."""
    if not isinstance(seats, list) or not seats:
        raise SetupError("the setup needs a list of seats")
    limit = options.get("round_limit", DEFAULT_ROUND_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise SetupError(f"round_limit must be a whole number >= 0 (0 = off), got {limit!r}")
    return RiskSetup(players=tuple(s.name for s in seats),
                     shogun="players" if options.get("shogun_players") else "all",
                     round_limit=limit or None, bots=tuple(s.bot for s in seats))


def seat_choices(setup: RiskSetup) -> list[SeatChoice]:
    """Who plays each seat of ``setup``: Human or the CPU level."""
    return [SeatChoice(str(p), p.bot if p.cpu else HUMAN) for p in setup.players]


def setup_options(setup: RiskSetup) -> dict[str, Any]:
    """The setup form's options of ``setup`` (the New game form is filled from the last one):
    ``round_limit`` (0 = off) and ``shogun_players``.

    >>> setup_options(RiskSetup(players=("A", "B"), shogun="players"))
    {'round_limit': 0, 'shogun_players': True}
    """
    return {"round_limit": setup.round_limit or 0, "shogun_players": setup.shogun == "players"}


def event_text(event: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> str | None:
    """One log line for an engine event (the viewer's events only reach here)."""
    names = list(names) if names else [f"P{i + 1}" for i in range(5)]
    kind = event.get("type")
    if kind == "game_over":
        reason = event.get("reason")
        if reason == "shogun":
            w = event.get("winner")
            return t("ui_results_reason_shogun", lang, player=names[w] if isinstance(w, int) and 0 <= w < len(names) else "?")
        return t("ui_results_reason_round_limit", lang)
    return describe_event(event, lang, names)


def results_html(outcome: dict[str, Any], view: dict[str, Any], lang: str) -> str:
    """The end screen: why the game ended and the territories of each player (escaped).

    >>> html = results_html({"reason": "round_limit", "ranks": [2, 1], "details": {"territories": [8, 11]}},
    ...                     {"players": [{"seat": 0, "name": "<Ann>"}, {"seat": 1, "name": "Bo"}]}, "en")
    >>> "&lt;Ann&gt;" in html and "<td>11</td>" in html
    True
    """
    players = view.get("players", [])
    names = [str(p.get("name", f"P{i + 1}")) for i, p in enumerate(players)]
    details = outcome.get("details") or {}
    counts = details.get("territories") or (view.get("over") or {}).get("counts") or []
    if outcome.get("reason") == "shogun":
        w = details.get("winner")
        head = t("ui_results_reason_shogun", lang, player=names[w] if isinstance(w, int) and 0 <= w < len(names) else "?")
    else:
        head = t("ui_results_reason_round_limit", lang)
    rows = "".join(
        f"<tr><td><span style='color:{COLOURS[i % len(COLOURS)]}'>■</span> {html_text(n)}</td>"
        f"<td>{int(counts[i]) if i < len(counts) else ''}</td></tr>" for i, n in enumerate(names))
    return (f"<div class='cw-risk-results'><p>{html_text(head)}</p><table><tr><th>{html_text(t('ui_player', lang))}</th>"
            f"<th>{html_text(t('ui_territories', lang))}</th></tr>{rows}</table></div>")


UI = GameUI(
    game="japanese_risk",
    options=(
        Option("round_limit", {"en": STRINGS["ui_round_limit"][0], "ja": STRINGS["ui_round_limit"][1]},
               default=DEFAULT_ROUND_LIMIT, low=0, high=500),
        Option("shogun_players", {"en": STRINGS["ui_shogun_players"][0], "ja": STRINGS["ui_shogun_players"][1]},
               default=False),
    ),
    make_setup=make_setup,
    seat_choices=seat_choices,
    setup_options=setup_options,
    board=RiskBoard,
    results_html=results_html,
    event_text=event_text,
    sounds=SOUNDS,
)
App = app_class(UI)

__all__ = ["UI", "App", "RiskBoard", "event_text", "make_setup", "results_html", "seat_choices", "setup_options"]
