"""The card table in a kernel: games played only by clicking what the board offers
(``CardsBoard.click``, as the page's clicks do), legal selections only, hot-seat secrecy of
every live widget's state, what a move sends the page, the end screen."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import ipywidgets as W
import pytest
from ipywidgets.widgets.widget import (
    _instances,  # what Widget.widgets (deprecated) returns
)

from conquest_widget.core.protocol import CHANCE
from conquest_widget.games.conquest_cards.cards import DISPLAY, FACES, JOKER
from conquest_widget.games.conquest_cards.engine import ConquestCards
from conquest_widget.games.conquest_cards.setup import CardsSetup, PlayerSeat
from conquest_widget.games.conquest_cards.widget import (
    UI,
    App,
    CardsBoard,
    event_text,
    make_setup,
    results_html,
)
from conquest_widget.scene import read_message
from conquest_widget.ui.controller import MatchController
from conquest_widget.ui.game_ui import SeatChoice

from .util import pos_match

CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9A])([SHCD])(?![0-9A-Za-z])")
SHOWN = re.compile(r"(10|[2-9A])([♠♥♣♦])")
JOKER_CODE = re.compile(r"(?<![0-9A-Za-z])JK(?![0-9A-Za-z])")
SYMBOL_SUIT = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}


@pytest.fixture(autouse=True)
def _fresh_widgets():
    """Every test starts with no live widget (the secrecy scan reads all of them)."""
    W.Widget.close_all()
    yield
    W.Widget.close_all()


# ------------------------------------------------------------------ helpers
def cards_in_states() -> set[str]:
    """Every card code (or card shown as rank+symbol) in the state of any live widget."""
    # the page code of a front-end widget (anywidget's _esm / _css: the package's static
    # files, the same for every game) is not game state: its "JK" is no joker in a hand
    states = [{k: v for k, v in w.get_state().items() if k not in ("_esm", "_css")} for w in list(_instances.values())]
    text = json.dumps(states, ensure_ascii=False, default=str)
    found = {a + b for a, b in CODE.findall(text)} | {a + SYMBOL_SUIT[b] for a, b in SHOWN.findall(text)}
    if JOKER_CODE.search(text):
        found.add(JOKER)
    return found


def seen_by(m: ConquestCards, seat: int) -> set[str]:
    """The cards ``seat`` has seen: its hand, every pile, set-aside and revealed cards, and
    every card named in the events it received."""
    st = m.state
    seen = set(st["hands"][seat]) | set(st["set_aside"])
    for p in st["piles"]:
        for pile in p:
            seen.update(pile)
    for h in st["revealed"] or ():
        seen.update(h)
    blob = json.dumps(m.events_for(seat))
    seen |= {a + b for a, b in CODE.findall(blob)}
    if JOKER_CODE.search(blob):
        seen.add(JOKER)
    return seen


def check_board_matches_legal(board: CardsBoard, c: MatchController) -> None:
    """The hand shown is the viewer's, and every card of it is enabled exactly when
    selecting/unselecting it is legal."""
    legal = c.legal
    sel = {a["card"] for a in legal if a["type"] == "select"}
    unsel = {a["card"] for a in legal if a["type"] == "unselect"}
    joker = any(a["type"] == "joker" for a in legal)
    assert board.hand_codes() == list(c.view.get("hand") or [])
    for code in board.hand_codes():
        want = joker if code == JOKER else (code in sel or code in unsel)
        assert ("disabled" not in board.classes(f"card-{code}")) == want, (code, legal)


def play_by_clicks(c: MatchController, board: CardsBoard, rng: random.Random, *, limit: int = 6000,
                   on_step: Any = None) -> int:
    """Click random things the board offers until the game is over (hot seat: the cover
    is passed with ``uncover``).  Every click must be legal (no refusal message)."""
    clicks = 0
    while not c.is_over:
        assert clicks < limit, "the game did not end"
        if c.cover:
            c.uncover()
            if on_step:
                on_step()
            continue
        check_board_matches_legal(board, c)
        options = board.clickable()
        assert options, f"nothing to click: legal={c.legal}"
        # prefer finishing a play over endless selecting
        faces = [x for x in options if x.startswith("face-") and "cwc-target" in board.classes(x)]
        target = rng.choice(faces) if faces and rng.random() < 0.6 else rng.choice(options)
        assert board.click(target), target
        clicks += 1
        assert c.message == "", c.message
        if on_step:
            on_step()
    return clicks


# ------------------------------------------------------------------ tests
@pytest.mark.parametrize("options", [
    {},
    {"jokers": True},
    {"ace_eleven": True, "reveal_hands": True, "jokers": True},
    {"reveal_hands": True},
])
def test_full_game_human_vs_cpu_by_clicks(options):
    for seed, n in ((3, 2), (8, 3)):
        setup = CardsSetup(tuple(PlayerSeat(f"P{i}", cpu=i > 0, bot="easy") for i in range(n)), None, **{
            "ace_eleven": False, "reveal_hands": False, "jokers": False, **options})
        m = ConquestCards(setup, seed=seed)
        c = MatchController(m, humans={0})
        board = CardsBoard(c, "en")
        clicks = play_by_clicks(c, board, random.Random(seed))
        assert clicks > 10
        assert m.is_over and c.outcome() is not None
        assert "Game over" in board.text("status")
        assert board.clickable() == []


def test_joker_is_played_by_clicking_it_then_an_opponents_face_card():
    m = pos_match([["JK", "7S"], ["2H"]], stage="play", jokers=True)
    c = MatchController(m, humans={0, 1})
    assert c.cover and not c.view.get("hand")  # hot seat: the first player's cover first
    c.uncover()
    board = CardsBoard(c, "en")
    assert "card-JK" in board.clickable() and "face-1-Q" not in board.clickable()
    assert board.click("card-JK")  # arms the joker: opponent face cards become targets, own ones not
    assert "face-1-Q" in board.clickable() and "cwc-target" in board.classes("face-1-Q")
    assert "cwc-selected" in board.classes("card-JK")
    assert not any(f"face-0-{f}" in board.clickable() for f in FACES)
    assert "Joker ready" in board.text("status")
    assert board.click("face-1-Q")
    assert m.state["piles"][1][1] == [JOKER] and c.message == ""
    assert "now -5" in event_text(c.events[-1], "en", ["A", "B"]) or c.events[-1]["type"] == "joker"


def test_rule_2_received_cards_are_placed_by_clicking_them_then_a_face_card():
    from conquest_widget.games.conquest_cards.cards import number_cards

    hands = [["7H", "2S"], ["5S", "3C"]]
    rest = [c for c in number_cards() if c not in {"7H", "2S", "5S", "3C"}]
    piles = [[rest[0:9], rest[9:18], []], [rest[18:27], rest[27:36], []]]
    m = pos_match(hands, piles, deck=[], stage="play", reveal_hands=True)
    c = MatchController(m, humans={0})
    board = CardsBoard(c, "en")
    board.click("end-turn")  # the last turn ends: hands revealed; the CPU places 7♥, then seat 0 places 5♠
    assert c.view["stage"] == "place" and board.text("received") == "Cards you received:"
    assert "The hands are revealed" in board.text("status")
    assert board.clickable() == ["place-5S"]  # pick the card first: no face card yet
    assert board.click("place-5S")
    assert "Place 5♠" in board.text("status") and "face-0-K" in board.clickable()
    assert "cwc-selected" in board.classes("place-5S")
    assert board.click("face-0-K")
    assert m.is_over and m.state["piles"][0][2] == ["5S"] and m.state["piles"][1][2] == ["7H"]
    assert board.text("received") == ""
    html = results_html(c.outcome(), c.view, "en")
    assert "Player 1&#x27;s hand at the end: 2♠ 7♥" in html and "Dead cards: 2♠ 3♣" in html


def test_only_selections_that_stay_legal_are_enabled():
    m = pos_match([["7S", "9S", "9H", "2D", "7H"], ["2H"]], stage="play")
    c = MatchController(m, humans={0})
    board = CardsBoard(c, "en")
    def enabled() -> set[str]:
        return {x[len("card-"):] for x in board.clickable() if x.startswith("card-")}

    assert enabled() == {"7S", "9S", "9H", "2D", "7H"}  # anything may start a play
    assert not any(x.startswith("face-") for x in board.clickable())  # nothing selected: no play yet
    assert board.click("card-7S")
    assert enabled() == {"7S", "9S", "7H"}  # itself (unselect), same suit, same value
    assert "cwc-selected" in board.classes("card-7S") and "cwc-dim" in board.classes("card-2D")
    assert {f"face-0-{f}" for f in FACES} <= set(board.clickable())
    assert not any(x.startswith("face-1-") for x in board.clickable())
    assert not board.click("card-2D")  # not clickable now: nothing happens, as in the page
    assert board.click("card-9S")  # now a suit group: only spades
    assert enabled() == {"7S", "9S"}
    assert board.click("face-0-K")
    assert m.state["piles"][0][2] == ["7S", "9S"]
    assert board.text("pile-0-K") == "7♠ 9♠ total 16"
    assert board.hand_codes() == ["7H", "9H", "2D"]  # the turn passed to seat 1 (a CPU) and back: draw first
    assert c.view["stage"] == "draw" and "draw" in board.clickable()


def test_hot_seat_cover_and_no_card_of_another_hand_in_any_widget_state():
    m = ConquestCards(CardsSetup.quick(2, jokers=True), seed=21)
    c = MatchController(m, humans={0, 1})
    board = CardsBoard(c, "en")
    covers = 0
    checks = 0

    def check():
        nonlocal covers, checks
        if c.cover:
            covers += 1
            assert c.view.get("viewer") is None and not board.hand_codes()
            seen: set[str] = set()
            for s in range(m.n_seats):  # public: only what everybody saw
                seen |= seen_by(m, s)
            hidden = set()
            for h in m.state["hands"]:
                hidden |= set(h)
            hidden |= set(m.state["deck"])
            leaked = (cards_in_states() & hidden) - public_cards(m)
            assert not leaked, leaked
        else:
            leaked = cards_in_states() - seen_by(m, c.viewer)
            assert not leaked, f"seat {c.viewer} could read {leaked}"
        checks += 1

    play_by_clicks(c, board, random.Random(4), on_step=check)
    assert covers >= 10 and checks > 50


def public_cards(m: ConquestCards) -> set[str]:
    st = m.state
    out = set(st["set_aside"])
    for p in st["piles"]:
        for pile in p:
            out.update(pile)
    for h in st["revealed"] or ():
        out.update(h)
    return out


def test_secrecy_scan_can_fail():
    """The scan finds a card of the other hand as soon as any widget holds one."""
    m = ConquestCards(CardsSetup.quick(2), seed=21)
    c = MatchController(m, humans={0, 1})
    c.uncover()
    CardsBoard(c, "en")
    assert not cards_in_states() - seen_by(m, c.viewer)
    secret = m.state["hands"][1 - c.viewer][0]
    leak = W.HTML(f"<span class='cwc-c' data-card='{secret}'></span>")
    assert secret in cards_in_states() - seen_by(m, c.viewer)
    leak.value = f"<span>{secret[:-1]}{'♠♥♣♦'['SHCD'.index(secret[-1])]}</span>"  # the shown form too
    assert secret in cards_in_states() - seen_by(m, c.viewer)
    leak.close()
    b = W.Button()
    b.add_class(f"cw-card-{secret}")  # a class name too
    assert secret in cards_in_states() - seen_by(m, c.viewer)


def test_a_move_opens_no_widget_and_sends_the_page_only_what_changed():
    """The board is one widget; a move sends it one message, the keys of the scene that
    changed (and the keys dropped), which merged into the page's scene give the kernel's."""
    m = ConquestCards(CardsSetup.quick(2), seed=2)
    c = MatchController(m, humans={0})
    board = CardsBoard(c, "en")
    page = json.loads(json.dumps(board.get_state()["scene"]))  # what the page holds
    sent: list[dict[str, Any]] = []
    board.send = sent.append  # type: ignore[method-assign]
    before = set(_instances)
    rng = random.Random(1)
    for _ in range(30):
        if c.is_over:
            break
        sent.clear()
        assert board.click(rng.choice(board.clickable()))
        assert 1 <= len(sent) <= 4  # one per redraw: the move, and each CPU action it let happen
        for msg in map(read_message, sent):
            assert set(msg) <= {"patch", "drop"} and all(page.get(k) != v for k, v in msg["patch"].items())
            page.update(json.loads(json.dumps(msg["patch"])))
            for k in msg.get("drop", ()):
                del page[k]
        assert page == json.loads(json.dumps(board.scene))
    assert set(_instances) == before


def test_the_page_clicks_with_one_message_and_cannot_write_the_scene():
    m = ConquestCards(CardsSetup.quick(2), seed=2)
    c = MatchController(m, humans={0})
    board = CardsBoard(c, "en")
    scene = board.scene
    for junk in ({"click": "face-1-K"}, {"click": ["draw"]}, {"click": "draw" * 9}, "draw", None, {"scene": {}}):
        board._on_page_msg(board, junk, [])  # not clickable, or not a click: nothing happens
    board.set_state({"scene": {"hand": [["AS", 1]]}})
    assert board.scene is scene and len(m.state["hands"][0]) == 2
    board._on_page_msg(board, {"click": "draw"}, [])
    assert len(m.state["hands"][0]) == 3 and board.hand_codes() == c.view["hand"]
    # a page whose module started after a patch was sent says which scene it holds: it
    # gets the whole scene again; a page that holds the latest gets nothing
    sent: list[dict[str, Any]] = []
    board.send = sent.append  # type: ignore[method-assign]
    board._on_page_msg(board, {"have": board.scene["n"]}, [])
    assert sent == []
    board._on_page_msg(board, {"have": 0}, [])
    assert sent == [{"scene": board.scene}] and board.scene["n"] >= 1


def test_results_walk_through_scoring_and_escape_hostile_names():
    evil = "<img src=x onerror=f()>"
    setup = CardsSetup((PlayerSeat(evil), PlayerSeat("B&o", cpu=True, bot="easy")), None)
    m = ConquestCards(setup, seed=5)
    c = MatchController(m, humans={0})
    board = CardsBoard(c, "en")
    play_by_clicks(c, board, random.Random(2))
    html = results_html(c.outcome(), c.view, "en")
    assert "<img" not in html and "&lt;img src=x onerror=f()&gt;" in html and "B&amp;o" in html
    for face in ("Jack (1 pt)", "Queen (2 pt)", "King (3 pt)"):
        assert face in html
    assert " won " in html or "shared win" in html
    assert board.scene["s0"][0] == evil and board.text("head-0").startswith(evil)  # data: the page writes it as text
    ja = results_html(c.outcome(), c.view, "ja")
    assert "ジャック（1点）" in ja and "<img" not in ja


def test_results_tell_the_tie_break_and_revealed_hands():
    from conquest_widget.games.conquest_cards.scoring import score

    # King: 10 each, seat 0 has an ace there (aces decide); Jack: both 4, one ace each (shared)
    d = score([[4, 0, 10], [4, 9, 10]], [[1, 0, 1], [1, 0, 0]], [[True, False, True], [True, True, True]])
    view = {"players": [{"name": "Ann", "suit": "S"}, {"name": "Ben", "suit": "H"}],
            "revealed": [["7H"], []], "dead": []}
    html = results_html({"ranks": d["ranks"], "details": d}, view, "en")
    assert "King (3 pt): Ann with 10, more aces in a tie" in html
    assert "Jack (1 pt): shared by Ann, Ben" in html
    assert "Ann&#x27;s hand at the end: 7♥" in html and "Dead cards: none" in html
    assert "won on points" in html


def test_set_lang_and_event_text():
    m = ConquestCards(CardsSetup.quick(2), seed=2)
    c = MatchController(m, humans={0})
    board = CardsBoard(c, "ja")
    assert "カードを1枚引いて" in board.text("status")
    assert board.text("draw").startswith("引く") and board.text("hand") == "手札 (2)"
    board.set_lang("en")
    assert "draw a card" in board.text("status") and board.text("end-turn") == "End turn"
    assert board.click("draw")
    drawn = next(e["card"] for e in reversed(c.events) if e["type"] == "draw")
    assert f"Player 1 drew {DISPLAY[drawn]}" in board.text("recent")  # with the player's name
    assert board.click("end-turn")  # the CPU plays its turn: "since your last turn" shows it, named
    assert "Player 2 drew a card" in board.text("recent") and "Player 1 drew" not in board.text("recent")
    names = ["Ann", "Ben"]
    lines = [event_text(e, "en", names) for e in c.events]
    assert any(x and "Ann was dealt" in x for x in lines)
    assert not any(x and "Ben was dealt" in x and "♠" in x for x in lines)  # only counts for Ben
    assert event_text({"type": "draw", "seat": 0}, "ja") == "プレイヤー1がカードを1枚引きました"
    assert event_text({"type": "select", "seat": 0, "card": "7S"}, "en") is None


def test_make_setup_and_seat_choices_round_trip():
    seats = [SeatChoice("Ann"), SeatChoice("Ben", bot="hard"), SeatChoice("Chika", bot="easy")]
    s = make_setup(seats, {"ace_eleven": True, "reveal_hands": False, "jokers": True, "suits_in_order": False})
    assert s.suits is None and s.ace_eleven and s.jokers and not s.reveal_hands
    assert UI.seat_choices(s) == seats
    assert make_setup(seats, {"suits_in_order": True}).suits == ("S", "H", "C")
    with pytest.raises(Exception, match="CPU level"):
        make_setup([SeatChoice("A"), SeatChoice("B", bot="godlike")], {})
    with pytest.raises(Exception, match="names must differ"):
        make_setup([SeatChoice("A"), SeatChoice("A", bot="easy")], {})


def test_app_plays_a_game_from_the_setup_form_to_the_results(tmp_path):
    app = App(save_dir=tmp_path)
    app.new_game()
    app.n_players.value = 3
    for i, (_name, kind) in enumerate(app.seat_rows[:3]):
        kind.value = "human" if i == 0 else "easy"
    app.option_widgets["jokers"].value = True
    app.speed.value = "instant"
    app.seed.value = "17"
    app.start()
    assert app.screen == "play", app.message.value
    board = app.board
    assert isinstance(board, CardsBoard)
    play_by_clicks(app.controller, board, random.Random(3))
    assert app.screen == "results"
    story = next(w for w in app.body.children if "cw-results" in getattr(w, "_dom_classes", ()))
    assert "How the game was scored" in story.value
    chance = [e for e in app.controller.document()["log"] if e["seat"] == CHANCE]
    assert chance  # the shuffle (and suits) were logged


def test_app_records_the_finished_game_in_the_results(tmp_path):
    app = App(save_dir=tmp_path)
    app.new_game()
    app.n_players.value = 2
    app.seat_rows[1][1].value = "easy"
    app.speed.value = "instant"
    app.seed.value = "3"
    app.start()
    play_by_clicks(app.controller, app.board, random.Random(1))
    assert app.screen == "results"
    assert "Problem" not in app.message.value, app.message.value
    assert len(app.store.results("conquest_cards")) == 1


def test_cpu_turns_are_drawn_step_by_step_at_the_chosen_speed():
    """In a kernel (a running event loop) at CPU speed "fast" every CPU action is its own
    redraw of the table, the status says who is playing, and the human's turn comes back."""
    import asyncio

    async def scenario() -> tuple[list[str], bool]:
        m = ConquestCards(CardsSetup((PlayerSeat("Ann"), PlayerSeat("Ben", cpu=True, bot="easy"),
                                      PlayerSeat("Chika", cpu=True, bot="easy")), ("S", "H", "C")), seed=4)
        c = MatchController(m, humans={0}, cpu_speed="fast")
        board = CardsBoard(c, "en")
        statuses: list[str] = []
        c.observe(lambda _ch: statuses.append(board.text("status")), names="version")
        board.click("draw")
        board.click("end-turn")  # Ben and Chika now play in the background, one action at a time
        assert c.legal == []
        for _ in range(200):
            await asyncio.sleep(0.05)
            if c.legal and not c.cpu_busy:
                break
        return statuses, "draw" in board.clickable()

    statuses, my_turn = asyncio.run(scenario())
    cpu_steps = [s for s in statuses if "is playing" in s]
    assert len(cpu_steps) >= 4  # at least draw + play/pass for each of the two CPUs, drawn one by one
    assert any("Ben" in s for s in cpu_steps) and any("Chika" in s for s in cpu_steps)
    assert my_turn


