"""The shell's replay explorer: scrub through any registered game's log, look at it from
one seat (or the public view, or — as an explicit choice — every seat), and branch off.

Three layers, from the engine up:

- :class:`Replay` (:class:`conquest_widget.core.replay.Replay`, widget-free, opened here
  from any source) loads a match (a :class:`~conquest_widget.core.match.Match`, its
  ``to_dict()`` document, a save file's document or a JSON file) **once**, keeping a small
  state record (:meth:`Match.snapshot`) every ``every`` log entries; position ``k`` (after
  the first ``k`` actions, with the chance they drew) is shown by restoring the nearest
  record at or before ``k`` into one working match and applying the logged actions since,
  chance outcomes forced from the log.  Loading is linear in the log; showing a point costs
  at most ``every`` log entries of replay.
- :class:`ReplayController` publishes the same traits as the
  :class:`~conquest_widget.ui.controller.MatchController` (``viewer``, ``view``, ``legal``
  — always empty —, ``events``, ``cover``, ``message``, ``version``, ``cpu_busy``) for its
  ``index``, so a game's own board draws a replay exactly as it draws a live match;
  :meth:`~ReplayController.act` refuses with a message.
- :class:`ReplayExplorer` is the widget: slider and ``|< < > >|`` buttons, a seat chooser
  (public view / each seat / "Show everything"), the move list, the game's board (or a
  readable HTML rendering of the view for a game without one), and "Branch here".

Hidden information stays hidden: the explorer opens on the public view (or the seat
asked for) and its widgets only ever hold what the chosen viewer may see; only "Show
everything" (``reveal_all=True``) draws every seat's view side by side.  With
``public_only=True`` (the app's replay of an unfinished game with hidden information,
whoever is at the screen) the public view is all it offers: no seat, no "Show
everything" (:class:`~conquest_widget.errors.SecretsLockedError` if asked from Python).

    >>> from conquest_widget.core.bots import RandomBot, play_bots
    >>> from conquest_widget.games.codex.engine import CodexMatch
    >>> import random
    >>> m = CodexMatch(CodexMatch.random_setup(random.Random(1), 3), seed=4)
    >>> _ = play_bots(m, {s: RandomBot() for s in range(3)}, seed=2, max_actions=60)
    >>> c = ReplayController(m, viewer=None)
    >>> c.index == c.length == 60, c.legal
    (True, [])
    >>> c.index = 10
    >>> c.view == CodexMatch.from_dict(c.document()).view(None)
    True
    >>> c.act({"type": "end_turn"}); c.message
    'This is a replay: use “Branch here” to play on from this position.'
    >>> b = c.branch(); len(b.log) == len(c.document()["log"]), len(m.log) > len(b.log)
    (True, True)
"""

from __future__ import annotations

import bisect
import html
import importlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as W
from traitlets import Dict, Int, TraitError, observe, validate

from conquest_widget.core import registry
from conquest_widget.core import replay as core_replay
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import Action
from conquest_widget.core.replay import DEFAULT_EVERY, NoSuchPositionError
from conquest_widget.errors import (
    NoSuchSeatError,
    SecretsLockedError,
    SerializationError,
    UnknownGameError,
)
from conquest_widget.lean import Layout
from conquest_widget.lean import close_tree as _close_tree
from conquest_widget.ui.controller import PublishedTraits

__all__ = ["DEFAULT_EVERY", "NoSuchPositionError", "Replay", "ReplayController", "ReplayExplorer", "game_ui",
           "read_game_file"]

#: moves listed before and after the shown one in the explorer's move list
MOVES_AROUND = 12
#: the largest JSON file :class:`Replay` reads (a game's save is far smaller)
MAX_FILE_BYTES = 32 * 1024 * 1024

