"""The replay explorer: scrub through a game's history, overlay analyses, branch off.

Load a game (a :class:`~conquest_widget.games.japan_conquest.Game`, its ``to_dict()`` data, or a JSON
file: a bare ``Game.to_dict()`` or a save-slot document holding it under ``"game"``),
then move through its actions with the slider or the step buttons.  The map, scoreboard
and log show the position after any action; nothing is ever played by the CPUs in the
explorer.  "Branch here" starts an independent playable game at the shown position::

    from conquest_widget.games.japan_conquest.widget.replay import ReplayExplorer
    ex = ReplayExplorer("my_save.json")      # or ReplayExplorer(game)
    ex                                       # in a notebook cell
    ex.position = 120                        # after the 120th action
    ex.show_reachable(allowance=4)           # where could the player to move stop with a 4?
    what_if = ex.branch()                    # a new JapanMatch at this position
    ex.open_branch()                         # ... or play it below, in a JapanConquestApp

Positions come from the shell's :class:`~conquest_widget.ui.replay.Replay` (the same for
every game): the match is loaded once, with a small state record every
``checkpoint_every`` log entries, and a position is shown by restoring the nearest record
and applying the few logged actions from there, dice forced from the log.  The map,
scoreboard and log draw from the views this explorer's read-only controller publishes,
as in the game.

The overlay styles are plain functions (:func:`reachable_overlay`,
:func:`distance_overlay`, :func:`region_overlay`) returning ``(styles, legend_html)``
for :meth:`MapView.set_overlay <conquest_widget.games.japan_conquest.widget.map_view.MapView.set_overlay>`.
"""

from __future__ import annotations

import copy
import dataclasses
import html
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import css_colour
from conquest_widget.errors import ConquestError, SerializationError
from conquest_widget.games.japan_conquest import analysis
from conquest_widget.games.japan_conquest.actions import Action
from conquest_widget.games.japan_conquest.bots import game_from_view
from conquest_widget.games.japan_conquest.game import FORMAT, Game
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.text import pref_name, region_name, t
from conquest_widget.games.japan_conquest.widget.app import JapanConquestApp
from conquest_widget.games.japan_conquest.widget.controller import GameController
from conquest_widget.games.japan_conquest.widget.map_view import MapView
from conquest_widget.games.japan_conquest.widget.panels import (
    InfoPanel,
    LogView,
    Scoreboard,
)
from conquest_widget.games.japan_conquest.widget.style import CSS
from conquest_widget.lean import Layout
from conquest_widget.maps.japan.board import japan
from conquest_widget.ui.replay import Replay, read_game_file


def _button(**kwargs: Any) -> W.Button:
    """A button with its own Layout (a shared Layout would share display/visibility)."""
    return W.Button(layout=Layout(width="auto"), **kwargs)


#: colours of the reachable-stop overlay, by effect on arrival
EFFECT_COLOURS = {
    "claim": "#2ca02c", "upgrade": "#1f77b4", "capture": "#ff7f0e", "battle": "#d62728", "stay": "#9e9e9e",
}
#: sequential colour scale (viridis anchors) for distances: near = dark, far = light
SCALE_ANCHORS = ("#440154", "#3b528b", "#21918c", "#5ec962", "#fde725")
UNCONTROLLED = "#d9d9d9"



def _t(key: str, lang: str, **fmt: Any) -> str:
    """The explorer's text ``key`` (``replay_<key>`` in the game's text table)."""
    return t(f"replay_{key}", lang, **fmt)


# --------------------------------------------------------------------------- loading
def game_from_data(data: Any, source: object = None) -> Game:
    """A game from ``Game.to_dict()`` data, or from an envelope (e.g. a save-slot
    document) holding it under ``"match"`` (or ``"game"`` in save format 1).  Raises :class:`SerializationError` naming
    ``source`` when the data is not a loadable game.

    >>> from conquest_widget.games.japan_conquest import Game, GameSetup
    >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"], seed=1)); _ = g.roll()
    >>> game_from_data({"kind": "slot", "game": g.to_dict()}).snapshot() == g.snapshot()
    True
    >>> game_from_data({"hello": 1}, "x.json")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SerializationError: x.json: not a Japan Conquest game: expected format ...
    """
    if isinstance(data, Mapping) and data.get("format") != FORMAT:
        inner = data.get("match", data.get("game"))  # save format 2 keeps it under "match", 1 under "game"
        if isinstance(inner, Mapping):
            data = inner
    prefix = f"{source}: " if source is not None else ""
    try:
        return Game.from_dict(dict(data) if isinstance(data, Mapping) else data)
    except SerializationError as exc:
        raise SerializationError(f"{prefix}{exc}") from exc
    except RecursionError:
        raise SerializationError(f"{prefix}the game data is nested too deeply") from None
    except Exception as exc:  # anything else the engine trips over is also bad data
        raise SerializationError(f"{prefix}the game cannot be loaded: {exc!r}") from exc


