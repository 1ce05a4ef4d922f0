"""ipywidgets / ipyleaflet views of the Japan Conquest game."""

from .app import JapanConquestApp
from .map_view import MapView

__all__ = ["JapanConquestApp", "MapView"]
