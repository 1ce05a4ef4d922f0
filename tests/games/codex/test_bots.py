"""The CPU players: legal, deterministic given the seed, sensible choices."""

from __future__ import annotations

import random

from conquest_widget.core.bots import bot_rng, play_bots
from conquest_widget.games.codex.bots import (
    BOTS,
    DEFAULT_BOT,
    DICE,
    HardBot,
    NormalBot,
    Position,
    forced_choice,
)
from conquest_widget.games.codex.engine import (
    Buy,
    CodexMatch,
    CodexSetup,
    ForcedSell,
    Place,
    Roll,
)

from .helpers import EMBER, new_match


def test_bots_registry() -> None:
    assert set(BOTS) == {"easy", "normal", "hard"} and DEFAULT_BOT in BOTS
    assert len(DICE) == 36 and len(set(DICE)) == 36


def test_bots_play_whole_games_legally_and_reproducibly() -> None:
    for labels in (("easy", "normal"), ("hard", "normal", "easy")):
        docs = []
        for _ in range(2):
            m = CodexMatch(CodexSetup.quick(len(labels), k=3), seed=21)
            play_bots(m, {s: BOTS[lab]() for s, lab in enumerate(labels)}, seed=4)
            assert m.is_over
            docs.append(m.to_dict())
        assert docs[0] == docs[1]


def test_bots_greedy_placement_takes_the_conquest() -> None:
    m = new_match(dice=[(1, EMBER)], picks=["ember", "tide"])
    m.edit_pieces("tide", [(1, 1, 1), (1, 1, 2)])
    m.edit_pieces("ember", [(1, 3, 1), (1, 3, 2)])
    m.apply(Roll(), 0)
    for label in ("normal", "hard"):
        a = BOTS[label]().choose(m.view(0), m.legal_actions(0), bot_rng(1, 0, m.view(0), 0))
        assert a == Place(1, 2, 1, "ember"), label     # ember 3 conquers tide 2 (seat 1 holds tide)


def test_bots_forced_choice_wastes_least() -> None:
    view = {"factions": [{"id": "ember", "price": 4000}, {"id": "tide", "price": 1000}, {"id": "grove", "price": 9000},
                         {"id": "sun", "price": 0}], "players": [{"cash": -1500}]}
    legal = [ForcedSell("ember"), ForcedSell("tide"), ForcedSell("grove")]
    assert forced_choice(view, legal, 0) == ForcedSell("ember")        # 2,000 covers 1,500
    view["players"][0]["cash"] = -6000
    assert forced_choice(view, legal, 0) == ForcedSell("grove")


def test_hard_bot_buys_a_share_that_its_own_roll_is_likely_to_grow() -> None:
    m = new_match(dice=[(1, EMBER)], picks=["sun", "sun"], cash=6000)
    # a big ember group spanning every territory's edge grows on most rolls
    m.edit_pieces("ember", [(1, 3, 3), (2, 3, 1), (2, 3, 2), (2, 3, 3), (3, 3, 1)])
    hard = HardBot()
    a = hard.choose(m.view(0), m.legal_actions(0), random.Random(0))
    gains = hard._share_gains(Position(m.view(0)), 0, 0)
    assert gains[0][0] > 0                              # expected gain of one ember share over 36 rolls
    assert a == Buy("ember")
    assert NormalBot().choose(m.view(0), m.legal_actions(0), random.Random(0)) == Roll()   # Normal buys after placing


def test_bots_fast_effects_agree_with_the_engine() -> None:
    """Position.quick (the CPUs' inlined rules) gives the same cash and price changes as
    the engine's market.effects, on every legal placement of random positions."""
    from conquest_widget.games.codex.market import effects

    rng = random.Random(3)
    checked = 0
    for seed in range(25):
        m = CodexMatch(CodexSetup.quick(rng.randrange(2, 7), k=3), seed=seed)
        while not m.is_over:
            seat = m.to_act()[0]
            legal = m.legal_actions(seat)
            if m.view(None)["phase"] == "place":
                pos = Position(m.view(seat))
                for a in legal:
                    plot = pos.board.g.plot(a.territory, a.row, a.col)
                    f = ["ember", "tide", "grove", "sun"].index(a.faction)
                    cash, dp, ends = pos.quick(seat, plot, f)
                    eff = effects(m.board, m.state["placed"], m.state["cash"], m.state["shares"], m.active(), seat, plot, f)
                    assert cash == [b - c for b, c in zip(eff.balances, m.state["cash"], strict=True)]
                    assert dp == [1000 * (x - y) for x, y in zip(eff.after, eff.before, strict=True)]
                    assert ends == bool(eff.triggers)
                    checked += 1
            m.apply(rng.choice(legal), seat)
    assert checked > 1000
