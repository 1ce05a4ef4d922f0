"""Every kind of illegal action raises a specific error with a clear message and leaves the
game exactly as it was: same snapshot, same action log and event log lengths, same dice
position, same planned route and legal actions."""

from __future__ import annotations

import copy
import json
import random

import pytest

from conquest_widget.errors import (
    GameOverError,
    IllegalActionError,
    SerializationError,
    SetupError,
)
from conquest_widget.games.japan_conquest import (
    BattleRoll,
    ConfirmRoute,
    DiceExhaustedError,
    Edit,
    GameSetup,
    JapanMatch,
    PlayerSetup,
    RandomDice,
    Roll,
    ScriptedDice,
    Step,
    UndoStep,
)
from conquest_widget.games.japan_conquest.legacy import match_from_legacy

from .legacy_docs import legacy_doc
from .random_play import fingerprint, play_random


def assert_rejected(game: JapanMatch, attempt, *words: str, exc: type[Exception] = IllegalActionError) -> str:
    """``attempt`` (an Action, or a callable taking the game) raises ``exc`` whose message
    contains every word of ``words`` (case-insensitive), and changes nothing."""
    before = fingerprint(game)
    with pytest.raises(exc) as info:
        if callable(attempt) and not isinstance(attempt, (Roll, Step, UndoStep, ConfirmRoute, BattleRoll, Edit)):
            attempt(game)
        else:
            game.push(attempt)
    message = str(info.value)
    for w in words:
        assert w.lower() in message.lower(), f"{w!r} not in message {message!r}"
    assert fingerprint(game) == before, f"state changed by a rejected action ({message})"
    return message


def tokyo_osaka(dice=None, **kw) -> JapanMatch:
    """Seat 0 at Tokyo (13), seat 1 at Osaka (27); seat 0 to roll."""
    return JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=3, **kw), dice=dice if dice is not None else ScriptedDice([], then_seed=3))


def rolled(faces: list[int], dice: int = 1, **edits) -> JapanMatch:
    game = tokyo_osaka(ScriptedDice(faces, then_seed=7))
    for seat, args in edits.get("players", {}).items():
        game.edit_player(seat, **args)
    for pref, args in edits.get("prefs", {}).items():
        game.edit_prefecture(pref, **args)
    game.roll(dice)
    assert game.phase == "route"
    return game


# ----------------------------------------------------------------------- rolling
def test_roll_outside_the_roll_phase():
    game = rolled([3])
    assert_rejected(game, Roll(1), "cannot roll", "route phase")


def test_roll_during_a_battle():
    game = rolled([1], prefs={"Saitama": {"owner": 1, "level": "base"}})
    game.step("Saitama")
    game.confirm_route()
    assert game.phase == "battle_attack"
    assert_rejected(game, Roll(1), "cannot roll", "battle_attack")


@pytest.mark.parametrize("dice,item", [(2, "Double Dice"), (3, "Triple Dice")])
def test_roll_with_an_item_not_held(dice, item):
    game = tokyo_osaka()
    game.edit_player(0, doubles=0, triples=0)
    assert_rejected(game, Roll(dice), "no", item, "Player 1")


def test_roll_with_an_item_already_spent():
    game = tokyo_osaka(ScriptedDice([1, 1, 1, 1, 1, 1, 1, 1], then_seed=1))
    game.roll(2)  # spends the only Double Dice
    while not game.can_confirm():
        game.step(game.legal_steps()[0])
    game.confirm_route()
    game.edit_turn(0)
    assert game.items(0)["double"] == 0
    assert_rejected(game, Roll(2), "no double dice")


@pytest.mark.parametrize("dice", [0, 4, -1, 18])
def test_roll_with_a_bad_dice_option(dice):
    game = tokyo_osaka()
    assert_rejected(game, Roll(dice), "dice option", "1, 2 or 3", str(dice))


# ----------------------------------------------------------------------- stepping
def test_step_before_rolling():
    game = tokyo_osaka()
    assert_rejected(game, Step(11), "cannot step", "roll first")


