"""The scene of the Japanese Risk board's side panels (drawn in the page by
:class:`~.panels.RiskPanels`): written from scratch at each render from the controller's
published traits (the viewer's ``view``, ``legal``, ``events``) and the board's choices on
the screen (the selection, the planned income, the gathered attack, the fields), never
from the match.

The keys (every text is put in with ``textContent``; texts of the game's table are sent as
their key and fields, the templates once):

* ``n``: the redraw's number (every scene widget's), sent at every render even when nothing
  else changed: the page puts the class ``cw-v-<n>`` on the board last (browser tests wait
  for a newer one);
* ``st``: the status lines ``[text, css class, colour]`` (a colour: a seat's ■ before it);
* ``msg``: the board's message (a refused move), or "";
* ``g``: the guide ``[head, line, ...]`` (head: the gathered attack, bold, or ""), absent
  when not shown;
* ``a``: the action panel's items, in order: ``["t", css class, text, bold]`` a prompt,
  ``["n", name, label, value, low, high]`` a number field, ``["c", name, label, ticked]``
  a box, ``["b", [[target, label, enabled], ...]]`` a row of buttons;
* ``i``: the selected territory ``[name, line, ...]``; ``o``: the odds ``[title, line,
  ...]``; absent when empty;
* ``b``: the battle ``[title, [sea, attack, defence dice labels], row, ...]``, a row
  ``["s", dice, hits]`` (the sea dice), ``["r", title, attack dice, hits, defence dice,
  hits, after]`` (a round) or ``["e", text]`` (an event);
* ``st``, ``g``, ``a``, ``i``, ``o``, ``b`` are sent a key per line (:data:`SPLIT`): the key is the
  list's length, ``st0``, ``st1``... its lines (a move sends the lines that changed); and
  in ``a`` a row of buttons is sent as ``["b", [target, ...]]``, each button under its own
  key ``B<target>``: ``[label, enabled]`` (a target is on the panel once), so that a
  button whose label or state changes is sent alone, not its row (:func:`listed` and the
  page put the rows together again);
* ``k``: the knowledge panel ``[title, neutral, unknown, [seat, ...]]``, per other seat
  ``k<seat>``: ``[colour, line, [code, ...]]`` (the territories known to be theirs) and per
  such territory ``r<code>``: its row;
* ``T``: the templates of the texts in the board's language, a list in the order of
  :data:`TEXTS`, ``N`` the nouns counted in them; a text is a string, ``[key, {field:
  value}]``, ``[key, [value, ...]]`` (the values of the template's fields in the order they
  first appear in it: the shorter form, used when every field is given), ``["+", text,
  ...]`` or an odds line ``["%", kind, n, castle, win, ea, ed]`` (see :func:`fmt`), ``key``
  the template's place in ``T``; ``Q`` the places of the odds lines' templates (:data:`ODDS`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..engine import CASTLE_COST, NINJA_COST
from ..odds import MAX_ARMIES, battle_odds_float
from ..text import NOUNS, STRINGS, t

#: seat colours (5 players at most): no seat is red, green or yellow, the colours of the
#: attack, move and "click here" outlines (a territory's fill is never mistaken for them)
COLOURS = ("#1f77b4", "#ff7f0e", "#9467bd", "#17becf", "#e377c2")
#: events that tell a seat who owns a territory (the knowledge panel's "how")
KNOWING = ("revealed", "castle_built", "deployed", "moved", "captured", "committed", "handed_over", "undefended")


def pref_name(code: int, lang: str) -> str:
    """The prefecture's name in ``lang``.

    >>> pref_name(13, "ja")
    '東京都'
    """
    from conquest_widget.maps.japan.board import japan

    return japan().prefecture(code).name(lang)


#: the texts of the game's table (:mod:`..text`) the scene names: their templates in the
#: board's language are in the scene once (``T``), a text is ``[key, {field: value}]``
TEXTS = (
    "castle", "guide_deploy", "guide_end", "guide_gather_more", "guide_gathered", "guide_gathered_old",
    "guide_handed_over", "guide_income", "guide_income_done", "guide_more_deploy", "guide_nothing",
    "guide_pick_deploy", "guide_pick_src", "guide_stuck", "guide_targets_attack", "guide_targets_both",
    "guide_targets_move", "ui_all_here", "ui_buy_ninja", "ui_cancel_attack", "ui_castle", "ui_clear",
    "ui_commit", "ui_commit_all", "ui_commit_card", "ui_commit_ninjas", "ui_commit_none",
    "ui_commit_only_ninjas", "ui_commit_plus_ninjas", "ui_commit_title", "ui_count", "ui_deploy",
    "ui_end_turn", "ui_fresh_first", "ui_hold", "ui_income_left", "ui_k_known", "ui_k_neutral", "ui_k_player",
    "ui_k_unknown", "ui_knowledge", "ui_launch", "ui_moves_left", "ui_my_ninjas_here", "ui_ninjas_here",
    "ui_odds_castle", "ui_odds_hidden", "ui_odds_neutral", "ui_odds_vs", "ui_of_limit", "ui_on_board",
    "ui_on_card", "ui_owner", "ui_pending", "ui_pending_ninjas", "ui_pending_sea", "ui_phase_income",
    "ui_phase_over", "ui_phase_turns", "ui_place_confirm", "ui_place_reset", "ui_reserve", "ui_round",
    "ui_strike", "ui_strike_pick", "ui_to_place", "ui_trigger_battle", "ui_use_ninjas", "ui_waiting",
    "ui_window_title", "ui_wounded", "ui_you",
)
assert set(TEXTS) <= set(STRINGS)
#: the templates of an odds line (``["%", ...]``, see :func:`fmt`): the line, the castle's
#: words, the neutral and the hidden owner's prefix; their places in ``T`` are ``Q``
ODDS = ("ui_odds_vs", "ui_odds_castle", "ui_odds_neutral", "ui_odds_hidden")
_FIELD = re.compile(r"\{(\w+)(?:\|([\w ]+))?\}")


#: the lists of the scene sent a key per line: ``name`` is their length, ``name<i>`` line i
SPLIT = ("st", "g", "a", "i", "o", "b")


def listed(scene: dict[str, Any], name: str) -> list[Any] | None:
    """A list of the scene sent a key per line (:data:`SPLIT`), or None when absent; the
    action panel's rows of buttons with their buttons (``[target, label, enabled]``)."""
    if name not in scene:
        return None
    lines = [scene[f"{name}{i}"] for i in range(int(scene[name]))]
    if name == "a":
        lines = [["b", [[t, *scene[f"B{t}"]] for t in x[1]]] if x[0] == "b" else x for x in lines]
    return lines


