"""Issue 17, items 3-15: each defect found by attacking the saves from outside, as a test
that failed before its fix.  Real files under tmp_path; real file-descriptor exhaustion,
real symbolic links, real (strict) JSON."""

from __future__ import annotations

import json
import os
import resource
import shutil
import time
import tracemalloc
from pathlib import Path

import pytest
from test_saves import files, finished_game, legacy_battle_game, legacy_document, mid_battle_game, mid_route_game

from conquest_widget.errors import (
    CorruptSaveError,
    InvalidBackupError,
    SaveError,
    SaveFileError,
    SaveWarning,
    SlotOccupiedError,
    UnsupportedSaveVersionError,
)
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, ScriptedDice
from conquest_widget.saves import MAX_BACKUP_BYTES, SaveStore
from conquest_widget.saves.atomic import dumps

V1 = Path(__file__).parent / "data" / "v1"


def populated(directory: Path) -> SaveStore:
    """Saves of every kind; slot 1 holds a document of the older engine (format 1: the
    hostile-data checks of its reader are tested on it)."""
    s = SaveStore(directory)
    s.autosave(mid_route_game())
    s.save_slot(1, mid_battle_game())
    doc = doc_of(directory / "slot-1.json")
    doc["match"] = legacy_document(legacy_battle_game(), 2)
    write(directory / "slot-1.json", doc)
    s.record_result(finished_game(3))
    s.save_preferences({"language": "ja"})
    return s


def doc_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def write(path: Path, doc: object) -> None:
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")


# ------------------------------------------------------------------ item 3
def test_3_a_symlinked_lock_is_refused_and_creates_nothing_outside(tmp_path):
    saves, outside = tmp_path / "saves", tmp_path / "outside.lock"
    saves.mkdir()
    (saves / ".lock").symlink_to(outside)
    s = SaveStore(saves)
    with pytest.raises(SaveFileError, match="symbolic link"):
        s.autosave(mid_route_game())
    with pytest.raises(SaveFileError, match="symbolic link"):
        s.save_preferences({"language": "en"})
    assert not outside.exists() and not (saves / "autosave.json").exists()
    # a link to an existing file is not followed either (its content stays)
    outside.write_bytes(b"keep me")
    with pytest.raises(SaveFileError):
        s.save_slot(1, mid_route_game())
    assert outside.read_bytes() == b"keep me"


def test_3_export_backup_onto_the_lock_is_refused(tmp_path):
    s = populated(tmp_path)
    lock = (tmp_path / ".lock").read_bytes()
    inode = os.stat(tmp_path / ".lock").st_ino
    for target in (tmp_path / ".lock", tmp_path / ".hidden.tmp"):
        with pytest.raises(SaveFileError, match="over a file of the save data or its lock"):
            s.export_backup(target)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "link.json").symlink_to(tmp_path / "slot-1.json")
    with pytest.raises(SaveFileError):  # through a link, too
        s.export_backup(tmp_path / "elsewhere" / "link.json")
    assert (tmp_path / ".lock").read_bytes() == lock and os.stat(tmp_path / ".lock").st_ino == inode
    assert s.load_slot(1).phase == "battle_attack"


# ------------------------------------------------------------------ item 4
def _exhaust_fds(keep_free: int) -> list[int]:
    """Open /dev/null until the process is ``keep_free`` descriptors short of its limit."""
    held = []
    while True:
        try:
            held.append(os.open(os.devnull, os.O_RDONLY))
        except OSError:
            break
    for _ in range(min(keep_free, len(held))):
        os.close(held.pop())
    return held