def test_the_replay_explorer_draws_the_card_table_and_keeps_the_other_hands_hidden():
    """The shell's replay explorer drives the same board from a read-only controller: at
    every position, from seat 0 and from the public view, no widget holds a card that
    viewer had not seen at that point; the board offers nothing to click."""
    from conquest_widget.ui.replay import ReplayExplorer

    m = ConquestCards(CardsSetup((PlayerSeat("Ann"), PlayerSeat("Ben", cpu=True, bot="easy")), None,
                                 jokers=True), seed=12)
    c = MatchController(m, humans={0})
    play_by_clicks(c, CardsBoard(c, "en"), random.Random(5))
    W.Widget.close_all()
    explorer = ReplayExplorer(m.to_dict(), viewer=0, index=0)
    board = explorer.boards_shown[0]
    assert isinstance(board, CardsBoard)
    n = explorer.replay.length
    for k in range(0, n + 1, 3):
        explorer.go(k)
        at = explorer.replay.at(k)
        leaked = cards_in_states() - seen_by(at, 0)
        assert not leaked, f"position {k}: {leaked}"
        assert board.clickable() == [], "a replay offers no move"
        assert board.hand_codes() == at.view(0)["hand"]
    explorer.show_seat(None)
    public = explorer.boards_shown[0]
    for k in range(0, n + 1, 5):
        explorer.go(k)
        at = explorer.replay.at(k)
        hidden = set(at.state["deck"]) | {x for h in at.state["hands"] for x in h}
        assert not (cards_in_states() & hidden) - public_cards(at), f"public view at {k}"
        assert public.hand_codes() == []


