"""The app server as ``make play`` / ``conquest-widget play`` start it (issue 17 item 2,
issue 16 item 11): only local Host names, a token, foreign-Origin websockets refused,
kernels shut down when their tab closes and culled when it vanishes, no CDN request.

Each check is made against a real Voila started by :func:`conquest_widget.serve.start`;
each has its counterpart that must succeed (the right Host, the token, the page's own
Origin), so a server that refuses everything would fail too.
"""

from __future__ import annotations

import http.client
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.ioloop import IOLoop
from tornado.websocket import websocket_connect

from .harness import kernel_processes, serve_copy, voila_app

FOREIGN = "evil.example"


@pytest.fixture(scope="module")
def server(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    served = serve_copy(tmp_path_factory.mktemp("served-security"))
    with voila_app(served, tmp_path_factory.mktemp("home-security"), artifacts / "voila-security.log") as srv:
        yield srv


def request(srv, path: str, host: str | None = None, headers: dict | None = None) -> http.client.HTTPResponse:
    """A GET to the server with a chosen Host header; returns the (read) response."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=120)
    conn.putrequest("GET", path, skip_host=True)
    conn.putheader("Host", host or f"127.0.0.1:{srv.port}")
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    conn.endheaders()
    resp = conn.getresponse()
    resp.body = resp.read()  # type: ignore[attr-defined]
    conn.close()
    return resp


def start_kernel(srv) -> tuple[str, str]:
    """Load the app page with the token (Voila starts a kernel and runs the notebook);
    returns the page's kernel id and the login cookie the server set."""
    resp = request(srv, f"/?token={srv.token}")
    assert resp.status == 200
    m = re.search(rb'"kernelId":\s*"([0-9a-f-]{36})"', resp.body)
    assert m, "no kernel id in the app page"
    cookies = [c.split(";")[0] for c in resp.headers.get_all("Set-Cookie") if c.startswith("username-")]
    assert cookies, "no login cookie set by the token"
    return m.group(1).decode(), cookies[0]


def ws_status(srv, kernel_id: str, origin: str | None, host: str | None = None, auth: str | None = None) -> int:
    """Open the kernel websocket; 101 when it connects, else the refusal's HTTP status.
    ``auth``: a login cookie (``name=value``), ``"token"`` (in the URL) or None."""
    query = f"?token={srv.token}" if auth == "token" else ""
    headers = {"Host": host or f"127.0.0.1:{srv.port}"}
    if auth not in (None, "token"):
        headers["Cookie"] = auth
    if origin is not None:
        headers["Origin"] = origin
    req = HTTPRequest(f"ws://127.0.0.1:{srv.port}/api/kernels/{kernel_id}/channels{query}", headers=headers)

    async def attempt() -> int:
        try:
            conn = await websocket_connect(req)
        except HTTPClientError as exc:
            return exc.code
        conn.close()
        return 101

    return IOLoop().run_sync(attempt, timeout=60)


# ------------------------------------------------------------------ Host
@pytest.mark.parametrize("path", ["/", "/?token=T", "/voila/static/voila.js", "/login",
                                  "/voila/labextensions/@voila-dashboards/widgets-manager8/package.json"])
def test_a_foreign_host_gets_403_everywhere(server, path: str) -> None:
    path = path.replace("T", server.token)
    assert request(server, path, host=f"{FOREIGN}:{server.port}").status == 403
    assert request(server, path, host=FOREIGN).status == 403
    assert request(server, path, host=f"127.0.0.1.{FOREIGN}:{server.port}").status == 403  # DNS rebinding names
    if path.startswith("/voila/"):  # the same path answers for local names
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", f"[::1]:{server.port}"):
            assert request(server, path, host=host).status == 200, host


# ------------------------------------------------------------------ token
def test_without_the_token_no_app_and_no_kernel(server) -> None:
    before = len(kernel_processes(server))
    resp = request(server, "/")
    assert resp.status == 302 and resp.getheader("Location").startswith("/login"), (resp.status, resp.headers)
    assert request(server, "/?token=wrong").status == 302
    assert len(kernel_processes(server)) == before  # nothing was started for it


def test_the_kernel_api_and_websocket_want_the_token(server) -> None:
    kernel_id, cookie = start_kernel(server)
    assert request(server, f"/api/kernels/{kernel_id}").status == 403
    assert request(server, f"/api/kernels/{kernel_id}?token=wrong").status == 403
    assert request(server, f"/api/kernels/{kernel_id}?token={server.token}").status == 200
    assert request(server, f"/api/kernels/{kernel_id}", headers={"Cookie": cookie}).status == 200
    assert ws_status(server, kernel_id, origin=None) == 403
    assert ws_status(server, kernel_id, origin=None, auth="token") == 101
    assert ws_status(server, kernel_id, origin=None, auth=cookie) == 101


# ------------------------------------------------------------------ Origin
@pytest.mark.parametrize("auth", ["cookie", "token"])
def test_a_websocket_from_a_foreign_origin_is_refused(server, auth: str) -> None:
    kernel_id, cookie = start_kernel(server)
    how = cookie if auth == "cookie" else "token"
    own = f"http://127.0.0.1:{server.port}"
    assert ws_status(server, kernel_id, origin=own, auth=how) == 101
    assert ws_status(server, kernel_id, origin=f"http://{FOREIGN}", auth=how) == 403
    assert ws_status(server, kernel_id, origin=f"http://{FOREIGN}:{server.port}", auth=how) == 403
    assert ws_status(server, kernel_id, origin=f"http://localhost:{server.port + 1}", auth=how) == 403
    assert ws_status(server, kernel_id, origin="null", auth=how) == 403
    # the reported attack: Host and Origin both foreign (they match each other)
    assert ws_status(server, kernel_id, origin=f"http://{FOREIGN}", host=FOREIGN, auth=how) == 403


# ------------------------------------------------------------------ in a browser
def page_kernel_id(page) -> str:
    return page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def kernel_known(srv, kernel_id: str) -> bool:
    status = request(srv, f"/api/kernels/{kernel_id}?token={srv.token}").status
    assert status in (200, 404), status
    return status == 200


def kernel_pids(srv, kernel_id: str) -> set[int]:
    """The processes of the kernel ``kernel_id`` (its connection file names it).  Counting all
    kernel processes would not do: the server keeps a preheated kernel for the next page
    (conquest_widget/_voila_app.py) and starts a new one a few seconds after a page takes it."""
    import psutil

    pids = set()
    for p in kernel_processes(srv):
        try:
            if f"kernel-{kernel_id}.json" in " ".join(p.cmdline()):
                pids.add(p.pid)
        except psutil.NoSuchProcess:
            continue
    return pids


def wait_for(condition, timeout: float = 60.0, what: str = "") -> None:
    """Poll a condition of the server (not of a page, so no Playwright wait applies)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.25)


def pick_japan(page) -> None:
    """The app opens on the game picker: choose Japan Conquest."""
    page.locator(".cw-pick-japan_conquest").click()
    expect(page.get_by_role("button", name="New Game", exact=True)).to_be_visible()


def open_app(page, url: str) -> str:
    page.goto(url)
    pick_japan(page)
    page.wait_for_function("document.querySelectorAll('path.cw-pref').length === 47")
    return page_kernel_id(page)


def test_the_token_url_opens_the_app_with_no_request_to_the_internet(page, server, offline, artifacts) -> None:
    open_app(page, server.url)
    page.screenshot(path=str(artifacts / "30-play-with-token.png"))
    assert offline.blocked == []


def test_without_the_token_a_browser_gets_the_login_page(page, server, offline) -> None:
    page.goto(server.base_url)  # a fresh browser context: no login cookie
    expect(page.locator("input[type=password]").first).to_be_visible()
    assert "/login" in page.url
    expect(page.get_by_role("button", name="New Game", exact=True)).to_have_count(0)
    assert offline.blocked == []


def test_closing_or_reloading_the_tab_shuts_its_kernel_down(page, server, artifacts: Path) -> None:
    first = open_app(page, server.url)
    assert kernel_known(server, first)
    assert len(kernel_pids(server, first)) == 1
    page.reload()  # the old page's beacon shuts its kernel down, the new page starts one
    pick_japan(page)
    second = page_kernel_id(page)
    assert second != first
    wait_for(lambda: not kernel_known(server, first), what="the reloaded page's kernel to be shut down")
    page.close(run_before_unload=True)
    wait_for(lambda: not kernel_known(server, second), what="the closed page's kernel to be shut down")
    wait_for(lambda: not kernel_pids(server, first) | kernel_pids(server, second), what="the kernel processes to end")
    log = (artifacts / "voila-security.log").read_text()
    assert "'_xsrf' argument missing" not in log and "403 POST" not in log


def test_the_kernel_of_a_vanished_tab_is_culled(browser, offline, artifacts: Path,
                                                tmp_path_factory: pytest.TempPathFactory) -> None:
    from .harness import new_context

    served = serve_copy(tmp_path_factory.mktemp("served-cull"))
    log = artifacts / "voila-cull.log"
    with voila_app(served, tmp_path_factory.mktemp("home-cull"), log, cull_idle_timeout=5, cull_interval=1) as srv:
        context = new_context(browser, offline)
        page = context.new_page()
        kernel_id = open_app(page, srv.url)
        assert kernel_known(srv, kernel_id)
        page.close(run_before_unload=False)  # a crash or lost network: no shutdown beacon
        wait_for(lambda: not kernel_known(srv, kernel_id), what="the idle kernel to be culled")
        wait_for(lambda: not kernel_pids(srv, kernel_id), what="the culled kernel's process to end")
        context.close()
    assert re.search(rf"Culling 'idle' kernel '\w+' \({kernel_id}\) with 0 connections", log.read_text()), "the culler did not log the cull"


def test_the_server_config_is_what_play_uses() -> None:
    """The cull settings and the token scheme are those of conquest_widget._voila_app."""
    from conquest_widget import _voila_app

    cfg = _voila_app.config()
    assert cfg.MappingKernelManager.cull_idle_timeout == _voila_app.CULL_IDLE_TIMEOUT > 0
    assert cfg.MappingKernelManager.cull_connected is False
    assert cfg.Voila.tornado_settings["allow_remote_access"] is False
    assert cfg.Voila.ip == "127.0.0.1"
