"""The Pz 8 panels' controls: a value's plain words, a dropdown of values in them, the note
beside a control that makes no difference, and the row that describes a tank (``TankRow``)."""

from __future__ import annotations

from collections.abc import Iterable

import ipywidgets as widgets

from wbk.readings import Reading
from wbk.table import FOOTPRINT, Piece, Table
from wbk.widgets.readings import fitting_width

from ..tanks import CREWS, GUN_RANGES, GUNS, TANK_CLASSES, Tank

#: What the user reads for each value of ``wbk.games.pz8``.
LABELS = {
    "short": 'short gun (to 12")',
    "medium": 'medium gun (to 18")',
    "long": 'long gun (to 24")',
    "light": "light tank",
    "heavy": "heavy tank",
    "regular": "regular crew",
    "veteran": "veteran crew",
    "modified": "hits if the modified roll does (wbk)",
    "always_hits": "always hits",
    "rough": "rough terrain",
    "obstacle": "obstacle",
    "low obstacle": "low obstacle (seen over)",
    "hill": "hill",
}
CLASS_LABELS = {"light": "light tank", "medium": "medium tank", "heavy": "heavy tank"}
#: The panels' own words for a reading's values where a row of controls has no room for the
#: declared ones (``wbk.games.pz8.readings``), which "compare with" and the captions use.
SHORT_WORDS: dict[str, dict[str, str]] = {
    "cover_reading": {
        "partly_hidden": "any part hidden (wbk)",
        "half_hidden": "half or more hidden",
    },
    "obstacle_sight": {
        "as_marked": "seen over where marked (wbk)",
        "all_block": "block sight all the same",
    },
    "turns": {
        "card": "a 1 or 2 passes the turn (the card)",
        "alternate": "one attack each (no turnover)",
    },
}
#: Beside a control whose every value gives the same answer for the set-up on show.
NO_DIFFERENCE = "makes no difference here"


def label(value: str) -> str:
    """The words shown for a value: ``label("short") == 'short gun (to 12")'``."""
    return LABELS.get(value, value)


def choices(
    values, description: str, value: object = None, words=label, **options
) -> widgets.Dropdown:
    """A dropdown that shows each value's words and gives back the value itself, never so
    narrow that its longest words are cut off."""
    shown = [(words(v), v) for v in values]
    dropdown = widgets.Dropdown(
        options=shown,
        value=values[0] if value is None else value,
        description=description,
        **{"style": {"description_width": "initial"}, **options},
    )
    dropdown.layout.min_width = fitting_width([w for w, _ in shown], description)
    return dropdown


def reading_choices(reading: Reading, description: str, **options) -> widgets.Dropdown:
    """A dropdown of ``reading``'s declared values, the default first, each in the panels'
    short words (``SHORT_WORDS``) beside ``description``, a row's label shorter than the
    declaration's question."""
    words = SHORT_WORDS[reading.keyword]
    return choices(tuple(reading.values), description, words=words.__getitem__, **options)


def show_no_difference(note: widgets.HTML, same: bool) -> None:
    """Say in ``note`` that its control makes no difference here, or nothing."""
    note.value = f"<i>{NO_DIFFERENCE}</i>" if same else ""


#: The sides a tank can be on (with any side already on the table).
SIDES = ("German", "Soviet")
#: The way a tank faces, as the table is drawn (degrees counterclockwise from the right edge).
FACINGS = [
    ("↑ far edge", 90),
    ("↗ far right", 45),
    ("→ right edge", 0),
    ("↘ near right", 315),
    ("↓ near edge", 270),
    ("↙ near left", 225),
    ("← left edge", 180),
    ("↖ far left", 135),
]


def ems(n: float) -> widgets.Layout:
    """A control's width in ems."""
    return widgets.Layout(width=f"{n}em")


