"""Japan Conquest on the shared match protocol.

:class:`JapanMatch` runs the Japan engine (:class:`~.game.Game`) with dice that come from
the match's logged :class:`~conquest_widget.core.chance.Chance`: every face is in the log,
so a replay never re-derives a roll from a generator.  Its :meth:`JapanMatch.view` is
built by inclusion and hides the Final Showdown totals from everyone (scores, banked
points, stored prosperity, point changes in the event log) until the game ends.

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
from collections.abc import Mapping
from typing import Any

from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE, ActionCodec, Outcome
from conquest_widget.core.protocol import Action as CoreAction
from conquest_widget.errors import IllegalActionError, SerializationError
from conquest_widget.games.japan_conquest.actions import Action as JapanAction
from conquest_widget.games.japan_conquest.actions import (
    BattleRoll,
    ConfirmRoute,
    Edit,
    Roll,
    Step,
    UndoStep,
    action_from_dict,
)
from conquest_widget.games.japan_conquest.dice import (
    DiceSource,
    ScriptedDice,
    dice_from_dict,
)
from conquest_widget.games.japan_conquest.game import FORMAT, Game
from conquest_widget.games.japan_conquest.movement import NOBODY
from conquest_widget.games.japan_conquest.rules import (
    DIE_FACES,
    FINAL_SHOWDOWN_TURNS,
    LEVEL_NAMES,
    STANDARD_TURNS,
)
from conquest_widget.games.japan_conquest.setup import GameSetup, PlayerSetup, random_homes
from conquest_widget.games.japan_conquest.spec import SPEC

#: event fields that reveal points; during the Final Showdown nobody sees them
POINT_FIELDS = ("points", "amount")


def in_showdown(setup: GameSetup, ev: Mapping[str, Any]) -> bool:
    """Was ``ev`` emitted during the Final Showdown (when totals are hidden)?"""
    if setup.mode != "standard" or setup.turns is None or ev.get("type") == "game_end":
        return False
    return int(ev.get("turn", 0)) > setup.turns - FINAL_SHOWDOWN_TURNS


def redacted(setup: GameSetup, ev: Mapping[str, Any]) -> dict[str, Any]:
    """``ev`` as every player sees it: without point figures during the Final Showdown."""
    if in_showdown(setup, ev):
        return {k: v for k, v in ev.items() if k not in POINT_FIELDS}
    return dict(ev)


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


class _LoggedDice:
    """A dice source that draws from (and logs into) the match's chance."""

    def __init__(self, match: JapanMatch) -> None:
        self._match = match

    @property
    def seed(self) -> int:
        return self._match.chance.seed

    def roll(self, n: int) -> tuple[int, ...]:
        m = self._match
        if m.script is not None and not m.chance.forced:
            # scripted faces (tests, lessons) become logged chance outcomes like any roll
            m.chance.forced.append(list(m.script.roll(n)))
        return m.chance.roll(n, DIE_FACES)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "random", "seed": self._match.chance.seed}


