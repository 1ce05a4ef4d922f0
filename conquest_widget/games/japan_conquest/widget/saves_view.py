"""Save screens: Save & Exit, and Save Data Management (the shell's :mod:`conquest_widget.ui.save_data`).  They call
:class:`~conquest_widget.saves.SaveStore`; every problem it reports is shown, never hidden."""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any

import ipywidgets as W

from conquest_widget.core import registry
from conquest_widget.errors import ConquestError
from conquest_widget.games.japan_conquest.text import t
from conquest_widget.games.japan_conquest.widget.controller import GameController
from conquest_widget.games.japan_conquest.widget.style import (
    button_layout,
)
from conquest_widget.lean import Layout, plain, shared_layout, shared_style
from conquest_widget.saves import (
    SLOT_COUNT,
    SaveStore,
    SlotInfo,
)
from conquest_widget.ui.autosave import Autosaver
from conquest_widget.ui.save_data import Confirm, SaveDataScreen


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


class SaveExit(W.VBox):
    """Save & Exit (into a slot, asking before overwriting) and Exit Without Saving;
    "Autosave this game here" when another page took the autosave (``autosaver``: the
    app's, holding this page's claim)."""

    def __init__(self, c: GameController, store: SaveStore, autosaver: Autosaver | None = None) -> None:
        self.c, self.store = c, store
        self.autosaver = autosaver
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
        if self.autosaver is None or self.autosaver.claim is None:
            return
        self.show_elsewhere(False)
        self.autosaver.reclaim()  # written now; refused again, it shows this again

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
        if self.autosaver is not None:
            self.autosaver.flush()  # a pending write may find that another page took the autosave
        unsaved = self.autosaver is not None and self.autosaver.lost and self.c.has_game and not self.c.is_over
        if unsaved and not confirmed:
            self.confirm.ask(t("exit_unsaved", self.c.lang), self.c.lang, lambda: self.exit(confirmed=True))
            return
        self.chooser.layout.display = "none"
        self.c.screen = "start"


class DataScreen(SaveDataScreen):
    """Save Data Management: the shell's :class:`~conquest_widget.ui.save_data.SaveDataScreen`
    following the controller's language, its Back to the start screen, each slot of a
    backup described as Japan Conquest describes it."""

    def __init__(self, c: GameController, store: SaveStore) -> None:
        self.c = c
        super().__init__(store, lang=c.lang, on_back=lambda: setattr(c, "screen", "start"))
        c.observe(self._follow_lang, names="lang")

    def _follow_lang(self, change: Any) -> None:
        self.set_lang(change["new"])

    def close(self) -> None:
        """Close the screen with every widget of it (it stops following the controller)."""
        if self.comm is None:
            return  # closed already
        self.c.unobserve(self._follow_lang, names="lang")
        super().close()

    def relabel(self, _: Any = None) -> None:
        super().relabel()
        self.title.value = f"<h3>{html.escape(t('save_data', self.lang))}</h3>"  # as its button says

    def slot_line(self, info: SlotInfo) -> str:
        return slot_text(info, self.lang)
