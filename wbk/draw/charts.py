"""Views of exact distributions that wargamers read: bars, "at least" curves, stacked bars,
heatmaps.

Colours are Okabe-Ito's (``CURVE_COLOURS``, ``ORDERED_COLOURS``) or viridis/cividis, all of which
colour-blind readers tell apart; percentages printed on a chart never round a possible outcome
to 0% or an unsure one to 100%.

Each view draws on ``ax`` (a new figure when omitted) and returns the axes. Probabilities are
exact ``Fraction``s until the moment they are drawn.

Every view reads the same way: counts (hits, dice) get whole-number ticks only, chances get
percent ticks in even steps of 1, 2 or 5 times a power of ten ("0%, 5%, 10%", never "2%, 5%,
8%"), and no two pieces of text overlap (the mean's label sits above the chart as a tick of its
own, a note on left-off tails joins the axis label, a number that does not fit its bar or cell
is left off).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction

import matplotlib
import numpy as np

from wbk.dice import Dist, Outcome, outcome_name, percent
from wbk.errors import WbkError

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


#: Percent ticks step by one of these times a power of ten.
EVEN_STEPS = (1, 2, 5, 10)


def _axes(ax, size=(6.4, 3.6)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _percent(p: float | Fraction) -> str:
    """A percentage as every table and sentence of wbk writes it (``wbk.dice.percent``): it never
    rounds a possible outcome to 0% or an unsure one to 100%."""
    return percent(Fraction(p))


def _percent_tick(value: float, _position=None) -> str:
    """A tick of a chance axis: "5%", "0.2%", "100%" (the steps are even, so no rounding)."""
    return f"{round(value * 100, 6):g}%"


def _even_percent_ticks(top: float) -> list[float]:
    """Ticks from 0 to ``top`` (at most 1) in an even step of 1, 2 or 5 times a power of ten."""
    locator = matplotlib.ticker.MaxNLocator(nbins=6, steps=list(EVEN_STEPS))
    return [float(t) for t in locator.tick_values(0, top) if 0 <= t <= min(top, 1) + 1e-12]


def _percent_axis(axis, top: float = 1.0) -> None:
    """A chance axis from 0 to ``top``: even percent ticks."""
    axis.set_ticks(_even_percent_ticks(top))
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(_percent_tick))


def _is_whole(value) -> bool:
    return isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1)


def _count_axis(axis, values: Sequence, each_up_to: int = NUMBERED_UP_TO) -> None:
    """Whole-number ticks for an axis of counts (hits, dice): each value when there are at most
    ``each_up_to``, else whole numbers in even steps; never "0.25 hits"."""
    if not values or not all(_is_whole(v) and not isinstance(v, bool) for v in values):
        return
    if len(values) <= each_up_to:
        axis.set_ticks([int(v) for v in values])
    else:
        axis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True, steps=[1, 2, 5, 10]))


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
    outcomes: Sequence | None = None,
) -> matplotlib.axes.Axes:
    """One distribution as bars of probability, its mean marked (behind the bars) when the
    outcomes are numbers; each bar's percent printed above it when there are at most
    ``NUMBERED_UP_TO`` bars. Numbers whose bars would be under 1/1000 of the tallest are left
    off the ends, and the chart says so. ``outcomes`` lists every outcome to show, in order,
    those that cannot come up included as bars of 0% (every damage level, say)."""
    ax = _axes(ax)
    weights, total = dist.weights, dist.total
    every = outcomes is not None
    outcomes = tuple(outcomes) if outcomes is not None else dist.outcomes()
    missing = [o for o in dist.outcomes() if o not in outcomes]
    if missing:
        raise WbkError(f"outcomes {list(outcomes)!r} leave out {missing[0]!r}, which can come up")
    # named outcomes (booleans, enum members such as a damage level) are categories, not numbers
    numeric = all(_is_number(o) for o in outcomes)
    tallest = max(weights.values())
    kept = [i for i, o in enumerate(outcomes) if weights.get(o, 0) * 1000 >= tallest]
    if numeric and not every and len(kept) < len(outcomes):  # only the bars a reader could see
        outcomes = outcomes[kept[0] : kept[-1] + 1]
        xlabel = f"{xlabel} (tails under 1/1000 of the tallest bar not drawn)"
    probabilities = [weights.get(o, 0) / total for o in outcomes]  # whole numbers of any size
    positions = list(outcomes) if numeric else list(range(len(outcomes)))
    bars = ax.bar(positions, probabilities, color=BAR_COLOUR, width=0.8)
    if len(outcomes) <= NUMBERED_UP_TO:
        labels = [_percent(dist.probability(o)) for o in outcomes]
        # on a white ground: the mean's dashed line passes behind a number, never through it
        halo = {"facecolor": "white", "edgecolor": "none", "pad": 0.5}
        ax.bar_label(bars, labels=labels, fontsize=8, padding=2, bbox=halo)
    if numeric:
        _count_axis(ax.xaxis, outcomes)
        mean = float(dist.mean())
        # behind the bars: it must not hide the bar it falls on
        ax.axvline(mean, color=MEAN_COLOUR, linestyle="--", linewidth=1.2, zorder=0.5)
        # its label a tick above the chart, clear of the bars' numbers (the title makes room)
        top = ax.secondary_xaxis("top")
        top.set_xticks([mean], [f"mean {mean:.2f}"])
        top.tick_params(colors=MEAN_COLOUR, labelsize=8, length=3, pad=1)
        top.spines["top"].set_visible(False)
    else:
        ax.set_xticks(positions, [outcome_name(o) for o in outcomes])
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    top_chance = max(probabilities) * 1.22  # room for the numbers above the bars
    ax.set_ylim(0, top_chance)
    _percent_axis(ax.yaxis, top_chance)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def outline_bars(
    dist: Dist,
    *,
    ax,
    outcomes: Sequence | None = None,
    label: str | None = None,
    colour: str = "#1a1a1a",
) -> matplotlib.axes.Axes:
    """Another distribution's bars as dashed outlines over a ``bar_chart`` of the same outcomes
    (the same positions): what moves between two cases, another reading of a rule, say. The
    chance axis grows if an outline stands taller than the bars; with ``outcomes`` omitted, only
    the outlines at least 1/1000 of the tallest are drawn, as ``bar_chart`` does."""
    if not isinstance(dist, Dist):
        raise WbkError(f"outline_bars: {dist!r} is not a Dist")
    if outcomes is None:
        tallest = max(dist.weights.values())
        outcomes = [o for o, w in dist.weights.items() if w * 1000 >= tallest]
    outcomes = tuple(outcomes)
    numeric = all(_is_number(o) for o in outcomes)
    positions = list(outcomes) if numeric else list(range(len(outcomes)))
    chances = [float(dist.probability(o)) for o in outcomes]
    ax.bar(
        positions,
        chances,
        width=0.8,
        facecolor="none",
        edgecolor=colour,
        linestyle="--",
        linewidth=1.4,
        label=label,
        zorder=3,
    )
    top = max(chances) * 1.22
    if top > ax.get_ylim()[1]:
        ax.set_ylim(0, top)
        _percent_axis(ax.yaxis, top)
    return ax


def _chance_axis(ax, ylabel: str, xlabel: str, title: str | None, xs: Sequence) -> None:
    ax.set_ylim(-0.02, 1.02)
    _percent_axis(ax.yaxis)
    _count_axis(ax.xaxis, xs, each_up_to=0)
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    ax.grid(alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)


def at_least_curves(
    curves: Mapping[str, Mapping[Outcome, Dist]],
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
    every_x = sorted({x for by_x in curves.values() for x in by_x})
    _chance_axis(ax, ylabel, xlabel, title, every_x)
    ax.legend(fontsize=8)
    return ax


def at_least_each_outcome(
    by_x: Mapping[Outcome, Dist],
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
    _chance_axis(ax, ylabel, xlabel, title, xs)
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
    outcomes: Sequence | None = None,
) -> matplotlib.axes.Axes:
    """Each case a 100% bar split into its ordered outcomes (nothing to worst, left to right),
    coloured by ``ordered_colours`` unless ``colours`` are given, the legend above in order.
    ``unit`` names what numeric outcomes count, one and many: ("hit", "hits") gives the legend
    "0 hits", "1 hit", "2 hits". ``outcomes`` lists every outcome the legend names, those no
    case can come to included (every damage level, say)."""
    ax = _axes(ax, size=(7, 0.6 + 0.45 * len(cases)))
    possible = sorted({o for d in cases.values() for o in d.outcomes()})
    if outcomes is None:
        outcomes = possible
    elif any(o not in outcomes for o in possible):
        left_out = next(o for o in possible if o not in outcomes)
        raise WbkError(f"outcomes {list(outcomes)!r} leave out {left_out!r}, which can come up")
    colours = list(colours) if colours is not None else ordered_colours(len(outcomes))
    names = list(cases)
    left = np.zeros(len(names))
    segments: list[tuple[matplotlib.patches.Rectangle, matplotlib.text.Text]] = []
    for outcome, colour in zip(outcomes, colours, strict=False):
        exact = [cases[n].probability(outcome) for n in names]
        widths = np.array([float(p) for p in exact])
        name = outcome_name(outcome)
        if unit is not None:
            name = f"{name} {unit[0] if outcome == 1 else unit[1]}"
        bars = ax.barh(
            names, widths, left=left, color=colour, label=name, edgecolor="white", linewidth=0.5
        )
        numbers = ax.bar_label(
            bars,
            labels=[_percent(p) for p in exact],
            label_type="center",
            fontsize=7,
            color=_text_colour(colour),
        )
        segments.extend(zip(bars, numbers, strict=True))
        left += widths
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    _percent_axis(ax.xaxis)
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
    _keep_numbers_that_fit(ax, segments)
    return ax


def _before_drawing(text: matplotlib.text.Text, fit: Callable[[object], None]) -> None:
    """Call ``fit(renderer)`` each time ``text`` is drawn, just before: the figure is laid out
    by then, so the sizes ``fit`` measures are final, and laying it out costs nothing extra."""

    def fitted_draw(renderer) -> None:
        fit(renderer)
        type(text).draw(text, renderer)  # as its class draws it then (stamped, once stamped)

    text.draw = fitted_draw  # type: ignore[method-assign]


def _keep_numbers_that_fit(ax, pairs) -> None:
    """Show each number only while it fits its bar segment (measured when drawn)."""
    for box, text in pairs:

        def fit(renderer, box=box, text=text) -> None:
            room = box.get_window_extent(renderer).width
            text.set_visible(True)
            text.set_visible(text.get_window_extent(renderer).width <= CELL_FILL * room)

        _before_drawing(text, fit)


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
    """A probability over two parameters: ``probability(x, y)`` for every x in ``xs``, y in
    ``ys``; each cell's number in one size that fits the cells (as large as the axis labels at
    most), or none when none would."""
    ax = _axes(ax, size=(6.4, 4.2))
    exact = [[probability(x, y) for x in xs] for y in ys]
    grid = np.array([[float(p) for p in row] for row in exact])
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1, aspect="auto", origin="lower")
    ax.set_xticks(range(len(xs)), [str(x) for x in xs])
    ax.set_yticks(range(len(ys)), [str(y) for y in ys])
    numbers = []
    if len(xs) <= NUMBERED_UP_TO and len(ys) <= NUMBERED_UP_TO:
        for j, row in enumerate(exact):
            for i, p in enumerate(row):
                colour = "white" if p < 0.6 else "black"
                text = _percent(p)
                numbers.append(
                    ax.text(i, j, text, ha="center", va="center", fontsize=7, color=colour)
                )
    bar = ax.figure.colorbar(image, ax=ax, label="probability")
    bar.set_ticks(_even_percent_ticks(1))
    bar.formatter = matplotlib.ticker.FuncFormatter(_percent_tick)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    if numbers:
        _fit_cell_numbers(ax, numbers, len(xs))
    return ax


#: The smallest type a cell's number is set in; below it the colour bar alone reads the cells.
SMALLEST_NUMBER = 5.0
#: A number fills at most this share of its cell's or bar segment's width, so that neighbours'
#: numbers never read as one.
CELL_FILL = 0.85


def _fit_cell_numbers(ax, numbers, columns: int) -> None:
    """All cells' numbers in one size that fits the cells, as large as the axis's tick labels
    at most (issue 40: a few large cells' numbers at 7 points were too small to read beside
    them), else none; sized as the first is drawn, the others following it."""

    def fit(renderer) -> None:
        cell = ax.get_window_extent(renderer).width / columns
        largest = max((t.get_fontsize() for t in ax.get_xticklabels()), default=7.0)
        for text in numbers:
            text.set_fontsize(largest)
        widest = max(text.get_window_extent(renderer).width for text in numbers)
        size = min(largest, largest * CELL_FILL * cell / widest)  # a gap between neighbours
        for text in numbers:
            text.set_fontsize(max(size, SMALLEST_NUMBER))
            text.set_visible(size >= SMALLEST_NUMBER)

    _before_drawing(numbers[0], fit)
