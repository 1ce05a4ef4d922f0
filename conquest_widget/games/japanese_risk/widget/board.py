"""The Japanese Risk board in the shared shell: the prefecture map (what the viewer
knows), the income controls, moves and attacks by clicking, exact odds before launching,
battles round by round with the dice, the defender's commit question, ninja windows, and
a knowledge panel.

It draws only from a :class:`~conquest_widget.ui.controller.MatchController`'s published
traits (``view``, ``legal``, ``events``, ``version``) and sends moves only with
``controller.act``:

    >>> from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
    >>> from conquest_widget.ui.controller import MatchController
    >>> c = MatchController(JapaneseRisk(RiskSetup(("Aki", "Ben"), bots=("human", "easy")), seed=3), humans={0})
    >>> b = RiskBoard(c, "en")
    >>> mine = c.view["me"]["cards"][0]
    >>> b.click(mine); b.alloc == {mine: 1}
    True
    >>> b.buttons["place_confirm"].click(); dict(c.view["me"]["card_armies"])[mine]
    1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import html_text
from conquest_widget.lean import Layout, page_file
from conquest_widget.maps.japan.board import japan
from conquest_widget.maps.japan.prefecture_map import FIT_MIN_WIDTH_PX, PrefectureMap

from ..engine import CASTLE_COST, NINJA_COST, SEA
from ..odds import MAX_ARMIES, battle_odds_float
from ..text import DICE, t

#: seat colours (5 players at most): no seat is red, green or yellow, the colours of the
#: attack, move and "click here" outlines (a territory's fill is never mistaken for them)
COLOURS = ("#1f77b4", "#ff7f0e", "#9467bd", "#17becf", "#e377c2")
UNKNOWN_FILL = "#c8c8c8"
NEUTRAL_FILL = "#efe3c2"
MOVE_BORDER = "#00a651"
ATTACK_BORDER = "#d50000"
#: the outline of the territories the guide asks to click (income, selecting armies)
PICK_BORDER = "#ffd600"
SELECT_BORDER = "#111111"
#: the marks written on attack and move targets (the outline's colour is not the only sign)
ATTACK_MARK = "⚔"
MOVE_MARK = "➜"
#: events that tell a seat who owns a territory (the knowledge panel's "how")
#: labels are see-through and let clicks reach the prefecture under them
CSS = ("<style>.cw-risk-board .leaflet-div-icon { background: transparent; border: none; pointer-events: none; }"
       ".cw-risk-board .leaflet-container { background: #dfe9f0; }</style>")
KNOWING = ("revealed", "castle_built", "deployed", "moved", "captured", "committed", "handed_over", "undefended")


def pref_name(code: int, lang: str) -> str:
    """The prefecture's name in ``lang``.

    >>> pref_name(13, "ja")
    '東京都'
    """
    return japan().prefecture(code).name(lang)


def _button(cls: str, on_click: Any, **kw: Any) -> W.Button:
    b = W.Button(layout=Layout(width="auto"), **kw)
    b.add_class(cls)
    b.on_click(lambda _b: on_click())
    return b


def territory_style(owner: Any, viewer: Any, *, revealed: bool, selected: bool = False,
                    move: bool = False, attack: bool = False, alloc: bool = False,
                    pick: bool = False) -> dict[str, Any]:
    """The map style of a territory as the viewer knows it: a seat's colour, neutral, or
    unknown (grey, dashed); selected / legal-move / attack-target / to-click (``pick``)
    borders.

    >>> territory_style(None, 0, revealed=False)["fill_color"]
    '#c8c8c8'
    >>> territory_style(1, 0, revealed=True, attack=True)["color"]
    '#d50000'
    """
    if owner is None:
        style = {"fill_color": UNKNOWN_FILL, "fill_opacity": 0.55, "color": "#8a8a8a", "weight": 1,
                 "dash_array": "3 3"}
    elif owner == "neutral":
        style = {"fill_color": NEUTRAL_FILL, "fill_opacity": 0.8, "color": "#8a7a50", "weight": 1, "dash_array": None}
    else:
        mine_secret = owner == viewer and not revealed
        style = {"fill_color": COLOURS[owner % len(COLOURS)], "fill_opacity": 0.35 if mine_secret else 0.7,
                 "color": "#555555", "weight": 1, "dash_array": "6 3" if mine_secret else None}
    if attack:
        style.update(color=ATTACK_BORDER, weight=4, dash_array=None)
    elif move:
        style.update(color=MOVE_BORDER, weight=4, dash_array=None)
    elif alloc:
        style.update(color="#000000", weight=3, dash_array="2 3")
    elif pick:
        style.update(color=PICK_BORDER, weight=4, dash_array=None)
    if selected:
        style.update(color=SELECT_BORDER, weight=5, dash_array=None)
    return style


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


class RiskBoard(W.VBox):
    """The Japanese Risk board for one controller (see the module docstring)."""

    def __init__(self, controller: Any, lang: str = "en", *, auto_hold: bool = True, **kwargs: Any) -> None:
        self.controller = controller
        self.lang = lang
        #: a human with no ninja in reserve passes ninja windows without being asked
        self.auto_hold = auto_hold
        self.selected: int | None = None
        self.alloc: dict[int, int] = {}
        self.strike_target: int | None = None
        #: the attack being gathered on this screen, not yet sent: ``{"target": code,
        #: "groups": [[src, count, sea, ninja, fresh], ...]}`` (``fresh``: the attack's
        #: ``fresh`` field, None = once-moved first); "Launch the attack" sends its groups
        #: and the launch, "Cancel the attack" forgets it (the engine has no way back)
        self.plan: dict[str, Any] | None = None
        self.renders = 0
        self._viewer: Any = -2
        self._version = -1
        self._acting = False
        self._mode = ""
        # fitted: all 47 prefectures, Okinawa included; names on hover (and written when zoomed in)
        self.map = PrefectureMap(height="760px", names=True, lang=lang,
                                 label_css=page_file(Path(__file__).with_name("labels.css")))
        self.map.on_region_click(self.click)
        self.status = W.HTML()
        self.status.add_class("cw-status")
        self.info = W.HTML()
        self.info.add_class("cw-selected-info")
        self.count = W.BoundedIntText(value=1, min=1, max=1, description=t("ui_count", lang),
                                      layout=Layout(width="170px"))
        self.count.add_class("cw-count")
        self.use_ninjas = W.Checkbox(value=False, indent=False, description=t("ui_use_ninjas", lang))
        self.use_ninjas.add_class("cw-use-ninjas")
        self.use_ninjas.observe(lambda _c: self.render(force=True), names="value")
        # which armies of a stack go (issue 30): off = the once-moved ones first, as before
        self.fresh_first = W.Checkbox(value=False, indent=False, description=t("ui_fresh_first", lang))
        self.fresh_first.add_class("cw-fresh-first")
        # the defence question (issue 30): how many reserve ninjas join the battle; shown only
        # to the defender at the screen, and emptied for any other screen (the reserve is secret)
        self.commit_ninjas = W.BoundedIntText(value=0, min=0, max=0, description=t("ui_commit_ninjas", lang, n=0),
                                              style={"description_width": "initial"}, layout=Layout(width="260px"))
        self.commit_ninjas.add_class("cw-commit-ninjas")
        self.commit_ninjas.observe(lambda _c: self._drawing or self.render(force=True), names="value")
        self._drawing = False
        self._commit_key: Any = None
        self.buttons: dict[str, W.Button] = {
            "place_confirm": _button("cw-place-confirm", self._place_confirm, button_style="primary"),
            "place_reset": _button("cw-place-reset", self._place_reset),
            "plus": _button("cw-plus", lambda: self._alloc(+1), description="+1"),
            "minus": _button("cw-minus", lambda: self._alloc(-1), description="−1"),
            "all_here": _button("cw-all-here", self._alloc_rest),
            "castle": _button("cw-castle", self._castle),
            "ninja": _button("cw-buy-ninja", self._buy_ninja),
            "deploy": _button("cw-deploy", self._deploy),
            "launch": _button("cw-launch", self._launch, button_style="danger"),
            "cancel": _button("cw-cancel-attack", self._cancel_attack),
            "end_turn": _button("cw-end-turn", lambda: self._act({"type": "end_turn"}), button_style="primary"),
            "clear": _button("cw-clear", self._clear),
            "commit": _button("cw-commit", lambda: self._commit(int(self.count.value))),
            "commit_all": _button("cw-commit-all", self._commit_all, button_style="primary"),
            "commit_none": _button("cw-commit-none", lambda: self._commit(0)),
            "strike": _button("cw-strike", self._strike, button_style="danger"),
            "hold": _button("cw-hold", lambda: self._act({"type": "hold"}), button_style="primary"),
        }
        self.actions = W.VBox()
        self.actions.add_class("cw-actions")
        # the action panel's pieces are made once and re-arranged (a render opens no widget)
        self.prompt = W.HTML()
        self.prompt2 = W.HTML()
        self.rows = [W.HBox() for _ in range(3)]
        self.odds = W.HTML()
        self.odds.add_class("cw-odds")
        self.battle = W.HTML()
        self.battle.add_class("cw-battle")
        self.knowledge = W.HTML()
        self.knowledge.add_class("cw-knowledge")
        self.message = W.HTML()
        self.message.add_class("cw-board-message")
        #: what to do now, in words, matching what is lit on the map (a newcomer's guide)
        self.guide = W.HTML()
        self.guide.add_class("cw-guide")
        panel = W.VBox([self.status, self.message, self.actions, self.info, self.odds, self.battle, self.knowledge],
                       layout=Layout(width="400px", min_width="320px", padding="0 0 0 8px", flex="0 0 auto"))
        self.map.layout.width = "100%"
        holder = W.Box([self.map], layout=Layout(flex="1 1 auto", width="100%", min_width=f"{FIT_MIN_WIDTH_PX}px"))
        css = W.HTML(CSS)
        super().__init__([css, W.HBox([holder, panel], layout=Layout(width="100%"))], **kwargs)
        self.add_class("cw-risk-board")
        controller.observe(self._on_version, names="version")
        self.render(force=True)

    # ------------------------------------------------------------ language
    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self.count.description = t("ui_count", lang)
        self.use_ninjas.description = t("ui_use_ninjas", lang)
        self.fresh_first.description = t("ui_fresh_first", lang)
        self.map.set_lang(lang)
        self.render(force=True)

    def _t(self, key: str, **kw: Any) -> str:
        return t(key, self.lang, **kw)

    # ------------------------------------------------------------ reading the traits
    @property
    def view(self) -> dict[str, Any]:
        return self.controller.view

    def _names(self) -> list[str]:
        return [str(p["name"]) for p in self.view.get("players", [])]

    def _who(self, seat: Any) -> str:
        names = self._names()
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return t("neutral", self.lang) if seat == "neutral" else self._t("ui_unknown")

    def _legal(self) -> dict[str, Any]:
        """The legal actions sorted for drawing: per kind, the largest count per key."""
        out: dict[str, Any] = {"place": {}, "castle": set(), "ninja": 0, "deploy": {}, "move": {}, "attack": {},
                               "ninja_move": {}, "launch": False, "end_turn": False, "commit": [], "commits": set(), "hold": False,
                               "strike": {}}
        for a in self.controller.legal:
            k = a["type"]
            if k == "place":
                out["place"][a["territory"]] = max(out["place"].get(a["territory"], 0), a["count"])
            elif k == "castle":
                out["castle"].add(a["territory"])
            elif k == "ninja":
                out["ninja"] = max(out["ninja"], a["count"])
            elif k == "deploy":
                out["deploy"][a["territory"]] = max(out["deploy"].get(a["territory"], 0), a["count"])
            elif k in ("move", "ninja_move"):
                key = (a["src"], a["dst"])
                out[k][key] = max(out[k].get(key, 0), a["count"])
            elif k == "attack":
                key = (a["src"], a["target"], a["ninja"])
                out["attack"][key] = max(out["attack"].get(key, 0), a["count"])
            elif k == "commit":  # the commit buttons' counts are the card armies alone (no ninja)
                if not a.get("ninjas"):
                    out["commit"].append(a["count"])
                out["commits"].add((a["count"], a.get("ninjas", 0)))
            elif k == "strike":
                out["strike"][a["target"]] = max(out["strike"].get(a["target"], 0), a["count"])
            elif k in ("launch", "end_turn", "hold"):
                out[k] = True
        return out

    def mode(self) -> str:
        """What the viewer is asked to do now: ``income``, ``turn``, ``commit``,
        ``window``, or ``wait``."""
        leg = self.controller.legal
        if not leg:
            return "wait"
        kinds = {a["type"] for a in leg}
        if kinds & {"place", "castle", "ninja"}:
            return "income"
        if "commit" in kinds:
            return "commit"
        if kinds & {"hold", "strike"}:
            return "window"
        return "turn"

    # ------------------------------------------------------------ acting
    def _act(self, action: Mapping[str, Any]) -> None:
        self._acting = True
        try:
            self.controller.act(dict(action))
        finally:
            self._acting = False
        self.render(force=True)

    def _act_all(self, actions: list[dict[str, Any]], still: Any = None) -> None:
        """Several actions as one step (placing the income, sending a gathered attack): one
        render at the end, so the page never shows the half-done step; stops at a refusal
        (or when ``still()`` is false)."""
        self._acting = True
        try:
            for action in actions:
                if still is not None and not still():
                    break
                self.controller.act(dict(action))
                if self.controller.message:
                    break
        finally:
            self._acting = False
        self.render(force=True)

    def _which(self, src: int, k: int) -> dict[str, int]:
        """The ``fresh`` field of ``k`` armies sent from ``src``: the ones with two moves
        first when the stack dialog's box is ticked, else nothing (the once-moved first).
        Counts only the armies the attack gathered on this screen leaves there."""
        fresh, half = self._left_moves(src)
        return {"fresh": min(k, fresh)} if self.fresh_first.value and fresh and half else {}

    def _left_moves(self, src: int) -> tuple[int, int]:
        """The armies of ``src`` with two moves and with one left, less the groups this
        screen's gathered attack takes from there (in order, as the engine will take them)."""
        fresh, half = self._my_moves()[0].get(src, (0, 0))
        for g in (self.plan or {}).get("groups", []):
            if g[0] == src and not g[3]:
                from_fresh = g[4] if g[4] is not None else g[1] - min(half, g[1])
                fresh, half = fresh - from_fresh, half - (g[1] - from_fresh)
        return max(fresh, 0), max(half, 0)

    def click(self, code: int) -> None:
        """A click on prefecture ``code`` (from the map or a test)."""
        mode = self.mode()
        if mode == "income":
            if code in self._legal()["place"]:
                self.selected = code
                self._alloc(+1)
                return
            self.selected = code
        elif mode == "turn":
            leg = self._legal()
            src = self.selected
            if src is not None and src != code:
                ninja = bool(self.use_ninjas.value)
                n = int(self.count.value)
                planning = self.plan is not None  # while an attack is gathered nothing else moves
                if not planning and not ninja and (src, code) in leg["move"]:
                    k = min(n, leg["move"][(src, code)])
                    self._act({"type": "move", "src": src, "dst": code, "count": k, **self._which(src, k)})
                    return
                if not planning and ninja and (src, code) in leg["ninja_move"] and (src, code, True) not in leg["attack"]:
                    self._act({"type": "ninja_move", "src": src, "dst": code,
                               "count": min(n, leg["ninja_move"][(src, code)])})
                    return
                if self._gather(src, code, ninja, n):
                    return
            self.selected = None if code == src else code
            self.use_ninjas.value = False if self.selected is None else self.use_ninjas.value
        elif mode == "window":
            self.strike_target = code if code in self._legal()["strike"] else None
            self.selected = code
        else:
            self.selected = None if code == self.selected else code
        self.render(force=True)

    def _gather(self, src: int, target: int, ninja: bool, n: int) -> bool:
        """Add a group from ``src`` to the attack gathered on ``target`` (on this screen);
        False when that is not a legal attack (or another target is being gathered)."""
        if self._pending() is not None:  # gathered in the engine (an older save): add there
            if (src, target, ninja) not in self._legal()["attack"]:
                return False
            self.selected = None
            k = min(n, self._legal()["attack"][(src, target, ninja)])
            self._act({"type": "attack", "src": src, "target": target, "ninja": ninja, "count": k,
                       **({} if ninja else self._which(src, k))})
            return True
        free = self._attack_free().get((src, target, ninja), 0)
        if free <= 0 or (self.plan is not None and self.plan["target"] != target):
            return False
        if self.plan is None:
            self.plan = {"target": target, "groups": []}
        k = min(n, free)
        fresh = None if ninja else self._which(src, k).get("fresh")
        self.plan["groups"].append([src, k, frozenset((src, target)) in SEA, ninja, fresh])
        self.selected = None
        self.render(force=True)
        return True

    def _attack_free(self) -> dict[tuple[int, int, bool], int]:
        """The legal attack groups less what the plan already gathers from each source."""
        free = dict(self._legal()["attack"])
        for src, count, _sea, ninja, _fresh in (self.plan or {}).get("groups", []):
            for key in [k for k in free if k[0] == src and k[2] == ninja]:
                free[key] -= count
        return {k: v for k, v in free.items() if v > 0 and (self.plan is None or k[1] == self.plan["target"])}

    def _launch(self) -> None:
        """Send the gathered groups, then the launch (one battle)."""
        plan, self.plan = self.plan, None
        if plan:
            self._act_all([{"type": "attack", "src": src, "target": plan["target"], "ninja": ninja, "count": count,
                            **({} if fresh is None else {"fresh": fresh})}
                           for src, count, _sea, ninja, fresh in plan["groups"]] + [{"type": "launch"}])

    def _cancel_attack(self) -> None:
        """Release the gathered groups: nothing was sent, they can move or attack again."""
        self.plan = None
        self.selected = None
        self.render(force=True)

    def _handed_over(self) -> int | None:
        """The territory the viewer's last attack of this turn took by hand-over (no battle),
        or None."""
        events = self.controller.events
        seat = self.view.get("seat")
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            if e.get("type") in ("turn", "round"):
                return None
            if e.get("type") == "launch":
                if e.get("seat") != seat:
                    return None
                after = events[i + 1:]
                t_ = e.get("territory")
                if any(x.get("type") == "handed_over" and x.get("territory") == t_ for x in after) and \
                        any(x.get("type") == "captured" and x.get("territory") == t_ and x.get("seat") == seat for x in after):
                    return t_ if isinstance(t_, int) else None
                return None
        return None

    def _pending(self) -> dict[str, Any] | None:
        """The attack being gathered: this screen's plan, or the engine's (an older save)."""
        v = self.view
        if v.get("current") == v.get("seat") and v.get("turn", {}).get("pending"):
            return dict(v["turn"]["pending"])
        return None

    def _gathering(self) -> dict[str, Any] | None:
        return self._pending() or self.plan

    def _alloc(self, delta: int) -> None:
        code = self.selected
        leg = self._legal()
        if code is None or code not in leg["place"]:
            return
        left = self._income_left() - sum(self.alloc.values())
        n = self.alloc.get(code, 0) + delta
        if delta > 0 and left <= 0:
            return
        if n <= 0:
            self.alloc.pop(code, None)
        else:
            self.alloc[code] = n
        self.render(force=True)

    def _alloc_rest(self) -> None:
        """Plan every army of income not planned yet on the selected territory."""
        left = self._income_left() - sum(self.alloc.values())
        if left > 0:
            self._alloc(left)

    def _income_left(self) -> int:
        return int(self.view.get("me", {}).get("income_left", 0))

    def _place_confirm(self) -> None:
        alloc, self.alloc = dict(self.alloc), {}
        self._act_all([{"type": "place", "territory": code, "count": n} for code, n in sorted(alloc.items())],
                      lambda: self.mode() == "income")

    def _place_reset(self) -> None:
        self.alloc = {}
        self.render(force=True)

    def _castle(self) -> None:
        if self.selected is not None:
            self.alloc.pop(self.selected, None)
            self._act({"type": "castle", "territory": self.selected})

    def _buy_ninja(self) -> None:
        self._act({"type": "ninja", "count": 1})

    def _deploy(self) -> None:
        code = self.selected
        leg = self._legal()
        if code in leg["deploy"]:
            self._act({"type": "deploy", "territory": code, "count": min(int(self.count.value), leg["deploy"][code])})

    def _clear(self) -> None:
        self.selected = None
        self.strike_target = None
        self.render(force=True)

    def _commit_all(self) -> None:
        counts = self._commit_counts(int(self.commit_ninjas.value))
        if counts:
            self._commit(max(counts))

    def _commit_counts(self, ninjas: int) -> list[int]:
        """The card armies the defender may bring together with ``ninjas`` reserve ninjas."""
        return sorted(n for n, k in self._legal()["commits"] if k == ninjas)

    def _commit(self, count: int) -> None:
        """Answer the defence question: ``count`` card armies and the ninjas chosen, only
        as one of the controller's legal actions."""
        ninjas = int(self.commit_ninjas.value)
        action: dict[str, Any] = {"type": "commit", "count": count, **({"ninjas": ninjas} if ninjas else {})}
        if action in self.controller.legal:
            self._act(action)

    def _strike(self) -> None:
        target = self.strike_target
        leg = self._legal()
        if target in leg["strike"]:
            self.strike_target = None
            self._act({"type": "strike", "target": target, "count": min(int(self.count.value), leg["strike"][target])})

    # ------------------------------------------------------------ drawing
    def _on_version(self, _change: Any = None) -> None:
        if self._acting:
            return
        self.render()

    def render(self, force: bool = False) -> None:
        """Redraw from the controller's traits (once per ``version`` unless ``force``)."""
        c = self.controller
        if not force and c.version == self._version:
            return
        self._version = c.version
        if c.viewer != self._viewer or c.cover:  # another player (or the cover): forget local choices
            self._viewer = None if c.cover else c.viewer
            self.selected = None
            self.alloc = {}
            self.strike_target = None
            self.plan = None
            # and what the last viewer's question said: the count field's bounds and the prompts
            # (its card's armies), even where no longer shown (a page could read them)
            self.count.value, self.count.min = 1, 1
            self.count.max = 1
            self.prompt.value = self.prompt2.value = ""
        mode = self.mode()
        if self.auto_hold and mode == "window" and not self._legal()["strike"] and not c.cover:
            self._act({"type": "hold"})  # no ninja in reserve: nothing to ask (draws the next state)
            return
        if mode != self._mode:  # a new kind of decision: start it with nothing selected
            self._mode = mode
            self.selected = None
            self.strike_target = None
        if mode != "income":
            self.alloc = {}
        if mode != "turn":
            self.plan = None
        self.renders += 1
        self._drawing = True  # the ninja count's own changes redraw, not the drawing's
        try:
            if mode != "commit":  # the defender's reserve stays on the defender's screen only
                self._commit_key = None
                self.commit_ninjas.value = 0
                self.commit_ninjas.max = 0
                self.commit_ninjas.description = t("ui_commit_ninjas", self.lang, n=0)
                for key in ("commit", "commit_all", "commit_none"):  # their labels named the card's armies
                    self.buttons[key].description = ""
            self._draw_map(mode)
            self._draw_status(mode)
            self._draw_actions(mode)
            self._draw_info(mode)
            self._draw_odds(mode)
            self._draw_battle()
            self._draw_knowledge()
        finally:
            self._drawing = False
        self.message.value = (f"<div style='color:#b00020'>{html_text(c.message)}</div>" if c.message else "")
        # the last update of a render: browser tests wait for the class of a newer version
        for cls in [x for x in self._dom_classes if x.startswith("cw-v-")]:
            self.remove_class(cls)
        self.add_class(f"cw-v-{c.version}-{self.renders}")

    def _my_moves(self) -> tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]:
        v = self.view
        moves = {m[0]: (m[1], m[2]) for m in v.get("turn", {}).get("moves", [])} if v.get("current") == v.get("seat") else {}
        nmoves = {m[0]: (m[1], m[2]) for m in v.get("me", {}).get("ninja_moves", [])}
        return moves, nmoves

    def lit(self, mode: str | None = None) -> tuple[set[int], set[int], set[int]]:
        """What the map lights for the viewer now: territories to click (yellow outline),
        move targets (green, ➜) and attack targets (red, ⚔) — all from the viewer's own
        legal actions; the guide's words name exactly these."""
        mode = self.mode() if mode is None else mode
        leg = self._legal()
        sel = self.selected
        ninja = bool(self.use_ninjas.value)
        pick: set[int] = set()
        move_dst: set[int] = set()
        attack_dst: set[int] = set()
        gathering = self._gathering()
        if mode == "income":
            pick = set(leg["place"]) if self._income_left() > sum(self.alloc.values()) else set()
        elif mode == "turn" and gathering is not None:
            attack_dst = {gathering["target"]}
            free = self._attack_free() if self.plan is not None else leg["attack"]
            pick = {s for (s, d, _nj) in free if d == gathering["target"]} - {sel}
        elif mode == "turn" and sel is not None:
            move_dst = {d for (s, d) in (leg["ninja_move"] if ninja else leg["move"]) if s == sel}
            attack_dst = {d for (s, d, nj) in leg["attack"] if s == sel and nj == ninja}
            move_dst -= attack_dst
        elif mode == "turn":
            pick = (set(leg["deploy"]) | {s for (s, _d) in leg["move"]} | {s for (s, _d, _nj) in leg["attack"]}
                    | {s for (s, _d) in leg["ninja_move"]})
        elif mode == "window":
            attack_dst = set(leg["strike"]) if self.strike_target is None else {self.strike_target}
        return pick, move_dst, attack_dst

    def _draw_map(self, mode: str) -> None:
        v = self.view
        viewer = v.get("seat")
        sel = self.selected
        pick, move_dst, attack_dst = self.lit(mode)
        cards = dict(map(tuple, v.get("me", {}).get("card_armies", [])))
        my_ninjas = dict(map(tuple, v.get("me", {}).get("ninjas", [])))
        styles: dict[int, dict[str, Any]] = {}
        labels: dict[int, str] = {}
        for terr in v.get("territories", []):
            code = terr["code"]
            styles[code] = territory_style(terr["owner"], viewer, revealed=terr["revealed"], selected=code == sel,
                                           move=code in move_dst, attack=code in attack_dst,
                                           alloc=code in self.alloc, pick=code in pick)
            mark = ATTACK_MARK if code in attack_dst else MOVE_MARK if code in move_dst else ""
            labels[code] = self._label(code, terr, cards.get(code, 0) + self.alloc.get(code, 0),
                                       my_ninjas.get(code, 0), code in self.alloc, mark)
        with self.map.painter.batch():  # shapes and labels: one message
            self.map.apply_styles(styles)
            self.map.set_labels(labels)

    @staticmethod
    def _label(code: int, terr: Mapping[str, Any], card: int, my_ninjas: int, planned: bool, mark: str = "") -> str:
        bits = []
        if mark:
            kind = "attack" if mark == ATTACK_MARK else "move"
            bits.append(f"<span class='cw-mark cw-mark-{kind}'>{mark}</span>")
        if terr["castle"]:
            bits.append("🏯")
        if terr["armies"]:
            bits.append(f"<b class='cw-armies'>{int(terr['armies'])}</b>")
        if terr["ninjas"]:
            bits.append(f"<span class='cw-ninjas'>🥷{int(terr['ninjas'])}</span>")
        if card:
            # the viewer's own card armies: a private badge (the view holds only the viewer's)
            planned_class = " cw-planned" if planned else ""   # a dashed border (labels.css)
            bits.append(f"<span class='cw-card-badge{planned_class}'>✋{card}</span>")
        if not bits:
            return ""
        # the classes' styles are in labels.css, sent once with the map
        return f"<div class='cw-label cw-label-{code}'>{' '.join(bits)}</div>"

    def _draw_status(self, mode: str) -> None:
        v = self.view
        if not v:
            self.status.value = ""
            return
        limit = self._t("ui_of_limit", n=v["round_limit"]) if v.get("round_limit") else ""
        parts = [html_text(self._t("ui_round", round=v.get("round", 0), limit=limit))]  # each part is HTML
        phase = v.get("phase")
        if phase == "income":
            parts.append(html_text(self._t("ui_phase_income")))
        elif phase == "turns" and v.get("current") is not None:
            parts.append(html_text(self._t("ui_phase_turns", player=self._who(v["current"]))))
        elif phase == "over":
            parts.append(html_text(self._t("ui_phase_over")))
        seat = v.get("seat")
        me = v.get("me")
        if seat is not None and me is not None:
            colour = COLOURS[seat % len(COLOURS)]
            parts.append(f"<span style='color:{colour};font-weight:bold'>■</span> "
                         + html_text(self._t("ui_you", player=self._who(seat))))
            if phase == "income":
                parts.append(f"<span class='cw-income-left'>{html_text(self._t('ui_income_left', n=me['income_left']))}</span>")
            parts.append(f"<span class='cw-reserve'>{html_text(self._t('ui_reserve', n=me['reserve']))}</span>")
        if mode == "wait" and v.get("to_act") and phase != "over":
            parts.append(html_text(self._t("ui_waiting", players=", ".join(self._who(s) for s in v["to_act"]))))
        self.status.value = "<div>" + "<br>".join(parts) + "</div>"

    def _draw_actions(self, mode: str) -> None:
        b = self.buttons
        leg = self._legal()
        v = self.view
        rows: list[W.Widget] = []
        if mode == "income":
            me = v["me"]
            left = me["income_left"] - sum(self.alloc.values())
            if left > 0:
                rows.append(self._guide([self._t("guide_income", n=left)]))
            else:
                rows.append(self._guide([self._t("guide_income_done", n=me["income_left"], button=self._t("ui_place_confirm"))]))
            rows.append(self._html(self.prompt2, f"<span class='cw-to-place'>{html_text(self._t('ui_to_place', n=sum(self.alloc.values())))}"
                                   f" / {int(me['income_left'])}</span>"))
            b["plus"].disabled = self.selected not in leg["place"] or left <= 0
            b["minus"].disabled = self.alloc.get(self.selected or 0, 0) <= 0
            b["all_here"].description = self._t("ui_all_here", n=max(left, 0))
            b["all_here"].disabled = b["plus"].disabled
            b["place_confirm"].description = self._t("ui_place_confirm")
            b["place_confirm"].disabled = not self.alloc
            b["place_reset"].description = self._t("ui_place_reset")
            b["place_reset"].disabled = not self.alloc
            b["castle"].description = self._t("ui_castle", cost=CASTLE_COST)
            b["castle"].disabled = self.selected not in leg["castle"] or left < CASTLE_COST - self.alloc.get(self.selected or 0, 0)
            b["ninja"].description = self._t("ui_buy_ninja", cost=NINJA_COST)
            b["ninja"].disabled = not leg["ninja"] or left < NINJA_COST
            rows += [self._row(0, [b["plus"], b["minus"], b["all_here"], b["castle"]]), self._row(1, [b["ninja"]]),
                     self._row(2, [b["place_confirm"], b["place_reset"]])]
        elif mode == "turn":
            rows += self._turn_actions(leg)
        elif mode == "commit":
            bt = v["battle"]
            t_ = bt["target"]
            card = dict(map(tuple, v["me"]["card_armies"])).get(t_, 0)
            rows.append(self._html(self.prompt, "<div class='cw-commit-ask'><b>" + html_text(self._t(
                "ui_commit_title", pref=pref_name(t_, self.lang), attacker=self._who(bt["attacker"]) if bt["attacker"] is not None else "🥷",
                armies=bt["armies"], ninjas=bt["ninjas"])) + "</b><br>"
                + html_text(self._t("ui_commit_card", n=card, b=bt["defenders"])) + "</div>"))
            reserve = max(k for _n, k in leg["commits"])  # 0 unless reserve ninjas may join
            key = (self.controller.version, t_, bt["rounds"])
            if key != self._commit_key:  # a new question: all the card, no ninja (the first legal answer)
                self._commit_key = key
                self.commit_ninjas.max = reserve
                self.commit_ninjas.value = 0
                self.count.max = max(max(leg["commit"]), 1)
                self.count.min = 1
                self.count.value = max(max(leg["commit"]), 1)
            ninjas = int(self.commit_ninjas.value)
            counts = self._commit_counts(ninjas)
            top, lo = max(counts), min(counts)
            plus = self._t("ui_commit_plus_ninjas", k=ninjas) if ninjas else ""
            self.commit_ninjas.description = self._t("ui_commit_ninjas", n=reserve)
            b["commit"].description = self._t("ui_commit") + plus
            b["commit_all"].description = self._t("ui_commit_all", n=top) + plus
            b["commit_none"].description = (self._t("ui_commit_only_ninjas", k=ninjas) if ninjas
                                            else self._t("ui_commit_none"))
            if reserve:
                rows.append(self.commit_ninjas)
            if top == 0:  # an empty card: asked all the same (issue 27), the only answer is none
                rows.append(self._row(0, [b["commit_none"]]))
            else:
                row = [b["commit_all"], b["commit"]]
                if lo == 0:
                    row.append(b["commit_none"])
                rows += [self.count, self._row(0, row)]
        elif mode == "window":
            w = v.get("window") or {}
            trig = self._t("ui_trigger_battle" if w.get("trigger") == "battle" else "ui_trigger_turn")
            rows.append(self._html(self.prompt, f"<b class='cw-window-ask'>{html_text(self._t('ui_window_title', trigger=trig))}</b>"))
            b["hold"].description = self._t("ui_hold")
            row = [b["hold"]]
            if leg["strike"]:
                rows.append(self._html(self.prompt2, html_text(self._t("ui_strike_pick"))))
                tgt = self.strike_target
                if tgt is not None:
                    self.count.max = max(leg["strike"][tgt], 1)
                    self.count.min = 1
                    self.count.value = min(max(self.count.value, 1), leg["strike"][tgt])
                    rows.append(self.count)
                    b["strike"].description = self._t("ui_strike", pref=pref_name(tgt, self.lang))
                    row.insert(0, b["strike"])
            rows.append(self._row(0, row))
        if tuple(rows) != tuple(self.actions.children):
            self.actions.children = rows

    def _guide(self, lines: list[str], head: str = "") -> W.HTML:
        """The guide box: what to do now, in words (``head`` is HTML, ``lines`` text)."""
        body = "".join(f"<div>{html_text(x)}</div>" for x in lines)
        return self._html(self.guide, "<div class='cw-guide-box' style='background:#fffbe6;border-left:4px solid "
                          f"{PICK_BORDER};padding:4px 6px;margin:4px 0'>{head}{body}</div>")

    def _turn_actions(self, leg: dict[str, Any]) -> list[W.Widget]:
        """The current player's turn: the guide for what is lit, the count, the buttons."""
        b = self.buttons
        rows: list[W.Widget] = []
        sel = self.selected
        moves, nmoves = self._my_moves()
        pick, move_dst, attack_dst = self.lit("turn")
        gathering = self._gathering()
        for key, name in (("deploy", "ui_deploy"), ("launch", "ui_launch"), ("cancel", "ui_cancel_attack"),
                          ("end_turn", "ui_end_turn"), ("clear", "ui_clear")):
            b[key].description = self._t(name)
        end = self._t("guide_end", button=self._t("ui_end_turn"))
        mv = sum(moves.get(sel, (0, 0))) if sel is not None else 0
        nmv = sum(nmoves.get(sel, (0, 0))) if sel is not None else 0
        dep = leg["deploy"].get(sel, 0) if sel is not None and gathering is None else 0
        if gathering is not None:
            groups = gathering["groups"]
            pref = pref_name(gathering["target"], self.lang)
            ninjas, sea = sum(g[1] for g in groups if g[3]), sum(g[1] for g in groups if g[2])
            head = ("<b class='cw-pending'>" + html_text(self._t(
                "ui_pending", pref=pref, armies=sum(g[1] for g in groups if not g[3]),
                ninjas=self._t("ui_pending_ninjas", n=ninjas) if ninjas else "",
                sea=self._t("ui_pending_sea", n=sea) if sea else "")) + "</b>")
            lines = ([self._t("guide_gathered", launch=self._t("ui_launch"), cancel=self._t("ui_cancel_attack"))]
                     if self.plan is not None else [self._t("guide_gathered_old", launch=self._t("ui_launch"))])
            if pick:
                lines.append(self._t("guide_gather_more", pref=pref))
            rows.append(self._guide(lines, head))
            free = self._attack_free() if self.plan is not None else leg["attack"]
            mv = nmv = 0
            if sel is not None:
                ninja_free = sum(n for (s_, d, nj), n in free.items() if s_ == sel and d == gathering["target"] and nj)
                army_free = sum(n for (s_, d, nj), n in free.items() if s_ == sel and d == gathering["target"] and not nj)
                mv, nmv = army_free, ninja_free
        elif sel is None:
            deployable = bool(leg["deploy"]) and not (leg["move"] or leg["attack"] or leg["ninja_move"])
            if not pick:
                rows.append(self._guide([self._t("guide_nothing", button=self._t("ui_end_turn"))]))
            else:
                lines = [self._t("guide_pick_deploy" if deployable else "guide_pick_src")]
                taken = self._handed_over()
                if taken in pick:  # issue 30: a hand-over is no fight, the winners keep their second move
                    lines.append(self._t("guide_handed_over", pref=pref_name(taken, self.lang)))
                rows.append(self._guide(lines + [end]))
        else:
            pref = pref_name(sel, self.lang)
            count = self._t("ui_count")
            if attack_dst and move_dst:
                lines = [self._t("guide_targets_both", count=count)]
            elif attack_dst:
                lines = [self._t("guide_targets_attack", count=count)]
            elif move_dst:
                lines = [self._t("guide_targets_move", count=count)]
            elif dep:
                lines = [self._t("guide_deploy", button=self._t("ui_deploy"), pref=pref)]
            else:
                lines = [self._t("guide_stuck", button=self._t("ui_clear"))]
            if dep and (attack_dst or move_dst):
                lines.append(self._t("guide_more_deploy", button=self._t("ui_deploy")))
            rows.append(self._guide(lines + [end]))
        ninja = bool(self.use_ninjas.value) and nmv > 0
        if not nmv and self.use_ninjas.value:
            self.use_ninjas.value = False
        top = nmv if ninja else max(mv, dep)
        if top >= 1:
            self.count.min = 1
            self.count.max = max(top, 1)
            if self.count.value > top or self.count.value < 1 or self._count_src != (sel, ninja):
                self.count.value = top
            self._count_src = (sel, ninja)
            rows.append(self.count)
        if nmv:
            rows.append(self.use_ninjas)
        if sel is not None and mv and not ninja and all(self._left_moves(sel)):  # fresh and once-moved together
            rows.append(self.fresh_first)
        if dep:
            rows.append(b["deploy"])
        b["launch"].disabled = gathering is None
        b["end_turn"].disabled = not leg["end_turn"] or gathering is not None
        if gathering is not None:
            row = [b["launch"], b["cancel"]] if self.plan is not None else [b["launch"]]
        else:
            row = [b["end_turn"]]
        if sel is not None:
            row.append(b["clear"])
        rows.append(self._row(0, row))
        return rows

    @staticmethod
    def _html(widget: W.HTML, value: str) -> W.HTML:
        if widget.value != value:
            widget.value = value
        return widget

    def _row(self, i: int, children: list[W.Widget]) -> W.HBox:
        box = self.rows[i]
        if tuple(children) != tuple(box.children):
            box.children = children
        return box

    _count_src: Any = None

    def _draw_info(self, mode: str) -> None:
        code = self.selected
        v = self.view
        if code is None or not v.get("territories"):
            self.info.value = ""
            return
        terr = v["territories"][code - 1]
        lines = [f"<b>{html_text(pref_name(code, self.lang))}</b>",
                 html_text(self._t("ui_owner", owner=self._who(terr["owner"]))),
                 html_text(self._t("ui_on_board", n=terr["armies"]))]
        me = v.get("me") or {}
        card = dict(map(tuple, me.get("card_armies", []))).get(code, 0)
        if card:
            lines.append(html_text(self._t("ui_on_card", n=card)))
        if terr["castle"]:
            lines.append("🏯 " + html_text(t("castle", self.lang)))
            if terr["wounded"]:
                lines.append(html_text(self._t("ui_wounded", n=terr["wounded"])))
        moves, nmoves = self._my_moves()
        if code in moves:
            lines.append(html_text(self._t("ui_moves_left", fresh=moves[code][0], half=moves[code][1])))
        mine = dict(map(tuple, me.get("ninjas", []))).get(code, 0)
        if mine:
            lines.append(html_text(self._t("ui_my_ninjas_here", n=mine, m=sum(nmoves.get(code, (0, 0))))))
        elif terr["ninjas"]:
            lines.append(html_text(self._t("ui_ninjas_here", n=terr["ninjas"])))
        self.info.value = "<div class='cw-info'>" + "<br>".join(lines) + "</div>"

    def _odds_line(self, att: int, dfn: int, *, castle: bool = False, wounded: int = 0, sea: int = 0,
                   prefix: str = "") -> str:
        att, dfn = min(att, MAX_ARMIES), min(dfn, MAX_ARMIES)
        o = battle_odds_float(att, dfn, castle=castle, wounded=min(wounded, 1) if castle and dfn else 0,
                              sea=min(sea, att))
        text = self._t("ui_odds_vs", n=dfn, castle=self._t("ui_odds_castle") if castle else "", win=_pct(o.win),
                       ea=f"{o.expected_attackers:.2f}", ed=f"{o.expected_defenders:.2f}")
        return f"<div>{html_text(prefix + (': ' if prefix else '') + text)}</div>"

    def _draw_odds(self, mode: str) -> None:
        v = self.view
        terrs = v.get("territories") or []
        target, att, sea = None, 0, 0
        pending = self._gathering()
        if mode == "turn" and pending:
            target = pending["target"]
            att = sum(g[1] for g in pending["groups"])
            sea = sum(g[1] for g in pending["groups"] if g[2])
        elif mode == "commit" or (v.get("battle") and mode == "wait"):
            bt = v["battle"]
            target, att, sea = bt["target"], bt["armies"] + bt["ninjas"], bt["sea"] if bt["preroll"] else 0
        if target is None or not att or not terrs:
            self.odds.value = ""
            return
        terr = terrs[target - 1]
        rows = []
        dfn = terr["armies"]
        if mode != "turn":  # a battle under way: the owner's ninjas there defend too (issue 30)
            dfn += int(v["battle"].get("defending_ninjas", 0))
        castle = terr["castle"]
        if dfn:
            rows.append(self._odds_line(att, dfn, castle=castle, wounded=terr["wounded"], sea=sea))
        elif mode == "commit":
            me = v.get("me") or {}
            card = dict(map(tuple, me.get("card_armies", []))).get(target, 0)
            for n in sorted({1, card}):
                if n:
                    rows.append(self._odds_line(att, n, castle=castle, sea=sea))
        else:
            if terr["owner"] in (None, "neutral"):
                rows.append(self._odds_line(att, 2, sea=sea, prefix=self._t("ui_odds_neutral")))
            if terr["owner"] != "neutral":
                for n in (1, 3, 6):
                    rows.append(self._odds_line(att, n, castle=castle, sea=sea,
                                                prefix=self._t("ui_odds_hidden", n=n)))
        self.odds.value = (f"<div class='cw-odds-box' style='background:#fff8e1;padding:4px;margin:4px 0'>"
                           f"<b>{html_text(self._t('ui_odds_title'))} — {html_text(pref_name(target, self.lang))}</b>"
                           + "".join(rows) + "</div>")

    def _draw_battle(self) -> None:
        events = self.controller.events
        start = None
        for i in range(len(events) - 1, -1, -1):
            if events[i].get("type") in ("launch", "strike"):
                start = i
                break
        if start is None:
            self.battle.value = ""
            return
        first = events[start]
        target = first.get("territory")
        rows = []
        n = 0
        for e in events[start:]:
            k = e.get("type")
            if k == "preroll":
                rows.append(f"<div class='cw-battle-preroll'>{html_text(self._t('ui_sea_dice'))}: "
                            f"{self._dice(e['dice'], 4)} — {html_text(self._t('ui_hits', n=e['hits']))}</div>")
            elif k == "battle_round":
                n += 1
                rows.append(f"<div class='cw-battle-round'><b>{html_text(self._t('ui_battle_round', n=n))}</b> "
                            f"{html_text(self._t('ui_attack_dice'))} {self._dice(e['att'], 3)} ({int(e['ah'])}) · "
                            f"{html_text(self._t('ui_defence_dice'))} {self._dice(e['dfn'], 4)} ({int(e['dh'])}) → "
                            f"{int(e['attackers'])} : {int(e['defenders'])}"
                            # the defender's ninjas left (issue 30), their dice rolled in the open
                            + (f" + 🥷{int(e['ninjas'])}" if isinstance(e.get("ninjas"), int) else "") + "</div>")
            elif k in ("committed", "captured", "held", "ninjas_won", "handed_over", "undefended", "neutral_armies",
                       "revealed"):
                from . import event_text

                line = event_text(e, self.lang, self._names())
                if line:
                    rows.append(f"<div>{html_text(line)}</div>")
            elif k in ("turn", "round", "end_turn"):
                break
        self.battle.value = (f"<div class='cw-battle-box' style='border-top:1px solid #ccc;margin-top:4px'>"
                             f"<b>{html_text(self._t('ui_battle_title', pref=pref_name(target, self.lang) if isinstance(target, int) else '?'))}</b>"
                             + "".join(rows) + "</div>")

    @staticmethod
    def _dice(dice: Sequence[int], hit: int) -> str:
        return "".join(
            f"<span style='font-size:18px;color:{'#c62828' if int(d) <= hit else '#777'}'>{DICE[int(d) - 1]}</span>"
            for d in dice if isinstance(d, int) and 1 <= d <= 6)

    def _draw_knowledge(self) -> None:
        v = self.view
        seat = v.get("seat")
        if not v.get("territories"):
            self.knowledge.value = ""
            return
        learned: dict[int, tuple[int, str]] = {}
        rnd = 0
        for e in self.controller.events:
            k = e.get("type")
            if k == "round":
                rnd = e.get("round", rnd)
            elif k in KNOWING and isinstance(e.get("territory"), int):
                learned[e["territory"]] = (rnd, k)
        terrs = v["territories"]
        out = [f"<details open><summary><b>{html_text(self._t('ui_knowledge'))}</b></summary>"]
        for p in v.get("players", []):
            if p["seat"] == seat:
                continue
            known = [x for x in terrs if x["owner"] == p["seat"]]
            colour = COLOURS[p["seat"] % len(COLOURS)]
            out.append(f"<div class='cw-k-player cw-k-player-{int(p['seat'])}' style='margin-top:4px'>"
                       f"<span style='color:{colour}'>■</span> "
                       + html_text(self._t("ui_k_player", player=p["name"], n=p["territories"], castles=p["castles"],
                                           pool=p["hidden_pool"]))
                       + " — " + html_text(self._t("ui_k_known", known=len(known), n=p["territories"])) + "<ul style='margin:0'>")
            for x in known:
                rnd_, how = learned.get(x["code"], (0, ""))
                out.append("<li>" + html_text(self._t(
                    "ui_k_row", pref=pref_name(x["code"], self.lang), armies=x["armies"],
                    castle=" 🏯" if x["castle"] else "", round=rnd_ or "?",
                    how=self._t(f"ui_how_{how}") if how else "?")) + "</li>")
            out.append("</ul></div>")
        neutral = [pref_name(x["code"], self.lang) for x in terrs if x["owner"] == "neutral"]
        if neutral:
            out.append("<div>" + html_text(self._t("ui_k_neutral", codes=", ".join(neutral))) + "</div>")
        unknown = sum(1 for x in terrs if x["owner"] is None)
        out.append("<div>" + html_text(self._t("ui_k_unknown", n=unknown)) + "</div></details>")
        self.knowledge.value = "<div class='cw-knowledge-box' style='font-size:90%'>" + "".join(out) + "</div>"


__all__ = ["COLOURS", "RiskBoard", "territory_style"]
