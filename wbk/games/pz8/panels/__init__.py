"""Widget panels of the Pz 8 chapter: gun against armor, the table, and the duel.

Every choice shows plain words ("short gun (to 12")", "veteran crew"); its value is the name
``wbk.games.pz8`` uses ("short", "veteran"). Tank names typed in a box are accepted in any case.

The panels live by topic: ``controls`` (the parts they share), ``armor``
(``gun_against_armor``), ``duel`` (``duel_calculator``), and the table panel's parts
(``table_controls``, ``table_show``, ``table_editing``, ``table_comparing``, ``table_cases``,
``table_panel``). What they draw is drawn by ``wbk.games.pz8.draw``; the duel's drawing is
re-exported here, where the chapter has always found it.
"""

import ipywidgets as widgets  # noqa: F401

from wbk.draw.tables import say_chance, table_figure_size  # noqa: F401
from wbk.games.pz8 import DUEL_RANGES, duel_curve  # noqa: F401
from wbk.games.pz8.draw.duel import (  # noqa: F401
    DUEL_COLOURS,
    FADED,
    NEITHER,
    draw_duel,
    duel_picture,
    fit_suptitle,
)
from wbk.games.pz8.panels.armor import ARMOR_CASES, gun_against_armor
from wbk.games.pz8.panels.controls import (  # noqa: F401
    CLASS_LABELS,
    LABELS,
    NATURAL_SIX_TIP,
    NO_DIFFERENCE,
    SHORT_WORDS,
    CasesChartPanel,
    choices,
    find_tank,
    label,
    parse_size,
)
from wbk.games.pz8.panels.duel import DUEL_CASES, duel_calculator
from wbk.games.pz8.panels.table_cases import CASE_TABLES, TABLE_CASES, case_table  # noqa: F401
from wbk.games.pz8.panels.table_comparing import COMPARED, SHOT_READINGS  # noqa: F401
from wbk.games.pz8.panels.table_controls import ASKS, CLICKS, FACINGS, SIDES, TURNS  # noqa: F401
from wbk.games.pz8.panels.table_panel import TablePanel

__all__ = [
    "ARMOR_CASES",
    "DUEL_CASES",
    "TABLE_CASES",
    "TablePanel",
    "duel_calculator",
    "gun_against_armor",
]
