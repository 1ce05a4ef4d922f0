"""Replay inside the Japan Conquest app (issue 29), driven like a user: the Replay buttons of
the start screen (the autosave's, each slot's) and of the results open the replay
explorer on that game as a screen of the app; Back returns to where the player came
from; "Branch here" plays on in the app as a loaded game; a save that cannot be replayed
says so and changes nothing; an unfinished game's replay shows no Final Showdown total."""

from __future__ import annotations

import json
import re

from ipywidgets.widgets.widget import _instances as WIDGETS

from conquest_widget import JapanConquestApp
from conquest_widget.core.bots import play_bots
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup
from conquest_widget.games.japan_conquest.bots import BOTS
from conquest_widget.saves import SaveStore

from .conftest import button, click_map, find, play
from .wire import WireCounter


# ------------------------------------------------------------------ helpers
def new_human_vs_cpu(app: JapanConquestApp, turns: int = 10) -> None:
    """New game -> 2 players, a human and a CPU -> Start (as test_saves_screens does)."""
    button(app, "cw-new-game").click()
    s = app.form
    s.count.value = 2
    s.rows[0].kind.value = False
    s.rows[1].kind.value = True
    s.turns.value = turns
    s.start_button.click()
    assert app.screen == "play"


def settle(app: JapanConquestApp) -> None:
    """Answer a battle that waits for the human (its dice, then its result)."""
    c = app.board.inner
    for _ in range(20):
        if c.battle_waiting:
            app.board.battle_panel.ok_button.click()
        elif c.phase.startswith("battle") and c.human_to_act:
            c.battle_roll(1)
        else:
            return


def play_human_turns(app: JapanConquestApp, n: int) -> None:
    """The human's next ``n`` turns, clicked: Roll, the first highlighted step until the
    route can end, Confirm (the CPU plays its turn at once: no event loop here)."""
    c = app.board.inner
    for _ in range(n):
        settle(app)
        assert c.human_to_act and c.phase == "roll", c.phase
        app.board.turn_panel.roll_button.click()
        while c.phase == "route" and not c.can_confirm:
            click_map(app, c.legal_steps[0])
        app.board.turn_panel.confirm_button.click()
        settle(app)


def save_to(app, slot: int) -> None:
    button(app, "cw-save").click()
    (pick,) = find(app, "cw-save-slot")
    pick.value = slot
    button(app, "cw-save-confirm").click()


def actions(match: JapanMatch) -> int:
    """The number of actions (positions of the explorer) in a match's log."""
    return sum(1 for e in match.to_dict()["log"] if e["seat"] != -1)


def replaying(app: JapanConquestApp) -> bool:
    """The replay screen is shown: the explorer, the stage's map hidden (it has its own)."""
    return (app.screen == "replay" and app._stage_box.layout.display == "none"
            and any(w is app.explorer for w in app.body.children))


def on_stage(app: JapanConquestApp) -> bool:
    """A screen beside the stage's map (not the replay)."""
    return app.screen != "replay" and app._stage_box.layout.display is None


def board(ex):
    """The JapanBoard the replay explorer draws."""
    return ex.boards_shown[0]


def replay_buttons(app) -> list[bool]:
    """Which of the five slots offer Replay on the start screen."""
    return [bool(find(app, f"cw-replay-{n}")) for n in range(1, 6)]


# ------------------------------------------------------------------ start screen
def test_the_first_render_builds_no_explorer_and_a_replay_opens_one_map(tmp_path):
    """The explorer (with its own map) is built when a Replay button is pressed: the
    start screen sends only its buttons and the app's map; Back closes the explorer."""
    folder = tmp_path / "saves"
    with WireCounter() as wire:
        app = JapanConquestApp(save_dir=folder)
        assert wire.opens_by_model["LeafletMapModel"] == 1  # the app's own map
        assert getattr(app, "explorer", None) is None
        assert not find(app, "cw-replay-autosave") and replay_buttons(app) == [False] * 5  # nothing to replay
        new_human_vs_cpu(app)
        play_human_turns(app, 1)
        save_to(app, 2)
        button(app, "cw-exit").click()
        assert app.screen == "start"
        assert button(app, "cw-replay-autosave").description == "Replay"
        assert replay_buttons(app) == [False, True, False, False, False]
        wire.reset()
        button(app, "cw-replay-2").click()
        assert wire.opens_by_model["LeafletMapModel"] == 1  # the explorer's map, built now
        explorer = app.explorer
        button(app, "cw-back").click()
        assert explorer.comm is None  # closed with its map: nothing of it stays alive
        wire.reset()
        button(app, "cw-replay-autosave").click()
        assert app.explorer is not explorer and wire.opens_by_model["LeafletMapModel"] == 1
        app.close()


