"""The shell: a game picker listing every registered game, the chosen game hosted in it."""

from __future__ import annotations

import html
from dataclasses import replace

import ipywidgets as W

from conquest_widget import ConquestApp, JapanConquestApp, games
from conquest_widget.core import registry
from conquest_widget.core.registry import get
from conquest_widget.games.japan_conquest import GameSetup
from conquest_widget.games.japan_conquest.match import JapanMatch


def _click(button) -> None:
    button.click()


def test_the_picker_lists_every_game_and_marks_the_ones_not_built_as_coming(tmp_path) -> None:
    app = ConquestApp(save_dir=tmp_path)
    assert [g.id for g in games()] == list(app.cards)
    for spec in games():
        info, button = app.cards[spec.id]
        assert spec.title["en"] in html.unescape(info.value) and spec.blurb["en"] in html.unescape(info.value)
        assert button.disabled == (not spec.playable)
        assert button.description == ("Play" if spec.playable else "coming soon")
    assert not app.cards["japan_conquest"][1].disabled
    assert "<svg" in app.picker.children[0].children[0].value  # each game has a picture


def test_play_opens_the_game_and_back_returns_to_the_picker(tmp_path) -> None:
    app = ConquestApp(save_dir=tmp_path)
    _click(app.cards["japan_conquest"][1])
    assert isinstance(app.game_widget, JapanConquestApp) and app.game_id == "japan_conquest"
    assert app.game_widget.screen == "start"
    assert app.body.children == (app.game_widget,) and app.back.layout.display is None
    _click(app.back)
    assert app.game_widget is None and app.body.children == (app.continues, app.picker)


def test_language_switch_relabels_the_picker_and_the_hosted_game(tmp_path) -> None:
    app = ConquestApp(save_dir=tmp_path)
    app.language.value = "ja"
    assert "全国制覇すごろく" in app.cards["japan_conquest"][0].value
    assert app.cards["codex"][1].description == ("遊ぶ" if get("codex").playable else "近日公開")
    game = app.play("japan_conquest")
    assert game.lang == "ja" and "全国制覇すごろく" in game.title.value
    assert "新しいゲーム" in [b.description for b in _buttons(game)]
    assert app.language.layout.display is None  # one language switch on screen: the shell's
    app.language.value = "en"                    # ... relabels the game
    assert game.lang == "en" and "Japan Conquest" in game.title.value
    assert "New game" in [b.description for b in _buttons(game)]
    app.show_picker()
    assert app.language.layout.display is None and "Japan Conquest" in app.cards["japan_conquest"][0].value


