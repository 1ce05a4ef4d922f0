"""The Japanese Risk board in a kernel: whole games played only through the board's
controls (map clicks and buttons), hot-seat secrecy of every live widget's state, the
incremental restyle, the shell's setup and texts."""

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

from conquest_widget.games.japanese_risk.engine import NEUTRAL, JapaneseRisk, RiskSetup
from conquest_widget.games.japanese_risk.widget import (
    UI,
    RiskBoard,
    event_text,
    make_setup,
    results_html,
    seat_choices,
)
from conquest_widget.games.japanese_risk.widget.board import (
    ATTACK_BORDER,
    ATTACK_MARK,
    COLOURS,
    LABEL_PARTS,
    MOVE_BORDER,
    MOVE_MARK,
    PICK_BORDER,
)
from conquest_widget.games.japanese_risk.widget.panel_scene import fmt, listed
from conquest_widget.games.japanese_risk.widget.panels import Control, RiskPanels
from conquest_widget.maps.japan.board import japan
from conquest_widget.maps.japan.geo import prefecture_shapes
from conquest_widget.maps.japan.prefecture_map import (
    FIT_MIN_WIDTH_PX,
    NAME_ZOOM,
    PrefectureMap,
    visible_bounds,
)
from conquest_widget.maps.painter import MapPainter, scene_labels
from conquest_widget.scene import read_message
from conquest_widget.ui.controller import MatchController
from conquest_widget.ui.game_ui import SeatChoice


@pytest.fixture(autouse=True)
def _fresh_widgets():
    """Every test starts with no live widget (the secrecy scan reads all of them)."""
    W.Widget.close_all()
    yield
    W.Widget.close_all()


# ------------------------------------------------------------------ helpers
def shown(board: RiskBoard) -> list[Control]:
    """The panels' parts, fields and buttons a player sees (what the panels' scene shows)."""
    return board.shown()


def button(board: RiskBoard, cls: str) -> Control | None:
    """The shown, enabled button with CSS class ``cls`` (None if there is none)."""
    for w in shown(board):
        if w.kind == "button" and cls in w._dom_classes and not w.disabled:
            return w
    return None


def press(board: RiskBoard, cls: str) -> None:
    b = button(board, cls)
    assert b is not None, f"no enabled {cls} button"
    b.click()
    assert not board.controller.message, board.controller.message


def select(board: RiskBoard, code: int) -> None:
    """Click ``code`` until it is the selected territory (a second click deselects; with
    another stack selected, a click on a lit territory would move there: clear first)."""
    if board.selected not in (None, code):
        press(board, "cw-clear")
    board.map.click(code)
    if board.selected != code:
        board.map.click(code)
    assert board.selected == code


def lit(board: RiskBoard, colour: str) -> list[int]:
    """Prefectures whose border shows ``colour`` on the map (what the player sees)."""
    return [c for c in board.map.polygons if board.map.style_of(c)["color"] == colour]


def ready_to_attack(accept: Any = None) -> tuple[MatchController, RiskBoard, int, list[int]]:
    """Ann (human, against an easy CPU) puts all her income on her first card, brings it onto
    the board and selects it: the controller, board, that territory and the attack targets
    lit from it, for the first seed that gives a turn and a target (``accept(c, targets)``)."""
    for seed in range(1, 40):
        W.Widget.close_all()
        ready = _ready_to_attack(seed)
        if ready is not None and (accept is None or accept(ready[0], ready[3])):
            return ready
    pytest.fail("no seed gave an attack to gather")


def _ready_to_attack(seed: int) -> tuple[MatchController, RiskBoard, int, list[int]] | None:
    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=seed), humans={0})
    board = RiskBoard(c, "en")
    me = c.view["me"]
    src = me["cards"][0]
    for _ in range(me["income_left"]):
        board.map.click(src)
    press(board, "cw-place-confirm")
    if board.mode() != "turn":
        return None
    select(board, src)
    press(board, "cw-deploy")
    select(board, src)
    targets = lit(board, ATTACK_BORDER)
    return (c, board, src, targets) if targets else None


def play_turn_step(board: RiskBoard, rng: random.Random, steps: int) -> None:
    """One player's decision, taken by clicking what the board shows."""
    c = board.controller
    mode = board.mode()
    v = c.view
    if mode == "income":
        me = v["me"]
        if rng.random() < 0.15 and button(board, "cw-buy-ninja"):
            press(board, "cw-buy-ninja")
            return
        while (board.alloc and sum(board.alloc.values()) < me["income_left"]) or not board.alloc:
            board.map.click(rng.choice(me["cards"]))
            if sum(board.alloc.values()) >= me["income_left"]:
                break
        press(board, "cw-place-confirm")
    elif mode == "commit":
        press(board, rng.choice([x for x in ("cw-commit-all", "cw-commit", "cw-commit-none") if button(board, x)]))
    elif mode == "window":
        strikes = lit(board, ATTACK_BORDER)
        if strikes and rng.random() < 0.5:
            board.map.click(rng.choice(strikes))
            press(board, "cw-strike")
        else:
            press(board, "cw-hold")
    elif mode == "turn":
        if button(board, "cw-launch"):
            if rng.random() < 0.3:  # add a group to the attack if one can join it
                target = board.plan["target"]  # gathered on the screen until "Launch the attack"
                srcs = [m[0] for m in v["turn"]["moves"]]
                rng.shuffle(srcs)
                for s in srcs:
                    select(board, s)
                    if target in lit(board, ATTACK_BORDER) and board.map.style_of(s)["color"] != ATTACK_BORDER:
                        board.map.click(target)
                        assert not c.message, c.message
                        return
                    if board.selected is not None:
                        press(board, "cw-clear")
            press(board, "cw-launch")
            return
        if steps > 40 or rng.random() < 0.08:
            press(board, "cw-end-turn")
            return
        # deploy from a card, or move / attack with a stack
        cards = [cc for cc, n in v["me"]["card_armies"] if n]
        movers = [m[0] for m in v["turn"]["moves"]] + [m[0] for m in v["me"].get("ninja_moves", [])]
        if cards and (not movers or rng.random() < 0.5):
            select(board, rng.choice(cards))
            press(board, "cw-deploy")
            return
        if not movers:
            press(board, "cw-end-turn")
            return
        src = rng.choice(movers)
        select(board, src)
        if board.count in shown(board):
            board.count.value = rng.randint(board.count.min, board.count.max)
        if board.use_ninjas in shown(board) and rng.random() < 0.5:
            board.use_ninjas.value = True
        dests = lit(board, ATTACK_BORDER) + lit(board, MOVE_BORDER)
        if not dests:
            press(board, "cw-end-turn")
            return
        board.map.click(rng.choice(dests))
        assert not c.message, c.message
    else:  # pragma: no cover - the loop only calls this when a human acts
        raise AssertionError(f"nothing to do in mode {mode}")


