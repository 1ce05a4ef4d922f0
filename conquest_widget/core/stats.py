"""Small statistics for measuring CPU strength: Wilson score intervals.

    >>> lo, hi = wilson(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    >>> wilson(0, 0)
    (0.0, 1.0)
"""

from __future__ import annotations

import math

#: z for a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (ties may count as
    half a success).  Returns ``(low, high)``; ``(0, 1)`` when ``n == 0``."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def format_share(successes: float, n: int) -> str:
    """``"61.0% [57.9, 64.0] (n=1000)"``: a share with its 95% Wilson interval.

    >>> format_share(610, 1000)
    '61.0% [57.9, 64.0] (n=1000)'
    """
    lo, hi = wilson(successes, n)
    share = successes / n if n else 0.0
    return f"{100 * share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n={n})"
