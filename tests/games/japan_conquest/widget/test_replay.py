"""A Japan Conquest replay in the shell's explorer (:class:`conquest_widget.ReplayExplorer`,
drawing JapanBoard) driven like a user: slider, step and turn buttons, overlays, branching, files."""

import asyncio
import doctest
import json
import random

import pytest
from ipywidgets import Widget

from conquest_widget.core.protocol import CHANCE
from conquest_widget.errors import ConquestError, SerializationError
from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    PlayerSetup,
    ScriptedDice,
    analysis,
)
from conquest_widget.games.japan_conquest.actions import Roll
from conquest_widget.games.japan_conquest.cpu import cpu_action
from conquest_widget.games.japan_conquest.match import redacted
from conquest_widget.games.japan_conquest.text import describe_event, pref_name
from conquest_widget.games.japan_conquest.widget import replay
from conquest_widget.games.japan_conquest.widget.replay import (
    EFFECT_COLOURS,
    UNCONTROLLED,
    colour_scale,
    load_game_file,
)
from conquest_widget.games.japan_conquest.widget.style import NEUTRAL_FILL
from conquest_widget.scene import read_message
from conquest_widget.ui.controller import MatchController
from conquest_widget.ui.replay import ReplayExplorer

from ..legacy_docs import legacy_doc
from .conftest import click_map

EVERY = 10  # small checkpoint interval: positions on, before and after checkpoints are all exercised


@pytest.fixture(scope="module")
def cpu_game():
    setup = GameSetup(
        players=(
            PlayerSetup("Aki", 13, cpu=True, strategy="aggressive"),
            PlayerSetup("Ben", 27, colour="#1f77b4", cpu=True),
            PlayerSetup("Chika", 40, colour="#2ca02c", cpu=True, strategy="defensive"),
        ),
        turns=5, seed=7,
    )
    g = played_by_cpus(setup)
    assert g.is_over and g.action_count > 3 * EVERY
    return g


def played_by_cpus(setup: GameSetup) -> JapanMatch:
    """A CPU-only game played to its end as the app plays it: in a match, every die face
    logged."""
    m = JapanMatch(setup)
    while not m.is_over:
        m.apply(cpu_action(m), m.to_act()[0])
    return m


def faces_of(game: JapanMatch) -> list[int]:
    """Every die face rolled in a match's game, in order."""
    return [f for e in game.log if e["seat"] == CHANCE for f in e["outcome"]]


@pytest.fixture
def ex(cpu_game):
    return ReplayExplorer(cpu_game, every=EVERY)


def board(ex):
    """The JapanBoard the explorer draws."""
    return ex.boards_shown[0]


def shown_game(ex):
    """The match of the shown position (the replay's private working match: read it only)."""
    return ex.replay.at(ex.index)


def replayed(game, k):
    """The match after the first ``k`` actions of ``game``, replayed from the start."""
    m = JapanMatch(game.setup, dice=ScriptedDice(faces_of(game)))
    for action in game.actions()[:k]:
        m.push(action)
    return m


def check_view(ex, expected):
    """The map, scoreboard and log show exactly ``expected`` (a JapanMatch)."""
    assert shown_game(ex).state.snapshot() == expected.state.snapshot()
    for code in range(1, 48):
        owner = expected.prefecture_info(code)["owner"]
        colour = expected.setup.players[owner].colour if owner is not None else NEUTRAL_FILL
        assert board(ex).map_view.style_of(code)["fill_color"] == colour, code
    rows = {r["seat"]: r for r in board(ex).scoreboard.rows()}
    if not expected.totals_hidden:
        for seat in range(len(expected.setup.players)):
            assert rows[seat]["score"] == str(expected.score(seat)["total"])
    names = [p.name for p in expected.setup.players]
    # the log never shows the Final Showdown's point figures, not even after the game (match.redacted)
    lines = [x for x in (describe_event(redacted(expected.setup, ev), "en", names) for ev in reversed(expected.full_events())) if x]
    shown = board(ex).log_view.lines()
    assert shown and shown == lines[: len(shown)]  # newest first, as the replayed game's events
    for seat in range(len(board(ex).map_view.pawns)):
        pos = expected.state.players[seat].position
        assert board(ex).map_view.pawn_location(seat) == board(ex).map_view.label_point(pos)


