"""Widget panels of the Blitz Combat chapter: fire calculator, a leader's worth, "at least" curves.

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
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from wbk.charts import (
    BAR_COLOUR,
    at_least_curves,
    at_least_each_outcome,
    bar_chart,
    outline_bars,
    stacked_bars,
)
from wbk.dice import Dist, percent
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games import blitz
from wbk.games.blitz import Damage, Piece
from wbk.pictures import STEP_COLOUR, STEP_EDGE, step_index
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
    parse_whole_numbers,
    reports_errors,
)

LEADER_MORALES = range(6, 11)
DICE_RANGE = range(1, 41)
LEVELS = list(Damage)[1:]  # disrupted ... eliminated
#: Said beside a control whose every value gives the same answer for the set-up on show.
NO_DIFFERENCE = "makes no difference here"
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
    # each reading's words, as wbk.games.blitz declares them
    **{value: words for r in blitz.READINGS.values() for value, words in r.values.items()},
}
UNARMORED_TARGETS = ("non_vehicle", "unarmored_vehicle", "wagon")


def label(value: str) -> str:
    """The words shown for an option value: ``label("at") == "AT fire"``."""
    return LABELS.get(value, value)


def reading_choices(keyword: str) -> widgets.Dropdown:
    """The dropdown of one of ``wbk.games.blitz.READINGS``: its question and its values' words."""
    reading = blitz.READINGS[keyword]
    dropdown = choices(tuple(reading.values), reading.question)
    dropdown.tooltip = f"a reading of {reading.rule}: the text does not settle it"
    return dropdown


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


#: Title lines are wrapped at this many characters an inch of chart width (10-point type).
CHARACTERS_AN_INCH = 11.5


def fit_title(lines: list[str], figure: Figure) -> str:
    """Title lines, each wrapped to the figure's width: a long line breaks after a comma where
    it can, else between words."""
    width = int(figure.get_size_inches()[0] * CHARACTERS_AN_INCH)
    wrapped: list[str] = []
    for line in lines:
        parts = line.split(", ")
        if len(line) > width and len(parts) > 1 and all(len(p) < width for p in parts):
            current = parts[0]
            for part in parts[1:]:
                if len(current) + 2 + len(part) <= width:
                    current += f", {part}"
                else:
                    wrapped.append(f"{current},")
                    current = part
            wrapped.append(current)
        else:
            wrapped += textwrap.wrap(line, width)
    return "\n".join(wrapped)


