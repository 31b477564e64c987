"""The gun-against-armour panel: every gun against every class of tank, the chance one attack
destroys it and the chance it passes the turn, with the cover, veteran and shaken toggles, the
reading of a natural 6, and the card's shooting cases."""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.dice import Dist
from wbk.draw.pz8.armor import draw_gun_against_armor, modifiers_words
from wbk.draw.pz8.compare import mark_other_cells
from wbk.games import pz8
from wbk.games.pz8.readings import NATURAL_SIX
from wbk.games.pz8.shooting import chance_destroyed, chance_turn_passes
from wbk.tableplot import say_chance
from wbk.widgets import ChartPanel
from wbk.widgets.pz8.controls import (
    NATURAL_SIX_TIP,
    CasesChartPanel,
    beside,
    choices,
    compared,
    show_no_difference,
)

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


def gun_against_armor() -> ChartPanel:
    """Every gun against every class of tank: the chance one attack destroys it, and the chance
    the attack passes the turn, with the cover, veteran and shaken toggles."""
    natural_six_note = widgets.HTML()

    def compute(cover, veteran, shaken, natural_six):
        options = dict(cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six)
        attacks = every_attack(options)
        others = [r for r in pz8.NATURAL_SIX_READINGS if r != natural_six]
        same = all(
            pz8.attack(gun, cls, **{**options, "natural_six": other}) == d
            for other in others
            for (gun, cls), d in attacks.items()
        )
        show_no_difference(natural_six_note, same)
        return options, attacks

    made: list[CasesChartPanel] = []  # the panel, once built: its compare control marks each chart

    def draw(figure: Figure, result) -> str:
        options, attacks = result
        draw_gun_against_armor(figure, options, attacks)
        if made:
            made[0].compare_readings.refresh()
        return _attacks_table(options, attacks)

    panel = CasesChartPanel(
        compute,
        draw,
        size=(8.0, 3.6),
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
    beside(panel, panel.controls["natural_six"], natural_six_note)
    panel.boxes = dict(panel.controls)  # the presets set the chart's controls by their names
    panel.compare = panel.add_compare_readings(
        compared(NATURAL_SIX),
        mark=lambda other: _mark_other_kills(panel, other),
        current=lambda: {"natural_six": panel.controls["natural_six"].value},
    )
    panel.add_presets(ARMOR_CASES)
    made.append(panel)
    return panel


def _attacks_table(options: dict, attacks: dict) -> str:
    """The pane's table of every attack: gun, target, the chance it destroys, the chance the
    turn passes."""
    words = modifiers_words(options["cover"], options["veteran"], options["shaken"])
    header = "<tr><th>gun</th><th>target</th><th>destroyed</th><th>turn passes</th></tr>"
    rows = "".join(
        f"<tr><td>{g}</td><td>{c}</td>"
        f"<td>{say_chance(chance_destroyed(d))}</td><td>{say_chance(chance_turn_passes(d))}</td>"
        "</tr>"
        for (g, c), d in attacks.items()
    )
    return f"<p>One attack, {words}:</p><table>{header}{rows}</table>"


def _mark_other_kills(panel: CasesChartPanel, other: dict[str, str] | None) -> bool:
    """The cells of "destroyed" whose chance moves under ``other``: outlined, with the other
    reading's chance."""
    panel.remove_compare_marks()
    if other is None or not panel.figure.axes:
        panel.canvas.draw_idle()
        return False
    values = {name: control.value for name, control in panel.controls.items()}
    moved: list[tuple[int, int, Fraction]] = []
    for i, gun in enumerate(pz8.GUN_RANGES):
        for j, cls in enumerate(pz8.MOVE_VALUES):
            here = chance_destroyed(pz8.attack(gun, cls, **values))
            there = chance_destroyed(pz8.attack(gun, cls, **{**values, **other}))
            if here != there:
                moved.append((i, j, there))
    panel._compare_marks = mark_other_cells(panel.figure.axes[0], moved)
    panel.canvas.draw_idle()
    return bool(panel._compare_marks)