def play_by_clicks(c: MatchController, board: RiskBoard, rng: random.Random, *, limit: int = 4000,
                   on_cover: Any = None, uncover: Any = None) -> int:
    """Click through a whole game; hot seat: ``on_cover`` runs on each cover screen, then
    the screen is passed with ``uncover`` (default ``controller.uncover``)."""
    clicks = 0
    steps = 0
    last_turn = None
    while not c.is_over:
        assert clicks < limit, "the game did not end"
        if c.cover:
            if on_cover is not None:
                on_cover()
            (uncover or c.uncover)()
            if on_cover is not None:
                on_cover()
            continue
        turn = (c.view.get("round"), c.view.get("current"))
        steps = steps + 1 if turn == last_turn else 0
        last_turn = turn
        assert board.mode() != "wait", f"the human has nothing to do but the game is not over: {c.view.get('to_act')}"
        play_turn_step(board, rng, steps)
        clicks += 1
    return clicks


# ------------------------------------------------------------------ games by clicks
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_human_vs_cpu_played_to_the_end_by_clicks(seed: int) -> None:
    setup = make_setup([SeatChoice("Ann"), SeatChoice("Bo", bot="normal")], {"round_limit": 3})
    m = JapaneseRisk(setup, seed=seed)
    c = MatchController(m, humans={0}, bots=None)
    board = RiskBoard(c, "en")
    clicks = play_by_clicks(c, board, random.Random(seed))
    out = c.outcome()
    assert out is not None and clicks > 5
    assert out["reason"] in ("round_limit", "shogun")
    # the final board shows the public end: the results text names the reason
    assert "round limit" in results_html(out, c.view, "en") or "Shogun" in results_html(out, c.view, "en")
    assert board.renders >= c.version // 2


def test_three_players_with_a_defender_decision_and_japanese() -> None:
    setup = make_setup([SeatChoice("Ann"), SeatChoice("Bo", "easy"), SeatChoice("Chika", "hard")], {"round_limit": 2})
    c = MatchController(JapaneseRisk(setup, seed=7), humans={0})
    board = RiskBoard(c, "ja")
    play_by_clicks(c, board, random.Random(7))
    assert c.is_over
    assert "巡" in board.status.value
    board.set_lang("en")
    assert "Round" in board.status.value


def test_clicks_only_send_legal_moves_and_highlights_match_legal() -> None:
    setup = RiskSetup(("Ann", "Bo"), round_limit=4, bots=("human", "easy"))
    c = MatchController(JapaneseRisk(setup, seed=11), humans={0})
    board = RiskBoard(c, "en")
    rng = random.Random(11)
    checked = 0
    while not c.is_over and checked < 60:
        if board.mode() == "turn" and not button(board, "cw-launch"):
            movers = [m[0] for m in c.view["turn"]["moves"]]
            if movers:
                src = movers[0]
                select(board, src)
                legal_moves = {a["dst"] for a in c.legal if a["type"] == "move" and a["src"] == src}
                legal_attacks = {a["target"] for a in c.legal if a["type"] == "attack" and a["src"] == src and not a["ninja"]}
                assert set(lit(board, MOVE_BORDER)) == legal_moves - legal_attacks
                assert set(lit(board, ATTACK_BORDER)) == legal_attacks
                press(board, "cw-clear")
                checked += 1
        play_turn_step(board, rng, 0)
    assert checked > 0


def test_income_plus_minus_castle_and_ninja() -> None:
    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=5), humans={0})
    board = RiskBoard(c, "en")
    me = c.view["me"]
    a, b = me["cards"][:2]
    assert me["income_left"] == 9
    board.map.click(a)
    board.map.click(a)
    press(board, "cw-minus")
    assert board.alloc == {a: 1}
    assert "✋1" in board.map.label_of(a)                       # the planned armies, a private badge
    press(board, "cw-buy-ninja")                                # 3 of 9
    assert c.view["me"]["reserve"] == 1 and board.alloc == {a: 1}
    board.map.click(b)
    press(board, "cw-castle")                                   # 5 more: 1 left
    assert c.view["territories"][b - 1]["castle"] and c.view["territories"][b - 1]["owner"] == 0
    assert button(board, "cw-castle") is None and button(board, "cw-buy-ninja") is None
    board.map.click(b)                                          # nothing left beyond the one planned
    assert board.alloc == {a: 1}
    press(board, "cw-place-confirm")
    assert dict(map(tuple, c.view["me"]["card_armies"])) == {a: 1}
    assert c.view["phase"] == "turns"


def test_income_all_left_on_one_territory_in_japanese() -> None:
    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=6), humans={0})
    board = RiskBoard(c, "ja")
    a = c.view["me"]["cards"][3]
    board.map.click(a)
    assert button(board, "cw-all-here").description == "残り8をここへ"
    press(board, "cw-all-here")
    assert board.alloc == {a: 9} and button(board, "cw-all-here") is None
    press(board, "cw-place-confirm")
    assert dict(map(tuple, c.view["me"]["card_armies"])) == {a: 9}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_odds_line_reads_as_the_texts_written_out(lang: str) -> None:
    """``["%", kind, n, castle, win, ea, ed]`` (:func:`panel_scene.fmt`) gives the text the
    board wrote before lines were sent as numbers: the same template, prefix and rounding."""
    from conquest_widget.games.japanese_risk.odds import battle_odds_float
    from conquest_widget.games.japanese_risk.text import t
    from conquest_widget.games.japanese_risk.widget.panel_scene import fmt

    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Bo")), seed=4), humans={0, 1})
    board = RiskBoard(c, lang)
    for att, dfn, castle, sea, kind in ((2, 2, False, 0, 1), (6, 3, True, 2, 2), (1, 6, False, 0, 2), (9, 1, True, 0, 0)):
        o = battle_odds_float(att, dfn, castle=castle, sea=sea)
        text = t("ui_odds_vs", lang, n=dfn, castle=t("ui_odds_castle", lang) if castle else "",
                 win=f"{100 * o.win:.1f}%", ea=f"{o.expected_attackers:.2f}", ed=f"{o.expected_defenders:.2f}")
        prefix = {1: t("ui_odds_neutral", lang), 2: t("ui_odds_hidden", lang, n=dfn)}.get(kind)
        line = board._odds_line(att, dfn, castle=castle, sea=sea, kind=kind)
        assert fmt(board.panels.scene, line) == (f"{prefix}: {text}" if prefix else text)
    board.close()


