"""The Japanese Risk board in the shared shell: the prefecture map (what the viewer
knows), the income controls, moves and attacks by clicking, exact odds before launching,
battles round by round with the dice, the defender's commit question, ninja windows, and
a knowledge panel.

It draws only from a :class:`~conquest_widget.ui.controller.MatchController`'s published
traits (``view``, ``legal``, ``events``, ``version``) and sends moves only with
``controller.act``.  The map is a :class:`~conquest_widget.maps.japan.prefecture_map.PrefectureMap`
(restyled through its painter); everything beside it is one widget drawn in the page,
:class:`~.panels.RiskPanels`, from a scene this board writes (:mod:`.panel_scene`): a move
changes a few of its keys, sent as one message, and a click in the panels comes back as one
small message (its target).  ``board.buttons``, ``board.count``, ... read what the panels
show and click as the page does:

    >>> from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
    >>> from conquest_widget.ui.controller import MatchController
    >>> c = MatchController(JapaneseRisk(RiskSetup(("Aki", "Ben"), bots=("human", "easy")), seed=3), humans={0})
    >>> b = RiskBoard(c, "en")
    >>> mine = c.view["me"]["cards"][0]
    >>> b.click(mine); b.alloc == {mine: 1}
    True
    >>> b.buttons["place-confirm"].description, b.panels.click("place-confirm")
    ('Place these armies', True)
    >>> dict(c.view["me"]["card_armies"])[mine]
    1
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as W

from conquest_widget.lean import Layout, page_file
from conquest_widget.maps.japan.prefecture_map import FIT_MIN_WIDTH_PX, PrefectureMap

from ..engine import SEA
from ..text import t
from .panel_scene import COLOURS, KNOWING, PanelScene, pref_name
from .panels import BOXES, BUTTONS, NUMBERS, Control, RiskPanels, shown_controls

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
#: the pieces a territory's label is made of (joined by spaces, a count where ``{}`` is):
#: the attack and move marks, a castle, its armies, its ninjas, the viewer's own card armies
#: (a private badge; dashed while planned).  Public (the numbers are what a label tells):
#: the map's painter sends them once, and a label as the pieces' numbers
LABEL_PARTS = (f"<span class='cw-mark cw-mark-attack'>{ATTACK_MARK}</span>",
               f"<span class='cw-mark cw-mark-move'>{MOVE_MARK}</span>", "🏯", "<b class='cw-armies'>{}</b>",
               "<span class='cw-ninjas'>🥷{}</span>", "<span class='cw-card-badge'>✋{}</span>",
               "<span class='cw-card-badge cw-planned'>✋{}</span>")
#: labels are see-through and let clicks reach the prefecture under them
CSS = ("<style>.cw-risk-board .leaflet-div-icon { background: transparent; border: none; pointer-events: none; }"
       ".cw-risk-board .leaflet-container { background: #dfe9f0; }</style>")
#: the parts of the panels a test reads as text (``board.status.value`` ...)
PARTS = ("status", "message", "guide", "actions", "info", "odds", "battle", "knowledge")


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


def public_styles(seats: int) -> list[dict[str, Any]]:
    """Every style :func:`territory_style` gives a territory in a game of ``seats`` seats,
    whoever views it (each seat's own unrevealed territories included): public, as they
    follow from the seats' colours alone.  The map's painter sends them once, so that a
    move's restyle costs the shapes' numbers only.

    >>> len(public_styles(2)), territory_style(None, 0, revealed=False) in public_styles(2)
    (36, True)
    """
    flags = ({}, {"attack": True}, {"move": True}, {"alloc": True}, {"pick": True}, {"selected": True})
    owners: list[tuple[Any, Any, bool]] = [(None, 0, False), ("neutral", 0, True)]
    owners += [(s, s, revealed) for s in range(seats) for revealed in (False, True)]
    out: list[dict[str, Any]] = []
    for owner, viewer, revealed in owners:
        for flag in flags:
            style = territory_style(owner, viewer, revealed=revealed, **flag)
            if style not in out:
                out.append(style)
    return out


class RiskBoard(PanelScene, W.VBox):
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
        # the styles a territory may show, sent once (public: the seats' colours), and the
        # labels' box (cw-label cw-label-<code>) put around each label by the page
        seats = len(controller.view.get("players") or ()) or len(COLOURS)
        self.map = PrefectureMap(height="760px", names=True, lang=lang,
                                 label_css=page_file(Path(__file__).with_name("labels.css")),
                                 palette=public_styles(min(seats, len(COLOURS))), label_class="cw-label",
                                 label_parts=LABEL_PARTS)
        self.map.on_region_click(self.click)
        # the choices on this screen the panels' fields hold: [value, low, high] of the count
        # and of the defender's reserve ninjas (issue 30: shown only to the defender at the
        # screen, and emptied for any other screen: the reserve is secret), the two boxes
        self._count = [1, 1, 1]
        self._commit_ninjas = [0, 0, 0]
        self._use_ninjas = False
        # which armies of a stack go (issue 30): off = the once-moved ones first, as before
        self._fresh_first = False
        self._count_src: Any = None
        self._commit_key: Any = None
        self.panel_scene: dict[str, Any] = {}
        #: the panels beside the map: one widget drawn in the page from a scene (panels.py)
        self.panels = RiskPanels(self, layout=Layout(width="400px", min_width="320px", padding="0 0 0 8px",
                                                     flex="0 0 auto"))
        # what a test holds of the page's buttons, fields and panels (they read the scene)
        self.buttons = {name: Control(self.panels, name, "button") for name in BUTTONS}
        self.count, self.commit_ninjas = (Control(self.panels, name, "number") for name in NUMBERS)
        self.use_ninjas, self.fresh_first = (Control(self.panels, name, "box") for name in BOXES)
        (self.status, self.message, self.guide, self.actions, self.info, self.odds, self.battle,
         self.knowledge) = (Control(self.panels, name, "text") for name in PARTS)
        self.map.layout.width = "100%"
        holder = W.Box([self.map], layout=Layout(flex="1 1 auto", width="100%", min_width=f"{FIT_MIN_WIDTH_PX}px"))
        css = W.HTML(CSS)
        super().__init__([css, W.HBox([holder, self.panels], layout=Layout(width="100%"))], **kwargs)
        self.add_class("cw-risk-board")
        controller.observe(self._on_version, names="version")
        self.render(force=True)

    # ------------------------------------------------------------ language
    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self.map.set_lang(lang)
        self.render(force=True)

    # ------------------------------------------------------------ what the page shows
    def shown(self) -> list[Control]:
        """The panels' parts, fields and buttons the page shows now (texts not empty)."""
        controls = [*self.buttons.values(), self.count, self.commit_ninjas, self.use_ninjas, self.fresh_first,
                    self.status, self.message, self.guide, self.actions, self.info, self.odds, self.battle,
                    self.knowledge]
        return shown_controls(self.panels, controls)

    def press(self, target: str) -> None:
        """A click on the button ``target`` in the page (RiskPanels.click checked it is
        shown and enabled)."""
        {"place-confirm": self._place_confirm, "place-reset": self._place_reset,
         "plus": lambda: self._alloc(+1), "minus": lambda: self._alloc(-1), "all-here": self._alloc_rest,
         "castle": self._castle, "buy-ninja": self._buy_ninja, "deploy": self._deploy, "launch": self._launch,
         "cancel-attack": self._cancel_attack, "end-turn": lambda: self._act({"type": "end_turn"}),
         "clear": self._clear, "commit": lambda: self._commit(self._count[0]), "commit-all": self._commit_all,
         "commit-none": lambda: self._commit(0), "strike": self._strike,
         "hold": lambda: self._act({"type": "hold"})}[target]()

    def set_field(self, name: str, value: int) -> None:
        """A field changed in the page (RiskPanels.click checked it is shown and clamped
        the number to its bounds): the count, the reserve ninjas, a box."""
        if name == "count":
            self._count[0] = value
        elif name == "commit-ninjas":
            self._commit_ninjas[0] = value
        elif name == "use-ninjas":
            self._use_ninjas = bool(value)
        elif name == "fresh-first":
            self._fresh_first = bool(value)
        self.render(force=True)

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
        return {"fresh": min(k, fresh)} if self._fresh_first and fresh and half else {}

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
                ninja = self._use_ninjas
                n = self._count[0]
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
            self._use_ninjas = self._use_ninjas and self.selected is not None
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
            self._act({"type": "deploy", "territory": code, "count": min(self._count[0], leg["deploy"][code])})

    def _clear(self) -> None:
        self.selected = None
        self.strike_target = None
        self.render(force=True)

    def _commit_all(self) -> None:
        counts = self._commit_counts(self._commit_ninjas[0])
        if counts:
            self._commit(max(counts))

    def _commit_counts(self, ninjas: int) -> list[int]:
        """The card armies the defender may bring together with ``ninjas`` reserve ninjas."""
        return sorted(n for n, k in self._legal()["commits"] if k == ninjas)

    def _commit(self, count: int) -> None:
        """Answer the defence question: ``count`` card armies and the ninjas chosen, only
        as one of the controller's legal actions."""
        ninjas = self._commit_ninjas[0]
        action: dict[str, Any] = {"type": "commit", "count": count, **({"ninjas": ninjas} if ninjas else {})}
        if action in self.controller.legal:
            self._act(action)

    def _strike(self) -> None:
        target = self.strike_target
        leg = self._legal()
        if target in leg["strike"]:
            self.strike_target = None
            self._act({"type": "strike", "target": target, "count": min(self._count[0], leg["strike"][target])})

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
            # and what the last viewer's question said: the fields (the count's bounds named its
            # card's armies); the panels' scene is written from scratch anyway
            self._count, self._commit_ninjas = [1, 1, 1], [0, 0, 0]
            self._use_ninjas = self._fresh_first = False
            self._count_src = None
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
        if mode != "commit":  # the defender's reserve stays on the defender's screen only
            self._commit_key = None
            self._commit_ninjas = [0, 0, 0]
        self._draw_map(mode)
        # the panels last, sent even when nothing in them changed: the page puts their redraw's
        # number on the board (the class cw-v-<n>), the last update of a render in the page
        # (browser tests wait for a newer one)
        self._write_panels(mode)
        self.panels.redraw(always=True)

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
        ninja = self._use_ninjas
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
        attack, move, castle, armies, ninjas, badge, planned_badge = LABEL_PARTS
        bits = []
        if mark:
            bits.append(attack if mark == ATTACK_MARK else move)
        if terr["castle"]:
            bits.append(castle)
        if terr["armies"]:
            bits.append(armies.format(int(terr["armies"])))
        if terr["ninjas"]:
            bits.append(ninjas.format(int(terr["ninjas"])))
        if card:
            # the viewer's own card armies: a private badge (the view holds only the viewer's),
            # dashed while planned (labels.css)
            bits.append((planned_badge if planned else badge).format(int(card)))
        if not bits:
            return ""
        # the classes' styles are in labels.css, sent once with the map; the page puts the
        # label in its box, <div class='cw-label cw-label-<code>'> (the painter's label_class)
        return " ".join(bits)


__all__ = ["COLOURS", "KNOWING", "RiskBoard", "pref_name", "public_styles", "territory_style"]
