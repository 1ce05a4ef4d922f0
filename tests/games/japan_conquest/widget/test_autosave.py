"""Autosave off the click path (issue 18 item 6): inside an event loop the write follows the
published views, once for quick successive clicks; leaving the game, a new game and a
crash-free exit write what is pending."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup
from conquest_widget.saves import SaveStore
from conquest_widget.ui import autosave as autosave_module

from .conftest import button, play

SETUP = GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=10, seed=4)  # saves need seeded dice


def _writes(monkeypatch, app):
    """Count the store's autosave writes."""
    writes = []
    original = app.store.write_autosave  # every autosave of the app goes through it

    def write_autosave(game, *a, **kw):
        writes.append(game.turn_number())
        return original(game, *a, **kw)

    monkeypatch.setattr(app.store, "write_autosave", write_autosave)
    return writes


def _saved_snapshot(tmp_path):
    return SaveStore(tmp_path / "saves").load_autosave().state.snapshot()


def test_in_a_kernel_the_click_returns_before_the_write_and_quick_clicks_share_one(tmp_path, monkeypatch):
    monkeypatch.setattr(autosave_module, "AUTOSAVE_DELAY", 0.05)

    async def main():
        app = JapanConquestApp(save_dir=tmp_path / "saves")
        c = play(app, SETUP)  # a new game: written at once
        match = app.controller._match
        writes = _writes(monkeypatch, app)
        c.roll()
        c.click_prefecture(c.legal_steps[0])
        assert c.route and writes == [] and app.autosaver.pending  # nothing written on the click path
        assert _saved_snapshot(tmp_path) != match.state.snapshot()
        await asyncio.sleep(0.2)
        assert len(writes) == 1 and not app.autosaver.pending  # one write for both actions
        assert _saved_snapshot(tmp_path) == match.state.snapshot()
        app.close()

    asyncio.run(main())


def test_leaving_the_game_writes_the_pending_autosave_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(autosave_module, "AUTOSAVE_DELAY", 60)

    async def main():
        app = JapanConquestApp(save_dir=tmp_path / "saves")
        c = play(app, SETUP)
        match = app.controller._match
        c.roll()
        c.click_prefecture(c.legal_steps[0])
        assert app.autosaver.pending
        button(app, "cw-exit").click()  # Exit: the autosave stays, and is current
        assert app.screen == "start" and not app.autosaver.pending
        assert _saved_snapshot(tmp_path) == match.state.snapshot()
        button(app, "cw-resume").click()
        c = app.board.inner
        assert c.route == app.controller._match.route == match.route and len(c.route) == 1
        app.close()

    asyncio.run(main())


def test_without_an_event_loop_every_human_action_is_written_at_once(tmp_path):
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    c = play(app, SETUP)
    c.roll()
    c.click_prefecture(c.legal_steps[0])
    assert not app.autosaver.pending
    assert _saved_snapshot(tmp_path) == app.controller._match.state.snapshot()
    app.close()


def test_a_crash_free_exit_loses_no_action(tmp_path):
    """A real interpreter: clicks inside a running loop, the loop and the process end before
    the delayed write is due; the atexit hook writes it."""
    script = textwrap.dedent(f"""
        import asyncio, json
        from conquest_widget import JapanConquestApp
        from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup
        from conquest_widget.ui import autosave as autosave_module
        autosave_module.AUTOSAVE_DELAY = 3600

        async def main():
            app = JapanConquestApp(save_dir={str(tmp_path / "saves")!r})
            app._play(JapanMatch(GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=10, seed=4)),
                      speed="instant")
            c = app.board.inner
            c.roll()
            c.click_prefecture(c.legal_steps[0])
            assert app.autosaver.pending
            print(json.dumps(c.route))
            return app

        keep = asyncio.run(main())
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    route = json.loads(out.stdout.strip().splitlines()[-1])
    saved = SaveStore(tmp_path / "saves").load_autosave()
    assert saved.route == route and len(route) == 1
