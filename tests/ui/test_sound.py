"""Sound (issue 16, "Also"): the effects are data, requests leave the kernel only while sound
is on, the setting is remembered in preferences.json (validated; older files still read),
and the Japan app's actions and announcements in both languages.

The page side (WebAudio, speech, the first-click rule) is checked in the browser:
tests/e2e/test_sound_in_browser.py.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any, Self

import comm
import pytest
from comm.base_comm import BaseComm
from traitlets import TraitError

from conquest_widget import JapanConquestApp
from conquest_widget.errors import CorruptSaveError, SaveError
from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    PlayerSetup,
    ScriptedDice,
)
from conquest_widget.games.japan_conquest.actions import Roll, Step
from conquest_widget.games.japan_conquest.sounds import japan_sounds
from conquest_widget.saves import SaveStore
from conquest_widget.saves.documents import SoundPreferenceError
from conquest_widget.ui.match_app import app_class
from conquest_widget.ui.sound import (
    DEFAULT_VOLUME,
    EFFECTS,
    PAGE_LOG_SIZE,
    Sound,
    UnknownEffectError,
    sound_preference,
)

REQUIRED = {"roll", "step", "claim", "upgrade", "battle_won", "battle_lost", "battle", "region", "turn_start", "game_end"}


class Wire:
    """Every comm message the kernel side publishes while installed (a real comm whose
    transport writes into a list instead of a socket)."""

    def __enter__(self) -> Self:
        self.messages: list[tuple[str, dict[str, Any]]] = []
        wire = self

        class RecordingComm(BaseComm):
            def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                            **keys: Any) -> None:
                wire.messages.append((msg_type, json.loads(json.dumps(data or {}))))

        self._saved = comm.create_comm
        comm.create_comm = lambda *a, **kw: RecordingComm(*a, **kw)
        return self

    def __exit__(self, *exc: object) -> None:
        comm.create_comm = self._saved

    def custom(self) -> list[dict[str, Any]]:
        """The custom messages (Sound.play / Sound.say) sent so far."""
        return [d["content"] for t, d in self.messages if t == "comm_msg" and d.get("method") == "custom"]


# --------------------------------------------------------------- the widget
def test_every_required_effect_has_a_well_formed_recipe():
    assert set(EFFECTS) == REQUIRED
    for name, recipe in EFFECTS.items():
        assert recipe, name
        for voice in recipe:
            assert voice["wave"] in {"sine", "square", "triangle", "sawtooth", "noise"}, name
            assert 0 < voice["dur"] <= 1.5 and 0 <= voice.get("at", 0) < 1, name
            assert 0 < voice["gain"] <= 0.6, name
            if voice["wave"] != "noise":
                assert 20 <= voice["freq"] <= 5000 and 20 <= voice.get("to", voice["freq"]) <= 5000, name
            if "filter" in voice:
                assert voice["filter"]["type"] in {"lowpass", "bandpass", "highpass"}, name
        assert max(v.get("at", 0) + v["dur"] for v in recipe) <= 1.5, f"{name} is not a short effect"


def test_the_page_module_gets_every_recipe_and_records_a_bounded_list():
    esm = Sound()._esm
    assert json.dumps(EFFECTS, separators=(",", ":")) in esm
    assert f"const LOG_SIZE = {PAGE_LOG_SIZE};" in esm
    assert "//" not in esm.split("\n")[0] and not esm.startswith(" ")  # sent without comment lines and indentation
    assert "window.__cwSound" in esm and "speechSynthesis" in esm
    # no AudioContext is made at load: only inside the first pointerdown/keydown handler
    before_listener = esm.split('for (const kind of ["pointerdown", "keydown"])')[0]
    assert before_listener.count("new Ctor()") == 1 and "const unlock = () =>" in before_listener


def test_requests_are_sent_only_while_sound_is_on():
    with Wire() as wire:
        s = Sound(enabled=False, lang="en")
        assert s.play("roll") is False and s.say("Ann's turn") is False
        assert wire.custom() == [] and list(s.sent) == []
        s.enabled = True
        assert s.play("roll") is True
        assert s.play("turn_start", delay=0.6) is True
        assert s.say("  Ann's\nturn ") is True
        assert wire.custom() == [
            {"type": "play", "effect": "roll"},
            {"type": "play", "effect": "turn_start", "delay": 0.6},
            {"type": "say", "text": "Ann's turn", "lang": "en"},
        ]
        assert list(s.sent) == wire.custom()
        s.volume = 0.0  # silent: nothing to send either
        assert s.play("roll") is False and len(wire.custom()) == 3
        s.volume, s.enabled = 0.5, False
        assert s.play("claim") is False and s.say("x") is False and len(wire.custom()) == 3


def test_bad_requests_are_refused_with_the_problem_named():
    s = Sound()
    with pytest.raises(UnknownEffectError, match="unknown sound effect 'trumpet'; the effects are battle, battle_lost"):
        s.play("trumpet")
    with pytest.raises(ValueError, match="delay must be 0 to 5.0 seconds, got -1"):
        s.play("roll", delay=-1)
    with pytest.raises(TypeError, match="text to speak must be a string, got int"):
        s.say(3)  # type: ignore[arg-type]
    with pytest.raises(TraitError, match="volume must be a number from 0 to 1, got 1.5"):
        s.volume = 1.5
    with pytest.raises(TraitError, match='lang must be "en" or "ja", got \'fr\''):
        s.lang = "fr"
    assert list(s.sent) == [] and s.volume == DEFAULT_VOLUME
    assert s.say("   ") is False
    s.say("x" * 1000)
    assert len(s.sent[-1]["text"]) == 300


def test_the_python_side_keeps_only_the_last_requests():
    s = Sound()
    for _ in range(PAGE_LOG_SIZE + 10):
        s.play("step")
    assert len(s.sent) == PAGE_LOG_SIZE


# --------------------------------------------------------------- preferences
def test_sound_preference_round_trip(tmp_path):
    store = SaveStore(tmp_path)
    store.save_preferences({"language": "ja", "sound": {"enabled": False, "volume": 0.25}})
    assert store.preferences()["sound"] == {"enabled": False, "volume": 0.25}
    doc = json.loads((tmp_path / "preferences.json").read_text(encoding="utf-8"))
    assert doc["preferences"]["sound"] == {"enabled": False, "volume": 0.25}
    assert sound_preference(store.preferences()) == {"enabled": False, "volume": 0.25}
    store.save_preferences({"sound": {"enabled": True, "volume": 1}})  # an integer volume is a number
    assert sound_preference(store.preferences()) == {"enabled": True, "volume": 1.0}


def test_older_preference_files_are_still_read(tmp_path):
    store = SaveStore(tmp_path)
    store.save_preferences({"language": "en", "sound": False})  # before the volume existed
    assert sound_preference(store.preferences()) == {"enabled": False, "volume": DEFAULT_VOLUME}
    store.save_preferences({"language": "en"})  # before sound existed: on, default volume
    assert sound_preference(store.preferences()) == {"enabled": True, "volume": DEFAULT_VOLUME}


@pytest.mark.parametrize(("sound", "problem"), [
    ({"enabled": True, "volume": 1.5}, "sound.volume must be a number from 0 to 1, got 1.5"),
    ({"enabled": True, "volume": -0.1}, "sound.volume must be a number from 0 to 1, got -0.1"),
    ({"enabled": True, "volume": "loud"}, "sound.volume must be a number from 0 to 1, got 'loud'"),
    ({"enabled": True, "volume": True}, "sound.volume must be a number from 0 to 1, got True"),
    ({"enabled": True, "volume": float("nan")}, "sound.volume must be a number from 0 to 1, got nan"),
    ({"enabled": "yes", "volume": 0.5}, "sound.enabled must be true or false, got 'yes'"),
    ({"enabled": True}, "sound is missing volume"),
    ({"enabled": True, "volume": 0.5, "voice": "x"}, "sound has unknown field(s) voice; it holds only enabled and volume"),
    (0.5, "sound must be {'enabled': bool, 'volume': 0..1}, got float"),
])
def test_bad_sound_preferences_are_refused_before_writing(tmp_path, sound, problem):
    store = SaveStore(tmp_path)
    store.save_preferences({"language": "ja"})
    before = (tmp_path / "preferences.json").read_bytes()
    with pytest.raises(SoundPreferenceError) as info:
        store.save_preferences({"language": "en", "sound": sound})
    assert str(info.value) == problem
    assert isinstance(info.value, SaveError)  # the app's "settings could not be remembered"
    assert (tmp_path / "preferences.json").read_bytes() == before


@pytest.mark.parametrize("sound", [{"enabled": True, "volume": 2}, {"enabled": 1, "volume": 0.5}, {"on": True},
                                   "loud", {"enabled": True, "volume": 0.5, "x": 1}])
def test_a_hand_edited_file_with_a_bad_sound_setting_is_refused_when_read(tmp_path, sound):
    store = SaveStore(tmp_path)
    store.save_preferences({"language": "ja"})
    path = tmp_path / "preferences.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["preferences"]["sound"] = sound
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CorruptSaveError, match=r"\$\.preferences\.sound"):
        store.preferences()
    # the app opens anyway, with the default sound setting
    app = JapanConquestApp(save_dir=tmp_path)
    assert (app.sound.enabled, app.sound.volume) == (True, DEFAULT_VOLUME)


# --------------------------------------------------------------- the Japan app
def _quick(tmp_path, *, cpu=(False, True), dice=(2, 1, 1, 1, 1, 1)):
    app = JapanConquestApp(save_dir=tmp_path)
    app.sound.sent = deque()  # every message of the game, not only the page's last PAGE_LOG_SIZE
    players = tuple(PlayerSetup(n, h, cpu=c) for n, h, c in zip(("Aoi", "Ren"), (13, 27), cpu, strict=True))
    # a seeded setup: the CPUs' own random stream comes from the match's seed
    app._play(JapanMatch(GameSetup(players=players, turns=10, seed=4), dice=ScriptedDice(list(dice), then_seed=4)),
              speed="instant")
    return app


def test_the_header_switch_and_volume_are_remembered_and_restored(tmp_path):
    app = JapanConquestApp(save_dir=tmp_path)
    toggle, slider = app.sound_controls.toggle, app.sound_controls.slider
    assert toggle.value is True and app.sound.enabled  # default on (sounds after the first click)
    assert toggle.description == "🔊 Sound" and "cw-sound-toggle" in toggle._dom_classes
    assert app.sound_controls in app.bar.children and app.bar is app.children[0]  # in the app's bar, by its title
    assert app.sound in app.sound_controls.children
    toggle.value = False
    slider.value = 0.35
    assert (app.sound.enabled, app.sound.volume) == (False, 0.35)
    assert toggle.description == "🔇 Sound"
    assert SaveStore(tmp_path).preferences()["sound"] == {"enabled": False, "volume": 0.35}
    again = JapanConquestApp(save_dir=tmp_path)
    toggle, slider = again.sound_controls.toggle, again.sound_controls.slider
    assert (toggle.value, slider.value) == (False, 0.35)
    assert (again.sound.enabled, again.sound.volume) == (False, 0.35)
    again.set_lang("ja")
    assert (toggle.description, slider.description, again.sound.lang) == ("🔇 音なし", "音量", "ja")


def test_without_a_save_directory_the_switch_still_works(tmp_path):
    app = JapanConquestApp(save_dir=None)
    app.sound_controls.toggle.value = False
    assert app.sound.enabled is False


def test_a_roll_plays_the_roll_effect_only_while_sound_is_on(tmp_path):
    app = _quick(tmp_path)
    sent = app.sound.sent
    assert list(sent) == [{"type": "play", "effect": "turn_start"},
                          {"type": "say", "text": "Aoi's turn", "lang": "en"}]
    seat = app.board.inner  # the board's buttons and map clicks
    seat.roll()
    assert sent[-1] == {"type": "play", "effect": "roll"}
    seat.click_prefecture(seat.legal_steps[0])
    assert sent[-1] == {"type": "play", "effect": "step"}
    seat.undo_step()
    app.sound_controls.toggle.value = False
    n = len(sent)
    seat.click_prefecture(seat.legal_steps[0])
    seat.undo_step()
    assert len(sent) == n
    app.play_again()  # a new game, sound still off: its roll is silent too
    seat = app.board.inner
    assert seat.phase == "roll" and seat.current_player == 0
    seat.roll()
    assert seat.phase == "route" and len(sent) == n


def test_a_whole_game_sounds_its_turns_claims_and_end(tmp_path):
    async def main() -> Any:
        # in a kernel (an event loop) the CPUs play in the background, each action shown
        # and heard, "instant": without a pause
        app = _quick(tmp_path, cpu=(True, True))
        await app.controller.wait_cpus()
        return app

    app = asyncio.run(main())
    c = app.controller
    assert app.screen == "results" and c.is_over
    effects = [m["effect"] for m in app.sound.sent if m["type"] == "play"]
    said = [m["text"] for m in app.sound.sent if m["type"] == "say"]
    assert effects[-1] == "game_end" and {"turn_start", "roll", "step", "claim"} <= set(effects)
    assert "battle_won" not in effects and "battle_lost" not in effects  # no human side: neutral battles only
    ends = [e for e in c.events if e["type"] == "game_end"]
    assert len(ends) == 1
    winners = ", ".join(("Aoi", "Ren")[s] for s in ends[0]["winners"])
    assert said[-1].endswith(f"Game over. Winner: {winners}")


# --------------------------------------------------------------- effects and words of events
def _battle(attacker_cpu: bool, defender_cpu: bool, attack: int, defence: int) -> tuple[list[dict], list[dict]]:
    """The players (as the view has them) and the events of a battle's last roll."""
    setup = GameSetup(players=(PlayerSetup("Aoi", 13, cpu=attacker_cpu), PlayerSetup("Ren", 27, cpu=defender_cpu)),
                      turns=10)
    g = JapanMatch(setup, dice=ScriptedDice([1, attack, defence], then_seed=5))
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.roll()
    g.step("Saitama")
    g.confirm_route()
    g.battle_roll()
    n = len(g.events)
    g.battle_roll()
    return [{"name": p.name, "cpu": p.cpu} for p in setup.players], g.full_events(n)


