"""The shell's own strings (each game has its own table), English and Japanese.

    >>> t("players", "ja", n="2–4")
    '2–4人'
"""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
    "title": ("Conquest games", "制覇ゲーム集"),
    "play": ("Play", "遊ぶ"),
    "coming": ("coming soon", "近日公開"),
    "players": ("{n} players", "{n}人"),
    "back_to_games": ("← All games", "← ゲーム一覧"),
    "continue_game": ("Continue {game}", "{game}の続きから"),
    "continue_tip": ("Your unfinished game, autosaved {when}", "自動保存された途中のゲーム（{when}）"),
    "pass_to": ("Pass the screen to {name}", "{name}さんに画面を渡してください"),
    "ready": ("I am {name}: show my view", "{name}です：表示する"),
    "new_game": ("New game", "新しいゲーム"),
    "resume": ("Resume", "続きから"),
    "watch_cpus": ("Watch CPUs play", "CPUどうしの対戦を観る"),
    "watching_cpus": ("watching the CPUs (not autosaved)", "CPUの対戦を観戦中（自動保存なし）"),
    "last_game_over": ("The last game ({players}) is finished: its result is in Previous results.",
                       "前回の対局（{players}）は終了しています。結果は「前回までの結果」にあります。"),
    "resume_info": ("Last game: {when}, {players}", "前回のゲーム：{when}、{players}"),
    "load": ("Load", "読み込む"),
    "slot": ("Slot {n}", "スロット{n}"),
    "slot_empty": ("Slot {n}: empty", "スロット{n}：空き"),
    "slot_used": ("Slot {n}: {players} ({when})", "スロット{n}：{players}（{when}）"),
    "slot_bad": ("Slot {n}: {file} is unreadable ({error})", "スロット{n}：{file}を読めません（{error}）"),
    "slot_turn": (", turn {turn} of {turns}", "、{turns}ターン中{turn}ターン目"),
    "slot_over": (", finished", "、終了"),
    "saved_games": ("Saved games", "保存したゲーム"),
    "setup": ("New game: players and options", "新しいゲーム：プレイヤーと設定"),
    "n_players": ("Players", "人数"),
    "seat": ("Seat {n}", "{n}番"),
    "human": ("Human", "人間"),
    "cpu": ("CPU: {level}", "CPU：{level}"),
    "cpu_speed": ("CPU speed", "CPUの速さ"),
    "speed_instant": ("Instant", "即時"),
    "speed_fast": ("Fast", "速い"),
    "speed_normal": ("Normal", "ふつう"),
    "seed": ("Seed (blank = random)", "シード（空欄＝ランダム）"),
    "start": ("Start", "開始"),
    "back": ("Back", "戻る"),
    "save": ("Save", "保存"),
    "save_to": ("Save to", "保存先"),
    "saved": ("Saved to slot {n}.", "スロット{n}に保存しました。"),
    "cancel": ("Cancel", "キャンセル"),
    "overwrite": ("Slot {n} holds {game}: {players} ({when}). Overwrite it?",
                  "スロット{n}には{game}（{players}、{when}）が保存されています。上書きしますか？"),
    "overwrite_bad": ("Slot {n} holds a file that cannot be read ({error}). Overwrite it?",
                      "スロット{n}のファイルは読めません（{error}）。上書きしますか？"),
    "overwrite_yes": ("Overwrite", "上書きする"),
    "exit": ("Exit", "終了"),
    "autosave_elsewhere": (
        ("Another tab of this save folder continued this game or started a new one: the autosave "
         "now holds that tab's game, and this tab no longer autosaves. To keep this game, save it "
         "to a slot or make it the autosave again."),
        ("別のタブでこのゲームが続けられたか、新しいゲームが始められました。自動保存はそのタブの"
         "ゲームになり、このタブは自動保存しません。このゲームを残すには、スロットに保存するか、"
         "もう一度自動保存にしてください。"),
    ),
    "autosave_here": ("Autosave this game here", "このゲームを自動保存にする"),
    "exit_unsaved": ("This game is not saved anywhere (another tab holds the autosave). Leave it anyway?",
                     "このゲームはどこにも保存されていません（自動保存は別のタブのものです）。それでも終了しますか？"),
    "exit_anyway": ("Leave without saving", "保存せずに終了"),
    "exit_info": ("The game is autosaved: Resume continues it.", "ゲームは自動保存されています。「続きから」で再開できます。"),
    "log": ("Log", "記録"),
    "cpu_playing": ("CPU is playing…", "CPUが考えています…"),
    "results": ("Results", "結果"),
    "rank": ("Rank", "順位"),
    "player": ("Player", "プレイヤー"),
    "played_by": ("Played by", "操作"),
    "winner": ("{names} wins!", "{names}の勝ち！"),
    "winners": ("Shared win: {names}", "引き分け（同率1位）：{names}"),
    "play_again": ("Play again", "もう一度"),
    "replay": ("Replay", "リプレイ"),
    "replay_of_slot": ("Replay of slot {n}", "スロット{n}のリプレイ"),
    "replay_of_autosave": ("Replay of the autosave", "オートセーブのリプレイ"),
    "replay_of_finished": ("Replay of the game just finished", "終わった対局のリプレイ"),
    "error": ("Problem: {text}", "問題：{text}"),
    "autosave_failed": ("This game could not be autosaved; play goes on (saving to a slot may still work).",
                        "この対局はオートセーブできませんでした。対局は続けられます（スロットへの保存はできる場合があります）。"),
    "bad_name": ("Seat {n}: {text}", "{n}番：{text}"),
    "bad_seed": ("The seed must be a whole number, got {value}", "シードは整数で入力してください：{value}"),
    "need_human": ("At least one seat must be Human.", "少なくとも1人は人間にしてください。"),
    # separate screens: game tables (issue 28)
    "screens": ("Screens", "画面"),
    "one_screen": ("One screen", "1つの画面"),
    "separate_screens": ("Separate screens", "各自の画面"),
    "table_links": ("Separate screens: links", "各自の画面：リンク"),
    "table_made": ("The table is ready. Give each player their own link: it opens their seat in any browser that reaches"
                   " this server, again after a reload or on another device. Keep each link for its player only:"
                   " whoever has it plays that seat.",
                   "テーブルができました。各プレイヤーに本人のリンクを渡してください。このサーバーに届くブラウザーなら、"
                   "再読み込み後や別の端末でも同じ席が開きます。リンクは本人だけに：持っている人がその席で遊べます。"),
    "seat_link": ("Seat {n}: {name}", "{n}番：{name}"),
    "watch_link": ("Watch (the public view)", "観戦（公開情報のみ）"),
    "links_text": ("The links as text, to copy", "リンク一覧（コピー用）"),
    "links_login": ("A browser that has not opened this server yet is asked for the server's token first (the one in"
                    " the address conquest-widget play printed); then the link opens.",
                    "このサーバーを初めて開くブラウザーでは、まずサーバーのトークン（conquest-widget play が表示した"
                    "アドレスに含まれるもの）を聞かれます。その後リンクが開きます。"),
    "links_no_address": ("This page does not know its server's address: put each link's ?… part after the app's"
                         " address.", "このページはサーバーのアドレスを知りません。各リンクの ?… の部分をアプリのアドレスの後ろに付けてください。"),
    "at_table": ("{name} (seat {n}) at a table", "{name}（{n}番）のテーブル"),
    "watching": ("Watching a table", "テーブルを観戦中"),
    "bad_link": ("This link opens no table here: it may be mistyped or cut short, or the table was made on another"
                 " server.", "このリンクで開けるテーブルはありません。打ち間違いや途中で切れている可能性があります。"
                 "または別のサーバーで作られたテーブルです。"),
    "store_problem": ("The tables cannot be read just now ({text}).", "テーブルを今は読めません（{text}）。"),
    "no_table_store": ("Separate screens need a place for the tables (a save folder, or CONQUEST_TABLES_STORE).",
                       "各自の画面で遊ぶには、テーブルの保存先（保存フォルダーまたは CONQUEST_TABLES_STORE）が必要です。"),
    "no_table_game": ("{game} cannot be played at separate screens yet.", "{game}はまだ各自の画面では遊べません。"),
    "back_to_table": ("Back to the table", "テーブルに戻る"),
    # save data, previous results, deleting a slot (issue 29)
    "previous_results": ("Previous results", "前回までの結果"),
    "no_results": ("No finished game of this game is recorded yet.", "このゲームの終わった対局はまだ記録されていません。"),
    "result_line": ("{when}: {names} won", "{when}：{names}の勝ち"),
    "more_results": ("…and {n} older games", "…ほか古い対局{n}件"),
    "records": ("Records against CPUs", "CPU戦の成績"),
    "records_opponent": ("CPU opponent", "CPU対戦相手"),
    "records_result": ("Human players' record", "人間プレイヤーの成績"),
    "records_note": (("Counted per CPU opponent: finishing above a CPU is a win against it, below a loss, "
                      "level a draw; a game against two CPUs counts once for each."),
                     "CPUごとに数えます。そのCPUより上位なら勝ち、下位なら負け、同順位なら引き分け。CPU二人との対局はそれぞれ一回ずつ数えます。"),
    "wld": ("{w} W / {l} L / {d} D", "{w}勝 {l}敗 {d}分"),
    "save_data": ("Save data", "セーブデータ管理"),
    "export": ("Export backup", "バックアップを書き出す"),
    "download": ("Download {file}", "{file}をダウンロード"),
    "restore_from": ("Restore from a backup file", "バックアップから復元"),
    "restore_confirm": ("Replace all current save data with this backup", "現在のセーブデータをこのバックアップで置き換える"),
    "backup_summary": ("Backup from {date}: {autos} autosave(s), {slots} used slot(s), {results} result(s)",
                       "{date}のバックアップ：自動保存{autos}件、使用中スロット{slots}、結果{results}件"),
    "bad_backup": ("{file} cannot be restored (nothing was changed). {error}", "{file}は復元できません（何も変更していません）。{error}"),
    "the_upload": ("The uploaded file", "アップロードしたファイル"),
    "restored": ("Backup restored", "復元しました"),
    "delete_all": ("Delete all save data", "すべてのセーブデータを削除"),
    "confirm_delete_all": ("Really delete every save, result and record?", "すべてのセーブ・結果・成績を削除しますか？"),
    "deleted": ("Deleted", "削除しました"),
    "delete": ("Delete", "削除"),
    "confirm_delete": ("Delete slot {n}?", "スロット{n}を削除しますか？"),
    "slot_deleted": ("Slot {n} deleted.", "スロット{n}を削除しました。"),
    "slot_game": ("Slot {n}: {game}: {players} ({when})", "スロット{n}：{game}：{players}（{when}）"),
    "yes": ("Yes", "はい"),
    "no": ("No", "いいえ"),
}


def template(key: str, lang: str) -> str:
    """The shell string ``key`` in ``lang`` as written, its fields not filled in.

    >>> template("pass_to", "en"), template("pass_to", "en").replace("{name}", "Ann") == t("pass_to", "en", name="Ann")
    ('Pass the screen to {name}', True)
    """
    en, ja = STRINGS[key]
    return ja if lang == "ja" else en


def t(key: str, lang: str, **kw: object) -> str:
    """The shell string ``key`` in ``lang`` ("en" or "ja"), formatted with ``kw``."""
    return template(key, lang).format(**kw)
