"""CPU players: 3 difficulties x 4 strategies.

A CPU makes every decision a human makes: the dice option for movement, the whole
route (any legal route: early stops at its own bases, detours, toll avoidance),
the attack dice and, after seeing the attacker's roll, the defence dice.

- **Strategy** is what it values: *aggressive* favours enemy bases and castles and
  saves dice items for battles; *expansionist* favours unclaimed prefectures;
  *defensive* favours upgrading to bases and castles; *balanced* weighs all.
- **Difficulty** is how consistently it picks strong moves: *easy* often settles for
  weaker moves (noise and random picks), *normal* evaluates every route of this
  turn, *hard* also looks one turn ahead (what the stop sets up next turn).

Decisions are deterministic: a CPU's randomness comes from a stream derived from the
game's seed, the seat and the position in the action log, so a replay or a reloaded
save makes the same choices.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup
    >>> setup = GameSetup(players=(PlayerSetup("A", 13, cpu=True, difficulty="hard"),
    ...                            PlayerSetup("B", 27, cpu=True, strategy="aggressive")), turns=5, seed=4)
    >>> game = JapanMatch(setup)
    >>> actions = play_cpu_turns(game)    # CPU-only: plays to the end
    >>> game.is_over
    True
"""

from __future__ import annotations

import math
import random
import weakref
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.japan_conquest.actions import (
    Action,
    BattleRoll,
    ConfirmRoute,
    Roll,
    Step,
)
from conquest_widget.games.japan_conquest.movement import NOBODY, RouteContext
from conquest_widget.games.japan_conquest.odds import (
    attacker_win_probability,
    defence_win_given_attack,
    sum_distribution,
)
from conquest_widget.games.japan_conquest.routes import RouteOption, route_options
from conquest_widget.games.japan_conquest.rules import (
    BASE,
    BATTLE_BONUS,
    CASTLE,
    DEFENCE_BONUS,
    HOME,
    LEVEL_MULTIPLIER,
    NEUTRAL,
    PREFECTURE_CODES,
    PREFECTURES,
    PROSPERITY_CASTLE,
    REGION_BONUS_PER_PREFECTURE,
    TERRITORY,
    TOLL_CASTLE,
    TOLL_HOME,
)

if TYPE_CHECKING:  # pragma: no cover
    from conquest_widget.games.japan_conquest.match import JapanMatch


@dataclass(frozen=True)
class Profile:
    """What a strategy values (multipliers on points) and how it treats items."""

    claim: float = 1.0
    upgrade: float = 1.0
    capture: float = 1.0
    battle: float = 1.0
    castle: float = 1.0  # extra multiplier on upgrading a base to a castle
    harm: float = 0.5  # value of points taken from opponents, relative to own points
    move_item_cost: float = 1.0  # multiplier on an item's value when spent for movement
    battle_item_cost: float = 1.0  # ... when spent in battle


PROFILES: dict[str, Profile] = {
    "balanced": Profile(upgrade=0.8),  # weighs all; upgrades a little less than defensive does
    "aggressive": Profile(claim=0.7, upgrade=0.6, capture=1.6, battle=2.6, harm=0.8, move_item_cost=4.0, battle_item_cost=0.25),
    "expansionist": Profile(claim=2.0, upgrade=0.6, capture=1.0, battle=0.6, harm=0.4, move_item_cost=0.8),
    "defensive": Profile(claim=1.1, upgrade=2.5, castle=2.5, capture=1.2, battle=0.7, harm=0.4, battle_item_cost=1.5),
}

#: base value (in points) of keeping a Double / Triple Dice item
ITEM_VALUE = {1: 0.0, 2: 14.0, 3: 22.0}


@dataclass(frozen=True)
class Skill:
    """How consistently a difficulty picks the best option."""

    noise: float  # relative noise on option values
    blunder: float  # chance of picking a random option
    lookahead: float  # weight of next-turn potential (0 = none)
    dice_sense: bool  # chooses the movement dice option by expected value


