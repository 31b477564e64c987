"""The fire calculator: the firing strengths, the fire, the target, its terrain and protection,
and a leader; the strength worked out, the dice and the exact damage, step by step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from wbk.errors import WbkError
from wbk.games import blitz
from wbk.games.blitz import Piece
from wbk.games.blitz.draw import Attack, OtherReading, aimed_at, draw_attack, fire_steps, label
from wbk.games.blitz.panels.controls import (
    NO_LEADER_THROWS,
    NotedPanel,
    choices,
    keep_notes,
    leader_throws,
    narrow,
    parse_pieces,
    reading_choices,
    slider,
)
from wbk.games.blitz.panels.stepped import SteppedPanel
from wbk.widgets import chart_edge_cases, parse_optional_number

#: The readings the calculator offers (it fires at no APC's passengers).
CALCULATOR_READINGS = ["crowded", "assault", "disrupted_firers", "save_bonus"]


def calculator_idle(
    *,
    strengths: str,
    engineers: str,
    fire: str,
    target: str,
    terrain: str,
    protection: str,
    non_vehicle_units: int,
    leader: str,
    assault: str,
    **_: Any,
) -> dict[str, str]:
    """The fire calculator's controls that change nothing for these values, with the reason."""
    idle: dict[str, str] = {}
    fires_at_range = fire in ("direct", "bombardment")
    if fire == "assault":
        idle["range_hexes"] = "assault combat takes place in the hex both sides share"
    if not fires_at_range:
        idle["non_vehicle_units"] = "the crowded hex counts for direct fire and bombardment only"
    if not fires_at_range or non_vehicle_units < 4:
        idle["crowded"] = "the readings differ only for 4 or more units under direct fire"
    if fire != "assault" or (terrain == "open" and protection == "none"):
        idle["assault"] = "the readings differ only for assault combat on cover"
    elif assault == "no_terrain":
        idle["terrain"] = idle["protection"] = "terrain does not count in this reading"
    if target != "armored_vehicle":
        idle["armor"] = "only an armored vehicle has an armor value"
    elif fire != "at":
        idle["armor"] = "armor counts against AT fire only"
    throws = leader_throws(fire, target)
    if not throws:
        idle["leader"] = NO_LEADER_THROWS
    if not throws or not leader.strip():
        idle["save_bonus"] = "it matters only when a leader makes saving throws"
    try:
        pieces = parse_pieces(f"{strengths} {engineers}", "strengths")
    except WbkError:
        pieces = []
    disrupted = [isinstance(p, Piece) for p in pieces]
    if all(disrupted) or not any(disrupted):
        idle["disrupted_firers"] = "the readings differ only when some firers are disrupted"
    return idle


def readings_said(chosen: Mapping[str, str], idle: Mapping[str, str]) -> list[str]:
    """Each reading chosen other than its default that matters here, as a title says it: a
    picture posted without its panel still says which readings it assumes."""
    said = []
    for keyword, value in chosen.items():
        reading = blitz.READINGS[keyword]
        if value != reading.default and keyword not in idle:
            said.append(f"reading: {reading.question} {reading.values[value]}")
    return said


def calculate_attack(
    strengths: str,
    engineers: str,
    fire: str,
    range_hexes: str,
    target: str,
    armor: str,
    terrain: str,
    protection: str,
    non_vehicle_units: int,
    leader: str,
    crowded: str,
    assault: str,
    disrupted_firers: str,
    save_bonus: str,
) -> Attack:
    """The calculator's answer for its controls' values: the strength (Blitz Combat, Combat
    Strength Modifiers), the procedure to the damage, and the words of its title."""
    strength = blitz.fire_strength(
        parse_pieces(strengths, "strengths"),
        fire=fire,
        engineer_strengths=parse_pieces(engineers, "engineer strengths"),
        range_hexes=parse_optional_number(range_hexes, "range"),
        target_non_vehicle_units=non_vehicle_units,
        target_terrain=terrain,
        protection=protection,
        crowded=crowded,
        assault=assault,
        disrupted_firers=disrupted_firers,
    )
    armor_value = None
    if target == "armored_vehicle":
        armor_value = parse_optional_number(armor, "armor value")
        if armor_value is None:
            raise WbkError("armor value is blank: an armored vehicle needs its armor value")
    procedure = blitz.fire_procedure(
        strength.dice,
        fire=fire,
        target=target,
        armor=armor_value,
        leader_morale=parse_optional_number(leader, "leader morale"),
        save_bonus=save_bonus,
    )
    said = f"{label(fire)} at {aimed_at(target)}"
    if armor_value is not None:
        said += f" (armor {armor_value})"
    if leader_throws(fire, target) and leader is not None and leader.strip():
        said += f", leader morale {leader.strip()}"
    idle = calculator_idle(
        strengths=strengths,
        engineers=engineers,
        fire=fire,
        target=target,
        terrain=terrain,
        protection=protection,
        non_vehicle_units=non_vehicle_units,
        leader=leader,
        assault=assault,
    )
    chosen = dict(
        crowded=crowded,
        assault=assault,
        disrupted_firers=disrupted_firers,
        save_bonus=save_bonus,
    )
    return Attack(strength, procedure, said, fire, target, readings_said(chosen, idle))


