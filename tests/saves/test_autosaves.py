"""Every game's autosave is a first-class data file (after bb9425f gave each game its own
``autosave-<game>.json``): backed up (backup schema version 3, which still reads versions
1 and 2), validated on inspect and restore (an autosave must hold the game its name
says), restored with the rest or removed when absent, listed by ``problems()``, deleted
by ``delete_category("autosave")``, never written over by an export, set aside (kept)
when unreadable.  Real engines, real files under tmp_path."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from test_saves import files, mid_battle_game, mid_route_game
from tiny_match import TinyRace, race

from conquest_widget.core import registry
from conquest_widget.core.bots import play_bots
from conquest_widget.core.match import Match
from conquest_widget.errors import (
    ConfirmationRequiredError,
    CorruptSaveError,
    InvalidBackupError,
    SaveError,
    SaveFileError,
    SaveWarning,
    UnsupportedSaveVersionError,
    WrongGameError,
)
from conquest_widget.saves import SaveStore
from conquest_widget.saves.documents import game_document

FIXED = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
V2 = Path(__file__).parent / "data" / "v2"


def played(game: str, actions: int, *, players: int = 3, seed: int = 7) -> Match:
    """A match of a registered game from its ``random_setup``, a few bot moves in."""
    spec = registry.get(game)
    engine = spec.engine_class()
    match = engine(engine.random_setup(random.Random(seed), players), seed=seed)
    bots = spec.bots_module()
    bot = bots.BOTS[bots.DEFAULT_BOT]()
    play_bots(match, {s: bot for s in range(match.n_seats)}, seed=seed, max_actions=actions)
    assert not match.is_over and len(match.log) > actions // 2
    return match


def same_match(a: Match, b: Match) -> bool:
    """Two matches at the same point: same data, same public view, same views of every seat
    and the same legal actions for whoever is to act."""
    return (
        a.to_dict() == b.to_dict()
        and a.view(None) == b.view(None)
        and all(a.view(s) == b.view(s) for s in range(a.n_seats))
        and a.to_act() == b.to_act()
        and all(a.legal_actions(s) == b.legal_actions(s) for s in a.to_act())
    )


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def full(tmp_path: Path) -> tuple[SaveStore, dict[str, Any]]:
    """A directory with the autosaves of Japan Conquest, the Codex and Japanese Risk and a
    Conquest cards game in slot 1."""
    store = SaveStore(tmp_path / "saves", clock=lambda: FIXED)
    games = {
        "japan_conquest": mid_battle_game(True),
        "codex": played("codex", 15),
        "japanese_risk": played("japanese_risk", 10),
        "cards": played("conquest_cards", 12),
    }
    for key in ("japan_conquest", "codex", "japanese_risk"):
        store.autosave(games[key])
    store.save_slot(1, games["cards"])
    return store, games


# ------------------------------------------------------------------ backups
def test_a_backup_holds_every_games_autosave_and_each_game_resumes_at_the_same_point(tmp_path, full):
    store, games = full
    assert sorted(p.name for p in store.directory.glob("autosave*.json")) == [
        "autosave-codex.json", "autosave-japanese_risk.json", "autosave.json"]
    path = tmp_path / "backup.json"
    doc = store.export_backup(path)
    assert (doc["schema_version"], "autosave" in doc) == (3, False)
    assert list(doc["autosaves"]) == ["japan_conquest", "codex", "japanese_risk"]
    assert doc["autosaves"]["codex"] == read(store.directory / "autosave-codex.json")

    target = SaveStore(tmp_path / "empty")
    summary = target.restore_backup(path)
    assert summary.valid and list(summary.autosaves) == ["japan_conquest", "codex", "japanese_risk"]
    assert files(target.directory) == files(store.directory)  # byte for byte
    assert target.problems() == {}

    again = SaveStore(tmp_path / "empty")  # a new store: nothing cached
    japan = again.load_autosave()
    assert japan.to_dict() == games["japan_conquest"].to_dict() and japan.phase == "battle_defend"
    assert japan.legal_moves() == games["japan_conquest"].legal_moves()
    for game in ("codex", "japanese_risk"):
        assert same_match(again.load_autosave(game), games[game]), game
        assert again.autosave_info(game).to_dict() == store.autosave_info(game).to_dict()
    assert same_match(again.load_slot(1, game="conquest_cards"), games["cards"])
    # and play goes on identically from the restored copy
    codex = again.load_autosave("codex")
    original = games["codex"]
    bots = registry.get("codex").bots_module()
    for m in (codex, original):
        play_bots(m, {s: bots.BOTS["easy"]() for s in range(m.n_seats)}, seed=11, max_actions=10)
    assert same_match(codex, original)


def test_inspect_shows_every_autosave_before_restoring(tmp_path, full):
    store, games = full
    summary = SaveStore(tmp_path / "other").inspect_backup(store.export_backup())
    assert summary.valid
    assert {g: (i.status, i.game, i.file) for g, i in summary.autosaves.items()} == {
        "japan_conquest": ("used", "japan_conquest", "autosave.json"),
        "codex": ("used", "codex", "autosave-codex.json"),
        "japanese_risk": ("used", "japanese_risk", "autosave-japanese_risk.json"),
    }
    assert summary.autosave == summary.autosaves["japan_conquest"]  # Japan Conquest's, as before
    assert summary.autosaves["codex"].to_dict() == store.autosave_info("codex").to_dict()
    data = summary.to_dict()
    json.dumps(data)
    assert [p["name"] for p in data["autosaves"]["codex"]["players"]] == [p.name for p in games["codex"].setup.players]


def test_a_restore_from_a_backup_whose_codex_autosave_is_corrupt_changes_nothing(tmp_path, full):
    store, _ = full
    doc = store.export_backup()
    chance = next(e for e in doc["autosaves"]["codex"]["match"]["log"] if e["seat"] == -1)
    chance["outcome"] = "not what was rolled"
    target = SaveStore(tmp_path / "target", clock=lambda: FIXED)
    target.autosave(played("codex", 6, seed=3))
    target.autosave(mid_route_game())
    target.save_slot(2, played("conquest_cards", 4, seed=2))
    before = files(target.directory)

    summary = target.inspect_backup(doc)
    assert not summary.valid and len(summary.problems) == 1
    assert summary.autosaves["codex"].status == "corrupt"
    assert summary.problems[0].startswith("autosaves.codex (autosave-codex.json): ")
    with pytest.raises(InvalidBackupError, match=r"nothing was changed.*autosaves\.codex \(autosave-codex\.json\)"):
        target.restore_backup(doc)
    assert files(target.directory) == before  # no file written, removed or set aside
    assert target.pre_restore_backups() == []


@pytest.mark.parametrize(("key", "holds"), [("codex", "japan_conquest"), ("japan_conquest", "codex"),
                                            ("japanese_risk", "codex")])
def test_an_autosave_holding_another_game_than_its_name_says_is_refused(tmp_path, full, key, holds):
    store, _ = full
    doc = store.export_backup()
    doc["autosaves"][key] = doc["autosaves"][holds]
    target = SaveStore(tmp_path / "target")
    target.save_slot(3, mid_route_game())
    before = files(target.directory)
    summary = target.inspect_backup(doc)
    file = "autosave.json" if key == "japan_conquest" else f"autosave-{key}.json"
    assert summary.problems == (
        f"autosaves.{key} ({file}): this file holds a game of {holds!r}, not of {key!r}: it was not loaded",)
    with pytest.raises(InvalidBackupError, match="this file holds a game of"):
        target.restore_backup(doc)
    assert files(target.directory) == before


def test_a_backup_autosave_of_a_game_this_store_does_not_know_is_refused(tmp_path):
    s = SaveStore(tmp_path / "s", engines={"tiny_race": TinyRace})
    s.autosave(race())
    doc = s.export_backup()
    assert list(doc["autosaves"]) == ["tiny_race"] and s.data_files()[4] == "autosave-tiny_race.json"
    restored = SaveStore(tmp_path / "with", engines={"tiny_race": TinyRace})
    restored.restore_backup(doc)
    assert restored.load_autosave("tiny_race").view(None) == race().view(None)
    plain = SaveStore(tmp_path / "without")  # no engine for it: reported, not guessed
    summary = plain.inspect_backup(doc)
    assert not summary.valid and "unknown game 'tiny_race'" in summary.problems[0]
    with pytest.raises(InvalidBackupError):
        plain.restore_backup(doc)
    assert not plain.directory.exists()
    doc["autosaves"]["Not An Id"] = doc["autosaves"].pop("tiny_race")
    assert any("$.autosaves" in p for p in plain.inspect_backup(doc).problems)


def test_restore_removes_autosaves_absent_from_the_backup_and_keeps_them_in_the_pre_restore_backup(tmp_path, full):
    store, games = full
    small = SaveStore(tmp_path / "small", clock=lambda: FIXED)
    small.autosave(mid_route_game())
    backup = small.export_backup()
    assert list(backup["autosaves"]) == ["japan_conquest"]

    previous = store.export_backup()
    store.restore_backup(backup)
    assert sorted(p.name for p in store.directory.glob("autosave*.json")) == ["autosave.json"]
    assert store.load_autosave("codex") is None and not store.has_autosave("japanese_risk")
    assert store.slots()[0].status == "empty"
    [kept] = store.pre_restore_backups()
    assert read(kept) == previous  # nothing is lost: the replaced autosaves are in it
    store.restore_backup(kept, keep_previous=False)
    assert same_match(store.load_autosave("codex"), games["codex"])
    assert same_match(store.load_autosave("japanese_risk"), games["japanese_risk"])


def test_restore_sets_aside_an_unreadable_or_wrong_game_autosave_and_refuses_over_a_newer_one(tmp_path, full):
    store, games = full
    backup = store.export_backup()
    target = SaveStore(tmp_path / "target", clock=lambda: FIXED)
    target.directory.mkdir()
    (target.directory / "autosave-codex.json").write_text("{broken", encoding="utf-8")
    (target.directory / "autosave-japanese_risk.json").write_bytes((store.directory / "autosave-codex.json").read_bytes())
    with pytest.warns(SaveWarning):
        target.restore_backup(backup)
    assert sorted(p.name for p in target.set_aside_files()) == [
        "autosave-codex.corrupt-20250304T050607Z.json", "autosave-japanese_risk.corrupt-20250304T050607Z.json"]
    assert same_match(target.load_autosave("codex"), games["codex"])

    newer = read(store.directory / "autosave-codex.json")
    newer["schema_version"] = 9
    (target.directory / "autosave-codex.json").write_text(json.dumps(newer), encoding="utf-8")
    before = files(target.directory)
    with pytest.raises(UnsupportedSaveVersionError, match="autosave-codex.json.*nothing was restored"):
        target.restore_backup(SaveStore(tmp_path / "nothing").export_backup())
    assert files(target.directory) == before


# -------------------------------------------------------- old backup formats
def test_an_old_format_backup_still_restores(tmp_path, full):
    store, games = full
    v3 = store.export_backup()
    v2 = {k: v for k, v in v3.items() if k != "autosaves"}
    v2.update(schema_version=2, autosave=v3["autosaves"]["japan_conquest"])
    target = SaveStore(tmp_path / "target")
    target.autosave(played("codex", 4, seed=9))  # not in a version-2 backup: removed, as before
    summary = target.restore_backup(v2, keep_previous=False)
    assert summary.valid and list(summary.autosaves) == ["japan_conquest"]
    assert sorted(p.name for p in target.directory.glob("autosave*.json")) == ["autosave.json"]
    assert target.load_autosave().to_dict() == games["japan_conquest"].to_dict()
    assert same_match(target.load_slot(1), games["cards"])
    assert target.problems() == {}
    # a version-3 key in a version-2 backup, or the other way round, is a problem
    assert any("only a version-3 backup" in p for p in target.inspect_backup({**v2, "autosaves": {}}).problems)
    assert any("keeps every autosave under $.autosaves" in p
               for p in target.inspect_backup({**v3, "autosave": None}).problems)


def test_version_2_backup_files_written_before_this_change_restore(tmp_path):
    """Fixtures exported by the code of commit ecadf79 (see data/v2/README.md)."""
    target = SaveStore(tmp_path / "a")
    summary = target.restore_backup(V2 / "backup.json")
    assert summary.valid and summary.autosave.game == "japan_conquest" and summary.autosave.phase == "route"
    assert target.load_autosave().phase == "route"
    assert target.load_slot(1, game="conquest_cards").n_seats == 3
    assert target.preferences()["language"] == "ja" and len(target.results()) == 1
    assert target.problems() == {}

    # written while autosave.json held any game: the Codex game goes to the Codex's own file
    other = SaveStore(tmp_path / "b")
    summary = other.restore_backup(V2 / "backup-codex-autosave.json")
    assert summary.autosave.status == "empty" and summary.autosaves["codex"].file == "autosave-codex.json"
    assert [p.name for p in other.directory.glob("autosave*.json")] == ["autosave-codex.json"]
    old = read(V2 / "backup-codex-autosave.json")["autosave"]
    assert read(other.directory / "autosave-codex.json") == old
    assert other.load_autosave("codex").to_dict() == old["match"]
    assert other.problems() == {}


def test_a_newer_backup_version_is_refused(tmp_path, full):
    store, _ = full
    doc = store.export_backup()
    doc["schema_version"] = 4
    with pytest.raises(InvalidBackupError, match=r"newer version of conquest_widget \(schema version 4; this package reads 1-3\)"):
        SaveStore(tmp_path / "t").inspect_backup(doc)


# ------------------------------------------------------------ the directory
def test_problems_lists_every_games_autosave_and_an_autosave_must_hold_its_game(tmp_path, full):
    store, _games = full
    d = store.directory
    (d / "autosave-codex.json").write_text("[1, 2", encoding="utf-8")
    (d / "autosave-japanese_risk.json").write_bytes((d / "autosave.json").read_bytes())
    problems = store.problems()
    assert sorted(problems) == ["autosave-codex.json", "autosave-japanese_risk.json"]
    assert problems["autosave-codex.json"].startswith("not valid JSON")
    wrong = "this file holds a game of 'japan_conquest', not of 'japanese_risk'"
    assert problems["autosave-japanese_risk.json"] == wrong
    info = store.autosave_info("japanese_risk")
    assert (info.status, info.error) == ("corrupt", wrong)
    with pytest.raises(WrongGameError):
        store.load_autosave("japanese_risk")
    # Japan's file holding another game is not loaded as Japan's either
    (d / "autosave.json").write_bytes((store.directory / "slot-1.json").read_bytes())
    with pytest.raises(CorruptSaveError, match="autosave.json: this file holds a game of 'conquest_cards'"):
        store.load_autosave()
    assert store.autosave_info().status == "corrupt"
    # an export skips them, naming each
    skipped = {s["file"]: s["problem"] for s in store.export_backup()["skipped"]}
    assert sorted(skipped) == ["autosave-codex.json", "autosave-japanese_risk.json", "autosave.json"]


def test_an_autosave_of_a_game_this_package_does_not_know_is_reported_skipped_and_left_alone(tmp_path, full):
    store, _ = full
    s = SaveStore(tmp_path / "saves", clock=lambda: FIXED, engines={"tiny_race": TinyRace})
    s.autosave(race())
    assert s.problems() == {}
    # the store without that engine (a newer version's game, as far as it knows)
    assert "unknown game 'tiny_race'" in store.problems()["autosave-tiny_race.json"]
    assert [x["file"] for x in store.export_backup()["skipped"]] == ["autosave-tiny_race.json"]
    data = (store.directory / "autosave-tiny_race.json").read_bytes()
    store.restore_backup(SaveStore(tmp_path / "nothing").export_backup(), keep_previous=False)
    assert (store.directory / "autosave-tiny_race.json").read_bytes() == data  # not ours to replace
    assert store.set_aside_files() == []
    assert [p.name for p in store.delete_category("autosave", confirm=True)] == ["autosave-tiny_race.json"]


def test_delete_category_autosave_deletes_every_games_autosave_or_one_games(full):
    store, _ = full
    with pytest.raises(ConfirmationRequiredError):
        store.delete_category("autosave", game="codex")
    with pytest.raises(SaveError, match="game= selects an autosave"):
        store.delete_category("slots", confirm=True, game="codex")
    assert [p.name for p in store.delete_category("autosave", confirm=True, game="codex")] == ["autosave-codex.json"]
    assert store.has_autosave() and store.has_autosave("japanese_risk") and not store.has_autosave("codex")
    assert store.delete_category("autosave", confirm=True, game="codex") == []
    deleted = [p.name for p in store.delete_category("autosave", confirm=True)]
    assert deleted == ["autosave.json", "autosave-japanese_risk.json"]
    assert not list(store.directory.glob("autosave*"))
    assert store.slots()[0].status == "used"


def test_delete_all_removes_every_games_autosave(full):
    store, _ = full
    deleted = {p.name for p in store.delete_all(confirm=True)}
    assert {"autosave.json", "autosave-codex.json", "autosave-japanese_risk.json", "slot-1.json"} <= deleted
    assert sorted(p.name for p in store.directory.iterdir()) == [".lock"]


@pytest.mark.parametrize("name", ["autosave-codex.json", "autosave-conquest_cards.json", "autosave-some_game.json",
                                  "autosave-codex.corrupt-20250304T050607Z.json",
                                  "pre-restore-20250304T050607Z.backup.json"])
def test_a_backup_is_never_written_over_any_games_autosave_or_kept_data(full, name):
    store, _ = full
    target = store.directory / name
    if name == "autosave-codex.corrupt-20250304T050607Z.json":
        target.write_text("{kept", encoding="utf-8")
    elif name.startswith("pre-restore"):
        store.restore_backup(store.export_backup())
    before = files(store.directory)
    with pytest.raises(SaveFileError, match="cannot be written over a file of the save data"):
        store.export_backup(target)
    link = store.directory.parent / "link.json"
    link.symlink_to(target)
    with pytest.raises(SaveFileError, match="cannot be written over"):
        store.export_backup(link)
    assert files(store.directory) == before


def test_an_unreadable_games_autosave_is_set_aside_kept_and_deleted_with_the_extras(full):
    store, games = full
    bad = store.directory / "autosave-codex.json"
    bad.write_text('{"format": 1', encoding="utf-8")
    with pytest.warns(SaveWarning, match=r"autosave-codex.json was unreadable and has been kept as autosave-codex\.corrupt-"):
        store.autosave(games["codex"])
    [kept] = store.set_aside_files()
    assert kept.name == "autosave-codex.corrupt-20250304T050607Z.json" and kept.read_text() == '{"format": 1'
    assert same_match(store.load_autosave("codex"), games["codex"])
    assert store.delete_category("extras", confirm=True) == [kept]


def test_a_temporary_file_of_a_games_autosave_left_by_a_crash_is_removed_by_the_next_write(full):
    store, games = full
    stale = store.directory / ".autosave-codex.json.k2j3h4.tmp"
    stale.write_text("{half", encoding="utf-8")
    other = store.directory / ".notes.txt.k2j3h4.tmp"  # not ours: left alone
    other.write_text("x", encoding="utf-8")
    store2 = SaveStore(store.directory)
    store2.autosave(games["japanese_risk"])
    assert not stale.exists() and other.exists()


def test_data_files_name_every_games_autosave(tmp_path):
    s = SaveStore(tmp_path, engines={"tiny_race": TinyRace})
    assert s.games() == ["japan_conquest", "conquest_cards", "codex", "japanese_risk", "tiny_race"]
    assert s.data_files() == [
        "autosave.json", "autosave-conquest_cards.json", "autosave-codex.json", "autosave-japanese_risk.json",
        "autosave-tiny_race.json", "slot-1.json", "slot-2.json", "slot-3.json", "slot-4.json", "slot-5.json",
        "results.json", "records.json", "preferences.json"]


def test_a_codex_autosave_document_round_trips_through_a_backup_verbatim(tmp_path):
    """The saved document names its game and kind; the game's own ``to_dict`` is kept verbatim."""
    s = SaveStore(tmp_path / "s", clock=lambda: FIXED)
    m = played("codex", 8, players=4, seed=5)
    s.autosave(m)
    doc = read(tmp_path / "s" / "autosave-codex.json")
    assert doc == game_document(m, saved_at="2025-03-04T05:06:07Z", kind="autosave")
    t = SaveStore(tmp_path / "t")
    t.restore_backup(s.export_backup())
    assert read(tmp_path / "t" / "autosave-codex.json") == doc
