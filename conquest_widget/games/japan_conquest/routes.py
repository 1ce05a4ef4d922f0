"""Enumerating complete routes for every allowance at once (used by the CPU players
and the analysis tools).

One forward search over *movement spent* finds, for each allowance 1..max, every
distinct way a legal route can end: where it stops, which enemy territories it
neutralised on the way and the tolls it paid (the cheapest such route is kept,
with its steps).
"""

from __future__ import annotations

from conquest_widget.games.japan_conquest.movement import RouteContext, RoutePoint
from conquest_widget.games.japan_conquest.rules import REGION_ENTRY_SURCHARGE


class RouteOption:
    """One way to complete a route: where it ends, movement spent, tolls paid, the
    territories it neutralises (bitmask over JIS codes) and whether it ends early.
    ``steps`` (the prefectures entered, in order) is worked out on first use."""

    __slots__ = ("_key", "_steps", "_tree", "early", "end", "neutralised", "spent", "tolls")

    def __init__(self, end: int, spent: int, tolls: int, neutralised: int, early: bool, key: tuple, tree: dict) -> None:
        self.end, self.spent, self.tolls, self.neutralised, self.early = end, spent, tolls, neutralised, early
        self._key, self._tree = key, tree
        self._steps: tuple[int, ...] | None = None

    @property
    def steps(self) -> tuple[int, ...]:
        if self._steps is None:
            out: list[int] = []
            key = self._key
            while True:
                _, parent, step = self._tree[key]
                if parent is None:
                    break
                out.append(step)
                key = parent
            self._steps = tuple(reversed(out))
        return self._steps

    def __repr__(self) -> str:
        return f"RouteOption(end={self.end}, spent={self.spent}, tolls={self.tolls}, steps={self.steps})"


def route_options(ctx: RouteContext, start: RoutePoint, max_spent: int, *, neutral_mask: int = 0) -> dict[int, list[RouteOption]]:
    """Complete routes from ``start`` for every allowance ``1..max_spent``.

    ``start.remaining`` is ignored: allowance ``a`` means ``a`` movement from ``start``.
    Returns ``{allowance: [RouteOption, ...]}`` (allowances with no route map to ``[]``),
    with one option per distinct (end, neutralised set), the one paying least tolls.
    """
    # state key: (pos, spent, broken, neut) -> [banked, parent_key, step]
    start_key = (start.pos, 0, start.broken, neutral_mask)
    best: dict[tuple[int, int, int, int], tuple[int, tuple | None, int]] = {start_key: (start.banked, None, 0)}
    buckets: list[list[tuple[int, int, int, int]]] = [[] for _ in range(max_spent + 1)]
    buckets[0].append(start_key)
    adjacency, toll, breaks = ctx.adjacency, ctx.toll, ctx.breaks
    region_bit, cost, opp = ctx.region_bit, ctx.cost, ctx.opp_ctrl
    neutralisable = ctx.neutralisable
    for spent in range(max_spent + 1):
        for key in buckets[spent]:
            pos, _, broken, neut = key
            banked = best[key][0]
            live = opp & ~broken
            rb = region_bit[pos]
            for nxt in adjacency[pos]:
                c = cost[nxt]
                nb = region_bit[nxt]
                if nb != rb and live & nb:
                    c += REGION_ENTRY_SURCHARGE
                ns = spent + c
                t = toll[nxt]
                if ns > max_spent or t > banked:
                    continue
                nkey = (nxt, ns, broken | breaks[nxt], (neut | (1 << nxt)) if neutralisable[nxt] else neut)
                nbanked = banked - t
                old = best.get(nkey)
                if old is None:
                    buckets[ns].append(nkey)
                    best[nkey] = (nbanked, key, nxt)
                elif nbanked > old[0]:
                    best[nkey] = (nbanked, key, nxt)

    exact: dict[int, dict[tuple[int, int], tuple]] = {a: {} for a in range(1, max_spent + 1)}
    early: list[tuple[int, tuple]] = []
    for key, (banked, parent, _) in best.items():
        if parent is None:
            continue
        pos, spent, _, neut = key
        if not ctx.forbidden_end[pos]:
            slot = exact[spent]
            k2 = (pos, neut)
            if k2 not in slot or best[slot[k2]][0] < banked:
                slot[k2] = key
        if ctx.stop_early[pos]:
            early.append((spent, key))
    out: dict[int, list[RouteOption]] = {}
    early.sort(key=lambda e: e[0])
    for a in range(1, max_spent + 1):
        chosen = dict(exact[a])
        for spent, key in early:
            if spent >= a:
                break
            k2 = (key[0], key[3])
            if k2 not in chosen or best[chosen[k2]][0] < best[key][0]:
                chosen[k2] = key
        opts = []
        for (pos, neut), key in chosen.items():
            spent = key[1]
            parent = best[key][1]
            if parent is not None and not parent[3] >> pos & 1:
                neut &= ~(1 << pos)  # the last step stops there: a capture, not a neutralisation
            opts.append(RouteOption(pos, spent, start.banked - best[key][0], neut & ~neutral_mask, spent < a, key, best))
        out[a] = opts
    return out

