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

Languages and record keys are fixed lists or patterns in the schemas; what only one
game knows (its modes, CPU levels, actions) is checked by that game's codec, with its
own schemas kept in the game's folder (Japan Conquest's older engine documents:
``conquest_widget/games/japan_conquest/saves.py``).  Integers are JSON integers only (``1.0``, ``true``
and ``"1"`` are not integers here) and bounded.  Lone surrogates, duplicate keys,
NaN/Infinity and deep nesting never get this far (:func:`~.atomic.parse_json`).

    >>> validate({"language": "fr"}, PREFERENCES_BODY, "preferences.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.CorruptSaveError: preferences.json: $.language: 'fr' is not one of ['en', 'ja']
    >>> validate({"seat": 0, "name": "<b>x</b>\\u0007", "score": 1, "rank": 1, "cpu": False}, STANDING, "results.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.CorruptSaveError: results.json: $.name: name contains a control or invalid character (U+0007)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError, best_match

from conquest_widget.core.match import MAX_LOG  # one bound: a log the engines accept is never refused by the saves
from conquest_widget.core.safe_text import check_colour, check_name, check_text
from conquest_widget.errors import CorruptSaveError

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
def integer(lo: int = -MAX_INT, hi: int = MAX_INT) -> dict[str, Any]:
    """An integer from ``lo`` to ``hi`` (a bool is not one)."""
    return {"type": "integer", "minimum": lo, "maximum": hi}


def fields(properties: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """An object with exactly these ``properties`` (no others), ``required`` among them."""
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False, **extra}


DATE_TIME = {"type": "string", "format": "date-time"}
SHORT_TEXT = {"type": "string", "format": "short-text"}
NAME = {"type": "string", "format": "player-name"}
COUNT = integer(0)


def envelope(fmt: str, versions: tuple[int, ...]) -> dict[str, Any]:
    """The ``format`` / ``schema_version`` pair every document starts with."""
    return {"format": {"const": fmt}, "schema_version": {"type": "integer", "enum": list(versions)}}


# ---------------------------------------------------------- any game (Match)
#: the engine data of a :class:`~conquest_widget.core.match.Match` (``Match.to_dict()``);
#: the engine's ``from_dict`` checks the setup and replays the log
MATCH_DATA = fields(
    {
        "game": {"type": "string", "pattern": GAME_ID},
        "version": integer(1, 1000),
        "setup": {"type": "object"},
        "seed": {"oneOf": [{"type": "null"}, integer(-(2**63), 2**63)]},
        "log": {
            "type": "array",
            "maxItems": MAX_LOG,
            "items": {"type": "object", "required": ["seat"], "properties": {"seat": integer(-1, MAX_SEATS - 1)}},
        },
    },
    ("game", "version", "setup", "log"),
)

#: a result row of any game
STANDING = fields(
    {
        "seat": integer(0, MAX_SEATS - 1),
        "name": NAME,
        "score": {"oneOf": [{"type": "null"}, integer()]},
        "rank": integer(1, MAX_SEATS),
        "defeated": {"type": "boolean"},
        "cpu": {"type": "boolean"},
        "bot": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z0-9_]{1,40}(:[a-z0-9_]{1,40})?$"}]},
        # a CPU's level and style, in games that label their CPUs so (the game's codec
        # checks the values: GameCodec.check_result)
        "difficulty": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z_]{1,40}$"}]},
        "strategy": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z_]{1,40}$"}]},
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
#: codec (:data:`MATCH_DATA`, or a game's own schema such as Japan Conquest's older
#: engine documents in games/japan_conquest/saves.py)
GAME_DOC = fields(
    {
        **envelope(GAME_FORMAT, (2,)),
        "game": {"type": "string", "pattern": GAME_ID},
        "game_version": integer(1, 1000),
        "saved_at": DATE_TIME,
        "kind": {"enum": ["autosave", "slot"]},
        "slot": integer(1, 5),
        "meta": {"type": "object", "maxProperties": 30},
        "match": {"type": "object"},
    },
    ("format", "schema_version", "game", "game_version", "saved_at", "kind", "match"),
)

#: one completed game in the results file
RESULT = fields(
    {
        "game": {"type": "string", "pattern": GAME_ID},
        "game_version": integer(1, 1000),
        "game_id": {"type": "string", "pattern": r"^[0-9a-f]{32}$"},
        "recorded_at": DATE_TIME,
        "mode": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z_]{1,40}$"}]},
        "turns": {"oneOf": [{"type": "null"}, integer(1, 10**6)]},
        # one reason, or several joined by "+" (the Codex's end triggers firing together)
        "end_reason": {"oneOf": [{"type": "null"}, {"type": "string", "pattern": r"^[a-z][a-z0-9_]{0,39}(\+[a-z][a-z0-9_]{0,39}){0,3}$"}]},
        "actions": integer(0, MAX_LOG),
        "standings": {"type": "array", "items": STANDING, "minItems": 2, "maxItems": MAX_SEATS},
        "winners": {"type": "array", "items": NAME, "maxItems": MAX_SEATS},
    },
    ("game", "game_version", "game_id", "recorded_at", "mode", "standings", "winners"),
)

RESULTS_DOC = fields(
    {**envelope(RESULTS_FORMAT, (2,)), "results": {"type": "array", "items": RESULT, "maxItems": 1000}},
    ("format", "schema_version", "results"),
)

RECORDS_DOC = fields(
    {
        **envelope(RECORDS_FORMAT, (2,)),
        "records": {
            "type": "object",
            "maxProperties": 1000,
            "propertyNames": {"pattern": RECORD_KEY},
            "additionalProperties": fields(
                {"wins": integer(0), "losses": integer(0), "draws": integer(0)}, ("wins", "losses", "draws")
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
        fields({"enabled": {"type": "boolean"}, "volume": {"type": "number", "minimum": 0, "maximum": 1}},
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
            "additionalProperties": fields(
                {"game_version": integer(1, 1000), "setup": {"type": "object"}}, ("game_version", "setup")
            ),
        },
    },
    "propertyNames": {"pattern": GAME_ID},
    "additionalProperties": {
        "anyOf": [
            {"type": "null"},
            {"type": "boolean"},
            integer(),
            {"type": "number", "minimum": -MAX_INT, "maximum": MAX_INT},
            SHORT_TEXT,
        ]
    },
}

PREFERENCES_DOC = fields(
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
BACKUP_DOC = fields(
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
                fields({str(n): _NULLABLE_OBJECT for n in range(1, 6)}),
            ]
        },
        "results": _NULLABLE_OBJECT,
        "records": _NULLABLE_OBJECT,
        "preferences": _NULLABLE_OBJECT,
        "skipped": {
            "type": "array",
            "maxItems": 60,
            "items": fields(
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
    "LANGUAGES",
    "MATCH_DATA",
    "MAX_YEAR",
    "MIN_YEAR",
    "NAME",
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
    "fields",
    "integer",
    "validate",
]
