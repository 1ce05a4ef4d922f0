"""Serve the app (the game picker and every playable game) with Voilà on this computer: ``conquest-widget play`` and
``make play`` (which calls it), and copy the example notebooks out (``conquest-widget
notebooks DIR``).

The server (configured in :mod:`conquest_widget._voila_app`) listens on 127.0.0.1 only,
answers only requests whose ``Host`` is a local name (``--host``, for a classroom or a LAN:
the address it binds and the names it is reached by; see :func:`served_names`), refuses kernel websockets from another
``Origin``, wants a random token (printed in the URL, as JupyterLab does) for everything but
its login page, shuts a kernel down when its tab is closed, culls kernels left without a
connection or never connected, keeps a bounded number of them, talks to them over Unix
sockets (not TCP) where there are some, and makes no request to the internet.  The URL is
printed once the server answers on its port.

The app runs in a folder of its own (``--dir``): a copy of the bundled ``play.ipynb`` is
served from there, and the game's saves go to ``conquest_saves/`` inside it.  The default
folder is the user's data folder (:func:`default_app_dir`).

    >>> app_url("127.0.0.1", 8866, "0123abcd")
    'http://127.0.0.1:8866/?token=0123abcd'
    >>> app_url("fe80::1", 8866, "0123abcd")
    'http://[fe80::1]:8866/?token=0123abcd'
    >>> "play.ipynb" in [p.name for p in example_notebooks()]
    True
"""

from __future__ import annotations

import filecmp
import importlib.util
import ipaddress
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO

from conquest_widget._optional import MissingExtraError
from conquest_widget.errors import ConquestError

PACKAGE_DIR = Path(__file__).resolve().parent
#: The notebooks inside an installed wheel (force-included from ``examples/`` at build time).
BUNDLED_NOTEBOOKS = PACKAGE_DIR / "notebooks"
#: The same notebooks in a source checkout (the single source of truth).
CHECKOUT_NOTEBOOKS = PACKAGE_DIR.parent / "examples"
#: Root of the package's Jupyter data (``voila/templates/conquest``), put on ``JUPYTER_PATH``.
JUPYTER_DATA = PACKAGE_DIR / "jupyter"
APP_NOTEBOOK = "play.ipynb"
HOST = "127.0.0.1"
DEFAULT_PORT = 8866
START_TIMEOUT = 120.0  # seconds for Voilà to answer (a cold start on a busy machine)
#: What the app server needs that the bare install lacks (import name -> distribution).
APP_MODULES = {"voila": "voila", "ipykernel": "ipykernel"}


#: addresses that mean "every address of this machine"
WILDCARDS = ("0.0.0.0", "::")
#: The environment variable naming the table store (``conquest_widget.tables.table.STORE_ENV``)
TABLES_STORE_ENV = "CONQUEST_TABLES_STORE"

#: Set by Voilà in the environment of the kernels it starts ahead of a page request (its
#: kernel pool, "preheating"): those kernels also run :func:`warm_up` when they start.
PREHEAT_ENV = "VOILA_PREHEAT"


class ServeError(ConquestError, RuntimeError):
    """The app server cannot be started (missing ``app`` extra, port in use, bad folder,
    the server exited or never answered)."""


class PortInUseError(ServeError):
    """The requested port is already taken on 127.0.0.1."""


def notebooks_dir() -> Path:
    """The folder of the example notebooks: inside the installed package, or ``examples/``
    of a source checkout.

    >>> (notebooks_dir() / "play.ipynb").is_file()
    True
    """
    for folder in (BUNDLED_NOTEBOOKS, CHECKOUT_NOTEBOOKS):
        if (folder / APP_NOTEBOOK).is_file():
            return folder
    raise ServeError(f"the app notebook {APP_NOTEBOOK} is missing from {BUNDLED_NOTEBOOKS}: reinstall conquest_widget")


def example_notebooks() -> list[Path]:
    """The example notebooks (``play.ipynb`` and the teaching notebooks), sorted by name."""
    return sorted(notebooks_dir().glob("*.ipynb"))


def copy_notebooks(dest: str | os.PathLike[str], *, overwrite: bool = False) -> list[Path]:
    """Copy the example notebooks into ``dest`` (created if needed); returns the new files.

    An existing file of the same name is left alone unless ``overwrite``: :class:`ServeError`
    names the files in the way, and nothing is copied.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     [p.name for p in copy_notebooks(d)] == [p.name for p in example_notebooks()]
    True
    """
    target = Path(dest)
    if target.exists() and not target.is_dir():
        raise ServeError(f"{target} is not a folder")
    sources = example_notebooks()
    clashes = [target / s.name for s in sources if (target / s.name).exists()]
    if clashes and not overwrite:
        raise ServeError("not overwriting " + ", ".join(map(str, clashes)) + " (use --force to replace them)")
    target.mkdir(parents=True, exist_ok=True)
    copied = []
    for src in sources:
        shutil.copyfile(src, target / src.name)
        copied.append(target / src.name)
    return copied


