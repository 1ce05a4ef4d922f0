"""The story of a game in pictures: the HTML under the final standings.

Everything is inline SVG and HTML made here (no matplotlib, nothing loaded from a
CDN): a score-by-turn line chart (one polyline per player, in the player's colour), the
Final Showdown's hidden totals turn by turn, a small final map (the prefecture outlines
the map loads, simplified and rounded to whole pixels), territories and castles by
region (one square per prefecture) and the battles fought, won and lost.  Every name
that reaches the HTML is escaped: names come from save files.

    >>> from conquest_widget.games.japan_conquest import GameSetup, JapanMatch
    >>> from conquest_widget.games.japan_conquest.story import game_story
    >>> html_text = story_html(game_story(JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], seed=1))), "ja")
    >>> html_text.count('class="cw-story-line"'), "ターンごとの総得点" in html_text
    (2, True)
"""

from __future__ import annotations

import html
import itertools
import math
from functools import cache

from conquest_widget.core.safe_text import css_colour
from conquest_widget.games.japan_conquest.story import GameStory, PlayerStory
from conquest_widget.games.japan_conquest.text import (
    level_name,
    pref_name,
    region_name,
    t,
)
from conquest_widget.games.japan_conquest.widget.style import (
    LEVEL_OPACITY,
    NEUTRAL_FILL,
    name_html,
    pawn_label,
)
from conquest_widget.maps.japan.board import japan

__all__ = ["battles_html", "final_map_svg", "highlights_html", "regions_svg", "score_chart_svg", "story_html"]

#: outline simplification of the small map (degrees; shared borders stay shared)
MAP_SIMPLIFY = 0.05
#: pixels per degree of latitude of the small map
MAP_SCALE = 22.0
#: islands smaller than this (square degrees) are left off the small map
MAP_MIN_AREA = 0.004
_LON0, _LAT0 = 129.3, 45.75  # top-left corner of the main islands' frame
_KX = MAP_SCALE * math.cos(math.radians(37.5))
#: Okinawa is drawn twice as large in an inset in the top-left corner: scaled about
#: ``_OKINAWA_ORIGIN`` (its south-west corner, lon/lat), then shifted by ``_OKINAWA_SHIFT`` degrees
_OKINAWA_ORIGIN = (127.6, 26.05)
_OKINAWA_SCALE = 2.0
_OKINAWA_SHIFT = (2.3, 17.6)


def _okinawa(lon: float, lat: float) -> tuple[float, float]:
    """Where a point of Okinawa is drawn in the inset (lon, lat)."""
    ox, oy = _OKINAWA_ORIGIN
    return (ox + (lon - ox) * _OKINAWA_SCALE + _OKINAWA_SHIFT[0], oy + (lat - oy) * _OKINAWA_SCALE + _OKINAWA_SHIFT[1])

