"""Exception classes of conquest_widget.

Every error the package raises on purpose is a subclass of :class:`ConquestError`,
so callers can catch the whole family at once::

    >>> from conquest_widget.maps.japan import board
    >>> from conquest_widget.errors import ConquestError
    >>> try:
    ...     board.prefecture("Atlantis")
    ... except ConquestError as exc:
    ...     print(exc)
    unknown prefecture 'Atlantis': give a JIS code 1-47 or an English or Japanese name
"""

from __future__ import annotations


class ConquestError(Exception):
    """Base class of every error raised by conquest_widget."""


class UnknownPrefectureError(ConquestError, LookupError):
    """A prefecture code or name that is not one of Japan's 47 prefectures."""

    def __str__(self) -> str:  # LookupError would add quotes around the message
        return str(self.args[0]) if self.args else ""


class UnknownRegionError(ConquestError, LookupError):
    """A region id or name that is not one of the seven game regions."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DataFileError(ConquestError):
    """A packaged data file (board data, geodata) is missing or malformed."""


class SetupError(ConquestError, ValueError):
    """An invalid game setup (player count, home prefectures, mode, ...)."""


class IllegalActionError(ConquestError, ValueError):
    """An action that is not legal in the current game state.

    The game state is left exactly as it was before the action was tried.
    ``reason`` (e.g. ``"cost"``, ``"toll"``, ``"not_adjacent"``, ``"dead_end"``) and
    ``details`` (numbers and prefecture codes) let a UI explain it in any language.
    """

    def __init__(self, message: str, reason: str | None = None, **details: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


class NoSuchSeatError(ConquestError, IndexError):
    """A seat number that is not one of the game's seats."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class SecretsLockedError(ConquestError, PermissionError):
    """A seat's secrets asked of something that shows only the public view (the replay
    of an unfinished game with hidden information)."""


class DiceSourceError(ConquestError, ValueError):
    """A dice source that gave something other than die faces (or could not roll)."""


class GameOverError(IllegalActionError):
    """An action was attempted after the game ended."""


class SerializationError(ConquestError, ValueError):
    """A serialized game (dict / JSON) that cannot be loaded: wrong format,
    unsupported version, or a snapshot that does not match its replayed log."""


class ChanceError(SerializationError):
    """A logged or scripted chance outcome that does not fit the draw asked for
    (a die face out of range, a shuffle that is not a permutation, no outcome left)."""


class UnknownGameError(ConquestError, LookupError):
    """A game id that is not in the registry (:func:`conquest_widget.games`)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class WrongGameError(SerializationError):
    """A document of another game than the one asked for."""


# --------------------------------------------------------------------------- saves
class SaveError(ConquestError):
    """A save-data operation (:mod:`conquest_widget.saves`) that cannot be done."""


class SaveFileError(SaveError):
    """A file of the save directory that cannot be read or written.

    ``path`` is the file, ``problem`` says what is wrong; the message names both.
    """

    def __init__(self, path: object, problem: str) -> None:
        super().__init__(path, problem)
        self.path = path
        self.problem = problem

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


class CorruptSaveError(SaveFileError, ValueError):
    """A save file that is not JSON, has the wrong format, is too large or fails
    validation (including a game whose snapshot does not match its replayed log).
    The file is left exactly as it is."""


class AutosaveChangedError(SaveError):
    """The autosave file is no longer the one this page read or last wrote: the same game
    was continued (or another one started) on another page sharing the save folder.
    Nothing was written; ``path`` is the autosave file.

    A page that gets it keeps its game on screen (its player can save it to a slot or
    make it the autosave again); see :class:`~conquest_widget.saves.AutosaveClaim`."""

    def __init__(self, path: object) -> None:
        self.path = path
        super().__init__(f"{path}: this game was changed on another page since this page last saved it; nothing was written")


class UnsupportedSaveVersionError(CorruptSaveError):
    """A save file written with a newer schema version than this package reads."""


class InvalidSlotError(SaveError, ValueError):
    """A save slot that is not one of the integers 1-5."""


class EmptySlotError(SaveError, LookupError):
    """Loading a save slot that holds no game."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class SlotOccupiedError(SaveError):
    """Saving onto a slot that already holds a game (or an unreadable file) without
    ``overwrite=True``: slots are never overwritten automatically."""

    def __init__(self, slot: int, path: object, *, corrupt: bool = False) -> None:
        what = "an unreadable file" if corrupt else "a saved game"
        super().__init__(f"slot {slot} ({path}) already holds {what}; pass overwrite=True to replace it")
        self.slot = slot
        self.path = path
        self.corrupt = corrupt


class InvalidBackupError(SaveError, ValueError):
    """A backup that cannot be restored; ``problems`` lists every problem found.
    Nothing of the current save data was changed."""

    def __init__(self, source: object, problems: list[str]) -> None:
        super().__init__(source, list(problems))
        self.source = source
        self.problems = list(problems)

    def __str__(self) -> str:
        return f"{self.source}: invalid backup, nothing was changed: " + "; ".join(self.problems)


class ConfirmationRequiredError(SaveError):
    """A destructive save-data operation called without ``confirm=True``."""


class SaveWarning(UserWarning):
    """Something in the save directory needed attention but nothing was lost (for
    example an unreadable autosave moved aside before a new autosave was written)."""
