"""Japan Conquest's New game form: one front-end widget (:mod:`anywidget`, issue 32: a lean
wire; it was some 110 ipywidgets, 64 KB on the wire, and is now one model of about 10 KB).

The form asks for the number of players; per seat a name, a colour, Human or CPU (a CPU's
difficulty and strategy) and a home prefecture (from the list, or a click on the map for the
selected seat); the mode, the number of turns (standard mode), Roll for Order, the seed and,
where the app offers tables, One screen or Separate screens; then Start or Back.

The page draws it from ``desc`` (labels in the app's language and what each field offers),
``values`` (what is filled in: ``{"n", "seats": [{"name", "colour", "cpu", "difficulty",
"strategy", "home"}, ...], "sel", "mode", "turns", "roll", "seed", "screens"}``, synced both
ways) and ``problem`` (the problem with the form, as plain text).  What the page sends is taken
field by field (a value the form does not offer is not taken; a name is cut at
:data:`~conquest_widget.core.safe_text.MAX_NAME_LENGTH` characters, a colour must be
``#rrggbb``).  Start and Back come back as one message; Start carries the values the page
shows, which the fields take first.

In the kernel each field is a :class:`~conquest_widget.ui.setup_form.Field` (``value``, and
``options`` where it offers a choice; ``label`` is the chosen option's label): ``count``,
``rows`` (one :class:`PlayerRow` per seat), ``selected_seat``, ``mode``, ``turns``,
``roll_for_order``, ``seed``, ``screens``; ``start_button`` / ``back_button`` press Start /
Back as the page's buttons do::

    >>> from conquest_widget.games.japan_conquest.widget.controller import SeatController
    >>> form = SetupScreen(SeatController(None))
    >>> form.count.value = 2
    >>> form.rows[1].kind.value = True; form.values["seats"][1]["cpu"]
    True
    >>> form.set_state({"values": {**form.values, "n": 9}}); form.count.value  # not offered
    2
    >>> form.form()["players"][1]["cpu"], len(form.form()["players"])
    (True, 2)

Names are hostile text (a remembered setup is read from a file): the page puts every text
in with ``textContent`` and every name in an ``<input>``'s value, never as markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import traitlets

from conquest_widget.core.safe_text import MAX_NAME_LENGTH
from conquest_widget.errors import SetupError
from conquest_widget.games.japan_conquest.rules import DIFFICULTIES, MODES, PREFECTURES, STANDARD_TURNS, STRATEGIES
from conquest_widget.games.japan_conquest.setup import DEFAULT_COLOURS, GameSetup
from conquest_widget.games.japan_conquest.text import pref_name, t
from conquest_widget.games.japan_conquest.widget.controller import BoardModel
from conquest_widget.lean import page_file, shared_layout
from conquest_widget.maps.japan.board import japan
from conquest_widget.ui.setup_form import MAX_TEXT, Field, PageForm, take
from conquest_widget.ui.text import t as shell_t

_HERE = Path(__file__).parent
DEFAULT_HOMES = (13, 27, 1, 40)  # Tokyo, Osaka, Hokkaido, Fukuoka: distinct and far apart
SEATS = 4
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


class PlayerRow:
    """One seat of the form: ``name``, ``colour``, ``kind`` (False: Human, True: CPU),
    ``difficulty``, ``strategy`` and ``home`` fields (a CPU's settings are kept while the
    seat is human)."""

    def __init__(self, seat: int, lang: str) -> None:
        self.seat = seat
        self.name = Field(f"Player {seat + 1}", max_length=MAX_NAME_LENGTH)
        self.colour = Field(DEFAULT_COLOURS[seat])
        self.kind = Field(seat != 0, [("Human", False), ("CPU", True)])
        self.difficulty = Field("normal", [(d, d) for d in DIFFICULTIES])
        self.strategy = Field("balanced", [(s, s) for s in STRATEGIES])
        self.home = Field(DEFAULT_HOMES[seat], [(p.name_en, p.code) for p in japan().prefectures])
        self.relabel(lang)

    def fields(self) -> list[Field]:
        return [self.name, self.colour, self.kind, self.difficulty, self.strategy, self.home]

    def relabel(self, lang: str) -> None:
        """Translate the choices, keeping the values."""
        self.kind.relabel([(t("human", lang), False), (t("cpu", lang), True)])
        self.difficulty.relabel([(t(d, lang), d) for d in DIFFICULTIES])
        self.strategy.relabel([(t(s, lang), s) for s in STRATEGIES])
        self.home.relabel([(pref_name(p.code, lang), p.code) for p in japan().prefectures])

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name.value, "colour": self.colour.value, "cpu": self.kind.value,
                "difficulty": self.difficulty.value, "strategy": self.strategy.value, "home": self.home.value}

    def load(self, data: dict[str, Any]) -> None:
        """Take what ``data`` (a :meth:`to_dict`, from the page or a remembered setup) holds
        and the seat offers; the rest stays."""
        name = data.get("name")
        if isinstance(name, str):
            self.name.value = name
        colour = data.get("colour")
        if isinstance(colour, str) and _COLOUR.fullmatch(colour):
            self.colour.value = colour.lower()
        for field, key in ((self.kind, "cpu"), (self.difficulty, "difficulty"), (self.strategy, "strategy"),
                           (self.home, "home")):
            if key in data:
                take(field, data[key])


class FormButton:
    """Start or Back of the page, pressed from Python as the page's button is."""

    def __init__(self, form: SetupScreen, target: str) -> None:
        self.form, self.target = form, target

    def click(self) -> None:
        self.form.click(self.target)

    @property
    def description(self) -> str:
        return str(self.form.desc.get("t", {}).get(self.target, ""))