def _other_attack(attack: Attack, other: Attack, words: str) -> OtherReading | None:
    """The answer under another reading, or None when the dice and the damage are the same."""
    same = (
        other.strength.dice == attack.strength.dice
        and other.procedure.damage == attack.procedure.damage
    )
    return None if same else OtherReading(words, other.strength, other.procedure)


#: The fire calculator's settings as it starts: a worked example sets every control.
CALCULATOR_START: dict[str, object] = {
    "strengths": "5, 5, 5",
    "engineers": "",
    "fire": "direct",
    "range_hexes": "2",
    "target": "non_vehicle",
    "armor": "1",
    "terrain": "open",
    "protection": "none",
    "non_vehicle_units": 0,
    "leader": "8",
    **{keyword: reading.default for keyword, reading in blitz.READINGS.items()},
}
CALCULATOR_START.pop("apc_destroyed")  # the calculator fires no APC's passengers
#: The rules' worked examples of the strength (Blitz Combat, Combat Strength Modifiers).
CALCULATOR_PRESETS: dict[str, dict[str, object]] = {
    "Blitz example 1: three disrupted INF at a town, 15 -> 7.5 -> 3.75 -> 4 dice": {
        **CALCULATOR_START,
        "strengths": "5d, 5d, 5d",
        "terrain": "town",
        "leader": "",
    },
    "Blitz example 2: a tank's AT 4 at a tank in woods, adjacent: x5, x2, half -> 20 dice": {
        **CALCULATOR_START,
        "strengths": "4",
        "fire": "at",
        "range_hexes": "1",
        "target": "armored_vehicle",
        "terrain": "woods",
        "leader": "",
    },
}


@chart_edge_cases
def fire_calculator() -> NotedPanel:
    """Type the firing strengths (5d for a disrupted piece), choose the fire, the target, its
    terrain and protection; see the strength worked out, the dice and the exact damage."""
    panel = SteppedPanel(
        calculate_attack,
        draw_attack,
        lambda attack: fire_steps(attack.procedure, attack.strength),
        _other_attack,
        CALCULATOR_READINGS,
        CALCULATOR_PRESETS,
        size=(5.6, 3.6),
        strengths=widgets.Text("5, 5, 5", description="strengths (5d: disrupted)"),
        engineers=widgets.Text("", description="engineer strengths"),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        range_hexes=widgets.Text("2", description="range (hexes)"),
        target=choices(blitz.TARGETS, "target"),
        armor=widgets.Text("1", description="armor value (armored vehicle)"),
        terrain=choices(blitz.TERRAINS, "target terrain"),
        protection=choices(blitz.PROTECTIONS, "protection"),
        non_vehicle_units=slider(0, 0, 6, "non-vehicle units in target hex"),
        leader=widgets.Text("8", description="leader morale (blank: none)"),
        **{keyword: reading_choices(keyword) for keyword in CALCULATOR_READINGS},
    )
    noted = ["range_hexes", "armor", "terrain", "protection", "non_vehicle_units", "leader"]
    keep_notes(panel, noted + CALCULATOR_READINGS, calculator_idle)
    narrow(panel)
    return panel
