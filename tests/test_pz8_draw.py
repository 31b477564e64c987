"""Pz 8's results on their table (``wbk.games.pz8.draw``, on ``wbk.draw.tables``' view): a
shot, a reach, the crossroads' legend and labels, and a result at each of its steps."""

import itertools
from fractions import Fraction

import matplotlib.colors
import matplotlib.pyplot as plt
import pytest
from test_pictures import reason_and_verdict, says_why
from test_tableplot import legend_of

from wbk.draw import on_board
from wbk.draw.tables import TERRAIN_STYLES, draw_table
from wbk.games import pz8
from wbk.games.pz8 import Tank
from wbk.games.pz8.draw import shot_title
from wbk.table import Table, Terrain

T = pz8.example_table()


def drawn(result, step=None):
    """The view of ``result`` drawn on its table as ``picture`` draws it, at ``step``."""
    view = draw_table(result.table)
    steps = on_board(result, view)
    if step is not None:
        view.show_step(steps, step)
    return view


def test_every_colour_and_symbol_of_the_table_is_in_the_legend():
    view = draw_table(T)
    assert legend_of(view) == [
        'rough terrain (3" to move through)',
        "obstacle (blocks sight and movement)",
        'hill (blocks sight; 3" to climb)',
        "German tank (barrel: facing)",
        "Soviet tank (barrel: facing)",
        "HQ",
        "wreck (blocks like a tank)",
        "grid: 6 inches",
    ]
    assert len(view.tanks.get_paths()) == len(T.pieces) == len(view.barrels.get_segments())
    assert len(view.hq_marks.get_xdata()) == 2 and len(view.wreck_marks.get_xdata()) == 1
    assert view.ax.get_title() == "Crossroads (illustrative)"
    plt.close(view.figure)


def test_a_shot_in_cover_titles_the_picture_and_marks_what_hides_the_target():
    view = draw_table(T)
    children = len(view.ax.get_children())
    shot = pz8.shot(T, "Pz IV 1", "KV-1")
    view.show_ranges("Pz IV 1", pz8.GUN_RANGES, gun="medium")
    on_board(shot, view)
    assert (
        view.ax.get_title() == 'Pz IV 1 → KV-1, 17.1": in cover (53% seen), destroyed 5/18 (27.78%)'
    )
    assert shot.outcome.map(lambda o: o.destroyed).probability(True) == Fraction(5, 18)
    legend = legend_of(view)
    assert "line of sight: in cover (53% seen)" in legend
    assert {"hides the target", "hidden part of the target", "firer", "target"} <= set(legend)
    assert "Pz IV 1's medium gun: 18\"" in legend and 'other guns: short 12", long 24"' in legend
    assert len(view.blockers.get_paths()) == 1  # the farmhouse
    assert len(view.hidden.get_paths()) >= 1
    assert view.line.get_linestyle() == "--"
    assert [c.get_radius() for c in view.ranges] == [12, 18, 24]
    view.clear()
    assert len(view.blockers.get_paths()) == 0 and not any(c.get_visible() for c in view.ranges)
    assert "firer" not in legend_of(view) and view.ax.get_title() == T.name
    assert len(view.ax.get_children()) == children  # overlays reuse their artists
    plt.close(view.figure)


def test_a_clear_and_a_hidden_target_differ_in_colour_and_style():
    view = draw_table(T)
    on_board(pz8.shot(T, "Pz IV 2", "KV-1"), view)
    assert view.ax.get_title() == 'Pz IV 2 → KV-1, 17.5": in the open, destroyed 3/8 (37.50%)'
    clear_colour = view.line.get_color()
    assert view.line.get_linestyle() == "-"
    on_board(pz8.shot(T, "Pz IV 1", "T-34 1"), view)
    assert view.ax.get_title() == 'Pz IV 1 → T-34 1, 17.5": not seen, no shot (no line of sight)'
    assert view.line.get_color() != clear_colour and "no line of sight" in legend_of(view)
    on_board(pz8.shot(T, "Pz II", "KV-1"), view)
    assert "no shot (out of range; no line of sight)" in view.ax.get_title()
    plt.close(view.figure)


