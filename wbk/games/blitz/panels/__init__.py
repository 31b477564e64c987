"""Widget panels of the Blitz Combat chapter: fire calculator, a leader's worth, "at least" curves.

Each panel is at most 700 pixels wide, to fit beside JupyterLab's file browser, and its sliders
are wide enough to drag. Every choice shows the rules' words ("AT fire", "three or more", "dug
in"); its value is the option's name in ``wbk.games.blitz`` ("at", "three_or_more", "dug_in").
A control that changes nothing for the set-up on show says so beside it ("makes no difference
here"); the armor box is greyed out unless the target is an armored vehicle. Charts of damage
show all five levels, those that cannot happen at 0% with the reason in the title, and every
title is wrapped to fit its chart.

A module a panel: ``calculator`` (``fire_calculator``), ``rolled`` (``hits_rolled_panel``),
``leaders`` (``leader_worth``), ``curves`` (``at_least_panel``); ``controls`` holds the parts
they share and ``stepped`` the panel that steps through an answer. Their pictures are drawn by
``wbk.games.blitz.draw``, whose names are importable from here too, as they were before it.
"""

from wbk.games.blitz import RolledHits, rolled_from_throws
from wbk.games.blitz.draw import (
    CHARACTERS_AN_INCH,
    HIT_COLOUR,
    LABELS,
    LEADER_TABLE_STYLE,
    LEVELS,
    NOT_YET,
    OFF_COLOUR,
    OtherReading,
    blitz_picture,
    draw_fire,
    draw_rolled,
    draw_strength,
    even_chance,
    fire_steps,
    fit_title,
    label,
    leader_title,
    verdict_step,
    why_levels_impossible,
)
from wbk.games.blitz.panels.calculator import (
    CALCULATOR_PRESETS,
    CALCULATOR_START,
    calculator_idle,
    fire_calculator,
    readings_said,
)
from wbk.games.blitz.panels.controls import (
    DICE_RANGE,
    NO_DIFFERENCE,
    PANEL_WIDTH,
    UNARMORED_TARGETS,
    NotedPanel,
    add_notes,
    choices,
    parse_pieces,
    reading_choices,
    show_notes,
    slider,
)
from wbk.games.blitz.panels.curves import at_least_idle, at_least_panel
from wbk.games.blitz.panels.leaders import LEADER_MORALES, leader_worth
from wbk.games.blitz.panels.rolled import (
    ROLLED_PRESETS,
    ROLLED_START,
    hits_rolled_panel,
    rolled_hits,
    rolled_idle,
)
from wbk.games.blitz.panels.stepped import SteppedPanel

__all__ = [
    "CALCULATOR_PRESETS",
    "CALCULATOR_START",
    "CHARACTERS_AN_INCH",
    "DICE_RANGE",
    "HIT_COLOUR",
    "LABELS",
    "LEADER_MORALES",
    "LEADER_TABLE_STYLE",
    "LEVELS",
    "NOT_YET",
    "NO_DIFFERENCE",
    "OFF_COLOUR",
    "PANEL_WIDTH",
    "ROLLED_PRESETS",
    "ROLLED_START",
    "UNARMORED_TARGETS",
    "NotedPanel",
    "OtherReading",
    "RolledHits",
    "SteppedPanel",
    "add_notes",
    "at_least_idle",
    "at_least_panel",
    "blitz_picture",
    "calculator_idle",
    "choices",
    "draw_fire",
    "draw_rolled",
    "draw_strength",
    "even_chance",
    "fire_calculator",
    "fire_steps",
    "fit_title",
    "hits_rolled_panel",
    "label",
    "leader_title",
    "leader_worth",
    "parse_pieces",
    "reading_choices",
    "readings_said",
    "rolled_from_throws",
    "rolled_hits",
    "rolled_idle",
    "show_notes",
    "slider",
    "verdict_step",
    "why_levels_impossible",
]
