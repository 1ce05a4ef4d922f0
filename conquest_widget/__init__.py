"""conquest_widget: conquest board games in Jupyter.

Four games share one shell: Japan Conquest (全国制覇すごろく, the flagship), Conquest (a
card game), The Codex of Conquest and Japanese Risk.

    >>> import conquest_widget
    >>> [g.id for g in conquest_widget.games()]
    ['japan_conquest', 'conquest_cards', 'codex', 'japanese_risk']

- :func:`games` — the registry (:mod:`conquest_widget.core.registry`);
- :class:`ConquestApp` — the game picker and shell; :class:`JapanConquestApp` — Japan Conquest;
- :class:`ReplayExplorer` — any game's replay (a match, a save or a game file), scrubbed and branched;
- :mod:`conquest_widget.core` — the match protocol every engine implements;
- :mod:`conquest_widget.games` — one folder per game (engine, CPUs, text, widget);
- :mod:`conquest_widget.maps.japan` — the prefecture board and outlines.
"""

from conquest_widget import games  # the games package; calling it lists the registry
from conquest_widget.core.registry import GameSpec

__version__ = "0.1.0"
__all__ = ["ConquestApp", "GameSpec", "JapanConquestApp", "ReplayExplorer", "games"]


def __getattr__(name: str):
    # Widgets are imported lazily so that the engines stay free of ipywidgets/ipyleaflet.
    if name == "JapanConquestApp":
        from conquest_widget.games.japan_conquest.widget import JapanConquestApp

        return JapanConquestApp
    if name == "ReplayExplorer":  # any game's replay (a Japan Conquest one draws its map)
        from conquest_widget.ui.replay import ReplayExplorer

        return ReplayExplorer
    if name == "ConquestApp":
        from conquest_widget.ui.app import ConquestApp

        return ConquestApp
    raise AttributeError(f"module 'conquest_widget' has no attribute {name!r}")
