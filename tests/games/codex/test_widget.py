"""The Codex board in a kernel, driven only through its controls (the clicks the page sends,
``{"click": target}``, and what the page shows: the board's ``clickable()``, ``text()``,
``plot_attrs()``), over a real MatchController and engine."""

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
from conquest_widget.scene import read_message
from conquest_widget.ui.controller import MatchController
from conquest_widget.ui.game_ui import SeatChoice

from .helpers import EMBER, JOKER, new_match

HOSTILE = "<img src=x onerror=f()>"


def press(board: CodexBoard, target: str) -> None:
    """What the page sends when ``target`` (a button, a plot) is clicked."""
    board._on_page_msg(board, {"click": target}, [])


def click_plot(board: CodexBoard, territory: int, row: int, col: int) -> None:
    """What the page sends when the plot's SVG path is clicked."""
    press(board, f"plot-{territory}-{row}-{col}")


def shown(board: CodexBoard, kind: str) -> list[str]:
    """The factions of the enabled buttons ``<kind>-<faction>`` (share, buy, sell, joker,
    forced) in page order."""
    return [t.split("-", 1)[1] for t in board.clickable() if t.split("-", 1)[0] == kind and t != "joker-cancel"]


def can(board: CodexBoard, *targets: str) -> bool:
    """Whether any of ``targets`` is shown and enabled."""
    return bool(set(targets) & set(board.clickable()))


def lit(board: CodexBoard) -> set[int]:
    """The plots the page draws lit (legal placements)."""
    return {p for p in range(board.grid.n) if board.plot_attrs(p)["stroke"] == "#ff8f00"}


def play_one_step(board: CodexBoard, rng: random.Random) -> None:
    """One human decision through the board's controls."""
    c = board.controller
    if shown(board, "share"):
        press(board, "share-" + rng.choice(shown(board, "share")))
    elif shown(board, "forced"):
        press(board, "forced-" + shown(board, "forced")[0])
    elif can(board, "roll", "end-turn"):
        buys, sells = shown(board, "buy"), shown(board, "sell")
        r = rng.random()
        if buys and r < 0.3:
            press(board, "buy-" + rng.choice(buys))
        elif sells and r < 0.4:
            press(board, "sell-" + rng.choice(sells))
        elif can(board, "roll"):
            press(board, "roll")
        else:
            press(board, "end-turn")
    else:
        legal = board.legal_plots()
        assert legal, f"the human has nothing to do: {c.view['phase']} {c.legal}"
        assert lit(board) == set(legal)
        plot = rng.choice(sorted(legal))
        terr, row, col = board.grid.locate(plot)
        click_plot(board, terr, row, col)
        if can(board, "joker-cancel"):
            press(board, "joker-" + shown(board, "joker")[0])
        assert can(board, "confirm")
        press(board, "confirm")


@pytest.mark.parametrize(("seed", "n", "k"), [(1, 2, 3), (2, 2, 3), (3, 2, 4), (4, 6, 5), (5, 4, 4)])
def test_full_game_human_vs_cpu_through_the_controls(seed: int, n: int, k: int) -> None:
    levels = ["normal", "easy", "hard", "normal", "easy"]
    seats = [SeatChoice("Ann")] + [SeatChoice(f"CPU {i}", bot=levels[i - 1]) for i in range(1, n)]
    setup = make_setup(seats, {"k": k, "starting_cash": 0})
    c = MatchController(CodexMatch(setup, seed=seed), humans={0})
    board = CodexBoard(c, "en")
    assert board.grid.n == 6 * k * k
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
    assert "The game ends" in board.text("status")
    out = c.outcome()
    html = results_html(out, c.view, "en")
    for p in c.view["players"]:
        assert p["name"] in html
        assert f"{p['wealth']:,}" in html
    # nothing left to click once it is over
    assert board.clickable() == []
    assert {"disabled"} <= board.classes("buy-ember") and {"disabled"} <= board.classes("sell-sun")


