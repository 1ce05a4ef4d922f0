"""Tests of the prefecture geodata (geodata/japan_prefectures.geojson) and its loader."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon

from conquest_widget.errors import DataFileError
from conquest_widget.maps.japan import geo
from conquest_widget.maps.japan.board import japan

CODES = list(range(1, 48))
MAX_BYTES = 250_000
OVERLAP_AREA_MAX = 1e-9  # square degrees
SHARED_BORDER_MIN = 0.01  # degrees


@pytest.fixture(scope="module")
def shapes():
    return geo.prefecture_shapes()


@pytest.fixture(scope="module")
def raw():
    return json.loads(geo.geojson_path().read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def border_lengths(shapes):
    """Length of the common boundary of every pair of prefectures whose outlines meet."""
    out = {}
    for a, b in combinations(CODES, 2):
        if shapes[a].intersects(shapes[b]):
            out[(a, b)] = shapes[a].boundary.intersection(shapes[b].boundary).length
    return out


def connections(kind):
    return {(c.a, c.b) for c in japan().connections if c.kind == kind}


# -- the file --------------------------------------------------------------------


def test_file_is_small_compact_feature_collection(raw):
    path = geo.geojson_path()
    assert path.stat().st_size < MAX_BYTES
    text = path.read_text(encoding="utf-8")
    assert "\n " not in text and ", " not in text  # compact separators, no indent
    assert raw["type"] == "FeatureCollection"
    assert len(raw["features"]) == 47


def test_features_have_board_properties(raw):
    board = japan()
    props = sorted((f["properties"] for f in raw["features"]), key=lambda p: p["code"])
    assert [p["code"] for p in props] == CODES
    for p, pref in zip(props, board.prefectures, strict=True):
        assert isinstance(p["code"], int)
        assert (p["name_en"], p["name_ja"], p["region"]) == (pref.name_en, pref.name_ja, pref.region)


def test_coordinates_rounded_to_5_decimals(shapes):
    for code, g in shapes.items():
        xy = shapely.get_coordinates(g)
        assert (abs(xy * 1e5 - (xy * 1e5).round()) < 1e-6).all(), code


# -- geometry ------------------------------------------------------------------------


def test_all_geometries_valid_polygons_in_japan(shapes):
    assert sorted(shapes) == CODES
    for code, g in shapes.items():
        assert isinstance(g, (Polygon, MultiPolygon)), code
        assert g.is_valid and not g.is_empty and g.area > 0, code
        minx, miny, maxx, maxy = g.bounds
        assert minx > 122 and maxx < 154 and miny > 20 and maxy < 46, code  # lon/lat, not projected


def test_no_overlaps(shapes):
    for a, b in combinations(CODES, 2):
        if shapes[a].intersects(shapes[b]):
            area = shapes[a].intersection(shapes[b]).area
            assert area < OVERLAP_AREA_MAX, (a, b, area)


def test_touching_pairs_are_exactly_the_land_connections(border_lengths):
    touching = {pair for pair, length in border_lengths.items() if length > 0}
    land = connections("land")
    assert len(land) == 86
    assert touching == land, {"touching, not land": touching - land, "land, not touching": land - touching}


def test_sea_connections_do_not_touch(border_lengths):
    sea = connections("sea")
    assert len(sea) == 13
    for pair in sea:
        assert border_lengths.get(pair, 0.0) == 0.0, pair


def test_shared_borders_have_no_gaps(border_lengths):
    for pair in connections("land"):
        assert border_lengths[pair] > SHARED_BORDER_MIN, (pair, border_lengths[pair])


def test_shared_borders_have_identical_vertices(shapes):
    """Neighbours use the same vertices along their border (one simplified arc each)."""
    for a, b in connections("land"):
        common = shapes[a].boundary.intersection(shapes[b].boundary)
        va = {tuple(xy) for xy in shapely.get_coordinates(shapes[a].boundary)}
        vb = {tuple(xy) for xy in shapely.get_coordinates(shapes[b].boundary)}
        on_border = {tuple(xy) for xy in shapely.get_coordinates(common)}
        assert on_border <= va and on_border <= vb, (a, b)


def test_labels_lie_inside_their_prefecture(shapes):
    for p in japan().prefectures:
        assert p.label is not None, p.name_en
        assert shapes[p.code].contains(Point(p.label)), (p.code, p.name_en, p.label)


# -- the loader ----------------------------------------------------------------------


def test_prefectures_gdf_columns_and_values():
    gdf = geo.prefectures_gdf()
    assert list(gdf.columns) == list(geo.COLUMNS)
    assert gdf.crs.to_epsg() == 4326
    assert gdf["code"].tolist() == CODES
    assert gdf.index.tolist() == CODES
    board = japan()
    for p in board.prefectures:
        row = gdf.loc[p.code]
        assert row["base_value"] == p.base_value
        assert (row["name_en"], row["name_ja"], row["region"]) == (p.name_en, p.name_ja, p.region)
        region = board.regions[p.region]
        assert (row["region_name_en"], row["region_name_ja"]) == (region.name_en, region.name_ja)
    assert gdf.loc[13, "name_en"] == "Tokyo" and gdf.loc[13, "region_name_ja"] == "関東"


def test_prefectures_gdf_copies_are_independent():
    first = geo.prefectures_gdf()
    first.loc[13, "base_value"] = -1
    first["extra"] = 1
    first.loc[1, "geometry"] = Point(0, 0)
    first = first.drop(index=2)
    second = geo.prefectures_gdf()
    assert second.loc[13, "base_value"] == 50
    assert "extra" not in second.columns
    assert len(second) == 47
    assert second.loc[1, "geometry"].equals(geo.prefecture_shapes()[1])


def test_prefecture_shapes_copies_are_independent():
    first = geo.prefecture_shapes()
    first.clear()
    assert sorted(geo.prefecture_shapes()) == CODES


def test_missing_file_raises_data_file_error(monkeypatch):
    monkeypatch.setattr(geo, "GEOJSON_NAME", "no_such_file.geojson")
    with pytest.raises(DataFileError, match="no_such_file.geojson"):
        geo.geojson_path()


def test_import_is_lazy():
    code = "import sys, conquest_widget.maps.japan.geo; print('geopandas' in sys.modules)"
    root = Path(geo.__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == "False"
