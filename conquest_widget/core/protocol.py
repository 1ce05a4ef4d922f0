"""Small values shared by every game: actions, events, outcomes.

Actions are frozen dataclasses with a ``kind`` and their own dict round trip; each game
registers its action classes in an :class:`ActionCodec`.

    >>> from dataclasses import dataclass
    >>> codec = ActionCodec("demo")
    >>> @codec.register
    ... @dataclass(frozen=True)
    ... class Draw(Action):
    ...     kind = "draw"
    ...     count: int = 1
    >>> Draw(2).to_dict(), codec.from_dict({"type": "draw", "count": 2})
    ({'type': 'draw', 'count': 2}, Draw(count=2))
    >>> str(Draw(2))
    'draw 2'

Events say who may see them; the others get the public form (or nothing):

    >>> e = Event({"type": "draw", "seat": 0, "card": "7S"}, visible_to=(0,), public={"type": "draw", "seat": 0})
    >>> e.for_seat(0)["card"], e.for_seat(1), e.for_seat(None)
    ('7S', {'type': 'draw', 'seat': 0}, {'type': 'draw', 'seat': 0})

Outcomes rank the seats, ties allowed (1 = best):

    >>> Outcome(ranks=(1, 2, 1), reason="most points").winners
    (0, 2)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from ..errors import SerializationError

#: the pseudo-seat of chance (dice rolls, shuffles, deals) in logs
CHANCE = -1

#: JSON-able scalar types allowed in action fields
_SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class Action:
    """Base class of every game's actions: a frozen value with a text form and a dict
    round trip.  Fields must be JSON-able (str, int, bool, None, tuples of those)."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            d[f.name] = list(v) if isinstance(v, tuple) else v
        return d

    def __str__(self) -> str:
        vals = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            vals.append(",".join(map(str, v)) if isinstance(v, tuple) else str(v))
        return " ".join([self.kind, *vals]).strip()


A = TypeVar("A", bound=type[Action])


class ActionCodec:
    """The action classes of one game, by ``kind``: turns dicts back into actions,
    checking every field's type (a save is hostile until validated)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.classes: dict[str, type[Action]] = {}

    def register(self, cls: A) -> A:
        if not cls.kind or cls.kind in self.classes:
            raise ValueError(f"action kind {cls.kind!r} of {cls.__name__} is empty or taken")
        self.classes[cls.kind] = cls
        return cls

    def from_dict(self, data: Any) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise SerializationError(f"{self.game}: not an action: {data!r}"[:300])
        cls = self.classes.get(data["type"])
        if cls is None:
            raise SerializationError(f"{self.game}: unknown action type {data['type']!r}"[:300])
        kwargs: dict[str, Any] = {}
        names = {f.name: f for f in dataclasses.fields(cls)}
        extra = set(data) - set(names) - {"type"}
        if extra:
            raise SerializationError(f"{self.game}: action {data['type']!r} has unknown fields {sorted(extra)}")
        for name, f in names.items():
            if name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise SerializationError(f"{self.game}: action {data['type']!r} lacks field {name!r}")
                continue
            v = data[name]
            kwargs[name] = _check_field(self.game, data["type"], name, v, f.type)
        return cls(**kwargs)

    def parse(self, text: str) -> Action:
        """Parse the text form ``"kind v1 v2"`` (integers and words; tuples as ``1,2,3``)."""
        parts = text.split()
        if not parts or parts[0] not in self.classes:
            raise SerializationError(f"{self.game}: cannot parse action {text!r}")
        cls = self.classes[parts[0]]
        fields = dataclasses.fields(cls)
        if len(parts) - 1 > len(fields):
            raise SerializationError(f"{self.game}: too many values in {text!r}")
        data: dict[str, Any] = {"type": parts[0]}
        for f, raw in zip(fields, parts[1:]):
            data[f.name] = _parse_value(raw, f.type)
        return self.from_dict(data)


def _parse_value(raw: str, typ: Any) -> Any:
    t = str(typ)
    if t.startswith("tuple"):
        return [_parse_value(x, t[6:-1].split(",")[0]) for x in raw.split(",") if x]
    if "int" in t and raw.lstrip("-").isdigit():
        return int(raw)
    if t == "bool":
        return raw == "True"
    if raw == "None":
        return None
    return raw


def _check_field(game: str, kind: str, name: str, v: Any, typ: Any) -> Any:
    t = str(typ).replace(" ", "")
    where = f"{game}: action {kind!r} field {name!r}"
    if t.startswith("tuple"):
        if not isinstance(v, (list, tuple)):
            raise SerializationError(f"{where} must be a list, got {v!r}"[:300])
        inner = t[6:-1].split(",")[0]
        return tuple(_check_field(game, kind, name, x, inner) for x in v)
    ok: bool
    if t in ("int", "int|None"):
        ok = (isinstance(v, int) and not isinstance(v, bool)) or (v is None and "None" in t)
    elif t in ("str", "str|None"):
        ok = isinstance(v, str) or (v is None and "None" in t)
        if ok and isinstance(v, str) and len(v) > 200:
            ok = False
    elif t == "bool":
        ok = isinstance(v, bool)
    else:
        ok = isinstance(v, _SCALARS)
    if not ok:
        raise SerializationError(f"{where} has the wrong type: {v!r}"[:300])
    return v


@dataclass(frozen=True)
class Event:
    """Something that happened.  ``data`` is what the seats in ``visible_to`` see
    (``None`` = everyone); every other seat (and the public) sees ``public`` instead,
    or nothing when ``public`` is None."""

    data: Mapping[str, Any]
    visible_to: tuple[int, ...] | None = None
    public: Mapping[str, Any] | None = None

    def for_seat(self, seat: int | None) -> dict[str, Any] | None:
        if self.visible_to is None or (seat is not None and seat in self.visible_to):
            return dict(self.data)
        return None if self.public is None else dict(self.public)


@dataclass(frozen=True)
class Outcome:
    """How a finished match ranks its seats: ``ranks[seat]`` is 1 for the best, equal
    ranks are ties.  ``reason`` says how the game ended; ``details`` carries the
    game's own figures (scores, tie-break steps) as JSON-able data."""

    ranks: tuple[int, ...]
    reason: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)

    def to_dict(self) -> dict[str, Any]:
        return {"ranks": list(self.ranks), "reason": self.reason, "details": dict(self.details)}

    @staticmethod
    def from_scores(scores: list[Any], reason: str = "", **details: Any) -> Outcome:
        """Ranks from comparable scores (higher is better; equal scores tie)."""
        ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
        return Outcome(ranks=ranks, reason=reason, details=details)
