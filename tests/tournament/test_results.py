"""Win rates, ratings and summaries from game records."""

from __future__ import annotations

import random

from conquest_widget.core.stats import wilson
from conquest_widget.tournament import fit_bradley_terry, pair_table, ratings, summarise


def _records(strengths: dict[str, float], n: int, seed: int = 0) -> list[dict]:
    """2-seat games between every pair, won with the Bradley-Terry probability."""
    rng = random.Random(seed)
    names = list(strengths)
    recs = []
    for d in range(n):
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                p = strengths[a] / (strengths[a] + strengths[b])
                ranks = [1, 2] if rng.random() < p else [2, 1]
                recs.append({"index": len(recs), "table": i, "deal": d, "seats": [a, b], "ranks": ranks,
                             "reason": "end", "actions": 10 + d % 5, "stats": {"battle": d % 3}})
    return recs


def test_bradley_terry_recovers_the_order_and_the_gaps() -> None:
    strengths = {"weak": 1.0, "mid": 3.0, "strong": 9.0}
    recs = _records(strengths, 400)
    r = ratings(recs, list(strengths), bootstrap=60, seed=3)
    assert r["strong"]["rating"] > r["mid"]["rating"] > r["weak"]["rating"]
    gap = 400 * 0.4771  # log10(3) on the Elo scale
    assert abs((r["strong"]["rating"] - r["mid"]["rating"]) - gap) < 60
    for name, v in r.items():
        lo, hi = v["interval"]
        assert lo <= v["rating"] <= hi and hi - lo < 150, (name, v)
    assert ratings(recs, list(strengths), bootstrap=60, seed=3) == r  # deterministic


def test_a_perfect_record_still_gets_a_finite_rating() -> None:
    r = fit_bradley_terry({("a", "b"): 10.0, ("b", "a"): 0.0}, ["a", "b", "c"])
    assert 1500 < r["a"] < 2500 and r["c"] == 1500.0  # c never played: the centre


def test_pair_table_counts_multiplayer_games_pairwise_with_ties() -> None:
    recs = [{"index": 0, "seats": ["a", "b", "c"], "ranks": [1, 1, 3], "reason": "x", "actions": 1},
            {"index": 1, "seats": ["b", "c", "a"], "ranks": [3, 1, 2], "reason": "x", "actions": 1},
            {"index": 2, "seats": ["a", "b", "b"], "ranks": [2, 1, 3], "reason": "x", "actions": 1}]
    rows = {(p["a"], p["b"]): p for p in pair_table(recs, ["a", "b", "c"])}
    ab = rows[("a", "b")]
    assert (ab["games"], ab["a_wins"], ab["b_wins"], ab["ties"]) == (4, 2, 1, 1)
    assert ab["a_score"] == 2.5 and ab["interval"] == list(wilson(2.5, 4))
    assert (rows[("b", "c")]["a_wins"], rows[("b", "c")]["b_wins"]) == (1, 1)


def test_summary_figures() -> None:
    recs = _records({"x": 1.0, "y": 1.0}, 50)
    recs.append({"index": len(recs), "table": 0, "deal": 99, "seats": ["x", "y"], "ranks": None,
                 "reason": "unfinished", "actions": 500, "stats": {}})
    s = summarise(recs, ["x", "y"], bootstrap=20)
    assert sum(e["seat_games"] for e in s["entrants"]) == 100  # the unfinished game is not rated
    assert s["reasons"] == {"end": 50, "unfinished": 1}
    assert s["lengths"]["max"] == 500 and s["lengths"]["min"] == 10
    assert s["stats"]["battle"]["total"] == sum(d % 3 for d in range(50))
    assert abs(sum(x["win_share"] * x["games"] for x in s["seats"]) - 50) < 1e-9
    assert s == summarise(list(reversed(recs)), ["x", "y"], bootstrap=20)  # order of arrival does not matter
