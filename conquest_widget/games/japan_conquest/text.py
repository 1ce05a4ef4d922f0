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

from conquest_widget.maps.japan.board import japan

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
    "cpu_mark": (" (CPU)", "（CPU）"),
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
    "turn_panel_over": ("Game over", "ゲーム終了"),
    "one_die": ("One die", "通常ダイス"),
    "double_dice": ("Double Dice ({n} left)", "2個ダイス（残り{n}）"),
    "triple_dice": ("Triple Dice ({n} left)", "3個ダイス（残り{n}）"),
    "roll": ("Roll", "ダイスを振る"),
    "undo": ("Undo Step", "1つ戻す"),
    "confirm": ("Confirm Route", "このルートで確定"),
    "allowance": ("Movement {n}", "移動力 {n}"),
    "remaining": ("{n} left", "残り{n}"),
    "route": ("Route", "ルート"),
    "choose_next": ("Click a highlighted prefecture on the map to step there", "地図上の光っている県をクリックして進んでください"),
    "can_confirm": ("You can confirm this route: press “Confirm Route” to move there",
                    "このルートで確定できます：「このルートで確定」を押すと進みます"),
    "hint_roll": ("Your turn, {name}: press “Roll” to throw the die; your movement is the number rolled.",
                  "{name}さんの番です：「ダイスを振る」を押してください。出た目が移動力になります。"),
    "cpu_thinking": ("{name} (CPU) is playing…", "{name}（CPU）の手番です…"),
    "waiting_for": ("Waiting for {name} to play…", "{name}さんの手番です。お待ちください…"),
    "cpu_speed": ("CPU speed", "CPUの速さ"),
    "instant": ("Instant", "一瞬"),
    "fast": ("Fast", "速い"),
    "overview": ("Overview", "全体"),
    "current_location": ("Current Location", "現在地"),
    "basemap": ("Basemap (online)", "背景地図（オンライン）"),
    "final_showdown": ("Final Showdown: totals hidden", "決戦：総得点は非公開"),
    # sound: the header's switch and volume, and the spoken announcements (conquest_widget/ui/sound.py)
    "sound_on": ("🔊 Sound", "🔊 音あり"),
    "sound_off": ("🔇 Sound", "🔇 音なし"),
    "sound_tip": ("Sound effects and spoken announcements (they start after your first click on the page)",
                  "効果音と音声案内（ページを一度クリックすると鳴り始めます）"),
    "volume": ("Volume", "音量"),
    "say_turn": ("{name}'s turn", "{name}の番です"),
    "say_battle_won": ("{who} wins the battle for {pref}", "{who}が{pref}の合戦に勝利"),
    "say_battle_held": ("{defender} holds {pref}", "{defender}が{pref}を守りました"),
    "say_region": ("{who} controls {region}", "{who}が{region}を統一"),
    "say_game_end": ("Game over. Winner: {winners}", "ゲーム終了。勝者は{winners}"),
    # battle
    "battle_title": ("Battle for {pref}", "{pref}の合戦"),
    "attacker_choose": ("{name} attacks: choose dice", "{name}の攻撃：ダイスを選んでください"),
    "defender_choose": ("{name} defends against {attack} (+{bonus} defence): choose dice", "{name}の防御：攻撃{attack}に対し防御補正+{bonus}。ダイスを選んでください"),
    "battle_roll": ("Roll", "振る"),
    "battle_ok": ("Continue", "続ける"),
    "autosave_elsewhere": (
        ("Another tab of this save folder continued this game or started a new one: the autosave "
         "now holds that tab's game, and this tab no longer autosaves. To keep this game, use Save & "
         "Exit, or make it the autosave again."),
        ("別のタブでこの対局が続けられたか、新しい対局が始められました。オートセーブはそのタブの"
         "対局になり、このタブはオートセーブしません。この対局を残すには「セーブして終了」を使うか、"
         "もう一度オートセーブにしてください。"),
    ),
    "autosave_here": ("Autosave this game here", "この対局をオートセーブにする"),
    "exit_unsaved": ("This game is not saved anywhere (another tab holds the autosave). Leave it anyway?",
                     "この対局はどこにも保存されていません（オートセーブは別のタブのものです）。それでも終了しますか？"),
    "battle_attack_line": ("Attacker {who}: {dice} = {total}", "攻撃側 {who}：{dice} = {total}"),
    "battle_defence_line": ("Defender {who}: {dice} + defence bonus {bonus} = {total}", "防御側 {who}：{dice} + 防御補正{bonus} = {total}"),
    "battle_won": ("{who} wins {pref}! Battle bonus +{points}", "{who}が{pref}を奪取！合戦勝利ボーナス+{points}"),
    "battle_held": ("{defender} holds {pref}! Defence bonus +{points}", "{defender}が{pref}を防衛！防衛成功ボーナス+{points}"),
    "battle_won_hidden": ("{who} wins {pref}!", "{who}が{pref}を奪取！"),
    "battle_held_hidden": ("{defender} holds {pref}!", "{defender}が{pref}を防衛！"),
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
    # the story of the game under the final standings (conquest_widget/games/japan_conquest/widget/story_view.py)
    "story_title": ("The story of the game", "対局の振り返り"),
    "story_scores": ("Score by turn", "ターンごとの総得点"),
    "story_turn": ("Turn", "ターン"),
    "story_showdown": ("Final Showdown", "決戦"),
    "story_showdown_totals": ("Final Showdown: the hidden totals, turn by turn", "決戦：非公開だった総得点（ターンごと）"),
    "story_map": ("Final map", "最終の勢力図"),
    "story_regions": ("Territories and castles by region", "地方ごとの領地と城"),
    "story_regions_key": (("One square per prefecture. Pale: territory or base; solid: castle or home base. "
                           "★ region controlled, ★★ full control."),
                          "1マス＝1県。薄い色：領地・拠点、濃い色：城・本拠地。★地方統一、★★完全統一。"),
    "story_battles": ("Battles", "合戦"),
    "story_fought": ("Fought", "合戦数"),
    "story_won": ("Won", "勝ち"),
    "story_lost": ("Lost", "負け"),
    "story_attacks": ("Attacks won", "攻撃の成功"),
    "story_defences": ("Defences held", "防衛の成功"),
    "story_versus": ("Head to head (won–lost)", "対戦成績（勝–負）"),
    "story_no_battles": ("No battle was fought.", "合戦は一度もありませんでした。"),
    "story_biggest": (("Biggest battle: turn {turn}, {attacker} attacked {defender}'s {level} in {pref}: "
                       "{attack} against {defence}, {winner} won."),
                      ("最大の合戦：{turn}ターン目、{attacker}が{defender}の{pref}（{level}）を攻撃。"
                       "{attack}対{defence}で{winner}の勝利。")),
    "story_best_turn": ("Best turn: {name} on turn {turn} (+{gain}).", "最高のターン：{name}の{turn}ターン目（+{gain}）。"),
    "story_lead_changes": ("The lead changed hands {n} time(s).", "首位が{n}回入れ替わりました。"),
    "story_no_history": (("The score history of this game cannot be rebuilt (its dice cannot be replayed): "
                          "the chart shows the final totals only."),
                         "この対局の得点の推移は再現できません（ダイスを再生できないため）。最終の総得点のみ表示します。"),
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
    "no_results": ("No finished games yet", "まだ終了した対局はありません"),
    "save_to": ("Save to", "保存先"),
    "save": ("Save", "保存"),
    "cancel": ("Cancel", "キャンセル"),
    "overwrite": ("Slot {n} holds {game} from {date}. Overwrite it?", "スロット{n}には{date}の{game}のデータがあります。上書きしますか？"),
    "overwrite_bad": ("Slot {n} holds a file that cannot be read ({error}). Overwrite it?",
                      "スロット{n}のファイルは読めません（{error}）。上書きしますか？"),
    "saved": ("Saved to slot {n}", "スロット{n}に保存しました"),
    # reasons for illegal clicks
    "why_cost": ("Entering {pref} costs {cost}, only {left} left", "{pref}へは移動力{cost}が必要ですが、残りは{left}です"),
    "why_toll": ("Toll {toll} into {pref}, you have {banked}", "{pref}の通行料は{toll}ptですが、所持は{banked}ptです"),
    "why_toll_hidden": ("Toll {toll} into {pref}: not enough banked points", "{pref}の通行料は{toll}ptです：所持ポイントが足りません"),
    "why_not_adjacent": ("{pref} is not connected to where you are", "{pref}は現在地と接続していません"),
    "why_dead_end": ("From {pref} no route can be completed", "{pref}からはルートを完成できません"),
    "why_other": ("Not possible now", "今はできません"),
    "setup_name_empty": ("Player {n} needs a name", "プレイヤー{n}の名前を入力してください"),
    "setup_name_long": ("Player {n}'s name is too long (at most {max} characters)", "プレイヤー{n}の名前が長すぎます（{max}文字まで）"),
    "setup_same_name": ("Two players are called {name}: give each a different name", "「{name}」という名前が重複しています。別々の名前にしてください"),
    "setup_same_home": ("Two players have the same home, {pref}: choose another", "二人の本拠地が同じ{pref}です。別の県を選んでください"),
    "setup_near_homes": ("{a} and {b} are next to each other: homes must not be neighbours", "{a}と{b}は隣り合っています。本拠地は隣接させられません"),
    "setup_bad_seed": ("The seed must be a whole number (or leave it empty)", "シードは整数で入力してください（空欄でも構いません）"),
    "setup_invalid": ("This setup cannot be played: please check the players and the mode", "この設定では遊べません。参加者とモードを確認してください"),
    "why_route_empty": ("Click a highlighted prefecture first", "まず光っている県をクリックしてください"),
    "why_cannot_end": ("{left} movement left: use it all, or stop at your own base, castle or home",
                       "移動力が{left}残っています。使い切るか、自分の拠点・城・本拠地で止まってください"),
    "not_your_turn": ("Wait for your turn", "自分の番をお待ちください"),
    # a replay in the shell's explorer (widget/board.py JapanBoard, widget/replay.py)
    "replay_start": ("start of the game", "開始時"),
    "replay_turn": ("turn {turn} of {name}", "{name}の{turn}ターン目"),
    "replay_over": ("game over", "終了"),
    "replay_prev_turn": ("◀ turn", "◀ ターン"),
    "replay_next_turn": ("turn ▶", "ターン ▶"),
    "replay_overlay": ("Overlay", "重ね表示"),
    "replay_none": ("none", "なし"),
    "replay_reachable": ("reachable stops", "止まれる県"),
    "replay_distance": ("distance (movement)", "移動距離"),
    "replay_regions": ("regional control", "地方統一"),
    "replay_allowance": ("Allowance", "移動力"),
    "replay_read_only": ("This is a replay: use “Branch here” to play from this position.",
                  "リプレイ表示中です。「ここから分岐」で続きを遊べます。"),
    "replay_effect_claim": ("claim", "領地にする"),
    "replay_effect_upgrade": ("upgrade", "強化"),
    "replay_effect_capture": ("capture", "奪取"),
    "replay_effect_battle": ("battle", "合戦"),
    "replay_effect_stay": ("stay (own castle/home)", "滞在"),
    "replay_start_here": ("start", "出発地"),
    "replay_moves": ("movement from {name}", "{name}からの移動力"),
    "replay_reach_title": ("{name} with {n} to move", "{name}・移動力{n}"),
    "replay_nobody": ("nobody", "なし"),
    "replay_full": ("full", "完全"),
    "replay_tolls_open": ("tolls counted as payable: the totals are hidden in the Final Showdown",
                          "通行料は払えるものとして表示（最終決戦中は得点が非公開）"),
    # the Replay buttons and the replay screen
    "replay": ("Replay", "リプレイ"),
    "replay_tip": ("Go through this game move by move (the save is not changed); “Branch here” plays on from any position",
                   "この対局を1手ずつ振り返ります（セーブデータは変わりません）。「ここから分岐」でその局面から続きを遊べます"),
    "replay_of_autosave": ("Replay of the last game (autosave)", "前回の対局（オートセーブ）のリプレイ"),
    "replay_of_slot": ("Replay of slot {n}", "スロット{n}のリプレイ"),
    "replay_of_finished": ("Replay of the game just finished", "終わった対局のリプレイ"),
    "replay_back_tip": ("Back to where you pressed Replay", "リプレイを開いた画面に戻ります"),
    "replay_failed": ("This game cannot be replayed: {error}", "この対局はリプレイできません：{error}"),
    "replay_nothing": ("There is no game to replay", "リプレイできる対局がありません"),
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


