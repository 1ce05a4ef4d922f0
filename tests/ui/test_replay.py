"""The shell's replay explorer (conquest_widget.ui.replay) for every registered game:
scrubbing shows exactly what a fresh replay of the log prefix shows, branches play on
without touching the source, save documents load, and hidden information stays hidden
in every live widget unless "Show everything" is chosen."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import ipywidgets as W
import pytest
from ipywidgets.widgets.widget import _instances as WIDGETS
from traitlets import TraitError

from conquest_widget.core import registry
from conquest_widget.core.bots import RandomBot, play_bots
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE
from conquest_widget.errors import (
    CorruptSaveError,
    EmptySlotError,
    NoSuchSeatError,
    SerializationError,
)
from conquest_widget.saves import SaveStore
from conquest_widget.ui.game_ui import GameUI
from conquest_widget.ui.replay import (
    NoSuchPositionError,
    Replay,
    ReplayController,
    ReplayExplorer,
    game_ui,
    load_match,
)

from .toy_game import Seat, Swap, ToyMatch, ToySetup

ENGINES = [s for s in registry.all_games() if s.engine is not None]
IDS = [s.id for s in ENGINES]


def played(spec: Any, *, seed: int = 1, n: int = 3, max_actions: int = 160, default_bots: bool = False) -> Match:
    """A match of ``spec`` with ``n`` seats (or the nearest allowed) after up to
    ``max_actions`` actions of random legal play (or the game's default bots)."""
    cls = spec.engine_class()
    n = min(max(n, spec.players.start), spec.players.stop - 1)
    m = cls(cls.random_setup(random.Random(seed), n), seed=seed)
    if default_bots:
        mod = spec.bots_module()
        bots = {s: mod.BOTS[mod.DEFAULT_BOT]() for s in range(n)}
    else:
        bots = {s: RandomBot() for s in range(n)}
    play_bots(m, bots, seed=seed, max_actions=max_actions)
    assert len(m.log) > 10
    return m


def prefix_document(m: Match, k: int) -> dict[str, Any]:
    """``m.to_dict()`` cut before its (k+1)-th action (computed here, not by the replay)."""
    doc = m.to_dict()
    starts = [i for i, e in enumerate(doc["log"]) if e["seat"] != CHANCE]
    cut = starts[k] if k < len(starts) else len(doc["log"])
    doc["log"] = doc["log"][:cut]
    return doc


def emitted_events(m: Match, k: int, seat: int | None) -> list[dict[str, Any]]:
    """The events of the first ``k`` actions of ``m`` as ``seat`` received them, each
    copied when it was emitted (a fresh step-by-step replay, not the explorer's)."""
    doc = m.to_dict()
    cls = type(m)
    forced = [e["outcome"] for e in doc["log"] if e["seat"] == CHANCE]
    fresh = cls(cls.setup_class.from_dict(doc["setup"]), seed=doc["seed"], forced=forced)
    events = json.loads(json.dumps([e.for_seat(seat) for e in fresh.events]))
    for entry in [e for e in doc["log"] if e["seat"] != CHANCE][:k]:
        n = len(fresh.events)
        fresh.apply(cls.codec.from_dict(entry["action"]), entry["seat"])
        events += json.loads(json.dumps([e.for_seat(seat) for e in fresh.events[n:]]))
    return [e for e in events if e is not None]


def canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, default=str)


