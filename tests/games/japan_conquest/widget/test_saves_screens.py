"""The save screens driven like a user: autosave and Continue, Save & Exit into slots,
deleting, corrupt files, Previous Results, records, backups, remembered preferences."""

import base64
import json
import re

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup
from conquest_widget.saves import SaveStore

from .conftest import click_map


def new_human_vs_cpu(app, seed: str = ""):
    app.start_screen.new_button.click()
    s = app.setup_screen
    s.seed.value = seed  # "" = a random seed, as a player leaves it
    s.count.value = 2
    s.rows[0].kind.value = False
    s.rows[1].kind.value = True
    s.start_button.click()
    assert app.controller.screen == "game"


def test_autosave_then_continue_resumes_mid_route_exactly(app, tmp_path):
    c = app.controller
    new_human_vs_cpu(app)
    app.turn_panel.roll_button.click()
    click_map(app, c.legal_steps[0])
    snapshot = c._match.state.snapshot()
    app.save_exit.exit_button.click()  # Exit Without Saving: the autosave stays
    assert c.screen == "start" and not app.start_saves.continue_button.disabled
    assert "turn 1" in app.start_saves.auto_info.value
    other = JapanConquestApp(save_dir=tmp_path / "saves")  # e.g. the page was reloaded
    other.start_saves.continue_button.click()
    oc = other.controller
    assert oc.screen == "game" and oc._match.state.snapshot() == snapshot
    assert oc.route == c.route and oc.legal_steps == c.legal_steps
    while not oc.can_confirm:
        click_map(other, oc.legal_steps[0])
    other.turn_panel.confirm_button.click()
    assert oc.view["turn"] == 2


def test_starting_a_new_game_replaces_the_autosave(app, tmp_path):
    c = app.controller
    new_human_vs_cpu(app)
    app.turn_panel.roll_button.click()
    app.save_exit.exit_button.click()
    app.start_screen.new_button.click()
    app.setup_screen.start_button.click()
    assert SaveStore(tmp_path / "saves").load_autosave().state.snapshot() == c._match.state.snapshot()
    assert c._match.phase == "roll"


def test_save_and_exit_asks_before_overwriting_a_used_slot(app, tmp_path):
    c = app.controller
    store = SaveStore(tmp_path / "saves")
    new_human_vs_cpu(app)
    se = app.save_exit
    se.save_exit_button.click()
    se.slot.value = 3
    se.save_button.click()
    assert c.screen == "start" and c.message == "Saved to slot 3"
    first = store.load_slot(3).state.snapshot()
    assert "Slot 3: " in app.start_saves.slot_rows[2][0].value and "Player 1, Player 2 (CPU)" in app.start_saves.slot_rows[2][0].value
    app.start_saves.resume(3)
    app.turn_panel.roll_button.click()
    se.save_exit_button.click()
    se.slot.value = 3
    se.save_button.click()
    assert se.confirm.layout.display == "" and "Overwrite" in se.confirm.text.value
    se.confirm.no.click()
    assert c.screen == "game" and store.load_slot(3).state.snapshot() == first  # nothing overwritten
    se.save_button.click()
    se.confirm.yes.click()
    assert c.screen == "start" and store.load_slot(3).state.snapshot() == c._match.state.snapshot() != first


def test_delete_a_slot_with_confirmation(app, tmp_path):
    store = SaveStore(tmp_path / "saves")
    game = app.controller
    new_human_vs_cpu(app)
    store.save_slot(1, game._match)
    app.controller.screen = "start"
    label, resume, delete = app.start_saves.slot_rows[0]
    assert not resume.disabled
    delete.click()
    assert "Delete slot 1?" in app.start_saves.confirm.text.value
    app.start_saves.confirm.no.click()
    assert store.slot_info(1).status == "used"
    delete.click()
    app.start_saves.confirm.yes.click()
    assert store.slot_info(1).status == "empty" and label.value == "Slot 1: empty" and resume.disabled


