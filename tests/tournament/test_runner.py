"""Running tournaments: the same records on any executor, Ctrl-C, resume, CSV."""

from __future__ import annotations

import csv
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from conquest_widget.core import registry
from conquest_widget.tournament import (
    JournalError,
    TournamentConfig,
    read_journal,
    run_tournament,
)

from .conftest import small_config


def test_process_pool_gives_the_same_games_as_one_process(reference) -> None:
    cfg, records = reference
    res = run_tournament(cfg, jobs=2, batch_size=3, progress=False)
    assert res.complete and res.workers == 2 and res.batch_size == 3
    assert res.records == records


def test_any_executor_and_any_batch_size(reference) -> None:
    cfg, records = reference
    with ThreadPoolExecutor(3) as ex:
        res = run_tournament(cfg, executor=ex, workers=3, batch_size=2, progress=False)
    assert res.records == records
    assert res.summary(bootstrap=30) == run_tournament(cfg, progress=False).summary(bootstrap=30)


def test_records_are_complete_and_plausible(reference) -> None:
    cfg, records = reference
    assert [r["index"] for r in records] == list(range(cfg.total_games))
    for r in records:
        assert sorted(r["seats"]) == ["e", "normal"] and r["reason"] == "turns"
        assert min(r["ranks"]) == 1 and r["actions"] > 10 and r["chance"] > 0
        assert len(r["details"]["scores"]) == 2 and r["stats"]["turn_end"] == 10  # 5 turns x 2 players
    # seat rotation on the same seeds: both games of a deal have the same setup, swapped seats
    assert records[0]["seed"] == records[1]["seed"] and records[0]["seats"] == records[1]["seats"][::-1]


def test_interrupt_keeps_finished_games_and_resume_completes(reference, tmp_path) -> None:
    cfg, records = reference
    journal = tmp_path / "run.jsonl"
    seen = []

    def stop_after_three(rec):
        seen.append(rec["index"])
        if len(seen) == 3:
            raise KeyboardInterrupt

    part = run_tournament(cfg, progress=False, resume=journal, on_record=stop_after_three)
    assert part.interrupted and not part.complete and len(part.records) == 3
    assert part.records == [records[i] for i in sorted(seen)]
    conf, kept = read_journal(journal)
    assert conf == cfg and kept == part.records
    rest = run_tournament(cfg, jobs=2, batch_size=1, progress=False, resume=journal)
    assert rest.complete and rest.played_now == cfg.total_games - 3
    assert rest.records == records
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + cfg.total_games  # every game exactly once
    # a third run has nothing to do
    again = run_tournament(cfg, progress=False, resume=journal)
    assert again.played_now == 0 and again.records == records


def test_a_real_ctrl_c_while_waiting_on_an_executor_stops_cleanly(reference) -> None:
    """SIGINT (Ctrl-C) arriving while the run waits in ``concurrent.futures.wait`` for an
    executor's games: the run returns (never hangs on a lock the interrupt left held),
    keeps the games finished, cancels the rest, and Ctrl-C's usual handler is back."""
    import os
    import signal
    import threading

    cfg, records = reference
    gate = threading.Event()  # the third batch on waits for it: the run is surely in wait()

    class Gated(ThreadPoolExecutor):
        submitted = 0

        def submit(self, fn, /, *args, **kwargs):
            Gated.submitted += 1
            if Gated.submitted <= 2:
                return super().submit(fn, *args, **kwargs)
            return super().submit(lambda: (gate.wait(30), fn(*args, **kwargs))[1])

    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    with Gated(1) as ex:
        timer.start()
        try:
            part = run_tournament(cfg, executor=ex, workers=1, batch_size=1, progress=False)
        finally:
            timer.cancel()
            gate.set()
    assert part.interrupted and len(part.records) == 2
    assert part.records == records[:2]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_torn_last_line_is_played_again(reference, tmp_path) -> None:
    cfg, records = reference
    journal = tmp_path / "run.jsonl"
    run_tournament(small_config(games=2), progress=False)  # warm-up, nothing written
    lines = [json.dumps({"journal": "conquest_widget.tournament.journal", "version": 1, "config": cfg.to_dict()})]
    lines += [json.dumps(r) for r in records[:2]]
    journal.write_text("\n".join(lines) + "\n" + json.dumps(records[2])[:40])  # killed mid-write
    res = run_tournament(cfg, progress=False, resume=journal)
    assert res.records == records and res.played_now == cfg.total_games - 2
    assert len(journal.read_text().splitlines()) == 1 + cfg.total_games


def test_a_journal_of_another_tournament_is_refused_untouched(reference, tmp_path) -> None:
    cfg, _ = reference
    journal = tmp_path / "run.jsonl"
    run_tournament(small_config(games=2), progress=False, resume=journal)
    before = journal.read_bytes()
    with pytest.raises(JournalError, match="another tournament"):
        run_tournament(cfg, progress=False, resume=journal)
    assert journal.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    with pytest.raises(JournalError, match="not a tournament journal"):
        run_tournament(cfg, progress=False, resume=notes)


def test_csv_one_row_per_game(reference, tmp_path) -> None:
    cfg, records = reference
    res = run_tournament(cfg, progress=False)
    out = tmp_path / "games.csv"
    res.write_csv(out)
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["index"]) for r in rows] == list(range(cfg.total_games))
    for row, rec in zip(rows, records, strict=True):
        assert [row["seat0_entrant"], row["seat1_entrant"]] == rec["seats"]
        assert [int(row["seat0_rank"]), int(row["seat1_rank"])] == rec["ranks"]
        assert [int(row["seat0_scores"]), int(row["seat1_scores"])] == rec["details"]["scores"]
        assert int(row["stat_turn_end"]) == rec["stats"]["turn_end"]
        assert row["winners"] == ";".join(s for s, r in zip(rec["seats"], rec["ranks"], strict=True) if r == 1)
    assert not list(tmp_path.glob(".*tmp"))  # the atomic write left no temporary file


@pytest.mark.parametrize("spec", [g for g in registry.all_games() if g.engine and g.bots], ids=lambda g: g.id)
def test_every_playable_game_runs(spec) -> None:
    bots = list(spec.bots_module().BOTS)
    opts = {"turns": 5} if spec.id == "japan_conquest" else {}
    cfg = TournamentConfig.build(spec.id, bots[:2], games=2, options=opts, seed=3)
    res = run_tournament(cfg, progress=False)
    assert res.complete and all(r["reason"] != "unfinished" for r in res.records)
    s = res.summary(bootstrap=10)
    assert len(s["entrants"]) == 2 and s["pairs"][0]["games"] == 2
