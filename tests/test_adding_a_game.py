"""docs/architecture.md's "Adding a game", walked once with a fifth game (issue 29).

The steps are followed literally in a temporary folder: a game package with ``spec.py``
(with its picture and no simulation options), an engine on ``core.Match``, ``bots.py``,
``text.py``, ``picture.py``, ``sounds.py`` and ``widget/__init__.py`` (``UI = GameUI(...)``,
``App = app_class(UI)``); step 2, its spec module added to ``SPEC_MODULES`` (in a
``sitecustomize`` of the child processes: no file of the package is touched).  Then what
the section promises is checked as a user meets it: the conformance suite runs for the new
game and passes; the picker offers it with its picture; a game is set up, played by clicks
to the results, autosaved under the game's own name and recorded; the replay opens; CPU-only
games run through ``simulate`` and refuse an option the game does not have.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FILES = {
    "race_game/__init__.py": '"""Race to a hundred: the fifth game of tests/test_adding_a_game.py."""\n',
    "race_game/spec.py": '''
        from conquest_widget.core.registry import GameSpec

        SPEC = GameSpec(
            id="race", title={"en": "Race to a Hundred", "ja": "100への競争"},
            blurb={"en": "Add 1 or 2 in turn; who reaches 100 wins.", "ja": "順に1か2を足し、100に届いた人の勝ち。"},
            players=range(2, 4), hidden_information=False, version=1,
            engine="race_game.engine:RaceMatch", bots="race_game.bots", widget="race_game.widget:App",
            picture="race_game.picture:PICTURE",
        )
    ''',
    "race_game/engine.py": '''
        from __future__ import annotations

        import random
        from dataclasses import dataclass
        from typing import Any

        from conquest_widget.core.match import Match
        from conquest_widget.core.protocol import Action, ActionCodec, Outcome
        from conquest_widget.errors import SetupError
        from race_game.spec import SPEC

        CODEC = ActionCodec("race")
        GOAL = 100


        @CODEC.register
        @dataclass(frozen=True)
        class Add(Action):
            kind = "add"
            n: int = 1


        @dataclass(frozen=True)
        class RaceSetup:
            players: tuple[str, ...]

            def __post_init__(self) -> None:
                if (not isinstance(self.players, tuple) or not 2 <= len(self.players) <= 3
                        or not all(isinstance(p, str) and 0 < len(p) <= 24 for p in self.players)):
                    raise SetupError("race: players must be 2-3 names of 1-24 characters")

            def to_dict(self) -> dict[str, Any]:
                return {"players": list(self.players)}

            @classmethod
            def from_dict(cls, data: Any) -> RaceSetup:
                if not isinstance(data, dict) or set(data) != {"players"} or not isinstance(data["players"], list):
                    raise SetupError("race: a setup is {'players': [names]}")
                return cls(tuple(data["players"]))


        class RaceMatch(Match):
            spec = SPEC
            codec = CODEC
            setup_class = RaceSetup

            def _start(self) -> None:
                first = self.chance.choice(self.n_seats, kind="first")  # a logged chance outcome
                self.state = {"total": 0, "turn": first, "winner": None}
                self.emit({"type": "start", "seat": first})

            def to_act(self) -> tuple[int, ...]:
                return () if self.state["winner"] is not None else (self.state["turn"],)

            def _legal_actions(self, seat: int) -> list[Action]:
                return [Add(1), Add(2)] if seat in self.to_act() else []

            def _explain(self, seat: int, action: Action) -> Any:
                from conquest_widget.errors import IllegalActionError

                if seat not in self.to_act():
                    return IllegalActionError(f"it is not seat {seat}'s turn")
                if not isinstance(action, Add) or action.n not in (1, 2):
                    return IllegalActionError(f"add 1 or 2, not {action}")
                return None

            def _apply(self, action: Action, seat: int) -> None:
                assert isinstance(action, Add)
                st = self.state
                st["total"] = min(GOAL, st["total"] + action.n)
                self.emit({"type": "add", "seat": seat, "n": action.n, "total": st["total"]})
                if st["total"] >= GOAL:
                    st["winner"] = seat
                    self.emit({"type": "won", "seat": seat})
                else:
                    st["turn"] = (seat + 1) % self.n_seats

            def _view(self, seat: int | None) -> dict[str, Any]:
                st = self.state
                return {"viewer": seat, "total": st["total"], "turn": st["turn"], "winner": st["winner"]}

            def outcome(self) -> Outcome | None:
                w = self.state["winner"]
                if w is None:
                    return None
                return Outcome.from_scores([1 if s == w else 0 for s in range(self.n_seats)], "reached_goal")

            @classmethod
            def random_setup(cls, rng: random.Random, n: int) -> RaceSetup:
                return RaceSetup(tuple(f"P{i + 1}" for i in range(n)))
    ''',
    "race_game/bots.py": '''
        from race_game.engine import Add


        class Greedy:
            label = "greedy"

            def choose(self, view, legal, rng):
                return Add(2) if Add(2) in legal and view["total"] + 2 >= 100 else rng.choice(legal)


        BOTS = {"greedy": Greedy}
        DEFAULT_BOT = "greedy"
    ''',
    "race_game/text.py": '''
        TEXT = {"add": ("{name} adds {n}: {total}", "{name}が{n}を足す：{total}"),
                "won": ("{name} reaches 100", "{name}が100に到達")}


        def t(key, lang, **kw):
            return TEXT[key][lang == "ja"].format(**kw)
    ''',
    "race_game/picture.py": '''
        PICTURE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">'
                   '<rect width="64" height="64" rx="8" fill="#2e7d32"/><circle cx="32" cy="32" r="14" fill="#fff"/></svg>')
    ''',
    "race_game/sounds.py": 'SOUNDS = {"add": "step", "won": "game_end"}\n',
    "race_game/widget/__init__.py": '''
        import ipywidgets as W

        from conquest_widget.core.safe_text import html_text
        from conquest_widget.ui.game_ui import GameUI, SeatChoice
        from conquest_widget.ui.match_app import app_class
        from race_game.engine import Add, RaceSetup
        from race_game.sounds import SOUNDS
        from race_game.text import t


        class RaceBoard(W.VBox):
            def __init__(self, controller, lang):
                super().__init__()
                self.c = controller
                self.total = W.HTML()
                self.total.add_class("race-total")
                self.buttons = W.HBox()
                self.children = [self.total, self.buttons]
                controller.observe(lambda _c: self.redraw(), names="version")
                self.redraw()

            def redraw(self):
                self.total.value = f"total {self.c.view['total']}"
                buttons = []
                for a in self.c.legal:
                    b = W.Button(description=f"+{a['n']}")
                    b.add_class(f"race-add-{a['n']}")
                    b.on_click(lambda _b, n=a["n"]: self.c.act(Add(n)))
                    buttons.append(b)
                self.buttons.children = buttons


        def make_setup(seats, options):
            return RaceSetup(tuple(s.name for s in seats))


        def event_text(e, lang, names=None):
            if e["type"] in ("add", "won"):
                return t(e["type"], lang, name=(names or {}).__getitem__(e["seat"]) if names else e["seat"],
                         n=e.get("n"), total=e.get("total"))
            return None


        UI = GameUI(
            game="race", make_setup=make_setup,
            seat_choices=lambda setup: [SeatChoice(name) for name in setup.players],
            board=RaceBoard,
            results_html=lambda out, view, lang: f"<p class='race-final'>{html_text(str(view['total']))}</p>",
            event_text=event_text, sounds=SOUNDS,
        )
        App = app_class(UI)
    ''',
    # step 2 of the section, done in the child processes only
    "sitecustomize.py": '''
        import conquest_widget.core.registry as registry

        registry.SPEC_MODULES = (*registry.SPEC_MODULES, "race_game.spec")
    ''',
}

PLAY = '''
import json, sys
from pathlib import Path

import ipywidgets as W

from conquest_widget.core import registry
from conquest_widget.tournament.errors import UnknownOptionError
from conquest_widget.tournament.simulate import check_options, simulate
from conquest_widget.saves import SaveStore
from conquest_widget.ui.app import ConquestApp

saves = Path(sys.argv[1])
report = {"games": [s.id for s in registry.all_games()]}


def walk(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from walk(child)


def button(root, cls=None, description=None):
    for w in walk(root):
        if isinstance(w, W.Button) and (cls is None or cls in w._dom_classes) and (
                description is None or w.description == description):
            return w
    raise AssertionError(f"no button {cls or description!r}")


picker = ConquestApp(save_dir=saves)
report["picture"] = any("#2e7d32" in getattr(w, "value", "") for w in walk(picker))
button(picker, "cw-pick-race").click()
app = picker.game_widget
report["app"] = type(app).__name__
button(app, description="New game").click()
app.n_players.value = 2
app.seat_rows[1][1].value = "greedy"
app.speed.value = "instant"
app.seed.value = "4"
app.form.click("start")
clicks = 0
while app.screen == "play" and clicks < 200:
    button(app, "race-add-1").click()
    clicks += 1
report["screen"], report["clicks"] = app.screen, clicks
report["final"] = next(w.value for w in walk(app) if "cw-results" in getattr(w, "_dom_classes", ()))
store = SaveStore(saves)
report["results"] = len(store.results("race"))
report["files"] = sorted(p.name for p in saves.iterdir() if p.suffix == ".json")
button(app, "cw-replay-finished").click()
report["replay"] = app.screen
r = simulate("race", ["greedy", "greedy"], games=20, seed=3)
report["simulated"] = r["games"]
try:
    check_options("race", ["turns"])
except UnknownOptionError as exc:
    report["refused"] = str(exc)
print(json.dumps(report))
'''


@pytest.fixture(scope="module")
def fifth(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fifth")
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return root


def _env(fifth: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(fifth), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def test_the_conformance_suite_runs_for_the_fifth_game_and_passes(fifth: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/conformance", "-q", "-k", "race", "-p", "no:cacheprovider",
                          "-o", "addopts="], cwd=ROOT, env=_env(fifth), capture_output=True, text=True, timeout=600,
                         check=False)
    tail = run.stdout[-3000:]
    assert run.returncode == 0, tail
    found = re.search(r"(\d+) passed", tail)
    assert found and int(found.group(1)) >= 6, tail  # the game's parametrised cases ran, not zero


def test_the_picker_offers_it_and_a_game_plays_to_the_results_saves_and_replays(fifth: Path, tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", PLAY, str(tmp_path / "saves")], cwd=tmp_path, env=_env(fifth),
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["games"][-1] == "race" and len(report["games"]) == 5
    assert report["picture"], "the picker draws the game's own picture"
    assert report["app"] == "RaceApp"
    assert report["screen"] == "results" and 1 <= report["clicks"] <= 100
    assert "race-final" in report["final"] and "100" in report["final"]
    assert report["results"] == 1
    assert "results.json" in report["files"] and "autosave-race.json" not in report["files"]  # cleared at the end
    assert report["replay"] == "replay"
    assert report["simulated"] == 20
    assert "no simulation option --turns" in report["refused"]
