"""The save directory (conquest_widget.saves): round trips of every file kind, slots,
results and CPU records, preferences, backups, deletion.  Real files under tmp_path.

Safety tests (corrupt files, crashes, concurrency, fuzzing) are in test_saves_safety.py;
the game builders here are shared with it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from games.japan_conquest.legacy_docs import legacy_doc

from conquest_widget.errors import (
    ConfirmationRequiredError,
    ConquestError,
    EmptySlotError,
    InvalidBackupError,
    InvalidSlotError,
    SaveError,
    SaveFileError,
    SaveWarning,
    SlotOccupiedError,
)
from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    PlayerSetup,
    RandomDice,
)
from conquest_widget.games.japan_conquest.cpu import cpu_action
from conquest_widget.saves import SaveStore, check_slot, game_id
from conquest_widget.saves.results import cpu_outcomes, result_entry

FIXED = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)


# ------------------------------------------------------------------ builders
def mid_route_game() -> JapanMatch:
    """Seeded random dice; rolled and one step planned, not confirmed."""
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    g.roll(1)
    g.step(g.legal_steps()[0])
    assert g.phase == "route" and len(g.route) == 1
    return g


def mid_battle_game(defending: bool = False) -> JapanMatch:
    """Seeded dice (seed 5 rolls a 1 first): player 1 stops on player 2's base in
    Saitama; the attacker (or, with ``defending``, the defender) is to roll."""
    return _to_battle(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=5)), defending)


def legacy_battle_game(defending: bool = False) -> JapanMatch:
    """:func:`mid_battle_game` as the older engine played it: dice ``RandomDice(2)`` (its
    first roll a 1), so that its document of format 1 (:func:`legacy_document`) replays."""
    return _to_battle(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=2), dice=RandomDice(2)), defending)


def _to_battle(g: JapanMatch, defending: bool) -> JapanMatch:
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.plan_route(["Saitama"], dice=1)
    if defending:
        g.battle_roll(1)
    assert g.phase == ("battle_defend" if defending else "battle_attack")
    return g


def legacy_route_game() -> JapanMatch:
    """:func:`mid_route_game` as the older engine played it (dice ``RandomDice(1)``)."""
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1), dice=RandomDice(1))
    g.roll(1)
    g.step(g.legal_steps()[0])
    return g


def legacy_document(match: JapanMatch, seed: int) -> dict:
    """The older engine's document (Japan document format 1) of ``match``, played with
    ``RandomDice(seed)``: nothing writes it any more, old files hold it."""
    return legacy_doc(match, {"kind": "random", "seed": seed})


def cpu_setup(seed: int, *, turns: int = 5) -> GameSetup:
    """One human (Tokyo) against an easy aggressive CPU and a hard balanced CPU."""
    return GameSetup(
        players=(
            PlayerSetup("あなた", "Tokyo"),
            PlayerSetup("CPU easy", "Osaka", cpu=True, difficulty="easy", strategy="aggressive"),
            PlayerSetup("CPU hard", "Fukuoka", cpu=True, difficulty="hard", strategy="balanced"),
        ),
        turns=turns,
        seed=seed,
    )


def finished_game(seed: int = 3, setup: GameSetup | None = None) -> JapanMatch:
    """A finished 5-turn game, every seat (the human one too) driven by cpu_action."""
    g = JapanMatch(setup or cpu_setup(seed))
    while not g.is_over:
        g.push(cpu_action(g, g.actor))
    return g


def play_on(game: JapanMatch, n: int) -> None:
    for _ in range(n):
        if game.is_over:
            return
        game.push(cpu_action(game, game.actor))


def files(directory: Path) -> dict[str, bytes]:
    """Every file of a directory (name → bytes), the lock file excluded."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file() and p.name != ".lock"}


@pytest.fixture
def store(tmp_path: Path) -> SaveStore:
    return SaveStore(tmp_path / "saves", clock=lambda: FIXED)


