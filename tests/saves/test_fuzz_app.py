"""Accepted must mean usable (issue 17): Hypothesis mutates every kind of save document
(game saves, results, records, preferences, backups) with hostile values; whatever a
loader accepts, the app is then built on (``JapanConquestApp(save_dir=...)``, under a
far-east time zone) and every screen is opened — start, Continue, Resume of each slot,
Previous Results and records, setup, the game and results screens, Save Data (export and
inspect).  A refused file must be reported (CorruptSaveError naming it) and the app must
still open.  Kept to a few dozen examples per loader so the file runs in well under a minute."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_saves import finished_game, mid_battle_game, mid_route_game

from conquest_widget.errors import CorruptSaveError, InvalidBackupError
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup
from conquest_widget.games.japan_conquest.widget import JapanConquestApp
from conquest_widget.saves import SaveStore

# the app's autosave moves an unreadable autosave aside, with a SaveWarning: expected here
pytestmark = pytest.mark.filterwarnings("ignore::conquest_widget.errors.SaveWarning")

#: build the app on one refused file in eight as well
SOMETIMES = st.integers(0, 7).map(lambda n: n == 0)
FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


def _valid_directory() -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as d:
        s = SaveStore(d)
        s.autosave(mid_battle_game(True))
        s.save_slot(1, mid_route_game())
        s.save_slot(2, finished_game(3))
        s.record_result(finished_game(3))
        setup = GameSetup(
            players=(PlayerSetup("Aiko", 13, "#00aa00"), PlayerSetup("CPU", 27, cpu=True, difficulty="hard")),
            mode="standard",
            turns=15,
        )
        s.save_preferences({"language": "ja", "last_setup": setup})
        return {p.name: p.read_bytes() for p in Path(d).iterdir() if p.name != ".lock"}


VALID = _valid_directory()

HOSTILE_TEXT = [
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "\u202eevil",
    "",
    " ",
    "x" * 300,
    "\ud800",
    "0001-01-01T00:00:00+05:00",
    "9999-12-31T23:59:59Z",
    "1970-01-01T00:00:00+14:00",
    "2999-12-31T23:59:59-12:00",
    "fr",
    "ja",
    "blitz",
    "conquest",
    "total_conquest",
    "#ZZZZZZ",
    "#00FF00",
    "zzz",
    "hard",
    "defensive",
    "japan_conquest",
    "codex",
    "foo:bar",
    "japan_conquest:hard:balanced",
    "scripted",
    "Tokyo",
]
#: text a loader may accept: HTML-looking names (shown escaped), valid colours, dates at
#: the accepted edges in extreme time zones, other modes/strategies/languages
PLAUSIBLE_TEXT = [
    "<img src onerror=x=1>",
    "<b id=inj>B</b>",
    "名前",
    "#00aa00",
    "#FFFFFF",
    "1970-01-01T00:00:00+14:00",
    "9000-12-31T23:59:59-12:00",
    "2025-03-04T05:06:07Z",
    "ja",
    "en",
    "conquest",
    "total_conquest",
    "easy",
    "aggressive",
    "expansionist",
    "turns",
    "slot",
    "autosave",
]
HOSTILE = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.sampled_from([None, True, False, 0, -1, 1, 2, 3, 4, 5, 6, 13, 27, 47, 48, 2**31, 2**70, 1.5, 1e308, [], {}]),
    st.integers(-5, 60),
    st.text(max_size=12),
)


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


@st.composite
def mutated_doc(draw: Any, doc: Any) -> Any:
    """``doc`` with one to three hostile changes: a value replaced, a key deleted or renamed."""
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        outside = [p for p in paths if "snapshot" not in p]  # the snapshot guards itself
        path = draw(st.sampled_from(outside if outside and draw(st.booleans()) else paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        how = draw(st.sampled_from(["same-type", "same-type", "same-type", "set", "delete", "rename"]))
        old = parent[path[-1]]
        if how == "same-type" and isinstance(old, str):  # plausible text: often accepted
            parent[path[-1]] = draw(st.sampled_from(PLAUSIBLE_TEXT) | st.text(min_size=1, max_size=8))
        elif how == "same-type" and isinstance(old, bool):
            parent[path[-1]] = not old
        elif how == "same-type" and isinstance(old, int):
            parent[path[-1]] = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 10, 15, 30, 47]) | st.integers(-2, 60))
        elif how in ("same-type", "set"):
            parent[path[-1]] = draw(HOSTILE)
        elif how == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            new = draw(st.sampled_from(HOSTILE_TEXT))
            parent[new] = parent.pop(path[-1])
    match = doc.get("match") if isinstance(doc, dict) else None
    if isinstance(match, dict) and draw(st.booleans()):
        # an edit by someone who also recomputes the snapshot: a legal but edited game
        with contextlib.suppress(Exception):  # not replayable: the loader must refuse it anyway
            match["snapshot"] = JapanMatch.from_dict(match, verify=False).state.snapshot()
    return doc


@contextmanager
def tokyo_time() -> Iterator[None]:
    """Dates are shown in local time: test them where 9999-12-31T23:59:59Z overflows."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Tokyo"
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = old
        time.tzset()