class TankRow:
    """The row that describes a tank: its name, side, class, gun (typed as a calibre too),
    crew, facing, platoon and marks. It shows a tank (``show``) and makes one as it describes
    it (``tank``): the one a click places, or the one selected on a table, edited in place."""

    def __init__(self, sides: Iterable[str]) -> None:
        self.name = widgets.Text(
            "Panther",
            description="tank",
            continuous_update=False,
            tooltip="the tank the row describes: one on the table (click it to select it) is "
            "edited in place; a new name is placed by a click",
            style={"description_width": "2.5em"},
            layout=ems(8),
        )
        sides = list(dict.fromkeys([*(side for side in sides if side), *SIDES]))
        self.side = choices(sides, "", layout=ems(6), words=str, tooltip="its side")
        self.tank_class = choices(
            TANK_CLASSES, "", "heavy", words=CLASS_LABELS.get, layout=ems(7.5), tooltip="its class"
        )
        self.gun = choices(
            GUNS,
            "",
            "long",
            words=lambda g: f'{g} ({GUN_RANGES[g]}")',
            layout=ems(8),
            tooltip="its gun (and the gun's range)",
        )
        self.calibre = widgets.Text(
            "",
            placeholder="calibre",
            continuous_update=False,
            tooltip="type the gun's calibre (75mm, 88, 2 pounder) to choose its class: "
            "short up to 49 mm, medium 50-76 mm (76.2 mm too), long over 76 mm; 'compare "
            "with' gives the card's upper limits (over 47 mm medium, over 76 mm long)",
            layout=ems(5),
        )
        self.crew = choices(CREWS, "", layout=ems(6), words=str, tooltip="its crew")
        self.facing = choices(
            [v for _, v in FACINGS],
            "faces",
            90,
            words={v: w for w, v in FACINGS}.get,
            tooltip="the way the tank points, as the table is drawn",
            style={"description_width": "2.8em"},
            layout=ems(10),
        )
        self.platoon = widgets.Text(
            "",
            placeholder="platoon",
            continuous_update=False,
            tooltip="its platoon, when a side fields more than one (1, 2, ...)",
            layout=ems(5),
        )
        self.flags = {
            key: widgets.ToggleButton(
                False, description=words, tooltip=tip, layout=widgets.Layout(width="auto")
            )
            for key, words, tip in (
                ("is_hq", "HQ", "the platoon's HQ"),
                ("shaken", "shaken", "marked shaken (Optional Rule: Shaken)"),
                ("destroyed", "wreck", "destroyed: a wreck stays on the table and blocks"),
            )
        }
        #: whether a tank's values are being put into the row (its changes are no edits)
        self.showing = False

    @property
    def fields(self) -> tuple[widgets.Widget, ...]:
        """The controls that say what the tank is, besides its name and its calibre."""
        described = (self.side, self.tank_class, self.gun, self.crew, self.facing, self.platoon)
        return (*described, *self.flags.values())

    @property
    def controls(self) -> tuple[widgets.Widget, ...]:
        """Every control of the row."""
        return (self.name, self.calibre, *self.fields)

    def selected(self, table: Table) -> Tank | None:
        """The tank on ``table`` the row names (in any case), or None."""
        typed = self.name.value.strip().casefold()
        for piece in table.pieces:
            if piece.name.casefold() == typed and isinstance(piece, Tank):
                return piece
        return None

    def show(self, tank: Tank) -> None:
        """Put ``tank``'s values into the row (``showing`` while it does)."""
        self.showing = True
        try:
            self.name.value = tank.name
            if tank.side not in [v for _, v in self.side.options]:
                self.side.options = [*self.side.options, (tank.side, tank.side)]
            self.side.value = tank.side
            self.tank_class.value = tank.tank_class
            self.gun.value = tank.gun
            self.crew.value = tank.crew
            if tank.facing not in [v for _, v in self.facing.options]:
                self.facing.options = [*self.facing.options, (f"{tank.facing:g}°", tank.facing)]
            self.facing.value = tank.facing
            self.platoon.value = tank.platoon
            for key, toggle in self.flags.items():
                toggle.value = getattr(tank, key)
            self.calibre.value = ""
        finally:
            self.showing = False

    def tank(self, name: str, point, like: Piece | None = None) -> Tank:
        """The tank the row describes, called ``name``, centred on ``point``, of the size of
        ``like`` (a piece on the table), else of wbk's footprint."""
        width, length = (like.width, like.length) if like is not None else FOOTPRINT
        return Tank(
            name,
            point,
            facing=self.facing.value,
            side=self.side.value.strip(),
            width=width,
            length=length,
            tank_class=self.tank_class.value,
            gun=self.gun.value,
            crew=self.crew.value,
            platoon=self.platoon.value.strip(),
            **{k: box.value for k, box in self.flags.items()},
        )
