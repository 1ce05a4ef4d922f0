"""Shared writer for docs/performance.md: each benchmark file owns one block between
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` and rewrites only that block.

Every section a benchmark writes remembers, in the block's JSON ``-results`` comment, its
rows, the date and time it was written, the id of the pytest session that wrote it
(``$CONQUEST_BENCH_RUN``, set by ``tests/benchmarks/conftest.py`` when the session starts)
and optionally ``figures``: the numbers behind the rows, for the summary that
``test_bench_summary.py`` writes at the end of ``make bench`` from the sections of that
same session only.

``$CONQUEST_PERFDOC`` names another file to write (a trial run with fewer repetitions
then leaves docs/performance.md alone)."""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import re
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "performance.md"
RUN_ENV = "CONQUEST_BENCH_RUN"  # the id of this benchmark session (tests/benchmarks/conftest.py)
SPEED_ENV = "CONQUEST_BENCH_SPEED"  # the machine-speed probe at the start of the session (ms)
DOC_ENV = "CONQUEST_PERFDOC"  # write this file instead of docs/performance.md
NEW_DOC = "# Performance\n\nFigures written by `make bench`; no test asserts on time.\n"


def doc_path() -> Path:
    """The file the blocks are written to: docs/performance.md unless ``$CONQUEST_PERFDOC``."""
    return Path(os.environ[DOC_ENV]) if os.environ.get(DOC_ENV) else DOC


def run_id() -> str | None:
    """The id of the benchmark session running now (None outside one)."""
    return os.environ.get(RUN_ENV) or None


def machine() -> str:
    """CPU model, core count and Python version of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, nproc {os.cpu_count()}, Python {platform.python_version()}, {platform.system()} {platform.machine()}"


def _markers(name: str) -> tuple[str, str, re.Pattern[str]]:
    return (f"<!-- {name}:start -->", f"<!-- {name}:end -->",
            re.compile(rf"<!-- {re.escape(name)}-results: (.*?) -->", re.DOTALL))


def read_sections(name: str) -> dict[str, dict[str, Any]]:
    """The sections block ``name`` remembers (key -> title, date, run, rows, figures ...);
    empty when the block or its memory is missing."""
    path = doc_path()
    if not path.exists():
        return {}
    start, end, memory = _markers(name)
    text = path.read_text(encoding="utf-8")
    i, j = text.find(start), text.find(end)
    if i == -1 or j < i or not (m := memory.search(text[i:j])):
        return {}
    try:
        return json.loads(m.group(1))
    except json.JSONDecodeError:
        return {}


def write_block(name: str, body: list[str], top: bool = False) -> None:
    """Replace block ``name`` by ``body`` (its lines, without the start / end markers); an
    absent block is added at the end of the file, or with ``top`` after the file's title
    and first paragraph."""
    start, end, _ = _markers(name)
    path = doc_path()
    text = path.read_text(encoding="utf-8") if path.exists() else NEW_DOC
    block = "\n".join([start, *body, end])
    i, j = text.find(start), text.find(end)
    if i != -1 and j > i:
        text = text[:i] + block + text[j + len(end):]
    elif top:
        # after "# Title", its blank line and the paragraph under it
        m = re.match(r"#[^\n]*\n\n(?:[^\n]+\n)*", text)
        k = m.end() if m else 0
        text = text[:k].rstrip("\n") + "\n\n" + block + "\n\n" + text[k:].lstrip("\n")
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def update_block(name: str, heading: str, intro: str, key: str, title: str, rows: list[tuple[str, str]],
                 figures: dict[str, Any] | None = None) -> None:
    """Set section ``key`` (a two-column table) of block ``name``; other sections of the block,
    remembered in a JSON comment inside it, and the rest of the file are kept.  ``figures``
    (numbers, lists, dicts) are remembered with the section for the summary, not shown."""
    sections = read_sections(name)
    now = _dt.datetime.now().astimezone()
    section: dict[str, Any] = {"title": title, "date": now.date().isoformat(), "time": now.isoformat(timespec="seconds"),
                               "run": run_id(), "machine": machine(), "rows": rows}
    if figures is not None:
        section["figures"] = figures
    sections[key] = section
    lines = [f"## {heading}", "", intro, ""]
    for s in sections.values():
        lines += [f"### {s['title']}", "", f"Date {s['date']}; machine: {s['machine']}.", "", "| measure | value |", "|---|---|"]
        lines += [f"| {a} | {b} |" for a, b in s["rows"]]
        lines.append("")
    lines.append(f"<!-- {name}-results: {json.dumps(sections, ensure_ascii=False)} -->")
    write_block(name, lines)


def speed_probe_ms(reps: int = 5) -> float:
    """Milliseconds (best of ``reps``) for a fixed pure-Python workload that uses none of the
    package's code: dict and tuple building, sorting, integer arithmetic.  The figures of
    two runs compare only as far as their probes agree (the same 2-core virtual machine
    was seen 1.6x slower from one hour to the next).

    >>> 0 < speed_probe_ms(reps=1) < 60_000
    True
    """
    import time

    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        table = {(i % 97, i % 89, i): i * i for i in range(60_000)}
        keys = sorted(table, key=lambda k: (k[2] * 7919) % 60_013)
        total = 0
        for k in keys:
            total = (total + table[k] * 31) % 1_000_003
        best = min(best, time.perf_counter() - t)
    return best * 1000
