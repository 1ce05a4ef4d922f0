"""The game registry: one small :class:`GameSpec` per game, found by id.

Specs name their engine, bots, text and widget as import paths (strings), so listing
the games imports no engine and no widget library.

    >>> [g.id for g in all_games()]
    ['japan_conquest', 'conquest_cards', 'codex', 'japanese_risk']
    >>> get("codex").players
    range(2, 7)
    >>> get("chess")
    Traceback (most recent call last):
    ...
    conquest_widget.errors.UnknownGameError: unknown game 'chess': the games are japan_conquest, conquest_cards, codex, japanese_risk
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..errors import UnknownGameError


@dataclass(frozen=True)
class GameSpec:
    """What the shell, the saves and the CLI need to know about a game."""

    id: str
    title: Mapping[str, str]
    blurb: Mapping[str, str]
    players: range
    hidden_information: bool
    version: int
    #: "module:Class" of the engine (a :class:`~.match.Match` subclass); None = not built yet
    engine: str | None = None
    #: module with ``BOTS`` (label -> factory) and ``DEFAULT_BOT``
    bots: str | None = None
    #: "module:Class" of the game's widget in the shell; None = not built yet
    widget: str | None = None
    #: the seed document the rules come from
    seed_document: str = ""
    #: an emoji or short mark of the game (the picker draws :attr:`picture`)
    icon: str = ""
    #: "module:NAME" of the game's picture in the picker, an inline SVG string kept in the
    #: game's own folder; None = the shell's blank card
    picture: str | None = None
    #: the ``conquest-widget simulate`` options the game takes beyond the bots, the number
    #: of games, the seed and the jobs (e.g. ``("mode", "turns")``); others are refused
    simulate_options: tuple[str, ...] = ()
    #: "module:function" giving each seat's figures of a finished match (a list of
    #: ``{name: number}``, one per seat), which ``conquest-widget simulate`` averages per
    #: bot; None = wins and ranks only
    seat_stats: str | None = None
    #: "module:NAME" of the game's own hook into the saves (a
    #: :class:`conquest_widget.saves.games.GameSaves`: codecs for documents the shared
    #: :class:`~conquest_widget.saves.games.MatchCodec` does not read, such as an older
    #: engine's); None = every document of the game is its ``Match.to_dict()``
    saves: str | None = None
    #: True for the one game whose documents predate game ids (version-1 documents and
    #: ``autosave.json`` are its): Japan Conquest, the package's first game
    legacy_documents: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def playable(self) -> bool:
        """True when the game can be played in the app (engine and widget exist)."""
        return self.engine is not None and self.widget is not None

    def load(self, path: str | None) -> Any:
        if path is None:
            raise UnknownGameError(f"{self.id} has no such part yet")
        module, _, name = path.partition(":")
        mod = importlib.import_module(module)
        return getattr(mod, name) if name else mod

    def engine_class(self) -> Any:
        return self.load(self.engine)

    def bots_module(self) -> Any:
        return self.load(self.bots)


#: the modules that define each game's SPEC, in picker order (add a game here)
SPEC_MODULES = (
    "conquest_widget.games.japan_conquest.spec",
    "conquest_widget.games.conquest_cards.spec",
    "conquest_widget.games.codex.spec",
    "conquest_widget.games.japanese_risk.spec",
)


@cache
def _specs() -> dict[str, GameSpec]:
    out: dict[str, GameSpec] = {}
    for module in SPEC_MODULES:
        spec = importlib.import_module(module).SPEC
        out[spec.id] = spec
    return out


def all_games() -> list[GameSpec]:
    """Every registered game, in picker order."""
    return list(_specs().values())


def get(game_id: str) -> GameSpec:
    """The spec of ``game_id``; UnknownGameError names the known games."""
    specs = _specs()
    if game_id not in specs:
        raise UnknownGameError(f"unknown game {game_id!r}: the games are {', '.join(specs)}"[:300])
    return specs[game_id]


def legacy_game() -> str:
    """The id of the game of every document that names no game (see
    :attr:`GameSpec.legacy_documents`).

        >>> legacy_game()
        'japan_conquest'
    """
    return next(spec.id for spec in _specs().values() if spec.legacy_documents)


def title_of(game_id: object, lang: str = "en") -> str:
    """The title of ``game_id`` in ``lang`` ("en"/"ja") for a message, or the id itself
    (as text) when no registered game has it (a save of a newer package, a hostile file).

        >>> title_of("japan_conquest", "ja"), title_of("chess")
        ('全国制覇すごろく', 'chess')
    """
    spec = _specs().get(game_id) if isinstance(game_id, str) else None
    if spec is None:
        return str(game_id)
    return spec.title.get(lang, spec.title["en"])
