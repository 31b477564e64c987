"""wbk.table: sight checked against an independent brute force (segments from the firer's centre
to a grid of points over the target, each tested against every blocker), reach against hand
worked moves, and table files against every kind of mistake."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from wbk.errors import WbkError
from wbk.table import MAX_DIRECTIONS, MAX_INCHES, MAX_PIECES, Piece, Table, Terrain


def square(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def brute_visible_fraction(table: Table, firer: str, target: str, n: int = 40) -> float:
    """The share of an n × n grid of points over the target's footprint (cell centres, in the
    target's own frame) whose segment from the firer's centre crosses no blocker's interior."""
    a, b = table.piece(firer), table.piece(target)
    on_hill = [
        t
        for t in table.terrain
        if t.kind == "hill" and (t.polygon.covers(_pt(a)) or t.polygon.covers(_pt(b)))
    ]
    blockers = [p.footprint for p in table.pieces if p.name not in (a.name, b.name)]
    blockers += [
        t.polygon
        for t in table.terrain
        if t.kind == "obstacle" or (t.kind == "hill" and t not in on_hill)
    ]
    angle = math.radians(b.facing)
    along, across = (math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))
    seen = 0
    for i in range(n):
        for j in range(n):
            u = ((i + 0.5) / n - 0.5) * b.length
            v = ((j + 0.5) / n - 0.5) * b.width
            point = (
                b.position[0] + u * along[0] + v * across[0],
                b.position[1] + u * along[1] + v * across[1],
            )
            segment = LineString([a.position, point])
            if not any(segment.intersection(poly).length > 1e-9 for poly in blockers):
                seen += 1
    return seen / n**2


def _pt(piece):
    from shapely.geometry import Point

    return Point(piece.position)


def test_a_wall_half_way_hides_half():
    wall = Terrain("obstacle", square(11, 12, 13, 20), name="wall")
    table = Table(24, 24, terrain=[wall], pieces=[Piece("A", (4, 12)), Piece("B", (20, 12))])
    sight = table.line_of_sight("A", "B")
    assert sight.visible_fraction == pytest.approx(0.5, abs=1e-9)
    assert sight.in_cover and sight.has_los
    assert sight.hidden_by == (("obstacle 'wall'", pytest.approx(0.5, abs=1e-9)),)
    assert [s.rule for s in sight.steps] == ["line of sight"] * len(sight.steps)
    assert any("50% of 'B' is seen" in s.text for s in sight.steps)


def test_rough_terrain_does_not_block_and_pieces_do():
    woods = Terrain("rough", square(8, 0, 16, 24), name="woods")
    table = Table(24, 24, terrain=[woods], pieces=[Piece("A", (4, 12)), Piece("B", (20, 12))])
    assert table.line_of_sight("A", "B").visible_fraction == 1
    blocked = table.with_piece(Piece("wreck", (12, 12), facing=90))
    sight = blocked.line_of_sight("A", "B")
    assert not sight.has_los
    assert sight.hidden_by[0][0] == "'wreck'"


def test_a_hill_blocks_unless_a_tank_stands_on_it():
    hill = Terrain("hill", square(10, 6, 14, 18), name="Hill 112")
    table = Table(30, 24, terrain=[hill], pieces=[Piece("A", (4, 12)), Piece("B", (20, 12))])
    assert not table.line_of_sight("A", "B").has_los
    on_hill = table.with_piece(Piece("C", (12, 12)))
    assert on_hill.line_of_sight("C", "B").visible_fraction == 1  # the firer's hill
    assert on_hill.line_of_sight("A", "C").visible_fraction == 1  # the target's hill
    assert on_hill.hills_under("C") == (hill,)
    assert on_hill.hills_under("A") == ()


def test_distance_is_centre_to_centre():
    table = Table(24, 24, pieces=[Piece("A", (3, 4)), Piece("B", (6, 8))])
    assert table.distance("A", "B") == 5
    assert table.line_of_sight("A", "B").distance == 5


along_the_line, near_the_line = (
    st.floats(6, 24, allow_nan=False),
    st.floats(11, 19, allow_nan=False),
)


