"""The ``tournament`` command (``conquest-widget tournament`` or
``python -m conquest_widget.tournament``).

    conquest-widget tournament --game japan_conquest --entrants normal hard easy:aggressive \\
        --games 100 --set turns=10 [--format gauntlet] [--players 4] [--seed 1] \\
        [--jobs 2 | --scheduler tcp://host:8786 | --dask-local 2] [--batch 8] \\
        [--json] [--csv games.csv] [--resume run.jsonl]

Exit codes: 0 done, 2 bad input (one line on stderr, nothing written), 130 interrupted
with Ctrl-C (the finished games are summarised, and kept in the ``--resume`` journal).

    >>> p = argparse.ArgumentParser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> a = p.parse_args(["tournament", "--game", "japan_conquest", "--entrants", "normal", "x=hard", "--games", "4"])
    >>> a.entrants, a.games, a.jobs
    (['normal', 'x=hard'], 4, None)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from conquest_widget.errors import ConquestError

from .config import FORMATS, TournamentConfig, parse_options
from .errors import TournamentError
from .results import BOOTSTRAP, format_summary
from .runner import load_for_resume, run_tournament

EPILOG = """\
entrant SPEC: a bot label of the game (japan_conquest: random, easy, normal, hard, or
difficulty:strategy such as easy:aggressive), optionally NAME=label; repeat a bot under
other names to seat it more than once.  Every entrant plays every seat equally often on
the same seeds.  See docs/scale.md for clusters, the JSON and CSV formats."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``tournament`` on a sub-command parser.  Sets ``run`` to a handler of
    ``(args, parser)`` (the convention of :mod:`conquest_widget.cli`)."""
    p = subparsers.add_parser(
        "tournament", help="rate bots: seat-rotated round-robin or gauntlet, locally or on a Dask cluster",
        description="Play a tournament between bots of a game and report win rates with 95%% Wilson intervals, "
                    "Bradley-Terry ratings with bootstrap intervals, game lengths and end reasons.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    p.set_defaults(run=lambda args, parser=None: run(args))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of the command."""
    p.add_argument("--game", help="game id (see the registry); may be omitted with --resume of an existing journal")
    p.add_argument("--entrants", nargs="+", metavar="SPEC", help="bot specs: LABEL or NAME=LABEL (also comma-separated)")
    p.add_argument("--games", type=int, default=None,
                   help="games per table, rounded up to a multiple of --players (default 100)")
    p.add_argument("--format", choices=FORMATS, default="round-robin",
                   help="round-robin: every set of --players distinct entrants meets; gauntlet: the first entrant "
                        "meets each other one, which fills the other seats (default round-robin)")
    p.add_argument("--players", type=int, default=None, help="seats per table (default 2, or the game's smallest table)")
    p.add_argument("--seed", type=int, default=1, help="master seed: every game's seeds derive from it (default 1)")
    p.add_argument("--set", dest="options", action="append", default=[], metavar="KEY=VALUE",
                   help="override a field of every game's random setup, e.g. --set turns=5 (repeatable)")
    p.add_argument("--max-actions", type=int, default=None, help="action cap per game (an unfinished game is reported)")
    ex = p.add_mutually_exclusive_group()
    ex.add_argument("--jobs", type=int, default=None,
                    help="local worker processes (default: the number of CPUs; 1 = play in this process)")
    ex.add_argument("--scheduler", metavar="ADDRESS", help="run on the Dask cluster of this scheduler (tcp://host:8786)")
    ex.add_argument("--dask-local", type=int, metavar="N", help="run on a local Dask cluster of N worker processes")
    p.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to wait for --scheduler (default 10)")
    p.add_argument("--batch", type=int, default=None, help="games per task (default: automatic, at most 8)")
    p.add_argument("--bootstrap", type=int, default=BOOTSTRAP, help=f"bootstrap resamples for the rating intervals (default {BOOTSTRAP})")
    p.add_argument("--json", action="store_true", help="print the results as JSON (format in docs/scale.md)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game to FILE (written when the run ends)")
    p.add_argument("--resume", metavar="FILE", help="journal: record each game in FILE as it finishes; "
                                                    "if FILE exists, skip the games it holds")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it is shown on terminals only)")


def _config(args: argparse.Namespace) -> TournamentConfig | None:
    entrants = [s for spec in (args.entrants or []) for s in spec.split(",") if s.strip()]
    if args.game is None and args.entrants is None:
        if args.resume is None:
            raise TournamentError("give --game and --entrants (or --resume FILE of an existing journal)")
        return None
    if args.game is None or not entrants:
        raise TournamentError("give both --game and --entrants")
    kwargs = {} if args.max_actions is None else {"max_actions": args.max_actions}
    return TournamentConfig.build(args.game, entrants, games=100 if args.games is None else args.games,
                                  format=args.format, players=args.players, seed=args.seed,
                                  options=parse_options(args.options), **kwargs)


def run(args: argparse.Namespace) -> int:
    """Run the command for parsed ``args``; returns the exit code."""
    try:
        config = _config(args)
        if args.resume is not None:
            config, _ = load_for_resume(args.resume, config)  # checked before anything starts
        assert config is not None
        if args.batch is not None and args.batch < 1:
            raise TournamentError(f"--batch must be at least 1, got {args.batch}")
        if args.bootstrap < 0:
            raise TournamentError(f"--bootstrap must be at least 0, got {args.bootstrap}")
        if args.csv is not None and not Path(args.csv).resolve().parent.is_dir():
            raise TournamentError(f"--csv {args.csv}: the folder does not exist")
        jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
        result = run_tournament(config, jobs=jobs, scheduler=args.scheduler, dask_local=args.dask_local,
                                batch_size=args.batch, progress=False if args.no_progress else None,
                                resume=args.resume, connect_timeout=args.connect_timeout)
    except ConquestError as exc:
        print(f"conquest-widget tournament: error: {exc}".splitlines()[0], file=sys.stderr)
        return 2
    if result.interrupted:
        print(f"interrupted: {len(result.records)} of {config.total_games} games finished"
              + (f" (kept in {args.resume}; run again with --resume {args.resume} to continue)" if args.resume else ""),
              file=sys.stderr)
    if args.csv is not None:
        result.write_csv(args.csv)
    if args.json:
        print(json.dumps(result.to_json(args.bootstrap), indent=2, sort_keys=False))
    else:
        r = result.to_json(args.bootstrap)["run"]
        print(f"{config.game}: {len(result.records)}/{config.total_games} games, {config.format}, "
              f"{config.players} seats, seed {config.seed}, on {r['executor']} "
              f"({r['played_this_run']} played in {r['elapsed_s']:.1f} s, batch {r['batch_size']})")
        print(format_summary(result.summary(args.bootstrap)))
    return 130 if result.interrupted else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conquest_widget.tournament``: the command without the other sub-commands."""
    parser = argparse.ArgumentParser(prog="conquest-widget tournament", epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))
