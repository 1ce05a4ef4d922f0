"""Hidden variants of a Japanese Risk match: the twins of the pair tests (issue 29 moved
them here out of the engine).

A hidden variant of a match for a seat is another match reached by the same public actions
that differs only in what that seat cannot know.  It is built by rewriting the match's log
and replaying it, so it is a real, replayable match:

- the cards of territories whose owner the seat has never seen are permuted (in the
  logged deal) and the other players' secret placements follow their cards;
- the other players' ninja secrets change (:func:`_ninja_variants`): income spent on
  ninjas becomes armies on a card and the other way round (3 armies = 1 ninja, a whole
  purchase or placement, or one ninja traded between a purchase and a placement of the
  same round; both are secret), and an undisclosed strike moves to another player who held
  in that window (so its ninjas, if they survive, belong to someone else).

A rewrite that the same actions and dice cannot replay (a player would strike with ninjas
they no longer have, deploy armies no longer on a card, or be asked to defend where they
had no armies) is dropped; what the replay does not check, the pair tests do.

The engine calls one function, :func:`hidden_variant`, from
:meth:`~.engine.JapaneseRisk.hidden_variant`, telling it which cards may change hands and
what a ninja costs; this module reads the match only through its document
(:meth:`~conquest_widget.core.match.Match.to_dict`), its replay and the state after each
action (owners, card armies, ninja reserves).  It does not import the engine at run time.

    >>> import random
    >>> from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
    >>> m = JapaneseRisk(RiskSetup(players=("Aki", "Ben", "Chi")), seed=5)
    >>> v = m.hidden_variant(0, random.Random(1))
    >>> v.view(0) == m.view(0), v.state["owner"] == m.state["owner"]
    (True, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from conquest_widget.core.protocol import CHANCE
from conquest_widget.errors import IllegalActionError, SerializationError

if TYPE_CHECKING:
    from .engine import JapaneseRisk

__all__ = ["hidden_variant"]

M = TypeVar("M", bound="JapaneseRisk")

#: a match's log (``to_dict()["log"]``): chance entries and actions
Log = list[dict[str, Any]]
#: log index of each action -> (owner, card armies, ninja reserves) right after it
Trajectory = dict[int, tuple[list[int], ...]]
#: a change of ninja secrets: (kind, log index, detail); kinds "to_card" (detail: the card),
#: "to_ninja" (None), "shift" ((placement index, +1 or -1 ninja)), "swap" ((hold index,
#: funding placement index or None))
Op = tuple[str, int, Any]


def hidden_variant(match: M, seat: int, rng: random.Random, *, cards: Sequence[int], ninja_cost: int) -> M:
    """A match reached by the same public actions as ``match`` that differs only in what
    ``seat`` cannot know (see the module docstring): the owners of ``cards`` (the engine's
    list of territories whose owner ``seat`` does not know and that may change hands) are
    permuted, then the other players' ninja secrets (``ninja_cost`` armies a ninja) are
    rewritten.  Returns a replayed copy of ``match`` when nothing can change."""
    doc = match.to_dict()
    log = doc["log"]
    if len(cards) >= 2:
        perm = list(cards)
        rng.shuffle(perm)
        mapping = dict(zip(cards, perm, strict=True))
        for i, e in enumerate(log):
            if e["seat"] == CHANCE and e["kind"] == "deal":
                # outcome[k] = index into CODES of the k-th dealt card
                log[i] = dict(e, outcome=[mapping.get(x + 1, x + 1) - 1 for x in e["outcome"]])
                break
        for e in log:
            if e["seat"] not in (CHANCE, seat) and e["action"]["type"] == "place":
                t = e["action"]["territory"]
                e["action"] = dict(e["action"], territory=mapping.get(t, t))
    base, traj = _replay_recording(match, doc)
    for ninja_log in _ninja_variants(log, traj, seat, match.n_seats, rng, ninja_cost):
        try:
            return type(match).from_dict(dict(doc, log=ninja_log))
        except SerializationError:
            continue
    return base


def _replay_recording(match: M, doc: dict[str, Any]) -> tuple[M, Trajectory]:
    """Replay ``doc`` (a document of ``match``'s game, like ``from_dict``) and record, after
    the action at each log index, (owner, card armies, ninja reserves)."""
    forced = [e["outcome"] for e in doc["log"] if e["seat"] == CHANCE]
    m = type(match)(match.setup, seed=doc["seed"], forced=forced)
    traj: Trajectory = {}
    try:
        for e in doc["log"]:
            if e["seat"] != CHANCE:
                i = len(m.log)
                m.apply(match.codec.from_dict(e["action"]), e["seat"])
                st = m.state
                traj[i] = (list(st["owner"]), list(st["card"]), list(st["reserve"]))
    except IllegalActionError as exc:
        raise SerializationError(f"{match.spec.id}: the log does not replay: {exc}") from None
    if m.log != doc["log"] or m.chance.forced:
        raise SerializationError(f"{match.spec.id}: the log does not reproduce itself on replay")
    return m, traj


def _ninja_variants(log: Log, traj: Trajectory, seat: int, n: int, rng: random.Random,
                    ninja_cost: int) -> list[Log]:
    """Rewritten logs (all chosen changes, half of them, one) with other ninja secrets for
    the players other than ``seat`` (of ``n``).  ``traj`` (from :func:`_replay_recording`)
    rules out changes the replay would refuse anyway: ninjas that are used later, card
    armies that are deployed or committed later, and any change that would empty a card or
    fill an empty one while its owner holds it (an owner with armies on the card is asked to
    defend: the flow would differ, at the end of the log even without a replay error)."""
    ops = _candidates(log, traj, seat, n, rng, ninja_cost)
    if not ops:
        return []
    rng.shuffle(ops)
    chosen = _compatible(log, ops)
    return [_rewrite(log, chosen[:size], ninja_cost)
            for size in sorted({len(chosen), (len(chosen) + 1) // 2, 1}, reverse=True)]


def _candidates(log: Log, traj: Trajectory, seat: int, n: int, rng: random.Random, ninja_cost: int) -> list[Op]:
    """Every change of the other players' ninja secrets that the replay would accept with
    the same flow (see :func:`_ninja_variants`), in log order."""
    later = sorted(traj)

    def span(i: int, t: int, p: int) -> list[int]:
        """Card armies on ``t`` after each action from ``i`` on while ``p`` owns it."""
        out: list[int] = []
        for j in later:
            if j < i:
                continue
            owner, card, _ = traj[j]
            if owner[t] != p:
                a = log[j]["action"]
                if out and log[j]["seat"] == p and a["type"] == "commit":
                    out.append(out[-1] - a["count"])  # the card after p's last commit, before the capture
                break
            out.append(card[t])
        return out

    def reserve_min(i: int, p: int) -> int:
        return min((traj[j][2][p] for j in later if j >= i), default=0)

    # income actions of the other players, per round (a round starts with its order roll)
    rounds: list[list[int]] = [[]]
    for i, e in enumerate(log):
        if e["seat"] == CHANCE:
            if e["kind"] == "order" and (i == 0 or log[i - 1]["seat"] != CHANCE or log[i - 1]["kind"] != "order"):
                rounds.append([])
        elif e["seat"] != seat and e["action"]["type"] in ("place", "ninja"):
            rounds[-1].append(i)
    ops: list[Op] = []
    for idx in rounds:
        for i in idx:
            p, a = log[i]["seat"], log[i]["action"]
            if a["type"] == "ninja":
                if reserve_min(i, p) < a["count"]:
                    continue  # those ninjas strike later
                # a card ``p`` puts armies on this round (no battle before the turns begin)
                cards = [log[j]["action"]["territory"] for j in idx
                         if log[j]["seat"] == p and log[j]["action"]["type"] == "place"
                         and min(span(max(i, j), log[j]["action"]["territory"], p), default=0) >= 1]
                if cards:
                    ops.append(("to_card", i, rng.choice(cards)))
            elif a["count"] % ninja_cost == 0 and min(span(i, a["territory"], p), default=0) > a["count"]:
                # (the card never runs empty: an owner with armies on the card is asked to defend)
                ops.append(("to_ninja", i, None))
        # a purchase and a placement of the same player in the same round trade 3 armies
        # for 1 ninja (both keep a positive count; the income is spent by the same actions)
        for b in idx:
            if log[b]["action"]["type"] != "ninja":
                continue
            p, m = log[b]["seat"], log[b]["action"]["count"]
            for j in idx:
                a = log[j]["action"]
                if log[j]["seat"] != p or a["type"] != "place":
                    continue
                low = min(span(max(b, j), a["territory"], p), default=0)
                if m > 1 and low >= 1 and reserve_min(b, p) >= 1:
                    ops.append(("shift", b, (j, -1)))  # one ninja fewer, 3 armies more
                if a["count"] > ninja_cost and low > ninja_cost:
                    ops.append(("shift", b, (j, 1)))  # one ninja more, 3 armies fewer
    # a player's placements of exactly 3k armies that could have been k ninjas instead
    # (the card never runs empty while they hold it): they fund a strike moved to them
    places: dict[int, list[tuple[int, int]]] = {}
    for idx in rounds:
        for i in idx:
            a = log[i]["action"]
            if a["type"] == "place" and a["count"] % ninja_cost == 0:
                places.setdefault(log[i]["seat"], []).append((i, a["count"]))
    # windows: runs of n consecutive strike/hold answers (one per seat, in window order)
    i = 0
    while i < len(log):
        if log[i]["seat"] != CHANCE and log[i]["action"]["type"] in ("strike", "hold"):
            run = range(i, min(i + n, len(log)))
            for k in run:
                e = log[k]
                if e["seat"] == seat or e["action"]["type"] != "strike":
                    continue
                a = e["action"]
                before = traj[k - 1] if k - 1 in traj else traj[k]
                for j in run:
                    q = log[j]["seat"]
                    if q in (seat, e["seat"]) or log[j]["action"]["type"] != "hold" or before[0][a["target"]] == q:
                        continue
                    if reserve_min(j, q) >= a["count"]:  # q has them and never needs them later
                        ops.append(("swap", k, (j, None)))
                        continue
                    # else one earlier placement of 3k armies by q buys them instead
                    funds = [f for f, c in places.get(q, ()) if f < j and c == ninja_cost * a["count"]
                             and min(span(f, log[f]["action"]["territory"], q), default=0) > c]
                    if funds:
                        ops.append(("swap", k, (j, rng.choice(funds))))
            i += n
        else:
            i += 1
    return ops


def _compatible(log: Log, ops: list[Op]) -> list[Op]:
    """The changes of ``ops``, in order, that can be made together: two never share a log
    entry or a card they take armies from (together they could empty it)."""

    def touches(op: Op) -> tuple[set[int], int | None]:
        """(log entries the change rewrites, the card it takes armies from, if any)."""
        kind, i, x = op
        if kind == "to_card":
            return {i}, None
        if kind == "to_ninja":
            return {i}, log[i]["action"]["territory"]
        if kind == "shift":
            return {i, x[0]}, log[x[0]]["action"]["territory"] if x[1] > 0 else None
        return {i, x[0]} | ({x[1]} if x[1] is not None else set()), \
            None if x[1] is None else log[x[1]]["action"]["territory"]

    chosen: list[Op] = []
    used: set[int] = set()
    drained: set[int] = set()
    for op in ops:
        entries, card = touches(op)
        if entries & used or (card is not None and card in drained):
            continue
        chosen.append(op)
        used |= entries
        if card is not None:
            drained.add(card)
    return chosen


def _rewrite(log: Log, ops: list[Op], ninja_cost: int) -> Log:
    """A copy of ``log`` with the changes ``ops`` made."""
    new = [dict(e) for e in log]
    for kind, i, x in ops:
        a = new[i]["action"]
        if kind == "to_card":
            new[i]["action"] = {"type": "place", "territory": x, "count": ninja_cost * a["count"]}
        elif kind == "to_ninja":
            new[i]["action"] = {"type": "ninja", "count": a["count"] // ninja_cost}
        elif kind == "shift":
            j, d = x
            pl = new[j]["action"]
            new[i]["action"] = dict(a, count=a["count"] + d)
            new[j]["action"] = dict(pl, count=pl["count"] - ninja_cost * d)
        else:
            new[i]["action"], new[x[0]]["action"] = new[x[0]]["action"], a
            if x[1] is not None:
                new[x[1]]["action"] = {"type": "ninja", "count": a["count"]}
    return new
