"""Pz 8, the postcard-sized WW2 armour skirmish game, as code.

Each side has a platoon of light, medium and heavy tanks, one of them its HQ, with regular or
veteran crews, on a table measured in inches (``wbk.table``). A side activates one tank at a time
to move or to shoot; a movement or gun die showing 1 or 2 passes the turn to the other side.
Paragraphs are cited by the names wbk gives them: Movement, Shooting, Penetration and Damage,
and Optional Rule: Shaken.

Public names:

- ``Tank``: a ``wbk.table.Piece`` with ``tank_class``, ``gun``, ``crew``, ``is_hq``, ``shaken``,
  ``destroyed`` (a wreck stays on the table and blocks like any tank) and ``platoon``;
  ``gun_for_calibre(calibre)``: the gun class of a calibre;
- ``movement(tank_class)``: a ``Dist`` of ``Movement(inches, turn_passes)``;
  ``movement_reach(table, tank)``: where the tank can get on each roll, as bands with their
  chances; ``platoons(table, side)``: a side's platoons; ``platoon_movement(table, side,
  platoon=...)``: the platoon move; ``platoon_warnings(table)``: platoons unlike the card's;
- ``attack(gun, target_class, ...)``: the exact ``Dist`` of ``AttackOutcome(hits, destroyed,
  shaken, turn_passes)``; ``attack_procedure(...)``: the same with its working;
  ``attack_chances(...)``: its chances of a hit, a kill, a shaken target and the turn passing;
  ``shot(table, firer, target)``: range, line of sight, cover and the attack on the table;
- ``rally_chance(...)``: the chance to remove a shaken marker; ``rally(table, tank)``: the same
  read off the table (the tank's own platoon's HQ, its distance and state);
- ``keep_initiative(activations)``: the chance a side still has the initiative after them;
- ``duel(first, second, range_inches, ...)``: two tanks trading shots to the end, exactly;
- ``load_table(path)``, ``example_table()``: table files with Pz 8 tanks;
- the rule values ``MOVE_VALUES``, ``GUN_RANGES``, ``GUN_DICE``, ``HIT_NUMBERS``,
  ``SAVE_NUMBERS``, ``CALIBRE_LIMITS``, the limit ``MAX_ACTIVATIONS``, and the reading values
  ``NATURAL_SIX_READINGS``, ``COVER_READINGS``, ``OBSTACLE_SIGHT_READINGS``,
  ``ROUGH_READINGS``, ``SHAKEN_PLATOON_READINGS``, ``DUEL_TURNS``, ``ACTIVATIONS``.

The readings wbk takes where the card is silent (each is stated where it is used):

- A gun die hits when the die plus its modifiers reaches the hit number: a natural 6 is no
  automatic hit (a short gun needs 5: a shaken firer shooting at a tank in cover needs a 7 and
  cannot hit), and a modified 7 hits like a 6. ``natural_six="always_hits"`` is the other reading.
- "The turn passes" reads the unmodified die: every gun die rolled counts, the unused die of a
  medium gun included; armour saves never pass the turn; a rally roll never does either (the
  card gives it no turnover).
- The veteran +1 applies to the rally roll of a tank near its HQ; the HQ rallies itself on
  4-6, veteran or not (the card gives the HQ's own roll no bonus).
- Distances are centre to centre; "within 12 inches of its HQ" and "within 3 inches of the HQ"
  too. A target is in cover when part of it is hidden (``wbk.table`` says how that is measured).
- A tank's HQ is the HQ of its own platoon (``Tank.platoon``); a side may field several.

Named readings (a keyword each, the default first): ``natural_six``, ``cover_reading`` and
``obstacle_sight`` (``shot``), ``rough_terrain`` (``movement_reach``), ``shaken_hq`` and
``shaken_member`` (``platoon_movement``), ``turns`` (``duel``).

>>> movement("heavy").probability(Movement(4, True))
Fraction(1, 6)
>>> attack("short", "medium").probability(AttackOutcome(0, False, False, False))
Fraction(1, 27)
"""

from __future__ import annotations

import functools
import html
import math
import numbers
import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import ClassVar

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from wbk.checks import choice as _choice
from wbk.checks import flag as _flag
from wbk.checks import whole as _whole
from wbk.dice import Dist, chance, d6, percent
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games import Game, register
from wbk.games.pz8.readings import READINGS as _DECLARED
from wbk.table import MAX_DIRECTIONS, MAX_INCHES, Piece, Table
from wbk.table import OBSTACLE_SIGHT_READINGS as OBSTACLE_SIGHTS
from wbk.table import ROUGH_READINGS as ROUGH_CHARGES

__all__ = [
    "ACTIVATIONS",
    "CALIBRE_LIMITS",
    "COVER_READINGS",
    "DUEL_TURNS",
    "GUN_DICE",
    "GUN_RANGES",
    "HIT_NUMBERS",
    "MAX_ACTIVATIONS",
    "MOVE_VALUES",
    "NATURAL_SIX_READINGS",
    "OBSTACLE_SIGHT_READINGS",
    "READING_WORDS",
    "ROUGH_READINGS",
    "SAVE_NUMBERS",
    "SHAKEN_PLATOON_READINGS",
    "AttackOutcome",
    "Movement",
    "Tank",
    "attack",
    "attack_chances",
    "attack_procedure",
    "duel",
    "example_table",
    "gun_for_calibre",
    "keep_initiative",
    "load_table",
    "movement",
    "movement_reach",
    "platoon_movement",
    "platoon_warnings",
    "platoons",
    "rally",
    "rally_chance",
    "shot",
]

MOVEMENT = "Pz 8, Movement"
SHOOTING = "Pz 8, Shooting"
DAMAGE = "Pz 8, Penetration and Damage"
SHAKEN = "Pz 8, Optional Rule: Shaken"

TANK_CLASSES = ("light", "medium", "heavy")
GUNS = ("short", "medium", "long")
CREWS = ("regular", "veteran")

#: Movement: inches a tank adds to its D6.
MOVE_VALUES = {"light": 5, "medium": 4, "heavy": 3}
#: Shooting: main gun range in inches.
GUN_RANGES = {"short": 12, "medium": 18, "long": 24}
#: Shooting: dice rolled per attack.
GUN_DICE = {"short": 3, "medium": 2, "long": 1}
#: Shooting: the (modified) roll a die needs to hit.
HIT_NUMBERS = {"short": 5, "medium": 5, "long": 4}
#: Penetration and Damage: the save roll needed, by target class, then by the firer's gun.
SAVE_NUMBERS = {
    "light": {"short": 6, "medium": 6, "long": 6},
    "medium": {"short": 4, "medium": 5, "long": 6},
    "heavy": {"short": 3, "medium": 4, "long": 5},
}
#: Penetration and Damage / Movement: penalty in inches for rough terrain or climbing a hill.
TERRAIN_PENALTY = 3
#: Movement: the most a tank may pivot during its move, in degrees.
MAX_PIVOT = 45
#: Movement: how near the HQ every tank of a platoon move must be, in inches.
PLATOON_RADIUS = 3
#: Optional Rule: Shaken: how near its HQ a tank must be to rally, in inches.
RALLY_RADIUS = 12

