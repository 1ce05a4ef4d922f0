"""Cheap state records (issue 18, item 2): ``GameState.copy`` / ``from_snapshot``,
``JapanMatch.snapshot`` / ``JapanMatch.restore`` and ``JapanMatch.copy`` without copying the
board (before issue 29 the older engine's ``Game.checkpoint``/``restore``/``copy``).

Every check compares against the slow, obviously right way: replaying the action log
from the start with the same dice (its logged chance outcomes).
"""

from __future__ import annotations

import random

import pytest

from conquest_widget.core.protocol import CHANCE
from conquest_widget.errors import SerializationError, WrongGameError
from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    PlayerSetup,
    ScriptedDice,
)
from conquest_widget.games.japan_conquest import cpu as cpu_module
from conquest_widget.games.japan_conquest.cpu import cpu_action, play_cpu_turns
from conquest_widget.games.japan_conquest.match import MatchPoint
from conquest_widget.games.japan_conquest.setup import random_homes
from conquest_widget.games.japan_conquest.state import GameState

STRATS = ("balanced", "aggressive", "expansionist", "defensive")


def cpu_game(seed: int, players: int = 3, turns: int = 10) -> JapanMatch:
    """A finished CPU-only game (every difficulty and strategy appear over the seeds)."""
    homes = random_homes(players, random.Random(seed))
    setup = GameSetup(
        players=tuple(
            PlayerSetup(f"P{i + 1}", homes[i], cpu=True, difficulty=("easy", "normal", "hard")[(seed + i) % 3],
                        strategy=STRATS[(seed + 2 * i) % 4])
            for i in range(players)
        ),
        turns=turns, seed=seed, roll_for_order=seed % 2 == 1,
    )
    g = JapanMatch(setup)
    play_cpu_turns(g)
    assert g.is_over
    return g


def replayed(game: JapanMatch, k: int) -> JapanMatch:
    """``game`` after its first ``k`` actions, replayed from the start with its dice faces."""
    m = JapanMatch(game.setup, seed=game.chance.seed, forced=[e["outcome"] for e in game.log if e["seat"] == CHANCE])
    for action in game.actions()[:k]:
        m.push(action)
    return m


def positions(n: int, rng: random.Random, count: int = 25) -> list[int]:
    return sorted({0, 1, n - 1, n, *rng.sample(range(n + 1), min(count, n + 1))})


@pytest.fixture(scope="module")
def games() -> list[JapanMatch]:
    return [cpu_game(seed, players=2 + seed % 3) for seed in (3, 8, 13, 21)]


# ------------------------------------------------------------------ GameState
def test_state_copy_is_equal_and_shares_nothing_mutable(games):
    for game in games:
        for k in positions(game.action_count, random.Random(1), 10):
            st = replayed(game, k).state
            c = st.copy()
            assert c == st and c.snapshot() == st.snapshot()
            assert c.owner is not st.owner and c.level is not st.level and c.stored is not st.stored
            assert c.players is not st.players and c.order is not st.order and c.route is not st.route
            assert c.region_controller is not st.region_controller and c.region_full is not st.region_full
            for a, b in zip(c.players, st.players, strict=True):
                assert a is not b and a.regions_ever is not b.regions_ever and a.full_ever is not b.full_ever
            if st.battle is not None:
                assert c.battle is not st.battle and c.battle.bonus_parts is not st.battle.bonus_parts


def test_state_copy_of_a_battle_is_independent(games):
    game = next(g for g in games if any(e["type"] == "battle_start" for e in g.full_events()))
    k = next(i for i in range(game.action_count) if replayed(game, i).phase == "battle_defend")
    st = replayed(game, k).state
    c = st.copy()
    c.battle.attack_roll.append(6)
    c.battle.bonus_parts["castle"] = 99
    c.players[0].regions_ever.append("x")
    assert st.snapshot() == replayed(game, k).state.snapshot()


def test_from_snapshot_inverts_snapshot(games):
    for game in games:
        for k in positions(game.action_count, random.Random(2), 10):
            st = replayed(game, k).state
            back = GameState.from_snapshot(st.snapshot())
            assert back == st and back.snapshot() == st.snapshot()


@pytest.mark.parametrize(
    "breakage, problem",
    [
        (lambda d: d.pop("players"), "players"),
        (lambda d: d["prefectures"].pop(), "47 codes"),
        (lambda d: d["players"][0].update(spy=1), "unknown player fields"),
        (lambda d: d.update(turn_index="x"), "turn_index|invalid literal"),
        (lambda d: d.update(battle={"pref": 1}), "malformed"),
    ],
)
def test_from_snapshot_refuses_malformed_data_with_a_clear_error(breakage, problem):
    data = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"])).state.snapshot()
    breakage(data)
    with pytest.raises(SerializationError, match=problem):
        GameState.from_snapshot(data)


