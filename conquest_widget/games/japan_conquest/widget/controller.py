"""The Japan board's side of a match: traits the map and the panels draw from.

Japan Conquest is played through the shell's
:class:`~conquest_widget.ui.controller.MatchController`, as the other three games and a
table's seats are: it holds the match, plays the CPUs through their bots (which get a view,
never the match) and publishes what its viewer may see (``viewer``, ``view``, ``legal``,
``events``, ``version``).  The Japan board draws from a :class:`SeatController` bound to
it: the same published traits, plus those the board derives from them (``phase``,
``route``, ``legal_steps``, the battle shown, ...) and its own state (language, the
selected prefecture, the dice chosen).  The player's moves go back to the shell controller
through it; the refusals come back in Japan's words.  It holds no match and has no
ipywidgets/ipyleaflet imports, so a game can be played headless through it:

    >>> from conquest_widget.games.japan_conquest import GameSetup, ScriptedDice
    >>> from conquest_widget.games.japan_conquest.match import JapanMatch
    >>> from conquest_widget.ui.controller import MatchController
    >>> match = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([2]))
    >>> seat = SeatController(MatchController(match, humans={0, 1}))
    >>> seat.phase, seat.current_player
    ('roll', 0)
    >>> seat.roll()
    >>> seat.allowance, seat.legal_steps
    (2, [11, 12, 14, 19])
    >>> seat.click_prefecture(11); seat.route, seat.remaining
    ([11], 1)
    >>> seat.click_prefecture(40); seat.message
    'Fukuoka is not connected to where you are'
    >>> seat.view["players"][0]["name"], seat.events[-1]["type"]
    ('Player 1', 'roll')

:class:`~.replay.ReplayController` is the read-only kind the replay explorer's board draws
from (:class:`BoardModel` is what both share).
"""

from __future__ import annotations

from typing import Any

from traitlets import Bool, Dict, Int, List, Unicode

from conquest_widget.errors import IllegalActionError
from conquest_widget.games.japan_conquest.actions import (
    Action,
    BattleRoll,
    ConfirmRoute,
    Roll,
    Step,
    UndoStep,
)
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


class BoardModel(PublishedTraits):
    """The traits the Japan board draws from (see the module docstring), published by
    :meth:`show`, and the player's moves as methods.  A move goes to :attr:`source` (a
    shell controller) when a :class:`SeatController` is bound to one."""

    screen = Unicode("game", help="what the board's map shows: start | setup | game").tag(sync=False)
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
    setup_error = Unicode("")
    battle_report = Dict(help="the last battle's result while it is shown: see battle_summary(); {} = none")

    def __init__(self, **kwargs: Any) -> None:
        #: the shell controller the traits come from (None: none)
        self.source: Any = None
        self._loads = 0  # games shown so far: game_key
        self._holding = False  # a battle a human fought is shown: the CPUs wait (dismiss_battle)
        super().__init__(**kwargs)

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
        """Is the game shown over?"""
        return bool(self.view) and self.view.get("outcome") is not None

    @property
    def names(self) -> list[str]:
        """The players' names in seat order ([] without a game)."""
        return [p["name"] for p in self.view.get("players", ())]

    @property
    def human_to_act(self) -> bool:
        """Is the player who must act now a human at this screen?"""
        return bool(self.legal) and not self.is_over  # legal actions are published to a human to act only

    @property
    def battle_waiting(self) -> bool:
        """Is a battle result shown that a human player must dismiss?"""
        return bool(self.battle_report) and bool(self.battle_report.get("human"))

    # ------------------------------------------------------------ the player's moves
    def choose_dice(self, dice: int) -> None:
        """Select the dice option for the next roll (1, 2 or 3)."""
        self.dice_option = dice

    def roll(self) -> None:
        """Roll for movement with the selected dice option."""
        self._human(Roll(self.dice_option))

    def undo_step(self) -> None:
        """Take back the last step of the route planned."""
        self._human(UndoStep())

    def confirm_route(self) -> None:
        """End the move where the route planned ends."""
        self._human(ConfirmRoute())

    def battle_roll(self, dice: int | None = None) -> None:
        """Roll in the battle for the human attacker or defender."""
        self._human(BattleRoll(self.dice_option if dice is None else dice))

    def dismiss_battle(self) -> None:
        """The player has seen the battle's result: play goes on."""
        self.battle_report = {}
        self._holding = False

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

    # ------------------------------------------------------------ words
    def explain(self, error: IllegalActionError | None) -> str:
        """A refused action explained in the current language (the shell controller's
        ``explain_refusal`` while bound)."""
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

    def _why_not_step(self, code: int) -> str:
        """The source refuses the step and says why (in the game's words: :meth:`explain`)."""
        self.source.act(Step(code).to_dict())
        return str(self.source.message)

    def _explain_confirm(self) -> str:
        """Why the planned route cannot end here, in the player's words."""
        if not self.route:
            return t("why_route_empty", self.lang)
        return t("why_cannot_end", self.lang, left=self.remaining)

    # ------------------------------------------------------------ plumbing
    def _human(self, action: Action) -> None:
        if self._ready(action):
            self._apply(action)

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
            self.version += 1


