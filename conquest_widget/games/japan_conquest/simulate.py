"""CPU-vs-CPU simulations: many seeded games, summarised per player entry.

    >>> result = simulate(["hard:balanced", "easy:balanced"], turns=5, games=2, seed=1)
    >>> [row["label"] for row in result["players"]]
    ['1 hard:balanced', '2 easy:balanced']
    >>> result["games"]
    2

Game ``i`` uses its own seed (derived from ``seed`` and ``i``), random distinct,
non-adjacent home prefectures, and rotates the seats so every entry plays every
seat equally often.  Results are identical for any number of ``jobs``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from conquest_widget.errors import SetupError
from conquest_widget.games.japan_conquest.cpu import play_cpu_turns
from conquest_widget.games.japan_conquest.game import Game
from conquest_widget.games.japan_conquest.rules import DIFFICULTIES, STRATEGIES
from conquest_widget.games.japan_conquest.setup import (
    DEFAULT_COLOURS,
    GameSetup,
    PlayerSetup,
)
from conquest_widget.maps.japan.board import japan

STAT_KEYS = (
    "wins", "win_share", "score", "battles_started", "battles_won", "defences_won", "claims", "captures",
    "castles_built", "neutralised", "items_used", "items_used_in_battle", "tolls_paid",
)


def parse_players(spec: str | Sequence[str]) -> list[tuple[str, str]]:
    """``"hard:aggressive,easy"`` -> ``[("hard", "aggressive"), ("easy", "balanced")]``."""
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    out = []
    for item in items:
        parts = [p.strip().lower() for p in item.split(":")]
        diff = parts[0] or "normal"
        strat = parts[1] if len(parts) > 1 and parts[1] else "balanced"
        if diff not in DIFFICULTIES or strat not in STRATEGIES or len(parts) > 2:
            raise SetupError(
                f"bad player spec {item!r}: use difficulty[:strategy] with difficulty in {DIFFICULTIES} "
                f"and strategy in {STRATEGIES}"
            )
        out.append((diff, strat))
    if not 2 <= len(out) <= 4:
        raise SetupError(f"a simulation needs 2-4 players, got {len(out)}")
    return out


def random_homes(n: int, rng: random.Random) -> list[int]:
    """``n`` distinct, pairwise non-adjacent home prefectures."""
    adj = japan().adjacency
    while True:
        homes = rng.sample(range(1, 48), n)
        if all(b not in adj[a] for i, a in enumerate(homes) for b in homes[i + 1 :]):
            return homes


def game_setup(players: list[tuple[str, str]], index: int, *, mode: str, turns: int | None, seed: int) -> tuple[GameSetup, list[int]]:
    """The setup of game ``index`` and, for each seat, the entry (index into ``players``) sitting there."""
    game_seed = seed * 1_000_003 + index
    rng = random.Random(game_seed)
    n = len(players)
    homes = random_homes(n, rng)
    entry_at_seat = [(s + index) % n for s in range(n)]
    seats = tuple(
        PlayerSetup(
            name=f"{e + 1} {players[e][0]}:{players[e][1]}", home=homes[s], colour=DEFAULT_COLOURS[s], cpu=True,
            difficulty=players[e][0], strategy=players[e][1],
        )
        for s, e in enumerate(entry_at_seat)
    )
    return GameSetup(players=seats, mode=mode, turns=turns, seed=game_seed), entry_at_seat


def play_one(args: tuple) -> dict[str, Any]:
    """Play game ``index`` to the end; per-entry statistics (picklable, for worker processes)."""
    players, index, mode, turns, seed, cap = args
    setup, entry_at_seat = game_setup(players, index, mode=mode, turns=turns, seed=seed)
    game = Game(setup)
    actions = play_cpu_turns(game, max_actions=cap)
    stats = [dict.fromkeys(STAT_KEYS, 0.0) for _ in players]
    winners = game.winners() if game.is_over else []
    for seat in range(len(players)):
        e = entry_at_seat[seat]
        stats[e]["score"] = game.score(seat)["total"]
        if seat in winners:
            stats[e]["wins"] = 1
            stats[e]["win_share"] = 1 / len(winners)
    for ev in game.events:
        t = ev["type"]
        who: int | None = ev.get("player")
        if who is None or who < 0:
            continue
        s = stats[entry_at_seat[who]]
        if t == "battle_start":
            s["battles_started"] += 1
        elif t == "battle_result":
            if ev["attacker_won"]:
                s["battles_won"] += 1
            else:
                stats[entry_at_seat[ev["defender"]]]["defences_won"] += 1
        elif t == "claimed":
            s["claims"] += 1
        elif t == "captured":
            s["captures"] += 1
        elif t == "upgraded" and ev["level"] == "castle":
            s["castles_built"] += 1
        elif t == "neutralised":
            s["neutralised"] += 1
        elif t == "item_used":
            s["items_used"] += 1
            if ev["purpose"] == "battle":
                s["items_used_in_battle"] += 1
        elif t == "toll":
            s["tolls_paid"] += ev["amount"]
    return {"index": index, "stats": stats, "finished": game.is_over, "actions": actions, "turns": game.turn_number(0)}


def simulate(
    players: str | Sequence[str],
    *,
    mode: str = "standard",
    turns: int | None = 50,
    games: int = 200,
    seed: int = 1,
    jobs: int = 1,
    action_cap: int = 200_000,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` CPU-only games and summarise them (see the module docstring)."""
    entries = parse_players(players)
    GameSetup.quick([13, 27], mode=mode, turns=turns)  # validates mode/turns early, with a clear error
    if mode != "standard":
        turns = None
    tasks = [(entries, i, mode, turns, seed, action_cap) for i in range(games)]
    results: list[dict[str, Any]] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for r in pool.map(play_one, tasks, chunksize=1):
                results.append(r)
                if progress:
                    progress(len(results), games)
    else:
        for t in tasks:
            results.append(play_one(t))
            if progress:
                progress(len(results), games)
    rows = []
    for e, (diff, strat) in enumerate(entries):
        total = dict.fromkeys(STAT_KEYS, 0.0)
        for r in results:
            for k in STAT_KEYS:
                total[k] += r["stats"][e][k]
        n = max(1, len(results))
        row: dict[str, Any] = {"entry": e + 1, "label": f"{e + 1} {diff}:{strat}", "difficulty": diff, "strategy": strat}
        row["games"] = len(results)
        row["wins"] = int(total["wins"])
        row["win_rate"] = total["win_share"] / n
        for k in STAT_KEYS[2:]:
            row[f"mean_{k}"] = total[k] / n
        used = total["items_used"]
        row["battle_item_share"] = total["items_used_in_battle"] / used if used else 0.0
        rows.append(row)
    return {
        "mode": mode, "turns": turns, "games": len(results), "seed": seed,
        "unfinished": sum(1 for r in results if not r["finished"]),
        "players": rows,
    }


