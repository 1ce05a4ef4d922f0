"""The Japanese Risk engine on the shared match protocol (issue 14, seed 002).

Hidden ownership: the 47 territory cards are dealt face down into five piles of nine (two
left over); players secretly put their income on their own cards, buy public castles and
secret ninjas, and only show an owner when armies come onto the board, a castle is built,
or the territory is attacked.  Every rule and every interpretation is listed in
``docs/rules_risk.md`` with its test.

    >>> m = JapaneseRisk(RiskSetup(players=("Aki", "Ben")), seed=3)
    >>> m.state["phase"], sorted(m.to_act())
    ('income', [0, 1])
    >>> len(m.view(0)["me"]["cards"]), m.view(0)["players"][1]["territories"]
    (9, 9)
    >>> [t for t in m.view(0)["territories"] if t["owner"] == 1]   # Ben's cards are secret
    []
    >>> m.apply(Place(m.view(0)["me"]["cards"][0], 9), 0)
    >>> m.to_act()
    (1,)

A seat's knowledge travels only through :meth:`JapaneseRisk.view` and
:meth:`~conquest_widget.core.match.Match.events_for`; :func:`export_for_seat` packs both
into a document ("what player 2 knows").
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from conquest_widget.core.match import Match
from conquest_widget.core.protocol import Action, ActionCodec, Outcome
from conquest_widget.errors import IllegalActionError, SetupError
from conquest_widget.maps.japan.board import japan

from . import variant
from .spec import SPEC

__all__ = [
    "ADJ",
    "CASTLE_COST",
    "CODES",
    "CPU_LEVELS",
    "HUMAN",
    "NEUTRAL",
    "NINJA_COST",
    "PILES",
    "PILE_SIZE",
    "RULES",
    "SEA",
    "Attack",
    "BuildCastle",
    "BuyNinja",
    "Commit",
    "Deploy",
    "EndTurn",
    "Hold",
    "JapaneseRisk",
    "Launch",
    "Move",
    "NinjaMove",
    "Place",
    "RiskPlayer",
    "RiskSetup",
    "Strike",
    "export_for_seat",
]

#: owner value of a neutral territory
NEUTRAL = -1
CODES = tuple(range(1, 48))
_BOARD = japan()
#: ADJ[code] -> neighbours (land borders and sea links)
ADJ: tuple[tuple[int, ...], ...] = _BOARD.adjacency
#: sea links as frozensets {a, b}
SEA = frozenset(frozenset((c.a, c.b)) for c in _BOARD.connections if c.kind == "sea")
CASTLE_COST = 5
NINJA_COST = 3
PILES = 5
PILE_SIZE = 9
MAX_ROUND_LIMIT = 500
#: the rules edition of new games: 2 = placed and reserve ninjas defend (issue 30); 1 = the
#: rules of issue 14 (ninjas never defend), which documents without a ``rules`` field keep
RULES = 2

codec = ActionCodec("japanese_risk")


# ------------------------------------------------------------ actions
class _Optional(Action):
    """An action whose ``optional`` fields are left out of its document while they hold
    their default, so that documents written before the field existed stay byte-identical
    (and replay: an old document without the field reads the default)."""

    optional: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        for f in dataclasses.fields(self):
            if f.name in self.optional and d[f.name] == f.default:
                del d[f.name]
        return d


@codec.register
@dataclass(frozen=True)
class Place(Action):
    """Income: put ``count`` armies secretly on the card of your ``territory``."""
    kind = "place"
    territory: int
    count: int = 1


@codec.register
@dataclass(frozen=True)
class BuildCastle(Action):
    """Income: buy a castle (5 armies) on your ``territory`` (public)."""
    kind = "castle"
    territory: int


@codec.register
@dataclass(frozen=True)
class BuyNinja(Action):
    """Income: buy ``count`` ninjas (3 armies each), kept secretly in reserve."""
    kind = "ninja"
    count: int = 1


@codec.register
@dataclass(frozen=True)
class Deploy(Action):
    """Bring ``count`` armies from the card of your ``territory`` onto the board there."""
    kind = "deploy"
    territory: int
    count: int = 1


@codec.register
@dataclass(frozen=True)
class Move(_Optional):
    """Move ``count`` of your board armies from ``src`` to your adjacent ``dst`` (one move each).
    ``fresh``: how many of them have not moved yet this turn (the rest have moved once);
    None = the once-moved ones go first.

    >>> Move(13, 11, 2).to_dict(), Move(13, 11, 2, fresh=1).to_dict()["fresh"]
    ({'type': 'move', 'src': 13, 'dst': 11, 'count': 2}, 1)
    """
    kind = "move"
    optional = ("fresh",)
    src: int
    dst: int
    count: int = 1
    fresh: int | None = None


@codec.register
@dataclass(frozen=True)
class Attack(_Optional):
    """Send ``count`` armies (or your ninjas on the board, ``ninja=True``) from ``src``
    against the adjacent ``target``; groups gather until :class:`Launch`.  ``fresh`` as
    for :class:`Move` (it matters when the target is handed over without a battle)."""
    kind = "attack"
    optional = ("fresh",)
    src: int
    target: int
    count: int = 1
    ninja: bool = False
    fresh: int | None = None


@codec.register
@dataclass(frozen=True)
class Launch(Action):
    """Start the battle of the gathered attack."""
    kind = "launch"


@codec.register
@dataclass(frozen=True)
class NinjaMove(Action):
    """Move ``count`` of your placed ninjas from ``src`` to an adjacent territory (no battle)."""
    kind = "ninja_move"
    src: int
    dst: int
    count: int = 1


@codec.register
@dataclass(frozen=True)
class EndTurn(Action):
    """End your turn."""
    kind = "end_turn"


@codec.register
@dataclass(frozen=True)
class Commit(_Optional):
    """Defender: bring ``count`` armies from the card of the attacked territory onto the
    board, and ``ninjas`` ninjas from reserve into the battle (they stay on the board)."""
    kind = "commit"
    optional = ("ninjas",)
    count: int
    ninjas: int = 0


@codec.register
@dataclass(frozen=True)
class Strike(Action):
    """Ninja window: send ``count`` ninjas from reserve against ``target`` (secret until the
    window closes; the owner stays hidden)."""
    kind = "strike"
    target: int
    count: int = 1


@codec.register
@dataclass(frozen=True)
class Hold(Action):
    """Ninja window: no strike now."""
    kind = "hold"


# ------------------------------------------------------------ setup
#: the ``bots`` entry of a human seat
HUMAN = "human"
#: the CPU levels a setup may name: the keys of ``bots.BOTS``, in that order (the bots
#: module imports this one, never the other way round; tests/games/japanese_risk/test_bots.py
#: checks that the two agree)
CPU_LEVELS = ("easy", "normal", "hard")


class RiskPlayer(str):
    """A player's name (a plain ``str`` everywhere the engine uses it) that also tells
    who plays the seat: ``bot`` is ``"human"`` or one of :data:`CPU_LEVELS`.  Saves and
    results read ``name``/``cpu``/``bot`` from it.

    >>> p = RiskPlayer("Ben", "hard")
    >>> p, p.name, p.cpu, p.bot, p == "Ben"
    ('Ben', 'Ben', True, 'hard', True)
    """

    bot: str

    def __new__(cls, name: str, bot: str = HUMAN) -> Self:
        obj = super().__new__(cls, name)
        obj.bot = bot
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (RiskPlayer, (str(self), self.bot))

    @property
    def name(self) -> str:
        return str(self)

    @property
    def cpu(self) -> bool:
        return self.bot != HUMAN


@dataclass(frozen=True)
class RiskSetup:
    """A validated Japanese Risk setup.

    ``players``: 2-5 names; ``shogun``: ``"all"`` (more than all other territories,
    neutral ones included) or ``"players"`` (more than the other players' together);
    ``round_limit``: None (off) or the last round, after which most territories wins;
    ``bots``: who plays each seat, ``"human"`` or one of :data:`CPU_LEVELS` (empty =
    all human), so that a reloaded game knows its CPUs; ``rules``: the rules edition
    (:data:`RULES` for new games; a document without the field was written under edition 1,
    in which ninjas never defend, and replays under it).

    >>> RiskSetup.from_dict({"players": ["A", "B", "C"], "round_limit": 10}).round_limit
    10
    >>> s = RiskSetup(players=("Aki", "Ben"), bots=("human", "hard"))
    >>> [p.cpu for p in s.players], RiskSetup.from_dict(s.to_dict()) == s
    ([False, True], True)
    >>> RiskSetup.from_dict({"players": ["A"]})
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SetupError: Japanese Risk needs 2-5 players, got 1
    >>> RiskSetup(players=("A", "B"), bots=("human", "genius"))
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SetupError: bots[1] must be 'human' or a CPU level ('easy', 'normal', 'hard'), got 'genius'
    """

    players: tuple[str, ...]
    shogun: str = "all"
    round_limit: int | None = None
    bots: tuple[str, ...] = ()
    rules: int = RULES

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, (tuple, list)) or not 2 <= len(players) <= 5:
            n = len(players) if isinstance(players, (tuple, list)) else players
            raise SetupError(f"Japanese Risk needs 2-5 players, got {n!r}"[:200])
        for p in players:
            if not isinstance(p, str) or not 1 <= len(p) <= 24 or not p.isprintable():
                raise SetupError(f"a player name must be 1-24 printable characters, got {p!r}"[:200])
        if self.shogun not in ("all", "players"):
            raise SetupError(f"shogun must be 'all' or 'players', got {self.shogun!r}"[:200])
        rl = self.round_limit
        if rl is not None and (not isinstance(rl, int) or isinstance(rl, bool) or not 1 <= rl <= MAX_ROUND_LIMIT):
            raise SetupError(f"round_limit must be None or 1-{MAX_ROUND_LIMIT}, got {rl!r}"[:200])
        bots = self.bots
        if not isinstance(bots, (tuple, list)) or (bots and len(bots) != len(players)):
            raise SetupError(f"bots must list one entry per player ({len(players)}), got {bots!r}"[:200])
        levels = CPU_LEVELS
        for i, b in enumerate(bots):
            if not isinstance(b, str) or (b != HUMAN and b not in levels):
                raise SetupError(f"bots[{i}] must be 'human' or a CPU level {levels}, got {b!r}"[:200])
        if self.rules not in (1, RULES) or isinstance(self.rules, bool):
            raise SetupError(f"rules must be 1 or {RULES}, got {self.rules!r}"[:200])
        bots = tuple(bots) if any(b != HUMAN for b in bots) else ()  # all human: the default
        object.__setattr__(self, "bots", bots)
        object.__setattr__(self, "players", tuple(RiskPlayer(str(p), bots[i] if bots else HUMAN)
                                                  for i, p in enumerate(players)))

    @property
    def humans(self) -> frozenset[int]:
        """The seats played by people."""
        return frozenset(i for i in range(len(self.players)) if not self.bots or self.bots[i] == HUMAN)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"players": [str(p) for p in self.players], "shogun": self.shogun,
                             "round_limit": self.round_limit}
        if self.bots:  # documents of all-human games stay as they were
            d["bots"] = list(self.bots)
        if self.rules != 1:  # a document without the field is an edition-1 game
            d["rules"] = self.rules
        return d

    @classmethod
    def from_dict(cls, data: Any) -> RiskSetup:
        if not isinstance(data, Mapping):
            raise SetupError(f"a setup must be an object, got {type(data).__name__}")
        extra = set(data) - {"players", "shogun", "round_limit", "bots", "rules"}
        if extra:
            raise SetupError(f"unknown setup fields {sorted(extra)}"[:200])
        if "players" not in data:
            raise SetupError("a setup needs players")
        bots = data.get("bots", ())
        if not isinstance(bots, (list, tuple)):
            raise SetupError(f"bots must be a list, got {type(bots).__name__}")
        return cls(players=data["players"], shogun=data.get("shogun", "all"), round_limit=data.get("round_limit"),
                   bots=tuple(bots), rules=data.get("rules", 1))


def _err(msg: str, reason: str, **details: Any) -> IllegalActionError:
    return IllegalActionError(msg, reason, **details)


def _name(code: int) -> str:
    return _BOARD.prefecture(code).name_en


def _valid_code(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 47


# ------------------------------------------------------------ the match
class JapaneseRisk(Match):
    """One match of Japanese Risk (see the module docstring and docs/rules_risk.md)."""

    spec: ClassVar[Any] = SPEC
    codec: ClassVar[ActionCodec] = codec
    setup_class: ClassVar[Any] = RiskSetup

    # ............................................................ set-up
    @classmethod
    def random_setup(cls, rng: random.Random, n_players: int) -> RiskSetup:
        """A random setup for tests and simulations: a round limit of 3-8 rounds so that
        random play ends (documented in docs/rules_risk.md)."""
        return RiskSetup(players=tuple(f"P{i + 1}" for i in range(n_players)),
                         shogun=rng.choice(("all", "players")), round_limit=rng.randint(3, 8))

    def _start(self) -> None:
        n = self.n_seats
        z = [0] * 48
        self.state: dict[str, Any] = {
            "round": 0, "phase": "income", "order": [], "turn_idx": 0,
            "owner": [NEUTRAL] * 48, "card": list(z), "board": list(z),
            "castle": [False] * 48, "wounded": list(z), "revealed": [False] * 48,
            "ninjas": [[] for _ in range(48)],
            "reserve": [0] * n, "bought": [0] * n, "income_left": [0] * n,
            "income_total": [0] * n, "deployed": [0] * n, "castles_bought": [0] * n,
            "fresh": list(z), "half": list(z), "nfresh": list(z), "nhalf": list(z),
            "attacked": [], "pending": None, "battle": None, "window": None,
            "over": None,
        }
        deal = self.chance.shuffle(list(CODES), kind="deal")
        piles = [deal[i * PILE_SIZE:(i + 1) * PILE_SIZE] for i in range(PILES)]
        for seat in range(n):
            for code in piles[seat]:
                self.state["owner"][code] = seat
            self.emit({"type": "dealt", "seat": seat, "cards": sorted(piles[seat]), "n": PILE_SIZE},
                      visible_to=(seat,), public={"type": "dealt", "seat": seat, "n": PILE_SIZE})
        self._new_round()
        self._advance()

    @classmethod
    def from_state(cls, setup: RiskSetup, state: dict[str, Any], seed: int = 0) -> Self:
        """A match that starts from ``state`` (e.g. one drawn by
        :func:`~.resample.resample_hidden`) for simulations: it has no replayable log."""
        m = cls.__new__(cls)
        m.setup = setup
        m.log = []
        m.events = []
        from conquest_widget.core.chance import Chance

        m.chance = Chance(seed, (), log=m.log)
        m.state = copy.deepcopy(state)
        return m

    # ............................................................ helpers
    def _owned(self, seat: int) -> list[int]:
        own = self.state["owner"]
        return [c for c in CODES if own[c] == seat]

    def count(self, seat: int) -> int:
        """Territories owned by ``seat`` (public: income is counted openly)."""
        own = self.state["owner"]
        return sum(1 for c in CODES if own[c] == seat)

    def defending_ninjas(self, t: int) -> int:
        """Placed ninjas that fight for territory ``t`` when it is attacked: its owner's own
        (edition 2; never a neutral territory's, never another player's standing there)."""
        s = self.state
        o = s["owner"][t]
        return s["ninjas"][t].count(o) if o != NEUTRAL and self.setup.rules >= 2 else 0

    def _defenders(self, t: int) -> int:
        return self.state["board"][t] + self.defending_ninjas(t)

    def current(self) -> int | None:
        s = self.state
        if s["phase"] != "turns":
            return None
        return s["order"][s["turn_idx"]]

    def _new_round(self) -> None:
        s = self.state
        s["round"] += 1
        s["wounded"] = [0] * 48  # once-hit armies heal at the next turn round
        order = self._roll_order(list(range(self.n_seats)))
        s["order"] = order
        s["turn_idx"] = 0
        s["phase"] = "income"
        self.emit({"type": "round", "round": s["round"], "order": list(order)})
        for seat in range(self.n_seats):
            inc = self.count(seat)
            s["income_left"][seat] = inc
            s["income_total"][seat] += inc
            self.emit({"type": "income", "seat": seat, "n": inc})

    def _roll_order(self, seats: list[int]) -> list[int]:
        """Turn order by dice (highest first), ties rolled again among the tied."""
        if len(seats) <= 1:
            return seats
        rolls = self.chance.roll(len(seats), kind="order")
        self.emit({"type": "order_roll", "seats": list(seats), "dice": list(rolls)})
        out: list[int] = []
        for v in sorted(set(rolls), reverse=True):
            group = [s for s, r in zip(seats, rolls, strict=True) if r == v]
            out += self._roll_order(group)
        return out

    def _start_turn(self) -> None:
        s = self.state
        p = self.current()
        assert p is not None
        s["attacked"] = []
        s["pending"] = None
        for c in CODES:
            mine = s["owner"][c] == p
            s["fresh"][c] = s["board"][c] - s["wounded"][c] if mine else 0
            s["half"][c] = 0
            s["nfresh"][c] = s["ninjas"][c].count(p)
            s["nhalf"][c] = 0
        self.emit({"type": "turn", "seat": p, "round": s["round"]})
        self._open_window("turn")

    def _open_window(self, trigger: str) -> None:
        s = self.state
        p = self.current()
        start = p if p is not None else 0
        s["window"] = {"queue": [(start + k) % self.n_seats for k in range(self.n_seats)],
                       "decl": [], "strikes": None, "trigger": trigger}

    def _check_shogun(self) -> bool:
        s = self.state
        if s["over"] is not None:
            return True
        counts = [self.count(p) for p in range(self.n_seats)]
        for p, c in enumerate(counts):
            others = (47 - c) if self.setup.shogun == "all" else sum(counts) - c
            if c > others:
                s["over"] = {"reason": "shogun", "winner": p, "counts": counts}
                s["phase"] = "over"
                s["battle"] = None
                s["window"] = None
                s["pending"] = None
                self.emit({"type": "game_over", "reason": "shogun", "winner": p, "counts": counts})
                return True
        return False

    # ............................................................ flow
    def _advance(self) -> None:
        s = self.state
        while s["over"] is None:
            if s["battle"] is not None:
                if self._battle_waits():
                    return
                self._battle_step()
                continue
            w = s["window"]
            if w is not None:
                if w["queue"]:
                    return
                if w["strikes"] is None:
                    w["strikes"] = self._group_strikes(w["decl"])
                if w["strikes"]:
                    target, owners = w["strikes"].pop(0)
                    self.emit({"type": "strike", "territory": target, "n": len(owners)})
                    self._begin_battle(target, 0, list(owners), 0, [], None)
                    continue
                s["window"] = None
                continue
            if s["phase"] == "income":
                if any(s["income_left"]):
                    return
                s["phase"] = "turns"
                s["turn_idx"] = 0
                self._start_turn()
                continue
            return

    def _group_strikes(self, decl: list[list[int]]) -> list[tuple[int, list[int]]]:
        by: dict[int, list[int]] = {}
        for seat, target, count in decl:
            by.setdefault(target, []).extend([seat] * count)
        return [(t, by[t]) for t in sorted(by)]

    # ............................................................ battles
    def _begin_battle(self, target: int, armies: int, ninjas: list[int], sea_armies: int,
                      sea_ninjas: list[int], attacker: int | None, fresh: int = 0, nfresh: int = 0) -> None:
        """``fresh``/``nfresh``: attacking armies/ninjas that set out with two moves (they keep
        one if the territory is handed over without a battle)."""
        s = self.state
        owner = s["owner"][target]
        s["revealed"][target] = True
        ev = {"type": "revealed", "territory": target, "owner": "neutral" if owner == NEUTRAL else owner}
        if self.defending_ninjas(target):  # the owner's placed ninjas there fight (shown by the battle)
            ev["ninjas"] = self.defending_ninjas(target)
        self.emit(ev)
        b = {"target": target, "attacker": attacker, "armies": armies, "ninjas": ninjas,
             "sea_armies": sea_armies, "sea_ninjas": sea_ninjas, "defender": owner,
             "asked": False, "rounds": 0, "preroll": bool(sea_armies or sea_ninjas), "rolled": False,
             "fresh": fresh, "nfresh": nfresh}
        if owner == NEUTRAL:
            if s["board"][target] == 0:
                s["board"][target] = 2
                self.emit({"type": "neutral_armies", "territory": target, "n": 2})
        elif self._defenders(target) == 0 and s["card"][target] == 0:
            if armies and attacker is not None:
                self.emit({"type": "handed_over", "seat": owner, "territory": target})
            else:
                self.emit({"type": "undefended", "seat": owner, "territory": target})
            s["battle"] = b
            self._finish_battle()
            return
        s["battle"] = b

    def _battle_waits(self) -> bool:
        b = self.state["battle"]
        q = b["defender"]
        t = b["target"]
        # a player defender is asked before every round whatever the card holds (Commit(0)
        # when nothing is there), so that whether the question comes tells nobody about the
        # card; only with no army on the board nor on the card is there nothing to ask
        # (the territory is lost: that the card was empty is shown by the loss itself)
        return (q != NEUTRAL and not b["asked"] and self._attackers() > 0
                and (self.state["card"][t] > 0 or self._defenders(t) > 0))

    def _attackers(self) -> int:
        b = self.state["battle"]
        return b["armies"] + len(b["ninjas"])

    def _battle_step(self) -> None:
        s = self.state
        b = s["battle"]
        t = b["target"]
        if self._attackers() == 0 or self._defenders(t) == 0:
            self._finish_battle()
            return
        if b["preroll"]:
            b["preroll"] = False
            b["rolled"] = True
            dice = self.chance.roll(self._defenders(t), kind="sea_defence")
            hits = sum(1 for d in dice if d <= 4)
            self.emit({"type": "preroll", "territory": t, "dice": list(dice), "hits": hits})
            b["asked"] = False  # the defender may answer the pre-roll before the first round
            for _ in range(hits):
                if b["sea_ninjas"]:
                    owner_ = b["sea_ninjas"].pop()
                    b["ninjas"].remove(owner_)
                elif b["sea_armies"]:
                    b["sea_armies"] -= 1
                    b["armies"] -= 1
            return
        att = self.chance.roll(self._attackers(), kind="attack")
        castle = s["castle"][t]
        ndef = self._defenders(t)
        dfn = self.chance.roll(ndef, kind="defence")
        ah = sum(1 for d in att if d <= 3)
        dh = sum(1 for d in dfn if d <= 4)
        if castle:
            hp = max(0, 2 * ndef - s["wounded"][t] - ah)
            left = (hp + 1) // 2
            s["wounded"][t] = hp % 2
        else:
            left = max(0, ndef - ah)
        # hits fall on the armies first, then on the owner's ninjas
        lost_armies = min(s["board"][t], ndef - left)
        s["board"][t] -= lost_armies
        for _ in range(ndef - left - lost_armies):
            s["ninjas"][t].remove(b["defender"])
        for _ in range(dh):
            if b["ninjas"]:
                b["ninjas"].pop()
            elif b["armies"]:
                b["armies"] -= 1
        b["rounds"] += 1
        b["asked"] = False
        self._clip_moves(t)
        ev = {"type": "battle_round", "territory": t, "att": list(att), "dfn": list(dfn), "ah": ah, "dh": dh,
              "attackers": self._attackers(), "defenders": s["board"][t], "wounded": s["wounded"][t]}
        if ndef > s["board"][t] + lost_armies or self.defending_ninjas(t):
            ev["ninjas"] = self.defending_ninjas(t)  # the defending ninjas left
        self.emit(ev)

    def _clip_moves(self, t: int) -> None:
        s = self.state
        movable = max(0, s["board"][t] - s["wounded"][t])
        s["fresh"][t] = min(s["fresh"][t], movable)
        s["half"][t] = min(s["half"][t], movable - s["fresh"][t])

    def _finish_battle(self) -> None:
        s = self.state
        b = s["battle"]
        t = b["target"]
        s["battle"] = None
        won = self._defenders(t) == 0 and self._attackers_of(b) > 0
        if won and b["armies"] > 0 and b["attacker"] is not None:
            old = s["owner"][t]
            s["owner"][t] = b["attacker"]
            s["board"][t] = b["armies"]
            s["card"][t] = 0
            s["wounded"][t] = 0
            s["ninjas"][t].extend(b["ninjas"])
            # an army that fought stops; a hand-over (no battle round, no pre-roll) is no fight:
            # the armies that set out fresh have their second move left
            handed = b["rounds"] == 0 and not b["rolled"]
            s["fresh"][t] = 0
            s["half"][t] = b["fresh"] if handed else 0
            s["nhalf"][t] += b["nfresh"] if handed else 0
            self.emit({"type": "captured", "seat": b["attacker"], "territory": t, "armies": b["armies"],
                       "ninjas": len(b["ninjas"]), "from": "neutral" if old == NEUTRAL else old})
        elif won:
            s["ninjas"][t].extend(b["ninjas"])
            self.emit({"type": "ninjas_won", "territory": t, "ninjas": len(b["ninjas"])})
        else:
            self.emit({"type": "held", "territory": t, "defenders": s["board"][t]})
        if self._check_shogun():
            return
        if b["attacker"] is not None:
            self._open_window("battle")

    @staticmethod
    def _attackers_of(b: dict[str, Any]) -> int:
        return b["armies"] + len(b["ninjas"])

    # ............................................................ protocol
    def to_act(self) -> tuple[int, ...]:
        s = self.state
        if s["over"] is not None:
            return ()
        b = s["battle"]
        if b is not None:
            return (b["defender"],) if self._battle_waits() else ()
        w = s["window"]
        if w is not None:
            return (w["queue"][0],) if w["queue"] else ()
        if s["phase"] == "income":
            return tuple(p for p in range(self.n_seats) if s["income_left"][p] > 0)
        p = self.current()
        return () if p is None else (p,)

    def _mode(self, seat: int) -> str:
        s = self.state
        if s["battle"] is not None:
            return "commit"
        if s["window"] is not None:
            return "window"
        if s["phase"] == "income":
            return "income"
        return "turn"

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        s = self.state
        mode = self._mode(seat)
        out: list[Action] = []
        if mode == "commit":
            t = s["battle"]["target"]
            lo = 1 if self._defenders(t) == 0 else 0
            out = [Commit(n) for n in range(s["card"][t], lo - 1, -1)]  # first: all armies, no ninja
            if self.setup.rules >= 2:
                out += [Commit(n, k) for k in range(1, s["reserve"][seat] + 1) for n in range(s["card"][t], -1, -1)]
            return out
        if mode == "window":
            out.append(Hold())
            if s["reserve"][seat]:
                for c in CODES:
                    if s["owner"][c] != seat:
                        out += [Strike(c, n) for n in range(1, s["reserve"][seat] + 1)]
            return out
        own = self._owned(seat)
        if mode == "income":
            left = s["income_left"][seat]
            for c in own:
                out += [Place(c, n) for n in range(1, left + 1)]
            if left >= CASTLE_COST:
                out += [BuildCastle(c) for c in own if not s["castle"][c]]
            out += [BuyNinja(n) for n in range(1, left // NINJA_COST + 1)]
            return out
        pend = s["pending"]
        owner = s["owner"]
        if pend is None:
            for c in own:
                out += [Deploy(c, n) for n in range(1, s["card"][c] + 1)]
        for c in own if pend is None else []:
            mv = s["fresh"][c] + s["half"][c]
            if mv:
                for d in ADJ[c]:
                    if owner[d] == seat:
                        out += [Move(c, d, n) for n in range(1, mv + 1)]
                        out += [Move(c, d, n, fresh=f) for n, f in self._splits(s["fresh"][c], s["half"][c])]
        for c in CODES:
            mv = (s["fresh"][c] + s["half"][c]) if owner[c] == seat else 0
            nmv = s["nfresh"][c] + s["nhalf"][c]
            if not (mv or nmv):
                continue
            for d in ADJ[c]:
                if owner[d] == seat or d in s["attacked"] or (pend is not None and pend["target"] != d):
                    continue
                out += [Attack(c, d, n) for n in range(1, mv + 1)]
                if mv:
                    out += [Attack(c, d, n, fresh=f) for n, f in self._splits(s["fresh"][c], s["half"][c])]
                out += [Attack(c, d, n, True) for n in range(1, nmv + 1)]
                out += [Attack(c, d, n, True, fresh=f) for n, f in self._splits(s["nfresh"][c], s["nhalf"][c])]
            if nmv and pend is None:
                for d in ADJ[c]:
                    out += [NinjaMove(c, d, n) for n in range(1, nmv + 1)]
        out.append(Launch() if pend is not None else EndTurn())
        return out

    @staticmethod
    def _splits(fresh: int, half: int) -> list[tuple[int, int]]:
        """(count, fresh) choices worth naming: only where fresh and once-moved stand together."""
        if not (fresh and half):
            return []
        return [(n, f) for n in range(1, fresh + half + 1) for f in range(max(0, n - half), min(n, fresh) + 1)]

    def _explain(self, seat: int, action: Action) -> IllegalActionError | None:
        s = self.state
        mode = self._mode(seat)
        expected = {"commit": (Commit,), "window": (Strike, Hold), "income": (Place, BuildCastle, BuyNinja),
                    "turn": (Deploy, Move, Attack, Launch, NinjaMove, EndTurn)}[mode]
        if not isinstance(action, expected):
            return _err(f"{action.kind} is not possible now: expected one of "
                        + ", ".join(c.kind for c in expected), "wrong_phase")
        for f in ("territory", "src", "dst", "target"):
            if hasattr(action, f) and not _valid_code(getattr(action, f)):
                return _err(f"{f} must be a prefecture code 1-47, got {getattr(action, f)!r}", "no_such_territory")
        if hasattr(action, "count"):
            n = action.count
            if not isinstance(n, int) or isinstance(n, bool) or n < (0 if isinstance(action, Commit) else 1):
                return _err(f"count must be a positive integer, got {n!r}", "bad_count")
        if isinstance(action, Attack) and not isinstance(action.ninja, bool):
            return _err(f"ninja must be true or false, got {action.ninja!r}", "bad_flag")
        for f in ("fresh", "ninjas"):
            v = getattr(action, f, None)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                return _err(f"{f} must be a whole number 0 or more, got {v!r}", "bad_count")
        owner = s["owner"]
        if isinstance(action, Commit):
            t = s["battle"]["target"]
            if action.count > s["card"][t]:
                return _err(f"only {s['card'][t]} armies are on the card of {_name(t)}", "too_many", have=s["card"][t])
            if action.ninjas and self.setup.rules < 2:
                return _err("in this game (rules edition 1) ninjas do not defend", "no_ninja_defence")
            if action.ninjas > s["reserve"][seat]:
                return _err(f"you have {s['reserve'][seat]} ninjas in reserve", "too_many", have=s["reserve"][seat])
            if action.count + action.ninjas == 0 and self._defenders(t) == 0:
                return _err(f"{_name(t)} has no defender on the board: bring at least one army", "must_commit")
            return None
        if isinstance(action, Hold):
            return None
        if isinstance(action, Strike):
            if action.count > s["reserve"][seat]:
                return _err(f"you have {s['reserve'][seat]} ninjas in reserve", "too_many", have=s["reserve"][seat])
            if owner[action.target] == seat:
                return _err(f"{_name(action.target)} is yours: ninjas strike others", "own_target")
            return None
        left = s["income_left"][seat]
        if isinstance(action, Place):
            if owner[action.territory] != seat:
                return _err(f"{_name(action.territory)} is not one of your territories", "not_own")
            if action.count > left:
                return _err(f"only {left} armies of income are left", "too_many", have=left)
            return None
        if isinstance(action, BuildCastle):
            if owner[action.territory] != seat:
                return _err(f"{_name(action.territory)} is not one of your territories", "not_own")
            if s["castle"][action.territory]:
                return _err(f"{_name(action.territory)} already has a castle", "has_castle")
            if left < CASTLE_COST:
                return _err(f"a castle costs {CASTLE_COST}; {left} left", "cost", have=left)
            return None
        if isinstance(action, BuyNinja):
            if action.count * NINJA_COST > left:
                return _err(f"{action.count} ninjas cost {action.count * NINJA_COST}; {left} left", "cost", have=left)
            return None
        pend = s["pending"]
        if isinstance(action, EndTurn):
            if pend is not None:
                return _err("launch the gathered attack first (there is no retreat)", "pending_attack")
            return None
        if isinstance(action, Launch):
            if pend is None:
                return _err("no attack has been gathered", "no_attack")
            return None
        if isinstance(action, Deploy):
            if pend is not None:
                return _err("launch the gathered attack first", "pending_attack")
            if owner[action.territory] != seat:
                return _err(f"{_name(action.territory)} is not one of your territories", "not_own")
            if action.count > s["card"][action.territory]:
                have = s["card"][action.territory]
                return _err(f"only {have} armies are on the card of {_name(action.territory)}", "too_many", have=have)
            return None
        src = action.src
        dst = action.target if isinstance(action, Attack) else action.dst
        if dst not in ADJ[src]:
            return _err(f"{_name(src)} and {_name(dst)} are not connected", "not_adjacent")
        if isinstance(action, NinjaMove) or (isinstance(action, Attack) and action.ninja):
            have = s["nfresh"][src] + s["nhalf"][src]
            if action.count > have:
                return _err(f"only {have} of your ninjas in {_name(src)} can still move", "too_many", have=have)
            fk, hk = "nfresh", "nhalf"
        else:
            if owner[src] != seat:
                return _err(f"{_name(src)} is not one of your territories", "not_own")
            have = s["fresh"][src] + s["half"][src]
            if action.count > have:
                return _err(f"only {have} armies in {_name(src)} can still move", "too_many", have=have)
            fk, hk = "fresh", "half"
        fresh = getattr(action, "fresh", None)
        if fresh is not None:
            if fresh > min(action.count, s[fk][src]):
                return _err(f"only {min(action.count, s[fk][src])} of them can be ones that have not moved yet",
                            "too_many_fresh", have=s[fk][src])
            if action.count - fresh > s[hk][src]:
                return _err(f"only {s[hk][src]} in {_name(src)} have moved once", "too_many_moved", have=s[hk][src])
        if isinstance(action, NinjaMove):
            if pend is not None:
                return _err("launch the gathered attack first", "pending_attack")
            return None
        if isinstance(action, Move):
            if pend is not None:
                return _err("launch the gathered attack first", "pending_attack")
            if owner[dst] != seat:
                return _err(f"{_name(dst)} is not yours: moving there is an attack", "not_own")
            return None
        # Attack
        if owner[dst] == seat:
            return _err(f"{_name(dst)} is yours: move there instead", "own_target")
        if dst in s["attacked"]:
            return _err(f"{_name(dst)} was already attacked this turn", "attacked_twice")
        if pend is not None and pend["target"] != dst:
            return _err(f"an attack on {_name(pend['target'])} is being gathered: launch it first", "pending_attack")
        return None

    def _apply(self, action: Action, seat: int) -> None:
        s = self.state
        if isinstance(action, Commit):
            t = s["battle"]["target"]
            s["card"][t] -= action.count
            s["board"][t] += action.count
            s["deployed"][seat] += action.count
            s["battle"]["asked"] = True
            ev = {"type": "committed", "seat": seat, "territory": t, "n": action.count}
            if action.ninjas:  # reserve ninjas join the defence: placed there for good
                s["reserve"][seat] -= action.ninjas
                s["ninjas"][t].extend([seat] * action.ninjas)
                ev["ninjas"] = action.ninjas
            self.emit(ev)
        elif isinstance(action, Hold):
            s["window"]["queue"].pop(0)
        elif isinstance(action, Strike):
            s["window"]["queue"].pop(0)
            s["window"]["decl"].append([seat, action.target, action.count])
            s["reserve"][seat] -= action.count
            self.emit({"type": "strike_declared", "seat": seat, "territory": action.target, "n": action.count},
                      visible_to=(seat,))
        elif isinstance(action, Place):
            s["card"][action.territory] += action.count
            s["income_left"][seat] -= action.count
            self.emit({"type": "placed", "seat": seat, "territory": action.territory, "n": action.count},
                      visible_to=(seat,))
        elif isinstance(action, BuildCastle):
            t = action.territory
            s["castle"][t] = True
            s["revealed"][t] = True
            s["income_left"][seat] -= CASTLE_COST
            s["castles_bought"][seat] += 1
            self.emit({"type": "castle_built", "seat": seat, "territory": t})
        elif isinstance(action, BuyNinja):
            s["reserve"][seat] += action.count
            s["bought"][seat] += action.count
            s["income_left"][seat] -= action.count * NINJA_COST
            self.emit({"type": "ninja_bought", "seat": seat, "n": action.count}, visible_to=(seat,))
        elif isinstance(action, Deploy):
            t = action.territory
            s["card"][t] -= action.count
            s["board"][t] += action.count
            s["fresh"][t] += action.count
            s["deployed"][seat] += action.count
            s["revealed"][t] = True
            self.emit({"type": "deployed", "seat": seat, "territory": t, "n": action.count})
        elif isinstance(action, Move):
            self._take(action.src, action.count, False, dst=action.dst, fresh=action.fresh)
            self.emit({"type": "moved", "seat": seat, "src": action.src, "territory": action.dst, "n": action.count})
            s["revealed"][action.dst] = True
        elif isinstance(action, NinjaMove):
            self._take(action.src, action.count, True, dst=action.dst, seat=seat)
            self.emit({"type": "ninja_moved", "src": action.src, "territory": action.dst, "n": action.count})
        elif isinstance(action, Attack):
            sea = frozenset((action.src, action.target)) in SEA
            fresh = self._take(action.src, action.count, action.ninja, seat=seat, fresh=action.fresh)
            if s["pending"] is None:
                s["pending"] = {"target": action.target, "groups": [], "fresh": 0, "nfresh": 0}
            s["pending"]["nfresh" if action.ninja else "fresh"] += fresh
            s["pending"]["groups"].append([action.src, action.count, sea, action.ninja])
            self.emit({"type": "muster", "seat": seat, "src": action.src, "territory": action.target,
                       "n": action.count, "ninja": action.ninja, "sea": sea,
                       "what": "ninjas" if action.ninja else "armies"})
        elif isinstance(action, Launch):
            pend = s["pending"]
            s["pending"] = None
            t = pend["target"]
            s["attacked"].append(t)
            armies = sum(g[1] for g in pend["groups"] if not g[3])
            ninjas = [seat] * sum(g[1] for g in pend["groups"] if g[3])
            sea_armies = sum(g[1] for g in pend["groups"] if g[2] and not g[3])
            sea_ninjas = [seat] * sum(g[1] for g in pend["groups"] if g[2] and g[3])
            self.emit({"type": "launch", "seat": seat, "territory": t, "armies": armies, "ninjas": len(ninjas),
                       "sea": sea_armies + len(sea_ninjas)})
            self._begin_battle(t, armies, ninjas, sea_armies, sea_ninjas, seat,
                               pend.get("fresh", 0), pend.get("nfresh", 0))
        elif isinstance(action, EndTurn):
            self.emit({"type": "end_turn", "seat": seat})
            self._end_turn()
        self._advance()

    def _take(self, src: int, count: int, ninja: bool, *, dst: int | None = None, seat: int | None = None,
              fresh: int | None = None) -> int:
        """Remove ``count`` movers from ``src``, ``fresh`` of them not yet moved (None:
        once-moved ones first); with ``dst``, they arrive there with one move fewer.
        Returns how many fresh ones went."""
        s = self.state
        fk, hk = ("nfresh", "nhalf") if ninja else ("fresh", "half")
        from_half = min(s[hk][src], count) if fresh is None else count - fresh
        from_fresh = count - from_half
        s[hk][src] -= from_half
        s[fk][src] -= from_fresh
        if ninja:
            for _ in range(count):
                s["ninjas"][src].remove(seat)
            if dst is not None:
                s["ninjas"][dst].extend([seat] * count)
        else:
            s["board"][src] -= count
            if dst is not None:
                s["board"][dst] += count
        if dst is not None:
            s[hk][dst] += from_fresh
        return from_fresh

    def _end_turn(self) -> None:
        s = self.state
        s["turn_idx"] += 1
        s["fresh"] = [0] * 48
        s["half"] = [0] * 48
        s["nfresh"] = [0] * 48
        s["nhalf"] = [0] * 48
        s["attacked"] = []
        if s["turn_idx"] < len(s["order"]):
            self._start_turn()
            return
        if self.setup.round_limit is not None and s["round"] >= self.setup.round_limit:
            counts = [self.count(p) for p in range(self.n_seats)]
            s["over"] = {"reason": "round_limit", "winner": None, "counts": counts}
            s["phase"] = "over"
            self.emit({"type": "game_over", "reason": "round_limit", "counts": counts})
            return
        self._new_round()

    def outcome(self) -> Outcome | None:
        over = self.state["over"]
        if over is None:
            return None
        counts = over["counts"]
        if over["reason"] == "shogun":
            scores = [(1 if p == over["winner"] else 0, c) for p, c in enumerate(counts)]
            return Outcome.from_scores(scores, "shogun", winner=over["winner"], territories=counts)
        return Outcome.from_scores(list(counts), "round_limit", territories=counts)

    # ............................................................ information
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, built from scratch by inclusion (None = the public)."""
        s = self.state
        n = self.n_seats
        cur = self.current()
        terr = []
        for c in CODES:
            o = s["owner"][c]
            if s["revealed"][c]:
                shown: Any = "neutral" if o == NEUTRAL else o
            elif seat is not None and o == seat:
                shown = o
            else:
                shown = None
            terr.append({"code": c, "owner": shown, "revealed": s["revealed"][c],
                         "armies": s["board"][c], "castle": s["castle"][c],
                         "wounded": s["wounded"][c], "ninjas": len(s["ninjas"][c])})
        players = []
        for p in range(n):
            players.append({
                "seat": p, "name": str(self.setup.players[p]), "territories": self.count(p),
                "castles": s["castles_bought"][p], "income_total": s["income_total"][p],
                "deployed": s["deployed"][p],
                # armies on cards + 3 per ninja ever bought + unspent income: public arithmetic
                "hidden_pool": s["income_total"][p] - CASTLE_COST * s["castles_bought"][p] - s["deployed"][p],
            })
        v: dict[str, Any] = {
            "game": "japanese_risk", "seat": seat, "round": s["round"], "round_limit": self.setup.round_limit,
            "shogun": self.setup.shogun, "rules": self.setup.rules, "phase": s["phase"], "order": list(s["order"]),
            "current": cur, "to_act": list(self.to_act()), "territories": terr, "players": players,
        }
        if cur is not None:
            v["turn"] = {
                "attacked": list(s["attacked"]),
                "moves": [[c, s["fresh"][c], s["half"][c]] for c in CODES if s["fresh"][c] or s["half"][c]],
                "pending": None if s["pending"] is None else {
                    "target": s["pending"]["target"],
                    "groups": [list(g) for g in s["pending"]["groups"]]},
            }
        b = s["battle"]
        if b is not None:
            v["battle"] = {"target": b["target"], "attacker": b["attacker"], "armies": b["armies"],
                           "ninjas": len(b["ninjas"]), "sea": b["sea_armies"] + len(b["sea_ninjas"]),
                           "preroll": b["preroll"], "rounds": b["rounds"],
                           "defender": "neutral" if b["defender"] == NEUTRAL else b["defender"],
                           "defenders": s["board"][b["target"]], "castle": s["castle"][b["target"]],
                           "defending_ninjas": self.defending_ninjas(b["target"]),
                           "wounded": s["wounded"][b["target"]]}
        w = s["window"]
        if w is not None:
            v["window"] = {"trigger": w["trigger"], "asking": w["queue"][0] if w["queue"] else None,
                           "resolving": w["strikes"] is not None}
        if s["over"] is not None:
            v["over"] = {"reason": s["over"]["reason"], "winner": s["over"]["winner"],
                         "counts": list(s["over"]["counts"])}
        if seat is not None:
            own = self._owned(seat)
            me: dict[str, Any] = {
                "cards": own, "card_armies": [[c, s["card"][c]] for c in own if s["card"][c]],
                "reserve": s["reserve"][seat], "ninjas_bought": s["bought"][seat],
                "ninjas": [[c, s["ninjas"][c].count(seat)] for c in CODES if seat in s["ninjas"][c]],
                "income_left": s["income_left"][seat],
            }
            if cur == seat:
                me["ninja_moves"] = [[c, s["nfresh"][c], s["nhalf"][c]] for c in CODES
                                     if s["nfresh"][c] or s["nhalf"][c]]
            if w is not None:
                me["strikes"] = [[t, k] for p, t, k in w["decl"] if p == seat]
            if b is not None:
                me["battle_ninjas"] = b["ninjas"].count(seat)
            v["me"] = me
        return v

    # ............................................................ hidden variants
    def unknown_to(self, seat: int) -> list[int]:
        """Territories whose owner ``seat`` does not know (not revealed, not its own)."""
        s = self.state
        return [c for c in CODES if not s["revealed"][c] and s["owner"][c] != seat]

    def hidden_variant(self, seat: int, rng: random.Random) -> Self:
        """A match reached by the same public actions that differs only in what ``seat``
        cannot know (the twin of the pair tests): the owners of the cards ``seat`` has never
        seen and the other players' ninja secrets, rewritten in the log by
        :func:`.variant.hidden_variant`.  The engine names the cards that may change hands:
        those unknown to ``seat`` except the targets of a gathered attack or of undisclosed
        strikes (known not to belong to the attacker / striker).  Returns a copy of this
        match when nothing is hidden from ``seat``."""
        s = self.state
        fixed: set[int] = set()
        if s["pending"] is not None:
            fixed.add(s["pending"]["target"])
        if s["window"] is not None:
            fixed.update(t for _, t, _ in s["window"]["decl"])
        cards = [c for c in self.unknown_to(seat) if c not in fixed]
        return variant.hidden_variant(self, seat, rng, cards=cards, ninja_cost=NINJA_COST)


def export_for_seat(match: JapaneseRisk, seat: int) -> dict[str, Any]:
    """A document with only what ``seat`` knows (its view and its events) — "what player 2
    knows", safe to share; the full save stays the player's own file.

    >>> m = JapaneseRisk(RiskSetup(players=("Aki", "Ben")), seed=1)
    >>> doc = export_for_seat(m, 1)
    >>> sorted(doc), doc["seat"], "log" in doc
    (['events', 'game', 'kind', 'seat', 'setup', 'version', 'view'], 1, False)
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < match.n_seats:
        raise IllegalActionError(f"there is no seat {seat!r}", "no_such_seat")
    return {"game": match.spec.id, "version": match.spec.version, "kind": "seat_export", "seat": seat,
            "setup": match.setup.to_dict(), "view": match.view(seat), "events": match.events_for(seat)}
