"""Save screens: Continue Last Game, slots, Previous Results, records against CPUs,
Save & Exit, and Save Data Management (export / restore / delete).  They call
:class:`~conquest_widget.saves.SaveStore`; every problem it reports is shown, never hidden."""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import ipywidgets as W

from conquest_widget.core import registry
from conquest_widget.errors import ConquestError
from conquest_widget.games.japan_conquest.text import t
from conquest_widget.games.japan_conquest.widget.controller import GameController
from conquest_widget.games.japan_conquest.widget.style import (
    button_layout,
    name_html,
)
from conquest_widget.lean import Layout, close_tree, plain, shared_layout, shared_style
from conquest_widget.saves import (
    SLOT_COUNT,
    AutosaveClaim,
    FileVersion,
    SaveStore,
    SlotInfo,
)


def _date(iso: str | None) -> str:
    if not iso:
        return "?"
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError):  # the loaders refuse such dates; never crash a screen on one
        return iso


def player_names(info: SlotInfo, lang: str) -> str:
    """The slot's players, CPU seats marked in the player's language.

    >>> from conquest_widget.saves.info import PlayerInfo
    >>> info = SlotInfo(slot=1, status="used", file="slot-1.json", players=(PlayerInfo("Aki", False), PlayerInfo("Ren", True)))
    >>> player_names(info, "en"), player_names(info, "ja")
    ('Aki, Ren (CPU)', 'Aki, Ren（CPU）')
    """
    return ", ".join(p.name + (t("cpu_mark", lang) if p.cpu else "") for p in info.players)


def slot_text(info: SlotInfo, lang: str) -> str:
    """One line describing a slot (or the autosave)."""
    head = t("slot", lang, n=info.slot) + ": " if info.slot is not None else ""
    if info.status == "empty":
        return head + t("empty", lang)
    if info.status in ("corrupt", "unreadable"):
        return head + t("corrupt", lang, error=info.error or "?")
    if info.game not in (None, "japan_conquest"):  # another game's save in the same folder
        return head + f"{registry.title_of(info.game, lang)}: " + player_names(info, lang)
    mode = t(info.mode or "standard", lang)
    return head + t("slot_line", lang, date=_date(info.saved_at), mode=mode, turn=info.turn, players=player_names(info, lang))


class Confirm(W.HBox):
    """An inline "Are you sure?" with Yes / No."""

    def __init__(self) -> None:
        self.text = plain(W.HTML)
        self.yes = W.Button(layout=button_layout(), style=shared_style(W.Button), button_style="danger")
        self.no = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self._action: Callable[[], None] | None = None
        self.yes.on_click(lambda _: self._answer(True))
        self.no.on_click(lambda _: self._answer(False))
        super().__init__([self.text, self.yes, self.no], layout=Layout(display="none"))

    def ask(self, question: str, lang: str, action: Callable[[], None]) -> None:
        self.text.value = f"<b>{html.escape(question)}</b>&nbsp;"
        self.yes.description, self.no.description = t("yes", lang), t("no", lang)
        self._action = action
        self.layout.display = ""

    def _answer(self, yes: bool) -> None:
        action, self._action = self._action, None
        self.layout.display = "none"
        if yes and action is not None:
            action()