def test_preview_before_placement_and_cancel_changes_nothing() -> None:
    m = new_match(2, k=3, picks=["ember", "tide"], dice=[[1, EMBER]])
    m.edit_pieces("tide", [(1, 1, 1)])
    m.edit_pieces("ember", [(1, 2, 2)])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    press(board, "roll")
    assert c.view["phase"] == "place"
    doc, version = json.dumps(c.document()), c.version
    click_plot(board, 1, 1, 2)
    assert can(board, "confirm", "cancel") and board.text("confirm") == "Confirm"
    text = board.text("preview")
    assert text.startswith("Place a piece of the Ember Legion on territory 1, row 1, column 2?")
    assert "group of 2" in text                                 # the new ember group
    assert "group of 1 of the Tide Covenant" in text                   # conquered
    assert "Tide Covenant: 1,000 → 0" in text                   # tide's price falls
    assert "Forced to sell" in text and "Player 2" in text       # seat 1 holds tide, has no cash
    # the chosen plot and the group to be removed are marked on the map
    assert board.plot_attrs(board.grid.plot(1, 1, 2))["stroke-dasharray"] == "6 3"
    assert board.plot_attrs(board.grid.plot(1, 1, 1))["stroke"] == "#d50000"
    press(board, "cancel")
    assert not can(board, "confirm") and board.text("preview") == ""
    assert json.dumps(c.document()) == doc and c.version == version
    assert board.plot_attrs(board.grid.plot(1, 1, 1))["stroke"] != "#d50000"
    # an illegal plot says why and changes nothing
    click_plot(board, 2, 1, 1)
    assert "territory 1" in board.text("message") and not can(board, "confirm")
    assert json.dumps(c.document()) == doc
    click_plot(board, 1, 1, 2)
    assert board.text("message") == ""
    press(board, "confirm")
    assert c.view["board"][board.grid.plot(1, 1, 1)] is None
    assert c.view["board"][board.grid.plot(1, 1, 2)] == "ember"


def test_joker_asks_for_the_faction_first() -> None:
    m = new_match(2, k=3, dice=[[2, JOKER]])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "ja")
    press(board, "roll")
    assert "勢力を選んでください" in board.text("status")  # click a plot, then choose the faction
    click_plot(board, 2, 2, 2)
    assert can(board, "joker-cancel") and not can(board, "confirm")
    assert "領域2の2行2列" in board.text("joker")
    assert shown(board, "joker") == list(FACTIONS)
    assert "領域2に置く駒の勢力を選んでください" in board.text("status")  # the plot is chosen: the faction now
    press(board, "joker-grove")
    assert can(board, "confirm") and not can(board, "joker-cancel") and "翠林守護団" in board.text("preview")
    assert "配置を確定してください" in board.text("status")  # the faction too: what is left is Confirm
    board.set_lang("en")
    assert "Confirm the placement on territory 2" in board.text("status")
    press(board, "confirm")
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
    press(board, "roll")
    click_plot(board, 1, 1, 2)
    press(board, "confirm")
    assert c.view["phase"] == "forced" and c.viewer == 1
    assert "Player 2, you are in debt (-2,000)" in board.text("forced")
    assert shown(board, "forced") == ["sun"]
    assert board.text("forced-sun") == "Sell 1 Sun Throne for 1,000"
    assert not can(board, "roll", "end-turn")
    press(board, "forced-sun")
    assert board.text("forced") and c.view["players"][1]["cash"] == -1000
    press(board, "forced-sun")
    assert c.view["players"][1]["cash"] == 0
    assert board.text("forced") == "" and not shown(board, "forced")
    assert c.viewer == 0 and can(board, "end-turn")


