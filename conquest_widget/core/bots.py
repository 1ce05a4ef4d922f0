"""Bots see what a seat sees: ``choose(view, legal, rng)`` gets the seat's view (a dict)
and its legal actions, never the match.

    >>> import random
    >>> from conquest_widget.core.bots import RandomBot
    >>> RandomBot().choose({}, ["a", "b", "c"], random.Random(1)) in ("a", "b", "c")
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from .match import Match
from .protocol import Action


class Bot(Protocol):
    """A CPU player."""

    label: str

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action (every game's baseline)."""

    label = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


def bot_rng(seed: int, seat: int, step: int) -> random.Random:
    """The generator a bot gets for one decision: a function of (seed, seat, step) only,
    so a decision never depends on what else was drawn."""
    return random.Random(f"bot:{seed}:{seat}:{step}")


def play_bots(match: Match, bots: Mapping[int, Bot], *, seed: int = 0, max_actions: int = 1_000_000,
              on_action: Callable[[Match, int, Action], None] | None = None) -> int:
    """Let the bots act until the match is over or a seat without a bot is to act.
    Each bot is given ``match.view(seat)`` and ``match.legal_actions(seat)`` only.
    Returns the number of actions applied."""
    n = 0
    while n < max_actions and match.outcome() is None:
        seats = [s for s in match.to_act() if s in bots]
        if not seats or len(seats) < len(match.to_act()):
            break
        seat = seats[0]
        legal = match.legal_actions(seat)
        action = bots[seat].choose(match.view(seat), legal, bot_rng(seed, seat, len(match.log)))
        match.apply(action, seat)
        n += 1
        if on_action is not None:
            on_action(match, seat, action)
    return n
