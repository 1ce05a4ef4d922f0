"""Colours, map styles and inline icons (SVG / Unicode: nothing loads from a CDN)."""

from __future__ import annotations

import html

import ipywidgets as W

from conquest_widget.core.safe_text import css_colour
from conquest_widget.lean import Layout, shared_layout

NEUTRAL_FILL = "#efe9da"
SEA = "#bfdff2"
BORDER = "#6b6b6b"
HIGHLIGHT = "#ffb000"
ROUTE = "#1b1b1b"
SELECTED = "#7a00c2"

#: fill opacity by level name: the stronger the level, the stronger the colour
LEVEL_OPACITY = {"neutral": 0.75, "territory": 0.35, "base": 0.6, "castle": 0.85, "home": 0.95}
LEVEL_ICON = {"castle": "🏯", "home": "🏠"}


def prefecture_style(owner_colour: str | None, level: str, *, legal: bool, in_route: bool, selected: bool) -> dict:
    """Polygon style traits for one prefecture."""
    style = {
        "fill_color": owner_colour or NEUTRAL_FILL,
        "fill_opacity": LEVEL_OPACITY[level],
        "color": BORDER,
        "weight": 1,
        "dash_array": None,
    }
    # Highlights change at most two small traits (colour, weight): each restyle is one
    # ~80-byte message.  dash_array stays None on prefectures (sea links use it).
    if selected:
        style.update(color=SELECTED, weight=3)
    if in_route:
        style.update(color=ROUTE, weight=3)
    if legal:
        style.update(color=HIGHLIGHT, weight=3)
    return style


def pawn_label(name: str, seat: int) -> str:
    """What a pawn shows: the initial of the name's last word of letters, and the seat
    number, so "CPU Bob" and "CPU Carol" differ.

    >>> pawn_label("CPU Bob", 1), pawn_label("CPU Carol", 2), pawn_label("Player 1", 0), pawn_label("42", 3)
    ('B2', 'C3', 'P1', '4')
    """
    words = [w for w in name.split() if w[:1].isalpha()]
    return (words[-1][:1].upper() if words else "") + str(seat + 1)


def name_html(name: str) -> str:
    """A player's name for tables: escaped, cut with an ellipsis when long (full name on hover).

    >>> name_html("Aki <3")
    '<span class="cw-name" title="Aki &lt;3">Aki &lt;3</span>'
    """
    text = html.escape(name, quote=True)
    return f'<span class="cw-name" title="{text}">{text}</span>'


def player_icon_html(colour: str, name: str, seat: int) -> str:
    """A small inline-SVG pawn in the player's colour with :func:`pawn_label`."""
    letter = html.escape(pawn_label(name, seat))
    colour = css_colour(colour)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="26" height="30" viewBox="0 0 26 30" '
        f'data-player="{seat}" class="cw-pawn">'
        f'<circle cx="13" cy="9" r="7" fill="{colour}" stroke="#fff" stroke-width="2"/>'
        f'<path d="M3 29 Q13 10 23 29 Z" fill="{colour}" stroke="#fff" stroke-width="2"/>'
        f'<text x="13" y="12.5" font-size="{8 if len(letter) > 1 else 9}" text-anchor="middle" fill="#fff" '
        f'font-family="sans-serif" font-weight="bold">{letter}</text></svg>'
    )


def label_html(value: int | None, level: str, name: str | None = None) -> str:
    """Prefecture label: the name (at zooms where it fits), the level icon (castle/home)
    and the base value when shown.

    >>> label_html(40, "neutral", "Saitama")
    '<div class="cw-label"><span class="cw-pname">Saitama</span><span class="cw-val">40</span></div>'
    """
    icon = LEVEL_ICON.get(level, "")
    num = f'<span class="cw-val">{value}</span>' if value is not None else ""
    label = f'<span class="cw-pname">{html.escape(name)}</span>' if name else ""
    return f'<div class="cw-label">{label}{icon}{num}</div>' if icon or num or label else ""


def step_html(n: int) -> str:
    """Route step number badge."""
    return f'<div class="cw-step">{n}</div>'


CSS = f"""
<style>
.cw-app .leaflet-container {{ background: {SEA}; }}
/* labels, step numbers and pawns are drawn over the map but never take its clicks:
   a click anywhere on a prefecture's shape selects that prefecture */
.cw-app .leaflet-div-icon {{ background: transparent; border: none; pointer-events: none; }}
.cw-label {{ font: 10px/1.1 sans-serif; color: #222; text-align: center; white-space: nowrap;
  pointer-events: none; text-shadow: 0 0 2px #fff, 0 0 2px #fff; }}
.cw-label .cw-val {{ display: block; font-weight: bold; }}
.cw-label .cw-pname {{ display: block; font-size: 10px; color: #333; }}
.cw-step {{ background: {ROUTE}; color: #fff; border-radius: 9px; width: 18px; height: 18px;
  font: bold 11px/18px sans-serif; text-align: center; }}
.cw-pawn {{ filter: drop-shadow(0 1px 1px rgba(0,0,0,.5)); }}
.cw-log {{ font: 12px/1.35 sans-serif; }}
.cw-log div {{ border-bottom: 1px solid #eee; padding: 1px 0; }}
.cw-score table {{ border-collapse: collapse; width: 100%; font: 13px sans-serif; }}
.cw-score td, .cw-score th {{ padding: 2px 5px; text-align: left; }}
.cw-score tr.cw-current {{ background: #fff4cc; font-weight: bold; }}
.cw-name {{ display: inline-block; max-width: 11em; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; vertical-align: bottom; }}
.cw-swatch {{ display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 4px; }}
.cw-dice {{ font-size: 28px; letter-spacing: 4px; }}
/* the side panel scrolls as a whole: its boxes keep their content's height (a flex
   column with a max-height would otherwise squeeze them and overlap their text) */
.cw-side > *, .cw-side .widget-box > * {{ flex-shrink: 0; }}
.cw-battle-result {{ font: 14px/1.6 sans-serif; background: #fff8e6; border: 1px solid #e6c36a;
  border-radius: 6px; padding: 6px 10px; margin-bottom: 6px; }}
.cw-battle-result .cw-dice {{ font-size: 24px; vertical-align: middle; }}
.cw-battle-winner {{ font-weight: bold; font-size: 15px; margin-top: 4px; }}
.cw-msg {{ color: #a40000; min-height: 1.2em; }}
.cw-hover {{ background: rgba(255,255,255,.9); padding: 2px 6px; border-radius: 4px; font: 13px sans-serif; }}
</style>
"""

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def dice_html(faces: list[int]) -> str:
    """Dice faces as Unicode dice, with the total."""
    if not faces:
        return ""
    return f'<span class="cw-dice" data-faces="{",".join(map(str, faces))}">' + "".join(DIE_FACES[f - 1] for f in faces) + f"</span> = <b>{sum(faces)}</b>"


def button_layout(own: bool = False) -> W.Layout:
    """The layout of a button: one shared Layout for every button that is never hidden
    (fewer models to send: issue 18), or with ``own=True`` a fresh one for a button that is
    shown and hidden (a shared Layout would show or hide them all at once).

    >>> button_layout() is button_layout(), button_layout(own=True) is button_layout()
    (True, False)
    """
    if own:
        return Layout(width="auto", flex="0 0 auto")
    return shared_layout(width="auto", flex="0 0 auto")


