"""Widget panels of the Blitz Combat chapter: fire calculator (``fire_calculator``), hits
already rolled (``hits_rolled_panel``), a leader's worth (``leader_worth``), "at least" curves
(``at_least_panel``); the controls they are made of, and the panel that steps through an answer
(``SteppedPanel``). Their pictures are drawn by ``wbk.games.blitz.draw``.

Each panel is at most 700 pixels wide, to fit beside JupyterLab's file browser, and its sliders
are wide enough to drag. Every choice shows the rules' words ("AT fire", "three or more", "dug
in"); its value is the option's name in ``wbk.games.blitz`` ("at", "three_or_more", "dug_in").
A control that changes nothing for the set-up on show says so beside it ("makes no difference
here"); the armor box is greyed out unless the target is an armored vehicle. Charts of damage
show all five levels, those that cannot happen at 0% with the reason in the title, and every
title is wrapped to fit its chart.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games import blitz
from wbk.games.blitz import Damage, Piece, RolledHits, rolled_from_throws
from wbk.games.blitz.draw import (
    LEVELS,
    Attack,
    DamageCurves,
    LeaderCases,
    OtherReading,
    aimed_at,
    draw_attack,
    draw_curves,
    draw_leader_cases,
    draw_rolled,
    fire_steps,
    label,
    why_levels_impossible,
)
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
    parse_whole_numbers,
    reports_errors,
)
from wbk.widgets.readings import compare_words

# --- the controls every panel is made of ----------------------------------------------------------

DICE_RANGE = range(1, 41)
#: Said beside a control whose every value gives the same answer for the set-up on show.
NO_DIFFERENCE = "makes no difference here"
#: No panel is wider than this: it must fit beside JupyterLab's file browser.
PANEL_WIDTH = "700px"
UNARMORED_TARGETS = ("non_vehicle", "unarmored_vehicle", "wagon")


def reading_choices(keyword: str) -> widgets.Dropdown:
    """The dropdown of one of ``wbk.games.blitz.READINGS``: its question and its values' words,
    as the reading declares them."""
    reading = blitz.READINGS[keyword]
    dropdown = _dropdown(reading.options, reading.question, reading.default)
    dropdown.tooltip = f"a reading of {reading.rule}: the text does not settle it"
    return dropdown


def choices(values, description: str, value: str | None = None) -> widgets.Dropdown:
    """A dropdown that shows each option value's words and gives back the value itself."""
    return _dropdown([(label(v), v) for v in values], description, value or values[0])