def split_lists(scene: dict[str, Any]) -> None:
    """Write the lists of :data:`SPLIT` in ``scene`` a key per line, the action panel's
    buttons a key each (see the module docstring; :func:`listed` reads them back)."""
    for name in SPLIT:
        if name not in scene:
            continue
        lines = scene.pop(name)
        if name == "a":
            rows = []
            for x in lines:
                if x[0] == "b":
                    for target, label, enabled in x[1]:
                        assert f"B{target}" not in scene, f"button {target} twice on the panel"
                        scene[f"B{target}"] = [label, enabled]
                    x = ["b", [b[0] for b in x[1]]]
                rows.append(x)
            lines = rows
        scene[name] = len(lines)
        scene.update((f"{name}{i}", line) for i, line in enumerate(lines))


def X(key: str, **fields: Any) -> list[Any]:
    """A text of the scene: a key of :data:`TEXTS` and its fields (a field may be a text)."""
    assert key in STRINGS, key
    return [key, fields] if fields else [key]


def field_names(template: str) -> list[str]:
    """The fields of a template in the order they first appear (a text's values in the
    short form ``[key, [value, ...]]``).

    >>> field_names("{n|army} on {pref}, {n} left")
    ['n', 'pref']
    """
    return list(dict.fromkeys(m.group(1) for m in _FIELD.finditer(template)))


