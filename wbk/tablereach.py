"""Where a piece's centre can end a move on a table (``wbk.table``): the ``Reach`` of a move,
its area drawn from straight courses in sampled directions, and its exact decision point by
point (``Reach.can_reach``, by ``wbk.tableexact.ways_to``). ``Table.reach`` and
``Table.reaches`` are the doors; the names here are importable from ``wbk.table``.

The area is a picture: courses in ``directions`` evenly spaced directions, joined by triangles
between neighbours, after a pivot at the start and, when the piece may pivot during its move,
after pivots every ``LATER_PIVOT_STEP`` inches straight on. Whether a point is reached is
never read off the area."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.tableexact import Way, ways_to
from wbk.tableparts import (
    AREA_TOLERANCE,
    LENGTH_TOLERANCE,
    Piece,
    _bounds_meet,
    _inches,
    _point,
    _rectangle,
)

#: Inches between the places straight on where the picture of a move that may pivot during it
#: turns again (the decision tries every tenth: ``wbk.tableexact.PIVOT_STEP``).
LATER_PIVOT_STEP = 0.5
#: What a reach's steps say contact counts as (``wbk.tableexact`` decides it exactly).
CONTACT = (
    "touching is not entering: the centre pays only where it runs inside rough ground or up "
    "a hill (not along an edge or through a corner), and the tank may touch, never overlap, "
    "tanks, obstacles and the table's edge"
)


@dataclass(frozen=True)
class DirectionReach:
    """How far a piece's centre can go in one direction, and what stops it there."""

    angle: float
    distance: float
    stopped_by: str
    penalties: tuple[str, ...] = ()
    #: the rough ground and hills its centre only touches on the way (an edge, a corner)
    touched: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reach:
    """Where a piece's centre can end a move of ``inches``: ``area`` (a shapely geometry, empty
    when the piece cannot move, a picture), with the straight moves from the start it is drawn
    from in ``directions``; ``can_reach`` decides a point exactly."""

    piece: str
    inches: float
    area: BaseGeometry
    directions: tuple[DirectionReach, ...]
    steps: tuple[Step, ...]
    #: the table and the keywords of ``wbk.tableexact.ways_to`` the reach was worked out with
    table: Any = field(default=None, repr=False, compare=False)
    options: tuple[tuple[str, object], ...] = field(default=(), repr=False, compare=False)

    def ways(self, point: Sequence[float]) -> tuple[Way, ...]:
        """The ways the piece's centre can take to ``point`` (x, y) in this move, each decided
        exactly (``wbk.tableexact.ways_to``); none when it cannot get there."""
        _point(point, "point")
        if self.table is None:
            raise WbkError(f"the reach of {self.piece!r} has no table to decide a point on")
        piece = self.table.piece(self.piece)
        options: dict[str, Any] = dict(self.options)
        found = ways_to(self.table, piece, point, inches=self.inches, **options)
        return tuple(w for w in found if w.allows(self.inches))

    def can_reach(self, point: Sequence[float]) -> bool:
        """Can the piece's centre end its move at ``point`` (x, y)? The start always counts.
        Decided exactly (see ``wbk.tableexact``), never read off the drawn area."""
        return bool(self.ways(point))

    def _repr_html_(self) -> str:
        return f"<b>{self.piece}: a move of {_inches(self.inches)}</b>{steps_html(self.steps)}"


