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
import math
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral
from typing import ClassVar, Literal

from wbk.errors import WbkError
from wbk.explain import Step

__all__ = [
    "ORIGIN",
    "TRACE_RULE",
    "Corner",
    "Direction",
    "Hex",
    "Hexside",
    "StepKind",
    "Trace",
    "rounded_line",
    "trace",
    "trace_steps",
]


def _whole(value, what: str, least: int | None = None) -> int:
    """``value`` as an int; a bool, float, str or anything else is a WbkError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        expected = "a whole number" if least is None else f"a whole number of {least} or more"
        raise WbkError(f"{what} {value!r} is not {expected}")
    value = int(value)
    if least is not None and value < least:
        raise WbkError(f"{what} {value!r} is not a whole number of {least} or more")
    return value


def _need_hex(value, what: str) -> Hex:
    if not isinstance(value, Hex):
        hint = ""
        if isinstance(value, str):
            hint = f" (a printed label like {value!r} is read by the map: m.hex({value!r}))"
        raise WbkError(f"{what} {value!r} is not a Hex{hint}")
    return value


class Hex:
    """An immutable hex in cube coordinates (q, r, s), q + r + s == 0; ``s`` may be left out.

    Coordinates are whole numbers: ``Hex(1.5, 2)``, ``Hex("1", 2)`` and ``Hex(True, 0)`` are
    WbkErrors, as is an ``s`` that does not make the three add up to 0.
    """

    __slots__ = ("_hash", "q", "r")
    q: int
    r: int
    _hash: int

    def __init__(self, q: int, r: int, s: int | None = None):
        if type(q) is not int or type(r) is not int or s is not None:
            q, r = _coordinates(q, r, s)
        _set_q(self, q)
        _set_r(self, r)
        _set_hash(self, hash((q, r)))

    def __setattr__(self, name, value):
        raise AttributeError("Hex is immutable")

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __eq__(self, other):
        return isinstance(other, Hex) and self.q == other.q and self.r == other.r

    def __lt__(self, other: Hex):
        if not isinstance(other, Hex):
            return NotImplemented
        return (self.q, self.r) < (other.q, other.r)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Hex({self.q}, {self.r}, {self.s})"

    def __reduce__(self):
        return (Hex, (self.q, self.r))

    def __add__(self, other: Hex) -> Hex:
        if type(other) is not Hex:
            _need_hex(other, f"cannot add {other!r} to {self!r}:")
        return _hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        if type(other) is not Hex:
            _need_hex(other, f"cannot subtract {other!r} from {self!r}:")
        return _hex(self.q - other.q, self.r - other.r)

    def __neg__(self) -> Hex:
        return _hex(-self.q, -self.r)

    def __mul__(self, k: int) -> Hex:
        if type(k) is not int:
            k = _whole(k, f"cannot multiply {self!r}: factor")
        return _hex(self.q * k, self.r * k)

    __rmul__ = __mul__

    def dot(self, other: Hex) -> int:
        """The dot product of the two cube vectors (the plane q + r + s = 0 is Euclidean)."""
        _need_hex(other, "other hex")
        return self.q * other.q + self.r * other.r + self.s * other.s

    def length(self) -> int:
        return max(abs(self.q), abs(self.r), abs(self.q + self.r))

    def distance(self, other: Hex) -> int:
        """Hexes counted from here to ``other``, not counting this one.

        >>> Hex(0, 0).distance(Hex(3, -1))
        3
        """
        if type(other) is not Hex:
            _need_hex(other, "other hex")
        dq, dr = self.q - other.q, self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))

    def neighbor(self, direction: Direction) -> Hex:
        if type(direction) is not Direction:
            names = ", ".join(f"Direction.{d.name}" for d in Direction)
            raise WbkError(f"direction {direction!r} is not a Direction (expected one of {names})")
        dq, dr = direction.value
        return _hex(self.q + dq, self.r + dr)

    def neighbors(self) -> tuple[Hex, ...]:
        """The six adjacent hexes in the order N, NE, SE, S, SW, NW."""
        q, r = self.q, self.r
        return tuple([_hex(q + dq, r + dr) for dq, dr in _UNIT_QR])

    def is_adjacent(self, other: Hex) -> bool:
        return self.distance(other) == 1

    def ring(self, radius: int) -> list[Hex]:
        """The hexes at exactly ``radius`` from here, clockwise from the north.

        >>> len(Hex(0, 0).ring(2))
        12
        """
        radius = _whole(radius, "ring radius", 0)
        return self._ring(radius)

    def _ring(self, radius: int) -> list[Hex]:
        if radius == 0:
            return [self]
        hexes = []
        q, r = self.q, self.r - radius  # start due north
        for d in (Direction.SE, Direction.S, Direction.SW, Direction.NW, Direction.N, Direction.NE):
            dq, dr = d.value
            for _ in range(radius):
                hexes.append(_hex(q, r))
                q, r = q + dq, r + dr
        return hexes

    def disk(self, radius: int) -> list[Hex]:
        """Every hex within ``radius`` of here, this one first, then ring by ring."""
        radius = _whole(radius, "disk radius", 0)
        return [h for k in range(radius + 1) for h in self._ring(k)]

    def rotated(self, sixths: int, center: Hex | None = None) -> Hex:
        """Turned clockwise by ``sixths`` × 60° about ``center`` (the origin by default)."""
        sixths = _whole(sixths, "rotation in sixths of a turn")
        center = ORIGIN if center is None else _need_hex(center, "centre of rotation")
        q, r, s = (self - center).cube
        for _ in range(sixths % 6):
            q, r, s = -r, -s, -q
        return center + _hex(q, r)

    def reflected(self, center: Hex | None = None) -> Hex:
        """Mirrored east-west about the column of ``center`` (the origin by default)."""
        center = ORIGIN if center is None else _need_hex(center, "centre of reflection")
        q, _r, s = (self - center).cube
        return center + _hex(-q, -s)

    @property
    def cube(self) -> tuple[int, int, int]:
        return (self.q, self.r, self.s)


# the slots' own setters: Hex forbids setattr, so that only construction sets its coordinates
_set_q, _set_r, _set_hash = (Hex.__dict__[name].__set__ for name in ("q", "r", "_hash"))
_new = object.__new__


def _hex(q: int, r: int) -> Hex:
    """A Hex from two ints that need no checking (the fast path of arithmetic and tracing)."""
    h = _new(Hex)
    _set_q(h, q)
    _set_r(h, r)
    _set_hash(h, hash((q, r)))
    return h


def _coordinates(q, r, s) -> tuple[int, int]:
    """Checked (q, r) for ``Hex(q, r, s)``: whole numbers, and ``s`` (if given) making the sum 0."""
    q, r = _whole(q, "hex coordinate q"), _whole(r, "hex coordinate r")
    if s is not None:
        s = _whole(s, "hex coordinate s")
        if q + r + s != 0:
            raise WbkError(f"cube coordinates ({q}, {r}, {s}) do not add up to 0")
    return q, r


ORIGIN = Hex(0, 0)


class Direction(enum.Enum):
    """The six hexside directions of a flat-topped hex, clockwise from north."""

    N = (0, -1)
    NE = (1, -1)
    SE = (1, 0)
    S = (0, 1)
    SW = (-1, 1)
    NW = (-1, 0)

    @classmethod
    def _missing_(cls, value):
        options = ", ".join(f"{d.value} ({d.name})" for d in cls)
        raise WbkError(f"direction {value!r} is not a Direction (expected one of {options})")

    @property
    def vector(self) -> Hex:
        return _VECTORS[self]


_VECTORS = {d: Hex(*d.value) for d in Direction}
_UNIT_QR = tuple(d.value for d in Direction)


class Hexside:
    """The side shared by two adjacent hexes; ``Hexside(a, b) == Hexside(b, a)``.

    >>> Hexside(Hex(0, 0), Hex(0, 1)) == Hexside(Hex(0, 1), Hex(0, 0))
    True
    """

    __slots__ = ("_hash", "hexes")
    hexes: tuple[Hex, Hex]
    _hash: int

    def __init__(self, a: Hex, b: Hex):
        _need_hex(a, "hexside: first hex")
        _need_hex(b, "hexside: second hex")
        if not a.is_adjacent(b):
            raise WbkError(f"{a} and {b} are not adjacent, so they share no hexside")
        _fill_side(self, a, b)

    @classmethod
    def _unchecked(cls, a: Hex, b: Hex) -> Hexside:
        """For callers that know a and b are adjacent (the tracer): no checks."""
        return _side(a, b)

    def __setattr__(self, name, value):
        raise AttributeError("Hexside is immutable")

    def __eq__(self, other):
        return isinstance(other, Hexside) and self.hexes == other.hexes

    def __hash__(self):
        return self._hash

    def __lt__(self, other: Hexside):
        if not isinstance(other, Hexside):
            return NotImplemented
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
        _need_hex(h, "hex")
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
        first, second = sorted(Corner._unchecked(a, b, e) for e in ends)
        return first, second


_set_side_hexes, _set_side_hash = (Hexside.__dict__[name].__set__ for name in ("hexes", "_hash"))


def _fill_side(side: Hexside, a: Hex, b: Hex) -> None:
    """Set a new hexside's two hexes (in order) and its hash: the one place that does it, so
    that equal hexsides always hash alike however they were made."""
    if (a.q, a.r) < (b.q, b.r):
        _set_side_hexes(side, (a, b))
        _set_side_hash(side, hash((a._hash, b._hash)))
    else:
        _set_side_hexes(side, (b, a))
        _set_side_hash(side, hash((b._hash, a._hash)))


def _side(a: Hex, b: Hex) -> Hexside:
    """``Hexside._unchecked`` as a plain function, for the tracer's inner loop: ``_fill_side``
    written out, as a call less counts there (a test checks that both hash alike)."""
    side = _new(Hexside)
    if (a.q, a.r) < (b.q, b.r):
        _set_side_hexes(side, (a, b))
        _set_side_hash(side, hash((a._hash, b._hash)))
    else:
        _set_side_hexes(side, (b, a))
        _set_side_hash(side, hash((b._hash, a._hash)))
    return side


class Corner:
    """The point where three mutually adjacent hexes meet."""

    __slots__ = ("hexes",)
    hexes: tuple[Hex, Hex, Hex]

    def __init__(self, a: Hex, b: Hex, c: Hex):
        for h, which in ((a, "first"), (b, "second"), (c, "third")):
            _need_hex(h, f"corner: {which} hex")
        if not (a.is_adjacent(b) and b.is_adjacent(c) and a.is_adjacent(c)):
            raise WbkError(f"{a}, {b} and {c} do not meet at a corner")
        _set_corner_hexes(self, tuple(sorted((a, b, c))))

    @classmethod
    def _unchecked(cls, a: Hex, b: Hex, c: Hex) -> Corner:
        """For callers that know the three hexes meet at a corner (the tracer): no check."""
        corner = _new(cls)
        _set_corner_hexes(corner, tuple(sorted((a, b, c))))
        return corner

    def __setattr__(self, name, value):
        raise AttributeError("Corner is immutable")

    def __eq__(self, other):
        return isinstance(other, Corner) and self.hexes == other.hexes

    def __hash__(self):
        return hash(self.hexes)

    def __lt__(self, other: Corner):
        if not isinstance(other, Corner):
            return NotImplemented
        return self.hexes < other.hexes

    def __repr__(self):
        return "Corner({!r}, {!r}, {!r})".format(*self.hexes)

    def __reduce__(self):
        return (Corner, self.hexes)

    @property
    def hexsides(self) -> tuple[Hexside, Hexside, Hexside]:
        """The three hexsides that meet at this corner."""
        a, b, c = self.hexes
        return (Hexside._unchecked(a, b), Hexside._unchecked(a, c), Hexside._unchecked(b, c))


_set_corner_hexes = Corner.__dict__["hexes"].__set__


StepKind = Literal["hex", "cross", "corner", "along"]
_STEP_TYPES = {"hex": Hex, "cross": Hexside, "corner": Corner, "along": Hexside}


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
    #: a trace is geometry, not a rule's verdict: its picture gives no reason under its title
    deciding_step: ClassVar[None] = None

    def __post_init__(self):
        _need_hex(self.a, "trace: start hex a")
        _need_hex(self.b, "trace: end hex b")
        course = self.course
        if isinstance(course, (str, bytes)) or not isinstance(course, (tuple, list)):
            raise WbkError(f"trace course {course!r} is not a sequence of (kind, item) pairs")
        course = tuple(course)
        for i, step in enumerate(course):
            if not (isinstance(step, tuple) and len(step) == 2 and step[0] in _STEP_TYPES):
                raise WbkError(
                    f"trace course step {i} {step!r} is not a (kind, item) pair with kind one of "
                    f"{', '.join(map(repr, _STEP_TYPES))}"
                )
            kind, item = step
            if not isinstance(item, _STEP_TYPES[kind]):
                wanted = _STEP_TYPES[kind].__name__
                raise WbkError(
                    f"trace course step {i}: a {kind!r} step needs a {wanted}, not {item!r}"
                )
        if not course or course[0] != ("hex", self.a) or course[-1] != ("hex", self.b):
            raise WbkError(
                f"trace course must start with ('hex', {self.a!r}) and end with ('hex', {self.b!r})"
            )
        object.__setattr__(self, "course", course)

    @classmethod
    def _unchecked(cls, a: Hex, b: Hex, course: tuple) -> Trace:
        """For the tracer, whose course is right by construction: no checks."""
        t = _new(cls)
        t.__dict__.update(a=a, b=b, course=course)
        return t

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

    @property
    def steps(self) -> tuple[Step, ...]:
        """The line's course as steps, one an event (a hex entered, a hexside crossed or run
        along, a corner passed), each ``about`` its hex, hexside or corner; hexes named by their
        cube coordinates (``trace_steps(t, m.label)`` names them as a map prints them)."""
        return trace_steps(self)

    def reversed(self) -> Trace:
        """The same line traced from ``b`` to ``a``.

        Where the line crosses a hexside at a corner, both happen at one point; the course lists
        the corner first in either direction.
        """
        course = list(self.course[::-1])
        for i in range(len(course) - 1):
            if course[i][0] == "cross" and course[i + 1][0] == "corner":
                course[i], course[i + 1] = course[i + 1], course[i]
        return Trace._unchecked(self.b, self.a, tuple(course))


#: What a trace's steps cite: geometry, no game's rule.
TRACE_RULE = "the exact line between hex centres"

_EVENT_WORDS = {
    "hex": "enters",
    "cross": "crosses hexside",
    "corner": "passes through corner",
    "along": "runs along hexside",
}


def _cube_label(item: Hex | Hexside | Corner) -> str:
    hexes = (item,) if isinstance(item, Hex) else item.hexes
    return "/".join(f"({h.q}, {h.r}, {h.s})" for h in hexes)


def trace_steps(
    tr: Trace, label: Callable[[Hex | Hexside | Corner], str] = _cube_label
) -> tuple[Step, ...]:
    """``tr``'s course as steps, one an event in the order the line meets them, each ``about``
    its one hex, hexside or corner; ``label`` names them (a map's ``label``; cube coordinates
    by default).

    >>> for step in trace_steps(trace(Hex(0, 0), Hex(-2, 4)))[:3]:
    ...     print(f"{step.text}: about a {type(step.about[0]).__name__}")
    starts in the centre of (0, 0, 0): about a Hex
    passes through corner (-1, 1, 0)/(0, 0, 0)/(0, 1, -1): about a Corner
    runs along hexside (-1, 1, 0)/(0, 1, -1): about a Hexside
    """
    if not isinstance(tr, Trace):
        raise WbkError(f"trace_steps: trace {tr!r} is not a Trace (trace's answer)")
    if not callable(label):
        raise WbkError(f"trace_steps: label {label!r} is not a function naming a hex")
    last = len(tr.course) - 1
    steps = []
    for i, (kind, item) in enumerate(tr.course):
        if i == 0:
            words = f"starts in the centre of {label(item)}"
        elif i == last:
            words = f"ends in the centre of {label(item)}"
        else:
            words = f"{_EVENT_WORDS[kind]} {label(item)}"
        steps.append(Step(words, TRACE_RULE, about=(item,)))
    return tuple(steps)


def trace(a: Hex, b: Hex) -> Trace:
    """The exact course of the line from the centre of ``a`` to the centre of ``b``.

    The line is p(t) = a + t·(b - a). A point p lies in hex h when (p - h)·u <= 1 for each of the
    six unit vectors u (the perpendicular bisectors of the hex grid), so the line leaves h at the
    least t where (a - h)·u + t·(b - a)·u = 1. Those t are compared as integer fractions: a tie
    between two hexsides of h is a corner, and the line's direction decides what lies beyond it.

    >>> [h.cube for h in trace(Hex(0, 0, 0), Hex(1, -5, 4)).hexes]
    [(0, 0, 0), (0, -1, 1), (0, -2, 2), (1, -3, 2), (1, -4, 3), (1, -5, 4)]
    """
    if type(a) is not Hex or type(b) is not Hex:
        _need_hex(a, "trace: start hex a")
        _need_hex(b, "trace: end hex b")
    # Plain integer tuples inside the loop: this runs once per target hex of a viewshed.
    aq, ar, bq, br = a.q, a.r, b.q, b.r
    dq, dr = bq - aq, br - ar
    ds = -dq - dr
    leaving = []  # (slope, unit) for the hexsides the line can leave through
    for uq, ur in _UNIT_QR:
        us = -uq - ur
        slope = dq * uq + dr * ur + ds * us
        if slope > 0:
            leaving.append((slope, uq, ur, us))
    side, corner = _side, Corner._unchecked
    course: list[tuple[StepKind, Hex | Hexside | Corner]] = [("hex", a)]
    q, r, h = aq, ar, a
    while q != bq or r != br:
        oq, or_ = aq - q, ar - r
        os = -oq - or_
        best_num, best_den = 0, 0
        first: list[tuple[int, int]] = []  # the hexsides the line leaves h through first
        for slope, uq, ur, us in leaving:
            num = 1 - (oq * uq + or_ * ur + os * us)
            if not first or num * best_den < best_num * slope:
                best_num, best_den, first = num, slope, [(uq, ur)]
            elif num * best_den == best_num * slope:
                first.append((uq, ur))
        if len(first) == 1:
            ((uq, ur),) = first
            q, r = q + uq, r + ur
            nxt = _hex(q, r)
            course += [("cross", side(h, nxt)), ("hex", nxt)]
            h = nxt
            continue
        (iq, ir), (jq, jr) = first
        ni, nj = _hex(q + iq, r + ir), _hex(q + jq, r + jr)
        course.append(("corner", corner(h, ni, nj)))
        lean = dq * (jq - iq) + dr * (jr - ir) + ds * ((iq + ir) - (jq + jr))
        if lean == 0:
            far = _hex(q + iq + jq, r + ir + jr)
            course += [("along", side(ni, nj)), ("corner", corner(ni, nj, far)), ("hex", far)]
            nxt = far
        else:
            nxt = nj if lean > 0 else ni
            course += [("cross", side(h, nxt)), ("hex", nxt)]
        q, r, h = nxt.q, nxt.r, nxt
    return Trace._unchecked(a, b, tuple(course))


def rounded_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hexes of the usual floating-point method, for comparison with ``trace``: the
    distance + 1 points evenly spaced along the line, each rounded to the nearest hex (cube
    rounding, halves up), with no nudge. Where the exact line runs along a hexside or through a
    corner, this picks one side by the accident of rounding.

    >>> [h.cube for h in rounded_line(Hex(0, 0), Hex(-2, 4))]
    [(0, 0, 0), (0, 1, -1), (-1, 2, -1), (-1, 3, -2), (-2, 4, -2)]
    """
    _need_hex(a, "rounded_line: start hex a")
    _need_hex(b, "rounded_line: end hex b")
    n = a.distance(b)
    hexes = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q, r = a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t
        s = -q - r
        rq, rr, rs = math.floor(q + 0.5), math.floor(r + 0.5), math.floor(s + 0.5)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        hexes.append(Hex(rq, rr))
    return tuple(hexes)
