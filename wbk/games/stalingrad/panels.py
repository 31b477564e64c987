"""Widget panels of the Streets of Stalingrad chapter: a CRT explorer (``crt_explorer``), the
Close Assault Bonus advisor (9.67, ``assault_advisor``) and a retreat planner on the map
(9.87-9.89, ``RetreatPlanner``).

Each draws its answer as ``wbk.draw.picture`` draws the result (``draw``), whole or at the step
on show. Controls show plain words ("eliminate 1", "attacked", "keep a qualifying unit"); a
reading's dropdown is built from its one declaration (``readings``). Every view of an
illustrative table names it, and its name says it is not the published table.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.figure import Figure

from wbk.datafile import parse_toml
from wbk.draw import picture
from wbk.draw.maps import MapView, figure_size, map_axes
from wbk.errors import WbkError
from wbk.explain import count
from wbk.hexgrid import Hex
from wbk.readings import Reading
from wbk.widgets import (
    LIVE_ONLY,
    ChartPanel,
    MapPanel,
    chart_edge_cases,
    parse_optional_number,
    reports_errors,
    typed,
)
from wbk.widgets.edge_cases import has_edge_cases, public_name
from wbk.widgets.files import FileInput, FileRow

from .close_assault import MOST_ATTACKING_UNITS, CloseAssault, close_assault_bonus
from .crt import Crt, CrtLookup, example_crt
from .draw import LOOKUP_SIZE, RetreatOverlay, mark_changes, mark_other_reading
from .readings import ASSAULT_READINGS, READINGS, RETREAT_READINGS
from .retreat import Retreat
from .situation import Situation, example_situation
from .units import KINDS, SIDES, Unit

NO_DIFFERENCE = '<i style="white-space: nowrap">makes no difference here</i>'


# --- what the panels share: the CRT chosen, controls in rows, a picture stepped through ------

FROM_FILE = "file"
TABLES = [
    ("illustrative 1d6 (not the published table)", "illustrative_1d6"),
    ("illustrative 2d6 (not the published table)", "illustrative_2d6"),
    ("my CRT file", FROM_FILE),
]


def table_control(value: str = "illustrative_1d6") -> widgets.Dropdown:
    """The choice of table: a shipped one (each saying it is not the published table) or the
    user's file."""
    return widgets.Dropdown(
        options=TABLES,
        value=value,
        description="CRT",
        tooltip="the combat results table: one of wbk's illustrative ones, or your own file",
        layout={"width": "24.5em"},
    )


def file_control(path: str = "") -> FileInput:
    """The user's CRT file, read when "my CRT file" is chosen: a path in JupyterLab, an upload
    in the app."""
    return FileInput(
        "CRT",
        description="CRT file",
        path=path,
        tooltip='the TOML file of your CRT, read when the CRT is "my CRT file"',
    )


def choose_crt(table: str, file: FileInput) -> Crt:
    """A shipped table by name, or the user's file (its errors name the file and the key)."""
    if table != FROM_FILE:
        return example_crt(table)
    text, source = file.text()
    return Crt.from_toml(text, source=source)


def _slider(
    low: int, high: int, description: str, tooltip: str, width: str = "17em"
) -> widgets.IntSlider:
    return widgets.IntSlider(
        0, low, high, description=description, tooltip=tooltip, layout={"width": width}
    )


def _unshrunk(controls) -> None:
    """Controls keep their size in a row that wraps: a row too narrow moves a control to the
    next line instead of squeezing its slider or cutting its label off."""
    for control in controls:
        control.layout.flex = "0 0 auto"


def _in_rows(
    panel: ChartPanel, rows: list[list[str]], extras: dict[str, widgets.Widget] | None = None
) -> None:
    """Lay a panel's controls (and ``extras``, by their names) out in these rows (each
    wrapping if the page is narrow), so that the controls and the picture fit on one screen."""
    for control in panel.controls.values():
        if isinstance(control, widgets.ToggleButtons):
            control.style.button_width = "auto"  # whole labels, never cut off
    parts = {**panel.controls, **(extras or {})}
    _unshrunk(parts.values())
    panel.control_row.children = [
        widgets.HBox([parts[name] for name in row], layout=widgets.Layout(flex_flow="row wrap"))
        for row in rows
    ]
    panel.control_row.layout.flex_flow = "column"  # the rows one under another


