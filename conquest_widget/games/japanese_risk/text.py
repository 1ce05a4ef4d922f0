"""English and Japanese text of Japanese Risk: explanations and event lines.

    >>> t("end_turn_button", "ja")
    'ターン終了'
    >>> t("captured", "en", player="Aki", pref="Tokyo", n=3)
    'Aki took Tokyo with 3 armies'
    >>> describe_event({"type": "captured", "seat": 0, "territory": 13, "armies": 3}, "ja", ["Aki", "Ben"])
    'Akiが東京都を3部隊で奪取'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conquest_widget.maps.japan.board import japan

LANGS = ("en", "ja")

STRINGS: dict[str, tuple[str, str]] = {
    "title": ("Japanese Risk", "戦国リスク"),
    "end_turn_button": ("End turn", "ターン終了"),
    "launch_button": ("Launch the attack", "攻撃開始"),
    "neutral": ("neutral", "中立"),
    "unknown": ("unknown", "不明"),
    "ninja": ("ninja", "忍者"),
    "castle": ("castle", "城"),
    # events
    "dealt": ("{player} was dealt {n} territory cards", "{player}に領地カード{n}枚"),
    "round": ("Round {round}: turn order {order}", "第{round}巡: 手番 {order}"),
    "income": ("{player} receives {n} armies", "{player}に{n}部隊の収入"),
    "placed": ("{player} placed {n} armies on the card of {pref}", "{player}は{pref}のカードに{n}部隊を配置"),
    "castle_built": ("{player} built a castle in {pref}", "{player}が{pref}に築城"),
    "ninja_bought": ("{player} bought {n} ninjas", "{player}は忍者を{n}人雇った"),
    "turn": ("{player}'s turn", "{player}の手番"),
    "order_roll": ("Turn order dice: {dice}", "手番決めのダイス: {dice}"),
    "launch": ("{player} attacks {pref} with {armies} armies and {ninjas} ninjas", "{player}が{pref}へ攻撃（{armies}部隊、忍者{ninjas}）"),
    "end_turn": ("{player} ends the turn", "{player}の手番終了"),
    "undefended": ("{pref} has no defenders", "{pref}に守備兵なし"),
    "deployed": ("{player} brought {n} armies onto the board in {pref}", "{player}が{pref}に{n}部隊を出陣"),
    "moved": ("{player} moved {n} armies from {src} to {pref}", "{player}が{src}から{pref}へ{n}部隊移動"),
    "ninja_moved": ("{n} ninjas moved from {src} to {pref}", "忍者{n}人が{src}から{pref}へ移動"),
    "muster": ("{player} sends {n} {what} from {src} against {pref}", "{player}が{src}から{pref}へ{what}{n}を差し向けた"),
    "revealed": ("{pref} belongs to {owner}", "{pref}の持ち主は{owner}"),
    "neutral_armies": ("{pref} is neutral: two neutral armies defend it", "{pref}は中立: 中立軍2部隊が防衛"),
    "committed": ("{player} brings {n} armies from the card of {pref}", "{player}が{pref}のカードから{n}部隊を投入"),
    "handed_over": ("{player} hands over {pref} without a battle", "{player}は{pref}を戦わずに明け渡した"),
    "preroll": ("Sea crossing: the defender of {pref} rolls {dice}, {hits} hits", "渡海: {pref}の守備側が{dice}、{hits}命中"),
    "battle_round": ("{pref}: attack {att} ({ah} hits), defence {dfn} ({dh} hits)", "{pref}: 攻撃{att}（{ah}命中）、防御{dfn}（{dh}命中）"),
    "captured": ("{player} took {pref} with {n} armies", "{player}が{pref}を{n}部隊で奪取"),
    "held": ("{pref} holds", "{pref}は守り切った"),
    "ninjas_won": ("The ninjas cleared {pref}; it stays with its owner, empty", "忍者が{pref}の守備隊を全滅させた（領地は持ち主のまま）"),
    "strike": ("{n} ninjas strike {pref}", "忍者{n}人が{pref}を急襲"),
    "strike_declared": ("You send {n} ninjas against {pref}", "{pref}へ忍者{n}人を送る"),
    "game_over": ("Game over: {reason}", "ゲーム終了: {reason}"),
    # explanations
    "not_own": ("{pref} is not one of your territories", "{pref}はあなたの領地ではありません"),
    "own_target": ("{pref} is yours: moving there is not an attack", "{pref}はあなたの領地です"),
    "not_adjacent": ("{src} and {pref} are not connected", "{src}と{pref}はつながっていません"),
    "too_many": ("only {n} can do that there", "そこで動けるのは{n}まで"),
}


def t(key: str, lang: str = "en", **kw: Any) -> str:
    """The text ``key`` in ``lang`` ("en" or "ja"), formatted with ``kw``."""
    en, ja = STRINGS[key]
    return (ja if lang == "ja" else en).format(**kw)


def _pref(code: Any, lang: str) -> str:
    if isinstance(code, int) and 1 <= code <= 47:
        return japan().prefecture(code).name(lang)
    return str(code)


def describe_event(event: dict[str, Any], lang: str = "en", names: Sequence[str] = ()) -> str:
    """A readable line for an engine event (unknown types fall back to the raw type)."""
    def who(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return t("neutral", lang) if seat == "neutral" else str(seat)

    kind = event.get("type", "")
    kw: dict[str, Any] = {k: v for k, v in event.items() if k != "type"}
    kw.setdefault("player", who(event.get("seat")))
    if "territory" in event:
        kw["pref"] = _pref(event["territory"], lang)
    if "src" in event:
        kw["src"] = _pref(event["src"], lang)
    if "armies" in event:
        kw.setdefault("n", event["armies"])
    if "owner" in event:
        kw["owner"] = who(event["owner"])
    if kind in STRINGS:
        try:
            return t(kind, lang, **kw)
        except (KeyError, IndexError):
            pass
    return kind
