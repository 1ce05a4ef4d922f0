"""The app server as ``make play`` / ``conquest-widget play`` start it (issue 17 item 2,
issue 16 item 11, issue 31 items 1-5): only local Host names, a token for everything but the
login page (then a SameSite login cookie, and an address without the token), foreign-Origin
websockets refused, ``/voila/files/`` kept inside the app folder, no token in a kernel's
environment, kernels on Unix sockets, kernels bounded in number, shut down when their tab
closes, culled when it vanishes or never connected, no CDN request.

Each check is made against a real Voila started by :func:`conquest_widget.serve.start`;
each has its counterpart that must succeed (the right Host, the token, the page's own
Origin), so a server that refuses everything would fail too.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.ioloop import IOLoop
from tornado.websocket import websocket_connect

from conquest_widget.page_request import KERNEL_HEADER, KERNEL_SECRET_ENV
from conquest_widget.serve import machine_addresses

from .harness import kernel_processes, serve_copy, voila_app

FOREIGN = "evil.example"


@pytest.fixture(scope="module")
def server(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    served = serve_copy(tmp_path_factory.mktemp("served-security"))
    with voila_app(served, tmp_path_factory.mktemp("home-security"), artifacts / "voila-security.log") as srv:
        yield srv


def request(srv, path: str, host: str | None = None, headers: dict | None = None,
            method: str = "GET") -> http.client.HTTPResponse:
    """A request (GET by default) to the server with a chosen Host header; returns the
    (read) response."""
    conn = http.client.HTTPConnection(srv.address, srv.port, timeout=120)  # 127.0.0.1 unless --host
    conn.putrequest(method, path, skip_host=True)
    conn.putheader("Host", host or f"{srv.address}:{srv.port}")
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    conn.endheaders()
    resp = conn.getresponse()
    resp.body = resp.read()  # type: ignore[attr-defined]
    conn.close()
    return resp


def login(srv) -> str:
    """Log in with the token as a browser does; returns the login cookie (``name=value``).
    (The server answers with a redirect to the same address without the token:
    test_the_token_logs_in_with_a_strict_cookie_and_leaves_the_address.)"""
    resp = request(srv, f"/?token={srv.token}")
    cookies = [c.split(";")[0] for c in resp.headers.get_all("Set-Cookie") if c.startswith("username-")]
    assert cookies, "no login cookie set by the token"
    return cookies[0]


def load_page(srv, cookie: str) -> str:
    """Load the app page with the login cookie, as a browser following the redirect does
    (Voila gives it a kernel and runs the notebook), without opening its websocket; returns
    the page's kernel id."""
    resp = request(srv, "/", headers={"Cookie": cookie})
    assert resp.status == 200, (resp.status, resp.body[:300])
    m = re.search(rb'"kernelId":\s*"([0-9a-f-]{36})"', resp.body)
    assert m, "no kernel id in the app page"
    return m.group(1).decode()


def start_kernel(srv) -> tuple[str, str]:
    """Log in and load the app page; returns the page's kernel id and the login cookie."""
    cookie = login(srv)
    return load_page(srv, cookie), cookie


def with_token(srv) -> dict:
    return {"Authorization": f"token {srv.token}"}


def ws_status(srv, kernel_id: str, origin: str | None, host: str | None = None, auth: str | None = None,
              path: str = "/api/kernels/{}/channels") -> int:
    """Open the kernel websocket (or another one, ``path``); 101 when it connects, else the
    refusal's HTTP status.  ``auth``: a login cookie (``name=value``), ``"token"`` (in the
    URL) or None."""
    query = f"?token={srv.token}" if auth == "token" else ""
    headers = {"Host": host or f"{srv.address}:{srv.port}"}
    if auth not in (None, "token"):
        headers["Cookie"] = auth
    if origin is not None:
        headers["Origin"] = origin
    req = HTTPRequest(f"ws://{srv.address}:{srv.port}{path.format(kernel_id)}{query}", headers=headers)

    async def attempt() -> int:
        try:
            conn = await websocket_connect(req)
        except HTTPClientError as exc:
            return exc.code
        conn.close()
        return 101

    return run_async(attempt)


