import matplotlib
import matplotlib.pyplot as plt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wbk.draw.maps import center, draw_map, hex_at, hexside_segment
from wbk.hexgrid import Hex, trace
from wbk.maps import HexMap, example_map


@pytest.fixture
def m() -> HexMap:
    return example_map("ss_panzer_errata_9_4")


@given(st.integers(-40, 40), st.integers(-40, 40), st.floats(-0.8, 0.8), st.floats(-0.8, 0.8))
def test_a_click_inside_a_hex_picks_that_hex(q, r, fx, fy):
    x, y = center(Hex(q, r))
    # stay inside the inscribed circle (radius sqrt(3)/2) of the flat-topped hex
    if fx * fx + fy * fy < 0.74:
        assert hex_at(x + fx, y + fy) == Hex(q, r)


def test_hexside_is_drawn_between_its_two_hexes(m):
    side = m.hexside("1913/1914")
    (x1, y1), (x2, y2) = hexside_segment(side)
    (ax_, ay), (bx, by) = center(m.hex("1913")), center(m.hex("1914"))
    assert (x1 + x2) / 2 == pytest.approx((ax_ + bx) / 2)
    assert (y1 + y2) / 2 == pytest.approx((ay + by) / 2)


def test_overlays_lie_over_the_terrain_and_reuse_their_artists(m):
    view = draw_map(m)
    artists_before = len(view.ax.get_children())
    terrain = view.faces.get_facecolors().copy()
    h = m.hex("1913")
    view.shade({h: 3, m.hex("1914"): 6}, label="value")
    view.show_numbers({h: 3, m.hex("1914"): 6}, label="the numbers")
    assert (view.faces.get_facecolors() == terrain).all()  # the terrain is never recoloured
    assert len(view.layer.get_paths()) == 2 and all(c[3] < 1 for c in view.layer.get_facecolors())
    tr = trace(m.hex("1913"), m.hex("1716"))
    view.show_trace(tr, blocking=[m.hexside("1715/1816")], clear=False, sight=True)
    assert len(view.along_sides.get_segments()) == 1  # 1814/1914, the other is the blocking one
    assert len(view.crossed_sides.get_segments()) == 0
    assert len(view.blocking_sides.get_segments()) == 1
    assert len(view.corner_marks.get_xdata()) == 4
    assert view.line.get_linestyle() == "--"
    legend = [t.get_text() for t in view.ax.get_legend().get_texts()]
    assert {
        "value",
        "the numbers",
        "line of sight blocked",
        "blocking hexside",
        "hexside run along",
    } <= set(legend)
    view.clear()
    assert len(view.layer.get_paths()) == 0 and len(view.along_sides.get_segments()) == 0
    assert "line of sight blocked" not in [t.get_text() for t in view.ax.get_legend().get_texts()]
    # only the value labels (and the legend, rebuilt) are new artists, made once and then reused
    children = len(view.ax.get_children())
    assert children == artists_before + 2
    view.show_numbers({h: 1})
    assert len(view.ax.get_children()) == children
    plt.close(view.figure)


def test_every_colour_and_symbol_of_the_map_is_in_the_legend(m):
    view = draw_map(m.with_terrain("1815", {"woods", "town"}))
    legend = [t.get_text() for t in view.ax.get_legend().get_texts()]
    assert legend == [
        "town",
        "trench",
        "woods",
        "inner hex: second terrain",
        "slope (hachures uphill)",
        "stream hexside",
        "star hex",
    ]
    plt.close(view.figure)


def test_view_picks_hexes_on_the_map_only(m):
    view = draw_map(m)
    assert view.hex_at(*center(m.hex("1913"))) == m.hex("1913")
    assert view.hex_at(*center(m.from_offset(11, 7))) is None
    assert view.hex_at(None, None) is None
    plt.close(view.figure)


def test_map_draws_itself_in_jupyter(m):
    png = m._repr_png_()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_hexside_under_a_click_near_it(m):
    view = draw_map(m)
    side = m.hexside("1913/1914")
    (x1, y1), (x2, y2) = hexside_segment(side)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    cx, cy = center(m.hex("1913"))
    assert view.hexside_at(mx + 0.1 * (cx - mx), my + 0.1 * (cy - my)) == side
    assert view.hexside_at(cx, cy) is None
    plt.close(view.figure)