@pytest.mark.parametrize(("attacker_cpu", "defender_cpu", "attack", "defence", "effect"), [
    (False, True, 6, 1, "battle_won"),   # the human attacker wins
    (False, True, 1, 6, "battle_lost"),  # the human attacker is repelled
    (True, False, 6, 1, "battle_lost"),  # the human defender loses the prefecture
    (True, False, 1, 6, "battle_won"),   # the human defender holds
    (True, True, 6, 1, "battle"),        # CPU against CPU: neutral
    (False, False, 6, 1, "battle"),      # two humans at one screen: neutral
])
def test_a_battle_sounds_from_the_human_side(attacker_cpu, defender_cpu, attack, defence, effect):
    g, events = _battle(attacker_cpu, defender_cpu, attack, defence)
    effects, _ = japan_sounds(g, events, None, "en")
    assert effects[0] == (effect, 0.0)


def test_announcements_in_english_and_japanese():
    g, events = _battle(False, True, 6, 1)
    effects, text = japan_sounds(g, events, None, "en")
    assert text.startswith("Aoi wins the battle for Saitama. Ren's turn")
    assert ("turn_start", 0.6) in effects
    _, text = japan_sounds(g, events, None, "ja")
    assert text.startswith("Aoiが埼玉県の合戦に勝利。Renの番です")
    g, events = _battle(False, True, 1, 6)
    assert japan_sounds(g, events, None, "ja")[1].startswith("Renが埼玉県を守りました")
    region = [{"type": "region_gained", "player": 0, "region": "kanto", "points": 350}]
    assert japan_sounds(g, region, None, "en") == ([("region", 0.0)], "Aoi controls Kanto")
    assert japan_sounds(g, region, None, "ja") == ([("region", 0.0)], "Aoiが関東を統一")
    end = [{"type": "game_end", "winners": [0, 1], "reason": "turns"}, {"type": "turn_start", "player": 0}]
    assert japan_sounds(g, end, None, "ja")[1].startswith("ゲーム終了。勝者はAoi・Ren")
    assert japan_sounds(g, end, None, "en")[0] == [("game_end", 0.0)]  # no turn chime after the end


