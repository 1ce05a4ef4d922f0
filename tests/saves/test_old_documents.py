"""Every kind of document main wrote at commit b84e761 still reads, and reopens in the app
(issue 29: the engine of Japan Conquest is being moved onto the core; what players saved
before must keep loading, to the same position).

The files are in ``data/b84e761/`` (``write_fixtures.py`` there says how they were made):
Japan Conquest's two document forms (the engine document of format 1 that the older engine's
``Game`` wrote, read since issue 29 by the legacy reader as a ``JapanMatch``; the match
document its app writes), a slot and an autosave of each of the other three games,
results, records, preferences and a backup.  ``expected.json`` holds what each game
document read as with that code; :func:`reading` is the one definition of "read as".
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conquest_widget import JapanConquestApp
from conquest_widget.saves import SaveStore
from conquest_widget.ui.app import ConquestApp

HERE = Path(__file__).parent / "data" / "b84e761"
EXPECTED: dict[str, dict[str, Any]] = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
#: slot → game of the fixtures
SLOTS = {1: "japan_conquest", 2: "japan_conquest", 3: "conquest_cards", 4: "codex", 5: "japanese_risk"}
AUTOSAVES = {"autosave.json": "japan_conquest", "autosave-conquest_cards.json": "conquest_cards",
             "autosave-codex.json": "codex", "autosave-japanese_risk.json": "japanese_risk"}


def reading(match: Any, kind: str = "match") -> dict[str, Any]:
    """What a game document reads as: whose turn, what they may do, the outcome and what
    everyone sees (the public view); for Japan's engine document (``kind`` "engine_game"),
    its position (and the number of its actions: that document's log held only those)."""
    if kind == "engine_game":
        return {"kind": "engine_game", "phase": match.phase, "actor": match.actor, "snapshot": match.state.snapshot(),
                "legal": [str(a) for a in match.legal_moves()], "log": match.action_count}
    out = match.outcome()
    return {
        "kind": "match",
        "to_act": list(match.to_act()),
        "legal": {str(s): [str(a) for a in match.legal_actions(s)] for s in match.to_act()},
        "outcome": None if out is None else out.to_dict(),
        "public_view": match.view(None),
        "log": len(match.log),
    }


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def reads_as(match: Any, expected: dict[str, Any]) -> None:
    """``match`` reads as ``expected`` did: the same everything, except that a public view
    may have gained fields since (a game's view grows; what it showed then stays)."""
    got = _json(reading(match, expected["kind"]))
    view, then = got.pop("public_view", None), dict(expected)
    old_view = then.pop("public_view", None)
    assert got == then
    if old_view is not None:
        assert {k: view.get(k) for k in old_view} == old_view


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.json"))}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the save folder as main left it (the fixtures are never written to)."""
    out = tmp_path / "saves"
    out.mkdir()
    for p in HERE.glob("*.json"):
        if p.name not in ("expected.json", "backup.json"):
            shutil.copy(p, out / p.name)
    return out


def test_every_fixture_is_here_and_the_folder_has_no_problem(folder: Path) -> None:
    assert sorted(EXPECTED) == sorted([f"slot-{n}.json" for n in SLOTS] + list(AUTOSAVES))
    before = files(folder)
    store = SaveStore(folder)
    assert store.problems() == {}
    assert [(s.slot, s.status, s.game) for s in store.slots()] == [(n, "used", g) for n, g in SLOTS.items()]
    assert files(folder) == before  # reading never rewrites


@pytest.mark.parametrize("slot", sorted(SLOTS))
def test_each_slot_reads_as_it_did(folder: Path, slot: int) -> None:
    reads_as(SaveStore(folder).load_slot(slot, game=SLOTS[slot]), EXPECTED[f"slot-{slot}.json"])


@pytest.mark.parametrize("name", sorted(AUTOSAVES))
def test_each_autosave_reads_as_it_did(folder: Path, name: str) -> None:
    reads_as(SaveStore(folder).load_autosave(AUTOSAVES[name]), EXPECTED[name])


def test_the_two_japan_document_forms_are_both_here() -> None:
    engine = json.loads((HERE / "slot-1.json").read_text(encoding="utf-8"))["match"]
    match = json.loads((HERE / "slot-2.json").read_text(encoding="utf-8"))["match"]
    assert engine["format"] == "conquest_widget.japan_conquest.game" and engine["dice"]["kind"] == "random"
    assert (match["game"], match["version"]) == ("japan_conquest", 2)
    assert any(e["seat"] == -1 for e in match["log"])  # its dice are logged chance outcomes


def test_results_records_and_preferences_read_as_written(folder: Path) -> None:
    store = SaveStore(folder)
    on_file = json.loads((HERE / "results.json").read_text(encoding="utf-8"))["results"]
    assert store.results() == on_file
    assert sorted(r["game"] for r in on_file) == ["codex", "conquest_cards", "japan_conquest", "japanese_risk"]
    assert all(r["standings"] and r["winners"] for r in on_file)
    records = store.all_records()
    assert records and all(set(v) == {"wins", "losses", "draws"} for v in records.values())
    assert store.preferences()["language"] == "ja"
    assert [p.home for p in store.last_setup().players] == [13, 27]  # Tokyo, Osaka


def test_the_backup_restores_to_a_folder_that_reads_the_same(tmp_path: Path) -> None:
    target = SaveStore(tmp_path / "restored")
    summary = target.restore_backup(HERE / "backup.json")
    assert summary.valid
    assert target.problems() == {}
    for slot, game in SLOTS.items():
        reads_as(target.load_slot(slot, game=game), EXPECTED[f"slot-{slot}.json"])
    for name, game in AUTOSAVES.items():
        reads_as(target.load_autosave(game), EXPECTED[name])
    assert len(target.results()) == 4 and target.preferences()["language"] == "ja"


# ------------------------------------------------------------ in the app
def _log_of(document: Path) -> list[Any]:
    return json.loads(document.read_text(encoding="utf-8"))["match"]["log"]


@pytest.mark.parametrize("game", ["conquest_cards", "codex", "japanese_risk"])
def test_the_shell_resumes_each_autosave_and_loads_each_slot_where_it_was(folder: Path, game: str) -> None:
    slot = next(n for n, g in SLOTS.items() if g == game)
    name = next(n for n, g in AUTOSAVES.items() if g == game)
    for open_it, document in ((lambda app: app.resume(), folder / name),
                              (lambda app, n=slot: app.load_slot(n), folder / f"slot-{slot}.json")):
        log = _log_of(document)
        app = ConquestApp(save_dir=folder).play(game)
        open_it(app)
        assert app.screen in ("play", "results"), app.message.value
        played = app.controller.document()["log"]
        # the game goes on from exactly the saved position (the CPUs may have moved since)
        assert played[:len(log)] == log


def _walk(w: Any) -> Any:
    yield w
    for c in getattr(w, "children", ()):
        yield from _walk(c)


def _button(app: Any, css: str) -> Any:
    """The button of class ``css`` on the app's screen (as the player finds it)."""
    found = [w for w in _walk(app) if css in getattr(w, "_dom_classes", ()) and hasattr(w, "click")]
    assert found, f"no .{css} on screen"
    return found[0]


def _slot_row_text(app: Any, n: int) -> str:
    """The label of slot ``n``'s row on the start screen (the row holding its Load button)."""
    (row,) = [w for w in _walk(app) if any(f"cw-load-{n}" in getattr(c, "_dom_classes", ())
                                            for c in getattr(w, "children", ()))]
    return "".join(c.value for c in row.children if isinstance(getattr(c, "value", None), str))


def _check_position(match: Any, expected: dict[str, Any], document: Path) -> None:
    """``match`` stands where ``document`` was saved (as ``expected`` read it)."""
    if expected["kind"] == "engine_game":  # the engine document opens as a match at that position
        assert _json(match.state.snapshot()) == expected["snapshot"]
        assert [str(a) for a in match.legal_actions(match.to_act()[0])] == expected["legal"]
    else:
        n = expected["log"]
        assert match.to_dict()["log"][:n] == _log_of(document)  # from exactly the saved position
        if len(match.log) == n:  # (and no CPU moved since)
            view = _json(match.view(None))
            assert {k: view.get(k) for k in expected["public_view"]} == expected["public_view"]


def test_japan_conquests_app_continues_the_autosave_and_opens_both_slot_forms(folder: Path) -> None:
    for how in ("continue", 1, 2):
        app = JapanConquestApp(save_dir=folder)
        if how == "continue":
            _button(app, "cw-resume").click()
            expected, document = EXPECTED["autosave.json"], folder / "autosave.json"
        else:
            document = folder / f"slot-{how}.json"
            label = _slot_row_text(app, how)
            assert f"Slot {how}" in label or f"スロット{how}" in label
            _button(app, f"cw-load-{how}").click()
            expected = EXPECTED[f"slot-{how}.json"]
        assert app.screen == "play", app.message.value
        _check_position(app.controller._match, expected, document)
        app.close()


def test_japan_conquests_app_replays_the_autosave_and_both_slot_forms(folder: Path) -> None:
    """Replay (the autosave's and each slot's) opens the explorer on the saved game, its last
    position the saved one."""
    for how in ("autosave", 1, 2):
        app = JapanConquestApp(save_dir=folder)
        _button(app, f"cw-replay-{how}").click()
        if how == "autosave":
            expected, document = EXPECTED["autosave.json"], folder / "autosave.json"
        else:
            expected, document = EXPECTED[f"slot-{how}.json"], folder / f"slot-{how}.json"
        assert app.screen == "replay", app.message.value
        replay = app.explorer.replay
        assert app.explorer.index == replay.length  # the explorer opens on the saved position
        match = replay.branch(replay.length)
        _check_position(match, expected, document)
        if expected["kind"] == "match":
            assert len(match.log) == expected["log"]  # the replay ends where the game was saved
        else:
            assert match.action_count == expected["log"]
        _button(app, "cw-back").click()
        assert app.screen == "start"
        app.close()
