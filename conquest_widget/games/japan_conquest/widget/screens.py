"""The results screen (the start screen is :mod:`.start_screen`, the New game form :mod:`.setup_form`)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from conquest_widget.games.japan_conquest.story import GameStory
from conquest_widget.games.japan_conquest.text import t
from conquest_widget.games.japan_conquest.widget.controller import GameController
from conquest_widget.games.japan_conquest.widget.story_view import story_html
from conquest_widget.games.japan_conquest.widget.style import (
    button_layout,
    name_html,
)
from conquest_widget.lean import close_tree, plain, shared_layout, shared_style


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