def test_a_corrupt_slot_is_reported_never_overwritten_and_others_keep_working(tmp_path):
    folder = tmp_path / "saves"
    store = SaveStore(folder)
    game = __import__("conquest_widget.games.japan_conquest", fromlist=["JapanMatch"]).JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    store.save_slot(2, game)
    (folder / "slot-4.json").write_text("{not json", encoding="utf-8")
    before = (folder / "slot-4.json").read_bytes()
    app = JapanConquestApp(save_dir=folder)
    row = app.start_saves.slot_rows[3]
    assert "Slot 4: unreadable" in row[0].value and row[1].disabled and not row[2].disabled
    app.start_saves.resume(4)
    assert "slot-4.json" in app.start_saves.message.value
    assert (folder / "slot-4.json").read_bytes() == before
    app.start_saves.resume(2)  # the other slot still works
    assert app.controller.screen == "game" and app.controller._match.state.snapshot() == game.state.snapshot()
    se = app.save_exit
    se.save_exit_button.click()
    se.slot.value = 4
    se.save_button.click()  # saving onto the unreadable file needs a yes
    assert "Overwrite" in se.confirm.text.value
    se.confirm.no.click()
    assert (folder / "slot-4.json").read_bytes() == before


def test_previous_results_and_records_against_cpus(app):
    c = app.controller
    setup = GameSetup(players=(PlayerSetup("Me", 13, cpu=True), PlayerSetup("Bot", 27, cpu=True, difficulty="hard")), turns=5, seed=3)
    c.new_game(setup)  # CPU-only: plays to the end and is recorded once
    assert c.screen == "results"
    # a human-vs-CPU result: the first seat is human but plays like a CPU would
    from conquest_widget.games.japan_conquest import JapanMatch
    from conquest_widget.games.japan_conquest.cpu import cpu_action
    human = GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True, difficulty="hard")), turns=5, seed=3)
    c.new_game(human)
    g = c._match
    while not g.is_over:
        c._human(cpu_action(g, g.actor)) if not g.setup.players[g.actor].cpu else c.play_cpu_now()
    assert isinstance(g, JapanMatch) and c.screen == "results"
    c.screen = "start"
    app.start_saves.results_button.click()
    html = app.start_saves.results_html.value
    assert "Final standings" in html and "Me" in html and "\tBot (CPU)\t" in html
    # names ellipsize, never their CPU mark (issue 16)
    assert ["Bot", " (CPU)"] in app.start_saves.draw("en")["rs"]["b"][0]["r"][0]
    records = app.start_saves.records_html.value
    assert "Records against CPUs" in records and "Hard · Balanced" in records
    assert re.search(r"[01] W / [01] L / [01] D", records)


def test_backup_export_inspect_restore_and_delete_all(app, tmp_path):
    c = app.controller
    new_human_vs_cpu(app)
    SaveStore(tmp_path / "saves").save_slot(5, c._match)
    c.screen = "saves"
    ds = app.data_screen
    assert app.side.children == (ds,)
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
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    app.language.value = "ja"
    app.start_screen.new_button.click()
    s = app.setup_screen
    s.count.value = 3
    s.rows[2].home.value = 46
    s.rows[1].strategy.value = "aggressive"
    s.start_button.click()
    again = JapanConquestApp(save_dir=tmp_path / "saves")
    assert again.controller.lang == "ja"
    s2 = again.setup_screen
    assert s2.count.value == 3 and s2.rows[2].home.value == 46 and s2.rows[1].strategy.value == "aggressive"


def test_the_autosave_is_current_after_a_cpu_turn(app, tmp_path):
    c = app.controller
    new_human_vs_cpu(app)
    app.turn_panel.roll_button.click()
    while not c.can_confirm:
        click_map(app, c.legal_steps[0])
    app.turn_panel.confirm_button.click()  # the CPU plays its whole turn (no event loop here)
    assert c.current_player == 0 and c._match.turn_number() == 2
    saved = SaveStore(tmp_path / "saves").load_autosave()
    assert saved.state.snapshot() == c._match.state.snapshot() and len(saved.events) == len(c._match.events)


