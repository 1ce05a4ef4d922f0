"""Side panels of the game screen: turn controls, battle, scoreboard and info drawn in the
page by one scene widget (:class:`JapanPanels`, ``panels.js`` / ``panels.css``), and the log."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import css_colour
from conquest_widget.games.japan_conquest.text import (
    STRINGS,
    describe_event,
    level_name,
    pref_name,
    region_name,
    t,
)
from conquest_widget.games.japan_conquest.widget.controller import BoardModel
from conquest_widget.games.japan_conquest.widget.style import DIE_FACES
from conquest_widget.lean import Layout, page_file, plain, shared_layout, shared_style
from conquest_widget.maps.japan.board import japan
from conquest_widget.scene import SceneWidget

_HERE = Path(__file__).parent


def _names(c: BoardModel) -> list[str]:
    return c.names


#: the texts the page is sent once per language (``L``): the buttons' labels, the route's
#: templates ("Movement {n}", "{n} left") and hints
LABELS = ("roll", "undo", "confirm", "battle_roll", "battle_ok", "allowance", "remaining", "can_confirm", "choose_next",
          "hint_roll", "one_die", "double_dice", "triple_dice")
#: the dice choice's label templates (``L``), by the number of dice
DICE_LABELS = {1: "one_die", 2: "double_dice", 3: "triple_dice"}

#: the page's click targets of the panels, in page order (see :class:`JapanPanels`)
TARGETS = ("dice-1", "dice-2", "dice-3", "roll", "undo", "confirm", "battle-1", "battle-2", "battle-3", "ok")


def _marked(key: str, lang: str, **fmt: Any) -> list[Any]:
    """The text ``key`` as parts for the page: strings, and ``["d", faces]`` (dice glyphs)
    or ``["b", total]`` (bold) for the fields given as such tuples."""
    marks: dict[str, list[Any]] = {}
    plain_fmt: dict[str, Any] = {}
    for k, v in fmt.items():
        if isinstance(v, tuple):
            marks[k] = list(v)
            plain_fmt[k] = f"\x00{k}\x00"
        else:
            plain_fmt[k] = v
    parts: list[Any] = []
    for i, piece in enumerate(t(key, lang, **plain_fmt).split("\x00")):
        if i % 2:
            parts.append(marks[piece])
        elif piece:
            parts.append(piece)
    return parts


def _parts_text(parts: list[Any]) -> str:
    return "".join(p if isinstance(p, str) else str(p[1]) for p in parts)


def _faces(faces: list[int]) -> str:
    return "".join(DIE_FACES[f - 1] for f in faces)


class JapanPanels(SceneWidget):
    """The side panels of Japan Conquest's game screen drawn in the page by one widget
    (issue 32: a lean wire): the turn panel (title, what to do first, the dice choice, Roll,
    the dice rolled, the planned route with its costs, Undo / Confirm, the message), the
    battle panel (each side's dice, then the result until Continue), the scoreboard and the
    selected prefecture's info; ``parts`` picks some of them (the replay: ``("score",
    "info")``; the results: ``("score",)``).

    The scene is written from the controller's published traits only (the viewer's view:
    the Final Showdown's totals are not in it), with every text in the chosen language
    (:func:`~..text.t`); the page (``panels.js``) puts every text in with ``textContent``.
    Keys: ``P`` the parts; ``L`` the buttons' labels; ``ti`` the turn's title; ``hi`` the
    hint (the name put into ``L``'s template); ``dc`` the dice choice ``[[dice, left]...]``
    (``L``'s labels) and ``ds`` the one chosen (0: no Roll now); ``fa`` the dice rolled; ``mv`` [movement, left] (the numbers, put into
    ``L``'s templates); ``r1``... the route's steps; ``rh`` the route's hint (a key of ``L``); ``ac`` [Undo, Confirm] enabled (0: hidden); ``ms`` [kind,
    text] ("e" the message, "w" waiting for another player); ``bt`` the battle (0: none);
    ``sh`` [banner, [column titles]], ``so`` the seats in turn order, ``p<seat>`` [name,
    colour], ``s<seat>`` [score, items, regions], ``cur`` the current seat (-1 when over); ``in`` the
    selected prefecture [code, name, [lines]] (0: none).

    A click comes back as one message ``{"click": target}`` (:data:`TARGETS`: ``roll``,
    ``undo``, ``confirm``, ``dice-<n>``, ``battle-<n>``, ``ok``), handled by :meth:`click`
    only when the scene offers it; the buttons have the classes ``cw-`` + target
    (``cw-battle-ok`` for ``ok``).  Tests drive it like a user with the same targets, or
    through ``turn_panel.roll_button.click()`` and friends (:class:`PanelButton`).

    >>> from conquest_widget.games.japan_conquest import GameSetup, ScriptedDice
    >>> from conquest_widget.games.japan_conquest.match import JapanMatch
    >>> from conquest_widget.games.japan_conquest.widget.controller import SeatController
    >>> from conquest_widget.ui.controller import MatchController
    >>> match = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([3]))
    >>> c = SeatController(MatchController(match, humans={0, 1}))
    >>> p = JapanPanels(c); p.clickable(), p.label("dice-2")
    (['dice-1', 'dice-2', 'dice-3', 'roll'], 'Double Dice (1 left)')
    >>> p.click("roll"), p.text("faces"), p.shown(), p.clickable()
    (True, '⚂ = 3', ['undo', 'confirm'], [])
    >>> p.turn_panel.undo_button.disabled, p.text("route")
    (True, 'Movement 3 · 3 left\\nClick a highlighted prefecture on the map to step there')
    """

    _esm = SceneWidget.page_module(_HERE / "panels.js")
    _css = page_file(_HERE / "panels.css")

    PARTS = ("turn", "battle", "score", "info")
    #: the controller's traits the panels are drawn from (a change redraws; nothing is sent
    #: when the scene is the same)
    OBSERVED = ("version", "lang", "message", "dice_option", "battle_report", "selected_prefecture")

    def __init__(self, c: BoardModel, parts: tuple[str, ...] = PARTS, **kwargs: Any) -> None:
        self.c = c
        self.parts = tuple(parts)
        kwargs.setdefault("layout", shared_layout())
        super().__init__(**kwargs)
        self.add_class("cw-japan-panels")
        self.turn_panel = TurnPanel(self)
        self.battle_panel = BattlePanel(self)
        self.scoreboard = PanelText(self, "score")
        self.info_panel = PanelText(self, "info")
        c.observe(self._changed, names=list(self.OBSERVED))

    def _changed(self, _change: Any = None) -> None:
        if self.comm is None:  # closed (close_tree closes it without close()): stop drawing
            self.c.unobserve(self._changed, names=list(self.OBSERVED))
            return
        self.redraw()

    # ------------------------------------------------------------ the scene
    def draw_scene(self) -> dict[str, Any]:
        c = self.c
        v, lang = c.view, c.lang
        scene: dict[str, Any] = {"P": list(self.parts)}
        if not v:
            return scene
        if "turn" in self.parts or "battle" in self.parts:
            scene["L"] = {k: STRINGS[k][lang == "ja"] for k in LABELS}
        if "turn" in self.parts:
            scene.update(self._turn(v, lang))
        if "battle" in self.parts:
            scene["bt"] = self._battle(v, lang)
        if "score" in self.parts:
            scene.update(self._score(v, lang))
        if "info" in self.parts:
            scene["in"] = self._info(v, lang)
        return scene

    def _turn(self, v: dict[str, Any], lang: str) -> dict[str, Any]:
        c = self.c
        names = c.names
        me = v["current_player"]
        over = v["outcome"] is not None
        human = c.human_to_act
        out: dict[str, Any] = {
            "ti": t("turn_panel_over", lang) if over else t("turn_of", lang, name=names[me], turn=v["turn"]),
        }
        rolling = v["phase"] == "roll" and human
        out["hi"] = names[me] if rolling else ""  # the name in L's hint_roll
        if rolling:
            items = v["players"][me]["items"]
            opts = [[1, 0]]  # [dice, how many are left]: L's one_die, double_dice, triple_dice
            if items["double"]:
                opts.append([2, items["double"]])
            if items["triple"]:
                opts.append([3, items["triple"]])
            out["dc"] = opts
            out["ds"] = c.dice_option if c.dice_option in [o[0] for o in opts] else 1
        else:
            out["dc"] = out["ds"] = 0
        routing = v["phase"] == "route"
        out["fa"] = list(c.last_roll) if routing else 0
        out["mv"] = [c.allowance, c.remaining] if routing else 0
        if routing:
            for i, step in enumerate(v["route_details"], 1):
                extra = f", toll {step['toll']}" if step["toll"] and lang == "en" else f"、通行料{step['toll']}" if step["toll"] else ""
                out[f"r{i}"] = f"{i}. {pref_name(step['pref'], lang)} (−{step['cost']}{extra})"
        out["rh"] = ("can_confirm" if c.can_confirm else "choose_next") if routing and human else ""
        out["ac"] = [bool(c.route), bool(c.can_confirm)] if routing and human else 0
        if not human and not over:
            # at a table, another human's turn: this page waits for their screen
            key = "cpu_thinking" if v["players"][c.actor].get("cpu", True) else "waiting_for"
            out["ms"] = ["w", t(key, lang, name=names[c.actor])]
        else:
            out["ms"] = ["e", c.message]
        return out

    def _battle(self, v: dict[str, Any], lang: str) -> Any:
        c = self.c
        names = c.names
        r = c.battle_report
        if r:
            pref = pref_name(r["pref"], lang)
            key = "battle_won" if r["attacker_won"] else "battle_held"
            if r.get("points") is None:  # the Final Showdown: no point figures
                key += "_hidden"
            return {
                "h": t("battle_title", lang, pref=pref),
                "r": [
                    _marked("battle_attack_line", lang, who=names[r["attacker"]], dice=("d", _faces(r["attack_faces"])),
                            total=("b", r["attack"])),
                    _marked("battle_defence_line", lang, who=names[r["defender"]], dice=("d", _faces(r["defence_faces"])),
                            bonus=r["bonus"], total=("b", r["defence"])),
                ],
                "w": r["winner"],
                "x": t(key, lang, who=names[r["attacker"]], defender=names[r["defender"]], pref=pref, points=r.get("points")),
                "ok": 1 if r.get("human") else 0,
            }
        b = v.get("battle")
        if v["phase"] not in ("battle_attack", "battle_defend") or not b:
            return 0
        out: dict[str, Any] = {"h": t("battle_title", lang, pref=pref_name(b["pref"], lang))}
        if v["phase"] == "battle_attack":
            out["x"] = t("attacker_choose", lang, name=names[b["attacker"]])
        else:
            out["fa"] = list(b["attack_roll"])
            out["x"] = t("defender_choose", lang, name=names[b["defender"]], attack=sum(b["attack_roll"]), bonus=b["bonus"])
        items = v["players"][c.actor]["items"]
        labels = [t("one_die", lang), t("double_dice", lang, n=items["double"]), t("triple_dice", lang, n=items["triple"])]
        out["c"] = [[d, label] for d, label in enumerate(labels, 1)
                    if c.human_to_act and (d == 1 or items["double" if d == 2 else "triple"] > 0)]
        return out

    def _score(self, v: dict[str, Any], lang: str) -> dict[str, Any]:
        hidden = v["totals_hidden"]
        status = v["regions"]
        over = v["outcome"] is not None
        out: dict[str, Any] = {
            "sh": [t("final_showdown", lang) if hidden else "",
                   [t("players", lang), t("score", lang), t("items", lang), t("regions", lang)]],
            "so": list(v["order"]),
            "cur": -1 if over else v["current_player"],
        }
        for seat in v["order"]:
            p = v["players"][seat]
            items = p["items"]
            regions = ", ".join(region_name(r, lang) + ("★" if s["full"] else "")
                                for r, s in status.items() if s["controller"] == seat)
            # who (set once a game), then what a move changes
            out[f"p{seat}"] = [p["name"] + (t("cpu_mark", lang) if p["cpu"] else ""), css_colour(p["colour"])]
            out[f"s{seat}"] = [t("hidden", lang) if hidden else str(p["score"]["total"]),
                               f"⚁{items['double']} ⚂{items['triple']}", regions]
        return out

    def _info(self, v: dict[str, Any], lang: str) -> Any:
        code = self.c.selected_prefecture
        if not code or str(code) not in v["prefectures"]:
            return 0
        info = v["prefectures"][str(code)]
        base_value = japan().prefectures[code - 1].base_value
        owner = v["players"][info["owner"]]["name"] if info["owner"] is not None else t("nobody", lang)
        lines = [f"{t('owner', lang)}: {owner}", f"{t('level', lang)}: {level_name(info['level'], lang)}"]
        if "points" not in info:  # the Final Showdown: no points
            lines.append(f"{t('base_value', lang)}: {base_value}")
        else:
            lines += [f"{t('points', lang)}: {info['points']} · {t('base_value', lang)}: {base_value}",
                      f"{t('stored', lang)}: {info['stored']}"]
        return [code, pref_name(code, lang), lines]

    # ------------------------------------------------------------ what the page shows
    def shown(self) -> list[str]:
        """The targets of the buttons shown now, in page order (enabled or not)."""
        s = self.scene
        out = [f"dice-{d}" for d, _label in s.get("dc") or ()]
        out += ["roll"] * bool(s.get("dc"))
        out += ["undo", "confirm"] * bool(s.get("ac"))
        bt = s.get("bt") or {}
        out += [f"battle-{d}" for d, _label in bt.get("c", ())]
        out += ["ok"] * bool(bt.get("ok"))
        return out

    def clickable(self) -> list[str]:
        """The targets a click does something on now (shown and enabled), in page order."""
        s = self.scene
        undo, confirm = s.get("ac") or (True, True)
        off = {"undo"} if not undo else set()
        if not confirm:
            off.add("confirm")
        return [x for x in self.shown() if x not in off]

    def label(self, target: str) -> str:
        """The text of the button ``target`` as the page shows it ("" when not shown)."""
        s = self.scene
        labels = s.get("L") or {}
        if target.startswith("dice-"):
            return next((labels[DICE_LABELS[d]].format(n=n) for d, n in s.get("dc") or () if f"dice-{d}" == target), "")
        if target.startswith("battle-"):
            choices = (s.get("bt") or {}).get("c", ())
            return next((f"{labels['battle_roll']}: {lab}" for d, lab in choices if f"battle-{d}" == target), "")
        key = {"roll": "roll", "undo": "undo", "confirm": "confirm", "ok": "battle_ok"}.get(target)
        return labels.get(key, "") if key and target in self.shown() else ""

    def text(self, part: str) -> str:
        """What the page shows of ``part`` (lines joined with newlines): ``title``, ``hint``,
        ``faces``, ``route``, ``message``, ``battle``, ``score``, ``info``."""
        s = self.scene
        if part == "title":
            return str(s.get("ti", ""))
        if part == "hint":
            return s["L"]["hint_roll"].format(name=s["hi"]) if s.get("hi") else ""
        if part == "faces":
            fa = s.get("fa")
            return f"{_faces(fa)} = {sum(fa)}" if fa else ""
        if part == "route":
            if not s.get("mv"):
                return ""
            steps = [s[f"r{i}"] for i in range(1, 100) if f"r{i}" in s]
            labels = s["L"]
            head = f"{labels['allowance'].format(n=s['mv'][0])} · {labels['remaining'].format(n=s['mv'][1])}"
            return "\n".join([head, *steps, *([labels[s["rh"]]] if s.get("rh") else [])])
        if part == "message":
            return str((s.get("ms") or ["", ""])[1])
        if part == "battle":
            bt = s.get("bt")
            if not bt:
                return ""
            lines = [f"⚔ {bt['h']}"]
            if "r" in bt:
                lines += [_parts_text(line) for line in bt["r"]] + [bt["x"]]
            else:
                lines += ([f"{_faces(bt['fa'])} = {sum(bt['fa'])}"] if bt.get("fa") else []) + [bt["x"]]
            return "\n".join(lines)
        if part == "score":
            if "sh" not in s:
                return ""
            banner, head = s["sh"]
            rows = ["\t".join(head)] + ["\t".join([s[f"p{x}"][0], *s[f"s{x}"]]) for x in s["so"]]
            return "\n".join(([banner] if banner else []) + rows)
        if part == "info":
            info = s.get("in")
            return "\n".join([info[1], *info[2]]) if info else ""
        raise ValueError(f"no part {part!r}")

    def score_rows(self) -> list[dict[str, Any]]:
        """The scoreboard's rows in the page's order: seat, name, colour, score, items,
        regions, current."""
        s = self.scene
        return [dict(zip(("name", "colour", "score", "items", "regions"), s[f"p{seat}"] + s[f"s{seat}"], strict=True))
                | {"seat": seat, "current": seat == s["cur"]} for seat in s.get("so", ())]

    # ------------------------------------------------------------ clicks
    def click(self, target: str) -> bool:
        """A click in the page on ``target`` (ignored unless the scene offers it now)."""
        if target not in self.clickable():
            return False
        c = self.c
        if target == "roll":
            c.roll()
        elif target == "undo":
            c.undo_step()
        elif target == "confirm":
            c.confirm_route()
        elif target == "ok":
            c.dismiss_battle()
        elif target.startswith("dice-"):
            c.choose_dice(int(target[5:]))
        else:
            c.battle_roll(int(target[7:]))
        return True


class PanelButton:
    """A button of the panels as a test presses it: ``click()``, ``description``,
    ``disabled``, ``shown``, all read from the scene (what the page draws)."""

    def __init__(self, panels: JapanPanels, target: str) -> None:
        self.panels, self.target = panels, target

    def click(self) -> None:
        self.panels.click(self.target)

    @property
    def description(self) -> str:
        return self.panels.label(self.target)

    @property
    def shown(self) -> bool:
        return self.target in self.panels.shown()

    @property
    def disabled(self) -> bool:
        return self.target not in self.panels.clickable()

    def __repr__(self) -> str:
        return f"<PanelButton {self.target} {'shown' if self.shown else 'hidden'}>"


class PanelText:
    """A text of the panels as the page shows it: ``value`` (plain text, lines joined)."""

    def __init__(self, panels: JapanPanels, part: str) -> None:
        self.panels, self.part = panels, part

    @property
    def value(self) -> str:
        return self.panels.text(self.part)

    @property
    def shown(self) -> bool:
        return bool(self.value)

    def rows(self) -> list[dict[str, Any]]:
        return self.panels.score_rows()


class TurnPanel:
    """The turn panel's parts of :class:`JapanPanels` (buttons and texts, read from the scene)."""

    def __init__(self, panels: JapanPanels) -> None:
        self.roll_button = PanelButton(panels, "roll")
        self.undo_button = PanelButton(panels, "undo")
        self.confirm_button = PanelButton(panels, "confirm")
        self.dice_buttons = [PanelButton(panels, f"dice-{d}") for d in (1, 2, 3)]
        self.title = PanelText(panels, "title")
        self.hint = PanelText(panels, "hint")
        self.faces = PanelText(panels, "faces")
        self.route_info = PanelText(panels, "route")
        self.msg = PanelText(panels, "message")