def _dropdown(options: Sequence[tuple[str, str]], description: str, value: str) -> widgets.Dropdown:
    # wide enough for the description and the longest choice, which are never cut off, not
    # even in a row too narrow for it (issue 30: "a disrupted firer halves his o...")
    width = f"{7 * len(description) + 8 * max(len(words) for words, _ in options) + 60}px"
    return widgets.Dropdown(
        options=options,
        value=value,
        description=description,
        layout=widgets.Layout(width=width, min_width=width, flex="0 0 auto"),
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


def narrow(panel: ChartPanel) -> ChartPanel:
    """At most ``PANEL_WIDTH`` wide: the controls wrap, the chart is drawn that small."""
    panel.widget.layout.max_width = PANEL_WIDTH
    return panel


def add_notes(panel: ChartPanel, names: list[str]) -> dict[str, widgets.HTML]:
    """A note beside each named control, empty until ``show_notes`` fills it."""
    # hidden while empty: an empty HTML widget still takes a widget's default width
    notes = {
        name: widgets.HTML("", layout=widgets.Layout(width="auto", display="none"))
        for name in names
    }
    panel.control_row.children = [
        widgets.HBox([control, notes[name]]) if name in notes else control
        for name, control in panel.controls.items()
    ]
    return notes


def show_notes(notes: Mapping[str, widgets.HTML], idle: Mapping[str, str]) -> None:
    """Say "makes no difference here" (and why, on hover) beside each control in ``idle``."""
    for name, note in notes.items():
        why = idle.get(name)
        note.value = (
            f'<span style="color:#666" title="{html.escape(why)}"><i>{NO_DIFFERENCE}</i></span>'
            if why
            else ""
        )
        note.layout.display = "" if why else "none"


class NotedPanel(ChartPanel):
    """A chart panel whose ``notes`` say beside a control when it makes no difference."""

    notes: dict[str, widgets.HTML]

    def setting_controls(self) -> list[widgets.Widget]:
        """The controls the picture depends on: not those that make no difference to it now (a
        saved picture's caption naming a wagon's armor value would suggest that it counted)."""
        notes = getattr(self, "notes", {})  # none yet while the panel is being made
        idle = {id(self.controls[name]) for name, note in notes.items() if note.value}
        return [c for c in super().setting_controls() if id(c) not in idle]


def keep_notes(panel: NotedPanel, names: list[str], idle: Callable[..., dict[str, str]]) -> None:
    """Notes beside ``names`` kept up to date: ``idle(**values)`` says which controls change
    nothing now, and why."""
    notes = add_notes(panel, names)
    panel.notes = notes

    def refresh(_=None) -> None:
        values = {name: control.value for name, control in panel.controls.items()}
        show_notes(notes, idle(**values))
        if "armor" in panel.controls:
            panel.controls["armor"].disabled = values.get("target") != "armored_vehicle"

    for control in panel.controls.values():
        control.observe(refresh, names="value")
    refresh()


#: Why the leader's controls change nothing when ``leader_throws`` says no.
NO_LEADER_THROWS = "leaders throw only against direct fire and bombardment on unarmored units"


def leader_throws(fire: str, target: str) -> bool:
    """Blitz Combat, Leader Saving Throws: a leader throws only against direct fire and
    bombardment on an unarmored target (an armored vehicle ignores those hits; AT fire and
    assault combat allow no saving throws)."""
    return fire in ("direct", "bombardment") and target != "armored_vehicle"


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


# --- the panels that step through their answer ----------------------------------------------------


class SteppedPanel(NotedPanel):
    """A Blitz chart panel that steps through its answer (``draw_at(figure, result, step,
    other)`` draws the result at a step, None the whole answer, and returns the pane's HTML;
    ``steps_of(result)`` its steps), compares the readings named (``other_answer(result,
    other_result, words)`` gives what to mark, or None when nothing changes) and offers the
    rules' worked examples (``presets``: name -> control values)."""

    pane_lists_steps = True

    def __init__(
        self,
        compute: Callable[..., Any],
        draw_at: Callable[[Figure, Any, int | None, Any], str],
        steps_of: Callable[[Any], tuple[Step, ...]],
        other_answer: Callable[[Any, Any, str], Any],
        readings: list[str],
        presets: dict[str, dict[str, object]],
        *,
        size: tuple[float, float],
        **controls: Any,
    ) -> None:
        self.result: Any = None
        self.other: Any = None
        #: what the figure shows: the result, the step (None: the whole answer), the other
        #: reading's answer (by id), so that a picture already on show is not drawn again
        self.drawn: tuple[int, int | None, int] = (0, None, 0)
        self.draw_at, self.steps_of, self.other_answer = draw_at, steps_of, other_answer

        def draw(figure: Figure, result: object) -> str:
            self.result = result
            self.drawn = (id(result), None, id(self.other))
            return draw_at(figure, result, None, self.other)

        super().__init__(compute, draw, size=size, **controls)
        for name, control in self.controls.items():  # presets name the controls so
            setattr(self, name, control)
        self.step_control = self.add_step_control(self.draw_step)
        words, questions = compare_words([blitz.READINGS[keyword] for keyword in readings])
        self.compare = self.add_compare_readings(
            words,
            mark=self.mark_reading,
            current=lambda: {keyword: self.controls[keyword].value for keyword in readings},
            questions=questions,
        )
        self.add_presets(presets)
        self.teach()

    def update(self) -> None:
        super().update()
        if hasattr(self, "compare"):  # not while the panel is being made
            self.teach()
            self.forget_preset()

    def apply_preset(self, values: Mapping[str, object]) -> None:
        self.applying = True
        try:
            super().apply_preset(values)
        finally:
            self.applying = False

    def forget_preset(self) -> None:
        """Once a control leaves the worked example on show, the menu says "choose" again, so
        that choosing the same example sets it again (the menu acts on a change only)."""
        menu = self.presets.menu
        example = self.presets.presets.get(menu.value)
        if getattr(self, "applying", False) or example is None:
            return
        if any(self.controls[name].value != value for name, value in example.items()):
            menu.value = self.presets.CHOOSE

    @reports_errors(stale=False)
    def teach(self) -> None:
        """A new answer: its steps listed, the verdict on show, the readings compared."""
        if self.is_out_of_date or self.result is None:
            return
        self.show_steps(self.steps_of(self.result))
        self.compare.refresh()

    def draw_step(self, k: int) -> None:
        """The picture at step ``k``; the last step is the whole answer. Not while the panel is
        out of date: the dimmed answer stays as it is until the input is fixed."""
        if self.result is None or self.stale:
            return
        step = None if self.step_control.at_answer else k
        drawn = (id(self.result), step, id(self.other))
        if drawn == self.drawn:
            return
        self.drawn = drawn
        self.figure.clear()
        self.draw_at(self.figure, self.result, step, self.other)
        self.canvas.draw_idle()

    def mark_reading(self, other: dict[str, str] | None) -> bool:
        """Draw what changes under ``other`` readings, dashed; whether anything does."""
        self.other = None
        if other is not None and self.result is not None:
            values = {name: control.value for name, control in self.controls.items()}
            values.update(other)
            ((keyword, value),) = other.items()
            reading = blitz.READINGS[keyword]
            try:
                other_result = self.compute(**values)
            except WbkError as e:
                self.show_message(f"compare readings: {e}")
            else:
                words = f"{reading.question} {reading.values[value]}"
                self.other = self.other_answer(self.result, other_result, words)
        if self.step_control.steps:
            self.draw_step(self.step_control.index)
        return self.other is not None


# --- the fire calculator --------------------------------------------------------------------------

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


# --- the hits already rolled ----------------------------------------------------------------------


def rolled_idle(*, fire: str, target: str, leader: str, hits: int, **_: Any) -> dict[str, str]:
    """The hits-rolled panel's controls that change nothing for these values, with the reason."""
    idle: dict[str, str] = {}
    if target != "armored_vehicle" or fire != "at":
        idle["armor"] = "armor counts against AT fire at an armored vehicle only"
    if not leader_throws(fire, target):
        idle["leader"] = NO_LEADER_THROWS
    if "leader" in idle or not leader.strip():
        idle["rolls"] = idle["save_bonus"] = "they count only when a leader makes saving throws"
    elif hits % 2 == 0:
        idle["save_bonus"] = "the readings differ only for an odd number of hits"
    return idle


def rolled_hits(
    hits: int,
    fire: str,
    target: str,
    armor: str,
    leader: str,
    rolls: str,
    save_bonus: str,
) -> RolledHits:
    """The dice are down: ``hits`` sixes of ``fire`` at ``target``; what armor, a leader's
    saving throws (his morale and 2d6 ``rolls``, one a hit) or the target's kind take off, and
    the damage, step by step."""
    kind = label(target)
    said = f"{blitz._hits(hits)} rolled: every 6 is a hit"
    steps = [Step(said, blitz.PROCEDURE, about=("rolled", hits))]
    marks = [""] * hits
    if fire == "assault":
        said = "assault combat: every hit counts, no armor, no saving throws"
        steps.append(Step(said, blitz.ASSAULT, about=blitz.COUNTED))
    elif fire == "at" and target in ("non_vehicle", "wagon"):
        marks = ["no effect"] * hits
        said = f"AT fire: only vehicles other than wagons take AT hits; a {kind} takes none"
        steps.append(Step(said, blitz.ARMOR, about=blitz.COUNTED))
    elif fire == "at" and target == "armored_vehicle":
        value = parse_optional_number(armor, "armor value")
        if value is None:
            raise WbkError("armor value is blank: an armored vehicle needs its armor value")
        off = min(blitz._check_count(value, "armor value"), hits)
        marks = ["armor"] * off + [""] * (hits - off)
        said = f"AT fire: armor {value} takes {blitz._hits(off)} off, {hits - off} left"
        steps.append(Step(said, blitz.ARMOR, about=("counted", "armor", value)))
    elif fire == "at":
        said = "AT fire on an unarmored vehicle: no armor takes hits off"
        steps.append(Step(said, blitz.ARMOR, about=blitz.COUNTED))
    elif target == "armored_vehicle":
        marks = ["ignored"] * hits
        said = f"an armored vehicle ignores {label(fire)} hits"
        steps.append(Step(said, blitz.ARMOR, about=blitz.COUNTED))
    else:
        morale = parse_optional_number(leader, "leader morale")
        if morale is not None:
            thrown = parse_whole_numbers(rolls, "leader's rolls")
            if len(thrown) != hits:
                raise WbkError(
                    f"leader's rolls {rolls.strip()!r}: {blitz._hits(hits)} need "
                    f"{hits} 2d6 rolls (one a hit), not {len(thrown)}"
                )
            throws = rolled_from_throws(blitz.saving_throws(morale, thrown, save_bonus=save_bonus))
            return RolledHits(throws.marks, throws.damage, (*steps, *throws.steps))
    remaining = sum(not mark for mark in marks)
    result = blitz.damage(remaining)
    said = f"{blitz._hits(remaining)} left: {result.effects}"
    steps.append(Step(said, blitz.DAMAGE, about=("damage", result)))
    return RolledHits(tuple(marks), result, tuple(steps))


#: The rules' worked examples of hits already rolled (Armor Protection, Leader Saving Throws).
ROLLED_START: dict[str, object] = {
    "hits": 3,
    "fire": "direct",
    "target": "non_vehicle",
    "armor": "1",
    "rolls": "",
    "leader": "",
    "save_bonus": "whole_pairs",
}
ROLLED_PRESETS: dict[str, dict[str, object]] = {
    "Blitz armor example: 3 AT hits on armor 1 -> 2 hits, demoralized": {
        **ROLLED_START,
        "fire": "at",
        "target": "armored_vehicle",
    },
    "Blitz leader example: 4 hits, morale 9, +2, rolls 5, 6, 7, 10 -> 1 hit, disrupted": {
        **ROLLED_START,
        "hits": 4,
        "rolls": "5, 6, 7, 10",
        "leader": "9",
    },
}


@chart_edge_cases
def hits_rolled_panel() -> NotedPanel:
    """The dice are down: type the hits rolled (and a leader's 2d6 rolls) and step through what
    armor, the saving throws or the target's kind take off, to the damage."""

    def draw(figure: Figure, result: object, step: int | None, other: object) -> str:
        assert isinstance(result, RolledHits)
        assert other is None or isinstance(other, tuple)
        changed, words = other if other is not None else (None, "")
        draw_rolled(figure, result, step=step, other=changed, other_said=words)
        return steps_html(result.steps)

    def other_answer(shown: RolledHits, other: RolledHits, words: str) -> object:
        flips = [bool(a) != bool(b) for a, b in zip(shown.marks, other.marks, strict=True)]
        return (other, f"“{words}”") if any(flips) else None

    panel = SteppedPanel(
        rolled_hits,
        draw,
        lambda rolled: rolled.steps,
        other_answer,
        ["save_bonus"],
        ROLLED_PRESETS,
        size=(5.6, 3.0),
        hits=slider(3, 0, 12, "hits rolled (6s)"),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        target=choices(blitz.TARGETS, "target"),
        armor=widgets.Text("1", description="armor value (armored vehicle)"),
        rolls=widgets.Text("", description="leader's 2d6 rolls, one a hit"),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        save_bonus=reading_choices("save_bonus"),
    )
    keep_notes(panel, ["armor", "leader", "rolls", "save_bonus"], rolled_idle)
    narrow(panel)
    return panel


# --- what a leader is worth -----------------------------------------------------------------------

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


# --- the "at least" curves ------------------------------------------------------------------------


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
