"""Running a tournament on any executor, with progress, Ctrl-C and a resume journal.

    >>> from conquest_widget.tournament import TournamentConfig, run_tournament
    >>> cfg = TournamentConfig.build("japan_conquest", ["normal", "easy"], games=2, options={"turns": 5})
    >>> res = run_tournament(cfg, progress=False)
    >>> res.complete, len(res.records), [r["index"] for r in res.records]
    (True, 2, [0, 1])
    >>> sorted(res.summary(bootstrap=20)["entrants"][0])[:3]
    ['mean_rank', 'name', 'rating']

Determinism: game ``i`` depends only on the configuration and ``i`` (see
:mod:`.config`), never on which worker plays it, in which batch or in which order; the
records are kept sorted by index.  A game that comes back twice (a Dask task retried
after a worker died) is recorded once -- and must be identical, or the run stops.

The journal (``--resume FILE``) is JSON lines: a header ``{"journal": ..., "config":
...}`` then one game record per line, appended (and flushed) as each game arrives.
Running again with the same file skips the games it holds.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import TournamentConfig
from .errors import JournalError, TournamentError
from .executors import CONNECT_TIMEOUT, open_executor
from .play import play_batch, play_game
from .results import BOOTSTRAP, summarise

#: the ``--json`` document's format name and version (docs/scale.md)
JSON_FORMAT = "conquest_widget.tournament"
JSON_VERSION = 1
JOURNAL_FORMAT = "conquest_widget.tournament.journal"
#: the largest batch of games per task the automatic choice makes (docs/scale.md: measured)
MAX_BATCH = 8
#: batches per worker the automatic choice aims for (load balance, progress, lost work)
BATCHES_PER_WORKER = 4


def auto_batch(pending: int, workers: int) -> int:
    """Games per task: enough tasks for every worker to get about
    :data:`BATCHES_PER_WORKER`, at most :data:`MAX_BATCH` games each.

    >>> auto_batch(1000, 2), auto_batch(20, 2), auto_batch(3, 8)
    (8, 3, 1)
    """
    return max(1, min(MAX_BATCH, math.ceil(pending / (max(1, workers) * BATCHES_PER_WORKER))))


# ---------------------------------------------------------------------------- journal
def read_journal(path: str | os.PathLike[str]) -> tuple[TournamentConfig, list[dict[str, Any]]]:
    """The configuration and game records of a journal; a torn last line (the run was
    killed while writing it) is ignored.  :class:`JournalError` if unreadable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}"[:300]) from None
    lines = text.split("\n")
    try:
        header = json.loads(lines[0])
        if not isinstance(header, dict) or header.get("journal") != JOURNAL_FORMAT:
            raise ValueError("not a tournament journal")
    except ValueError as exc:
        raise JournalError(f"{path} is not a tournament journal ({exc})"[:300]) from None
    config = TournamentConfig.from_dict(header.get("config"))
    records: list[dict[str, Any]] = []
    body = lines[1:]
    for n, line in enumerate(body):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict) or not isinstance(rec.get("index"), int):
                raise ValueError("not a game record")
        except ValueError as exc:
            if n == len(body) - 1:  # torn last line: the game is played again
                break
            raise JournalError(f"{path}: line {n + 2} is not a game record ({exc})"[:300]) from None
        records.append(rec)
    return config, records


