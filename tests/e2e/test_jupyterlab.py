"""The second documented way in (`make lab`): the same notebook in JupyterLab, offline.

JupyterLab serves a copy of examples/play.ipynb from a temporary directory, so its
autosave can never write outputs into the repository.

Deterministic by construction (it used to fail 3 runs in 6 on a "Select Kernel" dialog
that intercepted the click): the notebook's session and its ``python3`` kernel are created
through the server's REST API and are idle before the page is opened, so JupyterLab
attaches to them and has no kernel to choose (JupyterLab's ``autoStartDefaultKernel`` is
also on, should it ever look for one).  The test then waits for the notebook's kernel
indicator to be idle and runs the cell once.  Nothing sleeps, nothing is retried, and no
dialog may appear.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .harness import NOTEBOOK, free_port, stop, wait_until_ready

TOKEN = secrets.token_hex(24)  # as `make lab`: JupyterLab with a token


@pytest.fixture(scope="module")
def lab_url(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("lab-root")
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)
    port = free_port()
    log = artifacts / "jupyterlab.log"
    settings = tmp_path_factory.mktemp("lab-settings")
    tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text(json.dumps({"autoStartDefaultKernel": True}))
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1", HOME=str(tmp_path_factory.mktemp("lab-home")),
               JUPYTERLAB_SETTINGS_DIR=str(settings))
    args = [
        sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}",
        f"--ServerApp.root_dir={root}", "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if os.geteuid() == 0:
        args.append("--allow-root")
    with log.open("w") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=root, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_ready(url, proc, log, probe=f"api/status?token={TOKEN}")
        yield url
    finally:
        stop(proc)


def api(lab_url: str, path: str, body: dict | None = None):
    """A JSON request to the Jupyter server's REST API (GET, or POST with ``body``)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"token {TOKEN}"}
    req = urllib.request.Request(lab_url + path, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def test_play_notebook_in_jupyterlab(page, lab_url: str, offline, artifacts: Path) -> None:
    # The notebook's session and kernel exist before JupyterLab opens it (as when a notebook
    # with a running kernel is reopened), so JupyterLab has no kernel to choose or ask about.
    session = api(lab_url, "api/sessions", {"path": NOTEBOOK.name, "type": "notebook", "name": NOTEBOOK.name,
                                             "kernel": {"name": "python3"}})
    kernel = session["kernel"]["id"]
    dialogs = page.locator(".jp-Dialog")
    page.goto(lab_url + "lab/tree/" + NOTEBOOK.name + f"?token={TOKEN}")
    expect(page.locator(".jp-NotebookPanel")).to_be_visible(timeout=300_000)  # JupyterLab booted (slow on a busy machine)
    expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")).to_be_visible(timeout=300_000)
    expect(page.locator(".jp-Toolbar-kernelName")).to_have_text(re.compile(r"Python 3"))
    code = page.locator(".jp-CodeCell").first
    code.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    expect(code.locator(".jp-InputArea-prompt")).to_have_text(re.compile(r"\[\d+\]:"))  # it ran
    page.locator(".cw-pick-japan_conquest").click()  # the game picker comes first
    expect(page.locator("path.cw-pref")).to_have_count(47)
    page.locator(".cw-app-japan_conquest").get_by_role("button", name="New game", exact=True).click()
    expect(page.get_by_role("button", name="Start", exact=True)).to_be_visible()  # the kernel answers
    page.screenshot(path=str(artifacts / "20-jupyterlab.png"))
    assert dialogs.count() == 0, dialogs.all_inner_texts()
    assert [s["kernel"]["id"] for s in api(lab_url, "api/sessions")] == [kernel]  # the kernel it was given
    assert offline.blocked == []