def add_notes(panel: ChartPanel, names: list[str]) -> dict[str, widgets.HTML]:
    """A note beside each named control, empty until ``show_notes`` fills it."""
    # hidden while empty: an empty HTML widget still takes a widget's default width
    notes = {
        name: widgets.HTML("", layout=widgets.Layout(width="auto", display="none"))
        for name in names
    }
    row = panel.widget.children[0]
    row.children = [
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


def _keep_notes(panel: NotedPanel, names: list[str], idle: Callable[..., dict[str, str]]) -> None:
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


#: Why the leader's controls change nothing when ``_leader_throws`` says no.
_NO_LEADER_THROWS = "leaders throw only against direct fire and bombardment on unarmored units"


#: How another reading's answer is drawn over this one's: a dashed outline, as
#: ``wbk.charts.outline_bars`` draws another reading's chances.
_OTHER_READING_OUTLINE: dict[str, Any] = {
    "facecolor": "none",
    "edgecolor": "#1a1a1a",
    "linestyle": "--",
    "linewidth": 1.4,
}


def _leader_throws(fire: str, target: str) -> bool:
    """Blitz Combat, Leader Saving Throws: a leader throws only against direct fire and
    bombardment on an unarmored target (an armored vehicle ignores those hits; AT fire and
    assault combat allow no saving throws)."""
    return fire in ("direct", "bombardment") and target != "armored_vehicle"


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
    leader_throws = _leader_throws(fire, target)
    if not leader_throws:
        idle["leader"] = _NO_LEADER_THROWS
    if not leader_throws or not leader.strip():
        idle["save_bonus"] = "it matters only when a leader makes saving throws"
    try:
        pieces = parse_pieces(f"{strengths} {engineers}", "strengths")
    except WbkError:
        pieces = []
    disrupted = [isinstance(p, Piece) for p in pieces]
    if all(disrupted) or not any(disrupted):
        idle["disrupted_firers"] = "the readings differ only when some firers are disrupted"
    return idle


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
    fire: str
    target: str
    readings: list[str]  # "reading: a disrupted firer halves the whole attack"


def readings_said(chosen: Mapping[str, str], idle: Mapping[str, str]) -> list[str]:
    """Each reading chosen other than its default that matters here, as a title says it: a
    picture posted without its panel still says which readings it assumes."""
    said = []
    for keyword, value in chosen.items():
        reading = blitz.READINGS[keyword]
        if value != next(iter(reading.values)) and keyword not in idle:
            said.append(f"reading: {reading.question} {reading.values[value]}")
    return said


def why_levels_impossible(procedure: blitz.FireProcedure, fire: str, target: str) -> str:
    """Why the damage levels at 0% cannot happen, in words, or "" when every level can."""
    damage = procedure.damage
    impossible = [level for level in LEVELS if damage.probability(level) == 0]
    if not impossible:
        return ""
    if damage.probability(Damage.NONE) == 1:
        if fire == "at" and target in ("non_vehicle", "wagon"):
            why = "only vehicles other than wagons take AT hits"
        elif target == "armored_vehicle" and fire in ("direct", "bombardment"):
            why = f"an armored vehicle ignores {label(fire)}"
        elif fire == "at":
            why = "its armor takes off every hit the dice can score"
        else:
            why = "no dice to roll"
        return f"no damage at all: {why}"
    most = max(procedure.counted.outcomes())
    lowest = impossible[0]  # the levels that cannot happen run from this one to the worst
    worse = "" if lowest == Damage.ELIMINATED else " or worse"
    hits = "1 hit counts" if most == 1 else f"{most} hits count"
    return f"{lowest}{worse} impossible: at most {hits}"


# --- pictures at a step (issue 19) ------------------------------------------------------------

#: What a step has not reached yet: light grey bars and boxes.
NOT_YET = "#D9D9D9"
#: A hit that counts, and a hit taken off (by armor, a saving throw, the target's kind).
HIT_COLOUR = "#D55E00"
OFF_COLOUR = "#EEEEEE"


def verdict_step(procedure: blitz.FireProcedure) -> Step:
    """The last step of a fire procedure's picture: the damage the hits that count do."""
    d = procedure.damage
    worst = percent(d.at_least(Damage.STEP_LOSS))
    killed = percent(d.probability(Damage.ELIMINATED))
    said = f"the hits that count decide the damage: step loss or worse {worst}, eliminated {killed}"
    return Step(said, blitz.DAMAGE, about=("damage",))


def fire_steps(
    procedure: blitz.FireProcedure, strength: blitz.Strength | None = None
) -> tuple[Step, ...]:
    """The steps a fire procedure's picture walks through: the strength's (if given), the
    procedure's, then the damage (the whole answer)."""
    before = strength.steps if strength is not None else ()
    return (*before, *procedure.steps, verdict_step(procedure))


@dataclass(frozen=True)
class OtherReading:
    """The answer under another reading, for "compare readings": its words and results."""

    said: str  # "the whole attack"
    strength: blitz.Strength | None
    procedure: blitz.FireProcedure


def _step_heading(steps: tuple[Step, ...], k: int) -> str:
    return f"Step {k + 1} of {len(steps)}: {steps[k].text} ({steps[k].rule})"


def _other_line(other: OtherReading | None) -> list[str]:
    if other is None:
        return []
    dice = f"{_dice(other.strength.dice)}, " if other.strength is not None else ""
    worst = percent(other.procedure.damage.at_least(Damage.STEP_LOSS))
    return [f"dashed: {other.said}: {dice}step loss or worse {worst}"]


def draw_strength(
    figure: Figure,
    strength: blitz.Strength,
    *,
    step: int | None = None,
    other: OtherReading | None = None,
) -> tuple[Step, ...]:
    """Blitz Combat's strength worked out, as a ladder of bars: the running strength after
    each step (15, 7.5, 3.75) and the dice rolled (4). At ``step`` the bars up to it are drawn,
    its own in sky blue, those to come in grey; None draws them all. Returns the steps."""
    steps = strength.steps
    k = len(steps) - 1 if step is None else step_index(steps, step)
    ax = figure.add_subplot()
    _strength_ladder(ax, strength, k, other)
    lines = [_step_heading(steps, k)] if step is not None else [f"{_dice(strength.dice)}"]
    ax.set_title(fit_title(lines + _other_line(other), figure), fontsize=10)
    return steps


def _strength_ladder(
    ax, strength: blitz.Strength, k: int, other: OtherReading | None = None
) -> None:
    # each step with a number: the running strength (a Fraction) or the dice (a whole number)
    valued = [
        (i, s.about[0], Fraction(str(s.about[1])))
        for i, s in enumerate(strength.steps)
        if len(s.about) > 1
    ]
    xs = [i + 1 for i, _, _ in valued]
    heights = [float(value) for _, _, value in valued]
    colours = [STEP_COLOUR if i == k else BAR_COLOUR if i < k else NOT_YET for i, _, _ in valued]
    edges = [STEP_EDGE if i == k else "none" for i, _, _ in valued]
    bars = ax.bar(xs, heights, color=colours, edgecolor=edges, linewidth=1.5, width=0.7)
    words = [
        _dice(int(value)) if part == "dice" else blitz._number(value) for _, part, value in valued
    ]
    ax.bar_label(bars, labels=words, fontsize=8, padding=2)
    top = max(heights, default=1)
    if other is not None and other.strength is not None and xs:
        ax.bar(
            [xs[-1]],
            [other.strength.dice],
            width=0.7,
            label=f"{other.said}: {_dice(other.strength.dice)}",
            **_OTHER_READING_OUTLINE,
        )
        top = max(top, other.strength.dice)
        ax.legend(fontsize=8, loc="upper right")
    ax.set_ylim(0, top * 1.25)
    ax.set_xticks(range(1, len(strength.steps) + 1))
    ax.set_xlabel("step")
    ax.set_ylabel("strength (dice)")
    ax.spines[["top", "right"]].set_visible(False)


def draw_fire(
    figure: Figure,
    procedure: blitz.FireProcedure,
    *,
    strength: blitz.Strength | None = None,
    step: int | None = None,
    title_lines: list[str] | None = None,
    other: OtherReading | None = None,
) -> tuple[Step, ...]:
    """Blitz Combat's fire procedure at ``step`` of ``fire_steps``: a strength step draws the
    strength ladder, the roll the hits rolled, a step about the hits that count those hits
    (the hits rolled dashed behind), and the last step (or None) the damage, titled with
    ``title_lines``. ``other``: another reading's answer, drawn dashed. Returns the steps."""
    steps = fire_steps(procedure, strength)
    k = len(steps) - 1 if step is None else step_index(steps, step)
    about = steps[k].about
    part = about[0] if about else "damage"
    ax = figure.add_subplot()
    compare = _other_line(other)
    if k == len(steps) - 1:
        dice = max(procedure.rolled.outcomes())
        worst = percent(procedure.damage.at_least(Damage.STEP_LOSS))
        lines = title_lines or [f"{_dice(dice)}: step loss or worse {worst}"]
        bar_chart(
            procedure.damage,
            ax=ax,
            title=fit_title(lines + compare, figure),
            xlabel="damage",
            ylabel="chance",
            outcomes=list(Damage),
        )
        if other is not None:
            outline_bars(other.procedure.damage, ax=ax, outcomes=list(Damage), label=other.said)
            ax.legend(fontsize=8, loc="upper right")
        return steps
    if part in ("strength", "dice") and strength is not None:
        _strength_ladder(ax, strength, k, other)
    elif part == "rolled":
        bar_chart(procedure.rolled, ax=ax, xlabel="hits rolled (6s)", ylabel="chance")
        for bar in ax.patches:  # the dice just rolled: this step's part
            bar.set_facecolor(STEP_COLOUR)
            bar.set_edgecolor(STEP_EDGE)
    else:
        bar_chart(procedure.counted, ax=ax, xlabel="hits that count", ylabel="chance")
        outline_bars(procedure.rolled, ax=ax, label="hits rolled", colour="#888888")
        if other is not None:
            outline_bars(other.procedure.counted, ax=ax, label=other.said)
        ax.legend(fontsize=8, loc="upper right")
    ax.set_title(fit_title([_step_heading(steps, k), *compare], figure), fontsize=10)
    return steps


@dataclass(frozen=True)
class RolledHits:
    """The dice are down: each hit rolled, whether it counts and why not, the damage, and the
    steps (each citing its rule)."""

    marks: tuple[str, ...]  # per hit: "" if it counts, else why not ("5 + 2 saved", "armor")
    damage: Damage
    steps: tuple[Step, ...]

    @property
    def remaining(self) -> int:
        return sum(not mark for mark in self.marks)


def rolled_from_throws(throws: blitz.SavingThrows) -> RolledHits:
    """A leader's saving throws as hits rolled: each hit saved or not, by its roll."""
    bonus = throws.steps[0].about[1]
    marks = tuple(
        f"{s.about[2]} + {bonus} saved" if s.about[3] == "saved" else ""
        for s in throws.steps
        if s.about[:1] == ("roll",)
    )
    return RolledHits(marks, throws.damage, throws.steps)


def draw_rolled(
    figure: Figure,
    rolled: RolledHits,
    *,
    step: int | None = None,
    other: RolledHits | None = None,
    other_said: str = "",
) -> tuple[Step, ...]:
    """Hits rolled as a row of boxes: at ``step`` the hits dealt with so far coloured (a hit
    that counts in vermillion, one taken off in grey with the reason), the step's own outlined
    in sky blue, those to come in grey; the damage under them. ``other``: the answer under
    another reading, each hit whose fate differs outlined dashed. Returns the steps."""
    steps = rolled.steps
    k = len(steps) - 1 if step is None else step_index(steps, step)
    about = steps[k].about
    part = about[0] if about else "damage"
    n = len(rolled.marks)
    ax = figure.add_subplot()
    ax.set_axis_off()
    ax.set_xlim(-0.6, max(n, 4) - 0.4)
    ax.set_ylim(-1.4, 1.2)
    # which hits this step has dealt with: all from the first step after the roll, or each
    # saving throw in turn
    rolls_done = [s.about[1] for s in steps[: k + 1] if s.about[:1] == ("roll",)]
    throws = any(s.about[:1] == ("roll",) for s in steps)
    done = n if part in ("counted", "damage") or not throws else len(rolls_done)
    if part == "rolled":
        done = 0
    for i, mark in enumerate(rolled.marks):
        settled = i < done
        colour = (OFF_COLOUR if mark else HIT_COLOUR) if settled else NOT_YET
        if part == "rolled":
            colour = STEP_COLOUR  # the dice just rolled
        current = (part == "roll" and i == about[1]) or part in ("rolled", "counted", "bonus")
        ax.add_patch(
            Rectangle(
                (i - 0.45, 0),
                0.9,
                1,
                facecolor=colour,
                edgecolor=STEP_EDGE if current else "#888888",
                linewidth=2.5 if current else 0.8,
            )
        )
        word = (mark or "hit") if settled else "6"
        if part == "bonus" and not settled:
            word = f"6\n+ {about[1]}"  # each saving throw's bonus
        word = word.replace(" saved", "\nsaved").replace("no effect", "no\neffect")
        ax.text(
            i,
            0.5,
            word,
            ha="center",
            va="center",
            fontsize=8,
            color="white" if settled and not mark else "black",
        )
        if other is not None and other.marks[i] != mark and settled:
            ax.add_patch(
                Rectangle(
                    (i - 0.5, -0.05),
                    1.0,
                    1.1,
                    **_OTHER_READING_OUTLINE,
                )
            )
    verdict = f"{blitz._hits(rolled.remaining)} left: {rolled.damage}"
    on_show = part == "damage"
    ax.text(
        (max(n, 4) - 1) / 2,
        -0.7,
        verdict if on_show or step is None else "damage: to come",
        ha="center",
        va="center",
        fontsize=10,
        bbox={
            "facecolor": STEP_COLOUR if on_show and step is not None else "white",
            "edgecolor": STEP_EDGE if on_show else "#888888",
            "pad": 4,
        },
    )
    lines = (
        [_step_heading(steps, k)] if step is not None else [f"{blitz._hits(n)} rolled, {verdict}"]
    )
    if other is not None:
        lines.append(
            f"dashed: the hits {other_said} changes; {other.remaining} left: {other.damage}"
        )
    ax.set_title(fit_title(lines, figure), fontsize=10)
    return steps


def blitz_picture(subject: object, step: int | None = None) -> Figure:
    """The picture of a Blitz Combat result (``wbk.pictures.picture`` hands it here): a
    ``FireProcedure`` (its steps, then the damage: ``fire_steps``), a ``Strength``, a leader's
    ``SavingThrows`` or ``RolledHits`` (their steps), drawn at ``step`` (None: the whole
    answer)."""
    figure = Figure(figsize=(5.6, 3.6), layout="constrained")
    if isinstance(subject, blitz.FireProcedure):
        draw_fire(figure, subject, step=step)
    elif isinstance(subject, blitz.Strength):
        draw_strength(figure, subject, step=step)
    elif isinstance(subject, blitz.SavingThrows):
        draw_rolled(figure, rolled_from_throws(subject), step=step)
    elif isinstance(subject, RolledHits):
        draw_rolled(figure, subject, step=step)
    else:
        raise WbkError(f"wbk cannot draw a {type(subject).__name__} as a Blitz Combat picture")
    return figure


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
        self.compare = self.add_compare_readings(
            {keyword: dict(blitz.READINGS[keyword].values) for keyword in readings},
            mark=self.mark_reading,
            current=lambda: {keyword: self.controls[keyword].value for keyword in readings},
            questions={keyword: blitz.READINGS[keyword].question for keyword in readings},
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
    **{keyword: next(iter(blitz.READINGS[keyword].values)) for keyword in blitz.READINGS},
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
        disrupted_firers,
        save_bonus,
    ) -> _Attack:
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
        said = f"{label(fire)} at {_aimed_at(target)}"
        if armor_value is not None:
            said += f" (armor {armor_value})"
        if _leader_throws(fire, target) and leader is not None and leader.strip():
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
        return _Attack(strength, procedure, said, fire, target, readings_said(chosen, idle))

    def draw(figure: Figure, result: object, step: int | None, other: object) -> str:
        assert isinstance(result, _Attack)
        assert other is None or isinstance(other, OtherReading)
        attack = result
        damage = attack.procedure.damage
        why = why_levels_impossible(attack.procedure, attack.fire, attack.target)
        lines = [f"{_dice(attack.strength.dice)} of {attack.said}"]
        if damage.at_least(Damage.STEP_LOSS) == 0 and damage.probability(Damage.NONE) < 1:
            lines.append(why)  # "demoralized or worse impossible: at most 1 hit counts"
        elif why.startswith("no damage at all"):
            lines.append(why)
        else:
            worst = percent(damage.at_least(Damage.STEP_LOSS))
            killed = percent(damage.probability(Damage.ELIMINATED))
            reason = f": {why.partition(': ')[2]}" if why else ""  # ": at most 3 hits count"
            lines.append(f"step loss or worse {worst}, eliminated {killed}{reason}")
        lines += attack.readings
        draw_fire(
            figure,
            attack.procedure,
            strength=attack.strength,
            step=step,
            title_lines=lines,
            other=other,
        )
        return (
            f"{attack.strength._repr_html_()}"
            f"{steps_html(attack.procedure.steps)}{damage._repr_html_()}"
        )

    def other_answer(attack: _Attack, other: _Attack, words: str) -> OtherReading | None:
        same = (
            other.strength.dice == attack.strength.dice
            and other.procedure.damage == attack.procedure.damage
        )
        return None if same else OtherReading(words, other.strength, other.procedure)

    panel = SteppedPanel(
        compute,
        draw,
        lambda attack: fire_steps(attack.procedure, attack.strength),
        other_answer,
        ["crowded", "assault", "disrupted_firers", "save_bonus"],
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
        crowded=reading_choices("crowded"),
        assault=reading_choices("assault"),
        disrupted_firers=reading_choices("disrupted_firers"),
        save_bonus=reading_choices("save_bonus"),
    )
    noted = [
        "range_hexes",
        "armor",
        "terrain",
        "protection",
        "non_vehicle_units",
        "leader",
        "crowded",
        "assault",
        "disrupted_firers",
        "save_bonus",
    ]
    _keep_notes(panel, noted, calculator_idle)
    _narrow(panel)
    return panel


#: The leader table's columns, heading and numbers alike: names on the left, chances right.
LEADER_TABLE_STYLE = (
    "<style>.wbk-leaders th, .wbk-leaders td {text-align: right; padding: 0 0.6em}"
    " .wbk-leaders th:first-child, .wbk-leaders td:first-child {text-align: left}</style>"
)


@dataclass(frozen=True)
class _LeaderCases:
    dice: int
    fire: str
    target: str
    cases: dict[str, Dist]


@chart_edge_cases
def leader_worth() -> ChartPanel:
    """The damage distribution without a leader and with leaders of morale 6 to 10, side by side."""

    def compute(dice: int, fire: str, target: str) -> _LeaderCases:
        cases = {"no leader": blitz.fire_outcome(dice, fire=fire, target=target)}
        for morale in LEADER_MORALES:
            cases[f"morale {morale}"] = blitz.fire_outcome(
                dice, fire=fire, target=target, leader_morale=morale
            )
        return _LeaderCases(dice, fire, target, cases)

    def draw(figure: Figure, result: object) -> str:
        assert isinstance(result, _LeaderCases)
        cases = result.cases
        title = leader_title(result.dice, result.fire, result.target, cases)
        ax = figure.add_subplot()
        stacked_bars(
            cases,
            ax=ax,
            title=fit_title(title.split("\n"), figure),
            xlabel="chance of each damage level",
            outcomes=list(Damage),
        )
        rows = "".join(
            f"<tr><td>{name}</td><td>{html.escape(percent(d.at_least(Damage.STEP_LOSS)))}</td>"
            f"<td>{html.escape(percent(d.probability(Damage.ELIMINATED)))}</td></tr>"
            for name, d in cases.items()
        )
        note = ""
        if result.fire not in ("direct", "bombardment"):
            note += "<p>Leaders make no saving throws against this fire.</p>"
        if result.fire == "at" and result.target != "unarmored_vehicle":
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


@dataclass(frozen=True)
class _Curves:
    said: str
    why: str  # why this fire does no damage at all, or ""
    by_dice: dict[int, Dist]
    level: Damage
    by_armor: dict[str, dict[int, Dist]]


def at_least_idle(*, fire: str, **_: Any) -> dict[str, str]:
    """The "at least" panel's controls that change nothing for these values, with the reason."""
    if fire in ("direct", "bombardment"):
        return {}
    return {"leader": "leaders throw only against direct fire and bombardment"}


@chart_edge_cases
def at_least_panel() -> NotedPanel:
    """P(at least each damage level) against the number of dice, and what armor does to AT fire."""

    def compute(fire: str, target: str, leader: str, level: int) -> _Curves:
        morale = parse_optional_number(leader, "leader morale")
        by_dice = {
            n: blitz.fire_outcome(n, fire=fire, target=target, leader_morale=morale)
            for n in DICE_RANGE
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
        said = f"{label(fire)} at {_aimed_at(target)}"
        return _Curves(said, why, by_dice, Damage(level), by_armor)

    def draw(figure: Figure, result: object) -> str:
        assert isinstance(result, _Curves)
        top, bottom = figure.subplots(2, 1)
        title = f"{result.said}: {even_chance(result.by_dice, Damage.STEP_LOSS)}"
        if result.why:
            title = f"{result.said} does {result.why}"  # "does no damage at all: ..."
        at_least_each_outcome(
            result.by_dice,
            LEVELS,
            ax=top,
            xlabel="dice rolled",
            ylabel="chance",
            title=fit_title([title], figure),
            or_more="or worse",
        )
        by_armor, threshold = result.by_armor, result.level
        title = f"AT fire at a vehicle: {even_chance(by_armor['unarmored vehicle'], threshold)}"
        title += f" unarmored, {_first_even(by_armor['armor 3'], threshold)} at armor 3"
        at_least_curves(
            by_armor,
            threshold,
            ax=bottom,
            xlabel="dice rolled",
            ylabel="chance",
            title=fit_title([title], figure),
        )
        return ""

    panel = NotedPanel(
        compute,
        draw,
        size=(6.6, 6.4),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        target=choices(UNARMORED_TARGETS, "target"),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        # whole numbers as values, so that an edge case file writes them as such
        level=widgets.Dropdown(options=[(str(d), int(d)) for d in LEVELS], description="level"),
    )
    _keep_notes(panel, ["leader"], at_least_idle)
    _narrow(panel)
    return panel


def rolled_idle(*, fire: str, target: str, leader: str, hits: int, **_: Any) -> dict[str, str]:
    """The hits-rolled panel's controls that change nothing for these values, with the reason."""
    idle: dict[str, str] = {}
    if target != "armored_vehicle" or fire != "at":
        idle["armor"] = "armor counts against AT fire at an armored vehicle only"
    if not _leader_throws(fire, target):
        idle["leader"] = _NO_LEADER_THROWS
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
    said = f"{blitz._hits(remaining)} left: {result}"
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
    _keep_notes(panel, ["armor", "leader", "rolls", "save_bonus"], rolled_idle)
    _narrow(panel)
    return panel


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
    if all(d.probability(Damage.NONE) == 1 for d in cases.values()):
        procedure = blitz.fire_procedure(dice, fire=fire, target=target)
        return f"{said}\n{why_levels_impossible(procedure, fire, target)}"
    if fire not in ("direct", "bombardment"):
        return f"{said}\nstep loss or worse {percent(none)}: leaders make no saving throws here"
    if none == 0:
        most = _dice(dice).replace("dice", "hits").replace("die", "hit")
        return f"{said}\nno step loss or worse is possible, leader or none: at most {most}"
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
