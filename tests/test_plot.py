import matplotlib.pyplot as plt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wbk.hexgrid import Hex, trace
from wbk.maps import HexMap, example_map
from wbk.plot import center, draw_map, hex_at, hexside_segment


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


def test_overlays_recolour_the_one_collection(m):
    view = draw_map(m)
    artists_before = len(view.ax.get_children())
    faces = view.faces
    h = m.hex("1913")
    view.shade({h: 3, m.hex("1914"): 6})
    assert tuple(view.faces.get_facecolors()[view.index[h]]) != tuple(view.base_faces[view.index[h]])
    tr = trace(m.hex("1913"), m.hex("1716"))
    view.show_trace(tr, blocking=[m.hexside("1715/1816")])
    assert len(view.picked_sides.get_segments()) == 1  # 1814/1914, the other is the blocking one
    assert len(view.blocking_sides.get_segments()) == 1
    assert len(view.corner_marks.get_xdata()) == 4
    view.clear()
    assert view.faces is faces
    assert (view.faces.get_facecolors() == view.base_faces).all()
    assert len(view.picked_sides.get_segments()) == 0
    # only the value labels are new artists, made once and then reused
    assert len(view.ax.get_children()) == artists_before + 2
    view.shade({h: 1})
    assert len(view.ax.get_children()) == artists_before + 2
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
    assert tuple(view.faces.get_facecolors()[view.index[h]][:3]) != (0.9568627450980393, 0.9450980392156862, 0.8941176470588236)
    assert len(view.feature_lines.get_segments()) == len(m.hexside_features["slope"]) + len(m.hexside_features["stream"]) + 1
    with pytest.raises(Exception, match="does not have the extent"):
        view.show_contents(HexMap("small", (1, 2), (1, 2)))
    plt.close(view.figure)
