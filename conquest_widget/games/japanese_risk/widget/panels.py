"""The side panels of the Japanese Risk board (everything beside the map) drawn in the page
by one front-end widget (issue 32: a lean wire).

:class:`RiskPanels` is a :class:`~conquest_widget.scene.SceneWidget`: the board
(:mod:`.board`) writes a small JSON scene of the panels from the viewer's published view
and its own choices on the screen (:mod:`.panel_scene`), the widget sends only the keys
that changed as one message, and the page module (``panels.js`` and ``panels.css`` beside
this file) draws it, every text with ``textContent``.  A click in the page comes back as
one message ``{"click": target}``:

* a button: its target, whose CSS class is ``cw-<target>`` (``place-confirm``, ``plus``,
  ``minus``, ``all-here``, ``castle``, ``buy-ninja``, ``deploy``, ``launch``,
  ``cancel-attack``, ``end-turn``, ``clear``, ``commit``, ``commit-all``, ``commit-none``,
  ``strike``, ``hold``);
* a field: ``count:<n>``, ``commit-ninjas:<n>`` (numbers), ``use-ninjas:<0|1>``,
  ``fresh-first:<0|1>`` (boxes); their CSS classes are ``cw-<name>``.

The scene's keys (a move changes a few): ``n`` the redraw's number, new at every render:
the page puts the class ``cw-v-<n>`` on the board (browser tests wait for a newer one),
``st`` the status lines,
``msg`` the board's message, ``g`` the guide, ``a`` the action panel's items, ``i`` the
selected territory, ``o`` the odds, ``b`` the battle, ``k`` and ``k<seat>`` the knowledge
panel.  See :mod:`.panel_scene` for their shapes.

Kernel-side tests drive it as the page does: :class:`Control` objects (``board.buttons``,
``board.count``, ...) read what the scene shows (``description``, ``disabled``, ``value``)
and ``click()`` / set ``value`` through :meth:`RiskPanels.click` with the page's targets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquest_widget.lean import page_file
from conquest_widget.scene import SceneWidget

from ..text import DICE
from .panel_scene import fmt, listed

_HERE = Path(__file__).parent

#: the buttons the page may draw (a button's target is its key; its CSS class ``cw-<key>``)
BUTTONS = ("place-confirm", "place-reset", "plus", "minus", "all-here", "castle", "buy-ninja", "deploy", "launch",
           "cancel-attack", "end-turn", "clear", "commit", "commit-all", "commit-none", "strike", "hold")
#: the number fields and the boxes to tick
NUMBERS = ("count", "commit-ninjas")
BOXES = ("use-ninjas", "fresh-first")


def dice_text(dice: list[int]) -> str:
    """Dice as the page writes them (die faces)."""
    return "".join(DICE[d - 1] for d in dice if isinstance(d, int) and 1 <= d <= 6)


def battle_row_text(row: list[Any], labels: list[str]) -> str:
    """One row of the battle panel as the page writes it (see :mod:`.panel_scene`)."""
    kind = row[0]
    if kind == "s":  # the sea dice: dice, hits text
        return f"{labels[0]}: {dice_text(row[1])} — {row[2]}"
    if kind == "r":  # a round: title, attack dice, hits, defence dice, hits, after
        return f"{row[1]} {labels[1]} {dice_text(row[2])} ({row[3]}) · {labels[2]} {dice_text(row[4])} ({row[5]}) → {row[6]}"
    return str(row[1])


def part_text(scene: dict[str, Any], part: str) -> str:
    """The text the page shows in ``part`` (lines joined by newlines): ``status``,
    ``message``, ``guide``, ``actions`` (the prompts), ``info``, ``odds``, ``battle``,
    ``knowledge``; "" when the part is not shown."""
    if part == "status":
        return "\n".join(("■ " if colour else "") + fmt(scene, text) for text, _cls, colour in listed(scene, "st") or [])
    if part == "message":
        return str(scene.get("msg", ""))
    if part == "guide":
        g = listed(scene, "g")
        return "\n".join(x for x in (fmt(scene, y) for y in g) if x) if g else ""
    if part == "actions":
        return "\n".join(fmt(scene, item[2]) for item in listed(scene, "a") or [] if item[0] == "t")
    if part in ("info", "odds"):
        box = listed(scene, part[0])
        return "\n".join(fmt(scene, x) for x in box) if box else ""
    if part == "battle":
        box = listed(scene, "b")
        return "\n".join([box[0], *(battle_row_text(r, box[1]) for r in box[2:])]) if box else ""
    if part == "knowledge":
        k = scene.get("k")
        if not k:
            return ""
        title, neutral, unknown, seats = k
        lines = [fmt(scene, title)]
        for seat in seats:
            _colour, line, rows = scene[f"k{seat}"]
            lines += ["■ " + fmt(scene, line), *(scene[f"r{code}"] for code in rows)]
        return "\n".join(lines + [x for x in (fmt(scene, neutral), fmt(scene, unknown)) if x])
    raise LookupError(f"no part {part!r} in the panels")


class RiskPanels(SceneWidget):
    """The panels beside the map, drawn by the page from the scene the board writes."""

    _esm = SceneWidget.page_module(_HERE / "panels.js")
    _css = page_file(_HERE / "panels.css")
    #: a hand-over empties the action panel: its lines and buttons go as a few prefixes
    drop_prefixes = True

    def __init__(self, board: Any, **kwargs: Any) -> None:
        self.board = board
        super().__init__(**kwargs)
        self.add_class("cw-risk-panels")

    def draw_scene(self) -> dict[str, Any]:
        """The panels' scene the board wrote last (from the viewer's view only)."""
        return dict(self.board.panel_scene)

    # ------------------------------------------------------------ what the page shows
    def items(self) -> list[list[Any]]:
        """The action panel's items now shown (prompts, fields, rows of buttons)."""
        return listed(self.scene, "a") or []

    def button(self, target: str) -> list[Any] | None:
        """``[target, label, enabled]`` of the button shown for ``target`` (its label as
        the page writes it), or None."""
        for item in self.items():
            if item[0] == "b":
                for b in item[1]:
                    if b[0] == target:
                        return [b[0], fmt(self.scene, b[1]), b[2]]
        return None

    def field(self, name: str) -> list[Any] | None:
        """A shown field: ``["n", name, label, value, low, high]`` (a number) or
        ``["c", name, label, ticked]`` (a box), its label as the page writes it, or None."""
        for item in self.items():
            if item[0] in ("n", "c") and item[1] == name:
                return [item[0], item[1], fmt(self.scene, item[2]), *item[3:]]
        return None

    def clickable(self) -> list[str]:
        """The buttons a click does something on now (shown and enabled), in page order."""
        return [b[0] for item in self.items() if item[0] == "b" for b in item[1] if b[2]]

    def text(self, part: str) -> str:
        return part_text(self.scene, part)

    # ------------------------------------------------------------ clicks from the page
    def click(self, target: str) -> bool:
        """A click in the page: a button's target or ``<field>:<value>`` (see the module
        docstring); what is not shown (or not enabled) now does nothing (False)."""
        if not isinstance(target, str):
            return False
        name, sep, raw = target.partition(":")
        if sep:
            field = self.field(name)
            if field is None or not raw.lstrip("-").isdigit() or len(raw) > 6:
                return False
            n = int(raw)
            if field[0] == "n":
                n = max(int(field[4]), min(int(field[5]), n))
            else:
                n = int(n != 0)
            self.board.set_field(name, n)
            return True
        if target not in self.clickable():
            return False
        self.board.press(target)
        return True


