"""Properties over many random games, and illegal actions that must change nothing."""

from __future__ import annotations

import random

import pytest

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.conquest_cards.cards import number_cards
from conquest_widget.games.conquest_cards.engine import (
    Draw,
    EndTurn,
    Joker,
    Place,
    PlayOn,
    Select,
    Unselect,
)
from conquest_widget.games.conquest_cards.scoring import pile_stats, score

from .util import all_cards_of, frozen, full_set, play_random, random_match

PROBES = [Draw(), EndTurn(), PlayOn("J"), PlayOn("X"), Joker(0, "K"), Joker(1, "Q"), Joker(7, "K"),
          Place("7S", "J"), Select("JK"), Select("7X"), Select("QS"), Unselect("AS")]


def test_random_games_keep_every_invariant() -> None:
    """400 random games (all options, 2-4 players): cards are conserved, every listed
    action is legal, the game lasts exactly one turn per deck card, views add up, and
    the outcome follows the scoring of the final piles."""
    rng = random.Random(12)
    for _ in range(400):
        m = random_match(rng)
        expected = full_set(m.state["suits"])
        draws = len(m.state["deck"])
        while m.outcome() is None:
            seat = m.to_act()[0]
            legal = m.legal_actions(seat)
            assert legal and len(legal) == len(set(legal))
            assert all(m.explain(seat, a) is None for a in legal)
            for other in range(m.n_seats):
                if other != seat:
                    assert m.legal_actions(other) == []
            m.apply(rng.choice(legal), seat)
            if rng.random() < 0.1:
                assert all_cards_of(m) == expected
                v = m.view(None)
                assert v["deck_size"] + sum(p["hand_size"] for p in v["players"]) + \
                    sum(len(x["cards"]) for p in v["players"] for x in p["piles"]) + len(v["set_aside"]) + \
                    sum(len(h) for h in v.get("to_place", ())) + len(v.get("dead", ())) == 54 - 3 * m.n_seats
        assert all_cards_of(m) == expected
        assert m.state["turns_played"] == draws and not m.state["deck"]
        st = m.state
        stats = [[pile_stats(p, st["suits"][s], m.setup.ace_eleven) for p in st["piles"][s]] for s in range(m.n_seats)]
        r = score([[x[0] for x in row] for row in stats], [[x[1] for x in row] for row in stats],
                  [[x[2] > 0 for x in row] for row in stats])
        out = m.outcome()
        assert list(out.ranks) == r["ranks"] and out.details["points"] == r["points"]
        assert min(out.ranks) == 1 and out.winners == tuple(r["winners"])


def test_an_illegal_action_changes_nothing() -> None:
    """At random points of random games, actions that are illegal (wrong stage, cards not
    in hand, wrong seat, bad faces, jokers off-rule) raise and leave state, log, events
    and views exactly as they were."""
    rng = random.Random(3)
    refused = 0
    for _ in range(70):
        m = random_match(rng)
        play_random(m, rng, stop_at=rng.randrange(0, 150))
        seat = m.to_act()[0] if m.to_act() else 0
        hand = set(m.state["hands"][seat])
        probes = PROBES + [Select(c) for c in rng.sample(number_cards(), 5) if c not in hand]
        wrong = [(s, Draw()) for s in range(m.n_seats) if s not in m.to_act()]
        for who, action in [(seat, a) for a in probes] + wrong:
            err = m.explain(who, action)
            if err is None:
                continue
            assert str(err) and err.reason
            before = frozen(m)
            with pytest.raises(IllegalActionError):
                m.apply(action, who)
            assert frozen(m) == before
            refused += 1
    assert refused > 500


def test_legal_selections_stay_legal_groups() -> None:
    """Whatever a player selects from the offered actions, the selection always shares
    one suit or one value."""
    rng = random.Random(4)
    for _ in range(200):
        m = random_match(rng)
        play_random(m, rng, stop_at=rng.randrange(0, 100))
        if m.state["stage"] != "play":
            continue
        seat = m.to_act()[0]
        for _ in range(6):
            sels = [a for a in m.legal_actions(seat) if isinstance(a, Select)]
            if not sels:
                break
            m.apply(rng.choice(sels), seat)
            sel = m.state["selected"]
            assert len({c[-1] for c in sel}) == 1 or len({c[:-1] for c in sel}) == 1


def test_actions_with_wrong_field_types_are_refused_not_crashing() -> None:
    """Actions built in Python with fields of the wrong type get a clear refusal."""
    m = random_match(random.Random(1), jokers=True)
    play_random(m, random.Random(2), stop_at=1)
    seat = m.to_act()[0]
    if m.state["stage"] == "draw":
        m.apply(Draw(), seat)
    for bad in (Select(5), Select(None), Unselect(["7S"]), PlayOn(["K"]), PlayOn(3), Joker("1", "K"), Joker(True, "K"),
                Joker(1, None), Place(7, "J")):
        before = frozen(m)
        err = m.explain(seat, bad)
        assert err is not None and err.reason and str(err)
        with pytest.raises(IllegalActionError):
            m.apply(bad, seat)
        assert frozen(m) == before
