"""Widget panels of the Pz 8 chapter: gun against armor, the table, and the duel.

Every choice shows plain words ("short gun (to 12")", "veteran crew"); its value is the name
``wbk.games.pz8`` uses ("short", "veteran"). Tank names typed in a box are accepted in any case.
"""

from __future__ import annotations

import html
import math
from dataclasses import fields, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.path import Path as DrawnPath
from matplotlib.text import Text
from matplotlib.ticker import PercentFormatter
from shapely.affinity import rotate
from shapely.geometry import Point
from shapely.geometry import box as rectangle
from shapely.ops import unary_union

from wbk.charts import heatmap
from wbk.datafile import parse_toml
from wbk.dice import percent
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.games import pz8
from wbk.games.pz8 import Tank
from wbk.plot import TITLE_SIZES, text_width, wrap_to_width
from wbk.table import TERRAIN_KINDS, Table, Terrain
from wbk.tableplot import (
    TableView,
    platoon_title,
    rally_title,
    say_chance,
    say_inches,
    shape_paths,
    shot_title,
    table_axes,
    table_figure_size,
)
from wbk.widgets import (
    LIVE_ONLY,
    ChartPanel,
    Panel,
    interactive_figure,
    reports_errors,
)
from wbk.widgets.edge_cases import (
    checked_text,
    checked_toml,
    has_edge_cases,
    set_settings,
    toml_block,
    toml_value,
)
from wbk.widgets.files import FileRow
from wbk.widgets.steps import CompareReadings

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


def label(value: str) -> str:
    """The words shown for a value: ``label("short") == 'short gun (to 12")'``."""
    return LABELS.get(value, value)


def choices(
    values, description: str, value: object = None, words=label, **options
) -> widgets.Dropdown:
    """A dropdown that shows each value's words and gives back the value itself."""
    return widgets.Dropdown(
        options=[(words(v), v) for v in values],
        value=values[0] if value is None else value,
        description=description,
        **{"style": {"description_width": "initial"}, **options},
    )


def fit_suptitle(figure: Figure, text: str) -> None:
    """A chart's title with its answer, wrapped at word breaks to the figure's width (two lines
    at most, smaller type rather than cut off)."""
    width = figure.get_figwidth() * 72 * 0.96
    for size in TITLE_SIZES:
        lines = wrap_to_width(text, width, size)
        if len(lines) == 2:  # break after the question rather than inside the answer
            for mark in ("; ", ": "):
                at = text.rfind(mark)
                parts = [text[: at + 1], text[at + 2 :]]
                if at > 0 and all(len(wrap_to_width(part, width, size)) == 1 for part in parts):
                    lines = parts
                    break
        if len(lines) <= 2:
            break
    figure.suptitle("\n".join(lines), fontsize=size)


def _destroyed(dist) -> Fraction:
    return dist.map(lambda o: o.destroyed).probability(True)


def _passes(dist) -> Fraction:
    return dist.map(lambda o: o.turn_passes).probability(True)


def _modifiers(cover: bool, veteran: bool, shaken: bool) -> str:
    said = [
        w
        for w, on in (
            ("target in cover", cover),
            ("veteran crew", veteran),
            ("firer shaken", shaken),
        )
        if on
    ]
    return ", ".join(said) or "no modifiers"


#: When the reading of a natural 6 matters.
NATURAL_SIX_TIP = (
    "matters only when a short or medium gun needs a 7: a shaken regular crew shooting at a "
    "target in cover; otherwise both readings agree"
)


# --- (1) gun against armor --------------------------------------------------------------------


class CasesChartPanel(ChartPanel):
    """A chart panel with the card's cases as presets (its controls by their names) and a
    "compare with" control whose marks are kept to take them off again."""

    boxes: dict[str, widgets.Widget]
    compare: CompareReadings
    _compare_marks: list[Artist]
    #: the duel on show (first, second, range, duel, curve), for the other reading's bars
    shown_duel: tuple | None = None
    #: what the figure shows: the duel (by id) and the step (None: the whole answer)
    drawn: tuple[int, int | None] = (0, None)


def gun_against_armor() -> ChartPanel:
    """Every gun against every class of tank: the chance one attack destroys it, and the chance
    the attack passes the turn, with the cover, veteran and shaken toggles."""

    natural_six_note = widgets.HTML()

    def compute(cover, veteran, shaken, natural_six):
        options = dict(cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six)
        attacks = {
            (gun, cls): pz8.attack(gun, cls, **options)
            for gun in pz8.GUN_RANGES
            for cls in pz8.MOVE_VALUES
        }
        others = [r for r in pz8.NATURAL_SIX_READINGS if r != natural_six]
        same = all(
            pz8.attack(gun, cls, **{**options, "natural_six": other}) == d
            for other in others
            for (gun, cls), d in attacks.items()
        )
        _no_difference(natural_six_note, same)
        return options, attacks

    made: list[CasesChartPanel] = []  # the panel, once built: its compare control marks each chart

    def draw(figure: Figure, result) -> str:
        html_text = draw_chart(figure, result)
        if made:
            made[0].compare_readings.refresh()
        return html_text

    def draw_chart(figure: Figure, result) -> str:
        options, attacks = result
        left, right = figure.subplots(1, 2)
        guns, classes = list(pz8.GUN_RANGES), list(pz8.MOVE_VALUES)
        words = _modifiers(options["cover"], options["veteran"], options["shaken"])
        heatmap(
            lambda g, c: _destroyed(attacks[g, c]),
            guns,
            classes,
            ax=left,
            xlabel="firer's gun",
            ylabel="target",
            title="Which gun kills which tank?\ndestroyed by one attack"
            + ("\n" if text_width(f"destroyed by one attack ({words})", 10) > 250 else " ")
            + f"({words})",
        )
        kills = {key: _destroyed(d) for key, d in attacks.items()}
        best = max(kills, key=lambda key: kills[key])
        worst = min(kills, key=lambda key: kills[key])
        useless = [g for g in guns if all(kills[g, c] == 0 for c in classes)]
        if useless:
            worst_words = f"a {' or '.join(useless)} gun cannot destroy any tank (it needs a 7)"
        else:
            worst_words = f"at worst a {worst[0]} gun a {worst[1]} tank {percent(kills[worst])}"
        fit_suptitle(
            figure,
            f"At best a {best[0]} gun destroys a {best[1]} tank {percent(kills[best])} of the "
            f"time; {worst_words}",
        )
        heatmap(
            lambda g, c: _passes(attacks[g, c]),
            guns,
            classes,
            ax=right,
            xlabel="firer's gun",
            title="Does the attack hand over the turn?\na gun die showing 1 or 2",
        )
        for ax in (left, right):
            ax.set_xticks(range(3), [f"{g}\n({say_inches(pz8.GUN_RANGES[g])})" for g in guns])
            ax.set_yticks(range(3), classes)
        header = "<tr><th>gun</th><th>target</th><th>destroyed</th><th>turn passes</th></tr>"
        rows = "".join(
            f"<tr><td>{g}</td><td>{c}</td>"
            f"<td>{say_chance(_destroyed(d))}</td><td>{say_chance(_passes(d))}</td></tr>"
            for (g, c), d in attacks.items()
        )
        return f"<p>One attack, {words}:</p><table>{header}{rows}</table>"

    panel = CasesChartPanel(
        compute,
        draw,
        size=(8.0, 3.6),
        cover=widgets.Checkbox(False, description="target in cover (-1)"),
        veteran=widgets.Checkbox(False, description="veteran crew firing (+1)"),
        shaken=widgets.Checkbox(False, description="firer shaken (-1)"),
        natural_six=choices(
            pz8.NATURAL_SIX_READINGS,
            "a natural 6",
            layout=widgets.Layout(width="24em"),
            tooltip=NATURAL_SIX_TIP,
        ),
    )
    panel.rule = "Pz 8, Shooting and Penetration and Damage"
    _beside(panel, panel.controls["natural_six"], natural_six_note)
    panel.boxes = dict(panel.controls)  # the presets set the chart's controls by their names

    def mark(other: dict[str, str] | None) -> bool:
        """The cells of "destroyed" whose chance moves under ``other``: outlined, with the
        other reading's chance."""
        for artist in getattr(panel, "_compare_marks", []):
            if artist.axes is not None:
                artist.remove()
        panel._compare_marks = []
        if other is None or not panel.figure.axes:
            panel.canvas.draw_idle()
            return False
        values = {name: control.value for name, control in panel.controls.items()}
        left = panel.figure.axes[0]
        for i, gun in enumerate(pz8.GUN_RANGES):
            for j, cls in enumerate(pz8.MOVE_VALUES):
                here = _destroyed(pz8.attack(gun, cls, **values))
                there = _destroyed(pz8.attack(gun, cls, **{**values, **other}))
                if here != there:
                    box = Rectangle(
                        (i - 0.47, j - 0.47),
                        0.94,
                        0.94,
                        fill=False,
                        edgecolor="#D55E00",
                        linewidth=2.5,
                        linestyle="--",
                        zorder=5,
                    )
                    left.add_patch(box)
                    note = left.text(
                        i,
                        j - 0.3,
                        f"other: {percent(there)}",
                        ha="center",
                        fontsize=7,
                        color="white",
                        zorder=5,
                    )
                    panel._compare_marks += [box, note]
        panel.canvas.draw_idle()
        return bool(panel._compare_marks)

    panel.compare = panel.add_compare_readings(
        {"natural_six": pz8.READING_WORDS["natural_six"]},
        mark=mark,
        current=lambda: {"natural_six": panel.controls["natural_six"].value},
    )
    panel.add_presets(ARMOR_CASES)
    made.append(panel)
    return panel