def test_announcements_never_speak_points():
    g, events = _battle(False, True, 6, 1)
    for lang in ("en", "ja"):
        _, text = japan_sounds(g, events + [{"type": "region_gained", "player": 0, "region": "kanto", "points": 350}],
                               None, lang)
        assert "350" not in text and "+" not in text


def test_one_action_plays_its_most_important_effect():
    g = [{"name": "Player 1", "cpu": False}, {"name": "Player 2", "cpu": False}]
    events = [{"type": "claimed", "player": 0, "pref": 11, "points": 40},
              {"type": "upgraded", "player": 0, "pref": 11, "points": 40}]
    assert japan_sounds(g, events, Step(11), "en")[0] == [("upgrade", 0.0)]
    assert japan_sounds(g, [], Step(11), "en")[0] == [("step", 0.0)]
    assert japan_sounds(g, [], Roll(1), "en") == ([], "")


# --------------------------------------------------------------- the shared shell
def _codex(tmp_path, seed: int = 7):
    from conquest_widget.games.codex.widget import App

    app = App(save_dir=tmp_path)
    app.new_game()
    app.n_players.value = 2
    app.seat_rows[1][1].value = "easy"
    app.option_widgets["k"].value = 3
    app.speed.value = "instant"
    app.seed.value = str(seed)
    return app


