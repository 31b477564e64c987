"""Views of exact distributions that wargamers read: bars, "at least" curves, stacked bars, heatmaps.

Each view draws on ``ax`` (a new figure when omitted) and returns the axes. Probabilities are
exact ``Fraction``s until the moment they are drawn.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction

import matplotlib
import numpy as np

from wbk.dice import Dist, outcome_name

#: Bars and cells get their numbers printed when there are at most this many.
NUMBERED_UP_TO = 16


def _axes(ax, size=(6.4, 3.6)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _percent(p: float) -> str:
    """A short percentage that never rounds a possible or an unsure outcome to 0% or 100%."""
    if p == 0 or p == 1:
        return f"{p:.0%}"
    if p < 0.001:
        return f"{p:.1e}"
    if p > 0.999:
        return ">99.9%"
    if p < 0.1 or p > 0.99:
        return f"{p:.1%}"
    return f"{p:.0%}"


def bar_chart(dist: Dist, *, ax=None, title: str | None = None, xlabel: str = "outcome") -> matplotlib.axes.Axes:
    """One distribution as bars of probability, its mean marked when the outcomes are numbers."""
    ax = _axes(ax)
    outcomes = dist.outcomes()
    probabilities = [float(dist.probability(o)) for o in outcomes]
    # named outcomes (booleans, enum members such as a damage level) are categories, not numbers
    numeric = all(isinstance(o, (int, Fraction)) and not isinstance(o, (bool, enum.Enum)) for o in outcomes)
    positions = list(outcomes) if numeric else list(range(len(outcomes)))
    bars = ax.bar(positions, probabilities, color="#5b7fa6", width=0.8)
    if len(outcomes) <= NUMBERED_UP_TO:
        ax.bar_label(bars, labels=[_percent(p) for p in probabilities], fontsize=8, padding=2)
    if not numeric:
        ax.set_xticks(positions, [outcome_name(o) for o in outcomes])
    if numeric:
        mean = dist.mean()
        ax.axvline(float(mean), color="#c0392b", linestyle="--", linewidth=1.2)
        ax.annotate(
            f"mean {float(mean):.2f}", (float(mean), 1), xycoords=("data", "axes fraction"),
            xytext=(4, -12), textcoords="offset points", color="#c0392b", fontsize=8,
        )
    ax.set_ylabel("probability")
    ax.set_xlabel(xlabel)
    ax.set_ylim(0, max(probabilities) * 1.18)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def at_least_curves(
    curves: Mapping[str, Mapping[float, Dist]],
    threshold: Hashable,
    *,
    ax=None,
    xlabel: str = "",
    title: str | None = None,
) -> matplotlib.axes.Axes:
    """P(result >= threshold) against a parameter, one curve per entry of ``curves``
    (each a mapping from parameter value to the distribution at that value)."""
    ax = _axes(ax)
    for label, by_x in curves.items():
        xs = list(by_x)
        ax.plot(xs, [float(by_x[x].at_least(threshold)) for x in xs], marker="o", markersize=3, label=label)
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel(f"P(at least {outcome_name(threshold)})")
    ax.set_xlabel(xlabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def stacked_bars(
    cases: Mapping[str, Dist], *, ax=None, title: str | None = None, cmap: str = "RdYlGn_r"
) -> matplotlib.axes.Axes:
    """Each case a 100% bar split into its ordered outcomes (best to worst reads left to right)."""
    ax = _axes(ax, size=(7, 0.6 + 0.45 * len(cases)))
    outcomes = sorted({o for d in cases.values() for o in d.outcomes()})
    colours = matplotlib.colormaps[cmap](np.linspace(0.05, 0.95, len(outcomes)))
    names = list(cases)
    left = np.zeros(len(names))
    for outcome, colour in zip(outcomes, colours):
        widths = np.array([float(cases[n].probability(outcome)) for n in names])
        bars = ax.barh(names, widths, left=left, color=colour, label=outcome_name(outcome))
        ax.bar_label(
            bars, labels=[_percent(w) if w >= 0.06 else "" for w in widths], label_type="center", fontsize=7
        )
        left += widths
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1))
    ax.legend(ncols=min(len(outcomes), 6), fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
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
    grid = np.array([[float(probability(x, y)) for x in xs] for y in ys])
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1, aspect="auto", origin="lower")
    ax.set_xticks(range(len(xs)), [str(x) for x in xs])
    ax.set_yticks(range(len(ys)), [str(y) for y in ys])
    if len(xs) <= NUMBERED_UP_TO and len(ys) <= NUMBERED_UP_TO:
        for j, row in enumerate(grid):
            for i, p in enumerate(row):
                ax.text(i, j, _percent(p), ha="center", va="center", fontsize=7, color="white" if p < 0.6 else "black")
    ax.figure.colorbar(image, ax=ax, label="probability")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    return ax
