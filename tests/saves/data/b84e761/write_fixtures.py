"""How the files of this folder were written (by the code of commit b84e761, 2026-12-02).

They are every kind of document main wrote then, kept so that later code proves it still
reads them (tests/saves/test_old_documents.py).  Running this again with later code would
write *that* code's documents, which is not the point: the files are committed as written.

    .venv/bin/python tests/saves/data/b84e761/write_fixtures.py

What is here:

- ``slot-1.json``: Japan Conquest, engine document (format
  ``conquest_widget.japan_conquest.game`` 1: setup, random-dice seed, action log, snapshot),
  what ``SaveStore.save_slot`` writes for a ``Game`` made in Python; mid-route.
- ``slot-2.json``: Japan Conquest, match document (game ``japan_conquest`` version 2: setup,
  seed, log with logged chance), what Japan's app writes; three seats, a few CPU moves.
- ``slot-3.json`` / ``slot-4.json`` / ``slot-5.json``: Conquest (cards), the Codex, Japanese
  Risk, a few CPU moves into a game.
- ``autosave.json`` (Japan, match document mid-battle), ``autosave-conquest_cards.json``,
  ``autosave-codex.json``, ``autosave-japanese_risk.json``.
- ``results.json`` / ``records.json``: a finished game of each of the four (Japan as an
  engine ``Game``, the others as matches).
- ``preferences.json``: language ``ja`` and a last Japan setup.
- ``backup.json``: ``SaveStore.export_backup()`` of the folder (backup schema 3).
- ``expected.json``: what each game document reads as with that code: whose turn, the legal
  actions, the outcome and the public view (``view(None)``), per file.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[2]), str(HERE.parents[1])]  # tests/ and tests/saves/

from conquest_widget.core import registry  # noqa: E402
from conquest_widget.core.bots import play_bots  # noqa: E402
from conquest_widget.games.japan_conquest import GameSetup  # noqa: E402
from conquest_widget.games.japan_conquest.match import JapanMatch  # noqa: E402
from conquest_widget.saves import SaveStore  # noqa: E402

FIXED = datetime(2026, 12, 2, 4, 0, 0, tzinfo=UTC)


def played(game: str, actions: int, *, players: int = 3, seed: int = 7, to_end: bool = False) -> Any:
    spec = registry.get(game)
    engine = spec.engine_class()
    match = engine(engine.random_setup(random.Random(seed), players), seed=seed)
    bots = spec.bots_module()
    bot = bots.BOTS[bots.DEFAULT_BOT]()
    play_bots(match, {s: bot for s in range(match.n_seats)}, seed=seed, max_actions=10**6 if to_end else actions)
    assert match.is_over == to_end
    return match


def main() -> None:
    from test_old_documents import reading
    from test_saves import finished_game, mid_battle_game, mid_route_game

    for old in HERE.glob("*.json"):
        old.unlink()
    store = SaveStore(HERE, clock=lambda: FIXED)
    japan_match = JapanMatch(GameSetup.quick(["Tokyo", "Osaka", "Kagoshima"], cpu=[False, True, True], seed=11))
    jb = registry.get("japan_conquest").bots_module()
    play_bots(japan_match, {s: jb.BOTS[jb.DEFAULT_BOT]() for s in range(3)}, seed=11, max_actions=25)
    battle = JapanMatch.from_game(mid_battle_game(True))
    slots: dict[int, Any] = {
        1: mid_route_game(),
        2: japan_match,
        3: played("conquest_cards", 12),
        4: played("codex", 15),
        5: played("japanese_risk", 10),
    }
    for n, game in slots.items():
        store.save_slot(n, game)
    autosaves = {"autosave.json": battle, "autosave-conquest_cards.json": played("conquest_cards", 7, players=2, seed=3),
                 "autosave-codex.json": played("codex", 9, players=2, seed=3),
                 "autosave-japanese_risk.json": played("japanese_risk", 6, players=2, seed=3)}
    for game in autosaves.values():
        store.autosave(game)
    for game in (finished_game(3), played("conquest_cards", 0, players=2, seed=5, to_end=True),
                 played("codex", 0, players=2, seed=5, to_end=True), played("japanese_risk", 0, players=2, seed=5, to_end=True)):
        assert store.record_result(game)
    store.save_preferences({"language": "ja", "last_setup": GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True])})
    store.export_backup(HERE / "backup.json")
    expected = {f"slot-{n}.json": reading(game) for n, game in slots.items()}
    expected |= {name: reading(game) for name, game in autosaves.items()}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    for p in HERE.glob("*.lock"):
        p.unlink()


if __name__ == "__main__":
    main()
