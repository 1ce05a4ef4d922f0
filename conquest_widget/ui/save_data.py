"""The save-data screen of every game (:class:`SaveDataScreen`: export a backup as a
download, upload one and see what it holds, restore it, delete all after a confirm) and
the small helpers the shell's screens share with it: :class:`Confirm` (an inline yes / no),
:func:`when`, :func:`slot_line`, :func:`results_html` (a list of recorded results) and
:func:`records_html` (the record against each CPU).

Every string that comes from a file (names, dates, errors, an upload's file name) is
hostile: it reaches HTML only through :func:`~conquest_widget.core.safe_text.html_text`.
A backup that cannot be restored is reported with its file named, and changes nothing.

    >>> when("2025-01-02T03:04:05+00:00")[:4], when(None), when("not a date")
    ('2025', '?', 'not a date')
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import ipywidgets as W

from conquest_widget.core.safe_text import html_text
from conquest_widget.errors import ConquestError
from conquest_widget.lean import Layout, close_tree, plain, shared_layout, shared_style
from conquest_widget.saves import SaveStore, SlotInfo
from conquest_widget.ui.text import t

#: how many results :func:`results_html` shows (the newest)
MAX_RESULTS = 20


def when(iso: str | None) -> str:
    """A saved date as ``YYYY-MM-DD HH:MM`` in local time ("?" when missing; a date that
    cannot be read as it is: the loaders refuse such dates, a screen never fails on one)."""
    if not iso:
        return "?"
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError, TypeError):
        return str(iso)


def _game_title(game: str | None, lang: str) -> str:
    from conquest_widget.core import registry

    return registry.title_of(game, lang)


def slot_line(info: SlotInfo, lang: str, *, game_shown: str | None = None) -> str:
    """One line (plain text, not escaped) describing a save slot: empty, unreadable (its
    file named), or its game (unless it is ``game_shown``), players, date and how far the
    game got.

        >>> from conquest_widget.saves.info import PlayerInfo
        >>> slot_line(SlotInfo(slot=2, status="empty", file="slot-2.json"), "en")
        'Slot 2: empty'
        >>> info = SlotInfo(slot=1, status="used", file="slot-1.json", game="codex", players=(PlayerInfo("<b>", False),))
        >>> slot_line(info, "en")
        'Slot 1: The Codex of Conquest: <b> (?)'
        >>> from dataclasses import replace
        >>> slot_line(replace(info, turn=3, turns=10), "en", game_shown="codex")
        'Slot 1: <b> (?), turn 3 of 10'
        >>> slot_line(SlotInfo(slot=4, status="corrupt", file="slot-4.json", error="not JSON"), "en")
        'Slot 4: slot-4.json is unreadable (not JSON)'
    """
    n = info.slot if info.slot is not None else "-"
    if info.status == "empty":
        return t("slot_empty", lang, n=n)
    if info.status != "used":
        return t("slot_bad", lang, n=n, file=info.file, error=(info.error or "?")[:200])
    players = ", ".join(info.player_names)
    if info.game == game_shown:
        line = t("slot_used", lang, n=n, players=players, when=when(info.saved_at))
    else:
        line = t("slot_game", lang, n=n, game=_game_title(info.game, lang), players=players, when=when(info.saved_at))
    if info.is_over:
        return line + t("slot_over", lang)
    if info.turn is not None and info.turns is not None:
        return line + t("slot_turn", lang, turn=info.turn, turns=info.turns)
    return line


def results_html(results: Sequence[dict[str, Any]], lang: str, limit: int = MAX_RESULTS) -> str:
    """The newest ``limit`` results (latest first, as :meth:`SaveStore.results` gives them):
    each with its date, winners and standings, then how many more there are."""
    if not results:
        return f"<p class='cw-no-results'>{html_text(t('no_results', lang))}</p>"
    items = []
    for entry in results[:limit]:
        winners = ", ".join(str(w) for w in entry.get("winners") or ())
        standings = ", ".join(
            f"{r.get('rank')}. {r.get('name')}" + (" (CPU)" if r.get("cpu") else "")
            + (f" {r['score']}" if r.get("score") is not None else "")
            for r in entry.get("standings") or ())
        head = t("result_line", lang, when=when(entry.get("recorded_at")), names=winners)
        items.append(f"<li><b>{html_text(head)}</b><br><span class='cw-standings'>{html_text(standings)}</span></li>")
    more = len(results) - limit
    tail = f"<p class='cw-more-results'>{html_text(t('more_results', lang, n=more))}</p>" if more > 0 else ""
    return f"<ol class='cw-previous-results'>{''.join(items)}</ol>{tail}"


def records_html(records: Mapping[str, Mapping[str, int]], lang: str,
                 cpu_label: Callable[[str, str], str] | None = None) -> str:
    """The human players' record against each CPU (``SaveStore.records(game)``: wins,
    losses, draws per CPU label, named by ``cpu_label(label, lang)``); "" when there is none.

        >>> records_html({"hard": {"wins": 2, "losses": 1, "draws": 0}}, "en")  # doctest: +ELLIPSIS
        "<h4 class='cw-records-title'>Records against CPUs</h4>...<td>hard</td><td>2 W / 1 L / 0 D</td>..."
    """
    if not records:
        return ""
    name = cpu_label or (lambda label, _lang: label)
    rows = "".join(
        f"<tr><td>{html_text(name(label, lang))}</td>"
        f"<td>{html_text(t('wld', lang, w=v.get('wins', 0), l=v.get('losses', 0), d=v.get('draws', 0)))}</td></tr>"
        for label, v in sorted(records.items()))
    return (f"<h4 class='cw-records-title'>{html_text(t('records', lang))}</h4>"
            f"<table class='cw-records'><tr><th>{html_text(t('records_opponent', lang))}</th>"
            f"<th>{html_text(t('records_result', lang))}</th></tr>{rows}</table>"
            f"<p class='cw-records-note'><small>{html_text(t('records_note', lang))}</small></p>")


def _problem(text: str) -> str:
    return f'<div class="cw-msg" style="color:#b00020">{html_text(text)}</div>'


class Confirm(W.HBox):
    """An inline "Are you sure?" with Yes / No (hidden until :meth:`ask`)."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.text = plain(W.HTML)
        self.yes = W.Button(layout=shared_layout(width="auto"), style=shared_style(W.Button), button_style="danger")
        self.no = W.Button(layout=shared_layout(width="auto"), style=shared_style(W.Button))
        self.yes.add_class("cw-confirm-yes")
        self.no.add_class("cw-confirm-no")
        self._action: Callable[[], None] | None = None
        self.yes.on_click(lambda _: self.answer(True))
        self.no.on_click(lambda _: self.answer(False))
        super().__init__([self.text, self.yes, self.no], layout=Layout(display="none"))
        self.add_class("cw-confirm")
        self.set_lang(lang)

    @property
    def shown(self) -> bool:
        return self.layout.display != "none"

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.yes.description, self.no.description = t("yes", lang), t("no", lang)

    def ask(self, question: str, lang: str | None = None, action: Callable[[], None] | None = None) -> None:
        """Show ``question`` (plain text); Yes calls ``action``, No only hides it."""
        if lang is not None:
            self.set_lang(lang)
        self.text.value = f"<b>{html_text(question)}</b>&nbsp;"
        self._action = action
        self.layout.display = ""

    def answer(self, yes: bool) -> None:
        action, self._action = self._action, None
        self.layout.display = "none"
        if yes and action is not None:
            action()


