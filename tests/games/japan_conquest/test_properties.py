"""Property tests (hypothesis) of the Japan Conquest engine: random legal games.

Thousands of random legal games across the three modes and 2-4 players:
- never raise;
- after every action the score equals a from-scratch recomputation, and regional
  control matches a recomputation from the owner/level lists;
- never give a player negative banked points or dice items;
- always terminate (standard by the turn limit; conquest modes under a safety cap
  which fails the test loudly when hit);
- replay from the action log, and ``from_dict(json(to_dict()))``, reproduce the
  identical snapshot.

Plus deterministic round trips mid-route, mid-battle, at game end and via a JSON file.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquest_widget.games.japan_conquest import (
    BattleRoll,
    GameSetup,
    JapanMatch,
    RandomDice,
    Roll,
    ScriptedDice,
)
from conquest_widget.games.japan_conquest.legacy import match_from_legacy

from .legacy_docs import legacy_doc
from .random_play import (
    BOARD,
    CONQUEST_ACTION_CAP,
    Planner,
    apply_checked,
    check_event_ledger,
    check_invariants,
    choose_action,
    pick_homes,
    play_random,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def props(max_examples: int) -> settings:
    return settings(max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw, modes=("standard",), turns=(5, 10), players=(2, 3, 4)):
    n = draw(st.sampled_from(players))
    order = draw(st.permutations(BOARD.codes))
    homes = pick_homes(order, n)
    mode = draw(st.sampled_from(modes))
    t = draw(st.sampled_from(turns)) if mode == "standard" else 10
    return GameSetup.quick(homes, mode=mode, turns=t, roll_for_order=draw(st.booleans()), seed=draw(SEEDS))


def roundtrip(game: JapanMatch) -> JapanMatch:
    """``from_dict`` of the JSON text of ``to_dict``, given a copy of the game's dice
    script at its position (a script decides future rolls and is not in the document)."""
    loaded = JapanMatch.from_dict(json.loads(json.dumps(game.to_dict())))
    loaded.script = copy.deepcopy(game.script)
    return loaded


def assert_reproduced(game: JapanMatch) -> None:
    """Replay from the action log (with the dice re-rolled, as the older engine's
    document did, and through the legacy reader) and a JSON round trip all reproduce the
    game exactly."""
    if isinstance(game.script, RandomDice):  # (a match without a script: the seed decides the rolls)
        replayed = JapanMatch(game.setup, dice=RandomDice(game.setup.seed))
        for action in game.actions():
            replayed.push(action)
        assert replayed.state.snapshot() == game.state.snapshot()
        assert replayed.full_events() == game.full_events()
        legacy = match_from_legacy(legacy_doc(game, {"kind": "random", "seed": game.setup.seed}))
        assert legacy.to_dict() == game.to_dict() and legacy.full_events() == game.full_events()
    loaded = roundtrip(game)
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.log == game.log
    assert loaded.full_events() == game.full_events()
    assert [str(a) for a in loaded.legal_moves()] == [str(a) for a in game.legal_moves()]


def assert_standard_end(game: JapanMatch) -> None:
    st_ = game.state
    assert game.is_over
    assert st_.end_reason in ("turns", "defeat"), st_.end_reason
    if st_.end_reason == "turns":
        assert all(p.turns_done == game.setup.turns for p in st_.players)
    else:
        assert st_.defeated is not None and st_.players[st_.defeated].defeated
    assert [e["type"] for e in game.full_events()].count("game_end") == 1
    assert game.full_events()[-1]["type"] == "game_end"


def assert_conquest_end(game: JapanMatch) -> None:
    st_ = game.state
    mode = game.setup.mode
    assert game.is_over
    assert st_.end_reason in (mode, "defeat"), st_.end_reason
    if st_.end_reason == "conquest":
        assert all(lv >= 2 for lv in st_.level[1:])
    elif st_.end_reason == "total_conquest":
        assert all(lv >= 3 for lv in st_.level[1:])


# ------------------------------------------------------------- standard games
@props(1500)
@given(setup=setups(), choice_seed=SEEDS)
def test_random_short_standard_games(setup, choice_seed):
    """Short (5/10-turn) standard games, 2-4 players: invariants after every action,
    termination by the turn limit, replay and JSON round trip at the end."""
    game = JapanMatch(setup, dice=RandomDice(setup.seed))
    check_invariants(game)
    play_random(game, random.Random(choice_seed), max_actions=20_000)
    assert_standard_end(game)
    check_event_ledger(game)
    assert_reproduced(game)


@props(150)
@given(setup=setups(turns=(15, 30)), choice_seed=SEEDS, cut=st.floats(0.05, 0.95))
def test_random_standard_games_round_trip_midway(setup, choice_seed, cut):
    """Longer standard games, saved and reloaded at a random point along the way; the
    reloaded game then continues identically to the original (the match's seed decides
    the rolls: a dice script is not part of the document)."""
    game = JapanMatch(setup)
    rng = random.Random(choice_seed)
    target = int(cut * 4 * len(setup.players) * setup.turns * 8)
    play_random(game, rng, until=lambda g: g.action_count >= target)
    if not game.is_over:
        loaded = roundtrip(game)
        assert loaded.state.snapshot() == game.state.snapshot()
        # both continue with the same choices
        rng_state = rng.getstate()
        play_random(game, rng, max_actions=50_000)
        rng.setstate(rng_state)
        play_random(loaded, rng, max_actions=50_000, check=False)
        assert loaded.state.snapshot() == game.state.snapshot()
        assert loaded.full_events() == game.full_events()
    assert_standard_end(game)
    check_event_ledger(game)
    assert_reproduced(game)


# ------------------------------------------------------------- conquest games
@props(24)
@given(setup=setups(modes=("conquest", "total_conquest")), choice_seed=SEEDS)
def test_random_conquest_games_terminate(setup, choice_seed):
    """Conquest and Total Conquest: no turn limit; the game must end (all prefectures base /
    castle or higher, or a defeat) within CONQUEST_ACTION_CAP actions -- hitting the cap fails
    the test with a 'SAFETY CAP HIT' message."""
    game = JapanMatch(setup, dice=RandomDice(setup.seed))
    check_invariants(game)
    play_random(game, random.Random(choice_seed), max_actions=CONQUEST_ACTION_CAP)
    assert_conquest_end(game)
    check_event_ledger(game)
    assert_reproduced(game)


# ------------------------------------------------------------- editor mixed in
@props(150)
@given(setup=setups(turns=(5,)), choice_seed=SEEDS)
def test_random_games_with_position_edits(setup, choice_seed):
    """Random editor changes between moves: the score and region control still match the
    recomputation after every action, and replay (edits are logged) reproduces the game."""
    game = JapanMatch(setup, dice=RandomDice(setup.seed))
    rng = random.Random(choice_seed)
    n = len(setup.players)
    homes = {p.home for p in setup.players}
    for _ in range(20_000):
        if game.is_over:
            break
        if game.phase == "roll" and rng.random() < 0.3:
            if rng.random() < 0.7:
                code = rng.choice([c for c in BOARD.codes if c not in homes])
                owner = rng.choice([None] + list(range(n)))
                if owner is None:
                    game.edit_prefecture(code, owner=None)
                else:
                    level = rng.choice(["territory", "base", "castle"])
                    stored = rng.choice([0, 15, 45]) if level == "castle" else None
                    game.edit_prefecture(code, owner=owner, level=level, stored=stored)
            else:
                game.edit_player(
                    rng.randrange(n),
                    position=rng.choice(BOARD.codes),
                    banked=rng.randrange(0, 200),
                    doubles=rng.randrange(0, 3),
                    triples=rng.randrange(0, 3),
                )
        else:
            game.push(choose_action(game, rng))
        check_invariants(game, awards=False)
    assert_standard_end(game)
    assert_reproduced(game)


# ------------------------------------------------------------- deterministic round trips
def _two_player(dice, **kw):
    return JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=5, **kw), dice=dice)


def test_round_trip_mid_route():
    game = _two_player(ScriptedDice([3], then_seed=9))
    game.roll(1)
    game.step("Saitama")
    game.step("Gunma")
    assert game.phase == "route" and game.remaining == 1
    loaded = roundtrip(game)
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.route == [11, 10] and loaded.remaining == 1 and loaded.allowance == 3
    assert sorted(loaded.legal_steps()) == sorted(game.legal_steps())
    assert loaded.legal_moves() == game.legal_moves()
    # undo works across the round trip, and both finish the route identically
    loaded.undo_step()
    game.undo_step()
    assert loaded.state.snapshot() == game.state.snapshot()
    for g in (game, loaded):
        g.step("Gunma")
        g.step(g.legal_steps()[0])
        g.confirm_route()
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.full_events() == game.full_events()


def test_round_trip_mid_battle_defence_pending():
    # Osaka (seat 1) holds Saitama as a castle; Tokyo (seat 0) rolls 2 (entering an enemy
    # castle costs 2 and a 20-point toll) and stops there.
    game = _two_player(ScriptedDice([2, 5, 2, 4, 3]))
    game.edit_prefecture("Saitama", owner=1, level="castle", stored=15)
    game.edit_player(0, banked=50)
    game.roll(1)
    game.step("Saitama")
    game.confirm_route()
    assert game.phase == "battle_attack"
    game.battle_roll(2)  # attacker spends the Double Dice: 5 + 2
    assert game.phase == "battle_defend" and game.actor == 1
    loaded = roundtrip(game)
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.phase == "battle_defend" and loaded.actor == 1
    assert loaded.state.battle.attack_roll == [5, 2]
    assert loaded.state.battle.bonus == game.state.battle.bonus == 2  # castle
    assert loaded.legal_moves() == game.legal_moves()
    assert loaded.items(0) == {"double": 0, "triple": 1}
    for g in (game, loaded):
        g.battle_roll(1)  # defender: 4 + 2 castle = 6 < 7
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.full_events() == game.full_events()
    assert game.prefecture_info("Saitama")["owner"] == 0
    assert game.prefecture_info("Saitama")["level"] == "castle"


def test_round_trip_mid_battle_attack_pending():
    game = _two_player(ScriptedDice([1], then_seed=3))
    game.edit_prefecture("Saitama", owner=1, level="base")
    game.roll(1)
    game.step("Saitama")
    game.confirm_route()
    assert game.phase == "battle_attack"
    loaded = roundtrip(game)
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.actor == 0 and loaded.legal_moves() == [BattleRoll(1), BattleRoll(2), BattleRoll(3)]


@pytest.mark.parametrize("mode", ["standard", "conquest"])
def test_round_trip_at_game_end(mode):
    rng = random.Random(11)
    game = JapanMatch(GameSetup.quick(["Hokkaido", "Fukuoka", "Tokyo", "Osaka"], mode=mode, turns=5, seed=4), dice=RandomDice(4))
    play_random(game, rng, max_actions=CONQUEST_ACTION_CAP, check=False)
    assert game.is_over
    loaded = roundtrip(game)
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.is_over and loaded.legal_moves() == []
    assert loaded.ranking() == game.ranking()
    assert loaded.scores() == game.scores()
    assert loaded.full_events() == game.full_events()


def test_round_trip_through_a_json_file(tmp_path):
    # (no dice script: the match's seed decides the rolls, so the loaded match plays on alike)
    game = JapanMatch(GameSetup.quick(["Miyagi", "Hiroshima", "Kagoshima"], turns=5, roll_for_order=True, seed=8))
    play_random(game, random.Random(2), until=lambda g: g.action_count >= 60)
    if game.phase == "roll":
        game.edit_player(1, banked=123)
    path = tmp_path / "save.json"
    path.write_text(json.dumps(game.to_dict(), ensure_ascii=False), encoding="utf-8")
    loaded = JapanMatch.from_dict(json.loads(path.read_text(encoding="utf-8")))
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.log == game.log and loaded.full_events() == game.full_events()
    assert loaded.setup == game.setup
    # and the loaded game plays on like the original
    a, b = random.Random(3), random.Random(3)
    play_random(game, a, check=False)
    play_random(loaded, b, check=False)
    assert loaded.state.snapshot() == game.state.snapshot()


def test_round_trip_scripted_dice_game():
    """A game driven entirely by scripted dice round-trips (its faces are logged chance
    outcomes; the script itself is not saved)."""
    faces = [random.Random(1).randint(1, 6) for _ in range(3000)]
    game = JapanMatch(GameSetup.quick(["Niigata", "Kagoshima"], turns=5, seed=1), dice=ScriptedDice(faces))
    play_random(game, random.Random(5))
    loaded = roundtrip(game)
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.log == game.log
    assert JapanMatch.from_dict(game.to_dict()).script is None


def test_safety_cap_is_reported():
    """The safety cap fails loudly rather than passing silently."""
    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], mode="conquest", seed=1), dice=RandomDice(1))
    with pytest.raises(AssertionError, match="SAFETY CAP HIT"):
        play_random(game, random.Random(1), max_actions=10)


def test_generated_setups_are_valid():
    """Sanity of the generator: homes distinct and non-adjacent for 2-4 players."""
    rng = random.Random(0)
    for _ in range(200):
        order = list(BOARD.codes)
        rng.shuffle(order)
        for n in (2, 3, 4):
            homes = pick_homes(order, n)
            assert len(set(homes)) == n
            assert all(b not in BOARD.adjacency[a] for a in homes for b in homes)
            GameSetup.quick(homes)


# ------------------------------------------------------------- rules along random play
@props(400)
@given(setup=setups(turns=(5, 10)), choice_seed=SEEDS)
def test_random_routes_follow_movement_stopping_and_battle_rules(setup, choice_seed):
    """Every confirmed route of a random game is checked against a recomputation from the
    rules text: movement used (costs, region surcharge), tolls payable, ending early only at
    an own base/castle/home base, never on an enemy home base, enemy territory passed through
    neutralised, and the stopping table (neutral -> territory, own territory -> base,
    own base -> castle, enemy territory -> captured as a base, enemy base/castle -> battle with
    the recomputed defence bonus); every battle is won by the strictly greater total."""
    game = JapanMatch(setup, dice=RandomDice(setup.seed))
    rng = random.Random(choice_seed)
    for _ in range(20_000):
        if game.is_over:
            break
        apply_checked(game, choose_action(game, rng))
    assert_standard_end(game)


def test_minimal_repro_stopping_on_enemy_territory_captures_it_as_a_base():
    """Minimal reproduction of what the property above finds: the route's final prefecture
    is an enemy territory, so the stop must capture it as the mover's base (issue 3,
    "Stopping: Enemy territory -> captured as your base"), not neutralise-then-claim it."""
    game = _two_player(ScriptedDice([1], then_seed=1))
    game.edit_prefecture("Saitama", owner=1, level="territory")
    game.roll(1)
    game.step("Saitama")
    game.confirm_route()
    info = game.prefecture_info("Saitama")
    kinds = [e["type"] for e in game.full_events()]
    assert (info["owner"], info["level"]) == (0, "base"), f"got {info['owner']}, {info['level']}; events {kinds[-6:]}"
    assert "captured" in kinds and "neutralised" not in kinds


@props(300)
@given(setup=setups(turns=(5, 10)), choice_seed=SEEDS)
def test_route_planner_agrees_with_an_independent_search(setup, choice_seed):
    """At every decision of random games, the engine's legal next steps and whether the route
    may be confirmed equal those of an independent search written from the rules text; a roll
    with no complete route ends the turn exactly when the search finds none; a defeat happens
    exactly when no obtainable allowance has a route."""
    game = JapanMatch(setup, dice=RandomDice(setup.seed))
    rng = random.Random(choice_seed)
    for _ in range(20_000):
        if game.is_over:
            break
        st_ = game.state
        if game.phase == "roll":
            seat = st_.current
            p = st_.players[seat]
            top = 18 if p.triples else 12 if p.doubles else 6
            planner = Planner(game)
            assert any(planner.any_route(p.position, a, p.banked) for a in range(1, top + 1)), (
                f"seat {seat} at {p.position} has no route for any allowance 1-{top} but was not defeated"
            )
        elif game.phase == "route":
            planner = Planner(game)
            assert set(game.legal_steps()) == planner.next_steps(game), (
                f"route {st_.route} from {st_.players[st_.current].position}, allowance {st_.allowance}"
            )
            assert game.can_confirm() == planner.confirmable(game), f"confirm? route {st_.route}"
        action = choose_action(game, rng)
        n_events = len(game.events)
        if isinstance(action, Roll):
            seat = st_.current
            p = st_.players[seat]
            pos, banked = p.position, p.banked
            planner = Planner(game)
            game.push(action)
            new = game.full_events(n_events)
            allowance = next(e for e in new if e["type"] == "roll")["allowance"]
            stuck = any(e["type"] == "no_route" for e in new)
            assert stuck == (not planner.any_route(pos, allowance, banked)), (
                f"seat {seat} at {pos} rolled {allowance}: engine no_route={stuck}"
            )
        else:
            game.push(action)
        if game.state.end_reason == "defeat":
            seat = game.state.defeated
            p = game.state.players[seat]
            top = 18 if p.triples else 12 if p.doubles else 6
            planner = Planner(game, mover=seat)  # the defeat check ran on this very state
            assert not any(planner.any_route(p.position, a, p.banked) for a in range(1, top + 1))
    assert_standard_end(game)


@props(10)
@given(setup=setups(modes=("conquest", "total_conquest")), choice_seed=SEEDS)
def test_planner_and_route_rules_in_conquest_games(setup, choice_seed):
    """Conquest games reach crowded boards (enemy castles, tolls, opponents' regional control):
    there too the planner matches the independent search and every route, stop and battle
    follows the rules recomputation."""
    game = JapanMatch(setup, dice=RandomDice(setup.seed))
    rng = random.Random(choice_seed)
    for _ in range(CONQUEST_ACTION_CAP):
        if game.is_over:
            break
        if game.phase == "route":
            planner = Planner(game)
            assert set(game.legal_steps()) == planner.next_steps(game), f"route {game.route}"
            assert game.can_confirm() == planner.confirmable(game), f"confirm? route {game.route}"
        apply_checked(game, choose_action(game, rng))
    assert game.is_over, f"SAFETY CAP HIT: {setup.mode} game did not end within {CONQUEST_ACTION_CAP} actions"
    assert_conquest_end(game)