@settings(max_examples=30, deadline=None)
@given(
    along_the_line,
    near_the_line,
    st.floats(0, 360),
    along_the_line,
    near_the_line,
    st.floats(0, 180),
)
def test_sight_matches_the_brute_force(bx, by, bf, cx, cy, tf):
    """A firer, a target and one piece in between, anywhere: the exact visible fraction agrees
    with the brute force to within its grid's resolution."""
    pieces = [Piece("A", (3, 15)), Piece("B", (27, 15), facing=tf)]
    blocker = Piece("C", (bx, by), facing=bf)
    wall = Terrain("obstacle", ((cx, cy), (cx + 2, cy + 0.5), (cx + 1, cy + 3)), name="rock")
    assume(not any(blocker.footprint.intersects(p.footprint) for p in pieces))
    assume(not any(wall.polygon.intersects(p.footprint.buffer(0.01)) for p in [*pieces, blocker]))
    table = Table(30, 30, terrain=[wall], pieces=[*pieces, blocker])
    sight = table.line_of_sight("A", "B")
    assert 0 <= sight.visible_fraction <= 1
    assert sight.visible_fraction == pytest.approx(
        brute_visible_fraction(table, "A", "B", n=30), abs=0.07
    )
    # taking a blocker away never hides more
    assert (
        Table(30, 30, pieces=pieces).line_of_sight("A", "B").visible_fraction
        >= sight.visible_fraction
    )


# --- reach --------------------------------------------------------------------------------------


def test_reach_in_the_open_is_the_45_degree_sector():
    table = Table(48, 48, pieces=[Piece("A", (24, 10), facing=90)])
    reach = table.reach("A", 6, max_pivot=45)
    assert all(d.distance == pytest.approx(6) for d in reach.directions)
    assert reach.can_reach((24, 16))
    assert not reach.can_reach((24, 16.1))
    assert reach.can_reach(
        (24 + 4 * math.cos(math.radians(46)), 10 + 4 * math.sin(math.radians(46)))
    )
    assert not reach.can_reach(
        (24 + 4 * math.cos(math.radians(30)), 10 + 4 * math.sin(math.radians(30)))
    )
    # the fan of 91 directions is nearly the sector of radius 6 and 90 degrees
    assert reach.area.area == pytest.approx(math.pi * 36 / 4, rel=1e-3)


def test_reach_stops_at_obstacles_pieces_and_the_edge():
    house = Terrain("obstacle", square(20, 14, 28, 18), name="house")
    table = Table(
        48,
        20,
        terrain=[house],
        pieces=[Piece("A", (24, 10), facing=90), Piece("B", (30, 10), facing=90)],
    )
    reach = table.reach("A", 10, max_pivot=0, directions=2)
    assert reach.directions[0].distance == pytest.approx(14 - 1.25 - 10)
    assert reach.directions[0].stopped_by == "obstacle 'house'"
    to_b = table.reach("B", 10, max_pivot=0, directions=2)
    assert to_b.directions[0].distance == pytest.approx(20 - 1.25 - 10)
    assert to_b.directions[0].stopped_by == "the table edge"
    sideways = Table(
        48, 20, pieces=[Piece("A", (24, 10), facing=0), Piece("B", (30, 10), facing=90)]
    )
    d = sideways.reach("A", 10, max_pivot=0, directions=2).directions[0]
    assert d.distance == pytest.approx(30 - 0.75 - 1.25 - 24) and d.stopped_by == "'B'"


