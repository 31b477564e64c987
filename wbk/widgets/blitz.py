"""Widget panels of the Blitz Combat chapter: the fire calculator, a leader's worth, "at least" curves."""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.charts import at_least_curves, bar_chart, stacked_bars
from wbk.dice import Dist
from wbk.explain import steps_html
from wbk.games import blitz
from wbk.games.blitz import Damage
from wbk.widgets import ChartPanel, parse_optional_number, parse_whole_numbers

LEADER_MORALES = range(6, 11)
DICE_RANGE = range(1, 41)


@dataclass(frozen=True)
class _Attack:
    strength: blitz.Strength
    procedure: blitz.FireProcedure


def fire_calculator() -> ChartPanel:
    """Type the firing strengths, choose the fire and the target; see the strength worked out,
    the dice and the exact damage distribution."""

    def compute(strengths, engineers, fire, range_hexes, terrain, non_vehicle_units, disrupted, armor, leader, crowded, assault):
        strength = blitz.fire_strength(
            parse_whole_numbers(strengths, "strengths"),
            fire=fire,
            engineer_strengths=parse_whole_numbers(engineers, "engineer strengths"),
            range_hexes=parse_optional_number(range_hexes, "range"),
            target_non_vehicle_units=non_vehicle_units,
            firer_disrupted=disrupted,
            target_terrain=terrain.strip(),
            crowded=crowded,
            assault=assault,
        )
        procedure = blitz.fire_procedure(
            strength.dice,
            fire=fire,
            armor=parse_optional_number(armor, "armor value") or 0,
            leader_morale=parse_optional_number(leader, "leader morale"),
        )
        return _Attack(strength, procedure)

    def draw(figure: Figure, attack: _Attack) -> str:
        bar_chart(attack.procedure.damage, ax=figure.add_subplot(), title=f"damage from {attack.strength.dice} dice", xlabel="")
        return (
            f"<b>{attack.strength.dice} dice</b>{steps_html(attack.strength.steps)}"
            f"{steps_html(attack.procedure.steps)}{attack.procedure.damage._repr_html_()}"
        )

    return ChartPanel(
        compute,
        draw,
        size=(5.2, 3.2),
        strengths=widgets.Text("5, 5, 5", description="strengths"),
        engineers=widgets.Text("", description="engineer strengths"),
        fire=list(blitz.FIRE_TYPES),
        range_hexes=widgets.Text("2", description="range (hexes)"),
        terrain=widgets.Combobox(value="open", options=list(blitz.TERRAINS), description="target terrain", ensure_option=False),
        non_vehicle_units=widgets.IntSlider(0, 0, 6, description="non-vehicle units in target hex"),
        disrupted=widgets.Checkbox(False, description="firer disrupted"),
        armor=widgets.Text("0", description="target armor (0: none)"),
        leader=widgets.Text("8", description="leader morale (blank: none)"),
        crowded=list(blitz.CROWDED_READINGS),
        assault=list(blitz.ASSAULT_READINGS),
    )


def leader_worth() -> ChartPanel:
    """The damage distribution without a leader and with leaders of morale 6 to 10, side by side."""

    def compute(dice, fire):
        cases = {"no leader": blitz.fire_outcome(dice, fire=fire)}
        for morale in LEADER_MORALES:
            cases[f"morale {morale}"] = blitz.fire_outcome(dice, fire=fire, leader_morale=morale)
        return dice, fire, cases

    def draw(figure: Figure, result) -> str:
        dice, fire, cases = result
        stacked_bars(cases, ax=figure.add_subplot(), title=f"{fire} fire, {dice} dice: damage to the hex")
        rows = "".join(
            f"<tr><td>{name}</td><td>{float(d.at_least(Damage.STEP_LOSS)):.1%}</td>"
            f"<td>{float(d.probability(Damage.ELIMINATED)):.1%}</td></tr>"
            for name, d in cases.items()
        )
        note = "" if fire in ("direct", "bombardment") else "<p>Leaders make no saving throws against this fire.</p>"
        return f"{note}<table><tr><th></th><th>step loss or worse</th><th>eliminated</th></tr>{rows}</table>"

    return ChartPanel(compute, draw, size=(6.4, 3.6), dice=(1, 40, 1), fire=list(blitz.FIRE_TYPES))


def at_least_panel() -> ChartPanel:
    """P(at least each damage level) against the number of dice, and what armor 0-3 does to AT fire."""

    def compute(fire, leader, level):
        morale = parse_optional_number(leader, "leader morale")
        by_dice = {n: blitz.fire_outcome(n, fire=fire, leader_morale=morale) for n in DICE_RANGE}
        threshold = Damage[level.upper().replace(" ", "_")]
        by_armor = {f"armor {a}": {n: blitz.fire_outcome(n, fire="at", armor=a) for n in DICE_RANGE} for a in range(4)}
        return fire, by_dice, threshold, by_armor

    def draw(figure: Figure, result) -> str:
        fire, by_dice, threshold, by_armor = result
        left, right = figure.subplots(1, 2)
        _at_least_each_level(left, by_dice, f"{fire} fire")
        at_least_curves(by_armor, threshold, ax=right, xlabel="dice", title=f"AT fire: at least {_name(threshold)}")
        return ""

    return ChartPanel(
        compute,
        draw,
        size=(10, 3.6),
        fire=list(blitz.FIRE_TYPES),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        level=[_name(d) for d in list(Damage)[1:]],
    )


def _name(level: Damage) -> str:
    return level.name.lower().replace("_", " ")


def _at_least_each_level(ax, by_dice: dict[int, Dist], title: str) -> None:
    """One curve per damage level: P(this level or worse) against the dice rolled."""
    for level in list(Damage)[1:]:
        ax.plot(list(by_dice), [float(d.at_least(level)) for d in by_dice.values()], label=f"{_name(level)} or worse")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("dice")
    ax.set_ylabel("probability")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
