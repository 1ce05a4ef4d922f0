"""Tournaments on real Dask clusters give exactly the games of ``--jobs 1``.

- a ``distributed.LocalCluster(n_workers=2, processes=True)`` started here;
- a scheduler and workers started as separate processes on 127.0.0.1 with the ``dask``
  command, the way a user starts them on a cluster (driven through the CLI);
- a worker killed (SIGKILL) in the middle of a run: the run still completes, every game
  exactly once.

Every cluster is shut down at the end, whatever happens.  No timing assumptions: the
waits are for events (a scheduler file, workers registered, a game arriving), with
generous timeouts.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from conquest_widget.tournament import run_tournament  # noqa: E402 - after the skip

from .conftest import small_config  # noqa: E402

BIN = Path(sys.executable).parent


def _dask_cmd(*args: str) -> list[str]:
    exe = BIN / "dask"
    return [str(exe), *args] if exe.exists() else [sys.executable, "-m", "dask", *args]


def test_local_cluster_gives_the_same_games(reference) -> None:
    cfg, records = reference
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        res = run_tournament(cfg, executor=client.get_executor(), workers=2, batch_size=1, progress=False)
    assert res.complete and res.records == records


def test_dask_local_option(reference) -> None:
    cfg, records = reference
    res = run_tournament(cfg, dask_local=2, batch_size=3, progress=False)
    assert res.records == records and res.executor == "Dask LocalCluster (2 workers)"


class _Cluster:
    """``dask scheduler`` and ``dask worker`` processes on 127.0.0.1."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.file = tmp / "scheduler.json"
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.env = env
        self.procs.append(self._spawn("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                      "--scheduler-file", str(self.file)))
        deadline = time.monotonic() + 120
        while not (self.file.exists() and self.file.stat().st_size > 0):
            assert time.monotonic() < deadline, "the scheduler did not start"
            assert self.procs[0].poll() is None, "the scheduler exited"
            time.sleep(0.1)
        time.sleep(0.2)
        self.address = json.loads(self.file.read_text())["address"]

    def _spawn(self, *args: str) -> subprocess.Popen:
        log = (self.tmp / f"{args[0]}-{len(self.procs)}.log").open("w")
        return subprocess.Popen(_dask_cmd(*args), stdout=log, stderr=subprocess.STDOUT, cwd=self.tmp, env=self.env)

    def add_worker(self) -> subprocess.Popen:
        w = self._spawn("worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                        "--host", "127.0.0.1", "--local-directory", str(self.tmp / "work"))
        self.procs.append(w)
        self.workers.append(w)
        return w

    def wait_for_workers(self, n: int) -> None:
        with distributed.Client(self.address, timeout="60s", set_as_default=False) as client:
            client.wait_for_workers(n, timeout=180)

    def close(self) -> None:
        """Workers first, then the scheduler: SIGTERM (a graceful close), SIGKILL after 10 s."""
        for group in (self.workers, self.procs[:1]):
            for p in group:
                if p.poll() is None:
                    p.terminate()
            for p in group:
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=30)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = _Cluster(tmp_path_factory.mktemp("dask"))
    try:
        c.add_worker()
        c.add_worker()
        c.wait_for_workers(2)
        yield c
    finally:
        c.close()


def test_scheduler_and_workers_as_separate_processes(reference, cluster, tmp_path) -> None:
    _cfg, records = reference
    out = tmp_path / "games.csv"
    proc = subprocess.run(
        [sys.executable, "-m", "conquest_widget.tournament", "--game", "japan_conquest", "--entrants", "normal",
         "e=easy:aggressive", "--set", "turns=5", "--seed", "11", "--games", "8", "--no-progress", "--batch", "1",
         "--scheduler", cluster.address, "--csv", str(out), "--json", "--bootstrap", "10"],
        check=False, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["complete"] and doc["run"]["executor"].startswith(f"Dask scheduler {cluster.address} (2 workers)")
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["index"]) for r in rows] == list(range(8))
    for row, rec in zip(rows, records, strict=True):
        assert [row["seat0_entrant"], row["seat1_entrant"]] == rec["seats"]
        assert [int(row["seat0_rank"]), int(row["seat1_rank"])] == rec["ranks"]
        assert int(row["actions"]) == rec["actions"] and int(row["seed"]) == rec["seed"]


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_killed_worker_mid_run(cluster, tmp_path) -> None:
    cfg = small_config(games=16)
    expected = run_tournament(cfg, progress=False).records
    victim = cluster.add_worker()
    cluster.wait_for_workers(3)
    journal = tmp_path / "run.jsonl"
    arrived: list[int] = []
    killed_at: list[int] = []

    def kill_on_first(rec) -> None:
        arrived.append(rec["index"])
        if not killed_at:
            victim.send_signal(signal.SIGKILL)
            victim.wait(timeout=60)
            killed_at.append(len(arrived))

    res = run_tournament(cfg, scheduler=cluster.address, batch_size=1, progress=False, resume=journal,
                         on_record=kill_on_first)
    assert killed_at == [1] and victim.returncode == -signal.SIGKILL  # killed with 15 games still to come
    assert res.complete and res.records == expected
    assert sorted(arrived) == list(range(cfg.total_games))  # every game exactly once
    assert len(journal.read_text().splitlines()) == 1 + cfg.total_games