class SteppedChart(ChartPanel):
    """A chart panel of a result with steps (a CRT lookup, 9.67's advice): the result drawn as
    ``picture`` draws it, whole or at the step on show (a step control under the picture), its
    own HTML in the pane. ``shown(result)``, when given, is called with each new answer once
    the panel is made."""

    pane_lists_steps = True

    def __init__(
        self,
        compute: Callable[..., Any],
        /,
        *,
        shown: Callable[[Any], None] = lambda result: None,
        **options: Any,
    ):
        self.result: Any = None
        self.shown = shown
        #: what the figure shows: the result's id and its step (None: the whole answer)
        self.drawn: tuple[int, int | None] | None = None
        super().__init__(compute, self.show, **options)
        self.step_control = self.add_step_control(self.draw_step)
        if self.result is not None:
            self.show_steps(self.result.steps, answer=self.result)

    def show(self, figure: Figure, result: Any) -> str:
        self.result, self.drawn = result, (id(result), None)
        picture(result, figure=figure)
        if hasattr(self, "step_control"):  # from the second answer on: the panel is made
            self.show_steps(result.steps, answer=result)
            self.shown(result)
        return result._repr_html_()

    def draw_step(self, k: int) -> None:
        """Draw the answer at step ``k`` (whole at the last step, the verdict), unless it is on
        show already (a new answer is drawn whole before its steps are listed)."""
        step = None if self.step_control.at_answer else k
        if self.drawn != (id(self.result), step):
            self.draw_at(step)
            if self.stale:  # a bad input since: the old answer's steps stay dimmed, out of date
                self.mark_stale()

    def draw_at(self, step: int | None) -> None:
        """Draw the answer on show at ``step`` (None: whole)."""
        picture(self.result, step=step, figure=self.figure)
        self.drawn = (id(self.result), step)
        self.canvas.draw_idle()


# --- the CRT explorer ---------------------------------------------------------------------


#: The seed's worked example of 9.67 as the lookups it makes, one click away: the attack's
#: 15 AF on its own column and with the bonus, and the defender's 3 DF firing first.
EXPLORER_PRESETS: dict[str, dict[str, object]] = {
    name: {"table": "illustrative_1d6", "strength": strength, "shift": shift, "drm": 0}
    for name, strength, shift in (
        ("9.67: 15 AF on the 10-19 column", "15", 0),
        ("9.67: 15 AF with the Close Assault Bonus, 20-29 (shift +1)", "15", 1),
        ("9.67: the defender's 3 DF fires first on the 4 column (shift +1)", "3", 1),
    )
}


