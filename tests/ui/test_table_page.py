"""The app's pages for game tables (issue 28), kernel side: the New game form's "Separate
screens" makes a table and shows its links; a page whose address is a seat link opens that
seat (the watch link the public view); a bad link says so and nothing more; a reload
returns to the same seat; the pages follow each other's moves, end with the results on
every page, and replay the table.  Real SQLite stores (and the PostgreSQL fixture's
server for the store from the environment); the boards are the games' own."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import ipywidgets as W
import pytest

from conquest_widget import tables
from conquest_widget.games.codex.widget import App as CodexApp
from conquest_widget.games.conquest_cards.widget import App as CardsApp
from conquest_widget.ui.app import ConquestApp
from conquest_widget.ui.table_page import TablePage

SERVER = {"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8866", "SCRIPT_NAME": "/"}


@pytest.fixture(autouse=True)
def a_page_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's kernel is one Voilà started for its page (not preheated): the page's
    request is in the environment."""
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.delenv("CONQUEST_TABLES_STORE", raising=False)
    for k, v in {**SERVER, "QUERY_STRING": ""}.items():
        monkeypatch.setenv(k, v)


def make_table(app, kinds: list[str], *, seed: int = 7, lang: str | None = None) -> dict[str, str]:
    """Fill the New game form (``kinds``: "human" or a CPU level per seat), choose
    Separate screens, Start: the links shown, by their class (cw-seat-link-<n>, cw-watch-link)."""
    app.new_game()
    if lang:
        app.set_lang(lang)
    app.n_players.value = len(kinds)
    for (_name, kind), k in zip(app.seat_rows, kinds, strict=False):
        kind.value = k
    app.seed.value = str(seed)
    app.screens.value = "tables"
    app.start()
    assert app.screen == "links", app.message.value
    shown = app.body.children[0].value
    return {cls: html.unescape(url) for cls, url in re.findall(r"<a class='([\w-]+)' href='([^']+)'", shown)}


def open_page(monkeypatch: pytest.MonkeyPatch, folder: Path, url: str, **kw) -> ConquestApp:
    """The app as a page whose address is ``url`` opens it (its kernel's environment has the request)."""
    monkeypatch.setenv("QUERY_STRING", url.partition("?")[2])
    return ConquestApp(save_dir=folder, **kw)


def page(shell: ConquestApp) -> TablePage:
    assert isinstance(shell.game_widget, TablePage), shell.body.children
    return shell.game_widget


def states(widget: W.Widget) -> str:
    """Everything ``widget``'s tree sends to its page (every model's state), as text."""
    seen, out, stack = set(), [], [widget]
    while stack:
        w = stack.pop()
        if id(w) in seen or not isinstance(w, W.Widget):
            continue
        seen.add(id(w))
        out.append(json.dumps(w.get_state(), default=str, ensure_ascii=False))
        for name in w.keys:
            value = getattr(w, name, None)
            stack.extend(value if isinstance(value, (list, tuple)) else [value])
    return "\n".join(out)


def test_separate_screens_makes_a_table_with_a_link_per_human_seat_and_a_watch_link(tmp_path: Path) -> None:
    app = CardsApp(save_dir=tmp_path)
    links = make_table(app, ["human", "human", "easy"])
    assert sorted(links) == ["cw-seat-link-0", "cw-seat-link-1", "cw-watch-link"]  # no link for the CPU
    for url in links.values():
        assert url.startswith("http://127.0.0.1:8866/?table=")  # the same server page, with a query string
    seat = tables.parse_link(links["cw-seat-link-1"].partition("?")[2])
    watch = tables.parse_link(links["cw-watch-link"].partition("?")[2])
    assert seat.seat == 1 and watch.seat is None and seat.table == watch.table
    store = tables.open_store(tmp_path)  # the save folder's tables.sqlite3
    (row,) = tables.list_tables(store)
    assert row.id == seat.table and row.game == "conquest_cards" and row.seed == 7
    assert [(s.kind, s.bot) for s in store.seats(row.id)] == [("human", None), ("human", None), ("cpu", "easy")]
    assert (tmp_path / "tables.sqlite3").is_file()
    # the links as text too, to copy
    text = next(w for w in app.body.children if isinstance(w, W.Textarea)).value
    assert all(url in text for url in links.values())


def test_the_form_and_the_links_speak_japanese(tmp_path: Path) -> None:
    app = CodexApp(save_dir=tmp_path, lang="ja")
    app.new_game()
    assert [label for label, _ in app.screens.options] == ["1つの画面", "各自の画面"]
    links = make_table(app, ["human", "normal"])
    assert "テーブルができました" in app.body.children[0].value and "cw-seat-link-0" in links
    app.set_lang("en")
    assert "The table is ready" in app.body.children[0].value


def test_one_screen_is_still_the_default(tmp_path: Path) -> None:
    app = CardsApp(save_dir=tmp_path)
    app.new_game()
    app.start()
    assert app.screen == "play" and app.controller is not None
    assert not (tmp_path / "tables.sqlite3").exists()


def test_a_seat_link_opens_that_seat_and_its_page_holds_no_key(tmp_path: Path, monkeypatch) -> None:
    links = make_table(CardsApp(save_dir=tmp_path), ["human", "human"])
    shells = {s: open_page(monkeypatch, tmp_path, links[f"cw-seat-link-{s}"]) for s in (0, 1)}
    for s, shell in shells.items():
        p = page(shell)
        assert p.seat == s and p.table.viewer == s and shell.game_id == "conquest_cards"
        assert f"(seat {s + 1})" in p.title.value
        sent = states(shell)
        keys = [tables.parse_link(u.partition("?")[2]).key for u in links.values()]
        assert not [k for k in keys if k in sent]  # no key at all: not even its own
    # each page's hand is its own: the cards it shows are those of its seat's view
    hands = [set(page(shells[s]).board.hand_codes()) for s in (0, 1)]
    assert hands[0] and hands[1] and not hands[0] & hands[1]


