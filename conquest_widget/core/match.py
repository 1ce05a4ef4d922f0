"""The match protocol every game implements (OpenSpiel's game/state/observer split,
boardgame.io's per-player view, built by inclusion).

A game subclasses :class:`Match` and fills in the starred hooks:

- ``_start()`` * set up the state (may draw chance: deals, shuffles)
- ``to_act()`` * the seats that may act now (a tuple: out-of-turn actors are normal)
- ``_legal_actions(seat)`` * the legal actions of a valid seat (empty when it is not to act)
- ``_explain(seat, action)`` * why ``action`` is illegal for ``seat``, or None
- ``_apply(action, seat)`` * change the state (the action is known to be legal)
- ``_view(seat)`` * a JSON-able dict with only what ``seat`` may know (None = public)
- ``outcome()`` * an :class:`~.protocol.Outcome` once the match is over

The base class gives ``apply`` (validate, log, apply), ``explain``, ``legal_actions``,
``view``, ``events_for``, ``to_dict``/``from_dict`` (setup + seed + log; loading replays the
log, chance outcomes included, and checks it reproduces itself), ``snapshot``/``restore``
and ``copy``.

The checks live here, once for every game, so a hook only ever sees well-formed input:

- ``view``, ``legal_actions`` and ``events_for`` take a seat ``0 <= seat < n_seats`` (an
  ``int``, not a ``bool``) or None (the public); anything else raises
  :class:`~conquest_widget.errors.NoSuchSeatError` (``view(-1)`` must not be the last
  seat's private view);
- ``apply``/``explain`` refuse an action whose class is not the game's, or any of whose
  fields is not of its declared type (``ActionCodec.check``: a bool is not an int, a float
  is not an int, tuples element by element) with an
  :class:`~conquest_widget.errors.IllegalActionError` naming the field, before the game's
  ``_explain`` sees it; the match is unchanged.

Chance is logged: the log holds ``{"seat": -1, "kind": "roll", "outcome": [...]}``
entries between the actions that caused them, and a replay reads them back.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from ..errors import (
    IllegalActionError,
    NoSuchSeatError,
    SerializationError,
    WrongGameError,
)
from .chance import Chance
from .protocol import CHANCE, Action, ActionCodec, Event, Outcome

#: the largest log a document may carry (a hostile file could claim more)
MAX_LOG = 200_000

_ATOMS = (str, int, float, bool, type(None))


def _detached(value: Any) -> Any:
    """A copy of ``value`` that shares nothing mutable with it: dicts, lists and tuples of
    plain values are rebuilt directly (an event is such data, and ``copy.deepcopy`` with its
    memo was half of a card game's run time); anything else goes through ``copy.deepcopy``.

    >>> cards = [3, 7]
    >>> event = _detached({"cards": cards})
    >>> cards.append(9)
    >>> event
    {'cards': [3, 7]}
    """
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: _detached(v) for k, v in value.items()}
    if kind is list:
        return [_detached(v) for v in value]
    if kind is tuple:
        return tuple(_detached(v) for v in value)
    return copy.deepcopy(value)


class Match(ABC):
    """One match of a game: the whole truth, private to the controller and saves.

    ``setup`` is the game's validated setup object (with ``to_dict``/``from_dict``);
    ``seed`` seeds chance (None = a random seed, recorded).
    """

    #: the game's registry entry (set by each game)
    spec: ClassVar[Any]
    #: the game's action classes
    codec: ClassVar[ActionCodec]
    #: the game's setup class (``from_dict`` must validate)
    setup_class: ClassVar[Any]

    def __init__(self, setup: Any, *, seed: int | None = None, forced: list[Any] | tuple[Any, ...] = ()) -> None:
        self.setup = setup
        self.log: list[dict[str, Any]] = []
        self.events: list[Event] = []
        self.chance = Chance(seed, forced, log=self.log)
        self._start()

    # ------------------------------------------------------------ game hooks
    @abstractmethod
    def _start(self) -> None: ...

    @abstractmethod
    def to_act(self) -> tuple[int, ...]: ...

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def _explain(self, seat: int, action: Action) -> IllegalActionError | None: ...

    @abstractmethod
    def _apply(self, action: Action, seat: int) -> None: ...

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    # ------------------------------------------------------------ shared behaviour
    @property
    def n_seats(self) -> int:
        return len(self.setup.players)

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    def check_seat(self, seat: Any) -> int | None:
        """``seat`` if it is None (the public) or one of this match's seats; anything else
        (``n_seats``, ``-1``, ``"0"``, ``True``, ``1.0``) raises NoSuchSeatError."""
        if seat is None or (type(seat) is int and 0 <= seat < self.n_seats):
            return seat
        raise NoSuchSeatError(f"there is no seat {seat!r}: seats are 0-{self.n_seats - 1} (None = the public view)"[:300])

    def legal_actions(self, seat: int | None) -> list[Action]:
        """The actions ``seat`` may take now: empty when it is not to act (or for None, the
        public); NoSuchSeatError for anything that is not a seat."""
        if self.check_seat(seat) is None:
            return []
        return self._legal_actions(seat)  # type: ignore[arg-type]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now (None = the public view), as JSON-able data;
        NoSuchSeatError for anything that is not a seat."""
        return self._view(self.check_seat(seat))

    def explain(self, seat: int, action: Action) -> IllegalActionError | None:
        """Why ``action`` by ``seat`` is illegal now, or None if it is legal."""
        if not isinstance(action, Action) or self.codec.classes.get(action.kind) is not type(action):
            return IllegalActionError(f"{action!r} is not an action of {self.spec.id}"[:300], "not_an_action")
        try:
            self.codec.check(action)
        except SerializationError as exc:
            return IllegalActionError(str(exc), "bad_field")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n_seats:
            return IllegalActionError(f"there is no seat {seat!r}", "no_such_seat")
        if self.is_over:
            return IllegalActionError("the game is over", "game_over")
        if seat not in self.to_act():
            return IllegalActionError(f"seat {seat} may not act now", "not_your_turn")
        return self._explain(seat, action)

    def apply(self, action: Action, seat: int) -> None:
        """Apply a legal action; an illegal one raises IllegalActionError and changes
        nothing (state, log, events, chance position)."""
        err = self.explain(seat, action)
        if err is not None:
            raise err
        self.log.append({"seat": seat, "action": action.to_dict()})
        try:
            self._apply(action, seat)
        except IllegalActionError:
            # a game's _apply may refuse an action before changing anything
            self.log.pop()
            raise

    def emit(self, data: Mapping[str, Any], *, visible_to: tuple[int, ...] | None = None,
             public: Mapping[str, Any] | None = None) -> None:
        """Record an event (for games): see :class:`~.protocol.Event`.  The event keeps a deep
        copy, so a game that later changes the lists it passed cannot rewrite history."""
        self.events.append(Event(_detached(dict(data)), visible_to,
                                 None if public is None else _detached(dict(public))))

    def events_for(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events from index ``since`` on, as ``seat`` may see them (None = public);
        NoSuchSeatError for anything that is not a seat."""
        self.check_seat(seat)
        out = []
        for e in self.events[since:]:
            d = e.for_seat(seat)
            if d is not None:
                out.append(d)
        return out

    def final_events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The events as ``seat`` may see them once the game is over (what an app's log shows
        at the results): :meth:`events_for` unless the game hides during play what its end
        reveals (Japan Conquest's Final Showdown points).  :meth:`events_for` stays history:
        what it gave is never rewritten."""
        return self.events_for(seat)

    def event_keys_for(self, seat: int | None) -> list[str]:
        """A name for each event of :meth:`events_for` (``seat``), the same in every seat's
        list for an event everybody sees: ``"<p>"`` for the ``p``-th event with a public
        form (counted from 1), ``"<p>_<j>"`` for the ``j``-th event only ``seat`` sees after
        it (``p`` 0 before the first).  A name tells nothing ``seat`` may not know (the public events are counted, and
        only its own others), so a page can keep the lines of public events when the viewer
        changes and drop only the former viewer's own (issue 32: a lean wire).

        >>> from conquest_widget.games.japan_conquest import GameSetup
        >>> from conquest_widget.games.japan_conquest.match import JapanMatch
        >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=2))
        >>> len(m.event_keys_for(None)) == len(m.events_for(None))
        True
        """
        self.check_seat(seat)
        keys, p, j = [], 0, 0
        for e in self.events:
            public = e.for_seat(None) is not None
            if public:
                p, j = p + 1, 0
            if e.for_seat(seat) is None:
                continue
            if public:
                keys.append(str(p))
            else:
                j += 1
                keys.append(f"{p}_{j}")
        return keys

    # ------------------------------------------------------------ documents
    def to_dict(self) -> dict[str, Any]:
        """Setup, seed and the log (actions and chance outcomes): everything, for the
        player's own save file."""
        return {
            "game": self.spec.id,
            "version": self.spec.version,
            "setup": self.setup.to_dict(),
            "seed": self.chance.seed,
            "log": copy.deepcopy(self.log),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Rebuild a match by replaying its log; refuses a document of another game, a
        log that does not replay, or chance outcomes that do not fit."""
        if not isinstance(data, Mapping):
            raise SerializationError(f"{cls.spec.id}: expected an object, got {type(data).__name__}")
        if data.get("game") != cls.spec.id:
            raise WrongGameError(f"this is a document of {data.get('game')!r}, not of {cls.spec.id!r}"[:300])
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= cls.spec.version:
            raise SerializationError(f"{cls.spec.id}: unsupported version {version!r} (this package reads 1-{cls.spec.version})"[:300])
        log = data.get("log")
        if not isinstance(log, list) or len(log) > MAX_LOG:
            raise SerializationError(f"{cls.spec.id}: log must be a list of at most {MAX_LOG} entries")
        try:
            setup = cls.setup_class.from_dict(data.get("setup"))
        except Exception as exc:
            raise SerializationError(f"{cls.spec.id}: bad setup: {exc}") from None
        forced, actions = [], []
        for i, entry in enumerate(log):
            if not isinstance(entry, Mapping) or not isinstance(entry.get("seat"), int) or isinstance(entry.get("seat"), bool):
                raise SerializationError(f"{cls.spec.id}: log entry {i} is malformed")
            if entry["seat"] == CHANCE:
                forced.append(entry.get("outcome"))
            else:
                actions.append((entry["seat"], cls.codec.from_dict(entry.get("action"))))
        seed = data.get("seed")
        try:
            match = cls(setup, seed=seed, forced=forced)
            for seat, action in actions:
                match.apply(action, seat)
        except (IllegalActionError, SerializationError) as exc:
            raise SerializationError(f"{cls.spec.id}: the log does not replay: {exc}") from None
        except RecursionError:
            raise SerializationError(f"{cls.spec.id}: the log does not replay (it nests too deeply)") from None
        if match.chance.forced:
            raise SerializationError(f"{cls.spec.id}: the log has {len(match.chance.forced)} unused chance outcome(s)")
        if match.log != log:
            raise SerializationError(f"{cls.spec.id}: the log does not reproduce itself on replay")
        return match

    # ------------------------------------------------------------ snapshots
    def snapshot(self) -> Any:
        """A small record of the state (not the log) to come back to with
        :meth:`restore`; the default copies ``self.state``."""
        return (copy.deepcopy(self.state), len(self.log), len(self.events), self.chance.draws)

    def restore(self, snap: Any) -> None:
        """Go back to a :meth:`snapshot` taken earlier in this match (log and events are
        cut back to that point)."""
        state, n_log, n_events, draws = snap
        self.state = copy.deepcopy(state)
        del self.log[n_log:]
        del self.events[n_events:]
        self.chance.draws = draws

    def history(self) -> list[list[Any]]:
        """The lists this match grows as it is played and :meth:`restore` cuts back: the
        log and the events (a game keeping more such lists adds them)."""
        return [self.log, self.events]

    @classmethod
    def adopt(cls, obj: object) -> Self | None:
        """A match of this game made from another object of the same game (an older
        engine object, say), or None when ``obj`` is not one: how a replay opens it."""
        return None

    def copy(self) -> Self:
        """An independent copy (replays the log)."""
        return type(self).from_dict(self.to_dict())

    def __repr__(self) -> str:
        out = self.outcome()
        status = "over" if out is not None else f"to act {self.to_act()}"
        return f"<{type(self).__name__} {self.spec.id}: {self.n_seats} seats, {len(self.log)} log entries, {status}>"