#: What a natural 6 means: "modified" (it hits only if the modified roll reaches the hit
#: number) or "always_hits".
NATURAL_SIX_READINGS = ("modified", "always_hits")
#: When a partly hidden target is in cover: "partly_hidden" (any part hidden, the default) or
#: "half_hidden" (half of it or more).
COVER_READINGS = ("partly_hidden", "half_hidden")
#: Who shoots next in a duel: "card" (the turnover on a gun die of 1 or 2) or "alternate" (one
#: attack each in turn, the reading without the turnover).
DUEL_TURNS = ("card", "alternate")
#: What a shaken tank does to its platoon's move (``platoon_movement``'s ``shaken_hq`` and
#: ``shaken_member``): "stays_put" (it stays, the rest may move) or "no_platoon_move".
SHAKEN_PLATOON_READINGS = ("stays_put", "no_platoon_move")
#: Which rough pieces a move pays for (``movement_reach``): "moving_through" (the piece it starts
#: in too) or "entering" (only pieces it drives into); see ``wbk.table.ROUGH_READINGS``.
ROUGH_READINGS = ROUGH_CHARGES
#: Which obstacles block sight (``shot``): "as_marked" (not those a table file marks
#: ``blocks_sight = false``, a low wall) or "all_block"; see ``wbk.table``.
OBSTACLE_SIGHT_READINGS = OBSTACLE_SIGHTS
#: Each reading's keyword (as the functions take it), its values and each value's words for a
#: control: panels, pictures and "compare readings" build from this one declaration.
#: ``cover_reading``, ``natural_six`` and ``obstacle_sight`` are ``shot``'s, ``turns``
#: ``duel``'s, ``shaken_hq`` / ``shaken_member`` ``platoon_movement``'s and ``rough_terrain``
#: ``movement_reach``'s.
READING_WORDS: dict[str, dict[str, str]] = {
    "natural_six": {
        "modified": "a natural 6 hits only if the modified roll does",
        "always_hits": "a natural 6 always hits",
    },
    "cover_reading": {
        "partly_hidden": "cover: any part hidden",
        "half_hidden": "cover: half or more hidden",
    },
    "turns": {
        "card": "turnover on a gun die of 1 or 2 (the card)",
        "alternate": "one attack each in turn",
    },
    "shaken_hq": {
        "stays_put": "a shaken HQ stays, its tanks may move",
        "no_platoon_move": "a shaken HQ: no platoon move",
    },
    "shaken_member": {
        "stays_put": "a shaken tank stays, the rest move",
        "no_platoon_move": "a shaken tank: no platoon move",
    },
    "rough_terrain": {
        "moving_through": "rough charged moving through (start included)",
        "entering": "rough charged only when entered",
    },
    "obstacle_sight": {
        "as_marked": "low obstacles seen over where marked",
        "all_block": "every obstacle blocks sight",
    },
}
#: Shooting: the largest calibre, in whole millimetres, of a short and of a medium gun. The card
#: gives short "up to 47mm or 2 pounder", medium "50mm up to 76mm", long "over 76mm": wbk puts
#: the 48 and 49 mm it leaves out with the short guns (the medium band starts at 50 mm).
CALIBRE_LIMITS = {"short": 49, "medium": 76}

#: The most activations ``keep_initiative`` follows: a side keeps the turn through 1,000 moves
#: with a chance below 10^-176, and longer lists only make ever longer fractions.
MAX_ACTIVATIONS = 1000

#: The kinds of activation ``keep_initiative`` knows.
ACTIVATIONS = ("move", "platoon_move", "shoot_short", "shoot_medium", "shoot_long", "rally")


@dataclass(frozen=True, kw_only=True)
class Tank(Piece):
    """A Pz 8 tank: a piece on the table (name, position, facing, side, footprint) with its class,
    gun, crew and state. A destroyed tank is a wreck: it stays on the table as an obstacle.

    >>> Tank("Tiger", (10, 4), tank_class="heavy", gun="long", crew="veteran").is_veteran
    True
    """

    tank_class: str = "medium"
    gun: str = "medium"
    crew: str = "regular"
    is_hq: bool = False
    shaken: bool = False
    destroyed: bool = False
    #: The tank's platoon within its side ("" when the side fields a single platoon).
    platoon: str = ""

    #: table file key -> field
    toml_keys: ClassVar[dict[str, str]] = {
        "class": "tank_class",
        "gun": "gun",
        "crew": "crew",
        "hq": "is_hq",
        "shaken": "shaken",
        "destroyed": "destroyed",
        "platoon": "platoon",
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.platoon, str):
            raise WbkError(f"platoon {self.platoon!r} of {self.name!r} is not a quoted string")
        _choice(self.tank_class, TANK_CLASSES, "class")
        _choice(self.gun, GUNS, "gun")
        _choice(self.crew, CREWS, "crew")
        for key, shown in (("is_hq", "hq"), ("shaken", "shaken"), ("destroyed", "destroyed")):
            _flag(getattr(self, key), shown)

    @property
    def is_veteran(self) -> bool:
        return self.crew == "veteran"


def gun_for_calibre(calibre: float | str) -> str:
    """Shooting: the gun class ("short", "medium" or "long") of a gun of ``calibre``, given in
    millimetres (a number, or text like "75mm") or as the card's "2 pounder".

    The card: short "up to 47mm or 2 pounder", medium "50mm up to 76mm", long "over 76mm". A
    calibre is first rounded to the whole millimetre, as guns are named (the 76.2 mm guns of the
    T-34 and the Sherman are the card's "76mm"); the 48 and 49 mm the card leaves out are read
    as short, since the medium band starts at 50 mm (``CALIBRE_LIMITS``). Other pounders are
    not named by the card: give their calibre in millimetres (a 6 pounder is 57 mm).

    >>> gun_for_calibre(37), gun_for_calibre("2 pounder"), gun_for_calibre(48)
    ('short', 'short', 'short')
    >>> gun_for_calibre("75mm"), gun_for_calibre(76.2), gun_for_calibre(88)
    ('medium', 'medium', 'long')
    """
    value = calibre
    if isinstance(calibre, str):
        text = calibre.strip().lower().replace("-", " ")
        if text.replace(" ", "") in ("2pounder", "2pdr", "2pr"):
            return "short"
        if "pounder" in text or "pdr" in text:
            raise WbkError(
                f"calibre {calibre!r}: the card names only the 2 pounder; give the calibre in mm"
            )
        try:
            value = float(text.removesuffix("mm").strip())
        except ValueError:
            raise WbkError(
                f"calibre {calibre!r} is not a calibre (expected millimetres like 75 or '75mm', "
                "or '2 pounder')"
            ) from None
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or not 0 < value <= 1000
    ):
        raise WbkError(
            f"calibre {calibre!r} is not a number of millimetres, above 0 and up to 1000"
        )
    whole = math.floor(value + 0.5)
    for gun, largest in CALIBRE_LIMITS.items():
        if whole <= largest:
            return gun
    return "long"


