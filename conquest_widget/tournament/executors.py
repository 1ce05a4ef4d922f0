"""Executors for tournaments: anything with the :class:`concurrent.futures.Executor`
interface plays the batches.  :func:`open_executor` makes the usual ones:

- ``jobs=1``: no executor (games are played in this process);
- ``jobs=N``: a :class:`~concurrent.futures.ProcessPoolExecutor` of N workers (spawned,
  so it behaves the same in scripts and notebooks; workers ignore Ctrl-C, the parent
  handles it);
- ``scheduler="tcp://host:8786"``: a Dask cluster, ``distributed.Client(address).get_executor()``;
- ``dask_local=N``: a throw-away ``distributed.LocalCluster`` of N single-threaded
  worker processes.

    >>> with open_executor(jobs=1) as ex:
    ...     ex.executor is None, ex.workers, ex.description
    (True, 1, 'this process')
"""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from .errors import SchedulerUnavailableError, TournamentError
from .play import ignore_sigint

#: seconds to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = 10.0


@dataclass
class OpenExecutor:
    """An executor ready for :func:`~conquest_widget.tournament.runner.run_tournament`:
    ``executor`` (None = play in this process), ``workers`` (for the batch size) and a
    human ``description``; ``client`` is the Dask client when there is one."""

    executor: Executor | None
    workers: int
    description: str
    client: Any = None


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise SchedulerUnavailableError(
            "Dask is not installed: pip install 'conquest_widget[dask]' (on the workers too)") from None
    return distributed


def connect(address: str, *, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, or
    :class:`SchedulerUnavailableError` when nothing answers within ``timeout`` seconds."""
    distributed = _distributed()
    box: dict[str, Any] = {}

    def attempt() -> None:
        try:
            box["client"] = distributed.Client(address, timeout=f"{timeout}s", set_as_default=False)
        except BaseException as exc:
            box["error"] = exc

    # Client(timeout=) does not bound a peer that accepts the connection but never
    # answers the handshake, so the attempt runs in a daemon thread with our own deadline.
    thread = threading.Thread(target=attempt, name="dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 2)
    if "client" in box:
        return box["client"]
    exc = box.get("error")
    if exc is None:
        detail = "no answer to the handshake"
    else:
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if exc is None or isinstance(exc, (OSError, TimeoutError, ValueError)):
        raise SchedulerUnavailableError(
            f"no Dask scheduler answers at {address!r} within {timeout:g} s ({detail})"[:300]) from None
    raise exc


@contextlib.contextmanager
def open_executor(*, jobs: int = 1, scheduler: str | None = None, dask_local: int | None = None,
                  connect_timeout: float = CONNECT_TIMEOUT) -> Iterator[OpenExecutor]:
    """Open (and finally shut down) the executor asked for; at most one of
    ``scheduler``/``dask_local`` may be given, and they take precedence over ``jobs``."""
    if scheduler is not None and dask_local is not None:
        raise TournamentError("give either a Dask scheduler address or a local Dask cluster size, not both")
    if scheduler is not None:
        client = connect(scheduler, timeout=connect_timeout)
        try:
            n = len(client.scheduler_info().get("workers", {}))
            yield OpenExecutor(client.get_executor(), max(1, n), f"Dask scheduler {scheduler} ({n} workers)", client)
        finally:
            client.close()
        return
    if dask_local is not None:
        if dask_local < 1:
            raise TournamentError(f"a local Dask cluster needs at least 1 worker, got {dask_local}")
        distributed = _distributed()
        cluster = distributed.LocalCluster(n_workers=dask_local, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        try:
            client = distributed.Client(cluster, set_as_default=False)
            try:
                yield OpenExecutor(client.get_executor(), dask_local, f"Dask LocalCluster ({dask_local} workers)", client)
            finally:
                client.close()
        finally:
            cluster.close()
        return
    if jobs < 1:
        raise TournamentError(f"--jobs must be at least 1, got {jobs}")
    if jobs == 1:
        yield OpenExecutor(None, 1, "this process")
        return
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=ignore_sigint)
    try:
        yield OpenExecutor(pool, jobs, f"process pool ({jobs} workers)")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
