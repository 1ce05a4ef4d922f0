"""A match's positions without any widget: :class:`Replay` loads a log once and shows any
position (the shell's replay explorer, the tables' replays and scripts all read it).

It keeps a small state record (:meth:`Match.snapshot`) every ``every`` log entries;
position ``k`` (after the first ``k`` actions, with the chance they drew) is shown by
restoring the nearest record at or before ``k`` into one working match and applying the
logged actions since, chance outcomes forced from the log.  Loading is linear in the log;
showing a point costs at most ``every`` log entries of replay.

    >>> from conquest_widget.core.bots import RandomBot, play_bots
    >>> from conquest_widget.games.codex.engine import CodexMatch
    >>> import random
    >>> m = CodexMatch(CodexMatch.random_setup(random.Random(1), 2), seed=4)
    >>> _ = play_bots(m, {0: RandomBot(), 1: RandomBot()}, seed=2, max_actions=20)
    >>> r = Replay(m)
    >>> r.length, r.view(3, None) == CodexMatch.from_dict(r.document(3)).view(None)
    (20, True)
"""

from __future__ import annotations

import bisect
import copy
import json
from collections import deque
from collections.abc import Mapping
from typing import Any

from conquest_widget.core import registry
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE, Action, Event
from conquest_widget.errors import ConquestError, NoSuchSeatError, SerializationError, UnknownGameError

__all__ = ["DEFAULT_EVERY", "NoSuchPositionError", "Replay", "match_of"]

#: log entries between two checkpoints (state records) of a replay
DEFAULT_EVERY = 32


class NoSuchPositionError(ConquestError, IndexError):
    """A replay position outside ``0..length``."""


# --------------------------------------------------------------------------- loading
def match_of(source: Match | Mapping[str, Any]) -> Match:
    """``source`` if it is a match; a ``Match.to_dict()`` document rebuilt by its game's
    engine (found in the registry); anything else a game's engine adopts (``Match.adopt``,
    e.g. an older engine object of that game).  Bad input raises :class:`SerializationError`.

        >>> match_of({"game": "chess", "log": []})
        Traceback (most recent call last):
        ...
        conquest_widget.errors.SerializationError: not a replayable game: unknown game 'chess': ...
    """
    if isinstance(source, Match):
        return source
    if not isinstance(source, Mapping) or not isinstance(source.get("game"), str):
        for spec in registry.all_games():  # not a match document: maybe one a game's engine adopts
            if spec.engine is not None:
                adopted = spec.engine_class().adopt(source)
                if adopted is not None:
                    return adopted
    if not isinstance(source, Mapping):
        raise SerializationError(f"cannot replay a {type(source).__name__}: expected a match or its to_dict() document")
    try:
        cls = registry.get(str(source.get("game"))).engine_class()
    except UnknownGameError as exc:
        raise SerializationError(f"not a replayable game: {exc}"[:300]) from None
    try:
        return cls.from_dict(source)
    except RecursionError:
        raise SerializationError("the game data is nested too deeply") from None