def test_reach_bands_are_translucent_and_in_the_legend():
    view = draw_table(T)
    terrain = [c.get_facecolors().copy() for c in view.terrain.values()]
    view.show_reach(pz8.movement_reach(T, "Tiger"))
    assert all(
        (c.get_facecolors() == before).all()
        for c, before in zip(view.terrain.values(), terrain, strict=False)
    )
    colours = view.reach.get_facecolors()
    assert len(colours) >= 6 and all(c[3] < 1 for c in colours)
    legend = legend_of(view)
    assert 'reach 4" (any roll): 100%' in legend and 'reach 9" (6+): 16.67%' in legend
    view.show_reach(None)
    assert len(view.reach.get_paths()) == 0 and not any(
        t.startswith("reach") for t in legend_of(view)
    )
    plt.close(view.figure)


def test_the_picture_does_not_move_when_the_legend_grows():
    view = draw_table(T)
    before = view.ax.get_position().bounds
    view.show_reach(pz8.movement_reach(T, "Tiger"))
    on_board(pz8.shot(T, "Pz IV 1", "KV-1"), view)
    view.figure.draw_without_rendering()
    assert view.ax.get_position().bounds == before
    # the legend stays inside the figure
    legend = view.ax.get_legend().get_window_extent()
    assert legend.y0 >= 0
    plt.close(view.figure)


def test_contents_update_in_place():
    view = draw_table(T)
    moved = T.with_piece(
        Tank("Panther", (40, 40), side="German", tank_class="heavy", gun="long", shaken=True)
    )
    view.show_contents(moved)
    assert len(view.tanks.get_paths()) == len(T.pieces) + 1
    assert "shaken" in legend_of(view)
    with pytest.raises(ValueError, match="not the size"):
        view.show_contents(Table(10, 10))
    plt.close(view.figure)


def test_a_shot_title_says_firer_and_target():
    shot = pz8.shot(T, "Pz IV 2", "KV-1")
    assert shot_title(shot).startswith("Pz IV 2 → KV-1")


def test_a_shot_and_a_reach_answer_in_their_titles():
    view = drawn(pz8.shot(T, "Pz IV 1", "KV-1"))
    assert view.ax.get_title().endswith("destroyed 5/18 (27.78%)") and view.ranges[1].get_visible()
    plt.close(view.figure)
    view = drawn(pz8.movement_reach(T, "Tiger"))
    assert (
        view.ax.get_title()
        == 'Where can Tiger move? 4" to 9" by the roll; the darker, the likelier'
    )
    plt.close(view.figure)
    view = drawn(pz8.movement_reach(T, "T-60"))
    assert view.ax.get_title() == "Where can T-60 move? Nowhere: it cannot move"
    plt.close(view.figure)


def test_reach_bands_are_one_hue_apart_from_the_terrain():
    view = draw_table(T)
    view.show_reach(pz8.movement_reach(T, "Tiger"))
    handles = view.ax.get_legend().legend_handles
    texts = legend_of(view)
    bands = [
        h.get_facecolor() for h, t in zip(handles, texts, strict=False) if t.startswith("reach")
    ]
    assert len(bands) == 6
    # darker the likelier, every step clearly apart (not near-identical greys)
    lightness = [sum(c[:3]) / 3 for c in bands]
    assert all(b - a > 0.04 for a, b in itertools.pairwise(lightness))
    # one hue (purple: blue above red and green), never the terrain's tans (red above blue)
    assert all(c[2] > max(c[0], c[1]) for c in bands)
    terrain = [matplotlib.colors.to_rgb(s["facecolor"]) for s in TERRAIN_STYLES.values()]
    assert all(
        max(abs(a - b) for a, b in zip(c[:3], t, strict=False)) > 0.1
        for c in bands
        for t in terrain
    )
    # the tanks' names stay on top of the bands
    assert all(n.get_zorder() > view.reach.get_zorder() for n in view.names)
    plt.close(view.figure)


def test_the_shot_picture_keeps_its_marks_and_labels_apart():
    view = draw_table(T)
    on_board(pz8.shot(T, "Pz IV 1", "KV-1"), view)
    # what hides the target and the hidden part of the target differ in colour
    assert tuple(view.blockers.get_edgecolor()[0]) != tuple(view.hidden.get_edgecolor()[0])
    # the HQ star and the terrain names are drawn above the sight line and the hatching
    assert view.hq_marks.get_zorder() > max(view.line.get_zorder(), view.firer_mark.get_zorder())
    assert all(t.get_zorder() > view.hidden.get_zorder() for t in view.terrain_names)
    # side by side tanks get their names staggered: no two names overlap
    view.figure.draw_without_rendering()
    boxes = [t.get_window_extent() for t in view.names]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    plt.close(view.figure)


