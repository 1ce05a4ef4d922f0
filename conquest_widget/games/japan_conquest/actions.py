"""Actions: the only way a game changes.  Small frozen values with a compact text form.

    >>> Roll(2), Step(13), UndoStep(), ConfirmRoute(), BattleRoll(3)
    (Roll(dice=2), Step(to=13), UndoStep(), ConfirmRoute(), BattleRoll(dice=3))
    >>> str(Step(13)), parse_action("step 13")
    ('step 13', Step(to=13))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from conquest_widget.core.protocol import Action as CoreAction
from conquest_widget.errors import SerializationError


@dataclass(frozen=True)
class Action(CoreAction):
    """Base class of all Japan Conquest actions (a :class:`conquest_widget.core.protocol.Action`)."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind}
        d.update({k: v for k, v in self.__dict__.items()})
        return d

    def __str__(self) -> str:
        vals = " ".join(str(v) for v in self.__dict__.values())
        return f"{self.kind} {vals}".strip()


@dataclass(frozen=True)
class Roll(Action):
    """Roll for movement with 1 die, or spend a Double (2) or Triple (3) Dice item."""

    kind: ClassVar[str] = "roll"
    dice: int = 1


@dataclass(frozen=True)
class Step(Action):
    """Add one adjacent prefecture to the planned route."""

    kind: ClassVar[str] = "step"
    to: int = 0


@dataclass(frozen=True)
class UndoStep(Action):
    """Remove the last prefecture of the planned route."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class ConfirmRoute(Action):
    """Execute the planned route."""

    kind: ClassVar[str] = "confirm"


@dataclass(frozen=True)
class BattleRoll(Action):
    """Roll in a battle, as attacker or defender (whoever is to act), with 1, 2 or 3 dice."""

    kind: ClassVar[str] = "battle"
    dice: int = 1


@dataclass(frozen=True)
class Edit(Action):
    """A position-editor change (logged so replays reproduce it)."""

    kind: ClassVar[str] = "edit"
    op: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        args = " ".join(f"{k}={v}" for k, v in self.args.items())
        return f"edit {self.op} {args}".strip()

    def __hash__(self) -> int:
        return hash((self.op, tuple(sorted(self.args.items()))))


_SIMPLE = {cls.kind: cls for cls in (Roll, Step, UndoStep, ConfirmRoute, BattleRoll)}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Re-create an action from :meth:`Action.to_dict`."""
    try:
        kind = data["type"]
        if kind == "edit":
            return Edit(op=str(data["op"]), args=dict(data.get("args", {})))
        cls = _SIMPLE[kind]
        fields = {k: v for k, v in data.items() if k != "type"}
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in fields.values()):
            raise TypeError(f"{kind} takes integer values")
        return cls(**fields)
    except (KeyError, TypeError, ValueError) as exc:
        raise SerializationError(f"not an action: {data!r}") from exc


def parse_action(text: str) -> Action:
    """Parse the compact text form (``"roll 2"``, ``"step 13"``, ``"undo"``, ``"confirm"``,
    ``"battle 1"``)."""
    parts = text.split()
    if not parts or parts[0] not in _SIMPLE:
        raise SerializationError(f"cannot parse action {text!r}")
    cls = _SIMPLE[parts[0]]
    try:
        return cls(*(int(p) for p in parts[1:]))
    except (TypeError, ValueError) as exc:
        raise SerializationError(f"cannot parse action {text!r}") from exc