def test_the_shell_bar_has_the_switch_and_remembers_it(tmp_path):
    app = _codex(tmp_path)
    controls = app.sound_controls
    assert controls in app.bar.children and app.bar in app.children
    assert controls.toggle.description == "🔊 Sound" and app.sound.enabled
    controls.toggle.value = False
    controls.slider.value = 0.8
    assert SaveStore(tmp_path).preferences()["sound"] == {"enabled": False, "volume": 0.8}
    app.set_lang("ja")
    assert (controls.toggle.description, controls.slider.description, app.sound.lang) == ("🔇 音なし", "音量", "ja")
    # the same folder's Japan Conquest app reads the same setting
    assert JapanConquestApp(save_dir=tmp_path).sound.volume == 0.8
    again = _codex(tmp_path)
    assert (again.sound.enabled, again.sound_controls.slider.value) == (False, 0.8)


def test_a_hosted_game_sounds_the_turn_its_events_and_the_end(tmp_path):
    import random

    app = _codex(tmp_path)
    app.start()
    c = app.controller
    sent = app.sound.sent
    assert {"type": "play", "effect": "turn_start"} in sent
    assert {"type": "say", "text": "Ann's turn", "lang": "en"} in sent
    rng = random.Random(3)
    for _ in range(5000):
        if c.is_over:
            break
        c.act(rng.choice(c.legal))
    assert c.is_over and app.screen == "results"
    effects = [m["effect"] for m in sent if m["type"] == "play"]
    assert effects[-1] == "game_end" and "roll" in effects
    last = [m["text"] for m in sent if m["type"] == "say"][-1]
    assert last.startswith("Game over. Winner: ")


