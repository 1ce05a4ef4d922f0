"""The shell's New game form: one front-end widget (:mod:`anywidget`, issue 32: a lean wire).

The form asks for the number of players, per seat a name and Human or a CPU level, the
game's options (:attr:`GameUI.options <conquest_widget.ui.game_ui.GameUI.options>`: a
switch, a choice or a whole number within bounds), the CPU speed, the seed and, where the
app offers tables, One screen or Separate screens; then Start or Back.

The page draws it from ``desc`` (its labels in the chosen language and what each field
offers, synced when the form opens and again when the language changes) and ``values``
(what is filled in: ``{"n", "names", "kinds", "opt", "speed", "seed", "screens"}``),
synced both ways: a value typed or picked in the page comes back as ``values``, which the
kernel checks field by field (a value the form does not offer is not taken, and the page
is sent the kernel's value back).  Start and Back come back as one message
``{"click": "start"}`` / ``{"click": "back"}`` (:meth:`SetupForm.click`, which a test calls
the same way); Start carries the values the page shows (``{"click": "start", "values": …}``),
which the fields take before the app starts.  Whether the form makes a match (a name, at least one human, a whole-number
seed) is checked by the app when Start is pressed, not here.

In the kernel each field is a small :class:`Field` (``value``, and ``options`` as
``(label, value)`` pairs where it offers a choice) that the form mirrors: setting one from
Python sends the page the new ``values``, and a value from the page sets the field::

    >>> from conquest_widget.games.conquest_cards.widget import UI
    >>> form = SetupForm(UI, players=range(2, 7), bots=["easy", "normal"], default_bot="normal",
    ...                  lang="en")
    >>> form.n_players.value = 2; form.values["n"]
    2
    >>> form.set_state({"values": {**form.values, "seed": "12"}}); form.seed.value
    '12'
    >>> form.seat_rows[1][1].options[:2]
    (('Human', 'human'), ('CPU: easy', 'easy'))

Names are hostile text (a save, or a player, may hold anything): the page puts every text
in with ``textContent`` and every name in an ``<input>``'s value, never as markup.  The
JavaScript (``setup_form.js``) and CSS (``setup_form.css``) beside this file are sent once
per form; the page's elements keep the classes the browser tests use: ``cw-n-players``,
``cw-seat-<i>`` (a name ``input`` and a ``select``), ``cw-option-<key>``, ``cw-cpu-speed``,
``cw-seed``, ``cw-screens`` (buttons), ``cw-start`` and ``cw-back``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from conquest_widget.lean import page_file, shared_layout
from conquest_widget.ui.game_ui import HUMAN, GameUI, Option
from conquest_widget.ui.text import t

_HERE = Path(__file__).parent

SPEEDS = ("instant", "fast", "normal")
#: the Screens choice of an app that offers tables (see :mod:`conquest_widget.ui.table_page`)
ONE, SEPARATE = "one", "tables"
#: the longest text the form keeps from the page (a name is checked at Start: 40 characters)
MAX_TEXT = 200


class Field(traitlets.HasTraits):
    """One field of the form in the kernel: ``value``; ``options``, ``(label, value)`` pairs,
    for a choice (a value not offered is refused with :class:`traitlets.TraitError`, as a
    dropdown does); ``min`` / ``max`` for a whole number (a value beyond them is brought
    within, as a bounded number field does); ``max_length`` for a text (cut there)."""

    value = traitlets.Any()
    options = traitlets.Tuple()

    def __init__(self, value: Any, options: Sequence[tuple[str, Any]] = (), *, min: int | None = None,
                 max: int | None = None, max_length: int | None = None, description: str = "") -> None:
        self.min, self.max, self.max_length = min, max, max_length
        #: the label of a switch
        self.description = description
        super().__init__(options=tuple((str(label), v) for label, v in options))
        self.value = value

    @traitlets.validate("value")
    def _check(self, proposal: Any) -> Any:
        value = proposal["value"]
        if self.options and not any(value == v and type(value) is type(v) for _label, v in self.options):
            raise traitlets.TraitError(f"{value!r} is not one of the choices")
        if self.max_length is not None and isinstance(value, str):
            value = value[: self.max_length]  # a text field keeps no more, as its input does
        if self.min is not None or self.max is not None:
            value = int(value)
            if self.min is not None:
                value = max(self.min, value)
            if self.max is not None:
                value = min(self.max, value)
        return value

    @property
    def label(self) -> str:
        """The label of the value chosen ("" for a field that offers no choice)."""
        return next((label for label, v in self.options if v == self.value and type(v) is type(self.value)), "")

    def relabel(self, options: Sequence[tuple[str, Any]]) -> None:
        """New labels for the same choices; the value stays."""
        value = self.value
        self.options = tuple((str(label), v) for label, v in options)
        self.value = value


def take(field: Field, value: Any) -> None:
    """``field`` takes ``value`` if it offers it; otherwise it keeps its value.  None is
    taken only by a choice that offers it (an ``Any`` trait takes None without calling its
    validator: a page's null, or a value missing from a file, would have been set)."""
    if value is None and not any(v is None for _label, v in field.options):
        return
    try:
        field.value = value
    except (traitlets.TraitError, TypeError, ValueError):
        pass  # not offered: the field keeps its value


class PageForm(anywidget.AnyWidget):
    """A form drawn in the page from ``desc`` (its labels) and ``values`` (what is filled in,
    synced both ways), with kernel-side :class:`Field` objects mirrored into ``values``.  A
    subclass gives :meth:`_fields`, :meth:`_values` (the fields as the page's values),
    :meth:`_read` (the page's values into the fields) and :meth:`click`.  Start comes back
    with the values the page shows (``{"click": "start", "values": ...}``), which the fields
    take before the click is acted on; other clicks are ``{"click": target}``."""

    #: the labels and what each field offers
    desc = traitlets.Dict().tag(sync=True)
    #: what is filled in, synced both ways; what the page sends is not echoed back to it
    #: (it has it: the kernel sends values only when it changes them), so what a page
    #: receives does not depend on how ipywidgets batched its edits (tests/e2e/twins.py)
    values = traitlets.Dict().tag(sync=True, echo_update=False)
    #: the targets the page may click
    TARGETS: tuple[str, ...] = ("start", "back")

    @staticmethod
    def page_module(path: Path) -> str:
        """A form's ES module as sent: ``form_parts.js`` (what the forms' modules share: no
        export of its own) followed by the form's own file."""
        return page_file(_HERE / "form_parts.js") + "\n" + page_file(path)

    def __init__(self, **kwargs: Any) -> None:
        """Call with the fields made; every field's change is then written to ``values``."""
        self._quiet = True
        for f in self._fields():
            f.observe(self._push, names=["value", "options"])
        super().__init__(values=self._values(), **kwargs)
        self._quiet = False
        self.on_msg(self._on_page_msg)

    # what each form gives (traitlets' metaclass is not ABCMeta: marked, not enforced)
    @abstractmethod
    def _fields(self) -> list[Field]:
        """Every field of the form."""

    @abstractmethod
    def _values(self) -> dict[str, Any]:
        """The fields as the page's ``values``."""

    @abstractmethod
    def _read(self, new: dict[str, Any]) -> None:
        """The page's ``values`` into the fields (each takes what it offers)."""

    @abstractmethod
    def click(self, target: str) -> None:
        """Act on a click of the page's ``target`` button."""

    def _changed(self) -> None:
        """Called once the fields changed (a subclass may act on it)."""

    def _push(self, _change: Any = None) -> None:
        """A field changed in the kernel: the page gets the new values."""
        if not self._quiet:
            self._write()
            self._changed()

    def _write(self) -> None:
        """``values`` from the fields (sent to the page when they differ from what it has:
        a value the page just sent is not sent back)."""
        quiet, self._quiet = self._quiet, True
        try:
            self.values = self._values()
        finally:
            self._quiet = quiet

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Change several fields with one update of ``values``::

            with form.batch():
                ...
        """
        before, quiet, self._quiet = self._values(), self._quiet, True
        try:
            yield
        finally:
            self._quiet = quiet
        if self._values() != before:
            self._write()
            self._changed()

    @traitlets.observe("values")
    def _from_page(self, change: Any) -> None:
        """``values`` written by the page: each field takes what it offers; a value it does
        not offer is not taken, and the page gets the kernel's values back."""
        if not self._quiet:
            self._take_values(change["new"])

    def _take_values(self, new: Any) -> None:
        with self.batch():
            self._read(new if isinstance(new, dict) else {})
        self._write()

    def _on_page_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A click; Start carries the values the page shows, which the fields take first (so
        the match starts with what the player sees, whatever became of the edits' own
        messages on the way)."""
        if isinstance(content, dict) and content.get("click") in self.TARGETS:
            if content["click"] == "start" and isinstance(content.get("values"), dict):
                self._take_values(content["values"])
            self.click(content["click"])


class SetupForm(PageForm):
    """The New game form (see the module docstring).  ``players``: the numbers of players
    offered; ``bots``: the CPU levels; ``screens``: offer One screen / Separate screens;
    ``on_start`` / ``on_back``: what Start and Back do; ``last``: the setup of the game
    started last (the preferences' ``last_setups``), which fills the form (:meth:`load`)."""

    _esm = PageForm.page_module(_HERE / "setup_form.js")
    _css = page_file(_HERE / "setup_form.css")

    def __init__(self, ui: GameUI, *, players: Sequence[int], bots: Sequence[str], default_bot: str,
                 lang: str = "en", screens: bool = False, on_start: Callable[[], None] | None = None,
                 on_back: Callable[[], None] | None = None, last: Any = None, **kwargs: Any) -> None:
        self.ui = ui
        self.lang = lang
        self._bots = list(bots)
        self._on = {"start": on_start, "back": on_back}
        players = list(players)
        names = ui.default_names.get(lang, ui.default_names["en"])
        self.n_players = Field(max(players[0], min(3, players[-1])), [(str(n), n) for n in players])
        self.seat_rows: list[tuple[Field, Field]] = [
            (Field(names[i % len(names)]), Field(HUMAN if i == 0 else default_bot, self._kinds()))
            for i in range(players[-1])]
        self.option_widgets: dict[str, Field] = {o.key: self._option_field(o) for o in ui.options}
        self.speed = Field("fast", self._speeds())
        self.seed = Field("")
        self.screens: Field | None = Field(ONE, self._screens()) if screens else None
        if last is not None:
            self._read(self._last_values(last))  # before the page gets its first values
        super().__init__(desc=self._desc(), layout=shared_layout(), **kwargs)
        self.add_class("cw-setup-form")

    # ------------------------------------------------------------ fields and labels
    def _t(self, key: str, **kw: Any) -> str:
        return t(key, self.lang, **kw)

    def _kinds(self) -> list[tuple[str, str]]:
        return [(self._t("human"), HUMAN)] + [(self._t("cpu", level=b), b) for b in self._bots]

    def _speeds(self) -> list[tuple[str, str]]:
        return [(self._t(f"speed_{s}"), s) for s in SPEEDS]

    def _screens(self) -> list[tuple[str, str]]:
        return [(self._t("one_screen"), ONE), (self._t("separate_screens"), SEPARATE)]

    def _choices(self, o: Option) -> list[tuple[str, Any]]:
        labels = o.choice_labels.get(self.lang) or [str(c) for c in o.choices]
        return list(zip(labels, o.choices, strict=True))

    def _option_field(self, o: Option) -> Field:
        if o.kind == "bool":
            return Field(bool(o.default), description=o.label[self.lang])
        if o.kind == "choice":
            return Field(o.default, self._choices(o))
        return Field(int(o.default), min=o.low if o.low is not None else -10**9,
                     max=o.high if o.high is not None else 10**9)

    def _fields(self) -> list[Field]:
        out = [self.n_players, *(f for row in self.seat_rows for f in row), *self.option_widgets.values(),
               self.speed, self.seed]
        return out if self.screens is None else [*out, self.screens]

    def set_lang(self, lang: str) -> None:
        """Relabel the form in ``lang`` ("en" or "ja"); every value filled in stays."""
        self.lang = lang
        self._quiet = True
        try:
            for _name, kind in self.seat_rows:
                kind.relabel(self._kinds())
            for o in self.ui.options:
                f = self.option_widgets[o.key]
                if o.kind == "choice":
                    f.relabel(self._choices(o))
                elif o.kind == "bool":
                    f.description = o.label[lang]
            self.speed.relabel(self._speeds())
            if self.screens is not None:
                self.screens.relabel(self._screens())
        finally:
            self._quiet = False
        self.desc = self._desc()

    def _desc(self) -> dict[str, Any]:
        """The labels in the form's language and what each field offers (``values`` are
        sent apart).  A choice's values are sent as they are (JSON: numbers or strings)."""
        options = []
        for o in self.ui.options:
            entry: dict[str, Any] = {"key": o.key, "kind": o.kind, "label": o.label[self.lang]}
            f = self.option_widgets[o.key]
            if o.kind == "choice":
                entry["choices"] = [list(pair) for pair in f.options]
            elif o.kind == "int":
                entry["low"], entry["high"] = f.min, f.max
            options.append(entry)
        return {
            "lang": self.lang,
            "t": {k: self._t(k) for k in ("n_players", "cpu_speed", "seed", "screens", "start", "back")},
            "players": [v for _label, v in self.n_players.options],
            "seats": [self._t("seat", n=i + 1) for i in range(len(self.seat_rows))],
            "kinds": [list(pair) for pair in self.seat_rows[0][1].options],
            "options": options,
            "speeds": [list(pair) for pair in self.speed.options],
            "screens": [list(pair) for pair in self.screens.options] if self.screens is not None else [],
        }

    # ------------------------------------------------------------ values, both ways
    def _values(self) -> dict[str, Any]:
        return {
            "n": self.n_players.value,
            "names": [name.value for name, _kind in self.seat_rows],
            "kinds": [kind.value for _name, kind in self.seat_rows],
            "opt": {k: f.value for k, f in self.option_widgets.items()},
            "speed": self.speed.value,
            "seed": self.seed.value,
            "screens": self.screens.value if self.screens is not None else None,
        }

    def _read(self, new: dict[str, Any]) -> None:
        """The page's values into the fields: each takes what it offers (text is cut at
        :data:`MAX_TEXT` characters)."""
        take(self.n_players, new.get("n"))
        names, kinds = new.get("names"), new.get("kinds")
        for i, (name, kind) in enumerate(self.seat_rows):
            if isinstance(names, list) and i < len(names) and isinstance(names[i], str):
                name.value = names[i][:MAX_TEXT]
            if isinstance(kinds, list) and i < len(kinds):
                take(kind, kinds[i])
        opt = new.get("opt")
        opt = opt if isinstance(opt, dict) else {}
        for o in self.ui.options:
            if o.key in opt:
                value = opt[o.key]
                ok = {"bool": isinstance(value, bool), "choice": True,
                      "int": isinstance(value, int) and not isinstance(value, bool)}[o.kind]
                if ok:
                    take(self.option_widgets[o.key], value)
        take(self.speed, new.get("speed"))
        if isinstance(new.get("seed"), str):
            self.seed.value = new["seed"][:MAX_TEXT]
        if self.screens is not None:
            take(self.screens, new.get("screens"))

    def load(self, last: Any) -> None:
        """Fill the form from ``last``, a setup of the game (the one started last): the
        number of players, each seat's name and Human or CPU level, the game's options
        (``GameUI.form_options``).  It was read from a file: each field takes its value only
        where the form offers it (as a value from the page) and keeps its own otherwise — a
        CPU level no longer offered, a number of players beyond the form's, an option of the
        wrong type.  The seed, the CPUs' speed and the screens are not taken (a new game
        gets a new seed)."""
        with self.batch():
            self._read(self._last_values(last))

    def _last_values(self, last: Any) -> dict[str, Any]:
        """``last`` as the page's ``values`` (only the fields a setup gives; {} for a setup
        the game cannot read back)."""
        try:
            seats = list(self.ui.seat_choices(last))
            options = self.ui.form_options(last)
            return {"n": len(seats), "names": [s.name for s in seats], "kinds": [s.bot for s in seats],
                    "opt": options}
        except Exception:  # hostile or foreign data: the form keeps its defaults
            return {}

    # ------------------------------------------------------------ Start and Back
    def click(self, target: str) -> None:
        """Press ``"start"`` or ``"back"`` (what the page's buttons send)."""
        action = self._on.get(target)
        if action is not None:
            action()

    def button_label(self, target: str) -> str:
        """The label of the ``"start"`` or ``"back"`` button in the form's language."""
        return self._t(target)
