"""The Streets of Stalingrad chapter's CRT explorer, and the parts its panels share: the
choice of table, result colours, bars of a CRT's columns, distributions in words."""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from wbk.dice import Dist, chance, percent
from wbk.errors import WbkError
from wbk.explain import count
from wbk.games import stalingrad
from wbk.games.stalingrad import Crt
from wbk.games.stalingrad.crt import (
    CrtCode,
    CrtColumn,
    CrtLookup,
    CrtRow,
    chances_in_words,
    codes_mild_to_severe,
)
from wbk.pictures import STEP_COLOUR, STEP_EDGE, step_index, step_title
from wbk.plot import (
    BLOCKED_LINE,
    CLEAR_LINE,
    CROSSED,
    PictureView,
    wrap_to_width,
)
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
)
from wbk.widgets.files import FileInput

#: Okabe-Ito colours (colour-blind safe) for result codes from mild to severe; "none" is grey.
NO_EFFECT = "#d9d9d9"
#: Neighbours in this order differ in lightness as well as hue, for readers who cannot tell
#: orange from vermillion.
SEVERITY = ["#F0E442", "#56B4E9", "#E69F00", "#0072B2", "#CC79A7", "#D55E00", "#009E73", "#000000"]
GERMAN, SOVIET = CLEAR_LINE, BLOCKED_LINE
WITHOUT, WITH = CLEAR_LINE, CROSSED
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
    panel.widget.children = (widgets.VBox(boxes), *panel.widget.children[1:])
    return panel


def choose_crt(table: str, file: FileInput) -> Crt:
    """A shipped table by name, or the user's file (its errors name the file and the key)."""
    if table != FROM_FILE:
        return stalingrad.example_crt(table)
    text, source = file.text()
    return Crt.from_toml(text, source=source)


def code_order(crt: Crt) -> list[str]:
    """The table's result codes from mild to severe ("-", "P", "1", ...)."""
    return codes_mild_to_severe(crt)


def code_colours(crt: Crt) -> dict[str, str]:
    """A colour per result code: grey for no effect, then Okabe-Ito colours by severity."""
    colours, i = {}, 0
    for code in code_order(crt):
        if crt.effect(code).hurts:
            colours[code] = SEVERITY[i % len(SEVERITY)]
            i += 1
        else:
            colours[code] = NO_EFFECT
    return colours


def code_label(crt: Crt, code: str) -> str:
    """A code and what it does: "P: pin", "no effect (-)"."""
    effect = crt.effect(code)
    return f"{code}: {effect}" if effect.hurts else f"no effect ({code})"


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 110


def crt_bars(
    crt: Crt, *, ax, shift: int = 0, drm: int = 0, strength: int | None = None
) -> dict[str, Dist]:
    """Every column of ``crt`` as a 100% bar of its result codes, ``shift`` columns to the right
    and the roll modified by ``drm``; the column of ``strength`` is marked. Returns the
    distributions drawn, by column."""
    colours = code_colours(crt)
    marked = None if strength is None else crt.column_for(strength)
    names, dists = [], {}
    for column in crt.columns:
        read = crt.shift(column, shift)
        dists[column] = crt.on_column(read, drm=drm)
        name = column if read == column else f"{column} → {read}"
        names.append(f"{name}  ({strength} AF)" if column == marked else name)
    left = np.zeros(len(names))
    for code in code_order(crt):
        exact = [d.probability(code) for d in dists.values()]
        widths = np.array([float(p) for p in exact])
        if not widths.any():
            continue
        bars = ax.barh(
            names,
            widths,
            left=left,
            color=colours[code],
            edgecolor="white",
            linewidth=0.5,
            label=code_label(crt, code),
        )
        ax.bar_label(
            bars,
            labels=[percent(p) if p >= Fraction(1, 10) else "" for p in exact],
            label_type="center",
            fontsize=7,
            color="white" if _dark(colours[code]) else "black",
        )
        left += widths
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    ax.set_ylabel("column (AF)" if not shift else "the attack's column → the column rolled on")
    for tick in ax.get_yticklabels():
        if "AF)" in tick.get_text():
            tick.set_fontweight("bold")
    ax.legend(
        ncols=min(len(crt.effects), 3),
        fontsize=7,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.09),
        frameon=False,
    )
    ax.spines[["top", "right"]].set_visible(False)
    return dists


def _hurt(crt: Crt, dist: Dist) -> Fraction:
    return dist.map(lambda code: crt.effect(code).hurts).probability(True)


