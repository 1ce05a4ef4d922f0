"""The command: output formats, exit codes, one-line errors that write nothing, Ctrl-C."""

from __future__ import annotations

import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conquest_widget.tournament import read_journal
from conquest_widget.tournament.cli import main

SMALL = ["--game", "japan_conquest", "--entrants", "normal", "e=easy:aggressive", "--set", "turns=5",
         "--seed", "11", "--no-progress"]
ROOT = Path(__file__).resolve().parents[2]


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "conquest_widget.tournament", *args]


def test_json_and_csv(reference, tmp_path, capsys) -> None:
    cfg, records = reference
    out = tmp_path / "games.csv"
    assert main([*SMALL, "--games", "8", "--jobs", "1", "--json", "--csv", str(out), "--bootstrap", "20"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == ["format", "version", "config", "games_total", "games_played", "complete", "interrupted",
                         "entrants", "pairs", "seats", "lengths", "reasons", "stats", "run"]
    assert doc["format"] == "conquest_widget.tournament" and doc["version"] == 1
    assert doc["config"] == cfg.to_dict() and doc["complete"] and doc["games_played"] == 8
    assert sorted(doc["entrants"][0]) == ["mean_rank", "name", "rating", "rating_interval", "seat_games",
                                          "win_interval", "win_share", "wins"]
    assert doc["pairs"][0]["games"] == 8 and doc["reasons"] == {"turns": 8}
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["seat0_entrant"], r["seat1_entrant"]) for r in rows] == [tuple(r["seats"]) for r in records]


def test_text_report(capsys) -> None:
    assert main([*SMALL, "--games", "2", "--jobs", "1", "--bootstrap", "10"]) == 0
    text = capsys.readouterr().out
    assert "japan_conquest: 2/2 games" in text and "normal vs e" in text and "end reasons: turns 2" in text


@pytest.mark.parametrize("args,message", [
    (["--game", "chess", "--entrants", "a", "b"], "unknown game 'chess'"),
    (["--game", "japan_conquest", "--entrants", "normal", "grandmaster"], "no bot 'grandmaster'"),
    (["--game", "japan_conquest", "--entrants", "normal", "hard", "--set", "turnz=5"], "no option 'turnz'"),
    (["--game", "japan_conquest", "--entrants", "normal", "hard", "--players", "9"], "not 9"),
    (["--game", "japan_conquest", "--entrants", "normal", "hard", "--batch", "0"], "--batch must be at least 1"),
])
def test_bad_input_one_line_exit_2_nothing_written(args, message, tmp_path, capsys) -> None:
    journal, out = tmp_path / "run.jsonl", tmp_path / "games.csv"
    code = main([*args, "--games", "2", "--jobs", "1", "--no-progress", "--resume", str(journal), "--csv", str(out)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("conquest-widget tournament: error: ") and message in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_a_scheduler_that_does_not_answer(tmp_path) -> None:
    # a port that accepts connections but never speaks (and one where nothing listens)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    try:
        for port in (silent.getsockname()[1], closed_port):
            journal, out = tmp_path / "run.jsonl", tmp_path / "games.csv"
            proc = subprocess.run(
                _cmd(*SMALL, "--games", "2", "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "3",
                     "--resume", str(journal), "--csv", str(out)),
                check=False, capture_output=True, text=True, timeout=180, cwd=tmp_path)
            assert proc.returncode == 2, proc.stderr
            lines = proc.stderr.strip().splitlines()
            assert len(lines) == 1, proc.stderr
            assert lines[0].startswith("conquest-widget tournament: error: no Dask scheduler answers at "
                                       f"'tcp://127.0.0.1:{port}' within 3 s")
            assert proc.stdout == "" and list(tmp_path.iterdir()) == []
    finally:
        silent.close()


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_keeps_finished_games_and_resume_continues(reference, tmp_path) -> None:
    _, records = reference
    journal = tmp_path / "run.jsonl"
    # many games, so the run is surely still going after the first two are in the journal
    args = [*SMALL, "--games", "400", "--jobs", "2", "--batch", "1", "--resume", str(journal), "--bootstrap", "10"]
    proc = subprocess.Popen(_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if journal.exists() and len(journal.read_text().splitlines()) >= 3:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted:" in err and f"--resume {journal}" in err
    _, kept = read_journal(journal)
    assert 2 <= len(kept) < 400 and "/400 games" in out
    # the kept games are those of a fresh run (the first 8 are the reference tournament's games)
    assert all(r == records[r["index"]] for r in kept if r["index"] < 8)
    assert len({r["index"] for r in kept}) == len(kept)


def test_resume_from_the_journal_alone_and_a_mismatch(reference, tmp_path, capsys) -> None:
    cfg, _records = reference
    journal = tmp_path / "run.jsonl"
    assert main([*SMALL, "--games", "8", "--jobs", "1", "--resume", str(journal), "--bootstrap", "0"]) == 0
    capsys.readouterr()
    assert main(["--resume", str(journal), "--json", "--no-progress", "--bootstrap", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["config"] == cfg.to_dict() and doc["complete"] and doc["run"]["played_this_run"] == 0
    before = journal.read_bytes()
    assert main([*SMALL, "--games", "10", "--jobs", "1", "--resume", str(journal)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "belongs to another tournament (different games_per_table)" in err[0]
    assert journal.read_bytes() == before
    assert main(["--resume", str(tmp_path / "missing.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_add_parser_follows_the_cli_convention(capsys) -> None:
    """conquest_widget/cli.py dispatches with ``args.run(args, parser)``."""
    import argparse

    from conquest_widget.tournament.cli import add_parser

    parser = argparse.ArgumentParser(prog="conquest-widget")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["tournament", *SMALL, "--games", "2", "--jobs", "1", "--json", "--bootstrap", "0"])
    assert args.run(args, parser) == 0
    assert json.loads(capsys.readouterr().out)["games_played"] == 2
    args = parser.parse_args(["tournament", "--game", "chess", "--entrants", "a", "b"])
    assert args.run(args, parser) == 2
