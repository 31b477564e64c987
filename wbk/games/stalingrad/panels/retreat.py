"""The retreat planner (Streets of Stalingrad 9.87-9.89): a situation and its retreat on the map.
Its pictures are drawn by ``wbk.games.stalingrad.draw.retreat``."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist

from wbk.draw.maps import MapView, figure_size, map_axes
from wbk.errors import WbkError
from wbk.explain import count
from wbk.games import stalingrad
from wbk.games.stalingrad import Situation, Unit
from wbk.games.stalingrad.draw.retreat import (  # noqa: F401 (importable from here, as before the move)
    BOMBARDED,
    CHANGED,
    LINE_SPACING,
    LOST_MARK,
    MOST_LINES,
    OPEN_HEX,
    RETREAT,
    SIDE_COLOURS,
    Z_ARROWS,
    Z_UNIT_NAMES,
    ZOC,
    RetreatOverlay,
    draw_retreat,
    lost_units,
    mark_changes,
    readings_tag,
    retreat_arrows,
    retreat_changes,
    retreat_title,
    unit_label,
)
from wbk.games.stalingrad.panels.crt import _unshrunk
from wbk.games.stalingrad.readings import RETREAT_READINGS
from wbk.hexgrid import Hex
from wbk.readings import Reading
from wbk.widgets import (
    LIVE_ONLY,
    MapPanel,
    reports_errors,
)
from wbk.widgets.edge_cases import has_edge_cases, public_name
from wbk.widgets.files import FileRow
from wbk.widgets.readings import compare_words

# --- 9.87-9.89 the retreat planner ------------------------------------------------------------

CLICKS = [
    ("defending hex", "target"),
    ("place a unit", "place"),
    ("attacked", "attacked"),
    ("bombarded", "bombarded"),
    ("clear the hex", "clear"),
]

#: The planner's label of each reading's dropdown.
READING_LABELS = {
    "retreat_into": "retreat into",
    "pinned_zoc": "ZOC of pinned units",
    "given_up_to_stay": "to stay, give up",
    "minefields_and_bridges": "minefields, bridges",
}
NO_DIFFERENCE = "makes no difference here"


def reading_dropdown(reading: Reading) -> widgets.Dropdown:
    """A 9.87-9.89 reading's dropdown, in its declared words, at its default."""
    return widgets.Dropdown(
        options=reading.options,
        description=READING_LABELS[reading.keyword],
        style={"description_width": "initial"},
        tooltip=reading.asks,
    )


#: The worked retreats of the chapter: the shipped situations (the rule set's situations/).
PRESETS: dict[str, dict[str, object]] = {
    "9.87: a clear hex, one hex open for two units": {"situation": "retreat_clear_hex"},
    "9.87: one way out, 1313 -> 1314": {"situation": "one_way_out"},
    "9.87: two units, 1314 shared, room for one": {"situation": "shared_hex"},
    "9.88: balka, stay or go": {"situation": "balka_stay_or_go"},
    "9.89: minefield, fortification, immobilized tank": {"situation": "rule_9_89"},
    "9.87: four in the open, stacking limit 3": {"situation": "four_in_the_open"},
}


