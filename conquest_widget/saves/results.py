"""Completed-game results and the human-vs-CPU records computed from them.

A result entry is plain JSON data: game id, date, mode, end reason, standings (with
each seat's CPU flag, difficulty and strategy) and the winners' names.  Records count,
for every finished game with at least one human and one CPU seat, each human player's
outcome against each CPU seat: a **win** if the human ranks better, a **loss** if
worse, a **draw** if both share a rank.  They are summed per game and CPU label
(``"japan_conquest:difficulty:strategy"``).

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> from conquest_widget.games.japan_conquest.cpu import cpu_action
    >>> setup = GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=1)
    >>> game = JapanMatch(setup)
    >>> while not game.is_over:
    ...     game.push(cpu_action(game))
    >>> entry = result_entry(game, recorded_at="2025-01-01T00:00:00Z")
    >>> [(r["name"], r["rank"], r["cpu"]) for r in entry["standings"]]
    [('Player 1', 1, False), ('Player 2', 2, True)]
    >>> cpu_outcomes(entry)
    {'japan_conquest:normal:balanced': {'wins': 1, 'losses': 0, 'draws': 0}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conquest_widget.saves.documents import OUTCOMES
from conquest_widget.saves.games import LEGACY_GAME, codec_of


def game_id(game: Any) -> str:
    """A fingerprint of a game: a hash of its setup, dice (chance) and full action log.

    The same game (recorded twice, or loaded from a save and recorded again) always has
    the same id, so it is counted once.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> game_id(g) == game_id(JapanMatch.from_dict(g.to_dict())), len(game_id(g))
    (True, 32)
    """
    return codec_of(game).game_id(game)


def result_entry(game: Any, *, recorded_at: str) -> dict[str, Any]:
    """The result entry of a finished game (raises :class:`SaveError` while it is not over)."""
    return codec_of(game).result(game, recorded_at=recorded_at)


def cpu_label(row: Mapping[str, Any]) -> str:
    """The CPU label of a result row: Japan Conquest's ``"difficulty:strategy"``, else
    the bot label (``"bot"``)."""
    if row.get("difficulty") is not None and row.get("strategy") is not None:
        return record_key(row["difficulty"], row["strategy"])
    return str(row.get("bot") or "cpu")


def record_key(difficulty: str, strategy: str) -> str:
    """The label of a Japan Conquest CPU: ``"difficulty:strategy"`` (records keys are
    ``"<game>:<label>"``).

    >>> record_key("hard", "aggressive")
    'hard:aggressive'
    """
    return f"{difficulty}:{strategy}"


def cpu_outcomes(entry: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Wins/losses/draws of the humans against each CPU in one result entry, per
    ``"<game>:<cpu label>"`` (empty unless the game had a human and a CPU seat)."""
    standings = entry["standings"]
    humans = [r for r in standings if not r["cpu"]]
    cpus = [r for r in standings if r["cpu"]]
    out: dict[str, dict[str, int]] = {}
    for cpu in cpus:
        key = f"{entry.get('game', LEGACY_GAME)}:{cpu_label(cpu)}"
        counts = out.setdefault(key, dict.fromkeys(OUTCOMES, 0))
        for human in humans:
            if human["rank"] < cpu["rank"]:
                counts["wins"] += 1
            elif human["rank"] > cpu["rank"]:
                counts["losses"] += 1
            else:
                counts["draws"] += 1
    return {k: v for k, v in sorted(out.items()) if humans}


def add_outcomes(records: dict[str, dict[str, int]], outcomes: Mapping[str, Mapping[str, int]]) -> None:
    """Add one game's :func:`cpu_outcomes` to ``records`` in place."""
    for key, counts in outcomes.items():
        row = records.setdefault(key, dict.fromkeys(OUTCOMES, 0))
        for o in OUTCOMES:
            row[o] += counts[o]


__all__ = ["add_outcomes", "cpu_label", "cpu_outcomes", "game_id", "record_key", "result_entry"]
