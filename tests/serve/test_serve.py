"""`conquest-widget play` / `notebooks` / `--version` and the `make play` / `make lab`
wiring (issues 16, 17, 19).  The browser and security checks of the running server are in
tests/e2e/test_server_security.py; here the command itself: what it prints and when, how it
stops, the app folder, the notebooks it ships, and its errors.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conquest_widget import __version__, serve
from conquest_widget._optional import MissingExtraError
from conquest_widget.cli import main

from .play_output import PlayOutput, as_from_a_terminal

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "conquest_widget.cli"]


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, cwd=cwd or ROOT,
                          env=env, check=False)


# ------------------------------------------------------------------ --version, simulate
def test_version() -> None:
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"conquest-widget {__version__}", out


def test_simulate_still_works_as_before() -> None:
    out = run_cli("simulate", "--players", "easy,normal", "--turns", "5", "--games", "2", "--seed", "1", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["games"] == 2
    bad = run_cli("simulate", "--players", "easy,easy", "--turns", "3", "--games", "1")
    assert bad.returncode == 2 and "conquest-widget: error:" in bad.stderr and "turns" in bad.stderr


# ------------------------------------------------------------------ notebooks
def test_the_wheel_carries_examples_as_the_bundled_notebooks() -> None:
    """examples/ is the single source: the wheel maps the whole folder to
    conquest_widget/notebooks/ (the wheel built from it was checked to hold play.ipynb,
    the teaching notebooks and the page template; tests/test_packaging.py builds it)."""
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert "examples" in wheel["only-include"] and "conquest_widget" in wheel["only-include"]
    assert wheel["sources"] == {"examples": "conquest_widget/notebooks"}
    assert serve.BUNDLED_NOTEBOOKS == serve.PACKAGE_DIR / "notebooks"
    assert (serve.JUPYTER_DATA / "voila" / "templates" / "conquest" / "index.html.j2").is_file()
    assert serve.notebooks_dir() == ROOT / "examples"  # a checkout serves examples/ itself


def test_notebooks_copies_them_and_never_overwrites_unasked(tmp_path: Path) -> None:
    dest = tmp_path / "my notebooks"
    assert main(["notebooks", str(dest)]) == 0
    names = sorted(p.name for p in dest.iterdir())
    assert names == sorted(p.name for p in (ROOT / "examples").glob("*.ipynb"))
    assert "play.ipynb" in names and len(names) >= 3
    (dest / "play.ipynb").write_text("my own edits")
    again = run_cli("notebooks", str(dest))
    assert again.returncode == 2 and "not overwriting" in again.stderr and "--force" in again.stderr
    assert (dest / "play.ipynb").read_text() == "my own edits"  # nothing was copied
    assert main(["notebooks", str(dest), "--force"]) == 0
    assert (dest / "play.ipynb").read_bytes() == (ROOT / "examples" / "play.ipynb").read_bytes()
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert run_cli("notebooks", str(a_file)).returncode == 2


# ------------------------------------------------------------------ the app folder
def test_app_folder_gets_the_app_notebook_and_refuses_a_foreign_one(tmp_path: Path) -> None:
    folder = serve.prepare_app_dir(tmp_path / "app")
    assert (folder / "play.ipynb").read_bytes() == (ROOT / "examples" / "play.ipynb").read_bytes()
    assert serve.prepare_app_dir(folder) == folder  # identical: kept
    (folder / "play.ipynb").write_text("someone else's notebook")
    with pytest.raises(serve.ServeError, match="not this version's app notebook"):
        serve.prepare_app_dir(folder)
    assert (folder / "play.ipynb").read_text() == "someone else's notebook"
    assert serve.prepare_app_dir(ROOT / "examples") == (ROOT / "examples").resolve()  # make play's folder


def test_the_default_folder_is_the_users_data_folder_and_is_kept_current(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform in ("win32", "darwin"):
        pytest.skip("XDG_DATA_HOME is the Linux convention")
    assert serve.default_app_dir() == tmp_path / "data" / "conquest_widget"
    folder = serve.prepare_app_dir(None)
    assert folder == tmp_path / "data" / "conquest_widget"
    (folder / "play.ipynb").write_text("an older version's app notebook")
    serve.prepare_app_dir(None)  # ours: replaced by this version's
    assert (folder / "play.ipynb").read_bytes() == (ROOT / "examples" / "play.ipynb").read_bytes()


# ------------------------------------------------------------------ errors before starting
def test_a_taken_port_is_named_and_nothing_starts(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(serve.PortInUseError, match=f"port {port} on 127.0.0.1 is in use"):
            serve.start(tmp_path, port)
        out = run_cli("play", "--port", str(port), "--dir", str(tmp_path))
    assert out.returncode == 2 and f"port {port}" in out.stderr and "http://" not in out.stdout, out


def test_without_the_app_extra_play_names_it(tmp_path: Path) -> None:
    """Voila made unimportable in a child interpreter (``sys.modules['voila'] = None`` is
    what Python does for a package that is not there) -- the real command, no mock."""
    code = ("import sys; sys.modules['voila'] = None; from conquest_widget.cli import main; "
            f"sys.exit(main(['play', '--port', '0', '--dir', {str(tmp_path)!r}]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 2, out
    assert "needs voila" in out.stderr and 'pip install "conquest_widget[app]"' in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
    assert issubclass(MissingExtraError, ImportError)


# ------------------------------------------------------------------ the running command
def test_play_prints_the_url_once_it_answers_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    proc = subprocess.Popen(as_from_a_terminal([*CLI, "play", "--port", "0", "--dir", str(tmp_path / "app")]), cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    out = PlayOutput(proc)
    try:
        found = out.wait_for(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{48})\b")
        assert found, f"no address printed (exit code {proc.poll()}):\n{out.text()}"
        port, token = int(found.group(1)), found.group(2)
        # printed only once the server answers: the very next request succeeds (with the token:
        # without it, even a static file is refused)
        static = f"http://127.0.0.1:{port}/voila/static/voila.js"
        with urllib.request.urlopen(urllib.request.Request(static, headers={"Authorization": f"token {token}"}),
                                    timeout=10) as r:
            assert r.status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(static, timeout=10)
        assert refused.value.code == 403
        assert not any("http://" in line for line in out.seen[:-1]), out.seen  # no earlier, unchecked address
        out.drain()
        assert str(tmp_path / "app" / "conquest_saves") in out.text()
        # it names what it serves: every playable game, not only Japan Conquest
        from conquest_widget.core import registry

        banner = next(line for line in out.seen if "running" in line)
        assert all(spec.title["en"] in banner for spec in registry.all_games() if spec.playable), banner
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in the terminal reaches the whole group
        try:
            code = proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            out.drain()
            pytest.fail(f"play did not stop within 90 s of Ctrl-C; its output:\n{out.text()}")
        assert code == 0, out.text()
        out.drain()
        assert "Stopping the conquest games server" in out.text() and "Japan Conquest server" not in out.text()
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=5)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def test_the_app_notebook_is_trusted_without_writing_to_the_users_jupyter_folder(tmp_path: Path) -> None:
    """Every page load logged "Notebook play.ipynb is not trusted" (issue 30): the server signs
    its own notebook at start, in memory, with a secret of its run."""
    import http.cookiejar
    import time

    data_dir = tmp_path / "jupyter_data"
    log_path = tmp_path / "server.log"
    with log_path.open("w") as log:
        server = serve.start(tmp_path / "app", port=0, log=log, new_session=True,
                             env={"JUPYTER_DATA_DIR": str(data_dir)})
        try:
            server.wait_ready()
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            with browser.open(server.url, timeout=180) as page:  # the page (run in a kernel)
                assert page.status == 200
                page.read()
            deadline = time.monotonic() + 180
            while "Kernel pool of play.ipynb is filled" not in log_path.read_text() and time.monotonic() < deadline:
                time.sleep(0.5)  # the preheated kernel ran the notebook too
        finally:
            server.stop()
    text = log_path.read_text()
    assert "Kernel pool of play.ipynb is filled" in text, text
    assert "not trusted" not in text, text
    assert "without encryption" not in text, text  # kernels talk over Unix sockets here
    assert not (data_dir / "nbsignatures.db").exists() and not (data_dir / "notebook_secret").exists()


# ------------------------------------------------------------------ make
def _make_n(*args: str) -> str:
    out = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.skipif(subprocess.run(["which", "make"], capture_output=True, check=False).returncode != 0,
                    reason="make is not installed")
def test_make_play_and_make_lab_honour_port() -> None:
    assert "conquest-widget play --dir examples --port 8866" in _make_n("play")
    assert "conquest-widget play --dir examples --port 9123" in _make_n("play", "PORT=9123")
    assert "--ServerApp.port=8888 " in _make_n("lab")
    assert "--ServerApp.port=9124 " in _make_n("lab", "PORT=9124")
    assert "--no-install-recommends" in _make_n("-B", "chromium", "CHROMIUM=/nonexistent/chromium")
