"""The links of a table: one per human seat and one to watch, as addresses of the app's
own page with a query string, and the reading of such a query string back.

    >>> seat_link("http://127.0.0.1:8866/", "ab12", 1, "K3y-_x0123456789")
    'http://127.0.0.1:8866/?table=ab12&seat=1&key=K3y-_x0123456789'
    >>> watch_link("http://127.0.0.1:8866/", "ab12", "W4tch012345")
    'http://127.0.0.1:8866/?table=ab12&watch=1&key=W4tch012345'
    >>> parse_link("table=ab12&seat=1&key=K3y-_x0123456789")
    LinkRequest(table='ab12', seat=1, key='K3y-_x0123456789')
    >>> parse_link("table=ab12&watch=1&key=W4tch012345").seat is None
    True
    >>> parse_link("") is None, parse_link("lang=ja") is None
    (True, True)

A query string comes from a browser: anything that is not exactly a link of this form is a
:class:`BadLinkError` that names no part of it (a key is never echoed back).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode

from .errors import NoSuchTableError, TableError
from .store import SQLStore
from .table import SeatClient, join

#: what a table id and a key look like (a uuid4 hex; ``secrets.token_urlsafe``)
_ID = re.compile(r"[0-9a-f]{32}|[0-9a-z]{1,64}")
_KEY = re.compile(r"[A-Za-z0-9_-]{8,200}")
#: the query arguments of a table link
LINK_ARGS = frozenset({"table", "seat", "watch", "key"})
#: what a page says of a link whose table, seat or key is not known (the same for each)
NO_SUCH_LINK = "this link opens no table here: it may be mistyped, or the table was made on another server"


class BadLinkError(TableError, ValueError):
    """A query string that asks for a table but is not a whole, well-formed table link."""


@dataclass(frozen=True)
class LinkRequest:
    """What a table link asks for: ``seat`` None is the watch page."""

    table: str
    seat: int | None
    key: str


def _with_query(base: str, args: dict[str, str]) -> str:
    return base.partition("?")[0].partition("#")[0] + "?" + urlencode(args)


def seat_link(base: str, table_id: str, seat: int, key: str) -> str:
    """The address that opens ``seat`` of the table at the page ``base``."""
    return _with_query(base, {"table": table_id, "seat": str(seat), "key": key})


def watch_link(base: str, table_id: str, key: str) -> str:
    """The address of the table's watch page (the public view) at the page ``base``."""
    return _with_query(base, {"table": table_id, "watch": "1", "key": key})


def parse_link(query: str | None) -> LinkRequest | None:
    """The table link in a page's query string (without its ``?``): None when the page
    asks for no table (no ``table`` argument); :class:`BadLinkError` when it asks for one
    in a malformed way."""
    args = parse_qs(query or "", keep_blank_values=True)
    if "table" not in args:
        return None
    one = {k: v[0] for k, v in args.items() if k in LINK_ARGS and len(v) == 1}
    if set(one) != {k for k in args if k in LINK_ARGS}:
        raise BadLinkError("this table link is not valid (an argument appears twice)")
    table, key = one.get("table", ""), one.get("key", "")
    if not _ID.fullmatch(table) or not _KEY.fullmatch(key):
        raise BadLinkError("this table link is not valid (check that it was copied whole)")
    if "watch" in one:
        if one["watch"] != "1" or "seat" in one:
            raise BadLinkError("this table link is not valid (check that it was copied whole)")
        return LinkRequest(table, None, key)
    seat = one.get("seat", "")
    if not seat.isdigit() or len(seat) > 3 or not seat.isascii():
        raise BadLinkError("this table link is not valid (check that it was copied whole)")
    return LinkRequest(table, int(seat), key)


def open_link(store: SQLStore, link: LinkRequest) -> SeatClient:
    """The seat (or the watch view) a link opens: its key must open that table at that
    seat; anything else is one :class:`~.errors.NoSuchTableError` that says nothing about
    which part was wrong."""
    try:
        client = join(store, link.key)
    except TableError:
        raise NoSuchTableError(NO_SUCH_LINK) from None
    if client.table_id != link.table or client.seat != link.seat:
        raise NoSuchTableError(NO_SUCH_LINK)
    return client