def test_reach_penalties_rough_once_and_hills_only_going_up():
    woods = Terrain("rough", square(0, 14, 48, 16), name="woods")
    table = Table(48, 48, terrain=[woods], pieces=[Piece("A", (24, 10), facing=90)])
    d = table.reach("A", 10, max_pivot=0, rough_cost=3, directions=2).directions[0]
    assert d.distance == pytest.approx(7) and d.penalties == ("rough 'woods' (3\")",)
    # 5" of allowance: the woods start 4" ahead and 4 + 3 > 5, so the tank stops at their edge
    d = table.reach("A", 5, max_pivot=0, rough_cost=3, directions=2).directions[0]
    assert d.distance == pytest.approx(4) and "cannot pay" in d.stopped_by
    # starting in rough terrain is charged as soon as the tank moves
    inside = Table(48, 48, terrain=[woods], pieces=[Piece("A", (24, 15), facing=90)])
    assert inside.reach("A", 10, max_pivot=0, rough_cost=3, directions=2).directions[
        0
    ].distance == pytest.approx(7)
    hill = Terrain("hill", square(0, 14, 48, 30), name="ridge")
    up = Table(48, 48, terrain=[hill], pieces=[Piece("A", (24, 10), facing=90)])
    assert up.reach("A", 10, max_pivot=0, climb_cost=3, directions=2).directions[
        0
    ].distance == pytest.approx(7)
    down = Table(48, 48, terrain=[hill], pieces=[Piece("A", (24, 25), facing=90)])
    assert down.reach("A", 10, max_pivot=0, climb_cost=3, directions=2).directions[
        0
    ].distance == pytest.approx(10)
    assert (
        not up.reach("A", 10, max_pivot=0, directions=2).directions[0].penalties
    )  # costs 0 by default


def test_a_pivot_that_would_hit_something_is_not_allowed():
    table = Table(
        48, 48, pieces=[Piece("A", (24, 10), facing=90), Piece("B", (25.6, 10), facing=90)]
    )
    reach = table.reach("A", 5, max_pivot=45)
    right = [d for d in reach.directions if d.angle < 90 - 30]
    assert right and all(d.stopped_by == "pivot" for d in right)
    assert any("cannot be turned to" in s.text for s in reach.steps)


@settings(max_examples=25, deadline=None)
@given(st.floats(5, 43), st.floats(5, 43), st.floats(0, 360), st.floats(0, 12))
def test_reach_grows_with_the_allowance(x, y, facing, inches):
    table = Table(48, 48, pieces=[Piece("A", (x, y), facing=facing)])
    small, large = (
        table.reach("A", inches, directions=19),
        table.reach("A", inches + 1, directions=19),
    )
    for a, b in zip(small.directions, large.directions, strict=False):
        assert a.distance <= b.distance + 1e-9
        assert a.distance <= inches + 1e-9


# --- table files --------------------------------------------------------------------------------

GOOD = """
name = "test"
size = [24, 24]

[[terrain]]
name = "house"
kind = "obstacle"
points = [[10, 10], [14, 10], [14, 14], [10, 14]]

[[tanks]]
name = "A"
side = "red"
class = "heavy"
gun = "long"
crew = "veteran"
hq = true
position = [4, 4]
facing = 90
"""


def test_a_generic_table_rejects_game_keys_and_bad_toml(tmp_path):
    with pytest.raises(WbkError, match=r"good\.toml: \[\[tanks\]\] 'A' class: unknown key"):
        Table.from_toml(GOOD, source="good.toml")
    with pytest.raises(WbkError, match=r"bad\.toml: not valid TOML"):
        Table.from_toml("size = [", source="bad.toml")
    with pytest.raises(WbkError, match=r"missing\.toml: cannot read the table"):
        Table.load(tmp_path / "missing.toml")


def test_reach_and_pieces_check_their_input():
    table = Table(24, 24, pieces=[Piece("A", (4, 4))])
    with pytest.raises(WbkError, match="point 'x'"):
        table.reach("A", 5).can_reach("x")
    assert Piece("A", (1, 1), facing=-90).facing == 270
    with pytest.raises(WbkError, match="piece name ''"):
        Piece("", (1, 1))


# --- writing table files --------------------------------------------------------------------------


def test_save_is_atomic_and_keeps_permissions(tmp_path, monkeypatch):
    import os
    import stat

    table = Table(24, 24, pieces=[Piece("A", (4, 4))], name="first")
    path = tmp_path / "t.toml"
    table.save(path)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    path.chmod(0o640)
    second = Table(24, 24, name="second")
    second.save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and Table.load(path).name == "second"

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(WbkError, match=r"cannot save the table \(No space left on device\)"):
        table.save(path)
    assert Table.load(path).name == "second"  # the old file is whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]  # no temporary file left