def test_step_to_a_prefecture_not_adjacent():
    game = rolled([3])
    assert_rejected(game, Step(27), "Osaka", "not connected", "Tokyo")
    game.step("Saitama")
    assert_rejected(game, Step(14), "Kanagawa", "not connected", "Saitama")


@pytest.mark.parametrize("code", [0, 48, -3])
def test_step_to_an_unknown_prefecture_code(code):
    game = rolled([3])
    assert_rejected(game, Step(code), "unknown prefecture", str(code))


def test_step_to_an_unknown_prefecture_name():
    game = rolled([3])
    assert_rejected(game, lambda g: g.step("Atlantis"), "unknown prefecture", "Atlantis")


def test_step_too_costly():
    # entering an enemy castle costs 2; only 1 to spend (toll affordable, so cost is the reason)
    game = rolled([1], players={0: {"banked": 100}}, prefs={"Saitama": {"owner": 1, "level": "castle"}})
    assert_rejected(game, Step(11), "Saitama", "costs 2", "only 1")


def test_step_too_costly_with_the_region_surcharge():
    # seat 1 controls all of Shikoku; entering it from Okayama costs 1 + 1
    game = tokyo_osaka(ScriptedDice([1], then_seed=1))
    for code in (36, 37, 38, 39):
        game.edit_prefecture(code, owner=1, level="base")
    game.edit_player(0, position="Okayama")
    assert game.region_status()["shikoku"]["controller"] == 1
    game.roll(1)
    assert_rejected(game, Step(37), "Kagawa", "costs 2", "only 1")


def test_step_into_a_dead_end():
    # seat 1's home base is Aomori; seat 0 stands on it with 2 to move.  Hokkaido is
    # reachable (cost 1) but its only way on is back into Aomori (cost 2): a dead end.
    game = JapanMatch(GameSetup.quick(["Tokyo", "Aomori"], seed=1), dice=ScriptedDice([2], then_seed=1))
    game.edit_player(0, position="Aomori")
    game.roll(1)
    assert 1 not in game.legal_steps() and game.legal_steps()
    assert_rejected(game, Step(1), "Hokkaido", "dead end")


def test_step_with_an_unpayable_toll():
    game = rolled([2], players={0: {"banked": 19}}, prefs={"Saitama": {"owner": 1, "level": "castle"}})
    assert_rejected(game, Step(11), "20-point toll", "Saitama", "19 banked")


def test_step_with_an_unpayable_home_base_toll():
    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1), dice=ScriptedDice([4], then_seed=1))
    game.edit_player(0, position="Kyoto", banked=49)
    game.roll(1)
    assert_rejected(game, Step(27), "50-point toll", "Osaka", "49 banked")


def test_step_with_a_toll_unpayable_after_earlier_tolls():
    # 30 banked pays one castle toll (20) but not a second one along the same route
    game = rolled([4], players={0: {"banked": 30}},
                  prefs={"Saitama": {"owner": 1, "level": "castle"}, "Gunma": {"owner": 1, "level": "castle"}})
    game.step("Saitama")
    assert_rejected(game, Step(10), "20-point toll", "Gunma", "10 banked")


# ----------------------------------------------------------------------- undo / confirm
def test_undo_on_an_empty_route():
    game = rolled([3])
    assert_rejected(game, UndoStep(), "route is empty", "nothing to undo")


def test_undo_outside_the_route_phase():
    game = tokyo_osaka()
    assert_rejected(game, UndoStep(), "nothing to undo", "roll phase")


def test_confirm_with_movement_left_at_a_non_stopping_prefecture():
    game = rolled([3])
    game.step("Saitama")  # neutral: not a place to end early
    assert_rejected(game, ConfirmRoute(), "2 movement left", "use it all", "own base, castle or home base")


def test_confirm_with_movement_left_at_own_territory():
    game = rolled([3], prefs={"Saitama": {"owner": 0, "level": "territory"}})
    game.step("Saitama")
    assert_rejected(game, ConfirmRoute(), "movement left")


def test_confirm_ending_on_an_enemy_home_base():
    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1), dice=ScriptedDice([3], then_seed=1))
    game.edit_player(0, position="Kyoto", banked=100)
    game.roll(1)
    game.step("Osaka")  # costs 2 (enemy home base), 1 left
    assert game.remaining == 1
    assert_rejected(game, ConfirmRoute(), "may not end on an enemy home base")


