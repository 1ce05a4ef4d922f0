"""Replay inside the Japan Conquest app (issue 29), driven like a user: the Replay buttons of
the start screen (the autosave's, each slot's) and of the results screen open the replay
explorer on that game as a screen of the app; Back returns to where the player came
from; "Branch here" plays on in the app as a loaded game; a save that cannot be replayed
says so and changes nothing; an unfinished game's replay shows no Final Showdown total."""

from __future__ import annotations

import html
import json
import re

from ipywidgets.widgets.widget import _instances as WIDGETS

from conquest_widget import JapanConquestApp
from conquest_widget.core.bots import play_bots
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup
from conquest_widget.games.japan_conquest.bots import BOTS
from conquest_widget.saves import SaveStore

from .conftest import click_map
from .wire import WireCounter


# ------------------------------------------------------------------ helpers
def new_human_vs_cpu(app: JapanConquestApp, turns: int = 10) -> None:
    """New Game -> 2 players, a human and a CPU -> Start (as test_saves_screens does)."""
    app.start_screen.new_button.click()
    s = app.setup_screen
    s.count.value = 2
    s.rows[0].kind.value = False
    s.rows[1].kind.value = True
    s.turns.value = turns
    s.start_button.click()
    assert app.controller.screen == "game"


def settle(app: JapanConquestApp) -> None:
    """Answer a battle that waits for the human (its dice, then its result)."""
    c = app.controller
    for _ in range(20):
        if c.battle_waiting:
            app.battle_panel.ok_button.click()
        elif c.phase.startswith("battle") and c.human_to_act:
            c.battle_roll(1)
        else:
            return


def play_human_turns(app: JapanConquestApp, n: int) -> None:
    """The human's next ``n`` turns, clicked: Roll, the first highlighted step until the
    route can end, Confirm (the CPU plays its turn at once: no event loop here)."""
    c = app.controller
    for _ in range(n):
        settle(app)
        assert c.human_to_act and c.phase == "roll", c.phase
        app.turn_panel.roll_button.click()
        while c.phase == "route" and not c.can_confirm:
            click_map(app, c.legal_steps[0])
        app.turn_panel.confirm_button.click()
        settle(app)


def actions(match: JapanMatch) -> int:
    """The number of actions (positions of the explorer) in a match's log."""
    return sum(1 for e in match.to_dict()["log"] if e["seat"] != -1)


def shows(app: JapanConquestApp) -> str:
    """What the app shows: "replay" (the explorer) or "body" (map and side panel)."""
    last = app.children[-1]
    return "replay" if last is app._replay_screen else "body" if last is app.body else "?"


def board(ex):
    """The JapanBoard the replay explorer draws."""
    return ex.boards_shown[0]


def message_of(widget) -> str:
    """The text of an HTML message, as the page shows it."""
    return html.unescape(re.sub(r"<[^>]+>", "", widget.value))


# ------------------------------------------------------------------ start screen
def test_the_first_render_builds_no_explorer_and_a_replay_opens_one_map_once(tmp_path):
    """The explorer (with its own map) is built when a Replay button is first pressed,
    then reused: the start screen sends only its buttons; the second replay opens no map."""
    folder = tmp_path / "saves"
    with WireCounter() as wire:
        app = JapanConquestApp(save_dir=folder)
        assert wire.opens_by_model["LeafletMapModel"] == 1  # the app's own map
        assert app.replay_explorer is None and app._replay_screen is None
        ss = app.start_saves
        assert ss.replay_auto_button.disabled and all(b.disabled for b in ss.replay_buttons)
        assert ss.replay_auto_button.description == "Replay"
        assert "cw-replay-autosave" in ss.replay_auto_button._dom_classes
        assert [f"cw-replay-{n}" in b._dom_classes for n, b in enumerate(ss.replay_buttons, 1)] == [True] * 5
        new_human_vs_cpu(app)
        play_human_turns(app, 1)
        app.save_exit.save_exit_button.click()
        app.save_exit.slot.value = 2
        app.save_exit.save_button.click()
        assert app.controller.screen == "start"
        assert not ss.replay_auto_button.disabled
        assert [b.disabled for b in ss.replay_buttons] == [True, False, True, True, True]
        wire.reset()
        ss.replay_buttons[1].click()
        assert wire.opens_by_model["LeafletMapModel"] == 1  # the explorer's map, built now
        explorer = app.replay_explorer
        app.replay_back_button.click()
        wire.reset()
        ss.replay_auto_button.click()
        assert app.replay_explorer is explorer and wire.opens_by_model["LeafletMapModel"] == 0
        assert wire.opens < 40, wire.opens_by_model  # no new board: the explorer is loaded anew


