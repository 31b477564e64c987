"""The gun-against-armour panel: every gun against every class of tank, the chance one attack
destroys it and the chance it passes the turn, with the cover, veteran and shaken toggles, the
reading of a natural 6, and the card's shooting cases."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from wbk.dice import Dist
from wbk.draw.tables import say_chance
from wbk.draw.view import stamp_texts
from wbk.games import pz8
from wbk.games.pz8.draw.armor import draw_gun_against_armor, modifiers_words
from wbk.games.pz8.draw.compare import mark_other_cells
from wbk.games.pz8.panels.controls import (
    NATURAL_SIX_TIP,
    CasesChartPanel,
    beside,
    choices,
    compared,
    show_no_difference,
)
from wbk.games.pz8.readings import NATURAL_SIX
from wbk.games.pz8.shooting import chance_destroyed, chance_turn_passes
from wbk.widgets import ChartPanel, InPlacePicture

#: The card's shooting cases (Pz 8, Shooting; Penetration and Damage): the gun-against-armour
#: panel's presets. Every gun is drawn against every class; each case sets the modifiers.
ARMOR_CASES: dict[str, dict[str, object]] = {
    "Shooting: a medium gun's 2 dice against light, medium, heavy (saves 6+, 5+, 4+)": {
        "cover": False,
        "veteran": False,
        "shaken": False,
        "natural_six": "modified",
    },
    "Shooting: a short gun's three dice, the target in cover (-1: only a 6 hits)": {
        "cover": True,
        "veteran": False,
        "shaken": False,
        "natural_six": "modified",
    },
    "Shooting: cover (-1) and a veteran crew (+1) cancel out": {
        "cover": True,
        "veteran": True,
        "shaken": False,
        "natural_six": "modified",
    },
    "Optional Rule Shaken: a shaken firer (-1)": {
        "cover": False,
        "veteran": False,
        "shaken": True,
        "natural_six": "modified",
    },
    "Shooting: cover and a shaken firer (-2): only a natural 6 that always hits has a chance": {
        "cover": True,
        "veteran": False,
        "shaken": True,
        "natural_six": "modified",
    },
}


def every_attack(options: dict) -> dict[tuple[str, str], Dist]:
    """Shooting, Penetration and Damage: each gun's attack on each class under ``options``."""
    return {
        (gun, cls): pz8.attack(gun, cls, **options)
        for gun in pz8.GUN_RANGES
        for cls in pz8.MOVE_VALUES
    }


@functools.lru_cache(maxsize=64)
def _attacks(cover: bool, veteran: bool, shaken: bool, natural_six: str) -> dict:
    """``every_attack`` under these options, kept: a click back to options seen before costs
    nothing (the attacks are exact and never change)."""
    return every_attack(dict(cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six))


def _options_key(options: dict) -> tuple[bool, bool, bool, str]:
    return (
        bool(options["cover"]),
        bool(options["veteran"]),
        bool(options["shaken"]),
        str(options["natural_six"]),
    )


@dataclass(frozen=True)
class _Drawn:
    """What the picture shows under one set of options, taken from a drawing of it: the
    heatmaps' grids, their cells' numbers and colours, and the titles."""

    grids: tuple[np.ndarray, np.ndarray]
    numbers: tuple[tuple[tuple[str, object], ...], tuple[tuple[str, object], ...]]
    titles: tuple[str, str]
    suptitle: tuple[str, float]


@functools.lru_cache(maxsize=64)
def _drawn(key: tuple[bool, bool, bool, str]) -> _Drawn:
    """The picture under the options ``key``, drawn once on a figure of its own (no layout)."""
    cover, veteran, shaken, natural_six = key
    options = dict(cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six)
    figure = Figure(figsize=FIGURE_SIZE)
    draw_gun_against_armor(figure, options, _attacks(*key))
    left, right = figure.axes[:2]
    top = figure.texts[0] if figure.texts else None
    suptitle = getattr(figure, "_suptitle", None) or top
    return _Drawn(
        grids=(np.asarray(left.images[0].get_array()), np.asarray(right.images[0].get_array())),
        numbers=(
            tuple((t.get_text(), t.get_color()) for t in left.texts),
            tuple((t.get_text(), t.get_color()) for t in right.texts),
        ),
        titles=(left.get_title(), right.get_title()),
        suptitle=(suptitle.get_text(), float(suptitle.get_fontsize())) if suptitle else ("", 10.0),
    )


