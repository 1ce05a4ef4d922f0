"""The story of a game in numbers: score by turn, final holdings, battles.

:func:`game_story` replays a match's log from its setup (exactly what
:meth:`JapanMatch.from_dict <conquest_widget.core.match.Match.from_dict>` does: the logged
actions are applied to a fresh match, and the logged dice faces come back as forced
chance outcomes), and samples every player's score total (:meth:`JapanMatch.score
<.queries.JapanQueries.score>`, the scoreboard's number) at the end of every turn.
Battles come from the replayed match's events.  Pure Python; widget-free.

The story holds every total of every turn, including the Final Showdown's, which are
hidden while it is played: show it only once the game is over (the results screen does).

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch, ScriptedDice
    >>> g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], turns=5), dice=ScriptedDice([2]))
    >>> g.roll(); g.step("Saitama"); g.step("Gunma"); g.confirm_route()
    (2,)
    >>> story = game_story(g)
    >>> story.turns, [p.scores for p in story.players]      # Gunma (base value 30) claimed in turn 1
    ((0, 1), [(150, 180), (135, 135)])
    >>> story.players[0].holdings["kanto"]
    {'territory': 1, 'base': 0, 'castle': 0, 'home': 1}
    >>> story.showdown_from, story.replayed, story.battles
    (3, True, ())
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from conquest_widget.core.protocol import CHANCE
from conquest_widget.errors import ConquestError
from conquest_widget.games.japan_conquest.actions import Edit
from conquest_widget.games.japan_conquest.match import JapanMatch
from conquest_widget.games.japan_conquest.movement import NOBODY
from conquest_widget.games.japan_conquest.rules import (
    FINAL_SHOWDOWN_TURNS,
    LEVEL_BY_NAME,
    LEVEL_MULTIPLIER,
    LEVEL_NAMES,
)

__all__ = ["Battle", "BestTurn", "GameStory", "PlayerStory", "game_story"]

#: the levels counted per region (neutral prefectures belong to nobody)
HELD_LEVELS = ("territory", "base", "castle", "home")


@dataclass(frozen=True)
class Battle:
    """One battle, from its ``battle_result`` event.  ``stakes`` is what the prefecture
    was worth to its defender (base value x level multiplier)."""

    turn: int
    attacker: int
    defender: int
    pref: int
    level: str
    attack: int
    defence: int
    bonus: int
    winner: int
    stakes: int

    @property
    def attacker_won(self) -> bool:
        return self.winner == self.attacker


@dataclass(frozen=True)
class BestTurn:
    """A player's largest score gain over one turn (between two samples of the chart)."""

    seat: int
    turn: int
    gain: int


@dataclass(frozen=True)
class PlayerStory:
    """One player's story.  ``scores[i]`` is the total at the end of turn ``turns[i]`` of
    the :class:`GameStory` (``turns[0] == 0``: the start); ``holdings[region][level]`` counts
    the prefectures held at the end; ``versus[opponent] == (won, lost)`` counts battles
    against each opponent (as attacker or defender)."""

    seat: int
    name: str
    colour: str
    scores: tuple[int, ...]
    final_score: int
    rank: int
    holdings: dict[str, dict[str, int]]
    attacks: int = 0
    attacks_won: int = 0
    defences: int = 0
    defences_held: int = 0
    versus: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def battles_fought(self) -> int:
        return self.attacks + self.defences

    @property
    def battles_won(self) -> int:
        return self.attacks_won + self.defences_held

    @property
    def battles_lost(self) -> int:
        return self.battles_fought - self.battles_won

    @property
    def prefectures(self) -> int:
        """Prefectures held at the end (home included)."""
        return sum(sum(levels.values()) for levels in self.holdings.values())

    @property
    def castles(self) -> int:
        """Castles and home bases held at the end."""
        return sum(levels["castle"] + levels["home"] for levels in self.holdings.values())


