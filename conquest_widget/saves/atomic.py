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

import errno
import json
import math
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

    Raises :class:`CorruptSaveError` for a file over ``max_bytes``, that is not a
    regular file or is a symbolic link (never followed: a save file is a regular file
    of the directory), and :class:`SaveFileError` (not corrupt: an operating-system
    error such as EMFILE or EACCES says nothing about the content) when it cannot be read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if os.path.islink(path):  # a dangling symbolic link: not "no file"
            raise CorruptSaveError(path, "a symbolic link, not a save file") from None
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP or os.path.islink(path):
            raise CorruptSaveError(path, "a symbolic link, not a save file") from None
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


#: deepest nesting of arrays and objects accepted in a file (a game save needs 6)
MAX_DEPTH = 32
#: most JSON values (objects, arrays and list/object members) in one file; bounds the
#: memory a file can make the loader use (a 5 MB file of ``[{},{},...]`` is refused unparsed)
MAX_NODES = 300_000


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range (not a finite number)")
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key[:40]!r} in one object")
            seen.add(key)
    return out


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _where(path: tuple[object, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)[:200]


def check_tree(data: Any, source: object, *, max_depth: int = MAX_DEPTH) -> None:
    """Refuse parsed JSON nested deeper than ``max_depth`` or holding a string (value or
    key) with a lone surrogate (``"\\ud800"``: it could never be written back as UTF-8).

    >>> check_tree({"a": ["ok"]}, "x.json")
    >>> check_tree({"a": ["\\ud800"]}, "x.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.CorruptSaveError: x.json: $.a[0]: text with a lone surrogate (U+D800 to U+DFFF)
    """
    stack: list[tuple[Any, tuple[object, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > max_depth:
            raise CorruptSaveError(source, f"nested more than {max_depth} levels deep (at {_where(path)})")
        if isinstance(value, str):
            if _has_surrogate(value):
                raise CorruptSaveError(source, f"{_where(path)}: text with a lone surrogate (U+D800 to U+DFFF)")
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str) or _has_surrogate(key):
                    raise CorruptSaveError(source, f"{_where(path)}: a key with a lone surrogate (U+D800 to U+DFFF)")
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            raise CorruptSaveError(source, f"{_where(path)}: not a finite number")


def count_nodes(payload: bytes) -> int:
    """An upper bound of the JSON values in ``payload`` (its brackets and commas), counted
    in C at memory speed.

    >>> count_nodes(b'{"a": [1, 2]}')
    3
    """
    return payload.count(b"{") + payload.count(b"[") + payload.count(b",")


def parse_json(payload: bytes, source: object, *, max_nodes: int = MAX_NODES) -> Any:
    """Decode UTF-8 JSON strictly; :class:`CorruptSaveError` naming the problem otherwise.

    Refused: NaN/Infinity and numbers out of range (``1e400``), duplicate keys in one
    object, more than ``max_nodes`` values (counted before parsing, so a huge file of
    ``{}`` costs no memory), nesting deeper than :data:`MAX_DEPTH`, lone surrogates.

        >>> parse_json(b'{"a": 1, "a": 2}', "x.json")
        Traceback (most recent call last):
        ...
        conquest_widget.errors.CorruptSaveError: x.json: not valid JSON (duplicate key 'a' in one object)
        >>> parse_json(b'[1e400]', "x.json")
        Traceback (most recent call last):
        ...
        conquest_widget.errors.CorruptSaveError: x.json: not valid JSON (the number 1e400 is out of range (not a finite number))
    """
    nodes = count_nodes(payload)
    if nodes > max_nodes:
        raise CorruptSaveError(source, f"too many values ({nodes} brackets and commas; at most {max_nodes})")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorruptSaveError(source, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    text = text.removeprefix("\ufeff")
    try:
        data = json.loads(
            text, parse_constant=_no_constants, parse_float=_finite_float, object_pairs_hook=_no_duplicates
        )
    except json.JSONDecodeError as exc:
        raise CorruptSaveError(source, f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise CorruptSaveError(source, f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise CorruptSaveError(source, f"not valid JSON ({str(exc)[:200]})") from None
    check_tree(data, source)
    return data


def read_json(path: Path, *, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The parsed JSON of a file, or None when the file does not exist."""
    payload = read_bytes(path, max_bytes=max_bytes)
    if payload is None:
        return None
    return parse_json(payload, path)


__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "atomic_write_bytes",
    "atomic_write_json",
    "check_tree",
    "count_nodes",
    "dumps",
    "fsync_directory",
    "parse_json",
    "read_bytes",
    "read_json",
]
