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

The same field check guards actions built in Python (:meth:`ActionCodec.check`, called by
``Match.apply``): a bool is not an int, a float is not an int, tuples are checked element by
element:

    >>> codec.check(Draw(True))
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SerializationError: demo: action 'draw' field 'count' must be int, got True

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
import math
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from ..errors import SerializationError

#: the pseudo-seat of chance (dice rolls, shuffles, deals) in logs
CHANCE = -1

#: JSON-able scalar types allowed in action fields
_SCALARS = (str, int, float, bool, type(None))
#: the longest text an action field may carry
MAX_TEXT = 200


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
    checking every field against its declared type (a save is hostile until validated),
    and checks actions built in Python the same way (:meth:`check`)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.classes: dict[str, type[Action]] = {}
        #: the declared type of every field, per kind (annotations resolved once)
        self.field_types: dict[str, dict[str, Any]] = {}

    def register(self, cls: A) -> A:
        if not cls.kind or cls.kind in self.classes:
            raise ValueError(f"action kind {cls.kind!r} of {cls.__name__} is empty or taken")
        hints = get_type_hints(cls)
        self.field_types[cls.kind] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
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
            raise SerializationError(f"{self.game}: action {data['type']!r} has unknown fields {sorted(map(str, extra))}"[:300])
        types_ = self.field_types[cls.kind]
        for name, f in names.items():
            if name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise SerializationError(f"{self.game}: action {data['type']!r} lacks field {name!r}")
                continue
            kwargs[name] = _check_field(self.game, cls.kind, name, data[name], types_[name])
        return cls(**kwargs)

    def check(self, action: Action) -> None:
        """Raise SerializationError naming the first field of ``action`` (an instance of one
        of this codec's classes) whose value is not of its declared type.  Stricter than
        :meth:`from_dict` where Python and JSON differ: a tuple field must hold a tuple
        (not a list), a dict field a dict."""
        kind = type(action).kind
        for name, typ in self.field_types[kind].items():
            _check_field(self.game, kind, name, getattr(action, name), typ, from_json=False)

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
        types_ = self.field_types[cls.kind]
        for f, raw in zip(fields, parts[1:], strict=False):  # fewer values: the defaults
            data[f.name] = _parse_value(raw, types_[f.name])
        return self.from_dict(data)


def _arms(typ: Any) -> tuple[Any, ...]:
    """The alternatives of a union type (``int | None`` -> ``(int, NoneType)``), or ``(typ,)``."""
    return get_args(typ) if get_origin(typ) in (Union, types.UnionType) else (typ,)


def _parse_value(raw: str, typ: Any) -> Any:
    arms = _arms(typ)
    for arm in arms:
        if get_origin(arm) is tuple:
            inner = get_args(arm)[0] if get_args(arm) else str
            return [_parse_value(x, inner) for x in raw.split(",") if x]
    if int in arms and raw.lstrip("-").isdigit():
        return int(raw)
    if bool in arms and raw in ("True", "False"):
        return raw == "True"
    if raw == "None" and type(None) in arms:
        return None
    return raw


def _type_name(typ: Any) -> str:
    """``int``, ``int | None``, ``tuple[int, ...]``: how a declared type reads in a message."""
    if isinstance(typ, type) and not get_args(typ):
        return "None" if typ is type(None) else typ.__name__
    return str(typ).replace("typing.", "").replace("NoneType", "None")


class _WrongType(Exception):
    """A value that does not fit a declared type (turned into a message by _check_field)."""


def _checked(v: Any, typ: Any, from_json: bool) -> Any:
    """``v`` if it is of type ``typ`` (lists become tuples when ``from_json``), else _WrongType.
    Types: bool, int, float, str (at most MAX_TEXT characters), None, unions of those,
    ``tuple[X, ...]``, fixed tuples, ``dict[K, V]`` and Any (a JSON scalar)."""
    origin = get_origin(typ)
    if origin in (Union, types.UnionType):
        for arm in get_args(typ):
            try:
                return _checked(v, arm, from_json)
            except _WrongType:
                continue
        raise _WrongType
    ok: bool
    if typ is Any:
        ok = isinstance(v, _SCALARS) and not (isinstance(v, str) and len(v) > MAX_TEXT) \
            and not (isinstance(v, float) and not math.isfinite(v))
    elif typ is None or typ is type(None):
        ok = v is None
    elif typ is bool:
        ok = isinstance(v, bool)
    elif typ is int:
        ok = isinstance(v, int) and not isinstance(v, bool)
    elif typ is float:
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    elif typ is str:
        ok = isinstance(v, str) and len(v) <= MAX_TEXT
    elif origin is tuple:
        if not isinstance(v, (list, tuple) if from_json else tuple):
            raise _WrongType
        args = get_args(typ)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_checked(x, args[0], from_json) for x in v)
        if len(v) != len(args):
            raise _WrongType
        return tuple(_checked(x, a, from_json) for x, a in zip(v, args, strict=True))
    elif origin in (dict, Mapping):
        if not isinstance(v, Mapping if from_json else dict):
            raise _WrongType
        kt, vt = get_args(typ) or (Any, Any)
        return {_checked(k, kt, from_json): _checked(x, vt, from_json) for k, x in v.items()}
    else:
        raise TypeError(f"action fields of type {_type_name(typ)} are not supported")
    if not ok:
        raise _WrongType
    return v


def _check_field(game: str, kind: str, name: str, v: Any, typ: Any, *, from_json: bool = True) -> Any:
    """``v`` checked against the declared type ``typ`` of field ``name`` (a resolved type, as
    :func:`typing.get_type_hints` gives it); SerializationError names the field, the type
    and the value.  ``from_json``: a list stands for a tuple (the JSON form)."""
    try:
        return _checked(v, typ, from_json)
    except (_WrongType, RecursionError):
        raise SerializationError(f"{game}: action {kind!r} field {name!r} must be {_type_name(typ)}, got {v!r}"[:300]) from None


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
