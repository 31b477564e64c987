"""What a leader is worth: the damage from one attack without a leader and with leaders of
morale 6 to 10, side by side (Blitz Combat, Leader Saving Throws)."""

from __future__ import annotations

from wbk.games import blitz
from wbk.games.blitz.draw import LeaderCases, draw_leader_cases
from wbk.games.blitz.panels.controls import DICE_RANGE, UNARMORED_TARGETS, choices, narrow, slider
from wbk.widgets import ChartPanel, chart_edge_cases

LEADER_MORALES = range(6, 11)


def leader_cases(dice: int, fire: str, target: str) -> LeaderCases:
    """The damage from ``dice`` of ``fire`` at ``target`` with no leader and with each morale
    of ``LEADER_MORALES``."""
    cases = {"no leader": blitz.fire_outcome(dice, fire=fire, target=target)}
    for morale in LEADER_MORALES:
        cases[f"morale {morale}"] = blitz.fire_outcome(
            dice, fire=fire, target=target, leader_morale=morale
        )
    return LeaderCases(dice, fire, target, cases)


@chart_edge_cases
def leader_worth() -> ChartPanel:
    """The damage distribution without a leader and with leaders of morale 6 to 10, side by side."""
    return narrow(
        ChartPanel(
            leader_cases,
            draw_leader_cases,
            size=(6.6, 3.8),
            dice=slider(20, DICE_RANGE.start, DICE_RANGE.stop - 1, "dice"),
            fire=choices(blitz.FIRE_TYPES, "fire"),
            target=choices(UNARMORED_TARGETS, "target"),
        )
    )