@pytest.mark.parametrize("width", [6.0, 6.5])
def test_the_legend_of_a_shot_stays_inside_the_picture(width):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from wbk.draw.tables import TableView, table_axes, table_figure_size

    figure = Figure(figsize=table_figure_size(T, width))
    FigureCanvasAgg(figure)
    view = TableView(T, table_axes(figure))
    on_board(pz8.shot(T, "Pz IV 1", "KV-1"), view)
    view.show_ranges("Pz IV 1", pz8.GUN_RANGES, gun="medium")
    renderer = figure.canvas.get_renderer()
    legend = view.ax.get_legend().get_window_extent(renderer)
    assert 0 <= legend.x0 and legend.x1 <= figure.bbox.x1 and legend.y0 >= 0


# --- readable labels (issues 17 and 21) ----------------------------------------------------------


def _extents(view, texts):
    renderer = view.figure.canvas.get_renderer()
    return [t.get_window_extent(renderer) for t in texts if t.get_text()]


def test_tank_names_are_9_points_drawn_last_with_a_halo_and_clear_of_each_other():
    view = drawn(pz8.shot(T, "Pz IV 1", "KV-1"))
    view.show_reach(pz8.movement_reach(T, "Tiger", directions=9))
    overlays = [*view.ax.patches, *view.ax.lines, *view.ax.collections]
    for name in view.names:
        assert name.get_fontsize() >= 9
        assert name.get_zorder() > max(a.get_zorder() for a in overlays)
        assert name.get_path_effects()  # the white halo
    boxes = _extents(view, view.names)
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)
    plt.close(view.figure)


def test_a_range_label_keeps_off_the_inch_labels_of_the_edges():
    view = drawn(pz8.shot(T, "Pz IV 1", "KV-1"))
    ours = {id(t) for t in [*view.range_texts, *view.names, *view.terrain_names]}
    edge = _extents(view, [t for t in view.ax.texts if id(t) not in ours])
    assert len(edge) == 14  # 6" to 42" along two edges
    for label in _extents(view, view.range_texts):
        assert not any(label.overlaps(e) for e in edge)
    plt.close(view.figure)


def test_a_platoon_is_shown_beside_the_name_and_a_low_wall_in_the_legend():
    wall = Terrain("obstacle", ((10, 20), (20, 20), (20, 20.5), (10, 20.5)), blocks_sight=False)
    table = Table(
        48,
        48,
        terrain=[wall],
        pieces=[Tank("Pz IV", (10, 10), platoon="2"), Tank("T-34", (30, 30))],
    )
    view = draw_table(table)
    assert [t.get_text() for t in view.names] == ["Pz IV · pl. 2", "T-34"]
    assert "low obstacle (blocks movement, not sight)" in legend_of(view)
    assert "obstacle (blocks sight and movement)" not in legend_of(view)
    plt.close(view.figure)


# --- a result at a step (issue 19) ------------------------------------------------------------


def _png(figure) -> bytes:
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=40)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "result",
    [pz8.shot(T, "Pz IV 1", "KV-1"), pz8.movement_reach(T, "Pz IV 1")],
    ids=["shot", "reach"],
)
def test_a_table_result_draws_differently_at_every_step(result):
    from wbk.draw import picture

    drawn = [_png(picture(result, table=T, step=k)) for k in range(len(result.steps))]
    # a step about the same things as the one before still has its own title
    assert len(set(drawn)) == len(result.steps)
    assert picture(result, table=T, step=0).axes[0].get_title().startswith("Step 1 of ")


def test_a_shot_at_a_step_outlines_what_the_step_is_about_and_dims_the_rest():
    shot = pz8.shot(T, "Pz IV 1", "KV-1")
    hides = next(k for k, s in enumerate(shot.steps) if "farmhouse' hides" in s.text)
    view = drawn(shot, step=hides)
    assert "Step 2 of 12: obstacle 'farmhouse' hides 47% of 'KV-1'" in view.title()
    assert view.step_marks.get_paths() and view.step_dim.get_paths()
    assert {"this step's part", "not this step"} <= set(legend_of(view))
    in_range = next(k for k, s in enumerate(shot.steps) if "reaches 18" in s.text)
    ring = drawn(shot, step=in_range)
    # the medium gun's 18" circle is part of the step: its outline reaches 18" from the firer
    x, y = T.piece("Pz IV 1").position
    far = max(
        ((px - x) ** 2 + (py - y) ** 2) ** 0.5
        for path in ring.step_marks.get_paths()
        for px, py in path.vertices
    )
    assert 18 < far < 18.5
    plt.close("all")


