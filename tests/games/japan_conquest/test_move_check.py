"""The check ``apply`` makes before every action (``JapanMatch.explain``, which finds a legal
move without listing them all) agrees with the list of legal moves: on positions of random
games, every roll, battle roll, step to each of the 47 prefectures, undo and confirm is
accepted exactly when :meth:`JapanMatch.legal_moves` lists it (issue 29)."""

from __future__ import annotations

import random

import pytest

from conquest_widget.games.japan_conquest import (
    BattleRoll,
    ConfirmRoute,
    GameSetup,
    JapanMatch,
    Roll,
    Step,
    UndoStep,
)

from .random_play import random_homes

CANDIDATES = ([Roll(d) for d in (1, 2, 3)] + [BattleRoll(d) for d in (1, 2, 3)]
              + [Step(code) for code in range(1, 48)] + [UndoStep(), ConfirmRoute()])


@pytest.mark.parametrize("seed", range(6))
def test_the_check_before_a_move_accepts_exactly_the_legal_moves(seed: int) -> None:
    rng = random.Random(seed)
    n = 2 + seed % 3
    setup = GameSetup.quick(random_homes(rng, n), turns=5, seed=seed)
    m = JapanMatch(setup)
    positions = 0
    while not m.is_over and positions < 150:
        seat = m.actor
        legal = set(m.legal_moves())
        accepted = {a for a in CANDIDATES if m.explain(seat, a) is None}
        assert accepted == legal, (seed, positions, m.phase, sorted(map(str, accepted ^ legal)))
        m.push(rng.choice(sorted(legal, key=str)))
        positions += 1
    assert positions > 20
