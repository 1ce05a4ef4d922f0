"""The Japan game graph: prefectures, regions, base values and connections."""

import json
from importlib import resources

import networkx as nx
import pytest

from conquest_widget.errors import (
    ConquestError,
    UnknownPrefectureError,
    UnknownRegionError,
)
from conquest_widget.maps.japan import board

SPECIAL_LINKS = {
    ("Hokkaido", "Aomori"), ("Hyogo", "Tokushima"), ("Okayama", "Kagawa"), ("Hiroshima", "Ehime"),
    ("Yamaguchi", "Fukuoka"), ("Ehime", "Oita"),
} | {(k, "Okinawa") for k in ("Fukuoka", "Saga", "Nagasaki", "Kumamoto", "Oita", "Miyazaki", "Kagoshima")}


def test_all_47_prefectures_with_codes_names_and_regions():
    b = board.japan()
    assert [p.code for p in b.prefectures] == list(range(1, 48))
    assert b.prefecture(1).name_ja == "北海道" and b.prefecture(13).name_ja == "東京都"
    assert b.prefecture(26).name_ja == "京都府" and b.prefecture(47).name_en == "Okinawa"
    assert len({p.name_en for p in b.prefectures}) == 47 and len({p.name_ja for p in b.prefectures}) == 47


def test_regions_exactly_as_the_seed():
    b = board.japan()
    counts = {r.name_en: len(r.members) for r in b.regions.values()}
    assert counts == {
        "Hokkaido & Tohoku": 7, "Kanto": 7, "Chubu": 9, "Kinki": 7, "Chugoku": 5, "Shikoku": 4, "Kyushu & Okinawa": 8,
    }
    members = [c for r in b.regions.values() for c in r.members]
    assert sorted(members) == list(range(1, 48))  # every prefecture in exactly one region
    assert board.region("四国").members == (36, 37, 38, 39)
    assert board.region("Kyushu & Okinawa").name_ja == "九州・沖縄"
    assert board.japan().region_of("Niigata").id == "chubu"


def test_base_values_follow_the_documented_population_rule():
    b = board.japan()
    data = json.loads(resources.files("conquest_widget.maps.japan").joinpath("data/japan_board.json").read_text("utf-8"))
    tiers = data["base_value_rule"]["tiers"]
    ranked = sorted(b.prefectures, key=lambda p: -p.population_2020)
    expected, i = {}, 0
    for t in tiers:
        for p in ranked[i : i + t["count"]]:
            expected[p.code] = t["value"]
        i += t["count"]
    assert {p.code: p.base_value for p in b.prefectures} == expected
    values = {p.base_value for p in b.prefectures}
    assert values <= set(range(10, 55, 5)) and min(values) == 10
    assert max(b.prefectures, key=lambda p: p.base_value).name_en == "Tokyo"
    assert [p.name_en for p in b.prefectures if p.base_value == 50] == ["Tokyo"]


def test_connections_are_86_land_borders_plus_13_special_sea_links():
    b = board.japan()
    land = [c for c in b.connections if c.kind == "land"]
    sea = [c for c in b.connections if c.kind == "sea"]
    assert len(land) == 86 and len(sea) == 13
    named = {(b.prefecture(c.a).name_en, b.prefecture(c.b).name_en) for c in sea}
    assert {tuple(sorted(p)) for p in named} == {tuple(sorted(p)) for p in SPECIAL_LINKS}
    assert board.connection("Tokyo", "Saitama").kind == "land"
    assert board.connection("Tokyo", "Osaka") is None
    assert len({(c.a, c.b) for c in b.connections}) == 99


def test_graph_is_connected_hokkaido_has_one_link_okinawa_seven():
    g = board.to_networkx()
    assert nx.is_connected(g)
    assert g.number_of_nodes() == 47 and g.number_of_edges() == 99
    assert list(g.neighbors(1)) == [2]
    assert g.degree[47] == 7
    assert g.nodes[13]["name_ja"] == "東京都" and g.edges[1, 2]["kind"] == "sea"


def test_neighbours_are_symmetric():
    b = board.japan()
    for code in b.codes:
        for n in b.neighbours(code):
            assert code in b.neighbours(n)


@pytest.mark.parametrize(
    "ref, code",
    [("Tokyo", 13), ("tokyo", 13), ("東京都", 13), ("東京", 13), ("京都", 26), ("京都府", 26), ("北海道", 1),
     ("  Osaka ", 27), ("大阪府", 27), (13, 13), ("13", 13), ("Ｏｓａｋａ", 27)],
)
def test_name_lookups_in_both_languages(ref, code):
    assert board.prefecture(ref).code == code


@pytest.mark.parametrize("ref", ["Atlantis", "", 0, 48, -1, "北海", None, 3.5, True])
def test_unknown_prefectures_raise_a_clear_error(ref):
    with pytest.raises(UnknownPrefectureError, match="unknown prefecture") as info:
        board.prefecture(ref)
    assert isinstance(info.value, ConquestError)
    assert repr(ref) in str(info.value)


def test_unknown_region_raises_a_clear_error():
    with pytest.raises(UnknownRegionError, match="unknown region 'Mars'.*Kanto"):
        board.region("Mars")


def test_engine_modules_import_no_widget_libraries():
    import subprocess
    import sys

    code = (
        "import sys, conquest_widget.maps.japan.board, conquest_widget.games.japan_conquest, conquest_widget.maps.japan.geo;"
        "bad=[m for m in ('ipywidgets','ipyleaflet','geopandas') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
