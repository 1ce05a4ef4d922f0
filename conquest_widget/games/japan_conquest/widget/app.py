"""The Japan Conquest app: map + screens, a thin view over a GameController.

    from conquest_widget import JapanConquestApp
    JapanConquestApp()          # in a notebook cell: a complete, playable game
"""

from __future__ import annotations

import html
import os
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from conquest_widget.errors import ConquestError
from conquest_widget.games.japan_conquest.sounds import japan_sounds
from conquest_widget.games.japan_conquest.text import t
from conquest_widget.games.japan_conquest.widget.controller import (
    CPU_DELAYS,
    GameController,
)
from conquest_widget.games.japan_conquest.widget.map_view import MAP_HEIGHT, MapView
from conquest_widget.games.japan_conquest.widget.panels import JapanPanels, LogView
from conquest_widget.games.japan_conquest.widget.saves_view import DataScreen, SaveExit
from conquest_widget.games.japan_conquest.widget.screens import ResultsScreen
from conquest_widget.games.japan_conquest.widget.setup_form import SetupScreen
from conquest_widget.games.japan_conquest.widget.start_screen import StartSaves, StartScreen
from conquest_widget.games.japan_conquest.widget.style import (
    CSS,
    button_layout,
)
from conquest_widget.lean import Layout, close_tree, plain, shared_layout, shared_style
from conquest_widget.saves import DEFAULT_DIRECTORY, SaveStore
from conquest_widget.ui.autosave import Autosaver
from conquest_widget.ui.sound import Sound, sound_preference
from conquest_widget.ui.text import t as shell_t

if TYPE_CHECKING:  # the explorer is imported when a replay is first opened
    from conquest_widget.core.match import Match
    from conquest_widget.games.japan_conquest.match import JapanMatch
    from conquest_widget.games.japan_conquest.setup import GameSetup
    from conquest_widget.tables import NewTable
    from conquest_widget.ui.replay import ReplayExplorer

