"""Blitz Combat's results drawn, each registered with ``wbk.draw.in_figure`` so that
``picture(result)`` draws it, in a notebook as in its panel: a fire procedure, a strength, a
leader's saving throws and hits rolled, each a chart of its steps; and the chapter's whole
answers (``wbk.games.blitz.attacks``): an attack, an answer compared with another reading's, what
a leader is worth and the "at least" curves. And how the quiz's questions on no board are drawn.

Every choice is drawn in the rules' words (``label``: "AT fire", "dug in"); charts of damage
show all five levels, those that cannot happen at 0% with the reason in the title, and every
title is wrapped to fit its chart (``fit_title``).
"""

from __future__ import annotations

import textwrap
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
from wbk.explain import Step
from wbk.games.blitz import (
    READINGS,
    Damage,
    FireProcedure,
    RolledHits,
    SavingThrows,
    Strength,
    dice_said,
    fire_procedure,
    hits_said,
    label,
    quiz,
    strength_said,
)
from wbk.games.blitz.attacks import (
    Attack,
    Compared,
    DamageCurves,
    LeaderCases,
    leader_throws,
    verdict_step,
)

LEVELS = list(Damage)[1:]  # disrupted ... eliminated
#: The size of a chart of one attack, and of hits rolled (inches).
CHART_SIZE = (5.6, 3.6)
ROLLED_SIZE = (5.6, 3.0)

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


def why_levels_impossible(procedure: FireProcedure, fire: str, target: str) -> str:
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


def fire_steps(procedure: FireProcedure) -> tuple[Step, ...]:
    """The steps a fire procedure's picture walks through: the procedure's, then the damage
    (the whole answer)."""
    return (*procedure.steps, verdict_step(procedure))


def _step_heading(steps: tuple[Step, ...], k: int) -> str:
    return f"Step {k + 1} of {len(steps)}: {steps[k].text} ({steps[k].rule})"


def _other_line(other: Compared | None) -> list[str]:
    if other is None:
        return []
    attack = other.other
    assert isinstance(attack, Attack)
    worst = percent(attack.procedure.damage.at_least(Damage.STEP_LOSS))
    return [f"dashed: {other.said}: {dice_said(attack.strength.dice)}, step loss or worse {worst}"]


def _laid_out(figure: Figure, size: tuple[float, float]) -> None:
    figure.set_size_inches(*size)
    figure.set_layout_engine("constrained")


def _no_step(result: object, step: int | None) -> None:
    if step is not None:
        raise WbkError(f"a {type(result).__name__} has no steps to draw at step {step!r}")


@in_figure.register
def draw_strength(strength: Strength, figure: Figure, *, step: int | None = None) -> None:
    """Blitz Combat's strength worked out, as a ladder of bars: the running strength after
    each step (15, 7.5, 3.75) and the dice rolled (4). At ``step`` the bars up to it are drawn,
    its own in sky blue, those to come in grey; None draws them all."""
    _laid_out(figure, CHART_SIZE)
    steps = strength.steps
    k = len(steps) - 1 if step is None else step_index(steps, step)
    ax = figure.add_subplot()
    _strength_ladder(ax, strength, k)
    lines = [_step_heading(steps, k)] if step is not None else [dice_said(strength.dice)]
    ax.set_title(fit_title(lines, figure), fontsize=10)


def _strength_ladder(ax, strength: Strength, k: int, other: Compared | None = None) -> None:
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
        dice_said(int(value)) if part == "dice" else strength_said(value)
        for _, part, value in valued
    ]
    ax.bar_label(bars, labels=words, fontsize=8, padding=2)
    top = max(heights, default=1)
    if other is not None and xs:
        assert isinstance(other.other, Attack)
        dice = other.other.strength.dice
        ax.bar(
            [xs[-1]],
            [dice],
            width=0.7,
            label=f"{other.said}: {dice_said(dice)}",
            **_OTHER_READING_OUTLINE,
        )
        top = max(top, dice)
        ax.legend(fontsize=8, loc="upper right")
    ax.set_ylim(0, top * 1.25)
    ax.set_xticks(range(1, len(strength.steps) + 1))
    ax.set_xlabel("step")
    ax.set_ylabel("strength (dice)")
    ax.spines[["top", "right"]].set_visible(False)


