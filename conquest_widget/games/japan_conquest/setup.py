"""Game setup: who plays, from where, in which mode.

    >>> s = GameSetup.quick(["Tokyo", "Osaka"], seed=3)
    >>> [p.name for p in s.players], s.mode, s.turns
    (['Player 1', 'Player 2'], 'standard', 10)
    >>> GameSetup.quick(["Tokyo", "Kanagawa"])
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SetupError: home prefectures Tokyo and Kanagawa are adjacent: homes must not be neighbours

A setup read from data (:meth:`GameSetup.from_dict`, a save) is refused, not coerced, when a
value has the wrong type (homes are codes there, not names) or a key is unknown:

    >>> data = s.to_dict(); data["players"][0]["cpu"] = "false"
    >>> GameSetup.from_dict(data)
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SetupError: player 1: cpu must be true or false, got 'false'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from conquest_widget.core.safe_text import check_colour, check_name
from conquest_widget.errors import SetupError, UnknownPrefectureError
from conquest_widget.games.japan_conquest.rules import (
    DIFFICULTIES,
    MODES,
    STANDARD_TURNS,
    STRATEGIES,
)
from conquest_widget.maps.japan.board import japan

DEFAULT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
#: the keys of a player in :meth:`GameSetup.to_dict` (``name`` and ``home`` are required)
PLAYER_KEYS = ("name", "home", "colour", "cpu", "difficulty", "strategy")
#: the keys of :meth:`GameSetup.to_dict` (``players`` is required)
SETUP_KEYS = ("players", "mode", "turns", "roll_for_order", "seed")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class PlayerSetup:
    """One seat.  CPU difficulty and strategy are kept even while ``cpu`` is False."""

    name: str
    home: int
    colour: str = "#d62728"
    cpu: bool = False
    difficulty: str = "normal"
    strategy: str = "balanced"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any, seat: int = 0) -> PlayerSetup:
        """The player of seat ``seat`` (0-based, for messages) from :meth:`to_dict` data:
        ``name`` and ``home`` (a prefecture code 1-47, not a name) are required, unknown
        keys are refused.  The values are checked by :class:`GameSetup`."""
        where = f"player {seat + 1}"
        if not isinstance(data, Mapping):
            raise SetupError(f"{where} must be an object, got {type(data).__name__}")
        extra = set(data) - set(PLAYER_KEYS)
        if extra:
            raise SetupError(f"{where} has unknown keys {sorted(map(str, extra))}"[:200])
        missing = [k for k in ("name", "home") if k not in data]
        if missing:
            raise SetupError(f"{where} lacks {' and '.join(missing)}")
        if not _is_int(data["home"]):
            raise SetupError(f"{where}: home must be a prefecture code 1-47, got {data['home']!r}"[:200])
        return cls(**{k: data[k] for k in PLAYER_KEYS if k in data})


@dataclass(frozen=True)
class GameSetup:
    """A validated game setup.  Construction raises :class:`SetupError` when invalid."""

    players: tuple[PlayerSetup, ...]
    mode: str = "standard"
    turns: int | None = 10
    roll_for_order: bool = False
    seed: int | None = None

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        if not 2 <= len(players) <= 4:
            raise SetupError(f"Japan Conquest needs 2-4 players, got {len(players)}")
        board = japan()
        homes = []
        fixed = []
        for i, p in enumerate(players):
            if not isinstance(p, PlayerSetup):
                raise SetupError(f"player {i + 1} must be a PlayerSetup, got {type(p).__name__}")
            try:
                name = check_name(p.name)
                colour = check_colour(p.colour)
            except ValueError as exc:
                raise SetupError(f"player {i + 1}: {exc}") from None
            try:
                code = board.code(p.home)
            except UnknownPrefectureError as exc:
                raise SetupError(f"player {i + 1} ({name}): {exc}") from None
            if p.difficulty not in DIFFICULTIES:
                raise SetupError(f"player {i + 1}: CPU difficulty must be one of {DIFFICULTIES}, got {p.difficulty!r}")
            if p.strategy not in STRATEGIES:
                raise SetupError(f"player {i + 1}: CPU strategy must be one of {STRATEGIES}, got {p.strategy!r}")
            if not isinstance(p.cpu, bool):
                raise SetupError(f"player {i + 1}: cpu must be true or false, got {p.cpu!r}"[:200])
            fixed.append(replace(p, home=code, name=name, colour=colour))
            homes.append(code)
        object.__setattr__(self, "players", tuple(fixed))
        names = [p.name for p in fixed]
        if len(set(names)) != len(names):
            raise SetupError(f"player names must differ, got {names}")
        for i, a in enumerate(homes):
            for b in homes[i + 1 :]:
                pa, pb = board.prefecture(a).name_en, board.prefecture(b).name_en
                if a == b:
                    raise SetupError(f"two players share the home prefecture {pa}: homes must be distinct")
                if b in board.adjacency[a]:
                    raise SetupError(f"home prefectures {pa} and {pb} are adjacent: homes must not be neighbours")
        if not isinstance(self.mode, str) or self.mode not in MODES:
            raise SetupError(f"mode must be one of {MODES}, got {self.mode!r}"[:200])
        if self.mode == "standard":
            if not _is_int(self.turns) or self.turns not in STANDARD_TURNS:
                raise SetupError(f"a standard game lasts one of {STANDARD_TURNS} turns, got {self.turns!r}")
        else:
            object.__setattr__(self, "turns", None)
        if not isinstance(self.roll_for_order, bool):
            raise SetupError(f"roll_for_order must be true or false, got {self.roll_for_order!r}"[:200])
        if self.seed is not None and (not isinstance(self.seed, int) or isinstance(self.seed, bool)
                                      or not 0 <= self.seed < 2**63):
            raise SetupError(f"seed must be an integer 0 <= seed < 2**63 or None, got {self.seed!r}"[:200])

    @classmethod
    def quick(
        cls,
        homes: Sequence[int | str],
        *,
        cpu: Sequence[bool] | None = None,
        mode: str = "standard",
        turns: int | None = 10,
        roll_for_order: bool = False,
        seed: int | None = None,
    ) -> GameSetup:
        """A setup with default names and colours for the given home prefectures."""
        cpu = list(cpu) if cpu is not None else [False] * len(homes)
        players = tuple(
            PlayerSetup(name=f"Player {i + 1}", home=h,  # type: ignore[arg-type]  # a name: GameSetup resolves it
                        colour=DEFAULT_COLOURS[i % 4], cpu=c)
            for i, (h, c) in enumerate(zip(homes, cpu, strict=False))
        )
        if len(cpu) != len(homes):
            raise SetupError(f"{len(homes)} homes but {len(cpu)} cpu flags")
        return cls(players=players, mode=mode, turns=turns, roll_for_order=roll_for_order, seed=seed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [p.to_dict() for p in self.players],
            "mode": self.mode,
            "turns": self.turns,
            "roll_for_order": self.roll_for_order,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameSetup:
        """Validate a setup read from data (a save, a form): hostile until checked.  Nothing
        is coerced: a wrong type (``cpu: "false"``, ``home: "13"`` or ``"Tokyo"``, ``turns:
        10.0``) or an unknown key raises :class:`SetupError` naming it.  A conquest mode's
        ``turns`` must be null (or absent)."""
        if not isinstance(data, Mapping):
            raise SetupError(f"a setup must be an object, got {type(data).__name__}")
        extra = set(data) - set(SETUP_KEYS)
        if extra:
            raise SetupError(f"the setup has unknown keys {sorted(map(str, extra))}"[:200])
        raw = data.get("players")
        if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
            raise SetupError("players must be a list of 2-4 entries")
        mode = data.get("mode", "standard")
        turns = data.get("turns")
        if mode != "standard" and turns is not None:
            raise SetupError(f"a {mode} game has no turn limit: turns must be null, got {turns!r}"[:200])
        try:
            return cls(
                players=tuple(PlayerSetup.from_dict(p, i) for i, p in enumerate(raw)),
                mode=mode,
                turns=turns,
                roll_for_order=data.get("roll_for_order", False),
                seed=data.get("seed"),
            )
        except (TypeError, AttributeError, ValueError) as exc:
            if isinstance(exc, SetupError):
                raise
            raise SetupError(f"malformed setup data: {exc!r}"[:200]) from exc


def random_homes(n: int, rng: random.Random) -> list[int]:
    """``n`` distinct, pairwise non-adjacent home prefectures drawn from ``rng`` (what a
    random setup and the CPU-only games use).

    >>> homes = random_homes(4, random.Random(1))
    >>> len(set(homes)), all(b not in japan().adjacency[a] for a in homes for b in homes)
    (4, True)
    """
    board = japan()
    while True:
        homes = rng.sample(list(board.codes), n)
        if all(b not in board.adjacency[a] for i, a in enumerate(homes) for b in homes[i + 1:]):
            return homes


#: the homes of the demo's four CPUs: Tokyo, Osaka, Hokkaido, Fukuoka (far apart)
DEMO_HOMES = (13, 27, 1, 40)


def demo_setup(turns: int = 10) -> GameSetup:
    """The "Watch CPUs" demo: four CPUs, each of another strategy, a standard game.

    >>> [(p.name, p.cpu, p.strategy) for p in demo_setup(5).players][:2], demo_setup(5).turns
    ([('Aoi', True, 'balanced'), ('Ren', True, 'aggressive')], 5)
    """
    strategies = list(STRATEGIES)
    players = tuple(
        PlayerSetup(name=name, home=home, colour=DEFAULT_COLOURS[i], cpu=True, strategy=strategies[i % len(strategies)])
        for i, (name, home) in enumerate(zip(("Aoi", "Ren", "Sora", "Kai"), DEMO_HOMES, strict=True))
    )
    return GameSetup(players=players, turns=turns)
