"""What a tournament is: the game, the entrants, the schedule and the seeds.

A :class:`TournamentConfig` is plain data (JSON round-trip) and fully determines every
game: game ``i`` is :meth:`TournamentConfig.plan` ``(i)`` -- a table (which entrants), a
deal (which seeds) and a rotation (who sits where).  Every table plays the same deals,
and each deal is played once per rotation of the seats, so every entrant plays every
seat equally often on the same seeds.

    >>> cfg = TournamentConfig.build("japan_conquest", ["normal", "hard", "e=easy:aggressive"],
    ...                              games=4, seed=7, options={"turns": 5})
    >>> [e.name for e in cfg.entrants], cfg.players, cfg.n_tables, cfg.games_per_table, cfg.total_games
    (['normal', 'hard', 'e'], 2, 3, 4, 12)
    >>> [cfg.entrants[i].name for i in cfg.tables[2]]
    ['hard', 'e']
    >>> p = cfg.plan(5)
    >>> p.table, p.deal, p.rotation, [cfg.entrants[i].name for i in p.seats]
    (1, 0, 1, ['e', 'normal'])
    >>> cfg.plan(5).seed == cfg.plan(1).seed == cfg.plan(9).seed   # deal 0 of every table
    True
    >>> TournamentConfig.from_dict(cfg.to_dict()) == cfg
    True
    >>> TournamentConfig.build("japan_conquest", ["normal", "grandmaster"], games=2)
    Traceback (most recent call last):
    ...
    conquest_widget.tournament.errors.UnknownBotError: japan_conquest has no bot 'grandmaster' (entrant 2); its bots are random, easy, ...
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from conquest_widget.core import registry
from conquest_widget.errors import ConquestError, UnknownGameError

from .errors import TournamentError, UnknownBotError

#: the tournament formats
FORMATS = ("round-robin", "gauntlet")
#: the default cap on actions per game (a game reaching it is recorded as unfinished)
MAX_ACTIONS = 200_000
_NAME = re.compile(r"^[A-Za-z0-9_.:+#-]{1,40}$")


@dataclass(frozen=True)
class Entrant:
    """One competitor: a display ``name`` and a ``bot`` label of the game's ``BOTS``."""

    name: str
    bot: str

    @staticmethod
    def parse(spec: str) -> Entrant:
        """``"label"`` or ``"NAME=label"``.

        >>> Entrant.parse("hard"), Entrant.parse("tuned=easy:aggressive")
        (Entrant(name='hard', bot='hard'), Entrant(name='tuned', bot='easy:aggressive'))
        """
        name, sep, bot = str(spec).strip().partition("=")
        if not sep:
            bot = name
        name, bot = name.strip(), bot.strip()
        if not bot:
            raise TournamentError(f"entrant {spec!r} names no bot (write LABEL or NAME=LABEL)"[:300])
        if not _NAME.match(name):
            raise TournamentError(f"entrant name {name!r} must be 1-40 letters, digits or _.:+#-"[:300])
        return Entrant(name, bot)