def test_exact_odds_are_shown_before_launching() -> None:
    """Gather an attack by clicks; the odds box shows the exact win chance of the engine's
    odds for exactly that battle."""
    from conquest_widget.games.japanese_risk.odds import battle_odds

    c, board, _src, targets = ready_to_attack(lambda c, targets: not c.view["territories"][targets[0] - 1]["armies"])
    n = board.count.value
    board.map.click(targets[0])
    assert button(board, "cw-launch") is not None
    assert c.view["turn"]["pending"] is None         # gathered on the screen, nothing sent yet
    sea = sum(g[1] for g in board.plan["groups"] if g[2])
    win = float(battle_odds(n, 2, sea=sea).win)
    assert f"{100 * win:.1f}%" in board.odds.value
    # an odds line travels as its numbers (["%", ...]) and reads as the texts written out
    lines = [x for x in listed(board.panels.scene, "o")[1:]]
    assert lines and all(x[0] == "%" and all(isinstance(v, int) for v in x[1:]) for x in lines)
    assert len(json.dumps(lines)) < 40 * len(lines)
    press(board, "cw-launch")
    rows = listed(board.panels.scene, "b")[2:]            # the battle panel: its rounds or what happened
    assert any(r[0] == "r" for r in rows) or "hands over" in board.battle.value \
        or "took" in board.battle.value or "holds" in board.battle.value


# ------------------------------------------------------------------ hot seat secrecy
def all_states() -> str:
    """The state of every live widget, as one JSON text (what a page could receive)."""
    return json.dumps([w.get_state() for w in list(_instances.values())], ensure_ascii=False, default=str)


def labels_shown() -> str:
    """Every label the live map painters have the page draw, as the page puts it together
    (a label may be sent as the numbers of its public parts: ``painter.scene_labels``)."""
    return "".join(html for w in list(_instances.values()) if isinstance(w, MapPainter)
                   for html in scene_labels(w.scene).values())


def status_shown() -> str:
    """The status lines of the live Risk panels as the page writes them, ``[text, class,
    colour]`` (a line is sent as its template's number and fields: ``panel_scene.fmt``)."""
    return json.dumps([[fmt(w.scene, line[0]), *line[1:]] for w in list(_instances.values())
                       if isinstance(w, RiskPanels) for line in listed(w.scene, "st") or []], ensure_ascii=False)


def states_without_label_parts() -> str:
    """:func:`all_states` without the labels' public parts (their templates, "✋{}" ...)."""
    return all_states().replace(json.dumps(list(LABEL_PARTS), ensure_ascii=False), "")


BADGE = re.compile(r"cw-label-(\d+)'[^>]*>(?:(?!cw-label-).)*?cw-card-badge[^>]*>✋(\d+)")
#: a label as the map's painter holds it ("h<code>": its HTML; the page puts it in its box)
PAINTED_BADGE = re.compile(r'"h(\d+)": "[^"]*?cw-card-badge[^>]*>✋(\d+)')


def secrets_leaked(m: JapaneseRisk, seat: int) -> list[str]:
    """What of the other seats' secrets appears in any live widget while ``seat`` views:
    their card armies (private badges), their unrevealed territories (coloured), the
    number of ninjas in their reserve (the status line)."""
    s = m.state
    # every widget's state, and each map painter's labels as the page puts them together (a
    # label may be sent as the numbers of its parts)
    text = all_states() + labels_shown() + status_shown()
    found = []
    for code, n in BADGE.findall(text) + PAINTED_BADGE.findall(text):
        code, n = int(code), int(n)
        if s["owner"][code] != seat:
            found.append(f"card badge {n} on {code} (owner {s['owner'][code]})")
    for code in range(1, 48):
        o = s["owner"][code]
        if o not in (seat, NEUTRAL) and not s["revealed"][code]:
            # a shape's colour: its polygon's own, or what a map's painter sets in the page
            fills = [w.fill_color for w in _instances.values() if isinstance(w, W.Widget)
                     and getattr(w, "class_name", "") == f"cw-pref cw-pref-{code}"]
            fills += [w.style_of(code)["fill_color"] for w in _instances.values() if isinstance(w, MapPainter)]
            if COLOURS[o] in fills:
                found.append(f"owner {o} of unrevealed {code} shown")
    # placements are private events: a log line "… on the card of <prefecture>" only for
    # prefectures this seat has owned (its deal, its captures)
    owned_ever = set()
    for e in m.events_for(seat):
        if e.get("type") == "dealt" and e.get("seat") == seat:
            owned_ever.update(e.get("cards", ()))
        if e.get("type") == "captured" and e.get("seat") == seat:
            owned_ever.add(e["territory"])
    for code in range(1, 48):
        name = japan().prefecture(code).name_en
        if code not in owned_ever and f"on the card of {name}" in text:
            found.append(f"a placement on the card of {name} shown")
    for n in re.findall(r'"Ninjas in reserve: (\d+)", "cw-reserve"', text):
        if int(n) != s["reserve"][seat]:
            found.append(f"reserve {n} shown (viewer has {s['reserve'][seat]})")
    return found