def test_replay_of_the_autosave_opens_on_its_last_position_and_back_returns(app, tmp_path):
    new_human_vs_cpu(app)
    play_human_turns(app, 2)
    snapshot = app.controller._match.state.snapshot()
    button(app, "cw-exit").click()  # Exit: the autosave stays
    auto = tmp_path / "saves" / "autosave.json"
    before = auto.read_bytes()
    saved = SaveStore(tmp_path / "saves").load_autosave()

    button(app, "cw-replay-autosave").click()
    ex = app.explorer
    assert replaying(app)
    assert ex.index == ex.replay.length == actions(saved) > 10
    assert ex.controller.view == saved.view(None)
    assert "Replay" in app.title.value
    back = button(app, "cw-back")
    assert back.description == "Back"
    assert ex.viewer is None and not ex.reveal_all  # it opens on the public view

    # scrub: back a turn, then to an exact action
    board(ex).prev_turn_button.click()
    assert ex.index in board(ex).turn_starts() and ex.index < ex.replay.length
    ex.go(3)
    assert ex.index == 3 and f"Move 3 of {ex.replay.length}" in ex.position_label.value
    board(ex).overlay.value = "regions"
    assert "Kanto" in board(ex).map_view.legend.value

    back.click()
    assert app.screen == "start" and on_stage(app) and find(app, "cw-resume")
    assert auto.read_bytes() == before  # a replay writes nothing, claims nothing
    button(app, "cw-resume").click()  # and Resume goes on as before
    assert app.screen == "play" and app.controller._match.state.snapshot() == snapshot


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
    app.show_start()  # the start screen re-reads the folder (as it does whenever it is shown)
    assert replay_buttons(app) == [True, False, False, True, False]

    button(app, "cw-replay-4").click()
    ex = app.explorer
    assert replaying(app)
    assert [p["name"] for p in ex.controller.view["players"]] == ["Aki", "Ben", "Chika"]
    assert ex.index == ex.replay.length == 25 and ex.controller.view == other.view(None)
    ex.buttons["first"].click()
    ex.buttons["next"].click()
    assert ex.index == 1 and "Move 1 of 25" in ex.position_label.value
    button(app, "cw-back").click()

    button(app, "cw-replay-1").click()
    ex = app.explorer
    assert replaying(app)
    assert ex.index == ex.replay.length == 40 and ex.controller.view == first.view(None)
    assert [p["name"] for p in ex.controller.view["players"]] == ["Player 1", "Player 2"]
    button(app, "cw-back").click()
    assert app.screen == "start" and app.controller is None
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
    app.show_start()
    assert replay_buttons(app)[:3] == [True, True, False]
    button(app, "cw-replay-1").click()
    button(app, "cw-back").click()
    # slot 2 is damaged after the start screen was drawn (another tab, an editor...)
    (folder / "slot-2.json").write_text('{"format": 2, "kind": "slot", "match": {"nonsense": true}}', encoding="utf-8")
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    button(app, "cw-replay-2").click()
    assert "slot-2.json" in app.message.value and "#b00020" in app.message.value  # said as a problem
    assert app.screen == "start" and on_stage(app)
    app.replay(3)  # no Replay in the page; a click that gets through anyway
    assert "slot-3.json" in app.message.value and app.screen == "start"
    assert "a game of &#x27;conquest_cards&#x27;, not of &#x27;japan_conquest&#x27;" in app.message.value
    # the autosave disappears (another tab deleted it) after the screen was drawn
    app.replay(None)
    assert "nothing to replay" in app.message.value and app.screen == "start"
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files
    button(app, "cw-replay-1").click()  # the good slot still replays, and the message goes
    assert replaying(app) and app.message.value == ""
    assert app.explorer.controller.view == good.view(None)


# ------------------------------------------------------------------ results screen
def test_the_results_screen_replays_the_finished_game_and_back_returns_there(app, tmp_path):
    store = SaveStore(tmp_path / "saves")
    play(app, GameSetup(players=(PlayerSetup("A", 13, cpu=True), PlayerSetup("B", 27, cpu=True)), turns=5, seed=2))
    match = app.controller._match
    assert app.screen == "results"
    results = store.results()
    replay = button(app, "cw-replay-finished")
    assert replay.description == "Replay"
    replay.click()
    ex = app.explorer
    assert replaying(app) and "Replay" in app.title.value
    assert ex.index == ex.replay.length == actions(match) and ex.controller.view["outcome"] is not None
    assert not ex.public_only and len(ex.seat_chooser.options) == 4  # finished: each seat's view, everything
    assert ex.branch_button.disabled  # nothing to play at the end
    ex.buttons["prev"].click()
    assert not ex.branch_button.disabled
    button(app, "cw-back").click()
    assert app.screen == "results" and on_stage(app) and app.controller._match is match
    assert find(app, "cw-results") and app.board in app.body.children
    assert store.results() == results  # recorded once, not again


