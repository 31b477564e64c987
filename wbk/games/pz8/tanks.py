"""Pz 8's tanks and the card's numbers: the rule citations, the tables of move values, gun
ranges, dice, hit and save numbers, what the rules' inputs take (each declared once, as a
``wbk.checks.Input``: the rules check their arguments with it, the quiz its keys), the ``Tank``
piece, the gun class of a calibre, and the table files with Pz 8 tanks on them."""

from __future__ import annotations

import functools
import math
import numbers
import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import ClassVar

from wbk.checks import Input, known_keywords, short_text
from wbk.errors import WbkError
from wbk.table import Piece, Table
from wbk.tableexact import exact

from .readings import CALIBRE_GAPS

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
#: Shooting: the largest calibre, in whole millimetres, of a short and of a medium gun, as the
#: reading ``calibre_gaps="named"`` (the default) has them. The card gives short "up to 47mm or
#: 2 pounder", medium "50mm up to 76mm", long "over 76mm": the 48 and 49 mm it leaves out go
#: with the short guns (the medium band starts at 50 mm).
CALIBRE_LIMITS = {"short": 49, "medium": 76}
#: The card's own upper limits of a short and of a medium gun, in millimetres, as the reading
#: ``calibre_gaps="upper_limits"`` has them: over 47 mm is medium, over 76 mm long.
CARD_CALIBRE_LIMITS = {"short": 47, "medium": 76}

#: What the rules' inputs take: a tank's class, its gun and crew, a mark (cover, veteran,
#: shaken...), a tank or a side by its name, and a calibre in millimetres (or "75mm", "2
#: pounder": ``gun_for_calibre`` reads the text).
TANK_CLASS = Input.text(TANK_CLASSES)
GUN = Input.text(GUNS)
CREW = Input.text(CREWS)
FLAG = Input.flag()
NAME = Input.text()
CALIBRE = Input.either(Input.number(1, 1000), NAME)


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
        short_text(self.platoon, f"platoon of {self.name!r}")
        TANK_CLASS.check(self.tank_class, "class")
        GUN.check(self.gun, "gun")
        CREW.check(self.crew, "crew")
        for key, shown in (("is_hq", "hq"), ("shaken", "shaken"), ("destroyed", "destroyed")):
            FLAG.check(getattr(self, key), shown)

    @property
    def is_veteran(self) -> bool:
        return self.crew == "veteran"


@known_keywords
def gun_for_calibre(calibre: float | str, *, calibre_gaps: str = "named") -> str:
    """Shooting: the gun class ("short", "medium" or "long") of a gun of ``calibre``, given in
    millimetres (a number, or text like "75mm") or as the card's "2 pounder".

    The card: short "up to 47mm or 2 pounder", medium "50mm up to 76mm", long "over 76mm". It
    leaves two gaps, read by ``calibre_gaps`` (``wbk.games.pz8.readings.CALIBRE_GAPS``):

    - ``"named"`` (the default): a calibre is first rounded to the whole millimetre, as guns are
      named (the 76.2 mm guns of the T-34 and the Sherman, the card's own medium tanks, are the
      card's "76mm"), and the 48 and 49 mm the card leaves out are short, since the medium band
      starts at 50 mm (``CALIBRE_LIMITS``);
    - ``"upper_limits"``: the calibre as given against the card's upper limits
      (``CARD_CALIBRE_LIMITS``): over 47 mm is medium, over 76 mm (76.2 mm too) long.

    Other pounders are not named by the card: give their calibre in millimetres (a 6 pounder is
    57 mm).

    >>> gun_for_calibre(37), gun_for_calibre("2 pounder"), gun_for_calibre(48)
    ('short', 'short', 'short')
    >>> gun_for_calibre("75mm"), gun_for_calibre(76.2), gun_for_calibre(88)
    ('medium', 'medium', 'long')
    >>> [gun_for_calibre(c, calibre_gaps="upper_limits") for c in (47, 48, 76, 76.2)]
    ['short', 'medium', 'medium', 'long']
    """
    CALIBRE_GAPS.check(calibre_gaps, "reading of the calibres between the classes")
    CALIBRE.check(calibre, "calibre")
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
    if calibre_gaps == "named":
        measured, limits = Fraction(math.floor(exact(value) + Fraction(1, 2))), CALIBRE_LIMITS
    else:
        measured, limits = exact(value), CARD_CALIBRE_LIMITS
    for gun, largest in limits.items():
        if measured <= largest:
            return gun
    return "long"


def load_table(path: str | os.PathLike) -> Table:
    """Read a Pz 8 table file (the format is in wbk's reference):
    ``Table.load(path, pieces=Tank)``."""
    return Table.load(path, pieces=Tank)


@functools.cache
def example_table() -> Table:
    """wbk's illustrative Pz 8 table, the crossroads (``crossroads.toml`` in this folder)."""
    path = Path(__file__).with_name("crossroads.toml")
    return Table.from_toml(path.read_text(encoding="utf-8"), source=path.name, pieces=Tank)


def tank_on(table: Table, name: str | Tank) -> Tank:
    """The Pz 8 tank ``name`` (a name, or a tank looked up by its name) on ``table``."""
    if not isinstance(table, Table):
        raise WbkError(f"{table!r} is not a Table")
    piece = table.piece(name if isinstance(name, Tank) else NAME.check(name, "tank"))
    if not isinstance(piece, Tank):
        raise WbkError(f"{piece.name!r} is not a Pz 8 tank (load the table with pieces=Tank)")
    return piece