def test_save_offers_a_free_slot_and_names_another_games_save_before_overwriting_it(app, tmp_path):
    """Issue 27 item 6: the chooser opens on a free slot (not on another game's), the
    slot list and the question name the other game, and nothing is replaced without a yes."""
    from conquest_widget.games.conquest_cards.engine import ConquestCards
    from conquest_widget.games.conquest_cards.setup import CardsSetup

    store = SaveStore(tmp_path / "saves")
    store.save_slot(1, ConquestCards(CardsSetup.quick(2), seed=3))
    before = (tmp_path / "saves" / "slot-1.json").read_bytes()
    new_human_vs_cpu(app)
    se = app.save_exit
    se.save_exit_button.click()
    assert se.slot.value == 2, "a free slot first"
    assert any(label.startswith("Slot 1: Conquest (card game)") for label, _n in se.slot.options)
    se.slot.value = 1
    se.save_button.click()
    assert "Slot 1 holds Conquest (card game)" in se.confirm.text.value and "Overwrite it?" in se.confirm.text.value
    se.confirm.no.click()
    assert (tmp_path / "saves" / "slot-1.json").read_bytes() == before
    se.slot.value = 2
    se.save_button.click()
    assert store.slot_info(2).game == "japan_conquest"
    app.start_saves.resume(2)
    se.save_exit_button.click()
    assert se.slot.value == 2, "then the slot this game was saved to"


def test_two_pages_on_one_game_never_replace_each_other_without_a_word(app, tmp_path):
    """Issue 31 item 10 in Japan Conquest: page B continues page A's game and plans a
    step; A's next step is not written over B's game: A says so, keeps its game, can
    save it to a slot, make it the autosave again, or leave after a question."""
    folder = tmp_path / "saves"
    c = app.controller
    new_human_vs_cpu(app, seed="1")  # a roll of more than 1: B steps, then A, then B again
    app.turn_panel.roll_button.click()
    assert c.allowance >= 3
    other = JapanConquestApp(save_dir=folder)  # a second tab on the same folder
    other.start_saves.continue_button.click()
    oc = other.controller
    click_map(other, oc.legal_steps[-1])
    theirs = oc._match.state.snapshot()
    assert SaveStore(folder).load_autosave().state.snapshot() == theirs
    assert app.save_exit.elsewhere.layout.display == "none"
    click_map(app, c.legal_steps[0])  # A's own step: shown on A's page, not written over B's game
    mine = c._match.state.snapshot()
    assert mine != theirs and SaveStore(folder).load_autosave().state.snapshot() == theirs
    assert app.save_exit.elsewhere.layout.display == ""
    assert "Another tab" in app.save_exit.elsewhere_text.value
    # leaving now would lose A's game: asked first
    app.save_exit.exit_button.click()
    assert c.screen == "game" and "not saved anywhere" in app.save_exit.confirm.text.value
    app.save_exit.confirm.no.click()
    assert c.screen == "game"
    # make A's game the autosave again; B is told at its next step
    app.save_exit.autosave_here_button.click()
    assert app.save_exit.elsewhere.layout.display == "none"
    assert SaveStore(folder).load_autosave().state.snapshot() == mine
    click_map(other, oc.legal_steps[0])
    assert other.save_exit.elsewhere.layout.display == ""
    assert SaveStore(folder).load_autosave().state.snapshot() == mine
    # B keeps its game in a slot, then leaves without a question
    se = other.save_exit
    se.save_exit_button.click()
    se.slot.value = 3
    se.save_button.click()
    assert oc.screen == "start"
    assert SaveStore(folder).load_slot(3).state.snapshot() == oc._match.state.snapshot()
