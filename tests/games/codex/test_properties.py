"""Property tests of the Codex over a seeded sweep of random games.

The normal run plays ``CODEX_SWEEP`` games (default 2,000; the 10,000-game run is
``CODEX_SWEEP=10000 pytest tests/games/codex/test_properties.py``, see docs/rules_codex.md).
Every invariant is checked after every action, against facts computed independently of
the engine's incremental bookkeeping (groups by BFS from the plots, purchases counted from
the events, balances summed from the ledger).
"""

from __future__ import annotations

import os
import random

from conquest_widget.games.codex.board import EMPTY, Board
from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
from conquest_widget.games.codex.market import CAUSES
from conquest_widget.games.codex.rules import (
    END_GROUP,
    FACTIONS,
    MAX_PURCHASES,
    PRICE_UNIT,
    SUPPLY,
)

GAMES = int(os.environ.get("CODEX_SWEEP", "2000"))


class Checker:
    """Checks one match's invariants after each action; counts what it saw."""

    def __init__(self, m: CodexMatch, stats: dict[str, int]) -> None:
        self.m = m
        self.stats = stats
        self.seen_events = 0
        self.purchases = 0
        self.cells: tuple[int, ...] | None = None
        self.true_largest = [0, 0, 0, 0]
        self.sums = [0] * m.n_seats
        self.seen_ledger = 0

    def board_facts(self) -> list[int]:
        b = self.m.board
        cells = tuple(b.cells)
        if cells != self.cells:
            self.cells = cells
            fresh = Board.from_cells(b.k, cells)          # BFS, independent of the union-find
            self.true_largest = [max(fresh.group_sizes(f), default=0) for f in range(4)]
            # the adjacency invariant: orthogonal neighbours never hold different factions
            for p, f in enumerate(cells):
                if f != EMPTY:
                    for nb in b.g.neighbours[p]:
                        assert cells[nb] in (EMPTY, f), f"plots {p} and {nb} hold different factions"
        return self.true_largest

    def after(self, seat: int, kind: str, was_over: bool, before_cash: list[int]) -> None:
        m = self.m
        st = m.state
        assert not was_over
        largest = self.board_facts()
        # price = 1,000 x largest group, for every faction, after every action
        assert m.prices() == {f: PRICE_UNIT * largest[i] for i, f in enumerate(FACTIONS)}
        # supply: at most 20 placed per faction, and no more on the board than placed
        for i in range(4):
            assert 0 <= st["placed"][i] <= SUPPLY
            assert sum(1 for c in self.cells if c == i) <= st["placed"][i]
        # the ledger sums exactly to each player's cash; every entry names a cause
        new = st["ledger"][self.seen_ledger:]
        self.seen_ledger += len(new)
        for e in new:
            assert e["cause"] in CAUSES
            self.sums[e["seat"]] += e["amount"]
            assert e["balance"] == self.sums[e["seat"]]
        assert self.sums == st["cash"]
        # purchases per turn, counted from the events
        for e in m.events_for(None, self.seen_events):
            if e["type"] == "turn":
                self.purchases = 0
            elif e["type"] == "buy":
                self.purchases += 1
                assert self.purchases <= MAX_PURCHASES
        self.seen_events = len(m.events)
        # eliminated players never act; forced sellers are in debt with something to sell
        for s in m.to_act():
            assert st["eliminated"][s] is None
        if st["phase"] == "forced":
            s = st["forced"][0]
            assert st["cash"][s] < 0 and m.legal_actions(s)
        if kind == "forced_sell":
            self.stats["forced_sells"] += 1
            # selling stops exactly when the balance is no longer negative
            if st["cash"][seat] >= 0:
                assert seat not in m.to_act() or st["phase"] != "forced"
                assert before_cash[seat] < 0
            else:
                assert m.to_act() == (seat,) or st["eliminated"][seat] is not None or m.is_over
        # the game ends at the first trigger and not one action later
        over = m.is_over
        trig_group = any(x >= END_GROUP for x in largest)
        trig_supply = any(x >= SUPPLY for x in st["placed"])
        if kind == "place":
            assert over == (trig_group or trig_supply) or st["triggers"] == ["last_survivor"]
        else:
            assert not trig_group and not trig_supply
        if over:
            self.stats[" ".join(st["triggers"])] += 1
            assert m.to_act() == () and all(not m.legal_actions(s) for s in range(m.n_seats))
        if any(e is not None for e in st["eliminated"]):
            self.stats["eliminations"] += 1 if over else 0


def play_checked(seed: int, stats: dict[str, int]) -> CodexMatch:
    rng = random.Random(seed)
    n = rng.randrange(2, 7)
    k = rng.choice((2, 3, 3, 4, 4, 5))
    setup = CodexSetup.quick(n, k=k, starting_cash=rng.choice((0, 0, 2000)))
    m = CodexMatch(setup, seed=seed)
    c = Checker(m, stats)
    while not m.is_over:
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        assert legal
        # favour ending the trade steps a little, so turns are not all trading
        action = rng.choice(legal)
        before = list(m.state["cash"])
        m.apply(action, seat)
        c.after(seat, action.kind, False, before)
        stats["actions"] += 1
    stats["games"] += 1
    stats["removals"] += sum(1 for e in m.events if e.data["type"] == "removed")
    return m


def test_invariants_hold_over_a_seeded_sweep_of_random_games() -> None:
    from collections import Counter

    stats: Counter[str] = Counter()
    for seed in range(GAMES):
        play_checked(seed, stats)
    assert stats["games"] == GAMES
    # the sweep must really exercise the rules it checks
    assert stats["forced_sells"] > 0 and stats["removals"] > 0
    assert stats["group_15"] + stats["supply_20"] + stats["group_15 supply_20"] + stats["last_survivor"] == GAMES
    print(dict(stats))
