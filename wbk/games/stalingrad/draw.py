"""Streets of Stalingrad's results drawn (see ``wbk.draw``): a lookup on a CRT (the table over
the bars of every column), 9.67's advice (the units lost without and with the bonus), a retreat
on its map (9.87-9.89), each whole or at one of its steps; what another reading changes, marked
over a panel's picture; and its quiz questions on their map (``wbk.draw.quiz``)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from matplotlib import patheffects
from matplotlib.artist import Artist
from matplotlib.collections import PatchCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.text import Text

from wbk.dice import Dist, percent
from wbk.draw import in_figure, on_board
from wbk.draw.maps import BLOCKED_LINE, CLEAR_LINE, CROSSED, MapView, center
from wbk.draw.quiz import QuestionDrawing, mark_chosen_hexes, question_drawing
from wbk.draw.view import (
    SKY_BLUE,
    STEP_COLOUR,
    STEP_EDGE,
    PictureView,
    step_index,
    step_title,
    wrap_to_width,
)
from wbk.explain import Step, count
from wbk.hexgrid import Hex

from .close_assault import ABOUT_ATTACK, ABOUT_FIRE, ABOUT_WITH, ABOUT_WITHOUT, CloseAssault
from .crt import Crt, CrtCode, CrtColumn, CrtLookup, CrtRow, code_label, codes_mild_to_severe
from .quiz import RetreatHexes, RetreatLosses
from .readings import ASSAULT_READINGS, RETREAT_READINGS
from .retreat import Retreat, eliminated_words
from .situation import Situation

# --- a CRT and a lookup on it ----------------------------------------------------------------

#: Okabe-Ito colours (colour-blind safe) for result codes from mild to severe; "none" is grey.
NO_EFFECT = "#d9d9d9"
#: Neighbours in this order differ in lightness as well as hue, for readers who cannot tell
#: orange from vermillion.
SEVERITY = ["#F0E442", "#56B4E9", "#E69F00", "#0072B2", "#CC79A7", "#D55E00", "#009E73", "#000000"]
GERMAN, SOVIET = CLEAR_LINE, BLOCKED_LINE
WITHOUT, WITH = CLEAR_LINE, CROSSED


def code_colours(crt: Crt) -> dict[str, str]:
    """A colour per result code: grey for no effect, then Okabe-Ito colours by severity."""
    colours, i = {}, 0
    for code in codes_mild_to_severe(crt):
        if crt.effect(code).hurts:
            colours[code] = SEVERITY[i % len(SEVERITY)]
            i += 1
        else:
            colours[code] = NO_EFFECT
    return colours


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 110


def crt_bars(crt: Crt, *, ax, shift: int = 0, drm: int = 0, strength: int | None = None) -> None:
    """Every column of ``crt`` as a 100% bar of its result codes, ``shift`` columns to the right
    and the roll modified by ``drm``; the column of ``strength`` is marked."""
    colours = code_colours(crt)
    marked = None if strength is None else crt.column_for(strength)
    names, dists = [], {}
    for column in crt.columns:
        read = crt.shift(column, shift)
        dists[column] = crt.on_column(read, drm=drm)
        name = column if read == column else f"{column} → {read}"
        names.append(f"{name}  ({strength} AF)" if column == marked else name)
    left = np.zeros(len(names))
    for code in codes_mild_to_severe(crt):
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


def _hurt(crt: Crt, dist: Dist) -> Fraction:
    return dist.map(lambda code: crt.effect(code).hurts).probability(True)


def _loss(crt: Crt, dist: Dist) -> Fraction:
    return dist.map(lambda code: crt.effect(code).losses(99) > 0).probability(True)


def lookup_title(lookup: CrtLookup) -> str:
    """A lookup's answer: what the strength's column gives, and what the shift and the DRM
    change, in two lines under the table's name."""
    crt, strength, shift, drm = lookup.crt, lookup.strength, lookup.shift, lookup.drm
    column, read = lookup.column, lookup.read_column
    plain, changed = crt.on_column(column), lookup.dist
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
        moves.append(f"DRM {drm:+d}")
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
        f"rolls\nDRM {lookup.drm:+d}",
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


