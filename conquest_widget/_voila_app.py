"""The Voilà side of ``conquest-widget play`` (runs inside the server process; needs the
``app`` extra).  :mod:`conquest_widget.serve` starts it as
``python -m conquest_widget._voila_app NOTEBOOK --port=N`` with the token in the
``JUPYTER_TOKEN`` environment variable (never on the command line, where other users of
the machine could read it) and the package's Voilà template on ``JUPYTER_PATH``.
:func:`main` takes the token out of the environment before Voilà starts, so that no
kernel (they inherit the server's environment, the preheated one included) carries it.

What it configures on top of Voilà 0.5's standalone server:

- only local names in ``Host`` (``127.0.0.1``, ``::1`` and the rest of the loopback range,
  ``localhost``): anything else gets 403, which also defeats DNS rebinding; Voilà itself
  turns this check off (``allow_remote_access=True``).  ``conquest-widget play --host``
  (a classroom, a LAN) binds that address instead of 127.0.0.1 and adds the names it is
  reached by (:func:`conquest_widget.serve.served_names`, passed in ``$CONQUEST_HOST`` and
  ``$CONQUEST_SERVED_NAMES``) to the local ones, addresses included (jupyter_server's own
  check takes only loopback addresses: :class:`ServedHostsOnly`); every other name still
  gets 403, and the token and the Origin check stay as they are;
- a token for everything the server answers but its login page: the first request must
  carry ``?token=...``; it sets the login cookie (``HttpOnly``, ``SameSite=Strict``: a
  page of another site cannot make the browser send it, so it cannot start a kernel) and
  is redirected to the same address without the token, which so stays out of the browser's
  history and out of the kernels' environment (Voilà gives a kernel the page's URL).
  Requests without either are sent to the login page (pages) or get 403 (everything
  else: API calls, websockets, Voilà's static files, lab extensions and themes,
  ``/voila/files/``);
- ``/voila/files/`` serves (with the token) only images of the app folder that are no
  symbolic link and lie in no symbolic-linked folder, with a ``sandbox`` content security
  policy (an SVG's scripts do not run in the app's origin);
- kernel websockets (and API calls) whose ``Origin`` is not the page's own are refused,
  whether they come with the login cookie or with the token;
- the ``_xsrf`` cookie is set with the page, so the ``beforeunload`` beacon that shuts the
  kernel down when a tab is closed or reloaded passes the XSRF check (Voilà's own page never
  sets it, and the server logged ``403 POST /voila/api/shutdown/<id>: '_xsrf' argument
  missing`` while the kernel stayed alive);
- kernels bounded (:class:`BoundedKernelManager`): at most ``MAX_KERNELS`` kernels for
  pages (the preheated kernel waiting for the next page is not one of them); a page asked
  for beyond that gets 503 with what to do.  A kernel whose page never opened its
  websocket (an interrupted load, a client that is no browser) is shut down
  ``UNCONNECTED_TIMEOUT`` seconds after its page was sent; a kernel whose page had a
  connection and lost it (its tab closed without the beacon: a crash, a lost network) after
  ``CULL_IDLE_TIMEOUT`` seconds; the preheated kernel is never culled while it waits (nor
  while it starts);
- kernels talk to the server over IPC (Unix sockets in Voilà's private ``0700`` folder of
  connection files), not TCP ports of 127.0.0.1, where the platform has it (not Windows);
- a kernel reads the request of the page that took it (a table link's query string) from
  Voilà's request-info websocket with a secret the server gives its kernels
  (:class:`KernelReadsItsRequest`); the server forgets the request once it is read;
- the ``conquest`` page template: Voilà's ``lab`` template without its Font Awesome links to
  a CDN (Voilà's own bundle already carries Font Awesome and serves its fonts locally);
- a preheated kernel (issue 18): Voilà keeps ``POOL_SIZE`` kernel(s) that have already run
  the app notebook (the game picker) and, through the ``python3`` kernelspec in
  ``conquest_widget/jupyter/kernels/`` (first on ``JUPYTER_PATH``), imported every game's
  first screen (:func:`conquest_widget.serve.warm_up`); a page request takes one (each page
  still gets a kernel of its own) and the pool is refilled ``FILL_DELAY`` seconds later.
  A request finding the pool empty gets a new kernel as before.
"""

