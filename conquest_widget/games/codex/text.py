"""English and Japanese text of the Codex: faction names, explanations of illegal actions,
event log lines.

    >>> t("not_larger", "en", size=3, enemy=3)
    'group of 3 is not larger than the enemy group of 3 next to it'
    >>> t("purchase_limit", "ja", limit=5)
    'このターンはすでに5回購入しました'
    >>> faction_name("grove", "ja")
    '翠林守護団'
    >>> describe_event({"type": "cash", "seat": 1, "amount": -3000, "cause": "loss", "faction": "tide", "balance": -500}, "en", ["Aki", "Ben"])
    'Ben: -3,000 (loss, Tide Covenant), balance -500'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .rules import FACTION_NAMES

LANGS = ("en", "ja")

STRINGS: dict[str, tuple[str, str]] = {
    # explanations of illegal actions (IllegalActionError messages; ``reason`` = the key)
    "unknown_faction": ("unknown faction {faction!r}: the factions are {factions}", "不明な勢力 {faction!r}（勢力は {factions}）"),
    "not_an_action": ("not an action of this game", "このゲームの行動ではありません"),
    "no_such_seat": ("there is no such seat", "その席はありません"),
    "not_your_turn": ("it is not this player's turn", "このプレイヤーの手番ではありません"),
    "game_over": ("the game is over", "ゲームは終了しました"),
    "wrong_phase": ("{what} is not possible now: {now}", "今は{what}できません：{now}"),
    "unlisted": ("the {name} is not listed (no piece on the board): its shares cannot be traded", "{name}は未上場（盤上に駒がない）なので株を売買できません"),
    "purchase_limit": ("{limit} purchases already this turn", "このターンはすでに{limit}回購入しました"),
    "cannot_afford": ("a {name} share costs {price:,} but you have {cash:,}: no buying into debt", "{name}の株は{price:,}ですが所持金は{cash:,}です（借金して買えません）"),
    "no_shares": ("you hold no {name} share", "{name}の株を持っていません"),
    "not_forced": ("you are not in a forced sale", "強制売却の対象ではありません"),
    "already_rolled": ("the dice are already rolled this turn", "このターンはすでにダイスを振りました"),
    "not_rolled": ("roll the dice first", "先にダイスを振ってください"),
    "must_place": ("place your piece first", "先に駒を置いてください"),
    "off_board": ("there is no plot at territory {territory}, row {row}, column {col} (territories 1-6, rows and columns 1-{k})", "領域{territory}の{row}行{col}列という区画はありません（領域1〜6、行・列1〜{k}）"),
    "wrong_territory": ("the number die shows territory {rolled}, not {territory}", "数のダイスは領域{rolled}を示しています（{territory}ではありません）"),
    "wrong_faction": ("the colour die shows the {rolled}, not the {name}", "色のダイスは{rolled}を示しています（{name}ではありません）"),
    "occupied": ("that plot already holds a {name} piece", "その区画にはすでに{name}の駒があります"),
    "not_larger": ("group of {size} is not larger than the enemy group of {enemy} next to it", "{size}個の集団は隣の敵の{enemy}個の集団より大きくありません"),
    "supply_spent": ("the {name} supply is spent", "{name}の駒はもう残っていません"),
    "already_picked": ("you already took your free share", "無料の株はすでに受け取りました"),
    "editor_off": ("this match was not set up with the editor on", "この対局はエディタ有効で作られていません"),
    "bad_edit": ("bad edit: {problem}", "不正な編集：{problem}"),
    # phases (for wrong_phase)
    "phase_start": ("each player first takes a free share", "まず各プレイヤーが無料の株を1つ受け取ります"),
    "phase_trade1": ("trade or roll the dice", "売買するかダイスを振ってください"),
    "phase_place": ("place the rolled piece", "出た駒を置いてください"),
    "phase_trade2": ("trade or end the turn", "売買するかターンを終えてください"),
    "phase_forced": ("a forced sale is under way", "強制売却中です"),
    "phase_over": ("the game is over", "ゲームは終了しました"),
    # action names (for wrong_phase)
    "act_pick": ("taking the free share", "無料の株の受け取り"),
    "act_buy": ("buying", "購入"),
    "act_sell": ("selling", "売却"),
    "act_roll": ("rolling", "ダイスを振ること"),
    "act_place": ("placing", "駒を置くこと"),
    "act_end_turn": ("ending the turn", "ターン終了"),
    "act_forced_sell": ("a forced sale", "強制売却"),
    # ledger causes
    "cause_start": ("starting cash", "初期資金"),
    "cause_income": ("income", "収入"),
    "cause_dividend": ("dividend", "配当"),
    "cause_loss": ("loss", "損失"),
    "cause_buy": ("buy", "購入"),
    "cause_sell": ("sell", "売却"),
    "cause_forced_sell": ("forced sell", "強制売却"),
    "cause_edit": ("editor", "エディタ"),
    # events
    "ev_pick": ("{player} takes a free share of the {name}", "{player}が{name}の無料株を受け取りました"),
    "ev_first_player": ("{player} plays first", "{player}が先手です"),
    "ev_turn": ("Turn {turn}: {player}", "{turn}ターン目：{player}"),
    "ev_roll": ("{player} rolls territory {territory} and {colour}", "{player}のダイス：領域{territory}・{colour}"),
    "ev_joker": ("a Joker", "ジョーカー"),
    "ev_skip": ("no legal placement: the placement is skipped", "置ける場所がないため配置をとばします"),
    "ev_place": ("{player} places a piece of the {name} in territory {territory} (row {row}, column {col}): group of {size}", "{player}が{name}の駒を領域{territory}（{row}行{col}列）に置きました：{size}個の集団"),
    "ev_removed": ("a group of {size} of the {name} is conquered and removed", "{name}の{size}個の集団が征服され取り除かれました"),
    "ev_price": ("{name}: {old:,} → {new:,}", "{name}：{old:,} → {new:,}"),
    "ev_cash": ("{player}: {amount} ({cause}{faction}), balance {balance}", "{player}：{amount}（{cause}{faction}）残高{balance}"),
    "ev_buy": ("{player} buys a share of the {name} for {price:,}", "{player}が{name}の株を{price:,}で購入"),
    "ev_sell": ("{player} sells a share of the {name} for {price:,}", "{player}が{name}の株を{price:,}で売却"),
    "ev_forced_sell": ("{player} must sell: a share of the {name} for {price:,}", "{player}の強制売却：{name}の株を{price:,}で売却"),
    "ev_forced": ("{player} is in debt and must sell shares", "{player}は借金のため株を売らなければなりません"),
    "ev_eliminated": ("{player} is eliminated", "{player}は脱落しました"),
    "ev_end": ("The game ends: {why}", "ゲーム終了：{why}"),
    "ev_edit": ("Position edited ({op})", "エディタで局面を変更（{op}）"),
    "end_group_15": ("a group of 15 stands on the board", "15個の集団ができました"),
    "end_supply_20": ("a faction's 20th piece was placed", "ある勢力の20個目の駒が置かれました"),
    "end_last_survivor": ("only one player is left", "残ったプレイヤーは1人だけです"),
    # the board (widget)
    "ui_k": ("Territory size (k × k plots)", "領域の大きさ（k × k 区画）"),
    "ui_starting_cash": ("Starting cash", "初期資金"),
    "ui_roll": ("Roll the dice", "ダイスを振る"),
    "ui_end_turn": ("End turn", "ターン終了"),
    "ui_pick": ("Free share: {name}", "{name}の無料株を受け取る"),
    "ui_pick_title": ("Choose your free starting share", "最初の無料株を選んでください"),
    "ui_buy": ("Buy", "買う"),
    "ui_sell": ("Sell", "売る"),
    "ui_confirm": ("Confirm", "確定"),
    "ui_cancel": ("Cancel", "取り消し"),
    "ui_turn": ("Turn {turn}", "{turn}ターン目"),
    "ui_your_turn": ("Your move, {player}", "{player}さんの番です"),
    "ui_waiting": ("{player} is playing…", "{player}がプレイ中…"),
    "ui_trade1": ("Trade if you like, then roll the dice.", "必要なら売買してから、ダイスを振ってください。"),
    "ui_trade2": ("Trade if you like, then end your turn.", "必要なら売買してから、ターンを終えてください。"),
    "ui_place": ("Click a highlighted plot in territory {territory} to place the piece.", "領域{territory}の光っている区画をクリックして駒を置いてください。"),
    "ui_place_joker": ("A Joker: click a highlighted plot in territory {territory}, then choose the faction.", "ジョーカー：領域{territory}の光っている区画をクリックし、勢力を選んでください。"),
    "ui_place_choose": ("Choose the faction of the piece on territory {territory} (or Cancel).", "領域{territory}に置く駒の勢力を選んでください（取り消しもできます）。"),
    "ui_place_confirm": ("Confirm the placement on territory {territory} (or Cancel).", "領域{territory}への配置を確定してください（取り消しもできます）。"),
    "ui_joker_choose": ("Which faction goes on territory {territory}, row {row}, column {col}?", "領域{territory}の{row}行{col}列にどの勢力を置きますか？"),
    "ui_dice": ("Dice", "ダイス"),
    "ui_territory": ("territory {territory}", "領域{territory}"),
    "ui_joker": ("Joker", "ジョーカー"),
    "ui_preview_title": ("Place a piece of the {name} on territory {territory}, row {row}, column {col}?", "{name}の駒を領域{territory}の{row}行{col}列に置きますか？"),
    "ui_preview_group": ("It forms a group of {size} of the {name}.", "{name}の{size}個の集団ができます。"),
    "ui_preview_removed": ("Conquered and removed: a group of {size} of the {name}.", "征服して取り除く：{name}の{size}個の集団"),
    "ui_preview_none_removed": ("No group is conquered.", "征服される集団はありません。"),
    "ui_preview_prices": ("Prices", "株価"),
    "ui_preview_cash": ("Cash", "所持金"),
    "ui_preview_forced": ("Forced to sell (in debt): {names}", "強制売却（借金）：{names}"),
    "ui_preview_end": ("The game would end: {why}", "ゲームが終了します：{why}"),
    "ui_no_change": ("no change", "変化なし"),
    "ui_forced_title": ("{player}, you are in debt ({balance}): sell shares at half price until your balance is not negative.", "{player}さんは借金（{balance}）があります。残高が負でなくなるまで株を半値で売ってください。"),
    "ui_forced_sell": ("Sell 1 {name} for {price:,}", "{name}を1株{price:,}で売る"),
    "ui_market": ("Market", "市場"),
    "ui_faction": ("Faction", "勢力"),
    "ui_price": ("Price", "株価"),
    "ui_unlisted": ("unlisted", "未上場"),
    "ui_supply": ("{left} pieces left", "残り{left}個"),
    "ui_largest": ("largest group {size}", "最大集団{size}"),
    "ui_purchases_left": ("Purchases left this turn: {n}", "このターンの残り購入回数：{n}"),
    "ui_player": ("Player", "プレイヤー"),
    "ui_cash": ("Cash", "所持金"),
    "ui_wealth": ("Wealth", "資産"),
    "ui_eliminated": ("eliminated", "脱落"),
    "ui_history": ("price history", "株価の推移"),
    "ui_occupied": ("That plot is taken.", "その区画はふさがっています。"),
    "ui_not_this_territory": ("The number die shows territory {territory}.", "数のダイスは領域{territory}です。"),
    "ui_no_faction_fits": ("No faction may be placed there: every group it forms is too small.", "そこにはどの勢力も置けません（できる集団が小さすぎます）。"),
    "ui_results_title": ("Final wealth", "最終資産"),
    "ui_results_holdings": ("Shares × price", "株数 × 株価"),
    "ui_results_end": ("The game ended: {why}", "ゲーム終了：{why}"),
    "ui_results_eliminated": ("eliminated: shares forfeited", "脱落：株は没収"),
    "ui_rank": ("Rank", "順位"),
    "ui_total": ("Total", "合計"),
}


def t(key: str, lang: str = "en", **kw: Any) -> str:
    """The text ``key`` in ``lang`` ("en" or "ja"), formatted with ``kw``."""
    en, ja = STRINGS[key]
    return (ja if lang == "ja" else en).format(**kw)


def faction_name(faction: str, lang: str = "en") -> str:
    """A faction's display name."""
    en, ja = FACTION_NAMES[faction]
    return ja if lang == "ja" else en