class JapanConquestApp(W.VBox):
    """The whole game as one widget: ``display(JapanConquestApp())``."""

    def __init__(
        self,
        controller: GameController | None = None,
        *,
        lang: str | None = None,
        save_dir: str | os.PathLike[str] | None = DEFAULT_DIRECTORY,
        **kwargs: Any,
    ) -> None:
        """``save_dir``: the folder for autosave, slots, results and preferences (created on
        first save; default ``conquest_saves`` next to the notebook); ``None`` disables saving.
        ``lang``: "en" or "ja" (default: the remembered preference, else English)."""
        self.store = SaveStore(save_dir) if save_dir is not None else None
        prefs = self._preferences()
        c = self.controller = controller or GameController(lang=lang or prefs.get("language", "en"))
        c.hold_battles = True  # a battle's result gets its own moment on screen (issue 16)
        self.css = plain(W.HTML, value=CSS)
        self.title = plain(W.HTML)
        self.language = W.ToggleButtons(options=[("English", "en"), ("日本語", "ja")], value=c.lang, style={"button_width": "80px"})
        self.language.observe(lambda ch: setattr(c, "lang", ch["new"]), names="value")
        # sound (issue 16): effects and announcements, switched and set in the header,
        # remembered in the preferences; the page plays nothing before its first click
        sound = sound_preference(prefs)
        self.sound = Sound(enabled=sound["enabled"], volume=sound["volume"], lang=c.lang, layout=shared_layout())
        self.sound_toggle = W.ToggleButton(value=sound["enabled"], layout=shared_layout(width="auto"),
                                           style=shared_style(W.ToggleButton))
        self.sound_toggle.add_class("cw-sound-toggle")
        self.volume_slider = W.FloatSlider(value=sound["volume"], min=0.0, max=1.0, step=0.05, readout=False,
                                           continuous_update=False, layout=shared_layout(width="170px"),
                                           style=shared_style(W.FloatSlider))
        self.volume_slider.add_class("cw-sound-volume")
        self.sound_toggle.observe(self._sound_changed, names="value")
        self.volume_slider.observe(self._sound_changed, names="value")
        self._sound_events = 0  # events of the shown game already sounded
        c.on_change(self._sound_hook)
        self.map_view = MapView(c, layout=Layout(width="58%", flex="0 0 auto"))
        # the start screen: one widget drawn in the page, its save entries included (issue 32)
        self.start_saves = StartSaves(c, self.store) if self.store is not None else None
        self.start_screen = StartScreen(c, self.start_saves)
        # the setup, results and save-data screens are built when first shown (issue 18: the
        # first render sends only what the start and game screens need)
        self._setup_screen: SetupScreen | None = None
        self._results_screen: ResultsScreen | None = None
        self._results_panel: W.VBox | None = None
        self._data_screen: DataScreen | None = None
        # the replay screen (issue 29): the explorer is built when first opened, then reused
        self._replay_explorer: ReplayExplorer | None = None
        self._replay_screen: W.VBox | None = None
        self._replay_source: int | str | None = None  # a slot, "autosave" or "finished"
        self._replay_return = "start"  # the screen Back goes to
        # the table made last from Separate screens (its links, the players' names, the
        # page's address) and its links screen (built when shown, closed when left)
        self._table: tuple[NewTable, list[str], str] | None = None
        self._links_screen: W.VBox | None = None
        # game screen
        # the turn and battle panels, the scoreboard and the prefecture's info: one widget
        # drawn in the page (issue 32); its parts read what the page shows
        self.panels = JapanPanels(c)
        self.turn_panel, self.battle_panel = self.panels.turn_panel, self.panels.battle_panel
        self.scoreboard, self.info_panel = self.panels.scoreboard, self.panels.info_panel
        self.log_view = LogView(c)
        # the rest of the game screen (map buttons, CPU speed, Save & Exit) is built when the
        # game screen is first shown (issue 32: Play sends only what the start screen shows)
        self._game_screen: W.VBox | None = None
        self._save_exit: SaveExit | None = None
        #: the autosave of the game shown, and this page's claim on it (another page may
        #: take it: issue 31); a finished game stays the autosave (the start screen says so
        #: and replays it), its result recorded once
        self.autosaver = Autosaver(self.store, "japan_conquest", lambda: c if c.has_game else None, keep_finished=True,
                                   on_elsewhere=self._autosave_elsewhere,
                                   on_error=lambda _exc: setattr(c, "message", t("autosave_failed", c.lang)))
        if self.start_saves is not None:
            self.start_saves.on_replay = lambda match, slot: self.open_replay(match, "autosave" if slot is None else slot)
            self._autosaved_turn: tuple[int, int] | None = None
            c.on_change(self._autosave)
            c.observe(lambda ch: None if ch["new"] else self.autosaver.request(), names="cpu_busy")
            c.observe(lambda _: self.autosaver.flush(), names="screen")  # Continue reads what was written
            c.observe(self._remember_language, names="lang")
        # The side panel scrolls inside the map's height: however long the log grows, the page
        # and the map keep their size, so nothing moves under the pointer (issue 16)
        self.side = W.VBox(layout=Layout(width="42%", padding="0 0 0 10px", max_height=MAP_HEIGHT,
                                           overflow="hidden auto", flex="0 0 auto"))
        self.side.add_class("cw-side")
        controls = W.HBox([self.sound_toggle, self.volume_slider, self.language, self.sound],
                          layout=shared_layout(align_items="center"))
        header = W.HBox([self.title, controls], layout=shared_layout(justify_content="space-between", align_items="center"))
        header.add_class("cw-header")
        kwargs.setdefault("layout", shared_layout())
        #: the map and the side panel: every screen but the replay, which has its own map
        self.body = W.HBox([self.map_view, self.side], layout=shared_layout(align_items="flex-start"))
        super().__init__([self.css, header, self.body], **kwargs)
        self.add_class("cw-app")
        c.observe(self._show_screen, names="screen")
        c.observe(self._relabel, names="lang")
        c.observe(self._clicked, names="selected_prefecture")
        self._relabel()
        self._show_screen()

    def __repr__(self) -> str:
        """One line (the widget tree's default repr runs to ~170,000 characters).

        >>> JapanConquestApp(save_dir=None)
        <JapanConquestApp screen='start' lang='en' saves=None>
        """
        c = self.controller
        saves = None if self.store is None else str(self.store.directory)
        return f"<JapanConquestApp screen={c.screen!r} lang={c.lang!r} saves={saves!r}>"

    # ------------------------------------------------------------ leaving
    def leave(self) -> None:
        """Stop the CPUs and write a pending autosave (the shell's Back to games; the game
        stays autosaved for Continue)."""
        self.controller.stop_cpu()
        self.autosaver.flush()

    def close(self) -> None:
        """Leave the game and close every widget of the app: the screen shown and the ones
        built but not shown (setup, game, results, save data, replay), so nothing of it
        stays alive in the kernel or the page (issue 32)."""
        self.leave()
        self.autosaver.close()
        for screen in ("setup", "saves", "links"):
            self._close_left_screen(screen)
        if self._replay_screen is not None:
            if self._replay_explorer is not None:
                self._replay_explorer.close()
            close_tree(self._replay_screen)
            self._replay_screen = self._replay_explorer = None
        if self._results_screen is not None:
            self._results_screen.close()
        screens = (self.start_screen, self._game_screen, self._save_exit, self._results_panel, self.map_view, self.side)
        for w in screens:
            if w is not None:
                close_tree(w)
        close_tree(self)

    # ------------------------------------------------------------ screens built on first use
    @property
    def game_screen(self) -> W.VBox:
        """The game screen: the side panels, Overview / Current Location / the basemap, the
        CPUs' speed, Save & Exit and the log (its buttons built when first shown)."""
        if self._game_screen is None:
            c = self.controller
            self.overview_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
            self.locate_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
            self.basemap = plain(W.Checkbox, value=False, indent=False)
            self.speed = W.Dropdown(options=[(k, k) for k in CPU_DELAYS], value=c.cpu_speed,
                                    layout=shared_layout(width="110px"), style=shared_style(W.Dropdown))
            self.overview_button.on_click(lambda _: self.map_view.overview())
            self.locate_button.on_click(lambda _: self._locate())
            self.basemap.observe(lambda ch: self.map_view.set_basemap(ch["new"]), names="value")
            self.speed.observe(lambda ch: setattr(c, "cpu_speed", ch["new"]), names="value")
            self.speed_label = plain(W.HTML)
            # Save & Exit / Exit Without Saving
            self.game_extra = plain(W.VBox, children=(self.save_exit,) if self.store is not None else ())
            self._game_screen = plain(W.VBox, children=[
                self.panels,
                plain(W.HBox, children=[self.overview_button, self.locate_button, self.basemap]),
                plain(W.HBox, children=[self.speed_label, self.speed]), self.game_extra, self.log_view,
            ])
            self._relabel_game_screen()
        return self._game_screen

    @property
    def save_exit(self) -> SaveExit:
        """Save & Exit and Exit Without Saving (built when a game is first shown or claims
        the autosave; the app has a save store)."""
        if self._save_exit is None:
            assert self.store is not None, "an app without a save store has no Save & Exit"
            self._save_exit = SaveExit(self.controller, self.store, self.autosaver)
            self._save_exit.show_elsewhere(self.autosaver.lost)  # another page took the autosave
        return self._save_exit

    @property
    def setup_screen(self) -> SetupScreen:
        """The setup form (built when first used, filled with the last setup played)."""
        if self._setup_screen is None:
            self._setup_screen = SetupScreen(self.controller, on_preview=self._preview)
            self._setup_screen.on_table = self.start_table
            last = self._preferences().get("last_setup")
            if last:
                self._setup_screen.load(last)
        return self._setup_screen

    @property
    def results_screen(self) -> ResultsScreen:
        """The results screen (built when first used)."""
        if self._results_screen is None:
            self._results_screen = ResultsScreen(self.controller)
            self._results_screen.on_replay = self.replay_finished
        return self._results_screen

    @property
    def data_screen(self) -> DataScreen | None:
        """Save Data Management (built when first used); None without a save store."""
        if self._data_screen is None and self.store is not None:
            self._data_screen = DataScreen(self.controller, self.store)
        return self._data_screen

    # ------------------------------------------------------------ tables (issue 28)
    def start_table(self, setup: GameSetup) -> NewTable | None:
        """Separate screens: make a table of ``setup`` in the app's store and show its
        links (one per human seat, one to watch); a problem is shown on the form, no table
        is made."""
        from conquest_widget.ui.table_page import links_base, new_table, store_errors, table_problem

        c = self.controller
        bots = ["human" if not p.cpu else f"{p.difficulty}:{p.strategy}" for p in setup.players]
        try:
            new = new_table(self.store.directory if self.store is not None else None, "japan_conquest", setup, bots,
                            seed=setup.seed, names=[p.name for p in setup.players])
        except store_errors() as exc:
            c.setup_error = table_problem(exc, c.lang)
            return None
        self._table = (new, [p.name for p in setup.players], links_base())
        self._close_left_screen("links")  # the links of a table made before, if any
        c.screen = "links"
        return new

    @property
    def links_screen(self) -> W.VBox | None:
        """The links of the table made last (None before one is made)."""
        if self._table is None:
            return None
        if self._links_screen is None:
            from conquest_widget.ui.table_page import links_widgets

            c = self.controller
            new, names, base = self._table
            again = W.Button(description=t("new_game", c.lang), layout=button_layout(), style=shared_style(W.Button))
            back = W.Button(description=t("back", c.lang), layout=button_layout(), style=shared_style(W.Button))
            again.add_class("cw-new-game")
            back.add_class("cw-back")
            again.on_click(lambda _: setattr(c, "screen", "setup"))
            back.on_click(lambda _: setattr(c, "screen", "start"))
            self._links_screen = plain(W.VBox, children=[
                plain(W.HTML, value=f"<h3>{html.escape(shell_t('table_links', c.lang))}</h3>"),
                *links_widgets(new, names, base, c.lang), plain(W.HBox, children=[back, again])])
        return self._links_screen

    # ------------------------------------------------------------ replay (issue 29)
    @property
    def replay_explorer(self) -> ReplayExplorer | None:
        """The replay explorer of the replay screen (None until a Replay button was pressed)."""
        return self._replay_explorer

    def open_replay(self, source: JapanMatch | dict, label: int | str) -> ReplayExplorer:
        """Show the replay screen on ``source`` (a match or its document), at its last
        position, with Back to the screen shown now.  ``label``: a slot number,
        ``"autosave"`` or ``"finished"`` (the screen's heading).  An unfinished game is
        explored from the public view only (``public_only``: the Final Showdown's totals
        stay hidden, a branch keeps its players).  Raises :class:`ConquestError` (nothing
        changed) when the game cannot be replayed.  "Branch here" plays on in this app.

        The explorer is the shell's (:class:`conquest_widget.ui.replay.ReplayExplorer`),
        drawing :class:`~.board.JapanBoard` (map, turn, log, overlays); a later Replay loads
        the other game into it (its map is kept: see :meth:`_close_left_screen`)."""
        from conquest_widget.games.japan_conquest.widget.replay import match_from_data
        from conquest_widget.games.japan_conquest.widget.shell import UI
        from conquest_widget.ui.replay import Replay, ReplayExplorer

        c = self.controller
        match = source if not isinstance(source, dict) else match_from_data(source)
        public_only = not match.is_over
        replay = Replay(match)
        explorer = self._replay_explorer
        if explorer is None:
            explorer = ReplayExplorer(replay, lang=c.lang, ui=UI, public_only=public_only, on_branch=self._branched)
            self._replay_explorer = explorer
            self.replay_back_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
            self.replay_back_button.add_class("cw-replay-back")
            self.replay_back_button.on_click(lambda _: self.close_replay())
            self.replay_heading = plain(W.HTML)
            self._replay_screen = plain(W.VBox, children=[
                plain(W.HBox, children=[self.replay_back_button, self.replay_heading]), explorer])
            self._replay_screen.add_class("cw-replay-screen")
        else:
            if explorer.lang != c.lang:
                explorer.set_lang(c.lang)
            explorer.load(replay, public_only=public_only)
            for board in explorer.boards_shown:
                board.clear_overlay()
        self._replay_source = label
        if c.screen != "replay":
            self._replay_return = c.screen if c.screen in ("start", "results") else "start"
        self._relabel_replay()
        c.screen = "replay"
        return explorer

    def replay_finished(self) -> None:
        """The results screen's Replay: the game just finished, from its start to its end."""
        c = self.controller
        if not c.has_game or not c.is_over:
            return
        try:
            self.open_replay(c.document(), "finished")
        except ConquestError as exc:
            self.results_screen.message.value = (
                f'<div class="cw-msg">{html.escape(t("replay_failed", c.lang, error=exc))}</div>')
            return
        self.results_screen.message.value = ""

    def close_replay(self) -> None:
        """Back: to the screen the replay was opened from (the start screen or the results)."""
        c = self.controller
        if c.screen == "replay":
            back = self._replay_return
            c.screen = back if back != "results" or c.is_over else "start"

    def _branched(self, match: Match) -> None:
        """"Branch here": the branch is played on here, loaded like a resumed save (the
        autosave is claimed for it and written, its CPUs play, its end is recorded)."""
        from conquest_widget.games.japan_conquest.match import JapanMatch

        assert isinstance(match, JapanMatch)  # the replay of a Japan Conquest match branches one
        self.controller.load_game(match)

    def _relabel_replay(self, _: Any = None) -> None:
        if self._replay_screen is None:
            return
        lang = self.controller.lang
        if self._replay_explorer is not None and self._replay_explorer.lang != lang:
            self._replay_explorer.set_lang(lang)
        self.replay_back_button.description = t("back", lang)
        self.replay_back_button.tooltip = t("replay_back_tip", lang)
        source = self._replay_source
        if isinstance(source, int):
            heading = t("replay_of_slot", lang, n=source)
        else:
            heading = t("replay_of_autosave" if source == "autosave" else "replay_of_finished", lang)
        self.replay_heading.value = f"<b class='cw-replay-heading'>{html.escape(heading)}</b>"

    # ------------------------------------------------------------ saves
    def resume(self) -> None:
        """Continue the autosaved game, as the start screen's Continue Last Game does (the
        shell's picker offers it as "Continue Japan Conquest")."""
        if self.start_saves is not None:
            self.start_saves.continue_last()

    def _preferences(self) -> dict:
        if self.store is None:
            return {}
        try:
            return self.store.preferences()
        except ConquestError:
            return {}  # reported on the start screen; play goes on with defaults

    def _autosave(self, c: GameController, action: Any) -> None:
        """Autosave after every action of a human, whenever a turn changes hands, when a CPU
        run stops and at the end (recording the result once), through :attr:`autosaver`.
        A new or loaded game replaces the autosave.  Inside a CPU's turn the single steps
        are not written one by one."""
        if not c.has_game or self.store is None:
            return
        turn = (c.current_player, c.view["turn"])
        if action is None:  # a new or loaded game: claimed as Continue read it, or as it is now
            saves = self.start_saves
            claim = None
            if saves is not None:
                claim, saves.read_claim = saves.read_claim, None
            self.autosaver.begin(claim)
            if self._save_exit is not None:
                self._save_exit.show_elsewhere(False)
            if not c.demo:  # remember its setup as the next default; the watched CPUs' is not the player's (issue 30)
                self._save_preferences(last_setup=c.setup_dict())
        if action is None or c.is_over:
            self._autosaved_turn = turn
            self.autosaver.write()  # a new game, a loaded one, the end (its result): at once
        elif not c.cpu_busy or turn != self._autosaved_turn:
            self._autosaved_turn = turn
            self.autosaver.request()

    def _autosave_elsewhere(self) -> None:
        """Another page holds the autosave now: Save & Exit says so (when built: else it
        says so when built) and offers to autosave this game here."""
        if self._save_exit is not None:
            self._save_exit.show_elsewhere(True)

    def _save_preferences(self, **changes: Any) -> None:
        if self.store is None:
            return
        prefs = {**self._preferences(), **changes}
        try:
            self.store.save_preferences(prefs)
        except ConquestError:
            self.controller.message = t("prefs_failed", self.controller.lang)

    def _remember_language(self, change: dict) -> None:
        self._save_preferences(language=change["new"])

    # ------------------------------------------------------------ sound
    def _sound_changed(self, _: Any = None) -> None:
        """The header's switch or volume moved: apply and remember it."""
        with self.sound.hold_sync():
            self.sound.enabled = self.sound_toggle.value
            self.sound.volume = self.volume_slider.value
        self._save_preferences(sound={"enabled": self.sound.enabled, "volume": self.sound.volume})
        self._relabel_sound()  # after the write: the new label shows the setting is remembered

    def _relabel_sound(self) -> None:
        lang = self.controller.lang
        self.sound_toggle.description = t("sound_on" if self.sound_toggle.value else "sound_off", lang)
        self.sound_toggle.tooltip = t("sound_tip", lang)
        self.volume_slider.description = t("volume", lang)
        self.sound.lang = lang

    def _sound_hook(self, c: GameController, action: Any) -> None:
        """After every action (a human's or a CPU's): play its effects and speak its news.
        A new or loaded game (``action`` None) announces whose turn it is."""
        if not c.has_game:
            return
        if action is None:
            self._sound_events = len(c.events)
            if c.is_over:
                return
            news = [{"type": "turn_start", "player": c.current_player}]
        else:
            news = c.events[self._sound_events:]
            self._sound_events = len(c.events)
        effects, text = japan_sounds(c.view["players"], news, action, c.lang)
        for effect, delay in effects:
            self.sound.play(effect, delay=delay)
        if text:
            self.sound.say(text)

    def _preview(self, homes: dict[int, str]) -> None:
        self.map_view.set_preview(homes if self.controller.screen == "setup" else {})

    def _locate(self) -> None:
        v = self.controller.view
        if v:
            self.map_view.centre_on(v["players"][v["current_player"]]["position"])

    def _clicked(self, change: dict) -> None:
        if self.controller.screen == "setup" and change["new"] and self._setup_screen is not None:
            self.setup_screen.pick_home(change["new"])

    def _relabel(self, _: Any = None) -> None:
        lang = self.controller.lang
        self.title.value = f"<h2 style='margin:4px 0'>{t('title', lang)}</h2>"
        if self.language.value != lang:
            self.language.value = lang
        self._relabel_game_screen()
        self._relabel_sound()
        self._relabel_replay()
        if self._links_screen is not None:  # built anew in the new language
            left, self._links_screen = self._links_screen, None
            if self.controller.screen == "links":
                self._show_current_screen()
            close_tree(left)

    def _relabel_game_screen(self) -> None:
        if self._game_screen is None:
            return  # built in the language of its first showing
        lang = self.controller.lang
        self.overview_button.description = t("overview", lang)
        self.locate_button.description = t("current_location", lang)
        self.basemap.description = t("basemap", lang)
        self.speed_label.value = t("cpu_speed", lang) + "&nbsp;"
        value = self.controller.cpu_speed
        self.speed.options = [(t(k if k != "normal" else "slow", lang), k) for k in CPU_DELAYS]
        self.speed.value = value

    def _close_left_screen(self, screen: str) -> None:
        """Close the screen left (the setup form, the save data) with every widget of it:
        each is built anew when shown again (issue 32: nothing of a screen gone stays alive
        in the kernel or the page).  The start, game and results screens (the replay's Back
        returns to the results), the map, the side panels and the replay screen are built
        once and live as long as the app; :meth:`close` closes them.

        Decision: the replay screen (its own map) is reused, not closed by Back.  Closed
        there, jupyter-leaflet's views failed in the page ("Cannot convert undefined or
        null to object", tests/e2e/test_japan_replay.py, 2 of 3 runs), and the next Replay
        sent its map again (about 150 KB)."""
        if screen == "setup" and self._setup_screen is not None:
            self._setup_screen.close()
            self._setup_screen = None
        elif screen == "links" and self._links_screen is not None:
            close_tree(self._links_screen)
            self._links_screen = None
        elif screen == "saves" and self._data_screen is not None:
            self._data_screen.close()
            self._data_screen = None

    def _show_screen(self, change: Any = None) -> None:
        self._show_current_screen()
        # closed only once it is off the page: a widget closed while its view is shown makes
        # the front end fail on the messages still on their way to it
        if change is not None and change["old"] != change["new"]:
            self._close_left_screen(change["old"])

    def _show_current_screen(self) -> None:
        screen = self.controller.screen
        if screen == "replay" and self._replay_screen is not None:
            if self.children[-1] is not self._replay_screen:
                self.children = (*self.children[:-1], self._replay_screen)
            return
        if self.children[-1] is not self.body:
            self.children = (*self.children[:-1], self.body)
        if screen == "setup":
            panel = self.setup_screen
        elif screen == "game":
            panel = self.game_screen
        elif screen == "results":
            if self._results_panel is None:
                scores = JapanPanels(self.controller, parts=("score",))
                self._results_panel = plain(W.VBox, children=[self.results_screen, scores, self.log_view])
            panel = self._results_panel
        elif screen == "saves":
            panel = self.data_screen or self.start_screen
        elif screen == "links":
            panel = self.links_screen or self.start_screen
        else:
            panel = self.start_screen
        if screen == "start" and self.start_saves is not None:
            self.start_saves.refresh()
        self.side.children = (panel,)
        if screen == "setup":
            self.setup_screen._changed()  # colour the chosen homes on the map
        else:
            self.map_view.set_preview({})