class StartSaves(W.VBox):
    """The start screen's save entries.  Replay (the autosave's and each slot's) loads the
    game and hands it to ``on_replay(match, slot)`` (slot None: the autosave), which the app
    sets to open its replay screen."""

    def __init__(self, c: GameController, store: SaveStore) -> None:
        self.c, self.store = c, store
        #: Continue's reading of the autosave, for this page's claim on it (app._claim_autosave)
        self.read_version: FileVersion = None
        self.read_autosave = False
        self.continue_button = W.Button(layout=button_layout(), style=shared_style(W.Button), button_style="success")
        self.continue_button.on_click(lambda _: self.continue_last())
        self.auto_info = plain(W.HTML)
        #: called with a loaded match and its slot (None: the autosave) by the Replay buttons
        self.on_replay: Callable[[Any, int | None], None] = lambda match, slot: None
        self.replay_auto_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.replay_auto_button.add_class("cw-replay-autosave")
        self.replay_auto_button.on_click(lambda _: self.replay(None))
        self.slot_rows: list[tuple[W.HTML, W.Button, W.Button]] = []
        #: each slot's Replay button, in slot order (beside its Resume)
        self.replay_buttons: list[W.Button] = []
        rows = []
        for n in range(1, SLOT_COUNT + 1):
            label, resume, delete = plain(W.HTML), W.Button(layout=button_layout(), style=shared_style(W.Button)), W.Button(layout=button_layout(), style=shared_style(W.Button))
            replay = W.Button(layout=button_layout(), style=shared_style(W.Button))
            resume.on_click(lambda _, n=n: self.resume(n))
            replay.on_click(lambda _, n=n: self.replay(n))
            delete.on_click(lambda _, n=n: self.confirm.ask(t("confirm_delete", self.c.lang, n=n), self.c.lang, lambda n=n: self.delete(n)))
            resume.add_class(f"cw-resume-{n}")
            replay.add_class(f"cw-replay-{n}")
            delete.add_class(f"cw-delete-{n}")
            self.slot_rows.append((label, resume, delete))
            self.replay_buttons.append(replay)
            rows.append(plain(W.HBox, children=[resume, replay, delete, label]))
        self.confirm = Confirm()
        self.results_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.results_button.on_click(lambda _: self.show_results())
        self.results_html = plain(W.HTML)
        self.records_html = plain(W.HTML)
        self.data_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.data_button.on_click(lambda _: setattr(c, "screen", "saves"))
        self.message = plain(W.HTML)
        super().__init__([
            plain(W.HBox, children=[self.continue_button, self.replay_auto_button, self.auto_info]), *rows, self.confirm,
            plain(W.HBox, children=[self.results_button, self.data_button]), self.results_html, self.records_html, self.message,
        ], layout=shared_layout())
        c.observe(self.refresh, names=["lang", "screen"])
        self.refresh()

    def _error(self, exc: Exception) -> None:
        self.message.value = f'<div class="cw-msg">{html.escape(str(exc))}</div>'

    def refresh(self, _: Any = None) -> None:
        """Re-read the save directory (cheap: unchanged files are not replayed)."""
        lang = self.c.lang
        self.continue_button.description = t("continue", lang)
        self.results_button.description = t("previous_results", lang)
        self.data_button.description = t("save_data", lang)
        auto = self.store.autosave_info()
        # a finished game is not continued: its result is in Previous Results (issue 16)
        self.continue_button.disabled = auto.status != "used" or auto.game != "japan_conquest" or bool(auto.is_over)
        # ... but it is replayed, finished or not (a finished game hides nothing)
        self.replay_auto_button.disabled = auto.status != "used" or auto.game != "japan_conquest"
        for button in (self.replay_auto_button, *self.replay_buttons):
            button.description, button.tooltip = t("replay", lang), t("replay_tip", lang)
        if auto.status == "empty":
            self.auto_info.value = ""
        elif auto.is_over:
            self.auto_info.value = html.escape(t("auto_finished", lang))
        else:
            self.auto_info.value = html.escape(t("autosave_label", lang) + slot_text(auto, lang))
        for info, (label, resume, delete) in zip(self.store.slots(), self.slot_rows, strict=True):
            label.value = html.escape(slot_text(info, lang))
            resume.description, delete.description = t("resume", lang), t("delete", lang)
            resume.disabled = info.status != "used" or info.game != "japan_conquest"
            self.replay_buttons[info.slot - 1].disabled = resume.disabled
            delete.disabled = info.status == "empty"
        self.records_html.value = self._records_html(lang)
        if self.results_html.value:
            self.show_results()

    def _records_html(self, lang: str) -> str:
        try:
            records = self.store.records()
        except ConquestError as exc:
            return f'<div class="cw-msg">{html.escape(str(exc))}</div>'
        if not records:
            return ""
        rows = "".join(
            f"<tr><td>{t(k.split(':')[0], lang)} · {t(k.split(':')[1], lang)}</td>"
            f"<td>{t('wld', lang, w=v['wins'], l=v['losses'], d=v['draws'])}</td></tr>"
            for k, v in sorted(records.items())
        )
        head = f"<tr><th>{t('records_opponent', lang)}</th><th>{t('records_result', lang)}</th></tr>"
        return (f"<div class='cw-score cw-records'><b>{t('records', lang)}</b><table>{head}{rows}</table>"
                f"<i>{html.escape(t('records_note', lang))}</i></div>")

    def continue_last(self) -> None:
        # the version is taken before reading: a write by another page in between makes
        # this page's first autosave a refused one, never a silent overwrite (issue 31)
        self.read_version: FileVersion = self.store.autosave_version("japan_conquest")
        self.read_autosave = True
        try:
            game = self.store.load_autosave(game="japan_conquest")  # another game's: a clear error
        except ConquestError as exc:
            self.read_autosave = False
            self._error(exc)
            return
        if game is not None:
            self.message.value = ""
            self.c.load_game(game)

    def resume(self, n: int) -> None:
        try:
            game = self.store.load_slot(n, game="japan_conquest")
        except ConquestError as exc:
            self._error(exc)
            return
        self.message.value = ""
        self.c.load_game(game)

    def replay(self, n: int | None) -> None:
        """Replay the autosave (``n`` None) or slot ``n``: load it (nothing is written,
        the autosave is not claimed) and hand it to :attr:`on_replay`.  A file that cannot
        be loaded, or a replay that cannot be opened, is reported here and changes nothing."""
        lang = self.c.lang
        try:
            match = self.store.load_autosave(game="japan_conquest") if n is None else self.store.load_slot(n, game="japan_conquest")
            if match is None:
                self.message.value = f'<div class="cw-msg">{html.escape(t("replay_nothing", lang))}</div>'
                return
            self.on_replay(match, n)
        except ConquestError as exc:
            self.message.value = f'<div class="cw-msg">{html.escape(t("replay_failed", lang, error=exc))}</div>'
            return
        self.message.value = ""

    def delete(self, n: int) -> None:
        try:
            self.store.delete_slot(n)
        except ConquestError as exc:
            self._error(exc)
        self.refresh()

    MAX_RESULTS = 10

    def show_results(self) -> None:
        """Previous Results: the recorded games, latest first (at most :attr:`MAX_RESULTS`)."""
        lang = self.c.lang
        try:
            results = self.store.results("japan_conquest")
        except ConquestError as exc:
            self._error(exc)
            return
        if not results:
            self.results_html.value = f"<i>{t('no_results', lang)}</i>"
            return
        blocks = []
        for entry in results[: self.MAX_RESULTS]:
            rows = "".join(
                f"<tr><td>{r['rank']}</td><td>{name_html(r['name'])}{t('cpu_mark', lang) if r['cpu'] else ''}</td><td>{r['score']}</td></tr>"
                for r in entry["standings"]
            )
            mode = t(entry["mode"], lang)
            blocks.append(
                f"<div class='cw-score cw-previous'><b>{t('results', lang)}</b> · {_date(entry['recorded_at'])} · {mode}"
                f"<table><tr><th>{t('rank', lang)}</th><th>{t('players', lang)}</th><th>{t('score', lang)}</th></tr>{rows}</table></div>"
            )
        more = len(results) - self.MAX_RESULTS
        tail = f"<i>{html.escape(t('more_results', lang, n=more))}</i>" if more > 0 else ""
        self.results_html.value = "<div class='cw-results-list'>" + "".join(blocks) + tail + "</div>"


