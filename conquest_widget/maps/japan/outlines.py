"""The prefecture outlines the maps draw, and their compact text form for the page.

Both prefecture maps (Japanese Risk's :class:`~.prefecture_map.PrefectureMap` and Japan
Conquest's map view) draw the same outlines: the geodata's shapes simplified together
(``shapely.coverage_simplify``, which keeps shared borders shared: no gaps, no overlaps),
rounded to :data:`COORD_DECIMALS` decimals, as ipyleaflet ``locations`` ([lat, lon]).

The page gets them once per map from the map's painter, each ring as an *encoded
polyline* at the same precision (:class:`~conquest_widget.maps.painter.OutlinedPolygon`):
12.7 KB for the 47 outlines instead of 63.2 KB of JSON points.

    >>> ring = outline_locations(9)                 # Tochigi: one ring of [lat, lon]
    >>> len(ring) > 20 and all(len(p) == 2 and 35 < p[0] < 38 for p in ring)
    True
    >>> len(outline_locations(13))                 # Tokyo: two polygons (its mainland and an island)
    2
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from shapely.geometry import MultiPolygon, Polygon

from conquest_widget.maps.japan.geo import prefecture_shapes

__all__ = ["COORD_DECIMALS", "SIMPLIFY", "outline_locations"]

#: simplification of the outlines (shapely.coverage_simplify, which keeps shared borders
#: shared): 39% fewer points (5,530 -> 3,366), every area within 0.8%, the largest shift of a
#: border 0.12 degree (a thin cape)
SIMPLIFY = 0.025
#: decimals of the outlines sent to the browser: 0.001 degree is about 100 m, under a pixel up
#: to zoom 9 and about a pixel at the largest zoom (10)
COORD_DECIMALS = 3


def _ring(coords: Any) -> list[list[float]]:
    """A ring as [lat, lon] points, rounded, without repeated points.

    >>> _ring([(139.00011, 35.00004), (139.00014, 35.00001), (139.5, 35.2)])
    [[35.0, 139.0], [35.2, 139.5]]
    """
    points: list[list[float]] = []
    for lon, lat in coords:
        p = [round(lat, COORD_DECIMALS), round(lon, COORD_DECIMALS)]
        if not points or p != points[-1]:
            points.append(p)
    return points


def _locations(geom: Polygon | MultiPolygon) -> list:
    """ipyleaflet ``locations``: one ring, a polygon's rings, or a list of polygons."""
    polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
    parts = [[_ring(p.exterior.coords)] + [_ring(h.coords) for h in p.interiors] for p in polys]
    if len(parts) == 1:
        return parts[0] if len(parts[0]) > 1 else parts[0][0]
    return parts


@cache
def _all_locations() -> dict[int, list]:
    import shapely

    shapes = prefecture_shapes()
    codes = sorted(shapes)
    simplified = shapely.coverage_simplify([shapes[c] for c in codes], SIMPLIFY)
    return {c: _locations(g) for c, g in zip(codes, simplified, strict=True)}


def outline_locations(code: int) -> list:
    """Prefecture ``code``'s outline as ipyleaflet ``locations`` (a fresh copy)."""
    return copy.deepcopy(_all_locations()[code])
