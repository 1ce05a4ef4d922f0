"""Scoring of Conquest: piles, points and the tie-break chain (shared by the engine and
the CPU players' simulations).

Each rank is compared across players: the highest Jack pile scores 1 point, Queen 2,
King 3.  A tie on a pile goes to the tied player with more aces on it; still tied, every
still-tied player scores.  An empty pile (no number card) never scores.  The winner has
the most points; ties are broken by the sum of the three totals, then by aces played in
all, then by the Jack+Queen total; still tied is a shared win.

    >>> r = score([[5, 10, 12], [5, 9, 13]], [[1, 0, 0], [0, 0, 0]], [[True] * 3, [True] * 3])
    >>> r["points"], [p["by"] for p in r["piles"]], r["decided_by"]
    ([3, 3], ['aces', 'total', 'total'], 'aces')
    >>> r["ranks"]
    [1, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import FACE_POINTS, FACES, JOKER, RANK, SUIT, value

#: the tie-break chain, in order (each a key of ``score(...)["chain"]``)
CHAIN = ("points", "sum", "aces", "jack_queen")


def pile_stats(cards: Sequence[str], owner_suit: str, ace_eleven: bool) -> tuple[int, int, int]:
    """``(total, aces, number_cards)`` of one pile owned by a player of ``owner_suit``.

    >>> pile_stats(["AS", "7S", "JK"], "S", True), pile_stats(["AS", "7S"], "S", False)
    ((13, 1, 2), (8, 1, 2))
    """
    total = aces = numbers = 0
    for c in cards:
        total += value(c, owner_suit, ace_eleven)
        if c != JOKER:
            numbers += 1
            if RANK[c] == 1:
                aces += 1
    return total, aces, numbers


def pile_winners(totals: Sequence[int], aces: Sequence[int], nonempty: Sequence[bool]) -> tuple[list[int], str]:
    """The seats that score one rank and how: ``"total"``, ``"aces"``, ``"shared"``, or
    ``"empty"`` (nobody has a card on that rank).

    >>> pile_winners([7, 7, 3], [1, 1, 0], [True, True, True])
    ([0, 1], 'shared')
    >>> pile_winners([0, -5], [0, 0], [False, False])
    ([], 'empty')
    """
    seats = [s for s in range(len(totals)) if nonempty[s]]
    if not seats:
        return [], "empty"
    best = max(totals[s] for s in seats)
    tied = [s for s in seats if totals[s] == best]
    if len(tied) == 1:
        return tied, "total"
    most = max(aces[s] for s in tied)
    still = [s for s in tied if aces[s] == most]
    return still, ("aces" if len(still) == 1 else "shared")


def score(totals: Sequence[Sequence[int]], aces: Sequence[Sequence[int]],
          nonempty: Sequence[Sequence[bool]]) -> dict[str, Any]:
    """Points, ranks and the tie-break chain from per-seat, per-face (J, Q, K) pile
    totals, ace counts and whether the pile holds a number card."""
    n = len(totals)
    points = [0] * n
    piles = []
    for f, face in enumerate(FACES):
        winners, by = pile_winners([t[f] for t in totals], [a[f] for a in aces], [e[f] for e in nonempty])
        for s in winners:
            points[s] += FACE_POINTS[face]
        piles.append({"face": face, "winners": winners, "by": by, "points": FACE_POINTS[face],
                      "totals": [t[f] for t in totals]})
    chain = {
        "points": points,
        "sum": [sum(t) for t in totals],
        "aces": [sum(a) for a in aces],
        "jack_queen": [t[0] + t[1] for t in totals],
    }
    keys = [tuple(chain[c][s] for c in CHAIN) for s in range(n)]
    ranks = [1 + sum(1 for o in keys if o > k) for k in keys]
    winners = [s for s in range(n) if ranks[s] == 1]
    decided_by = "shared"
    if len(winners) == 1:
        w = winners[0]
        for i, step in enumerate(CHAIN):
            if all(keys[w][: i + 1] > keys[o][: i + 1] for o in range(n) if o != w):
                decided_by = step
                break
    return {"points": points, "piles": piles, "chain": chain, "ranks": ranks,
            "winners": winners, "decided_by": decided_by}


def suit_owner(suits: Sequence[str], code: str) -> int | None:
    """The seat whose face cards are of ``code``'s suit, or None (jokers: None)."""
    s = SUIT.get(code, "")
    return suits.index(s) if s and s in suits else None
