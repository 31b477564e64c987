import html
import re
from types import SimpleNamespace

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from wbk.dice import d6
from wbk.draw import picture, read_edge_case, save_picture
from wbk.draw.pictures import REASON_ID, VERDICT_ID, add_reason, deciding_step
from wbk.errors import WbkError
from wbk.explain import Step
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


# --- the deciding reason under the verdict (issue 40) --------------------------------------
# Each rule set's tests check its own answers' reasons with these.


def reason_and_verdict(figure) -> tuple[str, str]:
    """The reason line and the verdict line ``add_reason`` put on ``figure``, as one line each
    ("" for none)."""
    by_id = {text.get_gid(): " ".join(text.get_text().split()) for text in figure.texts}
    return by_id.get(REASON_ID, ""), by_id.get(VERDICT_ID, "")


def saved_says(panel) -> tuple[str, str]:
    """The reason (its lines joined) and the verdict (in its lines) of ``panel``'s saved
    picture, as "Save picture" writes it ("" for none), read from its SVG; the panel's own
    figure is left as it was."""
    import matplotlib

    figure = panel.figures()[0]
    size, texts = figure.get_size_inches().tolist(), list(figure.texts)
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # its words kept as text
        svg = panel.picture_bytes(".svg").decode()
    assert figure.get_size_inches().tolist() == size and figure.texts == texts
    said = []
    for gid in (REASON_ID, VERDICT_ID):
        group = re.search(rf'<g id="{gid}">(.*?)</g>', svg, re.S)
        lines = re.findall(r"<text[^>]*>(.*?)</text>", group[1], re.S) if group else []
        said.append([html.unescape(line) for line in lines])
    return " ".join(" ".join(said[0]).split()), "\n".join(said[1])  # no-break spaces as spaces


def lies_above_the_drawing(figure, text) -> None:
    """``text`` lies inside the figure's width and above every axes of it, clear of titles."""
    figure.draw_without_rendering()
    box = text.get_window_extent()
    assert 0 <= box.x0 and box.x1 <= figure.bbox.width
    assert box.y1 <= figure.bbox.height
    for ax in figure.axes:
        assert box.y0 >= ax.get_window_extent().y1
        if ax.title.get_text() and ax.title is not text:
            assert not box.overlaps(ax.title.get_window_extent())


def says_why(result, **board) -> str:
    """``result``'s picture has its deciding step and rule under the verdict, and at a step the
    whole answer's verdict above the reason, all clear of the drawing; the reason line."""
    whole = picture(result, **board)
    reason, verdict = reason_and_verdict(whole)
    step = deciding_step(result)
    assert step is not None and not verdict
    assert reason == " ".join(f"Why: {step.text} ({step.rule})".split())
    at_step = picture(result, step=0, **board)
    assert reason_and_verdict(at_step)[0] == reason and reason_and_verdict(at_step)[1]
    for figure in (whole, at_step):
        for text in figure.texts:
            if text.get_gid() in (REASON_ID, VERDICT_ID):
                lies_above_the_drawing(figure, text)
    return reason


def test_the_reason_goes_under_the_title_and_the_figure_grows_to_hold_it():
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4, 3))
    ax = figure.add_subplot()
    ax.set_title("an answer")
    said = Step("a long reason " * 8 + "that wraps", "a rule")
    add_reason(figure, SimpleNamespace(steps=(Step("first", "r"), said)))
    (text,) = figure.texts
    assert figure.get_figheight() > 3 and text.get_text().count("\n") >= 1
    assert reason_and_verdict(figure)[0].endswith("that wraps (a rule)")
    lies_above_the_drawing(figure, text)
    assert text.get_window_extent().y1 <= ax.title.get_window_extent().y0


def test_what_has_no_steps_or_names_no_deciding_step_gets_no_reason():
    from matplotlib.figure import Figure

    for subject in (object(), SimpleNamespace(steps=(Step("x", "r"),), deciding_step=None)):
        figure = Figure()
        add_reason(figure, subject)
        assert not figure.texts
