"""The same game open in two tabs (issue 31 item 10): a game's autosave belongs to the
one app that has that game on screen (its play lease, ``SaveStore.claim_autosave``).

Each browser tab of ``conquest-widget play`` is its own kernel process, so "another tab"
is a real second Python process here (a small script that opens the same save folder
and starts a game through the app class, then waits); "another app in this kernel" is a
second app object in the test process.  Nothing is mocked.

On the code before the lease, every test here fails: Resume and Start in the second app
took the game over (``app.controller`` was set, the screen went to play, and the other
tab's autosave was replaced: its bytes changed), and ``SaveStore.claim_autosave`` did not
exist (AttributeError in the probes of the ordinary flow).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conquest_widget import ConquestApp, JapanConquestApp
from conquest_widget.errors import GameOpenElsewhereError
from conquest_widget.games.codex.widget import App as CodexApp
from conquest_widget.games.japan_conquest import GameSetup
from conquest_widget.saves import SaveStore

ROOT = Path(__file__).resolve().parents[2]

#: the other tab: opens the save folder, puts a game on screen through the app, waits
HOLDER = r"""
import sys
kind, folder = sys.argv[1], sys.argv[2]
if kind == "codex":
    from conquest_widget.games.codex.widget import App
    app = App(save_dir=folder)
    app.new_game()
    app.seed.value = "5"
    app.start()
    assert app.screen == "play", app.message.value
