"""The Streets of Stalingrad chapter's CRT explorer, and the parts its panels share: the
choice of table, distributions in words and in tables. The pictures are drawn by
``wbk.games.stalingrad.draw.crt``, whose names are importable from here too."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.dice import Dist, chance
from wbk.errors import WbkError
from wbk.explain import count
from wbk.games import stalingrad
from wbk.games.stalingrad import Crt
from wbk.games.stalingrad.crt import CrtLookup, chances_in_words
from wbk.games.stalingrad.draw.crt import (  # noqa: F401 (importable from here, as before the move)
    DIMMED,
    GERMAN,
    LOOKUP_SIZE,
    NO_EFFECT,
    NOT_THIS_STEP,
    SEVERITY,
    SOVIET,
    WITH,
    WITHOUT,
    _signed,
    code_colours,
    code_label,
    code_order,
    crt_bars,
    crt_title,
    draw_crt,
    lookup_picture,
)
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
)
from wbk.widgets.files import FileInput

FROM_FILE = "file"
TABLES = [
    ("illustrative 1d6 (not the published table)", "illustrative_1d6"),
    ("illustrative 2d6 (not the published table)", "illustrative_2d6"),
    ("my CRT file", FROM_FILE),
]


# --- CRTs -----------------------------------------------------------------------------------


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
) -> ChartPanel:
    """Lay a panel's controls (and ``extras``, by their names) out in these rows (each
    wrapping if the page is narrow), so that the controls and the picture fit on one screen."""
    for control in panel.controls.values():
        if isinstance(control, widgets.ToggleButtons):
            control.style.button_width = "auto"  # whole labels, never cut off
    parts = {**panel.controls, **(extras or {})}
    _unshrunk(parts.values())
    boxes = [
        widgets.HBox([parts[name] for name in row], layout=widgets.Layout(flex_flow="row wrap"))
        for row in rows
    ]
    panel.control_row.children = boxes
    panel.control_row.layout.flex_flow = "column"  # the rows one under another
    return panel


def choose_crt(table: str, file: FileInput) -> Crt:
    """A shipped table by name, or the user's file (its errors name the file and the key)."""
    if table != FROM_FILE:
        return stalingrad.example_crt(table)
    text, source = file.text()
    return Crt.from_toml(text, source=source)


def in_words(dist: Dist, crt: Crt | None = None, *, what: str = "") -> str:
    """A distribution in one line, each outcome with its exact chance: "pinned: 1/2 (50%), ...",
    each outcome after ``what`` when given ("column 10-19: 1/2 (50%)"); given the ``crt`` its
    result codes, from mild to severe, say what they do."""
    chances = dist.probabilities()
    if crt is None:
        words = {stalingrad.NO_ATTACK, stalingrad.NO_FIRE}  # not a column: no "column no attack"
        return ", ".join(
            f"{what} {o}: {chance(p)}" if what and o not in words else f"{o}: {chance(p)}"
            for o, p in chances.items()
        )
    return chances_in_words(crt, dist)


def dist_table(
    columns: dict[str, Dist], *, order: list | None = None, labels: dict | None = None
) -> str:
    """Several distributions side by side as an HTML table: exact fraction and percentage."""
    outcomes = order or sorted({o for d in columns.values() for o in d.outcomes()}, key=str)
    head = "".join(f"<th>{html.escape(name)}</th>" for name in columns)
    rows = []
    for o in outcomes:
        cells = "".join(f"<td>{chance(d.probability(o))}</td>" for d in columns.values())
        name = (labels or {}).get(o, str(o))
        rows.append(f"<tr><th>{html.escape(name)}</th>{cells}</tr>")
    return (
        f'<table class="wbk-dist"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


#: The seed's worked example of 9.67 as the lookups it makes, one click away: the attack's
#: 15 AF on its own column and with the bonus, and the defender's 3 DF firing first.
PRESETS: dict[str, dict[str, object]] = {
    "9.67: 15 AF on the 10-19 column": {
        "table": "illustrative_1d6",
        "strength": "15",
        "shift": 0,
        "drm": 0,
    },
    "9.67: 15 AF with the Close Assault Bonus, 20-29 (shift +1)": {
        "table": "illustrative_1d6",
        "strength": "15",
        "shift": 1,
        "drm": 0,
    },
    "9.67: the defender's 3 DF fires first on the 4 column (shift +1)": {
        "table": "illustrative_1d6",
        "strength": "3",
        "shift": 1,
        "drm": 0,
    },
}


@chart_edge_cases
def crt_explorer(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """Every column of a CRT as a 100% bar of its results, under the table itself; choose an
    attack strength, a column shift and a die roll modifier and see what they change, and step
    through the lookup (the column, the shift, the roll, the DRM, the chances). Load your own
    table from a file."""

    #: the lookup on show, what the figure shows of it (the lookup, the step or None), and the
    #: panel (for its step control, which it gets after its first answer)
    last: dict[str, Any] = {}
    crt_file = file_control(path)

    def compute(table, file, strength, shift, drm) -> CrtLookup:
        crt = choose_crt(table, crt_file)
        af = parse_optional_number(strength, "attack strength")
        if af is None:
            raise WbkError("attack strength is blank: type the attack's total AF")
        if af < 0:  # named as the box is, as a strength that is not a number is
            raise WbkError(f"attack strength {af} is not a whole number of 0 or more")
        return crt.lookup(af, shift=shift, drm=drm)  # a strength below the first column is named

    def draw(figure: Figure, lookup: CrtLookup) -> str:
        crt = lookup.crt
        lookup_picture(lookup, figure=figure)
        last["lookup"], last["drawn"] = lookup, (id(lookup), None)
        if "panel" in last:
            last["panel"].show_steps(lookup.steps)
        column, read = lookup.column, lookup.read_column
        labels = {code: code_label(crt, code) for code in crt.effects}
        shown = {f"{column}": crt.on_column(column)}
        if lookup.shift or lookup.drm:
            shown[f"{read}, DRM {_signed(lookup.drm)}"] = lookup.dist
        how = [f"<b>{lookup.strength:,} AF</b> rolls on the {column} column"]
        if lookup.shift:
            way = "right" if lookup.shift > 0 else "left"
            how.append(f"{count(abs(lookup.shift), 'column')} {way}: {read}")
        if lookup.drm:
            how.append(f"the roll modified by {_signed(lookup.drm)}")
        order = [c for c in code_order(crt) if any(d.probability(c) for d in shown.values())]
        table = dist_table(shown, order=order, labels=labels)
        return f"<p>{', '.join(how)}.</p>{table}{crt._repr_html_()}"

    panel = ChartPanel(
        compute,
        draw,
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

    def draw_at_step(k: int) -> None:
        lookup: CrtLookup = last["lookup"]
        step = None if panel.step_control.at_answer else k
        if last["drawn"] == (id(lookup), step):
            return  # already on show (a new answer is drawn whole before its steps are listed)
        panel.figure.clear()
        lookup_picture(lookup, step, figure=panel.figure)
        last["drawn"] = (id(lookup), step)
        if panel.stale:  # a bad input since: the old answer's steps stay dimmed, out of date
            panel.mark_stale()
        panel.canvas.draw_idle()

    _in_rows(panel, [["table", "file"], ["strength", "shift", "drm"]])
    panel.step_control = panel.add_step_control(draw_at_step)
    panel.add_presets(PRESETS)
    last["panel"] = panel
    panel.show_steps(last["lookup"].steps)
    return panel
