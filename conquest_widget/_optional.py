"""Imports of optional dependencies, with an error that names the extra to install.

The core install (``pip install conquest_widget``) is what playing needs.  The
exploring/teaching stack -- geopandas, pandas, networkx and matplotlib -- comes with
the ``explore`` extra (``pip install "conquest_widget[explore]"``), and the functions
that use it import it through :func:`require`:

    >>> from conquest_widget._optional import require
    >>> require("json", extra="explore", feature="a doctest").__name__
    'json'
    >>> require("no_such_module_xyz", extra="explore", feature="analysis.state_gdf()")
    Traceback (most recent call last):
    ...
    conquest_widget._optional.MissingExtraError: analysis.state_gdf() needs no_such_module_xyz, which is not installed: install the 'explore' extra with  pip install "conquest_widget[explore]"
"""

from __future__ import annotations

import importlib
from types import ModuleType

from conquest_widget.errors import ConquestError

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(ConquestError, ModuleNotFoundError):
    """An optional dependency is missing; the message names the extra that provides it.

    A :class:`ModuleNotFoundError` too, so code that catches ``ImportError`` keeps working.
    ``extra`` is the extra's name (e.g. ``"explore"``), ``name`` the missing module.
    """

    def __init__(self, message: str, *, name: str, extra: str) -> None:
        super().__init__(message, name=name)
        self.extra = extra


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` and return it, or raise :class:`MissingExtraError` naming ``extra``.

    ``feature`` is what needs the module (e.g. ``"geo.prefectures_gdf()"``); it starts
    the message.  Errors other than a missing module (a broken install) propagate as they are.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        top = module.partition(".")[0]
        if missing != module and missing.partition(".")[0] != top:
            raise  # the module exists but one of its own dependencies is broken: show that
        raise MissingExtraError(
            f"{feature} needs {top}, which is not installed: install the {extra!r} extra with "
            f' pip install "conquest_widget[{extra}]"',
            name=top,
            extra=extra,
        ) from exc
