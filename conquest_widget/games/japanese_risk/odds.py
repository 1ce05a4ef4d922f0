"""Battle odds of Japanese Risk as an absorbing Markov chain.

A battle is a chain on states ``(a, h)``: ``a`` attacking armies, ``h`` defender hit
points (``h`` armies in the open; ``2 * armies - wounded`` in a castle, where every army
needs two hits and hits are taken one army at a time).  Each round the attacker rolls
``a`` dice hitting on 3 or less (1/2), the defender rolls one die per living army
(``ceil(h / 2)`` in a castle) hitting on 4 or less (2/3).  States with ``a == 0`` or
``h == 0`` absorb.  A round in which nobody hits leaves the state unchanged; removing that
self-loop (dividing by ``1 - p_self``) gives an acyclic chain that is swept once, row by row.

A sea crossing adds a pre-roll: the defender rolls once per defending army, each hit on
4 or less removes one attacker that crossed the sea.  A neutral territory defends with two
fresh armies.

Two paths, the same algorithm:

- :func:`battle_odds` gives exact :class:`fractions.Fraction` results (cached);
- :func:`battle_odds_float` gives float64 results with numpy (any battle up to 60 vs 60
  in a few milliseconds), for CPUs and the widget.

    >>> o = battle_odds(1, 1)
    >>> o.win                    # a round: 1/6 only the attacker hits, 1/3 both, 1/3 only the defender
    Fraction(1, 5)
    >>> o.distribution[("attacker", 1)], o.distribution[("defender", 1)], o.distribution[("defender", 0)]
    (Fraction(1, 5), Fraction(2, 5), Fraction(2, 5))
    >>> battle_odds(3, 1, castle=True).win      # one army in a castle needs two hits
    Fraction(1468417, 1600225)
    >>> round(float(battle_odds(5, 2, sea=5).win), 4), round(float(battle_odds(5, 2).win), 4)
    (0.8638, 0.9948)
    >>> f = battle_odds_float(60, 60)
    >>> abs(f.win - float(battle_odds(6, 6).win)) > 0.01   # a different battle, of course
    True
    >>> abs(battle_odds_float(5, 2, sea=5).win - 0.8638) < 1e-4
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from conquest_widget.errors import ConquestError

__all__ = [
    "ATTACK_HIT",
    "DEFEND_HIT",
    "MAX_ARMIES",
    "BattleOdds",
    "OddsError",
    "battle_odds",
    "battle_odds_float",
    "clear_caches",
    "neutral_odds",
]

#: the attacker hits on 3 or less
ATTACK_HIT = Fraction(3, 6)
#: the defender hits on 4 or less (battle rounds and the sea pre-roll)
DEFEND_HIT = Fraction(4, 6)
#: the largest side the odds functions accept
MAX_ARMIES = 200


class OddsError(ConquestError, ValueError):
    """A battle the odds functions cannot describe (negative or too many armies)."""


@dataclass(frozen=True)
class BattleOdds:
    """The result of a battle, from the attacker's point of view.

    ``distribution`` maps ``("attacker", n)`` (the attacker takes the territory with ``n``
    survivors, ``n >= 1``) and ``("defender", n)`` (the defender keeps it with ``n``
    armies, ``n >= 0``: 0 when both sides died) to probabilities.
    """

    attackers: int
    defenders: int
    castle: bool
    sea: int
    win: Any
    expected_attackers: Any
    expected_defenders: Any
    distribution: dict[tuple[str, int], Any]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (floats)."""
        return {
            "attackers": self.attackers, "defenders": self.defenders, "castle": self.castle, "sea": self.sea,
            "win": float(self.win), "expected_attackers": float(self.expected_attackers),
            "expected_defenders": float(self.expected_defenders),
            "distribution": [[side, n, float(p)] for (side, n), p in sorted(self.distribution.items())],
        }


