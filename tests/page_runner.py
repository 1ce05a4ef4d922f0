"""What the tests of the page modules share: Node.js, which runs a widget's page module
(its ``.js``, as anywidget sends it) with a minimal DOM (``tests/page/dom.mjs``), no browser.

``make test`` installs Node.js (Debian's ``nodejs``): in CI a missing Node.js is a failure,
elsewhere the page tests are skipped.
"""

from __future__ import annotations

import os
import shutil

import pytest


def node() -> str:
    """The ``node`` executable (fails the test in CI without it, skips it elsewhere)."""
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):  # `make test` installs it: in CI a missing Node.js is a failure, not a skip
            pytest.fail("Node.js is not installed (make test installs it: apt-get install nodejs)")
        pytest.skip("Node.js is not installed (apt-get install nodejs)")
    return found
