"""One autosave path for every game (issue 29): the shell's :class:`Autosaver`, as a
player of a hosted game meets it.  Deferred (Japan Conquest; a hosted game with
``MatchApp.autosave_deferred``), inside a kernel (a running event loop) a move's autosave
is written shortly after the move, once for quick successive moves; every way out of the
game writes it first, and so does a crash-free exit of the interpreter.  The hosted games
write at once (their browser tests read the autosave as their referee).  A finished
game's result is recorded once; another page's autosave is never overwritten without a
word.  Played with the toy game of :mod:`toy_game` (real event loops, real files; no timed
assertion: a long delay is set and the write is awaited or flushed)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from ipywidgets.widgets.widget import _instances as WIDGETS

from conquest_widget.saves import SaveStore
from conquest_widget.ui import autosave as autosave_module
from conquest_widget.ui.autosave import Autosaver
from conquest_widget.ui.controller import MatchController
from conquest_widget.ui.game_ui import HUMAN

from .test_match_app import ToyApp, click, setup_game
from .toy_game import Keep, Swap, ToyMatch, ToySetup

TESTS = Path(__file__).resolve().parent.parent


class DeferredToyApp(ToyApp):
    autosave_deferred = True


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    for w in list(WIDGETS.values()):
        w.close()


def _store(tmp_path) -> SaveStore:
    return SaveStore(tmp_path, engines={"toy": ToyMatch})


def _autosaved_swaps(tmp_path) -> list[bool]:
    return _store(tmp_path).load_autosave("toy").state["swapped"]


def _count_writes(monkeypatch, store: SaveStore) -> list[int]:
    """The autosave writes of ``store`` (each still done: counted on the way)."""
    writes: list[int] = []
    original = store.write_autosave

    def write_autosave(game, *a, **kw):
        writes.append(len(game.log))
        return original(game, *a, **kw)

    monkeypatch.setattr(store, "write_autosave", write_autosave)
    return writes


def _three_humans(app: ToyApp) -> None:
    setup_game(app, [HUMAN, HUMAN, HUMAN], seed=11)
    click(app, "I am Ann: show my view")


@pytest.mark.parametrize("way_out", ["Exit", "leave", "new_game", "close", "resume", "replay"])
def test_a_move_in_a_kernel_is_on_disk_once_the_player_leaves_the_game(tmp_path, monkeypatch, way_out) -> None:
    """The move is not written on the click path; whatever way the player leaves the game
    (Exit, Back to games, a new game, closing the page, Resume, a replay of the autosave),
    the autosave holds it."""
    monkeypatch.setattr(autosave_module, "AUTOSAVE_DELAY", 3600)

    async def main() -> None:
        app = DeferredToyApp(save_dir=tmp_path)
        _three_humans(app)
        click(app, "swap")
        assert app.autosaver.pending and _autosaved_swaps(tmp_path) == [False, False, False]
        if way_out == "leave":
            app.leave()  # the shell's Back to games
        elif way_out == "close":
            app.close()
        elif way_out == "resume":
            app.resume()  # Continue reads what was written: the game as it was left
            assert app.controller.view["swapped"] == [True, False, False]
        elif way_out == "replay":
            app.replay(None)  # the autosave's Replay
        elif way_out == "new_game":
            app.new_game()
        else:
            click(app, way_out)
        assert not app.autosaver.pending
        assert _autosaved_swaps(tmp_path) == [True, False, False]

    asyncio.run(main())


def test_quick_moves_in_a_kernel_share_one_write_made_after_the_moves(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(autosave_module, "AUTOSAVE_DELAY", 0.05)

    async def main() -> None:
        app = DeferredToyApp(save_dir=tmp_path)
        _three_humans(app)
        writes = _count_writes(monkeypatch, app.store)
        click(app, "swap")
        click(app, "I am Ben: show my view")
        click(app, "keep")
        assert writes == [] and app.autosaver.pending  # nothing written on the click path
        for _ in range(1000):  # the loop runs the write (a bound, never a timing)
            if not app.autosaver.pending:
                break
            await asyncio.sleep(0.01)
        assert len(writes) == 1  # one write, holding both moves
        assert _autosaved_swaps(tmp_path) == [True, False, False]
        assert _store(tmp_path).load_autosave("toy").state["turn"] == 2

    asyncio.run(main())


def test_without_an_event_loop_a_move_is_written_at_once(tmp_path) -> None:
    app = DeferredToyApp(save_dir=tmp_path)
    _three_humans(app)
    click(app, "swap")
    assert not app.autosaver.pending
    assert _autosaved_swaps(tmp_path) == [True, False, False]


def test_a_hosted_games_move_is_on_disk_at_once_in_a_kernel_too(tmp_path, monkeypatch) -> None:
    """The hosted games' default: the autosave is the position on screen as soon as the
    move is shown (what their browser tests read)."""
    monkeypatch.setattr(autosave_module, "AUTOSAVE_DELAY", 3600)

    async def main() -> None:
        app = ToyApp(save_dir=tmp_path)
        _three_humans(app)
        click(app, "swap")
        assert not app.autosaver.pending
        assert _autosaved_swaps(tmp_path) == [True, False, False]

    asyncio.run(main())


def test_a_crash_free_exit_of_the_interpreter_writes_the_pending_move(tmp_path) -> None:
    """A real interpreter: the move is made inside a running loop, then the loop and the
    process end long before the write is due; the atexit hook writes it."""
    script = textwrap.dedent(f"""
        import asyncio, sys
        sys.path.insert(0, {str(TESTS)!r})
        from conquest_widget.ui import autosave
        from ui.test_match_app import ToyApp, click, setup_game
        autosave.AUTOSAVE_DELAY = 3600

        class DeferredToyApp(ToyApp):
            autosave_deferred = True

        async def main():
            app = DeferredToyApp(save_dir={str(tmp_path)!r})
            setup_game(app, ["human", "human", "human"], seed=11)
            click(app, "I am Ann: show my view")
            click(app, "swap")
            assert app.autosaver.pending
            print("pending")
            return app

        keep = asyncio.run(main())
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["pending"]
    assert _autosaved_swaps(tmp_path) == [True, False, False]