def _move_list(explorer) -> list[str]:
    """Every line of the replay's move list, as shown around each position in turn."""
    lines: dict[int, str] = {}
    for k in range(explorer.replay.length + 1):
        explorer.go(k)
        lines.update({v: label for label, v in explorer.moves.options})
    return [lines[k] for k in sorted(lines)]


@pytest.mark.parametrize(("lang", "mine", "theirs"), [
    ("en", r"Ann (picks|takes) the (ace|\d+) of (spades|hearts|clubs|diamonds)", "Ben chooses cards to play"),
    ("ja", r"Annが(スペード|ハート|クラブ|ダイヤ)の(エース|\d+)を", "Benが出す札を選んでいます"),
])
def test_the_replay_move_list_reads_as_sentences(lang, mine, theirs):
    """The move list showed raw codes ("Ann: select 2C", "Ben moved", issue 30): every line
    is now a sentence; the viewer's own selections name the card in words, another
    player's say only that they are choosing (their cards stay hidden)."""
    import re

    from conquest_widget.ui.replay import ReplayExplorer

    m = ConquestCards(CardsSetup((PlayerSeat("Ann"), PlayerSeat("Ben", cpu=True, bot="easy")), None), seed=12)
    c = MatchController(m, humans={0})
    play_by_clicks(c, CardsBoard(c, "en"), random.Random(5))
    W.Widget.close_all()
    explorer = ReplayExplorer(m.to_dict(), viewer=0, index=0, lang=lang)
    lines = _move_list(explorer)
    raw = re.compile(r": (select|unselect|draw|play|end)\b|\b\d{1,2}[SHCD]\b| moved\b|の手番")
    assert not [x for x in lines if raw.search(x)], [x for x in lines if raw.search(x)][:5]
    assert any(re.search(mine, x) for x in lines)
    assert any(theirs in x for x in lines)
    hidden_from_ann = {x for k in range(1, explorer.replay.length + 1) for x in [explorer.replay.action(k)]
                       if x[0] == 1 and x[1].kind in ("select", "unselect")}
    assert hidden_from_ann  # Ben's selections were there to hide
    explorer.close()
