"""CPU-only games of any registered game: ``conquest-widget simulate --game ID``.

Game ``i`` of a run is a function of ``(seed, i)`` alone (its setup from the engine's
``random_setup``, its chance seed and its bots' seeds), so results are identical for any
number of worker processes.  Japan Conquest has its own richer statistics
(:mod:`conquest_widget.games.japan_conquest.simulate`); this module serves every game.

    >>> r = simulate("codex", ["easy", "normal"], games=4, seed=1)
    >>> r["games"], sorted(r["seats"][0])
    (4, ['bot', 'mean_rank', 'wins', 'wins_interval'])

Options that only some games have (a spec's ``simulate_options``) are refused for the
others, never ignored:

    >>> check_options("codex", ["turns"])
    Traceback (most recent call last):
    ...
    conquest_widget.core.simulate.UnknownOptionError: The Codex of Conquest (codex) has no simulation option --turns: it is an option of Japan Conquest only
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from conquest_widget.core import registry
from conquest_widget.core.bots import play_bots
from conquest_widget.core.stats import format_share, wilson
from conquest_widget.errors import ConquestError


class UnknownBotError(ConquestError, LookupError):
    """A bot label that the game does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownOptionError(ConquestError, ValueError):
    """A simulation option (``--mode``, ``--turns``) that the game does not have."""


def check_options(game_id: str, given: Iterable[str]) -> None:
    """Refuse any of the option names ``given`` (as the user set them) that ``game_id``'s
    simulation does not have, naming the option, the game and the games that have it.
    Every game takes the bots, the number of games, the seed and the number of jobs; the
    others a game takes are its spec's ``simulate_options``."""
    spec = registry.get(game_id)
    for name in given:
        if name in spec.simulate_options:
            continue
        owners = [g.title["en"] for g in registry.all_games() if name in g.simulate_options]
        where = f": it is an option of {' and '.join(owners)} only" if owners else ""
        raise UnknownOptionError(f"{spec.title['en']} ({game_id}) has no simulation option --{name}{where}")


def game_seed(seed: int, index: int, kind: str) -> int:
    """A per-game seed from the run's seed (stable across processes and versions)."""
    digest = hashlib.blake2b(f"{seed}/{kind}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % 2**31


def check_bots(game_id: str, labels: Sequence[str]) -> None:
    """Refuse unknown bot labels and table sizes outside the game's player range."""
    spec = registry.get(game_id)
    if spec.engine is None:
        raise ConquestError(f"{game_id} has no engine yet")
    bots = spec.bots_module().BOTS
    unknown = [label for label in labels if label not in bots]
    if unknown:
        raise UnknownBotError(f"{game_id} has no bot {unknown[0]!r}: its bots are {', '.join(bots)}")
    if len(labels) not in spec.players:
        raise ConquestError(f"{spec.title['en']} is for {spec.players.start}-{spec.players.stop - 1} players, got {len(labels)}")


def play_one(game_id: str, labels: Sequence[str], seed: int, index: int) -> dict[str, Any]:
    """Play game ``index`` of a run: the bots of ``labels`` in seat order."""
    spec = registry.get(game_id)
    cls = spec.engine_class()
    bots_module = spec.bots_module()
    rng = random.Random(game_seed(seed, index, "setup"))
    match = cls(cls.random_setup(rng, len(labels)), seed=game_seed(seed, index, "chance"))
    actions = play_bots(match, {s: bots_module.BOTS[label]() for s, label in enumerate(labels)},
                        seed=game_seed(seed, index, "bots"))
    out = match.outcome()
    if out is None:
        raise ConquestError(f"{game_id} game {index} did not end")
    return {"index": index, "ranks": list(out.ranks), "reason": out.reason, "actions": actions}


def _play_batch(args: tuple[str, tuple[str, ...], int, list[int]]) -> list[dict[str, Any]]:
    game_id, labels, seed, indexes = args
    return [play_one(game_id, labels, seed, i) for i in indexes]


def simulate(game_id: str, labels: Sequence[str], *, games: int = 100, seed: int = 1, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` CPU-only games with the bots ``labels`` (one per seat) and summarise:
    wins per seat (a shared first place counts as a win for each) with 95% Wilson
    intervals, mean rank, end reasons and game lengths."""
    check_bots(game_id, labels)
    if games < 1 or jobs < 1:
        raise ConquestError("games and jobs must be at least 1")
    labels = tuple(labels)
    batches = [list(range(i, min(i + 10, games))) for i in range(0, games, 10)]
    results: list[dict[str, Any]] = []
    if jobs == 1:
        for b in batches:
            results += _play_batch((game_id, labels, seed, b))
            if progress:
                progress(len(b))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for chunk in pool.map(_play_batch, [(game_id, labels, seed, b) for b in batches]):
                results += chunk
                if progress:
                    progress(len(chunk))
    results.sort(key=lambda r: r["index"])
    n = len(results)
    seats = []
    for s, label in enumerate(labels):
        wins = sum(1 for r in results if r["ranks"][s] == 1)
        lo, hi = wilson(wins, n)
        seats.append({"bot": label, "wins": wins, "wins_interval": [round(lo, 4), round(hi, 4)],
                      "mean_rank": round(sum(r["ranks"][s] for r in results) / n, 3)})
    lengths = sorted(r["actions"] for r in results)
    return {
        "game": game_id, "bots": list(labels), "games": n, "seed": seed, "seats": seats,
        "end_reasons": dict(Counter(r["reason"] for r in results)),
        "actions": {"min": lengths[0], "median": lengths[n // 2], "max": lengths[-1]},
    }


def format_result(result: dict[str, Any]) -> str:
    """A readable table of :func:`simulate`'s result."""
    lines = [f"{result['game']}: {result['games']} games, seed {result['seed']}", "",
             "seat  bot            wins (95% Wilson)                 mean rank"]
    for s, row in enumerate(result["seats"]):
        lines.append(f"{s + 1:>4}  {row['bot']:<14} {format_share(row['wins'], result['games']):<34} {row['mean_rank']}")
    a = result["actions"]
    lines += ["", "end reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(result["end_reasons"].items())),
              f"actions per game: min {a['min']}, median {a['median']}, max {a['max']}"]
    return "\n".join(lines)
