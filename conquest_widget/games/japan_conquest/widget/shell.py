"""What Japan Conquest gives the shared shell (:class:`~conquest_widget.ui.game_ui.GameUI`).

The shell uses this ``UI`` where it hosts any game's board: its replay explorer
(:class:`conquest_widget.ui.replay.ReplayExplorer`), which then draws a Japan match on the
prefecture map (:class:`~.board.JapanBoard`) instead of as raw data, a table's page (each
player at their own screen) where the board is played, and the shell's app
(``app_class(UI)``), with Japan's map as its stage (:mod:`.stage`), Japan's own New game
form, Watch CPUs, the story of the game on the results and its own sounds
(:func:`~conquest_widget.games.japan_conquest.sounds.sound_news`), its CPUs named in the
records and its autosave written off the click path.  The registry's widget is that
``App`` (:mod:`conquest_widget.games.japan_conquest.widget`).

    >>> from conquest_widget.ui.game_ui import SeatChoice
    >>> setup = UI.make_setup([SeatChoice("Ann"), SeatChoice("Bo", bot="hard:aggressive")], {"turns": 5})
    >>> [(p.name, p.cpu, p.difficulty, p.strategy) for p in setup.players], setup.turns
    ([('Ann', False, 'normal', 'balanced'), ('Bo', True, 'hard', 'aggressive')], 5)
    >>> [s.bot for s in UI.seat_choices(setup)]
    ['human', 'hard:aggressive']
"""

from __future__ import annotations

import weakref
from typing import Any

from conquest_widget.games.japan_conquest.rules import STANDARD_TURNS
from conquest_widget.games.japan_conquest.setup import (
    DEFAULT_COLOURS,
    GameSetup,
    PlayerSetup,
    demo_setup,
)
from conquest_widget.games.japan_conquest.sounds import sound_news
from conquest_widget.games.japan_conquest.text import describe_event, t
from conquest_widget.ui.game_ui import HUMAN, GameUI, Option, SeatChoice

#: homes of seats 1-4 when the shell sets a game up (distinct and far apart)
SHELL_HOMES = (13, 27, 1, 40)


def make_setup(seats: list[SeatChoice], options: dict[str, Any]) -> GameSetup:
    """A setup from the shell's seats (a CPU's ``bot`` is ``difficulty`` or ``difficulty:strategy``)."""
    players = []
    for i, seat in enumerate(seats):
        difficulty, _, strategy = (seat.bot if not seat.human else "normal").partition(":")
        players.append(PlayerSetup(name=seat.name, home=SHELL_HOMES[i], colour=DEFAULT_COLOURS[i],
                                   cpu=not seat.human, difficulty=difficulty, strategy=strategy or "balanced"))
    return GameSetup(players=tuple(players), turns=int(options.get("turns", 10)))


def seat_choices(setup: GameSetup) -> list[SeatChoice]:
    return [SeatChoice(p.name, HUMAN if not p.cpu else f"{p.difficulty}:{p.strategy}") for p in setup.players]


def standings_column(outcome: dict[str, Any], view: dict[str, Any], lang: str) -> tuple[str, dict[int, Any]]:
    """The score of each seat, a column of the shell's standings on the results.

        >>> standings_column({}, {"ranking": [{"seat": 1, "score": 320}, {"seat": 0, "score": 275}]}, "en")
        ('Score', {1: 320, 0: 275})
    """
    return t("score", lang), {int(r["seat"]): r["score"] for r in view.get("ranking") or ()}


def results_html(outcome: dict[str, Any], view: dict[str, Any], lang: str) -> str:
    """Nothing below the standings, which have the scores (:func:`standings_column`); the
    story of the game is :func:`story_html`."""
    return ""


def event_text(event: dict[str, Any], lang: str, names: list[str] | None = None) -> str | None:
    return describe_event(event, lang, names or [])


def board(controller: Any, lang: str = "en", stage: Any = None) -> Any:
    from conquest_widget.games.japan_conquest.widget.board import JapanBoard

    return JapanBoard(controller, lang, stage)


def stage(lang: str = "en") -> Any:
    """The app's map (:class:`~.stage.JapanStage`), shown beside every screen but the replay."""
    from conquest_widget.games.japan_conquest.widget.stage import JapanStage

    return JapanStage(lang)


def setup_form(*, lang: str, on_start: Any, on_back: Any, last: GameSetup | None = None, stage: Any = None,
               tables: bool = False) -> Any:
    """Japan Conquest's own New game form (:class:`~.setup_form.SetupScreen`: colours,
    homes picked on the stage's map, mode, Roll for Order), filled with ``last``."""
    from conquest_widget.games.japan_conquest.widget.controller import SeatController
    from conquest_widget.games.japan_conquest.widget.setup_form import SetupScreen

    seat = stage.seat if stage is not None else SeatController(None, lang=lang, screen="setup")
    seat.lang = lang
    form = SetupScreen(seat, on_start=on_start, on_back=on_back)
    if isinstance(last, GameSetup):
        form.load(last.to_dict())
    if stage is not None:
        stage.pick_for(form)
    return form


def cpu_label(label: str, lang: str) -> str:
    """A CPU of the records, ``"difficulty:strategy"``, in words ("Hard · Aggressive").

        >>> cpu_label("hard:aggressive", "en"), cpu_label("odd", "en")
        ('Hard · Aggressive', 'odd')
    """
    difficulty, sep, strategy = label.partition(":")
    if not sep:
        return label
    return f"{t(difficulty, lang)} · {t(strategy, lang)}"


def story_html(match: Any, lang: str) -> str:
    """The story of a finished game in pictures (escaped): score by turn with the Final
    Showdown's totals, the final map, regions and battles."""
    from conquest_widget.games.japan_conquest import story
    from conquest_widget.games.japan_conquest.widget.story_view import story_html as draw

    if not match.is_over:
        return ""
    told = _STORIES.get(match)
    if told is None:  # the game is replayed once per match, not once per language
        told = _STORIES[match] = story.game_story(match)
    return draw(told, lang)


#: the story of each finished match asked for (held while the match is)
_STORIES: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


UI = GameUI(
    game="japan_conquest",
    make_setup=make_setup,
    seat_choices=seat_choices,
    board=board,
    results_html=results_html,
    standings_column=standings_column,
    event_text=event_text,
    options=(Option("turns", {"en": "Turns", "ja": "ターン数"}, default=10, choices=tuple(STANDARD_TURNS)),),
    stage=stage,
    setup_form=setup_form,
    story_html=story_html,
    demo_setup=demo_setup,
    sound_news=sound_news,  # battles from the human side, every turn named, the step's tick
    cpu_label=cpu_label,
    autosave_deferred=True,  # a move's autosave is written off the click path (issue 18)
)
