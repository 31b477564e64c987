"""The table panel's editing: the row below the picture describes a tank (one selected on
the table is edited in place), and a click picks the shooter or the target, places, moves or
turns a tank, places terrain or removes a piece."""

from __future__ import annotations

import html
import math
from dataclasses import fields

from shapely.affinity import rotate
from shapely.geometry import Point
from shapely.geometry import box as rectangle

from wbk.draw.tables import say_inches
from wbk.errors import WbkError
from wbk.games import pz8
from wbk.games.pz8 import Tank
from wbk.games.pz8.panels.controls import CLASS_LABELS, label, parse_size
from wbk.games.pz8.panels.table_show import TableShow
from wbk.table import Table, Terrain
from wbk.widgets import reports_errors

#: How the row's controls name a tank's fields in a "done" message.
FIELD_WORDS = {
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


def tank_fields(tank: Tank) -> dict:
    """A tank's fields by name, to make it again with some changed."""
    return {f.name: getattr(tank, f.name) for f in fields(tank)}


class TableEditing(TableShow):
    """The table panel's row of a tank and its clicks on the table."""

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
        self.set_table(table, f"{tank.name!r}: {', '.join(FIELD_WORDS.get(c, c) for c in changed)}")

    @reports_errors(input="calibre")
    def pick_calibre(self) -> None:
        """A calibre typed: choose the gun class it has (Pz 8, Shooting)."""
        typed = self.calibre.value.strip()
        if typed:
            self.gun.value = pz8.gun_for_calibre(typed)
            self.compare.refresh()  # "compare with" the other reading of the card's gaps

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
            moved = Tank(**{**tank_fields(tank), "position": point})
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
        turned = Tank(**{**tank_fields(tank), "facing": facing})
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
        table = Table(self.table.width, self.table.depth, kept, self.table.pieces, self.table.name)
        self.set_table(table, f"removed {under[-1].label}")