SKILLS: dict[str, Skill] = {
    "easy": Skill(noise=0.6, blunder=0.35, lookahead=0.0, dice_sense=False),
    "normal": Skill(noise=0.12, blunder=0.0, lookahead=0.0, dice_sense=True),
    "hard": Skill(noise=0.0, blunder=0.0, lookahead=0.45, dice_sense=True),
}


class CpuPlayer:
    """The decision maker for one seat.  ``choose(game)`` returns the action to apply."""

    def __init__(self, seat: int, difficulty: str = "normal", strategy: str = "balanced") -> None:
        self.seat = seat
        self.difficulty = difficulty
        self.strategy = strategy
        self.profile = PROFILES[strategy]
        self.skill = SKILLS[difficulty]
        self._plan: tuple[int, tuple[int, ...]] | None = None  # (log length at plan time, steps)
        self._cache_key: tuple | None = None
        # values of this decision's position (cleared when the position changes)
        self._stop_cache: dict[tuple[int, int], float] = {}
        self._neut_cache: dict[int, float] = {}
        self._progress_cache: dict[tuple[int, int], float] = {}
        self._pot_cache: dict[tuple[int, int], float] = {}
        self._pot_tables: dict[int, tuple[list[float], float, list]] = {}
        self._stop_row: list[float] | None = None
        # the last route search: (position fingerprint, max allowance, options by allowance)
        self._route_memo: tuple[tuple, int, dict[int, list[RouteOption]]] | None = None

    # ------------------------------------------------------------ entry point
    def choose(self, game: JapanMatch) -> Action:
        """The action this CPU takes now (it must be the actor)."""
        if game.actor != self.seat or game.is_over:
            raise IllegalActionError(f"it is not seat {self.seat}'s decision")
        rng = _rng_for(game, self.seat)
        key = (id(game), game._epoch, game.action_count - len(game.route), game.phase)
        if key != self._cache_key:  # values depend on the position only; reuse them within a decision
            self._cache_key = key
            self._stop_cache.clear()
            self._neut_cache.clear()
            self._progress_cache.clear()
            self._pot_cache.clear()
            self._pot_tables.clear()
            self._stop_row = None
        phase = game.phase
        if phase == "roll":
            return Roll(self._choose_move_dice(game, rng))
        if phase == "route":
            return self._next_route_action(game, rng)
        if phase == "battle_attack":
            return BattleRoll(self._choose_attack_dice(game, rng))
        if phase == "battle_defend":
            return BattleRoll(self._choose_defence_dice(game, rng))
        raise IllegalActionError(f"no CPU decision in phase {phase!r}")

    # ------------------------------------------------------------ evaluation
    def _turns_left(self, game: JapanMatch) -> int:
        if game.setup.mode == "standard" and game.setup.turns:
            return max(1, game.setup.turns - game.turn_number(self.seat) + 1)
        return 20

    def _item_cost(self, game: JapanMatch, dice: int, purpose: str) -> float:
        base = ITEM_VALUE[dice]
        if not base:
            return 0.0
        mult = self.profile.move_item_cost if purpose == "move" else self.profile.battle_item_cost
        left = self._turns_left(game)
        have = game.state.players[self.seat].doubles if dice == 2 else game.state.players[self.seat].triples
        scarcity = 1.0 if have <= 1 else 0.6
        return base * mult * scarcity * min(1.0, left / 8)

    def _battle_value(self, game: JapanMatch, code: int, *, win_p: float) -> float:
        st = game.state
        owner, lv = st.owner[code], st.level[code]
        value = game.board.prefectures[code - 1].base_value * LEVEL_MULTIPLIER[lv]
        p = self.profile
        gain = value + p.harm * value + BATTLE_BONUS + self._region_swing(game, code, owner)
        loss = p.harm * DEFENCE_BONUS
        if lv == CASTLE:
            gain += st.stored[code] * 0.8
        return p.battle * (win_p * gain - (1 - win_p) * loss)

    def _region_swing(self, game: JapanMatch, code: int, loser: int) -> float:
        """Value of taking ``code`` away from ``loser``: breaking their region control and
        (for the mover) completing one's own."""
        st = game.state
        rid = game.board.prefectures[code - 1].region
        members = game.board.regions[rid].members
        bonus = REGION_BONUS_PER_PREFECTURE * len(members)
        swing = 0.0
        if loser != NOBODY and st.region_controller[rid] == loser:
            swing += self.profile.harm * bonus * (2.0 if st.region_full[rid] else 1.0)
        if all(st.owner[c] == self.seat for c in members if c != code):
            swing += bonus + (ITEM_VALUE[2] if rid not in st.players[self.seat].regions_ever else 0)
        return swing

    def _defence_bonus(self, game: JapanMatch, code: int) -> int:
        return sum(game.defence_bonus_parts(code).values())

    def _win_probability(self, game: JapanMatch, code: int, *, best_item: bool) -> float:
        st = game.state
        owner = st.owner[code]
        mine = st.players[self.seat]
        dice = 1
        if best_item:
            dice = 3 if mine.triples else 2 if mine.doubles else 1
        items = {"double": st.players[owner].doubles, "triple": st.players[owner].triples}
        p = float(attacker_win_probability(dice, self._defence_bonus(game, code), items))
        if self.difficulty == "easy" and self.strategy == "aggressive":
            p = max(p, 0.65)  # reckless: little regard for the odds
        return p

    def stop_value(self, game: JapanMatch, code: int, neutralised: int = 0) -> float:
        """Value, in (weighted) points, of ending the movement on ``code`` after a route
        that neutralised the territories in the bitmask ``neutralised``.

        Of ``neutralised`` only the stop's own bit changes the value (it makes the stop
        neutral): the other bits are enemy territories, and the value looks at other
        prefectures only where they are the CPU's own.  So the value is cached on
        ``(code, own bit)``."""
        key = (code, neutralised >> code & 1)
        v = self._stop_cache.get(key)
        if v is None:
            v = self._stop_cache[key] = self._stop_value(game, code, neutralised & (1 << code))
        return v

    def _stop_value(self, game: JapanMatch, code: int, neutralised: int) -> float:
        st = game.state
        pref = game.board.prefectures[code - 1]
        base = pref.base_value
        p = self.profile
        owner = NOBODY if neutralised >> code & 1 else st.owner[code]
        lv = NEUTRAL if owner == NOBODY else st.level[code]
        left = self._turns_left(game)
        if owner == NOBODY:
            return p.claim * (base + self._completion_bonus(game, code, neutralised))
        if owner == self.seat:
            if lv == TERRITORY:
                return p.upgrade * base
            if lv == BASE:
                prosperity = PROSPERITY_CASTLE * min(left - 1, 6) * 0.6
                return p.upgrade * p.castle * (base + prosperity + self._full_bonus(game, code))
            return 0.0
        if lv == TERRITORY:
            return p.capture * (2 * base + p.harm * base + self._region_swing(game, code, owner))
        if lv in (BASE, CASTLE):
            aggressive = self.strategy == "aggressive"
            return self._battle_value(game, code, win_p=self._win_probability(game, code, best_item=aggressive))
        return -1e9  # enemy home base: never a legal end anyway

    def _completion_bonus(self, game: JapanMatch, code: int, neutralised: int) -> float:
        st = game.state
        rid = game.board.prefectures[code - 1].region
        members = game.board.regions[rid].members
        if all(st.owner[c] == self.seat and not neutralised >> c & 1 for c in members if c != code):
            return REGION_BONUS_PER_PREFECTURE * len(members) + (ITEM_VALUE[2] if rid not in st.players[self.seat].regions_ever else 0)
        return 0.0

    def _full_bonus(self, game: JapanMatch, code: int) -> float:
        st = game.state
        rid = game.board.prefectures[code - 1].region
        members = game.board.regions[rid].members
        if all(st.owner[c] == self.seat and (st.level[c] >= CASTLE or c == code) for c in members):
            return REGION_BONUS_PER_PREFECTURE * len(members) * min(self._turns_left(game) - 1, 4) * 0.6 + ITEM_VALUE[3]
        return 0.0

    def _neutralise_value(self, game: JapanMatch, mask: int) -> float:
        if not mask:
            return 0.0
        v = self._neut_cache.get(mask)
        if v is None:
            v = self._neut_cache[mask] = self._neutralise_points(game, mask)
        return v

    def _neutralise_points(self, game: JapanMatch, mask: int) -> float:
        st = game.state
        total = 0.0
        broken: set[str] = set()
        for code in PREFECTURE_CODES:
            if mask >> code & 1:
                total += game.board.prefectures[code - 1].base_value
                rid = game.board.prefectures[code - 1].region
                if st.region_controller[rid] == st.owner[code]:
                    broken.add(rid)
        total += sum(REGION_BONUS_PER_PREFECTURE * len(game.board.regions[r].members) for r in broken)
        return self.profile.harm * total

    def option_value(self, game: JapanMatch, opt: RouteOption) -> float:
        """Value of a complete route: its stop, neutralisations, tolls and (hard) what it sets up."""
        value = self.stop_value(game, opt.end, opt.neutralised)
        value += self._neutralise_value(game, opt.neutralised)
        value -= opt.tolls * (1 + self.profile.harm)
        if self.skill.lookahead:
            value += self.skill.lookahead * self._potential(game, opt.end, opt.neutralised)
        if game.setup.mode != "standard":
            value += self._conquest_progress(game, opt.end, opt.neutralised)
        return value

    def _conquest_progress(self, game: JapanMatch, end: int, neutralised: int) -> float:
        """Conquest modes end when every prefecture is a base (castle) or better: value a
        stop that brings one more prefecture there, and being near those still missing,
        more strongly as the country nears the goal (otherwise remote stragglers such as
        Okinawa would keep a CPU-only game going for ever)."""
        key = (end, neutralised >> end & 1)  # only the end's own bit matters
        cached = self._progress_cache.get(key)
        if cached is not None:
            return cached
        st = game.state
        need = BASE if game.setup.mode == "conquest" else CASTLE
        missing = [c for c in PREFECTURE_CODES if st.level[c] < need]
        progress = 1 - len(missing) / PREFECTURES
        owner = NOBODY if neutralised >> end & 1 else st.owner[end]
        level = st.level[end] if owner != NOBODY else NEUTRAL
        if owner == self.seat:
            after = min(level + 1, CASTLE) if level in (TERRITORY, BASE) else level
        elif owner == NOBODY:
            after = TERRITORY
        else:
            after = BASE if level == TERRITORY else level
        value = 0.0
        if level < need <= after:
            value += 20 + 80 * progress
        left = [c for c in missing if c != end or after < need]
        if left:
            dist = hop_distances(game.board)[end]
            value -= (4 + 30 * progress**2) * min(dist[c] for c in left)
        self._progress_cache[key] = value
        return value

    def _potential(self, game: JapanMatch, start: int, neutralised: int) -> float:
        """Expected best stop value next turn (one die), by hop distance, minus toll exposure:
        for each route length ``k`` of 1-6, the best stop value (at least 0) among the
        prefectures a route of ``k`` steps from ``start`` can end on, enemy home bases
        excepted.

        Many routes end on the same prefecture with different neutralised territories:
        per start, the best values without neutralisations are worked out once, and a
        neutralised set only adds the values of its own (few) prefectures (the others are
        searched again only where a neutralised prefecture was a best one)."""
        near = _near(game.board.adjacency)[start]
        neutralised &= near.mask  # only neutralisations within reach change the value
        cached = self._pot_cache.get((start, neutralised))
        if cached is not None:
            return cached
        values = self._stop_values(game)
        table = self._pot_tables.get(start)
        if table is None:
            table = self._pot_tables[start] = self._potential_table(game, start, values)
        best0, exposure, ranked = table
        best_at = list(best0)
        if neutralised:
            codes = []
            rest = neutralised
            while rest:  # the (few) neutralised prefectures within reach
                low = rest & -rest
                codes.append(low.bit_length() - 1)
                rest ^= low
            for k in range(1, 7):
                if any(values[c] == best0[k] and k in near.lengths[c] for c in codes):
                    # a best stop is neutralised: the best of the others (stops ranked once)
                    order = ranked[k]
                    if order is None:
                        order = ranked[k] = sorted(((values[c], c) for c in near.by_length[k]), reverse=True)
                    best_at[k] = next((max(0.0, v) for v, c in order if not neutralised >> c & 1), 0.0)
            for code in codes:
                v = self.stop_value(game, code, neutralised)
                for k in near.lengths[code]:
                    if v > best_at[k]:
                        best_at[k] = v
        value = self._pot_cache[(start, neutralised)] = sum(best_at[1:]) / 6 - exposure
        return value

    def _stop_values(self, game: JapanMatch) -> list[float]:
        """Every prefecture's stop value without neutralisations (index = JIS code), enemy
        home bases as ``-inf`` (never a stop), for this decision."""
        values = self._stop_row
        if values is None:
            st = game.state
            values = [-math.inf] * (PREFECTURES + 1)
            for code in PREFECTURE_CODES:
                o = st.owner[code]
                if not (o not in (NOBODY, self.seat) and st.level[code] == HOME):
                    values[code] = self.stop_value(game, code, 0)
            self._stop_row = values
        return values

    def _potential_table(
        self, game: JapanMatch, start: int, values: list[float]
    ) -> tuple[list[float], float, list[list[tuple[float, int]] | None]]:
        """For :meth:`_potential`: per route length ``k`` the best stop value (at least 0)
        without neutralisations, the toll exposure at ``start``, and room for the stops
        ranked by value per ``k`` (filled when first needed)."""
        st = game.state
        adj = game.board.adjacency
        best0 = [0.0] * 7
        for k, codes in enumerate(_near(adj)[start].by_length):
            if k:
                best = max(map(values.__getitem__, codes), default=0.0)
                best0[k] = max(0.0, best)
        exposure = sum(
            TOLL_CASTLE if st.level[n] == CASTLE else TOLL_HOME if st.level[n] == HOME else 0
            for n in adj[start]
            if st.owner[n] not in (NOBODY, self.seat)
        ) / max(1, len(adj[start]))
        return best0, exposure, [None] * 7

    # ------------------------------------------------------------ decisions
    def _options(self, game: JapanMatch, max_allowance: int) -> dict[int, list[RouteOption]]:
        """Route options for allowances ``1..max_allowance``.  The search of the dice
        choice (allowances up to 18) is kept and reused by the route choice once the dice
        are rolled: the options for allowance ``a`` do not depend on how far the search
        went beyond ``a`` (the same states, found in the same order)."""
        st = game.state
        me = st.players[self.seat]
        where = (tuple(st.owner), tuple(st.level), tuple(st.region_controller.values()), st.current, me.position, me.banked)
        memo = self._route_memo
        if memo is not None and memo[0] == where and memo[1] >= max_allowance:
            found = memo[2]
            return found if memo[1] == max_allowance else {a: found[a] for a in range(1, max_allowance + 1)}
        ctx: RouteContext = game._context()
        start = ctx.start(me.position, max_allowance, me.banked)
        found = route_options(ctx, start, max_allowance)
        self._route_memo = (where, max_allowance, found)
        return found

    def _best(self, game: JapanMatch, options: list[RouteOption], rng: random.Random) -> tuple[float, RouteOption | None]:
        if not options:
            return -math.inf, None
        scored = []
        for opt in options:
            v = self.option_value(game, opt)
            if self.skill.noise:
                v += rng.gauss(0, self.skill.noise * (abs(v) + 10))
            scored.append((v, opt.spent, opt.steps, opt))
        if self.skill.blunder and rng.random() < self.skill.blunder:
            pick = rng.choice(scored)
            return pick[0], pick[3]
        v, _, _, opt = max(scored, key=lambda s: (s[0], -s[1], s[2]))
        return v, opt

    def _choose_move_dice(self, game: JapanMatch, rng: random.Random) -> int:
        me = game.state.players[self.seat]
        # aggressive CPUs save dice items for battles: one of each kind is never spent on movement
        keep = 1 if self.strategy == "aggressive" else 0
        available = [1] + [d for d, n in ((2, me.doubles), (3, me.triples)) if n > keep]
        if len(available) == 1:
            return 1
        if not self.skill.dice_sense and rng.random() < 0.5:
            return rng.choice(available)
        top = 6 * max(available)
        by_allowance = self._options(game, top)
        best_value = {a: max((self.option_value(game, o) for o in opts), default=-200.0) for a, opts in by_allowance.items()}
        choice, choice_ev = 1, -math.inf
        for d in available:
            dist = sum_distribution(d)
            ev = sum(float(p) * best_value[s] for s, p in enumerate(dist) if p and s >= 1)
            ev -= self._item_cost(game, d, "move")
            if ev > choice_ev + 1e-9:
                choice, choice_ev = d, ev
        return choice

    def _next_route_action(self, game: JapanMatch, rng: random.Random) -> Action:
        route = tuple(game.route)
        base_len = game.action_count - len(route)
        if self._plan is not None:
            at, steps = self._plan
            if at == base_len and steps[: len(route)] == route:
                if len(route) < len(steps):
                    return Step(steps[len(route)])
                return ConfirmRoute()
        if route:
            # A partly planned route we hold no plan for (a reloaded save, a copied game):
            # re-plan exactly as at the route's start (same random stream), so a resumed
            # game makes the same choices as the uninterrupted one.
            rng = _rng_for(game, self.seat, base_len)
        opts = self._options(game, game.allowance).get(game.allowance, [])
        _, best = self._best(game, opts, rng)
        if best is None:  # cannot happen: the engine ends the turn when no route exists
            raise IllegalActionError("no legal route for the CPU")
        if route and best.steps[: len(route)] != route:  # someone else planned this route: finish it
            if game.can_confirm():
                return ConfirmRoute()
            return Step(game.legal_steps()[0])
        self._plan = (base_len, best.steps)
        if len(route) < len(best.steps):
            return Step(best.steps[len(route)])
        return ConfirmRoute()

    def _choose_attack_dice(self, game: JapanMatch, rng: random.Random) -> int:
        st = game.state
        b = st.battle
        assert b is not None
        me = st.players[self.seat]
        available = [1] + [d for d, n in ((2, me.doubles), (3, me.triples)) if n > 0]
        if self.skill.blunder and rng.random() < self.skill.blunder:
            return rng.choice(available)
        defender = st.players[b.defender]
        items = {"double": defender.doubles, "triple": defender.triples}
        value = game.board.prefectures[b.pref - 1].base_value * LEVEL_MULTIPLIER[st.level[b.pref]]
        gain = (value * (1 + self.profile.harm) + BATTLE_BONUS + st.stored[b.pref]) * self.profile.battle
        best, best_ev = 1, -math.inf
        for d in available:
            p = float(attacker_win_probability(d, b.bonus, items))
            ev = p * gain - self._item_cost(game, d, "battle")
            if ev > best_ev + 1e-9:
                best, best_ev = d, ev
        return best

    def _choose_defence_dice(self, game: JapanMatch, rng: random.Random) -> int:
        st = game.state
        b = st.battle
        assert b is not None
        me = st.players[self.seat]
        available = (1,) + tuple(d for d, n in ((2, me.doubles), (3, me.triples)) if n > 0)
        attack = sum(b.attack_roll or [])
        if self.skill.blunder and rng.random() < self.skill.blunder:
            # even a careless defender spends an item only where it can change the outcome
            one_die = defence_win_given_attack(attack, 1, b.bonus)
            useful = [1] + [d for d in available[1:] if defence_win_given_attack(attack, d, b.bonus) != one_die]
            return rng.choice(useful)
        value = game.board.prefectures[b.pref - 1].base_value * LEVEL_MULTIPLIER[st.level[b.pref]]
        stake = value * (1 + self.profile.harm) + DEFENCE_BONUS + st.stored[b.pref]
        best, best_ev = 1, float(defence_win_given_attack(attack, 1, b.bonus)) * stake
        for d in available[1:]:
            p = defence_win_given_attack(attack, d, b.bonus)
            if p == defence_win_given_attack(attack, 1, b.bonus):
                continue  # an item is worth spending only when it can change the outcome
            ev = float(p) * stake - self._item_cost(game, d, "battle")
            if ev > best_ev + 1e-9:
                best, best_ev = d, ev
        return best


