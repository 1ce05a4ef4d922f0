"""Dice sources: scripts of die faces for a match, and the dice of old documents.

A match rolls through its logged chance (``JapanMatch.chance``); a dice source given as
``JapanMatch(setup, dice=...)`` decides the faces instead (tests and teaching notebooks use
:class:`ScriptedDice`), and each face is logged as a chance outcome all the same.  The
older engine's documents (format 1, :mod:`.legacy`) name the dice source they were played
with (:func:`dice_from_dict`: :class:`RandomDice` of a seed, or a script); reading one
replays its actions with that source.

    >>> d = ScriptedDice([6, 1, 3])
    >>> d.roll(2), d.roll(1)
    ((6, 1), (3,))
    >>> RandomDice(7).roll(3) == RandomDice(7).roll(3)
    True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from conquest_widget.errors import ConquestError, SerializationError
from conquest_widget.games.japan_conquest.rules import DIE_FACES


class DiceExhaustedError(ConquestError, LookupError):
    """A scripted dice source has no values left."""


@runtime_checkable
class DiceSource(Protocol):
    """Anything that rolls dice.  ``to_dict()`` must describe the source *as created*
    (not its current position), so a game can be replayed from the start."""

    def roll(self, n: int) -> tuple[int, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...


class RandomDice:
    """Fair six-sided dice from a seeded :class:`random.Random`."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._rng = random.Random(self.seed)
        self.rolled = 0

    def roll(self, n: int) -> tuple[int, ...]:
        self.rolled += n
        return tuple(self._rng.randint(1, DIE_FACES) for _ in range(n))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "random", "seed": self.seed}

    def __repr__(self) -> str:
        return f"RandomDice(seed={self.seed})"


class ScriptedDice:
    """Dice that return a fixed sequence of faces, for tests, lessons and replays.

    When the script runs out, :class:`DiceExhaustedError` is raised, or, if
    ``then_seed`` is given, rolling continues with ``RandomDice(then_seed)``.
    """

    def __init__(self, values: Iterable[int], then_seed: int | None = None) -> None:
        self.values = list(values)
        bad = [v for v in self.values if not _is_face(v)]
        if bad:
            raise ValueError(f"scripted dice faces must be integers 1-{DIE_FACES}, got {bad[:5]!r}"[:200])
        if then_seed is not None and not _is_seed(then_seed):
            raise ValueError(f"then_seed must be an integer 0 <= seed < 2**63 or None, got {then_seed!r}"[:200])
        self.then_seed = then_seed
        self._fallback = RandomDice(then_seed) if then_seed is not None else None
        self.rolled = 0

    @property
    def remaining(self) -> int:
        """How many scripted faces are left."""
        return max(0, len(self.values) - self.rolled)

    def roll(self, n: int) -> tuple[int, ...]:
        if self._fallback is None and self.rolled + n > len(self.values):
            raise DiceExhaustedError(
                f"scripted dice ran out: {n} dice asked, {self.remaining} of {len(self.values)} faces left"
            )
        out = []
        for _ in range(n):
            if self.rolled < len(self.values):
                out.append(self.values[self.rolled])
            else:  # the check above guarantees a fallback here
                out.append(self._fallback.roll(1)[0])  # type: ignore[union-attr]
            self.rolled += 1
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "scripted", "values": list(self.values), "then_seed": self.then_seed}

    def __repr__(self) -> str:
        return f"ScriptedDice({self.values!r}, then_seed={self.then_seed!r})"


def _is_face(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= DIE_FACES


def _is_seed(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**63


def dice_from_dict(data: dict[str, Any]) -> DiceSource:
    """Re-create a dice source, at its start, from ``DiceSource.to_dict()``; every value is
    checked (an integer seed, integer faces 1-6).

    >>> dice_from_dict({"kind": "random", "seed": float("inf")})
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SerializationError: bad dice seed inf: expected an integer 0 <= seed < 2**63
    """
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "random":
        if not _is_seed(data.get("seed")):
            raise SerializationError(f"bad dice seed {data.get('seed')!r}: expected an integer 0 <= seed < 2**63"[:200])
        return RandomDice(data["seed"])
    if kind == "scripted":
        values = data.get("values")
        if not isinstance(values, list) or len(values) > 1_000_000:
            raise SerializationError("scripted dice values must be a list")
        try:
            return ScriptedDice(values, data.get("then_seed"))
        except ValueError as exc:
            raise SerializationError(str(exc)) from None
    raise SerializationError(f"unknown dice source {data!r}: expected kind 'random' or 'scripted'")
