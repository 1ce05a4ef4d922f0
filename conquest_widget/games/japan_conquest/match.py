"""Japan Conquest on the shared match protocol: :class:`JapanMatch` and its per-seat view.

:class:`JapanMatch` is a :class:`~conquest_widget.core.match.Match` like the other games:
its ``state`` is Japan's :class:`~.state.GameState`, its rules are :mod:`.engine` (how an
action changes the state) and :mod:`.queries` (what can be asked of a position, and the
convenience moves of a notebook).  Every die is a logged chance outcome, so a replay never
re-derives a roll from a generator; a :class:`~.dice.ScriptedDice` given as ``dice`` (tests,
lessons) decides the faces, which are logged all the same.  The view is built by inclusion
and hides the Final Showdown totals from everyone (scores, banked points, stored
prosperity, point changes in the event log) until the game ends.

    >>> from conquest_widget.games.japan_conquest import GameSetup
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> m.to_act(), [str(a) for a in m.legal_actions(0)]
    ((0,), ['roll 1', 'roll 2', 'roll 3'])
    >>> m.apply(m.legal_actions(0)[0], 0)
    >>> m.log[-1]["kind"], m.view(1)["phase"]
    ('roll', 'route')
    >>> JapanMatch.from_dict(m.to_dict()).view(None) == m.view(None)
    True
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE, ActionCodec, Event, Outcome
from conquest_widget.core.protocol import Action as CoreAction
from conquest_widget.errors import (
    DiceSourceError,
    GameOverError,
    IllegalActionError,
    SerializationError,
    WrongGameError,
)
from conquest_widget.games.japan_conquest.actions import Action as JapanAction
from conquest_widget.games.japan_conquest.actions import BattleRoll, ConfirmRoute, Edit, Roll, Step, UndoStep, action_from_dict
from conquest_widget.games.japan_conquest.dice import DiceExhaustedError, DiceSource
from conquest_widget.games.japan_conquest.engine import (
    POINT_FIELDS,
    JapanRules,
    NeedsDice,
    in_showdown,
    redacted,
)
from conquest_widget.games.japan_conquest.movement import NOBODY
from conquest_widget.games.japan_conquest.rules import DICE_OPTIONS, LEVEL_NAMES, STANDARD_TURNS
from conquest_widget.games.japan_conquest.setup import GameSetup, PlayerSetup, random_homes
from conquest_widget.games.japan_conquest.spec import SPEC
from conquest_widget.games.japan_conquest.state import GameState, copy_dice
from conquest_widget.maps.japan.board import japan

__all__ = ["CODEC", "POINT_FIELDS", "JapanMatch", "MatchPoint", "in_showdown", "redacted"]


@dataclass(frozen=True, eq=False)
class MatchPoint:
    """A point of a match's history (:meth:`JapanMatch.snapshot`): the state (a private
    copy), the log and the events so far (their entries are shared: a log entry or an
    emitted event is never changed afterwards), the chance and script positions.
    ``position`` is the number of actions applied."""

    setup: GameSetup
    state: GameState
    log: tuple[Any, ...]
    events: tuple[Any, ...]
    draws: int
    actions: int
    script: Any

    @property
    def position(self) -> int:
        """Number of actions applied at this point."""
        return self.actions


class _JapanCodec(ActionCodec):
    """Japan's actions, strictly typed (the editor's ``Edit`` carries a small dict)."""

    def from_dict(self, data: Any) -> CoreAction:
        if isinstance(data, Mapping) and data.get("type") == "edit":
            args = data.get("args", {})
            if (not isinstance(data.get("op"), str) or not isinstance(args, Mapping) or len(args) > 20
                    or not all(isinstance(k, str) and isinstance(v, (int, str, bool, type(None))) for k, v in args.items())):
                raise SerializationError(f"japan_conquest: bad edit action {data!r}"[:300])
        return action_from_dict(dict(data) if isinstance(data, Mapping) else data)


CODEC = _JapanCodec("japan_conquest")
for _cls in (Roll, Step, UndoStep, ConfirmRoute, BattleRoll, Edit):
    CODEC.register(_cls)


class JapanMatch(JapanRules, Match):
    """A Japan Conquest match (see the module docstring)."""

    spec = SPEC
    codec = CODEC
    setup_class = GameSetup

    def __init__(self, setup: GameSetup, *, seed: int | None = None, forced: list[Any] | tuple[Any, ...] = (),
                 dice: DiceSource | None = None, position: tuple[GameState, int] | None = None) -> None:
        """``dice`` (e.g. :class:`~.dice.ScriptedDice`) decides the rolls not forced by
        ``forced``; every face is logged as a chance outcome all the same, so the match's
        document replays without it.  ``position`` (a state and the number of actions that
        led to it) starts the match there, with no history: see :meth:`at_position`."""
        if seed is None:  # a script without a seed of its own (ScriptedDice) counts as seed 0
            seed = setup.seed if setup.seed is not None else None if dice is None else getattr(dice, "seed", 0)
        self.script = dice
        self.board = japan()
        #: the number of actions applied (edits included), the history's length
        self._actions = 0
        #: bumped by :meth:`restore`, so that caches keyed on a match (the CPUs') see a new position
        self._epoch = 0
        self._position = position
        #: the dice of the older engine's document this match was read from (see
        #: :mod:`.legacy`), or None: a save keeps such a game's id (``saves.py``)
        self.legacy_dice: dict[str, Any] | None = None
        super().__init__(setup, seed=seed, forced=forced)

    @classmethod
    def at_position(cls, setup: GameSetup, state: GameState, *, actions: int = 0) -> JapanMatch:
        """A match at a position with no history and no dice (CPUs choosing from a view:
        :func:`~conquest_widget.games.japan_conquest.bots.game_from_view`): ``setup`` is
        taken as valid, ``state`` as the position after ``actions`` actions (only their
        number is known).  A roll draws from the setup's seed (0 without one)."""
        return cls(setup, seed=setup.seed if setup.seed is not None else 0, position=(state, actions))

    # ------------------------------------------------------------ protocol
    def _start(self) -> None:
        if self._position is None:
            self._begin()
            return
        self.state, self._actions = self._position
        self._position = None
        self._invalidate()

    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over else (self.actor,)

    def _legal_actions(self, seat: int) -> list[CoreAction]:
        if self.is_over or seat != self.actor:
            return []
        return list(self.legal_moves())

    def _explain(self, seat: int, action: CoreAction) -> IllegalActionError | None:
        if not isinstance(action, JapanAction):
            return IllegalActionError(f"not an action of Japan Conquest: {action!r}")
        if self._quick_legal(action):  # one of legal_moves(), found without listing them all
            return None
        if isinstance(action, Step) and self.phase == "route":
            err = self.explain_step(action.to) if isinstance(action.to, int) else None
            if err is not None:
                return err
        # a trial, undone at once, only for actions not on the legal list (rare: edits)
        snap, epoch = self.snapshot(), self._epoch
        self._trial = True
        try:
            self._dispatch(action)
        except IllegalActionError as exc:
            return exc
        except NeedsDice:
            return None
        except (TypeError, ValueError) as exc:
            return IllegalActionError(f"{action!r} is malformed: {exc}", "malformed")
        finally:
            self._trial = False
            self.restore(snap)
            self._epoch = epoch
        return None

    def _quick_legal(self, action: JapanAction) -> bool:
        """Is ``action`` one of :meth:`legal_moves` (checked as the rules check it, without
        building the list: ``apply`` asks this before every action)?"""
        st, kind = self.state, type(action)
        if kind is Roll or kind is BattleRoll:
            phase_ok = st.phase == "roll" if kind is Roll else st.phase in ("battle_attack", "battle_defend")
            dice = action.dice  # type: ignore[attr-defined]
            return phase_ok and dice in DICE_OPTIONS and st.players[self.actor].items(dice) > 0
        if st.phase != "route":
            return False
        if kind is Step:
            return self.explain_step(action.to) is None  # type: ignore[attr-defined]
        if kind is UndoStep:
            return bool(st.route)
        return kind is ConfirmRoute and self.can_confirm()

    def explain(self, seat: int, action: CoreAction) -> IllegalActionError | None:
        """As :meth:`Match.explain`; after the end it is a :class:`GameOverError`."""
        err = super().explain(seat, action)
        if err is not None and err.reason == "game_over":
            return GameOverError(f"the game is over; {action} is not possible", "game_over")
        return err

    def _apply(self, action: CoreAction, seat: int) -> None:
        self._dispatch(action)  # type: ignore[arg-type]
        self._actions += 1

    def apply(self, action: CoreAction, seat: int) -> None:
        """Apply a legal action of ``seat`` (see :meth:`Match.apply`); :meth:`push` acts as
        the seat to act.  Scripted dice that run out (or give no die faces) raise
        :class:`~.dice.DiceExhaustedError` (or :class:`DiceSourceError`) with nothing changed."""
        n = len(self.log)
        try:
            super().apply(action, seat)
        except (DiceExhaustedError, DiceSourceError):
            del self.log[n:]  # nothing else changed: a roll comes before any change
            raise

    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        ranks = [0] * len(self.setup.players)
        for row in self.ranking():
            ranks[row["seat"]] = row["rank"]
        return Outcome(tuple(ranks), self.state.end_reason or "", {"scores": [self.score(s)["total"] for s in range(len(ranks))]})

    def emit(self, data: Mapping[str, Any], *, visible_to: tuple[int, ...] | None = None,
             public: Mapping[str, Any] | None = None) -> None:
        """As :meth:`Match.emit`, copying one level only: the rules' events hold fresh
        values, never a list or dict of the state (see ``engine._emit``), and the deep
        copy was a fifth of an action's time."""
        self.events.append(Event(dict(data), visible_to, None if public is None else dict(public)))

    # ------------------------------------------------------------ history
    @property
    def action_count(self) -> int:
        """The number of actions applied so far (edits included; chance outcomes not)."""
        return self._actions

    def actions(self) -> list[JapanAction]:
        """The actions of the log, in order (not for a match made by :meth:`at_position`,
        which knows only their number)."""
        return [self.codec.from_dict(e["action"]) for e in self.log if e["seat"] != CHANCE]  # type: ignore[misc]

    def final_events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """As :meth:`Match.final_events_for`: once the game is over nothing is hidden any
        more, the Final Showdown's point figures are given in full (the results give every
        total, so must the log: issue 30); while it is played, :meth:`events_for`."""
        if self.outcome() is None:
            return self.events_for(seat)
        self.check_seat(seat)
        return [dict(e.data) for e in self.events if e.for_seat(seat) is not None]

    def full_events(self, since: int = 0) -> list[dict[str, Any]]:
        """Every event from index ``since`` on, in full (the Final Showdown's point figures
        included): the whole truth, for the story of a finished game and for tests.  A
        player's screen reads :meth:`events_for` instead."""
        return [dict(e.data) for e in self.events[since:]]

    # ------------------------------------------------------------ the view
    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything on the board; totals, banked points and stored prosperity only while
        they are shown (not during the Final Showdown)."""
        g = self
        st = g.state
        hidden = g.totals_hidden
        players = []
        for s, p in enumerate(self.setup.players):
            ps = st.players[s]
            row: dict[str, Any] = {
                "name": p.name, "colour": p.colour, "cpu": p.cpu, "home": p.home,
                "position": ps.position, "turn": g.turn_number(s),
                "items": g.items(s), "defeated": ps.defeated,
            }
            if not hidden:
                row["score"] = g.score(s)
            players.append(row)
        prefectures = {}
        for code in g.board.codes:
            owner = st.owner[code]
            cell: dict[str, Any] = {"owner": None if owner == NOBODY else owner, "level": LEVEL_NAMES[st.level[code]]}
            if not hidden:
                cell["stored"] = st.stored[code]
                cell["points"] = g.level_value(code) if owner != NOBODY else 0
            prefectures[str(code)] = cell
        out: dict[str, Any] = {
            "game": self.spec.id,
            "viewer": seat,
            "mode": self.setup.mode,
            "turns": self.setup.turns,
            "phase": g.phase,
            "current_player": g.current_player,
            "actor": None if g.is_over else g.actor,
            "order": list(st.order),
            "turn": g.turn_number(),
            "totals_hidden": hidden,
            "roll": list(st.roll),
            "allowance": st.allowance,
            "route": list(st.route),
            "route_details": g.route_details(),
            "remaining": g.remaining,
            "players": players,
            "prefectures": prefectures,
            "regions": g.region_status(),
            "battle": None,
        }
        if st.battle is not None:
            b = st.battle
            out["battle"] = {"pref": b.pref, "attacker": b.attacker, "defender": b.defender, "bonus": b.bonus,
                             "bonus_parts": dict(b.bonus_parts), "attack_roll": list(b.attack_roll or [])}
        out["outcome"] = None if not g.is_over else self.outcome().to_dict()  # type: ignore[union-attr]
        out["end_reason"] = st.end_reason if g.is_over else None
        out["ranking"] = g.ranking() if g.is_over else None  # the standings, once nothing is hidden
        # what a CPU needs to rebuild the position (public: no seed, no hidden totals)
        setup = self.setup.to_dict()
        setup.pop("seed", None)
        snap = st.snapshot()
        if hidden:
            for cell in snap["prefectures"]:
                cell["stored"] = 0
            for s, p in enumerate(snap["players"]):
                if s != seat:  # a player knows their own purse (tolls are paid from it)
                    p["banked"] = 0
        out["position"] = {"setup": setup, "state": snap, "actions": self.action_count}
        return out

    # ------------------------------------------------------------ snapshots and copies
    def snapshot(self) -> MatchPoint:
        """A small record of this point to come back to with :meth:`restore`: a copy of
        the state, the log and events so far (tuples of the shared entries: no entry is
        copied), the chance and script positions.  No copy of the board or the match."""
        return MatchPoint(self.setup, self.state.copy(), tuple(self.log), tuple(self.events),
                          self.chance.draws, self._actions, None if self.script is None else copy_dice(self.script))

    def restore(self, snap: Any) -> None:
        """Make this match exactly what it was at a :meth:`snapshot` (of this match, or of
        another match with the same setup; backwards or forwards): state, log, events,
        chance and script positions.  The snapshot is left unchanged (it can be restored
        again); anything else raises :class:`WrongGameError` and changes nothing."""
        if not isinstance(snap, MatchPoint):
            raise WrongGameError(f"restore() takes a MatchPoint from JapanMatch.snapshot(), got {type(snap).__name__}")
        if snap.setup != self.setup:
            raise WrongGameError("the snapshot belongs to a game with another setup")
        self.state = snap.state.copy()
        self.log[:] = snap.log  # (the same list: the chance records into it)
        self.events[:] = snap.events
        self.chance.draws = snap.draws
        self._actions = snap.actions
        self.script = None if snap.script is None else copy_dice(snap.script)
        self._invalidate()
        self._epoch += 1

    def copy(self) -> JapanMatch:
        """An independent copy at the same point (same chance and script positions); the
        board, the setup and the log's entries and events (never changed once made) are shared."""
        twin = copy.copy(self)
        twin.state = self.state.copy()
        twin.log = list(self.log)
        twin.events = list(self.events)
        twin.chance = copy.copy(self.chance)
        twin.chance.entries = twin.log
        twin.chance.forced = deque(self.chance.forced)
        twin.script = None if self.script is None else copy_dice(self.script)
        twin._invalidate()
        return twin

    @classmethod
    def adopt(cls, obj: object) -> JapanMatch | None:
        """A match from a document of the older engine (Japan document format 1, or a
        save of format 1 holding it or a match document under ``"game"``: see
        :mod:`.legacy`), or None for anything else.  A bad document raises
        :class:`SerializationError`."""
        from conquest_widget.games.japan_conquest.legacy import adopt_legacy

        return adopt_legacy(cls, obj)

    # ------------------------------------------------------------ conformance hooks
    @classmethod
    def random_setup(cls, rng: random.Random, n_players: int) -> GameSetup:
        """A random valid setup (distinct, non-adjacent homes; a few CPU seats)."""
        homes = random_homes(n_players, rng)
        colours = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
        players = tuple(PlayerSetup(name=f"P{i + 1}", home=h, colour=colours[i], cpu=rng.random() < 0.5)
                        for i, h in enumerate(homes))
        return GameSetup(players, mode="standard", turns=rng.choice(STANDARD_TURNS[:2]), seed=rng.randrange(2**31))

    def __repr__(self) -> str:
        names = ", ".join(p.name for p in self.setup.players)
        return f"<JapanMatch {self.setup.mode} [{names}] phase={self.phase} turn={self.turn_number()}>"
