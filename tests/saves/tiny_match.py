"""A tiny game on the shared Match protocol, outside the registry: the saves must store
any game's match through ``to_dict``/``from_dict`` once it is plugged in (injected here
with ``SaveStore(engines={"tiny_race": TinyRace})``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from conquest_widget.core.match import Match
from conquest_widget.core.protocol import Action, ActionCodec, Outcome
from conquest_widget.core.registry import GameSpec
from conquest_widget.core.safe_text import check_name
from conquest_widget.errors import IllegalActionError, SetupError

SPEC = GameSpec(
    id="tiny_race",
    title={"en": "Tiny race", "ja": "ちいさな競走"},
    blurb={"en": "Roll a die; first to 10 wins.", "ja": "さいころで先に10へ。"},
    players=range(2, 7),
    hidden_information=False,
    version=1,
)
CODEC = ActionCodec("tiny_race")
GOAL = 10


@CODEC.register
@dataclass(frozen=True)
class Go(Action):
    """Roll one die and move that far."""

    kind: ClassVar[str] = "go"


@dataclass(frozen=True)
class Racer:
    name: str
    cpu: bool = False
    bot: str | None = None


@dataclass(frozen=True)
class RaceSetup:
    players: tuple[Racer, ...]

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 6:
            raise SetupError(f"tiny race needs 2-6 players, got {len(self.players)}")

    def to_dict(self) -> dict[str, Any]:
        return {"players": [{"name": p.name, "cpu": p.cpu, "bot": p.bot} for p in self.players]}

    @classmethod
    def from_dict(cls, data: Any) -> RaceSetup:
        if not isinstance(data, dict) or set(data) != {"players"} or not isinstance(data["players"], list):
            raise SetupError("a tiny race setup is {'players': [...]}")
        players = []
        for p in data["players"]:
            if not isinstance(p, dict) or set(p) != {"name", "cpu", "bot"} or not isinstance(p["cpu"], bool):
                raise SetupError(f"bad racer {p!r}"[:100])
            if p["bot"] not in (None, "easy"):
                raise SetupError(f"unknown bot {p['bot']!r}"[:100])
            try:
                players.append(Racer(check_name(p["name"]), p["cpu"], p["bot"]))
            except ValueError as exc:
                raise SetupError(str(exc)) from None
        return cls(tuple(players))


class TinyRace(Match):
    spec = SPEC
    codec = CODEC
    setup_class = RaceSetup

    def _start(self) -> None:
        self.state = {"pos": [0] * len(self.setup.players), "turn": 0}

    def to_act(self) -> tuple[int, ...]:
        return () if self.outcome() else (self.state["turn"],)

    def _legal_actions(self, seat: int) -> list[Action]:
        return [Go()] if seat in self.to_act() else []

    def _explain(self, seat: int, action: Action) -> IllegalActionError | None:
        return None

    def _apply(self, action: Action, seat: int) -> None:
        (face,) = self.chance.roll(1)
        self.state["pos"][seat] += face
        self.state["turn"] = (seat + 1) % len(self.setup.players)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"pos": list(self.state["pos"]), "turn": self.state["turn"]}

    def outcome(self) -> Outcome | None:
        if max(self.state["pos"]) < GOAL:
            return None
        return Outcome(ranks=Outcome.from_scores(list(self.state["pos"])).ranks, reason="goal", details={"scores": list(self.state["pos"])})


def race(n: int = 2, *, finished: bool = False, seed: int = 5) -> TinyRace:
    """A tiny race of ``n`` players (the last one a CPU), played on a little or to the end."""
    players = tuple(Racer(f"R{i + 1}", cpu=i == n - 1, bot="easy" if i == n - 1 else None) for i in range(n))
    m = TinyRace(RaceSetup(players), seed=seed)
    for _ in range(200 if finished else 3):
        if m.is_over:
            break
        m.apply(Go(), m.to_act()[0])
    return m
