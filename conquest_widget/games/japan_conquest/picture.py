"""Japan Conquest's picture in the game picker (``SPEC.picture``): a stylised archipelago
with two pawns, an inline SVG drawn here (no image file, nothing from outside).

    >>> PICTURE.startswith("<svg") and PICTURE.endswith("</svg>")
    True
"""

from __future__ import annotations

from conquest_widget.maps.japan.picture import archipelago

# two pawns on the map
_MARKS = '<circle cx="120" cy="70" r="6" fill="#d62728"/><circle cx="90" cy="84" r="6" fill="#1f77b4"/>'

#: the picker's picture of the game (inline SVG, 200 x 110), on the shared archipelago
PICTURE = archipelago(_MARKS)
