"""Mutable game state containers and their plain-data snapshots."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from conquest_widget.games.japan_conquest.movement import NOBODY


@dataclass
class PlayerState:
    """What a player has: position, banked points, dice items, turns completed."""

    position: int
    banked: int = 0
    doubles: int = 1
    triples: int = 1
    turns_done: int = 0
    regions_ever: list[str] = field(default_factory=list)  # regions ever controlled (Double Dice given)
    full_ever: list[str] = field(default_factory=list)  # regions ever fully controlled (Triple Dice given)
    defeated: bool = False

    def items(self, dice: int) -> int:
        """How many items allow rolling ``dice`` dice (one die is always available)."""
        return {1: 1, 2: self.doubles, 3: self.triples}[dice]


@dataclass
class BattleState:
    """A battle in progress."""

    pref: int
    attacker: int
    defender: int
    bonus: int
    bonus_parts: dict[str, int]
    attack_dice: int | None = None
    attack_roll: list[int] | None = None


@dataclass
class GameState:
    """Everything that changes during a game (the description lives in GameSetup)."""

    owner: list[int]  # index = JIS code; NOBODY for neutral; index 0 unused
    level: list[int]
    stored: list[int]
    players: list[PlayerState]
    order: list[int]  # seats in turn order
    turn_index: int = 0  # index into order of the player whose turn it is
    phase: str = "roll"  # roll | route | battle_attack | battle_defend | over
    allowance: int = 0
    roll: list[int] = field(default_factory=list)
    route: list[int] = field(default_factory=list)
    battle: BattleState | None = None
    region_controller: dict[str, int] = field(default_factory=dict)
    region_full: dict[str, bool] = field(default_factory=dict)
    end_reason: str | None = None
    defeated: int | None = None

    @property
    def current(self) -> int:
        """Seat of the player whose turn it is."""
        return self.order[self.turn_index]

    def snapshot(self) -> dict[str, Any]:
        """Plain JSON-compatible data equal for equal states."""
        b = self.battle
        return {
            "prefectures": [
                {"code": c, "owner": None if self.owner[c] == NOBODY else self.owner[c], "level": self.level[c], "stored": self.stored[c]}
                for c in range(1, 48)
            ],
            "players": [copy.deepcopy(p.__dict__) for p in self.players],
            "order": list(self.order),
            "turn_index": self.turn_index,
            "phase": self.phase,
            "allowance": self.allowance,
            "roll": list(self.roll),
            "route": list(self.route),
            "battle": None if b is None else copy.deepcopy(b.__dict__),
            "region_controller": {k: (None if v == NOBODY else v) for k, v in self.region_controller.items()},
            "region_full": dict(self.region_full),
            "end_reason": self.end_reason,
            "defeated": self.defeated,
        }
