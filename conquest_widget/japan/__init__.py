"""Japan Conquest (全国制覇すごろく): the rules engine.

Pure Python; imports nothing from ipywidgets or ipyleaflet.

    >>> from conquest_widget.japan import Game, GameSetup
    >>> game = Game(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> game.phase, [str(a) for a in game.legal_actions()]
    ('roll', ['roll 1', 'roll 2', 'roll 3'])
"""

from .actions import (
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
from .dice import (
    DiceExhaustedError,
    DiceSource,
    RandomDice,
    ScriptedDice,
    dice_from_dict,
)
from .game import Game
from .setup import GameSetup, PlayerSetup

__all__ = [
    "Action",
    "BattleRoll",
    "ConfirmRoute",
    "DiceExhaustedError",
    "DiceSource",
    "Edit",
    "Game",
    "GameSetup",
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
