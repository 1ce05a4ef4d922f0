"""The match controller publishes only the viewer's view; CPU turns never change the
viewer; between two humans of a hidden-information game a cover screen comes first and
the published state then holds nothing of the previous viewer's secrets."""

from __future__ import annotations

import json
from typing import Any

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
    # nobody is known to be at the screen when a hot-seat game opens: Ann's cover first
    assert c.cover == "Ann" and c.viewer is None
    assert "my_card" not in c.view and c.legal == [] and all("card" not in e for e in c.events)
    c.uncover()
    assert c.viewer == 0 and c.view["my_card"] == m.state["hands"][0]
    c.act(Swap())
    ann_card = m.state["hands"][0]
    assert c.cover == "Bo" and c.viewer is None
    # while covered, the published state is the public view: no card of Ann's
    assert "my_card" not in c.view and c.legal == []
    assert all("card" not in e for e in c.events)
    c.act(Keep())  # nobody may act behind the cover
    assert c.message and m.to_act() == (1,)
    c.uncover()
    assert c.viewer == 1 and c.cover == "" and c.view["my_card"] == m.state["hands"][1]
    assert all(e.get("card") in (None, m.state["hands"][1]) or e["seat"] == 1 for e in c.events)
    assert ann_card not in [e.get("card") for e in c.events if e.get("seat") == 0]


def test_a_new_controller_on_a_hot_seat_game_opens_behind_a_cover() -> None:
    """Resume, a loaded slot, a reload, a return from Exit: each makes a new controller,
    and it shows the cover of the human to act before any seat's view."""
    m = ToyMatch(ToySetup((Seat("Ann"), Seat("Bo"), Seat("Cy"))), seed=5)
    m.apply(Keep(), 0)
    c = MatchController(ToyMatch.from_dict(m.to_dict()), humans={0, 1, 2})
    assert (c.cover, c.viewer, c.legal) == ("Bo", None, [])
    assert "my_card" not in c.view
    # one human and CPUs: the person at the screen is known, no cover
    c1 = MatchController(ToyMatch.from_dict(m.to_dict()), humans={1})
    assert c1.cover == "" and c1.viewer == 1 and "my_card" in c1.view


def _risk(humans: int = 2, cpus: int = 0, seed: int = 3):
    from conquest_widget.games.japanese_risk.engine import JapaneseRisk, RiskSetup

    names = ["Ann", "Ben", "Cho", "Dai", "Eri"][: humans + cpus]
    return JapaneseRisk(RiskSetup.from_dict({"players": names, "round_limit": 2}), seed=seed)


def _one_screen_step(c: MatchController, m: Any, rng: Any) -> None:
    """What the person at one screen does next: dismiss the cover, or play (mostly hold at
    a ninja window).  Fails if neither is possible: a stall."""
    if c.cover:
        c.uncover()
        return
    assert c.viewer is not None and c.legal, f"stalled: {m.to_act()} to act, viewer {c.viewer}"
    assert c.viewer in m.to_act()
    hold = [a for a in c.legal if a["type"] == "hold"]
    c.act(hold[0] if hold and rng.random() < 0.8 else rng.choice(c.legal))


def test_hot_seat_risk_never_stalls_and_asks_every_human_away_from_the_screen() -> None:
    """Played to the end at one screen by 2 and 3 humans (and a CPU): at every moment the
    screen shows a cover, or the viewer may act, or the game is over (the stall of issue
    27: "Ben's turn · You are Ann · Waiting for Ben" with nothing to press, is none of
    these).  Every ninja window question to a human away from the screen goes through
    their cover, holding ninjas or not; only the one at the screen gets a lone Hold
    played for them."""
    import random

    for humans, cpus in ((2, 0), (3, 0), (2, 1)):
        m = _risk(humans, cpus)
        c = MatchController(m, humans=set(range(humans)))
        rng = random.Random(humans * 10 + cpus)
        lone_holds = 0
        for _ in range(5000):
            if c.is_over:
                break
            lone_holds += c.legal == [{"type": "hold"}] and not c.cover
            _one_screen_step(c, m, rng)
        assert c.is_over, (humans, cpus)
        # humans without ninjas were asked through their cover: they saw a lone Hold
        assert lone_holds > 0


