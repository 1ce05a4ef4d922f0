"""The shared app around a hosted game: start screen, setup form, cover screen, saves,
log and results — the same for every game on the match protocol.  A game supplies a
:class:`~conquest_widget.ui.game_ui.GameUI` (its board, setup and texts); this module
knows no game.

    >>> import tempfile
    >>> from conquest_widget.games.codex.widget import App     # doctest: +SKIP
    >>> app = App(save_dir=tempfile.mkdtemp())                  # doctest: +SKIP
    >>> app.new_game(); app.start()                             # doctest: +SKIP

Flow: ``start`` screen (New game / Resume / a saved slot) → ``setup`` (players: a name and
Human or a CPU level per seat; the game's options; CPU speed; seed) → ``play`` (the game's
board drawn from a :class:`~conquest_widget.ui.controller.MatchController`; the cover
screen between humans; Save / Exit; the log) → ``results`` (standings, the game's own
story of the end, Play again).  After every change of the match the autosave is written
(:class:`~conquest_widget.ui.autosave.Autosaver`; at once, see :attr:`MatchApp.autosave_deferred`),
so leaving (or a closed tab) loses nothing; a finished game's result is recorded once and
its autosave cleared.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from typing import Any, ClassVar

import ipywidgets as W

from conquest_widget.core.safe_text import check_name, html_text
from conquest_widget.errors import ConquestError
from conquest_widget.lean import Layout, close_tree, plain, shared_layout, shared_style
from conquest_widget.saves import AutosaveClaim, SaveStore
from conquest_widget.ui.autosave import Autosaver
from conquest_widget.ui.controller import CPU_DELAYS, MatchController
from conquest_widget.ui.game_ui import GameUI, SeatChoice
from conquest_widget.ui.log_view import LOG_LINES, LogView
from conquest_widget.ui.save_data import Confirm, SaveDataScreen, records_html, slot_line
from conquest_widget.ui.save_data import results_html as previous_results_html
from conquest_widget.ui.setup_form import Field, SetupForm
from conquest_widget.ui.sound import (
    SoundControls,
    label,
    pick_effects,
    sound_preference,
)
from conquest_widget.ui.text import t, template


def _button(cls: str, on_click: Callable[[], None], **kw: Any) -> W.Button:
    """A button of the shell: its layout and style are shared (never changed: a screen
    shows and hides the boxes around its buttons, not the buttons).  It keeps the width of
    its label in a row (``flex: 0 0 auto``): beside a long text in the column next to a
    game's stage, "Resume" was cut to "Re…"."""
    b = W.Button(layout=shared_layout(width="auto", flex="0 0 auto"), style=shared_style(W.Button), **kw)
    b.add_class(cls)
    b.on_click(lambda _b: on_click())
    return b


def _close(widget: W.Widget, keep: tuple[W.Widget, ...] = ()) -> None:
    """Close ``widget`` with every widget under it but those of ``keep`` (a widget with a
    ``close`` of its own, the replay explorer, lets go of what it observes first)."""
    if type(widget).close is not W.Widget.close:
        widget.close()
    close_tree(widget, keep=keep)


def _replace(box: W.Box, children: Any, keep: tuple[W.Widget, ...] = ()) -> None:
    """Show ``children`` in ``box``; what it showed before is closed, but for the new
    children and the widgets of ``keep`` (each with what is under it): a screen that goes
    away leaves no widget alive in the kernel or the page (issue 32)."""
    old = box.children
    box.children = tuple(children)
    kept = (*box.children, *keep)
    for w in old:
        if not any(w is k for k in kept):
            _close(w, kept)


