"""The table panel's controls: what is asked of the table and by whom, what a click does, the
row that describes a tank to place or edit, the terrain to place, and the readings of a shot;
laid out in rows narrow enough for JupyterLab's page beside its file browser."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.draw.tables import TableView
from wbk.games import pz8
from wbk.games.pz8.panels.controls import CLASS_LABELS, choices, reading_choices
from wbk.games.pz8.readings import COVER, OBSTACLE_SIGHT
from wbk.table import TERRAIN_KINDS, Table
from wbk.widgets import LIVE_ONLY, Panel
from wbk.widgets.files import FileRow
from wbk.widgets.steps import CompareReadings, StepControl

#: What a click on the table does: (button words, value, tooltip).
CLICKS = [
    ("shooter", "shooter", "a click on a tank picks the shooter"),
    ("target", "target", "a click on a tank picks the target"),
    (
        "place tank",
        "place",
        "a click on a tank selects it; elsewhere it places the tank described in the row below "
        "(or moves it, if it is on the table)",
    ),
    ("turn tank", "turn", "a click turns the tank named in the row below to face it"),
    ("terrain", "terrain", "a click places the terrain piece described in the row below"),
    ("remove", "remove", "a click removes the tank or terrain piece under it"),
]
#: What the table panel asks of the table (value -> words): the shot from the shooter at the
#: target, or the platoon move or the rally of the tank in the first box.
ASKS = {"shot": "a shot", "platoon": "platoon move", "rally": "a rally"}
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
#: How far a terrain piece is turned (counterclockwise, as the table is drawn).
TURNS = [("square", 0)] + [(f"{a}° left", a) for a in range(15, 180, 15)]

_WIDE = {"description_width": "initial"}


def ems(n: float) -> widgets.Layout:
    """A control's width in ems."""
    return widgets.Layout(width=f"{n}em")


