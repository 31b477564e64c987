import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from wbk.dice import d6
from wbk.draw import picture, read_edge_case, save_picture
from wbk.draw.pictures import REASON_ID, VERDICT_ID, _deciding_step
from wbk.errors import WbkError
from wbk.games import pz8
from wbk.games.blitz import fire_procedure, fire_strength
from wbk.games.pz8 import Tank
from wbk.games.ss_panzer import fire_dice, line_of_sight, route
from wbk.games.stalingrad import Unit, close_assault_bonus, example_crt, example_situation
from wbk.hexgrid import trace
from wbk.maps import example_map
from wbk.table import Table

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


def _reason_and_verdict(figure) -> tuple[str, str]:
    """The reason line and the verdict line ``add_reason`` put on ``figure``, as one line each
    ("" for none)."""
    by_id = {text.get_gid(): " ".join(text.get_text().split()) for text in figure.texts}
    return by_id.get(REASON_ID, ""), by_id.get(VERDICT_ID, "")


def _lies_above_the_drawing(figure, text) -> None:
    """``text`` lies inside the figure's width and above every axes of it (title included)."""
    figure.draw_without_rendering()
    box = text.get_window_extent()
    assert 0 <= box.x0 and box.x1 <= figure.bbox.width
    assert box.y1 <= figure.bbox.height
    for ax in figure.axes:
        assert box.y0 >= ax.get_window_extent().y1
        if ax.title.get_text() and ax.title is not text:
            assert not box.overlaps(ax.title.get_window_extent())


def test_a_clear_line_of_sight_says_why_it_is_clear():
    """Issue 40: "1913 → 1816: clear" gave no reason; the step it rests on is errata 9.4's
    slope hexside of the firer's own hex."""
    figure = picture(line_of_sight(M, "1913", "1816"), map=M)
    reason, _ = _reason_and_verdict(figure)
    assert figure.axes[0].get_title() == "1913 → 1816: clear"
    assert reason == (
        "Why: crosses slope hexside 1913/1914, a side of the firer's hex: no block "
        "(SS Panzer errata 9.4)"
    )
    (text,) = [t for t in figure.texts if t.get_gid() == REASON_ID]
    _lies_above_the_drawing(figure, text)


def test_a_blocked_line_says_what_blocks_it_first_and_a_step_keeps_the_verdict():
    result = line_of_sight(M, "1712", "2014")
    assert _reason_and_verdict(picture(result, map=M))[0] == (
        "Why: crosses slope hexside 1813/1913, between the two units: blocked "
        "(SS Panzer errata 9.4)"
    )
    at_step = picture(result, map=M, step=0)
    reason, verdict = _reason_and_verdict(at_step)
    assert verdict == "1712 → 2014: blocked by slope hexside 1813/1913, slope hex 1913"
    assert reason.startswith("Why: crosses slope hexside 1813/1913")
    assert at_step.axes[0].get_title().startswith("Step 1 of 4")
    for text in at_step.texts:
        _lies_above_the_drawing(at_step, text)


def test_a_line_with_nothing_in_its_way_says_so():
    assert _reason_and_verdict(picture(line_of_sight(M, "1208", "1410"), map=M))[0] == (
        "Why: nothing on the line blocks it (SS Panzer errata 9.4)"
    )


def test_a_shot_out_of_range_gives_the_range_as_its_reason():
    table = Table(
        48,
        48,
        pieces=[
            Tank("Pz IV", (12, 6), side="German", gun="medium", facing=90),
            Tank("T-34", (12, 40), side="Soviet", facing=270),
        ],
    )
    reason, _ = _reason_and_verdict(picture(pz8.shot(table, "Pz IV", "T-34")))
    assert reason == (
        "Why: the medium gun of 'Pz IV' reaches 18\": at 34\" the target is out of range "
        "(Pz 8, Shooting)"
    )


def _every_kind_of_answer() -> dict[str, object]:
    table = pz8.example_table()
    crt = example_crt("illustrative_1d6")
    attack = [Unit("I/194 GR", "German", "infantry", 6), Unit("Pi 336", "German", "engineer", 4)]
    defence = [Unit("3/1045", "Soviet", "infantry", 3)]
    t34 = Tank("T-34", (12, 18), side="Soviet", facing=270)
    tiger = Tank("Tiger", (12, 6), side="German", gun="long", facing=90)
    return {
        "line of sight": line_of_sight(M, "1913", "1816"),
        "route": route(M, "Pz IV", "1611", "1609"),
        "fire dice": fire_dice(["kill_zone", "entering_zoc"]),
        "shot": pz8.shot(table, "Pz IV 1", "KV-1"),
        "reach": pz8.movement_reach(table, "Tiger"),
        "duel": pz8.duel(t34, tiger, 16),
        "CRT lookup": crt.lookup(15, shift=1),
        "Close Assault Bonus": close_assault_bonus(attack, defence, 3, crt=crt),
        "retreat": example_situation("one_way_out").retreat(),
        "Blitz strength": fire_strength([8], target_terrain="woods", protection="bunker"),
        "Blitz fire procedure": fire_procedure(4, leader_morale=9),
    }


@pytest.mark.parametrize("kind", list(_every_kind_of_answer()))
def test_every_answer_picture_says_why_under_its_verdict_and_keeps_it_at_a_step(kind):
    result = _every_kind_of_answer()[kind]
    board = {"map": M} if kind in ("line of sight", "route") else {}
    whole = picture(result, **board)
    reason, verdict = _reason_and_verdict(whole)
    rule = _deciding_step(result).rule
    assert reason.startswith("Why: ") and reason.endswith(f"({rule})") and not verdict
    at_step = picture(result, step=0, **board)
    reason_at_step, verdict = _reason_and_verdict(at_step)
    assert reason_at_step == reason and verdict
    for figure in (whole, at_step):
        for text in figure.texts:
            if text.get_gid() in (REASON_ID, VERDICT_ID):
                _lies_above_the_drawing(figure, text)


def test_a_table_of_every_gun_names_no_one_reason():
    assert _reason_and_verdict(picture(pz8.attack_table())) == ("", "")