def test_confirm_an_empty_route():
    game = rolled([3])
    assert_rejected(game, ConfirmRoute(), "route is empty", "step")


def test_confirm_outside_the_route_phase():
    game = tokyo_osaka()
    assert_rejected(game, ConfirmRoute(), "no route to confirm", "roll phase")


def test_plan_route_is_all_or_nothing():
    """A failing step inside plan_route undoes the steps already planned."""
    game = rolled([3])
    before = game.route
    with pytest.raises(IllegalActionError, match="not connected"):
        game.plan_route(["Saitama", "Osaka"])
    assert game.route == before and game.phase == "route"


# ----------------------------------------------------------------------- battles
def battle_game(attacker_items=None, defender_items=None) -> JapanMatch:
    game = tokyo_osaka(ScriptedDice([1, 4, 4], then_seed=2))
    game.edit_prefecture("Saitama", owner=1, level="base")
    if attacker_items:
        game.edit_player(0, **attacker_items)
    if defender_items:
        game.edit_player(1, **defender_items)
    game.roll(1)
    game.step("Saitama")
    game.confirm_route()
    assert game.phase == "battle_attack"
    return game


@pytest.mark.parametrize("phase", ["roll", "route"])
def test_battle_roll_outside_a_battle(phase):
    game = tokyo_osaka(ScriptedDice([3], then_seed=1))
    if phase == "route":
        game.roll(1)
    assert_rejected(game, BattleRoll(1), "no battle in progress", phase)


@pytest.mark.parametrize("dice,item", [(2, "Double Dice"), (3, "Triple Dice")])
def test_attacker_battle_roll_with_an_item_not_held(dice, item):
    game = battle_game(attacker_items={"doubles": 0, "triples": 0})
    assert_rejected(game, BattleRoll(dice), "Player 1", "no", item, "fight")


@pytest.mark.parametrize("dice,item", [(2, "Double Dice"), (3, "Triple Dice")])
def test_defender_battle_roll_with_an_item_not_held(dice, item):
    game = battle_game(defender_items={"doubles": 0, "triples": 0})
    game.battle_roll(1)
    assert game.phase == "battle_defend" and game.actor == 1
    assert_rejected(game, BattleRoll(dice), "Player 2", "no", item, "fight")


@pytest.mark.parametrize("dice", [0, 4])
def test_battle_roll_with_a_bad_dice_option(dice):
    game = battle_game()
    assert_rejected(game, BattleRoll(dice), "dice option", str(dice))


def test_step_and_confirm_during_a_battle():
    game = battle_game()
    assert_rejected(game, Step(13), "cannot step", "battle_attack")
    assert_rejected(game, ConfirmRoute(), "no route to confirm", "battle_attack")
    assert_rejected(game, UndoStep(), "nothing to undo", "battle_attack")


# ----------------------------------------------------------------------- game over
@pytest.fixture(scope="module")
def finished_game() -> JapanMatch:
    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], turns=5, seed=2), dice=RandomDice(2))
    play_random(game, random.Random(2), check=False)
    assert game.is_over
    return game


@pytest.mark.parametrize(
    "action",
    [Roll(1), Roll(2), Step(13), UndoStep(), ConfirmRoute(), BattleRoll(1), Edit("player", {"seat": 0, "banked": 5})],
    ids=str,
)
def test_any_action_after_game_over(finished_game, action):
    game = copy.deepcopy(finished_game)
    assert_rejected(game, action, "game is over", exc=GameOverError)


@pytest.mark.parametrize(
    "attempt",
    [
        lambda g: g.roll(1),
        lambda g: g.step("Saitama"),
        lambda g: g.undo_step(),
        lambda g: g.confirm_route(),
        lambda g: g.battle_roll(1),
        lambda g: g.edit_prefecture("Saitama", owner=0),
        lambda g: g.edit_player(0, banked=5),
        lambda g: g.edit_turn(0),
    ],
    ids=["roll", "step", "undo", "confirm", "battle", "edit_prefecture", "edit_player", "edit_turn"],
)
def test_convenience_methods_after_game_over(finished_game, attempt):
    game = copy.deepcopy(finished_game)
    assert_rejected(game, attempt, "game is over", exc=GameOverError)


