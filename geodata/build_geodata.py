"""Build ``geodata/japan_prefectures.geojson`` and the board's label points.

Source: the ``japanmap`` 0.6.0 wheel from PyPI (Apache License 2.0, Saito Tsutomu),
which ships ``japanmap/japan.json``, a small topology of the main area of each of
the 47 prefectures.  The wheel is fetched with ``pip download`` and read as a zip
file; japanmap itself is never imported (its code needs OpenCV).

Steps:

1. Read the topology ``qp, qo``: ``qp[i] = [[lon, lat], flag]`` and ``qo[code - 1]``
   is the prefecture's boundary ring as a list of arcs ``[neighbour_code, [point
   indices]]`` (neighbour 0 = sea).  A border arc appears in both prefectures,
   with the same point indices in reverse order.
2. Simplify every arc ONCE (Douglas-Peucker via shapely, endpoints kept) and
   round its vertices to 5 decimals, then rebuild each ring from the simplified
   arcs.  Neighbouring prefectures therefore share exactly the same border
   vertices: no slivers, no gaps.
3. Repair self-intersecting rings with ``shapely.make_valid`` (keeping only the
   polygonal parts) and check: every geometry valid, no interior overlaps, every
   border arc still a shared boundary of positive length.
4. Write the GeoJSON (compact, RFC 7946 ring orientation) and a label point per
   prefecture (pole of inaccessibility of its largest part) into the ``label``
   field of ``conquest_widget/maps/japan/data/japan_board.json``.

Run from the repository root::

    .venv/bin/python geodata/build_geodata.py            # downloads the wheel
    .venv/bin/python geodata/build_geodata.py --source japanmap-0.6.0-py3-none-any.whl
    .venv/bin/python geodata/build_geodata.py --source path/to/japan.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from itertools import combinations
from pathlib import Path

import shapely
from shapely.geometry import LineString, MultiPolygon, Polygon, mapping
from shapely.ops import polylabel
from shapely.validation import explain_validity

REPO = Path(__file__).resolve().parents[1]
OUT_GEOJSON = REPO / "geodata" / "japan_prefectures.geojson"
BOARD_JSON = REPO / "conquest_widget" / "maps" / "japan" / "data" / "japan_board.json"

JAPANMAP_REQ = "japanmap==0.6.0"
WHEEL_NAME = "japanmap-0.6.0-py3-none-any.whl"
WHEEL_SHA256 = "71a7d3756cb1d438d9f2731660801548bc8b1b5e8b8fcb4dacc8b29300282056"
JSON_SHA256 = "e60d5d5180bc1e51d027de472bb41926845e5459891a6c1d6f1184679a333813"
MEMBER = "japanmap/japan.json"

TOLERANCE = 0.01  # degrees (~1 km); Douglas-Peucker tolerance per arc
DECIMALS = 5  # output coordinate precision (~1 m)
LABEL_DECIMALS = 4
LABEL_TOLERANCE = 1e-4  # polylabel precision, degrees
MAX_BYTES = 250_000
OVERLAP_AREA_MAX = 1e-9  # square degrees
SHARED_BORDER_MIN = 0.01  # degrees
MIN_AREA = 1e-6  # square degrees (~0.01 km2): smaller repair debris (parts, holes) is dropped


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load_topology(source: Path | None) -> tuple[list, list, str]:
    """Return ``(qp, qo, description)`` from a wheel, a japan.json, or PyPI."""
    if source is None:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", JAPANMAP_REQ, "-d", tmp]
            print("$", " ".join(cmd[2:]))
            subprocess.run(cmd, check=True)
            wheels = sorted(Path(tmp).glob("japanmap-*.whl"))
            if not wheels:
                sys.exit(f"pip download produced no japanmap wheel in {tmp}")
            return load_topology(wheels[0])
    data = source.read_bytes()
    if zipfile.is_zipfile(source):
        digest = sha256(data)
        if digest != WHEEL_SHA256:
            sys.exit(f"{source}: sha256 {digest} differs from the expected {WHEEL_SHA256} of {WHEEL_NAME}")
        with zipfile.ZipFile(source) as zf:
            raw = zf.read(MEMBER)
        desc = f"{source.name} (sha256 {digest})"
    else:
        raw = data
        desc = f"{source}"
    digest = sha256(raw)
    if digest != JSON_SHA256:
        print(f"warning: {MEMBER} sha256 {digest} differs from the expected {JSON_SHA256}")
    qp, qo = json.loads(raw)
    if len(qo) != 47:
        sys.exit(f"expected 47 prefectures in the topology, found {len(qo)}")
    return qp, qo, desc


def ring_arcs(qo: list) -> dict[int, list[tuple[int, list[int]]]]:
    """Per prefecture code, its ring as a list of ``(neighbour, point indices)`` arcs.

    Consecutive arcs share their junction point.  Where the source ring jumps
    from one arc's end to the next arc's start (it does once, on Shimane's
    coast), the gap is closed by extending the coastal arc to the junction.
    """
    rings: dict[int, list[tuple[int, list[int]]]] = {}
    for k, ring in enumerate(qo):
        arcs = [(int(nb), list(pts)) for nb, pts in ring]
        n = len(arcs)
        for i in range(n):
            nb, pts = arcs[i]
            nxt = arcs[(i + 1) % n][1]
            if n > 1 and pts[-1] != nxt[0]:
                if nb != 0:
                    sys.exit(f"prefecture {k + 1}: border arc to {nb} does not meet the next arc")
                pts.append(nxt[0])
        rings[k + 1] = arcs
    return rings


def arc_key(pts: list[int]) -> tuple[int, ...]:
    """Orientation-free key of an arc (the same for both prefectures using it)."""
    t = tuple(pts)
    return min(t, t[::-1])


def simplify_arc(coords: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Douglas-Peucker simplification of one arc, keeping both endpoints."""
    if len(coords) <= 2:
        return list(coords)
    if coords[0] == coords[-1]:
        # A closed arc (a whole coastline): simplify two halves so that the
        # ring's start point is kept and the result cannot collapse.
        mid = len(coords) // 2
        a = simplify_arc(coords[: mid + 1], tol)
        b = simplify_arc(coords[mid:], tol)
        return a + b[1:]
    out = list(LineString(coords).simplify(tol, preserve_topology=False).coords)
    if out[0] != tuple(coords[0]) or out[-1] != tuple(coords[-1]):
        raise AssertionError("simplification moved an arc endpoint")
    return out