CSS = """<style>
.cw-story { font: 13px/1.4 sans-serif; color: #222; margin: 10px 0 16px; }
.cw-story h4 { margin: 12px 0 4px; font-size: 14px; }
.cw-story svg { display: block; }
.cw-story-row { display: flex; flex-wrap: wrap; gap: 10px 24px; align-items: flex-start; }
.cw-story-wide { flex: 1 1 480px; max-width: 640px; }
.cw-story-chart { width: 100%; height: auto; }
.cw-story-map { width: 300px; max-width: 100%; height: auto; }
.cw-story-regions { width: 380px; max-width: 100%; height: auto; }
.cw-story-legend { display: flex; flex-wrap: wrap; gap: 2px 14px; margin: 2px 0 0 40px; }
.cw-story-legend span.cw-story-key { white-space: nowrap; }
.cw-story-line-key { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
.cw-story table { border-collapse: collapse; font: 12px sans-serif; }
.cw-story td, .cw-story th { padding: 2px 6px; white-space: nowrap; text-align: right; border-bottom: 1px solid #eee; }
.cw-story td:first-child, .cw-story th:first-child { text-align: left; }
.cw-story .cw-story-note { color: #555; font-size: 12px; max-width: 380px; }
.cw-story .cw-name { max-width: 9em; }
.cw-story-pawn { font-size: 11px; color: #555; }
.cw-story ul { margin: 10px 0; padding-left: 18px; max-width: 420px; }
</style>"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _colour(p: PlayerStory) -> str:
    return css_colour(p.colour)


def _swatch(p: PlayerStory) -> str:
    return f'<span class="cw-swatch" style="background:{_colour(p)}"></span>'


def _who(p: PlayerStory) -> str:
    """A player in a table: colour dot, pawn label (as on the map) and ellipsized name."""
    return f'{_swatch(p)}<span class="cw-story-pawn">{_e(pawn_label(p.name, p.seat))}</span> {name_html(p.name)}'


def _nice_step(top: float, ticks: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) for an axis from 0 to ``top``.

    >>> _nice_step(955), _nice_step(40), _nice_step(0)
    (200, 10, 1)
    """
    raw = max(top, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return max(1, int(m * power))
    return int(10 * power)  # pragma: no cover - the loop always returns


# ------------------------------------------------------------------ score chart
def score_chart_svg(story: GameStory, lang: str = "en") -> str:
    """The score-by-turn line chart: one ``<polyline class="cw-story-line">`` per player,
    the Final Showdown shaded, axis labels.  The legend is :func:`_legend_html`."""
    w, h = 520, 250
    left, right, top, bottom = 58, 12, 22, 40
    turns = story.turns
    first, last = turns[0], max(turns[-1], turns[0] + 1)
    lo = min(0, min(min(p.scores) for p in story.players))
    hi = max(max(p.scores) for p in story.players)
    step = _nice_step(hi - lo)
    y_lo = math.floor(lo / step) * step
    y_hi = max(step, math.ceil(hi / step) * step)

    def x(turn: float) -> float:
        return left + (turn - first) / (last - first) * (w - left - right)

    def y(v: float) -> float:
        return top + (y_hi - v) / (y_hi - y_lo) * (h - top - bottom)

    out = [(f'<svg class="cw-story-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" '
           f'aria-label="{_e(t("story_scores", lang))}" font-family="sans-serif" font-size="12">')]
    if story.showdown_from is not None and turns[-1] >= story.showdown_from:
        x0, x1 = x(story.showdown_from - 1), x(last)
        out.append(f'<rect class="cw-story-showdown" x="{x0:.0f}" y="{top}" width="{x1 - x0:.0f}" '
                   f'height="{h - top - bottom}" fill="#fff0d0"/>')
        out.append(f'<text x="{x1:.0f}" y="{top - 6}" text-anchor="end" fill="#9a6a00">'
                   f'{_e(t("story_showdown", lang))}</text>')
    v = y_lo
    while v <= y_hi:
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{y(v):.0f}" y2="{y(v):.0f}" stroke="#ddd"/>'
                   f'<text x="{left - 5}" y="{y(v) + 4:.0f}" text-anchor="end" fill="#555">{v}</text>')
        v += step
    every = max(1, math.ceil((last - first) / 12))
    for turn in range(first, last + 1):
        if (turn - first) % every == 0 or turn == last:
            out.append(f'<text x="{x(turn):.0f}" y="{h - bottom + 15}" text-anchor="middle" fill="#555">{turn}</text>')
    out.append(f'<line x1="{left}" x2="{w - right}" y1="{h - bottom}" y2="{h - bottom}" stroke="#888"/>'
               f'<line x1="{left}" x2="{left}" y1="{top}" y2="{h - bottom}" stroke="#888"/>')
    out.append(f'<text x="{(left + w - right) / 2:.0f}" y="{h - 6}" text-anchor="middle" fill="#333">'
               f'{_e(t("story_turn", lang))}</text>')
    axis_orient = "style=\"writing-mode: vertical-rl\"" if lang == "ja" else "transform=\"rotate(-90)\""  # upright kana
    out.append(f'<g transform="translate(12 {(top + h - bottom) / 2:.0f})"><text {axis_orient} text-anchor="middle" '
               f'fill="#333">{_e(t("score", lang))}</text></g>')
    for p in story.players:
        pts = " ".join(f"{x(turn):.1f},{y(s):.1f}" for turn, s in zip(turns, p.scores, strict=True))
        colour = _colour(p)
        out.append(f'<polyline class="cw-story-line" data-seat="{p.seat}" points="{pts}" fill="none" '
                   f'stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"><title>{_e(p.name)}</title></polyline>')
        out.append(f'<circle cx="{x(turns[-1]):.1f}" cy="{y(p.scores[-1]):.1f}" r="3.5" fill="{colour}"/>')
    out.append("</svg>")
    return "".join(out)


