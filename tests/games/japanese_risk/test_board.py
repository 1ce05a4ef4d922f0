"""The Japanese Risk board: the 47 prefectures, land borders and the 13 sea links of
``conquest_widget.maps.japan.board``; prefectures that meet only at a point are not adjacent
("armies cannot move diagonally across corners")."""

from __future__ import annotations

from itertools import combinations

import pytest

from conquest_widget.games.japanese_risk.engine import ADJ, CODES, SEA
from conquest_widget.maps.japan.board import japan
from conquest_widget.maps.japan.geo import prefecture_shapes


@pytest.fixture(scope="module")
def contacts():
    """Every pair of prefecture outlines that meet, with the length of their common border."""
    shapes = prefecture_shapes()
    out = {}
    for a, b in combinations(CODES, 2):
        if shapes[a].intersects(shapes[b]):
            out[(a, b)] = shapes[a].boundary.intersection(shapes[b].boundary).length
    return out


def test_engine_uses_the_board_graph():
    board = japan()
    assert len(CODES) == 47
    assert sum(len(ADJ[c]) for c in CODES) == 2 * len(board.connections)
    assert len(SEA) == 13 == sum(1 for c in board.connections if c.kind == "sea")


def test_land_adjacency_is_a_shared_border_of_positive_length(contacts):
    land = {(c.a, c.b) for c in japan().connections if c.kind == "land"}
    for pair in land:
        assert contacts.get(pair, 0.0) > 0.0, pair


def test_prefectures_meeting_only_at_a_point_are_not_adjacent(contacts):
    points = [pair for pair, length in contacts.items() if length == 0.0]
    for a, b in points:
        assert b not in ADJ[a], (a, b)
    # and every adjacency that is not a sea link is a real border
    for a in CODES:
        for b in ADJ[a]:
            if frozenset((a, b)) not in SEA:
                assert contacts[(min(a, b), max(a, b))] > 0.0


def test_sea_links_do_not_touch(contacts):
    for link in SEA:
        a, b = sorted(link)
        assert contacts.get((a, b), 0.0) == 0.0


def test_near_corner_prefectures_are_not_land_neighbours(contacts):
    """Ibaraki and Gunma nearly meet at a corner (the Watarase three-prefecture point) with no
    common border: not adjacent.  Any pair of outlines closer than 0.02 degrees without a common
    border is either not adjacent or a sea link."""
    shapes = prefecture_shapes()
    near = [(a, b) for a, b in combinations(CODES, 2)
            if shapes[a].distance(shapes[b]) < 0.02 and contacts.get((a, b), 0.0) == 0.0]
    assert (8, 10) in near and 10 not in ADJ[8]
    for a, b in near:
        assert b not in ADJ[a] or frozenset((a, b)) in SEA, (a, b)