def retreat_table(r: stalingrad.Retreat) -> str:
    """Each defending unit, its legal hexes and where it goes, as an HTML table."""
    m = r.map

    def legal(name: str) -> str:
        return ", ".join(sorted(m.label(h) for h in r.options[name])) or "none"

    def goes_to(name: str) -> str:
        h = r.best[name]
        return "eliminated" if h is None else m.label(h)

    rows = "".join(
        f"<tr><th>{html.escape(name)}</th><td>{legal(name)}</td><td>{goes_to(name)}</td></tr>"
        for name in r.best
    )
    rows += "".join(
        f"<tr><th>{html.escape(n)}</th><td>never retreats (9.89)</td><td>eliminated</td></tr>"
        for n in sorted(r.eliminated)
    )
    rows += "".join(
        f"<tr><th>{html.escape(n)}</th><td>not affected (9.89)</td><td>stays</td></tr>"
        for n in sorted(r.unaffected)
    )
    return (
        "<table><thead><tr><th>unit</th><th>legal hexes</th><th>goes to</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _answer(r: stalingrad.Retreat) -> tuple:
    """What a reader sees of a retreat: where each unit may go and goes, who is lost, whether
    staying is offered and what it costs."""
    return (r.options, r.best, r.go, r.stay, r.eliminated_at_least, r.stay_eliminates)


def _no_difference_html(same: bool) -> str:
    return f'<i style="white-space: nowrap">{NO_DIFFERENCE}</i>' if same else ""


def choices_table(r: stalingrad.Retreat) -> str:
    """The defender's choices side by side as an HTML table: retreating ("go") and staying,
    each with the units lost and where the others end up, pinned."""
    m = r.map
    columns = [("retreat (9.87)", r.go), ("stay (9.88)" if r.may_stay else "stay", r.stay)]
    shown = [(name, choice) for name, choice in columns if choice is not None]
    if not shown:
        return ""
    head = "".join(f"<th>{html.escape(name)}</th>" for name, _ in shown)

    def lost(choice: stalingrad.Choice) -> str:
        return html.escape(", ".join(choice.eliminated) or "none")

    def pinned(choice: stalingrad.Choice) -> str:
        places = [f"{name} in {m.label(h)}" for name, h in choice.pinned_in.items()]
        return html.escape(", ".join(places) or "none")

    rows = [
        (
            "units lost",
            [f"{choice.cost}: {lost(choice)}" if choice.cost else "none" for _, choice in shown],
        ),
        ("pinned, where", [pinned(choice) for _, choice in shown]),
    ]
    body = "".join(
        f"<tr><th>{what}</th>{''.join(f'<td>{cell}</td>' for cell in cells)}</tr>"
        for what, cells in rows
    )
    return f"<table><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table>"


def default_situation_path(s: Situation) -> Path:
    """Where the planner saves unless told otherwise: a folder of the user's, never the
    workbook's own notebooks/ folder."""
    slug = re.sub(r"[^a-z0-9]+", "_", s.name.lower()).strip("_") or "situation"
    return Path.home() / "wbk-situations" / f"{slug}.toml"


#: The key naming the panel on the first line of a saved edge case (see ``load_edge_case``).
EDGE_CASE_PANEL = "panel"


#: The key of an edge case's second line: the readings its picture assumes.
EDGE_CASE_READINGS = "readings"
#: The key of an edge case's "compare with" reading, on its third line (when one is chosen).
EDGE_CASE_COMPARE = "compare"


def _situation_text(text: str) -> str:
    """A situation file's text without the lines an edge case starts with (the panel's name,
    the readings)."""
    lines = text.split("\n")
    heads = (f"{EDGE_CASE_PANEL} =", f"{EDGE_CASE_READINGS} =", f"{EDGE_CASE_COMPARE} =")
    while lines and lines[0].startswith(heads):
        lines.pop(0)
    return "\n".join(lines)


def _head_table(text: str, key: str, source: str) -> object:
    """The value of an edge case's head line ``key = ...`` (its first three lines), or None."""
    from wbk.datafile import parse_toml

    head = "\n".join(line for line in text.split("\n")[:3] if line.startswith(f"{key} ="))
    return parse_toml(head, source).get(key)


def _compare_line(chosen: tuple[str, str] | None) -> str:
    """An edge case's third line: the "compare with" reading chosen, if any (a reading's keyword
    and value: words of its declaration, never a reader's)."""
    if chosen is None or chosen == ("", ""):
        return ""
    return f'{EDGE_CASE_COMPARE} = {{ reading = "{chosen[0]}", value = "{chosen[1]}" }}\n'


def edge_case_readings(text: str, source: str) -> dict[str, str]:
    """The readings an edge case's text names (none: the defaults), each checked."""
    table = _head_table(text, EDGE_CASE_READINGS, source) or {}
    if not isinstance(table, dict):
        raise WbkError(f"{source}: readings: {table!r} is not a table of readings")
    allowed = {r.keyword: list(r.values) for r in RETREAT_READINGS}
    readings = {}
    for name, value in table.items():
        if name not in allowed:
            raise WbkError(f"{source}: readings: {name}: unknown reading ({', '.join(allowed)})")
        if value not in allowed[name]:
            values = ", ".join(allowed[name])
            raise WbkError(f"{source}: readings: {name}: {value!r} is not one of {values}")
        readings[name] = value
    return readings


def _limits(limit: int) -> list[tuple[str, int]]:
    """The stacking limits to choose from: 1 to 6, a situation's own if it is higher, and no
    limit at all (``NO_LIMIT``)."""
    return [(str(n), n) for n in sorted({*range(1, 7), limit} - {NO_LIMIT})] + [
        ("no limit", NO_LIMIT)
    ]


#: The stacking dropdown's value for "no limit" (a situation's ``stacking_limit = "none"``).
NO_LIMIT = 0


def _limit_value(limit: int | None) -> int:
    return NO_LIMIT if limit is None else limit


def _stacking_limit(value: int) -> int | None:
    return None if value == NO_LIMIT else value


@has_edge_cases
class RetreatPlanner(MapPanel):
    """9.87-9.89 on the map: click to place units, mark hexes attacked or bombarded, and click
    the defending hex of a "P" result; the legal retreat hexes are shaded, the retreat chosen is
    drawn, and the title says who is eliminated. Load and save the situation as TOML.

    ``planner.situation`` is the situation on show."""

    rule = "Streets of Stalingrad 9.87-9.89, retreat after combat"

    def __init__(
        self, situation: Situation | None = None, path: str | None = None, *, width: float = 5.0
    ):
        self.situation = situation or stalingrad.example_situation("retreat_clear_hex")
        wide = {"description_width": "initial"}
        self._unit_controls()
        limit = _limit_value(self.situation.stacking_limit)
        self.stacking = widgets.Dropdown(
            options=_limits(limit),
            value=limit,
            description="stacking limit",
            style=wide,
            tooltip="how many units of a side a hex may hold (5.0)",
            layout={"width": "12.5em"},
        )
        self.readings = {r.keyword: reading_dropdown(r) for r in RETREAT_READINGS}
        #: beside each setting: "makes no difference here" when no other value changes the answer
        self.no_difference = {
            name: widgets.HTML("", layout={"width": "13em"})
            for name in ("stacking", *self.readings)
        }
        #: the note of the situation as loaded, once edits have made it drop
        self.dropped_note = ""
        self.file = FileRow(
            "situation",
            Path(path) if path else default_situation_path(self.situation),
            load=self.load,
            save=self.save,
            width="35em",
            makes_folder=path is None,
        )
        # what the next click does means nothing on a static page, nor does a file of the user's
        for control in self._placing():
            control.add_class(LIVE_ONLY)
        s = self.situation
        target = s.target if s.target is not None else next(iter(s.units))
        super().__init__(
            s.map,
            {"defending hex": s.map.label(target)},
            [self.stacking, *self.readings.values()],
            width=width,
        )
        self.width = width
        box = self.boxes["defending hex"]
        box.style, box.layout.width = wide, "13em"
        self.overlay = RetreatOverlay(self.view)
        self.widget = self._lay_out(box)
        self.step_control = self.add_step_control()
        words, questions = compare_words(RETREAT_READINGS)
        self.compare = self.add_compare_readings(
            words,
            mark=self.mark_changes,
            current=lambda: {name: c.value for name, c in self.readings.items()},
            questions=questions,
        )
        #: the marks of what another reading changes, taken off with the next answer
        self.change_marks: list[Artist] = []
        self.add_presets(PRESETS)
        self.update()

    def _unit_controls(self) -> None:
        """The controls of what a click does, and of the unit it places."""
        wide = {"description_width": "initial"}
        buttons_fit = {"description_width": "initial", "button_width": "auto"}
        self.click = widgets.ToggleButtons(
            options=CLICKS, tooltip="what a click on the map does", style=buttons_fit
        )
        self.side = widgets.ToggleButtons(
            options=list(stalingrad.SIDES),
            value="Soviet",
            style=buttons_fit,
            tooltip="the side of the unit a click places",
        )
        self.kind = widgets.Dropdown(
            options=list(stalingrad.KINDS), layout={"width": "7.5em"}, tooltip="its kind"
        )
        self.strength = widgets.Text(
            "3",
            description="strength",
            style=wide,
            layout={"width": "8.5em"},
            tooltip="its strength: a whole number, 0 or more",
            continuous_update=False,
        )
        self.strength.observe(self._check_strength, names="value")
        self.unit_name = widgets.Text(
            "",
            placeholder="name (optional)",
            layout={"width": "10em"},
            tooltip="its name, unique on the map; left blank, one is made up",
        )
        self.pinned = widgets.Checkbox(
            False, description="pinned", indent=False, layout={"width": "5.5em"}
        )
        self.immobilized = widgets.Checkbox(
            False, description="immobilized", indent=False, layout={"width": "8em"}
        )

    def _placing(self) -> list[widgets.Widget]:
        """What a click does and the unit it places."""
        return [
            self.click,
            self.side,
            self.kind,
            self.strength,
            self.unit_name,
            self.pinned,
            self.immobilized,
        ]

    def _lay_out(self, box: widgets.Widget) -> widgets.VBox:
        """The planner in rows: a click's controls, the settings with their notes, the message
        line, the map, the picture row and the pane."""
        click, *placing = self._placing()
        _unshrunk(
            [
                click,
                box,
                *placing,
                self.stacking,
                *self.readings.values(),
                *self.no_difference.values(),
                *self.file.parts,
            ]
        )
        row = widgets.Layout(flex_flow="row wrap")
        clicks, placing_words = widgets.Label("a click sets"), widgets.Label("placing")
        for words in (clicks, placing_words):
            words.add_class(LIVE_ONLY)
        return widgets.VBox(
            [
                widgets.HBox([clicks, click, box], layout=row),
                widgets.HBox([placing_words, *placing], layout=row),
                widgets.HBox(
                    [self.stacking, self.no_difference["stacking"], *self.file.parts],
                    layout=row,
                ),
                *(
                    widgets.HBox([control, self.no_difference[name]], layout=row)
                    for name, control in self.readings.items()
                ),
                self.message,
                self.canvas,
                self.picture_row,
                self.pane,
            ]
        )

    # --- what a click does ------------------------------------------------------------------

    @reports_errors
    def on_click(self, event) -> None:
        h = self.view.hex_at(event.xdata, event.ydata)
        if h is None:
            self.show_message("that click is off the map")
            return
        mode, s = self.click.value, self.situation
        if mode == "target":
            self.boxes["defending hex"].value = self.map.label(h)
            return
        if mode == "place":
            if self.read_input("strength", self.strength_value) is None:
                return  # the message line names the bad strength; nothing is placed
            units = {k: list(v) for k, v in s.units.items()}
            units.setdefault(h, []).append(self.new_unit())
            s = replace(s, units=units)
        elif mode in ("attacked", "bombarded"):
            s = replace(s, **{mode: getattr(s, mode) ^ {h}})
        else:
            s = replace(
                s,
                units={k: v for k, v in s.units.items() if k != h},
                attacked=s.attacked - {h},
                bombarded=s.bombarded - {h},
            )
        self.situation = self._without_note(s)
        self.update()

    def _without_note(self, s: Situation) -> Situation:
        """``s`` edited: its note, written for the situation as it was, may no longer be true,
        so it is dropped (and the pane says so)."""
        if s.note:
            self.dropped_note = s.note
        return replace(s, note="")

    def _check_strength(self, change) -> None:
        try:
            self.strength_value()
        except WbkError as e:
            self.set_bad("strength", str(e))
        else:
            self.clear_bad("strength")

    def strength_value(self) -> int:
        """The strength typed for the next unit: a whole number of 0 or more ("2.5", "-1" and
        "" are refused, never read as something else)."""
        text = self.strength.value.strip()
        if not (text.isascii() and text.isdigit()):
            raise WbkError(
                # the message line names the box ("strength: ..."): the value, not its name again
                f"{text!r} is not a whole number of 0 or more: a unit's strength is its AF"
            )
        return int(text)

    def new_unit(self) -> Unit:
        """The unit the controls describe, its name made up when the box is blank."""
        taken = {u.name for here in self.situation.units.values() for u in here}
        name = self.unit_name.value.strip()
        if name in taken:
            raise WbkError(f"unit name {name!r} is taken: names must be unique")
        if not name:
            n = 1
            while (name := f"{self.side.value} {self.kind.value} {n}") in taken:
                n += 1
        return Unit(
            name,
            self.side.value,
            self.kind.value,
            self.strength_value(),
            pinned=self.pinned.value,
            immobilized=self.immobilized.value,
        )

    # --- the answer -------------------------------------------------------------------------

    def show(self, **hexes: Hex) -> str:
        s = self.situation
        if s.stacking_limit != _stacking_limit(self.stacking.value):
            s = self._without_note(replace(s, stacking_limit=_stacking_limit(self.stacking.value)))
        self.situation = s
        readings = {name: control.value for name, control in self.readings.items()}
        target = hexes["defending hex"]
        try:
            r = self.overlay.show(s, target, **readings)
        except WbkError:
            self.overlay.show_situation(s)  # the units stay on show while the message explains
            raise
        self.mark_no_difference(r, readings)
        self.retreat = r
        self.show_steps(r.steps)
        self.compare.refresh()
        note = f": {html.escape(s.note)}" if s.note else ""
        parts = [f"<p><b>{html.escape(s.name)}</b>{note}</p>"]
        if self.dropped_note:
            parts.append(
                "<p><i>The note the situation came with was dropped: your edits changed the "
                "situation it described.</i></p>"
            )
        if r.terrain != "other":
            open_hexes = set().union(*r.options.values())
            listed = ", ".join(sorted(self.map.label(h) for h in open_hexes)) or "none"
            parts.append(
                f"<p>{count(len(open_hexes), 'hex', 'hexes')} open for the retreat: {listed}.</p>"
            )
            parts.append(retreat_table(r))
        parts.append(choices_table(r))
        parts.append(r._repr_html_())
        return "".join(parts)

    def mark_no_difference(self, r: stalingrad.Retreat, readings: dict[str, Any]) -> None:
        """Say "makes no difference here" beside each setting whose other values give the same
        answer as the one chosen."""
        s, target = self.situation, r.target
        answer = _answer(r)
        for name, control in self.readings.items():
            others = [value for _, value in control.options if value != control.value]
            same = all(
                _answer(s.retreat(target, **{**readings, name: value})) == answer
                for value in others
            )
            self.no_difference[name].value = _no_difference_html(same)
        limits = [
            _stacking_limit(value)
            for _, value in self.stacking.options
            if value != self.stacking.value
        ]
        same = all(
            _answer(replace(s, stacking_limit=limit).retreat(target, **readings)) == answer
            for limit in limits
        )
        self.no_difference["stacking"].value = _no_difference_html(same)

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Outline the hexes whose part in the retreat changes under the ``other`` reading
        (open or chosen under one reading, not the other) and name in the legend the units lost
        under it; None takes the marks off. Returns whether anything changes."""
        for artist in self.change_marks:
            artist.remove()
        self.change_marks.clear()
        self.view.set_overlay_legend("compare", {})
        r = getattr(self, "retreat", None)
        if other is None or r is None:
            self.view.redraw()
            return False
        readings = {name: c.value for name, c in self.readings.items()}
        r2 = self.situation.retreat(r.target, **{**readings, **other})
        ((_, value),) = other.items()
        self.change_marks, entries = mark_changes(self.view, r, r2, value)
        self.view.set_overlay_legend("compare", entries)
        self.view.redraw()
        return bool(entries) or _answer(r) != _answer(r2)

    @reports_errors
    def apply_preset(self, values) -> None:
        """A worked example: ``situation``, the name of a shipped situation (the rule set's
        ``situations/``), loaded as Load would; the other values set the controls."""
        values = dict(values)
        name = values.pop("situation", None)
        if name is not None:
            self.show_loaded(stalingrad.example_situation(str(name)), {}, f"example {name}")
        super().apply_preset(values)

    def mark_stale(self) -> None:
        # cleared before the base class draws: a second draw right after the first may never
        # reach the browser, which would keep showing the retreat that is out of date
        self.overlay.clear_retreat()
        super().mark_stale()

    # --- files ------------------------------------------------------------------------------

    def edge_case(self) -> str:
        """The situation on show as a situation file, the defending hex as its target, the
        planner named on its first line: "Save edge case" writes it, and the planner's Load or
        ``wbk.widgets.load_edge_case`` brings back the same picture."""
        target = self.map.hex(self.boxes["defending hex"].value.strip())
        panel = public_name(type(self))
        readings = ", ".join(f'{name} = "{c.value}"' for name, c in self.readings.items())
        return (
            f'{EDGE_CASE_PANEL} = "{panel}"\n{EDGE_CASE_READINGS} = {{ {readings} }}\n'
            + _compare_line(self.compare_readings.choice.value)
            + replace(self.situation, target=target).to_toml()
        )

    @classmethod
    def from_edge_case(cls, text: str, source: str) -> RetreatPlanner:
        """The planner showing a saved edge case (see ``edge_case``), under its readings; the
        case carries its map inline (it names no file)."""
        readings = edge_case_readings(text, source)
        planner = cls(Situation.from_toml(_situation_text(text), source=source))
        planner.set_readings(readings)
        planner.set_compare(_head_table(text, EDGE_CASE_COMPARE, source), source)
        return planner

    def set_readings(self, readings: dict[str, str]) -> None:
        """Choose these readings (the others back to their defaults) and draw the answer."""
        for name, control in self.readings.items():
            control.value = readings.get(name, control.options[0][1])
        self.update()

    @reports_errors(stale=False)
    def load(self) -> None:
        """The situation in the file chosen (typed in JupyterLab, uploaded in the app), or an
        edge case the planner saved, under its readings."""
        text, source, folder = self.file.read()
        readings = edge_case_readings(text, source)
        s = Situation.from_toml(_situation_text(text), source=source, folder=folder)
        self.show_loaded(s, readings, source)

    def show_loaded(self, s: Situation, readings: dict[str, str], source: str) -> None:
        """Show the situation ``s`` (read from ``source``) under ``readings``."""
        path = source
        if not s.units:
            raise WbkError(f"{path}: units: the situation has no units")
        if list(s.map) != list(self.map):
            self.figure.clear()
            self.figure.set_size_inches(*figure_size(s.map, self.width))
            self.view = MapView(s.map, map_axes(self.figure))
            self.overlay = RetreatOverlay(self.view)
        else:
            self.view.show_contents(s.map)
        self.map, self.situation = s.map, s
        target = s.target if s.target is not None else next(iter(s.units))
        box = self.boxes["defending hex"]
        limit = _limit_value(s.stacking_limit)
        if limit not in [value for _, value in self.stacking.options]:
            with self.stacking.hold_trait_notifications():  # the new list keeps the value on show
                self.stacking.options = _limits(limit)
        with box.hold_trait_notifications(), self.stacking.hold_trait_notifications():
            self.stacking.value = limit
            box.value = s.map.label(target)
        self.set_readings(readings)
        if not self.is_out_of_date:
            self.show_done(f"loaded {s.name!r} from {path}")

    @reports_errors(beside="file.note")
    def save(self) -> str:
        s = self.situation
        where = self.file.write(s.file_text(), default_situation_path(s).name)
        units = sum(len(here) for here in s.units.values())
        return f"saved {s.name!r} ({count(units, 'unit')}) {where}"