@cache
def _hop_distances(adjacency: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = [()]
    for s in PREFECTURE_CODES:
        dist = [99] * (PREFECTURES + 1)
        dist[s] = 0
        frontier = [s]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for c in frontier:
                for n in adjacency[c]:
                    if dist[n] == 99:
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        out.append(tuple(dist))
    return tuple(out)


def hop_distances(board) -> tuple[tuple[int, ...], ...]:
    """All-pairs hop distances in the game graph (``[a][b]``), computed once per distinct
    adjacency (not per board object: copies of a game share one entry).

    >>> from conquest_widget.maps.japan.board import japan
    >>> hop_distances(japan())[13][13], hop_distances(japan())[13][11]
    (0, 1)
    """
    return _hop_distances(board.adjacency)


class _Near(NamedTuple):
    """The prefectures a route of at most 6 steps from one start can end on."""

    mask: int  # bitmask of the prefectures 1-6 hops away
    by_length: tuple[tuple[int, ...], ...]  # [k]: those a route of k steps can end on (d, d+2, ... = k)
    lengths: dict[int, tuple[int, ...]]  # code -> the route lengths k <= 6 that can end there


@cache
def _near(adjacency: tuple[tuple[int, ...], ...]) -> tuple[_Near, ...]:
    """:class:`_Near` per start (index = JIS code; a route can bounce back and forth, so a
    prefecture ``d`` hops away is a possible end of routes of ``d, d+2, ...`` steps)."""
    dist = _hop_distances(adjacency)
    out = [_Near(0, ((),) * 7, {})]
    for start in PREFECTURE_CODES:
        lengths = {c: tuple(range(d, 7, 2)) for c, d in ((c, dist[start][c]) for c in PREFECTURE_CODES) if 0 < d <= 6}
        by_length = tuple(tuple(c for c, ks in lengths.items() if k in ks) for k in range(7))
        out.append(_Near(sum(1 << c for c in lengths), by_length, lengths))
    return tuple(out)


_PLAYERS: weakref.WeakKeyDictionary[JapanMatch, dict[int, CpuPlayer]] = weakref.WeakKeyDictionary()


def _rng_for(game: JapanMatch, seat: int, at: int | None = None) -> random.Random:
    """The CPU's random stream for the decision at log position ``at`` (default: now)."""
    seed = game.setup.seed
    if seed is None:
        seed = game.chance.seed or 0
    return random.Random(f"cpu:{seed}:{seat}:{game.action_count if at is None else at}")


def cpu_for(game: JapanMatch, seat: int) -> CpuPlayer:
    """The :class:`CpuPlayer` for a seat, with the seat's difficulty and strategy (cached per game)."""
    players = _PLAYERS.setdefault(game, {})
    p = game.setup.players[seat]
    cpu = players.get(seat)
    if cpu is None or (cpu.difficulty, cpu.strategy) != (p.difficulty, p.strategy):
        cpu = players[seat] = CpuPlayer(seat, p.difficulty, p.strategy)
    return cpu


def cpu_action(game: JapanMatch, seat: int | None = None) -> Action:
    """The action the CPU of ``seat`` (default: the actor) would take now."""
    return cpu_for(game, game.actor if seat is None else seat).choose(game)


def play_cpu_turns(game: JapanMatch, *, max_actions: int = 1_000_000) -> int:
    """Apply CPU decisions while the actor is a CPU seat; returns the number of actions.
    Stops at the game end or when a human must act."""
    n = 0
    while not game.is_over and game.setup.players[game.actor].cpu and n < max_actions:
        game.push(cpu_action(game))
        n += 1
    return n


__all__ = ["PROFILES", "SKILLS", "CpuPlayer", "cpu_action", "cpu_for", "play_cpu_turns"]
