"""Browser end-to-end fixtures: Voila serving examples/play.ipynb, Debian's chromium
driven by Playwright for Python, every non-local request blocked (the app must work
offline), screenshots written to ``test-artifacts/e2e/``.

Nothing here sleeps and hopes: every wait is for a state of the page (a button, the
prefecture shapes, a style attribute), with a generous timeout.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "play.ipynb"
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
CHROMIUM = os.environ.get("CONQUEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: Voila's own page template links Font Awesome from a CDN; the widgets do not need it.
VOILA_TEMPLATE_CDN = ("https://cdn.jsdelivr.net/npm/@fortawesome/",)
VIEWPORT = {"width": 1400, "height": 1000}
SERVER_START_TIMEOUT = 90  # seconds
PAGE_TIMEOUT_MS = 60_000  # kernel start + notebook execution + widget rendering


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_ready(url: str, proc: subprocess.Popen, log: Path, probe: str = "voila/static/voila.js") -> None:
    """Poll a cheap URL of the server (for Voila a static file: polling "/" would start
    a kernel each time) until it answers 200."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[2]} exited with {proc.returncode}; see {log}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + probe, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{proc.args[2]} did not answer within {SERVER_START_TIMEOUT}s; see {log}")


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM the process group (Voila and its kernels), then SIGKILL what is left."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # kernels that outlived the server
    except ProcessLookupError:
        pass
    proc.wait(timeout=15)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def served_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the served copy of examples/play.ipynb lives: its kernels run here, so the
    app's saves (``conquest_saves/`` next to the notebook) never touch the repository."""
    root = tmp_path_factory.mktemp("served")
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)
    return root


@pytest.fixture(scope="session")
def voila_url(artifacts: Path, served_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Voila serving (a copy of) examples/play.ipynb on a free local port; yields its URL."""
    port = _free_port()
    log = artifacts / "voila.log"
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1", PYTHONUNBUFFERED="1")
    env["HOME"] = str(tmp_path_factory.mktemp("voila-home"))
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", NOTEBOOK.name, "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"],
            stdout=out, stderr=subprocess.STDOUT, cwd=served_dir, env=env, start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_until_ready(url, proc, log)
        yield url
    finally:
        _stop(proc)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    # Module scope, not session: while Playwright's sync API is running, the main thread
    # has a running asyncio loop, which later (non-browser) tests must not see.
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install -y chromium)", pytrace=False)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=PAGE_TIMEOUT_MS)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class OfflineGuard:
    """Aborts every request that is not for the local server and remembers it."""

    def __init__(self) -> None:
        self.blocked: list[str] = []

    def __call__(self, route) -> None:
        url = route.request.url
        if url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def unexpected(self) -> list[str]:
        return [u for u in self.blocked if not u.startswith(VOILA_TEMPLATE_CDN)]


@pytest.fixture
def offline() -> OfflineGuard:
    return OfflineGuard()


@pytest.fixture
def page(browser, offline: OfflineGuard, artifacts: Path, request: pytest.FixtureRequest) -> Iterator:
    """A fresh browser context and page; on failure a screenshot is kept."""
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    context.route("**/*", offline)
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.page_errors = errors  # type: ignore[attr-defined]
    yield pg
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        try:
            pg.screenshot(path=str(artifacts / f"FAILED-{request.node.name}.png"), full_page=True)
        except Exception:  # noqa: BLE001 - best effort on a broken page
            pass
    context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep
