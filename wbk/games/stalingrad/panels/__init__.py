"""Widget panels of the Streets of Stalingrad chapter: a CRT explorer, the Close Assault Bonus
advisor (9.67) and a retreat planner on the map (9.87-9.89).

Controls show plain words ("eliminate 1", "attacked", "keep a qualifying unit"); their values
are the option names of ``wbk.games.stalingrad``, a reading's dropdown built from its one
declaration (``wbk.games.stalingrad.readings``). The pictures are drawn by
``wbk.games.stalingrad.draw``; the drawing names are importable from here too. Every view of an
illustrative table names it, and its name says it is not the published table.
"""

from wbk.games.stalingrad.panels.close_assault import (
    ATTACK_FLAGS,
    advisor_title,
    assault_advisor,
    assault_bars,
    draw_assault,
    parse_attack,
)
from wbk.games.stalingrad.panels.crt import (
    FROM_FILE,
    NO_EFFECT,
    SEVERITY,
    TABLES,
    choose_crt,
    code_colours,
    code_label,
    code_order,
    crt_bars,
    crt_explorer,
    crt_title,
    dist_table,
    draw_crt,
    file_control,
    in_words,
    lookup_picture,
    table_control,
)
from wbk.games.stalingrad.panels.retreat import (
    CLICKS,
    EDGE_CASE_PANEL,
    RetreatOverlay,
    RetreatPlanner,
    default_situation_path,
    draw_retreat,
    lost_units,
    retreat_arrows,
    retreat_table,
    retreat_title,
    unit_label,
)

__all__ = [
    "ATTACK_FLAGS",
    "CLICKS",
    "EDGE_CASE_PANEL",
    "FROM_FILE",
    "NO_EFFECT",
    "SEVERITY",
    "TABLES",
    "RetreatOverlay",
    "RetreatPlanner",
    "advisor_title",
    "assault_advisor",
    "assault_bars",
    "choose_crt",
    "code_colours",
    "code_label",
    "code_order",
    "crt_bars",
    "crt_explorer",
    "crt_title",
    "default_situation_path",
    "dist_table",
    "draw_assault",
    "draw_crt",
    "draw_retreat",
    "file_control",
    "in_words",
    "lookup_picture",
    "lost_units",
    "parse_attack",
    "retreat_arrows",
    "retreat_table",
    "retreat_title",
    "table_control",
    "unit_label",
]