def test_save_names_the_bad_path_and_mixed_footprints(tmp_path):
    (tmp_path / "d.toml").mkdir()
    with pytest.raises(WbkError, match="is a folder"):
        Table(24, 24).save(tmp_path / "d.toml")
    with pytest.raises(WbkError, match=r"table file name 't\.txt' should end in \.toml"):
        Table(24, 24).save(tmp_path / "t.txt")
    with pytest.raises(WbkError, match="cannot save the table"):
        Table(24, 24).save(tmp_path / "missing" / "t.toml")
    mixed = Table(24, 24, pieces=[Piece("A", (4, 4)), Piece("B", (10, 10), width=2)])
    with pytest.raises(WbkError, match=r"different footprints \(1.5 × 2.5, 2 × 2.5\)"):
        mixed.to_toml()
    assert mixed.without_piece("B").to_toml().count("[[tanks]]") == 1


def test_the_hidden_part_of_the_target_is_kept_for_drawing():
    wall = Terrain("obstacle", square(11, 12, 13, 20), name="wall")
    table = Table(24, 24, terrain=[wall], pieces=[Piece("A", (4, 12)), Piece("B", (20, 12))])
    sight = table.line_of_sight("A", "B")
    target = table.footprint("B")
    assert sight.hidden.area == pytest.approx((1 - sight.visible_fraction) * target.area)
    assert target.buffer(1e-9).covers(sight.hidden)
    open_sight = Table(24, 24, pieces=[Piece("A", (4, 12)), Piece("B", (20, 12))]).line_of_sight(
        "A", "B"
    )
    assert open_sight.hidden.is_empty


def test_a_name_that_is_no_text_is_refused_before_anything_is_written(tmp_path):
    table = Table(24, 24, pieces=[Piece("A\ud800", (4, 4))])
    with pytest.raises(WbkError, match=r"'\\ud800' .* lone surrogate"):
        table.save(tmp_path / "t.toml")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "size", [(1e200, 1e200), (24, MAX_INCHES + 1)], ids=["1e200", "past MAX_INCHES"]
)
def test_absurd_table_sizes_are_refused_by_a_named_limit(size):
    with pytest.raises(WbkError, match=r"too large \(wbk\.table\.MAX_INCHES"):
        Table(*size)


def test_a_terrain_point_past_the_limit_is_refused():
    with pytest.raises(WbkError, match="terrain point 1e\\+20 is too large"):
        Terrain("obstacle", ((0, 0), (1e20, 0), (0, 1)))


def test_reach_samples_at_most_max_directions():
    table = Table(24, 24, pieces=[Piece("A", (12, 12))])
    assert len(table.reach("A", 6, directions=MAX_DIRECTIONS).directions) == MAX_DIRECTIONS
    with pytest.raises(
        WbkError, match=r"directions 1000000 is more than wbk\.table\.MAX_DIRECTIONS"
    ):
        table.reach("A", 6, directions=10**6)


LOW_WALL = Terrain("obstacle", square(11, 8, 12, 16), name="low wall", blocks_sight=False)


def test_a_low_wall_hides_nothing_as_marked_and_blocks_when_all_obstacles_do():
    table = Table(24, 24, terrain=[LOW_WALL], pieces=[Piece("A", (4, 12)), Piece("B", (20, 12))])
    as_marked = table.line_of_sight("A", "B")
    assert as_marked.visible_fraction == 1
    assert any("is seen over" in s.text for s in as_marked.steps)
    all_block = table.line_of_sight("A", "B", obstacle_sight="all_block")
    assert all_block.visible_fraction == 0
    assert all_block.hidden_by == (("obstacle 'low wall'", 1.0),)
    # it still stops a move: a low wall is an obstacle
    assert table.reach("A", 10, max_pivot=0, directions=2).directions[0].distance == (
        pytest.approx(11 - 4 - 1.25)
    )


