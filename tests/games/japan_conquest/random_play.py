"""Shared helpers for the property tests and the benchmark: random legal play and
from-scratch recomputations of the score and of regional control.

Nothing here imports the engine's own scoring code: the recomputations are written
from the rules text (issue 3) so the property tests compare two independent answers.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from conquest_widget.games.japan_conquest import (
    BattleRoll,
    ConfirmRoute,
    GameSetup,
    JapanMatch,
    RandomDice,
    Roll,
    Step,
    UndoStep,
)
from conquest_widget.maps.japan.board import japan

BOARD = japan()
NOBODY = -1

# Level numbers as the engine stores them: 0 neutral, 1 territory, 2 base, 3 castle, 4 home base.
TERRITORY, BASE, CASTLE, HOME = 1, 2, 3, 4
#: level value multiplier by level: territory x1, base x2, castle x3, home base x3
MULTIPLIER = {TERRITORY: 1, BASE: 2, CASTLE: 3, HOME: 3}
REGION_BONUS_PER_MEMBER = 30

#: safety cap on the number of actions of one conquest / total conquest game
CONQUEST_ACTION_CAP = 60_000


def pick_homes(order: Sequence[int], n: int) -> list[int]:
    """The first ``n`` prefectures of ``order`` that are pairwise non-adjacent."""
    homes: list[int] = []
    for code in order:
        if all(code != h and code not in BOARD.adjacency[h] for h in homes):
            homes.append(code)
            if len(homes) == n:
                return homes
    raise AssertionError(f"could not pick {n} non-adjacent homes from {list(order)}")


def random_homes(rng: random.Random, n: int) -> list[int]:
    order = list(BOARD.codes)
    rng.shuffle(order)
    return pick_homes(order, n)


# --------------------------------------------------------------- recomputation
#: base value by JIS code (index 0 unused), and the members of each region
BASE_VALUE = [0] + [p.base_value for p in BOARD.prefectures]
REGION_MEMBERS = {rid: tuple(r.members) for rid, r in BOARD.regions.items()}


def recompute_regions(game: JapanMatch) -> tuple[dict[str, int], dict[str, bool]]:
    """Regional control from the owner/level lists alone: a seat controls a region when
    it owns every member; control is full when every member is a castle or home base."""
    st = game.state
    ctrl: dict[str, int] = {}
    full: dict[str, bool] = {}
    for rid, members in REGION_MEMBERS.items():
        owners = {st.owner[c] for c in members}
        seat = next(iter(owners)) if len(owners) == 1 else NOBODY
        ctrl[rid] = seat
        full[rid] = seat != NOBODY and all(st.level[c] in (CASTLE, HOME) for c in members)
    return ctrl, full


def recompute_scores(game: JapanMatch) -> list[dict[str, int]]:
    """For every seat: Σ base value × {1,2,3,3} by level over owned prefectures + 30 × members
    for each region the seat owns entirely + banked points."""
    st = game.state
    n = len(st.players)
    prefs = [0] * n
    for code in BOARD.codes:
        seat = st.owner[code]
        if seat != NOBODY:
            prefs[seat] += BASE_VALUE[code] * MULTIPLIER[st.level[code]]
    regions = [0] * n
    for members in REGION_MEMBERS.values():
        for seat in range(n):
            if all(st.owner[c] == seat for c in members):
                regions[seat] += REGION_BONUS_PER_MEMBER * len(members)
    out = []
    for seat in range(n):
        banked = st.players[seat].banked
        out.append({"prefectures": prefs[seat], "regions": regions[seat], "banked": banked,
                    "total": prefs[seat] + regions[seat] + banked})
    return out


def recompute_score(game: JapanMatch, seat: int) -> dict[str, int]:
    return recompute_scores(game)[seat]


def check_invariants(game: JapanMatch, *, awards: bool = True, legal: bool = True) -> None:
    """Assert everything that must hold after any action.

    ``awards``: also check that every region a player controls (fully) is in their
    ``regions_ever`` (``full_ever``) list -- not true after editor changes, which award nothing.
    ``legal``: also check that a legal action exists (and no route dead end) when not over.
    """
    st = game.state
    ctrl, full = recompute_regions(game)
    assert st.region_controller == ctrl, f"region control {st.region_controller} != recomputed {ctrl}"
    assert st.region_full == full, f"full region control {st.region_full} != recomputed {full}"
    expected = recompute_scores(game)
    for seat, p in enumerate(st.players):
        got = game.score(seat)
        assert got == expected[seat], f"seat {seat}: score {got} != recomputed {expected[seat]}"
        assert p.banked >= 0, f"seat {seat} has negative banked points {p.banked}"
        assert p.doubles >= 0 and p.triples >= 0, f"seat {seat} has negative items: {p.doubles} doubles, {p.triples} triples"
        assert 1 <= p.position <= 47
        if awards:
            for rid, c in ctrl.items():
                if c == seat:
                    assert rid in p.regions_ever, f"seat {seat} controls {rid} without having been given its Double Dice"
                    if full[rid]:
                        assert rid in p.full_ever, f"seat {seat} fully controls {rid} without its Triple Dice"
    for c in BOARD.codes:
        if st.stored[c]:
            assert st.stored[c] > 0, f"prefecture {c} stores {st.stored[c]}"
            assert st.owner[c] != NOBODY and st.level[c] in (CASTLE, HOME), (
                f"prefecture {c} stores {st.stored[c]} prosperity at level {st.level[c]}"
            )
        assert (st.owner[c] == NOBODY) == (st.level[c] == 0), f"prefecture {c}: owner {st.owner[c]} level {st.level[c]}"
    if legal:
        check_legal(game, game.legal_moves())


def check_legal(game: JapanMatch, acts) -> None:
    """A game not over always offers an action; a planned route never reaches a dead end."""
    st = game.state
    if st.phase == "over":
        assert acts == [], acts
        return
    assert acts, f"no legal action in phase {st.phase}"
    if st.phase == "route":
        assert any(isinstance(a, (Step, ConfirmRoute)) for a in acts), f"dead end: route {st.route}, actions {acts}"


def check_event_ledger(game: JapanMatch) -> None:
    """Banked points and dice items recomputed from the event log alone (games without edits)."""
    n = len(game.setup.players)
    banked = [0] * n
    doubles = [1] * n
    triples = [1] * n
    for ev in game.full_events():
        t = ev["type"]
        if t in ("prosperity_collected", "full_control_paid"):
            banked[ev["player"]] += ev["amount"]
        elif t == "toll":
            banked[ev["player"]] -= ev["amount"]
            banked[ev["to_player"]] += ev["amount"]
        elif t == "battle_result":
            banked[ev["winner"]] += ev["points"]
        elif t == "item_received":
            (doubles if ev["item"] == "double" else triples)[ev["player"]] += 1
        elif t == "item_used":
            (doubles if ev["item"] == "double" else triples)[ev["player"]] -= 1
    for seat, p in enumerate(game.state.players):
        assert p.banked == banked[seat], f"seat {seat}: banked {p.banked} != {banked[seat]} from the event log"
        assert (p.doubles, p.triples) == (doubles[seat], triples[seat]), (
            f"seat {seat}: items {(p.doubles, p.triples)} != {(doubles[seat], triples[seat])} from the event log"
        )


# ------------------------------------------------------------------ random play
def choose_action(game: JapanMatch, rng: random.Random, *, confirm_bias: float = 0.8, undo_rate: float = 0.05, acts=None):
    """A random legal action, biased towards confirming a route so games progress."""
    if acts is None:
        acts = game.legal_moves()
    if game.phase == "route":
        confirm = [a for a in acts if isinstance(a, ConfirmRoute)]
        if confirm and rng.random() < confirm_bias:
            return confirm[0]
        undo = [a for a in acts if isinstance(a, UndoStep)]
        if undo and rng.random() < undo_rate:
            return undo[0]
        steps = [a for a in acts if isinstance(a, Step)]
        if steps:
            return rng.choice(steps)
    return rng.choice(acts)


def play_random(
    game: JapanMatch,
    rng: random.Random,
    *,
    max_actions: int | None = None,
    check: bool = True,
    until=None,
) -> int:
    """Apply random legal actions until the game is over (or ``until(game)`` is true).

    Fails with a clear message if ``max_actions`` is reached first."""
    n = 0
    totals = [game.score(s)["total"] for s in range(len(game.state.players))]
    while not game.is_over:
        if until is not None and until(game):
            return n
        if max_actions is not None and n >= max_actions:
            st = game.state
            raise AssertionError(
                f"SAFETY CAP HIT: {game.setup.mode} game did not end within {max_actions} actions "
                f"(turns done {[p.turns_done for p in st.players]}, "
                f"levels >= base: {sum(lv >= BASE for lv in st.level[1:])}/47, "
                f">= castle: {sum(lv >= CASTLE for lv in st.level[1:])}/47)"
            )
        acts = game.legal_moves()
        if check:
            check_legal(game, acts)
        action = choose_action(game, rng, acts=acts)
        game.push(action)
        n += 1
        if check:
            if isinstance(action, (Step, UndoStep)):
                # planning changes only the route: the score must be as before the step
                assert [game.score(s)["total"] for s in range(len(game.state.players))] == totals, action
            else:
                check_invariants(game, legal=False)
                totals = [game.score(s)["total"] for s in range(len(game.state.players))]
    if check:
        check_invariants(game)
    return n


def new_random_game(seed: int, n_players: int = 4, mode: str = "standard", turns: int = 50) -> JapanMatch:
    rng = random.Random(seed)
    setup = GameSetup.quick(random_homes(rng, n_players), mode=mode, turns=turns, seed=seed)
    return JapanMatch(setup, dice=RandomDice(seed))


def fingerprint(game: JapanMatch) -> dict[str, Any]:
    """Everything an illegal action must leave unchanged."""
    dice = game.script
    pos: Any = getattr(dice, "rolled", None)
    rng = getattr(dice, "_rng", None)
    return {
        "snapshot": copy.deepcopy(game.state.snapshot()),
        "log": len(game.log),
        "actions": game.action_count,
        "chance": game.chance.draws,
        "events": len(game.events),
        "dice_rolled": pos,
        "dice_rng": rng.getstate() if rng is not None else None,
        "route": game.route,
        "legal": [str(a) for a in game.legal_moves()],
    }


__all__ = [
    "BOARD",
    "CONQUEST_ACTION_CAP",
    "BattleRoll",
    "Planner",
    "Roll",
    "apply_checked",
    "check_event_ledger",
    "check_invariants",
    "choose_action",
    "fingerprint",
    "new_random_game",
    "pick_homes",
    "play_random",
    "random_homes",
    "recompute_regions",
    "recompute_score",
]


# --------------------------------------------------- rule checks around one action
REGION_OF = [""] + [p.region for p in BOARD.prefectures]


def expected_route(game: JapanMatch) -> dict[str, Any]:
    """Recompute, from the rules text, what confirming the planned route must do: the
    movement it uses, the tolls it pays, the prefectures it neutralises, and the stop."""
    st = game.state
    me = st.current
    owner, level = list(st.owner), list(st.level)
    ctrl, _ = recompute_regions(game)
    pos = st.players[me].position
    used = 0
    tolls: dict[int, int] = {}
    paid = 0
    banked = st.players[me].banked
    last = len(st.route) - 1
    for i, code in enumerate(st.route):
        o, lv = owner[code], level[code]
        enemy = o not in (NOBODY, me)
        cost = 2 if enemy and lv in (CASTLE, HOME) else 1
        rid = REGION_OF[code]
        if rid != REGION_OF[pos] and ctrl[rid] not in (NOBODY, me):
            cost += 1
        used += cost
        if enemy and lv in (CASTLE, HOME):
            toll = 50 if lv == HOME else 20
            assert banked - paid >= toll, f"route pays a {toll} toll into {code} with {banked - paid} banked"
            paid += toll
            tolls[o] = tolls.get(o, 0) + toll
        elif enemy and lv == TERRITORY and i < last:
            owner[code], level[code] = NOBODY, 0  # passing through enemy territory neutralises it
            members = REGION_MEMBERS[rid]
            if ctrl[rid] != NOBODY and not all(owner[c] == ctrl[rid] for c in members):
                ctrl[rid] = NOBODY
        elif enemy and lv == TERRITORY:
            pass  # the final stop: handled by the stopping rules (captured as a base)
        pos = code
    end = st.route[-1]
    return {"mover": me, "used": used, "paid": paid, "tolls": tolls, "end": end,
            "end_owner": owner[end], "end_level": level[end], "owner": owner, "level": level}


def check_confirm(game: JapanMatch, exp: dict[str, Any], before: dict[str, Any]) -> None:
    """After a ConfirmRoute: movement used, end point legality, and the stopping table."""
    st = game.state
    me, end = exp["mover"], exp["end"]
    assert exp["used"] <= before["allowance"], f"route used {exp['used']} movement of {before['allowance']}"
    o, lv = exp["end_owner"], exp["end_level"]
    if exp["used"] < before["allowance"]:
        assert o == me and lv >= BASE, f"route ended early ({exp['used']}/{before['allowance']}) at {end} (owner {o}, level {lv})"
    assert not (o not in (NOBODY, me) and lv == HOME), f"route ended on enemy home base {end}"
    assert st.players[me].position == end
    # every enemy territory passed through (not the final stop) is neutral now
    for code in st.route if st.route else before["route"][:-1]:
        if code != end and before["owner"][code] not in (NOBODY, me) and before["level"][code] == TERRITORY:
            assert st.owner[code] == NOBODY and st.level[code] == 0, f"enemy territory {code} passed through is not neutral"
    # the stopping table
    if o == NOBODY:
        want = (me, TERRITORY)
    elif o == me:
        want = (me, min(lv + 1, CASTLE) if lv in (TERRITORY, BASE) else lv)
    elif lv == TERRITORY:
        want = (me, BASE)  # enemy territory -> captured as your base
    else:
        want = None  # enemy base or castle -> battle
    if want is None:
        assert st.phase == "battle_attack" and st.battle is not None and st.battle.pref == end, (
            f"stopping on enemy {('base', 'castle')[lv == CASTLE]} {end} should start a battle; phase {st.phase}"
        )
        ctrl, full = before["ctrl_after_route"]
        rid = REGION_OF[end]
        bonus = (2 if lv == CASTLE else 0) + (1 if ctrl[rid] == o else 0) + (1 if ctrl[rid] == o and full[rid] else 0)
        assert st.battle.bonus == bonus, f"defence bonus {st.battle.bonus} != recomputed {bonus}"
    else:
        got = (st.owner[end], st.level[end])
        what = {NOBODY: "neutral"}.get(o, "own" if o == me else "enemy")
        assert got == want, (
            f"stopping on {what} prefecture {end} at level {lv}: expected (owner, level) {want}, got {got}"
        )


def apply_checked(game: JapanMatch, action) -> None:
    """Apply ``action`` and check the movement, stopping and battle rules it triggers."""
    st = game.state
    if isinstance(action, ConfirmRoute):
        exp = expected_route(game)
        _ctrl, full = recompute_regions(game)
        # region control after neutralisations along the route (for the defence bonus)
        owner = exp["owner"]
        ctrl_after = {}
        for rid, members in REGION_MEMBERS.items():
            owners = {owner[c] for c in members}
            ctrl_after[rid] = next(iter(owners)) if len(owners) == 1 else NOBODY
        full_after = {rid: ctrl_after[rid] != NOBODY and full[rid] for rid in REGION_MEMBERS}
        before = {"allowance": st.allowance, "route": list(st.route), "owner": list(st.owner),
                  "level": list(st.level), "ctrl_after_route": (ctrl_after, full_after),
                  "banked": [p.banked for p in st.players]}
        game.push(action)
        check_confirm(game, exp, before)
        return
    if isinstance(action, BattleRoll) and st.phase == "battle_defend":
        b = st.battle
        pref, attacker, defender, level = b.pref, b.attacker, b.defender, st.level[b.pref]
        attack, bonus = sum(b.attack_roll), b.bonus
        n_events = len(game.events)
        game.push(action)
        faces = next(e for e in game.full_events(n_events) if e["type"] == "battle_roll")["faces"]
        defence = sum(faces) + bonus
        result = next(e for e in game.full_events(n_events) if e["type"] == "battle_result")
        winner = attacker if attack > defence else defender  # ties go to the defender
        assert result["winner"] == winner, f"attack {attack} vs defence {defence}: winner {result['winner']}, expected {winner}"
        assert game.state.owner[pref] == winner, f"after the battle {pref} belongs to {game.state.owner[pref]}, expected {winner}"
        assert game.state.level[pref] == level, "a battle never changes the level"
        return
    game.push(action)


# --------------------------------------------------- an independent route planner
class Planner:
    """Route feasibility written from the rules text, independently of the engine's
    movement module: which next steps can still be completed into a legal route."""

    def __init__(self, game: JapanMatch, mover: int | None = None) -> None:
        st = game.state
        self.me = st.current if mover is None else mover
        self.owner, self.level = list(st.owner), list(st.level)
        self.ctrl, _ = recompute_regions(game)
        self.memo: dict = {}

    def _enemy(self, code: int) -> bool:
        return self.owner[code] not in (NOBODY, self.me)

    def step(self, pos: int, remaining: int, banked: int, broken: frozenset, to: int):
        """(remaining, banked, broken) after stepping to ``to``, or None if the step is illegal."""
        if to not in BOARD.adjacency[pos]:
            return None
        fortified = self._enemy(to) and self.level[to] in (CASTLE, HOME)
        cost = 2 if fortified else 1
        rid = REGION_OF[to]
        if rid != REGION_OF[pos] and self.ctrl[rid] not in (NOBODY, self.me) and rid not in broken:
            cost += 1
        toll = (50 if self.level[to] == HOME else 20) if fortified else 0
        if cost > remaining or toll > banked:
            return None
        if self._enemy(to) and self.level[to] == TERRITORY:
            broken = broken | {rid}  # if the route goes on, the territory is neutralised
        return remaining - cost, banked - toll, broken

    def can_end(self, pos: int, remaining: int, neutralised_here: bool) -> bool:
        if self._enemy(pos) and self.level[pos] == HOME:
            return False
        if remaining == 0:
            return True
        return not neutralised_here and self.owner[pos] == self.me and self.level[pos] >= BASE

    def completable(self, pos: int, remaining: int, banked: int, broken: frozenset) -> bool:
        key = (pos, remaining, banked, broken)
        if key not in self.memo:
            self.memo[key] = False
            ok = False
            for nxt in BOARD.adjacency[pos]:
                after = self.step(pos, remaining, banked, broken, nxt)
                if after is not None and (self.can_end(nxt, after[0], False) or self.completable(nxt, *after)):
                    ok = True
                    break
            self.memo[key] = ok
        return self.memo[key]

    def route_state(self, game: JapanMatch):
        """(pos, remaining, banked, broken, visited) after the planned route."""
        st = game.state
        pos, remaining, banked, broken = st.players[self.me].position, st.allowance, st.players[self.me].banked, frozenset()
        for to in st.route:
            after = self.step(pos, remaining, banked, broken, to)
            assert after is not None, f"planned route {st.route} is illegal at {to}"
            remaining, banked, broken = after
            pos = to
        return pos, remaining, banked, broken

    def next_steps(self, game: JapanMatch) -> set[int]:
        pos, remaining, banked, broken = self.route_state(game)
        out = set()
        for nxt in BOARD.adjacency[pos]:
            after = self.step(pos, remaining, banked, broken, nxt)
            if after is not None and (self.can_end(nxt, after[0], False) or self.completable(nxt, *after)):
                out.add(nxt)
        return out

    def confirmable(self, game: JapanMatch) -> bool:
        st = game.state
        if not st.route:
            return False
        pos, remaining, _, _ = self.route_state(game)
        earlier = pos in st.route[:-1] and self._enemy(pos) and self.level[pos] == TERRITORY
        return self.can_end(pos, remaining, earlier)

    def any_route(self, pos: int, allowance: int, banked: int) -> bool:
        return self.completable(pos, allowance, banked, frozenset())
