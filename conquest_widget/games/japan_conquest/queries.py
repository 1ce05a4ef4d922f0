"""What a Japan Conquest match can be asked, and the moves a notebook makes as the seat to act.

:class:`JapanQueries` is a mixin of :class:`~.match.JapanMatch` (python-chess-like): the
read methods (phase, actor, score, legal steps, ...) read ``self.state`` and change
nothing; the convenience moves (:meth:`~JapanQueries.roll`, :meth:`~JapanQueries.step`,
...) build an action and :meth:`~JapanQueries.push` it as the seat to act.  The rules that
change the state are in :mod:`.engine`.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, ScriptedDice
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([2]))
    >>> m.current_player, m.phase
    (0, 'roll')
    >>> m.roll(1)
    (2,)
    >>> m.allowance, sorted(m.legal_steps())
    (2, [11, 12, 14, 19])
    >>> m.step("Saitama"); m.step("Gunma"); m.confirm_route()
    >>> m.prefecture_info("Gunma")["owner"], m.prefecture_info("Gunma")["level"]
    (0, 'territory')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from conquest_widget.errors import IllegalActionError, NoSuchSeatError, UnknownPrefectureError
from conquest_widget.games.japan_conquest.actions import Action, BattleRoll, ConfirmRoute, Edit, Roll, Step, UndoStep
from conquest_widget.games.japan_conquest.movement import NOBODY, RouteContext, RoutePoint
from conquest_widget.games.japan_conquest.rules import (
    CASTLE,
    CASTLE_DEFENCE,
    DICE_OPTIONS,
    FINAL_SHOWDOWN_TURNS,
    FULL_REGION_DEFENCE,
    LEVEL_MULTIPLIER,
    LEVEL_NAMES,
    PREFECTURES,
    REGION_BONUS_PER_PREFECTURE,
    REGION_DEFENCE,
)
from conquest_widget.games.japan_conquest.setup import GameSetup
from conquest_widget.games.japan_conquest.state import GameState
from conquest_widget.maps.japan.board import JapanBoard, PrefectureRef

if TYPE_CHECKING:
    from conquest_widget.core.protocol import Event


class JapanQueries:
    """The read methods and convenience moves of a Japan Conquest match (a mixin: the
    match gives ``setup``, ``board``, ``state``, ``events`` and ``apply``)."""

    setup: GameSetup
    board: JapanBoard
    state: GameState
    events: list[Event]
    _ctx: RouteContext | None
    _plan: list[RoutePoint]
    #: the last legal step checked: (the route point it starts from, the code, the point after)
    _last_step: tuple[RoutePoint, int, RoutePoint] | None = None

    if TYPE_CHECKING:
        def apply(self, action: Any, seat: int) -> None: ...

    # ------------------------------------------------------------------ queries
    @property
    def phase(self) -> str:
        """``roll``, ``route``, ``battle_attack``, ``battle_defend`` or ``over``."""
        return self.state.phase

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def current_player(self) -> int:
        """Seat whose turn it is."""
        return self.state.current

    @property
    def actor(self) -> int:
        """Seat that must act now (the defender while a defence roll is awaited)."""
        if self.state.phase == "battle_defend" and self.state.battle is not None:
            return self.state.battle.defender
        return self.state.current

    @property
    def allowance(self) -> int:
        return self.state.allowance

    @property
    def route(self) -> list[int]:
        """The planned route (codes of the prefectures entered, in order)."""
        return list(self.state.route)

    @property
    def remaining(self) -> int:
        """Movement left after the planned route."""
        return self._route_point().remaining if self.state.phase == "route" else 0

    def _seat(self, seat: int) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.setup.players):
            raise NoSuchSeatError(f"there is no seat {seat!r}: seats are 0-{len(self.setup.players) - 1}")
        return seat

    def position(self, seat: int) -> int:
        """Where a player's pawn stands (a JIS code)."""
        return self.state.players[self._seat(seat)].position

    @property
    def turn_order(self) -> list[int]:
        """Seats in turn order."""
        return list(self.state.order)

    @property
    def end_reason(self) -> str | None:
        """Why the game ended ("turns", "conquest", "total_conquest", "defeat"), or None."""
        return self.state.end_reason

    def turn_number(self, seat: int | None = None) -> int:
        """The turn a player is on (1-based; completed turns + 1 while playing)."""
        seat = self.current_player if seat is None else self._seat(seat)
        return self.state.players[seat].turns_done + (0 if self.is_over else 1)

    @property
    def totals_hidden(self) -> bool:
        """True during a standard game's Final Showdown (its last three turns)."""
        s = self.setup
        if s.mode != "standard" or self.is_over or s.turns is None:
            return False
        return self.turn_number() > s.turns - FINAL_SHOWDOWN_TURNS

    def level_value(self, code: int) -> int:
        """Points a prefecture is worth to its owner at its current level."""
        return self.board.prefectures[code - 1].base_value * LEVEL_MULTIPLIER[self.state.level[code]]

    def score(self, seat: int) -> dict[str, int]:
        """Score breakdown: prefectures, regions (control bonus held), banked, total."""
        seat = self._seat(seat)
        st = self.state
        prefs = sum(self.level_value(c) for c in self.board.codes if st.owner[c] == seat)
        regions = sum(
            REGION_BONUS_PER_PREFECTURE * len(self.board.regions[rid].members)
            for rid, ctrl in st.region_controller.items()
            if ctrl == seat
        )
        banked = st.players[seat].banked
        return {"prefectures": prefs, "regions": regions, "banked": banked, "total": prefs + regions + banked}

    def scores(self) -> list[dict[str, int]]:
        """:meth:`score` for every seat."""
        return [self.score(s) for s in range(len(self.setup.players))]

    def ranking(self) -> list[dict[str, Any]]:
        """Standings, best first: ``{"seat", "name", "score", "rank"}``; equal scores share
        a rank; a defeated player ranks last."""
        rows: list[dict[str, Any]] = [
            {"seat": s, "name": p.name, "score": self.score(s)["total"], "defeated": self.state.players[s].defeated}
            for s, p in enumerate(self.setup.players)
        ]
        rows.sort(key=lambda r: (r["defeated"], -r["score"], r["seat"]))
        for i, r in enumerate(rows):
            prev = rows[i - 1] if i else None
            same = prev is not None and (prev["defeated"], prev["score"]) == (r["defeated"], r["score"])
            r["rank"] = prev["rank"] if prev is not None and same else i + 1
        return rows

    def winners(self) -> list[int]:
        """Seats ranked first (several when tied)."""
        return [r["seat"] for r in self.ranking() if r["rank"] == 1]

    def prefecture_info(self, ref: PrefectureRef) -> dict[str, Any]:
        """Owner seat (or None), level name, current points and stored prosperity."""
        code = self.board.code(ref)
        st = self.state
        owner = st.owner[code]
        return {
            "code": code,
            "owner": None if owner == NOBODY else owner,
            "level": LEVEL_NAMES[st.level[code]],
            "points": self.level_value(code) if owner != NOBODY else 0,
            "base_value": self.board.prefectures[code - 1].base_value,
            "stored": st.stored[code],
        }

    def defence_bonus_parts(self, ref: PrefectureRef) -> dict[str, int]:
        """The defence bonus its owner would get in a battle for this prefecture now:
        castle +2, the owner's regional control +1, full regional control +1 more.

        >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
        >>> g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]))
        >>> g.edit_prefecture("Saitama", owner=1, level="castle")
        >>> g.defence_bonus_parts("Saitama")
        {'castle': 2, 'region': 0, 'full_region': 0}
        """
        code = self.board.code(ref)
        st = self.state
        rid = self.board.prefectures[code - 1].region
        held = st.owner[code] != NOBODY and st.region_controller[rid] == st.owner[code]
        return {
            "castle": CASTLE_DEFENCE if st.level[code] == CASTLE else 0,
            "region": REGION_DEFENCE if held else 0,
            "full_region": FULL_REGION_DEFENCE if held and st.region_full[rid] else 0,
        }

    def region_status(self) -> dict[str, dict[str, Any]]:
        """Per region: the controlling seat (or None) and whether control is full."""
        st = self.state
        return {
            rid: {
                "controller": None if st.region_controller[rid] == NOBODY else st.region_controller[rid],
                "full": st.region_full[rid],
                "bonus": REGION_BONUS_PER_PREFECTURE * len(self.board.regions[rid].members),
            }
            for rid in self.board.regions
        }

    def items(self, seat: int) -> dict[str, int]:
        """Dice items a player holds."""
        p = self.state.players[self._seat(seat)]
        return {"double": p.doubles, "triple": p.triples}

    # ----------------------------------------------------------- legal actions
    def legal_steps(self) -> list[int]:
        """Prefectures the planned route may enter next (never into a dead end)."""
        if self.state.phase != "route":
            return []
        return self._context().next_steps(self._route_point())

    def can_confirm(self) -> bool:
        """May the planned route be confirmed now?"""
        return self.state.phase == "route" and self._context().can_end(self._route_point())

    def legal_moves(self) -> list[Action]:
        """Every action legal now for the seat to act (:attr:`actor`); the position
        editor's :class:`~.actions.Edit` actions are not listed."""
        st = self.state
        if st.phase == "roll":
            p = st.players[st.current]
            return [Roll(d) for d in DICE_OPTIONS if p.items(d) > 0]
        if st.phase == "route":
            acts: list[Action] = [Step(c) for c in self.legal_steps()]
            if st.route:
                acts.append(UndoStep())
            if self.can_confirm():
                acts.append(ConfirmRoute())
            return acts
        if st.phase in ("battle_attack", "battle_defend"):
            p = st.players[self.actor]
            return [BattleRoll(d) for d in DICE_OPTIONS if p.items(d) > 0]
        return []


    def push(self, action: Action) -> None:
        """Apply ``action`` as the seat to act (:attr:`actor`); :meth:`apply` names the seat.
        Raises :class:`IllegalActionError` (nothing changed) if it is illegal."""
        self.apply(action, self.actor)

    def roll(self, dice: int = 1) -> tuple[int, ...]:
        """Roll for movement: 1 die, or spend a Double (2) or Triple (3) Dice item.
        Returns the faces rolled."""
        self.push(Roll(dice))
        return tuple(self.state.roll)

    def step(self, to: PrefectureRef) -> None:
        """Add a prefecture (code or name) to the planned route."""
        try:
            code = self.board.code(to)
        except UnknownPrefectureError as exc:
            raise IllegalActionError(str(exc)) from None
        self.push(Step(code))

    def undo_step(self) -> None:
        """Remove the last prefecture of the planned route."""
        self.push(UndoStep())

    def confirm_route(self) -> None:
        """Execute the planned route."""
        self.push(ConfirmRoute())

    def battle_roll(self, dice: int = 1) -> tuple[int, ...]:
        """Roll in the current battle as attacker or defender, whoever is to act.
        Returns the faces rolled."""
        seat = self.actor
        self.push(BattleRoll(dice))
        ev = next(e.data for e in reversed(self.events) if e.data["type"] == "battle_roll" and e.data["player"] == seat)
        return tuple(ev["faces"])

    def plan_route(self, route: Iterable[PrefectureRef], dice: int | None = None) -> None:
        """Convenience: roll (if ``dice`` is given), step through ``route`` and confirm.

        All-or-nothing: if any step is illegal, the steps already planned are undone
        before the error is raised (a roll, once made, stays made)."""
        if dice is not None:
            self.roll(dice)
        planned = 0
        try:
            for r in route:
                self.step(r)
                planned += 1
            self.confirm_route()
        except IllegalActionError:
            for _ in range(planned):
                self.undo_step()
            raise


    def explain_step(self, ref: PrefectureRef) -> IllegalActionError | None:
        """Why stepping to ``ref`` now is illegal (the error, with ``reason``/``details``), or
        ``None`` if it is legal.  Changes nothing."""
        try:
            code = self.board.code(ref)
            self._check_step(code)
        except (IllegalActionError, UnknownPrefectureError) as exc:
            return exc if isinstance(exc, IllegalActionError) else IllegalActionError(str(exc), "unknown")
        return None

    def route_details(self) -> list[dict[str, int]]:
        """The planned route step by step: prefecture, movement cost, toll, movement left."""
        if self.state.phase != "route":
            return []
        self._route_point()
        out = []
        for prev, cur in zip(self._plan, self._plan[1:], strict=False):
            out.append({"pref": cur.pos, "cost": prev.remaining - cur.remaining, "toll": prev.banked - cur.banked, "left": cur.remaining})
        return out


    # -------------------------------------------------------------- helpers
    def _require(self, cond: bool, message: str) -> None:
        if not cond:
            raise IllegalActionError(message)

    def _check_step(self, code: int) -> RoutePoint:
        st = self.state
        self._require(st.phase == "route", f"cannot step during the {st.phase} phase: roll first")
        self._require(
            isinstance(code, int) and not isinstance(code, bool) and 1 <= code <= PREFECTURES, f"unknown prefecture code {code!r}"
        )
        ctx = self._context()
        here = self._route_point()
        last = self._last_step
        if last is not None and last[0] is here and last[1] == code:
            return last[2]  # checked a moment ago (``apply`` checks, then applies)
        name = self.board.prefectures[code - 1].name_en
        if code not in ctx.adjacency[here.pos]:
            raise IllegalActionError(
                f"{name} is not connected to {self.board.prefectures[here.pos - 1].name_en}",
                "not_adjacent", pref=code, frm=here.pos,
            )
        after = ctx.advance(here, code)
        if after is None:
            cost = ctx.step_cost(here.pos, code, here.broken)
            if cost > here.remaining:
                raise IllegalActionError(
                    f"entering {name} costs {cost} movement but only {here.remaining} is left",
                    "cost", pref=code, cost=cost, left=here.remaining,
                )
            raise IllegalActionError(
                f"cannot pay the {ctx.toll[code]}-point toll into {name} with {here.banked} banked points",
                "toll", pref=code, toll=ctx.toll[code], banked=here.banked,
            )
        if not ctx.completable(after):
            raise IllegalActionError(
                f"stepping to {name} leads to a dead end: no complete legal route continues from there",
                "dead_end", pref=code,
            )
        self._last_step = (here, code, after)
        return after

    def _invalidate(self) -> None:
        self._ctx = None
        self._plan = []

    def _context(self) -> RouteContext:
        if self._ctx is None:
            st = self.state
            self._ctx = RouteContext(self.board, st.owner, st.level, st.region_controller, st.current)
        return self._ctx

    def _route_point(self) -> RoutePoint:
        """The route point at the end of the planned route (cached per step)."""
        st = self.state
        ctx = self._context()
        if not self._plan:
            p = st.players[st.current]
            self._plan = [ctx.start(p.position, st.allowance, p.banked)]
        while len(self._plan) > len(st.route) + 1:
            self._plan.pop()
        while len(self._plan) < len(st.route) + 1:
            nxt = ctx.advance(self._plan[-1], st.route[len(self._plan) - 1])
            assert nxt is not None, "planned route became illegal"
            self._plan.append(nxt)
        return self._plan[-1]


    # ------------------------------------------------------- position editor
    def edit_prefecture(
        self, ref: PrefectureRef, *, owner: int | None = None, level: str | None = None, stored: int | None = None
    ) -> None:
        """Position editor: set a prefecture's owner (seat or None), level and stored prosperity.

        ``level`` is "territory", "base" or "castle" for an owned prefecture (default:
        keep, or "territory" for a newly owned one); an unowned prefecture is neutral.
        Home bases cannot be edited.  Logged as an :class:`Edit` action."""
        try:
            code = self.board.code(ref)
        except UnknownPrefectureError as exc:
            raise IllegalActionError(str(exc)) from None
        args: dict[str, Any] = {"pref": code, "owner": owner}
        if level is not None:
            args["level"] = level
        if stored is not None:
            args["stored"] = stored
        self.push(Edit("prefecture", args))

    def edit_player(
        self,
        seat: int,
        *,
        position: PrefectureRef | None = None,
        banked: int | None = None,
        doubles: int | None = None,
        triples: int | None = None,
    ) -> None:
        """Position editor: set a player's position, banked points and dice items."""
        args: dict[str, Any] = {"seat": seat}
        if position is not None:
            try:
                args["position"] = self.board.code(position)
            except UnknownPrefectureError as exc:
                raise IllegalActionError(str(exc)) from None
        for k, v in (("banked", banked), ("doubles", doubles), ("triples", triples)):
            if v is not None:
                args[k] = v
        self.push(Edit("player", args))

    def edit_turn(self, seat: int, turn: int | None = None) -> None:
        """Position editor: make it ``seat``'s turn (at the roll), optionally on turn number
        ``turn`` (players before ``seat`` in turn order have then completed ``turn`` turns,
        the others ``turn - 1``).  No start-of-turn effects are applied."""
        args: dict[str, Any] = {"seat": seat}
        if turn is not None:
            args["turn"] = turn
        self.push(Edit("turn", args))

