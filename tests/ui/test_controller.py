"""The match controller publishes only the viewer's view; CPU turns never change the
viewer; between two humans of a hidden-information game a cover screen comes first and
the published state then holds nothing of the previous viewer's secrets."""

from __future__ import annotations

import json

from conquest_widget.games.japan_conquest import GameSetup
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.ui.controller import MatchController

from .toy_game import Keep, Seat, Swap, ToyMatch, ToySetup


def _published(c: MatchController) -> str:
    return json.dumps([c.view, c.legal, c.events, c.cover], sort_keys=True)


def test_japan_human_vs_cpu_plays_through_the_controller() -> None:
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=4))
    c = MatchController(m, humans={0})
    versions = []
    c.observe(lambda ch: versions.append(ch["new"]), names="version")
    while not c.is_over:
        assert c.viewer == 0 and c.legal, "the human must be the viewer with something to do"
        before = c.version
        confirm = [a for a in c.legal if a["type"] == "confirm"]
        c.act((confirm or c.legal)[0])
        assert c.version == before + 1  # one publication per change
    assert c.outcome()["reason"] == "turns"
    assert c.viewer == 0


def test_an_illegal_action_sets_a_message_and_changes_nothing() -> None:
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], seed=4))
    c = MatchController(m, humans={0})
    before = (_published(c), c.version, json.dumps(c.document()))
    c.act({"type": "step", "to": 47})
    assert "Okinawa" in c.message or "roll" in c.message
    assert (_published(c), c.version, json.dumps(c.document())) == before
    c.act({"type": "roll", "dice": "2"})  # a hostile dict from the browser
    assert c.message
    assert json.dumps(c.document()) == before[2]


def test_cpu_turns_never_change_the_viewer_and_bots_get_views() -> None:
    m = ToyMatch(ToySetup((Seat("Ann"), Seat("Bo"), Seat("Cy"))), seed=3)
    c = MatchController(m, humans={1})
    assert c.viewer == 1 and m.to_act() == (1,)  # seat 0 (a CPU) has already played
    assert "my_card" in c.view and c.view["viewer"] == 1
    c.act(Keep())
    assert c.is_over and c.viewer == 1


def test_hot_seat_cover_screen_between_humans_hides_the_previous_viewer() -> None:
    m = ToyMatch(ToySetup((Seat("Ann"), Seat("Bo"))), seed=5)
    c = MatchController(m, humans={0, 1})
    ann_card = c.view["my_card"]
    c.act(Swap())
    ann_card = m.state["hands"][0]
    assert c.cover == "Bo" and c.viewer == 0
    # while covered, the published state is the public view: no card of Ann's
    assert "my_card" not in c.view and c.legal == []
    assert all("card" not in e for e in c.events)
    c.act(Keep())  # nobody may act behind the cover
    assert c.message and m.to_act() == (1,)
    c.uncover()
    assert c.viewer == 1 and c.cover == "" and c.view["my_card"] == m.state["hands"][1]
    assert all(e.get("card") in (None, m.state["hands"][1]) or e["seat"] == 1 for e in c.events)
    assert ann_card not in [e.get("card") for e in c.events if e.get("seat") == 0]


def test_hot_seat_risk_hands_the_screen_over_only_for_real_decisions() -> None:
    """Japanese Risk asks every seat at every ninja window; a human without ninjas can only
    hold, so the controller plays that for them instead of showing a cover screen for it."""
    import random

    from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup

    m = JapaneseRisk(RiskSetup.from_dict({"players": ["Ann", "Ben"], "round_limit": 2}), seed=3)
    c = MatchController(m, humans={0, 1})
    rng = random.Random(3)
    covers = 0
    for _ in range(3000):
        if c.is_over:
            break
        if c.cover:
            covers += 1
            c.uncover()
            continue
        assert c.legal and c.legal != [{"type": "hold"}], c.legal  # never a screen for the only button
        hold = [a for a in c.legal if a["type"] == "hold"]
        c.act(hold[0] if hold and rng.random() < 0.8 else rng.choice(c.legal))
    assert c.is_over
    assert covers < 40, covers