def test_branch_here_continues_play_in_the_app_as_a_loaded_game(app, tmp_path):
    """From a slot's replay, a few actions back: the branch is the app's game (the game
    screen, the human to move), the autosave holds it, the slot is untouched."""
    folder = tmp_path / "saves"
    new_human_vs_cpu(app)
    play_human_turns(app, 3)
    save_to(app, 1)
    button(app, "cw-exit").click()
    slot = (folder / "slot-1.json").read_bytes()
    recorded = SaveStore(folder).load_slot(1)

    button(app, "cw-replay-1").click()
    ex = app.explorer
    board(ex).prev_turn_button.click()
    board(ex).prev_turn_button.click()
    k = ex.index
    assert 0 < k < ex.replay.length
    shown = ex.controller.view
    ex.branch_button.click()
    c = app.controller
    assert app.screen == "play" and on_stage(app) and app.board in app.body.children
    played = c._match.to_dict()["log"]
    assert [e for e in played if e["seat"] != -1][:k] == [e for e in recorded.to_dict()["log"] if e["seat"] != -1][:k]
    assert [p.cpu for p in c._match.setup.players] == [False, True]  # seats as recorded
    if shown["current_player"] == 0:
        assert actions(c._match) == k  # the human's turn: nothing played yet
    assert app.board.inner.human_to_act and c.viewer == 0  # (a CPU turn is played at once, up to the human)
    assert SaveStore(folder).load_autosave().to_dict()["log"] == played  # a loaded game: autosaved
    assert app.elsewhere.layout.display == "none"
    play_human_turns(app, 1)  # the branch plays on, autosaved as usual
    assert SaveStore(folder).load_autosave().to_dict()["log"] == c._match.to_dict()["log"]
    assert (folder / "slot-1.json").read_bytes() == slot


def test_branch_from_a_finished_games_replay_plays_on_with_the_seats_as_recorded(app):
    m = JapanMatch(GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27, cpu=True)), turns=5, seed=5))
    play_bots(m, {0: BOTS["normal"](), 1: BOTS["normal"]()}, seed=1)  # the human's turns played by a CPU
    assert m.is_over
    play(app, m)
    assert app.screen == "results"
    button(app, "cw-replay-finished").click()
    ex = app.explorer
    ex.go(board(ex).turn_starts()[3])
    ex.branch_button.click()
    c = app.controller
    assert app.screen == "play" and [p.cpu for p in c._match.setup.players] == [False, True]
    assert app.board.inner.human_to_act and c.viewer == 0 and not c.is_over


def test_the_replay_screen_speaks_japanese(app, tmp_path):
    app.set_lang("ja")
    SaveStore(tmp_path / "saves").save_slot(2, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))
    app.show_start()
    replay = button(app, "cw-replay-2")
    assert replay.description == "リプレイ"
    replay.click()
    ex = app.explorer
    assert "リプレイ" in app.title.value and button(app, "cw-back").description == "戻る"
    assert ex.lang == "ja" and ex.branch_button.description == "ここから分岐"
    app.set_lang("en")  # switched on the replay screen: the explorer follows
    assert ex.lang == "en" and ex.branch_button.description == "Branch here"
    assert "Replay" in app.title.value and button(app, "cw-back").description == "Back"
    button(app, "cw-back").click()
    assert app.screen == "start"


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
    button(app, "cw-replay-1").click()
    ex = app.explorer
    # an unfinished game's replay offers the public view only (ui.replay.public_while_playing)
    assert ex.public_only and ex.viewer is None and not ex.reveal_all
    choices = [v for _label, v in ex.seat_chooser.options]
    assert choices == ["public"]
    assert ex.controller.view["totals_hidden"] and "???" in board(ex).scoreboard.value
    k, seat, allowance = _toll_decides(ex)
    showdown = [j for j in range(ex.replay.length + 1) if ex.replay.view(j, None)["totals_hidden"]]
    for pos in sorted({showdown[0], k, ex.replay.length}):
        ex.go(pos)
        game = ex.replay.at(pos)
        totals = {str(game.score(s)["total"]) for s in (0, 1)}
        purses = {str(p.banked) for p in game.state.players}
        assert all(len(x) == 4 for x in totals | purses), (totals, purses)
        for choice in choices:
            ex.seat_chooser.value = choice
            for show in (lambda: board(ex).show_reachable(allowance, 0), lambda: board(ex).show_reachable(allowance, 1),
                         lambda: board(ex).show_distances(seat=1), lambda: board(ex).show_regions()):
                show()
                click_map(board(ex), 13)  # the info panel on a home base (stored prosperity hidden)
                found: set[str] = set()
                for key, w in list(WIDGETS.items()):
                    if key not in before:
                        found |= _numbers(json.dumps(w.get_state(), default=str, ensure_ascii=False))
                secrets = (totals | purses) & found
                assert not secrets, f"position {pos}, {choice}: {sorted(secrets)} readable"
    ex.seat_chooser.value = "public"

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
    assert app.screen == "play" and [p.cpu for p in c._match.setup.players] == [False, True] and c.viewer == 0
    app.close()
