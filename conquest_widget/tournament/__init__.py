"""Tournaments between bots of any registered game, on one machine or a Dask cluster.

    >>> from conquest_widget.tournament import TournamentConfig, run_tournament
    >>> cfg = TournamentConfig.build("japan_conquest", ["normal", "easy"], games=2, options={"turns": 5})
    >>> result = run_tournament(cfg, progress=False)
    >>> result.complete, len(result.records)
    (True, 2)

The same on a local Dask cluster: ``run_tournament(cfg, dask_local=2)``; on a running
cluster: ``run_tournament(cfg, scheduler="tcp://host:8786")``.  See docs/scale.md.
"""

from .config import Entrant, GamePlan, TournamentConfig, derive_seed, parse_options
from .errors import (
    JournalError,
    SchedulerUnavailableError,
    TournamentError,
    UnknownBotError,
)
from .executors import open_executor
from .play import play_batch, play_game
from .results import fit_bradley_terry, format_summary, pair_table, ratings, summarise
from .runner import TournamentResult, read_journal, run_tournament

__all__ = [
    "Entrant", "GamePlan", "JournalError", "SchedulerUnavailableError", "TournamentConfig", "TournamentError",
    "TournamentResult", "UnknownBotError", "derive_seed", "fit_bradley_terry", "format_summary", "open_executor",
    "pair_table", "parse_options", "play_batch", "play_game", "ratings", "read_journal", "run_tournament", "summarise",
]
