"""The Codex board in a kernel, driven only through its controls (buttons' ``click()``,
the plot polygons' Leaflet click handler), over a real MatchController and engine."""

from __future__ import annotations

import json
import random

import pytest
from ipywidgets import Widget

from conquest_widget.games.codex.bots import BOTS
from conquest_widget.games.codex.engine import CodexMatch, CodexSetup, Place, Roll
from conquest_widget.games.codex.rules import FACTIONS
from conquest_widget.games.codex.setup import CodexPlayer
from conquest_widget.games.codex.widget import (
    UI,
    event_text,
    make_setup,
    results_html,
    seat_choices,
)
from conquest_widget.games.codex.widget.board import CodexBoard
from conquest_widget.ui.controller import MatchController
from conquest_widget.ui.game_ui import SeatChoice

from .helpers import EMBER, JOKER, new_match

HOSTILE = "<img src=x onerror=f()>"


def click_plot(board: CodexBoard, territory: int, row: int, col: int) -> None:
    """What the browser sends when the plot's SVG path is clicked."""
    poly = board.plots[board.grid.plot(territory, row, col)]
    poly._handle_mouse_events(None, {"type": "click", "coordinates": [0, 0]}, None)


def visible(w) -> bool:
    return w.layout.display != "none"


def shown(buttons: dict) -> list[str]:
    return [f for f, b in buttons.items() if visible(b) and not b.disabled]


def play_one_step(board: CodexBoard, rng: random.Random) -> None:
    """One human decision through the board's controls."""
    c = board.controller
    if shown(board.share_buttons):
        board.share_buttons[rng.choice(shown(board.share_buttons))].click()
    elif visible(board.forced_box):
        board.forced_buttons[shown(board.forced_buttons)[0]].click()
    elif visible(board.roll_button) or visible(board.end_button):
        buys = [f for f, b in board.buy_buttons.items() if not b.disabled]
        sells = [f for f, b in board.sell_buttons.items() if not b.disabled]
        r = rng.random()
        if buys and r < 0.3:
            board.buy_buttons[rng.choice(buys)].click()
        elif sells and r < 0.4:
            board.sell_buttons[rng.choice(sells)].click()
        elif visible(board.roll_button):
            board.roll_button.click()
        else:
            board.end_button.click()
    else:
        legal = board.legal_plots()
        assert legal, f"the human has nothing to do: {c.view['phase']} {c.legal}"
        plot = rng.choice(sorted(legal))
        terr, row, col = board.grid.locate(plot)
        click_plot(board, terr, row, col)
        if visible(board.joker_box):
            board.joker_buttons[shown(board.joker_buttons)[0]].click()
        assert visible(board.preview_box)
        board.confirm_button.click()


@pytest.mark.parametrize(("seed", "n", "k"), [(1, 2, 3), (2, 2, 3), (3, 2, 4), (4, 6, 5), (5, 4, 4)])
def test_full_game_human_vs_cpu_through_the_controls(seed: int, n: int, k: int) -> None:
    levels = ["normal", "easy", "hard", "normal", "easy"]
    seats = [SeatChoice("Ann")] + [SeatChoice(f"CPU {i}", bot=levels[i - 1]) for i in range(1, n)]
    setup = make_setup(seats, {"k": k, "starting_cash": 0})
    c = MatchController(CodexMatch(setup, seed=seed), humans={0})
    board = CodexBoard(c, "en")
    assert len(board.plots) == 6 * k * k
    versions = []
    c.observe(lambda ch: versions.append(ch["new"]), names="version")
    rng = random.Random(seed)
    for _ in range(3000):
        if c.is_over:
            break
        before = c.version
        play_one_step(board, rng)
        assert c.version > before, c.message  # every control sent a legal action
        assert c.message == ""
    assert c.is_over
    assert board.redraws == 1 + len(versions) and board._version == c.version   # once per version
    assert sum(1 for e in c.events if e["type"] == "place" and e["seat"] == 0) >= 5   # the human placed
    assert board.status.value and "The game ends" in board.status.value
    out = c.outcome()
    html = results_html(out, c.view, "en")
    for p in c.view["players"]:
        assert p["name"] in html
        assert f"{p['wealth']:,}" in html
    # nothing left to click once it is over
    assert not any(visible(b) for b in (board.roll_button, board.end_button))
    assert all(b.disabled for b in board.buy_buttons.values())