def _loss(crt: Crt, dist: Dist) -> Fraction:
    return dist.map(lambda code: crt.effect(code).losses(99) > 0).probability(True)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def crt_title(crt: Crt, strength: int, shift: int = 0, drm: int = 0) -> str:
    """The explorer's answer: what the strength's column gives, and what the shift and the DRM
    change, in two lines under the table's name."""
    column = crt.column_for(strength)
    read = crt.shift(column, shift)
    plain, changed = crt.on_column(column), crt.on_column(read, drm=drm)
    if not shift and not drm:
        return (
            f"{crt.name}\n{strength:,} AF on {column}: pin or worse {percent(_hurt(crt, plain))}, "
            f"a unit lost {percent(_loss(crt, plain))}"
        )
    moves = []
    if shift:
        moves.append(
            f"{count(abs(shift), 'column')} {'right' if shift > 0 else 'left'} ({column} → {read})"
        )
    if drm:
        moves.append(f"DRM {_signed(drm)}")
    return (
        f"{crt.name}\n{strength:,} AF, {' and '.join(moves)}: pin or worse "
        f"{percent(_hurt(crt, plain))} → {percent(_hurt(crt, changed))}, a unit lost "
        f"{percent(_loss(crt, plain))} → {percent(_loss(crt, changed))}"
    )


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


#: How much of its colour a cell, a bar or a label a step is not about keeps.
DIMMED = 0.2
#: The shade of "not this step" in the legend: a cell at ``DIMMED``.
NOT_THIS_STEP = "#bdbdbd"
#: The lookup picture's size (inches): the table over the bars of every column.
LOOKUP_SIZE = (6.4, 6.8)


def _outline(ax, cells: set[tuple[int, int]], colour: str, width: float) -> list[Rectangle]:
    """Each run of cells one above the other in a column outlined as one box: a dark edge under
    ``colour``, so that it shows on a cell of any colour."""
    boxes = []
    for x in sorted({x for x, _ in cells}):
        ys = sorted(y for cx, y in cells if cx == x)
        runs: list[list[int]] = []
        for y in ys:
            if runs and runs[-1][-1] == y - 1:
                runs[-1].append(y)
            else:
                runs.append([y])
        for run in runs:
            for edge, line in ((STEP_EDGE, width + 2), (colour, width)):
                box = Rectangle(
                    (x, run[0]),
                    1,
                    len(run),
                    facecolor="none",
                    edgecolor=edge,
                    linewidth=line,
                    zorder=4 if edge == STEP_EDGE else 5,
                )
                boxes.append(ax.add_patch(box))
    return boxes


def _crt_table(ax, lookup: CrtLookup, about: tuple[object, ...] | None) -> None:
    """The CRT as a table on ``ax``: columns across, die rows down, each code in its colour;
    the cells the lookup reads outlined (``about`` None), or at a step the cells, headings and
    rows the step is ``about`` outlined and the rest dimmed. A DRM adds a column of the rolls
    that read each row."""
    crt = lookup.crt
    colours = code_colours(crt)
    rolls = list(crt.results)
    columns = {item.heading for item in about or () if isinstance(item, CrtColumn)}
    rows = {item.roll for item in about or () if isinstance(item, CrtRow)}
    codes = {item.code for item in about or () if isinstance(item, CrtCode)}
    on_table = bool(columns or rows or codes)
    read = crt.columns.index(lookup.read_column)
    rows_read = set(lookup.rows.values())

    def is_on(column: str, roll: int, code: str) -> bool:
        return (
            (not columns or column in columns)
            and (not rows or roll in rows)
            and (not codes or code in codes)
        )

    marked: set[tuple[int, int]] = set()
    cells = []
    for y, roll in enumerate(rolls):
        for x, (column, code) in enumerate(zip(crt.columns, crt.results[roll], strict=True)):
            faded = on_table and not is_on(column, roll, code)
            alpha = DIMMED if faded else 1.0
            cells.append(
                Rectangle((x, y), 1, 1, facecolor=colours[code], edgecolor="white", alpha=alpha)
            )
            ax.text(
                x + 0.5,
                y + 0.5,
                code,
                ha="center",
                va="center",
                fontsize=8,
                alpha=alpha,
                color="white" if _dark(colours[code]) else "black",
            )
            if about is None and x == read and roll in rows_read:
                marked.add((x, y))
            elif on_table and not faded:
                marked.add((x, y))
    for x, column in enumerate(crt.columns):
        bold = column == lookup.column
        ax.text(
            x + 0.5,
            -0.5,
            column,
            ha="center",
            va="center",
            fontsize=8,
            fontweight="bold" if bold else "normal",
            alpha=DIMMED if columns and column not in columns else 1.0,
        )
    ax.text(-0.5, -0.5, "roll", ha="center", va="center", fontsize=7, style="italic")
    for y, roll in enumerate(rolls):
        faded = bool(rows) and roll not in rows
        ax.text(
            -0.5,
            y + 0.5,
            str(roll),
            ha="center",
            va="center",
            fontsize=8,
            alpha=DIMMED if faded else 1.0,
        )
    # one artist for the table's cells, whose limits are set below (a patch each, added one by
    # one, cost a third of the picture)
    ax.add_collection(PatchCollection(cells, match_original=True), autolim=False)
    right = float(len(crt.columns))
    if lookup.drm:  # which rolls read each row once modified
        ax.text(
            right + 0.9,
            -0.5,
            f"rolls\nDRM {_signed(lookup.drm)}",
            ha="center",
            va="center",
            fontsize=7,
            style="italic",
        )
        for y, roll in enumerate(rolls):
            readers = [r for r, row in lookup.rows.items() if row == roll]
            words = ", ".join(str(r) for r in readers) if readers else "–"
            ax.text(
                right + 0.9,
                y + 0.5,
                words,
                ha="center",
                va="center",
                fontsize=8,
                alpha=DIMMED if (rows and roll not in rows) else 1.0,
            )
        right += 1.8
    ax.text(
        right / 2 - 0.5,
        len(rolls) + 0.45,
        f"{crt.name}, rolled on {crt.die}",
        ha="center",
        va="center",
        fontsize=7,
        style="italic",
    )
    ax.set_xlim(-1.05, right + 0.05)
    ax.set_ylim(len(rolls) + 0.9, -1.05)
    ax.set_axis_off()
    for text in ax.texts:  # all inside the axes: the layout need not measure each
        text.set_in_layout(False)
    if about is None:
        _outline(ax, marked, STEP_EDGE, 1.5)
        entries = [Patch(facecolor="none", edgecolor=STEP_EDGE, linewidth=2, label="cells read")]
    else:
        _outline(ax, marked, STEP_COLOUR, 2.5)
        entries = [
            Patch(facecolor="none", edgecolor=STEP_COLOUR, linewidth=2.5, label="this step"),
        ]
        if on_table:
            entries.append(Patch(facecolor=NOT_THIS_STEP, label="not this step (faded)"))
    ax.legend(
        handles=entries,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncols=len(entries),
        fontsize=7,
        frameon=False,
    )


