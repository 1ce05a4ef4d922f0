"""Tables from Python (issue 28, the store and its API): each seat acts from its own client,
every action is one checked transaction, keys are kept only as hashes, one process plays the
CPUs under a lease, and nothing is lost when a process dies mid-action.  Real SQLite files,
real processes."""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import signal
import time
from typing import Any

import pytest

from conquest_widget import tables
from conquest_widget.core import registry
from conquest_widget.errors import IllegalActionError, SetupError
from conquest_widget.tables import StaleTableError, StoreSchemaError, TableClosedError

CARDS = "conquest_cards"


def cards_setup(seed: int = 1, n: int = 2) -> Any:
    return registry.get(CARDS).engine_class().random_setup(random.Random(seed), n)


def new_cards_table(store: Any, seats: list[str] | None = None, seed: int = 5) -> tables.NewTable:
    return tables.create_table(store, CARDS, cards_setup(), seats or ["human", "human"], seed=seed)


def replayed(store: Any, table_id: str) -> Any:
    """The table's match rebuilt from what the store holds (checks the log replays)."""
    row = store.table(table_id)
    engine = registry.get(row.game).engine_class()
    return engine.from_dict({"game": row.game, "version": row.game_version, "setup": row.setup,
                             "seed": row.seed, "log": store.log(table_id)})


def play_to_the_end(clients: dict[int, tables.SeatClient], rng: random.Random) -> int:
    """Each seat acts from its own client, the others catching up before they decide."""
    n = 0
    any_client = next(iter(clients.values()))
    while True:
        for c in clients.values():
            c.refresh()
        if any_client.outcome() is not None:
            return n
        seat = any_client.to_act()[0]
        me = clients[seat]
        me.act(rng.choice(me.legal()))
        n += 1


# ------------------------------------------------------------ a game, seat by seat
def test_two_seats_play_a_card_game_to_the_end_each_from_its_own_client(where: str) -> None:
    store = tables.open_store(where)
    new = new_cards_table(store)
    clients = {s: tables.join(store, key) for s, key in new.invites.items()}
    watch = tables.join(store, new.watch)
    n = play_to_the_end(clients, random.Random(2))
    assert n > 10
    row = store.table(new.id)
    assert row.status == "over" and store.result(new.id) == clients[0].outcome()
    watch.refresh()
    assert watch.view() == replayed(store, new.id).view(None)
    # a reload (a new client with the same key) is at the same seat and position
    again = tables.join(store, new.invites[1])
    assert again.seat == 1 and again.view() == clients[1].view() and again.version == row.version
    assert again.legal() == [] and again.outcome() == store.result(new.id)
    assert [t.id for t in tables.list_tables(store, status="over")] == [new.id]


def test_each_client_sees_only_its_seat_and_the_watch_key_only_the_public(where: str) -> None:
    store = tables.open_store(where)
    new = new_cards_table(store)
    ann, ben, watch = (tables.join(store, k) for k in (new.invites[0], new.invites[1], new.watch))
    truth = replayed(store, new.id)
    assert ann.view() == truth.view(0) and ben.view() == truth.view(1) and watch.view() == truth.view(None)
    assert ann.view() != ben.view()  # each has its own hand
    assert ann.events() == truth.events_for(0) and watch.events() == truth.events_for(None)
    assert watch.legal() == [] and ann.seat == 0 and ben.seat == 1
    with pytest.raises(IllegalActionError, match="watch page cannot act"):
        watch.act({"type": "pass"})


def everything_stored(store: Any) -> str:
    """Every value of every row of the store, as text."""
    with store._connect() as db:
        return "\n".join(repr(row) for name in ("meta", "tables", "seats", "log", "leases", "results")
                         for row in db.execute(f"SELECT * FROM {name}").fetchall())


def test_keys_are_random_and_only_their_hashes_are_stored(where: str) -> None:
    store = tables.open_store(where)
    new = new_cards_table(store)
    keys = [*new.invites.values(), new.watch]
    assert len(set(keys)) == 3 and all(len(k) >= 22 for k in keys)  # 16 random bytes, base64url
    stored = everything_stored(store)
    assert not any(k in stored for k in keys)
    assert all(tables.table.key_hash(k) in stored for k in keys)
    if isinstance(store, tables.SQLiteStore):  # nor anywhere in the files (journal included)
        raw = b"".join(p.read_bytes() for p in store.path.parent.glob("tables.sqlite3*"))
        assert raw and not any(k.encode() in raw for k in keys)
    with pytest.raises(tables.NoSuchTableError, match="no table has a seat with this key"):
        tables.join(store, keys[0][:-2] + "xx")