from __future__ import annotations

import asyncio
import contextvars
import ipaddress
import os
import re
import secrets
import sys
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from inspect import isawaitable
from urllib.parse import parse_qsl, urlencode

from jupyter_core.utils import ensure_async
from jupyter_server.auth.identity import User
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.base.handlers import log as server_log
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.websocket import WebSocketHandler
from traitlets import Integer
from traitlets.config import Config
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.static_file_handler import AllowListFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.voila_identity_provider import VoilaIdentityProvider

from conquest_widget.page_request import KERNEL_HEADER, KERNEL_SECRET_ENV, SERVER_ADDRESS_ENV

#: Environment variables read here (set by :func:`conquest_widget.serve.start`).
ENV_CULL_IDLE_TIMEOUT = "CONQUEST_CULL_IDLE_TIMEOUT"
ENV_CULL_INTERVAL = "CONQUEST_CULL_INTERVAL"
ENV_UNCONNECTED_TIMEOUT = "CONQUEST_UNCONNECTED_TIMEOUT"
ENV_MAX_KERNELS = "CONQUEST_MAX_KERNELS"
ENV_POOL_SIZE = "CONQUEST_POOL_SIZE"
ENV_FILL_DELAY = "CONQUEST_FILL_DELAY"
ENV_HOST = "CONQUEST_HOST"  # the address to bind (default 127.0.0.1)
ENV_SERVED_NAMES = "CONQUEST_SERVED_NAMES"  # names and addresses besides the local ones, comma-separated
HOST = "127.0.0.1"
CULL_IDLE_TIMEOUT = 600  # seconds without activity and without a connection, after a page had one
#: seconds a page has to open its kernel's websocket once it was sent (it takes a browser
#: about one second; a load interrupted on the way, or a client that is no browser, never does)
UNCONNECTED_TIMEOUT = 60
CULL_INTERVAL = 10  # seconds between culling passes
#: kernels kept for pages at most (about 110 MB each, so about 4.4 GB in all); the preheated
#: kernel is not counted.  A class of 30 at one server, each with a tab or two, fits; a runaway
#: client does not take the machine
MAX_KERNELS = 40
TEMPLATE = "conquest"
POOL_SIZE = 1  # preheated kernels kept ready (each holds one idle kernel process)
#: seconds after a page takes the preheated kernel before the next one starts: not while the
#: page is still loading (the new kernel and its notebook run would compete for the cores)
FILL_DELAY = 5.0
#: the kernels' transport: Unix sockets where there are some (see the module docstring)
TRANSPORT = "tcp" if sys.platform == "win32" else "ipc"
#: what ``/voila/files/`` sends with a file: it is shown, never run as a page of the app
FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"


#: the kernels started for the page request being handled (see BoundedKernelManager.sending_a_page)
_PAGE_KERNELS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("conquest_page_kernels", default=None)


def _utcnow() -> datetime:
    return datetime.now(UTC)