def load_table(path: str | os.PathLike) -> Table:
    """Read a Pz 8 table file (the format is in the README): ``Table.load(path, pieces=Tank)``."""
    return Table.load(path, pieces=Tank)


@functools.cache
def example_table() -> Table:
    """wbk's illustrative Pz 8 table (``wbk/data/tables/pz8_crossroads.toml``)."""
    path = resources.files("wbk") / "data" / "tables" / "pz8_crossroads.toml"
    return Table.from_toml(
        path.read_text(encoding="utf-8"), source="wbk/data/tables/pz8_crossroads.toml", pieces=Tank
    )


def _tank(table: Table, name: str | Tank) -> Tank:
    if not isinstance(table, Table):
        raise WbkError(f"{table!r} is not a Table")
    piece = table.piece(name)
    if not isinstance(piece, Tank):
        raise WbkError(f"{piece.name!r} is not a Pz 8 tank (load the table with pieces=Tank)")
    return piece


# --- Movement ---------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Movement:
    """One movement roll: how many inches the tank may move, and whether the turn passes after."""

    inches: int
    turn_passes: bool

    def __post_init__(self) -> None:
        if isinstance(self.inches, bool) or not isinstance(self.inches, int) or self.inches < 0:
            raise WbkError(f"movement inches {self.inches!r} is not a whole number of 0 or more")
        _flag(self.turn_passes, "turn_passes")

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
    base = MOVE_VALUES[_choice(tank_class, TANK_CLASSES, "class")]
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
    """Where a tank can end its move, roll by roll."""

    tank: str
    start: tuple[float, float]
    bands: tuple[ReachBand, ...]
    steps: tuple[Step, ...]

    def chance_to_reach(self, point: Sequence[float]) -> Fraction:
        """The chance the tank's centre can end its move at ``point`` (x, y): the chance of the
        lowest roll whose area holds it (the start counts as reached: a tank may stay)."""
        if isinstance(point, (str, bytes)) or not isinstance(point, Sequence) or len(point) != 2:
            raise WbkError(f"point {point!r} is not a point (expected two numbers, x and y)")
        if (
            isinstance(point[0], bool)
            or isinstance(point[1], bool)
            or not all(isinstance(v, numbers.Real) and math.isfinite(v) for v in point)
        ):
            raise WbkError(f"point {point!r} is not a point (expected two numbers, x and y)")
        if math.dist(point, self.start) < 1e-9:
            return Fraction(1)
        p = Point(*point)
        for band in self.bands:
            if band.area.buffer(1e-9).covers(p):
                return band.probability
        return Fraction(0)

    def _repr_html_(self) -> str:
        return f"<b>{self.tank}: where it can move</b>{steps_html(self.steps)}"


def movement_reach(
    table: Table,
    tank: str | Tank,
    *,
    directions: int = 91,
    rough_terrain: str = "moving_through",
) -> MovementReach:
    """Pz 8, Movement on the table: for each D6 roll, the places the tank's centre can reach
    (``Table.reach`` with a pivot of up to 45°, 3" for rough terrain and for climbing a hill, no
    moving through obstacles or other tanks), as bands with the chance of getting that far.

    The pivot is taken once, at the start, and the move is then straight: ``Table.reach`` says
    where this approximation reaches less than a real move could. ``directions`` is at most
    ``wbk.table.MAX_DIRECTIONS`` (361).

    "Moving through rough terrain" costs 3": ``rough_terrain="moving_through"`` (the default,
    the card's words) charges a tank that starts in a rough piece as soon as it moves;
    ``"entering"`` charges only pieces its centre drives into, so leaving the one it starts in
    is free. Each piece is charged once a move.
    """
    t = _tank(table, tank)
    _choice(rough_terrain, ROUGH_READINGS, "rough terrain reading")
    if _whole(directions, "directions", 2) > MAX_DIRECTIONS:
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
        return MovementReach(t.name, t.position, (), tuple(steps))
    bands, before = [], Point(t.position)
    for roll in range(1, 7):
        reach = table.reach(
            t,
            base + roll,
            max_pivot=MAX_PIVOT,
            rough_cost=TERRAIN_PENALTY,
            climb_cost=TERRAIN_PENALTY,
            directions=directions,
            rough_charged=rough_terrain,
            rule=MOVEMENT,
        )
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
            f"pivot up to {MAX_PIVOT}°",
            MOVEMENT,
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
    return MovementReach(t.name, t.position, tuple(bands), tuple(steps))


@dataclass(frozen=True)
class PlatoonMove:
    """A platoon move: whether it is allowed, which tanks move, and the roll."""

    allowed: bool
    tanks: tuple[str, ...]
    movement: Dist | None
    steps: tuple[Step, ...]
    #: the platoon's HQ (None when it has none) and every tank of the platoon, wrecks too
    hq: str | None = None
    platoon_tanks: tuple[str, ...] = ()

    def _repr_html_(self) -> str:
        verdict = "allowed" if self.allowed else "not allowed"
        return f"<b>platoon move {verdict}</b>{steps_html(self.steps)}"


def _side_tanks(table: Table, side: str) -> list[Tank]:
    if not isinstance(table, Table):
        raise WbkError(f"{table!r} is not a Table")
    if not isinstance(side, str):
        raise WbkError(f"side {side!r} is not a string")
    tanks = [p for p in table.pieces if isinstance(p, Tank) and p.side == side]
    if not tanks:
        sides = sorted({p.side for p in table.pieces if isinstance(p, Tank)})
        listed = ", ".join(map(repr, sides)) or "none"
        raise WbkError(f"side {side!r} has no tanks on the table (sides: {listed})")
    return tanks


def platoons(table: Table, side: str) -> dict[str, tuple[Tank, ...]]:
    """The platoons of ``side`` on the table, by their names in table order ("" for the tanks
    whose platoon is not given), each with its tanks, wrecks included.

    >>> {name: len(tanks) for name, tanks in platoons(example_table(), "Soviet").items()}
    {'': 4}
    """
    found: dict[str, list[Tank]] = {}
    for t in _side_tanks(table, side):
        found.setdefault(t.platoon, []).append(t)
    return {name: tuple(tanks) for name, tanks in found.items()}


def _platoon_words(side: str, platoon: str) -> str:
    return f"the {side} platoon" if not platoon else f"{side} platoon {platoon!r}"


def _platoon(table: Table, side: str, platoon: str | None) -> tuple[str, tuple[Tank, ...]]:
    """The named platoon of ``side``; ``None`` is the side's only platoon."""
    found = platoons(table, side)
    listed = ", ".join(repr(name) for name in found)
    if platoon is None:
        if len(found) > 1:
            raise WbkError(
                f"side {side!r} has {len(found)} platoons ({listed}): say which with platoon="
            )
        platoon = next(iter(found))
    if not isinstance(platoon, str) or platoon not in found:
        raise WbkError(f"platoon {platoon!r} is not one of side {side!r}'s platoons ({listed})")
    return platoon, found[platoon]


