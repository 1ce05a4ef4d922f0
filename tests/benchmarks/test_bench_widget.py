"""Widget benchmark: what Japan Conquest's app sends over the wire (comm opens, widget data
and serialized frames, counted by ``tests/games/japan_conquest/widget/wire.py``) for the first render and per
move, map redraws per click, and the kernel time per action with and without autosave.
Run with ``make bench``; writes its block of docs/performance.md."""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import ipyleaflet as L
import pytest
from perfdoc import update_block

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ -> the wire counter
from games.japan_conquest.widget.wire import WireCounter, state_request_bytes

from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, PlayerSetup
from conquest_widget.games.japan_conquest.widget.map_view import MapView

MOVES = 40
SETUP = GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=50, seed=11)


def med(xs):
    return statistics.median(xs)


def p95(xs):
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


def spread(xs):
    """min, median, p95, max (for the summary, tests/benchmarks/test_bench_summary.py)."""
    return [min(xs), med(xs), p95(xs), max(xs)]


class _Action:
    """Whether a timed action is running: an autosave write then is inside the click path."""

    active = False


def _timed(out, action, *args):
    """Run one action, appending its kernel time (ms) to ``out``."""
    _Action.active = True
    t0 = time.perf_counter()
    try:
        action(*args)
    finally:
        out.append((time.perf_counter() - t0) * 1000)
        _Action.active = False


async def _after_action():
    """Back to the event loop between two actions, long enough for a due autosave to run."""
    await asyncio.sleep(0.004)


async def _play(app, wire, moves):
    """Play ``moves`` human moves (two humans) inside the event loop, as in a kernel; per
    move: figures of each planning click and of the confirmation, map refreshes per click,
    kernel time of each action (click -> views published; the autosave follows it).  The
    moves are the board's (its seat: Roll, a click on the map, Confirm, the battle's dice),
    handed to the shell's controller."""
    c = app.board.inner
    clicks, confirms, wholes, refreshes, action_ms = [], [], [], [], []
    for _ in range(moves):
        wire.reset()
        _timed(action_ms, c.roll)
        whole = [wire.data, wire.frames, wire.opens, wire.messages]
        await _after_action()
        if c.phase != "route":  # no legal route for this roll: the turn passed
            continue
        while not c.can_confirm:
            wire.reset()
            MapView.refreshes = 0
            _timed(action_ms, c.click_prefecture, c.legal_steps[0])
            refreshes.append(MapView.refreshes)
            clicks.append((wire.data, wire.frames, wire.opens, wire.messages))
            await _after_action()
            whole = [a + b for a, b in zip(whole, clicks[-1], strict=True)]
        wire.reset()
        _timed(action_ms, c.confirm_route)
        confirms.append((wire.data, wire.frames, wire.opens, wire.messages, wire.map_data()))
        wholes.append([a + b for a, b in zip(whole, confirms[-1][:4], strict=True)])
        await _after_action()
        while c.phase.startswith("battle"):
            c.battle_roll(1)
            await _after_action()
    return clicks, confirms, wholes, refreshes, action_ms


def _col(rows, i):
    return [r[i] for r in rows]


@pytest.mark.benchmark
def test_bytes_per_move_and_update_time(monkeypatch):
    asyncio.run(_bench(monkeypatch))


async def _bench(monkeypatch):
    from conquest_widget.ui import autosave as autosave_module

    monkeypatch.setattr(autosave_module, "AUTOSAVE_DELAY", 0.001)  # a write after every action: the worst case
    counted = MapView.refresh

    def refresh(self):
        MapView.refreshes += 1
        counted(self)

    monkeypatch.setattr(MapView, "refreshes", 0, raising=False)
    monkeypatch.setattr(MapView, "refresh", refresh)
    with WireCounter() as wire:
        from conquest_widget import JapanConquestApp

        t0 = time.perf_counter()
        app = JapanConquestApp(save_dir=tempfile.mkdtemp(prefix="cw-bench-"))  # autosave on, as players have it
        build_ms = (time.perf_counter() - t0) * 1000
        write_ms = []
        write_in_action = []  # per write: did it run inside a timed action (the click path)?
        original_autosave = app.store.write_autosave  # every autosave of the app goes through it

        def timed_autosave(game, **kw):
            write_in_action.append(_Action.active)
            t = time.perf_counter()
            try:
                return original_autosave(game, **kw)
            finally:
                write_ms.append((time.perf_counter() - t) * 1000)

        monkeypatch.setattr(app.store, "write_autosave", timed_autosave)
        built = (wire.data, wire.frames, wire.opens, wire.messages, wire.map_data())
        app._play(JapanMatch(SETUP), speed="instant")  # the New game form's Start, without the form
        first = (wire.data, wire.frames, wire.opens, wire.messages, wire.map_data())
        top = ", ".join(f"{m.replace('Model', '')} {n:,}" for m, n in wire.data_by_model.most_common(5))
        layouts = wire.opens_by_model["LayoutModel"]
        state_request = state_request_bytes()
        write_ms.clear()
        write_in_action.clear()
        clicks, confirms, wholes, refreshes, with_save = await _play(app, wire, MOVES)
        # the same moves without a save store: the kernel time autosave adds
        bare = JapanConquestApp(save_dir=None)
        bare._play(JapanMatch(SETUP), speed="instant")
        *_, without_save = await _play(bare, wire, MOVES)

    def mmm(xs, fmt="{:,.0f}"):
        return " / ".join(fmt.format(x) for x in (min(xs), med(xs), max(xs)))

    def trio(rows, i=0):
        data, frames = _col(rows, i), _col(rows, i + 1)
        return (f"data {mmm(data)} B (p95 {p95(data):,.0f}), frames {mmm(frames)} B (p95 {p95(frames):,.0f}), "
                f"{med(_col(rows, i + 3)):.0f} messages (median), comm opens {max(_col(rows, i + 2))} at most")

    def times(xs):
        return f"{mmm(xs, '{:.1f}')} ms (p95 {p95(xs):.1f})"

    inside = sum(write_in_action)

    rows = [
        ("first render: app construction, widget data / frames / messages / comm opens",
         f"{built[0]:,} B / {built[1]:,} B / {built[3]} / {built[2]} (map data {built[4]:,} B; {build_ms:.0f} ms)"),
        ("first render: construction + new game, widget data (aim <= 300 KB) / frames / messages / comm opens",
         (f"**{first[0]:,} B** / {first[1]:,} B / {first[3]} / {first[2]} (map data {first[4]:,} B; {layouts} Layout widgets; "
         f"largest: {top})")),
        ("front end's state request after the new game (state of every live widget)", f"{state_request:,} B"),
        ("confirm route (a confirmed move), all views, min / median / max (aim: data <= 500 B)", trio(confirms)),
        ("confirm route: map data, median / p95", f"{med(_col(confirms, 4)):,.0f} B / {p95(_col(confirms, 4)):,.0f} B"),
        ("planning click (one step), all views, min / median / max", trio(clicks)),
        ("whole move (roll + each planned step + confirm), all views, min / median / max", trio(wholes)),
        ("comm opens over the whole game (moves with one / moves)",
         (f"{sum(_col(wholes, 2))} ({sum(1 for w in wholes if w[2])} / {len(wholes)}): a castle label's icon or a long route's "
         "step badge, made the first time one is needed")),
        ("map redraws per planning click (aim: 1)", f"{min(refreshes)}-{max(refreshes)} over {len(refreshes)} clicks"),
        (("kernel time per action, click -> views published (roll, click, confirm; controller + all views), "
         "autosave on: min / median / max"),
         f"{times(with_save)} ({len(with_save)} actions)"),
        ("the same without a save store: min / median / max", times(without_save)),
        (("the autosave writes, after the views are published (one per action here; quick clicks share one): "
         "min / median / max"),
         f"{times(write_ms)} ({len(write_ms)} writes; {inside} of them inside an action)"),
        ("before issue 18 (commit 0e190c0, this benchmark, 2026-11-30)",
         ("first render 643,356 B data / 1,204,056 B frames / 876 messages / 668 comm opens (185 Layout widgets), "
         "state request 606,446 B; confirm route 5,310 B data / 20,764 B frames / 26 messages / 3 comm opens "
         "(the log's new turn block); whole move 7,844 B / 38,324 B; 93 comm opens over the game; "
         "3 map redraws per click; kernel time per action with autosave (written in the click) 3.5 / 5.5 / 8.2 ms")),
        ("1-minute load average at the end (2 = both cores busy)", f"{os.getloadavg()[0]:.2f}"),
    ]
    print("\n".join(f"{a}: {b}" for a, b in rows))
    update_block(
        "widget-bench", "Widget (issues 5 and 18)",
        f"Written by `tests/benchmarks/test_bench_widget.py` (`make bench`): Japan Conquest's app, {MOVES} human moves "
        f"of a 2-player game, ipyleaflet {L.__version__}. Counted on the wire (`tests/games/japan_conquest/widget/wire.py`): every comm "
        "message (comm_open, comm_msg, comm_close) serialized as ipykernel sends it on IOPub with a real "
        "`jupyter_client` Session; *data* = the JSON of each message's `data` (state or update) plus buffers, "
        "*frames* = all ZMQ frames (topic, delimiter, HMAC signature, header, parent header, metadata, content) plus buffers. "
        "Issue 18: widgets that never change their layout or style share one Layout / style model; Layout models "
        "are sent with only the CSS properties they set (`conquest_widget/lean.py`, commit 07b6591: the front "
        "end's Layout defaults are all null, and the 39 nulls of each Layout model were about 1 KB); the map's markers, "
        "polygons, lines and label icons open without the values jupyter-leaflet's models start with "
        "(`conquest_widget/maps/lean.py`, commit 3df2263, about 350 B less per layer; ipyleaflet 0.20 only); the setup, results "
        "and save-data screens are built when first shown; the outlines are simplified together "
        "(`shapely.coverage_simplify`, shared borders kept; 3,366 points instead of 5,530, every area within 0.8%) "
        "and sent with 3 decimals; the log reuses a ring of 6 turn blocks (CSS `order`), so a move opens no widget; "
        "the map observes `version`, the selection and the language only (one redraw per click); the autosave is "
        "written after the views are published (`AUTOSAVE_DELAY` = 0.4 s in a kernel, once for quick clicks; "
        "leaving the game, a new game and the interpreter's exit write a pending one). "
        "The per-move aim (<= 500 B of data over all views) is not met: a confirmed move's data is what changes on "
        "screen (about 0.9 KB for the map: the route's shapes restyled, step badges hidden, the pawn, a label; the "
        "scoreboard table about 0.6 KB; the move's log lines 0.2-0.4 KB; the turn panel), and the frames are "
        "mostly envelopes (about 600 B for each of ~23 messages)."
        " The first render here is a new game started on the app alone (`app._play(match)`, the form's Start without the form); what a player's page receives "
        "through the picker and the New game form is in the *lean wire* section (issue 32).",
        "bytes", "What the kernel sends: first render and per move; map redraws; kernel time per action", rows,
        {"construction": dict(zip(("data", "frames", "opens", "messages"), built[:4], strict=True)),
         "first_render": dict(zip(("data", "frames", "opens", "messages"), first[:4], strict=True)),
         "confirm": {"data": spread(_col(confirms, 0)), "frames": spread(_col(confirms, 1)),
                     "messages": med(_col(confirms, 3))},
         "whole_move": {"data": spread(_col(wholes, 0)), "frames": spread(_col(wholes, 1))},
         "action_ms": {"autosave": spread(with_save), "no_store": spread(without_save)},
         "writes_ms": spread(write_ms), "writes": len(write_ms), "writes_in_action": inside, "moves": MOVES},
    )
    # a move opens no widget, except a long route's step badge the first time one is needed
    # (the labels are drawn by the map's painter: a new text opens nothing)
    assert sum(_col(wholes, 2)) <= 40
    assert set(refreshes) == {1}