def test_game_over_error_is_an_illegal_action_error():
    assert issubclass(GameOverError, IllegalActionError)


# ----------------------------------------------------------------------- position editor
@pytest.mark.parametrize(
    "attempt,words",
    [
        (lambda g: g.edit_prefecture("Atlantis", owner=0), ["unknown prefecture", "Atlantis"]),
        (lambda g: g.push(Edit("prefecture", {"pref": 99, "owner": 0})), ["unknown prefecture", "99"]),
        (lambda g: g.push(Edit("prefecture", {"owner": 0})), ["unknown prefecture", "None"]),
        (lambda g: g.edit_prefecture("Saitama", owner=2), ["owner must be a seat 0-1", "2"]),
        (lambda g: g.edit_prefecture("Saitama", owner=-1), ["owner must be a seat", "-1"]),
        (lambda g: g.edit_prefecture("Saitama", owner=True), ["owner must be a seat", "True"]),
        (lambda g: g.edit_prefecture("Saitama", owner=0, level="palace"), ["level must be territory, base or castle", "palace"]),
        (lambda g: g.edit_prefecture("Saitama", owner=0, level="home"), ["level must be territory, base or castle", "home"]),
        (lambda g: g.edit_prefecture("Saitama", owner=None, level="castle"), ["unowned prefecture is neutral", "castle"]),
        (lambda g: g.edit_prefecture("Saitama", owner=0, level="base", stored=15), ["only castles and home bases store"]),
        (lambda g: g.edit_prefecture("Saitama", owner=0, level="castle", stored=-5), ["stored prosperity", ">= 0", "-5"]),
        (lambda g: g.edit_prefecture("Tokyo", owner=1), ["Tokyo", "home base", "cannot be edited"]),
        (lambda g: g.edit_prefecture("Osaka", owner=None), ["Osaka", "home base", "cannot be edited"]),
        (lambda g: g.edit_player(0, banked=-1), ["banked", ">= 0", "-1"]),
        (lambda g: g.edit_player(0, doubles=-2), ["doubles", ">= 0", "-2"]),
        (lambda g: g.edit_player(1, triples=1.5), ["triples", "whole number", "1.5"]),
        (lambda g: g.edit_player(2, banked=5), ["seat must be 0-1", "2"]),
        (lambda g: g.edit_player(0, position="Atlantis"), ["unknown prefecture", "Atlantis"]),
        (lambda g: g.push(Edit("player", {"seat": 0, "position": 48})), ["unknown prefecture", "48"]),
        (lambda g: g.edit_turn(5), ["seat must be 0-1", "5"]),
        (lambda g: g.edit_turn(0, 0), ["turn number", "1-10", "0"]),
        (lambda g: g.edit_turn(0, 11), ["turn number", "1-10", "11"]),
        (lambda g: g.push(Edit("teleport", {})), ["unknown editor operation", "teleport"]),
    ],
    ids=lambda v: v[0] if isinstance(v, list) else None,
)
def test_editor_misuse(attempt, words):
    game = tokyo_osaka()
    assert_rejected(game, attempt, *words)


@pytest.mark.parametrize(
    "attempt",
    [lambda g: g.edit_prefecture("Gunma", owner=0), lambda g: g.edit_player(0, banked=10), lambda g: g.edit_turn(1)],
    ids=["prefecture", "player", "turn"],
)
def test_editor_during_the_route_phase(attempt):
    game = rolled([3])
    game.step("Saitama")
    assert_rejected(game, attempt, "position editor", "roll phase", "route")


def test_editor_during_a_battle():
    game = battle_game()
    assert_rejected(game, lambda g: g.edit_player(0, banked=10), "position editor", "battle_attack")


# ----------------------------------------------------------------------- not actions
@pytest.mark.parametrize("thing", ["roll 1", None, 3, {"type": "roll", "dice": 1}, Roll], ids=repr)
def test_non_action_objects(thing):
    game = tokyo_osaka()
    assert_rejected(game, lambda g: g.push(thing), "not an action")