def _hq(tanks: Sequence[Tank], words: str) -> Tank | None:
    """The platoon's HQ (destroyed or not), or None; two HQs in one platoon are an error."""
    hqs = [t for t in tanks if t.is_hq]
    if len(hqs) > 1:
        named = ", ".join(repr(t.name) for t in hqs)
        raise WbkError(
            f"{words} has {len(hqs)} HQs ({named}): the card gives each platoon one "
            "(give the others another platoon, or take their hq mark off)"
        )
    return hqs[0] if hqs else None


def platoon_movement(
    table: Table,
    side: str,
    *,
    platoon: str | None = None,
    shaken_hq: str = "stays_put",
    shaken_member: str = "stays_put",
) -> PlatoonMove:
    """Pz 8, Movement: a platoon whose tanks are all within 3" of its HQ moves together, each
    tank 1D6 + the move value of the slowest tank; then the turn passes, whatever the roll.

    ``platoon`` names the platoon (``Tank.platoon``); it may be left out when ``side`` fields
    only one. The platoon's HQ must be on the table and not destroyed; wrecks are left out, and
    every moving tank must be within 3" of the HQ, centre to centre.

    The card does not say what a shaken tank (which cannot move) does to a platoon move:

    - ``shaken_hq``: ``"stays_put"`` (the default) keeps a shaken HQ where it is and lets the
      tanks within 3" of it move; ``"no_platoon_move"`` reads a shaken HQ as unable to lead one
      (as it cannot let its tanks rally, Optional Rule: Shaken).
    - ``shaken_member``: ``"stays_put"`` (the default) leaves a shaken tank behind and moves the
      rest; ``"no_platoon_move"`` reads "all within 3 inches ... move together" as the whole
      platoon, so one shaken tank rules the platoon move out.

    >>> table = Table(40, 40, pieces=[Tank("HQ1", (10, 10), side="A", is_hq=True, platoon="1"),
    ...     Tank("HQ2", (30, 30), side="A", is_hq=True, platoon="2"),
    ...     Tank("a", (10, 11.6), side="A", platoon="1")])
    >>> platoon_movement(table, "A", platoon="1").tanks
    ('HQ1', 'a')
    """
    _choice(shaken_hq, SHAKEN_PLATOON_READINGS, "shaken HQ reading")
    _choice(shaken_member, SHAKEN_PLATOON_READINGS, "shaken member reading")
    name, tanks = _platoon(table, side, platoon)
    words = _platoon_words(side, name)
    steps: list[Step] = []
    hq = _hq(tanks, words)
    everyone = tuple(t.name for t in tanks)
    hq_name = None if hq is None else hq.name

    def answer(allowed: bool, movers=(), movement: Dist | None = None) -> PlatoonMove:
        moving = tuple(t.name for t in movers)
        return PlatoonMove(allowed, moving, movement, tuple(steps), hq_name, everyone)

    if hq is None or hq.destroyed:
        why = "no HQ" if hq is None else f"its HQ {hq.name!r} is destroyed"
        steps.append(Step(f"{words} has {why}: no platoon move", MOVEMENT, about=everyone))
        return answer(False)
    if hq.shaken and shaken_hq == "no_platoon_move":
        steps.append(
            Step(
                f"its HQ {hq.name!r} is shaken: read as unable to lead a platoon move",
                SHAKEN,
                about=(hq.name,),
            )
        )
        return answer(False)
    movers, held_by = [], []
    for t in tanks:
        if t.destroyed:
            steps.append(Step(f"{t.name!r} is a wreck: it stays", DAMAGE, about=(t.name,)))
        elif t.shaken:
            if t is not hq and shaken_member == "no_platoon_move":
                held_by.append(t)
                steps.append(Step(f"{t.name!r} is shaken: it cannot move", SHAKEN, about=(t.name,)))
            else:
                steps.append(Step(f"{t.name!r} is shaken: it stays", SHAKEN, about=(t.name,)))
        else:
            movers.append(t)
    if held_by:
        steps.append(
            Step(
                "no platoon move: read as the whole platoon moving, and a shaken tank cannot",
                MOVEMENT,
                about=tuple(t.name for t in held_by),
            )
        )
        return answer(False, movers)
    for t in movers:
        if t is not hq:
            distance = table.distance(t, hq)
            within = distance <= PLATOON_RADIUS
            steps.append(
                Step(
                    f"{t.name!r} is {_say_inches(distance)} from the HQ {hq.name!r}: "
                    + (f'within {PLATOON_RADIUS}"' if within else f'more than {PLATOON_RADIUS}"'),
                    MOVEMENT,
                    about=(t.name, hq.name, f"link {t.name}", "platoon radius"),
                )
            )
    far = [t for t in movers if t is not hq and table.distance(t, hq) > PLATOON_RADIUS]
    if far or not movers:
        steps.append(
            Step(
                'no platoon move: not every tank is within 3" of the HQ'
                if far
                else "no tank can move",
                MOVEMENT,
                about=(*(t.name for t in far), *(f"link {t.name}" for t in far)),
            )
        )
        return answer(False, movers)
    slowest = min(movers, key=lambda t: MOVE_VALUES[t.tank_class])
    base = MOVE_VALUES[slowest.tank_class]
    steps.append(
        Step(
            f'{len(movers)} tanks of {words} within {PLATOON_RADIUS}" of the HQ {hq.name!r} '
            "move together",
            MOVEMENT,
            about=(*(t.name for t in movers), "platoon radius"),
        )
    )
    steps.append(
        Step(
            f"the slowest is {slowest.name!r} ({slowest.tank_class}): each moves 1D6 + {base}",
            MOVEMENT,
            about=(slowest.name,),
        )
    )
    steps.append(Step("then the turn passes automatically", MOVEMENT))
    return answer(True, movers, d6.map(lambda roll: Movement(base + roll, True)))


def platoon_warnings(table: Table) -> tuple[str, ...]:
    """What You Need: the card asks for 3-5 tanks a platoon and one HQ in each. The ways the
    table's platoons differ from that, one sentence each (an empty tuple when none do). These
    are warnings, not errors: a scenario may field what it likes. Wrecks count: they are still
    the platoon's tanks.

    >>> platoon_warnings(example_table())
    ()
    """
    if not isinstance(table, Table):
        raise WbkError(f"{table!r} is not a Table")
    said = []
    sides = dict.fromkeys(p.side for p in table.pieces if isinstance(p, Tank))
    for side in sides:
        for name, tanks in platoons(table, side).items():
            words = _platoon_words(side, name)
            if not 3 <= len(tanks) <= 5:
                tanks_said = f"{len(tanks)} tank" + ("" if len(tanks) == 1 else "s")
                said.append(f"{words} has {tanks_said} (the card asks for 3-5)")
            hqs = [t.name for t in tanks if t.is_hq]
            if len(hqs) != 1:
                named = f" ({', '.join(map(repr, hqs))})" if hqs else ""
                said.append(f"{words} has {len(hqs)} HQs{named} (the card asks for one)")
    return tuple(said)


