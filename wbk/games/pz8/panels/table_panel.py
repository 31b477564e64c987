"""The Pz 8 table panel: the table drawn to scale, and what is asked of it (a shot, a reach, a
platoon move, a rally) answered on it, with a row of controls to edit the table and a file to
load it from and save it to.

The panel is made of parts, each a class in its own module, each building on the one before:
``TableControls`` (its controls and their rows), ``TableShow`` (the answer drawn),
``TableEditing`` (the row of a tank and the clicks), ``TableComparing`` (step by step, and
"compare with"); ``TablePanel`` wires them up and adds the table as a file and the situation
as an edge case."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as widgets

from wbk.datafile import parse_toml
from wbk.draw.tables import TableView, table_axes, table_figure_size
from wbk.errors import WbkError
from wbk.games import pz8
from wbk.games.pz8 import Tank
from wbk.games.pz8.panels.controls import compared
from wbk.games.pz8.panels.table_cases import TABLE_CASES, case_table
from wbk.games.pz8.panels.table_comparing import COMPARED, TableComparing
from wbk.table import Table
from wbk.widgets import LIVE_ONLY, interactive_figure, reports_errors
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


def tanks_words(n: int) -> str:
    """A number of tanks in words: "1 tank", "5 tanks"."""
    return f"{n} tank" if n == 1 else f"{n} tanks"


@has_edge_cases
class TablePanel(TableComparing):
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
        self._make_controls(shooter, target)
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
        asking = (self.show_reach, self.cover_reading, self.sight_reading, self.ask)
        for control in (*self.boxes.values(), *asking):
            control.observe(lambda _: self.update(), names="value")
        self._lay_out()
        self._observe_the_row()
        self.show_hint()
        # teaching (issue 19): step through the shot, compare readings, the card's cases
        self.pane_lists_steps = True
        self._shot_title = ""
        self._shot = None
        self._platoon = None
        self.step_control = self.add_step_control(self.draw_step)
        self.compare = self.add_compare_readings(
            compared(*(pz8.READINGS[k] for k in COMPARED)),
            mark=self.mark_changes,
            current=self.readings,
        )
        # the snapshot leaves out a live-only box's controls only when they are marked too
        self.compare.choice.add_class(LIVE_ONLY)
        # beside the low-wall reading rather than a row of its own (the screen budget)
        self._place_beside_readings(self.compare.widget)

        self.add_compare_marks()
        self.add_presets(TABLE_CASES)
        self.update()

    def _observe_the_row(self) -> None:
        """The row of a tank and of terrain: the hint follows it, a name typed selects, a
        calibre chooses the gun, a size is checked, and a change edits the tank selected."""
        for control in (self.click, self.terrain_kind, self.terrain_angle):
            control.observe(lambda _: self.show_hint(), names="value")
        self.tank_name.observe(lambda _: self.select(), names="value")
        self.calibre.observe(lambda _: self.pick_calibre(), names="value")
        self.terrain_size.observe(lambda _: self.check_size(), names="value")
        for control in (*self.described_controls, *self.flags.values()):
            control.observe(lambda _: self.edit_selected(), names="value")

    # --- the table as a file, the situation as an edge case -----------------------------------

    def resize_to(self, table: Table) -> None:
        """Draw the picture anew in the proportions of ``table`` when its size differs."""
        if (table.width, table.depth) != (self.table.width, self.table.depth):
            self.figure.clear()  # a table of another size: its own proportions
            self.figure.set_size_inches(*table_figure_size(table, self.width))
            self.view = TableView(table, table_axes(self.figure))
            self.add_compare_marks()

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

    @reports_errors(beside="file.note")
    def save(self) -> str:
        """The table to the file chosen (a download in the app)."""
        where = self.file.write(self.table.to_toml(), "pz8_table.toml")
        return f"saved {self.table.name!r} ({tanks_words(len(self.table.pieces))}) {where}"

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
