"""The save screens driven like a user: autosave and Resume, Save into slots, deleting,
corrupt files, Previous results, records, backups, remembered preferences."""

import base64
import json
import re

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup
from conquest_widget.saves import SaveStore

from .conftest import button, click_map, find, play, play_to_the_end


def new_human_vs_cpu(app, seed: str = ""):
    button(app, "cw-new-game").click()
    s = app.form
    s.seed.value = seed  # "" = a random seed, as a player leaves it
    s.count.value = 2
    s.rows[0].kind.value = False
    s.rows[1].kind.value = True
    s.start_button.click()
    assert app.screen == "play"
    return app.board.inner


def save_to(app, slot: int) -> None:
    """Save, pick ``slot``, Save (the question to overwrite, if any, is left open)."""
    button(app, "cw-save").click()
    (pick,) = find(app, "cw-save-slot")
    pick.value = slot
    button(app, "cw-save-confirm").click()


def texts(app) -> str:
    """Every HTML text shown in the app, as one string."""
    from .conftest import walk

    return "\n".join(w.value for w in walk(app) if type(w).__name__ == "HTML")


def test_autosave_then_continue_resumes_mid_route_exactly(app, tmp_path):
    c = new_human_vs_cpu(app)
    app.board.turn_panel.roll_button.click()
    click_map(app, c.legal_steps[0])
    snapshot = app.controller._match.state.snapshot()
    route, steps = list(c.route), list(c.legal_steps)
    button(app, "cw-exit").click()  # Exit: the autosave stays
    assert app.screen == "start" and find(app, "cw-resume")
    assert "Player 1, Player 2 (CPU)" in texts(app)  # the autosave's players, by Resume
    other = JapanConquestApp(save_dir=tmp_path / "saves")  # e.g. the page was reloaded
    try:
        button(other, "cw-resume").click()
        oc = other.board.inner
        assert other.screen == "play" and other.controller._match.state.snapshot() == snapshot
        assert oc.route == route and oc.legal_steps == steps
        while not oc.can_confirm:
            click_map(other, oc.legal_steps[0])
        other.board.turn_panel.confirm_button.click()
        assert oc.view["turn"] == 2
    finally:
        other.close()


def test_starting_a_new_game_replaces_the_autosave(app, tmp_path):
    new_human_vs_cpu(app)
    app.board.turn_panel.roll_button.click()
    button(app, "cw-exit").click()
    button(app, "cw-new-game").click()
    app.form.start_button.click()
    match = app.controller._match
    assert SaveStore(tmp_path / "saves").load_autosave().state.snapshot() == match.state.snapshot()
    assert match.phase == "roll"


def test_save_asks_before_overwriting_a_used_slot(app, tmp_path):
    store = SaveStore(tmp_path / "saves")
    new_human_vs_cpu(app)
    save_to(app, 3)
    assert app.screen == "play" and "Saved to slot 3" in app.message.value
    first = store.load_slot(3).state.snapshot()
    button(app, "cw-exit").click()
    assert "Slot 3: Player 1, Player 2 (CPU)" in texts(app)
    button(app, "cw-load-3").click()
    app.board.turn_panel.roll_button.click()
    save_to(app, 3)
    assert "Overwrite it?" in texts(app) and "Slot 3 holds Japan Conquest" in texts(app)
    button(app, "cw-save-cancel").click()
    assert app.screen == "play" and store.load_slot(3).state.snapshot() == first  # nothing overwritten
    save_to(app, 3)
    button(app, "cw-save-overwrite").click()
    assert "Saved to slot 3" in app.message.value
    assert store.load_slot(3).state.snapshot() == app.controller._match.state.snapshot() != first


def test_delete_a_slot_with_confirmation(app, tmp_path):
    store = SaveStore(tmp_path / "saves")
    new_human_vs_cpu(app)
    store.save_slot(1, app.controller._match)
    button(app, "cw-exit").click()
    assert find(app, "cw-load-1")
    button(app, "cw-delete-1").click()
    assert "Delete slot 1?" in app._start_confirm.text.value
    app._start_confirm.no.click()
    assert store.slot_info(1).status == "used" and find(app, "cw-load-1")
    button(app, "cw-delete-1").click()
    app._start_confirm.yes.click()
    assert store.slot_info(1).status == "empty" and "Slot 1: empty" in texts(app)
    assert not find(app, "cw-load-1") and not find(app, "cw-delete-1")