class MatchApp(W.VBox):
    """One game's app in the shell (:func:`app_class` makes one per game)."""

    ui: ClassVar[GameUI]
    #: the New game form offers One screen / Separate screens (see :mod:`.table_page`)
    offers_tables: ClassVar[bool] = False
    #: the New game form's fields (see :meth:`new_game`)
    form: SetupForm | None = None
    screens: Field | None = None
    #: the save-data screen while it is shown (see :meth:`show_save_data`)
    save_data: SaveDataScreen | None = None
    #: Match classes of games outside the registry, by id (tests)
    engines: ClassVar[dict[str, Any]] = {}
    #: write a change's autosave shortly after it inside a kernel, once for quick changes,
    #: instead of at once; None: the game's choice (``GameUI.autosave_deferred``: Japan
    #: Conquest defers, the others write at once: their browser tests read the autosave as
    #: the referee of each move, docs/saves.md).  Every way out of the game writes a
    #: pending autosave first either way.
    autosave_deferred: ClassVar[bool | None] = None

    def __init__(self, *, lang: str | None = None, save_dir: str | os.PathLike[str] | None = "conquest_saves",
                 resume: bool = False, **kwargs: Any) -> None:
        """``lang``: "en" or "ja" (default: the language remembered in ``save_dir``'s
        preferences, else English).  ``resume``: open on this game's autosave (the picker's
        "Continue"), else on the start screen (also when there is nothing to resume: the
        message then says why).  Opening directly on the game sends the page no start screen
        to close at once (a page still drawing a screen that is closed under it failed with
        "Cannot read properties of null")."""
        self.spec = self._spec()
        self.store = SaveStore(save_dir, engines=self.engines) if save_dir is not None else None
        saved = self._preferences().get("language")
        self.lang = lang or (saved if saved in ("en", "ja") else "en")
        self.controller: MatchController | None = None
        self.board: Any = None
        #: the slot the game on screen was loaded from or last saved to (the Save box's default)
        self._slot: int | None = None
        #: the autosave of the match on screen (its claim: another page may take it, issue 31)
        self.autosaver = Autosaver(self.store, self.ui.game, lambda: self.controller, deferred=self._autosave_deferred(),
                                   on_elsewhere=self._show_elsewhere,
                                   # in the player's words, not the file system's (issue 16)
                                   on_error=lambda _exc: self._say(self._t("autosave_failed"), problem=True))
        self._setup: Any = None
        self._problem_said = False  # the message shown is a refusal (it goes with the next change)
        self._seats: list[SeatChoice] = []
        self._log_len = 0
        self.screen = ""
        # widgets whose layout and style never change share them (issue 32: a lean wire)
        self.title = plain(W.HTML)
        self.message = plain(W.HTML)
        self.message.add_class("cw-message")
        self.body = plain(W.VBox)
        # the bar: the title, and sound (issue 16) switched and set here, remembered in the
        # preferences (shared with every game of the save folder)
        sound = sound_preference(self._preferences())
        self.sound_controls = SoundControls(enabled=sound["enabled"], volume=sound["volume"], lang=self.lang)
        self.sound_controls.on_change(self._remember_sound)
        self.sound = self.sound_controls.sound
        self._sound_seen, self._sound_who, self._sound_mine, self._sound_over = 0, None, False, False
        self._sound_view: dict[str, Any] | None = None  # the view of the last change sounded
        self.bar = W.HBox([self.title, self.sound_controls],
                          layout=Layout(justify_content="space-between", align_items="center"))
        self.bar.add_class("cw-bar")
        #: the game shown is the CPUs' demo ("Watch CPUs"): not autosaved, not remembered
        self.demo = False
        #: the game's stage (``GameUI.stage``: Japan Conquest's map), left of every screen
        #: but the replay; the screens then take the column beside it
        self.stage: Any = self.ui.stage(self.lang) if self.ui.stage is not None else None
        if self.stage is not None:
            self._stage_box = W.Box([self.stage], layout=Layout(width="58%", flex="0 0 auto"))
            self._column = W.VBox([self.message, self.body], layout=Layout(width="42%", padding="0 0 0 10px"))
            self._column.add_class("cw-column")
            screens: list[W.Widget] = [W.HBox([self._stage_box, self._column], layout=Layout(align_items="flex-start"))]
        else:
            screens = [self.message, self.body]
        if "layout" not in kwargs:
            kwargs["layout"] = Layout()
        super().__init__([self.bar, *screens], **kwargs)
        self.add_class("cw-match-app")
        self.add_class(f"cw-app-{self.ui.game}")
        if resume:
            self.resume()
        if self.screen != "play":
            self.show_start()

    def __repr__(self) -> str:
        """One line (the widget tree's default repr runs to ~90,000 characters).

        >>> from conquest_widget.games.codex.widget import App
        >>> App(save_dir=None)
        <CodexApp screen='start' lang='en' saves=None>
        """
        saves = None if self.store is None else str(self.store.directory)
        return f"<{type(self).__name__} screen={self.screen!r} lang={self.lang!r} saves={saves!r}>"

    def _autosave_deferred(self) -> bool:
        return self.ui.autosave_deferred if self.autosave_deferred is None else self.autosave_deferred

    def _spec(self) -> Any:
        if self.ui.game in self.engines:
            return self.engines[self.ui.game].spec
        from conquest_widget.core import registry

        return registry.get(self.ui.game)

    def _engine(self) -> Any:
        return self.engines.get(self.ui.game) or self.spec.engine_class()

    # ------------------------------------------------------------ language
    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self.sound_controls.set_lang(lang)
        if self.stage is not None:
            self.stage.set_lang(lang)
        if self.board is not None and hasattr(self.board, "set_lang"):
            self.board.set_lang(lang)
        {"start": self.show_start, "setup": self._redraw_setup, "play": self._redraw_play,
         "results": self.show_results, "previous_results": self.show_previous_results,
         "save_data": self._relabel_save_data, "replay": self._relabel_replay}.get(self.screen, lambda: None)()

    def _t(self, key: str, **kw: Any) -> str:
        return t(key, self.lang, **kw)

    def _say(self, text: str = "", *, problem: bool = False) -> None:
        """Show ``text`` above the screens (a refusal in red, news in green); "" clears it."""
        self._problem_said = bool(text) and problem
        if not text:
            self.message.value = ""
            return
        colour = "#b00020" if problem else "#1b5e20"
        self.message.value = f"<div style='color:{colour};margin:4px 0'>{html_text(text)}</div>"

    def _heading(self, text: str) -> None:
        self.title.value = (f"<h3 style='margin:4px 0'>{html_text(self.spec.title[self.lang])}"
                            f"{' — ' + html_text(text) if text else ''}</h3>")

    # ------------------------------------------------------------ start screen
    def show_start(self) -> None:
        """The start screen: New game, Resume (this game's autosave), saved slots."""
        self._leave_match()
        self.screen = "start"
        self._show_stage(True)
        self._heading("")
        rows: list[W.Widget] = [_button("cw-new-game", self.new_game, description=self._t("new_game"),
                                        button_style="primary")]
        if self.ui.demo_setup is not None:
            rows.append(_button("cw-watch-cpus", self.watch_cpus, description=self._t("watch_cpus")))
        if self.store is not None:
            info = self.store.autosave_info(self.ui.game)
            if info.status == "used" and not info.is_over:
                players = ", ".join(info.player_names)
                rows.append(plain(W.HBox, children=[
                    _button("cw-resume", self.resume, description=self._t("resume")),
                    _button("cw-replay-autosave", lambda: self.replay(None), description=self._t("replay")),
                    plain(W.HTML, value=html_text(self._t("resume_info", when=(info.saved_at or "")[:16].replace("T", " "),
                                                                players=players))),
                ]))
            elif info.status == "used":  # the last game is finished: nothing to resume, its replay stays
                rows.append(plain(W.HBox, children=[
                    _button("cw-replay-autosave", lambda: self.replay(None), description=self._t("replay")),
                    plain(W.HTML, value=html_text(self._t("last_game_over", players=", ".join(info.player_names)))),
                ]))
            slot_rows = []
            for s in self.store.slots():
                label, loadable = self._slot_label(s)
                row = [plain(W.HTML, value=html_text(label))]
                if loadable:
                    row[:0] = [_button(f"cw-load-{s.slot}", lambda n=s.slot: self.load_slot(n), description=self._t("load")),
                               _button(f"cw-replay-{s.slot}", lambda n=s.slot: self.replay(n), description=self._t("replay"))]
                if s.status != "empty":  # any slot that holds something (another game's, unreadable) can go
                    row.insert(len(row) - 1, _button(f"cw-delete-{s.slot}", lambda n=s.slot: self._ask_delete(n),
                                                     description=self._t("delete")))
                # a row of buttons and its label; an empty slot's label alone
                slot_rows.append(plain(W.HBox, children=row) if len(row) > 1 else row[0])
            rows.append(plain(W.HTML, value=f"<b>{html_text(self._t('saved_games'))}</b>"))
            rows.extend(slot_rows)
            self._start_confirm = Confirm(self.lang)
            rows.append(self._start_confirm)
            rows.append(plain(W.HBox, children=[
                _button("cw-previous-results", self.show_previous_results, description=self._t("previous_results")),
                _button("cw-save-data", self.show_save_data, description=self._t("save_data")),
            ]))
        self._set_body(rows)

    def _ask_delete(self, n: int) -> None:
        """Ask before deleting slot ``n`` (Yes: :meth:`delete_slot`; No keeps it)."""
        confirm = getattr(self, "_start_confirm", None)
        if self.screen != "start" or confirm is None or confirm.comm is None:
            return
        confirm.ask(self._t("confirm_delete", n=n), self.lang, lambda: self.delete_slot(n))

    def delete_slot(self, n: int) -> None:
        """Delete save slot ``n`` (whatever it holds), then show the start screen again."""
        if self.store is None:
            return
        try:
            self.store.delete_slot(n)
        except ConquestError as exc:
            self._say(self._t("error", text=str(exc)), problem=True)
            return
        if self._slot == n:
            self._slot = None
        self.show_start()
        self._say(self._t("slot_deleted", n=n))

    def show_previous_results(self) -> None:
        """This game's recorded results, newest first (at most ``MAX_RESULTS``, then how many
        more there are), each with its date, winners and standings; Back to the start
        screen.  (A result holds the standings, not the game's moves: there is nothing of it
        to replay.)"""
        if self.store is None:
            return
        try:
            results = self.store.results(self.ui.game)
        except ConquestError as exc:
            self._say(self._t("error", text=str(exc)), problem=True)
            return
        self._leave_match()
        self.screen = "previous_results"
        self._heading(self._t("previous_results"))
        self._say()
        try:
            records = self.store.records(self.ui.game)
        except ConquestError:
            records = {}  # the results said what is wrong with the file already
        shown = W.HTML(previous_results_html(results, self.lang)
                       + records_html(records, self.lang, self.ui.cpu_name))
        shown.add_class("cw-previous-results-list")
        self._set_body([shown, _button("cw-back", self.show_start, description=self._t("back"))])

    def show_save_data(self) -> None:
        """The save-data screen (:class:`~conquest_widget.ui.save_data.SaveDataScreen`:
        export, restore, delete all), with Back to the start screen."""
        if self.store is None:
            return
        self._leave_match()
        self.screen = "save_data"
        self._heading(self._t("save_data"))
        self._say()
        self.save_data = SaveDataScreen(self.store, lang=self.lang, on_back=self.show_start)
        self._set_body([self.save_data])

    def _relabel_save_data(self) -> None:
        """The save-data screen in the app's language (what it shows stays)."""
        self._heading(self._t("save_data"))
        if self.save_data is not None and self.save_data.comm is not None:
            self.save_data.set_lang(self.lang)

    def _slot_label(self, s: Any) -> tuple[str, bool]:
        """A slot's line (its game named when it is another's; an unreadable file named)
        and whether this app can load it."""
        return slot_line(s, self.lang, game_shown=self.ui.game), s.status == "used" and s.game == self.ui.game

    # ------------------------------------------------------------ setup
    def new_game(self) -> None:
        """Open the setup form (:class:`~conquest_widget.ui.setup_form.SetupForm`, one
        widget; its fields are this app's ``n_players``, ``seat_rows``, ``option_widgets``,
        ``speed``, ``seed`` and, where tables are offered, ``screens``), filled from the
        setup of the game started last (:meth:`last_setup`; not its seed)."""
        self._leave_match()
        self.screen = "setup"
        self._show_stage(True)
        self._say()
        if self.ui.setup_form is not None:  # the game's own form
            self.form = self.ui.setup_form(lang=self.lang, on_start=self.start, on_back=self.show_start,
                                           last=self.last_setup(), stage=self.stage, tables=self.offers_tables)
            self.screens = getattr(self.form, "screens", None) if self.offers_tables else None
            self.seed = self.form.seed
            self._redraw_setup()
            return
        module = self.spec.bots_module()
        self.form = SetupForm(self.ui, players=list(self.spec.players), bots=list(module.BOTS),
                              default_bot=module.DEFAULT_BOT, lang=self.lang, screens=self.offers_tables,
                              on_start=self.start, on_back=self.show_start, last=self.last_setup())
        self.n_players = self.form.n_players
        self.seat_rows = self.form.seat_rows
        self.option_widgets = self.form.option_widgets
        self.speed = self.form.speed
        self.seed = self.form.seed
        self.screens = self.form.screens
        self._redraw_setup()

    def _redraw_setup(self) -> None:
        """The form on screen, relabelled in the app's language (every value stays)."""
        if self.form is None:
            return
        self._heading(self._t("setup"))
        self.form.set_lang(self.lang)
        if self.body.children != (self.form,):
            self._set_body([self.form])

    def _form(self) -> tuple[list[SeatChoice], dict[str, Any], int]:
        """The setup form's values, validated (ConquestError/ValueError name the problem)."""
        seats = []
        for i, (name, kind) in enumerate(self.seat_rows[: self.n_players.value]):
            try:
                seats.append(SeatChoice(check_name(name.value.strip()), kind.value))
            except ValueError as exc:
                raise ValueError(self._t("bad_name", n=i + 1, text=str(exc))) from None
        if not any(s.human for s in seats):
            raise ValueError(self._t("need_human"))
        options = {o.key: self.option_widgets[o.key].value for o in self.ui.options}
        text = self.seed.value.strip()
        if text:
            try:
                seed = int(text)
            except ValueError:
                raise ValueError(self._t("bad_seed", value=text[:40])) from None
        else:
            seed = random.SystemRandom().randrange(2**31)
        return seats, options, seed

    def read_form(self) -> tuple[Any, int, str]:
        """The setup the New game form shows, its seed (a random one when none is given) and
        the CPUs' speed; ``ValueError`` or ``ConquestError`` name a problem of the form."""
        if self.ui.setup_form is not None:
            setup, seed = self.form.read()
            speed = self._speed()
        else:
            seats, options, seed = self._form()
            setup = self.ui.make_setup(seats, options)
            speed = self.speed.value
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        return setup, seed, speed

    def refuse_form(self, exc: Exception, text: str | None = None) -> None:
        """Say why the New game form cannot start (``text``: the words to say, default the
        error's), once: a game's own form that shows the problem itself (its ``problem``)
        is not repeated above it."""
        if self.form is not None and str(getattr(self.form, "problem", "") or "") == str(exc):
            self._say()
            return
        self._say(text or self._t("error", text=str(exc)), problem=True)

    def last_setup(self) -> Any:
        """The setup of the game started last from the New game form (the preferences'
        ``last_setups``, checked by the game's codec), or None (none, or one that cannot be
        read: the form then starts from its defaults)."""
        if self.store is None:
            return None
        try:
            return self.store.last_setup(self.ui.game)
        except ConquestError:
            return None  # an unreadable preferences file: the form starts from its defaults

    def _remember(self, **changes: Any) -> None:
        """Write ``changes`` into the preferences (a write that fails is said, play goes on)."""
        if self.store is None:
            return
        try:
            self.store.save_preferences({**self._preferences(), **changes})
        except ConquestError as exc:
            self._say(self._t("error", text=str(exc)), problem=True)

    def start(self) -> None:
        """Start a match from the setup form (a problem is shown, nothing starts)."""
        try:
            setup, seed, speed = self.read_form()
            match = self._engine()(setup, seed=seed)
        except (ConquestError, ValueError) as exc:
            self.refuse_form(exc)
            return
        self._say()
        # the next New game's form starts from this one (the seed is the match's, not kept)
        remembered = self._preferences().get("last_setups")
        self._remember(last_setups={**(remembered if isinstance(remembered, dict) else {}), self.ui.game: setup})
        self._play(match, speed=speed)

    def watch_cpus(self) -> None:
        """The start screen's "Watch CPUs": a game of CPUs only (``GameUI.demo_setup``),
        played at a pace to watch; it is not autosaved (the player's autosave stays)."""
        if self.ui.demo_setup is None:
            return
        match = self._engine()(self.ui.demo_setup(), seed=random.SystemRandom().randrange(2**31))
        speed = self._speed()
        self._play(match, speed="fast" if speed == "instant" else speed, demo=True)

    # ------------------------------------------------------------ resume / load
    def resume(self) -> None:
        """Continue this game's autosave."""
        self._load(lambda: self.store.load_autosave(self.ui.game))

    def load_slot(self, slot: int) -> None:
        """Continue the game saved in ``slot``."""
        self._load(lambda: self.store.load_slot(slot, game=self.ui.game), slot=slot)

    def _load(self, read: Callable[[], Any], slot: int | None = None) -> None:
        # the autosave's version is taken before reading (after writing what is pending):
        # a write by another page in between makes this page's first autosave a refused
        # one, never a silent overwrite
        claim = self.autosaver.claim_now()
        try:
            match = read()
        except ConquestError as exc:
            self._say(self._t("error", text=str(exc)), problem=True)
            return
        if match is None:
            self._say(self._t("error", text="nothing to resume"), problem=True)
            return
        self._say()
        self._play(match, speed=self._speed(), claim=claim)
        self._slot = slot

    def play_match(self, match: Any, *, speed: str | None = None) -> None:
        """Play ``match`` (a match of this game you hold: a branch of a replay, a position
        set up in a notebook, a lesson's scripted dice) in this app, from where it stands,
        as a loaded save is played: it becomes this page's autosave and its CPUs play
        (``speed``: "instant", "fast" or "normal"; default the app's).

            >>> import random
            >>> from conquest_widget.core import registry
            >>> from conquest_widget.games.codex.widget import App
            >>> Codex = registry.get("codex").engine_class()
            >>> app = App(save_dir=None)
            >>> app.play_match(Codex(Codex.random_setup(random.Random(1), 2), seed=1))
            >>> app.screen
            'play'
            >>> app.play_match("a position")
            Traceback (most recent call last):
            conquest_widget.errors.ConquestError: The Codex of Conquest plays CodexMatch, not str
        """
        engine = self._engine()
        if not isinstance(match, engine):
            raise ConquestError(f"{self.spec.title['en']} plays {engine.__name__}, not {type(match).__name__}")
        self._play(match, speed=speed or self._speed())

    def _speed(self) -> str:
        if self.controller is not None:
            return self.controller.cpu_speed
        speed = getattr(self, "speed", None)
        return speed.value if speed is not None else "fast"

    # ------------------------------------------------------------ play
    def _play(self, match: Any, *, speed: str, claim: AutosaveClaim | None = None, demo: bool = False) -> None:
        """Show ``match`` and make it this page's autosave (``claim``: taken before it was
        read, see :meth:`Autosaver.claim_now`; ``demo``: the CPUs' demo, not autosaved)."""
        self._leave_match()
        self._slot = None
        self.demo = demo
        if demo:
            self.autosaver.watch()
        else:
            self.autosaver.begin(claim)
        self._setup = match.setup
        self._seats = self.ui.seat_choices(match.setup)
        module = self.spec.bots_module()
        humans = {i for i, s in enumerate(self._seats) if s.human}
        bots = {i: module.BOTS[s.bot]() for i, s in enumerate(self._seats) if not s.human}
        # the CPUs' random streams are seeded from their seat's view (core.bots.decision)
        # and this constant: nothing any seat may not know (not the log's length, which
        # counts other seats' secret actions), so a CPU cannot give a secret away
        self.controller = MatchController(match, humans=humans, bots=bots, play_cpus=False,
                                          bot_seed=0, cpu_speed=speed)
        self.board = (self.ui.board(self.controller, self.lang, stage=self.stage) if self.stage is not None
                      else self.ui.board(self.controller, self.lang))
        # hidden by the log's page module while the hot seat's cover is up (log_view.css)
        self.board.add_class("cw-match-board")
        self._log_len = len(self.controller.events)
        # the log shows the cover too: a move that hands the screen on sends one message
        self.log_view = LogView(on_uncover=self._uncover)
        self.busy = plain(W.HTML)
        self.busy.add_class("cw-busy")
        self.save_box = plain(W.HBox)
        self.elsewhere = W.VBox(layout=Layout(display="none", align_items="flex-start"))
        self.elsewhere.add_class("cw-elsewhere")
        self.controls = plain(W.HBox)
        self.screen = "play"
        self._show_stage(True)
        self.controller.observe(self._on_change, names="version")
        self.controller.observe(self._on_busy, names="cpu_busy")
        self._redraw_play()
        self.autosaver.write()  # a new or loaded game: at once
        self._sound_seen, self._sound_who, self._sound_mine, self._sound_over = 0, None, False, self.controller.is_over
        self._sound_view = None
        self._sound_news()
        self.controller.start_cpus()

    def _redraw_play(self) -> None:
        """Draw the play screen; on later changes only what changed is sent (the buttons
        are made once per match, the cover and the log are updated in place)."""
        c = self.controller
        if c is None:
            return
        if not self.controls.children:
            self._save_button = _button("cw-save", self._ask_slot)
            self._exit_button = _button("cw-exit", self.exit)
            controls = [self._save_button, self._exit_button]
            self._speed_pick: W.Dropdown | None = None
            if any(not s.human for s in self._seats):  # the CPUs' speed, changed while they play
                self._speed_pick = W.Dropdown(value=c.cpu_speed, options=self._speed_options(), layout=Layout(width="auto"))
                self._speed_pick.add_class("cw-cpu-speed")
                self._speed_pick.observe(self._speed_picked, names="value")
                controls.append(self._speed_pick)
            self.controls.children = [*controls, self.busy]
        self._heading(self._t("watching_cpus") if self.demo else "")
        self._save_button.description = self._t("save")
        self._exit_button.description = self._t("exit")
        if self._speed_pick is not None and self._speed_pick.options != self._speed_options():
            self._speed_pick.options = self._speed_options()
            self._speed_pick.value = c.cpu_speed
        self._redraw_log()
        if self.autosaver.lost:
            self._show_elsewhere()
        children = (self.controls, self.save_box, self.elsewhere, self.board, self.log_view)
        if self.body.children != children:
            self._set_body(children)

    def _speed_options(self) -> tuple[tuple[str, str], ...]:
        return tuple((f"{self._t('cpu_speed')}: {self._t(f'speed_{s}')}", s) for s in CPU_DELAYS)

    def _speed_picked(self, change: dict[str, Any]) -> None:
        if self.controller is not None and change["new"] in CPU_DELAYS:
            self.controller.cpu_speed = change["new"]

    def _redraw_log(self) -> None:
        """The log and, while the screen is passed on, the cover above it (the page hides
        the board then): one message to the page."""
        name = self.controller.cover
        # the name and the two texts with {name} where it goes: the page writes them
        cover = (name, template("pass_to", self.lang), template("ready", self.lang)) if name else None
        c = self.controller
        show_log(self.log_view, self.ui, c.events, self.lang, [s.name for s in self._seats], cover, c.event_keys)

    def _on_change(self, _change: Any = None) -> None:
        c = self.controller
        if c is None:
            return
        if c.message:
            self._say(c.message, problem=True)
        elif self._problem_said:
            self._say()  # a refusal goes with the next change; news ("Saved to slot 2.") stays
        self._redraw_play()
        if c.is_over:
            self.autosaver.write()  # the end: its result at once
        else:
            self.autosaver.request()
        self._sound_news()
        if c.is_over:
            self.show_results()

    # ------------------------------------------------------------ sound
    def _preferences(self) -> dict[str, Any]:
        if self.store is None:
            return {}
        try:
            return self.store.preferences()
        except ConquestError:
            return {}  # an unreadable preferences file: play goes on with the defaults

    def _remember_sound(self, setting: dict[str, Any]) -> None:
        self._remember(sound=setting)

    def _sound_news(self) -> None:
        """Sound the published change: what the game hears in it (``GameUI.heard``: its
        ``sound_news`` hook, given only the events new since the last call, or its
        ``sounds`` table, from the game's folder), the turn chime and "<name>'s turn" when
        the viewer comes to act, the end fanfare and the winners at the end; the most
        important effect plays (``pick_effects``) and no sentence is said twice.  Events
        are followed per viewer in a hidden-information game (it shows each seat its own
        list): when the viewer or the cover changes, only the turn and the end are sounded
        (a game without hidden information shows every seat the same list)."""
        c = self.controller
        if c is None:
            return
        who = (c.viewer, c.cover) if c.spec.hidden_information else c.cover
        same = who == self._sound_who and len(c.events) >= self._sound_seen
        new = c.events[self._sound_seen:] if same else []
        before = self._sound_view if same else None
        self._sound_seen, self._sound_who, self._sound_view = len(c.events), who, c.view
        effects, text = self.ui.heard(c.view, new, self.lang, before=before)
        found = set(effects)
        sep = "。" if self.lang == "ja" else ". "
        said = text.split(sep) if text else []
        mine = bool(c.legal) and not c.cover and not c.is_over
        if mine and not self._sound_mine and c.viewer is not None:
            found.add("turn_start")
            said.append(label("your_turn", self.lang, name=self._seats[c.viewer].name))
        self._sound_mine = mine
        if c.is_over and not self._sound_over:
            self._sound_over = True
            found.add("game_end")
            ranks = (c.outcome() or {"ranks": []})["ranks"]
            names = ("・" if self.lang == "ja" else ", ").join(self._seats[i].name for i, r in enumerate(ranks) if r == 1)
            said.append(label("game_over", self.lang, names=names))
        for effect, delay in pick_effects(found):
            self.sound.play(effect, delay=delay)
        if said:
            self.sound.say(sep.join(dict.fromkeys(said)))  # each sentence once, in order

    def _on_busy(self, change: Any) -> None:
        self.busy.value = f"<i>{html_text(self._t('cpu_playing'))}</i>" if change["new"] else ""

    def _uncover(self) -> None:
        if self.controller is not None:
            self.controller.uncover()

    def _show_elsewhere(self) -> None:
        """Another page of this save folder wrote this game's autosave (it resumed this
        game, or started another): say so, keep this game on screen, offer a slot (Save)
        or to make this game the autosave again."""
        if not self.elsewhere.children:
            self._elsewhere_text = W.HTML()
            self._elsewhere_button = _button("cw-autosave-here", self._autosave_here, button_style="warning")
            self.elsewhere.children = (self._elsewhere_text, self._elsewhere_button)
        self._elsewhere_text.value = f"<b>{html_text(self._t('autosave_elsewhere'))}</b>"
        self._elsewhere_button.description = self._t("autosave_here")
        self.elsewhere.layout.display = None

    def _autosave_here(self) -> None:
        """Make this page's game the autosave again (the other page's is replaced: that
        page will be told in turn at its next move)."""
        if self.autosaver.claim is None:
            return
        self.elsewhere.layout.display = "none"
        self.autosaver.reclaim()

    def _default_slot(self, slots: list[Any]) -> int:
        """The slot the Save box offers first: the one this game was last saved to or
        loaded from, else the first empty slot, else the first holding this game, else 1."""
        if self._slot is not None:
            return self._slot
        for wanted in (lambda s: s.status == "empty", lambda s: s.status == "used" and s.game == self.ui.game):
            found = next((s.slot for s in slots if wanted(s)), None)
            if found is not None:
                return found
        return slots[0].slot

    def _ask_slot(self) -> None:
        if self.store is None:
            return
        slots = self.store.slots()
        options = [(self._slot_label(s)[0], s.slot) for s in slots]
        pick = W.Dropdown(options=options, value=self._default_slot(slots), layout=Layout(width="auto"))
        pick.add_class("cw-save-slot")
        _replace(self.save_box, [
            W.HTML(html_text(self._t("save_to"))), pick,
            _button("cw-save-confirm", lambda: self._save_to(pick.value), description=self._t("save"),
                    button_style="primary"),
            _button("cw-save-cancel", self._close_save_box, description=self._t("cancel")),
        ])

    def _close_save_box(self) -> None:
        _replace(self.save_box, ())

    def _save_to(self, slot: int, *, overwrite: bool = False) -> None:
        """Save to ``slot``; a slot that holds anything (any game's save, or an unreadable
        file) is replaced only after the player confirms, with its game named."""
        if self.controller is None or self.store is None:
            return
        if not overwrite:
            info = self.store.slot_info(slot)
            if info.status != "empty":
                self._ask_overwrite(info)
                return
        try:
            self.controller.save(self.store, slot, overwrite=overwrite)
        except ConquestError as exc:
            self._say(self._t("error", text=str(exc)), problem=True)
            return
        self._slot = slot
        self._saved_at = (self.controller, self.controller.version)  # the game as shown is in the slot
        _replace(self.save_box, ())
        self._say(self._t("saved", n=slot))

    def _ask_overwrite(self, info: Any) -> None:
        if info.status == "used":
            game = self._game_title(info.game)
            when = (info.saved_at or "")[:16].replace("T", " ")
            question = self._t("overwrite", n=info.slot, game=game, players=", ".join(info.player_names), when=when)
        else:
            question = self._t("overwrite_bad", n=info.slot, error=(info.error or "")[:120])
        _replace(self.save_box, [
            W.HTML(f"<b>{html_text(question)}</b>"),
            _button("cw-save-overwrite", lambda: self._save_to(info.slot, overwrite=True),
                    description=self._t("overwrite_yes"), button_style="danger"),
            _button("cw-save-cancel", self._close_save_box, description=self._t("cancel")),
        ])

    def _game_title(self, game: str | None) -> str:
        from conquest_widget.core import registry

        return registry.title_of(game, self.lang)

    def exit(self, *, confirmed: bool = False) -> None:
        """Leave the game (it stays autosaved) for the start screen.  When another page
        holds the autosave (see :meth:`_show_elsewhere`), this game is not saved anywhere
        (unless it was saved to a slot and has not changed since): the player is asked first."""
        self.autosaver.flush()  # a pending write may find that another page took the autosave
        c = self.controller
        in_slot = c is not None and getattr(self, "_saved_at", None) == (c, c.version)  # saved, unchanged since
        unsaved = self.autosaver.lost and c is not None and not c.is_over and not in_slot
        if unsaved and not confirmed:
            _replace(self.save_box, [
                W.HTML(f"<b>{html_text(self._t('exit_unsaved'))}</b>"),
                _button("cw-exit-confirm", lambda: self.exit(confirmed=True), description=self._t("exit_anyway"),
                        button_style="danger"),
                _button("cw-save-cancel", self._close_save_box, description=self._t("cancel")),
            ])
            return
        self.show_start()
        if not unsaved:
            self._say(self._t("exit_info"))

    def leave(self) -> None:
        """Stop this game's CPUs, write its autosave and let go of the match (the autosave
        keeps it)."""
        self._leave_match()

    def close(self) -> None:
        """Leave the match (its autosave written) and close every widget of the app; it
        writes nothing after."""
        if self.comm is None:
            return  # closed already
        self._leave_match()
        self.autosaver.close()
        if self.stage is not None:
            self.stage.close()
        close_tree(self)

    def _show_stage(self, shown: bool) -> None:
        """Show the game's stage left of the screens (or hide it: the replay has its own map)."""
        if self.stage is None:
            return
        display, width = (None, "42%") if shown else ("none", "100%")
        if self._stage_box.layout.display != display:
            self._stage_box.layout.display = display
            self._column.layout.width = width

    def _match_widgets(self) -> tuple[W.Widget, ...]:
        """The widgets of the match on screen (board, log with the cover, Save box...), shown by the
        play screen and the results: they live until the match is left."""
        if self.controller is None:
            return ()
        return tuple(w for w in (self.board, self.log_view, self.busy, self.save_box, self.elsewhere,
                                 self.controls) if w is not None)

    def _set_body(self, children: Any, keep: tuple[W.Widget, ...] = ()) -> None:
        """Show a screen: the widgets of the one before that it does not show again (nor
        ``keep``, nor the live match's) are closed."""
        _replace(self.body, children, keep=(*keep, *self._match_widgets()))

    def _leave_match(self) -> None:
        """Stop the CPUs, let go of the controller and close every widget of the screen
        shown (the start screen, the form, the replay; the match's board, cover, log, Save
        box): none of a seat's secrets, and no widget of a screen gone, stays alive in the
        kernel or the page after the screen goes away."""
        c = self.controller
        if self.stage is not None:
            self.stage.pick_for(None)  # the form shown (if any) goes away
        if c is not None:
            c.stop_cpus()
            self.autosaver.flush()  # what is pending, while the match is still here
            c.unobserve(self._on_change, names="version")
            c.unobserve(self._on_busy, names="cpu_busy")
        screen = (*self.body.children, *self._match_widgets())
        self.body.children = ()
        for w in screen:
            _close(w)
        self.controller = None
        self.board = None

    # ------------------------------------------------------------ results
    def show_results(self) -> None:
        """The results: standings, the game's own story of the end, Play again."""
        c = self.controller
        if c is None or not c.is_over:
            return
        self.screen = "results"
        self._show_stage(True)  # back from the replay of this match
        self._heading(self._t("results"))
        story = W.HTML(results_html(self.ui, self._seats, c.outcome() or {"ranks": []}, c.view, self.lang)
                       + self._story_html())
        story.add_class("cw-results")
        self._set_body([
            story,
            self.board,
            W.HBox([_button("cw-play-again", self.play_again, description=self._t("play_again"),
                            button_style="primary"),
                    _button("cw-new-game", self.new_game, description=self._t("new_game")),
                    _button("cw-replay-finished", self.replay_finished, description=self._t("replay"))]),
            self.log_view,
        ])

    def _story_html(self) -> str:
        """The game's own story of the finished match (``GameUI.story_html``), made once per
        match and language."""
        c = self.controller
        if self.ui.story_html is None or c is None or not c.is_over:
            return ""
        # the match is read once per finished match: a game's story may be made from it once
        # for every language (Japan Conquest replays the game to tell it)
        if getattr(self, "_story_match", (None, None))[0] != id(c):
            self._story_match = (id(c), self._engine().from_dict(c.document()))
            self._story = (None, "")
        key = (id(c), self.lang)
        if self._story[0] != key:
            self._story = (key, self.ui.story_html(self._story_match[1], self.lang))
        return self._story[1]

    # ------------------------------------------------------------ replay
    def replay(self, slot: int | None) -> None:
        """Open the replay explorer on save ``slot`` (None: this game's autosave), on the
        public view (see :meth:`_show_replay`)."""
        self.autosaver.flush()  # the autosave replayed is the game as last shown
        try:
            match = self.store.load_autosave(self.ui.game) if slot is None else self.store.load_slot(slot, game=self.ui.game)
        except ConquestError as exc:
            self._say(self._t("error", text=str(exc)), problem=True)
            return
        if match is None:
            self._say(self._t("error", text="nothing to replay"), problem=True)
            return
        self._show_replay(match, title=("replay_of_autosave", {}) if slot is None else ("replay_of_slot", {"n": slot}))

    def replay_finished(self) -> None:
        """Open the replay explorer on the game just finished; its Back returns to the
        results (the finished match stays until then)."""
        c = self.controller
        if c is not None and c.is_over:
            self._show_replay(self._engine().from_dict(c.document()), back_to_results=True,
                              title=("replay_of_finished", {}))

    def _show_replay(self, match: Any, *, back_to_results: bool = False,
                     title: tuple[str, dict[str, Any]] = ("replay", {})) -> None:
        """The explorer on ``match``, from the public view.  While the game is unfinished
        (whoever is at the screen), the public view is all it offers (a hand, a secret
        army, Japan Conquest's Final Showdown totals); every seat's view and "Show
        everything" open once the game has ended (:func:`~conquest_widget.ui.replay.public_while_playing`).
        Back returns to the start screen, or to the results of the finished match on
        screen (``back_to_results``: the match is kept, not left)."""
        from conquest_widget.ui.replay import ReplayExplorer, public_while_playing

        public_only = public_while_playing(match)
        speed = self._speed()
        if not back_to_results:
            self._leave_match()
        self.screen = "replay"
        self._show_stage(False)
        self._replay_title = title  # (text key, its fields): "Replay of slot 2"
        self._heading(self._t(title[0], **title[1]))
        self._say()
        self.explorer = ReplayExplorer(match, lang=self.lang, ui=self.ui, public_only=public_only,
                                       on_branch=lambda m: self._play(m, speed=speed))
        self.explorer.add_class("cw-replay")
        back = self.show_results if back_to_results else self.show_start
        self._set_body([_button("cw-back", back, description=self._t("back")), self.explorer])

    def _relabel_replay(self) -> None:
        """The replay in the app's language (its position stays)."""
        key, fields = getattr(self, "_replay_title", ("replay", {}))
        self._heading(self._t(key, **fields))
        explorer = getattr(self, "explorer", None)
        if explorer is not None and explorer.comm is not None:
            explorer.set_lang(self.lang)
        back = self.body.children[0] if self.body.children else None
        if isinstance(back, W.Button):
            back.description = self._t("back")

    def play_again(self) -> None:
        """The same players and options, a new seed."""
        setup, speed = self._setup, self.controller.cpu_speed if self.controller else "fast"
        seed = random.SystemRandom().randrange(2**31)
        self._play(self._engine()(setup, seed=seed), speed=speed, demo=self.demo)


