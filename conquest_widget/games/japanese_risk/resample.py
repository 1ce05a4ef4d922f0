"""Full states consistent with one seat's view (determinization, for CPUs and teaching).

:func:`resample_hidden` takes only ``view(seat)`` and draws everything the seat cannot
see: the owners of territories it has never seen revealed (respecting every player's public
territory count), the other players' card armies (their totals follow from public
arithmetic: income received, castles bought, armies brought onto the board — minus 3 per
ninja, whose number is drawn too), and who owns the ninjas on the board.  The state it
returns gives the same ``view(seat)`` again (tested), and is drawn uniformly over owners,
so it does not favour the true state.

    >>> import random
    >>> from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup
    >>> m = JapaneseRisk(RiskSetup(players=("Aki", "Ben", "Chi")), seed=5)
    >>> v = m.view(0)
    >>> sim = resample_match(v, random.Random(1))
    >>> sim.view(0) == v
    True
    >>> sum(1 for c in range(1, 48) if sim.state["owner"][c] == 1)
    9
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .engine import CODES, NEUTRAL, NINJA_COST, JapaneseRisk, RiskSetup

__all__ = ["resample_hidden", "resample_match", "setup_from_view"]


def setup_from_view(view: Mapping[str, Any]) -> RiskSetup:
    """The match setup as a view shows it (names, Shogun rule, round limit, rules edition)."""
    return RiskSetup(players=tuple(p["name"] for p in view["players"]), shogun=view["shogun"],
                     round_limit=view["round_limit"], rules=view.get("rules", 1))


def _spread(total: int, slots: list[int], rng: random.Random, out: list[int]) -> None:
    """Add ``total`` armies over ``slots`` at random (uniform over the army-by-army choices)."""
    if not slots:
        return
    for _ in range(total):
        out[rng.choice(slots)] += 1


def resample_hidden(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A full engine state (``JapaneseRisk.state``) consistent with ``view`` (a seat's view)."""
    seat = view["seat"]
    if not isinstance(seat, int):
        raise TypeError("resample_hidden needs a seat's view (seat is an int), not the public view")
    n = len(view["players"])
    terr = {t["code"]: t for t in view["territories"]}
    me = view["me"]
    to_act = list(view["to_act"])
    phase = view["phase"]
    owner = [NEUTRAL] * 48
    revealed = [False] * 48
    board = [0] * 48
    castle = [False] * 48
    wounded = [0] * 48
    for c in CODES:
        t = terr[c]
        revealed[c] = bool(t["revealed"])
        board[c] = t["armies"]
        castle[c] = t["castle"]
        wounded[c] = t["wounded"]
        if t["owner"] is not None:
            owner[c] = NEUTRAL if t["owner"] == "neutral" else t["owner"]
    unknown = [c for c in CODES if terr[c]["owner"] is None]
    # owners of the unknown territories: exactly the missing counts, the rest neutral
    slots: list[int] = []
    for p in range(n):
        if p == seat:
            continue
        known = sum(1 for c in CODES if terr[c]["owner"] == p)
        slots += [p] * (view["players"][p]["territories"] - known)
    slots += [NEUTRAL] * (len(unknown) - len(slots))
    rng.shuffle(slots)
    for c, o in zip(unknown, slots, strict=True):
        owner[c] = o
    # ninjas on the board: own ones known, the others owned by someone else
    ninjas: list[list[int]] = [[] for _ in range(48)]
    mine_n = {c: k for c, k in me["ninjas"]}
    others = [p for p in range(n) if p != seat]
    for c in CODES:
        k_own = mine_n.get(c, 0)
        ninjas[c] = [seat] * k_own + [rng.choice(others) for _ in range(terr[c]["ninjas"] - k_own)]
    battle_v = view.get("battle")
    battle_owners: list[int] = []
    if battle_v is not None and battle_v.get("defending_ninjas") and battle_v["defender"] != seat:
        # the defender's own ninjas there fight (the battle shows how many); the rest are others'
        t, q = battle_v["target"], battle_v["defender"]
        k_def = battle_v["defending_ninjas"]
        ninjas[t] = [q] * k_def + [rng.choice([p for p in others if p != q] or [q])
                                   for _ in range(terr[t]["ninjas"] - k_def)]
    if battle_v is not None:
        if battle_v["attacker"] is not None:
            battle_owners = [battle_v["attacker"]] * battle_v["ninjas"]
        else:
            k_own = me.get("battle_ninjas", 0)
            battle_owners = [seat] * k_own + [rng.choice(others) for _ in range(battle_v["ninjas"] - k_own)]
    onboard = [0] * n
    for c in CODES:
        for o in ninjas[c]:
            onboard[o] += 1
    for o in battle_owners:
        onboard[o] += 1
    card = [0] * 48
    for c, k in me["card_armies"]:
        card[c] = k
    reserve = [0] * n
    bought = [0] * n
    income_left = [0] * n
    reserve[seat] = me["reserve"]
    bought[seat] = me["ninjas_bought"]
    income_left[seat] = me["income_left"]
    # a player defender is asked before every round whatever its card holds: the question
    # implies card armies only when no army stands on the board (else nothing would be asked)
    asking = False
    wait_target: int | None = None
    if battle_v is not None:
        asking = battle_v["defender"] != "neutral" and battle_v["defender"] in to_act
        if asking and board[battle_v["target"]] + battle_v.get("defending_ninjas", 0) == 0:
            wait_target = battle_v["target"]
    for p in others:
        pool = view["players"][p]["hidden_pool"]
        if phase == "income" and p in to_act and view.get("battle") is None and view.get("window") is None:
            income_left[p] = rng.randint(1, max(1, min(pool, view["players"][p]["territories"])))
        room = pool - income_left[p] - NINJA_COST * onboard[p]
        if room < 0:  # the drawn ninja owners do not fit this player: give its ninjas to nobody new
            room = max(0, pool - income_left[p])
        max_res = room // NINJA_COST
        reserve[p] = 0 if rng.random() < 0.5 or max_res == 0 else rng.randint(1, max_res)
        bought[p] = reserve[p] + onboard[p]
        cards_total = max(0, pool - income_left[p] - NINJA_COST * bought[p])
        mine = [c for c in CODES if owner[c] == p]
        if wait_target is not None and owner[wait_target] == p and cards_total:
            card[wait_target] += 1
            cards_total -= 1
        _spread(cards_total, mine, rng, card)
    cur = view["current"]
    order = list(view["order"])
    fresh, half = [0] * 48, [0] * 48
    nfresh, nhalf = [0] * 48, [0] * 48
    turn = view.get("turn") or {}
    for c, f, h in turn.get("moves", []):
        fresh[c], half[c] = f, h
    if cur is not None:
        if cur == seat:
            for c, f, h in me.get("ninja_moves", []):
                nfresh[c], nhalf[c] = f, h
        else:
            for c in CODES:
                nfresh[c] = ninjas[c].count(cur)
    pending = turn.get("pending")
    battle = None
    if battle_v is not None:
        sea = battle_v["sea"]
        sea_armies = min(sea, battle_v["armies"])
        battle = {"target": battle_v["target"], "attacker": battle_v["attacker"], "armies": battle_v["armies"],
                  "ninjas": battle_owners, "sea_armies": sea_armies,
                  "sea_ninjas": battle_owners[:sea - sea_armies],
                  "defender": NEUTRAL if battle_v["defender"] == "neutral" else battle_v["defender"],
                  "asked": not asking, "rounds": battle_v["rounds"], "preroll": battle_v["preroll"],
                  "rolled": battle_v["rounds"] > 0 or (sea > 0 and not battle_v["preroll"]), "fresh": 0, "nfresh": 0}
    window = None
    wv = view.get("window")
    if wv is not None:
        queue: list[int] = []
        if wv["asking"] is not None:
            start = cur if cur is not None else 0
            seats = [(start + k) % n for k in range(n)]
            queue = seats[seats.index(wv["asking"]):]
        decl = [[seat, t, k] for t, k in me.get("strikes", [])]
        window = {"queue": queue, "decl": decl, "strikes": [] if wv["resolving"] else None, "trigger": wv["trigger"]}
    over = view.get("over")
    return {
        "round": view["round"], "phase": phase, "order": order,
        "turn_idx": order.index(cur) if cur is not None else 0,
        "owner": owner, "card": card, "board": board, "castle": castle, "wounded": wounded, "revealed": revealed,
        "ninjas": ninjas, "reserve": reserve, "bought": bought, "income_left": income_left,
        "income_total": [p["income_total"] for p in view["players"]],
        "deployed": [p["deployed"] for p in view["players"]],
        "castles_bought": [p["castles"] for p in view["players"]],
        "fresh": fresh, "half": half, "nfresh": nfresh, "nhalf": nhalf,
        "attacked": list(turn.get("attacked", [])),
        "pending": None if pending is None else {"target": pending["target"],
                                                 "groups": [list(g) for g in pending["groups"]],
                                                 "fresh": 0, "nfresh": 0},
        "battle": battle, "window": window,
        "over": None if over is None else dict(over),
    }


def resample_match(view: Mapping[str, Any], rng: random.Random, seed: int | None = None) -> JapaneseRisk:
    """A simulation match from :func:`resample_hidden` (no replayable log)."""
    state = resample_hidden(view, rng)
    return JapaneseRisk.from_state(setup_from_view(view), state, seed=rng.randrange(2**31) if seed is None else seed)

