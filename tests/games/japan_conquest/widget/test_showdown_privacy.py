"""The Final Showdown hides every player's total, everywhere: the match's views and events,
and every synced widget state of the app (scoreboard, battle log, prefecture info).

The position is made with the editor so that the totals are distinctive numbers (four
digits) that appear nowhere else on the screen; the test then searches every string of
every widget's synced state for them.
"""

from __future__ import annotations

import json
import random
import re

import networkx as nx
from ipywidgets.widgets.widget import _instances as WIDGETS

from conquest_widget import JapanConquestApp
from conquest_widget.core.bots import play_bots
from conquest_widget.games.japan_conquest import GameSetup
from conquest_widget.games.japan_conquest.bots import BOTS
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.rules import HOME
from conquest_widget.saves import SaveStore
from tests.games.japan_conquest.widget.conftest import button as _button
from tests.games.japan_conquest.widget.conftest import click_map as _click_map


def _showdown_match() -> JapanMatch:
    """A 5-turn game in its Final Showdown (turn 3+), totals made distinctive."""
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=11))
    g = m
    g.edit_player(0, banked=4321)  # (logged edits, as the seat to act)
    g.edit_player(1, banked=2468)
    # play to the showdown (turn 3 of player 1) with CPUs on both seats
    bots = {0: BOTS["normal"](), 1: BOTS["normal"]()}
    while not g.totals_hidden:
        play_bots(m, bots, seed=1, max_actions=1)
    # a few showdown actions so that point-changing events happen while totals are hidden
    play_bots(m, bots, seed=2, max_actions=25)
    assert g.totals_hidden and not g.is_over
    return m


def _totals(m: JapanMatch) -> list[str]:
    return [str(m.score(s)["total"]) for s in range(2)]


def _numbers(text: str) -> set[str]:
    # widget references ("IPY_MODEL_<hex uuid>") are random hex: a run of digits inside
    # one matched a total about once in five runs, a false alarm, so they are left out
    # (the states are dumped with ensure_ascii=False: a die glyph such as ⚃ is text the page
    # shows, not the number in its JSON escape "\u2683", another false alarm)
    text = re.sub(r"IPY_MODEL_[0-9a-fA-F]+", "", text)
    return set(re.findall(r"(?<![\d.])\d{3,}(?![\d.])", text))








def _open(app, slot: int) -> None:
    """The start screen's Load of ``slot`` (the game's CPUs then play until a human is to act)."""
    app.show_start()
    _button(app, f"cw-load-{slot}").click()
    assert app.screen in ("play", "results"), app.message.value


def test_views_and_events_hide_the_totals_during_the_showdown() -> None:
    m = _showdown_match()
    totals = _totals(m)
    assert all(len(t) == 4 for t in totals), totals
    for seat in (None, 0, 1):
        text = json.dumps(m.view(seat)) + json.dumps(m.events_for(seat))
        assert not (set(totals) & _numbers(text)), f"a total leaks into the view of {seat}"
        assert "banked" not in json.dumps(m.view(seat)["players"])
        showdown = [e for e in m.events_for(seat) if e.get("turn", 0) >= 3 and e["type"] in ("claimed", "upgraded", "captured")]
        assert all("points" not in e for e in showdown)


def test_no_widget_state_holds_a_current_total_during_the_showdown(tmp_path) -> None:
    store = SaveStore(tmp_path / "saves")
    store.save_slot(1, _showdown_match())
    before = set(WIDGETS)
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    _open(app, 1)
    shown = app.controller._match  # (its CPU may have played on to the human's turn)
    assert shown.totals_hidden and not shown.is_over and app.screen == "play"
    totals = set(_totals(shown))
    assert all(len(t) == 4 for t in totals), totals
    # open the info panel on the richest prefecture (the home base, with stored prosperity)
    _click_map(app, 13)
    assert app.board.inner.selected_prefecture == 13
    mine = [w for k, w in WIDGETS.items() if k not in before]
    assert len(mine) > 50
    found = set()
    for w in mine:
        found |= _numbers(json.dumps(w.get_state(), default=str, ensure_ascii=False))
    assert not (totals & found), f"totals {sorted(totals & found)} are readable in the page during the showdown"
    # and after the end, the results reveal them
    m = JapanMatch.from_dict(app.controller.document())
    play_bots(m, {0: BOTS["normal"](), 1: BOTS["normal"]()}, seed=3)
    assert m.is_over
    store.save_slot(2, m)
    _open(app, 2)
    assert app.screen == "results"
    final = {str(m.score(s)["total"]) for s in range(2)}
    seen = set()
    for k, w in list(WIDGETS.items()):
        if k not in before:
            seen |= _numbers(json.dumps(w.get_state(), default=str, ensure_ascii=False))
    assert final <= seen
    app.close()