def test_slider_positions_match_a_fresh_replay(ex, cpu_game):
    n = cpu_game.action_count
    assert ex.slider.max == n and ex.index == n and shown_game(ex).is_over
    check_view(ex, cpu_game)
    for k in (0, 1, EVERY - 1, EVERY, EVERY + 1, 2 * EVERY + 7, n // 2, n - 1, 3, n):  # back and forth
        ex.go(k)
        assert ex.index == k and shown_game(ex).action_count == k
        check_view(ex, replayed(cpu_game, k))
    assert f"Move {n} of {n}" in ex.position_label.value and "game over" in board(ex).status.value


def test_step_buttons_and_turn_jumps(ex, cpu_game):
    n = cpu_game.action_count
    ex.buttons["first"].click()
    assert ex.index == 0 and ex.buttons["first"].disabled and ex.buttons["prev"].disabled
    assert "start of the game" in board(ex).status.value and board(ex).prev_turn_button.disabled
    for k in range(1, 6):
        ex.buttons["next"].click()
        assert ex.index == k
        check_view(ex, replayed(cpu_game, k))
    assert str(cpu_game.actions()[4]) in ex.moves.label  # the move list shows the last action (no log line: raw)
    ex.buttons["prev"].click()
    assert ex.index == 4
    check_view(ex, replayed(cpu_game, 4))
    # turn by turn: every stop is a roll of the next (player, turn)
    ex.buttons["first"].click()
    stops = []
    while ex.index < n:
        board(ex).next_turn_button.click()
        stops.append(ex.index)
    assert stops[:-1] == board(ex).turn_starts()[1:] and stops[-1] == n
    g = replayed(cpu_game, stops[0])
    assert g.phase == "roll" and g.current_player == cpu_game.state.order[1]
    assert len(stops) == 3 * 5  # 3 players x 5 turns (the last stop is the end of the game)
    assert ex.buttons["next"].disabled and ex.buttons["last"].disabled
    board(ex).prev_turn_button.click()
    assert ex.index == stops[-2]
    ex.go(stops[3] + 2)  # inside a turn: back to its start, then to the turn before
    board(ex).prev_turn_button.click()
    assert ex.index == stops[3]
    board(ex).prev_turn_button.click()
    assert ex.index == stops[2]
    ex.buttons["last"].click()
    assert ex.index == n
    check_view(ex, cpu_game)


def test_the_explorer_never_plays_cpu_moves(cpu_game):
    async def scenario():
        ex = ReplayExplorer(cpu_game, index=5, every=EVERY)  # an event loop runs: CPUs would be scheduled
        assert not shown_game(ex).is_over and shown_game(ex).setup.players[shown_game(ex).actor].cpu
        await asyncio.sleep(0.3)
        assert shown_game(ex).action_count == 5 and ex.controller.cpu_busy is False
        ex.go(6)
        await asyncio.sleep(0.2)
        return ex

    ex = asyncio.run(scenario())
    assert shown_game(ex).action_count == 6 and ex.controller.cpu_busy is False
    # a live controller of the same position plays its CPUs (no event loop here: at once)
    assert MatchController(replayed(cpu_game, 5), humans=set()).is_over


def test_the_shown_game_cannot_be_played(cpu_game):
    human = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=3))
    human.roll()
    ex = ReplayExplorer(human)
    assert shown_game(ex).phase == "route"
    steps = human.legal_steps()
    assert all(board(ex).map_view.style_of(c)["weight"] == 1 for c in steps)  # no "legal step" highlights
    click_map(board(ex), steps[0])
    assert shown_game(ex).route == [] and shown_game(ex).action_count == 1
    assert board(ex).inner.selected_prefecture == steps[0]  # a click only shows the prefecture's info
    assert board(ex).info_panel.value.splitlines()[0] == pref_name(steps[0], "en")
    board(ex).inner.confirm_route()  # actions through the board's controller are refused, with a hint
    assert "Branch here" in board(ex).inner.message and shown_game(ex).action_count == 1
    ex.controller.act({"type": "confirm_route"})  # and through the explorer's
    assert "Branch here" in ex.controller.message and shown_game(ex).action_count == 1


