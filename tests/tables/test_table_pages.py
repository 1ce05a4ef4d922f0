"""The app's table pages (issue 28) on both stores: the store named by
``CONQUEST_TABLES_STORE`` (what ``conquest-widget play --store`` sets) takes the tables of
the New game form, and a seat link opens its seat from it."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from conquest_widget import tables
from conquest_widget.games.conquest_cards.widget import App as CardsApp
from conquest_widget.ui.app import ConquestApp
from conquest_widget.ui.table_page import TablePage


def test_the_form_and_the_links_use_the_store_of_the_environment(where: str, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    for k, v in {"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8866", "SCRIPT_NAME": "/", "QUERY_STRING": ""}.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("CONQUEST_TABLES_STORE", where)
    saves = tmp_path / "saves"
    app = CardsApp(save_dir=saves)
    app.new_game()
    app.n_players.value = 2
    app.seat_rows[1][1].value = "normal"
    app.screens.value = "tables"
    app.start()
    links = dict(re.findall(r"<a class='([\w-]+)' href='([^']+)'", app.body.children[0].value))
    assert sorted(links) == ["cw-seat-link-0", "cw-watch-link"]
    assert len(tables.list_tables(tables.open_store(where))) == 1
    monkeypatch.setenv("QUERY_STRING", html.unescape(links["cw-seat-link-0"]).partition("?")[2])
    shell = ConquestApp(save_dir=saves)
    assert isinstance(shell.game_widget, TablePage) and shell.game_widget.seat == 0
    assert shell.game_widget.table.legal  # the CPU has played up to the human's turn


def test_play_takes_the_store_of_the_tables() -> None:
    from conquest_widget.cli import build_parser

    args = build_parser().parse_args(["play", "--store", "postgresql://teacher@db/tables"])
    assert args.store == "postgresql://teacher@db/tables"
    assert build_parser().parse_args(["play"]).store is None