def format_table(result: dict[str, Any]) -> str:
    """A plain-text summary table."""
    cols = [
        ("player", "label", "{}"), ("wins", "wins", "{}"), ("win%", "win_rate", "{:.1%}"), ("score", "mean_score", "{:.0f}"),
        ("battles", "mean_battles_started", "{:.2f}"), ("won", "mean_battles_won", "{:.2f}"),
        ("held", "mean_defences_won", "{:.2f}"), ("claims", "mean_claims", "{:.2f}"), ("captures", "mean_captures", "{:.2f}"),
        ("castles", "mean_castles_built", "{:.2f}"), ("items", "mean_items_used", "{:.2f}"),
        ("battle-items", "battle_item_share", "{:.0%}"), ("tolls", "mean_tolls_paid", "{:.0f}"),
    ]
    table = [[h for h, _, _ in cols]] + [[f.format(r[k]) for _, k, f in cols] for r in result["players"]]
    widths = [max(len(row[i]) for row in table) for i in range(len(cols))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))) for row in table]
    mode = result["mode"] + (f" {result['turns']} turns" if result["turns"] else "")
    head = f"{result['games']} games, {mode}, seed {result['seed']} (per game means; wins split on ties for win%)"
    if result["unfinished"]:
        head += f"\nWARNING: {result['unfinished']} game(s) hit the action cap and were not finished"
    return "\n".join([head, lines[0], "-" * len(lines[0]), *lines[1:]])


def terminal_progress(done: int, total: int) -> None:
    """A progress bar on stderr (tqdm; only when stderr is a terminal)."""
    global _BAR
    if not sys.stderr.isatty():
        return
    from tqdm.auto import tqdm

    if _BAR is None or _BAR.total != total or done < _BAR.n:
        _BAR = tqdm(total=total, unit="game")
    _BAR.update(done - _BAR.n)
    if done >= total:
        _BAR.close()
        _BAR = None


_BAR = None
