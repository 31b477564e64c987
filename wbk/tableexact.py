"""Exact measures on a table (``wbk.table``): where a distance or an angle meets a limit the
rules state, and whether a move can end at a point, decided in exact arithmetic. shapely's
floating point draws the pictures; these decide.

- A coordinate is the decimal it is written as (``exact``): a table file's 2.3 is 23/10, not
  the binary float nearest to it, so that (2.3, 2.7) and (13.1, 17.1) are 18" apart exactly.
  A number computed in a program is the shortest decimal that reads back as the same float.
- A distance meets a limit by its square (``squared_distance``, ``within``), never by a
  rounded root; ``inches_against`` writes a distance so that it reads as its limit only when
  it is the limit, and on the side of it where it is.
- An angle meets a limit by the signs of cross products (``within_pivot``): exactly, whatever
  the facing. At a multiple of 45 degrees the sides of the limit are exact directions; at any
  other facing no point of exact coordinates lies on them (Niven's theorem: a rational number
  of degrees has a rational tangent only at multiples of 45), so the sign is worked out to as
  many digits as it needs.
- A target's share hidden from a firer (``hidden_share``) is measured exactly where a verdict
  hangs on it (hidden or not, seen or not, half hidden or not): a line that grazes a corner or
  runs along an edge hides nothing.
- A move reaches a point when one of its ways there (``ways_to``) fits the allowance: within
  the pivot, its swept footprint on the table and overlapping no obstacle or tank, its length
  and the penalties of the pieces its centre runs into at most the allowance. Contact is
  decided exactly: touching an obstacle, a tank or the table's edge is allowed, overlapping
  is not; a centre on the edge of rough ground or a hill is outside it, and only a stretch of
  path inside a piece pays (a path along an edge, or through a corner, pays nothing). A tank
  facing a multiple of 90 degrees has exact corners; at another facing its corners are no
  decimals, and it blocks as shapely measures it (an overlap of a millionth of a square inch).

Public names: ``exact``, ``exact_point``, ``squared_distance``, ``within``, ``inches_against``,
``within_pivot``, ``inside``, ``Way``, ``ways_to``, ``hidden_share``, the pivot readings
``PIVOT_READINGS`` and the step of the pivots tried ``PIVOT_STEP``.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

from shapely.geometry import Polygon

from wbk.tableparts import AREA_TOLERANCE, _rectangle

__all__ = [
    "PIVOT_READINGS",
    "PIVOT_STEP",
    "Way",
    "exact",
    "exact_point",
    "hidden_share",
    "inches_against",
    "inside",
    "squared_distance",
    "ways_to",
    "within",
    "within_pivot",
]

#: When a moving piece may pivot: "during" (once, anywhere along its move: at the start, or
#: after driving straight on along its facing) or "at_start" (only before it drives).
PIVOT_READINGS = ("during", "at_start")
#: Inches between the places along a move where ``ways_to`` tries a later pivot (a tape
#: measure's tenth); each way tried is decided exactly.
PIVOT_STEP = Fraction(1, 10)

Point = tuple[Fraction, Fraction]

# --- numbers --------------------------------------------------------------------------------


def exact(value) -> Fraction:
    """The exact number a coordinate, a size or a limit stands for: a whole number or a fraction
    as it is, a float as the shortest decimal that reads back as it (what was typed: 2.3 is
    23/10, not the binary 2.29999...).

    >>> exact(2.3), exact(18)
    (Fraction(23, 10), Fraction(18, 1))
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    return Fraction(repr(float(value)))


def exact_point(point: Sequence) -> Point:
    """A point's two coordinates, each ``exact``."""
    return (exact(point[0]), exact(point[1]))


def squared_distance(a: Sequence, b: Sequence) -> Fraction:
    """The square of the distance between two points, exactly.

    >>> squared_distance((2.3, 2.7), (13.1, 17.1))
    Fraction(324, 1)
    """
    (ax, ay), (bx, by) = exact_point(a), exact_point(b)
    return (ax - bx) ** 2 + (ay - by) ** 2


def within(squared: Fraction, limit) -> bool:
    """Is a distance whose square is ``squared`` at most ``limit`` (the limit included)?"""
    return squared <= exact(limit) ** 2


