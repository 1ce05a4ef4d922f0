"""CPU players of Conquest.  Each gets only the seat's view and legal actions.

- **Easy** plays its largest group on a random face card (sometimes nothing), jokers at
  random: legal and a little greedy.
- **Normal** scores every play with pile heuristics: which piles it can still win or has
  safely won (from the cards it has not seen and the turns left), margins, value played.
- **Hard** searches: for every decision it resamples the unseen cards
  (:func:`~.resample.resample_hidden`) into several worlds, plays each of Normal's best
  candidate moves out to the end in every world with a fast policy, and picks the move
  with the best average result (determinized Monte Carlo search).

A bot chooses a whole turn's play and then takes the next step towards it (select a
card, play on a face card, end the turn); with cards already selected it only considers
plays that contain them, so a turn always ends.

    >>> import random
    >>> from conquest_widget.core.bots import play_bots
    >>> from conquest_widget.games.conquest_cards.engine import ConquestCards
    >>> from conquest_widget.games.conquest_cards.setup import CardsSetup
    >>> m = ConquestCards(CardsSetup.quick(2), seed=4)
    >>> play_bots(m, {0: BOTS["easy"](), 1: BOTS["normal"]()}, seed=1) > 0, m.is_over
    (True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from conquest_widget.core.bots import Bot
from conquest_widget.core.protocol import Action

from .cards import FACE_POINTS, FACES, JOKER, RANK, value
from .engine import EndTurn, Joker, Place, PlayOn, Select, Unselect
from .resample import resample_hidden, unseen_cards
from .scoring import pile_stats, pile_winners
from .sim import PASS, Move, Sim, candidate_moves, eval_moves, groups

_END = EndTurn()


def step_towards(move: Move, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """The next action towards a turn move given the current selection."""
    sel = list(view.get("selected") or ())
    want: Action
    if move[0] == "pass":
        want = _END
    elif move[0] == "joker":
        want = Unselect(sel[0]) if sel else Joker(move[1], FACES[move[2]])
    else:
        cards = move[2]
        extra = [c for c in sel if c not in cards]
        missing = [c for c in cards if c not in sel]
        if extra:
            want = Unselect(extra[0])
        elif missing:
            want = Select(missing[0])
        else:
            want = PlayOn(FACES[move[1]])
    return want if want in legal else _END


def place_card(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """Rule 2 placement: the received card and face that gain the most points now."""
    me = view["viewer"]
    players = view["players"]
    ace11 = view["options"]["ace_eleven"]
    best: tuple[float, int] = (-1.0, 0)
    choice = legal[0]
    for i, a in enumerate(legal):
        if not isinstance(a, Place):
            continue
        f = FACES.index(a.face)
        pts = 0.0
        for k, face in enumerate(FACES):
            totals, aces, nonempty = [], [], []
            for p in players:
                cards = list(p["piles"][k]["cards"]) + ([a.card] if p["seat"] == me and k == f else [])
                t, ac, num = pile_stats(cards, p["suit"], ace11)
                totals.append(t)
                aces.append(ac)
                nonempty.append(num > 0)
            winners, _ = pile_winners(totals, aces, nonempty)
            if me in winners:
                pts += FACE_POINTS[face] / len(winners)
        key = (pts + 0.01 * f, -i)
        if key > best:
            best, choice = key, a
    return choice


def _sim_for(view: Mapping[str, Any], rng: random.Random) -> Sim:
    return Sim.from_sample(resample_hidden(view, rng))


def _unseen_mean(view: Mapping[str, Any]) -> float:
    vals = [RANK[c] for c in unseen_cards(view) if c != JOKER]
    return sum(vals) / len(vals) if vals else 0.0


class EasyBot:
    """Legal and a little greedy: its biggest group on a random face card."""

    label = "easy"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        stage = view["stage"]
        if stage == "place":
            return legal[rng.randrange(len(legal))]
        hand = view["hand"]
        sel = list(view.get("selected") or ())
        if not sel:
            jokers = [a for a in legal if isinstance(a, Joker)]
            if jokers and rng.random() < 0.5:
                return jokers[rng.randrange(len(jokers))]
            if rng.random() < 0.15:
                return _END
        suit = view["players"][view["viewer"]]["suit"]
        gs = [g for g in groups(hand) if set(sel).issubset(g)]
        if not gs:
            return _END
        g = max(gs, key=lambda g: (sum(value(c, suit) for c in g), g))
        return step_towards(("play", rng.randrange(3), g), view, legal)


class NormalBot:
    """Pile heuristics: knows which piles it can still win, counts unseen cards."""

    label = "normal"

    def plan(self, view: Mapping[str, Any], rng: random.Random) -> Move:
        me = view["viewer"]
        sim = _sim_for(view, rng)
        moves = candidate_moves(sim, me, view.get("selected") or ())
        vals = eval_moves(sim, me, _unseen_mean(view), moves)
        best = max(range(len(moves)), key=lambda i: (vals[i], -i))
        return moves[best]

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view["stage"] == "place":
            return place_card(view, legal)
        return step_towards(self.plan(view, rng), view, legal)


class HardBot:
    """Determinized Monte Carlo search over resampled worlds (re-sampled for every
    decision).  ``worlds`` samples, ``candidates`` of Normal's best moves each played
    out once per world with common random numbers; ``followup_worlds`` samples for the
    steps that complete a play already begun (cards selected: only plays containing
    them, or passing, are searched).

    ``peek`` is for measurements only: a function returning the true full state (see
    :func:`~.resample.true_state`) makes this the "sees all cards" search."""

    label = "hard"

    def __init__(self, worlds: int = 24, candidates: int = 8, followup_worlds: int = 8,
                 peek: Callable[[], Mapping[str, Any]] | None = None) -> None:
        self.worlds = worlds
        self.candidates = candidates
        self.followup_worlds = followup_worlds
        self.peek = peek

    def plan(self, view: Mapping[str, Any], rng: random.Random) -> Move:
        me = view["viewer"]
        sel = view.get("selected") or ()
        first = _sim_for(view, rng) if self.peek is None else Sim.from_sample(self.peek())
        moves = candidate_moves(first, me, sel)
        if len(moves) == 1:
            return moves[0]
        prior = eval_moves(first, me, _unseen_mean(view), moves)
        order = sorted(range(len(moves)), key=lambda i: (-prior[i], i))[: self.candidates]
        if PASS in moves and moves.index(PASS) not in order and sel:
            order.append(moves.index(PASS))
        totals = [0.0] * len(order)
        # with cards already selected the turn's plan is only being completed: fewer worlds
        for w in range(self.followup_worlds if sel else self.worlds):
            base = first if w == 0 else (_sim_for(view, rng) if self.peek is None else first)
            seed = rng.getrandbits(32)
            for k, i in enumerate(order):
                totals[k] += base.copy().rollout(me, random.Random(seed), moves[i])
        best = max(range(len(order)), key=lambda k: (round(totals[k], 9), prior[order[k]], -k))
        return moves[order[best]]

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view["stage"] == "place":
            return place_card(view, legal)
        return step_towards(self.plan(view, rng), view, legal)


#: the CPU levels by label (factories)
BOTS: dict[str, Callable[[], Bot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
DEFAULT_BOT = "normal"

