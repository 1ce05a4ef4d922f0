"""Setup and results screens (the start screen is :mod:`.start_screen`)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import MAX_NAME_LENGTH
from conquest_widget.games.japan_conquest.rules import (
    DIFFICULTIES,
    MODES,
    STANDARD_TURNS,
    STRATEGIES,
)
from conquest_widget.games.japan_conquest.setup import DEFAULT_COLOURS, GameSetup
from conquest_widget.games.japan_conquest.story import GameStory
from conquest_widget.games.japan_conquest.text import pref_name, t
from conquest_widget.games.japan_conquest.widget.controller import GameController
from conquest_widget.games.japan_conquest.widget.story_view import story_html
from conquest_widget.games.japan_conquest.widget.style import (
    button_layout,
    name_html,
)
from conquest_widget.lean import Layout, close_tree, plain, shared_layout, shared_style
from conquest_widget.maps.japan.board import japan
from conquest_widget.ui.text import t as shell_t

DEFAULT_HOMES = (13, 27, 1, 40)  # Tokyo, Osaka, Hokkaido, Fukuoka: distinct and far apart


class PlayerRow(W.HBox):
    """One seat of the setup form."""

    def __init__(self, seat: int, lang: str, on_change: Callable[[], None]) -> None:
        self.seat = seat
        self.name = W.Text(value=f"Player {seat + 1}", layout=shared_layout(width="110px"), style=shared_style(W.Text))
        self.colour = W.ColorPicker(value=DEFAULT_COLOURS[seat], concise=True, layout=shared_layout(width="36px"),
                                    style=shared_style(W.ColorPicker))
        self.kind = W.ToggleButtons(options=[("Human", False), ("CPU", True)], value=seat != 0, style={"button_width": "auto"})
        # labelled, and shown only for CPU seats (issue 16)
        self.difficulty = W.Dropdown(options=[(d, d) for d in DIFFICULTIES], value="normal", layout=Layout(width="165px"),
                                     style={"description_width": "initial"})
        self.strategy = W.Dropdown(options=[(s, s) for s in STRATEGIES], value="balanced", layout=Layout(width="205px"),
                                   style={"description_width": "initial"})
        self.home = W.Dropdown(options=[(p.name_en, p.code) for p in japan().prefectures], value=DEFAULT_HOMES[seat],
                               layout=shared_layout(width="130px"), style=shared_style(W.Dropdown))
        self._quiet = False
        self.name.observe(self._limit_name, names="value")
        self.kind.observe(lambda _ch: self._show_cpu_settings(), names="value")
        for w in (self.name, self.colour, self.kind, self.difficulty, self.strategy, self.home):
            w.observe(lambda _ch: None if self._quiet else on_change(), names="value")
        self.seat_label = plain(W.HTML, value=f"<b>{seat + 1}</b>&nbsp;")
        super().__init__(
            [plain(W.VBox, children=[plain(W.HBox, children=[self.seat_label, self.name, self.colour, self.kind]),
                                     plain(W.HBox, children=[self.home, self.difficulty, self.strategy])])],
            layout=Layout(border_bottom="1px solid #ddd", padding="2px 0"),
        )
        self.relabel(lang)
        self._show_cpu_settings()

    def _limit_name(self, change: dict) -> None:
        """The engine takes names of at most MAX_NAME_LENGTH characters: the field keeps no more."""
        if isinstance(change["new"], str) and len(change["new"]) > MAX_NAME_LENGTH:
            self.name.value = change["new"][:MAX_NAME_LENGTH]

    def _show_cpu_settings(self) -> None:
        display = "" if self.kind.value else "none"
        self.difficulty.layout.display = self.strategy.layout.display = display

    def relabel(self, lang: str) -> None:
        """Translate choices, keeping the values (CPU settings are kept while human)."""
        def swap(widget: W.ValueWidget, options: list) -> None:
            value = widget.value
            widget.options = options
            widget.value = value

        self._quiet = True
        try:
            self._relabel(lang, swap)
        finally:
            self._quiet = False

    def _relabel(self, lang: str, swap: Callable) -> None:
        swap(self.kind, [(t("human", lang), False), (t("cpu", lang), True)])
        swap(self.difficulty, [(t(d, lang), d) for d in DIFFICULTIES])
        swap(self.strategy, [(t(s, lang), s) for s in STRATEGIES])
        swap(self.home, [(pref_name(p.code, lang), p.code) for p in japan().prefectures])
        self.name.placeholder = t("name", lang)
        self.difficulty.description = t("difficulty", lang)
        self.strategy.description = t("strategy", lang)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name.value, "colour": self.colour.value, "cpu": self.kind.value,
            "difficulty": self.difficulty.value, "strategy": self.strategy.value, "home": self.home.value,
        }

    def load(self, data: dict[str, Any]) -> None:
        self.name.value = data.get("name", self.name.value)
        self.colour.value = data.get("colour", self.colour.value)
        self.kind.value = bool(data.get("cpu", self.kind.value))
        self.difficulty.value = data.get("difficulty", self.difficulty.value)
        self.strategy.value = data.get("strategy", self.strategy.value)
        self.home.value = data.get("home", self.home.value)


class SetupScreen(W.VBox):
    """Players, homes (dropdown or map click), mode, roll for order, seed."""

    def __init__(self, c: GameController, on_preview: Callable[[dict[int, str]], None] | None = None) -> None:
        self.c = c
        self.on_preview = on_preview
        self.title = plain(W.HTML)
        self.count = W.ToggleButtons(options=[("2", 2), ("3", 3), ("4", 4)], value=4, style={"button_width": "40px"})
        self.rows = [PlayerRow(s, c.lang, self._changed) for s in range(4)]
        self.selected_seat = W.ToggleButtons(options=[("1", 0), ("2", 1), ("3", 2), ("4", 3)], value=0, style={"button_width": "40px"})
        self.hint = plain(W.HTML)
        self.mode = W.Dropdown(options=[("standard", "standard")], value="standard", layout=shared_layout(width="160px"),
                               style=shared_style(W.Dropdown))
        self.turns = W.Dropdown(options=list(STANDARD_TURNS), value=10, layout=Layout(width="80px"))
        self.roll_for_order = W.Checkbox(value=False, indent=False)
        self.seed = W.Text(value="", layout=shared_layout(width="120px"), style=shared_style(W.Text))
        #: one screen (hot seat) or separate screens (a table: a link per human seat)
        self.screens = W.ToggleButtons(options=[("", "one"), ("", "tables")], value="one", style={"button_width": "auto"})
        self.screens.add_class("cw-screens")
        #: called with the setup when Start makes a table (the app sets it; None: no tables)
        self.on_table: Callable[[GameSetup], None] | None = None
        self.error = plain(W.HTML)
        self.start_button = W.Button(layout=button_layout(), button_style="primary", style=shared_style(W.Button))
        self.back_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.start_button.on_click(lambda _: self.start())
        self.back_button.on_click(lambda _: setattr(c, "screen", "start"))
        self.count.observe(lambda _: self._changed(), names="value")
        self.seed.observe(lambda _: setattr(c, "setup_error", ""), names="value")
        self.turns.observe(lambda _: setattr(c, "setup_error", ""), names="value")
        self.mode.observe(lambda _: self._changed(), names="value")
        self.labels = {k: plain(W.HTML) for k in ("players", "mode", "turns", "seed", "screens")}
        self.players_box = plain(W.VBox, children=self.rows)
        super().__init__([
            self.title, plain(W.HBox, children=[self.labels["players"], self.count]), self.players_box,
            plain(W.HBox, children=[self.selected_seat, self.hint]),
            plain(W.HBox, children=[self.labels["mode"], self.mode, self.labels["turns"], self.turns]),
            self.roll_for_order,
            plain(W.HBox, children=[self.labels["seed"], self.seed]),
            plain(W.HBox, children=[self.labels["screens"], self.screens]),
            self.error, plain(W.HBox, children=[self.back_button, self.start_button]),
        ], layout=shared_layout())
        c.observe(self.relabel, names="lang")
        c.observe(self._show_error, names="setup_error")
        self.relabel()
        self._changed()

    def close(self) -> None:
        """Close the form with every widget of it (it stops following the controller)."""
        if self.comm is None:
            return  # closed already
        self.c.unobserve(self.relabel, names="lang")
        self.c.unobserve(self._show_error, names="setup_error")
        close_tree(self)

    def _show_error(self, _: Any = None) -> None:
        self.error.value = self._error_html()

    def _error_html(self) -> str:
        return f'<div class="cw-msg">{html.escape(self.c.setup_error)}</div>' if self.c.setup_error else ""

    def relabel(self, _: Any = None) -> None:
        lang = self.c.lang
        self.title.value = f"<h3>{t('setup', lang)}</h3>"
        for k, w in self.labels.items():
            text = html.escape(shell_t(k, lang)) if k == "screens" else t("player_count" if k == "players" else k, lang)
            w.value = text + "&nbsp;"
        screens = self.screens.value
        self.screens.options = [(shell_t("one_screen", lang), "one"), (shell_t("separate_screens", lang), "tables")]
        self.screens.value = screens
        self.roll_for_order.description = t("roll_for_order", lang)
        for r in self.rows:
            r.relabel(lang)
        value = self.mode.value
        self.mode.options = [(t(m, lang), m) for m in MODES]
        self.mode.value = value
        self._changed()
        self.hint.value = f"<i>{t('click_map_home', lang)}</i>"
        self.start_button.description = t("start", lang)
        self.back_button.description = t("back", lang)

    def _changed(self) -> None:
        if not hasattr(self, "players_box"):
            return  # still building
        n = self.count.value
        for r in self.rows:
            r.layout.display = "" if r.seat < n else "none"
        self.turns.layout.display = "" if self.mode.value == "standard" else "none"
        self.c.setup_error = ""  # an error is about the form as it was: a change clears it
        if self.on_preview:
            self.on_preview({r.home.value: r.colour.value for r in self.rows[:n]})

    def pick_home(self, code: int) -> None:
        """Map click during setup: the selected seat's home."""
        self.rows[self.selected_seat.value].home.value = code

    def form(self) -> dict[str, Any]:
        """The setup as a plain dict (:meth:`GameSetup.from_dict` format)."""
        seed_text = self.seed.value.strip()
        return {
            "players": [r.to_dict() for r in self.rows[: self.count.value]],
            "mode": self.mode.value,
            "turns": self.turns.value if self.mode.value == "standard" else None,
            "roll_for_order": self.roll_for_order.value,
            "seed": int(seed_text) if seed_text.lstrip("-").isdigit() else None,
        }

    def load(self, form: dict[str, Any]) -> None:
        """Fill the form from remembered preferences (a :meth:`form` dict)."""
        players = form.get("players") or []
        if 2 <= len(players) <= 4:
            self.count.value = len(players)
        for row, data in zip(self.rows, players, strict=False):
            row.load(data)
        if form.get("mode") in MODES:
            self.mode.value = form["mode"]
        if form.get("turns") in STANDARD_TURNS:
            self.turns.value = form["turns"]
        self.roll_for_order.value = bool(form.get("roll_for_order", False))

    def start(self) -> bool:
        """Validate and start; an invalid setup is explained, not crashed."""
        seed_text = self.seed.value.strip()
        if seed_text and not seed_text.lstrip("-").isdigit():
            self.c.setup_error = t("setup_bad_seed", self.c.lang)
            return False
        if self.screens.value == "tables" and self.on_table is not None:
            setup = self.c.setup_from_form(self.form())
            if setup is None:
                return False
            self.on_table(setup)
            return True
        return self.c.new_game_from_form(self.form())


