"""The Codex of Conquest on the shared match protocol.

A turn: trade, roll (number die = territory, colour die = faction or Joker), place (or the
placement is skipped when nothing is legal), trade, end turn.  Players in debt after a
placement sell out of turn (``to_act()`` names the forced seller).  Everything is public.

    >>> m = CodexMatch(CodexSetup.quick(2, k=3), seed=1, forced=[0, [1, 1]])
    >>> m.to_act(), [str(a) for a in m.legal_actions(0)][:2]
    ((0,), ['pick ember', 'pick tide'])
    >>> m.apply(Pick("ember"), 0); m.apply(Pick("tide"), 1)
    >>> m.to_act(), m.view(None)["phase"]              # first player drawn: seat 0
    ((0,), 'trade1')
    >>> m.apply(Roll(), 0)                             # territory 1, ember
    >>> m.apply(Place(1, 2, 2, "ember"), 0)
    >>> m.cash(0), m.prices()                          # income 1,000 + dividend 1,000
    (2000, {'ember': 1000, 'tide': 0, 'grove': 0, 'sun': 0})
    >>> m.explain(0, Buy("ember")) is None, str(m.explain(0, Buy("tide")))
    (True, 'the Tide Covenant is not listed (no piece on the board): its shares cannot be traded')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from conquest_widget.core.match import Match
from conquest_widget.core.protocol import Action, ActionCodec, Outcome
from conquest_widget.errors import IllegalActionError

from .board import EMPTY, Board, grid
from .market import CAUSES, Effects, effects, sale_price, wealth
from .rules import (
    END_GROUP,
    FACTION_COLOURS,
    FACTION_NAMES,
    FACTIONS,
    MAX_PURCHASES,
    PRICE_UNIT,
    SUPPLY,
    faction_of_face,
)
from .setup import CodexPlayer, CodexSetup
from .spec import SPEC
from .text import explain_text, t

__all__ = [
    "Buy",
    "CodexMatch",
    "CodexPlayer",
    "CodexSetup",
    "Edit",
    "EndTurn",
    "ForcedSell",
    "Pick",
    "Place",
    "Roll",
    "Sell",
    "preview",
]

codec = ActionCodec("codex")


@codec.register
@dataclass(frozen=True)
class Pick(Action):
    """Take the free starting share of ``faction`` (start of the game, in seat order)."""

    kind: ClassVar[str] = "pick"
    faction: str


@codec.register
@dataclass(frozen=True)
class Buy(Action):
    """Buy one share of a listed faction at its price (at most 5 a turn, never into debt)."""

    kind: ClassVar[str] = "buy"
    faction: str


@codec.register
@dataclass(frozen=True)
class Sell(Action):
    """Sell one share of a listed faction at half its price."""

    kind: ClassVar[str] = "sell"
    faction: str


@codec.register
@dataclass(frozen=True)
class Roll(Action):
    """Roll the number die and the colour die (ends the first trade step)."""

    kind: ClassVar[str] = "roll"


@codec.register
@dataclass(frozen=True)
class Place(Action):
    """Place a piece of ``faction`` on ``row``/``col`` (1..k) of ``territory`` (1..6)."""

    kind: ClassVar[str] = "place"
    territory: int
    row: int
    col: int
    faction: str


@codec.register
@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn (after the roll and the placement)."""

    kind: ClassVar[str] = "end_turn"


@codec.register
@dataclass(frozen=True)
class ForcedSell(Action):
    """In debt after a placement: sell one share of a listed faction at half its price."""

    kind: ClassVar[str] = "forced_sell"
    faction: str


@codec.register
@dataclass(frozen=True)
class Edit(Action):
    """A position-editor change (only in a match set up with ``editor=True``; logged, so a
    replay reproduces it).  Ops: ``cash`` (seat, value), ``shares`` (seat, faction, value),
    ``pieces`` (faction or "" to clear, plots), ``placed`` (faction, value), ``turn``
    (seat), ``purchases`` (value)."""

    kind: ClassVar[str] = "edit"
    op: str
    seat: int = -1
    faction: str = ""
    value: int = 0
    plots: tuple[int, ...] = ()


