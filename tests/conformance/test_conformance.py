"""The match protocol, checked the same way for every registered game that has an engine.

What each game's engine class must offer for these tests (besides the Match protocol):

- ``random_setup(rng, n_players) -> setup``: a valid random setup (classmethod);
- for games with hidden information, ``hidden_variant(seat, rng) -> Match``: a match that
  differs from this one only in what ``seat`` cannot know (other hands, deck order, secret
  armies...), reached by the same actions.  The pair tests below then demand identical
  views, events and bot choices for ``seat``;
- the bots module named by the spec: ``BOTS`` (label -> factory of a Bot).

Sizes are chosen so the whole file runs in well under a minute per game; each game's own
tests run the large property sweeps.
"""

from __future__ import annotations

import json
import random

import pytest

from conquest_widget.core import registry
from conquest_widget.core.bots import RandomBot, decision, play_bots
from conquest_widget.core.match import Match
from conquest_widget.core.protocol import CHANCE, Outcome
from conquest_widget.errors import (
    IllegalActionError,
    SerializationError,
    WrongGameError,
)

GAMES = [g for g in registry.all_games() if g.engine is not None]
HIDDEN = [g for g in GAMES if g.hidden_information]

#: a cap on actions per random game: reaching it means the game did not end
MAX_ACTIONS = 50_000


def _random_match(spec, rng: random.Random, *, n: int | None = None) -> Match:
    cls = spec.engine_class()
    n = n if n is not None else rng.choice(list(spec.players))
    return cls(cls.random_setup(rng, n), seed=rng.randrange(2**31))


def _random_step(match: Match, rng: random.Random) -> None:
    seat = rng.choice(match.to_act())
    legal = match.legal_actions(seat)
    assert legal, f"seat {seat} is to act but has no legal action"
    match.apply(rng.choice(legal), seat)


def _play_random(match: Match, rng: random.Random, stop_at: int | None = None) -> None:
    n = 0
    while match.outcome() is None and (stop_at is None or n < stop_at):
        _random_step(match, rng)
        n += 1
        assert n < MAX_ACTIONS, f"{match.spec.id}: a random game did not end within {MAX_ACTIONS} actions"


@pytest.fixture(params=GAMES, ids=lambda g: g.id)
def spec(request):
    return request.param


def test_random_legal_play_always_ends(spec) -> None:
    rng = random.Random(1)
    for i in range(12):
        m = _random_match(spec, rng, n=list(spec.players)[i % len(spec.players)])
        _play_random(m, rng)
        out = m.outcome()
        assert isinstance(out, Outcome) and len(out.ranks) == m.n_seats
        assert min(out.ranks) == 1 and all(1 <= r <= m.n_seats for r in out.ranks)
        assert m.to_act() == () or all(m.legal_actions(s) == [] for s in m.to_act())


def test_views_and_events_are_json_and_round_trip(spec) -> None:
    rng = random.Random(2)
    for _ in range(8):
        m = _random_match(spec, rng)
        _play_random(m, rng, stop_at=rng.randrange(1, 200))
        doc = json.loads(json.dumps(m.to_dict(), allow_nan=False))
        m2 = type(m).from_dict(doc)
        assert m2.to_dict() == m.to_dict()
        for seat in [None, *range(m.n_seats)]:
            assert json.dumps(m2.view(seat), sort_keys=True) == json.dumps(m.view(seat), sort_keys=True)
            assert m2.events_for(seat) == m.events_for(seat)
            json.dumps(m.events_for(seat), allow_nan=False)
        assert m2.to_act() == m.to_act()
        # the replay continues exactly as the original (chance included)
        r1, r2 = random.Random(9), random.Random(9)
        _play_random(m, r1, stop_at=30)
        _play_random(m2, r2, stop_at=30)
        assert m2.to_dict() == m.to_dict()


def test_events_are_history_later_play_never_rewrites_them(spec) -> None:
    """An event, once emitted, reads the same for every seat until the end of the game,
    whatever the engine later does to the lists and dicts it passed to ``emit``."""
    rng = random.Random(11)
    for _ in range(3):
        m = _random_match(spec, rng)
        seen: dict[int | None, list[str]] = {seat: [] for seat in [None, *range(m.n_seats)]}
        n = since = 0
        while True:
            for seat, texts in seen.items():
                texts.extend(json.dumps(e, sort_keys=True) for e in m.events_for(seat, since))
            since = len(m.events)
            if m.outcome() is not None or n == MAX_ACTIONS:
                break
            _random_step(m, rng)
            n += 1
        for seat, texts in seen.items():
            assert [json.dumps(e, sort_keys=True) for e in m.events_for(seat)][: len(texts)] == texts


def test_chance_is_logged_and_the_log_decides(spec) -> None:
    """A replay takes chance outcomes from the log, not from the seed."""
    rng = random.Random(3)
    m = _random_match(spec, rng)
    _play_random(m, rng, stop_at=60)
    doc = m.to_dict()
    assert any(e["seat"] == CHANCE for e in doc["log"]), "no chance outcome was logged"
    doc2 = dict(doc, seed=(doc["seed"] + 1) % 2**31)
    assert type(m).from_dict(doc2).view(None) == m.view(None)


