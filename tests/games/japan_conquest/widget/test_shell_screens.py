"""Issue 29 (the switch): what Japan Conquest's own app gave a player on its screens, now
given by the shell's app hosting it (``conquest_widget.JapanConquestApp``):

- Previous results list the human players' record against each CPU, named in words
  ("Hard · Aggressive"), in English and Japanese;
- a finished game's Replay returns to its results with Back (the story, the board, Play
  again still there), the replay having hidden the app's map and Back showing it again;
- the replay of an unfinished game shows the public view only: the Final Showdown's totals
  stay hidden there as on the board;
- a refusal goes with the next change of the game, news ("Saved to slot 2.") stays;
- the autosave is written off the click path (deferred) in Japan Conquest only, as its
  own app did; the other games write at once.
"""

from __future__ import annotations

import random

import pytest

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup, RandomDice
from conquest_widget.saves import SaveStore
from conquest_widget.ui.match_app import app_class
from tests.games.japan_conquest.random_play import play_random
from tests.games.japan_conquest.widget.conftest import button
from tests.games.japan_conquest.widget.conftest import walk as _walk


def texts(app) -> str:
    return "\n".join(str(getattr(w, "value", "")) for w in _walk(app) if hasattr(w, "value"))


@pytest.fixture
def app(tmp_path):
    a = JapanConquestApp(save_dir=tmp_path / "saves", lang="en")
    yield a
    a.close()


def human_vs_cpus(seed: int = 2, turns: int = 5) -> JapanMatch:
    """Ann (human) against a hard aggressive CPU and an easy balanced one."""
    setup = GameSetup(players=(PlayerSetup("Ann", 13),
                               PlayerSetup("Bot", 27, cpu=True, difficulty="hard", strategy="aggressive"),
                               PlayerSetup("Cat", 40, cpu=True, difficulty="easy", strategy="balanced")),
                      turns=turns, seed=seed)
    return JapanMatch(setup, dice=RandomDice(seed))


def finished(seed: int = 2) -> JapanMatch:
    m = human_vs_cpus(seed)
    play_random(m, random.Random(seed), check=False)
    assert m.is_over
    return m


def test_previous_results_show_the_record_against_each_cpu_in_words(app, tmp_path) -> None:
    store = SaveStore(tmp_path / "saves")
    games = [finished(seed) for seed in (2, 3)]
    for g in games:
        assert store.record_result(g)
    records = store.records("japan_conquest")
    assert set(records) == {"hard:aggressive", "easy:balanced"}
    button(app, "cw-previous-results").click()
    assert app.screen == "previous_results"
    shown = texts(app)
    hard = records["hard:aggressive"]
    assert "Records against CPUs" in shown and "Hard · Aggressive" in shown and "Easy · Balanced" in shown
    assert f"{hard['wins']} W / {hard['losses']} L / {hard['draws']} D" in shown
    assert sum(hard.values()) == 2  # one human, two games
    app.set_lang("ja")
    shown = texts(app)
    assert "CPU戦の成績" in shown and "強い · 合戦好き" in shown
    button(app, "cw-back").click()
    assert app.screen == "start"


def test_no_record_table_without_a_game_against_a_cpu(app, tmp_path) -> None:
    store = SaveStore(tmp_path / "saves")
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], turns=5, seed=4), dice=RandomDice(4))  # two humans
    play_random(m, random.Random(4), check=False)
    assert store.record_result(m)
    button(app, "cw-previous-results").click()
    assert "Records against CPUs" not in texts(app) and "Records against CPUs" not in app.message.value


def test_back_from_a_finished_games_replay_returns_to_its_results(app) -> None:
    m = human_vs_cpus()
    play_random(m, random.Random(2), check=False, until=lambda g: g.is_over)
    app._play(JapanMatch.from_dict(m.to_dict()), speed="instant")
    assert app.screen == "results"
    story = texts(app)
    map_box = app._stage_box
    assert map_box.layout.display != "none"
    button(app, "cw-replay-finished").click()
    assert app.screen == "replay" and map_box.layout.display == "none"  # the replay has its own map
    ex = app.explorer
    assert not ex.public_only  # a finished game: every seat's view
    ex.go(3)
    button(app, "cw-back").click()
    assert app.screen == "results" and map_box.layout.display != "none"
    assert texts(app) == story  # the same results: standings, story, the board
    assert ex.comm is None  # the explorer is closed
    button(app, "cw-play-again").click()
    assert app.screen == "play" and not app.controller.is_over
    assert [p["name"] for p in app.controller.view["players"]] == ["Ann", "Bot", "Cat"]


def test_a_replay_of_an_unfinished_game_in_the_final_showdown_hides_the_totals(app, tmp_path) -> None:
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], turns=10, seed=6), dice=RandomDice(6))
    play_random(m, random.Random(6), check=False, until=lambda g: g.totals_hidden)
    store = SaveStore(tmp_path / "saves")
    store.save_slot(1, m)
    app.show_start()  # the start screen as it is now
    button(app, "cw-replay-1").click()
    ex = app.explorer
    assert app.screen == "replay" and ex.public_only
    assert [v for _label, v in ex.seat_chooser.options] == ["public"]
    assert ex.controller.view["totals_hidden"]
    ex.go(ex.replay.length)
    assert ex.controller.view["totals_hidden"]


