"""The shell's own New game form (Conquest, The Codex of Conquest, Japanese Risk) is filled
from the setup of the game started last (the preferences' ``last_setups``): the number of
players, the names, Human or a CPU level per seat and the game's options, never the seed;
whatever the preferences file holds, the form opens (from its defaults, field by field)."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from page_runner import run_form

from conquest_widget.core import registry
from conquest_widget.saves import SaveStore
from conquest_widget.ui.game_ui import HUMAN
from conquest_widget.ui.match_app import MatchApp
from conquest_widget.ui.setup_form import SetupForm

GAMES = ["conquest_cards", "codex", "japanese_risk"]
HOSTILE = "<script>x</script>"

# an unreadable preferences file is set aside (renamed, with a SaveWarning) at the next write
pytestmark = pytest.mark.filterwarnings("ignore::conquest_widget.errors.SaveWarning")


def app_class(game: str) -> type[MatchApp]:
    return import_module(f"conquest_widget.games.{game}.widget").App


@pytest.fixture
def apps():
    """Make apps with ``apps(game, folder)``; every one is closed at the end."""
    made: list[MatchApp] = []

    def make(game: str, folder: Path) -> MatchApp:
        made.append(app_class(game)(save_dir=folder))
        return made[-1]

    yield make
    for app in made:
        app.close()


def other_options(app: MatchApp) -> dict[str, Any]:
    """A value other than the default for each of the game's options."""
    out = {}
    for o in app.ui.options:
        if o.kind == "bool":
            out[o.key] = not o.default
        elif o.kind == "choice":
            out[o.key] = next(c for c in o.choices if c != o.default)
        else:
            out[o.key] = o.default + 1 if o.high is None or o.default < o.high else o.default - 1
    return out


def fill_and_start(app: MatchApp, names: list[str], kinds: list[str], options: dict[str, Any],
                   seed: str = "12345") -> None:
    app.new_game()
    with app.form.batch():
        app.n_players.value = len(names)
        for (name, kind), n, k in zip(app.seat_rows, names, kinds, strict=False):
            name.value, kind.value = n, k
        for key, value in options.items():
            app.option_widgets[key].value = value
        app.speed.value = "instant"
        app.seed.value = seed
    app.form.click("start")
    assert app.screen == "play", app.message.value


def default_values(game: str, folder: Path, apps: Any) -> dict[str, Any]:
    fresh = apps(game, folder)
    fresh.new_game()
    return dict(fresh.form.values)


def write_preferences(folder: Path, preferences: Any, schema_version: int = 2) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "preferences.json"
    path.write_text(json.dumps({"format": "conquest_widget.saves.preferences", "schema_version": schema_version,
                                "saved_at": "2026-01-01T00:00:00Z", "preferences": preferences}), encoding="utf-8")
    return path


@pytest.mark.parametrize("game", GAMES)
def test_the_next_new_game_form_shows_the_last_setup_but_not_its_seed(game, tmp_path, apps) -> None:
    folder = tmp_path / "saves"
    app = apps(game, folder)
    options = other_options(app)
    fill_and_start(app, ["Yui", "Kai"], [HUMAN, "easy"], options)

    def check(form_app: MatchApp) -> None:
        values = form_app.form.values
        assert values["n"] == 2
        assert values["names"][:2] == ["Yui", "Kai"]
        assert values["kinds"][:2] == [HUMAN, "easy"]
        assert values["opt"] == options
        assert values["seed"] == ""  # a new game gets a new seed

    app.exit()
    app.new_game()  # the same page
    check(app)
    again = apps(game, folder)  # another page of the folder (or the notebook run again)
    again.new_game()
    check(again)
    again.form.click("start")
    assert again.screen == "play" and again.controller.document()["seed"] != 12345
    assert [s.bot for s in again.ui.seat_choices(again._setup)] == [HUMAN, "easy"]


@pytest.mark.parametrize("entry", [
    pytest.param({"game_version": 1, "setup": {"players": "Ann", "k": "four"}}, id="wrong-types"),
    pytest.param({"game_version": 1, "setup": {"players": [{"name": "A", "cpu": True, "bot": "genius"},
                                                           {"name": "B"}]}}, id="unknown-bot"),
    pytest.param({"game_version": 1, "setup": {"players": [{"name": f"P{i}"} for i in range(10)]}}, id="10-seats"),
    pytest.param({"game_version": 1, "setup": {"players": [{"name": "A"}, {"name": "A"}]}}, id="same-names"),
    pytest.param({"game_version": 1, "setup": {"players": [{"name": HOSTILE * 3}, {"name": "B"}]}}, id="long-name"),
    pytest.param({"game_version": 1, "setup": {"players": [{"name": "A"}, {"name": "B"}], "spy": 1}}, id="extra-field"),
    pytest.param({"game_version": 1}, id="no-setup"),
    pytest.param("codex", id="not-an-object"),
])
def test_a_bad_last_setup_opens_the_default_form_and_the_next_start_replaces_it(entry, tmp_path, apps) -> None:
    folder = tmp_path / "saves"
    defaults = default_values("codex", tmp_path / "empty", apps)
    write_preferences(folder, {"language": "en", "last_setups": {"codex": entry}})
    app = apps("codex", folder)
    app.new_game()
    assert app.form.values == defaults and not app.message.value
    fill_and_start(app, ["Yui", "Kai"], [HUMAN, "hard"], {"k": 6})
    again = apps("codex", folder)
    again.new_game()
    assert again.form.values["names"][:2] == ["Yui", "Kai"] and again.form.values["opt"]["k"] == 6


