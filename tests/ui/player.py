"""A player at the page, without a browser: the picker of examples/play.ipynb
(``ConquestApp``), Play, the game's New game form, Start, moves, Exit, the replay, Back to
the games, pressed as a player presses them (the buttons' clicks; a move is what the board's
click handler does: a legal action handed to the game's controller, Japan Conquest's roll,
map click, confirm and battle roll).  Used by the lifecycle tests
(tests/ui/test_lifecycle.py) and the lean-wire benchmark
(tests/benchmarks/test_bench_lean_wire.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget import _instances

GAMES = ("japan_conquest", "conquest_cards", "codex", "japanese_risk")


def live_widgets() -> int:
    """How many widgets the kernel holds open (``ipywidgets.Widget.widgets``)."""
    return len(_instances)


def _walk(w: Any) -> Iterator[Any]:
    yield w
    for c in getattr(w, "children", ()):
        yield from _walk(c)


def button(root: W.Widget, css_class: str) -> W.Button:
    """The shown button with ``css_class`` (a displayed one: its layout is not hidden)."""
    for w in _walk(root):
        if isinstance(w, W.Button) and css_class in w._dom_classes and w.layout.display != "none":
            return w
    raise AssertionError(f"no button .{css_class} on screen")


class Player:
    """One page: the picker, then one game's screens."""

    def __init__(self, game: str, save_dir: Any, *, seed: int = 1) -> None:
        from conquest_widget import ConquestApp

        self.game = game
        self.rng = random.Random(seed)
        self.shell = ConquestApp(save_dir=save_dir, lang="en")
        self.last = ""  # the kind of the last move (see :meth:`move`)

    @property
    def app(self) -> Any:
        return self.shell.game_widget

    @property
    def japan(self) -> bool:
        return self.game == "japan_conquest"

    # ------------------------------------------------------------ the picker
    def play(self) -> None:
        """The picker's Play of the game."""
        self.shell.cards[self.game][1].click()

    def back_to_games(self) -> None:
        """The shell's "Back to games"."""
        self.shell.back.click()

    # ------------------------------------------------------------ a game
    def new_game(self, humans: int = 1, seed: int = 7) -> None:
        """New game → the form (two seats: ``humans`` of them human, the rest CPUs; CPU speed
        instant; a fixed seed) → Start."""
        self.open_form()
        self.fill_form_and_start(humans, seed)

    def open_form(self) -> None:
        """The start screen's New game: the form."""
        button(self.app, "cw-new-game").click()

    def fill_form_and_start(self, humans: int = 1, seed: int = 7) -> None:
        """The form filled in (see :meth:`new_game`), then Start."""
        app = self.app
        if self.japan:  # Japan Conquest's own form (homes and colours on the map)
            form = app.form
            form.count.value = 2
            for i, row in enumerate(form.rows[:2]):
                row.kind.value = i >= humans
            form.seed.value = str(seed)
            form.start_button.click()
            assert app.screen == "play", app.message.value
            # its form has no speed: the CPUs' speed is picked on the game screen
            picks = [w for w in _walk(app) if isinstance(w, W.Dropdown) and "cw-cpu-speed" in w._dom_classes]
            assert len(picks) == (humans < 2)
            for pick in picks:
                pick.value = "instant"
                assert app.controller.cpu_speed == "instant"
            return
        app.n_players.value = 2
        for i, (_name, kind) in enumerate(app.seat_rows[:2]):
            kind.value = "human" if i < humans else kind.options[-1][1]
        app.speed.value = "instant"
        app.seed.value = str(seed)
        app.form.click("start")  # the form's Start (one widget: its buttons are in the page)
        assert app.screen == "play", app.message.value

    def open_form_and_go_back(self) -> None:
        """New game, then the form's Back."""
        button(self.app, "cw-new-game").click()
        self.app.form.click("back")
        assert self.app.screen == "start"

    def pass_cover(self) -> bool:
        """The cover's Ready of a hot seat (hidden information, two humans at one screen),
        when it is shown; whether it was.  The seat's only answer may be played at once and
        the screen handed on: a new cover (:meth:`move` passes up to 10)."""
        c = self.app.controller
        if c is None or not c.cover:
            return False
        assert self.app.log_view.click("uncover"), "no cover shown"  # its button is drawn by the log's page module
        return True

    def move(self) -> bool:
        """One legal move of the seat at the screen (the cover passed first); False when the
        game is over.  ``last`` names the kind of the move made (the action's type; Japan
        Conquest: roll, step, confirm, battle_roll, dismiss_battle)."""
        if self.japan:
            return self._japan_move()
        app = self.app
        c = app.controller
        if c is None or c.is_over:
            return False
        for _ in range(10):  # a forced answer (Japanese Risk) may hand the screen on at once
            if not self.pass_cover():
                break
        if not c.legal:
            return False
        action = self.rng.choice(c.legal)
        self.last = str(action.get("type", "?"))
        c.act(action)
        return True

    def _japan_move(self) -> bool:
        """A move as Japan's board makes it: through the board's seat (its Roll, a click
        on the map, Confirm, the battle's dice, Continue), handed to the shell's controller."""
        if self.app.controller is None or self.app.controller.is_over:
            return False
        c = self.app.board.inner
        if c.battle_waiting:
            self.last = "dismiss_battle"
            c.dismiss_battle()
            return True
        kinds = {a["type"] for a in c.legal}
        if c.phase == "roll" or "roll" in kinds:
            self.last = "roll"
            c.roll()
        elif c.legal_steps and (not c.can_confirm or self.rng.random() < 0.6):
            self.last = "step"
            c.click_prefecture(self.rng.choice(c.legal_steps))
        elif c.can_confirm:
            self.last = "confirm"
            c.confirm_route()
        elif "battle_roll" in kinds:
            self.last = "battle_roll"
            c.battle_roll()
        elif c.legal:
            from conquest_widget.games.japan_conquest.match import JapanMatch

            action = self.rng.choice(c.legal)
            self.last = str(action.get("type", "?"))
            c._human(JapanMatch.codec.from_dict(action))
        else:
            return False
        return True

    def moves(self, n: int) -> int:
        """Up to ``n`` moves (fewer when the game ends); how many were made."""
        done = 0
        while done < n and self.move():
            done += 1
        return done

    def play_to_the_end(self, limit: int = 5000) -> None:
        """Moves until the results screen."""
        for _ in range(limit):
            if not self.move():
                break
        assert self.app.screen == "results", "the game did not end"

    def exit(self) -> None:
        """Exit (the game stays autosaved) to the game's start screen."""
        button(self.app, "cw-exit").click()
        assert self.app.screen == "start"

    def leave_results(self) -> None:
        """From the results, back to the start screen (New game, then Back)."""
        button(self.app, "cw-new-game").click()
        self.app.form.click("back")
        assert self.app.screen == "start"

    def replay_autosave(self) -> None:
        """The start screen's Replay of the autosave, then Back."""
        button(self.app, "cw-replay-autosave").click()
        assert self.app.screen == "replay"
        button(self.app, "cw-back").click()
        assert self.app.screen == "start"

    def save_data_screens(self) -> None:
        """The start screen's Previous results, then Back; its Save data: Export, Delete all
        answered No, then Back (issue 29)."""
        app = self.app
        button(app, "cw-previous-results").click()
        assert app.screen == "previous_results"
        button(app, "cw-back").click()
        button(app, "cw-save-data").click()
        assert app.screen == "save_data"
        screen = app.save_data
        button(screen, "cw-export").click()
        button(screen, "cw-delete-all").click()
        screen.confirm.no.click()
        button(screen, "cw-back").click()
        assert app.screen == "start"
