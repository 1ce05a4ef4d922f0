"""English and Japanese UI text, and readable log lines for engine events.

    >>> t("roll", "ja")
    'ダイスを振る'
    >>> describe_event({"type": "claimed", "player": 0, "pref": 13, "points": 50}, "en", ["Aki", "Ben"])
    'Aki claimed Tokyo as territory (+50)'
    >>> describe_event({"type": "claimed", "player": 0, "pref": 13, "points": 50}, "ja", ["Aki", "Ben"])
    'Akiが東京都を領地にしました（+50）'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .board import japan

LANGS = ("en", "ja")

STRINGS: dict[str, tuple[str, str]] = {
    # start / setup
    "title": ("Japan Conquest", "全国制覇すごろく"),
    "new_game": ("New Game", "新しく出陣"),
    "continue": ("Continue Last Game", "前回の途中から再開"),
    "previous_results": ("Previous Results", "前回の結果を見る"),
    "save_data": ("Save Data Management", "セーブデータ管理"),
    "language": ("Language", "言語"),
    "setup": ("Game setup", "対戦設定"),
    "players": ("Players", "参加者"),
    "player_count": ("Number of players", "参加人数"),
    "name": ("Name", "名前"),
    "colour": ("Colour", "色"),
    "human": ("Human", "人間"),
    "cpu": ("CPU", "CPU"),
    "difficulty": ("Difficulty", "強さ"),
    "strategy": ("Strategy", "戦略"),
    "home": ("Home", "本拠地"),
    "mode": ("Mode", "モード"),
    "turns": ("Turns", "ターン数"),
    "roll_for_order": ("Roll for Order", "先攻をダイスで決定"),
    "seed": ("Seed (optional)", "シード（任意）"),
    "start": ("Start", "出陣"),
    "back": ("Back", "戻る"),
    "easy": ("Easy", "弱い"),
    "normal": ("Normal", "普通"),
    "hard": ("Hard", "強い"),
    "balanced": ("Balanced", "バランス"),
    "aggressive": ("Aggressive", "合戦好き"),
    "expansionist": ("Expansionist", "領土拡大"),
    "defensive": ("Defensive", "籠城"),
    "standard": ("Standard", "通常"),
    "conquest": ("Conquest", "全国制覇"),
    "total_conquest": ("Total Conquest", "真・全国制覇"),
    "click_map_home": ("Tip: click the map to set the selected player's home", "ヒント：地図をクリックすると選択中の参加者の本拠地を設定できます"),
    # turn controls
    "turn_of": ("{name}'s turn {turn}", "{name}の{turn}ターン目"),
    "one_die": ("One die", "通常ダイス"),
    "double_dice": ("Double Dice ({n} left)", "2個ダイス（残り{n}）"),
    "triple_dice": ("Triple Dice ({n} left)", "3個ダイス（残り{n}）"),
    "roll": ("Roll", "ダイスを振る"),
    "undo": ("Undo Step", "1つ戻す"),
    "confirm": ("Confirm Route", "このルートで確定"),
    "allowance": ("Movement {n}", "移動力 {n}"),
    "remaining": ("{n} left", "残り{n}"),
    "route": ("Route", "ルート"),
    "choose_next": ("Click a highlighted prefecture", "光っている県をクリック"),
    "can_confirm": ("You can confirm this route", "このルートで確定できます"),
    "cpu_thinking": ("{name} (CPU) is playing…", "{name}（CPU）の手番です…"),
    "cpu_speed": ("CPU speed", "CPUの速さ"),
    "instant": ("Instant", "一瞬"),
    "fast": ("Fast", "速い"),
    "slow": ("Normal", "普通"),
    "overview": ("Overview", "全体"),
    "current_location": ("Current Location", "現在地"),
    "basemap": ("Basemap (online)", "背景地図（オンライン）"),
    "save_exit": ("Save & Exit", "保存・終了"),
    "exit_no_save": ("Exit Without Saving", "保存せず終了"),
    "final_showdown": ("Final Showdown: totals hidden", "決戦：総得点は非公開"),
    # battle
    "battle_title": ("Battle for {pref}", "{pref}の合戦"),
    "attacker_choose": ("{name} attacks: choose dice", "{name}の攻撃：ダイスを選んでください"),
    "defender_choose": ("{name} defends against {attack} (+{bonus} defence): choose dice", "{name}の防御：攻撃{attack}に対し防御補正+{bonus}。ダイスを選んでください"),
    "battle_roll": ("Roll", "振る"),
    # info / scoreboard
    "owner": ("Owner", "所有"),
    "level": ("Level", "状態"),
    "points": ("Points", "現在得点"),
    "base_value": ("Base value", "基礎点"),
    "stored": ("Stored prosperity", "繁栄ポイント"),
    "nobody": ("Nobody", "なし"),
    "neutral": ("Neutral", "中立"),
    "territory": ("Territory", "領地"),
    "base": ("Base", "拠点"),
    "castle": ("Castle", "城"),
    "home_base": ("Home base", "本拠地"),
    "score": ("Score", "総得点"),
    "items": ("Items", "アイテム"),
    "regions": ("Regions", "地方"),
    "hidden": ("???", "？？？"),
    "log": ("Battle Log", "戦況ログ"),
    # results
    "results": ("Final standings", "最終結果"),
    "rank": ("Rank", "順位"),
    "decisive": ("Decisive victory: {name}!", "{name}の完全勝利！"),
    "winner": ("Winner: {name}", "勝者：{name}"),
    "same_setup": ("New game with same setup", "同じ設定で新しく対戦"),
    "to_start": ("Start screen", "開始画面へ"),
    # saves
    "slot": ("Slot {n}", "スロット{n}"),
    "empty": ("empty", "空き"),
    "corrupt": ("unreadable: {error}", "読み込めません：{error}"),
    "slot_line": ("{date} · {mode} · turn {turn} · {players}", "{date}・{mode}・{turn}ターン目・{players}"),
    "resume": ("Resume", "再開"),
    "delete": ("Delete", "削除"),
    "confirm_delete": ("Delete slot {n}?", "スロット{n}を削除しますか？"),
    "yes": ("Yes", "はい"),
    "no": ("No", "いいえ"),
    "records": ("Records against CPUs", "CPU戦の成績"),
    "wld": ("{w} W / {l} L / {d} D", "{w}勝 {l}敗 {d}分"),
    "no_results": ("No finished games yet", "まだ終了した対局はありません"),
    "save_to": ("Save to", "保存先"),
    "save": ("Save", "保存"),
    "cancel": ("Cancel", "キャンセル"),
    "overwrite": ("Slot {n} holds a game from {date}. Overwrite it?", "スロット{n}には{date}のデータがあります。上書きしますか？"),
    "saved": ("Saved to slot {n}", "スロット{n}に保存しました"),
    "export": ("Export backup", "バックアップを書き出す"),
    "download": ("Download {file}", "{file}をダウンロード"),
    "restore": ("Restore from a backup file", "バックアップから復元"),
    "restore_confirm": ("Replace all current save data with this backup", "現在のセーブデータをこのバックアップで置き換える"),
    "backup_summary": ("Backup from {date}: autosave {auto}, {slots} used slot(s), {results} result(s)", "{date}のバックアップ：中断データ{auto}、使用中スロット{slots}、結果{results}件"),
    "restored": ("Backup restored", "復元しました"),
    "delete_all": ("Delete all save data", "すべてのセーブデータを削除"),
    "confirm_delete_all": ("Really delete every save, result and record?", "すべてのセーブ・結果・成績を削除しますか？"),
    "deleted": ("Deleted", "削除しました"),
    "present": ("yes", "あり"),
    "absent": ("no", "なし"),
    # reasons for illegal clicks
    "why_cost": ("Entering {pref} costs {cost}, only {left} left", "{pref}へは移動力{cost}が必要ですが、残りは{left}です"),
    "why_toll": ("Toll {toll} into {pref}, you have {banked}", "{pref}の通行料は{toll}ptですが、所持は{banked}ptです"),
    "why_not_adjacent": ("{pref} is not connected to where you are", "{pref}は現在地と接続していません"),
    "why_dead_end": ("From {pref} no route can be completed", "{pref}からはルートを完成できません"),
    "why_other": ("Not possible now", "今はできません"),
    "not_your_turn": ("Wait for your turn", "自分の番をお待ちください"),
    "roll_first": ("Roll the dice first", "先にダイスを振ってください"),
}

LEVEL_KEYS = {"neutral": "neutral", "territory": "territory", "base": "base", "castle": "castle", "home": "home_base"}


def t(key: str, lang: str = "en", **fmt: Any) -> str:
    """The UI text ``key`` in ``lang`` (``"en"`` or ``"ja"``), formatted with ``fmt``."""
    en, ja = STRINGS[key]
    text = ja if lang == "ja" else en
    return text.format(**fmt) if fmt else text


def pref_name(code: int, lang: str = "en") -> str:
    """A prefecture's name in ``lang``."""
    return japan().prefectures[code - 1].name(lang)