class JapanMatch(Match):
    """A Japan Conquest match (see the module docstring)."""

    spec = SPEC
    codec = CODEC
    setup_class = GameSetup

    def __init__(self, setup: GameSetup, *, seed: int | None = None, forced: list[Any] | tuple[Any, ...] = (),
                 dice: DiceSource | None = None) -> None:
        """``dice`` (e.g. :class:`~.dice.ScriptedDice`) decides the rolls not forced by
        ``forced``; every face is logged as a chance outcome all the same, so the match's
        document replays without it."""
        if seed is None:
            seed = setup.seed if setup.seed is not None else getattr(dice, "seed", None)
        #: the dice that decide new rolls instead of the seed (None = the seed)
        self.script: DiceSource | None = dice
        super().__init__(setup, seed=seed, forced=forced)

    # ------------------------------------------------------------ protocol
    def _start(self) -> None:
        self.game = Game(self.setup, dice=_LoggedDice(self))
        self._sync_events()

    @property
    def state(self) -> Any:  # the snapshot/restore hooks of Match
        return self.game.state

    @state.setter
    def state(self, value: Any) -> None:
        self.game.state = value
        self.game._invalidate()

    def to_act(self) -> tuple[int, ...]:
        return () if self.game.is_over else (self.game.actor,)

    def _legal_actions(self, seat: int) -> list[CoreAction]:
        if self.game.is_over or seat != self.game.actor:
            return []
        return list(self.game.legal_actions())

    def _explain(self, seat: int, action: CoreAction) -> IllegalActionError | None:
        if not isinstance(action, JapanAction):
            return IllegalActionError(f"not an action of Japan Conquest: {action!r}")
        if action in self.game.legal_actions():
            return None
        if isinstance(action, Step) and self.game.phase == "route":
            err = self.game.explain_step(action.to) if isinstance(action.to, int) else None
            if err is not None:
                return err
        dice, self.game.dice = self.game.dice, _ExhaustedDice()
        try:  # a trial on a copy, only for actions not on the legal list (rare)
            trial = self.game.copy()  # shares the immutable board and setup
        finally:
            self.game.dice = dice
        try:
            trial.apply(action)
        except IllegalActionError as exc:
            return exc
        except _NeedsDice:
            return None
        except (TypeError, ValueError) as exc:
            return IllegalActionError(f"{action!r} is malformed: {exc}", "malformed")
        return None

    def _apply(self, action: CoreAction, seat: int) -> None:
        self.game.apply(action)  # type: ignore[arg-type]
        self._sync_events()

    def outcome(self) -> Outcome | None:
        g = self.game
        if not g.is_over:
            return None
        ranks = [0] * len(self.setup.players)
        for row in g.ranking():
            ranks[row["seat"]] = row["rank"]
        return Outcome(tuple(ranks), g.state.end_reason or "", {"scores": [g.score(s)["total"] for s in range(len(ranks))]})

    # ------------------------------------------------------------ events and views
    def _sync_events(self) -> None:
        for ev in self.game.events[len(self.events):]:
            public = redacted(self.setup, ev)
            if public != ev:
                self.emit(ev, visible_to=(), public=public)
            else:
                self.emit(ev)

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything on the board; totals, banked points and stored prosperity only while
        they are shown (not during the Final Showdown)."""
        g = self.game
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
        out["position"] = {"setup": setup, "state": snap, "actions": len(g.log)}
        return out

    def snapshot(self) -> Any:
        g = self.game
        return (copy.deepcopy(g.state), len(self.log), len(self.events), self.chance.draws, len(g.log), len(g.events))

    def history(self) -> list[list[Any]]:
        return [self.log, self.events, self.game.log, self.game.events]

    @classmethod
    def adopt(cls, obj: object) -> JapanMatch | None:
        """A match from an engine :class:`~.game.Game` (see :meth:`from_game`), its
        ``to_dict()`` document, or a save of format 1 holding either under ``"game"``; None
        for anything else.  A bad game document raises :class:`SerializationError`."""
        if isinstance(obj, Mapping) and obj.get("format") != FORMAT and isinstance(obj.get("game"), Mapping):
            inner = obj["game"]  # save format 1
            if inner.get("game") == cls.spec.id:  # ... holding a match document
                return cls.from_dict(inner)
            obj = inner
        if isinstance(obj, Mapping) and obj.get("format") == FORMAT:
            try:
                obj = Game.from_dict(dict(obj))
            except SerializationError:
                raise
            except RecursionError:
                raise SerializationError("the game data is nested too deeply") from None
            except Exception as exc:  # anything else the engine trips over is also bad data
                raise SerializationError(f"the game cannot be loaded: {exc!r}") from exc
        return cls.from_game(obj) if isinstance(obj, Game) else None

    def restore(self, snap: Any) -> None:
        state, n_log, n_events, draws, g_log, g_events = snap
        g = self.game
        g.state = copy.deepcopy(state)
        g._invalidate()
        del g.log[g_log:]
        del g.events[g_events:]
        del self.log[n_log:]
        del self.events[n_events:]
        self.chance.draws = draws

    # ------------------------------------------------------------ conformance hooks
    @classmethod
    def random_setup(cls, rng: random.Random, n_players: int) -> GameSetup:
        """A random valid setup (distinct, non-adjacent homes; a few CPU seats)."""
        homes = random_homes(n_players, rng)
        colours = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
        players = tuple(PlayerSetup(name=f"P{i + 1}", home=h, colour=colours[i], cpu=rng.random() < 0.5)
                        for i, h in enumerate(homes))
        return GameSetup(players, mode="standard", turns=rng.choice(STANDARD_TURNS[:2]), seed=rng.randrange(2**31))

    def engine_game(self) -> Game:
        """An independent engine ``Game`` with this match's setup, actions and dice (its
        dice scripted from the logged faces): what the engine-level tools (the story of
        the game, analysis) read."""
        faces = [f for e in self.log if e["seat"] == CHANCE for f in e["outcome"]]
        game = Game(self.setup, dice=ScriptedDice(faces, then_seed=self.chance.seed))
        for action in self.game.log:
            game.apply(action)
        return game

    @classmethod
    def from_game(cls, game: Game) -> JapanMatch:
        """A match with the same setup, actions and dice faces as an engine ``Game`` (for
        saves of format version 1, whose dice were re-derived from a seed).  The engine
        game of a match gives a copy of that match."""
        if isinstance(game.dice, _LoggedDice):  # (edits made on the engine game directly included)
            match = game.dice._match
            return copy.deepcopy(match, memo={id(game.board): game.board})
        recording = _RecordingDice(dice_from_dict(game.to_dict()["dice"]))
        replayed = Game(game.setup, dice=recording)
        for action in game.log:
            replayed.apply(action)
        seed = game.setup.seed if game.setup.seed is not None else getattr(game.dice, "seed", None)
        m = cls(game.setup, seed=seed if isinstance(seed, int) else 0, forced=recording.faces)
        for action in game.log:
            m.apply(action, m.game.actor)
        if isinstance(game.dice, ScriptedDice):
            m.script = game.dice  # the faces it has left decide the next rolls, as they would have
        return m


class _NeedsDice(Exception):
    pass


class _ExhaustedDice:
    """Dice for trial applications in :meth:`JapanMatch._explain`: an action that gets
    as far as rolling is legal."""

    def roll(self, n: int) -> tuple[int, ...]:
        raise _NeedsDice

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "trial"}


class _RecordingDice:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.faces: list[list[int]] = []

    def roll(self, n: int) -> tuple[int, ...]:
        out = self.inner.roll(n)
        self.faces.append(list(out))
        return out

    def to_dict(self) -> dict[str, Any]:
        return self.inner.to_dict()