def polygonal(geom) -> Polygon | MultiPolygon:
    """The polygonal parts of a geometry, as a Polygon or MultiPolygon.

    Parts and holes smaller than ``MIN_AREA`` (debris of repairing a ring that
    crosses itself) are dropped; the border checks in ``main`` make sure that
    this never opens a gap along a shared border.
    """
    parts: list[Polygon] = []
    stack = [geom]
    while stack:
        g = stack.pop()
        if isinstance(g, Polygon):
            if not g.is_empty and g.area >= MIN_AREA:
                holes = [r for r in g.interiors if Polygon(r).area >= MIN_AREA]
                parts.append(Polygon(g.exterior, holes))
        elif hasattr(g, "geoms"):
            stack.extend(g.geoms)
    if not parts:
        raise AssertionError("repair left no polygon")
    parts.sort(key=lambda p: -p.area)
    return parts[0] if len(parts) == 1 else MultiPolygon(parts)


def round_coords(obj):
    if isinstance(obj, float):
        r = round(obj, DECIMALS)
        return r + 0.0  # no "-0.0"
    if isinstance(obj, (list, tuple)):
        return [round_coords(x) for x in obj]
    return obj


def largest_part(geom) -> Polygon:
    return max(geom.geoms, key=lambda p: p.area) if isinstance(geom, MultiPolygon) else geom


