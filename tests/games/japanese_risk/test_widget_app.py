"""Japanese Risk in the shared app (MatchApp) in a kernel: from the setup form to the
results by clicks, the autosave resumes with the same CPU seats."""

from __future__ import annotations

import random

import ipywidgets as W
import pytest

from conquest_widget.core import registry
from conquest_widget.games.japanese_risk.widget import App

from .test_widget import play_by_clicks, press, secrets_leaked


@pytest.fixture(autouse=True)
def _fresh_widgets():
    W.Widget.close_all()
    yield
    W.Widget.close_all()


def start(app: App, *, seed: int, limit: int, level: str = "easy") -> None:
    app.new_game()
    app.n_players.value = 2
    app.seat_rows[1][1].value = level
    app.option_widgets["round_limit"].value = limit
    app.speed.value = "instant"
    app.seed.value = str(seed)
    app.start()
    assert app.screen == "play", app.message.value


def test_spec_names_the_app() -> None:
    spec = registry.get("japanese_risk")
    assert spec.playable and spec.load(spec.widget) is App


def test_from_the_form_to_the_results_by_clicks(tmp_path) -> None:
    app = App(save_dir=tmp_path)
    start(app, seed=5, limit=2)
    play_by_clicks(app.controller, app.board, random.Random(5))
    assert app.screen == "results"
    results = app.store.results()
    assert len(results) == 1
    rows = results[0]["standings"]
    assert [(r["name"], r["cpu"]) for r in sorted(rows, key=lambda r: r["seat"])] == [("Ann", False), ("Ben", True)]
    assert "cw-risk-results" in app.body.children[0].value


def test_resume_keeps_the_cpu_seats(tmp_path) -> None:
    app = App(save_dir=tmp_path)
    start(app, seed=8, limit=6, level="hard")
    me = app.controller.view["me"]
    for _ in range(me["income_left"]):
        app.board.map.click(me["cards"][0])
    press(app.board, "cw-place-confirm")
    app.exit()
    again = App(save_dir=tmp_path)
    again.resume()
    assert again.screen == "play"
    assert again.controller.humans == frozenset({0})
    assert again.controller.view["round"] >= 1 and again.board.mode() in ("turn", "window", "commit", "income")


def test_hot_seat_in_the_app_shows_no_secret_of_the_other_player(tmp_path) -> None:
    """Two humans in the MatchApp (log included): at every cover screen and after every
    uncover, no live widget holds the other player's secrets (card armies, unrevealed
    ownership, the ninja reserve, private placements in the log)."""
    app = App(save_dir=tmp_path)
    app.new_game()
    app.n_players.value = 2
    app.seat_rows[1][1].value = "human"
    app.option_widgets["round_limit"].value = 2
    app.seed.value = "6"
    app.start()
    c = app.controller
    m = c._match  # the referee's full state (the test reads it; the board never does)
    problems: list[str] = []
    covers = 0

    def on_cover() -> None:
        nonlocal covers
        if c.cover:
            covers += 1
            assert app.log_view.cover and "cw-match-board" in app.board._dom_classes
            for p in range(2):
                problems.extend(f"cover: {x}" for x in secrets_leaked(m, p) if "owner" not in x)
        else:
            problems.extend(secrets_leaked(m, c.viewer))

    def uncover() -> None:  # hand the screen over with the app's own button
        assert app.log_view.click("uncover")

    play_by_clicks(c, app.board, random.Random(6), on_cover=on_cover, uncover=uncover)
    assert covers >= 2 and problems == []
