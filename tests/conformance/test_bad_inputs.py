"""Badly typed input is refused the same way by every registered game (issue 31, items 6
and 8): an action field of the wrong type (a bool or a float for an int, a string for an
int, None where the field is not optional, a tuple or list for a scalar, a list for a
tuple, ...) gets IllegalActionError from ``apply`` and SerializationError from the codec,
and changes nothing; a seat that is not one of the match's seats gets NoSuchSeatError from
``view``, ``legal_actions`` and ``events_for`` (``view(-1)`` must not be the last seat's
private view).

The bad values are put into actions that are *legal* where random play reaches one of
their class, so the field's type is the only thing wrong with them (``col=True`` equals
``col=1``: it must still be refused).
"""

from __future__ import annotations

import dataclasses
import json
import random
import types
import typing
from typing import Any

import pytest

from conquest_widget.core import registry
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import Action
from conquest_widget.errors import (
    IllegalActionError,
    NoSuchSeatError,
    SerializationError,
)

GAMES = [g for g in registry.all_games() if g.engine is not None]

#: stand-ins for values that are not seats
BAD_SEATS = ("n_seats", -1, "0", True, False, 1.0, 0.0, [0], (0,))


@pytest.fixture(params=GAMES, ids=lambda g: g.id)
def spec(request):
    return request.param


def _arms(typ: Any) -> tuple[Any, ...]:
    return typing.get_args(typ) if typing.get_origin(typ) in (typing.Union, types.UnionType) else (typ,)


