"""The card table of Conquest: one front-end widget (:mod:`anywidget`) drawn from a
:class:`~conquest_widget.ui.controller.MatchController`'s published traits only.

Your hand lies face-up at the bottom under your Jack, Queen and King with their piles
fanned; every other player sits above with their hand face-down (a count), their face
cards and piles.  Click cards to select them (only cards that keep the selection legal
are enabled), then click one of your face cards to play them; "End turn" plays nothing.
Under optional rule 3 click your joker, then an opponent's face card.  Under optional
rule 2 the received cards are placed the same way (click one, then a face card).

The page draws the table from ``scene``, a small JSON document the board writes from the
controller's ``view`` and ``legal`` for the viewer: its texts are ``[key, {field: value}]``
of the game's text tables (:mod:`..text`), whose templates in the chosen language the scene
holds once (``T``); the lines of "since your last turn" are keyed by event (``e<k>``).  After the first render only the keys of ``scene`` that
changed are sent, as one custom message (``[n, {key: value}, [dropped key]]``, issue 32: a
lean wire); the page's JavaScript (``board.js``) and CSS (``board.css``) beside this file
are sent once.  A click in the page comes back as one message ``{"click": "<target>"}``,
handled by :meth:`CardsBoard.click`, which a kernel-side test calls the same way::

    >>> from conquest_widget.games.conquest_cards.engine import ConquestCards
    >>> from conquest_widget.games.conquest_cards.setup import CardsSetup
    >>> from conquest_widget.ui.controller import MatchController
    >>> c = MatchController(ConquestCards(CardsSetup.quick(2), seed=5), humans={0, 1})
    >>> b = CardsBoard(c, "en")
    >>> b.clickable(), b.hand_codes()  # hot seat: the cover first, nothing of a hand
    ([], [])
    >>> c.uncover(); "draw" in b.clickable()
    True
    >>> b.click("draw"), len(c.view["hand"])
    (True, 3)
    >>> b.hand_codes() == c.view["hand"]
    True

Targets (and the stable CSS classes of the page for browser tests, ``cw-`` + target):
``draw`` (``cw-draw``), ``end-turn`` (``cw-end-turn``), ``card-<code>`` your hand's cards
(``cw-card-JK`` a joker), ``face-<seat>-<J|Q|K>`` every face card, ``place-<code>``
received cards (rule 2).  The page also has ``cw-cards-board``, ``cw-seat-panel-<seat>``,
``cw-status``, ``cw-recent``; a face card that can be played on has ``cwc-target``, a
chosen card ``cwc-selected``, a card that cannot join the selection ``cwc-dim``.

Nothing of another seat's hand ever reaches the page: the scene is written only from the
controller's ``view`` (built by inclusion for the viewer), and every key the page holds is
replaced or dropped when it changes (no stale card codes left behind).  The page puts
every text in with ``textContent`` (no markup from data).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquest_widget.lean import page_file
from conquest_widget.ui.scene import SceneWidget

from ..cards import DISPLAY, FACES, JOKER, SUIT_SYMBOL, value
from ..text import STRINGS, describe_event, t

_HERE = Path(__file__).parent

#: the templates of the text tables the page fills in (sent once per language as ``T``)
TEXTS = ("ui_turn_of", "ui_your_draw", "ui_your_play", "ui_joker_hint", "ui_selected", "ui_joker_armed", "ui_place",
         "ui_place_armed", "ui_final_turn", "ui_over", "ui_waiting", "ui_cpu_playing", "ui_total", "ui_empty_pile",
         "ui_cards", "ui_card_one", "ui_you", "ui_deck", "ui_draw_button", "end_turn", "hand", "ui_received", "ui_joker")
assert set(TEXTS) <= set(STRINGS)


def _txt(key: str, **fields: Any) -> list[Any]:
    """A text of the scene: a key of :data:`TEXTS` and the fields to fill in."""
    return [key, fields] if fields else [key]


#: flags of a card in ``scene``: enabled (clickable), chosen (selected / armed), dim
_ON, _CHOSEN, _DIM = 1, 2, 4
#: flags of a face card: a target (clickable), the pile the last card went to
_TARGET, _LAST = 1, 2


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


class CardsBoard(SceneWidget):
    """The card table (see the module docstring).  ``CardsBoard(controller, lang)``."""

    _esm = SceneWidget.page_module(_HERE / "board.js")
    _css = page_file(_HERE / "board.css")

    #: most lines of "since your last turn"
    RECENT = 6

    def __init__(self, controller: Any, lang: str = "en", **kwargs: Any) -> None:
        self.controller = controller
        self.lang = lang
        self._armed: tuple[str, str] | None = None  # ("joker", "JK") or ("place", card)
        self._me = 0
        self._message = ""
        super().__init__(**kwargs)
        self.add_class("cwc-board")
        self.add_class("cw-cards-board")
        controller.observe(self._on_version, names="version")
        controller.observe(self._on_message, names="message")

    # ------------------------------------------------------------ what the viewer sees
    def hand_codes(self) -> list[str]:
        """The codes of the hand's cards now shown (tests: what the viewer sees)."""
        return [code for code, _flags in self.scene.get("hand", [])]

    def clickable(self) -> list[str]:
        """The targets a click does something on now (enabled and shown), in page order:
        ``draw``, ``end-turn``, ``card-<code>``, ``face-<seat>-<F>``, ``place-<code>``."""
        s = self.scene
        out = [name for name, key in (("draw", "draw"), ("end-turn", "end")) if s[key]]
        out += [f"card-{code}" for code, flags in s["hand"] if flags & _ON]
        for seat in [*s["order"], s["me"]]:
            out += [f"face-{seat}-{face}" for face in FACES if s.get(f"f{seat}{face}", [0])[0] & _TARGET]
        out += [f"place-{code}" for code, flags in s["recv"] if flags & _ON]
        return out

    def classes(self, target: str) -> set[str]:
        """The state classes the page gives ``target`` now: ``cwc-target`` (a face card
        to play on), ``cwc-selected``, ``cwc-dim``; ``disabled`` when it cannot be clicked.
        Raises LookupError for a target not on the table."""
        s = self.scene
        kind, _, rest = target.partition("-")
        out: set[str] = set()
        if target in ("draw", "end-turn"):
            flags = _ON if s["draw" if target == "draw" else "end"] else 0
        elif kind in ("card", "place"):
            cards = dict((c, f) for c, f in s["hand" if kind == "card" else "recv"])
            if rest not in cards:
                raise LookupError(f"no {target} on the table")
            flags = cards[rest]
        elif kind == "face":
            seat, face = rest.split("-")
            flags = s[f"f{int(seat)}{face}"][0]
            out |= {"cwc-target"} if flags & _TARGET else set()
            flags &= _TARGET
        else:
            raise LookupError(f"no {target} on the table")
        if flags & _CHOSEN:
            out.add("cwc-selected")
        if flags & _DIM:
            out.add("cwc-dim")
        if not flags & _ON:
            out.add("disabled")
        return out

    def text(self, part: str) -> str:
        """The text the page shows in ``part``: ``status``, ``recent`` (lines joined by
        newlines), ``message``, ``draw`` / ``end-turn`` (the buttons), ``deck``, ``hand``
        and ``received`` (the titles), ``head-<seat>`` (a player's line), ``pile-<seat>-<F>``
        (a pile's cards, then its total)."""
        s = self.scene
        if part == "status":
            return " ".join(x for x in (self._fmt(s["sh"]), *map(self._fmt, s["st"]), self._fmt(s["sf"])) if x)
        if part == "recent":
            return "\n".join(s[f"e{k}"] for k in s["rc"])
        if part == "message":
            return s["msg"]
        if part == "draw":
            return self._fmt(_txt("ui_draw_button", n=s["deck"]))
        if part == "end-turn":
            return self._fmt(_txt("end_turn"))
        if part == "deck":
            return self._fmt(_txt("ui_deck", n=s["deck"]))
        if part == "hand":
            return self._fmt(_txt("hand")) + f" ({len(s['hand'])})" if s["v"] else ""
        if part == "received":
            return self._fmt(_txt("ui_received")) if s["recv"] else ""
        kind, _, rest = part.partition("-")
        if kind == "head":
            name, you, suit, n, _backs, _turn = s[f"s{int(rest)}"]
            you_text = f" ({self._fmt(_txt('ui_you'))})" if you else ""
            count = self._fmt(_txt("ui_card_one") if n == 1 else _txt("ui_cards", n=n))
            return f"{name}{you_text} {SUIT_SYMBOL[suit]} · {count}"
        if kind == "pile":
            seat, face = rest.split("-")
            _flags, cards, total = s[f"f{int(seat)}{face}"]
            if not cards:
                return self._fmt(_txt("ui_empty_pile"))
            return " ".join(self._label(c) for c in cards) + " " + self._fmt(_txt("ui_total", total=total))
        raise LookupError(f"no part {part!r} on the table")

    def _fmt(self, text: list[Any] | int) -> str:
        """A text of the scene as the page writes it (0: none)."""
        if not text:
            return ""
        return self.scene["T"][text[0]].format(**(text[1] if len(text) > 1 else {}))

    def _label(self, code: str) -> str:
        return t("ui_joker", self.lang) if code == JOKER else DISPLAY[code]

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``)."""
        self.lang = lang
        self.redraw()

    # ------------------------------------------------------------ clicks
    def click(self, target: str) -> bool:
        """Click ``target`` as the player does in the page (see :meth:`clickable`); a click
        on something not clickable now does nothing (False), as in the page."""
        if not isinstance(target, str) or target not in self.clickable():
            return False
        kind, _, rest = target.partition("-")
        if target == "draw":
            self._act({"type": "draw"})
        elif target == "end-turn":
            self._act({"type": "end"})
        elif kind == "card":
            self._click_card(rest)
        elif kind == "place":
            self._armed = None if self._armed == ("place", rest) else ("place", rest)
            self.redraw()
        elif kind == "face":
            seat, face = rest.split("-")
            self._click_face(int(seat), face)
        return True

    def _act(self, action: dict[str, Any]) -> None:
        self._armed = None
        self.controller.act(action)

    def _click_card(self, code: str) -> None:
        if code == JOKER:
            self._armed = None if self._armed and self._armed[0] == "joker" else ("joker", JOKER)
            self.redraw()
        elif code in (self.controller.view.get("selected") or ()):
            self._act({"type": "unselect", "card": code})
        else:
            self._act({"type": "select", "card": code})

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
    def _on_version(self, _change: Any = None) -> None:
        self._armed = None
        self.redraw()

    def _on_message(self, change: Any) -> None:
        self._message = change["new"] or ""
        self.redraw()

    def draw_scene(self) -> dict[str, Any]:
        """What the page draws, from the controller's published traits only."""
        c = self.controller
        view = c.view
        lang = self.lang
        players = view.get("players", [])
        viewer = view.get("viewer")
        if viewer is not None:
            self._me = viewer
        me = self._me if players else 0
        legal = _legal_sets(list(c.legal) if viewer is not None else [])
        if self._armed and self._armed[0] == "joker" and not legal["joker"]:
            self._armed = None
        if self._armed and self._armed[0] == "place" and not any(x[0] == self._armed[1] for x in legal["place"]):
            self._armed = None
        armed = self._armed
        selected = list(view.get("selected") or ())
        to_act = view.get("to_act") or []
        last = self._last_pile(c.events)
        scene: dict[str, Any] = {
            "T": {key: STRINGS[key][1 if lang == "ja" else 0] for key in TEXTS},
            "me": me,
            "v": int(viewer is not None),
            "order": [(me + k) % len(players) for k in range(1, len(players))] if players else [],
            "msg": self._message,
        }
        scene["sh"], scene["st"], scene["sf"] = self._status(view, legal, armed, selected, me, viewer)
        recent = self._recent(c.events, players, viewer)
        scene["rc"] = [k for k, _line in recent]
        scene.update((f"e{k}", line) for k, line in recent)
        for p in players:
            self._seat(scene, p, me, viewer, to_act, legal, armed, last)
        # the hand: face-up for the viewer only
        hand = list(view.get("hand") or []) if viewer is not None else []
        my_turn_play = view.get("stage") == "play" and me in to_act and viewer is not None
        cards = []
        for code in hand:
            if code == JOKER:
                enabled, chosen = bool(legal["joker"]), armed is not None and armed[0] == "joker"
            elif code in selected:
                enabled, chosen = code in legal["unselect"], True
            else:
                enabled, chosen = code in legal["select"], False
            cards.append([code, (_ON if enabled else 0) | (_CHOSEN if chosen else 0)
                          | (_DIM if my_turn_play and not enabled else 0)])
        scene["hand"] = cards
        # rule 2: cards received at the end
        received = list(view["to_place"][viewer]) if viewer is not None and view.get("to_place") is not None else []
        scene["recv"] = [[code, (_ON if any(x[0] == code for x in legal["place"]) else 0)
                          | (_CHOSEN if armed == ("place", code) else 0)] for code in received]
        scene["deck"] = view.get("deck_size", 0)
        scene["draw"] = int(legal["draw"])
        scene["end"] = int(legal["end"])
        return scene

    def _seat(self, scene: dict[str, Any], p: dict[str, Any], me: int, viewer: int | None, to_act: list[int],
              legal: dict[str, Any], armed: tuple[str, str] | None, last: tuple[int, str] | None) -> None:
        """One player's place: ``s<seat>`` = [name, the viewer's own (0/1), suit, cards in
        hand, backs drawn, to act (0/1)]; each face card ``f<seat><face>`` = [flags, cards of
        its pile, total] (a key each: a move changes few of them)."""
        seat = p["seat"]
        n = p["hand_size"]
        for pile in p["piles"]:
            face = pile["face"]
            if seat == me:
                enabled = (face in legal["play"] and not armed) or (
                    armed is not None and armed[0] == "place" and (armed[1], face) in legal["place"])
            else:
                enabled = armed is not None and armed[0] == "joker" and (seat, face) in legal["joker"]
            scene[f"f{seat}{face}"] = [(_TARGET if enabled else 0) | (_LAST if last == (seat, face) else 0),
                                       list(pile["cards"]), pile["total"]]
        scene[f"s{seat}"] = [p["name"], int(seat == viewer), p["suit"], n, 0 if seat == viewer else n, int(seat in to_act)]

    def _recent(self, events: list[dict[str, Any]], players: list[dict[str, Any]],
                viewer: int | None) -> list[tuple[int, str]]:
        """What happened since the viewer's last play, with the players' names (the
        viewer's own events: its own draws show its card; others' draws only a count)."""
        if viewer is None:
            return []
        names = [p["name"] for p in players]
        lines: list[tuple[int, str]] = []
        for k in range(len(events) - 1, -1, -1):
            e = events[k]
            kind = e.get("type")
            if kind in ("play", "pass", "joker", "place") and e.get("seat") == viewer and lines:
                break
            if kind in ("select", "unselect"):
                continue
            lines.append((k, describe_event(e, self.lang, names)))
            if len(lines) >= self.RECENT:
                break
        return lines[::-1]

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

    def _status(self, view: dict[str, Any], legal: dict[str, Any], armed: tuple[str, str] | None,
                selected: list[str], me: int, viewer: int | None) -> list[Any]:
        """The status line: whose turn (bold) or 0, [what to do...], final turn (bold) or 0
        (``sh``, ``st``, ``sf``)."""
        players = view.get("players", [])
        names = [p["name"] for p in players]
        stage = view.get("stage")
        to_act = view.get("to_act") or []
        texts: list[Any]
        if stage == "over" or not players:
            texts = [_txt("ui_over")]
        elif viewer is not None and me in to_act and any(legal[k] for k in legal):
            if stage == "draw":
                texts = [_txt("ui_your_draw")]
            elif stage == "place":
                texts = [_txt("ui_place_armed", card=DISPLAY[armed[1]]) if armed and armed[0] == "place"
                         else _txt("ui_place")]
            elif armed and armed[0] == "joker":
                texts = [_txt("ui_joker_armed")]
            elif selected:
                total = sum(value(c) for c in selected)
                texts = [_txt("ui_selected", cards=" ".join(DISPLAY[c] for c in selected), total=total)]
            else:
                texts = [_txt("ui_your_play")] + ([_txt("ui_joker_hint")] if legal["joker"] else [])
        else:
            who = to_act[0] if to_act else view.get("turn", 0)
            name = names[who] if 0 <= who < len(names) else "?"
            texts = [_txt("ui_cpu_playing" if getattr(self.controller, "cpu_busy", False) else "ui_waiting", name=name)]
        turn = view.get("turn", 0)
        head = _txt("ui_turn_of", name=names[turn]) if stage not in ("over", "place") and 0 <= turn < len(names) else 0
        final = _txt("ui_final_turn") if view.get("last_turn") and stage == "play" else 0
        return [head, texts, final]
