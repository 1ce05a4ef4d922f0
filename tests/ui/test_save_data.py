"""The shell app's save-data screens (issue 29): Previous results, Save data (export,
restore, delete all), Delete per slot, as a player of a hosted game (the Codex) sees them."""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from ipywidgets.widgets.widget import _instances

from conquest_widget.core.bots import RandomBot, play_bots
from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
from conquest_widget.games.codex.setup import CodexPlayer
from conquest_widget.games.codex.widget import App
from conquest_widget.saves import SaveStore

from .player import button

HOSTILE = "<img src=x onerror=cw()>"
HOSTILE2 = "<svg onload=cw()>"


@pytest.fixture(autouse=True)
def _no_widget_of_another_test():
    for w in list(_instances.values()):
        w.close()
    yield
    for w in list(_instances.values()):
        w.close()


def codex(seed: int, *, finish: bool, names: tuple[str, str] = (HOSTILE, HOSTILE2)) -> CodexMatch:
    m = CodexMatch(CodexSetup((CodexPlayer(names[0], "#d62728"), CodexPlayer(names[1], "#1f77b4", cpu=True)), k=3),
                   seed=seed)
    play_bots(m, {0: RandomBot(), 1: RandomBot()}, seed=seed, max_actions=100_000 if finish else 6)
    assert (m.outcome() is not None) == finish
    return m


def upload(screen, name: str, data: bytes) -> None:
    """The player picks a file in the screen's upload button (as the page sends it)."""
    screen.upload.value = ({"name": name, "type": "application/json", "size": len(data), "content": memoryview(data),
                            "last_modified": datetime(2026, 1, 1, tzinfo=UTC)},)