def run_async(attempt):
    """``await attempt()`` in an event loop of its own, in a thread of its own (Playwright's
    sync API keeps a loop running in this one while a browser test module runs)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: IOLoop().run_sync(attempt, timeout=60)).result()


# ------------------------------------------------------------------ Host
@pytest.mark.parametrize("path", ["/", "/?token=T", "/voila/static/voila.js", "/login",
                                  "/voila/labextensions/@voila-dashboards/widgets-manager8/package.json"])
def test_a_foreign_host_gets_403_everywhere(server, path: str) -> None:
    path = path.replace("T", server.token)
    token = with_token(server)  # even with the token
    assert request(server, path, host=f"{FOREIGN}:{server.port}", headers=token).status == 403
    assert request(server, path, host=FOREIGN, headers=token).status == 403
    rebinding = f"127.0.0.1.{FOREIGN}:{server.port}"  # DNS rebinding names
    assert request(server, path, host=rebinding, headers=token).status == 403
    if path.startswith("/voila/"):  # the same path answers for local names
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", f"[::1]:{server.port}"):
            assert request(server, path, host=host, headers=token).status == 200, host


def test_without_host_the_machine_s_network_address_gets_403(server) -> None:
    """``conquest-widget play`` without ``--host``: the server listens on the loopback only,
    and a request naming this machine's address on its network (as a LAN page would) is
    refused even with the token; ``--host`` changes that (test_server_on_a_lan.py)."""
    import socket

    token = with_token(server)
    for address in machine_addresses():
        named = f"[{address}]" if ":" in address else address
        for path in ("/", "/voila/static/voila.js"):
            assert request(server, path, host=f"{named}:{server.port}", headers=token).status == 403, address
        with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as s:
            s.settimeout(10)
            assert s.connect_ex((address, server.port)) != 0, f"the server listens on {address}"
    assert request(server, "/voila/static/voila.js", headers=token).status == 200


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


# ------------------------------------------------------------------ everything wants the token (issue 31 item 1)
SECRET = "the secret file's contents"
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452")  # a PNG's first bytes
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>document.title = "ran"</script></svg>'


@pytest.fixture(scope="module")
def planted(server, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Files put in the app folder as anyone who can write there could: pictures, one in the
    saves folder, and symbolic links named like pictures to a secret inside the folder, to
    one outside it, and to a folder outside it."""
    folder, outside = server.folder, tmp_path_factory.mktemp("outside-the-app")
    (outside / "secret.txt").write_text(SECRET)
    (outside / "img.png").write_bytes(PNG)
    (folder / "secret.txt").write_text(SECRET)
    (folder / "pic.png").write_bytes(PNG)
    (folder / "page.svg").write_bytes(SVG)
    (folder / "conquest_saves").mkdir(exist_ok=True)
    (folder / "conquest_saves" / "x.png").write_bytes(PNG)
    (folder / "link.png").symlink_to(folder / "secret.txt")
    (folder / "out.png").symlink_to(outside / "secret.txt")
    (folder / "outdir").symlink_to(outside, target_is_directory=True)
    return folder


ASSETS = ["/voila/static/voila.js", "/voila/templates/conquest/static/voila.js",
          "/voila/labextensions/@voila-dashboards/widgets-manager8/package.json"]
FILES = ["pic.png", "page.svg", "conquest_saves/x.png", "link.png", "out.png", "outdir/img.png"]


def test_nothing_is_answered_without_the_token_but_the_login_page(server, planted) -> None:
    kernel_id, cookie = start_kernel(server)
    for path in [*ASSETS, *(f"/voila/files/{f}" for f in FILES), f"/api/kernels/{kernel_id}"]:
        resp = request(server, path)
        assert resp.status == 403, (path, resp.status)
        assert SECRET.encode() not in resp.body and PNG not in resp.body
    for path in ASSETS:  # what the page needs, with the token or the login cookie
        assert request(server, path, headers=with_token(server)).status == 200, path
        assert request(server, path, headers={"Cookie": cookie}).status == 200, path
    assert ws_status(server, kernel_id, origin=None, path="/voila/query/{}") == 403  # the page's request info
    assert ws_status(server, kernel_id, origin=None, auth=cookie, path="/voila/query/{}") == 101
    resp = request(server, "/")
    assert resp.status == 302 and resp.getheader("Location").startswith("/login")
    login_page = request(server, "/login")
    assert login_page.status == 200 and b'type="password"' in login_page.body  # the one page open to all


