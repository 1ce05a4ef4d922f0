"""Benchmark session hooks.

- When the session starts, ``$CONQUEST_BENCH_RUN`` gets an id for it (start time and
  process id): every section a benchmark writes to docs/performance.md remembers it
  (``perfdoc.update_block``), so the summary knows which figures this run measured.
- It also times a fixed pure-Python workload (``perfdoc.speed_probe_ms``) into
  ``$CONQUEST_BENCH_SPEED``: the summary gives it, and the same probe at the end of the
  run, so two runs' figures can be compared (the machine's speed varies from hour to hour).
- The summary (``test_bench_summary.py``) is moved to the end of the run, whatever order
  the files were given or collected in: it reads the blocks the other benchmarks wrote.
"""

from __future__ import annotations

import datetime as _dt
import os

import pytest
from perfdoc import RUN_ENV, SPEED_ENV, speed_probe_ms

SUMMARY_FILE = "test_bench_summary.py"


def pytest_sessionstart(session: pytest.Session) -> None:
    # both may be given, to write the summary again for the blocks of an earlier run:
    # CONQUEST_BENCH_RUN='<its id>' CONQUEST_BENCH_SPEED=<its probe> pytest .../test_bench_summary.py
    os.environ.setdefault(RUN_ENV, f"{_dt.datetime.now().astimezone().isoformat(timespec='seconds')} pid {os.getpid()}")
    os.environ.setdefault(SPEED_ENV, f"{speed_probe_ms():.1f}")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    summary = [item for item in items if item.path.name == SUMMARY_FILE]
    if summary:
        items[:] = [item for item in items if item.path.name != SUMMARY_FILE] + summary