class SeatController(BoardModel):
    """The board's traits mirrored from a live shell controller ``source`` (the shell app's
    game, a table's seat; None: no game): each change it publishes is mirrored, the
    player's moves go to ``source.act``.  It plays no CPU (the source's owner does).
    Bound to a :class:`~conquest_widget.ui.controller.MatchController` that has no
    ``cpu_pause`` of its own (the shell's app), it paces that controller's CPUs
    (:meth:`pace`): a battle a human fought holds them until Continue."""

    def __init__(self, source: Any, **kwargs: Any) -> None:
        self._paced: MatchController | None = None  # the controller whose cpu_pause is this seat's
        self._cpu_battle = False  # a battle between CPUs was shown since the last CPU action
        super().__init__(**kwargs)
        self.bind(source)

    def bind(self, source: Any) -> None:
        """Mirror ``source`` (None: nothing; the traits keep the last position until
        :meth:`clear`): a refused step is then worded by this game (``explain_refusal``).
        A live shell ``MatchController`` without a ``cpu_pause`` of its own is paced by
        :meth:`pace` until the seat is bound to another source (or to none)."""
        old, self.source = self.source, None
        if old is not None:
            old.unobserve(self._source_changed, names="version")
            old.unobserve(self._source_said, names="message")
        paced, self._paced = self._paced, None
        if paced is not None and paced.cpu_pause == self.pace:
            paced.cpu_pause = None  # unbound: the pause this seat installed goes with it
        self._holding = self._cpu_battle = False
        if source is None:
            return
        self.source = source
        source.explain_refusal = self.explain
        self._loads += 1  # another game shown: game_key changes
        self.battle_report = {}
        self.events = []  # the first mirror of a game shows no battle of its past
        if isinstance(source, MatchController) and source.live and source.cpu_pause is None:
            source.cpu_pause = self.pace
            self._paced = source
        source.observe(self._source_changed, names="version")
        source.observe(self._source_said, names="message")
        self._source_changed()

    def _source_changed(self, _change: Any = None) -> None:
        self.mirror()
        self.message = self.source.message

    def _source_said(self, change: dict[str, Any]) -> None:
        self.message = change["new"]

    def clear(self) -> None:
        """Show no game (the stage between games: the start screen, the New game form)."""
        self.bind(None)
        with self.hold_trait_notifications():
            self.view, self.legal, self.events, self.route, self.legal_steps = {}, [], [], [], []
            self.phase, self.message, self.selected_prefecture = "", "", 0
            self.version += 1

    def mirror(self) -> None:
        """Publish what :attr:`source` publishes now, with the traits derived from it.  A
        battle that ended since the last mirror is shown (``battle_report``) and holds the
        CPUs (a human fought it: until :meth:`dismiss_battle`) or gives them a pause
        (CPUs only): see :meth:`pace`."""
        src = self.source
        if src is None or not src.view:
            return
        seen = len(self.events)  # 0: a game shown anew (no battle of its past)
        self.show(src.viewer, dict(src.view), list(src.legal), list(src.events))
        if not seen or len(self.events) <= seen:
            return
        humans = self._humans()
        report = battle_summary(self.events, seen, humans=humans)
        if report:
            self.battle_report = report
        elif self.battle_report and not self.battle_report.get("human"):
            self.battle_report = {}
        results = [e for e in self.events[seen:] if e.get("type") == "battle_result"]
        if any(e["player"] in humans or e["defender"] in humans for e in results):
            self._holding = True
        self._cpu_battle = any(e["player"] not in humans and e["defender"] not in humans for e in results)

    def _humans(self) -> set[int]:
        humans = getattr(self.source, "humans", None)
        if humans is not None:
            return set(humans)
        return set() if self.source is None or self.source.viewer is None else {self.source.viewer}

    def pace(self) -> float | None:
        """The pace of the CPUs of the controller this seat paces (its ``cpu_pause``):
        held (None) while the result of a battle a human fought is shown, until Continue
        (:meth:`dismiss_battle`); ``BATTLE_PAUSE`` seconds after a battle between CPUs;
        else ``CPU_DELAYS`` of the CPUs' speed."""
        src = self.source
        if self._holding or src is None:
            return None
        speed = str(getattr(src, "cpu_speed", "instant"))
        cpu_battle, self._cpu_battle = self._cpu_battle, False
        return BATTLE_PAUSE.get(speed, 0.0) if cpu_battle else CPU_DELAYS.get(speed, 0.0)

    def dismiss_battle(self) -> None:
        """Continue on a battle's result: the CPUs this seat paces go on."""
        super().dismiss_battle()
        src = self._paced
        if src is not None and src is self.source and src.cpu_due():
            src.start_cpus()


def battle_summary(events: list[dict[str, Any]], since: int, *, humans: set[int]) -> dict[str, Any]:
    """The result of a battle ended by ``events[since:]`` (the events of one action, as
    the viewer sees them), as the battle panel shows it; ``{}`` if no battle ended.
    ``points`` is None when the viewer may not see them (the Final Showdown).

    >>> from conquest_widget.games.japan_conquest import GameSetup, ScriptedDice
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


__all__ = ["ACTION_PHASES", "BATTLE_PAUSE", "BoardModel", "SeatController", "battle_summary"]