def test_documents_of_another_game_or_a_broken_log_are_refused(spec) -> None:
    rng = random.Random(4)
    m = _random_match(spec, rng)
    _play_random(m, rng, stop_at=20)
    doc = m.to_dict()
    with pytest.raises(WrongGameError, match="not of"):
        type(m).from_dict(dict(doc, game="some_other_game"))
    actions = [i for i, e in enumerate(doc["log"]) if e["seat"] != CHANCE]
    if actions:
        bad = json.loads(json.dumps(doc))
        bad["log"][actions[-1]]["seat"] = (bad["log"][actions[-1]]["seat"] + 1) % m.n_seats
        with pytest.raises(SerializationError):
            type(m).from_dict(bad)
    chance = [i for i, e in enumerate(doc["log"]) if e["seat"] == CHANCE]
    if chance:
        bad = json.loads(json.dumps(doc))
        bad["log"][chance[0]]["outcome"] = "not an outcome"
        with pytest.raises(SerializationError):
            type(m).from_dict(bad)


def test_an_illegal_action_changes_nothing(spec) -> None:
    rng = random.Random(5)
    tried = 0
    for _ in range(20):
        m = _random_match(spec, rng)
        _play_random(m, rng, stop_at=rng.randrange(0, 150))
        if m.outcome() is not None:
            continue
        other = _random_match(spec, random.Random(rng.random()), n=m.n_seats)
        _play_random(other, rng, stop_at=rng.randrange(0, 150))
        candidates = [(s, a) for s in range(m.n_seats) for a in
                      (other.legal_actions(s) if s in other.to_act() else [])]
        candidates += [(s, a) for s in range(m.n_seats) if s not in m.to_act()
                       for a in m.legal_actions(m.to_act()[0])[:3]]
        for seat, action in candidates[:10]:
            if m.explain(seat, action) is None:
                continue
            before = (json.dumps(m.to_dict(), sort_keys=True), len(m.events), m.chance.draws,
                      [json.dumps(m.view(s), sort_keys=True) for s in range(m.n_seats)])
            with pytest.raises(IllegalActionError):
                m.apply(action, seat)
            after = (json.dumps(m.to_dict(), sort_keys=True), len(m.events), m.chance.draws,
                     [json.dumps(m.view(s), sort_keys=True) for s in range(m.n_seats)])
            assert before == after
            tried += 1
    assert tried >= 10
    m = _random_match(spec, rng)
    for seat in (-1, m.n_seats, "0", True):
        with pytest.raises(IllegalActionError):
            m.apply(m.legal_actions(m.to_act()[0])[0], seat)


def test_bots_choose_legal_actions_from_views_only(spec) -> None:
    bots_module = spec.bots_module()
    assert bots_module.BOTS, "a game needs at least one bot"
    rng = random.Random(6)
    for label, factory in bots_module.BOTS.items():
        m = _random_match(spec, rng, n=min(spec.players))
        bots = {s: factory() for s in range(m.n_seats)}
        checked = 0

        def check(match, seat, action, _label=label):
            nonlocal checked
            checked += 1

        # play_bots applies through Match.apply, which refuses an illegal action
        play_bots(m, bots, seed=7, max_actions=400, on_action=check)
        assert checked > 0, f"bot {label!r} never acted"


# ------------------------------------------------------------ hidden information
@pytest.fixture(params=HIDDEN or [None], ids=lambda g: g.id if g else "none")
def hidden_spec(request):
    if request.param is None:
        pytest.skip("no game with hidden information has an engine yet")
    return request.param


def _pairs(spec, count: int, seed: int):
    rng = random.Random(seed)
    made = 0
    while made < count:
        m = _random_match(spec, rng)
        _play_random(m, rng, stop_at=rng.randrange(0, 120))
        seat = rng.randrange(m.n_seats)
        variant = m.hidden_variant(seat, rng)
        made += 1
        yield m, variant, seat


def test_hidden_pairs_give_identical_views_events_and_bot_choices(hidden_spec) -> None:
    """Two matches that differ only in what a seat cannot know look the same to it,
    byte for byte, and its bots choose the same action on both."""
    bots_module = hidden_spec.bots_module()
    differ = 0
    n = 0
    for m, v, seat in _pairs(hidden_spec, 300, 11):
        n += 1
        assert json.dumps(m.view(seat), sort_keys=True) == json.dumps(v.view(seat), sort_keys=True)
        assert json.dumps(m.view(None), sort_keys=True) == json.dumps(v.view(None), sort_keys=True)
        assert json.dumps(m.events_for(seat), sort_keys=True) == json.dumps(v.events_for(seat), sort_keys=True)
        assert m.to_act() == v.to_act()
        if seat in m.to_act() and m.outcome() is None:
            assert m.legal_actions(seat) == v.legal_actions(seat)
            for label, factory in bots_module.BOTS.items():
                if label.startswith("cheat"):
                    continue
                a1 = factory().choose(*decision(m, seat, 3))
                a2 = factory().choose(*decision(v, seat, 3))
                assert a1 == a2, f"bot {label!r} chose differently on two states {seat} cannot tell apart"
        if json.dumps(m.to_dict(), sort_keys=True) != json.dumps(v.to_dict(), sort_keys=True):
            differ += 1
    # the variants must really differ in secrets, or the test proves nothing
    assert differ >= n // 3, f"only {differ} of {n} variants differed from the original"


def test_random_bot_is_a_bot() -> None:
    assert RandomBot().choose({}, [1], random.Random(0)) == 1
