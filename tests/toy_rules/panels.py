"""Toy Skirmish's panel: choose the number a hit needs and how a natural 6 reads; see the die
and the chance, step by step."""

import ipywidgets as widgets

from wbk.widgets import ChartPanel, chart_edge_cases
from wbk.widgets.readings import reading_control

from . import RULE, SIXES, shot


@chart_edge_cases
def shot_panel() -> ChartPanel:
    """The chance a squad hits, as the number it needs and the reading of a natural 6 change."""
    return ChartPanel(
        lambda needed, sixes: shot(needed, sixes=sixes),
        size=(4.8, 3.0),
        rule=RULE,
        needed=widgets.IntSlider(5, 2, 7, description="a hit needs"),
        sixes=reading_control(SIXES),
    )
