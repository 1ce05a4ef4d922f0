"""ipywidgets / ipyleaflet views of the Japan Conquest game."""

from conquest_widget.widget.app import JapanConquestApp
from conquest_widget.widget.map_view import MapView
from conquest_widget.widget.replay import ReplayExplorer

__all__ = ["JapanConquestApp", "MapView", "ReplayExplorer"]
