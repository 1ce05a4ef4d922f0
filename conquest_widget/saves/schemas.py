"""JSON Schemas of the save documents, and the one place where data from disk is checked.

Every document a loader accepts has passed :func:`validate` against the schema of its
kind (Draft 2020-12, checked with :mod:`jsonschema`).  The schemas are plain data: they
say exactly what a file may hold, field by field, and nothing else is accepted
(``additionalProperties: false`` everywhere a game reads the object).  Every string
that reaches the engine or the UI has a schema ``format`` checked here:

=================  ===============================================================
``player-name``    :func:`conquest_widget.core.safe_text.check_name`
``colour``         :func:`conquest_widget.core.safe_text.check_colour` (``#rrggbb``)
``date-time``      ISO 8601 with a time zone, years :data:`MIN_YEAR`-:data:`MAX_YEAR`
                   (any local time zone can display it)
``short-text``     :func:`~conquest_widget.core.safe_text.check_text`, 200 characters
=================  ===============================================================

Languages, modes, CPU difficulties and strategies, actions and record keys are fixed
lists or patterns in the schemas.  Integers are JSON integers only (``1.0``, ``true``
and ``"1"`` are not integers here) and bounded.  Lone surrogates, duplicate keys,
NaN/Infinity and deep nesting never get this far (:func:`~.atomic.parse_json`).

    >>> validate({"language": "fr"}, PREFERENCES_BODY, "preferences.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.CorruptSaveError: preferences.json: $.language: 'fr' is not one of ['en', 'ja']
    >>> validate({"name": "<b>x</b>\\u0007", "home": 13}, JAPAN_PLAYER, "slot-1.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.CorruptSaveError: slot-1.json: $.name: name contains a control or invalid character (U+0007)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError, best_match

from conquest_widget.core.match import MAX_LOG  # one bound: a log the engines accept is never refused by the saves
from conquest_widget.core.safe_text import check_colour, check_name, check_text
from conquest_widget.errors import CorruptSaveError
from conquest_widget.games.japan_conquest.rules import (
    DIFFICULTIES,
    LEVEL_NAMES,
    MODES,
    STANDARD_TURNS,
    STRATEGIES,
)

#: languages of the app
LANGUAGES = ("en", "ja")
#: dates outside these years are refused (``0001-01-01T00:00:00+05:00`` cannot be shown
#: in UTC, ``9999-12-31T23:59:59Z`` not in Tokyo time)
MIN_YEAR, MAX_YEAR = 1970, 9000
#: largest absolute value of a count, score or seed in a file
MAX_INT = 2**53
#: most seats of any game (the Codex allows 6)
MAX_SEATS = 6
#: a game id (``japan_conquest``)
GAME_ID = r"^[a-z][a-z0-9_]{0,39}$"
#: a records key: game id, then the CPU label (Japan: ``difficulty:strategy``)
RECORD_KEY = r"^[a-z][a-z0-9_]{0,39}:[a-z0-9_]{1,40}(:[a-z0-9_]{1,40})?$"


# ------------------------------------------------------------------ checking
def _is_int(_checker: object, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_FORMATS = FormatChecker(formats=())


@_FORMATS.checks("player-name", raises=ValueError)
def _player_name(value: object) -> bool:
    if isinstance(value, str):
        check_name(value)
    return True


@_FORMATS.checks("colour", raises=ValueError)
def _colour(value: object) -> bool:
    if isinstance(value, str):
        check_colour(value)
    return True


@_FORMATS.checks("short-text", raises=ValueError)
def _short_text(value: object) -> bool:
    if isinstance(value, str):
        check_text(value, "text", max_length=200)
    return True


@_FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if len(value) > 40:
        raise ValueError("a date-time is at most 40 characters")
    when = datetime.fromisoformat(value)
    if when.tzinfo is None:
        raise ValueError(f"date-time {value!r} has no time zone")
    if not MIN_YEAR <= when.year <= MAX_YEAR:
        raise ValueError(f"date-time {value!r} is outside the years {MIN_YEAR}-{MAX_YEAR}")
    return True


_Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_int),
)


_VALIDATORS: dict[int, tuple[dict[str, Any], Any]] = {}


def _validator(schema: dict[str, Any]) -> Any:
    entry = _VALIDATORS.get(id(schema))
    if entry is None or entry[0] is not schema:
        entry = _VALIDATORS[id(schema)] = (schema, _Validator(schema, format_checker=_FORMATS))
    return entry[1]


_SIZES = {
    "maxItems": "too many items: at most",
    "minItems": "too few items: at least",
    "maxProperties": "too many fields: at most",
    "minProperties": "too few fields: at least",
    "maxLength": "too long: at most",
    "minLength": "too short: at least",
}


def _message(error: ValidationError) -> str:
    where = error.json_path
    if error.validator == "format" and error.cause is not None:
        text = str(error.cause)
    elif error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        text = f"unknown field(s) {', '.join(repr(k[:40]) for k in extra[:5])}"
    elif error.validator in _SIZES:
        text = f"{_SIZES[error.validator]} {error.validator_value}"
    else:
        text = error.message
        shown = repr(error.instance)
        if len(shown) > 60 and text.startswith(shown):
            text = shown[:40] + "..." + text[len(shown) :]
    if len(text) > 200:
        text = text[:200] + "..."
    return f"{where}: {text}"


def validate(data: Any, schema: dict[str, Any], source: object, *, at: str = "$") -> Any:
    """Check ``data`` against ``schema``; returns it, or raises :class:`CorruptSaveError`
    naming the source, the field (``$.match.setup.players[0].colour``) and the problem.
    ``at`` is where ``data`` sits in its file."""
    validator = _validator(schema)
    if validator.is_valid(data):
        return data
    error = best_match(validator.iter_errors(data))
    if error is not None:
        raise CorruptSaveError(source, at + _message(error)[1:])
    return data


# ------------------------------------------------------------------ pieces
def _int(lo: int = -MAX_INT, hi: int = MAX_INT) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi}


def _obj(properties: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False, **extra}


DATE_TIME = {"type": "string", "format": "date-time"}
SHORT_TEXT = {"type": "string", "format": "short-text"}
NAME = {"type": "string", "format": "player-name"}
COUNT = _int(0)


def envelope(fmt: str, versions: tuple[int, ...]) -> dict[str, Any]:
    """The ``format`` / ``schema_version`` pair every document starts with."""
    return {"format": {"const": fmt}, "schema_version": {"type": "integer", "enum": list(versions)}}


# ------------------------------------------------------------- Japan Conquest
#: one seat of a Japan Conquest setup
JAPAN_PLAYER = _obj(
    {
        "name": NAME,
        "home": _int(1, 47),
        "colour": {"type": "string", "format": "colour"},
        "cpu": {"type": "boolean"},
        "difficulty": {"enum": list(DIFFICULTIES)},
        "strategy": {"enum": list(STRATEGIES)},
    },
    ("name", "home"),
)

#: a Japan Conquest setup (``GameSetup.to_dict()``)
JAPAN_SETUP = _obj(
    {
        "players": {"type": "array", "items": JAPAN_PLAYER, "minItems": 2, "maxItems": 4},
        "mode": {"enum": list(MODES)},
        "turns": {"oneOf": [{"type": "null"}, {"type": "integer", "enum": list(STANDARD_TURNS)}]},
        "roll_for_order": {"type": "boolean"},
        "seed": {"oneOf": [{"type": "null"}, _int(-(2**63), 2**63)]},
    },
    ("players",),
)


_EDIT_ARGS = _obj(
    {
        "pref": _int(1, 47),
        "owner": {"oneOf": [{"type": "null"}, _int(0, 3)]},
        "level": {"enum": list(LEVEL_NAMES[:4])},
        "stored": _int(0, 10**9),
        "seat": _int(0, 3),
        "position": _int(1, 47),
        "banked": _int(0, 10**9),
        "doubles": _int(0, 10**6),
        "triples": _int(0, 10**6),
        "turn": _int(1, 10**6),
    }
)

#: each logged Japan Conquest action, by its ``type`` (checked entry by entry: one small
#: schema per entry is several times faster than one ``if``/``then`` chain for all)
JAPAN_ACTIONS = {
    kind: _obj({"type": {"const": kind}, **fields}, ("type", *fields))
    for kind, fields in {
        "roll": {"dice": {"type": "integer", "enum": [1, 2, 3]}},
        "step": {"to": _int(1, 47)},
        "undo": {},
        "confirm": {},
        "battle": {"dice": {"type": "integer", "enum": [1, 2, 3]}},
        "edit": {"op": {"enum": ["prefecture", "player", "turn"]}, "args": _EDIT_ARGS},
    }.items()
}

#: the engine data of a Japan Conquest save (``Game.to_dict()``).  The dice are the
#: seeded random dice the app plays with: scripted dice (chosen future rolls) are refused.
JAPAN_MATCH = _obj(
    {
        "format": {"const": "conquest_widget.japan_conquest.game"},
        "version": {"type": "integer", "const": 1},
        "setup": JAPAN_SETUP,
        "dice": _obj({"kind": {"const": "random"}, "seed": _int(-(2**63), 2**63)}, ("kind", "seed")),
        "log": {
            "type": "array",
            "maxItems": MAX_LOG,
            "items": {"type": "object", "required": ["type"], "properties": {"type": {"enum": list(JAPAN_ACTIONS)}}},
        },
        "snapshot": {"type": "object"},
    },
    ("format", "version", "setup", "dice", "log", "snapshot"),
)

# ---------------------------------------------------------- any game (Match)
#: the engine data of a :class:`~conquest_widget.core.match.Match` (``Match.to_dict()``);
#: the engine's ``from_dict`` checks the setup and replays the log
MATCH_DATA = _obj(
    {
        "game": {"type": "string", "pattern": GAME_ID},
        "version": _int(1, 1000),
        "setup": {"type": "object"},
        "seed": {"oneOf": [{"type": "null"}, _int(-(2**63), 2**63)]},
        "log": {
            "type": "array",
            "maxItems": MAX_LOG,
            "items": {"type": "object", "required": ["seat"], "properties": {"seat": _int(-1, MAX_SEATS - 1)}},
        },
    },
    ("game", "version", "setup", "log"),
)

#: a result row of any game
STANDING = _obj(
    {
        "seat": _int(0, MAX_SEATS - 1),
        "name": NAME,
        "score": {"oneOf": [{"type": "null"}, _int()]},
        "rank": _int(1, MAX_SEATS),
        "defeated": {"type": "boolean"},
        "cpu": {"type": "boolean"},
        "bot": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z0-9_]{1,40}(:[a-z0-9_]{1,40})?$"}]},
        "difficulty": {"oneOf": [{"type": "null"}, {"enum": list(DIFFICULTIES)}]},
        "strategy": {"oneOf": [{"type": "null"}, {"enum": list(STRATEGIES)}]},
    },
    ("seat", "name", "score", "rank", "cpu"),
)

# ------------------------------------------------------------------ documents
GAME_FORMAT = "conquest_widget.saves.game"
RESULTS_FORMAT = "conquest_widget.saves.results"
RECORDS_FORMAT = "conquest_widget.saves.records"
PREFERENCES_FORMAT = "conquest_widget.saves.preferences"
BACKUP_FORMAT = "conquest_widget.saves.backup"

#: a saved game (autosave or slot), schema version 2; ``match`` is checked by the game's
#: own schema (:data:`JAPAN_MATCH` or :data:`MATCH_DATA`)
GAME_DOC = _obj(
    {
        **envelope(GAME_FORMAT, (2,)),
        "game": {"type": "string", "pattern": GAME_ID},
        "game_version": _int(1, 1000),
        "saved_at": DATE_TIME,
        "kind": {"enum": ["autosave", "slot"]},
        "slot": _int(1, 5),
        "meta": {"type": "object", "maxProperties": 30},
        "match": {"type": "object"},
    },
    ("format", "schema_version", "game", "game_version", "saved_at", "kind", "match"),
)

#: one completed game in the results file
RESULT = _obj(
    {
        "game": {"type": "string", "pattern": GAME_ID},
        "game_version": _int(1, 1000),
        "game_id": {"type": "string", "pattern": r"^[0-9a-f]{32}$"},
        "recorded_at": DATE_TIME,
        "mode": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z_]{1,40}$"}]},
        "turns": {"oneOf": [{"type": "null"}, _int(1, 10**6)]},
        # one reason, or several joined by "+" (the Codex's end triggers firing together)
        "end_reason": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z][a-z0-9_]{0,39}(\+[a-z][a-z0-9_]{0,39}){0,3}$"}]},
        "actions": _int(0, MAX_LOG),
        "standings": {"type": "array", "items": STANDING, "minItems": 2, "maxItems": MAX_SEATS},
        "winners": {"type": "array", "items": NAME, "maxItems": MAX_SEATS},
    },
    ("game", "game_version", "game_id", "recorded_at", "mode", "standings", "winners"),
)

RESULTS_DOC = _obj(
    {**envelope(RESULTS_FORMAT, (2,)), "results": {"type": "array", "items": RESULT, "maxItems": 1000}},
    ("format", "schema_version", "results"),
)

RECORDS_DOC = _obj(
    {
        **envelope(RECORDS_FORMAT, (2,)),
        "records": {
            "type": "object",
            "maxProperties": 1000,
            "propertyNames": {"pattern": RECORD_KEY},
            "additionalProperties": _obj(
                {"wins": _int(0), "losses": _int(0), "draws": _int(0)}, ("wins", "losses", "draws")
            ),
        },
        "counted_games": {
            "type": "array",
            "maxItems": 200_000,
            "items": {"type": "string", "pattern": r"^[0-9a-f]{32}$"},
        },
    },
    ("format", "schema_version", "records", "counted_games"),
)

#: the sound setting (conquest_widget/ui/sound.py): on/off and the volume from 0 to 1;
#: a bare boolean (files written before the volume existed) is still read as on/off
SOUND_PREFERENCE = {
    "anyOf": [
        {"type": "boolean"},
        _obj({"enabled": {"type": "boolean"}, "volume": {"type": "number", "minimum": 0, "maximum": 1}},
             ("enabled", "volume")),
    ]
}

#: the preferences themselves (``last_setups``: per game id, the setup to offer next;
#: ``sound``: see SOUND_PREFERENCE); other options (speed, ...) are small scalars under
#: lower-case names
PREFERENCES_BODY = {
    "type": "object",
    "maxProperties": 50,
    "properties": {
        "language": {"enum": list(LANGUAGES)},
        "sound": SOUND_PREFERENCE,
        "last_setups": {
            "type": "object",
            "maxProperties": 20,
            "propertyNames": {"pattern": GAME_ID},
            "additionalProperties": _obj(
                {"game_version": _int(1, 1000), "setup": {"type": "object"}}, ("game_version", "setup")
            ),
        },
    },
    "propertyNames": {"pattern": GAME_ID},
    "additionalProperties": {
        "anyOf": [
            {"type": "null"},
            {"type": "boolean"},
            _int(),
            {"type": "number", "minimum": -MAX_INT, "maximum": MAX_INT},
            SHORT_TEXT,
        ]
    },
}

PREFERENCES_DOC = _obj(
    {**envelope(PREFERENCES_FORMAT, (2,)), "saved_at": DATE_TIME, "preferences": PREFERENCES_BODY},
    ("format", "schema_version", "preferences"),
)

_NULLABLE_OBJECT = {"oneOf": [{"type": "null"}, {"type": "object"}]}
#: the name of a data file: an autosave (Japan Conquest's ``autosave.json``, every other
#: game's ``autosave-<game>.json``), a slot, results, records or preferences
DATA_FILE_NAME = r"^(autosave(-[a-z][a-z0-9_]{0,47})?|slot-[1-5]|results|records|preferences)\.json$"

#: a backup: the stored documents of each file (each checked by its own schema).
#: Version 3 holds every game's autosave under ``autosaves`` (game id → document);
#: versions 1 and 2 had the one ``autosave``.
BACKUP_DOC = _obj(
    {
        **envelope(BACKUP_FORMAT, (1, 2, 3)),
        "exported_at": DATE_TIME,
        "autosave": _NULLABLE_OBJECT,
        "autosaves": {
            "type": "object",
            "maxProperties": 50,
            "propertyNames": {"pattern": GAME_ID},
            "additionalProperties": {"type": "object"},
        },
        "slots": {
            "oneOf": [
                {"type": "null"},
                _obj({str(n): _NULLABLE_OBJECT for n in range(1, 6)}),
            ]
        },
        "results": _NULLABLE_OBJECT,
        "records": _NULLABLE_OBJECT,
        "preferences": _NULLABLE_OBJECT,
        "skipped": {
            "type": "array",
            "maxItems": 60,
            "items": _obj(
                {"file": {"type": "string", "pattern": DATA_FILE_NAME}, "problem": {"type": "string", "maxLength": 1000}},
                ("file", "problem"),
            ),
        },
    },
    ("format", "schema_version", "exported_at"),
)

__all__ = [
    "BACKUP_DOC",
    "BACKUP_FORMAT",
    "DATA_FILE_NAME",
    "GAME_DOC",
    "GAME_FORMAT",
    "GAME_ID",
    "JAPAN_ACTIONS",
    "JAPAN_MATCH",
    "JAPAN_PLAYER",
    "JAPAN_SETUP",
    "LANGUAGES",
    "MATCH_DATA",
    "MAX_YEAR",
    "MIN_YEAR",
    "PREFERENCES_BODY",
    "PREFERENCES_DOC",
    "PREFERENCES_FORMAT",
    "RECORDS_DOC",
    "RECORDS_FORMAT",
    "RECORD_KEY",
    "RESULT",
    "RESULTS_DOC",
    "RESULTS_FORMAT",
    "SOUND_PREFERENCE",
    "STANDING",
    "validate",
]