@pytest.mark.parametrize("keep_free", [0, 1, 2, 3, 4])
def test_4_running_out_of_file_descriptors_never_sets_a_file_aside(tmp_path, keep_free):
    """With 0-4 descriptors left, each write either works or fails with a plain
    SaveFileError; nothing is ever renamed aside or lost."""
    populated(tmp_path)
    before = files(tmp_path)
    fresh = SaveStore(tmp_path)  # no cached knowledge: it must read the files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    in_use = len(os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (in_use + 16, hard))
    held = _exhaust_fds(keep_free)
    try:
        errors = []
        for write_ in (
            lambda: fresh.autosave(mid_battle_game()),
            lambda: fresh.save_slot(1, mid_route_game(), overwrite=True),
            lambda: fresh.save_preferences({"language": "en"}),
        ):
            try:
                write_()
            except SaveFileError as exc:
                errors.append(exc)
        infos = fresh.slots()
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert not any(isinstance(e, CorruptSaveError) for e in errors), errors
    if keep_free == 0:
        assert len(errors) == 3
    assert infos[0].status in ("used", "unreadable")  # never "empty" or "corrupt"
    assert fresh.set_aside_files() == [] and set(files(tmp_path)) == set(before)
    check = SaveStore(tmp_path)
    assert check.problems() == {}
    assert check.load_autosave().state.snapshot() in (mid_route_game().state.snapshot(), mid_battle_game().state.snapshot())
    assert check.load_slot(1).state.snapshot() in (mid_route_game().state.snapshot(), mid_battle_game().state.snapshot())


# ------------------------------------------------------------------ item 5
def test_5_non_finite_numbers_are_refused_at_load_and_never_exported(tmp_path):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "slot-1.json")
    text = json.dumps(doc).replace('"actions": ', '"actions": 1e400, "x": ', 1)
    (tmp_path / "slot-1.json").write_text(text, encoding="utf-8")
    info = s.slot_info(1)
    assert info.status == "corrupt" and "1e400 is out of range" in info.error
    backup = s.export_backup(tmp_path / "backup.json")
    assert backup["skipped"] == [{"file": "slot-1.json", "problem": info.error}]
    assert b"Infinity" not in (tmp_path / "backup.json").read_bytes()
    target = SaveStore(tmp_path / "target")
    assert target.restore_backup(tmp_path / "backup.json").valid
    with pytest.raises(SaveError, match="cannot be written as JSON"):
        dumps({"x": float("inf")})


# ------------------------------------------------------------------ item 6
def test_6_a_newer_version_file_is_left_untouched_with_a_clear_message(tmp_path):
    populated(tmp_path)
    for name in ("autosave.json", "slot-1.json", "preferences.json"):
        doc = doc_of(tmp_path / name)
        write(tmp_path / name, {**doc, "schema_version": 3, "from_the_future": True})
    doc = doc_of(tmp_path / "results.json")
    doc["results"][0]["game_version"] = 99
    write(tmp_path / "results.json", doc)
    before = files(tmp_path)
    fresh = SaveStore(tmp_path)
    with pytest.raises(UnsupportedSaveVersionError, match="newer version of conquest_widget.*left untouched"):
        fresh.autosave(mid_route_game())
    with pytest.raises(UnsupportedSaveVersionError, match="newer version"):
        fresh.save_slot(1, mid_route_game(), overwrite=True)
    with pytest.raises(UnsupportedSaveVersionError, match="newer version"):
        fresh.save_preferences({"language": "en"})
    with pytest.raises(UnsupportedSaveVersionError, match=r"newer version of japan_conquest \(game version 99"):
        fresh.record_result(finished_game(4))
    with pytest.raises(UnsupportedSaveVersionError):
        fresh.restore_backup(SaveStore(tmp_path / "empty").export_backup(), keep_previous=False)
    assert fresh.slot_info(1).status == "corrupt" and "newer version" in fresh.slot_info(1).error
    assert files(tmp_path) == before and fresh.set_aside_files() == []


# ------------------------------------------------------------------ item 7
EDGE_DATES = ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59Z", "2025-01-01T00:00:00", "x" * 50]


@pytest.mark.parametrize("date", EDGE_DATES)
def test_7_dates_at_the_edges_are_refused_naming_the_field(tmp_path, date):
    s = populated(tmp_path)
    backup = s.export_backup()
    slot = doc_of(tmp_path / "slot-1.json")
    write(tmp_path / "slot-1.json", {**slot, "saved_at": date})
    results = doc_of(tmp_path / "results.json")
    results["results"][0]["recorded_at"] = date
    write(tmp_path / "results.json", results)
    assert s.slot_info(1).status == "corrupt" and s.slot_info(1).error.startswith("$.saved_at: ")
    with pytest.raises(CorruptSaveError, match=r"\$\.results\[0\]\.recorded_at"):
        s.results()
    summary = s.inspect_backup({**backup, "exported_at": date})
    assert not summary.valid and summary.problems[0].startswith("$.exported_at") and summary.exported_at is None