def test_edited_contents_update_the_same_artists(m):
    view = draw_map(m)
    faces, lines = view.faces, view.feature_lines
    h = m.hex("1208")
    edited = m.with_terrain(h, {"woods"}).with_feature(m.hexside("1208/1209"), "stream")
    view.show_contents(edited)
    assert view.faces is faces and view.feature_lines is lines
    assert tuple(view.faces.get_facecolors()[view.index[h]][:3]) != (
        0.9568627450980393,
        0.9450980392156862,
        0.8941176470588236,
    )
    assert (
        len(view.feature_lines.get_segments())
        == len(m.hexside_features["slope"]) + len(m.hexside_features["stream"]) + 1
    )
    with pytest.raises(Exception, match="does not have the extent"):
        view.show_contents(HexMap("small", (1, 2), (1, 2)))
    plt.close(view.figure)


def test_hex_centres_agree_with_hexalattice():
    """hexalattice lays pointy-topped rows, odd rows half a hex right; turned a quarter (x and y
    swapped) and scaled to wbk's circumradius 1, they are wbk's flat-topped columns of a map
    whose odd columns sit low. Only its 1-D-coordinate, no-plot call is used (the plotting path
    fails with numpy 2)."""
    lattice = pytest.importorskip("hexalattice.hexalattice")
    import numpy as np

    from wbk.draw.maps import SQRT3

    for columns, rows in [(7, 5), (12, 9)]:
        found, _ = lattice.create_hex_grid(nx=rows, ny=columns, min_diam=1.0, align_to_origin=False)
        theirs = sorted((round(SQRT3 * y, 9), round(SQRT3 * x, 9)) for x, y in found)
        m = HexMap("grid", (0, columns - 1), (0, rows - 1), "odd")
        ours = sorted((round(x, 9), round(y, 9)) for x, y in map(center, m))
        assert np.allclose(theirs, ours)


def test_hex_labels_and_stars_are_never_covered(m):
    """Hex labels are drawn after every overlay, haloed; stars sit left of the centre, where
    the end marks and numbers never are, above the lines."""
    from wbk.draw.maps import Z_LABELS, marker_point

    view = draw_map(m)
    others = [a for a in view.ax.get_children() if a is not view.labels]
    assert all(a.get_zorder() < view.labels.get_zorder() == Z_LABELS for a in others)
    assert all(text.get_path_effects() for text in view.labels.artists)
    (stars,) = view.marker_lines
    assert stars.get_zorder() > max(view.line.get_zorder(), view.route.get_zorder())
    assert stars.get_zorder() < view.firer_mark.get_zorder()
    assert list(zip(stars.get_xdata(), stars.get_ydata(), strict=True)) == [
        marker_point(h) for h in sorted(m.markers("star"))
    ]
    assert marker_point(m.hex("1913")) != center(m.hex("1913"))
    plt.close(view.figure)


def test_titles_wrap_to_two_lines_and_are_never_cut_off():
    from wbk.draw.view import fit_title, text_width

    assert fit_title("1913 → 1816: clear", 300) == (["1913 → 1816: clear"], 10.0)
    lines, size = fit_title(
        "held when the firer's hex has no slope hexside\n1808 → 1914: clear", 220
    )
    assert lines == ["held when the firer's hex has no slope hexside", "1808 → 1914: clear"]
    assert size < 10 and all(text_width(line, size) <= 220 for line in lines)
    words = "a title much too long for its picture " * 6
    lines, size = fit_title(words, 250)
    assert len(lines) == 2 and lines[1].endswith(" …") and size == 8.0
    assert all(text_width(line, size) <= 250 for line in lines)


def test_a_text_is_as_wide_as_its_outline_at_any_size_in_the_font_in_use():
    """text_width keeps one measurement per text and font and scales it: each answer is the
    width of the text's outline measured at that size, in the font rcParams name now."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    from wbk.draw.view import text_width

    text = "1712 → 2014: blocked by slope hexside 1813/1913"
    widths = {}
    for family in ("DejaVu Sans", "DejaVu Serif"):
        with matplotlib.rc_context({"font.family": family}):
            for size in (10.0, 7.5, 8.0, 10.0):
                measured, _, _ = TextToPath().get_text_width_height_descent(
                    text, FontProperties(size=size), ismath=False
                )
                assert text_width(text, size) == pytest.approx(measured, rel=1e-12)
            widths[family] = text_width(text, 10)
    # the two fonts set it at different widths: an answer kept for the wrong font fails above
    assert widths["DejaVu Serif"] != widths["DejaVu Sans"]
