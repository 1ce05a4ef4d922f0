"""Issue 32 ("A lean wire"): what a player's page receives, per game, through the screens a
player goes through, and what a game leaves alive in the kernel.

Three measures per game, each in a fresh Python process (each page has a kernel of its own;
models that widgets share are sent once per kernel), driven as a player presses the buttons
(``tests/ui/player.py``: the picker of examples/play.ipynb, Play, the New game form, Start,
moves; a move is what the board's click does):

1. **to the first move**: ``conquest_widget.serve.warm_up()`` as the preheated kernel runs
   it, then the picker (``ConquestApp``, saves in an empty folder: a first visit), Play, New
   game (the form), the form filled in (one human, one CPU at instant speed, a fixed seed)
   and Start: the widget data and messages the page receives before its first move; then
   the first move itself, and each later move of that human against the CPU (the CPU's
   replies included: what the page receives per click);
2. **per move**: a game of two humans at one screen (the hot seat; the cover's Ready when
   the game hides information), ``MOVES`` moves: the widget data and messages of each move
   over all views (board, panels, log), median and p95, and per kind of move; the cover's
   Ready on its own;
3. **rounds**: Play, then ``ROUNDS`` rounds of New game → Start → 5 moves → Exit: the widget
   models alive (``ipywidgets.Widget.widgets``, which the page holds too) and the process's
   resident memory (``VmRSS``, after ``gc.collect()``) after each round; the gain per round
   after round 1.  No wire counter runs here (its own records would grow).

Counted on the wire with ``tests/games/japan_conquest/widget/wire.py`` (``WireCounter``):
*data* = the JSON of each comm message's data plus buffers, *messages* = comm_open,
comm_msg and comm_close.  A form field set from Python sends the update the page's own
edit would echo back.

Run with ``make bench``, or alone::

    .venv/bin/python -m pytest tests/benchmarks/test_bench_lean_wire.py -p no:cacheprovider -o addopts="" -s

``LEAN_WIRE_BEFORE=<a checkout>`` also measures that checkout (the "before" column): its
``tests/benchmarks/test_bench_lean_wire.py``, ``tests/ui/player.py`` and the wire counter
are run with its code (copy this file and the driver into it first); without it the
before column the block remembers is kept.  ``LEAN_WIRE_MOVES`` (default 40) sets the moves
of measure 2.  One page, printed as JSON::

    .venv/bin/python tests/benchmarks/test_bench_lean_wire.py first codex
"""

from __future__ import annotations

import datetime as _dt
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
GAMES = ("japan_conquest", "conquest_cards", "codex", "japanese_risk")
NAMES = {"japan_conquest": "Japan Conquest", "conquest_cards": "Conquest (cards)", "codex": "The Codex",
         "japanese_risk": "Japanese Risk"}
MAP_GAMES = ("japan_conquest", "japanese_risk")
MOVES = int(os.environ.get("LEAN_WIRE_MOVES", "40"))
VS_CPU_MOVES = 30
ROUNDS = 8
BLOCK = "lean-wire-bench"
# the aims of issue 32
AIM_FIRST = {"japan_conquest": 200_000, "japanese_risk": 200_000, "conquest_cards": 100_000, "codex": 100_000}
AIM_MOVE_DATA = 500
AIM_MOVE_MESSAGES = 3
AIM_ROUND_MODELS = 0
AIM_ROUND_MB = 0.1


# --------------------------------------------------------------------------- in the page's process
def _setup() -> tuple[Any, Any]:
    tests = HERE.parents[1]
    sys.path.insert(0, str(tests))
    from games.japan_conquest.widget.wire import WireCounter
    from ui.player import Player

    from conquest_widget.serve import warm_up

    warm_up()
    return WireCounter, Player


def _take(wire: Any) -> dict:
    fig = {"data": wire.data, "messages": wire.messages, "opens": wire.opens, "closes": wire.types["comm_close"],
           "largest": [[m.replace("Model", ""), n] for m, n in wire.data_by_model.most_common(3)]}
    wire.reset()
    return fig


