"""Prefecture map geometry for Japan Conquest.

The outlines come from ``japan_prefectures.geojson`` (built by
``geodata/build_geodata.py`` from the japanmap 0.6.0 topology; see
``geodata/README.md``): one feature per prefecture, main area only, lon/lat
(EPSG:4326).  Importing this module is cheap: the file is read on first use,
and geopandas is imported only by :func:`prefectures_gdf` (it comes with the
``explore`` extra: ``pip install "conquest_widget[explore]"``).

    >>> from conquest_widget.maps.japan import geo
    >>> gdf = geo.prefectures_gdf()
    >>> len(gdf), gdf.crs.to_epsg()
    (47, 4326)
    >>> tokyo = gdf.loc[13]
    >>> tokyo["name_en"], tokyo["region"], int(tokyo["base_value"])
    ('Tokyo', 'kanto', 50)
    >>> shapes = geo.prefecture_shapes()
    >>> shapes[27].geom_type, shapes[27].is_valid
    ('Polygon', True)
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from conquest_widget._optional import require
from conquest_widget.errors import DataFileError
from conquest_widget.maps.japan.board import japan

if TYPE_CHECKING:  # pragma: no cover
    import geopandas
    from shapely.geometry.base import BaseGeometry

__all__ = ["GEOJSON_NAME", "geojson_path", "prefecture_shapes", "prefectures_gdf"]

GEOJSON_NAME = "japan_prefectures.geojson"

#: Columns of :func:`prefectures_gdf`, in order.
COLUMNS = ("code", "name_en", "name_ja", "region", "region_name_en", "region_name_ja", "base_value", "geometry")


def geojson_path() -> Path:
    """Path of the prefecture GeoJSON file.

    Looks first in the installed package (``conquest_widget/maps/japan/data/``, where built
    wheels carry it), then in the source tree (``geodata/`` next to the package).

    >>> geojson_path().name
    'japan_prefectures.geojson'

    Raises :class:`~conquest_widget.errors.DataFileError` if neither file exists.
    """
    candidates: list[Path] = []
    try:
        packaged = resources.files("conquest_widget.maps.japan") / "data" / GEOJSON_NAME
        if isinstance(packaged, Path):
            candidates.append(packaged)
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - unusual importers
        pass
    candidates.append(Path(__file__).resolve().parents[3] / "geodata" / GEOJSON_NAME)
    for path in candidates:
        try:
            if path.is_file() and path.stat().st_size > 0:
                return path
        except OSError:  # pragma: no cover - e.g. permission denied on a parent
            continue
    raise DataFileError(
        f"prefecture geodata file {GEOJSON_NAME} not found (looked for "
        + " and ".join(str(p) for p in candidates)
        + "); rebuild it with `python geodata/build_geodata.py`"
    )


@cache
def _features() -> tuple[dict, ...]:
    """The GeoJSON features, parsed once and checked to be the 47 prefectures."""
    path = geojson_path()
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        features = tuple(doc["features"])
        codes = sorted(int(f["properties"]["code"]) for f in features)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise DataFileError(f"cannot read the prefecture geodata file {path}: {exc}") from exc
    if codes != list(range(1, 48)):
        raise DataFileError(f"prefecture geodata file {path} must have one feature per JIS code 1-47")
    return features


@cache
def _shapes() -> dict[int, BaseGeometry]:
    from shapely.geometry import shape

    path = geojson_path()
    try:
        return {int(f["properties"]["code"]): shape(f["geometry"]) for f in _features()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataFileError(f"malformed geometry in the prefecture geodata file {path}: {exc}") from exc


def prefecture_shapes() -> dict[int, BaseGeometry]:
    """Shapely geometry (Polygon or MultiPolygon, lon/lat) of each prefecture by JIS code.

    Read once and cached; the dict returned is a fresh copy (the geometries
    themselves are immutable shapely objects shared between calls).
    Needs only shapely, not geopandas.

    >>> shapes = prefecture_shapes()
    >>> sorted(shapes) == list(range(1, 48))
    True
    >>> shapes[1].bounds[0] > 139  # Hokkaido's western tip
    True
    """
    return dict(_shapes())


@cache
def _gdf() -> geopandas.GeoDataFrame:
    gpd = require("geopandas", extra="explore", feature="geo.prefectures_gdf()")

    board = japan()
    rows = []
    geoms = _shapes()
    for p in board.prefectures:
        r = board.regions[p.region]
        rows.append(
            {
                "code": p.code,
                "name_en": p.name_en,
                "name_ja": p.name_ja,
                "region": p.region,
                "region_name_en": r.name_en,
                "region_name_ja": r.name_ja,
                "base_value": p.base_value,
                "geometry": geoms[p.code],
            }
        )
    gdf = gpd.GeoDataFrame(rows, columns=list(COLUMNS), geometry="geometry", crs="EPSG:4326")
    gdf.index = gdf["code"].to_numpy()
    return gdf


def prefectures_gdf() -> geopandas.GeoDataFrame:
    """The 47 prefectures as a :class:`geopandas.GeoDataFrame` in EPSG:4326.

    Columns: ``code``, ``name_en``, ``name_ja``, ``region``, ``region_name_en``,
    ``region_name_ja``, ``base_value`` and ``geometry``; the index is the JIS code
    too, so ``gdf.loc[13]`` is Tokyo.  Names, regions and base values come from the
    board data (:func:`conquest_widget.maps.japan.board.japan`), the outlines from
    :func:`geojson_path`.  The frame is built once and cached; each call returns
    a copy, so changing it does not affect later calls.

    >>> gdf = prefectures_gdf()
    >>> list(gdf.columns)
    ['code', 'name_en', 'name_ja', 'region', 'region_name_en', 'region_name_ja', 'base_value', 'geometry']
    >>> gdf.loc[47, "name_ja"], gdf.loc[47, "region_name_en"]
    ('沖縄県', 'Kyushu & Okinawa')
    """
    return _gdf().copy()