@dataclass(frozen=True)
class _Course:
    """A straight line a piece's centre drives from ``origin`` along ``angle`` as far as a
    horizon: where the table's edge or a blocker stops it (``limit``, ``stopped_by``; "pivot"
    when the piece cannot turn to it there) and the penalties on the way (``events``: where
    the centre runs into a piece, its cost and its label, in order; ``touches``: where it only
    touches one, and its label)."""

    origin: tuple[float, float]
    angle: float
    limit: float
    stopped_by: str
    events: tuple[tuple[float, float, str], ...] = ()
    touches: tuple[tuple[float, str], ...] = ()

    def travel(self, inches: float, paid: frozenset[str] = frozenset()) -> DirectionReach:
        """How far a move of ``inches`` gets along the course, the pieces in ``paid`` paid for
        already: a penalty is paid where the centre runs in, and a piece that cannot be paid
        for stops it at the edge."""
        if self.stopped_by == "pivot":
            return DirectionReach(self.angle, 0.0, "pivot")
        limit, stopped_by = (
            (self.limit, self.stopped_by) if self.limit < inches else (inches, "allowance")
        )
        spent, charged = 0.0, []
        cost_limit: float | None = None
        why = ""
        for at, cost, label in self.events:
            if label in paid:
                continue
            if inches - spent <= at or at >= limit:
                break
            if inches - spent - cost <= at:
                cost_limit, why = at, f"{label} (cannot pay its {_inches(cost)})"
                break
            spent += cost
            charged.append(f"{label} ({_inches(cost)})")
        if cost_limit is None:
            cost_limit, why = (
                inches - spent,
                "allowance" if not spent else f"allowance less {_inches(spent)} of penalties",
            )
        if cost_limit < limit:
            limit, stopped_by = cost_limit, why
        touched = tuple(label for at, label in self.touches if at <= limit)
        return DirectionReach(self.angle, max(0.0, limit), stopped_by, tuple(charged), touched)

    def end(self, reached: DirectionReach) -> tuple[float, float]:
        a = math.radians(reached.angle)
        x0, y0 = self.origin
        return (x0 + reached.distance * math.cos(a), y0 + reached.distance * math.sin(a))


@dataclass(frozen=True)
class _Move:
    """What a move on ``table`` by ``piece`` meets, and how it is read."""

    table: Any
    piece: Piece
    blockers: tuple[tuple[str, Polygon], ...]
    rough_cost: float
    climb_cost: float
    rough_charged: str

    def course(self, origin, angle: float, horizon: float, later: bool = False) -> _Course:
        """The course from ``origin`` along ``angle`` (see ``_Course``), as far as ``horizon``;
        ``later``: after driving there on its facing, so that a piece the centre is in at
        ``origin`` is one it ran into or started in, paid for or free already."""
        p, table = self.piece, self.table
        a = math.radians(angle)
        d = (math.cos(a), math.sin(a))
        turned = _rectangle(origin, angle, p.width, p.length)
        edge = box(0, 0, table.width, table.depth)
        if not edge.buffer(LENGTH_TOLERANCE).covers(turned):
            return _Course(origin, angle, 0.0, "pivot")
        for _label, polygon in self.blockers:
            if polygon.intersection(turned).area > AREA_TOLERANCE:
                return _Course(origin, angle, 0.0, "pivot")
        limit, stopped_by = horizon, "allowance"
        for cx, cy in turned.exterior.coords[:-1]:
            for c, dc, top in ((cx, d[0], table.width), (cy, d[1], table.depth)):
                if dc > LENGTH_TOLERANCE:
                    room = (top - c) / dc
                elif dc < -LENGTH_TOLERANCE:
                    room = c / -dc
                else:
                    continue
                if room < limit:
                    limit, stopped_by = max(0.0, room), "the table edge"
        x0, y0 = origin
        ahead = (x0 + d[0] * horizon, y0 + d[1] * horizon)
        swept = _rectangle(ahead, angle, p.width, p.length, behind=horizon)
        for label, polygon in self.blockers:
            inter = polygon.intersection(swept)
            if inter.area <= AREA_TOLERANCE:
                continue
            first = min((x - x0) * d[0] + (y - y0) * d[1] for x, y in _coordinates(inter))
            room = max(0.0, first - p.length / 2)
            if room < limit:
                limit, stopped_by = room, label
        return _Course(origin, angle, limit, stopped_by, *self._events(origin, ahead, d, later))

    def _events(self, origin, ahead, d, later: bool) -> tuple[tuple, tuple]:
        """Where the centre's path from ``origin`` to ``ahead`` runs into rough ground or up a
        hill, its cost and label, in order; and where it only touches one (a path along an
        edge or through a corner pays nothing: see ``wbk.tableexact``), and its label."""
        x0, y0 = origin
        path = LineString([origin, ahead])
        events, touches = [], []
        for t in self.table.terrain:
            cost = (
                self.rough_cost if t.kind == "rough" else self.climb_cost if t.kind == "hill" else 0
            )
            if not cost:
                continue
            inter = path.intersection(t.polygon)
            if inter.is_empty:
                continue
            inside = [part for part in getattr(inter, "geoms", [inter]) if _runs_inside(part, t)]
            if not inside:
                first = min((x - x0) * d[0] + (y - y0) * d[1] for x, y in _coordinates(inter))
                touches.append((max(0.0, first), t.label))
                continue
            entries = sorted(
                (x - x0) * d[0] + (y - y0) * d[1]
                for part in inside
                for x, y in _segment_starts(part, origin)
            )
            if t.polygon.contains(Point(origin)) and (
                later or t.kind == "hill" or self.rough_charged == "entering"
            ):
                entries = [e for e in entries if e > LENGTH_TOLERANCE]
            if entries:
                events.append((max(0.0, entries[0]), cost, t.label))
        return tuple(sorted(events, key=lambda e: e[0])), tuple(touches)


