"""The card's cases on the example table: the table panel's presets (a shot, a reach, a
platoon move, a rally), each with the example table as it needs it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wbk.errors import WbkError
from wbk.games import pz8
from wbk.table import Table

#: The card's cases on the example table (``pz8.example_table``): the table panel's presets.
TABLE_CASES: dict[str, dict[str, object]] = {
    "Shooting, cover: Pz IV 1's medium gun at KV-1 (heavy), the farmhouse hides 47%": {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz IV 1",
        "target": "KV-1",
        "show_reach": False,
    },
    'Shooting, long gun: Tiger at T-34 2, 23.8" (a long gun reaches 24")': {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Tiger",
        "target": "T-34 2",
        "show_reach": False,
    },
    'Shooting, out of range: Pz II\'s short gun (12") at the T-60 wreck, 23.6"': {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz II",
        "target": "T-60",
        "show_reach": False,
    },
    'Movement: Pz IV 1 (medium, 4 + D6) pivots, drives straight, pays 3" in the birch wood': {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz IV 1",
        "target": "KV-1",
        "show_reach": True,
    },
    "Movement: Pz II (light, 5 + D6) stopped by the farmhouse, Pz IV 1 and Hill 112's 3\"": {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Pz II",
        "target": "KV-1",
        "show_reach": True,
    },
    "Movement: Tiger (heavy, 3 + D6) at 45° only touches the marsh's corner: it pays nothing": {
        "table": "crossroads",
        "ask": "shot",
        "shooter": "Tiger",
        "target": "T-34 2",
        "show_reach": True,
    },
    'Movement, platoon: the Soviet tanks all within 3" of T-34 1 move 1D6 + 3 (KV-1 heavy)': {
        "table": "crossroads",
        "ask": "platoon",
        "shooter": "KV-1",
    },
    'Movement, platoon: no German platoon move, the Tiger is 11.7" from the HQ (over 3")': {
        "table": "crossroads",
        "ask": "platoon",
        "shooter": "Pz IV 2",
    },
    'Shaken, rally: KV-1 2.5" from its HQ (within 12") rallies on 5-6, 1/3': {
        "table": "crossroads",
        "ask": "rally",
        "shooter": "KV-1",
    },
    "Shaken, rally: Pz IV 2's veteran crew (+1) rallies on 4-6, 1/2": {
        "table": "crossroads",
        "ask": "rally",
        "shooter": "Pz IV 2",
    },
    "Shaken, rally: the HQ T-34 1 rallies itself on 4-6, 1/2": {
        "table": "crossroads",
        "ask": "rally",
        "shooter": "T-34 1",
    },
    "Shaken, rally: KV-1 cannot rally, its HQ T-34 1 is itself shaken": {
        "table": "T-34 1 shaken",
        "ask": "rally",
        "shooter": "KV-1",
    },
    "Shaken, rally: Pz IV 2 cannot rally, its HQ Pz IV 1 is destroyed": {
        "table": "Pz IV 1 destroyed",
        "ask": "rally",
        "shooter": "Pz IV 2",
    },
    'Shaken, rally: the Tiger 14.4" from its HQ (more than 12") cannot rally': {
        "table": "Tiger at 32, 6",
        "ask": "rally",
        "shooter": "Tiger",
    },
    "Movement, platoon: T-34 2 shaken stays, the other 2 move (a reading: shaken_member)": {
        "table": "T-34 2 shaken",
        "ask": "platoon",
        "shooter": "KV-1",
    },
}

#: The example table as the worked examples need it: a name -> the tanks changed, each with the
#: fields it takes (a shaken or destroyed HQ, a tank moved out of its HQ's 12").
CASE_TABLES: dict[str, dict[str, dict[str, Any]]] = {
    "crossroads": {},
    "T-34 1 shaken": {"T-34 1": {"shaken": True}},
    "T-34 2 shaken": {"T-34 2": {"shaken": True}},
    "Pz IV 1 destroyed": {"Pz IV 1": {"destroyed": True}},
    "Tiger at 32, 6": {"Tiger": {"position": (32.0, 6.0)}},
}


def case_table(name: str) -> Table:
    """The example table as worked example ``name`` of ``CASE_TABLES`` needs it."""
    if name not in CASE_TABLES:
        raise WbkError(f"worked example table {name!r} is not one of {', '.join(CASE_TABLES)}")
    table = pz8.example_table()
    for tank, changes in CASE_TABLES[name].items():
        table = table.with_piece(replace(table.piece(tank), **changes))
    return table