def test_a_hosted_game_is_silent_with_sound_off(tmp_path):
    app = _codex(tmp_path)
    app.sound_controls.toggle.value = False
    app.start()
    c = app.controller
    for _ in range(30):
        if c.is_over or not c.legal:
            break
        c.act(c.legal[0])
    assert list(app.sound.sent) == []


# ---------------------------------------------------------------- each game's own table (issue 29)
#: the event -> effect tables as ui/sound.py held them (GAME_EFFECTS, keyed by game id)
#: before issue 29 moved each into its game's folder (games/<id>/sounds.py -> GameUI.sounds)
BEFORE_ISSUE_29 = {
    "codex": {"turn": "turn_start", "roll": "roll", "buy": "claim", "place": "step", "eliminated": "battle",
              "end": "game_end"},
    "japanese_risk": {"turn": "turn_start", "captured": "claim", "battle_round": "battle",
                      "castle_built": "upgrade", "game_over": "game_end"},
    "conquest_cards": {"draw": "step", "place": "step", "play": "claim", "joker": "upgrade", "over": "game_end"},
}
#: what the shell adds itself (the turn chime, the end fanfare): not the game's table's doing
_SHELL_EFFECTS = {"turn_start", "game_end"}


def _hosted_ui(game: str):
    import importlib

    return importlib.import_module(f"conquest_widget.games.{game}.widget").UI


