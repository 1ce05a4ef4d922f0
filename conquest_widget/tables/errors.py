"""What can go wrong at a table (all :class:`~conquest_widget.errors.ConquestError`)."""

from __future__ import annotations

from conquest_widget.errors import ConquestError


class TableError(ConquestError):
    """A table problem (the base class of the errors below)."""


class NoSuchTableError(TableError, LookupError):
    """No table has this id, or no seat this key (a key is never echoed back)."""


class StaleTableError(TableError):
    """Another page acted first: the action was checked against an older version of the
    table and nothing was applied.  Refresh (``SeatClient.refresh``) and decide again."""

    def __init__(self, message: str, *, version: int) -> None:
        super().__init__(message)
        #: the table's version now
        self.version = version


class TableClosedError(TableError):
    """The table was closed (or its game is over): it takes no more actions."""


class StoreSchemaError(TableError):
    """The store was made by a newer version of conquest_widget (or is not a table store)."""
