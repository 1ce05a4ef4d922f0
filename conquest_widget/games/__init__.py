"""One folder per game (engine, CPU players, text, widget), and the registry as a call.

``conquest_widget.games`` is both this package and the way to list the registry:
calling it returns every registered game's spec (a package and a function of the same
name on ``conquest_widget`` cannot otherwise coexist, and both are part of the API).

    >>> import conquest_widget
    >>> [g.id for g in conquest_widget.games()][:2]
    ['japan_conquest', 'conquest_cards']
"""

from __future__ import annotations

import sys
import types


class _CallableModule(types.ModuleType):
    def __call__(self) -> list:
        from conquest_widget.core.registry import all_games

        return all_games()


sys.modules[__name__].__class__ = _CallableModule
