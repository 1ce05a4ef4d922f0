"""The second documented way in (`make lab`): the same notebook in JupyterLab, offline.

JupyterLab serves a copy of examples/play.ipynb from a temporary directory, so its
autosave can never write outputs into the repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .harness import NOTEBOOK, free_port, stop, wait_until_ready


@pytest.fixture(scope="module")
def lab_url(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("lab-root")
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)
    port = free_port()
    log = artifacts / "jupyterlab.log"
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1", HOME=str(tmp_path_factory.mktemp("lab-home")))
    args = [
        sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0", "--IdentityProvider.token=", "--ServerApp.password=",
        f"--ServerApp.root_dir={root}", "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if os.geteuid() == 0:
        args.append("--allow-root")
    with log.open("w") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=root, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_ready(url, proc, log, probe="api/status")
        yield url
    finally:
        stop(proc)


def test_play_notebook_in_jupyterlab(page, lab_url: str, offline, artifacts: Path) -> None:
    # JupyterLab may ask which kernel to start, at any moment: answer with the default
    dialog = page.locator(".jp-Dialog").filter(has_text="Select Kernel")
    page.add_locator_handler(dialog, lambda d: d.get_by_role("button", name="Select", exact=True).click())
    page.goto(lab_url + "lab/tree/" + NOTEBOOK.name)
    expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")).to_be_visible()
    code = page.locator(".jp-CodeCell").first
    prompt = code.locator(".jp-InputArea-prompt")
    for _ in range(3):  # a kernel dialog popping up swallows the run: run again
        code.click()
        page.keyboard.press("Shift+Enter")
        try:
            expect(prompt).to_have_text(re.compile(r"\[[\d*]+\]:"), timeout=15_000)  # queued or ran
            break
        except AssertionError:
            continue
    expect(page.locator("path.cw-pref")).to_have_count(47)
    page.get_by_role("button", name="New Game", exact=True).click()
    expect(page.get_by_role("button", name="Start", exact=True)).to_be_visible()  # the kernel answers
    page.screenshot(path=str(artifacts / "20-jupyterlab.png"))
    assert offline.blocked == []
