"""Japan Conquest's start screen drawn in the page by one scene widget (issue 32: a lean
wire): :class:`StartScreen` (``start_screen.js`` / ``start_screen.css``) shows the title,
New Game and Watch 4 CPUs, and with a save store the entries of :class:`StartSaves`:
Continue Last Game and the autosave's Replay, each slot with Resume / Replay / Delete (and
the question before a delete), Previous Results, Save Data Management, the records against
CPUs and the last problem met.  It used to be 23 buttons and their boxes, HTML and layouts,
most of them hidden on a first visit; it is now one widget whose scene is a few hundred bytes.

The kernel keeps small button and text objects with the API of the widgets they replace
(``start_screen.new_button.click()``, ``start_saves.slot_rows[n][0].value``,
``start_saves.confirm.yes.click()``...): a button's ``click()`` runs its action as an
ipywidgets Button's does (a click that reaches the kernel is handled whatever the page
shows); the page's own click (``{"click": target}``) is handled only when the scene offers
it.  Every text is plain: the page puts it in with ``textContent`` (a player's name in a
save file is never read as markup).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conquest_widget.errors import ConquestError
from conquest_widget.games.japan_conquest.text import t
from conquest_widget.games.japan_conquest.widget.controller import GameController
from conquest_widget.games.japan_conquest.widget.saves_view import _date, slot_text
from conquest_widget.lean import page_file, shared_layout
from conquest_widget.saves import SLOT_COUNT, AutosaveClaim, SaveStore, SlotInfo
from conquest_widget.scene import SceneWidget

_HERE = Path(__file__).parent

#: the buttons' labels the page is sent once per language (``L``)
LABELS = ("new_game", "watch_cpus", "continue", "replay", "replay_tip", "resume", "delete", "previous_results",
          "save_data", "yes", "no")


class StartButton:
    """A button of the start screen as a test presses it: ``click()`` (its action, as an
    ipywidgets Button's ``click()``), ``description``, ``tooltip``, ``disabled`` and
    ``_dom_classes`` (the page's button has the class ``cw-<target>``), read from the scene."""

    def __init__(self, owner: Any, target: str) -> None:
        self.owner, self.target = owner, target

    def click(self) -> None:
        self.owner.act(self.target)

    @property
    def description(self) -> str:
        return str(self.owner.label(self.target))

    @property
    def tooltip(self) -> str:
        return t("replay_tip", self.owner.c.lang) if self.target.startswith("replay-") else ""

    @property
    def disabled(self) -> bool:
        return not self.owner.enabled(self.target)

    @property
    def _dom_classes(self) -> tuple[str, ...]:
        return (f"cw-{self.target}",)

    def __repr__(self) -> str:
        return f"<StartButton {self.target} {'disabled' if self.disabled else 'enabled'}>"


class StartText:
    """A text of the start screen as the page shows it: ``value`` (plain text)."""

    def __init__(self, read: Callable[[], str]) -> None:
        self._read = read

    @property
    def value(self) -> str:
        return self._read()


class Ask:
    """The start screen's "Are you sure?" (before a slot is deleted): ``text.value``, ``yes``,
    ``no``; :meth:`ask` shows it, an answer hides it."""

    def __init__(self, saves: StartSaves) -> None:
        self.saves = saves
        self.question = ""
        self._action: Callable[[], None] | None = None
        self.text = StartText(lambda: self.question)
        self.yes, self.no = StartButton(saves, "yes"), StartButton(saves, "no")

    @property
    def shown(self) -> bool:
        return bool(self.question)

    def ask(self, question: str, action: Callable[[], None]) -> None:
        self.question, self._action = question, action
        self.saves.changed()

    def answer(self, yes: bool) -> None:
        action, self._action, self.question = self._action, None, ""
        self.saves.changed()
        if yes and action is not None:
            action()


class StartSaves:
    """The start screen's save entries (drawn by :class:`StartScreen`).  Replay (the
    autosave's and each slot's) loads the game and hands it to ``on_replay(match, slot)``
    (slot None: the autosave), which the app sets to open its replay screen.  Every problem
    the store reports is shown (``message``), never hidden."""

    MAX_RESULTS = 10

    def __init__(self, c: GameController, store: SaveStore) -> None:
        self.c, self.store = c, store
        #: the autosave as Continue found it before reading it: this page's claim on it
        #: (the app's autosaver takes it for the game loaded)
        self.read_claim: AutosaveClaim | None = None
        #: called with a loaded match and its slot (None: the autosave) by the Replay buttons
        self.on_replay: Callable[[Any, int | None], None] = lambda match, slot: None
        #: called after a change (the screen's redraw; set by :class:`StartScreen`)
        self.on_change: Callable[[], None] = lambda: None
        self._auto: SlotInfo | None = None
        self._slots: list[SlotInfo] = []
        self._records: dict[str, Any] | str = {}  # a problem reading them: its text
        self._results: list[dict[str, Any]] | None = None  # None: Previous Results not pressed
        self._message = ""
        self.continue_button = StartButton(self, "continue")
        self.replay_auto_button = StartButton(self, "replay-autosave")
        self.results_button = StartButton(self, "results")
        self.data_button = StartButton(self, "data")
        #: each slot's (label, Resume, Delete), in slot order
        self.slot_rows = [(StartText(lambda n=n: self._slot_text(n)), StartButton(self, f"resume-{n}"),
                           StartButton(self, f"delete-{n}")) for n in range(1, SLOT_COUNT + 1)]
        #: each slot's Replay button, in slot order (beside its Resume)
        self.replay_buttons = [StartButton(self, f"replay-{n}") for n in range(1, SLOT_COUNT + 1)]
        self.confirm = Ask(self)
        self.auto_info = StartText(lambda: self._auto_text(self.c.lang))
        self.message = StartText(lambda: self._message)
        self.results_html = StartText(lambda: _table_text(self._results_part(self.c.lang)))
        self.records_html = StartText(lambda: _table_text(self._records_part(self.c.lang)))
        self.refresh()

    def changed(self) -> None:
        self.on_change()

    def _error(self, text: Any) -> None:
        self._message = str(text)
        self.changed()

    # ------------------------------------------------------------ what is shown
    def refresh(self, _: Any = None) -> None:
        """Re-read the save directory (cheap: unchanged files are not replayed)."""
        self._auto = self.store.autosave_info()
        self._slots = list(self.store.slots())
        try:
            self._records = self.store.records()
        except ConquestError as exc:
            self._records = str(exc)
        if self._results is not None:
            self.show_results()
            return
        self.changed()

    def _slot_text(self, n: int) -> str:
        return slot_text(self._slots[n - 1], self.c.lang) if len(self._slots) >= n else ""

    def _auto_text(self, lang: str) -> str:
        auto = self._auto
        if auto is None or auto.status == "empty":
            return ""
        if auto.is_over:
            return t("auto_finished", lang)
        return t("autosave_label", lang) + slot_text(auto, lang)

    def enabled(self, target: str) -> bool:
        """Is ``target`` offered in the page now?"""
        auto = self._auto
        playable = auto is not None and auto.status == "used" and auto.game == "japan_conquest"
        if target == "continue":  # a finished game is not continued: its result is in Previous Results
            return playable and not bool(auto and auto.is_over)
        if target == "replay-autosave":  # ... but it is replayed, finished or not
            return playable
        if target in ("yes", "no"):
            return self.confirm.shown
        if target in ("results", "data"):
            return True
        kind, _, n = target.rpartition("-")
        if not n.isdigit() or not 1 <= int(n) <= len(self._slots):
            return False
        info = self._slots[int(n) - 1]
        if kind in ("resume", "replay"):
            return info.status == "used" and info.game == "japan_conquest"
        return kind == "delete" and info.status != "empty"

    def label(self, target: str) -> str:
        key = {"continue": "continue", "results": "previous_results", "data": "save_data", "yes": "yes", "no": "no"}
        return t(key.get(target) or target.rpartition("-")[0], self.c.lang)

    def act(self, target: str) -> None:
        """Do what ``target``'s button does."""
        c = self.c
        if target == "continue":
            self.continue_last()
        elif target == "replay-autosave":
            self.replay(None)
        elif target == "results":
            self.show_results()
        elif target == "data":
            c.screen = "saves"
        elif target in ("yes", "no"):
            self.confirm.answer(target == "yes")
        else:
            kind, _, text = target.rpartition("-")
            n = int(text)
            if kind == "resume":
                self.resume(n)
            elif kind == "replay":
                self.replay(n)
            elif kind == "delete":
                self.confirm.ask(t("confirm_delete", c.lang, n=n), lambda: self.delete(n))

    def draw(self, lang: str) -> dict[str, Any]:
        """The entries' keys of the start screen's scene (see :class:`StartScreen`)."""
        scene: dict[str, Any] = {
            "au": [self.enabled("continue"), self.enabled("replay-autosave"), self._auto_text(lang)],
            "cf": self.confirm.question, "ms": self._message,
            "rs": self._results_part(lang), "rc": self._records_part(lang),
        }
        for n in range(1, len(self._slots) + 1):
            scene[f"s{n}"] = [self._slot_text(n), self.enabled(f"resume-{n}"), self.enabled(f"delete-{n}")]
        return scene

    def _records_part(self, lang: str) -> Any:
        records = self._records
        if isinstance(records, str):
            return {"e": records}
        if not records:
            return 0
        rows = [[f"{t(k.split(':')[0], lang)} · {t(k.split(':')[1], lang)}",
                 t("wld", lang, w=v["wins"], l=v["losses"], d=v["draws"])] for k, v in sorted(records.items())]
        return {"t": t("records", lang), "h": [t("records_opponent", lang), t("records_result", lang)], "r": rows,
                "n": t("records_note", lang)}

    def _results_part(self, lang: str) -> Any:
        results = self._results
        if results is None:
            return 0
        if not results:
            return {"e": t("no_results", lang)}
        tables = []
        for entry in results[: self.MAX_RESULTS]:
            # a name and its CPU mark apart: a long name is cut in the page, never the mark
            rows = [[str(r["rank"]), [r["name"], t("cpu_mark", lang) if r["cpu"] else ""], str(r["score"])]
                    for r in entry["standings"]]
            tables.append({"t": t("results", lang), "s": f" · {_date(entry['recorded_at'])} · {t(entry['mode'], lang)}",
                           "h": [t("rank", lang), t("players", lang), t("score", lang)], "r": rows})
        more = len(results) - self.MAX_RESULTS
        return {"b": tables, "m": t("more_results", lang, n=more) if more > 0 else ""}

    # ------------------------------------------------------------ actions
    def continue_last(self) -> None:
        # the version is taken before reading: a write by another page in between makes
        # this page's first autosave a refused one, never a silent overwrite (issue 31)
        self.read_claim = AutosaveClaim(self.store, "japan_conquest")
        try:
            game = self.store.load_autosave(game="japan_conquest")  # another game's: a clear error
        except ConquestError as exc:
            self.read_claim = None
            self._error(exc)
            return
        if game is None:
            self.read_claim = None
        else:
            self._error("")
            self.c.load_game(game)

    def resume(self, n: int) -> None:
        try:
            game = self.store.load_slot(n, game="japan_conquest")
        except ConquestError as exc:
            self._error(exc)
            return
        self._error("")
        self.c.load_game(game)

    def replay(self, n: int | None) -> None:
        """Replay the autosave (``n`` None) or slot ``n``: load it (nothing is written,
        the autosave is not claimed) and hand it to :attr:`on_replay`.  A file that cannot
        be loaded, or a replay that cannot be opened, is reported here and changes nothing."""
        lang = self.c.lang
        try:
            match = self.store.load_autosave(game="japan_conquest") if n is None else self.store.load_slot(n, game="japan_conquest")
            if match is None:
                self._error(t("replay_nothing", lang))
                return
            self.on_replay(match, n)
        except ConquestError as exc:
            self._error(t("replay_failed", lang, error=exc))
            return
        self._error("")

    def delete(self, n: int) -> None:
        try:
            self.store.delete_slot(n)
        except ConquestError as exc:
            self._message = str(exc)
        self.refresh()

    def show_results(self) -> None:
        """Previous Results: the recorded games, latest first (at most :attr:`MAX_RESULTS`)."""
        try:
            self._results = self.store.results("japan_conquest")
        except ConquestError as exc:
            self._error(exc)
            return
        self.changed()


def _table_text(part: Any) -> str:
    """A results or records part of the scene as the page shows it, one line per row (cells
    joined by tabs)."""
    if not part:
        return ""
    if "e" in part:
        return part["e"]
    lines: list[str] = []
    for table in part.get("b", [part]):
        rows = ["\t".join(x if isinstance(x, str) else "".join(x) for x in row) for row in table["r"]]
        lines += [table["t"] + table.get("s", ""), "\t".join(table["h"]), *rows]
    return "\n".join([*lines, *[x for x in (part.get("m"), part.get("n")) if x]])


class StartScreen(SceneWidget):
    """The start screen drawn in the page by one widget (see the module docstring): the
    title, New Game (the setup form), Watch 4 CPUs (issue 16), and the entries of ``saves``
    (a :class:`StartSaves`; None without a save store).

    Keys of the scene: ``L`` the buttons' labels; ``ti`` the title; with saves ``au``
    [Continue enabled, the autosave's Replay enabled, the autosave's line], ``s<n>`` slot n
    [line, Resume and Replay enabled, Delete enabled], ``cf`` the question before a delete
    ("": none), ``ms`` the last problem ("": none), ``rs`` Previous Results (0: not pressed;
    ``{"e": text}`` or ``{"b": [{"t", "s", "h", "r"}...], "m": more}``) and ``rc`` the records
    against CPUs (0: none; ``{"e": problem}`` or ``{"t", "h", "r", "n"}``).  A click comes back
    as ``{"click": target}``: ``new-game``, ``watch``, ``continue``, ``replay-autosave``,
    ``resume-<n>``, ``replay-<n>``, ``delete-<n>``, ``yes``, ``no``, ``results``, ``data``; the
    page's buttons have the classes ``cw-<target>``.

    >>> s = StartScreen(GameController())
    >>> s.new_button.description, sorted(s.scene), s.click("continue")
    ('New Game', ['L', 'n', 'ti'], False)
    >>> s.click("new-game"), s.c.screen
    (True, 'setup')
    """

    _esm = SceneWidget.page_module(_HERE / "start_screen.js")
    _css = page_file(_HERE / "start_screen.css")

    def __init__(self, c: GameController, saves: StartSaves | None = None, **kwargs: Any) -> None:
        self.c, self.saves = c, saves
        kwargs.setdefault("layout", shared_layout())
        super().__init__(**kwargs)
        self.add_class("cw-start-screen")
        self.new_button = StartButton(self, "new-game")
        self.watch_button = StartButton(self, "watch")  # the one-click demo (issue 16)
        if saves is not None:
            saves.on_change = self._changed
        c.observe(self._changed, names="lang")

    def _changed(self, _change: Any = None) -> None:
        if self.comm is None:  # closed (close_tree closes it without close()): stop drawing
            self.c.unobserve(self._changed, names="lang")
            if self.saves is not None:
                self.saves.on_change = lambda: None
            return
        self.redraw()

    def draw_scene(self) -> dict[str, Any]:
        lang = self.c.lang
        scene: dict[str, Any] = {"L": {k: t(k, lang) for k in LABELS}, "ti": t("title", lang)}
        if self.saves is not None:
            scene.update(self.saves.draw(lang))
        return scene

    def enabled(self, target: str) -> bool:
        if target in ("new-game", "watch"):
            return True
        return self.saves is not None and self.saves.enabled(target)

    def label(self, target: str) -> str:
        if target in ("new-game", "watch"):
            return t("new_game" if target == "new-game" else "watch_cpus", self.c.lang)
        return self.saves.label(target) if self.saves is not None else ""

    def act(self, target: str) -> None:
        if target == "new-game":
            self.c.screen = "setup"
        elif target == "watch":
            self.c.watch_cpus()
        elif self.saves is not None:
            self.saves.act(target)

    def shown(self) -> list[str]:
        """The buttons the page shows now (their targets, in page order)."""
        targets = ["new-game", "watch"]
        saves = self.saves
        if saves is not None:
            targets += ["continue", "replay-autosave"]
            for n in range(1, len(saves.slot_rows) + 1):
                targets += [f"resume-{n}", f"replay-{n}", f"delete-{n}"]
            targets += ["yes", "no"] if saves.confirm.shown else []
            targets += ["results", "data"]
        return targets

    def click(self, target: str) -> bool:
        """A click in the page on ``target`` (ignored unless the scene offers it now)."""
        if not self.enabled(target):
            return False
        self.act(target)
        return True
