"""Views (public, JSON-able, built by inclusion), the event ledger, and the text of every
event and explanation in English and Japanese."""

from __future__ import annotations

import json
import random

from conquest_widget.games.codex.engine import CodexMatch, CodexSetup
from conquest_widget.games.codex.text import STRINGS, describe_event, t


def _played(seed: int = 3, n: int = 4) -> CodexMatch:
    rng = random.Random(seed)
    m = CodexMatch(CodexSetup.quick(n, k=3), seed=seed)
    while not m.is_over:
        s = m.to_act()[0]
        m.apply(rng.choice(m.legal_actions(s)), s)
    return m


def test_views_are_public_identical_for_every_seat_and_json() -> None:
    m = _played()
    base = m.view(None)
    for s in range(m.n_seats):
        v = m.view(s)
        assert v.pop("seat") == s
        assert v == {k: x for k, x in base.items() if k != "seat"}
    json.dumps(base, allow_nan=False)
    assert set(base) >= {"board", "factions", "players", "dice", "phase", "to_act", "purchases_left"}


def test_views_are_built_fresh_not_shared_with_the_state() -> None:
    m = _played()
    v = m.view(None)
    base_board = list(v["board"])
    v["players"][0]["shares"]["tide"] = 999
    v["board"][0] = "tide"
    assert m.view(None)["players"][0]["shares"]["tide"] != 999 and m.view(None)["board"] == base_board


def test_every_cash_event_names_its_cause_and_the_events_match_the_ledger() -> None:
    m = _played(seed=11, n=5)
    cash_events = [{k: v for k, v in e.items() if k != "type"} for e in m.events_for(None) if e["type"] == "cash"]
    assert cash_events == m.ledger()
    for s in range(m.n_seats):
        assert sum(e["amount"] for e in m.ledger(s)) == m.cash(s)


def test_every_event_has_a_log_line_in_both_languages() -> None:
    m = _played(seed=5, n=3)
    names = [p.name for p in m.setup.players]
    kinds = set()
    for e in m.events_for(None):
        kinds.add(e["type"])
        for lang in ("en", "ja"):
            line = describe_event(e, lang, names)
            assert line and not line.startswith("{")
    assert {"pick", "first_player", "turn", "roll", "place", "cash", "end"} <= kinds


def test_string_table_has_both_languages_and_formats() -> None:
    for key, (en, ja) in STRINGS.items():
        assert en and ja, key
    assert t("not_larger", "ja", size=3, enemy=3) == "3個の集団は隣の敵の3個の集団より大きくありません"


def test_every_explanation_renders_in_english_and_japanese_from_its_details() -> None:
    from conquest_widget.games.codex.engine import (
        Buy,
        EndTurn,
        ForcedSell,
        Pick,
        Place,
        Roll,
        Sell,
    )
    from conquest_widget.games.codex.text import explain_text

    rng = random.Random(2)
    reasons = set()
    tries = [Pick("tide"), Buy("ember"), Buy("tide"), Sell("grove"), Sell("sun"), Roll(), EndTurn(),
             ForcedSell("ember"), Buy("opal")] + [Place(t, r, c, f) for t in (1, 4, 7) for r in (1, 2) for c in (1, 3)
                                                   for f in ("ember", "sun")]
    for seed in range(6):
        m = CodexMatch(CodexSetup.quick(3, k=2), seed=seed)
        while not m.is_over:
            s = m.to_act()[0]
            for a in tries:
                err = m.explain(s, a)
                if err is not None and err.reason in STRINGS:
                    reasons.add(err.reason)
                    assert explain_text(err.reason, err.details, "en") == str(err)
                    ja = explain_text(err.reason, err.details, "ja")
                    assert ja and "{" not in ja
            m.apply(rng.choice(m.legal_actions(s)), s)
    assert {"wrong_phase", "unlisted", "not_rolled", "already_rolled", "wrong_territory", "off_board",
            "unknown_faction", "must_place"} <= reasons