def _field_types(cls: type[Action]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _typical(typ: Any) -> Any:
    """A well-typed value of ``typ`` (for actions that random play never makes legal)."""
    arm = next(a for a in _arms(typ) if a is not type(None))
    origin = typing.get_origin(arm)
    return {int: 1, str: "x", bool: False}.get(arm) if origin is None else {tuple: (), dict: {}}[origin]


def _bad_values(typ: Any, good: Any) -> list[tuple[Any, bool]]:
    """Badly typed values for a field of type ``typ`` holding ``good``, each with whether it
    is also bad in the JSON form (a list stands for a tuple there)."""
    arms = _arms(typ)
    out: list[tuple[Any, bool]] = []
    if type(None) not in arms:
        out.append((None, True))
    if int in arms:
        n = good if isinstance(good, int) and not isinstance(good, bool) else 1
        out += [(True, True), (False, True), (float(n), True), (str(n), True), ((n,), True), ([n], True)]
    if str in arms:
        text = good if isinstance(good, str) else "x"
        out += [(1, True), (True, True), (1.5, True), ((text,), True), ([text], True)]
    if bool in arms:
        out += [(1, True), (0, True), ("true", True), (1.0, True), ((good,), True)]
    for arm in arms:
        if typing.get_origin(arm) is tuple:
            out += [(list(good), False), (1, True), ("1,2", True), ((True,), True), (("1",), True), ((1.5,), True),
                    ((None,), True)]
        if typing.get_origin(arm) is dict:
            out += [("x", True), ([], True), (1, True), ({"a": [1]}, True), ({"a": {"b": 1}}, True), ({1: 1}, True)]
    return out


def _json(value: Any) -> Any:
    return [_json(v) for v in value] if isinstance(value, (tuple, list)) else value


def _samples(spec) -> dict[type[Action], tuple[dict[str, Any], int, Action]]:
    """For each action class with fields: a match document, a seat and an action of that
    class that is legal there (random play), or a well-typed one at the start."""
    cls = spec.engine_class()
    wanted = {c for c in cls.codec.classes.values() if dataclasses.fields(c)}
    found: dict[type[Action], tuple[dict[str, Any], int, Action]] = {}
    rng = random.Random(31)
    for _ in range(6):
        m = cls(cls.random_setup(rng, rng.choice(list(spec.players))), seed=rng.randrange(2**31))
        for _step in range(300):
            if m.outcome() is not None:
                break
            seat = rng.choice(m.to_act())
            legal = m.legal_actions(seat)
            for a in legal:
                if type(a) in wanted and type(a) not in found:
                    found[type(a)] = (m.to_dict(), seat, a)
            m.apply(rng.choice(legal), seat)
        if wanted <= set(found):
            break
    start = cls(cls.random_setup(rng, min(spec.players)), seed=1)
    for c in wanted - set(found):
        kwargs = {f.name: _typical(t) for f, t in zip(dataclasses.fields(c), _field_types(c).values(), strict=True)
                  if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        found[c] = (start.to_dict(), start.to_act()[0], c(**kwargs))
    return found


def _frozen(m: Match) -> tuple[Any, ...]:
    return (json.dumps(m.to_dict(), sort_keys=True), len(m.events), m.chance.draws,
            [json.dumps(m.view(s), sort_keys=True) for s in (None, *range(m.n_seats))],
            [json.dumps(m.events_for(s), sort_keys=True) for s in (None, *range(m.n_seats))])


def test_every_badly_typed_action_field_is_refused_by_apply_and_by_the_codec(spec) -> None:
    cls = spec.engine_class()
    checked = 0
    samples = _samples(spec)
    fields = sum(len(_field_types(c)) for c in samples)
    for action_cls, (doc, seat, good) in samples.items():
        m = cls.from_dict(doc)
        assert cls.codec.from_dict(good.to_dict()) == good
        for name, typ in _field_types(action_cls).items():
            for bad, bad_in_json in _bad_values(typ, getattr(good, name)):
                action = dataclasses.replace(good, **{name: bad})
                before = _frozen(m)
                err = m.explain(seat, action)
                assert isinstance(err, IllegalActionError) and f"field {name!r}" in str(err), (action, err)
                with pytest.raises(IllegalActionError, match=f"field '{name}'"):
                    m.apply(action, seat)
                assert _frozen(m) == before, f"{action!r} changed the match"
                if bad_in_json:
                    data = dict(good.to_dict(), **{name: _json(bad)})
                    with pytest.raises(SerializationError):
                        cls.codec.from_dict(data)
                checked += 1
        if m.explain(seat, good) is None:  # the well-typed action is still legal afterwards
            m.apply(good, seat)
    # not vacuous: several bad values per field of every action class (a small game has few)
    assert checked >= 5 * fields, (checked, fields)


def test_a_legal_action_with_a_bool_for_an_int_is_not_logged(spec) -> None:
    """``True == 1``: an int field given True would pass every rule and be logged as
    ``true``, and the save written from it would then be refused on load."""
    cls = spec.engine_class()
    tried = 0
    for action_cls, (doc, seat, good) in _samples(spec).items():
        for name, typ in _field_types(action_cls).items():
            if _arms(typ) == (int,) and getattr(good, name) in (0, 1) and cls.from_dict(doc).explain(seat, good) is None:
                m = cls.from_dict(doc)
                with pytest.raises(IllegalActionError):
                    m.apply(dataclasses.replace(good, **{name: bool(getattr(good, name))}), seat)
                assert m.to_dict() == doc
                cls.from_dict(m.to_dict())  # still loads
                tried += 1
    if not tried:
        pytest.skip(f"random play made no legal {spec.id} action with an int field of 0 or 1")


def test_a_seat_that_is_not_a_seat_raises_no_such_seat(spec) -> None:
    cls = spec.engine_class()
    rng = random.Random(8)
    m = cls(cls.random_setup(rng, min(spec.players)), seed=3)
    for _ in range(15):
        if m.outcome() is not None:
            break
        seat = m.to_act()[0]
        m.apply(rng.choice(m.legal_actions(seat)), seat)
    before = _frozen(m)
    for bad in BAD_SEATS:
        bad = m.n_seats if bad == "n_seats" else bad
        for method in (m.view, m.legal_actions, m.events_for):
            with pytest.raises(NoSuchSeatError, match="there is no seat"):
                method(bad)
    assert _frozen(m) == before
    # the real seats and the public still work
    assert m.view(None) and m.legal_actions(None) == []
    for s in range(m.n_seats):
        assert isinstance(m.view(s), dict) and isinstance(m.legal_actions(s), list)
