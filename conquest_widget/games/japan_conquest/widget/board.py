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
- In the shell's replay explorer (:class:`conquest_widget.ReplayExplorer`: a controller
  with ``live`` False) it shows the position, the turn and whose it is, "◀ turn" /
  "turn ▶" (the explorer follows), the replay's log and the game's overlays (reachable
  stops, movement distances, regional control: :meth:`JapanBoard.show_reachable`,
  :meth:`~JapanBoard.show_distances`, :meth:`~JapanBoard.show_regions`), drawn from the
  published view alone (:func:`~.replay.public_game`): an unfinished game's Final
  Showdown totals stay hidden.

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

import html
from typing import Any

import ipywidgets as W

from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.text import t as japan_t
from conquest_widget.games.japan_conquest.widget.controller import BoardModel, SeatController
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.games.japan_conquest.widget.panels import BattlePanel, JapanPanels, PanelText, TurnPanel
from conquest_widget.games.japan_conquest.widget.replay import (
    ReplayController,
    ReplayLogView,
    _t,
    distance_overlay,
    public_game,
    reachable_overlay,
    region_overlay,
)
from conquest_widget.games.japan_conquest.widget.style import CSS
from conquest_widget.lean import Layout
from conquest_widget.maps.japan.board import japan


class JapanBoard(W.HBox):
    """Japan Conquest's board for the shell (see the module docstring): ``inner`` is the
    Japan controller the panels draw from, mirrored from ``controller``."""

    OVERLAYS = ("none", "reachable", "distance", "regions")
    #: the board shows the controller's ``message`` itself (in its turn panel)
    shows_messages = True

    def __init__(self, controller: Any, lang: str = "en", stage: Any = None) -> None:
        """``stage``: the app's :class:`~.stage.JapanStage` to draw the map on (the shell's
        app: the board is then the side column only, with the map's tools); None: the
        board has its own map (a table's page, the replay explorer)."""
        self.source = controller
        self.live = bool(getattr(controller, "live", True))
        self.stage = stage if self.live else None
        self.inner: BoardModel
        if self.stage is not None:
            self.stage.attach(controller)
            self.inner = self.stage.seat
            self.inner.lang = lang
            self.map_view = self.stage.map_view
        else:
            self.inner = SeatController(controller, lang=lang) if self.live else ReplayController(lang=lang)
            self.map_view = MapView(self.inner, every_label=True, layout=Layout(width="58%"))
        self.overlay = W.Dropdown(layout=Layout(width="220px"))
        self.allowance = W.IntSlider(value=3, min=1, max=18, layout=Layout(width="240px"))
        #: the overlays' seat and distance origin (None: the player to move, their position)
        self.overlay_seat: int | None = None
        self.overlay_origin: int | None = None
        self._replay: Any = None  # the replay drawn (a new one: the log's cache is cleared)
        self._turn_starts: list[int] | None = None
        if self.live:
            # the turn and battle panels, the scoreboard and the prefecture's info: one
            # widget drawn in the page (issue 32); its parts read what the page shows
            self.panels = JapanPanels(self.inner)
            self.turn_panel: TurnPanel | None = self.panels.turn_panel
            self.battle_panel: BattlePanel | None = self.panels.battle_panel
            self.log_view: ReplayLogView | None = None
            side = [self.panels]
            if self.stage is not None:
                side.append(self._map_tools())
        else:
            self.panels = JapanPanels(self.inner, parts=("score", "info"))
            self.turn_panel = self.battle_panel = None
            self.log_view = ReplayLogView(self.inner)
            self.status = W.HTML()
            self.prev_turn_button = W.Button(layout=Layout(width="auto"))
            self.next_turn_button = W.Button(layout=Layout(width="auto"))
            self.prev_turn_button.on_click(lambda _b: self.prev_turn())
            self.next_turn_button.on_click(lambda _b: self.next_turn())
            side = [self.status, W.HBox([self.prev_turn_button, self.next_turn_button]), self.panels,
                    W.HBox([self.overlay, self.allowance]), self.log_view]
        self.scoreboard: PanelText = self.panels.scoreboard
        self.info_panel: PanelText = self.panels.info_panel
        self._relabel()
        self.overlay.observe(self._overlay_picked, names="value")
        self.allowance.observe(self._draw_overlay, names="value")
        if self.stage is not None:  # the column beside the app's stage
            super().__init__([W.VBox(side, layout=Layout(width="100%"))], layout=Layout(width="100%"))
        else:
            super().__init__([W.HTML(CSS), self.map_view, W.VBox(side, layout=Layout(width="42%", padding="0 0 0 10px"))],
                             **({} if self.live else {"layout": Layout(width="100%")}))  # a replay: the explorer's width
        self.add_class("cw-app")
        self.add_class("cw-japan-board")
        controller.observe(self._redraw, names=["version", "message"])
        self._redraw()

    def _map_tools(self) -> W.HBox:
        """Overview, Current Location and the online basemap, for the stage's map."""
        self.overview_button = W.Button(layout=Layout(width="auto"))
        self.overview_button.add_class("cw-overview")
        self.locate_button = W.Button(layout=Layout(width="auto"))
        self.locate_button.add_class("cw-locate")
        self.basemap = W.Checkbox(value=self.map_view.basemap_layer is not None, indent=False, layout=Layout(width="auto"))
        self.overview_button.on_click(lambda _b: self.map_view.overview())
        self.locate_button.on_click(lambda _b: self.locate())
        self.basemap.observe(lambda ch: self.map_view.set_basemap(ch["new"]), names="value")
        return W.HBox([self.overview_button, self.locate_button, self.basemap])

    def locate(self) -> None:
        """Centre the map on the player to move."""
        v = self.inner.view
        if v:
            self.map_view.centre_on(v["players"][v["current_player"]]["position"])

    def close(self) -> None:
        """Stop following the controller and close the board; the stage's map stays
        (the app's, shown with no game) and the basemap is taken off it."""
        if self.comm is None:
            return  # closed already
        self.source.unobserve(self._redraw, names=["version", "message"])
        if self.stage is not None:
            if self.map_view.basemap_layer is not None:
                self.map_view.set_basemap(False)
            self.stage.release()  # its seat lets go of the controller (and of the CPUs' pace)
            del self.map_view, self.stage  # not closed with the board
        elif self.live:
            self.inner.bind(None)  # type: ignore[attr-defined]  # the CPUs' pace it installed goes too
        super().close()

    def _redraw(self, _change: Any = None) -> None:
        if not self.live:  # (a live board's seat follows the controller itself)
            replay = getattr(self.source, "replay", None)
            if replay is not self._replay:  # another game (an app reuses its replay screen)
                self._replay, self._turn_starts = replay, None
                assert self.log_view is not None
                self.log_view.clear_cache()
                self.inner.selected_prefecture = 0
            self.inner.mirror(self.source)  # type: ignore[attr-defined]
            self._update_status()
        self._draw_overlay()

    # ------------------------------------------------------------ replay: status and turns
    @property
    def index(self) -> int:
        """The replay's position shown (0 when the controller has none)."""
        return int(getattr(self.source, "index", 0))

    def turn_starts(self) -> list[int]:
        """The replay's positions where a turn starts (and 0): the stops of "◀ turn" and
        "turn ▶" (read from the public events, once per replay)."""
        replay = getattr(self.source, "replay", None)
        if replay is None:
            return [0]
        if self._turn_starts is None:
            self._turn_starts = [0] + [j for j in range(1, replay.length + 1)
                                       if any(e["type"] == "turn_start" for e in replay.step_events(j, None))]
        return list(self._turn_starts)

    def next_turn(self) -> None:
        """Show the start (the roll) of the next turn, or the end."""
        k, n = self.index, getattr(self.source, "length", 0)
        self.source.index = next((j for j in self.turn_starts() if j > k), n)

    def prev_turn(self) -> None:
        """Show the start of the shown turn, or of the previous one if already there."""
        k = self.index
        self.source.index = max((j for j in self.turn_starts() if j < k), default=0)

    def _update_status(self) -> None:
        v, lang, k = self.inner.view, self.inner.lang, self.index
        if not v:
            return
        if v.get("outcome") is not None:
            line = _t("over", lang)
        else:
            name = v["players"][v["current_player"]]["name"]
            line = _t("turn", lang, turn=v["turn"], name=name) + f" · {v['phase']}"
        if k == 0:
            line += f" · {_t('start', lang)}"
        self.status.value = f'<div class="cw-replay-status">{html.escape(line)}</div>'
        n = getattr(self.source, "length", 0)
        self.prev_turn_button.disabled = k == 0
        self.next_turn_button.disabled = k >= n

    # ------------------------------------------------------------ replay: overlays
    def shown_game(self) -> JapanMatch:
        """The shown position as a match (with no history) built from the published view alone
        (:func:`~.replay.public_game`: hidden totals stay hidden), for the analysis API."""
        return public_game(self.inner.view)

    def show_reachable(self, allowance: int = 1, seat: int | None = None) -> None:
        """Overlay the stops reachable with ``allowance`` for ``seat`` (default: the player to move)."""
        self._set_overlay("reachable", allowance=allowance, seat=seat)

    def show_distances(self, start: int | str | None = None, seat: int | None = None) -> None:
        """Overlay the movement from ``start`` (a code or name; default: the player's position)."""
        self._set_overlay("distance", origin=None if start is None else japan().code(start), seat=seat)

    def show_regions(self) -> None:
        """Overlay regional control."""
        self._set_overlay("regions")

    def clear_overlay(self) -> None:
        """Back to the game's own colours."""
        self._set_overlay("none")

    def _set_overlay(self, kind: str, *, allowance: int | None = None, origin: int | None = None,
                     seat: int | None = None) -> None:
        self._relabelling = True
        try:
            if allowance is not None:
                self.allowance.value = allowance
            self.overlay.value = kind
        finally:
            self._relabelling = False
        self.overlay_seat, self.overlay_origin = seat, origin
        self._draw_overlay()

    def _overlay_picked(self, _change: Any = None) -> None:
        """The dropdown: the chosen overlay for the player to move."""
        if not getattr(self, "_relabelling", False):
            self.overlay_seat = self.overlay_origin = None
            self._draw_overlay()

    def overlay_now(self) -> tuple[dict[int, dict], str] | None:
        """The chosen overlay's ``(styles, legend)`` for the shown position, or None."""
        kind, view, lang = self.overlay.value, self.inner.view, self.inner.lang
        if kind in (None, "none") or not view:
            return None
        game = public_game(view)
        seat = self.overlay_seat
        if kind == "reachable":
            note = _t("tolls_open", lang) if view.get("totals_hidden") else ""
            return reachable_overlay(game, seat, self.allowance.value, lang, note=note)
        if kind == "distance":
            s = game.current_player if seat is None else seat
            origin = self.overlay_origin or game.state.players[s].position
            return distance_overlay(game, origin, s, lang)
        return region_overlay(game, lang)

    def _draw_overlay(self, _change: Any = None) -> None:
        """The chosen overlay, from the published view's position (what its viewer may see)."""
        if getattr(self, "_relabelling", False) or self.live:
            return
        self.allowance.layout.display = "" if self.overlay.value == "reachable" else "none"
        ov = self.overlay_now()
        self.map_view.set_overlay(*(ov if ov is not None else (None, None)))

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
        if not self.live:
            self.prev_turn_button.description = _t("prev_turn", lang)
            self.next_turn_button.description = _t("next_turn", lang)
        if getattr(self, "overview_button", None) is not None:
            self.overview_button.description = japan_t("overview", lang)
            self.locate_button.description = japan_t("current_location", lang)
            self.basemap.description = japan_t("basemap", lang)

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.inner.lang = lang
        self._relabel()
        if not self.live:
            self._update_status()
        self._draw_overlay()


__all__ = ["JapanBoard"]