# ------------------------------------------------------------ checkpoint / restore
def test_restore_gives_exactly_the_replayed_position_in_any_order(games):
    """Checkpoints taken along a game, restored in random order (backwards and forwards)
    into the finished game: state, log, events and dice position equal a replay."""
    for game in games:
        n = game.action_count
        g = replayed(game, 0)
        points = {0: g.snapshot()}
        for i, action in enumerate(game.actions(), 1):
            g.push(action)
            if i % 7 == 0 or i == n:
                points[i] = g.snapshot()
        assert g.state.snapshot() == game.state.snapshot()
        order = list(points)
        random.Random(n).shuffle(order)
        for k in order:
            g.restore(points[k])
            ref = replayed(game, k)
            assert g.state.snapshot() == ref.state.snapshot() and g.log == ref.log and g.events == ref.events, k
            assert g.legal_moves() == ref.legal_moves() and g.action_count == ref.action_count
        # the dice continue as recorded: play the rest of the log from a restored point
        g.restore(points[max(k for k in points if k <= n // 2)])
        for action in game.actions()[g.action_count:]:
            g.push(action)
        assert g.state.snapshot() == game.state.snapshot() and g.events == game.events


def test_a_checkpoint_restores_into_another_game_of_the_same_setup(games):
    game = games[0]
    k = game.action_count // 2
    point = replayed(game, k).snapshot()
    other = replayed(game, 3)
    other.restore(point)
    assert other.state.snapshot() == replayed(game, k).state.snapshot() and other.events == replayed(game, k).events
    other.restore(point)  # a checkpoint can be restored again: restoring copied it
    assert point.position == k == other.action_count


def test_restoring_does_not_change_the_checkpoint(games):
    game = games[1]
    g = replayed(game, 10)
    point = g.snapshot()
    before = (point.state.snapshot(), point.log, point.events)
    g.restore(point)
    for action in game.actions()[10:]:
        g.push(action)
    g.state.owner[13] = 3
    assert (point.state.snapshot(), point.log, point.events) == before


def test_cpus_decide_the_same_after_a_restore(games):
    """The CPU caches (keyed on the game) must not leak across a restore: CPU play from a
    restored mid-game point, including mid-route and mid-battle points, reproduces the
    recorded game."""
    for game in games:
        g = replayed(game, 0)
        points = []
        for i, action in enumerate(game.actions()):
            if g.phase in ("route", "battle_defend") and i % 5 == 0:
                points.append(g.snapshot())
            g.push(cpu_action(g))
            assert g.actions()[-1] == action
        for point in points[:: max(1, len(points) // 6)]:
            g.restore(point)
            play_cpu_turns(g)
            assert g.log == game.log and g.state.snapshot() == game.state.snapshot()


@pytest.mark.parametrize("bad", [{"state": 1}, None, "checkpoint"])
def test_restore_refuses_what_is_not_a_checkpoint_and_changes_nothing(bad):
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    g.roll()
    before = (g.state.snapshot(), list(g.log), list(g.events))
    with pytest.raises(WrongGameError, match="MatchPoint"):
        g.restore(bad)
    assert (g.state.snapshot(), g.log, g.events) == before


def test_restore_refuses_a_checkpoint_of_another_setup():
    a = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    b = JapanMatch(GameSetup.quick(["Tokyo", "Kyoto"], seed=1))
    before = b.state.snapshot()
    with pytest.raises(WrongGameError, match="another setup"):
        b.restore(a.snapshot())
    assert b.state.snapshot() == before



def test_checkpoint_with_scripted_dice_keeps_the_dice_position():
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=0), dice=ScriptedDice([1, 2, 3, 4]))
    point = g.snapshot()
    g.roll()
    assert g.allowance == 1
    g.restore(point)
    g.roll()
    assert g.allowance == 1 and isinstance(point, MatchPoint) and point.script.rolled == 0


# ------------------------------------------------------------- JapanMatch.copy
def test_copy_shares_the_board_and_setup_and_nothing_that_changes(games):
    game = games[2]
    c = game.copy()
    assert c.board is game.board and c.setup is game.setup
    assert c.state is not game.state and c.log is not game.log and c.events is not game.events
    assert c.chance is not game.chance and c.chance.entries is c.log
    assert c.state.snapshot() == game.state.snapshot() and c.to_dict() == game.to_dict()
    c.state.owner[13] = 3
    assert game.state.owner[13] != 3


def test_copies_do_not_grow_the_cpu_distance_cache():
    """Issue 11: the hop-distance cache was keyed by id(board), and copying deep-copied
    the board, so every copy (replay scrubbing, branching) added an entry."""
    setup = GameSetup(players=(PlayerSetup("A", 13, cpu=True, difficulty="hard"),
                               PlayerSetup("B", 27, cpu=True, difficulty="hard", strategy="aggressive")),
                      mode="conquest", turns=None, seed=5)
    g = JapanMatch(setup)
    for _ in range(40):
        g = g.copy()
        if g.is_over:
            break
        g.push(cpu_action(g))  # hard CPUs and conquest mode use the hop distances
    assert cpu_module._hop_distances.cache_info().currsize == 1
    assert cpu_module._near.cache_info().currsize == 1
