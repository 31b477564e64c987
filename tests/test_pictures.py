import pytest

from wbk.dice import d6
from wbk.errors import WbkError
from wbk.games.ss_panzer import line_of_sight, route
from wbk.maps import example_map
from wbk.pictures import picture, read_edge_case, save_picture

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
        (lambda p: save_picture(line_of_sight(M, "1913", "1716"), p / "x.png"), "needs its map"),
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
