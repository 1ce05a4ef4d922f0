"""What a game gives the shared shell to be playable in it: one :class:`GameUI` object.

The shell's :class:`~conquest_widget.ui.match_app.MatchApp` owns everything that is the same
for every game — the start screen (new game, resume the autosave, load a slot, replay), the
setup form (players, names, Human or a CPU level per seat, the game's options, CPU speed),
the cover screen between humans, saving, the log, the results screen with the standings and
"play again".  A game supplies, in ``conquest_widget/games/<id>/widget/__init__.py``::

    UI = GameUI(
        game="conquest_cards",
        options=(Option("ace_eleven", {"en": "Ace on its own suit = 11", "ja": "…"}, default=False),),
        make_setup=make_setup,       # (seats: list[SeatChoice], options: dict) -> the engine's setup
        seat_choices=seat_choices,   # (setup) -> list[SeatChoice]: who is human, which CPU level
        board=CardsBoard,            # Board(controller, lang): the game's own widget
        results_html=results_html,   # (outcome: dict, view: dict, lang) -> HTML (escaped)
        event_text=event_text,       # (event: dict, lang, names=None) -> one log line (plain text) or None
        sounds=SOUNDS,               # engine event type -> sound effect (games/<id>/sounds.py)
        # or sound_news=...,         # (view, events, lang) -> (effects, announcement): its own news
    )

and its ``spec.py`` names ``widget="conquest_widget.games.<id>.widget:App"`` where
``App = app_class(UI)`` (:func:`conquest_widget.ui.match_app.app_class`: a
:class:`MatchApp` subclass the picker can open with ``App(lang=..., save_dir=...)``).

**The board contract.**  ``board(controller, lang)`` returns an ipywidgets widget that

- draws only from the controller's published traits: ``viewer``, ``view``, ``legal``,
  ``events``, ``version`` (redraw once per ``version`` change), ``message``, ``cover``;
- sends moves with ``controller.act(action_dict)`` and nothing else (it never sees the
  match, so the replay explorer can drive the same board from a replay controller whose
  ``legal`` is empty);
- has ``set_lang(lang)`` to switch between English and Japanese;
- escapes every string it puts into HTML (:func:`conquest_widget.core.safe_text.html_text`).

    >>> Option("k", {"en": "Board size", "ja": "盤の大きさ"}, default=4, choices=(3, 4, 5)).kind
    'choice'
    >>> SeatChoice("Ann").human, SeatChoice("Bo", bot="hard").human
    (True, False)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

HUMAN = "human"


@dataclass(frozen=True)
class SeatChoice:
    """One seat as the setup form chose it: a name and ``bot`` = ``"human"`` or a key of
    the game's ``bots.BOTS`` (a CPU of that level)."""

    name: str
    bot: str = HUMAN

    @property
    def human(self) -> bool:
        return self.bot == HUMAN


@dataclass(frozen=True)
class Option:
    """A setup option of a game beyond the players: a switch (``default`` a bool), a
    choice among ``choices``, or a whole number in ``[low, high]``."""

    key: str
    label: Mapping[str, str]
    default: Any = False
    choices: Sequence[Any] = ()
    low: int | None = None
    high: int | None = None
    #: choice labels per language (same order as ``choices``); default ``str(choice)``
    choice_labels: Mapping[str, Sequence[str]] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        if isinstance(self.default, bool):
            return "bool"
        return "int"