def test_the_apps_cpu_decides_from_its_view_not_from_hidden_totals(tmp_path) -> None:
    """A pair test: two showdown positions that differ only in the stored prosperity of the
    human's castles (hidden then) -- the app's CPU plays the same actions in both, and the
    CPU's view is the same byte for byte.  (The old app's CPU read the engine itself: with
    this seed its route differed between the two positions, which this test catches.)"""

    def cpu_actions(stored: int) -> tuple[str, list[dict]]:
        m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=1))
        bots = {0: BOTS["normal"](), 1: BOTS["normal"]()}
        while not (m.totals_hidden and m.phase == "roll" and m.to_act() == (0,)):
            play_bots(m, bots, seed=1, max_actions=1)
        g = m
        near = nx.single_source_shortest_path_length(g.board.to_networkx(), g.state.players[1].position, cutoff=3)
        for code in sorted(near)[::2]:  # the human holds every other prefecture around the CPU's pawn ...
            if g.state.level[code] != HOME:
                g.edit_prefecture(code, owner=0, level="castle", stored=stored)  # castles storing this much: the only difference
        view = json.dumps(m.view(1), sort_keys=True)
        app = JapanConquestApp(save_dir=tmp_path / f"saves{stored}")
        app.play_match(m)  # seat 1 is the app's CPU
        start, seat = len(m.log), app.board.inner
        human = BOTS["normal"]()
        while seat.human_to_act:  # the human's turn (what clicks would send) ...
            app.controller.act(human.choose(m.view(0), m.legal_actions(0), random.Random(m.action_count)).to_dict())
            if seat.battle_waiting:
                seat.dismiss_battle()  # (Continue)
        # ... then the CPU's, in full (no event loop here: at once)
        assert (seat.human_to_act or seat.is_over) and any(e["seat"] == 1 for e in m.log[start:])
        app.close()
        return view, [e["action"] for e in m.log[start:] if "action" in e]

    (view_a, moves_a), (view_b, moves_b) = cpu_actions(0), cpu_actions(3000)
    assert view_a == view_b
    assert moves_a == moves_b and len(moves_a) > 3


def test_a_refused_toll_names_no_banked_total_during_the_showdown(tmp_path) -> None:
    """Clicking an enemy castle whose toll the mover cannot pay explains why in the turn
    panel, on the screen everyone shares: with totals hidden it gives the toll, not the
    mover's banked points (issue 27 item 7); before the showdown it gives both."""
    from conquest_widget.errors import IllegalActionError

    refused = IllegalActionError("cannot pay the toll", "toll", pref=14, toll=20, banked=17)
    store = SaveStore(tmp_path / "saves")
    store.save_slot(1, _showdown_match())
    store.save_slot(2, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=11)))
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    _open(app, 1)
    seat = app.board.inner  # what explains a refused step on the board
    assert seat.view["totals_hidden"]
    for lang in ("en", "ja"):
        app.set_lang(lang)
        assert seat.lang == lang
        text = seat.explain(refused)
        assert "20" in text and "17" not in text, text
    app.set_lang("en")
    _open(app, 2)
    seat = app.board.inner
    assert not seat.view["totals_hidden"]
    assert seat.explain(refused) == "Toll 20 into Kanagawa, you have 17"
    app.close()


def test_once_the_game_is_over_the_log_hides_no_points(tmp_path) -> None:
    """The Final Showdown hides points only until the end: the log showed "?" for them
    after the game had ended (issue 30); the results give every total, so must the log."""
    SaveStore(tmp_path / "saves").save_slot(1, _showdown_match())
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    _open(app, 1)  # seat 0 human (at the screen), seat 1 the app's CPU
    c = app.controller
    assert any("?" in line for line in app.log_view.lines()), "the showdown hides points in the log"
    m = c._match
    human = BOTS["normal"]()
    for _ in range(10_000):
        if c.is_over:
            break
        if app.board.inner.battle_waiting:
            app.board.battle_panel.ok_button.click()  # the player has seen the battle: the CPU goes on
        elif c.legal:
            c.act(human.choose(m.view(0), m.legal_actions(0), random.Random(m.action_count)))
            assert not c.message, c.message
        else:
            c.play_cpus_now()
    assert c.is_over and app.screen == "results"
    for lang in ("en", "ja"):
        app.set_lang(lang)
        lines = app.log_view.lines()
        assert lines and not [line for line in lines if "?" in line], lines
    showdown = [e for e in app.board.inner.events
                if e.get("turn", 0) >= 3 and e["type"] in ("claimed", "upgraded", "captured")]
    assert showdown and all("points" in e for e in showdown)
    app.close()
