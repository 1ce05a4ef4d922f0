"""Japan Conquest's figures per seat of a finished game (``GameSpec.seat_stats``): what
``conquest-widget simulate`` averages per bot, beside wins and ranks.

    >>> from conquest_widget.tournament import TournamentConfig, play_game
    >>> cfg = TournamentConfig.build("japan_conquest", ["aggressive=normal:aggressive", "easy"], games=2,
    ...                              options={"turns": 5})
    >>> rec = play_game(cfg, 0)
    >>> sorted(rec["seat_stats"][0]) == sorted(STAT_KEYS)
    True
"""

from __future__ import annotations

from typing import Any

#: the figures of each seat (counts, except ``score`` and ``tolls_paid``: points and gold)
STAT_KEYS = (
    "score", "battles_started", "battles_won", "defences_won", "claims", "captures", "castles_built",
    "neutralised", "items_used", "items_used_in_battle", "tolls_paid",
)


def seat_stats(match: Any) -> list[dict[str, float]]:
    """The figures of each seat of ``match`` (a finished :class:`~.match.JapanMatch`), from
    its events, all of them: the game is over, so nothing is secret any more."""
    n = len(match.setup.players)
    stats = [dict.fromkeys(STAT_KEYS, 0.0) for _ in range(n)]
    out = match.outcome()
    if out is not None:
        for seat, score in enumerate(out.details["scores"]):
            stats[seat]["score"] = float(score)
    for event in match.events:
        ev = event.data
        kind, who = ev.get("type"), ev.get("player")
        if not isinstance(who, int) or not 0 <= who < n:
            continue
        s = stats[who]
        if kind == "battle_start":
            s["battles_started"] += 1
        elif kind == "battle_result":
            if ev["attacker_won"]:
                s["battles_won"] += 1
            else:
                stats[ev["defender"]]["defences_won"] += 1
        elif kind == "claimed":
            s["claims"] += 1
        elif kind == "captured":
            s["captures"] += 1
        elif kind == "upgraded" and ev["level"] == "castle":
            s["castles_built"] += 1
        elif kind == "neutralised":
            s["neutralised"] += 1
        elif kind == "item_used":
            s["items_used"] += 1
            if ev["purpose"] == "battle":
                s["items_used_in_battle"] += 1
        elif kind == "toll":
            s["tolls_paid"] += ev["amount"]
    return stats
