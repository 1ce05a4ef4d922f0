"""HTML pieces of the Codex board: dice, price-history charts, the market and players
tables, the placement preview, the end screen.  Pure functions of view/event dicts; every
string from a player (names) is escaped.

    >>> "⚂" in dice_html({"territory": 3, "colour": 5, "faction": None}, "en")
    True
    >>> price_history([{"type": "price", "faction": "tide", "old": 0, "new": 2000}])["tide"]
    [0, 2000]
    >>> sparkline([0, 2000, 1000], "#2e6fb7").startswith("<svg")
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conquest_widget.core.safe_text import css_colour, html_text

from ..rules import FACTION_COLOURS, FACTIONS
from ..text import faction_name, t

#: the faces of a number die
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
#: the Joker face of the colour die
JOKER_STYLE = "background:linear-gradient(135deg,#c0392b 0 25%,#2e6fb7 25% 50%,#2e8b57 50% 75%,#d4a017 75%)"


def money(v: int) -> str:
    """``12,000``-style amounts (signed when ``signed``)."""
    return f"{v:,}"


def dice_html(dice: Mapping[str, Any] | None, lang: str) -> str:
    """The two dice as dice: the number die's face (territory) and the colour die (a
    faction's colour with its initial, or the four-colour Joker)."""
    if not dice:
        return "<div class='cw-dice cw-dice-none' style='height:44px'></div>"
    n = int(dice["territory"])
    fac = dice.get("faction")
    die = ("display:inline-block;width:40px;height:40px;border:2px solid #333;border-radius:8px;"
           "text-align:center;vertical-align:middle;margin-right:6px;box-shadow:1px 2px 3px #999;")
    number = (f"<span class='cw-die-number' title='{html_text(t('ui_territory', lang, territory=n))}' "
              f"style='{die}background:#fffdf5;font-size:34px;line-height:38px'>{DIE_FACES[n - 1]}</span>")
    if fac in FACTION_COLOURS:
        label = faction_name(fac, lang)
        colour = (f"<span class='cw-die-colour cw-die-{fac}' title='{html_text(label)}' "
                  f"style='{die}background:{FACTION_COLOURS[fac]};color:white;font:bold 22px/38px sans-serif'>"
                  f"{html_text(label[0])}</span>")
    else:
        label = t("ui_joker", lang)
        colour = (f"<span class='cw-die-colour cw-die-joker' title='{html_text(label)}' "
                  f"style='{die}{JOKER_STYLE};color:white;font:bold 22px/38px sans-serif;"
                  f"text-shadow:0 0 3px #000'>J</span>")
    text = f"{t('ui_territory', lang, territory=n)} · {label}"
    return (f"<div class='cw-dice' style='display:flex;align-items:center'>{number}{colour}"
            f"<span style='margin-left:4px'>{html_text(text)}</span></div>")


