"""Cards of Conquest as small values with a text form.

A card's code is its rank then its suit: ``"AS"`` (ace of spades), ``"7H"``, ``"10D"``,
``"JS"``/``"QS"``/``"KS"`` (face cards), and ``"JK"`` for a joker.  The engine keeps
codes (strings) in its state; :class:`Card` parses and displays them.

    >>> Card.parse("10H")
    Card(rank=10, suit='H')
    >>> str(Card.parse("AS")), Card.parse("AS").display, Card.parse("JK").display
    ('AS', 'A♠', 'Joker')
    >>> Card.parse("7X")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.IllegalActionError: '7X' is not a card: write rank then suit, e.g. 7S, 10H, AS, KD, or JK for a joker
    >>> [value("AS"), value("AS", pile_suit="S", ace_eleven=True), value("10C"), value("JK")]
    [1, 11, 10, -5]
    >>> number_cards()[:3], len(number_cards()), len(deck_cards(jokers=True))
    (['AS', '2S', '3S'], 40, 42)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conquest_widget.errors import IllegalActionError

#: the suits in starting order (spades start, then hearts, then clubs; diamonds never start)
SUITS: tuple[str, ...] = ("S", "H", "C", "D")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAME = {"S": ("spades", "スペード"), "H": ("hearts", "ハート"), "C": ("clubs", "クラブ"), "D": ("diamonds", "ダイヤ")}
#: the three face cards of each player, by the pile weight (Jack 1, Queen 2, King 3 points)
FACES: tuple[str, ...] = ("J", "Q", "K")
FACE_POINTS = {"J": 1, "Q": 2, "K": 3}
FACE_NAME = {"J": ("Jack", "ジャック"), "Q": ("Queen", "クイーン"), "K": ("King", "キング")}
JOKER = "JK"
JOKER_VALUE = -5

_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_TEXT_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(i): i for i in range(2, 11)}}


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``rank`` 1 (ace) to 13 (king), 0 for a joker; ``suit`` one of S H C D
    ('' for a joker)."""

    rank: int
    suit: str

    @staticmethod
    def parse(code: Any) -> Card:
        """The card of a code (``"7S"``, ``"10H"``, ``"JK"``); IllegalActionError otherwise."""
        if isinstance(code, str):
            if code == JOKER:
                return Card(0, "")
            rank, suit = code[:-1], code[-1:]
            if suit in SUITS and rank in _TEXT_RANK:
                return Card(_TEXT_RANK[rank], suit)
        raise IllegalActionError(
            f"{code!r} is not a card: write rank then suit, e.g. 7S, 10H, AS, KD, or JK for a joker"[:200],
            "not_a_card", card=str(code)[:20])

    @property
    def code(self) -> str:
        return JOKER if self.rank == 0 else _RANK_TEXT.get(self.rank, str(self.rank)) + self.suit

    @property
    def display(self) -> str:
        """The card with its suit symbol: ``7♠``, ``10♥``, ``Joker``."""
        return "Joker" if self.rank == 0 else _RANK_TEXT.get(self.rank, str(self.rank)) + SUIT_SYMBOL[self.suit]

    def __str__(self) -> str:
        return self.code


def number_cards() -> list[str]:
    """The 40 number cards A-10 of the four suits, in canonical order (suit by suit)."""
    return [_RANK_TEXT.get(r, str(r)) + s for s in SUITS for r in range(1, 11)]


def deck_cards(jokers: bool = False) -> list[str]:
    """The cards shuffled into the deck: the 40 number cards, plus two jokers under
    optional rule 3.  This canonical order is what a logged shuffle permutes."""
    return number_cards() + ([JOKER, JOKER] if jokers else [])


def face_cards(suit: str) -> list[str]:
    """The Jack, Queen and King of ``suit``."""
    return [f + suit for f in FACES]


# fast tables for the engine and the bots
RANK: dict[str, int] = {c: Card.parse(c).rank for c in [*number_cards(), *(f + s for s in SUITS for f in FACES), JOKER]}
SUIT: dict[str, str] = {c: Card.parse(c).suit for c in RANK}
BASE_VALUE: dict[str, int] = {c: (JOKER_VALUE if r == 0 else r) for c, r in RANK.items()}
DISPLAY: dict[str, str] = {c: Card.parse(c).display for c in RANK}
_SORT = {c: (SUITS.index(SUIT[c]) if SUIT[c] else 4, RANK[c]) for c in RANK}


def value(code: str, pile_suit: str | None = None, ace_eleven: bool = False) -> int:
    """A card's value on a pile whose face card has suit ``pile_suit``: ace 1 (11 on
    its own suit's face card under optional rule 1), 2-10 their number, joker -5."""
    if ace_eleven and RANK[code] == 1 and SUIT[code] == pile_suit:
        return 11
    return BASE_VALUE[code]


def is_card(code: Any) -> bool:
    """True for a valid card code."""
    return isinstance(code, str) and code in RANK


def sort_cards(codes: list[str]) -> list[str]:
    """Codes sorted by suit (S H C D, jokers last) then rank.

    >>> sort_cards(["10H", "AS", "JK", "2H"])
    ['AS', '2H', '10H', 'JK']
    """
    return sorted(codes, key=_SORT.__getitem__)


def show(codes: list[str] | tuple[str, ...]) -> str:
    """Codes as displayed cards: ``show(["7S", "9H"]) == "7♠ 9♥"``."""
    return " ".join(DISPLAY[c] for c in codes)


def group_fits(codes: list[str] | tuple[str, ...]) -> bool:
    """True when all the cards share one suit or all share one value (jokers never fit).

    >>> group_fits(["7S", "9S"]), group_fits(["7S", "7H", "7D"]), group_fits(["7S", "9H"])
    (True, True, False)
    """
    if not codes or any(c == JOKER for c in codes):
        return False
    return len({SUIT[c] for c in codes}) == 1 or len({RANK[c] for c in codes}) == 1