def load_game_file(path: str | os.PathLike) -> Game:
    """Read an engine game from a JSON file: ``json.dump(game.to_dict(), f)`` output, or
    a save document with the game under ``"game"``.  Errors are :class:`SerializationError`
    naming the file::

        game = load_game_file("saves/slot-1.json")
    """
    path = Path(path)
    return game_from_data(read_game_file(path), path)


def match_from_data(data: Any, source: object = None) -> JapanMatch:
    """A match from a match document (``JapanMatch.to_dict()``), an engine game's
    ``Game.to_dict()`` data, or a save document holding either under ``"match"``
    (``"game"`` in save format 1).  Raises :class:`SerializationError` naming ``source``.

    >>> from conquest_widget.games.japan_conquest import GameSetup
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)); m.apply(m.legal_actions(0)[0], 0)
    >>> match_from_data({"format": 2, "match": m.to_dict()}).view(None) == m.view(None)
    True
    """
    if isinstance(data, Mapping) and data.get("format") != FORMAT and "game" in data and not isinstance(data["game"], str):
        data = data["game"]  # save format 1
    elif isinstance(data, Mapping) and isinstance(data.get("match"), Mapping):
        data = data["match"]
    if isinstance(data, Mapping) and data.get("game") == JapanMatch.spec.id:
        prefix = f"{source}: " if source is not None else ""
        try:
            return JapanMatch.from_dict(data)
        except SerializationError as exc:
            raise SerializationError(f"{prefix}{exc}") from exc
        except RecursionError:
            raise SerializationError(f"{prefix}the game data is nested too deeply") from None
    return JapanMatch.from_game(game_from_data(data, source))