def test_the_watch_link_shows_the_public_view_and_cannot_act(tmp_path: Path, monkeypatch) -> None:
    links = make_table(CardsApp(save_dir=tmp_path), ["human", "human"])
    watch = page(open_page(monkeypatch, tmp_path, links["cw-watch-link"]))
    public = tables.join(tables.open_store(tmp_path), tables.parse_link(links["cw-watch-link"].partition("?")[2]).key)
    assert watch.seat is None and watch.table.legal == [] and watch.table.view == public.view()
    assert "Watching" in watch.title.value
    assert not re.findall(r"cw-card-\w+", states(watch.board))  # nobody's hand


@pytest.mark.parametrize("mangle", [
    lambda q: q.replace("key=", "key=x"),                                # a wrong key
    lambda q: re.sub(r"seat=\d", "seat=1", q),                           # another seat's number with this key
    lambda q: re.sub(r"table=\w+", "table=" + "0" * 32, q),              # an unknown table
    lambda q: q + "&key=again",                                          # a key twice
    lambda q: q.replace("seat=0", "seat=<b>0</b>"),                      # hostile text
    lambda q: q[: q.index("key=") + 10],                                 # cut short
    lambda q: re.sub(r"seat=\d", "watch=1", q),                          # a seat key as a watch key
])
def test_a_bad_link_says_so_and_reveals_nothing(tmp_path: Path, monkeypatch, mangle) -> None:
    links = make_table(CardsApp(save_dir=tmp_path), ["human", "human"])
    url = links["cw-seat-link-0"]
    query = mangle(url.partition("?")[2])
    shell = open_page(monkeypatch, tmp_path, "?" + query)
    shown = shell.game_widget
    assert isinstance(shown, W.HTML) and "cw-table-problem" in shown._dom_classes
    assert "This link opens no table here" in shown.value
    key = tables.parse_link(url.partition("?")[2]).key
    assert key not in shown.value and "<b>0" not in shown.value and "Traceback" not in states(shell)
    shell.show_picker()  # "All games" still leads to the picker
    assert shell.game_widget is None and shell.picker in shell.body.children


def test_an_address_without_a_table_opens_the_picker(tmp_path: Path, monkeypatch) -> None:
    shell = open_page(monkeypatch, tmp_path, "http://127.0.0.1:8866/?lang=ja")
    assert shell.game_widget is None and shell.picker in shell.body.children


def test_a_reload_or_another_device_returns_to_the_same_seat_at_the_current_position(tmp_path: Path, monkeypatch) -> None:
    links = make_table(CardsApp(save_dir=tmp_path), ["human", "human"], seed=3)
    a, b = (page(open_page(monkeypatch, tmp_path, links[f"cw-seat-link-{s}"])) for s in (0, 1))
    rng = random.Random(1)
    for _ in range(6):
        mover = a if a.table.legal else b
        mover.table.act(rng.choice(mover.table.legal))
        (b if mover is a else a).table.poll()
    a.leave()  # the tab is closed: the table goes on
    again = page(open_page(monkeypatch, tmp_path, links["cw-seat-link-0"]))
    assert again.seat == 0 and again.table.view == a.table.view and again.table.legal == a.table.legal
    assert again.log_view.lines() == a.log_view.lines() and again.log_view.lines()


def test_pages_follow_each_others_moves_and_all_show_the_results_at_the_end(tmp_path: Path, monkeypatch) -> None:
    links = make_table(CardsApp(save_dir=tmp_path), ["human", "human", "easy"], seed=11)
    pages = [page(open_page(monkeypatch, tmp_path, links[f"cw-seat-link-{s}"])) for s in (0, 1)]
    watch = page(open_page(monkeypatch, tmp_path, links["cw-watch-link"]))
    rng = random.Random(5)
    log_changes = 0
    while not pages[0].table.is_over:
        movers = [p for p in pages if p.table.legal]
        assert len(movers) == 1
        mover = movers[0]
        other = pages[1 - mover.seat]
        before = other.log_view.lines()
        mover.table.act(rng.choice(mover.table.legal))
        assert other.table.poll() is True  # what the kernel's timer does every 0.25 s
        log_changes += other.log_view.lines() != before
        watch.table.poll()
    assert log_changes > 5  # the other page's log followed the moves
    for p in (*pages, watch):
        p.table.poll()
        assert p.results.layout.display is None
        assert "wins" in p.results.value or "Shared win" in p.results.value
        assert "Results" in p.title.value
    store = tables.open_store(tmp_path)
    (row,) = tables.list_tables(store)
    assert row.status == "over" and store.result(row.id)["ranks"] and len(store.result(row.id)["ranks"]) == 3


def test_the_replay_shows_the_public_view_until_the_end_and_everything_after(tmp_path: Path, monkeypatch) -> None:
    links = make_table(CardsApp(save_dir=tmp_path), ["human", "easy"], seed=2)
    me = page(open_page(monkeypatch, tmp_path, links["cw-seat-link-0"]))
    me.show_replay()
    assert me.explorer.public_only and me.explorer in me.main.children
    me.show_table()
    assert me.explorer is None and me.board in me.main.children
    rng = random.Random(3)
    while not me.table.is_over:
        me.table.act(rng.choice(me.table.legal))
    me.show_replay()
    assert not me.explorer.public_only  # every seat's view once the game is over