def _runs_inside(part, terrain) -> bool:
    """Does a part of a path's intersection with a terrain piece run inside it (not a point of
    contact, not a stretch along its edge)?"""
    if part.length <= LENGTH_TOLERANCE:
        return False
    return bool(terrain.polygon.contains(part.interpolate(0.5, normalized=True)))


def reaches(
    table,
    piece: Piece,
    allowances: Sequence[float],
    *,
    max_pivot: float,
    rough_cost: float,
    climb_cost: float,
    directions: int,
    rough_charged: str,
    pivot: str,
    rule: str,
) -> tuple[Reach, ...]:
    """``Table.reaches``, its arguments checked: a ``Reach`` for each of ``allowances``, their
    courses worked out once, as far as the longest."""
    p = piece
    horizon = max(allowances)
    # only what lies within the move (and the piece's own length) can stop it
    x, y, r = *p.position, horizon + p.length + p.width
    near = (x - r, y - r, x + r, y + r)
    blockers = [(f"{q.name!r}", q.footprint) for q in table.pieces if q.name != p.name]
    blockers += [(t.label, t.polygon) for t in table.terrain if t.kind == "obstacle"]
    move = _Move(
        table,
        p,
        tuple((label, s) for label, s in blockers if _bounds_meet(s.bounds, near)),
        rough_cost,
        climb_cost,
        rough_charged,
    )
    angles = [
        (p.facing + max_pivot * (2 * i / (directions - 1) - 1)) % 360 for i in range(directions)
    ]
    first = [move.course(p.position, angle, horizon) for angle in angles]
    later = _later_pivots(move, angles, horizon, near) if pivot == "during" else []
    options = (
        ("max_pivot", max_pivot),
        ("rough_cost", rough_cost),
        ("climb_cost", climb_cost),
        ("rough_charged", rough_charged),
        ("pivot", pivot),
    )
    found = []
    for inches in allowances:
        straight = [c.travel(inches) for c in first]
        area = _union(_fan(first, straight))
        gained = None
        if later:
            whole = _union(_fan(first, straight) + _later_fans(later, inches))
            gained, area = whole.area - area.area, whole
        if area.is_empty:
            area = Point(p.position)
        steps = _first_steps(
            table, p, inches, max_pivot, directions, rough_cost, rough_charged, pivot, rule
        )
        steps += _reach_steps(straight, rule)
        if gained is not None:
            steps.append(_later_step(gained, rule))
        found.append(Reach(p.name, inches, area, tuple(straight), tuple(steps), table, options))
    return tuple(found)


