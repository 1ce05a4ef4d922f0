"""The schedule: seat rotation, tables, seeds, and bad input."""

from __future__ import annotations

from collections import Counter

import pytest

from conquest_widget.errors import UnknownGameError
from conquest_widget.tournament import (
    Entrant,
    TournamentConfig,
    TournamentError,
    UnknownBotError,
    derive_seed,
)

from .conftest import small_config


@pytest.mark.parametrize("fmt,players,entrants", [
    ("round-robin", 2, ["normal", "hard", "easy", "random"]),
    ("round-robin", 3, ["normal", "hard", "easy", "random"]),
    ("round-robin", 4, ["normal", "hard", "easy", "random"]),
    ("gauntlet", 2, ["hard", "normal", "easy"]),
    ("gauntlet", 4, ["hard", "normal", "easy"]),
])
def test_every_entrant_plays_every_seat_equally_often_on_the_same_seeds(fmt, players, entrants) -> None:
    cfg = TournamentConfig.build("japan_conquest", entrants, games=3 * players, format=fmt, players=players,
                                 options={"turns": 5})
    plans = [cfg.plan(i) for i in range(cfg.total_games)]
    assert len({p.index for p in plans}) == cfg.total_games
    for t, table in enumerate(cfg.tables):
        mine = [p for p in plans if p.table == t]
        assert len(mine) == cfg.games_per_table
        by_deal: dict[int, list] = {}
        for p in mine:
            by_deal.setdefault(p.deal, []).append(p)
        for deal, games in by_deal.items():
            assert len({g.seed for g in games}) == 1 and games[0].seed == cfg.deal_seed(deal)
            # in every deal, each seat of the table is held once by each base seat position
            for seat in range(players):
                assert Counter(g.seats[seat] for g in games) == Counter(table)
        # seat counts per entrant over the table: equal for every seat
        for e in set(table):
            counts = [sum(1 for g in mine if g.seats[s] == e) for s in range(players)]
            assert len(set(counts)) == 1, (e, counts)
    # every table plays the same deals
    assert len({tuple(sorted({p.seed for p in plans if p.table == t})) for t in range(cfg.n_tables)}) == 1


def test_tables() -> None:
    rr = TournamentConfig.build("japan_conquest", ["a=normal", "b=hard", "c=easy"], games=2)
    assert rr.tables == ((0, 1), (0, 2), (1, 2)) and rr.players == 2
    g = TournamentConfig.build("japan_conquest", ["a=normal", "b=hard", "c=easy"], games=3, format="gauntlet", players=3)
    assert g.tables == ((0, 1, 1), (0, 2, 2)) and g.games_per_table == 3
    ffa = TournamentConfig.build("japan_conquest", ["normal"] * 4, games=5, players=4)
    assert [e.name for e in ffa.entrants] == ["normal", "normal#2", "normal#3", "normal#4"]
    assert ffa.tables == ((0, 1, 2, 3),) and ffa.games_per_table == 8  # rounded up to whole rotations


def test_seeds_are_derived_from_the_master_seed() -> None:
    a, b = small_config(seed=1), small_config(seed=2)
    assert a.deal_seed(0) != b.deal_seed(0) and a.deal_seed(0) == small_config(seed=1).deal_seed(0)
    assert derive_seed(1, "deal", 3) == 2492647368679141520  # fixed forever: journals and CSVs rely on it
    assert a.setup_for_deal(0) == small_config(seed=1).setup_for_deal(0)
    assert a.setup_for_deal(0).turns == 5


def test_config_round_trips_and_rechecks() -> None:
    cfg = small_config()
    assert TournamentConfig.from_dict(cfg.to_dict()) == cfg
    bad = cfg.to_dict() | {"game": "chess"}
    with pytest.raises(UnknownGameError):
        TournamentConfig.from_dict(bad)
    with pytest.raises(TournamentError, match="malformed"):
        TournamentConfig.from_dict({"game": "japan_conquest"})


@pytest.mark.parametrize("kwargs,error,message", [
    ({"game": "chess"}, UnknownGameError, "unknown game 'chess'"),
    ({"entrants": ["normal", "grandmaster"]}, UnknownBotError, "no bot 'grandmaster' (entrant 2)"),
    ({"entrants": ["normal"]}, TournamentError, "at least 2 entrants"),
    ({"entrants": ["=normal", "hard"]}, TournamentError, "entrant name ''"),
    ({"players": 5}, TournamentError, "2-4 players, not 5"),
    ({"players": 3}, TournamentError, "needs at least 3 entrants"),
    ({"games": 0}, TournamentError, "positive"),
    ({"format": "swiss"}, TournamentError, "format must be one of"),
    ({"options": {"turnz": 5}}, TournamentError, "no option 'turnz'"),
    ({"options": {"turns": -3}}, TournamentError, "bad setup option"),
])
def test_bad_input_is_named(kwargs, error, message) -> None:
    args = {"game": "japan_conquest", "entrants": ["normal", "hard"], "games": 2} | kwargs
    game, entrants = args.pop("game"), args.pop("entrants")
    with pytest.raises(error) as info:
        TournamentConfig.build(game, entrants, **args)
    assert message in str(info.value)


def test_entrant_parse() -> None:
    assert Entrant.parse(" x = hard ") == Entrant("x", "hard")
    with pytest.raises(TournamentError):
        Entrant.parse("x=")