def test_replay_of_the_autosave_opens_on_its_last_position_and_back_returns(app, tmp_path):
    c = app.controller
    new_human_vs_cpu(app)
    play_human_turns(app, 2)
    app.save_exit.exit_button.click()  # Exit Without Saving: the autosave stays
    auto = tmp_path / "saves" / "autosave.json"
    before = auto.read_bytes()
    shown_game, snapshot = c._match, c._match.state.snapshot()
    saved = SaveStore(tmp_path / "saves").load_autosave()

    app.start_saves.replay_auto_button.click()
    ex = app.replay_explorer
    assert c.screen == "replay" and shows(app) == "replay"
    assert ex.index == ex.replay.length == actions(saved) > 10
    assert ex.controller.view == saved.view(None)
    assert "Replay of the last game (autosave)" in app.replay_heading.value
    assert app.replay_back_button.description == "Back" and "cw-replay-back" in app.replay_back_button._dom_classes
    assert ex.public_only and [v for _label, v in ex.seat_chooser.options] == ["public"]  # unfinished: the public view

    # scrub: back a turn, then to an exact action
    board(ex).prev_turn_button.click()
    assert ex.index in board(ex).turn_starts() and ex.index < ex.replay.length
    ex.go(3)
    assert ex.index == 3 and f"Move 3 of {ex.replay.length}" in ex.position_label.value
    board(ex).overlay.value = "regions"
    assert "Kanto" in board(ex).map_view.legend.value

    app.replay_back_button.click()
    assert c.screen == "start" and shows(app) == "body" and app.side.children == (app.start_screen,)
    assert auto.read_bytes() == before  # a replay writes nothing, claims nothing
    assert c._match is shown_game and c._match.state.snapshot() == snapshot
    app.start_saves.continue_button.click()  # and Continue goes on as before
    assert c.screen == "game" and c._match.state.snapshot() == snapshot


def test_each_slot_replays_its_own_game(app, tmp_path):
    store = SaveStore(tmp_path / "saves")
    first = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[True, True], seed=4))
    play_bots(first, {0: BOTS["normal"](), 1: BOTS["normal"]()}, seed=1, max_actions=40)
    other = JapanMatch(GameSetup(players=(PlayerSetup("Aki", 1), PlayerSetup("Ben", 40, cpu=True),
                                          PlayerSetup("Chika", 27, cpu=True)), turns=5, seed=9))
    play_bots(other, {s: BOTS["easy"]() for s in range(3)}, seed=2, max_actions=25)
    store.save_slot(1, first)
    store.save_slot(4, other)
    files = {n: (tmp_path / "saves" / f"slot-{n}.json").read_bytes() for n in (1, 4)}
    ss, c = app.start_saves, app.controller
    ss.refresh()  # the start screen re-reads the folder (as it does whenever it is shown)
    assert [b.disabled for b in ss.replay_buttons] == [False, True, True, False, True]

    ss.replay_buttons[3].click()
    ex = app.replay_explorer
    assert c.screen == "replay" and "Replay of slot 4" in app.replay_heading.value
    assert [p["name"] for p in ex.controller.view["players"]] == ["Aki", "Ben", "Chika"]
    assert ex.index == ex.replay.length == 25 and ex.controller.view == other.view(None)
    ex.buttons["first"].click()
    ex.buttons["next"].click()
    assert ex.index == 1 and "Move 1 of 25" in ex.position_label.value
    app.replay_back_button.click()

    ss.replay_buttons[0].click()
    assert app.replay_explorer is ex and "Replay of slot 1" in app.replay_heading.value
    assert ex.index == ex.replay.length == 40 and ex.controller.view == first.view(None)
    assert [p["name"] for p in ex.controller.view["players"]] == ["Player 1", "Player 2"]
    app.replay_back_button.click()
    assert c.screen == "start" and not c.has_game
    assert {n: (tmp_path / "saves" / f"slot-{n}.json").read_bytes() for n in (1, 4)} == files


