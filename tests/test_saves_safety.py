"""Safety of the save directory: bad files are reported (naming file and problem) and
never modified; crashes (os.replace failing, SIGKILL at random moments) leave the old
or the new file; concurrent processes lose no update; fuzzed files raise only the
documented error and never cause a write.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_saves import (
    expected_records,
    files,
    finished_game,
    legacy_battle_game,
    legacy_document,
    legacy_route_game,
    mid_battle_game,
    mid_route_game,
)

from conquest_widget.core.bots import play_bots
from conquest_widget.errors import (
    CorruptSaveError,
    InvalidBackupError,
    SaveFileError,
    SaveWarning,
    SlotOccupiedError,
    UnsupportedSaveVersionError,
)
from conquest_widget.games.codex.bots import BOTS as CODEX_BOTS
from conquest_widget.games.codex.engine import CodexMatch
from conquest_widget.games.japan_conquest import JapanMatch
from conquest_widget.saves import MAX_FILE_BYTES, SaveStore

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses fork and SIGKILL")

CTX = multiprocessing.get_context("fork")

GAME_FILES = ["autosave.json", "slot-2.json"]
ALL_FILES = [*GAME_FILES, "autosave-codex.json", "results.json", "records.json", "preferences.json"]


def codex_match() -> CodexMatch:
    """A Codex match a few moves in (its autosave is ``autosave-codex.json``)."""
    m = CodexMatch(CodexMatch.random_setup(random.Random(4), 3), seed=4)
    bot = CODEX_BOTS["easy"]()
    play_bots(m, {seat: bot for seat in range(m.n_seats)}, seed=4, max_actions=8)
    return m


def populated(directory: Path) -> SaveStore:
    """A directory with every kind of file (and a second game's autosave); Japan's
    autosave and slots 2 and 4 hold documents of the older engine (format 1, with their
    snapshots: the checks of the legacy reader are tested on them)."""
    s = SaveStore(directory)
    s.autosave(mid_battle_game())
    s.autosave(codex_match())
    s.save_slot(2, mid_route_game())
    s.save_slot(4, mid_battle_game(True))
    for name, legacy in (("autosave.json", legacy_battle_game()), ("slot-2.json", legacy_route_game()),
                         ("slot-4.json", legacy_battle_game(True))):
        doc = read_doc(directory / name)
        doc["match"] = legacy_document(legacy, legacy.setup.seed)
        (directory / name).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    s.record_result(finished_game(3))
    s.save_preferences({"language": "ja"})
    return s


def read_doc(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def tamper_snapshot(doc: dict) -> None:
    doc["match"]["snapshot"]["players"][0]["banked"] += 10


def tamper_field(doc: dict) -> None:
    key = {
        "conquest_widget.saves.results": "results",
        "conquest_widget.saves.records": "records",
        "conquest_widget.saves.preferences": "preferences",
        "conquest_widget.saves.game": "match",
    }[doc["format"]]
    doc[key] = 42


# name -> (how to make the bad file from a valid document, expected problem text)
BAD_CONTENT = {
    "not-json": (lambda doc: b'{"format": "conquest', "not valid JSON"),
    "empty": (lambda doc: b"", "not valid JSON"),
    "binary": (lambda doc: bytes(range(256)), "not UTF-8"),
    "array": (lambda doc: b"[1, 2]", "expected a JSON object"),
    "null": (lambda doc: b"null", "expected a JSON object"),
    "nan": (lambda doc: b'{"format": NaN}', "not valid JSON"),
    "wrong-format": (lambda doc: json.dumps(dict(doc, format="someone.else")).encode(), "wrong format 'someone.else'"),
    "no-version": (
        lambda doc: json.dumps({k: v for k, v in doc.items() if k != "schema_version"}).encode(),
        "bad schema_version None",
    ),
    "newer-version": (lambda doc: json.dumps(dict(doc, schema_version=3)).encode(), "written by a newer version"),
    "bad-field": (lambda doc: (tamper_field(doc), json.dumps(doc).encode())[1], "42 is not of type"),
    "oversized": (lambda doc: b" " * (MAX_FILE_BYTES + 1), "over the 5242880-byte limit"),
}


def loader(store: SaveStore, name: str):
    return {
        "autosave.json": store.load_autosave,
        "autosave-codex.json": lambda: store.load_autosave("codex"),
        "slot-2.json": lambda: store.load_slot(2),
        "slot-4.json": lambda: store.load_slot(4),
        "results.json": store.results,
        "records.json": store.records,
        "preferences.json": store.preferences,
    }[name]


@pytest.mark.parametrize("bad", list(BAD_CONTENT))
@pytest.mark.parametrize("name", ALL_FILES)
def test_bad_files_are_reported_with_file_and_problem_and_never_touched(tmp_path, name, bad):
    s = populated(tmp_path)
    make, problem = BAD_CONTENT[bad]
    doc = read_doc(tmp_path / name)
    payload = make(doc)
    (tmp_path / name).write_bytes(payload)
    before = files(tmp_path)

    with pytest.raises(CorruptSaveError) as exc:
        loader(s, name)()
    assert name in str(exc.value) and problem in str(exc.value), str(exc.value)
    assert exc.value.path == tmp_path / name
    if bad == "newer-version":
        assert isinstance(exc.value, UnsupportedSaveVersionError)

    # everything else keeps working
    assert s.problems() == {name: exc.value.problem}
    infos = {i.file: i for i in [*s.slots(), s.autosave_info(), s.autosave_info("codex")]}
    assert infos["slot-4.json"].status == "used" and s.load_slot(4).phase == "battle_defend"
    if name in infos:
        assert infos[name].status == "corrupt" and infos[name].error == exc.value.problem
    backup = s.export_backup()
    assert backup["skipped"] == [{"file": name, "problem": exc.value.problem}]
    assert files(tmp_path) == before  # nothing was written, moved or deleted


@pytest.mark.parametrize("name", GAME_FILES)
def test_a_tampered_snapshot_is_refused(tmp_path, name):
    s = populated(tmp_path)
    doc = read_doc(tmp_path / name)
    tamper_snapshot(doc)
    (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    before = files(tmp_path)
    with pytest.raises(CorruptSaveError, match=f"{name}: the game cannot be loaded: the saved snapshot does not match"):
        loader(s, name)()
    del doc["match"]["snapshot"]  # a save without its snapshot cannot be checked: refused too
    (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CorruptSaveError, match=r"\$\.match: 'snapshot' is a required property"):
        loader(s, name)()
    doc = read_doc(tmp_path / "slot-4.json")
    doc["match"]["log"].append({"type": "step", "to": 47})  # an illegal action in the log
    (tmp_path / "slot-4.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CorruptSaveError, match="slot-4.json: the game cannot be loaded: action 5"):
        s.load_slot(4)
    assert set(files(tmp_path)) == set(before)


def test_special_files_in_place_of_saves_are_reported_without_blocking(tmp_path):
    s = SaveStore(tmp_path)
    os.mkfifo(tmp_path / "slot-1.json")  # opening a FIFO for reading would block
    (tmp_path / "slot-2.json").mkdir()
    infos = s.slots()
    assert [(i.status, i.error) for i in infos[:2]] == [("corrupt", "not a regular file")] * 2
    with pytest.raises(SlotOccupiedError):
        s.save_slot(1, mid_route_game())


def test_saving_onto_a_corrupt_slot_needs_overwrite_and_keeps_the_bad_file(tmp_path):
    s = SaveStore(tmp_path)
    (tmp_path / "slot-3.json").write_bytes(b"\x00garbage")
    with pytest.raises(SlotOccupiedError, match="already holds an unreadable file") as exc:
        s.save_slot(3, mid_route_game())
    assert exc.value.corrupt and (tmp_path / "slot-3.json").read_bytes() == b"\x00garbage"
    with pytest.warns(SaveWarning, match="slot-3.json was unreadable"):
        s.save_slot(3, mid_route_game(), overwrite=True)
    [aside] = s.set_aside_files()
    assert aside.name.startswith("slot-3.corrupt-") and aside.read_bytes() == b"\x00garbage"
    assert s.slot_info(3).status == "used"


@pytest.mark.parametrize(
    "name, save",
    [
        ("autosave.json", lambda s: s.autosave(mid_route_game())),
        ("preferences.json", lambda s: s.save_preferences({"language": "en"})),
    ],
)
def test_automatic_writes_move_an_unreadable_file_aside(tmp_path, name, save):
    s = SaveStore(tmp_path)
    (tmp_path / name).write_bytes(b"{truncated")
    with pytest.warns(SaveWarning, match="unreadable"):
        save(s)
    save(s)  # a second time: nothing more to move
    [aside] = s.set_aside_files()
    assert aside.read_bytes() == b"{truncated" and s.problems() == {}


@pytest.mark.parametrize("name", ["results.json", "records.json"])
def test_record_result_refuses_to_touch_unreadable_results_or_records(tmp_path, name):
    s = populated(tmp_path)
    (tmp_path / name).write_bytes(b"{oops")
    before = files(tmp_path)
    with pytest.raises(CorruptSaveError, match=name):
        s.record_result(finished_game(11))
    assert files(tmp_path) == before


def test_restore_keeps_unreadable_current_files(tmp_path):
    source = populated(tmp_path / "a")
    target = SaveStore(tmp_path / "b")
    target.save_slot(2, mid_battle_game())
    (tmp_path / "b" / "results.json").write_bytes(b"\xff")
    with pytest.warns(SaveWarning):
        target.restore_backup(source.export_backup())
    assert [p.read_bytes() for p in target.set_aside_files()] == [b"\xff"]
    assert target.results() == source.results()
    [previous] = target.pre_restore_backups()
    assert read_doc(previous)["skipped"][0]["file"] == "results.json"


# ---------------------------------------------------------------- crashes
def test_a_failing_replace_leaves_the_old_file_and_no_partial_file(tmp_path, monkeypatch):
    s = SaveStore(tmp_path)
    old = mid_route_game()
    s.save_slot(1, old)
    s.autosave(old)
    before = files(tmp_path)

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(SaveFileError, match="slot-1.json: cannot write: No space left on device"):
        s.save_slot(1, mid_battle_game(), overwrite=True)
    with pytest.raises(SaveFileError, match="autosave.json"):
        s.autosave(mid_battle_game())
    assert files(tmp_path) == before  # no temp file left either
    monkeypatch.undo()
    assert s.load_slot(1).state.snapshot() == old.state.snapshot()


def test_a_crash_between_records_and_results_is_repaired_by_recording_again(tmp_path, monkeypatch):
    s = SaveStore(tmp_path)
    game = finished_game(12)
    real = os.replace
    calls = []

    def second_fails(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(5, "I/O error")
        real(src, dst)

    monkeypatch.setattr(os, "replace", second_fails)
    with pytest.raises(SaveFileError):
        s.record_result(game)
    monkeypatch.undo()
    assert [Path(c).name for c in calls] == ["records.json", "results.json"]
    assert s.results() == [] and s.records() == expected_records(game)
    assert s.record_result(game) is True  # the widget retries: the result is added, the records not doubled
    assert len(s.results()) == 1 and s.records() == expected_records(game)


def _die_before_replace(directory: str, game_data: dict) -> None:
    """Child: write a slot, but get SIGKILLed after the temp file is complete and
    before it is renamed over the real name (the worst moment)."""

    def die(src, dst):
        os.kill(os.getpid(), signal.SIGKILL)

    os.replace = die
    SaveStore(directory).save_slot(1, JapanMatch.from_dict(game_data), overwrite=True)


def test_sigkill_just_before_the_rename_leaves_the_old_file(tmp_path):
    s = SaveStore(tmp_path)
    old = mid_route_game()
    s.save_slot(1, old)
    before = (tmp_path / "slot-1.json").read_bytes()
    p = CTX.Process(target=_die_before_replace, args=(str(tmp_path), mid_battle_game().to_dict()))
    p.start()
    p.join(30)
    assert p.exitcode == -signal.SIGKILL
    temps = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert len(temps) == 1 and temps[0].startswith(".slot-1.json.")  # complete, hidden, never loaded
    assert (tmp_path / "slot-1.json").read_bytes() == before
    assert s.load_slot(1).state.snapshot() == old.state.snapshot() and s.problems() == {}
    s.autosave(old)  # the next write (holding the lock) clears the stale temp file
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def _write_forever(directory: str, game_data: dict, ready) -> None:
    """Child: play a game action by action, autosaving after each, saving slot 1 every
    few actions and recording the result at the end; then start over."""
    s = SaveStore(directory)
    full = JapanMatch.from_dict(game_data)
    finished = full.copy()
    while True:
        g = JapanMatch(full.setup)
        for i, action in enumerate(full.actions()):
            g.push(action)
            s.autosave(g)
            ready.set()
            if i % 4 == 0:
                s.save_slot(1, g, overwrite=True)
                s.save_preferences({"language": "ja", "actions": i})
        s.record_result(finished)
        s.delete_category("results", confirm=True)


def test_sigkill_at_random_moments_leaves_only_whole_files(tmp_path):
    full = finished_game(21)
    rng = random.Random(6)
    names = {"autosave.json", "slot-1.json", "preferences.json", "results.json", "records.json"}
    kills = 25
    for _ in range(kills):
        ready = CTX.Event()
        p = CTX.Process(target=_write_forever, args=(str(tmp_path), full.to_dict(), ready))
        p.start()
        assert ready.wait(30)
        time.sleep(rng.uniform(0, 0.04))
        os.kill(p.pid, signal.SIGKILL)
        p.join(30)
        assert p.exitcode == -signal.SIGKILL
        s = SaveStore(tmp_path)
        assert s.problems() == {}  # every file left behind is whole and valid
        visible = {n for n in os.listdir(tmp_path) if not n.startswith(".")}
        assert visible <= names
        for loaded in (s.load_autosave(), s.load_slot(1) if "slot-1.json" in visible else None):
            if loaded is not None:  # the previous or the new version of a real position
                assert loaded.log == full.log[: len(loaded.log)]
        assert s.records() in ({}, expected_records(full))
        assert len(s.results()) <= 1


def _restore_forever(directory: str, backups: list[dict], ready) -> None:
    """Child: restore one backup after the other, for ever."""
    s = SaveStore(directory)
    while True:
        for backup in backups:
            s.restore_backup(backup, keep_previous=False)
            ready.set()


def test_sigkill_during_restores_leaves_every_games_autosave_whole(tmp_path):
    """Killed at random moments while restoring backups that differ in every game's
    autosave, the directory holds only whole, valid files, each one the version of one
    of the backups."""
    a, b = SaveStore(tmp_path / "a"), SaveStore(tmp_path / "b")
    a.autosave(mid_route_game())
    a.autosave(codex_match())
    a.save_slot(1, mid_battle_game())
    b.autosave(mid_battle_game(True))
    codex = codex_match()
    play_bots(codex, {seat: CODEX_BOTS["easy"]() for seat in range(codex.n_seats)}, seed=9, max_actions=4)
    b.autosave(codex)
    backups = [a.export_backup(), b.export_backup()]
    versions = {name: {files(x.directory).get(name) for x in (a, b)} for name in ("autosave.json", "autosave-codex.json", "slot-1.json")}
    target = tmp_path / "t"
    rng = random.Random(8)
    for _ in range(15):
        ready = CTX.Event()
        p = CTX.Process(target=_restore_forever, args=(str(target), backups, ready))
        p.start()
        assert ready.wait(30)
        time.sleep(rng.uniform(0, 0.05))
        os.kill(p.pid, signal.SIGKILL)
        p.join(30)
        assert p.exitcode == -signal.SIGKILL
        s = SaveStore(target)
        assert s.problems() == {}
        now = files(target)
        for name, allowed in versions.items():
            assert now.get(name) in allowed, name
        assert s.load_autosave("codex") is not None or "autosave-codex.json" not in now


# ------------------------------------------------------------ concurrency
def _record_many(directory: str, games: list[dict], start) -> None:
    s = SaveStore(directory)
    start.wait(30)
    for data in games:
        g = JapanMatch.from_dict(data)
        s.record_result(g)
        s.autosave(g)
        s.save_slot(1, g, overwrite=True)
        s.save_preferences({"last": g.action_count})
    os._exit(0)


def test_concurrent_processes_lose_no_update_and_interleave_no_file(tmp_path):
    procs, per = 4, 4
    games = [finished_game(100 + i) for i in range(procs * per)]
    start = CTX.Event()
    workers = [
        CTX.Process(target=_record_many, args=(str(tmp_path), [g.to_dict() for g in games[i::procs]], start))
        for i in range(procs)
    ]
    for w in workers:
        w.start()
    start.set()
    for w in workers:
        w.join(60)
    assert [w.exitcode for w in workers] == [0] * procs

    s = SaveStore(tmp_path)
    for name in os.listdir(tmp_path):
        if name.endswith(".json"):
            json.loads((tmp_path / name).read_text(encoding="utf-8"))  # whole JSON documents
    assert s.problems() == {}
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert sorted(r["game_id"] for r in s.results()) == sorted({r["game_id"] for r in s.results()})
    assert len(s.results()) == procs * per  # no result lost
    total: dict[str, dict[str, int]] = {}
    for g in games:
        for k, v in expected_records(g).items():
            row = total.setdefault(k, dict.fromkeys(v, 0))
            for o in v:
                row[o] += v[o]
    assert s.records() == total  # no record update lost
    assert s.load_slot(1).is_over and s.load_autosave().is_over


# --------------------------------------------------------------- fuzzing
def _valid_files() -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as d:
        populated(Path(d))
        return files(Path(d))


VALID = _valid_files()
HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["../../x", "slot-1.json", "__proto__", "\u0000", "conquest_widget.saves.game"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(VALID)))
    payload = VALID[name]
    how = draw(st.sampled_from(["truncate", "bytes", "value", "delete", "deep", "bigint"]))
    if how == "truncate":
        payload = payload[: draw(st.integers(0, len(payload) - 1))]
    elif how == "bytes":
        data = bytearray(payload)
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        payload = bytes(data)
    elif how == "bigint":  # past Python's int-string limit: json.loads raises ValueError
        payload = payload.replace(b'"schema_version": 2', b'"schema_version": ' + b"9" * draw(st.integers(4000, 6000)))
    elif how == "deep":
        depth = draw(st.integers(50, 200_000))
        payload = b"[" * depth + b"]" * draw(st.integers(0, depth))
    else:
        doc = json.loads(payload)
        paths = [p for p in _paths(doc) if p]
        path = draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if how == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(HOSTILE)
        payload = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    return name, payload


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzzed_files_raise_only_the_documented_error_and_cause_no_write(case):
    name, payload = case
    with tempfile.TemporaryDirectory() as d:
        directory = Path(d)
        for n, b in VALID.items():
            (directory / n).write_bytes(b)
        (directory / name).write_bytes(payload)
        before = files(directory)
        s = SaveStore(directory)
        try:
            loader(s, name)()
        except CorruptSaveError as exc:
            assert name in str(exc)
            assert s.problems() == {name: exc.problem}
        else:
            assert s.problems() == {}
        if name == "preferences.json":
            try:
                s.last_setup()
            except CorruptSaveError:
                pass
        if name.startswith(("slot", "autosave")):
            s.slots(), s.autosave_info()
        assert files(directory) == before
        assert sorted(os.listdir(directory)) == sorted(before)  # not even a lock file


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzzed_backups_restore_completely_or_not_at_all(case):
    name, payload = case
    with tempfile.TemporaryDirectory() as d:
        directory = Path(d)
        for n, b in VALID.items():
            (directory / n).write_bytes(b)
        s = SaveStore(directory)
        backup = s.export_backup()
        key = {"autosave.json": ("autosave",), "slot-2.json": ("slots", "2"), "slot-4.json": ("slots", "4")}.get(
            name, (name[: -len(".json")],)
        )
        try:
            part = json.loads(payload)
        except (ValueError, RecursionError):
            part = payload.decode("utf-8", "replace")
        holder = backup
        for k in key[:-1]:
            holder = holder[k]
        holder[key[-1]] = part
        target = SaveStore(directory / "target")
        (directory / "target").mkdir()
        (directory / "target" / "slot-5.json").write_bytes(VALID["slot-2.json"])
        before = files(directory / "target")
        try:
            summary = target.inspect_backup(backup)
        except InvalidBackupError:
            summary = None
        try:
            target.restore_backup(backup, keep_previous=False)
        except InvalidBackupError:
            assert summary is None or not summary.valid
            assert files(directory / "target") == before
        else:
            assert summary is not None and summary.valid
            assert target.problems() == {} and target.slot_info(5).status == "empty"