#: The panel's figure size, inches.
FIGURE_SIZE = (8.0, 3.6)


def _redraw_in_place(figure: Figure, key: tuple[bool, bool, bool, str], live: dict) -> bool:
    """Show the options ``key`` on the heatmaps drawn before (their images' data, numbers and
    titles changed, nothing made anew, nothing laid out again). False when there is no such
    drawing to change."""
    axes = live.get("axes")
    if axes is None or list(figure.axes[:2]) != list(axes):
        return False
    drawn = _drawn(key)
    for ax, grid, numbers, texts, title in zip(
        axes, drawn.grids, drawn.numbers, live["numbers"], drawn.titles, strict=True
    ):
        ax.images[0].set_data(grid)
        for text, (words, colour) in zip(texts, numbers, strict=True):
            text.set_text(words)
            text.set_color(colour)
        ax.set_title(title, fontsize=10)
    words, size = drawn.suptitle
    figure.suptitle(words, fontsize=size)
    return True


def _lay_out_for_the_longest_titles(figure: Figure, axes) -> None:
    """Lay the figure out once, with room for the longest titles any options give (the chart's
    title on two lines, the left heatmap's on three), and keep that layout: a click then changes
    no axes' place, and costs no layout."""
    top = getattr(figure, "_suptitle", None)
    shown = (top.get_text() if top is not None else "", *(ax.get_title() for ax in axes))
    size = float(top.get_fontsize()) if top is not None else 10.0
    figure.suptitle("Xy\nXy", fontsize=max(size, 10.0))
    axes[0].set_title("Xy\nXy\nXy", fontsize=10)
    axes[1].set_title("Xy\nXy", fontsize=10)
    figure.draw_without_rendering()
    figure.set_layout_engine("none")
    if top is not None:
        figure.suptitle(shown[0], fontsize=size)
    for ax, title in zip(axes, shown[1:], strict=True):
        ax.set_title(title, fontsize=10)