class BoundedKernelManager(AsyncMappingKernelManager):
    """The server's kernel manager (Voilà adds its pool of preheated kernels on top): it
    bounds the kernels kept for pages and culls those whose page never connected.

    A kernel is *waiting in the pool* from the moment Voilà starts it for the pool until a
    page takes it: it is never culled then (unless dead), even while it starts or runs the
    notebook.  A kernel *for a page* is not culled while its page is being sent; if it never
    had a websocket connection, it is shut down ``unconnected_timeout`` seconds after its
    page was sent or after its last activity, whichever is later; one that had a connection
    follows jupyter_server's idle cull (``cull_idle_timeout``; connected kernels are kept)."""

    max_kernels = Integer(MAX_KERNELS, config=True, help="Kernels kept for pages at most (503 beyond)")
    unconnected_timeout = Integer(UNCONNECTED_TIMEOUT, config=True,
                                  help="Seconds a page has to connect to its kernel before it is culled")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._pool_tasks: dict[str, asyncio.Task] = {}  # kernel id -> the pool task that started it
        self._handed_out: dict[str, datetime] = {}  # pool kernel id -> when it was seen taken by a page
        self._starting_for_pages: set[str] = set()
        self._ever_connected: set[str] = set()
        self._being_sent: dict[object, int] = {}  # pool task or kernel id -> page requests sending it

    # -- which kernel is what
    def waiting_in_pool(self, kernel_id: str) -> bool:
        """Whether ``kernel_id`` is a preheated kernel no page has taken yet."""
        task = self._pool_tasks.get(kernel_id)
        return task is not None and any(task in pool for pool in getattr(self, "_pools", {}).values())

    def being_sent(self, kernel_id: str) -> bool:
        """Whether the page of ``kernel_id`` is still being sent."""
        return kernel_id in self._being_sent or self._pool_tasks.get(kernel_id) in self._being_sent

    def note_handouts(self) -> None:
        """Remember when each pool kernel was first seen taken by a page and sent (its page's
        clock; :meth:`sending_a_page` sets it when the page is sent)."""
        for kernel_id in self._pool_tasks:
            if kernel_id not in self._handed_out and not self.waiting_in_pool(kernel_id) \
                    and not self.being_sent(kernel_id):
                self._handed_out[kernel_id] = _utcnow()

    @contextmanager
    def sending_a_page(self) -> Iterator[None]:
        """Around a page request: its kernel is not culled until the page is sent.  A page
        takes the first task of the pool (at once: nothing awaits before Voilà pops it) or
        starts a kernel (:meth:`start_kernel` notes it in ``_PAGE_KERNELS``)."""
        pools = [pool for pool in getattr(self, "_pools", {}).values() if pool]
        marks: list[object] = [pools[0][0]] if pools else []
        started: list[str] = []
        reset = _PAGE_KERNELS.set(started)
        for mark in marks:
            self._being_sent[mark] = self._being_sent.get(mark, 0) + 1
        try:
            yield
        finally:
            _PAGE_KERNELS.reset(reset)
            for mark in marks:
                self._being_sent[mark] -= 1
                if not self._being_sent[mark]:
                    del self._being_sent[mark]
            now = _utcnow()
            for kernel_id, task in self._pool_tasks.items():
                if task in marks and not self.waiting_in_pool(kernel_id):
                    self._handed_out[kernel_id] = now
            for kernel_id in started:
                self._being_sent.pop(kernel_id, None)
                if kernel_id in self._kernels:
                    self._handed_out[kernel_id] = now

    def page_kernels(self) -> set[str]:
        """The kernels kept for pages (started or starting), not those waiting in the pool."""
        return {k for k in self._kernels if not self.waiting_in_pool(k)} | self._starting_for_pages

    def check_room_for_a_page(self) -> None:
        """:class:`tornado.web.HTTPError` 503 when ``max_kernels`` kernels are kept for pages."""
        count = len(self.page_kernels())
        if count >= self.max_kernels:
            raise web.HTTPError(
                503, reason="Too Many Open Pages",
                log_message=f"this server already keeps {count} pages of the app open, the most it keeps"
                f" ({self.max_kernels}): close a tab of the app, then load this page again (a page that never"
                f" finished loading is closed within {self.unconnected_timeout} s)",
            )

    # -- jupyter_server hooks
    async def start_kernel(self, *, kernel_id: str | None = None, **kwargs: object) -> str:  # type: ignore[override]
        env = kwargs.get("env") or {}
        pooled = isinstance(env, dict) and env.get("VOILA_PREHEAT") == "True"
        kernel_id = kernel_id or str(uuid.uuid4())
        task = asyncio.current_task()
        if pooled and task is not None:
            self._pool_tasks[kernel_id] = task  # before the kernel exists: never culled while starting
        elif kernel_id not in self:
            self.check_room_for_a_page()
            self._starting_for_pages.add(kernel_id)
            page = _PAGE_KERNELS.get()
            if page is not None:
                page.append(kernel_id)
                self._being_sent[kernel_id] = 1
        try:
            return await super().start_kernel(kernel_id=kernel_id, **kwargs)
        except BaseException:
            self._forget(kernel_id)
            raise
        finally:
            self._starting_for_pages.discard(kernel_id)

    def notify_connect(self, kernel_id: str) -> None:
        self._ever_connected.add(kernel_id)
        super().notify_connect(kernel_id)

    def remove_kernel(self, kernel_id: str):
        self._forget(kernel_id)
        return super().remove_kernel(kernel_id)

    def _forget(self, kernel_id: str) -> None:
        self._pool_tasks.pop(kernel_id, None)
        self._handed_out.pop(kernel_id, None)
        self._ever_connected.discard(kernel_id)

    async def cull_kernels(self) -> None:
        for kernel_id in list(self._kernels):
            if self.waiting_in_pool(kernel_id):
                last = getattr(self._kernels[kernel_id], "last_activity", None) or _utcnow()
                self.log.debug("Culling pass: kernel %s waits in the pool (idle %d s), kept", kernel_id,
                               int((_utcnow() - last).total_seconds()))
        await super().cull_kernels()

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        if kernel is None or getattr(kernel, "execution_state", None) == "dead":
            return await ensure_async(super().cull_kernel_if_idle(kernel_id))
        self.note_handouts()
        if self.waiting_in_pool(kernel_id) or self.being_sent(kernel_id):
            return None  # the preheated kernel waits for the next page; a page is being sent
        if kernel_id in self._ever_connected:
            return await ensure_async(super().cull_kernel_if_idle(kernel_id))
        last = getattr(kernel, "last_activity", None) or _utcnow()
        since = max(last, self._handed_out.get(kernel_id, last))
        idle = _utcnow() - since
        if idle > timedelta(seconds=self.unconnected_timeout) and kernel.execution_state != "busy":
            self.log.warning("Culling kernel %s: its page never connected (%d s since the page was sent)",
                             kernel_id, int(idle.total_seconds()))
            await ensure_async(self.shutdown_kernel(kernel_id))
        return None


