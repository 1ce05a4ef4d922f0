"""The JSON documents of a save directory: format names, schema versions, builders
and validators.

Every document is a JSON object with ``"format"`` and ``"schema_version"``.  The
validators (``check_*``) take parsed JSON and either return the checked content or
raise :class:`~conquest_widget.errors.CorruptSaveError` naming the source and the
problem (:class:`~conquest_widget.errors.UnsupportedSaveVersionError` for a newer
schema version).  They never write anything.

    >>> check_envelope({"format": RESULTS_FORMAT, "schema_version": 1, "results": []}, RESULTS_FORMAT, "results.json")
    1
    >>> check_envelope({"format": "something.else", "schema_version": 1}, RESULTS_FORMAT, "results.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.CorruptSaveError: results.json: wrong format 'something.else' (expected 'conquest_widget.saves.results')
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from conquest_widget.errors import (
    CorruptSaveError,
    SaveError,
    UnsupportedSaveVersionError,
)
from conquest_widget.games.japan_conquest import Game, GameSetup

#: the schema version this package writes and the newest it reads (for every file kind)
SCHEMA_VERSION = 1

GAME_FORMAT = "conquest_widget.saves.game"
RESULTS_FORMAT = "conquest_widget.saves.results"
RECORDS_FORMAT = "conquest_widget.saves.records"
PREFERENCES_FORMAT = "conquest_widget.saves.preferences"
BACKUP_FORMAT = "conquest_widget.saves.backup"

#: the most results kept in the results file (the oldest are dropped; records keep counting)
MAX_RESULTS = 1000

OUTCOMES = ("wins", "losses", "draws")


# ------------------------------------------------------------------- helpers
def _fail(source: object, problem: str) -> CorruptSaveError:
    return CorruptSaveError(source, problem)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_iso(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    try:
        datetime.fromisoformat(v)
    except ValueError:
        return False
    return True


def check_envelope(data: Any, fmt: str, source: object) -> int:
    """Check ``data`` is a JSON object of format ``fmt`` with a readable schema version;
    returns the version."""
    if not isinstance(data, dict):
        raise _fail(source, f"expected a JSON object, found {type(data).__name__}")
    found = data.get("format")
    if found != fmt:
        raise _fail(source, f"wrong format {found!r} (expected {fmt!r})")
    version = data.get("schema_version")
    if not _is_int(version) or version < 1:
        raise _fail(source, f"bad schema_version {version!r} (expected an integer >= 1)")
    if version > SCHEMA_VERSION:
        raise UnsupportedSaveVersionError(
            source,
            f"schema version {version} is newer than this package reads ({SCHEMA_VERSION}); upgrade conquest_widget",
        )
    return version


# ---------------------------------------------------------------- game saves
def game_meta(game: Game) -> dict[str, Any]:
    """A summary of a game for people reading the file and for slot lists.

    It is informative only: loading recomputes everything from the game itself.
    """
    setup = game.setup
    return {
        "mode": setup.mode,
        "turns": setup.turns,
        "turn": game.turn_number(),
        "phase": game.phase,
        "current_player": setup.players[game.current_player].name,
        "is_over": game.is_over,
        "actions": len(game.log),
        "players": [
            {"name": p.name, "cpu": p.cpu, "difficulty": p.difficulty, "strategy": p.strategy} for p in setup.players
        ],
    }


def game_document(game: Game, *, saved_at: str, kind: str, slot: int | None = None) -> dict[str, Any]:
    """The JSON document of a saved game (autosave or slot)."""
    try:
        data = game.to_dict()
    except Exception as exc:  # e.g. a dice source without to_dict()
        raise SaveError(f"this game cannot be saved: {exc}") from exc
    doc: dict[str, Any] = {"format": GAME_FORMAT, "schema_version": SCHEMA_VERSION, "saved_at": saved_at, "kind": kind}
    if slot is not None:
        doc["slot"] = slot
    doc["meta"] = game_meta(game)
    doc["game"] = data
    return doc


def check_game(data: Any, source: object) -> Game:
    """Validate a game-save document and rebuild its game by replaying the log.

    Refuses (CorruptSaveError) a document without a snapshot or whose snapshot does not
    match the replay."""
    check_envelope(data, GAME_FORMAT, source)
    if not _is_iso(data.get("saved_at")):
        raise _fail(source, f"bad saved_at {data.get('saved_at')!r} (expected an ISO date-time)")
    if "meta" in data and not isinstance(data["meta"], dict):
        raise _fail(source, "meta must be a JSON object")
    game_data = data.get("game")
    if not isinstance(game_data, dict):
        raise _fail(source, "no game data (key 'game' missing or not an object)")
    if not isinstance(game_data.get("snapshot"), dict):
        raise _fail(source, "the game has no state snapshot to check the replay against")
    try:
        return Game.from_dict(game_data)
    except RecursionError:
        raise _fail(source, "the game data is nested too deeply") from None
    except Exception as exc:  # the engine reports SerializationError; anything else is also a bad file
        raise _fail(source, f"the game cannot be loaded: {exc}") from exc


# ------------------------------------------------------------------- results
def results_document(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The results file: completed games, latest first."""
    return {"format": RESULTS_FORMAT, "schema_version": SCHEMA_VERSION, "results": list(results)[:MAX_RESULTS]}