# ------------------------------------------------------------------ item 8
@pytest.mark.parametrize(
    "key", ["foo:bar", "japan_conquest:foo:bar", "chess:easy", "japan_conquest:hard", "hard:balanced:x"]
)
def test_8_unknown_record_keys_are_refused(tmp_path, key):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "records.json")
    doc["records"][key] = {"wins": 1, "losses": 0, "draws": 0}
    write(tmp_path / "records.json", doc)
    with pytest.raises(CorruptSaveError, match=r"records"):
        s.records()


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda r: r.update(mode="blitz"), "mode must be one of"),
        (lambda r: r.update(mode="<script>"), "does not match"),
        (lambda r: r["standings"][0].update(difficulty="godlike"), r"difficulty must be one of \('easy', 'normal', 'hard'\), got 'godlike'"),
        (lambda r: r["standings"][0].update(difficulty="<b>"), r"standings\[0\].difficulty: '<b>' does not match"),
        (lambda r: r["standings"][0].update(seat=7), "seat"),
        (lambda r: r["standings"].extend(r["standings"] * 2), r"standings: too many items: at most 6"),
        (lambda r: r["standings"].extend(r["standings"][:2]), r"5 players; japan_conquest is played by 2-4"),
        (lambda r: r.update(winners=["nobody"]), "a winner is not one of the players"),
    ],
)
def test_8_results_the_screens_cannot_show_are_refused(tmp_path, change, problem):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "results.json")
    change(doc["results"][0])
    write(tmp_path / "results.json", doc)
    with pytest.raises(CorruptSaveError, match=problem):
        s.latest_result()


# ------------------------------------------------------------------ item 9
@pytest.mark.parametrize(
    "prefs, field",
    [
        ({"language": "fr"}, "$.preferences.language"),
        ({"last_setup": {"players": [{"name": "A", "home": "Tokyo"}, {"name": "B", "home": 27}]}}, "home"),
        ({"last_setup": {"players": [{"name": "A", "home": 13, "colour": "zzz"}, {"name": "B", "home": 27}]}}, "colour"),
        ({"last_setup": {"players": [{"name": 123, "home": 13}, {"name": "B", "home": 27}]}}, "name"),
        ({"last_setup": {"players": [{"name": "A", "home": 13}, {"name": "B", "home": 27}], "turns": 7}}, "turns"),
    ],
)
def test_9_preferences_the_app_cannot_use_are_refused(tmp_path, prefs, field):
    write(tmp_path / "preferences.json", {"format": "conquest_widget.saves.preferences", "schema_version": 1, "preferences": prefs})
    s = SaveStore(tmp_path)
    with pytest.raises(CorruptSaveError) as exc:
        s.preferences()
    assert field in exc.value.problem, exc.value.problem
    with pytest.raises(SaveError):
        s.save_preferences(prefs)


@pytest.mark.parametrize("colour", ["zzz", 42, "#12345", "rgb(1,2,3)", None])
def test_9_a_save_with_a_bad_colour_is_refused_naming_the_field(tmp_path, colour):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "slot-1.json")
    doc["match"]["setup"]["players"][0]["colour"] = colour
    write(tmp_path / "slot-1.json", doc)
    with pytest.raises(CorruptSaveError, match=r"\$\.match\.setup\.players\[0\]\.colour"):
        s.load_slot(1)


# ------------------------------------------------------------------ item 10
@pytest.mark.parametrize("name", ["autosave.json", "slot-1.json", "results.json", "records.json", "preferences.json"])
def test_10_a_lone_surrogate_anywhere_is_refused_so_writes_never_fail(tmp_path, name):
    s = populated(tmp_path)
    text = (tmp_path / name).read_text(encoding="utf-8")
    text = text.replace('"format"', '"\\ud800": 1, "format"', 1)  # a key, at the top
    (tmp_path / name).write_text(text, encoding="utf-8")
    fresh = SaveStore(tmp_path)
    load = {
        "autosave.json": fresh.load_autosave,
        "slot-1.json": lambda: fresh.load_slot(1),
        "results.json": fresh.results,
        "records.json": fresh.records,
        "preferences.json": fresh.preferences,
    }[name]
    with pytest.raises(CorruptSaveError, match=r"\$: a key with a lone surrogate"):
        load()
    assert name in SaveStore(tmp_path).problems()
    export = s.export_backup(tmp_path / "b.json")  # the export skips it and still writes
    assert [x["file"] for x in export["skipped"]] == [name]
    with pytest.raises(SaveError, match="lone surrogate"):
        s.save_preferences({"x": "ok\udc80"})