def test_preview_before_placement_and_cancel_changes_nothing() -> None:
    m = new_match(2, k=3, picks=["ember", "tide"], dice=[[1, EMBER]])
    m.edit_pieces("tide", [(1, 1, 1)])
    m.edit_pieces("ember", [(1, 2, 2)])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    board.roll_button.click()
    assert c.view["phase"] == "place"
    doc, version = json.dumps(c.document()), c.version
    click_plot(board, 1, 1, 2)
    assert visible(board.preview_box)
    text = board.preview_html.value
    assert "group of 2" in text                                 # the new ember group
    assert "group of 1 of the Tide Covenant" in text                   # conquered
    assert "1,000 → <b>0</b>" in text                           # tide's price falls
    assert "Forced to sell" in text and "Player 2" in text       # seat 1 holds tide, has no cash
    # the group to be removed is marked on the map
    assert board._styles[board.grid.plot(1, 1, 1)]["color"] == "#d50000"
    board.cancel_button.click()
    assert not visible(board.preview_box)
    assert json.dumps(c.document()) == doc and c.version == version
    assert board._styles[board.grid.plot(1, 1, 1)]["color"] != "#d50000"
    # an illegal plot says why and changes nothing
    click_plot(board, 2, 1, 1)
    assert "territory 1" in board.note.value and not visible(board.preview_box)
    assert json.dumps(c.document()) == doc
    click_plot(board, 1, 1, 2)
    board.confirm_button.click()
    assert c.view["board"][board.grid.plot(1, 1, 1)] is None
    assert c.view["board"][board.grid.plot(1, 1, 2)] == "ember"


def test_joker_asks_for_the_faction_first() -> None:
    m = new_match(2, k=3, dice=[[2, JOKER]])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "ja")
    board.roll_button.click()
    click_plot(board, 2, 2, 2)
    assert visible(board.joker_box) and not visible(board.preview_box)
    assert shown(board.joker_buttons) == list(FACTIONS)
    board.joker_buttons["grove"].click()
    assert visible(board.preview_box) and "翠林守護団" in board.preview_html.value
    board.confirm_button.click()
    assert c.view["board"][board.grid.plot(2, 2, 2)] == "grove"


def test_forced_sale_dialog_for_a_human_who_is_not_the_current_player() -> None:
    m = new_match(2, k=3, picks=["ember", "tide"], dice=[[1, EMBER]])
    m.edit_pieces("tide", [(1, 1, 1)])
    m.edit_pieces("ember", [(1, 2, 2)])
    m.edit_pieces("sun", [(4, 3, 2), (4, 3, 3)])
    m.edit_shares(1, "tide", 2)
    m.edit_shares(1, "sun", 5)
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    board.roll_button.click()
    click_plot(board, 1, 1, 2)
    board.confirm_button.click()
    assert c.view["phase"] == "forced" and c.viewer == 1
    assert visible(board.forced_box)
    assert "Player 2, you are in debt (-2,000)" in board.forced_html.value
    assert shown(board.forced_buttons) == ["sun"]
    assert board.forced_buttons["sun"].description == "Sell 1 Sun Throne for 1,000"
    assert not visible(board.roll_button) and not visible(board.end_button)
    board.forced_buttons["sun"].click()
    assert visible(board.forced_box) and c.view["players"][1]["cash"] == -1000
    board.forced_buttons["sun"].click()
    assert c.view["players"][1]["cash"] == 0
    assert not visible(board.forced_box)
    assert c.viewer == 0 and visible(board.end_button)


