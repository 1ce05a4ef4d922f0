"""Shared helpers of the Japanese Risk tests: scripted deals and dice, positions, random play."""

from __future__ import annotations

import random

from conquest_widget.games.japanese_risk.engine import (
    CODES,
    NEUTRAL,
    Commit,
    Hold,
    JapaneseRisk,
    Place,
    RiskSetup,
)

#: the identity deal: seat 0 gets codes 1-9, seat 1 10-18, seat 2 19-27, ... (45-47 neutral)
IDENTITY = list(range(47))


def new_match(n: int = 2, *, seed: int = 1, order: list[int] | None = None, **setup_kw) -> JapaneseRisk:
    """A match with the identity deal and (by default) seat order 0, 1, 2, ... in round 1."""
    dice = order if order is not None else [6 - i for i in range(n)]
    return JapaneseRisk(RiskSetup(players=tuple(f"P{i}" for i in range(n)), **setup_kw), seed=seed,
                        forced=[IDENTITY, dice])


def own(m: JapaneseRisk, seat: int) -> list[int]:
    return [c for c in CODES if m.state["owner"][c] == seat]


def place_all(m: JapaneseRisk, where: dict[int, int] | None = None) -> None:
    """Every seat puts its whole income on one card (``where[seat]`` or its first)."""
    where = where or {}
    while m.state["phase"] == "income" and m.to_act() and m.state["battle"] is None and m.state["window"] is None:
        s = m.to_act()[0]
        m.apply(Place(where.get(s, own(m, s)[0]), m.state["income_left"][s]), s)


def hold_windows(m: JapaneseRisk) -> None:
    while m.state["window"] is not None and m.to_act():
        m.apply(Hold(), m.to_act()[0])


def defend(m: JapaneseRisk, bring: int = 0) -> JapaneseRisk:
    """Answer every defence question of the battle under way until it ends (or stops asking).

    A player defender is asked before every round whatever its card holds (issue 27); each
    time it brings ``bring`` card armies, as many as the card holds if fewer, and at least
    one when no army stands on the board (the smallest legal answer then).
    """
    while m.state["battle"] is not None and m.to_act():
        seat = m.to_act()[0]
        assert seat == m.state["battle"]["defender"], "a battle waits only for its defender"
        counts = [a.count for a in m.legal_actions(seat) if isinstance(a, Commit)]
        n = min(bring, max(counts))
        m.apply(Commit(max(n, min(counts))), seat)
    return m


def turn_of(m: JapaneseRisk, where: dict[int, int] | None = None) -> JapaneseRisk:
    place_all(m, where)
    hold_windows(m)
    return m


def put(m: JapaneseRisk, code: int, owner: int, *, board: int = 0, card: int = 0, castle: bool = False) -> None:
    """Edit a position (tests only): ``owner``'s armies on the board / on the card of ``code``."""
    s = m.state
    s["owner"][code] = owner
    s["board"][code] = board
    s["card"][code] = card
    s["castle"][code] = castle
    if board or castle:
        s["revealed"][code] = True
    if m.current() == owner and owner != NEUTRAL:
        s["fresh"][code] = board
        s["half"][code] = 0


def random_game(rng: random.Random, n: int | None = None, stop_at: int | None = None,
                on_step=None) -> JapaneseRisk:
    """A random-legal game (random setup: round limit 3-8)."""
    n = n if n is not None else rng.choice([2, 3, 4, 5])
    m = JapaneseRisk(JapaneseRisk.random_setup(rng, n), seed=rng.randrange(2**31))
    k = 0
    while m.outcome() is None and (stop_at is None or k < stop_at):
        seat = rng.choice(m.to_act())
        action = rng.choice(m.legal_actions(seat))
        before = m.snapshot() if on_step else None
        m.apply(action, seat)
        if on_step:
            on_step(m, seat, action, before)
        k += 1
        assert k < 50_000, "a random game did not end"
    return m