def _finished(seed: int = 5) -> MatchController:
    match = ToyMatch(ToySetup.from_dict({"players": ["A", "B"]}), seed=seed)
    match.apply(Keep(), 0)
    match.apply(Swap(), 1)
    c = MatchController(match, humans={0, 1})
    assert c.is_over
    return c


@pytest.mark.parametrize("keep_finished", [False, True])
def test_a_finished_game_is_recorded_once_however_often_it_is_written(tmp_path, keep_finished) -> None:
    store = _store(tmp_path)
    c = _finished()
    saver = Autosaver(store, "toy", lambda: c, keep_finished=keep_finished)
    saver.begin()
    saver.write()
    saver.write()
    saver.begin()  # the same finished game shown again (loaded from a slot, say)
    saver.write()
    assert len(store.results("toy")) == 1
    # kept as the autosave (Japan Conquest's start screen shows and replays it), or cleared
    assert store.has_autosave("toy") is keep_finished


def test_the_shell_records_a_finished_game_once_and_clears_its_autosave(tmp_path) -> None:
    app = ToyApp(save_dir=tmp_path)
    setup_game(app, [HUMAN, "greedy"], seed=7)
    click(app, "keep")
    assert app.screen == "results"
    app.autosaver.write()  # written again: nothing more is recorded
    store = _store(tmp_path)
    assert len(store.results("toy")) == 1 and not store.has_autosave("toy")


def test_another_pages_autosave_is_never_overwritten_and_the_page_is_told(tmp_path, monkeypatch) -> None:
    """Page A has a move pending in its kernel when page B starts another game of the same
    kind: A's write is refused (B's game stays the autosave) and A says so."""
    monkeypatch.setattr(autosave_module, "AUTOSAVE_DELAY", 3600)

    async def main() -> None:
        a = DeferredToyApp(save_dir=tmp_path)
        _three_humans(a)
        click(a, "swap")
        assert a.autosaver.pending
        b = ToyApp(save_dir=tmp_path)
        setup_game(b, [HUMAN, HUMAN], seed=12)  # B's new game replaces the autosave
        told: list[str] = []
        shown = a.autosaver.on_elsewhere
        a.autosaver.on_elsewhere = lambda: (told.append("elsewhere"), shown())
        a.autosaver.flush()
        assert told == ["elsewhere"] and a.autosaver.lost
        assert a.elsewhere.layout.display is None  # "Another tab ..." above A's board
        assert _store(tmp_path).load_autosave("toy").n_seats == 2  # B's game, untouched
        b.close()

    asyncio.run(main())


def test_a_store_error_goes_to_the_apps_own_words(tmp_path) -> None:
    problems: list[str] = []
    c = _finished()
    target = tmp_path / "file"
    target.write_text("not a folder")
    saver = Autosaver(SaveStore(target / "saves", engines={"toy": ToyMatch}), "toy", lambda: c,
                      on_error=lambda exc: problems.append(type(exc).__name__))
    saver.begin()
    saver.write()
    assert len(problems) == 1

