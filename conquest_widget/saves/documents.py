"""The JSON documents of a save directory: builders and checkers (schema version 2).

Every document is a JSON object with ``"format"`` and ``"schema_version"``.  The
checkers (``check_*``) take parsed JSON (from :func:`~.atomic.parse_json`), read
version-1 documents as Japan Conquest ones (:func:`upgrade`), check the result against
the document's JSON Schema (:mod:`.schemas`) and the game's own rules, and either return
the checked content or raise :class:`~conquest_widget.errors.CorruptSaveError` naming
the source, the field and the problem
(:class:`~conquest_widget.errors.UnsupportedSaveVersionError` for a newer schema or game
version).  They never write anything.

    >>> check_envelope({"format": RESULTS_FORMAT, "schema_version": 2, "results": []}, RESULTS_FORMAT, "results.json")
    2
    >>> check_envelope({"format": "something.else", "schema_version": 1}, RESULTS_FORMAT, "results.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.CorruptSaveError: results.json: wrong format 'something.else' (expected 'conquest_widget.saves.results')
    >>> check_records({"format": RECORDS_FORMAT, "schema_version": 1, "counted_games": [],
    ...                "records": {"hard:balanced": {"wins": 1, "losses": 0, "draws": 0}}}, "records.json")[0]
    {'japan_conquest:hard:balanced': {'wins': 1, 'losses': 0, 'draws': 0}}
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

from conquest_widget.errors import (
    CorruptSaveError,
    SaveError,
    UnknownGameError,
    UnsupportedSaveVersionError,
    WrongGameError,
)
from conquest_widget.saves import schemas
from conquest_widget.saves.atomic import check_tree
from conquest_widget.saves.games import (
    LEGACY_GAME,
    Engines,
    GameCodec,
    codec_for,
    codec_of,
    rules_for,
)
from conquest_widget.saves.schemas import (
    BACKUP_FORMAT,
    GAME_FORMAT,
    PREFERENCES_FORMAT,
    RECORDS_FORMAT,
    RESULTS_FORMAT,
)

#: the schema version this package writes and the newest it reads (for every file of
#: the directory)
SCHEMA_VERSION = 2
#: the schema version of the backups this package writes and the newest it reads
#: (version 3 holds the autosave of every game; versions 1 and 2 are still read)
BACKUP_SCHEMA_VERSION = 3

#: the most results kept in the results file (the oldest are dropped; records keep counting)
MAX_RESULTS = 1000

OUTCOMES = ("wins", "losses", "draws")


def _fail(source: object, problem: str) -> CorruptSaveError:
    return CorruptSaveError(source, problem)


def check_envelope(data: Any, fmt: str, source: object, *, newest: int = SCHEMA_VERSION) -> int:
    """Check ``data`` is a JSON object of format ``fmt`` with a readable schema version
    (1 to ``newest``); returns the version."""
    if not isinstance(data, dict):
        raise _fail(source, f"expected a JSON object, found {type(data).__name__}")
    found = data.get("format")
    if found != fmt:
        raise _fail(source, f"wrong format {repr(found)[:80]} (expected {fmt!r})")
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _fail(source, f"bad schema_version {repr(version)[:40]} (expected an integer >= 1)")
    if version > newest:
        raise UnsupportedSaveVersionError(
            source,
            f"written by a newer version of conquest_widget (schema version {version}; this package reads "
            f"1-{newest}): left untouched; upgrade conquest_widget to use it",
        )
    return version


def upgrade(data: dict[str, Any], fmt: str) -> dict[str, Any]:
    """A version-1 document in the version-2 shape (a copy): every version-1 document
    is Japan Conquest's (game version 1); record keys gain the game id; the preferences'
    ``last_setup`` becomes ``last_setups["japan_conquest"]``.  Version-2 documents are
    returned as they are."""
    if data.get("schema_version") != 1:
        return data
    doc = copy.deepcopy(data)
    doc["schema_version"] = 2
    if fmt == GAME_FORMAT:
        match = doc.pop("game", None)
        doc = {**doc, "game": LEGACY_GAME, "game_version": 1, "match": match}
    elif fmt == RESULTS_FORMAT and isinstance(doc.get("results"), list):
        doc["results"] = [
            {"game": LEGACY_GAME, "game_version": 1, **e} if isinstance(e, dict) else e for e in doc["results"]
        ]
    elif fmt == RECORDS_FORMAT and isinstance(doc.get("records"), dict):
        doc["records"] = {f"{LEGACY_GAME}:{k}": v for k, v in doc["records"].items()}
    elif fmt == PREFERENCES_FORMAT and isinstance(doc.get("preferences"), dict):
        prefs = doc["preferences"]
        setup = prefs.pop("last_setup", None)
        if setup is not None:
            prefs["last_setups"] = {LEGACY_GAME: {"game_version": 1, "setup": setup}}
    return doc


def _read(data: Any, fmt: str, schema: dict[str, Any], source: object) -> dict[str, Any]:
    version = check_envelope(data, fmt, source)
    if version == 1 and fmt == GAME_FORMAT and not isinstance(data.get("game"), dict):
        raise _fail(source, "no game data (key 'game' missing or not an object)")
    doc = upgrade(data, fmt)
    schemas.validate(doc, schema, source)
    return doc


def _rules(game: str, engines: Engines | None, source: object, where: str) -> GameCodec:
    try:
        return rules_for(game, engines)
    except UnknownGameError as exc:
        raise _fail(source, f"{where}: {exc}") from None


def _game_version(found: int, rules: GameCodec, source: object, where: str) -> None:
    if found > rules.version:
        raise UnsupportedSaveVersionError(
            source,
            f"{where}: written by a newer version of {rules.game} (game version {found}; this package reads "
            f"1-{rules.version}): left untouched; upgrade conquest_widget to use it",
        )


# ---------------------------------------------------------------- game saves
def game_document(match: Any, *, saved_at: str, kind: str, slot: int | None = None) -> dict[str, Any]:
    """The JSON document of a saved game (autosave or slot): the game id and version,
    an informative ``meta`` summary and the engine data under ``match``.  Raises
    :class:`SaveError` for a game that cannot be saved (e.g. scripted dice)."""
    codec = codec_of(match)
    data = codec.encode(match)
    doc: dict[str, Any] = {
        "format": GAME_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "game": codec.game,
        "game_version": codec.version,
        "saved_at": saved_at,
        "kind": kind,
    }
    if slot is not None:
        doc["slot"] = slot
    meta = codec.summary(match)
    meta["actions"] = len(match.log)
    doc["meta"] = meta
    doc["match"] = data
    return doc


def load_game(
    data: Any, source: object, *, game: str | None = None, engines: Engines | None = None
) -> tuple[Any, dict[str, Any]]:
    """Check a game-save document and rebuild its match by replaying the log; returns
    ``(match, document in the version-2 shape)``.

    ``game``: the game asked for; a document of another game raises
    :class:`WrongGameError`.  Refuses (CorruptSaveError) anything the schema does not
    allow, and a snapshot that does not match the replay."""
    doc = _read(data, GAME_FORMAT, schemas.GAME_DOC, source)
    found = doc["game"]
    if game is not None and found != game:
        raise WrongGameError(f"{source}: this file holds a game of {found!r}, not of {game!r}: it was not loaded")
    codec = _rules(found, engines, source, "$.game")
    _game_version(doc["game_version"], codec, source, "$.game_version")
    try:
        codec = codec_for(found, engines, doc["match"])
    except UnknownGameError as exc:
        raise _fail(source, f"$.game: {exc}") from None
    return codec.decode(doc["match"], source, at="$.match"), doc


def check_game(data: Any, source: object, *, game: str | None = None, engines: Engines | None = None) -> Any:
    """Like :func:`load_game`, returning only the match."""
    return load_game(data, source, game=game, engines=engines)[0]


# ------------------------------------------------------------------- results
def results_document(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The results file: completed games of every game, latest first."""
    return {"format": RESULTS_FORMAT, "schema_version": SCHEMA_VERSION, "results": list(results)[:MAX_RESULTS]}