def default_app_dir() -> Path:
    """Where ``conquest-widget play`` runs by default: ``$XDG_DATA_HOME/conquest_widget``
    (``~/.local/share/conquest_widget``), ``%APPDATA%\\conquest_widget`` on Windows,
    ``~/Library/Application Support/conquest_widget`` on macOS."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "conquest_widget"


def prepare_app_dir(directory: str | os.PathLike[str] | None = None) -> Path:
    """Make ``directory`` ready to serve the app and return it: the bundled ``play.ipynb``
    is copied in when missing.  A different ``play.ipynb`` already there is replaced in the
    default folder (a copy from an older version) and refused anywhere else.
    """
    managed = directory is None
    folder = (default_app_dir() if managed else Path(directory)).resolve()
    if folder.exists() and not folder.is_dir():
        raise ServeError(f"--dir {folder} is not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    source = notebooks_dir() / APP_NOTEBOOK
    served = folder / APP_NOTEBOOK
    same = served.exists() and (served.resolve() == source.resolve() or filecmp.cmp(served, source, shallow=False))
    if served.exists() and not same and not managed:
        raise ServeError(f"{served} exists and is not this version's app notebook: choose another --dir or remove it")
    if not same:
        shutil.copyfile(source, served)
    return folder


def warm_up() -> list[str]:
    """Import what the first screen of each playable game needs (its widget module, engine
    and CPUs, the saves package) and read the map data, so that pressing a game's Play
    button in a kernel Voilà started ahead of the page request (see ``PREHEAT_ENV``) only
    builds widgets.  Imports and read-only caches only: nothing a page could share with
    another (every page has a kernel process of its own).  Returns the modules imported.

    A kernel of the app server runs it when it starts (the ``python3`` kernelspec in
    ``jupyter/kernels/``) if ``$VOILA_PREHEAT`` is ``"True"``; a kernel started for a
    request that found the pool empty skips it (:func:`warm_up_if_preheated`).

    >>> "conquest_widget.saves" in warm_up()
    True
    """
    import importlib

    from conquest_widget.core import registry

    modules = ["conquest_widget.saves", "conquest_widget.ui.match_app"]
    for spec in registry.all_games():
        if spec.playable:
            modules += [path.partition(":")[0] for path in (spec.widget, spec.engine, spec.bots) if path]
    for name in modules:
        importlib.import_module(name)
    from conquest_widget.maps.japan.board import japan
    from conquest_widget.maps.japan.geo import prefecture_shapes

    japan()
    prefecture_shapes()
    return modules


def warm_up_if_preheated() -> bool:
    """Run :func:`warm_up` in a kernel Voilà started for its pool (``$VOILA_PREHEAT`` is
    ``"True"``); returns whether it did.  Elsewhere (a kernel started for a waiting page,
    JupyterLab) it does nothing: the imports happen when a game is opened, as before."""
    if os.environ.get(PREHEAT_ENV) != "True":
        return False
    warm_up()
    return True


def missing_app_modules() -> list[str]:
    """The distributions of the ``app`` extra that ``play`` needs and cannot import."""
    return [dist for mod, dist in APP_MODULES.items() if importlib.util.find_spec(mod) is None]


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def check_port_free(port: int, host: str = HOST) -> None:
    """Raise :class:`PortInUseError` when ``host:port`` cannot be bound now (as the server
    binds it: a port whose last connections are still closing, in TIME_WAIT, is free)."""
    with socket.socket(_family(host), socket.SOCK_STREAM) as s:
        if sys.platform != "win32":  # what Tornado sets too; on Windows it would let two servers share the port
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            raise PortInUseError(
                f"port {port} on {host} is in use ({exc.strerror}): pick another one, e.g. --port {port + 1}"
                " (or PORT=... for make)"
            ) from None


def free_port(host: str = HOST) -> int:
    """A port that is free on ``host`` right now."""
    with socket.socket(_family(host), socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def games_served(lang: str = "en") -> str:
    """The playable games the app offers, by title (what ``play`` says it serves).

    >>> games_served()
    'Japan Conquest, Conquest (card game), The Codex of Conquest, Japanese Risk'
    """
    from conquest_widget.core import registry

    return ", ".join(spec.title[lang] for spec in registry.all_games() if spec.playable)


def app_url(host: str, port: int, token: str) -> str:
    """The URL to open: the server's root with the token."""
    return f"http://{_bracketed(host)}:{port}/?token={token}"


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address or ``localhost`` (what ``--host`` must not be
    for the server to be reached from another machine).

    >>> [is_loopback(h) for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "192.0.2.7", "class.example")]
    [True, True, True, False, False, False]
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def machine_addresses() -> list[str]:
    """This machine's addresses on its networks (not the loopback), IPv4 first."""
    try:
        import psutil  # a dependency of ipykernel, so of the app extra
    except ImportError:  # pragma: no cover - the app extra has it
        return []
    found: list[str] = []
    for family in (socket.AF_INET, socket.AF_INET6):
        for addrs in psutil.net_if_addrs().values():
            for a in addrs:
                address = a.address.partition("%")[0]  # an IPv6 link-local address's zone
                if a.family == family and not is_loopback(address) and address not in found:
                    found.append(address)
    return found


