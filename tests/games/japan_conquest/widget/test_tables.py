"""Japan Conquest with each player at their own screen (issue 28), kernel side: the New
game form's Separate screens makes a table and shows its links; a seat link opens the
seat's page with the playable Japan board; two pages play a whole game by the board's
own controls (Roll, clicks on the map, Confirm, the battle dice, Continue), each showing
the other's moves after a look at the store, and both end on the results."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from conquest_widget import tables
from conquest_widget.games.japan_conquest import GameSetup
from conquest_widget.games.japan_conquest.widget.board import JapanBoard
from conquest_widget.games.japan_conquest.widget.shell import UI
from conquest_widget.ui.app import ConquestApp
from conquest_widget.ui.table_page import TablePage
from conquest_widget.ui.text import t
from tests.games.japan_conquest.widget.conftest import button as _button
from tests.games.japan_conquest.widget.conftest import click_map
from tests.games.japan_conquest.widget.conftest import walk as _walk


def _shown(widget) -> bool:
    """Is it shown in the page?  A panel's button or text (read from its scene), or a widget."""
    shown = getattr(widget, "shown", None)
    return bool(shown) if shown is not None else widget.layout.display != "none"








def _links(app) -> dict[str, str]:
    """The links the links screen shows (class → address)."""
    assert app.screen == "links"
    text = "".join(w.value for w in _walk(app.body) if isinstance(getattr(w, "value", None), str))
    return {cls: html.unescape(url) for cls, url in re.findall(r"<a class='([\w-]+)' href='([^']+)'", text)}