def fmt(scene: dict[str, Any], text: Any) -> str:
    """A text of the scene as the page writes it (the same steps as ``riskText`` in
    panels.js): a string as it is; ``["+", text, ...]`` the texts one after the other;
    ``[key, fields]`` the template ``T[key]`` with ``{field}`` filled in and ``{field|noun}``
    a count and its noun (singular for exactly one: ``N[noun]``); ``fields`` a dict, or the
    list of the values in the order of :func:`field_names`; ``["%", kind, n, castle, win,
    ea, ed]`` a line of exact odds, the numbers as integers (``win`` in tenths of a percent,
    ``ea`` and ``ed`` in hundredths) written in the template ``T[Q[0]]`` (``castle``: 1 puts
    in ``T[Q[1]]``) after a prefix by ``kind``: 0 none, 1 ``T[Q[2]]``, 2 ``T[Q[3]]`` with
    ``n``.

    >>> scene = {"T": {"a": "{n|army} on {pref}", "b": "Go: {what}"}, "N": {"army": ["army", "armies"]}}
    >>> fmt(scene, ["b", {"what": ["a", {"n": 1, "pref": "Tokyo"}]}]), fmt(scene, ["+", "x", ["a", [2, "y"]]])
    ('Go: 1 army on Tokyo', 'x2 armies on y')
    >>> scene = {"T": ["{n} vs{castle}: {win}, {ea}/{ed}", " (castle)", "neutral", "if {n}"], "Q": [0, 1, 2, 3]}
    >>> fmt(scene, ["%", 2, 3, 1, 239, 28, 5])
    'if 3: 3 vs (castle): 23.9%, 0.28/0.05'
    """
    if isinstance(text, str):
        return text
    if isinstance(text, bool) or not isinstance(text, list) or not text:
        return "" if text is None else str(text)
    if text[0] == "+":
        return "".join(fmt(scene, x) for x in text[1:])
    if text[0] == "%":
        kind, n, castle, win, ea, ed = text[1:7]
        q = scene["Q"]
        line = fmt(scene, [q[0], {"n": n, "castle": [q[1]] if castle else "", "win": f"{win / 10:.1f}%",
                                  "ea": f"{ea / 100:.2f}", "ed": f"{ed / 100:.2f}"}])
        prefix = [q[2]] if kind == 1 else [q[3], {"n": n}] if kind == 2 else None
        return f"{fmt(scene, prefix)}: {line}" if prefix else line
    fields = text[1] if len(text) > 1 else {}
    if isinstance(fields, list):
        fields = dict(zip(field_names(scene["T"][text[0]]), fields, strict=False))

    def fill(m: re.Match[str]) -> str:
        name, noun = m.group(1), m.group(2)
        if name not in fields:
            return m.group(0)
        value = fields[name]
        if noun is not None:
            one, many = scene["N"][noun]
            return f"{value} {one if value == 1 else many}"
        return fmt(scene, value) if isinstance(value, list) else str(value)

    return _FIELD.sub(fill, scene["T"][text[0]])


def _cat(*texts: Any) -> Any:
    """Texts one after the other (one string when they are all written out)."""
    if all(isinstance(x, str) for x in texts):
        return "".join(texts)
    return ["+", *texts]


def _size(x: Any) -> int:
    return len(json.dumps(x, ensure_ascii=False).encode())


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _buttons(*buttons: tuple[str, str, bool]) -> list[Any]:
    return ["b", [[target, label, int(bool(enabled))] for target, label, enabled in buttons]]


