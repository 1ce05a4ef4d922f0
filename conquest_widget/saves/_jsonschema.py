"""Import :mod:`jsonschema` without paying for ``rfc3987_syntax`` up front (issue 18).

``jsonschema._format`` (imported by ``import jsonschema``) registers its ``iri`` format
checker by importing ``rfc3987_syntax`` when that package is installed (Jupyter installs
it), and ``rfc3987_syntax`` builds an Earley parser of RFC 3987 at import: about 1 s of CPU,
paid by every kernel the moment a save file is first checked (the app's start screen), for
a format the saves never use (their checker, :data:`conquest_widget.saves.schemas._FORMATS`,
knows only the package's own formats).

:func:`load` imports jsonschema with a stand-in ``rfc3987_syntax`` module whose
``is_valid_syntax`` imports the real package on its first call and hands it the call, then
takes the stand-in out of :data:`sys.modules` again, so that

- jsonschema's ``iri`` / ``iri-reference`` checks behave exactly as before (the first one
  pays the parser's import instead of ``import jsonschema``), and
- anyone importing ``rfc3987_syntax`` later gets the real package.

Importing this module calls :func:`load`: :mod:`conquest_widget.saves` imports it before
any of its modules imports jsonschema.  Nothing is changed when jsonschema or rfc3987_syntax is already imported, or when
rfc3987_syntax is not installed.

    >>> js = load()
    >>> js.Draft202012Validator({"format": "iri"}, format_checker=js.FormatChecker()).is_valid("http://例え.jp/")
    True
    >>> js.Draft202012Validator({"format": "iri"}, format_checker=js.FormatChecker()).is_valid("no iri")
    False
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from types import ModuleType
from typing import Any

_NAME = "rfc3987_syntax"
_LOCK = threading.Lock()


def _real_is_valid_syntax(term: str, value: str) -> Any:
    """``rfc3987_syntax.is_valid_syntax``, importing the package on the first call."""
    stand_in = sys.modules.get(_NAME)
    if stand_in is not None and getattr(stand_in, "__conquest_stand_in__", False):
        del sys.modules[_NAME]  # an import running while jsonschema is imported: not ours to keep
    from rfc3987_syntax import is_valid_syntax

    return is_valid_syntax(term, value)


def load() -> ModuleType:
    """Import :mod:`jsonschema` (see the module's docstring) and return it."""
    if "jsonschema" in sys.modules:
        return sys.modules["jsonschema"]
    with _LOCK:
        if "jsonschema" in sys.modules or _NAME in sys.modules or importlib.util.find_spec(_NAME) is None:
            import jsonschema

            return jsonschema
        stand_in = ModuleType(_NAME, "Stand-in: imports the real rfc3987_syntax on first use (conquest_widget).")
        stand_in.is_valid_syntax = _real_is_valid_syntax  # type: ignore[attr-defined]
        stand_in.__conquest_stand_in__ = True  # type: ignore[attr-defined]
        sys.modules[_NAME] = stand_in
        try:
            import jsonschema
        finally:
            if sys.modules.get(_NAME) is stand_in:
                del sys.modules[_NAME]
        return jsonschema


load()