def _root(squared: Fraction, digits: int = 30) -> Decimal:
    with localcontext() as context:
        context.prec = digits
        return (Decimal(squared.numerator) / Decimal(squared.denominator)).sqrt()


def _said(value: Fraction) -> str:
    return f'{value.numerator}"' if value.denominator == 1 else f'{float(value):g}"'


def inches_against(squared: Fraction, limit) -> str:
    """A distance (by its exact square) in inches, to a tenth as a tape measure reads it, but
    never reading as ``limit`` unless it is exactly the limit: more digits where a tenth would
    round it onto the limit or across it, "just over" or "just under" the limit past six.

    >>> inches_against(Fraction(324), 18), inches_against(Fraction(14 * 14), 18)
    ('18"', '14"')
    >>> inches_against(Fraction(18_04) ** 2 / 10_000, 18), inches_against(Fraction(3237, 10), 18)
    ('18.04"', '17.99"')
    """
    bound = exact(limit)
    if squared == bound * bound:
        return _said(bound)
    over = squared > bound * bound
    root = _root(squared)
    for places in range(1, 7):
        shown = root.quantize(Decimal(1).scaleb(-places))
        if (Fraction(shown) > bound) if over else (Fraction(shown) < bound):
            if places == 1 and shown == shown.to_integral_value():
                return f'{int(shown)}"'
            return f'{shown}"'
    return f"just {'over' if over else 'under'} {_said(bound)}"


def _sign(x) -> int:
    return (x > 0) - (x < 0)


def _sign_plus_root(r: Fraction, s: Fraction, d: Fraction) -> int:
    """The sign of r + s·√d (d ≥ 0), exactly."""
    if s == 0 or d == 0:
        return _sign(r)
    if r >= 0 and s > 0:
        return 1
    if r <= 0 and s < 0:
        return -1
    # opposite signs: the larger square wins
    return _sign(r) * _sign(r * r - s * s * d)


def _at_least_roots(r: Fraction, a: Fraction, b: Fraction) -> bool:
    """Is r ≥ √a + √b (a, b ≥ 0), exactly?"""
    if r < 0:
        return False
    if a == 0 or b == 0:
        return r * r >= a + b
    t = r * r - a - b
    return t >= 0 and t * t >= 4 * a * b


# --- angles ---------------------------------------------------------------------------------

#: cos and sin of each multiple of 45 degrees, up to the same positive factor.
_EIGHTHS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _pi(digits: int) -> Decimal:
    """π to ``digits`` digits (the ``decimal`` module's recipe)."""
    with localcontext() as context:
        context.prec = digits + 2
        three = Decimal(3)
        last, t, s, n, na, d, da = Decimal(0), three, three, 1, 0, 0, 24
        while s != last:
            last = s
            n, na = n + na, na + 8
            d, da = d + da, da + 32
            t = (t * n) / d
            s += t
    return s


def _cos_sin(degrees: Fraction, digits: int) -> tuple[Decimal, Decimal]:
    """cos and sin of ``degrees`` (from -180 to 180) to about ``digits`` digits (Taylor)."""
    with localcontext() as context:
        context.prec = digits + 10
        x = _pi(digits + 10) * Decimal(degrees.numerator) / Decimal(degrees.denominator) / 180
        cos = sin = Decimal(0)
        term, n = Decimal(1), 0
        while abs(term) > Decimal(10) ** -(digits + 8):
            if n % 2 == 0:
                cos += term if n % 4 == 0 else -term
            else:
                sin += term if n % 4 == 1 else -term
            n += 1
            term = term * x / n
        return cos, sin