class PanelScene:
    """The panels' part of the board (:class:`~.board.RiskBoard`): writes ``panel_scene``."""

    # what the board holds (see RiskBoard)
    controller: Any
    lang: str
    selected: int | None
    alloc: dict[int, int]
    strike_target: int | None
    plan: dict[str, Any] | None
    panel_scene: dict[str, Any]
    _count: list[int]
    _commit_ninjas: list[int]
    _use_ninjas: bool
    _fresh_first: bool
    _count_src: Any
    _commit_key: Any

    def _t(self, key: str, **kw: Any) -> str:
        return t(key, self.lang, **kw)

    def _x(self, key: str, **fields: Any) -> Any:
        """A text of the scene: its key and fields, or the text written out where that is
        shorter (a short text with fields costs more as a key: the page reads both)."""
        written = t(key, self.lang, **{k: fmt(self._templates, v) if isinstance(v, list) else v
                                       for k, v in fields.items()})
        if key not in TEXTS:  # no template in the scene: written out
            return written
        code = TEXTS.index(key)  # the template's place in T
        names = field_names(self._templates["T"][code])
        keyed = X(key, **fields)
        keyed[0] = code
        if fields and set(names) == set(fields):  # the short form: the values in the template's order
            keyed = [code, [fields[n] for n in names]]
        return written if _size(written) <= _size(keyed) else keyed

    @property
    def _templates(self) -> dict[str, Any]:
        """``T``: the templates of :data:`TEXTS` in the board's language, in that order (a
        keyed text names its template by its place), and ``N``."""
        lang = 1 if self.lang == "ja" else 0
        cached = getattr(self, "_templates_cache", None)
        if cached is None or cached[0] != lang:
            cached = (lang, {"T": [STRINGS[k][lang] for k in TEXTS], "N": NOUNS, "Q": [TEXTS.index(k) for k in ODDS]})
            self._templates_cache = cached
        return cached[1]

    # (RiskBoard's)
    view: dict[str, Any]
    _legal: Any
    _who: Any
    _names: Any
    _my_moves: Any
    _gathering: Any
    _attack_free: Any
    _left_moves: Any
    _handed_over: Any
    _commit_counts: Any
    lit: Any

    def _write_panels(self, mode: str) -> None:
        """Write the whole scene of the panels now."""
        scene: dict[str, Any] = {**self._templates, "st": self._status(mode),
                                 "msg": str(self.controller.message or "")}
        scene["a"] = self._actions(mode, scene)
        for key, box in (("i", self._info()), ("o", self._odds(mode)), ("b", self._battle())):
            if box:
                scene[key] = box
        self._knowledge(scene)
        split_lists(scene)  # a key per line, per button: a move sends the lines that changed
        self.panel_scene = scene

    # ------------------------------------------------------------ the status
    def _status(self, mode: str) -> list[list[Any]]:
        v = self.view
        if not v:
            return []
        limit = self._x("ui_of_limit", n=v["round_limit"]) if v.get("round_limit") else ""
        lines: list[list[Any]] = [[self._x("ui_round", round=v.get("round", 0), limit=limit), "", ""]]
        phase = v.get("phase")
        if phase == "income":
            lines.append([self._x("ui_phase_income"), "", ""])
        elif phase == "turns" and v.get("current") is not None:
            lines.append([self._x("ui_phase_turns", player=self._who(v["current"])), "", ""])
        elif phase == "over":
            lines.append([self._x("ui_phase_over"), "", ""])
        seat = v.get("seat")
        me = v.get("me")
        if seat is not None and me is not None:
            lines.append([self._x("ui_you", player=self._who(seat)), "", COLOURS[seat % len(COLOURS)]])
            if phase == "income":
                lines.append([self._x("ui_income_left", n=me["income_left"]), "cw-income-left", ""])
            lines.append([self._x("ui_reserve", n=me["reserve"]), "cw-reserve", ""])
        if mode == "wait" and v.get("to_act") and phase != "over":
            lines.append([self._x("ui_waiting", players=", ".join(self._who(s) for s in v["to_act"])), "", ""])
        return lines

    # ------------------------------------------------------------ the actions
    def _number(self, name: str, label: str, field: list[int]) -> list[Any]:
        return ["n", name, label, *field]

    def _actions(self, mode: str, scene: dict[str, Any]) -> list[list[Any]]:
        leg = self._legal()
        v = self.view
        items: list[list[Any]] = []
        if mode == "income":
            me = v["me"]
            left = me["income_left"] - sum(self.alloc.values())
            if left > 0:
                scene["g"] = ["", self._x("guide_income", n=left)]
            else:
                scene["g"] = ["", self._x("guide_income_done", n=me["income_left"], button=self._x("ui_place_confirm"))]
            items.append(["t", "cw-to-place", _cat(self._x("ui_to_place", n=sum(self.alloc.values())), f" / {int(me['income_left'])}"), 0])
            sel = self.selected
            plus = sel in leg["place"] and left > 0
            castle = sel in leg["castle"] and left >= CASTLE_COST - self.alloc.get(sel or 0, 0)
            items.append(_buttons(("plus", "+1", plus), ("minus", "−1", self.alloc.get(sel or 0, 0) > 0),
                                  ("all-here", self._x("ui_all_here", n=max(left, 0)), plus),
                                  ("castle", self._x("ui_castle", cost=CASTLE_COST), castle)))
            items.append(_buttons(("buy-ninja", self._x("ui_buy_ninja", cost=NINJA_COST),
                                   bool(leg["ninja"]) and left >= NINJA_COST)))
            items.append(_buttons(("place-confirm", self._x("ui_place_confirm"), bool(self.alloc)),
                                  ("place-reset", self._x("ui_place_reset"), bool(self.alloc))))
        elif mode == "turn":
            items += self._turn_actions(leg, scene)
        elif mode == "commit":
            items += self._commit_actions(leg)
        elif mode == "window":
            w = v.get("window") or {}
            trig = self._x("ui_trigger_battle" if w.get("trigger") == "battle" else "ui_trigger_turn")
            items.append(["t", "cw-window-ask", self._x("ui_window_title", trigger=trig), 1])
            row = [("hold", self._x("ui_hold"), True)]
            if leg["strike"]:
                items.append(["t", "", self._x("ui_strike_pick"), 0])
                tgt = self.strike_target
                if tgt is not None:
                    top = max(leg["strike"][tgt], 1)
                    self._count = [min(max(self._count[0], 1), top), 1, top]
                    items.append(self._number("count", self._x("ui_count"), self._count))
                    row.insert(0, ("strike", self._x("ui_strike", pref=pref_name(tgt, self.lang)), True))
            items.append(_buttons(*row))
        return items

    def _commit_actions(self, leg: dict[str, Any]) -> list[list[Any]]:
        v = self.view
        bt = v["battle"]
        t_ = bt["target"]
        card = dict(map(tuple, v["me"]["card_armies"])).get(t_, 0)
        items: list[list[Any]] = [
            ["t", "cw-commit-ask", self._x("ui_commit_title", pref=pref_name(t_, self.lang),
                                          attacker=self._who(bt["attacker"]) if bt["attacker"] is not None else "🥷",
                                          armies=bt["armies"], ninjas=bt["ninjas"]), 1],
            ["t", "cw-commit-card", self._x("ui_commit_card", n=card, b=bt["defenders"]), 0]]
        reserve = max(k for _n, k in leg["commits"])  # 0 unless reserve ninjas may join
        key = (self.controller.version, t_, bt["rounds"])
        if key != self._commit_key:  # a new question: all the card, no ninja (the first legal answer)
            self._commit_key = key
            self._commit_ninjas = [0, 0, reserve]
            top = max(max(leg["commit"]), 1)
            self._count = [top, 1, top]
        ninjas = self._commit_ninjas[0]
        counts = self._commit_counts(ninjas)
        top, lo = max(counts), min(counts)
        plus = self._x("ui_commit_plus_ninjas", k=ninjas) if ninjas else ""
        none = (self._x("ui_commit_only_ninjas", k=ninjas) if ninjas else self._x("ui_commit_none"))
        if reserve:
            items.append(self._number("commit-ninjas", self._x("ui_commit_ninjas", n=reserve), self._commit_ninjas))
        if top == 0:  # an empty card: asked all the same (issue 27), the only answer is none
            items.append(_buttons(("commit-none", none, True)))
        else:
            row = [("commit-all", _cat(self._x("ui_commit_all", n=top), plus), True),
                   ("commit", _cat(self._x("ui_commit"), plus), True)]
            if lo == 0:
                row.append(("commit-none", none, True))
            items += [self._number("count", self._x("ui_count"), self._count), _buttons(*row)]
        return items

    def _turn_actions(self, leg: dict[str, Any], scene: dict[str, Any]) -> list[list[Any]]:
        """The current player's turn: the guide for what is lit, the count, the buttons."""
        items: list[list[Any]] = []
        sel = self.selected
        moves, nmoves = self._my_moves()
        pick, move_dst, attack_dst = self.lit("turn")
        gathering = self._gathering()
        end = self._x("guide_end", button=self._x("ui_end_turn"))
        mv = sum(moves.get(sel, (0, 0))) if sel is not None else 0
        nmv = sum(nmoves.get(sel, (0, 0))) if sel is not None else 0
        dep = leg["deploy"].get(sel, 0) if sel is not None and gathering is None else 0
        if gathering is not None:
            groups = gathering["groups"]
            pref = pref_name(gathering["target"], self.lang)
            ninjas, sea = sum(g[1] for g in groups if g[3]), sum(g[1] for g in groups if g[2])
            head = self._x("ui_pending", pref=pref, armies=sum(g[1] for g in groups if not g[3]),
                           ninjas=self._x("ui_pending_ninjas", n=ninjas) if ninjas else "",
                           sea=self._x("ui_pending_sea", n=sea) if sea else "")
            lines = ([self._x("guide_gathered", launch=self._x("ui_launch"), cancel=self._x("ui_cancel_attack"))]
                     if self.plan is not None else [self._x("guide_gathered_old", launch=self._x("ui_launch"))])
            if pick:
                lines.append(self._x("guide_gather_more", pref=pref))
            scene["g"] = [head, *lines]
            free = self._attack_free() if self.plan is not None else leg["attack"]
            mv = nmv = 0
            if sel is not None:
                ninja_free = sum(n for (s_, d, nj), n in free.items() if s_ == sel and d == gathering["target"] and nj)
                army_free = sum(n for (s_, d, nj), n in free.items() if s_ == sel and d == gathering["target"] and not nj)
                mv, nmv = army_free, ninja_free
        elif sel is None:
            deployable = bool(leg["deploy"]) and not (leg["move"] or leg["attack"] or leg["ninja_move"])
            if not pick:
                scene["g"] = ["", self._x("guide_nothing", button=self._x("ui_end_turn"))]
            else:
                lines = [self._x("guide_pick_deploy" if deployable else "guide_pick_src")]
                taken = self._handed_over()
                if taken in pick:  # issue 30: a hand-over is no fight, the winners keep their second move
                    lines.append(self._x("guide_handed_over", pref=pref_name(taken, self.lang)))
                scene["g"] = ["", *lines, end]
        else:
            pref = pref_name(sel, self.lang)
            count = self._x("ui_count")
            if attack_dst and move_dst:
                lines = [self._x("guide_targets_both", count=count)]
            elif attack_dst:
                lines = [self._x("guide_targets_attack", count=count)]
            elif move_dst:
                lines = [self._x("guide_targets_move", count=count)]
            elif dep:
                lines = [self._x("guide_deploy", button=self._x("ui_deploy"), pref=pref)]
            else:
                lines = [self._x("guide_stuck", button=self._x("ui_clear"))]
            if dep and (attack_dst or move_dst):
                lines.append(self._x("guide_more_deploy", button=self._x("ui_deploy")))
            scene["g"] = ["", *lines, end]
        ninja = self._use_ninjas and nmv > 0
        if not nmv and self._use_ninjas:
            self._use_ninjas = False
        top = nmv if ninja else max(mv, dep)
        if top >= 1:
            value = self._count[0]
            if value > top or value < 1 or self._count_src != (sel, ninja):
                value = top
            self._count = [value, 1, max(top, 1)]
            self._count_src = (sel, ninja)
            items.append(self._number("count", self._x("ui_count"), self._count))
        if nmv:
            items.append(["c", "use-ninjas", self._x("ui_use_ninjas"), int(self._use_ninjas)])
        if sel is not None and mv and not ninja and all(self._left_moves(sel)):  # fresh and once-moved together
            items.append(["c", "fresh-first", self._x("ui_fresh_first"), int(self._fresh_first)])
        if dep:
            items.append(_buttons(("deploy", self._x("ui_deploy"), True)))
        if gathering is not None:
            row = [("launch", self._x("ui_launch"), True)]
            if self.plan is not None:
                row.append(("cancel-attack", self._x("ui_cancel_attack"), True))
        else:
            row = [("end-turn", self._x("ui_end_turn"), bool(leg["end_turn"]))]
        if sel is not None:
            row.append(("clear", self._x("ui_clear"), True))
        items.append(_buttons(*row))
        return items

    # ------------------------------------------------------------ the boxes
    def _info(self) -> list[str]:
        code = self.selected
        v = self.view
        if code is None or not v.get("territories"):
            return []
        terr = v["territories"][code - 1]
        lines: list[Any] = [pref_name(code, self.lang), self._x("ui_owner", owner=self._who(terr["owner"])),
                 self._x("ui_on_board", n=terr["armies"])]
        me = v.get("me") or {}
        card = dict(map(tuple, me.get("card_armies", []))).get(code, 0)
        if card:
            lines.append(self._x("ui_on_card", n=card))
        if terr["castle"]:
            lines.append(_cat("🏯 ", self._x("castle")))
            if terr["wounded"]:
                lines.append(self._x("ui_wounded", n=terr["wounded"]))
        moves, nmoves = self._my_moves()
        if code in moves:
            lines.append(self._x("ui_moves_left", fresh=moves[code][0], half=moves[code][1]))
        mine = dict(map(tuple, me.get("ninjas", []))).get(code, 0)
        if mine:
            lines.append(self._x("ui_my_ninjas_here", n=mine, m=sum(nmoves.get(code, (0, 0)))))
        elif terr["ninjas"]:
            lines.append(self._x("ui_ninjas_here", n=terr["ninjas"]))
        return lines

    def _odds_line(self, att: int, dfn: int, *, castle: bool = False, wounded: int = 0, sea: int = 0,
                   kind: int = 0) -> list[Any]:
        """An odds line ``["%", ...]`` (see :func:`fmt`; ``kind``: the prefix); its numbers
        are those of the texts written out (the same rounding), without their points."""
        att, dfn = min(att, MAX_ARMIES), min(dfn, MAX_ARMIES)
        o = battle_odds_float(att, dfn, castle=castle, wounded=min(wounded, 1) if castle and dfn else 0,
                              sea=min(sea, att))
        digits = [int(x.replace(".", "")) for x in (_pct(o.win)[:-1], f"{o.expected_attackers:.2f}",
                                                    f"{o.expected_defenders:.2f}")]
        return ["%", kind, dfn, int(bool(castle)), *digits]

    def _odds(self, mode: str) -> list[Any]:
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
            return []
        terr = terrs[target - 1]
        rows: list[Any] = []
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
                rows.append(self._odds_line(att, 2, sea=sea, kind=1))
            if terr["owner"] != "neutral":
                for n in (1, 3, 6):
                    rows.append(self._odds_line(att, n, castle=castle, sea=sea, kind=2))
        return [f"{self._t('ui_odds_title')} — {pref_name(target, self.lang)}", *rows]

    def _battle(self) -> list[Any]:
        events = self.controller.events
        start = None
        for i in range(len(events) - 1, -1, -1):
            if events[i].get("type") in ("launch", "strike"):
                start = i
                break
        if start is None:
            return []
        target = events[start].get("territory")
        rows: list[Any] = []
        n = 0
        for e in events[start:]:
            k = e.get("type")
            if k == "preroll":
                rows.append(["s", _dice(e["dice"]), self._t("ui_hits", n=e["hits"])])
            elif k == "battle_round":
                n += 1
                after = f"{int(e['attackers'])} : {int(e['defenders'])}"
                if isinstance(e.get("ninjas"), int):  # the defender's ninjas left (issue 30), rolled in the open
                    after += f" + 🥷{int(e['ninjas'])}"
                rows.append(["r", self._t("ui_battle_round", n=n), _dice(e["att"]), int(e["ah"]), _dice(e["dfn"]),
                             int(e["dh"]), after])
            elif k in ("committed", "captured", "held", "ninjas_won", "handed_over", "undefended", "neutral_armies",
                       "revealed"):
                from . import event_text

                line = event_text(e, self.lang, self._names())
                if line:
                    rows.append(["e", line])
            elif k in ("turn", "round", "end_turn"):
                break
        title = self._t("ui_battle_title", pref=pref_name(target, self.lang) if isinstance(target, int) else "?")
        return [title, [self._t("ui_sea_dice"), self._t("ui_attack_dice"), self._t("ui_defence_dice")], *rows]

    def _knowledge(self, scene: dict[str, Any]) -> None:
        v = self.view
        seat = v.get("seat")
        if not v.get("territories"):
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
        seats = []
        for p in v.get("players", []):
            if p["seat"] == seat:
                continue
            seats.append(p["seat"])
            known = [x for x in terrs if x["owner"] == p["seat"]]
            line = _cat(self._x("ui_k_player", player=p["name"], n=p["territories"], castles=p["castles"],
                                pool=p["hidden_pool"]), " — ", self._x("ui_k_known", known=len(known), n=p["territories"]))
            for x in known:  # a key per known territory: a move changes a few
                rnd_, how = learned.get(x["code"], (0, ""))
                scene[f"r{x['code']}"] = self._t(
                    "ui_k_row", pref=pref_name(x["code"], self.lang), armies=x["armies"],
                    castle=" 🏯" if x["castle"] else "", round=rnd_ or "?", how=self._t(f"ui_how_{how}") if how else "?")
            scene[f"k{p['seat']}"] = [COLOURS[p["seat"] % len(COLOURS)], line, [x["code"] for x in known]]
        neutral = [pref_name(x["code"], self.lang) for x in terrs if x["owner"] == "neutral"]
        unknown = sum(1 for x in terrs if x["owner"] is None)
        scene["k"] = [self._x("ui_knowledge"), self._x("ui_k_neutral", codes=", ".join(neutral)) if neutral else "",
                      self._x("ui_k_unknown", n=unknown), seats]


def _dice(dice: Any) -> list[int]:
    return [int(d) for d in dice if isinstance(d, int) and 1 <= d <= 6]