def _check_standing(row: Any, where: str, source: object) -> None:
    if not isinstance(row, dict):
        raise _fail(source, f"{where} is not an object")
    for key, ok, want in (
        ("seat", _is_int, "an integer"),
        ("name", lambda v: isinstance(v, str), "a string"),
        ("score", _is_int, "an integer"),
        ("rank", lambda v: _is_int(v) and v >= 1, "an integer >= 1"),
        ("defeated", lambda v: isinstance(v, bool), "true or false"),
        ("cpu", lambda v: isinstance(v, bool), "true or false"),
        ("difficulty", lambda v: v is None or isinstance(v, str), "a string or null"),
        ("strategy", lambda v: v is None or isinstance(v, str), "a string or null"),
    ):
        if not ok(row.get(key)):
            raise _fail(source, f"{where}: {key} must be {want}, got {row.get(key)!r}")


def check_result(entry: Any, source: object, where: str = "result") -> dict[str, Any]:
    """Validate one result entry."""
    if not isinstance(entry, dict):
        raise _fail(source, f"{where} is not an object")
    if not isinstance(entry.get("game_id"), str) or not entry["game_id"]:
        raise _fail(source, f"{where}: game_id must be a non-empty string")
    if not _is_iso(entry.get("recorded_at")):
        raise _fail(source, f"{where}: bad recorded_at {entry.get('recorded_at')!r}")
    if not isinstance(entry.get("mode"), str):
        raise _fail(source, f"{where}: mode must be a string")
    if entry.get("turns") is not None and not _is_int(entry.get("turns")):
        raise _fail(source, f"{where}: turns must be an integer or null")
    if entry.get("end_reason") is not None and not isinstance(entry.get("end_reason"), str):
        raise _fail(source, f"{where}: end_reason must be a string or null")
    standings = entry.get("standings")
    if not isinstance(standings, list) or not 2 <= len(standings) <= 4:
        raise _fail(source, f"{where}: standings must be a list of 2-4 players")
    for i, row in enumerate(standings):
        _check_standing(row, f"{where} standings[{i}]", source)
    winners = entry.get("winners")
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        raise _fail(source, f"{where}: winners must be a list of names")
    return entry


def check_results(data: Any, source: object) -> list[dict[str, Any]]:
    """Validate the results file; returns its results (latest first)."""
    check_envelope(data, RESULTS_FORMAT, source)
    results = data.get("results")
    if not isinstance(results, list):
        raise _fail(source, "results must be a list")
    for i, entry in enumerate(results):
        check_result(entry, source, f"results[{i}]")
    ids = [r["game_id"] for r in results]
    if len(set(ids)) != len(ids):
        raise _fail(source, "the same game_id is listed twice")
    return results


