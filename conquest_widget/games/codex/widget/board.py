"""The Codex board in the shared shell: the realm on an ipyleaflet map (non-geographic CRS,
one polygon per plot, restyled incrementally), dice, turn controls, the placement preview,
the Joker's faction choice, the forced-sale dialog and the market panel.

It draws only from a :class:`~conquest_widget.ui.controller.MatchController`'s published
traits and sends moves only with ``controller.act``:

    >>> from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
    >>> from conquest_widget.ui.controller import MatchController
    >>> c = MatchController(CodexMatch(CodexSetup.quick(2, k=3, cpu=(False, True)), seed=3), humans={0})
    >>> b = CodexBoard(c, "en")
    >>> len(b.plots), sorted(b.share_buttons)
    (54, ['ember', 'grove', 'sun', 'tide'])
    >>> b.share_buttons["tide"].click(); c.view["players"][0]["shares"]["tide"]
    1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipyleaflet as L
import ipywidgets as W
from ipyleaflet import projections
from traitlets import Unicode

from conquest_widget.core.safe_text import html_text
from conquest_widget.lean import Layout
from conquest_widget.maps import lean
from conquest_widget.maps.quiet_pointer import QuietPointer

from ..board import grid
from ..engine import preview, state_from_view
from ..rules import FACTION_COLOURS, FACTIONS, TERRITORY_COLUMNS
from ..text import faction_name, t
from . import render

STYLE_KEYS = ("fill_color", "fill_opacity", "color", "weight", "dash_array")
#: the board spans this many map units (Simple CRS: one unit = 2 px at zoom 1)
BOARD_WIDTH, BOARD_HEIGHT = 300.0, 200.0
EMPTY_FILL = "#f4eedd"
LEGAL_BORDER = "#ff8f00"
JOKER_FILL = "#ffe082"
REMOVE_BORDER = "#d50000"
BORDER_COLOUR = "#3b2f1e"


class CodexPlot(lean.Polygon):
    """A plot's square whose SVG path carries stable CSS classes
    (``cw-plot cw-plot-<territory>-<row>-<col>``) through Leaflet's ``className`` option."""

    class_name = Unicode("").tag(sync=True, o=True)


def plot_style(cell: str | None, *, legal: str | None = None, pending: str | None = None,
               removing: bool = False, last: bool = False) -> dict[str, Any]:
    """The style of one plot: its piece (or empty), highlighted when a legal placement
    (``legal`` = the faction, ``"*"`` for a Joker), chosen for the preview (``pending``),
    about to be conquered (``removing``) or the last piece placed (``last``).

    >>> plot_style(None)["fill_color"], plot_style("tide")["fill_color"]
    ('#f4eedd', '#2e6fb7')
    >>> plot_style(None, legal="*")["color"]
    '#ff8f00'
    """
    if pending is not None:
        return {"fill_color": FACTION_COLOURS[pending], "fill_opacity": 0.75, "color": "#000000",
                "weight": 4, "dash_array": "6 3"}
    if cell is None:
        if legal is not None:
            fill = JOKER_FILL if legal == "*" else FACTION_COLOURS[legal]
            return {"fill_color": fill, "fill_opacity": 0.45 if legal != "*" else 0.8, "color": LEGAL_BORDER,
                    "weight": 3, "dash_array": None}
        return {"fill_color": EMPTY_FILL, "fill_opacity": 0.95, "color": "#b8ad94", "weight": 1, "dash_array": None}
    if removing:
        return {"fill_color": FACTION_COLOURS[cell], "fill_opacity": 0.3, "color": REMOVE_BORDER,
                "weight": 3, "dash_array": "3 4"}
    return {"fill_color": FACTION_COLOURS[cell], "fill_opacity": 0.92, "color": "#222222" if last else "#ffffff",
            "weight": 3 if last else 1, "dash_array": None}


def _button(cls: str, on_click: Any, **kw: Any) -> W.Button:
    b = W.Button(layout=Layout(width="auto"), **kw)
    b.add_class(cls)
    b.on_click(lambda _b: on_click())
    return b


def _key(action: Mapping[str, Any]) -> tuple:
    return tuple(sorted(action.items()))