def price_history(events: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    """Each faction's price after every change, from the ``price`` events (starting at 0)."""
    out = {f: [0] for f in FACTIONS}
    for e in events:
        if e.get("type") == "price" and e.get("faction") in out:
            out[e["faction"]].append(int(e["new"]))
    return out


def sparkline(values: Sequence[int], colour: str, width: int = 110, height: int = 28) -> str:
    """A small inline SVG step chart of ``values`` (a price history)."""
    top = max(max(values, default=0), 1000)
    n = max(len(values) - 1, 1)
    pts = []
    for i, v in enumerate(values):
        x = round(2 + (width - 4) * i / n, 1)
        y = round(height - 2 - (height - 4) * v / top, 1)
        if pts:
            pts.append(f"{x},{pts[-1].split(',')[1]}")
        pts.append(f"{x},{y}")
    return (f"<svg class='cw-spark' width='{width}' height='{height}' viewBox='0 0 {width} {height}' "
            f"style='background:#fafafa;border:1px solid #ddd'>"
            f"<polyline fill='none' stroke='{css_colour(colour)}' stroke-width='2' points='{' '.join(pts)}'/></svg>")


def faction_html(f: Mapping[str, Any], history: Sequence[int], lang: str) -> str:
    """One faction's market row: swatch, name, price (or unlisted), supply left, chart."""
    fid = f["id"]
    price = money(f["price"]) if f["listed"] else t("ui_unlisted", lang)
    return (f"<div class='cw-faction cw-faction-{fid}' style='display:flex;align-items:center;gap:6px;"
            f"min-width:330px'>"
            f"<span style='display:inline-block;width:14px;height:14px;background:{FACTION_COLOURS[fid]};"
            f"border-radius:3px'></span>"
            f"<span style='width:120px'><b>{html_text(faction_name(fid, lang))}</b><br>"
            f"<small>{html_text(t('ui_supply', lang, left=f['supply_left']))}</small></span>"
            f"<span class='cw-price' style='width:60px;text-align:right'>{html_text(price)}</span>"
            f"<span title='{html_text(t('ui_history', lang))}'>{sparkline(history, FACTION_COLOURS[fid])}</span>"
            f"</div>")


def players_html(view: Mapping[str, Any], lang: str) -> str:
    """Every player's cash, holdings per faction and total wealth (current player marked)."""
    head = "".join(f"<th title='{html_text(faction_name(f, lang))}' style='color:{FACTION_COLOURS[f]}'>■</th>"
                   for f in FACTIONS)
    rows = []
    for p in view["players"]:
        cls = "cw-current" if p["seat"] == view["current"] and view["phase"] != "over" else ""
        name = html_text(p["name"])
        if p["eliminated"]:
            name = f"<s>{name}</s> <small>({html_text(t('ui_eliminated', lang))})</small>"
        marker = "▶ " if cls else ""
        cells = "".join(f"<td style='text-align:center'>{p['shares'][f]}</td>" for f in FACTIONS)
        rows.append(f"<tr class='{cls}' data-seat='{p['seat']}'>"
                    f"<td><span style='color:{css_colour(p['colour'])}'>●</span> {marker}{name}</td>"
                    f"<td class='cw-cash' style='text-align:right'>{money(p['cash'])}</td>{cells}"
                    f"<td class='cw-wealth' style='text-align:right'><b>{money(p['wealth'])}</b></td></tr>")
    return (f"<table class='cw-players' cellpadding='3' style='border-collapse:collapse;font-size:90%'>"
            f"<tr><th>{html_text(t('ui_player', lang))}</th><th>{html_text(t('ui_cash', lang))}</th>{head}"
            f"<th>{html_text(t('ui_wealth', lang))}</th></tr>{''.join(rows)}</table>")


def _cause_list(items: Sequence[Mapping[str, Any]], lang: str) -> str:
    return ", ".join(f"{t('cause_' + i['cause'], lang)} {i['amount']:+,}" for i in items)


def preview_html(p: Mapping[str, Any], view: Mapping[str, Any], place: Mapping[str, Any], lang: str) -> str:
    """The confirmation panel of a placement: the new group, the groups removed, price
    changes, each player's cash change (with causes), who would be forced to sell, an end."""
    fac = place["faction"]
    name = faction_name(fac, lang)
    parts = [f"<b>{html_text(t('ui_preview_title', lang, name=name, territory=place['territory'], row=place['row'], col=place['col']))}</b>",
             html_text(t("ui_preview_group", lang, name=name, size=p["group"]))]
    if p["removed"]:
        parts += [f"<span class='cw-preview-removed' style='color:#b00020'>"
                  f"{html_text(t('ui_preview_removed', lang, name=faction_name(r['faction'], lang), size=r['size']))}</span>"
                  for r in p["removed"]]
    else:
        parts.append(html_text(t("ui_preview_none_removed", lang)))
    changes = [f"{html_text(faction_name(f, lang))}: {money(c['old'])} → <b>{money(c['new'])}</b>"
               for f, c in p["prices"].items() if c["old"] != c["new"]]
    if changes:
        parts.append(f"<span class='cw-preview-prices'>{html_text(t('ui_preview_prices', lang))}: {'; '.join(changes)}</span>")
    rows = []
    for s, c in enumerate(p["cash"]):
        pl = view["players"][s]
        detail = _cause_list(c["items"], lang) if c["items"] else t("ui_no_change", lang)
        colour = "#1b5e20" if c["change"] > 0 else ("#b00020" if c["change"] < 0 else "#555")
        rows.append(f"<tr data-seat='{s}'><td>{html_text(pl['name'])}</td>"
                    f"<td style='text-align:right;color:{colour}'><b>{c['change']:+,}</b></td>"
                    f"<td style='text-align:right'>→ {money(c['balance'])}</td>"
                    f"<td><small>{html_text(detail)}</small></td></tr>")
    parts.append(f"<table class='cw-preview-cash' style='font-size:90%'>{''.join(rows)}</table>")
    if p["forced"]:
        names = ", ".join(view["players"][s]["name"] for s in p["forced"])
        parts.append(f"<span class='cw-preview-forced' style='color:#b00020'>"
                     f"{html_text(t('ui_preview_forced', lang, names=names))}</span>")
    if p["triggers"]:
        why = "; ".join(t(f"end_{r}", lang) for r in p["triggers"])
        parts.append(f"<b class='cw-preview-end'>{html_text(t('ui_preview_end', lang, why=why))}</b>")
    return "<div class='cw-preview' style='line-height:1.5'>" + "<br>".join(parts) + "</div>"


def results_table(outcome: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str:
    """The end screen's wealth breakdown: per player cash + shares × price = wealth, ranks,
    eliminations noted, and why the game ended."""
    details = outcome.get("details", {})
    prices = details.get("prices", {})
    breakdown = details.get("wealth", [])
    ranks = outcome.get("ranks", [])
    players = view.get("players", [])
    head = "".join(f"<th style='color:{FACTION_COLOURS[f]}' title='{html_text(faction_name(f, lang))}'>"
                   f"{html_text(faction_name(f, lang))}<br><small>@ {money(prices.get(f, 0))}</small></th>"
                   for f in FACTIONS)
    rows = []
    order = sorted(range(len(breakdown)), key=lambda i: (ranks[i] if i < len(ranks) else 99, i))
    for i in order:
        w = breakdown[i]
        name = players[i]["name"] if i < len(players) else f"P{i + 1}"
        cells = "".join(f"<td style='text-align:right'>{w['shares'][f]['count']} × {money(prices.get(f, 0))}"
                        f" = {money(w['shares'][f]['value'])}</td>" for f in FACTIONS)
        note = f" <small>({html_text(t('ui_results_eliminated', lang))})</small>" if w.get("eliminated") else ""
        rank = ranks[i] if i < len(ranks) else ""
        rows.append(f"<tr data-seat='{i}'><td>{rank}</td><td>{html_text(name)}{note}</td>"
                    f"<td style='text-align:right'>{money(w['cash'])}</td>{cells}"
                    f"<td style='text-align:right'><b>{money(w['wealth'])}</b></td></tr>")
    why = "; ".join(t(f"end_{r}", lang) for r in details.get("triggers", []) if f"end_{r}" in _END_KEYS)
    return (f"<div class='cw-codex-results'><h4>{html_text(t('ui_results_title', lang))}</h4>"
            + (f"<p>{html_text(t('ui_results_end', lang, why=why))}</p>" if why else "")
            + f"<table style='border-collapse:collapse' border='1' cellpadding='4'>"
            f"<tr><th>{html_text(t('ui_rank', lang))}</th><th>{html_text(t('ui_player', lang))}</th>"
            f"<th>{html_text(t('ui_cash', lang))}</th>{head}<th>{html_text(t('ui_wealth', lang))}</th></tr>"
            + "".join(rows) + "</table></div>")


_END_KEYS = {"end_group_15", "end_supply_20", "end_last_survivor"}
