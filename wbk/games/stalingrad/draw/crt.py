"""Streets of Stalingrad's CRTs drawn: the table and the bars of its columns, a lookup step by
step (``lookup_picture``), the explorer's picture (``draw_crt``), and the colours of the
result codes the other pictures of the chapter share."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from wbk.dice import Dist, percent
from wbk.draw.maps import BLOCKED_LINE, CLEAR_LINE, CROSSED
from wbk.draw.view import STEP_COLOUR, STEP_EDGE, PictureView, step_index, step_title, wrap_to_width
from wbk.errors import WbkError
from wbk.explain import count
from wbk.games.stalingrad.crt import (
    Crt,
    CrtCode,
    CrtColumn,
    CrtLookup,
    CrtRow,
    codes_mild_to_severe,
)

#: Okabe-Ito colours (colour-blind safe) for result codes from mild to severe; "none" is grey.
NO_EFFECT = "#d9d9d9"
#: Neighbours in this order differ in lightness as well as hue, for readers who cannot tell
#: orange from vermillion.
SEVERITY = ["#F0E442", "#56B4E9", "#E69F00", "#0072B2", "#CC79A7", "#D55E00", "#009E73", "#000000"]
GERMAN, SOVIET = CLEAR_LINE, BLOCKED_LINE
WITHOUT, WITH = CLEAR_LINE, CROSSED


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


@dataclass(frozen=True)
class _Focus:
    """What a lookup's table picture shows as read: at a step, the columns, rows and codes the
    step is ``about`` (none of them: the step is not about the table); the whole answer
    (``about`` None), the cells the lookup reads."""

    about: tuple[object, ...] | None
    columns: frozenset[str]
    rows: frozenset[int]
    codes: frozenset[str]

    @classmethod
    def of(cls, about: tuple[object, ...] | None) -> _Focus:
        items = about or ()
        return cls(
            about,
            frozenset(item.heading for item in items if isinstance(item, CrtColumn)),
            frozenset(item.roll for item in items if isinstance(item, CrtRow)),
            frozenset(item.code for item in items if isinstance(item, CrtCode)),
        )

    @property
    def on_table(self) -> bool:
        """Whether the step is about the table at all."""
        return bool(self.columns or self.rows or self.codes)

    def is_on(self, column: str, roll: int, code: str) -> bool:
        """Whether the step is about this cell."""
        return (
            (not self.columns or column in self.columns)
            and (not self.rows or roll in self.rows)
            and (not self.codes or code in self.codes)
        )


def _crt_table(ax, lookup: CrtLookup, about: tuple[object, ...] | None) -> None:
    """The CRT as a table on ``ax``: columns across, die rows down, each code in its colour;
    the cells the lookup reads outlined (``about`` None), or at a step the cells, headings and
    rows the step is ``about`` outlined and the rest dimmed. A DRM adds a column of the rolls
    that read each row."""
    crt = lookup.crt
    focus = _Focus.of(about)
    marked, cells = _table_cells(ax, lookup, focus)
    _table_headings(ax, lookup, focus)
    # one artist for the table's cells, whose limits are set below (a patch each, added one by
    # one, cost a third of the picture)
    ax.add_collection(PatchCollection(cells, match_original=True), autolim=False)
    right = float(len(crt.columns))
    if lookup.drm:
        right = _rolls_column(ax, lookup, focus, right)
    rolls = list(crt.results)
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
    _table_marks(ax, marked, focus)


def _table_cells(
    ax, lookup: CrtLookup, focus: _Focus
) -> tuple[set[tuple[int, int]], list[Rectangle]]:
    """Each cell's code written in the table (faded where the step is not about it); returns
    the cells to outline, and each cell's patch in its code's colour, to be added at once."""
    crt = lookup.crt
    colours = code_colours(crt)
    read = crt.columns.index(lookup.read_column)
    rows_read = set(lookup.rows.values())
    marked: set[tuple[int, int]] = set()
    cells = []
    for y, roll in enumerate(crt.results):
        for x, (column, code) in enumerate(zip(crt.columns, crt.results[roll], strict=True)):
            faded = focus.on_table and not focus.is_on(column, roll, code)
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
            if focus.about is None and x == read and roll in rows_read:
                marked.add((x, y))
            elif focus.on_table and not faded:
                marked.add((x, y))
    return marked, cells


def _table_headings(ax, lookup: CrtLookup, focus: _Focus) -> None:
    """The columns' headings (the attack's own in bold) and the rolls down the side, those the
    step is not about faded."""
    crt = lookup.crt
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
            alpha=DIMMED if focus.columns and column not in focus.columns else 1.0,
        )
    ax.text(-0.5, -0.5, "roll", ha="center", va="center", fontsize=7, style="italic")
    for y, roll in enumerate(crt.results):
        faded = bool(focus.rows) and roll not in focus.rows
        ax.text(
            -0.5,
            y + 0.5,
            str(roll),
            ha="center",
            va="center",
            fontsize=8,
            alpha=DIMMED if faded else 1.0,
        )


def _rolls_column(ax, lookup: CrtLookup, focus: _Focus, right: float) -> float:
    """Right of the table, which modified rolls read each row; returns the table's new right
    edge."""
    ax.text(
        right + 0.9,
        -0.5,
        f"rolls\nDRM {_signed(lookup.drm)}",
        ha="center",
        va="center",
        fontsize=7,
        style="italic",
    )
    for y, roll in enumerate(lookup.crt.results):
        readers = [r for r, row in lookup.rows.items() if row == roll]
        words = ", ".join(str(r) for r in readers) if readers else "–"
        ax.text(
            right + 0.9,
            y + 0.5,
            words,
            ha="center",
            va="center",
            fontsize=8,
            alpha=DIMMED if (focus.rows and roll not in focus.rows) else 1.0,
        )
    return right + 1.8


def _table_marks(ax, marked: set[tuple[int, int]], focus: _Focus) -> None:
    """The cells read outlined, and the legend of the outline (and of the fading)."""
    if focus.about is None:
        _outline(ax, marked, STEP_EDGE, 1.5)
        entries = [Patch(facecolor="none", edgecolor=STEP_EDGE, linewidth=2, label="cells read")]
    else:
        _outline(ax, marked, STEP_COLOUR, 2.5)
        entries = [
            Patch(facecolor="none", edgecolor=STEP_COLOUR, linewidth=2.5, label="this step"),
        ]
        if focus.on_table:
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
    """A CRT lookup's picture (``wbk.draw.picture`` hands one here): the table, the cells
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
