"""The New game form's page module (``conquest_widget/ui/setup_form.js``) run in Node.js with
a minimal DOM (``page/run_setup_form.mjs``, no browser): what the page shows and what it
sends the kernel as a player fills the form in and presses Start.  Skipped where Node.js is
missing (a failure in CI, as tests/test_page_files.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from page_runner import node

from conquest_widget.games.conquest_cards.widget import UI
from conquest_widget.ui.game_ui import HUMAN
from conquest_widget.ui.setup_form import SetupForm

RUNNER = Path(__file__).parent / "page" / "run_setup_form.mjs"


def run_page(form: SetupForm, steps: list[dict[str, Any]], tmp_path: Path) -> tuple[list[dict], list[dict]]:
    module = tmp_path / "setup_form.mjs"
    module.write_text(form._esm, encoding="utf-8")
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"desc": form.desc, "values": form.values, "steps": steps}), encoding="utf-8")
    proc = subprocess.run([node(), str(RUNNER), str(module), str(script)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    return out["shown"], out["sent"]


def test_start_sends_the_values_the_page_shows_and_the_kernel_starts_with_them(tmp_path: Path) -> None:
    """A seat picked as Human plays as Human: the page's Start carries what it shows, even
    when a kernel update of the values arrived between two edits (the page then shows the
    kernel's values, and the player's later pick is what Start sends)."""
    started: list[tuple[int, list[str]]] = []
    form = SetupForm(UI, players=range(2, 7), bots=["easy", "normal"], default_bot="normal", lang="en",
                     on_start=lambda: started.append((form.n_players.value, [k.value for _n, k in form.seat_rows])))
    steps: list[dict[str, Any]] = [
        {"pick": ["cw-n-players", "2"]},
        {"type": ["cw-seat-1", "<b>Yui</b>"]},
        {"kernel": form.values},  # an older update of the kernel's reaches the page
        {"pick": ["cw-seat-1", "Human"]},
        {"press": "start"},
    ]
    shown, sent = run_page(form, steps, tmp_path)
    assert shown[0]["n"] == "2" and [s["hidden"] for s in shown[0]["seats"][:3]] == [False, False, True]
    assert shown[1]["seats"][1]["name"] == "<b>Yui</b>"  # a name is an input's value, never markup
    assert shown[2]["n"] == "3" and shown[2]["seats"][1]["name"] == form.values["names"][1]  # what the kernel said
    assert shown[3]["seats"][1]["kind"] == "Human" and shown[4] == shown[3]
    start = sent[-1]["custom"]
    assert start["click"] == "start" and start["values"]["kinds"][:2] == [HUMAN, HUMAN]
    # the kernel gets the messages the page sent in order; Start takes the values it carries
    for message in sent[:-1]:
        form.set_state(message)
    form.set_state({"values": sent[0]["values"]})  # say the edits' own messages came out of order
    assert form.seat_rows[1][1].value != HUMAN
    form._on_page_msg(form, start, [])
    assert started == [(3, [HUMAN, HUMAN, "normal", "normal", "normal", "normal"])]


def test_back_sends_no_values(tmp_path: Path) -> None:
    backs: list[bool] = []
    form = SetupForm(UI, players=range(2, 7), bots=["easy"], default_bot="easy", on_back=lambda: backs.append(True))
    _shown, sent = run_page(form, [{"press": "back"}], tmp_path)
    assert sent == [{"custom": {"click": "back"}}]
    form._on_page_msg(form, sent[0]["custom"], [])
    assert backs == [True]
