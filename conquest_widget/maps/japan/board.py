"""The Japan Conquest game board: 47 prefectures, 7 regions and their game connections.

The board is pure data (no map geometry): it is what the rules engine and the
teaching tools use.  The data file ``conquest_widget/maps/japan/data/japan_board.json`` is
read once, lazily, on first use.

    >>> from conquest_widget.maps.japan import board
    >>> tokyo = board.prefecture("Tokyo")
    >>> tokyo.code, tokyo.name_ja, tokyo.region, tokyo.base_value
    (13, '東京都', 'kanto', 50)
    >>> board.prefecture("大阪").name_en
    'Osaka'
    >>> [board.prefecture(c).name_en for c in board.neighbours("Hokkaido")]
    ['Aomori']
    >>> len(board.region_members("shikoku"))
    4
    >>> board.connection(1, 2).kind
    'sea'
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Literal

from conquest_widget.errors import (
    DataFileError,
    UnknownPrefectureError,
    UnknownRegionError,
)

if TYPE_CHECKING:  # pragma: no cover
    import networkx

__all__ = [
    "Connection",
    "JapanBoard",
    "Prefecture",
    "Region",
    "connection",
    "japan",
    "neighbours",
    "prefecture",
    "region",
    "region_members",
    "to_networkx",
]

ConnectionKind = Literal["land", "sea"]
PrefectureRef = int | str


@dataclass(frozen=True, slots=True)
class Prefecture:
    """One of the 47 prefectures, identified by its JIS code (1-47)."""

    code: int
    name_en: str
    name_ja: str
    region: str
    base_value: int
    population_2020: int
    label: tuple[float, float] | None  # (lon, lat) of a point inside the main area

    def name(self, lang: str = "en") -> str:
        """The prefecture's name in ``"en"`` or ``"ja"``."""
        return self.name_ja if lang == "ja" else self.name_en


@dataclass(frozen=True, slots=True)
class Region:
    """One of the seven game regions."""

    id: str
    name_en: str
    name_ja: str
    members: tuple[int, ...]

    def name(self, lang: str = "en") -> str:
        """The region's name in ``"en"`` or ``"ja"``."""
        return self.name_ja if lang == "ja" else self.name_en


@dataclass(frozen=True, slots=True)
class Connection:
    """A game connection between prefectures ``a < b``: a land border or a sea link."""

    a: int
    b: int
    kind: ConnectionKind


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold()


