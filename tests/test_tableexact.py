"""wbk.tableexact: numbers as written, distances and angles against the limits the rules state,
the ways a move takes to a point and the share of a target hidden, each checked against exact
arithmetic of the test's own (squares, dot and cross products, areas worked by hand)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wbk.table import Piece, Table, Terrain
from wbk.tableexact import (
    exact,
    hidden_share,
    inches_against,
    squared_distance,
    ways_to,
    within,
    within_pivot,
)


def square(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# --- numbers and distances ------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, number",
    [
        (2.3, Fraction(23, 10)),
        (0.1, Fraction(1, 10)),
        (np.float64(13.1), Fraction(131, 10)),
        (7, Fraction(7)),
        (Fraction(1, 3), Fraction(1, 3)),
        (1e-7, Fraction(1, 10**7)),
    ],
)
def test_a_coordinate_is_the_decimal_it_is_written_as(value, number):
    assert exact(value) == number


@pytest.mark.parametrize(
    "a, b, squared",
    [
        ((2.3, 2.7), (13.1, 17.1), 324),  # the medium gun's 18": issue 39, case 1
        ((3.1, 3.3), (4.9, 5.7), 9),  # the platoon's 3": case 2
        ((2.1, 2.7), (9.3, 12.3), 144),  # the rally's 12": case 3
        ((10, 5), (15.4, 12.2), 81),  # a heavy tank's 9": case 4
    ],
)
def test_the_issues_distances_are_exact(a, b, squared):
    assert squared_distance(a, b) == squared
    limit = math.isqrt(squared)
    assert within(squared_distance(a, b), limit)
    assert not within(squared_distance(a, (b[0], b[1] + 0.001)), limit)
    assert within(squared_distance(a, (b[0], b[1] - 0.001)), limit)


@pytest.mark.parametrize(
    "squared, limit, words",
    [
        (Fraction(324), 18, '18"'),
        (Fraction(1804, 100) ** 2, 18, '18.04"'),
        (Fraction(17_96, 100) ** 2, 18, '17.96"'),
        (Fraction(18_0001, 10_000) ** 2, 18, '18.0001"'),
        (Fraction(324) + Fraction(1, 10**15), 18, 'just over 18"'),
        (Fraction(324) - Fraction(1, 10**15), 18, 'just under 18"'),
        (Fraction(14**2), 18, '14"'),
        (Fraction(2335, 100) ** 2, 24, '23.4"'),  # rounds half to even, on the right side
        (Fraction(25, 4), 3, '2.5"'),
        (Fraction(9), 3, '3"'),
    ],
)
def test_a_distance_reads_as_its_limit_only_when_it_is_the_limit(squared, limit, words):
    assert inches_against(squared, limit) == words


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([3, 12, 18, 24]),
    st.integers(-(10**4), 10**4).filter(bool),
    st.integers(1, 10**6),
)
def test_the_words_of_a_distance_stand_on_its_side_of_the_limit(limit, step, scale):
    """A distance a hair either side of a limit is said on its side of it, never as it."""
    distance = limit + Fraction(step, scale * 10**4)
    words = inches_against(distance * distance, limit)
    assert words != f'{limit}"'
    if words.startswith("just "):
        assert words.startswith("just over" if distance > limit else "just under")
    else:
        said = Fraction(words.rstrip('"'))
        assert (said > limit) == (distance > limit) and said != limit


# --- angles ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "facing, edge",
    [(90, (6, 6)), (90, (-6, 6)), (0, (6, -6)), (180, (-6, 6)), (270, (6, -6)), (45, (0, 5))],
)
def test_the_pivot_includes_45_degrees_and_nothing_past(facing, edge):
    x, y = edge
    assert within_pivot((x, y), facing, 45)
    # a hundredth of an inch either way at the end of the limit's side
    turned = [(x + dx, y + dy) for dx in (-0.01, 0.01) for dy in (-0.01, 0.01)]
    inside = [v for v in turned if within_pivot(v, facing, 45)]
    assert 0 < len(inside) < 4


def _turned(vector, facing: int) -> tuple[Fraction, Fraction]:
    """The vector in the frame of a facing that is a multiple of 90: along it, then across."""
    x, y = (Fraction(v) for v in vector)
    along = {0: (x, y), 90: (y, -x), 180: (-x, -y), 270: (-y, x)}[facing]
    return along


@settings(max_examples=300, deadline=None)
@given(st.integers(-60, 60), st.integers(-60, 60), st.sampled_from([0, 90, 180, 270]))
def test_the_pivot_by_dot_and_cross_products(x, y, facing):
    """Points of whole tenths: within 45 degrees exactly when along ≥ |across|."""
    along, across = _turned((x / 10, y / 10), facing)
    assert within_pivot((x / 10, y / 10), facing, 45) == (along >= abs(across))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-90, 90),
    st.integers(-90, 90),
    st.decimals(0, 359, places=2, allow_nan=False),
    st.sampled_from([10, 30, 45, 60, 90, 120]),
)
def test_the_pivot_at_any_facing_agrees_with_the_angle_away_from_its_edge(x, y, facing, pivot):
    vector = (x / 10, y / 10)
    if vector == (0, 0):
        return
    off = math.degrees(math.atan2(vector[1], vector[0])) - float(facing)
    off = (off + 180) % 360 - 180
    if abs(abs(off) - pivot) > 1e-9:  # far from the edge, floating point can tell too
        assert within_pivot(vector, float(facing), pivot) == (abs(off) < pivot)


# --- ways to a point ------------------------------------------------------------------------

TRIPLES = [(3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29)]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(TRIPLES),
    st.integers(1, 6),
    st.sampled_from([(1, 1), (1, -1), (-1, 1), (-1, -1)]),
    st.booleans(),
    st.sampled_from([0, 90, 180, 270]),
    st.integers(4, 12),
    st.integers(-2, 2),
)
def test_a_move_in_the_open_reaches_exactly_the_sector(
    triple, tenths, signs, swap, facing, inches, hair
):
    """Points at an exact rational distance (a Pythagorean triple in tenths, its legs turned
    every way): reached when the distance is at most the allowance and the angle at most 45
    degrees, worked out here by squares and by the legs' sizes."""
    a, b, c = triple
    legs = (b, a) if swap else (a, b)
    dx, dy = (Fraction(signs[0] * legs[0] * tenths, 10), Fraction(signs[1] * legs[1] * tenths, 10))
    table = Table(200, 200, pieces=[Piece("A", (100, 100), facing=facing)])
    point = (float(100 + dx), float(100 + dy))
    allowance = Fraction(c * tenths, 10) + Fraction(hair, 100)  # the distance, a hair either way
    if allowance <= 0:
        return
    along, across = _turned((dx, dy), facing)
    expected = along >= abs(across) and Fraction(c * tenths, 10) <= allowance
    reach = table.reach("A", float(allowance), directions=5)
    assert reach.can_reach(point) == expected
    assert (
        table.reach("A", float(allowance), directions=5, pivot="at_start").can_reach(point)
        == expected
    )  # in the open a later pivot reaches nothing more


