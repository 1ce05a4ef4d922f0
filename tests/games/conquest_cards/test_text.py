"""Every event and every explanation has English and Japanese text."""

from __future__ import annotations

import random

from conquest_widget.games.conquest_cards.engine import Draw, Joker, PlayOn, Select
from conquest_widget.games.conquest_cards.text import STRINGS, describe_event, t

from .util import play_random, random_match


def test_every_event_reads_in_english_and_japanese() -> None:
    rng = random.Random(8)
    kinds = set()
    for _ in range(40):
        m = random_match(rng, reveal_hands=True, jokers=rng.random() < 0.5)
        play_random(m, rng)
        names = [p.name for p in m.setup.players]
        for seat in [None, *range(m.n_seats)]:
            for ev in m.events_for(seat):
                for lang in ("en", "ja"):
                    line = describe_event(ev, lang, names)
                    assert (line and line != ev["type"]) or ev["type"] in ("select", "unselect"), ev
                kinds.add(ev["type"])
    assert {"start", "deal", "draw", "play", "pass", "reveal", "place", "over", "joker"} <= kinds


def test_every_explanation_has_both_languages() -> None:
    rng = random.Random(9)
    reasons = set()
    for _ in range(60):
        m = random_match(rng, jokers=rng.random() < 0.5)
        play_random(m, rng, stop_at=rng.randrange(0, 80))
        if not m.to_act():
            continue
        seat = m.to_act()[0]
        for a in (Draw(), Select("7X"), Select("JK"), Select("AS"), PlayOn("X"), PlayOn("J"), Joker(seat, "K"), Joker(9, "K")):
            err = m.explain(seat, a)
            if err is not None:
                assert err.reason in STRINGS, err.reason
                en, ja = t(err.reason, "en", **err.details), t(err.reason, "ja", **err.details)
                assert en == str(err) and ja and ja != en
                reasons.add(err.reason)
    assert len(reasons) >= 6


def test_the_scoring_walk_through_reads_in_both_languages() -> None:
    from conquest_widget.games.conquest_cards.text import scoring_lines

    rng = random.Random(10)
    steps = set()
    for _ in range(150):
        m = random_match(rng)
        play_random(m, rng)
        d = m.outcome().details
        names = [p.name for p in m.setup.players]
        for lang in ("en", "ja"):
            lines = scoring_lines(d, lang, names)
            assert len(lines) == 4 and all(lines)
        steps.add(d["decided_by"])
    assert {"points", "sum"} <= steps
