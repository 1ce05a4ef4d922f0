"""The reusable parts of the browser tests, importable without pytest fixtures: the app's
Voila server started exactly as ``make play`` / ``conquest-widget play`` start it
(:func:`conquest_widget.serve.start`: local Host names only, a token in the URL, kernel
culling, no CDN) on a free local port, other Jupyter servers, Debian's chromium launched
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
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conquest_widget.serve import AppServer, start

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "play.ipynb"
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
CHROMIUM = os.environ.get("CONQUEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
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
def voila_app(served_dir: Path, home: Path, log: Path, **start_kwargs) -> Iterator[AppServer]:
    """The app server (:func:`conquest_widget.serve.start`, as ``make play`` runs it) serving
    ``served_dir/play.ipynb`` on a free local port; yields the :class:`AppServer` (``url``
    carries the token, ``base_url`` does not) and stops the server and all its kernels on
    exit.  ``start_kwargs``: e.g. short ``cull_idle_timeout``/``cull_interval``."""
    env = {"JUPYTER_PLATFORM_DIRS": "1", "HOME": str(home)}
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        server = start(served_dir, 0, log=out, env=env, new_session=True, **start_kwargs)
    try:
        server.wait_ready(SERVER_START_TIMEOUT, describe=lambda: f"; see {log}:\n{log.read_text()[-3000:]}")
        yield server
    finally:
        server.stop()


@contextmanager
def voila_server(served_dir: Path, home: Path, log: Path, **start_kwargs) -> Iterator[str]:
    """:func:`voila_app`, yielding only the URL to open (with the token)."""
    with voila_app(served_dir, home, log, **start_kwargs) as server:
        yield server.url


def kernel_processes(server: AppServer) -> list:
    """The kernel processes the server has running now (``psutil.Process`` objects)."""
    import psutil

    try:
        children = psutil.Process(server.proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    alive = []
    for p in children:
        try:
            if "ipykernel_launcher" in " ".join(p.cmdline()) and p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p)
        except psutil.NoSuchProcess:
            continue
    return alive


def voila_version() -> str:
    try:
        from importlib.metadata import version
        return version("voila")
    except Exception:
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
        """Every blocked request: the app's pages make none (no exception, not even for
        Voila's template, whose CDN links the app's page template leaves out)."""
        return list(self.blocked)


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


def open_hosted_game(page, url: str, game_id: str):
    """Open the app at ``url``, pick the game ``game_id`` in the game picker and wait for
    that game's start screen (the shell's "New game" button); returns the page."""
    from playwright.sync_api import expect

    page.goto(url)
    pick = page.locator(f".cw-pick-{game_id}")
    expect(pick).to_be_enabled()
    pick.click()
    expect(page.get_by_role("button", name="New game", exact=True)).to_be_visible()
    return page


def record_frames(page) -> list[str]:
    """Every websocket frame ``page`` receives from now on, as text, in a list that grows
    while the page runs (call it before the page opens its kernel's websocket)."""
    frames: list[str] = []

    def on_ws(ws) -> None:
        ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    page.on("websocket", on_ws)
    return frames


#: Counts what a page sends on its kernel websocket in ``window.__wsSent`` (add it with
#: ``page.add_init_script`` before the page opens the websocket).
WS_COUNT_JS = """
(() => {
  window.__wsSent = 0;
  const Orig = window.WebSocket;
  const Counting = function(...args) {
    const ws = new Orig(...args);
    const send = ws.send.bind(ws);
    ws.send = data => { window.__wsSent += 1; send(data); };
    return ws;
  };
  Counting.prototype = Orig.prototype;
  Object.assign(Counting, Orig);
  window.WebSocket = Counting;
})();
"""


#: Keeps the text of every message a page sends on its websockets in ``window.__wsSentText``
#: (binary frames decoded as UTF-8; add it with ``page.add_init_script`` before the page
#: opens a websocket), so that a test can look for a kind of message however late it comes.
WS_RECORD_JS = """
(() => {
  window.__wsSentText = [];
  const send = window.WebSocket.prototype.send;
  window.WebSocket.prototype.send = function (data) {
    let text = '?';
    try { text = typeof data === 'string' ? data : new TextDecoder().decode(data); } catch (e) {}
    window.__wsSentText.push(text);
    return send.call(this, data);
  };
})();
"""


def comm_contents(frames: list[str]) -> Iterator[dict]:
    """The content of every comm message (``comm_open``, ``comm_msg``) in ``frames``, in
    order: each frame's JSON parts are read whole (a text frame is one JSON message; a
    binary frame of the v1 websocket protocol holds its parts one after another)."""
    import json

    decoder = json.JSONDecoder()
    for frame in frames:
        try:
            whole = json.loads(frame)
        except ValueError:
            whole = None
        if isinstance(whole, dict):
            content = whole.get("content")
            if isinstance(content, dict) and "comm_id" in content:
                yield content
            continue
        i = frame.find('{"')
        while i >= 0:
            try:
                part, end = decoder.raw_decode(frame, i)
            except ValueError:
                i = frame.find('{"', i + 1)
                continue
            if isinstance(part, dict) and "comm_id" in part:
                yield part
            i = frame.find('{"', end)


def painter_scenes(frames: list[str]) -> Iterator[dict]:
    """The scene of a page's map painter (``conquest_widget.maps.painter``) after each
    message to one, rebuilt from ``frames`` as the page rebuilds it (``scene.js``): opened,
    or the whole scene again, then each patch merged, in order."""
    from conquest_widget.scene import read_message

    scenes: dict[str, dict] = {}
    for content in comm_contents(frames):
        cid, data = content["comm_id"], content.get("data") or {}
        state = data.get("state") if isinstance(data, dict) else None
        if isinstance(state, dict) and isinstance(state.get("scene"), dict) and "m" in state["scene"]:
            scenes[cid] = dict(state["scene"])                  # opened, or the whole scene again
        elif cid in scenes and data.get("method") == "custom":
            msg = read_message(data.get("content"))   # [n, patch, drop, prefixes] (scene.js)
            if msg is None:
                continue
            for key in msg.get("drop") or []:
                scenes[cid].pop(key, None)
            for prefix in msg.get("*") or []:  # every key that starts with it (scene.js)
                for key in [k for k in scenes[cid] if k.startswith(prefix)]:
                    del scenes[cid][key]
            scenes[cid].update(msg["patch"])
        else:
            continue
        yield scenes[cid]


def painted_in_page(frames: list[str]) -> list[dict[int, dict]]:
    """What the pages' map painters were told to show (:func:`painter_scenes`): after each
    message to a painter, for each prefecture code it restyles, its style (``fill_color``,
    ``color``...).  One dict per such message, in order."""
    from conquest_widget.maps.painter import STYLE_KEYS

    shown: list[dict[int, dict]] = []
    for scene in painter_scenes(frames):
        # a style's number: "s<i>", else the public palette's S[i - 1] (painter.js paintList)
        palette = {f"s{i}": style for i, style in enumerate(scene.get("S") or [], 1)} | scene
        shown.append({int(k): dict(zip(STYLE_KEYS, palette[f"s{scene[k]}"], strict=True))
                      for k in scene["m"] if k in scene and f"s{scene[k]}" in palette})
    return shown


def labels_in_page(frames: list[str]) -> list[dict[int, str]]:
    """The labels the pages' map painters were told to draw (:func:`painter_scenes`): after
    each message to a painter, each label's HTML as the page puts it together (a label sent
    as the numbers of its parts included: ``painter.scene_labels``).  One dict per message."""
    from conquest_widget.maps.painter import scene_labels

    return [scene_labels(scene) for scene in painter_scenes(frames)]