def test_touching_a_wall_or_the_table_edge_is_allowed_and_overlapping_it_is_not():
    def reaches(wall_x: float, start_x: float = 10) -> bool:
        wall = Terrain("obstacle", square(wall_x, 12, wall_x + 2, 20), name="wall")
        table = Table(48, 48, terrain=[wall], pieces=[Piece("A", (start_x, 10), facing=90)])
        return table.reach("A", 8).can_reach((start_x, 18))

    # the tank is 1.5" wide: its right side runs at x = 10.75
    assert reaches(10.75)  # the wall's face touches the side all the way
    assert not reaches(10.74)  # a hundredth of an inch into it
    assert reaches(10.76)
    edge = Table(48, 48, pieces=[Piece("A", (0.75, 10), facing=90)])
    assert edge.reach("A", 8).can_reach((0.75, 18))  # along the table's edge, touching it
    assert not edge.reach("A", 8).can_reach((0.74, 18))  # off it by a hundredth


@pytest.fixture
def marsh_table():
    marsh = Terrain("rough", square(34, 6, 44, 12), name="marsh")
    return Table(48, 48, terrain=[marsh], pieces=[Piece("T", (30, 8), facing=45)])


def test_a_path_through_a_corner_of_rough_ground_pays_nothing(marsh_table):
    """The crossroads' Tiger heading 45 degrees right passes the marsh's corner (34, 12)."""
    (way,) = ways_to(marsh_table, marsh_table.piece("T"), (35, 13), inches=12, rough_cost=3)
    assert way.penalties == 0 and way.legs[1] == 50  # √50 = 7.07"
    assert marsh_table.reach("T", 7.08, rough_cost=3).can_reach((35, 13))
    # a tenth to the right, the centre runs inside the marsh: 3" more
    inside = (35.1, 12.9)
    assert not marsh_table.reach("T", 7.08, rough_cost=3).can_reach(inside)
    way = ways_to(marsh_table, marsh_table.piece("T"), inside, inches=12, rough_cost=3)[0]
    assert way.before == 0 and way.penalties == 3 and way.charged == ("rough 'marsh' (3\")",)