class LocalAppIdentityProvider(VoilaIdentityProvider):
    """Voilà's token identity provider that also sets the ``_xsrf`` cookie on page loads,
    so that the page's shutdown beacon (which posts the cookie's value as ``_xsrf``) is
    accepted.  The token comes from the configuration (``Voila.token``, set by :func:`main`
    from ``$JUPYTER_TOKEN``, which it then removes from the environment)."""

    def should_check_origin(self, handler: web.RequestHandler) -> bool:
        """Always check the ``Origin`` (jupyter_server skips it for requests carrying the
        token; no page of this app is ever loaded from another origin)."""
        return True

    async def _get_user(self, handler: web.RequestHandler) -> User | None:
        user = await super()._get_user(handler)
        if (
            user is not None
            and handler.request.method == "GET"
            and not isinstance(handler, WebSocketHandler)
            and not handler.get_cookie("_xsrf")
        ):
            handler.current_user = user  # what prepare() does next; xsrf_token reads it
            handler.xsrf_token  # noqa: B018 - reading it sets the cookie
        return user


class PlainErrors(web.RequestHandler):
    """Mixin: an error is answered as plain text with its reason (jupyter_server's error
    page needs a ``static_path`` setting that Voilà does not have, and fails)."""

    def write_error(self, status_code: int, **kwargs: object) -> None:
        exc = kwargs.get("exc_info", (None, None, None))[1]  # type: ignore[index]
        message = ""
        if isinstance(exc, web.HTTPError) and exc.log_message and status_code != 403:
            message = ": " + (exc.log_message % exc.args if exc.args else exc.log_message)
        self.set_header("Content-Type", "text/plain; charset=UTF-8")
        self.finish(f"{status_code} {self._reason}{message}\n")


def host_allowed(host_header: str, names: Sequence[str]) -> bool:
    """Whether a request's ``Host`` (with or without its port) is a loopback address, or
    one of ``names`` (names or addresses: the local ones and those ``--host`` adds).

    >>> [host_allowed(h, ["localhost"]) for h in ("127.0.0.1:8866", "[::1]:1", "localhost", "192.0.2.7:8866")]
    [True, True, True, False]
    >>> [host_allowed(h, ["localhost", "192.0.2.7"]) for h in ("192.0.2.7:8866", "192.0.2.70", "evil.example")]
    [True, False, False]
    """
    match = re.match(r"^(.*?)(:\d+)?$", host_header)
    host = match.group(1) if match else host_header
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return host.lower() in {n.lower() for n in names}
    allowed = set()
    for name in names:
        try:
            allowed.add(ipaddress.ip_address(name.strip("[]")))
        except ValueError:
            continue
    return addr.is_loopback or addr in allowed


