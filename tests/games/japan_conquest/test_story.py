"""The story of a game (conquest_widget.games.japan_conquest.story): score by turn, holdings,
battles, checked against a hand-scripted game whose numbers are worked out by hand.

Base values used: Tokyo 50, Osaka 45, Saitama 40, Gunma 30, Kyoto 30 (home x3, base x2).
"""

from __future__ import annotations

import json

from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    RandomDice,
    ScriptedDice,
)
from conquest_widget.games.japan_conquest.bots import game_from_view
from conquest_widget.games.japan_conquest.cpu import cpu_action
from conquest_widget.games.japan_conquest.setup import PlayerSetup
from conquest_widget.games.japan_conquest.story import Battle, BestTurn, game_story

from .conftest import code, move, new_game, own


def scripted_game() -> JapanMatch:
    """Saitama starts as Ben's base (editor); Aki attacks it in turn 1 and wins 6 to 1;
    Ben claims Kyoto; Aki collects Tokyo's 30 and claims Gunma in turn 2; Ben's turn 2
    has started (he collected Osaka's 30) when the story is told."""
    g = new_game(dice=[1, 6, 1, 1, 1], turns=5)
    own(g, 1, "base", "Saitama")
    move(g, ["Saitama"])  # roll 1
    assert g.phase == "battle_attack"
    g.battle_roll(1)  # attack 6
    g.battle_roll(1)  # defence 1 + bonus 0
    move(g, ["Kyoto"])  # Ben: roll 1, claims Kyoto
    move(g, ["Gunma"])  # Aki: roll 1 from Saitama, claims Gunma
    return g


def test_scores_by_turn_of_a_hand_scripted_game():
    g = scripted_game()
    story = game_story(g)
    # start (after the editor set Saitama up): Aki 150 (Tokyo home); Ben 135 (Osaka home) + 80 (Saitama base)
    # turn 1: Aki 150 + 80 (Saitama taken, still a base) + 10 battle bonus; Ben 135 + 30 (Kyoto)
    # turn 2, in progress: Aki 240 + 30 collected + 30 (Gunma); Ben 165 + 30 collected at his turn's start
    assert story.turns == (0, 1, 2)
    assert [p.scores for p in story.players] == [(150, 240, 300), (215, 165, 195)]
    assert [p.final_score for p in story.players] == [g.score(0)["total"], g.score(1)["total"]] == [300, 195]
    assert story.replayed and not story.is_over and story.end_reason is None
    assert story.best_turn == BestTurn(seat=0, turn=1, gain=90)
    assert story.lead_changes == 1  # Ben led at the start, Aki from turn 1 on


def test_battles_of_a_hand_scripted_game():
    story = game_story(scripted_game())
    battle = Battle(turn=1, attacker=0, defender=1, pref=code("Saitama"), level="base", attack=6, defence=1,
                    bonus=0, winner=0, stakes=80)
    assert story.battles == (battle,)
    assert story.biggest_battle == battle and battle.attacker_won
    aki, ben = story.players
    assert (aki.battles_fought, aki.battles_won, aki.battles_lost, aki.attacks, aki.attacks_won) == (1, 1, 0, 1, 1)
    assert (ben.battles_fought, ben.battles_won, ben.battles_lost, ben.defences, ben.defences_held) == (1, 0, 1, 1, 0)
    assert aki.versus == {1: (1, 0)} and ben.versus == {0: (0, 1)}


def test_holdings_and_final_map_of_a_hand_scripted_game():
    story = game_story(scripted_game())
    aki, ben = story.players
    assert aki.holdings["kanto"] == {"territory": 1, "base": 1, "castle": 0, "home": 1}  # Gunma, Saitama, Tokyo
    assert ben.holdings["kinki"] == {"territory": 1, "base": 0, "castle": 0, "home": 1}  # Kyoto, Osaka
    assert sum(sum(v.values()) for v in aki.holdings.values()) == aki.prefectures == 3
    assert (aki.castles, ben.castles) == (1, 1)  # the home bases
    assert story.owner[code("Saitama")] == 0 and story.level[code("Saitama")] == "base"
    assert story.owner[code("Hokkaido")] is None and story.level[code("Hokkaido")] == "neutral"
    assert set(story.owner) == set(range(1, 48))


def test_regional_control_at_the_end():
    g = new_game(dice=[], turns=5)
    own(g, 0, "castle", "Kagawa", "Tokushima", "Ehime", "Kochi")
    story = game_story(g)
    assert story.region_controller["shikoku"] == 0 and story.region_full["shikoku"]
    assert story.region_controller["kanto"] is None
    assert story.players[0].holdings["shikoku"]["castle"] == 4
    assert story.turns == (0,) and story.players[0].scores == (g.score(0)["total"],)  # editor set-up = the start


