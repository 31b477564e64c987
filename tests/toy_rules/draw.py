"""Toy Skirmish's shot drawn: the six faces of the die, those that hit in colour, the verdict and
its reason in the title; at a step, that step in words."""

import textwrap

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from wbk.dice import percent
from wbk.draw import in_figure
from wbk.draw.view import step_index

from . import Shot

HIT, MISS = "#0072B2", "#cccccc"  # Okabe-Ito blue; grey


@in_figure.register
def _shot(subject: Shot, figure: Figure, *, step: int | None = None) -> None:
    figure.set_size_inches(4.8, 3.0)
    figure.set_layout_engine("constrained")
    ax = figure.add_subplot()
    faces = range(1, 7)
    colours = [HIT if face in subject.hitting else MISS for face in faces]
    ax.bar(list(faces), [1] * 6, color=colours, edgecolor="#333333")
    ax.set(xticks=list(faces), yticks=[], ylim=(0, 1.4), xlabel="the die")
    ax.legend(
        handles=[Patch(color=HIT, label="hits"), Patch(color=MISS, label="misses")],
        loc="upper left",
        fontsize=8,
    )
    if step is None:
        verdict = f"Needs {subject.needed}+: hits {subject.chance} ({percent(subject.chance)})"
        why = subject.steps[-1]
        ax.set_title(f"{verdict}\n{why.text} ({why.rule})", fontsize=9)
    else:
        k = step_index(subject.steps, step)
        said = f"Step {k + 1} of {len(subject.steps)}: {subject.steps[k].text}"
        ax.set_title(textwrap.fill(f"{said} ({subject.steps[k].rule})", 60), fontsize=9)
