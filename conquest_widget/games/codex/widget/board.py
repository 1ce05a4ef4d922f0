"""The Codex board in the shared shell: one front-end widget (:mod:`anywidget`) drawn from a
:class:`~conquest_widget.ui.controller.MatchController`'s published traits only: the realm
as an SVG grid (six territories of k x k plots, pieces in their faction's colour, the legal
plots lit, the last piece placed marked, the chosen plot's preview), the dice, the turn
controls (roll, end turn, the free starting share), the placement preview with
Confirm / Cancel, the Joker's faction choice, the forced-sale panel, the board message
(why a plot is refused), the market (each faction's price, pieces left, price history,
Buy / Sell, purchases left) and the players' table.  Moves go only through
``controller.act``.

The board is a :class:`~conquest_widget.ui.scene.SceneWidget`: the page draws it from
``scene``, a small JSON document the board writes from the
controller's ``view``, ``legal``, ``events`` and ``message`` for the viewer: its texts are
``[key, {field: value}]`` of the game's text tables (:mod:`..text`; ``["+", sep, text...]``
joins texts), whose templates in the chosen language the scene holds once (``T``; those
of the panels shown now and then, ``U``, once first used).  Its other keys, each small
so that a move changes few: ``k``; ``v`` the controller's version; ``st`` the status;
``msg`` the board message; ``d`` the dice [territory, faction or "" for a Joker]; ``a``
[roll, end turn, [free shares]]; ``b1``-``b6`` each territory's plots row by row (a
faction's letter, ``.`` empty); ``lg`` the lit plots; ``last`` the last piece placed;
``pl`` purchases left; ``m_<faction>`` [price, listed, pieces left, buy, sell];
``h_<faction>`` its price history in thousands; ``np`` players, ``pn<seat>`` [name,
colour], ``p<seat>`` [cash, [shares], wealth, eliminated], ``cur`` the current seat; the
panels ``pv`` (preview), ``jk`` (Joker), ``fs`` (forced sale), 0 when closed.  After
the first render only the keys of ``scene`` that changed are sent, as one custom message
(``[n, {key: value}, [dropped key]]``, the redraw's number first; issue 32: a lean
wire); the page's JavaScript (``board.js``) and CSS (``board.css``) beside this file are sent
once.  A click in the page comes back as one message ``{"click": "<target>"}``, handled by
:meth:`CodexBoard.click`, which a kernel-side test calls the same way::

    >>> from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
    >>> from conquest_widget.ui.controller import MatchController
    >>> c = MatchController(CodexMatch(CodexSetup.quick(2, k=3, cpu=(False, True)), seed=3), humans={0})
    >>> b = CodexBoard(c, "en")
    >>> b.grid.n, b.clickable()
    (54, ['share-ember', 'share-tide', 'share-grove', 'share-sun'])
    >>> b.click("share-tide"), c.view["players"][0]["shares"]["tide"]
    (True, 1)
    >>> b.text("roll"), "roll" in b.clickable()
    ('Roll the dice', True)

Targets (and the page's stable CSS classes, ``cw-`` + target): ``roll``, ``end-turn``,
``share-<faction>``, ``buy-<faction>``, ``sell-<faction>``, ``forced-<faction>``,
``plot-<territory>-<row>-<col>`` (an SVG ``path.cw-plot``), ``confirm``, ``cancel``,
``joker-<faction>``, ``joker-cancel``.  The page also has ``cw-codex-board`` with
``cw-v-<version>`` (set once the page has drawn that controller version), ``cw-status``,
``cw-dice-box``, ``cw-board-message``, ``cw-preview-box``, ``cw-joker``, ``cw-forced``,
``cw-market``, ``cw-market-<faction>``, ``cw-purchases-left``, ``cw-market-players``.  A lit
plot has ``stroke="#ff8f00"``; a plot's attributes are those of :func:`plot_style`
(:meth:`CodexBoard.plot_attrs`).

The Codex hides nothing, but the scene is still written only from the controller's
published traits; every text goes into the page with ``textContent`` (no markup from a
name), and colours from a save pass :func:`~conquest_widget.core.safe_text.css_colour`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from conquest_widget.core.safe_text import css_colour
from conquest_widget.lean import Layout, page_file
from conquest_widget.ui.scene import SceneWidget

from ..board import grid
from ..engine import preview, state_from_view
from ..rules import FACTION_COLOURS, FACTION_NAMES, FACTIONS, PRICE_UNIT
from ..text import STRINGS
from .render import DIE_FACES, money, price_history

_HERE = Path(__file__).parent

EMPTY_FILL = "#f4eedd"
LEGAL_BORDER = "#ff8f00"
JOKER_FILL = "#ffe082"
REMOVE_BORDER = "#d50000"

#: the templates of the text tables the page fills in, sent once per language as ``T``
#: (with the factions' names as ``f_<faction>``) ...
TEXTS = ("ui_roll", "ui_end_turn", "ui_pick", "ui_pick_title", "ui_buy", "ui_sell", "ui_confirm", "ui_cancel",
         "ui_turn", "ui_your_turn", "ui_waiting", "ui_trade1", "ui_trade2", "ui_place", "ui_place_joker",
         "ui_territory", "ui_joker", "ui_market", "ui_unlisted", "ui_supply", "ui_purchases_left", "ui_player",
         "ui_cash", "ui_wealth", "ui_eliminated", "ui_history")
#: ... and those of the panels shown now and then (a preview, the Joker's choice, a forced
#: sale, a refused plot, the end), sent as ``U`` once the scene first uses them (issue 32:
#: the first render holds only what it shows); ``U`` only grows until the language changes
EXTRA_TEXTS = ("ui_place_choose", "ui_place_confirm", "ui_joker_choose", "ui_preview_title", "ui_preview_group", "ui_preview_removed",
               "ui_preview_none_removed", "ui_preview_prices", "ui_preview_forced", "ui_preview_end", "ui_no_change",
               "ui_forced_title", "ui_forced_sell", "ui_occupied", "ui_not_this_territory", "ui_no_faction_fits",
               "not_larger", "supply_spent", "ev_end", "ev_forced", "ev_eliminated", "end_group_15", "end_supply_20",
               "end_last_survivor", "cause_start", "cause_income", "cause_dividend", "cause_loss", "cause_buy",
               "cause_sell", "cause_forced_sell", "cause_edit")
assert set(TEXTS + EXTRA_TEXTS) <= set(STRINGS) and not set(TEXTS) & set(EXTRA_TEXTS)
#: a faction's letter in the board's strings (``b<territory>``; ``.`` an empty plot)
LETTER = {f: f[0] for f in FACTIONS}
assert len(set(LETTER.values())) == len(FACTIONS)
_BY_LETTER = {v: k for k, v in LETTER.items()}


def _templates(keys: Iterable[str], lang: str) -> dict[str, str]:
    """The templates of ``keys`` in ``lang``, each field written ``{name}`` (the page fills
    in fields already formatted: ``{price:,}`` becomes ``{price}``).

    >>> _templates(["ui_forced_sell"], "en")
    {'ui_forced_sell': 'Sell 1 {name} for {price}'}
    """
    i = 1 if lang == "ja" else 0
    return {key: re.sub(r"\{(\w+)[^}]*\}", r"{\1}", STRINGS[key][i]) for key in keys}


def _base_templates(lang: str) -> dict[str, str]:
    """``T``: the templates of :data:`TEXTS` and the factions' names in ``lang``."""
    i = 1 if lang == "ja" else 0
    return _templates(TEXTS, lang) | {f"f_{f}": FACTION_NAMES[f][i] for f in FACTIONS}


