"""The Codex's picture in the game picker (``SPEC.picture``): six grid territories holding
faction pieces, an inline SVG drawn here (no image file, nothing from outside).

    >>> PICTURE.startswith("<svg") and PICTURE.endswith("</svg>")
    True
"""

from __future__ import annotations

_W, _H = 200, 110


def _territories() -> str:
    colours = ("#c1121f", "#1d4e89", "#2a9d8f", "#e9c46a")
    cells = []
    for t in range(6):
        ox, oy = 20 + (t % 3) * 56, 8 + (t // 3) * 50
        cells.append(f'<rect x="{ox}" y="{oy}" width="50" height="46" fill="#f4efe1" stroke="#444" stroke-width="2"/>')
        for k in range(3):
            cells.append(f'<circle cx="{ox + 12 + k * 13}" cy="{oy + 14 + (k % 2) * 16}" r="5" fill="{colours[(t + k) % 4]}"/>')
    return "".join(cells)


#: the picker's picture of the game (inline SVG, 200 x 110)
PICTURE = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
           f'role="img" class="cw-picture">{_territories()}</svg>')
