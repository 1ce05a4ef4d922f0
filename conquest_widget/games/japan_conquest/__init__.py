"""Japan Conquest (全国制覇すごろく): the rules engine.

Pure Python; imports nothing from ipywidgets or ipyleaflet.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> match = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> match.phase, [str(a) for a in match.legal_moves()]
    ('roll', ['roll 1', 'roll 2', 'roll 3'])
"""

from conquest_widget.games.japan_conquest.actions import (
    Action,
    BattleRoll,
    ConfirmRoute,
    Edit,
    Roll,
    Step,
    UndoStep,
    action_from_dict,
    parse_action,
)
from conquest_widget.games.japan_conquest.dice import (
    DiceExhaustedError,
    DiceSource,
    RandomDice,
    ScriptedDice,
    dice_from_dict,
)
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.setup import GameSetup, PlayerSetup

__all__ = [
    "Action",
    "BattleRoll",
    "ConfirmRoute",
    "DiceExhaustedError",
    "DiceSource",
    "Edit",
    "GameSetup",
    "JapanMatch",
    "PlayerSetup",
    "RandomDice",
    "Roll",
    "ScriptedDice",
    "Step",
    "UndoStep",
    "action_from_dict",
    "dice_from_dict",
    "parse_action",
]
