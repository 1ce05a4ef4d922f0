"""Setup validation (a setup read from a file is hostile until checked)."""

from __future__ import annotations

import pytest

from conquest_widget.errors import SetupError
from conquest_widget.games.codex.engine import CodexMatch
from conquest_widget.games.codex.setup import CodexPlayer, CodexSetup


def test_setup_defaults_and_round_trip() -> None:
    s = CodexSetup.quick(6)
    assert s.k == 4 and s.starting_cash == 0 and not s.editor
    assert CodexSetup.from_dict(s.to_dict()) == s
    m = CodexMatch(s, seed=1)
    assert m.view(None)["width"] == 12 and m.view(None)["height"] == 8 and len(m.view(None)["board"]) == 96


@pytest.mark.parametrize(
    "data",
    [
        None, [], {"players": []}, {"players": [{"name": "A"}]}, {"players": [{"name": "A"}] * 7},
        {"players": [{"name": "A"}, {"name": "A"}]},
        {"players": [{"name": "A"}, {"name": "<b>" + "x" * 40}]},
        {"players": [{"name": "A"}, {"name": "B", "colour": "red"}]},
        {"players": [{"name": "A"}, {"name": "B", "cpu": "yes"}]},
        {"players": [{"name": "A"}, {"name": "B", "bot": "god"}]},
        {"players": [{"name": "A"}, {"name": "B", "evil": 1}]},
        {"players": [{"name": "A"}, {"name": "B"}], "k": 1},
        {"players": [{"name": "A"}, {"name": "B"}], "k": 9},
        {"players": [{"name": "A"}, {"name": "B"}], "k": True},
        {"players": [{"name": "A"}, {"name": "B"}], "k": "4"},
        {"players": [{"name": "A"}, {"name": "B"}], "starting_cash": -1},
        {"players": [{"name": "A"}, {"name": "B"}], "starting_cash": 10**12},
        {"players": [{"name": "A"}, {"name": "B"}], "editor": "true"},
        {"players": [{"name": "A"}, {"name": "B"}], "extra": 1},
    ],
)
def test_setup_hostile_documents_are_refused(data: object) -> None:
    with pytest.raises(SetupError):
        CodexSetup.from_dict(data)


def test_setup_players_must_be_codex_players() -> None:
    with pytest.raises(SetupError, match="CodexPlayer"):
        CodexSetup(("A", "B"))  # type: ignore[arg-type]
    assert CodexSetup((CodexPlayer("A"), CodexPlayer("B")), k=2).k == 2
