"""Side panels of the game screen: turn controls, battle, scoreboard, info, log."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import css_colour
from conquest_widget.games.japan_conquest.text import (
    describe_event,
    level_name,
    pref_name,
    region_name,
    t,
)
from conquest_widget.games.japan_conquest.widget.controller import GameController
from conquest_widget.games.japan_conquest.widget.style import (
    DIE_FACES,
    button_layout,
    dice_html,
    name_html,
)
from conquest_widget.lean import Layout, plain, shared_layout, shared_style
from conquest_widget.maps.japan.board import japan


def _names(c: GameController) -> list[str]:
    return c.names


class TurnPanel(W.VBox):
    """Dice choice, Roll, planned route with costs, Undo Step, Confirm Route."""

    def __init__(self, c: GameController) -> None:
        self.c = c
        self.title = plain(W.HTML)
        self.dice = W.ToggleButtons(options=[("1", 1)], value=1, layout=Layout(width="auto"), style={"button_width": "auto"})
        self.roll_button = W.Button(layout=button_layout(own=True), button_style="primary", style=shared_style(W.Button))
        self.faces = plain(W.HTML)
        #: what to do first on a turn ("press Roll"); the route's own hint follows its steps
        self.hint = W.HTML()
        self.hint.add_class("cw-turn-hint")
        self.route_info = plain(W.HTML)
        self.undo_button = W.Button(layout=button_layout(own=True), style=shared_style(W.Button))
        self.confirm_button = W.Button(layout=button_layout(own=True), button_style="success", style=shared_style(W.Button))
        self.msg = plain(W.HTML)
        self.roll_button.on_click(lambda _: c.roll())
        self.undo_button.on_click(lambda _: c.undo_step())
        self.confirm_button.on_click(lambda _: c.confirm_route())
        self.dice.observe(self._dice_changed, names="value")
        super().__init__([
            self.title, self.hint, self.dice, self.roll_button, self.faces, self.route_info,
            plain(W.HBox, children=[self.undo_button, self.confirm_button]), self.msg,
        ], layout=shared_layout())
        c.observe(self.refresh, names=["version", "lang", "message", "dice_option", "cpu_busy"])
        self.refresh()

    def _dice_changed(self, change: dict) -> None:
        if change["new"] is not None:
            self.c.choose_dice(change["new"])

    def refresh(self, _: Any = None) -> None:
        c, v, lang = self.c, self.c.view, self.c.lang
        if not v:
            return
        names = _names(c)
        me = v["current_player"]
        over = v["outcome"] is not None
        title = t("turn_panel_over", lang) if over else t("turn_of", lang, name=names[me], turn=v["turn"])
        self.title.value = f"<h3>{html.escape(title)}</h3>"
        items = v["players"][me]["items"]
        opts = [(t("one_die", lang), 1)]
        if items["double"]:
            opts.append((t("double_dice", lang, n=items["double"]), 2))
        if items["triple"]:
            opts.append((t("triple_dice", lang, n=items["triple"]), 3))
        human = c.human_to_act
        rolling = v["phase"] == "roll" and human
        if list(self.dice.options) != opts:
            self.dice.options = opts
        if self.dice.value != c.dice_option and c.dice_option in [v for _, v in opts]:
            self.dice.value = c.dice_option
        self.dice.layout.display = "" if rolling else "none"
        self.roll_button.description = t("roll", lang)
        self.roll_button.layout.display = "" if rolling else "none"
        hint = f"<i>{html.escape(t('hint_roll', lang, name=names[me]))}</i>" if rolling else ""
        if self.hint.value != hint:
            self.hint.value = hint
        routing = v["phase"] == "route"
        # the buttons change before the route text does: once the text shows a route, its
        # Undo / Confirm state has already arrived (the front end applies messages in order)
        self.undo_button.description = t("undo", lang)
        self.confirm_button.description = t("confirm", lang)
        self.undo_button.layout.display = self.confirm_button.layout.display = "" if routing and human else "none"
        self.undo_button.disabled = not c.route
        self.confirm_button.disabled = not c.can_confirm
        self.faces.value = dice_html(list(c.last_roll)) if routing else ""
        if routing:
            rows = [f"<b>{t('allowance', lang, n=c.allowance)}</b> · {t('remaining', lang, n=c.remaining)}"]
            for i, step in enumerate(v["route_details"], 1):
                extra = f", toll {step['toll']}" if step["toll"] and lang == "en" else f"、通行料{step['toll']}" if step["toll"] else ""
                rows.append(f"{i}. {html.escape(pref_name(step['pref'], lang))} (−{step['cost']}{extra})")
            hint = t("can_confirm", lang) if c.can_confirm else t("choose_next", lang)
            self.route_info.value = "<br>".join(rows) + (f"<br><i>{hint}</i>" if human else "")
        else:
            self.route_info.value = ""
        if not human and not over:
            # at a table, another human's turn: this page waits for their screen
            key = "cpu_thinking" if v["players"][c.actor].get("cpu", True) else "waiting_for"
            self.msg.value = f"<i>{html.escape(t(key, lang, name=names[c.actor]))}</i>"
        else:
            self.msg.value = f'<div class="cw-msg">{html.escape(c.message)}</div>'


class BattlePanel(W.VBox):
    """Attacker, then defender (hot-seat), choose dice and roll; then the result gets its
    own moment: both rolls, the defence bonus, who won and the points, until the player
    presses Continue (a battle between two CPUs is shown for a pause at the CPU speed)."""

    def __init__(self, c: GameController) -> None:
        self.c = c
        self.text = plain(W.HTML)
        self.buttons = [W.Button(layout=button_layout(own=True), button_style="danger", style=shared_style(W.Button)) for _ in range(3)]
        for d, b in enumerate(self.buttons, 1):
            b.on_click(lambda _, d=d: c.battle_roll(d))
        self.ok_button = W.Button(layout=button_layout(own=True), button_style="primary", style=shared_style(W.Button))
        self.ok_button.add_class("cw-battle-ok")
        self.ok_button.on_click(lambda _: c.dismiss_battle())
        super().__init__([self.text, plain(W.HBox, children=self.buttons), self.ok_button])
        self.add_class("cw-battle")
        c.observe(self.refresh, names=["version", "lang", "battle_report"])
        self.refresh()

    def _result_html(self, r: dict) -> str:
        c, lang = self.c, self.c.lang
        names = _names(c)
        pref = pref_name(r["pref"], lang)
        head = f"<h3>⚔ {html.escape(t('battle_title', lang, pref=pref))}</h3>"
        esc = html.escape
        dice = {side: "".join(DIE_FACES[f - 1] for f in r[f"{side}_faces"]) for side in ("attack", "defence")}
        attack = t("battle_attack_line", lang, who=esc(names[r["attacker"]]), dice=f'<span class="cw-dice">{dice["attack"]}</span>',
                   total=f"<b>{r['attack']}</b>")
        defence = t("battle_defence_line", lang, who=esc(names[r["defender"]]), dice=f'<span class="cw-dice">{dice["defence"]}</span>',
                    bonus=r["bonus"], total=f"<b>{r['defence']}</b>")
        key = "battle_won" if r["attacker_won"] else "battle_held"
        if r.get("points") is None:  # the Final Showdown: no point figures
            key += "_hidden"
        won = t(key, lang, who=names[r["attacker"]], defender=names[r["defender"]], pref=pref, points=r.get("points"))
        return (
            f'{head}<div class="cw-battle-result" data-winner="{r["winner"]}">'
            f"<div>{attack}</div><div>{defence}</div>"
            f'<div class="cw-battle-winner">{esc(won)}</div></div>'
        )

    def refresh(self, _: Any = None) -> None:
        c, v, lang = self.c, self.c.view, self.c.lang
        report = c.battle_report
        if v and report:
            self.layout.display = ""
            self.text.value = self._result_html(report)
            for btn in self.buttons:
                btn.layout.display = "none"
            self.ok_button.description = t("battle_ok", lang)
            self.ok_button.layout.display = "" if report.get("human") else "none"
            return
        self.ok_button.layout.display = "none"
        if not v or v["phase"] not in ("battle_attack", "battle_defend") or not v["battle"]:
            self.layout.display = "none"
            return
        self.layout.display = ""
        b = v["battle"]
        names = _names(c)
        head = f"<h3>⚔ {html.escape(t('battle_title', lang, pref=pref_name(b['pref'], lang)))}</h3>"
        if v["phase"] == "battle_attack":
            body = t("attacker_choose", lang, name=names[b["attacker"]])
        else:
            attack = sum(b["attack_roll"])
            body = dice_html(list(b["attack_roll"])) + "<br>" + t("defender_choose", lang, name=names[b["defender"]],
                                                                  attack=attack, bonus=b["bonus"])
        self.text.value = head + body
        items = v["players"][c.actor]["items"]
        labels = [t("one_die", lang), t("double_dice", lang, n=items["double"]), t("triple_dice", lang, n=items["triple"])]
        human = c.human_to_act
        for d, (btn, label) in enumerate(zip(self.buttons, labels, strict=True), 1):
            btn.description = f"{t('battle_roll', lang)}: {label}"
            have = d == 1 or items["double" if d == 2 else "triple"] > 0
            btn.layout.display = "" if human and have else "none"


class Scoreboard(W.HTML):
    """Fixed turn order, current player highlighted, score (hidden in the Final Showdown), items, regions."""

    def __init__(self, c: GameController) -> None:
        super().__init__(layout=shared_layout(), style=shared_style(W.HTML))
        self.c = c
        self.add_class("cw-score")
        c.observe(self.refresh, names=["version", "lang"])
        self.refresh()

    def refresh(self, _: Any = None) -> None:
        v, lang = self.c.view, self.c.lang
        if not v:
            self.value = ""
            return
        hidden = v["totals_hidden"]
        status = v["regions"]
        over = v["outcome"] is not None
        rows = []
        for seat in v["order"]:
            p = v["players"][seat]
            items = p["items"]
            score = t("hidden", lang) if hidden else str(p["score"]["total"])
            regions = ", ".join(region_name(r, lang) + ("★" if s["full"] else "") for r, s in status.items() if s["controller"] == seat)
            cls = ' class="cw-current"' if seat == v["current_player"] and not over else ""
            who = name_html(p["name"]) + (t("cpu_mark", lang) if p["cpu"] else "")
            rows.append(
                f'<tr{cls} data-seat="{seat}"><td><span class="cw-swatch" style="background:{css_colour(p["colour"])}"></span>{who}</td>'
                f'<td class="cw-total">{score}</td><td>⚁{items["double"]} ⚂{items["triple"]}</td><td>{html.escape(regions)}</td></tr>'
            )
        head = f"<tr><th>{t('players', lang)}</th><th>{t('score', lang)}</th><th>{t('items', lang)}</th><th>{t('regions', lang)}</th></tr>"
        banner = f"<div><b>{t('final_showdown', lang)}</b></div>" if hidden else ""
        self.value = f"{banner}<table>{head}{''.join(rows)}</table>"


class InfoPanel(W.HTML):
    """Owner, level, current points and stored prosperity of the selected prefecture."""

    def __init__(self, c: GameController) -> None:
        super().__init__(layout=shared_layout(), style=shared_style(W.HTML))
        self.c = c
        c.observe(self.refresh, names=["version", "lang", "selected_prefecture"])
        self.refresh()

    def refresh(self, _: Any = None) -> None:
        c, v, lang = self.c, self.c.view, self.c.lang
        code = c.selected_prefecture
        if not v or not code or str(code) not in v["prefectures"]:
            self.value = ""
            return
        info = v["prefectures"][str(code)]
        base_value = japan().prefectures[code - 1].base_value
        owner = v["players"][info["owner"]]["name"] if info["owner"] is not None else t("nobody", lang)
        self.value = (
            f'<div class="cw-info" data-code="{code}"><b>{html.escape(pref_name(code, lang))}</b><br>'
            f"{t('owner', lang)}: {html.escape(owner)}<br>{t('level', lang)}: {level_name(info['level'], lang)}<br>"
            + (f"{t('base_value', lang)}: {base_value}</div>" if "points" not in info else  # Final Showdown: no points
               f"{t('points', lang)}: {info['points']} · {t('base_value', lang)}: {base_value}<br>"
               f"{t('stored', lang)}: {info['stored']}</div>")
        )


class LogView(W.VBox):
    """Every event as a readable line, newest first, one HTML block per turn for the last
    ``RING`` turns.  The blocks are created once and reused in a ring: a new turn takes the
    oldest block, sets its lines and moves it to the top with its layout's CSS ``order``, so
    a move sends its new lines and one small layout update, and never opens a widget
    (issue 18: the log used to open three new widgets every turn).

    >>> from conquest_widget.games.japan_conquest.widget.controller import GameController
    >>> from conquest_widget.games.japan_conquest import GameSetup, ScriptedDice
    >>> c = GameController(); log = LogView(c)
    >>> c.new_game(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([1]))
    >>> n = len(log.blocks.children); c.roll(); c.click_prefecture(11); c.confirm_route()
    >>> len(log.blocks.children) == n == LogView.RING, log.lines()[0]
    (True, "— Player 2's turn 1 —")
    """

    RING = 6
    MAX_BLOCKS = RING  # kept for subclasses

    def __init__(self, c: GameController) -> None:
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
