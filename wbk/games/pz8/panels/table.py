"""The Pz 8 table panel: the table drawn to scale, and what is asked of it (a shot, a reach, a
platoon move, a rally) answered on it as ``wbk.draw.picture`` draws each answer, step by step
and compared under another reading; a click picks the shooter and the target, or edits the
table (a row describes the tank to place or edit, another the terrain); the table is a file
to load and save, and the situation an edge case. The card's cases are its presets
(``TABLE_CASES``).

It is two classes: ``TableEditing`` edits the table (the rows and the clicks), ``TablePanel``
asks it its questions and shows the answers."""

from __future__ import annotations

import html
import math
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from shapely.affinity import rotate
from shapely.geometry import Point
from shapely.geometry import box as rectangle

from wbk.datafile import parse_toml
from wbk.draw import on_board
from wbk.draw.tables import (
    TableView,
    say_chance,
    say_inches,
    table_axes,
    table_figure_size,
)
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.table import TERRAIN_KINDS, Table, Terrain
from wbk.widgets import LIVE_ONLY, Panel, interactive_figure, reports_errors
from wbk.widgets.edge_cases import (
    checked_text,
    checked_toml,
    has_edge_cases,
    public_name,
    set_settings,
    toml_block,
    toml_value,
)
from wbk.widgets.files import FileRow

from ..draw import TableComparison, shot_title
from ..movement import MovementReach, movement_reach
from ..platoons import PlatoonMove, platoon_movement, platoon_warnings
from ..readings import COVER, OBSTACLE_SIGHT, READINGS
from ..shaken import Rally, rally
from ..shooting import AttackChances, Shot, shot
from ..tanks import Tank, example_table, gun_for_calibre
from .controls import (
    CLASS_LABELS,
    TankRow,
    choices,
    ems,
    label,
    reading_choices,
    show_no_difference,
)

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
#: How far a terrain piece is turned (counterclockwise, as the table is drawn).
TERRAIN_TURNS = [("square", 0)] + [(f"{a}° left", a) for a in range(15, 180, 15)]
#: How the row's controls name a tank's fields in a "done" message.
FIELD_WORDS = {"tank_class": "class", "is_hq": "HQ", "destroyed": "wreck"}
#: The readings of a shot and of a reach; the table panel compares them, those of a platoon
#: move (``shaken_hq``, ``shaken_member``) and of the calibre typed (``calibre_gaps``).
SHOT_READINGS = ("cover_reading", "obstacle_sight", "natural_six")
REACH_READINGS = ("rough_terrain", "pivot")
COMPARED = (*SHOT_READINGS, "shaken_hq", "shaken_member", *REACH_READINGS, "calibre_gaps")

_WIDE = {"description_width": "initial"}


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


def tanks_words(n: int) -> str:
    """A number of tanks in words: "1 tank", "5 tanks"."""
    return f"{n} tank" if n == 1 else f"{n} tanks"


