"""A fast turn-level simulator of Conquest for the CPU players' search, and the pile
heuristics the CPUs share.

It works on a *sample* (a full state from :func:`~.resample.resample_hidden`, never the
real match): a turn is one move — ``("play", face, cards)``, ``("joker", target, face)``
or ``("pass",)`` — and the next player's draw.

    >>> import random
    >>> from conquest_widget.games.conquest_cards.engine import ConquestCards
    >>> from conquest_widget.games.conquest_cards.setup import CardsSetup
    >>> from conquest_widget.games.conquest_cards.resample import resample_hidden
    >>> m = ConquestCards(CardsSetup.quick(2, suits=("S", "H")), seed=5)
    >>> sim = Sim.from_sample(resample_hidden(m.view(0), random.Random(1)))
    >>> sim.turn, len(sim.hands[0]), len(sim.deck)
    (0, 3, 35)
    >>> u = sim.rollout(0, random.Random(2))
    >>> 0.0 <= u <= 1.0 and sim.over
    True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Literal, TypeAlias

from .cards import JOKER, JOKER_VALUE, RANK, SUIT, value
from .scoring import score

#: points of the Jack, Queen and King piles
WEIGHTS = (1, 2, 3)

#: a turn's move: cards (one suit or one value) on the mover's face 0-2 (J, Q, K)
PlayMove: TypeAlias = tuple[Literal["play"], int, tuple[str, ...]]
#: a joker on seat ``target``'s face 0-2
JokerMove: TypeAlias = tuple[Literal["joker"], int, int]
PassMove: TypeAlias = tuple[Literal["pass"]]
Move: TypeAlias = PlayMove | JokerMove | PassMove
PASS: PassMove = ("pass",)


def _clamp(x: float) -> float:
    return 0.0 if x < 0.0 else min(x, 1.0)


class Sim:
    """A full state at the start of a player's play (the draw done), cheap to copy."""

    __slots__ = ("ace11", "aces", "deck", "hands", "jokers", "n", "num", "over", "reveal", "suits", "tot", "turn")

    #: the options (rules 1-3)
    ace11: bool
    reveal: bool
    jokers: bool
    #: each seat's suit, and the number of seats
    suits: list[str]
    n: int
    #: every hand, and the deck with its top card last
    hands: list[list[str]]
    deck: list[str]
    #: per seat, per face (J, Q, K): pile total, aces on it, number cards on it
    tot: list[list[int]]
    aces: list[list[int]]
    num: list[list[int]]
    #: the seat to play (its draw done) and whether the game is over
    turn: int
    over: bool

    def __init__(self) -> None:
        self.over = False

    @classmethod
    def from_sample(cls, sample: Mapping[str, Any]) -> Sim:
        """From a full state dict (``resample_hidden`` / ``true_state``) in the draw or
        play stage (in the draw stage the player to act draws first)."""
        s = cls()
        s.suits = list(sample["suits"])
        s.n = len(s.suits)
        opts = sample["options"]
        s.ace11, s.reveal, s.jokers = opts["ace_eleven"], opts["reveal_hands"], opts["jokers"]
        s.hands = [list(h) for h in sample["hands"]]
        s.deck = list(sample["deck"])[::-1]  # top last
        s.tot = [[0, 0, 0] for _ in range(s.n)]
        s.aces = [[0, 0, 0] for _ in range(s.n)]
        s.num = [[0, 0, 0] for _ in range(s.n)]
        for seat, piles in enumerate(sample["piles"]):
            for f, pile in enumerate(piles):
                for c in pile:
                    s._add(seat, f, c)
        s.turn = sample["turn"]
        if sample["stage"] == "draw":
            s.hands[s.turn].append(s.deck.pop())
        elif sample["stage"] not in ("play",):
            s.over = True
        return s

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.n, s.suits, s.ace11, s.reveal, s.jokers = self.n, self.suits, self.ace11, self.reveal, self.jokers
        s.hands = [list(h) for h in self.hands]
        s.deck = list(self.deck)
        s.tot = [list(x) for x in self.tot]
        s.aces = [list(x) for x in self.aces]
        s.num = [list(x) for x in self.num]
        s.turn, s.over = self.turn, self.over
        return s

    def _add(self, seat: int, f: int, c: str) -> None:
        if c == JOKER:
            self.tot[seat][f] += JOKER_VALUE
            return
        self.tot[seat][f] += value(c, self.suits[seat], self.ace11)
        self.num[seat][f] += 1
        if RANK[c] == 1:
            self.aces[seat][f] += 1

    # ------------------------------------------------------------ moves
    def apply(self, move: Move) -> None:
        """The current player's move, then the end of the turn (and the next draw)."""
        p = self.turn
        if move[0] == "play":
            f, cards = move[1], move[2]
            hand = self.hands[p]
            for c in cards:
                hand.remove(c)
                self._add(p, f, c)
        elif move[0] == "joker":
            self.hands[p].remove(JOKER)
            self.tot[move[1]][move[2]] += JOKER_VALUE
        if not self.deck:
            self._finish()
            return
        self.turn = (p + 1) % self.n
        self.hands[self.turn].append(self.deck.pop())

    def _finish(self) -> None:
        self.over = True
        if not self.reveal:
            return
        suits = self.suits
        for s in range(self.n):
            for c in self.hands[s]:
                owner = suits.index(SUIT[c]) if c != JOKER and SUIT[c] in suits else None
                if owner is not None and owner != s:
                    self._place(owner, c)
            self.hands[s] = []

    def _place(self, owner: int, c: str) -> None:
        """Place a received card where it is worth most to ``owner`` (rule 2)."""
        best_f, best = 2, -1.0
        for f in (2, 1, 0):
            v = value(c, self.suits[owner], self.ace11)
            mine = self.tot[owner][f] + v
            others = [self.tot[o][f] for o in range(self.n) if o != owner and self.num[o][f]]
            top = max(others) if others else -99
            gain = WEIGHTS[f] * (1.0 if mine > top >= self.tot[owner][f] or (not self.num[owner][f] and mine > top) else 0.0)
            if gain > best:
                best, best_f = gain, f
        self._add(owner, best_f, c)

    def result(self) -> dict[str, Any]:
        return score(self.tot, self.aces, [[k > 0 for k in row] for row in self.num])

    def utility(self, me: int) -> float:
        """1 for a sole win, 1/k for a win shared by k, 0 for a loss; plus a small share
        for points (so that close losses count a little)."""
        n = self.n
        tot, num, aces = self.tot, self.num, self.aces
        pts = [0] * n
        for f in (0, 1, 2):
            best = None
            win: list[int] = []
            for s in range(n):
                if not num[s][f]:
                    continue
                key = (tot[s][f], aces[s][f])
                if best is None or key > best:
                    best, win = key, [s]
                elif key == best:
                    win.append(s)
            for s in win:
                pts[s] += WEIGHTS[f]
        keys = [(pts[s], sum(tot[s]), sum(aces[s]), tot[s][0] + tot[s][1]) for s in range(n)]
        top = max(keys)
        winners = [s for s in range(n) if keys[s] == top]
        best_other = max(pts[o] for o in range(n) if o != me)
        base = 1.0 / len(winners) if me in winners else 0.0
        return 0.9 * base + 0.1 * _clamp(0.5 + (pts[me] - best_other) / 12)

    # ------------------------------------------------------------ rollouts
    def rollout(self, me: int, rng: random.Random, first: Move | None = None) -> float:
        """Play ``first`` (if given) then the fast policy for everyone to the end; the
        utility for ``me``."""
        if first is not None and not self.over:
            self.apply(first)
        while not self.over:
            self.apply(fast_move(self, rng))
        return self.utility(me)


