"""Issue 29: the shell's app (``app_class(UI)``) gives Japan Conquest what its own app
gives in sound and in the CPUs' pace, all of it from the game's folder: a battle is heard
from the human side and announced (``games/japan_conquest/sounds.py``, Japan's
``GameUI.sound_news``), every turn is named (a CPU's too, the viewer's once), a route step
ticks; a battle between CPUs stays on screen ``BATTLE_PAUSE`` seconds and a battle a human
fought holds the CPUs until Continue (the board's seat paces the shell's
``MatchController``: ``cpu_pause``).

The CPUs' pace is checked inside ``asyncio.run``: in a kernel (an event loop) the shell
plays them in the background, one action at a time, asking ``cpu_pause`` before each; a
synchronous run asks it once."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup, ScriptedDice
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.widget import controller as japan_controller
from conquest_widget.games.japan_conquest.widget.board import JapanBoard
from conquest_widget.games.japan_conquest.widget.controller import SeatController
from conquest_widget.games.japan_conquest.widget.shell import UI
from conquest_widget.ui.controller import MatchController
from conquest_widget.ui.match_app import app_class

App = app_class(UI)


@pytest.fixture
def app(tmp_path):
    a = App(save_dir=tmp_path / "saves")
    a.sound.sent = []  # every request of the game (the page keeps only the last 50)
    yield a
    a.close()


def attack_on_saitama(app, dice: list[int], speed: str = "fast") -> SeatController:
    """Me (a human, home Tokyo) against Bot (a CPU, home Osaka) whose base is Saitama, next
    to Tokyo; the first roll is a 1, so Me can march on Saitama.  Returns the board's seat."""
    m = JapanMatch(GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1),
                   dice=ScriptedDice(dice, then_seed=5))
    m.edit_prefecture("Saitama", owner=1, level="base")
    app._play(m, speed=speed)
    seat = app.board.inner
    assert isinstance(app.board, JapanBoard) and seat is app.stage.seat
    seat.roll()
    seat.click_prefecture(11)
    seat.confirm_route()
    assert seat.phase == "battle_attack"
    return seat


def heard(app, since: int = 0) -> tuple[list[str], list[str]]:
    """The effects played and the texts spoken since request ``since``."""
    sent = list(app.sound.sent)[since:]
    return [m["effect"] for m in sent if m["type"] == "play"], [m["text"] for m in sent if m["type"] == "say"]


async def until(test, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


# ------------------------------------------------------------------ sound
def test_a_new_game_names_the_viewers_turn_once_and_a_step_ticks(app) -> None:
    m = JapanMatch(GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1),
                   dice=ScriptedDice([2], then_seed=5))
    app._play(m, speed="fast")
    assert heard(app) == (["turn_start"], ["Me's turn"])  # the shell's and the game's, said once
    seat = app.board.inner
    seat.roll()
    assert heard(app, 2) == (["roll"], [])
    seat.click_prefecture(seat.legal_steps[0])
    assert heard(app, 3) == (["step"], [])  # a step writes no event: heard from the route grown
    seat.undo_step()
    assert heard(app, 4) == ([], [])  # an undo does not tick


def test_a_won_battle_is_heard_from_the_human_side_and_announced(app) -> None:
    async def main() -> None:
        seat = attack_on_saitama(app, [1, 6, 1, 1, 1])  # attack 6; the CPU's defence 1s
        n = len(app.sound.sent)
        seat.battle_roll(1)
        await until(lambda: bool(seat.battle_report))
        assert seat.battle_report["attacker_won"] and seat.view["prefectures"]["11"]["owner"] == 0  # conquered
        effects, said = heard(app, n)
        assert effects[0] == "battle_won" and "battle" not in effects and "battle_lost" not in effects
        assert said[-1].startswith("Me wins the battle for Saitama")
        app.controller.stop_cpus()

    asyncio.run(main())


def test_a_lost_battle_and_the_cpus_turn_are_announced_in_japanese(app) -> None:
    app.set_lang("ja")

    async def main() -> None:
        seat = attack_on_saitama(app, [1, 1, 6, 6, 6])  # attack 1; the CPU's defence 6s
        n = len(app.sound.sent)
        seat.battle_roll(1)
        await until(lambda: bool(seat.battle_report))
        effects, said = heard(app, n)
        assert effects[0] == "battle_lost"
        assert said[-1] == "Botが埼玉県を守りました。Botの番です"  # the CPU's turn is named too
        app.controller.stop_cpus()

    asyncio.run(main())


