"""What a save slot (or the autosave) holds, for slot lists and backup summaries.

>>> from conquest_widget.games.japan_conquest import Game, GameSetup
>>> game = Game(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], seed=1))
>>> info = SlotInfo.from_game(2, "slot-2.json", game, saved_at="2025-01-01T09:30:00Z")
>>> info.status, info.mode, info.turn, info.player_names
('used', 'standard', 1, ['Player 1', 'Player 2 (CPU)'])
>>> SlotInfo.corrupt(3, "slot-3.json", "not valid JSON").to_dict()["error"]
'not valid JSON'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from conquest_widget.games.japan_conquest import Game

SlotStatus = Literal["empty", "used", "corrupt"]


@dataclass(frozen=True)
class PlayerInfo:
    """One seat of a saved game."""

    name: str
    cpu: bool
    difficulty: str | None = None
    strategy: str | None = None


@dataclass(frozen=True)
class SlotInfo:
    """A slot (``slot`` 1-5) or the autosave (``slot`` None).

    ``status`` is ``"empty"``, ``"used"`` or ``"corrupt"``; for a corrupt file ``error``
    says what is wrong and the other fields are None.  ``saved_at`` is an ISO 8601
    UTC date-time; ``turn`` is the turn the player to move is on.
    """

    slot: int | None
    status: SlotStatus
    file: str
    saved_at: str | None = None
    mode: str | None = None
    turns: int | None = None
    turn: int | None = None
    phase: str | None = None
    is_over: bool | None = None
    players: tuple[PlayerInfo, ...] = field(default_factory=tuple)
    error: str | None = None

    @property
    def player_names(self) -> list[str]:
        """Player names, CPU seats marked ``(CPU)``."""
        return [p.name + (" (CPU)" if p.cpu else "") for p in self.players]

    @classmethod
    def from_game(cls, slot: int | None, file: str, game: Game, *, saved_at: str) -> SlotInfo:
        """The info of a slot holding ``game``."""
        return cls(
            slot=slot,
            status="used",
            file=str(file),
            saved_at=saved_at,
            mode=game.setup.mode,
            turns=game.setup.turns,
            turn=game.turn_number(),
            phase=game.phase,
            is_over=game.is_over,
            players=tuple(
                PlayerInfo(p.name, p.cpu, p.difficulty if p.cpu else None, p.strategy if p.cpu else None)
                for p in game.setup.players
            ),
        )

    @classmethod
    def empty(cls, slot: int | None, file: str) -> SlotInfo:
        """The info of an empty slot."""
        return cls(slot=slot, status="empty", file=str(file))

    @classmethod
    def corrupt(cls, slot: int | None, file: str, error: str) -> SlotInfo:
        """The info of a slot whose file cannot be loaded."""
        return cls(slot=slot, status="corrupt", file=str(file), error=error)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-compatible data (for the widget)."""
        d = asdict(self)
        d["players"] = [asdict(p) for p in self.players]
        return d


__all__ = ["PlayerInfo", "SlotInfo", "SlotStatus"]
