"""An inter-process lock on a save directory (its ``.lock`` file, through :mod:`filelock`).

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

:mod:`filelock` takes an ``flock`` on POSIX and ``msvcrt`` locking on Windows, and opens
the lock file with ``O_NOFOLLOW``: a ``.lock`` that is a symbolic link is refused
(:class:`~conquest_widget.errors.SaveFileError`), so the lock can never create or
truncate a file outside the save directory.  The lock file stays after release (deleting
it on release would let two processes lock two different inodes).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import TracebackType
from typing import Self

from filelock import FileLock

from conquest_widget.errors import SaveFileError

#: name of the lock file inside the save directory
LOCK_NAME = ".lock"


class DirectoryLock:
    """Exclusive lock on ``directory`` shared by every process using it (blocking)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._file_lock: FileLock | None = None

    @property
    def path(self) -> Path:
        """The lock file."""
        return self.directory / LOCK_NAME

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._depth > 0

    @property
    def depth(self) -> int:
        """How many times this object holds the lock (0 when not held)."""
        return self._depth

    def acquire(self) -> None:
        """Take the lock (waits for other holders); creates the directory if needed.

        Raises :class:`SaveFileError` when ``.lock`` is a symbolic link and OSError when
        the directory cannot be used."""
        self._thread_lock.acquire()
        if self._depth == 0:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                if os.path.islink(self.path):
                    raise SaveFileError(self.path, "is a symbolic link: refusing to lock through it (remove it)")
                lock = FileLock(
                    self.path, mode=0o644, thread_local=False, preserve_lock_file=True, fallback_to_soft=False
                )
                lock.acquire()
            except BaseException:
                self._thread_lock.release()
                raise
            self._file_lock = lock
        self._depth += 1

    def release(self) -> None:
        """Give the lock back (the outermost release unlocks the file)."""
        if self._depth <= 0:
            raise RuntimeError("DirectoryLock released more times than acquired")
        self._depth -= 1
        try:
            if self._depth == 0 and self._file_lock is not None:
                lock, self._file_lock = self._file_lock, None
                lock.release()
        finally:
            self._thread_lock.release()

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


__all__ = ["LOCK_NAME", "DirectoryLock"]