@in_figure.register
def _lookup(lookup: CrtLookup, figure: Figure, *, step: int | None = None) -> None:
    """A CRT lookup: the table, the cells the attack reads outlined, over the bars of every
    column as the explorer draws them, the answer in the title; at a step, the column, rows and
    cells the step is about outlined in sky blue, the rest faded, the step in words with its
    rule as the title."""
    figure.set_size_inches(*LOOKUP_SIZE)
    figure.set_layout_engine("constrained")
    k = None if step is None else step_index(lookup.steps, step)
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
        title = lookup_title(lookup)
        width = figure.get_figwidth() * 72 * 0.96
        figure.suptitle("\n".join(wrap_to_width(title, width, 9)), fontsize=9)
        return
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


# --- 9.67: the Close Assault Bonus ---------------------------------------------------------


def _grouped_bars(ax, dists: dict[str, Dist], colours: dict[str, str], title: str) -> None:
    outcomes = sorted({o for d in dists.values() for o in d.outcomes()})
    width = 0.8 / len(dists)
    # past three outcomes a pair of bars is narrower than "41.67%": the numbers stand upright
    upright = len(outcomes) > 3
    for i, (name, dist) in enumerate(dists.items()):
        xs = [j + (i - (len(dists) - 1) / 2) * width for j in range(len(outcomes))]
        ps = [dist.probability(o) for o in outcomes]
        bars = ax.bar(
            xs,
            [float(p) for p in ps],
            width=width,
            color=colours[name],
            label=name,
            hatch="//" if i else None,
            edgecolor="white",
        )
        ax.bar_label(
            bars,
            labels=[percent(p) if p else "" for p in ps],
            fontsize=7,
            padding=1,
            rotation=90 if upright else 0,
        )
    ax.set_xticks(range(len(outcomes)), [str(o) for o in outcomes])
    ax.set_ylim(0, 1.3 if upright else 1.15)
    ax.set_yticks([step / 5 for step in range(6)])  # the room above 100% is for the numbers
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_title(title, fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)


def assault_title(a: CloseAssault) -> str:
    """The verdict, wrapped, above the table's name and the readings that differ from the
    defaults ("[no fire without the bonus]")."""
    words = [r.tag(a.readings.get(r.keyword, r.default)) for r in ASSAULT_READINGS]
    words = [tag for tag in words if tag]
    tag = f" [{'; '.join(words)}]" if words else ""
    return "\n".join(textwrap.wrap(a.verdict, 95)) + f"\non the {a.crt.name}{tag}"