def check_result(entry: Any, source: object, where: str = "result", engines: Engines | None = None) -> dict[str, Any]:
    """Validate one (version-2) result entry."""
    schemas.validate(entry, schemas.RESULT, source, at=f"$.{where}")
    rules = _rules(entry["game"], engines, source, f"{where}.game")
    _game_version(entry["game_version"], rules, source, f"{where}.game_version")
    rules.check_result(entry, source, where)
    return entry


def check_results(data: Any, source: object, engines: Engines | None = None) -> list[dict[str, Any]]:
    """Validate the results file; returns its results (latest first, version-2 entries)."""
    doc = _read(data, RESULTS_FORMAT, schemas.RESULTS_DOC, source)
    results = doc["results"]
    for i, entry in enumerate(results):
        check_result(entry, source, f"results[{i}]", engines)
    ids = [r["game_id"] for r in results]
    if len(set(ids)) != len(ids):
        raise _fail(source, "the same game_id is listed twice")
    return results


# ------------------------------------------------------------------- records
def records_document(records: Mapping[str, Mapping[str, int]], counted: list[str]) -> dict[str, Any]:
    """The records file: per game and CPU label (``"japan_conquest:difficulty:strategy"``),
    the human players' wins, losses and draws against it, plus the ids of the games
    already counted."""
    return {
        "format": RECORDS_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "records": {k: {o: int(records[k][o]) for o in OUTCOMES} for k in sorted(records)},
        "counted_games": list(counted),
    }


