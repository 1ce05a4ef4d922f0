"""How the card table looks: CSS and small HTML pieces for cards drawn by the package
(no card art files: a card is a styled box with its rank and suit symbol).

    >>> card_html("7H")
    '<span class="cwc-c cwc-red" data-card="7H">7♥</span>'
    >>> card_html("JK", "ja")
    '<span class="cwc-c cwc-joker" data-card="JK">ジョーカー</span>'
    >>> backs_html(3).count('class="cwc-back"')
    3
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import DISPLAY, JOKER, SUIT
from ..text import t

#: at most this many card backs are drawn for a hidden hand (the count is written too)
MAX_BACKS = 8

CSS = """
<style>
.cwc-board { font: 14px/1.35 sans-serif; }
.cwc-board .cwc-table { background: #1f6f43; border-radius: 10px; padding: 8px; gap: 8px; }
.cwc-board .cwc-seat { background: #2a7d50; border: 2px solid transparent; border-radius: 8px;
  padding: 4px 6px; color: #fff; }
.cwc-board .cwc-seat.cwc-turn { border-color: #ffd54f; box-shadow: 0 0 6px #ffd54f; }
.cwc-board .cwc-head { color: #fff; white-space: nowrap; }
.cwc-board .cwc-head .cwc-name { font-weight: bold; }
.cwc-board .cwc-status { background: #fffbe6; border: 1px solid #e6c36a; border-radius: 6px;
  padding: 4px 8px; }
.cwc-board .cwc-msg { color: #a40000; }
.cwc-board .cwc-recent { font-size: 12px; color: #333; margin: 2px 0 4px 4px; }
.cwc-board .cwc-recent .widget-html-content, .cwc-board .cwc-status .widget-html-content,
.cwc-board .cwc-head .widget-html-content { line-height: 1.35; }
.cwc-c { display: inline-block; min-width: 26px; height: 38px; line-height: 38px; padding: 0 3px;
  background: #fff; color: #222; border: 1px solid #777; border-radius: 4px; text-align: center;
  font: bold 14px/38px sans-serif; margin-left: -12px; box-shadow: 1px 1px 1px rgba(0,0,0,.35); }
.cwc-pile .cwc-c:first-child { margin-left: 0; }
.cwc-c.cwc-red { color: #c62828; }
.cwc-c.cwc-joker { color: #6a1b9a; font-size: 11px; }
.cwc-pile { min-height: 40px; white-space: nowrap; padding-left: 2px; }
.cwc-pile.cwc-last .cwc-c:last-child { border-color: #ffd54f; box-shadow: 0 0 5px #ffd54f; }
.cwc-total { font-size: 12px; color: #fff; }
.cwc-back { display: inline-block; width: 16px; height: 24px; margin-left: -8px; border-radius: 3px;
  border: 1px solid #fff; background: repeating-linear-gradient(45deg, #3949ab, #3949ab 3px, #5c6bc0 3px, #5c6bc0 6px);
  vertical-align: middle; }
.cwc-back:first-child { margin-left: 0; }
.cwc-backs { display: inline-block; margin-left: 6px; }
.cwc-board .widget-button.cwc-card, .cwc-board .widget-button.cwc-face {
  background: #fff; color: #222; border: 1px solid #777; border-radius: 6px; font-weight: bold;
  font-size: 17px; padding: 0; box-shadow: 1px 2px 2px rgba(0,0,0,.35); }
.cwc-board .widget-button.cwc-red { color: #c62828; }
.cwc-board .widget-button.cwc-joker { color: #6a1b9a; font-size: 11px; }
.cwc-board .widget-button.cwc-card:disabled, .cwc-board .widget-button.cwc-face:disabled {
  opacity: 1; cursor: default; }
.cwc-board .widget-button.cwc-dim:disabled { opacity: .45; }
.cwc-board .widget-button.cwc-selected { transform: translateY(-10px); border: 3px solid #1565c0;
  box-shadow: 0 4px 8px rgba(21,101,192,.6); }
.cwc-board .widget-button.cwc-face { background: #fdf6e3; font-size: 19px; }
.cwc-board .widget-button.cwc-target { border: 3px solid #ffd54f; box-shadow: 0 0 8px #ffd54f; cursor: pointer; }
.cwc-board .cwc-hand { min-height: 84px; align-items: flex-end; padding-top: 12px; }
.cwc-board .cwc-hand-title { color: #fff; font-weight: bold; }
</style>
"""


def card_class(code: str) -> str:
    """The colour class of a card: red suits, black suits, the joker."""
    if code == JOKER:
        return "cwc-joker"
    return "cwc-red" if SUIT.get(code) in ("H", "D") else "cwc-black"


def card_label(code: str, lang: str = "en") -> str:
    """What a card shows: ``7♠``; a joker its name."""
    return t("ui_joker", lang) if code == JOKER else DISPLAY[code]


def card_html(code: str, lang: str = "en") -> str:
    """One face-up card (codes are validated engine values; the label is fixed text)."""
    return f'<span class="cwc-c {card_class(code)}" data-card="{code}">{card_label(code, lang)}</span>'


def pile_html(cards: Sequence[str], lang: str = "en") -> str:
    """A pile fanned left to right (the newest card on top, at the right)."""
    return "".join(card_html(c, lang) for c in cards)


def backs_html(n: int) -> str:
    """``n`` face-down cards (at most :data:`MAX_BACKS` drawn)."""
    if n <= 0:
        return ""
    return '<span class="cwc-backs">' + '<span class="cwc-back"></span>' * min(n, MAX_BACKS) + "</span>"
