"""English and Japanese text of the card game: event lines, explanations, labels.

    >>> t("no_match", "en", a="7♠", b="9♥")
    'a 7♠ and a 9♥ share neither suit nor value'
    >>> t("no_match", "ja", a="7♠", b="9♥")
    '7♠と9♥はスートも数字も同じではありません'
    >>> describe_event({"type": "draw", "seat": 1}, "en", ["Aki", "Ben"])
    'Ben drew a card'
    >>> describe_event({"type": "draw", "seat": 0, "card": "7S"}, "ja", ["Aki", "Ben"])
    'Akiが7♠を引きました'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import DISPLAY, FACE_NAME, JOKER, SUIT_NAME

LANGS = ("en", "ja")

STRINGS: dict[str, tuple[str, str]] = {
    # explanations of illegal actions
    "no_match": ("a {a} and a {b} share neither suit nor value", "{a}と{b}はスートも数字も同じではありません"),
    "group_broken": ("the cards of one play must all share one suit or all one value: {card} does not fit {cards}",
                     "1回に出すカードはすべて同じスートか同じ数字です：{card}は{cards}に合いません"),
    "not_a_card": ("'{card}' is not a card: write rank then suit, e.g. 7S, 10H, AS, KD, or JK for a joker",
                   "「{card}」はカードではありません：7S・10H・AS・KDのように数字とスートで、ジョーカーはJKと書いてください"),
    "not_in_hand": ("{card} is not in your hand", "{card}は手札にありません"),
    "already_selected": ("{card} is already selected", "{card}はもう選んでいます"),
    "not_selected": ("{card} is not selected", "{card}は選ばれていません"),
    "joker_not_selectable": ("a joker is not played on your own face cards: play it on an opponent's face card",
                             "ジョーカーは自分の絵札には出せません：相手の絵札に出してください"),
    "draw_first": ("draw a card first", "先にカードを1枚引いてください"),
    "already_drew": ("you have already drawn this turn", "このターンはもう引きました"),
    "nothing_selected": ("select cards to play first", "先に出すカードを選んでください"),
    "not_a_face": ("{face!s} is not a face card: choose J, Q or K", "{face!s}は絵札ではありません：J・Q・Kから選んでください"),
    "no_jokers_rule": ("jokers are not in this game (optional rule 3 is off)", "このゲームではジョーカーを使いません（オプション3なし）"),
    "no_joker_in_hand": ("you have no joker", "ジョーカーを持っていません"),
    "joker_own_pile": ("a joker goes on an opponent's face card, not your own", "ジョーカーは相手の絵札に出します"),
    "no_such_opponent": ("there is no seat {target}", "席{target}はありません"),
    "joker_instead": ("a joker is played instead of cards: unselect your cards first",
                      "ジョーカーはカードの代わりに出します：先に選択を外してください"),
    "placing_now": ("place your received cards first", "受け取ったカードを先に置いてください"),
    "not_received": ("{card} is not one of the cards you received", "{card}は受け取ったカードではありません"),
    "not_now": ("this is not possible now ({stage})", "今はできません（{stage}）"),
    # events
    "ev_start": ("{starter} starts ({suit})", "{starter}から開始（{suit}）"),
    "ev_deal": ("{name} was dealt {count} cards", "{name}に{count}枚配られました"),
    "ev_deal_own": ("{name} was dealt {cards}", "{name}に{cards}が配られました"),
    "ev_draw": ("{name} drew a card", "{name}がカードを1枚引きました"),
    "ev_draw_own": ("{name} drew {card}", "{name}が{card}を引きました"),
    "ev_last_card": ("that was the last card: this is the final turn", "最後のカードです：これが最終ターンです"),
    "ev_play": ("{name} played {cards} on their {face} (now {total})", "{name}が{cards}を{face}に出しました（合計{total}）"),
    "ev_joker": ("{name} played a joker on {target}'s {face} (now {total})", "{name}がジョーカーを{target}の{face}に出しました（合計{total}）"),
    "ev_pass": ("{name} played no cards", "{name}はカードを出しませんでした"),
    "ev_reveal": ("the hands are revealed", "手札を公開します"),
    "ev_place": ("{name} placed {card} on their {face} (now {total})", "{name}が{card}を{face}に置きました（合計{total}）"),
    "ev_over": ("game over: {winners} won", "ゲーム終了：{winners}の勝ち"),
    # the replay's move list: the steps of a play, which write no log line
    "act_select": ("{name} picks {card} to play", "{name}が{card}を出す札に選びました"),
    "act_unselect": ("{name} takes {card} back", "{name}が{card}を手札に戻しました"),
    "act_secret": ("{name} chooses cards to play", "{name}が出す札を選んでいます"),
    "act_other": ("{name}: {action}", "{name}：{action}"),
    "card_of": ("the {rank} of {suit}", "{suit}の{rank}"),
    "joker_card": ("a joker", "ジョーカー"),
    "rank_ace": ("ace", "エース"),
    # the scoring walk-through of the end screen
    "pile_total": ("{face} ({points} pt): {names} with {total}", "{face}（{points}点）：{names}（{total}）"),
    "pile_aces": ("{face} ({points} pt): {names} with {total}, more aces in a tie", "{face}（{points}点）：{names}（{total}、同点でエースが多い）"),
    "pile_shared": ("{face} ({points} pt): shared by {names} ({total} each, same aces)", "{face}（{points}点）：{names}で分け合い（各{total}、エース同数）"),
    "pile_empty": ("{face} ({points} pt): nobody (every pile is empty)", "{face}（{points}点）：該当なし（すべて空）"),
    "won_by_points": ("{names} won on points", "{names}が得点で勝利"),
    "won_by_sum": ("{names} won on the sum of the three piles (points tied)", "{names}が3つの山の合計で勝利（得点同点）"),
    "won_by_aces": ("{names} won on aces played (points and sums tied)", "{names}が出したエースの数で勝利（得点・合計同点）"),
    "won_by_jack_queen": ("{names} won on the Jack + Queen total (all else tied)", "{names}がジャック＋クイーンの合計で勝利（他はすべて同点）"),
    "won_by_shared": ("shared win: {names}", "引き分け（同率1位）：{names}"),
    # labels
    "draw": ("Draw", "引く"),
    "end_turn": ("End turn", "ターン終了"),
    "deck": ("Deck", "山札"),
    "hand": ("Hand", "手札"),
    "points": ("Points", "得点"),
    # the card table (widget)
    "ui_player": ("Player {n}", "プレイヤー{n}"),
    "ui_you": ("you", "あなた"),
    "ui_cards": ("{n} cards", "{n}枚"),
    "ui_card_one": ("1 card", "1枚"),
    "ui_deck": ("Deck: {n}", "山札：{n}枚"),
    "ui_draw_button": ("Draw ({n} left)", "引く（残り{n}枚）"),
    "ui_total": ("total {total}", "合計{total}"),
    "ui_empty_pile": ("empty", "なし"),
    "ui_joker": ("Joker", "ジョーカー"),
    "ui_turn_of": ("{name}'s turn", "{name}の番"),
    "ui_cpu_playing": ("{name} is playing…", "{name}がプレイ中…"),
    "ui_your_draw": ("Your turn: draw a card.", "あなたの番：カードを1枚引いてください。"),
    "ui_your_play": (("Select cards that share a suit or a value, then click one of your face cards (J, Q, K) — "
                      "or End turn to play nothing."),
                     ("同じスートか同じ数字のカードを選び、自分の絵札（J・Q・K）をクリックして出します。"
                      "出さない場合は「ターン終了」。")),
    "ui_joker_hint": ("Or click your joker, then an opponent's face card (−5 to that pile).",
                      "またはジョーカーをクリックし、相手の絵札をクリック（その山に−5）。"),
    "ui_selected": ("Selected: {cards} ({total}) — click your Jack, Queen or King to play them.",
                    "選択中：{cards}（{total}）— 自分のジャック・クイーン・キングをクリックして出します。"),
    "ui_joker_armed": ("Joker ready: click an opponent's face card to play it there (−5).",
                       "ジョーカー準備完了：相手の絵札をクリックして出します（−5）。"),
    "ui_place": ("The hands are revealed: click a card you received, then one of your face cards.",
                 "手札が公開されました：受け取ったカードをクリックし、自分の絵札をクリックします。"),
    "ui_place_armed": ("Place {card}: click your Jack, Queen or King.", "{card}を置く：自分のジャック・クイーン・キングをクリック。"),
    "ui_received": ("Cards you received:", "受け取ったカード："),
    "ui_final_turn": ("Final turn: the deck is empty.", "最終ターン：山札はもうありません。"),
    "ui_over": ("Game over.", "ゲーム終了。"),
    "ui_waiting": ("Waiting for {name}.", "{name}を待っています。"),
    "ui_revealed": ("{name}'s hand at the end: {cards}", "{name}の最後の手札：{cards}"),
    "ui_dead": ("Dead cards: {cards}", "無効なカード：{cards}"),
    "ui_none": ("none", "なし"),
    # options of the setup form
    "opt_ace_eleven": ("Rule 1: an ace on its own suit's face card is worth 11",
                       "オプション1：自分のスートの絵札に出したエースは11点"),
    "opt_reveal_hands": ("Rule 2: reveal hands at the end; cards of another player's suit go to them",
                         "オプション2：最後に手札を公開し、他のプレイヤーのスートのカードはその人へ"),
    "opt_jokers": ("Rule 3: two jokers, −5 on an opponent's face card", "オプション3：ジョーカー2枚（相手の絵札に−5）"),
    "opt_suits_order": ("Suits in seat order ♠ ♥ ♣ ♦ (else dealt at random)", "スートを席順に♠♥♣♦（オフならランダム）"),
    # the end screen
    "res_heading": ("How the game was scored", "得点の内訳"),
    "res_player": ("Player", "プレイヤー"),
    "res_sum": ("Sum", "合計"),
    "res_aces": ("Aces", "エース"),
    "res_rank": ("Rank", "順位"),
}


def t(key: str, lang: str = "en", **kw: Any) -> str:
    """The text of ``key`` in ``lang`` ("en" or "ja") with ``kw`` filled in."""
    en, ja = STRINGS[key]
    return (ja if lang == "ja" else en).format(**kw)


def face_name(face: str, lang: str = "en") -> str:
    """``"Jack"`` / ``"ジャック"`` for ``"J"``."""
    return FACE_NAME[face][1 if lang == "ja" else 0]


def suit_name(suit: str, lang: str = "en") -> str:
    return SUIT_NAME[suit][1 if lang == "ja" else 0]


def card_name(code: str, lang: str = "en") -> str:
    """A card in words: ``"the 2 of clubs"`` / ``"クラブの2"``.

    >>> card_name("2C"), card_name("AS"), card_name("10H", "ja"), card_name("JK")
    ('the 2 of clubs', 'the ace of spades', 'ハートの10', 'a joker')
    """
    if code == JOKER:
        return t("joker_card", lang)
    rank, suit = code[:-1], code[-1:]
    if suit not in SUIT_NAME:
        return code
    return t("card_of", lang, rank=t("rank_ace", lang) if rank == "A" else rank, suit=suit_name(suit, lang))


def action_text(action: Mapping[str, Any] | None, lang: str = "en", name: str = "") -> str:
    """The replay's line for a step of a play (a card selected or taken back), which writes
    no log line; ``action`` None: another player's step, which the viewer may not know
    (only that ``name`` is choosing cards).

    >>> action_text({"type": "select", "card": "2C"}, "en", "Ann")
    'Ann picks the 2 of clubs to play'
    >>> action_text({"type": "unselect", "card": "AS"}, "ja", "Ann")
    'Annがスペードのエースを手札に戻しました'
    >>> action_text(None, "en", "Ben")
    'Ben chooses cards to play'
    """
    if action is None:
        return t("act_secret", lang, name=name)
    kind = action.get("type")
    if kind in ("select", "unselect") and isinstance(action.get("card"), str):
        return t(f"act_{kind}", lang, name=name, card=card_name(action["card"], lang))
    detail = " ".join(str(v) for k, v in action.items() if k != "type")
    return t("act_other", lang, name=name, action=f"{kind} {detail}".strip())


def describe_event(ev: Mapping[str, Any], lang: str = "en", names: Sequence[str] = ()) -> str:
    """A readable log line for an event as a seat sees it."""
    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"Player {seat}"

    def cards(codes: Sequence[str]) -> str:
        return " ".join(DISPLAY.get(c, "?") for c in codes)

    kind = ev.get("type")
    if kind == "start":
        return t("ev_start", lang, starter=name(ev["starter"]), suit=suit_name(ev["suits"][ev["starter"]], lang))
    if kind == "deal":
        if "cards" in ev:
            return t("ev_deal_own", lang, name=name(ev["seat"]), cards=cards(ev["cards"]))
        return t("ev_deal", lang, name=name(ev["seat"]), count=ev["count"])
    if kind == "draw":
        line = (t("ev_draw_own", lang, name=name(ev["seat"]), card=DISPLAY.get(ev["card"], "?")) if "card" in ev
                else t("ev_draw", lang, name=name(ev["seat"])))
        return line + ("; " + t("ev_last_card", lang) if ev.get("last") else "")
    if kind == "play":
        return t("ev_play", lang, name=name(ev["seat"]), cards=cards(ev["cards"]), face=face_name(ev["face"], lang), total=ev["total"])
    if kind == "joker":
        return t("ev_joker", lang, name=name(ev["seat"]), target=name(ev["target"]), face=face_name(ev["face"], lang), total=ev["total"])
    if kind == "pass":
        return t("ev_pass", lang, name=name(ev["seat"]))
    if kind == "reveal":
        return t("ev_reveal", lang)
    if kind == "place":
        return t("ev_place", lang, name=name(ev["seat"]), card=DISPLAY.get(ev["card"], "?"), face=face_name(ev["face"], lang), total=ev["total"])
    if kind == "over":
        return t("ev_over", lang, winners=", ".join(name(s) for s in ev["winners"]))
    return str(kind)


def scoring_lines(details: Mapping[str, Any], lang: str = "en", names: Sequence[str] = ()) -> list[str]:
    """The end screen's walk through the scoring: each pile rank (who took it and by which
    tie-break), then the winner and the step that decided.

    >>> from conquest_widget.games.conquest_cards.scoring import score
    >>> d = score([[5, 10, 12], [5, 9, 13]], [[1, 0, 0], [0, 0, 0]], [[True] * 3] * 2)
    >>> for line in scoring_lines(d, "en", ["Aki", "Ben"]):
    ...     print(line)
    Jack (1 pt): Aki with 5, more aces in a tie
    Queen (2 pt): Aki with 10
    King (3 pt): Ben with 13
    Aki won on aces played (points and sums tied)
    """
    def who(seats: Sequence[int]) -> str:
        return ", ".join(names[s] if 0 <= s < len(names) else f"Player {s + 1}" for s in seats)

    lines = []
    for pile in details["piles"]:
        winners = pile["winners"]
        total = pile["totals"][winners[0]] if winners else 0
        lines.append(t(f"pile_{pile['by']}", lang, face=face_name(pile["face"], lang), points=pile["points"],
                       names=who(winners), total=total))
    lines.append(t(f"won_by_{details['decided_by']}", lang, names=who(details["winners"])))
    return lines
