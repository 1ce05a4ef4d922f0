"""The card game's picture in the game picker (``SPEC.picture``): a Jack, a Queen and a
King fanned on green baize, an inline SVG drawn here (no image file, nothing from outside).

    >>> PICTURE.startswith("<svg") and PICTURE.endswith("</svg>")
    True
"""

from __future__ import annotations

_W, _H = 200, 110


def _cards() -> str:
    cards = []
    for i, (rank, colour) in enumerate((("J", "#222"), ("Q", "#c1121f"), ("K", "#222"))):
        x = 40 + i * 42
        cards.append(f'<g transform="rotate({(i - 1) * 10} {x + 20} 90)"><rect x="{x}" y="20" width="40" height="60" rx="5" '
                     f'fill="#fff" stroke="#555"/><text x="{x + 20}" y="58" font-size="24" text-anchor="middle" '
                     f'fill="{colour}" font-family="serif">{rank}</text></g>')
    return "".join(cards)


#: the picker's picture of the game (inline SVG, 200 x 110)
PICTURE = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
           f'role="img" class="cw-picture"><rect width="{_W}" height="{_H}" fill="#2e6b3f"/>{_cards()}</svg>')
