"""Widget panels of the Blitz Combat chapter: fire calculator, a leader's worth, "at least" curves.

Every choice shows the rules' words ("AT fire", "three or more", "dug in"); its value is the
option's name in ``wbk.games.blitz`` ("at", "three_or_more", "dug_in").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.charts import at_least_curves, bar_chart, stacked_bars
from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.games import blitz
from wbk.games.blitz import Damage, Piece
from wbk.widgets import ChartPanel, parse_optional_number

LEADER_MORALES = range(6, 11)
DICE_RANGE = range(1, 41)
LEVELS = list(Damage)[1:]  # disrupted ... eliminated

#: What the user reads for each option value of ``wbk.games.blitz``.
LABELS = {
    "direct": "direct fire",
    "bombardment": "bombardment",
    "at": "AT fire",
    "assault": "assault combat",
    "non_vehicle": "non-vehicle units",
    "armored_vehicle": "armored vehicle",
    "unarmored_vehicle": "unarmored vehicle",
    "wagon": "wagon",
    "open": "open",
    "woods": "woods",
    "hills": "hills",
    "town": "town",
    "none": "none",
    "dug_in": "dug in",
    "bunker": "bunker",
    "entrenchment": "entrenchment",
    "three_or_more": "three or more",
    "exactly_three": "exactly three",
    "terrain_applies": "terrain counts",
    "no_terrain": "terrain does not count",
}
UNARMORED_TARGETS = ("non_vehicle", "unarmored_vehicle", "wagon")


def label(value: str) -> str:
    """The words shown for an option value: ``label("at") == "AT fire"``."""
    return LABELS.get(value, value)


def choices(values, description: str, value: str | None = None) -> widgets.Dropdown:
    """A dropdown that shows each option value's words and gives back the value itself."""
    options = [(label(v), v) for v in values]
    return widgets.Dropdown(options=options, value=value or values[0], description=description)


_PIECE = re.compile(r"(-?\d+)(d?)", re.IGNORECASE)


def parse_pieces(text: str, name: str) -> list[int | Piece]:
    """Firing strengths typed as "5, 5d, 3": a "d" after a strength marks a disrupted piece."""
    pieces: list[int | Piece] = []
    for part in text.replace(",", " ").split():
        match = _PIECE.fullmatch(part)
        if match is None:
            expected = "(5, or 5d for a disrupted piece)"
            raise WbkError(f"{part!r} in {name} is not a whole number {expected}")
        strength = int(match[1])
        pieces.append(Piece(strength, disrupted=True) if match[2] and strength >= 0 else strength)
    return pieces


@dataclass(frozen=True)
class _Attack:
    strength: blitz.Strength
    procedure: blitz.FireProcedure


def fire_calculator() -> ChartPanel:
    """Type the firing strengths (5d for a disrupted piece), choose the fire, the target, its
    terrain and protection; see the strength worked out, the dice and the exact damage."""

    def compute(
        strengths, engineers, fire, range_hexes, target, armor, terrain, protection,
        non_vehicle_units, leader, crowded, assault,
    ):
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
        )
        return _Attack(strength, procedure)

    def draw(figure: Figure, attack: _Attack) -> str:
        title = f"damage from {attack.strength.dice} dice"
        bar_chart(attack.procedure.damage, ax=figure.add_subplot(), title=title, xlabel="")
        return (
            f"<b>{attack.strength.dice} dice</b>{steps_html(attack.strength.steps)}"
            f"{steps_html(attack.procedure.steps)}{attack.procedure.damage._repr_html_()}"
        )

    return ChartPanel(
        compute,
        draw,
        size=(5.2, 3.2),
        strengths=widgets.Text("5, 5, 5", description="strengths (5d: disrupted)"),
        engineers=widgets.Text("", description="engineer strengths"),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        range_hexes=widgets.Text("2", description="range (hexes)"),
        target=choices(blitz.TARGETS, "target"),
        armor=widgets.Text("1", description="armor value (armored vehicle)"),
        terrain=choices(blitz.TERRAINS, "target terrain"),
        protection=choices(blitz.PROTECTIONS, "protection"),
        non_vehicle_units=widgets.IntSlider(0, 0, 6, description="non-vehicle units in target hex"),
        leader=widgets.Text("8", description="leader morale (blank: none)"),
        crowded=choices(blitz.CROWDED_READINGS, "“3 non-vehicle units” means"),
        assault=choices(blitz.ASSAULT_READINGS, "in assault combat"),
    )