def _legend_html(story: GameStory) -> str:
    keys = "".join(
        f'<span class="cw-story-key" data-seat="{p.seat}"><span class="cw-story-line-key" '
        f'style="background:{_colour(p)}"></span>{name_html(p.name)} <b>{p.final_score}</b></span>'
        for p in story.players
    )
    return f'<div class="cw-story-legend">{keys}</div>'


def _showdown_html(story: GameStory, lang: str) -> str:
    """The Final Showdown's totals (hidden while it was played), one column per turn."""
    if story.showdown_from is None or not story.replayed:
        return ""
    cols = [i for i, turn in enumerate(story.turns) if turn >= story.showdown_from]
    if not cols:
        return ""
    head = "".join(f"<th>{story.turns[i]}</th>" for i in cols)
    rows = "".join(
        f'<tr data-seat="{p.seat}"><td>{_who(p)}</td>' + "".join(f"<td>{p.scores[i]}</td>" for i in cols) + "</tr>"
        for p in story.players
    )
    return (f'<div class="cw-story-showdown-totals"><h4>{_e(t("story_showdown_totals", lang))}</h4><table>'
            f'<tr><th>{_e(t("story_turn", lang))}</th>{head}</tr>{rows}</table></div>')


# ------------------------------------------------------------------ final map
def _project(lon: float, lat: float) -> tuple[int, int]:
    return round((lon - _LON0) * _KX), round((_LAT0 - lat) * MAP_SCALE)


def _path(rings: list) -> str:
    """SVG path data of rings of (lon, lat) points: absolute start, relative whole-pixel steps."""
    parts = []
    for ring in rings:
        pts = []
        for lon, lat in ring:
            p = _project(lon, lat)
            if not pts or p != pts[-1]:
                pts.append(p)
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()
        if len(pts) < 3:
            continue
        d = [f"M{pts[0][0]} {pts[0][1]}l"]
        steps = []
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            steps.append(f"{x1 - x0} {y1 - y0}")
        d.append(" ".join(steps).replace(" -", "-"))
        parts.append("".join(d) + "z")
    return "".join(parts)


@cache
def _map_geometry() -> tuple[dict[int, str], tuple[int, int], tuple[int, int, int, int]]:
    """Path data by JIS code, the size of the map and Okinawa's inset frame (cached: the
    geometry never changes, only the colours)."""
    import shapely
    from shapely import affinity
    from shapely.geometry import MultiPolygon

    from conquest_widget.maps.japan.geo import prefecture_shapes

    shapes = prefecture_shapes()
    codes = sorted(shapes)
    simplified = dict(zip(codes, shapely.coverage_simplify([shapes[c] for c in codes], MAP_SIMPLIFY), strict=True))
    simplified[47] = affinity.translate(
        affinity.scale(simplified[47], _OKINAWA_SCALE, _OKINAWA_SCALE, origin=(*_OKINAWA_ORIGIN, 0.0)), *_OKINAWA_SHIFT)
    paths = {}
    for code, geom in simplified.items():
        polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
        biggest = max(p.area for p in polys)
        rings = []
        for poly in polys:
            if poly.area < MAP_MIN_AREA and poly.area < biggest:
                continue
            rings.append(list(poly.exterior.coords))
        paths[code] = _path(rings)
    minx, miny, maxx, maxy = simplified[47].bounds
    ax, ay = _project(minx - 0.3, maxy + 0.3)
    bx, by = _project(maxx + 0.3, miny - 0.3)
    size = _project(146.0, 30.8)
    return paths, size, (ax, ay, bx - ax, by - ay)


