"""A tiny hidden-information game for testing the shell without a real game: each seat is
dealt a secret card from 1-10; in seat order each keeps it or swaps it for the next card
of the deck; the highest card wins.  Not registered (tests inject it)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from conquest_widget.core.match import Match
from conquest_widget.core.protocol import Action, ActionCodec, Outcome
from conquest_widget.core.registry import GameSpec
from conquest_widget.errors import IllegalActionError, SetupError

CODEC = ActionCodec("toy")


@CODEC.register
@dataclass(frozen=True)
class Keep(Action):
    kind = "keep"


@CODEC.register
@dataclass(frozen=True)
class Swap(Action):
    kind = "swap"


@dataclass(frozen=True)
class Seat:
    name: str


@dataclass(frozen=True)
class ToySetup:
    players: tuple[Seat, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"players": [p.name for p in self.players]}

    @classmethod
    def from_dict(cls, data: Any) -> ToySetup:
        if not isinstance(data, dict) or not isinstance(data.get("players"), list) or not 2 <= len(data["players"]) <= 3:
            raise SetupError("toy: players must be a list of 2-3 names")
        return cls(tuple(Seat(str(n)) for n in data["players"]))


class Bots:
    class Greedy:
        label = "greedy"

        def choose(self, view, legal, rng):
            return Keep() if view["my_card"] >= 6 else Swap()

    BOTS: ClassVar[dict] = {"greedy": Greedy}
    DEFAULT_BOT = "greedy"


class ToyMatch(Match):
    spec = GameSpec(id="toy", title={"en": "Toy", "ja": "トイ"}, blurb={"en": "", "ja": ""}, players=range(2, 4),
                    hidden_information=True, version=1)
    codec = CODEC
    setup_class = ToySetup

    def _start(self) -> None:
        deck = self.chance.shuffle(list(range(1, 11)))
        n = self.n_seats
        self.state = {"hands": deck[:n], "deck": deck[n:], "turn": 0, "swapped": [False] * n}
        for s in range(n):
            self.emit({"type": "dealt", "seat": s, "card": deck[s]}, visible_to=(s,), public={"type": "dealt", "seat": s})

    def to_act(self):
        return () if self.state["turn"] >= self.n_seats else (self.state["turn"],)

    def _legal_actions(self, seat):
        return [Keep(), Swap()] if seat in self.to_act() else []

    def _explain(self, seat, action):
        return None

    def _apply(self, action, seat):
        st = self.state
        if isinstance(action, Swap):
            st["hands"][seat] = st["deck"].pop(0)
            st["swapped"][seat] = True
            self.emit({"type": "swap", "seat": seat, "card": st["hands"][seat]}, visible_to=(seat,),
                      public={"type": "swap", "seat": seat})
        st["turn"] += 1

    def _view(self, seat):
        st = self.state
        v = {"viewer": seat, "turn": st["turn"], "swapped": list(st["swapped"]), "deck": len(st["deck"])}
        if seat is not None:
            v["my_card"] = st["hands"][seat]
        if self.outcome() is not None:
            v["hands"] = list(st["hands"])
        return v

    def outcome(self):
        if self.state["turn"] < self.n_seats:
            return None
        return Outcome.from_scores(list(self.state["hands"]), "highest_card")

    @classmethod
    def random_setup(cls, rng: random.Random, n: int) -> ToySetup:
        return ToySetup(tuple(Seat(f"P{i + 1}") for i in range(n)))


ToyMatch.spec = GameSpec(**{**ToyMatch.spec.__dict__, "bots": __name__ + ":Bots"})

__all__ = ["IllegalActionError", "Keep", "Seat", "Swap", "ToyMatch", "ToySetup"]