class Journal:
    """Appends game records to a journal file (created with its header if missing)."""

    def __init__(self, path: str | os.PathLike[str], config: TournamentConfig) -> None:
        self.path = Path(path)
        if not self.path.exists():
            header = json.dumps({"journal": JOURNAL_FORMAT, "version": 1, "config": config.to_dict()}, sort_keys=True)
            _atomic_write(self.path, header + "\n")
        else:
            data = self.path.read_bytes()
            if data and not data.endswith(b"\n"):  # drop a torn last line before appending
                with self.path.open("r+b") as f:
                    f.truncate(data.rfind(b"\n") + 1)
        self._file = self.path.open("a", encoding="utf-8")

    def write(self, record: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(record, sort_keys=True) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def load_for_resume(path: str | os.PathLike[str], config: TournamentConfig | None) -> tuple[TournamentConfig, list[dict[str, Any]]]:
    """Check a journal against ``config`` (None: take the journal's) and return the
    configuration and the records already played ([] for a file that does not exist)."""
    if not Path(path).exists():
        if config is None:
            raise JournalError(f"the journal {path} does not exist; give --game and --entrants to start it")
        return config, []
    old, records = read_journal(path)
    if config is not None and old.to_dict() != config.to_dict():
        a, b = old.to_dict(), config.to_dict()
        diff = [k for k in a if a[k] != b.get(k)]
        raise JournalError(f"{path} belongs to another tournament (different {', '.join(diff)}); "
                           f"use another file or the same arguments"[:300])
    seen: dict[int, dict[str, Any]] = {}
    for rec in records:
        if not 0 <= rec["index"] < old.total_games:
            raise JournalError(f"{path}: game index {rec['index']} is outside this tournament")
        seen.setdefault(rec["index"], rec)
    return old, [seen[i] for i in sorted(seen)]


def _atomic_write(path: Path, text: str) -> None:
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with _suppress():
            os.unlink(tmp)
        raise


class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return True


# ---------------------------------------------------------------------------- results
@dataclass
class TournamentResult:
    """The records of a (possibly interrupted) tournament and how it ran."""

    config: TournamentConfig
    #: one record per finished game (see :func:`~.play.play_game`), sorted by index
    records: list[dict[str, Any]]
    interrupted: bool = False
    executor: str = "this process"
    workers: int = 1
    batch_size: int = 1
    elapsed: float = 0.0
    #: games played by this run (the others came from the journal)
    played_now: int = 0
    _summaries: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)

    @property
    def complete(self) -> bool:
        return len(self.records) == self.config.total_games

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.config.entrants]

    def summary(self, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
        """:func:`~.results.summarise` of the records (cached per ``bootstrap``)."""
        if bootstrap not in self._summaries:
            self._summaries[bootstrap] = summarise(self.records, self.names, bootstrap=bootstrap, seed=self.config.seed)
        return self._summaries[bootstrap]

    def to_json(self, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
        """The ``--json`` document (docs/scale.md).  Everything but ``run`` is the same
        for any executor, worker count and batch size."""
        rate = self.played_now / self.elapsed if self.elapsed > 0 else None
        return {
            "format": JSON_FORMAT, "version": JSON_VERSION, "config": self.config.to_dict(),
            "games_total": self.config.total_games, "games_played": len(self.records),
            "complete": self.complete, "interrupted": self.interrupted,
            **self.summary(bootstrap),
            "run": {"executor": self.executor, "workers": self.workers, "batch_size": self.batch_size,
                    "played_this_run": self.played_now, "elapsed_s": round(self.elapsed, 3),
                    "games_per_s": None if rate is None else round(rate, 3)},
        }

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per game (the ``--csv`` columns, see docs/scale.md)."""
        stat_keys = sorted({k for r in self.records for k in r.get("stats", {})})
        n = self.config.players
        out = []
        for r in self.records:
            row: dict[str, Any] = {k: r[k] for k in ("index", "table", "deal", "rotation", "seed", "reason", "actions", "chance")}
            ranks = r["ranks"]
            row["winners"] = "" if ranks is None else ";".join(r["seats"][s] for s in range(n) if ranks[s] == 1)
            for s in range(n):
                row[f"seat{s}_entrant"] = r["seats"][s]
                row[f"seat{s}_bot"] = r["bots"][s]
                row[f"seat{s}_rank"] = "" if ranks is None else ranks[s]
            for key, value in sorted(r.get("details", {}).items()):
                if isinstance(value, list) and len(value) == n and all(not isinstance(v, (list, dict)) for v in value):
                    for s in range(n):
                        row[f"seat{s}_{key}"] = value[s]
                else:
                    row[f"detail_{key}"] = json.dumps(value, sort_keys=True)
            for k in stat_keys:
                row[f"stat_{k}"] = r.get("stats", {}).get(k, 0)
            out.append(row)
        return out

    def csv_text(self) -> str:
        rows = self.rows()
        columns: list[str] = []
        for row in rows:
            columns.extend(c for c in row if c not in columns)
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=columns, restval="", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buf.getvalue()

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`rows` as CSV, atomically (a reader never sees half a file)."""
        _atomic_write(Path(path), self.csv_text())

    def frame(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas: the ``explore`` extra)."""
        import pandas as pd

        return pd.DataFrame(self.rows())

    def share_matrix(self) -> list[list[float | None]]:
        """``m[i][j]``: entrant i's score share (wins + ties/2) against entrant j, None
        where they did not meet (and on the diagonal)."""
        idx = {n: i for i, n in enumerate(self.names)}
        m: list[list[float | None]] = [[None] * len(idx) for _ in idx]
        for p in self.summary()["pairs"]:
            m[idx[p["a"]]][idx[p["b"]]] = p["a_share"]
            m[idx[p["b"]]][idx[p["a"]]] = 1 - p["a_share"]
        return m

    def win_matrix(self) -> Any:
        """:meth:`share_matrix` as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.share_matrix(), index=self.names, columns=self.names, dtype=float)


# ---------------------------------------------------------------------------- running
def run_tournament(config: TournamentConfig, *, executor: Executor | None = None, workers: int | None = None,
                   jobs: int = 1, scheduler: str | None = None, dask_local: int | None = None,
                   batch_size: int | None = None, progress: bool | None = True,
                   resume: str | os.PathLike[str] | None = None, connect_timeout: float = CONNECT_TIMEOUT,
                   on_record: Callable[[dict[str, Any]], None] | None = None) -> TournamentResult:
    """Play every game of ``config`` that is not already in the ``resume`` journal.

    ``executor``: any :class:`concurrent.futures.Executor` (you shut it down; give its
    ``workers`` for the batch size); otherwise one is opened from ``jobs`` /
    ``scheduler`` / ``dask_local`` (see :func:`~.executors.open_executor`) and closed at
    the end.  ``batch_size``: games per task (default :func:`auto_batch`).
    ``progress``: a tqdm bar (``tqdm.auto``: a widget in notebooks; None = only on a
    terminal).  ``on_record(record)`` is called for each game as it arrives.

    Ctrl-C (KeyboardInterrupt) stops the run: pending tasks are cancelled and the result
    holds the games finished so far, with ``interrupted=True`` (and they are in the
    journal, so a new run with the same ``resume`` file continues).
    """
    done: dict[int, dict[str, Any]] = {}
    if resume is not None:
        config, prior = load_for_resume(resume, config)
        done = {r["index"]: r for r in prior}
    pending = [i for i in range(config.total_games) if i not in done]
    if executor is not None:
        return _run(config, done, pending, executor, workers or getattr(executor, "_max_workers", 1) or 1,
                    type(executor).__name__, batch_size, progress, resume, on_record)
    with open_executor(jobs=jobs, scheduler=scheduler, dask_local=dask_local, connect_timeout=connect_timeout) as ex:
        return _run(config, done, pending, ex.executor, ex.workers, ex.description, batch_size, progress, resume, on_record)


def _run(config: TournamentConfig, done: dict[int, dict[str, Any]], pending: Sequence[int], executor: Executor | None,
         workers: int, description: str, batch_size: int | None, progress: bool | None,
         resume: str | os.PathLike[str] | None, on_record: Callable[[dict[str, Any]], None] | None) -> TournamentResult:
    from tqdm.auto import tqdm

    size = batch_size if batch_size is not None else 1 if executor is None else auto_batch(len(pending), workers)
    if size < 1:
        raise TournamentError(f"the batch size must be at least 1, got {size}")
    journal = Journal(resume, config) if resume is not None else None
    bar = tqdm(total=config.total_games, initial=len(done), unit="game", desc=config.game, disable=None if progress is None else not progress,
               dynamic_ncols=True)
    played = 0
    interrupted = False
    start = time.perf_counter()

    def accept(records: Iterable[dict[str, Any]]) -> None:
        nonlocal played
        for rec in records:
            old = done.get(rec["index"])
            if old is not None:
                if old != rec:
                    raise TournamentError(f"game {rec['index']} came back with a different result: a game is not deterministic")
                continue
            done[rec["index"]] = rec
            played += 1
            if journal is not None:
                journal.write(rec)
            bar.update(1)
            if on_record is not None:
                on_record(rec)

    try:
        if executor is None:
            for i in pending:
                accept([play_game(config, i)])
        else:
            _run_futures(executor, config, pending, size, accept)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        if journal is not None:
            journal.close()
    return TournamentResult(config, [done[i] for i in sorted(done)], interrupted, description, workers, size,
                            time.perf_counter() - start, played)


#: how often the loop that collects finished games looks whether Ctrl-C was pressed (s)
CTRL_C_POLL = 0.2


@contextmanager
def _ctrl_c_sets(flag: threading.Event) -> Iterator[None]:
    """While collecting results from an executor, Ctrl-C (SIGINT) sets ``flag`` instead of
    raising KeyboardInterrupt wherever the main thread happens to be: in
    ``concurrent.futures.wait`` it holds every future's lock in turn, and an exception
    raised there left one held, so that the pool's own thread and the cancelling of the
    futures waited for it for ever (a Ctrl-C that hung the run, seen in CI).  Only in the
    main thread and when SIGINT has Python's default handler; otherwise nothing changes."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: flag.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_futures(executor: Executor, config: TournamentConfig, pending: Sequence[int], size: int,
                 accept: Callable[[Iterable[dict[str, Any]]], None]) -> None:
    """Submit the batches and accept their records as they finish; Ctrl-C cancels what has
    not started and raises KeyboardInterrupt here, at a point that holds no lock."""
    cfg = config.to_dict()
    futures: set[Future[list[dict[str, Any]]]] = set()
    stop = threading.Event()
    with _ctrl_c_sets(stop):
        try:
            for k in range(0, len(pending), size):
                if stop.is_set():
                    break
                futures.add(executor.submit(play_batch, cfg, list(pending[k:k + size])))
            while futures and not stop.is_set():
                finished, futures = wait(futures, timeout=CTRL_C_POLL, return_when=FIRST_COMPLETED)
                for fut in sorted(finished, key=lambda f: id(f)):
                    accept(fut.result())
        finally:
            for fut in futures:
                fut.cancel()
    if stop.is_set():
        raise KeyboardInterrupt
