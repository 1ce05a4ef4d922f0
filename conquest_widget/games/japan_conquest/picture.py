"""Japan Conquest's picture in the game picker (``SPEC.picture``): a stylised archipelago
with two pawns, an inline SVG drawn here (no image file, nothing from outside).

    >>> PICTURE.startswith("<svg") and PICTURE.endswith("</svg>")
    True
"""

from __future__ import annotations

_W, _H = 200, 110

# a stylised archipelago: Hokkaido, Honshu, Shikoku, Kyushu
_LAND = ('<path d="M150 8 l22 6 l-4 16 l-20 2 z" fill="#d8cfae"/>'
         '<path d="M146 36 l8 18 l-12 22 l-30 14 l-34 6 l-20 -2 l4 -8 l30 -4 l26 -14 l14 -22 z" fill="#d8cfae"/>'
         '<path d="M70 96 l18 -2 l-4 8 l-16 0 z" fill="#d8cfae"/>'
         '<path d="M40 92 l14 2 l-2 14 l-14 -2 z" fill="#d8cfae"/>')
# two pawns on the map
_MARKS = '<circle cx="120" cy="70" r="6" fill="#d62728"/><circle cx="90" cy="84" r="6" fill="#1f77b4"/>'

#: the picker's picture of the game (inline SVG, 200 x 110)
PICTURE = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
           f'role="img" class="cw-picture"><rect width="{_W}" height="{_H}" fill="#bfdff2"/>{_LAND}{_MARKS}</svg>')