# --- Shooting, Penetration and Damage ---------------------------------------------------------


@dataclass(frozen=True, order=True)
class AttackOutcome:
    """What one attack does: the hits applied, whether the target is destroyed or hit but not
    destroyed (``shaken``), and whether a gun die passed the turn."""

    hits: int
    destroyed: bool
    shaken: bool
    turn_passes: bool

    def __post_init__(self) -> None:
        if isinstance(self.hits, bool) or not isinstance(self.hits, int) or not 0 <= self.hits <= 3:
            raise WbkError(f"hits {self.hits!r} is not a whole number from 0 to 3")
        for key in ("destroyed", "shaken", "turn_passes"):
            _flag(getattr(self, key), key)
        if self.destroyed and self.shaken:
            raise WbkError("an attack outcome cannot be both destroyed and shaken")
        if (self.destroyed or self.shaken) and not self.hits:
            raise WbkError(f"hits {self.hits}: a target destroyed or shaken needs a hit")

    def __str__(self) -> str:
        what = "destroyed" if self.destroyed else "hit, not destroyed" if self.shaken else "no hit"
        return what + (", turn passes" if self.turn_passes else "")


@dataclass(frozen=True)
class AttackProcedure:
    """One attack's numbers and its exact outcome."""

    dice: int
    hit_number: int
    modifier: int
    save_number: int
    hit_chance: Fraction
    outcome: Dist
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return steps_html(self.steps) + self.outcome._repr_html_()


def attack_procedure(
    gun: str,
    target_class: str,
    *,
    cover: bool = False,
    veteran: bool = False,
    shaken: bool = False,
    natural_six: str = "modified",
) -> AttackProcedure:
    """Pz 8, Shooting and Penetration and Damage: one attack, its numbers and working.

    Short guns roll 3 dice and every hit applies; medium guns roll 2 and apply one result (a hit
    if either die hits); long guns roll 1. Short and medium hit on 5-6, long on 4-6; -1 when the
    target is in cover, +1 for a veteran crew firing, -1 for a shaken firer (Optional Rule:
    Shaken). A die hits when its modified roll reaches the hit number (``natural_six``: see the
    module). Any gun die showing an unmodified 1 or 2 passes the turn. Each hit needs an armour
    save; one failed save destroys the target.
    """
    _choice(gun, GUNS, "gun")
    _choice(target_class, TANK_CLASSES, "target class")
    cover, veteran, shaken = (
        _flag(cover, "cover"),
        _flag(veteran, "veteran"),
        _flag(shaken, "shaken"),
    )
    _choice(natural_six, NATURAL_SIX_READINGS, "reading of a natural 6")
    dice, need, save = GUN_DICE[gun], HIT_NUMBERS[gun], SAVE_NUMBERS[target_class][gun]
    modifier = veteran - cover - shaken

    def hits(face: int) -> bool:
        return face + modifier >= need or (natural_six == "always_hits" and face == 6)

    steps = [
        Step(
            f'{gun} gun: range {GUN_RANGES[gun]}", '
            f"{dice} {'die' if dice == 1 else 'dice'}, hits on {need}+",
            SHOOTING,
        )
    ]
    named = [
        ("target in cover", -1, cover),
        ("veteran crew firing", +1, veteran),
        ("firer shaken", -1, shaken),
    ]
    for why, value, applies in named:
        if applies:
            steps.append(Step(f"{why}: {value:+d}", SHAKEN if why == "firer shaken" else SHOOTING))
    faces = [f for f in range(1, 7) if hits(f)]
    hit_chance = Fraction(len(faces), 6)
    if faces:
        rolls = "6" if faces[0] == 6 else f"{faces[0]}-6"
        why = (
            "a natural 6 always hits"
            if natural_six == "always_hits" and 6 + modifier < need
            else f"the roll {modifier:+d} must reach {need}"
        )
        steps.append(Step(f"each die hits on a {rolls} ({why}): {hit_chance}", SHOOTING))
    else:
        steps.append(Step(f"no die can hit: even a 6 {modifier:+d} is less than {need}", SHOOTING))
    if gun == "short":
        steps.append(Step("every hit applies", SHOOTING))
    elif gun == "medium":
        steps.append(Step("one result applies: a hit if either die hits", SHOOTING))
    steps.append(
        Step(
            "an unmodified 1 or 2 on any die passes the turn"
            + (", the unused die too" if gun == "medium" else ""),
            SHOOTING,
        )
    )
    steps.append(
        Step(
            f"a {target_class} tank hit by a {gun} gun saves on {save}+; a failed save destroys it",
            DAMAGE,
        )
    )
    steps.append(Step("save rolls of 1 or 2 do not pass the turn", DAMAGE))

    one_die = d6.map(lambda face: (hits(face), face <= 2))

    def applied(rolls) -> tuple[int, bool]:
        n = sum(hit for hit, _ in rolls)
        return (n if gun == "short" else min(n, 1), any(low for _, low in rolls))

    rolled = Dist.joint(*[one_die] * dice).map(applied)

    def damage(result) -> Dist:
        n, low = result
        return (n @ (d6 < save)).map(
            lambda failed: AttackOutcome(n, failed > 0, n > 0 and failed == 0, low)
        )

    return AttackProcedure(dice, need, modifier, save, hit_chance, rolled.map(damage), tuple(steps))


def attack(
    gun: str,
    target_class: str,
    *,
    cover: bool = False,
    veteran: bool = False,
    shaken: bool = False,
    natural_six: str = "modified",
) -> Dist:
    """Pz 8, Shooting and Penetration and Damage: the exact ``Dist`` of ``AttackOutcome`` of one
    attack (see ``attack_procedure``).

    >>> d = attack("long", "heavy")
    >>> d.map(lambda o: o.destroyed).probability(True)
    Fraction(1, 3)
    >>> d.map(lambda o: o.turn_passes).probability(True)
    Fraction(1, 3)
    """
    return attack_procedure(
        gun, target_class, cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six
    ).outcome


@dataclass(frozen=True)
class AttackChances:
    """One attack's chances, exactly: a hit applied, the target destroyed, hit but not destroyed
    (shaken, under the optional rule), and the turn passing."""

    hit: Fraction
    destroyed: Fraction
    shaken: Fraction
    turn_passes: Fraction


def attack_chances(
    gun: str,
    target_class: str,
    *,
    cover: bool = False,
    veteran: bool = False,
    shaken: bool = False,
    natural_six: str = "modified",
) -> AttackChances:
    """Pz 8, Shooting and Penetration and Damage: the chances of one attack (see ``attack``).

    >>> attack_chances("short", "medium").destroyed
    Fraction(91, 216)
    >>> attack_chances("medium", "heavy").turn_passes
    Fraction(5, 9)
    """
    d = attack(
        gun, target_class, cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six
    )

    def chance(predicate) -> Fraction:
        return d.map(predicate).probability(True)

    return AttackChances(
        chance(lambda o: o.hits > 0),
        chance(lambda o: o.destroyed),
        chance(lambda o: o.shaken),
        chance(lambda o: o.turn_passes),
    )


