"""Blitz Combat's results drawn (see ``wbk.draw``): a fire procedure, a strength, a leader's
saving throws and rolled hits, each a chart of its steps; and the pictures of the chapter's
panels (``wbk.games.blitz.panels``), which hand their answers here.

Every choice is drawn in the rules' words (``label``: "AT fire", "dug in"); charts of damage
show all five levels, those that cannot happen at 0% with the reason in the title, and every
title is wrapped to fit its chart (``fit_title``).
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from wbk.dice import Dist, percent
from wbk.draw import in_figure
from wbk.draw.charts import (
    BAR_COLOUR,
    at_least_curves,
    at_least_each_outcome,
    bar_chart,
    outline_bars,
    stacked_bars,
)
from wbk.draw.quiz import QuestionDrawing, question_drawing
from wbk.draw.view import STEP_COLOUR, STEP_EDGE, step_index
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games import blitz
from wbk.games.blitz import Damage, RolledHits, quiz, rolled_from_throws

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
    # each reading's words, as wbk.games.blitz declares them
    **{value: words for r in blitz.READINGS.values() for value, words in r.values.items()},
}


def label(value: str) -> str:
    """The words shown for an option value: ``label("at") == "AT fire"``."""
    return LABELS.get(value, value)


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


#: How another reading's answer is drawn over this one's: a dashed outline, as
#: ``wbk.draw.charts.outline_bars`` draws another reading's chances.
_OTHER_READING_OUTLINE: dict[str, Any] = {
    "facecolor": "none",
    "edgecolor": "#1a1a1a",
    "linestyle": "--",
    "linewidth": 1.4,
}


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
    verdict = f"{blitz._hits(rolled.remaining)} left: {rolled.damage.briefly}"
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


def blitz_picture(
    subject: object, step: int | None = None, *, figure: Figure | None = None
) -> Figure:
    """The picture of a Blitz Combat result (``wbk.draw.picture`` hands it here): a
    ``FireProcedure`` (its steps, then the damage: ``fire_steps``), a ``Strength``, a leader's
    ``SavingThrows`` or ``RolledHits`` (their steps), drawn at ``step`` (None: the whole
    answer), on ``figure`` (cleared) or a new one."""
    if figure is None:
        figure = Figure()
    figure.clear()
    figure.set_size_inches(5.6, 3.6)
    figure.set_layout_engine("constrained")
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


@dataclass(frozen=True)
class Attack:
    """The fire calculator's answer: the strength worked out, the procedure to the damage, and
    the words its picture is titled with."""

    strength: blitz.Strength
    procedure: blitz.FireProcedure
    said: str  # "direct fire at non-vehicle units"
    fire: str
    target: str
    readings: list[str]  # "reading: a disrupted firer halves the whole attack"


def draw_attack(
    figure: Figure, attack: Attack, step: int | None, other: OtherReading | None
) -> str:
    """The fire calculator's picture at ``step`` (``draw_fire``), titled with the dice, the
    fire, and the chance of a step loss or worse (or why no damage can happen); returns the
    pane's HTML: the strength worked out, the procedure's steps and the damage."""
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
        f"{attack.strength._repr_html_()}{steps_html(attack.procedure.steps)}{damage._repr_html_()}"
    )


#: The leader table's columns, heading and numbers alike: names on the left, chances right.
LEADER_TABLE_STYLE = (
    "<style>.wbk-leaders th, .wbk-leaders td {text-align: right; padding: 0 0.6em}"
    " .wbk-leaders th:first-child, .wbk-leaders td:first-child {text-align: left}</style>"
)


@dataclass(frozen=True)
class LeaderCases:
    """What a leader is worth: the damage from ``dice`` of ``fire`` at ``target``, with no
    leader and with each leader's morale (by name: "no leader", "morale 6", ...)."""

    dice: int
    fire: str
    target: str
    cases: dict[str, Dist]


def draw_leader_cases(figure: Figure, result: LeaderCases) -> str:
    """The damage with each leader, as stacked bars; returns the pane's HTML: a table of the
    chances of a step loss or worse and of elimination."""
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


@dataclass(frozen=True)
class DamageCurves:
    """The "at least" curves: the damage by the number of dice for the fire chosen, and AT fire
    at a vehicle by its armor."""

    said: str
    why: str  # why this fire does no damage at all, or ""
    by_dice: dict[int, Dist]
    level: Damage
    by_armor: dict[str, dict[int, Dist]]


def draw_curves(figure: Figure, result: DamageCurves) -> str:
    """Above, the chance of each damage level or worse against the dice; below, the chance of
    ``result.level`` or worse from AT fire by armor. The pane says nothing more ("")."""
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
    said = f"{_dice(dice)} of {label(fire)} at {aimed_at(target)}"
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


def aimed_at(target: str) -> str:
    """The target as a title says it: "non-vehicle units", "an unarmored vehicle", "a wagon"."""
    words = label(target)
    if target == "non_vehicle":
        return words
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


@in_figure.register
def _blitz(
    subject: blitz.FireProcedure | blitz.Strength | blitz.SavingThrows | RolledHits,
    figure: Figure,
    *,
    step: int | None = None,
) -> None:
    blitz_picture(subject, step, figure=figure)


def _damage_chart(q) -> tuple[str, str]:
    damage = str(q.settings.get("damage"))
    worse = "" if damage == "eliminated" else " or worse"
    return damage.replace("_", " ") + worse, "damage"


question_drawing(
    quiz.HitsChance,
    QuestionDrawing(
        chart=lambda q: (
            f"{q.settings.get('hits')} hits or more from {q.settings.get('dice')} dice",
            "hits",
        )
    ),
)
question_drawing(quiz.DamageChance, QuestionDrawing(chart=_damage_chart))
