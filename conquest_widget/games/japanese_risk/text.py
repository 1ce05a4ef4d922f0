"""English and Japanese text of Japanese Risk: explanations and event lines.

    >>> t("end_turn_button", "ja")
    'ターン終了'
    >>> t("captured", "en", player="Aki", pref="Tokyo", n=3)
    'Aki took Tokyo with 3 armies'
    >>> describe_event({"type": "captured", "seat": 0, "territory": 13, "armies": 3}, "ja", ["Aki", "Ben"])
    'Akiが東京都を3部隊で奪取'
"""

from __future__ import annotations

import re
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
    "dealt": ("{player} was dealt {n|territory card}", "{player}に領地カード{n}枚"),
    "round": ("Round {round}: turn order {order}", "第{round}巡: 手番 {order}"),
    "income": ("{player} receives {n|army}", "{player}に{n}部隊の収入"),
    "placed": ("{player} placed {n|army} on the card of {pref}", "{player}は{pref}のカードに{n}部隊を配置"),
    "castle_built": ("{player} built a castle in {pref}", "{player}が{pref}に築城"),
    "ninja_bought": ("{player} bought {n|ninja}", "{player}は忍者を{n}人雇った"),
    "turn": ("{player}'s turn", "{player}の手番"),
    "order_roll": ("Turn order dice: {dice}", "手番決めのダイス: {dice}"),
    "launch": ("{player} attacks {pref} with {armies|army}{with_ninjas}", "{player}が{pref}へ攻撃（{armies}部隊{with_ninjas}）"),
    "launch_ninjas": (" and {n|ninja}", "、忍者{n}人"),
    "end_turn": ("{player} ends the turn", "{player}の手番終了"),
    "undefended": ("{pref} has no defenders", "{pref}に守備兵なし"),
    "deployed": ("{player} brought {n|army} onto the board in {pref}", "{player}が{pref}に{n}部隊を出陣"),
    "moved": ("{player} moved {n|army} from {src} to {pref}", "{player}が{src}から{pref}へ{n}部隊移動"),
    "ninja_moved": ("{n|ninja} moved from {src} to {pref}", "忍者{n}人が{src}から{pref}へ移動"),
    "muster": ("{player} sends {n|army} from {src} against {pref}", "{player}が{src}から{pref}へ{n}部隊を差し向けた"),
    "muster_ninjas": ("{player} sends {n|ninja} from {src} against {pref}", "{player}が{src}から{pref}へ忍者{n}人を差し向けた"),
    "revealed": ("{pref} belongs to {owner}", "{pref}の持ち主は{owner}"),
    "revealed_neutral": ("{pref} is neutral", "{pref}は中立"),
    "neutral_armies": ("{pref} is neutral: two neutral armies defend it", "{pref}は中立: 中立軍2部隊が防衛"),
    "committed": ("{player} brings {n|army} from the card of {pref}", "{player}が{pref}のカードから{n}部隊を投入"),
    "handed_over": ("{player} hands over {pref} without a battle", "{player}は{pref}を戦わずに明け渡した"),
    "preroll": ("Sea crossing: the defender of {pref} rolls {dice}: {hits|hit}", "渡海: {pref}の守備側のダイス {dice}: {hits}命中"),
    "battle_round": ("Battle for {pref}: the attacker rolls {att}: {ah|hit}; the defender rolls {dfn}: {dh|hit}",
                     "{pref}の戦い: 攻撃側のダイス {att}: {ah}命中、防御側のダイス {dfn}: {dh}命中"),
    "captured": ("{player} took {pref} with {n|army}", "{player}が{pref}を{n}部隊で奪取"),
    "held": ("{pref} holds", "{pref}は守り切った"),
    "ninjas_won": ("The ninjas cleared {pref}; it stays with its owner, empty", "忍者が{pref}の守備隊を全滅させた（領地は持ち主のまま）"),
    "strike": ("{pref} is struck by {n|ninja}", "忍者{n}人が{pref}を急襲"),
    "strike_declared": ("You send {n|ninja} against {pref}", "{pref}へ忍者{n}人を送る"),
    "game_over": ("Game over: {reason}", "ゲーム終了: {reason}"),
    # the board (widget)
    "ui_round_limit": ("Round limit (0 = off)", "巡の上限（0 = なし）"),
    "ui_shogun_players": ("Shogun: more than the other players only (neutral land not counted)",
                          "将軍: 他のプレイヤーの合計より多ければ勝ち（中立は数えない）"),
    "ui_round": ("Round {round}{limit}", "第{round}巡{limit}"),
    "ui_of_limit": (" of {n}", "（全{n}巡）"),
    "ui_phase_income": ("Income: place your armies", "収入: 部隊を配置"),
    "ui_phase_turns": ("{player}'s turn", "{player}の手番"),
    "ui_phase_over": ("Game over", "ゲーム終了"),
    "ui_waiting": ("Waiting for {players}", "{players}を待っています"),
    "ui_you": ("You are {player}", "あなたは{player}"),
    "ui_income_left": ("Income left: {n|army}", "残りの収入: {n}部隊"),
    "ui_to_place": ("To place: {n}", "配置予定: {n}"),
    "ui_reserve": ("Ninjas in reserve: {n}", "待機中の忍者: {n}"),
    "ui_all_here": ("+{n} (all left) here", "残り{n}をここへ"),
    "ui_place_confirm": ("Place these armies", "この配置で確定"),
    "ui_place_reset": ("Reset", "やり直し"),
    "ui_castle": ("Build a castle here ({cost})", "ここに築城（{cost}）"),
    "ui_buy_ninja": ("Buy a ninja ({cost})", "忍者を雇う（{cost}）"),
    "ui_selected": ("{pref}", "{pref}"),
    "ui_owner": ("Owner: {owner}", "持ち主: {owner}"),
    "ui_on_board": ("On the board: {n}", "盤上: {n}部隊"),
    "ui_on_card": ("On your card (secret): {n}", "カード上（秘密）: {n}部隊"),
    "ui_moves_left": ("Can still move: {fresh} (2 moves), {half} (1 move)", "移動可能: {fresh}（残り2歩）、{half}（残り1歩）"),
    "ui_ninjas_here": ("Ninjas here: {n}", "ここの忍者: {n}"),
    "ui_my_ninjas_here": ("Your ninjas here: {n} (can move: {m})", "あなたの忍者: {n}（移動可能: {m}）"),
    "ui_wounded": ("Wounded in the castle: {n}", "城内の負傷兵: {n}"),
    "ui_count": ("How many", "数"),
    "ui_deploy": ("Bring onto the board", "盤上に出す"),
    "ui_use_ninjas": ("Send ninjas instead of armies", "部隊の代わりに忍者を送る"),
    "ui_fresh_first": ("Send the ones with 2 moves left first", "残り2歩の部隊から先に送る"),
    "ui_pending": ("Attack on {pref} gathered: {armies|army}{ninjas}{sea}", "{pref}への攻撃を準備中: {armies}部隊{ninjas}{sea}"),
    "ui_pending_ninjas": (" and {n|ninja}", "、忍者{n}人"),
    "ui_pending_sea": (" ({n} across the sea)", "（渡海{n}）"),
    # the guide: what to do now, naming what the map lights (yellow outline, ⚔, ➜) and the buttons
    "guide_income": ("Your income: {n|army} to place. Click a territory outlined in yellow (one of yours) "
                     "to put 1 army on its card; each click adds 1. Only you see the armies on your cards (the white badges on the map).",
                     "収入: {n}部隊を配置します。黄色の枠の領地（あなたの領地）をクリックすると、そのカードに1部隊置けます"
                     "（1クリックで+1）。カード上の部隊（地図上の白い札）はあなたにしか見えません。"),
    "guide_income_done": ("All {n|army} are planned: press “{button}”.",
                          "{n}部隊すべてを割り当てました。「{button}」を押してください。"),
    "guide_pick_deploy": ("Your armies wait on their cards (the white badges), where nobody else sees them. To use them, click a "
                          "territory outlined in yellow.",
                          "部隊はカードの上（白い札）で待機中で、他の誰にも見えません。使うには黄色の枠の領地をクリックします。"),
    "guide_pick_src": ("Click a territory outlined in yellow to select its armies.",
                       "黄色の枠の領地をクリックして部隊を選びます。"),
    "guide_deploy": ("Press “{button}” to put the armies of {pref}'s card on the map (everyone then sees that "
                     "{pref} is yours). On the board they can move twice and attack.",
                     "「{button}」を押すと{pref}のカードの部隊が盤上に出ます（{pref}があなたの領地だと皆にわかります）。"
                     "盤上の部隊は2歩移動でき、攻撃もできます。"),
    "guide_targets_both": ("Click a territory marked ⚔ (red outline) to gather an attack on it, or one marked ➜ "
                           "(green outline) to move armies there. “{count}” sets how many go.",
                           "⚔の印（赤い枠）の領地をクリックで攻撃の準備、➜の印（緑の枠）の領地で移動。"
                           "送る数は「{count}」で決めます。"),
    "guide_targets_attack": ("Click a territory marked ⚔ (red outline) to gather an attack on it. “{count}” sets "
                             "how many go.",
                             "⚔の印（赤い枠）の領地をクリックで攻撃の準備。送る数は「{count}」で決めます。"),
    "guide_targets_move": ("Click a territory marked ➜ (green outline) to move armies there. “{count}” sets how "
                           "many go.",
                           "➜の印（緑の枠）の領地をクリックで移動。送る数は「{count}」で決めます。"),
    "guide_more_deploy": ("“{button}” puts more armies of its card on the map.",
                          "「{button}」でカードの部隊をさらに盤上に出せます。"),
    "guide_stuck": ("These armies cannot move or attack any more this turn: press “{button}”.",
                    "この部隊はこの手番ではもう移動も攻撃もできません。「{button}」を押してください。"),
    "guide_gathered": ("Press “{launch}” to fight (one battle, no retreat), or “{cancel}” to call it off.",
                       "「{launch}」で戦闘開始（退却なし）、「{cancel}」で取りやめ。"),
    "guide_gathered_old": ("Press “{launch}” to fight (this attack was gathered before and cannot be called off).",
                           "「{launch}」で戦闘開始（以前に準備した攻撃は取りやめできません）。"),
    "guide_gather_more": ("To send more, click another territory outlined in yellow, then {pref}.",
                          "さらに送るには、黄色の枠の別の領地をクリックしてから{pref}をクリック。"),
    "guide_handed_over": ("{pref} was handed over without a battle, so the armies that took it did not fight: those "
                          "that set out with 2 moves can still move once (it is outlined in yellow).",
                          "{pref}は戦わずに明け渡されたので、奪った部隊は戦っていません。2歩残して出た部隊は"
                          "もう1歩動けます（黄色の枠）。"),
    "guide_end": ("When you are done, press “{button}”.", "終わったら「{button}」を押します。"),
    "guide_nothing": ("Nothing more can move or attack this turn: press “{button}”.",
                      "この手番でできることはもうありません。「{button}」を押してください。"),
    "ui_odds_title": ("Exact odds", "正確な勝率"),
    "ui_odds_vs": ("against {n|defender}{castle}: win {win}, your survivors {ea}, theirs {ed}",
                   "守備{n}部隊{castle}に対して: 勝率{win}、味方の残り{ea}、敵の残り{ed}"),
    "ui_odds_castle": (" in a castle", "（城内）"),
    "ui_odds_neutral": ("if neutral (2 fresh armies)", "中立なら（新たに2部隊）"),
    "ui_odds_hidden": ("if its owner brings {n|army} from the card", "持ち主がカードから{n}部隊出すなら"),
    "ui_end_turn": ("End turn", "ターン終了"),
    "ui_launch": ("Launch the attack", "攻撃開始"),
    "ui_cancel_attack": ("Cancel the attack", "攻撃を取りやめる"),
    "ui_clear": ("Deselect", "選択解除"),
    "ui_commit_title": ("{pref} is attacked by {attacker} ({armies|army}, {ninjas|ninja})",
                        "{pref}が{attacker}に攻撃されています（{armies}部隊、忍者{ninjas}人）"),
    "ui_commit_card": ("Armies on your card there: {n}; on the board: {b}", "そのカード上の部隊: {n}、盤上: {b}"),
    "ui_commit": ("Bring this many", "この数を出す"),
    "ui_commit_all": ("Bring all ({n})", "全部出す（{n}）"),
    "ui_commit_none": ("Bring none now", "今は出さない"),
    "ui_commit_ninjas": ("Ninjas from your reserve (0-{n})", "予備の忍者も投入（0〜{n}人）"),
    "ui_commit_plus_ninjas": (" + {k|ninja}", "＋忍者{k}人"),
    "ui_commit_only_ninjas": ("No armies, only {k|ninja}", "部隊は出さず忍者{k}人だけ"),
    "ui_window_title": ("Ninja window ({trigger}): strike with your ninjas?", "忍者の機会（{trigger}）: 忍者で急襲しますか？"),
    "ui_trigger_turn": ("start of a turn", "手番の開始"),
    "ui_trigger_battle": ("after a battle", "戦闘の後"),
    "ui_strike_pick": ("Click a territory to strike.", "急襲する領地をクリック。"),
    "ui_strike": ("Strike {pref}", "{pref}を急襲"),
    "ui_hold": ("No strike", "見送る"),
    "ui_battle_title": ("Battle for {pref}", "{pref}の戦い"),
    "ui_battle_round": ("Round {n}", "第{n}回戦"),
    "ui_attack_dice": ("attack", "攻撃"),
    "ui_defence_dice": ("defence", "防御"),
    "ui_sea_dice": ("sea crossing", "渡海"),
    "ui_hits": ("{n|hit}", "{n}命中"),
    "ui_knowledge": ("What you know", "わかっていること"),
    "ui_k_player": ("{player}: {n|territory}, {castles|castle}, {pool|army} unaccounted for (cards, ninjas, income)",
                    "{player}: 領地{n}、城{castles}、所在不明の兵力{pool}（カード・忍者・収入）"),
    "ui_k_known": ("known: {known} of {n}", "判明: {n}のうち{known}"),
    "ui_k_row": ("{pref}: {armies} on the board{castle} — learned round {round} ({how})",
                 "{pref}: 盤上{armies}{castle} — 第{round}巡に判明（{how}）"),
    "ui_k_unknown": ("Territories whose owner you do not know: {n}", "持ち主不明の領地: {n}"),
    "ui_k_neutral": ("Known neutral: {codes}", "判明した中立: {codes}"),
    "ui_how_revealed": ("attacked", "攻撃で判明"),
    "ui_how_castle_built": ("castle", "築城"),
    "ui_how_deployed": ("armies shown", "出陣"),
    "ui_how_moved": ("armies moved in", "移動"),
    "ui_how_captured": ("captured", "奪取"),
    "ui_how_committed": ("defended", "防衛"),
    "ui_how_handed_over": ("handed over", "明け渡し"),
    "ui_how_undefended": ("undefended", "無防備"),
    "ui_unknown": ("unknown", "不明"),
    "ui_results_reason_shogun": ("{player} became Shogun", "{player}が将軍になった"),
    "ui_results_reason_round_limit": ("The round limit was reached: most territories wins",
                                      "巡の上限に達した: 領地の最も多い者の勝ち"),
    "ui_territories": ("Territories", "領地"),
    "ui_player": ("Player", "プレイヤー"),
    # explanations
    "not_own": ("{pref} is not one of your territories", "{pref}はあなたの領地ではありません"),
    "own_target": ("{pref} is yours: moving there is not an attack", "{pref}はあなたの領地です"),
    "not_adjacent": ("{src} and {pref} are not connected", "{src}と{pref}はつながっていません"),
    "too_many": ("only {n} can do that there", "そこで動けるのは{n}まで"),
    # defending ninjas (issue 30): added to the line of the event that carries them
    # (each is the whole line of its event when the event carries ``ninjas``)
    "committed_ninjas": ("{player} brings {n|army} from the card of {pref} and {ninjas|ninja} from reserve",
                         "{player}が{pref}のカードから{n}部隊と予備の忍者{ninjas}人を投入"),
    "committed_only_ninjas": ("{player} brings {ninjas|ninja} from reserve to defend {pref}",
                              "{player}が予備の忍者{ninjas}人を{pref}の防衛に投入"),
    "revealed_ninjas": ("{pref} belongs to {owner}, who also defends it with {ninjas|ninja} standing there",
                        "{pref}の持ち主は{owner}（そこに立つ{owner}の忍者{ninjas}人も防衛）"),
    "battle_round_ninjas": ("Battle for {pref}: the attacker rolls {att}: {ah|hit}; the defender rolls {dfn}: {dh|hit}; "
                            "the defender has {ninjas|ninja} left there",
                            "{pref}の戦い: 攻撃側のダイス {att}: {ah}命中、防御側のダイス {dfn}: {dh}命中（防衛の忍者 残り{ninjas}人）"),
}