def test_a_corrupt_slot_is_reported_never_overwritten_and_others_keep_working(tmp_path):
    folder = tmp_path / "saves"
    store = SaveStore(folder)
    game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    store.save_slot(2, game)
    (folder / "slot-4.json").write_text("{not json", encoding="utf-8")
    before = (folder / "slot-4.json").read_bytes()
    app = JapanConquestApp(save_dir=folder)
    try:
        assert "Slot 4: slot-4.json is unreadable" in texts(app)
        assert not find(app, "cw-load-4") and find(app, "cw-delete-4")
        app.load_slot(4)  # no Load in the page; a click that gets through anyway
        assert "slot-4.json" in app.message.value and app.screen == "start"
        assert (folder / "slot-4.json").read_bytes() == before
        button(app, "cw-load-2").click()  # the other slot still works
        assert app.screen == "play" and app.controller._match.state.snapshot() == game.state.snapshot()
        save_to(app, 4)  # saving onto the unreadable file needs a yes
        assert "Overwrite it?" in texts(app) and "cannot be read" in texts(app)
        button(app, "cw-save-cancel").click()
        assert (folder / "slot-4.json").read_bytes() == before
    finally:
        app.close()


def test_previous_results_and_records_against_cpus(app):
    setup = GameSetup(players=(PlayerSetup("Me", 13, cpu=True), PlayerSetup("Bot", 27, cpu=True, difficulty="hard")), turns=5, seed=3)
    play(app, setup)  # CPU-only: plays to the end and is recorded once
    assert app.screen == "results"
    # a human-vs-CPU result: the first seat is human but plays like a CPU would
    human = GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True, difficulty="hard")), turns=5, seed=3)
    play(app, human)
    play_to_the_end(app)
    assert app.screen == "results"
    button(app, "cw-new-game").click()
    app.form.back_button.click()
    assert app.screen == "start"
    button(app, "cw-previous-results").click()
    (shown,) = find(app, "cw-previous-results-list")
    html = shown.value
    assert "Me" in html and "Bot (CPU)" in html
    assert "Records against CPUs" in html and "Hard · Balanced" in html
    assert re.search(r"[01] W / [01] L / [01] D", html)


def test_backup_export_inspect_restore_and_delete_all(app, tmp_path):
    new_human_vs_cpu(app)
    SaveStore(tmp_path / "saves").save_slot(5, app.controller._match)
    button(app, "cw-exit").click()
    button(app, "cw-save-data").click()
    ds = app.save_data
    assert app.screen == "save_data" and app.body.children == (ds,)
    ds.export_button.click()
    href = re.search(r'href="data:application/json;base64,([^"]+)"', ds.export_link.value).group(1)
    backup = base64.b64decode(href)
    assert json.loads(backup)["format"]
    ds.delete_button.click()
    ds.confirm.yes.click()
    assert SaveStore(tmp_path / "saves").slot_info(5).status == "empty"
    ds.inspect(b"this is not a backup")
    assert ds.restore_button.layout.display == "none" and "cw-msg" in ds.summary.value
    ds.inspect(backup)
    assert "1 used slot(s)" in ds.summary.value and "Slot 5: " in ds.summary.value
    assert ds.restore_button.layout.display == ""
    ds.restore_button.click()
    assert ds.message.value == "Backup restored"
    assert SaveStore(tmp_path / "saves").slot_info(5).status == "used"


def test_setup_and_language_are_remembered(tmp_path):
    from conquest_widget.ui.app import ConquestApp

    shell = ConquestApp(game="japan_conquest", save_dir=tmp_path / "saves")
    app = shell.game_widget
    shell.language.value = "ja"  # the language switch of the page
    assert app.lang == "ja"
    button(app, "cw-new-game").click()
    s = app.form
    s.count.value = 3
    s.rows[2].home.value = 46
    s.rows[1].strategy.value = "aggressive"
    s.start_button.click()
    assert app.screen == "play"
    shell.close()
    again = JapanConquestApp(save_dir=tmp_path / "saves")  # the next page
    try:
        assert again.lang == "ja"
        button(again, "cw-new-game").click()
        s2 = again.form
        assert s2.count.value == 3 and s2.rows[2].home.value == 46 and s2.rows[1].strategy.value == "aggressive"
    finally:
        again.close()


def test_the_autosave_is_current_after_a_cpu_turn(app, tmp_path):
    c = new_human_vs_cpu(app)
    app.board.turn_panel.roll_button.click()
    while not c.can_confirm:
        click_map(app, c.legal_steps[0])
    app.board.turn_panel.confirm_button.click()  # the CPU plays its whole turn (no event loop here)
    match = app.controller._match
    assert c.current_player == 0 and match.turn_number() == 2
    saved = SaveStore(tmp_path / "saves").load_autosave()
    assert saved.state.snapshot() == match.state.snapshot() and len(saved.events) == len(match.events)