# ------------------------------------------------------------------ autosave
def test_nothing_is_created_until_something_is_saved(tmp_path):
    s = SaveStore(tmp_path / "saves")
    assert s.load_autosave() is None and not s.has_autosave()
    assert [i.status for i in s.slots()] == ["empty"] * 5
    assert s.results() == [] and s.latest_result() is None and s.records() == {} and s.preferences() == {}
    assert s.problems() == {}
    assert not (tmp_path / "saves").exists()  # reading never writes


@pytest.mark.parametrize(
    "build",
    [mid_route_game, mid_battle_game, lambda: mid_battle_game(True)],
    ids=["mid-route", "mid-battle-attack", "mid-battle-defend"],
)
def test_continue_last_game_resumes_exactly(tmp_path, build):
    game = build()
    SaveStore(tmp_path).autosave(game)
    # "Exit Without Saving": the app goes away; a new one continues from the autosave
    loaded = SaveStore(tmp_path).load_autosave()
    assert loaded.state.snapshot() == game.state.snapshot()
    assert loaded.legal_moves() == game.legal_moves()
    assert (loaded.phase, loaded.actor, loaded.route) == (game.phase, game.actor, game.route)
    # and play goes on identically (same dice position)
    play_on(game, 12)
    play_on(loaded, 12)
    assert loaded.state.snapshot() == game.state.snapshot()


def test_autosave_replaces_the_previous_one_and_can_be_cleared(store):
    g = mid_route_game()
    store.autosave(g)
    play_on(g, 3)
    store.autosave(g)
    assert store.load_autosave().log == g.log
    new = JapanMatch(GameSetup.quick(["Aomori", "Okinawa"], seed=5))  # starting a new game replaces it
    store.autosave(new)
    assert store.load_autosave().setup == new.setup
    info = store.autosave_info()
    assert (info.slot, info.status, info.saved_at, info.turn) == (None, "used", "2025-03-04T05:06:07Z", 1)
    assert store.clear_autosave() is True
    assert store.clear_autosave() is False
    assert store.load_autosave() is None and store.autosave_info().status == "empty"


def test_unchanged_files_are_not_replayed_again_but_changed_ones_are(store, monkeypatch):
    import conquest_widget.saves.store as store_module

    calls = []
    real = store_module.load_game
    monkeypatch.setattr(store_module, "load_game", lambda data, src, **kw: calls.append(src) or real(data, src, **kw))
    g = mid_route_game()
    for _ in range(3):
        store.autosave(g)  # after every action: the previous autosave is this store's own
        store.save_slot(1, g, overwrite=True)
    store.slots(), store.autosave_info()
    assert calls == []
    (store.directory / "autosave.json").write_text("{}")  # changed behind the store's back
    with pytest.warns(SaveWarning):
        store.autosave(g)
    assert store.autosave_info().status == "used" and len(store.set_aside_files()) == 1


def test_game_save_file_is_plain_readable_json(store):
    g = finished_game()
    store.save_slot(4, g)
    text = (store.directory / "slot-4.json").read_text(encoding="utf-8")
    assert "あなた" in text  # ensure_ascii=False
    assert text.startswith(
        '{\n "format": "conquest_widget.saves.game",\n "schema_version": 2,\n "game": "japan_conquest",\n "game_version": 2,'
    )
    doc = json.loads(text)
    assert doc["saved_at"] == "2025-03-04T05:06:07Z" and doc["kind"] == "slot" and doc["slot"] == 4
    assert doc["match"] == g.to_dict()  # setup, seed, the full log (actions and dice faces)
    assert set(doc["match"]) == {"game", "version", "setup", "seed", "log"}
    assert doc["meta"]["players"][1] == {
        "name": "CPU easy",
        "cpu": True,
        "difficulty": "easy",
        "strategy": "aggressive",
    }
    assert doc["meta"]["is_over"] is True and doc["meta"]["actions"] == len(g.log)


