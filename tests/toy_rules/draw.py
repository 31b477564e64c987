"""Toy Skirmish's shot drawn: one bar for the chance, its steps in the title."""

from matplotlib.figure import Figure

from toy_rules import Shot
from wbk.pictures import picture, step_index


@picture.register
def _shot(subject: Shot, *, map=None, step=None, width=None, table=None) -> Figure:
    figure = Figure(figsize=(width or 4.0, 3.0))
    ax = figure.add_subplot()
    ax.bar(["hit"], [float(subject.chance)])
    ax.set_ylim(0, 1)
    if step is None:
        ax.set_title(f"Needs {subject.needed}+: hits {subject.chance}")
    else:
        k = step_index(subject.steps, step)
        ax.set_title(f"Step {k + 1}: {subject.steps[k].text} ({subject.steps[k].rule})")
    return figure
