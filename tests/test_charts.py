import enum
import itertools
import math
from fractions import Fraction

import matplotlib
import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex

from wbk.dice import Dist, d6, percent
from wbk.draw.charts import (
    at_least_curves,
    at_least_each_outcome,
    bar_chart,
    heatmap,
    ordered_colours,
    outline_bars,
    stacked_bars,
)


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
    from wbk.draw.charts import _percent

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
    ax.figure.draw_without_rendering()  # a number shows only where it fits, measured when drawn
    numbers = [(t.get_text(), t.get_color()) for t in ax.texts if t.get_visible()]
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
    assert ax.get_xlabel() == "hits (tails under 1/1000 of the tallest bar not drawn)"


def texts_on_show(figure) -> list:
    """Every piece of text a reader sees: titles, labels, tick labels, numbers, legends."""
    figure.draw_without_rendering()
    found = [
        t
        for t in figure.findobj(matplotlib.text.Text)
        if t.get_visible() and t.get_text().strip() and t.get_figure() is not None
    ]
    renderer = figure._get_renderer()
    inside = figure.bbox
    shown = []
    for t in found:
        box = t.get_window_extent(renderer)
        # tick labels of ticks outside the view are laid out but never drawn
        if box.x1 < inside.x0 or box.x0 > inside.x1 or box.y1 < inside.y0 or box.y0 > inside.y1:
            continue
        shown.append((t.get_text(), box))
    return shown


def overlapping_texts(figure) -> list[tuple[str, str]]:
    shown = texts_on_show(figure)
    return [
        (a, b)
        for i, (a, box_a) in enumerate(shown)
        for b, box_b in shown[i + 1 :]
        if box_a.overlaps(box_b)
    ]


def texts_cut_off(figure) -> list[str]:
    inside = figure.bbox
    return [
        text
        for text, box in texts_on_show(figure)
        if box.x0 < inside.x0 - 0.5 or box.x1 > inside.x1 + 0.5 or box.y1 > inside.y1 + 0.5
    ]


def visible_ticks(axis) -> list[float]:
    low, high = sorted(axis.get_view_interval())
    return [t for t in axis.get_ticklocs() if low - 1e-9 <= t <= high + 1e-9]


def is_even_percent_step(ticks: list[float]) -> bool:
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    if len(steps) != 1:
        return False
    (step,) = steps
    mantissa = step * 100 / 10 ** math.floor(math.log10(step * 100))
    return round(mantissa, 6) in (1, 2, 5)


CHAPTER_01_BARS = [(1, 6), (2, 6), (10, 6), (20, 6), (20, 4), (30, 5), (40, 2), (40, 6), (200, 6)]


@pytest.mark.parametrize("dice, hit_on", CHAPTER_01_BARS)
def test_bar_charts_of_counts_have_whole_ticks_even_percents_and_no_text_overlapping(dice, hit_on):
    """Chapter 01's charts as its panel draws them: no "0.25 hits", no "2%, 5%, 8%", the mean's
    label clear of the bars' numbers and of the note on the tails, nothing cut off."""
    hits = dice @ (d6 >= hit_on)
    figure = plt.figure(figsize=(6.0, 3.4), layout="constrained")
    # the title chapter 01's panel gives its chart (the longest: 40 dice on 2+, 70 characters)
    title = (
        f"{dice} {'die' if dice == 1 else 'dice'} hitting on {hit_on}+: at least one hit "
        f"{percent(hits.at_least(1))}, {float(hits.mean()):.2f} hits on average"
    )
    ax = bar_chart(hits, ax=figure.add_subplot(), xlabel="hits", ylabel="chance", title=title)
    xs = visible_ticks(ax.xaxis)
    assert xs and all(x == int(x) for x in xs)
    ys = visible_ticks(ax.yaxis)
    assert ys[0] == 0 and is_even_percent_step(ys)
    labels = [t.get_text() for t in ax.yaxis.get_ticklabels() if t.get_text()]
    assert all(label.endswith("%") and "." not in label for label in labels)
    assert overlapping_texts(figure) == []
    assert texts_cut_off(figure) == []


def test_the_mean_is_a_labelled_tick_above_the_chart_and_its_line_passes_behind_numbers():
    figure = plt.figure(figsize=(6.0, 3.4), layout="constrained")
    ax = bar_chart(1 @ (d6 >= 6), ax=figure.add_subplot(), xlabel="hits")
    assert visible_ticks(ax.xaxis) == [0, 1]
    (top,) = ax.child_axes
    assert [t.get_text() for t in top.xaxis.get_ticklabels()] == ["mean 0.17"]
    (mean_line,) = ax.get_lines()
    numbers = ax.texts
    assert [t.get_text() for t in numbers] == ["83.33%", "16.67%"]
    # the number of the bar the mean falls on hides the line behind a white ground
    assert all(t.get_bbox_patch().get_facecolor()[:3] == (1, 1, 1) for t in numbers)
    assert all(t.get_zorder() > mean_line.get_zorder() for t in numbers)


