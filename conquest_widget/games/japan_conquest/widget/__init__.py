"""Japan Conquest in the shared shell: its :class:`~conquest_widget.ui.game_ui.GameUI`
(:mod:`.shell`: the board on the prefecture map, its own New game form, Watch CPUs, the
story of the game, its sounds) and ``App`` for the picker, the shell's app hosting it.

Its replays are the shell's explorer (:class:`conquest_widget.ReplayExplorer`) drawing
:class:`~.board.JapanBoard` with Japan's overlays (:mod:`.replay`).

    >>> App.__name__, App.ui.game
    ('JapanConquestApp', 'japan_conquest')
"""

# the modules of the app's first screen (its map, the board, the New game form) come with
# the package, so a preheated kernel (``conquest_widget.serve.warm_up``) has them imported
from conquest_widget.games.japan_conquest.widget import board, setup_form, stage  # noqa: F401
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.games.japan_conquest.widget.shell import UI
from conquest_widget.ui.match_app import app_class

#: the app of Japan Conquest (the shell's :class:`~conquest_widget.ui.match_app.MatchApp`)
App = JapanConquestApp = app_class(UI)

__all__ = ["UI", "App", "JapanConquestApp", "MapView"]
