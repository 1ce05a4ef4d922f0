"""Every notebook in examples/ runs top to bottom without errors (nbclient, headless),
so no example can rot.  Kernel: ``python3`` from ipykernel, i.e. this interpreter."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_there_are_examples() -> None:
    assert any(nb.name == "play.ipynb" for nb in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_example_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nb = nbformat.read(path, as_version=4)
    monkeypatch.setenv("HOME", str(tmp_path))  # whatever an example writes stays out of ~ and the repo
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    if path.name == "play.ipynb":
        # the last cell shows the app: a widget view, not a text repr or an exception
        last = [c for c in nb.cells if c.cell_type == "code"][-1]
        assert any(WIDGET_VIEW in o.get("data", {}) for o in last.outputs), last.outputs
    if path.name == "teach_tables.ipynb":
        # every pair's table finished (CPUs stood in for the students) and its results were collected
        text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
        assert "3 of 3 tables finished" in text, text
        tables_shown = [o["data"].get("text/plain", "") for o in outputs if "data" in o]
        assert any("Aiko" in t and "rank" in t for t in tables_shown), tables_shown