# --------------------------------------------------------------------------- overlays
def _hex(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def colour_scale(n: int, anchors: Iterable[str] = SCALE_ANCHORS) -> list[str]:
    """``n`` colours evenly spread along a piecewise-linear scale through ``anchors``.

    >>> colour_scale(3)
    ['#440154', '#21918c', '#fde725']
    """
    pts = [_hex(a) for a in anchors]
    if n <= 1:
        return ["#{:02x}{:02x}{:02x}".format(*pts[0])]
    out = []
    for i in range(n):
        x = i / (n - 1) * (len(pts) - 1)
        j = min(int(x), len(pts) - 2)
        f = x - j
        rgb = tuple(round(a + (b - a) * f) for a, b in zip(pts[j], pts[j + 1], strict=True))
        out.append("#{:02x}{:02x}{:02x}".format(*rgb))
    return out


def _swatch(colour: str, text: str, opacity: float = 0.85) -> str:
    return (f'<div><span style="display:inline-block;width:12px;height:12px;margin-right:4px;'
            f'background:{css_colour(colour)};opacity:{opacity};border:1px solid #555;vertical-align:middle"></span>'
            f"{html.escape(text)}</div>")


def _legend(title: str, rows: list[str]) -> str:
    return (f'<div class="cw-legend" style="background:rgba(255,255,255,.9);padding:4px 6px;font:11px sans-serif">'
            f"<b>{html.escape(title)}</b>{''.join(rows)}</div>")


def reachable_overlay(game: Game, seat: int | None = None, allowance: int = 1, lang: str = "en",
                      note: str = "") -> tuple[dict[int, dict], str]:
    """Overlay of :func:`analysis.reachable_stops`: each reachable prefecture filled with
    the colour of its effect on arrival (claim, upgrade, capture, battle, stay), the rest
    faded, the start outlined.  Returns ``(styles, legend_html)``; ``note``, if any, is
    the legend's last line.

    >>> from conquest_widget.games.japan_conquest import Game, GameSetup
    >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"]))
    >>> styles, legend = reachable_overlay(g, 0, allowance=1)
    >>> styles[11]["fill_color"] == EFFECT_COLOURS["claim"], styles[27]["fill_opacity"]
    (True, 0.12)
    """
    seat = game.current_player if seat is None else seat
    stops = analysis.reachable_stops(game, seat, allowance)
    start = game.state.players[seat].position
    styles: dict[int, dict] = {}
    for code in japan().codes:
        row = stops.get(code)
        if row is None:
            styles[code] = {"fill_opacity": 0.12}
        else:
            styles[code] = {"fill_color": EFFECT_COLOURS[row["effect"]], "fill_opacity": 0.8, "color": "#222222", "weight": 2}
    styles[start] = {**styles[start], "color": "#000000", "weight": 4, "dash_array": "4 4"}
    used = [e for e in EFFECT_COLOURS if any(r["effect"] == e for r in stops.values())]
    name = game.setup.players[seat].name
    count = {e: sum(r["effect"] == e for r in stops.values()) for e in used}
    rows = [_swatch(EFFECT_COLOURS[e], f"{_t(f'effect_{e}', lang)} ({count[e]})") for e in used]
    rows.append(f"<div>⬚ {html.escape(_t('start_here', lang))}: {html.escape(pref_name(start, lang))}</div>")
    if note:
        rows.append(f"<div><i>{html.escape(note)}</i></div>")
    return styles, _legend(_t("reach_title", lang, name=name, n=allowance), rows)


def distance_overlay(game: Game, start: int, seat: int | None = None, lang: str = "en") -> tuple[dict[int, dict], str]:
    """Overlay of :func:`analysis.distances_from`: least movement from ``start`` for
    ``seat`` as a colour scale (dark = near), with a legend of the distances.

    >>> from conquest_widget.games.japan_conquest import Game, GameSetup
    >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"]))
    >>> styles, legend = distance_overlay(g, 13, 0)
    >>> styles[13]["fill_color"], styles[11]["fill_color"] != styles[1]["fill_color"]
    ('#440154', True)
    """
    seat = game.current_player if seat is None else seat
    dist = analysis.distances_from(game, start, seat)
    top = max(dist.values())
    colours = colour_scale(top + 1)
    styles = {code: {"fill_color": colours[d], "fill_opacity": 0.85} for code, d in dist.items()}
    styles[start] = {**styles[start], "color": "#000000", "weight": 3}
    values = sorted(set(dist.values()))
    if len(values) > 12:  # keep the legend short: about 10 rows
        stride = -(-len(values) // 10)
        values = values[::stride] + ([values[-1]] if values[-1] not in values[::stride] else [])
    rows = [_swatch(colours[d], f"{d}  ({sum(1 for v in dist.values() if v == d)})") for d in values]
    return styles, _legend(_t("moves", lang, name=pref_name(start, lang)), rows)


def region_overlay(game: Game, lang: str = "en") -> tuple[dict[int, dict], str]:
    """Overlay of regional control (:func:`analysis.region_control_table`): each region
    in its controller's colour (strong when fully controlled), uncontrolled regions grey,
    with a legend of controllers and owned counts.

    >>> from conquest_widget.games.japan_conquest import Game, GameSetup
    >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"]))
    >>> styles, legend = region_overlay(g)
    >>> styles[13]["fill_color"] == UNCONTROLLED
    True
    """
    board = game.board
    players = game.setup.players
    styles: dict[int, dict] = {}
    rows = []
    for row in analysis.region_control_table(game):
        ctrl = row["controller"]
        colour = players[ctrl].colour if ctrl is not None else UNCONTROLLED
        opacity = 0.9 if row["full"] else 0.55 if ctrl is not None else 0.35
        for code in board.regions[row["region"]].members:
            owner = game.state.owner[code]
            owned = ctrl is not None and owner == ctrl
            styles[code] = {"fill_color": colour, "fill_opacity": opacity if owned or ctrl is None else opacity * 0.5,
                            "color": "#333333", "weight": 2 if owned else 1}
        who = players[ctrl].name if ctrl is not None else _t("nobody", lang)
        full = f" ★{_t('full', lang)}" if row["full"] else ""
        counts = ", ".join(f"{players[s].name} {n}" for s, n in row["owned"].items() if n)
        text = f"{region_name(row['region'], lang)}: {who}{full} ({counts or '-'} / {row['members']})"
        rows.append(_swatch(colour, text, opacity))
    return styles, _legend(_t("regions", lang), rows)


#: the purse a public overlay gives every player while the totals are hidden (any toll is payable)
OPEN_PURSE = 10**9


def public_game(view: Mapping[str, Any]) -> Game:
    """The position of a published ``view`` as an engine game, for overlays that must
    show no more than that view.  While the Final Showdown hides the totals, the public
    view has no purses (``banked`` 0): every purse is then taken as able to pay any toll
    (:data:`OPEN_PURSE`), so the reachable stops say nothing about what anyone holds.

    >>> from conquest_widget.games.japan_conquest import GameSetup
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> public_game(m.view(None)).state.owner == m.game.state.owner
    True
    """
    if view.get("totals_hidden"):
        view = copy.deepcopy(dict(view))
        for p in view["position"]["state"]["players"]:
            p["banked"] = OPEN_PURSE
    return game_from_view(view, 0)


# --------------------------------------------------------------------------- controller
class ReplayController(GameController):
    """A read-only :class:`GameController` for replays: it publishes the views it is
    given (:meth:`show`), never plays CPU moves and refuses actions; map clicks only
    select."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("autoplay_cpu", False)
        kwargs.setdefault("screen", "game")
        super().__init__(**kwargs)

    @property
    def human_to_act(self) -> bool:
        """Nobody acts in a replay (so the map shows no legal steps)."""
        return False

    def _human(self, action: Action) -> None:
        self.message = _t("read_only", self.lang)

    def play_cpu_now(self) -> None:
        """Does nothing: a replay is never advanced."""

    def mirror(self, source: Any) -> None:
        """Publish what ``source`` (a controller with the shared published traits, e.g. the
        shell's replay controller) publishes now."""
        if source.view:
            self.show(source.viewer, dict(source.view), [], list(source.events))


class ReplayLogView(LogView):
    """The log for replays: re-renders the last ``MAX_BLOCKS`` turns into a fixed pool of
    HTML blocks, so jumping back and forth creates no widgets; event lines are cached
    (a recorded game's events are the same in every replay of it)."""

    MAX_BLOCKS = 15
    _uses_ring = False

    def __init__(self, c: GameController) -> None:
        self._pool: list[W.HTML] = []
        self._cache: dict[int, str | None] = {}
        self._cache_lang = c.lang
        super().__init__(c)

    def clear_cache(self) -> None:
        """Forget the cached lines (another game was loaded)."""
        self._cache = {}

    def refresh(self, _: Any = None) -> None:
        c = self.c
        if not self._show_header():
            return
        if c.lang != self._cache_lang:
            self._cache, self._cache_lang = {}, c.lang
        events = c.events
        bounds = [0] + [i for i, ev in enumerate(events) if ev["type"] == "turn_start" and i] + [len(events)]
        spans = [(bounds[j], bounds[j + 1]) for j in range(len(bounds) - 1)][-self.MAX_BLOCKS:][::-1]
        while len(self._pool) < len(spans):
            block = W.HTML()
            block._lines = []  # type: ignore[attr-defined]
            self._pool.append(block)
        for (a, b), block in zip(spans, self._pool, strict=False):
            lines = []
            for i in range(b - 1, a - 1, -1):
                if i not in self._cache:
                    self._cache[i] = self._line(events[i])
                if self._cache[i]:
                    lines.append(self._cache[i])
            block._lines = lines  # type: ignore[attr-defined]
            text = "".join(lines)
            if block.value != text:
                block.value = text
        children = tuple(self._pool[: len(spans)])
        if self.blocks.children != children:
            self.blocks.children = children


# --------------------------------------------------------------------------- explorer
GameSource = JapanMatch | Game | Mapping | str | os.PathLike


class ReplayExplorer(W.VBox):
    """Scrub through a game's history; overlays; branch into a playable game.

    ``source`` is a :class:`JapanMatch` or an engine :class:`Game`, their ``to_dict()``
    data (or a save document holding it), or the path of such a JSON file.  Positions are
    read from the shell's :class:`~conquest_widget.ui.replay.Replay` (state records every
    ``checkpoint_every`` log entries).  ``position`` is the number of
    actions applied (0 = the start, ``len(explorer)`` = the end, the default).

    ``public_only`` (the app sets it for an unfinished game): the overlays are drawn from
    the shown public view alone (:func:`public_game`), never from the match, and "Branch
    here" keeps the seats as recorded, so a Final Showdown's hidden totals and purses show
    nowhere.  ``on_branch``: called with the new match when "Branch here" is pressed
    (the app plays it on); by default the branch opens in a new app below the explorer
    (:meth:`open_branch`).  "Branch here" is disabled where the game is over.

    >>> from conquest_widget.games.japan_conquest import Game, GameSetup
    >>> from conquest_widget.games.japan_conquest.cpu import play_cpu_turns
    >>> g = Game(GameSetup.quick(["Tokyo", "Osaka"], cpu=[True, True], turns=5, seed=2))
    >>> _ = play_cpu_turns(g)
    >>> ex = ReplayExplorer(g, checkpoint_every=10)
    >>> ex.position == len(ex) == len(g.log)
    True
    >>> ex.position = 7; ex.game.snapshot() == ex.game_at(7).snapshot()
    True
    >>> b = ex.branch(); b.game is not ex.game and len(b.game.log) == 7
    True
    """

    def __init__(self, source: GameSource, *, position: int | None = None, lang: str = "en",
                 checkpoint_every: int = 32, save_dir: str | os.PathLike | None = None, public_only: bool = False,
                 on_branch: Callable[[JapanMatch], None] | None = None, **kwargs: Any) -> None:
        """``save_dir``: where the app opened by "Branch here" saves (default: no saving)."""
        self.save_dir = save_dir
        self.public_only = bool(public_only)
        self.on_branch = on_branch
        if checkpoint_every < 1:
            raise ConquestError(f"checkpoint_every must be >= 1, got {checkpoint_every!r}")
        self.checkpoint_every = checkpoint_every
        self.lang = lang
        self.controller = ReplayController(lang=lang)
        self.map_view = MapView(self.controller, every_label=True, layout=Layout(width="58%"))
        self.scoreboard = Scoreboard(self.controller)
        self.info_panel = InfoPanel(self.controller)
        self.log_view = ReplayLogView(self.controller)
        self.branches: list[JapanMatch] = []
        self.branch_app: JapanConquestApp | None = None
        # history controls
        self.slider = W.IntSlider(value=0, min=0, max=0, continuous_update=True, readout=True,
                                  layout=Layout(width="100%"))
        self.first_button = _button()
        self.prev_button = _button()
        self.next_button = _button()
        self.last_button = _button()
        self.prev_turn_button = _button()
        self.next_turn_button = _button()
        self.status = W.HTML()
        self.first_button.on_click(lambda _: self.first())
        self.prev_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(1))
        self.last_button.on_click(lambda _: self.last())
        self.prev_turn_button.on_click(lambda _: self.prev_turn())
        self.next_turn_button.on_click(lambda _: self.next_turn())
        self.slider.observe(self._slid, names="value")
        # overlay controls
        self.overlay_kind = W.Dropdown(layout=Layout(width="200px"))
        self.allowance = W.IntSlider(value=3, min=1, max=18, layout=Layout(width="260px"))
        self.origin = W.Dropdown(layout=Layout(width="220px"))
        self.seat = W.Dropdown(layout=Layout(width="220px"))
        for w in (self.overlay_kind, self.allowance, self.origin, self.seat):
            w.observe(self._overlay_changed, names="value")
        # branching
        self.play_as = W.Dropdown(layout=Layout(width="200px"))
        self.branch_button = _button(button_style="success")
        self.branch_button.on_click(lambda _: self._branch_clicked())
        self.branch_box = W.VBox()
        self.title = W.HTML()
        self.overlay_box = W.VBox([self.overlay_kind, self.seat, self.allowance, self.origin])
        side = W.VBox([self.status, self.scoreboard, self.info_panel, self.overlay_box,
                       W.HBox([self.branch_button, self.play_as]), self.log_view],
                      layout=Layout(width="42%", padding="0 0 0 10px"))
        controls = W.HBox([self.first_button, self.prev_turn_button, self.prev_button, self.next_button,
                           self.next_turn_button, self.last_button])
        super().__init__([W.HTML(CSS), self.title, self.slider, controls, W.HBox([self.map_view, side]), self.branch_box],
                         **kwargs)
        self.add_class("cw-app")
        self.add_class("cw-replay")
        self._overlay = "none"
        self._loading = False
        self.load(source, position=position)

    @classmethod
    def from_slot(cls, slot: int, save_dir: str | os.PathLike = "conquest_saves", **kwargs: Any) -> ReplayExplorer:
        """Explore the game saved in slot ``slot`` (1-5) of a save directory."""
        from conquest_widget.saves import SaveStore

        return cls(SaveStore(save_dir).load_slot(slot), **kwargs)

    # ------------------------------------------------------------ loading
    def load(self, source: GameSource, *, position: int | None = None, public_only: bool | None = None) -> None:
        """Load another game into this explorer (see the class docstring for ``source``
        and ``public_only``: None keeps the setting).  A source that cannot be loaded
        raises :class:`ConquestError` and leaves the explorer as it was."""
        match = self._resolve(source)
        replay = Replay(match, every=self.checkpoint_every)
        n = replay.length
        k = n if position is None else position
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= n:
            raise ConquestError(f"position must be 0-{n}, got {k!r}")
        if public_only is not None:
            self.public_only = bool(public_only)
        self.replay = replay
        self.setup = match.setup
        self.log_view.clear_cache()
        self.controller.selected_prefecture = 0
        # the stops of "turn >" and "< turn": position 0 and every action that starts a turn
        self._turn_starts = [0] + [j for j in range(1, n + 1)
                                   if any(e["type"] == "turn_start" for e in replay.step_events(j, None))]
        names = [(p.name, s) for s, p in enumerate(self.setup.players)]
        self._overlay, overlay = "busy", self._overlay  # no overlay of the old position with the new seats
        try:
            self.seat.options = [(_t("to_move", self.lang), -1)] + names
            self.play_as.options = [(_t("as_recorded", self.lang), -1)] + names
            self.origin.options = [(_t("from_position", self.lang), 0)] + [(pref_name(c, self.lang), c) for c in japan().codes]
            self._relabel()
        finally:
            self._overlay = overlay
        self._loading = True
        try:
            with self.slider.hold_trait_notifications():
                self.slider.max = n
                self.slider.value = k
        finally:
            self._loading = False
        self._show(k)

    @staticmethod
    def _resolve(source: GameSource) -> JapanMatch:
        if isinstance(source, JapanMatch):
            return source
        if isinstance(source, Game):
            return JapanMatch.from_game(source)
        if isinstance(source, (str, os.PathLike)):
            return match_from_data(read_game_file(Path(source)), source)
        if isinstance(source, Mapping):
            return match_from_data(source)
        raise ConquestError(
            f"cannot load a game from {type(source).__name__}: give a JapanMatch, a Game, their to_dict() data "
            "or a JSON file path"
        )

    def __len__(self) -> int:
        return self.replay.length

    # ------------------------------------------------------------ positions
    def game_at(self, position: int) -> Game:
        """A new, independent engine game after the first ``position`` actions.  Its dice
        continue as they did in the recorded game."""
        if not isinstance(position, int) or not 0 <= position <= len(self):
            raise ConquestError(f"position must be 0-{len(self)}, got {position!r}")
        return self.replay.branch(position).engine_game()  # type: ignore[attr-defined]

    @property
    def position(self) -> int:
        """Number of actions applied in the shown position (settable)."""
        return self.slider.value

    @position.setter
    def position(self, k: int) -> None:
        if not isinstance(k, int) or not 0 <= k <= len(self):
            raise ConquestError(f"position must be 0-{len(self)}, got {k!r}")
        self.slider.value = k

    @property
    def game(self) -> Game:
        """The shown position's engine game (owned by the explorer, read it only: use
        :meth:`branch` for one to change)."""
        return self.replay.at(self.position).game  # type: ignore[attr-defined]

    def first(self) -> None:
        """Go to the start of the game."""
        self.position = 0

    def last(self) -> None:
        """Go to the end of the recorded history."""
        self.position = len(self)

    def step(self, delta: int = 1) -> None:
        """Move ``delta`` actions forward (negative: back), clamped to the history."""
        self.position = max(0, min(len(self), self.position + delta))

    def next_turn(self) -> None:
        """Go to the start (the roll) of the next turn, or to the end."""
        k = self.position
        self.position = next((j for j in self._turn_starts if j > k), len(self))

    def prev_turn(self) -> None:
        """Go to the start of the shown turn, or of the previous turn if already there."""
        k = self.position
        self.position = max((j for j in self._turn_starts if j < k), default=0)

    def turn_starts(self) -> list[int]:
        """Positions where a turn starts: the player to move is at the roll, on a new
        (player, turn number) — the stops of "turn ▶" and "◀ turn"."""
        return list(self._turn_starts)

    def _slid(self, change: dict) -> None:
        if not self._loading:
            self._show(change["new"])

    def _show(self, k: int) -> None:
        r = self.replay
        self.controller.show(None, r.view(k, None), [], r.events(k, None))
        self._update_status()
        self._apply_overlay()

    # ------------------------------------------------------------ overlays
    def show_reachable(self, allowance: int = 1, seat: int | None = None) -> None:
        """Overlay the stops reachable with ``allowance`` for ``seat`` (default: the player to move)."""
        self._set_overlay_controls("reachable", allowance=allowance, seat=seat)

    def show_distances(self, start: int | str | None = None, seat: int | None = None) -> None:
        """Overlay the movement distance from ``start`` (a code or name; default: the player's position)."""
        code = 0 if start is None else japan().code(start)
        self._set_overlay_controls("distance", origin=code, seat=seat)

    def show_regions(self) -> None:
        """Overlay regional control."""
        self._set_overlay_controls("regions")

    def clear_overlay(self) -> None:
        """Back to the game's own colours."""
        self._set_overlay_controls("none")

    def _set_overlay_controls(self, kind: str, *, allowance: int | None = None, origin: int | None = None,
                              seat: int | None = None) -> None:
        self._overlay = "busy"
        try:
            if allowance is not None:
                self.allowance.value = allowance
            if origin is not None:
                self.origin.value = origin
            self.seat.value = -1 if seat is None else seat
            self.overlay_kind.value = kind
        finally:
            self._overlay = kind
        self._apply_overlay()

    def _overlay_changed(self, _: Any = None) -> None:
        if self._overlay == "busy":
            return
        self._overlay = self.overlay_kind.value or "none"
        self._apply_overlay()

    def overlay(self) -> tuple[dict[int, dict], str] | None:
        """The current overlay's ``(styles, legend)`` for the shown game, or None."""
        kind = self._overlay
        if kind in ("none", "busy") or not hasattr(self, "replay"):
            return None
        view = self.controller.view
        g = public_game(view) if self.public_only else self.game
        seat = None if self.seat.value in (None, -1) else self.seat.value
        if kind == "reachable":
            note = _t("tolls_open", self.lang) if self.public_only and view.get("totals_hidden") else ""
            return reachable_overlay(g, seat, self.allowance.value, self.lang, note=note)
        if kind == "distance":
            s = g.current_player if seat is None else seat
            origin = self.origin.value or g.state.players[s].position
            return distance_overlay(g, origin, s, self.lang)
        return region_overlay(g, self.lang)

    def _apply_overlay(self) -> None:
        if self._overlay == "busy":
            return
        kind = self._overlay
        self.seat.layout.display = "" if kind in ("reachable", "distance") else "none"
        self.allowance.layout.display = "" if kind == "reachable" else "none"
        self.origin.layout.display = "" if kind == "distance" else "none"
        ov = self.overlay()
        self.map_view.set_overlay(*(ov if ov is not None else (None, None)))

    # ------------------------------------------------------------ branching
    def _play_as(self) -> list[int] | None:
        seat = self.play_as.value
        return None if self.public_only or seat in (None, -1) else [seat]

    def _branch_clicked(self) -> None:
        """"Branch here": hand the branch to ``on_branch``, or open it below."""
        if self.controller.view.get("outcome") is not None:
            return  # nothing left to play (the button is disabled there)
        if self.on_branch is not None:
            self.on_branch(self.branch(self._play_as()))
        else:
            self.open_branch(self._play_as())

    def branch(self, human_seats: Iterable[int] | None = None) -> JapanMatch:
        """A new, independent, playable match at the shown position ("what if I had gone
        to Kyoto?").  With ``human_seats``, exactly those seats are played by humans
        (the others by CPUs); by default the seats stay as recorded."""
        m = self.replay.branch(self.position)
        assert isinstance(m, JapanMatch)
        if human_seats is not None:
            humans = set(human_seats)
            bad = [s for s in humans if not isinstance(s, int) or not 0 <= s < m.n_seats]
            if bad:
                raise ConquestError(f"human_seats must be seats 0-{m.n_seats - 1}, got {bad}")
            players = tuple(dataclasses.replace(p, cpu=s not in humans) for s, p in enumerate(m.setup.players))
            m.setup = m.game.setup = dataclasses.replace(m.setup, players=players)
        self.branches.append(m)
        return m

    def open_branch(self, human_seats: Iterable[int] | None = None) -> JapanConquestApp:
        """Branch at the shown position and open the new game in a
        :class:`JapanConquestApp` shown below the explorer (CPUs play as usual there)."""
        k = self.position
        m = self.branch(human_seats)
        app = JapanConquestApp(controller=GameController(lang=self.lang), save_dir=self.save_dir)
        self.branch_app = app
        self.branch_box.children = (W.HTML(f"<h3>{html.escape(_t('branch_title', self.lang, k=k))}</h3>"), app)
        app.controller.load_game(m)
        return app

    # ------------------------------------------------------------ labels
    def set_language(self, lang: str) -> None:
        """Switch the explorer's texts, log and overlays to ``lang`` ("en" or "ja")::

            explorer.set_language("ja")
        """
        self.lang = lang
        self.controller.lang = lang
        values = self.seat.value, self.play_as.value, self.origin.value
        names = [(p.name, s) for s, p in enumerate(self.setup.players)]
        self._overlay, saved = "busy", self._overlay
        self.seat.options = [(_t("to_move", lang), -1)] + names
        self.play_as.options = [(_t("as_recorded", lang), -1)] + names
        self.origin.options = [(_t("from_position", lang), 0)] + [(pref_name(c, lang), c) for c in japan().codes]
        self.seat.value, self.play_as.value, self.origin.value = values
        self._overlay = saved
        self._relabel()
        self._update_status()
        self._apply_overlay()

    def _relabel(self) -> None:
        lang = self.lang
        self.title.value = f"<h2 style='margin:4px 0'>{html.escape(_t('title', lang))}</h2>"
        for key, b in (("first", self.first_button), ("prev", self.prev_button), ("next", self.next_button),
                       ("last", self.last_button), ("prev_turn", self.prev_turn_button), ("next_turn", self.next_turn_button)):
            b.description = _t(key, lang)
        self.branch_button.description = _t("branch", lang)
        self.play_as.description = _t("play_as", lang)
        self.play_as.disabled = self.public_only
        self.play_as.tooltip = _t("as_recorded_only", lang) if self.public_only else ""
        if self.public_only and self.play_as.options:
            self.play_as.value = -1
        self.overlay_kind.description = _t("overlay", lang)
        self.allowance.description = _t("allowance", lang)
        self.origin.description = _t("from", lang)
        self.seat.description = _t("seat", lang)
        value = self.overlay_kind.value or "none"
        self._overlay, saved = "busy", self._overlay
        self.overlay_kind.options = [(_t(k, lang), k) for k in ("none", "reachable", "distance", "regions")]
        self.overlay_kind.value = value
        self._overlay = saved

    def _update_status(self) -> None:
        v, k, lang = self.controller.view, self.position, self.lang
        n = len(self)
        parts = [f"<b>{html.escape(_t('position', lang, k=k, n=n))}</b>"]
        if v["outcome"] is not None:
            parts.append(html.escape(_t("over", lang)))
        else:
            name = v["players"][v["current_player"]]["name"]
            parts.append(html.escape(_t("turn", lang, turn=v["turn"], name=name)) + f" · {v['phase']}")
        last = str(self.replay.action(k)[1]) if k else _t("start", lang)
        parts.append(f"{html.escape(_t('last_action', lang))}: <code>{html.escape(last)}</code>")
        self.status.value = '<div class="cw-replay-status">' + "<br>".join(parts) + "</div>"
        self.first_button.disabled = self.prev_button.disabled = self.prev_turn_button.disabled = k == 0
        self.last_button.disabled = self.next_button.disabled = self.next_turn_button.disabled = k == n
        self.branch_button.disabled = v["outcome"] is not None


__all__ = [
    "EFFECT_COLOURS",
    "ReplayController",
    "ReplayExplorer",
    "ReplayLogView",
    "colour_scale",
    "distance_overlay",
    "game_from_data",
    "load_game_file",
    "match_from_data",
    "public_game",
    "reachable_overlay",
    "region_overlay",
]
