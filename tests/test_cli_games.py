"""`conquest-widget games`, `simulate --game ID` for every game, `tournament` wired in."""

from __future__ import annotations

import json

import pytest

from conquest_widget.cli import main
from conquest_widget.core import registry


def test_games_lists_the_registry(capsys) -> None:
    assert main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [g.id for g in registry.all_games()]
    japan = rows[0]
    assert japan["playable_in_app"] and japan["players"] == [2, 4] and "normal" in japan["bots"]
    assert {r["id"]: r["hidden_information"] for r in rows}["japanese_risk"] is True


@pytest.mark.parametrize("game,players", [("conquest_cards", "easy,normal"), ("codex", "easy,normal,easy"),
                                          ("japanese_risk", "easy,easy")])
def test_simulate_any_game_gives_the_same_results_for_any_number_of_jobs(game, players, capsys) -> None:
    args = ["simulate", "--game", game, "--players", players, "--games", "4", "--seed", "7", "--json"]
    assert main([*args, "--jobs", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    seats = len(players.split(","))
    assert one == two and one["games"] == -(-4 // seats) * seats and len(one["entries"]) == seats  # whole rotations
    assert sum(s["wins"] for s in one["entries"]) >= one["games"]  # every game has at least one winner


def test_simulate_refuses_unknown_bots_and_table_sizes(capsys) -> None:
    assert main(["simulate", "--game", "codex", "--players", "easy,wizard", "--games", "1"]) == 2
    assert "codex has no bot 'wizard'" in capsys.readouterr().err
    assert main(["simulate", "--game", "conquest_cards", "--players", "easy", "--games", "1"]) == 2
    assert "2-4 players" in capsys.readouterr().err
    assert main(["simulate", "--game", "chess", "--players", "a,b", "--games", "1"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_tournament_is_a_subcommand(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--help"])
    assert exc.value.code == 0
    assert "--entrants" in capsys.readouterr().out


def test_play_says_it_serves_every_game(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("play"))
    assert "every game" in line and "Japan Conquest app" not in line, line


@pytest.mark.parametrize("game,option", [("codex", ["--mode", "conquest"]), ("codex", ["--turns", "10"]),
                                         ("conquest_cards", ["--turns", "5"]), ("japanese_risk", ["--mode", "standard"])])
def test_simulate_refuses_options_the_game_does_not_have(game, option, capsys) -> None:
    """Issue 31, item 11: ``--mode``/``--turns`` are Japan Conquest's; another game refuses them
    (they used to be silently ignored) before any game is played."""
    players = "easy,easy,easy" if game == "codex" else "easy,easy"
    assert main(["simulate", "--game", game, "--players", players, "--games", "1", *option]) == 2
    captured = capsys.readouterr()
    assert f"({game}) has no simulation option {option[0]}" in captured.err
    assert "Japan Conquest" in captured.err and captured.out == ""


def test_simulate_refuses_turns_for_a_japan_game_without_a_turn_limit(capsys) -> None:
    assert main(["simulate", "--players", "easy,easy", "--mode", "conquest", "--turns", "10", "--games", "1"]) == 2
    assert "--turns is for standard games only" in capsys.readouterr().err
    assert main(["simulate", "--players", "easy,easy", "--turns", "5", "--games", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["options"] == {"turns": 5} and result["games"] == 2
    assert main(["simulate", "--players", "easy,easy", "--mode", "conquest", "--games", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["options"] == {"mode": "conquest", "turns": None} and set(result["end_reasons"]) <= {"conquest", "unfinished"}


def test_simulation_options_come_from_each_games_spec(monkeypatch) -> None:
    """Issue 29: the options a game's simulation takes are its spec's ``simulate_options``
    (no table of game ids in the runner): give the Codex ``turns`` and it takes it,
    and the refusal elsewhere names both games."""
    from dataclasses import replace

    from conquest_widget.tournament.errors import UnknownOptionError
    from conquest_widget.tournament.simulate import check_options

    assert registry.get("japan_conquest").simulate_options == ("mode", "turns")
    assert all(not g.simulate_options for g in registry.all_games() if g.id != "japan_conquest")
    specs = {g.id: g for g in registry.all_games()}
    specs["codex"] = replace(specs["codex"], simulate_options=("turns",))
    monkeypatch.setattr(registry, "_specs", lambda: specs)
    check_options("codex", ["turns"])
    with pytest.raises(UnknownOptionError, match=r"\(codex\) has no simulation option --mode: it is an option of Japan Conquest only"):
        check_options("codex", ["mode"])
    with pytest.raises(UnknownOptionError, match="--turns: it is an option of Japan Conquest and The Codex of Conquest only"):
        check_options("conquest_cards", ["turns"])