def draw_fire(
    figure: Figure,
    procedure: FireProcedure,
    *,
    strength: Strength | None = None,
    step: int | None = None,
    title_lines: list[str] | None = None,
    other: Compared | None = None,
) -> None:
    """Blitz Combat's fire procedure at ``step`` of its steps (the ``strength``'s first, if
    given, then ``fire_steps``): a strength step draws the strength ladder, the roll the hits
    rolled, a step about the hits that count those hits (the hits rolled dashed behind), and
    the last step (or None) the damage, titled with ``title_lines``. ``other``: the attack
    under another reading, drawn dashed."""
    steps = (*(strength.steps if strength is not None else ()), *fire_steps(procedure))
    k = len(steps) - 1 if step is None else step_index(steps, step)
    about = steps[k].about
    part = about[0] if about else "damage"
    ax = figure.add_subplot()
    compare = _other_line(other)
    shown = other.other if other is not None else None
    assert shown is None or isinstance(shown, Attack)
    if k == len(steps) - 1:
        dice = max(procedure.rolled.outcomes())
        worst = percent(procedure.damage.at_least(Damage.STEP_LOSS))
        lines = title_lines or [f"{dice_said(dice)}: step loss or worse {worst}"]
        bar_chart(
            procedure.damage,
            ax=ax,
            title=fit_title(lines + compare, figure),
            xlabel="damage",
            ylabel="chance",
            outcomes=list(Damage),
        )
        if other is not None and shown is not None:
            damage = shown.procedure.damage
            outline_bars(damage, ax=ax, outcomes=list(Damage), label=other.said)
            ax.legend(fontsize=8, loc="upper right")
        return
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
        if other is not None and shown is not None:
            outline_bars(shown.procedure.counted, ax=ax, label=other.said)
        ax.legend(fontsize=8, loc="upper right")
    ax.set_title(fit_title([_step_heading(steps, k), *compare], figure), fontsize=10)


@in_figure.register
def _procedure(procedure: FireProcedure, figure: Figure, *, step: int | None = None) -> None:
    _laid_out(figure, CHART_SIZE)
    draw_fire(figure, procedure, step=step)


def draw_rolled(
    figure: Figure,
    rolled: RolledHits,
    *,
    step: int | None = None,
    other: Compared | None = None,
) -> None:
    """Hits rolled as a row of boxes: at ``step`` the hits dealt with so far coloured (a hit
    that counts in vermillion, one taken off in grey with the reason), the step's own outlined
    in sky blue, those to come in grey; the damage under them. ``other``: the hits under
    another reading, each hit whose fate differs outlined dashed."""
    steps = rolled.steps
    k = len(steps) - 1 if step is None else step_index(steps, step)
    about = steps[k].about
    part = about[0] if about else "damage"
    n = len(rolled.marks)
    changed = other.other if other is not None else None
    assert changed is None or isinstance(changed, RolledHits)
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
        if changed is not None and changed.marks[i] != mark and settled:
            ax.add_patch(Rectangle((i - 0.5, -0.05), 1.0, 1.1, **_OTHER_READING_OUTLINE))
    verdict = f"{hits_said(rolled.remaining)} left: {rolled.damage.briefly}"
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
    lines = [_step_heading(steps, k)] if step is not None else [f"{hits_said(n)} rolled, {verdict}"]
    if other is not None and changed is not None:
        lines.append(
            f"dashed: the hits “{other.said}” changes; {changed.remaining} left: {changed.damage}"
        )
    ax.set_title(fit_title(lines, figure), fontsize=10)


@in_figure.register
def _throws(throws: SavingThrows, figure: Figure, *, step: int | None = None) -> None:
    _laid_out(figure, CHART_SIZE)
    draw_rolled(figure, throws, step=step)


@in_figure.register
def _rolled(rolled: RolledHits, figure: Figure, *, step: int | None = None) -> None:
    _laid_out(figure, ROLLED_SIZE)
    draw_rolled(figure, rolled, step=step)