# --------------------------------------------------------------------------- the engine part
@pytest.mark.parametrize("spec", ENGINES, ids=IDS)
def test_scrubbing_to_any_index_gives_the_fresh_replay_of_the_prefix(spec: Any) -> None:
    m = played(spec, seed=3)
    cls = type(m)
    r = Replay(m, every=7)
    assert r.length == sum(e["seat"] != CHANCE for e in m.log)
    assert len(r.checkpoints) > 2
    rng = random.Random(5)
    positions = [r.length, 0, 1, r.length - 1, *(rng.randrange(r.length + 1) for _ in range(14))]
    positions += [positions[-1] + 1 if positions[-1] < r.length else 0]  # a step forward
    for k in positions:
        fresh = cls.from_dict(prefix_document(m, k))
        assert r.document(k)["log"] == fresh.log
        for seat in (None, *range(m.n_seats)):
            assert canon(r.view(k, seat)) == canon(fresh.view(seat)), (k, seat)
            assert canon(r.events(k, seat)) == canon(emitted_events(m, k, seat)), (k, seat)
        assert r.outcome(k) == (None if fresh.outcome() is None else fresh.outcome().to_dict())
        assert r.to_act(k) == fresh.to_act()


@pytest.mark.parametrize("spec", ENGINES, ids=IDS)
def test_a_whole_game_played_by_the_games_bots_scrubs_and_ends_over(spec: Any) -> None:
    m = played(spec, seed=7, n=4, max_actions=100_000, default_bots=True)
    assert m.is_over
    r = Replay(m)
    assert r.outcome(r.length) == m.outcome().to_dict()
    assert canon(r.view(r.length, 0)) == canon(m.view(0))
    k = r.length // 2
    assert canon(r.view(k, None)) == canon(type(m).from_dict(prefix_document(m, k)).view(None))


@pytest.mark.parametrize("spec", ENGINES, ids=IDS)
def test_branch_plays_on_and_the_source_is_unchanged(spec: Any) -> None:
    m = played(spec, seed=11)
    before = canon(m.to_dict())
    c = ReplayController(m, viewer=0)
    c.index = k = c.length // 2
    shown = canon(c.view)
    b = c.branch()
    assert b is not m and type(b) is type(m)
    assert b.log == prefix_document(m, k)["log"]
    n = play_bots(b, {s: RandomBot() for s in range(b.n_seats)}, seed=99, max_actions=40)
    assert n > 0 and len(b.log) > len(prefix_document(m, k)["log"])
    assert canon(m.to_dict()) == before
    assert canon(c.view) == shown
    c.index = c.length
    c.index = k
    assert canon(c.view) == shown  # the replay's own working match was not the branch's
    assert canon(c.replay.branch(0).view(None)) == canon(type(m).from_dict(prefix_document(m, 0)).view(None))


@pytest.mark.parametrize("spec", ENGINES, ids=IDS)
def test_loading_a_save_document_a_save_file_and_a_json_file(spec: Any, tmp_path) -> None:
    m = played(spec, seed=13, max_actions=80)
    want = canon(Replay(m).view(40, None))
    assert canon(Replay(m.to_dict()).view(40, None)) == want  # the registry finds the engine
    SaveStore(tmp_path).save_slot(1, m)
    slot = tmp_path / "slot-1.json"
    assert canon(Replay(slot).view(40, None)) == want  # a save file (envelope)
    assert canon(Replay(json.loads(slot.read_text())).view(40, None)) == want
    ex = ReplayExplorer.from_save(SaveStore(tmp_path), 1, game=spec.id, lang="ja")
    assert canon(ex.replay.view(40, None)) == want and ex.branch_button.description == "ここから分岐"
    ex.close()
    with pytest.raises(EmptySlotError):
        ReplayExplorer.from_save(SaveStore(tmp_path), 3, game=spec.id)
    with pytest.raises(EmptySlotError, match="no autosave"):
        ReplayExplorer.from_save(SaveStore(tmp_path), game=spec.id)
    SaveStore(tmp_path).autosave(m)
    ex = ReplayExplorer.from_save(SaveStore(tmp_path), game=spec.id)
    assert canon(ex.replay.view(40, None)) == want
    ex.close()
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(m.to_dict()))
    assert canon(ReplayController(bare, index=40).view) == want