def check_records(
    data: Any, source: object, engines: Engines | None = None
) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Validate the records file; returns ``(records, counted_game_ids)`` with keys
    ``"<game>:<cpu label>"``."""
    doc = _read(data, RECORDS_FORMAT, schemas.RECORDS_DOC, source)
    records = doc["records"]
    for key in records:
        game, _, label = key.partition(":")
        rules = _rules(game, engines, source, f"$.records[{key!r}]")
        if not rules.record_label_ok(label):
            raise _fail(source, f"$.records: {key!r} does not name a CPU of {game}")
    return {k: {o: records[k][o] for o in OUTCOMES} for k in records}, list(doc["counted_games"])


# --------------------------------------------------------------- sound preference
#: sound is on by default; nothing sounds before the page has been clicked (browser rule)
DEFAULT_SOUND_ENABLED = True
#: the volume of a player who has never chosen one
DEFAULT_VOLUME = 0.6


class SoundPreferenceError(SaveError, ValueError):
    """A ``sound`` preference that is not ``{"enabled": bool, "volume": 0..1}``."""


def check_volume(value: Any, *, what: str = "volume") -> float:
    """A volume from 0 to 1 as a float, or :class:`SoundPreferenceError` naming the problem.

    >>> check_volume(1), check_volume(0.25)
    (1.0, 0.25)
    >>> check_volume(True)
    Traceback (most recent call last):
    ...
    conquest_widget.saves.documents.SoundPreferenceError: volume must be a number from 0 to 1, got True
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or not 0 <= value <= 1:
        raise SoundPreferenceError(f"{what} must be a number from 0 to 1, got {value!r}")
    return float(value)


def sound_preference(prefs: Mapping[str, Any]) -> dict[str, Any]:
    """The sound setting in ``prefs`` (a preferences mapping) as ``{"enabled", "volume"}``:
    the defaults when there is none; a bare boolean (files written before the volume
    existed) is the on/off switch with the default volume.

    >>> sound_preference({})
    {'enabled': True, 'volume': 0.6}
    >>> sound_preference({"sound": False})
    {'enabled': False, 'volume': 0.6}
    >>> sound_preference({"sound": {"enabled": True, "volume": 0.2}})
    {'enabled': True, 'volume': 0.2}
    >>> sound_preference({"sound": {"enabled": "yes", "volume": 0.2}})
    Traceback (most recent call last):
    ...
    conquest_widget.saves.documents.SoundPreferenceError: sound.enabled must be true or false, got 'yes'
    """
    value = prefs.get("sound")
    if value is None:
        return {"enabled": DEFAULT_SOUND_ENABLED, "volume": DEFAULT_VOLUME}
    if isinstance(value, bool):
        return {"enabled": value, "volume": DEFAULT_VOLUME}
    return check_sound_preference(value)


def check_sound_preference(value: Any) -> dict[str, Any]:
    """Validate a stored ``sound`` preference: ``true``/``false`` (older files) or
    ``{"enabled": bool, "volume": 0..1}`` with nothing else.  Returns it as the object form.

    >>> check_sound_preference({"enabled": False, "volume": 1})
    {'enabled': False, 'volume': 1.0}
    >>> check_sound_preference({"enabled": False, "volume": 1.5})
    Traceback (most recent call last):
    ...
    conquest_widget.saves.documents.SoundPreferenceError: sound.volume must be a number from 0 to 1, got 1.5
    """
    if isinstance(value, bool):
        return {"enabled": value, "volume": DEFAULT_VOLUME}
    if not isinstance(value, Mapping):
        raise SoundPreferenceError(f"sound must be {{'enabled': bool, 'volume': 0..1}}, got {type(value).__name__}")
    extra = sorted(str(k) for k in value if k not in ("enabled", "volume"))
    if extra:
        raise SoundPreferenceError(f"sound has unknown field(s) {', '.join(extra)}; it holds only enabled and volume")
    missing = [k for k in ("enabled", "volume") if k not in value]
    if missing:
        raise SoundPreferenceError(f"sound is missing {' and '.join(missing)}")
    if not isinstance(value["enabled"], bool):
        raise SoundPreferenceError(f"sound.enabled must be true or false, got {value['enabled']!r}")
    return {"enabled": value["enabled"], "volume": check_volume(value["volume"], what="sound.volume")}