@dataclass(frozen=True)
class GameUI:
    """Everything the shell needs from a game (see the module docstring).

    ``event_text(event, lang)`` may take a third argument ``names`` (the players' names in
    seat order): the shell then passes them, so log lines can name the players."""

    game: str
    make_setup: Callable[[list[SeatChoice], dict[str, Any]], Any]
    seat_choices: Callable[[Any], list[SeatChoice]]
    board: Callable[..., Any]
    results_html: Callable[[dict[str, Any], dict[str, Any], str], str]
    event_text: Callable[[dict[str, Any], str], str | None]
    options: Sequence[Option] = ()
    #: engine event type -> sound effect (a key of :data:`conquest_widget.ui.sound.EFFECTS`):
    #: what the game's events sound like in the shell (which adds the turn chime and the end
    #: fanfare itself); kept in the game's folder (``games/<id>/sounds.py``)
    sounds: Mapping[str, str] = field(default_factory=dict)
    #: the game's own sound news instead of ``sounds``: ``sound_news(view, events, lang)`` ->
    #: ``(effects, announcement)``, the effects (keys of ``EFFECTS``) and the text to speak
    #: ("" = none) of a published change, where ``view`` is the viewer's published view and
    #: ``events`` only the events new since the last change the shell heard.  A hook that
    #: takes ``before`` is given the view of that last change (None when the match was just
    #: shown or the screen changed hands; ``events`` is then empty), so it can hear a change
    #: that wrote no event.  The shell adds the turn chime and "<name>'s turn" when the
    #: viewer comes to act and the end fanfare with the winners (a hook leaves the end to
    #: it), plays the most important effect (``ui.sound.pick_effects``) and never says the
    #: same sentence twice in one announcement
    sound_news: Callable[..., tuple[Sequence[str], str]] | None = None
    #: the replay's move list for an action that wrote no log line (a card selected):
    #: ``action_text(action, lang, name)`` -> a sentence ("Ann picks the 2 of clubs"), where
    #: ``action`` is the action's dict, or None when the viewer may not know it (another
    #: seat's secret step: the sentence then says only that ``name`` acted); None: the
    #: shell's own "<name> moved"
    action_text: Callable[[dict[str, Any] | None, str, str], str | None] | None = None
    #: a widget shown left of every screen of the app but the replay (Japan Conquest: the
    #: prefecture map), made once per app as ``stage(lang)``.  It has ``set_lang(lang)``,
    #: ``close()``, ``pick_for(form)`` (the New game form is shown: the stage serves it, e.g.
    #: map clicks pick a home; ``None``: it serves no form), ``attach(controller)`` (a match
    #: is shown: the board draws on the stage, see ``board``) and ``release()``.  None: the
    #: screens take the whole width
    stage: Callable[[str], Any] | None = None
    #: the game's own New game form instead of the shell's: ``setup_form(lang=, on_start=,
    #: on_back=, last=, stage=, tables=)`` -> a widget with ``read()`` -> ``(setup, seed or
    #: None)`` (raises ``ValueError`` naming the problem, in the form's language),
    #: ``set_lang(lang)``, ``close()``, ``problem`` (the problem shown on the form) and
    #: ``screens`` (a field whose ``value`` is ``"one"`` or ``"tables"``); ``last`` is the
    #: setup of the game started last from it (the preferences' ``last_setups``, checked by
    #: the game's codec), or None
    setup_form: Callable[..., Any] | None = None
    #: the setup form's options of a setup (``setup_options(setup)`` -> ``{option key:
    #: value}``, what ``make_setup`` was given for it): the shell's New game form is filled
    #: from the setup of the game started last (the preferences' ``last_setups``).  None:
    #: each option is read from the setup's attribute of the option's key, where it has one
    #: (see :meth:`form_options`)
    setup_options: Callable[[Any], Mapping[str, Any]] | None = None
    #: the game's own story of a finished match for the results screen (escaped HTML):
    #: ``story_html(match, lang)``; the match is a copy the shell made from the document
    story_html: Callable[[Any, str], str] | None = None
    #: a column of the game's own in the results' standings, after the player's name (Japan
    #: Conquest: the score): ``standings_column(outcome, view, lang) -> (heading, {seat:
    #: cell})`` (plain text, escaped by the shell; a seat not in the mapping has an empty cell);
    #: None: no such column
    standings_column: Callable[[dict[str, Any], dict[str, Any], str], tuple[str, Mapping[int, Any]]] | None = None
    #: the start screen's "Watch CPUs": the setup of a game of CPUs only (``demo_setup()``)
    demo_setup: Callable[[], Any] | None = None
    #: the label of a CPU in the records against the CPUs (previous results):
    #: ``cpu_label(label, lang)``, where ``label`` is the CPU's bot label as its results
    #: record it (Japan Conquest: ``"hard:aggressive"`` -> "Hard · Aggressive"); None: the label
    cpu_label: Callable[[str, str], str] | None = None
    #: write the autosave shortly after a change inside a kernel, once for quick changes
    #: (:class:`~conquest_widget.ui.autosave.Autosaver`'s ``deferred``), instead of at once
    #: (see :attr:`MatchApp.autosave_deferred <conquest_widget.ui.match_app.MatchApp.autosave_deferred>`)
    autosave_deferred: bool = False
    #: default player names per language for the setup form
    default_names: Mapping[str, Sequence[str]] = field(default_factory=lambda: {
        "en": ("Ann", "Ben", "Chika", "Dai", "Emi", "Fumi"),
        "ja": ("あん", "べん", "ちか", "だい", "えみ", "ふみ"),
    })

    @cached_property
    def _event_text_takes_names(self) -> bool:
        try:
            return "names" in inspect.signature(self.event_text).parameters
        except (TypeError, ValueError):
            return False

    @cached_property
    def _sound_news_takes_before(self) -> bool:
        try:
            return "before" in inspect.signature(self.sound_news).parameters  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False

    def heard(self, view: dict[str, Any], events: Sequence[dict[str, Any]], lang: str,
              before: dict[str, Any] | None = None) -> tuple[list[str], str]:
        """The effects and the announcement of a published change (see ``sound_news``):
        the game's hook's, else the effects of ``events`` by ``sounds`` (no announcement).

            >>> ui = GameUI("g", None, None, None, None, None, sounds={"buy": "claim"})
            >>> ui.heard({}, [{"type": "buy"}, {"type": "pass"}], "en")
            (['claim'], '')
        """
        if self.sound_news is not None:
            extra = {"before": before} if self._sound_news_takes_before else {}
            effects, text = self.sound_news(view, list(events), lang, **extra)
            return list(effects), text
        mapping = self.sounds
        return [mapping[e["type"]] for e in events if isinstance(e, dict) and e.get("type") in mapping], ""

    def cpu_name(self, label: str, lang: str) -> str:
        """A CPU's bot label in words (``cpu_label``; else the label itself).

            >>> GameUI("g", None, None, None, None, None).cpu_name("hard", "en")
            'hard'
        """
        return self.cpu_label(label, lang) if self.cpu_label is not None else label

    def form_options(self, setup: Any) -> dict[str, Any]:
        """The setup form's option values of ``setup`` (``setup_options``, else each option's
        key read as an attribute of the setup; an option it does not give is left out).
        The form checks each value as it takes it.

            >>> from types import SimpleNamespace
            >>> ui = GameUI("g", None, None, None, None, None, options=(Option("k", {"en": "K"}, default=4),))
            >>> ui.form_options(SimpleNamespace(k=5, other=1)), ui.form_options(object())
            ({'k': 5}, {})
        """
        if self.setup_options is not None:
            return dict(self.setup_options(setup))
        missing = object()
        found = {o.key: getattr(setup, o.key, missing) for o in self.options}
        return {k: v for k, v in found.items() if v is not missing}

    def log_line(self, event: dict[str, Any], lang: str, names: Sequence[str]) -> str | None:
        """``event_text`` of ``event``, given the players' names when it takes them."""
        if self._event_text_takes_names:
            return self.event_text(event, lang, names=list(names))
        return self.event_text(event, lang)