def lookup_picture(
    lookup: CrtLookup, step: int | None = None, *, figure: Figure | None = None
) -> Figure:
    """A CRT lookup's picture (``wbk.pictures.picture`` hands one here): the table, the cells
    the attack reads outlined, over the bars of every column as the explorer draws them, the
    answer in the title. ``step``: the lookup at that step of its ``steps``: the column, rows
    and cells the step is about outlined in sky blue, the rest faded, the step in words with
    its rule as the title; None, the whole answer. Draws on ``figure`` (cleared first) or a new
    one; returns it."""
    if not isinstance(lookup, CrtLookup):
        raise WbkError(f"{lookup!r} is not a CRT lookup (Crt.lookup's answer)")
    k = None if step is None else step_index(lookup.steps, step)
    if figure is None:
        figure = Figure(figsize=LOOKUP_SIZE, layout="constrained")
    crt = lookup.crt
    # two subfigures: the table is not narrowed to the bars' axes by their long column names
    top, bottom = figure.subfigures(
        2, 1, height_ratios=(len(crt.results) + 3, len(crt.columns) + 2.5), squeeze=False
    ).flat
    bars = bottom.add_subplot()  # first: the figure's first axes, as the explorer's were
    table = top.add_subplot()
    crt_bars(crt, ax=bars, shift=lookup.shift, drm=lookup.drm, strength=lookup.strength)
    if k is None:
        _crt_table(table, lookup, None)
        title = crt_title(crt, lookup.strength, lookup.shift, lookup.drm)
        width = figure.get_figwidth() * 72 * 0.96
        figure.suptitle("\n".join(wrap_to_width(title, width, 9)), fontsize=9)
        return figure
    step_on_show = lookup.steps[k]
    _crt_table(table, lookup, step_on_show.about)
    if any(isinstance(item, (CrtColumn, CrtRow, CrtCode)) for item in step_on_show.about):
        answer = crt.columns.index(lookup.column)
        for container in bars.containers:
            for i, bar in enumerate(container):
                if i != answer:
                    bar.set_alpha(DIMMED)
        for i, text in enumerate(bars.texts):  # each code's bar labels, a column each
            if i % len(crt.columns) != answer:
                text.set_alpha(DIMMED)
        for i, tick in enumerate(bars.get_yticklabels()):
            if i != answer:
                tick.set_alpha(DIMMED)
    if any(isinstance(item, CrtCode) for item in step_on_show.about):  # the verdict's chances
        for spine in bars.spines.values():
            spine.set_visible(True)
            spine.set(color=STEP_COLOUR, linewidth=3)
    words = f"Step {k + 1} of {len(lookup.steps)}: {step_on_show.text} ({step_on_show.rule})"
    view = PictureView(table)
    view.figure = figure  # the title wraps to the width of the figure (the table's subfigure's)
    step_title(view, words)
    return figure


def draw_crt(crt: Crt, strength: int, *, shift: int = 0, drm: int = 0):
    """The CRT explorer's picture on a new figure: every column as a 100% bar, ``strength``'s
    column marked, the answer (with the table's name) in the title. Returns the figure."""
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(6.4, 4.4), layout="constrained")
    crt_bars(crt, ax=ax, shift=shift, drm=drm, strength=strength)
    figure.suptitle(crt_title(crt, strength, shift, drm), fontsize=9)
    return figure


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
