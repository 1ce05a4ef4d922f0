"""A page at a table (issue 28): the controller a board draws from publishes only its seat's
view, catches up with the other pages (by poll, or on its own in an event loop), tells a
player whose move came too late, and has the CPU seats played by the page holding the lease.
Real SQLite stores; the boards are the games' own."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from conquest_widget import tables
from conquest_widget.core import registry
from conquest_widget.ui.table_controller import TableController

CARDS = "conquest_cards"


def table(tmp_path: Path, seats: list[str], game: str = CARDS) -> tuple[tables.SQLStore, tables.NewTable]:
    store = tables.open_store(tmp_path)
    setup = registry.get(game).engine_class().random_setup(random.Random(1), len(seats))
    return store, tables.create_table(store, game, setup, seats, seed=5)


def test_two_pages_play_to_the_end_each_seeing_only_its_seat(tmp_path: Path) -> None:
    store, new = table(tmp_path, ["human", "human"])
    pages = {s: TableController(tables.join(store, key)) for s, key in new.invites.items()}
    watch = TableController(tables.join(store, new.watch))
    rng = random.Random(4)
    moves = 0
    while True:
        for p in (*pages.values(), watch):
            p.poll()
        if pages[0].is_over:
            break
        movers = [p for p in pages.values() if p.legal]
        assert len(movers) == 1  # the seat to act, and only it, is offered actions
        movers[0].act(rng.choice(movers[0].legal))
        moves += 1
        seat = movers[0].viewer
        assert movers[0].view == tables.join(store, new.invites[seat]).view()  # its own move, at once
        assert watch.poll() is True and watch.view == tables.join(store, new.watch).view() and watch.legal == []
    for s, p in pages.items():
        p.poll()
        assert p.view == tables.join(store, new.invites[s]).view() and p.outcome() == store.result(new.id)
    assert moves > 10 and pages[0].view != pages[1].view  # each its own hand to the end


def test_a_move_that_comes_too_late_is_not_applied_and_the_page_catches_up(tmp_path: Path) -> None:
    store, new = table(tmp_path, ["human", "human"])
    seat = tables.join(store, new.invites[0]).to_act()[0]
    tab_a, tab_b = (TableController(tables.join(store, new.invites[seat])) for _ in range(2))  # one link, two tabs
    tab_a.act(tab_a.legal[0])
    version = store.version(new.id)
    tab_b.act(tab_b.legal[0])  # decided on what it showed before tab A's move
    assert store.version(new.id) == version  # nothing applied
    assert tab_b.message.startswith("Another player acted first")
    assert tab_b.view == tab_a.view  # and it shows the game as it is now


def test_the_watch_page_cannot_act_and_illegal_moves_are_refused_with_a_message(tmp_path: Path) -> None:
    store, new = table(tmp_path, ["human", "human"])
    watch = TableController(tables.join(store, new.watch), lang="ja")
    mover = tables.join(store, new.invites[0]).to_act()[0]
    idle = TableController(tables.join(store, new.invites[1 - mover]))
    before = store.version(new.id)
    watch.act({"type": "end_turn"})
    assert watch.message == "このページは観戦用です。手を指せません。"
    idle.act(tables.join(store, new.invites[mover]).legal()[0].to_dict())
    assert "may not act now" in idle.message and store.version(new.id) == before


def test_the_cpu_seat_answers_on_the_page_that_holds_the_lease(tmp_path: Path) -> None:
    store, new = table(tmp_path, ["human", "normal"])
    me = TableController(tables.join(store, new.invites[0]))
    rng = random.Random(2)
    while not me.is_over:
        assert me.legal, "the CPU's turns are played before the page publishes"
        me.act(rng.choice(me.legal))
    assert store.table(new.id).status == "over" and store.lease_holder(new.id) in (None, me.holder)


def test_a_page_in_an_event_loop_shows_other_pages_moves_without_a_reload(tmp_path: Path) -> None:
    store, new = table(tmp_path, ["human", "human"])
    seat = tables.join(store, new.invites[0]).to_act()[0]
    mover = TableController(tables.join(store, new.invites[seat]))
    other = TableController(tables.join(store, new.invites[1 - seat]))

    async def scenario() -> bool:
        assert other.start(every=0.05)
        seen = other.version
        mover.act(mover.legal[0])
        for _ in range(400):  # wait (up to 20 s on a busy machine) for the page to catch up
            await asyncio.sleep(0.05)
            if other.version > seen:
                break
        other.stop()
        return other.version > seen

    assert asyncio.run(scenario())
    assert other.view == tables.join(store, new.invites[1 - seat]).view()
    assert not other.start()  # no event loop here: the caller polls


def test_a_games_own_board_draws_a_table_page(tmp_path: Path) -> None:
    from ipywidgets import Widget

    from conquest_widget.ui.replay import game_ui

    for game in ("codex", "japanese_risk", CARDS):
        store, new = table(tmp_path / game, ["human", "human"], game=game)
        page = TableController(tables.join(store, new.invites[0]))
        board = game_ui(game).board(page, "en")
        assert isinstance(board, Widget)
        other = TableController(tables.join(store, new.invites[1]))
        mover = page if page.legal else other
        mover.act(mover.legal[0])
        page.poll()  # the board redraws from the published change without an error
        board.close()
