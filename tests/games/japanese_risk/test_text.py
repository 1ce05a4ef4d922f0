"""Every event of a game reads as a sentence in English and Japanese."""

from __future__ import annotations

import random

from conquest_widget.games.japanese_risk.text import STRINGS, describe_event

from .helpers import random_game


def test_every_event_type_has_a_line_in_both_languages():
    rng = random.Random(3)
    seen = set()
    for _ in range(15):
        m = random_game(rng, n=rng.choice([2, 3, 4, 5]))
        names = list(m.setup.players)
        for seat in [None, *range(m.n_seats)]:
            for e in m.events_for(seat):
                seen.add(e["type"])
                for lang in ("en", "ja"):
                    line = describe_event(e, lang, names)
                    assert line and line != e["type"] and "{" not in line, (e, lang)
    assert {"round", "income", "turn", "battle_round", "captured", "revealed"} <= seen
    for key, (en, ja) in STRINGS.items():
        assert en and ja, key


def test_defending_ninjas_are_told_in_both_languages():
    committed = {"type": "committed", "seat": 1, "territory": 11, "n": 0, "ninjas": 2}
    assert describe_event(committed, "en", ["Ann", "Bo"]) == (
        "Bo brings 0 armies from the card of Saitama, and 2 ninjas from reserve")
    assert "忍者2体" in describe_event(committed, "ja", ["Ann", "Bo"])
    revealed = {"type": "revealed", "territory": 11, "owner": 1, "ninjas": 1}
    assert describe_event(revealed, "en", ["Ann", "Bo"]).endswith("1 of its owner's ninjas there defend it")
    assert "ninja" not in describe_event({"type": "revealed", "territory": 11, "owner": 1}, "en", ["Ann", "Bo"])
