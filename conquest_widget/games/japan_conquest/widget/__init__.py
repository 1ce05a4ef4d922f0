"""ipywidgets / ipyleaflet views of the Japan Conquest game."""

from conquest_widget.games.japan_conquest.widget.app import JapanConquestApp
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.games.japan_conquest.widget.replay import ReplayExplorer
from conquest_widget.games.japan_conquest.widget.shell import UI

__all__ = ["UI", "JapanConquestApp", "MapView", "ReplayExplorer"]
