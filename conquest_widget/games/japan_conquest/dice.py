"""Dice sources: every random event of a game comes from one of these.

A dice source is injectable: the default is :class:`RandomDice` seeded from the
game setup; tests, teaching notebooks and replays use :class:`ScriptedDice`.

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
        self.values = [int(v) for v in values]
        bad = [v for v in self.values if not 1 <= v <= DIE_FACES]
        if bad:
            raise ValueError(f"scripted dice faces must be 1-{DIE_FACES}, got {bad}")
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
            elif self._fallback is not None:
                out.append(self._fallback.roll(1)[0])
            else:
                raise DiceExhaustedError(f"scripted dice ran out after {len(self.values)} faces")
            self.rolled += 1
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "scripted", "values": list(self.values), "then_seed": self.then_seed}

    def __repr__(self) -> str:
        return f"ScriptedDice({self.values!r}, then_seed={self.then_seed!r})"


def dice_from_dict(data: dict[str, Any]) -> DiceSource:
    """Re-create a dice source, at its start, from ``DiceSource.to_dict()``."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "random":
        return RandomDice(int(data["seed"]))
    if kind == "scripted":
        return ScriptedDice(data["values"], data.get("then_seed"))
    raise SerializationError(f"unknown dice source {data!r}: expected kind 'random' or 'scripted'")
