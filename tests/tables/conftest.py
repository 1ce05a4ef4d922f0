"""Every table test runs on both stores: a SQLite file, and a real PostgreSQL server.

The server is from Debian's ``postgresql`` package (``make test`` installs it when missing):
a private cluster is created and started for the test session (``initdb`` + ``pg_ctl``,
listening on a Unix socket in a temporary folder only; as root, run as the ``postgres``
user), and each test gets its own database.  ``CONQUEST_TABLES_PG`` (a URL) uses a server
that is already running instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_ENV = "CONQUEST_TABLES_PG"


def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _as_server_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]  # PostgreSQL refuses to run as root


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database."""
    url = os.environ.get(PG_ENV)
    if url:
        yield url
        return
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.fail("the table tests need PostgreSQL's server programs (Debian's `postgresql` package; `make test` "
                    f"installs it) or a running server named by {PG_ENV}=postgresql://…")
    home = Path(tempfile.mkdtemp(prefix="cw-pg-"))
    data, sock = home / "data", home / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
        shutil.chown(sock, "postgres")
    subprocess.run(_as_server_user([initdb, "-D", str(data), "-A", "trust", "-U", "conquest", "--no-sync"]),
                   check=True, capture_output=True)
    opts = f"-c listen_addresses='' -k {sock} -c fsync=off -c max_connections=60"
    subprocess.run(_as_server_user([pg_ctl, "-D", str(data), "-o", opts, "-l", str(home / "log"), "-w", "start"]),
                   check=True, capture_output=True)
    try:
        yield f"postgresql://conquest@/postgres?host={sock}"
    finally:
        subprocess.run(_as_server_user([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def _database(server: str) -> str:
    """A new, empty database on the server; its URL."""
    import psycopg

    name = f"tables_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    base, _, query = server.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store is: a SQLite file's folder, or a PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path)
    return _database(request.getfixturevalue("pg_server"))


@pytest.fixture
def pg_where(pg_server: str) -> str:
    """A new PostgreSQL database's URL (for the tests of what only PostgreSQL does)."""
    return _database(pg_server)
