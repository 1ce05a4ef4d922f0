"""The story of the game in pictures (issue 16): the SVG charts and tables of
conquest_widget/games/japan_conquest/widget/story_view.py and the results screen that shows them."""

from __future__ import annotations

import dataclasses
import re

import pytest

from conquest_widget import JapanConquestApp
from conquest_widget.games.japan_conquest import (
    GameSetup,
    JapanMatch,
    PlayerSetup,
    ScriptedDice,
)
from conquest_widget.games.japan_conquest.cpu import play_cpu_turns
from conquest_widget.games.japan_conquest.story import game_story
from conquest_widget.games.japan_conquest.widget.story_view import (
    battles_html,
    final_map_svg,
    regions_svg,
    score_chart_svg,
    story_html,
)
from conquest_widget.saves import SaveStore
from tests.games.japan_conquest.widget.conftest import button as _button
from tests.games.japan_conquest.widget.conftest import walk as _walk

from .wire import WireCounter

HOSTILE = "<img src=x onerror=alert(1)>"
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")


def scripted_game() -> JapanMatch:
    """Aki (Tokyo) takes Ben's base Saitama 6 to 1 in turn 1, Ben claims Kyoto, Aki claims
    Gunma in turn 2 (the numbers are worked out in tests/games/japan_conquest/test_story.py)."""
    setup = GameSetup(players=(PlayerSetup("Aki", 13, colour=COLOURS[0]), PlayerSetup("Ben", 27, colour=COLOURS[1])),
                      turns=5)
    g = JapanMatch(setup, dice=ScriptedDice([1, 6, 1, 1, 1]))
    g.edit_prefecture("Saitama", owner=1, level="base")
    g.plan_route(["Saitama"], dice=1)
    g.battle_roll(1)
    g.battle_roll(1)
    g.plan_route(["Kyoto"], dice=1)
    g.plan_route(["Gunma"], dice=1)
    return g


def cpu_game(names=("A", "B", "C", "D"), turns=5, seed=3) -> JapanMatch:
    homes = (13, 27, 1, 40)
    setup = GameSetup(players=tuple(PlayerSetup(n, h, colour=c, cpu=True) for n, h, c in zip(names, homes, COLOURS, strict=False)),
                      turns=turns, seed=seed)
    g = JapanMatch(setup)
    play_cpu_turns(g)
    assert g.is_over
    return g


def _polylines(svg: str) -> list[tuple[str, str, list[tuple[float, float]]]]:
    """(seat, stroke colour, points) of each player's line."""
    out = []
    for m in re.finditer(r'<polyline class="cw-story-line" data-seat="(\d)" points="([^"]*)"[^>]*stroke="(#[0-9a-f]{6})"', svg):
        pts = [tuple(float(v) for v in p.split(",")) for p in m.group(2).split()]
        out.append((m.group(1), m.group(3), pts))
    return out


def test_one_line_per_player_in_its_colour_through_the_scores():
    story = game_story(scripted_game())
    lines = _polylines(score_chart_svg(story))
    assert [(seat, colour) for seat, colour, _ in lines] == [("0", COLOURS[0]), ("1", COLOURS[1])]
    # scores (150, 240, 300) and (215, 165, 195) at turns 0, 1, 2: one point per turn, the
    # x of a turn shared, and y falling linearly as the score rises
    (_, _, aki), (_, _, ben) = lines
    assert len(aki) == len(ben) == 3 and [p[0] for p in aki] == [p[0] for p in ben]
    pairs = sorted({(s, y) for pts, scores in ((aki, (150, 240, 300)), (ben, (215, 165, 195)))
                    for (_, y), s in zip(pts, scores, strict=True)})
    (s0, y0), (s1, y1) = pairs[0], pairs[-1]
    for s, y in pairs:
        assert y == pytest.approx(y0 + (s - s0) * (y1 - y0) / (s1 - s0), abs=0.11)
    assert y1 < y0  # higher scores are drawn higher