def test_blocks_sight_round_trips_and_is_only_for_obstacles():
    table = Table(24, 24, terrain=[LOW_WALL, Terrain("obstacle", square(1, 1, 2, 2))])
    text = table.to_toml()
    assert text.count("blocks_sight = false") == 1
    assert Table.from_toml(text) == table
    assert Terrain("hill", square(1, 1, 2, 2)).blocks_sight is True
    assert Terrain("rough", square(1, 1, 2, 2)).blocks_sight is False
    with pytest.raises(WbkError, match="blocks_sight True on rough: only an obstacle"):
        Terrain("rough", square(1, 1, 2, 2), blocks_sight=True)
    with pytest.raises(WbkError, match="blocks_sight 'no' is not true or false"):
        Terrain("obstacle", square(1, 1, 2, 2), blocks_sight="no")


def test_rough_terrain_the_move_starts_in_is_charged_by_the_reading():
    wood = Terrain("rough", square(8, 8, 16, 16), name="wood")
    table = Table(24, 24, terrain=[wood], pieces=[Piece("A", (12, 12))])

    def farthest(reading):
        reach = table.reach("A", 9, max_pivot=0, rough_cost=3, directions=2, rough_charged=reading)
        return reach.directions[0].distance, reach.steps

    through, through_steps = farthest("moving_through")
    entering, entering_steps = farthest("entering")
    assert (through, entering) == (pytest.approx(6), pytest.approx(9))
    assert any('charged 3" as soon as it moves' in s.text for s in through_steps)
    assert any("driving out of it is free" in s.text for s in entering_steps)
    with pytest.raises(WbkError, match="rough terrain reading 'leaving'"):
        table.reach("A", 9, rough_charged="leaving")


def test_an_overlap_names_the_piece_put_down_first_to_a_tenth_of_an_inch():
    table = Table(48, 48, pieces=[Piece("Tiger", (30, 10))])
    with pytest.raises(WbkError) as error:
        table.with_piece(Piece("Panther", (30.000000000000004, 11)))
    assert str(error.value) == (
        "'Panther' at position [30.0, 11.0] overlaps 'Tiger' at position [30.0, 10.0]"
    )


def test_a_file_name_the_system_cannot_spell_is_refused_in_one_line(tmp_path):
    with pytest.raises(WbkError, match="is not a file name the system can spell"):
        Table(24, 24).save(tmp_path / "\ud800.toml")
    with pytest.raises(WbkError, match="is not a file name the system can spell"):
        Table.load(str(tmp_path / "\ud800.toml"))
    assert list(tmp_path.iterdir()) == []


def test_a_table_name_must_be_text():
    with pytest.raises(WbkError, match="table name 5 is not a string"):
        Table(24, 24, name=5)


def test_a_table_of_many_pieces_is_checked_piece_by_piece_near_each_other():
    grid = [Piece(f"T{i}", (2 + (i % 40) * 2.5, 2 + (i // 40) * 3)) for i in range(MAX_PIECES - 1)]
    table = Table(110, 110, pieces=grid)
    assert Table.from_toml(table.to_toml()) == table
    late = Piece("late", (2.5, 2))  # overlaps T0, put down last
    with pytest.raises(WbkError, match=r"'late' at position \[2\.5, 2\.0\] overlaps 'T0'"):
        table.with_piece(late)
    text = table.to_toml() + '\n[[tanks]]\nname = "late"\nposition = [2.5, 2]\n'
    with pytest.raises(WbkError, match=r"\[\[tanks\]\] 'late': 'late' at position"):
        Table.from_toml(text)


def test_more_pieces_than_max_pieces_are_refused():
    many = [Piece(f"T{i}", (1 + (i % 60) * 2, 2 + (i // 60) * 3)) for i in range(MAX_PIECES + 1)]
    with pytest.raises(
        WbkError, match=rf"{MAX_PIECES + 1} pieces is more than wbk\.table\.MAX_PIECES"
    ):
        Table(125, 60, pieces=many)
