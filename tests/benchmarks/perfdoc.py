"""Shared writer for docs/performance.md: each benchmark file owns one block between
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` and rewrites only that block."""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "performance.md"


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


def update_block(name: str, heading: str, intro: str, key: str, title: str, rows: list[tuple[str, str]]) -> None:
    """Set section ``key`` (a two-column table) of block ``name``; other sections of the block,
    remembered in a JSON comment inside it, and the rest of the file are kept."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    memory = re.compile(rf"<!-- {re.escape(name)}-results: (.*?) -->", re.S)
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Performance\n\nFigures written by `make bench`; no test asserts on time.\n"
    i, j = text.find(start), text.find(end)
    found = i != -1 and j > i
    sections: dict = {}
    if found and (m := memory.search(text[i:j])):
        try:
            sections = json.loads(m.group(1))
        except json.JSONDecodeError:
            sections = {}
    sections[key] = {"title": title, "date": _dt.date.today().isoformat(), "machine": machine(), "rows": rows}
    lines = [start, f"## {heading}", "", intro, ""]
    for s in sections.values():
        lines += [f"### {s['title']}", "", f"Date {s['date']}; machine: {s['machine']}.", "", "| measure | value |", "|---|---|"]
        lines += [f"| {a} | {b} |" for a, b in s["rows"]]
        lines.append("")
    lines += [f"<!-- {name}-results: {json.dumps(sections, ensure_ascii=False)} -->", end]
    block = "\n".join(lines)
    text = text[:i] + block + text[j + len(end):] if found else text.rstrip("\n") + "\n\n" + block + "\n"
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