def _walk(w: Any) -> Iterator[Any]:
    yield w
    for c in getattr(w, "children", ()):
        yield from _walk(c)


def _click_if_shown(app: Any, css: str) -> bool:
    """Click the button of class ``css`` if the screen offers it; True if it did."""
    found = [w for w in _walk(app) if css in getattr(w, "_dom_classes", ()) and hasattr(w, "click")]
    if found:
        found[0].click()
    return bool(found)


def _open_game_screens(app: Any) -> None:
    """The screens of the game on screen: Save (its slot list), the results, the replay of
    a finished game and Back."""
    if app.controller is None:
        return
    if app.screen == "play":
        assert _click_if_shown(app, "cw-save")  # the Save box lists every slot
        _click_if_shown(app, "cw-save-cancel")
    if app.controller.is_over:
        app.show_results()
        assert app.screen == "results"
        assert _click_if_shown(app, "cw-replay-finished") and app.screen == "replay"
        assert _click_if_shown(app, "cw-back") and app.screen == "results"


def open_every_screen(directory: Path, langs: tuple[str, ...] = ("ja",)) -> set[str]:
    """Build the app on ``directory`` and use every screen (by its buttons where the start
    screen offers them, else by the app's method: refused, never an exception); any
    exception fails the test.  Returns what opened: "resume", "load-<n>", "replay-<n>",
    "replay-autosave" (the screen it leads to shown)."""
    opened: set[str] = set()
    with tokyo_time():
        app = JapanConquestApp(save_dir=directory)
        for lang in langs:
            app.set_lang(lang)
            app.show_start()
            assert app.screen == "start"
            assert _click_if_shown(app, "cw-previous-results")
            if app.screen == "previous_results":
                assert _click_if_shown(app, "cw-back") and app.screen == "start"
            else:  # an unreadable results file: said, and the start screen stays
                assert app.screen == "start" and "results.json" in app.message.value, app.message.value
                opened.add("results refused")
            if _click_if_shown(app, "cw-resume"):
                assert app.controller is not None, app.message.value
                opened.add("resume")
            else:
                app.resume()
            _open_game_screens(app)
            app.show_start()
            if _click_if_shown(app, "cw-replay-autosave"):
                assert app.screen == "replay", app.message.value
                opened.add("replay-autosave")
            else:
                app.replay(None)
            for n in range(1, 6):
                app.show_start()
                if _click_if_shown(app, f"cw-load-{n}"):
                    assert app.controller is not None, app.message.value
                    opened.add(f"load-{n}")
                else:
                    app.load_slot(n)
                _open_game_screens(app)
                app.show_start()
                if _click_if_shown(app, f"cw-replay-{n}"):
                    assert app.screen == "replay", app.message.value
                    opened.add(f"replay-{n}")
                else:
                    app.replay(n)
            app.show_start()
            assert _click_if_shown(app, "cw-new-game") and app.screen == "setup"  # from the remembered setup
            app.set_lang("en" if lang == "ja" else "ja")
            app.set_lang(lang)
            app.show_start()
            assert _click_if_shown(app, "cw-save-data") and app.screen == "save_data"
            assert app.save_data is not None
            doc = app.save_data.export()
            app.save_data.inspect(json.dumps(doc).encode("utf-8"))
            app.show_start()
        app.close()
    return opened