EDIT_OPS = ("cash", "shares", "pieces", "placed", "turn", "purchases")
TRADE_PHASES = ("trade1", "trade2")


class CodexMatch(Match):
    """One match of the Codex of Conquest (see the module docstring and docs/rules_codex.md).

    ``state`` keys: ``board`` (:class:`Board`), ``placed`` (pieces placed per faction over
    the game), ``cash``, ``shares`` (``[seat][faction]``), ``eliminated`` (step of elimination
    or None), ``phase`` (start, trade1, place, trade2, forced, over), ``current``, ``turn``,
    ``purchases``, ``dice`` (``(territory, colour face)`` or None), ``forced`` (the queue
    of seats that must sell), ``ledger`` (every cash change with its cause), ``triggers``.
    """

    spec = SPEC
    codec = codec
    setup_class = CodexSetup

    # ------------------------------------------------------------ setup
    @classmethod
    def random_setup(cls, rng: random.Random, n_players: int) -> CodexSetup:
        """A valid random setup (for the conformance suite)."""
        return CodexSetup.quick(n_players, k=rng.choice((2, 3, 4, 5)), starting_cash=rng.choice((0, 0, 3000)))

    def _start(self) -> None:
        n = self.n_seats
        self.state: dict[str, Any] = {
            "board": Board(self.setup.k),
            "placed": [0, 0, 0, 0],
            "cash": [0] * n,
            "shares": [[0, 0, 0, 0] for _ in range(n)],
            "eliminated": [None] * n,
            "phase": "start",
            "current": 0,
            "turn": 0,
            "placements": 0,
            "purchases": 0,
            "dice": None,
            "forced": [],
            "ledger": [],
            "triggers": [],
            "first_player": None,
        }
        if self.setup.starting_cash:
            for s in range(n):
                self._cash(s, self.setup.starting_cash, "start", None)

    # ------------------------------------------------------------ queries
    @property
    def k(self) -> int:
        return self.setup.k

    @property
    def board(self) -> Board:
        """The board (read it, never change it: use actions or the editor)."""
        return self.state["board"]

    def cash(self, seat: int) -> int:
        return self.state["cash"][seat]

    def shares(self, seat: int) -> dict[str, int]:
        return dict(zip(FACTIONS, self.state["shares"][seat], strict=True))

    def prices(self) -> dict[str, int]:
        """Each faction's price: 1,000 x its largest group (0 = unlisted)."""
        b = self.state["board"]
        return {f: PRICE_UNIT * b.largest(i) for i, f in enumerate(FACTIONS)}

    def wealth(self, seat: int) -> int:
        """Cash plus shares at current prices (an eliminated player's is frozen at the
        cash left when eliminated: their shares are forfeited)."""
        return wealth(self.state["cash"][seat], self.state["shares"][seat], list(self.prices().values()))

    def ledger(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Every cash change (``seat``, ``amount``, ``cause``, ``faction``, ``balance``),
        optionally of one seat only; the amounts of a seat sum to its cash."""
        return [dict(e) for e in self.state["ledger"] if seat is None or e["seat"] == seat]

    def active(self) -> list[bool]:
        return [e is None for e in self.state["eliminated"]]

    def to_act(self) -> tuple[int, ...]:
        st = self.state
        ph = st["phase"]
        if ph == "over":
            return ()
        if ph == "forced":
            return (st["forced"][0],)
        return (st["current"],)

    def outcome(self) -> Outcome | None:
        st = self.state
        if st["phase"] != "over":
            return None
        price_list = [PRICE_UNIT * x for x in st["board"].largest_all()]
        scores = []
        breakdown = []
        for s in range(self.n_seats):
            w = wealth(st["cash"][s], st["shares"][s], price_list)
            elim = st["eliminated"][s]
            scores.append((1, w) if elim is None else (0, elim))
            breakdown.append({"seat": s, "cash": st["cash"][s], "wealth": w, "eliminated": elim is not None,
                              "shares": {f: {"count": st["shares"][s][i], "value": st["shares"][s][i] * price_list[i]}
                                         for i, f in enumerate(FACTIONS)}})
        return Outcome.from_scores(scores, reason="+".join(st["triggers"]), wealth=breakdown,
                                   prices=dict(zip(FACTIONS, price_list, strict=True)), triggers=list(st["triggers"]))

    # ------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        st = self.state
        ph = st["phase"]
        if ph == "start":
            return [Pick(f) for f in FACTIONS]
        if ph == "place":
            return self._placements()
        if ph == "forced":
            b = st["board"]
            return [ForcedSell(f) for i, f in enumerate(FACTIONS) if st["shares"][seat][i] and b.largest(i)]
        out: list[Action] = self._trades(seat)
        out.append(Roll() if ph == "trade1" else EndTurn())
        return out

    def _trades(self, seat: int) -> list[Action]:
        st = self.state
        b = st["board"]
        cash, held = st["cash"][seat], st["shares"][seat]
        out: list[Action] = []
        can_buy = st["purchases"] < MAX_PURCHASES
        for i, f in enumerate(FACTIONS):
            big = b.largest(i)
            if big:
                if can_buy and cash >= PRICE_UNIT * big:
                    out.append(Buy(f))
                if held[i]:
                    out.append(Sell(f))
        return out

    def _placements(self) -> list[Action]:
        st = self.state
        b = st["board"]
        territory, face = st["dice"]
        fixed = faction_of_face(face)
        facs = [FACTIONS.index(fixed)] if fixed else range(4)
        out: list[Action] = []
        g = b.g
        for p in b.empty_plots(territory):
            for f in facs:
                if st["placed"][f] < SUPPLY and b.is_legal(p, f):
                    _, r, c = g.locate(p)
                    out.append(Place(territory, r, c, FACTIONS[f]))
        return out

    # ------------------------------------------------------------ explanations
    def _err(self, key: str, **details: Any) -> IllegalActionError:
        """An IllegalActionError whose ``reason`` is the text key and whose ``details`` are
        language-neutral (faction ids, numbers): ``text.explain_text`` renders it in Japanese."""
        return IllegalActionError(explain_text(key, details, "en"), key, **details)

    def _phase_err(self, kind: str) -> IllegalActionError:
        ph = self.state["phase"]
        return self._err("wrong_phase", action=kind, phase=ph)

    def _faction(self, name: Any) -> tuple[int, IllegalActionError | None]:
        if name not in FACTIONS:
            return -1, self._err("unknown_faction", faction=name, factions=", ".join(FACTIONS))
        return FACTIONS.index(name), None

    def _explain(self, seat: int, action: Action) -> IllegalActionError | None:
        st = self.state
        ph = st["phase"]
        if isinstance(action, Edit):
            return self._explain_edit(action)
        if isinstance(action, Pick):
            if ph != "start":
                return self._phase_err("pick")
            return self._faction(action.faction)[1]
        if isinstance(action, Roll):
            if ph in ("place", "trade2"):
                return self._err("already_rolled")
            return None if ph == "trade1" else self._phase_err("roll")
        if isinstance(action, EndTurn):
            if ph == "trade1":
                return self._err("not_rolled")
            if ph == "place":
                return self._err("must_place")
            return None if ph == "trade2" else self._phase_err("end_turn")
        if isinstance(action, Place):
            return self._explain_place(action)
        if isinstance(action, (Buy, Sell, ForcedSell)):
            forced = isinstance(action, ForcedSell)
            if forced and ph != "forced":
                return self._err("not_forced")
            if not forced and ph not in TRADE_PHASES:
                if ph == "place":
                    return self._err("must_place")
                return self._phase_err(action.kind)
            i, err = self._faction(action.faction)
            if err:
                return err
            big = st["board"].largest(i)
            if not big:
                return self._err("unlisted", faction=action.faction)
            if isinstance(action, Buy):
                if st["purchases"] >= MAX_PURCHASES:
                    return self._err("purchase_limit", limit=MAX_PURCHASES)
                price = PRICE_UNIT * big
                if st["cash"][seat] < price:
                    return self._err("cannot_afford", faction=action.faction, price=price, cash=st["cash"][seat])
                return None
            if not st["shares"][seat][i]:
                return self._err("no_shares", faction=action.faction)
            return None
        return IllegalActionError(f"{action!r} is not an action of codex", "not_an_action")  # pragma: no cover

    def _explain_place(self, a: Place) -> IllegalActionError | None:
        st = self.state
        ph = st["phase"]
        if ph == "trade1":
            return self._err("not_rolled")
        if ph != "place":
            return self._phase_err("place")
        f, err = self._faction(a.faction)
        if err:
            return err
        k = self.setup.k
        if not (1 <= a.territory <= 6 and 1 <= a.row <= k and 1 <= a.col <= k):
            return self._err("off_board", territory=a.territory, row=a.row, col=a.col, k=k)
        territory, face = st["dice"]
        if a.territory != territory:
            return self._err("wrong_territory", rolled=territory, territory=a.territory)
        rolled = faction_of_face(face)
        if rolled is not None and rolled != a.faction:
            return self._err("wrong_faction", rolled=rolled, faction=a.faction)
        b = st["board"]
        plot = b.g.plot(a.territory, a.row, a.col)
        if b.cells[plot] != EMPTY:
            return self._err("occupied", faction=FACTIONS[b.cells[plot]])
        if st["placed"][f] >= SUPPLY:
            return self._err("supply_spent", faction=a.faction)
        an = b.analyse(plot, f)
        if not an.legal:
            return self._err("not_larger", size=an.size, enemy=max(an.enemy_sizes))
        return None

    # ------------------------------------------------------------ applying
    def _apply(self, action: Action, seat: int) -> None:
        st = self.state
        if isinstance(action, Edit):
            self._do_edit(action)
        elif isinstance(action, Pick):
            st["shares"][seat][FACTIONS.index(action.faction)] += 1
            self.emit({"type": "pick", "seat": seat, "faction": action.faction})
            if seat + 1 < self.n_seats:
                st["current"] = seat + 1
            else:
                first = self.chance.choice(self.n_seats, kind="first_player")
                st["first_player"] = first
                self.emit({"type": "first_player", "seat": first})
                st["current"] = first
                self._begin_turn()
        elif isinstance(action, Buy):
            i = FACTIONS.index(action.faction)
            price = PRICE_UNIT * st["board"].largest(i)
            st["purchases"] += 1
            st["shares"][seat][i] += 1
            self.emit({"type": "buy", "seat": seat, "faction": action.faction, "price": price})
            self._cash(seat, -price, "buy", i)
        elif isinstance(action, (Sell, ForcedSell)):
            i = FACTIONS.index(action.faction)
            price = sale_price(PRICE_UNIT * st["board"].largest(i))
            st["shares"][seat][i] -= 1
            self.emit({"type": action.kind, "seat": seat, "faction": action.faction, "price": price})
            self._cash(seat, price, action.kind, i)
            if isinstance(action, ForcedSell):
                self._advance_forced()
        elif isinstance(action, Roll):
            territory, face = self.chance.roll(2, kind="dice")
            st["dice"] = (territory, face)
            fac = faction_of_face(face)
            self.emit({"type": "roll", "seat": seat, "territory": territory, "colour": face, "faction": fac})
            st["phase"] = "place"
            if not self._any_placement():
                self.emit({"type": "skip", "seat": seat, "territory": territory, "faction": fac})
                st["phase"] = "trade2"
        elif isinstance(action, Place):
            self._do_place(action, seat)
        elif isinstance(action, EndTurn):
            self._next_turn()

    def _any_placement(self) -> bool:
        st = self.state
        b = st["board"]
        territory, face = st["dice"]
        fixed = faction_of_face(face)
        facs = [FACTIONS.index(fixed)] if fixed else range(4)
        return any(st["placed"][f] < SUPPLY and b.is_legal(p, f) for p in b.empty_plots(territory) for f in facs)

    def _cash(self, seat: int, amount: int, cause: str, faction: int | None) -> None:
        st = self.state
        st["cash"][seat] += amount
        fac = None if faction is None else FACTIONS[faction]
        entry = {"seat": seat, "amount": amount, "cause": cause, "faction": fac, "balance": st["cash"][seat]}
        st["ledger"].append(entry)
        self.emit({"type": "cash", **entry})

    def _begin_turn(self) -> None:
        st = self.state
        st["turn"] += 1
        st["phase"] = "trade1"
        st["purchases"] = 0
        st["dice"] = None
        self.emit({"type": "turn", "seat": st["current"], "turn": st["turn"]})

    def _next_turn(self) -> None:
        st = self.state
        n = self.n_seats
        s = st["current"]
        for _ in range(n):
            s = (s + 1) % n
            if st["eliminated"][s] is None:
                break
        st["current"] = s
        self._begin_turn()

    def effects(self, territory: int, row: int, col: int, faction: str, placer: int | None = None) -> Effects:
        """What placing ``faction`` on a plot would do now (see :func:`market.effects`)."""
        st = self.state
        b = st["board"]
        placer = st["current"] if placer is None else placer
        return effects(b, st["placed"], st["cash"], st["shares"], self.active(), placer,
                       b.g.plot(territory, row, col), FACTIONS.index(faction))

    def _do_place(self, a: Place, seat: int) -> None:
        st = self.state
        b: Board = st["board"]
        f = FACTIONS.index(a.faction)
        plot = b.g.plot(a.territory, a.row, a.col)
        eff = self.effects(a.territory, a.row, a.col, a.faction, seat)
        removed = b.place(plot, f, eff.analysis)
        st["placed"][f] += 1
        st["placements"] += 1
        st["dice"] = None
        self.emit({"type": "place", "seat": seat, "territory": a.territory, "row": a.row, "col": a.col,
                   "plot": plot, "faction": a.faction, "size": eff.analysis.size})
        for rf, plots in removed:
            self.emit({"type": "removed", "faction": FACTIONS[rf], "size": len(plots), "plots": sorted(plots)})
        for i, f_id in enumerate(FACTIONS):
            if eff.before[i] != eff.after[i]:
                self.emit({"type": "price", "faction": f_id, "old": PRICE_UNIT * eff.before[i],
                           "new": PRICE_UNIT * eff.after[i]})
        for s, amount, cause, fi in eff.changes:
            self._cash(s, amount, cause, fi)
        if eff.triggers:
            self._end(eff.triggers)
            return
        st["forced"] = list(eff.forced)
        if st["forced"]:
            st["phase"] = "forced"
            for s in st["forced"]:
                self.emit({"type": "forced", "seat": s, "balance": st["cash"][s]})
            self._advance_forced()
        else:
            st["phase"] = "trade2"

    def _sellable(self, seat: int) -> bool:
        st = self.state
        b = st["board"]
        return any(n and b.largest(i) for i, n in enumerate(st["shares"][seat]))

    def _advance_forced(self) -> None:
        """Move the forced-sale queue on: drop sellers no longer in debt, eliminate those
        in debt with nothing sellable; stop at the first seat that must choose a sale."""
        st = self.state
        q = st["forced"]
        while q:
            s = q[0]
            if st["cash"][s] >= 0:
                q.pop(0)
                continue
            if not self._sellable(s):
                q.pop(0)
                self._eliminate(s)
                continue
            return
        survivors = [s for s in range(self.n_seats) if st["eliminated"][s] is None]
        if len(survivors) <= 1:
            self._end(["last_survivor"])
        elif st["eliminated"][st["current"]] is None:
            st["phase"] = "trade2"
        else:
            self._next_turn()

    def _eliminate(self, seat: int) -> None:
        st = self.state
        st["eliminated"][seat] = st["placements"]
        forfeited = {f: n for f, n in zip(FACTIONS, st["shares"][seat], strict=True) if n}
        st["shares"][seat] = [0, 0, 0, 0]
        self.emit({"type": "eliminated", "seat": seat, "balance": st["cash"][seat], "forfeited": forfeited})

    def _end(self, triggers: list[str]) -> None:
        st = self.state
        st["phase"] = "over"
        st["triggers"] = list(triggers)
        st["dice"] = None
        st["forced"] = []
        out = self.outcome()
        assert out is not None
        self.emit({"type": "end", "triggers": list(triggers), "ranks": list(out.ranks),
                   "wealth": [w["wealth"] for w in out.details["wealth"]]})

    # ------------------------------------------------------------ view
    def _view(self, seat: int | None) -> dict[str, Any]:
        """The public state (everything is public in the Codex), built field by field."""
        st = self.state
        b: Board = st["board"]
        largest = b.largest_all()
        price_list = [PRICE_UNIT * x for x in largest]
        dice = None
        if st["dice"] is not None:
            territory, face = st["dice"]
            dice = {"territory": territory, "colour": face, "faction": faction_of_face(face)}
        return {
            "game": "codex",
            "seat": seat,
            "k": b.k,
            "width": b.g.width,
            "height": b.g.height,
            "phase": st["phase"],
            "current": st["current"],
            "to_act": list(self.to_act()),
            "turn": st["turn"],
            "first_player": st["first_player"],
            "dice": dice,
            "purchases": st["purchases"],
            "purchases_left": MAX_PURCHASES - st["purchases"],
            "board": [None if c == EMPTY else FACTIONS[c] for c in b.cells],
            "factions": [
                {"id": f, "name": {"en": FACTION_NAMES[f][0], "ja": FACTION_NAMES[f][1]}, "colour": FACTION_COLOURS[f],
                 "largest": largest[i], "price": price_list[i], "listed": largest[i] > 0,
                 "placed": st["placed"][i], "supply_left": SUPPLY - st["placed"][i],
                 "on_board": b.on_board(i), "groups": b.group_sizes(i)}
                for i, f in enumerate(FACTIONS)
            ],
            "players": [
                {"seat": s, "name": p.name, "colour": p.colour, "cash": st["cash"][s],
                 "shares": dict(zip(FACTIONS, st["shares"][s], strict=True)),
                 "wealth": wealth(st["cash"][s], st["shares"][s], price_list),
                 "eliminated": st["eliminated"][s] is not None}
                for s, p in enumerate(self.setup.players)
            ],
            "forced": list(st["forced"]),
            "triggers": list(st["triggers"]),
            "rules": {"supply": SUPPLY, "end_group": END_GROUP, "max_purchases": MAX_PURCHASES,
                      "price_unit": PRICE_UNIT, "starting_cash": self.setup.starting_cash},
        }

    def preview(self, territory: int, row: int, col: int, faction: str) -> dict[str, Any]:
        """What a placement would do now: see :func:`preview`."""
        return preview(self.view(None), territory, row, col, faction)

    # ------------------------------------------------------------ editor
    def _edit(self, **kw: Any) -> None:
        self.apply(Edit(**kw), self.to_act()[0] if self.to_act() else 0)

    def edit_cash(self, seat: int, value: int) -> None:
        """Editor: set a seat's cash (the ledger records the difference as ``edit``)."""
        self._edit(op="cash", seat=seat, value=value)

    def edit_shares(self, seat: int, faction: str, value: int) -> None:
        """Editor: set how many shares of ``faction`` a seat holds."""
        self._edit(op="shares", seat=seat, faction=faction, value=value)

    def edit_pieces(self, faction: str | None, plots: Iterable[int | tuple[int, int, int]]) -> None:
        """Editor: put pieces of ``faction`` (None = clear) on plots given as plot ids or
        ``(territory, row, col)``; pieces placed count towards the faction's 20."""
        g = grid(self.setup.k)
        ids = []
        for p in plots:
            if isinstance(p, tuple):
                try:
                    p = g.plot(*p)
                except (TypeError, ValueError) as exc:
                    raise IllegalActionError(t("bad_edit", problem=str(exc)), "bad_edit") from None
            ids.append(p)
        self._edit(op="pieces", faction=faction or "", plots=tuple(ids))

    def edit_placed(self, faction: str, value: int) -> None:
        """Editor: set how many pieces of ``faction`` were placed over the game."""
        self._edit(op="placed", faction=faction, value=value)

    def edit_turn(self, seat: int) -> None:
        """Editor: make it ``seat``'s turn, before the roll, with no purchase made."""
        self._edit(op="turn", seat=seat)

    def edit_purchases(self, value: int) -> None:
        """Editor: set the purchases made this turn."""
        self._edit(op="purchases", value=value)

    def _explain_edit(self, a: Edit) -> IllegalActionError | None:
        st = self.state
        if not self.setup.editor:
            return self._err("editor_off")
        if st["phase"] not in TRADE_PHASES:
            return self._err("bad_edit", problem=f"the editor works in the trade steps, not during {st['phase']}")

        def bad(problem: str) -> IllegalActionError:
            return self._err("bad_edit", problem=problem)

        if a.op not in EDIT_OPS:
            return bad(f"unknown operation {a.op!r} (one of {', '.join(EDIT_OPS)})")
        n = self.n_seats
        if a.op in ("cash", "shares", "turn") and not 0 <= a.seat < n:
            return bad(f"no seat {a.seat}")
        if a.op in ("shares", "placed") and a.faction not in FACTIONS:
            return bad(f"unknown faction {a.faction!r}")
        if a.op == "cash" and abs(a.value) > 10**9:
            return bad("cash out of range")
        if a.op == "shares" and not 0 <= a.value <= 10_000:
            return bad("shares must be 0-10000")
        if a.op == "purchases" and not 0 <= a.value <= MAX_PURCHASES:
            return bad(f"purchases must be 0-{MAX_PURCHASES}")
        if a.op == "turn" and st["eliminated"][a.seat] is not None:
            return bad(f"seat {a.seat} is eliminated")
        b: Board = st["board"]
        if a.op == "placed":
            i = FACTIONS.index(a.faction)
            if not b.on_board(i) <= a.value < SUPPLY:
                return bad(f"placed must be between the pieces on the board ({b.on_board(i)}) and {SUPPLY - 1}")
        if a.op == "pieces":
            if a.faction not in ("", *FACTIONS):
                return bad(f"unknown faction {a.faction!r}")
            if any(not 0 <= p < b.g.n for p in a.plots):
                return bad(f"plots must be 0-{b.g.n - 1}")
            cells = b.cells[:]
            for p in a.plots:
                cells[p] = EMPTY if not a.faction else FACTIONS.index(a.faction)
            nb = Board.from_cells(b.k, cells)
            mixed = nb.mixed_neighbours()
            if mixed:
                return bad(f"plots {mixed[0][0]} and {mixed[0][1]} would be adjacent with different factions")
            for i in range(4):
                if nb.largest(i) >= END_GROUP:
                    return bad(f"a group of {END_GROUP} would end the game")
                if max(st["placed"][i], nb.on_board(i)) >= SUPPLY:
                    return bad(f"{SUPPLY} placed pieces would end the game")
        return None

    def _do_edit(self, a: Edit) -> None:
        st = self.state
        if a.op == "cash":
            self._cash(a.seat, a.value - st["cash"][a.seat], "edit", None)
        elif a.op == "shares":
            st["shares"][a.seat][FACTIONS.index(a.faction)] = a.value
        elif a.op == "placed":
            st["placed"][FACTIONS.index(a.faction)] = a.value
        elif a.op == "purchases":
            st["purchases"] = a.value
        elif a.op == "turn":
            st["current"] = a.seat
            st["turn"] -= 1
            self._begin_turn()
        elif a.op == "pieces":
            b: Board = st["board"]
            cells = b.cells[:]
            for p in a.plots:
                cells[p] = EMPTY if not a.faction else FACTIONS.index(a.faction)
            b.set_cells(cells)
            for i in range(4):
                st["placed"][i] = max(st["placed"][i], b.on_board(i))
        self.emit({"type": "edit", "op": a.op, "seat": a.seat, "faction": a.faction, "value": a.value,
                   "plots": list(a.plots)})


# ---------------------------------------------------------------- from a view
def state_from_view(view: dict[str, Any]) -> tuple[Board, list[int], list[int], list[list[int]], list[bool]]:
    """``(board, placed, cash, shares, active)`` rebuilt from a (public) view, for previews
    and CPU players that see only views."""
    k = view["k"]
    cells = [EMPTY if c is None else FACTIONS.index(c) for c in view["board"]]
    board = Board.from_cells(k, cells)
    placed = [f["placed"] for f in view["factions"]]
    cash = [p["cash"] for p in view["players"]]
    shares = [[p["shares"][f] for f in FACTIONS] for p in view["players"]]
    active = [not p["eliminated"] for p in view["players"]]
    return board, placed, cash, shares, active


def preview(view: dict[str, Any], territory: int, row: int, col: int, faction: str,
            placer: int | None = None) -> dict[str, Any]:
    """What placing ``faction`` on a plot would do, from a view alone (for the widget's
    confirmation panel): legality, the new group, the groups removed, price changes, each
    player's cash change (with causes), who would be forced to sell, end triggers.

    >>> m = CodexMatch(CodexSetup.quick(2, k=2, editor=True), seed=1, forced=[0])
    >>> m.apply(Pick("tide"), 0); m.apply(Pick("tide"), 1)
    >>> m.edit_pieces("tide", [(1, 1, 1)]); m.edit_pieces("ember", [(1, 2, 2)])
    >>> p = preview(m.view(None), 1, 1, 2, "ember")
    >>> p["legal"], p["group"], p["removed"], p["prices"]["tide"]
    (True, 2, [{'faction': 'tide', 'size': 1}], {'old': 1000, 'new': 0})
    >>> p["cash"][1], p["forced"]
    ({'change': -1000, 'balance': -1000, 'items': [{'amount': -1000, 'cause': 'loss', 'faction': 'tide'}]}, [1])
    """
    board, placed, cash, shares, active = state_from_view(view)
    placer = view["current"] if placer is None else placer
    f = FACTIONS.index(faction)
    plot = board.g.plot(territory, row, col)
    eff = effects(board, placed, cash, shares, active, placer, plot, f)
    a = eff.analysis
    per_seat = []
    for s in range(len(cash)):
        items = [{"amount": amt, "cause": c, "faction": FACTIONS[fi]} for seat, amt, c, fi in eff.changes if seat == s]
        per_seat.append({"change": eff.balances[s] - cash[s], "balance": eff.balances[s], "items": items})
    removed = [{"faction": FACTIONS[rf], "size": sz} for rf, sz in zip(a.enemy_factions, a.enemy_sizes, strict=True)]
    return {
        "legal": a.legal,
        "plot": plot,
        "group": a.size,
        "blocking": max((s for s in a.enemy_sizes if s >= a.size), default=None),
        "removed": removed if a.legal else [],
        "prices": {FACTIONS[i]: {"old": PRICE_UNIT * eff.before[i], "new": PRICE_UNIT * eff.after[i]} for i in range(4)},
        "cash": per_seat,
        "forced": list(eff.forced),
        "triggers": list(eff.triggers),
    }


def check_causes(entries: Sequence[dict[str, Any]]) -> bool:
    """True if every ledger entry names a known cause."""
    return all(e["cause"] in CAUSES for e in entries)