async def _play_in_the_background(c: MatchController, m: Any, rng: Any) -> None:
    """Play ``c`` to the end at one screen in a running event loop, letting its background
    task (CPUs, forced answers) finish before each step of the person at the screen."""
    import asyncio

    c.start_cpus()
    for _ in range(5000):
        while c._task is not None and not c._task.done():
            await asyncio.sleep(0)
        if c.is_over:
            break
        _one_screen_step(c, m, rng)
    assert c.is_over


def test_hot_seat_risk_never_stalls_when_cpus_play_in_the_background(monkeypatch) -> None:
    """The same at CPU speed "fast" in a running event loop (the app's path: CPU actions
    and a lone Hold of the human at the screen are played by a background task, and the
    hand-over is decided after it).  The delay is set to 0 to keep the test short; the
    order of play is the one a player gets."""
    import asyncio
    import random

    from conquest_widget.ui import controller as controller_module

    monkeypatch.setitem(controller_module.CPU_DELAYS, "fast", 0.0)

    async def play(humans: int, cpus: int) -> None:
        m = _risk(humans, cpus, seed=11)
        c = MatchController(m, humans=set(range(humans)), play_cpus=False, cpu_speed="fast")
        await _play_in_the_background(c, m, random.Random(5))

    for humans, cpus in ((2, 0), (3, 0), (2, 1)):
        asyncio.run(play(humans, cpus))


def _knows(c: MatchController, seat: int) -> str:
    m = c._match
    return json.dumps([m.view(seat), m.events_for(seat)], sort_keys=True)


def _walk_twins(a: MatchController, b: MatchController, at_screen: int, rng_seed: int,
                steps: int) -> tuple[list[str], list[str]]:
    """Drive twins ``a`` and ``b`` by the same seeded random choices among the viewer's
    legal actions; record the published traits of each while ``at_screen`` is the human at
    the screen and knows the same in both (a battle that reveals an owner may tell them
    apart: then it stops); stop at the first cover for anyone else (their own view
    differs between twins by design)."""
    import random

    rng = random.Random(rng_seed)
    seen: tuple[list[str], list[str]] = ([], [])
    for _ in range(steps):
        if a.is_over or _knows(a, at_screen) != _knows(b, at_screen):
            break
        seen[0].append(_published(a))
        seen[1].append(_published(b))
        if a.cover or b.cover:
            if a._pending != at_screen or b._pending != at_screen:
                break
            a.uncover()
            b.uncover()
            continue
        if a.legal != b.legal:
            break  # recorded above: the assertion shows the difference
        action = rng.choice(a.legal)
        a.act(action)
        b.act(action)
    return seen


def test_twin_risk_matches_publish_the_same_until_another_seat_takes_the_screen() -> None:
    """Pairs: a Risk match and its hidden variant for the human at the screen (the other
    seats' ninjas, card armies and territories differ) are driven by the same choices;
    every published trait is identical until another human's cover — and that cover
    comes in both twins, whether that human holds ninjas or not (the ninja window's
    question is put to every human away from the screen)."""
    import random

    from conquest_widget.games.japanese_risk.engine import JapaneseRisk

    rng = random.Random(27)
    compared = windows = 0
    for trial in range(40):
        cpu = trial % 3 == 0
        m = _risk(2 + trial % 2, int(cpu), seed=100 + trial)
        for _ in range(rng.randrange(0, 60)):
            if m.is_over:
                break
            seat = m.to_act()[0]
            m.apply(rng.choice(m.legal_actions(seat)), seat)
        humans = set(range(m.n_seats - int(cpu)))
        if m.is_over or m.to_act()[0] not in humans:
            continue
        at_screen = m.to_act()[0]
        twin = m.hidden_variant(at_screen, random.Random(trial))
        a = MatchController(JapaneseRisk.from_dict(m.to_dict()), humans=humans)
        b = MatchController(JapaneseRisk.from_dict(twin.to_dict()), humans=humans)
        wa, wb = _walk_twins(a, b, at_screen, trial, 400)
        assert wa == wb, f"trial {trial}: the twins' screens differ while seat {at_screen} is at the screen"
        compared += len(wa)
        windows += a.cover != "" and '"window": {' in wa[-1]
    assert compared > 100
    assert windows > 3, "too few walks ended at a ninja window's cover to prove it"


