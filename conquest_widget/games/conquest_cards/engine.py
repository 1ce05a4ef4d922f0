"""The Conquest card game on the shared match protocol.

A turn is ``Draw``, then card-by-card ``Select``/``Unselect`` and ``PlayOn`` one of your
face cards (or ``EndTurn`` to play nothing, or ``Joker`` on an opponent's face card under
optional rule 3).  Under optional rule 2 the game ends with ``Place`` actions for cards
received from revealed hands.

    >>> from conquest_widget.games.conquest_cards.setup import CardsSetup, Position
    >>> pos = Position(hands=(("7S", "9S"), ("AH", "2H")), piles=(((), (), ()), ((), (), ())),
    ...                deck=None)
    >>> m = ConquestCards(CardsSetup.quick(2, suits=("S", "H"), position=pos), seed=1)
    >>> m.to_act(), [str(a) for a in m.legal_actions(0)]
    ((0,), ['draw'])
    >>> m.apply(Draw(), 0)
    >>> m.apply(Select("7S"), 0)
    >>> [str(a) for a in m.legal_actions(0) if a.kind == "select"]
    ['select 9S']
    >>> m.apply(PlayOn("K"), 0)
    >>> m.view(1)["players"][0]["piles"][2]
    {'face': 'K', 'cards': ['7S'], 'total': 7, 'aces': 0}
    >>> m.explain(1, Select("7S")).reason
    'draw_first'
    >>> m.apply(Draw(), 1); m.apply(Select("AH"), 1)
    >>> print(m.explain(1, Select("7S")))
    7♠ is not in your hand

The hand of another seat never appears in a view:

    >>> "hand" in m.view(None), len(m.view(0)["hand"]), m.view(0)["players"][1]["hand_size"]
    (False, 2, 3)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE, Action, ActionCodec, Outcome
from conquest_widget.errors import IllegalActionError, SetupError

from .cards import (
    DISPLAY,
    FACES,
    JOKER,
    RANK,
    SUIT,
    SUITS,
    deck_cards,
    face_cards,
    number_cards,
    sort_cards,
)
from .scoring import pile_stats, score, suit_owner
from .setup import CardsSetup, PlayerSeat, Position
from .spec import SPEC
from .text import t

codec = ActionCodec("conquest_cards")


@codec.register
@dataclass(frozen=True)
class Draw(Action):
    """Draw the top card of the deck (every turn starts with it)."""

    kind: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw"}


@codec.register
@dataclass(frozen=True)
class Select(Action):
    """Add a card of your hand to this turn's play."""

    kind: ClassVar[str] = "select"
    card: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "select", "card": self.card}


@codec.register
@dataclass(frozen=True)
class Unselect(Action):
    """Take a selected card back."""

    kind: ClassVar[str] = "unselect"
    card: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "unselect", "card": self.card}


@codec.register
@dataclass(frozen=True)
class PlayOn(Action):
    """Play the selected cards on your own face card ``face`` (J, Q or K); ends the turn."""

    kind: ClassVar[str] = "play"
    face: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "face": self.face}


@codec.register
@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn without playing (a selection goes back to the hand)."""

    kind: ClassVar[str] = "end"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "end"}


@codec.register
@dataclass(frozen=True)
class Joker(Action):
    """Optional rule 3: play a joker on seat ``target``'s face card ``face``; ends the turn."""

    kind: ClassVar[str] = "joker"
    target: int = 0
    face: str = ""


@codec.register
@dataclass(frozen=True)
class Place(Action):
    """Optional rule 2, at the end: place a received card on one of your own piles."""

    kind: ClassVar[str] = "place"
    card: str = ""
    face: str = ""


_DRAW = Draw()
_END = EndTurn()
_SELECT = {c: Select(c) for c in number_cards()}
_UNSELECT = {c: Unselect(c) for c in number_cards()}
_PLAY = {f: PlayOn(f) for f in FACES}
_FACE_INDEX = {f: i for i, f in enumerate(FACES)}


def _illegal(key: str, reason: str, **kw: Any) -> IllegalActionError:
    return IllegalActionError(t(key, "en", **kw), reason, **kw)


