"""The realm's grid: six k x k territories laid out ``1 2 3 / 4 5 6`` and the faction groups
on it.

Geometry. The territories tile one ``2k x 3k`` grid, so plots on the facing edges of
neighbouring territories are ordinary orthogonal neighbours and groups span borders.
Plot ids run row by row over that whole grid.

    >>> g = grid(3)
    >>> g.width, g.height, g.n
    (9, 6, 54)
    >>> g.plot(2, 1, 1), g.locate(g.plot(2, 1, 1))   # territory 2, row 1, column 1 (1-based)
    (3, (2, 1, 1))
    >>> sorted(g.locate(p) for p in g.neighbours[g.plot(1, 1, 3)])   # crosses into territory 2
    [(1, 1, 2), (1, 2, 3), (2, 1, 1)]

Groups. Pieces only ever *join* groups (a placement merges the new piece with every
same-faction group it touches) or leave in *whole groups* (conquest removes entire enemy
groups); a group never splits.  So a union-find fits exactly; we keep the variant that
stores each group's member list (union by size, relabelling the smaller group), because a
conquest must list the plots it clears, and ``find`` is then one list look-up.  Only the
test editor can split a group (clearing single plots): it rebuilds all groups by BFS.
networkx would do the same job more slowly and without the incremental merge.

    >>> b = Board(3)
    >>> b.place(g.plot(1, 1, 1), 0)                     # an ember piece: removes nothing
    []
    >>> b.place(g.plot(1, 1, 2), 0)                     # joins it: group of 2
    []
    >>> b.largest(0), b.group_size(g.plot(1, 1, 1))
    (2, 2)
    >>> a = b.analyse(g.plot(1, 1, 3), 1)               # a tide piece next to the group of 2
    >>> a.size, a.enemy_sizes, a.legal
    (1, (2,), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .rules import TERRITORY_COLUMNS

EMPTY = -1


@dataclass(frozen=True)
class Grid:
    """The static geometry of a board with territories of side ``k``."""

    k: int
    width: int
    height: int
    n: int
    #: orthogonal neighbours of each plot (across territory borders)
    neighbours: tuple[tuple[int, ...], ...]
    #: territory (1-6) of each plot
    territory_of: tuple[int, ...]
    #: the plots of each territory; index 0 is unused (empty)
    plots_of: tuple[tuple[int, ...], ...]

    def plot(self, territory: int, row: int, col: int) -> int:
        """The plot id of ``row``/``col`` (1..k) in ``territory`` (1..6)."""
        if not (1 <= territory <= 6 and 1 <= row <= self.k and 1 <= col <= self.k):
            raise ValueError(f"no plot at territory {territory}, row {row}, column {col} (territories 1-6, rows and columns 1-{self.k})")
        tr, tc = divmod(territory - 1, TERRITORY_COLUMNS)
        return (tr * self.k + row - 1) * self.width + tc * self.k + col - 1

    def locate(self, plot: int) -> tuple[int, int, int]:
        """``(territory, row, col)`` of a plot id (all 1-based)."""
        y, x = divmod(plot, self.width)
        return (y // self.k) * TERRITORY_COLUMNS + x // self.k + 1, y % self.k + 1, x % self.k + 1


@cache
def grid(k: int) -> Grid:
    """The (cached) geometry for territories of side ``k``."""
    width, height = TERRITORY_COLUMNS * k, 2 * k
    n = width * height
    nbrs = []
    terr = []
    for p in range(n):
        y, x = divmod(p, width)
        nb = []
        if y > 0:
            nb.append(p - width)
        if x > 0:
            nb.append(p - 1)
        if x < width - 1:
            nb.append(p + 1)
        if y < height - 1:
            nb.append(p + width)
        nbrs.append(tuple(nb))
        terr.append((y // k) * TERRITORY_COLUMNS + x // k + 1)
    plots_of: list[tuple[int, ...]] = [()]
    for t in range(1, 7):
        plots_of.append(tuple(p for p in range(n) if terr[p] == t))
    return Grid(k, width, height, n, tuple(nbrs), tuple(terr), tuple(plots_of))


@dataclass(frozen=True)
class Analysis:
    """What placing a piece of ``faction`` on ``plot`` would form and touch (no change made).

    ``size``: the group the new piece would form; ``same``: ids of the own groups it joins;
    ``enemy``: ids of the touched enemy groups, ``enemy_sizes`` their sizes and
    ``enemy_factions`` their factions; ``legal``: the new group is strictly larger than
    every touched enemy group (and the plot is empty)."""

    plot: int
    faction: int
    size: int
    same: tuple[int, ...]
    enemy: tuple[int, ...]
    enemy_sizes: tuple[int, ...]
    enemy_factions: tuple[int, ...]
    legal: bool


class Board:
    """Pieces on the grid with their groups.  ``cells[p]`` is a faction index 0-3 or
    :data:`EMPTY`; ``gid[p]`` the group id of the piece on ``p`` (-1 when empty)."""

    __slots__ = ("big", "by_faction", "cells", "g", "gid", "k", "members", "next_gid")

    def __init__(self, k: int) -> None:
        self.k = k
        self.g = grid(k)
        self.cells: list[int] = [EMPTY] * self.g.n
        self.gid: list[int] = [-1] * self.g.n
        #: group id -> member plots
        self.members: dict[int, list[int]] = {}
        #: per faction: the ids of its groups
        self.by_faction: list[set[int]] = [set() for _ in range(4)]
        self.next_gid = 0
        #: cached largest group size per faction
        self.big: list[int] = [0, 0, 0, 0]

    # ------------------------------------------------------------ queries
    def largest(self, faction: int) -> int:
        """Size of the faction's largest group (0 = no piece on the board)."""
        return self.big[faction]

    def _recount(self, faction: int) -> None:
        m = self.members
        self.big[faction] = max((len(m[i]) for i in self.by_faction[faction]), default=0)

    def largest_all(self) -> list[int]:
        """Largest group size of each faction."""
        return self.big[:]

    def group_size(self, plot: int) -> int:
        """Size of the group on ``plot`` (0 when empty)."""
        i = self.gid[plot]
        return 0 if i < 0 else len(self.members[i])

    def on_board(self, faction: int) -> int:
        """Pieces of ``faction`` on the board."""
        m = self.members
        return sum(len(m[i]) for i in self.by_faction[faction])

    def group_sizes(self, faction: int) -> list[int]:
        """Sizes of the faction's groups, largest first."""
        return sorted((len(self.members[i]) for i in self.by_faction[faction]), reverse=True)

    def empty_plots(self, territory: int) -> list[int]:
        """The empty plots of a territory (1-6)."""
        cells = self.cells
        return [p for p in self.g.plots_of[territory] if cells[p] == EMPTY]

    def analyse(self, plot: int, faction: int) -> Analysis:
        """What a piece of ``faction`` on ``plot`` would form and touch (nothing changes)."""
        cells, gid, members = self.cells, self.gid, self.members
        size = 1
        same: list[int] = []
        enemy: list[int] = []
        sizes: list[int] = []
        facs: list[int] = []
        for nb in self.g.neighbours[plot]:
            i = gid[nb]
            if i < 0 or i in same or i in enemy:
                continue
            if cells[nb] == faction:
                same.append(i)
                size += len(members[i])
            else:
                enemy.append(i)
                sizes.append(len(members[i]))
                facs.append(cells[nb])
        legal = cells[plot] == EMPTY and all(s < size for s in sizes)
        return Analysis(plot, faction, size, tuple(same), tuple(enemy), tuple(sizes), tuple(facs), legal)

    def is_legal(self, plot: int, faction: int) -> bool:
        """True if a piece of ``faction`` may go on ``plot`` (a fast :meth:`analyse`)."""
        cells, gid, members = self.cells, self.gid, self.members
        if cells[plot] != EMPTY:
            return False
        size = 1
        seen: list[int] = []
        enemy_max = 0
        for nb in self.g.neighbours[plot]:
            i = gid[nb]
            if i < 0 or i in seen:
                continue
            seen.append(i)
            s = len(members[i])
            if cells[nb] == faction:
                size += s
            elif s > enemy_max:
                enemy_max = s
        return enemy_max < size

    def largest_after(self, a: Analysis) -> list[int]:
        """Each faction's largest group after the analysed placement (nothing changes)."""
        out = []
        m = self.members
        gone = set(a.enemy)
        for f in range(4):
            if f == a.faction:
                out.append(max(a.size, self.big[f]))
            elif f in a.enemy_factions:
                out.append(max((len(m[i]) for i in self.by_faction[f] if i not in gone), default=0))
            else:
                out.append(self.big[f])
        return out

    # ------------------------------------------------------------ changes
    def place(self, plot: int, faction: int, a: Analysis | None = None) -> list[tuple[int, list[int]]]:
        """Put a piece of ``faction`` on ``plot``: merge the groups it joins and remove the
        enemy groups it touches (legality is the caller's business).  Returns the removed
        groups as ``(faction, plots)``."""
        if a is None:
            a = self.analyse(plot, faction)
        removed = []
        for i in a.enemy:
            plots = self.members.pop(i)
            f = self.cells[plots[0]]
            self.by_faction[f].discard(i)
            for p in plots:
                self.cells[p] = EMPTY
                self.gid[p] = -1
            removed.append((f, plots))
        self.cells[plot] = faction
        if a.same:
            keep = max(a.same, key=lambda i: len(self.members[i]))
            target = self.members[keep]
            for i in a.same:
                if i == keep:
                    continue
                ps = self.members.pop(i)
                self.by_faction[faction].discard(i)
                for p in ps:
                    self.gid[p] = keep
                target.extend(ps)
            target.append(plot)
            self.gid[plot] = keep
        else:
            i = self.next_gid
            self.next_gid += 1
            self.members[i] = [plot]
            self.by_faction[faction].add(i)
            self.gid[plot] = i
        self.big[faction] = max(self.big[faction], a.size)
        for f in {rf for rf, _ in removed}:
            self._recount(f)
        return removed

    def set_cells(self, cells: Sequence[int]) -> None:
        """Replace every plot (the editor, or a board read from a view) and rebuild the
        groups by breadth-first search."""
        if len(cells) != self.g.n:
            raise ValueError(f"a board of k={self.k} has {self.g.n} plots, got {len(cells)}")
        self.cells = [int(c) for c in cells]
        self.gid = [-1] * self.g.n
        self.members = {}
        self.by_faction = [set() for _ in range(4)]
        self.next_gid = 0
        self.big = [0, 0, 0, 0]
        for start in range(self.g.n):
            f = self.cells[start]
            if f == EMPTY or self.gid[start] >= 0:
                continue
            i = self.next_gid
            self.next_gid += 1
            stack = [start]
            self.gid[start] = i
            plots = []
            while stack:
                p = stack.pop()
                plots.append(p)
                for nb in self.g.neighbours[p]:
                    if self.cells[nb] == f and self.gid[nb] < 0:
                        self.gid[nb] = i
                        stack.append(nb)
            self.members[i] = plots
            self.by_faction[f].add(i)
        for f in range(4):
            self._recount(f)

    def copy(self) -> Board:
        """An independent copy (cheaper than deepcopy)."""
        b = Board.__new__(Board)
        b.k, b.g = self.k, self.g
        b.cells = self.cells[:]
        b.gid = self.gid[:]
        b.members = {i: ps[:] for i, ps in self.members.items()}
        b.by_faction = [set(s) for s in self.by_faction]
        b.next_gid = self.next_gid
        b.big = self.big[:]
        return b

    @classmethod
    def from_cells(cls, k: int, cells: Sequence[int]) -> Board:
        """A board with the given plots (faction index or -1), groups found by BFS.

        >>> b = Board.from_cells(2, [0, 0, -1, -1, -1, -1] + [-1] * 18)
        >>> b.largest(0)
        2
        """
        b = cls(k)
        b.set_cells(cells)
        return b

    def mixed_neighbours(self) -> list[tuple[int, int]]:
        """Pairs of orthogonally adjacent plots holding different factions (the rules
        guarantee there are none)."""
        out = []
        for p, f in enumerate(self.cells):
            if f == EMPTY:
                continue
            for nb in self.g.neighbours[p]:
                if nb > p and self.cells[nb] != EMPTY and self.cells[nb] != f:
                    out.append((p, nb))
        return out