def files(folder: Path) -> dict[str, bytes]:
    """Every file of the save folder with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def text(widget) -> str:
    """Every HTML and button label under ``widget``, as one string."""
    out = []

    def walk(w):
        if hasattr(w, "value") and isinstance(w.value, str):
            out.append(w.value)
        if hasattr(w, "description") and isinstance(w.description, str):
            out.append(w.description)
        for c in getattr(w, "children", ()):
            walk(c)
    walk(widget)
    return "\n".join(out)


@pytest.fixture
def saves(tmp_path) -> Path:
    folder = tmp_path / "saves"
    store = SaveStore(folder)
    store.save_slot(2, codex(1, finish=False))
    store.record_result(codex(3, finish=True))
    return folder


def test_export_delete_all_restore_gives_back_the_same_slots_and_results(saves) -> None:
    app = App(save_dir=saves, lang="en")
    store = SaveStore(saves)
    before = ([s.to_dict() for s in store.slots()], store.results("codex"))
    button(app, "cw-save-data").click()
    assert app.screen == "save_data"
    screen = app.save_data
    button(screen, "cw-export").click()
    backup = base64.b64decode(re.search(r'href="data:application/json;base64,([^"]+)"', screen.export_link.value).group(1))
    button(screen, "cw-delete-all").click()
    assert store.slot_info(2).status == "used"  # asked first
    assert "Really delete" in screen.confirm.text.value
    screen.confirm.yes.click()
    assert store.slot_info(2).status == "empty" and store.results("codex") == []
    assert screen.message.value == "Deleted"
    upload(screen, "mine.json", backup)
    assert "1 used slot(s), 1 result(s)" in screen.summary.value
    assert screen.restore_button.layout.display == ""
    screen.restore_button.click()
    assert screen.message.value == "Backup restored"
    assert ([s.to_dict() for s in store.slots()], store.results("codex")) == before
    button(screen, "cw-back").click()
    assert app.screen == "start" and app.save_data.comm is None
    button(app, "cw-load-2").click()  # the restored slot loads
    assert app.screen == "play"


@pytest.mark.parametrize("bad", [b"this is not a backup", b'{"format": "conquest_widget-backup", "version": 99}',
                                 b"<script>alert(1)</script>"])
def test_a_corrupt_backup_is_named_and_changes_nothing(saves, bad) -> None:
    app = App(save_dir=saves, lang="en")
    before = files(saves)
    app.show_save_data()
    screen = app.save_data
    name = "<b>evil</b>.json"
    upload(screen, name, bad)
    assert "&lt;b&gt;evil&lt;/b&gt;.json cannot be restored" in screen.summary.value
    assert "<b>evil" not in screen.summary.value and "<script>" not in screen.summary.value
    assert screen.restore_button.layout.display == "none"
    screen.restore()  # nothing pending: nothing happens
    assert files(saves) == before


def test_a_backup_with_a_bad_part_is_named_and_restore_changes_nothing(saves) -> None:
    store = SaveStore(saves)
    doc = store.export_backup()
    raw = json.dumps(doc)
    broken = raw.replace('"standings"', '"standingz"', 1).encode()
    assert broken != raw.encode()
    before = files(saves)
    app = App(save_dir=saves, lang="en")
    app.show_save_data()
    app.save_data.inspect(broken, name="old.json")
    assert "old.json cannot be restored" in app.save_data.summary.value
    assert app.save_data.restore_button.layout.display == "none"
    app.save_data._pending = broken  # even pushed to restore: refused, named, nothing changed
    app.save_data.restore()
    assert "old.json cannot be restored" in app.save_data.message.value
    assert files(saves) == before


def test_hostile_names_are_text_in_previous_results_and_slot_lines(saves) -> None:
    app = App(save_dir=saves, lang="en")
    start = text(app.body)
    assert html_escaped(HOSTILE) in start and HOSTILE not in start  # slot 2's line
    button(app, "cw-previous-results").click()
    assert app.screen == "previous_results"
    shown = text(app.body)
    assert html_escaped(HOSTILE) in shown and html_escaped(HOSTILE2) in shown  # the standings
    assert HOSTILE2 not in shown and HOSTILE not in shown
    winner = SaveStore(saves).results("codex")[0]["winners"][0]
    assert re.search(rf"\d{{4}}-\d\d-\d\d \d\d:\d\d: {re.escape(html_escaped(winner))} won", shown)  # date, winner
    # the backup summary's slot lines
    app.show_save_data()
    app.save_data.inspect(json.dumps(SaveStore(saves).export_backup()).encode(), name="b.json")
    summary = app.save_data.summary.value
    assert html_escaped(HOSTILE) in summary and HOSTILE not in summary


def html_escaped(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_previous_results_show_the_20_newest_and_how_many_more(tmp_path) -> None:
    store = SaveStore(tmp_path)
    for seed in range(23):
        assert store.record_result(codex(seed, finish=True, names=(f"P{seed}", f"Q{seed}")))
    app = App(save_dir=tmp_path, lang="en")
    app.show_previous_results()
    shown = text(app.body)
    assert shown.count("<li>") == 20
    assert "…and 3 older games" in shown
    newest = store.results("codex")[0]["standings"]
    assert all(r["name"] in shown for r in newest)
    oldest = store.results("codex")[-1]["standings"]
    assert not any(re.search(rf"\b{r['name']}\b", shown) for r in oldest)
    button(app, "cw-back").click()
    assert app.screen == "start"


def test_no_results_yet(tmp_path) -> None:
    app = App(save_dir=tmp_path, lang="en")
    app.show_previous_results()
    assert "No finished game of this game is recorded yet." in text(app.body)


def test_a_slot_is_deleted_after_a_yes_and_kept_after_a_no(saves) -> None:
    app = App(save_dir=saves, lang="en")
    store = SaveStore(saves)
    with pytest.raises(AssertionError):
        button(app, "cw-delete-1")  # an empty slot has none
    button(app, "cw-delete-2").click()
    confirm = app._start_confirm
    assert confirm.layout.display == "" and "Delete slot 2?" in confirm.text.value
    confirm.no.click()
    assert store.slot_info(2).status == "used" and confirm.layout.display == "none"
    button(app, "cw-delete-2").click()
    app._start_confirm.yes.click()
    assert store.slot_info(2).status == "empty"
    assert "Slot 2 deleted." in app.message.value
    assert "Slot 2: empty" in text(app.body)
    with pytest.raises(AssertionError):
        button(app, "cw-delete-2")


def test_labels_in_english_and_japanese(saves) -> None:
    app = App(save_dir=saves, lang="en")
    assert button(app, "cw-previous-results").description == "Previous results"
    assert button(app, "cw-save-data").description == "Save data"
    assert button(app, "cw-delete-2").description == "Delete"
    app.set_lang("ja")
    assert button(app, "cw-previous-results").description == "前回までの結果"
    assert button(app, "cw-save-data").description == "セーブデータ管理"
    assert button(app, "cw-delete-2").description == "削除"
    app.show_previous_results()
    assert "勝ち" in text(app.body)
    app.set_lang("en")
    assert " won" in text(app.body) and app.screen == "previous_results"
    app.show_save_data()
    screen = app.save_data
    screen.inspect(b"not a backup", name="x.json")
    app.set_lang("ja")
    assert app.save_data is screen and app.screen == "save_data"  # the same screen, relabelled
    assert button(screen, "cw-export").description == "バックアップを書き出す"
    assert button(screen, "cw-delete-all").description == "すべてのセーブデータを削除"
    assert button(screen, "cw-back").description == "戻る"
    assert "x.json cannot be restored" in screen.summary.value  # what it showed stays
    button(screen, "cw-delete-all").click()
    assert screen.confirm.yes.description == "はい" and screen.confirm.no.description == "いいえ"
    screen.confirm.no.click()
    assert SaveStore(saves).slot_info(2).status == "used"
