"""The rules of Japan Conquest: how each action changes a match's state.

:class:`JapanRules` is the rules half of :class:`~.match.JapanMatch` (a mixin; the read
methods are in :mod:`.queries`): :meth:`~JapanRules._begin` sets up the board and the
first turn, :meth:`~JapanRules._dispatch` applies one (legal) action -- a roll, a route
step, its undo, the route's confirmation, a battle roll, a position edit -- with the turn
flow that follows (stops, battles, regions, prosperity, the end).  Every die is a logged
chance outcome (``self.chance``); every event goes out through ``self.emit``, without its
point figures for everyone during the Final Showdown (:func:`redacted`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from conquest_widget.errors import DiceSourceError, IllegalActionError
from conquest_widget.games.japan_conquest.actions import Action, BattleRoll, ConfirmRoute, Edit, Roll, Step, UndoStep
from conquest_widget.games.japan_conquest.dice import DiceSource
from conquest_widget.games.japan_conquest.movement import NOBODY
from conquest_widget.games.japan_conquest.queries import JapanQueries
from conquest_widget.games.japan_conquest.rules import (
    BASE,
    BATTLE_BONUS,
    CASTLE,
    DEFENCE_BONUS,
    DICE_OPTIONS,
    DIE_FACES,
    FINAL_SHOWDOWN_TURNS,
    HOME,
    LEVEL_BY_NAME,
    LEVEL_MULTIPLIER,
    LEVEL_NAMES,
    NEUTRAL,
    PREFECTURES,
    PROSPERITY_CASTLE,
    PROSPERITY_HOME,
    REGION_BONUS_PER_PREFECTURE,
    TERRITORY,
    TRIPLE_DICE_EVERY,
)
from conquest_widget.games.japan_conquest.setup import GameSetup
from conquest_widget.games.japan_conquest.state import BattleState, GameState, PlayerState

if TYPE_CHECKING:
    from conquest_widget.core.chance import Chance

ITEM_NAMES = {2: "double", 3: "triple"}
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


class NeedsDice(Exception):
    """Raised by a trial application (see ``JapanMatch._explain``) that gets as far as
    rolling: the action is legal up to there."""


class JapanRules(JapanQueries):
    """The rules (a mixin of :class:`~.match.JapanMatch`, which gives ``chance``, ``emit``
    and ``script``)."""

    chance: Chance
    #: the dice that decide new rolls instead of the seed (None = the seed)
    script: DiceSource | None
    #: set while ``_explain`` tries an action: a roll then raises :class:`NeedsDice`
    _trial: bool = False

    if TYPE_CHECKING:
        def emit(self, data: Mapping[str, Any], *, visible_to: tuple[int, ...] | None = None,
                 public: Mapping[str, Any] | None = None) -> None: ...

    # ------------------------------------------------------------ the start
    def _begin(self) -> None:
        """The position before the first action: homes, turn order, the first turn."""
        setup = self.setup
        self._ctx = None
        self._plan = []
        self._emit("game_start", mode=setup.mode, turns=setup.turns, players=[p.name for p in setup.players])
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
        if setup.roll_for_order:
            self.state.order = self._roll_for_order(list(range(n)))
            self._emit("turn_order", order=list(self.state.order))
        self._start_turn()

    def _dispatch(self, action: Action) -> None:
        """Apply one action (raises :class:`IllegalActionError` before changing anything
        if it is illegal here)."""
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

    # ------------------------------------------------------------- handlers
    def _check_dice(self, seat: int, dice: int, purpose: str) -> None:
        self._require(isinstance(dice, int) and not isinstance(dice, bool) and dice in DICE_OPTIONS,
                      f"dice option must be 1, 2 or 3 dice, got {dice!r}")
        if dice > 1:
            self._require(
                self.state.players[seat].items(dice) > 0,
                f"{self.setup.players[seat].name} has no {ITEM_NAMES[dice].title()} Dice item to {purpose} with",
            )

    def _roll_dice(self, n: int) -> tuple[int, ...]:
        """``n`` faces, a logged chance outcome.  A script's faces (checked: a source is
        hostile until proven) are forced outcomes; without one the match's seed decides."""
        if self._trial:
            raise NeedsDice
        if self.script is not None and not self.chance.forced:
            faces = tuple(self.script.roll(n))
            if len(faces) != n or not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= DIE_FACES for f in faces):
                raise DiceSourceError(f"the dice source gave {faces!r} for {n} dice; faces must be integers 1-{DIE_FACES}"[:200])
            self.chance.forced.append(list(faces))
        return self.chance.roll(n, DIE_FACES)

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

    def _do_step(self, a: Step) -> None:
        after = self._check_step(a.to)
        self.state.route.append(a.to)
        self._plan.append(after)

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
            st.battle = BattleState(pref=code, attacker=seat, defender=owner, bonus=bonus, bonus_parts=dict(parts))
            st.phase = "battle_attack"
            self._emit("battle_start", player=seat, defender=owner, pref=code, level=LEVEL_NAMES[lv], bonus=bonus, bonus_parts=dict(parts))
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
            self._emit("battle_roll", player=seat, side="attacker", dice=a.dice, faces=list(faces), total=sum(faces), pref=b.pref)
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

    # -------------------------------------------------------------- helpers
    def _value(self, code: int, level: int) -> int:
        return self.board.prefectures[code - 1].base_value * LEVEL_MULTIPLIER[level]

    def _emit(self, kind: str, **data: Any) -> None:
        """An event; during the Final Showdown its point figures are visible to nobody
        (the public copy is without them).  Its values are fresh objects, never a list or
        dict the state keeps (so the match's ``emit`` need not copy them deeply)."""
        st = getattr(self, "state", None)
        ev: dict[str, Any] = {"seq": len(self.events), "type": kind}
        if st is not None and st.phase != "over" and kind != "game_end":
            ev["turn"] = st.players[st.current].turns_done + 1
        ev.update(data)
        if any(k in ev for k in POINT_FIELDS) and in_showdown(self.setup, ev):
            self.emit(ev, visible_to=(), public=redacted(self.setup, ev))
        else:
            self.emit(ev)
