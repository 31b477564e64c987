"""Pz 8, Movement: a tank's movement roll, and where on the table it can get with it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from wbk.checks import Input, known_keywords, whole
from wbk.dice import Dist, d6
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.table import MAX_DIRECTIONS, Table
from wbk.tableexact import Way, exact_point, ways_to

from .readings import PIVOT, ROUGH_TERRAIN
from .tanks import (
    DAMAGE,
    FLAG,
    MAX_PIVOT,
    MOVE_VALUES,
    MOVEMENT,
    SHAKEN,
    TANK_CLASS,
    TERRAIN_PENALTY,
    Tank,
    tank_on,
)

#: A point on the table, x and y in inches: where a tank may end its move.
POINT = Input.list(Input.number(-1000, 1000), least=2, most=2)


@dataclass(frozen=True, order=True)
class Movement:
    """One movement roll: how many inches the tank may move, and whether the turn passes after."""

    inches: int
    turn_passes: bool

    def __post_init__(self) -> None:
        if isinstance(self.inches, bool) or not isinstance(self.inches, int) or self.inches < 0:
            raise WbkError(f"movement inches {self.inches!r} is not a whole number of 0 or more")
        FLAG.check(self.turn_passes, "turn_passes")

    def __str__(self) -> str:
        return f'{self.inches}"' + (", then the turn passes" if self.turn_passes else "")


def movement(tank_class: str) -> Dist:
    """Pz 8, Movement: light tanks move 5 + D6 inches, medium 4 + D6, heavy 3 + D6; on a 1 or 2
    the tank still finishes its move, then the turn passes.

    >>> movement("light").probability(Movement(11, False))
    Fraction(1, 6)
    >>> (movement("medium").map(lambda m: m.turn_passes)).probability(True)
    Fraction(1, 3)
    """
    base = MOVE_VALUES[TANK_CLASS.check(tank_class, "class")]
    return d6.map(lambda roll: Movement(base + roll, roll <= 2))


@dataclass(frozen=True)
class ReachBand:
    """The places a tank's centre reaches on a roll of ``roll`` but not on one lower; it gets
    there with ``probability`` (the chance of rolling ``roll`` or more)."""

    roll: int
    inches: int
    probability: Fraction
    turn_passes: bool
    area: BaseGeometry


@dataclass(frozen=True)
class MovementReach:
    """Where a tank can end its move, roll by roll: the bands drawn, and ``chance_to_reach``
    deciding a point exactly."""

    tank: str
    start: tuple[float, float]
    bands: tuple[ReachBand, ...]
    steps: tuple[Step, ...]
    #: the table the result was read off, for its picture and its exact answers
    table: Table | None = field(default=None, repr=False, compare=False)
    #: the readings it was worked out under (``movement_reach``'s keywords)
    readings: tuple[tuple[str, str], ...] = ()

    def ways(self, point: Sequence[float]) -> tuple[Way, ...]:
        """The ways the tank's centre can take to ``point`` (x, y) on the highest roll, each
        decided exactly (``wbk.tableexact.ways_to``: within the 45° pivot, clear of obstacles,
        tanks and the table's edge, its length and penalties measured exactly); ``Way.allows``
        says which rolls cover one. None when it cannot move or cannot get there."""
        POINT.check(point, "point")
        if not self.bands or self.table is None:
            return ()
        readings = dict(self.readings)
        return ways_to(
            self.table,
            self.table.piece(self.tank),
            point,
            inches=self.bands[-1].inches,
            max_pivot=MAX_PIVOT,
            rough_cost=TERRAIN_PENALTY,
            climb_cost=TERRAIN_PENALTY,
            rough_charged=readings.get("rough_terrain", ROUGH_TERRAIN.default),
            pivot=readings.get("pivot", PIVOT.default),
        )

    def chance_to_reach(self, point: Sequence[float]) -> Fraction:
        """The chance the tank's centre can end its move at ``point`` (x, y): the chance of the
        lowest roll that covers a way there (the start counts as reached: a tank may stay).
        Decided exactly (``ways``), never read off the bands drawn."""
        POINT.check(point, "point")
        if exact_point(point) == exact_point(self.start):
            return Fraction(1)
        ways = self.ways(point)
        for band in self.bands:
            if any(w.allows(band.inches) for w in ways):
                return band.probability
        return Fraction(0)

    def _repr_html_(self) -> str:
        return f"<b>{self.tank}: where it can move</b>{steps_html(self.steps)}"


@known_keywords
def movement_reach(
    table: Table,
    tank: str | Tank,
    *,
    directions: int = 91,
    rough_terrain: str = "moving_through",
    pivot: str = "during",
) -> MovementReach:
    """Pz 8, Movement on the table: for each D6 roll, the places the tank's centre can reach
    (``Table.reach`` with a pivot of up to 45°, 3" for rough terrain and for climbing a hill, no
    moving through obstacles or other tanks), as bands with the chance of getting that far.

    The card lets a tank "pivot ... up to 45 degrees during" its move: ``pivot="during"`` (the
    default) lets it drive straight on first and pivot there, once; ``"at_start"`` pivots only
    before it drives. In the open both reach the same places (the 45° sector); around
    obstacles and rough ground a later pivot reaches more. ``chance_to_reach`` decides a point
    exactly; the bands are its picture, drawn on ``directions`` directions (at most
    ``wbk.table.MAX_DIRECTIONS``, 361).

    "Moving through rough terrain" costs 3": ``rough_terrain="moving_through"`` (the default,
    the card's words) charges a tank that starts in a rough piece as soon as it moves;
    ``"entering"`` charges only pieces its centre drives into, so leaving the one it starts in
    is free. Each piece is charged once a move.
    """
    t = tank_on(table, tank)
    ROUGH_TERRAIN.check(rough_terrain, "rough terrain reading")
    PIVOT.check(pivot, "pivot reading")
    readings = (("rough_terrain", rough_terrain), ("pivot", pivot))
    if whole(directions, "directions", 2) > MAX_DIRECTIONS:
        raise WbkError(
            f"directions {directions} is more than wbk.table.MAX_DIRECTIONS ({MAX_DIRECTIONS})"
        )
    base = MOVE_VALUES[t.tank_class]
    steps = [
        Step(
            f"{t.name!r} is {t.tank_class}: it moves {base} + D6 inches", MOVEMENT, about=(t.name,)
        )
    ]
    if t.destroyed or t.shaken:
        why = (
            ("it is destroyed: a wreck does not move", DAMAGE)
            if t.destroyed
            else ("it is shaken: it cannot move, only turn its turret", SHAKEN)
        )
        steps.append(Step(*why))
        return MovementReach(t.name, t.position, (), tuple(steps), table, readings)
    bands, before = [], Point(t.position)
    reaches = table.reaches(
        t,
        [base + roll for roll in range(1, 7)],
        max_pivot=MAX_PIVOT,
        rough_cost=TERRAIN_PENALTY,
        climb_cost=TERRAIN_PENALTY,
        directions=directions,
        rough_charged=rough_terrain,
        pivot=pivot,
        rule=MOVEMENT if pivot == PIVOT.default else f"{MOVEMENT}, {PIVOT.cited(pivot)}",
    )
    for roll, reach in enumerate(reaches, 1):
        area = unary_union([reach.area, before])
        bands.append(
            ReachBand(
                roll,
                base + roll,
                Fraction(7 - roll, 6),
                roll <= 2,
                area.difference(before) if roll > 1 else area,
            )
        )
        before = area
        if roll == 6:
            steps += [s for s in reach.steps[1:]]
    steps.append(
        Step(
            f"rolls 1 to 6 give {base + 1} to {base + 6} inches; penalties of "
            f'{TERRAIN_PENALTY}" for rough terrain and for climbing a hill, '
            f"pivot up to {MAX_PIVOT}° "
            + ("anywhere along the move" if pivot == "during" else "at the start only"),
            MOVEMENT if pivot == PIVOT.default else f"{MOVEMENT}, {PIVOT.cited(pivot)}",
            about=(t.name, "reach"),
        )
    )
    steps.append(
        Step(
            "on a 1 or 2 the tank finishes its move, then the turn passes",
            MOVEMENT,
            about=("reach 1", "reach 2"),
        )
    )
    return MovementReach(t.name, t.position, tuple(bands), tuple(steps), table, readings)


def reach_changes(here: MovementReach, there: MovementReach) -> BaseGeometry:
    """Where the chance to be reached differs between two reaches of one tank (under two
    readings, say): the places some roll reaches under one and not under the other."""
    moved = []
    reached_here, reached_there = Point(here.start).buffer(0), Point(here.start).buffer(0)
    for a, b in zip(here.bands, there.bands, strict=True):
        reached_here, reached_there = reached_here.union(a.area), reached_there.union(b.area)
        moved.append(reached_here.symmetric_difference(reached_there))
    return unary_union(moved).buffer(0)
