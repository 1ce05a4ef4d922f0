"""Japan Conquest (全国制覇すごろく): the rules engine.

Pure Python; imports nothing from ipywidgets or ipyleaflet.

    >>> from conquest_widget.games.japan_conquest import Game, GameSetup
    >>> game = Game(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> game.phase, [str(a) for a in game.legal_actions()]
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
from conquest_widget.games.japan_conquest.game import Game
from conquest_widget.games.japan_conquest.setup import GameSetup, PlayerSetup

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