def _check_host(handler: web.RequestHandler) -> bool:
    """jupyter_server's Host check (``JupyterHandler.check_host``), which also lets in the
    addresses among ``local_hostnames`` (jupyter_server's lets in loopback addresses only)."""
    if handler.settings.get("allow_remote_access", False):
        return True
    if host_allowed(handler.request.host or "", handler.settings.get("local_hostnames", ["localhost"])):
        return True
    server_log().warning("Blocking request with a Host this server is not reached by: %s", handler.request.host)
    return False


class ServedHostsOnly:
    """Mixin for jupyter_server's handlers: :func:`_check_host` instead of theirs."""

    def check_host(self) -> bool:
        return _check_host(self)  # type: ignore[arg-type]


def _local_host(handler: web.RequestHandler) -> None:
    if not _check_host(handler):
        raise web.HTTPError(403)


class LocalHostOnly(PlainErrors):
    """Mixin for handlers that are not jupyter_server's (Voilà's static files, its request
    info websocket): 403 for a ``Host`` that is not a local name, and 403 without the token
    or the login cookie."""

    @property
    def log(self):
        # what JupyterHandler.check_host logs its warning to
        return server_log()

    @property
    def base_url(self) -> str:  # read by the identity provider when it sets the login cookie
        return self.settings.get("base_url", "/")

    @property
    def token(self) -> str | None:  # read by the identity provider
        return self.settings["identity_provider"].token

    async def prepare(self):  # type: ignore[override]
        _local_host(self)
        user = await ensure_async(self.settings["identity_provider"].get_user(self))
        if user is None:
            raise web.HTTPError(403)
        self.current_user = user
        result = super().prepare()
        if isawaitable(result):
            await result


class LoggedInOnly(PlainErrors, JupyterHandler):
    """Mixin for jupyter_server handlers that answer without a user (lab extensions,
    themes): 403 without the token or the login cookie.  ``JupyterHandler.prepare``
    checks the ``Host`` and finds the user."""

    async def prepare(self, *args, **kwargs):  # type: ignore[override]
        result = super().prepare(*args, **kwargs)
        if isawaitable(result):
            await result
        if not self._finished and self.current_user is None:
            raise web.HTTPError(403)


class KernelReadsItsRequest(LocalHostOnly):
    """Mixin for Voilà's request-info websocket (``/voila/query/<kernel id>``): a kernel
    that shows the secret this server gives its kernels (``$CONQUEST_KERNEL_SECRET``, see
    :func:`main`) reads the request of the page that took it (a table link's query string:
    :mod:`conquest_widget.page_request`); anyone else needs the login, as before.  Once the
    request is handed over, the server forgets it (Voilà would keep it until it stops)."""

    async def prepare(self):  # type: ignore[override]
        secret = os.environ.get(KERNEL_SECRET_ENV, "")
        given = self.request.headers.get(KERNEL_HEADER, "")
        if secret and given and secrets.compare_digest(given.encode(), secret.encode()):
            _local_host(self)
            return
        await super().prepare()

    def open(self, kernel_id: str) -> None:  # type: ignore[override]
        super().open(kernel_id)  # type: ignore[misc]
        RequestInfoSocketHandler._cache.pop(kernel_id, None)


class TokenOutOfTheAddress(PlainErrors, TornadoVoilaHandler):
    """The app page: a request that logs in with ``?token=`` (the login cookie is set by
    then) is redirected to the same address without it; a page request beyond
    ``BoundedKernelManager.max_kernels`` gets 503."""

    async def prepare(self, *args, **kwargs):  # type: ignore[override]
        await super().prepare(*args, **kwargs)
        if self._finished or self.current_user is None:
            return
        if self.request.method in ("GET", "HEAD") and "token" in self.request.query_arguments:
            self.redirect(_without_token(self.request.uri or "/"))
            return
        check = getattr(self.kernel_manager, "check_room_for_a_page", None)
        if check is not None:
            check()  # nothing awaits between here and the page taking a kernel

    async def get(self, path: str | None = None) -> None:
        sending = getattr(self.kernel_manager, "sending_a_page", None)
        if sending is None:
            return await super().get(path=path)
        with sending():  # its kernel is not culled until the page is sent
            return await super().get(path=path)