class SaveDataScreen(W.VBox):
    """Save data: export a backup (a download link, no server needed), upload a backup and
    see what it holds, restore it, delete all save data (after a confirm).  ``on_back``:
    the Back button's action (no Back button without one).  Every problem the store
    reports is shown, never hidden; a backup that cannot be restored changes nothing."""

    def __init__(self, store: SaveStore, *, lang: str = "en", on_back: Callable[[], None] | None = None) -> None:
        self.store, self.lang = store, lang
        self.title = plain(W.HTML)
        self.export_button = self._button("cw-export", self.export)
        self.export_link = plain(W.HTML)
        self.upload_label = plain(W.HTML)
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False)
        self.upload.add_class("cw-upload")
        self.summary = plain(W.HTML)
        self.summary.add_class("cw-backup-summary")
        # shown and hidden: its own layout
        self.restore_button = W.Button(layout=Layout(width="auto", display="none"), style=shared_style(W.Button),
                                       button_style="warning")
        self.restore_button.add_class("cw-restore")
        self.restore_button.on_click(lambda _: self.restore())
        self.delete_button = self._button("cw-delete-all", self.ask_delete_all, button_style="danger")
        self.confirm = Confirm(lang)
        self.message = plain(W.HTML)
        self.message.add_class("cw-data-message")
        self.back_button = self._button("cw-back", on_back) if on_back is not None else None
        self._pending: bytes | None = None
        self._pending_name = ""
        self.upload.observe(self._uploaded, names="value")
        children = [self.title, plain(W.HBox, children=[self.export_button, self.export_link]), self.upload_label,
                    self.upload, self.summary, self.restore_button, self.delete_button, self.confirm, self.message]
        if self.back_button is not None:
            children.append(self.back_button)
        super().__init__(children, layout=shared_layout())
        self.add_class("cw-save-data-screen")
        self.relabel()

    @staticmethod
    def _button(cls: str, action: Callable[[], None], **kw: Any) -> W.Button:
        b = W.Button(layout=shared_layout(width="auto"), style=shared_style(W.Button), **kw)
        b.add_class(cls)
        b.on_click(lambda _b: action())
        return b

    def close(self) -> None:
        """Close the screen with every widget of it."""
        if self.comm is None:
            return  # closed already
        close_tree(self)

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.relabel()

    def relabel(self, _: Any = None) -> None:
        lang = self.lang
        self.title.value = f"<h3>{html_text(t('save_data', lang))}</h3>"
        self.export_button.description = t("export", lang)
        self.upload_label.value = html_text(t("restore_from", lang))
        self.restore_button.description = t("restore_confirm", lang)
        self.delete_button.description = t("delete_all", lang)
        self.confirm.set_lang(lang)
        if self.back_button is not None:
            self.back_button.description = t("back", lang)

    def slot_line(self, info: SlotInfo) -> str:
        """A slot of an uploaded backup, as one line of plain text (a game may say more)."""
        return slot_line(info, self.lang)

    # ------------------------------------------------------------ actions
    def export(self) -> dict[str, Any]:
        """Build the backup and offer it as a download link (a data: URL)."""
        try:
            doc = self.store.export_backup()
        except ConquestError as exc:
            self.message.value = _problem(str(exc))
            return {}
        data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
        name = "conquest_backup_" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + ".json"
        href = "data:application/json;base64," + base64.b64encode(data).decode("ascii")
        self.export_link.value = (f'<a download="{name}" href="{href}" class="cw-download">'
                                  f'{html_text(t("download", self.lang, file=name))}</a>')
        return doc

    def _uploaded(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        content = item["content"] if isinstance(item, dict) else item.content
        name = item.get("name", "") if isinstance(item, dict) else getattr(item, "name", "")
        self.inspect(bytes(content), name=str(name or ""))

    def inspect(self, data: bytes, name: str = "") -> None:
        """Show what a backup holds (``name``: its file's name, given in every problem)
        before anything is replaced; Restore is offered only for a valid one."""
        lang = self.lang
        self._pending, self._pending_name = None, name
        self.restore_button.layout.display = "none"
        self.message.value = ""
        file = name or t("the_upload", lang)
        try:
            summary = self.store.inspect_backup(bytes(data))
        except ConquestError as exc:
            self.summary.value = _problem(t("bad_backup", lang, file=file, error=str(exc)[:500]))
            return
        used = sum(1 for s in summary.slots if s.status == "used")
        lines = [t("backup_summary", lang, date=when(summary.exported_at), autos=len(summary.autosaves), slots=used,
                   results=summary.results)]
        lines += [self.slot_line(s) for s in summary.slots]
        if summary.problems:
            lines.insert(0, t("bad_backup", lang, file=file, error=""))
        lines += [f"⚠ {p}" for p in summary.problems]
        body = "<br>".join(html_text(x) for x in lines)
        self.summary.value = f"<div class='cw-summary{' cw-msg' if summary.problems else ''}'>{body}</div>"
        if summary.valid:
            self._pending = bytes(data)
            self.restore_button.layout.display = ""

    def restore(self) -> None:
        """Replace the save data with the backup shown (checked again: nothing changes when
        it cannot be restored)."""
        if self._pending is None:
            return
        try:
            self.store.restore_backup(self._pending)
        except ConquestError as exc:
            file = self._pending_name or t("the_upload", self.lang)
            self.message.value = _problem(t("bad_backup", self.lang, file=file, error=str(exc)[:500]))
            return
        self._pending = None
        self.restore_button.layout.display = "none"
        self.message.value = html_text(t("restored", self.lang))

    def ask_delete_all(self) -> None:
        self.confirm.ask(t("confirm_delete_all", self.lang), self.lang, self.delete_all)

    def delete_all(self) -> None:
        try:
            self.store.delete_all(confirm=True)
        except ConquestError as exc:
            self.message.value = _problem(str(exc))
            return
        self.message.value = html_text(t("deleted", self.lang))