def _union(rings: list) -> BaseGeometry:
    """The area of the polygons whose corners ``rings`` lists (each a list of points), made,
    mended where a ring touches itself (a course of no length) and joined at once."""
    if not rings:
        return Polygon()
    polygons = shapely.make_valid(np.array([Polygon(ring) for ring in rings], dtype=object))
    polygons = polygons[shapely.area(polygons) > 0]
    return shapely.union_all(polygons) if len(polygons) else Polygon()


def _runs(reached: Sequence[DirectionReach]) -> list[range]:
    """The runs of neighbouring directions the piece can turn to, two directions or more."""
    runs, start = [], None
    for i, d in enumerate([*reached, None]):
        if d is not None and d.stopped_by != "pivot":
            start = i if start is None else start
        elif start is not None:
            if i - start >= 2:
                runs.append(range(start, i))
            start = None
    return runs


def _fan(courses: Sequence[_Course], reached: Sequence[DirectionReach]) -> list:
    """The area between neighbouring courses' ends and their common origin: a polygon for
    each run of directions the piece can turn to."""
    ends = [c.end(d) for c, d in zip(courses, reached, strict=True)]
    return [[courses[0].origin, *(ends[i] for i in run)] for run in _runs(reached)]


def _later_pivots(move: _Move, angles, horizon: float, near) -> list:
    """The places straight on where the piece may pivot again, each with the course on its
    facing that takes it there and the courses from there: none where nothing but the
    allowance stops a move (in the open, a later pivot reaches no place a first one misses)."""
    p, table = move.piece, move.table
    costly = [
        t
        for t in table.terrain
        if (t.kind == "rough" and move.rough_cost) or (t.kind == "hill" and move.climb_cost)
    ]
    x0, y0, x1, y1 = near
    in_the_open = (
        not move.blockers
        and not any(_bounds_meet(t.polygon.bounds, near) for t in costly)
        and x0 >= 0
        and y0 >= 0
        and x1 <= table.width
        and y1 <= table.depth
    )
    if in_the_open:
        return []
    on = move.course(p.position, p.facing, horizon)
    found = []
    a = LATER_PIVOT_STEP
    while a < min(on.limit, horizon):
        there = on.end(DirectionReach(p.facing, a, ""))
        fan = [move.course(there, angle, horizon - a, later=True) for angle in angles]
        found.append((a, on, fan))
        a += LATER_PIVOT_STEP
    return found


def _later_fans(later, inches: float) -> list:
    """The areas a move of ``inches`` reaches pivoting again at each place of ``later``, and
    between two neighbouring places the strips their courses in one direction sweep (so that
    the picture's edge does not jag from place to place)."""
    areas: list = []
    before: tuple[list[_Course], list[DirectionReach]] | None = None
    for a, on, fan in later:
        spent = 0.0
        paid: set[str] = set()
        for at, cost, label in on.events:
            if at >= a:
                break
            if inches - spent - cost <= at:
                return areas  # it cannot pay its way this far, nor further
            spent, paid = spent + cost, paid | {label}
        left = inches - a - spent
        if left < 0:
            break
        reached = [c.travel(left, frozenset(paid)) for c in fan]
        areas += _fan(fan, reached)
        if before is not None:
            areas += _strips(*before, fan, reached)
        before = (fan, reached)
    return areas


def _strips(courses, reached, next_courses, next_reached) -> list:
    """The strips the courses at the sides of the runs of directions sweep between two
    neighbouring places (the picture's edge, which would jag from place to place), as two
    triangles each (a strip whose ends cross is no simple polygon)."""
    sides = {i for run in _runs(reached) for i in (run[0], run[-1])}
    sides &= {i for run in _runs(next_reached) for i in (run[0], run[-1])}
    strips = []
    for i in sorted(sides):
        c, d, n, e = courses[i], reached[i], next_courses[i], next_reached[i]
        strips += [[c.origin, c.end(d), n.end(e)], [c.origin, n.end(e), n.origin]]
    return strips