#: The card's shooting cases (Pz 8, Shooting; Penetration and Damage): the gun-against-armour
#: panel's presets. Every gun is drawn against every class; each case sets the modifiers.
ARMOR_CASES: dict[str, dict[str, object]] = {
    "Shooting: a medium gun's 2 dice against light, medium, heavy (saves 6+, 5+, 4+)": {
        "cover": False,
        "veteran": False,
        "shaken": False,
        "natural_six": "modified",
    },
    "Shooting: a short gun's three dice, the target in cover (-1: only a 6 hits)": {
        "cover": True,
        "veteran": False,
        "shaken": False,
        "natural_six": "modified",
    },
    "Shooting: cover (-1) and a veteran crew (+1) cancel out": {
        "cover": True,
        "veteran": True,
        "shaken": False,
        "natural_six": "modified",
    },
    "Optional Rule Shaken: a shaken firer (-1)": {
        "cover": False,
        "veteran": False,
        "shaken": True,
        "natural_six": "modified",
    },
    "Shooting: cover and a shaken firer (-2): only a natural 6 that always hits has a chance": {
        "cover": True,
        "veteran": False,
        "shaken": True,
        "natural_six": "modified",
    },
}


def _beside(panel: Panel, control: widgets.Widget, note: widgets.Widget) -> None:
    """Put ``note`` right after ``control`` in the panel's row of controls."""
    row = panel.widget.children[0]
    children = list(row.children)
    children.insert(children.index(control) + 1, note)
    row.children = tuple(children)


# --- (2) the table ----------------------------------------------------------------------------

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
#: The readings of a shot; the table panel compares them and those of a platoon move
#: (``shaken_hq``, ``shaken_member``) and of the reach (``rough_terrain``).
SHOT_READINGS = ("cover_reading", "obstacle_sight", "natural_six")
COMPARED = (*SHOT_READINGS, "shaken_hq", "shaken_member", "rough_terrain")
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
#: Beside a control whose every value gives the same answer for the set-up on show.
NO_DIFFERENCE = "makes no difference here"


def find_tank(table: Table, name: str) -> str:
    """The name of the tank called ``name`` on the table, in any case ("tiger" finds "Tiger")."""
    typed = name.strip()
    for piece in table.pieces:
        if piece.name.casefold() == typed.casefold():
            return piece.name
    known = ", ".join(p.name for p in table.pieces) or "none"
    raise WbkError(f"no tank called {typed!r} on the table (there are: {known})")


def parse_size(text: str) -> tuple[float, float]:
    """A terrain piece's size typed as "6 x 4" or "6 by 4" (inches)."""
    parts = text.lower().replace("×", "x").replace("by", "x").replace('"', "").split("x")
    try:
        width, depth = (float(p) for p in parts)
    except ValueError:
        raise WbkError(f"terrain size {text!r} is not two numbers of inches like 6 x 4") from None
    if not (0 < width < math.inf and 0 < depth < math.inf):
        raise WbkError(f"terrain size {text!r}: both numbers must be positive inches")
    return width, depth


def _no_difference(note: widgets.HTML, same: bool) -> None:
    note.value = f"<i>{NO_DIFFERENCE}</i>" if same else ""