def test_a_save_that_cannot_be_replayed_says_so_and_changes_nothing(app, tmp_path):
    from conquest_widget.games.conquest_cards.engine import ConquestCards
    from conquest_widget.games.conquest_cards.setup import CardsSetup

    folder = tmp_path / "saves"
    store = SaveStore(folder)
    good = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    store.save_slot(1, good)
    store.save_slot(2, good)
    store.save_slot(3, ConquestCards(CardsSetup.quick(2), seed=3))  # another game's save
    c, ss = app.controller, app.start_saves
    ss.refresh()
    assert not ss.replay_buttons[1].disabled and ss.replay_buttons[2].disabled
    ss.replay_buttons[0].click()  # a replay is open already: a failure must not touch it
    ex = app.replay_explorer
    app.replay_back_button.click()
    # slot 2 is damaged after the start screen was drawn (another tab, an editor...)
    (folder / "slot-2.json").write_text('{"format": 2, "kind": "slot", "match": {"nonsense": true}}', encoding="utf-8")
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    ss.replay_buttons[1].click()
    text = message_of(ss.message)
    assert text.startswith("This game cannot be replayed: ") and "slot-2.json" in text, text
    assert c.screen == "start" and shows(app) == "body" and app.replay_explorer is ex
    assert ex.controller.view == good.view(None)  # the explorer still holds slot 1's game
    ss.replay_buttons[2].click()  # disabled in the page; a click that gets through anyway
    assert "cannot be replayed" in message_of(ss.message) and "slot-3.json" in message_of(ss.message)
    assert "a game of 'conquest_cards', not of 'japan_conquest'" in message_of(ss.message)
    assert c.screen == "start"
    # the autosave disappears (another tab deleted it) after the screen was drawn
    ss.replay_auto_button.click()
    assert message_of(ss.message) == "There is no game to replay" and c.screen == "start"
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files
    ss.replay_buttons[0].click()  # the good slot still replays, and the message goes
    assert c.screen == "replay" and ss.message.value == ""


# ------------------------------------------------------------------ results screen
def test_the_results_screen_replays_the_finished_game_and_back_returns_there(app, tmp_path):
    c = app.controller
    store = SaveStore(tmp_path / "saves")
    c.new_game(GameSetup(players=(PlayerSetup("A", 13, cpu=True), PlayerSetup("B", 27, cpu=True)), turns=5, seed=2))
    assert c.screen == "results"
    results = store.results()
    rs = app.results_screen
    assert rs.replay_button.description == "Replay" and "cw-replay-finished" in rs.replay_button._dom_classes
    rs.replay_button.click()
    ex = app.replay_explorer
    assert c.screen == "replay" and "Replay of the game just finished" in app.replay_heading.value
    assert ex.index == ex.replay.length == actions(c._match) and ex.controller.view["outcome"] is not None
    assert not ex.public_only and len(ex.seat_chooser.options) == 4  # finished: each seat's view, everything
    assert ex.branch_button.disabled  # nothing to play at the end
    ex.buttons["prev"].click()
    assert not ex.branch_button.disabled
    app.replay_back_button.click()
    assert c.screen == "results" and shows(app) == "body" and app.side.children[0].children[0] is rs
    assert store.results() == results  # recorded once, not again