def test_branch_is_independent_and_playable(ex, cpu_game):
    before = cpu_game.state.snapshot(), cpu_game.action_count
    ex.go(2 * EVERY + 3)
    shown = shown_game(ex).state.snapshot()
    b = ex.branch_here()
    assert b is not shown_game(ex) and b.state.snapshot() == shown and b.actions() == cpu_game.actions()[: ex.index]
    seat = b.to_act()[0]
    assert b.legal_actions(seat)
    b.apply(b.legal_actions(seat)[0], seat)  # the branch goes its own way
    assert b.action_count == ex.index + 1
    assert shown_game(ex).state.snapshot() == shown and (cpu_game.state.snapshot(), cpu_game.action_count) == before
    while not b.is_over:
        b.apply(cpu_action(b), b.to_act()[0])
    assert JapanMatch.from_dict(b.to_dict()).state.snapshot() == b.state.snapshot()  # a branch saves like any game
    ex.buttons["next"].click()  # the explorer goes on as before
    check_view(ex, replayed(cpu_game, 2 * EVERY + 4))


def test_branch_button_hands_a_playable_match_to_on_branch(ex, cpu_game):
    """"Branch here" gives the new match to ``on_branch`` (Japan Conquest's app plays it on:
    test_app_replay.py); it is disabled at the end, where nothing is left to play."""
    got = []
    ex.on_branch = got.append
    assert ex.branch_button.disabled  # the game is over
    ex.go(board(ex).turn_starts()[4])
    assert not ex.branch_button.disabled
    ex.branch_button.click()
    (m,) = got
    assert isinstance(m, JapanMatch) and m.phase == "roll" and m.action_count == ex.index
    assert [p.cpu for p in m.setup.players] == [p.cpu for p in cpu_game.setup.players]  # the seats as recorded
    seat = m.to_act()[0]
    m.apply(m.legal_actions(seat)[0], seat)  # "what if I had gone elsewhere?"
    assert shown_game(ex).phase == "roll" and shown_game(ex).state.snapshot() == replayed(cpu_game, ex.index).state.snapshot()


def test_reachable_overlay_colours_the_right_prefectures(ex, cpu_game):
    ex.go(board(ex).turn_starts()[3])
    g = shown_game(ex)
    board(ex).overlay.value = "reachable"
    board(ex).allowance.value = 4
    stops = analysis.reachable_stops(g, g.current_player, 4)
    assert stops
    for code in range(1, 48):
        poly = board(ex).map_view.style_of(code)
        if code in stops:
            assert poly["fill_color"] == EFFECT_COLOURS[stops[code]["effect"]] and poly["fill_opacity"] == 0.8
        else:
            assert poly["fill_opacity"] == 0.12
    legend = board(ex).map_view.legend
    assert legend is not None and legend.layout.display == "" and "with 4 to move" in legend.value
    # the overlay follows the slider
    board(ex).next_turn_button.click()
    g2 = shown_game(ex)
    stops2 = analysis.reachable_stops(g2, g2.current_player, 4)
    assert {c for c in range(1, 48) if board(ex).map_view.style_of(c)["fill_opacity"] == 0.8} == set(stops2)
    # another seat, through the API
    board(ex).show_reachable(2, seat=0)
    assert {c for c in range(1, 48) if board(ex).map_view.style_of(c)["fill_opacity"] == 0.8} == set(analysis.reachable_stops(g2, 0, 2))
    board(ex).clear_overlay()
    check_view(ex, replayed(cpu_game, ex.index))
    assert board(ex).map_view.legend.layout.display == "none"