def test_bad_sources_are_refused_with_a_clear_error(tmp_path) -> None:
    m = played(registry.get("codex"), seed=2, max_actions=40)
    doc = m.to_dict()
    with pytest.raises(SerializationError, match="unknown game 'chess'"):
        Replay({**doc, "game": "chess"})
    bad = json.loads(json.dumps(doc))
    bad["log"][-1]["action"] = {"type": "no_such_move"}
    with pytest.raises(SerializationError):
        Replay(bad)
    with pytest.raises(SerializationError, match="expected a match"):
        Replay(42)
    with pytest.raises(SerializationError, match="cannot read"):
        Replay(tmp_path / "missing.json")
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(SerializationError, match="not a valid JSON"):
        Replay(tmp_path / "junk.json")
    SaveStore(tmp_path).save_slot(2, m)
    envelope = json.loads((tmp_path / "slot-2.json").read_text())
    envelope["match"]["log"] = "nope"
    with pytest.raises(CorruptSaveError):
        Replay(envelope)
    with pytest.raises(ValueError, match="every"):
        Replay(m, every=0)


def test_the_controller_is_read_only_and_checks_positions_and_seats() -> None:
    m = played(registry.get("conquest_cards"), seed=4)
    before = canon(m.to_dict())
    c = ReplayController(m, viewer=1, index=5)
    assert (c.legal, c.cover, c.cpu_busy, c.message) == ([], "", False, "")
    version, view = c.version, canon(c.view)
    legal_now = type(m).from_dict(c.document()).legal_actions(c.replay.to_act(5)[0])
    c.viewer = c.replay.to_act(5)[0]
    c.act(legal_now[0].to_dict())
    assert "replay" in c.message and "Branch here" in c.message
    assert canon(m.to_dict()) == before and c.index == 5
    c.viewer = 1
    assert canon(c.view) == view and c.version > version
    with pytest.raises(TraitError, match="no position"):
        c.index = c.length + 1
    with pytest.raises(TraitError, match="no seat"):
        c.viewer = 9
    with pytest.raises(NoSuchPositionError):
        c.replay.view(-1, None)
    with pytest.raises(NoSuchSeatError):
        ReplayController(m, viewer=4)
    c.step(-100)
    assert c.index == 0
    c.step(10**6)
    assert c.index == c.length and c.is_over == m.is_over


def test_reveal_all_publishes_every_seat_only_when_asked() -> None:
    m = played(registry.get("japanese_risk"), seed=6, max_actions=60)
    plain = ReplayController(m, index=30)
    assert plain.views == {}
    everything = ReplayController(m, index=30, reveal_all=True)
    assert canon(everything.views["seats"]) == canon([plain.replay.view(30, s) for s in range(m.n_seats)])
    assert canon(everything.views["public"]) == canon(plain.view)


def test_a_checkpoint_is_a_state_record_not_a_copy_of_the_match() -> None:
    m = played(registry.get("japanese_risk"), seed=8, max_actions=300)
    r = Replay(m, every=16)
    for snap in r._cp:
        assert not any(isinstance(x, Match) for x in snap)
        assert not any(isinstance(x, list) and x and isinstance(x[0], dict) and "seat" in x[0] for x in snap)
    assert len(r.checkpoints) >= len(m.log) // 16


# --------------------------------------------------------------------------- the widget
def live_states(since: set[int]) -> str:
    """Every state of the widgets created since ``since`` was taken and still alive."""
    return json.dumps([w.get_state() for k, w in list(WIDGETS.items()) if k not in since],
                      ensure_ascii=False, default=str)