# --------------------------------------------------------------------- slots
def test_slots_round_trip_and_list_date_mode_turn_players(store):
    a, b = mid_route_game(), mid_battle_game()
    info = store.save_slot(1, a)
    store.save_slot(5, b)
    assert info.to_dict() == store.slot_info(1).to_dict()
    infos = store.slots()
    assert [i.status for i in infos] == ["used", "empty", "empty", "empty", "used"]
    assert [i.slot for i in infos] == [1, 2, 3, 4, 5]
    one = infos[0]
    assert (one.saved_at, one.mode, one.turns, one.turn, one.phase) == (
        "2025-03-04T05:06:07Z",
        "standard",
        10,
        1,
        "route",
    )
    assert one.player_names == ["Player 1", "Player 2"] and one.error is None
    assert infos[4].phase == "battle_attack"
    for n, g in ((1, a), (5, b)):
        loaded = store.load_slot(n)
        assert loaded.state.snapshot() == g.state.snapshot() and loaded.legal_moves() == g.legal_moves()


def test_slot_info_marks_cpu_players(store):
    store.save_slot(2, JapanMatch(cpu_setup(1)))
    assert store.slot_info(2).player_names == ["あなた", "CPU easy (CPU)", "CPU hard (CPU)"]
    assert store.slot_info(2).players[2].difficulty == "hard"


def test_used_slot_is_never_overwritten_without_overwrite(store):
    first, second = mid_route_game(), mid_battle_game()
    store.save_slot(3, first)
    before = (store.directory / "slot-3.json").read_bytes()
    with pytest.raises(SlotOccupiedError) as exc:
        store.save_slot(3, second)
    assert exc.value.slot == 3 and not exc.value.corrupt and "slot-3.json" in str(exc.value)
    assert (store.directory / "slot-3.json").read_bytes() == before
    store.save_slot(3, second, overwrite=True)
    assert store.load_slot(3).state.snapshot() == second.state.snapshot()


def test_empty_slot_load_and_delete(store):
    with pytest.raises(EmptySlotError, match="slot 2 is empty"):
        store.load_slot(2)
    store.save_slot(2, mid_route_game())
    assert store.delete_slot(2) is True
    assert store.delete_slot(2) is False
    assert store.slot_info(2).status == "empty"


BAD_SLOTS = [
    "../x",
    "../../etc/passwd",
    0,
    6,
    -1,
    "1; rm -rf ~",
    True,
    False,
    1.0,
    None,
    "1",
    "slot-1.json",
    10**100,
    [1],
    b"1",
]


@pytest.mark.parametrize("slot", BAD_SLOTS, ids=repr)
def test_slot_numbers_other_than_1_to_5_are_refused(tmp_path, slot):
    s = SaveStore(tmp_path / "saves")
    g = mid_route_game()
    s.save_slot(1, g)
    before = files(s.directory)
    for call in (
        lambda: s.save_slot(slot, g, overwrite=True),
        lambda: s.load_slot(slot),
        lambda: s.delete_slot(slot),
        lambda: s.slot_info(slot),
        lambda: s.slot_path(slot),
    ):
        with pytest.raises(InvalidSlotError, match="a save slot is an integer 1-5"):
            call()
    assert files(s.directory) == before
    assert sorted(p.name for p in tmp_path.rglob("*")) == [".lock", "saves", "slot-1.json"]


def test_check_slot_accepts_index_like_integers():
    class Index:
        def __index__(self):
            return 4

    assert [check_slot(n) for n in (1, 5, Index())] == [1, 5, 4]


def test_a_game_with_its_own_dice_saves_its_faces_not_its_dice(store):
    """(The older engine could not save a game whose dice had no ``to_dict``; a match logs
    every face as a chance outcome, and its next rolls after loading come from its seed.)"""
    class Dice:
        def roll(self, n):
            return (1,) * n

    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=4), dice=Dice())
    g.roll(1)
    store.save_slot(1, g)
    loaded = store.load_slot(1)
    assert loaded.state.snapshot() == g.state.snapshot() and loaded.log == g.log and loaded.script is None