@pytest.mark.parametrize("preferences", [
    pytest.param({"last_setups": ["codex"]}, id="last_setups-a-list"),
    pytest.param({"last_setups": {"codex": {"game_version": "1", "setup": {}}}}, id="version-text"),
    pytest.param({"last_setups": {"no such game": {"game_version": 1, "setup": {}}}}, id="unknown-game"),
    pytest.param("everything", id="preferences-text"),
])
def test_a_malformed_preferences_file_opens_the_default_form(preferences, tmp_path, apps) -> None:
    folder = tmp_path / "saves"
    defaults = default_values("japanese_risk", tmp_path / "empty", apps)
    write_preferences(folder, preferences)
    app = apps("japanese_risk", folder)
    app.new_game()
    assert app.form.values == defaults
    fill_and_start(app, ["Yui", "Kai"], [HUMAN, "hard"], {"round_limit": 30})
    again = apps("japanese_risk", folder)
    again.new_game()
    assert again.form.values["names"][:2] == ["Yui", "Kai"] and again.form.values["opt"]["round_limit"] == 30


def test_a_last_setup_of_a_newer_version_is_left_alone_and_the_form_opens(tmp_path, apps) -> None:
    folder = tmp_path / "saves"
    defaults = default_values("conquest_cards", tmp_path / "empty", apps)
    path = write_preferences(folder, {"last_setups": {"conquest_cards": {
        "game_version": 99, "setup": {"players": [{"name": "Future"}, {"name": "B"}], "warp": True}}}})
    before = path.read_text(encoding="utf-8")
    app = apps("conquest_cards", folder)
    app.new_game()
    assert app.form.values == defaults
    fill_and_start(app, ["Yui", "Kai"], [HUMAN, "easy"], {})  # the game starts; the file is kept
    assert path.read_text(encoding="utf-8") == before  # a newer version's file is not replaced


def test_each_field_the_form_does_not_offer_keeps_its_default(tmp_path, apps, monkeypatch) -> None:
    """A CPU level that no longer exists (the bots module has none of that name) leaves
    that seat's choice at the default; the rest of the remembered setup is shown."""
    folder = tmp_path / "saves"
    app = apps("japanese_risk", folder)
    fill_and_start(app, ["Yui", "Kai", "Rin"], [HUMAN, "easy", "hard"], {"shogun_players": True})
    module = registry.get("japanese_risk").bots_module()
    # a new dict (deleting the key and putting it back would change the levels' order)
    monkeypatch.setattr(module, "BOTS", {k: v for k, v in module.BOTS.items() if k != "easy"})
    again = apps("japanese_risk", folder)
    again.new_game()
    values = again.form.values
    assert values["n"] == 3 and values["names"][:3] == ["Yui", "Kai", "Rin"]
    assert values["kinds"][:3] == [HUMAN, module.DEFAULT_BOT, "hard"]
    assert values["opt"]["shogun_players"] is True


def test_a_game_whose_options_read_back_badly_keeps_those_defaults() -> None:
    """Options read back from a setup are taken one by one, as from the page: a wrong type
    or a value not offered keeps the option's default, the rest is taken."""
    from conquest_widget.games.codex.setup import CodexSetup
    from conquest_widget.games.codex.widget import UI

    setup = CodexSetup.quick(4)
    ui = replace(UI, setup_options=lambda s: {"k": "big", "starting_cash": 700, "nope": 1})
    form = SetupForm(ui, players=range(2, 7), bots=["easy", "normal"], default_bot="normal", last=setup)
    assert form.values["n"] == 4 and form.values["opt"] == {"k": 4, "starting_cash": 700}
    broken = replace(UI, seat_choices=lambda s: 1 / 0)
    form = SetupForm(broken, players=range(2, 7), bots=["easy"], default_bot="easy", last=setup)
    assert form.values["n"] == 3 and form.values["names"][0] == "Ann"


def test_a_remembered_hostile_name_reaches_the_page_as_an_inputs_value(tmp_path, apps) -> None:
    folder = tmp_path / "saves"
    app = apps("conquest_cards", folder)
    fill_and_start(app, [HOSTILE, "Kai"], [HUMAN, "easy"], {})
    assert SaveStore(folder).last_setup("conquest_cards").players[0].name == HOSTILE
    again = apps("conquest_cards", folder)
    again.new_game()
    form = again.form
    assert form.values["names"][0] == HOSTILE
    watch = [{"cls": "cw-seat-0", "tag": "input"}, {"cls": "cw-seat-0"}]
    shown, _sent = run_form(form, {"desc": form.desc, "values": form.values}, watch, [], tmp_path)
    assert shown[0][0]["value"] == HOSTILE  # an input's value, never markup
    assert HOSTILE not in shown[0][1]["text"]

