"""Game tables: a match kept in a store, with a key per seat, so that each player acts from
their own page (see :mod:`.table` for the Python API and :mod:`.store` for the store).

    >>> from conquest_widget import tables
    >>> sorted(n for n in tables.__all__ if n[0].islower())
    ['close_table', 'create_table', 'join', 'list_tables', 'open_link', 'open_store', 'parse_link', 'seat_link', 'table_from_match', 'watch_link']
"""

from .errors import NoSuchTableError, StaleTableError, StoreSchemaError, TableClosedError, TableError
from .links import BadLinkError, LinkRequest, open_link, parse_link, seat_link, watch_link
from .store import PostgresStore, SQLiteStore, SQLStore, TableRow
from .table import NewTable, SeatClient, close_table, create_table, join, list_tables, open_store, table_from_match

__all__ = [
    "BadLinkError", "LinkRequest", "NewTable", "NoSuchTableError", "PostgresStore", "SQLStore", "SQLiteStore", "SeatClient", "StaleTableError", "StoreSchemaError",
    "TableClosedError", "TableError", "TableRow", "close_table", "create_table", "join", "list_tables", "open_link", "open_store",
    "parse_link", "seat_link", "table_from_match", "watch_link",
]
