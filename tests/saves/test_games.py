"""Saves keyed by game (issue 11): every document names its game and game version,
version-1 files load as Japan Conquest, results/records/preferences are per game, a
document of another game is refused, and any Match plugs in at one place
(conquest_widget.saves.games.codec_for; injected here with ``engines=``)."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_saves import expected_records, files, finished_game, mid_route_game
from tiny_match import TinyRace, race

from conquest_widget.errors import CorruptSaveError, SaveError, WrongGameError
from conquest_widget.games.japan_conquest import JapanMatch
from conquest_widget.saves import SaveStore
from conquest_widget.saves.games import codec_for, codec_of

V1 = Path(__file__).parent / "data" / "v1"
FIXED = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
ENGINES = {"tiny_race": TinyRace}


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    """A directory written by the previous release (schema version 1, no game ids)."""
    for p in V1.iterdir():
        if p.name != "backup.json":
            shutil.copy(p, tmp_path / p.name)
    return tmp_path


# ----------------------------------------------------------- version-1 files
def test_version_1_files_load_as_japan_conquest(v1):
    before = files(v1)
    s = SaveStore(v1)
    assert s.problems() == {}
    assert s.load_autosave(game="japan_conquest").phase == "route"
    slot = s.load_slot(2)
    assert isinstance(slot, JapanMatch) and slot.is_over
    assert [(i.slot, i.status, i.game) for i in s.slots()][1] == (2, "used", "japan_conquest")
    assert s.records() == {"hard:aggressive": {"wins": 0, "losses": 1, "draws": 0}}
    assert s.all_records() == {"japan_conquest:hard:aggressive": {"wins": 0, "losses": 1, "draws": 0}}
    [result] = s.results()
    assert (result["game"], result["game_version"], result["mode"]) == ("japan_conquest", 1, "standard")
    assert s.preferences()["language"] == "ja" and s.last_setup().players[0].name == "あなた"
    assert files(v1) == before  # reading never rewrites


def test_a_version_1_backup_restores_and_recording_again_counts_once(tmp_path, v1):
    target = SaveStore(tmp_path / "restored", clock=lambda: FIXED)
    summary = target.restore_backup(V1 / "backup.json")
    assert summary.valid and summary.slots[1].game == "japan_conquest"
    game = target.load_slot(2)
    assert target.record_result(game) is False  # same game id as the version-1 result
    target.record_result(finished_game(3))  # rewriting upgrades the files to version 2
    for name in ("results.json", "records.json"):
        doc = json.loads((target.directory / name).read_text(encoding="utf-8"))
        assert doc["schema_version"] == 2
    expected = {"hard:aggressive": {"wins": 0, "losses": 1, "draws": 0}, **expected_records(finished_game(3))}
    assert target.records() == expected


# -------------------------------------------------------- game ids and versions
def test_documents_name_their_game_and_version(tmp_path):
    s = SaveStore(tmp_path, clock=lambda: FIXED)
    s.save_slot(1, mid_route_game())
    s.save_preferences({"last_setup": mid_route_game().setup})
    slot = json.loads((tmp_path / "slot-1.json").read_text(encoding="utf-8"))
    prefs = json.loads((tmp_path / "preferences.json").read_text(encoding="utf-8"))
    assert (slot["schema_version"], slot["game"], slot["game_version"]) == (2, "japan_conquest", 2)
    assert prefs["preferences"]["last_setups"]["japan_conquest"]["game_version"] == 2


def test_a_document_of_another_game_is_refused_clearly(tmp_path):
    s = SaveStore(tmp_path, engines=ENGINES)
    s.save_slot(1, mid_route_game())
    s.save_slot(2, race())
    s.autosave(race())
    with pytest.raises(WrongGameError, match=r"slot-1.json: this file holds a game of 'japan_conquest', not of 'tiny_race'"):
        s.load_slot(1, game="tiny_race")
    with pytest.raises(WrongGameError, match="holds a game of 'tiny_race', not of 'japan_conquest'"):
        s.load_slot(2, game="japan_conquest")
    # each game has its own autosave: the race's does not replace Japan's ...
    assert s.load_autosave(game="japan_conquest") is None
    assert s.load_autosave(game="tiny_race").to_act() is not None
    # ... and a race copied over Japan's autosave file is refused, not played as Japan
    (tmp_path / "autosave.json").write_bytes((tmp_path / "autosave-tiny_race.json").read_bytes())
    with pytest.raises(WrongGameError):
        s.load_autosave(game="japan_conquest")
    assert [i.game for i in s.slots()] == ["japan_conquest", "tiny_race", None, None, None]


def test_a_game_this_package_cannot_load_is_reported_not_guessed(tmp_path):
    s = SaveStore(tmp_path, engines=ENGINES)
    s.save_slot(2, race())
    other = SaveStore(tmp_path)  # without the tiny engine: not in the registry
    assert other.slot_info(2).status == "corrupt"
    assert "unknown game 'tiny_race'" in other.slot_info(2).error
    doc = json.loads((tmp_path / "slot-2.json").read_text(encoding="utf-8"))
    doc["game"] = "codex"  # registered, but (here) without an engine, or not this data
    (tmp_path / "slot-2.json").write_text(json.dumps(doc), encoding="utf-8")
    assert other.slot_info(2).status == "corrupt"


def test_a_newer_game_version_is_refused(tmp_path):
    s = SaveStore(tmp_path)
    s.save_slot(1, mid_route_game())
    doc = json.loads((tmp_path / "slot-1.json").read_text(encoding="utf-8"))
    doc["game_version"] = 3
    (tmp_path / "slot-1.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CorruptSaveError, match=r"newer version of japan_conquest \(game version 3; this package reads 1-2\)"):
        s.load_slot(1)


# ------------------------------------------------------------- any Match game
def test_any_match_is_saved_loaded_and_listed_through_its_own_to_dict(tmp_path):
    s = SaveStore(tmp_path, clock=lambda: FIXED, engines=ENGINES)
    m = race(3)
    info = s.save_slot(3, m)
    assert (info.game, info.player_names, info.is_over) == ("tiny_race", ["R1", "R2", "R3 (CPU)"], False)
    doc = json.loads((tmp_path / "slot-3.json").read_text(encoding="utf-8"))
    assert (doc["game"], doc["game_version"], doc["match"]) == ("tiny_race", 1, m.to_dict())
    loaded = SaveStore(tmp_path, engines=ENGINES).load_slot(3, game="tiny_race")
    assert isinstance(loaded, TinyRace) and loaded.view(None) == m.view(None) and loaded.log == m.log
    # a changed chance outcome does not replay: refused as corrupt, naming the file
    doc["match"]["log"][1]["outcome"] = [7]
    (tmp_path / "slot-3.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CorruptSaveError, match="slot-3.json: the game cannot be loaded: tiny_race"):
        s.load_slot(3)


def test_results_records_backup_of_any_match(tmp_path):
    s = SaveStore(tmp_path, clock=lambda: FIXED, engines=ENGINES)
    m = race(6, finished=True)
    assert m.is_over
    assert s.record_result(m) is True and s.record_result(m) is False
    s.record_result(finished_game(3))
    [entry] = s.results("tiny_race")
    assert len(entry["standings"]) == 6 and entry["game"] == "tiny_race"  # 2-6 players
    assert s.latest_result()["game"] == "japan_conquest"  # the Japan app's Previous Results
    assert s.latest_result(None)["game"] == "japan_conquest" and len(s.results()) == 2
    assert set(s.records("tiny_race")) == {"easy"}
    assert any(k.startswith("tiny_race:") for k in s.all_records())
    s.save_preferences({"last_setups": {"tiny_race": m.setup}, "language": "en"})
    assert s.last_setup("tiny_race") == m.setup and s.last_setup() is None
    s.save_slot(1, m)
    target = SaveStore(tmp_path / "t", engines=ENGINES)
    target.restore_backup(s.export_backup())
    assert target.load_slot(1).view(None) == m.view(None)
    assert not SaveStore(tmp_path / "u").inspect_backup(s.export_backup()).valid  # needs the engine


def test_result_player_ranges_come_from_each_games_spec(tmp_path):
    s = SaveStore(tmp_path, engines=ENGINES)
    s.record_result(race(2, finished=True))
    doc = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    entry = doc["results"][0]
    row = entry["standings"][0]
    entry["standings"] = [dict(row, seat=i, name=f"P{i}", rank=i + 1) for i in range(6)]
    entry["winners"] = ["P0"]
    entry["game"] = "codex"  # the Codex (registered) is played by 2-6
    (tmp_path / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    assert len(SaveStore(tmp_path).results("codex")[0]["standings"]) == 6
    entry["game"] = "japan_conquest"  # Japan Conquest by 2-4
    (tmp_path / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CorruptSaveError, match="6 players; japan_conquest is played by 2-4"):
        SaveStore(tmp_path).results()


def test_the_one_dispatch_place(tmp_path):
    assert codec_of(mid_route_game()).game == "japan_conquest"
    assert codec_of(race()).game == "tiny_race"
    assert codec_for("tiny_race", ENGINES).engine is TinyRace
    with pytest.raises(SaveError, match="cannot save a dict"):
        codec_of({})
    with pytest.raises(SaveError):
        SaveStore(tmp_path).save_slot(1, object())


def _walk(w):
    yield w
    for c in getattr(w, "children", ()):
        yield from _walk(c)


def _classes(app) -> set[str]:
    """The CSS classes of the buttons on the app's screen."""
    return {c for w in _walk(app) if hasattr(w, "click") for c in getattr(w, "_dom_classes", ())}