def test_branch_here_continues_play_in_the_app_as_a_loaded_game(app, tmp_path):
    """From a slot's replay, a few actions back: the branch is the app's game (the game
    screen, the human to move), the autosave holds it, the slot is untouched."""
    folder = tmp_path / "saves"
    c = app.controller
    new_human_vs_cpu(app)
    play_human_turns(app, 3)
    app.save_exit.save_exit_button.click()
    app.save_exit.slot.value = 1
    app.save_exit.save_button.click()
    slot = (folder / "slot-1.json").read_bytes()
    recorded = SaveStore(folder).load_slot(1)

    app.start_saves.replay_buttons[0].click()
    ex = app.replay_explorer
    board(ex).prev_turn_button.click()
    board(ex).prev_turn_button.click()
    k = ex.index
    assert 0 < k < ex.replay.length
    shown = ex.controller.view
    ex.branch_button.click()
    assert c.screen == "game" and shows(app) == "body" and app.side.children == (app.game_screen,)
    played = c._match.to_dict()["log"]
    assert [e for e in played if e["seat"] != -1][:k] == [e for e in recorded.to_dict()["log"] if e["seat"] != -1][:k]
    assert [p.cpu for p in c._match.setup.players] == [False, True]  # seats as recorded
    if shown["current_player"] == 0:
        assert actions(c._match) == k  # the human's turn: nothing played yet
    assert c.human_to_act and c.viewer == 0  # (a CPU turn is played at once, up to the human)
    assert SaveStore(folder).load_autosave().to_dict()["log"] == played  # a loaded game: autosaved
    assert app.save_exit.elsewhere.layout.display == "none"
    play_human_turns(app, 1)  # the branch plays on, autosaved as usual
    assert SaveStore(folder).load_autosave().to_dict()["log"] == c._match.to_dict()["log"]
    assert (folder / "slot-1.json").read_bytes() == slot


def test_branch_from_a_finished_games_replay_plays_on_with_the_seats_as_recorded(app):
    c = app.controller
    m = JapanMatch(GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27, cpu=True)), turns=5, seed=5))
    play_bots(m, {0: BOTS["normal"](), 1: BOTS["normal"]()}, seed=1)  # the human's turns played by a CPU
    assert m.is_over
    c.load_game(m)
    assert c.screen == "results"
    app.results_screen.replay_button.click()
    ex = app.replay_explorer
    ex.go(board(ex).turn_starts()[3])
    ex.branch_button.click()
    assert c.screen == "game" and [p.cpu for p in c._match.setup.players] == [False, True]
    assert c.human_to_act and c.viewer == 0 and not c.is_over


def test_the_replay_screen_speaks_japanese(app, tmp_path):
    c = app.controller
    app.language.value = "ja"
    assert app.start_saves.replay_auto_button.description == "リプレイ"
    SaveStore(tmp_path / "saves").save_slot(2, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))
    app.start_saves.refresh()
    app.start_saves.replay_buttons[1].click()
    ex = app.replay_explorer
    assert "スロット2のリプレイ" in app.replay_heading.value and app.replay_back_button.description == "戻る"
    assert ex.lang == "ja" and ex.branch_button.description == "ここから分岐"
    app.language.value = "en"  # switched on the replay screen: the explorer follows
    assert ex.lang == "en" and ex.branch_button.description == "Branch here"
    assert "Replay of slot 2" in app.replay_heading.value and app.replay_back_button.description == "Back"
    app.replay_back_button.click()
    assert c.screen == "start"


# ------------------------------------------------------------------ the Final Showdown's secret
def showdown_match() -> JapanMatch:
    """An unfinished 5-turn game in its Final Showdown; distinctive (4-digit) totals and
    enemy castles all around, so that tolls decide where a pawn can stop.  The position
    editor's changes are in the match's log (a replay reproduces them)."""
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=11))
    for code in (11, 12, 14, 19, 22, 20, 21, 23, 10, 9, 8):
        g.edit_prefecture(code, owner=1, level="castle")
    for code in (26, 28, 29, 25, 24, 30):
        g.edit_prefecture(code, owner=0, level="castle")
    g.edit_player(0, banked=4321)
    g.edit_player(1, banked=2468)
    m = g
    bots = {0: BOTS["normal"](), 1: BOTS["normal"]()}
    while not m.totals_hidden:
        play_bots(m, bots, seed=1, max_actions=1)
    play_bots(m, bots, seed=2, max_actions=25)
    assert m.totals_hidden and not m.is_over
    return m


