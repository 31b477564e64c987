"""What lies on a table measured in inches (``wbk.table``): terrain pieces as polygons and
pieces (tanks) as rectangles, with the limits wbk takes and the checks that keep a table's
pieces apart.

The conventions (inches, facing in degrees counterclockwise from +x, a piece ``length`` long
along its facing) are ``wbk.table``'s; the names here are importable from it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from numbers import Real
from typing import ClassVar

import shapely
from shapely.geometry import Polygon, box

from wbk.checks import short_text
from wbk.errors import WbkError

__all__ = [
    "AREA_TOLERANCE",
    "FOOTPRINT",
    "LENGTH_TOLERANCE",
    "MAX_INCHES",
    "MAX_PIECES",
    "MOST_POINTS",
    "MOST_TERRAIN",
    "TERRAIN_KINDS",
    "Piece",
    "Terrain",
]

TERRAIN_KINDS = ("rough", "obstacle", "hill")
#: The largest size, coordinate or move in inches wbk takes (about 830 feet): past it the
#: geometry library's floating point gives up, so larger values are refused, not computed.
MAX_INCHES = 10_000
#: The most pieces a table holds: far more than any game puts down (Pz 8 plays a platoon or two
#: a side), few enough to draw and check at once (a table may come from a stranger).
MAX_PIECES = 100
#: The most corners one piece of terrain may have, and the most pieces of terrain on a table: a
#: table may come from a stranger, and every edge blocks sight and movement.
MOST_POINTS = 64
MOST_TERRAIN = 200
#: The default footprint of a piece, (width, length) in inches.
FOOTPRINT = (1.5, 2.5)
#: Areas (square inches) below this count as nothing in sight and movement.
AREA_TOLERANCE = 1e-6
#: Lengths (inches) below this count as nothing.
LENGTH_TOLERANCE = 1e-9


def _number(
    value, what: str, *, positive: bool = False, allow_zero: bool = True, limit: bool = True
) -> float:
    """A finite number; with ``limit`` (the default) at most ``MAX_INCHES`` either way."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise WbkError(f"{what} {value!r} is not a number")
    value = float(value)
    if limit and abs(value) > MAX_INCHES:
        raise WbkError(
            f"{what} {value:g} is too large (wbk.table.MAX_INCHES: at most {MAX_INCHES} inches)"
        )
    if positive and (value < 0 or (value == 0 and not allow_zero)):
        raise WbkError(f"{what} {value:g} is not {'positive' if not allow_zero else '0 or more'}")
    return value


def _point(value, what: str) -> tuple[float, float]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise WbkError(f"{what} {value!r} is not a point (expected two numbers, x and y)")
    return (_number(value[0], what), _number(value[1], what))


def _inches(x: float) -> str:
    return f'{x:.3g}"' if abs(x) < 100 else f'{x:.0f}"'


# --- the pieces on the table ----------------------------------------------------------------


@dataclass(frozen=True)
class Terrain:
    """A terrain piece: a simple polygon of one kind (``"rough"``, ``"obstacle"`` or ``"hill"``).

    ``blocks_sight`` says whether it hides what lies behind it. Obstacles and hills do, rough
    terrain does not; an obstacle may be marked ``blocks_sight=False`` (a low wall a tank sees
    over but cannot drive through). Left out (``None``), it is the kind's own.
    """

    kind: str
    points: tuple[tuple[float, float], ...]
    name: str = ""
    blocks_sight: bool | None = None
    _polygon: Polygon = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in TERRAIN_KINDS:
            raise WbkError(f"terrain kind {self.kind!r} is not one of {', '.join(TERRAIN_KINDS)}")
        if not isinstance(self.name, str):
            raise WbkError(f"terrain name {self.name!r} is not a string")
        short_text(self.name, "terrain name")
        own = self.kind != "rough"
        if self.blocks_sight is None:
            object.__setattr__(self, "blocks_sight", own)
        elif not isinstance(self.blocks_sight, bool):
            raise WbkError(f"blocks_sight {self.blocks_sight!r} is not true or false")
        elif self.kind != "obstacle" and self.blocks_sight != own:
            said = "always hides" if own else "never hides"
            raise WbkError(
                f"blocks_sight {self.blocks_sight!r} on {self.kind}: only an obstacle may be "
                f"marked (a {self.kind} {said} what lies behind it)"
            )
        if isinstance(self.points, (str, bytes)) or not isinstance(self.points, Iterable):
            raise WbkError(f"terrain points {self.points!r} is not a list of points")
        points = tuple(_point(p, "terrain point") for p in self.points)
        if len(points) > MOST_POINTS:  # a polygon's every edge casts a shadow to work out
            raise WbkError(
                f"terrain {self.name!r}: {len(points):,} points is more than wbk takes "
                f"(wbk.table.MOST_POINTS: {MOST_POINTS})"
            )
        if len(points) < 3:
            raise WbkError(f"terrain points {list(points)!r}: a polygon needs at least 3 points")
        polygon = Polygon(points)
        if not polygon.is_valid or polygon.area <= AREA_TOLERANCE:
            why = shapely.is_valid_reason(polygon) if not polygon.is_valid else "no area"
            raise WbkError(f"terrain points {list(points)!r} are not a simple polygon ({why})")
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "_polygon", polygon)

    @property
    def polygon(self) -> Polygon:
        return self._polygon

    @property
    def label(self) -> str:
        return f"{self.kind} {self.name!r}" if self.name else self.kind