# ------------------------------------------------------------------- records
def records_document(records: Mapping[str, Mapping[str, int]], counted: list[str]) -> dict[str, Any]:
    """The records file: per CPU ``"difficulty:strategy"``, the human players' wins,
    losses and draws against it, plus the ids of the games already counted."""
    return {
        "format": RECORDS_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "records": {k: {o: int(records[k][o]) for o in OUTCOMES} for k in sorted(records)},
        "counted_games": list(counted),
    }


def check_records(data: Any, source: object) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Validate the records file; returns ``(records, counted_game_ids)``."""
    check_envelope(data, RECORDS_FORMAT, source)
    records = data.get("records")
    if not isinstance(records, dict):
        raise _fail(source, "records must be an object")
    for key, counts in records.items():
        if key.count(":") != 1 or not all(key.split(":")):
            raise _fail(source, f"record key {key!r} is not 'difficulty:strategy'")
        if not isinstance(counts, dict):
            raise _fail(source, f"record {key!r} is not an object")
        for o in OUTCOMES:
            if not _is_int(counts.get(o)) or counts[o] < 0:
                raise _fail(source, f"record {key!r}: {o} must be a non-negative integer, got {counts.get(o)!r}")
    counted = data.get("counted_games")
    if not isinstance(counted, list) or not all(isinstance(g, str) for g in counted):
        raise _fail(source, "counted_games must be a list of game ids")
    return {k: {o: records[k][o] for o in OUTCOMES} for k in records}, counted


# --------------------------------------------------------------- preferences
def normalise_preferences(prefs: Mapping[str, Any]) -> dict[str, Any]:
    """Check preferences before saving: a mapping with string keys and JSON values;
    ``last_setup`` (a :class:`GameSetup` or its dict) must be a valid setup and
    ``language`` a string.  Raises :class:`SaveError`."""
    if not isinstance(prefs, Mapping):
        raise SaveError(f"preferences must be a mapping, got {type(prefs).__name__}")
    out: dict[str, Any] = {}
    for key, value in prefs.items():
        if not isinstance(key, str):
            raise SaveError(f"preference names must be strings, got {key!r}")
        out[key] = value
    setup = out.get("last_setup")
    if isinstance(setup, GameSetup):
        out["last_setup"] = setup.to_dict()
    elif setup is not None:
        try:
            out["last_setup"] = GameSetup.from_dict(setup).to_dict()
        except Exception as exc:
            raise SaveError(f"last_setup is not a valid game setup: {exc}") from exc
    if "language" in out and not isinstance(out["language"], str):
        raise SaveError(f"language must be a string, got {out['language']!r}")
    return out


def preferences_document(prefs: Mapping[str, Any], *, saved_at: str) -> dict[str, Any]:
    """The preferences file."""
    return {
        "format": PREFERENCES_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "saved_at": saved_at,
        "preferences": dict(prefs),
    }


def check_preferences(data: Any, source: object) -> dict[str, Any]:
    """Validate the preferences file; returns the preferences."""
    check_envelope(data, PREFERENCES_FORMAT, source)
    prefs = data.get("preferences")
    if not isinstance(prefs, dict):
        raise _fail(source, "preferences must be an object")
    setup = prefs.get("last_setup")
    if setup is not None:
        try:
            GameSetup.from_dict(setup)
        except Exception as exc:  # noqa: BLE001 - any failure means an invalid file
            raise _fail(source, f"last_setup is not a valid game setup: {exc}") from None
    if "language" in prefs and not isinstance(prefs["language"], str):
        raise _fail(source, "language must be a string")
    return prefs


__all__ = [
    "BACKUP_FORMAT",
    "GAME_FORMAT",
    "MAX_RESULTS",
    "PREFERENCES_FORMAT",
    "RECORDS_FORMAT",
    "RESULTS_FORMAT",
    "SCHEMA_VERSION",
    "check_envelope",
    "check_game",
    "check_preferences",
    "check_records",
    "check_result",
    "check_results",
    "game_document",
    "game_meta",
    "normalise_preferences",
    "preferences_document",
    "records_document",
]
