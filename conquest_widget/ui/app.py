"""The shell: ``ConquestApp()`` opens on a game picker listing every registered game (a
picture and one line each; games not yet built are listed as coming), then hosts the
chosen game's widget.

    from conquest_widget import ConquestApp
    ConquestApp()            # the picker; ConquestApp(game="japan_conquest") opens a game

It opens in the language remembered in the save folder's preferences (``lang=`` overrides
it), and remembers the language chosen at its switch.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from typing import Any

import ipywidgets as W

from conquest_widget import page_request
from conquest_widget.core import registry
from conquest_widget.core.safe_text import html_text
from conquest_widget.errors import ConquestError
from conquest_widget.lean import Layout, close_tree, plain, shared_layout, shared_style
from conquest_widget.saves import SaveStore
from conquest_widget.ui.match_app import MatchApp
from conquest_widget.ui.pictures import picture
from conquest_widget.ui.text import t

LANGS = ("en", "ja")

#: the pickers of this kernel, refreshed from the saves when a page connects (see
#: :func:`_refresh_when_a_page_connects`)
_SHELLS: weakref.WeakSet[ConquestApp] = weakref.WeakSet()


def saved_language(save_dir: str | os.PathLike[str] | None) -> str:
    """The language remembered in ``save_dir``'s preferences ("en" when none, when the
    file cannot be read, or without a save folder).

        >>> import tempfile
        >>> folder = tempfile.mkdtemp()
        >>> saved_language(folder), saved_language(None)
        ('en', 'en')
        >>> _ = SaveStore(folder).save_preferences({"language": "ja"})
        >>> saved_language(folder)
        'ja'
    """
    if save_dir is None:
        return "en"
    try:
        lang = SaveStore(save_dir).preferences().get("language")
    except ConquestError:
        return "en"  # an unreadable preferences file: the game says so where it reads it
    return lang if lang in LANGS else "en"


class ConquestApp(W.VBox):
    """Every game of the package in one widget: a picker, then the chosen game."""

    def __init__(self, *, game: str | None = None, lang: str | None = None,
                 save_dir: str | os.PathLike[str] | None = "conquest_saves", **kwargs: Any) -> None:
        if lang is None:
            lang = saved_language(save_dir)
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
        self.lang = lang
        self.save_dir = save_dir
        self.game_widget: W.Widget | None = None
        self.game_id: str | None = None
        # the picker is the first thing a page loads: its models are lean (issue 18), shown
        # and hidden widgets have a Layout of their own, the others share one
        self.title = W.HTML(layout=Layout(), style=shared_style(W.HTML))
        self.language = W.ToggleButtons(options=[("English", "en"), ("日本語", "ja")], value=lang,
                                        style={"button_width": "80px"}, layout=Layout())
        self.language.observe(lambda ch: self._set_lang(ch["new"]), names="value")
        self.back = W.Button(layout=Layout(width="max-content", display="none"), style=shared_style(W.Button))
        self.back.on_click(lambda _: self.show_picker())
        self.cards: dict[str, tuple[W.HTML, W.Button]] = {}
        boxes = []
        for spec in registry.all_games():
            info = plain(W.HTML)
            button = W.Button(disabled=not spec.playable, layout=shared_layout(width="auto"), style=shared_style(W.Button))
            button.add_class(f"cw-pick-{spec.id}")
            button.on_click(lambda _, gid=spec.id: self.play(gid))
            self.cards[spec.id] = (info, button)
            box = W.VBox([plain(W.HTML, value=picture(spec)), info, button],
                         layout=shared_layout(width="230px", padding="8px", margin="4px", border="1px solid #ccc"))
            box.add_class("cw-game-card")
            boxes.append(box)
        self.picker = W.HBox(boxes, layout=Layout(flex_flow="row wrap"))
        self.picker.add_class("cw-picker")
        # "Continue <game>" for each game with an unfinished autosave: one click after a reload
        self.continues = W.HBox(layout=Layout(flex_flow="row wrap"))
        self.continues.add_class("cw-continues")
        self._continuable: list[tuple[str, str]] = []
        self._continue_buttons: dict[str, W.Button] = {}
        for spec in registry.all_games():
            if spec.playable:
                b = W.Button(button_style="primary", layout=Layout(width="auto", margin="2px 6px 6px 4px", display="none"),
                             style=shared_style(W.Button))
                b.add_class(f"cw-continue-{spec.id}")
                b.on_click(lambda _, gid=spec.id: self.continue_game(gid))
                self._continue_buttons[spec.id] = b
        self.continues.children = tuple(self._continue_buttons.values())
        self.body = plain(W.VBox, children=[self.continues, self.picker])
        header = W.HBox([self.title, self.back, self.language], layout=Layout(justify_content="space-between"))
        kwargs.setdefault("layout", Layout())
        super().__init__([header, self.body], **kwargs)
        self.add_class("cw-shell")
        self._find_continuable()
        self._relabel()
        _SHELLS.add(self)
        _refresh_when_a_page_connects()
        # a table link opens its seat (issue 28); a preheated kernel learns its page's link
        # when the page connects (_refresh_pickers)
        if not self.open_link(page_request.known_request()) and game is not None:
            self.play(game)

    def __repr__(self) -> str:
        return f"<ConquestApp game={self.game_id!r} lang={self.lang!r}>"

    # ------------------------------------------------------------ navigation
    def play(self, game_id: str, *, resume: bool = False) -> W.Widget:
        """Open a game by id (see :func:`conquest_widget.games`); with ``resume``, on its
        autosave (a game of the shell opens directly on it)."""
        spec = registry.get(game_id)
        if not spec.playable:
            raise ValueError(f"{spec.title['en']} is not playable yet (coming)")
        cls = spec.load(spec.widget)
        self._close_game()
        opens_on_game = resume and isinstance(cls, type) and issubclass(cls, MatchApp)
        self.game_widget = cls(lang=self.lang, save_dir=self.save_dir, **({"resume": True} if opens_on_game else {}))
        self.game_id = game_id
        ctrl = getattr(self.game_widget, "controller", None)
        if ctrl is not None and hasattr(ctrl, "lang"):
            # the game has its own language switch: the shell's hides and follows it
            ctrl.observe(self._follow_game_lang, names="lang")
        # the game brings its own title (and Japan Conquest its own language switch)
        self.language.layout.display = None if hasattr(self.game_widget, "set_lang") else "none"
        self.title.layout.display = "none"
        self.back.layout.display = None
        self.body.children = (self.game_widget,)
        return self.game_widget

    def open_link(self, request: dict[str, str] | None) -> bool:
        """Open what the page's address asks for (its ``QUERY_STRING``): a table link opens
        that seat's page, or the watch page, or says that it opens nothing here (see
        :func:`conquest_widget.ui.table_page.page_for_link`).  False when it asks for no
        table (or ``request`` is None: not known yet) or a game is already open."""
        if request is None or self.game_widget is not None:
            return False
        from conquest_widget.ui.table_page import page_for_link

        page = page_for_link(request.get("QUERY_STRING", ""), lang=self.lang, save_dir=self.save_dir)
        if page is None:
            return False
        self.game_widget = page
        self.game_id = getattr(getattr(page, "spec", None), "id", None)
        self.language.layout.display = None
        self.title.layout.display = "none"
        self.back.layout.display = None
        self.body.children = (page,)
        return True

    def _close_game(self) -> None:
        """Leave the game shown (its CPUs stop, its autosave is written) and close its widgets."""
        game = self.game_widget
        if game is None:
            return
        leave = getattr(game, "leave", None)
        if leave is not None:
            leave()
        ctrl = getattr(game, "controller", None)
        if ctrl is not None and hasattr(ctrl, "lang"):
            ctrl.unobserve(self._follow_game_lang, names="lang")
        self.game_widget = None
        self.game_id = None
        if self.body.children == (game,):
            self.body.children = ()
        if type(game).close is not W.Widget.close:
            game.close()  # a game that knows widgets of its own not on screen (Japan Conquest)
        close_tree(game)

    def refresh_from_saves(self) -> None:
        """On the picker, take the saved language and the games to continue as they are
        now: a kernel Voilà preheated built this picker before its page was asked for, and
        the player may have switched the language or left a game since (issue 30)."""
        if self.game_widget is not None:
            return
        lang = saved_language(self.save_dir)
        self._find_continuable()
        if lang != self.lang:
            self.language.value = lang  # relabels (and finds the preference already saved)
        else:
            self._relabel()

    def continue_game(self, game_id: str) -> W.Widget:
        """Open a game and continue its autosave (the picker's "Continue <game>")."""
        widget = self.play(game_id, resume=True)
        resume = getattr(widget, "resume", None)
        if resume is not None and not isinstance(widget, MatchApp):  # a game of the shell resumed as it opened
            resume()
        return widget

    def _find_continuable(self) -> None:
        """The playable games whose autosave holds an unfinished game (id, saved at)."""
        self._continuable = []
        if self.save_dir is None:
            return
        store = SaveStore(self.save_dir)
        for spec in registry.all_games():
            if not spec.playable:
                continue
            try:
                info = store.autosave_info(spec.id)
            except ConquestError:
                continue  # the game's own start screen says what is wrong with it
            if info.status == "used" and not info.is_over:
                self._continuable.append((spec.id, (info.saved_at or "")[:16].replace("T", " ")))

    def _remember_language(self, lang: str) -> None:
        """Keep ``lang`` in the save folder's preferences (the next page opens in it)."""
        if self.save_dir is None or saved_language(self.save_dir) == lang:
            return
        store = SaveStore(self.save_dir)
        try:
            store.save_preferences({**store.preferences(), "language": lang})
        except ConquestError:
            pass  # an unreadable or unwritable preferences file: the switch still works here

    def _follow_game_lang(self, change: Any) -> None:
        if change["new"] in LANGS and change["new"] != self.lang:
            self.lang = change["new"]
            self.language.value = change["new"]
            self._relabel()

    def show_picker(self) -> None:
        """Back to the games: the game is left (its autosave is kept) and closed, every
        widget of it (issue 32: nothing of a game gone stays alive in the kernel or the page)."""
        self.body.children = (self.continues, self.picker)
        self._close_game()
        self.language.layout.display = None
        self.title.layout.display = None
        self.back.layout.display = "none"
        self._find_continuable()
        self._relabel()

    # ------------------------------------------------------------ text
    def _set_lang(self, lang: str) -> None:
        self.lang = lang
        self._remember_language(lang)
        ctrl = getattr(self.game_widget, "controller", None)
        if hasattr(self.game_widget, "set_lang"):
            self.game_widget.set_lang(lang)
        elif ctrl is not None and hasattr(ctrl, "lang"):
            ctrl.lang = lang
        self._relabel()

    def _relabel(self) -> None:
        lang = self.lang
        self.title.value = f"<h2 style='margin:4px 0'>{html_text(t('title', lang))}</h2>"
        self.back.description = t("back_to_games", lang)
        for spec in registry.all_games():
            info, button = self.cards[spec.id]
            players = f"{spec.players.start}–{spec.players.stop - 1}"
            tag = "" if spec.playable else f" <i>({html_text(t('coming', lang))})</i>"
            info.value = (f"<b>{html_text(spec.title[lang])}</b>{tag}<br>"
                          f"<span>{html_text(spec.blurb[lang])}</span><br>"
                          f"<small>{html_text(t('players', lang, n=players))}</small>")
            button.description = t("play", lang) if spec.playable else t("coming", lang)
        # one button per playable game, made once and shown while its game can be continued:
        # a refresh (a page connecting to a preheated kernel) makes and closes no widget
        # Each is sent whole, whatever it held before: a page's frames must not depend on when
        # its preheated kernel ran the notebook (the twin pages of the hot-seat tests must
        # receive the same bytes whoever saved what a second earlier).
        wanted = dict(self._continuable)
        for game_id, b in self._continue_buttons.items():
            shown = game_id in wanted
            _send_whole(b, description=t("continue_game", lang, game=registry.get(game_id).title[lang]) if shown else "",
                        tooltip=t("continue_tip", lang, when=wanted[game_id]) if shown else "")
            _send_whole(b.layout, display=None if shown else "none")
        _send_whole(self.continues.layout, display=None if wanted else "none")


def _send_whole(widget: W.Widget, **values: Any) -> None:
    """Set ``values`` on ``widget`` and send them as one update whatever it held before (a
    trait set to the value it has is not sent; passing each through a placeholder inside
    ``hold_sync`` makes every one of them part of the update)."""
    with widget.hold_sync():
        for name, value in values.items():
            setattr(widget, name, "\x00")
            setattr(widget, name, value)


def _refresh_pickers() -> None:
    shells = list(_SHELLS)
    for shell in shells:
        shell.refresh_from_saves()
    if shells:
        request = page_request.fetch_request()  # the page's address: a table link opens its seat
        # the seat's page is built once the page has the widgets' states, as after a click
        # on Play: built inside the states' request, a board as large as Japan Conquest's
        # (its map) reached the page half made ("widget model not found")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        for shell in shells:
            if loop is None:
                shell.open_link(request)
            else:
                loop.call_soon(shell.open_link, request)


def _refresh_when_a_page_connects() -> None:
    """In a kernel Voilà started ahead of its page (``$VOILA_PREHEAT`` is ``"True"``: see
    :mod:`conquest_widget.serve`), refresh every picker from the saves when the page's
    front end asks for the widgets' states (``request_states`` on ipywidgets' control comm),
    just before they are sent: the page then opens in the language saved at that moment,
    not the one saved when the kernel ran the notebook.  Installed once per kernel; any
    other kernel (JupyterLab, a page's own kernel) is left as it is."""
    if os.environ.get("VOILA_PREHEAT") != "True" or getattr(W.Widget, "_conquest_refresh", False):
        return
    original = W.Widget._handle_control_comm_msg.__func__  # type: ignore[attr-defined]

    def handle(cls: type, msg: dict[str, Any]) -> None:
        if msg.get("content", {}).get("data", {}).get("method") == "request_states":
            try:
                _refresh_pickers()
            except Exception:  # never keep a page from its widgets
                pass
        original(cls, msg)

    W.Widget._handle_control_comm_msg = classmethod(handle)  # type: ignore[method-assign, assignment]
    W.Widget._conquest_refresh = True  # type: ignore[attr-defined]
