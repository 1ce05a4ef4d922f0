"""Japan Conquest's stage in the shared shell: the prefecture map, shown left of every
screen of the app (:attr:`conquest_widget.ui.game_ui.GameUI.stage`) but the replay,
which has its own.  One map per app: the start screen shows Japan, the New game form
colours the chosen homes and takes a click on a prefecture as the selected seat's home,
and a match's board (:class:`~.board.JapanBoard`) draws on it, so Play, New game and
Exit never send the 47 outlines again.

    >>> from conquest_widget.games.japan_conquest.widget.setup_form import SetupScreen
    >>> stage = JapanStage("en")
    >>> form = SetupScreen(stage.seat); stage.pick_for(form)
    >>> stage.map_view.controller.click_prefecture(40); form.rows[0].home.value   # Fukuoka
    40
    >>> stage.map_view.style_of(40)["fill_color"] == form.rows[0].colour.value
    True
    >>> stage.pick_for(None); stage.map_view.style_of(40)["fill_color"] == form.rows[0].colour.value
    False
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from conquest_widget.games.japan_conquest.widget.controller import SeatController
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.games.japan_conquest.widget.style import CSS
from conquest_widget.lean import Layout, close_tree, plain


class JapanStage(W.VBox):
    """The map of a Japan Conquest app in the shell (see the module docstring): ``seat``
    is the Japan controller it draws from (a :class:`~.controller.SeatController` bound to the
    match shown, or to none)."""

    def __init__(self, lang: str = "en") -> None:
        self.seat = SeatController(None, lang=lang, screen="start")
        self.map_view = MapView(self.seat, layout=Layout(width="100%"))
        self.form: Any = None
        self.seat.observe(self._clicked, names="selected_prefecture")
        super().__init__([plain(W.HTML, value=CSS), self.map_view], layout=Layout(width="100%"))
        self.add_class("cw-app")
        self.add_class("cw-japan-stage")

    # ------------------------------------------------------------ what the app asks
    def pick_for(self, form: Any) -> None:
        """The New game form ``form`` is shown (None: no form): the map colours its homes,
        and a click on a prefecture is the selected seat's home."""
        old, self.form = self.form, form
        if old is not None and old is not form:
            old.on_preview = None
        if form is None:
            if self.map_view.preview:
                self.map_view.set_preview({})
            return
        self.release()
        self.seat.screen = "setup"
        form.on_preview = self.map_view.set_preview
        form.preview()

    def attach(self, source: Any) -> None:
        """A match is shown: draw what ``source`` (a live shell controller) publishes."""
        self.pick_for(None)
        self.seat.screen = "game"  # (before the seat's first mirror: the map draws the game)
        self.seat.bind(source)

    def release(self) -> None:
        """The match shown went away: the map shows Japan with no game."""
        if self.seat.source is not None or self.seat.view:
            self.seat.clear()
        self.seat.screen = "start"
        self.map_view.set_overlay(None)

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.seat.lang = lang

    def close(self) -> None:
        """Close the map with every widget of it (the app is closed)."""
        if self.comm is None:
            return  # closed already
        self.pick_for(None)
        self.seat.unobserve(self._clicked, names="selected_prefecture")
        self.seat.bind(None)
        close_tree(self)

    def _clicked(self, change: dict[str, Any]) -> None:
        if self.form is not None and change["new"]:
            self.form.pick_home(change["new"])


__all__ = ["JapanStage"]