class TableEditing(Panel):
    """The table drawn to scale and edited: a click picks the shooter or the target
    (``boxes``), places, moves or turns a tank, places terrain or removes a piece, as the click
    buttons choose; the row of a tank describes the one a click places, or edits the one
    selected in place; the table is loaded from a file and saved to one. The panel built on it
    (``TablePanel``) asks the table its questions (``set_table`` shows the answer on a table
    edited)."""

    table: Table
    width: float
    boxes: dict[str, widgets.Text]

    def set_table(self, table: Table, done: str = "") -> None:
        """Show ``table``, an edit of the one on show; ``done`` says what changed."""
        raise NotImplementedError

    def _make_board(self, path: str | None) -> None:
        """The table drawn to scale on its canvas, which takes the clicks, and its file."""
        self.file = FileRow(
            "table",
            Path.home() / "pz8_table.toml" if path is None else Path(path),
            load=self.load,
            save=self.save,
        )
        self.figure, self.canvas = interactive_figure(
            table_figure_size(self.table, self.width), layout=None
        )
        self.view = TableView(self.table, table_axes(self.figure))
        self.canvas.mpl_connect("button_press_event", self.on_click)

    def _make_editing(self) -> None:
        """What a click does, the row that describes a tank (the one a click places, or the one
        selected on the table, which the row edits) and the terrain piece a click places, each
        control's change handled."""
        self.click = widgets.ToggleButtons(
            options=[(words, value) for words, value, _ in CLICKS],
            tooltips=[tip for *_, tip in CLICKS],
            style={"button_width": "auto"},
        )
        self.hint = widgets.HTML()
        self.tank_row = TankRow(p.side for p in self.table.pieces)
        self._make_terrain_row()
        row = self.tank_row
        for control in (self.click, self.terrain_kind, self.terrain_angle):
            control.observe(lambda _: self.show_hint(), names="value")
        row.name.observe(lambda _: self.select(), names="value")
        row.calibre.observe(lambda _: self.pick_calibre(), names="value")
        self.terrain_size.observe(lambda _: self.check_size(), names="value")
        for control in row.fields:
            control.observe(lambda _: self.edit_selected(), names="value")
        terrain = (self.terrain_kind, self.terrain_size, self.terrain_angle)
        for control in (self.click, *row.controls, *terrain):
            control.add_class(LIVE_ONLY)

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
            [v for _, v in TERRAIN_TURNS],
            "",
            0,
            words={v: w for w, v in TERRAIN_TURNS}.get,
            tooltip="how far the piece is turned to the left (counterclockwise)",
            layout=ems(7),
        )

    def editing_rows(self) -> list[widgets.Widget]:
        """The rows of editing, each narrow enough for JupyterLab's page beside its file
        browser: what a click does; the tank it places; its platoon, marks and the terrain."""
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        tank = self.tank_row
        described = [tank.name, tank.side, tank.tank_class, tank.gun, tank.calibre, tank.crew]
        terrain = [self.terrain_kind, self.terrain_size, self.terrain_angle]
        return [
            widgets.HBox([widgets.HTML("a click:"), self.click, self.hint], layout=row),
            widgets.HBox([*described, tank.facing], layout=row),
            widgets.HBox([tank.platoon, *tank.flags.values(), *terrain], layout=row),
        ]

    def selected(self) -> Tank | None:
        """The tank on the table the row describes (by its name, any case), or None."""
        return self.tank_row.selected(self.table)

    def show_hint(self) -> None:
        """Say what the next click on the table does, and what the row below edits."""
        name = self.tank_row.name.value.strip()
        tank = self.selected()
        if tank is not None:
            place = (
                f"A click on another tank selects it; elsewhere it moves {tank.name!r} there. "
                f"The row below edits {tank.name!r} in place."
            )
        elif name:
            place = (
                f"A click places {name!r} ({CLASS_LABELS[self.tank_row.tank_class.value]}, "
                f"{self.tank_row.gun.value} gun) there; a click on a tank selects it."
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
        if not self.tank_row.name.value.strip():
            raise WbkError("the tank needs a name: type one, or click a tank to select it")
        tank = self.selected()
        if tank is not None and not self.tank_row.showing:
            self.describe(tank)

    def describe(self, tank: Tank) -> None:
        """Put ``tank``'s values into the row below, without editing anything."""
        self.tank_row.show(tank)
        self.show_hint()

    def described(self, name: str, point) -> Tank:
        """The tank the row describes, called ``name``, centred on ``point``, of the size of
        the tanks on the table."""
        return self.tank_row.tank(name, point, self.table.pieces[0] if self.table.pieces else None)

    @reports_errors(stale=False)
    def edit_selected(self) -> None:
        """A control of the row changed: edit the selected tank in place (a tank that cannot
        stand so, say turned into another, stays as it was and the row shows it again)."""
        self.show_hint()
        tank = self.selected()
        if self.tank_row.showing or tank is None:
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
        self.set_table(table, f"{tank.name!r}: {', '.join(FIELD_WORDS.get(c, c) for c in changed)}")

    @reports_errors(input="calibre")
    def pick_calibre(self) -> None:
        """A calibre typed: choose the gun class it has (Pz 8, Shooting)."""
        typed = self.tank_row.calibre.value.strip()
        if typed:
            self.tank_row.gun.value = gun_for_calibre(typed)
            self.compare_readings.refresh()  # the other reading of the card's gaps

    @reports_errors(input="terrain size")
    def check_size(self) -> None:
        """A terrain size that is not two numbers is a bad input at once."""
        self.show_hint()
        parse_size(self.terrain_size.value)

    @reports_errors(stale=False)
    def on_click(self, event) -> None:
        """A click on the table: what it does is the click buttons' choice (``CLICKS``)."""
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
            self.describe_piece(name)
            self.boxes[action].value = name
        elif action == "place":
            if name is not None:
                self.describe_piece(name)
                self.show_done(f"selected {name!r}: the row below edits it")
            else:
                self.place_tank(point)
        elif action == "turn":
            self.turn_towards(point)
        elif action == "terrain":
            self.place_terrain(point)
        else:
            self.remove_at(point)

    def describe_piece(self, name: str) -> None:
        """Select the tank called ``name`` (a click on it): the row below shows what it is."""
        piece = self.table.piece(name)
        if isinstance(piece, Tank):
            self.describe(piece)

    def place_tank(self, point) -> None:
        """Move the selected tank to ``point`` (keeping what it is), or put a new tank as the
        row describes it there."""
        typed = self.tank_row.name.value.strip()
        if not typed:
            self.set_bad(
                "tank name", "the tank needs a name: type one, or click a tank to select it"
            )
            return
        where = f"{say_inches(point[0])}, {say_inches(point[1])}"
        tank = self.selected()
        if tank is not None:
            moved = replace(tank, position=point)
            self.set_table(self.table.with_piece(moved), f"moved {tank.name!r} to {where}")
        else:
            placed = self.table.with_piece(self.described(typed, point))
            self.set_table(placed, f"placed {typed!r} at {where}")
            self.show_hint()

    def turn_towards(self, point) -> None:
        """Turn the selected tank to face ``point``."""
        tank = self.selected()
        if tank is None:
            raise WbkError(
                f"no tank called {self.tank_row.name.value.strip()!r} on the table to turn: "
                "click a tank in place tank mode to select it"
            )
        x, y = tank.position
        facing = round(math.degrees(math.atan2(point[1] - y, point[0] - x)) % 360) % 360
        turned = replace(tank, facing=facing)
        self.set_table(self.table.with_piece(turned), f"turned {tank.name!r} to face {facing}°")
        self.describe(turned)

    def place_terrain(self, point) -> None:
        """Place the terrain piece the row describes, centred on ``point`` and cut to the
        table."""
        size = self.read_input("terrain size", lambda: parse_size(self.terrain_size.value))
        if size is None:
            self.settle()
            return
        width, depth = size
        x, y = point
        shape = rectangle(x - width / 2, y - depth / 2, x + width / 2, y + depth / 2)
        shape = rotate(shape, self.terrain_angle.value, origin=(x, y))
        shape = shape.intersection(rectangle(0, 0, self.table.width, self.table.depth))
        low = self.terrain_kind.value == "low obstacle"
        kind = "obstacle" if low else self.terrain_kind.value
        alike = [t for t in self.table.terrain if t.kind == kind]
        if kind == "obstacle":  # low walls and other obstacles are numbered apart
            alike = [t for t in alike if t.blocks_sight != low]
        piece = Terrain(
            kind,
            tuple(shape.exterior.coords[:-1]),
            name=f"{'low wall' if low else kind} {len(alike) + 1}",
            blocks_sight=not low if kind == "obstacle" else None,
        )
        self.set_table(self.with_terrain((*self.table.terrain, piece)), f"placed {piece.label}")

    def remove_at(self, point) -> None:
        """Remove the tank at ``point``, else the terrain piece on top there."""
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
        self.set_table(self.with_terrain(kept), f"removed {under[-1].label}")

    def resize_to(self, table: Table) -> None:
        """Draw the picture anew in the proportions of ``table`` when its size differs."""
        if (table.width, table.depth) != (self.table.width, self.table.depth):
            self.figure.clear()  # a table of another size: its own proportions
            self.figure.set_size_inches(*table_figure_size(table, self.width))
            self.view = TableView(table, table_axes(self.figure))
            self.comparison = TableComparison(self.view)

    @reports_errors(beside="file.note", working="loading…")
    def load(self) -> str:
        """The table in the file chosen (typed in JupyterLab, uploaded in the app); the words
        beside the buttons say what was loaded, or why not."""
        text, source, _ = self.file.read()
        table = Table.from_toml(text, source=source, pieces=Tank)
        self.resize_to(table)
        self.set_table(table)
        self.show_hint()
        return f"loaded {table.name!r} from {source}"

    @reports_errors(beside="file.note")
    def save(self) -> str:
        """The table to the file chosen (a download in the app)."""
        where = self.file.write(self.table.to_toml(), "pz8_table.toml")
        return f"saved {self.table.name!r} ({tanks_words(len(self.table.pieces))}) {where}"

    def with_terrain(self, terrain: tuple[Terrain, ...]) -> Table:
        """The table with ``terrain`` instead of its own."""
        t = self.table
        return Table(t.width, t.depth, terrain, t.pieces, t.name)


@has_edge_cases
class TablePanel(TableEditing):
    """The table drawn to scale: click to pick a shooter and a target (clicks alternate), to
    select a tank (the row below then edits it in place), place, move or turn it, to place
    terrain or remove a piece; see the range, the line of sight, the cover and the exact outcome
    in the title and below, and the shooter's reach for its movement roll; or ask for the
    platoon move or the rally of a tank. Load and save the table as a file.

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
        self.table = table if table is not None else example_table()
        self._make_asking(shooter, target)
        self._make_editing()
        self._make_board(path)
        self.pane = widgets.HTML()
        asking = (self.show_reach, self.cover_reading, self.sight_reading, self.ask)
        for control in (*self.boxes.values(), *asking):
            control.observe(lambda _: self.update(), names="value")
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        # rows above the picture, each narrow enough for JupyterLab's page beside its file
        # browser (a 1000-pixel screen holds them and the table): what is asked; the editing
        # rows; the readings. What the next click does means nothing on a static page: its
        # snapshot lists the shot.
        asked = [self.ask, *self.boxes.values(), self.show_reach, self.cover_reading]
        self.widget = widgets.VBox(
            [
                widgets.HBox([*asked, self.cover_note], layout=row),
                *self.editing_rows(),
                widgets.HBox([self.sight_reading, self.sight_note], layout=row),
                self.message,
                self.canvas,
                self.picture_row,
                widgets.HBox(self.file.parts, layout=row),
                self.pane,
            ]
        )
        self.show_hint()
        # teaching (issue 19): step through the answer, compare readings, the card's cases
        self.pane_lists_steps = True
        self._verdict = ""  # the title of the answer on show, whole
        self._shot: Shot | None = None
        self._platoon: PlatoonMove | None = None
        self._rally: Rally | None = None
        self.step_control = self.add_step_control(self.draw_step)
        self.compare = self.add_compare_readings(
            [READINGS[k] for k in COMPARED], mark=self.mark_changes, current=self.readings
        )
        # the snapshot leaves out a live-only box's controls only when they are marked too
        self.compare.choice.add_class(LIVE_ONLY)
        # beside the low-wall reading rather than a row of its own (the screen budget)
        children = [c for c in self.widget.children if c is not self.compare.widget]
        readings = next(c for c in children if self.sight_reading in getattr(c, "children", ()))
        readings.children = (*readings.children, self.compare.widget)
        self.widget.children = tuple(children)
        self.comparison = TableComparison(self.view)
        self.add_presets(TABLE_CASES)
        self.update()

    def _make_asking(self, shooter: str, target: str) -> None:
        """What is asked (a shot, a platoon move, a rally) of which tanks, under which
        readings."""
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

    # --- the answer ---------------------------------------------------------------------------

    @reports_errors
    def update(self) -> None:
        """Read the shooter and the target (each bad one named), then draw the answer."""
        asked = self.ask.value
        # a platoon move or a rally is asked of the tank in the first box: no target
        self.boxes["shooter"].description = "shooter" if asked == "shot" else "tank"
        self.boxes["target"].disabled = asked != "shot"
        self.show_reach.disabled = asked != "shot"
        roles = self.boxes if asked == "shot" else {"shooter": self.boxes["shooter"]}
        if asked != "shot":
            self.clear_bad("target")

        def reader(box: widgets.Text):
            return lambda: find_tank(self.table, box.value)

        names = {role: self.read_input(role, reader(box)) for role, box in roles.items()}
        if any(role in self.bad_inputs for role in roles):
            return
        if asked == "shot" and names["shooter"] == names["target"]:
            self.bad_inputs["target"] = (
                f"{names['target']!r} is both the shooter and the target: pick another target"
            )
            return
        self.view.clear()
        if asked == "shot":
            steps, parts = self.show(str(names["shooter"]), str(names["target"]))
        else:
            steps, parts = self.show_asked(asked, str(names["shooter"]))
        self._verdict = self.view.title()
        # the shot's reason, not the reach's steps that follow it
        self.show_steps(steps, answer=self._shot or self._platoon or self._rally)
        title = f"<p><b>{html.escape(self._verdict, quote=False)}</b></p>"
        self.pane.value = title + "".join(parts)
        self.compare.refresh()
        self.view.redraw()

    def show(self, shooter: str, target: str) -> tuple[tuple[Step, ...], list[str]]:
        """Draw the shot from ``shooter`` at ``target`` (and the shooter's reach) as
        ``picture`` draws each; their steps (the reach's follow the shot's) and the pane's
        parts below the title."""
        readings = {
            "cover_reading": self.cover_reading.value,
            "obstacle_sight": self.sight_reading.value,
        }
        result = shot(self.table, shooter, target, **readings)
        for key, control, note in (
            ("cover_reading", self.cover_reading, self.cover_note),
            ("obstacle_sight", self.sight_reading, self.sight_note),
        ):
            other = next(v for _, v in control.options if v != control.value)
            alternative = shot(self.table, shooter, target, **{**readings, key: other})
            show_no_difference(note, shot_title(alternative) == shot_title(result))
        reach = self.reach(shooter) if self.show_reach.value else None
        if reach is not None:
            on_board(reach, self.view)
        steps = (*on_board(result, self.view), *(reach.steps if reach is not None else ()))
        self._shot, self._platoon, self._rally = result, None, None
        parts = [steps_html(result.steps)]
        if result.outcome is not None:
            one = AttackChances.of(result.outcome)
            parts.append(
                f"<p>a hit {say_chance(one.hit)}; destroyed {say_chance(one.destroyed)}; "
                f"hit but not destroyed (shaken) {say_chance(one.shaken)}; "
                f"the turn passes {say_chance(one.turn_passes)}</p>"
            )
            parts.append(result.outcome._repr_html_())
        if reach is not None:
            parts.append(
                f"<p><b>{html.escape(shooter)}: where it can move</b></p>{steps_html(reach.steps)}"
            )
        warnings = platoon_warnings(self.table)
        if warnings:
            listed = "; ".join(html.escape(w, quote=False) for w in warnings)
            parts.append(
                f"<p><i>Platoons unlike the card's (a warning, not an error): {listed}.</i></p>"
            )
        return steps, parts

    def show_asked(self, asked: str, tank: str) -> tuple[tuple[Step, ...], list[str]]:
        """Draw the platoon move of ``tank``'s platoon (``asked="platoon"``) or ``tank``'s rally
        (``"rally"``) as ``picture`` draws it: the HQ, the distances that decide and the verdict
        in the title; its steps and the pane's parts below the title."""
        t = self.table.piece(tank)
        result: PlatoonMove | Rally
        if asked == "platoon":
            result = platoon_movement(self.table, t.side, platoon=getattr(t, "platoon", ""))
        else:
            result = rally(self.table, tank)
        self._shot = None
        self._platoon = result if isinstance(result, PlatoonMove) else None
        self._rally = result if isinstance(result, Rally) else None
        return tuple(on_board(result, self.view)), [steps_html(result.steps)]

    def reach(self, shooter: str) -> MovementReach:
        """The shooter's reach, kept while the table and the shooter stay: picking targets is
        cheap."""
        key = (self.table, shooter)
        if getattr(self, "_reach_key", None) != key:
            self._reach, self._reach_key = movement_reach(self.table, shooter), key
        return self._reach

    def mark_stale(self) -> None:
        """Out of date: the table drawn empty of answers, the title saying what is wrong."""
        super().mark_stale()
        self.view.clear()
        self.view.set_title(self.stale_title())
        self.view.redraw()

    def set_table(self, table: Table, done: str = "") -> None:
        """Show ``table`` and the answer on it; ``done`` says what changed."""
        self.table = table
        self.view.show_contents(table)
        self.update()
        if done:
            self.show_done(f"{done}.")

    # --- step by step, and "compare with" -------------------------------------------------------

    def readings(self) -> dict[str, str]:
        """The readings the answer on show is read under (those with no control of their own
        at their defaults: they are compared, not chosen)."""
        chosen = {
            "cover_reading": self.cover_reading.value,
            "obstacle_sight": self.sight_reading.value,
        }
        return {keyword: chosen.get(keyword, READINGS[keyword].default) for keyword in COMPARED}

    def draw_step(self, k: int) -> None:
        """The answer at its step ``k``: what the step is about outlined, the rest dimmed; the
        last step is the whole answer."""
        if self.step_control.at_answer:
            self.view.clear_step()
            self.view.set_title(self._verdict)
        else:
            self.view.show_step(self.step_control.steps, k)
        self.view.redraw()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Under ``other`` readings, what changes on the table (``TableComparison``): a shot's
        line of sight, cover or chance to destroy; the tanks a platoon move takes or leaves;
        the places the shooter's reach gains or loses, while it is on show; the class of the
        calibre typed."""
        self.comparison.clear()
        keyword, value = next(iter(other.items())) if other else ("", "")
        words = READINGS[keyword].values[value] if other else ""
        here: Shot | PlatoonMove | MovementReach | None = None
        there: object = None
        if keyword in ("shaken_hq", "shaken_member") and self._platoon is not None:
            here, one = self._platoon, self.table.piece(self._platoon.platoon_tanks[0])
            there = platoon_movement(
                self.table, one.side, platoon=getattr(one, "platoon", ""), **{keyword: value}
            )
        elif keyword in REACH_READINGS and self.show_reach.value and self._shot is not None:
            here = self.reach(self._shot.firer)
            readings = {k: READINGS[k].default for k in REACH_READINGS} | {keyword: value}
            there = movement_reach(
                self.table,
                self._shot.firer,
                rough_terrain=readings["rough_terrain"],
                pivot=readings["pivot"],
            )
        elif keyword in SHOT_READINGS and self._shot is not None:
            here = self._shot
            readings = {k: v for k, v in self.readings().items() if k in SHOT_READINGS}
            there = shot(self.table, here.firer, here.target, **{**readings, keyword: value})
        elif keyword == "calibre_gaps" and self.tank_row.calibre.value.strip():
            typed = self.tank_row.calibre.value.strip()
            kinds = gun_for_calibre(typed), gun_for_calibre(typed, calibre_gaps=value)
            if kinds[0] != kinds[1]:
                self.comparison.say(words, f"a {typed} gun is {kinds[1]}, not {kinds[0]}")
                return True
        changed = here is not None and self.comparison.show(here, there, words)
        self.view.redraw()
        return changed

    # --- the table as a file, the situation as an edge case and as a worked example -----------

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

    def situation_words(self) -> list[str]:
        """A file's default name says the shooter and the target: "table-pz_iv_1-kv_1"."""
        return [box.value.strip() for box in getattr(self, "boxes", {}).values()]

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
            f"panel = {toml_value(public_name(type(self)))}",
            "",
            "[settings]",
            *(f"{key} = {toml_value(value)}" for key, value in settings.items()),
        ]
        text = "\n".join(lines) + f"\n\n[table]\ntoml = {toml_block(self.table.to_toml())}\n"
        return text + self.compare_toml()

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
        panel.set_compare(data.get("compare"), source)
        return panel


def _case(ask: str, tank: str, target: str = "", *, reach: bool = False, table: str = ""):
    """A worked example: what is asked of which tank (and target), on which example table."""
    case: dict[str, object] = {"table": table or "crossroads", "ask": ask, "shooter": tank}
    return case | ({"target": target, "show_reach": reach} if ask == "shot" else {})


#: The card's cases on the example table (``example_table``): the table panel's presets, each
#: with the example table as it needs it (``CASE_TABLES``).
TABLE_CASES: dict[str, dict[str, object]] = {
    "Shooting, cover: Pz IV 1's medium gun at KV-1 (heavy), the farmhouse hides 47%": _case(
        "shot", "Pz IV 1", "KV-1"
    ),
    'Shooting, long gun: Tiger at T-34 2, 23.8" (a long gun reaches 24")': _case(
        "shot", "Tiger", "T-34 2"
    ),
    'Shooting, out of range: Pz II\'s short gun (12") at the T-60 wreck, 23.6"': _case(
        "shot", "Pz II", "T-60"
    ),
    'Movement: Pz IV 1 (medium, 4 + D6) pivots, drives straight, pays 3" in the birch wood': (
        _case("shot", "Pz IV 1", "KV-1", reach=True)
    ),
    "Movement: Pz II (light, 5 + D6) stopped by the farmhouse, Pz IV 1 and Hill 112's 3\"": (
        _case("shot", "Pz II", "KV-1", reach=True)
    ),
    "Movement: Tiger (heavy, 3 + D6) at 45° only touches the marsh's corner: it pays nothing": (
        _case("shot", "Tiger", "T-34 2", reach=True)
    ),
    'Movement, platoon: the Soviet tanks all within 3" of T-34 1 move 1D6 + 3 (KV-1 heavy)': (
        _case("platoon", "KV-1")
    ),
    'Movement, platoon: no German platoon move, the Tiger is 11.7" from the HQ (over 3")': (
        _case("platoon", "Pz IV 2")
    ),
    'Shaken, rally: KV-1 2.5" from its HQ (within 12") rallies on 5-6, 1/3': _case("rally", "KV-1"),
    "Shaken, rally: Pz IV 2's veteran crew (+1) rallies on 4-6, 1/2": _case("rally", "Pz IV 2"),
    "Shaken, rally: the HQ T-34 1 rallies itself on 4-6, 1/2": _case("rally", "T-34 1"),
    "Shaken, rally: KV-1 cannot rally, its HQ T-34 1 is itself shaken": _case(
        "rally", "KV-1", table="T-34 1 shaken"
    ),
    "Shaken, rally: Pz IV 2 cannot rally, its HQ Pz IV 1 is destroyed": _case(
        "rally", "Pz IV 2", table="Pz IV 1 destroyed"
    ),
    'Shaken, rally: the Tiger 14.4" from its HQ (more than 12") cannot rally': _case(
        "rally", "Tiger", table="Tiger at 32, 6"
    ),
    "Movement, platoon: T-34 2 shaken stays, the other 2 move (a reading: shaken_member)": _case(
        "platoon", "KV-1", table="T-34 2 shaken"
    ),
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
    table = example_table()
    for tank, changes in CASE_TABLES[name].items():
        table = table.with_piece(replace(table.piece(tank), **changes))
    return table
