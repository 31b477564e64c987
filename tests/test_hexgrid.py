import operator
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wbk.errors import WbkError
from wbk.hexgrid import Corner, Direction, Hex, Hexside, Trace, trace


def odd_q(col: int, row: int) -> Hex:
    """SS Panzer numbering (odd columns low), independent of wbk.maps."""
    return Hex(col, row - (col - (col & 1)) // 2)


def label(h: Hex) -> str:
    col = h.q
    return f"{col:02d}{h.r + (col - (col & 1)) // 2:02d}"


def side(a: str, b: str) -> Hexside:
    return Hexside(odd_q(int(a[:2]), int(a[2:])), odd_q(int(b[:2]), int(b[2:])))


def test_neighbours_in_printed_numbering():
    assert [label(n) for n in odd_q(19, 13).neighbors()] == [
        "1912",
        "2013",
        "2014",
        "1914",
        "1814",
        "1813",
    ]


def test_distance_and_rings():
    a = Hex(0, 0)
    assert a.distance(Hex(3, -1)) == 3
    assert a.distance(Hex(-2, 4)) == 4
    assert len(a.ring(3)) == 18
    assert {h.distance(a) for h in a.ring(3)} == {3}
    assert len(a.disk(3)) == 37
    with pytest.raises(WbkError, match="-1"):
        a.ring(-1)


def test_bad_cube_coordinates():
    with pytest.raises(WbkError, match=r"\(1, 1, 1\)"):
        Hex(1, 1, 1)


def test_hexside_is_unordered_and_needs_adjacent_hexes():
    a, b = Hex(0, 0), Hex(1, 0)
    assert Hexside(a, b) == Hexside(b, a)
    assert hash(Hexside(a, b)) == hash(Hexside(b, a))
    with pytest.raises(WbkError, match="not adjacent"):
        Hexside(a, Hex(2, 0))


def test_hexside_corners_are_shared_by_both_hexes():
    s = Hexside(Hex(0, 0), Hex(0, 1))
    for c in s.corners:
        assert set(s.hexes) <= set(c.hexes)
    assert {h for c in s.corners for h in c.hexes} - set(s.hexes) == {Hex(-1, 1), Hex(1, 0)}


def test_rotation_and_reflection():
    n = Direction.N.vector
    assert [n.rotated(k) for k in range(6)] == [d.vector for d in Direction]
    assert Direction.NE.vector.reflected() == Direction.NW.vector
    c = Hex(5, -2)
    assert (c + n).rotated(2, center=c) == c + Direction.SE.vector


def test_errata_9_4_hexside_spine_trace():
    t = trace(odd_q(19, 13), odd_q(17, 16))
    assert [label(h) for h in t.hexes] == ["1913", "1815", "1716"]
    assert t.along == (side("1814", "1914"), side("1715", "1816"))
    assert t.crossed == ()
    assert len(t.touched) == 4


def test_trace_through_hexside_midpoints():
    t = trace(odd_q(17, 12), odd_q(20, 14))
    assert t.crossed == (side("1712", "1813"), side("1813", "1913"), side("1913", "2014"))
    assert t.along == () and t.touched == ()


def test_red_blob_line_through_two_corners():
    t = trace(Hex(0, 0, 0), Hex(1, -5, 4))
    assert [h.cube for h in t.hexes] == [
        (0, 0, 0),
        (0, -1, 1),
        (0, -2, 2),
        (1, -3, 2),
        (1, -4, 3),
        (1, -5, 4),
    ]
    assert len(t.touched) == 2
    # through a corner straight into an adjacent hex: that hexside counts as crossed
    assert len(t.crossed) == 5
    assert t.touched[0] == Corner(Hex(0, -1, 1), Hex(0, -2, 2), Hex(1, -2, 1))


def test_trace_of_a_hex_to_itself():
    t = trace(Hex(2, 3), Hex(2, 3))
    assert t.hexes == (Hex(2, 3),) and t.crossed == t.along == t.touched == ()


coords = st.integers(-30, 30)
hexes = st.builds(Hex, coords, coords)


@given(hexes, hexes)
def test_reverse_trace_is_trace_reversed(a, b):
    assert trace(b, a) == trace(a, b).reversed()


@given(hexes, hexes)
def test_trace_invariants(a, b):
    t = trace(a, b)
    assert t.hexes[0] == a and t.hexes[-1] == b
    assert len(t.hexes) == len(set(t.hexes))
    # a line can zig-zag across more hexsides than the hex distance, never fewer
    assert len(t.crossed) + 2 * len(t.along) >= a.distance(b)
    assert len(t.hexes) == len(t.crossed) + len(t.along) + 1
    for (kind, item), (_, nxt) in zip(t.course, t.course[1:], strict=False):
        if kind == "cross":
            assert isinstance(nxt, Hex) and nxt in item
    runs_along = iter(t.along)
    for h, nxt in zip(t.hexes, t.hexes[1:], strict=False):
        if h.distance(nxt) == 2:  # only over a hexside the line runs along
            assert set(next(runs_along).hexes) == set(h.neighbors()) & set(nxt.neighbors())
        else:
            assert h.distance(nxt) == 1


def test_a_line_can_pass_more_hexes_than_its_length():
    t = trace(Hex(0, 0), Hex(1, 3))
    assert [h.cube[:2] for h in t.hexes] == [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (1, 3)]


def nearest_hexes(p: tuple[Fraction, Fraction, Fraction]) -> set[Hex]:
    """Every hex whose centre is nearest to the exact point p (more than one on a boundary)."""
    near = Hex(round(p[0]), round(p[1]))
    candidates = [near, *near.disk(2)]
    dist = {h: sum((c - x) ** 2 for c, x in zip(h.cube, p, strict=False)) for h in candidates}
    best = min(dist.values())
    return {h for h, d in dist.items() if d == best}


@given(hexes, hexes, st.integers(1, 60))
def test_every_sampled_point_of_the_line_lies_in_a_traced_hex(a, b, samples):
    t = trace(a, b)
    delta = b - a
    on_course = set(t.hexes) | {h for s in t.along for h in s.hexes}
    for k in range(samples + 1):
        f = Fraction(k, samples)
        p = (a.q + f * delta.q, a.r + f * delta.r, a.s + f * delta.s)
        nearest = nearest_hexes(p)
        assert nearest & on_course
        if len(nearest) == 1:
            assert nearest <= set(t.hexes)


@given(hexes, hexes)
def test_a_hexside_hashes_alike_however_it_was_made(a, b):
    """The tracer makes its hexsides on a fast path; a map looks them up by ``Hexside(a, b)``."""
    import pickle

    for side in trace(a, b).crossed + trace(a, b).along:
        made = Hexside(*side.hexes[::-1])
        assert made == side and hash(made) == hash(side)
        assert {side: 1}[made] == 1
        copied = pickle.loads(pickle.dumps(side))
        assert copied == side and hash(copied) == hash(side)


def test_fast_paths_make_the_same_hexes_as_the_constructor():
    a = Hex(5, -2)
    assert a.neighbors() == tuple(Hex(a.q + d.value[0], a.r + d.value[1]) for d in Direction)
    assert [hash(n) for n in a.neighbors()] == [hash(Hex(n.q, n.r)) for n in a.neighbors()]
    assert a + Hex(1, 2) == Hex(6, 0) and a - Hex(1, 2) == Hex(4, -4) and -a == Hex(-5, 2)
    assert a * 2 == 2 * a == Hex(10, -4)
    assert a.neighbor(Direction.S) == Hex(5, -1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: Hex(1.5, 2), "hex coordinate q 1.5 is not a whole number"),
        (lambda: Hex("1", 2), "hex coordinate q '1' is not a whole number"),
        (lambda: Hex(0, True), "hex coordinate r True is not a whole number"),
        (lambda: Hex(0, 0, "0"), "hex coordinate s '0' is not a whole number"),
        (lambda: Hex(0, 0) * 0.5, "factor 0.5 is not a whole number"),
        # operator.add, not "+": ruff's RUF005 would rewrite a hex plus a tuple as unpacking
        (lambda: operator.add(Hex(0, 0), (1, 0)), "cannot add (1, 0) to Hex(0, 0, 0)"),
        (lambda: Hex(0, 0).neighbor("N"), "direction 'N' is not a Direction"),
        (lambda: Direction((2, 0)), "direction (2, 0) is not a Direction"),
        (lambda: Hex(0, 0).ring(True), "ring radius True is not a whole number"),
        (lambda: Hex(0, 0).disk(-1), "disk radius -1 is not a whole number of 0 or more"),
        (lambda: Hex(0, 0).rotated(1.0), "rotation in sixths of a turn 1.0"),
        (lambda: Hexside(Hex(0, 0), "0001"), "hexside: second hex '0001' is not a Hex"),
        (lambda: Hexside(Hex(0, 0), Hex(0, 1)).other(Hex(5, 5)), "is not on either side"),
        (lambda: trace(Hex(0, 0), "1913"), "trace: end hex b '1913' is not a Hex"),
        (lambda: trace((0, 0), Hex(0, 0)), "trace: start hex a (0, 0) is not a Hex"),
    ],
)
def test_bad_arguments_are_named(call, message):
    with pytest.raises(WbkError, match=re.escape(message)):
        call()


def test_a_trace_made_by_hand_is_checked():
    good = trace(Hex(0, 0), Hex(2, 0))
    assert Trace(good.a, good.b, list(good.course)) == good
    with pytest.raises(WbkError, match="step 1"):
        Trace(good.a, good.b, (good.course[0], ("cross", Hex(1, 0)), *good.course[2:]))
    with pytest.raises(WbkError, match="must start with"):
        Trace(good.b, good.a, good.course)
    with pytest.raises(WbkError, match="not a sequence"):
        Trace(good.a, good.b, "hex")