class TableControls(Panel):
    """The table panel's controls, made and laid out; the panel's parts above this one
    (``TableShow``, ``TableEditing``, ``TableComparing``, ``TablePanel``) give them their
    behaviour."""

    table: Table
    width: float
    figure: Figure
    canvas: Any  # ipympl's Canvas
    view: TableView
    file: FileRow
    pane: widgets.HTML
    step_control: StepControl
    compare: CompareReadings
    _loading: bool
    _shot: pz8.Shot | None
    _platoon: pz8.PlatoonMove | None
    _shot_title: str

    def _make_controls(self, shooter: str, target: str) -> None:
        """Every control of the panel, the shooter and the target in their boxes."""
        self._make_asking(shooter, target)
        self._make_tank_row()
        self._make_terrain_row()

    def _make_asking(self, shooter: str, target: str) -> None:
        """What is asked (a shot, a platoon move, a rally) of which tanks, under which readings,
        and what a click does."""
        self.boxes = {
            role: widgets.Text(
                name,
                description=role,
                continuous_update=False,
                tooltip=f"the {role}'s name (any case), or pick it with a click",
                style={"description_width": "4em"},
                layout=ems(10.5),
            )
            for role, name in (("shooter", shooter), ("target", target))
        }
        self.cover_reading = reading_choices(
            COVER,
            "cover if",
            tooltip="when a target counts as in cover (the card says 'partially obscured')",
            style=_WIDE,
            layout=ems(17),
        )
        self.cover_note = widgets.HTML()
        self.sight_reading = reading_choices(
            OBSTACLE_SIGHT,
            "low walls",
            tooltip="whether a low obstacle (a wall marked blocks_sight = false) lets tanks see "
            "over it; the card says 'most obstacles' block line of sight",
            style=_WIDE,
            layout=ems(20.5),
        )
        self.sight_note = widgets.HTML()
        self.show_reach = widgets.Checkbox(
            False,
            description="reach",
            tooltip="show where the shooter can move on its movement roll",
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        self.ask = widgets.Dropdown(
            options=[(words, value) for value, words in ASKS.items()],
            description="ask",
            tooltip="what to ask of the table: the shot from the shooter at the target, or the "
            "platoon move or the rally of the tank in the first box",
            style={"description_width": "2em"},
            layout=ems(10.5),
        )
        self.click = widgets.ToggleButtons(
            options=[(words, value) for words, value, _ in CLICKS],
            tooltips=[tip for *_, tip in CLICKS],
            style={"button_width": "auto"},
        )
        self.hint = widgets.HTML()

    def _make_tank_row(self) -> None:
        """The row that describes a tank: the one a click places, or the one selected on the
        table, which the row edits."""
        self.tank_name = widgets.Text(
            "Panther",
            description="tank",
            continuous_update=False,
            tooltip="the tank the row describes: one on the table (click it to select it) is "
            "edited in place; a new name is placed by a click",
            style={"description_width": "2.5em"},
            layout=ems(8),
        )
        sides = list(dict.fromkeys([*(p.side for p in self.table.pieces if p.side), *SIDES]))
        self.side = choices(sides, "", layout=ems(6), words=str, tooltip="its side")
        self.tank_class = choices(
            list(pz8.MOVE_VALUES),
            "",
            "heavy",
            words=CLASS_LABELS.get,
            layout=ems(7.5),
            tooltip="its class",
        )
        self.gun = choices(
            list(pz8.GUN_RANGES),
            "",
            "long",
            words=lambda g: f'{g} ({pz8.GUN_RANGES[g]}")',
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
        self.crew = choices(
            ["regular", "veteran"], "", layout=ems(6), words=str, tooltip="its crew"
        )
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

    def _make_terrain_row(self) -> None:
        """The terrain piece a click places: its kind, size and turn."""
        self.terrain_kind = choices(
            [*TERRAIN_KINDS, "low obstacle"],
            "terrain",
            layout=ems(12),
            tooltip="a low obstacle (a wall) blocks movement but not sight",
        )
        self.terrain_size = widgets.Text(
            "6 x 4",
            description="size",
            continuous_update=False,
            tooltip="width x depth in inches, like 6 x 4",
            style=_WIDE,
            layout=ems(7),
        )
        self.terrain_angle = choices(
            [v for _, v in TURNS],
            "",
            0,
            words={v: w for w, v in TURNS}.get,
            tooltip="how far the piece is turned to the left (counterclockwise)",
            layout=ems(7),
        )

    @property
    def described_controls(self) -> tuple[widgets.Widget, ...]:
        """The controls of the row that say what the tank is, besides its name and marks."""
        return (self.side, self.tank_class, self.gun, self.crew, self.facing, self.platoon)

    def _lay_out(self) -> None:
        """Five rows of controls above the picture, each narrow enough for JupyterLab's page
        beside its file browser (a 1000-pixel screen holds them and the table): what is asked;
        what a click does; the tank it places; its platoon, marks and the terrain; the
        readings. What the next click does means nothing on a static page: its snapshot lists
        the shot."""
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        asking = [self.ask, *self.boxes.values(), self.show_reach, self.cover_reading]
        tank = [self.tank_name, self.side, self.tank_class, self.gun, self.calibre, self.crew]
        self.widget = widgets.VBox(
            [
                widgets.HBox([*asking, self.cover_note], layout=row),
                widgets.HBox([widgets.HTML("a click:"), self.click, self.hint], layout=row),
                widgets.HBox([*tank, self.facing], layout=row),
                widgets.HBox(
                    [
                        self.platoon,
                        *self.flags.values(),
                        self.terrain_kind,
                        self.terrain_size,
                        self.terrain_angle,
                    ],
                    layout=row,
                ),
                widgets.HBox([self.sight_reading, self.sight_note], layout=row),
                self.message,
                self.canvas,
                self.picture_row,
                widgets.HBox(self.file.parts, layout=row),
                self.pane,
            ]
        )
        described = self.described_controls
        for control in (self.click, self.tank_name, *described, *self.flags.values()):
            control.add_class(LIVE_ONLY)
        for control in (self.calibre, self.terrain_kind, self.terrain_size, self.terrain_angle):
            control.add_class(LIVE_ONLY)