def test_10_surrogates_in_values_are_refused_with_their_place(tmp_path):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "slot-1.json")
    doc["meta"]["players"][0]["name"] = "\ud83d"
    (tmp_path / "slot-1.json").write_bytes(json.dumps(doc).encode())  # ASCII escapes: valid UTF-8 bytes
    assert s.slot_info(1).error == "$.meta.players[0].name: text with a lone surrogate (U+D800 to U+DFFF)"


# ------------------------------------------------------------------ item 11
def test_11_a_45_mb_backup_of_empty_objects_is_refused_quickly_without_memory(tmp_path):
    head = b'{"format": "conquest_widget.saves.backup", "schema_version": 2, "exported_at": "2025-01-01T00:00:00Z", "skipped": ['
    payload = head + b"{}," * ((MAX_BACKUP_BYTES - len(head)) // 3 - 2) + b"{}]}"
    assert 40_000_000 < len(payload) <= MAX_BACKUP_BYTES
    (tmp_path / "big.json").write_bytes(payload)
    s = SaveStore(tmp_path / "saves")
    for source in (payload, tmp_path / "big.json"):
        tracemalloc.start()
        start = time.perf_counter()
        with pytest.raises(InvalidBackupError, match="too many values"):
            s.inspect_backup(source)
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert elapsed < 2.0 and peak < 100_000_000 + (len(payload) if source is not payload else 0), (elapsed, peak)
    # a few {} are parsed, and still refused (``skipped`` holds {file, problem} objects)
    small = head + b"{}]}"
    assert not s.inspect_backup(small).valid


# ------------------------------------------------------------------ item 12
def test_12_a_nul_in_a_path_is_a_clear_error(tmp_path):
    with pytest.raises(SaveFileError, match="NUL"):
        SaveStore(f"{tmp_path}/a\0b")
    s = populated(tmp_path)
    with pytest.raises(SaveFileError, match="NUL"):
        s.export_backup(f"{tmp_path}/b\0.json")
    with pytest.raises(InvalidBackupError, match="NUL"):
        s.inspect_backup(f"{tmp_path}/b\0.json")
    assert s.problems() == {}


def test_12_engine_failures_on_hostile_data_are_reported_as_corrupt_files(tmp_path):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "slot-1.json")
    cases = {
        "seed": lambda d: d["match"]["dice"].update(seed=10**30),  # past any seed the engine takes
        "log": lambda d: d["match"]["log"].extend([{"type": "roll", "dice": 1}] * 3),  # illegal on replay
        "edit": lambda d: d["match"]["log"].insert(0, {"type": "edit", "op": "player", "args": {"seat": 0, "banked": 10**20}}),
        "deep": lambda d: d["match"].update(snapshot=json.loads("[" * 40 + "]" * 40)),
    }
    for name, change in cases.items():
        bad = json.loads(json.dumps(doc))
        change(bad)
        write(tmp_path / "slot-1.json", bad)
        info = s.slot_info(1)
        assert info.status == "corrupt", name
        with pytest.raises(CorruptSaveError):
            s.load_slot(1)


# ------------------------------------------------------------------ item 14
def test_14_duplicate_keys_are_refused(tmp_path):
    s = populated(tmp_path)
    text = (tmp_path / "slot-1.json").read_text(encoding="utf-8")
    good = json.dumps(doc_of(tmp_path / "slot-1.json")["match"]["snapshot"])
    tampered = good.replace('"banked": 0', '"banked": 9999', 1)
    text = text.replace('"snapshot": {', f'"snapshot": {tampered}, "snapshot": {{', 1)
    (tmp_path / "slot-1.json").write_text(text, encoding="utf-8")
    with pytest.raises(CorruptSaveError, match="duplicate key 'snapshot'"):
        s.load_slot(1)


