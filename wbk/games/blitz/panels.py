"""Widget panels of the Blitz Combat chapter: the fire calculator (``fire_calculator``), the hits
already rolled (``hits_rolled_panel``), what a leader is worth (``leader_worth``) and the "at
least" curves (``at_least_panel``). Each computes one of ``wbk.games.blitz.attacks``' results
from its controls and draws it as ``wbk.draw.picture`` does.

Each panel is at most 700 pixels wide, to fit beside JupyterLab's file browser, and its sliders
are wide enough to drag. Every choice shows the rules' words ("AT fire", "three or more", "dug
in"); its value is the option's name in ``wbk.games.blitz`` ("at", "three_or_more", "dug_in").
A control that changes nothing for the set-up on show says so beside it ("makes no difference
here"); the armor box is greyed out unless the target is an armored vehicle.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.draw import picture
from wbk.errors import WbkError
from wbk.games.blitz import (
    FIRE_TYPES,
    PROTECTIONS,
    READINGS,
    TARGETS,
    TERRAINS,
    Damage,
    Piece,
    RolledHits,
    label,
)
from wbk.games.blitz.attacks import (
    DICE_RANGE,
    Attack,
    Compared,
    attack,
    damage_curves,
    idle_readings,
    leader_cases,
    leader_throws,
    rolled_hits,
)
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
    parse_whole_numbers,
    reports_errors,
)

#: Said beside a control whose every value gives the same answer for the set-up on show.
NO_DIFFERENCE = "makes no difference here"
#: No panel is wider than this: it must fit beside JupyterLab's file browser.
PANEL_WIDTH = "700px"
UNARMORED_TARGETS = ("non_vehicle", "unarmored_vehicle", "wagon")
#: Why the leader's controls change nothing when ``leader_throws`` says no.
NO_LEADER_THROWS = "leaders throw only against direct fire and bombardment on unarmored units"


# --- the controls every panel is made of ------------------------------------------------------


def reading_choices(keyword: str) -> widgets.Dropdown:
    """The dropdown of one of ``wbk.games.blitz.READINGS``: its question and its values' words,
    as the reading declares them."""
    reading = READINGS[keyword]
    dropdown = _dropdown(reading.options, reading.question, reading.default)
    dropdown.tooltip = f"a reading of {reading.rule}: the text does not settle it"
    return dropdown


def choices(values: Sequence[str], description: str) -> widgets.Dropdown:
    """A dropdown that shows each option value's words and gives back the value itself."""
    return _dropdown([(label(v), v) for v in values], description, values[0])


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


class NotedPanel(ChartPanel):
    """A chart panel at most ``PANEL_WIDTH`` wide (its controls wrap, its chart is drawn that
    small), with a note beside each control ``noted`` that says when it makes no difference:
    ``idle(**values)`` gives those controls for the values on show, each with the reason (shown
    on hover). The armor box, if any, is greyed out unless the target is an armored vehicle."""

    def __init__(
        self,
        compute: Callable[..., Any],
        draw: Callable[[Figure, Any], str] | None = None,
        /,
        *,
        noted: Sequence[str] = (),
        idle: Callable[..., Mapping[str, str]] = lambda **_: {},
        size: tuple[float, float],
        **controls: Any,
    ) -> None:
        super().__init__(compute, draw, size=size, **controls)
        self.widget.layout.max_width = PANEL_WIDTH
        # hidden while empty: an empty HTML widget still takes a widget's default width
        self.notes = {
            name: widgets.HTML("", layout=widgets.Layout(width="auto", display="none"))
            for name in noted
        }
        self.control_row.children = [
            widgets.HBox([control, self.notes[name]]) if name in self.notes else control
            for name, control in self.controls.items()
        ]
        self.idle = idle
        for control in self.controls.values():
            control.observe(lambda _: self.show_notes(), names="value")
        self.show_notes()

    def show_notes(self) -> None:
        """Say "makes no difference here" (and why, on hover) beside each idle control."""
        values = {name: control.value for name, control in self.controls.items()}
        idle = self.idle(**values)
        for name, note in self.notes.items():
            why = idle.get(name)
            note.value = (
                f'<span style="color:#666" title="{html.escape(why)}"><i>{NO_DIFFERENCE}</i></span>'
                if why
                else ""
            )
            note.layout.display = "" if why else "none"
        if "armor" in self.controls:
            self.controls["armor"].disabled = values.get("target") != "armored_vehicle"

    def setting_controls(self) -> list[widgets.Widget]:
        """The controls the picture depends on: not those that make no difference to it now (a
        saved picture's caption naming a wagon's armor value would suggest that it counted)."""
        notes = getattr(self, "notes", {})  # none yet while the panel is being made
        idle = {id(self.controls[name]) for name, note in notes.items() if note.value}
        return [c for c in super().setting_controls() if id(c) not in idle]