def show_log(log: LogView, ui: GameUI, events: list[dict[str, Any]], lang: str, names: list[str],
             cover: tuple[str, str, str] | None = None, keys: list[str] | None = None) -> None:
    """Show the log lines of ``events`` (the game's own wording, ``ui.log_line``) in ``log``,
    below ``cover`` (the name, the title and the button, see ``LogView.show``) when given, each line named by its event's key
    (``keys``: ``Match.event_keys_for``, when given for every event)."""
    named = list(zip(keys, events, strict=True)) if keys and len(keys) == len(events) else None
    if named is None:
        log.show([line for e in events if (line := ui.log_line(e, lang, names))], t("log", lang), cover)
        return
    # only the lines the log shows are worded (the newest LOG_LINES): a move costs the same
    # at the end of a long game as at its start (their keys name them, not their place)
    shown: list[tuple[str, str]] = []
    for k, e in reversed(named):
        if len(shown) >= LOG_LINES:
            break
        if line := ui.log_line(e, lang, names):
            shown.append((k, line))
    shown.reverse()
    log.show([line for _k, line in shown], t("log", lang), cover, [k for k, _line in shown])


def results_html(ui: GameUI, seats: list[SeatChoice], out: dict[str, Any], view: dict[str, Any], lang: str) -> str:
    """The results: the winners, the standings (rank, player, the game's own column if it
    has one, Human or CPU level) and the game's own story of the end (``ui.results_html``)."""
    ranks = out["ranks"]
    names = [s.name for s in seats]
    winners = [names[i] for i, r in enumerate(ranks) if r == 1]
    head = t("winner" if len(winners) == 1 else "winners", lang, names=", ".join(winners))
    own_head, own = ui.standings_column(out, view, lang) if ui.standings_column is not None else (None, {})
    rows = "".join(
        f"<tr><td>{r}</td><td>{html_text(names[i])}</td>"
        + (f"<td>{html_text(str(own.get(i, '')))}</td>" if own_head is not None else "")
        + f"<td>{html_text(t('human', lang) if seats[i].human else t('cpu', lang, level=ui.cpu_name(seats[i].bot, lang)))}</td></tr>"
        for i, r in sorted(enumerate(ranks), key=lambda x: (x[1], x[0]))
    )
    own_th = f"<th>{html_text(own_head)}</th>" if own_head is not None else ""
    return (f"<h3>{html_text(head)}</h3><table class='cw-standings'><tr><th>{html_text(t('rank', lang))}</th>"
            f"<th>{html_text(t('player', lang))}</th>{own_th}<th>{html_text(t('played_by', lang))}</th></tr>"
            f"{rows}</table>" + ui.results_html(out, view, lang))


def app_class(ui: GameUI) -> type[MatchApp]:
    """The app of a hosted game: a :class:`MatchApp` subclass for ``ui`` (what a game's
    ``widget/__init__.py`` names as ``App``, and its spec as ``widget=``).

        >>> from conquest_widget.games.codex.widget import UI
        >>> app_class(UI).__name__, app_class(UI).ui is UI
        ('CodexApp', True)
        >>> from conquest_widget.games.codex.widget import App
        >>> App
        <class 'conquest_widget.games.codex.widget.CodexApp'>
    """
    from conquest_widget.ui.table_page import SeparateScreens  # the form's "Separate screens" (issue 28)

    name = f"{ui.game.title().replace('_', '')}App"
    caller = sys._getframe(1).f_globals.get("__name__", __name__)  # the game's widget package names it
    return type(name, (SeparateScreens, MatchApp), {"ui": ui, "__module__": caller, "__qualname__": name})
