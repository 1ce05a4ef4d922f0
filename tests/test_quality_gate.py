"""The quality gate (`make lint`, run first by `make test`) can fail: a copy of the package
with one planted violation is refused by each of its three tools — ruff, mypy and the
import contracts — with the tools and configuration of pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is not installed: `make test` installs it (the 'lint' extra)", pytrace=False)
    return path


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package and pyproject.toml, copied (no tests, no caches)."""
    root = tmp_path_factory.mktemp("gate")
    shutil.copytree(ROOT / "conquest_widget", root / "conquest_widget",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # PYTHONPATH: the import contracts resolve `conquest_widget` to the copy, not the install
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300, check=False,
                          env={"PATH": str(BIN), "PYTHONPATH": str(cwd), "HOME": str(cwd)})


def _plant(copy: Path, module: str, line: str) -> Path:
    path = copy / module
    original = path.read_text()
    path.write_text(original + "\n" + line + "\n")
    return path


def test_the_import_contracts_refuse_a_game_imported_by_core(copy: Path) -> None:
    clean = _run([str(_tool("lint-imports"))], copy)
    assert clean.returncode == 0, clean.stdout[-2000:]
    path = _plant(copy, "conquest_widget/core/chance.py", "import conquest_widget.games.codex.engine  # planted")
    try:
        broken = _run([str(_tool("lint-imports"))], copy)
    finally:
        path.write_text(path.read_text().replace("import conquest_widget.games.codex.engine  # planted\n", ""))
    assert broken.returncode != 0
    assert "core imports no game" in broken.stdout and "BROKEN" in broken.stdout
    assert "conquest_widget.core.chance -> conquest_widget.games.codex.engine" in broken.stdout


def test_the_import_contracts_refuse_a_widget_library_in_an_engine(copy: Path) -> None:
    path = _plant(copy, "conquest_widget/games/codex/rules.py", "import ipywidgets  # planted")
    try:
        broken = _run([str(_tool("lint-imports"))], copy)
    finally:
        path.write_text(path.read_text().replace("import ipywidgets  # planted\n", ""))
    assert broken.returncode != 0
    assert "engines, rules and CPUs import no widget library BROKEN" in broken.stdout


def test_mypy_refuses_a_type_error_in_an_engine(copy: Path) -> None:
    path = _plant(copy, "conquest_widget/games/codex/market.py", 'PLANTED: int = "not a number"')
    try:
        broken = _run([str(_tool("mypy")), "--no-incremental", "conquest_widget/games/codex/market.py"], copy)
    finally:
        path.write_text(path.read_text().replace('PLANTED: int = "not a number"\n', ""))
    assert broken.returncode != 0
    assert "market.py" in broken.stdout and "[assignment]" in broken.stdout


def test_ruff_refuses_an_unused_import(copy: Path) -> None:
    path = _plant(copy, "conquest_widget/core/chance.py", "import os.path as planted_unused")
    try:
        broken = _run([str(_tool("ruff")), "check", "--no-cache", "conquest_widget/core/chance.py"], copy)
    finally:
        path.write_text(path.read_text().replace("import os.path as planted_unused\n", ""))
    assert broken.returncode != 0
    assert "F401" in broken.stdout