# ------------------------------------------------------------ heuristics
def groups(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """The largest plays of a hand: all cards of each suit, all cards of each value
    (two or more).

    >>> groups(["7S", "9S", "7H", "JK"])
    [('7S', '9S'), ('7H',), ('7S', '7H')]
    """
    by_suit: dict[str, list[str]] = {}
    by_rank: dict[int, list[str]] = {}
    for c in hand:
        if c == JOKER:
            continue
        by_suit.setdefault(SUIT[c], []).append(c)
        by_rank.setdefault(RANK[c], []).append(c)
    out = [tuple(g) for g in by_suit.values()]
    out += [tuple(g) for g in by_rank.values() if len(g) > 1]
    return out


def subsets(hand: Sequence[str], cap: int = 4) -> list[tuple[str, ...]]:
    """Every legal play of a hand (non-empty, one suit or one value); groups larger than
    ``cap`` contribute their singles, the whole group and its best prefixes only."""
    out: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()
    for g in groups(hand):
        g = tuple(sorted(g, key=lambda c: -RANK[c]))
        if len(g) <= cap:
            cands = [c for k in range(1, len(g) + 1) for c in combinations(g, k)]
        else:
            cands = [(c,) for c in g] + [g[:k] for k in range(2, len(g) + 1)]
        for c in cands:
            key = tuple(sorted(c))
            if key not in seen:
                seen.add(key)
                out.append(c)
    return out


def _scale(sim: Sim) -> float:
    return 3.0 + 0.35 * len(sim.deck)


def _win_p(margin: float, scale: float) -> float:
    return _clamp(0.5 + margin / (2 * scale))


#: card values on the piles of a player of each suit: ``VALUES[(suit, ace_eleven)][code]``
VALUES: dict[tuple[str, bool], dict[str, int]] = {
    (su, a11): {c: value(c, su, a11) for c in RANK} for su in "SHCD" for a11 in (False, True)
}


def fast_move(sim: Sim, rng: random.Random) -> Move:
    """The rollout policy: the largest-value group (sometimes a random one) on the face
    where it helps most (margin heuristic), or a joker where it hurts the leader most.

    Values do not depend on the face (every face card of a player has the player's
    suit), so the largest group is the best group for every face."""
    p = sim.turn
    hand = sim.hands[p]
    if not hand:
        return PASS
    n = sim.n
    k = 1.0 / (2 * (3.0 + 0.35 * len(sim.deck)))
    vt = VALUES[(sim.suits[p], sim.ace11)]
    tot, num = sim.tot, sim.num
    ssum: dict[str, int] = {}
    rsum: dict[int, int] = {}
    rcnt: dict[int, int] = {}
    for c in hand:
        if c == JOKER:
            continue
        cv = vt[c]
        su, r = SUIT[c], RANK[c]
        ssum[su] = ssum.get(su, 0) + cv
        rsum[r] = rsum.get(r, 0) + cv
        rcnt[r] = rcnt.get(r, 0) + 1
    # a group by its value and its key: a suit (all cards of it) or a rank (two or more)
    keys: list[tuple[int, str | int]] = [(gv, su) for su, gv in ssum.items()]
    keys += [(gv, r) for r, gv in rsum.items() if rcnt[r] > 1]
    best: Move = PASS
    bestv = 0.0
    if keys:
        gv, key = keys[rng.randrange(len(keys))] if rng.random() < 0.1 else max(keys, key=lambda x: x[0])
        mine = tot[p]
        best_f = -1
        for f in (0, 1, 2):
            top: int | None = None
            for o in range(n):
                if o != p and num[o][f] and (top is None or tot[o][f] > top):
                    top = tot[o][f]
            if top is None:
                top = 0
            a = 0.5 + (mine[f] - top) * k
            b = a + gv * k
            a = min(max(a, 0.0), 1.0)
            b = min(max(b, 0.0), 1.0)
            gain = WEIGHTS[f] * (b - a) + 0.004 * gv
            if gain > bestv:
                bestv, best_f = gain, f
        if best_f >= 0:
            group = tuple(c for c in hand if c != JOKER and (SUIT[c] == key if isinstance(key, str) else RANK[c] == key))
            best = ("play", best_f, group)
    if sim.jokers and JOKER in hand:
        for o in range(n):
            if o == p:
                continue
            for f in range(3):
                if not num[o][f]:
                    continue
                rival = max(tot[x][f] for x in range(n) if x != o and (num[x][f] or x == p))
                t = tot[o][f]
                gain = WEIGHTS[f] * (_win_p(t - rival, 0.5 / k) - _win_p(t - 5 - rival, 0.5 / k)) * 0.9
                if gain > bestv:
                    bestv, best = gain, ("joker", o, f)
    return best


def eval_moves(sim: Sim, me: int, unseen_mean: float, moves: Sequence[Move]) -> list[float]:
    """Normal's static evaluation of each move of ``me`` (the player to act): the
    change of weighted pile-win chances, with piles that can no longer be won or lost
    counted as decided, plus a small reward for the value played (more as the deck
    runs out)."""
    n = sim.n
    deck = len(sim.deck)
    my_turns = deck // n
    hand = sim.hands[me]
    suit = sim.suits[me]
    late = 1.0 - min(1.0, deck / 36)
    opp_future = [(len(sim.hands[o]) + (deck + n - 1) // n) * unseen_mean * 1.2 for o in range(n)]
    S = _scale(sim)

    def pile_value(tot: Sequence[int], f: int, my_left: float) -> float:
        my = tot[me]
        rivals = [(sim.tot[o][f], o) for o in range(n) if o != me and (sim.num[o][f] or sim.tot[o][f] < 0)]
        rivals = [(t if sim.num[o][f] else -99, o) for t, o in rivals]
        if not rivals:
            return 1.0 if my > 0 else (0.5 if my_left > 0 else 0.0)
        top, who = max(rivals)
        if my + my_left < top:
            return 0.0
        if my > top + opp_future[who]:
            return 1.0
        return _win_p(my - top, S)

    hand_value = sum(value(c, suit, sim.ace11) for c in hand if c != JOKER)
    out: list[float] = []
    base = [pile_value([sim.tot[o][f] for o in range(n)], f, hand_value + my_turns * unseen_mean) for f in range(3)]
    for mv in moves:
        v = 0.0
        if mv[0] == "play":
            f, cards = mv[1], mv[2]
            gv = sum(value(c, suit, sim.ace11) for c in cards)
            tot = [sim.tot[o][f] for o in range(n)]
            tot[me] += gv
            left = hand_value - gv + my_turns * unseen_mean
            v = WEIGHTS[f] * (pile_value(tot, f, left) - base[f]) + (0.004 + 0.03 * late) * gv
            if sim.num[me][f] == 0 and pile_value(tot, f, left) > 0:
                v += 0.05 * WEIGHTS[f]
        elif mv[0] == "joker":
            o, f = mv[1], mv[2]
            if sim.num[o][f]:
                rival = max(sim.tot[x][f] for x in range(n) if x != o and (sim.num[x][f] or x == me))
                t = sim.tot[o][f]
                v = WEIGHTS[f] * (_win_p(t - rival, S) - _win_p(t - 5 - rival, S)) * (1.0 if n == 2 else 0.7)
        out.append(v)
    return out


def candidate_moves(sim: Sim, me: int, selected: Sequence[str] = ()) -> list[Move]:
    """The moves of ``me`` worth considering: every legal play (see :func:`subsets`) on
    each face, jokers on opponents' faces, and passing; with cards already selected,
    only plays that contain them (and passing)."""
    hand = sim.hands[me]
    sel = set(selected)
    moves: list[Move] = [PASS]
    for g in subsets(hand):
        if sel and not sel.issubset(g):
            continue
        for f in range(3):
            moves.append(("play", f, g))
    if sim.jokers and JOKER in hand and not sel:
        for o in range(sim.n):
            if o != me:
                for f in range(3):
                    moves.append(("joker", o, f))
    return moves
