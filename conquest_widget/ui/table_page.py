"""Each player at their own screen (issue 28): the app's pages for game tables.

- **Separate screens** in a game's New game form (:class:`SeparateScreens`, mixed into
  every shell game's app by :func:`~conquest_widget.ui.match_app.app_class`): Start creates
  a table in the app's store (:func:`store_location`: ``$CONQUEST_TABLES_STORE``, else the
  save folder's ``tables.sqlite3``) with the form's seats (Human or a CPU level) and
  options, and the page shows one link per human seat and a watch link: addresses of this
  same page with a query string (:mod:`conquest_widget.tables.links`).  The creator plays
  from their own link like everybody else, so every seat's page holds its own key only.
- **A link opens its seat** (:func:`page_for_link`): the shell reads its page's query
  string (:mod:`conquest_widget.page_request`) and shows a :class:`TablePage`, the game's
  own board drawn from a :class:`~conquest_widget.ui.table_controller.TableController`;
  the watch link shows the public view.  A bad link says so and nothing more.
- **Live**: the controller looks at the table's version every 0.25 s in the kernel's event
  loop and redraws when another page acted; the CPU seats are played by the page holding
  the table's lease.
- **The end**: every seat's page shows the results (the store records the outcome for every
  seat in the transaction of the last move); **Replay** opens the replay explorer, on the
  public view while the game runs and on every view once it is over.

    >>> import tempfile
    >>> from conquest_widget import tables
    >>> from conquest_widget.games.conquest_cards.widget import UI
    >>> from conquest_widget.ui.game_ui import SeatChoice
    >>> store = tables.open_store(tempfile.mkdtemp())
    >>> setup = UI.make_setup([SeatChoice("Ann"), SeatChoice("Ben")], {})
    >>> new = tables.create_table(store, "conquest_cards", setup, ["human", "human"], seed=1)
    >>> page = TablePage(tables.join(store, new.invites[1]), UI, start=False)
    >>> page.table.viewer, "Ben (seat 2)" in page.title.value
    (1, True)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import ipywidgets as W

from conquest_widget import page_request
from conquest_widget.core import registry
from conquest_widget.core.safe_text import html_text
from conquest_widget.errors import ConquestError
from conquest_widget.lean import Layout, close_tree
from conquest_widget.tables import (
    NewTable,
    SeatClient,
    create_table,
    open_link,
    open_store,
    parse_link,
    seat_link,
    watch_link,
)
from conquest_widget.tables.links import BadLinkError
from conquest_widget.tables.store import store_errors
from conquest_widget.tables.table import STORE_ENV
from conquest_widget.ui.game_ui import GameUI, SeatChoice
from conquest_widget.ui.log_view import LogView
from conquest_widget.ui.setup_form import SEPARATE, Field
from conquest_widget.ui.table_controller import TableController
from conquest_widget.ui.text import t


def store_location(save_dir: str | os.PathLike[str] | None) -> str | Path | None:
    """Where this app keeps its tables: ``$CONQUEST_TABLES_STORE`` (a PostgreSQL URL or a
    path; ``conquest-widget play --store`` sets it), else the save folder (its
    ``tables.sqlite3``); None when there is neither."""
    return os.environ.get(STORE_ENV) or (Path(save_dir) if save_dir is not None else None)


def _button(cls: str, on_click: Any, **kw: Any) -> W.Button:
    from conquest_widget.ui.match_app import _button as button

    return button(cls, on_click, **kw)


# ---------------------------------------------------------------- making a table
class NoStoreError(ConquestError):
    """The app has nowhere to keep tables (no save folder and no ``--store``)."""


def new_table(save_dir: str | os.PathLike[str] | None, game: str, setup: Any, bots: list[str], *,
              seed: int | None, names: list[str]) -> NewTable:
    """A table of ``game`` made from a New game form, in the app's store
    (:func:`store_location`): ``bots[s]`` is ``"human"`` or a CPU level; the title names
    the players."""
    where = store_location(save_dir)
    if where is None:
        raise NoStoreError("no table store")
    return create_table(open_store(where), game, setup, bots, seed=seed, title=", ".join(names))


def table_problem(exc: BaseException, lang: str) -> str:
    """What the page says when a table could not be made."""
    if isinstance(exc, NoStoreError):
        return t("no_table_store", lang)
    return t("error", lang, text=str(exc)[:300])


def links_base() -> str:
    """The address this page was opened at (the links are built on it), "" when unknown."""
    return page_request.page_base_url(page_request.known_request() or {})


def links_widgets(new: NewTable, names: list[str], base: str, lang: str) -> list[W.Widget]:
    """The links of a table just made, one per human seat (``names`` in seat order) and one
    to watch, as links to click and as text to copy."""
    rows: list[tuple[str, str, str]] = [
        (f"cw-seat-link-{s}", t("seat_link", lang, n=s + 1, name=names[s]), seat_link(base or "?", new.id, s, key))
        for s, key in sorted(new.invites.items())]
    rows.append(("cw-watch-link", t("watch_link", lang), watch_link(base or "?", new.id, new.watch)))
    if not base:
        rows = [(cls, label, "?" + url.partition("?")[2]) for cls, label, url in rows]
    items = "".join(
        f"<li style='margin:4px 0;overflow-wrap:anywhere'>{html_text(label)}: <a class='{cls}' href='{html_text(url)}' target='_blank'"
        f" rel='noopener noreferrer'>{html_text(url)}</a></li>" for cls, label, url in rows)
    note = t("links_login", lang) if base else t("links_no_address", lang)
    links = W.HTML(f"<p>{html_text(t('table_made', lang))}</p><ul class='cw-table-links'>{items}</ul>"
                   f"<p><small>{html_text(note)}</small></p>")
    text = W.Textarea(value="\n".join(f"{label}: {url}" for _cls, label, url in rows),
                      layout=Layout(width="100%", height=f"{1.6 * len(rows) + 1:.1f}em"))
    text.add_class("cw-links-text")
    return [links, W.HTML(f"<b>{html_text(t('links_text', lang))}</b>"), text]


# ---------------------------------------------------------------- the New game form
class SeparateScreens:
    """Mixin of a game's :class:`~conquest_widget.ui.match_app.MatchApp`: the New game
    form's "One screen / Separate screens" choice, and the links page after Start."""

    #: the New game form offers "One screen / Separate screens" (its field: ``screens``)
    offers_tables = True
    screens: Field | None = None
    #: the table just made from this page, and the address its links are built on
    new_table: NewTable | None = None
    _links_base = ""

    def start(self) -> None:
        if self.screens is None or self.screens.value != SEPARATE:
            return super().start()  # type: ignore[misc]
        self.start_table()

    def start_table(self) -> NewTable | None:
        """Create a table from the setup form and show its links (a problem is shown, no
        table is made)."""
        app: Any = self
        try:
            setup, seed, _speed = app.read_form()
            seats = app.ui.seat_choices(setup)
            new = new_table(app.store.directory if app.store is not None else None, app.ui.game, setup,
                            [s.bot for s in seats], seed=seed, names=[s.name for s in seats])
        except (*store_errors(), ConquestError, ValueError) as exc:
            app.refuse_form(exc, table_problem(exc, app.lang))
            return None
        self.new_table = new
        self._table_seats = seats
        self._links_base = links_base()
        app._say()
        self.show_links()
        return new

    def show_links(self) -> None:
        """The links of the table just made: one per human seat, one to watch."""
        app: Any = self
        new = self.new_table
        if new is None:
            return
        app._leave_match()
        app.screen = "links"
        lang = app.lang
        app._heading(t("table_links", lang))
        app.body.children = [
            *links_widgets(new, [s.name for s in self._table_seats], self._links_base, lang),
            W.HBox([_button("cw-new-game", app.new_game, description=t("new_game", lang)),
                    _button("cw-back", app.show_start, description=t("back", lang))]),
        ]

    def set_lang(self, lang: str) -> None:
        super().set_lang(lang)  # type: ignore[misc]
        if getattr(self, "screen", "") == "links":
            self.show_links()


