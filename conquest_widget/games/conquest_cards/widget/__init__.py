"""Conquest (the card game) in the shared shell: its :class:`~conquest_widget.ui.game_ui.GameUI`.

``UI`` tells the shell how to set up a game (players, the three optional rules, how suits
are given), which board to show (:class:`~.board.CardsBoard`), how to write the log and
the end screen, what its events sound like (:mod:`..sounds`).  ``App`` is the game's app (start screen, setup, play, results).

    >>> from conquest_widget.ui.game_ui import SeatChoice
    >>> s = make_setup([SeatChoice("Ann"), SeatChoice("Ben", bot="hard")], {"jokers": True, "suits_in_order": True})
    >>> [(p.name, p.cpu, p.bot) for p in s.players], s.suits, s.jokers, s.ace_eleven
    ([('Ann', False, 'normal'), ('Ben', True, 'hard')], ('S', 'H'), True, False)
    >>> seat_choices(s)
    [SeatChoice(name='Ann', bot='human'), SeatChoice(name='Ben', bot='hard')]
    >>> event_text({"type": "draw", "seat": 1, "last": False, "deck_size": 30}, "en", ["Ann", "Ben"])
    'Ben drew a card'
    >>> event_text({"type": "select", "seat": 0, "card": "7S"}, "en") is None
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conquest_widget.core.safe_text import html_text
from conquest_widget.errors import SetupError
from conquest_widget.ui.game_ui import HUMAN, GameUI, Option, SeatChoice
from conquest_widget.ui.match_app import app_class

from ..cards import FACES, SUIT_SYMBOL, SUITS, show
from ..setup import BOT_LEVELS, CardsSetup, PlayerSeat
from ..sounds import SOUNDS
from ..text import action_text, describe_event, face_name, scoring_lines, t
from .board import CardsBoard

__all__ = ["UI", "App", "CardsBoard", "event_text", "make_setup", "results_html", "seat_choices", "setup_options"]

#: the events a log line is written for (selections are steps of one play, not news)
_LOGGED = {"start", "deal", "draw", "play", "joker", "pass", "reveal", "place", "over"}


def _label(key: str) -> dict[str, str]:
    return {"en": t(key, "en"), "ja": t(key, "ja")}


OPTIONS = (
    Option("ace_eleven", _label("opt_ace_eleven"), default=False),
    Option("reveal_hands", _label("opt_reveal_hands"), default=False),
    Option("jokers", _label("opt_jokers"), default=False),
    # a switch, not a choice: suits are dealt at random unless it is on
    Option("suits_in_order", _label("opt_suits_order"), default=False),
)


def make_setup(seats: list[SeatChoice], options: Mapping[str, Any]) -> CardsSetup:
    """The engine's setup from the setup form: each seat a name and Human or a CPU level;
    ``options`` the three optional rules (bools) and ``suits_in_order`` (True: ♠ ♥ ♣ ♦ in
    seat order; False, the default: dealt by logged chance).  Bad values raise
    :class:`SetupError`."""
    for i, s in enumerate(seats):
        if not s.human and s.bot not in BOT_LEVELS:
            raise SetupError(f"player {i + 1}: CPU level must be one of {BOT_LEVELS}, got {s.bot!r}"[:200])
    players = tuple(PlayerSeat(s.name, cpu=not s.human, bot="normal" if s.human else s.bot) for s in seats)
    in_order = options.get("suits_in_order", False)
    if not isinstance(in_order, bool):
        raise SetupError(f"suits_in_order must be true or false, got {in_order!r}"[:200])
    suits = tuple(SUITS[: len(players)]) if in_order else None
    return CardsSetup(players, suits, ace_eleven=options.get("ace_eleven", False),
                      reveal_hands=options.get("reveal_hands", False), jokers=options.get("jokers", False))


def seat_choices(setup: CardsSetup) -> list[SeatChoice]:
    """Who plays each seat of ``setup``: Human, or the CPU level of the seat."""
    return [SeatChoice(p.name, p.bot if p.cpu else HUMAN) for p in setup.players]


def setup_options(setup: CardsSetup) -> dict[str, Any]:
    """The setup form's options of ``setup`` (the New game form is filled from the last one):
    the three optional rules, and ``suits_in_order`` when the suits are ♠ ♥ ♣ ♦ in seat order.

    >>> setup_options(make_setup([SeatChoice("Ann"), SeatChoice("Ben")], {"jokers": True, "suits_in_order": True}))
    {'ace_eleven': False, 'reveal_hands': False, 'jokers': True, 'suits_in_order': True}
    """
    return {"ace_eleven": setup.ace_eleven, "reveal_hands": setup.reveal_hands, "jokers": setup.jokers,
            "suits_in_order": setup.suits == tuple(SUITS[: len(setup.players)])}


def event_text(event: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> str | None:
    """One readable log line for an event as the viewer received it (``None`` for the steps
    of a play, which the play's own line tells).  ``names`` are the players' names (without
    them seats are written "Player 1", "Player 2", ...)."""
    if event.get("type") not in _LOGGED:
        return None
    if names is None:
        names = [t("ui_player", lang, n=i + 1) for i in range(4)]
    return describe_event(event, lang, list(names))


def results_html(outcome: Mapping[str, Any], view: Mapping[str, Any], lang: str = "en") -> str:
    """The end screen's walk through the scoring: every player's three piles, who took each
    rank and by which tie-break, the points, and the step that decided the winner.  Every
    name is escaped.

    >>> from conquest_widget.games.conquest_cards.scoring import score
    >>> d = score([[5, 10, 12], [5, 9, 13]], [[1, 0, 0], [0, 0, 0]], [[True] * 3] * 2)
    >>> v = {"players": [{"name": "<b>A</b>"}, {"name": "Ben"}]}
    >>> html = results_html({"ranks": d["ranks"], "details": d}, v, "en")
    >>> "&lt;b&gt;A&lt;/b&gt; with 5, more aces in a tie" in html, "<b>A</b>" in html
    (True, False)
    """
    details = outcome.get("details") or {}
    if "piles" not in details:
        return ""
    players = view.get("players") or []
    names = [str(p.get("name", "")) for p in players]
    lines = scoring_lines(details, lang, names)
    chain = details.get("chain", {})
    ranks = outcome.get("ranks") or details.get("ranks") or []
    heads = ["res_rank", "res_player"]
    th = "<th style='padding:2px 10px;text-align:left'>{}</th>"
    cells = "".join(th.format(html_text(t(h, lang))) for h in heads)
    cells += "".join(th.format(html_text(face_name(f, lang))) for f in FACES)
    cells += "".join(th.format(html_text(t(h, lang))) for h in ("points", "res_sum", "res_aces"))
    rows = []
    order = sorted(range(len(names)), key=lambda s: (ranks[s] if s < len(ranks) else 99, s))
    for s in order:
        totals = [pile["totals"][s] if s < len(pile["totals"]) else 0 for pile in details["piles"]]
        won = [s in pile["winners"] for pile in details["piles"]]
        suit = players[s].get("suit", "")
        tds = [str(ranks[s]) if s < len(ranks) else "", html_text(names[s]) + (f" {SUIT_SYMBOL.get(suit, '')}" if suit else "")]
        tds += [f"<b>{x}</b>" if w else str(x) for x, w in zip(totals, won, strict=True)]
        tds += [str(chain.get(k, [""] * len(names))[s]) for k in ("points", "sum", "aces")]
        rows.append("<tr>" + "".join(f"<td style='padding:2px 10px'>{x}</td>" for x in tds) + "</tr>")
    parts = [f"<div class='cwc-results'><h4>{html_text(t('res_heading', lang))}</h4>",
             f"<table class='cwc-score' style='border-collapse:collapse'><tr>{cells}</tr>{''.join(rows)}</table>",
             "<ol>" + "".join(f"<li>{html_text(x)}</li>" for x in lines[:-1]) + "</ol>",
             f"<p><b>{html_text(lines[-1])}</b></p>"]
    revealed = view.get("revealed")
    if revealed:
        for s, hand in enumerate(revealed):
            if s < len(names):
                parts.append(f"<div>{html_text(t('ui_revealed', lang, name=names[s], cards=show(hand) or t('ui_none', lang)))}</div>")
        dead = view.get("dead") or []
        parts.append(f"<div>{html_text(t('ui_dead', lang, cards=show(dead) or t('ui_none', lang)))}</div>")
    parts.append("</div>")
    return "".join(parts)


UI = GameUI(
    game="conquest_cards",
    options=OPTIONS,
    action_text=action_text,
    make_setup=make_setup,
    seat_choices=seat_choices,
    setup_options=setup_options,
    board=CardsBoard,
    results_html=results_html,
    event_text=event_text,
    sounds=SOUNDS,
)

App = app_class(UI)
