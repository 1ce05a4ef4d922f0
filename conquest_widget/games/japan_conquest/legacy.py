"""Reading Japan Conquest documents of the older engine (Japan document format 1).

Before Japan Conquest stood on :class:`~conquest_widget.core.match.Match` like the other
games, its engine wrote a document of its own (``Game.to_dict()``, format 1)::

    {"format": "conquest_widget.japan_conquest.game", "version": 1,
     "setup": {...}, "dice": {"kind": "random", "seed": 7} | {"kind": "scripted", ...},
     "log": [action, ...], "snapshot": {...}}

Its log holds the actions only: the dice were re-rolled on loading from the dice source
as created.  :func:`match_from_legacy` reads it as a :class:`~.match.JapanMatch` whose
script is that dice source (:func:`~.dice.dice_from_dict`), replaying the logged actions:
the faces become logged chance outcomes, and the replayed state must equal the saved
snapshot.  Every field is checked; a bad document raises :class:`SerializationError`
with a clear message.  Nothing writes format 1 any more (saves hold match documents).

    >>> from conquest_widget.games.japan_conquest import GameSetup
    >>> doc = {"format": FORMAT, "version": 1, "setup": GameSetup.quick(["Tokyo", "Osaka"]).to_dict(),
    ...        "dice": {"kind": "scripted", "values": [2], "then_seed": None},
    ...        "log": [{"type": "roll", "dice": 1}]}
    >>> m = match_from_legacy(doc)
    >>> m.allowance, m.log[-1]["outcome"]
    (2, [2])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from conquest_widget.errors import (
    ChanceError,
    DiceSourceError,
    IllegalActionError,
    SerializationError,
    SetupError,
)
from conquest_widget.games.japan_conquest.actions import action_from_dict
from conquest_widget.games.japan_conquest.dice import DiceExhaustedError, ScriptedDice, dice_from_dict
from conquest_widget.games.japan_conquest.setup import GameSetup

if TYPE_CHECKING:
    from conquest_widget.games.japan_conquest.match import JapanMatch

#: ``"format"`` of a document of the older engine
FORMAT = "conquest_widget.japan_conquest.game"
FORMAT_VERSION = 1


def is_legacy(data: Any) -> bool:
    """Is ``data`` a Japan document of format 1?"""
    return isinstance(data, Mapping) and data.get("format") == FORMAT


def match_from_legacy(data: Any, *, verify: bool = True) -> JapanMatch:
    """The match of a format-1 document (see the module docstring); refuses data whose
    snapshot differs from the replay (unless ``verify`` is false)."""
    from conquest_widget.games.japan_conquest.match import JapanMatch

    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise SerializationError(f"not a Japan Conquest game: expected format {FORMAT!r}")
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise SerializationError(f"unsupported game format version {version!r} (this version reads {FORMAT_VERSION})")
    try:
        setup = GameSetup.from_dict(data["setup"])
        dice = dice_from_dict(data["dice"])
        log = [action_from_dict(a) for a in data["log"]]
    except SerializationError:
        raise
    except SetupError as exc:
        raise SerializationError(f"the saved setup is invalid: {exc}") from exc
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SerializationError(f"malformed game data: missing or bad {exc!r}") from exc
    seed = setup.seed if setup.seed is not None else getattr(dice, "seed", None)
    try:
        match = JapanMatch(setup, seed=seed if isinstance(seed, int) else 0, dice=dice)
    except DiceExhaustedError as exc:  # the start itself rolls (roll for order)
        raise SerializationError(f"the saved game cannot be replayed: its start needs more dice than were saved: {exc}") from None
    except (OverflowError, DiceSourceError, ChanceError) as exc:
        raise SerializationError(f"the saved game cannot be replayed: {exc}") from None
    except RecursionError:
        raise SerializationError("the saved game cannot be replayed: its dice nest too deeply (endless ties)") from None
    for i, action in enumerate(log):
        try:
            match.push(action)
        except IllegalActionError as exc:
            raise SerializationError(f"action {i} ({action}) of the log is illegal on replay: {exc}") from exc
        except DiceExhaustedError as exc:
            raise SerializationError(f"action {i} ({action}) of the log needs more dice than were saved: {exc}") from exc
        except (OverflowError, DiceSourceError, ChanceError) as exc:
            raise SerializationError(f"the saved game cannot be replayed: {exc}") from None
    if verify and "snapshot" in data and match.state.snapshot() != data["snapshot"]:
        raise SerializationError("the saved snapshot does not match the replayed action log (corrupt or edited save)")
    if not isinstance(dice, ScriptedDice):
        # the seed decides the next rolls, as it did when such a document was opened before
        match.script = None
    match.legacy_dice = dict(data["dice"])
    return match


def adopt_legacy(cls: type[JapanMatch], obj: object) -> JapanMatch | None:
    """:meth:`JapanMatch.adopt`: a format-1 document, or a save of format 1 holding one
    (or a match document) under ``"game"``; None for anything else."""
    if isinstance(obj, Mapping) and obj.get("format") != FORMAT and isinstance(obj.get("game"), Mapping):
        inner = obj["game"]  # save format 1
        if inner.get("game") == cls.spec.id:  # ... holding a match document
            return cls.from_dict(inner)
        obj = inner
    if not is_legacy(obj):
        return None
    try:
        return match_from_legacy(obj)
    except SerializationError:
        raise
    except RecursionError:
        raise SerializationError("the game data is nested too deeply") from None
    except Exception as exc:  # anything else the engine trips over is also bad data
        raise SerializationError(f"the game cannot be loaded: {exc!r}") from exc