def explain_text(reason: str | None, details: Mapping[str, Any], lang: str = "en") -> str:
    """An illegal action's explanation in ``lang``, from its ``reason`` and the
    language-neutral ``details`` of the :class:`~conquest_widget.errors.IllegalActionError`.

    >>> explain_text("wrong_faction", {"rolled": "tide", "faction": "sun"}, "en")
    'the colour die shows the Tide Covenant, not the Sun Throne'
    >>> explain_text("wrong_phase", {"action": "buy", "phase": "place"}, "ja")
    '今は購入できません：出た駒を置いてください'
    """
    if reason not in STRINGS:
        return str(reason)
    kw = dict(details)
    fac = kw.get("faction")
    if reason != "unknown_faction" and fac in FACTION_NAMES:
        kw["name"] = faction_name(fac, lang)
    if reason == "wrong_faction":
        kw["rolled"] = faction_name(kw["rolled"], lang)
    if reason == "wrong_phase":
        kw["what"] = t(f"act_{kw['action']}", lang)
        kw["now"] = t(f"phase_{kw['phase']}", lang)
    try:
        return t(reason, lang, **kw)
    except (KeyError, IndexError, ValueError):
        return t(reason, "en", **kw) if lang != "en" else reason


def _money(v: int) -> str:
    return f"{v:+,}"


