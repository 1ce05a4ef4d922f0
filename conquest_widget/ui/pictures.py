"""Small inline SVG pictures for the game picker, drawn by the package (no image files).

    >>> picture("codex").startswith("<svg")
    True
"""

from __future__ import annotations

_W, _H = 200, 110


def _svg(body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
            f'role="img" class="cw-picture">{body}</svg>')


def _japan(marks: str) -> str:
    # a stylised archipelago: Hokkaido, Honshu, Shikoku, Kyushu
    land = ('<path d="M150 8 l22 6 l-4 16 l-20 2 z" fill="#d8cfae"/>'
            '<path d="M146 36 l8 18 l-12 22 l-30 14 l-34 6 l-20 -2 l4 -8 l30 -4 l26 -14 l14 -22 z" fill="#d8cfae"/>'
            '<path d="M70 96 l18 -2 l-4 8 l-16 0 z" fill="#d8cfae"/>'
            '<path d="M40 92 l14 2 l-2 14 l-14 -2 z" fill="#d8cfae"/>')
    return _svg(f'<rect width="{_W}" height="{_H}" fill="#bfdff2"/>{land}{marks}')


def _cards() -> str:
    cards = []
    for i, (rank, colour) in enumerate((("J", "#222"), ("Q", "#c1121f"), ("K", "#222"))):
        x = 40 + i * 42
        cards.append(f'<g transform="rotate({(i - 1) * 10} {x + 20} 90)"><rect x="{x}" y="20" width="40" height="60" rx="5" '
                     f'fill="#fff" stroke="#555"/><text x="{x + 20}" y="58" font-size="24" text-anchor="middle" '
                     f'fill="{colour}" font-family="serif">{rank}</text></g>')
    return _svg(f'<rect width="{_W}" height="{_H}" fill="#2e6b3f"/>{"".join(cards)}')


def _codex() -> str:
    colours = ("#c1121f", "#1d4e89", "#2a9d8f", "#e9c46a")
    cells = []
    for t in range(6):
        ox, oy = 20 + (t % 3) * 56, 8 + (t // 3) * 50
        cells.append(f'<rect x="{ox}" y="{oy}" width="50" height="46" fill="#f4efe1" stroke="#444" stroke-width="2"/>')
        for k in range(3):
            cells.append(f'<circle cx="{ox + 12 + k * 13}" cy="{oy + 14 + (k % 2) * 16}" r="5" fill="{colours[(t + k) % 4]}"/>')
    return _svg("".join(cells))


def picture(game_id: str) -> str:
    """An inline SVG for the game's card in the picker."""
    if game_id == "japan_conquest":
        return _japan('<circle cx="120" cy="70" r="6" fill="#d62728"/><circle cx="90" cy="84" r="6" fill="#1f77b4"/>')
    if game_id == "japanese_risk":
        return _japan('<text x="110" y="78" font-size="22">🏯</text><text x="60" y="90" font-size="18">?</text>'
                      '<text x="140" y="50" font-size="18">?</text>')
    if game_id == "conquest_cards":
        return _cards()
    if game_id == "codex":
        return _codex()
    return _svg(f'<rect width="{_W}" height="{_H}" fill="#eee"/>')