def test_a_cpu_seat_is_played_by_the_lease_holder_with_its_view(where: str) -> None:
    store = tables.open_store(where)
    new = tables.create_table(store, CARDS, cards_setup(), ["human", "normal"], seed=5)
    me = tables.join(store, new.invites[0])
    assert list(new.invites) == [0]
    rng = random.Random(3)
    while me.outcome() is None:
        if me.to_act() == (0,):
            me.act(rng.choice(me.legal()))
        else:
            assert me.play_cpus("kernel-a") >= 1
        me.refresh()
    assert store.table(new.id).status == "over"
    assert replayed(store, new.id).outcome() is not None


# ------------------------------------------------------------ concurrency
def test_an_action_decided_on_an_old_version_is_refused_and_nothing_is_applied(where: str) -> None:
    store = tables.open_store(where)
    new = new_cards_table(store)
    seat = tables.join(store, new.invites[0]).to_act()[0]
    first, second = tables.join(store, new.invites[seat]), tables.join(store, new.invites[seat])  # two tabs
    first.act(first.legal()[0])
    version = store.version(new.id)
    with pytest.raises(StaleTableError) as err:
        second.act(second.legal()[0])
    assert err.value.version == version == store.version(new.id)
    assert second.version < version  # its page is unchanged until it refreshes
    assert second.refresh() and second.view() == first.view()


def test_an_illegal_action_changes_nothing(where: str) -> None:
    store = tables.open_store(where)
    new = new_cards_table(store)
    mover = tables.join(store, new.invites[0]).to_act()[0]
    idle = tables.join(store, new.invites[1 - mover])
    before, view = store.version(new.id), idle.view()
    with pytest.raises(IllegalActionError, match="may not act now"):
        idle.act(tables.join(store, new.invites[mover]).legal()[0])  # the other seat's move
    assert store.version(new.id) == before and idle.view() == view and idle.version == before


def _race(path: str, keys: list[str], attempts: int, start: Any, out: Any) -> None:
    """A kernel with both seats' pages open, acting for whoever is to act, as fast as it can."""
    store = tables.open_store(path)
    clients = [tables.join(store, key) for key in keys]
    start.wait()
    applied = stale = 0
    for _ in range(attempts):
        for c in clients:
            c.refresh()
        if clients[0].outcome() is not None:
            break
        mine = [c for c in clients if c.legal()]  # (each page at the version it read)
        if not mine:
            continue
        me = mine[0]
        try:
            me.act(me.legal()[0])
            applied += 1
        except StaleTableError:
            stale += 1
    out.put((applied, stale))


