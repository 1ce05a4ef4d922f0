"""Japan Conquest in the saves: what the shared :class:`~conquest_widget.saves.games.MatchCodec`
does not know of it (the registry's ``GameSpec.saves`` points here).

- Documents of the older engine (Japan document format 1, ``"format":
  "conquest_widget.japan_conquest.game"``: version-1 files and early slots) are read by
  :class:`JapanCodec`, checked against their schemas (:data:`JAPAN_MATCH`, ...), as a
  :class:`~.match.JapanMatch` (:mod:`.legacy`); nothing writes them any more.
- A :class:`~.match.JapanMatch` is stored like every match, and shown in slot lists
  with its turn and phase (:class:`JapanMatchCodec`).
- Setups and results are checked against Japan's modes, CPU levels and styles.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> type(SAVES.codec_of(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))).__name__
    'JapanMatchCodec'
    >>> type(SAVES.codec_for({"game": "japan_conquest", "version": 2})).__name__
    'JapanMatchCodec'
    >>> type(SAVES.codec_for({"format": "conquest_widget.japan_conquest.game"})).__name__
    'JapanCodec'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from conquest_widget.core.match import Match
from conquest_widget.errors import CorruptSaveError, SaveError
from conquest_widget.games.japan_conquest.legacy import FORMAT as JAPAN_ENGINE_FORMAT
from conquest_widget.games.japan_conquest.legacy import match_from_legacy
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.rules import (
    DIFFICULTIES,
    LEVEL_NAMES,
    MODES,
    STANDARD_TURNS,
    STRATEGIES,
)
from conquest_widget.games.japan_conquest.setup import GameSetup
from conquest_widget.saves import schemas
from conquest_widget.saves.games import GameCodec, GameSaves, MatchCodec, canonical, fingerprint
from conquest_widget.saves.schemas import MAX_LOG, NAME, fields, integer

JAPAN = "japan_conquest"

#: one seat of a Japan Conquest setup
JAPAN_PLAYER = fields(
    {
        "name": NAME,
        "home": integer(1, 47),
        "colour": {"type": "string", "format": "colour"},
        "cpu": {"type": "boolean"},
        "difficulty": {"enum": list(DIFFICULTIES)},
        "strategy": {"enum": list(STRATEGIES)},
    },
    ("name", "home"),
)

#: a Japan Conquest setup (``GameSetup.to_dict()``)
JAPAN_SETUP = fields(
    {
        "players": {"type": "array", "items": JAPAN_PLAYER, "minItems": 2, "maxItems": 4},
        "mode": {"enum": list(MODES)},
        "turns": {"oneOf": [{"type": "null"}, {"type": "integer", "enum": list(STANDARD_TURNS)}]},
        "roll_for_order": {"type": "boolean"},
        "seed": {"oneOf": [{"type": "null"}, integer(-(2**63), 2**63)]},
    },
    ("players",),
)


_EDIT_ARGS = fields(
    {
        "pref": integer(1, 47),
        "owner": {"oneOf": [{"type": "null"}, integer(0, 3)]},
        "level": {"enum": list(LEVEL_NAMES[:4])},
        "stored": integer(0, 10**9),
        "seat": integer(0, 3),
        "position": integer(1, 47),
        "banked": integer(0, 10**9),
        "doubles": integer(0, 10**6),
        "triples": integer(0, 10**6),
        "turn": integer(1, 10**6),
    }
)

#: each logged Japan Conquest action, by its ``type`` (checked entry by entry: one small
#: schema per entry is several times faster than one ``if``/``then`` chain for all)
JAPAN_ACTIONS = {
    kind: fields({"type": {"const": kind}, **props}, ("type", *props))
    for kind, props in {
        "roll": {"dice": {"type": "integer", "enum": [1, 2, 3]}},
        "step": {"to": integer(1, 47)},
        "undo": {},
        "confirm": {},
        "battle": {"dice": {"type": "integer", "enum": [1, 2, 3]}},
        "edit": {"op": {"enum": ["prefecture", "player", "turn"]}, "args": _EDIT_ARGS},
    }.items()
}

#: the engine data of a Japan Conquest save of format 1 (the older engine's document:
#: :mod:`.legacy`).  The dice are the seeded random dice the app played with: scripted dice
#: (chosen future rolls) are refused.
JAPAN_MATCH = fields(
    {
        "format": {"const": "conquest_widget.japan_conquest.game"},
        "version": {"type": "integer", "const": 1},
        "setup": JAPAN_SETUP,
        "dice": fields({"kind": {"const": "random"}, "seed": integer(-(2**63), 2**63)}, ("kind", "seed")),
        "log": {
            "type": "array",
            "maxItems": MAX_LOG,
            "items": {"type": "object", "required": ["type"], "properties": {"type": {"enum": list(JAPAN_ACTIONS)}}},
        },
        "snapshot": {"type": "object"},
    },
    ("format", "version", "setup", "dice", "log", "snapshot"),
)


def japan_summary(game: JapanMatch) -> dict[str, Any]:
    """What the slot list shows of a Japan Conquest match."""
    setup = game.setup
    return {
        "mode": setup.mode,
        "turns": setup.turns,
        "turn": game.turn_number(),
        "phase": game.phase,
        "is_over": game.is_over,
        "players": [
            {
                "name": p.name,
                "cpu": p.cpu,
                "difficulty": p.difficulty if p.cpu else None,
                "strategy": p.strategy if p.cpu else None,
            }
            for p in setup.players
        ],
    }


def _check_japan_setup(data: Any, source: object, *, at: str = "$") -> dict[str, Any]:
    """A Japan setup from a file, checked against :data:`JAPAN_SETUP` and the rules."""
    schemas.validate(data, JAPAN_SETUP, source, at=at)
    try:
        return GameSetup.from_dict(data).to_dict()
    except Exception as exc:
        raise CorruptSaveError(source, f"{at}: not a valid game setup: {str(exc)[:300]}") from None


def _japan_setup_dict(setup: Any) -> dict[str, Any]:
    data = setup.to_dict() if isinstance(setup, GameSetup) else setup
    try:
        return _check_japan_setup(data, "setup")
    except CorruptSaveError as exc:
        raise SaveError(f"not a valid Japan Conquest setup: {exc.problem}") from None


def _check_japan_result(codec: GameCodec, entry: Mapping[str, Any], source: object, where: str) -> None:
    """Japan's rules of a result entry, beyond the schema's: its mode, and each CPU
    seat's difficulty and strategy (one of the game's)."""
    GameCodec.check_result(codec, entry, source, where)
    if entry["mode"] not in MODES:
        raise CorruptSaveError(source, f"{where}: mode must be one of {MODES}, got {entry['mode']!r}")
    for row in entry["standings"]:
        difficulty, strategy = row.get("difficulty"), row.get("strategy")
        if row["cpu"] and (difficulty is None or strategy is None):
            raise CorruptSaveError(source, f"{where}: a CPU seat needs its difficulty and strategy")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            raise CorruptSaveError(source, f"{where}: difficulty must be one of {DIFFICULTIES}, got {difficulty!r}"[:300])
        if strategy is not None and strategy not in STRATEGIES:
            raise CorruptSaveError(source, f"{where}: strategy must be one of {STRATEGIES}, got {strategy!r}"[:300])


def _record_label_ok(label: str) -> bool:
    difficulty, _, strategy = label.partition(":")
    return difficulty in DIFFICULTIES and strategy in STRATEGIES


class JapanMatchCodec(MatchCodec):
    """A :class:`~.match.JapanMatch` (every game the app plays today), stored as every
    match is; slot lists show its turn and phase, and results are checked as Japan's."""

    def __init__(self) -> None:
        super().__init__(JapanMatch)

    def summary(self, match: Match) -> dict[str, Any]:
        assert isinstance(match, JapanMatch)
        return japan_summary(match)

    def game_id(self, match: Match) -> str:
        """The match's id; for a game read from the older engine's document (format 1), the
        id that document had (its setup, dice and actions), so that a result recorded
        before is recognised (and counts once)."""
        assert isinstance(match, JapanMatch)
        if match.legacy_dice is not None:
            return fingerprint({"setup": match.setup.to_dict(), "dice": match.legacy_dice,
                                "log": [a.to_dict() for a in match.actions()]})
        return super().game_id(match)

    def check_setup(self, data: Any, source: object, *, at: str = "$") -> dict[str, Any]:
        return _check_japan_setup(data, source, at=at)

    def setup_dict(self, setup: Any) -> dict[str, Any]:
        return _japan_setup_dict(setup)

    def setup_from_dict(self, data: Mapping[str, Any]) -> GameSetup:
        return GameSetup.from_dict(dict(data))

    def record_label_ok(self, label: str) -> bool:
        return _record_label_ok(label)

    def check_result(self, entry: Mapping[str, Any], source: object, where: str) -> None:
        _check_japan_result(self, entry, source, where)