@dataclass(frozen=True)
class Shot:
    """A shot on the table: range, line of sight, cover and, when the shot can be taken, the
    attack's exact outcome (``None`` otherwise)."""

    firer: str
    target: str
    distance: float
    in_range: bool
    visible_fraction: float
    in_cover: bool
    outcome: Dist | None
    steps: tuple[Step, ...]
    #: the line of sight measured on the table (a ``wbk.table.Sight``), for drawing
    sight: object = None

    @property
    def can_shoot(self) -> bool:
        return self.outcome is not None

    def _repr_html_(self) -> str:
        verdict = "can shoot" if self.can_shoot else "cannot shoot"
        table = self.outcome._repr_html_() if self.outcome is not None else ""
        return f"<b>{self.firer} → {self.target}: {verdict}</b>{steps_html(self.steps)}{table}"


def shot(
    table: Table,
    firer: str | Tank,
    target: str | Tank,
    *,
    natural_six: str = "modified",
    cover_reading: str = "partly_hidden",
    obstacle_sight: str = "as_marked",
) -> Shot:
    """Pz 8, Shooting on the table: is the target in range (centre to centre) and in sight, is it
    in cover, and what the attack does.

    The card gives cover when "a shot is partially obscured": ``cover_reading="partly_hidden"``
    (the default) reads that as any part of the footprint hidden; ``"half_hidden"`` asks for at
    least half of it hidden (a common table habit, not the card's words).

    "Most obstacles block line of sight", says the card: a table file may mark an obstacle that
    does not (``blocks_sight = false``, a low wall a tank sees over but cannot drive through).
    ``obstacle_sight="as_marked"`` (the default) follows the marks; ``"all_block"`` lets every
    obstacle block, as if the table had no such marks.

    A wreck neither shoots nor is shot at; a tank does not shoot at its own side. The firer's
    shaken marker gives -1 (Optional Rule: Shaken).
    """
    a, b = _tank(table, firer), _tank(table, target)
    _choice(natural_six, NATURAL_SIX_READINGS, "reading of a natural 6")
    _choice(cover_reading, COVER_READINGS, "cover reading")
    _choice(obstacle_sight, OBSTACLE_SIGHT_READINGS, "obstacle sight reading")
    sight = table.line_of_sight(a, b, obstacle_sight=obstacle_sight, rule=SHOOTING)
    steps = list(sight.steps)
    in_cover = (
        sight.in_cover if cover_reading == "partly_hidden" else 0 < sight.visible_fraction <= 0.5
    )
    if cover_reading == "half_hidden" and sight.in_cover:
        verdict = "in cover" if in_cover else "in the open"
        steps.append(
            Step(
                f"read as cover only when half or more is hidden: {verdict}",
                SHOOTING,
                about=(b.name,),
            )
        )
    reach = GUN_RANGES[a.gun]
    in_range = sight.distance <= reach
    steps.append(
        Step(
            f'the {a.gun} gun of {a.name!r} reaches {reach}": '
            f"the target is {'in' if in_range else 'out of'} range",
            SHOOTING,
            about=(a.name, b.name, f"range {a.gun}"),
        )
    )
    reasons = []
    if a.destroyed:
        reasons.append((f"{a.name!r} is a wreck", DAMAGE))
    if b.destroyed:
        reasons.append((f"{b.name!r} is already a wreck", DAMAGE))
    if a.side == b.side:
        reasons.append((f"{b.name!r} is on the same side", SHOOTING))
    if not in_range:
        reasons.append(("out of range", SHOOTING))
    if not sight.has_los:
        reasons.append(("no line of sight", SHOOTING))
    if reasons:
        steps += [Step(f"no shot: {why}", rule, about=(a.name, b.name)) for why, rule in reasons]
        return Shot(
            a.name,
            b.name,
            sight.distance,
            in_range,
            sight.visible_fraction,
            in_cover,
            None,
            tuple(steps),
            sight,
        )
    procedure = attack_procedure(
        a.gun,
        b.tank_class,
        cover=in_cover,
        veteran=a.is_veteran,
        shaken=a.shaken,
        natural_six=natural_six,
    )
    # the attack's steps are about the firer's dice, or the target (its cover, its save)
    steps += [
        Step(
            s.text, s.rule, about=(b.name,) if s.rule == DAMAGE or "target" in s.text else (a.name,)
        )
        for s in procedure.steps
    ]
    return Shot(
        a.name,
        b.name,
        sight.distance,
        True,
        sight.visible_fraction,
        in_cover,
        procedure.outcome,
        tuple(steps),
        sight,
    )


# --- Optional Rule: Shaken --------------------------------------------------------------------


def rally_chance(
    *, veteran: bool = False, is_hq: bool = False, hq_within_12: bool = True, hq_able: bool = True
) -> Fraction:
    """Pz 8, Optional Rule: Shaken: the chance a shaken tank rallies with its activation.

    Within 12" of its HQ it needs 5-6 (+1 for a veteran crew); out of range, or with its HQ
    destroyed or shaken (``hq_able=False``), it cannot rally. An HQ rallies itself on 4-6 (the
    veteran +1 is read as belonging to the roll near the HQ, so not to the HQ's own).

    >>> rally_chance(), rally_chance(veteran=True), rally_chance(is_hq=True)
    (Fraction(1, 3), Fraction(1, 2), Fraction(1, 2))
    >>> rally_chance(hq_within_12=False)
    Fraction(0, 1)
    """
    veteran, is_hq = _flag(veteran, "veteran"), _flag(is_hq, "is_hq")
    hq_within_12, hq_able = _flag(hq_within_12, "hq_within_12"), _flag(hq_able, "hq_able")
    if is_hq:
        return (d6 >= 4).probability(True)
    if not (hq_within_12 and hq_able):
        return Fraction(0)
    return (d6 + veteran >= 5).probability(True)


@dataclass(frozen=True)
class Rally:
    """A shaken tank's rally, read off the table: its platoon's HQ, how far that is and in what
    state, and the chance to rally (0 when it cannot)."""

    tank: str
    chance: Fraction
    hq: str | None
    distance: float | None
    steps: tuple[Step, ...]

    @property
    def can_rally(self) -> bool:
        return self.chance > 0

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(self.tank)} rallies {percent(self.chance)}</b>" + steps_html(
            self.steps
        )


