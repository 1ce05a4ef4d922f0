"""Exception classes of conquest_widget.

Every error the package raises on purpose is a subclass of :class:`ConquestError`,
so callers can catch the whole family at once::

    >>> from conquest_widget import board
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
    """


class GameOverError(IllegalActionError):
    """An action was attempted after the game ended."""


class SerializationError(ConquestError, ValueError):
    """A serialized game (dict / JSON) that cannot be loaded: wrong format,
    unsupported version, or a snapshot that does not match its replayed log."""
