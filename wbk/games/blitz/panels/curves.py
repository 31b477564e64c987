"""The "at least" curves: the chance of each damage level or worse against the number of dice,
and what armor does to AT fire."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from wbk.games import blitz
from wbk.games.blitz import Damage
from wbk.games.blitz.draw import (
    LEVELS,
    DamageCurves,
    aimed_at,
    draw_curves,
    label,
    why_levels_impossible,
)
from wbk.games.blitz.panels.controls import (
    DICE_RANGE,
    UNARMORED_TARGETS,
    NotedPanel,
    choices,
    keep_notes,
    narrow,
)
from wbk.widgets import chart_edge_cases, parse_optional_number


def at_least_idle(*, fire: str, **_: Any) -> dict[str, str]:
    """The "at least" panel's controls that change nothing for these values, with the reason."""
    if fire in ("direct", "bombardment"):
        return {}
    return {"leader": "leaders throw only against direct fire and bombardment"}


def damage_curves(fire: str, target: str, leader: str, level: int) -> DamageCurves:
    """The damage of ``fire`` at ``target`` for each number of dice of ``DICE_RANGE`` (a leader
    of morale ``leader`` throwing, if given), and of AT fire at a vehicle of each armor."""
    morale = parse_optional_number(leader, "leader morale")
    by_dice = {
        n: blitz.fire_outcome(n, fire=fire, target=target, leader_morale=morale) for n in DICE_RANGE
    }
    by_armor = {
        "unarmored vehicle": {
            n: blitz.fire_outcome(n, fire="at", target="unarmored_vehicle") for n in DICE_RANGE
        }
    }
    for a in range(1, 4):
        by_armor[f"armor {a}"] = {
            n: blitz.fire_outcome(n, fire="at", target="armored_vehicle", armor=a)
            for n in DICE_RANGE
        }
    why = why_levels_impossible(blitz.fire_procedure(1, fire=fire, target=target), fire, target)
    why = why if why.startswith("no damage at all") else ""
    said = f"{label(fire)} at {aimed_at(target)}"
    return DamageCurves(said, why, by_dice, Damage(level), by_armor)


@chart_edge_cases
def at_least_panel() -> NotedPanel:
    """P(at least each damage level) against the number of dice, and what armor does to AT fire."""
    panel = NotedPanel(
        damage_curves,
        draw_curves,
        size=(6.6, 6.4),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        target=choices(UNARMORED_TARGETS, "target"),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        # whole numbers as values, so that an edge case file writes them as such
        level=widgets.Dropdown(options=[(str(d), int(d)) for d in LEVELS], description="level"),
    )
    keep_notes(panel, ["leader"], at_least_idle)
    narrow(panel)
    return panel
