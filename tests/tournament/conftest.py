"""Shared small tournaments: Japan Conquest 5-turn games are fast (about 0.1 s of CPU)."""

from __future__ import annotations

import pytest

from conquest_widget.tournament import TournamentConfig, run_tournament


def small_config(games: int = 6, entrants=("normal", "e=easy:aggressive"), **kw) -> TournamentConfig:
    return TournamentConfig.build("japan_conquest", list(entrants), games=games, seed=kw.pop("seed", 11),
                                  options={"turns": 5}, **kw)


@pytest.fixture(scope="session")
def reference():
    """The 8 games of a 2-entrant, 5-turn tournament played in this process (--jobs 1)."""
    cfg = small_config(games=8)
    res = run_tournament(cfg, jobs=1, progress=False)
    assert res.complete and not res.interrupted
    return cfg, res.records