def test_a_move_sends_the_page_one_message_of_what_changed(monkeypatch) -> None:
    m = new_match(2, k=4, dice=[[5, EMBER], [5, EMBER]])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    sent: list[tuple[Widget, dict]] = []
    original = Widget._send

    def _send(self, msg, buffers=None):
        sent.append((self, msg))
        return original(self, msg, buffers)

    monkeypatch.setattr(Widget, "_send", _send)

    def step(target: str, limit: int = 500) -> tuple[set[int], dict]:
        """The plots drawn otherwise after a click on ``target``, and the patch sent (at most
        ``limit`` bytes)."""
        before = [board.plot_attrs(p) for p in range(board.grid.n)]
        sent.clear()
        press(board, target)
        changed = {p for p in range(board.grid.n) if board.plot_attrs(p) != before[p]}
        assert [w for w, _msg in sent] == [board]                   # one message, the board's
        msg = sent[0][1]
        assert msg["method"] == "custom" and len(json.dumps(msg)) < limit
        patch = read_message(msg["content"])["patch"]
        assert "T" not in patch and patch["n"] == board.scene["n"]  # no template sent again
        return changed, patch

    changed, patch = step("roll")
    assert changed == lit(board) == set(board.grid.plots_of[5])    # the 16 legal plots lit
    assert not [key for key in patch if key.startswith("b")]       # no piece changed
    # the first preview brings its templates (U), once: a second one does not send them again
    changed, patch = step("plot-5-2-2", limit=1500)
    assert changed == {board.grid.plot(5, 2, 2)} and "pv" in patch and "v" not in patch
    assert "ui_preview_title" in patch["U"]
    # the preview and the status line (which says what is left: Confirm, or a plot)
    assert step("cancel")[1].keys() == {"pv", "st", "n"}
    changed, patch = step("plot-5-2-2", limit=700)  # the preview (~400 B) and the status line
    assert changed == {board.grid.plot(5, 2, 2)} and patch.keys() == {"pv", "st", "n"}
    changed, patch = step("confirm")
    assert board.grid.plot(5, 2, 2) in changed and len(changed) == 16    # lights off, piece on
    assert [key for key in patch if key.startswith("b")] == ["b5"] and patch["pv"] == 0
    changed, patch = step("end-turn")
    assert changed == set() and not [key for key in patch if key.startswith("b")]
    # a page that holds another scene (a patch lost before its module listened) gets it whole
    sent.clear()
    board._on_page_msg(board, {"have": board.scene["n"]}, [])
    assert sent == []
    board._on_page_msg(board, {"have": 0}, [])
    assert [msg["content"] for _w, msg in sent] == [{"scene": board.scene}]
    # the page cannot write the scene
    scene = dict(board.scene)
    board.set_state({"scene": {"T": {}, "lg": [1]}})
    assert board.scene == scene


def test_the_page_can_only_click_what_is_shown() -> None:
    m = new_match(2, k=3, dice=[[3, EMBER]])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    doc = json.dumps(c.document())
    # nothing to place yet: a plot, a confirm, a button not shown, junk: nothing happens
    for junk in ("plot-3-1-1", "confirm", "end-turn", "buy-tide", "forced-sun", "joker-grove", "plot-9-1-1",
                 "plot-x", "roll-" * 10, "", "share-ember"):
        assert board.click(junk) is False, junk
    for message in ({"click": 3}, {"click": ["roll"]}, {"patch": {"lg": [1]}}, "roll", None, {"click": "x" * 99}):
        board._on_page_msg(board, message, [])
    assert json.dumps(c.document()) == doc and board.text("message") == "" and not board.scene["pv"]
    assert board.click("roll") is True and board.click("roll") is False       # a second roll is not shown
    assert board.click("plot-9-1-1") is False and board.click("plot-3-1-1") is True
    assert can(board, "confirm")


def test_hostile_names_are_escaped() -> None:
    setup = CodexSetup((CodexPlayer(HOSTILE, "#112233"), CodexPlayer("B&B <i>", "#445566", cpu=True)), k=3)
    c = MatchController(CodexMatch(setup, seed=4), humans={0})
    board = CodexBoard(c, "en")
    # a name reaches the page only as a text (a string the page writes with textContent,
    # never a template nor markup): it is shown as it is written
    assert board.scene["pn0"] == [HOSTILE, "#112233"] and board.scene["pn1"] == ["B&B <i>", "#445566"]
    assert not [v for v in (board.scene["T"] | board.scene["U"]).values() if "<" in v or "&" in v]
    assert HOSTILE in board.text("players") and "B&B <i>" in board.text("players")
    rng = random.Random(0)
    statuses = set()
    while not c.is_over:
        play_one_step(board, rng)
        statuses.add(board.text("status"))
        assert not [v for v in (board.scene["T"] | board.scene["U"]).values() if "<" in v or "&" in v]
    assert any(HOSTILE in x for x in statuses)
    out = results_html(c.outcome(), c.view, "ja")
    assert HOSTILE not in out and "&lt;img src=x onerror=f()&gt;" in out
    assert "B&amp;B &lt;i&gt;" in out