def assault_bars(a: CloseAssault, figure: Figure, step: int | None = None) -> None:
    """Defending and attacking units lost, without and with the bonus, side by side.

    ``step``: the advice at that step of its ``steps``: the chart the step is about (the
    attack's result or the defender's fire) framed in sky blue, the bars it is not about faded,
    and the step in words as the figure's title; None draws the whole answer."""
    left, right = figure.subplots(1, 2)
    without, with_ = "without the bonus", "with the Close Assault Bonus"
    colours = {without: WITHOUT, with_: WITH}
    defenders = {without: a.without.defender_losses}
    attackers = {without: a.without.attacker_losses}
    if a.with_bonus is not None:
        defenders[with_] = a.with_bonus.defender_losses
        attackers[with_] = a.with_bonus.attacker_losses
    _grouped_bars(left, defenders, colours, "defending units eliminated")
    _grouped_bars(right, attackers, colours, "attacking units lost to the defender's fire")
    handles, names = left.get_legend_handles_labels()
    figure.legend(handles, names, loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    if step is not None:
        k = step_index(a.steps, step)
        about = set(a.steps[k].about)
        for ax, kind in ((left, ABOUT_ATTACK), (right, ABOUT_FIRE)):
            charts = about & {ABOUT_ATTACK, ABOUT_FIRE}
            groups = about & {ABOUT_WITHOUT, ABOUT_WITH}
            if kind in charts:
                for spine in ax.spines.values():
                    spine.set_visible(True)
                    spine.set(color=STEP_COLOUR, linewidth=3)
            for container in ax.containers:
                label = container.get_label()
                group = ABOUT_WITHOUT if label == without else ABOUT_WITH
                if (charts and kind not in charts) or (groups and group not in groups):
                    for bar in container:
                        bar.set_alpha(0.2)
        words = f"Step {k + 1} of {len(a.steps)}: {a.steps[k].text} ({a.steps[k].rule})"
        figure.suptitle("\n".join(textwrap.wrap(words, 95)), fontsize=9)


@in_figure.register
def _assault(a: CloseAssault, figure: Figure, *, step: int | None = None) -> None:
    figure.set_size_inches(7.0, 3.8)
    figure.set_layout_engine("constrained")
    assault_bars(a, figure, step)
    if step is None:
        figure.suptitle(assault_title(a), fontsize=9)


#: The other reading's chances, drawn over the bars: a black dash where a bar would move.
OTHER_READING = "#1a1a1a"


def mark_other_reading(figure: Figure, a: CloseAssault, other: CloseAssault, value: str) -> bool:
    """Over the bars of ``a`` drawn by ``assault_bars``, a black dash at each chance that
    ``other`` (the advice under another reading, ``value``) moves, and its verdict under the
    title if it differs; returns whether anything a reader sees changes."""
    groups = {
        ABOUT_WITHOUT: (a.without, other.without),
        ABOUT_WITH: (a.with_bonus, other.with_bonus),
    }
    moved = False
    for ax, losses in zip(figure.axes[:2], ("defender_losses", "attacker_losses"), strict=True):
        outcomes = [tick.get_text() for tick in ax.get_xticklabels()]
        for container in ax.containers:
            group = ABOUT_WITHOUT if container.get_label() == "without the bonus" else ABOUT_WITH
            mine, theirs = groups[group]
            if mine is None or theirs is None:
                moved |= (mine is None) != (theirs is None)
                continue
            dist_mine, dist_theirs = getattr(mine, losses), getattr(theirs, losses)
            moved |= dist_mine != dist_theirs
            for bar, outcome in zip(container, outcomes, strict=False):
                key = next((o for o in dist_mine.outcomes() if str(o) == outcome), None)
                p = dist_theirs.probability(key) if key is not None else 0
                if key is not None and p != dist_mine.probability(key):
                    x = bar.get_x() + bar.get_width() / 2
                    ax.plot(
                        [x],
                        [float(p)],
                        marker="_",
                        markersize=16,
                        markeredgewidth=2.5,
                        color=OTHER_READING,
                        zorder=5,
                        label=f"under '{value}'",
                    )
    if other.verdict != a.verdict:
        moved = True
        title = figure.get_suptitle()
        verdict = "\n".join(textwrap.wrap(f"under '{value}': {other.verdict}", 95))
        figure.suptitle(f"{title}\n{verdict}", fontsize=9)
    dashes = [line for ax in figure.axes for line in ax.lines][:1]
    if dashes:  # the bars' legend again, the other reading's dash beside its two entries
        handles, names = figure.axes[0].get_legend_handles_labels()
        for legend in figure.legends:
            legend.remove()
        figure.legend(
            [*handles, *dashes],
            [*names, f"under '{value}'"],
            loc="outside lower center",
            ncols=3,
            fontsize=8,
            frameon=False,
        )
    return moved


# --- 9.87-9.89: a retreat on its map -------------------------------------------------------


BOMBARDED = "#CC79A7"
#: The retreat chosen: sky blue, outlined, over the green of the legal hexes.
RETREAT = SKY_BLUE
#: The legal retreat hexes: a translucent green, the terrain showing through.
OPEN_HEX = (0.16, 0.55, 0.27, 0.45)
#: The hatching of the hexes in the enemy's ZOC.
ZOC = "#8c8c8c"
SIDE_COLOURS = {"German": GERMAN, "Soviet": SOVIET}
#: Units' names go over the arrows, markers and hex numbers, and the hex numbers over the
#: arrows: a label is never covered.
Z_UNIT_NAMES, Z_ARROWS = 11, 8.6
#: The mark before the name of a unit eliminated.
LOST_MARK = "✗"
#: Names printed in one hex; more units are summed up on the last line ("+2 more").
MOST_LINES = 4
LINE_SPACING = 0.24
#: The outline of the hexes whose part in the retreat another reading changes (vermillion).
CHANGED = "#D55E00"


def retreat_changes(r: Retreat, other: Retreat) -> frozenset[Hex]:
    """The hexes entering or leaving the retreat under another reading: open to one and not
    the other, or chosen by one and not the other."""

    def open_and_chosen(x: Retreat) -> tuple[frozenset[Hex], frozenset[Hex]]:
        opened = frozenset().union(*x.options.values())
        return opened, frozenset(h for h in x.best.values() if h is not None)

    (open1, chosen1), (open2, chosen2) = open_and_chosen(r), open_and_chosen(other)
    return (open1 ^ open2) | (chosen1 ^ chosen2)


def readings_tag(readings: dict[str, str]) -> str:
    """The readings that differ from the defaults, for a title: "[all into one hex]" ("" if
    none), so that a picture says what it assumes."""
    words = [r.tag(readings.get(r.keyword, r.default)) for r in RETREAT_READINGS]
    words = [tag for tag in words if tag]
    return f"[{'; '.join(words)}]" if words else ""


def unit_label(name: str, eliminated: bool = False, *, longest: int = 11) -> str:
    """A unit's name as printed in its hex: whole up to ``longest`` characters, else cut short
    with "…"; an eliminated unit's marked "✗"."""
    short = name if len(name) <= longest else name[: longest - 1].rstrip() + "…"
    return f"{LOST_MARK} {short}" if eliminated else short


def _moves(r: Retreat) -> str:
    """Where the retreating units go: "1/42 Rifle retreats to 1314", "A to 1314, B to 1315",
    or, when that is long, "retreat into 1213, 1214 and 1314 (4 units)"."""
    moves = [(name, r.map.label(h)) for name, h in r.best.items() if h is not None]
    if len(moves) == 1:
        return f"{moves[0][0]} retreats to {moves[0][1]}"
    named = "retreat: " + ", ".join(f"{name} to {label}" for name, label in moves)
    if len(named) <= 60:
        return named
    hexes = sorted({label for _, label in moves})
    into = hexes[0] if len(hexes) == 1 else f"{', '.join(hexes[:-1])} and {hexes[-1]}"
    return f"retreat into {into} ({count(len(moves), 'unit')})"


def retreat_title(r: Retreat) -> str:
    """The answer in the picture's title: the terrain, the verdict (with the readings that
    differ from the defaults), who goes where and who is eliminated."""
    title = _retreat_title(r)
    tag = readings_tag(dict(r.readings))
    first, newline, rest = title.partition("\n")
    return f"{first} {tag}{newline}{rest}" if tag else title


def _retreat_title(r: Retreat) -> str:
    where = r.map.label(r.target)
    if r.terrain == "other":
        kinds = ", ".join(sorted(r.map.terrain(r.target)))
        return (
            f'"P" in {kinds} {where}: the units are only pinned, no retreat\n'
            "(9.87-9.89 cover clear, balka, forest and suburb/village hexes)"
        )
    lost = lost_units(r)
    total = len(r.eliminated) + len(r.best)
    if r.may_stay and r.stay is not None:
        stay, go = r.stay.cost, len(lost)
        if stay < go:
            verdict = f"stay: it costs {count(stay, 'unit')}, a retreat {go}"
        elif go < stay:
            verdict = f"retreat: it costs {count(go, 'unit') if go else 'nothing'}, staying {stay}"
        else:
            verdict = f"stay or retreat: each costs {count(go, 'unit')}"
        first = f'"P" in {r.terrain} {where}: {verdict}'
        second = f"staying gives up {r.stay_eliminates}"
        if r.stay.cost == len(r.eliminated):
            second += ", lost anyway"
        if lost:
            second = f"retreating loses {', '.join(lost)}; {second}"
        return "\n".join([first, *textwrap.wrap(second, 75)])
    first = f'"P" in clear {where}: {eliminated_words(len(lost), total)}'
    if lost:
        first += f" ({', '.join(lost)})"
    details = []
    if len(lost) < total:
        details.append(_moves(r))
    if r.unaffected:
        details.append(f"untouched (9.89): {', '.join(sorted(r.unaffected))}")
    if len(lost) == 0 and len(details) == 1 and len(first) + len(details[0]) < 75:
        return f"{first}: {details[0]}"
    return "\n".join([first, *textwrap.wrap("; ".join(details), 75)])


def lost_units(r: Retreat) -> list[str]:
    """The units a retreat eliminates: those that never retreat, then those left without room."""
    return sorted(r.eliminated) + [name for name, h in r.best.items() if h is None]


def retreat_arrows(target: Hex, hexes) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """(start, end) of an arrow from ``target`` into each of ``hexes``: from the edge of the
    defending hex to the middle of the next, clear of the markers, the unit counts below them,
    the cross of the units lost and the hex labels at the top (an arrow north or south, along
    the labels, is moved to their left)."""
    x0, y0 = center(target)
    arrows = []
    for x, y in (center(h) for h in sorted(hexes)):
        dx, dy = x - x0, y - y0
        side = -0.45 if abs(dx) < 0.01 else 0.0
        arrows.append(
            (
                (x0 + 0.4 * dx + side, y0 + 0.4 * dy),
                (x0 + 0.78 * dx + side, y0 + 0.78 * dy),
            )
        )
    return arrows


class RetreatOverlay:
    """A situation and its retreat drawn over a ``MapView``: the units (their short names in
    their hexes, in their side's colour, drawn over everything), attacked and bombarded hexes
    hatched, the defending hex outlined, the legal retreat hexes shaded, the retreat chosen
    drawn, the units lost marked "✗"; the answer in the title and every mark in the legend."""

    def __init__(self, view: MapView):
        self.view = view
        ax = view.ax
        self.attacked = PolyCollection(
            [], facecolors="none", edgecolors=CROSSED, hatch="//", linewidths=1.5, zorder=4
        )
        self.bombarded = PolyCollection(
            [], facecolors="none", edgecolors=BOMBARDED, hatch="xx", linewidths=1.5, zorder=4
        )
        self.target = PolyCollection(
            [], facecolors="none", edgecolors="black", linewidths=3, zorder=5
        )
        self.zoc = PolyCollection(
            [], facecolors="none", edgecolors=ZOC, hatch="\\", linewidths=0.5, zorder=3
        )
        # its own layer, not the map's one shade layer, which a step's dimming takes over
        self.open = PolyCollection(
            [], facecolors=OPEN_HEX, edgecolors=OPEN_HEX, linewidths=0, zorder=2.5
        )
        for artist in (self.open, self.zoc, self.attacked, self.bombarded, self.target):
            ax.add_collection(artist)
        self.zoc_hexes: frozenset[Hex] = frozenset()
        self.arrows: list = []
        self.arrow_key = Line2D(
            [], [], color=RETREAT, linestyle="none", marker=r"$\rightarrow$", markersize=14
        )
        #: the units' names printed in their hexes, drawn over everything else
        self.labels: list[Text] = []
        self.side_keys = {
            side: Line2D([], [], linestyle="none", marker="$Ab$", color=colour, markersize=12)
            for side, colour in (("German", GERMAN), ("Soviet", SOVIET))
        }
        self.lost_key = Line2D(
            [], [], linestyle="none", marker=f"${LOST_MARK}$", color="black", markersize=9
        )

    def _polygons(self, hexes) -> list:
        view = self.view
        return [view.polygons[view.index[h]] for h in sorted(hexes)]

    def show_situation(
        self,
        s: Situation | Retreat,
        lost: frozenset[str] = frozenset(),
        lost_words: str = "eliminated",
    ) -> None:
        """Draw the situation ``s`` (a ``Situation``, or the ``Retreat`` worked out in one): each
        unit's short name in its hex, in its side's colour (those in ``lost`` marked eliminated,
        ``lost_words`` in the legend), and the hexes attacked and bombarded."""
        view = self.view
        self.attacked.set_verts(self._polygons(s.attacked))
        self.bombarded.set_verts(self._polygons(s.bombarded))
        for label in self.labels:
            label.remove()
        self.labels.clear()
        halo = [patheffects.withStroke(linewidth=2.5, foreground="white")]
        for h, here in s.units.items():
            x, y = center(h)
            lines = [(u.side, unit_label(u.name, u.name in lost)) for u in here]
            if len(lines) > MOST_LINES:
                more = len(lines) - MOST_LINES + 1
                lines = [*lines[: MOST_LINES - 1], ("", f"+{more} more")]
            top = y + 0.1 - LINE_SPACING * (len(lines) - 1) / 2
            for i, (side, text) in enumerate(lines):
                colour = "black" if text.startswith(LOST_MARK) or not side else SIDE_COLOURS[side]
                self.labels.append(
                    view.ax.text(
                        x,
                        top + i * LINE_SPACING,
                        text,
                        ha="center",
                        va="center",
                        fontsize=6.5,
                        fontweight="bold",
                        color=colour,
                        zorder=Z_UNIT_NAMES,
                        path_effects=halo,
                    )
                )
        sides = {u.side for here in s.units.values() for u in here}
        entries: dict[str, Artist] = {
            f"{side} units (short names)": key
            for side, key in self.side_keys.items()
            if side in sides
        }
        if lost:
            entries[lost_words] = self.lost_key
        if s.attacked:
            entries["being attacked"] = self.attacked
        if s.bombarded:
            entries["being bombarded"] = self.bombarded
        view.set_overlay_legend("situation", entries)

    def show(self, r: Retreat) -> None:
        """Draw the retreat ``r`` in its situation: the units (those it eliminates marked), the
        hexes attacked and bombarded, and the retreat."""
        self.clear_retreat()
        # the arrows and marks show the retreat; where the units may stay, the title and the
        # pane weigh it against staying
        lost = "eliminated if they retreat" if r.may_stay else "eliminated"
        self.show_situation(r, frozenset(lost_units(r)), lost)
        self.show_retreat(r)

    def show_retreat(self, r: Retreat) -> None:
        """Draw the retreat ``r`` without its units: the defending hex, the legal retreat
        hexes, the enemy's ZOC, the arrows and the title."""
        view, t = self.view, r.target
        self.target.set_verts(self._polygons([t]))
        open_hexes = set().union(*r.options.values())
        self.open.set_verts(self._polygons(open_hexes))
        self.zoc_hexes = r.zoc & set(view.index)
        self.zoc.set_verts(self._polygons(self.zoc_hexes))
        moves = retreat_arrows(t, set(r.best.values()) - {None})
        for start, end in moves:
            self.arrows.append(
                view.ax.annotate(
                    "",
                    end,
                    start,
                    zorder=Z_ARROWS,
                    arrowprops={
                        "arrowstyle": "-|>,head_length=0.5,head_width=0.3",
                        "color": RETREAT,
                        "linewidth": 3,
                        "shrinkA": 0,
                        "shrinkB": 0,
                        "path_effects": [patheffects.withStroke(linewidth=5, foreground="black")],
                    },
                )
            )
        entries: dict[str, Artist] = {"defending hex": self.target}
        if open_hexes:
            entries["legal retreat hex (9.87)"] = self.open
        if r.zoc:
            entries["enemy ZOC (6.0): closed"] = self.zoc
        if moves:
            entries["retreat, if they go" if r.may_stay else "retreat chosen"] = self.arrow_key
        view.set_overlay_legend("retreat", entries)
        view.set_title(retreat_title(r))

    def clear_retreat(self) -> None:
        self.target.set_verts([])
        self.zoc.set_verts([])
        self.zoc_hexes = frozenset()
        for arrow in self.arrows:
            arrow.remove()
        self.arrows.clear()
        self.open.set_verts([])
        self.view.set_overlay_legend("retreat", {})


def mark_changes(
    view: MapView, r: Retreat, other: Retreat, value: str
) -> tuple[list[Artist], dict[str, Artist]]:
    """Over a retreat ``r`` drawn on ``view``, the hexes whose part in it changes under another
    reading (``value``, whose retreat is ``other``) outlined, and the units lost under it
    named; returns the marks drawn and their legend's entries (none: nothing changes)."""
    changed_hexes = retreat_changes(r, other)
    lost, lost2 = lost_units(r), lost_units(other)
    marks: list[Artist] = []
    entries: dict[str, Artist] = {}
    if changed_hexes:
        outline = PolyCollection(
            [view.polygons[view.index[h]] for h in sorted(changed_hexes)],
            facecolor="none",
            edgecolor=CHANGED,
            linewidth=2.5,
            linestyle=(0, (3, 2)),
            zorder=29,
        )
        marks.append(view.ax.add_collection(outline))
        entries[f"changes under '{value}'"] = outline
    if lost != lost2:
        key = Line2D([], [], color=CHANGED, linewidth=0)
        entries[f"lost under '{value}': {', '.join(lost2) or 'none'}"] = key
    return marks, entries


@on_board.register
def _retreat(r: Retreat, view: MapView) -> Sequence[Step]:
    RetreatOverlay(view).show(r)
    return r.steps


def _retreat_question(view: MapView, q, answer, chosen) -> None:
    """The situation, the defending hex marked; revealed, the retreat drawn."""
    overlay = RetreatOverlay(view)
    if answer is None:
        overlay.show_situation(q.board)
        overlay.target.set_verts(overlay._polygons([q.board.target]))
        view.set_overlay_legend("retreat", {"defending hex": overlay.target})
    else:
        overlay.show(answer.result)
    mark_chosen_hexes(view, q, answer, chosen)


question_drawing(
    RetreatHexes,
    QuestionDrawing(
        title=lambda q: (
            f'A "P" on {q.board.map.label(q.board.target)}: where may its units retreat?'
        ),
        draw=_retreat_question,
        own_title=True,
    ),
)
question_drawing(
    RetreatLosses,
    QuestionDrawing(
        title=lambda q: f'A "P" on {q.board.map.label(q.board.target)}: how many units are lost?',
        draw=_retreat_question,
        own_title=True,
    ),
)
