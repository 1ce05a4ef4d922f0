"""Japan Conquest's CPU players as protocol bots: they get a seat's view, never the match.

A :class:`JapanCpuBot` rebuilds the position from ``view["position"]`` (the public board;
during the Final Showdown banked points and stored prosperity are not in it, so the CPU
plays without them, as a human must) and asks the Japan CPU (:mod:`.cpu`) for its choice,
with its random stream seeded from the ``rng`` it is given.

    >>> import random
    >>> from conquest_widget.games.japan_conquest import GameSetup
    >>> from conquest_widget.games.japan_conquest.match import JapanMatch
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> bot = BOTS["normal"]()
    >>> bot.choose(m.view(0), m.legal_actions(0), random.Random(0)) in m.legal_actions(0)
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from conquest_widget.core.bots import Bot, RandomBot
from conquest_widget.core.protocol import Action
from conquest_widget.games.japan_conquest.cpu import CpuPlayer
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.movement import NOBODY
from conquest_widget.games.japan_conquest.rules import DIFFICULTIES, STRATEGIES
from conquest_widget.games.japan_conquest.setup import GameSetup
from conquest_widget.games.japan_conquest.state import (
    BattleState,
    GameState,
    PlayerState,
)


def game_from_view(view: Mapping[str, Any], seed: int, *, profile: tuple[int, str, str] | None = None) -> JapanMatch:
    """A :class:`~.match.JapanMatch` at the position of ``view``, with no history
    (:meth:`~.match.JapanMatch.at_position`; for CPUs and analysis: a CPU never rolls); its
    setup seed is ``seed`` (the view carries none).  ``profile`` (seat, difficulty,
    strategy) sets the CPU profile of that seat in the setup (the CPU that chooses)."""
    pos = view["position"]
    setup = GameSetup.from_dict(dict(pos["setup"], seed=seed))
    if profile is not None:
        seat, difficulty, strategy = profile
        players = list(setup.players)
        players[seat] = replace(players[seat], difficulty=difficulty, strategy=strategy)
        setup = replace(setup, players=tuple(players))
    snap = pos["state"]
    owner = [NOBODY] * 48
    level = [0] * 48
    stored = [0] * 48
    for cell in snap["prefectures"]:
        c = cell["code"]
        owner[c] = NOBODY if cell["owner"] is None else cell["owner"]
        level[c], stored[c] = cell["level"], cell["stored"]
    battle = None if snap["battle"] is None else BattleState(**snap["battle"])
    state = GameState(
        owner=owner, level=level, stored=stored,
        players=[PlayerState(**p) for p in snap["players"]],
        order=list(snap["order"]), turn_index=snap["turn_index"], phase=snap["phase"],
        allowance=snap["allowance"], roll=list(snap["roll"]), route=list(snap["route"]), battle=battle,
        region_controller={k: NOBODY if v is None else v for k, v in snap["region_controller"].items()},
        region_full=dict(snap["region_full"]), end_reason=snap["end_reason"], defeated=snap["defeated"],
    )
    return JapanMatch.at_position(setup, state, actions=pos["actions"])


class JapanCpuBot:
    """One of the Japan CPUs (difficulty x strategy) choosing from a view."""

    def __init__(self, difficulty: str = "normal", strategy: str = "balanced") -> None:
        self.difficulty, self.strategy = difficulty, strategy
        self.label = f"{difficulty}:{strategy}"
        # one decision maker per seat, kept between decisions: it follows the route it
        # planned at the route's start and reuses its route search while the position holds
        self._players: dict[int, CpuPlayer] = {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        seat = view["viewer"]
        game = game_from_view(view, rng.randrange(2**31), profile=(seat, self.difficulty, self.strategy))
        player = self._players.get(seat)
        if player is None:
            player = self._players[seat] = CpuPlayer(seat, self.difficulty, self.strategy)
        return player.choose(game)


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot}
for _d in DIFFICULTIES:
    BOTS[_d] = partial(JapanCpuBot, _d, "balanced")
    for _s in STRATEGIES:
        BOTS[f"{_d}:{_s}"] = partial(JapanCpuBot, _d, _s)
DEFAULT_BOT = "normal"
