"""Tournament throughput (issue 15): games per second for Japan Conquest with 4 normal
CPUs (10-turn games, one 4-seat table, seat-rotated) on a process pool of 1 and 2
workers and on a 2-worker Dask LocalCluster, measured in one run, with the scaling
ratios; and the Dask task overhead with batches of 1 game against the automatic batch.
Run on demand:

    nice -n 10 .venv/bin/python -m pytest tests/benchmarks/test_bench_tournament.py -p no:cacheprovider -o addopts="" -s

``TOURNAMENT_BENCH_GAMES`` sets the games per measurement (default 48).  Every executor
is warmed up (workers started, modules imported) before its clock starts, and every
measurement checks that it played exactly the games of the in-process reference.
The figures are printed (``RESULT`` lines) and written to docs/scale.md (block
``tournament-bench``).  No assertion on time.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from conquest_widget.tournament import TournamentConfig, play_batch, run_tournament
from conquest_widget.tournament.play import ignore_sigint
from conquest_widget.tournament.runner import auto_batch

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.benchmark

GAMES = int(os.environ.get("TOURNAMENT_BENCH_GAMES", "48"))
DOC = Path(__file__).resolve().parents[2] / "docs" / "scale.md"


def _config(games: int) -> TournamentConfig:
    return TournamentConfig.build("japan_conquest", ["normal"] * 4, games=games, players=4, seed=2026,
                                  options={"turns": 10})


def _timed(cfg, executor, workers, batch):
    # warm-up: every worker up and its modules imported (a process pool starts workers on
    # demand, so one task at a time would start only one of them)
    for fut in [executor.submit(play_batch, _config(4).to_dict(), [i % 4]) for i in range(2 * workers)]:
        fut.result()
    t0 = time.perf_counter()
    res = run_tournament(cfg, executor=executor, workers=workers, batch_size=batch, progress=False)
    return time.perf_counter() - t0, res


def _write(rows: list[tuple[str, str]], name: str = "tournament-bench") -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from perfdoc import machine

    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = [start, (f"Measured {time.strftime('%Y-%m-%d')} on {machine()}; "
                    f"1-minute load average at the end: {os.getloadavg()[0]:.2f} (2 = both cores busy)."), "",
             "| measure | value |", "|---|---|", *[f"| {a} | {b} |" for a, b in rows], end]
    text = DOC.read_text(encoding="utf-8")
    new = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda m: "\n".join(block), text, flags=re.DOTALL)
    DOC.write_text(new, encoding="utf-8")


def test_task_overhead() -> None:
    """What one task costs besides its games: empty batches through a 2-worker
    LocalCluster and a 2-process pool (the per-task overhead a batch is amortised over)."""
    cfg = _config(4).to_dict()
    rows = []
    spawn = multiprocessing.get_context("spawn")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client, \
            ProcessPoolExecutor(2, mp_context=spawn, initializer=ignore_sigint) as pool:
        for label, ex in (("Dask LocalCluster (2 workers)", client.get_executor()), ("process pool (2 workers)", pool)):
            ex.submit(play_batch, cfg, []).result()
            n = 300
            t0 = time.perf_counter()
            futures = [ex.submit(play_batch, cfg, []) for _ in range(n)]
            for f in futures:
                f.result()
            per = (time.perf_counter() - t0) / n
            rows.append((f"{label}: wall time per empty task, {n} tasks", f"{1000 * per:.2f} ms"))
    for a, b in rows:
        print(f"RESULT {a}: {b}")
    _write(rows, "tournament-overhead")


def test_throughput() -> None:
    cfg = _config(GAMES)
    t0, c0 = time.perf_counter(), time.process_time()
    reference = run_tournament(cfg, progress=False)
    inline, cpu = time.perf_counter() - t0, time.process_time() - c0
    rows: list[tuple[str, str]] = [("games per measurement", f"{cfg.total_games} (4 normal CPUs, 10 turns, seat-rotated)"),
                                   ("actions per game (mean)", f"{reference.summary(0)['lengths']['mean']:.0f}"),
                                   ("in this process (no executor)", f"{cfg.total_games / inline:.2f} games/s"),
                                   ("CPU time per game (in this process; independent of other load)", f"{cpu / cfg.total_games:.3f} s"),
                                   ("share of a core this process got", f"{cpu / inline:.0%}")]
    rates = {}
    spawn = multiprocessing.get_context("spawn")
    for workers in (1, 2):
        with ProcessPoolExecutor(workers, mp_context=spawn, initializer=ignore_sigint) as pool:
            secs, res = _timed(cfg, pool, workers, None)
        assert res.records == reference.records
        rates[f"pool{workers}"] = cfg.total_games / secs
        rows.append((f"process pool, {workers} worker(s), batch {res.batch_size}", f"{rates[f'pool{workers}']:.2f} games/s"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        ex = client.get_executor()
        for batch in (auto_batch(cfg.total_games, 2), 1):
            secs, res = _timed(cfg, ex, 2, batch)
            assert res.records == reference.records
            rates[f"dask{batch}"] = cfg.total_games / secs
            rows.append((f"Dask LocalCluster, 2 workers, batch {batch}", f"{rates[f'dask{batch}']:.2f} games/s"))
    auto = auto_batch(cfg.total_games, 2)
    rows.append(("scaling: pool 2 / pool 1", f"{rates['pool2'] / rates['pool1']:.2f}x"))
    rows.append(("scaling: LocalCluster 2 / pool 1", f"{rates[f'dask{auto}'] / rates['pool1']:.2f}x"))
    rows.append((f"Dask: batch 1 vs batch {auto}", f"{rates['dask1'] / rates[f'dask{auto}']:.2f}x the throughput"))
    for a, b in rows:
        print(f"RESULT {a}: {b}")
    _write(rows)
