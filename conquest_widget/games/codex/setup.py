"""The Codex's validated setup.

    >>> s = CodexSetup.quick(3, k=3)
    >>> [p.name for p in s.players], s.k, s.starting_cash
    (['Player 1', 'Player 2', 'Player 3'], 3, 0)
    >>> CodexSetup.from_dict(s.to_dict()) == s
    True
    >>> CodexSetup.quick(7)
    Traceback (most recent call last):
    ...
    conquest_widget.errors.SetupError: the Codex of Conquest needs 2-6 players, got 7
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conquest_widget.core.safe_text import check_colour, check_name
from conquest_widget.errors import SetupError

from .rules import (
    DEFAULT_K,
    DEFAULT_STARTING_CASH,
    K_RANGE,
    MAX_PLAYERS,
    MAX_STARTING_CASH,
    MIN_PLAYERS,
)

#: default player colours (players own no pieces; these mark them in panels)
DEFAULT_COLOURS = ("#e377c2", "#17becf", "#8c564b", "#7f7f7f", "#bcbd22", "#9467bd")
#: CPU labels a seat may name (the bots module's BOTS keys)
BOT_LABELS = ("easy", "normal", "hard")


def _int(v: Any, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise SetupError(f"{what} must be an integer, got {v!r}"[:200])
    return v


@dataclass(frozen=True)
class CodexPlayer:
    """One seat: a name, a colour for the panels, human or CPU (and which CPU)."""

    name: str
    colour: str = "#7f7f7f"
    cpu: bool = False
    bot: str = "normal"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "cpu": self.cpu, "bot": self.bot}


@dataclass(frozen=True)
class CodexSetup:
    """A validated setup: 2-6 players, territory side ``k`` (2-8, default 4), starting cash
    (0-1,000,000, default 0) and ``editor`` (True only for tests and lessons: allows the
    logged position editor).  Construction raises :class:`SetupError` when invalid."""

    players: tuple[CodexPlayer, ...]
    k: int = DEFAULT_K
    starting_cash: int = DEFAULT_STARTING_CASH
    editor: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.players, (tuple, list)):
            raise SetupError(f"players must be a list, got {type(self.players).__name__}")
        players = tuple(self.players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise SetupError(f"the Codex of Conquest needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {len(players)}")
        fixed = []
        for i, p in enumerate(players):
            if not isinstance(p, CodexPlayer):
                raise SetupError(f"player {i + 1} must be a CodexPlayer, got {type(p).__name__}")
            try:
                name = check_name(p.name, f"player {i + 1}'s name")
                colour = check_colour(p.colour)
            except ValueError as exc:
                raise SetupError(f"player {i + 1}: {exc}") from None
            if not isinstance(p.cpu, bool):
                raise SetupError(f"player {i + 1}: cpu must be true or false, got {p.cpu!r}"[:200])
            if p.bot not in BOT_LABELS:
                raise SetupError(f"player {i + 1}: CPU level must be one of {', '.join(BOT_LABELS)}, got {p.bot!r}"[:200])
            fixed.append(CodexPlayer(name, colour, p.cpu, p.bot))
        names = [p.name for p in fixed]
        if len(set(names)) != len(names):
            raise SetupError(f"player names must differ, got {names}")
        object.__setattr__(self, "players", tuple(fixed))
        if _int(self.k, "k") not in K_RANGE:
            raise SetupError(f"k (the side of a territory) must be {K_RANGE.start}-{K_RANGE.stop - 1}, got {self.k}")
        if not 0 <= _int(self.starting_cash, "starting cash") <= MAX_STARTING_CASH:
            raise SetupError(f"starting cash must be 0-{MAX_STARTING_CASH:,}, got {self.starting_cash}")
        if not isinstance(self.editor, bool):
            raise SetupError(f"editor must be true or false, got {self.editor!r}"[:200])

    @classmethod
    def quick(cls, n: int, *, k: int = DEFAULT_K, starting_cash: int = DEFAULT_STARTING_CASH,
              editor: bool = False, cpu: tuple[bool, ...] | None = None) -> CodexSetup:
        """A setup of ``n`` players with default names and colours."""
        if not isinstance(n, int) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(f"the Codex of Conquest needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {n}")
        cpu = cpu or (False,) * n
        players = tuple(CodexPlayer(f"Player {i + 1}", DEFAULT_COLOURS[i], bool(cpu[i % len(cpu)])) for i in range(n))
        return cls(players, k, starting_cash, editor)

    def to_dict(self) -> dict[str, Any]:
        return {"players": [p.to_dict() for p in self.players], "k": self.k,
                "starting_cash": self.starting_cash, "editor": self.editor}

    @classmethod
    def from_dict(cls, data: Any) -> CodexSetup:
        """Validate a setup read from a file (hostile until checked)."""
        if not isinstance(data, Mapping):
            raise SetupError(f"a setup must be an object, got {type(data).__name__}")
        extra = set(data) - {"players", "k", "starting_cash", "editor"}
        if extra:
            raise SetupError(f"unknown setup fields {sorted(map(str, extra))}"[:200])
        raw = data.get("players")
        if not isinstance(raw, list) or not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
            raise SetupError(f"players must be a list of {MIN_PLAYERS}-{MAX_PLAYERS} entries")
        players = []
        for i, p in enumerate(raw):
            if not isinstance(p, Mapping) or set(p) - {"name", "colour", "cpu", "bot"} or "name" not in p:
                raise SetupError(f"player {i + 1} is malformed")
            players.append(CodexPlayer(p["name"], p.get("colour", DEFAULT_COLOURS[i]), p.get("cpu", False), p.get("bot", "normal")))
        return cls(tuple(players), data.get("k", DEFAULT_K), data.get("starting_cash", DEFAULT_STARTING_CASH),
                   data.get("editor", False))