class Replay:
    """One match's log, loaded once, with state records every ``every`` log entries.

    Position ``k`` (``0 <= k <= length``) is the match after its first ``k`` actions
    (position 0: after the start, deals included).  The working match is private: use
    :meth:`view`, :meth:`events`, :meth:`outcome`, :meth:`document` and :meth:`branch`.

        >>> from conquest_widget.games.conquest_cards.engine import ConquestCards
        >>> from conquest_widget.core.bots import RandomBot, play_bots
        >>> import random
        >>> m = ConquestCards(ConquestCards.random_setup(random.Random(2), 2), seed=9)
        >>> _ = play_bots(m, {0: RandomBot(), 1: RandomBot()}, seed=1)
        >>> r = Replay(m, every=8)
        >>> r.length == sum(e["seat"] != -1 for e in m.log), r.checkpoints[:3]
        (True, [0, ...])
        >>> r.view(5, 0) == ConquestCards.from_dict(r.document(5)).view(0)
        True
        >>> r.view(5, 7)
        Traceback (most recent call last):
        ...
        conquest_widget.errors.NoSuchSeatError: there is no seat 7: seats are 0-1 (None = the public view)
    """

    def __init__(self, source: Match | Mapping[str, Any], *, every: int = DEFAULT_EVERY) -> None:
        if not isinstance(every, int) or isinstance(every, bool) or every < 1:
            raise ValueError(f"every must be a whole number >= 1, got {every!r}")
        original = match_of(source)
        self.engine: type[Match] = type(original)
        self.spec = self.engine.spec
        self.every = every
        self._doc = original.to_dict()  # a copy: the source is never touched
        log = self._doc["log"]
        self._log = log
        actions: list[tuple[int, Action]] = []
        forced = []
        for entry in log:
            if entry["seat"] == CHANCE:
                forced.append(entry["outcome"])
            else:
                actions.append((entry["seat"], self.engine.codec.from_dict(entry["action"])))
        self._actions = actions
        m = self.engine(self.engine.setup_class.from_dict(self._doc["setup"]), seed=self._doc["seed"], forced=forced)
        #: log length and event count at each position
        self._log_end = [len(m.log)]
        self._ev_end = [len(m.events)]
        self._cp_pos = [0]
        self._cp = [m.snapshot()]
        # events as they were emitted (an event holding a list of the state would
        # otherwise show that list as it is at the end of the game)
        events: list[Event] = copy.deepcopy(m.events)
        for seat, action in actions:
            m.apply(action, seat)
            events += copy.deepcopy(m.events[len(events):])
            self._log_end.append(len(m.log))
            self._ev_end.append(len(m.events))
            if len(m.log) - self._log_end[self._cp_pos[-1]] >= every:
                self._cp_pos.append(len(self._log_end) - 1)
                self._cp.append(m.snapshot())
        if m.log != log or m.chance.forced:
            raise SerializationError(f"{self.spec.id}: the log does not reproduce itself on replay")
        self._events = events
        #: the match's growing lists at the end (a snapshot cuts them back; see :meth:`_pad`)
        self._final = [list(lst) for lst in m.history()]
        self._match = m
        self._pos: int | None = len(actions)
        self._seat_events: dict[int | None, tuple[list[dict[str, Any]], list[int]]] = {}
        self._public_positions: list[int] | None = None

    # ------------------------------------------------------------ positions
    @property
    def length(self) -> int:
        """The number of actions (the last position)."""
        return len(self._actions)

    @property
    def n_seats(self) -> int:
        return self._match.n_seats

    @property
    def checkpoints(self) -> list[int]:
        """The positions that have a state record."""
        return list(self._cp_pos)

    def log_length(self, k: int) -> int:
        """How many log entries (actions and chance) position ``k`` holds."""
        return self._log_end[self._check(k)]

    def action(self, k: int) -> tuple[int, Action]:
        """``(seat, action)`` of the ``k``-th action (``1 <= k <= length``)."""
        if not isinstance(k, int) or not 1 <= k <= self.length:
            raise NoSuchPositionError(f"there is no action {k!r}: actions are numbered 1-{self.length}")
        return self._actions[k - 1]

    def _check(self, k: Any) -> int:
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= self.length:
            raise NoSuchPositionError(f"there is no position {k!r}: positions are 0-{self.length}")
        return k

    def _check_seat(self, seat: Any) -> int | None:
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n_seats):
            raise NoSuchSeatError(f"there is no seat {seat!r}: seats are 0-{self.n_seats - 1} (None = the public view)")
        return seat

    def at(self, k: int) -> Match:
        """The working match at position ``k`` (restore the nearest record at or before
        ``k``, or go on from the shown position when that is shorter, then apply the logged
        actions, chance forced from the log).  Read it; never change it."""
        k = self._check(k)
        if k == self._pos:
            return self._match
        m = self._match
        i = bisect.bisect_right(self._cp_pos, k) - 1
        start = self._cp_pos[i]
        if self._pos is None or not start <= self._pos < k:
            self._pos = None
            self._pad(m)
            m.restore(self._cp[i])
        else:
            start = self._pos
        self._pos = None  # until the position is reached
        m.chance.forced = deque(e["outcome"] for e in self._log[self._log_end[start]:self._log_end[k]]
                                if e["seat"] == CHANCE)
        for seat, action in self._actions[start:k]:
            m.apply(action, seat)
        if m.chance.forced or len(m.log) != self._log_end[k]:  # the engine is not deterministic
            raise SerializationError(f"{self.spec.id}: position {k} does not replay the same way twice")
        self._pos = k
        return m

    def _pad(self, m: Match) -> None:
        """Give the working match its whole log and events back before a restore: a
        snapshot goes back to *an earlier point* (it cuts the lists to its lengths), so a
        record after the shown position needs the lists at least that long.  The entries
        put back are the ones the same replay produced."""
        for lst, final in zip(m.history(), self._final, strict=True):
            if len(lst) < len(final):
                lst[len(lst):] = final[len(lst):]

    def public_positions(self) -> list[int]:
        """The positions the public can tell apart: 0, then the last position of every run
        of actions that changed nothing public (no public event, the same public view),
        and always the last position.  An action that changes something public starts a
        run; the secret actions after it (placing income on one card or on three) join
        it, so how many there were is not shown.  Computed once, on demand.

            >>> from conquest_widget.games.codex.engine import CodexMatch
            >>> from conquest_widget.core.bots import RandomBot, play_bots
            >>> import random
            >>> m = CodexMatch(CodexMatch.random_setup(random.Random(1), 2), seed=4)
            >>> _ = play_bots(m, {0: RandomBot(), 1: RandomBot()}, seed=2, max_actions=20)
            >>> Replay(m).public_positions() == list(range(21))   # nothing secret in the Codex
            True
        """
        if self._public_positions is None:
            ends = []
            before = json.dumps(self.view(0, None), sort_keys=True)
            for k in range(1, self.length + 1):
                now = json.dumps(self.view(k, None), sort_keys=True)
                if self.step_events(k, None) or now != before:
                    ends.append(k - 1)
                before = now
            ends.append(self.length)
            self._public_positions = ends
        return list(self._public_positions)

    # ------------------------------------------------------------ what a seat sees
    def view(self, k: int, seat: int | None) -> dict[str, Any]:
        """``view(seat)`` of the match at position ``k`` (None = the public view)."""
        seat = self._check_seat(seat)
        return self.at(k).view(seat)

    def events(self, k: int, seat: int | None) -> list[dict[str, Any]]:
        """The events up to position ``k`` as ``seat`` received them."""
        k, seat = self._check(k), self._check_seat(seat)
        seen, counts = self._seen(seat)
        return seen[: counts[self._ev_end[k]]]

    def step_events(self, k: int, seat: int | None) -> list[dict[str, Any]]:
        """The events of the ``k``-th action alone (position 0: those of the start)."""
        k, seat = self._check(k), self._check_seat(seat)
        seen, counts = self._seen(seat)
        lo = counts[self._ev_end[k - 1]] if k else 0
        return seen[lo: counts[self._ev_end[k]]]

    def _seen(self, seat: int | None) -> tuple[list[dict[str, Any]], list[int]]:
        if seat not in self._seat_events:
            seen: list[dict[str, Any]] = []
            counts = [0]
            for e in self._events:
                d = e.for_seat(seat)
                if d is not None:
                    seen.append(d)
                counts.append(len(seen))
            self._seat_events[seat] = (seen, counts)
        return self._seat_events[seat]

    def outcome(self, k: int) -> dict[str, Any] | None:
        """The outcome at position ``k`` (None while the match is not over)."""
        out = self.at(k).outcome()
        return None if out is None else out.to_dict()

    def to_act(self, k: int) -> tuple[int, ...]:
        return self.at(k).to_act()

    @property
    def setup(self) -> Any:
        """The match's setup (who plays, the options)."""
        return self._match.setup

    # ------------------------------------------------------------ documents and branches
    def document(self, k: int | None = None) -> dict[str, Any]:
        """The save document of the match cut at position ``k`` (default: the whole log)."""
        k = self.length if k is None else self._check(k)
        doc = dict(self._doc)
        doc["log"] = json.loads(json.dumps(self._log[: self._log_end[k]]))
        return doc

    def branch(self, k: int | None = None) -> Match:
        """A new, independent, live match at position ``k`` (replayed from the log prefix):
        play on from there.  Chance after ``k`` continues from the same seed, so a branch
        that repeats the recorded actions repeats the recorded game."""
        return self.engine.from_dict(self.document(k))