def test_a_game_not_built_cannot_be_opened(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(registry._specs(), "codex", replace(get("codex"), widget=None))
    app = ConquestApp(save_dir=tmp_path)
    assert app.cards["codex"][1].disabled and app.cards["codex"][1].description == "coming soon"
    try:
        app.play("codex")
    except ValueError as exc:
        assert "not playable yet" in str(exc)
    else:
        raise AssertionError("codex opened although it has no widget")
    assert app.game_widget is None


def test_a_hosted_game_follows_the_shells_language_switch(tmp_path) -> None:
    app = ConquestApp(save_dir=tmp_path)
    game = app.play("codex")
    assert app.language.layout.display is None  # the hosted game has no switch of its own
    app.language.value = "ja"
    assert game.lang == "ja" and "新しいゲーム" in [b.description for b in _buttons(game)]
    app.language.value = "en"
    assert "New game" in [b.description for b in _buttons(game)]
    app.show_picker()
    assert app.game_widget is None


def _buttons(w):
    out = [w] if isinstance(w, W.Button) else []
    for c in getattr(w, "children", ()):
        out.extend(_buttons(c))
    return out


def test_the_saved_language_opens_the_picker_and_every_game_after_a_reload(tmp_path) -> None:
    """preferences.json said "ja" but the picker and Japan Conquest opened in English (issue 30)."""
    from conquest_widget.saves import SaveStore

    SaveStore(tmp_path).save_preferences({"language": "ja"})
    app = ConquestApp(save_dir=tmp_path)  # a reload: a new app on the same folder
    assert app.lang == "ja" and app.language.value == "ja"
    assert "制覇ゲーム集" in app.title.value and app.cards["codex"][1].description == "遊ぶ"
    japan = app.play("japan_conquest")
    assert japan.lang == "ja" and app.language.value == "ja" and "新しいゲーム" in [b.description for b in _buttons(japan)]
    app.show_picker()
    codex = app.play("codex")
    assert codex.lang == "ja" and "新しいゲーム" in [b.description for b in _buttons(codex)]


def test_the_language_chosen_at_the_picker_is_remembered(tmp_path) -> None:
    ConquestApp(save_dir=tmp_path).language.value = "ja"
    assert ConquestApp(save_dir=tmp_path).language.value == "ja"
    app = ConquestApp(save_dir=tmp_path)
    app.play("japan_conquest")
    app.language.value = "en"  # the switch while Japan Conquest is open
    assert app.language.value == "en" and ConquestApp(save_dir=tmp_path).lang == "en"
    assert ConquestApp(save_dir=tmp_path, lang="ja").lang == "ja"  # an explicit lang= wins


def _continues(app: ConquestApp) -> dict[str, W.Button]:
    return {next(c for c in b._dom_classes if c.startswith("cw-continue-"))[len("cw-continue-"):]: b
            for b in app.continues.children if b.layout.display != "none"}


def test_after_a_reload_mid_game_the_picker_offers_continue_in_one_click(tmp_path) -> None:
    """After a reload the player had to press Play, then Continue (issue 30)."""
    app = ConquestApp(save_dir=tmp_path)
    assert not _continues(app) and app.continues.layout.display == "none"  # nothing to continue yet
    codex = app.play("codex")
    codex.new_game()
    codex.seed.value = "5"
    codex.start()
    assert codex.screen == "play"
    seats = [s.name for s in codex._seats]
    app.show_picker()
    japan = app.play("japan_conquest")
    [new_game] = [b for b in _buttons(japan) if "cw-new-game" in b._dom_classes]
    new_game.click()
    japan.form.count.value = 2
    japan.form.rows[1].kind.value = True  # a CPU
    japan.form.seed.value = "3"
    japan.form.start_button.click()
    assert japan.screen == "play"
    japan_turn = japan.controller.view["turn"]
    japan_homes = [p["home"] for p in japan.controller.view["players"]]

    again = ConquestApp(save_dir=tmp_path)  # the reload
    offered = _continues(again)
    assert set(offered) == {"codex", "japan_conquest"}
    assert offered["codex"].description == "Continue The Codex of Conquest"
    assert offered["japan_conquest"].description == "Continue Japan Conquest"
    from conquest_widget.ui.match_app import MatchApp

    starts: list[object] = []
    original = MatchApp.show_start
    MatchApp.show_start = lambda self: (starts.append(self), original(self))[1]  # type: ignore[method-assign]
    try:
        offered["codex"].click()  # one click: the game, where it was
    finally:
        MatchApp.show_start = original  # type: ignore[method-assign]
    assert again.game_id == "codex" and again.game_widget.screen == "play"
    # opened directly on the game: no start screen sent to the page and closed under it
    assert starts == []
    assert [s.name for s in again.game_widget._seats] == seats
    again.show_picker()
    _continues(again)["japan_conquest"].click()
    c = again.game_widget.controller
    assert again.game_id == "japan_conquest" and again.game_widget.screen == "play" and c.view["turn"] == japan_turn
    assert [p["home"] for p in c.view["players"]] == japan_homes
    again.show_picker()
    again.language.value = "ja"
    assert {b.description for b in _continues(again).values()} == {"征服の書の続きから", "全国制覇すごろくの続きから"}


def test_continue_on_an_autosave_that_cannot_be_read_opens_the_start_screen_saying_why(tmp_path) -> None:
    app = ConquestApp(save_dir=tmp_path)
    codex = app.play("codex")
    codex.new_game()
    codex.start()
    app.show_picker()
    (tmp_path / "autosave-codex.json").write_text("{ not json")
    again = ConquestApp(save_dir=tmp_path)
    widget = again.continue_game("codex")
    assert widget.screen == "start" and "autosave-codex.json" in widget.message.value


def test_a_finished_game_is_not_offered_to_continue(tmp_path) -> None:
    app = ConquestApp(save_dir=tmp_path)
    japan = app.play("japan_conquest")
    japan._play(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], turns=5, seed=3)), speed="instant")
    app.show_picker()
    assert "japan_conquest" in _continues(app)  # a game under way is offered
    japan = app.play("japan_conquest")
    # a game of two CPUs (the autosave now): it plays to its end at once here
    japan._play(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[True, True], turns=5, seed=3)), speed="instant")
    assert japan.controller.is_over and japan.screen == "results"
    assert len(japan.store.results("japan_conquest")) == 1  # its result is recorded
    app.show_picker()
    assert "japan_conquest" not in _continues(app)
    app.language.value = "ja"
    assert not [b for b in _continues(app).values() if "全国制覇" in b.description]


def test_a_preheated_picker_takes_the_language_saved_when_its_page_connects(tmp_path, monkeypatch) -> None:
    """A kernel Voilà preheated built the picker before its page was asked for: when the
    page's front end asks for the widgets' states, the picker first takes the saved language
    and the games to continue as they are then."""
    from conquest_widget.saves import SaveStore
    from conquest_widget.ui import app as shell

    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(W.Widget, "_handle_control_comm_msg", W.Widget._handle_control_comm_msg)
    monkeypatch.delattr(W.Widget, "_conquest_refresh", raising=False)
    sent = []

    class Comm:
        def send(self, data, buffers=None):
            sent.append(data)

    monkeypatch.setattr(W.Widget, "_control_comm", Comm())
    app = ConquestApp(save_dir=tmp_path)  # the preheated picker: English
    assert app.lang == "en"
    SaveStore(tmp_path).save_preferences({"language": "ja"})  # the player chose Japanese since
    W.Widget._handle_control_comm_msg({"content": {"data": {"method": "request_states"}}})
    assert app.lang == "ja" and app.language.value == "ja" and "制覇ゲーム集" in app.title.value
    states = sent[-1]["states"]
    assert states[app.language.model_id]["state"]["index"] == 1  # the page gets 日本語 selected
    assert shell._SHELLS  # registered for the refresh