@pytest.mark.parametrize("spec", ENGINES, ids=IDS)
def test_the_explorer_scrubs_switches_seats_and_branches(spec: Any) -> None:
    m = played(spec, seed=21, max_actions=120)
    branches: list[Match] = []
    ex = ReplayExplorer(m, on_branch=branches.append)
    assert ex.viewer is None and not ex.reveal_all and ex.index == ex.replay.length
    ui = game_ui(spec.id)
    if ui is not None:
        assert isinstance(ex.boards_shown[0], W.Widget) and not isinstance(ex.boards_shown[0], W.HTML)
    else:
        assert "cw-replay-view" in ex.boards_shown[0].value
    assert [v for _label, v in ex.moves.options] == list(range(ex.replay.length - 12, ex.replay.length + 1))
    ex.buttons["first"].click()
    assert ex.index == 0 and ex.slider.value == 0 and ex.buttons["prev"].disabled
    ex.buttons["next"].click()
    ex.buttons["next"].click()
    assert ex.index == 2 and ex.moves.value == 2
    ex.slider.value = 37
    assert ex.index == 37 and ex.controller.index == 37
    assert canon(ex.controller.view) == canon(ex.replay.view(37, None))
    ex.moves.value = 30  # a move of the list (the moves around the shown one)
    assert ex.index == 30 and ex.slider.value == 30
    ex.seat_chooser.value = "seat:1"
    assert ex.viewer == 1 and canon(ex.controller.view) == canon(type(m).from_dict(prefix_document(m, 30)).view(1))
    ex.seat_chooser.value = "all"
    assert ex.reveal_all and len(ex.boards_shown) == m.n_seats
    assert [c.viewer for c in ex.controllers] == list(range(m.n_seats))
    ex.buttons["last"].click()
    assert all(c.index == ex.replay.length for c in ex.controllers)
    ex.go(20)
    ex.branch_button.click()
    assert len(branches) == 1 and len(branches[0].log) == len(prefix_document(m, 20)["log"])
    ex.set_lang("ja")
    assert ex.branch_button.description == "ここから分岐"
    ex.close()


class TokenToy(ToyMatch):
    """The toy game with cards written as unmistakable tokens (``secret-card-7``), so a
    scan of the widgets' states can find a card wherever it went."""

    def view(self, seat: int | None) -> dict[str, Any]:
        v = super().view(seat)
        if "my_card" in v:
            v["my_card"] = token(v["my_card"])
        if "hands" in v:
            v["hands"] = [token(h) for h in v["hands"]]
        return v

    def emit(self, data: Any, *, visible_to: Any = None, public: Any = None) -> None:
        if "card" in data:
            data = {**data, "card": token(data["card"])}
        super().emit(data, visible_to=visible_to, public=public)


def token(card: int) -> str:
    return f"secret-card-{card}-x"


class ToyBoard(W.VBox):
    """A board for the toy game following the board contract: the viewer's card."""

    def __init__(self, controller: Any, lang: str) -> None:
        super().__init__()
        self.c = controller
        self.card = W.HTML()
        self.children = [self.card]
        controller.observe(lambda _c: self.redraw(), names="version")
        self.redraw()

    def set_lang(self, lang: str) -> None:
        pass

    def redraw(self) -> None:
        self.card.value = f"card {self.c.view.get('my_card', '?')}"


TOY_UI = GameUI(game="toy", make_setup=lambda seats, options: None, seat_choices=lambda setup: [],
                board=ToyBoard, results_html=lambda out, view, lang: "",
                event_text=lambda e, lang: f"{e['type']} {e.get('card', '')}")


