"""Hexes in cube coordinates, hexsides, corners and exact line tracing.

A hex is ``Hex(q, r, s)`` with ``q + r + s == 0``. Hexes are flat-topped and stand in columns,
as on printed wargame maps: ``q`` grows to the east (the next column), ``r`` grows to the south
within a column. Directions are listed clockwise from north, the way wargamers letter hexsides:

>>> [d.name for d in Direction]
['N', 'NE', 'SE', 'S', 'SW', 'NW']
>>> Hex(0, 0).neighbor(Direction.SE)
Hex(1, 0, -1)

``trace(a, b)`` follows the straight line between two hex centres with integer arithmetic only,
so a line that runs exactly along a hexside or through a corner is reported as such, never
nudged to one side:

>>> t = trace(Hex(0, 0), Hex(-2, 4))
>>> t.hexes
(Hex(0, 0, 0), Hex(-1, 2, -1), Hex(-2, 4, -2))
>>> len(t.along), len(t.crossed), len(t.touched)
(2, 0, 4)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from wbk.errors import WbkError


class Hex:
    """An immutable hex in cube coordinates (q, r, s), q + r + s == 0; ``s`` may be left out."""

    __slots__ = ("q", "r", "_hash")

    def __init__(self, q: int, r: int, s: int | None = None):
        if s is not None and q + r + s != 0:
            raise WbkError(f"cube coordinates ({q}, {r}, {s}) do not add up to 0")
        object.__setattr__(self, "q", q)
        object.__setattr__(self, "r", r)
        object.__setattr__(self, "_hash", hash((q, r)))

    def __setattr__(self, name, value):
        raise AttributeError("Hex is immutable")

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __eq__(self, other):
        return isinstance(other, Hex) and self.q == other.q and self.r == other.r

    def __lt__(self, other: Hex):
        return (self.q, self.r) < (other.q, other.r)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Hex({self.q}, {self.r}, {self.s})"

    def __reduce__(self):
        return (Hex, (self.q, self.r))

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def __mul__(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def dot(self, other: Hex) -> int:
        """The dot product of the two cube vectors (the plane q + r + s = 0 is Euclidean)."""
        return self.q * other.q + self.r * other.r + self.s * other.s

    def length(self) -> int:
        return max(abs(self.q), abs(self.r), abs(self.s))

    def distance(self, other: Hex) -> int:
        """Hexes counted from here to ``other``, not counting this one.

        >>> Hex(0, 0).distance(Hex(3, -1))
        3
        """
        return (self - other).length()

    def neighbor(self, direction: Direction) -> Hex:
        return self + direction.vector

    def neighbors(self) -> tuple[Hex, ...]:
        """The six adjacent hexes in the order N, NE, SE, S, SW, NW."""
        return tuple(self + d.vector for d in Direction)

    def is_adjacent(self, other: Hex) -> bool:
        return self.distance(other) == 1

    def ring(self, radius: int) -> list[Hex]:
        """The hexes at exactly ``radius`` from here, clockwise from the north.

        >>> len(Hex(0, 0).ring(2))
        12
        """
        if radius < 0:
            raise WbkError(f"ring radius {radius} is negative")
        if radius == 0:
            return [self]
        hexes = []
        h = self + Direction.N.vector * radius
        for d in (Direction.SE, Direction.S, Direction.SW, Direction.NW, Direction.N, Direction.NE):
            for _ in range(radius):
                hexes.append(h)
                h = h + d.vector
        return hexes

    def disk(self, radius: int) -> list[Hex]:
        """Every hex within ``radius`` of here, this one first, then ring by ring."""
        return [h for k in range(radius + 1) for h in self.ring(k)]

    def rotated(self, sixths: int, center: Hex | None = None) -> Hex:
        """Turned clockwise by ``sixths`` × 60° about ``center`` (the origin by default)."""
        center = center or ORIGIN
        q, r, s = (self - center).cube
        for _ in range(sixths % 6):
            q, r, s = -r, -s, -q
        return center + Hex(q, r, s)

    def reflected(self, center: Hex | None = None) -> Hex:
        """Mirrored east-west about the column of ``center`` (the origin by default)."""
        center = center or ORIGIN
        q, r, s = (self - center).cube
        return center + Hex(-q, -s, -r)

    @property
    def cube(self) -> tuple[int, int, int]:
        return (self.q, self.r, self.s)


ORIGIN = Hex(0, 0)


class Direction(enum.Enum):
    """The six hexside directions of a flat-topped hex, clockwise from north."""

    N = (0, -1)
    NE = (1, -1)
    SE = (1, 0)
    S = (0, 1)
    SW = (-1, 1)
    NW = (-1, 0)

    @property
    def vector(self) -> Hex:
        return Hex(*self.value)


_UNITS = tuple(d.vector for d in Direction)


class Hexside:
    """The side shared by two adjacent hexes; ``Hexside(a, b) == Hexside(b, a)``.

    >>> Hexside(Hex(0, 0), Hex(0, 1)) == Hexside(Hex(0, 1), Hex(0, 0))
    True
    """

    __slots__ = ("hexes",)

    def __init__(self, a: Hex, b: Hex):
        if not a.is_adjacent(b):
            raise WbkError(f"{a} and {b} are not adjacent, so they share no hexside")
        object.__setattr__(self, "hexes", (a, b) if a < b else (b, a))

    @classmethod
    def _unchecked(cls, a: Hex, b: Hex) -> Hexside:
        """For callers that know a and b are adjacent (the tracer): no distance check."""
        side = cls.__new__(cls)
        object.__setattr__(side, "hexes", (a, b) if a < b else (b, a))
        return side

    def __setattr__(self, name, value):
        raise AttributeError("Hexside is immutable")

    def __eq__(self, other):
        return isinstance(other, Hexside) and self.hexes == other.hexes

    def __hash__(self):
        return hash(self.hexes)

    def __lt__(self, other: Hexside):
        return self.hexes < other.hexes

    def __repr__(self):
        a, b = self.hexes
        return f"Hexside({a!r}, {b!r})"

    def __reduce__(self):
        return (Hexside, self.hexes)

    def __contains__(self, h: Hex) -> bool:
        return h in self.hexes

    def other(self, h: Hex) -> Hex:
        """The hex across this hexside from ``h``."""
        a, b = self.hexes
        if h == a:
            return b
        if h == b:
            return a
        raise WbkError(f"{h} is not on either side of {self}")

    @property
    def corners(self) -> tuple[Corner, Corner]:
        """The two corners at the ends of this hexside."""
        a, b = self.hexes
        ends = [n for n in a.neighbors() if n.is_adjacent(b)]
        return tuple(sorted(Corner(a, b, e) for e in ends))


class Corner:
    """The point where three mutually adjacent hexes meet."""

    __slots__ = ("hexes",)

    def __init__(self, a: Hex, b: Hex, c: Hex):
        if not (a.is_adjacent(b) and b.is_adjacent(c) and a.is_adjacent(c)):
            raise WbkError(f"{a}, {b} and {c} do not meet at a corner")
        object.__setattr__(self, "hexes", tuple(sorted((a, b, c))))

    @classmethod
    def _unchecked(cls, a: Hex, b: Hex, c: Hex) -> Corner:
        """For callers that know the three hexes meet at a corner (the tracer): no check."""
        corner = cls.__new__(cls)
        object.__setattr__(corner, "hexes", tuple(sorted((a, b, c))))
        return corner

    def __setattr__(self, name, value):
        raise AttributeError("Corner is immutable")

    def __eq__(self, other):
        return isinstance(other, Corner) and self.hexes == other.hexes

    def __hash__(self):
        return hash(self.hexes)

    def __lt__(self, other: Corner):
        return self.hexes < other.hexes

    def __repr__(self):
        return "Corner({!r}, {!r}, {!r})".format(*self.hexes)

    @property
    def hexsides(self) -> tuple[Hexside, Hexside, Hexside]:
        """The three hexsides that meet at this corner."""
        a, b, c = self.hexes
        return (Hexside(a, b), Hexside(a, c), Hexside(b, c))


StepKind = Literal["hex", "cross", "corner", "along"]


@dataclass(frozen=True)
class Trace:
    """The exact course of the straight line from the centre of ``a`` to the centre of ``b``.

    ``hexes``: the hexes whose interior the line passes, ``a`` first and ``b`` last.
    ``crossed``: the hexsides it passes through. Where it goes through a corner straight from one
    hex into an adjacent one, the hexside between those two counts as crossed.
    ``along``: the hexsides it runs along. ``touched``: the corners it passes through.
    ``course``: all of these as ``(kind, item)`` pairs in the order the line meets them,
    kind being "hex", "cross", "corner" or "along".
    """

    a: Hex
    b: Hex
    course: tuple[tuple[StepKind, Hex | Hexside | Corner], ...]

    def _items(self, kind: StepKind) -> tuple:
        return tuple(item for k, item in self.course if k == kind)

    @property
    def hexes(self) -> tuple[Hex, ...]:
        return self._items("hex")

    @property
    def crossed(self) -> tuple[Hexside, ...]:
        return self._items("cross")

    @property
    def along(self) -> tuple[Hexside, ...]:
        return self._items("along")

    @property
    def touched(self) -> tuple[Corner, ...]:
        return self._items("corner")

    def reversed(self) -> Trace:
        """The same line traced from ``b`` to ``a``.

        Where the line crosses a hexside at a corner, both happen at one point; the course lists
        the corner first in either direction.
        """
        course = list(self.course[::-1])
        for i in range(len(course) - 1):
            if course[i][0] == "cross" and course[i + 1][0] == "corner":
                course[i], course[i + 1] = course[i + 1], course[i]
        return Trace(self.b, self.a, tuple(course))


def trace(a: Hex, b: Hex) -> Trace:
    """The exact course of the line from the centre of ``a`` to the centre of ``b``.

    The line is p(t) = a + t·(b - a). A point p lies in hex h when (p - h)·u <= 1 for each of the
    six unit vectors u (the perpendicular bisectors of the hex grid), so the line leaves h at the
    least t where (a - h)·u + t·(b - a)·u = 1. Those t are compared as integer fractions: a tie
    between two hexsides of h is a corner, and the line's direction decides what lies beyond it.

    >>> [h.cube for h in trace(Hex(0, 0, 0), Hex(1, -5, 4)).hexes]
    [(0, 0, 0), (0, -1, 1), (0, -2, 2), (1, -3, 2), (1, -4, 3), (1, -5, 4)]
    """
    # Plain integer tuples inside the loop: this runs once per target hex of a viewshed.
    dq, dr = b.q - a.q, b.r - a.r
    ds = -dq - dr
    leaving = []  # (slope, unit) for the hexsides the line can leave through
    for uq, ur in _UNIT_QR:
        slope = dq * uq + dr * ur + ds * (-uq - ur)
        if slope > 0:
            leaving.append((slope, uq, ur))
    course: list[tuple[StepKind, Hex | Hexside | Corner]] = [("hex", a)]
    q, r, h = a.q, a.r, a
    while (q, r) != (b.q, b.r):
        oq, or_ = a.q - q, a.r - r
        os = -oq - or_
        best_num, best_den, first = 0, 0, []
        for slope, uq, ur in leaving:
            num = 1 - (oq * uq + or_ * ur + os * (-uq - ur))
            if not first or num * best_den < best_num * slope:
                best_num, best_den, first = num, slope, [(uq, ur)]
            elif num * best_den == best_num * slope:
                first.append((uq, ur))
        if len(first) == 1:
            (uq, ur), = first
            nxt = Hex(q + uq, r + ur)
            course += [("cross", Hexside._unchecked(h, nxt)), ("hex", nxt)]
            q, r, h = q + uq, r + ur, nxt
            continue
        (iq, ir), (jq, jr) = first
        ni, nj = Hex(q + iq, r + ir), Hex(q + jq, r + jr)
        course.append(("corner", Corner._unchecked(h, ni, nj)))
        lean = dq * (jq - iq) + dr * (jr - ir) + ds * ((iq + ir) - (jq + jr))
        if lean == 0:
            far = Hex(q + iq + jq, r + ir + jr)
            course += [("along", Hexside._unchecked(ni, nj)), ("corner", Corner._unchecked(ni, nj, far)), ("hex", far)]
            nxt = far
        else:
            nxt = nj if lean > 0 else ni
            course += [("cross", Hexside._unchecked(h, nxt)), ("hex", nxt)]
        q, r, h = nxt.q, nxt.r, nxt
    return Trace(a, b, tuple(course))


_UNIT_QR = tuple(d.value for d in Direction)
