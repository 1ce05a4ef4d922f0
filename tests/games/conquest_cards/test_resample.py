"""The resampler: every sample agrees with the view, samples vary, and the true hidden
cards come back no more often than chance."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from conquest_widget.games.conquest_cards.cards import deck_cards
from conquest_widget.games.conquest_cards.resample import (
    ResampleError,
    match_from_sample,
    resample_hidden,
    unseen_cards,
)

from .util import play_random, random_match


def _states(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        m = random_match(rng)
        play_random(m, rng, stop_at=rng.randrange(0, 100))
        yield m, rng.randrange(m.n_seats), rng


def test_samples_are_always_consistent_with_the_view() -> None:
    built = 0
    for m, seat, rng in _states(300, 1):
        view = m.view(seat)
        s = resample_hidden(view, rng)
        assert s["hands"][seat] == view["hand"]
        assert [len(h) for h in s["hands"]] == [p["hand_size"] if p["seat"] != seat else len(view["hand"])
                                                for p in view["players"]]
        assert len(s["deck"]) == view["deck_size"]
        assert s["piles"] == [[pile["cards"] for pile in p["piles"]] for p in view["players"]]
        everything = Counter(c for h in s["hands"] for c in h) + Counter(s["deck"]) + \
            Counter(c for p in s["piles"] for x in p for c in x) + Counter(c for h in view.get("to_place") or () for c in h) + \
            Counter(view.get("dead") or ())
        assert everything == Counter(deck_cards(m.setup.jokers))
        if s["stage"] in ("draw", "play") and not view["selected"]:
            # the sample as a match looks exactly like the original to the seat
            assert match_from_sample(s, view).view(seat) == view
            built += 1
    assert built > 100


def test_samples_vary_between_calls() -> None:
    for m, seat, rng in _states(30, 2):
        view = m.view(seat)
        if len(unseen_cards(view)) < 6 or view["stage"] == "over":
            continue
        samples = {repr(resample_hidden(view, rng)) for _ in range(20)}
        assert len(samples) >= 15


def test_samples_find_the_true_hidden_cards_no_more_often_than_chance() -> None:
    """For every opponent hand, the number of its true cards that the sample puts back in
    it follows the hypergeometric law of a blind deal (checked to 4 standard deviations);
    the true top card of the deck comes back with frequency 1/unseen."""
    observed = expected = variance = 0.0
    top_hits = top_expected = top_var = 0.0
    exact = exact_expected = 0.0
    for m, seat, rng in _states(120, 3):
        view = m.view(seat)
        if view["stage"] in ("over", "place"):
            continue
        u = len(unseen_cards(view))
        for _ in range(25):
            s = resample_hidden(view, rng)
            for o, hand in enumerate(m.state["hands"]):
                h = len(hand)
                if o == seat or h == 0:
                    continue
                found = len(list((Counter(s["hands"][o]) & Counter(hand)).elements()))
                observed += found
                expected += h * h / u
                variance += h * (h / u) * ((u - h) / u) * ((u - h) / max(1, u - 1))
                exact += Counter(s["hands"][o]) == Counter(hand)
                exact_expected += 1 / math.comb(u, h)
            if m.state["deck"]:
                p = m.state["deck"].count(m.state["deck"][-1]) / u
                top_hits += s["deck"][0] == m.state["deck"][-1]
                top_expected += p
                top_var += p * (1 - p)
    assert expected > 100 and top_expected > 20   # enough data to mean something
    assert abs(observed - expected) < 4 * math.sqrt(variance), (observed, expected)
    assert abs(top_hits - top_expected) < 4 * math.sqrt(top_var) + 1, (top_hits, top_expected)
    assert exact <= exact_expected + 4 * math.sqrt(exact_expected) + 2, (exact, exact_expected)


def test_the_public_view_cannot_be_resampled() -> None:
    m, _, rng = next(_states(1, 4))
    with pytest.raises(ResampleError, match="seat's view"):
        resample_hidden(m.view(None), rng)