@pytest.mark.parametrize("ui", [False, TOY_UI], ids=["html-view", "game-board"])
def test_no_secret_of_another_seat_in_any_widget_unless_show_everything(ui: Any) -> None:
    m = TokenToy(ToySetup((Seat("Ann"), Seat("Ben"), Seat("Cy"))), seed=5)
    dealt = list(m.state["hands"])
    m.apply(Swap(), 0)  # Ann swaps: she saw her first card and her new one
    m.apply(Swap(), 1)  # Ben swaps too
    assert not m.is_over
    known = {0: {token(dealt[0]), token(m.state["hands"][0])}, 1: {token(dealt[1]), token(m.state["hands"][1])},
             2: {token(dealt[2])}}
    every = set().union(*known.values())
    before = set(WIDGETS)
    ex = ReplayExplorer(m, viewer=0, engine=TokenToy, ui=ui)

    def check(seat: int | None) -> None:
        for k in range(ex.replay.length + 1):
            ex.go(k)
            states = live_states(before)
            mine = known[seat] if seat is not None else set()
            leaked = {t for t in every - mine if t in states}
            assert not leaked, f"seat {seat} at position {k} could read {leaked}"
            # the scan can fail: the viewer's own current card is in the widgets
            if seat is not None:
                current = token(type(m).from_dict(prefix_document(m, k)).state["hands"][seat])
                assert current in states

    check(0)
    ex.show_seat(1)
    check(1)
    ex.seat_chooser.value = "seat:2"
    check(2)
    ex.seat_chooser.value = "public"
    check(None)
    ex.seat_chooser.value = "all"  # the explicit choice: every secret is shown
    ex.go(2)
    states = live_states(before)
    assert all(t in states for t in (token(h) for h in m.state["hands"]))
    ex.seat_chooser.value = "seat:0"  # and the boards of every seat are gone again
    check(0)
    ex.close()
    assert live_states(before) == "[]"


def test_the_card_game_board_in_the_explorer_shows_no_card_of_another_hand() -> None:
    spec = registry.get("conquest_cards")
    m = played(spec, seed=17, n=3, max_actions=60)
    assert game_ui("conquest_cards") is not None
    code = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([SHCD])(?![0-9A-Za-z])")
    shown = re.compile(r"(10|[2-9AJQK])([♠♥♣♦])")
    symbol = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
    before = set(WIDGETS)
    ex = ReplayExplorer(m, viewer=0)
    checked = 0
    for k in range(0, ex.replay.length + 1, 4):
        ex.go(k)
        truth = type(m).from_dict(prefix_document(m, k))
        st = truth.state
        text = live_states(before)
        in_widgets = {a + b for a, b in code.findall(text)} | {a + symbol[b] for a, b in shown.findall(text)}
        seen = set(st["hands"][0]) | set(st["set_aside"])
        for piles in st["piles"]:
            for pile in piles:
                seen.update(pile)
        for h in st["revealed"] or ():
            seen.update(h)
        seen |= {a + b for a, b in code.findall(json.dumps(truth.events_for(0)))}
        hidden = set(st["deck"]).union(*(set(h) for s, h in enumerate(st["hands"]) if s != 0))
        assert not (in_widgets & hidden) - seen, (k, (in_widgets & hidden) - seen)
        assert set(st["hands"][0]) <= in_widgets or not st["hands"][0]  # the scan sees seat 0's own hand
        checked += 1
    assert checked > 5
    ex.close()


def test_load_match_reads_a_japan_engine_document() -> None:
    """A document of Japan's older engine (format 1) opens as a match at its position."""
    from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, RandomDice

    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1), dice=RandomDice(1))
    g.roll()
    old = {"format": "conquest_widget.japan_conquest.game", "version": 1, "setup": g.setup.to_dict(),
           "dice": {"kind": "random", "seed": 1}, "log": [a.to_dict() for a in g.actions()],
           "snapshot": g.state.snapshot()}
    m = load_match(old)
    assert isinstance(m, JapanMatch) and m.state.snapshot() == g.state.snapshot() and m.log == g.log
    assert load_match(g) is g


HIDDEN = [s for s in ENGINES if s.hidden_information]


def numbered_ids(text: str) -> str:
    """``text`` with widget model ids replaced by their order of appearance."""
    ids: dict[str, str] = {}
    return re.sub(r"IPY_MODEL_[0-9a-f]+", lambda mo: ids.setdefault(mo.group(0), f"M{len(ids)}"), text)


