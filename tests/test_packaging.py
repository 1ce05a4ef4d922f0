"""The package as a pip user gets it: sdist and wheel contents, a lean core install, the
``explore`` and ``app`` extras, and a README whose Python snippets run as written.

The wheel tests build the sdist and wheel with ``python -m build`` and install the wheel
into ONE fresh virtual environment outside the repository per test session (first bare,
then with its ``app`` extra), from pip's usual index and cache.  That takes a few minutes;
they carry the ``packaging`` marker (``pytest -m "not packaging"`` leaves them out).
The fast tests (missing-extra messages, README snippets, doctests of the private helper
and the widget reprs) run in the development environment.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tarfile
import textwrap
import urllib.request
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from serve.play_output import PlayOutput, as_from_a_terminal

from conquest_widget import __version__
from conquest_widget._optional import MissingExtraError, require

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
EXPLORE = ("geopandas", "pandas", "networkx", "matplotlib")
GEODATA = "conquest_widget/maps/japan/data/"

# Every function that needs the `explore` extra, as (label, code run with `game` defined).
EXPLORE_CALLS = [
    ("geo.prefectures_gdf()", "from conquest_widget.maps.japan import geo; geo.prefectures_gdf()"),
    ("analysis.state_gdf()", "analysis.state_gdf(game)"),
    ("analysis.battle_odds_table()", "analysis.battle_odds_table()"),
    ("JapanBoard.to_networkx()", "from conquest_widget.maps.japan import board; board.japan().to_networkx()"),
    ("analysis.game_graph()", "analysis.game_graph(game, 0)"),
    ("analysis.distances_from()", "analysis.distances_from(game, 13, 0)"),
]
EXPLORE_PRELUDE = (
    "from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, analysis\n"
    "game = JapanMatch(GameSetup.quick(['Tokyo', 'Osaka'], seed=1))\n"
)
EXTRA_HINT = 'pip install "conquest_widget[explore]"'


def _run(cmd: list[str], *, cwd: Path, timeout: float = 900, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run a command; fail the test with its output if it fails."""
    proc = subprocess.run(cmd, check=False, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(map(str, cmd))} exited {proc.returncode}\n--- stdout\n{proc.stdout[-4000:]}\n"
                    f"--- stderr\n{proc.stderr[-4000:]}")
    return proc