class JapanCodec(JapanMatchCodec):
    """Japan Conquest's documents of the older engine (format 1, see :mod:`.legacy`): read
    as a :class:`~.match.JapanMatch`, never written (a match is saved as a match document).

    Everything else (summaries, ids, results, setups) is :class:`JapanMatchCodec`'s.

    Decision (issue 17, item 14): a saved game holds the seeded random dice of its
    setup (``{"kind": "random", "seed": n}``), as every game the app plays does.  Scripted
    dice would let a file choose the future rolls, so they are not loaded.
    """

    def owns(self, match: object) -> bool:
        return False  # nothing is written in format 1 any more

    def encode(self, match: Any) -> dict[str, Any]:
        raise SaveError("Japan document format 1 is no longer written: a match is saved as a match document")

    def decode(self, data: Any, source: object, *, at: str = "$") -> JapanMatch:
        dice = data.get("dice") if isinstance(data, dict) else None
        if isinstance(dice, dict) and dice.get("kind") == "scripted":
            raise CorruptSaveError(
                source,
                f"{at}.dice: scripted dice (chosen future rolls) are not accepted in a save; "
                "a saved game uses the seeded random dice of its setup",
            )
        schemas.validate(data, JAPAN_MATCH, source, at=at)
        for i, action in enumerate(data["log"]):
            schemas.validate(action, JAPAN_ACTIONS[action["type"]], source, at=f"{at}.log[{i}]")
        try:
            match = match_from_legacy(data, verify=False)
        except RecursionError:
            raise CorruptSaveError(source, "the game cannot be loaded: its log is too long to replay") from None
        except Exception as exc:
            raise CorruptSaveError(source, f"the game cannot be loaded: {str(exc)[:300]}") from None
        if canonical(match.state.snapshot()) != canonical(data["snapshot"]):
            raise CorruptSaveError(
                source,
                "the game cannot be loaded: the saved snapshot does not match the replayed action log (corrupt or edited save)",
            )
        return match


class JapanSaves(GameSaves):
    """Japan Conquest's hook into the saves (``GameSpec.saves``)."""

    def codec_for(self, data: Any = None) -> GameCodec:
        """The codec of the older engine's documents for one of them (format 1), else the
        match codec."""
        if isinstance(data, Mapping) and (data.get("format") == JAPAN_ENGINE_FORMAT or "game" not in data):
            return _engine_codec()
        return _match_codec()

    def rules(self) -> GameCodec:
        return _match_codec()

    def codec_of(self, match: object) -> GameCodec | None:
        if isinstance(match, JapanMatch):
            return _match_codec()
        return None


@cache
def _engine_codec() -> JapanCodec:
    return JapanCodec()


@cache
def _match_codec() -> JapanMatchCodec:
    return JapanMatchCodec()


SAVES = JapanSaves()