@has_edge_cases
class TablePanel(Panel):
    """The table drawn to scale: click to pick a shooter and a target (clicks alternate), to
    select a tank (the row below then edits it in place), place, move or turn it, to place
    terrain or remove a piece; see the range, the line of sight, the cover and the exact outcome
    in the title and below, and the shooter's reach for its movement roll. Load and save the
    table as a file.

    The panel is out of date exactly while an input is bad (the shooter, the target, the tank's
    name or calibre, the terrain size), and the message line names each."""

    rule = "Pz 8, Shooting and Movement"

    def __init__(
        self,
        table: Table | None = None,
        shooter: str = "Pz IV 1",
        target: str = "KV-1",
        *,
        path: str | None = None,
        width: float = 6.0,
    ):
        super().__init__()
        self.width = width
        self.table = table if table is not None else pz8.example_table()
        self._loading = False  # while a selected tank's values are put into the controls
        wide = {"description_width": "initial"}
        short = {"description_width": "4em"}

        def ems(n: float) -> widgets.Layout:
            return widgets.Layout(width=f"{n}em")

        self.boxes = {
            role: widgets.Text(
                name,
                description=role,
                continuous_update=False,
                tooltip=f"the {role}'s name (any case), or pick it with a click",
                style=short,
                layout=ems(10.5),
            )
            for role, name in (("shooter", shooter), ("target", target))
        }
        self.cover_reading = widgets.Dropdown(
            options=[
                ("any part hidden (wbk)", "partly_hidden"),
                ("half or more hidden", "half_hidden"),
            ],
            description="cover if",
            tooltip="when a target counts as in cover (the card says 'partially obscured')",
            style=wide,
            layout=ems(17),
        )
        self.cover_note = widgets.HTML()
        self.sight_reading = widgets.Dropdown(
            options=[
                ("seen over where marked (wbk)", "as_marked"),
                ("block sight all the same", "all_block"),
            ],
            description="low walls",
            tooltip="whether a low obstacle (a wall marked blocks_sight = false) lets tanks see "
            "over it; the card says 'most obstacles' block line of sight",
            style=wide,
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
        # the tank a click places, or the tank selected on the table, which the row edits
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
            "short up to 49 mm, medium 50-76 mm, long over 76 mm",
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
            style=wide,
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
        # the file
        self.file = FileRow(
            "table",
            Path.home() / "pz8_table.toml" if path is None else Path(path),
            load=self.load,
            save=self.save,
        )
        self.pane = widgets.HTML()
        self.figure, self.canvas = interactive_figure(
            table_figure_size(self.table, self.width), layout=None
        )
        self.view = TableView(self.table, table_axes(self.figure))
        self.canvas.mpl_connect("button_press_event", self.on_click)
        for control in (
            *self.boxes.values(),
            self.show_reach,
            self.cover_reading,
            self.sight_reading,
            self.ask,
        ):
            control.observe(lambda _: self.update(), names="value")
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        # five rows of controls above the picture, each narrow enough for JupyterLab's page
        # beside its file browser (a 1000-pixel screen holds them and the table): what is asked;
        # what a click does; the tank it places; its marks and the terrain; the readings
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [
                        self.ask,
                        *self.boxes.values(),
                        self.show_reach,
                        self.cover_reading,
                        self.cover_note,
                    ],
                    layout=row,
                ),
                widgets.HBox([widgets.HTML("a click:"), self.click, self.hint], layout=row),
                widgets.HBox(
                    [
                        self.tank_name,
                        self.side,
                        self.tank_class,
                        self.gun,
                        self.calibre,
                        self.crew,
                        self.facing,
                        self.platoon,
                    ],
                    layout=row,
                ),
                widgets.HBox(
                    [
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
        described = (self.side, self.tank_class, self.gun, self.crew, self.facing, self.platoon)
        # what the next click does means nothing on a static page: its snapshot lists the shot
        for control in (self.click, self.tank_name, *described, *self.flags.values()):
            control.add_class(LIVE_ONLY)
        for control in (self.calibre, self.terrain_kind, self.terrain_size, self.terrain_angle):
            control.add_class(LIVE_ONLY)
        for control in (self.click, self.terrain_kind, self.terrain_angle):
            control.observe(lambda _: self.show_hint(), names="value")
        self.tank_name.observe(lambda _: self.select(), names="value")
        self.calibre.observe(lambda _: self.pick_calibre(), names="value")
        self.terrain_size.observe(lambda _: self.check_size(), names="value")
        for control in (*described, *self.flags.values()):
            control.observe(lambda _: self.edit_selected(), names="value")
        self.show_hint()
        # teaching (issue 19): step through the shot, compare readings, the card's cases
        self.pane_lists_steps = True
        self._shot_title = ""
        self._shot: pz8.Shot | None = None
        self._platoon: pz8.PlatoonMove | None = None
        self.step_control = self.add_step_control(self.draw_step)
        self.compare = self.add_compare_readings(
            {k: pz8.READING_WORDS[k] for k in COMPARED},
            mark=self.mark_changes,
            current=self.readings,
        )
        # the snapshot leaves out a live-only box's controls only when they are marked too
        self.compare.choice.add_class(LIVE_ONLY)
        # beside the low-wall reading rather than a row of its own (the screen budget)
        self._place_beside_readings(self.compare.widget)
        self.compare.choice.layout.width = "19em"

        self.add_compare_marks()
        self.add_presets(TABLE_CASES)
        self.update()

    # --- teaching: the shot step by step, another reading's verdict ---------------------------

    def add_compare_marks(self) -> None:
        """The marks of "compare with" on the table's axes: the other verdict in a box, and
        what changes hatched (the tanks a platoon move takes or leaves, the places the reach
        gains or loses)."""
        self.compare_mark = self.view.ax.text(
            0.5,
            0.985,
            "",
            transform=self.view.ax.transAxes,
            ha="center",
            va="top",
            fontsize=8,
            zorder=6,
            bbox={"facecolor": "#fff3d6", "edgecolor": "#D55E00", "boxstyle": "round"},
            visible=False,
        )
        self.compare_hatch = PathCollection(
            [],
            facecolors="none",
            edgecolors="#D55E00",
            hatch="xx",
            linewidths=1.5,
            zorder=4.4,
        )
        self.view.ax.add_collection(self.compare_hatch)

    def _place_beside_readings(self, part: widgets.Widget) -> None:
        """Move ``part`` (a row of its own) to the end of the low-wall reading's row."""
        children = [c for c in self.widget.children if c is not part]
        readings = next(c for c in children if self.sight_reading in getattr(c, "children", ()))
        readings.children = (*readings.children, part)
        self.widget.children = tuple(children)

    def readings(self) -> dict[str, str]:
        """The readings the answer on show is read under (those with no control of their own
        at their defaults: they are compared, not chosen)."""
        return {
            "cover_reading": self.cover_reading.value,
            "obstacle_sight": self.sight_reading.value,
            "natural_six": "modified",
            "shaken_hq": "stays_put",
            "shaken_member": "stays_put",
            "rough_terrain": "moving_through",
        }

    def draw_step(self, k: int) -> None:
        """The shot at its step ``k``: what the step is about outlined, the rest dimmed; the
        last step is the whole answer."""
        if self.step_control.at_answer:
            self.view.clear_step()
            self.view.set_title(self._shot_title)
        else:
            self.view.show_step(self.step_control.steps, k)
        self.view.redraw()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Under ``other`` readings, what changes on the table, with the other verdict in a box:
        a shot's line of sight, cover or chance to destroy; the tanks a platoon move takes or
        leaves (hatched); the places the shooter's reach gains or loses (hatched)."""
        self.compare_mark.set_visible(False)
        self.compare_hatch.set_paths([])
        changed = False
        keyword = next(iter(other)) if other else ""
        if keyword in ("shaken_hq", "shaken_member") and self._platoon is not None:
            changed = self.mark_platoon_changes(keyword, other[keyword])  # type: ignore[index]
        elif keyword == "rough_terrain":
            changed = self.mark_reach_changes(other[keyword])  # type: ignore[index]
        elif other is not None and keyword in SHOT_READINGS and self._shot is not None:
            readings = {k: v for k, v in self.readings().items() if k in SHOT_READINGS}
            alternative = pz8.shot(
                self.table, self._shot.firer, self._shot.target, **{**readings, **other}
            )
            changed = shot_title(alternative) != shot_title(self._shot)
            if changed:
                ((keyword, value),) = other.items()
                verdict = shot_title(alternative).split(": ", 1)[1]
                self.compare_mark.set_text(
                    f"under '{pz8.READING_WORDS[keyword][value]}': {verdict}"
                )
                self.compare_mark.set_visible(True)
        self.view.redraw()
        return changed

    def _say_other(self, keyword: str, value: str, verdict: str) -> None:
        self.compare_mark.set_text(f"under '{pz8.READING_WORDS[keyword][value]}': {verdict}")
        self.compare_mark.set_visible(True)

    def mark_platoon_changes(self, keyword: str, value: str) -> bool:
        """The platoon move under another reading of a shaken tank: its verdict in the box, the
        tanks that would move under one reading and not the other hatched."""
        here = self._platoon
        assert here is not None and here.hq is not None
        hq = self.table.piece(here.hq)
        there = pz8.platoon_movement(
            self.table, hq.side, platoon=getattr(hq, "platoon", ""), **{keyword: value}
        )
        if (there.allowed, there.tanks) == (here.allowed, here.tanks):
            return False
        moving_here = set(here.tanks) if here.allowed else set()
        moving_there = set(there.tanks) if there.allowed else set()
        self.compare_hatch.set_paths(
            [
                DrawnPath(list(self.table.piece(name).footprint.exterior.coords), closed=True)
                for name in sorted(moving_here ^ moving_there)
            ]
        )
        self._say_other(keyword, value, platoon_title(there).split(": ", 1)[1])
        return True

    def mark_reach_changes(self, value: str) -> bool:
        """The shooter's reach under another rough-terrain reading (while the reach is on show):
        the places whose chance to be reached changes, hatched."""
        if self.ask.value != "shot" or not self.show_reach.value or self._shot is None:
            return False
        here = self.reach(self._shot.firer)
        there = pz8.movement_reach(self.table, self._shot.firer, rough_terrain=value)
        moved = []
        reached_here, reached_there = Point(here.start).buffer(0), Point(here.start).buffer(0)
        for a, b in zip(here.bands, there.bands, strict=True):
            reached_here, reached_there = reached_here.union(a.area), reached_there.union(b.area)
            moved.append(reached_here.symmetric_difference(reached_there))
        changes = unary_union(moved).buffer(0)
        if changes.area < 0.01:
            return False
        self.compare_hatch.set_paths(shape_paths(changes))
        self._say_other(
            "rough_terrain", value, f"the reach changes where hatched ({changes.area:.0f} sq in)"
        )
        return True

    # --- the row below: the tank it describes --------------------------------------------------

    def selected(self) -> Tank | None:
        """The tank on the table the row describes (by its name, any case), or None."""
        typed = self.tank_name.value.strip().casefold()
        for piece in self.table.pieces:
            if piece.name.casefold() == typed and isinstance(piece, Tank):
                return piece
        return None

    def show_hint(self) -> None:
        """Say what the next click on the table does, and what the row below edits."""
        name = self.tank_name.value.strip()
        tank = self.selected()
        if tank is not None:
            place = (
                f"A click on another tank selects it; elsewhere it moves {tank.name!r} there. "
                f"The row below edits {tank.name!r} in place."
            )
        elif name:
            place = (
                f"A click places {name!r} ({CLASS_LABELS[self.tank_class.value]}, "
                f"{self.gun.value} gun) there; a click on a tank selects it."
            )
        else:
            place = "Type a name in the tank box first; a click on a tank selects it."
        words = {
            "shooter": "A click on a tank picks the shooter.",
            "target": "A click on a tank picks the target.",
            "place": place,
            "turn": f"A click turns {name!r} to face it."
            if tank is not None
            else f"No tank called {name!r} to turn: select one first.",
            "terrain": f"A click places {label(self.terrain_kind.value)} of "
            f"{self.terrain_size.value.strip()} inches, turned {self.terrain_angle.value}°.",
            "remove": "A click removes the tank or terrain piece under it.",
        }
        self.hint.value = f"<i>{html.escape(words[self.click.value], quote=False)}</i>"

    @reports_errors(input="tank name")
    def select(self) -> None:
        """The name typed: a tank on the table is selected (the row shows what it is); a new
        name describes the next tank to place. An empty name is a bad input."""
        self.show_hint()
        if not self.tank_name.value.strip():
            raise WbkError("the tank needs a name: type one, or click a tank to select it")
        tank = self.selected()
        if tank is not None and not self._loading:
            self.describe(tank)

    def describe(self, tank: Tank) -> None:
        """Put ``tank``'s values into the row below, without editing anything."""
        self._loading = True
        try:
            self.tank_name.value = tank.name
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
            self._loading = False
        self.show_hint()

    def select_piece(self, name: str) -> None:
        """Select the tank called ``name`` (a click on it): the row below shows what it is."""
        piece = self.table.piece(name)
        if isinstance(piece, Tank):
            self.describe(piece)

    def described(self, name: str, point) -> Tank:
        """The tank the row describes, called ``name``, centred on ``point``."""
        footprint = (
            (self.table.pieces[0].width, self.table.pieces[0].length)
            if self.table.pieces
            else (1.5, 2.5)
        )
        return Tank(
            name,
            point,
            facing=self.facing.value,
            side=self.side.value.strip(),
            width=footprint[0],
            length=footprint[1],
            tank_class=self.tank_class.value,
            gun=self.gun.value,
            crew=self.crew.value,
            platoon=self.platoon.value.strip(),
            **{k: box.value for k, box in self.flags.items()},
        )

    @reports_errors(stale=False)
    def edit_selected(self) -> None:
        """A control of the row changed: edit the selected tank in place (a tank that cannot
        stand so, say turned into another, stays as it was and the row shows it again)."""
        self.show_hint()
        tank = self.selected()
        if self._loading or tank is None:
            return
        edited = self.described(tank.name, tank.position)
        if edited == tank:
            return
        try:
            table = self.table.with_piece(edited)
        except WbkError:
            self.describe(tank)
            raise
        changed = [f.name for f in fields(Tank) if getattr(edited, f.name) != getattr(tank, f.name)]
        self.set_table(
            table, f"{tank.name!r}: {', '.join(_FIELD_WORDS.get(c, c) for c in changed)}"
        )

    @reports_errors(input="calibre")
    def pick_calibre(self) -> None:
        """A calibre typed: choose the gun class it has (Pz 8, Shooting)."""
        typed = self.calibre.value.strip()
        if typed:
            self.gun.value = pz8.gun_for_calibre(typed)

    @reports_errors(input="terrain size")
    def check_size(self) -> None:
        """A terrain size that is not two numbers is a bad input at once."""
        self.show_hint()
        parse_size(self.terrain_size.value)

    # --- clicks ------------------------------------------------------------------------------

    @reports_errors(stale=False)
    def on_click(self, event) -> None:
        self.show_message("")
        point = self.view.point_at(event.xdata, event.ydata)
        if point is None:
            self.show_message("that click is off the table")
            return
        action = self.click.value
        name = self.view.piece_at(*point)
        if action in self.boxes:
            if name is None:  # a click beside the tanks: say so, keep the answer on show
                where = f"{say_inches(point[0])}, {say_inches(point[1])}"
                self.show_message(f"no tank at {where}: click on a tank")
                return
            self.click.value = "target" if action == "shooter" else "shooter"  # clicks alternate
            self.select_piece(name)
            self.boxes[action].value = name
        elif action == "place":
            if name is not None:
                self.select_piece(name)
                self.show_done(f"selected {name!r}: the row below edits it")
            else:
                self.place_tank(point)
        elif action == "turn":
            self.turn_towards(point)
        elif action == "terrain":
            self.place_terrain(point)
        else:
            self.remove_at(point)

    def place_tank(self, point) -> None:
        """Move the selected tank to ``point`` (keeping what it is), or put a new tank as the
        row describes it there."""
        typed = self.tank_name.value.strip()
        if not typed:
            self.set_bad(
                "tank name", "the tank needs a name: type one, or click a tank to select it"
            )
            return
        where = f"{say_inches(point[0])}, {say_inches(point[1])}"
        tank = self.selected()
        if tank is not None:
            moved = Tank(**{**_fields(tank), "position": point})
            self.set_table(self.table.with_piece(moved), f"moved {tank.name!r} to {where}")
        else:
            placed = self.table.with_piece(self.described(typed, point))
            self.set_table(placed, f"placed {typed!r} at {where}")
            self.show_hint()

    def turn_towards(self, point) -> None:
        tank = self.selected()
        if tank is None:
            raise WbkError(
                f"no tank called {self.tank_name.value.strip()!r} on the table to turn: "
                "click a tank in place tank mode to select it"
            )
        facing = (
            round(
                math.degrees(math.atan2(point[1] - tank.position[1], point[0] - tank.position[0]))
                % 360
            )
            % 360
        )
        turned = Tank(**{**_fields(tank), "facing": facing})
        self.set_table(self.table.with_piece(turned), f"turned {tank.name!r} to face {facing}°")
        self.describe(turned)

    def place_terrain(self, point) -> None:
        size = self.read_input("terrain size", lambda: parse_size(self.terrain_size.value))
        if size is None:
            self.settle()
            return
        width, depth = size
        x, y = point
        shape = rectangle(x - width / 2, y - depth / 2, x + width / 2, y + depth / 2)
        shape = rotate(shape, self.terrain_angle.value, origin=(x, y))
        shape = shape.intersection(rectangle(0, 0, self.table.width, self.table.depth))
        chosen = self.terrain_kind.value
        kind = "obstacle" if chosen == "low obstacle" else chosen
        low = chosen == "low obstacle"
        alike = [t for t in self.table.terrain if t.kind == kind]
        if kind == "obstacle":  # low walls and other obstacles are numbered apart
            alike = [t for t in alike if t.blocks_sight != low]
        number = len(alike) + 1
        piece = Terrain(
            kind,
            tuple(shape.exterior.coords[:-1]),
            name=f"{'low wall' if low else kind} {number}",
            blocks_sight=not low if kind == "obstacle" else None,
        )
        table = Table(
            self.table.width,
            self.table.depth,
            (*self.table.terrain, piece),
            self.table.pieces,
            self.table.name,
        )
        self.set_table(table, f"placed {piece.label}")

    def remove_at(self, point) -> None:
        name = self.view.piece_at(*point)
        if name is not None:
            self.set_table(self.table.without_piece(name), f"removed {name!r}")
            self.show_hint()
            return
        under = [t for t in self.table.terrain if t.polygon.covers(Point(point))]
        if not under:
            self.show_message("nothing to remove there: click on a tank or a terrain piece")
            return
        kept = tuple(t for t in self.table.terrain if t is not under[-1])
        table = Table(self.table.width, self.table.depth, kept, self.table.pieces, self.table.name)
        self.set_table(table, f"removed {under[-1].label}")

    def set_table(self, table: Table, done: str = "") -> None:
        self.table = table
        self.view.show_contents(table)
        self.update()
        if done:
            self.show_done(f"{done}.")

    def resize_to(self, table: Table) -> None:
        """Draw the picture anew in the proportions of ``table`` when its size differs."""
        if (table.width, table.depth) != (self.table.width, self.table.depth):
            self.figure.clear()  # a table of another size: its own proportions
            self.figure.set_size_inches(*table_figure_size(table, self.width))
            self.view = TableView(table, table_axes(self.figure))
            self.add_compare_marks()

    @reports_errors(stale=False)
    def load(self) -> None:
        """The table in the file chosen (typed in JupyterLab, uploaded in the app)."""
        text, source, _ = self.file.read()
        table = Table.from_toml(text, source=source, pieces=Tank)
        self.resize_to(table)
        self.set_table(table, f"loaded {table.name!r} from {source}")
        self.show_hint()

    @reports_errors
    def apply_preset(self, values) -> None:
        """A worked example: its table first (``"table"``: a name of ``CASE_TABLES``, the
        example table as the case needs it), then the controls it sets."""
        values = dict(values)
        named = values.pop("table", None)
        if named is not None:
            table = case_table(str(named))
            if table != self.table:
                self.resize_to(table)
                self.set_table(table)
        super().apply_preset(values)

    @reports_errors(stale=False)
    def save(self) -> None:
        where = self.file.write(self.table.to_toml(), "pz8_table.toml")
        self.show_done(f"saved {self.table.name!r} ({_tanks(len(self.table.pieces))}) {where}")

    # --- the answer -------------------------------------------------------------------------

    @reports_errors
    def update(self) -> None:
        """Read the shooter and the target (each bad one named), then draw the answer."""

        def reader(box: widgets.Text):
            return lambda: find_tank(self.table, box.value)

        asked = self.ask.value
        # a platoon move or a rally is asked of the tank in the first box: no target
        self.boxes["shooter"].description = "shooter" if asked == "shot" else "tank"
        self.boxes["target"].disabled = asked != "shot"
        self.show_reach.disabled = asked != "shot"
        roles = self.boxes if asked == "shot" else {"shooter": self.boxes["shooter"]}
        if asked != "shot":
            self.clear_bad("target")
        names = {role: self.read_input(role, reader(box)) for role, box in roles.items()}
        if any(role in self.bad_inputs for role in roles):
            return
        if asked != "shot":
            self.pane.value = self.show_asked(asked, str(names["shooter"]))
            self.view.redraw()
            return
        if names["shooter"] == names["target"]:
            self.bad_inputs["target"] = (
                f"{names['target']!r} is both the shooter and the target: pick another target"
            )
            return
        self.pane.value = self.show(str(names["shooter"]), str(names["target"]))
        self.view.redraw()

    def show(self, shooter: str, target: str) -> str:
        """Draw the shot from ``shooter`` at ``target`` (and the shooter's reach), title the
        picture with its answer and return the pane's HTML."""
        firer = self.table.piece(shooter)
        readings = {
            "cover_reading": self.cover_reading.value,
            "obstacle_sight": self.sight_reading.value,
        }
        result = pz8.shot(self.table, shooter, target, **readings)
        for key, control, note in (
            ("cover_reading", self.cover_reading, self.cover_note),
            ("obstacle_sight", self.sight_reading, self.sight_note),
        ):
            other = next(v for _, v in control.options if v != control.value)
            alternative = pz8.shot(self.table, shooter, target, **{**readings, key: other})
            _no_difference(note, shot_title(alternative) == shot_title(result))
        self.view.clear_step()
        self.view.show_links(None, (), 0, "")
        self.view.show_ranges(shooter, pz8.GUN_RANGES, gun=getattr(firer, "gun", ""))
        self.view.show_shot(result)
        self._shot, self._shot_title, self._platoon = result, self.view.title(), None
        parts = [
            f"<p><b>{html.escape(self.view.title(), quote=False)}</b></p>",
            steps_html(result.steps),
        ]
        if result.outcome is not None:
            d = result.outcome
            hit = d.map(lambda o: o.hits > 0).probability(True)
            shaken = d.map(lambda o: o.shaken).probability(True)
            parts.append(
                f"<p>a hit {say_chance(hit)}; destroyed {say_chance(_destroyed(d))}; "
                f"hit but not destroyed (shaken) {say_chance(shaken)}; "
                f"the turn passes {say_chance(_passes(d))}</p>"
            )
            parts.append(d._repr_html_())
        if self.show_reach.value:
            reach = self.reach(shooter)
            self.view.show_reach(reach)
            parts.append(
                f"<p><b>{html.escape(shooter)}: where it can move</b></p>{steps_html(reach.steps)}"
            )
        else:
            self.view.show_reach(None)
        warnings = pz8.platoon_warnings(self.table)
        if warnings:
            listed = "; ".join(html.escape(w, quote=False) for w in warnings)
            parts.append(
                f"<p><i>Platoons unlike the card's (a warning, not an error): {listed}.</i></p>"
            )
        # with the reach on show, its steps follow the shot's
        reach_steps = self.reach(shooter).steps if self.show_reach.value else ()
        self.show_steps((*result.steps, *reach_steps))
        self.compare.refresh()
        return "".join(parts)

    def show_asked(self, asked: str, tank: str) -> str:
        """Draw the platoon move of ``tank``'s platoon (``asked="platoon"``) or ``tank``'s rally
        (``"rally"``): the HQ, the distances that decide and the verdict in the title; return
        the pane's HTML."""
        t = self.table.piece(tank)
        self.view.clear_step()
        self.view.show_ranges(None)
        self.view.show_sight(None)
        self.view.show_reach(None)
        self._shot = None
        result: pz8.PlatoonMove | pz8.Rally
        if asked == "platoon":
            result = pz8.platoon_movement(self.table, t.side, platoon=getattr(t, "platoon", ""))
            measured = [
                name
                for name in result.platoon_tanks
                if not any(getattr(self.table.piece(name), k) for k in ("destroyed", "shaken"))
            ]
            self.view.show_links(result.hq, measured, pz8.PLATOON_RADIUS, "platoon move")
            self.view.set_title(platoon_title(result))
            self._platoon = result
        else:
            result = pz8.rally(self.table, tank)
            self.view.show_links(result.hq, [result.tank], pz8.RALLY_RADIUS, "rally")
            self.view.set_title(rally_title(result))
            self._platoon = None
        self._shot_title = self.view.title()
        parts = [
            f"<p><b>{html.escape(self.view.title(), quote=False)}</b></p>",
            steps_html(result.steps),
        ]
        self.show_steps(result.steps)
        self.compare.refresh()
        return "".join(parts)

    def reach(self, shooter: str):
        """The shooter's reach, kept while the table and the shooter stay: picking targets is
        cheap."""
        key = (self.table, shooter)
        if getattr(self, "_reach_key", None) != key:
            self._reach, self._reach_key = pz8.movement_reach(self.table, shooter), key
        return self._reach

    def mark_stale(self) -> None:
        super().mark_stale()
        self.view.clear()
        self.view.set_title(self.stale_title())
        self.view.redraw()

    # --- the situation as a file ----------------------------------------------------------------

    def setting_controls(self) -> list[widgets.Widget]:
        """The controls the picture depends on besides the table: a saved picture's caption
        names those not at their starting values."""
        return [self.ask, self.cover_reading, self.sight_reading, self.show_reach]

    def edge_case_settings(self) -> dict[str, widgets.Widget]:
        """The settings an edge case of the panel saves and may set, by name."""
        return {
            "ask": self.ask,
            "shooter": self.boxes["shooter"],
            "target": self.boxes["target"],
            "cover_reading": self.cover_reading,
            "obstacle_sight": self.sight_reading,
            "show_reach": self.show_reach,
        }

    def edge_case(self) -> str:
        """The situation on show as TOML: the panel, the shooter, the target, the settings and
        the table file itself, which ``wbk.widgets.load_edge_case`` (or ``from_edge_case``)
        turns back into the same picture. A PNG saved by "Save picture" carries it too."""
        settings = {name: c.value for name, c in self.edge_case_settings().items()}
        settings["shooter"], settings["target"] = (
            s.strip() for s in (settings["shooter"], settings["target"])
        )
        lines = [
            f'panel = "{type(self).__module__}.{type(self).__qualname__}"',
            "",
            "[settings]",
            *(f"{key} = {toml_value(value)}" for key, value in settings.items()),
        ]
        return "\n".join(lines) + f"\n\n[table]\ntoml = {toml_block(self.table.to_toml())}\n"

    @classmethod
    def from_edge_case(cls, text: str, source: str) -> TablePanel:
        """The table panel showing a saved edge case (see ``edge_case``), its table inline."""
        data = parse_toml(text, source)
        for key in ("settings", "table"):
            if not isinstance(data.get(key), dict):
                raise WbkError(f"{source}: [{key}]: missing")
        table = Table.from_toml(
            checked_toml(data["table"].get("toml"), f"{source}: [table] toml"),
            source=f"{source} [table]",
            pieces=Tank,
        )
        settings = dict(data["settings"])
        shooter, target = (
            checked_text(settings.pop(box, ""), f"{source}: [settings] {box}")
            for box in ("shooter", "target")
        )
        panel = cls(table, shooter, target)
        declared = panel.edge_case_settings()
        for box in ("shooter", "target"):
            del declared[box]
        set_settings(declared, settings, source)
        return panel


#: The card's cases on the example table (``pz8.example_table``): the table panel's presets.
TABLE_CASES: dict[str, dict[str, object]] = {
    "Shooting, cover: Pz IV 1's medium gun at KV-1 (heavy), the farmhouse hides 47%": {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz IV 1",
        "target": "KV-1",
        "show_reach": False,
    },
    'Shooting, long gun: Tiger at T-34 2, 23.8" (a long gun reaches 24")': {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Tiger",
        "target": "T-34 2",
        "show_reach": False,
    },
    'Shooting, out of range: Pz II\'s short gun (12") at the T-60 wreck, 23.6"': {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz II",
        "target": "T-60",
        "show_reach": False,
    },
    'Movement: Pz IV 1 (medium, 4 + D6) pivots, drives straight, pays 3" in the birch wood': {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz IV 1",
        "target": "KV-1",
        "show_reach": True,
    },
    "Movement: Pz II (light, 5 + D6) stopped by the farmhouse, Pz IV 1 and Hill 112's 3\"": {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz II",
        "target": "KV-1",
        "show_reach": True,
    },
    'Movement: Tiger (heavy, 3 + D6) pays 3" to enter the marsh': {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Tiger",
        "target": "T-34 2",
        "show_reach": True,
    },
    'Movement, platoon: the Soviet tanks all within 3" of T-34 1 move 1D6 + 3 (KV-1 heavy)': {
        "table": "crossroads",
        "ask": "platoon",
        "shooter": "KV-1",
    },
    'Movement, platoon: no German platoon move, the Tiger is 11.7" from the HQ (over 3")': {
        "table": "crossroads",
        "ask": "platoon",
        "shooter": "Pz IV 2",
    },
    'Shaken, rally: KV-1 2.5" from its HQ (within 12") rallies on 5-6, 1/3': {
        "table": "crossroads",
        "ask": "rally",
        "shooter": "KV-1",
    },
    "Shaken, rally: Pz IV 2's veteran crew (+1) rallies on 4-6, 1/2": {
        "table": "crossroads",
        "ask": "rally",
        "shooter": "Pz IV 2",
    },
    "Shaken, rally: the HQ T-34 1 rallies itself on 4-6, 1/2": {
        "table": "crossroads",
        "ask": "rally",
        "shooter": "T-34 1",
    },
    "Shaken, rally: KV-1 cannot rally, its HQ T-34 1 is itself shaken": {
        "table": "T-34 1 shaken",
        "ask": "rally",
        "shooter": "KV-1",
    },
    "Shaken, rally: Pz IV 2 cannot rally, its HQ Pz IV 1 is destroyed": {
        "table": "Pz IV 1 destroyed",
        "ask": "rally",
        "shooter": "Pz IV 2",
    },
    'Shaken, rally: the Tiger 14.4" from its HQ (more than 12") cannot rally': {
        "table": "Tiger at 32, 6",
        "ask": "rally",
        "shooter": "Tiger",
    },
    "Movement, platoon: T-34 2 shaken stays, the other 2 move (a reading: shaken_member)": {
        "table": "T-34 2 shaken",
        "ask": "platoon",
        "shooter": "KV-1",
    },
}

#: The example table as the worked examples need it: a name -> the tanks changed, each with the
#: fields it takes (a shaken or destroyed HQ, a tank moved out of its HQ's 12").
CASE_TABLES: dict[str, dict[str, dict[str, Any]]] = {
    "crossroads": {},
    "T-34 1 shaken": {"T-34 1": {"shaken": True}},
    "T-34 2 shaken": {"T-34 2": {"shaken": True}},
    "Pz IV 1 destroyed": {"Pz IV 1": {"destroyed": True}},
    "Tiger at 32, 6": {"Tiger": {"position": (32.0, 6.0)}},
}


def case_table(name: str) -> Table:
    """The example table as worked example ``name`` of ``CASE_TABLES`` needs it."""
    if name not in CASE_TABLES:
        raise WbkError(f"worked example table {name!r} is not one of {', '.join(CASE_TABLES)}")
    table = pz8.example_table()
    for tank, changes in CASE_TABLES[name].items():
        table = table.with_piece(replace(table.piece(tank), **changes))
    return table


#: How the row's controls name a tank's fields in a "done" message.
_FIELD_WORDS = {
    "tank_class": "class",
    "is_hq": "HQ",
    "destroyed": "wreck",
    "side": "side",
    "gun": "gun",
    "crew": "crew",
    "facing": "facing",
    "platoon": "platoon",
    "shaken": "shaken",
}


def _fields(tank: Tank) -> dict:
    return {f.name: getattr(tank, f.name) for f in fields(tank)}


def _tanks(n: int) -> str:
    return f"{n} tank" if n == 1 else f"{n} tanks"


# --- (3) the duel -----------------------------------------------------------------------------


def duel_calculator() -> ChartPanel:
    """Two tanks trading shots until one is destroyed: the exact chances at the chosen range,
    and the first tank's chance at every range from 1 to 26 inches."""
    shaken_note, turns_note = widgets.HTML(), widgets.HTML()

    def compute(
        first_class,
        first_gun,
        first_crew,
        second_class,
        second_gun,
        second_crew,
        range_inches,
        first_in_cover,
        second_in_cover,
        shaken_rule,
        turns,
    ):
        a = Tank(
            f"the {first_class} tank (shooting first)",
            tank_class=first_class,
            gun=first_gun,
            crew=first_crew,
        )
        b = Tank(
            f"the {second_class} tank (shooting second)",
            tank_class=second_class,
            gun=second_gun,
            crew=second_crew,
        )
        options = dict(
            first_in_cover=first_in_cover,
            second_in_cover=second_in_cover,
            shaken_rule=shaken_rule,
            turns=turns,
        )
        here = pz8.duel(a, b, range_inches, **options)
        curve = duel_curve(here)

        def answer(d: pz8.Duel) -> tuple:
            return (d.first_wins, d.second_wins, d.stalemate, d.mean_shots)

        for note, change in (
            (shaken_note, {"shaken_rule": not shaken_rule}),
            (turns_note, {"turns": "alternate" if turns == "card" else "card"}),
        ):
            other = pz8.duel(a, b, range_inches, **{**options, **change})
            _no_difference(note, answer(other) == answer(here))
        return a, b, range_inches, here, curve

    made: list[CasesChartPanel] = []  # the panel, once built: its compare control marks each chart

    def draw(figure: Figure, result) -> str:
        html_text = draw_chart(figure, result)
        if made:
            panel = made[0]
            panel.shown_duel, panel.drawn = result, (id(result), None)
            panel.show_steps(result[3].steps)  # at the verdict: the whole answer, drawn above
            panel.compare_readings.refresh()
        return html_text

    def draw_at_step(k: int) -> None:
        """The duel on show at its step ``k`` (the last: the whole answer)."""
        panel = made[0]
        result = panel.shown_duel
        step = None if panel.step_control.at_answer else k
        if result is None or panel.drawn == (id(result), step):
            return
        panel.figure.clear()
        draw_chart(panel.figure, result, step)
        panel.drawn = (id(result), step)
        panel.compare_readings.refresh()
        panel.canvas.draw_idle()

    def draw_chart(figure: Figure, result, step: int | None = None) -> str:
        a, b, r, duel, curve = result
        draw_duel(figure, duel, step=step, curve=curve, words=_tank_words)
        first, second = _tank_words(a), _tank_words(b)
        reaches = [r <= pz8.GUN_RANGES[t.gun] for t in (a, b)]
        mean = (
            f"; the duel lasts {float(duel.mean_shots):.2f} attacks on average"
            if duel.mean_shots is not None
            else ""
        )
        if not any(reaches):
            said = f"out of range: neither gun reaches {say_inches(r)}, so neither tank can win"
        else:
            said = (
                f"at {say_inches(r)} the first wins {say_chance(duel.first_wins)}, "
                f"the second {say_chance(duel.second_wins)}"
                + (f", neither can ever win {say_chance(duel.stalemate)}" if duel.stalemate else "")
            )
        text = f"<p>first: {html.escape(first)}; second: {html.escape(second)}; {said}{mean}.</p>"
        return text + steps_html(duel.steps)

    panel = CasesChartPanel(
        compute,
        draw,
        size=(9.0, 3.8),
        first_class=choices(list(pz8.MOVE_VALUES), "first tank", "medium", words=CLASS_LABELS.get),
        first_gun=choices(list(pz8.GUN_RANGES), "its gun", "medium"),
        first_crew=choices(["regular", "veteran"], "its crew"),
        second_class=choices(list(pz8.MOVE_VALUES), "second tank", "heavy", words=CLASS_LABELS.get),
        second_gun=choices(list(pz8.GUN_RANGES), "its gun", "long"),
        second_crew=choices(["regular", "veteran"], "its crew"),
        range_inches=widgets.IntSlider(16, 1, 26, description="range (inches)"),
        first_in_cover=widgets.Checkbox(False, description="first in cover"),
        second_in_cover=widgets.Checkbox(False, description="second in cover"),
        shaken_rule=widgets.Checkbox(False, description="Optional Rule: Shaken"),
        turns=widgets.Dropdown(
            options=[
                ("a 1 or 2 passes the turn (the card)", "card"),
                ("one attack each (no turnover)", "alternate"),
            ],
            description="who shoots next",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="32em"),
        ),
    )
    panel.rule = "Pz 8, Shooting and Penetration and Damage (a duel: wbk's, not the card's)"
    _beside(panel, panel.controls["shaken_rule"], shaken_note)
    _beside(panel, panel.controls["turns"], turns_note)
    panel.boxes = dict(panel.controls)  # the presets set the chart's controls by their names

    def mark(other: dict[str, str] | None) -> bool:
        """The bars that move under the other ``turns``: its chances drawn as dashed outlines
        over the bars of "Who wins?"."""
        for artist in getattr(panel, "_compare_marks", []):
            if artist.axes is not None:
                artist.remove()
        panel._compare_marks = []
        shown = getattr(panel, "shown_duel", None)
        if other is None or shown is None or not panel.figure.axes:
            panel.canvas.draw_idle()
            return False
        a, b, r, here, _curve = shown
        values = {name: control.value for name, control in panel.controls.items()}
        there = pz8.duel(
            a,
            b,
            r,
            first_in_cover=values["first_in_cover"],
            second_in_cover=values["second_in_cover"],
            shaken_rule=values["shaken_rule"],
            turns=other["turns"],
        )
        pairs = [(here.first_wins, there.first_wins), (here.second_wins, there.second_wins)]
        if here.stalemate or there.stalemate:
            pairs.append((here.stalemate, there.stalemate))
        left = panel.figure.axes[0]
        for i, (now, then) in enumerate(pairs):
            if now != then:
                (bar,) = left.bar(
                    i, float(then), fill=False, edgecolor="black", linestyle="--", linewidth=1.5
                )
                note = left.text(
                    i + 0.42, float(then), f"other: {percent(then)}", fontsize=7, rotation=90
                )
                panel._compare_marks += [bar, note]
        panel.canvas.draw_idle()
        return bool(panel._compare_marks)

    panel.compare = panel.add_compare_readings(
        {"turns": pz8.READING_WORDS["turns"]},
        mark=mark,
        current=lambda: {"turns": panel.controls["turns"].value},
    )
    panel.pane_lists_steps = True
    panel.step_control = panel.add_step_control(draw_at_step)
    panel.add_presets(DUEL_CASES)
    made.append(panel)
    panel.update()  # the chart again, now that its compare control is there
    return panel


def _duel_case(second_class: str, **settings: object) -> dict[str, object]:
    case: dict[str, object] = {
        "first_class": "medium",
        "first_gun": "medium",
        "first_crew": "regular",
        "second_class": second_class,
        "second_gun": "medium",
        "second_crew": "regular",
        "range_inches": 12,
        "first_in_cover": False,
        "second_in_cover": False,
    }
    return {**case, **settings}


#: The card's gun-against-armour cases as duels at 12": the duel calculator's presets.
DUEL_CASES: dict[str, dict[str, object]] = {
    'Duel at 12": a medium gun against a light tank (it saves on 6+)': _duel_case("light"),
    'Duel at 12": a medium gun against a medium tank (it saves on 5+)': _duel_case("medium"),
    'Duel at 12": a medium gun against a heavy tank (it saves on 4+)': _duel_case("heavy"),
    "Duel at 12\": a short gun's three dice against a medium tank's two": _duel_case(
        "medium", first_class="light", first_gun="short"
    ),
    'Duel at 12": cover and a veteran crew (the first tank)': _duel_case(
        "medium", first_crew="veteran", second_in_cover=True
    ),
}


#: The grey bar and line of the duel: a state from which neither tank can destroy the other.
NEITHER = "neither can ever win\n(out of range, or no hit possible)"


def _tank_words(t: Tank) -> str:
    crew = ", veteran" if t.is_veteran else ""
    return f"the {CLASS_LABELS[t.tank_class]} ({t.gun} gun{crew})"


# --- the duel drawn, whole or at a step ---------------------------------------------------------

#: The two duellists' colours (Okabe-Ito blue and vermillion), the grey of "neither".
DUEL_COLOURS = {"first": "#0072B2", "second": "#D55E00", "neither": "#999999"}
#: Ranges the duel's curve covers (inches): every gun's reach and a little beyond.
DUEL_RANGES = range(1, 27)
#: How a step fades what it is not about.
FADED = 0.18


def duel_curve(d: pz8.Duel) -> dict[int, pz8.Duel]:
    """The duel of ``d``'s tanks and keywords at every range of ``DUEL_RANGES`` (only which guns
    reach changes the answer, so one duel is worked out for each such set)."""
    if len(d.tanks) != 2:
        raise WbkError("this Duel has no set-up to draw: make it with wbk.games.pz8.duel")
    first, second = d.tanks
    found: dict[tuple[bool, bool], pz8.Duel] = {}
    curve = {}
    for r in DUEL_RANGES:
        key = (r <= pz8.GUN_RANGES[first.gun], r <= pz8.GUN_RANGES[second.gun])
        if key not in found:
            found[key] = pz8.duel(first, second, r, **dict(d.options))  # type: ignore[arg-type]
        curve[r] = found[key]
    return curve


def _named_tank(t: Tank) -> str:
    return f"{t.name} ({t.tank_class}, {t.gun} gun{', veteran' if t.is_veteran else ''})"


def draw_duel(
    figure: Figure,
    d: pz8.Duel,
    *,
    step: int | None = None,
    curve: dict[int, pz8.Duel] | None = None,
    words=_named_tank,
) -> None:
    """A duel (``pz8.duel``'s answer) on ``figure``: one attack of each tank (the chance it
    destroys, and hits without destroying; the chance it passes the turn), who wins at the
    duel's range, and how that changes with the range. The title is the verdict.

    ``step``: the duel at that step of ``d.steps``: what the step is about (``Step.about``: a
    tank's gun range, its attack, the turnover, the shaken rule, who wins) outlined in sky blue,
    the rest faded, the step in words with its rule as the title; None draws the whole answer.
    ``curve``: ``duel_curve(d)`` when already worked out; ``words(tank)`` names a tank."""
    from wbk.pictures import STEP_COLOUR, step_index

    curve = duel_curve(d) if curve is None else curve
    about: set[object] = set()
    k = None
    if step is not None:
        k = step_index(d.steps, step)
        about = set(d.steps[k].about)
    a, b = d.tanks
    r = d.range_inches
    options = dict(d.options)
    grid = figure.add_gridspec(1, 3, width_ratios=(0.9, 1, 1.6))
    # made in this order so that the chart of who wins stays the figure's first axes
    left, right, attacks = (figure.add_subplot(grid[i]) for i in (1, 2, 0))
    # parts by what they are about: (part, role), role None for both tanks
    parts: list[tuple[str, str | None, Artist]] = []

    # one attack each
    reaches = [r <= pz8.GUN_RANGES[t.gun] for t in (a, b)]
    for i, (role, t, target) in enumerate((("first", a, b), ("second", b, a))):
        colour = DUEL_COLOURS[role]
        if not reaches[i]:
            note = attacks.text(i, 0.05, "out of\nrange", ha="center", fontsize=7)
            parts.append(("attack", role, note))
            continue
        one = pz8.attack_chances(
            t.gun,
            target.tank_class,
            cover=bool(options.get(f"{('second', 'first')[i]}_in_cover", False)),
            veteran=t.is_veteran,
            shaken=bool(options.get("shaken_rule")) and t.shaken,
            natural_six=str(options.get("natural_six", "modified")),
        )
        (kill,) = attacks.bar(i, float(one.destroyed), color=colour)
        (saved,) = attacks.bar(
            i,
            float(one.shaken),
            bottom=float(one.destroyed),
            color=colour,
            alpha=0.35,
            hatch="//",
            edgecolor=colour,
        )
        kill_label = attacks.text(
            i, float(one.hit) + 0.02, percent(one.destroyed), ha="center", fontsize=8
        )
        passes = attacks.text(
            i,
            -0.2,
            f"turn passes\n{percent(one.turn_passes)}",
            ha="center",
            va="top",
            fontsize=7,
        )
        parts += [("attack", role, kill), ("attack", role, kill_label), ("attack", role, saved)]
        parts += [("shaken", role, saved), ("turns", role, passes), ("attack", role, passes)]
    attacks.set_xticks(range(2), ["first\nshoots", "second\nshoots"])
    attacks.set_xlim(-0.6, 1.6)
    attacks.set_ylim(0, 1.1)
    attacks.set_yticks([0, 0.25, 0.5, 0.75, 1])
    attacks.yaxis.set_major_formatter(PercentFormatter(1.0))
    attacks.set_title("One attack each", fontsize=10)
    attacks.legend(
        handles=[
            Patch(color="#777777", label="destroys"),
            Patch(facecolor="#cccccc", edgecolor="#777777", hatch="//", label="hits, saved"),
        ],
        fontsize=7,
        loc="upper left",
        frameon=False,
    )

    # who wins at the duel's range
    kinds = [  # (tick, legend words, chance, role)
        ("first\nwins", "the first wins", d.first_wins, "first"),
        ("second\nwins", "the second wins", d.second_wins, "second"),
    ]
    if d.stalemate:
        kinds.append(("neither\never wins", NEITHER, d.stalemate, "neither"))
    for i, (_tick, said, p, role) in enumerate(kinds):
        (bar,) = left.bar(i, float(p), color=DUEL_COLOURS[role], label=said)
        label_of = left.text(i, float(p) + 0.02, percent(p), ha="center", fontsize=8)
        part = "neither" if role == "neither" else "wins"
        parts += [(part, role if part == "wins" else None, bar), (part, None, label_of)]
    left.set_xticks(range(len(kinds)), [kind[0] for kind in kinds])
    left.set_ylim(0, 1.1)
    left.set_yticks([0, 0.25, 0.5, 0.75, 1])
    left.yaxis.set_major_formatter(PercentFormatter(1.0))
    left.set_title(f"Who wins at {say_inches(r)}?", fontsize=10)

    # how the odds change with range
    ranges = list(curve)
    for role, attribute, style in (
        ("first", "first_wins", "-"),
        ("second", "second_wins", "--"),
        ("neither", "stalemate", ":"),
    ):
        values = [float(getattr(one, attribute)) for one in curve.values()]
        if role == "neither" and not any(values):
            continue
        (line,) = right.plot(
            ranges,
            values,
            color=DUEL_COLOURS[role],
            linestyle=style,
            drawstyle="steps-mid",
            label=NEITHER if role == "neither" else f"the {role} wins",
        )
        parts.append(("neither", None, line) if role == "neither" else ("wins", role, line))
    # headroom above 100% for the legend: it covers no line at any range
    bottom, top = -0.02, 1.42
    chosen = right.axvline(
        r,
        ymax=(1.02 - bottom) / (top - bottom),  # up to 100%, short of the legend
        color="black",
        linewidth=0.8,
        linestyle="-.",
        label=f"chosen range {say_inches(r)}",
    )
    parts.append(("range", None, chosen))
    right.set_ylim(bottom, top)
    right.set_yticks([0, 0.25, 0.5, 0.75, 1])
    right.yaxis.set_major_formatter(PercentFormatter(1.0))
    right.set_xlabel("range (inches)")
    right.set_title("How the odds change with range", fontsize=10)
    right.grid(alpha=0.3)
    right.legend(fontsize=7, loc="upper left", ncols=2)

    if k is None:
        name_a, name_b = words(a), words(b)
        if any(reaches):
            verdict = f"the first wins {say_chance(d.first_wins)}"
            fit_suptitle(figure, f"{name_a} shooting first against {name_b}: {verdict}")
        else:
            fit_suptitle(
                figure,
                f"Out of range: neither gun reaches {say_inches(r)} ({name_a} against {name_b})",
            )
        return
    # the step: what it is about outlined, the rest faded
    roles = {role for role in ("first", "second") if role in about}
    shown = {
        id(artist)
        for part, role, artist in parts
        if part in about and (role is None or not roles or role in roles)
    }
    for artist in {id(artist): artist for _, _, artist in parts}.values():
        if id(artist) not in shown:
            artist.set_alpha(FADED)
        elif isinstance(artist, Text):
            artist.set_fontweight("bold")
        elif isinstance(artist, Rectangle):  # a bar
            artist.set_edgecolor(STEP_COLOUR)
            artist.set_linewidth(3)
        elif isinstance(artist, Line2D):
            artist.set_linewidth(3)
    if "range" in about:
        for role_of in sorted(roles or {"first", "second"}):
            gun = d.tanks[role_of == "second"].gun
            right.axvspan(
                0.5,
                min(pz8.GUN_RANGES[gun], max(ranges)) + 0.5,
                ymax=(1.02 - bottom) / (top - bottom),
                color=STEP_COLOUR,
                alpha=0.2,
                zorder=0,
            )
    chart_of = {"attack": attacks, "shaken": attacks, "turns": attacks, "wins": left}
    for part, ax in chart_of.items():
        if part in about:
            for spine in ax.spines.values():
                spine.set(color=STEP_COLOUR, linewidth=3)
    at = d.steps[k]
    fit_suptitle(figure, f"Step {k + 1} of {len(d.steps)}: {at.text} ({at.rule})")


def duel_picture(d: object, step: int | None = None) -> Figure:
    """The figure of a duel (``wbk.pictures.picture(duel, step=k)`` gives it): ``draw_duel`` on
    a new figure, whole or at ``step``."""
    if not isinstance(d, pz8.Duel):
        raise WbkError(f"{d!r} is not a duel (wbk.games.pz8.duel's answer)")
    figure = Figure(figsize=(9.0, 3.8), layout="constrained")
    draw_duel(figure, d, step=step)
    return figure
