"""The package's page files: the JavaScript modules and style sheets of its front-end
widgets (anywidget's ``_esm`` / ``_css``), kept as real ``.js`` / ``.css`` files beside
their Python modules and read by :func:`conquest_widget.lean.page_file`.

Each ``.js`` file is checked as an ES module by ``node --check`` (a syntax check, offline;
skipped where Node.js is missing), and must put no data into HTML as markup: strings from
the kernel (names, texts of the game) reach the page through ``textContent`` and
``createElement`` only, never ``innerHTML`` / ``outerHTML`` / ``insertAdjacentHTML``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conquest_widget.lean import page_file

PACKAGE = Path(__file__).resolve().parents[1] / "conquest_widget"
JS = sorted(PACKAGE.rglob("*.js"))
CSS = sorted(PACKAGE.rglob("*.css"))


def test_the_page_files_are_found():
    names = {p.relative_to(PACKAGE).as_posix() for p in JS}
    assert {"ui/sound.js", "maps/quiet_pointer.js"} <= names, names


@pytest.mark.parametrize("path", JS, ids=[p.relative_to(PACKAGE).as_posix() for p in JS])
def test_each_module_is_valid_javascript(path: Path, tmp_path: Path):
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):  # `make test` installs it: in CI a missing Node.js is a failure, not a skip
            pytest.fail("Node.js is not installed (make test installs it: apt-get install nodejs)")
        pytest.skip("Node.js is not installed (apt-get install nodejs)")
    # as sent (page_file's text) and as written: both must parse as an ES module (.mjs)
    for name, text in (("as-written.mjs", path.read_text(encoding="utf-8")), ("as-sent.mjs", page_file(path))):
        copy = tmp_path / name
        copy.write_text(text, encoding="utf-8")
        proc = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 0, f"{path.name} ({name}):\n{proc.stderr}"


@pytest.mark.parametrize("path", JS, ids=[p.relative_to(PACKAGE).as_posix() for p in JS])
def test_no_module_writes_markup(path: Path):
    code = path.read_text(encoding="utf-8")
    assert not re.search(r"\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write)\b", code), path.name
    assert "export default" in code


@pytest.mark.parametrize("path", JS + CSS, ids=[p.relative_to(PACKAGE).as_posix() for p in JS + CSS])
def test_no_multi_line_literal_is_changed_by_sending(path: Path):
    """page_file strips indentation: a template literal spanning lines would change."""
    for line in path.read_text(encoding="utf-8").splitlines():
        assert line.count("`") % 2 == 0, f"{path.name}: {line!r}"