def _text_keys(value: Any, found: set[str]) -> set[str]:
    """The keys of :data:`EXTRA_TEXTS` that the texts in ``value`` use."""
    if isinstance(value, list):
        if value and isinstance(value[0], str) and value[0] in _EXTRA:
            found.add(value[0])
        for x in value:
            _text_keys(x, found)
    elif isinstance(value, dict):
        for x in value.values():
            _text_keys(x, found)
    return found


_EXTRA = frozenset(EXTRA_TEXTS)


def _txt(key: str, **fields: Any) -> list[Any]:
    """A text of the scene: a key of the templates and the fields to fill in."""
    return [key, fields] if fields else [key]


def _join(sep: str, *texts: Any) -> list[Any]:
    """Texts joined by ``sep`` (the empty ones left out)."""
    return ["+", sep, *texts]


def _fname(faction: str) -> list[Any]:
    return [f"f_{faction}"]


def plot_style(cell: str | None, *, legal: str | None = None, pending: str | None = None,
               removing: bool = False, last: bool = False) -> dict[str, Any]:
    """The style of one plot as the page draws it (``board.js`` draws the same): its piece
    (or empty), lit when a legal placement (``legal`` = the faction, ``"*"`` for a Joker),
    chosen for the preview (``pending``), about to be conquered (``removing``) or the last
    piece placed (``last``).

    >>> plot_style(None)["fill"], plot_style("tide")["fill"]
    ('#f4eedd', '#2e6fb7')
    >>> plot_style(None, legal="*")["stroke"]
    '#ff8f00'
    """
    if pending is not None:
        return {"fill": FACTION_COLOURS[pending], "fill-opacity": "0.75", "stroke": "#000000", "stroke-width": "4",
                "stroke-dasharray": "6 3"}
    if cell is None:
        if legal is not None:
            fill = JOKER_FILL if legal == "*" else FACTION_COLOURS[legal]
            return {"fill": fill, "fill-opacity": "0.45" if legal != "*" else "0.8", "stroke": LEGAL_BORDER,
                    "stroke-width": "3", "stroke-dasharray": None}
        return {"fill": EMPTY_FILL, "fill-opacity": "0.95", "stroke": "#b8ad94", "stroke-width": "1",
                "stroke-dasharray": None}
    if removing:
        return {"fill": FACTION_COLOURS[cell], "fill-opacity": "0.3", "stroke": REMOVE_BORDER, "stroke-width": "3",
                "stroke-dasharray": "3 4"}
    return {"fill": FACTION_COLOURS[cell], "fill-opacity": "0.92", "stroke": "#222222" if last else "#ffffff",
            "stroke-width": "3" if last else "1", "stroke-dasharray": None}