elif kind == "japan":
    from conquest_widget import ConquestApp, JapanConquestApp
    from conquest_widget.games.japan_conquest import GameSetup
    app = JapanConquestApp(save_dir=folder)
    app.controller.new_game(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    assert app.controller.screen == "game", app.controller.load_problem
print("holding", flush=True)
sys.stdin.read()  # until the test kills this process (or closes stdin)
"""

#: exits 0 when the play lease of a game can be taken now, 3 when an app holds it
PROBE = r"""
import sys
from conquest_widget.errors import GameOpenElsewhereError
from conquest_widget.saves import SaveStore
try:
    SaveStore(sys.argv[2]).claim_autosave(sys.argv[1])
except GameOpenElsewhereError:
    sys.exit(3)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


@pytest.fixture
def other_tab():
    """``other_tab(kind, folder)`` starts a second process holding a game on screen;
    every one still running at the end is killed."""
    procs: list[subprocess.Popen[str]] = []

    def start(kind: str, folder: Path) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-c", HOLDER, kind, str(folder)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
        procs.append(proc)
        line = proc.stdout.readline()
        if line.strip() != "holding":
            proc.kill()
            raise AssertionError(f"the other tab did not start: {line!r} {proc.stderr.read()[-2000:]}")
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def kill(proc: subprocess.Popen[str]) -> None:
    """The tab's kernel dies (no exit handler, no release)."""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def claimable(game: str, folder: Path) -> bool:
    """Could another process take the game's play lease now?"""
    run = subprocess.run([sys.executable, "-c", PROBE, game, str(folder)], check=False, capture_output=True, text=True,
                         env=_env(), timeout=120)
    assert run.returncode in (0, 3), run.stderr[-2000:]
    return run.returncode == 0


# ---------------------------------------------------------------- the shell's MatchApp
def test_a_codex_game_open_in_another_tab_is_neither_resumed_nor_replaced(tmp_path, other_tab) -> None:
    tab = other_tab("codex", tmp_path)
    autosave = tmp_path / "autosave-codex.json"
    before = autosave.read_bytes()
    other = SaveStore(tmp_path).load_autosave("codex")
    SaveStore(tmp_path).save_slot(1, other)  # a saved Codex game in a slot too

    app = CodexApp(save_dir=tmp_path)
    app.resume()
    assert app.controller is None and app.screen == "start"
    assert "The Codex of Conquest is open in another tab or window of this save folder" in app.message.value
    assert "close that tab (its game stays autosaved) and press Resume here" in app.message.value
    app.load_slot(1)  # another game of the same kind would replace that tab's autosave
    assert app.controller is None and app.screen == "start"
    assert "open in another tab or window" in app.message.value
    app.new_game()
    app.seed.value = "9"
    app.start()  # a NEW game would replace it too
    assert app.controller is None and app.screen == "setup"
    assert "open in another tab or window" in app.message.value
    with pytest.raises(GameOpenElsewhereError, match="The Codex of Conquest is open in another tab"):
        app.store.autosave(other)  # nor can the store write it behind that tab's back
    with pytest.raises(GameOpenElsewhereError):
        app.store.clear_autosave("codex")
    assert autosave.read_bytes() == before

    kill(tab)  # the other tab's kernel is killed: the OS frees its lease
    app.show_start()
    app.resume()
    assert app.screen == "play" and app.controller is not None
    assert app.controller.document()["log"] == other.to_dict()["log"]
    assert not claimable("codex", tmp_path)  # now this app has it


def test_a_newer_codex_app_in_the_same_kernel_takes_the_game_over(tmp_path) -> None:
    """A notebook cell run again makes a new app while the old one still shows the game:
    the newer one takes it over (the older leaves it for its start screen, saying where it
    went; nothing is lost: the autosave is the game as it was), and so on back and forth."""
    first = CodexApp(save_dir=tmp_path)
    first.new_game()
    first.seed.value = "5"
    first.start()
    document = first.controller.document()

    second = CodexApp(save_dir=tmp_path)
    second.resume()
    assert second.screen == "play" and second.controller.document() == document
    assert first.controller is None and first.screen == "start"
    assert "now played in another app of this notebook" in first.message.value
    assert not claimable("codex", tmp_path)

    first.resume()  # and back: the older app takes it again, the newer one steps aside
    assert first.screen == "play" and first.controller.document() == document
    assert second.controller is None and second.screen == "start"
    second.new_game()
    second.start()  # a new game takes the lease over too (and replaces the autosave)
    assert second.screen == "play" and first.controller is None
    second.close()
    assert claimable("codex", tmp_path)
    first.close()


def test_the_ordinary_flow_holds_the_lease_only_while_a_game_is_on_screen(tmp_path) -> None:
    app = CodexApp(save_dir=tmp_path)
    assert claimable("codex", tmp_path)
    app.new_game()
    app.seed.value = "5"
    app.start()
    assert app.screen == "play" and app.message.value == ""
    assert not claimable("codex", tmp_path)
    app.exit()
    assert claimable("codex", tmp_path) and "autosaved" in app.message.value
    app.resume()
    assert app.screen == "play" and app.message.value == ""
    assert not claimable("codex", tmp_path)
    app.new_game()  # the setup form: the game left the screen
    assert claimable("codex", tmp_path)
    app.start()
    assert app.screen == "play"
    app.replay(None)  # the replay explorer: no game on screen
    assert claimable("codex", tmp_path)
    app.show_start()
    app.resume()
    assert app.screen == "play"
    app.close()
    assert claimable("codex", tmp_path)


# ---------------------------------------------------------------- Japan Conquest's app
def _form() -> dict:
    return GameSetup.quick(["Hokkaido", "Okinawa"], seed=3).to_dict()


def test_a_japan_conquest_game_open_in_another_tab_is_neither_continued_nor_replaced(tmp_path, other_tab) -> None:
    tab = other_tab("japan", tmp_path)
    autosave = tmp_path / "autosave.json"
    before = autosave.read_bytes()
    other = SaveStore(tmp_path).load_autosave()
    SaveStore(tmp_path).save_slot(2, other)

    app = JapanConquestApp(save_dir=tmp_path)
    c = app.controller
    assert not app.start_saves.continue_button.disabled
    app.start_saves.continue_last()
    assert c.screen == "start" and not c.has_game
    text = app.start_saves.message.value
    assert "Japan Conquest is open in another tab or window of this save folder" in text
    assert "press Continue Last Game here" in text
    app.start_saves.message.value = ""
    app.start_saves.resume(2)
    assert c.screen == "start" and not c.has_game and "another tab" in app.start_saves.message.value
    app.start_saves.message.value = ""
    c.watch_cpus(turns=5)  # the demo writes the autosave too
    assert c.screen == "start" and not c.has_game and "another tab" in app.start_saves.message.value
    c.screen = "setup"
    assert c.new_game_from_form(_form()) is False
    assert c.screen == "setup" and "open in another tab or window" in c.setup_error
    with pytest.raises(GameOpenElsewhereError, match="Japan Conquest is open in another tab"):
        app.store.autosave(other)
    assert autosave.read_bytes() == before

    kill(tab)
    c.screen = "start"
    app.start_saves.continue_last()
    assert c.screen == "game" and c.document()["log"] == other.to_dict()["log"]
    assert not claimable("japan_conquest", tmp_path)


def test_a_newer_japan_conquest_app_in_the_same_kernel_takes_over_and_the_ordinary_flow(tmp_path) -> None:
    first = JapanConquestApp(save_dir=tmp_path)
    first.controller.new_game(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    assert first.controller.screen == "game"
    first.controller.roll()
    log = first.controller.document()["log"]

    second = JapanConquestApp(save_dir=tmp_path)
    second.start_saves.continue_last()
    assert second.controller.screen == "game" and second.controller.document()["log"] == log
    assert first.controller.screen == "start" and "now played in another app" in first.controller.message
    assert not claimable("japan_conquest", tmp_path)
    second.close()
    assert claimable("japan_conquest", tmp_path)
    first.start_saves.continue_last()
    assert first.controller.screen == "game"
    first.controller.screen = "setup"  # New game: the old game left the screen
    assert claimable("japan_conquest", tmp_path)
    assert first.controller.new_game_from_form(_form())
    assert first.controller.screen == "game" and not claimable("japan_conquest", tmp_path)
    first.close()


def test_the_shells_all_games_lets_go_of_the_game(tmp_path) -> None:
    """"All games" leaves the game's app (the shell makes a new app when a game is picked
    again): its lease goes with it, so the new app continues the game."""
    shell = ConquestApp(save_dir=tmp_path)
    japan = shell.play("japan_conquest")
    japan.controller.new_game(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    assert japan.controller.screen == "game" and not claimable("japan_conquest", tmp_path)
    shell.show_picker()
    assert claimable("japan_conquest", tmp_path)
    again = shell.play("japan_conquest")
    again.start_saves.continue_last()
    assert again.controller.screen == "game" and again.controller.document()["log"] == japan.controller.document()["log"]
    shell.show_picker()
    codex = shell.play("codex")
    codex.new_game()
    codex.start()
    assert codex.screen == "play" and not claimable("codex", tmp_path)
    shell.show_picker()
    assert claimable("codex", tmp_path) and claimable("japan_conquest", tmp_path)