# ------------------------------------------------------------ results/records
def expected_records(game: JapanMatch) -> dict[str, dict[str, int]]:
    """Worked out from the ranking directly: each human against each CPU seat."""
    rank = {r["seat"]: r["rank"] for r in game.ranking()}
    out: dict[str, dict[str, int]] = {}
    players = game.setup.players
    for c, cp in enumerate(players):
        if not cp.cpu:
            continue
        row = out.setdefault(f"{cp.difficulty}:{cp.strategy}", {"wins": 0, "losses": 0, "draws": 0})
        for h, hp in enumerate(players):
            if hp.cpu:
                continue
            key = "wins" if rank[h] < rank[c] else "losses" if rank[h] > rank[c] else "draws"
            row[key] += 1
    return out


def test_a_japan_match_result_keeps_its_turn_limit(store):
    """The app records results from its match (through the generic match codec): the turn
    limit of the setup is kept, as the engine game's result keeps it."""

    match = finished_game(3)
    assert store.record_result(match) is True
    result = store.latest_result()
    assert (result["game"], result["mode"], result["turns"], result["end_reason"]) == ("japan_conquest", "standard", 5, "turns")


def test_record_result_of_a_finished_human_vs_cpu_game(store):
    game = finished_game(3)
    assert game.turn_number(0) == 5 and game.state.end_reason == "turns"
    assert store.record_result(game) is True
    result = store.latest_result()
    assert result == store.results()[0]
    assert result["game_id"] == game_id(game) and result["recorded_at"] == "2025-03-04T05:06:07Z"
    assert (result["mode"], result["turns"], result["end_reason"]) == ("standard", 5, "turns")
    assert [(r["name"], r["score"], r["rank"]) for r in result["standings"]] == [
        (r["name"], r["score"], r["rank"]) for r in game.ranking()
    ]
    assert result["winners"] == [game.setup.players[s].name for s in game.winners()]
    assert store.records() == expected_records(game)
    assert sum(sum(v.values()) for v in store.records().values()) == 2  # one human x two CPUs


def test_the_same_game_recorded_twice_counts_once(tmp_path):
    game = finished_game(4)
    assert SaveStore(tmp_path).record_result(game) is True
    # recorded again, by another store, from a reloaded copy of the game
    again = JapanMatch.from_dict(json.loads(json.dumps(game.to_dict())))
    assert SaveStore(tmp_path).record_result(again) is False
    s = SaveStore(tmp_path)
    assert len(s.results()) == 1 and s.records() == expected_records(game)


def test_results_are_kept_latest_first_and_records_add_up(store):
    games = [finished_game(seed) for seed in (5, 6, 7)]
    for g in games:
        store.record_result(g)
    assert [r["game_id"] for r in store.results()] == [game_id(g) for g in reversed(games)]
    total: dict[str, dict[str, int]] = {}
    for g in games:
        for k, v in expected_records(g).items():
            row = total.setdefault(k, {"wins": 0, "losses": 0, "draws": 0})
            for o in v:
                row[o] += v[o]
    assert store.records() == total