class JapanBoard:
    """The immutable game board.  Use :func:`japan` to get the shared instance."""

    def __init__(self, data: dict) -> None:
        try:
            self.regions: dict[str, Region] = {}
            members: dict[str, list[int]] = {r["id"]: [] for r in data["regions"]}
            prefs = []
            for p in data["prefectures"]:
                members[p["region"]].append(p["code"])
                prefs.append(
                    Prefecture(
                        code=int(p["code"]),
                        name_en=p["name_en"],
                        name_ja=p["name_ja"],
                        region=p["region"],
                        base_value=int(p["base_value"]),
                        population_2020=int(p["population_2020"]),
                        label=tuple(p["label"]) if p.get("label") else None,
                    )
                )
            for r in data["regions"]:
                self.regions[r["id"]] = Region(r["id"], r["name_en"], r["name_ja"], tuple(members[r["id"]]))
            self.connections: tuple[Connection, ...] = tuple(
                Connection(min(c["a"], c["b"]), max(c["a"], c["b"]), c["kind"]) for c in data["connections"]
            )
            self.base_value_rule: str = data["base_value_rule"]["text"]
        except (KeyError, TypeError, ValueError) as exc:
            raise DataFileError(f"malformed board data: {exc!r}") from exc
        self.prefectures: tuple[Prefecture, ...] = tuple(sorted(prefs, key=lambda p: p.code))
        if [p.code for p in self.prefectures] != list(range(1, 48)):
            raise DataFileError("board data must list the prefectures with codes 1-47 exactly once")
        self.codes: tuple[int, ...] = tuple(range(1, 48))
        adj: dict[int, list[int]] = {c: [] for c in self.codes}
        self._conn: dict[tuple[int, int], Connection] = {}
        for c in self.connections:
            adj[c.a].append(c.b)
            adj[c.b].append(c.a)
            self._conn[(c.a, c.b)] = c
        #: neighbours[code] -> sorted tuple of neighbour codes (index 0 unused)
        self.adjacency: tuple[tuple[int, ...], ...] = ((),) + tuple(tuple(sorted(adj[c])) for c in self.codes)
        self._names: dict[str, int] = {}
        for p in self.prefectures:
            keys = [p.name_en, p.name_ja, p.name_en + " prefecture"]
            if p.name_ja != "北海道":  # 東京都 -> 東京, 京都府 -> 京都; 北海道 has no short form
                keys.append(p.name_ja[:-1])
            for key in keys:
                self._names[_fold(key)] = p.code
        self._region_names: dict[str, str] = {}
        for r in self.regions.values():
            for key in (r.id, r.name_en, r.name_ja):
                self._region_names[_fold(key)] = r.id

    # -- look-ups ---------------------------------------------------------
    def code(self, ref: PrefectureRef) -> int:
        """The JIS code of a prefecture given by code, English or Japanese name.

        >>> japan().code("hyogo"), japan().code("兵庫県"), japan().code("兵庫"), japan().code(28)
        (28, 28, 28, 28)
        """
        if isinstance(ref, bool):
            raise UnknownPrefectureError(f"unknown prefecture {ref!r}: give a JIS code 1-47 or an English or Japanese name")
        if isinstance(ref, int):
            if 1 <= ref <= 47:
                return ref
        elif isinstance(ref, str):
            folded = _fold(ref)
            if folded.isdigit() and 1 <= int(folded) <= 47:
                return int(folded)
            if folded in self._names:
                return self._names[folded]
        raise UnknownPrefectureError(
            f"unknown prefecture {ref!r}: give a JIS code 1-47 or an English or Japanese name"
        )

    def prefecture(self, ref: PrefectureRef) -> Prefecture:
        """The :class:`Prefecture` for a code or a name (English or Japanese)."""
        return self.prefectures[self.code(ref) - 1]

    def neighbours(self, ref: PrefectureRef) -> tuple[int, ...]:
        """Codes of the prefectures connected to ``ref`` in the game graph."""
        return self.adjacency[self.code(ref)]

    def region(self, ref: str) -> Region:
        """A region by id (``"kinki"``), English (``"Kyushu & Okinawa"``) or Japanese name."""
        rid = self._region_names.get(_fold(ref)) if isinstance(ref, str) else None
        if rid is None:
            raise UnknownRegionError(
                f"unknown region {ref!r}: expected one of " + ", ".join(r.name_en for r in self.regions.values())
            )
        return self.regions[rid]

    def region_of(self, ref: PrefectureRef) -> Region:
        """The region that a prefecture belongs to."""
        return self.regions[self.prefecture(ref).region]

    def connection(self, a: PrefectureRef, b: PrefectureRef) -> Connection | None:
        """The connection between two prefectures, or ``None`` if they are not connected."""
        ca, cb = self.code(a), self.code(b)
        return self._conn.get((min(ca, cb), max(ca, cb)))

    def to_networkx(self) -> networkx.Graph:
        """The game graph as a :class:`networkx.Graph`.

        Nodes are JIS codes with attributes ``name_en``, ``name_ja``, ``region`` and
        ``base_value``; edges carry ``kind`` (``"land"`` or ``"sea"``).

        >>> g = japan().to_networkx()
        >>> g.number_of_nodes(), g.number_of_edges(), g.degree[47]
        (47, 99, 7)
        """
        from conquest_widget._optional import require

        nx = require("networkx", extra="explore", feature="JapanBoard.to_networkx()")
        g = nx.Graph(name="Japan Conquest")
        for p in self.prefectures:
            g.add_node(p.code, name_en=p.name_en, name_ja=p.name_ja, region=p.region, base_value=p.base_value)
        for c in self.connections:
            g.add_edge(c.a, c.b, kind=c.kind)
        return g


@cache
def japan() -> JapanBoard:
    """The shared :class:`JapanBoard`, loaded from the package data on first call."""
    try:
        text = resources.files("conquest_widget.maps.japan").joinpath("data/japan_board.json").read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise DataFileError(f"cannot read the board data file japan_board.json: {exc}") from exc
    return JapanBoard(data)


def prefecture(ref: PrefectureRef) -> Prefecture:
    """Shortcut for ``japan().prefecture(ref)``."""
    return japan().prefecture(ref)


def neighbours(ref: PrefectureRef) -> tuple[int, ...]:
    """Shortcut for ``japan().neighbours(ref)``."""
    return japan().neighbours(ref)


def region(ref: str) -> Region:
    """Shortcut for ``japan().region(ref)``."""
    return japan().region(ref)


def region_members(ref: str) -> tuple[int, ...]:
    """Codes of the prefectures in a region."""
    return japan().region(ref).members


def connection(a: PrefectureRef, b: PrefectureRef) -> Connection | None:
    """Shortcut for ``japan().connection(a, b)``."""
    return japan().connection(a, b)


def to_networkx() -> networkx.Graph:
    """Shortcut for ``japan().to_networkx()``."""
    return japan().to_networkx()