def test_exhausted_scripted_dice_change_nothing():
    game = tokyo_osaka(ScriptedDice([2]))
    game.edit_player(0, doubles=1)
    before = fingerprint(game)
    with pytest.raises(DiceExhaustedError, match="ran out"):
        game.roll(2)
    assert fingerprint(game) == before


# ----------------------------------------------------------------------- setup errors
@pytest.mark.parametrize(
    "make,words",
    [
        (lambda: GameSetup.quick(["Tokyo"]), ["2-4 players", "got 1"]),
        (lambda: GameSetup.quick([]), ["2-4 players", "got 0"]),
        (lambda: GameSetup.quick(["Hokkaido", "Tokyo", "Osaka", "Fukuoka", "Niigata"]), ["2-4 players", "got 5"]),
        (lambda: GameSetup.quick(["Tokyo", "Tokyo"]), ["share the home prefecture Tokyo", "distinct"]),
        (lambda: GameSetup.quick(["Tokyo", "東京都"]), ["share the home prefecture Tokyo"]),
        (lambda: GameSetup.quick(["Tokyo", "Kanagawa"]), ["Tokyo and Kanagawa are adjacent"]),
        (lambda: GameSetup.quick(["Hokkaido", "Osaka", "Aomori"]), ["Hokkaido and Aomori are adjacent"]),
        (lambda: GameSetup.quick(["Fukuoka", "Okinawa"]), ["Fukuoka and Okinawa are adjacent"]),
        (lambda: GameSetup.quick(["Tokyo", "Osaka"], mode="blitz"), ["mode must be one of", "blitz"]),
        (lambda: GameSetup.quick(["Tokyo", "Osaka"], turns=7), ["standard game lasts one of", "got 7"]),
        (lambda: GameSetup.quick(["Tokyo", "Osaka"], turns=None), ["standard game lasts one of", "None"]),
        (lambda: GameSetup.quick(["Tokyo", "Atlantis"]), ["player 2", "unknown prefecture", "Atlantis"]),
        (lambda: GameSetup.quick(["Tokyo", 48]), ["player 2", "unknown prefecture"]),
        (lambda: GameSetup.quick(["Tokyo", "Osaka"], seed="abc"), ["seed must be an integer", "abc"]),
        (lambda: GameSetup.quick(["Tokyo", "Osaka"], cpu=[True]), ["2 homes but 1 cpu flags"]),
        (lambda: GameSetup((PlayerSetup("A", 13), PlayerSetup("A", 27))), ["names must differ"]),
        (lambda: GameSetup((PlayerSetup(" ", 13), PlayerSetup("B", 27))), ["player 1: name must not be empty"]),
        (lambda: GameSetup((PlayerSetup("A", 13, difficulty="godlike"), PlayerSetup("B", 27))), ["difficulty", "godlike"]),
        (lambda: GameSetup((PlayerSetup("A", 13), PlayerSetup("B", 27, strategy="random"))), ["strategy", "random"]),
        (lambda: GameSetup(("Tokyo", "Osaka")), ["player 1 must be a PlayerSetup", "str"]),
    ],
    ids=lambda v: "|".join(v) if isinstance(v, list) else None,
)
def test_setup_errors(make, words):
    with pytest.raises(SetupError) as info:
        make()
    for w in words:
        assert w.lower() in str(info.value).lower(), f"{w!r} not in {str(info.value)!r}"


def test_conquest_modes_ignore_the_turn_count():
    assert GameSetup.quick(["Tokyo", "Osaka"], mode="conquest", turns=7).turns is None


# ----------------------------------------------------------------------- serialization
# (documents of the older engine, Japan document format 1, read by the legacy reader)
@pytest.fixture(scope="module")
def saved() -> dict:
    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka", "Fukuoka"], turns=5, seed=6), dice=RandomDice(6))
    play_random(game, random.Random(6), until=lambda g: g.action_count >= 40, check=False)
    return json.loads(json.dumps(legacy_doc(game, {"kind": "random", "seed": 6})))


def load(data):
    return match_from_legacy(data)


