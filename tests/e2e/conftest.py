"""Browser end-to-end fixtures: Voila serving examples/play.ipynb exactly as ``make play``
starts it (:func:`conquest_widget.serve.start`: local Host names only, a token in the URL,
kernel culling, no CDN), Debian's chromium
driven by Playwright for Python, every non-local request blocked (the app must work
offline), screenshots written to ``test-artifacts/e2e/``.

The machinery lives in :mod:`harness` (shared with the browser benchmark); these are
thin fixtures over it.

Nothing here sleeps and hopes: every wait is for a state of the page (a button, the
prefecture shapes, a style attribute), with a generous timeout.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import (
    ARTIFACTS,
    OfflineGuard,
    chromium,
    new_context,
    new_page,
    serve_copy,
    voila_server,
)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def served_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the served copy of examples/play.ipynb lives: its kernels run here, so the
    app's saves (``conquest_saves/`` next to the notebook) never touch the repository."""
    return serve_copy(tmp_path_factory.mktemp("served"))


@pytest.fixture(autouse=True)
def first_visit_in_english(request: pytest.FixtureRequest) -> None:
    """Every test on the shared server opens the app as a first visit does: in English
    and with every setup form as it comes.  The language (issue 30) and each game's last
    setup (issue 29) are remembered in the save folder, so a test that switched to 日本語
    or started a game with two humans would otherwise leave the next one in Japanese or
    in front of a "Pass the screen" curtain."""
    if "voila_url" not in request.fixturenames:
        return
    from conquest_widget.errors import ConquestError
    from conquest_widget.saves import SaveStore

    store = SaveStore(request.getfixturevalue("served_dir") / "conquest_saves")
    try:
        prefs = store.preferences()
    except ConquestError:
        return
    remembered = {"language", "last_setups"}
    if remembered & prefs.keys():
        store.save_preferences({k: v for k, v in prefs.items() if k not in remembered})


@pytest.fixture(scope="session")
def voila_url(artifacts: Path, served_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Voila serving (a copy of) examples/play.ipynb on a free local port; yields the URL
    to open, which carries the server's token."""
    with voila_server(served_dir, tmp_path_factory.mktemp("voila-home"), artifacts / "voila.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator:
    # Module scope, not session: while Playwright's sync API is running, the main thread
    # has a running asyncio loop, which later (non-browser) tests must not see.
    try:
        with chromium() as b:
            yield b
    except FileNotFoundError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def offline() -> OfflineGuard:
    return OfflineGuard()


@pytest.fixture
def page(browser, offline: OfflineGuard, artifacts: Path, request: pytest.FixtureRequest) -> Iterator:
    """A fresh browser context and page; on failure a screenshot is kept."""
    context = new_context(browser, offline)
    pg = new_page(context)
    yield pg
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        with contextlib.suppress(Exception):  # best effort on a broken page
            pg.screenshot(path=str(artifacts / f"FAILED-{request.node.name}.png"), full_page=True)
    context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep
