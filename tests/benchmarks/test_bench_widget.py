"""Widget benchmark: bytes the kernel sends per move (ours vs one restyled GeoJSON layer)
and kernel time per controller update.  Run with ``make bench``; writes its block of
docs/performance.md."""

from __future__ import annotations

import json
import statistics
import tempfile
import time

import ipyleaflet as L
import pytest
from ipywidgets import Widget
from ipywidgets.widgets.widget import _instances
from perfdoc import update_block

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import GameSetup, PlayerSetup
from conquest_widget.maps.japan.geo import geojson_path
from conquest_widget.widget.style import prefecture_style

MOVES = 40


class Counter:
    def __init__(self):
        self.total = 0
        self.map = 0

    def add(self, widget, msg, buffers):
        n = len(json.dumps(msg, default=str)) + sum(len(b) for b in buffers or [])
        self.total += n
        if isinstance(widget, (L.Layer, L.DivIcon)):
            self.map += n


@pytest.mark.benchmark
def test_bytes_per_move_and_update_time(monkeypatch):
    counter = Counter()
    original = Widget._send

    def _send(self, msg, buffers=None):
        counter.add(self, msg, buffers)
        return original(self, msg, buffers)

    monkeypatch.setattr(Widget, "_send", _send)
    app = JapanConquestApp(save_dir=tempfile.mkdtemp(prefix="cw-bench-"))  # autosave included in the timing
    c = app.controller
    # two humans, so every move is a human move driven through the controller
    setup = GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=50, seed=11)
    c.new_game(setup)
    first_render = sum(len(json.dumps(w.get_state(), default=str)) for w in _instances.values())

    # the naive alternative: one GeoJSON layer, restyled with style_callback
    fc = json.loads(geojson_path().read_text(encoding="utf-8"))
    naive = L.GeoJSON(data=fc, style_callback=lambda f: {"fillColor": "#efe9da"})
    naive_counter = Counter()

    per_move, per_move_map, per_confirm, per_confirm_map, naive_bytes, update_ms = [], [], [], [], [], []
    for _ in range(MOVES):
        counter.total = counter.map = 0
        c.roll()
        if c.phase != "route":  # no legal route for this roll: the turn passed
            continue
        while not c.can_confirm:
            c.click_prefecture(c.legal_steps[0])
        planning_total, planning_map = counter.total, counter.map
        counter.total = counter.map = 0
        t0 = time.perf_counter()
        c.confirm_route()
        update_ms.append((time.perf_counter() - t0) * 1000)
        per_confirm.append(counter.total)
        per_confirm_map.append(counter.map)
        per_move.append(planning_total + counter.total)
        per_move_map.append(planning_map + counter.map)
        # the same state change through the naive layer
        g = c.game
        styles = {code: prefecture_style(
            g.setup.players[g.prefecture_info(code)["owner"]].colour if g.prefecture_info(code)["owner"] is not None else None,
            g.prefecture_info(code)["level"], legal=False, in_route=False, selected=False) for code in range(1, 48)}
        naive_counter.total = 0
        monkeypatch.setattr(Widget, "_send", lambda self, msg, buffers=None: naive_counter.add(self, msg, buffers))
        naive.style_callback = lambda f, s=styles: {"fillColor": s[f["properties"]["code"]]["fill_color"],
                                                    "fillOpacity": s[f["properties"]["code"]]["fill_opacity"]}
        monkeypatch.setattr(Widget, "_send", _send)
        naive_bytes.append(naive_counter.total)
        if g.phase.startswith("battle"):
            while g.phase.startswith("battle"):
                c.battle_roll(1)

    def med(xs):
        return statistics.median(xs)

    def p95(xs):
        return sorted(xs)[int(0.95 * (len(xs) - 1))]

    rows = [
        ("first render (state of every widget)", f"{first_render:,} B"),
        ("confirm route: map layers, median / p95", f"{med(per_confirm_map):,.0f} B / {p95(per_confirm_map):,.0f} B"),
        ("confirm route: everything (map, scoreboard, log, controls), median / p95", f"{med(per_confirm):,.0f} B / {p95(per_confirm):,.0f} B"),
        ("whole move (roll + each planned step + confirm): map, median / p95", f"{med(per_move_map):,.0f} B / {p95(per_move_map):,.0f} B"),
        ("whole move: everything, median / p95", f"{med(per_move):,.0f} B / {p95(per_move):,.0f} B"),
        ("naive: one GeoJSON layer restyled via style_callback, same move, median", f"{med(naive_bytes):,.0f} B"),
        ("confirmed move's map bytes vs naive", f"1/{med(naive_bytes) / max(1, med(per_confirm_map)):,.0f}"),
        ("whole move vs first render", f"1/{first_render / max(1, med(per_move)):,.0f}"),
        ("kernel time per confirmed move (controller + all views), median / p95", f"{med(update_ms):.1f} ms / {p95(update_ms):.1f} ms"),
    ]
    print("\n".join(f"{a}: {b}" for a, b in rows))
    update_block(
        "widget-bench", "Widget (issue 5)",
        f"Written by `tests/benchmarks/test_bench_widget.py` (`make bench`): {MOVES} human moves of a 2-player game, "
        f"ipyleaflet {L.__version__}; bytes counted at `Widget._send` (JSON of each comm message).",
        "bytes", "Bytes the kernel sends per move, and update time", rows,
    )
