"""Validation of every string that comes from a player or a file before it is kept.

Names and colours reach HTML (scoreboards, pawns, results tables).  They are validated
here once, when a setup is built (from a form, a save, a preference or a backup), and
still escaped wherever they are written into HTML (:func:`html_text`, :func:`html_attr`).

    >>> check_colour("#1F77B4")
    '#1f77b4'
    >>> check_colour('rgb(1,2,3)"><img src=x onerror=alert(1)>')
    Traceback (most recent call last):
    ...
    ValueError: colour must be '#rrggbb' (six hex digits), got 'rgb(1,2,3)"><img src=x onerror=alert(1)>'
    >>> check_name("  Aiko ")
    'Aiko'
    >>> html_text("<b>Bob</b>")
    '&lt;b&gt;Bob&lt;/b&gt;'
"""

from __future__ import annotations

import html
import re
import unicodedata

#: longest player name kept (longer names push tables off-screen)
MAX_NAME_LENGTH = 24

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def check_colour(value: object) -> str:
    """An anchored ``#rrggbb`` colour, lower-cased; anything else raises ValueError."""
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        raise ValueError(f"colour must be '#rrggbb' (six hex digits), got {value!r}"[:200])
    return value.lower()


def check_text(value: object, what: str, *, max_length: int) -> str:
    """A stripped, printable string of 1..max_length characters (no control characters,
    no lone surrogates); anything else raises ValueError naming ``what``."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, got {type(value).__name__}")
    text = value.strip()
    if not text:
        raise ValueError(f"{what} must not be empty")
    if len(text) > max_length:
        raise ValueError(f"{what} is {len(text)} characters long; at most {max_length} are allowed")
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Cn", "Co") or (cat == "Cf" and ch not in "\u200d\ufe0f"):
            raise ValueError(f"{what} contains a control or invalid character (U+{ord(ch):04X})")
    return text


def check_name(value: object, what: str = "name") -> str:
    """A player name: see :func:`check_text` (at most :data:`MAX_NAME_LENGTH` characters)."""
    return check_text(value, what, max_length=MAX_NAME_LENGTH)


def html_text(value: object) -> str:
    """Escape any value for HTML text content."""
    return html.escape(str(value), quote=True)


def html_attr(value: object) -> str:
    """Escape any value for a double- or single-quoted HTML attribute."""
    return html.escape(str(value), quote=True)


def css_colour(value: object, fallback: str = "#888888") -> str:
    """A colour safe to put in a style attribute: a valid ``#rrggbb`` or the fallback."""
    try:
        return check_colour(value)
    except ValueError:
        return fallback