@dataclass(frozen=True)
class Piece:
    """A piece on the table: a rectangle ``length`` long along its ``facing`` and ``width`` wide,
    centred on ``position``. A game subclasses it with its own fields (``pz8.Tank``).

    ``toml_keys`` maps the extra keys a table file may give a piece to the field they set;
    ``Piece`` itself has none.
    """

    name: str
    position: tuple[float, float] = (0.0, 0.0)
    facing: float = 0.0
    side: str = ""
    width: float = FOOTPRINT[0]
    length: float = FOOTPRINT[1]

    toml_keys: ClassVar[dict[str, str]] = {}

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise WbkError(f"piece name {self.name!r} is not a non-empty string")
        short_text(self.name, "piece name")
        if not isinstance(self.side, str):
            raise WbkError(f"side {self.side!r} of {self.name!r} is not a string")
        short_text(self.side, f"side of {self.name!r}")
        object.__setattr__(self, "position", _point(self.position, f"position of {self.name!r}"))
        facing = _number(self.facing, f"facing of {self.name!r}", limit=False)
        object.__setattr__(self, "facing", facing % 360.0)
        for key in ("width", "length"):
            value = _number(
                getattr(self, key), f"{key} of {self.name!r}", positive=True, allow_zero=False
            )
            object.__setattr__(self, key, value)

    @property
    def footprint(self) -> Polygon:
        """The rectangle the piece covers on the table."""
        return _rectangle(self.position, self.facing, self.width, self.length)


def _rectangle(centre, facing: float, width: float, length: float, behind: float = 0.0) -> Polygon:
    """A ``width`` × ``length`` rectangle centred on ``centre`` along ``facing`` (degrees), its rear
    moved ``behind`` inches further back (a swept rectangle)."""
    (x, y), a = centre, math.radians(facing)
    dx, dy = math.cos(a), math.sin(a)  # along the facing
    nx, ny = -dy, dx  # across it
    front, rear, half = length / 2, -(length / 2 + behind), width / 2
    return Polygon(
        [
            (x + dx * front + nx * half, y + dy * front + ny * half),
            (x + dx * rear + nx * half, y + dy * rear + ny * half),
            (x + dx * rear - nx * half, y + dy * rear - ny * half),
            (x + dx * front - nx * half, y + dy * front - ny * half),
        ]
    )


def _place(piece: Piece) -> str:
    """A piece's centre to a tenth of an inch, as wargamers measure: "[30.0, 4.5]"."""
    x, y = piece.position
    return f"[{x:.1f}, {y:.1f}]"


def _bounds_meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two bounds (min x, min y, max x, max y) overlap or touch."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


class _Placed:
    """The pieces put on a table ``width`` × ``depth`` so far, filed by the squares of a grid
    their bounds touch, so that a new piece is compared only with the pieces near it. A square
    is at least as wide as the largest of ``pieces`` is long, so each piece touches at most
    nine."""

    def __init__(self, width: float, depth: float, pieces: Sequence[Piece]):
        self.cell = max([4.0, *(math.hypot(p.width, p.length) for p in pieces)])
        self.edge = box(0, 0, width, depth).buffer(LENGTH_TOLERANCE)
        self.names: set[str] = set()
        self.cells: dict[tuple[int, int], list[tuple[Piece, Polygon]]] = {}
        self.order: dict[int, int] = {}

    def _cells(self, bounds: tuple[float, ...]) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = (math.floor(v / self.cell) for v in bounds)
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]

    def near(self, bounds: tuple[float, ...]) -> list[tuple[Piece, Polygon]]:
        """The pieces whose bounds meet ``bounds``, in the order they were put down."""
        found = {
            id(piece): (piece, foot)
            for cell in self._cells(bounds)
            for piece, foot in self.cells.get(cell, ())
            if _bounds_meet(bounds, foot.bounds)
        }
        return sorted(found.values(), key=lambda item: self.order[id(item[0])])

    def add(self, piece: Piece, foot: Polygon) -> None:
        self.names.add(piece.name)
        self.order[id(piece)] = len(self.order)
        for cell in self._cells(foot.bounds):
            self.cells.setdefault(cell, []).append((piece, foot))