def served_names(host: str) -> list[str]:
    """The names and addresses a server bound to ``host`` answers for besides the local
    ones (loopback addresses, ``localhost``): ``host`` itself; for a wildcard address
    (``0.0.0.0``, ``::``), every address of this machine and its host name.  Any other
    ``Host`` header gets 403 (a page of another site that made its name point at this
    machine, DNS rebinding, still gets nothing).

    >>> served_names("127.0.0.1"), served_names("192.0.2.7"), served_names("class.example")
    ([], ['192.0.2.7'], ['class.example'])
    >>> socket.gethostname() in served_names("0.0.0.0")
    True
    """
    if is_loopback(host):
        return []
    if host not in WILDCARDS:
        return [host]
    names = machine_addresses()
    for name in (socket.gethostname(), socket.getfqdn()):
        if name and name not in names and not is_loopback(name):
            names.append(name)
    return names


def lan_urls(host: str, port: int, token: str) -> list[str]:
    """The addresses to give the other machines: one per address the server is reached by
    (for a wildcard address, each of this machine's IPv4 addresses, else its IPv6 ones)."""
    if host not in WILDCARDS:
        return [app_url(host, port, token)]
    addresses = machine_addresses()
    v4 = [a for a in addresses if ":" not in a]
    return [app_url(a, port, token) for a in (v4 or addresses)]