def _sign_cos_sin(a: Fraction, b: Fraction, degrees: Fraction) -> int:
    """The sign of a·cos + b·sin of ``degrees``, exactly."""
    if a == 0 and b == 0:
        return 0
    turned = degrees % 360
    if turned % 45 == 0:
        c, s = _EIGHTHS[int(turned // 45)]
        return _sign(a * c + b * s)
    # never 0 here (Niven): digits enough to be sure of the sign
    turned = turned - 360 if turned > 180 else turned
    digits = 40
    while digits <= 1280:
        cos, sin = _cos_sin(turned, digits)
        with localcontext() as context:
            context.prec = digits + 10
            da = Decimal(a.numerator) / a.denominator
            db = Decimal(b.numerator) / b.denominator
            value = da * cos + db * sin
            error = (abs(da) + abs(db) + 1) * Decimal(10) ** -(digits - 2)
        if abs(value) > error:
            return _sign(value)
        digits *= 2
    return 0  # past every number a table can hold: on the limit's edge


def within_pivot(vector: Sequence, facing, max_pivot) -> bool:
    """Is the direction of ``vector`` at most ``max_pivot`` degrees either way from ``facing``
    (degrees counterclockwise from +x), the limit included? The vector (0, 0) always is.

    >>> [within_pivot(v, 90, 45) for v in ((5.4, 7.2), (6, 6), (6.1, 6))]
    [True, True, False]
    """
    vx, vy = exact_point(vector)
    if vx == 0 and vy == 0:
        return True
    facing, pivot = exact(facing) % 360, exact(max_pivot)
    if pivot >= 180:
        return True
    left = _sign_cos_sin(vy, -vx, facing - pivot) >= 0  # anticlockwise of the right limit
    right = _sign_cos_sin(-vy, vx, facing + pivot) >= 0  # clockwise of the left limit
    return (left and right) if pivot <= 90 else (left or right)


def _unit(degrees: Fraction) -> Point:
    """A unit vector along ``degrees``: exact at multiples of 90, elsewhere to 40 digits."""
    turned = degrees % 360
    if turned % 90 == 0:
        c, s = _EIGHTHS[int(turned // 45)]
        return (Fraction(c), Fraction(s))
    cos, sin = _cos_sin(turned - 360 if turned > 180 else turned, 40)
    return (Fraction(cos), Fraction(sin))


# --- ways to a point ------------------------------------------------------------------------


@dataclass(frozen=True)
class Way:
    """A way a piece's centre takes to a point: ``before`` inches straight on along its facing
    (0: it pivots at the start), one pivot, then straight to the point. ``legs`` are the two
    straight stretches' squared lengths, ``charged`` the pieces its centre runs into (each
    once, with its penalty) and ``penalties`` their total."""

    before: Fraction
    legs: tuple[Fraction, Fraction]
    penalties: Fraction
    charged: tuple[str, ...] = ()

    def allows(self, inches) -> bool:
        """Does a move of ``inches`` cover this way: its length and penalties within it?"""
        return _at_least_roots(exact(inches) - self.penalties, *self.legs)

    @property
    def length(self) -> float:
        """The way's length in inches (for words; ``allows`` decides)."""
        return math.sqrt(self.legs[0]) + math.sqrt(self.legs[1])


def ways_to(
    table,
    piece,
    point: Sequence,
    *,
    inches,
    max_pivot=45,
    rough_cost=0,
    climb_cost=0,
    rough_charged: str = "moving_through",
    pivot: str = "during",
) -> tuple[Way, ...]:
    """The ways ``piece``'s centre can take on ``table`` to ``point`` in a move of at most
    ``inches`` (see ``wbk.table.Table.reach`` for the model; the start itself is a way of no
    length). The first is the pivot at the start, when it is clear; under ``pivot="during"``,
    later pivots follow, tried every ``PIVOT_STEP`` inches straight on along the facing, while
    the first way is blocked or pays a penalty (in the open a later pivot reaches nothing the
    pivot at the start does not, and by a longer way).

    Each way is decided exactly (see the module); ``Way.allows(inches)`` says whether a move of
    so many inches covers it."""
    start, end = exact_point(piece.position), exact_point(point)
    if start == end:
        return (Way(Fraction(0), (Fraction(0), Fraction(0)), Fraction(0)),)
    if not within_pivot((end[0] - start[0], end[1] - start[1]), piece.facing, max_pivot):
        return ()
    scene = _Scene(table, piece, exact(rough_cost), exact(climb_cost), rough_charged)
    ways = []
    first = scene.way(start, start, end, Fraction(0))
    if first is not None:
        ways.append(first)
    if pivot == "at_start" or (first is not None and not first.penalties):
        return tuple(ways)
    along = _unit(exact(piece.facing))
    most = exact(inches)
    k = 1
    while k * PIVOT_STEP <= most:
        turn = (start[0] + k * PIVOT_STEP * along[0], start[1] + k * PIVOT_STEP * along[1])
        offset = (end[0] - turn[0], end[1] - turn[1])
        if not within_pivot(offset, piece.facing, max_pivot) or not scene.leg_clear(start, turn):
            break  # the point falls behind the pivot's limits, or the way on is blocked
        way = scene.way(start, turn, end, k * PIVOT_STEP, checked=True)
        if way is not None:
            ways.append(way)
            if not way.penalties:
                break  # no later pivot is shorter
        k += 1
    return tuple(ways)


def _corners(piece) -> tuple[Point, ...] | None:
    """A piece's footprint's corners, exactly, when it faces a multiple of 90 degrees."""
    facing = exact(piece.facing) % 360
    if facing % 90:
        return None
    x, y = exact_point(piece.position)
    half_l, half_w = exact(piece.length) / 2, exact(piece.width) / 2
    if facing % 180:
        half_l, half_w = half_w, half_l
    return (
        (x - half_l, y - half_w),
        (x + half_l, y - half_w),
        (x + half_l, y + half_w),
        (x - half_l, y + half_w),
    )


def _cross(ax, ay, bx, by) -> Fraction:
    return ax * by - ay * bx


class _Scene:
    """What a moving piece meets on a table, in exact numbers where they are exact: the table's
    edge, the obstacles and tanks that block it, the rough ground and hills that cost."""

    def __init__(
        self, table, piece, rough_cost: Fraction, climb_cost: Fraction, rough_charged: str
    ):
        self.width, self.depth = exact(table.width), exact(table.depth)
        self.half_length, self.half_width = exact(piece.length) / 2, exact(piece.width) / 2
        self.size = (float(piece.width), float(piece.length))
        self.solid: list[tuple[Point, ...]] = []
        self.shapes: list[Polygon] = []  # tanks whose corners are no decimals
        for other in table.pieces:
            if other.name == piece.name:
                continue
            corners = _corners(other)
            if corners is None:
                self.shapes.append(other.footprint)
            else:
                self.solid.append(corners)
        self.costly: list[tuple[tuple[Point, ...], Fraction, str, bool]] = []
        for t in table.terrain:
            points = tuple(exact_point(p) for p in t.points)
            if t.kind == "obstacle":
                self.solid.append(points)
            elif t.kind == "rough" and rough_cost:
                self.costly.append((points, rough_cost, t.label, rough_charged == "entering"))
            elif t.kind == "hill" and climb_cost:
                self.costly.append((points, climb_cost, t.label, True))

    def way(
        self, start: Point, turn: Point, end: Point, before: Fraction, checked: bool = False
    ) -> Way | None:
        """The way straight from ``start`` to ``turn`` (``before`` inches on), then to ``end``,
        or None if blocked (``checked``: the first stretch is known to be clear)."""
        legs = [(a, b) for a, b in ((start, turn), (turn, end)) if a != b]
        if not all(self.leg_clear(a, b) for a, b in legs[1 if checked else 0 :]):
            return None
        charged, penalties = [], Fraction(0)
        for points, cost, label, entering_only in self.costly:
            stretches = [s for a, b in legs for s in _stretches_inside(a, b, points)]
            if any(not started_inside or not entering_only for started_inside in stretches):
                charged.append(f"{label} ({_said(cost)})")
                penalties += cost
        squared = [(b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2 for a, b in ((start, turn), (turn, end))]
        return Way(before, (squared[0], squared[1]), penalties, tuple(charged))

    def leg_clear(self, a: Point, b: Point) -> bool:
        """Can the piece drive straight from ``a`` to ``b`` (its footprint along the way, turned
        to the way first): on the table, overlapping no obstacle or tank (touching is allowed)?"""
        vx, vy = b[0] - a[0], b[1] - a[1]
        squared = vx * vx + vy * vy
        if not self._on_table(a, b, vx, vy, squared):
            return False
        box = self._bounds(a, b)
        for polygon in self.solid:
            if _bounds_meet(box, polygon) and _overlaps(
                polygon, a, vx, vy, squared, self.half_length, self.half_width
            ):
                return False
        if self.shapes:
            angle = math.degrees(math.atan2(vy, vx))
            swept = _rectangle(
                (float(b[0]), float(b[1])), angle, *self.size, behind=math.sqrt(squared)
            )
            if any(swept.intersection(s).area > AREA_TOLERANCE for s in self.shapes):
                return False
        return True

    def _bounds(self, a: Point, b: Point) -> tuple[float, float, float, float]:
        reach = float(self.half_length + self.half_width)
        xs, ys = (float(a[0]), float(b[0])), (float(a[1]), float(b[1]))
        return (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)

    def _on_table(self, a: Point, b: Point, vx, vy, squared) -> bool:
        """Does the footprint swept from ``a`` to ``b`` stay on the table (its edge counts)?"""
        for end, along in ((a, -self.half_length), (b, self.half_length)):
            for across in (-self.half_width, self.half_width):
                # the corner is end + (ox, oy) / length
                ox, oy = along * vx - across * vy, along * vy + across * vx
                for offset, at, top in ((ox, end[0], self.width), (oy, end[1], self.depth)):
                    if _sign_plus_root(offset, at, squared) < 0:
                        return False
                    if _sign_plus_root(-offset, top - at, squared) < 0:
                        return False
        return True


def _bounds_meet(box: tuple[float, float, float, float], polygon: tuple[Point, ...]) -> bool:
    xs, ys = [float(p[0]) for p in polygon], [float(p[1]) for p in polygon]
    return box[0] <= max(xs) and min(xs) <= box[2] and box[1] <= max(ys) and min(ys) <= box[3]


def _overlaps(polygon, a: Point, vx, vy, squared, half_length, half_width) -> bool:
    """Does the polygon's inside meet the inside of the rectangle swept from ``a`` along
    (vx, vy): ``half_length`` before and past it, ``half_width`` either side? True exactly
    when an edge of the polygon passes inside the swept rectangle (touching is not enough)."""

    def measures(p: Point) -> tuple[Fraction, Fraction]:
        dx, dy = p[0] - a[0], p[1] - a[1]
        return (vx * dx + vy * dy, _cross(vx, vy, dx, dy))

    # each side of the swept rectangle, as r(p) + s·length > 0 inside: r linear in p
    def sides(along: Fraction, across: Fraction) -> tuple[tuple[Fraction, Fraction], ...]:
        return (
            (along, half_length),
            (squared - along, half_length),
            (-across, half_width),
            (across, half_width),
        )

    for i, p0 in enumerate(polygon):
        p1 = polygon[(i + 1) % len(polygon)]
        here, there = sides(*measures(p0)), sides(*measures(p1))
        # the edge's points p0 + t (p1 - p0), t in [0, 1], inside every side: t between bounds
        low, high = (Fraction(0), Fraction(0)), (Fraction(1), Fraction(0))
        empty = False
        for (r0, s), (r1, _) in zip(here, there, strict=True):
            step = r1 - r0
            if step == 0:
                if _sign_plus_root(r0, s, squared) <= 0:
                    empty = True
                    break
                continue
            bound = (-r0 / step, -s / step)  # t = bound[0] + bound[1]·length
            if step > 0 and _sign_plus_root(bound[0] - low[0], bound[1] - low[1], squared) > 0:
                low = bound
            elif step < 0 and _sign_plus_root(bound[0] - high[0], bound[1] - high[1], squared) < 0:
                high = bound
        if not empty and _sign_plus_root(high[0] - low[0], high[1] - low[1], squared) > 0:
            return True
    return False


def _side(a: Point, b: Point, p: Point) -> int:
    return _sign(_cross(b[0] - a[0], b[1] - a[1], p[0] - a[0], p[1] - a[1]))


def _on_edge(a: Point, b: Point, p: Point) -> bool:
    return (
        _side(a, b, p) == 0
        and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
    )


def inside(terrain, point: Sequence) -> bool:
    """Is ``point`` inside the terrain piece (its ``points``), not on its edge, exactly?"""
    return _inside(tuple(exact_point(p) for p in terrain.points), exact_point(point))


def _inside(polygon: tuple[Point, ...], p: Point) -> bool:
    """Is ``p`` inside the polygon, not on its edge?"""
    crossings = 0
    for i, a in enumerate(polygon):
        b = polygon[(i + 1) % len(polygon)]
        if _on_edge(a, b, p):
            return False
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if x > p[0]:
                crossings += 1
    return crossings % 2 == 1


def _stretches_inside(a: Point, b: Point, polygon: tuple[Point, ...]) -> list[bool]:
    """The stretches of the segment from ``a`` to ``b`` that run inside the polygon (not along
    its edge), in order: for each, whether it starts inside (True: the segment starts in the
    polygon) or crosses in from its edge (False)."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    squared = vx * vx + vy * vy
    cuts = {Fraction(0), Fraction(1)}
    for i, e0 in enumerate(polygon):
        e1 = polygon[(i + 1) % len(polygon)]
        wx, wy = e1[0] - e0[0], e1[1] - e0[1]
        gx, gy = e0[0] - a[0], e0[1] - a[1]
        denominator = _cross(vx, vy, wx, wy)
        if denominator:
            t, u = _cross(gx, gy, wx, wy) / denominator, _cross(gx, gy, vx, vy) / denominator
            if 0 <= t <= 1 and 0 <= u <= 1:
                cuts.add(t)
        elif _cross(gx, gy, vx, vy) == 0:  # along the edge's line: its ends cut
            for e in (e0, e1):
                t = ((e[0] - a[0]) * vx + (e[1] - a[1]) * vy) / squared
                if 0 <= t <= 1:
                    cuts.add(t)
    ordered = sorted(cuts)
    found = []
    for t0, t1 in itertools.pairwise(ordered):
        middle = (t0 + t1) / 2
        if _inside(polygon, (a[0] + middle * vx, a[1] + middle * vy)):
            found.append(_inside(polygon, (a[0] + t0 * vx, a[1] + t0 * vy)))
    return found


# --- sight ----------------------------------------------------------------------------------


def hidden_share(source: Sequence, target, blockers: Sequence) -> Fraction | None:
    """The share of ``target``'s footprint (a piece) hidden from ``source`` by ``blockers``
    (pieces and terrain pieces), exactly: a point of the footprint is hidden when the segment
    to it from ``source`` meets the inside of a blocker (or the point is inside one), so that a
    line grazing a corner or an edge hides nothing. None when a footprint's corners are no
    decimals (a tank at a facing that is not a multiple of 90 degrees) or ``source`` lies in or
    on a blocker: then only floating point measures it."""
    eye = exact_point(source)
    seen = _corners(target)
    if seen is None:
        return None
    shadows = []
    for blocker in blockers:
        polygon = _exact_shape(blocker)
        if polygon is None:
            return None
        triangles = _triangles(polygon)
        if sum((_area(t) for t in triangles), Fraction(0)) != _area(polygon):
            return None  # a corner the ears cannot be cut around: floating point measures it
        for triangle in triangles:
            if _in_or_on_triangle(triangle, eye):
                return None
            part = _clipped(list(seen), _shadow_sides(eye, triangle))
            if len(part) >= 3 and _area(part) > 0:
                shadows.append(part)
    return _union_area(shadows) / _area(list(seen))


def _exact_shape(blocker) -> tuple[Point, ...] | None:
    """A blocker's corners, anticlockwise, in exact numbers (None: they are no decimals)."""
    if hasattr(blocker, "points"):
        polygon = tuple(exact_point(p) for p in blocker.points)
    else:
        corners = _corners(blocker)
        if corners is None:
            return None
        polygon = corners
    return polygon if _area(list(polygon), signed=True) > 0 else polygon[::-1]


def _area(polygon: Sequence[Point], signed: bool = False) -> Fraction:
    doubled = sum(
        (_cross(*a, *b) for a, b in zip(polygon, [*polygon[1:], polygon[0]], strict=True)),
        Fraction(0),
    )
    return doubled / 2 if signed else abs(doubled) / 2


def _orient(a: Point, b: Point, p: Point) -> Fraction:
    return _cross(b[0] - a[0], b[1] - a[1], p[0] - a[0], p[1] - a[1])


def _triangles(polygon: tuple[Point, ...]) -> list[tuple[Point, Point, Point]]:
    """An anticlockwise simple polygon cut into anticlockwise triangles (ear clipping)."""
    left = [
        p
        for i, p in enumerate(polygon)
        if _orient(polygon[i - 1], p, polygon[(i + 1) % len(polygon)]) != 0
    ]
    found = []
    while len(left) > 3:
        for i, b in enumerate(left):
            a, c = left[i - 1], left[(i + 1) % len(left)]
            if _orient(a, b, c) <= 0:
                continue  # a reflex corner is no ear
            if any(_in_or_on_triangle((a, b, c), p) for p in left if p not in (a, b, c)):
                continue
            found.append((a, b, c))
            del left[i]
            break
        else:  # no ear left: only collinear corners remain
            return found
    if len(left) == 3 and _orient(*left) > 0:
        found.append((left[0], left[1], left[2]))
    return found


def _in_or_on_triangle(triangle: tuple[Point, Point, Point], p: Point) -> bool:
    a, b, c = triangle
    return _orient(a, b, p) >= 0 and _orient(b, c, p) >= 0 and _orient(c, a, p) >= 0


def _shadow_sides(eye: Point, triangle) -> list[tuple[Point, Point]]:
    """The sides of the shadow an anticlockwise triangle casts from ``eye`` (outside it): the
    region at or beyond the triangle, as lines (a, b) with the shadow on their left: each side
    of the triangle that faces the eye, and the two rays from the eye past its outermost
    corners."""
    sides = []
    for i, a in enumerate(triangle):
        b = triangle[(i + 1) % 3]
        if _orient(a, b, eye) < 0:
            sides.append((a, b))
    right = next(v for v in triangle if all(_orient(eye, v, w) >= 0 for w in triangle))
    left = next(v for v in triangle if all(_orient(eye, v, w) <= 0 for w in triangle))
    sides += [(eye, right), (left, eye)]
    return sides


def _clipped(polygon: list[Point], sides: Sequence[tuple[Point, Point]]) -> list[Point]:
    """A convex polygon cut to the left of each line (a, b) (Sutherland-Hodgman), exactly."""
    for a, b in sides:
        if not polygon:
            break
        kept = []
        for i, p in enumerate(polygon):
            q = polygon[(i + 1) % len(polygon)]
            sp, sq = _orient(a, b, p), _orient(a, b, q)
            if sp >= 0:
                kept.append(p)
            if (sp > 0 > sq) or (sp < 0 < sq):
                t = sp / (sp - sq)
                kept.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        polygon = kept
    return polygon


def _union_area(polygons: Sequence[list[Point]]) -> Fraction:
    """The area the convex polygons cover together, exactly: cut into upright slabs at every
    corner and crossing, inside each of which the covered height changes linearly."""
    if not polygons:
        return Fraction(0)
    edges = [[(p, poly[(i + 1) % len(poly)]) for i, p in enumerate(poly)] for poly in polygons]
    xs = {p[0] for poly in polygons for p in poly}
    for i, one in enumerate(edges):
        for other in edges[i + 1 :]:
            for a, b in one:
                for c, d in other:
                    x = _crossing_x(a, b, c, d)
                    if x is not None:
                        xs.add(x)
    ordered = sorted(xs)
    total = Fraction(0)
    for x0, x1 in itertools.pairwise(ordered):
        middle = (x0 + x1) / 2
        spans = sorted(s for s in (_span(e, middle) for e in edges) if s is not None)
        covered, reach = Fraction(0), None
        for low, high in spans:
            if reach is None or low > reach:
                covered += high - low
                reach = high
            elif high > reach:
                covered += high - reach
                reach = high
        total += (x1 - x0) * covered
    return total


def _crossing_x(a: Point, b: Point, c: Point, d: Point) -> Fraction | None:
    """Where two segments cross (a point's x), or None."""
    rx, ry, sx, sy = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
    denominator = _cross(rx, ry, sx, sy)
    if denominator == 0:
        return None
    gx, gy = c[0] - a[0], c[1] - a[1]
    t, u = _cross(gx, gy, sx, sy) / denominator, _cross(gx, gy, rx, ry) / denominator
    return a[0] + t * rx if 0 <= t <= 1 and 0 <= u <= 1 else None


def _span(edges: Sequence[tuple[Point, Point]], x: Fraction) -> tuple[Fraction, Fraction] | None:
    """The heights a convex polygon covers at ``x`` (strictly between two corners' x)."""
    ys = [
        a[1] + (x - a[0]) * (b[1] - a[1]) / (b[0] - a[0])
        for a, b in edges
        if min(a[0], b[0]) < x < max(a[0], b[0])
    ]
    return (min(ys), max(ys)) if ys else None
