"""Setup of a Conquest card game: players, suits, the three optional rules, and an
optional starting position (the editor for tests and teaching).

    >>> s = CardsSetup.quick(3, jokers=True)
    >>> [p.name for p in s.players], s.suits, s.jokers
    (['Player 1', 'Player 2', 'Player 3'], None, True)
    >>> CardsSetup.from_dict(s.to_dict()) == s
    True
    >>> CardsSetup.quick(2, suits=("S", "S"))
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SetupError: suits must be distinct, one of S H C D per player, got ('S', 'S')

A :class:`Position` starts the game from given hands, piles and (optionally) deck order;
every card of the game must be in exactly one place (a missing deck is the rest, shuffled
by logged chance):

    >>> pos = Position(hands=(("7S", "9S"), ("AH",)), piles=(((), (), ("10S",)), ((), (), ())))
    >>> s = CardsSetup.quick(2, suits=("S", "H"), position=pos)
    >>> s.position.to_dict()["hands"]
    [['7S', '9S'], ['AH']]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conquest_widget.core.safe_text import check_name
from conquest_widget.errors import SetupError

from .cards import FACES, RANK, SUITS, deck_cards

#: the CPU levels a seat may ask for
BOT_LEVELS = ("easy", "normal", "hard")
#: stages a position may start in
POSITION_STAGES = ("draw", "play")


@dataclass(frozen=True)
class PlayerSeat:
    """One seat: a name, and whether a CPU of level ``bot`` plays it."""

    name: str
    cpu: bool = False
    bot: str = "normal"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "cpu": self.cpu, "bot": self.bot}


def _codes(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or len(value) > 60:
        raise SetupError(f"{what} must be a list of card codes, got {value!r}"[:200])
    for c in value:
        if not isinstance(c, str) or c not in RANK:
            raise SetupError(f"{what}: {c!r} is not a card code (e.g. 7S, 10H, AS, JK)"[:200])
    return tuple(value)


@dataclass(frozen=True)
class Position:
    """A starting position set by the editor.

    ``hands[seat]`` and ``piles[seat][face]`` (faces J, Q, K) hold card codes; ``deck`` is
    the deck top card first, or None for "every other card, shuffled" (a logged chance
    shuffle).  ``to_act`` is the seat whose turn it is, ``stage`` "draw" (the turn starts
    with the draw) or "play" (already drawn), ``turns_played`` the number of finished
    turns (shown to players only).
    """

    hands: tuple[tuple[str, ...], ...]
    piles: tuple[tuple[tuple[str, ...], ...], ...]
    deck: tuple[str, ...] | None = None
    to_act: int = 0
    stage: str = "draw"
    turns_played: int = 0

    def __post_init__(self) -> None:
        hands = tuple(_codes(h, f"hand of seat {i}") for i, h in enumerate(_seq(self.hands, "hands")))
        piles = []
        for i, p in enumerate(_seq(self.piles, "piles")):
            if not isinstance(p, (list, tuple)) or len(p) != 3:
                raise SetupError(f"piles of seat {i} must be three lists (Jack, Queen, King), got {p!r}"[:200])
            piles.append(tuple(_codes(x, f"{FACES[k]} pile of seat {i}") for k, x in enumerate(p)))
        if len(piles) != len(hands):
            raise SetupError(f"a position needs as many pile sets as hands, got {len(piles)} and {len(hands)}")
        deck = None if self.deck is None else _codes(self.deck, "deck")
        if not isinstance(self.to_act, int) or isinstance(self.to_act, bool) or not 0 <= self.to_act < len(hands):
            raise SetupError(f"to_act must be a seat 0-{len(hands) - 1}, got {self.to_act!r}"[:200])
        if self.stage not in POSITION_STAGES:
            raise SetupError(f"stage must be one of {POSITION_STAGES}, got {self.stage!r}"[:200])
        if not isinstance(self.turns_played, int) or isinstance(self.turns_played, bool) or not 0 <= self.turns_played < 10_000:
            raise SetupError(f"turns_played must be an integer 0-9999, got {self.turns_played!r}"[:200])
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "piles", tuple(piles))
        object.__setattr__(self, "deck", deck)

    def all_cards(self) -> list[str]:
        """Every card the position places (hands, piles and the deck if given)."""
        out = [c for h in self.hands for c in h] + [c for p in self.piles for pile in p for c in pile]
        return out + list(self.deck or ())

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in self.hands],
            "piles": [[list(x) for x in p] for p in self.piles],
            "deck": None if self.deck is None else list(self.deck),
            "to_act": self.to_act,
            "stage": self.stage,
            "turns_played": self.turns_played,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Position:
        if not isinstance(data, Mapping):
            raise SetupError(f"a position must be an object, got {type(data).__name__}")
        extra = set(data) - {"hands", "piles", "deck", "to_act", "stage", "turns_played"}
        if extra:
            raise SetupError(f"a position has unknown fields {sorted(extra)}")
        if "hands" not in data or "piles" not in data:
            raise SetupError("a position needs 'hands' and 'piles'")
        return cls(hands=data["hands"], piles=data["piles"], deck=data.get("deck"),
                   to_act=data.get("to_act", 0), stage=data.get("stage", "draw"),
                   turns_played=data.get("turns_played", 0))


def _seq(value: Any, what: str) -> Sequence[Any]:
    if not isinstance(value, (list, tuple)) or not 2 <= len(value) <= 4:
        raise SetupError(f"{what} must be a list with one entry per seat (2-4), got {value!r}"[:200])
    return value


@dataclass(frozen=True)
class CardsSetup:
    """A validated setup; construction raises :class:`SetupError` when invalid.

    ``suits`` gives each seat's suit (None = dealt at random by logged chance).
    Optional rules: ``ace_eleven`` (1: an ace on its own suit's face card is worth 11),
    ``reveal_hands`` (2: hands are revealed at the end and cards of another player's suit
    go to that player), ``jokers`` (3: two jokers, each -5 on an opponent's face card).
    """

    players: tuple[PlayerSeat, ...]
    suits: tuple[str, ...] | None = None
    ace_eleven: bool = False
    reveal_hands: bool = False
    jokers: bool = False
    position: Position | None = None

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, (list, tuple)) or not 2 <= len(players) <= 4:
            raise SetupError(f"Conquest needs 2-4 players, got {players!r}"[:200])
        fixed = []
        for i, p in enumerate(players):
            if not isinstance(p, PlayerSeat):
                raise SetupError(f"player {i + 1} must be a PlayerSeat, got {type(p).__name__}")
            try:
                name = check_name(p.name)
            except ValueError as exc:
                raise SetupError(f"player {i + 1}: {exc}") from None
            if not isinstance(p.cpu, bool):
                raise SetupError(f"player {i + 1}: cpu must be true or false, got {p.cpu!r}"[:200])
            if p.bot not in BOT_LEVELS:
                raise SetupError(f"player {i + 1}: bot must be one of {BOT_LEVELS}, got {p.bot!r}"[:200])
            fixed.append(PlayerSeat(name, p.cpu, p.bot))
        names = [p.name for p in fixed]
        if len(set(names)) != len(names):
            raise SetupError(f"player names must differ, got {names}")
        object.__setattr__(self, "players", tuple(fixed))
        if self.suits is not None:
            suits = self.suits
            if (not isinstance(suits, (list, tuple)) or len(suits) != len(fixed)
                    or any(s not in SUITS for s in suits) or len(set(suits)) != len(suits)):
                raise SetupError(f"suits must be distinct, one of S H C D per player, got {suits!r}"[:200])
            object.__setattr__(self, "suits", tuple(suits))
        for name in ("ace_eleven", "reveal_hands", "jokers"):
            if not isinstance(getattr(self, name), bool):
                raise SetupError(f"{name} must be true or false, got {getattr(self, name)!r}"[:200])
        pos = self.position
        if pos is not None:
            if not isinstance(pos, Position):
                raise SetupError(f"position must be a Position, got {type(pos).__name__}")
            if self.suits is None:
                raise SetupError("a position needs the suits of the seats (suits=...)")
            if len(pos.hands) != len(fixed):
                raise SetupError(f"the position has {len(pos.hands)} hands for {len(fixed)} players")
            placed = Counter(pos.all_cards())
            allowed = Counter(deck_cards(self.jokers))
            over = placed - allowed
            if over:
                bad = sorted(over)
                raise SetupError(f"the position places cards that are not in this game's deck or places them twice: {bad}"[:200])
            if pos.deck is not None and placed != allowed:
                missing = sorted(allowed - placed)
                raise SetupError(f"with an explicit deck every card must be placed; missing: {missing}"[:200])
            if pos.stage == "draw" and pos.deck is not None and not pos.deck:
                raise SetupError("a turn cannot start with a draw from an empty deck")
            if pos.deck is None and not (allowed - placed) and pos.stage == "draw":
                raise SetupError("a turn cannot start with a draw from an empty deck")

    @property
    def n(self) -> int:
        return len(self.players)

    @classmethod
    def quick(cls, n: int, *, suits: Sequence[str] | None = None, ace_eleven: bool = False,
              reveal_hands: bool = False, jokers: bool = False, position: Position | None = None) -> CardsSetup:
        """``n`` human seats named "Player 1".. with the given options."""
        if not isinstance(n, int) or not 2 <= n <= 4:
            raise SetupError(f"Conquest needs 2-4 players, got {n!r}"[:200])
        return cls(tuple(PlayerSeat(f"Player {i + 1}") for i in range(n)),
                   None if suits is None else tuple(suits), ace_eleven, reveal_hands, jokers, position)

    def options(self) -> dict[str, bool]:
        return {"ace_eleven": self.ace_eleven, "reveal_hands": self.reveal_hands, "jokers": self.jokers}

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [p.to_dict() for p in self.players],
            "suits": None if self.suits is None else list(self.suits),
            **self.options(),
            "position": None if self.position is None else self.position.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> CardsSetup:
        """Validate a hostile dict (every field) and build the setup."""
        if not isinstance(data, Mapping):
            raise SetupError(f"a setup must be an object, got {type(data).__name__}")
        extra = set(data) - {"players", "suits", "ace_eleven", "reveal_hands", "jokers", "position"}
        if extra:
            raise SetupError(f"the setup has unknown fields {sorted(extra)}"[:200])
        players = data.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise SetupError(f"players must be a list of 2-4 seats, got {players!r}"[:200])
        seats = []
        for i, p in enumerate(players):
            if not isinstance(p, Mapping) or set(p) - {"name", "cpu", "bot"} or "name" not in p:
                raise SetupError(f"player {i + 1} must be an object with name, cpu, bot; got {p!r}"[:200])
            seats.append(PlayerSeat(p["name"], p.get("cpu", False), p.get("bot", "normal")))
        suits = data.get("suits")
        if suits is not None and not isinstance(suits, list):
            raise SetupError(f"suits must be a list or null, got {suits!r}"[:200])
        pos = data.get("position")
        return cls(tuple(seats), None if suits is None else tuple(suits), data.get("ace_eleven", False),
                   data.get("reveal_hands", False), data.get("jokers", False),
                   None if pos is None else Position.from_dict(pos))
