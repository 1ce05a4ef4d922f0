"""What Japanese Risk sounds like in the shell: engine event type -> sound effect (a key of
:data:`conquest_widget.ui.sound.EFFECTS`), given to the shell as ``GameUI.sounds``.  The
shell plays the most important effect an action produced, and itself adds the turn chime
when a human comes to act and the fanfare at the end.

    >>> SOUNDS["captured"]
    'claim'
"""

from __future__ import annotations

SOUNDS: dict[str, str] = {
    "turn": "turn_start", "captured": "claim", "battle_round": "battle", "castle_built": "upgrade",
    "game_over": "game_end",
}
