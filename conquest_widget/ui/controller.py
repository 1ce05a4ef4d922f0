"""The match controller: the one object that holds a match and publishes what the current
viewer may see.  It knows no game; game widgets draw from its published traits and send
actions back with :meth:`MatchController.act`.

Published traits (nothing else of the match leaves the controller):

- ``viewer``: the seat whose view is shown (None = the public view);
- ``view``: ``match.view(viewer)`` (the public view while the cover screen is up);
- ``legal``: the viewer's legal actions (as dicts) when the viewer may act;
- ``events``: ``match.events_for(viewer)`` (``final_events_for`` once the game is over); ``event_keys`` their names
  (``match.event_keys_for(viewer)``: the same for an event in every seat's list);
- ``cover``: the name of the player the screen must be passed to ("" = none);
- ``version``: bumped once per published change (views redraw once per change).

CPU seats play through their bots, which get ``match.view(seat)`` only; CPU turns never
change the viewer.

**The cover rule** (hot seat with secrets: a game with hidden information and two or more
human seats at one screen).  Whenever the person at the screen may change or is unknown —
a new controller (Start, Resume, a loaded slot, a reload, a return from Exit), a hand-over,
a ninja window or a defence question addressed to another human — ``cover`` names the human
who must take the screen, ``viewer`` is None and every published trait holds the public
view only, until :meth:`MatchController.uncover`.  Who is asked depends only on
``match.to_act()`` (public), never on what anyone holds: a human's only possible answer
(``spec.extra["auto_play_forced"]``) is played for them only while they are the one at the
screen, so a question to anyone else always shows their cover.  A new game gets all of
this by declaring ``hidden_information=True`` in its spec.

    >>> from conquest_widget.games.japan_conquest import GameSetup
    >>> from conquest_widget.games.japan_conquest.match import JapanMatch
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], seed=2))
    >>> c = MatchController(m, humans={0})
    >>> c.viewer, c.legal[0]
    (0, {'type': 'roll', 'dice': 1})
    >>> c.act({"type": "roll", "dice": 1}); c.view["phase"]
    'route'
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from traitlets import Bool, Dict, HasTraits, Int, List, Unicode

from conquest_widget.core.bots import Bot, decision
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import Action
from conquest_widget.errors import IllegalActionError, SerializationError

#: seconds between CPU actions at each speed
CPU_DELAYS = {"instant": 0.0, "fast": 0.12, "normal": 0.45}


class PublishedTraits(HasTraits):
    """The traits a game board draws from, shared by the live :class:`MatchController`
    and the read-only :class:`~conquest_widget.ui.replay.ReplayController`."""

    viewer = Int(None, allow_none=True)
    view = Dict()
    legal = List()
    events = List()
    #: a name per event of ``events`` (``Match.event_keys_for``), or empty (then unnamed)
    event_keys = List()
    cover = Unicode("")
    message = Unicode("")
    version = Int(0)
    cpu_speed = Unicode("instant")
    #: True while CPU actions are being played one by one in the browser
    cpu_busy = Bool(False)

    #: False for a controller nobody plays through (a replay's): a board then shows no
    #: turn controls
    live = True
    #: how a refused action is worded for the player: a board may set its game's own
    #: wording (``explain_refusal(error) -> text``; "" or None: the error's own text)
    explain_refusal: Callable[[IllegalActionError], str] | None = None
    #: the pacing of CPU play, set by an app that paces its game's own way (None: each CPU
    #: action is published, then ``CPU_DELAYS[cpu_speed]`` seconds pass).  Called before
    #: each CPU action of a background run and once before a synchronous one: None holds
    #: the CPUs (nothing is played until ``start_cpus()`` is called again: a battle shown
    #: until its player has seen it), else the seconds to wait before the action
    cpu_pause: Callable[[], float | None] | None = None
    #: publish after each CPU action of a synchronous run too (an app whose sound and
    #: battle moments follow each action), not only once at its end
    publish_each_cpu_action = False

    def refusal(self, error: IllegalActionError | SerializationError) -> str:
        """What ``message`` says when ``error`` refused an action."""
        hook = self.explain_refusal
        text = hook(error) if hook is not None and isinstance(error, IllegalActionError) else ""
        return text or str(error)


class MatchController(PublishedTraits):
    """Holds a match privately; publishes the viewer's view, legal actions and events."""

    def __init__(self, match: Match, *, humans: set[int] | frozenset[int] = frozenset({0}),
                 bots: Mapping[int, Bot] | None = None, bot_seed: int = 0, play_cpus: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._match = match
        self.humans = frozenset(humans)
        if bots is None:
            module = match.spec.bots_module()
            bots = {s: module.BOTS[module.DEFAULT_BOT]() for s in range(match.n_seats) if s not in self.humans}
        self._bots = dict(bots)
        missing = [s for s in range(match.n_seats) if s not in self.humans and s not in self._bots]
        if missing:
            raise ValueError(f"seats {missing} are neither human nor played by a bot")
        self._bot_seed = bot_seed
        self._task: asyncio.Task | None = None
        self._pending: int | None = None
        if self.secret_seats:
            self.viewer = None  # nobody is known to be at the screen: the cover decides
        else:
            self.viewer = next((s for s in match.to_act() if s in self.humans), min(self.humans) if self.humans else None)
        if play_cpus:  # else the caller starts them (``start_cpus``) to show them one by one
            self.run_cpus()
        self._hand_over()
        self._publish()

    @property
    def secret_seats(self) -> bool:
        """True when the cover rule applies: hidden information and 2+ humans at one screen."""
        return bool(self._match.spec.hidden_information) and len(self.humans) > 1

    # ------------------------------------------------------------ reading
    @property
    def spec(self) -> Any:
        return self._match.spec

    @property
    def is_over(self) -> bool:
        return self._match.outcome() is not None

    def outcome(self) -> dict[str, Any] | None:
        out = self._match.outcome()
        return None if out is None else out.to_dict()

    def document(self) -> dict[str, Any]:
        """The match as a save document (the player's own file: everything)."""
        return self._match.to_dict()

    # ------------------------------------------------------------ acting
    def act(self, action: Action | Mapping[str, Any]) -> None:
        """The viewer plays ``action`` (an Action or its dict).  An illegal action sets
        ``message`` (the reason) and changes nothing."""
        if self.cover:
            self.message = "pass the screen first"
            return
        try:
            if not isinstance(action, Action):
                action = self._match.codec.from_dict(action)
            if self.viewer is None:
                raise IllegalActionError("nobody is viewing this match", "no_viewer")
            self._match.apply(action, self.viewer)
        except (IllegalActionError, SerializationError) as exc:
            self.message = self.refusal(exc)
            return
        self.message = ""
        if (self.cpu_speed != "instant" or self.cpu_pause is not None) and self._loop_running():
            self._hand_over()
            if self._forced_answer() is None:  # else the background task plays it first, then publishes
                self._publish()
            self.start_cpus()
            return
        self.run_cpus()
        self._hand_over()
        self._publish()

    @staticmethod
    def _loop_running() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def start_cpus(self) -> None:
        """Play the CPU actions due now in the background at ``cpu_speed`` (in a kernel:
        the browser sees each one); synchronously when no event loop runs."""
        if self._task is not None and not self._task.done():
            return
        if not self._loop_running():
            self.play_cpus_now()
            return
        self._task = asyncio.ensure_future(self.run_cpus_async())

    @property
    def cpu_running(self) -> bool:
        """Is a background CPU run started and not over (``cpu_busy`` is set once it runs)?"""
        return self._task is not None and not self._task.done()

    def play_cpus_now(self) -> int:
        """Stop a background run and play every CPU action due now at once (unless
        :attr:`cpu_pause` holds them), then publish; returns how many were played."""
        self.stop_cpus()
        n = self.run_cpus()
        self._hand_over()
        self._publish()
        return n

    async def wait_cpus(self) -> None:
        """Wait until a background CPU run is over (scripts and tests)."""
        while self._task is not None and not self._task.done():
            await asyncio.sleep(0.01)

    def stop_cpus(self) -> None:
        """Cancel background CPU play (leaving the game)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        self.cpu_busy = False

    def save(self, store: Any, slot: int | None = None, *, overwrite: bool = True, claim: Any = None) -> Any:
        """Write the match to ``store`` (a :class:`~conquest_widget.saves.SaveStore`):
        the autosave, or ``slot``.  Saves hold the whole match: they are the player's files.
        With ``claim`` (a :class:`~conquest_widget.saves.AutosaveClaim`) the autosave is
        written through it: False when another page holds the autosave now."""
        if slot is None:
            return claim.write(self._match) if claim is not None else store.autosave(self._match)
        return store.save_slot(slot, self._match, overwrite=overwrite)

    def record_result(self, store: Any) -> bool:
        """Record the finished match in ``store``'s results and CPU records."""
        return store.record_result(self._match)

    def step_cpu(self) -> bool:
        """One CPU action if only CPU seats are to act (or, in games whose spec sets
        ``extra["auto_play_forced"]`` to action kinds, a human's only legal action of such a kind); True if one was played."""
        m = self._match
        if m.outcome() is not None:
            return False
        seats = m.to_act()
        if not seats:
            return False
        forced = self._forced_answer()
        if forced is not None:
            m.apply(forced[1], forced[0])
            return True
        if any(s in self.humans for s in seats):
            return False
        seat = seats[0]
        m.apply(self._bots[seat].choose(*decision(m, seat, self._bot_seed)), seat)
        return True

    def _forced_answer(self) -> tuple[int, Action] | None:
        """The answer to play for a human who has nothing to decide: their only legal
        action, of a kind in the spec's ``extra["auto_play_forced"]`` (Japanese Risk's
        "hold" at a ninja window without ninjas, "commit 0" with an empty card).  Only for
        the human at the screen when the cover rule applies: a question to anyone else
        always goes through their cover, so that whether a cover appears never tells what
        they hold."""
        m = self._match
        forced_kinds = m.spec.extra.get("auto_play_forced", ())
        if not forced_kinds or m.outcome() is not None:
            return None
        at_screen = self.viewer if not self.cover else None
        for s in m.to_act():
            if s in self.humans and (s == at_screen or not self.secret_seats):
                legal = m.legal_actions(s)
                if len(legal) == 1 and legal[0].kind in forced_kinds:
                    return s, legal[0]
        return None

    def cpu_due(self) -> bool:
        """Is a CPU action due now (only CPU seats to act, or a human's forced answer)?"""
        m = self._match
        if m.outcome() is not None or not m.to_act():
            return False
        return self._forced_answer() is not None or not any(s in self.humans for s in m.to_act())

    def _held(self) -> bool:
        """Does the app's :attr:`cpu_pause` hold the CPU action due now?"""
        return self.cpu_pause is not None and self.cpu_due() and self.cpu_pause() is None

    def run_cpus(self) -> int:
        """Play every CPU action due now (synchronously, unless :attr:`cpu_pause` holds
        them); returns how many."""
        if self._held():
            return 0
        n = 0
        while self.step_cpu():
            n += 1
            if self.publish_each_cpu_action and self._forced_answer() is None:
                self._hand_over()
                self._publish()
        return n

    async def run_cpus_async(self) -> int:
        """Play the CPU actions due now, one per ``CPU_DELAYS[cpu_speed]`` seconds,
        publishing after each (for the browser), and once more if the screen then goes to
        another human (the hand-over)."""
        n = 0
        self.cpu_busy = True
        try:
            while self.cpu_due():
                if self.cpu_pause is not None:
                    pause = self.cpu_pause()
                    if pause is None:
                        break  # held: the app calls start_cpus() to go on
                    await asyncio.sleep(pause)
                if not self.step_cpu():
                    break
                n += 1
                if self._forced_answer() is not None:
                    continue  # played at once, never drawn: a button that would vanish under the pointer
                self._publish()
                if self.cpu_pause is None:
                    await asyncio.sleep(CPU_DELAYS.get(self.cpu_speed, 0.0))
        finally:
            self.cpu_busy = False
        # each action played was published above (the last one too: forced answers are
        # played by step_cpu until none is due); publish again only for the hand-over, so
        # that a human's move is one version (one redraw, one autosave), not two
        at_screen = (self.viewer, self.cover)
        self._hand_over()
        if (self.viewer, self.cover) != at_screen:
            self._publish()
        return n

    # ------------------------------------------------------------ hot seat
    def _next_human(self) -> int | None:
        """The human who is to act next: the one at the screen if they may act now,
        else the first human of ``match.to_act()`` (None while only CPUs may act)."""
        humans = [s for s in self._match.to_act() if s in self.humans]
        if not humans:
            return None
        at_screen = None if self.cover else self.viewer
        return at_screen if at_screen in humans else humans[0]

    def _hand_over(self) -> None:
        """After every change: show the human who is to act next — through the cover when
        the cover rule applies and the person at the screen changes; with one human (or
        no secrets) directly.  While only CPUs may act nothing changes, except that a
        cover whose player has nothing left to do is taken down (the public view stays)."""
        nxt = self._next_human()
        if not self.secret_seats:
            if nxt is not None:
                self.viewer = nxt
            return
        if nxt is None:
            if self.cover:
                self.cover, self._pending = "", None
            return
        if self.cover and self._pending == nxt:
            return
        if not self.cover and nxt == self.viewer:
            return
        self.viewer = None
        self._pending = nxt
        self.cover = self._name(nxt)

    def uncover(self) -> None:
        """The player named by the cover has the screen: show their view."""
        if self.cover:
            self.viewer = self._pending
            self.cover = ""
            self._pending = None
            self._publish()

    def _name(self, seat: int) -> str:
        players = getattr(self._match.setup, "players", ())
        p = players[seat] if seat < len(players) else None
        return str(getattr(p, "name", f"Player {seat + 1}"))

    # ------------------------------------------------------------ publishing
    def _publish(self) -> None:
        m = self._match
        seat = None if self.cover else self.viewer
        with self.hold_trait_notifications():
            self.view = m.view(seat)
            self.legal = [a.to_dict() for a in m.legal_actions(seat)] if seat is not None and seat in m.to_act() else []
            self.events = m.events_for(seat) if m.outcome() is None else m.final_events_for(seat)
            self.event_keys = m.event_keys_for(seat)
            self.version += 1
