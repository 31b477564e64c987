"""Views of exact distributions that wargamers read: bars, "at least" curves, stacked bars, heatmaps.

Colours are Okabe-Ito's (``CURVE_COLOURS``, ``ORDERED_COLOURS``) or viridis/cividis, all of which
colour-blind readers tell apart; percentages printed on a chart never round a possible outcome
to 0% or an unsure one to 100%.

Each view draws on ``ax`` (a new figure when omitted) and returns the axes. Probabilities are
exact ``Fraction``s until the moment they are drawn.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction

import matplotlib
import numpy as np

from wbk.dice import Dist, outcome_name, percent

#: Bars and cells get their numbers printed when there are at most this many.
NUMBERED_UP_TO = 16
#: A bar chart of more numeric outcomes than this draws only the bars tall enough to see.
DRAWN_UP_TO = 60
#: Okabe-Ito colours, which colour-blind readers tell apart: one a curve, in this order.
CURVE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000")
CURVE_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
#: Ordered outcomes from nothing to the worst (none, disrupted, demoralized, step loss,
#: eliminated): grey, then Okabe-Ito sky blue, orange and vermillion, darkening to black.
ORDERED_COLOURS = ("#BBBBBB", "#56B4E9", "#E69F00", "#D55E00", "#000000")
BAR_COLOUR = "#0072B2"
MEAN_COLOUR = "#D55E00"


def _axes(ax, size=(6.4, 3.6)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _percent(p: float | Fraction) -> str:
    """A percentage as every table and sentence of wbk writes it (``wbk.dice.percent``): it never
    rounds a possible outcome to 0% or an unsure one to 100%."""
    return percent(Fraction(p))


def ordered_colours(n: int) -> list:
    """Colours for ``n`` ordered outcomes, nothing to worst: ``ORDERED_COLOURS`` for up to five,
    beyond that the colour-blind-safe cividis scale."""
    if n <= len(ORDERED_COLOURS):
        return list(ORDERED_COLOURS[:n])
    scale = matplotlib.colormaps["cividis_r"](np.linspace(0, 1, n))
    return [matplotlib.colors.to_hex(c) for c in scale]


def _text_colour(colour) -> str:
    """Black or white, whichever reads on ``colour``."""
    r, g, b = matplotlib.colors.to_rgb(colour)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def _is_number(outcome) -> bool:
    return isinstance(outcome, (int, Fraction)) and not isinstance(outcome, (bool, enum.Enum))


def bar_chart(
    dist: Dist,
    *,
    ax=None,
    title: str | None = None,
    xlabel: str = "outcome",
    ylabel: str = "probability",
) -> matplotlib.axes.Axes:
    """One distribution as bars of probability, its mean marked (behind the bars) when the
    outcomes are numbers; each bar's percent printed above it when there are at most
    ``NUMBERED_UP_TO`` bars. Numbers whose bars would be under 1/1000 of the tallest are left
    off the ends, and the chart says so."""
    ax = _axes(ax)
    weights, total = dist.weights, dist.total
    outcomes = dist.outcomes()
    # named outcomes (booleans, enum members such as a damage level) are categories, not numbers
    numeric = all(_is_number(o) for o in outcomes)
    tallest = max(weights.values())
    kept = [i for i, o in enumerate(outcomes) if weights[o] * 1000 >= tallest]
    if numeric and len(kept) < len(outcomes):  # only the bars a reader could see
        outcomes = outcomes[kept[0] : kept[-1] + 1]
        ax.annotate(
            "tails under 1/1000 of the tallest bar not drawn",
            (1, 1),
            xycoords="axes fraction",
            xytext=(0, -2),
            textcoords="offset points",
            ha="right",
            va="top",
            fontsize=7,
            color="#555555",
        )
    probabilities = [weights[o] / total for o in outcomes]  # exact whole numbers of any size
    positions = list(outcomes) if numeric else list(range(len(outcomes)))
    bars = ax.bar(positions, probabilities, color=BAR_COLOUR, width=0.8)
    if len(outcomes) <= NUMBERED_UP_TO:
        labels = [_percent(dist.probability(o)) for o in outcomes]
        ax.bar_label(bars, labels=labels, fontsize=8, padding=2)
    if not numeric:
        ax.set_xticks(positions, [outcome_name(o) for o in outcomes])
    if numeric:
        mean = dist.mean()
        # behind the bars: it must not hide the bar it falls on
        ax.axvline(float(mean), color=MEAN_COLOUR, linestyle="--", linewidth=1.2, zorder=0.5)
        ax.annotate(
            f"mean {float(mean):.2f}",
            (float(mean), 1),
            xycoords=("data", "axes fraction"),
            xytext=(4, -2),
            textcoords="offset points",
            color=MEAN_COLOUR,
            fontsize=8,
            va="top",
        )
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    ax.set_ylim(0, max(probabilities) * 1.22)  # room for the numbers above the bars
    ax.set_yticks([t for t in ax.get_yticks() if 0 <= t <= 1])  # no "120%" tick
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1, decimals=0))
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def _chance_axis(ax, ylabel: str, xlabel: str, title: str | None) -> None:
    ax.set_ylim(-0.02, 1.02)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1, decimals=0))
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    ax.grid(alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)


def at_least_curves(
    curves: Mapping[str, Mapping[float, Dist]],
    threshold: Hashable,
    *,
    ax=None,
    xlabel: str = "",
    ylabel: str | None = None,
    title: str | None = None,
) -> matplotlib.axes.Axes:
    """P(result >= threshold) against a parameter, one curve per entry of ``curves``
    (each a mapping from parameter value to the distribution at that value), each in its own
    Okabe-Ito colour and marker."""
    ax = _axes(ax)
    for i, (label, by_x) in enumerate(curves.items()):
        xs = list(by_x)
        ax.plot(
            xs,
            [float(by_x[x].at_least(threshold)) for x in xs],
            label=label,
            color=CURVE_COLOURS[i % len(CURVE_COLOURS)],
            marker=CURVE_MARKERS[i % len(CURVE_MARKERS)],
            markersize=3,
        )
    if ylabel is None:
        ylabel = f"chance of at least {outcome_name(threshold)}"
    _chance_axis(ax, ylabel, xlabel, title)
    ax.legend(fontsize=8)
    return ax


def at_least_each_outcome(
    by_x: Mapping[float, Dist],
    outcomes: Sequence[Hashable],
    *,
    ax=None,
    xlabel: str = "",
    ylabel: str = "chance",
    title: str | None = None,
    or_more: str = "or more",
) -> matplotlib.axes.Axes:
    """One curve per outcome: P(result >= outcome) against a parameter (``by_x`` maps each
    parameter value to the distribution there); outcomes in order, coloured as in
    ``stacked_bars``, each labelled "<outcome> or more" (or ``or_more``: "or worse"); the last,
    with nothing beyond it, just "<outcome>"."""
    ax = _axes(ax)
    xs = list(by_x)
    colours = ordered_colours(len(outcomes) + 1)[1:]  # the first colour is for "nothing"
    highest = max(o for d in by_x.values() for o in d.outcomes())
    for i, (outcome, colour) in enumerate(zip(outcomes, colours, strict=False)):
        chances = [float(by_x[x].at_least(outcome)) for x in xs]
        name = outcome_name(outcome)
        if i < len(outcomes) - 1 or outcome < highest:
            name = f"{name} {or_more}"
        ax.plot(
            xs,
            chances,
            color=colour,
            label=name,
            linestyle=("-", "--", "-.", ":")[i % 4],
            linewidth=1.6,
        )
    _chance_axis(ax, ylabel, xlabel, title)
    ax.legend(fontsize=8)
    return ax


def stacked_bars(
    cases: Mapping[str, Dist],
    *,
    ax=None,
    title: str | None = None,
    xlabel: str = "",
    colours: Sequence | None = None,
    unit: tuple[str, str] | None = None,
) -> matplotlib.axes.Axes:
    """Each case a 100% bar split into its ordered outcomes (nothing to worst, left to right),
    coloured by ``ordered_colours`` unless ``colours`` are given, the legend above in order.
    ``unit`` names what numeric outcomes count, one and many: ("hit", "hits") gives the legend
    "0 hits", "1 hit", "2 hits"."""
    ax = _axes(ax, size=(7, 0.6 + 0.45 * len(cases)))
    outcomes = sorted({o for d in cases.values() for o in d.outcomes()})
    colours = list(colours) if colours is not None else ordered_colours(len(outcomes))
    names = list(cases)
    left = np.zeros(len(names))
    for outcome, colour in zip(outcomes, colours, strict=False):
        exact = [cases[n].probability(outcome) for n in names]
        widths = np.array([float(p) for p in exact])
        name = outcome_name(outcome)
        if unit is not None:
            name = f"{name} {unit[0] if outcome == 1 else unit[1]}"
        bars = ax.barh(
            names, widths, left=left, color=colour, label=name, edgecolor="white", linewidth=0.5
        )
        ax.bar_label(
            bars,
            labels=[_percent(p) if w >= 0.07 else "" for p, w in zip(exact, widths, strict=False)],
            label_type="center",
            fontsize=7,
            color=_text_colour(colour),
        )
        left += widths
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1))
    ax.set_xlabel(xlabel)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(
        ncols=min(len(outcomes), 6),
        fontsize=8,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        frameon=False,
    )
    if title:
        ax.set_title(title, fontsize=10, pad=24)
    return ax


def heatmap(
    probability: Callable[[object, object], Fraction],
    xs: Sequence,
    ys: Sequence,
    *,
    ax=None,
    xlabel: str = "",
    ylabel: str = "",
    title: str | None = None,
) -> matplotlib.axes.Axes:
    """A probability over two parameters: ``probability(x, y)`` for every x in ``xs``, y in ``ys``."""
    ax = _axes(ax, size=(6.4, 4.2))
    exact = [[probability(x, y) for x in xs] for y in ys]
    grid = np.array([[float(p) for p in row] for row in exact])
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1, aspect="auto", origin="lower")
    ax.set_xticks(range(len(xs)), [str(x) for x in xs])
    ax.set_yticks(range(len(ys)), [str(y) for y in ys])
    if len(xs) <= NUMBERED_UP_TO and len(ys) <= NUMBERED_UP_TO:
        for j, row in enumerate(exact):
            for i, p in enumerate(row):
                colour = "white" if p < 0.6 else "black"
                ax.text(i, j, _percent(p), ha="center", va="center", fontsize=7, color=colour)
    bar = ax.figure.colorbar(image, ax=ax, label="probability")
    bar.formatter = matplotlib.ticker.PercentFormatter(1, decimals=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    return ax