def final_map_svg(story: GameStory, lang: str = "en") -> str:
    """The final map: each prefecture filled with its owner's colour (stronger for higher
    levels, as on the game's map), a dot on castles and home bases, Okinawa in an inset."""
    paths, (w, h), (ix, iy, iw, ih) = _map_geometry()
    board = japan()
    players = {p.seat: p for p in story.players}
    out = [(f'<svg class="cw-story-map" xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 {w + 4} {h + 4}" role="img" '
           f'aria-label="{_e(t("story_map", lang))}"><rect x="-2" y="-2" width="{w + 4}" height="{h + 4}" fill="#e3f1fa"/>'
           f'<rect x="{ix}" y="{iy}" width="{iw}" height="{ih}" fill="none" stroke="#9ab" stroke-dasharray="3 2"/>'
           f'<g stroke="#fff" stroke-width="0.6" stroke-linejoin="round">')]
    dots = []
    for code, d in paths.items():
        seat, level = story.owner[code], story.level[code]
        owner = players.get(seat) if seat is not None else None
        fill = _colour(owner) if owner is not None else NEUTRAL_FILL
        title = pref_name(code, lang) + (f": {owner.name} ({level_name(level, lang)})" if owner is not None else "")
        out.append(f'<path class="cw-story-pref" data-code="{code}" d="{d}" fill="{fill}" '
                   f'fill-opacity="{LEVEL_OPACITY[level]}"><title>{_e(title)}</title></path>')
        if owner is not None and level in ("castle", "home"):
            lon, lat = board.prefectures[code - 1].label or (0.0, 0.0)
            if code == 47:
                lon, lat = _okinawa(lon, lat)
            cx, cy = _project(lon, lat)
            r = 3.5 if level == "home" else 2.5
            dots.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="#fff" stroke-width="1"/>')
    out.append("</g>")
    out.extend(dots)
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------ regions
def regions_svg(story: GameStory, lang: str = "en") -> str:
    """Territories and castles by region: one square per prefecture of the region, in the
    owner's colour (solid for castles and home bases, pale for territories and bases, grey
    when neutral), and a star in the colour of the region's controller."""
    board = japan()
    players = {p.seat: p for p in story.players}
    label_w, cell, gap, row_h = 118, 19, 3, 26
    most = max(len(board.regions[rid].members) for rid in story.regions)
    w = label_w + most * (cell + gap) + 34
    h = row_h * len(story.regions) + 4
    out = [(f'<svg class="cw-story-regions" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" '
           f'aria-label="{_e(t("story_regions", lang))}" font-family="sans-serif" font-size="11">')]
    for i, rid in enumerate(story.regions):
        y = 4 + i * row_h
        cells: list[tuple[str, float]] = []
        parts = []
        for p in story.players:
            held = p.holdings[rid]
            strong, weak = held["castle"] + held["home"], held["territory"] + held["base"]
            cells += [(_colour(p), 0.95)] * strong + [(_colour(p), 0.4)] * weak
            if strong + weak:
                parts.append(f"{p.name} {strong + weak}")
        cells += [(NEUTRAL_FILL, 1.0)] * (len(board.regions[rid].members) - len(cells))
        title = region_name(rid, lang) + (": " + ", ".join(parts) if parts else "")
        out.append(f'<g class="cw-story-region" data-region="{rid}"><title>{_e(title)}</title>'
                   f'<text x="0" y="{y + 14}" fill="#333">{_e(region_name(rid, lang))}</text>')
        for j, (colour, opacity) in enumerate(cells):
            out.append(f'<rect x="{label_w + j * (cell + gap)}" y="{y}" width="{cell}" height="{cell}" rx="3" '
                       f'fill="{colour}" fill-opacity="{opacity}" stroke="#bbb" stroke-width="0.5"/>')
        ctrl = story.region_controller[rid]
        if ctrl is not None and ctrl in players:
            stars = "★★" if story.region_full[rid] else "★"
            out.append(f'<text x="{label_w + len(cells) * (cell + gap) + 2}" y="{y + 15}" font-size="13" '
                       f'fill="{_colour(players[ctrl])}">{stars}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------ battles
def battles_html(story: GameStory, lang: str = "en") -> str:
    """The battles table (fought, won, lost, attacks won, defences held) and the
    head-to-head table (battles won–lost against each opponent)."""
    parts = [f'<h4>{_e(t("story_battles", lang))}</h4>']
    if not story.battles:
        parts.append(f'<p class="cw-story-note">{_e(t("story_no_battles", lang))}</p>')
    else:
        head = "".join(f"<th>{_e(t(k, lang))}</th>"
                       for k in ("players", "story_fought", "story_won", "story_lost", "story_attacks", "story_defences"))
        rows = "".join(
            f'<tr data-seat="{p.seat}"><td>{_who(p)}</td><td>{p.battles_fought}</td><td>{p.battles_won}</td>'
            f"<td>{p.battles_lost}</td><td>{p.attacks_won}/{p.attacks}</td><td>{p.defences_held}/{p.defences}</td></tr>"
            for p in story.players
        )
        parts.append(f'<table class="cw-story-battles">{head and "<tr>" + head + "</tr>"}{rows}</table>')
        vhead = "".join(f'<th title="{_e(p.name)}">{_swatch(p)}{_e(pawn_label(p.name, p.seat))}</th>' for p in story.players)
        vrows = "".join(
            f'<tr data-seat="{p.seat}"><td>{_who(p)}</td>' + "".join(
                "<td>–</td>" if o.seat == p.seat else
                (f"<td>{p.versus[o.seat][0]}–{p.versus[o.seat][1]}</td>" if o.seat in p.versus else "<td>·</td>")
                for o in story.players
            ) + "</tr>"
            for p in story.players
        )
        parts.append(f'<h4>{_e(t("story_versus", lang))}</h4><table class="cw-story-versus"><tr><th></th>{vhead}</tr>{vrows}</table>')
    return "".join(parts)


def highlights_html(story: GameStory, lang: str = "en") -> str:
    """A few lines on the game: the biggest battle, the best turn, how often the lead changed."""
    names = {p.seat: p.name for p in story.players}
    notes = []
    big = story.biggest_battle
    if big is not None:
        level = level_name(big.level, lang)
        notes.append(t(
            "story_biggest", lang, turn=big.turn, attacker=_e(names[big.attacker]), defender=_e(names[big.defender]),
            level=_e(level.lower() if lang == "en" else level), pref=_e(pref_name(big.pref, lang)),
            attack=big.attack, defence=big.defence, winner=_e(names[big.winner]),
        ))
    if story.best_turn is not None and story.replayed:
        b = story.best_turn
        notes.append(t("story_best_turn", lang, name=_e(names[b.seat]), turn=b.turn, gain=b.gain))
    if story.replayed and len(story.turns) > 1:
        notes.append(_e(t("story_lead_changes", lang, n=story.lead_changes)))
    return '<ul class="cw-story-highlights">' + "".join(f"<li>{n}</li>" for n in notes) + "</ul>" if notes else ""


# ------------------------------------------------------------------ together
def story_html(story: GameStory, lang: str = "en") -> str:
    """The whole story (charts, map, tables) as one HTML fragment with its own CSS."""
    note = "" if story.replayed else f'<p class="cw-story-note">{_e(t("story_no_history", lang))}</p>'
    return (
        f'{CSS}<div class="cw-story"><h3>{_e(t("story_title", lang))}</h3>'
        f'<div class="cw-story-row"><div class="cw-story-wide"><h4>{_e(t("story_scores", lang))}</h4>{note}'
        f"{score_chart_svg(story, lang)}{_legend_html(story)}</div>"
        f"<div>{_showdown_html(story, lang)}{highlights_html(story, lang)}</div></div>"
        f'<div class="cw-story-row"><div><h4>{_e(t("story_map", lang))}</h4>{final_map_svg(story, lang)}</div>'
        f'<div><h4>{_e(t("story_regions", lang))}</h4>{regions_svg(story, lang)}'
        f'<p class="cw-story-note">{_e(t("story_regions_key", lang))}</p></div>'
        f"<div>{battles_html(story, lang)}</div></div>"
        "</div>"
    )
