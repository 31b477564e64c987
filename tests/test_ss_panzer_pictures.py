"""SS Panzer's pictures (wbk.games.ss_panzer.draw): a line of sight, a route and a victory drawn
by picture() as the panels draw them, at each step, and a line beside another on a notebook's
own axes (draw_line_of_sight)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from test_pictures import reason_and_verdict, says_why

from wbk.draw import draw_map, on_board, picture, save_picture
from wbk.errors import WbkError
from wbk.games.ss_panzer import fire_dice, geographic_victory, line_of_sight, route
from wbk.games.ss_panzer.draw import draw_line_of_sight
from wbk.hexgrid import Hexside
from wbk.maps import example_map

M = example_map("ss_panzer_errata_9_4")


def test_one_call_saves_a_result_as_the_panel_draws_it(tmp_path):
    result = line_of_sight(M, "1913", "1716")
    path = save_picture(result, tmp_path / "spine.svg", map=M)
    text = path.read_text()
    assert (
        "1913 → 1716: blocked by slope hexside 1715/1816" in text
    )  # the verdict, as text in the SVG
    assert "line of sight blocked" in text and "slope (hachures uphill)" in text  # the legend
    path = save_picture(route(M, "Pz IV", "1611", "1609"), tmp_path / "route.png", map=M)
    assert path.read_bytes()[:4] == b"\x89PNG"
    assert (
        picture(route(M, "Pz IV", "1611", "1609"), map=M).axes[0].get_title() == "1611 → 1609: 5 MP"
    )


def test_a_result_that_knows_its_map_is_drawn_on_it():
    for result in (
        line_of_sight(M, "1712", "2014"),
        route(M, "Pz IV", "1610", "1609"),
        geographic_victory(M, []),
    ):
        assert picture(result).axes[0].get_title() == picture(result, map=M).axes[0].get_title()


def _pixels(result, step: int | None) -> bytes:
    """The picture of ``result`` at ``step`` as pixels, drawn small (as in test_pictures)."""
    figure = picture(result, map=M, step=step)
    figure.set_dpi(40)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return bytes(canvas.buffer_rgba())


@pytest.mark.slow  # a picture drawn for every step: left out by make test-fast
def test_every_step_of_a_line_of_sight_has_its_own_picture():
    result = line_of_sight(M, "1712", "2014")
    pictures = [_pixels(result, k) for k in range(len(result.steps))]
    assert len(set(pictures)) == len(pictures) == len(result.steps)
    assert _pixels(result, None) not in pictures  # the whole answer is none of them


def test_a_step_picture_names_the_step_and_its_rule_and_marks_what_it_is_about():
    los = line_of_sight(M, "1712", "2014")
    assert los.steps[1].about == (Hexside(M.hex("1813"), M.hex("1913")),)
    figure = picture(los, map=M, step=1)
    title = " ".join(figure.axes[0].get_title().split())
    assert title == (
        "Step 2 of 4: crosses slope hexside 1813/1913, between the two units: blocked "
        "(SS Panzer errata 9.4)"
    )
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert "this step's hexside" in legend and "not this step" in legend
    # the last step counts from the end, and the verdict is about what blocks the line
    last = " ".join(picture(los, map=M, step=-1).axes[0].get_title().split())
    assert last == "Step 4 of 4: line of sight blocked (SS Panzer errata 9.4)"
    assert set(los.steps[-1].about) == set(los.blocking)


def test_a_long_step_title_is_wrapped_never_cut_off():
    los = line_of_sight(M, "1712", "2014")
    title = picture(los, map=M, step=2).axes[0].get_title()
    assert "…" not in title and title.count("\n") >= 1
    assert " ".join(title.split()).endswith("blocked (SS Panzer errata 9.4)")


@pytest.mark.parametrize(
    "step, named",
    [
        (4, r"step 4 is not one of the answer's 4 steps \(steps 0 to 3, or -1 for the last\)"),
        (-5, "step -5 is not one of the answer's 4 steps"),
        ("2", "step '2' is not a whole number"),
    ],
)
def test_a_step_that_is_not_there_is_refused(step, named):
    with pytest.raises(WbkError, match=named):
        picture(line_of_sight(M, "1712", "2014"), map=M, step=step)


def test_a_clear_and_a_blocked_line_differ_in_colour_and_style():
    clear = draw_line_of_sight(M, line_of_sight(M, "1913", "1816"))
    blocked = draw_line_of_sight(M, line_of_sight(M, "1712", "2014"))
    assert clear.ax.get_title() == "1913 → 1816: clear"
    assert (
        blocked.ax.get_title() == "1712 → 2014: blocked by slope hexside 1813/1913, slope hex 1913"
    )
    assert clear.line.get_color() != blocked.line.get_color()
    assert (clear.line.get_linestyle(), blocked.line.get_linestyle()) == ("-", "--")
    assert len(blocked.blocking_hexes.get_paths()) == 1  # 1913, hatched: its terrain shows through
    plt.close(clear.figure)
    plt.close(blocked.figure)


def test_a_line_on_a_notebooks_axes_is_the_picture_of_the_line_after_its_reading():
    result = line_of_sight(M, "1712", "2113", slope_hex="hexsides_only")
    figure, (left, _) = plt.subplots(1, 2)
    view = draw_line_of_sight(M, result, ax=left, reading="slope hexes: only slope hexsides block")
    assert view.ax is left
    assert view.title() == (
        "slope hexes: only slope hexsides block\n" + picture(result).axes[0].get_title()
    )
    plt.close(figure)


def label_ink(view, label: str):
    """The dark pixels of a hex label, and the picture they are in (an RGB array)."""
    canvas = FigureCanvasAgg(view.figure)
    canvas.draw()
    picture = np.asarray(canvas.buffer_rgba())[:, :, :3].astype(int)
    (text,) = [t for t in view.labels.artists if t.get_text() == label]
    box = text.get_window_extent(canvas.get_renderer())
    height = picture.shape[0]
    rows = slice(int(height - box.y1), int(height - box.y0) + 1)
    cols = slice(int(box.x0), int(box.x1) + 1)
    return picture[rows, cols].sum(axis=2) < 330, picture[rows, cols]


@pytest.mark.parametrize("label", ["1913", "1812", "1713", "2014"])
def test_a_label_reads_the_same_under_a_line_of_sight(label):
    """1712 → 2014: the line, the blocking hexside and the hatched slope hex run over these
    labels (1812 sits under a stream hexside); every pixel of their ink stays dark."""
    plain = draw_map(M, width=6)
    ink, _ = label_ink(plain, label)
    drawn = draw_map(M, width=6)
    on_board(line_of_sight(M, "1712", "2014"), drawn)
    _, picture = label_ink(drawn, label)
    assert ink.sum() > 20
    assert (picture.sum(axis=2)[ink] < 330).mean() > 0.97
    plt.close(plain.figure)
    plt.close(drawn.figure)


def test_a_line_of_sight_a_route_and_a_victory_carry_their_map():
    m = example_map("ss_panzer_errata_9_4")
    for result in (
        line_of_sight(m, "1712", "2014"),
        route(m, "Pz IV", "1610", "1609"),
        geographic_victory(m, []),
    ):
        assert picture(result).axes[0].get_title() == picture(result, map=m).axes[0].get_title()


# --- the deciding reason under the verdict (issue 40) --------------------------------------


def test_a_clear_line_of_sight_says_why_it_is_clear():
    """Issue 40: "1913 → 1816: clear" gave no reason; the step it rests on is errata 9.4's
    slope hexside of the firer's own hex."""
    result = line_of_sight(M, "1913", "1816")
    assert says_why(result, map=M) == (
        "Why: crosses slope hexside 1913/1914, a side of the firer's hex: no block "
        "(SS Panzer errata 9.4)"
    )
    assert picture(result, map=M).axes[0].get_title() == "1913 → 1816: clear"


