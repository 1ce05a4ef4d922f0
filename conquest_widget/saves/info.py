"""What a save slot (or the autosave) holds, for slot lists and backup summaries.

>>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
>>> game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True], seed=1))
>>> info = SlotInfo.from_game(2, "slot-2.json", game, saved_at="2025-01-01T09:30:00Z")
>>> info.status, info.game, info.mode, info.turn, info.player_names
('used', 'japan_conquest', 'standard', 1, ['Player 1', 'Player 2 (CPU)'])
>>> SlotInfo.corrupt(3, "slot-3.json", "not valid JSON").to_dict()["error"]
'not valid JSON'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from conquest_widget.saves.games import codec_of

SlotStatus = Literal["empty", "used", "corrupt", "unreadable"]


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

    ``status`` is ``"empty"``, ``"used"``, ``"corrupt"`` (what the file holds cannot be
    loaded) or ``"unreadable"`` (the system refused to read it just now: EMFILE,
    EACCES...); for the last two ``error`` says what is wrong and the other fields are None.  ``game`` is the game id
    (``"japan_conquest"``), ``saved_at`` an ISO 8601 UTC date-time; ``turn`` is the
    turn the player to move is on (None for games without numbered turns).
    """

    slot: int | None
    status: SlotStatus
    file: str
    game: str | None = None
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
    def from_game(cls, slot: int | None, file: str, game: Any, *, saved_at: str) -> SlotInfo:
        """The info of a slot holding ``game`` (any Match)."""
        codec = codec_of(game)
        summary = codec.summary(game)
        return cls(
            slot=slot,
            status="used",
            file=str(file),
            game=codec.game,
            saved_at=saved_at,
            mode=summary["mode"],
            turns=summary["turns"],
            turn=summary["turn"],
            phase=summary["phase"],
            is_over=summary["is_over"],
            players=tuple(
                PlayerInfo(p["name"], p["cpu"], p["difficulty"], p["strategy"]) for p in summary["players"]
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

    @classmethod
    def unreadable(cls, slot: int | None, file: str, error: str) -> SlotInfo:
        """The info of a slot whose file the system cannot read now (kept as it is)."""
        return cls(slot=slot, status="unreadable", file=str(file), error=error)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-compatible data (for the widget)."""
        d = asdict(self)
        d["players"] = [asdict(p) for p in self.players]
        return d


__all__ = ["PlayerInfo", "SlotInfo", "SlotStatus"]