def test_hot_seat_never_shows_the_other_players_secrets() -> None:
    m = JapaneseRisk(RiskSetup(("Ann", "Bo"), round_limit=2), seed=4)
    c = MatchController(m, humans={0, 1})
    board = RiskBoard(c, "en")
    checks = 0
    problems: list[str] = []

    def on_cover() -> None:
        nonlocal checks
        seat = c.viewer if not c.cover else None
        if seat is None:  # the cover: the public view only, nobody's secrets
            for p in range(2):
                problems.extend(f"cover: {x}" for x in secrets_leaked(m, p) if "badge" in x or "reserve" in x)
        else:
            problems.extend(secrets_leaked(m, seat))
        checks += 1

    rng = random.Random(4)
    play_by_clicks(c, board, rng, on_cover=on_cover)
    assert checks >= 4
    assert problems == []


def test_the_secrets_check_can_fail() -> None:
    """The scan finds a card badge / a reserve / an owner colour of the other seat when
    one is rendered on purpose (so the hot-seat test above can fail)."""
    m = JapaneseRisk(RiskSetup(("Ann", "Bo")), seed=4)
    c = MatchController(m, humans={0, 1})
    board = RiskBoard(c, "en")
    theirs = next(code for code in range(1, 48) if m.state["owner"][code] == 1)
    board.map.set_labels({theirs: RiskBoard._label(theirs, c.view["territories"][theirs - 1], 7, 0, False)})
    assert any("card badge 7" in x for x in secrets_leaked(m, 0))
    W.Widget.close_all()
    board = RiskBoard(c, "en")
    board.map.apply_styles({theirs: {"fill_color": COLOURS[1]}})
    assert any(f"unrevealed {theirs}" in x for x in secrets_leaked(m, 0))
    W.Widget.close_all()
    board = RiskBoard(c, "en")
    m.state["reserve"][1] = 2
    board.panel_scene.update(st=1, st0=["Ninjas in reserve: 2", "cw-reserve", ""])
    board.panels.redraw()
    assert any("reserve 2" in x for x in secrets_leaked(m, 0))
    # as the board sends it: the template's number and the count (the page writes the text)
    board.panel_scene.update(st=1, st0=[[board.panels.scene["T"].index("Ninjas in reserve: {n}"), [2]], "cw-reserve", ""])
    board.panels.redraw()
    assert any("reserve 2" in x for x in secrets_leaked(m, 0))
    W.Widget.close_all()
    RiskBoard(c, "en")
    log = W.HTML(event_text({"type": "placed", "seat": 1, "territory": theirs, "n": 5}, "en", ["Ann", "Bo"]))
    assert any("a placement on the card of" in x for x in secrets_leaked(m, 0)), log.value


def test_label_icons_of_a_former_viewer_are_closed() -> None:
    m = JapaneseRisk(RiskSetup(("Ann", "Bo")), seed=9)
    c = MatchController(m, humans={0, 1})
    board = RiskBoard(c, "en")
    assert c.cover == "Ann"                        # a new hot-seat controller starts on a cover
    c.uncover()
    mine = c.view["me"]["cards"][0]
    for _ in range(9):
        board.map.click(mine)
    assert "✋9" in labels_shown()                  # Ann's planned badge (the check sees one)
    press(board, "cw-place-confirm")
    assert c.cover == "Bo"
    assert "✋" not in labels_shown() + states_without_label_parts()    # the cover: the public view only
    c.uncover()
    assert "✋" not in labels_shown() + states_without_label_parts()    # Bo has placed nothing; Ann's badge is gone


@pytest.mark.parametrize("card", [0, 4])
def test_defence_question_in_hot_seat_with_and_without_card_armies(card: int) -> None:
    """Issue 27: P1 is asked before each round whether or not P1's card holds armies (the
    cover comes either way); with an empty card the board offers one button, "bring none"."""
    from conquest_widget.games.japanese_risk.engine import Attack, Launch

    from .helpers import new_match, put, turn_of

    m = turn_of(new_match(2), {1: 10})
    put(m, 9, 0, board=3)
    put(m, 11, 1, board=1, card=card)
    m.apply(Attack(9, 11, 3), 0)
    m.chance.forced.extend([[1, 6, 6], [6]])  # the one defender on the board falls
    m.apply(Launch(), 0)
    c = MatchController(m, humans={0, 1})
    board = RiskBoard(c, "en")
    assert c.cover == "P1" and board.mode() != "commit"  # the defender's cover, either way
    c.uncover()
    assert board.mode() == "commit" and board.panels.items()[0][1] == "cw-commit-ask"
    if card == 0:
        assert button(board, "cw-commit-none") is not None and button(board, "cw-commit-none").description
        assert button(board, "cw-commit-all") is None and button(board, "cw-commit") is None
        assert board.count not in shown(board)
    else:
        assert button(board, "cw-commit-all").description == "Bring all (4)"
        assert button(board, "cw-commit") is not None and board.count in shown(board)
    press(board, "cw-commit-none")
    assert [e["n"] for e in m.events_for(0) if e["type"] == "committed"] == [0]
    if card == 0:  # the territory is lost
        assert m.state["battle"] is None and m.state["owner"][11] == 0
    else:  # the board is empty, the card is not: P1 (at the screen) must bring at least one
        assert m.state["battle"]["rounds"] == 1 and board.mode() == "commit"
        assert button(board, "cw-commit-none") is None and button(board, "cw-commit-all").description == "Bring all (4)"


# ------------------------------------------------------------------ incremental restyle
def test_restyle_touches_only_changed_prefectures() -> None:
    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=2), humans={0})
    board = RiskBoard(c, "en")
    mine = c.view["me"]["cards"][0]
    board.map.click(mine)                       # only that territory's border changes
    assert board.map.touched == [mine]
    board.render(force=True)                    # nothing changed: nothing touched
    assert board.map.touched == []
    sent: list[dict] = []
    board.map.painter.send = lambda msg, buffers=None: sent.append(msg)  # what the page gets
    board.map.click(c.view["me"]["cards"][1])   # the selection moves: two borders change, nothing else
    shapes = {k for k in read_message(sent[0])["patch"] if k.isdigit()}  # besides "n" and the styles ("s<i>")
    assert len(sent) == 1 and shapes == {str(mine), str(c.view["me"]["cards"][1])}
    assert sorted(board.map.touched) == sorted({mine, c.view["me"]["cards"][1]})


