"""What the Codex's board and end screen show besides the scene's texts: amounts, the
dice faces, each faction's price history, and the end screen's table (HTML, every name
escaped).  Pure functions of view/event dicts (the board itself is drawn by the page from
its scene: board.py, board.js).

    >>> price_history([{"type": "price", "faction": "tide", "old": 0, "new": 2000}])["tide"]
    [0, 2000]
    >>> money(-12000)
    '-12,000'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conquest_widget.core.safe_text import html_text

from ..rules import FACTION_COLOURS, FACTIONS
from ..text import faction_name, t

#: the faces of a number die
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def money(v: int) -> str:
    """``12,000``-style amounts."""
    return f"{v:,}"


def price_history(events: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    """Each faction's price after every change, from the ``price`` events (starting at 0)."""
    out = {f: [0] for f in FACTIONS}
    for e in events:
        if e.get("type") == "price" and e.get("faction") in out:
            out[e["faction"]].append(int(e["new"]))
    return out


def results_table(outcome: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str:
    """The end screen's wealth breakdown: per player cash + shares × price = wealth, ranks,
    eliminations noted, and why the game ended."""
    details = outcome.get("details", {})
    prices = details.get("prices", {})
    breakdown = details.get("wealth", [])
    ranks = outcome.get("ranks", [])
    players = view.get("players", [])
    head = "".join(f"<th style='color:{FACTION_COLOURS[f]}' title='{html_text(faction_name(f, lang))}'>"
                   f"{html_text(faction_name(f, lang))}<br><small>@ {money(prices.get(f, 0))}</small></th>"
                   for f in FACTIONS)
    rows = []
    order = sorted(range(len(breakdown)), key=lambda i: (ranks[i] if i < len(ranks) else 99, i))
    for i in order:
        w = breakdown[i]
        name = players[i]["name"] if i < len(players) else f"P{i + 1}"
        cells = "".join(f"<td style='text-align:right'>{w['shares'][f]['count']} × {money(prices.get(f, 0))}"
                        f" = {money(w['shares'][f]['value'])}</td>" for f in FACTIONS)
        note = f" <small>({html_text(t('ui_results_eliminated', lang))})</small>" if w.get("eliminated") else ""
        rank = ranks[i] if i < len(ranks) else ""
        rows.append(f"<tr data-seat='{i}'><td>{rank}</td><td>{html_text(name)}{note}</td>"
                    f"<td style='text-align:right'>{money(w['cash'])}</td>{cells}"
                    f"<td style='text-align:right'><b>{money(w['wealth'])}</b></td></tr>")
    why = "; ".join(t(f"end_{r}", lang) for r in details.get("triggers", []) if f"end_{r}" in _END_KEYS)
    return (f"<div class='cw-codex-results'><h4>{html_text(t('ui_results_title', lang))}</h4>"
            + (f"<p>{html_text(t('ui_results_end', lang, why=why))}</p>" if why else "")
            + f"<table style='border-collapse:collapse' border='1' cellpadding='4'>"
            f"<tr><th>{html_text(t('ui_rank', lang))}</th><th>{html_text(t('ui_player', lang))}</th>"
            f"<th>{html_text(t('ui_cash', lang))}</th>{head}<th>{html_text(t('ui_wealth', lang))}</th></tr>"
            + "".join(rows) + "</table></div>")


_END_KEYS = {"end_group_15", "end_supply_20", "end_last_survivor"}
