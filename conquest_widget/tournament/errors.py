"""The tournament's exception classes (all :class:`~conquest_widget.errors.ConquestError`).

    >>> from conquest_widget.errors import ConquestError
    >>> issubclass(SchedulerUnavailableError, ConquestError)
    True
"""

from __future__ import annotations

from conquest_widget.errors import ConquestError


class TournamentError(ConquestError, ValueError):
    """A tournament that cannot be run as asked (bad entrants, players, options...)."""


class UnknownBotError(TournamentError, LookupError):
    """A bot label that is not in the game's ``BOTS``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownOptionError(TournamentError):
    """A simulation option (``--mode``, ``--turns``) that the game does not have."""


class SchedulerUnavailableError(TournamentError):
    """A Dask scheduler address that does not answer (or Dask is not installed)."""


class JournalError(TournamentError):
    """A ``--resume`` journal that is unreadable or belongs to another tournament."""
