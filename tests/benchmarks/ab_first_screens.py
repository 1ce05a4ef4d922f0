"""Issue 18, item 1: page -> first screen before / after, measured side by side.

Browser timing on a shared machine follows the load of the moment, so the configurations
are served at once and their loads interleaved (load i of every configuration, then load
i+1); each load is the benchmark's (tests/benchmarks/test_bench_browser.py: fresh browser
context, the game's Play pressed on the picker at once, times on the page's clock):

- ``before``: the package at commit REF (default 9002694, before this work: no preheated
  kernel, jsonschema importing rfc3987_syntax), served from a ``git archive`` copy (package and geodata) put first
  on the server's ``PYTHONPATH``;
- ``lazy``: this checkout without the kernel pool (``CONQUEST_POOL_SIZE=0``);
- ``after``: this checkout as ``make play`` serves it (one preheated kernel; each load
  waits until the pool is ready again, as a player opening the page would find it:
  ``test_bench_browser.wait_for_pool``).

- ``before-pooled``: the package at commit REF with its preheated kernel (for a REF that
  has one: the before / after of a change made since).

Run:  .venv/bin/python tests/benchmarks/ab_first_screens.py [LOADS] [REF] [CONFIGS]
(CONFIGS: a comma-separated choice among the above, default ``before,lazy,after``; e.g.
``6 5a69e68 before-pooled,after`` for issue 29's switch of Japan Conquest to the shell's app).
Prints min / median / max per configuration and game, and the load average.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import test_bench_browser as bench  # noqa: E402 - after the sys.path lines
from e2e import harness  # noqa: E402

GAMES = bench.GAMES


def main(loads: int = 6, ref: str = "9002694", which: str = "before,lazy,after") -> dict:
    root = Path(tempfile.mkdtemp(prefix="ab-first-screens-"))
    old = root / "before-src"
    old.mkdir()
    archive = subprocess.run(["git", "archive", ref, "conquest_widget", "geodata"], cwd=harness.ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
    every = {
        "before": {"PYTHONPATH": str(old), "CONQUEST_POOL_SIZE": "0"},
        "before-pooled": {"PYTHONPATH": str(old)},
        "lazy": {"CONQUEST_POOL_SIZE": "0"},
        "after": {},
    }
    configs = {name: every[name] for name in which.split(",")}
    results: dict = {name: {g: [] for g in GAMES} for name in configs}
    with ExitStack() as stack:
        servers = {}
        for name, env in configs.items():
            saved = {k: os.environ.get(k) for k in env}
            os.environ.update(env)
            try:
                log = root / name / "voila.log"
                server = stack.enter_context(harness.voila_app(harness.serve_copy(root / name / "served"),
                                                               root / name / "home", log))
            finally:
                for k, v in saved.items():
                    os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
            servers[name] = (server.url, log, env.get("CONQUEST_POOL_SIZE") != "0")
        browser = stack.enter_context(harness.chromium())
        load0 = os.getloadavg()
        time.sleep(10)  # the preheated kernel's first fill
        for i in range(loads):
            for game in GAMES:
                for name, (url, log, pooled) in servers.items():
                    if pooled:
                        bench.wait_for_pool(log, url)
                    r = bench.one_load(browser, url, game, click=False)
                    results[name][game].append(r)
                    print(f"{i} {game:15} {name:7} picker {r['picker'] / 1000:.2f} s  ready {r['ready'] / 1000:.2f} s",
                          flush=True)
        load1 = os.getloadavg()
    print(f"\n1/5/15-minute load average at start {load0}, at end {load1}")
    summary = {}
    for name in configs:
        for game in GAMES:
            ready = [r["ready"] / 1000 for r in results[name][game]]
            picker = [r["picker"] / 1000 for r in results[name][game]]
            summary[f"{name} {game}"] = (min(ready), statistics.median(ready), max(ready), statistics.median(picker))
            print(f"{name:7} {game:15} first screen min / median / max {min(ready):.2f} / {statistics.median(ready):.2f} / "
                  f"{max(ready):.2f} s (picker shown, median {statistics.median(picker):.2f} s)")
    print(json.dumps({"load_start": load0, "load_end": load1, "summary": summary}))
    return summary


if __name__ == "__main__":
    main(*(int(a) if i == 0 else a for i, a in enumerate(sys.argv[1:])))