def test_a_cpus_turn_is_named_and_the_viewers_turn_comes_back_named(app) -> None:
    async def main() -> None:
        m = JapanMatch(GameSetup(players=(PlayerSetup("Me", 13), PlayerSetup("Bot", 27, cpu=True)), turns=5, seed=1),
                       dice=ScriptedDice([1], then_seed=5))
        app._play(m, speed="instant")
        seat = app.board.inner
        seat.roll()
        seat.click_prefecture(seat.legal_steps[0])
        n = len(app.sound.sent)
        seat.confirm_route()
        await until(lambda: seat.current_player == 0 and seat.phase == "roll")
        effects, said = heard(app, n)
        assert "Bot's turn" in said and said[-1] == "Me's turn"
        assert effects.count("turn_start") == 2  # each turn's chime

    asyncio.run(main())


def test_hot_seat_hands_over_with_the_last_moves_sound_and_the_next_players_name(app) -> None:
    m = JapanMatch(GameSetup(players=(PlayerSetup("Ann", 13), PlayerSetup("Ben", 27)), turns=5, seed=1),
                   dice=ScriptedDice([1], then_seed=5))
    app._play(m, speed="fast")
    seat = app.board.inner
    seat.roll()
    seat.click_prefecture(12)  # Chiba, nobody's
    n = len(app.sound.sent)
    seat.confirm_route()  # Ann claims Chiba; the screen goes to Ben
    assert app.controller.viewer == 1
    assert heard(app, n) == (["claim", "turn_start"], ["Ben's turn"])


# ------------------------------------------------------------------ the CPUs' pace
def test_a_battle_between_cpus_stays_on_screen_battle_pause(app, monkeypatch) -> None:
    monkeypatch.setitem(japan_controller.CPU_DELAYS, "fast", 0.0)
    monkeypatch.setitem(japan_controller.BATTLE_PAUSE, "fast", 0.3)

    async def main() -> None:
        m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka", "Fukuoka"], cpu=[True, True, True], turns=5, seed=7))
        stamps: list[tuple[float, set[str]]] = []
        seen = [0]

        def published(_change) -> None:
            events = app.controller.events
            stamps.append((time.monotonic(), {e["type"] for e in events[seen[0]:]}))
            seen[0] = len(events)

        app._play(m, speed="fast", demo=True)
        c = app.controller
        assert c.cpu_pause == app.stage.seat.pace
        c.observe(published, names="version")

        def battle() -> int | None:
            return next((k for k, (_, kinds) in enumerate(stamps) if "battle_result" in kinds), None)

        await until(lambda: (battle() is not None and len(stamps) > battle() + 1) or c.is_over)
        c.stop_cpus()
        k = battle()
        assert k is not None and len(stamps) > k + 1, "no CPU battle in this game"
        assert stamps[k + 1][0] - stamps[k][0] >= 0.29  # the battle's moment
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(stamps[1:k])]
        assert not gaps or sorted(gaps)[len(gaps) // 2] < 0.1  # the rest plays at the chosen speed

    asyncio.run(main())


def test_a_battle_a_human_fought_holds_the_cpus_until_continue(app) -> None:
    async def main() -> None:
        seat = attack_on_saitama(app, [1, 6, 1, 1, 1])
        c = app.controller
        app.board.battle_panel.buttons[0].click()  # attack with one die
        await until(lambda: bool(seat.battle_report))
        await asyncio.sleep(0.6)  # "fast" plays a CPU action every 0.12 s: none is played
        assert seat.battle_report["human"] and seat.current_player == 1 and seat.phase == "roll"
        assert not c.cpu_running and [e for e in c.events if e["type"] == "roll" and e["player"] == 1] == []
        assert app.board.battle_panel.ok_button.shown
        app.board.battle_panel.ok_button.click()  # Continue
        assert not seat.battle_report
        await until(lambda: seat.current_player == 0 and seat.phase == "roll")
        assert [e for e in c.events if e["type"] == "roll" and e["player"] == 1]  # the CPU played its turn
        await c.wait_cpus()

    asyncio.run(main())


def test_leaving_the_game_takes_the_pace_away_and_a_pace_of_its_own_is_kept(app) -> None:
    seat = attack_on_saitama(app, [1, 6, 1])
    c = app.controller
    assert c.cpu_pause == seat.pace
    app.exit()
    assert c.cpu_pause is None and app.stage.seat.source is None
    # a controller paced by its app already (Japan's own) keeps its pace; the seat's goes with the seat
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], seed=1))
    own = MatchController(m, humans={0}, play_cpus=False)
    mine = MatchController(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], seed=1)), humans={0})

    def pace() -> float:
        return 0.5

    own.cpu_pause = pace
    other = SeatController(own)
    assert own.cpu_pause is pace
    other.bind(mine)
    assert mine.cpu_pause == other.pace and own.cpu_pause is pace
    other.clear()
    assert mine.cpu_pause is None
    board = JapanBoard(mine)  # a board with its own map (no stage): its seat paces, closing it stops
    assert mine.cpu_pause == board.inner.pace
    board.close()
    assert mine.cpu_pause is None
