import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from wbk.dice import d6
from wbk.draw import picture, read_edge_case, save_picture
from wbk.errors import WbkError
from wbk.hexgrid import trace
from wbk.maps import example_map

M = example_map("ss_panzer_errata_9_4")


def test_one_call_saves_a_result_as_the_panel_draws_it(tmp_path):
    path = save_picture(trace(M.hex("1913"), M.hex("1716")), tmp_path / "line.svg", map=M)
    assert "1913 → 1716, 4 hexes apart" in path.read_text()  # the title, as text in the SVG
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


def test_every_step_of_an_answer_has_its_own_picture():
    result = trace(M.hex("1712"), M.hex("2113"))
    pictures = _at_every_step(result)
    assert len(set(pictures)) == len(pictures) == len(result.steps)
    assert _pixels(result, None) not in pictures  # the whole answer is none of them


def test_a_trace_steps_through_its_course_in_printed_labels():
    tr = trace(M.hex("1913"), M.hex("1815"))
    title = " ".join(picture(tr, map=M, step=2).axes[0].get_title().split())
    assert title == "Step 3 of 5: runs along hexside 1814/1914 (the exact line between hex centres)"


def test_a_map_has_no_steps():
    with pytest.raises(WbkError, match="a HexMap has no steps"):
        picture(M, step=0)