def test_records_count_each_human_against_each_cpu_with_draws_for_shared_ranks():
    entry = {
        "standings": [
            {
                "seat": 1,
                "name": "A",
                "score": 300,
                "rank": 1,
                "defeated": False,
                "cpu": False,
                "difficulty": None,
                "strategy": None,
            },
            {
                "seat": 2,
                "name": "C1",
                "score": 300,
                "rank": 1,
                "defeated": False,
                "cpu": True,
                "difficulty": "hard",
                "strategy": "defensive",
            },
            {
                "seat": 0,
                "name": "B",
                "score": 200,
                "rank": 3,
                "defeated": False,
                "cpu": False,
                "difficulty": None,
                "strategy": None,
            },
            {
                "seat": 3,
                "name": "C2",
                "score": 0,
                "rank": 4,
                "defeated": True,
                "cpu": True,
                "difficulty": "hard",
                "strategy": "defensive",
            },
        ]
    }
    # vs C1: A draws, B loses; vs C2: A wins, B wins (same CPU kind: summed)
    assert cpu_outcomes(entry) == {"japan_conquest:hard:defensive": {"wins": 2, "losses": 1, "draws": 1}}
    entry["standings"] = [dict(r, cpu=False) for r in entry["standings"]]
    assert cpu_outcomes(entry) == {}


def test_games_without_a_human_or_a_cpu_give_results_but_no_records(store):
    all_cpu = GameSetup.quick(["Tokyo", "Osaka"], cpu=[True, True], turns=5, seed=2)
    all_human = GameSetup.quick(["Tokyo", "Osaka"], turns=5, seed=2)
    store.record_result(finished_game(setup=all_cpu))
    store.record_result(finished_game(setup=all_human))
    assert len(store.results()) == 2 and store.records() == {}


def test_an_unfinished_game_has_no_result(store):
    with pytest.raises(SaveError, match="not over"):
        store.record_result(mid_route_game())
    with pytest.raises(SaveError):
        result_entry(mid_battle_game(), recorded_at="2025-01-01T00:00:00Z")
    assert not store.directory.exists()


def test_results_and_records_files_format(store):
    game = finished_game(3)
    store.record_result(game)
    results = json.loads((store.directory / "results.json").read_text(encoding="utf-8"))
    records = json.loads((store.directory / "records.json").read_text(encoding="utf-8"))
    assert (results["format"], results["schema_version"]) == ("conquest_widget.saves.results", 2)
    assert (records["format"], records["schema_version"]) == ("conquest_widget.saves.records", 2)
    assert records["counted_games"] == [game_id(game)]
    assert records["records"] == {f"japan_conquest:{k}": v for k, v in expected_records(game).items()}
    assert (results["results"][0]["game"], results["results"][0]["game_version"]) == ("japan_conquest", 2)
    human = next(r for r in results["results"][0]["standings"] if not r["cpu"])
    assert human["difficulty"] is None and human["name"] == "あなた"


# --------------------------------------------------------------- preferences
def test_preferences_round_trip(store):
    setup = cpu_setup(9)
    stored = store.save_preferences({"language": "ja", "last_setup": setup, "sound": False, "volume": 0.5})
    assert stored["last_setup"] == setup.to_dict()
    assert store.preferences() == {
        "language": "ja",
        "last_setups": {"japan_conquest": {"game_version": 2, "setup": setup.to_dict()}},
        "last_setup": setup.to_dict(),  # short for Japan Conquest's
        "sound": False,
        "volume": 0.5,
    }
    assert store.last_setup() == setup == store.last_setup("japan_conquest")
    assert store.last_setup("codex") is None
    doc = json.loads((store.directory / "preferences.json").read_text(encoding="utf-8"))
    assert (doc["format"], doc["schema_version"], doc["saved_at"]) == (
        "conquest_widget.saves.preferences",
        2,
        "2025-03-04T05:06:07Z",
    )
    assert set(doc["preferences"]) == {"language", "last_setups", "sound", "volume"}  # stored once, per game
    store.save_preferences({"language": "en"})  # replaces
    assert store.preferences() == {"language": "en"} and store.last_setup() is None


@pytest.mark.parametrize(
    "prefs",
    [
        {"last_setup": {"players": []}},
        {"last_setup": "Tokyo"},
        {"language": 3},
        {1: "x"},
        {"x": object()},
        {"x": float("nan")},
        {"language": "fr"},
        {"x": "\ud800"},
        {"x": {"nested": 1}},
        {"last_setups": {"chess": {}}},
        ["language", "ja"],
    ],
)
def test_invalid_preferences_are_refused_before_writing(store, prefs):
    with pytest.raises(SaveError):
        store.save_preferences(prefs)
    assert not (store.directory / "preferences.json").exists()