def run_file_case(name: str, doc: Any, app_anyway: bool) -> None:
    """Load the mutated file; build the app on it when it was accepted (and, for some
    refused files, too: the app must open and report them)."""
    with tempfile.TemporaryDirectory() as d:
        directory = Path(d)
        for n, b in VALID.items():
            (directory / n).write_bytes(b)
        (directory / name).write_text(json.dumps(doc, ensure_ascii=True), encoding="utf-8")
        s = SaveStore(directory)
        load = {
            "autosave.json": s.load_autosave,
            "slot-1.json": lambda: s.load_slot(1),
            "results.json": lambda: (s.results(), s.latest_result()),
            "records.json": lambda: (s.records(), s.all_records()),
            "preferences.json": lambda: (s.preferences(), s.last_setup()),
        }[name]
        try:
            load()
        except CorruptSaveError as exc:
            assert name in str(exc) and s.problems() == {name: exc.problem}
            accepted = False
        else:
            assert s.problems() == {}
            accepted = True
        if accepted or app_anyway:
            open_every_screen(directory)


def _doc(name: str) -> Any:
    return json.loads(VALID[name])


@FUZZ
@given(mutated_doc(_doc("slot-1.json")), SOMETIMES)
def test_fuzzed_slots_are_refused_or_usable(doc, app_anyway):
    run_file_case("slot-1.json", doc, app_anyway)


@FUZZ
@given(mutated_doc(_doc("autosave.json")), SOMETIMES)
def test_fuzzed_autosaves_are_refused_or_usable(doc, app_anyway):
    run_file_case("autosave.json", doc, app_anyway)


@FUZZ
@given(mutated_doc(_doc("results.json")), SOMETIMES)
def test_fuzzed_results_are_refused_or_usable(doc, app_anyway):
    run_file_case("results.json", doc, app_anyway)


@FUZZ
@given(mutated_doc(_doc("records.json")), SOMETIMES)
def test_fuzzed_records_are_refused_or_usable(doc, app_anyway):
    run_file_case("records.json", doc, app_anyway)


@FUZZ
@given(mutated_doc(_doc("preferences.json")), SOMETIMES)
def test_fuzzed_preferences_are_refused_or_usable(doc, app_anyway):
    run_file_case("preferences.json", doc, app_anyway)


def _backup() -> Any:
    with tempfile.TemporaryDirectory() as d:
        for n, b in VALID.items():
            (Path(d) / n).write_bytes(b)
        return SaveStore(d).export_backup()


@FUZZ
@given(mutated_doc(_backup()), SOMETIMES)
def test_fuzzed_backups_restore_completely_and_usably_or_not_at_all(doc, app_anyway):
    with tempfile.TemporaryDirectory() as d:
        directory = Path(d)
        target = SaveStore(directory)
        payload = json.dumps(doc, ensure_ascii=True).encode("utf-8")
        try:
            target.restore_backup(payload, keep_previous=False)
        except InvalidBackupError:
            assert not directory.exists() or [p.name for p in directory.iterdir()] in ([], [".lock"])
            accepted = False
        else:
            assert target.problems() == {}
            accepted = True
        if accepted or app_anyway:
            open_every_screen(directory)


def test_the_valid_directory_itself_opens_every_screen(tmp_path):
    for n, b in VALID.items():
        (tmp_path / n).write_bytes(b)
    assert SaveStore(tmp_path).problems() == {}
    opened = open_every_screen(tmp_path, ("en", "ja"))
    assert opened == {"resume", "replay-autosave", "load-1", "load-2", "replay-1", "replay-2"}, opened
