"""The ``conquest-widget`` command.

    conquest-widget play [--port 8866] [--host 127.0.0.1] [--dir DIR] [--store postgresql://...] [--open]
    conquest-widget notebooks DIR [--force]
    conquest-widget games
    conquest-widget simulate --players hard:aggressive,easy:balanced,normal,normal \\
        --mode standard --turns 30 --games 200 --seed 1 --jobs 2 [--json]
    conquest-widget simulate --game codex --players hard,normal,normal --games 200 [--jobs 2] [--json]
        (--mode and --turns are Japan Conquest's: another game refuses them)
    conquest-widget tournament --game japan_conquest --entrants normal hard --games 100 \\
        [--jobs 2 | --scheduler ADDR | --dask-local 2] [--json | --csv FILE]
    conquest-widget --version

Each sub-command is added by an ``_add_<name>(subparsers)`` function that registers its
arguments and its handler (``set_defaults(run=...)``, a function of the parsed arguments
and the parser returning the exit code); :func:`main` only dispatches.

    >>> build_parser().parse_args(["notebooks", "out"]).dir
    'out'
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from conquest_widget.errors import ConquestError, SetupError


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("conquest_widget")
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        from conquest_widget import __version__

        return __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``conquest-widget`` with all its sub-commands."""
    parser = argparse.ArgumentParser(prog="conquest-widget", description="Conquest board games: command-line tools")
    parser.add_argument("--version", action="version", version=f"conquest-widget {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_games(sub)
    _add_play(sub)
    _add_notebooks(sub)
    _add_simulate(sub)
    from conquest_widget.tournament.cli import add_parser as _add_tournament

    _add_tournament(sub)  # conquest-widget tournament ...
    return parser


def _add_games(sub: argparse._SubParsersAction) -> None:
    games = sub.add_parser("games", help="list the games of the package (the registry)")
    games.add_argument("--json", action="store_true", help="print machine-readable JSON")
    games.set_defaults(run=_run_games)


def _run_games(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from conquest_widget.core.registry import all_games

    rows = []
    for g in all_games():
        bots = sorted(g.bots_module().BOTS) if g.bots else []
        rows.append({"id": g.id, "title": dict(g.title), "players": [g.players.start, g.players.stop - 1],
                     "hidden_information": g.hidden_information, "engine": g.engine is not None,
                     "playable_in_app": g.playable, "bots": bots})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for r in rows:
        status = "app" if r["playable_in_app"] else "engine + bots (app coming)" if r["engine"] else "coming"
        print(f"{r['id']:<16} {r['title']['en']} / {r['title']['ja']}  ({r['players'][0]}-{r['players'][1]} players"
              f"{', hidden information' if r['hidden_information'] else ''}): {status}")
        if r["bots"]:
            print(f"{'':<16} bots: {', '.join(r['bots'])}")
    return 0


def _add_play(sub: argparse._SubParsersAction) -> None:
    from conquest_widget.serve import DEFAULT_PORT

    play = sub.add_parser(
        "play", help="serve the games app (the picker and every game) with Voila on 127.0.0.1 (needs the 'app' extra)",
        description="Serve the app on http://127.0.0.1:PORT/ with a random token in the printed URL. "
                    "Saves go to DIR/conquest_saves.",
    )
    play.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0: any free port)")
    play.add_argument("--dir", default=None,
                      help="folder the app runs in and saves to (default: ~/.local/share/conquest_widget)")
    play.add_argument("--host", default=None,
                      help="address to listen on instead of 127.0.0.1, for a classroom or a LAN: this computer's address"
                           " on the network, or 0.0.0.0 for all of them (the token is still needed; see docs/tables.md)")
    play.add_argument("--open", action="store_true", help="open the address in the default web browser")
    play.add_argument("--store", default=None,
                      help="where the tables of 'Separate screens' are kept: a PostgreSQL URL (postgresql://user@host/db)"
                           " or a path (default: $CONQUEST_TABLES_STORE, else DIR/conquest_saves/tables.sqlite3)")
    play.set_defaults(run=_run_play)


def _run_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from conquest_widget.serve import HOST, play

    return play(args.dir, args.port, open_browser=args.open, store=args.store, host=args.host or HOST)


def _add_notebooks(sub: argparse._SubParsersAction) -> None:
    nb = sub.add_parser("notebooks", help="copy the example notebooks (the app and the teaching notebooks) into DIR")
    nb.add_argument("dir", metavar="DIR", help="destination folder (created if needed)")
    nb.add_argument("--force", action="store_true", help="replace notebooks of the same name in DIR")
    nb.set_defaults(run=_run_notebooks)


def _run_notebooks(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from conquest_widget.serve import copy_notebooks

    for path in copy_notebooks(args.dir, overwrite=args.force):
        print(path)
    return 0


def _add_simulate(sub: argparse._SubParsersAction) -> None:
    sim = sub.add_parser("simulate", help="play CPU-only games of any game (default Japan Conquest) and summarise them per bot")
    sim.add_argument("--game", help="game id (see `conquest-widget games`; default: the first, Japan Conquest)")
    sim.add_argument("--players", required=True,
                     help="comma-separated bot labels, one per seat (Japan Conquest: difficulty[:strategy])")
    sim.add_argument("--mode", help="Japan Conquest only: standard, conquest or total_conquest (default: standard)")
    sim.add_argument("--turns", type=int, help="Japan Conquest only: turns per player of a standard game "
                                               "(default: each game's random setup, 5 or 10)")
    sim.add_argument("--games", type=int, default=200, help="games to play, rounded up to whole seat rotations")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--jobs", type=int, default=1, help="parallel worker processes")
    sim.add_argument("--json", action="store_true", help="print machine-readable JSON")
    sim.set_defaults(run=_run_simulate)


def _run_simulate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from conquest_widget.tournament.simulate import format_result, simulate

    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    options = {name: getattr(args, name) for name in ("mode", "turns") if getattr(args, name) is not None}
    if options.get("mode", "standard") != "standard" and "turns" in options:
        raise SetupError(f"--turns is for standard games only: a {options['mode']} game has no turn limit")
    if options.get("mode", "standard") != "standard":
        options["turns"] = None  # the random setups' turn limit goes with any other mode
    # an option the game does not have is refused (in simulate), never silently ignored
    from conquest_widget.core import registry

    game = args.game or registry.all_games()[0].id
    result = simulate(game, args.players, games=args.games, seed=args.seed, jobs=args.jobs, options=options,
                      progress=False if args.json else None)
    print(json.dumps(result, indent=2) if args.json else format_result(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``conquest-widget`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args, parser)
    except ConquestError as exc:
        print(f"conquest-widget: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