@chart_edge_cases
def crt_explorer(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """Every column of a CRT as a 100% bar of its results, under the table itself; choose an
    attack strength, a column shift and a die roll modifier and see what they change, and step
    through the lookup (the column, the shift, the roll, the DRM, the chances). Load your own
    table from a file."""
    crt_file = file_control(path)

    def look_up(table, file, strength, shift, drm) -> CrtLookup:
        crt = choose_crt(table, crt_file)
        af = parse_optional_number(strength, "attack strength")
        if af is None:
            raise WbkError("attack strength is blank: type the attack's total AF")
        if af < 0:  # named as the box is, as a strength that is not a number is
            raise WbkError(f"attack strength {af} is not a whole number of 0 or more")
        return crt.lookup(af, shift=shift, drm=drm)  # a strength below the first column is named

    panel = SteppedChart(
        look_up,
        size=LOOKUP_SIZE,
        rule="a Streets of Stalingrad CRT (wbk's illustrative tables are not the published one)",
        table=table_control(table),
        file=crt_file,
        strength=widgets.Text(
            "15",
            description="AF",
            tooltip="attack strength: the attack's total AF",
            continuous_update=False,
            layout={"width": "8em"},
        ),
        shift=_slider(-3, 3, "shift", "column shift: columns right (+) or left (-)"),
        drm=_slider(-3, 3, "DRM", "die roll modifier, added to the roll"),
    )
    _in_rows(panel, [["table", "file"], ["strength", "shift", "drm"]])
    panel.add_presets(EXPLORER_PRESETS)
    return panel


# --- 9.67: the Close Assault Bonus advisor --------------------------------------------------

#: What may follow a unit's AF in the advisor: pinned, spent, or not adjacent to the target.
ATTACK_FLAGS = ("pinned", "spent", "away")


def parse_attack(text: str) -> tuple[list[Unit], list[str]]:
    """Attacking units typed as "infantry 6, engineer 4, tank 5": a kind (any case) and its AF,
    then optionally "pinned", "spent" or "away" (not adjacent to the target hex). Returns the
    units (German, named "engineer 4") and the names of those not adjacent."""
    units: list[Unit] = []
    away: list[str] = []
    kinds = ", ".join(KINDS[:4])
    parts = [p.strip() for p in typed(text, "the attack").split(",") if p.strip()]
    most = MOST_ATTACKING_UNITS
    if len(parts) > most:  # before any unit is read: the box may hold anything pasted
        raise WbkError(f"the attack lists {len(parts):,} units: wbk advises on {most:,} at most")
    #: how many units of each name so far: the second "infantry 6" is "infantry 6 (2)"
    named: dict[str, int] = {}
    for part in parts:
        words = part.lower().split()
        kind = words[0]
        if kind not in KINDS[:4]:
            raise WbkError(f"{part!r} in the attack: {words[0]!r} is not one of {kinds}")
        if len(words) > 1 and words[1].startswith("-") and words[1][1:].isdigit():
            raise WbkError(f"{part!r} in the attack: AF {words[1]} is negative: an AF is 0 or more")
        if len(words) < 2 or not (words[1].isascii() and words[1].isdigit()):
            raise WbkError(
                f"{part!r} in the attack: give the unit's AF after its kind, like 'infantry 6'"
            )
        flags = words[2:]
        for flag in flags:
            if flag not in ATTACK_FLAGS:
                raise WbkError(
                    f"{part!r} in the attack: {flag!r} is not one of pinned, spent, away"
                )
        name = f"{kind} {words[1]}"
        named[name] = named.get(name, 0) + 1
        if named[name] > 1:
            name = f"{name} ({named[name]})"
        units.append(
            Unit(
                name,
                "German",
                kind,
                int(words[1]),
                pinned="pinned" in flags,
                spent="spent" in flags,
            )
        )
        if "away" in flags:
            away.append(name)
    if not units:
        raise WbkError("the attack is blank: type units like 'infantry 6, engineer 4, tank 5'")
    return units, away


#: The advisor's label and width of each reading's dropdown: short, so that its rows fit.
ADVISOR_LABELS = {
    "losses": ("losses", "21em"),
    "pinned_attack": ("pinned", "19em"),
    "fire_without_bonus": ("no bonus", "24em"),
    "column_after_fire": ("after fire", "24em"),
}
#: The settings that say when they make no difference.
NOTED = [*ADVISOR_LABELS, "fire_drm"]


def same_under_others(
    readings: Sequence[Reading], chosen: Mapping[str, str], seen: object, answer: Callable
) -> set[str]:
    """The readings (keywords) whose other values give what a reader sees of the answer under
    ``chosen`` (``seen``), ``answer(**readings)`` giving what they see under others: beside
    each, a panel says it "makes no difference here"."""
    return {
        r.keyword
        for r in readings
        if all(
            answer(**{**chosen, r.keyword: v}) == seen for v in r.values if v != chosen[r.keyword]
        )
    }


def _advice_seen(a: CloseAssault) -> tuple:
    """What a reader sees of an advice: the verdict and every distribution."""
    bonus = None if a.with_bonus is None else a.with_bonus.exchange
    return (a.verdict, a.without.exchange, bonus)


def _advisor_controls(table: str, crt_file: FileInput) -> dict[str, widgets.Widget]:
    """The advisor's controls: the table, the attack, the defence, the readings, the DRMs."""
    readings = {}
    for reading in ASSAULT_READINGS:
        label, width = ADVISOR_LABELS[reading.keyword]
        readings[reading.keyword] = widgets.Dropdown(
            options=reading.options,
            description=label,
            tooltip=reading.asks,
            layout={"width": width},
        )
    return {
        "table": table_control(table),
        "file": crt_file,
        "attack": widgets.Text(
            "infantry 6, engineer 4, tank 5",
            continuous_update=False,
            description="attack",
            placeholder="kind AF, ...: infantry 6, engineer 4 pinned",
            tooltip=(
                "the attacking units: a kind and its AF each, then optionally pinned, spent or "
                "away (not adjacent to the target)"
            ),
            layout={"width": "23em"},
        ),
        "defence_df": widgets.Text(
            "3",
            description="DF",
            tooltip="the defence's total DF (0 if none)",
            continuous_update=False,
            layout={"width": "7em"},
        ),
        "defending_units": widgets.IntSlider(
            1,
            1,
            6,
            description="defenders",
            tooltip="defending units in the target hex",
            layout={"width": "15em"},
        ),
        **readings,
        "drm": _slider(-3, 3, "DRM", "the attack's die roll modifier", "16em"),
        "fire_drm": _slider(-3, 3, "fire DRM", "die roll modifier of the defender's first fire"),
    }


#: The seed's worked example of 9.67, one click away: 15 AF (a qualifying infantry unit
#: among them) against a defence of 3 DF.
ADVISOR_PRESETS: dict[str, dict[str, object]] = {
    "9.67: 15 AF against 3 DF": {
        "table": "illustrative_1d6",
        "attack": "infantry 10, engineer 5",
        "defence_df": "3",
        "defending_units": 1,
        "drm": 0,
        "fire_drm": 0,
    },
}


@chart_edge_cases
def assault_advisor(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """9.67: type the attacking units, the defence's DF and number of units; see what the
    Close Assault Bonus buys and costs, side by side, with the verdict in the chart's title."""
    crt_file = file_control(path)
    #: beside each setting: "makes no difference here" when no other value changes the advice
    notes = {name: widgets.HTML(layout={"width": "13em"}) for name in NOTED}
    #: the advice on show under any readings, for the notes and "compare with"
    advise: Callable[..., CloseAssault] = close_assault_bonus

    def advice(table, file, attack, defence_df, defending_units, drm, fire_drm, **readings):
        nonlocal advise
        crt = choose_crt(table, crt_file)
        units, away = parse_attack(attack)
        df = parse_optional_number(defence_df, "defence DF")
        if df is None:
            raise WbkError("defence DF is blank: type the defence's total DF (0 if none)")
        defence = [Unit(f"defender {i + 1}", "Soviet", "infantry") for i in range(defending_units)]
        advise = functools.partial(
            close_assault_bonus,
            units,
            defence,
            df,
            crt=crt,
            not_adjacent=away,
            drm=drm,
            fire_drm=fire_drm,
        )
        return advise(**readings)

    def shown(a: CloseAssault) -> None:
        def seen_under(**readings: str) -> tuple:
            return _advice_seen(advise(**readings))

        same = same_under_others(ASSAULT_READINGS, a.readings, _advice_seen(a), seen_under)
        if a.with_bonus is None or a.fire_column is None:
            same.add("fire_drm")  # no first fire to modify
        for name, note in notes.items():
            note.value = NO_DIFFERENCE if name in same else ""
        if hasattr(panel, "compare_readings"):  # from the second answer on
            panel.compare_readings.refresh()

    def mark(other: dict[str, str] | None) -> bool:
        control = panel.step_control  # drawn again: the marks of the reading compared go
        panel.draw_at(None if control.at_answer else control.index)
        if other is None:
            return False
        a = panel.result
        theirs = advise(**{**a.readings, **other})
        (value,) = other.values()
        moved = mark_other_reading(panel.figure, a, theirs, value)
        panel.canvas.draw_idle()
        return moved

    panel = SteppedChart(
        advice,
        shown=shown,
        size=(7.0, 3.8),
        rule="Streets of Stalingrad 9.67, the Close Assault Bonus",
        **_advisor_controls(table, crt_file),
    )
    _in_rows(
        panel,
        [
            ["table", "file", "defence_df"],
            ["attack", "defending_units", "drm", "fire_drm", "fire_drm note"],
            ["losses", "losses note", "pinned_attack", "pinned_attack note"],
            [
                "fire_without_bonus",
                "fire_without_bonus note",
                "column_after_fire",
                "column_after_fire note",
            ],
        ],
        {f"{name} note": note for name, note in notes.items()},
    )
    # "compare with": the readings of the text, not wbk's own ``losses``
    compared = [r for r in ASSAULT_READINGS if r.keyword in READINGS]
    readings = [r.keyword for r in ASSAULT_READINGS]
    panel.add_compare_readings(
        compared, mark=mark, current=lambda: {n: panel.controls[n].value for n in readings}
    )
    panel.add_presets(ADVISOR_PRESETS)
    if panel.result is not None:
        shown(panel.result)  # the notes beside the settings filled in
    return panel


# --- 9.87-9.89: the retreat planner ---------------------------------------------------------

CLICKS = [
    ("defending hex", "target"),
    ("place a unit", "place"),
    ("attacked", "attacked"),
    ("bombarded", "bombarded"),
    ("clear the hex", "clear"),
]

#: The planner's label of each reading's dropdown.
PLANNER_LABELS = {
    "retreat_into": "retreat into",
    "pinned_zoc": "ZOC of pinned units",
    "given_up_to_stay": "to stay, give up",
    "minefields_and_bridges": "minefields, bridges",
}

#: The worked retreats of the chapter: the situations the rule set ships.
PLANNER_PRESETS: dict[str, dict[str, object]] = {
    "9.87: a clear hex, one hex open for two units": {"situation": "retreat_clear_hex"},
    "9.87: one way out, 1313 -> 1314": {"situation": "one_way_out"},
    "9.87: two units, 1314 shared, room for one": {"situation": "shared_hex"},
    "9.88: balka, stay or go": {"situation": "balka_stay_or_go"},
    "9.89: minefield, fortification, immobilized tank": {"situation": "rule_9_89"},
    "9.87: four in the open, stacking limit 3": {"situation": "four_in_the_open"},
}


def _retreat_seen(r: Retreat) -> tuple:
    """What a reader sees of a retreat: where each unit may go and goes, who is lost, whether
    staying is offered and what it costs."""
    return (r.options, r.best, r.go, r.stay, r.eliminated_at_least, r.stay_eliminates)


def default_situation_path(s: Situation) -> Path:
    """Where the planner saves unless told otherwise: a folder of the user's, never the
    workbook's own notebooks/ folder."""
    slug = re.sub(r"[^a-z0-9]+", "_", s.name.lower()).strip("_") or "situation"
    return Path.home() / "wbk-situations" / f"{slug}.toml"


#: The keys of the lines a planner's edge case starts with, before the situation file's text:
#: the panel, the readings its picture assumes, and the "compare with" reading (if chosen).
EDGE_CASE_HEADS = ("panel", "readings", "compare")


def _situation_text(text: str) -> str:
    """A situation file's text without the lines an edge case starts with."""
    lines = text.split("\n")
    while lines and lines[0].startswith(tuple(f"{key} =" for key in EDGE_CASE_HEADS)):
        lines.pop(0)
    return "\n".join(lines)


def _head(text: str, key: str, source: str) -> object:
    """The value of an edge case's head line ``key = ...`` (its first three lines), or None."""
    head = "\n".join(line for line in text.split("\n")[:3] if line.startswith(f"{key} ="))
    return parse_toml(head, source).get(key)


def edge_case_readings(text: str, source: str) -> dict[str, str]:
    """The readings an edge case's text names (none: the defaults), each checked."""
    table = _head(text, "readings", source) or {}
    if not isinstance(table, dict):
        raise WbkError(f"{source}: readings: {table!r} is not a table of readings")
    declared = {r.keyword: r for r in RETREAT_READINGS}
    for name, value in table.items():
        if name not in declared:
            raise WbkError(f"{source}: readings: {name}: unknown reading ({', '.join(declared)})")
        declared[name].check(value, f"{source}: readings: {name}:")
    return dict(table)


#: The stacking dropdown's value for "no limit" (a situation's ``stacking_limit = "none"``).
NO_LIMIT = 0


def _limits(limit: int) -> list[tuple[str, int]]:
    """The stacking limits to choose from: 1 to 6, a situation's own if it is higher, and no
    limit at all (``NO_LIMIT``)."""
    listed = [(str(n), n) for n in sorted({*range(1, 7), limit} - {NO_LIMIT})]
    return [*listed, ("no limit", NO_LIMIT)]


def _stacking_limit(value: int) -> int | None:
    return None if value == NO_LIMIT else value


@has_edge_cases
class RetreatPlanner(MapPanel):
    """9.87-9.89 on the map: click to place units, mark hexes attacked or bombarded, and click
    the defending hex of a "P" result; the legal retreat hexes are shaded, the retreat chosen is
    drawn, and the title says who is eliminated. Load and save the situation as TOML.

    ``planner.situation`` is the situation on show, ``planner.retreat`` its retreat."""

    rule = "Streets of Stalingrad 9.87-9.89, retreat after combat"

    def __init__(
        self, situation: Situation | None = None, path: str | None = None, *, width: float = 5.0
    ):
        self.situation = situation or example_situation("retreat_clear_hex")
        wide = {"description_width": "initial"}
        self._unit_controls()
        limit = NO_LIMIT if self.situation.stacking_limit is None else self.situation.stacking_limit
        self.stacking = widgets.Dropdown(
            options=_limits(limit),
            value=limit,
            description="stacking limit",
            style=wide,
            tooltip="how many units of a side a hex may hold (5.0)",
            layout={"width": "12.5em"},
        )
        self.readings = {
            r.keyword: widgets.Dropdown(
                options=r.options,
                description=PLANNER_LABELS[r.keyword],
                style=wide,
                tooltip=r.asks,
            )
            for r in RETREAT_READINGS
        }
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
        self.compare = self.add_compare_readings(
            RETREAT_READINGS, mark=self.mark_changes, current=self.reading_values
        )
        #: the marks of what another reading changes, taken off with the next answer
        self.change_marks: list[Artist] = []
        self.add_presets(PLANNER_PRESETS)
        self.update()

    def _unit_controls(self) -> None:
        """The controls of what a click does, and of the unit it places."""
        wide = {"description_width": "initial"}
        buttons_fit = {"description_width": "initial", "button_width": "auto"}
        self.click = widgets.ToggleButtons(
            options=CLICKS, tooltip="what a click on the map does", style=buttons_fit
        )
        self.side = widgets.ToggleButtons(
            options=list(SIDES),
            value="Soviet",
            style=buttons_fit,
            tooltip="the side of the unit a click places",
        )
        self.kind = widgets.Dropdown(
            options=list(KINDS), layout={"width": "7.5em"}, tooltip="its kind"
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

    def reading_values(self) -> dict[str, str]:
        """The readings chosen, by keyword."""
        return {name: control.value for name, control in self.readings.items()}

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
        try:
            r = s.retreat(hexes["defending hex"], **self.reading_values())
        except WbkError:
            self.overlay.clear_retreat()
            self.overlay.show_situation(s)  # the units stay on show while the message explains
            raise
        self.overlay.show(r)
        self.mark_no_difference(r)
        self.retreat = r
        self.show_steps(r.steps, answer=r)
        self.compare.refresh()
        note = f": {html.escape(s.note)}" if s.note else ""
        parts = [f"<p><b>{html.escape(s.name)}</b>{note}</p>"]
        if self.dropped_note:
            parts.append(
                "<p><i>The note the situation came with was dropped: your edits changed the "
                "situation it described.</i></p>"
            )
        return "".join(parts) + r._repr_html_()

    def mark_no_difference(self, r: Retreat) -> None:
        """Say "makes no difference here" beside each setting whose other values give the same
        answer as the one chosen."""
        s, seen = self.situation, _retreat_seen(r)

        def seen_under(**readings: str) -> tuple:
            return _retreat_seen(s.retreat(r.target, **readings))

        same = same_under_others(RETREAT_READINGS, r.readings, seen, seen_under)
        limits = [_stacking_limit(v) for _, v in self.stacking.options if v != self.stacking.value]
        if all(
            _retreat_seen(replace(s, stacking_limit=limit).retreat(r.target, **r.readings)) == seen
            for limit in limits
        ):
            same.add("stacking")
        for name, note in self.no_difference.items():
            note.value = NO_DIFFERENCE if name in same else ""

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
        r2 = self.situation.retreat(r.target, **{**r.readings, **other})
        ((_, value),) = other.items()
        self.change_marks, entries = mark_changes(self.view, r, r2, value)
        self.view.set_overlay_legend("compare", entries)
        self.view.redraw()
        return bool(entries) or _retreat_seen(r) != _retreat_seen(r2)

    @reports_errors
    def apply_preset(self, values: Mapping[str, object]) -> None:
        """A worked example: ``situation``, the name of a shipped situation, loaded as Load
        would; the other values set the controls."""
        values = dict(values)
        name = values.pop("situation", None)
        if name is not None:
            self.show_loaded(example_situation(str(name)), {}, f"example {name}")
        super().apply_preset(values)

    def mark_stale(self) -> None:
        # cleared before the base class draws: a second draw right after the first may never
        # reach the browser, which would keep showing the retreat that is out of date
        self.overlay.clear_retreat()
        super().mark_stale()

    # --- files ------------------------------------------------------------------------------

    def edge_case(self) -> str:
        """The situation on show as a situation file, the defending hex as its target, the
        planner named on its first line, its readings on the second and the reading compared
        with (if any) on the third: "Save edge case" writes it, and the planner's Load or
        ``wbk.widgets.load_edge_case`` brings back the same picture."""
        target = self.map.hex(self.boxes["defending hex"].value.strip())
        readings = ", ".join(f'{name} = "{value}"' for name, value in self.reading_values().items())
        lines = [f'panel = "{public_name(type(self))}"', f"readings = {{ {readings} }}"]
        compared = self.compare_readings.choice.value
        if compared not in (None, self.compare_readings.OFF_VALUE):
            keyword, value = compared
            lines.append(f'compare = {{ reading = "{keyword}", value = "{value}" }}')
        return "\n".join(lines) + "\n" + replace(self.situation, target=target).to_toml()

    @classmethod
    def from_edge_case(cls, text: str, source: str) -> RetreatPlanner:
        """The planner showing a saved edge case (see ``edge_case``), under its readings; the
        case carries its map inline (it names no file)."""
        readings = edge_case_readings(text, source)
        planner = cls(Situation.from_toml(_situation_text(text), source=source))
        planner.set_readings(readings)
        planner.set_compare(_head(text, "compare", source), source)
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
        if not s.units:
            raise WbkError(f"{source}: units: the situation has no units")
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
        limit = NO_LIMIT if s.stacking_limit is None else s.stacking_limit
        if limit not in [value for _, value in self.stacking.options]:
            with self.stacking.hold_trait_notifications():  # the new list keeps the value on show
                self.stacking.options = _limits(limit)
        with box.hold_trait_notifications(), self.stacking.hold_trait_notifications():
            self.stacking.value = limit
            box.value = s.map.label(target)
        self.set_readings(readings)
        if not self.is_out_of_date:
            self.show_done(f"loaded {s.name!r} from {source}")

    @reports_errors(beside="file.note")
    def save(self) -> str:
        s = self.situation
        where = self.file.write(s.file_text(), default_situation_path(s).name)
        units = sum(len(here) for here in s.units.values())
        return f"saved {s.name!r} ({count(units, 'unit')}) {where}"