class CodexBoard(W.VBox):
    """The Codex board for one :class:`MatchController` (see the module docstring)."""

    def __init__(self, controller: Any, lang: str = "en", **kwargs: Any) -> None:
        self.controller = controller
        self.lang = lang
        view = controller.view
        self.k = int(view["k"])
        self.grid = grid(self.k)
        g = self.grid
        self.unit = BOARD_WIDTH / g.width
        #: local UI state: the plot (and faction) shown in the preview, the Joker plot
        self.pending: tuple[int, str] | None = None
        self.joker_plot: int | None = None
        self.local_message = ""
        #: plots restyled by the last render (the incremental restyle, for tests/benchmarks)
        self.touched: list[int] = []
        self.renders = 0
        #: redraws for a new controller version (one per version)
        self.redraws = 0
        self._version = -1

        # ---- the realm on a non-geographic map (no tiles: works offline)
        self.map = L.Map(
            crs=projections.Simple, center=[-BOARD_HEIGHT / 2, BOARD_WIDTH / 2], zoom=1, min_zoom=0, max_zoom=4,
            layers=(), attribution_control=False, keyboard=False, double_click_zoom=False, scroll_wheel_zoom=False,
            layout=Layout(width="640px", height="470px", flex="0 0 auto"),
        )
        self.plots: list[CodexPlot] = []
        self._styles: list[dict[str, Any]] = []
        layers: list[L.Layer] = []
        u = self.unit
        for p in range(g.n):
            y, x = divmod(p, g.width)
            terr, r, c = g.locate(p)
            style = plot_style(None)
            poly = CodexPlot(
                locations=[[-y * u, x * u], [-y * u, (x + 1) * u], [-(y + 1) * u, (x + 1) * u], [-(y + 1) * u, x * u]],
                class_name=f"cw-plot cw-plot-{terr}-{r}-{c}", name=f"{terr}-{r}-{c}", **style,
            )
            poly.on_click(self._clicker(p))
            self.plots.append(poly)
            self._styles.append(style)
            layers.append(poly)
        k = self.k
        for terr in range(1, 7):
            tr, tc = divmod(terr - 1, TERRITORY_COLUMNS)
            top, left = tr * k * u, tc * k * u
            layers.append(L.Rectangle(bounds=((-(top + k * u), left), (-top, left + k * u)), fill=False,
                                      color=BORDER_COLOUR, weight=4, pointer_events="none", name=f"territory {terr}"))
            lat = 9.0 if tr == 0 else -(BOARD_HEIGHT + 9.0)
            layers.append(lean.Marker(
                location=[lat, left + k * u / 2], draggable=False, keyboard=False, title=str(terr),
                icon=lean.DivIcon(html=f"<b class='cw-territory-number' style='font:bold 17px sans-serif;"
                                    f"color:{BORDER_COLOUR}'>{terr}</b>", icon_size=[20, 20], icon_anchor=[6, 10]),
            ))
        self.map.layers = tuple(layers)
        self.map.add_class("cw-codex-map")

        # ---- controls
        self.status = W.HTML()
        self.status.add_class("cw-status")
        self.dice = W.HTML()
        self.dice.add_class("cw-dice-box")
        self.note = W.HTML()
        self.note.add_class("cw-board-message")
        self.roll_button = _button("cw-roll", lambda: self._act({"type": "roll"}), button_style="primary")
        self.end_button = _button("cw-end-turn", lambda: self._act({"type": "end_turn"}), button_style="primary")
        self.share_buttons = {f: _button(f"cw-share-{f}", lambda f=f: self._act({"type": "pick", "faction": f}))
                              for f in FACTIONS}
        for f, b in self.share_buttons.items():
            b.style.button_color = FACTION_COLOURS[f]
            b.style.text_color = "white"
        self.actions = W.HBox([self.roll_button, self.end_button, *self.share_buttons.values()])
        self.actions.add_class("cw-actions")

        # ---- dialogs: preview + confirm/cancel, Joker's faction, forced sale
        self.preview_html = W.HTML()
        self.confirm_button = _button("cw-confirm", self.confirm, button_style="success")
        self.cancel_button = _button("cw-cancel", self.cancel)
        dialog_style = {"border": "2px solid #888", "padding": "6px", "margin": "0 0 6px 0"}
        # each dialog's Layout given when it is made (one set later would leave the default
        # one open, one model per board: issue 32)
        self.preview_box = W.VBox([self.preview_html, W.HBox([self.confirm_button, self.cancel_button])],
                                  layout=Layout(display="none", **dialog_style))
        self.preview_box.add_class("cw-preview-box")
        self.joker_html = W.HTML()
        self.joker_buttons = {f: _button(f"cw-joker-{f}", lambda f=f: self.choose_faction(f)) for f in FACTIONS}
        for f, b in self.joker_buttons.items():
            b.style.button_color = FACTION_COLOURS[f]
            b.style.text_color = "white"
        self.joker_cancel = _button("cw-joker-cancel", self.cancel)
        self.joker_box = W.VBox([self.joker_html, W.HBox([*self.joker_buttons.values(), self.joker_cancel])],
                                layout=Layout(display="none", **dialog_style))
        self.joker_box.add_class("cw-joker")
        self.forced_html = W.HTML()
        self.forced_buttons = {f: _button(f"cw-forced-{f}", lambda f=f: self._act({"type": "forced_sell", "faction": f}),
                                          button_style="danger") for f in FACTIONS}
        self.forced_box = W.VBox([self.forced_html, W.HBox(list(self.forced_buttons.values()))],
                                 layout=Layout(display="none", **dialog_style))
        self.forced_box.add_class("cw-forced")

        # ---- market
        self.market_title = W.HTML()
        self.purchases = W.HTML()
        self.purchases.add_class("cw-purchases-left")
        self.faction_rows: dict[str, W.HTML] = {}
        self.buy_buttons: dict[str, W.Button] = {}
        self.sell_buttons: dict[str, W.Button] = {}
        rows = []
        for f in FACTIONS:
            info = W.HTML()
            self.faction_rows[f] = info
            self.buy_buttons[f] = _button(f"cw-buy-{f}", lambda f=f: self._act({"type": "buy", "faction": f}))
            self.sell_buttons[f] = _button(f"cw-sell-{f}", lambda f=f: self._act({"type": "sell", "faction": f}))
            row = W.HBox([info, self.buy_buttons[f], self.sell_buttons[f]], layout=Layout(align_items="center"))
            row.add_class(f"cw-market-{f}")
            rows.append(row)
        self.players_html = W.HTML()
        self.players_html.add_class("cw-market-players")
        self.market = W.VBox([self.market_title, self.purchases, *rows, self.players_html],
                             layout=Layout(border="1px solid #ccc", padding="6px"))
        self.market.add_class("cw-market")

        right = W.VBox([self.preview_box, self.joker_box, self.forced_box, self.market],
                       layout=Layout(margin="0 0 0 10px"))
        top = W.HBox([self.dice, self.actions], layout=Layout(align_items="center"))
        super().__init__([self.status, top, self.note, W.HBox([self.map, right], layout=Layout(flex_flow="row wrap")),
                          QuietPointer(self.map)],
                         **kwargs)
        self.add_class("cw-codex-board")
        controller.observe(self._on_version, names="version")
        controller.observe(self._on_message, names="message")
        self.redraw()

    # ------------------------------------------------------------ reading the controller
    @property
    def view(self) -> dict[str, Any]:
        return self.controller.view

    def _legal_keys(self) -> set[tuple]:
        return {_key(a) for a in self.controller.legal}

    def legal_plots(self) -> dict[int, list[str]]:
        """Plot id -> the factions that may be placed there now (the viewer's legal moves)."""
        out: dict[int, list[str]] = {}
        g = self.grid
        for a in self.controller.legal:
            if a.get("type") == "place":
                out.setdefault(g.plot(a["territory"], a["row"], a["col"]), []).append(a["faction"])
        return out

    def _place_action(self, plot: int, faction: str) -> dict[str, Any]:
        terr, r, c = self.grid.locate(plot)
        return {"type": "place", "territory": terr, "row": r, "col": c, "faction": faction}

    def _name(self, seat: int | None) -> str:
        players = self.view.get("players", [])
        return players[seat]["name"] if seat is not None and 0 <= seat < len(players) else "?"

    # ------------------------------------------------------------ acting
    def _act(self, action: dict[str, Any]) -> None:
        self.pending = None
        self.joker_plot = None
        self.local_message = ""
        self.controller.act(action)

    def _clicker(self, plot: int):
        def on_click(**_: Any) -> None:
            self.click_plot(plot)
        return on_click

    def click_plot(self, plot: int) -> None:
        """A click on a plot: a legal one opens the preview (a Joker first asks for the
        faction); another says why nothing can go there."""
        legal = self.legal_plots()
        self.local_message = ""
        if plot in legal:
            dice = self.view.get("dice") or {}
            if dice.get("faction") is None:
                self.joker_plot, self.pending = plot, None
            else:
                self.pending, self.joker_plot = (plot, legal[plot][0]), None
        elif legal:
            self.pending = self.joker_plot = None
            self.local_message = self._why_not(plot)
        self.render()

    def _why_not(self, plot: int) -> str:
        v = self.view
        dice = v.get("dice") or {}
        terr, r, c = self.grid.locate(plot)
        if v["board"][plot] is not None:
            return t("ui_occupied", self.lang)
        if terr != dice.get("territory"):
            return t("ui_not_this_territory", self.lang, territory=dice.get("territory"))
        fac = dice.get("faction")
        if fac is None:
            return t("ui_no_faction_fits", self.lang)
        p = preview(v, terr, r, c, fac)
        if p["blocking"] is not None:
            return t("not_larger", self.lang, size=p["group"], enemy=p["blocking"])
        return t("supply_spent", self.lang, name=faction_name(fac, self.lang))

    def choose_faction(self, faction: str) -> None:
        """The Joker's faction for the chosen plot: on to the preview."""
        if self.joker_plot is not None and faction in self.legal_plots().get(self.joker_plot, []):
            self.pending, self.joker_plot = (self.joker_plot, faction), None
        self.render()

    def confirm(self) -> None:
        """Place the previewed piece."""
        if self.pending is not None:
            plot, faction = self.pending
            self._act(self._place_action(plot, faction))

    def cancel(self) -> None:
        """Drop the preview (or the Joker's choice): nothing changes."""
        self.pending = self.joker_plot = None
        self.local_message = ""
        self.render()

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self.render()

    # ------------------------------------------------------------ drawing
    def _on_version(self, _change: Any = None) -> None:
        self.redraw()

    def _on_message(self, _change: Any = None) -> None:
        self._draw_note()

    def redraw(self) -> None:
        """Redraw for a new controller version (once per version)."""
        if self.controller.version == self._version:
            return
        self._version = self.controller.version
        self.redraws += 1
        legal = self.legal_plots()
        if self.pending is not None and self.pending[1] not in legal.get(self.pending[0], []):
            self.pending = None
        if self.joker_plot is not None and self.joker_plot not in legal:
            self.joker_plot = None
        self.local_message = ""
        self.render()
        # the version as a CSS class, set last: a browser test that sees it has every
        # update of this version (comm messages arrive in order)
        for cls in [c for c in self._dom_classes if c.startswith("cw-v-")]:
            self.remove_class(cls)
        self.add_class(f"cw-v-{self._version}")

    def render(self) -> None:
        """Draw everything from the controller's traits and the local choice."""
        self.renders += 1
        v = self.view
        self._restyle(v)
        self._draw_status(v)
        self._draw_note()
        self._draw_dialogs(v)
        self._draw_market(v)

    def _restyle(self, v: Mapping[str, Any]) -> None:
        legal = self.legal_plots()
        dice = v.get("dice") or {}
        joker = dice.get("faction") is None
        removing: set[int] = set()
        pending = self.pending
        if pending is not None:
            board, *_ = state_from_view(v)
            an = board.analyse(pending[0], FACTIONS.index(pending[1]))
            if an.legal:
                for gid in an.enemy:
                    removing.update(board.members[gid])
        last = next((e.get("plot") for e in reversed(self.controller.events) if e.get("type") == "place"), None)
        touched = []
        for p, poly in enumerate(self.plots):
            cell = v["board"][p]
            lg = None
            if p in legal:
                lg = "*" if joker and self.joker_plot != p else legal[p][0]
                if self.joker_plot == p:
                    lg = "*"
            style = plot_style(cell, legal=lg, pending=pending[1] if pending and pending[0] == p else None,
                               removing=p in removing, last=p == last)
            old = self._styles[p]
            if style != old:
                with poly.hold_sync():
                    for key in STYLE_KEYS:
                        if style[key] != old[key]:
                            setattr(poly, key, style[key])
                self._styles[p] = style
                touched.append(p)
        self.touched = touched

    def _draw_status(self, v: Mapping[str, Any]) -> None:
        lang = self.lang
        c = self.controller
        phase = v["phase"]
        if phase == "over":
            why = "; ".join(t(f"end_{r}", lang) for r in v.get("triggers", []))
            text = t("ev_end", lang, why=why)
        else:
            acting = v["to_act"][0] if v["to_act"] else None
            head = t("ui_turn", lang, turn=v["turn"]) if v["turn"] else ""
            if acting is not None and acting == c.viewer and c.legal:
                if phase == "start":
                    hint = t("ui_pick_title", lang)
                elif phase == "place":
                    terr = v["dice"]["territory"]
                    hint = t("ui_place_joker" if v["dice"]["faction"] is None else "ui_place", lang, territory=terr)
                elif phase == "forced":
                    hint = t("ev_forced", lang, player=self._name(acting))
                else:
                    hint = t(f"ui_{phase}", lang)
                text = f"{t('ui_your_turn', lang, player=self._name(acting))} — {hint}"
            else:
                text = t("ui_waiting", lang, player=self._name(acting))
                players = v.get("players", [])
                if c.viewer is not None and c.viewer < len(players) and players[c.viewer]["eliminated"]:
                    text = f"{t('ev_eliminated', lang, player=self._name(c.viewer))} · {text}"
            text = f"{head} · {text}" if head else text
        value = f"<h4 style='margin:4px 0'>{html_text(text)}</h4>"
        if self.status.value != value:
            self.status.value = value
        dice = render.dice_html(v.get("dice"), lang)
        if self.dice.value != dice:
            self.dice.value = dice
        keys = self._legal_keys()
        self._show(self.roll_button, _key({"type": "roll"}) in keys, t("ui_roll", lang))
        self._show(self.end_button, _key({"type": "end_turn"}) in keys, t("ui_end_turn", lang))
        for f, b in self.share_buttons.items():
            self._show(b, _key({"type": "pick", "faction": f}) in keys, t("ui_pick", lang, name=faction_name(f, lang)))

    @staticmethod
    def _show(button: W.Button, visible: bool, description: str) -> None:
        display = None if visible else "none"
        if button.layout.display != display:
            button.layout.display = display
        if button.description != description:
            button.description = description
        if button.disabled == visible:
            button.disabled = not visible

    def _draw_note(self) -> None:
        text = self.local_message or self.controller.message
        value = f"<div style='color:#b00020'>{html_text(text)}</div>" if text else ""
        if self.note.value != value:
            self.note.value = value

    def _draw_dialogs(self, v: Mapping[str, Any]) -> None:
        lang = self.lang
        # preview
        if self.pending is not None:
            plot, fac = self.pending
            terr, r, c = self.grid.locate(plot)
            p = preview(v, terr, r, c, fac)
            self.preview_html.value = render.preview_html(
                p, v, {"territory": terr, "row": r, "col": c, "faction": fac}, lang)
            self.confirm_button.description = t("ui_confirm", lang)
            self.cancel_button.description = t("ui_cancel", lang)
        self._display(self.preview_box, self.pending is not None)
        # Joker
        if self.joker_plot is not None:
            terr, r, c = self.grid.locate(self.joker_plot)
            self.joker_html.value = f"<b>{html_text(t('ui_joker_choose', lang, territory=terr, row=r, col=c))}</b>"
            options = self.legal_plots().get(self.joker_plot, [])
            for f, b in self.joker_buttons.items():
                self._show(b, f in options, faction_name(f, lang))
            self.joker_cancel.description = t("ui_cancel", lang)
        self._display(self.joker_box, self.joker_plot is not None)
        # forced sale
        keys = self._legal_keys()
        sells = [f for f in FACTIONS if _key({"type": "forced_sell", "faction": f}) in keys]
        if sells:
            seat = self.controller.viewer
            me = v["players"][seat]
            self.forced_html.value = (f"<b style='color:#b00020'>"
                                      f"{html_text(t('ui_forced_title', lang, player=me['name'], balance=render.money(me['cash'])))}</b>")
            prices = {f["id"]: f["price"] for f in v["factions"]}
            for f, b in self.forced_buttons.items():
                self._show(b, f in sells, t("ui_forced_sell", lang, name=faction_name(f, lang), price=prices[f] // 2))
        self._display(self.forced_box, bool(sells))

    @staticmethod
    def _display(box: W.Widget, visible: bool) -> None:
        display = None if visible else "none"
        if box.layout.display != display:
            box.layout.display = display

    def _draw_market(self, v: Mapping[str, Any]) -> None:
        lang = self.lang
        title = f"<b>{html_text(t('ui_market', lang))}</b>"
        if self.market_title.value != title:
            self.market_title.value = title
        purchases = f"<span>{html_text(t('ui_purchases_left', lang, n=v['purchases_left']))}</span>"
        if self.purchases.value != purchases:
            self.purchases.value = purchases
        history = render.price_history(self.controller.events)
        keys = self._legal_keys()
        for f in v["factions"]:
            fid = f["id"]
            html = render.faction_html(f, history[fid], lang)
            if self.faction_rows[fid].value != html:
                self.faction_rows[fid].value = html
            for kind, buttons, price in (("buy", self.buy_buttons, f["price"]), ("sell", self.sell_buttons, f["price"] // 2)):
                b = buttons[fid]
                label = t(f"ui_{kind}", lang) + (f" {price:,}" if f["listed"] else "")
                if b.description != label:
                    b.description = label
                enabled = _key({"type": kind, "faction": fid}) in keys
                if b.disabled == enabled:
                    b.disabled = not enabled
        players = render.players_html(v, lang)
        if self.players_html.value != players:
            self.players_html.value = players


__all__ = ["CodexBoard", "CodexPlot", "plot_style"]