def _key(action: Mapping[str, Any]) -> tuple:
    return tuple(sorted(action.items()))


class CodexBoard(SceneWidget):
    """The Codex board for one controller (see the module docstring).  ``CodexBoard(controller, lang)``."""

    _esm = SceneWidget.page_module(_HERE / "board.js")
    _css = page_file(_HERE / "board.css")

    def __init__(self, controller: Any, lang: str = "en", **kwargs: Any) -> None:
        self.controller = controller
        self.lang = lang
        self.k = int(controller.view["k"])
        self.grid = grid(self.k)
        #: local UI state: the plot (and faction) shown in the preview, the Joker's plot
        self.pending: tuple[int, str] | None = None
        self.joker_plot: int | None = None
        self.local_message: list[Any] | None = None
        #: the templates of EXTRA_TEXTS the page was sent in this language (``U``)
        self._extra: set[str] = set()
        #: redraws for a new controller version (one per version)
        self.redraws = 1
        self._version = controller.version
        # a Layout of its own (the shell may hide the board) that sends only what is set
        kwargs.setdefault("layout", Layout())
        super().__init__(**kwargs)
        self.add_class("cw-codex-board")
        controller.observe(self._on_version, names="version")
        controller.observe(self._on_message, names="message")

    # ------------------------------------------------------------ reading the controller
    @property
    def view(self) -> dict[str, Any]:
        return self.controller.view

    @property
    def legal(self) -> list[dict[str, Any]]:
        """The viewer's legal actions: none for a controller nobody plays through (a
        replay's: no turn controls, no lit plot)."""
        return list(self.controller.legal) if getattr(self.controller, "live", True) else []

    def _legal_keys(self) -> set[tuple]:
        return {_key(a) for a in self.legal}

    def legal_plots(self) -> dict[int, list[str]]:
        """Plot id -> the factions that may be placed there now (the viewer's legal moves)."""
        out: dict[int, list[str]] = {}
        g = self.grid
        for a in self.legal:
            if a.get("type") == "place":
                out.setdefault(g.plot(a["territory"], a["row"], a["col"]), []).append(a["faction"])
        return out

    def _place_action(self, plot: int, faction: str) -> dict[str, Any]:
        terr, r, c = self.grid.locate(plot)
        return {"type": "place", "territory": terr, "row": r, "col": c, "faction": faction}

    def _name(self, seat: int | None) -> str:
        players = self.view.get("players", [])
        return str(players[seat]["name"]) if seat is not None and 0 <= seat < len(players) else "?"

    # ------------------------------------------------------------ what the viewer sees
    def clickable(self) -> list[str]:
        """The targets a click does something on now (shown and enabled), in page order:
        ``roll``, ``end-turn``, ``share-<f>``, ``plot-<t>-<r>-<c>`` (the lit plots),
        ``confirm``, ``cancel``, ``joker-<f>``, ``joker-cancel``, ``forced-<f>``,
        ``buy-<f>``, ``sell-<f>``."""
        s = self.scene
        roll, end, picks = s["a"]
        out = ["roll"] * roll + ["end-turn"] * end + [f"share-{f}" for f in picks]
        out += [self._plot_target(p) for p in s["lg"]]
        if s["pv"]:
            out += ["confirm", "cancel"]
        if s["jk"]:
            out += [f"joker-{f}" for f in s["jk"][1]] + ["joker-cancel"]
        if s["fs"]:
            out += [f"forced-{f}" for f, _label in s["fs"][1]]
        for f in FACTIONS:
            _price, _listed, _left, buy, sell = s[f"m_{f}"]
            out += [f"buy-{f}"] * buy + [f"sell-{f}"] * sell
        return out

    def shown(self) -> list[str]:
        """The targets shown now (enabled or not): :meth:`clickable` and the market's
        disabled buttons."""
        return self.clickable() + [f"{kind}-{f}" for f in FACTIONS for kind in ("buy", "sell")
                                   if f"{kind}-{f}" not in self.clickable()]

    def _plot_target(self, plot: int) -> str:
        terr, r, c = self.grid.locate(plot)
        return f"plot-{terr}-{r}-{c}"

    def classes(self, target: str) -> set[str]:
        """The classes the page gives ``target``: ``board`` the root (``cw-codex-board`` and
        ``cw-v-<version>``); a button ``cw-<target>``, with ``disabled`` when it is shown but
        cannot be clicked.  Raises LookupError for a target not shown."""
        if target == "board":
            return {"cw-codex-board", f"cw-v-{self.scene['v']}"}
        if target.startswith("plot-"):
            self._plot_of(target)
            return {"cw-plot", f"cw-{target}"}
        if target not in self.shown():
            raise LookupError(f"no {target} on the board")
        return {f"cw-{target}"} | (set() if target in self.clickable() else {"disabled"})

    def _plot_of(self, target: str) -> int:
        try:
            terr, r, c = (int(x) for x in target.split("-")[1:])
            return self.grid.plot(terr, r, c)
        except (TypeError, ValueError):
            raise LookupError(f"no {target} on the board") from None

    def plot_attrs(self, plot: int) -> dict[str, Any]:
        """The SVG attributes of plot ``plot`` as the page draws it (:func:`plot_style`)."""
        s = self.scene
        terr, r, c = self.grid.locate(plot)
        letter = s[f"b{terr}"][(r - 1) * self.k + (c - 1)]
        cell = _BY_LETTER.get(letter)
        legal = None
        if plot in s["lg"]:
            legal = s["d"][1] or "*"
        pv = s["pv"]
        pending = pv["f"] if pv and pv["p"] == plot else None
        return plot_style(cell, legal=legal, pending=pending, removing=bool(pv) and plot in pv["rm"],
                          last=plot == s["last"])

    def text(self, part: str) -> str:
        """The text the page shows in ``part``: ``status``, ``message``, ``dice``,
        (the dice' faces, then what they show), ``preview``, ``joker``, ``forced`` (the panels' texts, lines joined by newlines),
        ``purchases``, ``market-<f>`` (name, pieces left, price), ``players`` (a line per
        player: name, cash, shares, wealth), or a button's label (a target of
        :meth:`clickable`).  Raises LookupError for a part not shown."""
        s = self.scene
        fmt = self._fmt
        if part == "status":
            return fmt(s["st"])
        if part == "message":
            return fmt(s["msg"])
        if part == "dice":
            if not s["d"]:
                return ""
            terr, fac = s["d"]
            label = fmt(_fname(fac) if fac else ["ui_joker"])
            die = f"{DIE_FACES[terr - 1]} {label[:1] if fac else 'J'}"
            return f"{die} {fmt(_txt('ui_territory', territory=terr))} · {label}"
        if part == "purchases":
            return fmt(_txt("ui_purchases_left", n=s["pl"]))
        if part == "preview":
            return "\n".join(self._preview_lines()) if s["pv"] else ""
        if part == "joker":
            return fmt(s["jk"][0]) if s["jk"] else ""
        if part == "forced":
            return fmt(s["fs"][0]) if s["fs"] else ""
        if part == "players":
            lines = []
            for seat in range(s["np"]):
                name, _colour = s[f"pn{seat}"]
                cash, shares, wealth, out = s[f"p{seat}"]
                mark = "▶ " if seat == s["cur"] else ""
                gone = f" ({fmt(['ui_eliminated'])})" if out else ""
                lines.append(f"{mark}{name}{gone} {money(cash)} {' '.join(map(str, shares))} {money(wealth)}")
            return "\n".join(lines)
        kind, _, f = part.partition("-")
        if kind == "market" and f in FACTIONS:
            price, listed, left, _buy, _sell = s[f"m_{f}"]
            shown = money(price) if listed else fmt(["ui_unlisted"])
            return f"{fmt(_fname(f))} {fmt(_txt('ui_supply', left=left))} {shown}"
        if part not in self.shown():
            raise LookupError(f"no part {part!r} on the board")
        return self._label(part)

    def _label(self, target: str) -> str:
        """A button's label, as the page writes it."""
        s, fmt = self.scene, self._fmt
        kind, _, f = target.partition("-")
        if target == "roll":
            return fmt(["ui_roll"])
        if target == "end-turn":
            return fmt(["ui_end_turn"])
        if target in ("confirm", "cancel", "joker-cancel"):
            return fmt(["ui_confirm" if target == "confirm" else "ui_cancel"])
        if kind == "share":
            return fmt(_txt("ui_pick", name=_fname(f)))
        if kind == "joker":
            return fmt(_fname(f))
        if kind == "forced":
            return fmt(dict(s["fs"][1])[f])
        if kind in ("buy", "sell"):
            price, listed, *_ = s[f"m_{f}"]
            amount = price if kind == "buy" else price // 2
            return fmt([f"ui_{kind}"]) + (f" {money(amount)}" if listed else "")
        return ""

    def _preview_lines(self) -> list[str]:
        s, fmt = self.scene, self._fmt
        pv = s["pv"]
        lines = [fmt(pv["t"]), fmt(pv["g"])]
        lines += [fmt(x) for x in pv["r"]] or [fmt(["ui_preview_none_removed"])]
        if pv["pr"]:
            changes = "; ".join(f"{fmt(_fname(f))}: {money(old)} → {money(new)}" for f, old, new in pv["pr"])
            lines.append(f"{fmt(['ui_preview_prices'])}: {changes}")
        for seat, change, balance, detail in pv["c"]:
            lines.append(f"{s[f'pn{seat}'][0]} {change:+,} → {money(balance)} {fmt(detail)}")
        lines += [fmt(x) for x in (pv["fo"], pv["e"]) if x]
        return lines

    def _fmt(self, text: Any) -> str:
        """A text of the scene as the page writes it (board.js ``fmt``)."""
        if text is None or text == "":
            return ""
        if isinstance(text, (str, int)):
            return str(text)
        if text[0] == "+":
            return text[1].join(x for x in map(self._fmt, text[2:]) if x)
        fields = text[1] if len(text) > 1 else {}
        template = self.scene["T"].get(text[0]) or self.scene["U"].get(text[0], "")
        return re.sub(r"\{(\w+)\}", lambda m: self._fmt(fields[m[1]]) if m[1] in fields else m[0], template)

    # ------------------------------------------------------------ clicks
    def click(self, target: str) -> bool:
        """Click ``target`` as the player does in the page (see :meth:`clickable`); a click
        on something not clickable now does nothing (False), as in the page.  A click on a
        plot that is not lit, while some are, says why nothing can go there."""
        if not isinstance(target, str):
            return False
        if target.startswith("plot-"):
            try:
                plot = self._plot_of(target)
            except LookupError:
                return False
            if not self.scene["lg"]:
                return False
            self.click_plot(plot)
            return True
        if target not in self.clickable():
            return False
        kind, _, f = target.partition("-")
        if target == "roll":
            self._act({"type": "roll"})
        elif target == "end-turn":
            self._act({"type": "end_turn"})
        elif target == "confirm":
            self.confirm()
        elif target in ("cancel", "joker-cancel"):
            self.cancel()
        elif kind == "share":
            self._act({"type": "pick", "faction": f})
        elif kind in ("buy", "sell"):
            self._act({"type": kind, "faction": f})
        elif kind == "forced":
            self._act({"type": "forced_sell", "faction": f})
        elif kind == "joker":
            self.choose_faction(f)
        return True

    def _act(self, action: dict[str, Any]) -> None:
        self.pending = None
        self.joker_plot = None
        self.local_message = None
        self.controller.act(action)

    def click_plot(self, plot: int) -> None:
        """A click on a plot: a legal one opens the preview (a Joker first asks for the
        faction); another says why nothing can go there."""
        legal = self.legal_plots()
        self.local_message = None
        if plot in legal:
            dice = self.view.get("dice") or {}
            if dice.get("faction") is None:
                self.joker_plot, self.pending = plot, None
            else:
                self.pending, self.joker_plot = (plot, legal[plot][0]), None
        elif legal:
            self.pending = self.joker_plot = None
            self.local_message = self._why_not(plot)
        self.redraw()

    def _why_not(self, plot: int) -> list[Any]:
        v = self.view
        dice = v.get("dice") or {}
        terr, r, c = self.grid.locate(plot)
        if v["board"][plot] is not None:
            return _txt("ui_occupied")
        if terr != dice.get("territory"):
            return _txt("ui_not_this_territory", territory=dice.get("territory"))
        fac = dice.get("faction")
        if fac is None:
            return _txt("ui_no_faction_fits")
        p = preview(v, terr, r, c, fac)
        if p["blocking"] is not None:
            return _txt("not_larger", size=p["group"], enemy=p["blocking"])
        return _txt("supply_spent", name=_fname(fac))

    def choose_faction(self, faction: str) -> None:
        """The Joker's faction for the chosen plot: on to the preview."""
        if self.joker_plot is not None and faction in self.legal_plots().get(self.joker_plot, []):
            self.pending, self.joker_plot = (self.joker_plot, faction), None
        self.redraw()

    def confirm(self) -> None:
        """Place the previewed piece."""
        if self.pending is not None:
            plot, faction = self.pending
            self._act(self._place_action(plot, faction))

    def cancel(self) -> None:
        """Drop the preview (or the Joker's choice): nothing changes."""
        self.pending = self.joker_plot = None
        self.local_message = None
        self.redraw()

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self._extra = set()
        self.redraw()

    # ------------------------------------------------------------ drawing
    def _on_version(self, _change: Any = None) -> None:
        if self.controller.version == self._version:
            return
        self._version = self.controller.version
        self.redraws += 1
        legal = self.legal_plots()
        if self.pending is not None and self.pending[1] not in legal.get(self.pending[0], []):
            self.pending = None
        if self.joker_plot is not None and self.joker_plot not in legal:
            self.joker_plot = None
        self.local_message = None
        self.redraw()

    def _on_message(self, _change: Any = None) -> None:
        self.redraw()

    def draw_scene(self) -> dict[str, Any]:
        """What the page draws, from the controller's published traits and the local
        choice (a plot chosen, the Joker's plot, a refused plot's reason) only."""
        c = self.controller
        v = c.view
        keys = self._legal_keys()
        legal = self.legal_plots()
        k = self.k
        dice = v.get("dice")
        players = v.get("players", [])
        scene: dict[str, Any] = {
            "T": _base_templates(self.lang),
            "k": k,
            "v": self._version,
            "st": self._status(v),
            "msg": self.local_message or c.message or "",
            "d": [int(dice["territory"]), dice.get("faction") or ""] if dice else 0,
            "a": [int(_key({"type": "roll"}) in keys), int(_key({"type": "end_turn"}) in keys),
                  [f for f in FACTIONS if _key({"type": "pick", "faction": f}) in keys]],
            "lg": sorted(legal),
            "last": next((e.get("plot") for e in reversed(c.events) if e.get("type") == "place"), -1),
            "pl": v.get("purchases_left", 0),
            "np": len(players),
            "cur": v["current"] if v.get("phase") != "over" else -1,
        }
        board = v["board"]
        for terr in range(1, 7):
            cells = (board[p] for p in self.grid.plots_of[terr])
            scene[f"b{terr}"] = "".join("." if cell is None else LETTER[cell] for cell in cells)
        history = price_history(c.events)
        for f in v["factions"]:
            fid = f["id"]
            scene[f"m_{fid}"] = [f["price"], int(f["listed"]), f["supply_left"],
                                 int(_key({"type": "buy", "faction": fid}) in keys),
                                 int(_key({"type": "sell", "faction": fid}) in keys)]
            scene[f"h_{fid}"] = [x // PRICE_UNIT for x in history[fid]]
        for p in players:
            seat = p["seat"]
            scene[f"pn{seat}"] = [str(p["name"]), css_colour(p["colour"])]
            scene[f"p{seat}"] = [p["cash"], [p["shares"][f] for f in FACTIONS], p["wealth"], int(p["eliminated"])]
        scene["pv"] = self._preview(v) if self.pending is not None else 0
        scene["jk"] = 0
        if self.joker_plot is not None:
            terr, r, col = self.grid.locate(self.joker_plot)
            options = legal.get(self.joker_plot, [])
            scene["jk"] = [_txt("ui_joker_choose", territory=terr, row=r, col=col), [f for f in FACTIONS if f in options]]
        sells = [f for f in FACTIONS if _key({"type": "forced_sell", "faction": f}) in keys]
        scene["fs"] = 0
        if sells and c.viewer is not None:
            me = players[c.viewer]
            prices = {f["id"]: f["price"] for f in v["factions"]}
            scene["fs"] = [_txt("ui_forced_title", player=str(me["name"]), balance=money(me["cash"])),
                           [[f, _txt("ui_forced_sell", name=_fname(f), price=money(prices[f] // 2))] for f in sells]]
        self._extra |= _text_keys(list(scene.values()), set())
        if scene["pv"]:  # the page's own texts of a preview
            self._extra |= {"ui_preview_none_removed", "ui_preview_prices"}
        scene["U"] = _templates(sorted(self._extra), self.lang)
        return scene

    def _preview(self, v: Mapping[str, Any]) -> dict[str, Any]:
        """The preview of the chosen plot: ``p`` the plot, ``f`` the faction, ``rm`` the
        plots to be conquered, ``t`` the question, ``g`` the group formed, ``r`` the groups
        removed, ``pr`` the price changes [faction, old, new], ``c`` each player's cash
        [seat, change, balance, causes], ``fo`` who would be forced to sell, ``e`` an end."""
        assert self.pending is not None
        plot, fac = self.pending
        terr, r, col = self.grid.locate(plot)
        p = preview(dict(v), terr, r, col, fac)
        removing: set[int] = set()
        board, *_ = state_from_view(dict(v))
        an = board.analyse(plot, FACTIONS.index(fac))
        if an.legal:
            for gid in an.enemy:
                removing.update(board.members[gid])
        name = _fname(fac)
        cash = []
        for s, ch in enumerate(p["cash"]):
            detail = (_join(", ", *(_join(" ", [f"cause_{i['cause']}"], f"{i['amount']:+,}") for i in ch["items"]))
                      if ch["items"] else ["ui_no_change"])
            cash.append([s, ch["change"], ch["balance"], detail])
        players = v["players"]
        return {
            "p": plot, "f": fac, "rm": sorted(removing),
            "t": _txt("ui_preview_title", name=name, territory=terr, row=r, col=col),
            "g": _txt("ui_preview_group", name=name, size=p["group"]),
            "r": [_txt("ui_preview_removed", name=_fname(x["faction"]), size=x["size"]) for x in p["removed"]],
            "pr": [[f, ch["old"], ch["new"]] for f, ch in p["prices"].items() if ch["old"] != ch["new"]],
            "c": cash,
            "fo": _txt("ui_preview_forced", names=", ".join(str(players[s]["name"]) for s in p["forced"]))
            if p["forced"] else 0,
            "e": _txt("ui_preview_end", why=_join("; ", *([f"end_{x}"] for x in p["triggers"])))
            if p["triggers"] else 0,
        }

    def _status(self, v: Mapping[str, Any]) -> list[Any]:
        """The status line: whose turn, and what to do (or who is playing)."""
        c = self.controller
        phase = v["phase"]
        if phase == "over":
            return _txt("ev_end", why=_join("; ", *([f"end_{r}"] for r in v.get("triggers", []))))
        acting = v["to_act"][0] if v["to_act"] else None
        head: Any = _txt("ui_turn", turn=v["turn"]) if v["turn"] else None
        text: list[Any]
        if acting is not None and acting == c.viewer and self.legal:
            if phase == "start":
                hint = _txt("ui_pick_title")
            elif phase == "place":
                terr = v["dice"]["territory"]
                if self.pending is not None:  # the preview is shown: what is left is to confirm it
                    hint = _txt("ui_place_confirm", territory=terr)
                elif self.joker_plot is not None:  # a Joker's plot is chosen: its faction next
                    hint = _txt("ui_place_choose", territory=terr)
                else:
                    hint = _txt("ui_place_joker" if v["dice"]["faction"] is None else "ui_place", territory=terr)
            elif phase == "forced":
                hint = _txt("ev_forced", player=self._name(acting))
            else:
                hint = _txt(f"ui_{phase}")
            text = _join(" — ", _txt("ui_your_turn", player=self._name(acting)), hint)
        else:
            text = _txt("ui_waiting", player=self._name(acting))
            players = v.get("players", [])
            if c.viewer is not None and c.viewer < len(players) and players[c.viewer]["eliminated"]:
                text = _join(" · ", _txt("ev_eliminated", player=self._name(c.viewer)), text)
        return _join(" · ", head, text)


__all__ = ["CodexBoard", "plot_style"]