def test_restyle_touches_only_changed_plots(monkeypatch) -> None:
    m = new_match(2, k=4, dice=[[5, EMBER], [5, EMBER]])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    sent: list[int] = []
    original = Widget._send

    def _send(self, msg, buffers=None):
        sent.append(self.model_id)
        return original(self, msg, buffers)

    monkeypatch.setattr(Widget, "_send", _send)
    ids = {p.model_id: i for i, p in enumerate(board.plots)}

    def styles():
        return [dict(s) for s in board._styles]

    def step(fn) -> set[int]:
        before = styles()
        sent.clear()
        fn()
        after = styles()
        changed = {i for i in range(len(after)) if after[i] != before[i]}
        polys = {ids[x] for x in sent if x in ids}
        assert polys == changed == set(board.touched)
        return changed

    assert step(board.roll_button.click) == set(board.grid.plots_of[5])        # the 16 legal plots lit
    assert step(lambda: click_plot(board, 5, 2, 2)) == {board.grid.plot(5, 2, 2)}
    placed = step(board.confirm_button.click)
    assert board.grid.plot(5, 2, 2) in placed and len(placed) == 16             # lights off, piece on
    assert step(board.end_button.click) == set()                               # nothing on the map
    # a polygon that changes sends one message (hold_sync)
    sent.clear()
    board.roll_button.click()
    per_poly = [sent.count(p.model_id) for p in board.plots if p.model_id in sent]
    assert per_poly and max(per_poly) == 1


def test_hostile_names_are_escaped() -> None:
    setup = CodexSetup((CodexPlayer(HOSTILE, "#112233"), CodexPlayer("B&B <i>", "#445566", cpu=True)), k=3)
    c = MatchController(CodexMatch(setup, seed=4), humans={0})
    board = CodexBoard(c, "en")
    html = board.players_html.value
    assert HOSTILE not in html and "&lt;img src=x onerror=f()&gt;" in html
    assert "<i>" not in html
    rng = random.Random(0)
    while not c.is_over:
        play_one_step(board, rng)
    out = results_html(c.outcome(), c.view, "ja")
    assert HOSTILE not in out and "&lt;img src=x onerror=f()&gt;" in out
    assert "B&amp;B &lt;i&gt;" in out
    assert HOSTILE not in board.status.value


def test_market_buttons_follow_the_legal_actions() -> None:
    m = new_match(2, k=3, cash=5000, picks=["ember", "tide"], dice=[[1, EMBER]])
    m.edit_pieces("ember", [(1, 2, 2)])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    assert not board.buy_buttons["ember"].disabled and board.buy_buttons["tide"].disabled   # tide unlisted
    assert board.sell_buttons["ember"].disabled is False and board.sell_buttons["tide"].disabled
    assert "Purchases left this turn: 5" in board.purchases.value
    for n in range(5):
        board.buy_buttons["ember"].click()
        assert f"Purchases left this turn: {4 - n}" in board.purchases.value
    assert board.buy_buttons["ember"].disabled                                  # the limit of 5
    assert c.view["players"][0]["shares"]["ember"] == 6
    assert "1,000" in board.faction_rows["ember"].value and "unlisted" in board.faction_rows["tide"].value
    board.set_lang("ja")
    assert "未上場" in board.faction_rows["tide"].value and board.roll_button.description == "ダイスを振る"


def test_dice_shown_as_dice_and_price_history() -> None:
    m = new_match(2, k=3, dice=[[3, EMBER]])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    board.roll_button.click()
    assert "⚂" in board.dice.value and "cw-die-ember" in board.dice.value
    click_plot(board, 3, 1, 1)
    board.confirm_button.click()
    assert "<polyline" in board.faction_rows["ember"].value


def test_ui_contract() -> None:
    assert UI.game == "codex" and [o.key for o in UI.options] == ["k", "starting_cash"]
    s = make_setup([SeatChoice("Ann"), SeatChoice("Bo", bot="easy"), SeatChoice("Cy", bot="hard")], {"k": 5})
    assert s.k == 5 and seat_choices(s) == [SeatChoice("Ann"), SeatChoice("Bo", "easy"), SeatChoice("Cy", "hard")]
    assert len({p.colour for p in s.players}) == 3
    assert event_text({"type": "skip", "seat": 0, "territory": 1, "faction": None}, "en").startswith("no legal")


