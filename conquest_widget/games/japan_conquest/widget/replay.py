"""What Japan Conquest draws in the shell's replay explorer
(:class:`conquest_widget.ReplayExplorer`, with :class:`~.board.JapanBoard` as its board):
the read-only controller the board's panels draw from, the replay's log, the overlay
styles, and the readers of Japan Conquest game files.

    from conquest_widget import ReplayExplorer
    ex = ReplayExplorer("my_save.json")      # or ReplayExplorer(match) / ReplayExplorer(game)
    ex                                       # in a notebook cell
    ex.go(120)                               # after the 120th action
    board = ex.boards_shown[0]               # the JapanBoard
    board.show_reachable(allowance=4)        # where could the player to move stop with a 4?
    what_if = ex.branch_here()               # a new JapanMatch at this position

The overlay styles are plain functions (:func:`reachable_overlay`,
:func:`distance_overlay`, :func:`region_overlay`) returning ``(styles, legend_html)``
for :meth:`MapView.set_overlay <conquest_widget.games.japan_conquest.widget.map_view.MapView.set_overlay>`;
the board draws them from the shown view alone (:func:`public_game`).
"""

from __future__ import annotations

import copy
import html
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import css_colour
from conquest_widget.errors import SerializationError
from conquest_widget.games.japan_conquest import analysis
from conquest_widget.games.japan_conquest.actions import Action
from conquest_widget.games.japan_conquest.bots import game_from_view
from conquest_widget.games.japan_conquest.legacy import FORMAT, match_from_legacy
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.text import pref_name, region_name, t
from conquest_widget.games.japan_conquest.widget.controller import BoardModel
from conquest_widget.games.japan_conquest.widget.panels import (
    LogView,
)
from conquest_widget.maps.japan.board import japan
from conquest_widget.ui.replay import read_game_file

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
def game_from_data(data: Any, source: object = None) -> JapanMatch:
    """A match from a document of the older engine (Japan document format 1: see
    :mod:`~conquest_widget.games.japan_conquest.legacy`), or from an envelope (e.g. a
    save-slot document) holding it under ``"match"`` (or ``"game"`` in save format 1).
    Raises :class:`SerializationError` naming ``source`` when the data is not a loadable game.

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
        return match_from_legacy(data)
    except SerializationError as exc:
        raise SerializationError(f"{prefix}{exc}") from exc
    except RecursionError:
        raise SerializationError(f"{prefix}the game data is nested too deeply") from None
    except Exception as exc:  # anything else the engine trips over is also bad data
        raise SerializationError(f"{prefix}the game cannot be loaded: {exc!r}") from exc


def load_game_file(path: str | os.PathLike) -> JapanMatch:
    """Read a match from a JSON file of the older engine (Japan document format 1), or a
    save document with such a document under ``"game"``.  Errors are :class:`SerializationError`
    naming the file::

        game = load_game_file("saves/slot-1.json")
    """
    path = Path(path)
    return game_from_data(read_game_file(path), path)


def match_from_data(data: Any, source: object = None) -> JapanMatch:
    """A match from a match document (``JapanMatch.to_dict()``), a document of the older
    engine (format 1), or a save document holding either under ``"match"``
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
    return game_from_data(data, source)


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


def reachable_overlay(game: JapanMatch, seat: int | None = None, allowance: int = 1, lang: str = "en",
                      note: str = "") -> tuple[dict[int, dict], str]:
    """Overlay of :func:`analysis.reachable_stops`: each reachable prefecture filled with
    the colour of its effect on arrival (claim, upgrade, capture, battle, stay), the rest
    faded, the start outlined.  Returns ``(styles, legend_html)``; ``note``, if any, is
    the legend's last line.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]))
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


def distance_overlay(game: JapanMatch, start: int, seat: int | None = None, lang: str = "en") -> tuple[dict[int, dict], str]:
    """Overlay of :func:`analysis.distances_from`: least movement from ``start`` for
    ``seat`` as a colour scale (dark = near), with a legend of the distances.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]))
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


def region_overlay(game: JapanMatch, lang: str = "en") -> tuple[dict[int, dict], str]:
    """Overlay of regional control (:func:`analysis.region_control_table`): each region
    in its controller's colour (strong when fully controlled), uncontrolled regions grey,
    with a legend of controllers and owned counts.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]))
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


def public_game(view: Mapping[str, Any]) -> JapanMatch:
    """The position of a published ``view`` as a match (with no history), for overlays that must
    show no more than that view.  While the Final Showdown hides the totals, the public
    view has no purses (``banked`` 0): every purse is then taken as able to pay any toll
    (:data:`OPEN_PURSE`), so the reachable stops say nothing about what anyone holds.

    >>> from conquest_widget.games.japan_conquest import GameSetup
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> public_game(m.view(None)).state.owner == m.state.owner
    True
    """
    if view.get("totals_hidden"):
        view = copy.deepcopy(dict(view))
        for p in view["position"]["state"]["players"]:
            p["banked"] = OPEN_PURSE
    return game_from_view(view, 0)


# --------------------------------------------------------------------------- controller
class ReplayController(BoardModel):
    """The read-only :class:`~.controller.BoardModel` of a replay's board: it publishes
    the positions it is given (:meth:`mirror`) and refuses the player's moves with a hint
    (Branch here); map clicks only select."""

    @property
    def human_to_act(self) -> bool:
        """Nobody acts in a replay (so the map shows no legal steps)."""
        return False

    def _human(self, action: Action) -> None:
        self.message = _t("read_only", self.lang)

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

    def __init__(self, c: BoardModel) -> None:
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


__all__ = [
    "EFFECT_COLOURS",
    "ReplayController",
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
