"""Streets of Stalingrad 9.67 drawn: the Close Assault Bonus advice as units lost without and
with the bonus, step by step, and what another reading moves."""

from __future__ import annotations

import textwrap

from matplotlib.figure import Figure

from wbk.dice import Dist, percent
from wbk.draw.view import STEP_COLOUR, step_index
from wbk.games.stalingrad.close_assault import (
    ABOUT_ATTACK,
    ABOUT_FIRE,
    ABOUT_WITH,
    ABOUT_WITHOUT,
    CloseAssault,
)
from wbk.games.stalingrad.crt import Crt
from wbk.games.stalingrad.draw.crt import WITH, WITHOUT
from wbk.games.stalingrad.readings import ASSAULT_READINGS


def _grouped_bars(ax, dists: dict[str, Dist], colours: dict[str, str], title: str) -> None:
    outcomes = sorted({o for d in dists.values() for o in d.outcomes()})
    width = 0.8 / len(dists)
    # past three outcomes a pair of bars is narrower than "41.67%": the numbers stand upright
    upright = len(outcomes) > 3
    for i, (name, dist) in enumerate(dists.items()):
        xs = [j + (i - (len(dists) - 1) / 2) * width for j in range(len(outcomes))]
        ps = [dist.probability(o) for o in outcomes]
        bars = ax.bar(
            xs,
            [float(p) for p in ps],
            width=width,
            color=colours[name],
            label=name,
            hatch="//" if i else None,
            edgecolor="white",
        )
        ax.bar_label(
            bars,
            labels=[percent(p) if p else "" for p in ps],
            fontsize=7,
            padding=1,
            rotation=90 if upright else 0,
        )
    ax.set_xticks(range(len(outcomes)), [str(o) for o in outcomes])
    ax.set_ylim(0, 1.3 if upright else 1.15)
    ax.set_yticks([step / 5 for step in range(6)])  # the room above 100% is for the numbers
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_title(title, fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)


def advisor_title(a: CloseAssault, crt: Crt, readings: dict[str, str] | None = None) -> str:
    """The verdict, wrapped, above the table's name and the readings that differ from the
    defaults ("[no fire without the bonus]")."""
    chosen = readings or {}
    words = [r.tag(chosen.get(r.keyword, r.default)) for r in ASSAULT_READINGS]
    words = [tag for tag in words if tag]
    tag = f" [{'; '.join(words)}]" if words else ""
    return "\n".join(textwrap.wrap(a.verdict, 95)) + f"\non the {crt.name}{tag}"


def assault_bars(a: CloseAssault, figure: Figure, step: int | None = None) -> None:
    """Defending and attacking units lost, without and with the bonus, side by side.

    ``step``: the advice at that step of its ``steps``: the chart the step is about (the
    attack's result or the defender's fire) framed in sky blue, the bars it is not about faded,
    and the step in words as the figure's title; None draws the whole answer."""
    left, right = figure.subplots(1, 2)
    without, with_ = "without the bonus", "with the Close Assault Bonus"
    colours = {without: WITHOUT, with_: WITH}
    defenders = {without: a.without.defender_losses}
    attackers = {without: a.without.attacker_losses}
    if a.with_bonus is not None:
        defenders[with_] = a.with_bonus.defender_losses
        attackers[with_] = a.with_bonus.attacker_losses
    _grouped_bars(left, defenders, colours, "defending units eliminated")
    _grouped_bars(right, attackers, colours, "attacking units lost to the defender's fire")
    handles, names = left.get_legend_handles_labels()
    figure.legend(handles, names, loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    if step is not None:
        k = step_index(a.steps, step)
        about = set(a.steps[k].about)
        for ax, kind in ((left, ABOUT_ATTACK), (right, ABOUT_FIRE)):
            charts = about & {ABOUT_ATTACK, ABOUT_FIRE}
            groups = about & {ABOUT_WITHOUT, ABOUT_WITH}
            if kind in charts:
                for spine in ax.spines.values():
                    spine.set_visible(True)
                    spine.set(color=STEP_COLOUR, linewidth=3)
            for container in ax.containers:
                label = container.get_label()
                group = ABOUT_WITHOUT if label == without else ABOUT_WITH
                if (charts and kind not in charts) or (groups and group not in groups):
                    for bar in container:
                        bar.set_alpha(0.2)
        words = f"Step {k + 1} of {len(a.steps)}: {a.steps[k].text} ({a.steps[k].rule})"
        figure.suptitle("\n".join(textwrap.wrap(words, 95)), fontsize=9)


def draw_assault(a: CloseAssault, crt: Crt):
    """The advisor's picture on a new figure: units lost without and with the bonus, side by
    side, the verdict in the title. Returns the figure."""
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(7.0, 3.8), layout="constrained")
    assault_bars(a, figure)
    figure.suptitle(advisor_title(a, crt), fontsize=9)
    return figure


#: The other reading's chances, drawn over the bars: a black dash where a bar would move.
OTHER_READING = "#1a1a1a"


def mark_other_reading(figure: Figure, a: CloseAssault, other: CloseAssault, value: str) -> bool:
    """Over the bars of ``a`` drawn by ``assault_bars``, a black dash at each chance that
    ``other`` (the advice under another reading, ``value``) moves, and its verdict under the
    title if it differs; returns whether anything a reader sees changes."""
    groups = {
        ABOUT_WITHOUT: (a.without, other.without),
        ABOUT_WITH: (a.with_bonus, other.with_bonus),
    }
    moved = False
    for ax, losses in zip(figure.axes[:2], ("defender_losses", "attacker_losses"), strict=True):
        outcomes = [tick.get_text() for tick in ax.get_xticklabels()]
        for container in ax.containers:
            group = ABOUT_WITHOUT if container.get_label() == "without the bonus" else ABOUT_WITH
            mine, theirs = groups[group]
            if mine is None or theirs is None:
                moved |= (mine is None) != (theirs is None)
                continue
            dist_mine, dist_theirs = getattr(mine, losses), getattr(theirs, losses)
            moved |= dist_mine != dist_theirs
            for bar, outcome in zip(container, outcomes, strict=False):
                key = next((o for o in dist_mine.outcomes() if str(o) == outcome), None)
                p = dist_theirs.probability(key) if key is not None else 0
                if key is not None and p != dist_mine.probability(key):
                    x = bar.get_x() + bar.get_width() / 2
                    ax.plot(
                        [x],
                        [float(p)],
                        marker="_",
                        markersize=16,
                        markeredgewidth=2.5,
                        color=OTHER_READING,
                        zorder=5,
                        label=f"under '{value}'",
                    )
    if other.verdict != a.verdict:
        moved = True
        title = figure.get_suptitle()
        verdict = "\n".join(textwrap.wrap(f"under '{value}': {other.verdict}", 95))
        figure.suptitle(f"{title}\n{verdict}", fontsize=9)
    dashes = [line for ax in figure.axes for line in ax.lines][:1]
    if dashes:  # the bars' legend again, the other reading's dash beside its two entries
        handles, names = figure.axes[0].get_legend_handles_labels()
        for legend in figure.legends:
            legend.remove()
        figure.legend(
            [*handles, *dashes],
            [*names, f"under '{value}'"],
            loc="outside lower center",
            ncols=3,
            fontsize=8,
            frameon=False,
        )
    return moved
