"""The Japan Conquest game: state changes only through actions.

    >>> from conquest_widget.games.japan_conquest import Game, GameSetup, ScriptedDice
    >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([2]))
    >>> g.current_player, g.phase
    (0, 'roll')
    >>> g.roll(1)
    (2,)
    >>> g.allowance, sorted(g.legal_steps())
    (2, [11, 12, 14, 19])
    >>> g.step("Saitama"); g.step("Gunma"); g.confirm_route()
    >>> g.prefecture_info("Gunma")["owner"], g.prefecture_info("Gunma")["level"]
    (0, 'territory')
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from conquest_widget.errors import (
    DiceSourceError,
    GameOverError,
    IllegalActionError,
    NoSuchSeatError,
    SerializationError,
    SetupError,
    UnknownPrefectureError,
    WrongGameError,
)
from conquest_widget.games.japan_conquest.actions import (
    Action,
    BattleRoll,
    ConfirmRoute,
    Edit,
    Roll,
    Step,
    UndoStep,
    action_from_dict,
)
from conquest_widget.games.japan_conquest.dice import (
    DiceExhaustedError,
    DiceSource,
    RandomDice,
    dice_from_dict,
)
from conquest_widget.games.japan_conquest.movement import (
    NOBODY,
    RouteContext,
    RoutePoint,
)
from conquest_widget.games.japan_conquest.rules import (
    BASE,
    BATTLE_BONUS,
    CASTLE,
    CASTLE_DEFENCE,
    DEFENCE_BONUS,
    DICE_OPTIONS,
    DIE_FACES,
    FINAL_SHOWDOWN_TURNS,
    FULL_REGION_DEFENCE,
    HOME,
    LEVEL_BY_NAME,
    LEVEL_MULTIPLIER,
    LEVEL_NAMES,
    NEUTRAL,
    PREFECTURES,
    PROSPERITY_CASTLE,
    PROSPERITY_HOME,
    REGION_BONUS_PER_PREFECTURE,
    REGION_DEFENCE,
    TERRITORY,
    TRIPLE_DICE_EVERY,
)
from conquest_widget.games.japan_conquest.setup import GameSetup
from conquest_widget.games.japan_conquest.state import (
    BattleState,
    GameCheckpoint,
    GameState,
    PlayerState,
    copy_dice,
)
from conquest_widget.maps.japan.board import JapanBoard, PrefectureRef, japan

FORMAT = "conquest_widget.japan_conquest.game"
FORMAT_VERSION = 1
ITEM_NAMES = {2: "double", 3: "triple"}


class Game:
    """A game of Japan Conquest.

    ``legal_actions()`` lists what may be done now; ``apply(action)`` is the one path
    that changes the game.  The convenience methods (:meth:`roll`, :meth:`step`,
    :meth:`undo_step`, :meth:`confirm_route`, :meth:`battle_roll`) build an action and
    apply it.  An illegal action raises :class:`IllegalActionError` and changes nothing.
    """

    def __init__(self, setup: GameSetup, dice: DiceSource | None = None) -> None:
        self.setup = setup
        self.board: JapanBoard = japan()
        self.dice: DiceSource = dice if dice is not None else RandomDice(setup.seed)
        self._dice_start = self.dice.to_dict() if hasattr(self.dice, "to_dict") else None
        self.log: list[Action] = []
        self.events: list[dict[str, Any]] = []
        self._ctx: RouteContext | None = None
        self._plan: list[RoutePoint] = []
        n = len(setup.players)
        owner = [NOBODY] * (PREFECTURES + 1)
        level = [NEUTRAL] * (PREFECTURES + 1)
        for seat, p in enumerate(setup.players):
            owner[p.home] = seat
            level[p.home] = HOME
        self.state = GameState(
            owner=owner,
            level=level,
            stored=[0] * (PREFECTURES + 1),
            players=[PlayerState(position=p.home) for p in setup.players],
            order=list(range(n)),
            region_controller={rid: NOBODY for rid in self.board.regions},
            region_full={rid: False for rid in self.board.regions},
        )
        self._emit("game_start", mode=setup.mode, turns=setup.turns, players=[p.name for p in setup.players])
        if setup.roll_for_order:
            self.state.order = self._roll_for_order(list(range(n)))
            self._emit("turn_order", order=list(self.state.order))
        self._start_turn()

    @classmethod
    def at_position(cls, setup: GameSetup, state: GameState, *, actions: int, dice: DiceSource) -> Game:
        """A game at a position with no history (CPUs choosing from a view:
        :func:`conquest_widget.games.japan_conquest.bots.game_from_view`): ``setup`` is
        taken as valid, ``state`` as the position after ``actions`` actions.  Only the log's
        length is known; its entries are None."""
        game = cls.__new__(cls)
        game._init_position(setup, state, actions=actions, dice=dice)
        return game

    def _init_position(self, setup: GameSetup, state: GameState, *, actions: int, dice: DiceSource) -> None:
        self.setup = setup
        self.board = japan()
        self.dice = dice
        self._dice_start = None
        self.log = [None] * actions  # type: ignore[list-item]
        self.events = []
        self._ctx = None
        self._plan = []
        self.state = state

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

        >>> from conquest_widget.games.japan_conquest import Game, GameSetup
        >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"]))
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

    def legal_actions(self) -> list[Action]:
        """Every action legal now."""
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

    # --------------------------------------------------------------- applying
    def apply(self, action: Action) -> None:
        """Apply one action.  Raises :class:`IllegalActionError` (state unchanged) if illegal."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        if self.state.phase == "over":
            raise GameOverError(f"the game is over; {action} is not possible")
        handlers: dict[type, Callable[[Any], None]] = {
            Roll: self._do_roll,
            Step: self._do_step,
            UndoStep: self._do_undo,
            ConfirmRoute: self._do_confirm,
            BattleRoll: self._do_battle_roll,
            Edit: self._do_edit,
        }
        handler = handlers.get(type(action))
        if handler is None:
            raise IllegalActionError(f"unknown action {action!r}")
        handler(action)
        self.log.append(action)

    def roll(self, dice: int = 1) -> tuple[int, ...]:
        """Roll for movement: 1 die, or spend a Double (2) or Triple (3) Dice item.
        Returns the faces rolled."""
        self.apply(Roll(dice))
        return tuple(self.state.roll)

    def step(self, to: PrefectureRef) -> None:
        """Add a prefecture (code or name) to the planned route."""
        try:
            code = self.board.code(to)
        except UnknownPrefectureError as exc:
            raise IllegalActionError(str(exc)) from None
        self.apply(Step(code))

    def undo_step(self) -> None:
        """Remove the last prefecture of the planned route."""
        self.apply(UndoStep())

    def confirm_route(self) -> None:
        """Execute the planned route."""
        self.apply(ConfirmRoute())

    def battle_roll(self, dice: int = 1) -> tuple[int, ...]:
        """Roll in the current battle as attacker or defender, whoever is to act.
        Returns the faces rolled."""
        seat = self.actor
        self.apply(BattleRoll(dice))
        ev = next(e for e in reversed(self.events) if e["type"] == "battle_roll" and e["player"] == seat)
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

    # ------------------------------------------------------------- handlers
    def _require(self, cond: bool, message: str) -> None:
        if not cond:
            raise IllegalActionError(message)

    def _check_dice(self, seat: int, dice: int, purpose: str) -> None:
        self._require(isinstance(dice, int) and not isinstance(dice, bool) and dice in DICE_OPTIONS,
                      f"dice option must be 1, 2 or 3 dice, got {dice!r}")
        if dice > 1:
            self._require(
                self.state.players[seat].items(dice) > 0,
                f"{self.setup.players[seat].name} has no {ITEM_NAMES[dice].title()} Dice item to {purpose} with",
            )

    def _roll_dice(self, n: int) -> tuple[int, ...]:
        """``n`` faces from the dice source, checked (a source is hostile until proven)."""
        faces = tuple(self.dice.roll(n))
        if len(faces) != n or not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= DIE_FACES for f in faces):
            raise DiceSourceError(f"the dice source gave {faces!r} for {n} dice; faces must be integers 1-{DIE_FACES}"[:200])
        return faces

    def _spend_item(self, seat: int, dice: int, purpose: str) -> None:
        if dice == 2:
            self.state.players[seat].doubles -= 1
        elif dice == 3:
            self.state.players[seat].triples -= 1
        else:
            return
        self._emit("item_used", player=seat, item=ITEM_NAMES[dice], purpose=purpose)

    def _do_roll(self, a: Roll) -> None:
        st = self.state
        self._require(st.phase == "roll", f"cannot roll for movement during the {st.phase} phase")
        seat = st.current
        self._check_dice(seat, a.dice, "move")
        faces = self._roll_dice(a.dice)
        self._spend_item(seat, a.dice, "movement")
        st.roll = list(faces)
        st.allowance = sum(faces)
        st.route = []
        st.phase = "route"
        self._invalidate()
        self._emit("roll", player=seat, dice=a.dice, faces=list(faces), allowance=st.allowance)
        ctx = self._context()
        if not ctx.completable(self._route_point()):
            self._emit("no_route", player=seat, allowance=st.allowance)
            st.phase = "roll"
            st.allowance = 0
            self._end_turn()

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

    def _do_step(self, a: Step) -> None:
        after = self._check_step(a.to)
        self.state.route.append(a.to)
        self._plan.append(after)

    def _check_step(self, code: int) -> RoutePoint:
        st = self.state
        self._require(st.phase == "route", f"cannot step during the {st.phase} phase: roll first")
        self._require(
            isinstance(code, int) and not isinstance(code, bool) and 1 <= code <= PREFECTURES, f"unknown prefecture code {code!r}"
        )
        ctx = self._context()
        here = self._route_point()
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
        return after

    def _do_undo(self, a: UndoStep) -> None:
        st = self.state
        self._require(st.phase == "route", f"nothing to undo during the {st.phase} phase")
        self._require(bool(st.route), "the planned route is empty: nothing to undo")
        st.route.pop()
        self._route_point()  # keep the plan cache in step
        if len(self._plan) > len(st.route) + 1:
            self._plan.pop()

    def _do_confirm(self, a: ConfirmRoute) -> None:
        st = self.state
        self._require(st.phase == "route", f"no route to confirm during the {st.phase} phase")
        ctx = self._context()
        end = self._route_point()
        if not ctx.can_end(end):
            if not st.route:
                raise IllegalActionError("the route is empty: step to a neighbouring prefecture first")
            if ctx.forbidden_end[end.pos]:
                raise IllegalActionError("a route may not end on an enemy home base")
            raise IllegalActionError(
                f"{end.remaining} movement left: use it all, or end early only at your own base, castle or home base"
            )
        seat = st.current
        route = list(st.route)
        prev = st.players[seat].position
        broken = 0
        last = len(route) - 1
        for i, code in enumerate(route):
            cost = ctx.step_cost(prev, code, broken)
            broken |= ctx.breaks[code]
            owner, lv = st.owner[code], st.level[code]
            self._emit("move", player=seat, pref=code, frm=prev, cost=cost)
            if owner not in (NOBODY, seat):
                if ctx.toll[code]:
                    toll = ctx.toll[code]
                    st.players[seat].banked -= toll
                    st.players[owner].banked += toll
                    self._emit("toll", player=seat, to_player=owner, pref=code, amount=toll, level=LEVEL_NAMES[lv])
                elif lv == TERRITORY and i < last:  # passing through; stopping there captures it
                    st.owner[code], st.level[code] = NOBODY, NEUTRAL
                    self._emit("neutralised", player=seat, from_player=owner, pref=code, points=-self._value(code, TERRITORY))
                    self._refresh_regions()
            prev = code
        st.players[seat].position = prev
        st.route = []
        st.allowance = 0
        self._invalidate()
        self._emit("route_done", player=seat, route=route)
        self._stop_at(seat, prev)

    def _stop_at(self, seat: int, code: int) -> None:
        st = self.state
        owner, lv = st.owner[code], st.level[code]
        if owner == NOBODY:
            st.owner[code], st.level[code] = seat, TERRITORY
            self._emit("claimed", player=seat, pref=code, level="territory", points=self._value(code, TERRITORY))
        elif owner == seat:
            if lv in (TERRITORY, BASE):
                st.level[code] = lv + 1
                self._emit(
                    "upgraded", player=seat, pref=code, level=LEVEL_NAMES[lv + 1], frm=LEVEL_NAMES[lv],
                    points=self._value(code, lv + 1) - self._value(code, lv),
                )
            else:
                self._emit("stayed", player=seat, pref=code, level=LEVEL_NAMES[lv])
        elif lv == TERRITORY:
            st.owner[code], st.level[code] = seat, BASE
            self._emit("captured", player=seat, from_player=owner, pref=code, level="base", points=self._value(code, BASE))
        else:  # enemy base or castle: battle
            parts = self.defence_bonus_parts(code)
            bonus = sum(parts.values())
            st.battle = BattleState(pref=code, attacker=seat, defender=owner, bonus=bonus, bonus_parts=parts)
            st.phase = "battle_attack"
            self._emit("battle_start", player=seat, defender=owner, pref=code, level=LEVEL_NAMES[lv], bonus=bonus, bonus_parts=parts)
            return
        self._invalidate()
        self._refresh_regions()
        if not self._check_conquest_end():
            self._end_turn()

    def _do_battle_roll(self, a: BattleRoll) -> None:
        st = self.state
        self._require(st.phase in ("battle_attack", "battle_defend"), f"no battle in progress (phase {st.phase})")
        b = st.battle
        assert b is not None
        seat = self.actor
        self._check_dice(seat, a.dice, "fight")
        faces = list(self._roll_dice(a.dice))
        self._spend_item(seat, a.dice, "battle")
        if st.phase == "battle_attack":
            b.attack_dice, b.attack_roll = a.dice, faces
            st.phase = "battle_defend"
            self._emit("battle_roll", player=seat, side="attacker", dice=a.dice, faces=faces, total=sum(faces), pref=b.pref)
            return
        attack = sum(b.attack_roll or [])
        defence = sum(faces) + b.bonus
        self._emit("battle_roll", player=seat, side="defender", dice=a.dice, faces=faces, total=defence, bonus=b.bonus, pref=b.pref)
        lv = st.level[b.pref]
        if attack > defence:
            st.owner[b.pref] = b.attacker
            st.players[b.attacker].banked += BATTLE_BONUS
            winner = b.attacker
        else:
            st.players[b.defender].banked += DEFENCE_BONUS
            winner = b.defender
        self._emit(
            "battle_result", player=b.attacker, defender=b.defender, pref=b.pref, attack=attack, defence=defence,
            bonus=b.bonus, winner=winner, attacker_won=winner == b.attacker, level=LEVEL_NAMES[lv],
            points=BATTLE_BONUS if winner == b.attacker else DEFENCE_BONUS,
        )
        st.battle = None
        st.phase = "roll"
        self._invalidate()
        self._refresh_regions()
        if not self._check_conquest_end():
            self._end_turn()

    # ------------------------------------------------------------ turn flow
    def _start_turn(self) -> None:
        st = self.state
        seat = st.current
        p = st.players[seat]
        turn = p.turns_done + 1
        st.phase, st.allowance, st.roll, st.route = "roll", 0, [], []
        self._invalidate()
        self._emit("turn_start", player=seat)
        collected, prefs = 0, []
        for c in self.board.codes:
            if st.owner[c] == seat and st.level[c] >= CASTLE and st.stored[c]:
                collected += st.stored[c]
                prefs.append(c)
                st.stored[c] = 0
        if collected:
            p.banked += collected
            self._emit("prosperity_collected", player=seat, amount=collected, prefs=prefs, points=collected)
        for rid, full in st.region_full.items():
            if full and st.region_controller[rid] == seat:
                pay = REGION_BONUS_PER_PREFECTURE * len(self.board.regions[rid].members)
                p.banked += pay
                self._emit("full_control_paid", player=seat, region=rid, amount=pay, points=pay)
        if turn > TRIPLE_DICE_EVERY and (turn - 1) % TRIPLE_DICE_EVERY == 0:
            p.triples += 1
            self._emit("item_received", player=seat, item="triple", reason="turn", turn_number=turn)
        if self._is_stranded(seat):
            p.defeated = True
            st.defeated = seat
            self._emit("defeated", player=seat, pref=p.position)
            self._finish("defeat")

    def _is_stranded(self, seat: int) -> bool:
        """True when no allowance the player could obtain this turn admits a legal route."""
        p = self.state.players[seat]
        ctx = self._context()
        top = DIE_FACES * max(d for d in DICE_OPTIONS if p.items(d) > 0)  # the most movement a roll can give
        low = 1
        return not any(ctx.completable(ctx.start(p.position, a, p.banked)) for a in range(low, top + 1))

    def _end_turn(self) -> None:
        st = self.state
        seat = st.current
        stored_total, prefs = 0, []
        for c in self.board.codes:
            if st.owner[c] == seat and st.level[c] >= CASTLE:
                add = PROSPERITY_HOME if st.level[c] == HOME else PROSPERITY_CASTLE
                st.stored[c] += add
                stored_total += add
                prefs.append(c)
        if stored_total:
            self._emit("prosperity_stored", player=seat, amount=stored_total, prefs=prefs)
        self._emit("turn_end", player=seat)
        st.players[seat].turns_done += 1
        if self.setup.mode == "standard" and all(p.turns_done >= (self.setup.turns or 0) for p in st.players):
            self._finish("turns")
            return
        st.turn_index = (st.turn_index + 1) % len(st.order)
        self._start_turn()

    def _check_conquest_end(self) -> bool:
        mode = self.setup.mode
        if mode == "standard":
            return False
        need = BASE if mode == "conquest" else CASTLE
        if all(self.state.level[c] >= need for c in self.board.codes):
            self._finish(mode)
            return True
        return False

    def _finish(self, reason: str) -> None:
        st = self.state
        st.phase = "over"
        st.end_reason = reason
        st.battle = None
        st.route, st.allowance = [], 0
        self._invalidate()
        standings = self.ranking()
        self._emit(
            "game_end", reason=reason, standings=standings, winners=[r["seat"] for r in standings if r["rank"] == 1],
            decisive=reason == "defeat",
        )

    def _roll_for_order(self, seats: list[int]) -> list[int]:
        faces = {s: self._roll_dice(1)[0] for s in seats}
        self._emit("order_roll", rolls={str(s): f for s, f in faces.items()})
        out: list[int] = []
        for value in sorted(set(faces.values()), reverse=True):
            group = [s for s in seats if faces[s] == value]
            out.extend(group if len(group) == 1 else self._roll_for_order(group))
        return out

    # ------------------------------------------------------------- regions
    def _refresh_regions(self, award: bool = True) -> None:
        st = self.state
        for rid, region in self.board.regions.items():
            owners = {st.owner[c] for c in region.members}
            ctrl = owners.pop() if len(owners) == 1 else NOBODY
            full = ctrl != NOBODY and all(st.level[c] >= CASTLE for c in region.members)
            prev_ctrl, prev_full = st.region_controller[rid], st.region_full[rid]
            if prev_full and (not full or prev_ctrl != ctrl):
                self._emit("full_control_lost", player=prev_ctrl, region=rid)
            if prev_ctrl != ctrl and prev_ctrl != NOBODY:
                self._emit("region_lost", player=prev_ctrl, region=rid, points=-REGION_BONUS_PER_PREFECTURE * len(region.members))
            st.region_controller[rid], st.region_full[rid] = ctrl, full
            if ctrl != NOBODY and prev_ctrl != ctrl:
                self._emit("region_gained", player=ctrl, region=rid, points=REGION_BONUS_PER_PREFECTURE * len(region.members))
                p = st.players[ctrl]
                if rid not in p.regions_ever:  # editor-made control counts as had, but earns nothing
                    p.regions_ever.append(rid)
                    if award:
                        p.doubles += 1
                        self._emit("item_received", player=ctrl, item="double", reason="first_region_control", region=rid)
            if full and not (prev_full and prev_ctrl == ctrl):
                self._emit("full_control_gained", player=ctrl, region=rid)
                p = st.players[ctrl]
                if rid not in p.full_ever:
                    p.full_ever.append(rid)
                    if award:
                        p.triples += 1
                        self._emit("item_received", player=ctrl, item="triple", reason="first_full_control", region=rid)

    # -------------------------------------------------------------- helpers
    def _value(self, code: int, level: int) -> int:
        return self.board.prefectures[code - 1].base_value * LEVEL_MULTIPLIER[level]

    def _emit(self, kind: str, **data: Any) -> None:
        st = getattr(self, "state", None)
        ev = {"seq": len(self.events), "type": kind}
        if st is not None and st.phase != "over" and kind != "game_end":
            ev["turn"] = st.players[st.current].turns_done + 1
        ev.update(data)
        self.events.append(ev)

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
        self.apply(Edit("prefecture", args))

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
        self.apply(Edit("player", args))

    def edit_turn(self, seat: int, turn: int | None = None) -> None:
        """Position editor: make it ``seat``'s turn (at the roll), optionally on turn number
        ``turn`` (players before ``seat`` in turn order have then completed ``turn`` turns,
        the others ``turn - 1``).  No start-of-turn effects are applied."""
        args: dict[str, Any] = {"seat": seat}
        if turn is not None:
            args["turn"] = turn
        self.apply(Edit("turn", args))

    def _do_edit(self, a: Edit) -> None:
        st = self.state
        self._require(st.phase == "roll", f"the position editor works between moves (roll phase), not during {st.phase}")
        n = len(st.players)
        args = a.args

        def seat_ok(s: Any) -> bool:
            return isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n

        def count_ok(v: Any) -> bool:
            return isinstance(v, int) and not isinstance(v, bool) and v >= 0

        if a.op == "prefecture":
            code: Any = args.get("pref")
            self._require(isinstance(code, int) and 1 <= code <= PREFECTURES, f"unknown prefecture {code!r}")
            name = self.board.prefectures[code - 1].name_en
            self._require(st.level[code] != HOME, f"{name} is a home base: home bases cannot be edited")
            owner = args.get("owner")
            self._require(owner is None or seat_ok(owner), f"owner must be a seat 0-{n - 1} or None, got {owner!r}")
            if owner is None:
                lv_name = args.get("level", "neutral")
                self._require(lv_name == "neutral", f"an unowned prefecture is neutral, not {lv_name!r}")
                lv = NEUTRAL
            else:
                default = LEVEL_NAMES[st.level[code]] if st.level[code] else "territory"
                lv_name = args.get("level", default)
                self._require(
                    lv_name in ("territory", "base", "castle"),
                    f"level must be territory, base or castle, got {lv_name!r}",
                )
                lv = LEVEL_BY_NAME[lv_name]
            stored = args.get("stored", st.stored[code] if lv >= CASTLE else 0)
            self._require(count_ok(stored), f"stored prosperity must be a whole number >= 0, got {stored!r}")
            self._require(stored == 0 or lv >= CASTLE, "only castles and home bases store prosperity")
            st.owner[code] = NOBODY if owner is None else owner
            st.level[code] = lv
            st.stored[code] = stored
            self._refresh_regions(award=False)
        elif a.op == "player":
            seat: Any = args.get("seat")
            self._require(seat_ok(seat), f"seat must be 0-{n - 1}, got {seat!r}")
            pos = args.get("position")
            self._require(pos is None or (isinstance(pos, int) and 1 <= pos <= PREFECTURES), f"unknown prefecture {pos!r}")
            for k in ("banked", "doubles", "triples"):
                if k in args:
                    self._require(count_ok(args[k]), f"{k} must be a whole number >= 0, got {args[k]!r}")
            p = st.players[seat]
            if pos is not None:
                p.position = pos
            for k in ("banked", "doubles", "triples"):
                if k in args:
                    setattr(p, k, args[k])
        elif a.op == "turn":
            seat = args.get("seat")
            self._require(seat_ok(seat), f"seat must be 0-{n - 1}, got {seat!r}")
            turn = args.get("turn", st.players[seat].turns_done + 1)
            limit = self.setup.turns if self.setup.mode == "standard" else None
            self._require(
                isinstance(turn, int) and turn >= 1 and (limit is None or turn <= limit),
                f"turn number must be 1-{limit if limit else 'any'}, got {turn!r}",
            )
            idx = st.order.index(seat)
            for i, s in enumerate(st.order):
                st.players[s].turns_done = turn if i < idx else turn - 1
            st.turn_index = idx
        else:
            raise IllegalActionError(f"unknown editor operation {a.op!r}")
        self._invalidate()
        self._emit("edited", op=a.op, args=dict(args))

    # --------------------------------------------------------- serialization
    def snapshot(self) -> dict[str, Any]:
        """The current state as plain data (equal for equal states)."""
        return self.state.snapshot()

    def to_dict(self) -> dict[str, Any]:
        """Setup, dice source, action log and state snapshot as JSON-compatible data."""
        if self._dice_start is None:
            raise SerializationError(f"the dice source {self.dice!r} cannot be serialized (it has no to_dict())")
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "setup": self.setup.to_dict(),
            "dice": copy.deepcopy(self._dice_start),
            "log": [a.to_dict() for a in self.log],
            "snapshot": self.snapshot(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, verify: bool = True) -> Game:
        """Rebuild a game by replaying its log; refuses data whose snapshot differs from the replay."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SerializationError(f"not a Japan Conquest game: expected format {FORMAT!r}")
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise SerializationError(f"unsupported game format version {version!r} (this version reads {FORMAT_VERSION})")
        try:
            setup = GameSetup.from_dict(data["setup"])
            dice = dice_from_dict(data["dice"])
            log = [action_from_dict(a) for a in data["log"]]
        except SerializationError:
            raise
        except SetupError as exc:
            raise SerializationError(f"the saved setup is invalid: {exc}") from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SerializationError(f"malformed game data: missing or bad {exc!r}") from exc
        try:
            game = cls.replay(setup, log, dice)
        except DiceExhaustedError as exc:  # the start itself rolls (roll for order)
            raise SerializationError(f"the saved game cannot be replayed: its start needs more dice than were saved: {exc}") from None
        except (OverflowError, DiceSourceError) as exc:
            raise SerializationError(f"the saved game cannot be replayed: {exc}") from None
        except RecursionError:
            raise SerializationError("the saved game cannot be replayed: its dice nest too deeply (endless ties)") from None
        if verify and "snapshot" in data and game.snapshot() != data["snapshot"]:
            raise SerializationError("the saved snapshot does not match the replayed action log (corrupt or edited save)")
        return game

    @classmethod
    def replay(cls, setup: GameSetup, log: Iterable[Action], dice: DiceSource | None = None) -> Game:
        """A new game from ``setup`` with every action of ``log`` applied in order."""
        game = cls(setup, dice)
        for i, action in enumerate(log):
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise SerializationError(f"action {i} ({action}) of the log is illegal on replay: {exc}") from exc
            except DiceExhaustedError as exc:
                raise SerializationError(f"action {i} ({action}) of the log needs more dice than were saved: {exc}") from exc
        return game

    def copy(self) -> Game:
        """An independent copy (same dice position).  The board and the setup are
        immutable and shared, not copied."""
        return copy.deepcopy(self, {id(self.board): self.board, id(self.setup): self.setup})

    #: bumped by :meth:`restore`, so that caches keyed on a game (the CPUs') see a new position
    _epoch: int = 0

    def checkpoint(self) -> GameCheckpoint:
        """A small record of this point of the game to come back to with :meth:`restore`:
        a copy of the state, the log and events so far (entries shared, never changed
        once made) and a copy of the dice source.  No copy of the board or the game.

        >>> from conquest_widget.games.japan_conquest import Game, GameSetup
        >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"], seed=3)); g.roll()
        (2,)
        >>> point = g.checkpoint(); before = g.snapshot()
        >>> g.step(g.legal_steps()[0]); g.undo_step(); g.step(g.legal_steps()[-1])
        >>> g.restore(point)
        >>> g.snapshot() == before, len(g.log), point.position
        (True, 1, 1)
        """
        return GameCheckpoint(self.setup, self.state.copy(), tuple(self.log), tuple(self.events), copy_dice(self.dice))

    def restore(self, point: GameCheckpoint) -> None:
        """Make this game exactly what it was at ``point`` (from :meth:`checkpoint` of this
        game or of another game with the same setup): state, action log, events and dice
        position.  The checkpoint itself is left unchanged, so it can be restored again.
        Raises :class:`WrongGameError` for anything else (this game is then unchanged)."""
        if not isinstance(point, GameCheckpoint):
            raise WrongGameError(f"restore() takes a GameCheckpoint from Game.checkpoint(), got {type(point).__name__}")
        if point.setup != self.setup:
            raise WrongGameError("the checkpoint belongs to a game with another setup")
        self.state = point.state.copy()
        self.log[:] = point.log
        self.events[:] = point.events
        self.dice = copy_dice(point.dice)
        self._invalidate()
        self._epoch += 1

    def __repr__(self) -> str:
        names = ", ".join(p.name for p in self.setup.players)
        return f"<Game {self.setup.mode} [{names}] phase={self.phase} turn={self.turn_number()}>"