# ---------------------------------------------------------------- a seat's page
class TablePage(W.VBox):
    """One seat's page at a table (``client.seat`` None: the watch page): the game's own
    board drawn from a :class:`TableController`, the log, the results at the end, Replay.
    ``start``: look at the store on the kernel's event loop (False: call ``table.poll()``)."""

    def __init__(self, client: SeatClient, ui: GameUI, *, lang: str = "en", start: bool = True, **kwargs: Any) -> None:
        self.ui = ui
        self.lang = lang
        self.spec = registry.get(client.game)
        self._client = client
        self._seats: list[SeatChoice] = list(ui.seat_choices(client.setup))
        self.table = TableController(client, lang=lang)
        self.title = W.HTML()
        self.message = W.HTML()
        self.message.add_class("cw-message")
        self.board = ui.board(self.table, lang)
        self.results = W.HTML(layout=Layout(display="none"))
        self.results.add_class("cw-results")
        self.log_view = LogView()
        self.replay_button = _button("cw-replay-table", self.show_replay)
        self.explorer: Any = None
        self.main = W.VBox([self.results, self.board, W.HBox([self.replay_button]), self.log_view])
        super().__init__([self.title, self.message, self.main], **kwargs)
        self.add_class("cw-table-page")
        self.add_class("cw-table-watch" if client.seat is None else f"cw-table-seat-{client.seat}")
        self.table.observe(self._on_change, names=["version", "message"])
        self._redraw()
        if start:
            self.table.start()

    @property
    def seat(self) -> int | None:
        return self._client.seat

    def _on_change(self, _change: Any = None) -> None:
        self._redraw()

    def _redraw(self) -> None:
        c, lang = self.table, self.lang
        if self.seat is None:
            head = t("watching", lang)
        else:
            head = t("at_table", lang, name=self._seats[self.seat].name, n=self.seat + 1)
        if c.is_over:
            head += " — " + t("results", lang)
        title = f"<h3 style='margin:4px 0'>{html_text(self.spec.title[lang])} — {html_text(head)}</h3>"
        _set(self.title, "value", title)
        shown = c.message and not getattr(self.board, "shows_messages", False)  # a board may show them itself
        message = f"<div style='color:#b00020;margin:4px 0'>{html_text(c.message)}</div>" if shown else ""
        _set(self.message, "value", message)
        names = [s.name for s in self._seats]
        from conquest_widget.ui.match_app import results_html, show_log

        show_log(self.log_view, self.ui, c.events, lang, names)
        if c.is_over:
            _set(self.results, "value", results_html(self.ui, self._seats, c.outcome() or {"ranks": []}, c.view, lang))
            _set(self.results.layout, "display", None)
        _set(self.replay_button, "description", t("replay", lang))

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self.table.lang = lang
        if hasattr(self.board, "set_lang"):
            self.board.set_lang(lang)
        self._redraw()
        if self.explorer is not None:
            self.show_replay()

    def show_replay(self) -> None:
        """The replay explorer on this table: the public view while the game runs, every
        seat's view once it is over (:func:`~conquest_widget.ui.replay.public_while_playing`)."""
        from conquest_widget.ui.replay import ReplayExplorer, public_while_playing

        self._close_explorer()
        match = self.spec.engine_class().from_dict(self._client.document())
        public_only = public_while_playing(match)
        self.explorer = ReplayExplorer(match, lang=self.lang, ui=self.ui, public_only=public_only)
        self.explorer.add_class("cw-replay")
        back = _button("cw-back-to-table", self.show_table, description=t("back_to_table", self.lang))
        self.main.children = (back, self.explorer)

    def show_table(self) -> None:
        """Back from the replay to the live table."""
        old = self.main.children
        self.main.children = (self.results, self.board, W.HBox([self.replay_button]), self.log_view)
        for w in old:
            if w not in self.main.children:
                close_tree(w)
        self.explorer = None

    def _close_explorer(self) -> None:
        if self.explorer is not None:
            self.show_table()

    def leave(self) -> None:
        """Stop looking at the store and close the page's widgets (the table goes on)."""
        self.table.stop()
        self.table.unobserve(self._on_change, names=["version", "message"])
        self._close_explorer()
        close_tree(self)