def test_a_blocked_line_says_what_blocks_it_first_and_a_step_keeps_the_verdict():
    result = line_of_sight(M, "1712", "2014")
    assert says_why(result, map=M) == (
        "Why: crosses slope hexside 1813/1913, between the two units: blocked "
        "(SS Panzer errata 9.4)"
    )
    at_step = picture(result, map=M, step=0)
    assert reason_and_verdict(at_step)[1] == (
        "1712 → 2014: blocked by slope hexside 1813/1913, slope hex 1913"
    )
    assert at_step.axes[0].get_title().startswith("Step 1 of 4")


def test_a_line_with_nothing_in_its_way_says_so():
    assert says_why(line_of_sight(M, "1208", "1410"), map=M) == (
        "Why: nothing on the line blocks it (SS Panzer errata 9.4)"
    )


def test_a_line_drawn_in_a_figure_of_its_own_says_why_as_its_picture_does():
    result = line_of_sight(M, "1913", "1816")
    view = draw_line_of_sight(M, result, width=5.5)
    assert reason_and_verdict(view.figure) == reason_and_verdict(picture(result, map=M))
    plt.close(view.figure)


def test_a_route_and_a_fire_say_why():
    assert says_why(route(M, "Pz IV", "1611", "1609"), map=M).endswith("errata 8.3))")
    assert says_why(fire_dice(["kill_zone", "entering_zoc"])) == (
        "Why: conditions are not cumulative: the largest, 4 dice (SS Panzer errata 9.5)"
    )


def test_a_slopes_hachures_show_over_the_band_of_a_hexside_crossed():
    """Issue 40: the orange "hexside crossed" band hid the hachures of the slope hexside it
    marks (1913/1914 on errata 9.4's line 1913 → 1816), and with them which side is uphill."""
    view = draw_line_of_sight(M, line_of_sight(M, "1913", "1816"))
    assert len(view.crossed_sides.get_segments()) and len(view.slope_ticks.get_segments())
    bands = (view.crossed_sides, view.along_sides, view.blocking_sides)
    assert view.slope_ticks.get_zorder() > max(band.get_zorder() for band in bands)
    assert view.slope_ticks.get_zorder() < view.line.get_zorder()  # the line itself stays on top
    plt.close(view.figure)