def region_name(rid: str, lang: str = "en") -> str:
    """A region's name in ``lang``."""
    return japan().regions[rid].name(lang)


def level_name(level: str, lang: str = "en") -> str:
    """A level ("territory", "base", "castle", "home", "neutral") in ``lang``."""
    return t(LEVEL_KEYS[level], lang)


def _pts(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def describe_event(ev: dict[str, Any], lang: str, names: Sequence[str]) -> str | None:
    """One readable log line for an engine event, or ``None`` for events not shown."""
    ja = lang == "ja"
    k = ev["type"]

    def who(key: str = "player") -> str:
        s = ev.get(key)
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    pref = pref_name(ev["pref"], lang) if "pref" in ev and isinstance(ev["pref"], int) else ""
    region = region_name(ev["region"], lang) if "region" in ev else ""
    if k == "game_start":
        return "対戦開始" if ja else "The game begins"
    if k == "order_roll":
        rolls = ", ".join(f"{names[int(s)]} {f}" for s, f in ev["rolls"].items())
        return f"先攻決めのダイス：{rolls}" if ja else f"Roll for order: {rolls}"
    if k == "turn_order":
        order = " → ".join(names[s] for s in ev["order"])
        return f"手番順：{order}" if ja else f"Turn order: {order}"
    if k == "turn_start":
        return f"― {who()}の{ev.get('turn')}ターン目 ―" if ja else f"— {who()}'s turn {ev.get('turn')} —"
    if k == "prosperity_collected":
        return f"{who()}が繁栄ポイント{ev['amount']}ptを回収" if ja else f"{who()} collected {ev['amount']} prosperity"
    if k == "full_control_paid":
        return f"{who()}が{region}の完全地方統一で{ev['amount']}pt獲得" if ja else f"{who()} earned {ev['amount']} for full control of {region}"
    if k == "item_received":
        item = ("2個ダイス" if ev["item"] == "double" else "3個ダイス") if ja else ("a Double Dice" if ev["item"] == "double" else "a Triple Dice")
        return f"{who()}が{item}を獲得" if ja else f"{who()} received {item}"
    if k == "item_used":
        item = ("2個ダイス" if ev["item"] == "double" else "3個ダイス") if ja else ("Double Dice" if ev["item"] == "double" else "Triple Dice")
        return f"{who()}が{item}を使用" if ja else f"{who()} used {item}"
    if k == "roll":
        faces = "+".join(str(f) for f in ev["faces"])
        return f"{who()}の出目 {faces} = 移動力{ev['allowance']}" if ja else f"{who()} rolled {faces} = {ev['allowance']} movement"
    if k == "no_route":
        return f"{who()}は移動できるルートがありません" if ja else f"{who()} has no legal route and does not move"
    if k == "toll":
        return (
            f"{who()}が{pref}の通行料{ev['amount']}ptを{who('to_player')}へ支払い"
            if ja else f"{who()} paid a {ev['amount']} toll to {who('to_player')} at {pref}"
        )
    if k == "neutralised":
        return f"{who()}が{who('from_player')}の{pref}を中立に戻しました" if ja else f"{who()} passed through {pref}: {who('from_player')} lost it"
    if k == "route_done":
        route = " → ".join(pref_name(c, lang) for c in ev["route"])
        return f"{who()}の移動：{route}" if ja else f"{who()} moved: {route}"
    if k == "claimed":
        return f"{who()}が{pref}を領地にしました（{_pts(ev['points'])}）" if ja else f"{who()} claimed {pref} as territory ({_pts(ev['points'])})"
    if k == "upgraded":
        lv = level_name(ev["level"], lang)
        return f"{who()}の{pref}が{lv}に成長（{_pts(ev['points'])}）" if ja else f"{who()} upgraded {pref} to a {lv.lower()} ({_pts(ev['points'])})"
    if k == "stayed":
        return f"{who()}が{pref}に滞在" if ja else f"{who()} stopped at {pref}"
    if k == "captured":
        return f"{who()}が{who('from_player')}の{pref}を奪い拠点に（{_pts(ev['points'])}）" if ja else f"{who()} captured {pref} from {who('from_player')} as a base ({_pts(ev['points'])})"
    if k == "battle_start":
        return f"合戦！{who()}が{who('defender')}の{pref}へ攻撃（防御補正+{ev['bonus']}）" if ja else f"Battle! {who()} attacks {who('defender')}'s {pref} (defence +{ev['bonus']})"
    if k == "battle_roll":
        faces = "+".join(str(f) for f in ev["faces"])
        if ev["side"] == "attacker":
            return f"攻撃側{who()}の出目 {faces} = {ev['total']}" if ja else f"Attacker {who()} rolled {faces} = {ev['total']}"
        return f"防御側{who()}の出目 {faces} +{ev.get('bonus', 0)} = {ev['total']}" if ja else f"Defender {who()} rolled {faces} +{ev.get('bonus', 0)} = {ev['total']}"
    if k == "battle_result":
        if ev["attacker_won"]:
            return f"{who()}が{pref}を奪取！合戦勝利ボーナス+{ev['points']}" if ja else f"{who()} wins {pref}! Battle bonus +{ev['points']}"
        return f"{who('defender')}が{pref}を防衛！防衛成功ボーナス+{ev['points']}" if ja else f"{who('defender')} holds {pref}! Defence bonus +{ev['points']}"
    if k == "region_gained":
        return f"{who()}が{region}を統一！（+{ev['points']}）" if ja else f"{who()} controls {region}! (+{ev['points']})"
    if k == "region_lost":
        return f"{who()}の{region}統一が崩れました（{ev['points']}）" if ja else f"{who()} lost control of {region} ({ev['points']})"
    if k == "full_control_gained":
        return f"{who()}が{region}を完全地方統一！" if ja else f"{who()} has full control of {region}!"
    if k == "full_control_lost":
        return f"{who()}の{region}完全地方統一が解除" if ja else f"{who()}'s full control of {region} is broken"
    if k == "prosperity_stored":
        return f"{who()}の城・本拠地に繁栄ポイント{ev['amount']}ptが蓄積" if ja else f"{who()}'s castles and home base stored {ev['amount']} prosperity"
    if k == "defeated":
        return f"{who()}はどこにも進めず敗北" if ja else f"{who()} can never move again and is defeated"
    if k == "game_end":
        win = "・".join(names[s] for s in ev["winners"]) if ja else ", ".join(names[s] for s in ev["winners"])
        return f"ゲーム終了！勝者：{win}" if ja else f"Game over! Winner: {win}"
    if k == "edited":
        return "エディタで局面を変更" if ja else "Position edited"
    return None  # move, turn_end: shown through other lines
