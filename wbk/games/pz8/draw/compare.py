"""What "compare with" marks on a Pz 8 picture: the cells of the gun-against-armour chart and
the bars of a duel that move under another reading, and on the table the other verdict in a
box and what changes hatched."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.patches import Rectangle
from matplotlib.path import Path
from matplotlib.text import Text

from wbk.dice import percent
from wbk.table import Table

__all__ = ["footprint_paths", "mark_other_bars", "mark_other_cells", "table_compare_marks"]

#: The colour of what another reading changes (Okabe-Ito vermillion).
OTHER = "#D55E00"


def mark_other_cells(ax: Axes, cells: Iterable[tuple[int, int, Fraction]]) -> list[Artist]:
    """Each heatmap cell (column, row, the other reading's chance) outlined, dashed, with the
    other chance in words; the marks, box then words, cell by cell."""
    marks: list[Artist] = []
    for i, j, there in cells:
        box = Rectangle(
            (i - 0.47, j - 0.47),
            0.94,
            0.94,
            fill=False,
            edgecolor=OTHER,
            linewidth=2.5,
            linestyle="--",
            zorder=5,
        )
        ax.add_patch(box)
        note = ax.text(
            i,
            j - 0.3,
            f"other: {percent(there)}",
            ha="center",
            fontsize=7,
            color="white",
            zorder=5,
        )
        marks += [box, note]
    return marks


def mark_other_bars(ax: Axes, pairs: Sequence[tuple[Fraction, Fraction]]) -> list[Artist]:
    """Over bar i of ``ax``, the other reading's chance (each pair: the chance on show, the
    other) as a dashed outline with its words, where the two differ; the marks, bar then
    words."""
    marks: list[Artist] = []
    for i, (now, then) in enumerate(pairs):
        if now != then:
            (bar,) = ax.bar(
                i, float(then), fill=False, edgecolor="black", linestyle="--", linewidth=1.5
            )
            note = ax.text(
                i + 0.42, float(then), f"other: {percent(then)}", fontsize=7, rotation=90
            )
            marks += [bar, note]
    return marks


def table_compare_marks(ax: Axes) -> tuple[Text, PathCollection]:
    """The marks of "compare with" on a table's axes, hidden until used: a box for the other
    verdict at the top, and a hatching for what changes."""
    verdict = ax.text(
        0.5,
        0.985,
        "",
        transform=ax.transAxes,
        ha="center",
        va="top",
        fontsize=8,
        zorder=6,
        bbox={"facecolor": "#fff3d6", "edgecolor": OTHER, "boxstyle": "round"},
        visible=False,
    )
    hatch = PathCollection(
        [],
        facecolors="none",
        edgecolors=OTHER,
        hatch="xx",
        linewidths=1.5,
        zorder=4.4,
    )
    ax.add_collection(hatch)
    return verdict, hatch


def footprint_paths(table: Table, names: Iterable[str]) -> list[Path]:
    """The outlines of the pieces called ``names`` on ``table``, to hatch."""
    return [Path(list(table.piece(name).footprint.exterior.coords), closed=True) for name in names]