def test_tiny_chances_get_finer_even_percent_ticks():
    hits = 10_000 @ (d6 >= 6)  # the tallest bar is about 1.1%: half-percent steps
    ax = bar_chart(hits)
    ys = visible_ticks(ax.yaxis)
    assert is_even_percent_step(ys)
    assert [t.get_text() for t in ax.yaxis.get_ticklabels()][:3] == ["0%", "0.5%", "1%"]


def test_curves_stacked_bars_and_heatmaps_read_cleanly():
    curves = {f"hit on {k}+": {n: n @ (d6 >= k) for n in range(1, 41)} for k in (4, 5, 6)}
    ax = at_least_curves(curves, 1, xlabel="dice rolled", title="at least one hit")
    assert all(x == int(x) for x in visible_ticks(ax.xaxis))
    assert is_even_percent_step(visible_ticks(ax.yaxis))
    assert overlapping_texts(ax.figure) == []

    cases = {f"{n} dice": n @ (d6 >= 5) for n in range(1, 5)}
    ax = stacked_bars(cases, xlabel="chance", unit=("hit", "hits"), title="Hitting on 5+")
    assert is_even_percent_step(visible_ticks(ax.xaxis))
    assert overlapping_texts(ax.figure) == []
    for bar, text in zip(ax.patches, ax.texts, strict=True):  # a number only where it fits
        if text.get_visible():
            assert text.get_window_extent().width < bar.get_window_extent().width

    def two_hits(n, k):
        return (n @ (d6 >= k)).at_least(2)

    ax = heatmap(two_hits, range(1, 11), [2, 3, 4, 5, 6], xlabel="dice", ylabel="hit on")
    assert overlapping_texts(ax.figure) == []
    assert ">99.99%" in [t.get_text() for t in ax.texts if t.get_visible()]
    cell = ax.get_window_extent().width / 10
    assert max(t.get_window_extent().width for t in ax.texts) < cell - 3  # a gap between
    ax = heatmap(two_hits, range(1, 17), [2, 6], ax=plt.figure(figsize=(3, 2)).add_subplot())
    ax.figure.draw_without_rendering()
    assert not any(t.get_visible() for t in ax.texts)  # too small to number: the colours tell
    ax.figure.set_size_inches(12, 4)  # room enough: numbered again
    ax.figure.draw_without_rendering()
    assert all(t.get_visible() for t in ax.texts)


def test_outline_bars_draw_another_case_dashed_over_the_same_positions():
    from wbk.errors import WbkError

    ax = bar_chart(3 @ (d6 >= 6), ax=plt.figure().add_subplot())
    top = ax.get_ylim()[1]
    outline_bars(Dist.always(0), ax=ax, label="armor 3")
    dashed = [p for p in ax.patches if p.get_linestyle() == "--"]
    assert [(p.get_x() + p.get_width() / 2, p.get_height()) for p in dashed] == [(0, 1.0)]
    assert ax.get_ylim()[1] > top  # grown to show the taller outline
    assert is_even_percent_step(visible_ticks(ax.yaxis))
    labels = ["none", "some"]
    ax = bar_chart(Dist({"none": 1, "some": 1}), ax=plt.figure().add_subplot(), outcomes=labels)
    outline_bars(Dist({"some": 1}), ax=ax, outcomes=labels)
    dashed = [p for p in ax.patches if p.get_linestyle() == "--"]
    assert [p.get_height() for p in dashed] == [0.0, 1.0]  # named outcomes: by position
    with pytest.raises(WbkError, match="outline_bars: 3 is not a Dist"):
        outline_bars(3, ax=ax)


@pytest.mark.parametrize(
    "words, align, lines",
    [("61%", "center", None),
     ("Which gun kills which tank?\ndestroyed by one attack", "center", None),
     ("At best a long gun destroys a light tank 13.89% of the time;\n"
      "a short or medium gun cannot destroy any tank (it needs a 7)", "center", None),
     ("short\n(12\")", "center", None),
     ("a title of\nthree lines, set\nleft", "center", "left")],
)  # fmt: skip
def test_a_stamped_text_draws_as_the_text_it_stands_for(words, align, lines):
    """``stamp_texts`` draws a chart's texts from stamps, its titles of two and three lines too
    (they were a third of a click's drawing on the gun-against-armour panel): a stamp is inked
    where the text is, to within a pixel, and looks the same."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from wbk.draw.view import StampedText, stamp_texts

    def drawn(stamped: bool) -> np.ndarray:
        figure = Figure(figsize=(8, 2), dpi=100)
        ax = figure.add_subplot()
        ax.set_axis_off()
        ax.text(0.5, 0.5, words, ha=align, va="baseline", fontsize=12, transform=ax.transAxes)
        ax.texts[0].set_multialignment(lines or align)
        if stamped:
            stamp_texts(figure)
            assert isinstance(ax.texts[0], StampedText)
        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        return np.asarray(canvas.buffer_rgba())[:, :, :3].astype(int)

    text, stamp = drawn(False), drawn(True)
    inked = (text < 200).any(axis=2) | (stamp < 200).any(axis=2)
    far_apart = np.abs(text - stamp).max(axis=2) > 128  # a letter's pixel on one, not the other
    assert inked.sum() > 100 and far_apart.sum() <= inked.sum() // 50