def test_distance_overlay_is_a_colour_scale_with_a_legend(ex):
    board(ex).show_distances("Tokyo", seat=0)
    dist = analysis.distances_from(shown_game(ex), 13, 0)
    scale = colour_scale(max(dist.values()) + 1)
    for code, d in dist.items():
        assert board(ex).map_view.style_of(code)["fill_color"] == scale[d]
    assert board(ex).map_view.style_of(13)["fill_color"] == "#440154" and board(ex).map_view.style_of(13)["weight"] == 3
    assert "movement from Tokyo" in board(ex).map_view.legend.value
    assert board(ex).overlay.value == "distance"
    board(ex).show_distances(47, seat=0)  # from Okinawa
    assert board(ex).map_view.style_of(47)["fill_color"] == "#440154"
    assert board(ex).map_view.style_of(1)["fill_color"] == colour_scale(max(analysis.distances_from(shown_game(ex), 47, 0).values()) + 1)[-1]


def test_region_overlay_shows_control():
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    for code in (8, 9, 10, 11, 12, 14):  # the rest of Kanto, as castles: full control
        g.edit_prefecture(code, owner=0, level="castle")
    for code in (36, 37, 38):  # Shikoku but Kochi
        g.edit_prefecture(code, owner=1)
    g.edit_prefecture(39, owner=0)
    ex = ReplayExplorer(g)
    board(ex).show_regions()
    red, blue = g.setup.players[0].colour, g.setup.players[1].colour
    view = board(ex).map_view

    def poly(c: int) -> dict:
        return view.style_of(c)

    assert all(poly(c)["fill_color"] == red and poly(c)["fill_opacity"] == 0.9 for c in range(8, 15))
    assert poly(1)["fill_color"] == poly(36)["fill_color"] == UNCONTROLLED
    legend = board(ex).map_view.legend.value
    assert "Kanto: Player 1 ★full (Player 1 7 / 7)" in legend
    assert "Shikoku: nobody (Player 1 1, Player 2 3 / 4)" in legend
    g.edit_prefecture(39, owner=1)  # now Ben holds Shikoku (not full: territories)
    ex.load(g)
    assert all(poly(c)["fill_color"] == blue and poly(c)["fill_opacity"] == 0.55 for c in range(36, 40))
    assert [r["controller"] for r in analysis.region_control_table(g) if r["region"] == "shikoku"] == [1]
    ex.buttons["first"].click()  # before the edits nobody controls anything
    assert all(poly(c)["fill_color"] == UNCONTROLLED for c in range(1, 48))


def test_set_overlay_sends_only_changed_traits(ex, monkeypatch):
    sent = []
    original = Widget._send

    def _send(self, msg, buffers=None):
        sent.append((self, msg))
        return original(self, msg, buffers)

    monkeypatch.setattr(Widget, "_send", _send)
    view = board(ex).map_view
    view.set_overlay({13: {"fill_color": "#123456"}})
    polys = {id(p) for p in view.polygons.values()}
    assert not [m for w, m in sent if id(w) in polys]  # the shapes' models are not written...
    painted = [m for w, m in sent if w is view.painter]
    assert len(painted) == 1  # ... one message of the map's painter restyles it, Tokyo only
    assert {k for k in read_message(painted[0]["content"])["patch"] if k.isdigit()} == {"13"}
    assert view.style_of(13)["fill_color"] == "#123456"
    with pytest.raises(ConquestError, match="style keys"):
        view.set_overlay({13: {"opacity": 1}})
    with pytest.raises(ConquestError, match="unknown prefecture"):
        view.set_overlay({48: {"weight": 2}})


