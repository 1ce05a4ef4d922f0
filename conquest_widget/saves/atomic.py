"""Crash-safe file writes and size-bounded JSON reads.

A write goes to a temporary file in the same directory, is flushed and fsync'ed, then
``os.replace``'d over the real name (and the directory is fsync'ed where the platform
allows).  A crash at any moment leaves either the old file or the new one under the
real name, never a partial file.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write_json(d / "x.json", {"format": "demo", "名前": "東京"})
    >>> print((d / "x.json").read_text(encoding="utf-8"))
    {
     "format": "demo",
     "名前": "東京"
    }
    >>> read_json(d / "x.json")
    {'format': 'demo', '名前': '東京'}
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from conquest_widget.errors import CorruptSaveError, SaveError, SaveFileError

#: largest save file read or written, in bytes (5 MB); bigger files are refused unread
MAX_FILE_BYTES = 5 * 1024 * 1024

#: prefix and suffix of temporary files (hidden names the loaders never look at)
TEMP_PREFIX = "."
TEMP_SUFFIX = ".tmp"


def dumps(data: Any) -> bytes:
    """The file bytes for ``data``: indented, non-ASCII kept, UTF-8, final newline.

    >>> dumps({"a": [1, 2]})
    b'{\\n "a": [\\n  1,\\n  2\\n ]\\n}\\n'
    """
    try:
        text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise SaveError(f"data cannot be written as JSON: {exc}") from exc
    return (text + "\n").encode("utf-8")


def fsync_directory(directory: Path) -> None:
    """Flush a directory entry change (rename, unlink) to disk; a no-op where unsupported."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(directory, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, payload: bytes) -> None:
    """Replace ``path`` with ``payload`` atomically (temp file, fsync, ``os.replace``).

    On any error the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    directory = path.parent
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f"{TEMP_PREFIX}{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), 0o644)
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_directory(directory)


def atomic_write_json(path: Path, data: Any, *, max_bytes: int = MAX_FILE_BYTES) -> None:
    """Write ``data`` as a JSON file atomically; refuses data over ``max_bytes``
    (it could not be read back)."""
    payload = dumps(data)
    if len(payload) > max_bytes:
        raise SaveFileError(path, f"refusing to write {len(payload)} bytes: over the {max_bytes}-byte limit")
    try:
        atomic_write_bytes(Path(path), payload)
    except OSError as exc:
        raise SaveFileError(path, f"cannot write: {exc.strerror or exc}") from exc


def read_bytes(path: Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of a regular file, or None when it does not exist.

    Raises :class:`CorruptSaveError` for a file over ``max_bytes`` or that is not a
    regular file, :class:`SaveFileError` when it cannot be read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveFileError(path, f"cannot read: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CorruptSaveError(path, "not a regular file")
        if info.st_size > max_bytes:
            raise CorruptSaveError(path, f"file is {info.st_size} bytes, over the {max_bytes}-byte limit")
        chunks = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise SaveFileError(path, f"cannot read: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    if size > max_bytes:
        raise CorruptSaveError(path, f"file is over the {max_bytes}-byte limit")
    return b"".join(chunks)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_json(payload: bytes, source: object) -> Any:
    """Decode UTF-8 JSON strictly (no NaN/Infinity); :class:`CorruptSaveError` otherwise."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorruptSaveError(source, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise CorruptSaveError(source, f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise CorruptSaveError(source, f"not valid JSON ({type(exc).__name__}: {exc})") from None


def read_json(path: Path, *, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The parsed JSON of a file, or None when the file does not exist."""
    payload = read_bytes(path, max_bytes=max_bytes)
    if payload is None:
        return None
    return parse_json(payload, path)


__all__ = [
    "MAX_FILE_BYTES",
    "atomic_write_bytes",
    "atomic_write_json",
    "dumps",
    "fsync_directory",
    "parse_json",
    "read_bytes",
    "read_json",
]