def rally(table: Table, tank: str | Tank) -> Rally:
    """Pz 8, Optional Rule: Shaken, asked of the table: the chance ``tank`` rallies with its
    activation, from the distance to its own platoon's HQ (``Tank.platoon``), the HQ's state
    (destroyed or shaken) and the tank's crew, as ``rally_chance`` reckons it.

    A tank that is not shaken is told what it would need were it shaken. The card writes the
    range as "12’" once and "12”" once; wbk reads inches both times (twelve feet is past
    every gun's reach).

    >>> r = rally(example_table(), "KV-1")
    >>> r.chance, r.hq, round(r.distance, 1)
    (Fraction(1, 3), 'T-34 1', 2.5)
    """
    t = _tank(table, tank)
    steps: list[Step] = []
    if not t.shaken:
        steps.append(
            Step(
                f"{t.name!r} is not shaken: had it been, this is its rally", SHAKEN, about=(t.name,)
            )
        )
    if t.destroyed:
        steps.append(Step(f"{t.name!r} is a wreck: it cannot rally", DAMAGE, about=(t.name,)))
        return Rally(t.name, Fraction(0), None, None, tuple(steps))
    name, tanks = _platoon(table, t.side, t.platoon)
    words = _platoon_words(t.side, name)
    hq = _hq(tanks, words)
    if t.is_hq:
        chance = rally_chance(veteran=t.is_veteran, is_hq=True)
        steps.append(
            Step(
                f"{t.name!r} is the HQ: it rallies itself on 4-6, {chance}",
                SHAKEN,
                about=(t.name,),
            )
        )
        return Rally(t.name, chance, t.name, 0.0, tuple(steps))
    if hq is None:
        steps.append(Step(f"{words} has no HQ: {t.name!r} cannot rally", SHAKEN, about=(t.name,)))
        return Rally(t.name, Fraction(0), None, None, tuple(steps))
    distance = table.distance(t, hq)
    within = distance <= RALLY_RADIUS
    steps.append(
        Step(
            f"its HQ {hq.name!r} is {_say_inches(distance)} away: "
            + (f'within {RALLY_RADIUS}"' if within else f'more than {RALLY_RADIUS}"'),
            SHAKEN,
            about=(t.name, hq.name, f"link {t.name}", "rally radius"),
        )
    )
    able = not (hq.destroyed or hq.shaken)
    if not able:
        state = "destroyed" if hq.destroyed else "itself shaken"
        steps.append(Step(f"its HQ {hq.name!r} is {state}", SHAKEN, about=(hq.name,)))
    chance = rally_chance(veteran=t.is_veteran, hq_within_12=within, hq_able=able)
    if chance:
        bonus = " (+1 for the veteran crew)" if t.is_veteran else ""
        need = 4 if t.is_veteran else 5
        steps.append(Step(f"it rallies on {need}-6{bonus}: {chance}", SHAKEN, about=(t.name,)))
    else:
        steps.append(Step(f"{t.name!r} cannot rally", SHAKEN, about=(t.name,)))
    return Rally(t.name, chance, hq.name, distance, tuple(steps))


def _say_inches(x: float) -> str:
    """Inches to a tenth, as a tape measure reads: 2.5", 14"."""
    return f'{x:.0f}"' if abs(x - round(x)) < 0.05 else f'{x:.1f}"'


# --- beyond the card: the initiative and the duel ---------------------------------------------


def _keeps(activation: str) -> Fraction:
    if activation == "move":
        return Fraction(2, 3)
    if activation == "platoon_move":
        return Fraction(0)
    if activation == "rally":
        return Fraction(1)
    return Fraction(2, 3) ** GUN_DICE[activation.removeprefix("shoot_")]


def keep_initiative(activations: Sequence[str]) -> Fraction:
    """The chance a side still has the initiative after the given activations, one after the
    other: each "move" (any class: a movement D6 of 1-2 passes), "shoot_short" / "shoot_medium" /
    "shoot_long" (a gun die of 1-2 passes: 3, 2 or 1 dice), "platoon_move" (always passes) or
    "rally" (read as never passing). The chance that a side gets to make k activations is this
    chance for the first k - 1.

    >>> keep_initiative(["move", "move", "move"])
    Fraction(8, 27)
    >>> keep_initiative(["shoot_medium"])
    Fraction(4, 9)
    """
    if isinstance(activations, (str, bytes)) or not isinstance(activations, Sequence):
        raise WbkError(f"activations {activations!r} is not a list of activations")
    if len(activations) > MAX_ACTIVATIONS:
        raise WbkError(
            f"{len(activations)} activations is more than MAX_ACTIVATIONS ({MAX_ACTIVATIONS})"
        )
    counts: dict[str, int] = {}
    for activation in activations:
        kind = _choice(activation, ACTIVATIONS, "activation")
        counts[kind] = counts.get(kind, 0) + 1
    chance = Fraction(1)
    for kind, n in counts.items():
        chance *= _keeps(kind) ** n
    return chance


@dataclass(frozen=True)
class Duel:
    """Who wins a duel and how long it lasts: exact chances and the mean number of shots."""

    first: str
    second: str
    first_wins: Fraction
    second_wins: Fraction
    stalemate: Fraction
    mean_shots: Fraction | None
    steps: tuple[Step, ...]
    #: the set-up, for drawing the duel: the range, the two tanks and ``duel``'s keywords
    range_inches: float = 0
    tanks: tuple[Tank, ...] = ()
    options: tuple[tuple[str, object], ...] = ()

    def _repr_html_(self) -> str:
        said = f"{self.first} wins {percent(self.first_wins)}, "
        said += f"{self.second} wins {percent(self.second_wins)}"
        return f"<b>{html.escape(said)}</b>" + steps_html(self.steps)


