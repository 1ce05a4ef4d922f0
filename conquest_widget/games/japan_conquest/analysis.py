"""Exploring game states: graphs, reachability, odds, expected points, the CPUs' reasons.

Pure Python (networkx, pandas and geopandas are imported on use), for notebooks and
teaching.  Everything reads a :class:`~conquest_widget.games.japan_conquest.JapanMatch` and changes nothing.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> from conquest_widget.games.japan_conquest import analysis
    >>> game = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))
    >>> stops = analysis.reachable_stops(game, 0, allowance=1)
    >>> sorted(stops)                      # Tokyo's neighbours
    [11, 12, 14, 19]
    >>> stops[11]["effect"], stops[11]["toll"], stops[11]["points"]
    ('claim', 0, 40)
    >>> dist = analysis.stop_probabilities(game, 0, dice=1)
    >>> dist[11]                           # Saitama: any total works (routes may double back)
    1.0
    >>> 47 in dist                         # Okinawa is out of reach of one die
    False
    >>> float(analysis.battle_odds_table(max_bonus=1).loc[(1, 1), 0])
    0.4166...
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from conquest_widget._optional import require
from conquest_widget.games.japan_conquest.cpu import CpuPlayer
from conquest_widget.games.japan_conquest.movement import NOBODY, RouteContext
from conquest_widget.games.japan_conquest.odds import (
    attacker_win_probability,
    battle_odds,
    sum_distribution,
)
from conquest_widget.games.japan_conquest.routes import RouteOption, route_options
from conquest_widget.games.japan_conquest.rules import (
    BASE,
    BATTLE_BONUS,
    LEVEL_MULTIPLIER,
    LEVEL_NAMES,
    PREFECTURE_CODES,
    REGION_BONUS_PER_PREFECTURE,
    STRATEGIES,
    TERRITORY,
)
from conquest_widget.maps.japan.board import japan

if TYPE_CHECKING:  # pragma: no cover
    import geopandas
    import networkx
    import pandas

    from conquest_widget.games.japan_conquest.match import JapanMatch


def _context(game: JapanMatch, seat: int) -> RouteContext:
    st = game.state
    return RouteContext(game.board, st.owner, st.level, st.region_controller, seat)


def game_graph(game: JapanMatch | None = None, seat: int | None = None) -> networkx.Graph | networkx.DiGraph:
    """The game graph.  Without a game: an undirected :class:`networkx.Graph` (nodes with
    names, region and base value; edges with ``kind`` land/sea).  With a game and a seat:
    a :class:`networkx.DiGraph` whose edge ``a -> b`` also carries ``cost`` (movement to
    enter ``b`` from ``a`` for that player now) and ``toll``; nodes carry owner and level.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> g = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"]))
    >>> G = game_graph(g, 0)
    >>> G.edges[26, 27]["cost"], G.edges[26, 27]["toll"]   # into Osaka, an enemy home base
    (2, 50)
    >>> G.edges[27, 26]["cost"]
    1
    """
    nx = require("networkx", extra="explore", feature="analysis.game_graph()")

    base = japan().to_networkx()
    if game is None:
        return base
    seat = game.current_player if seat is None else seat
    ctx = _context(game, seat)
    G = nx.DiGraph(name=f"Japan Conquest for seat {seat}")
    st = game.state
    for code, data in base.nodes(data=True):
        owner = st.owner[code]
        G.add_node(code, **data, owner=None if owner == NOBODY else owner, level=LEVEL_NAMES[st.level[code]])
    for a, b, data in base.edges(data=True):
        for u, v in ((a, b), (b, a)):
            G.add_edge(u, v, kind=data["kind"], cost=ctx.step_cost(u, v, 0), toll=ctx.toll[v])
    return G


def _effect(game: JapanMatch, seat: int, opt: RouteOption) -> tuple[str, int]:
    """What stopping at the end of ``opt`` does, and the points it moves at once."""
    st = game.state
    code = opt.end
    base = game.board.prefectures[code - 1].base_value
    owner = NOBODY if opt.neutralised >> code & 1 else st.owner[code]
    level = st.level[code] if owner != NOBODY else 0
    if owner == NOBODY:
        return "claim", base
    if owner == seat:
        if level in (TERRITORY, BASE):
            return "upgrade", base
        return "stay", 0
    if level == TERRITORY:
        return "capture", 2 * base
    return "battle", 0


def reachable_stops(game: JapanMatch, seat: int | None = None, allowance: int = 1) -> dict[int, dict[str, Any]]:
    """Every prefecture where a legal route of exactly this allowance can end for ``seat``
    (from its position now), with the cheapest toll, whether it is an early stop, the
    effect on arrival (claim / upgrade / capture / battle / stay), the points that effect
    gives at once, the neutralisations on the way, and one route that does it."""
    seat = game.current_player if seat is None else seat
    ctx = _context(game, seat)
    me = game.state.players[seat]
    options = route_options(ctx, ctx.start(me.position, allowance, me.banked), allowance)[allowance]
    out: dict[int, dict[str, Any]] = {}
    for opt in options:
        effect, points = _effect(game, seat, opt)
        row = out.get(opt.end)
        if row is None or (opt.tolls, -opt.neutralised.bit_count()) < (row["toll"], -len(row["neutralises"])):
            out[opt.end] = {
                "toll": opt.tolls, "early": opt.early, "effect": effect, "points": points,
                "neutralises": [c for c in PREFECTURE_CODES if opt.neutralised >> c & 1], "route": list(opt.steps),
            }
    return out


def stop_probabilities(game: JapanMatch, seat: int | None = None, dice: int = 1) -> dict[int, float]:
    """For a dice option (1, 2 or 3 dice), the probability that each prefecture can be the
    stop of this turn (summing over the dice totals that allow it)."""
    seat = game.current_player if seat is None else seat
    ctx = _context(game, seat)
    me = game.state.players[seat]
    top = 6 * dice
    by_allowance = route_options(ctx, ctx.start(me.position, top, me.banked), top)
    dist = sum_distribution(dice)
    probs: dict[int, Fraction] = {}
    for a, p in enumerate(dist):
        if a == 0 or not p:
            continue
        for end in {o.end for o in by_allowance[a]}:
            probs[end] = probs.get(end, Fraction(0)) + p
    return {code: float(p) for code, p in sorted(probs.items())}


def battle_odds_table(max_bonus: int = 4) -> pandas.DataFrame:
    """Exact attacker win probabilities: rows (attack dice, defence dice), columns defence bonus."""
    pd = require("pandas", extra="explore", feature="analysis.battle_odds_table()")

    rows = {(a, d): [float(battle_odds(a, d, b)) for b in range(max_bonus + 1)] for a in (1, 2, 3) for d in (1, 2, 3)}
    df = pd.DataFrame.from_dict(rows, orient="index", columns=list(range(max_bonus + 1)))
    df.index = pd.MultiIndex.from_tuples(df.index, names=["attack dice", "defence dice"])
    df.columns.name = "defence bonus"
    return df


def expected_points(game: JapanMatch, seat: int | None = None, allowance: int = 1) -> dict[int, float]:
    """Expected change of ``seat``'s score from stopping at each reachable prefecture:
    claims and upgrades at face value, captures at the base they become, battles weighted
    by the exact odds (one attack die against the defender's best answer), minus tolls."""
    seat = game.current_player if seat is None else seat
    st = game.state
    out = {}
    for code, row in reachable_stops(game, seat, allowance).items():
        value = float(row["points"] - row["toll"])
        if row["effect"] == "battle":
            owner = st.owner[code]
            bonus = sum(game.defence_bonus_parts(code).values())
            p = float(attacker_win_probability(1, bonus, game.items(owner)))
            level_value = game.board.prefectures[code - 1].base_value * LEVEL_MULTIPLIER[st.level[code]]
            value += p * (level_value + BATTLE_BONUS)
        out[code] = value
    return out


def cpu_reasons(game: JapanMatch, seat: int | None = None, allowance: int | None = None, *, top: int = 5,
                strategies: tuple[str, ...] = STRATEGIES, difficulty: str = "normal") -> dict[str, list[dict[str, Any]]]:
    """The teaching view of the AI: for each strategy, the best ``top`` stops a CPU of that
    strategy would consider for this allowance (default: the rolled one), with the value it
    assigned and its parts.  Difficulty "hard" adds the look-ahead term; noise is left out."""
    seat = game.current_player if seat is None else seat
    if allowance is None:
        allowance = game.allowance or 1
    ctx = _context(game, seat)
    me = game.state.players[seat]
    options = route_options(ctx, ctx.start(me.position, allowance, me.banked), allowance)[allowance]
    out: dict[str, list[dict[str, Any]]] = {}
    for strategy in strategies:
        cpu = CpuPlayer(seat, difficulty if difficulty != "easy" else "normal", strategy)
        cpu._cache_key = ("analysis", id(game), game.action_count)
        rows: list[dict[str, Any]] = []
        for opt in options:
            stop = cpu.stop_value(game, opt.end, opt.neutralised)
            neut = cpu._neutralise_value(game, opt.neutralised)
            toll = -opt.tolls * (1 + cpu.profile.harm)
            ahead = cpu.skill.lookahead * cpu._potential(game, opt.end, opt.neutralised) if cpu.skill.lookahead else 0.0
            rows.append({
                "stop": opt.end, "route": list(opt.steps), "value": round(stop + neut + toll + ahead, 2),
                "parts": {"stop": round(stop, 2), "neutralise": round(neut, 2), "tolls": round(toll, 2), "lookahead": round(ahead, 2)},
                "effect": _effect(game, seat, opt)[0],
            })
        rows.sort(key=lambda r: -r["value"])
        seen, best = set(), []
        for r in rows:
            if r["stop"] not in seen:
                seen.add(r["stop"])
                best.append(r)
            if len(best) == top:
                break
        out[strategy] = best
    return out


def state_gdf(game: JapanMatch) -> geopandas.GeoDataFrame:
    """The state as a GeoDataFrame: code, names, region, owner (seat and name), level,
    points, stored prosperity, base value, geometry (EPSG:4326)."""
    from conquest_widget.maps.japan.geo import prefectures_gdf

    require("geopandas", extra="explore", feature="analysis.state_gdf()")
    gdf = prefectures_gdf()
    st = game.state
    names = [p.name for p in game.setup.players]
    gdf["owner"] = [None if st.owner[c] == NOBODY else st.owner[c] for c in gdf["code"]]
    gdf["owner_name"] = [None if st.owner[c] == NOBODY else names[st.owner[c]] for c in gdf["code"]]
    gdf["level"] = [LEVEL_NAMES[st.level[c]] for c in gdf["code"]]
    gdf["points"] = [game.prefecture_info(int(c))["points"] for c in gdf["code"]]
    gdf["stored"] = [st.stored[c] for c in gdf["code"]]
    return gdf


def distances_from(game: JapanMatch, start: int, seat: int | None = None) -> dict[int, int]:
    """Least movement needed to reach every prefecture from ``start`` for ``seat`` now
    (Dijkstra over entry costs; tolls ignored)."""
    nx = require("networkx", extra="explore", feature="analysis.distances_from()")

    G = game_graph(game, game.current_player if seat is None else seat)
    return dict(nx.single_source_dijkstra_path_length(G, start, weight="cost"))


def region_control_table(game: JapanMatch) -> list[dict[str, Any]]:
    """Per region: controller, full control, owned count per seat, bonus."""
    st = game.state
    rows = []
    for rid, region in game.board.regions.items():
        owned = {s: sum(1 for c in region.members if st.owner[c] == s) for s in range(len(game.setup.players))}
        ctrl = st.region_controller[rid]
        rows.append({
            "region": rid, "controller": None if ctrl == NOBODY else ctrl, "full": st.region_full[rid],
            "members": len(region.members), "owned": owned, "bonus": REGION_BONUS_PER_PREFECTURE * len(region.members),
        })
    return rows


__all__ = [
    "battle_odds_table",
    "cpu_reasons",
    "distances_from",
    "expected_points",
    "game_graph",
    "reachable_stops",
    "region_control_table",
    "state_gdf",
    "stop_probabilities",
]