class ConquestCards(Match):
    """One game of Conquest.  ``state`` is a plain dict (see ``_start``); the deck list
    has its top card last."""

    spec = SPEC
    codec = codec
    setup_class = CardsSetup

    # ------------------------------------------------------------ setup
    def _start(self) -> None:
        setup: CardsSetup = self.setup
        n = setup.n
        if setup.suits is None:
            suits = self.chance.shuffle(list(SUITS), kind="suits")[:n]
        else:
            suits = list(setup.suits)
        pos = setup.position
        hands: list[list[str]] = [[] for _ in range(n)]
        piles: list[list[list[str]]] = [[[], [], []] for _ in range(n)]
        if pos is None:
            order = self.chance.shuffle(deck_cards(setup.jokers), kind="shuffle")
            k = 0
            for _ in range(2):
                for s in range(n):
                    hands[s].append(order[k])
                    k += 1
            deck = order[k:][::-1]
            starter = next(suits.index(s) for s in SUITS if s in suits)
            stage, turns_played = "draw", 0
        else:
            hands = [list(h) for h in pos.hands]
            piles = [[list(x) for x in p] for p in pos.piles]
            if pos.deck is None:
                rest = list(deck_cards(setup.jokers))
                for c in pos.all_cards():
                    rest.remove(c)
                deck = self.chance.shuffle(rest, kind="shuffle")[::-1]
            else:
                deck = list(pos.deck)[::-1]
            starter, stage, turns_played = pos.to_act, pos.stage, pos.turns_played
        aside = [c for s in SUITS if s not in suits for c in face_cards(s)]
        if not setup.jokers:
            aside += [JOKER, JOKER]
        self.state: dict[str, Any] = {
            "suits": suits, "hands": hands, "piles": piles, "deck": deck,
            "turn": starter, "stage": stage, "selected": [], "turns_played": turns_played,
            "last_turn": stage == "play" and not deck, "set_aside": aside,
            "revealed": None, "to_place": None, "dead": None, "placer": None, "result": None,
        }
        self.emit({"type": "start", "suits": suits, "starter": starter, "options": setup.options(),
                   "set_aside": aside, "deck_size": len(deck)})
        if pos is None:
            for s in range(n):
                self.emit({"type": "deal", "seat": s, "count": 2, "cards": sort_cards(hands[s])},
                          visible_to=(s,), public={"type": "deal", "seat": s, "count": 2})

    @classmethod
    def random_setup(cls, rng: random.Random, n_players: int) -> CardsSetup:
        """A random valid setup: random options, suits chosen or dealt by chance."""
        suits = None if rng.random() < 0.5 else tuple(rng.sample(SUITS, n_players))
        return CardsSetup(tuple(PlayerSeat(f"Player {i + 1}") for i in range(n_players)), suits,
                          rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5)

    # ------------------------------------------------------------ queries
    def to_act(self) -> tuple[int, ...]:
        st = self.state
        stage = st["stage"]
        if stage == "over":
            return ()
        if stage == "place":
            return (st["placer"],)
        return (st["turn"],)

    def outcome(self) -> Outcome | None:
        res = self.state["result"]
        if res is None:
            return None
        reason = "shared_win" if res["decided_by"] == "shared" else f"decided_by_{res['decided_by']}"
        return Outcome(ranks=tuple(res["ranks"]), reason=reason, details=json.loads(json.dumps(res)))

    def _legal_actions(self, seat: int) -> list[Action]:
        st = self.state
        stage = st["stage"]
        if stage == "over" or seat not in self.to_act():
            return []
        if stage == "draw":
            return [_DRAW]
        if stage == "place":
            return [Place(c, f) for c in dict.fromkeys(st["to_place"][seat]) for f in FACES]
        hand = st["hands"][seat]
        sel = st["selected"]
        out: list[Action] = []
        if not sel:
            out.extend(_SELECT[c] for c in sort_cards(hand) if c != JOKER)
            if JOKER in hand:
                out.extend(Joker(o, f) for o in range(len(st["suits"])) if o != seat for f in FACES)
        else:
            out.extend(_SELECT[c] for c in sort_cards(hand) if c not in sel and self._fits(sel, c))
            out.extend(_UNSELECT[c] for c in sel)
            out.extend(_PLAY.values())
        out.append(_END)
        return out

    @staticmethod
    def _fits(sel: list[str], card: str) -> bool:
        if card == JOKER:
            return False
        first = sel[0]
        if len(sel) == 1:
            return SUIT[card] == SUIT[first] or RANK[card] == RANK[first]
        if SUIT[sel[1]] == SUIT[first]:
            return SUIT[card] == SUIT[first]
        return RANK[card] == RANK[first]

    # ------------------------------------------------------------ explanations
    def _explain(self, seat: int, action: Action) -> IllegalActionError | None:
        st = self.state
        stage = st["stage"]
        kind = action.kind
        if stage == "draw":
            if kind == "draw":
                return None
            if kind in ("select", "unselect", "play", "end", "joker"):
                return _illegal("draw_first", "draw_first")
            return _illegal("not_now", "not_now", stage=stage)
        if stage == "place":
            if kind != "place":
                return _illegal("placing_now", "placing_now")
            assert isinstance(action, Place)
            if not isinstance(action.face, str) or action.face not in _FACE_INDEX:
                return _illegal("not_a_face", "not_a_face", face=str(action.face)[:10])
            if not isinstance(action.card, str) or action.card not in st["to_place"][seat]:
                return _illegal("not_received", "not_received", card=_show(str(action.card)))
            return None
        # stage == "play"
        hand = st["hands"][seat]
        sel = st["selected"]
        if kind == "draw":
            return _illegal("already_drew", "already_drew")
        if kind == "end":
            return None
        if kind == "select":
            assert isinstance(action, Select)
            card = action.card
            if not isinstance(card, str) or card not in RANK:
                return _illegal_card(card)
            if card == JOKER:
                return _illegal("joker_not_selectable", "joker_not_selectable")
            if card not in hand:
                return _illegal("not_in_hand", "not_in_hand", card=_show(card))
            if card in sel:
                return _illegal("already_selected", "already_selected", card=_show(card))
            if sel and not self._fits(sel, card):
                if len(sel) == 1:
                    return _illegal("no_match", "no_match", a=DISPLAY[sel[0]], b=DISPLAY[card])
                return _illegal("group_broken", "group_broken", card=DISPLAY[card], cards=" ".join(DISPLAY[c] for c in sel))
            return None
        if kind == "unselect":
            assert isinstance(action, Unselect)
            if not isinstance(action.card, str) or action.card not in sel:
                return _illegal("not_selected", "not_selected", card=_show(str(action.card)))
            return None
        if kind == "play":
            assert isinstance(action, PlayOn)
            if not isinstance(action.face, str) or action.face not in _FACE_INDEX:
                return _illegal("not_a_face", "not_a_face", face=str(action.face)[:10])
            if not sel:
                return _illegal("nothing_selected", "nothing_selected")
            return None
        if kind == "joker":
            assert isinstance(action, Joker)
            if not self.setup.jokers:
                return _illegal("no_jokers_rule", "no_jokers_rule")
            if not isinstance(action.target, int) or isinstance(action.target, bool) or not 0 <= action.target < self.n_seats:
                return _illegal("no_such_opponent", "no_such_opponent", target=str(action.target)[:10])
            if action.target == seat:
                return _illegal("joker_own_pile", "joker_own_pile")
            if not isinstance(action.face, str) or action.face not in _FACE_INDEX:
                return _illegal("not_a_face", "not_a_face", face=str(action.face)[:10])
            if JOKER not in hand:
                return _illegal("no_joker_in_hand", "no_joker_in_hand")
            if sel:
                return _illegal("joker_instead", "joker_instead")
            return None
        return _illegal("not_now", "not_now", stage=stage)

    # ------------------------------------------------------------ changes
    def _apply(self, action: Action, seat: int) -> None:
        st = self.state
        kind = action.kind
        if kind == "draw":
            card = st["deck"].pop()
            st["hands"][seat].append(card)
            st["stage"] = "play"
            last = not st["deck"]
            st["last_turn"] = last
            self.emit({"type": "draw", "seat": seat, "card": card, "last": last, "deck_size": len(st["deck"])},
                      visible_to=(seat,), public={"type": "draw", "seat": seat, "last": last, "deck_size": len(st["deck"])})
        elif kind == "select":
            st["selected"].append(action.card)  # type: ignore[attr-defined]
            self.emit({"type": "select", "seat": seat, "card": action.card}, visible_to=(seat,))  # type: ignore[attr-defined]
        elif kind == "unselect":
            st["selected"].remove(action.card)  # type: ignore[attr-defined]
            self.emit({"type": "unselect", "seat": seat, "card": action.card}, visible_to=(seat,))  # type: ignore[attr-defined]
        elif kind == "play":
            f = _FACE_INDEX[action.face]  # type: ignore[attr-defined]
            cards = st["selected"]
            hand = st["hands"][seat]
            for c in cards:
                hand.remove(c)
            st["piles"][seat][f].extend(cards)
            total = self._pile_total(seat, f)
            self.emit({"type": "play", "seat": seat, "face": FACES[f], "cards": list(cards), "total": total})
            st["selected"] = []
            self._end_turn()
        elif kind == "joker":
            target, f = action.target, _FACE_INDEX[action.face]  # type: ignore[attr-defined]
            st["hands"][seat].remove(JOKER)
            st["piles"][target][f].append(JOKER)
            self.emit({"type": "joker", "seat": seat, "target": target, "face": FACES[f],
                       "total": self._pile_total(target, f)})
            self._end_turn()
        elif kind == "end":
            st["selected"] = []
            self.emit({"type": "pass", "seat": seat})
            self._end_turn()
        elif kind == "place":
            card, f = action.card, _FACE_INDEX[action.face]  # type: ignore[attr-defined]
            st["to_place"][seat].remove(card)
            st["piles"][seat][f].append(card)
            self.emit({"type": "place", "seat": seat, "card": card, "face": FACES[f], "total": self._pile_total(seat, f)})
            if not st["to_place"][seat]:
                self._next_placer(seat)

    def _pile_total(self, seat: int, f: int) -> int:
        return pile_stats(self.state["piles"][seat][f], self.state["suits"][seat], self.setup.ace_eleven)[0]

    def _end_turn(self) -> None:
        st = self.state
        st["turns_played"] += 1
        if st["last_turn"]:
            self._finish()
            return
        st["turn"] = (st["turn"] + 1) % len(st["suits"])
        st["stage"] = "draw"

    def _finish(self) -> None:
        """The last card was drawn and its turn finished: reveal (rule 2) or score."""
        st = self.state
        if not self.setup.reveal_hands:
            self._score()
            return
        n = len(st["suits"])
        st["revealed"] = [sort_cards(h) for h in st["hands"]]
        st["to_place"] = [[] for _ in range(n)]
        st["dead"] = []
        for s, hand in enumerate(st["hands"]):
            for c in hand:
                owner = suit_owner(st["suits"], c)
                if owner is None or owner == s:
                    st["dead"].append(c)
                else:
                    st["to_place"][owner].append(c)
            st["hands"][s] = []
        st["to_place"] = [sort_cards(x) for x in st["to_place"]]
        st["dead"] = sort_cards(st["dead"])
        self.emit({"type": "reveal", "hands": st["revealed"], "to_place": st["to_place"], "dead": st["dead"]})
        self._next_placer(st["turn"])

    def _next_placer(self, after: int) -> None:
        st = self.state
        n = len(st["suits"])
        for k in range(1, n + 1):
            s = (after + k) % n
            if st["to_place"][s]:
                st["stage"], st["placer"] = "place", s
                return
        st["placer"] = None
        self._score()

    def _score(self) -> None:
        st = self.state
        stats = [[pile_stats(p, st["suits"][s], self.setup.ace_eleven) for p in st["piles"][s]]
                 for s in range(len(st["suits"]))]
        res = score([[x[0] for x in row] for row in stats], [[x[1] for x in row] for row in stats],
                    [[x[2] > 0 for x in row] for row in stats])
        st["stage"] = "over"
        st["result"] = res
        self.emit({"type": "over", "winners": res["winners"], "points": res["points"], "decided_by": res["decided_by"]})

    # ------------------------------------------------------------ views
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (None = the public), built by inclusion: own hand and
        selection; hand sizes, deck size, every pile; revealed hands under rule 2 at the end."""
        st = self.state
        ace11 = self.setup.ace_eleven
        players = []
        for s, suit in enumerate(st["suits"]):
            piles = []
            for f, face in enumerate(FACES):
                cards = list(st["piles"][s][f])
                total, aces, _ = pile_stats(cards, suit, ace11)
                piles.append({"face": face, "cards": cards, "total": total, "aces": aces})
            players.append({"seat": s, "name": self.setup.players[s].name, "suit": suit,
                            "hand_size": len(st["hands"][s]), "piles": piles})
        v: dict[str, Any] = {
            "game": SPEC.id,
            "viewer": seat,
            "options": self.setup.options(),
            "players": players,
            "deck_size": len(st["deck"]),
            "set_aside": list(st["set_aside"]),
            "stage": st["stage"],
            "turn": st["turn"],
            "to_act": list(self.to_act()),
            "turns_played": st["turns_played"],
            "last_turn": st["last_turn"],
        }
        if seat is not None:
            v["hand"] = sort_cards(st["hands"][seat])
            v["selected"] = list(st["selected"]) if st["turn"] == seat and st["stage"] == "play" else []
        if st["revealed"] is not None:
            v["revealed"] = [list(h) for h in st["revealed"]]
            v["to_place"] = [list(h) for h in st["to_place"]]
            v["dead"] = list(st["dead"])
        if st["result"] is not None:
            v["result"] = json.loads(json.dumps(st["result"]))
        return v

    # ------------------------------------------------------------ hidden information
    def pinned_cards(self, seat: int) -> set[str]:
        """The cards ``seat`` has seen or that the log names: everything that a variant of
        this match for ``seat`` must keep in place."""
        st = self.state
        pinned = set(st["hands"][seat]) | set(st["set_aside"])
        for p in st["piles"]:
            for pile in p:
                pinned.update(pile)
        for h in st["revealed"] or ():
            pinned.update(h)
        for e in self.log:
            if e["seat"] != CHANCE:
                a = e["action"]
                if "card" in a:
                    pinned.add(a["card"])
                if a["type"] == "joker":
                    pinned.add(JOKER)
        return pinned

    def hidden_variant(self, seat: int, rng: random.Random) -> ConquestCards:
        """A match reached by the same actions that differs only in what ``seat`` cannot
        know: the cards ``seat`` has not seen (in other hands and the deck) are permuted
        among their places.  Built by replaying the log with the shuffle changed (and, for
        an editor position, the position's hidden cards)."""
        pinned = self.pinned_cards(seat)
        doc = self.to_dict()
        setup = self.setup
        pos = setup.position
        shuffle_i = next((i for i, e in enumerate(doc["log"]) if e["seat"] == CHANCE and e["kind"] == "shuffle"), None)
        # every hidden place: ("pos-hand", seat, index) of an editor position, ("order", k) of the shuffle
        places: list[tuple[Any, ...]] = []
        cards: list[str] = []
        order: list[str] = []
        canonical: list[str] = []
        if shuffle_i is not None:
            if pos is None:
                canonical = deck_cards(setup.jokers)
            else:
                canonical = list(deck_cards(setup.jokers))
                for c in pos.all_cards():
                    canonical.remove(c)
            order = [canonical[i] for i in doc["log"][shuffle_i]["outcome"]]
            for k, c in enumerate(order):
                if c not in pinned:
                    places.append(("order", k))
                    cards.append(c)
        hands = [list(h) for h in pos.hands] if pos is not None else []
        deck = list(pos.deck) if pos is not None and pos.deck is not None else []
        for s, h in enumerate(hands):
            for k, c in enumerate(h):
                if s != seat and c not in pinned:
                    places.append(("hand", s, k))
                    cards.append(c)
        for k, c in enumerate(deck):
            if c not in pinned:
                places.append(("deck", k))
                cards.append(c)
        rng.shuffle(cards)
        for place, c in zip(places, cards, strict=True):
            if place[0] == "order":
                order[place[1]] = c
            elif place[0] == "hand":
                hands[place[1]][place[2]] = c
            else:
                deck[place[1]] = c
        if pos is not None:
            new_pos = Position(tuple(map(tuple, hands)), pos.piles, None if pos.deck is None else tuple(deck),
                               pos.to_act, pos.stage, pos.turns_played)
            doc["setup"]["position"] = new_pos.to_dict()
            canonical = list(deck_cards(setup.jokers))
            for c in new_pos.all_cards():
                canonical.remove(c)
        if shuffle_i is not None:
            free: dict[str, list[int]] = {}
            for i, c in enumerate(canonical):
                free.setdefault(c, []).append(i)
            doc["log"][shuffle_i]["outcome"] = [free[c].pop(0) for c in order]
        return type(self).from_dict(doc)

    # ------------------------------------------------------------ editor
    @classmethod
    def from_position(cls, setup: CardsSetup, position: Position | dict[str, Any], *, seed: int | None = None) -> ConquestCards:
        """A match starting from an editor position (for tests and teaching); the position
        is part of the setup, so saves and replays reproduce it.

        >>> m = ConquestCards.from_position(CardsSetup.quick(2, suits=("S", "H")),
        ...     {"hands": [["AS"], ["2H"]], "piles": [[[], [], ["10S"]], [[], [], []]]}, seed=3)
        >>> m.view(0)["hand"], m.view(0)["deck_size"]
        (['AS'], 37)
        """
        if isinstance(position, dict):
            position = Position.from_dict(position)
        if not isinstance(position, Position):
            raise SetupError(f"position must be a Position or a dict, got {type(position).__name__}")
        return cls(CardsSetup(setup.players, setup.suits, setup.ace_eleven, setup.reveal_hands, setup.jokers, position),
                   seed=seed)


def _show(card: str) -> str:
    return DISPLAY.get(card, repr(card)[:20])


def _illegal_card(card: str) -> IllegalActionError:
    return _illegal("not_a_card", "not_a_card", card=str(card)[:20])
