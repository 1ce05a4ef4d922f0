"""The card table of Conquest: an ipywidgets board drawn from a
:class:`~conquest_widget.ui.controller.MatchController`'s published traits only.

Your hand lies face-up at the bottom under your Jack, Queen and King with their piles
fanned; every other player sits above with their hand face-down (a count), their face
cards and piles.  Click cards to select them (only cards that keep the selection legal
are enabled), then click one of your face cards to play them; "End turn" plays nothing.
Under optional rule 3 click your joker, then an opponent's face card.  Under optional
rule 2 the received cards are placed the same way (click one, then a face card).

    >>> from conquest_widget.games.conquest_cards.engine import ConquestCards
    >>> from conquest_widget.games.conquest_cards.setup import CardsSetup
    >>> from conquest_widget.ui.controller import MatchController
    >>> c = MatchController(ConquestCards(CardsSetup.quick(2), seed=5), humans={0, 1})
    >>> b = CardsBoard(c, "en")
    >>> b.draw_button.disabled
    False
    >>> b.draw_button.click(); len(c.view["hand"])
    3
    >>> b.hand_codes() == c.view["hand"]
    True

Stable CSS classes for browser tests: ``cw-cards-board``, ``cw-card-<code>`` on your hand's
cards (``cw-card-JK`` a joker), ``cw-face-<seat>-<J|Q|K>`` on every face card,
``cw-place-<code>`` on received cards (rule 2), ``cw-draw``, ``cw-end-turn``,
``cw-seat-panel-<seat>``, ``cw-status``.

Nothing of another seat's hand ever reaches a widget: the board draws only the
controller's ``view`` (built by inclusion for the viewer); widgets are reused from
redraw to redraw and the unused ones are emptied (no stale card codes left behind).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import html_text
from conquest_widget.lean import Layout

from ..cards import DISPLAY, FACES, JOKER, SUIT_SYMBOL, value
from ..text import describe_event, t
from .style import CSS, backs_html, card_class, card_label, pile_html

#: the label of an unused card button: not "" — ipywidgets' button view keeps its old text
#: in the page when the description becomes empty (a hidden button would still say "10♦")
_BLANK = " "
_CARD_LAYOUT = {"width": "46px", "height": "66px", "margin": "0 2px"}
_FACE_LAYOUT = {"width": "50px", "height": "70px", "margin": "0 auto 2px auto"}


def _legal_sets(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The viewer's legal actions sorted by what the board enables."""
    out: dict[str, Any] = {"select": set(), "unselect": set(), "play": set(), "joker": set(),
                           "place": set(), "draw": False, "end": False}
    for a in legal:
        kind = a.get("type")
        if kind == "select":
            out["select"].add(a["card"])
        elif kind == "unselect":
            out["unselect"].add(a["card"])
        elif kind == "play":
            out["play"].add(a["face"])
        elif kind == "joker":
            out["joker"].add((a["target"], a["face"]))
        elif kind == "place":
            out["place"].add((a["card"], a["face"]))
        elif kind in ("draw", "end"):
            out[kind] = True
    return out


class _SeatPanel(W.VBox):
    """One player's place at the table: name, hand count, face cards and piles."""

    def __init__(self, board: CardsBoard, seat: int) -> None:
        self.seat = seat
        self.head = W.HTML()
        self.head.add_class("cwc-head")
        self.faces: dict[str, W.Button] = {}
        self.piles: dict[str, W.HTML] = {}
        cols = []
        for face in FACES:
            b = W.Button(layout=Layout(**_FACE_LAYOUT), disabled=True)
            b.add_class("cwc-face")
            b.add_class(f"cw-face-{seat}-{face}")
            b.on_click(lambda _b, f=face: board._click_face(seat, f))
            pile = W.HTML()
            self.faces[face] = b
            self.piles[face] = pile
            col = W.VBox([b, pile], layout=Layout(align_items="center", min_width="96px"))
            cols.append(col)
        super().__init__([self.head, W.HBox(cols)])
        self.add_class("cwc-seat")
        self.add_class(f"cw-seat-panel-{seat}")