def _numbers(text: str) -> set[str]:
    # (the states are dumped with ensure_ascii=False: a die glyph such as ⚃ is text the page
    # shows, not the number in its JSON escape "\u2683", another false alarm)
    text = re.sub(r"IPY_MODEL_[0-9a-fA-F]+", "", text)  # widget references: random hex
    return set(re.findall(r"(?<![\d.])\d{3,}(?![\d.])", text))


def _toll_decides(ex) -> tuple[int, int, int]:
    """A showdown position, seat and allowance where the seat's purse decides which
    prefectures it can stop at (found on copies of the explorer's private games)."""
    from conquest_widget.games.japan_conquest import analysis

    for k in range(ex.replay.length + 1):
        g = ex.replay.at(k)
        if not g.totals_hidden:
            continue
        for seat in (0, 1):
            for allowance in range(1, 7):
                poor = g.copy()
                poor.state.players[seat].banked = 0
                if set(analysis.reachable_stops(g, seat, allowance)) != set(analysis.reachable_stops(poor, seat, allowance)):
                    return k, seat, allowance
    raise AssertionError("no position where a toll decides: the test's castles need moving")


def test_an_unfinished_games_replay_shows_no_final_showdown_total(tmp_path):
    """The replay of an unfinished game shows what the game's shared screen shows: no
    total, no purse, no stored prosperity during the Final Showdown, in any widget, with
    any overlay; the reachable stops do not depend on the hidden purses (a pair: the same
    position with another purse gives the same overlay); a branch keeps the players."""
    m = showdown_match()
    folder = tmp_path / "saves"
    SaveStore(folder).save_slot(1, m)
    before = set(WIDGETS)
    app = JapanConquestApp(save_dir=folder)
    app.start_saves.replay_buttons[0].click()
    ex = app.replay_explorer
    assert ex.public_only and ex.controller.view["totals_hidden"]
    assert "???" in board(ex).scoreboard.value
    k, seat, allowance = _toll_decides(ex)
    showdown = [j for j in range(ex.replay.length + 1) if ex.replay.view(j, None)["totals_hidden"]]
    for pos in sorted({showdown[0], k, ex.replay.length}):
        ex.go(pos)
        game = ex.replay.at(pos)
        totals = {str(game.score(s)["total"]) for s in (0, 1)}
        purses = {str(p.banked) for p in game.state.players}
        assert all(len(x) == 4 for x in totals | purses), (totals, purses)
        for show in (lambda: board(ex).show_reachable(allowance, 0), lambda: board(ex).show_reachable(allowance, 1),
                     lambda: board(ex).show_distances(seat=1), board(ex).show_regions):
            show()
            click_map(board(ex), 13)  # the info panel on a home base (stored prosperity hidden)
            found: set[str] = set()
            for key, w in list(WIDGETS.items()):
                if key not in before:
                    found |= _numbers(json.dumps(w.get_state(), default=str, ensure_ascii=False))
            assert not ((totals | purses) & found), f"position {pos}: {sorted((totals | purses) & found)} readable"

    # the pair: at a position where the purse decides, the shown overlay ignores it ...
    ex.go(k)
    board(ex).show_reachable(allowance, seat)
    shown = board(ex).overlay_now()
    assert "tolls counted as payable" in shown[1]
    private = ex.replay.at(k).state.players[seat]
    purse, private.banked = private.banked, 0
    try:
        assert board(ex).overlay_now() == shown
        # ... which the match's own game would not (the test has teeth)
        from conquest_widget.games.japan_conquest.widget.replay import reachable_overlay

        assert reachable_overlay(ex.replay.at(k), seat, allowance)[0] != shown[0]
    finally:
        private.banked = purse
    # a branch plays on with the players as recorded (nobody takes over the CPU's purse)
    ex.branch_button.click()
    c = app.controller
    assert c.screen == "game" and [p.cpu for p in c._match.setup.players] == [False, True] and c.viewer == 0
