"""Chance as logged outcomes.

Every roll, shuffle and deal of a match goes through :class:`Chance`, which returns the
outcome *and* records it, so a log replays without asking any generator again; the seeded
generator only decides outcomes that are not yet in the log.  Draw ``i`` of a match with
seed ``s`` comes from ``random.Random(f"{s}:{i}")`` (string seeding is stable across
Python versions), so a match loaded from its log continues exactly as the original would.

    >>> c = Chance(seed=7)
    >>> first = c.roll(2)
    >>> c.entries[0]["kind"], c.entries[0]["outcome"] == list(first)
    ('roll', True)
    >>> replay = Chance(seed=999, forced=[e["outcome"] for e in c.entries])
    >>> replay.roll(2) == first    # the log decides, not the seed
    True
    >>> Chance(seed=1, forced=[[3, 4]]).roll(2)
    (3, 4)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ChanceError
from .protocol import CHANCE

DIE_FACES = 6


class Chance:
    """A match's source of randomness whose every outcome is recorded in ``entries``.

    ``forced`` outcomes (from a log being replayed, or scripted by a test or a lesson) are
    used first, in order; each is checked to be a possible outcome of the draw asked for.
    """

    def __init__(self, seed: int | None = None, forced: Iterable[Any] = (), log: list[dict[str, Any]] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise ChanceError(f"a seed must be an integer 0 <= seed < 2**63, got {seed!r}"[:200])
        self.seed = seed
        self.forced: deque[Any] = deque(forced)
        #: where outcomes are recorded: a match passes its own log, so chance entries
        #: sit between the actions that caused them
        self.entries: list[dict[str, Any]] = [] if log is None else log
        self.draws = 0

    # ------------------------------------------------------------ the draws
    def _rng(self) -> random.Random:
        return random.Random(f"{self.seed}:{self.draws}")

    def _record(self, kind: str, outcome: Any) -> Any:
        self.entries.append({"seat": CHANCE, "kind": kind, "outcome": outcome})
        self.draws += 1
        return outcome

    def roll(self, n: int, faces: int = DIE_FACES, kind: str = "roll") -> tuple[int, ...]:
        """``n`` dice of ``faces`` faces."""
        if self.forced:
            out = self.forced.popleft()
            if (not isinstance(out, (list, tuple)) or len(out) != n
                    or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= faces for v in out)):
                raise ChanceError(f"logged outcome {out!r} is not a roll of {n} dice of {faces} faces"[:200])
            values = [int(v) for v in out]
        else:
            rng = self._rng()
            values = [rng.randint(1, faces) for _ in range(n)]
        self._record(kind, values)
        return tuple(values)

    def shuffle(self, items: Sequence[Any], kind: str = "shuffle") -> list[Any]:
        """A permutation of ``items`` (recorded as the list of indices)."""
        n = len(items)
        if self.forced:
            perm = self.forced.popleft()
            if (not isinstance(perm, (list, tuple))
                    or sorted(p if isinstance(p, int) and not isinstance(p, bool) else -1 for p in perm) != list(range(n))):
                raise ChanceError(f"logged outcome is not a permutation of {n} items"[:200])
            perm = [int(p) for p in perm]
        else:
            perm = list(range(n))
            self._rng().shuffle(perm)
        self._record(kind, perm)
        return [items[i] for i in perm]

    def choice(self, n: int, kind: str = "choice") -> int:
        """An index ``0 <= i < n``."""
        if self.forced:
            i = self.forced.popleft()
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
                raise ChanceError(f"logged outcome {i!r} is not an index below {n}"[:200])
        else:
            i = self._rng().randrange(n)
        return self._record(kind, i)

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed}