#: English nouns counted in the strings (``{n|army}`` reads "1 army", "2 armies")
NOUNS: dict[str, tuple[str, str]] = {
    "army": ("army", "armies"), "ninja": ("ninja", "ninjas"), "hit": ("hit", "hits"),
    "defender": ("defender", "defenders"), "territory": ("territory", "territories"),
    "territory card": ("territory card", "territory cards"), "castle": ("castle", "castles"),
}
_COUNTED = re.compile(r"\{(\w+)\|([\w ]+)\}")
#: a die's face (1-6)
DICE = "⚀⚁⚂⚃⚄⚅"


def counted(n: Any, noun: str) -> str:
    """``n`` and the English ``noun``, singular for exactly one.

    >>> counted(1, "army"), counted(2, "army"), counted(0, "hit")
    ('1 army', '2 armies', '0 hits')
    """
    one, many = NOUNS[noun]
    return f"{n} {one if n == 1 else many}"


def dice_text(dice: Any) -> str:
    """Dice as die faces: ``[1, 3]`` reads "⚀ ⚂" (anything else is left out).

    >>> dice_text([1, 3, 6])
    '⚀ ⚂ ⚅'
    """
    return " ".join(DICE[d - 1] for d in (dice if isinstance(dice, list | tuple) else [])
                    if isinstance(d, int) and 1 <= d <= 6)