class SaveExit(W.VBox):
    """Save & Exit (into a slot, asking before overwriting) and Exit Without Saving."""

    def __init__(self, c: GameController, store: SaveStore) -> None:
        self.c, self.store = c, store
        #: the slot this app last saved to (the chooser's default next time)
        self._saved_to: int | None = None
        self.save_exit_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.exit_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.slot = W.Dropdown(options=[(str(n), n) for n in range(1, SLOT_COUNT + 1)], value=1, layout=shared_layout(width="auto"),
                                style=shared_style(W.Dropdown))
        self.save_button = W.Button(layout=button_layout(), style=shared_style(W.Button), button_style="primary")
        self.cancel_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.chooser = W.HBox([self.slot, self.save_button, self.cancel_button], layout=Layout(display="none"))
        self.confirm = Confirm()
        self.message = plain(W.HTML)
        self.save_exit_button.on_click(lambda _: self.show_slots())
        self.exit_button.on_click(lambda _: self.exit())
        self.save_button.on_click(lambda _: self.save())
        self.cancel_button.on_click(lambda _: setattr(self.chooser.layout, "display", "none"))
        #: this page's claim on the autosave (set by the app for each game shown)
        self.claim: AutosaveClaim | None = None
        #: called after "Autosave this game here" reclaimed the autosave (the app writes it)
        self.on_reclaim: Callable[[], None] = lambda: None
        self.elsewhere_text = plain(W.HTML)
        self.autosave_here_button = W.Button(layout=button_layout(), style=shared_style(W.Button), button_style="warning")
        self.autosave_here_button.add_class("cw-autosave-here")
        self.autosave_here_button.on_click(lambda _: self.autosave_here())
        self.elsewhere = W.HBox([self.elsewhere_text, self.autosave_here_button], layout=Layout(display="none"))
        self.elsewhere.add_class("cw-elsewhere")
        super().__init__([plain(W.HBox, children=[self.save_exit_button, self.exit_button]), self.chooser, self.confirm,
                          self.elsewhere, self.message],
                         layout=shared_layout())
        c.observe(self.relabel, names="lang")
        self.relabel()

    def relabel(self, _: Any = None) -> None:
        lang = self.c.lang
        self.save_exit_button.description = t("save_exit", lang)
        self.exit_button.description = t("exit_no_save", lang)
        self.exit_button.tooltip = t("exit_no_save_tip", lang)  # what happens to the autosave (issue 16)
        self.save_button.description = t("save", lang)
        self.cancel_button.description = t("cancel", lang)
        self.elsewhere_text.value = f"<b>{html.escape(t('autosave_elsewhere', lang))}</b>"
        self.autosave_here_button.description = t("autosave_here", lang)

    def show_elsewhere(self, shown: bool) -> None:
        """Show (or hide) that another page of this save folder holds the autosave now."""
        self.elsewhere.layout.display = "" if shown else "none"

    def autosave_here(self) -> None:
        """Make this page's game the autosave again (the other page is told at its next
        move in turn)."""
        if self.claim is None:
            return
        self.claim.reclaim()
        self.show_elsewhere(False)
        self.on_reclaim()

    def show_slots(self) -> None:
        """Show the slot chooser (each slot with what it holds), on the slot this game was
        last saved to, else the first empty one, else the first holding Japan Conquest."""
        lang = self.c.lang
        slots = self.store.slots()
        self.slot.options = [(slot_text(info, lang), info.slot) for info in slots]
        self.slot.value = self._saved_to or next(
            (i.slot for i in slots if i.status == "empty"),
            next((i.slot for i in slots if i.status == "used" and i.game == "japan_conquest"), 1))
        self.chooser.layout.display = ""

    def save(self, overwrite: bool = False) -> None:
        n, lang = self.slot.value, self.c.lang
        if not self.c.has_game:
            return
        info = self.store.slot_info(n)
        if info.status != "empty" and not overwrite:
            if info.status == "used":
                question = t("overwrite", lang, n=n, game=registry.title_of(info.game, lang), date=_date(info.saved_at))
            else:
                question = t("overwrite_bad", lang, n=n, error=info.error or "?")
            self.confirm.ask(question, lang, lambda: self.save(overwrite=True))
            return
        try:
            self.c.save(self.store, n, overwrite=overwrite)
        except ConquestError as exc:
            self.message.value = f'<div class="cw-msg">{html.escape(str(exc))}</div>'
            return
        self._saved_to = n
        self.chooser.layout.display = "none"
        self.message.value = ""
        self.c.message = t("saved", lang, n=n)
        self.c.screen = "start"

    def exit(self, confirmed: bool = False) -> None:
        """Back to the start screen; the autosave stays for Continue Last Game (the
        button's tooltip and the start screen say so).  When another page holds the
        autosave, this game is saved nowhere: the player is asked first."""
        unsaved = self.claim is not None and self.claim.lost and self.c.has_game and not self.c.is_over
        if unsaved and not confirmed:
            self.confirm.ask(t("exit_unsaved", self.c.lang), self.c.lang, lambda: self.exit(confirmed=True))
            return
        self.chooser.layout.display = "none"
        self.c.screen = "start"


