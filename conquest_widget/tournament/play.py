"""Playing games of a tournament: the worker side (pure functions of the configuration
and the game index, so any process on any machine computes the same record).

    >>> from conquest_widget.tournament.config import TournamentConfig
    >>> cfg = TournamentConfig.build("japan_conquest", ["normal", "easy"], games=2, options={"turns": 5})
    >>> rec = play_game(cfg, 1)
    >>> rec["index"], rec["seats"], sorted(rec["ranks"])[0], rec["reason"]
    (1, ['easy', 'normal'], 1, 'turns')
    >>> play_game(cfg, 1) == rec
    True
"""

from __future__ import annotations

import json
import signal
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from conquest_widget.core import registry
from conquest_widget.core.bots import play_bots
from conquest_widget.core.protocol import CHANCE

from .config import TournamentConfig, derive_seed

#: what an unfinished game (action cap reached) records as its end reason
UNFINISHED = "unfinished"


def _event_type(event: Mapping[str, Any]) -> str | None:
    kind = event.get("type", event.get("kind"))
    return kind if isinstance(kind, str) else None


def play_game(config: TournamentConfig, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``config`` and return its record (JSON-able):

    ``index, table, deal, rotation, seed`` (the plan), ``seats`` (entrant name per seat),
    ``bots`` (bot label per seat), ``ranks`` (1 = best, ties share a rank; ``None`` if the
    game hit the action cap), ``reason`` (the game's end reason, or ``"unfinished"``),
    ``actions`` (player actions), ``chance`` (chance draws), ``details`` (the outcome's own
    figures, e.g. scores), ``stats`` (count of each public event type: battles,
    captures, trades... whatever the game reports) and, for a finished game whose spec
    has :attr:`~conquest_widget.core.registry.GameSpec.seat_stats`, ``seat_stats`` (the
    game's own figures per seat).
    """
    plan = config.plan(index)
    spec = registry.get(config.game)
    cls = spec.engine_class()
    bots_mod = spec.bots_module()
    setup = config.setup_for_deal(plan.deal)
    match = cls(setup, seed=derive_seed(config.seed, "chance", plan.deal) % 2**31)
    bots = {seat: bots_mod.BOTS[config.entrants[e].bot]() for seat, e in enumerate(plan.seats)}
    play_bots(match, bots, seed=derive_seed(config.seed, "bots", plan.deal), max_actions=config.max_actions)
    out = match.outcome()
    stats = Counter(t for t in (_event_type(e) for e in match.events_for(None)) if t is not None)
    extra = {} if spec.seat_stats is None or out is None else {"seat_stats": spec.load(spec.seat_stats)(match)}
    return {
        "index": plan.index, "table": plan.table, "deal": plan.deal, "rotation": plan.rotation,
        "seed": plan.seed,
        "seats": [config.entrants[e].name for e in plan.seats],
        "bots": [config.entrants[e].bot for e in plan.seats],
        "ranks": None if out is None else list(out.ranks),
        "reason": UNFINISHED if out is None else (out.reason or "over"),
        "actions": sum(1 for entry in match.log if entry["seat"] != CHANCE),
        "chance": sum(1 for entry in match.log if entry["seat"] == CHANCE),
        "details": {} if out is None else json.loads(json.dumps(dict(out.details), default=str)),
        "stats": dict(sorted(stats.items())),
        **extra,
    }


def play_batch(config: dict[str, Any] | TournamentConfig, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games ``indices`` of a configuration (a :class:`TournamentConfig` or its
    ``to_dict()``): the unit of work sent to an executor."""
    cfg = config if isinstance(config, TournamentConfig) else TournamentConfig.from_dict(config)
    return [play_game(cfg, i) for i in indices]


def ignore_sigint() -> None:
    """Process-pool initializer: Ctrl-C is handled by the parent, which keeps the games
    already finished; workers must not die with a traceback of their own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
