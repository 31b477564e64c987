"""Widget panels of the Blitz Combat chapter: fire calculator, a leader's worth, "at least" curves.

Each panel is at most 700 pixels wide, to fit beside JupyterLab's file browser, and its sliders
are wide enough to drag. Every choice shows the rules' words ("AT fire", "three or more", "dug in"); its value is the
option's name in ``wbk.games.blitz`` ("at", "three_or_more", "dug_in").
"""

from __future__ import annotations

import html
import re
import textwrap
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.charts import at_least_curves, at_least_each_outcome, bar_chart, stacked_bars
from wbk.dice import Dist, percent
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.games import blitz
from wbk.games.blitz import Damage, Piece
from wbk.widgets import ChartPanel, parse_optional_number

LEADER_MORALES = range(6, 11)
DICE_RANGE = range(1, 41)
LEVELS = list(Damage)[1:]  # disrupted ... eliminated
#: No panel is wider than this: it must fit beside JupyterLab's file browser.
PANEL_WIDTH = "700px"

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
    # wide enough for the description and the longest choice, which are never cut off
    width = f"{7 * len(description) + 8 * max(len(words) for words, _ in options) + 60}px"
    return widgets.Dropdown(
        options=options,
        value=value or values[0],
        description=description,
        layout=widgets.Layout(width=width),
    )


def slider(value: int, low: int, high: int, description: str) -> widgets.IntSlider:
    """A whole-number slider wide enough for its description and a track to drag (about 7
    pixels a character of description, 200 for the track and the number)."""
    width = f"{7 * len(description) + 200}px"
    return widgets.IntSlider(
        value,
        low,
        high,
        description=description,
        style={"description_width": "initial"},
        layout=widgets.Layout(width=width),
    )


def _narrow(panel: ChartPanel) -> ChartPanel:
    """At most ``PANEL_WIDTH`` wide: the controls wrap, the chart is drawn that small."""
    panel.widget.layout.max_width = PANEL_WIDTH
    return panel


def _dice(n: int) -> str:
    return "1 die" if n == 1 else f"{n:,} dice"


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
    said: str  # "direct fire at non-vehicle units"


