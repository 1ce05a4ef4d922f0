"""``conquest-widget play --host`` for a classroom or a LAN (issue 28): the server bound to
this machine's address on its network answers requests for that address, still only with
the token (or the login cookie it sets), still refuses every other ``Host`` and kernel
websockets from another ``Origin``; a table's seat link given with that address opens its
seat in a browser that reaches the server only there, and the player acts from it.  The
default server (no ``--host``) refuses this address: test_server_security.py.

Each check is made against a real Voila started by :func:`conquest_widget.serve.start`
(what ``conquest-widget play --host`` runs) on the first non-loopback IPv4 address of this
machine; each refusal has its counterpart that succeeds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conquest_widget import tables
from conquest_widget.core import registry
from conquest_widget.serve import AppServer, machine_addresses

from .harness import OfflineGuard, new_page, serve_copy, voila_app
from .test_server_security import FOREIGN, request, start_kernel, wait_for, ws_status

LAN = next((a for a in machine_addresses() if ":" not in a), None)
pytestmark = pytest.mark.skipif(LAN is None, reason="this machine has no IPv4 address besides the loopback")


@pytest.fixture(scope="module")
def lan(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    served = serve_copy(tmp_path_factory.mktemp("served-lan"))
    with voila_app(served, tmp_path_factory.mktemp("home-lan"), artifacts / "voila-lan.log", host=LAN) as srv:
        yield srv


def test_the_lan_address_is_served_and_printed(lan: AppServer) -> None:
    assert lan.url == f"http://{LAN}:{lan.port}/?token={lan.token}"
    assert lan.lan_urls == [lan.url]


def test_on_the_lan_address_the_token_is_still_needed(lan: AppServer) -> None:
    static = "/voila/static/voila.js"
    assert request(lan, static).status == 403
    assert request(lan, static, headers={"Authorization": "token wrong"}).status == 403
    assert request(lan, static, headers={"Authorization": f"token {lan.token}"}).status == 200
    page = request(lan, "/")
    assert page.status == 302 and page.getheader("Location").startswith("/login")
    assert request(lan, "/?token=wrong").status == 302


@pytest.mark.parametrize("host", [FOREIGN, f"{FOREIGN}:{{port}}", f"{LAN}.{FOREIGN}:{{port}}", "192.0.2.254:{port}"])
def test_on_the_lan_address_another_host_name_gets_403(lan: AppServer, host: str) -> None:
    token = {"Authorization": f"token {lan.token}"}
    for path in ("/", f"/?token={lan.token}", "/voila/static/voila.js", "/login"):
        assert request(lan, path, host=host.format(port=lan.port), headers=token).status == 403, (host, path)


def test_on_the_lan_address_the_page_opens_and_a_foreign_origin_websocket_is_refused(lan: AppServer) -> None:
    assert request(lan, f"/?token={lan.token}").getheader("Location") == "/"
    kernel_id, cookie = start_kernel(lan)  # logs in and loads the page at the LAN address
    own = f"http://{LAN}:{lan.port}"
    assert ws_status(lan, kernel_id, own, auth=cookie) == 101
    assert ws_status(lan, kernel_id, f"http://{FOREIGN}", auth=cookie) == 403
    assert ws_status(lan, kernel_id, f"http://{FOREIGN}:{lan.port}", auth=cookie) == 403
    assert ws_status(lan, kernel_id, f"http://127.0.0.1:{lan.port}", auth=cookie) == 403  # another origin, though local
    assert ws_status(lan, kernel_id, "null", auth=cookie) == 403
    assert ws_status(lan, kernel_id, f"http://{FOREIGN}", auth=cookie, host=FOREIGN) == 403  # both foreign


class LanOnly(OfflineGuard):
    """Lets through the server's LAN address only (what another machine's browser reaches)."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.allowed = (f"http://{address}:", f"ws://{address}:", "data:", "blob:")

    def __call__(self, route) -> None:
        if route.request.url.startswith(self.allowed):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()


def test_a_seat_link_with_the_lan_address_opens_the_seat_and_plays(browser, lan: AppServer) -> None:
    store = tables.open_store(lan.folder / "conquest_saves")
    setup = registry.get("conquest_cards").engine_class().random_setup(random.Random(3), 2)
    new = tables.create_table(store, "conquest_cards", setup, ["human", "normal"], seed=3)
    link = tables.seat_link(f"http://{LAN}:{lan.port}/", new.id, 0, new.invites[0])
    seat = tables.join(store, new.invites[0])
    guard = LanOnly(LAN)  # type: ignore[arg-type]
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    context.route("**/*", guard)
    try:
        page = new_page(context)
        page.goto(f"{link}&token={lan.token}")
        expect(page.locator(".cw-table-seat-0 .cw-cards-board")).to_be_visible()
        assert "token" not in page.url and page.url.startswith(f"http://{LAN}:{lan.port}/")
        draw = page.locator(".cw-table-seat-0 button.cw-draw")
        expect(draw).to_be_enabled()
        before = seat.version
        draw.click()
        expect(draw).to_be_disabled()
        wait_for(lambda: (seat.refresh(), seat.version > before)[1], timeout=60, what="the draw to reach the store")
        assert guard.blocked == [] and page.page_errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