# -------------------------------------------------------------------- backups
def fill(store: SaveStore) -> dict[str, JapanMatch]:
    games = {"auto": mid_battle_game(True), "s1": mid_route_game(), "s3": finished_game(8)}
    store.autosave(games["auto"])
    store.save_slot(1, games["s1"])
    store.save_slot(3, games["s3"])
    store.record_result(games["s3"])
    store.record_result(finished_game(9))
    store.save_preferences({"language": "ja", "last_setup": cpu_setup(1)})
    return games


def test_backup_export_inspect_restore_reproduces_everything(tmp_path, store):
    games = fill(store)
    path = tmp_path / "backup.json"
    doc = store.export_backup(path)
    assert json.loads(path.read_text(encoding="utf-8")) == doc
    assert (doc["format"], doc["schema_version"], doc["skipped"]) == ("conquest_widget.saves.backup", 3, [])

    summary = SaveStore(tmp_path / "other").inspect_backup(path)
    assert summary.valid and summary.problems == ()
    assert summary.autosave.status == "used" and summary.autosave.phase == "battle_defend"
    assert [s.status for s in summary.slots] == ["used", "empty", "used", "empty", "empty"]
    assert summary.slots[0].to_dict() == store.slot_info(1).to_dict()
    assert summary.results == 2 and summary.latest_result == store.latest_result()
    assert summary.records == store.all_records() and summary.preferences == store.preferences()
    assert summary.exported_at == "2025-03-04T05:06:07Z"
    json.dumps(summary.to_dict())  # plain data for the widget

    target = SaveStore(tmp_path / "restored")
    target.restore_backup(path)
    assert files(target.directory) == files(store.directory)
    assert [s.to_dict() for s in target.slots()] == [s.to_dict() for s in store.slots()]
    assert target.load_autosave().state.snapshot() == games["auto"].state.snapshot()
    assert target.load_slot(1).legal_moves() == games["s1"].legal_moves()
    assert target.results() == store.results() and target.records() == store.records()
    assert target.last_setup() == store.last_setup()
    assert target.pre_restore_backups() == []  # nothing to keep in an empty directory


def test_a_backup_is_never_written_over_a_data_file(store):
    fill(store)
    before = files(store.directory)
    with pytest.raises(SaveFileError, match="cannot be written over a file of the save data"):
        store.export_backup(store.directory / "slot-1.json")
    assert files(store.directory) == before
    store.export_backup(store.directory / "backup.json")  # any other name is fine


def test_backup_from_bytes_and_from_the_dict(tmp_path, store):
    fill(store)
    doc = store.export_backup()
    for source in (doc, json.dumps(doc).encode("utf-8")):
        target = SaveStore(tmp_path / f"t{type(source).__name__}", clock=lambda: FIXED)
        assert target.inspect_backup(source).valid
        target.restore_backup(source)
        assert files(target.directory) == files(store.directory)


def test_restore_replaces_current_data_and_keeps_the_previous_data(tmp_path, store):
    fill(store)
    backup = store.export_backup()
    other = SaveStore(tmp_path / "other", clock=lambda: FIXED)
    other.save_slot(2, mid_route_game())
    other.save_slot(5, mid_battle_game())
    previous = other.export_backup()
    other.restore_backup(backup)
    assert [s.status for s in other.slots()] == ["used", "empty", "used", "empty", "empty"]
    [kept] = other.pre_restore_backups()
    assert kept.name == "pre-restore-20250304T050607Z.backup.json"
    assert json.loads(kept.read_text(encoding="utf-8")) == previous
    other.restore_backup(kept)  # and back again
    assert [s.status for s in other.slots()] == ["empty", "used", "empty", "empty", "used"]
    assert other.results() == [] and len(other.pre_restore_backups()) == 2


