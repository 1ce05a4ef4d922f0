"""A stylised archipelago (Hokkaido, Honshu, Shikoku, Kyushu) for the picker pictures of
the games played on the prefecture map: :func:`archipelago` frames a game's own marks on it
as an inline SVG (no image file, nothing from outside).

    >>> archipelago('<circle cx="1" cy="1" r="1"/>').startswith("<svg")
    True
"""

from __future__ import annotations

_W, _H = 200, 110

LAND = ('<path d="M150 8 l22 6 l-4 16 l-20 2 z" fill="#d8cfae"/>'
        '<path d="M146 36 l8 18 l-12 22 l-30 14 l-34 6 l-20 -2 l4 -8 l30 -4 l26 -14 l14 -22 z" fill="#d8cfae"/>'
        '<path d="M70 96 l18 -2 l-4 8 l-16 0 z" fill="#d8cfae"/>'
        '<path d="M40 92 l14 2 l-2 14 l-14 -2 z" fill="#d8cfae"/>')


def archipelago(marks: str) -> str:
    """The picker's picture (inline SVG, 200 x 110): sea, the islands, then ``marks``."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
            f'role="img" class="cw-picture"><rect width="{_W}" height="{_H}" fill="#bfdff2"/>{LAND}{marks}</svg>')