def test_with_the_token_files_are_pictures_of_the_app_folder_and_nothing_through_a_link(server, planted) -> None:
    token = with_token(server)
    for name in ("pic.png", "conquest_saves/x.png"):
        resp = request(server, f"/voila/files/{name}", headers=token)
        assert resp.status == 200 and resp.body == PNG, (name, resp.status)
    for name in ("link.png", "out.png", "outdir/img.png", "secret.txt", "play.ipynb", "../secret.txt"):
        resp = request(server, f"/voila/files/{name}", headers=token)
        assert resp.status in (403, 404), (name, resp.status, resp.body[:100])
        assert SECRET.encode() not in resp.body and PNG not in resp.body, name
    svg = request(server, "/voila/files/page.svg", headers=token)
    assert svg.status == 200  # shown as a picture, but its script would run in a sandbox of no origin
    assert "sandbox" in svg.getheader("Content-Security-Policy", "").split("; ")
    assert svg.getheader("X-Content-Type-Options") == "nosniff"


# ------------------------------------------------------------------ the kernels' transport (issue 31 item 4)
@pytest.mark.skipif(sys.platform == "win32", reason="no Unix sockets: the kernels use TCP on 127.0.0.1")
def test_kernels_talk_over_unix_sockets_in_a_private_folder_not_tcp_ports(server) -> None:
    kernel_id, _ = start_kernel(server)  # a page's kernel (ready: its page was rendered)
    kernels = kernel_processes(server)  # with the preheated one, maybe still starting
    assert kernel_pids(server, kernel_id)
    for p in kernels:
        args = p.cmdline()
        connection_file = Path(args[args.index("-f") + 1])
        info = json.loads(connection_file.read_text())
        assert info["transport"] == "ipc", info["transport"]
        folder = connection_file.parent
        assert folder.stat().st_mode & 0o777 == 0o700 and folder.stat().st_uid == os.getuid()
        if p.pid not in kernel_pids(server, kernel_id):
            continue
        for channel in ("shell", "iopub", "stdin", "control", "hb"):
            sock = Path(f"{info['ip']}-{info[channel + '_port']}")
            assert sock.parent == folder and sock.is_socket(), sock
        # on TCP, a kernel listened on 6 ports of 127.0.0.1 (the 5 channels and ipykernel's pipe
        # for the output of forked processes); the pipe stays (ipykernel always opens it, and
        # drops any message without a random 16-byte key): at most 1 port
        listening = [c for c in p.net_connections(kind="inet") if c.status == "LISTEN"]
        assert len(listening) <= 1, listening


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
    """The app opens on the game picker: choose Japan Conquest (the shell's app, its start
    screen's New game)."""
    page.locator(".cw-pick-japan_conquest").click()
    expect(page.locator(".cw-app-japan_conquest").get_by_role("button", name="New game", exact=True)).to_be_visible()


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
    expect(page.get_by_role("button", name="New game", exact=True)).to_have_count(0)
    expect(page.locator(".cw-picker")).to_have_count(0)
    assert offline.blocked == []


# ------------------------------------------------------------------ the login cookie and the address (issue 31 item 4)
def test_the_token_logs_in_with_a_strict_cookie_and_leaves_the_address(server, page) -> None:
    resp = request(server, f"/?token={server.token}&theme=light")
    assert resp.status == 302, resp.status
    assert resp.getheader("Location") == "/?theme=light"  # the same address, without the token
    cookie = next(c for c in resp.headers.get_all("Set-Cookie") if c.startswith("username-"))
    attributes = {a.strip().lower() for a in cookie.split(";")[1:]}
    assert {"httponly", "samesite=strict"} <= attributes, cookie  # no page of another site can use it
    assert request(server, "//evil.example/?token=" + server.token).getheader("Location") == "/evil.example/"
    # in a browser: the address bar shows no token, and the cookie keeps the page working
    page.goto(server.url)
    expect(page.locator(".cw-pick-japan_conquest")).to_be_visible()
    assert page.url == server.base_url, page.url
    page.reload()
    expect(page.locator(".cw-pick-japan_conquest")).to_be_visible()
    assert server.token not in page.evaluate("location.href + document.referrer")


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
    """A page that connected and then vanished (no shutdown beacon): its kernel is culled
    after 5 s idle.  The 5 s apply only to such kernels: the preheated kernel is never culled
    while it starts or waits (on a busy machine it was, and the page never got its game), and
    a page's kernel has ``UNCONNECTED_TIMEOUT`` (60 s) to be connected once the page was sent.
    10 of 10 runs passed at load average 10-14 (two busy loops and other tests running)."""
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


# ------------------------------------------------------------------ the kernels' environment (issue 31 item 2)
POOL_FILLED = "is filled with"


def wait_for_log(log: Path, pattern: str, what: str, timeout: float = 180.0, count: int = 1) -> list[re.Match]:
    """Until the server's log holds ``count`` matches of ``pattern``; returns them."""
    found: list[re.Match] = []

    def enough() -> bool:
        found[:] = list(re.finditer(pattern, log.read_text(errors="replace")))
        return len(found) >= count

    wait_for(enough, timeout, what)
    return found