def explorer_states(source: Match, positions: list[int], **kwargs: Any) -> list[str]:
    """The states of every widget ``ReplayExplorer(source, **kwargs)`` creates (model ids
    numbered in order of appearance), at each of ``positions``."""
    before = set(WIDGETS)
    ex = ReplayExplorer(source, **kwargs)
    out = []
    for k in positions:
        ex.go(k)
        out.append(numbered_ids(live_states(before)))
    ex.close()
    return out


@pytest.mark.parametrize("spec", HIDDEN, ids=[s.id for s in HIDDEN])
def test_explorers_of_two_matches_a_seat_cannot_tell_apart_hold_the_same_widget_states(spec: Any) -> None:
    """The pair test of the conformance suite, on every widget of the explorer with the
    game's own board: a match and its ``hidden_variant(seat)`` (same actions, other
    secrets) give byte-identical widget states for ``seat`` and for the public view, at
    every position looked at; with "Show everything" they differ (the scan sees secrets)."""
    rng = random.Random(31)
    pairs = differ = seen_differ = 0
    for i in range(6):
        m = played(spec, seed=40 + i, n=2 + i % 3, max_actions=rng.randrange(20, 90))
        seat = rng.randrange(m.n_seats)
        v = m.hidden_variant(seat, rng)
        if canon(m.to_dict()) == canon(v.to_dict()):
            continue
        differ += 1
        n = sum(e["seat"] != CHANCE for e in m.log)
        positions = sorted({0, n, n // 2, rng.randrange(n + 1)})
        for viewer in (seat, None):
            a = explorer_states(m, positions, viewer=viewer)
            b = explorer_states(v, positions, viewer=viewer)
            assert a == b, f"{spec.id}: seat {viewer} can tell a match from its hidden variant in the explorer"
            pairs += 1
        a = explorer_states(m, [n], reveal_all=True)
        b = explorer_states(v, [n], reveal_all=True)
        seen_differ += a != b
    assert differ >= 3 and pairs >= 6
    assert seen_differ >= 1, "showing everything never showed a difference: the scan proves nothing"


def _risk_income(split: bool) -> Match:
    """A 2-player Japanese Risk match in its first income phase: seat 0 puts all its
    income on one card; seat 1 on one card, or (``split``) on two cards in two actions.
    The two matches have the same public history; only how seat 1 placed differs."""
    from conquest_widget.games.japanese_risk.engine import JapaneseRisk, Place, RiskSetup

    m = JapaneseRisk(RiskSetup(players=("Ann", "Ben")), seed=5)
    for seat in (0, 1):
        mine = [c for c in range(1, 48) if m.state["owner"][c] == seat]
        left = m.state["income_left"][seat]
        if seat == 1 and split:
            m.apply(Place(mine[0], 1), seat)
            m.apply(Place(mine[1], left - 1), seat)
        else:
            m.apply(Place(mine[0], left), seat)
    assert not m.is_over
    return m


def test_a_public_only_replay_does_not_show_how_many_secret_actions_were_taken() -> None:
    """The app's replay of an unfinished game with secrets: its positions are the public
    stops (a run of secret actions is one step), so a match where Ben placed his income
    in one action and one where he placed it in two look the same in every widget of the
    explorer, at every stop; without public_only the step count gives it away."""
    one, two = _risk_income(False), _risk_income(True)
    assert len(Replay(two).public_positions()) == len(Replay(one).public_positions())
    assert Replay(two).length == Replay(one).length + 1
    stops = range(len(Replay(one).public_positions()))

    def states(m: Match) -> list[str]:
        before = set(WIDGETS)
        ex = ReplayExplorer(m, public_only=True)
        out = []
        for step in stops:
            ex.slider.value = step
            out.append(numbered_ids(live_states(before)))
        for key in ("first", "next", "last", "prev"):
            ex.buttons[key].click()
            out.append(numbered_ids(live_states(before)))
        ex.close()
        return out

    assert states(one) == states(two)
    full = [ReplayExplorer(m).slider.max for m in (one, two)]
    assert full[0] != full[1], "without public_only the number of positions tells"
