"""A table measured in inches: terrain pieces as polygons, tanks as small rectangles.

The geometry layer for miniature games beside ``wbk.hexgrid``: where ``hexgrid`` is exact
integer geometry on hexes, a table is continuous and measured with shapely (floating point, in
inches). The rules of a game (``wbk.games.pz8``) say what the kinds of terrain cost and what the
pieces are; this module answers where things are, who sees whom and where a piece can go.

Public names:

- ``Table``: the table's size, its ``Terrain`` and its ``Piece`` s, read from TOML with
  ``Table.load(path, pieces=...)`` / ``Table.from_toml(text, source=..., pieces=...)``;
  ``table.piece(name)``, ``table.footprint(piece)``, ``table.distance(a, b)``,
  ``table.squared_distance(a, b)`` (exact), ``table.line_of_sight(firer, target)`` (a
  ``Sight``), ``table.reach(piece, inches, ...)`` (a ``Reach``: its ``can_reach(point)`` is
  exact) and ``table.reaches(piece, allowances, ...)``, ``table.hills_under(piece)``,
  ``table.with_piece(piece)``,
  ``table.without_piece(name)``; ``table.to_toml()`` and ``table.save(path)`` write the file;
- ``Terrain``: a polygon of kind ``"rough"``, ``"obstacle"`` or ``"hill"`` (``TERRAIN_KINDS``),
  an obstacle perhaps marked ``blocks_sight=False`` (a low wall);
- ``Piece``: a rectangle with a name, side, centre ``position`` and ``facing`` (subclassed by a
  game's own piece, as ``wbk.games.pz8.Tank``);
- ``FOOTPRINT``: the default footprint of a piece, 1.5" wide and 2.5" long;
- the limits ``MAX_INCHES`` (sizes, coordinates, moves), ``MAX_PIECES`` and ``MAX_DIRECTIONS``
  (``reach``), and
  the reading values ``OBSTACLE_SIGHT_READINGS`` (``line_of_sight``), ``ROUGH_READINGS`` and
  ``PIVOT_READINGS`` (``reach``).

``Terrain``, ``Piece``, ``FOOTPRINT`` and the limits on sizes and counts are defined in
``wbk.tableparts``, a table file's reading and writing in ``wbk.tablefile``, ``Reach`` and its
picture in ``wbk.tablereach``; they are imported from here. What decides a question at a
limit (a distance, an angle, where a move ends) is exact arithmetic, in ``wbk.tableexact``.

Conventions, used everywhere below:

- Coordinates are inches, x along the table's width (0 at the left edge), y along its depth
  (0 at the near edge).
- ``facing`` is in degrees counterclockwise from the +x direction: 0 faces the right edge, 90
  the far edge. A piece is ``length`` long along its facing and ``width`` wide across it.
- Distances are measured centre to centre (``table.distance``), and compared with a limit
  exactly: a coordinate is the decimal it is written as, a distance is compared by its exact
  square (``table.squared_distance``, ``wbk.tableexact``).
- Line of sight looks from the firer's centre at the whole of the target's footprint: the
  *visible fraction* is the share of the footprint's area that a lamp at the firer's centre
  would light if the target itself were transparent. Other pieces (friend, foe and wrecks
  alike), obstacles (but those marked ``blocks_sight=False``) and hills cast the shadows; rough
  terrain casts none. A hill under the firer's or the target's centre does not block their
  view of each other (a tank on a hill sees off it and is seen on it; a centre on a hill's edge
  is at its foot, not on it); every other hill blocks. A sight line that only grazes a blocker
  (touches its edge or a corner) passes: touching hides nothing. The target is *in cover* when
  part, but not all, of it is hidden. Where a verdict hangs on a share (hidden or not, seen or
  not, half hidden or not) within a millionth of a square inch, it is measured exactly
  (``wbk.tableexact``) when the corners are decimals, as a tank's are when it faces a multiple
  of 90 degrees; elsewhere areas below ``AREA_TOLERANCE`` (a millionth of a square inch) count
  as nothing, so that floating-point slivers neither hide nor show a target.

>>> t = Table(24, 24, pieces=[Piece("A", (4, 12)), Piece("B", (20, 12))],
...           terrain=[Terrain("obstacle", ((11, 12), (13, 12), (13, 20), (11, 20)), name="wall")])
>>> sight = t.line_of_sight("A", "B")
>>> sight.in_cover, round(sight.visible_fraction, 3)
(True, 0.5)
>>> t.distance("A", "B")
16.0
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import shapely
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from wbk.checks import short_text
from wbk.datafile import read_text
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.tableexact import (
    PIVOT_READINGS,
    exact_point,
    hidden_share,
    inches_against,
    inside,
    squared_distance,
)
from wbk.tablefile import checked_file_name, read_table, save_table, table_toml
from wbk.tableparts import (
    AREA_TOLERANCE,
    FOOTPRINT,
    MAX_INCHES,
    MAX_PIECES,
    MOST_POINTS,
    MOST_TERRAIN,
    TERRAIN_KINDS,
    Piece,
    Terrain,
    _bounds_meet,
    _inches,
    _number,
    _place,
    _Placed,
)
from wbk.tablereach import Reach, reaches

__all__ = [
    "FOOTPRINT",
    "MAX_DIRECTIONS",
    "MAX_INCHES",
    "MAX_PIECES",
    "MOST_POINTS",
    "MOST_TERRAIN",
    "OBSTACLE_SIGHT_READINGS",
    "PIVOT_READINGS",
    "ROUGH_READINGS",
    "TERRAIN_KINDS",
    "Piece",
    "Table",
    "Terrain",
    "seen_share",
]

#: The most directions ``Table.reach`` samples (one every half degree over 180°): more adds
#: time, not accuracy.
MAX_DIRECTIONS = 361
#: Which obstacles hide what lies behind them: "as_marked" (each obstacle blocks unless its
#: file marks it ``blocks_sight = false``, a low wall) or "all_block" (every obstacle blocks).
OBSTACLE_SIGHT_READINGS = ("as_marked", "all_block")
#: Which rough pieces a move pays for: "moving_through" (every rough piece the centre moves in,
#: the one it starts in included, once each) or "entering" (only pieces the centre crosses into
#: from outside; driving out of the piece it starts in is free).
ROUGH_READINGS = ("moving_through", "entering")

SIGHT = "line of sight"
MOVEMENT = "movement"

# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sight:
    """Line of sight from one piece to another.

    ``visible_fraction`` is the share of the target's footprint lit from the firer's centre;
    ``hidden_by`` lists each blocker with the share of the footprint it hides (shares can
    overlap, so they may add up to more than the hidden total); ``distance`` is centre to centre.
    """

    firer: str
    target: str
    distance: float
    visible_fraction: float
    hidden_by: tuple[tuple[str, float], ...]
    steps: tuple[Step, ...]
    #: the hidden part of the target's footprint (a shapely geometry, empty when all is seen)
    hidden: object = None
    #: the share seen, exactly, where a verdict hung on it within floating point's reach (None:
    #: ``visible_fraction`` is far from every verdict's edge, or the corners are no decimals)
    exact_visible: Fraction | None = None

    @property
    def seen(self) -> float | Fraction:
        """The share of the target seen: exact where it was worked out exactly."""
        return self.visible_fraction if self.exact_visible is None else self.exact_visible

    @property
    def has_los(self) -> bool:
        """Is any of the target seen?"""
        return self.seen > 0

    @property
    def in_cover(self) -> bool:
        """Is the target partly, but not wholly, hidden?"""
        return 0 < self.seen < 1

    @property
    def all_seen(self) -> bool:
        """Is all of the target seen (in the open)?"""
        return self.seen == 1

    def _repr_html_(self) -> str:
        verdict = "in cover" if self.in_cover else "in the open" if self.has_los else "not seen"
        return f"<b>{self.firer} → {self.target}: {verdict}</b>{steps_html(self.steps)}"


# --- the table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A table ``width`` × ``depth`` inches with terrain pieces and pieces (tanks) on it.

    Every piece lies wholly on the table, no two pieces overlap (touching is allowed), no piece
    overlaps an obstacle and names are unique; anything else is a ``WbkError``.
    """

    width: float
    depth: float
    terrain: tuple[Terrain, ...] = ()
    pieces: tuple[Piece, ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        for key in ("width", "depth"):
            value = _number(getattr(self, key), f"table {key}", positive=True, allow_zero=False)
            object.__setattr__(self, key, value)
        for key, kind in (("terrain", Terrain), ("pieces", Piece)):
            items = getattr(self, key)
            if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
                raise WbkError(f"table {key} {items!r} is not a list")
            items = tuple(items)
            if key == "terrain" and len(items) > MOST_TERRAIN:  # pieces: see _check
                raise WbkError(
                    f"{len(items):,} pieces of terrain is more than wbk.table.MOST_TERRAIN "
                    f"({MOST_TERRAIN})"
                )
            for item in items:
                if not isinstance(item, kind):
                    raise WbkError(f"table {key}: {item!r} is not a {kind.__name__}")
            object.__setattr__(self, key, items)
        if not isinstance(self.name, str):
            raise WbkError(f"table name {self.name!r} is not a string")
        short_text(self.name, "table name")
        self._check()

    def _check(self) -> None:
        if len(self.pieces) > MAX_PIECES:
            raise WbkError(
                f"{len(self.pieces)} pieces is more than wbk.table.MAX_PIECES ({MAX_PIECES})"
            )
        placed = _Placed(self.width, self.depth, self.pieces)
        for piece in self.pieces:
            self._check_piece(piece, placed)

    def _check_piece(self, piece: Piece, placed: _Placed) -> None:
        """``piece`` may join the pieces ``placed``: a name of its own, wholly on the table, in
        no obstacle and overlapping none of them. It is added to ``placed``."""
        foot = piece.footprint
        if piece.name in placed.names:
            raise WbkError(f"two pieces are called {piece.name!r}")
        if not placed.edge.covers(foot):
            raise WbkError(
                f"{piece.name!r} at position {_place(piece)} facing {piece.facing:.3g}: "
                f"its footprint leaves the table ({self.width:g} × {self.depth:g} inches)"
            )
        bounds = foot.bounds
        for terrain in self.terrain:
            if (
                terrain.kind == "obstacle"
                and _bounds_meet(bounds, terrain.polygon.bounds)
                and terrain.polygon.intersection(foot).area > AREA_TOLERANCE
            ):
                raise WbkError(
                    f"{piece.name!r} at position {_place(piece)} is inside "
                    f"{terrain.label} (no piece may stand in an obstacle)"
                )
        for other, other_foot in placed.near(bounds):
            if foot.intersection(other_foot).area > AREA_TOLERANCE:
                # the later piece is the one just put down (``with_piece`` adds at the end)
                raise WbkError(
                    f"{piece.name!r} at position {_place(piece)} overlaps "
                    f"{other.name!r} at position {_place(other)}"
                )
        placed.add(piece, foot)

    # --- reading ----------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike, *, pieces: type[Piece] = Piece) -> Table:
        """Read a table file; ``pieces`` is the game's piece class (``pz8.Tank`` for Pz 8)."""
        checked_file_name(path)
        return cls.from_toml(read_text(path, "table"), source=str(path), pieces=pieces)

    @classmethod
    def from_toml(cls, text: str, *, source: str = "table", pieces: type[Piece] = Piece) -> Table:
        """Read a table from TOML text (the format is in wbk's reference); errors name
        ``source``."""
        if not (isinstance(pieces, type) and issubclass(pieces, Piece)):
            raise WbkError(f"pieces {pieces!r} is not a Piece class")
        if not isinstance(text, str):
            raise WbkError(f"{source}: table text {text!r} is not a string")
        return read_table(text, source=source, pieces=pieces, make=cls)

    # --- asking -----------------------------------------------------------------------------

    def piece(self, name: str | Piece) -> Piece:
        """The piece called ``name`` (a piece given is looked up by its name)."""
        key = name.name if isinstance(name, Piece) else name
        for piece in self.pieces:
            if piece.name == key:
                return piece
        known = ", ".join(repr(p.name) for p in self.pieces) or "none"
        raise WbkError(f"no piece called {key!r} on the table (there are: {known})")

    def footprint(self, piece: str | Piece) -> Polygon:
        """The rectangle ``piece`` covers."""
        return self.piece(piece).footprint

    def distance(self, a: str | Piece, b: str | Piece) -> float:
        """The distance in inches between two pieces, centre to centre (for words and pictures:
        ``squared_distance`` meets a limit)."""
        pa, pb = self.piece(a), self.piece(b)
        return math.dist(pa.position, pb.position)

    def squared_distance(self, a: str | Piece, b: str | Piece) -> Fraction:
        """The square of the distance between two pieces, centre to centre, exactly: each
        coordinate the decimal it is written as (``wbk.tableexact``). A limit is met by it.

        >>> t = Table(24, 24, pieces=[Piece("F", (2.3, 2.7)), Piece("G", (13.1, 17.1))])
        >>> t.squared_distance("F", "G")
        Fraction(324, 1)
        """
        return squared_distance(self.piece(a).position, self.piece(b).position)

    def with_piece(self, piece: Piece) -> Table:
        """A copy with ``piece`` put on the table, replacing the piece of the same name if any."""
        if not isinstance(piece, Piece):
            raise WbkError(f"{piece!r} is not a Piece")
        kept = [p for p in self.pieces if p.name != piece.name]
        return replace(self, pieces=(*kept, piece))

    def without_piece(self, name: str | Piece) -> Table:
        """A copy with the piece called ``name`` taken off the table."""
        gone = self.piece(name).name
        return replace(self, pieces=tuple(p for p in self.pieces if p.name != gone))

    # --- writing ----------------------------------------------------------------------------

    def to_toml(self) -> str:
        """The table in wbk's table format (wbk's reference): terrain pieces, then pieces, each
        with every key its class knows. Comments are not kept. Pieces of different footprints
        cannot share one file's ``footprint`` and are an error."""
        return table_toml(self)

    def save(self, path: str | os.PathLike) -> None:
        """Write the table as TOML to a file whose name ends in ``.toml``; a failed save leaves
        any existing file untouched, and a table that cannot be written (a name holding a lone
        surrogate) is refused before anything is written. A new file gets the usual permissions
        (0o666 less the umask), a replaced file keeps its own."""
        save_table(self, path)

    def _repr_png_(self) -> bytes:
        from wbk.draw.tables import table_png

        return table_png(self)

    def hills_under(self, piece: str | Piece) -> tuple[Terrain, ...]:
        """The hills the piece's centre stands on: inside them, not on an edge (a centre on a
        hill's edge is at its foot, as a move's penalties read it: ``wbk.tableexact``)."""
        centre = exact_point(self.piece(piece).position)
        return tuple(t for t in self.terrain if t.kind == "hill" and inside(t, centre))

    def _blockers(
        self, exclude: set[str], hills_exempt: Iterable[Terrain] = (), obstacle_sight: str = ""
    ) -> list[tuple[str, Polygon, Piece | Terrain]]:
        exempt = set(map(id, hills_exempt))
        found: list[tuple[str, Polygon, Piece | Terrain]] = [
            (f"{p.name!r}", p.footprint, p) for p in self.pieces if p.name not in exclude
        ]
        found += [
            (t.label, t.polygon, t)
            for t in self.terrain
            if (t.kind == "obstacle" and (t.blocks_sight or obstacle_sight == "all_block"))
            or (t.kind == "hill" and id(t) not in exempt)
        ]
        return found

    def line_of_sight(
        self,
        firer: str | Piece,
        target: str | Piece,
        *,
        obstacle_sight: str = "as_marked",
        measured_against: float | None = None,
        rule: str = SIGHT,
    ) -> Sight:
        """What ``firer`` sees of ``target``: the visible fraction of its footprint from the
        firer's centre and what hides the rest (see the module's conventions). ``rule`` is the
        citation the steps carry.

        ``obstacle_sight`` (``OBSTACLE_SIGHT_READINGS``): ``"as_marked"`` (the default) lets an
        obstacle marked ``blocks_sight=False`` (a low wall) hide nothing; ``"all_block"`` lets
        every obstacle hide, whatever its mark.

        ``measured_against``: a limit the distance is compared with (a gun's range), so that
        the step of the distance reads as the limit only when it is exactly the limit
        (``wbk.tableexact.inches_against``).

        >>> t = Table(24, 24, pieces=[Piece("A", (4, 12)), Piece("B", (20, 12)),
        ...                          Piece("C", (12, 12))])
        >>> sight = t.line_of_sight("A", "B")
        >>> sight.has_los, sight.hidden_by
        (False, (("'C'", 1.0),))
        """
        a, b = self.piece(firer), self.piece(target)
        if a.name == b.name:
            raise WbkError(f"{a.name!r} cannot look at itself")
        _reading(obstacle_sight, OBSTACLE_SIGHT_READINGS, "obstacle sight reading")
        source = a.position
        target_area = b.footprint
        radius = 2 * math.hypot(self.width, self.depth) + 10
        hills = self.hills_under(a) + self.hills_under(b)
        distance = math.dist(a.position, b.position)
        said = (
            _inches(distance)
            if measured_against is None
            else inches_against(self.squared_distance(a, b), measured_against)
        )
        steps = [
            Step(
                f"{a.name!r} to {b.name!r}: {said} centre to centre",
                rule,
                about=(a.name, b.name),
            )
        ]
        for hill in dict.fromkeys(hills):
            steps.append(
                Step(
                    f"{hill.label} is under "
                    f"{'the firer' if hill in self.hills_under(a) else 'the target'}: "
                    "it does not block",
                    rule,
                    about=(hill.label,),
                )
            )
        between = _between(source, target_area)
        low = [t for t in self.terrain if t.kind == "obstacle" and not t.blocks_sight]
        for t in low:
            seen_over = obstacle_sight == "as_marked"
            said = "is seen over: it hides nothing" if seen_over else "blocks like any obstacle"
            if t.polygon.intersects(between):
                steps.append(
                    Step(f"{t.label}, marked as not blocking sight, {said}", rule, about=(t.label,))
                )
        blockers = [
            (label, polygon, blocker)
            for label, polygon, blocker in self._blockers({a.name, b.name}, hills, obstacle_sight)
            if polygon.intersects(between)
        ]
        hidden_by, grazing, hidden, visible, exact_visible = _shade(source, b, blockers, radius)
        steps += _shade_steps(b.name, hidden_by, grazing, visible, exact_visible, rule)
        return Sight(
            a.name,
            b.name,
            distance,
            visible,
            tuple(hidden_by),
            tuple(steps),
            hidden,
            exact_visible,
        )

    def reach(
        self,
        piece: str | Piece,
        inches: float,
        *,
        max_pivot: float = 45.0,
        rough_cost: float = 0.0,
        climb_cost: float = 0.0,
        directions: int = 91,
        rough_charged: str = "moving_through",
        pivot: str = "during",
        rule: str = MOVEMENT,
    ) -> Reach:
        """Where ``piece``'s centre can end a move of ``inches``, forward, pivoting once by at
        most ``max_pivot`` degrees either way.

        The model: the piece pivots on its centre to a direction within ``max_pivot`` of its
        facing (not allowed if the turned rectangle would overlap a piece or an obstacle or leave
        the table), then drives straight ahead. Under ``pivot="during"`` (``PIVOT_READINGS``,
        the default) it may first drive straight on along its facing and pivot there;
        ``"at_start"`` pivots only before it drives. Its swept rectangle may not enter another
        piece (wrecks included) or an obstacle, nor leave the table. Entering a rough piece
        costs ``rough_cost`` inches once per piece, and climbing onto a hill (its centre
        running into a hill from outside) costs ``climb_cost`` once per hill; leaving a hill
        (going down) is free. Penalties are charged where the centre runs in: a piece that
        cannot pay stops at the edge.

        ``rough_charged`` (``ROUGH_READINGS``) says which rough pieces are paid for:
        ``"moving_through"`` (the default) charges the piece the centre starts in too, as soon
        as it moves; ``"entering"`` charges only pieces it crosses into from outside.

        ``Reach.can_reach(point)`` decides a point exactly (``wbk.tableexact``: a centre on an
        edge of rough ground or a hill is outside it, touching a tank, an obstacle or the
        table's edge is allowed). ``Reach.area`` is its picture, drawn on ``directions`` (at
        most ``MAX_DIRECTIONS``) evenly spaced directions joined by triangles; in the open a
        later pivot reaches no place the first misses (the ±``max_pivot`` sector), and the
        picture of a later pivot turns every ``wbk.tablereach.LATER_PIVOT_STEP`` inches on.
        """
        return self.reaches(
            piece,
            (inches,),
            max_pivot=max_pivot,
            rough_cost=rough_cost,
            climb_cost=climb_cost,
            directions=directions,
            rough_charged=rough_charged,
            pivot=pivot,
            rule=rule,
        )[0]

    def reaches(
        self,
        piece: str | Piece,
        allowances: Sequence[float],
        *,
        max_pivot: float = 45.0,
        rough_cost: float = 0.0,
        climb_cost: float = 0.0,
        directions: int = 91,
        rough_charged: str = "moving_through",
        pivot: str = "during",
        rule: str = MOVEMENT,
    ) -> tuple[Reach, ...]:
        """``reach`` for each move of ``allowances`` (inches), its courses worked out once: a
        ``Reach`` for each, in their order."""
        p = self.piece(piece)
        if isinstance(allowances, (str, bytes)) or not isinstance(allowances, Sequence):
            raise WbkError(f"allowances {allowances!r} is not a list of inches")
        if not allowances:
            raise WbkError("allowances: no move to work out")
        allowances = [_number(inches, "move of", positive=True) for inches in allowances]
        max_pivot = _number(max_pivot, "max pivot", positive=True)
        if max_pivot > 180:
            raise WbkError(f"max pivot {max_pivot:g} is more than 180 degrees")
        rough_cost = _number(rough_cost, "rough cost", positive=True)
        climb_cost = _number(climb_cost, "climb cost", positive=True)
        if isinstance(directions, bool) or not isinstance(directions, int) or directions < 2:
            raise WbkError(f"directions {directions!r} is not a whole number of 2 or more")
        if directions > MAX_DIRECTIONS:
            raise WbkError(
                f"directions {directions} is more than wbk.table.MAX_DIRECTIONS ({MAX_DIRECTIONS})"
            )
        _reading(rough_charged, ROUGH_READINGS, "rough terrain reading")
        _reading(pivot, PIVOT_READINGS, "pivot reading")
        return reaches(
            self,
            p,
            allowances,
            max_pivot=max_pivot,
            rough_cost=rough_cost,
            climb_cost=climb_cost,
            directions=directions,
            rough_charged=rough_charged,
            pivot=pivot,
            rule=rule,
        )


def _shade(source, target: Piece, blockers, radius: float):
    """What ``blockers`` (label, polygon, piece or terrain), each meeting the lines of sight,
    hide of ``target`` from ``source``: (label, share) of each that hides some, the labels of
    those that only touch the lines, the hidden part (a shapely geometry), the share seen, and
    that share exactly where a verdict hangs on it within ``AREA_TOLERANCE`` (or None)."""
    target_area = target.footprint
    whole = target_area.area
    shadows, hidden_by, grazing = [], [], []
    for label, polygon, blocker in blockers:
        shadow = _shadow(source, polygon, radius)
        hidden = target_area.intersection(shadow).area
        if hidden <= AREA_TOLERANCE:  # a contact, or a sliver: exactly which, where it can
            share = hidden_share(source, target, [blocker])
            if not share:
                grazing.append(label)
                continue
            hidden = float(share) * whole
        shadows.append(shadow)
        hidden_by.append((label, min(1.0, hidden / whole)))
    hidden_part = target_area.intersection(unary_union(shadows)) if shadows else Polygon()
    hidden_total = hidden_part.area
    visible = 1 - hidden_total / whole
    exact_visible = None
    edges = (0.0, whole / 2, whole)  # all seen, half hidden (a reading), none seen
    if any(abs(hidden_total - edge) <= AREA_TOLERANCE for edge in edges):
        casting = [blocker for _label, _polygon, blocker in blockers]
        share = hidden_share(source, target, casting) if shadows else Fraction(0)
        if share is not None:
            exact_visible = 1 - share
            visible = float(exact_visible)
    if exact_visible is None and hidden_total <= AREA_TOLERANCE:
        visible = 1.0
    elif exact_visible is None and whole - hidden_total <= AREA_TOLERANCE:
        visible = 0.0
    return hidden_by, grazing, hidden_part, visible, exact_visible


def _shade_steps(target: str, hidden_by, grazing, visible, exact_visible, rule) -> list[Step]:
    """The steps of what hides the target, what only touches the lines to it, and the
    verdict: in the open, in cover, or not seen."""
    steps = [
        Step(
            f"{label} only touches the lines of sight to {target!r}: touching hides nothing",
            rule,
            about=(label,),
        )
        for label in grazing
    ]
    steps += [
        Step(f"{label} hides {seen_share(share)} of {target!r}", rule, about=(label, target))
        for label, share in hidden_by
    ]
    seen = visible if exact_visible is None else exact_visible
    if seen == 1:
        verdict = f"all of {target!r} is seen: in the open"
    elif seen == 0:
        verdict = f"none of {target!r} is seen: no line of sight"
    else:
        verdict = f"{seen_share(visible)} of {target!r} is seen: partly hidden, in cover"
    steps.append(Step(verdict, rule, about=(target,)))
    return steps


def _reading(value, readings: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in readings:
        raise WbkError(f"{what} {value!r} is not one of {', '.join(readings)}")
    return value


def seen_share(fraction: float) -> str:
    """A share of a footprint in whole percent, never rounded to 0% or 100% when it is
    neither: "62%", "less than 1%".

    >>> seen_share(0.62), seen_share(0.001)
    ('62%', 'less than 1%')
    """
    if (
        isinstance(fraction, bool)
        or not isinstance(fraction, (int, float))
        or not 0 <= fraction <= 1
    ):
        raise WbkError(f"share {fraction!r} is not a number from 0 to 1")
    if 0 < fraction < 0.005:
        return "less than 1%"
    if 0.995 <= fraction < 1:
        return "more than 99%"
    return f"{fraction:.0%}"


def _coordinates(geometry) -> list[tuple[float, float]]:
    return [tuple(c) for c in shapely.get_coordinates(geometry)]


def _between(source, target: Polygon) -> Polygon:
    """The region every sight line from the source to the target stays in (the convex hull of
    both): a blocker outside it hides nothing."""
    return shapely.convex_hull(shapely.union(Point(source), target))


def _shadow(source, polygon: Polygon, radius: float) -> Polygon:
    """The region a polygon hides from a point outside it, out to ``radius``: the polygon and,
    behind each of its edges, the part of the sector the edge subtends beyond it. A point outside
    the polygon is hidden exactly when the segment to it crosses an edge, that is, when it lies
    behind that edge."""
    sx, sy = source
    step = math.radians(10)
    far = radius / math.cos(step / 2)
    parts = [polygon]
    coords = _coordinates(polygon.exterior)
    for (ax, ay), (bx, by) in itertools.pairwise(coords):
        cross = (ax - sx) * (by - sy) - (ay - sy) * (bx - sx)
        if abs(cross) < 1e-12:
            continue
        angle_a, angle_b = math.atan2(ay - sy, ax - sx), math.atan2(by - sy, bx - sx)
        sweep = (angle_a - angle_b + math.pi) % (2 * math.pi) - math.pi
        n = max(1, math.ceil(abs(sweep) / step))
        arc = [
            (
                sx + far * math.cos(angle_b + sweep * k / n),
                sy + far * math.sin(angle_b + sweep * k / n),
            )
            for k in range(n + 1)
        ]
        parts.append(Polygon([(ax, ay), (bx, by), *arc]))
    return unary_union(parts)