class ImageFilesOnly(AllowListFileHandler):
    """``/voila/files/``: no path through a symbolic link, and a sandbox for what is sent."""

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        real_root = os.path.realpath(root)
        as_written = os.path.join(real_root, os.path.relpath(absolute_path, os.path.abspath(root)))
        if os.path.realpath(absolute_path) != os.path.normpath(as_written):
            raise web.HTTPError(403, "%s goes through a symbolic link", self.path)
        return super().validate_absolute_path(root, absolute_path)

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Content-Security-Policy", FILE_CSP)
        self.set_header("X-Content-Type-Options", "nosniff")


def _without_token(uri: str) -> str:
    """``uri`` (path and query) without its ``token`` argument; never a protocol-relative
    address (``//host``).

    >>> _without_token("/?token=abc")
    '/'
    >>> _without_token("//evil.example/x?a=1&token=abc")
    '/evil.example/x?a=1'
    >>> _without_token("/\\\\evil.example?token=abc")
    '/evil.example'
    """
    path, _, query = uri.partition("#")[0].partition("?")
    rest = urlencode([(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "token"])
    return "/" + path.lstrip("/\\") + ("?" + rest if rest else "")


class LocalVoila(Voila):
    """Voilà whose every handler refuses a non-local ``Host``, and wants the token or the
    login cookie except for the login page itself, and which trusts the notebook it serves."""

    def init_settings(self) -> dict:
        settings = super().init_settings()
        self._trust_the_app_notebook()
        return settings

    def _trust_the_app_notebook(self) -> None:
        """Sign the served notebook with this run's notary (see :func:`config`), so that
        loading it no longer logs "Notebook play.ipynb is not trusted" at every page.  It is
        this version's own ``play.ipynb`` (``serve.prepare_app_dir`` refuses another), whose
        code the server runs anyway; the signature lives in memory, under a secret made for
        this run, so nothing is written to the user's Jupyter folders and no other notebook
        becomes trusted."""
        if not self.notebook_path:
            return
        import nbformat

        notary = self.contents_manager.notary
        notary.sign(nbformat.read(self.notebook_path, as_version=4))

    def init_handlers(self) -> list:
        open_to_all = {spec[1] for spec in self.identity_provider.get_handlers()}  # login, logout
        return [(spec[0], _guarded(spec[1], open_to_all), *spec[2:]) for spec in super().init_handlers()]


def _guarded(handler: type, open_to_all: set) -> type:
    guarded = _guarded_for_login(handler, open_to_all)
    if issubclass(guarded, JupyterHandler):
        return type(guarded.__name__, (ServedHostsOnly, guarded), {})
    return guarded


def _guarded_for_login(handler: type, open_to_all: set) -> type:
    if handler in open_to_all:
        return handler  # the login page: JupyterHandler.prepare checks the Host
    if handler is TornadoVoilaHandler:
        return TokenOutOfTheAddress
    if issubclass(handler, AllowListFileHandler):
        handler = type(handler.__name__, (ImageFilesOnly, handler), {})
    if issubclass(handler, RequestInfoSocketHandler):
        return type(handler.__name__, (KernelReadsItsRequest, handler), {})
    if not issubclass(handler, JupyterHandler):
        return type(handler.__name__, (LocalHostOnly, handler), {})
    if any(getattr(getattr(handler, m, None), "__allow_unauthenticated", False) for m in HTTP_METHODS):
        return type(handler.__name__, (LoggedInOnly, handler), {})
    return handler  # JupyterHandler.prepare wants the token or the login cookie for it


HTTP_METHODS = ("get", "head", "post", "put", "patch", "delete", "options")


def config(cull_idle_timeout: int = CULL_IDLE_TIMEOUT, cull_interval: int = CULL_INTERVAL,
           pool_size: int = POOL_SIZE, fill_delay: float = FILL_DELAY, *,
           unconnected_timeout: int = UNCONNECTED_TIMEOUT, max_kernels: int = MAX_KERNELS,
           token: str | None = None, host: str = HOST, served_names: Sequence[str] = ()) -> Config:
    """The Voilà configuration of the app server (``pool_size`` 0: no preheated kernel;
    ``host``: the address to bind, ``served_names``: the names and addresses it is reached
    by besides the local ones).

    >>> c = config(pool_size=1, fill_delay=5)
    >>> c.VoilaConfiguration.preheat_kernel, c.VoilaConfiguration.default_pool_size, c.VoilaKernelManager.fill_delay
    (True, 1, 5.0)
    >>> config(pool_size=0).VoilaConfiguration.preheat_kernel
    False
    >>> lan = config(host="0.0.0.0", served_names=["192.0.2.7"])
    >>> lan.Voila.ip, lan.Voila.tornado_settings["local_hostnames"], lan.Voila.tornado_settings["allow_remote_access"]
    ('0.0.0.0', ['localhost', '192.0.2.7'], False)
    """
    c = Config()
    c.Voila.ip = host
    c.Voila.open_browser = False
    c.Voila.port_retries = 0
    if token:
        c.Voila.token = token
    else:
        c.Voila.auto_token = True  # never without a token
    c.Voila.identity_provider_class = LocalAppIdentityProvider
    c.IdentityProvider.cookie_options = {"samesite": "Strict", "httponly": True}
    c.Voila.tornado_settings = {
        "allow_remote_access": False,  # check Host against local names
        # and any loopback address; --host adds the names and addresses the server is reached by
        "local_hostnames": ["localhost", *(n for n in served_names if n != "localhost")],
        "xsrf_cookie_kwargs": {"samesite": "Strict"},  # not HttpOnly: the shutdown beacon reads it
    }
    c.VoilaConfiguration.template = TEMPLATE
    c.VoilaConfiguration.show_tracebacks = False
    c.VoilaConfiguration.multi_kernel_manager_class = BoundedKernelManager
    c.MappingKernelManager.cull_idle_timeout = cull_idle_timeout
    c.MappingKernelManager.cull_interval = cull_interval
    c.MappingKernelManager.cull_connected = False  # an open tab keeps its game
    c.MappingKernelManager.cull_busy = False
    c.BoundedKernelManager.unconnected_timeout = unconnected_timeout
    c.BoundedKernelManager.max_kernels = max_kernels
    c.KernelManager.transport = TRANSPORT
    # the app notebook is signed at start (LocalVoila._trust_the_app_notebook): with a secret
    # of this run and an in-memory signature store, never the user's nbsignatures.db
    c.NotebookNotary.secret = secrets.token_bytes(32)
    c.NotebookNotary.db_file = ":memory:"
    c.VoilaConfiguration.preheat_kernel = pool_size > 0
    c.VoilaConfiguration.default_pool_size = max(pool_size, 0)
    c.VoilaKernelManager.fill_delay = float(fill_delay)
    return c


def main(argv: Sequence[str] | None = None) -> None:
    """Run Voilà with :func:`config` (``argv``: the notebook and ``--port=N``); the token is
    taken out of the environment first, so that no kernel inherits it."""
    token = os.environ.pop("JUPYTER_TOKEN", "")
    if not token:
        sys.exit("conquest_widget._voila_app: JUPYTER_TOKEN is not set (start it with `conquest-widget play`)")
    # the kernels (which inherit the environment) read their page's request with it
    os.environ[KERNEL_SECRET_ENV] = secrets.token_urlsafe(32)
    host = os.environ.get(ENV_HOST) or HOST
    served = [n for n in os.environ.get(ENV_SERVED_NAMES, "").split(",") if n]
    # where the kernels reach this server (a wildcard address is reached on the loopback)
    os.environ[SERVER_ADDRESS_ENV] = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    cfg = config(
        int(os.environ.get(ENV_CULL_IDLE_TIMEOUT, CULL_IDLE_TIMEOUT)),
        int(os.environ.get(ENV_CULL_INTERVAL, CULL_INTERVAL)),
        int(os.environ.get(ENV_POOL_SIZE, POOL_SIZE)),
        float(os.environ.get(ENV_FILL_DELAY, FILL_DELAY)),
        unconnected_timeout=int(os.environ.get(ENV_UNCONNECTED_TIMEOUT, UNCONNECTED_TIMEOUT)),
        max_kernels=int(os.environ.get(ENV_MAX_KERNELS, MAX_KERNELS)),
        token=token, host=host, served_names=served,
    )
    LocalVoila.launch_instance(argv=list(sys.argv[1:] if argv is None else argv), config=cfg)


if __name__ == "__main__":
    main()
