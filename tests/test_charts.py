import enum
from fractions import Fraction

import matplotlib.pyplot as plt
import pytest

from wbk.charts import at_least_curves, bar_chart, heatmap, stacked_bars
from wbk.dice import Dist, d6


class Outcome(enum.IntEnum):
    MISS = 0
    HIT = 1
    KILL = 2


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_bar_chart_heights_are_the_probabilities_and_the_mean_is_marked():
    ax = bar_chart(2 @ d6)
    heights = [bar.get_height() for bar in ax.patches]
    assert heights == pytest.approx([min(k, 12 - k) / 36 for k in range(1, 12)])
    (mean_line,) = ax.get_lines()
    assert mean_line.get_xdata()[0] == 7
    assert [t.get_text() for t in ax.texts[:2]] == ["2.8%", "5.6%"]


def test_bar_chart_names_enum_outcomes():
    ax = bar_chart(Dist({Outcome.MISS: 3, Outcome.HIT: 2, Outcome.KILL: 1}))
    assert [t.get_text() for t in ax.get_xticklabels()] == ["miss", "hit", "kill"]
    assert ax.get_lines() == []


def test_at_least_curves_plot_the_exact_tail():
    curves = {f"{k}+": {n: n @ (d6 >= k) for n in range(1, 7)} for k in (5, 6)}
    ax = at_least_curves(curves, 1, xlabel="dice")
    five, six = ax.get_lines()
    assert list(six.get_ydata()) == pytest.approx([1 - (5 / 6) ** n for n in range(1, 7)])
    assert five.get_ydata()[0] == pytest.approx(1 / 3)


def test_stacked_bars_fill_each_case_to_one():
    cases = {"1 die": 1 @ (d6 >= 5), "3 dice": 3 @ (d6 >= 5)}
    ax = stacked_bars(cases)
    right_edges = {}
    for bar in ax.patches:
        y = round(bar.get_y(), 3)
        right_edges[y] = max(right_edges.get(y, 0), bar.get_x() + bar.get_width())
    assert sorted(right_edges.values()) == pytest.approx([1, 1])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["0", "1", "2", "3"]


def test_heatmap_cells_are_the_probabilities():
    ax = heatmap(lambda n, k: (n @ (d6 >= k)).at_least(1), [1, 2, 3], [4, 5, 6], xlabel="dice", ylabel="need")
    grid = ax.images[0].get_array()
    assert grid[0][0] == pytest.approx(1 / 2)  # 1 die needing 4+
    assert grid[2][2] == pytest.approx(1 - Fraction(5, 6) ** 3)


@pytest.mark.parametrize(
    "p, shown", [(0, "0%"), (1, "100%"), (0.0004, "4.0e-04"), (0.05, "5.0%"), (0.5, "50%"), (0.998, "99.8%"), (0.9996, ">99.9%")]
)
def test_percentages_never_round_to_certainty(p, shown):
    from wbk.charts import _percent

    assert _percent(p) == shown
