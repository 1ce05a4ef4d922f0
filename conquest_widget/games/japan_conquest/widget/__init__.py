"""ipywidgets / ipyleaflet views of the Japan Conquest game (its replays are the shell's
explorer, :class:`conquest_widget.ReplayExplorer`, drawing :class:`~.board.JapanBoard`)."""

from conquest_widget.games.japan_conquest.widget.app import JapanConquestApp
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.games.japan_conquest.widget.shell import UI

__all__ = ["UI", "JapanConquestApp", "MapView"]