def test_in_the_shell_from_the_picker_to_the_results(tmp_path) -> None:
    from conquest_widget.ui.app import ConquestApp

    shell = ConquestApp(save_dir=tmp_path)
    app = shell.play("codex")
    app.new_game()
    app.n_players.value = 3
    app.seat_rows[1][1].value = "easy"
    app.seat_rows[2][1].value = "hard"
    app.option_widgets["k"].value = 3
    app.option_widgets["starting_cash"].value = 2000
    app.seed.value = "7"
    app.start()
    assert app.screen == "play" and isinstance(app.board, CodexBoard)
    c = app.controller
    assert [p["cash"] for p in c.view["players"]] == [2000, 2000, 2000]
    rng = random.Random(7)
    while not c.is_over:
        play_one_step(app.board, rng)
    assert app.screen == "results"
    assert "Final wealth" in app.body.children[0].value
    # the log names the players (its last lines: who acted there depends on the CPUs)
    assert any(s.name in app.log_view.text for s in app._seats)
    assert "seat 0" not in app.log_view.text and "seat 1" not in app.log_view.text
    app.set_lang("ja")
    assert "最終資産" in app.body.children[0].value


def test_a_finished_game_ended_by_a_group_of_15_is_recorded(tmp_path) -> None:
    from conquest_widget.ui.app import ConquestApp

    app = ConquestApp(save_dir=tmp_path).play("codex")
    app.new_game()
    app.n_players.value = 2
    app.option_widgets["k"].value = 3
    app.seed.value = "2"
    app.start()
    c = app.controller
    rng = random.Random(2)
    while not c.is_over:
        play_one_step(app.board, rng)
    assert "group_15" in c.outcome()["reason"]
    assert app.message.value == ""
    assert app.store.results("codex")


def test_an_eliminated_human_is_told_so() -> None:
    # seat 1 (the human) holds tide only and has no cash; seat 0's ember conquers the only
    # tide group: seat 1 is in debt with nothing sellable and is eliminated
    m = new_match(3, k=3, picks=["ember", "tide", "sun"], dice=[[1, EMBER]])
    m.edit_pieces("tide", [(1, 1, 1)])
    m.edit_pieces("ember", [(1, 2, 2)])
    m.apply(Roll(), 0)
    m.apply(Place(1, 1, 2, "ember"), 0)
    c = MatchController(m, humans={1}, bots={0: BOTS["easy"](), 2: BOTS["easy"]()}, play_cpus=False)
    board = CodexBoard(c, "en")
    assert c.view["players"][1]["eliminated"] and c.viewer == 1 and c.legal == []
    assert "<s>Player 2</s>" in board.players_html.value and "eliminated" in board.players_html.value
    assert "Player 2 is eliminated · Player 1 is playing" in board.status.value
    assert not any(visible(b) for b in (board.roll_button, board.end_button, board.forced_box))
    c.run_cpus()                                    # the CPUs play the game out
    assert c.is_over and "eliminated: shares forfeited" in results_html(c.outcome(), c.view, "en")