def duel(
    first: Tank,
    second: Tank,
    range_inches: float,
    *,
    first_in_cover: bool = False,
    second_in_cover: bool = False,
    shaken_rule: bool = False,
    natural_six: str = "modified",
    turns: str = "card",
) -> Duel:
    """Two tanks trading shots at ``range_inches`` until one is destroyed, exactly.

    ``turns="card"`` (the default) follows the card's turnover; ``turns="alternate"`` is the
    reading without it, for comparison: the tanks simply take turns, one attack each.

    ``first`` shoots first. A side whose gun die passes the turn hands the next shot to the
    other side; otherwise it shoots again (its one tank activates again). A tank whose gun does
    not reach cannot shoot, and its side passes the turn straight back. With ``shaken_rule`` (the
    optional rule) a hit that does not destroy shakes the target, which shoots at -1 for the rest
    of the duel (it never spends an activation to rally); tanks already marked shaken start
    shaken. Without it, shaken markers are ignored. ``stalemate`` is the chance of reaching a
    state from which neither tank can ever destroy the other; ``mean_shots`` counts attacks
    (``None`` when a stalemate is possible).

    >>> t34 = Tank("T-34", tank_class="medium", gun="medium")
    >>> d = duel(t34, Tank("Pz III", tank_class="medium", gun="medium"), 10)
    >>> d.first_wins + d.second_wins
    Fraction(1, 1)
    """
    tanks = (first, second)
    for t in tanks:
        if not isinstance(t, Tank):
            raise WbkError(f"{t!r} is not a Tank")
        if t.destroyed:
            raise WbkError(f"{t.name!r} is destroyed: a wreck does not duel")
    if first.name == second.name:
        raise WbkError(f"both tanks are called {first.name!r}: give the duellists two names")
    if (
        isinstance(range_inches, bool)
        or not isinstance(range_inches, numbers.Real)
        or not 0 < range_inches <= MAX_INCHES
    ):
        raise WbkError(
            f"range {range_inches!r} is not a number of inches, more than 0 "
            f"(two tanks cannot stand on one spot) and at most {MAX_INCHES}"
        )
    cover = (_flag(first_in_cover, "first_in_cover"), _flag(second_in_cover, "second_in_cover"))
    shaken_rule = _flag(shaken_rule, "shaken_rule")
    _choice(turns, DUEL_TURNS, "duel turns")
    _choice(natural_six, NATURAL_SIX_READINGS, "reading of a natural 6")
    in_range = tuple(range_inches <= GUN_RANGES[t.gun] for t in tanks)
    roles = ("first", "second")
    # the steps are about the tanks by their role ("first", "second") and a part of the duel:
    # "range", "attack", "turns", "shaken", "wins", "neither" (``wbk.widgets.pz8.draw_duel``)
    steps = [
        Step(
            f'range {range_inches:g}": the {t.gun} gun of {t.name} '
            + ("reaches" if r else "does not reach"),
            SHOOTING,
            about=("range", role),
        )
        for t, r, role in zip(tanks, in_range, roles, strict=True)
    ]
    for shooter, role in enumerate(roles):
        t, target = tanks[shooter], tanks[1 - shooter]
        if not in_range[shooter]:
            said = f"{t.name} cannot shoot: its side hands the turn straight back"
        else:
            one = attack_chances(
                t.gun,
                target.tank_class,
                cover=cover[1 - shooter],
                veteran=t.is_veteran,
                shaken=shaken_rule and t.shaken,
                natural_six=natural_six,
            )
            said = (
                f"{t.name} shoots: one attack destroys {target.name} {chance(one.destroyed)}, "
                f"the turn passes {chance(one.turn_passes)}"
            )
        steps.append(Step(said, DAMAGE if in_range[shooter] else SHOOTING, about=("attack", role)))
    if turns == "card":
        steps.append(
            Step(
                "a gun die of 1 or 2 passes the turn: the other tank shoots next; "
                "otherwise the same tank shoots again",
                SHOOTING,
                about=("turns",),
            )
        )
    else:
        steps.append(
            Step(
                "read without the turnover: the tanks take turns, one attack each",
                SHOOTING,
                about=("turns",),
            )
        )
    if shaken_rule:
        steps.append(
            Step(
                "a hit that does not destroy shakes the target: it shoots at -1 from then on "
                "and does not rally",
                SHAKEN,
                about=("shaken",),
            )
        )

    # states: (shooter, first shaken, second shaken); absorbing: "first", "second"
    def transitions(state) -> dict:
        shooter, *shaken = state
        target = 1 - shooter
        if not in_range[shooter]:
            return {(target, *shaken): Fraction(1)}
        outcome = attack(
            tanks[shooter].gun,
            tanks[target].tank_class,
            cover=cover[target],
            veteran=tanks[shooter].is_veteran,
            shaken=shaken_rule and shaken[shooter],
            natural_six=natural_six,
        )
        result: dict = {}
        for o, p in outcome.probabilities().items():
            if o.destroyed:
                nxt = ("first", "second")[shooter]
            else:
                after = list(shaken)
                if shaken_rule and o.shaken:
                    after[target] = True
                nxt = (target if o.turn_passes or turns == "alternate" else shooter, *after)
            result[nxt] = result.get(nxt, 0) + p
        return result

    start = (0, shaken_rule and first.shaken, shaken_rule and second.shaken)
    graph, todo = {}, [start]
    while todo:
        s = todo.pop()
        if s in graph or isinstance(s, str):
            continue
        graph[s] = transitions(s)
        todo += list(graph[s])
    # states from which a win is reachable; the rest are stalemates
    live = set()
    changed = True
    while changed:
        changed = False
        for s, nxt in graph.items():
            if s not in live and any(isinstance(n, str) or n in live for n in nxt):
                live.add(s)
                changed = True
    order = sorted(live)
    first_wins = _absorb(
        graph, order, lambda n: Fraction(n == "first") if isinstance(n, str) else None
    )
    second_wins = _absorb(
        graph, order, lambda n: Fraction(n == "second") if isinstance(n, str) else None
    )
    p_first = first_wins.get(start, Fraction(0))
    p_second = second_wins.get(start, Fraction(0))
    stalemate = 1 - p_first - p_second
    mean = None
    if stalemate == 0:
        mean = _absorb(
            graph, order, lambda n: Fraction(0) if isinstance(n, str) else None, cost=Fraction(1)
        )[start]
    if not any(in_range):
        said = f'out of range: neither gun reaches {range_inches:g}", so neither tank can win'
        steps.append(Step(said, SHOOTING, about=("range", "neither")))
    else:
        said = f"{first.name} wins {chance(p_first)}, {second.name} wins {chance(p_second)}"
        steps.append(Step(said, SHOOTING, about=("wins", "first", "second")))
    if stalemate:
        if any(in_range):
            steps.append(
                Step(
                    f"neither can ever destroy the other: {chance(stalemate)}",
                    SHOOTING,
                    about=("neither",),
                )
            )
    else:
        steps.append(
            Step(
                f"the duel lasts {float(mean):.2f} attacks on average",
                SHOOTING,
                about=("wins", "first", "second"),
            )
        )
    options = (
        ("first_in_cover", cover[0]),
        ("second_in_cover", cover[1]),
        ("shaken_rule", shaken_rule),
        ("natural_six", natural_six),
        ("turns", turns),
    )
    return Duel(
        first.name,
        second.name,
        p_first,
        p_second,
        stalemate,
        mean,
        tuple(steps),
        range_inches,
        tanks,
        options,
    )


def _absorb(graph: dict, order: list, terminal, cost: Fraction = Fraction(0)) -> dict:
    """Solve x[s] = cost + sum p * x[n] over the live states ``order`` exactly (Gauss-Jordan over
    Fractions); a terminal state n has the value ``terminal(n)``, a dead state 0."""
    index = {s: i for i, s in enumerate(order)}
    n = len(order)
    rows = []
    for s in order:
        row = [Fraction(0)] * (n + 1)
        row[index[s]] += 1
        row[n] = cost
        for nxt, p in graph[s].items():
            value = terminal(nxt)
            if value is not None:
                row[n] += p * value
            elif nxt in index:
                row[index[nxt]] -= p
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[col], strict=False)]
    return {s: rows[index[s]][n] for s in order}


register(
    Game(
        "pz8",
        title="Pz 8",
        cites=("Pz 8",),
        readings=_DECLARED,
        quiz="wbk.games.pz8.quiz",
        drawings="wbk.draw.pz8",
        panels="wbk.widgets.pz8",
    )
)