def test_prefecture_map_rejects_bad_codes_and_keys() -> None:
    from conquest_widget.errors import ConquestError

    pm = PrefectureMap(labels=False)
    with pytest.raises(ConquestError, match="unknown prefecture 48"):
        pm.apply_styles({48: {}})
    with pytest.raises(ConquestError, match="style keys"):
        pm.apply_styles({1: {"colour": "red"}})
    with pytest.raises(ConquestError, match="labels=False"):
        pm.set_labels({1: "x"})
    assert all(p.class_name == f"cw-pref cw-pref-{c}" for c, p in pm.polygons.items())


def _in_view(center, zoom, height, width, margin_deg: float = 0.0) -> list[int]:
    """Prefectures whose whole polygon lies inside the view (with ``margin_deg`` to spare)."""
    (s, w), (n, e) = visible_bounds(center, zoom, height, width)
    out = []
    for code, geom in prefecture_shapes().items():
        lon0, lat0, lon1, lat1 = geom.bounds
        if s + margin_deg <= lat0 and lat1 <= n - margin_deg and w + margin_deg <= lon0 and lon1 <= e - margin_deg:
            out.append(code)
    return out


@pytest.mark.parametrize("width", [FIT_MIN_WIDTH_PX, 700, 1000, 1400])
def test_the_board_map_opens_on_all_47_prefectures_okinawa_included(width) -> None:
    """The Risk board's map opens on a view that contains every prefecture's polygon,
    Okinawa (47) included, at the board's height and any width from FIT_MIN_WIDTH_PX on,
    with a margin of half a degree (about 11 pixels at zoom 5; the fit keeps FIT_MARGIN_PX)."""
    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Ben")), seed=1), humans={0})
    board = RiskBoard(c, "en")
    lmap = board.map.map
    height = float(lmap.layout.height.removesuffix("px"))
    visible = _in_view(list(lmap.center), lmap.zoom, height, width, margin_deg=0.5)
    assert 47 in visible
    assert sorted(visible) == list(range(1, 48))
    # the view the board had before (Okinawa cut off at the bottom in the page) kept neither
    # Okinawa nor eastern Hokkaido half a degree clear of the edges: this test tells them apart
    old = _in_view([36.0, 136.2], 5.25, 660, 480, margin_deg=0.5)
    assert 47 not in old and 1 not in old
    # issue 30: it opens larger than the old 660-pixel map's zoom 5 (Japan 19% larger, all 47 still in view)
    assert lmap.zoom >= 5.25 and height >= 760


# ------------------------------------------------------------------ the shell's pieces
def test_setup_round_trip_and_seat_choices() -> None:
    s = make_setup([SeatChoice("Ann"), SeatChoice("Bo", "hard"), SeatChoice("Chika")], {"round_limit": 0,
                                                                                        "shogun_players": True})
    assert s.round_limit is None and s.shogun == "players"
    again = RiskSetup.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again == s and [x.bot for x in seat_choices(again)] == ["human", "hard", "human"]
    assert RiskSetup.from_dict({"players": ["A", "B"]}).bots == ()          # old documents load
    m = JapaneseRisk(s, seed=1)
    assert JapaneseRisk.from_dict(m.to_dict()).setup.players[1].cpu
    from conquest_widget.errors import SetupError

    with pytest.raises(SetupError, match="bots must list one entry per player"):
        RiskSetup.from_dict({"players": ["A", "B"], "bots": ["human"]})
    with pytest.raises(SetupError, match="round_limit"):
        make_setup([SeatChoice("A"), SeatChoice("B")], {"round_limit": -1})
    assert [o.key for o in UI.options] == ["round_limit", "shogun_players"]


def test_event_text_en_ja_and_only_the_viewers_events() -> None:
    m = JapaneseRisk(RiskSetup(("Ann", "Bo")), seed=3)
    names = ["Ann", "Bo"]
    mine = [event_text(e, "en", names) for e in m.events_for(0)]
    assert any("Ann was dealt 9" in x for x in mine)
    assert all(x for x in mine)
    ja = [event_text(e, "ja", names) for e in m.events_for(1)]
    assert any("第1巡" in x for x in ja)
    # placements are private: Ann's placement is in her log only
    m.apply(m.legal_actions(0)[0], 0)
    assert any("placed" in (event_text(e, "en", names) or "") for e in m.events_for(0))
    assert not any("placed" in (event_text(e, "en", names) or "") for e in m.events_for(1))


def test_results_html_escapes_names() -> None:
    html = results_html({"reason": "shogun", "ranks": [1, 2], "details": {"winner": 0, "territories": [25, 10]}},
                        {"players": [{"seat": 0, "name": "<script>"}, {"seat": 1, "name": "Bo"}]}, "ja")
    assert "<script>" not in html and "&lt;script&gt;" in html and "将軍" in html


# ------------------------------------------------------------------ a newcomer's first turn (issue 30)
def guide(board: RiskBoard) -> str:
    """The guide's words as shown (tags dropped)."""
    return re.sub(r"<[^>]+>", " ", board.guide.value) if board.guide in shown(board) else ""


def quoted(text: str) -> list[str]:
    """The button names the guide quotes (“...”)."""
    return re.findall(r"“([^”]+)”", text)


def press_named(board: RiskBoard, name: str) -> None:
    for w in shown(board):
        if w.kind == "button" and w.description == name and not w.disabled:
            w.click()
            assert not board.controller.message, board.controller.message
            return
    raise AssertionError(f"no enabled button named {name!r}")


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _apart(a: str, b: str) -> float:
    """The "redmean" colour distance (a cheap perceptual one: 0 same, about 765 black-white)."""
    (r1, g1, b1), (r2, g2, b2) = _rgb(a), _rgb(b)
    r = (r1 + r2) / 2
    return ((2 + r / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2 + (2 + (255 - r) / 256) * (b1 - b2) ** 2) ** 0.5


def _hue(c: str) -> float:
    import colorsys

    return 360 * colorsys.rgb_to_hls(*[x / 255 for x in _rgb(c)])[0]


def test_no_seat_colour_looks_like_an_attack_move_or_click_outline() -> None:
    """Own territories were red like the attack outline (issue 30): every seat colour is now
    far from the red attack, green move and yellow "click here" outlines, and at least 25
    degrees of hue from the red and the green (the old red and green seats were 0 and 3 away)."""
    for seat_colour in COLOURS:
        for outline in (ATTACK_BORDER, MOVE_BORDER, PICK_BORDER):
            assert _apart(seat_colour, outline) > 170, (seat_colour, outline)
        for outline in (ATTACK_BORDER, MOVE_BORDER):
            gap = abs(_hue(seat_colour) - _hue(outline)) % 360
            assert min(gap, 360 - gap) >= 25, (seat_colour, outline)
    assert _apart("#d62728", ATTACK_BORDER) < 170                    # the old red seat fails the test


def first_turn_board(seed: int = 3) -> tuple[MatchController, RiskBoard]:
    c = MatchController(JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=seed), humans={0})
    return c, RiskBoard(c, "en")


