"""Engine misuse and hostile game data get the documented errors and change nothing
(issue: hardening, items 12-13), and the engine's public getters and return values."""

from __future__ import annotations

import copy

import pytest

from conquest_widget.errors import (
    DiceSourceError,
    IllegalActionError,
    NoSuchSeatError,
    SerializationError,
)
from conquest_widget.games.japan_conquest import (
    BattleRoll,
    GameSetup,
    JapanMatch,
    Roll,
    ScriptedDice,
)
from conquest_widget.games.japan_conquest.dice import dice_from_dict
from conquest_widget.games.japan_conquest.legacy import match_from_legacy

from .legacy_docs import legacy_doc


def _game(dice=None) -> JapanMatch:
    return JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=3), dice=dice)


@pytest.mark.parametrize("bad", [2.0, "2", True, None, 4, -1])
def test_a_roll_with_a_non_integer_or_unknown_dice_option_is_refused_and_changes_nothing(bad) -> None:
    g = _game(ScriptedDice([2, 3, 4]))
    before = (copy.deepcopy(g.state.snapshot()), g.action_count, len(g.events), g.script.rolled)
    # (a value that is not an int is refused by the match's type check of every field)
    with pytest.raises(IllegalActionError, match="dice option must be 1, 2 or 3|field 'dice' must be int"):
        g.push(Roll(bad))
    assert (g.state.snapshot(), g.action_count, len(g.events), g.script.rolled) == before
    with pytest.raises(IllegalActionError):
        g.push(BattleRoll(bad))


@pytest.mark.parametrize("seat", [9, 2, -1, "0", True])
def test_queries_about_a_seat_that_does_not_exist_name_it(seat) -> None:
    g = _game()
    for query in (g.score, g.items, g.turn_number, g.position):
        with pytest.raises(NoSuchSeatError, match="there is no seat"):
            query(seat)


@pytest.mark.parametrize("faces", [[0], [7], [2.5], [True], ["3"], [1000]])
def test_scripted_dice_accept_only_integer_faces_1_to_6(faces) -> None:
    with pytest.raises(ValueError, match="integers 1-6"):
        ScriptedDice(faces)


def test_a_dice_source_that_gives_no_faces_is_reported_not_followed() -> None:
    class Loaded:
        def roll(self, n):
            return (1000,) * n

        def to_dict(self):
            return {"kind": "loaded"}

    g = _game(Loaded())
    before = copy.deepcopy(g.state.snapshot())
    with pytest.raises(DiceSourceError, match="faces must be integers 1-6"):
        g.roll(1)
    assert g.state.snapshot() == before


@pytest.mark.parametrize("dice", [
    {"kind": "random", "seed": float("inf")},
    {"kind": "random", "seed": True},
    {"kind": "random", "seed": "12"},
    {"kind": "scripted", "values": [1, 2, 9]},
    {"kind": "scripted", "values": [1], "then_seed": float("nan")},
    {"kind": "scripted", "values": "123"},
])
def test_hostile_dice_data_is_a_serialization_error(dice) -> None:
    with pytest.raises(SerializationError):
        dice_from_dict(dice)
    data = legacy_doc(_game())  # a document of the older engine (format 1) names its dice
    data["dice"] = dice
    with pytest.raises(SerializationError):
        match_from_legacy(data)


def test_a_seed_of_infinity_or_endless_tied_order_rolls_are_serialization_errors() -> None:
    for data in (_game().to_dict(), legacy_doc(_game())):
        data["setup"]["seed"] = float("inf")
        with pytest.raises(SerializationError):
            JapanMatch.adopt(data) if "format" in data else JapanMatch.from_dict(data)
    # thousands of tied roll-for-order dice: a clear error, not a crash
    setup = GameSetup.quick(["Tokyo", "Osaka"], roll_for_order=True, seed=1)
    data = legacy_doc(JapanMatch(setup, dice=ScriptedDice([3, 4])))
    data["dice"] = {"kind": "scripted", "values": [3] * 20000}
    data.pop("snapshot")
    with pytest.raises(SerializationError):
        match_from_legacy(data)
    match = JapanMatch(setup, dice=ScriptedDice([3, 4])).to_dict()  # the same in a match document
    match["log"][0]["outcome"] = [3]
    match["log"][1]["outcome"] = [3]
    match["log"][2:2] = [{"seat": -1, "kind": "roll", "outcome": [3]}] * 20000
    with pytest.raises(SerializationError):
        JapanMatch.from_dict(match)


def test_log_values_must_be_integers_not_look_alikes() -> None:
    g = _game()
    g.roll(1)
    for bad in ("1", True, 1.9):
        data = g.to_dict()
        data["log"][0]["action"]["dice"] = bad
        with pytest.raises(SerializationError):
            JapanMatch.from_dict(data)
        data = legacy_doc(g)
        data["log"][0]["dice"] = bad
        with pytest.raises(SerializationError):
            match_from_legacy(data)


def test_roll_and_battle_roll_return_their_faces_and_getters_answer() -> None:
    g = _game(ScriptedDice([4, 1, 1, 1]))
    assert g.roll(1) == (4,)
    assert g.turn_order == [0, 1] and g.position(0) == 13 and g.end_reason is None
    assert g.setup.players[0].name == "Player 1"
    # a battle: player 1 at Kanagawa, player 2 owns it
    g2 = _game(ScriptedDice([1, 2, 1]))
    g2.edit_prefecture("Kanagawa", owner=1, level="base")
    g2.roll(1)
    g2.step("Kanagawa")
    g2.confirm_route()
    assert g2.phase == "battle_attack"
    assert g2.battle_roll(1) == (2,)
    assert g2.battle_roll(1) == (1,)
