"""ipywidgets / ipyleaflet views of the Japan Conquest game."""

from .app import JapanConquestApp
from .map_view import MapView
from .replay import ReplayExplorer

__all__ = ["JapanConquestApp", "MapView", "ReplayExplorer"]
