"""Issue 18: the app server hands each page a kernel that Voila started (and ran the app
notebook in) before the page was asked for (conquest_widget/_voila_app.py).  Two tabs must
still be two games: each page its own kernel, nothing of one visible in the other.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import expect

from .harness import new_context, new_page

POOL_FILLED = "is filled with"
USED = "Using pre-heated kernel: "


def kernel_id(page) -> str:
    return page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def wait_for_full_pool(log: Path, timeout: float = 120.0) -> None:
    """Until Voila's log shows its pool filled once more than pages took a kernel from it."""
    deadline = time.monotonic() + timeout
    while True:
        text = log.read_text(errors="replace")
        if text.count(POOL_FILLED) >= text.count(USED) + 1:
            return
        assert time.monotonic() < deadline, f"the kernel pool was not filled again; see {log}"
        time.sleep(0.2)


def test_two_tabs_get_two_preheated_kernels_that_share_nothing(browser, offline, voila_url, artifacts) -> None:
    log = artifacts / "voila.log"
    contexts = [new_context(browser, offline) for _ in range(2)]
    try:
        a, b = (new_page(c) for c in contexts)
        wait_for_full_pool(log)
        used_before = len(re.findall(r"Using pre-heated kernel: ([0-9a-f-]{36})", log.read_text()))
        a.goto(voila_url)
        expect(a.locator(".cw-pick-japan_conquest")).to_be_visible()
        # tab A: Japan Conquest, switched to Japanese
        a.locator(".cw-pick-japan_conquest").click()
        expect(a.locator(".cw-app-japan_conquest").get_by_role("button", name="New game", exact=True)).to_be_visible()
        a.get_by_role("button", name="日本語", exact=True).click()
        expect(a.get_by_role("button", name="New game", exact=True)).to_have_count(0)
        expect(a.locator(".cw-app-japan_conquest").get_by_role("button", name="新しいゲーム", exact=True)).to_be_visible()
        # tab B (once the pool is full again, so it is preheated too): the picker, in the
        # language tab A chose and saved (issue 30), though its kernel ran the notebook before
        wait_for_full_pool(log)
        b.goto(voila_url)
        expect(b.locator(".cw-pick-codex")).to_be_visible()
        expect(b.locator(".cw-picker")).to_be_visible()
        expect(b.locator("path.cw-pref")).to_have_count(0)
        expect(b.locator(".cw-pick-codex")).to_have_text("遊ぶ")
        b.locator(".cw-pick-codex").click()
        expect(b.locator(".cw-match-app").get_by_role("button", name="新しいゲーム", exact=True)).to_be_visible()
        # tab A is still its own game: Japan Conquest in Japanese, no Codex
        expect(a.locator("path.cw-pref")).to_have_count(47)
        expect(a.locator(".cw-match-app")).to_have_count(1)
        expect(a.locator(".cw-app-japan_conquest")).to_have_count(1)
        expect(a.get_by_role("button", name="新しいゲーム", exact=True)).to_be_visible()
        expect(a.get_by_role("button", name="New game", exact=True)).to_have_count(0)
        ka, kb = kernel_id(a), kernel_id(b)
        assert ka != kb
        used = re.findall(r"Using pre-heated kernel: ([0-9a-f-]{36})", log.read_text())[used_before:]
        assert used == [ka, kb], (used, ka, kb)  # both pages got a preheated kernel, in order
        a.screenshot(path=str(artifacts / "preheat-tab-a.png"))
        b.screenshot(path=str(artifacts / "preheat-tab-b.png"))
        assert offline.unexpected() == []
        assert a.page_errors == [] and b.page_errors == []  # type: ignore[attr-defined]
    finally:
        for c in contexts:
            c.close()