class ErrorLine:
    """The form's problem as HTML (``value``: escaped, in a ``cw-msg`` div), as the form
    made of ipywidgets showed it; the page shows ``problem`` as text."""

    def __init__(self, form: SetupScreen) -> None:
        self.form = form

    @property
    def value(self) -> str:
        text = self.form.problem
        return f'<div class="cw-msg">{html.escape(text)}</div>' if text else ""


def form_problem(form: dict[str, Any], lang: str = "en") -> str:
    """What is wrong with a setup form, in the player's language ("" if nothing the form
    itself can show: the engine's check follows).

    >>> form_problem({"players": [{"name": "A", "home": 13}, {"name": "B", "home": 13}]})
    'Two players have the same home, Tokyo: choose another'
    """
    players = [p for p in (form.get("players") or []) if isinstance(p, dict)]
    names = [str(p.get("name", "")).strip() for p in players]
    for i, name in enumerate(names):
        if not name:
            return t("setup_name_empty", lang, n=i + 1)
        if len(name) > MAX_NAME_LENGTH:
            return t("setup_name_long", lang, n=i + 1, max=MAX_NAME_LENGTH)
    for i, name in enumerate(names):
        if name in names[:i]:
            return t("setup_same_name", lang, name=name)
    homes = [p.get("home") for p in players]
    board = japan()
    for i, a in enumerate(homes):
        for b in homes[i + 1:]:
            if not (isinstance(a, int) and isinstance(b, int) and 1 <= a <= PREFECTURES and 1 <= b <= PREFECTURES):
                continue
            if a == b:
                return t("setup_same_home", lang, pref=pref_name(a, lang))
            if b in board.adjacency[a]:
                return t("setup_near_homes", lang, a=pref_name(a, lang), b=pref_name(b, lang))
    return ""


