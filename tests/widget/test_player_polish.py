"""Issue 16 (Japan Conquest as players meet it): widget-level tests, each written to fail
before its fix."""

from __future__ import annotations

import asyncio

from conquest_widget import JapanConquestApp
from conquest_widget.controller import GameController
from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup


def _human_then_cpu(app: JapanConquestApp, speed: str = "normal") -> GameController:
    c = app.controller
    c.cpu_speed = speed
    setup = GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1)
    c.new_game(setup)
    c.roll()
    while not c.can_confirm:
        c.click_prefecture(c.legal_steps[0])
    c.confirm_route()
    return c


# ---------------------------------------------------------------- item 2: the freeze
def test_save_and_exit_during_a_cpu_turn_then_resume_the_cpu_finishes_its_turn(tmp_path):
    async def main():
        app = JapanConquestApp(save_dir=tmp_path / "saves")
        c = _human_then_cpu(app, "normal")
        assert c.cpu_busy and c.current_player == 1  # "CPU Bot is playing..."
        app.save_exit.show_slots()
        app.save_exit.slot.value = 1
        app.save_exit.save()
        assert c.screen == "start", (app.save_exit.message.value, app.save_exit.confirm.text.value)
        app.start_saves.resume(1)  # at once, while the old CPU loop still sleeps
        assert c.screen == "game"
        for _ in range(2000):
            if c.current_player == 0 and c.phase == "roll":
                break
            await asyncio.sleep(0.01)
        assert c.current_player == 0 and c.phase == "roll", ("the CPU never finished its turn", c.phase, c.current_player, c.actor, c.cpu_busy, c.message)
        await c.wait_cpu()
        assert not c.cpu_busy

    asyncio.run(main())


def test_leaving_the_game_screen_stops_the_cpu(tmp_path):
    async def main():
        app = JapanConquestApp(save_dir=tmp_path / "saves")
        c = _human_then_cpu(app, "normal")
        events = len(c.game.events)
        app.save_exit.exit()
        assert c.screen == "start" and not c.cpu_busy
        await asyncio.sleep(1.2)
        assert len(c.game.events) == events  # nothing played behind the start screen
        app.start_saves.continue_last()
        for _ in range(2000):
            if c.current_player == 0:
                break
            await asyncio.sleep(0.01)
        assert c.current_player == 0 and c.phase == "roll"
        await c.wait_cpu()

    asyncio.run(main())
