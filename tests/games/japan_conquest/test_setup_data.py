"""Issue 31, items 7 and 9: Japan Conquest setups read from data are refused, not coerced.

A save in the match format (``JapanMatch.to_dict()``, what the app's autosave holds) used to
load ``players[0].cpu: "false"`` as a CPU seat, ``home: "13"`` or ``"Tokyo"`` as code 13,
keep ``turns: 10.0`` as a float and ignore unknown keys, while ``SaveStore.problems()`` said
nothing.  And an engine-format game with ``roll_for_order: true`` and no scripted dice
raised DiceExhaustedError instead of SerializationError.
"""

from __future__ import annotations

import copy
import json

import pytest

from conquest_widget.errors import CorruptSaveError, SerializationError, SetupError
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
from conquest_widget.games.japan_conquest.legacy import match_from_legacy
from conquest_widget.saves.store import SaveStore

from .legacy_docs import legacy_doc


def _set(path: str, value):
    def change(setup: dict) -> None:
        *keys, last = path.split(".")
        target = setup
        for k in keys:
            target = target[int(k)] if k.isdigit() else target[k]
        target[int(last) if last.isdigit() else last] = value
    return change


#: (what is wrong, how to make it so, words the error must contain)
BAD_SETUPS = [
    ("cpu is a string", _set("players.0.cpu", "false"), "cpu must be true or false"),
    ("cpu is a number", _set("players.1.cpu", 1), "cpu must be true or false"),
    ("home is a numeric string", _set("players.0.home", "13"), "home must be a prefecture code"),
    ("home is a name", _set("players.0.home", "Tokyo"), "home must be a prefecture code"),
    ("home is a float", _set("players.0.home", 13.0), "home must be a prefecture code"),
    ("home is a bool", _set("players.0.home", True), "home must be a prefecture code"),
    ("turns is a float", _set("turns", 10.0), "turns"),
    ("turns is a string", _set("turns", "10"), "turns"),
    ("roll_for_order is a string", _set("roll_for_order", "no"), "roll_for_order must be true or false"),
    ("roll_for_order is a number", _set("roll_for_order", 0), "roll_for_order must be true or false"),
    ("an unknown setup key", _set("extra", 1), "unknown keys ['extra']"),
    ("an unknown player key", _set("players.0.team", "red"), "player 1 has unknown keys ['team']"),
    ("a player lacks a home", lambda s: s["players"][0].pop("home"), "player 1 lacks home"),
    ("players is not a list", _set("players", {"0": {}}), "players must be a list"),
    ("a player is not an object", _set("players.1", "Ann"), "player 2 must be an object"),
    ("a conquest game with turns", lambda s: s.update(mode="conquest", turns=10), "no turn limit"),
]


def _setup() -> GameSetup:
    return GameSetup.quick(["Tokyo", "Osaka", "Hokkaido"], cpu=[False, True, False], seed=5)


@pytest.mark.parametrize("what,change,words", BAD_SETUPS, ids=[b[0] for b in BAD_SETUPS])
def test_a_bad_setup_is_refused_by_every_loader_naming_the_problem(what, change, words, tmp_path) -> None:
    data = _setup().to_dict()
    change(data)
    with pytest.raises(SetupError, match=words.replace("[", r"\[").replace("]", r"\]")):
        GameSetup.from_dict(data)
    doc = JapanMatch(_setup()).to_dict()                       # the match format
    doc["setup"] = copy.deepcopy(data)
    with pytest.raises(SerializationError, match="bad setup"):
        JapanMatch.from_dict(doc)
    game = JapanMatch(_setup()).to_dict()                            # the engine format
    game["setup"] = copy.deepcopy(data)
    with pytest.raises(SerializationError, match="setup"):
        JapanMatch.from_dict(game)


@pytest.mark.parametrize("what,change,words", BAD_SETUPS[:4], ids=[b[0] for b in BAD_SETUPS[:4]])
def test_an_autosave_with_a_coerced_setup_is_reported_and_not_loaded(what, change, words, tmp_path) -> None:
    store = SaveStore(tmp_path)
    path = store.autosave(JapanMatch(_setup()))
    doc = json.loads(path.read_text())
    change(doc["match"]["setup"])
    path.write_text(json.dumps(doc))
    assert words in store.problems().get(path.name, "")
    with pytest.raises(CorruptSaveError, match=words):
        store.load_autosave("japan_conquest")


def test_well_typed_setups_still_load_in_both_formats() -> None:
    for setup in (_setup(), GameSetup.quick(["Tokyo", "Osaka"], mode="conquest", turns=None, roll_for_order=True, seed=2)):
        assert GameSetup.from_dict(json.loads(json.dumps(setup.to_dict()))) == setup
        m = JapanMatch(setup)
        assert JapanMatch.from_dict(json.loads(json.dumps(m.to_dict()))).to_dict() == m.to_dict()
        g = JapanMatch(setup)
        assert JapanMatch.from_dict(json.loads(json.dumps(g.to_dict()))).state.snapshot() == g.state.snapshot()


def test_the_python_constructor_refuses_what_it_used_to_coerce() -> None:
    with pytest.raises(SetupError, match="cpu must be true or false"):
        GameSetup.quick(["Tokyo", "Osaka"], cpu=["false", False])
    with pytest.raises(SetupError, match="turns"):
        GameSetup.quick(["Tokyo", "Osaka"], turns=10.0)  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="roll_for_order"):
        GameSetup.quick(["Tokyo", "Osaka"], roll_for_order=1)  # type: ignore[arg-type]
    # names are still welcome in Python (not in data)
    assert GameSetup.quick(["Tokyo", "Osaka"]).players[0].home == 13


@pytest.mark.parametrize("values", [[], [6]])
def test_roll_for_order_with_too_few_scripted_dice_is_a_serialization_error(values) -> None:
    """Item 9: the start itself rolls for the order; a game whose script cannot cover it is
    a bad document (SerializationError), not a DiceExhaustedError."""
    data = legacy_doc(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], roll_for_order=True, seed=1)))
    data["dice"] = {"kind": "scripted", "values": values, "then_seed": None}
    data.pop("snapshot")
    with pytest.raises(SerializationError, match="more dice than were saved"):
        match_from_legacy(data)