def test_saved_game_loads(saved):
    assert load(copy.deepcopy(saved)).state.snapshot() == saved["snapshot"]


@pytest.mark.parametrize(
    "tamper,words",
    [
        (lambda d: d.update(format="chess.game"), ["not a Japan Conquest game", "format"]),
        (lambda d: d.pop("format"), ["not a Japan Conquest game"]),
        (lambda d: d.update(version=2), ["unsupported game format version 2"]),
        (lambda d: d.update(version=99), ["unsupported", "99"]),
        (lambda d: d.pop("version"), ["unsupported", "None"]),
        (lambda d: d.pop("log"), ["malformed", "log"]),
        (lambda d: d.pop("dice"), ["malformed", "dice"]),
        (lambda d: d.update(dice={"kind": "loaded"}), ["unknown dice source", "loaded"]),
        (lambda d: d.update(log=[{"type": "fly"}]), ["not an action", "fly"]),
        (lambda d: d["log"].insert(0, {"type": "confirm"}), ["action 0", "illegal on replay", "no route to confirm"]),
        (lambda d: d["snapshot"]["players"][0].update(banked=10_000), ["snapshot does not match"]),
        (lambda d: d["snapshot"].update(phase="over"), ["snapshot does not match"]),
    ],
    ids=lambda v: v[0] if isinstance(v, list) else None,
)
def test_from_dict_rejects_bad_data(saved, tamper, words):
    data = copy.deepcopy(saved)
    tamper(data)
    with pytest.raises(SerializationError) as info:
        load(data)
    for w in words:
        assert w.lower() in str(info.value).lower(), f"{w!r} not in {str(info.value)!r}"


def test_from_dict_rejects_a_tampered_owner(saved):
    """Change one prefecture's owner in the snapshot: the replay disagrees."""
    data = copy.deepcopy(saved)
    pref = next(p for p in data["snapshot"]["prefectures"] if p["owner"] is None)
    pref["owner"], pref["level"] = 1, 1
    with pytest.raises(SerializationError, match="snapshot does not match"):
        load(data)
    # and with verification off, the replayed (true) state wins
    game = match_from_legacy(data, verify=False)
    assert game.state.snapshot() == saved["snapshot"]


@pytest.mark.parametrize("data", [None, [], "game", 42], ids=repr)
def test_from_dict_rejects_non_dicts(data):
    with pytest.raises(SerializationError, match="not a Japan Conquest game"):
        load(data)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d["setup"].update(players="x"),
        lambda d: d.update(setup=None),
        lambda d: d["setup"]["players"][1].update(home=11),  # adjacent to Tokyo
        lambda d: d["dice"].update(seed="abc"),
        lambda d: d.update(dice={"kind": "scripted", "values": [9]}),
        lambda d: d.update(dice={"kind": "scripted", "values": [1, 2]}),  # too few faces for the log
    ],
    ids=["players-not-a-list", "setup-null", "setup-adjacent-homes", "dice-seed-not-int", "scripted-face-9",
         "scripted-too-short"],
)
def test_from_dict_reports_corrupt_setup_or_dice_as_serialization_error(saved, tamper):
    """A save that cannot be loaded raises SerializationError (errors.py: "A serialized game
    that cannot be loaded"), whatever section is corrupt -- so callers can catch one error."""
    data = copy.deepcopy(saved)
    tamper(data)
    with pytest.raises(Exception) as info:
        load(data)
    assert isinstance(info.value, SerializationError), (
        f"from_dict raised {type(info.value).__name__}: {info.value}, expected SerializationError"
    )


def test_to_dict_with_a_dice_source_that_cannot_be_serialised():
    """(The older engine refused to save a game with such dice; a match logs every face as
    a chance outcome, so its document replays without the dice source.)"""
    class Loaded:
        def roll(self, n):
            return (6,) * n

    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1), dice=Loaded())
    game.roll(1)
    data = json.loads(json.dumps(game.to_dict()))
    assert data["log"][-1] == {"seat": -1, "kind": "roll", "outcome": [6]}
    assert JapanMatch.from_dict(data).state.snapshot() == game.state.snapshot()
