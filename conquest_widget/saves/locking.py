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

:class:`AutosaveLease` is the other lock of a save directory: a game's autosave belongs
to the one app that has that game on screen (issue 31 item 10, two tabs of one game).
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Self

from filelock import FileLock, Timeout

from conquest_widget.errors import GameOpenElsewhereError, SaveFileError

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


def lease_file(game: str) -> str:
    """The play-lease file of ``game`` in a save directory (a lock file, always empty).

        >>> lease_file("codex"), lease_file("japan_conquest")
        ('autosave-codex.inplay', 'autosave-japan_conquest.inplay')
    """
    return f"autosave-{game}.inplay"


#: the leases held in this process, by lease file (its real path): a second claim in the
#: same process is refused without asking the OS (whose answer differs between systems)
_HELD: weakref.WeakValueDictionary[str, AutosaveLease] = weakref.WeakValueDictionary()
_HELD_LOCK = threading.Lock()


#: seconds an app waits for another kernel to let go of a game before saying it is open
#: there: a reloaded page's old kernel is still shutting down when the new page asks for it
RELOAD_WAIT_S = 5.0


class AutosaveLease:
    """The right to write one game's autosave in one save directory: the play lease of
    the app that has that game on screen (:meth:`SaveStore.claim_autosave
    <conquest_widget.saves.SaveStore.claim_autosave>` takes it).

    It is an exclusive, non-blocking OS lock (``flock`` / ``msvcrt``, through
    :mod:`filelock`) on ``autosave-<game>.inplay`` in the directory, so a second app of
    the same directory — another browser tab (its own kernel), another notebook, another
    app in the same kernel — is refused while the first plays, and a killed kernel frees
    it (the OS drops the locks of a dead process).  Within one process, a registry refuses
    a second lease on the same file whatever the OS would say.

        >>> import tempfile, pathlib
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> lease = AutosaveLease.claim(folder, "codex", "Codex")
        >>> AutosaveLease.claim(folder, "codex", "Codex")
        Traceback (most recent call last):
        ...
        conquest_widget.errors.GameOpenElsewhereError: Codex is open in another app of this kernel (notebook) with this save folder (...): continue it there, or leave it there (Exit: its game stays autosaved) and press Resume here
        >>> lease.release(); lease.held
        False
        >>> AutosaveLease.claim(folder, "codex", "Codex").held
        True

    The lock file stays after release (like ``.lock``).  A lease is released by
    :meth:`release`, when it is garbage-collected and when its process ends.
    """

    def __init__(self, directory: Path, game: str, file_lock: FileLock, key: str,
                 on_taken_over: Callable[[], None] | None = None) -> None:
        self.directory = Path(directory)
        self.game = game
        self._file_lock: FileLock | None = file_lock
        self._key = key
        self._on_taken_over = on_taken_over

    @property
    def path(self) -> Path:
        """The lease file."""
        return self.directory / lease_file(self.game)

    @property
    def held(self) -> bool:
        """True until :meth:`release`."""
        return self._file_lock is not None

    def __repr__(self) -> str:
        return f"<AutosaveLease {self.game!r} in {str(self.directory)!r}{'' if self.held else ' (released)'}>"

    @classmethod
    def claim(cls, directory: Path, game: str, title: str,
              on_taken_over: Callable[[], None] | None = None, wait: float = 0.0) -> AutosaveLease:
        """Take the lease of ``game`` in ``directory`` (created if needed) without waiting.

        Raises :class:`GameOpenElsewhereError` (naming ``title``, the game's title) when
        another app holds it, :class:`SaveFileError` when the lease file is a symbolic
        link or the directory cannot be used.

        ``on_taken_over``: what the claiming app does when a newer app *of the same
        process* claims the game (a notebook cell run again makes a new app while the old
        one still shows the game): the holder leaves its game (its autosave written) and
        releases, and the newcomer gets the lease.  A holder without it keeps the game (the
        newcomer is refused).  Another process (another tab's kernel) is never taken over;
        ``wait``: seconds to wait for it to let go (a reloaded page's old kernel is shutting
        down while the new page asks for the game) before refusing."""
        directory = Path(directory)
        path = directory / lease_file(game)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            if os.path.islink(path):
                raise SaveFileError(path, "is a symbolic link: refusing to lock through it (remove it)")
            key = os.path.normcase(os.path.realpath(path))
        except OSError as exc:
            raise SaveFileError(directory, f"cannot use the save directory: {exc.strerror or exc}") from exc
        with _HELD_LOCK:
            holder = _HELD.get(key)
        if holder is not None and holder._on_taken_over is not None:
            holder._on_taken_over()  # the older app of this process leaves the game (outside the lock)
            holder.release()
        with _HELD_LOCK:
            if key in _HELD:
                raise GameOpenElsewhereError(game, title, directory, same_process=True)
            lock = FileLock(path, mode=0o644, thread_local=False, is_singleton=False,
                            preserve_lock_file=True, fallback_to_soft=False)
            try:
                if wait > 0:
                    lock.acquire(timeout=wait, poll_interval=0.1)
                else:
                    lock.acquire(blocking=False)
            except Timeout:
                raise GameOpenElsewhereError(game, title, directory) from None
            except OSError as exc:
                raise SaveFileError(path, f"cannot lock: {exc.strerror or exc}") from exc
            lease = cls(directory, game, lock, key, on_taken_over)
            _HELD[key] = lease
        return lease

    def release(self) -> None:
        """Give the lease back (another app may then take it); a second call does nothing."""
        with _HELD_LOCK:
            lock, self._file_lock = self._file_lock, None
            if lock is None:
                return
            if _HELD.get(self._key) is self:
                del _HELD[self._key]
            lock.release(force=True)

    def __del__(self) -> None:  # an app dropped without leaving: its lease goes with it
        lock = getattr(self, "_file_lock", None)
        if lock is not None:
            self._file_lock = None
            with contextlib.suppress(Exception):  # never raise from a finaliser
                lock.release(force=True)


__all__ = ["LOCK_NAME", "RELOAD_WAIT_S", "AutosaveLease", "DirectoryLock", "lease_file"]