@pytest.mark.parametrize("value", ["1", True, 1.9, 1.0, None, [1]])
def test_14_log_values_must_be_exact_integers(tmp_path, value):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "slot-1.json")
    i = next(i for i, a in enumerate(doc["match"]["log"]) if a["type"] == "roll")
    doc["match"]["log"][i]["dice"] = value
    write(tmp_path / "slot-1.json", doc)
    with pytest.raises(CorruptSaveError, match=r"\$\.match\.log\[\d+\]\.dice"):
        s.load_slot(1)


def test_14_a_snapshot_equal_only_loosely_is_refused(tmp_path):
    s = populated(tmp_path)
    doc = doc_of(tmp_path / "slot-1.json")
    doc["match"]["snapshot"]["players"][0]["defeated"] = 0  # False == 0 in Python
    write(tmp_path / "slot-1.json", doc)
    with pytest.raises(CorruptSaveError, match="snapshot does not match"):
        s.load_slot(1)


def test_14_scripted_dice_are_refused_in_a_save_and_never_saved(tmp_path):
    """Decision: saves hold the seeded random dice of the setup (as every game the app
    plays); scripted dice would let an edited file choose the future rolls."""
    s = populated(tmp_path)
    game = finished_game(5)
    doc = doc_of(tmp_path / "slot-1.json")
    doc["match"]["dice"] = {"kind": "scripted", "values": [6] * 50, "then_seed": None}
    write(tmp_path / "slot-1.json", doc)
    with pytest.raises(CorruptSaveError, match=r"\$\.match\.dice: scripted dice \(chosen future rolls\)"):
        s.load_slot(1)
    # a match with scripted dice is saved with the faces it rolled, never its script: the
    # loaded match's next rolls come from its seed (issue 29: a match logs every face)
    scripted = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1), dice=ScriptedDice([6, 6, 6]))
    scripted.roll(1)
    s.save_slot(2, scripted)
    saved = doc_of(tmp_path / "slot-2.json")["match"]
    assert "dice" not in saved and saved["log"][-1] == {"seat": -1, "kind": "roll", "outcome": [6]}
    assert s.load_slot(2).script is None
    assert s.load_autosave().state.snapshot() == mid_route_game().state.snapshot()
    assert s.record_result(game) is True and s.record_result(game) is False


# ------------------------------------------------------------------ item 15
def test_15_a_dangling_symlink_slot_is_listed_as_what_it_is(tmp_path):
    s = SaveStore(tmp_path)
    (tmp_path / "slot-1.json").symlink_to(tmp_path / "nowhere.json")
    (tmp_path / "elsewhere.json").write_bytes(dumps({"not": "followed"}))
    (tmp_path / "slot-2.json").symlink_to(tmp_path / "elsewhere.json")
    infos = s.slots()
    assert [(i.status, i.error) for i in infos[:2]] == [("corrupt", "a symbolic link, not a save file")] * 2
    with pytest.raises(SlotOccupiedError, match="unreadable file"):  # listed as holding something: consistent
        s.save_slot(1, mid_route_game())
    with pytest.warns(SaveWarning):
        s.save_slot(2, mid_route_game(), overwrite=True)
    assert (tmp_path / "elsewhere.json").read_bytes() == dumps({"not": "followed"})  # the target is untouched
    assert s.slot_info(2).status == "used" and not (tmp_path / "slot-2.json").is_symlink()


def test_15_a_slot_changed_after_listing_is_checked_again(tmp_path):
    s = populated(tmp_path)
    path = tmp_path / "slot-1.json"
    assert s.slot_info(1).status == "used"
    st = os.stat(path)
    path.write_bytes(b"x" * st.st_size)  # same size, and the old modification time put back
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert s.slot_info(1).status == "corrupt"
    shutil.copy(V1 / "slot-2.json", path)
    assert s.slot_info(1).status == "used"
    if os.geteuid() != 0:  # root reads anything
        path.chmod(0)
        assert s.slot_info(1).status == "unreadable"