def derive_seed(master: int, *parts: object) -> int:
    """A 62-bit seed from the master seed and a path of parts, the same in every process
    and Python version (no ``hash()`` randomisation).

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    text = "/".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 2


@dataclass(frozen=True)
class GamePlan:
    """Everything that decides one game: its ``index`` in the tournament, the ``table``
    (index into :attr:`TournamentConfig.tables`), the ``deal`` (whose seeds it uses),
    the seat ``rotation`` and ``seats`` (entrant index per seat)."""

    index: int
    table: int
    deal: int
    rotation: int
    seats: tuple[int, ...]
    seed: int


@dataclass(frozen=True)
class TournamentConfig:
    """A whole tournament (see the module docstring); build it with :meth:`build`, which
    checks the game, the bots, the player count and the setup options."""

    game: str
    entrants: tuple[Entrant, ...]
    format: str = "round-robin"
    players: int = 2
    games_per_table: int = 2
    seed: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    max_actions: int = MAX_ACTIONS

    # ------------------------------------------------------------ construction
    @classmethod
    def build(cls, game: str, entrants: Iterable[str | Entrant], *, games: int, format: str = "round-robin",
              players: int | None = None, seed: int = 1, options: Mapping[str, Any] | None = None,
              max_actions: int = MAX_ACTIONS) -> TournamentConfig:
        """Check and build a tournament.

        ``entrants``: bot specs (``"hard"``, ``"NAME=label"``) or :class:`Entrant` objects;
        a repeated name gets a ``#2``, ``#3`` suffix.  ``format``: ``"round-robin"`` (every
        set of ``players`` distinct entrants meets at a table) or ``"gauntlet"`` (the first
        entrant meets each other entrant, which fills the other ``players - 1`` seats).
        ``players``: seats per table (default 2, or the game's smallest table if it has no
        2-player game).  ``games``: games per table, rounded up to a multiple of
        ``players`` (whole seat rotations).  ``options``: setup fields to override in every
        game's random setup (e.g. ``{"turns": 5}`` for Japan Conquest).
        """
        spec = registry.get(game)  # UnknownGameError names the games
        if spec.engine is None or spec.bots is None:
            playable = ", ".join(g.id for g in registry.all_games() if g.engine and g.bots)
            raise UnknownGameError(f"game {game!r} has no engine and bots yet; tournaments can run {playable}"[:300])
        if format not in FORMATS:
            raise TournamentError(f"format must be one of {', '.join(FORMATS)}, got {format!r}"[:300])
        bots = spec.bots_module().BOTS
        parsed: list[Entrant] = []
        seen: dict[str, int] = {}
        for i, e in enumerate(entrants):
            ent = e if isinstance(e, Entrant) else Entrant.parse(e)
            if ent.bot not in bots:
                raise UnknownBotError(f"{game} has no bot {ent.bot!r} (entrant {i + 1}); its bots are {', '.join(bots)}"[:300])
            if ent.name in seen:
                seen[ent.name] += 1
                ent = Entrant(f"{ent.name}#{seen[ent.name]}", ent.bot)
            seen.setdefault(ent.name, 1)
            parsed.append(ent)
        if len(parsed) < 2:
            raise TournamentError(f"a tournament needs at least 2 entrants, got {len(parsed)}")
        if players is None:
            players = 2 if 2 in spec.players else spec.players[0]
        if players not in spec.players:
            raise TournamentError(f"{game} is played by {spec.players[0]}-{spec.players[-1]} players, not {players}")
        if format == "round-robin" and players > len(parsed):
            raise TournamentError(f"a round-robin at {players}-player tables needs at least {players} entrants, "
                                  f"got {len(parsed)} (repeat a bot under another name, e.g. b=normal)")
        if not isinstance(games, int) or isinstance(games, bool) or games < 1:
            raise TournamentError(f"games must be a positive integer, got {games!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TournamentError(f"seed must be an integer, got {seed!r}")
        if max_actions < 1:
            raise TournamentError(f"max_actions must be positive, got {max_actions}")
        per_table = -(-games // players) * players
        cfg = cls(game, tuple(parsed), format, players, per_table, seed, dict(options or {}), max_actions)
        cfg.setup_for_deal(0)  # bad setup options fail here, before anything runs
        return cfg

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (stored in journals and the ``--json`` output)."""
        return {
            "game": self.game, "entrants": [{"name": e.name, "bot": e.bot} for e in self.entrants],
            "format": self.format, "players": self.players, "games_per_table": self.games_per_table,
            "seed": self.seed, "options": dict(self.options), "max_actions": self.max_actions,
        }

    @classmethod
    def from_dict(cls, data: Any) -> TournamentConfig:
        """Rebuild (and re-check) a configuration from :meth:`to_dict`."""
        try:
            ents = [Entrant(str(e["name"]), str(e["bot"])) for e in data["entrants"]]
            cfg = cls.build(data["game"], ents, games=data["games_per_table"], format=data["format"],
                            players=data["players"], seed=data["seed"], options=data.get("options") or {},
                            max_actions=data.get("max_actions", MAX_ACTIONS))
        except ConquestError:
            raise
        except (KeyError, TypeError, AttributeError) as exc:
            raise TournamentError(f"malformed tournament configuration: {exc!r}"[:300]) from None
        if [e.name for e in cfg.entrants] != [e.name for e in ents]:
            raise TournamentError("malformed tournament configuration: entrant names must differ")
        return cfg

    # ------------------------------------------------------------ schedule
    @cached_property
    def tables(self) -> tuple[tuple[int, ...], ...]:
        """The tables (entrant indices in base seat order), in schedule order."""
        k = len(self.entrants)
        if self.format == "round-robin":
            return tuple(itertools.combinations(range(k), self.players))
        return tuple((0,) + (j,) * (self.players - 1) for j in range(1, k))

    @property
    def n_tables(self) -> int:
        return len(self.tables)

    @property
    def deals(self) -> int:
        """Deals (seed sets) per table; each is played once per seat rotation."""
        return self.games_per_table // self.players

    @property
    def total_games(self) -> int:
        return self.n_tables * self.games_per_table

    def deal_seed(self, deal: int) -> int:
        """The seed of deal ``deal``: the same for every table and rotation."""
        return derive_seed(self.seed, "deal", deal)

    def plan(self, index: int) -> GamePlan:
        """Game ``index`` of the tournament (0 <= index < :attr:`total_games`)."""
        if not 0 <= index < self.total_games:
            raise TournamentError(f"game index {index} out of range 0-{self.total_games - 1}")
        table, rest = divmod(index, self.games_per_table)
        deal, rotation = divmod(rest, self.players)
        base = self.tables[table]
        n = self.players
        seats = tuple(base[(s + rotation) % n] for s in range(n))
        return GamePlan(index, table, deal, rotation, seats, self.deal_seed(deal))

    def setup_for_deal(self, deal: int) -> Any:
        """The game setup of deal ``deal``: the engine's ``random_setup`` drawn from the deal
        seed, with :attr:`options` applied to its ``to_dict()`` form and re-validated."""
        spec = registry.get(self.game)
        cls = spec.engine_class()
        setup = cls.random_setup(random.Random(derive_seed(self.seed, "setup", deal)), self.players)
        if not self.options:
            return setup
        data = setup.to_dict()
        unknown = [k for k in self.options if k not in data]
        if unknown:
            raise TournamentError(f"{self.game}'s setup has no option {unknown[0]!r}; its options are "
                                  f"{', '.join(k for k in data if k != 'players')}"[:300])
        data.update(self.options)
        try:
            return cls.setup_class.from_dict(data)
        except ConquestError as exc:
            raise TournamentError(f"bad setup option for {self.game}: {exc}"[:300]) from None
        except (TypeError, ValueError, KeyError) as exc:
            raise TournamentError(f"bad setup option for {self.game}: {exc!r}"[:300]) from None


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``["turns=5", "mode=conquest"]`` -> ``{"turns": 5, "mode": "conquest"}`` (values are
    read as JSON when they parse, else kept as text).

    >>> parse_options(["turns=5", "mode=conquest", "roll_for_order=true"])
    {'turns': 5, 'mode': 'conquest', 'roll_for_order': True}
    """
    import json

    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise TournamentError(f"setup option {item!r} must be KEY=VALUE"[:300])
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    return out
