"""CPU players of Japanese Risk.  They get ``view(seat)`` and the legal actions only.

- **easy**: puts its income on one random card, attacks a random neighbour now and then
  with a whole stack, never uses ninjas;
- **normal**: income on the frontier card facing the most unknown land; attacks the target
  with the best exact odds (:func:`~.odds.battle_odds_float`) against the expected defence,
  only when the chance is at least 70% (never where it cannot win), committing every army
  it has next to the target;
- **normal** and **hard** defending: bring every card army, and reserve ninjas too when each
  one lowers the attacker's exact chance by at least 20 points (:func:`defence`);
- **hard**: determinization — draws hidden states consistent with its view
  (:func:`~.resample.resample_hidden`), and for every target and commitment size averages
  the exact odds over the drawn defences; commits just enough for an 85% chance, so the
  rest of its armies attack elsewhere in the same turn; brings idle armies to the front,
  sending only the fresh ones on a two-step march (the once-moved ones could not finish
  it); keeps one ninja in reserve (bought when its income is 10 or more) to defend
  wherever it is attacked.

    >>> import random
    >>> from conquest_widget.core.bots import play_bots
    >>> from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
    >>> m = JapaneseRisk(RiskSetup(players=("A", "B"), round_limit=3), seed=2)
    >>> _ = play_bots(m, {0: BOTS["hard"](), 1: BOTS["normal"]()}, seed=1)
    >>> m.outcome() is not None
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from conquest_widget.core.bots import Bot
from conquest_widget.core.protocol import Action

from .engine import ADJ, CODES, SEA, Attack, BuyNinja, Commit, Deploy, EndTurn, Hold, Launch, Move, Place
from .odds import battle_odds_float
from .resample import resample_hidden

__all__ = ["BOTS", "DEFAULT_BOT", "EasyBot", "HardBot", "NormalBot", "attack_estimate", "defence"]


class _Info:
    """What a bot reads from its view, as quick look-ups."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self.seat: int = view["seat"]
        me = view["me"]
        self.own = set(me["cards"])
        self.card = {c: k for c, k in me["card_armies"]}
        self.terr = {t["code"]: t for t in view["territories"]}
        turn = view.get("turn") or {}
        self.movable = {c: f + h for c, f, h in turn.get("moves", [])} if view["current"] == self.seat else {}
        self.attacked = set(turn.get("attacked", []))
        self.pending: dict[str, Any] | None = turn.get("pending")
        self.unknown = [c for c in CODES if self.terr[c]["owner"] is None]
        players = view["players"]
        self.count = {p["seat"]: p["territories"] for p in players}

    def owner(self, c: int) -> Any:
        return self.terr[c]["owner"]

    def frontier(self, c: int) -> list[int]:
        return [d for d in ADJ[c] if d not in self.own]

    def expected_cards(self, p: int) -> float:
        """Expected card armies on one territory of player ``p`` (public arithmetic)."""
        pl = self.view["players"][p]
        return max(0.0, 0.8 * pl["hidden_pool"]) / max(1, pl["territories"])

    def defence_mix(self, d: int) -> list[tuple[float, int, bool]]:
        """[(probability, defenders, castle)] of territory ``d`` as far as the seat knows."""
        t = self.terr[d]
        castle = t["castle"]
        o = t["owner"]
        if o == "neutral":
            return [(1.0, t["armies"] or 2, castle)]
        if o is not None:
            return [(1.0, t["armies"] + round(self.expected_cards(o)), castle)]
        unknown = len(self.unknown) or 1
        out = []
        left = 1.0
        for p, cnt in self.count.items():
            if p == self.seat:
                continue
            known = sum(1 for c in CODES if self.terr[c]["owner"] == p)
            share = max(0, cnt - known) / unknown
            if share:
                out.append((share, round(self.expected_cards(p)), castle))
                left -= share
        if left > 1e-9:
            out.append((left, 2, castle))
        return out


