"""The game picker's pictures: each game draws its own (an inline SVG named by its spec's
``picture``, in its own folder); the shell only checks it is a plain, inert SVG and gives
a blank card to a game without one.

    >>> from conquest_widget.core.registry import GameSpec
    >>> bare = GameSpec("chess", {"en": "Chess"}, {"en": ""}, range(2, 3), False, 1)
    >>> picture(bare) == FALLBACK
    True
    >>> check_picture('<svg><script>alert(1)</script></svg>', "chess")
    Traceback (most recent call last):
    ...
    conquest_widget.ui.pictures.PictureError: the picture of chess is not a plain SVG: it holds '<script'
"""

from __future__ import annotations

import re

from conquest_widget.core.registry import GameSpec
from conquest_widget.errors import ConquestError

_W, _H = 200, 110

#: the card of a game that brings no picture: a blank 200 x 110 SVG
FALLBACK = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
            f'role="img" class="cw-picture"><rect width="{_W}" height="{_H}" fill="#eee"/></svg>')

#: what a picture may not hold: scripts, event handlers, links, embedded documents, styles
_ACTIVE = re.compile(r"<\s*(?:script|foreignobject|iframe|object|embed|image|use|a|style)\b|\bon\w+\s*=|"
                     r"href|javascript:|url\s*\(|<!", re.IGNORECASE)


class PictureError(ConquestError, ValueError):
    """A game's picture that is not a plain, inert inline SVG."""


def check_picture(svg: object, game_id: str) -> str:
    """``svg`` if it is one inline ``<svg>…</svg>`` with nothing active in it (no script,
    event handler, link, embedded document or style), else :class:`PictureError`."""
    if not isinstance(svg, str) or not svg.startswith("<svg") or not svg.endswith("</svg>"):
        raise PictureError(f"the picture of {game_id} must be an inline SVG string '<svg ...>...</svg>'")
    active = _ACTIVE.search(svg)
    if active:
        raise PictureError(f"the picture of {game_id} is not a plain SVG: it holds {active.group(0)!r}")
    return svg


def picture(spec: GameSpec) -> str:
    """The inline SVG for ``spec``'s card in the picker: the game's own (``spec.picture``,
    checked), or :data:`FALLBACK` when it has none."""
    if spec.picture is None:
        return FALLBACK
    return check_picture(spec.load(spec.picture), spec.id)