def test_two_processes_acting_at_once_apply_each_action_exactly_once(where: str) -> None:
    """Two kernels with the same two seat pages open, 50 attempts each, as fast as they can:
    every applied action is in the log once, every refused one not at all."""
    store = tables.open_store(where)
    new = tables.create_table(store, "codex", registry.get("codex").engine_class().random_setup(random.Random(4), 2),
                              ["human", "human"], seed=2)
    before = len(store.log(new.id))
    ctx = mp.get_context("spawn")
    start, out = ctx.Event(), ctx.Queue()
    keys = [new.invites[0], new.invites[1]]
    procs = [ctx.Process(target=_race, args=(where, keys, 50, start, out)) for _ in range(2)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    applied = sum(a for a, _ in results)
    assert sum(s for _, s in results) <= 100 - applied
    actions = [e for e in store.log(new.id)[before:] if e["seat"] != -1]
    assert applied == len(actions) >= 50
    match = replayed(store, new.id)  # one legal game (from_dict checks that the log replays to itself)
    assert len(match.log) == store.version(new.id)


def _die_mid_action(path: str, table_id: str, ready: Any) -> None:
    store = tables.open_store(path)
    with store.transaction() as db:  # an action half written ...
        n = store._run(db, "SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
        store._run(db, "INSERT INTO log (table_id, n, entry) VALUES (?, ?, ?)", (table_id, n, '{"seat": 0}'))
        ready.set()
        time.sleep(600)  # ... when the kernel is killed


def test_a_kernel_killed_in_the_middle_of_an_action_loses_nothing(where: str) -> None:
    store = tables.open_store(where)
    new = new_cards_table(store)
    version = store.version(new.id)
    ctx = mp.get_context("spawn")
    ready = ctx.Event()
    p = ctx.Process(target=_die_mid_action, args=(where, new.id, ready))
    p.start()
    assert ready.wait(120)
    os.kill(p.pid, signal.SIGKILL)
    p.join(30)
    assert store.version(new.id) == version and len(store.log(new.id)) == version  # nothing half-applied
    seat = tables.join(store, new.invites[0]).to_act()[0]
    me = tables.join(store, new.invites[seat])
    me.act(me.legal()[0])  # and the table goes on
    assert replayed(store, new.id).view(seat) == me.view()


def _cpu_kernel(path: str, table_id: str, key: str) -> None:
    store = tables.open_store(path)
    client = tables.join(store, key)
    client.play_cpus("kernel-a", ttl=1.0)
    time.sleep(600)  # the kernel stays alive holding the lease until it is killed


def test_when_the_kernel_playing_the_cpus_dies_another_takes_over(where: str) -> None:
    store = tables.open_store(where)
    new = tables.create_table(store, CARDS, cards_setup(), ["normal", "normal"], seed=5)
    assert new.invites == {}
    ctx = mp.get_context("spawn")
    p = ctx.Process(target=_cpu_kernel, args=(where, new.id, new.watch))
    p.start()
    deadline = time.time() + 120
    while store.lease_holder(new.id) != "kernel-a" and time.time() < deadline:
        time.sleep(0.05)
    os.kill(p.pid, signal.SIGKILL)
    p.join(30)
    other = tables.join(store, new.watch)
    if store.table(new.id).status == "open":
        # the dead kernel's lease blocks others only until it expires (1 s here)
        waited = time.time()
        while other.play_cpus("kernel-b", ttl=1.0) == 0 and store.table(new.id).status == "open":
            assert time.time() - waited < 30
            time.sleep(0.2)
        other.play_cpus("kernel-b", ttl=1.0)
    assert store.table(new.id).status == "over"
    assert replayed(store, new.id).outcome() is not None


# ------------------------------------------------------------ the store
def test_closing_a_table_stops_its_actions_and_keeps_its_log(where: str) -> None:
    store = tables.open_store(where)
    new = new_cards_table(store)
    seat = tables.join(store, new.invites[0]).to_act()[0]
    me = tables.join(store, new.invites[seat])
    log = store.log(new.id)
    tables.close_table(store, new.id)
    with pytest.raises(TableClosedError, match="closed"):
        me.act(me.legal()[0])
    assert store.log(new.id) == log and [t.status for t in tables.list_tables(store)] == ["closed"]
    with pytest.raises(tables.NoSuchTableError):
        tables.close_table(store, "nope")


def test_bad_seat_kinds_are_refused_before_anything_is_stored(where: str) -> None:
    store = tables.open_store(where)
    with pytest.raises(SetupError, match="'genius' is neither 'human' nor a bot of conquest_cards"):
        tables.create_table(store, CARDS, cards_setup(), ["human", "genius"])
    with pytest.raises(SetupError, match="2 seats, but 3 seat kinds"):
        tables.create_table(store, CARDS, cards_setup(), ["human", "human", "human"])
    assert tables.list_tables(store) == []


def test_a_store_of_a_newer_version_is_refused_and_left_alone(where: str) -> None:
    store = tables.open_store(where)
    with store.transaction() as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    before = everything_stored(store)
    with pytest.raises(StoreSchemaError, match="newer conquest_widget .table schema 99"):
        tables.open_store(where)
    assert everything_stored(store) == before


def test_a_table_goes_on_from_a_match_already_under_way(where: str) -> None:
    store = tables.open_store(where)
    engine = registry.get(CARDS).engine_class()
    m = engine(cards_setup(), seed=9)
    for _ in range(3):
        seat = m.to_act()[0]
        m.apply(m.legal_actions(seat)[0], seat)
    new = tables.table_from_match(store, m, ["human", "human"], title="lesson")
    ann = tables.join(store, new.invites[0])
    assert ann.version == len(m.log) and ann.view() == m.view(0)
    assert tables.join(store, new.watch).view() == m.view(None)
    row = next(r for r in tables.list_tables(store) if r.id == new.id)
    assert row.title == "lesson" and row.status == "open"
