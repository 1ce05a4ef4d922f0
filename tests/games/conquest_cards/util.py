"""Helpers for the card game's tests: positions from short descriptions, random play."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from conquest_widget.games.conquest_cards.cards import deck_cards, face_cards
from conquest_widget.games.conquest_cards.engine import ConquestCards
from conquest_widget.games.conquest_cards.setup import CardsSetup, Position


def pos_match(hands: list[list[str]], piles: list[list[list[str]]] | None = None, *, suits: tuple[str, ...] = ("S", "H"),
              deck: list[str] | None = None, to_act: int = 0, stage: str = "draw", seed: int = 0,
              **options: bool) -> ConquestCards:
    """A match from an editor position (piles default to empty)."""
    n = len(hands)
    piles = piles if piles is not None else [[[], [], []] for _ in range(n)]
    pos = Position(tuple(map(tuple, hands)), tuple(tuple(map(tuple, p)) for p in piles),
                   None if deck is None else tuple(deck), to_act, stage)
    return ConquestCards(CardsSetup.quick(n, suits=suits, position=pos, **options), seed=seed)


def random_match(rng: random.Random, n: int | None = None, **options: Any) -> ConquestCards:
    n = n or rng.choice([2, 3, 4])
    setup = ConquestCards.random_setup(rng, n)
    if options:
        setup = CardsSetup(setup.players, setup.suits, **{**setup.options(), **options})
    return ConquestCards(setup, seed=rng.randrange(2**31))


def play_random(m: ConquestCards, rng: random.Random, stop_at: int | None = None) -> None:
    k = 0
    while m.outcome() is None and (stop_at is None or k < stop_at):
        seat = m.to_act()[0]
        m.apply(rng.choice(m.legal_actions(seat)), seat)
        k += 1


def play_turn(m: ConquestCards, seat: int, cards: list[str], face: str | None) -> None:
    """Draw (if needed), select ``cards`` and play them on ``face`` (None = end turn)."""
    from conquest_widget.games.conquest_cards.engine import (
        Draw,
        EndTurn,
        PlayOn,
        Select,
    )

    if m.state["stage"] == "draw":
        m.apply(Draw(), seat)
    for c in cards:
        m.apply(Select(c), seat)
    m.apply(PlayOn(face) if face else EndTurn(), seat)


def all_cards_of(m: ConquestCards) -> Counter[str]:
    """Every card of a match wherever it is (hands, deck, piles, set aside, rule 2 places)."""
    st = m.state
    c: Counter[str] = Counter()
    for h in st["hands"]:
        c.update(h)
    c.update(st["deck"])
    for p in st["piles"]:
        for x in p:
            c.update(x)
    c.update(st["set_aside"])
    for h in st["to_place"] or ():
        c.update(h)
    c.update(st["dead"] or ())
    return c


def full_set(suits: list[str]) -> Counter[str]:
    """What :func:`all_cards_of` must count: the 40 number cards, both jokers (in play or
    set aside) and the face cards of absent suits."""
    return Counter(deck_cards(True)) + Counter(c for s in "SHCD" if s not in suits for c in face_cards(s))


def end_match(piles: list[list[list[str]]], *, suits: tuple[str, ...] = ("S", "H"), last: str = "2C",
              hands: list[list[str]] | None = None, dump: int | None = None, **options: bool) -> ConquestCards:
    """A match one draw from its end: seat 0 draws ``last`` (the only deck card);
    every card not placed goes into seat ``dump``'s hand (default: the last seat)."""
    n = len(piles)
    hands = [list(h) for h in (hands or [[] for _ in range(n)])]
    dump = n - 1 if dump is None else dump
    used = Counter(c for h in hands for c in h) + Counter(c for p in piles for x in p for c in x) + Counter([last])
    rest = Counter(deck_cards(options.get("jokers", False))) - used
    hands[dump] += sorted(rest.elements())
    return pos_match(hands, piles, suits=suits, deck=[last], **options)


def frozen(m: ConquestCards) -> tuple[Any, ...]:
    """Everything observable about a match, for "nothing changed" checks."""
    return (json.dumps(m.to_dict(), sort_keys=True), json.dumps(m.state, sort_keys=True, default=str), len(m.events),
            m.chance.draws, [json.dumps(m.view(s), sort_keys=True) for s in [None, *range(m.n_seats)]])
