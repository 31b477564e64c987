import enum
from fractions import Fraction

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex

from wbk.charts import (
    at_least_curves,
    at_least_each_outcome,
    bar_chart,
    heatmap,
    ordered_colours,
    stacked_bars,
)
from wbk.dice import Dist, d6, percent


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
    assert [t.get_text() for t in ax.texts[:2]] == ["2.78%", "5.56%"]


def test_a_sure_outcome_leaves_room_for_its_number_but_no_tick_past_100_percent():
    ax = bar_chart(Dist({Outcome.MISS: 1, Outcome.KILL: 10**6}))
    assert ax.get_ylim()[1] > 1 and max(ax.get_yticks()) == 1
    assert [t.get_text() for t in ax.texts] == ["<0.01%", ">99.99%"]


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
    ax = heatmap(
        lambda n, k: (n @ (d6 >= k)).at_least(1), [1, 2, 3], [4, 5, 6], xlabel="dice", ylabel="need"
    )
    grid = ax.images[0].get_array()
    assert grid[0][0] == pytest.approx(1 / 2)  # 1 die needing 4+
    assert grid[2][2] == pytest.approx(1 - Fraction(5, 6) ** 3)


@pytest.mark.parametrize(
    "p, shown",
    [
        (0, "0%"),
        (1, "100%"),
        (0.00004, "<0.01%"),
        (0.0004, "0.04%"),
        (Fraction(5, 6) ** 12_000, "<0.01%"),  # a float would say 0
        (0.05, "5.00%"),
        (0.5, "50.00%"),
        (0.998, "99.80%"),
        (0.99996, ">99.99%"),
        (1 - Fraction(5, 6) ** 12_000, ">99.99%"),
    ],
)
def test_percentages_never_round_to_certainty(p, shown):
    """Charts write percentages as the tables and sentences do (wbk.dice.percent)."""
    from wbk.charts import _percent

    assert _percent(p) == shown
    assert _percent(Fraction(p)) == percent(Fraction(p))


def colour(artist) -> str:
    return to_hex(artist.get_facecolor())


def test_colours_are_okabe_ito_and_numbers_read_on_their_bars():
    ax = bar_chart(2 @ d6)
    assert {colour(bar) for bar in ax.patches} == {"#0072b2"}
    assert to_hex(ax.get_lines()[0].get_color()) == "#d55e00"
    cases = {"1 die": 1 @ (d6 >= 5), "4 dice": 4 @ (d6 >= 5)}
    ax = stacked_bars(cases, title="hits, hitting on 5+")
    ax = stacked_bars(cases, title="hits, hitting on 5+", unit=("hit", "hits"))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "0 hits",
        "1 hit",
        "2 hits",
        "3 hits",
        "4 hits",
    ]
    legend = [to_hex(h.get_facecolor()) for h in ax.get_legend().legend_handles]
    assert legend == ["#bbbbbb", "#56b4e9", "#e69f00", "#d55e00", "#000000"]
    numbers = [(t.get_text(), t.get_color()) for t in ax.texts if t.get_text()]
    # black on grey, sky blue and orange; white on vermillion (4 dice, 3 hits: 8/81)
    assert numbers == [
        ("66.67%", "black"),
        ("19.75%", "black"),
        ("33.33%", "black"),
        ("39.51%", "black"),
        ("29.63%", "black"),
        ("9.88%", "white"),
    ]
    assert ordered_colours(7)[0] != ordered_colours(7)[-1] and len(ordered_colours(7)) == 7


def test_at_least_each_outcome_draws_one_curve_per_level():
    by_dice = {n: n @ (d6 >= 5) for n in range(1, 7)}
    ax = at_least_each_outcome(by_dice, [1, 2, 3], xlabel="dice", or_more="or more hits")
    one, _two, _three = ax.get_lines()
    assert list(one.get_ydata()) == pytest.approx([1 - (2 / 3) ** n for n in range(1, 7)])
    colours = [to_hex(line.get_color()) for line in ax.get_lines()]
    assert colours == ["#56b4e9", "#e69f00", "#d55e00"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "1 or more hits",
        "2 or more hits",
        "3 or more hits",
    ]
    assert ax.get_ylabel() == "chance"


def test_a_huge_distribution_draws_the_bars_one_can_see():
    hits = 10_000 @ (d6 >= 6)
    ax = bar_chart(hits, xlabel="hits")
    drawn = [bar.get_x() + bar.get_width() / 2 for bar in ax.patches]
    assert 100 < len(drawn) < 400  # mean 1,667, standard deviation 37
    assert hits.probability(round(drawn[0])) >= hits.probability(1667) / 1000
    assert hits.probability(round(drawn[0]) - 1) < hits.probability(1667) / 1000
    assert "tails under 1/1000 of the tallest bar not drawn" in [t.get_text() for t in ax.texts]