def test_a_forced_answer_is_never_drawn_before_it_is_played(monkeypatch) -> None:
    """At CPU speed Fast the human at the screen whose only answer is Hold (no ninjas) or
    Commit 0 (an empty card) never sees that lone button: it is played before anything is
    published (a button drawn and taken away 0.12 s later would catch a click)."""
    import asyncio
    import random

    from conquest_widget.ui import controller as controller_module

    monkeypatch.setitem(controller_module.CPU_DELAYS, "fast", 0.0)
    lone: list[list[dict]] = []

    async def play() -> None:
        m = _risk(1, 2, seed=8)
        c = MatchController(m, humans={0}, play_cpus=False, cpu_speed="fast")
        c.observe(lambda _ch: lone.append(list(c.legal)) if c.legal in ([{"type": "hold"}], [{"type": "commit", "count": 0}]) else None,
                  names="version")
        await _play_in_the_background(c, m, random.Random(2))

    asyncio.run(play())
    assert lone == []



def test_a_move_in_a_running_loop_is_one_version(monkeypatch) -> None:
    """In a kernel (an event loop runs; CPUs play in the background at speed Fast) a human's
    move that no CPU answers publishes one new version — one redraw and one autosave, so
    that another page sharing the save folder never sees a second write of the same move;
    a move the CPU answers is published, then each CPU action, then the hand-over (the
    last version shows the human's turn again)."""
    import asyncio

    from conquest_widget.games.conquest_cards.engine import ConquestCards
    from conquest_widget.games.conquest_cards.setup import CardsSetup
    from conquest_widget.ui import controller as controller_module

    monkeypatch.setitem(controller_module.CPU_DELAYS, "fast", 0.0)
    versions: list[tuple[int, bool]] = []

    async def play() -> None:
        m = ConquestCards(CardsSetup.quick(2), seed=4)
        c = MatchController(m, humans={0}, play_cpus=False, cpu_speed="fast")
        c.observe(lambda ch: versions.append((ch["new"], bool(c.legal))), names="version")

        async def settle() -> None:
            c.start_cpus()
            while c._task is not None and not c._task.done():
                await asyncio.sleep(0)

        await settle()
        assert [a["type"] for a in c.legal] == ["draw"], c.legal
        versions.clear()
        c.act({"type": "draw"})
        await settle()
        assert len(versions) == 1 and c.legal  # the draw: one version, still the human's turn
        versions.clear()
        c.act({"type": "end"})
        assert not c.message
        await settle()
        assert len(versions) >= 3, versions  # the end of turn, the CPU's actions, the hand-over
        assert versions[-1][1] and not any(mine for _v, mine in versions[:-1])
        assert [v for v, _ in versions] == list(range(versions[0][0], versions[0][0] + len(versions)))

    asyncio.run(play())


def test_an_apps_pacing_holds_the_cpus_until_it_lets_them_go_on() -> None:
    """``cpu_pause``: None holds the CPUs (a battle shown until Continue); once it returns a
    delay again, ``start_cpus`` plays on, and each CPU action of a synchronous run is
    published when ``publish_each_cpu_action`` is set (the background run publishes each
    anyway: tests/games/japan_conquest/widget)."""
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=4))
    c = MatchController(m, humans={0}, play_cpus=False, cpu_speed="fast")
    hold = [True]
    c.cpu_pause = lambda: None if hold[0] else 0.0
    c.publish_each_cpu_action = True
    versions: list[int] = []
    c.observe(lambda ch: versions.append(ch["new"]), names="version")
    while m.to_act() == (0,):  # the human's turn: roll, step on, confirm
        kinds = {a["type"]: a for a in c.legal}
        c.act(kinds.get("confirm") or kinds.get("roll") or kinds.get("battle") or kinds["step"])
    assert m.to_act() == (1,) and c.cpu_due()
    c.start_cpus()  # no loop: synchronous, but held
    assert m.to_act() == (1,) and not c.cpu_running
    hold[0] = False
    before = len(versions)
    c.start_cpus()  # let go: no loop here, so at once, each CPU action published
    assert m.to_act() == (0,) and c.viewer == 0
    played = sum(1 for e in m.log[-60:] if e.get("seat") == 1)
    assert played > 1 and len(versions) - before >= played  # each CPU action was shown