def _set(obj: Any, name: str, value: Any) -> None:
    if getattr(obj, name) != value:
        setattr(obj, name, value)


def problem_page(text: str) -> W.HTML:
    """A page that says what is wrong with its link, and nothing more."""
    box = W.HTML(f"<div style='color:#b00020;margin:8px 0'><b>{html_text(text)}</b></div>")
    box.add_class("cw-table-problem")
    return box


def page_for_link(query: str | None, *, lang: str = "en", save_dir: str | os.PathLike[str] | None = "conquest_saves",
                  start: bool = True) -> W.Widget | None:
    """The page a query string asks for: None when it names no table; a :class:`TablePage`
    at the link's seat (or watching); a :func:`problem_page` for a link that opens nothing
    here (one message whatever was wrong: the table, the seat or the key) or a store that
    cannot be read."""
    try:
        link = parse_link(query)
    except BadLinkError:
        return problem_page(t("bad_link", lang))
    if link is None:
        return None
    where = store_location(save_dir)
    if where is None:
        return problem_page(t("no_table_store", lang))
    try:
        client = open_link(open_store(where), link)
    except ConquestError as exc:
        from conquest_widget.tables import NoSuchTableError

        return problem_page(t("bad_link", lang) if isinstance(exc, NoSuchTableError)
                            else t("store_problem", lang, text=str(exc)[:200]))
    except store_errors() as exc:
        return problem_page(t("store_problem", lang, text=type(exc).__name__))
    ui = _game_ui(client.game)
    if ui is None:
        return problem_page(t("no_table_game", lang, game=registry.get(client.game).title[lang]))
    return TablePage(client, ui, lang=lang, start=start)


def _game_ui(game: str) -> GameUI | None:
    from conquest_widget.ui.replay import game_ui

    return game_ui(game)