#: log line templates per event (``type`` or ``type:variant``): (English, Japanese)
EVENT_TEXT: dict[str, tuple[str, str]] = {
    "game_start": ("The game begins", "対戦開始"),
    "order_roll": ("Roll for order: {rolls}", "先攻決めのダイス：{rolls}"),
    "turn_order": ("Turn order: {order}", "手番順：{order}"),
    "turn_start": ("— {who}'s turn {turn} —", "― {who}の{turn}ターン目 ―"),
    "prosperity_collected": ("{who} collected {amount} prosperity", "{who}が繁栄ポイント{amount}ptを回収"),
    "full_control_paid": ("{who} earned {amount} for full control of {region}", "{who}が{region}の完全地方統一で{amount}pt獲得"),
    "item_received": ("{who} received a {item}", "{who}が{item}を獲得"),
    "item_used": ("{who} used {item}", "{who}が{item}を使用"),
    "roll": ("{who} rolled {faces} = {allowance} movement", "{who}の出目 {faces} = 移動力{allowance}"),
    "no_route": ("{who} has no legal route and does not move", "{who}は移動できるルートがありません"),
    "toll": ("{who} paid a {amount} toll to {to_player} at {pref}", "{who}が{pref}の通行料{amount}ptを{to_player}へ支払い"),
    "neutralised": ("{who} passed through {pref}: {from_player} lost it", "{who}が{from_player}の{pref}を中立に戻しました"),
    "route_done": ("{who} moved: {route}", "{who}の移動：{route}"),
    "claimed": ("{who} claimed {pref} as territory ({pts})", "{who}が{pref}を領地にしました（{pts}）"),
    "upgraded": ("{who} upgraded {pref} to a {level_lower} ({pts})", "{who}の{pref}が{level}に成長（{pts}）"),
    "stayed": ("{who} stopped at {pref}", "{who}が{pref}に滞在"),
    "captured": ("{who} captured {pref} from {from_player} as a base ({pts})", "{who}が{from_player}の{pref}を奪い拠点に（{pts}）"),
    "battle_start": ("Battle! {who} attacks {defender}'s {pref} (defence +{bonus})", "合戦！{who}が{defender}の{pref}へ攻撃（防御補正+{bonus}）"),
    "battle_roll:attacker": ("Attacker {who} rolled {faces} = {total}", "攻撃側{who}の出目 {faces} = {total}"),
    "battle_roll:defender": ("Defender {who} rolled {faces} +{bonus} = {total}", "防御側{who}の出目 {faces} +{bonus} = {total}"),
    "battle_result:won": ("{who} wins {pref}! Battle bonus +{points}", "{who}が{pref}を奪取！合戦勝利ボーナス+{points}"),
    "battle_result:held": ("{defender} holds {pref}! Defence bonus +{points}", "{defender}が{pref}を防衛！防衛成功ボーナス+{points}"),
    "region_gained": ("{who} controls {region}! (+{points})", "{who}が{region}を統一！（+{points}）"),
    "region_lost": ("{who} lost control of {region} ({points})", "{who}の{region}統一が崩れました（{points}）"),
    "full_control_gained": ("{who} has full control of {region}!", "{who}が{region}を完全地方統一！"),
    "full_control_lost": ("{who}'s full control of {region} is broken", "{who}の{region}完全地方統一が解除"),
    "prosperity_stored": ("{who}'s castles and home base stored {amount} prosperity", "{who}の城・本拠地に繁栄ポイント{amount}ptが蓄積"),
    "defeated": ("{who} can never move again and is defeated", "{who}はどこにも進めず敗北"),
    "game_end": ("Game over! Winner: {winners}", "ゲーム終了！勝者：{winners}"),
    "edited": ("Position edited", "エディタで局面を変更"),
}