LABELS: dict[str, tuple[str, str]] = {
    "title": ("Replay: {game}", "リプレイ：{game}"),
    "position": ("Move {k} of {n}", "{n}手中{k}手目"),
    "start": ("start", "開始"),
    "public": ("Public view", "公開情報"),
    "everything": ("Show everything", "すべて表示"),
    "seat_view": ("{name}'s view", "{name}の視点"),
    "view_of": ("View", "視点"),
    "moves": ("Moves", "手順"),
    "branch": ("Branch here", "ここから分岐"),
    "branched": ("A new game starts from move {k}: it is independent of this replay.",
                 "{k}手目から新しいゲームを始めました（このリプレイとは別です）。"),
    "read_only": ("This is a replay: use “Branch here” to play on from this position.",
                  "これはリプレイです。続きを遊ぶには「ここから分岐」を使ってください。"),
    "everything_note": ("Showing every player's secrets.", "すべてのプレイヤーの秘密を表示しています。"),
    "player": ("Player {n}", "プレイヤー{n}"),
    "moved": ("{name} moved", "{name}の手番"),
    "over": ("game over", "終了"),
    "first": ("|<", "|<"),
    "prev": ("<", "<"),
    "next": (">", ">"),
    "last": (">|", ">|"),
}


def _t(key: str, lang: str, **fmt: Any) -> str:
    en, ja = LABELS[key]
    return (ja if lang == "ja" else en).format(**fmt)


def read_game_file(path: Path) -> Any:
    """The JSON document in a game file (at most ``MAX_FILE_BYTES``); a file that cannot be
    read or is not JSON raises :class:`SerializationError` naming it."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise SerializationError(f"{path}: the file is larger than {MAX_FILE_BYTES} bytes: not a game")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SerializationError(f"{path}: cannot read the game file: {exc}") from None
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise SerializationError(f"{path}: not a valid JSON game file: {exc}") from None


def load_match(source: Any, *, engine: type[Match] | None = None, name: object = None) -> Match:
    """A match from ``source``: a :class:`Match` (returned as is), an engine object a
    game adopts (``Match.adopt``), a ``Match.to_dict()`` document, a save file's document (autosave or slot,
    checked against the saves' schema), or the path of a JSON file holding one of those.
    ``engine`` reads documents of a game that is not registered (tests).  Bad input raises
    :class:`SerializationError` (or the saves' :class:`~conquest_widget.errors.CorruptSaveError`)
    naming the problem.

        >>> load_match({"game": "chess", "log": []})
        Traceback (most recent call last):
        ...
        conquest_widget.errors.SerializationError: not a replayable game: unknown game 'chess': ...
    """
    if isinstance(source, Match):
        return source
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        return load_match(read_game_file(path), engine=engine, name=path)
    prefix = f"{name}: " if name is not None else ""
    if not isinstance(source, Mapping):
        try:
            return core_replay.match_of(source)  # an engine object a game adopts (Match.adopt)
        except SerializationError as exc:
            if not str(exc).startswith("cannot replay a "):  # a game adopted it, and says what is wrong
                raise SerializationError(f"{prefix}{exc}"[:400]) from None
        raise SerializationError(f"{prefix}cannot replay a {type(source).__name__}: expected a match, "
                                 "its to_dict() document, a save document or a JSON file")
    if "format" in source and "match" in source:  # a save file (autosave or slot)
        from conquest_widget.saves.documents import check_game

        engines = {engine.spec.id: engine} if engine is not None else None
        return load_match(check_game(dict(source), name or "document", engines=engines), engine=engine)
    game = source.get("game")
    if not isinstance(game, str) and engine is None:  # not a match document: one a game's engine adopts?
        try:
            return core_replay.match_of(source)
        except SerializationError as exc:
            raise SerializationError(f"{prefix}{exc}"[:400]) from None
    try:
        cls = engine if engine is not None and game == engine.spec.id else registry.get(str(game)).engine_class()
    except UnknownGameError as exc:
        raise SerializationError(f"{prefix}not a replayable game: {exc}"[:300]) from None
    try:
        return cls.from_dict(source)
    except RecursionError:
        raise SerializationError(f"{prefix}the game data is nested too deeply") from None
    except SerializationError as exc:
        raise SerializationError(f"{prefix}{exc}"[:400]) from None


def game_ui(game: str) -> Any:
    """The game's :class:`~conquest_widget.ui.game_ui.GameUI` (``UI`` of
    ``conquest_widget.games.<game>.widget``), or None when the game has none.

        >>> game_ui("codex").game, game_ui("no_such_game")
        ('codex', None)
    """
    name = f"conquest_widget.games.{game}.widget"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None
        raise
    return getattr(module, "UI", None)


def public_while_playing(match: Match) -> bool:
    """Whether an app's replay of ``match`` offers the public view only: while the game is
    unfinished, whichever game it is (a seat's hand or secret army; Japan Conquest, a game
    of open information, hides its totals in the Final Showdown), so the screen cannot show
    a secret of a game still being played; every seat's view once it is over.

        >>> import random
        >>> from conquest_widget.core import registry
        >>> Codex = registry.get("codex").engine_class()
        >>> public_while_playing(Codex(Codex.random_setup(random.Random(1), 2), seed=1))
        True
    """
    return match.outcome() is None


def player_names(match: Match, lang: str = "en") -> list[str]:
    """The players' names of ``match`` (``Player n`` where the setup names none)."""
    out = []
    for i, p in enumerate(getattr(match.setup, "players", ())):
        name = getattr(p, "name", None)
        if not isinstance(name, str):
            name = p if isinstance(p, str) else _t("player", lang, n=i + 1)
        out.append(str(name))
    return out