def test_a_four_player_game_has_four_lines_and_axis_labels():
    story = game_story(cpu_game())
    svg = score_chart_svg(story, "en")
    assert len(_polylines(svg)) == 4
    assert ">Turn</text>" in svg and ">Score</text>" in svg and ">Final Showdown</text>" in svg


def test_final_showdown_totals_are_revealed_turn_by_turn():
    g = cpu_game(turns=5, seed=8)
    story = game_story(g)
    html_text = story_html(story, "en")
    table = html_text[html_text.index('class="cw-story-showdown-totals"'):]
    table = table[: table.index("</table>")]
    assert "<th>3</th><th>4</th><th>5</th>" in table
    for p in story.players:
        row = table[table.index(f'<tr data-seat="{p.seat}">'):]
        row = row[: row.index("</tr>")]
        assert re.findall(r"<td>(-?\d+)</td>", row) == [str(v) for v in p.scores[3:6]]
    assert [p.scores[5] for p in story.players] == [g.score(s)["total"] for s in range(4)]


def test_hostile_names_are_escaped_everywhere():
    story = game_story(scripted_game())
    players = tuple(dataclasses.replace(p, name=n) for p, n in zip(story.players, (HOSTILE, 'Ben" onmouseover="x'), strict=True))
    story = dataclasses.replace(story, players=players)
    text = story_html(story, "en") + story_html(story, "ja")
    assert "<img" not in text and "onmouseover=\"x" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text and "Ben&quot; onmouseover=&quot;x" in text
    # the SVG titles, the legend, the tables and the sentences all carry the escaped name
    assert score_chart_svg(story).count("<title>&lt;img src=x onerror=alert(1)&gt;</title>") == 1
    assert "Biggest battle: turn 1, &lt;img src=x onerror=alert(1)&gt; attacked Ben&quot;" in text


def test_a_hostile_name_from_a_real_setup_goes_through_escaped():
    g = cpu_game(names=("<img src=x onerror=1>", "B&B", "C", "D"), turns=5, seed=5)
    text = story_html(game_story(g), "en")
    assert "<img" not in text and "&lt;img src=x onerror=1&gt;" in text and "B&amp;B" in text


def test_japanese_labels():
    story = game_story(scripted_game())
    ja = story_html(story, "ja")
    for label in ("対局の振り返り", "ターンごとの総得点", "最終の勢力図", "地方ごとの領地と城", "合戦", "対戦成績（勝–負）",
                  ">ターン</text>", ">総得点</text>", "関東", "近畿", "埼玉県", "最大の合戦：1ターン目、AkiがBenの埼玉県（拠点）を攻撃。"):
        assert label in ja, label
    assert "Score by turn" not in ja and "Final map" not in ja
    en = story_html(story, "en")
    assert "Biggest battle: turn 1, Aki attacked Ben's base in Saitama: 6 against 1, Aki won." in en


def test_final_map_colours_prefectures_by_owner_and_stays_small():
    story = game_story(scripted_game())
    svg = final_map_svg(story, "en")
    paths = dict(re.findall(r'<path class="cw-story-pref" data-code="(\d+)" d="[^"]+" fill="(#[0-9a-f]{6})"', svg))
    assert sorted(map(int, paths)) == list(range(1, 48))
    assert paths["11"] == paths["13"] == paths["10"] == COLOURS[0]  # Saitama, Tokyo, Gunma: Aki's
    assert paths["26"] == paths["27"] == COLOURS[1]  # Kyoto, Osaka: Ben's
    assert paths["1"] == "#efe9da"  # Hokkaido: neutral
    assert "<title>Saitama: Aki (Base)</title>" in svg
    assert len(svg.encode()) <= 40_000, len(svg.encode())


