"""The traitlets controller between a Japan Conquest match and the widgets.

A game shown is played through the shell's
:class:`~conquest_widget.ui.controller.MatchController` (:attr:`GameController.source`), as
the other three games and a table's seats are: it holds the
:class:`~conquest_widget.games.japan_conquest.match.JapanMatch`, plays the CPUs through
their bots (paced by :meth:`GameController._cpu_pause`: a battle gets its moment) and
publishes what the viewer may see.  This controller mirrors it: ``viewer``, ``view``
(``match.view(viewer)``: during the Final Showdown it has no totals), ``legal``,
``events`` (``match.events_for(viewer)``: no point changes in the showdown; every event
in full once the game is over) and
``version``, plus a few traits derived from them for the Japan board (``phase``,
``route``, ``legal_steps``, ...) and the app's own state (screen, language, the selected
prefecture, the battle shown).  Widgets draw from these traits only and send the player's
moves back through its methods; CPUs play through their bots, which get a view, never the
match.  It has no ipywidgets/ipyleaflet imports, so it can be driven and tested headless:

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
    >>> c.view["players"][0]["name"], c.events[-1]["type"]
    ('Player 1', 'roll')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from traitlets import Bool, Dict, Int, List, Unicode, observe

from conquest_widget.errors import ConquestError, IllegalActionError
from conquest_widget.games.japan_conquest.actions import (
    Action,
    BattleRoll,
    ConfirmRoute,
    Roll,
    Step,
    UndoStep,
)
from conquest_widget.games.japan_conquest.bots import JapanCpuBot
from conquest_widget.games.japan_conquest.dice import DiceSource
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.rules import PREFECTURES
from conquest_widget.games.japan_conquest.setup import GameSetup
from conquest_widget.games.japan_conquest.text import pref_name, t
from conquest_widget.ui.controller import CPU_DELAYS, MatchController, PublishedTraits

#: how long a battle between two CPUs stays on screen before play goes on (seconds)
BATTLE_PAUSE = {"instant": 0.0, "fast": 1.2, "normal": 2.5}

#: the phases in which each action of a player makes sense; a click of another phase is the
#: stale second click of a double-click (issue 16) and is ignored without a word
ACTION_PHASES: dict[type, tuple[str, ...]] = {
    Roll: ("roll",), Step: ("route",), UndoStep: ("route",), ConfirmRoute: ("route",),
    BattleRoll: ("battle_attack", "battle_defend"),
}


class GameController(PublishedTraits):
    """Game flow, selection and feedback as observable traits (see the module docstring)."""

    screen = Unicode("start", help="start | setup | game | results | saves | replay").tag(sync=False)
    lang = Unicode("en")
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
    cpu_speed = Unicode("fast")
    autoplay_cpu = Bool(True, help="play CPU turns automatically; False for read-only views")
    setup_error = Unicode("")
    hold_battles = Bool(False, help="give each battle result its own moment (the app sets it; scripts play straight on)")
    battle_report = Dict(help="the last battle's result while it is shown: see battle_summary(); {} = none")

    def __init__(self, **kwargs: Any) -> None:
        self._match: JapanMatch | None = None  # read here (document, story); played through `source`
        #: the shell controller the traits are mirrored from: the one this controller made
        #: for the game shown (its CPUs played here), or a table's (:class:`~.board.SeatController`)
        self.source: Any = None
        self._log_seen = 0  # actions of the match already passed to the change hooks
        self._battles_seen = 0  # events of the match already looked at for a battle to hold on
        self._loading = False  # a game is being loaded: the screen's change starts no CPU yet
        self._holding = False  # the CPUs wait: a battle a human fought is shown (dismiss_battle)
        self._loads = 0  # games shown so far: game_key
        self._change_hooks: list[Callable[[GameController, Action | None], None]] = []
        super().__init__(**kwargs)

    # ------------------------------------------------------------ hooks
    def on_change(self, hook: Callable[[GameController, Action | None], None]) -> None:
        """Call ``hook(controller, action)`` after every applied action (autosave, sound);
        ``action`` is None for a new or loaded game, and the last one played when a
        synchronous CPU run played several at once."""
        self._change_hooks.append(hook)

    # ------------------------------------------------------------ reading
    @property
    def has_game(self) -> bool:
        """Is a game shown (or finished and shown in the results)?"""
        return bool(self.view)

    @property
    def game_key(self) -> int:
        """Changes whenever another game (or the same one, reloaded) is shown."""
        return self._loads

    @property
    def is_over(self) -> bool:
        return self._match is not None and self._match.is_over

    @property
    def names(self) -> list[str]:
        """The players' names in seat order ([] without a game)."""
        return [p["name"] for p in self.view.get("players", ())]

    def document(self) -> dict[str, Any]:
        """The match as a save document (setup, seed, every action and die face)."""
        if self._match is None:
            raise ConquestError("no game is shown")
        return self._match.to_dict()

    # ------------------------------------------------------------ game life
    def new_game(self, setup: GameSetup, dice: DiceSource | None = None) -> None:
        """Start a new game and show it headless (``dice``, e.g. ScriptedDice, for lessons
        and tests; the app starts its games through the shell's ``MatchApp``)."""
        self.load_game(JapanMatch(setup, dice=dice))

    def load_game(self, game: JapanMatch) -> None:
        """Show an existing game (a resumed save, a branch from a replay, ...): a
        :class:`JapanMatch`.  It is played through a shell
        :class:`~conquest_widget.ui.controller.MatchController` (:attr:`source`), as the
        other games and a table's seats are; this controller mirrors what it publishes.

        A CPU run of the game shown before is stopped first, so the new game's CPU turns
        start at once (issue 16: Resume during "CPU ... is playing" froze)."""
        match = game
        if not isinstance(match, JapanMatch):
            raise ConquestError(f"expected a Japan Conquest match, got {type(game).__name__}")
        self.stop_cpu()
        self._let_go()
        self.battle_report = {}
        self._match = match
        self._loads += 1
        players = match.setup.players
        bots = {s: JapanCpuBot(p.difficulty, p.strategy) for s, p in enumerate(players) if p.cpu}
        source = MatchController(match, humans={s for s, p in enumerate(players) if not p.cpu}, bots=bots,
                                 play_cpus=False, cpu_speed=self.cpu_speed)
        source.explain_refusal = self.explain
        source.cpu_pause = self._cpu_pause  # (it also plays them in the background at "instant")
        source.publish_each_cpu_action = True  # each action sounds, and each battle is seen
        self.source = source
        self._log_seen = len(match.log)
        self._battles_seen = len(match.events)
        self.events = []
        self.selected_prefecture = 0
        self.message = ""
        self.dice_option = 1
        self._loading = True  # the CPUs start below, once the game is shown and announced
        try:
            self.screen = "results" if match.is_over else "game"
        finally:
            self._loading = False
        self.mirror()
        source.observe(self._source_changed, names="version")
        source.observe(self._source_busy, names="cpu_busy")
        self._notify(None)
        self._schedule_cpu()

    def _let_go(self) -> None:
        """Stop following the shell controller of the game shown before."""
        source = self.source
        if isinstance(source, MatchController):
            source.stop_cpus()
            source.unobserve(self._source_changed, names="version")
            source.unobserve(self._source_busy, names="cpu_busy")

    # ------------------------------------------------------------ user actions
    @property
    def human_to_act(self) -> bool:
        """Is the player who must act now a human?"""
        return bool(self.legal) and not self.is_over  # legal actions are published to a human to act only

    def choose_dice(self, dice: int) -> None:
        """Select the dice option for the next roll (1, 2 or 3)."""
        self.dice_option = dice

    def roll(self) -> None:
        """Roll for movement with the selected dice option."""
        self._human(Roll(self.dice_option))

    def dismiss_battle(self) -> None:
        """The player has seen the battle's result: play goes on."""
        self.battle_report = {}
        self._holding = False
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
        if self.has_game and self.phase == "route" and self.human_to_act:
            if code in self.legal_steps:
                self._human(Step(code))
                return
            here = self.route[-1] if self.route else self.view["players"][self.current_player]["position"]
            if code == here:  # the second click of a double-click, or a click on where you are
                return
            self.selected_prefecture = code
            self.message = self._why_not_step(code)
            return
        self.selected_prefecture = code
        self.message = ""

    def _why_not_step(self, code: int) -> str:
        """Why the player to act cannot step to ``code`` now, in their words."""
        m = self._match
        if m is None or not (isinstance(code, int) and 1 <= code <= PREFECTURES):
            return ""
        return self.explain(m.explain(m.to_act()[0], Step(code)))

    def explain(self, error: IllegalActionError | None) -> str:
        """A refused action explained in the current language."""
        if error is None:
            return ""
        d = error.details
        name = pref_name(d["pref"], self.lang) if "pref" in d else ""
        if error.reason == "cost":
            return t("why_cost", self.lang, pref=name, cost=d["cost"], left=d["left"])
        if error.reason == "toll":
            if self.view.get("totals_hidden"):
                # the Final Showdown hides every total, the mover's too, on the shared screen
                return t("why_toll_hidden", self.lang, pref=name, toll=d["toll"])
            return t("why_toll", self.lang, pref=name, toll=d["toll"], banked=d["banked"])
        if error.reason == "not_adjacent":
            return t("why_not_adjacent", self.lang, pref=name)
        if error.reason == "dead_end":
            return t("why_dead_end", self.lang, pref=name)
        return t("why_other", self.lang)  # never the engine's developer wording

    def _explain_confirm(self) -> str:
        """Why the planned route cannot end here, in the player's words."""
        if not self.route:
            return t("why_route_empty", self.lang)
        return t("why_cannot_end", self.lang, left=self.remaining)

    # ------------------------------------------------------------ plumbing
    def _human(self, action: Action) -> None:
        if self._ready(action):
            self._apply(action)  # the shell controller then plays the CPUs due
            self._busy_now()

    def _busy_now(self) -> None:
        """"CPU ... is playing" from the moment a background CPU run is started."""
        if isinstance(self.source, MatchController) and self.source.cpu_running:
            self.cpu_busy = True

    def _ready(self, action: Action) -> bool:
        """Should the player's ``action`` go to the game?  A stale or impossible click is
        ignored (False) or explained in ``message``."""
        if not self.has_game or self.is_over:
            return False
        if not self.human_to_act:
            self.message = t("not_your_turn", self.lang)
            return False
        if self.phase not in ACTION_PHASES.get(type(action), (self.phase,)):
            return False  # a stale click (double-click): harmless and silent
        if self.battle_report:
            self.battle_report = {}  # the player has moved on from the battle shown
            self._holding = False
        if isinstance(action, UndoStep) and not self.route:
            return False
        if isinstance(action, ConfirmRoute) and not self.can_confirm:
            self.message = self._explain_confirm()
            return False
        return True

    def _apply(self, action: Action) -> bool:
        """The player's ``action`` to the shell controller (which then plays the CPUs due);
        a refusal is explained in ``message``."""
        self.message = ""
        self.source.act(action.to_dict())
        if self.source.message:
            self.message = self.source.message
            return False
        return True

    def _humans(self) -> set[int]:
        humans = getattr(self.source, "humans", None)
        if humans is not None:
            return set(humans)
        return set() if self.source is None or self.source.viewer is None else {self.source.viewer}

    def _notify(self, action: Action | None) -> None:
        for hook in self._change_hooks:
            hook(self, action)

    def _source_changed(self, _change: Any = None) -> None:
        """The shell controller published: mirror it, and tell the change hooks of the
        action played (the last one, when a synchronous run played several)."""
        self.mirror()
        m = self._match
        if m is None or len(m.log) <= self._log_seen:
            return
        entries, self._log_seen = m.log[self._log_seen:], len(m.log)
        last = next((e["action"] for e in reversed(entries) if "action" in e), None)
        if last is not None:
            self._notify(m.codec.from_dict(last))  # type: ignore[arg-type]

    def _source_busy(self, change: dict) -> None:
        self.cpu_busy = change["new"]

    def mirror(self) -> None:
        """Publish what :attr:`source` publishes now, with the traits derived from it; a
        battle that ended since the last mirror gets its moment (``hold_battles``; until
        Continue when a human fought it)."""
        src = self.source
        if src is None or not src.view:
            return
        first = not self.events  # a game shown anew (every seat's list of a Japan game has the same length)
        seen = len(self.events)
        self.show(src.viewer, dict(src.view), list(src.legal), self._shown_events(src))
        report = {} if first or not self.hold_battles else battle_summary(self.events, seen, humans=self._humans())
        if report:
            self.battle_report = report
        elif self.battle_report and not self.battle_report.get("human"):
            self.battle_report = {}

    def _shown_events(self, src: Any) -> list[dict[str, Any]]:
        """The events to show: the source's, but every event in full once the game is over
        (the Final Showdown's points too: issue 30)."""
        m = self._match
        if m is not None and m.is_over and src is self.source and isinstance(src, MatchController):
            return [dict(e.data) for e in m.events]
        return list(src.events)

    def show(self, viewer: int | None, view: dict[str, Any], legal: list[dict[str, Any]],
             events: list[dict[str, Any]]) -> None:
        """Publish a view (with the viewer's legal actions and events) and the traits
        derived from it, in one batch: the live game's, or a replay's position."""
        over = view["outcome"] is not None
        with self.hold_trait_notifications():
            self.viewer = viewer
            self.view = view
            self.legal = legal
            self.events = events
            self.phase = view["phase"]
            self.current_player = view["current_player"]
            self.actor = view["actor"] if view["actor"] is not None else view["current_player"]
            self.allowance = view["allowance"]
            self.last_roll = list(view["roll"])
            self.route = list(view["route"])
            self.remaining = view["remaining"]
            self.legal_steps = sorted(a["to"] for a in legal if a["type"] == Step.kind)
            self.can_confirm = any(a["type"] == ConfirmRoute.kind for a in legal)
            items = view["players"][self.actor]["items"] if not over else {"double": 0, "triple": 0}
            if (self.dice_option == 2 and not items["double"]) or (self.dice_option == 3 and not items["triple"]):
                self.dice_option = 1
            if self.phase == "roll":
                self.dice_option = 1 if self.dice_option not in (1, 2, 3) else self.dice_option
            if over and self.screen == "game":
                self.screen = "results"
            self.version += 1

    # ------------------------------------------------------------ CPU turns
    def _cpu_pause(self) -> float | None:
        """The pacing of the CPUs (the shell controller's ``cpu_pause``), before each CPU
        action: held while a battle a human fought is shown (until :meth:`dismiss_battle`)
        and while the game is not on screen; a battle between CPUs stays on screen for
        ``BATTLE_PAUSE``; else ``CPU_DELAYS`` of the speed."""
        if not self.autoplay_cpu or self.screen != "game":
            return None
        m = self._match
        cpu_battle = False
        if m is not None and self.hold_battles:
            humans = self._humans()
            for e in m.events[self._battles_seen:]:
                d = e.data
                if d.get("type") == "battle_result":
                    if d["player"] in humans or d["defender"] in humans:
                        self._holding = True
                    else:
                        cpu_battle = True
            self._battles_seen = len(m.events)
        if self._holding:
            return None
        return BATTLE_PAUSE.get(self.cpu_speed, 0.0) if cpu_battle else CPU_DELAYS.get(self.cpu_speed, 0.0)

    def _schedule_cpu(self) -> None:
        """Play the CPU actions due now: in the background at the CPUs' speed inside an
        event loop (a kernel), else at once (scripts and tests)."""
        src = self.source
        if not isinstance(src, MatchController) or not self.autoplay_cpu or self.screen != "game" or self._holding:
            return
        if src.cpu_due():
            src.start_cpus()
            self._busy_now()

    def stop_cpu(self) -> None:
        """Stop a running CPU run (leaving the game screen, loading another game); the
        game stays where the last CPU action left it and :meth:`resume_cpu` goes on."""
        if isinstance(self.source, MatchController):
            self.source.stop_cpus()
        self.cpu_busy = False

    def resume_cpu(self) -> None:
        """Go on with the CPU turns of the shown game (after :meth:`stop_cpu`)."""
        self._schedule_cpu()

    @observe("screen")
    def _screen_changed(self, change: dict) -> None:
        if change["new"] == "game":
            if not self._loading:
                self._schedule_cpu()
        else:  # nothing plays behind the start screen or the saves
            self.stop_cpu()

    def play_cpu_now(self) -> None:
        """Play every pending CPU action at once (no animation; a battle shown no longer
        holds them)."""
        if isinstance(self.source, MatchController):
            self._holding = False
            self.source.play_cpus_now()

    async def wait_cpu(self) -> None:
        """Wait until scheduled CPU turns are done (for scripts and tests)."""
        if isinstance(self.source, MatchController):
            await self.source.wait_cpus()

    @observe("cpu_speed")
    def _speed_changed(self, change: dict) -> None:
        if change["new"] not in CPU_DELAYS:
            raise ConquestError(f"cpu_speed must be one of {sorted(CPU_DELAYS)}, got {change['new']!r}")
        if isinstance(self.source, MatchController):
            self.source.cpu_speed = change["new"]