@dataclass(frozen=True)
class GameStory:
    """The story of a game (see the module docstring).

    ``turns`` are the x values of the score chart: 0 (the start, after any editor actions
    that set up the position before the first move), then every turn that all
    players completed, then one more if the game stopped (or stands) in the middle of a
    round.  ``owner``/``level`` are the final map by JIS code; ``region_controller`` and
    ``region_full`` the final regional control.  ``showdown_from`` is the first turn of the
    Final Showdown (standard games), whose totals were hidden while it was played.
    ``replayed`` is False when the log could not be replayed (a game without a
    serializable dice source): the chart then has only the present totals."""

    turns: tuple[int, ...]
    players: tuple[PlayerStory, ...]
    owner: dict[int, int | None]
    level: dict[int, str]
    regions: tuple[str, ...]
    region_controller: dict[str, int | None]
    region_full: dict[str, bool]
    battles: tuple[Battle, ...]
    showdown_from: int | None
    end_reason: str | None
    is_over: bool
    replayed: bool
    lead_changes: int = 0
    best_turn: BestTurn | None = None

    @property
    def biggest_battle(self) -> Battle | None:
        """The battle with the most at stake (ties: the higher dice totals, then the earlier)."""
        if not self.battles:
            return None
        return max(self.battles, key=lambda b: (b.stakes, b.attack + b.defence, -self.battles.index(b)))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (dict keys that are seats or codes become strings)."""
        data = asdict(self)
        data["owner"] = {str(k): v for k, v in self.owner.items()}
        for p, src in zip(data["players"], self.players, strict=True):
            p["versus"] = {str(k): list(v) for k, v in src.versus.items()}
            p["scores"] = list(src.scores)
        data["turns"] = list(self.turns)
        data["battles"] = [asdict(b) | {"attacker_won": b.attacker_won} for b in self.battles]
        data["biggest_battle"] = None if self.biggest_battle is None else asdict(self.biggest_battle)
        return data


def _replay(game: JapanMatch) -> tuple[JapanMatch, list[int], list[list[int]]] | None:
    """Replay ``game``'s log on a fresh match, sampling every total at the end of each round.
    None when it cannot be replayed to the same position (a match made at a position has
    no history)."""
    log = game.log
    if sum(e["seat"] != CHANCE for e in log) != game.action_count:
        return None
    try:
        fresh = JapanMatch(game.setup, seed=game.chance.seed, forced=[e["outcome"] for e in log if e["seat"] == CHANCE])
    except ConquestError:
        return None
    n = len(game.setup.players)

    def totals() -> list[int]:
        return [fresh.score(s)["total"] for s in range(n)]

    turns, samples = [0], [totals()]
    setting_up = True  # editor actions before the first move set up the starting position
    for entry in log:
        if entry["seat"] == CHANCE:
            continue
        seen = len(fresh.events)
        try:
            action = fresh.codec.from_dict(entry["action"])
            fresh.apply(action, entry["seat"])
        except ConquestError:
            return None
        setting_up = setting_up and isinstance(action, Edit)
        if setting_up:
            samples[0] = totals()
        done = min(p.turns_done for p in fresh.state.players)
        if done > turns[-1]:
            turns.append(done)
            samples.append(_at_turn_end(totals(), fresh.full_events(seen)))
    if fresh.state.snapshot() != game.state.snapshot():
        return None
    if max(p.turns_done for p in fresh.state.players) > turns[-1] or (fresh.is_over and samples[-1] != totals()):
        turns.append(turns[-1] + 1)  # a round in progress, or a game that ended within one
        samples.append(totals())
    return fresh, turns, samples


#: start-of-turn payments: they belong to the next turn, not to the one that just ended
NEXT_TURN_GAINS = ("prosperity_collected", "full_control_paid")


def _at_turn_end(totals: list[int], events: list[dict[str, Any]]) -> list[int]:
    """The totals as they stood at the last ``turn_end`` among ``events`` (the events of the
    action that completed a turn): what the next turn's start paid out is taken off again.

    >>> _at_turn_end([200, 100], [{"type": "turn_end", "player": 1}, {"type": "turn_start", "player": 0},
    ...                           {"type": "prosperity_collected", "player": 0, "amount": 30}])
    [170, 100]
    """
    ends = [i for i, ev in enumerate(events) if ev.get("type") == "turn_end"]
    out = list(totals)
    for ev in events[ends[-1] + 1:] if ends else ():
        if ev.get("type") in NEXT_TURN_GAINS:
            out[ev["player"]] -= ev["amount"]
    return out


def _battles(game: JapanMatch, events: list[dict[str, Any]]) -> list[Battle]:
    out = []
    for ev in events:
        if ev.get("type") != "battle_result":
            continue
        pref, level = ev["pref"], ev["level"]
        stakes = game.board.prefectures[pref - 1].base_value * LEVEL_MULTIPLIER[LEVEL_BY_NAME[level]]
        out.append(Battle(
            turn=ev.get("turn", 0), attacker=ev["player"], defender=ev["defender"], pref=pref, level=level,
            attack=ev["attack"], defence=ev["defence"], bonus=ev.get("bonus", 0), winner=ev["winner"], stakes=stakes,
        ))
    return out


def _lead_changes(samples: list[list[int]]) -> int:
    """How often the sole leader changed from one sample to a later one (ties keep the lead)."""
    changes, leader = 0, None
    for row in samples:
        top = max(row)
        leaders = [s for s, v in enumerate(row) if v == top]
        if len(leaders) == 1 and leaders[0] != leader:
            if leader is not None:
                changes += 1
            leader = leaders[0]
    return changes


def _best_turn(turns: list[int], samples: list[list[int]]) -> BestTurn | None:
    best: BestTurn | None = None
    for i in range(1, len(samples)):
        for seat, (before, after) in enumerate(zip(samples[i - 1], samples[i], strict=True)):
            gain = after - before
            if gain > 0 and (best is None or gain > best.gain):
                best = BestTurn(seat=seat, turn=turns[i], gain=gain)
    return best


def game_story(game: JapanMatch) -> GameStory:
    """The :class:`GameStory` of ``game`` (finished or not), computed by replaying its log.

    Each point of the chart is the totals at the end of a turn, before the start of the next
    turn pays anything out (stored prosperity, full-control payouts); the last point of a game
    still in progress is the present.  The game itself is not changed.  Games whose log cannot be replayed (a match made
    at a position, or a log that does not reach the same position) still get a story: the
    holdings and battles of the present position, and one point per player on the chart.

        >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
        >>> story = game_story(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1)))
        >>> story.turns, [p.scores for p in story.players], story.biggest_battle
        ((0,), [(150,), (135,)], None)
    """
    replay = _replay(game)
    if replay is None:
        source, turns, samples = game, [max(p.turns_done for p in game.state.players)], [
            [game.score(s)["total"] for s in range(len(game.setup.players))]
        ]
    else:
        source, turns, samples = replay
    st = source.state
    board = source.board
    regions = tuple(board.regions)
    battles = _battles(source, source.full_events())
    ranks = {r["seat"]: r["rank"] for r in source.ranking()}
    players = []
    for seat, p in enumerate(source.setup.players):
        holdings = {rid: dict.fromkeys(HELD_LEVELS, 0) for rid in regions}
        for code in board.codes:
            if st.owner[code] == seat:
                holdings[board.prefectures[code - 1].region][LEVEL_NAMES[st.level[code]]] += 1
        attacks = [b for b in battles if b.attacker == seat]
        defences = [b for b in battles if b.defender == seat]
        versus: dict[int, tuple[int, int]] = {}
        for b in attacks + defences:
            other = b.defender if b.attacker == seat else b.attacker
            won, lost = versus.get(other, (0, 0))
            versus[other] = (won + 1, lost) if b.winner == seat else (won, lost + 1)
        players.append(PlayerStory(
            seat=seat, name=p.name, colour=p.colour, scores=tuple(row[seat] for row in samples),
            final_score=source.score(seat)["total"], rank=ranks[seat], holdings=holdings,
            attacks=len(attacks), attacks_won=sum(b.attacker_won for b in attacks),
            defences=len(defences), defences_held=sum(not b.attacker_won for b in defences),
            versus=dict(sorted(versus.items())),
        ))
    setup = source.setup
    showdown = setup.turns - FINAL_SHOWDOWN_TURNS + 1 if setup.mode == "standard" and setup.turns else None
    return GameStory(
        turns=tuple(turns),
        players=tuple(players),
        owner={c: (None if st.owner[c] == NOBODY else st.owner[c]) for c in board.codes},
        level={c: LEVEL_NAMES[st.level[c]] for c in board.codes},
        regions=regions,
        region_controller={rid: (None if st.region_controller[rid] == NOBODY else st.region_controller[rid])
                           for rid in regions},
        region_full=dict(st.region_full),
        battles=tuple(battles),
        showdown_from=showdown,
        end_reason=st.end_reason,
        is_over=source.is_over,
        replayed=replay is not None,
        lead_changes=_lead_changes(samples),
        best_turn=_best_turn(turns, samples),
    )