class Replay(core_replay.Replay):
    """:class:`conquest_widget.core.replay.Replay` (a match's positions, widget-free) opened
    from anything :func:`load_match` reads: a match, its ``to_dict()`` document, a save
    file's document or the path of a JSON file.

        >>> from conquest_widget.core.bots import RandomBot, play_bots
        >>> from conquest_widget.games.codex.engine import CodexMatch
        >>> import random
        >>> m = CodexMatch(CodexMatch.random_setup(random.Random(1), 2), seed=4)
        >>> _ = play_bots(m, {0: RandomBot(), 1: RandomBot()}, seed=2, max_actions=9)
        >>> Replay(m.to_dict()).length    # a document: the registry finds its engine
        9
        >>> Replay({"game": "chess", "log": []})
        Traceback (most recent call last):
        ...
        conquest_widget.errors.SerializationError: not a replayable game: unknown game 'chess': ...
    """

    def __init__(self, source: Any, *, every: int = DEFAULT_EVERY, engine: type[Match] | None = None) -> None:
        super().__init__(load_match(source, engine=engine), every=every)

    def names(self, lang: str = "en") -> list[str]:
        """The players' names (``Player n`` where the setup names none)."""
        return player_names(self._match, lang)


# --------------------------------------------------------------------------- controller
class ReplayController(PublishedTraits):
    """The :class:`~conquest_widget.ui.controller.MatchController` traits for position
    ``index`` of a replay, read only.

    ``source``: a :class:`Replay` (shared, e.g. by one controller per seat) or anything
    :class:`Replay` loads.  ``viewer``: the seat whose view is published (None = the public
    view).  ``reveal_all=True`` (an explicit choice) also publishes ``views``: every seat's
    view and the public one, for "show everything".
    """

    live = False
    #: the position shown: after the first ``index`` actions (0 = the start)
    index = Int(0)
    #: with ``reveal_all``: ``{"public": view(None), "seats": [view(0), view(1), ...]}``
    views = Dict()

    def __init__(self, source: Any, *, viewer: int | None = None, index: int | None = None,
                 reveal_all: bool = False, lang: str = "en", every: int = DEFAULT_EVERY,
                 engine: type[Match] | None = None) -> None:
        super().__init__()
        self.replay = source if isinstance(source, Replay) else Replay(source, every=every, engine=engine)
        self.reveal_all = bool(reveal_all)
        self.lang = lang
        self.humans: frozenset[int] = frozenset()
        self._ready = False
        self.viewer = self.replay._check_seat(viewer)
        self.index = self.replay.length if index is None else self.replay._check(index)
        self._ready = True
        self._publish()

    def load(self, replay: Replay, index: int | None = None) -> None:
        """Show ``replay`` (another match) from now on, at ``index`` (default: its end), from
        the public view: the boards drawing this controller stay and redraw."""
        k = replay.length if index is None else replay._check(index)
        self._ready = False
        try:
            self.replay = replay
            self.viewer = None
            self.index = k
        finally:
            self._ready = True
        self._publish()

    @validate("index")
    def _valid_index(self, proposal: Any) -> int:
        try:
            return self.replay._check(proposal["value"])
        except NoSuchPositionError as exc:
            raise TraitError(str(exc)) from None

    @validate("viewer")
    def _valid_viewer(self, proposal: Any) -> int | None:
        try:
            return self.replay._check_seat(proposal["value"])
        except NoSuchSeatError as exc:
            raise TraitError(str(exc)) from None

    @observe("index", "viewer")
    def _moved(self, _change: Any) -> None:
        if self._ready:
            self._publish()

    # ------------------------------------------------------------ reading
    @property
    def spec(self) -> Any:
        return self.replay.spec

    @property
    def length(self) -> int:
        """The last position (the number of actions)."""
        return self.replay.length

    @property
    def is_over(self) -> bool:
        return self.replay.outcome(self.index) is not None

    def outcome(self) -> dict[str, Any] | None:
        return self.replay.outcome(self.index)

    def document(self) -> dict[str, Any]:
        """The save document of the match up to the shown position."""
        return self.replay.document(self.index)

    def step(self, delta: int) -> None:
        """Move ``delta`` actions (clamped to the start and the end)."""
        self.index = max(0, min(self.length, self.index + delta))

    def branch(self, index: int | None = None) -> Match:
        """A new live match at ``index`` (default: the shown position); see :meth:`Replay.branch`."""
        return self.replay.branch(self.index if index is None else index)

    # ------------------------------------------------------------ the controller surface
    def act(self, action: Action | Mapping[str, Any]) -> None:
        """Refused: a replay is read only (``message`` says how to play on)."""
        self.message = _t("read_only", self.lang)

    def uncover(self) -> None:
        """Nothing to uncover in a replay."""

    def start_cpus(self) -> None:
        """CPUs never move in a replay."""

    def stop_cpus(self) -> None:
        """CPUs never move in a replay."""

    def _publish(self) -> None:
        r, k, seat = self.replay, self.index, self.viewer
        with self.hold_trait_notifications():
            self.view = r.view(k, seat)
            self.legal = []
            self.events = r.events(k, seat)
            if self.reveal_all:
                self.views = {"public": r.view(k, None), "seats": [r.view(k, s) for s in range(r.n_seats)]}
            self.message = ""
            self.version += 1


