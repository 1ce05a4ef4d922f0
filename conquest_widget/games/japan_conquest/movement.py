"""Route planning: movement costs, tolls, and which next steps still lead to a
complete legal route (a human can never plan into a dead end).

The planner works on a frozen view of the game state for one mover
(:class:`RouteContext`).  A partial route is summarised by a :class:`RoutePoint`:
where the mover is, how much movement is left, how many banked points remain
after tolls, and which opponent-controlled regions the route has already broken
by neutralising a territory in them.  Those four values are all that decide
whether the route can still be completed, so feasibility is memoised on them.
"""

from __future__ import annotations

from typing import NamedTuple

from conquest_widget.games.japan_conquest.rules import (
    BASE,
    CASTLE,
    ENTER_FORTIFIED_COST,
    HOME,
    REGION_ENTRY_SURCHARGE,
    TERRITORY,
    TOLL_CASTLE,
    TOLL_HOME,
)
from conquest_widget.maps.japan.board import JapanBoard

NOBODY = -1


class RoutePoint(NamedTuple):
    """The state of a partial route after some steps."""

    pos: int
    remaining: int
    banked: int
    broken: int  # bitmask of regions whose opponent control the route broke
    moved: bool


class RouteContext:
    """Movement facts for one mover on one (unchanging) board position."""

    __slots__ = (
        "_memo",
        "adjacency",
        "breaks",
        "cost",
        "forbidden_end",
        "neutralisable",
        "opp_ctrl",
        "region_bit",
        "stop_early",
        "toll",
    )

    def __init__(
        self,
        board: JapanBoard,
        owner: list[int],
        level: list[int],
        region_controller: dict[str, int],
        mover: int,
    ) -> None:
        region_ids = list(board.regions)
        self.adjacency = board.adjacency
        self.region_bit = [0] * 48
        for p in board.prefectures:
            self.region_bit[p.code] = 1 << region_ids.index(p.region)
        self.cost = [1] * 48
        self.toll = [0] * 48
        self.breaks = [0] * 48
        self.neutralisable = [False] * 48
        self.stop_early = [False] * 48
        self.forbidden_end = [False] * 48
        self.opp_ctrl = 0
        for i, rid in enumerate(region_ids):
            ctrl = region_controller.get(rid, NOBODY)
            if ctrl not in (NOBODY, mover):
                self.opp_ctrl |= 1 << i
        for code in board.codes:
            o, lv = owner[code], level[code]
            if o == mover:
                self.stop_early[code] = lv >= BASE
            elif o != NOBODY:
                if lv in (CASTLE, HOME):
                    self.cost[code] = ENTER_FORTIFIED_COST
                    self.toll[code] = TOLL_HOME if lv == HOME else TOLL_CASTLE
                self.forbidden_end[code] = lv == HOME
                if lv == TERRITORY:
                    self.neutralisable[code] = True
                    # neutralising it breaks its owner's control of the region, if held
                    self.breaks[code] = self.region_bit[code] & self.opp_ctrl
        self._memo: dict[tuple[int, int, int, int], bool] = {}

    def step_cost(self, frm: int, to: int, broken: int) -> int:
        """Movement needed to enter ``to`` from ``frm``."""
        cost = self.cost[to]
        bit = self.region_bit[to]
        if bit != self.region_bit[frm] and (self.opp_ctrl & ~broken) & bit:
            cost += REGION_ENTRY_SURCHARGE
        return cost

    def advance(self, point: RoutePoint, to: int) -> RoutePoint | None:
        """The route point after stepping to ``to``, or ``None`` if that step is illegal
        (not adjacent, too little movement left, or a toll the mover cannot pay)."""
        if to not in self.adjacency[point.pos]:
            return None
        cost = self.step_cost(point.pos, to, point.broken)
        toll = self.toll[to]
        if cost > point.remaining or toll > point.banked:
            return None
        return RoutePoint(to, point.remaining - cost, point.banked - toll, point.broken | self.breaks[to], True)

    def can_end(self, point: RoutePoint) -> bool:
        """May a route end at this point?"""
        if not point.moved or self.forbidden_end[point.pos]:
            return False
        return point.remaining == 0 or self.stop_early[point.pos]

    def completable(self, point: RoutePoint) -> bool:
        """Does at least one complete legal route continue from this point?"""
        if self.can_end(point):
            return True
        if point.remaining == 0:
            return False
        key = (point.pos, point.remaining, point.banked, point.broken)
        hit = self._memo.get(key)
        if hit is not None and point.moved:
            return hit
        result = False
        for nxt in self.adjacency[point.pos]:
            after = self.advance(point, nxt)
            if after is not None and self.completable(after):
                result = True
                break
        if point.moved:
            self._memo[key] = result
        return result

    def next_steps(self, point: RoutePoint) -> list[int]:
        """Neighbours the route may step to next without reaching a dead end."""
        out = []
        for nxt in self.adjacency[point.pos]:
            after = self.advance(point, nxt)
            if after is not None and self.completable(after):
                out.append(nxt)
        return out

    def start(self, pos: int, allowance: int, banked: int) -> RoutePoint:
        """The route point before the first step."""
        return RoutePoint(pos, allowance, banked, 0, False)