def page_first(game: str, saves: Path) -> dict:
    """Measure 1 (see the module docstring)."""
    WireCounter, Player = _setup()
    out: dict[str, Any] = {}
    with WireCounter() as wire:
        p = Player(game, saves)
        out["picker"] = _take(wire)
        p.play()
        out["play"] = _take(wire)
        p.open_form()
        out["form"] = _take(wire)
        p.fill_form_and_start(humans=1)
        out["start"] = _take(wire)
        assert p.move(), "no first move"
        out["first_move"] = _take(wire) | {"kind": p.last}
        later = []
        for _ in range(VS_CPU_MOVES):
            if not p.move():
                break
            later.append(_take(wire) | {"kind": p.last})
        out["vs_cpu"] = later
    import conquest_widget

    out["code"] = str(Path(conquest_widget.__file__).parent)
    return out


def page_moves(game: str, saves: Path) -> dict:
    """Measure 2."""
    WireCounter, Player = _setup()
    moves, covers = [], []
    with WireCounter() as wire:
        p = Player(game, saves)
        p.play()
        p.new_game(humans=2)
        wire.reset()
        while len(moves) < MOVES:
            for _ in range(10):  # a forced answer may hand the screen on at once (see Player.pass_cover)
                if not p.pass_cover():
                    break
                covers.append(_take(wire))
            if not p.move():
                break
            moves.append(_take(wire) | {"kind": p.last})
    return {"moves": moves, "covers": covers}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def page_rounds(game: str, saves: Path) -> dict:
    """Measure 3."""
    _, Player = _setup()
    from ipywidgets.widgets.widget import _instances

    p = Player(game, saves)
    p.play()
    widgets, rss = [], []
    for _ in range(ROUNDS):
        p.new_game(humans=1)
        assert p.moves(5) == 5
        p.exit()
        gc.collect()
        widgets.append(len(_instances))
        rss.append(_rss_mb())
    return {"widgets": widgets, "rss_mb": rss}


PAGES = {"first": page_first, "moves": page_moves, "rounds": page_rounds}


