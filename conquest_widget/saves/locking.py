"""An inter-process lock on a save directory (``fcntl.flock`` on its ``.lock`` file).

Every change a :class:`~conquest_widget.saves.SaveStore` makes runs while holding the
lock, so two apps (processes) sharing one directory take turns: read-modify-write
updates of the results and records files are never lost, and "is this slot free?"
checks cannot race.  The lock is re-entrant within one :class:`DirectoryLock` object.

    >>> import tempfile, pathlib
    >>> lock = DirectoryLock(pathlib.Path(tempfile.mkdtemp()))
    >>> with lock:
    ...     with lock:          # re-entrant
    ...         lock.held
    True
    >>> lock.held
    False

On platforms without ``fcntl`` (Windows) ``msvcrt.locking`` is used instead.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import TracebackType
from typing import Self

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
try:  # pragma: no cover - Windows
    import msvcrt
except ImportError:
    msvcrt = None  # type: ignore[assignment]

#: name of the lock file inside the save directory
LOCK_NAME = ".lock"


class DirectoryLock:
    """Exclusive lock on ``directory`` shared by every process using it (blocking)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._depth > 0

    @property
    def depth(self) -> int:
        """How many times this object holds the lock (0 when not held)."""
        return self._depth

    def acquire(self) -> None:
        """Take the lock (waits for other holders); creates the directory if needed."""
        self._thread_lock.acquire()
        if self._depth == 0:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
                try:
                    _lock_fd(fd)
                except BaseException:
                    os.close(fd)
                    raise
            except BaseException:
                self._thread_lock.release()
                raise
            self._fd = fd
        self._depth += 1

    def release(self) -> None:
        """Give the lock back (the outermost release unlocks the file)."""
        if self._depth <= 0:
            raise RuntimeError("DirectoryLock released more times than acquired")
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                _unlock_fd(fd)
            finally:
                os.close(fd)
        self._thread_lock.release()

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def _lock_fd(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)
    elif msvcrt is not None:  # pragma: no cover - Windows
        os.lseek(fd, 0, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
                return
            except OSError:
                continue


def _unlock_fd(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    elif msvcrt is not None:  # pragma: no cover - Windows
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


__all__ = ["LOCK_NAME", "DirectoryLock"]