def test_market_buttons_follow_the_legal_actions() -> None:
    m = new_match(2, k=3, cash=5000, picks=["ember", "tide"], dice=[[1, EMBER]])
    m.edit_pieces("ember", [(1, 2, 2)])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    assert can(board, "buy-ember") and "disabled" in board.classes("buy-tide")   # tide unlisted
    assert can(board, "sell-ember") and "disabled" in board.classes("sell-tide")
    assert board.text("buy-ember") == "Buy 1,000" and board.text("sell-ember") == "Sell 500"
    assert board.text("buy-tide") == "Buy"
    assert board.text("purchases") == "Purchases left this turn: 5"
    for n in range(5):
        press(board, "buy-ember")
        assert board.text("purchases") == f"Purchases left this turn: {4 - n}"
    assert "disabled" in board.classes("buy-ember")                            # the limit of 5
    press(board, "buy-ember")                                                   # refused in the page
    assert c.view["players"][0]["shares"]["ember"] == 6
    assert "1,000" in board.text("market-ember") and "unlisted" in board.text("market-tide")
    assert "19 pieces left" in board.text("market-ember")
    # the players' table: the current player marked, cash, shares of each faction, wealth
    assert board.text("players").splitlines() == ["▶ Player 1 0 6 0 0 0 6,000", "Player 2 5,000 0 1 0 0 5,000"]
    board.set_lang("ja")
    assert "未上場" in board.text("market-tide") and board.text("roll") == "ダイスを振る"


def test_dice_shown_as_dice_and_price_history() -> None:
    m = new_match(2, k=3, dice=[[3, EMBER]])
    c = MatchController(m, humans={0, 1})
    board = CodexBoard(c, "en")
    assert board.text("dice") == ""
    press(board, "roll")
    assert board.text("dice") == "⚂ E territory 3 · Ember Legion"
    assert board.scene["h_ember"] == [0]                  # the price history: unlisted so far
    click_plot(board, 3, 1, 1)
    press(board, "confirm")
    assert board.scene["h_ember"] == [0, 1]                # 0, then 1,000 (in thousands)
    last = board.grid.plot(3, 1, 1)
    assert board.plot_attrs(last)["stroke"] == "#222222"  # the last piece placed is marked


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
    assert board.scene["p1"][3] == 1 and "Player 2 (eliminated)" in board.text("players")
    assert "Player 2 is eliminated · Player 1 is playing" in board.text("status")
    assert board.clickable() == [] and board.text("forced") == ""
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
        assert [board.plot_attrs(p)["fill"] for p in range(54)] == [
            "#f4eedd" if cell is None else {f: col for f, col in zip(FACTIONS, ("#c0392b", "#2e6fb7", "#2e8b57", "#d4a017"), strict=True)}[cell]
            for cell in expected]
        # a replay has no legal actions: no controls, no lit plots, clicks do nothing
        assert board.clickable() == [] and lit(board) == set()
        assert {"disabled"} <= board.classes("buy-ember")
        click_plot(board, 1, 1, 1)
        assert not board.scene["pv"] and not board.scene["jk"] and board.text("message") == ""
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
        # observed after the board's own redraw of each version: the status then shown
        c.observe(lambda _ch: statuses.append(board.text("status")), names="version")
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
    assert f"cw-v-{c.version}" in board.classes("board")


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
    assert pieces and all(again.board.plot_attrs(p)["fill"] == FACTION_COLOURS[f] for p, f in pieces.items())
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