def _check(attackers: int, defenders: int, wounded: int, sea: int, castle: bool) -> None:
    for name, v in (("attackers", attackers), ("defenders", defenders), ("wounded", wounded), ("sea", sea)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise OddsError(f"{name} must be a non-negative integer, got {v!r}")
    if attackers > MAX_ARMIES or defenders > MAX_ARMIES:
        raise OddsError(f"at most {MAX_ARMIES} armies a side, got {attackers} vs {defenders}")
    if sea > attackers:
        raise OddsError(f"sea ({sea}) cannot exceed attackers ({attackers})")
    if wounded > (1 if castle and defenders else 0):
        raise OddsError("only one defending army in a castle can be wounded (hits are taken one army at a time)")


def _dice(h: int, castle: bool) -> int:
    return (h + 1) // 2 if castle else h


@cache
def _binom(n: int, p: Fraction) -> tuple[Fraction, ...]:
    q = 1 - p
    return tuple(comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


def _capped(dist: tuple[Any, ...], cap: int) -> list[Any]:
    """Hits above ``cap`` count as ``cap`` (nobody loses more than they have)."""
    out = list(dist[:cap + 1])
    if len(dist) > cap + 1:
        out[cap] = sum(dist[cap:], start=dist[cap] * 0)
    return out


@cache
def _exact_sweep(start: tuple[Fraction, ...], h0: int, castle: bool) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Absorption probabilities from ``start[a]`` = P(``a`` attackers against ``h0``):
    ``(att[a], dfn[h])`` = probability the battle ends with ``a`` attackers left
    (``h == 0``) / ``h`` hit points left (``a == 0``)."""
    a0 = len(start) - 1
    rows = [[Fraction(0)] * (h0 + 1) for _ in range(a0 + 1)]
    for a, p in enumerate(start):
        rows[a][h0] = p
    att = [Fraction(0)] * (a0 + 1)
    for a in range(a0, 0, -1):
        row = rows[a]
        pa = _binom(a, ATTACK_HIT)
        for h in range(h0, 0, -1):
            m = row[h]
            if not m:
                continue
            pd = _binom(_dice(h, castle), DEFEND_HIT)
            out = m / (1 - pa[0] * pd[0])
            pa_c = _capped(pa, h)
            pd_c = _capped(pd, a)
            for j, pj in enumerate(pd_c):
                if not pj:
                    continue
                target = rows[a - j]
                w = out * pj
                for i, pi in enumerate(pa_c):
                    if i == 0 and j == 0:
                        continue
                    target[h - i] += w * pi
        att[a] = row[0]
    att[0] = Fraction(0)
    dfn = tuple(rows[0])
    return tuple(att), dfn


def _summarise(attackers: int, defenders: int, castle: bool, sea: int, att: Any, dfn: Any,
               zero: Any) -> BattleOdds:
    dist: dict[tuple[str, int], Any] = {}
    for n, p in enumerate(att):
        if n and p:
            dist[("attacker", n)] = p
    for h, p in enumerate(dfn):
        if p:
            n = _dice(h, castle)
            dist[("defender", n)] = dist.get(("defender", n), zero) + p
    win = sum((p for (side, _), p in dist.items() if side == "attacker"), start=zero)
    ea = sum((n * p for (side, n), p in dist.items() if side == "attacker"), start=zero)
    ed = sum((n * p for (side, n), p in dist.items() if side == "defender"), start=zero)
    return BattleOdds(attackers, defenders, castle, sea, win, ea, ed, dist)


def _start(attackers: int, defenders: int, sea: int, p_hit: Any, binom: Any, one: Any) -> list[Any]:
    """start[a] = P(``a`` attackers are left after the sea pre-roll)."""
    start = [one * 0] * (attackers + 1)
    if not sea or not defenders:
        start[attackers] = one
        return start
    for k, p in enumerate(_capped(binom(defenders, p_hit), sea)):
        start[attackers - k] += p
    return start


@cache
def battle_odds(attackers: int, defenders: int, *, castle: bool = False, wounded: int = 0,
                sea: int = 0) -> BattleOdds:
    """Exact odds (Fractions) of ``attackers`` against ``defenders``.

    ``castle``: the defenders stand in a castle (``wounded`` = 1 if one of them already
    took a hit); ``sea``: how many of the attackers crossed a sea link (the defender's
    pre-roll hits only those).  Cached; exact sweeps grow quickly with size (see
    docs/ai_risk.md), use :func:`battle_odds_float` for large battles.

    >>> battle_odds(2, 0).distribution
    {('attacker', 2): Fraction(1, 1)}
    >>> battle_odds(0, 3).win
    Fraction(0, 1)
    >>> battle_odds(-1, 2)
    Traceback (most recent call last):
    ...
    conquest_widget.games.japanese_risk.odds.OddsError: attackers must be a non-negative integer, got -1
    """
    _check(attackers, defenders, wounded, sea, castle)
    h0 = 2 * defenders - wounded if castle else defenders
    zero = Fraction(0)
    if h0 == 0 or attackers == 0:  # decided before any round
        att_end, dfn_end = [zero] * (attackers + 1), [zero] * (h0 + 1)
        if h0 == 0 and attackers:
            att_end[attackers] = Fraction(1)
        else:
            dfn_end[h0] = Fraction(1)
        return _summarise(attackers, defenders, castle, sea, att_end, dfn_end, zero)
    start = _start(attackers, defenders, sea, DEFEND_HIT, _binom, Fraction(1))
    att, dfn = _exact_sweep(tuple(start), h0, castle)
    return _summarise(attackers, defenders, castle, sea, att, dfn, zero)


def neutral_odds(attackers: int, *, sea: int = 0) -> BattleOdds:
    """Exact odds against an unoccupied neutral territory (two fresh neutral armies).

    >>> neutral_odds(3).win == battle_odds(3, 2).win
    True
    """
    return battle_odds(attackers, 2, sea=sea)


# ------------------------------------------------------------ float path (numpy)
@cache
def _fbinom(n: int, p: float) -> Any:
    import numpy as np

    k = np.arange(n + 1)
    c = np.array([comb(n, int(x)) for x in k], dtype=float)
    return c * p**k * (1 - p) ** (n - k)


#: the float sweep keeps each matrix product at most this many multiply-adds (M*N*K): OpenBLAS
#: runs products this small on one thread (its threads made a loaded machine 20 times slower)
_BLAS_ONE_THREAD = 200_000
@cache
def _toeplitz_index(H: int) -> Any:
    """``idx[h2, h] = h - h2`` where ``h >= h2``, else ``H`` (points at a zero)."""
    import numpy as np

    i = np.arange(H)
    d = i[None, :] - i[:, None]
    return np.where(d < 0, H, d)


def _attack_matrix(a: int, H: int, out: Any = None) -> Any:
    """``T[h2, h]`` = P(``a`` attacking dice take a defender from ``h`` to ``h2`` hit points):
    ``pa[h - h2]`` (Binomial(a, 1/2)), hits beyond ``h`` landing on 0 (row 0 = tail sums).
    Written into ``out`` (an ``H x H`` scratch array) when given: a fresh 121 x 121 array per
    attacker row cost more in page faults than the whole product.

    >>> _attack_matrix(1, 3).tolist()
    [[1.0, 0.5, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 0.5]]
    """
    import numpy as np

    pa = _fbinom(a, 0.5)
    n = min(a + 1, H)
    full = np.zeros(H + 1)
    full[:n] = pa[:n]
    T = full.take(_toeplitz_index(H), out=out)
    T[0, :n] = np.cumsum(pa[::-1])[::-1][:n]
    T[0, 0] = 1.0
    return T


@cache
def _defence(H: int, castle: bool) -> tuple[Any, Any, Any]:
    """Per-round defender dice for hit points ``0..H-1``: ``pd[h, j]`` = P(``j`` hits),
    ``tail[h, j]`` = P(``j`` hits or more), ``first[j]`` = the lowest ``h`` rolling ``j`` dice."""
    import numpy as np

    dice = [_dice(h, castle) for h in range(H)]
    J = max(dice) + 1
    pd = np.zeros((H, J))
    for h in range(H):
        pd[h, :dice[h] + 1] = _fbinom(dice[h], 2.0 / 3.0)
    tail = np.cumsum(pd[:, ::-1], axis=1)[:, ::-1]
    first = np.array([next(h for h in range(H) if dice[h] >= j) for j in range(J)])
    return pd, tail, first


def clear_caches() -> None:
    """Forget every cached odds result and transition matrix (for cold-cache measurements).

    >>> clear_caches(); _defence.cache_info().currsize
    0
    """
    for f in (battle_odds, _exact_sweep, _binom, _float_sweep, _float_cached, _fbinom, _toeplitz_index, _defence):
        f.cache_clear()


@cache
def _float_sweep(start: tuple[float, ...], h0: int, castle: bool) -> tuple[Any, Any]:
    """The exact sweep of :func:`_exact_sweep` in float64, attacker row by attacker row.

    In row ``a`` the mass ``m[h]`` first settles the rounds in which the defender scores
    nothing (a triangular system, solved as a Neumann series: it is nilpotent and its terms
    shrink at least threefold a step), then moves with ``j >= 1`` defender hits to row
    ``a - j``: ``R = T @ U`` with ``U[h, j] = out[h] * pd[h, j]``.  Columns ``j >= a`` all land
    on row 0 and are summed first; column ``j`` only needs the rows that roll ``j`` dice."""
    import numpy as np

    a0 = len(start) - 1
    H = h0 + 1
    rows = np.zeros((a0 + 1, H))
    rows[:, h0] = start
    pd, tail, first = _defence(H, castle)
    J = pd.shape[1]
    self_d = pd[:, 0]
    att = np.zeros(a0 + 1)
    chunk = max(1, _BLAS_ONE_THREAD // (H * H))
    scratch = np.empty((H, H))
    for a in range(a0, 0, -1):
        row = rows[a]
        if not row.any():
            continue
        T = _attack_matrix(a, H, scratch)
        pa0 = 0.5 ** a
        norm = 1.0 / (1.0 - pa0 * self_d)
        norm[0] = 0.0
        s = self_d * norm  # P(defender scores nothing | the round is not a double miss)
        # within the row: m = row + K m with K = T diag(s) without its diagonal (the self-loop)
        m = row.copy()
        term = m
        for _ in range(H):
            x = s * term
            term = T @ x - pa0 * x
            if term.max() <= 1e-18 * m.max():
                break
            m = m + term
        att[a] = m[0]
        out = m * norm
        k = min(J - 1, a - 1)  # hits 1..k go to rows a-1..a-k; more than k to row 0
        if k < J - 1:
            U = out[:, None] * pd[:, 1:k + 2]
            U[:, k] = out * tail[:, k + 1]
        else:
            U = out[:, None] * pd[:, 1:]
        ncol = U.shape[1]
        R = np.empty((H, ncol))
        for c0 in range(0, ncol, chunk):
            c1 = min(ncol, c0 + chunk)
            lo = first[c0 + 1]  # lower rows roll fewer than c0 + 1 dice: zero in these columns
            R[:, c0:c1] = T[:, lo:] @ U[lo:, c0:c1]
        if k:
            rows[a - k:a] += R[:, :k].T[::-1]
        if ncol > k:
            rows[0] += R[:, k]
    att[0] = 0.0
    return att, rows[0].copy()


def battle_odds_float(attackers: int, defenders: int, *, castle: bool = False, wounded: int = 0,
                      sea: int = 0) -> BattleOdds:
    """:func:`battle_odds` in float64 with numpy (same chain, same result to ~1e-12).

    >>> o = battle_odds_float(3, 1, castle=True)
    >>> abs(o.win - float(battle_odds(3, 1, castle=True).win)) < 1e-12
    True
    """
    _check(attackers, defenders, wounded, sea, castle)
    return _float_cached(attackers, defenders, castle, wounded, sea)


@cache
def _float_cached(attackers: int, defenders: int, castle: bool, wounded: int, sea: int) -> BattleOdds:
    h0 = 2 * defenders - wounded if castle else defenders
    if h0 == 0 or attackers == 0:
        att, dfn = [0.0] * (attackers + 1), [0.0] * (h0 + 1)
        if h0 == 0 and attackers:
            att[attackers] = 1.0
        else:
            dfn[h0] = 1.0
        return _summarise(attackers, defenders, castle, sea, att, dfn, 0.0)
    start = _start(attackers, defenders, sea, 2.0 / 3.0, lambda n, p: tuple(float(x) for x in _fbinom(n, p)), 1.0)
    att, dfn = _float_sweep(tuple(start), h0, castle)
    return _summarise(attackers, defenders, castle, sea, [float(x) for x in att], [float(x) for x in dfn], 0.0)