def test_loading_from_json_files(tmp_path, cpu_game):
    bare = tmp_path / "game.json"
    with bare.open("w") as f:
        json.dump(cpu_game.to_dict(), f)
    ex = ReplayExplorer(bare, index=12)
    assert ex.index == 12 and ex.replay.length == cpu_game.action_count
    check_view(ex, replayed(cpu_game, 12))
    slot = tmp_path / "slot-1.json"  # a save document: the game under "game"
    slot.write_text(json.dumps({"format": "some.save", "kind": "slot", "slot": 1, "game": cpu_game.to_dict()}))
    ex.load(str(slot))
    assert ex.index == cpu_game.action_count and shown_game(ex).state.snapshot() == cpu_game.state.snapshot()
    ex2 = ReplayExplorer(cpu_game.to_dict(), index=0)
    assert shown_game(ex2).state.snapshot() == replayed(cpu_game, 0).state.snapshot()


@pytest.mark.parametrize("content, problem", [
    ("{not json", "not a valid JSON"),
    ('{"format": "something else"}', "not a replayable game"),
    ("[1, 2, 3]", "cannot replay a list"),
    (None, "snapshot does not match"),
])
def test_corrupt_files_give_a_clear_error_naming_the_file(tmp_path, cpu_game, content, problem):
    path = tmp_path / "broken.json"
    if content is None:  # a tampered document of the older engine: the log no longer reaches the stored snapshot
        data = legacy_doc(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=3)))
        pref = data["snapshot"]["prefectures"][39]  # Fukuoka
        pref["owner"] = 1 if pref["owner"] != 1 else 0
        content = json.dumps(data)
    path.write_text(content)
    with pytest.raises(SerializationError, match=problem) as info:
        ReplayExplorer(path)
    assert str(path) in str(info.value) and isinstance(info.value, ConquestError)
    with pytest.raises(SerializationError, match="cannot read"):
        load_game_file(tmp_path / "missing.json")


def test_unreplayable_games_and_bad_positions_are_refused(cpu_game):
    class LoadedDice:
        def roll(self, n):
            return (6,) * n

    # (the older engine could not replay a game with such dice; a match logs their faces)
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=LoadedDice())
    g.roll()
    assert shown_game(ReplayExplorer(g)).state.snapshot() == g.state.snapshot()
    with pytest.raises(ConquestError, match="there is no position"):
        ReplayExplorer(cpu_game, index=cpu_game.action_count + 1)
    with pytest.raises(ConquestError, match="cannot replay a int"):
        ReplayExplorer(42)


def test_scripted_dice_game_and_japanese_labels():
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([2, 3]))
    g.push(Roll(1))
    g.step("Saitama"), g.step("Gunma"), g.confirm_route()
    ex = ReplayExplorer(g, lang="ja")
    assert "リプレイ" in ex.title.value and ex.branch_button.description == "ここから分岐"
    assert board(ex).map_view.style_of(10)["fill_color"] == g.setup.players[0].colour
    ex.go(3)  # route planned: the route line is drawn
    assert shown_game(ex).route == [11, 10] and len(board(ex).map_view.route_locations()) == 3
    assert "4手中3手目" in ex.position_label.value and "1ターン目" in board(ex).status.value
    board(ex).show_distances("Tokyo")
    ex.set_lang("en")
    assert ex.branch_button.description == "Branch here" and "Move 3 of 4" in ex.position_label.value
    assert "turn 1 of Player 1" in board(ex).status.value and board(ex).next_turn_button.description == "turn ▶"
    assert "movement from Tokyo" in board(ex).map_view.legend.value
    assert any("Player 1 rolled" in line for line in board(ex).log_view.lines())