def test_the_shell_holds_no_game_table() -> None:
    import conquest_widget.ui.sound as sound_module

    assert not hasattr(sound_module, "GAME_EFFECTS") and "GAME_EFFECTS" not in sound_module.__all__


@pytest.mark.parametrize("game", sorted(BEFORE_ISSUE_29))
def test_each_hosted_game_chooses_the_same_effects_from_its_own_table(game: str) -> None:
    """For every event type of the game (and every pair of them, and types no table maps),
    the effects the shell chooses from the game's ``GameUI.sounds`` are those it chose from
    the shell's old table."""
    from itertools import combinations

    from conquest_widget.ui.sound import pick_effects

    ui = _hosted_ui(game)
    before = BEFORE_ISSUE_29[game]
    assert ui.sounds == before and set(ui.sounds.values()) <= set(EFFECTS)
    kinds = [*before, "select", "no_such_event"]

    def chosen(table: dict[str, str], types: tuple[str, ...]) -> list[tuple[str, float]]:
        return pick_effects({table[k] for k in types if k in table})

    for n in (1, 2):
        for types in combinations(kinds, n):
            assert chosen(dict(ui.sounds), types) == chosen(before, types), (game, types)


def _play_hosted(ui, save_dir, actions: int = 80) -> list[dict[str, Any]]:
    """Every sound request of a seeded 2-player game (a human playing random legal moves
    against an easy CPU) in an app built from ``ui``."""
    import random

    app = app_class(ui)(save_dir=save_dir)
    app.sound.sent = []  # keep every request (the page log keeps the last 50)
    app.new_game()
    app.n_players.value = 2
    app.seat_rows[1][1].value = "easy"
    if "round_limit" in app.option_widgets:
        app.option_widgets["round_limit"].value = 3
    app.speed.value = "instant"
    app.seed.value = "11"
    app.start()
    c, rng = app.controller, random.Random(5)
    for _ in range(actions):
        if c.is_over or not c.legal:
            break
        c.act(rng.choice(c.legal))
    return list(app.sound.sent)


@pytest.mark.parametrize("game", sorted(BEFORE_ISSUE_29))
def test_each_hosted_games_sounds_fire_from_its_own_folder(game: str, tmp_path) -> None:
    """The hook fires: the game's effects are played from ``GameUI.sounds``, exactly the
    requests the old table gave in the same game, and none without a table."""
    from dataclasses import replace

    ui = _hosted_ui(game)
    now = _play_hosted(ui, tmp_path / "now")
    before = _play_hosted(replace(ui, sounds=BEFORE_ISSUE_29[game]), tmp_path / "before")
    silent = _play_hosted(replace(ui, sounds={}), tmp_path / "silent")
    played = {m["effect"] for m in now if m["type"] == "play"}
    assert now == before
    assert played - _SHELL_EFFECTS, (game, played)  # the game's own effects sounded
    assert {m["effect"] for m in silent if m["type"] == "play"} <= _SHELL_EFFECTS