def _clean_env() -> dict[str, str]:
    """The environment without this venv's traces, so the fresh venv stands on its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != bindir)
    return env


# --------------------------------------------------------------------------- fast: in the repo


@pytest.mark.parametrize(("label", "code"), EXPLORE_CALLS, ids=[c[0] for c in EXPLORE_CALLS])
def test_explore_function_names_the_extra_when_its_library_is_missing(label, code, tmp_path):
    """With the explore libraries made unimportable (None in sys.modules, as Python does for a
    blocked import), each explore function raises MissingExtraError naming the extra."""
    script = EXPLORE_PRELUDE + textwrap.dedent(f"""
        import sys
        for name in {EXPLORE!r}:
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[loaded]
            sys.modules[name] = None
        from conquest_widget._optional import MissingExtraError
        try:
            {code}
        except MissingExtraError as exc:
            assert isinstance(exc, ImportError) and exc.extra == "explore", exc
            print(exc)
        else:
            raise SystemExit("no error")
    """)
    out = _run([sys.executable, "-c", script], cwd=tmp_path).stdout.strip()
    assert out.startswith(label + " needs "), out
    assert EXTRA_HINT in out


def test_require_returns_the_module_and_reraises_broken_installs(tmp_path, monkeypatch):
    assert require("json", extra="explore", feature="x").dumps([1]) == "[1]"
    with pytest.raises(MissingExtraError, match=r"^f\(\) needs no_such_mod_q, which is not installed: .*\[app\]"):
        require("no_such_mod_q.sub", extra="app", feature="f()")
    # a module that is installed but whose own dependency is missing: the original error, unchanged
    (tmp_path / "half_installed_q").mkdir()
    (tmp_path / "half_installed_q" / "__init__.py").write_text("import no_such_dependency_q\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as info:
        require("half_installed_q", extra="explore", feature="f()")
    assert not isinstance(info.value, MissingExtraError) and info.value.name == "no_such_dependency_q"


def test_private_docstring_examples():
    """Docstrings tests/test_docstrings.py leaves out (private module, widget modules)."""
    import conquest_widget._optional as optional
    from conquest_widget.games.japan_conquest.widget import map_view

    assert doctest.testmod(optional).failed == 0
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for obj, module in ((map_view.MapView.set_basemap, map_view),):
        for test in doctest.DocTestFinder().find(obj, globs=vars(module)):
            runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_short_reprs():
    from conquest_widget import JapanConquestApp
    from conquest_widget.games.japan_conquest import GameSetup, JapanMatch

    app = JapanConquestApp(lang="ja", save_dir=None)
    assert repr(app) == "<JapanConquestApp screen='start' lang='ja' saves=None>"
    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka", "Fukuoka"], mode="conquest", seed=2))
    game.roll(1)
    assert re.fullmatch(r"<JapanMatch conquest \[Player 1, Player 2, Player 3\] phase=\w+ turn=1>", repr(game)), repr(game)


def _python_snippets() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)


def test_readme_starts_with_pip_install_and_play():
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"^```\w*\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE).group(1)
    assert 'pip install "conquest_widget[app]"' in first_block
    assert "conquest-widget play" in first_block
    assert text.index("conquest-widget play") < text.index("make play") < text.index("make test")
    # no relative links: the README is the package's index page on PyPI
    prose = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)  # links live outside code
    assert not re.findall(r"\]\((?!https?://|#)[^)]*\)", prose)


@pytest.mark.parametrize("index", range(len(_python_snippets())))
def test_readme_python_snippet_runs_as_written(index, tmp_path):
    """Each ```python block of README.md runs on its own, in an empty directory."""
    snippet = _python_snippets()[index]
    _run([sys.executable, "-c", snippet], cwd=tmp_path, timeout=300)


# --------------------------------------------------------------------------- slow: built wheel


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> dict[str, Path]:
    """The sdist and wheel, built with `python -m build` (isolated, from the index)."""
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], cwd=out)
    (wheel,) = out.glob("conquest_widget-*.whl")
    (sdist,) = out.glob("conquest_widget-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="session")
def wheel_venv(dist, tmp_path_factory) -> dict:
    """A fresh venv outside the repository with the bare wheel installed (no extras)."""
    base = tmp_path_factory.mktemp("wheel-venv")
    assert ROOT not in base.resolve().parents
    venv = base / "venv"
    env = _clean_env()
    _run([sys.executable, "-m", "venv", str(venv)], cwd=base, env=env)
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", str(dist["wheel"])], cwd=base, env=env)
    frozen = _run([str(python), "-m", "pip", "list", "--format=json"], cwd=base, env=env).stdout
    workdir = base / "elsewhere"
    workdir.mkdir()
    return {"python": python, "bin": venv / "bin", "env": env, "cwd": workdir, "dist": dist,
            "bare_packages": {p["name"].lower().replace("_", "-") for p in json.loads(frozen)}}


@pytest.fixture(scope="session")
def app_venv(wheel_venv) -> dict:
    """The same venv after `pip install "<wheel>[app]"`."""
    spec = f"{wheel_venv['dist']['wheel']}[app]"
    _run([str(wheel_venv["python"]), "-m", "pip", "install", "--quiet", spec], cwd=wheel_venv["cwd"], env=wheel_venv["env"])
    return wheel_venv


@pytest.mark.packaging
def test_sdist_and_wheel_carry_licences_types_and_metadata(dist):
    with zipfile.ZipFile(dist["wheel"]) as whl:
        names = set(whl.namelist())
        info = f"conquest_widget-{__version__}.dist-info/"
        meta = Parser().parsestr(whl.read(info + "METADATA").decode())
        assert "MIT License" in whl.read(info + "licenses/LICENSE").decode()
        assert "Apache License" in whl.read(GEODATA + "LICENSE.japanmap").decode()
        notice = whl.read(GEODATA + "japan_prefectures.README.md").decode()
    assert {"conquest_widget/py.typed", GEODATA + "japan_prefectures.geojson", GEODATA + "japan_board.json"} <= names
    # the page files of the front-end widgets (anywidget's _esm / _css, read from the package)
    page_files = {p.relative_to(ROOT).as_posix() for ext in ("js", "css") for p in (ROOT / "conquest_widget").rglob(f"*.{ext}")}
    assert "conquest_widget/ui/sound.js" in page_files and page_files <= names, page_files - names
    assert "Modifications made to the source data" in notice and "Copyright 2022 Saito Tsutomu" in notice
    assert meta["License-Expression"] == "MIT AND Apache-2.0"
    classifiers = meta.get_all("Classifier")
    assert {"Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.13", "Typing :: Typed"} <= set(classifiers)
    requires = meta.get_all("Requires-Dist")
    core = {re.split(r"[<>=;\[ ]", r)[0].lower() for r in requires if "extra ==" not in r}
    assert {"ipywidgets", "ipyleaflet", "traitlets", "shapely"} <= core
    assert not core & {*EXPLORE, "pyogrio", "pyproj", "voila", "jupyterlab", "ipykernel"}, core
    assert {"app", "explore", "test"} <= set(meta.get_all("Provides-Extra"))
    explore = {re.split(r"[<>=;\[ ]", r)[0].lower() for r in requires if "extra == 'explore'" in r}
    assert explore == set(EXPLORE)
    with tarfile.open(dist["sdist"]) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    assert {"LICENSE", "geodata/LICENSE.japanmap", "geodata/README.md", "conquest_widget/py.typed"} <= members
    assert page_files <= members, page_files - members


@pytest.mark.packaging
def test_bare_wheel_plays_and_explore_functions_name_the_missing_extra(wheel_venv):
    assert not set(EXPLORE) & wheel_venv["bare_packages"]
    assert not {"voila", "jupyterlab", "pyogrio", "pyproj"} & wheel_venv["bare_packages"]
    checks = "\n".join(
        textwrap.dedent(f"""
            try:
                {code}
            except MissingExtraError as exc:
                messages.append(str(exc))
        """)
        for _, code in EXPLORE_CALLS
    )
    script = EXPLORE_PRELUDE + textwrap.dedent("""
        import json, sys
        import conquest_widget
        from conquest_widget._optional import MissingExtraError
        from conquest_widget import JapanConquestApp
        assert "site-packages" in conquest_widget.__file__, conquest_widget.__file__
        app = JapanConquestApp(save_dir=None)   # the widget needs only the core install
        game.roll(1)
        messages = []
    """) + checks + textwrap.dedent("""
        print(json.dumps({"app": repr(app), "game": repr(game), "messages": messages}))
    """)
    out = json.loads(_run([str(wheel_venv["python"]), "-c", script], cwd=wheel_venv["cwd"], env=wheel_venv["env"]).stdout)
    assert out["app"] == "<JapanConquestApp screen='start' lang='en' saves=None>"
    assert out["game"].startswith("<JapanMatch standard [Player 1, Player 2] phase="), out["game"]
    assert [m.split(" needs ")[0] for m in out["messages"]] == [label for label, _ in EXPLORE_CALLS]
    assert all(EXTRA_HINT in m for m in out["messages"]), out["messages"]


@pytest.mark.packaging
def test_wheel_with_app_extra_builds_the_app_and_runs_the_command(app_venv):
    python, cwd, env = app_venv["python"], app_venv["cwd"], app_venv["env"]
    script = textwrap.dedent("""
        import conquest_widget, ipywidgets, voila
        from conquest_widget import JapanConquestApp
        app = JapanConquestApp()                 # saves in ./conquest_saves, created on first save
        print(repr(app), conquest_widget.__file__)
    """)
    out = _run([str(python), "-c", script], cwd=cwd, env=env).stdout
    assert out.startswith("<JapanConquestApp screen='start' lang='en' saves='conquest_saves'>")
    assert "site-packages" in out
    command = str(app_venv["bin"] / "conquest-widget")
    version = _run([command, "--version"], cwd=cwd, env=env).stdout.strip()
    assert version.endswith(__version__), version
    result = json.loads(_run(
        [command, "simulate", "--players", "easy,normal", "--turns", "5", "--games", "2", "--seed", "1", "--json"],
        cwd=cwd, env=env,
    ).stdout)
    assert result["games"] == 2, result


def _readme_commands() -> list[str]:
    """The `conquest-widget ...` lines of README.md's ```sh blocks."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)
    return [line.strip() for block in blocks for line in block.splitlines() if line.startswith("conquest-widget ")]