class SteppedPanel(NotedPanel):
    """A panel that steps through its answer (an ``Attack`` or ``RolledHits``), from the
    strength to the damage, compares the ``readings`` named (the answer under another reading
    marked dashed: ``Compared``) and offers the rules' worked examples (``presets``: name ->
    control values). Its picture is ``picture(answer, step=...)``; its pane, the answer's."""

    pane_lists_steps = True

    def __init__(
        self,
        compute: Callable[..., Attack | RolledHits],
        readings: Sequence[str],
        presets: Mapping[str, Mapping[str, object]],
        **options: Any,
    ) -> None:
        self.result: Attack | RolledHits | None = None
        self.other: Compared | None = None
        #: what the figure shows: the result, the step (None: the whole answer), the other
        #: reading's answer (by id), so that a picture already on show is not drawn again
        self.drawn: tuple[int, int | None, int] = (0, None, 0)
        super().__init__(compute, self.draw_answer, **options)
        self.step_control = self.add_step_control(self.draw_step)
        self.compare = self.add_compare_readings(
            [READINGS[keyword] for keyword in readings],
            mark=self.mark_reading,
            current=lambda: {keyword: self.controls[keyword].value for keyword in readings},
        )
        self.add_presets(presets)
        self.teach()

    def draw_answer(self, figure: Figure, result: Attack | RolledHits) -> str:
        """A new answer, drawn whole; the other reading's marks follow once it is compared."""
        self.result, self.drawn = result, (id(result), None, id(None))
        picture(result, figure=figure)
        return result._repr_html_()

    def update(self) -> None:
        super().update()
        if hasattr(self, "compare"):  # not while the panel is being made
            self.teach()

    @reports_errors(stale=False)
    def teach(self) -> None:
        """A new answer: its steps listed, the verdict on show, the readings compared."""
        if self.is_out_of_date or self.result is None:
            return
        self.show_steps(self.result.steps, answer=self.result)
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
        picture(self.other or self.result, figure=self.figure, step=step)
        self.canvas.draw_idle()

    def mark_reading(self, other: dict[str, str] | None) -> bool:
        """Draw what changes under ``other`` readings, dashed; whether anything does."""
        self.other = None
        if other is not None and self.result is not None:
            values = {name: control.value for name, control in self.controls.items()}
            ((keyword, value),) = other.items()
            reading = READINGS[keyword]
            try:
                answer = self.compute(**{**values, **other})
            except WbkError as e:
                self.show_message(f"compare readings: {e}")
            else:
                if self.result.differs_from(answer):
                    said = f"{reading.question} {reading.values[value]}"
                    self.other = Compared(self.result, answer, said)
        if self.step_control.steps:
            self.draw_step(self.step_control.index)
        return self.other is not None


# --- the fire calculator ----------------------------------------------------------------------

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
    if fire == "assault":
        idle["range_hexes"] = "assault combat takes place in the hex both sides share"
    if fire not in ("direct", "bombardment"):
        idle["non_vehicle_units"] = "the crowded hex counts for direct fire and bombardment only"
    if fire == "assault" and assault == "no_terrain" and (terrain, protection) != ("open", "none"):
        idle["terrain"] = idle["protection"] = "terrain does not count in this reading"
    if target != "armored_vehicle":
        idle["armor"] = "only an armored vehicle has an armor value"
    elif fire != "at":
        idle["armor"] = "armor counts against AT fire only"
    if not leader_throws(fire, target):
        idle["leader"] = NO_LEADER_THROWS
    try:
        pieces = parse_pieces(f"{strengths} {engineers}", "strengths")
    except WbkError:
        pieces = []
    return idle | idle_readings(
        pieces,
        fire=fire,
        target=target,
        terrain=terrain,
        protection=protection,
        non_vehicle_units=non_vehicle_units,
        with_leader=bool(leader.strip()),
    )


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
    **readings: str,
) -> Attack:
    """The calculator's answer for its controls' values: its boxes read, the ``attack``."""
    pieces = parse_pieces(strengths, "strengths")
    engineer_pieces = parse_pieces(engineers, "engineer strengths")
    distance = parse_optional_number(range_hexes, "range")
    armor_value = None
    if target == "armored_vehicle":
        armor_value = parse_optional_number(armor, "armor value")
        if armor_value is None:
            raise WbkError("armor value is blank: an armored vehicle needs its armor value")
    return attack(
        pieces,
        fire=fire,
        engineer_strengths=engineer_pieces,
        range_hexes=distance,
        target=target,
        armor=armor_value,
        target_terrain=terrain,
        protection=protection,
        target_non_vehicle_units=non_vehicle_units,
        leader_morale=parse_optional_number(leader, "leader morale"),
        **readings,
    )


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
    **{keyword: READINGS[keyword].default for keyword in CALCULATOR_READINGS},
}
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
def fire_calculator() -> SteppedPanel:
    """Type the firing strengths (5d for a disrupted piece), choose the fire, the target, its
    terrain and protection; see the strength worked out, the dice and the exact damage."""
    noted = ["range_hexes", "armor", "terrain", "protection", "non_vehicle_units", "leader"]
    return SteppedPanel(
        calculate_attack,
        CALCULATOR_READINGS,
        CALCULATOR_PRESETS,
        noted=noted + CALCULATOR_READINGS,
        idle=calculator_idle,
        size=(5.6, 3.6),
        strengths=widgets.Text("5, 5, 5", description="strengths (5d: disrupted)"),
        engineers=widgets.Text("", description="engineer strengths"),
        fire=choices(FIRE_TYPES, "fire"),
        range_hexes=widgets.Text("2", description="range (hexes)"),
        target=choices(TARGETS, "target"),
        armor=widgets.Text("1", description="armor value (armored vehicle)"),
        terrain=choices(TERRAINS, "target terrain"),
        protection=choices(PROTECTIONS, "protection"),
        non_vehicle_units=slider(0, 0, 6, "non-vehicle units in target hex"),
        leader=widgets.Text("8", description="leader morale (blank: none)"),
        **{keyword: reading_choices(keyword) for keyword in CALCULATOR_READINGS},
    )