def test_scrubbing_is_fast_and_creates_no_widgets(ex, cpu_game):
    import time

    from ipywidgets.widgets.widget import _instances

    n = cpu_game.action_count
    ex.buttons["first"].click()
    ex.buttons["last"].click()  # the log's block pool is now as large as it gets
    before = len(_instances)
    positions = list(range(0, n, 7)) + list(range(n, 0, -11))
    t = time.perf_counter()
    for k in positions:
        ex.go(k)
    per = (time.perf_counter() - t) / len(positions)
    assert per < 0.1, f"{per * 1000:.0f} ms per position"
    assert len(_instances) == before  # no widget created (or leaked) per position
    check_view(ex, replayed(cpu_game, ex.index))


def test_docstring_examples():
    result = doctest.testmod(replay, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 5


def test_loading_from_a_save_slot(tmp_path, cpu_game):
    from conquest_widget.saves import SaveStore

    SaveStore(tmp_path / "saves").save_slot(2, cpu_game)
    ex = ReplayExplorer.from_save(SaveStore(tmp_path / "saves"), 2, every=25)
    assert ex.replay.length == cpu_game.action_count and shown_game(ex).state.snapshot() == cpu_game.state.snapshot()
    ex2 = ReplayExplorer(SaveStore(tmp_path / "saves").slot_path(2))  # the slot file itself
    assert shown_game(ex2).state.snapshot() == cpu_game.state.snapshot()


# ----------------------------------------------- checkpoints are state records (issue 18)
def seeded_cpu_game(seed: int, players: int) -> JapanMatch:
    """A finished CPU-only game of ``players`` seats (mixed difficulties and strategies)."""
    homes = ("Tokyo", "Osaka", "Hokkaido", "Fukuoka")[:players]
    strategies = ("balanced", "aggressive", "expansionist", "defensive")
    setup = GameSetup(
        players=tuple(PlayerSetup(f"P{i + 1}", h, colour=("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")[i], cpu=True,
                                  difficulty=("easy", "normal", "hard")[(seed + i) % 3], strategy=strategies[(seed + i) % 4])
                      for i, h in enumerate(homes)),
        turns=10, seed=seed, roll_for_order=seed % 2 == 0,
    )
    g = played_by_cpus(setup)
    assert g.is_over
    return g


@pytest.mark.parametrize("seed, players, every", [(11, 2, 50), (12, 3, 50), (13, 4, 50), (14, 4, 7), (15, 3, 1)])
def test_scrubbing_to_any_position_equals_a_replay_from_the_start(seed, players, every):
    """Jumps in random order (backwards over checkpoints, forwards past them, single
    steps): the shown game equals a replay of the first k actions from the start --
    state, log, events and what happens next (the dice continue as recorded)."""
    game = seeded_cpu_game(seed, players)
    n = game.action_count
    ex = ReplayExplorer(game, every=every)
    assert ex.replay.checkpoints[0] == 0 and len(ex.replay.checkpoints) >= game.action_count // every
    rng = random.Random(seed)
    targets = rng.sample(range(n + 1), min(n + 1, 30)) + [0, n, n - 1, 1, every, every - 1, every + 1]
    for k in targets:
        if not 0 <= k <= n:
            continue
        ex.go(k)
        ref = replayed(game, k)
        assert shown_game(ex).state.snapshot() == ref.state.snapshot(), k
        assert shown_game(ex).log == ref.log and shown_game(ex).events == ref.events, k
        assert ex.replay.branch(k).state.snapshot() == ref.state.snapshot(), k
    k = rng.randrange(n // 3, 2 * n // 3)
    ex.go(k)
    check_view(ex, replayed(game, k))
    b = ex.branch_here()
    for action in game.actions()[k:]:  # a branch's dice are where the recorded game's were
        b.apply(action, b.to_act()[0])
    assert b.state.snapshot() == game.state.snapshot() and b.full_events() == game.full_events()


@pytest.mark.parametrize("seed, players", [(21, 2), (22, 4)])
def test_branch_here_at_any_position_equals_a_replay_and_is_independent(seed, players):
    game = seeded_cpu_game(seed, players)
    n = game.action_count
    ex = ReplayExplorer(game, every=9)
    for k in random.Random(seed).sample(range(n), 6):
        ex.go(k)
        b = ex.branch_here()
        ref = replayed(game, k)
        assert b.state.snapshot() == ref.state.snapshot() and b.log == ref.log and b.events == ref.events
        while not b.is_over:  # the branch plays on as the recorded game did (same CPUs, same dice)
            b.apply(cpu_action(b), b.to_act()[0])
        assert b.state.snapshot() == game.state.snapshot() and b.log == game.log
        assert shown_game(ex).state.snapshot() == ref.state.snapshot() and shown_game(ex).action_count == k  # the explorer is untouched
        ex.go(ex.index + 1)
        assert shown_game(ex).state.snapshot() == replayed(game, k + 1).state.snapshot()
        again = ex.replay.branch(k)
        assert again.state.snapshot() == ref.state.snapshot()  # the checkpoints are untouched too


def test_loading_and_scrubbing_never_copy_the_whole_game(cpu_game, monkeypatch):
    """The quadratic part of issue 18: checkpoints were whole-game deep copies."""
    def refuse(self):
        raise AssertionError("JapanMatch.copy() called by the explorer")

    monkeypatch.setattr(JapanMatch, "copy", refuse)
    ex = ReplayExplorer(cpu_game, every=EVERY)
    for k in (5, cpu_game.action_count - 3, 0, 2 * EVERY + 1):
        ex.go(k)
    ex.branch_here()
    assert shown_game(ex).state.snapshot() == replayed(cpu_game, 2 * EVERY + 1).state.snapshot()


def test_the_shells_explorer_draws_a_japan_match_on_the_map(cpu_game):
    """The shell's explorer (every game's) hosts Japan Conquest's board: the map, the
    scoreboard and the log of the chosen position, drawn from the published view only."""
    from conquest_widget.ui.replay import ReplayExplorer as ShellExplorer

    shell = ShellExplorer(cpu_game)
    board = shell.boards_shown[0]
    assert type(board).__name__ == "JapanBoard"
    for k in (0, 17, 2 * EVERY + 3, cpu_game.action_count):
        shell.go(k)
        expected = replayed(cpu_game, k)
        for code in range(1, 48):
            owner = expected.prefecture_info(code)["owner"]
            colour = expected.setup.players[owner].colour if owner is not None else NEUTRAL_FILL
            assert board.map_view.style_of(code)["fill_color"] == colour, (k, code)
        for seat in range(len(board.map_view.pawns)):
            assert board.map_view.pawn_location(seat) == board.map_view.label_point(expected.state.players[seat].position)
        assert board.log_view.lines() or k == 0
    # the game's own overlays, from the published view: where could the player to move stop with a 4?
    shell.go(2 * EVERY + 3)
    expected = replayed(cpu_game, 2 * EVERY + 3)
    board.overlay.value = "reachable"
    board.allowance.value = 4
    stops = analysis.reachable_stops(expected, expected.current_player, 4)
    assert stops and {c for c in range(1, 48) if board.map_view.style_of(c)["fill_opacity"] == 0.8} == set(stops)
    shell.go(2 * EVERY + 4)  # the overlay follows the position
    nxt = replayed(cpu_game, 2 * EVERY + 4)
    assert {c for c in range(1, 48) if board.map_view.style_of(c)["fill_opacity"] == 0.8} == set(
        analysis.reachable_stops(nxt, nxt.current_player, 4))
    board.overlay.value = "none"
    assert board.map_view.legend.layout.display == "none"
    shell.set_lang("ja")
    assert "戦況ログ" in board.log_view.header.value and board.overlay.label == "なし"