class BattlePanel:
    """The battle panel's parts of :class:`JapanPanels` (read from the scene)."""

    def __init__(self, panels: JapanPanels) -> None:
        self.panels = panels
        self.buttons = [PanelButton(panels, f"battle-{d}") for d in (1, 2, 3)]
        self.ok_button = PanelButton(panels, "ok")
        self.text = PanelText(panels, "battle")

    @property
    def shown(self) -> bool:
        return bool(self.panels.scene.get("bt"))


class LogView(W.VBox):
    """Every event as a readable line, newest first, one HTML block per turn for the last
    ``RING`` turns.  The blocks are created once and reused in a ring: a new turn takes the
    oldest block, sets its lines and moves it to the top with its layout's CSS ``order``, so
    a move sends its new lines and one small layout update, and never opens a widget
    (issue 18: the log used to open three new widgets every turn).

    >>> from conquest_widget.games.japan_conquest import GameSetup, ScriptedDice
    >>> from conquest_widget.games.japan_conquest.match import JapanMatch
    >>> from conquest_widget.games.japan_conquest.widget.controller import SeatController
    >>> from conquest_widget.ui.controller import MatchController
    >>> c = SeatController(None); log = LogView(c)
    >>> c.bind(MatchController(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([1])), humans={0, 1}))
    >>> n = len(log.blocks.children); c.roll(); c.click_prefecture(11); c.confirm_route()
    >>> len(log.blocks.children) == n == LogView.RING, log.lines()[0]
    (True, "— Player 2's turn 1 —")
    """

    RING = 6
    MAX_BLOCKS = RING  # kept for subclasses

    def __init__(self, c: BoardModel) -> None:
        self.c = c
        self.header = plain(W.HTML)
        # a flex column, so that each block's layout.order places it (newest first)
        self.blocks = W.VBox(layout=Layout(max_height="260px", overflow="auto", display="flex", flex_flow="column"))
        self.blocks.add_class("cw-log")
        self._game = None
        self._lang = c.lang
        self._rendered = 0  # events rendered so far
        self._turn = -1  # blocks started so far - 1 (the current block is _ring[_turn % RING])
        self._ring: list[W.HTML] = [self._new_block() for _ in range(self.RING)] if self.RING and self._uses_ring else []
        if self._ring:
            self.blocks.children = tuple(self._ring)
        super().__init__([self.header, self.blocks], layout=shared_layout())
        c.observe(self.refresh, names=["version", "lang"])
        self.refresh()

    #: False in subclasses that arrange their own blocks (the replay's log)
    _uses_ring = True

    @staticmethod
    def _new_block() -> W.HTML:
        block = W.HTML(layout=Layout(display="none", order="0"), style=shared_style(W.HTML))
        block._lines = []  # type: ignore[attr-defined]
        block._order = 0  # type: ignore[attr-defined]
        return block

    def _line(self, ev: dict) -> str | None:
        line = describe_event(ev, self.c.lang, _names(self.c))
        return None if line is None else f"<div>{html.escape(line)}</div>"

    def _show_header(self) -> bool:
        """Write the title in the current language; False while there is no game to log."""
        header = f"<b>{t('log', self.c.lang)}</b>"
        if self.header.value != header:
            self.header.value = header
        return bool(self.c.view)

    def refresh(self, _: Any = None) -> None:
        c = self.c
        if not self._show_header():
            return
        events = c.events
        # another game (or viewer: events as another seat sees them), its end (every event
        # in full, the Final Showdown's points too) or language: start over
        key = (c.game_key, c.viewer, c.is_over)
        if key != self._game or c.lang != self._lang or self._rendered > len(events):
            self._game, self._lang, self._rendered, self._turn = key, c.lang, 0, -1
            for b in self._ring:
                b._lines = []  # type: ignore[attr-defined]
        if self._rendered >= len(events) and self._turn >= 0:
            return
        ring = self._ring
        for ev in events[self._rendered:]:
            if ev["type"] == "turn_start" or self._turn < 0:
                self._turn += 1
                block = ring[self._turn % len(ring)]
                block._lines = []  # type: ignore[attr-defined]
                block._order = -self._turn  # type: ignore[attr-defined]
            line = self._line(ev)
            if line:
                ring[self._turn % len(ring)]._lines.insert(0, line)  # type: ignore[attr-defined]
        self._rendered = len(events)
        for b in ring:
            text = "".join(b._lines)  # type: ignore[attr-defined]
            if b.value != text:
                b.value = text
            order, display = str(b._order), "" if text else "none"  # type: ignore[attr-defined]
            if (b.layout.order, b.layout.display) != (order, display):
                with b.layout.hold_sync():
                    b.layout.order, b.layout.display = order, display

    def _shown_blocks(self) -> list[W.HTML]:
        if self._ring:
            return sorted((b for b in self._ring if b._lines), key=lambda b: b._order)  # type: ignore[attr-defined]
        return list(self.blocks.children)

    def lines(self) -> list[str]:
        """The rendered lines, newest first (plain text)."""
        import re

        return [html.unescape(re.sub("<[^>]+>", "", x)) for b in self._shown_blocks() for x in b._lines]  # type: ignore[attr-defined]