# --------------------------------------------------------------------------- the widget
def render_view(view: Mapping[str, Any], title: str = "") -> str:
    """A readable, escaped HTML rendering of a view (for games without a board).

        >>> render_view({"hand": ["<b>"]}, "Ann")
        '<div class="cw-replay-view"><b>Ann</b><pre>{\\n &quot;hand&quot;: [\\n  &quot;&lt;b&gt;&quot;\\n ]\\n}</pre></div>'
    """
    head = f"<b>{html.escape(title)}</b>" if title else ""
    body = html.escape(json.dumps(view, indent=1, ensure_ascii=False, default=str))
    return f'<div class="cw-replay-view">{head}<pre>{body}</pre></div>'


class _Pane:
    """One board (or HTML rendering) drawn from one controller."""

    def __init__(self, controller: ReplayController, ui: Any, lang: str, title: str) -> None:
        self.controller = controller
        self.title = title
        if ui is not None:
            self.widget = ui.board(controller, lang)
            self.html = None
        else:
            self.html = W.HTML(layout=Layout(overflow="auto", max_height="480px"))
            self.widget = self.html
            controller.observe(self._redraw, names="version")
            self._redraw()

    def _redraw(self, _change: Any = None) -> None:
        if self.html is not None:
            self.html.value = render_view(self.controller.view, self.title)

    def set_lang(self, lang: str) -> None:
        if hasattr(self.widget, "set_lang"):
            self.widget.set_lang(lang)

    def close(self) -> None:
        self.controller.unobserve_all()
        _close_tree(self.widget)


