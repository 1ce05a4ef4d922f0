"""Mutable game state containers, their plain-data snapshots and cheap copies.

:meth:`GameState.copy` is the small state record that
:meth:`JapanMatch.snapshot() <conquest_widget.games.japan_conquest.match.JapanMatch.snapshot>`
keeps (the way python-chess keeps a stack of small board-state records instead of copies
of the whole game); :meth:`GameState.snapshot` is the plain-data form, equal for equal
states, and :meth:`GameState.from_snapshot` its inverse.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> st = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"])).state
    >>> c = st.copy(); c.owner[11] = 0; c.players[0].banked = 9
    >>> st.owner[11], st.players[0].banked           # the copy shares no mutable part
    (-1, 0)
    >>> GameState.from_snapshot(st.snapshot()).snapshot() == st.snapshot()
    True
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, fields
from typing import Any

from conquest_widget.errors import SerializationError
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

    def copy(self) -> PlayerState:
        """An independent copy (its lists are copied)."""
        return PlayerState(
            position=self.position, banked=self.banked, doubles=self.doubles, triples=self.triples,
            turns_done=self.turns_done, regions_ever=list(self.regions_ever), full_ever=list(self.full_ever),
            defeated=self.defeated,
        )


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

    def copy(self) -> BattleState:
        """An independent copy."""
        return BattleState(
            pref=self.pref, attacker=self.attacker, defender=self.defender, bonus=self.bonus,
            bonus_parts=dict(self.bonus_parts), attack_dice=self.attack_dice,
            attack_roll=None if self.attack_roll is None else list(self.attack_roll),
        )


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

    def copy(self) -> GameState:
        """An independent copy, field by field (several times faster than ``copy.deepcopy``)."""
        return GameState(
            owner=list(self.owner), level=list(self.level), stored=list(self.stored),
            players=[p.copy() for p in self.players], order=list(self.order), turn_index=self.turn_index,
            phase=self.phase, allowance=self.allowance, roll=list(self.roll), route=list(self.route),
            battle=None if self.battle is None else self.battle.copy(),
            region_controller=dict(self.region_controller), region_full=dict(self.region_full),
            end_reason=self.end_reason, defeated=self.defeated,
        )

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> GameState:
        """The state described by :meth:`snapshot` data (its inverse).  Raises
        :class:`SerializationError` naming what is missing or malformed; it checks the
        shape of the data, not that the position could arise in a game."""
        try:
            prefs = data["prefectures"]
            if [p["code"] for p in prefs] != list(range(1, 48)):
                raise SerializationError("snapshot prefectures must be the 47 codes 1-47 in order")
            owner, level, stored = [NOBODY] * 48, [0] * 48, [0] * 48
            for p in prefs:
                c = p["code"]
                owner[c] = NOBODY if p["owner"] is None else int(p["owner"])
                level[c], stored[c] = int(p["level"]), int(p["stored"])
            players = []
            for p in data["players"]:
                extra = set(p) - {f.name for f in fields(PlayerState)}
                if extra:
                    raise SerializationError(f"unknown player fields in the snapshot: {sorted(extra)}")
                players.append(PlayerState(**{**p, "regions_ever": list(p["regions_ever"]), "full_ever": list(p["full_ever"])}))
            b = data["battle"]
            battle = None if b is None else BattleState(**{
                **b, "bonus_parts": dict(b["bonus_parts"]),
                "attack_roll": None if b.get("attack_roll") is None else list(b["attack_roll"]),
            })
            return cls(
                owner=owner, level=level, stored=stored, players=players, order=list(data["order"]),
                turn_index=int(data["turn_index"]), phase=str(data["phase"]), allowance=int(data["allowance"]),
                roll=list(data["roll"]), route=list(data["route"]), battle=battle,
                region_controller={k: NOBODY if v is None else int(v) for k, v in data["region_controller"].items()},
                region_full=dict(data["region_full"]), end_reason=data["end_reason"], defeated=data["defeated"],
            )
        except SerializationError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SerializationError(f"malformed state snapshot: missing or bad {exc!r}") from None

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


def copy_dice(dice: Any) -> Any:
    """An independent copy of a dice source at its current position: ``copy.deepcopy``,
    except that every :class:`random.Random` inside it is copied whole (its state is one
    immutable tuple) instead of element by element -- 40 times faster for
    :class:`~conquest_widget.games.japan_conquest.dice.RandomDice`.

    >>> from conquest_widget.games.japan_conquest.dice import RandomDice
    >>> d = RandomDice(5); _ = d.roll(3); c = copy_dice(d)
    >>> c.roll(4) == d.roll(4), c is not d
    (True, True)
    """
    memo: dict[int, Any] = {}
    seen: set[int] = set()

    def find(obj: Any, depth: int) -> None:
        if id(obj) in seen or depth > 4:
            return
        seen.add(id(obj))
        if type(obj) is random.Random:
            twin = random.Random(0)  # (seeding with a constant is cheaper than from the system's entropy)
            twin.setstate(obj.getstate())
            memo[id(obj)] = twin
            return
        for v in getattr(obj, "__dict__", {}).values():
            if not isinstance(v, (int, float, str, bytes, bool, type(None))):
                find(v, depth + 1)

    find(dice, 0)
    return copy.deepcopy(dice, memo)
