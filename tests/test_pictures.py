import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from wbk.dice import d6
from wbk.draw import picture, read_edge_case, save_picture
from wbk.errors import WbkError
from wbk.games.ss_panzer import line_of_sight, route
from wbk.hexgrid import Hexside, trace
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
    assert picture(3 @ (d6 >= 5)).axes  # a distribution's bar chart
    assert picture(M).axes[0].get_title() == M.name


@pytest.mark.parametrize(
    "call, named",
    [
        (
            lambda p: save_picture(trace(M.hex("1913"), M.hex("1716")), p / "x.png"),
            "needs its board",
        ),
        (lambda p: save_picture(M, p / "x.gif"), "'x.gif' should end in .png or .svg"),
        (lambda p: save_picture(M, 42), "picture file 42 is not a file path"),
        (lambda p: picture(object(), map=M), "wbk cannot draw a object"),
        (lambda p: save_picture(M, p / "nonexistent" / "x.png"), "there is no folder"),
    ],
)
def test_bad_pictures_are_named(tmp_path, call, named):
    with pytest.raises(WbkError, match=named):
        call(tmp_path)


def test_a_picture_carries_a_caption_and_a_png_its_edge_case(tmp_path):
    path = save_picture(M, tmp_path / "map.svg", caption="Rule: errata 9.4.", edge_case="x = 1")
    assert "Rule: errata 9.4." in path.read_text()  # an SVG holds no edge case, only the caption
    path = save_picture(M, tmp_path / "map.png", caption="Rule: errata 9.4.", edge_case="x = 1\n")
    assert read_edge_case(path) == "x = 1\n"
    assert not (tmp_path / "nonexistent").exists()


# --- a result at a step (issue 19) ---------------------------------------------------------


def _pixels(result, step: int | None) -> bytes:
    """The picture of ``result`` at ``step`` as pixels, drawn small: what differs between two
    steps is a whole hex, hexside or line marked, and one draw at 40 dpi shows it."""
    figure = picture(result, map=M, step=step)
    figure.set_dpi(40)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return bytes(canvas.buffer_rgba())


def _at_every_step(result) -> list[bytes]:
    return [_pixels(result, k) for k in range(len(result.steps))]


@pytest.mark.parametrize(
    "result",
    [line_of_sight(M, "1712", "2014"), trace(M.hex("1712"), M.hex("2113"))],
    ids=["line of sight 1712-2014", "trace 1712-2113"],
)
def test_every_step_of_an_answer_has_its_own_picture(result):
    pictures = _at_every_step(result)
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


def test_a_trace_steps_through_its_course_in_printed_labels():
    tr = trace(M.hex("1913"), M.hex("1815"))
    title = " ".join(picture(tr, map=M, step=2).axes[0].get_title().split())
    assert title == "Step 3 of 5: runs along hexside 1814/1914 (the exact line between hex centres)"


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
    with pytest.raises(WbkError, match="a HexMap has no steps"):
        picture(M, step=0)


def test_a_result_that_knows_its_board_is_drawn_on_it():
    """A line of sight, a route, a victory or a retreat carries its map: no map= (a Pz 8
    result its table: test_pz8_draw)."""
    from wbk.games import stalingrad
    from wbk.games.ss_panzer import geographic_victory

    m = example_map("ss_panzer_errata_9_4")
    for result in (
        line_of_sight(m, "1712", "2014"),
        route(m, "Pz IV", "1610", "1609"),
        geographic_victory(m, []),
    ):
        assert picture(result).axes[0].get_title() == picture(result, map=m).axes[0].get_title()
    retreat = stalingrad.example_situation("one_way_out").retreat()
    assert (
        picture(retreat).axes[0].get_title()
        == picture(retreat, map=retreat.map).axes[0].get_title()
    )
