"""The traitlets controller between the Japan Conquest engine and the widgets.

Views observe these traits and call these methods; only the controller talks to the
engine.  It has no ipywidgets/ipyleaflet imports, so it can be driven and tested
headless:

    >>> from conquest_widget.games.japan_conquest.widget.controller import GameController
    >>> from conquest_widget.games.japan_conquest import GameSetup, ScriptedDice
    >>> c = GameController()
    >>> c.new_game(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([2]))
    >>> c.screen, c.phase, c.current_player
    ('game', 'roll', 0)
    >>> c.roll()
    >>> c.allowance, c.legal_steps
    (2, [11, 12, 14, 19])
    >>> c.click_prefecture(11); c.route, c.remaining
    ([11], 1)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from traitlets import Bool, Dict, HasTraits, Instance, Int, List, Unicode, observe

from conquest_widget.core.safe_text import MAX_NAME_LENGTH
from conquest_widget.errors import ConquestError, IllegalActionError, SetupError
from conquest_widget.games.japan_conquest.actions import (
    Action,
    BattleRoll,
    ConfirmRoute,
    Roll,
    Step,
    UndoStep,
)
from conquest_widget.games.japan_conquest.cpu import cpu_action
from conquest_widget.games.japan_conquest.dice import DiceSource
from conquest_widget.games.japan_conquest.game import Game
from conquest_widget.games.japan_conquest.rules import PREFECTURES
from conquest_widget.games.japan_conquest.setup import GameSetup
from conquest_widget.games.japan_conquest.text import pref_name, t
from conquest_widget.maps.japan.board import japan

CPU_DELAYS = {"instant": 0.0, "fast": 0.12, "normal": 0.45}
#: how long a battle between two CPUs stays on screen before play goes on (seconds)
BATTLE_PAUSE = {"instant": 0.0, "fast": 1.2, "normal": 2.5}

#: the phases in which each action of a player makes sense; a click of another phase is the
#: stale second click of a double-click (issue 16) and is ignored without a word
ACTION_PHASES: dict[type, tuple[str, ...]] = {
    Roll: ("roll",), Step: ("route",), UndoStep: ("route",), ConfirmRoute: ("route",),
    BattleRoll: ("battle_attack", "battle_defend"),
}


class GameController(HasTraits):
    """Game flow, selection and feedback as observable traits."""

    screen = Unicode("start", help="start | setup | game | results | saves").tag(sync=False)
    lang = Unicode("en")
    version = Int(0, help="bumped after every change of the game")
    phase = Unicode("")
    current_player = Int(0)
    actor = Int(0)
    dice_option = Int(1)
    allowance = Int(0)
    last_roll = List()
    route = List()
    remaining = Int(0)
    legal_steps = List()
    can_confirm = Bool(False)
    selected_prefecture = Int(0, help="0 = none")
    message = Unicode("")
    cpu_speed = Unicode("fast")
    cpu_busy = Bool(False)
    autoplay_cpu = Bool(True, help="play CPU turns automatically; False for read-only views (the replay explorer)")
    setup_error = Unicode("")
    hold_battles = Bool(False, help="give each battle result its own moment (the app sets it; scripts play straight on)")
    battle_report = Dict(help="the last battle's result while it is shown: see battle_summary(); {} = none")
    game = Instance(Game, allow_none=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._change_hooks: list[Callable[[GameController, Action | None], None]] = []
        self._cpu_task: asyncio.Task | None = None

    # ------------------------------------------------------------ hooks
    def on_change(self, hook: Callable[[GameController, Action | None], None]) -> None:
        """Call ``hook(controller, action)`` after every applied action (e.g. autosave)."""
        self._change_hooks.append(hook)

    # ------------------------------------------------------------ game life
    def new_game(self, setup: GameSetup, dice: DiceSource | None = None) -> None:
        """Start a new game and show it."""
        self.load_game(Game(setup, dice))

    def load_game(self, game: Game) -> None:
        """Show an existing game (resumed save, branch from a replay, ...).

        A CPU run of the game shown before is stopped first, so the new game's CPU turns
        start at once (issue 16: Resume during "CPU ... is playing" froze)."""
        self.stop_cpu()
        self.battle_report = {}
        self.game = game
        self.selected_prefecture = 0
        self.message = ""
        self.dice_option = 1
        self.screen = "results" if game.is_over else "game"
        self._refresh()
        self._notify(None)
        self._schedule_cpu()

    def form_problem(self, form: dict[str, Any]) -> str:
        """What is wrong with a setup form, in the player's language ("" if nothing the
        form itself can show: the engine's check follows).

        >>> c = GameController()
        >>> c.form_problem({"players": [{"name": "A", "home": 13}, {"name": "B", "home": 13}]})
        'Two players have the same home, Tokyo: choose another'
        """
        lang = self.lang
        players = [p for p in (form.get("players") or []) if isinstance(p, dict)]
        names = [str(p.get("name", "")).strip() for p in players]
        for i, name in enumerate(names):
            if not name:
                return t("setup_name_empty", lang, n=i + 1)
            if len(name) > MAX_NAME_LENGTH:
                return t("setup_name_long", lang, n=i + 1, max=MAX_NAME_LENGTH)
        for i, name in enumerate(names):
            if name in names[:i]:
                return t("setup_same_name", lang, name=name)
        homes = [p.get("home") for p in players]
        board = japan()
        for i, a in enumerate(homes):
            for b in homes[i + 1:]:
                if not (isinstance(a, int) and isinstance(b, int) and 1 <= a <= PREFECTURES and 1 <= b <= PREFECTURES):
                    continue
                if a == b:
                    return t("setup_same_home", lang, pref=pref_name(a, lang))
                if b in board.adjacency[a]:
                    return t("setup_near_homes", lang, a=pref_name(a, lang), b=pref_name(b, lang))
        return ""

    def new_game_from_form(self, form: dict[str, Any]) -> bool:
        """Validate a setup form (see :meth:`GameSetup.from_dict`) and start; on error,
        explain it in ``setup_error`` (in the player's language) and return False."""
        problem = self.form_problem(form)
        if problem:
            self.setup_error = problem
            return False
        try:
            setup = GameSetup.from_dict(form)
        except SetupError:
            self.setup_error = t("setup_invalid", self.lang)  # never the engine's developer wording
            return False
        self.setup_error = ""
        self.new_game(setup)
        return True

    def watch_cpus(self, turns: int = 10) -> None:
        """The demo: four CPUs (each a different strategy) play a standard game while you
        watch; the map follows the moving pawn.

        >>> c = GameController(); c.watch_cpus(turns=5)
        >>> [p.cpu for p in c.game.setup.players], c.screen
        ([True, True, True, True], 'results')
        """
        from conquest_widget.games.japan_conquest.rules import STRATEGIES
        from conquest_widget.games.japan_conquest.setup import (
            DEFAULT_COLOURS,
            PlayerSetup,
        )

        homes = (13, 27, 1, 40)  # Tokyo, Osaka, Hokkaido, Fukuoka: far apart
        strategies = list(STRATEGIES)
        players = tuple(
            PlayerSetup(name=name, home=home, colour=DEFAULT_COLOURS[i], cpu=True,
                        strategy=strategies[i % len(strategies)])
            for i, (name, home) in enumerate(zip(("Aoi", "Ren", "Sora", "Kai"), homes, strict=True))
        )
        if self.cpu_speed == "instant":
            self.cpu_speed = "fast"  # something to watch
        self.new_game(GameSetup(players=players, turns=turns))

    def same_setup_again(self) -> None:
        """A new game with the same setup (a fresh seed if the old one was random)."""
        if self.game is not None:
            self.new_game(self.game.setup)

    # ------------------------------------------------------------ user actions
    @property
    def human_to_act(self) -> bool:
        """Is the player who must act now a human?"""
        g = self.game
        return g is not None and not g.is_over and not g.setup.players[g.actor].cpu

    def choose_dice(self, dice: int) -> None:
        """Select the dice option for the next roll (1, 2 or 3)."""
        self.dice_option = dice

    def roll(self) -> None:
        """Roll for movement with the selected dice option."""
        self._human(Roll(self.dice_option))

    def dismiss_battle(self) -> None:
        """The player has seen the battle's result: play goes on."""
        self.battle_report = {}
        self._schedule_cpu()

    @property
    def battle_waiting(self) -> bool:
        """Is a battle result shown that a human player must dismiss?"""
        return bool(self.battle_report) and bool(self.battle_report.get("human"))

    def undo_step(self) -> None:
        self._human(UndoStep())

    def confirm_route(self) -> None:
        self._human(ConfirmRoute())

    def battle_roll(self, dice: int | None = None) -> None:
        """Roll in the battle for the human attacker or defender."""
        self._human(BattleRoll(self.dice_option if dice is None else dice))

    def click_prefecture(self, code: int) -> None:
        """A click on the map: plan a step while routing, otherwise show the prefecture's info."""
        g = self.game
        if g is not None and g.phase == "route" and self.human_to_act:
            if code in self.legal_steps:
                self._human(Step(code))
                return
            here = g.route[-1] if g.route else g.state.players[g.current_player].position
            if code == here:  # the second click of a double-click, or a click on where you are
                return
            why = g.explain_step(code)
            self.selected_prefecture = code
            self.message = self.explain(why)
            return
        self.selected_prefecture = code
        self.message = ""

    def explain(self, error: IllegalActionError | None) -> str:
        """A refused action explained in the current language."""
        if error is None:
            return ""
        d = error.details
        name = pref_name(d["pref"], self.lang) if "pref" in d else ""
        if error.reason == "cost":
            return t("why_cost", self.lang, pref=name, cost=d["cost"], left=d["left"])
        if error.reason == "toll":
            return t("why_toll", self.lang, pref=name, toll=d["toll"], banked=d["banked"])
        if error.reason == "not_adjacent":
            return t("why_not_adjacent", self.lang, pref=name)
        if error.reason == "dead_end":
            return t("why_dead_end", self.lang, pref=name)
        return t("why_other", self.lang)  # never the engine's developer wording

    def _explain_confirm(self) -> str:
        """Why the planned route cannot end here, in the player's words."""
        g = self.game
        assert g is not None
        if not g.route:
            return t("why_route_empty", self.lang)
        return t("why_cannot_end", self.lang, left=g.remaining)

    # ------------------------------------------------------------ plumbing
    def _human(self, action: Action) -> None:
        g = self.game
        if g is None or g.is_over:
            return
        if not self.human_to_act:
            self.message = t("not_your_turn", self.lang)
            return
        if g.phase not in ACTION_PHASES.get(type(action), (g.phase,)):
            return  # a stale click (double-click): harmless and silent
        if self.battle_report:
            self.battle_report = {}  # the player has moved on from the battle shown
        if isinstance(action, UndoStep) and not g.route:
            return
        if isinstance(action, ConfirmRoute) and not g.can_confirm():
            self.message = self._explain_confirm()
            return
        self._apply(action)
        self._schedule_cpu()

    def _apply(self, action: Action) -> bool:
        g = self.game
        assert g is not None
        seen = len(g.events)
        try:
            g.apply(action)
        except IllegalActionError as exc:
            self.message = self.explain(exc)
            return False
        self.message = ""
        if self.hold_battles:
            report = battle_summary(g, g.events[seen:])
            if report:
                self.battle_report = report
        self._refresh()
        self._notify(action)
        return True

    def _notify(self, action: Action | None) -> None:
        for hook in self._change_hooks:
            hook(self, action)

    def _refresh(self) -> None:
        g = self.game
        if g is None:
            return
        with self.hold_trait_notifications():
            self.phase = g.phase
            self.current_player = g.current_player
            self.actor = g.actor
            self.allowance = g.allowance
            self.last_roll = list(g.state.roll)
            self.route = g.route
            self.remaining = g.remaining
            self.legal_steps = sorted(g.legal_steps())
            self.can_confirm = g.can_confirm()
            items = g.items(g.actor) if not g.is_over else {"double": 0, "triple": 0}
            if self.dice_option == 2 and not items["double"] or self.dice_option == 3 and not items["triple"]:
                self.dice_option = 1
            if g.phase == "roll":
                self.dice_option = 1 if self.dice_option not in (1, 2, 3) else self.dice_option
            if g.is_over:
                self.screen = "results"
            self.version += 1

    # ------------------------------------------------------------ CPU turns
    def _schedule_cpu(self) -> None:
        g = self.game
        if not self.autoplay_cpu or self.screen != "game" or g is None or g.is_over or self.human_to_act or self.cpu_busy:
            return
        if self.battle_waiting:  # the CPU's turn waits until the player has seen the battle
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:  # plain script or test: no event loop to yield to
            self.play_cpu_now()
            return
        self.cpu_busy = True  # from now until the task has played every CPU action
        self._cpu_task = loop.create_task(self._cpu_loop())

    def stop_cpu(self) -> None:
        """Stop a running CPU run (leaving the game screen, loading another game); the
        game stays where the last CPU action left it and :meth:`resume_cpu` goes on."""
        task, self._cpu_task = self._cpu_task, None
        if task is not None and not task.done():
            task.cancel()
        self.cpu_busy = False

    def resume_cpu(self) -> None:
        """Go on with the CPU turns of the shown game (after :meth:`stop_cpu`)."""
        self._schedule_cpu()

    @observe("screen")
    def _screen_changed(self, change: dict) -> None:
        if change["new"] == "game":
            self._schedule_cpu()
        else:  # nothing plays behind the start screen or the saves
            self.stop_cpu()

    def play_cpu_now(self) -> None:
        """Play every pending CPU action at once (no animation)."""
        g = self.game
        self.cpu_busy = True
        try:
            while g is not None and not g.is_over and not self.human_to_act and g is self.game:
                if not self._apply(cpu_action(g)):
                    break
        finally:
            self.cpu_busy = False

    async def _cpu_loop(self) -> None:
        g = self.game
        me = asyncio.current_task()
        try:
            await asyncio.sleep(CPU_DELAYS.get(self.cpu_speed, 0.0))
            while g is not None and g is self.game and not g.is_over and not self.human_to_act:
                if not self._apply(cpu_action(g)):
                    break
                if self.battle_report:
                    if self.battle_waiting:
                        break  # a human's battle: shown until dismissed (dismiss_battle goes on)
                    await asyncio.sleep(BATTLE_PAUSE.get(self.cpu_speed, 0.0))  # CPU against CPU
                    self.battle_report = {}
                    continue
                delay = CPU_DELAYS.get(self.cpu_speed, 0.0)
                await asyncio.sleep(delay)  # yields to the kernel: the notebook stays responsive
        finally:
            if self._cpu_task is me:  # a newer run (another game) keeps its own state
                self.cpu_busy = False
                self._cpu_task = None

    async def wait_cpu(self) -> None:
        """Wait until scheduled CPU turns are done (for scripts and tests)."""
        while self._cpu_task is not None:
            await asyncio.sleep(0.01)

    @observe("cpu_speed")
    def _speed_changed(self, change: dict) -> None:
        if change["new"] not in CPU_DELAYS:
            raise ConquestError(f"cpu_speed must be one of {sorted(CPU_DELAYS)}, got {change['new']!r}")


def battle_summary(game: Game, events: list[dict]) -> dict[str, Any]:
    """The result of a battle ended by ``events`` (the events of one action), as the
    battle panel shows it; ``{}`` if no battle ended.

    >>> from conquest_widget.games.japan_conquest import ScriptedDice
    >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"]), ScriptedDice([1, 6, 1], then_seed=5))
    >>> g.edit_prefecture("Saitama", owner=1, level="base")
    >>> _ = g.roll(); g.step("Saitama"); g.confirm_route(); _ = g.battle_roll()
    >>> n = len(g.events); _ = g.battle_roll()
    >>> r = battle_summary(g, g.events[n:]); r["attacker_won"], r["attack_faces"], r["defence_faces"], r["points"]
    (True, [6], [1], 10)
    """
    result = next((e for e in events if e["type"] == "battle_result"), None)
    if result is None:
        return {}
    rolls = [e for e in game.events if e["type"] == "battle_roll" and e["pref"] == result["pref"]][-2:]
    faces = {e["side"]: list(e["faces"]) for e in rolls}
    players = game.setup.players
    return {
        "pref": result["pref"], "attacker": result["player"], "defender": result["defender"],
        "attack_faces": faces.get("attacker", []), "defence_faces": faces.get("defender", []),
        "attack": result["attack"], "defence": result["defence"], "bonus": result["bonus"],
        "winner": result["winner"], "attacker_won": result["attacker_won"], "points": result["points"],
        "human": not players[result["player"]].cpu or not players[result["defender"]].cpu,
    }
