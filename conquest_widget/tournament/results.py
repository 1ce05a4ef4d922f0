"""Summaries of a tournament's game records: per-pair win rates with 95% Wilson
intervals, Bradley-Terry ratings on the Elo scale with cluster-bootstrap intervals,
seat balance, game lengths, end reasons and the games' own event statistics.

Every figure is a function of the records alone (sorted by game index), so a summary is
the same whichever executor played the games.

    >>> recs = [  # a beats b twice, b beats a once, one tie
    ...     {"index": 0, "table": 0, "deal": 0, "seats": ["a", "b"], "ranks": [1, 2], "reason": "end", "actions": 10, "stats": {"battle": 2}},
    ...     {"index": 1, "table": 0, "deal": 0, "seats": ["b", "a"], "ranks": [2, 1], "reason": "end", "actions": 12, "stats": {}},
    ...     {"index": 2, "table": 0, "deal": 1, "seats": ["a", "b"], "ranks": [2, 1], "reason": "end", "actions": 8, "stats": {"battle": 1}},
    ...     {"index": 3, "table": 0, "deal": 1, "seats": ["b", "a"], "ranks": [1, 1], "reason": "draw", "actions": 9, "stats": {}}]
    >>> pairs = pair_table(recs, ["a", "b"])
    >>> pairs[0]["a"], pairs[0]["b"], pairs[0]["games"], pairs[0]["a_score"], pairs[0]["ties"]
    ('a', 'b', 4, 2.5, 1)
    >>> [round(x, 3) for x in pairs[0]["interval"]]
    [0.219, 0.908]
    >>> fit_bradley_terry({("a", "b"): 2.5, ("b", "a"): 1.5}, ["a", "b"])["a"] > 1500
    True
    >>> s = summarise(recs, ["a", "b"], bootstrap=50, seed=1)
    >>> s["lengths"]["mean"], s["reasons"], s["stats"]["battle"]["total"]
    (9.75, {'end': 3, 'draw': 1}, 3)
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from conquest_widget.core.stats import wilson

#: the Elo-scale centre of the ratings
RATING_CENTRE = 1500.0
#: bootstrap resamples of the ratings by default
BOOTSTRAP = 200


def _finished(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in records if r.get("ranks") is not None]


def pairwise(record: Mapping[str, Any]) -> list[tuple[str, str, float]]:
    """The pairwise results inside one game: ``(x, y, score of x against y)`` for every
    two seats held by different entrants (1 = x ranked better, 0.5 = same rank).

    >>> pairwise({"seats": ["a", "b", "c"], "ranks": [2, 1, 2]})
    [('a', 'b', 0.0), ('a', 'c', 0.5), ('b', 'c', 1.0)]
    """
    seats, ranks = record["seats"], record["ranks"]
    out = []
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i] != seats[j]:
                score = 1.0 if ranks[i] < ranks[j] else 0.0 if ranks[i] > ranks[j] else 0.5
                out.append((seats[i], seats[j], score))
    return out


def pair_table(records: Iterable[Mapping[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """One row per pair of entrants that met (in entrant order): ``games`` (games where
    both sat, counted once per seat pair), ``a_wins``, ``b_wins``, ``ties``, ``a_score``
    (wins + ties/2), ``a_share`` and its 95% Wilson ``interval``."""
    order = {n: i for i, n in enumerate(names)}
    acc: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0])
    for rec in _finished(records):
        for x, y, score in pairwise(rec):
            if order[x] > order[y]:
                x, y, score = y, x, 1.0 - score
            row = acc[(x, y)]
            row[0 if score == 1.0 else 1 if score == 0.0 else 2] += 1
    out = []
    for (a, b), (wa, wb, t) in sorted(acc.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])):
        n = int(wa + wb + t)
        score = wa + t / 2
        lo, hi = wilson(score, n)
        out.append({"a": a, "b": b, "games": n, "a_wins": int(wa), "b_wins": int(wb), "ties": int(t),
                    "a_score": score, "a_share": score / n if n else 0.0, "interval": [lo, hi]})
    return out


def fit_bradley_terry(scores: Mapping[tuple[str, str], float], names: Sequence[str],
                      *, iterations: int = 500, tol: float = 1e-10) -> dict[str, float]:
    """Bradley-Terry strengths fitted by Hunter's MM algorithm on ``scores[(x, y)]`` (x's
    score against y: wins plus half the ties), with one virtual drawn game added to every
    pair that met (so an entrant that won everything still gets a finite rating).
    Returned on the Elo scale: ``1500 + 400 log10(p / geometric mean)`` (the mean over the
    entrants that played); an entrant with no games gets 1500."""
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    w = [[0.0] * k for _ in range(k)]
    for (x, y), s in scores.items():
        w[idx[x]][idx[y]] += s
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if games[i][j] > 0:
                w[i][j] += 0.5
                games[i][j] += 1
    wins = [sum(row) for row in w]
    active = [i for i in range(k) if any(games[i])]
    p = [1.0] * k
    for _ in range(iterations if active else 0):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (p[i] + p[j]) for j in range(k) if j != i and games[i][j])
            new.append(wins[i] / denom if denom else p[i])
        g = math.exp(sum(math.log(new[i]) for i in active) / len(active))
        new = [x / g if i in active else x for i, x in enumerate(new)]
        done = max(abs(a - b) for a, b in zip(new, p, strict=True)) < tol
        p = new
        if done:
            break
    return {n: RATING_CENTRE + 400 * math.log10(p[idx[n]]) for n in names}


def _cluster_scores(records: Sequence[Mapping[str, Any]]) -> list[dict[tuple[str, str], float]]:
    """Pair scores per cluster (one table x deal: the seat rotations of one seed set,
    which are correlated, are resampled together)."""
    clusters: dict[tuple[int, int], dict[tuple[str, str], float]] = {}
    for rec in records:
        c = clusters.setdefault((rec.get("table", 0), rec.get("deal", rec["index"])), defaultdict(float))
        for x, y, s in pairwise(rec):
            c[(x, y)] += s
            c[(y, x)] += 1.0 - s
    return [dict(clusters[key]) for key in sorted(clusters)]


def ratings(records: Iterable[Mapping[str, Any]], names: Sequence[str], *, bootstrap: int = BOOTSTRAP,
            seed: int = 0) -> dict[str, dict[str, Any]]:
    """``{name: {"rating", "interval": [lo, hi]}}``: Bradley-Terry on every pairwise
    result of every finished game, with a 95% percentile interval from ``bootstrap``
    resamples of the (table, deal) clusters (deterministic for a given ``seed``)."""
    clusters = _cluster_scores(_finished(records))
    total: dict[tuple[str, str], float] = defaultdict(float)
    for c in clusters:
        for key, s in c.items():
            total[key] += s
    point = fit_bradley_terry(total, names)
    samples: dict[str, list[float]] = {n: [] for n in names}
    rng = random.Random(f"bootstrap:{seed}")
    for _ in range(bootstrap if clusters else 0):
        acc: dict[tuple[str, str], float] = defaultdict(float)
        for _ in range(len(clusters)):
            for key, s in clusters[rng.randrange(len(clusters))].items():
                acc[key] += s
        for n, r in fit_bradley_terry(acc, names, iterations=200, tol=1e-8).items():
            samples[n].append(r)
    out = {}
    for n in names:
        xs = sorted(samples[n])
        interval = [xs[int(0.025 * (len(xs) - 1))], xs[math.ceil(0.975 * (len(xs) - 1))]] if xs else [point[n], point[n]]
        out[n] = {"rating": point[n], "interval": interval}
    return out


def _quantile(xs: Sequence[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def summarise(records: Iterable[Mapping[str, Any]], names: Sequence[str], *, bootstrap: int = BOOTSTRAP,
              seed: int = 0) -> dict[str, Any]:
    """The results part of the ``--json`` document (see docs/scale.md): ``entrants``,
    ``pairs``, ``seats``, ``lengths``, ``reasons``, ``stats``."""
    recs = sorted(records, key=lambda r: r["index"])
    done = _finished(recs)
    rate = ratings(done, names, bootstrap=bootstrap, seed=seed)
    per: dict[str, dict[str, float]] = {n: {"games": 0, "wins": 0.0, "rank_sum": 0} for n in names}
    n_seats = max((len(r["seats"]) for r in done), default=0)
    seat_wins = [0.0] * n_seats
    seat_games = [0] * n_seats
    for rec in done:
        winners = [s for s, r in enumerate(rec["ranks"]) if r == 1]
        for s, (name, rank) in enumerate(zip(rec["seats"], rec["ranks"], strict=True)):
            per[name]["games"] += 1
            per[name]["rank_sum"] += rank
            share = 1 / len(winners) if rank == 1 else 0.0
            per[name]["wins"] += share
            seat_wins[s] += share
            seat_games[s] += 1
    entrants = []
    for n in names:
        g, w = int(per[n]["games"]), per[n]["wins"]
        entrants.append({
            "name": n, "seat_games": g, "wins": w, "win_share": w / g if g else 0.0,
            "win_interval": list(wilson(w, g)), "mean_rank": per[n]["rank_sum"] / g if g else None,
            "rating": rate[n]["rating"], "rating_interval": rate[n]["interval"],
        })
    seats = [{"seat": s, "games": seat_games[s], "wins": seat_wins[s],
              "win_share": seat_wins[s] / seat_games[s] if seat_games[s] else 0.0,
              "win_interval": list(wilson(seat_wins[s], seat_games[s]))} for s in range(n_seats)]
    lengths = sorted(r["actions"] for r in recs)
    length = ({"mean": statistics.fmean(lengths), "median": statistics.median(lengths), "min": lengths[0],
               "p10": _quantile(lengths, 0.1), "p90": _quantile(lengths, 0.9), "max": lengths[-1]}
              if lengths else {})
    reasons = dict(Counter(r["reason"] for r in recs))
    totals: Counter[str] = Counter()
    for r in recs:
        totals.update(r.get("stats", {}))
    stats = {k: {"total": v, "per_game": v / len(recs)} for k, v in sorted(totals.items())}
    return {"entrants": entrants, "pairs": pair_table(done, names), "seats": seats, "lengths": length,
            "reasons": reasons, "stats": stats}


def format_summary(summary: Mapping[str, Any]) -> str:
    """A plain-text report of :func:`summarise` (what the CLI prints without ``--json``)."""
    lines = []
    ents = sorted(summary["entrants"], key=lambda e: -e["rating"])
    w = max([len(e["name"]) for e in ents] + [7])
    lines.append(f"{'entrant':<{w}}  rating [95% CI]        wins/seat-games  win share [95% CI]   mean rank")
    for e in ents:
        lo, hi = e["rating_interval"]
        wl, wh = e["win_interval"]
        mr = "-" if e["mean_rank"] is None else f"{e['mean_rank']:.2f}"
        lines.append(f"{e['name']:<{w}}  {e['rating']:6.0f} [{lo:4.0f}, {hi:4.0f}]  {e['wins']:7.1f}/{e['seat_games']:<7d}"
                     f"  {100 * e['win_share']:5.1f}% [{100 * wl:4.1f}, {100 * wh:4.1f}]  {mr:>8}")
    if summary["pairs"]:
        lines.append("")
        lines.append("head to head (a's score: wins + ties/2)")
        for p in summary["pairs"]:
            lo, hi = p["interval"]
            lines.append(f"  {p['a']} vs {p['b']}: {100 * p['a_share']:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
                         f"({p['a_wins']}-{p['b_wins']}-{p['ties']}, n={p['games']})")
    if summary["seats"]:
        lines.append("")
        lines.append("seat win shares: " + ", ".join(
            f"seat {s['seat'] + 1} {100 * s['win_share']:.1f}% [{100 * s['win_interval'][0]:.1f}, {100 * s['win_interval'][1]:.1f}]"
            for s in summary["seats"]))
    if summary["lengths"]:
        L = summary["lengths"]
        lines.append(f"game length (actions): mean {L['mean']:.1f}, median {L['median']}, "
                     f"10-90% {L['p10']}-{L['p90']}, range {L['min']}-{L['max']}")
    lines.append("end reasons: " + ", ".join(f"{k} {v}" for k, v in summary["reasons"].items()))
    if summary["stats"]:
        top = sorted(summary["stats"].items(), key=lambda kv: -kv[1]["total"])[:12]
        lines.append("events per game: " + ", ".join(f"{k} {v['per_game']:.2f}" for k, v in top))
    return "\n".join(lines)