class CardsBoard(W.VBox):
    """The card table (see the module docstring).  ``CardsBoard(controller, lang)``."""

    def __init__(self, controller: Any, lang: str = "en") -> None:
        self.controller = controller
        self.lang = lang
        self._armed: tuple[str, str] | None = None  # ("joker", "JK") or ("place", card)
        self._hand: list[str] = []
        self._received: list[str] = []
        self._me = 0
        self._drawn_version = -1
        n = len(controller.view.get("players", ()))
        self.style_html = W.HTML(CSS)
        self.status = W.HTML()
        self.status.add_class("cwc-status")
        self.status.add_class("cw-status")
        self.msg = W.HTML()
        self.msg.add_class("cwc-msg")
        self.recent = W.HTML()
        self.recent.add_class("cwc-recent")
        self.recent.add_class("cw-recent")
        self.panels = [_SeatPanel(self, s) for s in range(n)]
        self.others = W.HBox(layout=Layout(flex_flow="row wrap", justify_content="space-around"))
        self.mine = W.Box()
        self.hand_title = W.HTML()
        self.hand_title.add_class("cwc-hand-title")
        self.hand_box = W.HBox(layout=Layout(flex_flow="row wrap"))
        self.hand_box.add_class("cwc-hand")
        self.hand_buttons: list[W.Button] = []
        self.received_title = W.HTML()
        self.received_title.add_class("cwc-hand-title")
        self.received_box = W.HBox(layout=Layout(flex_flow="row wrap"))
        self.received_box.add_class("cwc-hand")
        self.received_buttons: list[W.Button] = []
        self.received_area = W.VBox([self.received_title, self.received_box])
        self.draw_button = W.Button(button_style="primary", disabled=True)
        self.draw_button.add_class("cw-draw")
        self.draw_button.on_click(lambda _b: self._act({"type": "draw"}))
        self.end_button = W.Button(disabled=True)
        self.end_button.add_class("cw-end-turn")
        self.end_button.on_click(lambda _b: self._act({"type": "end"}))
        self.deck_html = W.HTML()
        table = W.VBox([self.others, W.HBox([self.deck_html, self.draw_button, self.end_button],
                                             layout=Layout(align_items="center")),
                        self.mine, self.hand_title, self.hand_box, self.received_area])
        table.add_class("cwc-table")
        super().__init__([self.style_html, self.status, self.msg, self.recent, table])
        self.add_class("cwc-board")
        self.add_class("cw-cards-board")
        controller.observe(self._on_version, names="version")
        controller.observe(self._on_message, names="message")
        self.redraw()

    # ------------------------------------------------------------ reading the controller
    def hand_codes(self) -> list[str]:
        """The codes on the hand buttons now shown (tests: what the viewer sees)."""
        return list(self._hand)

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self.redraw()

    def _on_version(self, _change: Any = None) -> None:
        self._armed = None
        self.redraw()

    def _on_message(self, change: Any) -> None:
        text = change["new"] or ""
        self.msg.value = f"<span>{html_text(text)}</span>" if text else ""

    def _act(self, action: dict[str, Any]) -> None:
        self._armed = None
        self.controller.act(action)

    # ------------------------------------------------------------ clicks
    def _click_card(self, i: int) -> None:
        if i >= len(self._hand):
            return
        code = self._hand[i]
        view = self.controller.view
        if code == JOKER:
            self._armed = None if self._armed and self._armed[0] == "joker" else ("joker", JOKER)
            self.redraw()
        elif code in (view.get("selected") or ()):
            self._act({"type": "unselect", "card": code})
        else:
            self._act({"type": "select", "card": code})

    def _click_received(self, i: int) -> None:
        if i >= len(self._received):
            return
        code = self._received[i]
        self._armed = None if self._armed == ("place", code) else ("place", code)
        self.redraw()

    def _click_face(self, seat: int, face: str) -> None:
        armed = self._armed
        if seat == self._me:
            if armed and armed[0] == "place":
                self._act({"type": "place", "card": armed[1], "face": face})
            else:
                self._act({"type": "play", "face": face})
        elif armed and armed[0] == "joker":
            self._act({"type": "joker", "target": seat, "face": face})

    # ------------------------------------------------------------ drawing
    def redraw(self) -> None:
        """Draw the table from the controller's ``view`` and ``legal`` (reusing widgets)."""
        c = self.controller
        view = c.view
        lang = self.lang
        players = view.get("players", [])
        viewer = view.get("viewer")
        if viewer is not None:
            self._me = viewer
        me = self._me
        legal = _legal_sets(list(c.legal) if viewer is not None else [])
        if self._armed and self._armed[0] == "joker" and not legal["joker"]:
            self._armed = None
        if self._armed and self._armed[0] == "place" and not any(x[0] == self._armed[1] for x in legal["place"]):
            self._armed = None
        armed = self._armed
        selected = list(view.get("selected") or ())
        to_act = view.get("to_act") or []
        last = self._last_pile(c.events)
        for p, panel in zip(players, self.panels, strict=False):
            self._draw_panel(panel, p, me, viewer, to_act, legal, armed, last)
        order = [(me + k) % len(players) for k in range(1, len(players))] if players else []
        others = tuple(self.panels[s] for s in order)
        if self.others.children != others:
            self.others.children = others
        mine = (self.panels[me],) if self.panels else ()
        if self.mine.children != mine:
            self.mine.children = mine
        # the hand: face-up for the viewer only
        hand = list(view.get("hand") or []) if viewer is not None else []
        self._hand = hand
        my_turn_play = view.get("stage") == "play" and me in to_act and viewer is not None
        self._ensure(self.hand_buttons, len(hand), self.hand_box, self._click_card)
        for i, b in enumerate(self.hand_buttons):
            if i < len(hand):
                code = hand[i]
                if code == JOKER:
                    enabled = bool(legal["joker"])
                    chosen = armed is not None and armed[0] == "joker"
                elif code in selected:
                    enabled, chosen = code in legal["unselect"], True
                else:
                    enabled, chosen = code in legal["select"], False
                classes = ["cwc-card", card_class(code), f"cw-card-{code}"]
                if chosen:
                    classes.append("cwc-selected")
                if my_turn_play and not enabled:
                    classes.append("cwc-dim")
                self._set_button(b, card_label(code, lang), classes, not enabled, visible=True)
            else:
                self._set_button(b, _BLANK, ["cwc-card"], True, visible=False)
        if viewer is not None:
            self.hand_title.value = html_text(f"{t('hand', lang)} ({len(hand)})")
        else:
            self.hand_title.value = ""
        # rule 2: cards received at the end
        received = []
        if viewer is not None and view.get("to_place") is not None:
            received = list(view["to_place"][viewer])
        self._received = received
        self._ensure(self.received_buttons, len(received), self.received_box, self._click_received)
        for i, b in enumerate(self.received_buttons):
            if i < len(received):
                code = received[i]
                enabled = any(x[0] == code for x in legal["place"])
                classes = ["cwc-card", card_class(code), f"cw-place-{code}"]
                if armed == ("place", code):
                    classes.append("cwc-selected")
                self._set_button(b, card_label(code, lang), classes, not enabled, visible=True)
            else:
                self._set_button(b, _BLANK, ["cwc-card"], True, visible=False)
        self.received_title.value = html_text(t("ui_received", lang)) if received else ""
        self.received_area.layout.display = None if received else "none"
        # deck and buttons
        deck = view.get("deck_size", 0)
        self.deck_html.value = (f"<span class='cwc-total' style='font-size:14px'>{backs_html(min(deck, 3))} "
                                f"{html_text(t('ui_deck', lang, n=deck))}</span>")
        with self.draw_button.hold_sync():
            self.draw_button.description = t("ui_draw_button", lang, n=deck)
            self.draw_button.disabled = not legal["draw"]
        with self.end_button.hold_sync():
            self.end_button.description = t("end_turn", lang)
            self.end_button.disabled = not legal["end"]
        self.status.value = self._status_html(view, legal, armed, selected, me, viewer)
        self.recent.value = self._recent_html(c.events, players, viewer)

    #: most lines of "since your last turn"
    RECENT = 6

    def _recent_html(self, events: list[dict[str, Any]], players: list[dict[str, Any]], viewer: int | None) -> str:
        """What happened since the viewer's last play, with the players' names (the
        viewer's own events: its own draws show its card; others' draws only a count)."""
        if viewer is None:
            return ""
        names = [p["name"] for p in players]
        lines: list[str] = []
        for e in reversed(events):
            kind = e.get("type")
            if kind in ("play", "pass", "joker", "place") and e.get("seat") == viewer and lines:
                break
            if kind in ("select", "unselect"):
                continue
            lines.append(describe_event(e, self.lang, names))
            if len(lines) >= self.RECENT:
                break
        return "".join(f"<div>{html_text(x)}</div>" for x in reversed(lines))

    def _draw_panel(self, panel: _SeatPanel, p: dict[str, Any], me: int, viewer: int | None,
                    to_act: list[int], legal: dict[str, Any], armed: tuple[str, str] | None,
                    last: tuple[int, str] | None) -> None:
        lang = self.lang
        seat = p["seat"]
        suit = p["suit"]
        you = f" ({t('ui_you', lang)})" if seat == viewer else ""
        n = p["hand_size"]
        hand = "" if seat == viewer else f" {backs_html(n)}"
        panel.head.value = (f"<span class='cwc-name'>{html_text(p['name'])}</span>{html_text(you)} "
                            f"<b>{SUIT_SYMBOL[suit]}</b> · {html_text(t('ui_card_one' if n == 1 else 'ui_cards', lang, n=n))}{hand}")
        if seat in to_act:
            panel.add_class("cwc-turn")
        else:
            panel.remove_class("cwc-turn")
        red = suit in ("H", "D")
        for pile in p["piles"]:
            face = pile["face"]
            if seat == me:
                enabled = (face in legal["play"] and not armed) or (
                    armed is not None and armed[0] == "place" and (armed[1], face) in legal["place"])
            else:
                enabled = armed is not None and armed[0] == "joker" and (seat, face) in legal["joker"]
            classes = ["cwc-face", f"cw-face-{seat}-{face}", "cwc-red" if red else "cwc-black"]
            if enabled:
                classes.append("cwc-target")
            self._set_button(panel.faces[face], f"{face}{SUIT_SYMBOL[suit]}", classes, not enabled, visible=True)
            cards = pile["cards"]
            mark = " cwc-last" if last == (seat, face) else ""
            total = (html_text(t("ui_total", lang, total=pile["total"])) if cards
                     else html_text(t("ui_empty_pile", lang)))
            panel.piles[face].value = (f"<div class='cwc-pile{mark}'>{pile_html(cards, lang)}</div>"
                                       f"<div class='cwc-total'>{total}</div>")

    @staticmethod
    def _last_pile(events: list[dict[str, Any]]) -> tuple[int, str] | None:
        """The pile the last play, joker or placement went to (highlighted)."""
        for e in reversed(events[-6:]):
            kind = e.get("type")
            if kind in ("play", "place"):
                return e["seat"], e["face"]
            if kind == "joker":
                return e["target"], e["face"]
            if kind in ("draw", "pass", "over"):
                return None
        return None

    def _ensure(self, pool: list[W.Button], n: int, box: W.Box, on_click: Any) -> None:
        """Grow a pool of card buttons to ``n`` (buttons are reused, never recreated)."""
        if len(pool) >= n:
            return
        for i in range(len(pool), n):
            b = W.Button(layout=Layout(**_CARD_LAYOUT), disabled=True)
            b.on_click(lambda _b, i=i: on_click(i))
            pool.append(b)
        box.children = tuple(pool)

    @staticmethod
    def _set_button(b: W.Button, label: str, classes: list[str], disabled: bool, *, visible: bool) -> None:
        """Update a button in one message (only what changed is sent)."""
        with b.hold_sync():
            b.description = label
            b._dom_classes = tuple(classes)
            b.disabled = disabled
            b.layout.display = None if visible else "none"

    def _status_html(self, view: dict[str, Any], legal: dict[str, Any], armed: tuple[str, str] | None,
                     selected: list[str], me: int, viewer: int | None) -> str:
        lang = self.lang
        players = view.get("players", [])
        names = [p["name"] for p in players]
        stage = view.get("stage")
        to_act = view.get("to_act") or []
        if stage == "over" or not players:
            text = t("ui_over", lang)
        elif viewer is not None and me in to_act and any(legal[k] for k in legal):
            if stage == "draw":
                text = t("ui_your_draw", lang)
            elif stage == "place":
                text = (t("ui_place_armed", lang, card=DISPLAY[armed[1]]) if armed and armed[0] == "place"
                        else t("ui_place", lang))
            elif armed and armed[0] == "joker":
                text = t("ui_joker_armed", lang)
            elif selected:
                total = sum(value(c) for c in selected)
                text = t("ui_selected", lang, cards=" ".join(DISPLAY[c] for c in selected), total=total)
            else:
                text = t("ui_your_play", lang) + (" " + t("ui_joker_hint", lang) if legal["joker"] else "")
        else:
            who = to_act[0] if to_act else view.get("turn", 0)
            name = names[who] if 0 <= who < len(names) else "?"
            text = t("ui_cpu_playing" if getattr(self.controller, "cpu_busy", False) else "ui_waiting", lang, name=name)
        turn = view.get("turn", 0)
        head = t("ui_turn_of", lang, name=names[turn]) if stage not in ("over", "place") and 0 <= turn < len(names) else ""
        final = t("ui_final_turn", lang) if view.get("last_turn") and stage == "play" else ""
        parts = [f"<b>{html_text(head)}</b>" if head else "", html_text(text),
                 f"<b>{html_text(final)}</b>" if final else ""]
        return " ".join(x for x in parts if x)