def _slot_text(app, n: int) -> str:
    """What the start screen says of slot ``n`` (its row's text)."""
    texts = [w.value for w in _walk(app) if type(w).__name__ == "HTML" and w.value.startswith(f"Slot {n}:")]
    assert len(texts) == 1, texts
    return texts[0]


def test_the_japan_app_lists_another_games_slot_and_does_not_resume_it(tmp_path):
    from conquest_widget.games.japan_conquest.widget import JapanConquestApp

    s = SaveStore(tmp_path, engines=ENGINES)
    s.save_slot(2, race(3))
    s.autosave(race(2))
    app = JapanConquestApp(save_dir=tmp_path)
    assert "unknown game &#x27;tiny_race&#x27;" in _slot_text(app, 2)  # this app cannot read it (escaped text)
    assert "cw-load-2" not in _classes(app) and "cw-replay-2" not in _classes(app)  # this app cannot load it
    app.store.engines.update(ENGINES)  # an app that knows the game, but plays Japan Conquest
    app.show_start()
    assert _slot_text(app, 2).startswith("Slot 2: tiny_race: R1, R2, R3 (CPU) (")  # another game's slot, named
    buttons = _classes(app)
    assert "cw-load-2" not in buttons and "cw-replay-2" not in buttons  # listed, not offered
    assert "cw-resume" not in buttons  # the other game's autosave is not this game's to resume
    app.load_slot(2)  # asked anyway (a stale page): refused and said
    assert "holds a game of &#x27;tiny_race&#x27;, not of &#x27;japan_conquest&#x27;" in app.message.value
    assert app.controller is None and app.screen == "start"
    app.resume()
    assert app.controller is None and app.screen == "start" and "nothing to resume" in app.message.value
    app.replay(2)
    assert app.screen == "start" and "not of" in app.message.value


def test_a_result_the_store_could_not_read_back_is_refused_before_anything_is_written(tmp_path):
    from conquest_widget.core.protocol import Outcome
    class Odd(TinyRace):
        def outcome(self):  # a reason the results schema does not accept
            out = super().outcome()
            return None if out is None else Outcome(out.ranks, "Highest Card!")

    s = SaveStore(tmp_path, engines={"tiny_race": Odd})
    game = Odd.from_dict(race(finished=True).to_dict())
    assert game.outcome() is not None
    with pytest.raises(SaveError, match="cannot be recorded"):
        s.record_result(game)
    assert not (tmp_path / "results.json").exists() and not (tmp_path / "records.json").exists()
