"""Numbers of the Japan Conquest rules, in one place (seed rules; see docs/rules.md)."""

from __future__ import annotations

from typing import Final

#: prefectures on the board, coded 1..PREFECTURES (JIS order: 1 Hokkaido ... 47 Okinawa)
PREFECTURES: Final = 47
#: every prefecture code, in order
PREFECTURE_CODES: Final = range(1, PREFECTURES + 1)

# Prefecture levels.  0 = neutral (unowned).
NEUTRAL: Final = 0
TERRITORY: Final = 1
BASE: Final = 2
CASTLE: Final = 3
HOME: Final = 4

LEVEL_NAMES: Final = ("neutral", "territory", "base", "castle", "home")
LEVEL_BY_NAME: Final = {name: i for i, name in enumerate(LEVEL_NAMES)}
#: level value = base value x multiplier
LEVEL_MULTIPLIER: Final = (0, 1, 2, 3, 3)

#: dice options: number of dice rolled; 2 and 3 spend a Double / Triple Dice item
DICE_OPTIONS: Final = (1, 2, 3)
DIE_FACES: Final = 6

TOLL_CASTLE: Final = 20
TOLL_HOME: Final = 50
ENTER_FORTIFIED_COST: Final = 2  # entering an enemy castle or home base
REGION_ENTRY_SURCHARGE: Final = 1  # entering an opponent-controlled region from outside

CASTLE_DEFENCE: Final = 2
REGION_DEFENCE: Final = 1
FULL_REGION_DEFENCE: Final = 1
BATTLE_BONUS: Final = 10
DEFENCE_BONUS: Final = 10

PROSPERITY_CASTLE: Final = 15
PROSPERITY_HOME: Final = 30

REGION_BONUS_PER_PREFECTURE: Final = 30

STANDARD_TURNS: Final = (5, 10, 15, 30, 50)
FINAL_SHOWDOWN_TURNS: Final = 3
TRIPLE_DICE_EVERY: Final = 10  # on a player's turns 11, 21, 31, ...

MODES: Final = ("standard", "conquest", "total_conquest")
DIFFICULTIES: Final = ("easy", "normal", "hard")
STRATEGIES: Final = ("balanced", "aggressive", "expansionist", "defensive")
