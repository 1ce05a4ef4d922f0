"""Japan Conquest's board as the shared shell hosts a game's board
(:class:`~conquest_widget.ui.game_ui.GameUI`'s ``board(controller, lang)``): the
prefecture map and the side panels, drawn from whatever a shell controller publishes
(``viewer``, ``view``, ``legal``, ``events``, ``version``), with moves sent back through
``controller.act(action_dict)``.  It never sees the match.

- At a table (:class:`~conquest_widget.ui.table_controller.TableController`, each player
  at their own screen) it is the game a player plays: Roll with the dice they hold, the
  route planned by clicks on the map, Undo / Confirm, the battle dice, each battle's result
  until Continue; a refused step is explained in the game's own words.  The page of a seat
  that is not to act shows whose turn it is and offers nothing to click.
- In the shell's replay explorer (a controller with ``live`` False) it shows the position
  with the game's overlays (reachable stops, movement distances, regional control).

    >>> import tempfile
    >>> from conquest_widget import tables
    >>> from conquest_widget.games.japan_conquest.widget.shell import UI
    >>> from conquest_widget.ui.game_ui import SeatChoice
    >>> from conquest_widget.ui.table_controller import TableController
    >>> store = tables.open_store(tempfile.mkdtemp())
    >>> setup = UI.make_setup([SeatChoice("Ann"), SeatChoice("Ben")], {"turns": 5})
    >>> new = tables.create_table(store, "japan_conquest", setup, ["human", "human"], seed=1)
    >>> ann = JapanBoard(TableController(tables.join(store, new.invites[0])))
    >>> ann.turn_panel.roll_button.click(); ann.inner.phase, ann.inner.legal_steps
    ('route', [11, 12, 14, 19])
    >>> ann.map_view.controller.click_prefecture(40); ann.inner.message
    'Fukuoka is not connected to where you are'
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from conquest_widget.games.japan_conquest.actions import Action, Step
from conquest_widget.games.japan_conquest.bots import game_from_view
from conquest_widget.games.japan_conquest.widget.controller import GameController, battle_summary
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.games.japan_conquest.widget.panels import BattlePanel, InfoPanel, Scoreboard, TurnPanel
from conquest_widget.games.japan_conquest.widget.replay import (
    ReplayController,
    ReplayLogView,
    _t,
    distance_overlay,
    reachable_overlay,
    region_overlay,
)
from conquest_widget.games.japan_conquest.widget.style import CSS
from conquest_widget.lean import Layout


class SeatController(GameController):
    """The Japan board's traits (phase, route, legal steps, the battle shown...) mirrored
    from a live shell controller ``source``; the player's moves go to ``source.act``.  It
    plays no CPU (the source's owner does) and holds no match."""

    def __init__(self, source: Any, **kwargs: Any) -> None:
        kwargs.setdefault("autoplay_cpu", False)
        kwargs.setdefault("screen", "game")
        self.source = source
        super().__init__(**kwargs)
        self.hold_battles = True

    @property
    def is_over(self) -> bool:
        return bool(self.view) and self.view.get("outcome") is not None

    @property
    def human_to_act(self) -> bool:
        """May this page's player act now?  (The source publishes legal actions only then.)"""
        return bool(self.legal) and not self.is_over

    def _humans(self) -> set[int]:
        humans = getattr(self.source, "humans", None)
        if humans is not None:
            return set(humans)
        return set() if self.source.viewer is None else {self.source.viewer}

    def mirror(self) -> None:
        """Publish what the source publishes now; a battle that ended since the last mirror
        gets its moment (until Continue when this page's player fought it)."""
        src = self.source
        if not src.view:
            return
        first = not self.view or src.viewer != self.viewer
        seen = len(self.events)
        self.show(src.viewer, dict(src.view), list(src.legal), list(src.events))
        report = {} if first else battle_summary(self.events, seen, humans=self._humans())
        if report:
            self.battle_report = report
        elif self.battle_report and not self.battle_report.get("human"):
            self.battle_report = {}

    def _apply(self, action: Action) -> bool:
        self.message = ""
        self.source.act(action.to_dict())
        return not self.source.message

    def _why_not_step(self, code: int) -> str:
        """The source refuses the step and says why (in the game's words: the board sets
        the source's ``explain_refusal``)."""
        self.source.act(Step(code).to_dict())
        return str(self.source.message)

    def _schedule_cpu(self) -> None:
        """CPUs are played by the source's owner (a table's lease holder)."""

    def play_cpu_now(self) -> None:
        """CPUs are played by the source's owner (a table's lease holder)."""


class JapanBoard(W.HBox):
    """Japan Conquest's board for the shell (see the module docstring): ``inner`` is the
    Japan controller the panels draw from, mirrored from ``controller``."""

    OVERLAYS = ("none", "reachable", "distance", "regions")
    #: the board shows the controller's ``message`` itself (in its turn panel)
    shows_messages = True

    def __init__(self, controller: Any, lang: str = "en") -> None:
        self.source = controller
        self.live = bool(getattr(controller, "live", True))
        self.inner: GameController = SeatController(controller, lang=lang) if self.live else ReplayController(lang=lang)
        self.map_view = MapView(self.inner, every_label=True, layout=Layout(width="58%"))
        self.scoreboard = Scoreboard(self.inner)
        self.info_panel = InfoPanel(self.inner)
        self.overlay = W.Dropdown(layout=Layout(width="220px"))
        self.allowance = W.IntSlider(value=3, min=1, max=18, layout=Layout(width="240px"))
        if self.live:
            controller.explain_refusal = self.inner.explain
            self.turn_panel: TurnPanel | None = TurnPanel(self.inner)
            self.battle_panel: BattlePanel | None = BattlePanel(self.inner)
            self.log_view: ReplayLogView | None = None
            side = [self.turn_panel, self.battle_panel, self.scoreboard, self.info_panel]
        else:
            self.turn_panel = self.battle_panel = None
            self.log_view = ReplayLogView(self.inner)
            side = [self.scoreboard, self.info_panel, W.HBox([self.overlay, self.allowance]), self.log_view]
        self._relabel()
        self.overlay.observe(self._draw_overlay, names="value")
        self.allowance.observe(self._draw_overlay, names="value")
        super().__init__([W.HTML(CSS), self.map_view, W.VBox(side, layout=Layout(width="42%", padding="0 0 0 10px"))])
        self.add_class("cw-app")
        self.add_class("cw-japan-board")
        controller.observe(self._redraw, names=["version", "message"])
        self._redraw()

    def _redraw(self, _change: Any = None) -> None:
        if self.live:
            self.inner.mirror()  # type: ignore[attr-defined]
            self.inner.message = self.source.message
        else:
            self.inner.mirror(self.source)  # type: ignore[attr-defined]
        self._draw_overlay()

    def _draw_overlay(self, _change: Any = None) -> None:
        """The chosen overlay for the player to move, from the published view's position
        (the public board: what any seat may see)."""
        if getattr(self, "_relabelling", False) or self.live:
            return
        kind, view, lang = self.overlay.value, self.inner.view, self.inner.lang
        self.allowance.layout.display = "" if kind == "reachable" else "none"
        if kind in (None, "none") or not view:
            self.map_view.set_overlay(None)
            return
        game = game_from_view(view, 0)
        if kind == "reachable":
            styles, legend = reachable_overlay(game, None, self.allowance.value, lang)
        elif kind == "distance":
            seat = game.current_player
            styles, legend = distance_overlay(game, game.state.players[seat].position, seat, lang)
        else:
            styles, legend = region_overlay(game, lang)
        self.map_view.set_overlay(styles, legend)

    def _relabel(self) -> None:
        lang = self.inner.lang
        value = self.overlay.value or "none"
        self._relabelling = True
        try:
            self.overlay.options = [(_t(k, lang), k) for k in self.OVERLAYS]
            self.overlay.value = value
        finally:
            self._relabelling = False
        self.overlay.description = _t("overlay", lang)
        self.allowance.description = _t("allowance", lang)

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.inner.lang = lang
        self._relabel()
        self._draw_overlay()


__all__ = ["JapanBoard", "SeatController"]