def describe_event(e: Mapping[str, Any], lang: str = "en", names: Sequence[str] = ()) -> str:
    """A readable log line for an engine event."""

    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"P{seat}"

    typ = e.get("type")
    fac = e.get("faction")
    name = faction_name(fac, lang) if fac in FACTION_NAMES else ""
    if typ == "cash":
        cause = t(f"cause_{e['cause']}", lang)
        extra = f", {name}" if name and lang == "en" else (f"・{name}" if name else "")
        return t("ev_cash", lang, player=who(e["seat"]), amount=_money(e["amount"]), cause=cause,
                 faction=extra, balance=f"{e['balance']:,}")
    if typ == "roll":
        colour = faction_name(e["faction"], lang) if e.get("faction") else t("ev_joker", lang)
        return t("ev_roll", lang, player=who(e["seat"]), territory=e["territory"], colour=colour)
    if typ == "place":
        return t("ev_place", lang, player=who(e["seat"]), name=name, territory=e["territory"],
                 row=e["row"], col=e["col"], size=e["size"])
    if typ == "removed":
        return t("ev_removed", lang, name=name, size=e["size"])
    if typ == "price":
        return t("ev_price", lang, name=name, old=e["old"], new=e["new"])
    if typ in ("buy", "sell", "forced_sell"):
        return t(f"ev_{typ}", lang, player=who(e["seat"]), name=name, price=e["price"])
    if typ == "pick":
        return t("ev_pick", lang, player=who(e["seat"]), name=name)
    if typ in ("first_player", "forced", "eliminated"):
        return t(f"ev_{typ}", lang, player=who(e["seat"]))
    if typ == "turn":
        return t("ev_turn", lang, turn=e["turn"], player=who(e["seat"]))
    if typ == "skip":
        return t("ev_skip", lang)
    if typ == "end":
        return t("ev_end", lang, why="; ".join(t(f"end_{r}", lang) for r in e["triggers"]))
    if typ == "edit":
        return t("ev_edit", lang, op=e.get("op", ""))
    return str(dict(e))