class ReplayExplorer(W.VBox):
    """The replay explorer widget for any registered game (see the module docstring).

    ``source``: a :class:`Match`, a save document, a JSON file, or a :class:`Replay`.
    ``viewer``: the seat to open from (None, the default: the public view);
    ``reveal_all=True`` opens on "Show everything"; ``public_only=True`` offers the public
    view only (the seat chooser has no seats and no "Show everything").  ``on_branch(match)`` is called with
    the new match when "Branch here" is clicked (the shell opens it to play on); without
    it the branches are kept in :attr:`branches`.  ``ui`` overrides the game's
    :class:`~conquest_widget.ui.game_ui.GameUI` (None = look it up; ``False`` = no board,
    the view as HTML).
    """

    def __init__(self, source: Any, *, viewer: int | None = None, lang: str = "en", reveal_all: bool = False,
                 index: int | None = None, every: int = DEFAULT_EVERY, engine: type[Match] | None = None,
                 ui: Any = None, on_branch: Callable[[Match], Any] | None = None, public_only: bool = False,
                 **kwargs: Any) -> None:
        if public_only and (reveal_all or viewer is not None):
            raise SecretsLockedError("this replay shows the public view only: no seat's view, no 'Show everything'")
        replay = source if isinstance(source, Replay) else Replay(source, every=every, engine=engine)
        if index is not None:
            replay._check(index)
        super().__init__(**kwargs)  # only now: a source that cannot be loaded leaves no widget behind
        self.public_only = bool(public_only)
        self.replay = replay
        self.lang = "ja" if lang == "ja" else "en"
        self._ui_asked = ui
        self.ui = game_ui(self.replay.spec.id) if ui is None else (ui or None)
        self.on_branch = on_branch
        #: the matches "Branch here" made (when no ``on_branch`` takes them)
        self.branches: list[Match] = []
        n = self.replay.length
        start = n if index is None else self.replay._check(index)
        #: public_only: the positions shown (Replay.public_positions), else None (every one)
        self._stops = self.replay.public_positions() if self.public_only else None
        if self._stops is not None:
            start = self._snap(start)
        self._reveal_all = bool(reveal_all)
        self._viewer = None if self._reveal_all else self.replay._check_seat(viewer)
        self._panes: list[_Pane] = []
        self._moving = False
        self._lines: dict[tuple[Any, ...], str] = {}

        self.add_class("cw-replay")
        self.title = W.HTML()
        self.slider = W.IntSlider(value=self._step_of(start), min=0, max=self._step_of(n), step=1, readout=False,
                                  continuous_update=True, layout=Layout(width="100%"))
        self.position_label = W.HTML()
        self.position_label.add_class("cw-replay-position")
        self.buttons = {key: W.Button(description=_t(key, self.lang), layout=Layout(width="auto"))
                        for key in ("first", "prev", "next", "last")}
        self.buttons["first"].on_click(lambda _b: self.go(0))
        self.buttons["prev"].on_click(lambda _b: self.go(self._position_of(self._step_of(self.index) - 1)))
        self.buttons["next"].on_click(lambda _b: self.go(self._position_of(self._step_of(self.index) + 1)))
        self.buttons["last"].on_click(lambda _b: self.go(self.replay.length))
        self.seat_chooser = W.Dropdown(layout=Layout(width="auto"))
        self.moves = W.Select(rows=10, layout=Layout(width="100%"))
        self.moves_title = W.HTML()
        self.branch_button = W.Button(description=_t("branch", self.lang), layout=Layout(width="auto"))
        self.branch_button.on_click(lambda _b: self.branch_here())
        self.message = W.HTML()
        self.message.add_class("cw-message")
        # the boards take the width the move list leaves (a board may fill it: width 100%)
        self.boards = W.HBox(layout=Layout(flex_flow="row wrap", align_items="flex-start", flex="1 1 0%",
                                           min_width="0"))
        self.slider.observe(lambda ch: self.go(self._position_of(ch["new"])), names="value")
        self.moves.observe(self._on_move_pick, names="value")
        nav = W.HBox([*self.buttons.values(), self.position_label, self.seat_chooser, self.branch_button])
        side = W.VBox([self.moves_title, self.moves], layout=Layout(width="320px", min_width="240px"))
        self.children = [self.title, self.slider, nav, self.message, W.HBox([self.boards, side])]
        self._index = start
        self._fill_seat_chooser()
        self.seat_chooser.observe(self._on_seat_pick, names="value")
        self._build_panes()
        self._refresh()

    @classmethod
    def from_save(cls, store: Any, slot: int | None = None, *, game: str | None = None,
                  **kwargs: Any) -> ReplayExplorer:
        """The explorer of save slot ``slot`` of ``store`` (a
        :class:`~conquest_widget.saves.SaveStore`), or of ``game``'s autosave when ``slot``
        is None — for the shell's "Replay" entry::

            ReplayExplorer.from_save(SaveStore("conquest_saves"), 2, game="codex", lang="ja")

        Raises the store's errors (:class:`~conquest_widget.errors.EmptySlotError`,
        ``CorruptSaveError``, ``WrongGameError``); an absent autosave is an ``EmptySlotError``.
        """
        from conquest_widget.errors import EmptySlotError

        if slot is None:
            match = store.load_autosave(game)
            if match is None:
                raise EmptySlotError(f"there is no autosave of {registry.title_of(game) if game else 'this game'} to replay")
        else:
            match = store.load_slot(slot, game)
        return cls(match, **kwargs)

    def load(self, source: Any, *, index: int | None = None, public_only: bool | None = None,
             every: int = DEFAULT_EVERY, engine: type[Match] | None = None) -> None:
        """Show another match (anything the constructor takes) in this explorer, from the
        public view, at ``index`` (default: its end); ``public_only``: None keeps the
        setting.  The board shown is kept and redrawn when it draws the public view of the
        same game (an app reuses its replay screen: nothing of the page is closed), else
        built anew.  A source that cannot be loaded raises and changes nothing."""
        replay = source if isinstance(source, Replay) else Replay(source, every=every, engine=engine)
        start = replay.length if index is None else replay._check(index)
        same_game = replay.spec.id == self.replay.spec.id
        reuse = same_game and not self._reveal_all and self._viewer is None and len(self._panes) == 1
        if public_only is not None:
            self.public_only = bool(public_only)
        if not same_game and self._ui_asked is None:
            self.ui = game_ui(replay.spec.id)
        self.replay = replay
        self._lines = {}
        self._stops = replay.public_positions() if self.public_only else None
        if self._stops is not None:
            start = self._snap(start)
        self._index, self._reveal_all, self._viewer = start, False, None
        self._moving = True
        try:
            self.slider.max = self._step_of(replay.length)
            if reuse:
                self._panes[0].controller.load(replay, start)
        finally:
            self._moving = False
        self._fill_seat_chooser()
        if not reuse:
            self._build_panes()
        self.message.value = ""
        self._refresh()

    # ------------------------------------------------------------ state
    @property
    def index(self) -> int:
        """The position shown (after the first ``index`` actions)."""
        return self._index

    @property
    def viewer(self) -> int | None:
        """The seat whose view is shown (None: the public view, or every seat with reveal_all)."""
        return self._viewer

    @property
    def reveal_all(self) -> bool:
        return self._reveal_all

    @property
    def controller(self) -> ReplayController:
        """The controller of the (first) board shown."""
        return self._panes[0].controller

    @property
    def controllers(self) -> list[ReplayController]:
        return [p.controller for p in self._panes]

    @property
    def boards_shown(self) -> list[Any]:
        """The board widgets (one, or one per seat when showing everything)."""
        return [p.widget for p in self._panes]

    # ------------------------------------------------------------ moving
    def _step_of(self, k: int) -> int:
        """The slider's value for position ``k`` (the stop's number when public_only)."""
        return k if self._stops is None else bisect.bisect_left(self._stops, k)

    def _position_of(self, step: int) -> int:
        if self._stops is None:
            return step
        return self._stops[max(0, min(len(self._stops) - 1, step))]

    def _snap(self, k: int) -> int:
        """With public_only, the first stop at or after ``k`` (the public cannot tell a
        position inside a run of secret actions from the run's end)."""
        assert self._stops is not None
        return self._stops[min(len(self._stops) - 1, bisect.bisect_left(self._stops, k))]

    def go(self, k: int) -> None:
        """Show position ``k`` (clamped to ``0..length``; with ``public_only`` the end of
        the run of secret actions it falls in)."""
        k = max(0, min(self.replay.length, int(k)))
        if self._stops is not None:
            k = self._snap(k)
        if self._moving:
            return
        self._moving = True
        try:
            self._index = k
            for p in self._panes:
                p.controller.index = k
            self._refresh()
        finally:
            self._moving = False

    def show_seat(self, viewer: int | None) -> None:
        """Show ``viewer``'s view (None = public): the boards drawn for the previous
        choice are closed, so none of their secrets stay in a widget."""
        if self.public_only and viewer is not None:
            raise SecretsLockedError(f"this replay shows the public view only, not seat {viewer}'s")
        self._reveal_all = False
        self._viewer = self.replay._check_seat(viewer)
        self._set_chooser(f"seat:{viewer}" if viewer is not None else "public")
        self._build_panes()
        self._refresh()

    def show_everything(self) -> None:
        """The explicit choice: every seat's view side by side."""
        if self.public_only:
            raise SecretsLockedError("this replay shows the public view only: 'Show everything' opens once the game has ended")
        self._reveal_all = True
        self._viewer = None
        self._set_chooser("all")
        self._build_panes()
        self._refresh()

    def branch_here(self) -> Match:
        """A new live match at the shown position (given to ``on_branch``, else kept in
        :attr:`branches`); the replay and its source are untouched."""
        m = self.replay.branch(self.index)
        self.message.value = html.escape(_t("branched", self.lang, k=self.index))
        if self.on_branch is not None:
            self.on_branch(m)
        else:
            self.branches.append(m)
        return m

    def set_lang(self, lang: str) -> None:
        """Switch between English and Japanese."""
        self.lang = "ja" if lang == "ja" else "en"
        for key, b in self.buttons.items():
            b.description = _t(key, self.lang)
        self.branch_button.description = _t("branch", self.lang)
        for p in self._panes:
            p.controller.lang = self.lang
            p.set_lang(self.lang)
        self._fill_seat_chooser()
        self._refresh()

    def close(self) -> None:
        """Close the explorer and every widget of its boards."""
        for p in getattr(self, "_panes", ()):
            p.controller.unobserve_all()
        self._panes = []
        _close_tree(self)

    # ------------------------------------------------------------ building
    def _names(self) -> list[str]:
        return self.replay.names(self.lang)

    def _fill_seat_chooser(self) -> None:
        names = self._names()
        options = [(_t("public", self.lang), "public")]
        if not self.public_only:
            options += [(_t("seat_view", self.lang, name=n), f"seat:{i}") for i, n in enumerate(names)]
            options.append((_t("everything", self.lang), "all"))
        self._choosing = True
        try:
            self.seat_chooser.options = options
            self.seat_chooser.value = self._chooser_value()
        finally:
            self._choosing = False
        self.seat_chooser.description = _t("view_of", self.lang)

    def _chooser_value(self) -> str:
        if self._reveal_all:
            return "all"
        return "public" if self._viewer is None else f"seat:{self._viewer}"

    def _set_chooser(self, value: str) -> None:
        self._choosing = True
        try:
            self.seat_chooser.value = value
        finally:
            self._choosing = False

    def _on_seat_pick(self, change: Any) -> None:
        if self._choosing:
            return
        value = change["new"]
        if value == "all":
            self.show_everything()
        elif value == "public":
            self.show_seat(None)
        else:
            self.show_seat(int(value.split(":")[1]))

    def _build_panes(self) -> None:
        old, old_boxes = self._panes, list(self.boards.children)
        names = self._names()
        seats: list[int | None] = list(range(self.replay.n_seats)) if self._reveal_all else [self._viewer]
        panes = []
        for s in seats:
            c = ReplayController(self.replay, viewer=s, index=self._index, lang=self.lang)
            c.observe(self._board_moved, names="index")
            title = _t("public", self.lang) if s is None else _t("seat_view", self.lang, name=names[s])
            panes.append(_Pane(c, self.ui, self.lang, title))
        self._panes = panes
        if self._reveal_all:
            self.boards.children = [W.VBox([W.HTML(f"<b>{html.escape(p.title)}</b>"), p.widget]) for p in panes]
        else:
            self.boards.children = [p.widget for p in panes]
        # only now that nothing shows them: close the boards drawn for the previous choice
        for p in old:
            p.close()
        for box in old_boxes:
            _close_tree(box)

    def _board_moved(self, change: Any) -> None:
        """A board moved its controller (e.g. a game's "next turn" button): the explorer follows."""
        if not self._moving:
            self.go(change["new"])

    def _move_text(self, k: int, names: list[str]) -> str:
        """The line of the move list for the ``k``-th action, as the viewer may know it."""
        key = (k, self._viewer, self._reveal_all, self.lang)
        if key in self._lines:
            return self._lines[key]
        lang = self.lang
        seat = None if self._reveal_all else self._viewer
        if k == 0:
            return f"0. {_t('start', lang)}"
        actor, action = self.replay.action(k)
        lines: list[str] = []
        if self.ui is not None:
            for e in self.replay.step_events(k, seat):
                line = self.ui.log_line(e, lang, names)
                if line:
                    lines.append(str(line))
        if not lines:
            name = names[actor] if 0 <= actor < len(names) else str(actor)
            if self._reveal_all or actor == seat or not self.replay.spec.hidden_information:
                lines.append(self._action_line(action, name))
            else:  # another seat's action in a hidden-information game: only that it moved
                lines.append(self._action_line(None, name))
        text = self._lines[key] = f"{k}. " + " · ".join(lines)
        return text

    def _action_line(self, action: Any, name: str) -> str:
        """A sentence for an action that wrote no log line: the game's
        (:attr:`GameUI.action_text`) if it has one, else "<name>: <action>" (or "<name>
        moved" when ``action`` is None: the viewer may not know it)."""
        if self.ui is not None and self.ui.action_text is not None:
            said = self.ui.action_text(None if action is None else action.to_dict(), self.lang, name)
            if said:
                return str(said)
        return _t("moved", self.lang, name=name) if action is None else f"{name}: {action}"

    def _future_text(self, k: int, names: list[str]) -> str:
        """A move after the shown position in a hidden-information game: only who plays
        it (what the viewer learns from it is not known yet at the shown position)."""
        actor, _action = self.replay.action(k)
        return f"{k}. " + (names[actor] if 0 <= actor < len(names) else str(actor))

    def _run_text(self, i: int, names: list[str], future: bool) -> str:
        """The line of the move list for public stop ``i``: the public events of its run
        of actions (or who moved); after the shown position, only who moves."""
        assert self._stops is not None
        if i == 0:
            return f"0. {_t('start', self.lang)}"
        lo, hi = self._stops[i - 1] + 1, self._stops[i]
        actor, _action = self.replay.action(lo)  # the action that changed something public
        name = names[actor] if 0 <= actor < len(names) else str(actor)
        if future:
            return f"{i}. {name}"
        lines = [str(line) for k in range(lo, hi + 1) for e in self.replay.step_events(k, None)
                 if self.ui is not None and (line := self.ui.log_line(e, self.lang, names))]
        return f"{i}. " + " · ".join(lines or [self._action_line(None, name)])

    def _fill_moves(self) -> None:
        """The moves around the shown position (``MOVES_AROUND`` each side)."""
        names = self._names()
        k, n = self._index, self.replay.length
        if self._stops is not None:  # public_only: one line per public stop
            i, last = self._step_of(k), len(self._stops) - 1
            lo, hi = max(0, i - MOVES_AROUND), min(last, i + MOVES_AROUND)
            options = [(self._run_text(j, names, future=j > i), self._stops[j]) for j in range(lo, hi + 1)]
            self._show_moves(options, k)
            return
        secret_future = self.replay.spec.hidden_information and not self._reveal_all
        lo, hi = max(0, k - MOVES_AROUND), min(n, k + MOVES_AROUND)
        options = [((self._future_text(j, names) if secret_future and j > k else self._move_text(j, names)), j)
                   for j in range(lo, hi + 1)]
        self._show_moves(options, k)

    def _show_moves(self, options: list[tuple[str, int]], k: int) -> None:
        self._moving = True
        try:
            if list(self.moves.options) != options:
                self.moves.options = options
            self.moves.value = k
        finally:
            self._moving = False
        self.moves_title.value = f"<b>{html.escape(_t('moves', self.lang))}</b>"

    def _on_move_pick(self, change: Any) -> None:
        if not self._moving and change["new"] is not None:
            self.go(change["new"])

    def _refresh(self) -> None:
        k, n = self._step_of(self._index), self._step_of(self.replay.length)
        self._moving = True
        try:
            self.slider.value = k
        finally:
            self._moving = False
        self._fill_moves()
        game = self.replay.spec.title.get(self.lang, self.replay.spec.id)
        self.title.value = f"<h3>{html.escape(_t('title', self.lang, game=game))}</h3>"
        over = f" — {_t('over', self.lang)}" if self.replay.outcome(self._index) is not None else ""
        self.position_label.value = html.escape(_t("position", self.lang, k=k, n=n) + over)
        self.buttons["first"].disabled = self.buttons["prev"].disabled = k == 0
        self.buttons["next"].disabled = self.buttons["last"].disabled = k == n
        self.branch_button.disabled = self.replay.outcome(self._index) is not None  # nothing left to play
        if self._reveal_all and not self.message.value:
            self.message.value = html.escape(_t("everything_note", self.lang))
        elif not self._reveal_all and self.message.value == html.escape(_t("everything_note", self.lang)):
            self.message.value = ""