@pytest.mark.packaging
def test_readme_commands_run_in_the_installed_wheel(app_venv, tmp_path):
    """Every `conquest-widget` command of the README as written (`play` in the next test)."""
    commands = _readme_commands()
    assert {c.split()[1] for c in commands} >= {"play", "simulate", "notebooks"}, commands
    for line in commands:
        if line != "conquest-widget play":
            argv = shlex.split(line)
            _run([str(app_venv["bin"] / argv[0]), *argv[1:]], cwd=tmp_path, env=app_venv["env"])
    assert (tmp_path / "my_notebooks" / "play.ipynb").is_file()


@pytest.mark.packaging
def test_wheel_play_serves_the_app_on_localhost_and_stops(app_venv, tmp_path):
    """`conquest-widget play` from the installed wheel: the printed address answers on
    127.0.0.1 with the app page; Ctrl-C (SIGINT) stops the server and frees the port."""
    cmd = [str(app_venv["bin"] / "conquest-widget"), "play", "--port", "0", "--dir", str(tmp_path / "app")]
    proc = subprocess.Popen(as_from_a_terminal(cmd), cwd=app_venv["cwd"], env=app_venv["env"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    out = PlayOutput(proc)
    try:
        found = out.wait_for(r"http://127\.0\.0\.1:\d+/\S*")
        assert found, f"no address printed (exit code {proc.poll()}):\n{out.text()}"
        url = found.group(0)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(url, timeout=60) as response:
            page = response.read().decode("utf-8", "replace")
            assert response.status == 200
        assert "voila" in page.lower(), page[:2000]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0, out.text()
        with pytest.raises(OSError):
            urllib.request.urlopen(url, timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
