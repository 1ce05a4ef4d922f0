"""Japanese Risk's picture in the game picker (``SPEC.picture``): the archipelago with a
castle and two hidden armies, an inline SVG drawn here (no image file, nothing from outside).

    >>> PICTURE.startswith("<svg") and PICTURE.endswith("</svg>")
    True
"""

from __future__ import annotations

from conquest_widget.maps.japan.picture import archipelago

# a castle and two secret armies
_MARKS = ('<text x="110" y="78" font-size="22">🏯</text><text x="60" y="90" font-size="18">?</text>'
          '<text x="140" y="50" font-size="18">?</text>')

#: the picker's picture of the game (inline SVG, 200 x 110), on the shared archipelago
PICTURE = archipelago(_MARKS)