def test_regions_chart_counts_one_square_per_prefecture_and_stars_control():
    g = scripted_game()
    g.edit_prefecture("Kagawa", owner=0, level="castle")
    for name in ("Tokushima", "Ehime", "Kochi"):
        g.edit_prefecture(name, owner=0, level="castle")
    story = game_story(g)
    svg = regions_svg(story, "en")
    kanto = svg[svg.index('data-region="kanto"'):]
    kanto = kanto[: kanto.index("</g>")]
    cells = re.findall(r'fill="(#[0-9a-f]{6})" fill-opacity="([\d.]+)"', kanto)
    # Kanto's 7: Tokyo (home, solid), Saitama (base) and Gunma (territory) pale, 4 neutral
    assert cells == [(COLOURS[0], "0.95"), (COLOURS[0], "0.4"), (COLOURS[0], "0.4")] + [("#efe9da", "1.0")] * 4
    shikoku = svg[svg.index('data-region="shikoku"'):]
    shikoku = shikoku[: shikoku.index("</g>")]
    assert shikoku.count(f'fill="{COLOURS[0]}" fill-opacity="0.95"') == 4
    assert f'fill="{COLOURS[0]}">★★</text>' in shikoku and "★" not in kanto


def test_battles_table_and_head_to_head():
    story = game_story(scripted_game())
    text = battles_html(story, "en")
    rows = dict(re.findall(r'<tr data-seat="(\d)">(.*?)</tr>', text[: text.index("Head to head")]))
    assert re.findall(r"<td>([\d/]+)</td>", rows["0"]) == ["1", "1", "0", "1/1", "0/0"]  # fought, won, lost, attacks, defences
    assert re.findall(r"<td>([\d/]+)</td>", rows["1"]) == ["1", "0", "1", "0/0", "0/1"]
    versus = text[text.index("Head to head"):]
    assert "<td>1–0</td>" in versus and "<td>0–1</td>" in versus
    no_battles = dataclasses.replace(story, battles=())
    assert "No battle was fought." in battles_html(no_battles, "en")






def _results(app) -> str:
    """The results on screen (the standings and the story: one HTML widget)."""
    (shown,) = [w for w in _walk(app) if "cw-results" in getattr(w, "_dom_classes", ())]
    return shown.value


def _texts(app) -> str:
    """Every text the app's widgets hold (what the page could show)."""
    return "".join(str(w.value) for w in _walk(app) if isinstance(getattr(w, "value", None), str))


def _cpu_game(app) -> None:
    """A game of two CPUs shown in the app: outside a kernel they play it to the end at once."""
    app._play(JapanMatch(GameSetup(players=(PlayerSetup("A", 13, cpu=True), PlayerSetup("B", 27, cpu=True)),
                                   turns=5, seed=2)), speed="instant")


def test_the_results_screen_of_a_finished_game_shows_the_story(tmp_path):
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    _cpu_game(app)
    assert app.controller.is_over and app.screen == "results"
    story = _results(app)
    assert story.count('class="cw-story-line"') == 2
    for part in ("cw-story-chart", "cw-story-map", "cw-story-regions", "cw-story-showdown-totals", "cw-standings"):
        assert part in story, part
    assert story.index("cw-story") > story.index("cw-standings")  # the story below the standings
    app.set_lang("ja")
    assert "ターンごとの総得点" in _results(app)
    app.close()


def test_the_results_standings_are_one_table_with_each_players_score(tmp_path):
    """One table of standings (rank, player, score, who played), not a second one of the
    scores beside the shell's, in both languages."""
    import re

    app = JapanConquestApp(save_dir=tmp_path / "saves")
    _cpu_game(app)
    ranking = {r["name"]: r["score"] for r in app.controller._match.ranking()}
    for lang, heads in (("en", ["Rank", "Player", "Score", "Played by"]), ("ja", ["順位", "プレイヤー", "総得点", "操作"])):
        app.set_lang(lang)
        results = _results(app)
        (table,) = re.findall(r"<table class='cw-standings'>.*?</table>", results)
        assert re.findall(r"<th>(.*?)</th>", table) == heads
        rows = re.findall(r"<tr><td>(\d+)</td><td>(.*?)</td><td>(\d+)</td>", table)
        assert {name: int(score) for _rank, name, score in rows} == ranking
        assert not re.search(r"<table>\s*<tr><th>[^<]*</th><th>[^<]*</th><th>" + heads[2], results)  # no second one
    app.close()