def battle_summary(events: list[dict[str, Any]], since: int, *, humans: set[int]) -> dict[str, Any]:
    """The result of a battle ended by ``events[since:]`` (the events of one action, as
    the viewer sees them), as the battle panel shows it; ``{}`` if no battle ended.
    ``points`` is None when the viewer may not see them (the Final Showdown).

    >>> from conquest_widget.games.japan_conquest import ScriptedDice
    >>> from conquest_widget.games.japan_conquest.match import JapanMatch
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([1, 6, 1], then_seed=5))
    >>> m.edit_prefecture("Saitama", owner=1, level="base")
    >>> for a in (Roll(1), Step(11), ConfirmRoute(), BattleRoll(1)): m.apply(a, m.to_act()[0])
    >>> n = len(m.events); m.apply(BattleRoll(1), 1)
    >>> r = battle_summary(m.events_for(0), n, humans={0, 1})
    >>> r["attacker_won"], r["attack_faces"], r["defence_faces"], r["points"]
    (True, [6], [1], 10)
    """
    result = next((e for e in events[since:] if e["type"] == "battle_result"), None)
    if result is None:
        return {}
    rolls = [e for e in events if e["type"] == "battle_roll" and e["pref"] == result["pref"]][-2:]
    faces = {e["side"]: list(e["faces"]) for e in rolls}
    return {
        "pref": result["pref"], "attacker": result["player"], "defender": result["defender"],
        "attack_faces": faces.get("attacker", []), "defence_faces": faces.get("defender", []),
        "attack": result["attack"], "defence": result["defence"], "bonus": result["bonus"],
        "winner": result["winner"], "attacker_won": result["attacker_won"], "points": result.get("points"),
        "human": result["player"] in humans or result["defender"] in humans,
    }
