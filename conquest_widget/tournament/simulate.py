"""CPU-only games of any registered game, summarised per bot: ``conquest-widget simulate``.

A simulation is a tournament of one table: the bots given sit at it, one per seat, and
the seats rotate so that every bot plays every seat equally often on the same deals (a
round-robin :class:`~.config.TournamentConfig` with as many seats as bots, so ``games``
is rounded up to whole rotations).  The games are played by :func:`~.play.play_game`,
the one runner of CPU-only games: every bot decides from its seat's view, never from the
match, and game ``i`` is a function of the seed and ``i`` alone, so the result is the
same for any number of processes.

    >>> r = simulate("codex", ["easy", "normal"], games=4, seed=1)
    >>> r["games"], [(row["bot"], row["games"]) for row in r["entries"]]
    (4, [('easy', 4), ('normal', 4)])
    >>> sorted(r["entries"][0])
    ['bot', 'entry', 'games', 'mean_rank', 'name', 'win_rate', 'wins', 'wins_interval']

A game's own figures per seat (its spec's ``seat_stats``, e.g. Japan Conquest's battles
and claims) are averaged per bot as ``mean_<figure>``.  Options that only some games
have (a spec's ``simulate_options``) are refused for the others, never ignored:

    >>> check_options("codex", ["turns"])
    Traceback (most recent call last):
    ...
    conquest_widget.tournament.errors.UnknownOptionError: The Codex of Conquest (codex) has no simulation option --turns: it is an option of Japan Conquest only
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from conquest_widget.core import registry
from conquest_widget.core.stats import format_share, wilson

from .config import TournamentConfig
from .errors import TournamentError, UnknownOptionError
from .runner import run_tournament


def check_options(game_id: str, given: Iterable[str]) -> None:
    """Refuse any of the option names ``given`` that ``game_id``'s simulation does not have,
    naming the option, the game and the games that have it.  Every game takes the bots,
    the number of games, the seed and the number of jobs; the others a game takes are its
    spec's ``simulate_options``."""
    spec = registry.get(game_id)
    for name in given:
        if name in spec.simulate_options:
            continue
        owners = [g.title["en"] for g in registry.all_games() if name in g.simulate_options]
        where = f": it is an option of {' and '.join(owners)} only" if owners else ""
        raise UnknownOptionError(f"{spec.title['en']} ({game_id}) has no simulation option --{name}{where}")


def simulate(game_id: str, bots: str | Sequence[str], *, games: int = 100, seed: int = 1, jobs: int = 1,
             options: Mapping[str, Any] | None = None, progress: bool | None = False) -> dict[str, Any]:
    """Play ``games`` CPU-only games of ``game_id`` between ``bots`` (labels of the game's
    ``BOTS``, one per seat; a comma-separated string is split) and summarise them per bot:
    ``wins`` (first places, shared ones included) with their 95% Wilson interval,
    ``win_rate`` (a first place shared by k counts 1/k), ``mean_rank`` and the mean of
    each of the game's own figures.  ``options``: setup fields for every game (e.g.
    ``{"turns": 10}``), only those of the spec's ``simulate_options``.  ``progress``: a
    tqdm bar (None = only on a terminal)."""
    labels = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else [str(b) for b in bots]
    options = dict(options or {})
    check_options(game_id, options)
    spec = registry.get(game_id)
    if len(labels) not in spec.players:
        raise TournamentError(f"{spec.title['en']} is for {spec.players[0]}-{spec.players[-1]} players, "
                              f"got {len(labels)} bot{'s' if len(labels) != 1 else ''}")
    if games < 1 or jobs < 1:
        raise TournamentError(f"games and jobs must be at least 1, got games={games}, jobs={jobs}")
    config = TournamentConfig.build(game_id, labels, games=games, players=len(labels), seed=seed, options=options)
    result = run_tournament(config, jobs=jobs, progress=progress)
    return summarise_entries(config, result.records)


def summarise_entries(config: TournamentConfig, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """:func:`simulate`'s summary of the ``records`` of ``config`` (one table)."""
    finished = [r for r in records if r["ranks"] is not None]
    n = len(finished)
    entries = []
    for e, entrant in enumerate(config.entrants):
        wins = share = rank = 0.0
        totals: Counter[str] = Counter()
        for r in finished:
            seat = r["seats"].index(entrant.name)
            firsts = r["ranks"].count(1)
            if r["ranks"][seat] == 1:
                wins += 1
                share += 1 / firsts
            rank += r["ranks"][seat]
            for key, value in (r.get("seat_stats") or [{}] * len(r["seats"]))[seat].items():
                totals[key] += value
        lo, hi = wilson(wins, n)
        row: dict[str, Any] = {"entry": e + 1, "name": entrant.name, "bot": entrant.bot, "games": n,
                               "wins": int(wins), "wins_interval": [round(lo, 4), round(hi, 4)],
                               "win_rate": share / n if n else 0.0, "mean_rank": round(rank / n, 3) if n else None}
        for key, total in totals.items():
            row[f"mean_{key}"] = total / n
        entries.append(row)
    lengths = sorted(r["actions"] for r in records) or [0]
    return {
        "game": config.game, "bots": [e.bot for e in config.entrants], "games": n, "seed": config.seed,
        "options": dict(config.options), "unfinished": len(records) - n, "entries": entries,
        "end_reasons": dict(Counter(r["reason"] for r in records)),
        "actions": {"min": lengths[0], "median": statistics.median_low(lengths), "max": lengths[-1]},
    }


def format_result(result: Mapping[str, Any]) -> str:
    """A readable table of :func:`simulate`'s result: one row per bot, its wins with the
    95% Wilson interval, its mean rank and the means of the game's own figures."""
    options = ", ".join(f"{k}={v}" for k, v in result["options"].items())
    head = f"{result['game']}: {result['games']} games, seed {result['seed']}" + (f", {options}" if options else "")
    rows = result["entries"]
    figures = [k for k in rows[0] if k.startswith("mean_") and k != "mean_rank"] if rows else []
    table = [["entry", "wins (95% Wilson)", "mean rank", *(k.removeprefix("mean_").replace("_", " ") for k in figures)]]
    for row in rows:
        table.append([f"{row['entry']} {row['name']}", format_share(row["wins"], result["games"]), f"{row['mean_rank']}",
                      *(f"{row[k]:.2f}" for k in figures)])
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True)))
             for line in table]
    a = result["actions"]
    out = [head, "", lines[0], "-" * len(lines[0]), *lines[1:], "",
           "end reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(result["end_reasons"].items())),
           f"actions per game: min {a['min']}, median {a['median']}, max {a['max']}"]
    if result["unfinished"]:
        out.append(f"WARNING: {result['unfinished']} game(s) hit the action cap and were not finished")
    return "\n".join(out)