ITEM_TEXT = {"double": ("Double Dice", "2個ダイス"), "triple": ("Triple Dice", "3個ダイス")}


class _Fields(dict):
    """Template fields of one event, worked out only when a template asks for them."""

    def __init__(self, ev: dict[str, Any], lang: str, names: Sequence[str]) -> None:
        super().__init__()
        self.ev, self.lang, self.names = ev, lang, names

    def _name(self, key: str) -> str:
        s = self.ev.get(key)
        return self.names[s] if isinstance(s, int) and 0 <= s < len(self.names) else "?"

    def __missing__(self, key: str) -> Any:
        ev, lang, ja = self.ev, self.lang, self.lang == "ja"
        if key == "who":
            return self._name("player")
        if key in ("to_player", "from_player", "defender"):
            return self._name(key)
        if key == "pref":
            return pref_name(ev["pref"], lang)
        if key == "region":
            return region_name(ev["region"], lang)
        if key in ("pts", "points", "amount") and ("points" if key == "pts" else key) not in ev:
            return "?"  # hidden during the Final Showdown
        if key == "pts":
            return _pts(ev["points"])
        if key in ("level", "level_lower"):
            name = level_name(ev["level"], lang)
            return name.lower() if key == "level_lower" else name
        if key == "item":
            return ITEM_TEXT[ev["item"]][1 if ja else 0]
        if key == "faces":
            return "+".join(str(f) for f in ev["faces"])
        if key == "rolls":
            return ", ".join(f"{self.names[int(s)]} {f}" for s, f in ev["rolls"].items())
        if key == "order":
            return " → ".join(self.names[s] for s in ev["order"])
        if key == "route":
            return " → ".join(pref_name(c, lang) for c in ev["route"])
        if key == "winners":
            return ("・" if ja else ", ").join(self.names[s] for s in ev["winners"])
        if key == "bonus":
            return ev.get("bonus", 0)
        return ev[key]


def describe_event(ev: dict[str, Any], lang: str, names: Sequence[str]) -> str | None:
    """One readable log line for an engine event, or ``None`` for events not shown
    (``move``, ``turn_end``: other lines cover them)."""
    key = ev["type"]
    if key == "battle_roll":
        key += ":" + ev["side"]
    elif key == "battle_result":
        key += ":won" if ev["attacker_won"] else ":held"
    text = EVENT_TEXT.get(key)
    if text is None:
        return None
    return text[1 if lang == "ja" else 0].format_map(_Fields(ev, lang, names))