class ResultsScreen(W.VBox):
    """Final standings, decisive victory, New game with same setup, Replay (``on_replay``,
    set by the app), and below them the story of the game in pictures
    (:mod:`conquest_widget.games.japan_conquest.widget.story_view`): score by turn with the
    Final Showdown's hidden totals, the final map, regions and battles."""

    def __init__(self, c: GameController) -> None:
        self.c = c
        self.table = plain(W.HTML)
        self.story = plain(W.HTML)
        self.story.add_class("cw-results-story")
        self._story: GameStory | None = None
        self._story_key: int | None = None
        self._message_key: int | None = None
        self.again_button = W.Button(layout=button_layout(), button_style="primary", style=shared_style(W.Button))
        self.start_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.again_button.on_click(lambda _: c.same_setup_again())
        self.start_button.on_click(lambda _: setattr(c, "screen", "start"))
        #: opens the replay of the finished game (the app sets it)
        self.on_replay: Callable[[], None] = lambda: None
        self.replay_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.replay_button.add_class("cw-replay-finished")
        self.replay_button.on_click(lambda _: self.on_replay())
        self.message = plain(W.HTML)  # a replay that cannot be opened says why here
        super().__init__([self.table, plain(W.HBox, children=[self.again_button, self.start_button, self.replay_button]),
                          self.message, self.story], layout=shared_layout())
        c.observe(self.refresh, names=["version", "lang", "screen"])
        self.refresh()

    def close(self) -> None:
        """Close the screen with every widget of it (it stops following the controller)."""
        if self.comm is None:
            return  # closed already
        self.c.unobserve(self.refresh, names=["version", "lang", "screen"])
        close_tree(self)

    def refresh(self, _: Any = None) -> None:
        c, v, lang = self.c, self.c.view, self.c.lang
        self.again_button.description = t("same_setup", lang)
        self.start_button.description = t("to_start", lang)
        self.replay_button.description = t("replay", lang)
        self.replay_button.tooltip = t("replay_tip", lang)
        if self._message_key != c.game_key:
            self.message.value, self._message_key = "", c.game_key
        if not v or v["outcome"] is None:
            self.table.value = ""
            self.story.value = ""  # the story holds every total: never before the game is over
            self._story = self._story_key = None
            return
        rows = "".join(
            f'<tr data-seat="{r["seat"]}"><td>{r["rank"]}</td><td>{name_html(r["name"])}</td><td>{r["score"]}</td></tr>'
            for r in v["ranking"]
        )
        winners = " / ".join(r["name"] for r in v["ranking"] if r["rank"] == 1)
        headline = t("decisive", lang, name=winners) if v["end_reason"] == "defeat" else t("winner", lang, name=winners)
        self.table.value = (
            f"<h3>{t('results', lang)}</h3><p><b>{html.escape(headline)}</b></p><div class='cw-score'><table>"
            f"<tr><th>{t('rank', lang)}</th><th>{t('players', lang)}</th><th>{t('score', lang)}</th></tr>{rows}</table></div>"
        )
        if self._story_key != c.game_key:  # replayed once per finished game
            self._story, self._story_key = c.story(), c.game_key
        self.story.value = story_html(self._story, lang) if self._story is not None else ""
