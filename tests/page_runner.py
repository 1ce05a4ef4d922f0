"""What the tests of the page modules share: Node.js, which runs a widget's page module
(its ``.js``, as anywidget sends it) with a minimal DOM (``tests/page/dom.mjs``), no browser.

``make test`` installs Node.js (Debian's ``nodejs``): in CI a missing Node.js is a failure,
elsewhere the page tests are skipped.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conquest_widget.scene import read_message


def node() -> str:
    """The ``node`` executable (fails the test in CI without it, skips it elsewhere)."""
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):  # `make test` installs it: in CI a missing Node.js is a failure, not a skip
            pytest.fail("Node.js is not installed (make test installs it: apt-get install nodejs)")
        pytest.skip("Node.js is not installed (apt-get install nodejs)")
    return found


class PageRecorder:
    """A scene widget's messages to the page as they are sent, each with what the kernel
    side says the page shows after it (``expected(widget)``); :meth:`shown` replays them into
    the widget's page module (as sent) in Node.js with ``runner`` (a ``.mjs`` built on
    ``tests/page/dom.mjs``) and returns what the page showed after each, and what it sent.
    ``only_patches``: record only the messages that carry a patch."""

    def __init__(self, widget: Any, expected: Callable[[Any], dict[str, Any]], runner: Path, *,
                 only_patches: bool = True) -> None:
        self.widget, self.runner = widget, runner
        self.steps: list[list[Any]] = [[copy.deepcopy(widget.scene), None]]
        self.expected = [expected(widget)]
        send = widget.send

        def record(content: Any, buffers: Any = None) -> None:
            if not only_patches or read_message(content) is not None:
                self.steps.append([None, copy.deepcopy(content)])
                self.expected.append(expected(widget))
            send(content, buffers)

        widget.send = record

    def shown(self, tmp_path: Path) -> tuple[list[dict[str, Any]], list[Any]]:
        """What the page module shows after each message, and what it sent the kernel."""
        steps = tmp_path / "steps.json"
        steps.write_text(json.dumps(self.steps), encoding="utf-8")
        module = tmp_path / "module.mjs"  # the module as sent: scene.js, then the widget's own
        module.write_text(self.widget._esm, encoding="utf-8")
        proc = subprocess.run([node(), str(self.runner), str(module), str(steps)], capture_output=True, text=True,
                              timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        return out["shown"], out["sent"]


FORM_RUNNER = Path(__file__).parent / "page" / "run_form.mjs"


def run_form(widget: Any, model: dict[str, Any], watch: list[dict[str, Any]], steps: list[dict[str, Any]],
             tmp_path: Path) -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]]]:
    """Play ``steps`` on a form's page module (``widget._esm``, as sent) opened with the
    synced ``model`` (see ``tests/page/run_form.mjs`` for specs and steps): what each
    ``watch`` element shows after the first render and after each step, and what the page
    sent the kernel."""
    module = tmp_path / "form.mjs"
    module.write_text(widget._esm, encoding="utf-8")
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"model": model, "watch": watch, "steps": steps}), encoding="utf-8")
    proc = subprocess.run([node(), str(FORM_RUNNER), str(module), str(script)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    return out["shown"], out["sent"]
