"""The Voilà side of ``conquest-widget play`` (runs inside the server process; needs the
``app`` extra).  :mod:`conquest_widget.serve` starts it as
``python -m conquest_widget._voila_app NOTEBOOK --port=N`` with the token in the
``JUPYTER_TOKEN`` environment variable (never on the command line, where other users of
the machine could read it) and the package's Voilà template on ``JUPYTER_PATH``.

What it configures on top of Voilà 0.5's standalone server:

- only local names in ``Host`` (``127.0.0.1``, ``::1`` and the rest of the loopback range,
  ``localhost``): anything else gets 403, which also defeats DNS rebinding; Voilà itself
  turns this check off (``allow_remote_access=True``);
- a token: the first request must carry ``?token=...``; it sets a login cookie for the rest;
  requests without either are sent to the login page, API calls get 403;
- kernel websockets (and API calls) whose ``Origin`` is not the page's own are refused,
  whether they come with the login cookie or with the token;
- the ``_xsrf`` cookie is set with the page, so the ``beforeunload`` beacon that shuts the
  kernel down when a tab is closed or reloaded passes the XSRF check (Voilà's own page never
  sets it, and the server logged ``403 POST /voila/api/shutdown/<id>: '_xsrf' argument
  missing`` while the kernel stayed alive);
- idle kernels culled: a kernel with no open connection (its tab closed without the beacon:
  a crash, a lost network) is shut down after ``CULL_IDLE_TIMEOUT`` seconds;
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

import os
import sys
from collections.abc import Sequence

from jupyter_server.auth.identity import User
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.base.handlers import log as server_log
from tornado import web
from tornado.websocket import WebSocketHandler
from traitlets.config import Config
from voila.app import Voila
from voila.voila_identity_provider import VoilaIdentityProvider

#: Environment variables read here (set by :func:`conquest_widget.serve.play`).
ENV_CULL_IDLE_TIMEOUT = "CONQUEST_CULL_IDLE_TIMEOUT"
ENV_CULL_INTERVAL = "CONQUEST_CULL_INTERVAL"
ENV_POOL_SIZE = "CONQUEST_POOL_SIZE"
ENV_FILL_DELAY = "CONQUEST_FILL_DELAY"
CULL_IDLE_TIMEOUT = 600  # seconds without activity and without a connection
CULL_INTERVAL = 60  # seconds between culling passes
TEMPLATE = "conquest"
POOL_SIZE = 1  # preheated kernels kept ready (each holds one idle kernel process)
#: seconds after a page takes the preheated kernel before the next one starts: not while the
#: page is still loading (the new kernel and its notebook run would compete for the cores)
FILL_DELAY = 5.0


class LocalAppIdentityProvider(VoilaIdentityProvider):
    """Voilà's token identity provider that also sets the ``_xsrf`` cookie on page loads,
    so that the page's shutdown beacon (which posts the cookie's value as ``_xsrf``) is
    accepted.  The token is read from ``$JUPYTER_TOKEN`` once and the variable is then removed,
    so the kernels (which inherit the server's environment) do not carry it."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.token  # noqa: B018 - read the token from the environment now
        os.environ.pop("JUPYTER_TOKEN", None)

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


class LocalHostOnly(web.RequestHandler):
    """Mixin for the handlers Voilà serves without jupyter_server's ``Host`` check (its
    static files and lab extensions): 403 for a ``Host`` that is not a local name."""

    @property
    def log(self):
        # what JupyterHandler.check_host logs its warning to
        return server_log()

    def prepare(self):  # type: ignore[override]
        if not JupyterHandler.check_host(self):  # type: ignore[arg-type]
            raise web.HTTPError(403)
        return super().prepare()


def _host_checked(handler: type) -> type:
    if issubclass(handler, JupyterHandler):
        return handler  # JupyterHandler.prepare checks the Host itself
    return type(handler.__name__, (LocalHostOnly, handler), {})


class LocalVoila(Voila):
    """Voilà whose every handler refuses a non-local ``Host``."""

    def init_handlers(self) -> list:
        return [(spec[0], _host_checked(spec[1]), *spec[2:]) for spec in super().init_handlers()]


def config(cull_idle_timeout: int = CULL_IDLE_TIMEOUT, cull_interval: int = CULL_INTERVAL,
           pool_size: int = POOL_SIZE, fill_delay: float = FILL_DELAY) -> Config:
    """The Voilà configuration of the app server (``pool_size`` 0: no preheated kernel).

    >>> c = config(pool_size=1, fill_delay=5)
    >>> c.VoilaConfiguration.preheat_kernel, c.VoilaConfiguration.default_pool_size, c.VoilaKernelManager.fill_delay
    (True, 1, 5.0)
    >>> config(pool_size=0).VoilaConfiguration.preheat_kernel
    False
    """
    c = Config()
    c.Voila.ip = "127.0.0.1"
    c.Voila.open_browser = False
    c.Voila.port_retries = 0
    c.Voila.auto_token = True  # the token itself comes from $JUPYTER_TOKEN
    c.Voila.identity_provider_class = LocalAppIdentityProvider
    c.Voila.tornado_settings = {
        "allow_remote_access": False,  # check Host against local names
        "local_hostnames": ["localhost"],  # IP addresses: any loopback address
    }
    c.VoilaConfiguration.template = TEMPLATE
    c.VoilaConfiguration.show_tracebacks = False
    c.MappingKernelManager.cull_idle_timeout = cull_idle_timeout
    c.MappingKernelManager.cull_interval = cull_interval
    c.MappingKernelManager.cull_connected = False  # an open tab keeps its game
    c.MappingKernelManager.cull_busy = False
    c.VoilaConfiguration.preheat_kernel = pool_size > 0
    c.VoilaConfiguration.default_pool_size = max(pool_size, 0)
    c.VoilaKernelManager.fill_delay = float(fill_delay)
    return c


def main(argv: Sequence[str] | None = None) -> None:
    """Run Voilà with :func:`config` (``argv``: the notebook and ``--port=N``)."""
    if not os.environ.get("JUPYTER_TOKEN"):
        sys.exit("conquest_widget._voila_app: JUPYTER_TOKEN is not set (start it with `conquest-widget play`)")
    cfg = config(
        int(os.environ.get(ENV_CULL_IDLE_TIMEOUT, CULL_IDLE_TIMEOUT)),
        int(os.environ.get(ENV_CULL_INTERVAL, CULL_INTERVAL)),
        int(os.environ.get(ENV_POOL_SIZE, POOL_SIZE)),
        float(os.environ.get(ENV_FILL_DELAY, FILL_DELAY)),
    )
    LocalVoila.launch_instance(argv=list(sys.argv[1:] if argv is None else argv), config=cfg)


if __name__ == "__main__":
    main()
