"""The float sweep of odds.py as it was before the faster one (commit 9002694), kept
verbatim as the reference the new one must reproduce (tests/games/japanese_risk/test_odds.py).

    >>> att, dfn = reference_sweep((0.0, 1.0), 1, False)   # 1 vs 1: win 1/5
    >>> round(float(att[1]), 12), round(float(dfn[1]), 12), round(float(dfn[0]), 12)
    (0.2, 0.4, 0.4)
"""

from __future__ import annotations

from functools import cache
from typing import Any

from conquest_widget.games.japanese_risk.odds import _dice, _fbinom

#: columns per matrix product in the float sweep (keeps OpenBLAS single-threaded: a
#: loaded machine made its threads 20 times slower)
_CHUNK = 3


@cache
def reference_sweep(start: tuple[float, ...], h0: int, castle: bool) -> tuple[Any, Any]:
    import numpy as np

    a0 = len(start) - 1
    H = h0 + 1
    rows = np.zeros((a0 + 1, H))
    rows[:, h0] = start
    dice = [_dice(h, castle) for h in range(H)]
    pa_hit, pd_hit = 0.5, 2.0 / 3.0
    # pd[h, j]: defender with h hit points scores j hits (j up to max dice)
    J = max(dice) + 1
    pd = np.zeros((H, J))
    for h in range(H):
        pd[h, :dice[h] + 1] = _fbinom(dice[h], pd_hit)
    att = np.zeros(a0 + 1)
    idx = np.arange(H)
    diff = idx[None, :] - idx[:, None]  # h - h2
    diff = np.where(diff < 0, H + a0 + 1, diff)  # points at a zero
    self_d = pd[:, 0]
    for a in range(a0, 0, -1):
        pa = np.zeros(H + a0 + 2)
        pa[:a + 1] = _fbinom(a, pa_hit)
        # T[h2, h] = P(h -> h2) by attacker hits; hits beyond h land on 0
        T = pa[diff]
        T[0, :] = np.cumsum(pa[::-1])[::-1][idx]
        T[0, 0] = 1.0
        norm = 1.0 / (1.0 - pa[0] * self_d)
        norm[0] = 0.0
        # within the row (defender scores 0): (I - K) m = m_in, K strictly upper
        K = T * (self_d * norm)[None, :]
        K[idx, idx] = 0.0
        # (I - K)^-1 as a Neumann series: K is nilpotent (strictly upper triangular), so the
        # series ends after at most H terms; its terms shrink by pd(0) <= 1/3 each time
        m = rows[a].copy()
        term = m
        for _ in range(H):
            term = K @ term
            if term.max() <= 1e-18 * m.max():
                break
            m = m + term
        att[a] = m[0]
        out = m * norm
        # defender hits j >= 1 move the mass to row a - j (capped at 0)
        U = out[:, None] * pd[:, 1:]
        # H x (J - 1), column j-1 = j hits; in slices small enough that BLAS stays on one thread
        R = np.concatenate([T @ U[:, i:i + _CHUNK] for i in range(0, U.shape[1], _CHUNK)], axis=1)
        k = min(J - 1, a - 1)
        if k:
            rows[a - k:a] += R[:, :k].T[::-1]
        rows[0] += R[:, k:].sum(axis=1)
    att[0] = 0.0
    return att, rows[0].copy()