def test_the_story_is_not_shown_before_the_game_is_over(tmp_path):
    """It holds every total, the Final Showdown's too: nothing until the end."""
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    app._play(JapanMatch(GameSetup(players=(PlayerSetup("A", 13), PlayerSetup("B", 27)), turns=5, seed=2)),
              speed="instant")
    assert app.screen == "play"
    assert not [w for w in _walk(app) if "cw-results" in getattr(w, "_dom_classes", ())]
    assert "cw-story" not in _texts(app)
    app.board.turn_panel.roll_button.click()
    assert app.board.inner.phase == "route"
    assert "cw-story" not in _texts(app) and app._story_html() == ""
    app.show_results()  # asked early: nothing is shown
    assert app.screen == "play" and "cw-story" not in _texts(app)
    app.close()


def _last_human_move() -> tuple[JapanMatch, dict]:
    """A 15-turn four-player game (seat 0 human, three CPUs) at the human's last move, and
    that move (the CPUs then play the game to its end)."""
    from conquest_widget.core.bots import play_bots
    from conquest_widget.games.japan_conquest.bots import BOTS
    from conquest_widget.ui.replay import Replay

    homes = (13, 27, 1, 40)
    setup = GameSetup(players=tuple(PlayerSetup(n, h, colour=c, cpu=i > 0)
                                    for i, (n, h, c) in enumerate(zip("ABCD", homes, COLOURS, strict=True))),
                      turns=15, seed=4)
    g = JapanMatch(setup)
    play_bots(g, {s: BOTS["normal"]() for s in range(4)}, seed=4)
    assert g.is_over
    replay = Replay(g)
    k = max(i for i in range(replay.length) if replay.branch(i).to_act() == (0,))
    before, after = replay.branch(k), replay.branch(k + 1)
    move = after.to_dict()["log"][len(before.log)]["action"]
    return before, move


def test_the_results_screen_does_not_balloon_the_wire(tmp_path):
    """A four-player game that ends on screen (the human's last move, the CPUs' last ones, then
    the results) costs under 60 kB on the wire, the story included (map restyles, results and
    log widgets, the story HTML)."""
    before, move = _last_human_move()
    SaveStore(tmp_path / "saves").save_slot(1, before)
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    _button(app, "cw-load-1").click()
    assert app.screen == "play" and not app.controller.is_over
    with WireCounter() as wire:
        app.controller.act(move)
    assert app.controller.message == "" and app.controller.is_over and app.screen == "results"
    story_bytes = len(_results(app).encode())
    print(f"story {story_bytes:,} B; showing the results: {wire.summary()}")
    assert 'class="cw-story-line"' in _results(app)
    assert story_bytes <= 45_000
    assert wire.data <= 60_000, wire.summary()
    app.close()


def test_the_story_is_replayed_once_per_finished_game(tmp_path, monkeypatch):
    from conquest_widget.games.japan_conquest import story

    calls = []
    monkeypatch.setattr(story, "game_story", lambda g: calls.append(g.state.snapshot()) or game_story(g))
    app = JapanConquestApp(save_dir=tmp_path / "saves")
    _cpu_game(app)
    first = app.controller._match.state.snapshot()
    app.set_lang("ja")
    app.set_lang("en")
    assert calls == [first]
    _button(app, "cw-play-again").click()  # a new game with the same setup: its own story
    assert app.screen == "results"
    assert len(calls) == 2 and calls[1] == app.controller._match.state.snapshot()
    app.close()
