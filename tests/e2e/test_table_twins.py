"""Secrets never enter another seat's page (issue 28), shown by browser twins across tables.

Two card-game tables are made from Python in the app server's store
(:func:`conquest_widget.tables.table_from_match`) from twin matches: the same setup, seed
and log but for the deck's shuffle, in which Ben's (seat 2's) two dealt cards are swapped
with the last two cards of the deck, which are never drawn in this test.  Ann's (seat 1's)
hand, every card drawn, every public fact are the same at both tables; Ben's hand differs
(checked in Python before and after the walk).

Four Chromium contexts (separate cookies, each logs in by itself): Ann's link of each table
and the watch link of each.  Ann plays by clicks, the same clicks on both of her pages
(draw, select a card or end the turn, pick a target when asked); Ben plays from Python at
both tables (draw, end his turn: the same public actions with different cards).  After the
pages load and after every step, each pair of twins (Ann's two pages; the two watch pages)
is compared (:func:`twins.compare`): every websocket frame each page received since it
was opened, and its DOM, byte for byte after normalising only what differs by
construction:

- per-session values, as :mod:`twins` does for the hot-seat twins: message envelopes
  (ids, session, dates), comm/model ids (canonical names), every other uuid and 24-64
  digit hex id by order of first appearance (the two tables' ids among them), ISO dates,
  the server's origin and the login token;
- the tables' keys: Ann's key and the watch key of each table, replaced by ``SEATKEY`` /
  ``WATCHKEY`` (a page's own key, in its address, is random per table).

Nothing else is touched.  Each step waits for both twins to show it before the next (a
page looks at the store every 0.25 s: two moves inside one look would send one update to a
twin and two to the other), so what a page receives does not depend on timing.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from conquest_widget import tables
from conquest_widget.core import registry
from conquest_widget.core.protocol import CHANCE
from conquest_widget.games.conquest_cards.widget import UI
from conquest_widget.ui.game_ui import SeatChoice

from . import twins as T
from .harness import OfflineGuard, new_context, new_page
from .test_cards_in_browser import _STATE_JS
from .test_tables_in_browser import hand, login, step

GAME = "conquest_cards"
SEED = 41
ANN, BEN = 0, 1
ANN_TURNS = 4

_TABLE_DOM_JS = "() => { const p = document.querySelector('.cw-table-page'); return p ? p.outerHTML : ''; }"


def _same(x: Any, y: Any) -> bool:
    return json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)


def twin_matches() -> tuple[Any, Any]:
    """A new match and its twin: Ben's two dealt cards swapped with the deck's last two."""
    engine = registry.get(GAME).engine_class()
    m = engine(UI.make_setup([SeatChoice("Ann"), SeatChoice("Ben")], {}), seed=SEED)
    doc = m.to_dict()
    log = [dict(e) for e in doc["log"]]
    i = next(i for i, e in enumerate(log) if e["seat"] == CHANCE and e["kind"] == "shuffle")
    order = list(log[i]["outcome"])
    # the shuffle deals order[0], order[1], order[2], order[3] to seats 0, 1, 0, 1; the deck
    # is the rest, drawn from its front
    order[1], order[-1] = order[-1], order[1]
    order[3], order[-2] = order[-2], order[3]
    log[i] = dict(log[i], outcome=order)
    v = engine.from_dict(dict(doc, log=log))
    assert_twins(m, v)
    return m, v


def assert_twins(m: Any, v: Any) -> None:
    """Ann and the public know the same at both; Ben does not."""
    assert _same(m.view(ANN), v.view(ANN)) and _same(m.view(None), v.view(None))
    assert _same(m.events_for(ANN), v.events_for(ANN)) and _same(m.events_for(None), v.events_for(None))
    assert m.to_act() == v.to_act()
    assert sorted(m.view(BEN)["hand"]) != sorted(v.view(BEN)["hand"])


def _wait_changed(page: Page, before: str) -> None:
    page.wait_for_function(f"() => ({_TABLE_DOM_JS})() !== {json.dumps(before)}", timeout=60_000)


def test_seat_and_watch_pages_of_twin_tables_receive_the_same_bytes(
        browser, voila_url: str, served_dir: Path, artifacts: Path) -> None:
    store = tables.open_store(served_dir / "conquest_saves")
    m, v = twin_matches()
    made = [tables.table_from_match(store, match, ["human", "human"], title="Ann, Ben") for match in (m, v)]
    base = voila_url.partition("?")[0]
    token = T._token(voila_url)
    subst: dict[str, str] = {}
    for new in made:
        subst[new.invites[ANN]] = "SEATKEY"
        subst[new.watch] = "WATCHKEY"
    bens = [tables.join(store, new.invites[BEN]) for new in made]
    notes: list[str] = []
    contexts = []
    try:
        pages: dict[str, T.Twin] = {}
        for name, link in (
                ("ann-1", tables.seat_link(base, made[0].id, ANN, made[0].invites[ANN])),
                ("ann-2", tables.seat_link(base, made[1].id, ANN, made[1].invites[ANN])),
                ("watch-1", tables.watch_link(base, made[0].id, made[0].watch)),
                ("watch-2", tables.watch_link(base, made[1].id, made[1].watch))):
            context = new_context(browser, OfflineGuard())
            contexts.append(context)
            tw = T.Twin(name, served_dir, link, new_page(context), token=token)
            T._record(tw)
            pages[name] = tw
        ann, watch = (pages["ann-1"], pages["ann-2"]), (pages["watch-1"], pages["watch-2"])
        for tw in pages.values():
            tw.begin_window()
            tw.page.goto(login(tw.url, voila_url))
        for tw in ann:
            expect(tw.page.locator(".cw-table-seat-0 .cw-cards-board")).to_be_visible()
        for tw in watch:
            expect(tw.page.locator(".cw-table-watch .cw-cards-board")).to_be_visible()

        def cmp(label: str) -> None:
            T.compare(*ann, artifacts, f"tables-ann-{label}", notes, subst=subst)
            T.compare(*watch, artifacts, f"tables-watch-{label}", notes, subst=subst)

        cmp("loaded")
        turns = 0
        for k in range(60):
            bens[0].refresh()
            (s,) = bens[0].to_act()
            if s == BEN:
                if turns >= ANN_TURNS:
                    break
                for kind in ("draw", "end"):
                    before = [tw.page.evaluate(_TABLE_DOM_JS) for tw in (*ann, *watch)]
                    for ben in bens:
                        ben.refresh()
                        (action,) = [a for a in ben.legal() if a.to_dict()["type"] == kind]
                        ben.act(action)
                    for tw, b in zip((*ann, *watch), before, strict=True):
                        _wait_changed(tw.page, b)  # each twin shows the move before the next one
                    cmp(f"{k}-ben-{kind}")
                continue
            ann[0].page.wait_for_function(f"() => ['draw', 'target', 'play'].includes(({_STATE_JS})())",
                                          timeout=60_000)
            state = ann[0].page.evaluate(_STATE_JS)
            assert ann[1].page.evaluate(_STATE_JS) == state
            if state == "draw":
                turns += 1
                mine = set(tables.join(store, made[0].invites[ANN]).view()["hand"])
                for tw in ann:  # Ann's own hand on each of her pages, as her seat sees it
                    assert hand(tw.page) == mine
                for tw in watch:
                    assert not hand(tw.page)
            for tw in ann:
                step(tw.page, state, turns)
            cmp(f"{k}-ann-{state}")
        else:
            raise AssertionError("the walk did not come round to Ben after Ann's turns")
        assert turns == ANN_TURNS

        # the twins are still twins, and Ben's secrets differ at the two tables
        m2, v2 = (tables.join(store, new.watch) for new in made)
        a2 = [tables.join(store, new.invites[ANN]) for new in made]
        assert _same(a2[0].view(), a2[1].view()) and _same(m2.view(), v2.view())
        assert _same(a2[0].events(), a2[1].events()) and _same(m2.events(), v2.events())
        assert sorted(bens[0].view()["hand"]) != sorted(bens[1].view()["hand"])
        (artifacts / "tables-twins-walk.txt").write_text("\n".join(notes), encoding="utf-8")
        for tw in pages.values():
            assert tw.page.page_errors == []  # type: ignore[attr-defined]
    finally:
        for c in contexts:
            with contextlib.suppress(Exception):
                c.close()