class SetupScreen(PageForm):
    """The New game form (see the module docstring).  ``on_preview`` is called with the homes
    and colours of the seats in play whenever they change (the app colours them on the map);
    the shell's app gives what Start and Back do (``on_start``, ``on_back``)."""

    _esm = PageForm.page_module(_HERE / "setup_form.js")
    _css = page_file(_HERE / "setup_form.css")
    #: the problem with the form (the controller's ``setup_error``), plain text
    problem = traitlets.Unicode("").tag(sync=True)

    def __init__(self, c: BoardModel, on_preview: Callable[[dict[int, str]], None] | None = None, *,
                 on_start: Callable[[], None] | None = None, on_back: Callable[[], None] | None = None) -> None:
        """``on_start`` / ``on_back``: what Start and Back do (the shell's app: Start reads
        the form with :meth:`read`); without them the buttons do nothing (a form shown
        alone, e.g. in a notebook, is read with :meth:`read`).  ``c`` gives the language and
        the problem shown."""
        self.c = c
        self.on_preview = on_preview
        self.on_start, self.on_back = on_start, on_back
        self.count = Field(4, [("2", 2), ("3", 3), ("4", 4)])
        self.rows = [PlayerRow(s, c.lang) for s in range(SEATS)]
        self.selected_seat = Field(0, [(str(s + 1), s) for s in range(SEATS)])
        self.mode = Field("standard", [(m, m) for m in MODES])
        self.turns = Field(10, [(str(n), n) for n in STANDARD_TURNS])
        self.roll_for_order = Field(False)
        self.seed = Field("")
        #: one screen (hot seat) or separate screens (a table: a link per human seat)
        self.screens = Field("one", [("one", "one"), ("tables", "tables")])
        self.start_button, self.back_button = FormButton(self, "start"), FormButton(self, "back")
        #: the problem with the form as HTML (``error.value``)
        self.error = ErrorLine(self)
        super().__init__(problem=c.setup_error, layout=shared_layout())
        self.add_class("cw-setup-form")
        c.observe(self.relabel, names="lang")
        c.observe(self._show_error, names="setup_error")
        self.relabel()

    @property
    def rows_shown(self) -> list[PlayerRow]:
        """The seats in play."""
        return self.rows[: self.count.value]

    def _fields(self) -> list[Field]:  # the order the page's values are read in
        return [self.count, *(f for r in self.rows for f in r.fields()), self.selected_seat, self.mode, self.turns,
                self.roll_for_order, self.seed, self.screens]

    def close(self) -> None:
        """Close the form (it stops following the controller)."""
        if self.comm is None:
            return  # closed already
        self.c.unobserve(self.relabel, names="lang")
        self.c.unobserve(self._show_error, names="setup_error")
        super().close()

    # ------------------------------------------------------------ labels and the problem
    def _show_error(self, _: Any = None) -> None:
        self.problem = self.c.setup_error

    def relabel(self, _: Any = None) -> None:
        """The labels in the controller's language; every value stays."""
        lang = self.c.lang
        with self.batch():
            for r in self.rows:
                r.relabel(lang)
            self.mode.relabel([(t(m, lang), m) for m in MODES])
            self.screens.relabel([(shell_t("one_screen", lang), "one"), (shell_t("separate_screens", lang), "tables")])
        self.desc = self._desc()
        self._changed()

    def _desc(self) -> dict[str, Any]:
        lang = self.c.lang

        def pairs(f: Field) -> list[list[Any]]:
            return [list(p) for p in f.options]

        row = self.rows[0]
        texts = {k: t(k, lang) for k in ("mode", "turns", "seed", "start", "back", "name", "difficulty", "strategy")}
        return {
            "lang": lang,
            "t": {**texts, "title": t("setup", lang), "players": t("player_count", lang), "roll": t("roll_for_order", lang),
                  "hint": t("click_map_home", lang), "screens": shell_t("screens", lang)},
            "counts": pairs(self.count), "seats": [str(s + 1) for s in range(SEATS)], "sels": pairs(self.selected_seat),
            "kinds": pairs(row.kind), "difficulties": pairs(row.difficulty), "strategies": pairs(row.strategy),
            "homes": pairs(row.home), "modes": pairs(self.mode), "turns": pairs(self.turns),
            "screens": pairs(self.screens), "max_name": MAX_NAME_LENGTH,
        }

    # ------------------------------------------------------------ values, both ways
    def _values(self) -> dict[str, Any]:
        return {"n": self.count.value, "seats": [r.to_dict() for r in self.rows], "sel": self.selected_seat.value,
                "mode": self.mode.value, "turns": self.turns.value, "roll": self.roll_for_order.value,
                "seed": self.seed.value, "screens": self.screens.value}

    def _read(self, new: dict[str, Any]) -> None:
        """The page's values into the fields: each takes what it offers."""
        take(self.count, new.get("n"))
        seats = new.get("seats")
        if isinstance(seats, list):
            for r, data in zip(self.rows, seats, strict=False):
                if isinstance(data, dict):
                    r.load(data)
        for field, key in ((self.selected_seat, "sel"), (self.mode, "mode"), (self.turns, "turns"),
                           (self.screens, "screens")):
            take(field, new.get(key))
        if isinstance(new.get("roll"), bool):
            self.roll_for_order.value = new["roll"]
        if isinstance(new.get("seed"), str):
            self.seed.value = new["seed"][:MAX_TEXT]

    def _changed(self) -> None:
        """Something of the form changed: a problem shown is about the form as it was, and
        the map shows the homes of the seats in play in their colours."""
        self.c.setup_error = ""
        self.preview()

    def preview(self) -> None:
        """Show the homes of the seats in play in their colours (``on_preview``)."""
        if self.on_preview:
            self.on_preview({r.home.value: r.colour.value for r in self.rows_shown})

    # ------------------------------------------------------------ what the app asks
    def pick_home(self, code: int) -> None:
        """Map click during setup: the selected seat's home."""
        self.rows[self.selected_seat.value].home.value = code

    def form(self) -> dict[str, Any]:
        """The setup as a plain dict (:meth:`GameSetup.from_dict` format)."""
        seed_text = self.seed.value.strip()
        return {
            "players": [r.to_dict() for r in self.rows_shown],
            "mode": self.mode.value,
            "turns": self.turns.value if self.mode.value == "standard" else None,
            "roll_for_order": self.roll_for_order.value,
            "seed": int(seed_text) if seed_text.lstrip("-").isdigit() else None,
        }

    def load(self, form: dict[str, Any]) -> None:
        """Fill the form from remembered preferences (a :meth:`form` dict: read from a file,
        so each value is taken only where the form offers it)."""
        players = form.get("players") or []
        with self.batch():
            if isinstance(players, list) and 2 <= len(players) <= SEATS:
                self.count.value = len(players)
                for row, data in zip(self.rows, players, strict=False):
                    if isinstance(data, dict):
                        row.load(data)
            take(self.mode, form.get("mode"))
            take(self.turns, form.get("turns"))
            self.roll_for_order.value = form.get("roll_for_order") is True

    def read(self) -> tuple[GameSetup, int | None]:
        """The setup the form shows and its seed (None: none given), for the shell's app.
        Raises ``ValueError`` naming the problem in the form's language (the form shows it
        too); nothing is started.

        >>> from conquest_widget.games.japan_conquest.widget.controller import SeatController
        >>> form = SetupScreen(SeatController(None)); form.count.value = 2
        >>> form.rows[1].home.value = 13; form.read()
        Traceback (most recent call last):
        ...
        ValueError: Two players have the same home, Tokyo: choose another
        """
        seed_text = self.seed.value.strip()
        problem = t("setup_bad_seed", self.c.lang) if seed_text and not seed_text.lstrip("-").isdigit() else ""
        form = self.form()
        problem = problem or form_problem(form, self.c.lang)
        setup = None
        if not problem:
            try:
                setup = GameSetup.from_dict(form)
            except SetupError:
                problem = t("setup_invalid", self.c.lang)  # never the engine's developer wording
        if setup is None:
            self.c.setup_error = problem
            raise ValueError(problem)
        return setup, setup.seed

    def set_lang(self, lang: str) -> None:
        """Switch between English (``"en"``) and Japanese (``"ja"``) (the labels follow
        the controller's ``lang``)."""
        self.c.lang = lang

    def click(self, target: str) -> None:
        """Press ``"start"`` or ``"back"`` (what the page's buttons send; Start with the
        page's values, which the fields take first)."""
        action = {"start": self.on_start, "back": self.on_back}.get(target)
        if action is not None:
            action()