def _live_cpu_game(turns: int, seed: int) -> tuple[JapanMatch, list[int], list[list[int]], list[bool]]:
    """Play CPUs action by action, writing down the totals (as the engine scores them at that
    moment, less what the next turn's start has just paid out: stored prosperity collected,
    full control paid) whenever every player has completed one more turn, and whether totals
    were then hidden."""
    setup = GameSetup(players=(PlayerSetup("A", 13, cpu=True), PlayerSetup("B", 27, cpu=True, strategy="aggressive"),
                               PlayerSetup("C", 40, cpu=True, colour="#2ca02c")), turns=turns, seed=seed)
    g = JapanMatch(setup)
    turns_seen, totals, hidden = [0], [[g.score(s)["total"] for s in range(3)]], [False]
    while not g.is_over:
        seen = len(g.events)
        g.push(cpu_action(g))
        done = min(p.turns_done for p in g.state.players)
        if done > turns_seen[-1]:
            turns_seen.append(done)
            row = [g.score(s)["total"] for s in range(3)]
            new = g.full_events(seen)
            start = max(i for i, e in enumerate(new) if e["type"] == "turn_end")
            for e in new[start:]:
                if e["type"] in ("prosperity_collected", "full_control_paid"):
                    row[e["player"]] -= e["amount"]
            totals.append(row)
            hidden.append(g.totals_hidden)
    return g, turns_seen, totals, hidden


def test_final_showdown_totals_appear_turn_by_turn():
    g, turns_seen, totals, hidden = _live_cpu_game(turns=5, seed=4)
    story = game_story(g)
    assert story.showdown_from == 3  # turns 3, 4 and 5 of 5
    assert story.turns == tuple(turns_seen) == (0, 1, 2, 3, 4, 5)
    assert [list(row) for row in zip(*(p.scores for p in story.players), strict=True)] == totals
    # the totals after turns 2, 3 and 4 were written down while the Final Showdown hid them
    assert hidden == [False, False, True, True, True, False]
    assert story.is_over and story.end_reason == "turns"
    assert [p.scores[-1] for p in story.players] == [r["score"] for r in sorted(g.ranking(), key=lambda r: r["seat"])]


def test_story_of_a_saved_game_is_the_same_and_the_game_is_unchanged():
    g, *_ = _live_cpu_game(turns=5, seed=9)
    before, log_length = g.state.snapshot(), g.action_count
    story = game_story(g)
    assert g.state.snapshot() == before and g.action_count == log_length
    loaded = JapanMatch.from_dict(json.loads(json.dumps(g.to_dict())))
    assert game_story(loaded) == story
    data = json.loads(json.dumps(story.to_dict()))
    assert data["players"][0]["scores"] == list(story.players[0].scores)
    assert data["turns"] == list(story.turns) and len(data["battles"]) == len(story.battles)


def test_conquest_games_have_no_final_showdown():
    g = new_game(dice=[], mode="conquest", turns=None)
    assert game_story(g).showdown_from is None


class RollOnlyDice:
    """A dice source that cannot be written down (no to_dict): its game cannot be replayed."""

    def __init__(self) -> None:
        self.inner = RandomDice(5)

    def roll(self, n: int) -> tuple[int, ...]:
        return self.inner.roll(n)


def test_a_game_that_cannot_be_replayed_gets_a_story_of_its_present():
    """A match made at a position (a CPU's, from a view) has no history to replay."""
    m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=2), dice=RollOnlyDice())  # type: ignore[arg-type]
    m.roll()
    m.step(m.legal_steps()[0])
    while m.phase == "route" and not m.can_confirm():
        m.step(m.legal_steps()[0])
    m.confirm_route()
    g = game_from_view(m.view(0), 2)
    story = game_story(g)
    assert not story.replayed
    assert story.turns == (1,) and [p.scores for p in story.players] == [(g.score(0)["total"],), (g.score(1)["total"],)]


def test_a_log_that_does_not_reach_the_position_is_not_charted():
    """A state changed behind the log's back: the replay does not reach the game's
    position, so no wrong history is drawn."""
    g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]), dice=ScriptedDice([3]))
    g.roll()
    g.plan_route(["Saitama", "Gunma", "Nagano"])
    g.state.players[0].banked += 7
    story = game_story(g)
    assert not story.replayed and story.players[0].final_score == g.score(0)["total"]