def gun_against_armor() -> ChartPanel:
    """Every gun against every class of tank: the chance one attack destroys it, and the chance
    the attack passes the turn, with the cover, veteran and shaken toggles.

    A change of a toggle changes the picture in place (the heatmaps' cells and the titles,
    each set of options drawn once and kept), and only those are drawn again and sent
    (``InPlacePicture``), so that a click is answered at once."""
    natural_six_note = widgets.HTML()

    def compute(cover, veteran, shaken, natural_six):
        options = dict(cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six)
        key = _options_key(options)
        attacks = _attacks(*key)
        others = [r for r in pz8.NATURAL_SIX_READINGS if r != natural_six]
        same = all(_attacks(*key[:3], other) == attacks for other in others)
        show_no_difference(natural_six_note, same)
        return options, attacks

    made: list[CasesChartPanel] = []  # the panel, once built: its compare control marks each chart
    #: the heatmaps on show and their cells' numbers, to change in place
    live: dict = {}

    def draw(figure: Figure, result) -> str:
        options, attacks = result
        key = _options_key(options)
        if not _redraw_in_place(figure, key, live):
            figure.clear()
            figure.set_layout_engine("constrained")
            draw_gun_against_armor(figure, options, attacks)
            left, right = figure.axes[:2]
            live.update(axes=(left, right), numbers=(list(left.texts), list(right.texts)))
            _lay_out_for_the_longest_titles(figure, (left, right))
            stamp_texts(figure)  # its texts drawn from stamps: most of a draw's cost
        if made:
            had_marks = bool(getattr(made[0], "_compare_marks", []))
            live["answering"] = True  # the answer asks for its own picture, marks and all
            try:
                made[0].compare_readings.refresh()
            finally:
                live["answering"] = False
            # marks that were or are on the chart: the picture is drawn whole
            live["marked"] = had_marks or bool(getattr(made[0], "_compare_marks", []))
        return _attacks_table(key)

    def changing() -> list | None:
        """What a new answer changes on the chart: each heatmap's cells, the frame drawn over
        them and their numbers, then the titles; None when the chart must be drawn whole."""
        axes = live.get("axes")
        if axes is None or live.get("marked") or list(panel.figure.axes[:2]) != list(axes):
            return None
        top = getattr(panel.figure, "_suptitle", None)  # matplotlib keeps it only there
        cells = [a for ax in axes for a in (ax.images[0], *ax.spines.values(), *ax.texts)]
        return [*cells, *(ax.title for ax in axes), *([top] if top is not None else [])]

    panel = CasesChartPanel(
        compute,
        draw,
        size=FIGURE_SIZE,
        cover=widgets.Checkbox(False, description="target in cover (-1)"),
        veteran=widgets.Checkbox(False, description="veteran crew firing (+1)"),
        shaken=widgets.Checkbox(False, description="firer shaken (-1)"),
        natural_six=choices(
            pz8.NATURAL_SIX_READINGS,
            "a natural 6",
            layout=widgets.Layout(width="24em"),
            tooltip=NATURAL_SIX_TIP,
        ),
    )
    panel.rule = "Pz 8, Shooting and Penetration and Damage"
    panel.draws_in_place = True
    panel.in_place = InPlacePicture(panel.figure, panel.canvas, changing)
    beside(panel, panel.controls["natural_six"], natural_six_note)
    panel.boxes = dict(panel.controls)  # the presets set the chart's controls by their names
    panel.compare = panel.add_compare_readings(
        compared(NATURAL_SIX),
        mark=lambda other: _mark_other_kills(panel, other, asks=not live.get("answering")),
        current=lambda: {"natural_six": panel.controls["natural_six"].value},
    )
    panel.add_presets(ARMOR_CASES)
    made.append(panel)
    return panel


@functools.lru_cache(maxsize=64)
def _attacks_table(key: tuple[bool, bool, bool, str]) -> str:
    """The pane's table of every attack under the options ``key``: gun, target, the chance it
    destroys, the chance the turn passes."""
    attacks = _attacks(*key)
    words = modifiers_words(*key[:3])
    header = "<tr><th>gun</th><th>target</th><th>destroyed</th><th>turn passes</th></tr>"
    rows = "".join(
        f"<tr><td>{g}</td><td>{c}</td>"
        f"<td>{say_chance(chance_destroyed(d))}</td><td>{say_chance(chance_turn_passes(d))}</td>"
        "</tr>"
        for (g, c), d in attacks.items()
    )
    return f"<p>One attack, {words}:</p><table>{header}{rows}</table>"


def _mark_other_kills(panel: CasesChartPanel, other: dict[str, str] | None, *, asks: bool) -> bool:
    """The cells of "destroyed" whose chance moves under ``other``: outlined, with the other
    reading's chance. The canvas is asked for a picture only when marks come or go, and only
    if it ``asks`` (not while an answer is drawn: that asks for its own)."""
    had_marks = bool(getattr(panel, "_compare_marks", []))
    panel.remove_compare_marks()
    if other is None or not panel.figure.axes:
        if had_marks and asks:
            panel.canvas.draw_idle()
        return False
    values = {name: control.value for name, control in panel.controls.items()}
    shown, compared = _attacks(*_options_key(values)), _attacks(*_options_key(values | other))
    moved: list[tuple[int, int, Fraction]] = []
    for i, gun in enumerate(pz8.GUN_RANGES):
        for j, cls in enumerate(pz8.MOVE_VALUES):
            here = chance_destroyed(shown[gun, cls])
            there = chance_destroyed(compared[gun, cls])
            if here != there:
                moved.append((i, j, there))
    panel._compare_marks = mark_other_cells(panel.figure.axes[0], moved)
    if (had_marks or panel._compare_marks) and asks:
        panel.canvas.draw_idle()
    return bool(panel._compare_marks)