def run_page(root: Path, mode: str, game: str) -> dict:
    """One page in a new Python process, with the code of ``root`` (this tree, or the
    before checkout), started in an empty folder."""
    script = root / "tests" / "benchmarks" / HERE.name
    assert script.exists() and (root / "tests" / "ui" / "player.py").exists(), \
        f"copy {HERE.name} and tests/ui/player.py into {root} first"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    with tempfile.TemporaryDirectory(prefix="cw-lean-wire-") as cwd:
        out = subprocess.run([sys.executable, str(script), mode, game], cwd=cwd, env=env, capture_output=True,
                             check=False, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["load"] = os.getloadavg()[0]
    return result


def measure(root: Path) -> dict:
    """Every game's three measures with the code of ``root``."""
    results: dict[str, Any] = {}
    for game in GAMES:
        results[game] = {mode: run_page(root, mode, game) for mode in PAGES}
        print(f"  {root}: {game} measured (load {os.getloadavg()[0]:.2f})", flush=True)
    return results


# --------------------------------------------------------------------------- figures
def p95(xs: list[float]) -> float:
    """Nearest-rank 95th percentile."""
    s = sorted(xs)
    return s[max(0, -(-95 * len(s) // 100) - 1)]


def figures(results: dict) -> dict:
    """The numbers of the table, per game, from :func:`measure`'s results."""
    out: dict[str, Any] = {}
    for game, r in results.items():
        f = r["first"]
        before_move = sum(f[k]["data"] for k in ("picker", "play", "form", "start"))
        moves = r["moves"]["moves"]
        data = [m["data"] for m in moves]
        msgs = [m["messages"] for m in moves]
        kinds: dict[str, list[int]] = defaultdict(list)
        for m in moves:
            kinds[m["kind"]].append(m["data"])
        kind_msgs: dict[str, list[int]] = defaultdict(list)
        for m in moves:
            kind_msgs[m["kind"]].append(m["messages"])
        widgets, rss = r["rounds"]["widgets"], r["rounds"]["rss_mb"]
        n = len(widgets) - 1
        vs = f["vs_cpu"]
        out[game] = {
            "first": {"data": before_move,
                      "messages": sum(f[k]["messages"] for k in ("picker", "play", "form", "start")),
                      "closes": sum(f[k]["closes"] for k in ("picker", "play", "form", "start")),
                      "parts": {k: f[k]["data"] for k in ("picker", "play", "form", "start")},
                      "form_messages": f["form"]["messages"],
                      "first_move": {k: f["first_move"][k] for k in ("data", "messages", "kind")},
                      "largest_start": f["start"]["largest"],
                      "load": round(f["load"], 2)},
            "vs_cpu": {"moves": len(vs), "data_median": statistics.median([m["data"] for m in vs]) if vs else None,
                       "messages_median": statistics.median([m["messages"] for m in vs]) if vs else None},
            "move": {"moves": len(moves), "data_median": statistics.median(data), "data_p95": p95(data),
                     "data_max": max(data), "messages_median": statistics.median(msgs), "messages_p95": p95(msgs),
                     "opens": sum(m["opens"] for m in moves),
                     "kinds": {k: [len(v), statistics.median(v), statistics.median(kind_msgs[k])]
                               for k, v in sorted(kinds.items(), key=lambda kv: -len(kv[1]))},
                     "covers": [statistics.median([c["data"] for c in r["moves"]["covers"]]),
                                statistics.median([c["messages"] for c in r["moves"]["covers"]]),
                                len(r["moves"]["covers"])] if r["moves"]["covers"] else None,
                     "load": round(r["moves"]["load"], 2)},
            "rounds": {"widgets": widgets, "rss_mb": [round(x, 2) for x in rss],
                       "models_per_round": (widgets[-1] - widgets[0]) / n,
                       "mb_per_round": (rss[-1] - rss[0]) / n, "load": round(r["rounds"]["load"], 2)},
        }
    return out


# --------------------------------------------------------------------------- the document
def _kb(n: float) -> str:
    return f"{n / 1000:,.1f} KB"


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def cells(g: str, f: dict) -> dict[str, str]:
    """The text of each row's cell for game ``g``."""
    fi, mv, ro = f["first"], f["move"], f["rounds"]
    kinds = "; ".join(f"{k} {med:,.0f} B / {msg:g} msg ({n})" for k, (n, med, msg) in list(mv["kinds"].items())[:4])
    cover = (f"; cover's Ready {mv['covers'][0]:,.0f} B / {mv['covers'][1]:g} msg ({mv['covers'][2]})"
             if mv["covers"] else "")
    parts = fi["parts"]
    return {
        "first": (f"**{_kb(fi['data'])}**, {fi['messages']} messages ({fi.get('closes', '?')} comm closes; picker {_kb(parts['picker'])}, Play "
                  f"{_kb(parts['play'])}, New game form {_kb(parts['form'])}, filled + Start {_kb(parts['start'])})"),
        "first_move": f"{fi['first_move']['data']:,} B, {fi['first_move']['messages']} messages ({fi['first_move']['kind']})",
        "vs_cpu": (f"{f['vs_cpu']['data_median']:,.0f} B, {f['vs_cpu']['messages_median']:g} messages "
                   f"({f['vs_cpu']['moves']} clicks)" if f["vs_cpu"]["moves"] else "-"),
        "move": (f"**{mv['data_median']:,.0f} B**, p95 {mv['data_p95']:,} B, max {mv['data_max']:,} B; "
                 f"**{mv['messages_median']:g} messages** (p95 {mv['messages_p95']:g}); {mv['opens']} comm opens "
                 f"in {mv['moves']} moves"),
        "kinds": kinds + cover,
        "models": (f"**{ro['models_per_round']:+,.1f}** ({ro['widgets'][0]:,} after round 1 → "
                   f"{ro['widgets'][-1]:,} after round {len(ro['widgets'])})"),
        "rss": (f"**{ro['mb_per_round']:+.2f} MB** ({ro['rss_mb'][0]:.1f} → {ro['rss_mb'][-1]:.1f} MB)"),
    }


def verdicts(g: str, f: dict) -> dict[str, str]:
    fi, mv, ro = f["first"], f["move"], f["rounds"]
    return {
        "first": f"≤ {AIM_FIRST[g] // 1000} KB: {_met(fi['data'] <= AIM_FIRST[g])}",
        "move": (f"≤ {AIM_MOVE_DATA} B: {_met(mv['data_median'] <= AIM_MOVE_DATA)}; ≤ {AIM_MOVE_MESSAGES} messages: "
                 f"{_met(mv['messages_median'] <= AIM_MOVE_MESSAGES)}"),
        "models": f"{AIM_ROUND_MODELS}: {_met(ro['models_per_round'] <= AIM_ROUND_MODELS)}",
        "rss": f"≤ {AIM_ROUND_MB} MB: {_met(ro['mb_per_round'] <= AIM_ROUND_MB)}",
    }


ROWS = (
    ("first", "picker → Play → New game form → Start: widget data before the first move (aim ≤ 200 KB on a map, ≤ 100 KB without)"),
    ("first_move", "the first move (against a CPU): widget data, messages"),
    ("vs_cpu", "each later click against the CPU (its replies included), median"),
    ("move", "per move, two humans at one screen, all views: median data, p95, messages (aim ≤ 500 B, ≤ 3 messages)"),
    ("kinds", "per kind of move: median data / messages (moves); the cover's Ready of a hot seat"),
    ("models", f"widget models gained per round of New game → 5 moves → Exit, rounds 1 → {ROUNDS} (aim 0)"),
    ("rss", "kernel memory (RSS) gained per round (aim ≤ 0.1 MB)"),
)

INTRO = """\
Written by `tests/benchmarks/test_bench_lean_wire.py` (`make bench`; alone: `.venv/bin/python -m pytest \
tests/benchmarks/test_bench_lean_wire.py -p no:cacheprovider -o addopts="" -s`). What a player's page \
receives and what a game leaves alive, per game, each measure in a fresh Python process (a page's own \
kernel: `warm_up()` as the preheated kernel runs it; models that widgets share are sent once per kernel), \
driven as a player presses the buttons (`tests/ui/player.py`: the picker of examples/play.ipynb, Play, the \
New game form, Start, moves; a move is what the board's click does). Counted on the wire \
(`tests/games/japan_conquest/widget/wire.py`): *data* = the JSON of each comm message's data plus buffers; \
*messages* = comm opens, updates and closes. (1) To the first move: the picker, Play, New game, the form \
filled in (one human, one CPU at instant speed, seed 7) and Start; the *Widget* and *First render* sections \
measure `controller.new_game()` and the first screen alone, without the form a player goes through. (2) Per \
move: {moves} moves of a game of two humans at one screen (hot seat), every view the page shows. (3) Rounds: \
Play, then {rounds} rounds of New game → Start → 5 moves → Exit; the widget models alive \
(`ipywidgets.Widget.widgets`, which the page holds too) and the process's RSS after each round, the gain per \
round = (after round {rounds} − after round 1) / {n}. Before = commit {before} (main before issue 32), after = \
this tree."""

CLOSING = """\
What closes what (commit c3e4ea5): every widget a screen makes is closed when the screen goes away: Exit, \
Back, New game, Play again, the replay's Back, the results left, the New game form left (the shared app, \
`conquest_widget/ui/match_app.py`: a screen's widgets are replaced through one helper that closes what is no \
longer shown), and the picker's Back to games closes the whole game (`ConquestApp._close_game`; \
`JapanConquestApp.close` also closes its screens built but not shown). `lean.close_tree` follows a widget's \
own attributes too (a panel's pieces not shown now, icon caches). What stays for the process: the picker and \
the fixed set of shared Layout / style models of `conquest_widget/lean.py` (one per set of layout traits and \
one style per widget class). Inside Japan Conquest's own app the start screen, the game and results screens \
(the game screen's controls once first shown) and the map are built once and live as long as the app; its map \
keeps one step badge per route step once made (a bounded set of public marks). `tests/ui/test_lifecycle.py` asserts, from \
the picker and inside each game over 8 rounds (one replays the autosave, one is a hot seat, one is played to \
the results), that the count after round 8 equals the count after round 1, and that a hot-seat screen once \
left holds no seat's secret; all ten fail on c5af748. Measured by hand on 2026-12-02 (load about 2) over those \
rounds from the picker (each ending with Back to games), c5af748 gained +417 (Japan Conquest: Back to games \
left its whole app alive, hence far more than the +4 inside its app above), +256 (cards), +290 (Codex) and \
+336 (Japanese Risk) widgets a round; this change 0.

How a move got small: each board's panels are one page widget drawn from a scene of the seat's view \
(`conquest_widget/scene.py`: the card table, the Codex board, Japan Conquest's and Japanese Risk's side \
panels, the shell's log, the New game forms, Japan Conquest's start screen), sent as one patch of the keys \
that changed, and the keys a widget drops together as their common beginnings where it says so (Japanese \
Risk's panels: a hand-over's emptied action panel goes as `B*`, `a*`, `g*`; the log: the lines a change \
of viewer hides); the prefecture maps restyle through one painter per map (`conquest_widget/maps/painter.py`): \
shapes' styles as numbers of a palette (a map whose styles are public gives them all at the start: \
Japanese Risk's 36 styles of a two-seat game, 1.6 KB once, and a move sends the shapes' numbers only), the \
47 labels (drawn by the painter in the page: no label model; a label's HTML is sent when it changes, \
without its box, which the page adds), the route line and pawns, all in one message, the outlines sent \
once encoded (12.7 KB for the 47). The hot seat's cover is a key of the log's scene (a hand-over is no \
extra message), and the log's lines are named by their events, so a change of viewer sends only the lines \
one viewer sees and the other does not; an exact-odds line of Japanese Risk travels as its six numbers. \
The last cuts (issue 32, for Japanese Risk's per-move aim; every game gains): a patch travels as a list \
`[n, patch, drop, prefixes]` instead of a dict of named parts (`{"patch": {..., "n"}, "drop", "*"}`; about 14 B \
less per message); Japanese Risk's version class is the panels' redraw number (`cw-v-<n>`, sent at every \
render) instead of a key `"v": "cw-v-<version>-<render>"` (about 20 B a move); the hot seat's cover travels \
as the name of the player the screen goes to, its two texts (with `{name}`) being in the log's scene once, \
written in by the page (about 45 B less per hand-over); and a Risk label (the attack and move marks, castle, \
armies, ninjas, card badges) travels as the numbers of public pieces sent once with the map (an attack's two \
labels: 126 B → 20 B; `MapPainter(label_parts=...)`). A move of Japanese Risk is still three messages (the \
map painter's, the side panels' and the log's); places (median 346 B), deploys (208 B) and a second group \
added to an attack (about 400 B) are under 500 B; a move that hands the screen on (the leaving seat's secret \
territories repainted and its badges dropped, the knowledge panel written for the next viewer: 480-610 B), \
the first group of an attack (the exact odds of four guesses at the defenders, the guide and Launch, the log's \
line: 530-610 B), an end of turn (0.6-1.0 KB) and a launch (the battle's rounds, in the panel and in the log: \
1.2-1.6 KB) are over it, and the median, between a second attack group (404 B) and the cheapest hand-over \
(485 B), is 444.5 B.
"""


def findings(before: dict, after: dict, before_commit: str = "") -> list[str]:
    """What the two columns say, from their figures (nothing without a before column)."""
    if not all(g in before for g in GAMES):
        return []
    first = ", ".join(f"{NAMES[g]} {after[g]['first']['messages'] - before[g]['first']['messages']:+} messages / "
                      f"{(after[g]['first']['data'] - before[g]['first']['data']) / 1000:+.1f} KB "
                      f"({after[g]['first'].get('closes', '?')} comm closes after, "
                      f"{before[g]['first'].get('closes', '?')} before)" for g in GAMES)
    same_move = all(after[g]["move"]["data_median"] == before[g]["move"]["data_median"]
                    and after[g]["move"]["messages_median"] == before[g]["move"]["messages_median"] for g in GAMES)
    models = ", ".join(f"{NAMES[g]} {before[g]['rounds']['models_per_round']:+.0f} → "
                       f"{after[g]['rounds']['models_per_round']:+.0f} models, "
                       f"{before[g]['rounds']['mb_per_round']:+.2f} → {after[g]['rounds']['mb_per_round']:+.2f} MB"
                       for g in GAMES)
    firsts = [verdicts(g, after[g])["first"] for g in GAMES]
    moves = [verdicts(g, after[g])["move"] for g in GAMES]
    per_move = ", ".join(f"{NAMES[g]} {before[g]['move']['data_median']:,.0f} B / {before[g]['move']['messages_median']:g} "
                         f"→ {after[g]['move']['data_median']:,.0f} B / {after[g]['move']['messages_median']:g}"
                         for g in GAMES)
    met_first = [NAMES[g] for g, v in zip(GAMES, firsts, strict=True) if "not met" not in v]
    met_move = [NAMES[g] for g, v in zip(GAMES, moves, strict=True) if "not met" not in v]
    rounds_met = all("not met" not in verdicts(g, after[g])[k] for g in GAMES for k in ("models", "rss"))
    return [f"What the columns say. Per round: {models}: the aims on models and memory are "
            + ("met for every game" if rounds_met else "not met for every game") + f". To the first move: {first}; "
            f"the aim is met for {', '.join(met_first) or 'no game'}. Per move (median data / messages): "
            + ("the same before and after" if same_move else per_move)
            + f"; the aims are met for {', '.join(met_move) or 'no game'}.", ""]


def write_doc(before: dict, after: dict, meta: dict) -> None:
    from perfdoc import machine, run_id, write_block

    heading = "## A lean wire: what a player's page receives, and what a game leaves alive (issue 32)"
    n = ROUNDS - 1
    lines = [heading, "", INTRO.format(moves=MOVES, rounds=ROUNDS, n=n, before=meta["before_commit"]), ""]
    lines += [f"Before measured {meta['before_date']} (1-minute load average {meta['before_load']}); after "
              f"measured {meta['after_date']} (load {meta['after_load']}); 2 = both cores busy; the bytes, messages "
              f"and model counts do not depend on the load. Machine: {machine()}.", ""]
    for g in GAMES:
        b, a = before.get(g), after[g]
        cb, ca, va = (cells(g, b) if b else {}), cells(g, a), verdicts(g, a)
        lines += [f"### {NAMES[g]}", "", "| measure | before | after | aim (after) |", "|---|---|---|---|"]
        for key, label in ROWS:
            lines.append(f"| {label} | {cb.get(key, '-')} | {ca[key]} | {va.get(key, '')} |")
        lines.append("")
    lines += ["### Aims of issue 32, after", "", "| aim | " + " | ".join(NAMES[g] for g in GAMES) + " |",
              "|---|" + "---|" * len(GAMES)]
    for key, label in (("first", "to the first move"), ("move", "per move (median)"),
                       ("models", "models per round"), ("rss", "memory per round")):
        lines.append(f"| {label} | " + " | ".join(verdicts(g, after[g])[key] for g in GAMES) + " |")
    lines += ["", *findings(before, after, meta["before_commit"]), CLOSING, ""]
    memory = {"table": {"title": "lean wire", "date": meta["after_date"], "run": run_id(), "machine": machine(),
                        "rows": [], "figures": {"before": before, "after": after, "meta": meta}}}
    lines.append(f"<!-- {BLOCK}-results: {json.dumps(memory, ensure_ascii=False)} -->")
    write_block(BLOCK, lines)


# --------------------------------------------------------------------------- the benchmark
@pytest.mark.benchmark
def test_bench_lean_wire() -> None:
    from perfdoc import read_sections

    now = _dt.datetime.now().astimezone().isoformat(timespec="minutes")
    old = read_sections(BLOCK).get("table", {}).get("figures", {})
    meta = dict(old.get("meta", {}))
    before = old.get("before", {})
    before_root = os.environ.get("LEAN_WIRE_BEFORE")
    if before_root:
        root = Path(before_root)
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip() or str(root)
        load0 = os.getloadavg()[0]
        before = figures(measure(root))
        meta |= {"before_commit": commit, "before_date": now,
                 "before_load": f"{load0:.2f} at start, {os.getloadavg()[0]:.2f} at end"}
    meta.setdefault("before_commit", "(not measured)")
    meta.setdefault("before_date", "-")
    meta.setdefault("before_load", "-")
    load0 = os.getloadavg()[0]
    after = figures(measure(ROOT))
    meta |= {"after_date": now, "after_load": f"{load0:.2f} at start, {os.getloadavg()[0]:.2f} at end"}
    for g in GAMES:
        print(f"  {g}: " + "; ".join(f"{k}: {v}" for k, v in cells(g, after[g]).items()))
    write_doc(before, after, meta)


if __name__ == "__main__":
    mode, game = sys.argv[1], sys.argv[2]
    print(json.dumps(PAGES[mode](game, Path.cwd() / "conquest_saves")))
