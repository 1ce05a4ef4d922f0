"""What the Codex sounds like in the shell: engine event type -> sound effect (a key of
:data:`conquest_widget.ui.sound.EFFECTS`), given to the shell as ``GameUI.sounds``.  The
shell plays the most important effect an action produced, and itself adds the turn chime
when a human comes to act and the fanfare at the end.

    >>> SOUNDS["buy"]
    'claim'
"""

from __future__ import annotations

SOUNDS: dict[str, str] = {
    "turn": "turn_start", "roll": "roll", "buy": "claim", "place": "step", "eliminated": "battle", "end": "game_end",
}
