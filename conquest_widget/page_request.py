"""The request that opened this kernel's page (its query string, path and host), as Voilà
gives it to the kernel: a table link (``?table=…&seat=…&key=…``) opens that seat.

- A kernel Voilà started for a waiting page has the request in its environment
  (``QUERY_STRING``, ``SCRIPT_NAME``, ``SERVER_NAME``, ``SERVER_PORT``).
- A kernel Voilà *preheated* (``$VOILA_PREHEAT`` is ``"True"``) ran the notebook before any
  page asked for it: the server keeps the request of the page that took it, and the kernel
  reads it from the server's request-info websocket (``/voila/query/<kernel id>``, what
  ``voila.utils.get_query_string`` reads) once its page has connected (the shell asks when
  the page's front end requests the widgets' states).  The app server
  (:mod:`conquest_widget._voila_app`) lets a kernel in there with a secret it gives its
  kernels (``$CONQUEST_KERNEL_SECRET``; the login token stays out of the kernels) and
  forgets a page's request once its kernel has read it.

    >>> import os
    >>> os.environ.get("VOILA_PREHEAT") != "True" and known_request() is not None
    True
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Mapping

#: the environment variable holding the secret with which a kernel reads its page's request
KERNEL_SECRET_ENV = "CONQUEST_KERNEL_SECRET"
#: the header that carries it
KERNEL_HEADER = "X-Conquest-Kernel"
#: the environment variable holding the address at which kernels reach their server (the
#: address ``conquest-widget play --host`` binds; 127.0.0.1 by default)
SERVER_ADDRESS_ENV = "CONQUEST_SERVER_ADDRESS"
#: what is kept of the request
REQUEST_KEYS = ("QUERY_STRING", "SCRIPT_NAME", "SERVER_NAME", "SERVER_PORT")
#: seconds to wait for the server's answer
FETCH_TIMEOUT = 10.0

_fetched: dict[str, str] | None = None


def preheated() -> bool:
    """Whether this kernel was started ahead of its page (Voilà's pool)."""
    return os.environ.get("VOILA_PREHEAT") == "True"


def known_request() -> dict[str, str] | None:
    """The page's request if this kernel knows it already: from the environment (a kernel
    started for its page, or no Voilà at all: then every value is ""), or as read by
    :func:`fetch_request`; None in a preheated kernel that has not read it yet."""
    if not preheated():
        return {k: os.environ.get(k, "") for k in REQUEST_KEYS}
    return _fetched


def fetch_request(timeout: float = FETCH_TIMEOUT) -> dict[str, str]:
    """The page's request, read from the server once in a preheated kernel (call it when
    the page has connected: before that no page has asked for this kernel, and the server
    has nothing to give); :class:`OSError` when the server does not answer."""
    global _fetched
    known = known_request()
    if known is not None:
        return known
    _fetched = _pick(_read_from_server(timeout))
    return _fetched


def _pick(info: Mapping[str, object]) -> dict[str, str]:
    return {k: v if isinstance(v := info.get(k, ""), str) else "" for k in REQUEST_KEYS}


def _read_from_server(timeout: float) -> dict[str, object]:
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    port = os.environ.get("VOILA_APP_PORT", "")
    kernel_id = os.environ.get("VOILA_KERNEL_ID", "")
    base = os.environ.get("VOILA_SERVER_URL", "/")
    if not port.isdigit() or not kernel_id:
        raise OSError("this kernel does not know its server (no VOILA_APP_PORT or VOILA_KERNEL_ID)")
    address = os.environ.get(SERVER_ADDRESS_ENV) or "127.0.0.1"
    if ":" in address and not address.startswith("["):
        address = f"[{address}]"  # an IPv6 address
    request = HTTPRequest(f"ws://{address}:{port}{base}voila/query/{kernel_id}",
                          headers={KERNEL_HEADER: os.environ.get(KERNEL_SECRET_ENV, "")},
                          connect_timeout=timeout, request_timeout=timeout)
    found: list[object] = []

    async def read() -> None:
        conn = await websocket_connect(request)
        try:
            found.append(await asyncio.wait_for(conn.read_message(), timeout))
        finally:
            conn.close()

    def run() -> None:  # the kernel's own loop is busy handling this message: a loop of its own
        try:
            asyncio.run(read())
        except Exception as exc:  # handed to the caller below
            found.append(exc)

    thread = threading.Thread(target=run, name="conquest-page-request", daemon=True)
    thread.start()
    thread.join(timeout * 2 + 1)
    if not found or isinstance(found[0], BaseException) or not isinstance(found[0], str):
        raise OSError(f"the server did not give this page's request ({found[0]!r})"[:200] if found else
                      "the server did not give this page's request in time")
    info = json.loads(found[0])
    if not isinstance(info, dict):
        raise OSError("the server's request info is not an object")
    return info


def page_base_url(request: Mapping[str, str]) -> str:
    """The address of the page the request asked for, without its query string
    (``http://host:port/path``); "" when the request does not say (not in Voilà).

        >>> page_base_url({"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8866", "SCRIPT_NAME": "/"})
        'http://127.0.0.1:8866/'
        >>> page_base_url({"SERVER_NAME": "", "SERVER_PORT": "", "SCRIPT_NAME": ""})
        ''
    """
    host, port, path = request.get("SERVER_NAME", ""), request.get("SERVER_PORT", ""), request.get("SCRIPT_NAME", "")
    if not host:
        return ""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    return f"http://{host}{':' + port if port else ''}{path or '/'}"