def test_a_move_may_end_on_the_edge_of_rough_ground_free_and_pays_a_hair_inside():
    marsh = Terrain("rough", square(34, 6, 44, 12), name="marsh")
    table = Table(48, 48, terrain=[marsh], pieces=[Piece("T", (30, 9), facing=0)])
    assert table.reach("T", 4, rough_cost=3).can_reach((34, 9))  # the edge: 4" exactly
    assert not table.reach("T", 6.9, rough_cost=3).can_reach((34.01, 9))  # in: 4.01 + 3
    assert table.reach("T", 7.01, rough_cost=3).can_reach((34.01, 9))
    # along the edge, from outside: never inside, never charged
    along = Table(48, 48, terrain=[marsh], pieces=[Piece("T", (30, 12), facing=0)])
    assert along.reach("T", 8, rough_cost=3).can_reach((38, 12))


@pytest.mark.parametrize(
    "facing, point, pays",
    [(180, (30, 9), 0), (0, (38, 9), 3)],
)
def test_a_centre_on_an_edge_is_outside_the_piece(facing, point, pays):
    marsh = Terrain("rough", square(34, 6, 44, 12), name="marsh")
    table = Table(48, 48, terrain=[marsh], pieces=[Piece("T", (34, 9), facing=facing)])
    way = ways_to(table, table.piece("T"), point, inches=10, rough_cost=3)[0]
    assert way.before == 0 and way.penalties == pays


def test_a_later_pivot_clears_a_wall_that_blocks_the_pivot_at_the_start():
    """A wall along the tank's right side: turning right at the start would swing the tank
    into it; driving on past it and then turning is allowed ("pivot ... during their move")."""
    wall = Terrain("obstacle", square(10.75, 6, 12, 12), name="wall")
    table = Table(48, 48, terrain=[wall], pieces=[Piece("A", (10, 10), facing=90)])
    point = (14, 18)  # 4 right and 8 ahead: within 45 degrees, 8.94" away
    assert not table.reach("A", 12, pivot="at_start").can_reach(point)
    ways = table.reach("A", 12).ways(point)
    assert ways and all(w.before > 0 for w in ways)
    first = ways[0]
    # the way is longer than the straight line: the tenth-inch pivot place and two legs
    assert first.length > math.dist((10, 10), point)
    assert not table.reach("A", 9).can_reach(point)


# --- hidden shares --------------------------------------------------------------------------


def _shot_table(wall_points, target=(20.25, 12)):
    wall = Terrain("obstacle", wall_points, name="wall")
    return Table(24, 24, terrain=[wall], pieces=[Piece("A", (4, 12)), Piece("B", target)])


@pytest.mark.parametrize(
    "wall, share",
    [
        (square(11, 12, 13, 20), Fraction(1, 2)),  # the half of the target above y = 12
        (square(11, 4, 13, 20), Fraction(1)),
        # the wall's corner (14, 12.5) on the line from (4, 12) to the target's corner
        # (19, 12.75), the steepest to it: grazed
        (square(12, 12.5, 14, 20), Fraction(0)),
        (square(12, 12.49999, 14, 20), None),  # a hundred-thousandth lower: a sliver hidden
    ],
)
def test_hidden_shares_by_hand(wall, share):
    table = _shot_table(wall)
    found = hidden_share((4, 12), table.piece("B"), [table.terrain[0]])
    if share is None:
        assert 0 < found < Fraction(1, 1000)
    else:
        assert found == share


def test_a_grazed_corner_hides_nothing_on_the_table():
    grazed = _shot_table(square(12, 12.5, 14, 20)).line_of_sight("A", "B")
    assert grazed.all_seen and not grazed.in_cover and grazed.exact_visible == 1
    assert any("only touches the lines of sight" in s.text for s in grazed.steps)
    # a hundred-thousandth lower: a sliver of a billionth of a square inch, in cover
    hair = _shot_table(square(12, 12.49999, 14, 20)).line_of_sight("A", "B")
    assert hair.in_cover and 0 < 1 - hair.exact_visible < Fraction(1, 1000)
    assert any("wall" in s.text and "hides less than 1%" in s.text for s in hair.steps)