class DataScreen(W.VBox):
    """Save Data Management: export a backup, restore one (after showing what it holds), delete all."""

    def __init__(self, c: GameController, store: SaveStore) -> None:
        self.c, self.store = c, store
        self.title = plain(W.HTML)
        self.export_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.export_link = plain(W.HTML)
        self.upload_label = plain(W.HTML)
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False)
        self.summary = plain(W.HTML)
        self.restore_button = W.Button(layout=button_layout(own=True), button_style="warning", style=shared_style(W.Button))
        self.restore_button.layout.display = "none"
        self.delete_button = W.Button(layout=button_layout(), style=shared_style(W.Button), button_style="danger")
        self.confirm = Confirm()
        self.back_button = W.Button(layout=button_layout(), style=shared_style(W.Button))
        self.message = plain(W.HTML)
        self._pending: bytes | None = None
        self.export_button.on_click(lambda _: self.export())
        self.upload.observe(self._uploaded, names="value")
        self.restore_button.on_click(lambda _: self.restore())
        self.delete_button.on_click(lambda _: self.confirm.ask(t("confirm_delete_all", c.lang), c.lang, self.delete_all))
        self.back_button.on_click(lambda _: setattr(c, "screen", "start"))
        super().__init__([
            self.title, plain(W.HBox, children=[self.export_button, self.export_link]), self.upload_label, self.upload, self.summary,
            self.restore_button, self.delete_button, self.confirm, self.message, self.back_button,
        ])
        c.observe(self.relabel, names="lang")
        self.relabel()

    def close(self) -> None:
        """Close the screen with every widget of it (it stops following the controller)."""
        if self.comm is None:
            return  # closed already
        self.c.unobserve(self.relabel, names="lang")
        close_tree(self)

    def relabel(self, _: Any = None) -> None:
        lang = self.c.lang
        self.title.value = f"<h3>{t('save_data', lang)}</h3>"
        self.export_button.description = t("export", lang)
        self.upload_label.value = t("restore", lang)
        self.restore_button.description = t("restore_confirm", lang)
        self.delete_button.description = t("delete_all", lang)
        self.back_button.description = t("back", lang)

    def export(self) -> dict[str, Any]:
        """Build the backup and offer it as a download link (a data: URL, no server needed)."""
        doc = self.store.export_backup()
        data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
        name = "conquest_backup_" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + ".json"
        href = "data:application/json;base64," + base64.b64encode(data).decode("ascii")
        self.export_link.value = f'<a download="{name}" href="{href}" class="cw-download">{html.escape(t("download", self.c.lang, file=name))}</a>'
        return doc

    def _uploaded(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        content = item["content"] if isinstance(item, dict) else item.content
        self.inspect(bytes(content))

    def inspect(self, data: bytes) -> None:
        """Show what a backup holds before anything is replaced."""
        lang = self.c.lang
        self._pending = None
        self.restore_button.layout.display = "none"
        try:
            summary = self.store.inspect_backup(data)
        except ConquestError as exc:
            self.summary.value = f'<div class="cw-msg">{html.escape(str(exc))}</div>'
            return
        used = sum(1 for s in summary.slots if s.status == "used")
        auto = t("present", lang) if summary.autosave.status == "used" else t("absent", lang)
        lines = [t("backup_summary", lang, date=_date(summary.exported_at), auto=auto, slots=used, results=summary.results)]
        lines += [slot_text(s, lang) for s in summary.slots]
        lines += [f"⚠ {p}" for p in summary.problems]
        self.summary.value = "<div class='cw-summary'>" + "<br>".join(html.escape(x) for x in lines) + "</div>"
        if summary.valid:
            self._pending = data
            self.restore_button.layout.display = ""

    def restore(self) -> None:
        if self._pending is None:
            return
        try:
            self.store.restore_backup(self._pending)
        except ConquestError as exc:
            self.message.value = f'<div class="cw-msg">{html.escape(str(exc))}</div>'
            return
        self._pending = None
        self.restore_button.layout.display = "none"
        self.message.value = t("restored", self.c.lang)

    def delete_all(self) -> None:
        try:
            self.store.delete_all(confirm=True)
        except ConquestError as exc:
            self.message.value = f'<div class="cw-msg">{html.escape(str(exc))}</div>'
            return
        self.message.value = t("deleted", self.c.lang)