def test_the_guide_leads_a_first_turn_and_names_only_what_is_lit() -> None:
    """Following only the guide's words (click what is outlined in yellow / marked ⚔ or ➜,
    press the quoted button) plays a whole first turn: income, bringing armies onto the
    board, an attack or a move, the end of the turn.  Whenever the guide names a kind of
    territory, the map lights exactly such territories, with their mark."""
    for seed in range(1, 30):
        W.Widget.close_all()
        c, board = first_turn_board(seed)
        steps: list[str] = []
        start_round = c.view["round"]
        for _ in range(80):
            if board.mode() not in ("income", "turn"):
                break
            text = guide(board)
            assert text, board.mode()
            yellow, red, green = lit(board, PICK_BORDER), lit(board, ATTACK_BORDER), lit(board, MOVE_BORDER)
            labels = {code: board.map.label_of(code) for code in range(1, 48)}
            assert all(ATTACK_MARK in labels[x] for x in red) and all(MOVE_MARK in labels[x] for x in green)
            assert sum(ATTACK_MARK in v for v in labels.values()) == len(red)
            if "marked ⚔" in text:
                assert red
                steps.append("attack")
                board.map.click(red[0])
            elif "marked ➜" in text:
                assert green
                steps.append("move")
                board.map.click(green[0])
            elif "outlined in yellow" in text and yellow and not (steps and steps[-1] == "launch"):
                steps.append("income" if board.mode() == "income" else "select")
                board.map.click(yellow[0])
            else:
                names = quoted(text)
                assert names, text
                # a step that is done goes on to the next button named; the turn ends last
                name = names[0]
                if steps.count("launch") and any(n == "End turn" for n in names):
                    name = "End turn"
                steps.append({"Place these armies": "place", "Bring onto the board": "deploy",
                              "Launch the attack": "launch", "End turn": "end", "Deselect": "clear"}.get(name, name))
                press_named(board, name)
                if name == "End turn":
                    break
            assert not c.message, c.message
        if "deploy" in steps and "launch" in steps:
            assert steps[0] == "income" and "place" in steps and steps[-1] == "end", steps
            assert c.view["round"] >= start_round
            assert board.mode() != "turn" or c.view["current"] != 0
            return
    pytest.fail("no seed led a first turn through income, deploy, an attack and the end")


def test_a_gathered_attack_can_be_cancelled_and_nothing_was_sent() -> None:
    """"Cancel the attack" releases the gathered groups: nothing reached the engine (no
    event, no pending attack), the armies can move again; "Launch the attack" sends it."""
    c, board, src, targets = ready_to_attack()
    before = len(c.events)
    board.map.click(targets[0])
    assert button(board, "cw-cancel-attack") and button(board, "cw-launch") and not button(board, "cw-end-turn")
    assert "Cancel the attack" in guide(board) and lit(board, ATTACK_BORDER) == [targets[0]]
    assert c.view["turn"]["pending"] is None and len(c.events) == before   # nothing sent yet
    board.set_lang("ja")                         # the guide in Japanese names the same buttons
    assert "「攻撃開始」" in guide(board) and "「攻撃を取りやめる」" in guide(board)
    assert button(board, "cw-cancel-attack").description == "攻撃を取りやめる"
    board.set_lang("en")
    press(board, "cw-cancel-attack")
    assert board.plan is None and button(board, "cw-end-turn") and not button(board, "cw-launch")
    assert len(c.events) == before and c.view["turn"]["pending"] is None
    assert src in lit(board, PICK_BORDER)                                    # its armies are free again
    select(board, src)
    assert targets[0] in lit(board, ATTACK_BORDER)
    board.map.click(targets[0])
    press(board, "cw-launch")
    assert c.view["turn"]["attacked"] == [targets[0]] or targets[0] in c.view["turn"].get("attacked", [])


def test_prefecture_names_on_hover_and_when_zoomed_in_whoever_looks() -> None:
    """The map names the prefecture under the pointer (EN and JA) and writes every name from
    NAME_ZOOM on; a name is the same for every viewer, whatever each knows of its owner."""
    m = JapaneseRisk(RiskSetup(("Ann", "Bo")), seed=9)
    c = MatchController(m, humans={0, 1})
    board = RiskBoard(c, "en")
    c.uncover()
    hidden = c.view["me"]["cards"][0]           # Ann's, unknown to Bo
    board.map.hover_over(hidden)
    ann_chip = board.map.hover.value
    assert japan().prefecture(hidden).name("en") in ann_chip and board.map.hover.layout.display == ""
    assert "cw-map-name" not in board.map.label_shown(hidden)       # the whole map: no names yet
    board.map.map.zoom = NAME_ZOOM
    ann_names = {code: re.search(r"cw-map-name[^>]*>([^<]*)<", board.map.label_shown(code)).group(1)
                 for code in range(1, 48)}
    assert ann_names[13] == "Tokyo"
    for _ in range(9):
        board.map.click(hidden)
    press(board, "cw-place-confirm")
    c.uncover()                                  # Bo's view: Ann's territory is unknown there
    assert c.view["territories"][hidden - 1]["owner"] is None
    board.map.hover_over(hidden)
    assert board.map.hover.value == ann_chip
    bo_names = {code: re.search(r"cw-map-name[^>]*>([^<]*)<", board.map.label_shown(code)).group(1)
                for code in range(1, 48)}
    assert bo_names == ann_names
    board.set_lang("ja")
    assert "東京都" in board.map.label_shown(13)
    board.map.hover_over(13)
    assert "東京都" in board.map.hover.value