# --------------------------------------------------------------- preferences
def normalise_preferences(prefs: Mapping[str, Any], engines: Engines | None = None) -> dict[str, Any]:
    """Check preferences before saving.  ``language`` is "en" or "ja"; ``last_setups``
    maps game ids to setups (objects or dicts); ``last_setup`` is short for Japan
    Conquest's; other options are small scalars.  Returns the stored form
    (``last_setups`` as ``{game: {"game_version", "setup"}}``).  Raises :class:`SaveError`."""
    if not isinstance(prefs, Mapping):
        raise SaveError(f"preferences must be a mapping, got {type(prefs).__name__}")
    out: dict[str, Any] = {}
    setups: dict[str, Any] = {}
    for key, value in prefs.items():
        if not isinstance(key, str):
            raise SaveError(f"preference names must be strings, got {key!r}")
        if key == "last_setups":
            if not isinstance(value, Mapping):
                raise SaveError("last_setups must map game ids to setups")
            for game, entry in value.items():
                setups[game] = entry["setup"] if isinstance(entry, Mapping) and "setup" in entry else entry
        elif key == "last_setup":
            if value is not None:
                setups[LEGACY_GAME] = value
        elif key == "sound":
            # a bare true/false (older files) stays as it is; an object is checked field by
            # field (SoundPreferenceError names the field and the problem)
            out[key] = value if isinstance(value, bool) else check_sound_preference(value)
        else:
            out[key] = value
    stored: dict[str, Any] = {}
    for game, setup in setups.items():
        try:
            codec = codec_for(game, engines)
        except UnknownGameError as exc:
            raise SaveError(f"last_setups: {exc}") from None
        stored[game] = {"game_version": codec.version, "setup": codec.setup_dict(setup)}
    if stored:
        out["last_setups"] = stored
    try:
        check_tree(out, "preferences")
        schemas.validate(out, schemas.PREFERENCES_BODY, "preferences")
    except CorruptSaveError as exc:
        raise SaveError(f"preferences cannot be saved: {exc.problem}") from None
    return out


def preferences_document(prefs: Mapping[str, Any], *, saved_at: str) -> dict[str, Any]:
    """The preferences file (``prefs`` as returned by :func:`normalise_preferences`)."""
    return {
        "format": PREFERENCES_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "saved_at": saved_at,
        "preferences": dict(prefs),
    }


def check_preferences(data: Any, source: object, engines: Engines | None = None) -> dict[str, Any]:
    """Validate the preferences file; returns the preferences (``last_setups`` checked
    by each game's setup rules; ``last_setup`` added as Japan Conquest's setup)."""
    doc = _read(data, PREFERENCES_FORMAT, schemas.PREFERENCES_DOC, source)
    prefs = dict(doc["preferences"])
    setups = {}
    for game, entry in prefs.get("last_setups", {}).items():
        where = f"$.preferences.last_setups.{game}"
        rules = _rules(game, engines, source, where)
        _game_version(entry["game_version"], rules, source, where)
        try:
            codec = codec_for(game, engines)
        except UnknownGameError as exc:
            raise _fail(source, f"{where}: {exc}") from None
        setup = codec.check_setup(entry["setup"], source, at=f"{where}.setup")
        setups[game] = {"game_version": entry["game_version"], "setup": setup}
    if setups:
        prefs["last_setups"] = setups
        if LEGACY_GAME in setups:
            prefs["last_setup"] = setups[LEGACY_GAME]["setup"]
    return prefs


__all__ = [
    "BACKUP_FORMAT",
    "BACKUP_SCHEMA_VERSION",
    "DEFAULT_SOUND_ENABLED",
    "DEFAULT_VOLUME",
    "GAME_FORMAT",
    "MAX_RESULTS",
    "OUTCOMES",
    "PREFERENCES_FORMAT",
    "RECORDS_FORMAT",
    "RESULTS_FORMAT",
    "SCHEMA_VERSION",
    "SoundPreferenceError",
    "check_envelope",
    "check_game",
    "check_preferences",
    "check_records",
    "check_result",
    "check_results",
    "check_sound_preference",
    "check_volume",
    "game_document",
    "load_game",
    "normalise_preferences",
    "preferences_document",
    "records_document",
    "sound_preference",
    "upgrade",
]