class Control:
    """What a test holds of a button, field or panel the page draws (like the ipywidgets
    it replaces): it reads the scene (what the page shows) and clicks as the page does."""

    def __init__(self, panels: RiskPanels, name: str, kind: str) -> None:
        self._panels = panels
        self.name = name
        self.kind = kind  # "button", "number", "box", "text"

    @property
    def _dom_classes(self) -> tuple[str, ...]:
        return (f"cw-{self.name}",)

    @property
    def shown(self) -> bool:
        p = self._panels
        if self.kind == "button":
            return p.button(self.name) is not None
        if self.kind == "text":
            return bool(p.text(self.name))
        return p.field(self.name) is not None

    # buttons
    @property
    def description(self) -> str:
        if self.kind == "button":
            b = self._panels.button(self.name)
            return str(b[1]) if b else ""
        f = self._panels.field(self.name)
        return str(f[2]) if f else ""

    @property
    def disabled(self) -> bool:
        b = self._panels.button(self.name)
        return not (b and b[2])

    def click(self) -> bool:
        return self._panels.click(self.name)

    # fields and texts
    @property
    def value(self) -> Any:
        if self.kind == "text":
            return self._panels.text(self.name)
        f = self._panels.field(self.name)
        if self.kind == "box":
            return bool(f and f[3])
        return int(f[3]) if f else 0

    @value.setter
    def value(self, new: Any) -> None:
        self._panels.click(f"{self.name}:{int(new)}")

    @property
    def min(self) -> int:
        f = self._panels.field(self.name)
        return int(f[4]) if f else 0

    @property
    def max(self) -> int:
        f = self._panels.field(self.name)
        return int(f[5]) if f else 0

    def __repr__(self) -> str:
        return f"<{self.kind} {self.name}>"


def shown_controls(panels: RiskPanels, controls: list[Control]) -> list[Control]:
    """The controls the page shows now, in the page's order (texts first)."""
    order = {name: i for i, name in enumerate(["status", "message", "guide", "actions"])}
    out = [c for c in controls if c.kind == "text" and c.name in order and c.shown]
    by_name = {c.name: c for c in controls if c.kind != "text"}
    for item in panels.items():
        if item[0] in ("n", "c") and item[1] in by_name:
            out.append(by_name[item[1]])
        elif item[0] == "b":
            out += [by_name[b[0]] for b in item[1] if b[0] in by_name]
    out += [c for c in controls if c.kind == "text" and c.name not in order and c.shown]
    return out


__all__ = ["BOXES", "BUTTONS", "NUMBERS", "Control", "RiskPanels", "part_text", "shown_controls"]