def assert_no_token_in_environment(srv, kernels: list) -> None:
    for p in kernels:
        env = p.environ()
        assert "JUPYTER_TOKEN" not in env, f"kernel {p.pid} has JUPYTER_TOKEN in its environment"
        leaks = sorted(k for k, v in env.items() if srv.token in v)
        assert leaks == [], f"kernel {p.pid} has the token in {leaks}"


def test_no_kernel_has_the_token_in_its_environment(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Other processes of the user can read a kernel's environment (/proc/<pid>/environ):
    neither the preheated kernel started with the server, nor the kernels started later."""
    served = serve_copy(tmp_path_factory.mktemp("served-environ"))
    log = artifacts / "voila-environ.log"
    with voila_app(served, tmp_path_factory.mktemp("home-environ"), log) as srv:
        wait_for_log(log, POOL_FILLED, "the preheated kernel")
        assert_no_token_in_environment(srv, kernel_processes(srv))
        cookie = login(srv)
        load_page(srv, cookie)  # takes the preheated kernel; the pool is refilled
        wait_for_log(log, POOL_FILLED, "the pool to be refilled", count=2)
        kernels = kernel_processes(srv)
        assert len(kernels) >= 2
        assert_no_token_in_environment(srv, kernels)


# ------------------------------------------------------------------ a kernel reads its page's request (issue 28)
def read_request_info(srv, kernel_id: str, secret: str | None) -> tuple[int, list[str]]:
    """Open ``/voila/query/<kernel id>`` as a kernel does, with ``secret`` in the kernel
    header (None: no header) and no login; returns 101 and every message the server sent
    before answering a ping (a request it keeps is written as the socket opens, so it comes
    first), or the refusal's HTTP status and []."""
    headers = {"Host": f"127.0.0.1:{srv.port}"}
    if secret is not None:
        headers[KERNEL_HEADER] = secret
    req = HTTPRequest(f"ws://127.0.0.1:{srv.port}/voila/query/{kernel_id}", headers=headers)

    async def attempt() -> tuple[int, list[str]]:
        messages: list[str] = []
        try:
            conn = await websocket_connect(req, on_message_callback=lambda m: m is None or messages.append(m))
        except HTTPClientError as exc:
            return exc.code, []
        pong = asyncio.get_running_loop().create_future()
        conn.on_pong = lambda data: pong.done() or pong.set_result(data)  # type: ignore[method-assign]
        conn.ping(b"after-open")
        await asyncio.wait_for(pong, 30)
        conn.close()
        return 101, messages

    return run_async(attempt)


def test_a_page_s_request_is_read_only_with_the_kernels_secret_and_only_once(
        artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A preheated kernel learns which table link opened its page from the server's
    request-info websocket, with the secret the server gives its kernels: without it (or
    with a wrong one, and no login) nothing is answered; with it the request is given once,
    then forgotten (a second reader, the right secret or not, gets nothing)."""
    served = serve_copy(tmp_path_factory.mktemp("served-query"))
    log = artifacts / "voila-query.log"
    with voila_app(served, tmp_path_factory.mktemp("home-query"), log) as srv:
        wait_for_log(log, POOL_FILLED, "the preheated kernel")
        (kernel,) = kernel_processes(srv)
        secret = kernel.environ()[KERNEL_SECRET_ENV]
        assert len(secret) >= 32
        query = f"table={'a1' * 16}&seat=1&key=the-seat-key-of-this-link"
        cookie = login(srv)
        resp = request(srv, f"/?{query}", headers={"Cookie": cookie})  # takes the preheated kernel
        assert resp.status == 200, resp.status
        kernel_id = re.search(rb'"kernelId":\s*"([0-9a-f-]{36})"', resp.body).group(1).decode()  # type: ignore[union-attr]
        assert f"kernel-{kernel_id}.json" in " ".join(kernel.cmdline())  # the preheated kernel it is
        for wrong in (None, "", "not-the-secret", secret[:-1], secret + "x"):
            assert read_request_info(srv, kernel_id, wrong) == (403, []), wrong
        status, messages = read_request_info(srv, kernel_id, secret)
        assert status == 101 and len(messages) == 1, (status, messages)
        assert json.loads(messages[0])["QUERY_STRING"] == query
        assert read_request_info(srv, kernel_id, secret) == (101, [])  # forgotten once read
        assert ws_status(srv, kernel_id, origin=None, auth=cookie, path="/voila/query/{}") == 101
        assert "the-seat-key-of-this-link" not in log.read_text()


# ------------------------------------------------------------------ how many kernels (issue 31 item 3)
def test_a_page_beyond_the_most_kernels_gets_503_until_a_tab_is_closed(artifacts: Path,
                                                                      tmp_path_factory: pytest.TempPathFactory) -> None:
    served = serve_copy(tmp_path_factory.mktemp("served-max"))
    log = artifacts / "voila-max-kernels.log"
    with voila_app(served, tmp_path_factory.mktemp("home-max"), log, max_kernels=2) as srv:
        cookie = login(srv)
        pages = [load_page(srv, cookie) for _ in range(2)]
        refused = request(srv, "/", headers={"Cookie": cookie})
        assert refused.status == 503, refused.status
        assert b"close a tab of the app" in refused.body, refused.body
        wait_for_log(log, POOL_FILLED, "the pool to be refilled", count=2)
        assert len(kernel_processes(srv)) <= 2 + 1  # the pages' kernels and the preheated one
        # closing a tab (its kernel is shut down) makes room again
        assert request(srv, f"/api/kernels/{pages[0]}", method="DELETE", headers=with_token(srv)).status == 204
        assert load_page(srv, cookie) not in pages


UNCONNECTED = 20  # seconds


def test_a_kernel_whose_page_never_connected_is_culled_but_not_the_preheated_one(
        browser, offline, artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Interrupted reloads and clients that are no browser leave kernels whose page never
    opens its websocket: shut down after ``unconnected_timeout`` (20 s here: time enough for
    a browser to load the page and connect), while the preheated kernel waiting for the next
    page is kept however long it waits, and so is the kernel of a page that is open."""
    from .harness import new_context

    served = serve_copy(tmp_path_factory.mktemp("served-unconnected"))
    log = artifacts / "voila-unconnected.log"
    with voila_app(served, tmp_path_factory.mktemp("home-unconnected"), log, unconnected_timeout=UNCONNECTED,
                   cull_interval=1, log_level="DEBUG") as srv:
        context = new_context(browser, offline)
        page = context.new_page()
        open_kernel = open_app(page, srv.url)  # a tab that stays open
        wait_for_log(log, POOL_FILLED, "the preheated kernel", count=2)
        before = len(kernel_processes(srv))
        cookie = login(srv)  # a plain GET with the token: a redirect, no kernel
        assert len(kernel_processes(srv)) == before
        never_connected = [load_page(srv, cookie) for _ in range(2)]
        wait_for(lambda: not any(kernel_known(srv, k) for k in never_connected), timeout=180,
                 what="the kernels of pages that never connected to be culled")
        wait_for(lambda: not set().union(*(kernel_pids(srv, k) for k in never_connected)),
                 what="their processes to end")
        # the preheated kernel: kept in a culling pass when it had waited longer than that
        waits = r"Culling pass: kernel ([0-9a-f-]{36}) waits in the pool \(idle (\d+) s\), kept"
        wait_for(lambda: any(int(m.group(2)) > UNCONNECTED for m in re.finditer(waits, log.read_text())),
                 timeout=180, what=f"a culling pass that sees the preheated kernel idle for over {UNCONNECTED} s")
        pooled = next(m.group(1) for m in re.finditer(waits, log.read_text()) if int(m.group(2)) > UNCONNECTED)
        assert kernel_known(srv, pooled)
        assert load_page(srv, cookie) == pooled  # and the next page gets it
        # the open tab still plays: its kernel answers
        assert kernel_known(srv, open_kernel)
        page.get_by_role("button", name="日本語", exact=True).click()
        expect(page.get_by_role("button", name="新しいゲーム", exact=True)).to_be_visible()
        expect(page.get_by_role("button", name="New game", exact=True)).to_have_count(0)
        context.close()
    text = log.read_text()
    for kernel_id in never_connected:
        assert f"Culling kernel {kernel_id}: its page never connected" in text
    assert f"Culling kernel {pooled}" not in text and f"Culling kernel {open_kernel}" not in text


def test_the_server_config_is_what_play_uses() -> None:
    """The cull settings and the token scheme are those of conquest_widget._voila_app."""
    from conquest_widget import _voila_app

    cfg = _voila_app.config()
    assert cfg.MappingKernelManager.cull_idle_timeout == _voila_app.CULL_IDLE_TIMEOUT > 0
    assert cfg.MappingKernelManager.cull_connected is False
    assert cfg.Voila.tornado_settings["allow_remote_access"] is False
    assert cfg.Voila.ip == "127.0.0.1"
