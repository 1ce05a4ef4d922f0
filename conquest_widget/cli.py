"""The ``conquest-widget`` command.

    conquest-widget simulate --players hard:aggressive,easy:balanced,normal,normal \\
        --mode standard --turns 50 --games 200 --seed 1 --jobs 2 [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from conquest_widget.errors import ConquestError


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``conquest-widget`` console script."""
    parser = argparse.ArgumentParser(prog="conquest-widget", description="Conquest board games: command-line tools")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play CPU-only Japan Conquest games and summarise them")
    sim.add_argument("--players", required=True, help="comma-separated difficulty[:strategy], 2-4 entries")
    sim.add_argument("--mode", default="standard", choices=["standard", "conquest", "total_conquest"])
    sim.add_argument("--turns", type=int, default=50, help="turns per player (standard mode)")
    sim.add_argument("--games", type=int, default=200)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--jobs", type=int, default=1, help="parallel worker processes")
    sim.add_argument("--json", action="store_true", help="print machine-readable JSON")
    args = parser.parse_args(argv)
    from conquest_widget.games.japan_conquest.simulate import (
        format_table,
        simulate,
        terminal_progress,
    )

    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    try:
        result = simulate(
            args.players, mode=args.mode, turns=args.turns, games=args.games, seed=args.seed, jobs=args.jobs,
            progress=None if args.json else terminal_progress,
        )
    except ConquestError as exc:
        print(f"conquest-widget: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else format_table(result))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
