"""What Japan Conquest sounds like: the effects (keys of
:data:`conquest_widget.ui.sound.EFFECTS`) and spoken announcements of its events, for its
own app (:func:`japan_sounds`, one action at a time) and for the shared shell's app
(:func:`sound_news`, ``GameUI.sound_news``: the news of each published change).

A battle's result is ``battle_won`` / ``battle_lost`` from the side of its human player
and the neutral ``battle`` when both or neither side is human; a route step (which writes
no event) ticks; every turn's start chimes and names its player.  Announcements name
players, prefectures and regions only, never points (the Final Showdown hides them).

    >>> EVENT_EFFECTS["claimed"], EVENT_EFFECTS["upgraded"]
    ('claim', 'upgrade')

This module imports no widget library (the shell's ``pick_effects`` is imported when
:func:`japan_sounds` runs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conquest_widget.games.japan_conquest.actions import Step
from conquest_widget.games.japan_conquest.text import pref_name, region_name, t

#: engine event type -> sound effect (a battle's result is won/lost/neutral: see japan_sounds)
EVENT_EFFECTS = {
    "roll": "roll", "claimed": "claim", "captured": "claim", "upgraded": "upgrade", "battle_start": "battle",
    "region_gained": "region", "full_control_gained": "region", "turn_start": "turn_start", "game_end": "game_end",
}


def _joined(said: Sequence[str], lang: str) -> str:
    return ("。" if lang == "ja" else ". ").join(said)


def _heard(players: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]],
           lang: str) -> tuple[set[str], list[str]]:
    """The effects ``events`` make and the sentences they say, in order."""
    names = [p["name"] for p in players]
    humans = {i for i, p in enumerate(players) if not p["cpu"]}
    found: set[str] = set()
    said: list[str] = []
    for ev in events:
        kind = ev.get("type")
        if kind == "battle_result":
            sides = {ev["player"], ev["defender"]} & humans
            if len(sides) == 1:
                human_won = (ev["winner"] in humans)
                found.add("battle_won" if human_won else "battle_lost")
            else:
                found.add("battle")
            if ev["attacker_won"]:
                said.append(t("say_battle_won", lang, who=names[ev["player"]], pref=pref_name(ev["pref"], lang)))
            else:
                said.append(t("say_battle_held", lang, defender=names[ev["defender"]], pref=pref_name(ev["pref"], lang)))
        elif kind in EVENT_EFFECTS:
            found.add(EVENT_EFFECTS[kind])
            if kind == "region_gained":
                said.append(t("say_region", lang, who=names[ev["player"]], region=region_name(ev["region"], lang)))
            elif kind == "turn_start":
                said.append(t("say_turn", lang, name=names[ev["player"]]))
            elif kind == "game_end":
                winners = ("・" if lang == "ja" else ", ").join(names[s] for s in ev.get("winners", []))
                said.append(t("say_game_end", lang, winners=winners))
    return found, said


def japan_sounds(players: list[dict], events: list[dict], action: Any, lang: str) -> tuple[list[tuple[str, float]], str]:
    """What one action of a Japan Conquest game sounds like in its own app: the effects to
    play as ``(effect, delay)`` and the announcement to speak ("" = none), from the action
    and the events it produced (see the module docstring).

    ``players`` are the view's players (names and who is a CPU); ``events`` as the viewer
    sees them.

    >>> from conquest_widget.games.japan_conquest import GameSetup, ScriptedDice
    >>> from conquest_widget.games.japan_conquest.actions import Roll
    >>> from conquest_widget.games.japan_conquest.match import JapanMatch
    >>> m = JapanMatch(GameSetup.quick(["Tokyo", "Osaka"], cpu=[False, True]), dice=ScriptedDice([1]))
    >>> n = len(m.events); m.apply(Roll(1), 0)
    >>> players = m.view(0)["players"]
    >>> japan_sounds(players, m.events_for(0, since=n), Roll(1), "en")
    ([('roll', 0.0)], '')
    >>> japan_sounds(players, [{"type": "turn_start", "player": 1}], None, "ja")
    ([('turn_start', 0.0)], 'Player 2の番です')
    """
    from conquest_widget.ui.sound import pick_effects  # the shell's order of importance

    found, said = _heard(players, events, lang)
    if isinstance(action, Step):
        found.add("step")
    return pick_effects(found), _joined(said, lang)


def _stepped(view: Mapping[str, Any], before: Mapping[str, Any] | None) -> bool:
    """Did the route grow by one prefecture since ``before`` (a step, which writes no event)?"""
    return (before is not None and view.get("phase") == "route" == before.get("phase")
            and len(view.get("route") or ()) == len(before.get("route") or ()) + 1)


def sound_news(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], lang: str,
               before: Mapping[str, Any] | None = None) -> tuple[list[str], str]:
    """Japan Conquest's ``GameUI.sound_news`` for the shell's app: the effects and the
    announcement of a published change, ``view`` with the ``events`` new since the last
    change heard; ``before`` is the view of that change (None: the match was just shown,
    or the screen changed hands, and ``events`` is empty).

    What Japan's own app gives (:func:`japan_sounds`), but the end: the shell plays the
    fanfare and names the winners itself.  Every turn's start chimes and names its player
    (a CPU's too; the shell does not say a sentence twice, so the viewer's turn is named
    once); a match just shown names the player to move; a route step, which writes no
    event, is heard from the view, whose route grew by one prefecture.

    >>> players = [{"name": "Aoi", "cpu": False}, {"name": "Ren", "cpu": True}]
    >>> view = {"players": players, "phase": "roll", "current_player": 1, "route": [], "outcome": None}
    >>> sound_news(view, [{"type": "claimed", "player": 0, "pref": 11}, {"type": "turn_start", "player": 1}], "en", view)
    (['claim', 'turn_start'], "Ren's turn")
    >>> sound_news(view, [], "ja")  # just shown
    (['turn_start'], 'Renの番です')
    >>> sound_news(view | {"phase": "route", "route": [11]}, [], "en", view | {"phase": "route"})
    (['step'], '')
    >>> sound_news(view | {"outcome": {"ranks": [1, 2]}}, [{"type": "game_end", "winners": [0]}], "en", view)
    ([], '')
    """
    over = view.get("outcome") is not None
    if before is None and not events:
        news: list[Mapping[str, Any]] = [] if over else [{"type": "turn_start", "player": view["current_player"]}]
    else:  # the end is the shell's; no turn starts after it
        news = [e for e in events if e.get("type") != "game_end" and not (over and e.get("type") == "turn_start")]
    found, said = _heard(view["players"], news, lang)
    if _stepped(view, before):
        found.add("step")
    return sorted(found), _joined(said, lang)


__all__ = ["EVENT_EFFECTS", "japan_sounds", "sound_news"]