def label_point(geom) -> list[float]:
    part = largest_part(geom)
    pt = polylabel(part, tolerance=LABEL_TOLERANCE)
    lab = [round(pt.x, LABEL_DECIMALS), round(pt.y, LABEL_DECIMALS)]
    if not geom.contains(shapely.Point(lab)):  # rounding pushed it out: fall back
        pt = part.representative_point()
        lab = [round(pt.x, LABEL_DECIMALS), round(pt.y, LABEL_DECIMALS)]
    assert geom.contains(shapely.Point(lab)), lab
    return lab


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, help="local japanmap wheel or japan.json (default: pip download)")
    ap.add_argument("--tolerance", type=float, default=TOLERANCE, help="simplification tolerance in degrees")
    args = ap.parse_args(argv)

    qp, qo, desc = load_topology(args.source)
    print(f"source: {desc}")
    coords = [(float(p[0][0]), float(p[0][1])) for p in qp]
    rings = ring_arcs(qo)

    # -- 1. simplify each arc once -----------------------------------------
    simplified: dict[tuple[int, ...], list[tuple[float, float]]] = {}
    users: dict[tuple[int, ...], set[int]] = {}
    for code, arcs in rings.items():
        for _nb, pts in arcs:
            key = arc_key(pts)
            users.setdefault(key, set()).add(code)
            if key not in simplified:
                simp = simplify_arc([coords[i] for i in key], args.tolerance)
                simplified[key] = [(round(x, DECIMALS), round(y, DECIMALS)) for x, y in simp]
    shared = {k for k, u in users.items() if len(u) == 2}
    if any(len(u) > 2 for u in users.values()):
        sys.exit("an arc is used by more than two prefectures")

    # -- 2. rebuild rings, repair -------------------------------------------
    board = json.loads(BOARD_JSON.read_text(encoding="utf-8"))
    by_code = {p["code"]: p for p in board["prefectures"]}
    geoms: dict[int, Polygon | MultiPolygon] = {}
    invalid_source: list[str] = []
    repaired: list[str] = []
    src_vertices = 0
    for code, arcs in rings.items():
        src_ring: list[int] = []
        ring: list[tuple[float, float]] = []
        for _nb, pts in arcs:
            key = arc_key(pts)
            seq = simplified[key] if tuple(pts) == key else simplified[key][::-1]
            ring.extend(seq if not ring else seq[1:])
            src_ring.extend(pts if not src_ring else pts[1:])
        src_vertices += len(src_ring)
        name = by_code[code]["name_en"]
        if not Polygon([coords[i] for i in src_ring]).is_valid:
            invalid_source.append(f"{code} {name}")
        poly = Polygon(ring)
        if not poly.is_valid:
            repaired.append(f"{code} {name} ({explain_validity(poly)})")
            poly = polygonal(shapely.make_valid(poly))
            # make_valid may add crossing nodes; put them on the output grid too
            poly = polygonal(shapely.set_precision(poly, 10.0**-DECIMALS))
        geoms[code] = shapely.orient_polygons(poly)  # RFC 7946: exterior counter-clockwise

    # -- 3. checks -----------------------------------------------------------
    problems: list[str] = []
    for code, g in geoms.items():
        if not g.is_valid or g.is_empty:
            problems.append(f"{code}: invalid or empty geometry")
        rounded = shapely.set_precision(g, 10.0**-DECIMALS, mode="pointwise")
        if not shapely.equals_exact(g, rounded, tolerance=0):
            problems.append(f"{code}: coordinates not on the {DECIMALS}-decimal grid")
    touching: set[tuple[int, int]] = set()
    for a, b in combinations(sorted(geoms), 2):
        ga, gb = geoms[a], geoms[b]
        if not ga.intersects(gb):
            continue
        area = ga.intersection(gb).area
        if area > OVERLAP_AREA_MAX:
            problems.append(f"{a}/{b}: interiors overlap (area {area:.2e})")
        if ga.boundary.intersection(gb.boundary).length > 0:
            touching.add((a, b))
    border_pairs = {tuple(sorted(users[k])) for k in shared}
    if touching != border_pairs:
        problems.append(f"touching pairs differ from the source borders: {sorted(touching ^ border_pairs)}")
    for a, b in sorted(border_pairs):
        length = geoms[a].boundary.intersection(geoms[b].boundary).length
        if length < SHARED_BORDER_MIN:
            problems.append(f"{a}/{b}: shared border only {length:.4f} deg long")
    for key in shared:  # each simplified border arc must lie on both prefectures' boundaries
        line = LineString(simplified[key])
        for code in users[key]:
            missing = line.difference(geoms[code].boundary).length
            if missing > 0:
                problems.append(f"{code}: border arc with {sorted(users[key])} not on its boundary ({missing:.2e} deg)")
    land = {(min(c["a"], c["b"]), max(c["a"], c["b"])) for c in board["connections"] if c["kind"] == "land"}
    if land != touching:
        problems.append(f"board land connections differ from touching pairs: {sorted(land ^ touching)}")
    if problems:
        sys.exit("checks failed:\n  " + "\n  ".join(problems))

    # -- 4. write --------------------------------------------------------------
    features = []
    for code in sorted(geoms):
        p = by_code[code]
        features.append(
            {
                "type": "Feature",
                "properties": {"code": code, "name_en": p["name_en"], "name_ja": p["name_ja"], "region": p["region"]},
                "geometry": round_coords(mapping(geoms[code])),
            }
        )
    fc = {"type": "FeatureCollection", "features": features}
    text = json.dumps(fc, ensure_ascii=False, separators=(",", ":")) + "\n"
    size = len(text.encode("utf-8"))
    if size >= MAX_BYTES:
        sys.exit(f"GeoJSON is {size} bytes, over the {MAX_BYTES} budget: raise --tolerance")
    OUT_GEOJSON.write_text(text, encoding="utf-8")

    for p in board["prefectures"]:
        p["label"] = label_point(geoms[p["code"]])
    BOARD_JSON.write_text(json.dumps(board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    # -- summary -----------------------------------------------------------
    src_unique = len({i for arcs in rings.values() for _nb, pts in arcs for i in pts})
    out_unique = len({xy for seq in simplified.values() for xy in seq})
    out_vertices = int(sum(shapely.get_num_coordinates(g) for g in geoms.values()))
    n_parts = sum(len(g.geoms) if isinstance(g, MultiPolygon) else 1 for g in geoms.values())
    print(f"tolerance: {args.tolerance} deg, coordinates rounded to {DECIMALS} decimals")
    print(f"arcs: {len(simplified)} ({len(shared)} shared borders, {len(simplified) - len(shared)} coasts)")
    print(f"vertices: unique {src_unique} -> {out_unique}; in rings {src_vertices} -> {out_vertices}")
    print(f"invalid source rings ({len(invalid_source)}): {', '.join(invalid_source) or '-'}")
    print(f"repaired simplified rings ({len(repaired)}): {'; '.join(repaired) or '-'}")
    print(f"features: {len(features)} ({n_parts} polygon parts), touching pairs: {len(touching)}")
    print(f"wrote {OUT_GEOJSON.relative_to(REPO)}: {size} bytes")
    print(f"wrote labels into {BOARD_JSON.relative_to(REPO)}")


if __name__ == "__main__":
    main()
