"""Every number and name of the Codex of Conquest's rules, in one place.

    >>> FACTIONS
    ('ember', 'tide', 'grove', 'sun')
    >>> faction_of_face(2), faction_of_face(5)
    ('tide', None)
    >>> price(7)
    7000
"""

from __future__ import annotations

#: the four factions, in colour-die order (faces 1-4); faces 5 and 6 are Jokers
FACTIONS: tuple[str, ...] = ("ember", "tide", "grove", "sun")

#: English and Japanese names of the factions (chosen by the project: the seed's list is empty)
FACTION_NAMES: dict[str, tuple[str, str]] = {
    "ember": ("Ember Legion", "紅蓮軍団"),
    "tide": ("Tide Covenant", "蒼潮盟約"),
    "grove": ("Grove Wardens", "翠林守護団"),
    "sun": ("Sun Throne", "金陽王朝"),
}

#: piece colours of the factions (#rrggbb)
FACTION_COLOURS: dict[str, str] = {
    "ember": "#c0392b",
    "tide": "#2e6fb7",
    "grove": "#2e8b57",
    "sun": "#d4a017",
}

#: pieces in each faction's supply; the 20th placed ends the game
SUPPLY = 20
#: a group of this size ends the game (stock value 15,000)
END_GROUP = 15
#: purchases allowed per turn, across both trade steps
MAX_PURCHASES = 5
#: price per piece of the largest group
PRICE_UNIT = 1000
#: territories, numbered 1-6, laid out in two rows of three: 1 2 3 / 4 5 6
TERRITORIES = (1, 2, 3, 4, 5, 6)
TERRITORY_COLUMNS = 3
#: the colour die's faces that are Jokers
JOKER_FACES = (5, 6)
#: side of a territory's grid: default and the allowed range
DEFAULT_K = 4
K_RANGE = range(2, 9)
#: starting cash: default and the largest allowed
DEFAULT_STARTING_CASH = 0
MAX_STARTING_CASH = 1_000_000
#: player counts
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def faction_of_face(face: int) -> str | None:
    """The faction a colour-die face shows, or None for a Joker (faces 5 and 6)."""
    return None if face in JOKER_FACES else FACTIONS[face - 1]


def price(largest_group: int) -> int:
    """A faction's share price: 1,000 x the size of its largest group (0 = unlisted)."""
    return PRICE_UNIT * largest_group


def faction_index(name: str) -> int:
    """The index 0-3 of a faction id; ValueError names the factions otherwise.

    >>> faction_index("sun")
    3
    """
    try:
        return FACTIONS.index(name)
    except ValueError:
        raise ValueError(f"unknown faction {name!r}: the factions are {', '.join(FACTIONS)}"[:200]) from None
