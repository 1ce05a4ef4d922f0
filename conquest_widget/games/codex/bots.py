"""CPU players of the Codex: Easy, Normal and Hard.  They see only the public view and the
legal actions (``choose(view, legal, rng)``).

- **Easy** places at random, sometimes buys a random share, sells only when forced.
- **Normal** places greedily by the immediate change in wealth relative to the others
  (income, dividends, share values, conquest losses, the cost of forced sales) and buys
  shares of the faction with the largest group, which no one can conquer.
- **Hard** adds the exact expectation over the 36 dice outcomes: for its placement, the
  next player's best reply to each of the 36 rolls; for its trades, the value of each
  extra share over the 36 outcomes of the roll that follows (its own roll before the
  placement, the next player's after it).

    >>> import random
    >>> from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
    >>> m = CodexMatch(CodexSetup.quick(2, k=3), seed=4)
    >>> bot = BOTS["hard"]()
    >>> a = bot.choose(m.view(0), m.legal_actions(0), random.Random(0))
    >>> a.kind
    'pick'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from conquest_widget.core.bots import Bot
from conquest_widget.core.protocol import Action

from .board import Board
from .engine import state_from_view
from .market import effects
from .rules import END_GROUP, FACTIONS, PRICE_UNIT, SUPPLY, faction_of_face

#: the 36 (territory, colour face) outcomes of the two dice, each with probability 1/36
DICE = [(t, c) for t in range(1, 7) for c in range(1, 7)]


class Position:
    """The public state rebuilt from a view, with the evaluation helpers the bots share."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self.board, self.placed, self.cash, self.shares, self.active = state_from_view(dict(view))
        self.n = len(self.cash)
        self.largest = self.board.largest_all()

    def price(self, f: int) -> int:
        return PRICE_UNIT * self.largest[f]

    def wealth(self, s: int) -> int:
        return self.cash[s] + sum(n * self.price(f) for f, n in enumerate(self.shares[s]))

    def placements(self, territory: int, face: int) -> list[tuple[int, int]]:
        """Legal ``(plot, faction)`` pairs for a roll."""
        fixed = faction_of_face(face)
        facs = [FACTIONS.index(fixed)] if fixed else range(4)
        b = self.board
        return [(p, f) for p in b.empty_plots(territory) for f in facs if self.placed[f] < SUPPLY and b.is_legal(p, f)]

    def quick(self, placer: int, plot: int, f: int) -> tuple[list[int], list[int], bool]:
        """A legal placement's cash change per seat, price change per faction and whether
        it ends the game: the rules of :func:`market.effects`, inlined for speed (a test
        checks they agree)."""
        b = self.board
        cells, gid, mem = b.cells, b.gid, b.members
        size = 1
        seen: list[int] = []
        enemy: list[tuple[int, int, int]] = []
        for nb in b.g.neighbours[plot]:
            i = gid[nb]
            if i < 0 or i in seen:
                continue
            seen.append(i)
            if cells[nb] == f:
                size += len(mem[i])
            else:
                enemy.append((i, cells[nb], len(mem[i])))
        big = self.largest
        dp = [0, 0, 0, 0]
        if size > big[f]:
            dp[f] = PRICE_UNIT * (size - big[f])
        for _, g, sz in enemy:
            if sz == big[g] and dp[g] == 0:
                gone = {i for i, gg, _ in enemy if gg == g}
                left = max((len(mem[j]) for j in b.by_faction[g] if j not in gone), default=0)
                dp[g] = PRICE_UNIT * (left - big[g])
        ends = max(size, big[f]) >= END_GROUP or self.placed[f] + 1 >= SUPPLY
        cash = [0] * self.n
        shares, active = self.shares, self.active
        if dp[f] > 0:
            cash[placer] += PRICE_UNIT * size
            for s in range(self.n):
                if active[s] and shares[s][f]:
                    cash[s] += shares[s][f] * dp[f]
        for g in range(4):
            if dp[g] < 0:
                for s in range(self.n):
                    if s != placer and active[s] and shares[s][g]:
                        cash[s] += shares[s][g] * dp[g]
        return cash, dp, ends

    def deltas(self, placer: int, plot: int, f: int) -> tuple[list[float], list[int], bool]:
        """Each seat's change in wealth from a legal placement (forced-sale losses and
        eliminations estimated), the price changes per faction, and whether the game ends."""
        cash, dp, ends = self.quick(placer, plot, f)
        out: list[float] = []
        moved = any(dp)
        for s in range(self.n):
            if not self.active[s] or not moved:
                out.append(0.0)
                continue
            held = self.shares[s]
            d = float(cash[s] + held[0] * dp[0] + held[1] * dp[1] + held[2] * dp[2] + held[3] * dp[3])
            bal = self.cash[s] + cash[s]
            if bal < 0 and not ends:
                sellable = sum(n * ((PRICE_UNIT * self.largest[g] + dp[g]) // 2) for g, n in enumerate(held))
                d -= -bal if sellable >= -bal else 50_000   # selling at half loses what it raises
            out.append(d)
        return out, dp, ends

    def relative(self, me: int, d: Sequence[float], ends: bool, after_wealth: Sequence[float] | None = None) -> float:
        """My gain against the others (half the mean, half the best of them)."""
        others = [d[s] for s in range(self.n) if s != me and self.active[s]]
        score = d[me] - (0.5 * sum(others) / len(others) + 0.5 * max(others)) if others else d[me]
        if ends:
            w = [self.wealth(s) + d[s] if self.active[s] else -1e9 for s in range(self.n)]
            best_other = max(w[s] for s in range(self.n) if s != me)
            score += 1e6 if w[me] > best_other else -1e6
        return score


def forced_choice(view: Mapping[str, Any], legal: Sequence[Action], me: int) -> Action:
    """The forced sale that wastes least: the cheapest share that covers the whole debt,
    else the most expensive one."""
    prices = {f["id"]: f["price"] for f in view["factions"]}
    debt = -view["players"][me]["cash"]
    opts = sorted(legal, key=lambda a: prices[a.faction])  # type: ignore[attr-defined]
    for a in opts:
        if prices[a.faction] // 2 >= debt:  # type: ignore[attr-defined]
            return a
    return opts[-1]


def _by_kind(legal: Sequence[Action]) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for a in legal:
        out.setdefault(a.kind, []).append(a)
    return out


def _least_held_pick(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    held = {f: sum(p["shares"][f] for p in view["players"]) for f in FACTIONS}
    return min(legal, key=lambda a: (held[a.faction], FACTIONS.index(a.faction)))  # type: ignore[attr-defined]


class EasyBot:
    """Random placements, an occasional random purchase, sells only when forced."""

    label = "easy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        me = view["to_act"][0]
        kinds = _by_kind(legal)
        if "forced_sell" in kinds:
            return rng.choice(kinds["forced_sell"])
        if "pick" in kinds:
            return rng.choice(kinds["pick"])
        if "place" in kinds:
            return rng.choice(kinds["place"])
        if "buy" in kinds and view["phase"] == "trade2" and rng.random() < 0.3:
            return rng.choice(kinds["buy"])
        _ = me
        return (kinds.get("roll") or kinds.get("end_turn") or list(legal))[0]


class NormalBot:
    """Greedy placements by relative wealth; buys the faction with the largest group."""

    label = "normal"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        me = view["to_act"][0]
        kinds = _by_kind(legal)
        if "forced_sell" in kinds:
            return forced_choice(view, kinds["forced_sell"], me)
        if "pick" in kinds:
            return _least_held_pick(view, kinds["pick"])
        pos = Position(view)
        if "place" in kinds:
            return self.place(pos, me, kinds["place"], rng)
        if view["phase"] == "trade2" and "buy" in kinds:
            a = self.buy(pos, me, kinds["buy"])
            if a is not None:
                return a
        return (kinds.get("roll") or kinds.get("end_turn") or list(legal))[0]

    def place(self, pos: Position, me: int, options: Sequence[Action], rng: random.Random) -> Action:
        best, best_score = None, -1e18
        g = pos.board.g
        for a in options:
            plot = g.plot(a.territory, a.row, a.col)  # type: ignore[attr-defined]
            d, _, ends = pos.deltas(me, plot, FACTIONS.index(a.faction))  # type: ignore[attr-defined]
            score = pos.relative(me, d, ends) + rng.random() * 1e-3
            if score > best_score:
                best, best_score = a, score
        assert best is not None
        return best

    def buy(self, pos: Position, me: int, options: Sequence[Action]) -> Action | None:
        top = max(range(4), key=lambda f: (pos.largest[f], -f))
        for a in options:
            if FACTIONS.index(a.faction) == top:  # type: ignore[attr-defined]
                return a
        return None


class HardBot(NormalBot):
    """Exact expectation over the 36 dice outcomes for placements (the next player's best
    reply to each roll) and for trades (the value of one more share over the next roll)."""

    label = "hard"
    #: placements kept for the look-ahead (ranked by the greedy score)
    width = 6

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        me = view["to_act"][0]
        kinds = _by_kind(legal)
        if "forced_sell" in kinds:
            return forced_choice(view, kinds["forced_sell"], me)
        if "pick" in kinds:
            return _least_held_pick(view, kinds["pick"])
        pos = Position(view)
        if "place" in kinds:
            return self.place(pos, me, kinds["place"], rng)
        if "buy" in kinds:
            a = self.trade(pos, me, kinds["buy"], view["phase"])
            if a is not None:
                return a
        return (kinds.get("roll") or kinds.get("end_turn") or list(legal))[0]

    # ------------------------------------------------------------ placement
    def place(self, pos: Position, me: int, options: Sequence[Action], rng: random.Random) -> Action:
        g = pos.board.g
        scored = []
        for a in options:
            plot = g.plot(a.territory, a.row, a.col)  # type: ignore[attr-defined]
            f = FACTIONS.index(a.faction)  # type: ignore[attr-defined]
            d, _, ends = pos.deltas(me, plot, f)
            scored.append((pos.relative(me, d, ends), plot, f, a, ends))
        scored.sort(key=lambda x: -x[0])
        best, best_score = scored[0][3], -1e18
        nxt = _next_seat(pos, me)
        for score, plot, f, a, ends in scored[: self.width]:
            if not ends and nxt is not None:
                score += self._reply_value(pos, me, nxt, plot, f)
            if score > best_score:
                best, best_score = a, score
        return best

    def _reply_value(self, pos: Position, me: int, nxt: int, plot: int, f: int) -> float:
        """Expected relative value for ``me`` of the next player's greedy reply, over the 36
        dice outcomes, after my placement of ``f`` on ``plot``."""
        after = _after(pos, me, plot, f)
        total = 0.0
        cache: dict[tuple[int, int], float] = {}
        for t, c in DICE:
            key = (t, c if c <= 4 else 5)
            if key not in cache:
                best_for_them, mine = -1e18, 0.0
                for p2, f2 in after.placements(t, c):
                    d, _, ends = after.deltas(nxt, p2, f2)
                    theirs = after.relative(nxt, d, ends)
                    if theirs > best_for_them:
                        best_for_them, mine = theirs, after.relative(me, d, ends)
                cache[key] = mine
            total += cache[key]
        return total / 36.0

    # ------------------------------------------------------------ trades
    def trade(self, pos: Position, me: int, options: Sequence[Action], phase: str) -> Action | None:
        """Buy the share whose expected gain over the next roll's 36 outcomes is largest and
        positive, keeping enough cash to cover the expected conquest losses."""
        if phase == "trade1":
            gains = self._share_gains(pos, me, me)
        else:
            nxt = _next_seat(pos, me)
            if nxt is None:
                return None
            gains = self._share_gains(pos, nxt, me)
        best, best_gain = None, 0.0
        for a in options:
            f = FACTIONS.index(a.faction)  # type: ignore[attr-defined]
            gain, risk = gains[f]
            reserve = risk * (sum(pos.shares[me]) + 1) * 2
            if gain > best_gain and pos.cash[me] - pos.price(f) >= reserve:
                best, best_gain = a, gain
        return best

    def _share_gains(self, pos: Position, roller: int, me: int) -> list[tuple[float, float]]:
        """Per faction: the expected wealth change of one share (dividend plus price change;
        for a non-roller, cash losses too) over the 36 outcomes of ``roller``'s roll, with the
        roller playing greedily, and the expected conquest loss per share (risk)."""
        gain = [0.0] * 4
        risk = [0.0] * 4
        cache: dict[tuple[int, int], list[int]] = {}
        for t, c in DICE:
            key = (t, c if c <= 4 else 5)
            if key not in cache:
                best, best_dp = -1e18, [0, 0, 0, 0]
                for p2, f2 in pos.placements(t, c):
                    d, dp, ends = pos.deltas(roller, p2, f2)
                    v = pos.relative(roller, d, ends)
                    if v > best:
                        best, best_dp = v, dp
                cache[key] = best_dp
            dp = cache[key]
            for f in range(4):
                if dp[f] > 0:
                    gain[f] += 2 * dp[f]
                elif dp[f] < 0:
                    gain[f] += dp[f] * (1 if roller == me else 2)
                    risk[f] -= dp[f]
        return [(gain[f] / 36.0, risk[f] / 36.0) for f in range(4)]


def _next_seat(pos: Position, me: int) -> int | None:
    for i in range(1, pos.n):
        s = (me + i) % pos.n
        if pos.active[s]:
            return s
    return None


def _after(pos: Position, placer: int, plot: int, f: int) -> Position:
    """The position after a placement (cash changes applied; forced sales not)."""
    new = Position.__new__(Position)
    new.view = pos.view
    eff = effects(pos.board, pos.placed, pos.cash, pos.shares, pos.active, placer, plot, f)
    b: Board = pos.board.copy()
    b.place(plot, f, eff.analysis)
    new.board = b
    new.placed = pos.placed[:]
    new.placed[f] += 1
    new.cash = list(eff.balances)
    new.shares = pos.shares
    new.active = pos.active
    new.n = pos.n
    new.largest = b.largest_all()
    return new


#: the CPU players by label
BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
DEFAULT_BOT = "normal"