def _win(att: int, mix: list[tuple[float, int, bool]], sea: int = 0) -> float:
    if att <= 0:
        return 0.0
    total = 0.0
    for p, d, castle in mix:
        total += p * battle_odds_float(min(att, 200), min(d, 200), castle=castle, sea=min(sea, att)).win
    return total


def attack_estimate(view: Mapping[str, Any], target: int, attackers: int, sea: int = 0) -> float:
    """The chance that ``attackers`` armies (``sea`` of them crossing a sea link) take
    ``target``, as far as the seat of ``view`` knows: exact odds against the armies on the
    board of a revealed territory plus the expected card armies of its owner, or a mixture over
    the possible owners of unseen land (for the widget's "odds before committing").

    >>> from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
    >>> v = JapaneseRisk(RiskSetup(players=("A", "B")), seed=1).view(0)
    >>> unseen = next(t["code"] for t in v["territories"] if t["owner"] is None)
    >>> 0.9 < attack_estimate(v, unseen, 6) <= 1.0
    True
    """
    return _win(attackers, _Info(view).defence_mix(target), sea)


#: the chance of holding a territory that one reserve ninja must buy to be committed
NINJA_PRICE = 0.2


def defence(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """The defender's answer: every card army (``legal[0]``), plus the number of reserve
    ninjas ``k`` that lowers the attacker's exact chance of taking the territory most for
    its price: the largest ``(p(0) - p(k)) - NINJA_PRICE * k``, none unless it is positive
    (a ninja has to buy at least 20 points of safety; one that survives stays there)."""
    base = legal[0]
    b = view["battle"]
    reserve = view["me"]["reserve"]
    if not reserve or not isinstance(base, Commit) or Commit(base.count, 1) not in legal:
        return base
    att = min(b["armies"] + b["ninjas"], 200)
    dfn = b["defenders"] + b.get("defending_ninjas", 0) + base.count
    sea = min(b["sea"], att) if b["preroll"] else 0

    def p(k: int) -> float:
        if dfn + k == 0:
            return 1.0
        return battle_odds_float(att, min(dfn + k, 200), castle=b["castle"], wounded=b["wounded"], sea=sea).win

    p0 = p(0)
    gain, k = max(((p0 - p(k)) - NINJA_PRICE * k, k) for k in range(1, reserve + 1))
    return Commit(base.count, k) if gain > 0 else base


def _pick(legal: Sequence[Action], want: Action) -> Action | None:
    return want if want in legal else None


def _income(info: _Info, legal: Sequence[Action], rng: random.Random, *, random_card: bool) -> Action:
    left = info.view["me"]["income_left"]
    own = sorted(info.own)
    if random_card:
        return Place(rng.choice(own), left)
    best = max(own, key=lambda c: (sum(1 for d in ADJ[c] if info.owner(d) is None or info.owner(d) == "neutral"),
                                   len(info.frontier(c)), info.card.get(c, 0) + info.terr[c]["armies"], -c))
    return Place(best, left)


def _continue_pending(pending: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    target = pending["target"]
    groups = [a for a in legal if isinstance(a, Attack) and a.target == target and not a.ninja]
    if groups:
        return max(groups, key=lambda a: (a.count, -a.src))
    return Launch()


class EasyBot:
    """Random-ish: one random card for the income, sometimes attacks with a whole stack."""

    label = "easy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = {a.kind for a in legal}
        if "commit" in kinds:
            return legal[0]
        if "hold" in kinds:
            return Hold()
        info = _Info(view)
        if "place" in kinds:
            return _income(info, legal, rng, random_card=True)
        if "launch" in kinds:
            return Launch()
        deploys = [a for a in legal if isinstance(a, Deploy) and a.count == info.card.get(a.territory, 0)]
        if deploys and rng.random() < 0.5:
            return rng.choice(deploys)
        attacks = [a for a in legal if isinstance(a, Attack) and not a.ninja and a.count == info.movable.get(a.src, 0)
                   and a.count >= 2]
        if attacks and rng.random() < 0.6:
            return rng.choice(attacks)
        return EndTurn()


class NormalBot:
    """Exact odds against the expected defence; attacks at >= 70% with everything adjacent."""

    label = "normal"
    threshold = 0.7

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = {a.kind for a in legal}
        if "commit" in kinds:
            return defence(view, legal)
        if "hold" in kinds:
            return Hold()
        info = _Info(view)
        if "place" in kinds:
            return _income(info, legal, rng, random_card=False)
        if info.pending is not None:
            return _continue_pending(info.pending, legal)
        best: tuple[float, int] | None = None
        for d in CODES:
            if d in info.own or d in info.attacked:
                continue
            srcs = [c for c in ADJ[d] if c in info.own]
            if not srcs:
                continue
            avail = sum(info.movable.get(c, 0) + info.card.get(c, 0) for c in srcs)
            sea = sum(info.movable.get(c, 0) + info.card.get(c, 0) for c in srcs if frozenset((c, d)) in SEA)
            if avail <= 0:
                continue
            p = _win(avail, info.defence_mix(d), sea)
            if p >= self.threshold and (best is None or p > best[0]):
                best = (p, d)
        if best is not None:
            d = best[1]
            for c in sorted(ADJ[d]):
                if c in info.own and info.card.get(c, 0):
                    a = _pick(legal, Deploy(c, info.card[c]))
                    if a is not None:
                        return a
            groups = [a for a in legal if isinstance(a, Attack) and a.target == d and not a.ninja
                      and a.count == info.movable.get(a.src, 0)]
            if groups:
                return max(groups, key=lambda a: (a.count, -a.src))
        return EndTurn()


class HardBot:
    """Determinization over resampled hidden states; commits just enough, attacks more often."""

    label = "hard"
    samples = 24
    target_p = 0.85
    #: the income from which one ninja is kept in reserve for the defence
    ninja_income = 10

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        kinds = {a.kind for a in legal}
        if "commit" in kinds:
            return defence(view, legal)
        if "hold" in kinds:
            return Hold()
        info = _Info(view)
        if "place" in kinds:
            return self._income(info, legal, rng)
        states = [resample_hidden(view, rng) for _ in range(self.samples)]
        if info.pending is not None:
            return self._continue(info.pending, legal, states)
        plan = self._plan(info, states)
        if plan is not None:
            d, commit = plan
            for c, k in commit:
                need = k - info.movable.get(c, 0)
                if need > 0:
                    a = _pick(legal, Deploy(c, min(need, info.card.get(c, 0))))
                    if a is not None:
                        return a
            c, k = commit[0]
            a = _pick(legal, Attack(c, d, min(k, info.movable.get(c, 0))))
            if a is not None:
                return a
        mv = self._move_to_front(info, legal)
        return mv if mv is not None else EndTurn()

    # .......................................................... income
    def _income(self, info: _Info, legal: Sequence[Action], rng: random.Random) -> Action:
        me = info.view["me"]
        left = me["income_left"]
        if left >= self.ninja_income and me["reserve"] == 0 and BuyNinja(1) in legal:
            return BuyNinja(1)

        def score(c: int) -> tuple[float, ...]:
            soft = sum(1 for d in ADJ[c] if d not in info.own and
                       (info.owner(d) is None or (info.owner(d) == "neutral" and info.terr[d]["armies"] == 0)))
            return (soft, len(info.frontier(c)), -(info.card.get(c, 0) + info.terr[c]["armies"]), -c)

        fronts = sorted(info.own, key=score, reverse=True)
        # split the income over the two best fronts so that two attacks are possible next turn
        if left >= 8 and len(fronts) >= 2 and score(fronts[1])[0] > 0:
            return Place(fronts[0], left - left // 2)
        return Place(fronts[0], left)

    # .......................................................... attacks
    def _defences(self, d: int, states: list[dict[str, Any]]) -> list[tuple[int, bool]]:
        out = []
        for s in states:
            o = s["owner"][d]
            if o < 0:
                out.append((s["board"][d] or 2, s["castle"][d]))
            else:
                out.append((s["board"][d] + s["card"][d], s["castle"][d]))
        return out

    def _p(self, k: int, sea: int, defs: list[tuple[int, bool]]) -> float:
        total = 0.0
        for d, castle in defs:
            if d == 0:
                total += 1.0
            else:
                total += battle_odds_float(min(k, 200), min(d, 200), castle=castle, sea=min(sea, k)).win
        return total / len(defs)

    def _plan(self, info: _Info, states: list[dict[str, Any]]) -> tuple[int, list[tuple[int, int]]] | None:
        best: tuple[float, int, list[tuple[int, int]]] | None = None
        for d in CODES:
            if d in info.own or d in info.attacked:
                continue
            srcs = [c for c in ADJ[d] if c in info.own and info.movable.get(c, 0) + info.card.get(c, 0) > 0]
            if not srcs:
                continue
            srcs.sort(key=lambda c: (frozenset((c, d)) in SEA, -(info.movable.get(c, 0) + info.card.get(c, 0))))
            defs = self._defences(d, states)
            commit: list[tuple[int, int]] = []
            total = sea = 0
            chosen = None
            for c in srcs:
                have = info.movable.get(c, 0) + info.card.get(c, 0)
                is_sea = frozenset((c, d)) in SEA
                for k in range(1, have + 1):
                    p = self._p(total + k, sea + (k if is_sea else 0), defs)
                    if p >= self.target_p:
                        chosen = (p, commit + [(c, k)], total + k)
                        break
                if chosen:
                    break
                commit.append((c, have))
                total += have
                sea += have if is_sea else 0
            if chosen is None:
                continue
            p, plan, used = chosen
            enemy = sum(1 for s in states if s["owner"][d] >= 0) / len(states)
            value = p * (1.0 + 0.5 * enemy) - 0.02 * used
            if best is None or value > best[0]:
                best = (value, d, plan)
        if best is None:
            return None
        return best[1], best[2]

    def _continue(self, pending: Mapping[str, Any], legal: Sequence[Action], states: list[dict[str, Any]]) -> Action:
        """Add groups (the smallest that reaches the target odds, else the largest) to the
        gathered attack ``pending`` until the drawn defences give the target chance, then
        launch."""
        target = pending["target"]
        gathered = sum(g[1] for g in pending["groups"] if not g[3])
        sea = sum(g[1] for g in pending["groups"] if g[2] and not g[3])
        defs = self._defences(target, states)
        if self._p(gathered, sea, defs) >= self.target_p:
            return Launch()
        groups = [a for a in legal if isinstance(a, Attack) and a.target == target and not a.ninja]
        for a in sorted(groups, key=lambda a: (a.count, a.src)):
            is_sea = frozenset((a.src, target)) in SEA
            if self._p(gathered + a.count, sea + (a.count if is_sea else 0), defs) >= self.target_p:
                return a
        if groups:
            return max(groups, key=lambda a: (a.count, -a.src))
        return Launch()

    def _move_to_front(self, info: _Info, legal: Sequence[Action]) -> Action | None:
        """Idle armies one step to a frontier territory; armies two steps away send only
        their fresh ones (``Move.fresh``) halfway, so they reach the front this turn."""
        fresh = {c: f for c, f, _ in (info.view.get("turn") or {}).get("moves", [])}
        for c in sorted(info.own):
            k = info.movable.get(c, 0)
            if not k or info.frontier(c):
                continue
            dests = [d for d in ADJ[c] if d in info.own and info.frontier(d)]
            if dests:
                a = _pick(legal, Move(c, min(dests), k))
                if a is not None:
                    return a
                continue
            f = fresh.get(c, 0)
            halfway = [d for d in ADJ[c] if d in info.own
                       and any(e in info.own and info.frontier(e) for e in ADJ[d])]
            if f and halfway:
                a = _pick(legal, Move(c, min(halfway), f, fresh=f if f < k else None))
                if a is not None:
                    return a
        return None


#: label -> factory of a CPU player
BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
DEFAULT_BOT = "normal"