def test_separate_screens_makes_a_table_and_a_link_opens_the_seat(app, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONQUEST_TABLES_STORE", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    for k, v in {"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8866", "SCRIPT_NAME": "/", "QUERY_STRING": ""}.items():
        monkeypatch.setenv(k, v)
    _button(app, "cw-new-game").click()
    form = app.form
    form.count.value = 3
    form.rows[1].kind.value = False  # seat 2: a human
    form.rows[2].kind.value = True  # seat 3: a CPU
    form.seed.value = "7"
    form.screens.value = "tables"
    form.click("start")
    assert app.screen == "links" and app.controller is None, app.message.value
    links = _links(app)
    assert sorted(links) == ["cw-seat-link-0", "cw-seat-link-1", "cw-watch-link"]  # no link for the CPU
    assert all(url.startswith("http://127.0.0.1:8866/?table=") for url in links.values())
    store = tables.open_store(tmp_path / "saves")
    (row,) = tables.list_tables(store)
    assert row.game == "japan_conquest"
    # the language switch rebuilds the links screen in Japanese
    app.set_lang("ja")
    assert app.screen == "links" and "テーブルができました" in app.body.children[0].value
    assert t("table_links", "ja") in app.title.value and t("table_made", "en") not in app.body.children[0].value
    assert _links(app) == links
    # each link opens its seat's page with the Japan board, to be played
    monkeypatch.setenv("QUERY_STRING", links["cw-seat-link-1"].partition("?")[2])
    shell = ConquestApp(save_dir=tmp_path / "saves")
    page = shell.game_widget
    assert isinstance(page, TablePage) and page.seat == 1
    assert isinstance(page.board, JapanBoard) and page.board.live
    page.leave()
    # a bad form makes no table and says why
    _button(app, "cw-new-game").click()
    form = app.form
    form.screens.value = "tables"
    form.rows[1].home.value = form.rows[0].home.value
    form.click("start")
    assert app.screen == "setup"
    assert "same home" in form.problem or "同じ" in form.problem, form.problem  # said on the form
    assert app.message.value == ""  # once
    assert len(tables.list_tables(store)) == 1


def _act(board: JapanBoard) -> None:
    """What the page's player does now, by the board's controls as a player would."""
    c = board.inner
    if c.battle_report and c.battle_report.get("human") and _shown(board.battle_panel.ok_button):
        board.battle_panel.ok_button.click()
        return
    if c.phase == "roll":
        assert _shown(board.turn_panel.roll_button)
        board.turn_panel.roll_button.click()
    elif c.phase == "route":
        prefs, me = c.view["prefectures"], c.view["actor"]
        theirs = [p for p in c.legal_steps if prefs[str(p)]["owner"] not in (None, me)]
        if theirs:  # into the other player's land: a battle
            click_map(board, theirs[0])
        elif c.can_confirm:
            board.turn_panel.confirm_button.click()
        else:
            click_map(board, c.legal_steps[-1])
    else:
        shown = [b for b in board.battle_panel.buttons if _shown(b) and _shown(board.battle_panel)]
        assert shown, "a battle roll offers its dice"
        shown[0].click()


def test_two_screens_play_a_whole_game_by_clicks(tmp_path: Path) -> None:
    store = tables.open_store(tmp_path)
    setup = GameSetup.quick(["Tokyo", "Shizuoka"], turns=5, seed=11)
    new = tables.create_table(store, "japan_conquest", setup, ["human", "human"], seed=11)
    pages = {s: TablePage(tables.join(store, new.invites[s]), UI, start=False) for s in (0, 1)}
    watch = TablePage(tables.join(store, new.watch), UI, start=False)
    boards = {s: p.board for s, p in pages.items()}
    assert isinstance(boards[0], JapanBoard)
    moves = battles = 0
    while not pages[0].table.is_over:
        mover = next((s for s in (0, 1) if boards[s].inner.human_to_act
                      or (boards[s].inner.battle_report.get("human") and _shown(boards[s].battle_panel.ok_button))), None)
        assert mover is not None, "somebody can act"
        other = 1 - mover
        if boards[other].inner.view and not boards[other].inner.is_over:
            # the page not to act offers nothing to press and says whom it waits for
            inner = boards[other].inner
            if not inner.human_to_act:
                assert not _shown(boards[other].turn_panel.roll_button)
                assert not _shown(boards[other].turn_panel.confirm_button)
                assert not (_shown(boards[other].battle_panel) and any(_shown(b) for b in boards[other].battle_panel.buttons))
        before = pages[mover].table.version
        battles += bool(boards[mover].inner.battle_report.get("human"))
        _act(boards[mover])
        moves += 1
        assert not pages[mover].table.message, pages[mover].table.message
        for p in (*pages.values(), watch):
            p.table.poll()
        if pages[mover].table.version != before:  # a move was made: every page shows it
            view = tables.join(store, new.invites[other]).view()
            assert boards[other].inner.view == view
        assert moves < 2000
    assert moves > 20 and battles >= 2  # battles fought and each result seen to Continue
    for p in (*pages.values(), watch):
        assert _shown(p.results), "every page ends on the results"
        assert "Tokyo" in p.results.value or "Player 1" in p.results.value
        assert "Game over" in p.board.turn_panel.title.value and "turn" not in p.board.turn_panel.title.value
    # the watch page never offered a move
    assert not watch.board.inner.human_to_act
    # Replay, now that the game is over: the shell's explorer on Japan Conquest's board, every view
    watch.replay_button.click()
    explorer = watch.explorer
    assert explorer is not None and not explorer.public_only
    (board,) = explorer.boards_shown
    assert isinstance(board, JapanBoard) and not board.live
    watch.show_table()
    assert watch.explorer is None


def test_a_refused_step_is_explained_in_the_games_words(tmp_path: Path) -> None:
    store = tables.open_store(tmp_path)
    setup = GameSetup.quick(["Tokyo", "Osaka"], turns=5, seed=1)
    new = tables.create_table(store, "japan_conquest", setup, ["human", "human"], seed=1)
    page = TablePage(tables.join(store, new.invites[0]), UI, start=False)
    board = page.board
    board.turn_panel.roll_button.click()
    version = page.table.version
    click_map(board, 40)  # Fukuoka, far from Tokyo
    assert "Fukuoka" in board.turn_panel.msg.value
    assert board.inner.route == [] and tables.join(store, new.invites[0]).view()["route"] == []
    assert "Fukuoka" not in page.message.value  # said once, in the turn panel
    assert page.table.version >= version
    # the other seat's page cannot act and says so without touching the game
    other = TablePage(tables.join(store, new.invites[1]), UI, start=False)
    assert not other.board.inner.human_to_act
    assert "Waiting for" in other.board.turn_panel.msg.value