def t(key: str, lang: str = "en", **kw: Any) -> str:
    """The text ``key`` in ``lang`` ("en" or "ja"), formatted with ``kw``; ``{n|army}``
    is a count with its noun ("1 army", "2 armies")."""
    en, ja = STRINGS[key]
    text = ja if lang == "ja" else en
    text = _COUNTED.sub(lambda m: counted(kw[m.group(1)], m.group(2)), text)
    return text.format(**kw)


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
    if kind == "round":
        order = ", ".join(who(s) if isinstance(s, int) and 0 <= s < len(names) else "?" for s in event.get("order", []))
        return t("round", lang, round=event.get("round", "?"), order=order)
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
        if event["owner"] == "neutral":
            kind = "revealed_neutral"
    for k in ("dice", "att", "dfn"):
        if k in event:
            kw[k] = dice_text(event[k])
    if kind == "muster" and event.get("ninja"):
        kind = "muster_ninjas"
    if kind == "launch":
        kw["with_ninjas"] = t("launch_ninjas", lang, n=event.get("ninjas", 0)) if event.get("ninjas") else ""
    if kind in ("committed", "revealed", "battle_round") and "ninjas" in event:  # defending ninjas (issue 30)
        kind = "committed_only_ninjas" if kind == "committed" and not event.get("n") else f"{kind}_ninjas"
    if kind in STRINGS:
        try:
            return t(kind, lang, **kw)
        except (KeyError, IndexError):
            pass
    return kind
