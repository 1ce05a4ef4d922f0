"""Hidden information is a security property: no view or event of a seat reveals a card
it has not seen, and two matches that differ only in unseen cards look identical to it."""

from __future__ import annotations

import json
import random
import re

from conquest_widget.core.bots import decision
from conquest_widget.games.conquest_cards.bots import BOTS

from .util import play_random, random_match

CARD = re.compile(r'"((?:10|[2-9AJQK])[SHCD]|JK)"')


def _seen(m, seat: int) -> set[str]:
    """The cards ``seat`` may know: own hand, every pile, the set-aside cards and the
    revealed hands (rule 2, at the end)."""
    st = m.state
    seen = set(st["hands"][seat]) | set(st["set_aside"])
    for p in st["piles"]:
        for pile in p:
            seen.update(pile)
    for h in st["revealed"] or ():
        seen.update(h)
    return seen


def _pairs(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        m = random_match(rng)
        play_random(m, rng, stop_at=rng.randrange(0, 140))
        seat = rng.randrange(m.n_seats)
        yield m, m.hidden_variant(seat, rng), seat


def test_no_leak_pairs_over_1000_random_states() -> None:
    """1,000 seeded random (state, variant) pairs: the seat's view, the public view, the
    seat's events and legal actions are byte-identical, and Easy and Normal choose the same."""
    differ = 0
    n = 0
    for m, v, seat in _pairs(1000, 2024):
        n += 1
        a, b = json.dumps(m.view(seat), sort_keys=True), json.dumps(v.view(seat), sort_keys=True)
        assert a == b
        assert json.dumps(m.view(None), sort_keys=True) == json.dumps(v.view(None), sort_keys=True)
        ea, eb = json.dumps(m.events_for(seat), sort_keys=True), json.dumps(v.events_for(seat), sort_keys=True)
        assert ea == eb
        assert m.to_act() == v.to_act()
        if seat in m.to_act():
            assert m.legal_actions(seat) == v.legal_actions(seat)
            for label in ("easy", "normal"):
                assert BOTS[label]().choose(*decision(m, seat, 1)) == BOTS[label]().choose(*decision(v, seat, 1))
        differ += m.state != v.state
    assert differ >= n // 2, f"only {differ} of {n} variants differ"


def test_views_and_events_name_only_cards_the_seat_has_seen() -> None:
    """Scan every card code in each seat's view and events at every step of random games."""
    rng = random.Random(7)
    checked = 0
    for _ in range(50):
        m = random_match(rng)
        since = 0
        while True:
            for seat in range(m.n_seats):
                # new events only: earlier ones were checked when the seat knew less
                text = json.dumps(m.view(seat)) + json.dumps(m.events_for(seat, since))
                assert set(CARD.findall(text)) <= _seen(m, seat), "a view or event names an unseen card"
                checked += 1
            public = json.dumps(m.view(None)) + json.dumps(m.events_for(None, since))
            since = len(m.events)
            pub_seen = set(m.state["set_aside"]) | {c for p in m.state["piles"] for x in p for c in x} | \
                {c for h in m.state["revealed"] or () for c in h}
            assert set(CARD.findall(public)) <= pub_seen
            if m.outcome() is not None:
                break
            seat = m.to_act()[0]
            m.apply(rng.choice(m.legal_actions(seat)), seat)
    assert checked > 5000


def test_hard_bot_chooses_the_same_on_indistinguishable_states() -> None:
    tried = 0
    for m, v, seat in _pairs(200, 99):
        if seat not in m.to_act() or len(m.legal_actions(seat)) < 3 or m.state["stage"] != "play":
            continue
        bot = BOTS["hard"]
        assert bot().choose(*decision(m, seat, 5)) == bot().choose(*decision(v, seat, 5))
        tried += 1
        if tried >= 12:
            break
    assert tried >= 12


def test_hidden_variant_moves_only_unseen_cards() -> None:
    for m, v, seat in _pairs(200, 5):
        assert v.state["hands"][seat] == m.state["hands"][seat]
        assert v.state["piles"] == m.state["piles"]
        assert [len(h) for h in v.state["hands"]] == [len(h) for h in m.state["hands"]]
        assert len(v.state["deck"]) == len(m.state["deck"])
        hidden_m = sorted(m.state["deck"] + [c for s, h in enumerate(m.state["hands"]) if s != seat for c in h])
        hidden_v = sorted(v.state["deck"] + [c for s, h in enumerate(v.state["hands"]) if s != seat for c in h])
        assert hidden_m == hidden_v
        assert v.to_dict()["log"][:1] == m.to_dict()["log"][:1] or m.setup.suits is not None
        assert [e for e in v.log if e["seat"] != -1] == [e for e in m.log if e["seat"] != -1]


def test_hidden_variants_of_editor_positions() -> None:
    """Variants of matches started from editor positions (deck given or shuffled): the
    position's hidden cards move too, the seat sees nothing different."""
    from conquest_widget.games.conquest_cards.cards import deck_cards

    from .util import pos_match

    rng = random.Random(31)
    differ = 0
    for i in range(60):
        cards = deck_cards(jokers=True)
        rng.shuffle(cards)
        hands = [cards[0:3], cards[3:5], cards[5:9]]
        piles = [[cards[9:10], [], []], [[], cards[10:12], []], [[], [], []]]
        deck = cards[12:] if i % 2 else None
        m = pos_match(hands, piles, suits=("S", "H", "C"), deck=deck, to_act=i % 3, jokers=True, seed=i)
        play_random(m, rng, stop_at=rng.randrange(0, 40))
        seat = rng.randrange(3)
        v = m.hidden_variant(seat, rng)
        assert json.dumps(m.view(seat), sort_keys=True) == json.dumps(v.view(seat), sort_keys=True)
        assert m.events_for(seat) == v.events_for(seat) and m.view(None) == v.view(None)
        differ += m.state != v.state
    assert differ >= 40
