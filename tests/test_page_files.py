"""The package's page files: the JavaScript modules and style sheets of its front-end
widgets (anywidget's ``_esm`` / ``_css``), kept as real ``.js`` / ``.css`` files beside
their Python modules and read by :func:`conquest_widget.lean.page_file`.

Each ``.js`` file is checked as an ES module by ``node --check`` (a syntax check, offline;
skipped where Node.js is missing), and must put no data into HTML as markup: strings from
the kernel (names, texts of the game) reach the page through ``textContent`` and
``createElement`` only, never ``innerHTML`` / ``outerHTML`` / ``insertAdjacentHTML``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from page_runner import node

from conquest_widget.lean import page_file

PACKAGE = Path(__file__).resolve().parents[1] / "conquest_widget"
JS = sorted(PACKAGE.rglob("*.js"))
CSS = sorted(PACKAGE.rglob("*.css"))


def test_the_page_files_are_found():
    names = {p.relative_to(PACKAGE).as_posix() for p in JS}
    assert {"ui/sound.js", "maps/quiet_pointer.js"} <= names, names


#: files put before a widget's own module in the one ES module it sends (no export of their own)
PRELUDES = {"scene.js", "ui/form_parts.js"}


def _check(node: str, text: str, copy: Path) -> None:
    copy.write_text(text, encoding="utf-8")
    proc = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, f"{copy.name}:\n{proc.stderr}"


@pytest.mark.parametrize("path", JS, ids=[p.relative_to(PACKAGE).as_posix() for p in JS])
def test_each_module_is_valid_javascript(path: Path, tmp_path: Path):
    exe = node()
    # as sent (page_file's text) and as written: both must parse as an ES module (.mjs)
    _check(exe, path.read_text(encoding="utf-8"), tmp_path / f"{path.stem}-as-written.mjs")
    _check(exe, page_file(path), tmp_path / f"{path.stem}-as-sent.mjs")


def _scene_widgets() -> list[type]:
    """Every scene widget class of the package (their modules imported)."""
    import importlib

    from conquest_widget.ui.scene import SceneWidget

    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        if path.with_suffix(".js").exists() and path.name != "__init__.py":
            importlib.import_module(module)
    found, todo = [], list(SceneWidget.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    # the package's own classes: a class a doctest or a test made (say scene.py's Counter)
    # is not its module's attribute
    import sys

    return sorted({c for c in found if c.__module__.startswith("conquest_widget.")
                   and getattr(sys.modules.get(c.__module__), c.__name__, None) is c}, key=lambda c: c.__qualname__)


def test_each_scene_widget_sends_one_valid_module(tmp_path: Path):
    """A scene widget's module is scene.js followed by its own file: as sent, together,
    it parses as one ES module with one default export."""
    exe = node()
    widgets = _scene_widgets()
    assert {"LogView", "CardsBoard", "CodexBoard"} <= {c.__name__ for c in widgets}, widgets
    for cls in widgets:
        code = cls._esm  # anywidget makes it a synced trait once a model is made: its default
        code = getattr(code, "default_value", code)
        assert code.count("export default") == 1 and "function sceneInitialize" in code, cls
        _check(exe, code, tmp_path / f"{cls.__name__}.mjs")


def test_each_form_sends_one_valid_module(tmp_path: Path):
    """A New game form's module is form_parts.js followed by its own file: as sent,
    together, it parses as one ES module with one default export."""
    from conquest_widget.games.japan_conquest.widget.setup_form import SetupScreen
    from conquest_widget.ui.setup_form import PageForm, SetupForm

    exe = node()
    assert {SetupForm, SetupScreen} <= set(PageForm.__subclasses__())
    for cls in PageForm.__subclasses__():
        code = getattr(cls._esm, "default_value", cls._esm)
        assert code.count("export default") == 1 and "function setToggles" in code, cls
        _check(exe, code, tmp_path / f"{cls.__name__}.mjs")


@pytest.mark.parametrize("path", JS, ids=[p.relative_to(PACKAGE).as_posix() for p in JS])
def test_no_module_writes_markup(path: Path):
    code = path.read_text(encoding="utf-8")
    assert not re.search(r"\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write)\b", code), path.name
    assert ("export default" in code) != (path.relative_to(PACKAGE).as_posix() in PRELUDES)


@pytest.mark.parametrize("path", JS + CSS, ids=[p.relative_to(PACKAGE).as_posix() for p in JS + CSS])
def test_no_multi_line_literal_is_changed_by_sending(path: Path):
    """page_file strips indentation: a template literal spanning lines would change."""
    for line in path.read_text(encoding="utf-8").splitlines():
        assert line.count("`") % 2 == 0, f"{path.name}: {line!r}"