# --- the hits already rolled ------------------------------------------------------------------


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


def read_rolled_hits(
    hits: int, fire: str, target: str, armor: str, leader: str, rolls: str, save_bonus: str
) -> RolledHits:
    """The hits-rolled panel's answer for its controls' values: the boxes that count here read,
    the ``rolled_hits``."""
    armor_value = morale = None
    thrown: list[int] = []
    if fire == "at" and target == "armored_vehicle":
        armor_value = parse_optional_number(armor, "armor value")
        if armor_value is None:
            raise WbkError("armor value is blank: an armored vehicle needs its armor value")
    if leader_throws(fire, target):
        morale = parse_optional_number(leader, "leader morale")
        if morale is not None:
            thrown = parse_whole_numbers(rolls, "leader's rolls")
    return rolled_hits(
        hits,
        fire=fire,
        target=target,
        armor=armor_value,
        leader_morale=morale,
        rolls=thrown,
        save_bonus=save_bonus,
    )


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
def hits_rolled_panel() -> SteppedPanel:
    """The dice are down: type the hits rolled (and a leader's 2d6 rolls) and step through what
    armor, the saving throws or the target's kind take off, to the damage."""
    return SteppedPanel(
        read_rolled_hits,
        ["save_bonus"],
        ROLLED_PRESETS,
        noted=["armor", "leader", "rolls", "save_bonus"],
        idle=rolled_idle,
        size=(5.6, 3.0),
        hits=slider(3, 0, 12, "hits rolled (6s)"),
        fire=choices(FIRE_TYPES, "fire"),
        target=choices(TARGETS, "target"),
        armor=widgets.Text("1", description="armor value (armored vehicle)"),
        rolls=widgets.Text("", description="leader's 2d6 rolls, one a hit"),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        save_bonus=reading_choices("save_bonus"),
    )


# --- what a leader is worth, and the "at least" curves ------------------------------------------


@chart_edge_cases
def leader_worth() -> NotedPanel:
    """The damage distribution without a leader and with leaders of morale 6 to 10, side by side."""
    return NotedPanel(
        leader_cases,
        size=(6.6, 3.8),
        dice=slider(20, DICE_RANGE.start, DICE_RANGE.stop - 1, "dice"),
        fire=choices(FIRE_TYPES, "fire"),
        target=choices(UNARMORED_TARGETS, "target"),
    )


def at_least_idle(*, fire: str, **_: Any) -> dict[str, str]:
    """The "at least" panel's controls that change nothing for these values, with the reason."""
    if fire in ("direct", "bombardment"):
        return {}
    return {"leader": "leaders throw only against direct fire and bombardment"}


def read_damage_curves(fire: str, target: str, leader: str, level: int) -> Any:
    """The "at least" panel's answer: ``damage_curves``, the leader's morale read from its box."""
    return damage_curves(
        fire, target, leader_morale=parse_optional_number(leader, "leader morale"), level=level
    )


@chart_edge_cases
def at_least_panel() -> NotedPanel:
    """P(at least each damage level) against the number of dice, and what armor does to AT fire."""
    return NotedPanel(
        read_damage_curves,
        noted=["leader"],
        idle=at_least_idle,
        size=(6.6, 6.4),
        fire=choices(FIRE_TYPES, "fire"),
        target=choices(UNARMORED_TARGETS, "target"),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        # whole numbers as values, so that an edge case file writes them as such
        level=widgets.Dropdown(
            options=[(str(d), int(d)) for d in list(Damage)[1:]], description="level"
        ),
    )