def _first_steps(table, p, inches, max_pivot, directions, rough_cost, rough_charged, pivot, rule):
    when = "at any point of the move" if pivot == "during" else "at the start only"
    steps = [
        Step(
            f"{p.name!r} moves up to {_inches(inches)}, pivoting once by at most "
            f"{max_pivot:g}° {when} ({directions} directions drawn)",
            rule,
            about=(p.name,),
        ),
        Step(CONTACT, rule),
    ]
    start = Point(p.position)
    for t in table.terrain:
        if t.kind == "rough" and rough_cost and t.polygon.contains(start):
            paid = (
                f"charged {_inches(rough_cost)} as soon as it moves (moving through it)"
                if rough_charged == "moving_through"
                else "driving out of it is free (only entering rough terrain is charged)"
            )
            steps.append(
                Step(f"{p.name!r} starts in {t.label}: {paid}", rule, about=(p.name, t.label))
            )
    return steps


def _later_step(gained: float, rule: str) -> Step:
    if gained < 0.01:
        return Step("pivoting later on the way reaches no place more here", rule)
    return Step(
        f'pivoting later on the way (drawn every {LATER_PIVOT_STEP:g}" straight on) reaches '
        f"{gained:.1f} sq in more",
        rule,
        about=("reach",),
    )


def _coordinates(geometry) -> list[tuple[float, float]]:
    return [tuple(c) for c in shapely.get_coordinates(geometry)]


def _segment_starts(geometry, origin) -> list[tuple[float, float]]:
    """The first point (nearest ``origin``) of each line in a line intersection."""
    parts = getattr(geometry, "geoms", [geometry])
    starts = []
    for part in parts:
        coords = _coordinates(part)
        if coords:
            starts.append(min(coords, key=lambda c: math.dist(c, origin)))
    return starts


def _reach_steps(found: Sequence[DirectionReach], rule: str) -> list[Step]:
    steps = []
    pivots = [d for d in found if d.stopped_by == "pivot"]
    if pivots:
        steps.append(
            Step(
                f"{len(pivots)} of {len(found)} directions cannot be turned to at the start (the "
                "turned tank would overlap something or leave the table)",
                rule,
            )
        )
    moving = [d for d in found if d.stopped_by != "pivot"]
    stops: dict[str, list[DirectionReach]] = {}
    for d in moving:
        stops.setdefault(d.stopped_by, []).append(d)
    for why, ds in stops.items():
        shortest, longest = min(x.distance for x in ds), max(x.distance for x in ds)
        span = (
            _inches(shortest)
            if math.isclose(shortest, longest)
            else f"{_inches(shortest)} to {_inches(longest)}"
        )
        steps.append(
            Step(
                f"{len(ds)} direction{'s' if len(ds) != 1 else ''}: stopped by {why} after {span}",
                rule,
                about=(why,),
            )
        )
    charges: dict[str, int] = {}
    for d in moving:
        for label in d.penalties:
            charges[label] = charges.get(label, 0) + 1
    for label, n in charges.items():
        steps.append(
            Step(
                f"{label} is charged in {n} direction{'s' if n != 1 else ''}", rule, about=(label,)
            )
        )
    touches: dict[str, int] = {}
    for d in moving:
        for label in d.touched:
            touches[label] = touches.get(label, 0) + 1
    for label, n in touches.items():
        steps.append(
            Step(
                f"{label} is only touched, never entered, in {n} direction"
                f"{'s' if n != 1 else ''}: touching pays nothing",
                rule,
                about=(label,),
            )
        )
    if moving:
        steps.append(
            Step(f"the farthest the centre gets: {_inches(max(d.distance for d in moving))}", rule)
        )
    return steps