def test_a_corrupt_backup_restores_nothing(tmp_path, store):
    fill(store)
    doc = store.export_backup()
    chance = next(e for e in doc["slots"]["3"]["match"]["log"] if e["seat"] == -1)
    chance["outcome"] = [7] * len(chance["outcome"])  # tampered: no die has 7 faces
    doc["slots"]["../../evil"] = doc["slots"]["1"]
    doc["results"]["results"][0]["standings"] = "nope"
    target = SaveStore(tmp_path / "target")
    target.save_slot(2, mid_route_game())
    target.save_preferences({"language": "en"})
    before = files(target.directory)

    summary = target.inspect_backup(doc)
    assert not summary.valid and len(summary.problems) == 3
    assert summary.slots[2].status == "corrupt" and "does not replay" in summary.slots[2].error
    with pytest.raises(InvalidBackupError) as exc:
        target.restore_backup(doc)
    message = str(exc.value)
    assert "nothing was changed" in message and "slots.3 (slot-3.json)" in message and "'../../evil'" in message
    assert files(target.directory) == before
    assert sorted(p.name for p in (tmp_path / "target").iterdir()) == [".lock", "preferences.json", "slot-2.json"]


@pytest.mark.parametrize(
    "payload, problem",
    [
        (b"{not json", "not valid JSON"),
        (b"[]", "expected a JSON object"),
        (b'{"format": "conquest_widget.saves.results", "schema_version": 1}', "wrong format"),
        (b'{"format": "conquest_widget.saves.backup", "schema_version": 99}', "newer"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_unreadable_backups_are_rejected(tmp_path, store, payload, problem):
    path = tmp_path / "backup.json"
    path.write_bytes(payload)
    for source in (path, payload):
        with pytest.raises(InvalidBackupError, match=problem):
            store.inspect_backup(source)
        with pytest.raises(InvalidBackupError, match=problem):
            store.restore_backup(source)
    with pytest.raises(InvalidBackupError, match="file not found"):
        store.inspect_backup(tmp_path / "missing.json")
    with pytest.raises(InvalidBackupError):
        store.inspect_backup(12)
    assert path.read_bytes() == payload and not store.directory.exists()


# ------------------------------------------------------------------- deletion
def test_delete_by_category_and_all_need_confirmation(store):
    fill(store)
    with pytest.raises(ConfirmationRequiredError):
        store.delete_all()
    with pytest.raises(ConfirmationRequiredError):
        store.delete_category("slots", confirm="yes")
    with pytest.raises(SaveError, match="unknown category"):
        store.delete_category("../x", confirm=True)
    assert len(files(store.directory)) == 6
    deleted = store.delete_category("slots", confirm=True)
    assert sorted(p.name for p in deleted) == ["slot-1.json", "slot-3.json"]
    assert store.has_autosave() and len(store.results()) == 2
    store.delete_category("records", confirm=True)
    assert store.records() == {} and len(store.results()) == 2
    (store.directory / "slot-2.json").write_text("garbage")
    with pytest.warns(SaveWarning, match="slot-2.corrupt-20250304T050607Z.json"):
        store.save_slot(2, mid_route_game(), overwrite=True)  # the garbage is kept aside
    assert len(store.set_aside_files()) == 1
    deleted = store.delete_all(confirm=True)
    assert {p.name for p in deleted} >= {"autosave.json", "results.json", "preferences.json", "slot-2.json"}
    assert files(store.directory) == {}


def test_all_errors_belong_to_the_conquest_family():
    for cls in (SlotOccupiedError, InvalidSlotError, EmptySlotError, InvalidBackupError, ConfirmationRequiredError):
        assert issubclass(cls, SaveError) and issubclass(cls, ConquestError)