def test_stack_dialog_lets_the_player_choose_which_armies_move() -> None:
    # issue 30: with fresh and once-moved armies together, the stack dialog offers to send the
    # ones with two moves left first; unticked, the once-moved ones go first as before
    from conquest_widget.games.japanese_risk.engine import Deploy, Hold, Move, Place

    m = JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=1,
                     forced=[list(range(47)), [6, 5]])      # Ann holds 1-9 and plays first
    m.apply(Place(8, 8), 0)
    m.apply(Place(7, 1), 0)
    m.apply(Place(10, 9), 1)
    m.apply(Hold(), 0)
    m.apply(Hold(), 1)
    m.apply(Deploy(8, 2), 0)
    m.apply(Deploy(7, 1), 0)
    m.apply(Move(7, 8, 1), 0)                              # Ibaraki: 2 fresh, 1 moved once
    board = RiskBoard(MatchController(m, humans={0}), "en")
    select(board, 9)
    assert board.fresh_first not in shown(board)           # Tochigi has nobody to choose among
    select(board, 8)
    assert board.fresh_first in shown(board)
    assert board.fresh_first.description == "Send the ones with 2 moves left first"
    board.count.value = 1
    board.fresh_first.value = True
    board.map.click(9)                                     # one army to Tochigi: a fresh one
    moves = {c: (f, h) for c, f, h in board.controller.view["turn"]["moves"]}
    assert moves[8] == (1, 1) and moves[9] == (0, 1)       # it can go on from Tochigi
    assert m.log[-1]["action"] == {"type": "move", "src": 8, "dst": 9, "count": 1, "fresh": 1}
    board.set_lang("ja")
    assert board.fresh_first.description == "残り2歩の部隊から先に送る"


def kanto_turn(place_7: int = 0, then: tuple[Any, ...] = ()) -> tuple[JapaneseRisk, RiskBoard]:
    """Ann (human) holds 1-9 and plays first, Bo (easy CPU) holds 10-18 with all his income
    on Gunma (10): Chiba (12) next to Ann's Ibaraki (8) is Bo's and empty.  Ann put 9 - place_7
    armies on Ibaraki's card and ``place_7`` on Tochigi's; the ninja windows are passed; then
    Ann's actions ``then``."""
    from conquest_widget.games.japanese_risk.engine import Hold, Place

    m = JapaneseRisk(RiskSetup(("Ann", "Bo"), bots=("human", "easy")), seed=1,
                     forced=[list(range(47)), [6, 5]])
    m.apply(Place(8, 9 - place_7), 0)
    if place_7:
        m.apply(Place(7, place_7), 0)
    m.apply(Place(10, 9), 1)
    m.apply(Hold(), 0)
    m.apply(Hold(), 1)
    for action in then:
        m.apply(action, 0)
    return m, RiskBoard(MatchController(m, humans={0}), "en")


def test_after_a_hand_over_the_guide_lets_the_winners_move_on() -> None:
    """Issue 30: armies that take a territory by hand-over keep their second move; the guide
    no longer says nothing can move: it lights the taken territory, says why, and the
    armies there move on by clicks."""
    m, board = kanto_turn()
    select(board, 8)
    board.count.value = 2
    press(board, "cw-deploy")
    select(board, 8)
    board.count.value = 2
    board.map.click(12)                                    # Chiba, Bo's, nobody there
    press(board, "cw-launch")
    assert m.state["owner"][12] == 0 and "hands over Chiba without a battle" in board.battle.value
    text = guide(board)
    assert "Chiba was handed over without a battle" in text and "Nothing more" not in text
    assert 12 in lit(board, PICK_BORDER)
    select(board, 12)
    assert 11 in lit(board, ATTACK_BORDER) and 8 in lit(board, MOVE_BORDER)
    board.map.click(8)                                     # back to Ibaraki: their second move
    assert m.state["board"][8] == 2 and m.state["board"][12] == 0
    assert "handed over" not in guide(board)               # told once, while it still matters
    board.set_lang("ja")
    assert "ターン終了" in guide(board)


def test_the_ones_with_2_moves_left_go_first_in_a_gathered_attack_too() -> None:
    """The stack dialog's box also picks the armies of an attack gathered on the screen;
    a second group from the same stack counts what the first one took."""
    from conquest_widget.games.japanese_risk.engine import Deploy, Move

    m, board = kanto_turn(1, (Deploy(8, 2), Deploy(7, 1), Move(7, 8, 1)))  # Ibaraki: 2 fresh, 1 moved once
    select(board, 8)
    board.count.value = 2
    board.fresh_first.value = True
    board.map.click(12)                                    # the two fresh ones against Chiba
    select(board, 8)
    assert board.fresh_first not in shown(board)           # only the once-moved one is left
    board.map.click(12)
    assert [g[1] for g in board.plan["groups"]] == [2, 1]
    press(board, "cw-launch")
    sent = [e["action"] for e in m.log if e.get("action", {}).get("type") == "attack"]
    assert sent == [{"type": "attack", "src": 8, "target": 12, "count": 2, "ninja": False, "fresh": 2},
                    {"type": "attack", "src": 8, "target": 12, "count": 1, "ninja": False}]
    moves = {c: (f, h) for c, f, h in board.controller.view["turn"]["moves"]}
    assert m.state["owner"][12] == 0 and moves[12] == (0, 2)   # handed over: the fresh two move on


def saitama_attacked(ninja: bool) -> tuple[JapaneseRisk, MatchController, RiskBoard]:
    """Hot seat P0 / P1 (identity deal: P0 holds 1-9, P1 10-18): P1 put 6 armies on
    Saitama's card and bought a ninja (``ninja``) or put 3 more armies on Chiba's card; P0
    brings 3 armies onto Ibaraki and attacks Saitama with them: P1 is asked."""
    from conquest_widget.games.japanese_risk.engine import Attack, BuyNinja, Deploy, Launch, Place

    from .helpers import hold_windows, new_match

    m = new_match(2)
    m.apply(BuyNinja(1) if ninja else Place(12, 3), 1)
    m.apply(Place(11, 6), 1)
    m.apply(Place(8, 9), 0)
    hold_windows(m)
    for action in (Deploy(8, 3), Attack(8, 11, 3), Launch()):
        m.apply(action, 0)
    c = MatchController(m, humans={0, 1})
    return m, c, RiskBoard(c, "en")


