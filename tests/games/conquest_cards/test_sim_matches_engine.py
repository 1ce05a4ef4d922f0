"""The CPU players' fast simulator (``sim.Sim``) against the engine (issue 29).

``sim.py`` re-implements the rules for the search's speed; nothing else compares it with
:class:`~conquest_widget.games.conquest_cards.engine.ConquestCards`.  These tests play
random legal games on the engine (the deal by the engine's own seeded chance, the actions
picked by a seeded ``random.Random``) with 2, 3 and 4 players, jokers on and off, and
the other two options (ace eleven, revealed hands) cycled, and check that the simulator
agrees with the engine wherever it models the same thing:

- **the state** a simulator is built from (``Sim.from_sample`` of ``true_state`` and of
  a resampled view rebuilt as a match): hands, deck order, each pile's total, aces and
  number cards, whose turn, game over; a sample in the draw stage draws like ``Draw``;
- **the moves**: ``candidate_moves`` is exactly the engine's legal turn moves (every
  play reachable by ``Select``... ``PlayOn``, every ``Joker``, ``EndTurn``) less the
  long-group plays its cap leaves out by design (groups of more than 4 cards give only
  their singles, the whole group and its highest-ranked prefixes); with cards already
  selected, the plays that contain them and passing;
- **each move's result**: ``Sim.apply`` against the engine's actions for the move plus the
  next ``Draw`` — or at the end under rule 2 the simulator's placement of the revealed
  cards, which must be one the engine's ``Place`` actions can make — and, once over,
  ``Sim.result()`` against ``outcome().details`` (points, pile winners, the tie-break
  chain, ranks, winners) and ``Sim.utility`` against the engine's ranks and points;
- **whole games** played to the end in lockstep through both, with the simulator's rollout
  policy (``fast_move``) and with uniformly random candidate moves; ``Sim.rollout``
  gives the utility of the same play step by step.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

import pytest

from conquest_widget.core.protocol import Action
from conquest_widget.games.conquest_cards.cards import FACES, JOKER, RANK, SUIT, deck_cards, number_cards
from conquest_widget.games.conquest_cards.engine import (
    ConquestCards,
    Draw,
    EndTurn,
    Joker,
    Place,
    PlayOn,
    Select,
    Unselect,
)
from conquest_widget.games.conquest_cards.resample import match_from_sample, resample_hidden, true_state
from conquest_widget.games.conquest_cards.scoring import pile_stats
from conquest_widget.games.conquest_cards.setup import CardsSetup
from conquest_widget.games.conquest_cards.sim import PASS, Move, Sim, candidate_moves, fast_move

from .util import pos_match

#: (players, jokers): every player count with jokers off and on
CONFIGS = [(n, jokers) for n in (2, 3, 4) for jokers in (False, True)]
#: (ace_eleven, reveal_hands), cycled over the games of each configuration
OPTIONS = [(False, False), (True, True), (False, True), (True, False)]
#: the cap of ``sim.subsets``: longer groups give singles, the whole group and prefixes
CAP = 4
_ORDER = {c: i for i, c in enumerate(number_cards())}

# a move in a comparable form: ("play", face, frozenset(cards)), ("joker", seat, face), ("pass",)
Key = tuple[Any, ...]


def _key(move: Move) -> Key:
    return ("play", move[1], frozenset(move[2])) if move[0] == "play" else tuple(move)


def _matches(n: int, jokers: bool, games: int, seed: int) -> Iterator[tuple[str, ConquestCards]]:
    """Fresh seeded games (suits and the deal by the engine's chance) and a label."""
    for g in range(games):
        ace_eleven, reveal = OPTIONS[g % len(OPTIONS)]
        setup = CardsSetup.quick(n, ace_eleven=ace_eleven, reveal_hands=reveal, jokers=jokers)
        s = seed * 1000 + g
        yield (f"{n} players, jokers={jokers}, ace_eleven={ace_eleven}, reveal_hands={reveal}, seed={s}",
               ConquestCards(setup, seed=s))


# ------------------------------------------------------------ states
def _engine_state(m: ConquestCards) -> dict[str, Any]:
    st = true_state(m)
    public = m.view(None)
    return {
        "hands": [sorted(h) for h in st["hands"]],
        "deck (top first)": st["deck"],
        "piles (total, aces, number cards)": [
            [(p["total"], p["aces"], sum(c != JOKER for c in p["cards"])) for p in player["piles"]]
            for player in public["players"]],
        "turn": st["turn"],
        "over": m.outcome() is not None,
    }


def _sim_state(sim: Sim) -> dict[str, Any]:
    return {
        "hands": [sorted(h) for h in sim.hands],
        "deck (top first)": sim.deck[::-1],
        "piles (total, aces, number cards)": [
            [(sim.tot[s][f], sim.aces[s][f], sim.num[s][f]) for f in range(3)] for s in range(sim.n)],
        "turn": sim.turn,
        "over": sim.over,
    }


def _assert_same(sim: Sim, m: ConquestCards, where: str) -> None:
    """The simulator and the engine hold the same state (the engine at the same point:
    after the draw, or over)."""
    assert _sim_state(sim) == _engine_state(m), where
    stage = m.view(None)["stage"]
    assert stage == ("over" if sim.over else "play"), f"{where}: engine stage {stage!r}, sim over={sim.over}"
    if sim.over:
        _assert_same_result(sim, m, where)


def _assert_same_result(sim: Sim, m: ConquestCards, where: str) -> None:
    out = m.outcome()
    assert out is not None, where
    details = out.details
    assert json.loads(json.dumps(sim.result())) == details, f"{where}: the sim's result differs from the engine's"
    # utility: 0.9 x the win share (1/k of a win shared by k) + 0.1 x the clamped point margin
    ranks, points = details["ranks"], details["points"]
    n = len(ranks)
    winners = [s for s in range(n) if ranks[s] == 1]
    for me in range(n):
        share = 1.0 / len(winners) if me in winners else 0.0
        margin = 0.5 + (points[me] - max(points[o] for o in range(n) if o != me)) / 12
        expected = 0.9 * share + 0.1 * min(max(margin, 0.0), 1.0)
        assert sim.utility(me) == pytest.approx(expected), f"{where}: utility of seat {me} (ranks {ranks})"


# ------------------------------------------------------------ moves
def _engine_moves(m: ConquestCards, seat: int, selected: Sequence[str]) -> set[Key]:
    """Every turn move the engine allows from the current selection: the plays of every
    card set reachable by Select actions (added in canonical order: a legal group stays
    legal in any order) on every face the engine offers, every Joker, and EndTurn.  The
    Select/Unselect pairs are applied to ``m``; the caller restores it."""
    out: set[Key] = set()
    sel = list(selected)

    def walk(last: int) -> None:
        legal = m.legal_actions(seat)
        if EndTurn() in legal:
            out.add(PASS)
        for a in legal:
            if isinstance(a, PlayOn):
                out.add(("play", FACES.index(a.face), frozenset(sel)))
            elif isinstance(a, Joker):
                out.add(("joker", a.target, FACES.index(a.face)))
        for a in legal:
            if isinstance(a, Select) and _ORDER[a.card] > last:
                m.apply(a, seat)
                sel.append(a.card)
                walk(_ORDER[a.card])
                sel.pop()
                m.apply(Unselect(a.card), seat)

    walk(-1)
    return out


def _left_out_by_cap(hand: Sequence[str], play: frozenset[str]) -> bool:
    """True for a legal play that ``sim.subsets`` leaves out by design: two or more cards
    of a group (one suit or one value) of more than CAP cards of the hand, other than the
    whole group or its highest-ranked cards."""
    if len(play) < 2:
        return False
    first = next(iter(play))
    same_suit = all(SUIT[c] == SUIT[first] for c in play)
    group = [c for c in hand if c != JOKER and (SUIT[c] == SUIT[first] if same_suit else RANK[c] == RANK[first])]
    if len(group) <= CAP:
        return False
    top = sorted(group, key=lambda c: -RANK[c])[: len(play)]
    return play != frozenset(top)


def _assert_same_moves(sim: Sim, m: ConquestCards, seat: int, selected: Sequence[str], where: str) -> list[Move]:
    moves = candidate_moves(sim, seat, selected)
    keys = [_key(mv) for mv in moves]
    assert len(set(keys)) == len(keys), f"{where}: candidate_moves repeats a move"
    engine = _engine_moves(m, seat, selected)
    sim_keys = set(keys)
    assert sim_keys <= engine, f"{where}: moves the engine refuses: {sim_keys - engine}"
    hand = sim.hands[seat]
    missing = {k for k in engine - sim_keys if not (k[0] == "play" and _left_out_by_cap(hand, k[2]))}
    assert not missing, f"{where}: legal moves the sim does not offer: {missing}"
    return moves


# ------------------------------------------------------------ applying a move to the engine
def _actions(move: Move) -> list[Action]:
    if move[0] == "play":
        return [*(Select(c) for c in move[2]), PlayOn(FACES[move[1]])]
    if move[0] == "joker":
        return [Joker(move[1], FACES[move[2]])]
    return [EndTurn()]


def _assign(cards: Sequence[str], need: list[list[int]], suit: str, ace_eleven: bool) -> list[int] | None:
    """Faces for ``cards`` whose (total, number cards, aces) add up to ``need`` per face
    exactly, or None (received cards are number cards: every value is positive)."""
    if not cards:
        return [] if not any(x for row in need for x in row) else None
    total, aces, numbers = pile_stats([cards[0]], suit, ace_eleven)
    for f, row in enumerate(need):
        if row[0] >= total and row[1] >= numbers and row[2] >= aces:
            row[0] -= total
            row[1] -= numbers
            row[2] -= aces
            rest = _assign(cards[1:], need, suit, ace_eleven)
            row[0] += total
            row[1] += numbers
            row[2] += aces
            if rest is not None:
                return [f, *rest]
    return None


def _place_like(sim: Sim, m: ConquestCards, where: str) -> None:
    """Rule 2: the engine's revealed cards placed the way the simulator placed them (the
    sim's piles must be reachable from the engine's by placing exactly the cards each
    player received; the engine lets the receiver choose any face for each)."""
    public = m.view(None)
    options = public["options"]
    plan: dict[int, list[tuple[str, int]]] = {}
    for owner, cards in enumerate(public["to_place"]):
        if not cards:
            continue
        piles = public["players"][owner]["piles"]
        need = [[sim.tot[owner][f] - piles[f]["total"],
                 sim.num[owner][f] - sum(c != JOKER for c in piles[f]["cards"]),
                 sim.aces[owner][f] - piles[f]["aces"]] for f in range(3)]
        faces = _assign(cards, need, public["players"][owner]["suit"], options["ace_eleven"])
        assert faces is not None, (f"{where}: the sim's piles of seat {owner} (per face: total, number cards, aces "
                                   f"{need} more than the engine's) are not the engine's plus the received cards {cards}")
        plan[owner] = list(zip(cards, faces, strict=True))
    while m.view(None)["stage"] == "place":
        seat = m.to_act()[0]
        card, f = plan[seat].pop()
        m.apply(Place(card, FACES[f]), seat)
    assert not any(plan.values()), f"{where}: the engine took fewer cards to place than the sim placed"


def _engine_turn(sim_after: Sim, m: ConquestCards, seat: int, move: Move, where: str) -> None:
    """Play ``move`` on the engine and bring it to the point the simulator's ``apply``
    reaches: the next player's draw done, or the end (placements done like the sim's)."""
    for a in _actions(move):
        m.apply(a, seat)  # IllegalActionError: the simulator played an illegal move
    stage = m.view(None)["stage"]
    if stage == "draw":
        m.apply(Draw(), m.to_act()[0])
    elif stage == "place":
        _place_like(sim_after, m, where)


# ------------------------------------------------------------ positions
def _check_position(m: ConquestCards, seat: int, rng: random.Random, label: str) -> int:
    """Compare the simulator with the engine on ``m`` (draw or play stage, ``seat`` to
    act); the match is left as it was.  Returns the number of checks made."""
    snap = m.snapshot()
    view = m.view(seat)
    where = f"{label}, turns played {view['turns_played']}, seat {seat}, stage {view['stage']}"
    selected = list(view["selected"])
    sim = Sim.from_sample(true_state(m))
    if view["stage"] == "draw":
        m.apply(Draw(), seat)  # a sample in the draw stage draws for the player to act
    _assert_same(sim, m, where)
    checks = 1
    moves = _assert_same_moves(sim, m, seat, selected, where)
    checks += 1
    m.restore(snap)
    if view["stage"] == "draw":
        m.apply(Draw(), seat)
    if not selected:
        before = _sim_state(sim)
        # three random moves, passing, and a joker when there is one
        picks = [*rng.sample(moves, min(len(moves), 3)), PASS, *[mv for mv in moves if mv[0] == "joker"][:1]]
        for mv in picks:
            after = sim.copy()
            after.apply(mv)
            inner = m.snapshot()
            _engine_turn(after, m, seat, mv, f"{where}, move {mv}")
            _assert_same(after, m, f"{where}, after move {mv}")
            m.restore(inner)
            checks += 1
        assert _sim_state(sim) == before, f"{where}: applying moves to copies changed the original"
    m.restore(snap)
    return checks


def _check_resampled(m: ConquestCards, seat: int, rng: random.Random, label: str) -> int:
    """The bots' path: a simulator from ``resample_hidden(view)`` against that sample
    rebuilt as a match (``match_from_sample``), then one move in both."""
    view = m.view(seat)
    sample = resample_hidden(view, rng)
    sim = Sim.from_sample(sample)
    r = match_from_sample(sample, view, seed=rng.randrange(2**31))
    where = f"{label}, resampled for seat {seat} at turn {view['turns_played']}"
    if view["stage"] == "draw":
        r.apply(Draw(), seat)
    _assert_same(sim, r, where)
    moves = candidate_moves(sim, seat)
    mv = moves[rng.randrange(len(moves))]
    sim.apply(mv)
    _engine_turn(sim, r, seat, mv, f"{where}, move {mv}")
    _assert_same(sim, r, f"{where}, after move {mv}")
    return 2


@pytest.mark.parametrize("n,jokers", CONFIGS)
def test_sim_agrees_with_the_engine_on_random_positions(n: int, jokers: bool) -> None:
    """Every draw/play position of random legal games: state, moves, each move's result."""
    checks = positions = 0
    rng = random.Random(1000 * n + jokers)
    for label, m in _matches(n, jokers, games=6, seed=10 * n + jokers):
        while m.outcome() is None:
            seat = m.to_act()[0]
            stage = m.view(None)["stage"]
            if stage in ("draw", "play"):
                positions += 1
                checks += _check_position(m, seat, rng, label)
                if stage == "draw" and rng.random() < 0.25:
                    checks += _check_resampled(m, seat, rng, label)
            legal = m.legal_actions(seat)
            m.apply(legal[rng.randrange(len(legal))], seat)
    # 600-800 positions per configuration (about 4,000 in all), about 4.7 checks each
    assert positions >= 500 and checks >= 2500, (positions, checks)


# ------------------------------------------------------------ whole games
def _lockstep(sim: Sim, m: ConquestCards, choose: Callable[[Sim], Move], label: str) -> int:
    """Play to the end, each move chosen by ``choose(sim)`` and applied to both; the state
    is compared after every turn and the result at the end.  Returns the turns played."""
    turns = 0
    while not sim.over:
        seat = sim.turn
        mv = choose(sim)
        sim.apply(mv)
        where = f"{label}, turn {turns}, seat {seat}, move {mv}"
        _engine_turn(sim, m, seat, mv, where)
        _assert_same(sim, m, where)
        turns += 1
    assert m.outcome() is not None
    return turns


@pytest.mark.parametrize("n,jokers", CONFIGS)
def test_games_played_to_the_end_agree(n: int, jokers: bool) -> None:
    """Whole games through the sim and through the engine: the rollout policy (and
    ``rollout`` itself), and uniformly random candidate moves."""
    rng = random.Random(77 + 10 * n + jokers)
    games = 0
    for label, m in _matches(n, jokers, games=12, seed=500 + 10 * n + jokers):
        seat = m.to_act()[0]
        m.apply(Draw(), seat)
        start = Sim.from_sample(true_state(m))
        _assert_same(start, m, label)
        snap = m.snapshot()
        # the rollout policy, and rollout() giving the same utility as that play step by step
        seed = rng.getrandbits(32)
        policy = random.Random(seed)
        sim = start.copy()
        _lockstep(sim, m, partial(fast_move, rng=policy), f"{label}, fast_move seed {seed}")
        for me in range(n):
            assert start.copy().rollout(me, random.Random(seed)) == sim.utility(me), f"{label}: rollout for seat {me}"
        # uniformly random candidate moves (every kind of legal turn, jokers included)
        m.restore(snap)
        sim = start.copy()
        _lockstep(sim, m, lambda s: rng.choice(candidate_moves(s, s.turn)), f"{label}, random moves")
        games += 2
    assert games == 24


# ------------------------------------------------------------ every step of the tie-break chain
#: last-turn positions (seat 0 to play, the deck empty; suits S and H) whose outcome after
#: passing is decided by each step of the chain: piles (J, Q, K) of seat 0 and seat 1
TIE_POSITIONS = {
    "shared": ((["2S"], ["3S"], ["4S"]), (["2H"], ["3H"], ["4H"])),
    "aces": ((["AC", "4S"], ["6C"], ["2S"]), (["3H"], ["5H"], ["5C"])),
    "jack_queen": ((["5S"], ["5C"], ["2S"]), (["4H"], ["4C"], ["4D"])),
    "sum": ((["5S"], ["5C"], ["2S"]), (["4H"], ["4C"], ["9D"])),
}


@pytest.mark.parametrize("decided_by", sorted(TIE_POSITIONS))
@pytest.mark.parametrize("ace_eleven", [False, True])
def test_every_tie_break_step_agrees(decided_by: str, ace_eleven: bool) -> None:
    """Random play seldom reaches the later steps of the chain (aces, Jack+Queen, a shared
    win): positions built for them, every candidate move of the last turn in both."""
    piles = [[list(p) for p in seat] for seat in TIE_POSITIONS[decided_by]]
    placed = {c for seat in piles for p in seat for c in p}
    rest = [c for c in deck_cards(False) if c not in placed]
    hands = [[c for c in rest if SUIT[c] in "SC"], [c for c in rest if SUIT[c] in "HD"]]
    m = pos_match(hands, piles, deck=[], stage="play", ace_eleven=ace_eleven)
    sim = Sim.from_sample(true_state(m))
    where = f"{decided_by} position, ace_eleven={ace_eleven}"
    _assert_same(sim, m, where)
    seen = set()
    for mv in _assert_same_moves(sim, m, 0, [], where):
        after = sim.copy()
        after.apply(mv)
        snap = m.snapshot()
        _engine_turn(after, m, 0, mv, f"{where}, move {mv}")
        _assert_same(after, m, f"{where}, move {mv}")
        out = m.outcome()
        assert out is not None
        seen.add(out.details["decided_by"])
        m.restore(snap)
    assert decided_by in seen and "points" in seen, seen