def draw_attack(
    figure: Figure, attack: Attack, step: int | None = None, other: Compared | None = None
) -> None:
    """An attack at ``step`` (``draw_fire``), titled with the dice, the fire, the chance of a
    step loss or worse (or why no damage can happen) and the readings it assumes that are not
    the default: a picture posted without its panel still says which readings it assumes."""
    damage = attack.procedure.damage
    why = why_levels_impossible(attack.procedure, attack.fire, attack.target)
    said = f"{label(attack.fire)} at {aimed_at(attack.target)}"
    if attack.armor is not None:
        said += f" (armor {attack.armor})"
    if leader_throws(attack.fire, attack.target) and attack.leader_morale is not None:
        said += f", leader morale {attack.leader_morale}"
    lines = [f"{dice_said(attack.strength.dice)} of {said}"]
    if damage.at_least(Damage.STEP_LOSS) == 0 and damage.probability(Damage.NONE) < 1:
        lines.append(why)  # "demoralized or worse impossible: at most 1 hit counts"
    elif why.startswith("no damage at all"):
        lines.append(why)
    else:
        worst = percent(damage.at_least(Damage.STEP_LOSS))
        killed = percent(damage.probability(Damage.ELIMINATED))
        reason = f": {why.partition(': ')[2]}" if why else ""  # ": at most 3 hits count"
        lines.append(f"step loss or worse {worst}, eliminated {killed}{reason}")
    for keyword, value in attack.readings.items():
        reading = READINGS[keyword]
        lines.append(f"reading: {reading.question} {reading.values[value]}")
    draw_fire(
        figure,
        attack.procedure,
        strength=attack.strength,
        step=step,
        title_lines=lines,
        other=other,
    )


@in_figure.register
def _attack(attack: Attack, figure: Figure, *, step: int | None = None) -> None:
    _laid_out(figure, CHART_SIZE)
    draw_attack(figure, attack, step)


@in_figure.register
def _compared(compared: Compared, figure: Figure, *, step: int | None = None) -> None:
    if isinstance(compared.answer, Attack):
        _laid_out(figure, CHART_SIZE)
        draw_attack(figure, compared.answer, step, compared)
    else:
        _laid_out(figure, ROLLED_SIZE)
        draw_rolled(figure, compared.answer, step=step, other=compared)


@in_figure.register
def draw_leader_cases(result: LeaderCases, figure: Figure, *, step: int | None = None) -> None:
    """The damage with each leader, as stacked bars, titled with what the best and the worst
    leader do (``leader_title``)."""
    _no_step(result, step)
    _laid_out(figure, (6.6, 3.8))
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


@in_figure.register
def draw_curves(result: DamageCurves, figure: Figure, *, step: int | None = None) -> None:
    """Above, the chance of each damage level or worse against the dice; below, the chance of
    ``result.level`` or worse from AT fire by armor."""
    _no_step(result, step)
    _laid_out(figure, (6.6, 6.4))
    top, bottom = figure.subplots(2, 1)
    said = f"{label(result.fire)} at {aimed_at(result.target)}"
    procedure = fire_procedure(1, fire=result.fire, target=result.target)
    why = why_levels_impossible(procedure, result.fire, result.target)
    title = f"{said}: {even_chance(result.by_dice, Damage.STEP_LOSS)}"
    if why.startswith("no damage at all"):
        title = f"{said} does {why}"  # "does no damage at all: ..."
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


def _first_even(by_dice: dict[int, Dist], level: Damage) -> str:
    """The fewest dice with an even chance or better of ``level`` or worse, in words."""
    for n, d in by_dice.items():
        if d.at_least(level) >= Fraction(1, 2):
            return dice_said(n)
    return f"more than {dice_said(max(by_dice))}"


def even_chance(by_dice: dict[int, Dist], level: Damage) -> str:
    """How many dice give an even chance of ``level`` or worse: "a step loss or worse is an
    even chance from 12 dice"."""
    worse = "" if level == LEVELS[-1] else " or worse"
    return f"{level}{worse} is an even chance or better from {_first_even(by_dice, level)}"


def leader_title(dice: int, fire: str, target: str, cases: dict[str, Dist]) -> str:
    """The leader panel's answer: what the best and the worst leader do to the chance of a step
    loss or worse, against no leader."""
    said = f"{dice_said(dice)} of {label(fire)} at {aimed_at(target)}"
    none, worst, best = (
        cases[name].at_least(Damage.STEP_LOSS) for name in ("no leader", "morale 6", "morale 10")
    )
    if all(d.probability(Damage.NONE) == 1 for d in cases.values()):
        procedure = fire_procedure(dice, fire=fire, target=target)
        return f"{said}\n{why_levels_impossible(procedure, fire, target)}"
    if fire not in ("direct", "bombardment"):
        return f"{said}\nstep loss or worse {percent(none)}: leaders make no saving throws here"
    if none == 0:
        most = dice_said(dice).replace("dice", "hits").replace("die", "hit")
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


# --- the quiz's questions on no board ---------------------------------------------------------


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
