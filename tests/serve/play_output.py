"""Reading the address that ``conquest-widget play`` prints, shared by the serve tests and
the packaging tests (the command run from the source tree and from an installed wheel)."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time


def as_from_a_terminal(cmd: list[str]) -> list[str]:
    """``cmd`` started as from a terminal, where Ctrl-C (SIGINT) is delivered: a shell
    without job control starts background jobs with SIGINT *ignored*, and that is inherited
    (a suite run as ``make test &`` from a script would otherwise see Ctrl-C do nothing).
    A tiny interpreter puts SIGINT back to its default and ``exec``s the command."""
    code = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])"
    return [sys.executable, "-c", code, *cmd]


class PlayOutput:
    """The output lines of a running ``play`` process, read on a thread as they come.

    ``wait_for(pattern)`` returns the first printed line's match of ``pattern`` (None if the
    process ended or ``timeout`` passed first); ``seen`` holds every line read so far."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.seen: list[str] = []
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [self._lines.put(line) for line in proc.stdout], daemon=True).start()

    def wait_for(self, pattern: str, timeout: float = 240) -> re.Match[str] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                self.seen.append(self._lines.get(timeout=1))
            except queue.Empty:
                continue
            if found := re.search(pattern, self.seen[-1]):
                return found
        return None

    def drain(self, quiet: float = 0.5, limit: float = 5) -> list[str]:
        """The lines printed since, until none comes for ``quiet`` seconds (at most ``limit``)."""
        out: list[str] = []
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                out.append(self._lines.get(timeout=quiet))
            except queue.Empty:
                break
        self.seen += out
        return out

    def text(self) -> str:
        return "".join(self.seen)
