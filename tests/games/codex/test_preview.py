"""The placement preview (for the widget) agrees with what the placement then does."""

from __future__ import annotations

import random

from conquest_widget.games.codex.engine import (
    CodexMatch,
    CodexSetup,
    Place,
    Roll,
    preview,
)


def test_preview_matches_the_applied_placement_in_random_games() -> None:
    rng = random.Random(8)
    checked = 0
    for seed in range(60):
        m = CodexMatch(CodexSetup.quick(rng.randrange(2, 7), k=rng.choice((2, 3, 4))), seed=seed)
        while not m.is_over and checked < 3000:
            seat = m.to_act()[0]
            legal = m.legal_actions(seat)
            a = rng.choice(legal)
            if isinstance(a, Place):
                p = preview(m.view(None), a.territory, a.row, a.col, a.faction)
                cash = [m.cash(s) for s in range(m.n_seats)]
                n_ev = len(m.events)
                m.apply(a, seat)
                checked += 1
                assert p["legal"]
                assert [m.cash(s) - cash[s] for s in range(m.n_seats)] == [c["change"] for c in p["cash"]]
                assert {f: v["new"] for f, v in p["prices"].items()} == m.prices()
                removed = [(e["faction"], e["size"]) for e in m.events_for(None, n_ev) if e["type"] == "removed"]
                assert sorted(removed) == sorted((r["faction"], r["size"]) for r in p["removed"])
                forced = [e["seat"] for e in m.events_for(None, n_ev) if e["type"] == "forced"]
                assert p["forced"] == forced
                if p["triggers"]:
                    assert m.is_over
            else:
                m.apply(a, seat)
    assert checked > 500


def test_preview_of_an_illegal_placement_says_so() -> None:
    from .helpers import EMBER, new_match

    m = new_match(dice=[(1, EMBER)], picks=["tide", "tide"])
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2)])
    m.apply(Roll(), 0)
    p = m.preview(1, 2, 1, "ember")
    assert p["legal"] is False and p["blocking"] == 2 and p["removed"] == [] and p["cash"][1]["change"] == 0
