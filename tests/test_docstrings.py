"""The usage examples in the package's docstrings run and show what they claim."""

import doctest
import importlib
import pkgutil

import pytest

import conquest_widget

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(conquest_widget.__path__, "conquest_widget.")
    if not m.name.split(".")[-1].startswith("_") and ".widget" not in m.name and ".app" not in m.name
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