def test_a_refusal_goes_with_the_next_change_and_news_stays(app) -> None:
    m = JapanMatch(GameSetup(players=(PlayerSetup("Ann", 13), PlayerSetup("Bo", 27)), turns=5, seed=1),
                   dice=RandomDice(1))
    app._play(m, speed="instant")
    button(app, "cw-save").click()
    button(app, "cw-save-confirm").click()
    assert "Saved to slot 1" in app.message.value
    seat = app.board.inner
    seat.roll()  # a change of the game: the news stays
    assert "Saved to slot 1" in app.message.value
    app._say("Not now.", problem=True)  # a refusal, as the app shows one
    seat.click_prefecture(seat.legal_steps[0])
    assert app.message.value == ""


@pytest.mark.parametrize(("game", "deferred"), [("japan_conquest", True), ("codex", False),
                                                ("conquest_cards", False), ("japanese_risk", False)])
def test_the_autosave_is_deferred_by_the_games_choice(tmp_path, game: str, deferred: bool) -> None:
    from conquest_widget.core import registry

    cls = registry.get(game).load(registry.get(game).widget)
    a = cls(save_dir=tmp_path / game)
    try:
        assert a.autosaver.deferred is deferred
    finally:
        a.close()
    forced = type("Forced", (cls,), {"autosave_deferred": not deferred})(save_dir=tmp_path / f"{game}-forced")
    try:
        assert forced.autosaver.deferred is (not deferred)
    finally:
        forced.close()


def test_the_apps_class_is_the_shells_app_for_japan() -> None:
    from conquest_widget.games.japan_conquest.widget import UI

    assert JapanConquestApp.ui is UI and app_class(UI).__name__ == JapanConquestApp.__name__


def test_the_slot_lines_say_what_each_slot_holds(app, tmp_path) -> None:
    """Its own game with players, date and turn (loadable); another game's with its title
    and players (not loadable here); an unreadable file by its name, escaped."""
    store = SaveStore(tmp_path / "saves")
    store.save_slot(1, JapanMatch(GameSetup(players=(PlayerSetup("Ann", 13), PlayerSetup("Bo", 27)), turns=10, seed=1)))
    from conquest_widget.core import registry

    Codex = registry.get("codex").engine_class()
    setup = Codex.random_setup(random.Random(1), 2)
    store.save_slot(2, Codex(setup, seed=1))
    (tmp_path / "saves" / "slot-3.json").write_text("{ not json <b>")
    app.show_start()
    shown = texts(app)
    assert "Slot 1: Ann, Bo (" in shown and "turn 1 of 10" in shown
    codex_names = ", ".join(p.name for p in setup.players)
    assert f"Slot 2: The Codex of Conquest: {codex_names}" in shown
    assert "Slot 3: slot-3.json is unreadable" in shown
    assert "<b>" not in shown.replace("<b>Saved games</b>", "")  # a file's text is escaped
    button(app, "cw-load-1")
    with pytest.raises(AssertionError):
        button(app, "cw-load-2")  # another game's slot: deleted here, not loaded
    button(app, "cw-delete-2")
    button(app, "cw-delete-3")


def test_the_replay_says_what_it_replays_in_both_languages(app, tmp_path) -> None:
    store = SaveStore(tmp_path / "saves")
    store.save_slot(4, JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], turns=10, seed=1)))
    app.show_start()
    button(app, "cw-replay-4").click()
    assert "Replay of slot 4" in app.title.value
    app.set_lang("ja")
    assert "スロット4のリプレイ" in app.title.value and button(app, "cw-back").description == "戻る"
    assert app.explorer.lang == "ja"
    button(app, "cw-back").click()
    assert app.screen == "start"


def test_a_finished_last_game_is_not_resumed_but_said_and_replayable(app, tmp_path) -> None:
    store = SaveStore(tmp_path / "saves")
    store.autosave(finished())
    app.show_start()
    with pytest.raises(AssertionError):
        button(app, "cw-resume")
    assert "The last game (Ann, Bot (CPU), Cat (CPU)) is finished: its result is in Previous results." in texts(app)
    button(app, "cw-replay-autosave").click()
    assert app.screen == "replay" and not app.explorer.public_only  # finished: every seat's view
    assert "Replay of the autosave" in app.title.value


def test_a_problem_of_the_form_is_said_once_on_the_form(app) -> None:
    button(app, "cw-new-game").click()
    form = app.form
    form.rows[1].name.value = form.rows[0].name.value  # two players of one name
    form.click("start")
    assert app.screen == "setup"
    assert form.problem  # the form says what is wrong, in its own words ...
    assert app.message.value == ""  # ... and the app does not say it again above it


def test_the_results_name_each_cpu_in_words(app) -> None:
    m = human_vs_cpus()
    play_random(m, random.Random(2), check=False)
    app._play(JapanMatch.from_dict(m.to_dict()), speed="instant")
    assert app.screen == "results"
    shown = texts(app)
    assert "Hard · Aggressive" in shown and "Easy · Balanced" in shown and "hard:aggressive" not in shown