def last_action(m: JapaneseRisk) -> dict[str, Any]:
    return next(e["action"] for e in reversed(m.log) if "action" in e)


def screen(board: RiskBoard) -> list[Any]:
    """What anyone looking at the board sees: the shown widgets' words and values, the map."""
    out: list[Any] = [(w.kind, w.description if w.kind != "text" else None, w.value if w.kind != "button" else None)
                      for w in shown(board)]
    return out + [(code, board.map.style_of(code)["fill_color"], board.map.style_of(code)["color"])
                  for code in sorted(board.map.polygons)]


def test_a_human_defender_brings_a_reserve_ninja_into_the_battle_by_clicks() -> None:
    """Issue 30: the defence question offers the defender's reserve ninjas (a count next to
    the commit buttons, on the defender's own screen only); 1 ninja and 2 card armies go in,
    the battle rolls 3 defence dice, the ninja stays on Saitama."""
    m, c, board = saitama_attacked(ninja=True)
    assert c.cover == "P1" and board.commit_ninjas not in shown(board)
    c.uncover()
    assert board.mode() == "commit" and board.commit_ninjas in shown(board)
    assert board.commit_ninjas.description == "Ninjas from your reserve (0-1)" and board.commit_ninjas.value == 0
    assert button(board, "cw-commit-all").description == "Bring all (6)"
    board.commit_ninjas.value = 1
    assert button(board, "cw-commit-all").description == "Bring all (6) + 1 ninja"
    board.count.value = 2
    assert button(board, "cw-commit").description == "Bring this many + 1 ninja"
    m.chance.forced.extend([[6, 6, 6], [6, 6, 6]])        # no hit either way: 3 attackers, 3 defenders
    press(board, "cw-commit")
    assert last_action(m) == {"type": "commit", "count": 2, "ninjas": 1}
    rnd = [e for e in m.events_for(0) if e["type"] == "battle_round"]
    assert len(rnd) == 1 and len(rnd[0]["dfn"]) == 3 and rnd[0]["ninjas"] == 1   # the ninja rolled
    assert m.state["ninjas"][11] == [1] and m.state["reserve"][1] == 0
    assert "P1 brings 2 armies from the card of Saitama and 1 ninja from reserve" in board.battle.value
    assert "3 : 2 + 🥷1" in board.battle.value
    assert board.mode() == "commit" and board.commit_ninjas not in shown(board)   # none left in reserve
    board.set_lang("ja")
    assert "予備の忍者1人を投入" in board.battle.value or "忍者1人を投入" in board.battle.value


def test_the_ninja_count_is_offered_only_where_it_is_legal_and_in_japanese() -> None:
    """With the ninja chosen, "no armies, only the ninja" is legal even with nobody on the
    board (the engine's Commit(0, 1)); every button sends one of the controller's legal actions."""
    m, c, board = saitama_attacked(ninja=True)
    c.uncover()
    assert button(board, "cw-commit-none") is None         # nobody on the board: bring at least one
    board.commit_ninjas.value = 1
    assert button(board, "cw-commit-none").description == "No armies, only 1 ninja"
    board.set_lang("ja")
    assert board.commit_ninjas.description == "予備の忍者も投入（0〜1人）"
    assert button(board, "cw-commit-none").description == "部隊は出さず忍者1人だけ"
    legal = list(c.legal)
    press(board, "cw-commit-none")
    assert last_action(m) == {"type": "commit", "count": 0, "ninjas": 1} and last_action(m) in legal


def test_the_defence_question_looks_the_same_to_watchers_with_or_without_reserve_ninjas() -> None:
    """Every human away from the screen is asked through their cover (docs rows 19, 51): two
    matches that differ only in whether the defender holds a ninja look the same at the
    cover; the ninja count shows only on the defender's own screen, and is empty afterwards."""
    seen = []
    for ninja in (True, False):
        W.Widget.close_all()
        m, c, board = saitama_attacked(ninja)
        assert c.cover == "P1"
        seen.append(screen(board))
        c.uncover()
        assert (board.commit_ninjas in shown(board)) == ninja
        m.chance.forced.extend([[1, 1, 1], [1] * 6])      # the 3 attackers fall in the first round
        press(board, "cw-commit-all")
        assert m.state["battle"] is None and c.cover     # the window after the battle: a cover again
        assert (board.commit_ninjas.max, board.commit_ninjas.value) == (0, 0)   # the reserve is not kept
    assert seen[0] == seen[1]


def test_after_a_defence_nothing_of_the_defenders_card_stays_in_any_widget() -> None:
    """Pair test (hot seat): two matches that differ only in how the defender split its
    income between Saitama's card (6 or 5 armies) and Chiba's (3 or 4).  The defender brings
    3 armies from Saitama's card and the attackers fall; when the cover comes up, every live
    widget's state is the same in both (the defence question's count field kept the card's
    total once: a secret the page could read)."""
    from conquest_widget.games.japanese_risk.engine import Attack, Deploy, Launch, Place

    from .helpers import hold_windows, new_match

    states = []
    for on_saitama in (6, 5):
        W.Widget.close_all()
        m = new_match(2)
        m.apply(Place(12, 9 - on_saitama), 1)
        m.apply(Place(11, on_saitama), 1)
        m.apply(Place(8, 9), 0)
        hold_windows(m)
        for action in (Deploy(8, 3), Attack(8, 11, 3), Launch()):
            m.apply(action, 0)
        c = MatchController(m, humans={0, 1})
        board = RiskBoard(c, "en")
        assert c.cover == "P1"
        c.uncover()
        assert board.count.max == on_saitama  # the defender's own screen shows its card
        board.count.value = 3
        m.chance.forced.extend([[6, 6, 6], [1, 1, 1]])  # no hit on the 3 defenders, 3 on the attackers
        press(board, "cw-commit")
        assert m.state["battle"] is None and c.cover
        states.append(re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL", all_states()))  # (model ids are random)
    assert states[0] == states[1]