def test_the_replay_explorer_draws_a_codex_game_with_its_board() -> None:
    from conquest_widget.core.bots import RandomBot, play_bots
    from conquest_widget.ui.replay import ReplayExplorer

    m = CodexMatch(CodexSetup.quick(3, k=3), seed=8)
    play_bots(m, {s: RandomBot() for s in range(3)}, seed=8)
    assert m.is_over
    ex = ReplayExplorer(m)
    [board] = ex.boards_shown
    assert isinstance(board, CodexBoard)
    c = board.controller
    for index in (0, ex.replay.length // 2, ex.replay.length):
        ex.go(index)
        expected = CodexMatch.from_dict(c.document()).view(None)["board"]
        assert [board._styles[p]["fill_color"] for p in range(54)] == [
            "#f4eedd" if cell is None else {f: col for f, col in zip(FACTIONS, ("#c0392b", "#2e6fb7", "#2e8b57", "#d4a017"), strict=True)}[cell]
            for cell in expected]
        # a replay has no legal actions: no controls, no lit plots, clicks do nothing
        assert not any(visible(b) for b in (board.roll_button, board.end_button, *board.share_buttons.values()))
        assert all(b.disabled for b in board.buy_buttons.values())
        click_plot(board, 1, 1, 1)
        assert not visible(board.preview_box) and not visible(board.joker_box)
    ex.close()


def test_the_replay_explorer_steps_forward_over_a_checkpoint() -> None:
    # failed with SerializationError ("does not replay the same way twice") while
    # Replay.at restored a later checkpoint without its log
    from conquest_widget.core.bots import RandomBot, play_bots
    from conquest_widget.ui.replay import ReplayExplorer

    m = CodexMatch(CodexSetup.quick(3, k=3), seed=8)
    play_bots(m, {s: RandomBot() for s in range(3)}, seed=8)
    ex = ReplayExplorer(m)
    ex.go(0)
    ex.go(ex.replay.length)
    assert ex.controller.view == m.view(None)


def test_cpus_playing_in_the_background_are_drawn_one_by_one(monkeypatch) -> None:
    import asyncio

    from conquest_widget.ui import controller as controller_module

    monkeypatch.setitem(controller_module.CPU_DELAYS, "fast", 0.0)

    async def main() -> tuple[list[str], CodexBoard, MatchController]:
        setup = make_setup([SeatChoice("Ann"), SeatChoice("Bo", bot="easy")], {"k": 3})
        c = MatchController(CodexMatch(setup, seed=2), humans={0}, cpu_speed="fast", play_cpus=False)
        board = CodexBoard(c, "en")
        statuses: list[str] = []
        board.status.observe(lambda ch: statuses.append(ch["new"]), names="value")
        rng = random.Random(2)
        for _ in range(40):                           # the picks and a few whole turns
            for _ in range(1000):
                if c.legal or c.is_over:
                    break
                await asyncio.sleep(0)
            if c.is_over:
                break
            assert c.legal and board._version == c.version
            play_one_step(board, rng)
        return statuses, board, c

    statuses, board, c = asyncio.run(main())
    assert any("Bo is playing" in s for s in statuses)           # drawn while the CPU played
    assert any("Your move, Ann" in s for s in statuses)
    assert f"cw-v-{c.version}" in board._dom_classes


def test_exit_and_resume_the_autosave_and_a_slot(tmp_path) -> None:
    from conquest_widget.games.codex.widget import App

    app = App(save_dir=tmp_path)
    app.new_game()
    app.n_players.value = 2
    app.option_widgets["k"].value = 3
    app.seed.value = "3"
    app.start()
    rng = random.Random(3)
    for _ in range(12):
        play_one_step(app.board, rng)
    c = app.controller
    position = (c.view["board"], [p["cash"] for p in c.view["players"]], c.view["phase"])
    app.controller.save(app.store, 2)
    app.exit()
    again = App(save_dir=tmp_path)
    again.resume()
    assert again.screen == "play" and isinstance(again.board, CodexBoard)
    v = again.controller.view
    assert (v["board"], [p["cash"] for p in v["players"]], v["phase"]) == position
    from conquest_widget.games.codex.rules import FACTION_COLOURS

    pieces = {p: cell for p, cell in enumerate(v["board"]) if cell is not None}
    assert pieces and all(again.board._styles[p]["fill_color"] == FACTION_COLOURS[f] for p, f in pieces.items())
    again.exit()
    again.load_slot(2)
    assert again.controller.view["board"] == position[0]
    while not again.controller.is_over:                 # and it plays on to the end
        play_one_step(again.board, rng)
    assert again.screen == "results"


@pytest.mark.parametrize("k", [2, 8])
def test_the_setup_form_offers_every_territory_size_of_the_rules(tmp_path, k: int) -> None:
    """docs/rules_codex.md (from issue 13; the seed gives no size) says k is 2-8: the New game
    form takes exactly that range, and a game of either end starts with its board."""
    from conquest_widget.games.codex.rules import K_RANGE
    from conquest_widget.ui.app import ConquestApp

    app = ConquestApp(save_dir=tmp_path).play("codex")
    app.new_game()
    field = app.option_widgets["k"]
    assert (field.min, field.max) == (K_RANGE.start, K_RANGE.stop - 1) == (2, 8)
    field.value = k
    app.seed.value = "3"
    app.start()
    assert app.screen == "play" and app.controller.view["k"] == k
    assert isinstance(app.board, CodexBoard) and app.board.k == k
