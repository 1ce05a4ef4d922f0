"""Bots see what a seat sees: ``choose(view, legal, rng)`` gets the seat's view (a dict)
and its legal actions, never the match.

    >>> import random
    >>> from conquest_widget.core.bots import RandomBot
    >>> RandomBot().choose({}, ["a", "b", "c"], random.Random(1)) in ("a", "b", "c")
    True
"""

from __future__ import annotations

import hashlib
import json
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


def bot_rng(seed: int, seat: int, view: Mapping[str, Any], seen: int) -> random.Random:
    """The generator a bot gets for one decision: a function of the bot's ``seed``, its
    ``seat``, the seat's ``view`` and ``seen`` (how many events the seat has been shown)
    only.  Nothing the seat may not know goes in (not the log's length, which counts other
    seats' secret actions, nor the match's chance seed, which decides the hidden deals), so
    two matches the seat cannot tell apart give its bot the same stream, and a decision
    never depends on what else was drawn.

    >>> a = bot_rng(1, 0, {"hand": ["7S"]}, 3).random()
    >>> a == bot_rng(1, 0, {"hand": ["7S"]}, 3).random(), a == bot_rng(1, 0, {"hand": ["8S"]}, 3).random()
    (True, False)
    """
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
    return random.Random(f"bot:{seed}:{seat}:{seen}:{digest}")


def seen_count(match: Match, seat: int) -> int:
    """How many of ``match``'s events ``seat`` has been shown (its own, the public ones and
    the public forms of others' secret ones): the length of ``match.events_for(seat)``,
    counted without copying them."""
    n = 0
    for e in match.events:
        if e.visible_to is None or seat in e.visible_to or e.public is not None:
            n += 1
    return n


def decision(match: Match, seat: int, seed: int) -> tuple[dict[str, Any], list[Action], random.Random]:
    """What a bot of ``seat`` is given for one decision: the seat's view, its legal
    actions and its :func:`bot_rng` stream (seeded from that view and the number of events
    the seat has seen).  Every runner that lets bots play (the app's controller,
    :func:`play_bots`, the benchmarks) calls this, so none can hand a bot more.

    Use: ``match.apply(bot.choose(*decision(match, seat, seed)), seat)``.
    """
    view = match.view(seat)
    return view, match.legal_actions(seat), bot_rng(seed, seat, view, seen_count(match, seat))


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
        action = bots[seat].choose(*decision(match, seat, seed))
        match.apply(action, seat)
        n += 1
        if on_action is not None:
            on_action(match, seat, action)
    return n
