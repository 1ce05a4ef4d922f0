"""The shell's New game form's page module (``conquest_widget/ui/setup_form.js``) run in
Node.js with a minimal DOM (``tests/page/run_form.mjs``, no browser): what the page shows and
what it sends the kernel as a player fills the form in and presses Start.  Skipped where
Node.js is missing (a failure in CI, as tests/test_page_files.py)."""

from __future__ import annotations

from pathlib import Path

from page_runner import run_form

from conquest_widget.games.conquest_cards.widget import UI
from conquest_widget.ui.game_ui import HUMAN
from conquest_widget.ui.setup_form import SetupForm


def seat(i: int, tag: str) -> dict:
    return {"cls": f"cw-seat-{i}", "tag": tag}


def test_start_sends_the_values_the_page_shows_and_the_kernel_starts_with_them(tmp_path: Path) -> None:
    """A seat picked as Human plays as Human: the page's Start carries what it shows, even
    when a kernel update of the values arrived between two edits (the page then shows the
    kernel's values, and the player's later pick is what Start sends)."""
    started: list[tuple[int, list[str]]] = []
    form = SetupForm(UI, players=range(2, 7), bots=["easy", "normal"], default_bot="normal", lang="en",
                     on_start=lambda: started.append((form.n_players.value, [k.value for _n, k in form.seat_rows])))
    watch = [{"cls": "cw-n-players", "tag": "select"}, seat(1, "input"), seat(1, "select"), seat(2, "select")]
    steps = [
        {"pick": [watch[0], "2"]},
        {"type": [watch[1], "<b>Yui</b>"]},
        {"kernel": {"values": form.values}},  # an older update of the kernel's reaches the page
        {"pick": [watch[2], "Human"]},
        {"press": {"cls": "cw-start"}},
    ]
    shown, sent = run_form(form, {"desc": form.desc, "values": form.values}, watch, steps, tmp_path)
    assert shown[1][0]["picked"] == "2" and not shown[1][3]["visible"]  # two players: the third seat is hidden
    assert shown[2][1]["value"] == "<b>Yui</b>"  # a name is an input's value, never markup
    assert shown[3][0]["picked"] == "3" and shown[3][1]["value"] == form.values["names"][1]  # what the kernel said
    assert shown[4][2]["picked"] == "Human" and shown[5] == shown[4]
    start = sent[-1]["custom"]
    assert start["click"] == "start" and start["values"]["kinds"][:2] == [HUMAN, HUMAN]
    # the kernel gets the edits' messages, say the last one lost, then Start with its values
    for message in sent[:-2]:
        form.set_state({"values": message["save"]})
    assert form.seat_rows[1][1].value != HUMAN
    form._on_page_msg(form, start, [])
    assert started == [(3, [HUMAN, HUMAN, "normal", "normal", "normal", "normal"])]


def test_back_sends_no_values(tmp_path: Path) -> None:
    backs: list[bool] = []
    form = SetupForm(UI, players=range(2, 7), bots=["easy"], default_bot="easy", on_back=lambda: backs.append(True))
    _shown, sent = run_form(form, {"desc": form.desc, "values": form.values}, [], [{"press": {"cls": "cw-back"}}],
                            tmp_path)
    assert sent == [{"custom": {"click": "back"}}]
    form._on_page_msg(form, sent[0]["custom"], [])
    assert backs == [True]