def leader_worth() -> ChartPanel:
    """The damage distribution without a leader and with leaders of morale 6 to 10, side by side."""

    def compute(dice, fire, target):
        options = dict(fire=fire, target=target)
        cases = {"no leader": blitz.fire_outcome(dice, **options)}
        for morale in LEADER_MORALES:
            cases[f"morale {morale}"] = blitz.fire_outcome(dice, **options, leader_morale=morale)
        return dice, fire, target, cases

    def draw(figure: Figure, result) -> str:
        dice, fire, target, cases = result
        title = f"{label(fire)} at {_aimed_at(target)}, {dice} dice: damage"
        stacked_bars(cases, ax=figure.add_subplot(), title=title)
        rows = "".join(
            f"<tr><td>{name}</td><td>{float(d.at_least(Damage.STEP_LOSS)):.1%}</td>"
            f"<td>{float(d.probability(Damage.ELIMINATED)):.1%}</td></tr>"
            for name, d in cases.items()
        )
        note = ""
        if fire not in ("direct", "bombardment"):
            note += "<p>Leaders make no saving throws against this fire.</p>"
        if fire == "at" and target != "unarmored_vehicle":
            note += "<p>Only vehicles other than wagons take hits from AT fire.</p>"
        header = "<tr><th></th><th>step loss or worse</th><th>eliminated</th></tr>"
        return f"{note}<table>{header}{rows}</table>"

    return ChartPanel(
        compute,
        draw,
        size=(6.4, 3.6),
        dice=(1, 40, 1),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        target=choices(UNARMORED_TARGETS, "target"),
    )


def at_least_panel() -> ChartPanel:
    """P(at least each damage level) against the number of dice, and what armor does to AT fire."""

    def compute(fire, target, leader, level):
        morale = parse_optional_number(leader, "leader morale")
        options = dict(fire=fire, target=target, leader_morale=morale)
        by_dice = {n: blitz.fire_outcome(n, **options) for n in DICE_RANGE}
        vehicles = {"unarmored vehicle": dict(target="unarmored_vehicle")}
        for a in range(1, 4):
            vehicles[f"armor {a}"] = dict(target="armored_vehicle", armor=a)
        by_armor = {
            name: {n: blitz.fire_outcome(n, fire="at", **vehicle) for n in DICE_RANGE}
            for name, vehicle in vehicles.items()
        }
        return f"{label(fire)} at {_aimed_at(target)}", by_dice, level, by_armor

    def draw(figure: Figure, result) -> str:
        title, by_dice, threshold, by_armor = result
        left, right = figure.subplots(1, 2)
        _at_least_each_level(left, by_dice, title)
        title = f"AT fire at a vehicle: at least {threshold}"
        at_least_curves(by_armor, threshold, ax=right, xlabel="dice", title=title)
        return ""

    return ChartPanel(
        compute,
        draw,
        size=(10, 3.6),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        target=choices(UNARMORED_TARGETS, "target"),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        level=widgets.Dropdown(options=[(str(d), d) for d in LEVELS], description="level"),
    )


def _aimed_at(target: str) -> str:
    """The target as a title says it: "non-vehicle units", "an unarmored vehicle", "a wagon"."""
    words = label(target)
    if target == "non_vehicle":
        return words
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


def _at_least_each_level(ax, by_dice: dict[int, Dist], title: str) -> None:
    """One curve per damage level: P(this level or worse) against the dice rolled."""
    for level in LEVELS:
        chances = [float(d.at_least(level)) for d in by_dice.values()]
        ax.plot(list(by_dice), chances, label=f"{level} or worse")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("dice")
    ax.set_ylabel("probability")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
