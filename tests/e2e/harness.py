"""The reusable parts of the browser tests, importable without pytest fixtures: Voila (and
other Jupyter servers) started from Python on a free local port, Debian's chromium launched
through Playwright for Python, and the offline guard that blocks every non-local request.

Used by ``tests/e2e/conftest.py`` (thin fixtures over this module) and by the browser
benchmark ``tests/benchmarks/test_bench_browser.py`` (which puts ``tests/`` on
``sys.path`` and imports ``e2e.harness``).
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
from contextlib import contextmanager
from pathlib import Path

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_ready(url: str, proc: subprocess.Popen, log: Path, probe: str = "voila/static/voila.js") -> None:
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


def stop(proc: subprocess.Popen) -> None:
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


def serve_copy(root: Path, notebook: Path = NOTEBOOK) -> Path:
    """Copy the notebook into ``root`` (its kernels run there, so the app's saves,
    ``conquest_saves/`` next to the notebook, never touch the repository)."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(notebook, root / notebook.name)
    return root


@contextmanager
def voila_server(served_dir: Path, home: Path, log: Path, notebook: str = NOTEBOOK.name) -> Iterator[str]:
    """Voila serving ``served_dir/notebook`` on a free local port; yields its URL and
    stops the server and all its kernels on exit."""
    port = free_port()
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1", PYTHONUNBUFFERED="1", HOME=str(home))
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", notebook, "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"],
            stdout=out, stderr=subprocess.STDOUT, cwd=served_dir, env=env, start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_ready(url, proc, log)
        yield url
    finally:
        stop(proc)


def voila_version() -> str:
    try:
        from importlib.metadata import version
        return version("voila")
    except Exception:  # noqa: BLE001 - a label only
        return "?"


def chromium_version() -> str:
    try:
        out = subprocess.run([CHROMIUM, "--version"], check=False, capture_output=True, text=True, timeout=30).stdout
        return out.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


@contextmanager
def chromium() -> Iterator:
    """Debian's chromium through Playwright (no Playwright browser download); yields the
    Browser.  Raises FileNotFoundError when chromium is missing."""
    if not os.access(CHROMIUM, os.X_OK):
        raise FileNotFoundError(f"{CHROMIUM} is missing: `make test` installs it (apt-get install -y chromium)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=PAGE_TIMEOUT_MS)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
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


def new_context(browser, offline: OfflineGuard):
    """A fresh browser context (English, 1400x1000) whose non-local requests are blocked."""
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    context.route("**/*", offline)
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    return context


def new_page(context):
    """A page of ``context`` that collects uncaught page errors in ``page.page_errors``."""
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.page_errors = errors  # type: ignore[attr-defined]
    return pg
