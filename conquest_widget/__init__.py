"""conquest_widget: conquest board games in Jupyter.

The flagship is Japan Conquest (全国制覇すごろく).  Sub-modules:

- :mod:`conquest_widget.maps.japan.board` — the 47 prefectures, 7 regions and game connections;
- :mod:`conquest_widget.maps.japan.geo` — prefecture shapes as a GeoDataFrame;
- :mod:`conquest_widget.games.japan_conquest` — the Japan Conquest rules engine.
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    # The widget is imported lazily so that the engines stay free of ipywidgets/ipyleaflet.
    if name in ("JapanConquestApp", "ReplayExplorer"):
        from conquest_widget import widget

        return getattr(widget, name)
    raise AttributeError(f"module 'conquest_widget' has no attribute {name!r}")