def test_a_reach_step_on_the_penalty_outlines_the_rough_piece_charged():
    reach = pz8.movement_reach(T, "Pz IV 1")
    k = next(k for k, s in enumerate(reach.steps) if "is charged in" in s.text)
    view = drawn(reach, step=k)
    wood = next(t for t in T.terrain if "birch wood" in t.label).polygon
    (xmin, ymin, xmax, ymax) = wood.bounds
    vertices = [v for path in view.step_marks.get_paths() for v in path.vertices]
    assert all(
        xmin - 0.01 <= px <= xmax + 0.01 and ymin - 0.01 <= py <= ymax + 0.01 for px, py in vertices
    )
    plt.close("all")


def test_a_step_about_nothing_drawn_dims_nothing_and_a_bad_step_is_refused():
    from wbk.draw import picture
    from wbk.errors import WbkError

    reach = pz8.movement_reach(T, "Pz IV 1")
    farthest = next(k for k, s in enumerate(reach.steps) if "farthest" in s.text)
    view = drawn(reach, step=farthest)
    assert not view.step_dim.get_paths()
    n = len(reach.steps)
    with pytest.raises(WbkError, match=f"step {n} is not one of the answer's {n} steps"):
        picture(reach, table=T, step=n)
    with pytest.raises(WbkError, match=r"is not a wbk\.table\.Table"):
        picture(reach, table="the table", step=0)
    with pytest.raises(WbkError, match="wbk cannot draw a Dist on a board"):
        picture(pz8.movement("light"), table=T)
    with pytest.raises(WbkError, match="wbk cannot draw a object on a board"):
        picture(object(), table=T)
    plt.close("all")


def test_a_result_that_knows_its_table_is_drawn_on_it():
    """A Pz 8 result carries the table it was read off: no table=."""
    from wbk.draw import picture

    shot = pz8.shot(T, "Pz IV 1", "T-34 1")
    assert picture(shot).axes[0].get_title() == picture(shot, table=T).axes[0].get_title()
    reach = pz8.movement_reach(T, "Pz IV 1")
    assert picture(reach, step=0).axes[0].get_title().startswith("Step 1 of ")


def test_the_gun_against_armour_percentages_are_as_large_as_the_rest_of_its_text():
    """Issue 40: the heatmaps' percentages were set in 7 points beside 10-point labels."""
    from wbk.draw import picture

    figure = picture(pz8.attack_table())
    figure.draw_without_rendering()
    for ax in figure.axes[:2]:
        labels = [t.get_fontsize() for t in (*ax.get_xticklabels(), *ax.get_yticklabels())]
        numbers = [t for t in ax.texts if t.get_text().endswith("%")]
        assert len(numbers) == 9 and all(t.get_visible() for t in numbers)
        assert min(t.get_fontsize() for t in numbers) >= max(labels) >= 10
    plt.close(figure)


# --- the deciding reason under the verdict (issue 40) --------------------------------------


def test_a_shot_out_of_range_gives_the_range_as_its_reason():
    table = Table(
        48,
        48,
        pieces=[
            Tank("Pz IV", (12, 6), side="German", gun="medium", facing=90),
            Tank("T-34", (12, 40), side="Soviet", facing=270),
        ],
    )
    assert says_why(pz8.shot(table, "Pz IV", "T-34")) == (
        "Why: the medium gun of 'Pz IV' reaches 18\": at 34\" the target is out of range "
        "(Pz 8, Shooting)"
    )


def test_a_shot_a_reach_and_a_duel_say_why():
    assert says_why(pz8.shot(T, "Pz IV 1", "KV-1")) == (
        "Why: a heavy tank hit by a medium gun saves on 4+; a failed save destroys it "
        "(Pz 8, Penetration and Damage)"
    )
    assert says_why(pz8.movement_reach(T, "Tiger")).endswith("(Pz 8, Movement)")
    t34 = Tank("T-34", (12, 18), side="Soviet", facing=270)
    tiger = Tank("Tiger", (12, 6), side="German", gun="long", facing=90)
    assert says_why(pz8.duel(t34, tiger, 16)).startswith("Why: a gun die of 1 or 2 passes")
    assert says_why(pz8.duel(t34, tiger, 60)) == (
        'Why: out of range: neither gun reaches 60", so neither tank can win (Pz 8, Shooting)'
    )


def test_a_table_of_every_gun_names_no_one_reason():
    from wbk.draw import picture

    assert reason_and_verdict(picture(pz8.attack_table())) == ("", "")
