"""The stock market of the Codex: prices, the cash effects of a placement, wealth.

A placement's cash effects, in the order they are applied (all before any forced sale):

1. **income**: if the placed faction's largest group grows from L to L', the placer
   receives 1,000 x L';
2. **dividend**: every holder of that faction (the placer included) receives
   1,000 x (L' - L) per share;
3. **loss**: for every faction whose largest group shrinks through conquest, every holder
   except the placer loses the price drop per share.

    >>> shares = [[1, 0, 0, 0], [2, 1, 0, 0]]          # seat 0: 1 ember; seat 1: 2 ember, 1 tide
    >>> placement_cash(0, 0, [2, 3, 0, 0], [3, 0, 0, 0], shares, [True, True])
    [(0, 3000, 'income', 0), (0, 1000, 'dividend', 0), (1, 2000, 'dividend', 0), (1, -3000, 'loss', 1)]
    >>> wealth(500, [2, 1, 0, 0], [3000, 0, 0, 0])
    6500
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import END_GROUP, PRICE_UNIT, SUPPLY

#: every cause a ledger entry may name
CAUSES = ("start", "income", "dividend", "loss", "buy", "sell", "forced_sell", "edit")


def prices(largest: Sequence[int]) -> list[int]:
    """Share prices from the factions' largest group sizes."""
    return [PRICE_UNIT * s for s in largest]


def sale_price(price: int) -> int:
    """What one share sells for: half the current price (prices are multiples of 1,000,
    so this is exact).

    >>> sale_price(7000)
    3500
    """
    return price // 2


def placement_cash(placer: int, faction: int, before: Sequence[int], after: Sequence[int],
                   shares: Sequence[Sequence[int]], active: Sequence[bool]) -> list[tuple[int, int, str, int]]:
    """The cash changes of one placement as ``(seat, amount, cause, faction)``.

    ``before``/``after``: each faction's largest group before and after the placement;
    ``shares[seat][faction]``: holdings; ``active[seat]``: False for eliminated players,
    who take no further part (no income, dividends or losses)."""
    out: list[tuple[int, int, str, int]] = []
    lo, hi = before[faction], after[faction]
    if hi > lo:
        out.append((placer, PRICE_UNIT * hi, "income", faction))
        per = PRICE_UNIT * (hi - lo)
        for seat, held in enumerate(shares):
            if active[seat] and held[faction]:
                out.append((seat, per * held[faction], "dividend", faction))
    for f in range(len(before)):
        if f == faction or after[f] >= before[f]:
            continue
        drop = PRICE_UNIT * (before[f] - after[f])
        for seat, held in enumerate(shares):
            if seat != placer and active[seat] and held[f]:
                out.append((seat, -drop * held[f], "loss", f))
    return out


def wealth(cash: int, held: Sequence[int], price_list: Sequence[int]) -> int:
    """Cash plus every share at its current price (all four factions count)."""
    return cash + sum(n * p for n, p in zip(held, price_list, strict=True))


class Effects:
    """Everything one placement would do, computed without changing anything: the board
    analysis, each faction's largest group before/after, the cash changes (in order),
    each seat's balance after them, the seats that would be forced to sell (in the order
    they would sell: from the placer round in seat order) and the end triggers."""

    __slots__ = ("after", "analysis", "balances", "before", "changes", "forced", "triggers")

    def __init__(self, analysis, before, after, changes, balances, forced, triggers) -> None:
        self.analysis = analysis
        self.before = before
        self.after = after
        self.changes = changes
        self.balances = balances
        self.forced = forced
        self.triggers = triggers


def effects(board, placed: Sequence[int], cash: Sequence[int], shares: Sequence[Sequence[int]],
            active: Sequence[bool], placer: int, plot: int, faction: int) -> Effects:
    """What a piece of ``faction`` on ``plot`` placed by ``placer`` would do (``board`` is a
    :class:`~conquest_widget.games.codex.board.Board`; nothing is changed).

    >>> from conquest_widget.games.codex.board import Board, grid
    >>> g = grid(2)
    >>> b = Board(2)
    >>> _ = b.place(g.plot(1, 1, 1), 1)                   # a lone tide piece
    >>> e = effects(b, [0, 1, 0, 0], [0, 0], [[0, 0, 0, 0], [0, 1, 0, 0]], [True, True], 0, g.plot(1, 1, 2), 0)
    >>> e.after, e.changes, e.forced, e.triggers
    ([0, 1, 0, 0], [], [], [])
    >>> _ = b.place(g.plot(1, 2, 2), 0)                   # now ember 1 next to the plot too
    >>> e = effects(b, [1, 1, 0, 0], [0, 0], [[0, 0, 0, 0], [0, 1, 0, 0]], [True, True], 0, g.plot(1, 1, 2), 0)
    >>> e.after, e.changes, e.forced
    ([2, 0, 0, 0], [(0, 2000, 'income', 0), (1, -1000, 'loss', 1)], [1])
    """
    a = board.analyse(plot, faction)
    before = board.largest_all()
    after = board.largest_after(a) if a.legal else before[:]
    changes = placement_cash(placer, faction, before, after, shares, active) if a.legal else []
    balances = list(cash)
    for seat, amount, _cause, _f in changes:
        balances[seat] += amount
    n = len(cash)
    triggers = []
    if a.legal:
        if after[faction] >= END_GROUP:
            triggers.append("group_15")
        if placed[faction] + 1 >= SUPPLY:
            triggers.append("supply_20")
    forced = [] if triggers else [s for s in ((placer + i) % n for i in range(n)) if active[s] and balances[s] < 0]
    return Effects(a, before, after, changes, balances, forced, triggers)