def test_save_offers_a_free_slot_and_names_another_games_save_before_overwriting_it(app, tmp_path):
    """Issue 27 item 6: the chooser opens on a free slot (not on another game's), the
    slot list and the question name the other game, and nothing is replaced without a yes."""
    from conquest_widget.games.conquest_cards.engine import ConquestCards
    from conquest_widget.games.conquest_cards.setup import CardsSetup

    store = SaveStore(tmp_path / "saves")
    store.save_slot(1, ConquestCards(CardsSetup.quick(2), seed=3))
    before = (tmp_path / "saves" / "slot-1.json").read_bytes()
    new_human_vs_cpu(app)
    button(app, "cw-save").click()
    (pick,) = find(app, "cw-save-slot")
    assert pick.value == 2, "a free slot first"
    assert any(label.startswith("Slot 1: Conquest (card game)") for label, _n in pick.options)
    pick.value = 1
    button(app, "cw-save-confirm").click()
    assert "Slot 1 holds Conquest (card game)" in texts(app) and "Overwrite it?" in texts(app)
    button(app, "cw-save-cancel").click()
    assert (tmp_path / "saves" / "slot-1.json").read_bytes() == before
    save_to(app, 2)
    assert store.slot_info(2).game == "japan_conquest"
    button(app, "cw-exit").click()
    button(app, "cw-load-2").click()
    button(app, "cw-save").click()
    assert find(app, "cw-save-slot")[0].value == 2, "then the slot this game was saved to"


def test_two_pages_on_one_game_never_replace_each_other_without_a_word(app, tmp_path):
    """Issue 31 item 10 in Japan Conquest: page B continues page A's game and plans a
    step; A's next step is not written over B's game: A says so, keeps its game, can
    save it to a slot, make it the autosave again, or leave after a question."""
    folder = tmp_path / "saves"
    c = new_human_vs_cpu(app, seed="1")  # a roll of more than 1: B steps, then A, then B again
    app.board.turn_panel.roll_button.click()
    assert c.allowance >= 3
    other = JapanConquestApp(save_dir=folder)  # a second tab on the same folder
    try:
        button(other, "cw-resume").click()
        oc = other.board.inner
        click_map(other, oc.legal_steps[-1])
        theirs = other.controller._match.state.snapshot()
        assert SaveStore(folder).load_autosave().state.snapshot() == theirs
        assert app.elsewhere.layout.display == "none"
        click_map(app, c.legal_steps[0])  # A's own step: shown on A's page, not written over B's game
        mine = app.controller._match.state.snapshot()
        assert mine != theirs and SaveStore(folder).load_autosave().state.snapshot() == theirs
        assert app.elsewhere.layout.display is None
        assert "Another tab" in app._elsewhere_text.value
        # leaving now would lose A's game: asked first
        button(app, "cw-exit").click()
        assert app.screen == "play" and "not saved anywhere" in texts(app)
        button(app, "cw-save-cancel").click()
        assert app.screen == "play"
        # make A's game the autosave again; B is told at its next step
        button(app, "cw-autosave-here").click()
        assert app.elsewhere.layout.display == "none"
        assert SaveStore(folder).load_autosave().state.snapshot() == mine
        click_map(other, oc.legal_steps[0])
        assert other.elsewhere.layout.display is None
        assert SaveStore(folder).load_autosave().state.snapshot() == mine
        # B keeps its game in a slot; a step after it is in no slot: leaving asks again
        save_to(other, 3)
        assert oc.phase == "route" and oc.legal_steps  # (seed 1: B's route goes on)
        click_map(other, oc.legal_steps[0])
        assert SaveStore(folder).load_slot(3).state.snapshot() != other.controller._match.state.snapshot()
        button(other, "cw-exit").click()
        assert other.screen == "play" and find(other, "cw-exit-confirm")
        button(other, "cw-save-cancel").click()
        # saved again, B leaves without a question (the game as shown is in slot 3)
        save_to(other, 3)
        button(other, "cw-save-overwrite").click()
        assert SaveStore(folder).load_slot(3).state.snapshot() == other.controller._match.state.snapshot()
        button(other, "cw-exit").click()
        assert other.screen == "start"
        assert SaveStore(folder).load_autosave().state.snapshot() == mine
    finally:
        other.close()
