"""Hidden information of Japanese Risk: views by inclusion, per-seat events, pair tests,
per-seat export, resampling of hidden states."""

from __future__ import annotations

import copy
import json
import random

from conquest_widget.core.bots import bot_rng
from conquest_widget.games.japanese_risk.bots import BOTS
from conquest_widget.games.japanese_risk.engine import (
    CODES,
    NEUTRAL,
    JapaneseRisk,
    export_for_seat,
)
from conquest_widget.games.japanese_risk.resample import resample_hidden, resample_match

from .helpers import random_game

PAIRS = 1000


def _dump(x) -> str:
    return json.dumps(x, sort_keys=True)


def test_pair_test_over_1000_pairs():
    """Matches that differ only in what ``seat`` cannot know look identical to it (views,
    public view, events, legal actions, bot choices); the variants really differ."""
    rng = random.Random(20261130)
    differ = 0
    m = None
    for i in range(PAIRS):
        if i % 4 == 0:  # four variants (random seats) per random position
            m = random_game(rng, stop_at=rng.randrange(0, 300))
        seat = rng.randrange(m.n_seats)
        v = m.hidden_variant(seat, rng)
        assert _dump(m.view(seat)) == _dump(v.view(seat))
        assert _dump(m.view(None)) == _dump(v.view(None))
        assert _dump(m.events_for(seat)) == _dump(v.events_for(seat))
        assert m.to_act() == v.to_act()
        if seat in m.to_act() and m.outcome() is None:
            assert m.legal_actions(seat) == v.legal_actions(seat)
            if i % 10 == 0:
                for label, factory in BOTS.items():
                    a1 = factory().choose(m.view(seat), m.legal_actions(seat), bot_rng(3, seat, len(m.log)))
                    a2 = factory().choose(v.view(seat), v.legal_actions(seat), bot_rng(3, seat, len(v.log)))
                    assert a1 == a2, label
        if _dump(m.to_dict()) != _dump(v.to_dict()):
            differ += 1
            # the difference is in secrets: owners of cards nobody showed to this seat
            diff = [c for c in CODES if m.state["owner"][c] != v.state["owner"][c]]
            assert all(not m.state["revealed"][c] and m.state["owner"][c] != seat for c in diff)
    assert differ >= PAIRS // 2, differ


def _mutate_secrets(m: JapaneseRisk, seat: int, rng: random.Random) -> dict:
    """Change every hidden fact of the state that ``seat`` may not know (state level)."""
    s = copy.deepcopy(m.state)
    others = [p for p in range(m.n_seats) if p != seat]
    unknown = [c for c in CODES if not s["revealed"][c] and s["owner"][c] != seat]
    owners = [s["owner"][c] for c in unknown]
    rng.shuffle(owners)
    for c, o in zip(unknown, owners, strict=True):
        s["owner"][c] = o
    for c in CODES:
        if s["owner"][c] != seat:
            s["card"][c] = rng.randrange(0, 9) if s["owner"][c] != NEUTRAL else 0
        s["ninjas"][c] = [o if o == seat else rng.choice(others) for o in s["ninjas"][c]]
    for p in others:
        s["reserve"][p] = rng.randrange(0, 5)
        s["bought"][p] = rng.randrange(0, 9)
    if s["window"] is not None:
        s["window"]["decl"] = [d for d in s["window"]["decl"] if d[0] == seat]
    return s


def test_views_do_not_depend_on_other_seats_secrets():
    """Views are built by inclusion: rewriting every secret of the other seats (unrevealed
    owners, their card armies, ninja owners and reserves, undisclosed strikes) changes
    nothing in ``view(seat)`` when the turn flow does not depend on it."""
    rng = random.Random(7)
    checked = 0
    for _ in range(150):
        m = random_game(rng, stop_at=rng.randrange(0, 600))
        if m.state["battle"] is not None:
            continue  # being asked to commit shows that the revealed defender has card armies
        for seat in range(m.n_seats):
            before = _dump(m.view(seat))
            saved = m.state
            m.state = _mutate_secrets(m, seat, rng)
            try:
                assert _dump(m.view(seat)) == before
            finally:
                m.state = saved
            checked += 1
    assert checked > 200


def test_events_give_each_seat_only_its_own_secrets():
    rng = random.Random(8)
    for _ in range(40):
        m = random_game(rng, stop_at=rng.randrange(50, 800))
        for e in m.events:
            if e.visible_to is not None:
                assert len(e.visible_to) == 1
                assert e.public is None or set(e.public) < set(e.data)
                if e.data["type"] in ("placed", "ninja_bought", "strike_declared"):
                    assert e.public is None
                if e.data["type"] == "dealt":
                    assert "cards" not in e.public
        for seat in range(m.n_seats):
            for e in m.events_for(seat):
                if e["type"] in ("placed", "ninja_bought", "strike_declared") or "cards" in e:
                    assert e["seat"] == seat
                if e["type"] in ("strike", "ninjas_won", "ninja_moved"):
                    assert "seat" not in e  # a ninja's owner is never named


def test_export_for_seat_is_what_that_seat_knows():
    rng = random.Random(9)
    m = random_game(rng, n=3, stop_at=500)
    doc = export_for_seat(m, 1)
    text = json.dumps(doc)
    assert doc["view"] == json.loads(json.dumps(m.view(1))) and doc["events"] == m.events_for(1)
    assert "log" not in doc and "seed" not in doc and '"deal"' not in text
    secret_cards = [c for c in CODES if m.state["owner"][c] == 0 and not m.state["revealed"][c]]
    for t in doc["view"]["territories"]:
        if t["code"] in secret_cards:
            assert t["owner"] is None


def test_resample_is_consistent_with_the_view():
    rng = random.Random(10)
    n = 0
    for _ in range(120):
        m = random_game(rng, stop_at=rng.randrange(0, 1500))
        for seat in range(m.n_seats):
            v = m.view(seat)
            for k in range(2):
                sim = resample_match(v, random.Random(k))
                assert _dump(sim.view(seat)) == _dump(v)
                n += 1
                # the drawn state can be played on
                if sim.outcome() is None and sim.to_act():
                    s = sim.to_act()[0]
                    legal = sim.legal_actions(s)
                    assert legal
                    sim.apply(random.Random(k).choice(legal), s)
    assert n > 400


def test_resample_does_not_favour_the_true_state():
    """Owners of unseen territories are drawn uniformly under the public counts: the true
    owner comes out at the base rate, not more often."""
    rng = random.Random(11)
    m = random_game(rng, n=3, stop_at=300)
    seat = 0
    v = m.view(seat)
    unknown = [t["code"] for t in v["territories"] if t["owner"] is None]
    assert len(unknown) > 10
    draws = 400
    hits = 0
    exact = 0
    for i in range(draws):
        st = resample_hidden(v, random.Random(i))
        same = sum(1 for c in unknown if st["owner"][c] == m.state["owner"][c])
        hits += same
        exact += same == len(unknown)
    # expected matches per territory: sum over owners of (share)^2
    shares = {}
    for c in unknown:
        shares[m.state["owner"][c]] = shares.get(m.state["owner"][c], 0) + 1
    base = sum((k / len(unknown)) ** 2 for k in shares.values())
    rate = hits / (draws * len(unknown))
    sigma = (base * (1 - base) / (draws * len(unknown))) ** 0.5
    assert abs(rate - base) < 4 * sigma + 0.02, (rate, base)
    assert exact == 0