class AppServer:
    """A running Voilà app server (started by :func:`start`).

    ``url`` opens the app (it carries the token), ``base_url`` is the server root without
    it; ``stop()`` ends the server and its kernels."""

    def __init__(self, proc: subprocess.Popen, port: int, token: str, folder: Path, host: str = HOST) -> None:
        self.proc = proc
        self.port = port
        self.token = token
        self.folder = folder
        self.host = host
        #: where this machine reaches the server (a wildcard address: on the loopback)
        self.address = "127.0.0.1" if host == "0.0.0.0" else "::1" if host == "::" else host
        self.base_url = f"http://{_bracketed(self.address)}:{port}/"
        self.url = app_url(self.address, port, token)
        #: the addresses to give other machines (none when the server is bound to the loopback)
        self.lan_urls = [] if is_loopback(host) else lan_urls(host, port, token)

    def wait_ready(self, timeout: float = START_TIMEOUT, describe: Callable[[], str] = lambda: "") -> None:
        """Wait until the server answers HTTP on its port (a static file, asked for with the
        token, which starts no kernel); :class:`ServeError` if it exits or does not answer
        within ``timeout``."""
        probe = urllib.request.Request(self.base_url + "voila/static/voila.js",
                                       headers={"Authorization": f"token {self.token}"})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServeError(f"the Voilà server exited with code {self.proc.returncode}{describe()}")
            try:
                with urllib.request.urlopen(probe, timeout=2) as r:
                    if r.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        raise ServeError(f"the Voilà server did not answer on port {self.port} within {timeout:.0f} s{describe()}")

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server (SIGTERM, then SIGKILL), and any kernel still left in its
        process group when it was started in a session of its own."""
        own_group = self.proc.pid == _pgid(self.proc.pid)
        if self.proc.poll() is None:
            if own_group:
                _killpg(self.proc.pid, signal.SIGTERM)
            else:
                self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=timeout)
        if own_group:
            _killpg(self.proc.pid, signal.SIGKILL)  # kernels that outlived the server


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, AttributeError):
        return None


def _killpg(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError, AttributeError):
        pass


def start(
    directory: str | os.PathLike[str] | None = None,
    port: int = DEFAULT_PORT,
    *,
    token: str | None = None,
    log: IO[str] | None = None,
    env: Mapping[str, str] | None = None,
    log_level: str = "INFO",
    cull_idle_timeout: int | None = None,
    cull_interval: int | None = None,
    unconnected_timeout: int | None = None,
    max_kernels: int | None = None,
    new_session: bool = False,
    host: str = HOST,
) -> AppServer:
    """Start the app server for ``directory`` (see :func:`prepare_app_dir`) on
    ``127.0.0.1:port`` (``port=0``: a free one) and return it without waiting for it.
    ``host``: another address to bind instead (``0.0.0.0``: every address of this machine),
    for a classroom or a LAN; the server then also answers for the names it is reached by
    (:func:`served_names`), with the same token and Origin checks.

    Raises :class:`~conquest_widget._optional.MissingExtraError` (naming the ``app`` extra)
    when Voilà or ipykernel is missing, :class:`PortInUseError`, :class:`ServeError`.
    ``token``: a fresh random one by default; ``log``: where the server's output goes
    (default: this process's); ``env``: extra environment variables; ``cull_*`` and
    ``unconnected_timeout``: seconds, ``max_kernels``: kernels kept for pages, defaults in
    :mod:`conquest_widget._voila_app`; ``new_session``: run it in a process
    group of its own (tests: so that ``stop`` also reaches stray kernels).
    """
    missing = missing_app_modules()
    if missing:
        raise MissingExtraError(
            f"conquest-widget play needs {' and '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} not"
            f" installed: install the 'app' extra with  pip install \"conquest_widget[app]\"",
            name=missing[0], extra="app",
        )
    folder = prepare_app_dir(directory)
    host = (host or HOST).strip().strip("[]")
    if port == 0:
        port = free_port(host)
    elif not 0 < port < 65536:
        raise ServeError(f"port {port} is not a TCP port number (1-65535)")
    try:
        check_port_free(port, host)
    except socket.gaierror as exc:
        raise ServeError(f"--host {host}: no such address on this machine ({exc.strerror})") from None
    except PortInUseError:
        raise
    except OSError as exc:
        raise ServeError(f"--host {host} cannot be served from this machine ({exc.strerror})") from None
    token = token or secrets.token_hex(24)
    jupyter_path = os.pathsep.join(p for p in (str(JUPYTER_DATA), os.environ.get("JUPYTER_PATH", "")) if p)
    child_env = dict(os.environ, **(env or {}), JUPYTER_TOKEN=token, JUPYTER_PATH=jupyter_path, PYTHONUNBUFFERED="1")
    if cull_idle_timeout is not None:
        child_env["CONQUEST_CULL_IDLE_TIMEOUT"] = str(int(cull_idle_timeout))
    if cull_interval is not None:
        child_env["CONQUEST_CULL_INTERVAL"] = str(int(cull_interval))
    if unconnected_timeout is not None:
        child_env["CONQUEST_UNCONNECTED_TIMEOUT"] = str(int(unconnected_timeout))
    if max_kernels is not None:
        child_env["CONQUEST_MAX_KERNELS"] = str(int(max_kernels))
    child_env["CONQUEST_HOST"] = host
    child_env["CONQUEST_SERVED_NAMES"] = ",".join(served_names(host))
    args = [sys.executable, "-m", "conquest_widget._voila_app", APP_NOTEBOOK, f"--port={port}",
            f"--Voila.log_level={log_level}"]
    proc = subprocess.Popen(
        args, cwd=folder, env=child_env, stdout=log, stderr=subprocess.STDOUT if log is not None else None,
        start_new_session=new_session,
    )
    return AppServer(proc, port, token, folder, host)


def play(
    directory: str | os.PathLike[str] | None = None,
    port: int = DEFAULT_PORT,
    *,
    open_browser: bool = False,
    out: IO[str] | None = None,
    store: str | None = None,
    host: str = HOST,
) -> int:
    """Serve the app until Ctrl-C (or the server ends); returns an exit code.  The URL is
    printed to ``out`` once the server answers.  ``store``: where the tables of "Separate
    screens" are kept (a PostgreSQL URL or a path; given to the kernels as
    ``$CONQUEST_TABLES_STORE``; default: that variable, else the save folder).  ``host``:
    the address to bind (see :func:`start`); the addresses for the other machines are
    printed too."""
    out = out or sys.stdout
    server = start(directory, port, log_level="WARN", env={TABLES_STORE_ENV: store} if store else None, host=host)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops the server too
    try:
        server.wait_ready()
        print(
            f"The conquest games are running ({games_served()}).  Open this address in a browser (Ctrl-C to stop):\n\n"
            f"    {server.url}\n\n"
            f"Saves go to {server.folder / 'conquest_saves'}",
            file=out, flush=True,
        )
        if server.lan_urls:
            print(
                "\nOn the other computers of the network (give this address only to your players: its token lets"
                " anyone who has it play, start games and make tables on this computer):\n\n"
                + "".join(f"    {u}\n" for u in server.lan_urls),
                file=out, flush=True,
            )
        if open_browser:
            import webbrowser

            webbrowser.open(server.url)
        return server.proc.wait()
    except KeyboardInterrupt:
        print("\nStopping the conquest games server...", file=out, flush=True)
        return 0
    finally:
        server.stop()
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
