"""Issue 32: every widget a screen makes is closed when the screen goes away.  A player
plays 8 rounds of each game as at the page (tests/ui/player.py: the picker's Play, the New
game form, Start, 5 legal moves, Exit, Back to games; one round replays the autosave, one
is a hot seat of two humans, one is played to the results, two open Previous results and
Save data); the kernel's widgets
(``ipywidgets.Widget.widgets``, what the page holds too) are counted after each round and
must not grow: after round 8 as many as after round 1."""

from __future__ import annotations

import json
import re

import pytest
from ipywidgets.widgets.widget import _instances

from .player import GAMES, Player, live_widgets

ROUNDS = 8


@pytest.fixture(autouse=True)
def _no_widget_of_another_test():
    for w in list(_instances.values()):
        w.close()
    yield
    for w in list(_instances.values()):
        w.close()


def _round(p: Player, r: int, *, results: bool = True) -> None:
    p.new_game(humans=2 if r == 5 else 1)
    if r == 7 and results:
        p.play_to_the_end()
        p.leave_results()
    else:
        assert p.moves(5) == 5
        p.exit()
    if r == 3:
        p.replay_autosave()
    if r == 6:
        p.open_form_and_go_back()
    if r in (2, 4):
        p.save_data_screens()


@pytest.mark.parametrize("game", GAMES)
def test_rounds_from_the_picker_leave_no_widget_alive(game, tmp_path) -> None:
    """Picker → Play → New game → Start → 5 moves → Exit → Back to games, 8 times: 0
    widgets gained per round (today's main: +9 to +451 a round, see docs/performance.md)."""
    p = Player(game, tmp_path / "saves")
    counts = []
    for r in range(1, ROUNDS + 1):
        p.play()
        _round(p, r)
        p.back_to_games()
        counts.append(live_widgets())
    assert counts[-1] == counts[0], counts
    # what stays is the picker and the fixed set of shared layouts and styles (lean.py)
    assert counts[0] < 80, counts


@pytest.mark.parametrize("game", GAMES)
def test_rounds_inside_a_game_leave_no_widget_alive(game, tmp_path) -> None:
    """The same rounds without leaving the game: New game, Exit, the replay's Back, the
    form's Back close what they showed (Japan Conquest's map, the stage beside every
    screen, is one for the app's life: the rounds draw on it)."""
    p = Player(game, tmp_path / "saves")
    p.play()
    counts = []
    for r in range(1, ROUNDS + 1):
        _round(p, r)
        counts.append(live_widgets())
    assert counts[-1] == counts[0], counts


def _states() -> str:
    """Every live widget's state as the page would hold it, model ids left out."""
    states = (json.dumps(w.get_state(), sort_keys=True, default=str) for w in list(_instances.values()))
    return "\n".join(sorted(re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL_", s) for s in states))


@pytest.mark.parametrize("game", ["conquest_cards", "japanese_risk"])
def test_a_closed_hot_seat_screen_keeps_no_seats_secret(game) -> None:
    """Two hot-seat matches that differ in their deal (the seed): once Exit is pressed,
    every live widget holds the same state in both, so none holds a seat's hand."""
    after = []
    for seed in (7, 8):
        for w in list(_instances.values()):
            w.close()
        p = Player(game, None)
        p.play()
        p.new_game(humans=2, seed=seed)
        assert p.moves(5) == 5
        p.exit()
        after.append(_states())
    assert after[0] == after[1]
