"""First render of every game's first screen, as a player's page builds it (issue 18): what
the kernel sends for the game picker of examples/play.ipynb (``ConquestApp()``), then for
the first screen a game's Play button opens, and the kernel time of building each.

Each repetition is a fresh Python process, as each page has a kernel of its own (the app
server's preheated kernel, ``conquest_widget/_voila_app.py``): it runs
``conquest_widget.serve.warm_up()`` as that kernel does, builds the picker as the notebook
does (``ConquestApp()``, saves in ``conquest_saves/`` of an empty folder: a first visit),
then presses the game's Play button (``button.click()``, as
``tests/benchmarks/test_bench_browser.py``'s first screens press it in the page).  A fresh
process matters: models that widgets share (one Layout / style model for all widgets that
never change theirs) are sent once per kernel, with the first widget that uses them.

Counted on the wire with ``tests/games/japan_conquest/widget/wire.py`` (``WireCounter``): *data* = the JSON of
each comm message's data plus buffers, *frames* = every ZMQ frame as ipykernel sends it;
messages and comm opens.  Kernel time: wall clock and the thread's CPU time.  Aim (issue
18): a first render of <= 300 KB of widget data.

Run with ``make bench``, or alone (``FIRST_SCREENS_REPS`` sets the repetitions, default 5)::

    .venv/bin/python -m pytest tests/benchmarks/test_bench_first_screens.py -p no:cacheprovider -o addopts="" -s

One page, printed as JSON: ``.venv/bin/python tests/benchmarks/test_bench_first_screens.py codex``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from perfdoc import update_block

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
REPS = int(os.environ.get("FIRST_SCREENS_REPS", "5"))
AIM = 300_000  # bytes of widget data (issue 18: first render <= 300 KB)


# --------------------------------------------------------------------------- one page
def one_page(game_id: str) -> dict:
    """In this (fresh) process: warm up as the preheated kernel does, build the picker,
    press ``game_id``'s Play; the wire figures and kernel times of both steps."""
    sys.path.insert(0, str(HERE.parents[1]))  # tests/ -> the wire counter
    from games.japan_conquest.widget.wire import WireCounter, state_request_bytes

    from conquest_widget.serve import warm_up

    warm_up()
    from conquest_widget import ConquestApp

    def figures(wire: WireCounter, wall: float, cpu: float) -> dict:
        return {"data": wire.data, "frames": wire.frames, "messages": wire.messages, "opens": wire.opens,
                "ms": wall, "cpu_ms": cpu, "largest": wire.data_by_model.most_common(4)}

    with WireCounter() as wire:
        t, c = time.perf_counter(), time.thread_time()
        app = ConquestApp()
        picker = figures(wire, (time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000)
        picker["state_request"] = state_request_bytes()
        wire.reset()
        button = app.cards[game_id][1]
        t, c = time.perf_counter(), time.thread_time()
        button.click()
        first = figures(wire, (time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000)
    assert app.game_id == game_id and app.game_widget is not None
    first["widget"] = type(app.game_widget).__name__
    return {"picker": picker, "first": first}


def run_page(game_id: str) -> dict:
    """:func:`one_page` in a new Python process started in an empty folder."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    with tempfile.TemporaryDirectory(prefix="cw-first-screen-") as cwd:
        out = subprocess.run([sys.executable, str(HERE), game_id], cwd=cwd, env=env, capture_output=True, check=False,
                             text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------- the benchmark
def trio(xs: list[float], fmt: str = "{:.0f}") -> str:
    return " / ".join(fmt.format(x) for x in (min(xs), statistics.median(xs), max(xs)))


def bytes_of(xs: list[int]) -> str:
    """One figure when every repetition sent the same, else min / median / max."""
    return f"{xs[0]:,} B" if len(set(xs)) == 1 else f"{min(xs):,} / {statistics.median(xs):,.0f} / {max(xs):,} B (min / median / max)"


def counts_of(xs: list[int]) -> str:
    """One count when every repetition had the same, else min / median / max."""
    return f"{xs[0]}" if len(set(xs)) == 1 else trio(xs)


def verdict(xs: list[int]) -> str:
    return f"aim <= {AIM // 1000} KB: {'met' if max(xs) <= AIM else 'NOT MET'}"


@pytest.mark.benchmark
def test_bench_first_screens_bytes_and_kernel_time() -> None:
    from conquest_widget.core import registry

    games = [s.id for s in registry.all_games() if s.playable]
    runs: dict[str, list[dict]] = {g: [] for g in games}
    load0 = os.getloadavg()[0]
    for _ in range(REPS):  # repetition i of every game, then i + 1
        for g in games:
            runs[g].append(run_page(g))
    pickers = [r["picker"] for g in games for r in runs[g]]

    def col(items: list[dict], k: str) -> list:
        return [x[k] for x in items]

    same = all(len(set(col([r[part] for r in runs[g]], k))) == 1
               for g in games for part in ("picker", "first") for k in ("data", "frames", "messages", "opens"))
    rows = [
        ("repetitions", (f"{REPS} per game, each in a fresh Python process (a page's own kernel): `warm_up()` as the "
                         "preheated kernel runs it, the picker built, the game's Play pressed; the games in turn"
                         + ("; the bytes, messages and comm opens were the same in every repetition" if same else ""))),
        ("picker (`ConquestApp()` of examples/play.ipynb): widget data / frames / messages / comm opens",
         (f"{bytes_of(col(pickers, 'data'))} ({verdict(col(pickers, 'data'))}) / {bytes_of(col(pickers, 'frames'))} / "
          f"{counts_of(col(pickers, 'messages'))} / {counts_of(col(pickers, 'opens'))}")),
        ("picker: state of every live widget (what the page requests from the preheated kernel)",
         bytes_of(col(pickers, "state_request"))),
        ("picker: kernel time to build it, min / median / max",
         f"{trio(col(pickers, 'ms'), '{:.1f}')} ms (CPU {trio(col(pickers, 'cpu_ms'), '{:.1f}')} ms)"),
    ]
    figures: dict = {"reps": REPS, "aim": AIM, "same_every_rep": same,
                     "picker": {k: col(pickers, k) for k in ("data", "frames", "messages", "opens", "ms", "cpu_ms")},
                     "games": {}}
    for g in games:
        first = [r["first"] for r in runs[g]]
        total = [r["picker"]["data"] + r["first"]["data"] for r in runs[g]]
        largest = ", ".join(f"{m.replace('Model', '')} {n:,}" for m, n in first[0]["largest"])
        rows.append(((f"**{g}**: picker -> first screen ({first[0]['widget']}, Play pressed), widget data / frames / "
                      "messages / comm opens"),
                     (f"**{bytes_of(col(first, 'data'))}** ({verdict(col(first, 'data'))}) / {bytes_of(col(first, 'frames'))} / "
                      f"{counts_of(col(first, 'messages'))} / {counts_of(col(first, 'opens'))} (largest: {largest}); "
                      f"with the picker {bytes_of(total)} of data")))
        rows.append((f"{g}: kernel time of Play -> first screen built, min / median / max",
                     f"{trio(col(first, 'ms'), '{:.1f}')} ms (CPU {trio(col(first, 'cpu_ms'), '{:.1f}')} ms)"))
        figures["games"][g] = {k: col(first, k) for k in ("data", "frames", "messages", "opens", "ms", "cpu_ms")}
        figures["games"][g]["with_picker"] = total
    rows.append(("1-minute load average at start / end (2 = both cores busy)", f"{load0:.2f} / {os.getloadavg()[0]:.2f}"))
    print()
    for a, b in rows:
        print(f"  {a}: {b}")
    update_block(
        "first-screens-bench", "First render of each game's first screen (issue 18)",
        "Written by `tests/benchmarks/test_bench_first_screens.py` (`make bench`): what the kernel sends when a player "
        "opens examples/play.ipynb and presses a game's Play: the game picker (`ConquestApp()`), then the game's first "
        "screen (every game: the shell's start screen; Japan Conquest's beside its map). Each "
        "repetition is a fresh Python process, as each page has a kernel of its own: `conquest_widget.serve.warm_up()` "
        "(what the app server's preheated kernel imports), the picker, then Play; models that widgets share are sent "
        "once per kernel, with the first widget that uses them, so a second build in the same process sends less. "
        "Counted on the wire (`tests/games/japan_conquest/widget/wire.py`): *data* = the JSON of each comm message's data plus buffers, "
        "*frames* = every ZMQ frame as ipykernel sends it. The bytes do not depend on timing: each figure is one "
        "value when every repetition sent the same (the frames only vary by a few bytes per message between runs: "
        "jupyter_client's message ids hold the process id and a message counter). Kernel time: wall clock and the thread's CPU time. Japan "
        "Conquest's first render with a new game started (the figure of issue 18's first aim) is in the *Widget* section. "
        "Aim (issue 18): a first render of <= 300 KB of widget data.",
        "pages", "The picker and each game's first screen, as a player's page builds them", rows, figures,
    )


if __name__ == "__main__":
    print(json.dumps(one_page(sys.argv[1])))