def fire_calculator() -> ChartPanel:
    """Type the firing strengths (5d for a disrupted piece), choose the fire, the target, its
    terrain and protection; see the strength worked out, the dice and the exact damage."""

    def compute(
        strengths,
        engineers,
        fire,
        range_hexes,
        target,
        armor,
        terrain,
        protection,
        non_vehicle_units,
        leader,
        crowded,
        assault,
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
        said = f"{label(fire)} at {_aimed_at(target)}"
        if armor_value is not None:
            said += f" (armor {armor_value})"
        if leader is not None and leader.strip():
            said += f", leader morale {leader.strip()}"
        return _Attack(strength, procedure, said)

    def draw(figure: Figure, attack: _Attack) -> str:
        damage = attack.procedure.damage
        worst = percent(damage.at_least(Damage.STEP_LOSS))
        killed = percent(damage.probability(Damage.ELIMINATED))
        title = f"{_dice(attack.strength.dice)} of {attack.said}\n"
        title += f"step loss or worse {worst}, eliminated {killed}"
        bar_chart(damage, ax=figure.add_subplot(), title=title, xlabel="damage", ylabel="chance")
        return (
            f"{attack.strength._repr_html_()}"
            f"{steps_html(attack.procedure.steps)}{damage._repr_html_()}"
        )

    return _narrow(
        ChartPanel(
            compute,
            draw,
            size=(5.6, 3.4),
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
            crowded=choices(blitz.CROWDED_READINGS, "“3 non-vehicle units” means"),
            assault=choices(blitz.ASSAULT_READINGS, "in assault combat"),
        )
    )


#: The leader table's columns, heading and numbers alike: names on the left, chances right.
LEADER_TABLE_STYLE = (
    "<style>.wbk-leaders th, .wbk-leaders td {text-align: right; padding: 0 0.6em}"
    " .wbk-leaders th:first-child, .wbk-leaders td:first-child {text-align: left}</style>"
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
        title = leader_title(dice, fire, target, cases)
        ax = figure.add_subplot()
        stacked_bars(cases, ax=ax, title=title, xlabel="chance of each damage level")
        rows = "".join(
            f"<tr><td>{name}</td><td>{html.escape(percent(d.at_least(Damage.STEP_LOSS)))}</td>"
            f"<td>{html.escape(percent(d.probability(Damage.ELIMINATED)))}</td></tr>"
            for name, d in cases.items()
        )
        note = ""
        if fire not in ("direct", "bombardment"):
            note += "<p>Leaders make no saving throws against this fire.</p>"
        if fire == "at" and target != "unarmored_vehicle":
            note += "<p>Only vehicles other than wagons take hits from AT fire.</p>"
        header = "<tr><th>leader</th><th>step loss or worse</th><th>eliminated</th></tr>"
        return f'{note}{LEADER_TABLE_STYLE}<table class="wbk-leaders">{header}{rows}</table>'

    return _narrow(
        ChartPanel(
            compute,
            draw,
            size=(6.6, 3.8),
            dice=slider(20, DICE_RANGE.start, DICE_RANGE.stop - 1, "dice"),
            fire=choices(blitz.FIRE_TYPES, "fire"),
            target=choices(UNARMORED_TARGETS, "target"),
        )
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
        said, by_dice, threshold, by_armor = result
        top, bottom = figure.subplots(2, 1)
        title = f"{said}: {even_chance(by_dice, Damage.STEP_LOSS)}"
        if all(d.probability(Damage.NONE) == 1 for d in by_dice.values()):
            title = f"{said} does no damage at all"
        title = "\n".join(textwrap.wrap(title, 70))
        options = dict(xlabel="dice rolled", ylabel="chance", title=title, or_more="or worse")
        at_least_each_outcome(by_dice, LEVELS, ax=top, **options)
        title = f"AT fire at a vehicle: {even_chance(by_armor['unarmored vehicle'], threshold)}"
        title += f" unarmored, {_first_even(by_armor['armor 3'], threshold)} at armor 3"
        title = "\n".join(textwrap.wrap(title, 70))
        ylabel = "chance"
        at_least_curves(
            by_armor, threshold, ax=bottom, xlabel="dice rolled", ylabel=ylabel, title=title
        )
        return ""

    return _narrow(
        ChartPanel(
            compute,
            draw,
            size=(6.6, 6.4),
            fire=choices(blitz.FIRE_TYPES, "fire"),
            target=choices(UNARMORED_TARGETS, "target"),
            leader=widgets.Text("", description="leader morale (blank: none)"),
            level=widgets.Dropdown(options=[(str(d), d) for d in LEVELS], description="level"),
        )
    )


def _first_even(by_dice: dict[int, Dist], level: Damage) -> str:
    """The fewest dice with an even chance or better of ``level`` or worse, in words."""
    for n, d in by_dice.items():
        if d.at_least(level) >= Fraction(1, 2):
            return _dice(n)
    return f"more than {_dice(max(by_dice))}"


def even_chance(by_dice: dict[int, Dist], level: Damage) -> str:
    """How many dice give an even chance of ``level`` or worse: "a step loss or worse is an
    even chance from 12 dice"."""
    worse = "" if level == LEVELS[-1] else " or worse"
    return f"{level}{worse} is an even chance or better from {_first_even(by_dice, level)}"


def leader_title(dice: int, fire: str, target: str, cases: dict[str, Dist]) -> str:
    """The leader panel's answer: what the best and the worst leader do to the chance of a step
    loss or worse, against no leader."""
    said = f"{_dice(dice)} of {label(fire)} at {_aimed_at(target)}"
    none, worst, best = (
        cases[name].at_least(Damage.STEP_LOSS) for name in ("no leader", "morale 6", "morale 10")
    )
    if fire not in ("direct", "bombardment"):
        return f"{said}\nstep loss or worse {percent(none)}: leaders make no saving throws here"
    if none == 0:
        return f"{said}\nno step loss or worse is possible, leader or none"
    return (
        f"{said}\nstep loss or worse: no leader {percent(none)}, morale 6 {percent(worst)}, "
        f"morale 10 {percent(best)}"
    )


def _aimed_at(target: str) -> str:
    """The target as a title says it: "non-vehicle units", "an unarmored vehicle", "a wagon"."""
    words = label(target)
    if target == "non_vehicle":
        return words
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"
