from fractions import Fraction
from types import SimpleNamespace

import ipywidgets as widgets
import pytest
from test_widgets_quiz import go_to

from wbk.draw.tables import say_chance, table_figure_size
from wbk.errors import WbkError
from wbk.games import pz8
from wbk.games.pz8 import panels
from wbk.games.pz8.draw import FADED, NEITHER
from wbk.games.pz8.panels.controls import NO_DIFFERENCE
from wbk.games.pz8.panels.table import case_table, parse_size
from wbk.table import Table, Terrain
from wbk.widgets.quiz import QuizPanel

T = pz8.example_table()


def click(panel, x, y):
    panel.on_click(SimpleNamespace(xdata=x, ydata=y))


def suptitle(panel) -> str:
    """A chart's title, its line breaks read as spaces."""
    return panel.figure._suptitle.get_text().replace("\n", " ")


def legend(panel) -> list[str]:
    return [t.get_text() for t in panel.view.ax.get_legend().get_texts()]


def test_the_table_panel_answers_in_its_title():
    panel = panels.TablePanel(path="unused.toml")
    assert (
        panel.view.ax.get_title()
        == 'Pz IV 1 → KV-1, 17.1": in cover (53% seen), destroyed 5/18 (27.78%)'
    )
    assert "farmhouse" in panel.pane.value and "the turn passes 5/9 (55.56%)" in panel.pane.value
    assert "line of sight: in cover (53% seen)" in legend(panel)
    panel.cover_reading.value = "half_hidden"
    assert (
        panel.view.ax.get_title()
        == 'Pz IV 1 → KV-1, 17.1": in the open (53% seen), destroyed 3/8 (37.50%)'
    )
    panel.cover_reading.value = "partly_hidden"
    panel.boxes["shooter"].value = "pz iv 2"  # any case
    assert panel.view.ax.get_title() == 'Pz IV 2 → KV-1, 17.5": in the open, destroyed 3/8 (37.50%)'
    assert panel.message.value == ""


def test_clicks_alternate_between_shooter_and_target():
    panel = panels.TablePanel(path="unused.toml")
    click(panel, 30, 8)  # the Tiger
    assert panel.boxes["shooter"].value == "Tiger" and panel.click.value == "target"
    click(panel, 26.5, 31.5)  # T-34 2
    assert panel.boxes["target"].value == "T-34 2" and panel.click.value == "shooter"
    assert panel.view.ax.get_title().startswith("Tiger → T-34 2, ")
    # a long gun hits a medium tank on 4-6 (1/2), which then saves only on a 6 (fails 5/6)
    assert "destroyed 5/12 (41.67%)" in panel.view.ax.get_title()
    click(panel, 2, 2)
    assert 'no tank at 2", 2": click on a tank' in panel.message.value
    assert "Out of date" not in panel.pane.value and panel.boxes["shooter"].value == "Tiger"
    click(panel, None, None)
    assert "that click is off the table" in panel.message.value


def test_placing_turning_and_removing_a_tank():
    panel = panels.TablePanel(path="unused.toml")
    assert panel.hint.value == "<i>A click on a tank picks the shooter.</i>"
    panel.click.value = "place"
    assert panel.hint.value == (
        "<i>A click places 'Panther' (heavy tank, long gun) there; a click on a tank selects "
        "it.</i>"
    )
    panel.tank_row.side.value = "Soviet"
    click(panel, 24, 40)
    assert panel.table.piece("Panther").position == (24.0, 40.0)
    assert "placed 'Panther' at 24\", 40\"." in panel.message.value
    assert "it moves 'Panther' there. The row below edits 'Panther' in place." in panel.hint.value
    panel.boxes["target"].value = "panther"
    assert panel.view.ax.get_title().startswith("Pz IV 1 → Panther, 26")
    assert panel.view.ax.get_title().endswith("not seen, no shot (out of range; no line of sight)")
    panel.click.value = "turn"
    click(panel, 24, 30)  # face the near edge
    assert panel.table.piece("Panther").facing == 270
    panel.click.value = "place"
    panel.tank_row.name.value = "tiger"  # a tank on the table is moved, and stays what it is
    click(panel, 40, 40)
    tiger = panel.table.piece("Tiger")
    assert tiger.position == (40.0, 40.0) and tiger.gun == "long" and tiger.facing == 90
    assert "moved 'Tiger' to 40\", 40\"" in panel.message.value
    panel.tank_row.name.value = "Panther"
    panel.click.value = "remove"
    click(panel, 24, 40)
    assert "Panther" not in [p.name for p in panel.table.pieces]
    assert "target: no tank called 'panther' on the table" in panel.message.value
    assert "Out of date" in panel.pane.value
    assert panel.view.ax.get_title() == 'Out of date: fix "target" above'


def test_bad_placements_are_one_line_messages():
    panel = panels.TablePanel(path="unused.toml")
    panel.click.value = "place"
    click(panel, 47.5, 20)
    assert (
        "'Panther' at position [47.5, 20.0] facing 90: its footprint leaves the table"
        in panel.message.value
    )
    click(panel, 31.2, 8)  # beside the Tiger, but a Panther there would overlap it
    assert (
        "'Panther' at position [31.2, 8.0] overlaps 'Tiger' at position [30.0, 8.0]"
        in panel.message.value
    )
    assert "Out of date" not in panel.pane.value  # nothing changed: the answer stands
    click(panel, 23, 23)
    assert "inside obstacle 'farmhouse'" in panel.message.value
    panel.tank_row.name.value = " "
    click(panel, 10, 40)
    assert "tank name: the tank needs a name" in panel.message.value
    panel.boxes["target"].value = "Pz IV 1"
    assert "target: 'Pz IV 1' is both the shooter and the target" in panel.message.value


def test_terrain_and_reach():
    panel = panels.TablePanel(path="unused.toml", shooter="Tiger", target="T-34 2")
    panel.show_reach.value = True
    assert (
        'reach 4" (any roll): 100%' in legend(panel)
        and "Tiger: where it can move" in panel.pane.value
    )
    kept = panel._reach
    panel.boxes["target"].value = "T-34 1"
    assert panel._reach is kept  # only the target changed
    panel.click.value = "terrain"
    panel.terrain_kind.value = "obstacle"
    click(panel, 30, 20)  # a 6 x 4 obstacle in front of the Tiger
    assert panel.table.terrain[-1].label == "obstacle 'obstacle 3'" and panel._reach is not kept
    assert "no shot (no line of sight)" in panel.view.ax.get_title()
    panel.terrain_size.value = "big"
    click(panel, 10, 40)
    assert "terrain size: terrain size 'big' is not two numbers" in panel.message.value
    assert len(panel.table.terrain) == 6  # nothing placed
    panel.terrain_size.value = "6 x 4"
    assert panel.message.value == "" and "Out of date" not in panel.pane.value
    panel.click.value = "remove"
    click(panel, 30, 20)
    assert "obstacle 3" not in [t.name for t in panel.table.terrain]
    click(panel, 2, 40)
    assert "nothing to remove there" in panel.message.value
    assert "Out of date" not in panel.pane.value  # a click beside everything keeps the answer
    panel.click.value = "terrain"
    panel.terrain_size.value = "4 x 4"
    panel.terrain_angle.value = 45
    click(panel, 10, 40)
    corners = panel.table.terrain[-1].points
    assert max(x for x, _ in corners) == pytest.approx(10 + 2 * 2**0.5)  # a square on its corner


def test_load_and_save(tmp_path):
    path = tmp_path / "mine.toml"
    panel = panels.TablePanel(path=str(path))
    panel.click.value = "place"
    click(panel, 10, 40)
    panel.save()
    assert "saved 'Crossroads (illustrative)' (9 tanks)" in panel.file.note.value
    assert pz8.load_table(path) == panel.table
    fresh = panels.TablePanel(path=str(path))
    fresh.load()
    assert fresh.table == panel.table and "loaded" in fresh.file.note.value
    path.write_text('size = [24, 24]\n[[tanks]]\nname = "A"\nposition = [5, 5]\ngun = "huge"\n')
    fresh.load()
    assert (
        "mine.toml: [[tanks]] 'A': gun: 'huge' is not one of short, medium, long"
        in fresh.file.note.value
    )
    fresh.file.path.value = str(tmp_path / "mine.txt")
    fresh.save()
    assert "file name 'mine.txt' should end in .toml" in fresh.file.note.value


def test_a_new_panel_never_saves_into_the_notebooks_folder():
    panel = panels.TablePanel()
    assert "notebooks" not in panel.file.path.value


def test_gun_against_armor_heatmaps():
    panel = panels.gun_against_armor()
    left, right = panel.figure.axes[:2]  # then their colour bars
    assert left.get_title() == "Which gun kills which tank?\ndestroyed by one attack (no modifiers)"
    assert right.get_title().startswith("Does the attack hand over the turn?")
    assert suptitle(panel) == (  # the answer: the best and the worst case
        "At best a short gun destroys a light tank 62.33% of the time; "
        "at worst a medium gun a heavy tank 27.78%"
    )
    assert (
        "<td>short</td><td>medium</td><td>91/216 (42.13%)</td><td>19/27 (70.37%)</td>"
        in panel.pane.value
    )
    panel.controls["cover"].value = True
    panel.controls["veteran"].value = True
    assert "(target in cover, veteran crew)" in panel.figure.axes[0].get_title()
    assert (
        "<td>short</td><td>medium</td><td>91/216 (42.13%)</td>" in panel.pane.value
    )  # they cancel
    panel.controls["veteran"].value = False
    panel.controls["shaken"].value = True
    assert "<td>short</td><td>medium</td><td>0%</td>" in panel.pane.value  # a 7 is needed
    assert suptitle(panel).endswith(
        "; a short or medium gun cannot destroy any tank (it needs a 7)"
    )
    panel.controls["natural_six"].value = "always_hits"
    assert "<td>short</td><td>medium</td><td>397/1728 (22.97%)</td>" in panel.pane.value
    assert [w for w, _ in panel.controls["natural_six"].options] == [
        "hits if the modified roll does (wbk)",
        "always hits",
    ]


def test_duel_calculator():
    panel = panels.duel_calculator()
    # the duel as picture() draws it: its tanks are the first tank and the second
    assert suptitle(panel) == (
        "the first tank (medium, medium gun) shooting first against the second tank (heavy, "
        "long gun): the first wins 9/17 (52.94%)"
    )
    # the steps name the tanks as a wargamer would, never by placeholder names
    assert "range 16&quot;: the medium gun of the first tank reaches" in panel.pane.value
    assert "the first tank wins 9/17" in panel.pane.value
    assert "'first'" not in panel.pane.value and "&#x27;first" not in panel.pane.value
    assert pz8.duel(
        pz8.Tank("a"), pz8.Tank("b", tank_class="heavy", gun="long"), 16
    ).first_wins == Fraction(9, 17)
    panel.controls["second_class"].value = "medium"
    panel.controls["second_gun"].value = "medium"
    panel.controls["range_inches"].value = 10
    assert "first wins 21/32 (65.62%)" in suptitle(panel)
    assert "(the first tank 1.77, the second tank 0.93" in panel.pane.value  # 567/320, 297/320
    assert pz8.duel(pz8.Tank("a"), pz8.Tank("b"), 10).mean_attacks_by == (
        Fraction(567, 320),
        Fraction(297, 320),
    )
    panel.controls["turns"].value = "alternate"
    assert "first wins 27/44 (61.36%)" in suptitle(panel)
    panel.controls["turns"].value = "card"
    panel.controls["range_inches"].value = 20  # neither medium gun reaches
    assert "out of range: neither gun reaches 20&quot;, so neither tank can win" in panel.pane.value
    panel.controls["range_inches"].value = 26  # neither gun reaches: the title says so
    assert (
        suptitle(panel)
        .replace("\n", " ")
        .startswith('Out of range: neither gun reaches 26" (the first tank (medium, medium gun)')
    )
    ticks = [t.get_text() for t in panel.figure.axes[0].get_xticklabels()]
    assert ticks == ["first\nwins", "second\nwins", "neither\never wins"]
    right = [t.get_text() for t in panel.figure.axes[1].get_legend().get_texts()]
    assert NEITHER in right  # the grey bar's colour is in the legend


def test_a_bad_terrain_size_makes_the_panel_out_of_date_until_fixed():
    panel = panels.TablePanel(path="unused.toml")
    title = panel.view.ax.get_title()
    panel.terrain_size.value = "6 by x"
    assert "terrain size '6 by x' is not two numbers of inches like 6 x 4" in panel.message.value
    assert panel.view.ax.get_title() == 'Out of date: fix "terrain size" above'
    panel.terrain_size.value = "inf x 3"
    assert "terrain size 'inf x 3': both numbers must be positive inches" in panel.message.value
    panel.terrain_size.value = "6 by 4"
    assert panel.message.value == "" and parse_size("6 by 4") == (6.0, 4.0)
    assert panel.view.ax.get_title() == title and "Out of date" not in panel.pane.value


def test_a_failed_load_or_save_keeps_the_table_on_show(tmp_path):
    panel = panels.TablePanel(path=str(tmp_path / "missing.toml"))
    title = panel.view.ax.get_title()
    panel.load()
    assert "missing.toml" in panel.file.note.value
    assert panel.view.ax.get_title() == title and "Out of date" not in panel.pane.value
    panel.file.path.value = str(tmp_path / "mine.txt")
    panel.save()
    assert "should end in .toml" in panel.file.note.value
    assert panel.view.ax.get_title() == title and "Out of date" not in panel.pane.value


def test_the_tank_controls_are_choices_in_plain_words():
    panel = panels.TablePanel(path="unused.toml")
    assert [v for _, v in panel.tank_row.side.options] == ["German", "Soviet"]
    assert (
        dict(panel.tank_row.facing.options)["↑ far edge"] == 90
        and panel.tank_row.facing.value == 90
    )
    assert dict(panel.terrain_angle.options)["45° left"] == 45
    assert [w for w, _ in panel.click.options] == [
        "shooter",
        "target",
        "place tank",
        "turn tank",
        "terrain",
        "remove",
    ]
    assert all(panel.click.tooltips)  # the short labels' detail
    assert "shaken" in panels.gun_against_armor().controls["natural_six"].tooltip


# --- issue 17: out of date exactly while an input is bad -----------------------------------------


def test_the_stuck_out_of_date_is_gone_every_bad_input_named():
    panel = panels.TablePanel(path="unused.toml")
    title = panel.view.ax.get_title()
    panel.tank_row.name.value = ""
    panel.click.value = "place"
    click(panel, 10, 40)  # nothing to place
    assert "tank name: the tank needs a name" in panel.message.value
    assert panel.view.ax.get_title() == 'Out of date: fix "tank name" above'
    panel.terrain_size.value = "6 x"
    assert "tank name: " in panel.message.value and "terrain size: " in panel.message.value
    assert panel.view.ax.get_title() == 'Out of date: fix "tank name" and "terrain size" above'
    panel.terrain_size.value = "6 x 4"  # the size fixed: the name is still bad, and said so
    assert "tank name: the tank needs a name" in panel.message.value
    assert panel.view.ax.get_title() == 'Out of date: fix "tank name" above'
    assert "Out of date while &quot;tank name&quot; is bad" in panel.pane.value or (
        "Out of date while" in panel.pane.value
    )
    panel.tank_row.name.value = "Panther"  # typed back: the answer returns
    assert panel.message.value == "" and panel.view.ax.get_title() == title
    assert "Out of date" not in panel.pane.value


def test_a_bad_shooter_and_a_bad_calibre_are_both_named_until_each_is_fixed():
    panel = panels.TablePanel(path="unused.toml")
    panel.boxes["shooter"].value = "Panzer"
    panel.tank_row.calibre.value = "6 pounder"
    assert "shooter: no tank called 'Panzer'" in panel.message.value
    assert "calibre: calibre '6 pounder': the card names only the 2 pounder" in panel.message.value
    panel.boxes["shooter"].value = "Tiger"
    assert panel.view.ax.get_title() == 'Out of date: fix "calibre" above'
    panel.tank_row.calibre.value = "75mm"
    assert panel.view.ax.get_title().startswith("Tiger → KV-1")
    assert panel.tank_row.gun.value == "medium"


# --- issue 17: a click selects a tank, the row edits it in place ----------------------------------


def test_clicking_a_tank_selects_it_and_the_row_edits_it_in_place():
    panel = panels.TablePanel(path="unused.toml")
    panel.click.value = "place"
    click(panel, 30, 8)  # on the Tiger: selected, not a Panther put on top of it
    assert "selected 'Tiger'" in panel.message.value
    assert (
        panel.tank_row.name.value,
        panel.tank_row.tank_class.value,
        panel.tank_row.gun.value,
    ) == (
        "Tiger",
        "heavy",
        "long",
    )
    assert panel.tank_row.flags["is_hq"].value is False and panel.tank_row.crew.value == "regular"
    assert "it moves 'Tiger' there. The row below edits 'Tiger' in place." in panel.hint.value
    panel.tank_row.gun.value = "medium"
    panel.tank_row.flags["shaken"].value = True
    panel.tank_row.flags["is_hq"].value = True
    panel.tank_row.platoon.value = "2"
    panel.tank_row.facing.value = 0
    tiger = panel.table.piece("Tiger")
    assert (tiger.gun, tiger.shaken, tiger.is_hq, tiger.platoon, tiger.facing) == (
        "medium",
        True,
        True,
        "2",
        0,
    )
    assert tiger.position == (30.0, 8.0) and tiger.tank_class == "heavy"  # the rest stays
    assert "'Tiger': facing." in panel.message.value
    assert "Tiger · pl. 2" in [t.get_text() for t in panel.view.names]
    panel.tank_row.calibre.value = "88"  # the picker edits it too
    assert panel.table.piece("Tiger").gun == "long"


def test_an_edit_that_cannot_stand_is_refused_and_the_row_shows_the_tank_again():
    panel = panels.TablePanel(path="unused.toml")
    panel.click.value = "place"
    click(panel, 1, 20)  # a Panther facing the far edge, against the left edge
    panel.tank_row.facing.value = 0  # turned to the right edge, its rear would leave the table
    assert "'Panther' at position [1.0, 20.0] facing 0: its footprint leaves" in panel.message.value
    assert panel.table.piece("Panther").facing == 90 and panel.tank_row.facing.value == 90
    assert "Out of date" not in panel.pane.value


def test_a_shooter_picked_by_a_click_is_selected_too():
    panel = panels.TablePanel(path="unused.toml")
    click(panel, 21.5, 31)  # the KV-1, as the shooter
    assert panel.boxes["shooter"].value == "KV-1" and panel.tank_row.name.value == "KV-1"
    assert panel.tank_row.side.value == "Soviet" and panel.tank_row.gun.value == "medium"


# --- issue 17: controls that change nothing say so -----------------------------------------------


def test_a_natural_6_makes_no_difference_unless_a_7_is_needed():
    panel = panels.gun_against_armor()
    note = panel.widget.children[1].children  # the controls' row, under the worked examples
    words = [c.value for c in note if isinstance(c, widgets.HTML)]
    assert "<i>makes no difference here</i>" in words
    panel.controls["cover"].value = True
    panel.controls["shaken"].value = True  # now a short or medium gun needs a 7
    words = [c.value for c in panel.widget.children[1].children if hasattr(c, "value")]
    assert "<i>makes no difference here</i>" not in words


def test_the_cover_reading_says_when_it_makes_no_difference():
    panel = panels.TablePanel(path="unused.toml")  # 53% of the KV-1 seen: the readings differ
    assert panel.cover_note.value == ""
    panel.boxes["shooter"].value = "Pz IV 2"  # in the open: both readings agree
    assert panel.cover_note.value == "<i>makes no difference here</i>"


def test_platoon_warnings_are_shown_not_errors():
    table = Table(
        48,
        48,
        pieces=[
            pz8.Tank("A", (10, 10), side="X", is_hq=True),
            pz8.Tank("B", (30, 30), side="Y"),
        ],
    )
    panel = panels.TablePanel(table, "A", "B", path="unused.toml")
    assert "a warning, not an error" in panel.pane.value
    assert "the Y platoon has 0 HQs (the card asks for one)" in panel.pane.value
    assert panel.message.value == ""


# --- issue 17: titles never cut off, charts in percent --------------------------------------------


def _inside(figure, text) -> bool:
    figure.draw_without_rendering()
    box = text.get_window_extent(figure.canvas.get_renderer())
    whole = figure.bbox
    return box.x0 >= whole.x0 and box.x1 <= whole.x1 and box.y0 >= whole.y0 and box.y1 <= whole.y1


def test_the_longest_duel_title_fits_inside_the_figure():
    panel = panels.duel_calculator()
    for name, value in {
        "first_crew": "veteran",
        "second_crew": "veteran",
        "first_in_cover": True,
        "second_in_cover": True,
        "shaken_rule": True,
        "turns": "card",
        "range_inches": 10,
    }.items():
        panel.controls[name].value = value
    said = suptitle(panel)
    assert "wins" in said and len(said) < 160  # no 40-digit fraction
    assert "/37759" not in said
    assert _inside(panel.figure, panel.figure._suptitle)
    panel.controls["range_inches"].value = 26  # the out-of-range title, the longer words
    assert _inside(panel.figure, panel.figure._suptitle)
    ticks = [t.get_text() for t in panel.figure.axes[0].get_yticklabels()]
    assert ticks[-1] == "100%" and all(t.endswith("%") for t in ticks)


def test_the_longest_gun_against_armor_titles_fit_inside_the_figure():
    panel = panels.gun_against_armor()
    for cover in (False, True):
        for shaken in (False, True):
            panel.controls["cover"].value = cover
            panel.controls["shaken"].value = shaken
            panel.controls["veteran"].value = True
            texts = [panel.figure._suptitle, *(ax.title for ax in panel.figure.axes)]
            assert all(_inside(panel.figure, t) for t in texts if t.get_text())


def test_the_longest_table_title_fits_inside_the_figure():
    panel = panels.TablePanel(path="unused.toml")
    panel.click.value = "place"
    panel.tank_row.name.value = "Panzerkampfwagen VI Ausf. E Tiger"
    panel.tank_row.side.value = "German"
    click(panel, 4, 44)  # far from everything, on the same side as the Pz IV 1
    panel.boxes["target"].value = "Panzerkampfwagen VI Ausf. E Tiger"
    title = panel.view.title()
    assert "no shot" in title and "same side" in title and "out of range" in title
    assert _inside(panel.figure, panel.view.ax.title)


# --- issue 17: a saved picture carries its settings and its situation ----------------------------


def test_a_saved_table_picture_reopens_the_panel_to_the_identical_picture(tmp_path):
    from wbk.widgets import load_edge_case

    panel = panels.TablePanel(path="unused.toml", shooter="Tiger", target="T-34 1")
    panel.cover_reading.value = "half_hidden"
    panel.show_reach.value = True
    assert panel.caption() == (
        "Rule: Pz 8, Shooting and Movement. Settings unlike the defaults: "
        "cover if: half or more hidden; reach: yes."
    )
    panel.save_picture(str(tmp_path / "shot.png"))
    again = load_edge_case(tmp_path / "shot.png")
    assert isinstance(again, panels.TablePanel)
    assert again.table == panel.table and again.view.title() == panel.view.title()
    assert (again.cover_reading.value, again.show_reach.value) == ("half_hidden", True)
    again.save_picture(str(tmp_path / "again.png"))
    assert (tmp_path / "again.png").read_bytes() == (tmp_path / "shot.png").read_bytes()


def test_the_duel_says_when_the_shaken_rule_or_the_turns_make_no_difference():
    panel = panels.duel_calculator()
    row = panel.widget.children[1]  # the controls' row, under the worked examples
    notes = [c for c in row.children if isinstance(c, widgets.HTML)]
    assert [n.value for n in notes] == ["", ""]  # at 16" both change the answer
    panel.controls["range_inches"].value = 26  # neither gun reaches: nothing can change
    assert [n.value for n in notes] == ["<i>makes no difference here</i>"] * 2


def test_a_low_obstacle_placed_on_the_table_blocks_movement_not_sight():
    panel = panels.TablePanel(path="unused.toml", shooter="Tiger", target="T-34 2")
    panel.click.value = "terrain"
    panel.terrain_kind.value = "low obstacle"
    assert "A click places low obstacle (seen over) of 6 x 4 inches" in panel.hint.value
    click(panel, 30, 20)  # in front of the Tiger
    wall = panel.table.terrain[-1]
    assert (wall.kind, wall.blocks_sight, wall.name) == ("obstacle", False, "low wall 1")
    assert "no shot" not in panel.view.ax.get_title()
    assert "low obstacle (blocks movement, not sight)" in legend(panel)
    panel.terrain_kind.value = "rough"
    click(panel, 10, 40)
    assert panel.table.terrain[-1].name == "rough 3"  # the birch wood and the marsh are 1 and 2


def test_a_table_of_another_size_is_drawn_in_its_own_proportions(tmp_path):
    path = tmp_path / "small.toml"
    small = Table(
        24, 12, pieces=[pz8.Tank("A", (4, 6), side="X"), pz8.Tank("B", (20, 6), side="Y")]
    )
    small.save(path)
    panel = panels.TablePanel(path=str(path))
    panel.load()
    assert tuple(panel.figure.get_size_inches()) == pytest.approx(table_figure_size(small, 6.0))
    panel.boxes["shooter"].value, panel.boxes["target"].value = "A", "B"
    assert panel.view.title().startswith('A → B, 16"')


def test_the_static_snapshot_lists_the_shot_not_the_next_clicks_tools():
    """On a page with no kernel the row that describes the next click's tank and terrain means
    nothing (it once showed "calibre:" and "platoon:" empty and left out the unnamed choices):
    the snapshot lists what the picture shows."""
    panel = panels.TablePanel(path="unused.toml")
    assert panel.controls_text() == [
        "ask: a shot",
        "shooter: Pz IV 1",
        "target: KV-1",
        "reach: no",
        "cover if: any part hidden (wbk)",
        "low walls: seen over where marked (wbk)",
    ]
    assert "calibre" not in panel.static_html() and "Panther" not in panel.static_html()


def walled_table():
    """The chapter's low wall between a Pz IV and a T-34 12" apart."""
    wall = Terrain(
        "obstacle",
        ((4, 11.75), (20, 11.75), (20, 12.25), (4, 12.25)),
        name="low wall",
        blocks_sight=False,
    )
    return Table(
        24,
        24,
        terrain=[wall],
        pieces=[
            pz8.Tank("Pz IV", (12, 6), side="German", gun="medium", facing=90),
            pz8.Tank("T-34", (12, 18), side="Soviet", facing=270),
        ],
    )


def test_the_low_obstacle_reading_is_a_control_saved_with_the_picture(tmp_path):
    """obstacle_sight, the reading of "most obstacles block line of sight", chosen in the panel:
    it says when it makes no difference, and a saved edge case carries it."""
    panel = panels.TablePanel(walled_table(), "Pz IV", "T-34", path="unused.toml")
    assert panel.view.ax.get_title() == 'Pz IV → T-34, 12": in the open, destroyed 10/27 (37.04%)'
    assert panel.sight_note.value == ""
    panel.sight_reading.value = "all_block"
    assert panel.view.ax.get_title() == 'Pz IV → T-34, 12": not seen, no shot (no line of sight)'
    reopened = panels.TablePanel.from_edge_case(panel.edge_case(), "saved")
    assert reopened.sight_reading.value == "all_block"
    assert reopened.view.ax.get_title() == panel.view.ax.get_title()
    bad = panel.edge_case().replace('"all_block"', '"sometimes"')
    with pytest.raises(WbkError, match="obstacle_sight: 'sometimes' is not one of"):
        panels.TablePanel.from_edge_case(bad, "saved")
    # the crossroads has no low obstacle: the reading makes no difference there
    crossroads = panels.TablePanel(path="unused.toml")
    assert NO_DIFFERENCE in crossroads.sight_note.value


def test_the_duel_legend_sits_above_100_percent_and_covers_no_line():
    """The range chart's legend once lay over the second tank's line at 100% (the walk of
    issue 17): it has the headroom above 100% to itself, where no line is drawn."""
    panel = panels.duel_calculator()
    for inches in (1, 16, 26):
        panel.controls["range_inches"].value = inches
        right = panel.figure.axes[1]
        panel.figure.draw_without_rendering()
        box = right.get_legend().get_window_extent()
        lines_top = max(line.get_window_extent().y1 for line in right.get_lines())
        assert box.y0 > lines_top


# --- step through, compare readings, the card's cases (issue 19) -------------------------------


def test_the_table_panel_steps_through_the_shot_and_back_to_its_answer():
    p = panels.TablePanel(pz8.example_table(), "Pz IV 1", "KV-1")
    steps = p.step_control.steps
    assert len(steps) == 12 and p.step_control.at_answer
    answer = p.view.title()
    assert answer == 'Pz IV 1 → KV-1, 17.1": in cover (53% seen), destroyed 5/18 (27.78%)'
    p.step_control.go(1)
    assert (
        p.view.title() == "Step 2 of 12: obstacle 'farmhouse' hides 47% of 'KV-1' (Pz 8, Shooting)"
    )
    assert p.view.step_marks.get_paths()
    p.step_control.key("next")
    assert p.view.title().startswith("Step 3 of 12: 53% of 'KV-1' is seen")
    p.step_control.go(11)
    assert p.view.title() == answer and not p.view.step_marks.get_paths()


def test_the_table_panel_compares_readings_by_the_shots_verdict():
    p = panels.TablePanel(pz8.example_table(), "Pz IV 1", "KV-1")
    p.compare.choice.value = ("cover_reading", "half_hidden")
    assert p.compare.note.value == ""
    assert p.comparison.verdict.get_visible()
    assert p.comparison.verdict.get_text() == (
        "under 'cover: half or more hidden': in the open (53% seen), destroyed 3/8 (37.50%)"
    )
    # the farmhouse is a full obstacle: every obstacle blocking changes nothing here
    p.compare.choice.value = ("obstacle_sight", "all_block")
    assert "agree" in p.compare.note.value and not p.comparison.verdict.get_visible()
    p.compare.choice.value = None
    assert not p.comparison.verdict.get_visible()


@pytest.mark.parametrize(
    ("case", "title", "steps"),
    [
        ("farmhouse hides 47%", 'Pz IV 1 → KV-1, 17.1": in cover (53% seen), destroyed 5/18', 12),
        ("Tiger at T-34 2", 'Tiger → T-34 2, 23.8": in the open, destroyed 5/12 (41.67%)', 9),
        ("out of range", "no shot ('T-60' is already a wreck; out of range)", 5),
        ("Movement: Pz IV 1", "Pz IV 1 → KV-1", 25),
    ],
)
def test_each_table_case_gives_the_cards_answer(case, title, steps):
    p = panels.TablePanel(pz8.example_table(), "Pz IV 2", "T-34 2")
    (name,) = [n for n in panels.TABLE_CASES if case in n]
    p.presets.menu.value = name
    assert title in p.view.title()
    assert len(p.step_control.steps) == steps
    assert p.show_reach.value == name.startswith("Movement")


def _destroyed_cells(panel) -> dict[tuple[str, str], str]:
    import re

    rows = re.findall(r"<tr><td>(\w+)</td><td>(\w+)</td><td>([^ <]*)", panel.pane.value)
    return {(gun, cls): chance for gun, cls, chance in rows}


def test_the_gun_panels_cases_give_the_cards_answers_and_compare_the_natural_six():
    p = panels.gun_against_armor()
    (plain, cover_short, cancel, shaken, cover_shaken) = panels.ARMOR_CASES
    p.presets.menu.value = plain
    cells = _destroyed_cells(p)
    # a medium gun: two dice hitting on 5+, the save 6+ light, 5+ medium, 4+ heavy
    assert [cells["medium", c] for c in ("light", "medium", "heavy")] == [
        "25/54",  # 5/9 a hit (1 - (2/3)^2), then 5/6 a failed save
        "10/27",
        "5/18",
    ]
    p.presets.menu.value = cover_short
    assert p.controls["cover"].value and not p.controls["veteran"].value
    assert _destroyed_cells(p)["short", "light"] != cells["short", "light"]
    p.presets.menu.value = cancel
    assert _destroyed_cells(p) == cells  # -1 and +1: the plain attack again
    p.presets.menu.value = shaken
    assert p.controls["shaken"].value
    # a 6 + nothing: the readings of a natural 6 agree until a 7 is needed
    p.compare.choice.value = ("natural_six", "always_hits")
    assert "agree" in p.compare.note.value
    p.presets.menu.value = cover_shaken
    assert _destroyed_cells(p)["short", "light"] == "0%"
    assert p.compare.note.value == "" and len(p._compare_marks) == 12  # 6 cells, box and words


def test_the_duel_panels_cases_and_its_turns_compared_by_the_bars_that_move():
    p = panels.duel_calculator()
    wins = {}
    for name in panels.DUEL_CASES:
        p.presets.menu.value = name
        wins[name] = p.pane.value.split("the first tank wins ")[1].split(" ")[0]
    light, medium, heavy, short, cover = panels.DUEL_CASES
    assert [wins[light], wins[medium], wins[heavy]] == ["21/29", "21/32", "21/37"]
    assert wins[short] == "117/187"
    # a veteran firer against a target in cover is the plain medium duel's first shot again
    assert wins[cover] == wins[medium]
    p.compare.choice.value = ("turns", "alternate")
    assert p.compare.note.value == "" and len(p._compare_marks) == 4  # two bars move
    p.compare.choice.value = ("turns", "card")
    assert "reading on show" in p.compare.note.value and not p._compare_marks


# --- the duel at a step (issue 19 phase 2) -----------------------------------------------------


def _png(figure) -> bytes:
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=60)
    return buffer.getvalue()


def test_a_duel_draws_differently_at_every_step_and_refuses_a_bad_step():
    from wbk.draw import picture

    t34 = pz8.Tank("T-34", tank_class="medium", gun="medium")
    tiger = pz8.Tank("Tiger", tank_class="heavy", gun="long", crew="veteran")
    d = pz8.duel(t34, tiger, 16, shaken_rule=True)
    assert [s.about for s in d.steps][:4] == [
        ("range", "first"),
        ("range", "second"),
        ("attack", "first"),
        ("attack", "second"),
    ]
    assert d.steps[2].text == (
        "T-34 shoots: one attack destroys Tiger 5/18 (27.78%), the turn passes 5/9 (55.56%)"
    )
    whole = picture(d)
    assert whole._suptitle.get_text().replace("\n", " ") == (
        "T-34 (medium, medium gun) shooting first against Tiger (heavy, long gun, veteran): "
        "the first wins ≈ 50.74%"
    )
    drawn = [_png(picture(d, step=k)) for k in range(len(d.steps))]
    assert len(set(drawn)) == len(drawn) == 8
    assert _png(whole) not in drawn
    assert picture(d, step=2)._suptitle.get_text().startswith("Step 3 of 8: T-34 shoots")
    # at the attack step, the first tank's bar is outlined, the second's faded
    attacks = picture(d, step=2).axes[2]
    first_bar, *_ = attacks.patches
    assert first_bar.get_linewidth() == 3 and attacks.patches[-1].get_alpha() == FADED
    for bad in (8, -9, "2", 1.5):
        with pytest.raises(WbkError, match="step"):
            picture(d, step=bad)


def test_the_duel_panel_steps_through_the_duel_and_back_to_its_verdict():
    p = panels.duel_calculator()
    verdict = suptitle(p)
    steps = p.step_control.steps
    assert p.step_control.at_answer and len(steps) == 7
    p.step_control.go(0)
    assert suptitle(p).startswith('Step 1 of 7: range 16": the medium gun of the first tank')
    p.step_control.key("next")
    assert suptitle(p).startswith("Step 2 of 7")
    p.step_control.go(6)
    assert suptitle(p) == verdict
    # a new answer starts at its verdict
    p.step_control.go(2)
    p.controls["range_inches"].value = 10
    d = pz8.duel(pz8.Tank("a"), pz8.Tank("b", tank_class="heavy", gun="long"), 10)
    assert p.step_control.at_answer and suptitle(p).endswith(
        f"the first wins {say_chance(d.first_wins)}"
    )


# --- the table panel asks for a platoon move or a rally (issue 19 phase 2) -----------------------


def _with(table, name, **changes):
    from dataclasses import replace

    return table.with_piece(replace(table.piece(name), **changes))


@pytest.mark.parametrize(
    ("case", "title", "steps"),
    [
        ("Soviet tanks all within 3", "allowed, 3 tanks move 1D6 + 3, then the turn passes", 6),
        ("no German platoon move", "not allowed, 'Tiger' is 11.7\" from the HQ 'Pz IV 1'", 4),
        ('KV-1 2.5"', "Rally of KV-1: its HQ 'T-34 1' 2.5\" away, it rallies 1/3 (33.33%)", 3),
        ("veteran crew", "Rally of Pz IV 2: its HQ 'Pz IV 1' 2.5\" away, it rallies 1/2", 3),
        ("rallies itself", "Rally of T-34 1: the HQ rallies itself on 4-6, 1/2 (50.00%)", 2),
        (
            "is itself shaken",
            "Rally of KV-1: its HQ 'T-34 1' 2.5\" away, it cannot rally (its HQ is itself shaken)",
            4,
        ),
        ("Pz IV 1 is destroyed", "it cannot rally (its HQ is destroyed)", 4),
        (
            "Tiger 14.4",
            "Rally of Tiger: its HQ 'Pz IV 1' 14.4\" away, it cannot rally (more than 12\")",
            3,
        ),
        ("T-34 2 shaken stays", "allowed, 2 tanks move 1D6 + 3, then the turn passes", 6),
    ],
)
def test_each_platoon_and_rally_case_gives_the_cards_answer(case, title, steps):
    p = panels.TablePanel(pz8.example_table(), "Pz IV 2", "T-34 2")
    (name,) = [n for n in panels.TABLE_CASES if case in n]
    p.presets.menu.value = name
    assert title in p.view.title()
    assert len(p.step_control.steps) == steps and p.step_control.at_answer
    assert p.boxes["shooter"].description == "tank" and p.boxes["target"].disabled
    assert p.message.value == ""


def test_the_platoon_move_is_drawn_with_its_distances_and_steps_through_them():
    p = panels.TablePanel(pz8.example_table(), "Pz IV 2", "T-34 2")
    p.ask.value = "platoon"
    texts = sorted(t.get_text() for t in p.view.link_texts)
    assert texts == ['11.7"', '2.5"', '2.5"']
    assert p.view.radius.get_visible() and p.view.radius.get_radius() == 3
    p.step_control.go(2)
    assert p.view.title().startswith("Step 3 of 4: 'Tiger' is 11.7\" from the HQ 'Pz IV 1'")
    assert p.view.step_marks.get_paths()
    # back to a shot: no HQ circle, the target box again
    p.ask.value = "shot"
    assert not p.view.radius.get_visible() and not p.view.link_texts
    assert p.boxes["shooter"].description == "shooter" and not p.boxes["target"].disabled


def test_a_platoon_move_and_a_rally_draw_differently_at_every_step():
    from wbk.draw import picture

    move = pz8.platoon_movement(T, "German")
    drawn = [_png(picture(move, table=T, step=k)) for k in range(len(move.steps))]
    assert len(set(drawn)) == len(drawn) == 4
    rally = pz8.rally(T, "KV-1")
    drawn = [_png(picture(rally, table=T, step=k)) for k in range(len(rally.steps))]
    assert len(set(drawn)) == len(drawn) == 3
    assert picture(rally, table=T).axes[0].get_title() == (
        "Rally of KV-1: its HQ 'T-34 1' 2.5\" away, it rallies 1/3 (33.33%)"
    )
    with pytest.raises(WbkError, match="step 4"):
        picture(move, table=T, step=4)


def test_compare_a_shaken_member_marks_the_tanks_the_platoon_move_takes_or_leaves():
    p = panels.TablePanel(_with(T, "T-34 2", shaken=True), "KV-1", "Pz IV 1")
    p.ask.value = "platoon"
    assert "allowed, 2 tanks move 1D6 + 3" in p.view.title()
    p.compare.choice.value = ("shaken_member", "no_platoon_move")
    assert p.compare.note.value == "" and p.comparison.verdict.get_visible()
    assert p.comparison.verdict.get_text().startswith(
        "under 'a shaken tank: no platoon move': not allowed"
    )
    assert len(p.comparison.hatch.get_paths()) == 2  # T-34 1 and KV-1 would stay
    # a shaken HQ reading changes nothing here: the HQ is not shaken
    p.compare.choice.value = ("shaken_hq", "no_platoon_move")
    assert "agree" in p.compare.note.value and not p.comparison.hatch.get_paths()


def test_compare_a_shaken_hq_refuses_the_move_and_agrees_on_a_plain_platoon():
    p = panels.TablePanel(_with(T, "T-34 1", shaken=True), "KV-1", "Pz IV 1")
    p.ask.value = "platoon"
    assert "allowed, 2 tanks move" in p.view.title()
    p.compare.choice.value = ("shaken_hq", "no_platoon_move")
    assert "a shaken HQ: no platoon move': not allowed" in p.comparison.verdict.get_text()
    plain = panels.TablePanel(T, "KV-1", "Pz IV 1")
    plain.ask.value = "platoon"
    for keyword in ("shaken_hq", "shaken_member"):
        plain.compare.choice.value = (keyword, "no_platoon_move")
        assert "agree" in plain.compare.note.value
    # a shot is not changed by the platoon readings
    plain.ask.value = "shot"
    assert "agree" in plain.compare.note.value


def test_compare_the_rough_terrain_reading_hatches_where_the_reach_moves():
    in_wood = _with(T, "Pz IV 1", position=(12.0, 23.0))
    p = panels.TablePanel(in_wood, "Pz IV 1", "KV-1")
    p.show_reach.value = True
    p.compare.choice.value = ("rough_terrain", "entering")
    assert p.compare.note.value == "" and p.comparison.hatch.get_paths()
    assert p.comparison.verdict.get_text().startswith(
        "under 'rough charged only when entered': the reach changes where hatched"
    )
    # a tank that starts in the open: the readings agree
    plain = panels.TablePanel(T, "Pz IV 1", "KV-1")
    plain.show_reach.value = True
    plain.compare.choice.value = ("rough_terrain", "entering")
    assert "agree" in plain.compare.note.value and not plain.comparison.hatch.get_paths()


def test_a_saved_rally_picture_reopens_the_panel_asking_for_the_rally(tmp_path):
    from wbk.widgets import load_edge_case

    panel = panels.TablePanel(T, "KV-1", "Pz IV 1")
    panel.ask.value = "rally"
    saved = tmp_path / "rally.toml"
    saved.write_text(panel.edge_case(), encoding="utf-8")
    again = load_edge_case(saved)
    assert again.ask.value == "rally" and again.view.title() == panel.view.title()


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("Pz II (light", ["moves 5 + D6", "obstacle 'farmhouse'", "'Pz IV 1'", "Hill 112"]),
        ("Tiger (heavy", ["moves 3 + D6", "rough 'marsh' is only touched, never entered"]),
    ],
)
def test_the_movement_cases_of_a_light_and_a_heavy_tank(case, words):
    p = panels.TablePanel(pz8.example_table(), "Pz IV 2", "T-34 2")
    (name,) = [n for n in panels.TABLE_CASES if case in n]
    p.presets.menu.value = name
    assert p.show_reach.value and p.view.reach_bands
    listed = " ".join(s.text for s in p.step_control.steps)
    assert all(word in listed for word in words)


def test_a_worked_example_sets_the_table_it_needs_and_the_next_sets_it_back():
    p = panels.TablePanel(pz8.example_table(), "Pz IV 2", "T-34 2")
    (shaken,) = [n for n in panels.TABLE_CASES if "T-34 2 shaken stays" in n]
    (plain,) = [n for n in panels.TABLE_CASES if "Soviet tanks all within 3" in n]
    p.presets.menu.value = shaken
    assert p.table.piece("T-34 2").shaken
    # the shaken member read the other way: no platoon move
    p.compare.choice.value = ("shaken_member", "no_platoon_move")
    assert "not allowed" in p.comparison.verdict.get_text()
    p.presets.menu.value = plain
    assert p.table == pz8.example_table() and "3 tanks move" in p.view.title()
    with pytest.raises(WbkError, match="worked example table 'moon'"):
        case_table("moon")


def test_the_gun_against_armor_panel_changes_its_picture_in_place_and_right():
    """Issue 30: each checkbox took 1.5-2.7 s, the whole figure made anew and laid out. Now the
    heatmaps are changed in place; what they show is what a fresh drawing shows."""
    import numpy as np

    from wbk.draw import picture

    panel = panels.gun_against_armor()
    axes = panel.figure.axes[:2]
    for cover, veteran, shaken in ((True, False, False), (True, True, True), (False, True, False)):
        panel.controls["cover"].value = cover
        panel.controls["veteran"].value = veteran
        panel.controls["shaken"].value = shaken
        assert panel.figure.axes[:2] == axes  # nothing made anew
        fresh = picture(pz8.attack_table(cover=cover, veteran=veteran, shaken=shaken))
        assert tuple(fresh.get_size_inches()) == (8.0, 3.6)
        for shown, drawn in zip(axes, fresh.axes[:2], strict=True):
            assert np.array_equal(shown.images[0].get_array(), drawn.images[0].get_array())
            assert [t.get_text() for t in shown.texts] == [t.get_text() for t in drawn.texts]
            assert shown.get_title() == drawn.get_title()
        assert panel.figure.get_suptitle() == fresh.get_suptitle()
    assert "destroyed by one attack\n(target in cover, veteran crew, firer shaken)" not in (
        axes[0].get_title()
    )  # the last options: a veteran crew alone
    assert axes[0].get_title().endswith("(veteran crew)")


def test_compare_options_and_choices_read_in_words_and_show_whole():
    """Issue 30: "shaken hq:", "cover reading: cover: ..." in "compare with"; "medium tan" cut
    off in a dropdown too narrow for its words."""
    panel = panels.TablePanel()
    options = [words for words, _ in panel.compare_readings.choice.options]
    assert "cover: any part hidden" in options and "a shaken HQ: no platoon move" in options
    assert not [w for w in options if w.startswith(("shaken hq", "cover reading", "natural six"))]
    longest = max(len(words) for words, _ in panel.tank_row.tank_class.options)
    assert int(panel.tank_row.tank_class.layout.min_width.removesuffix("px")) >= 7 * longest + 40
    # the menus of long words are as wide as the words they show (never all at once: the
    # longest would push the row past JupyterLab's page)
    for menu in (panel.compare_readings.choice, panel.presets.menu):
        widths = []
        for index, label in enumerate(
            menu.options if menu is panel.presets.menu else [w for w, _ in menu.options]
        ):
            menu.index = index
            widths.append(int(menu.layout.width.removesuffix("px")))
            assert widths[-1] >= 7 * len(label) + 40, label
        assert min(widths) <= 350 and max(widths) >= 450


def test_the_gun_against_armour_panel_asks_for_one_picture_an_answer():
    """Each answer asked for two pictures: its own, and one for taking off "compare with"
    marks that were not there. One request a click; choosing a reading to compare, and
    choosing "nothing" again, one each (the marks come and go)."""
    panel = panels.gun_against_armor()
    asked = []
    panel.canvas.draw_idle = lambda: asked.append(1)
    for _ in range(3):
        panel.controls["cover"].value = not panel.controls["cover"].value
    assert len(asked) == 3
    panel.controls["shaken"].value = True  # in cover and shaken: a 6 is a 4, the readings part
    assert len(asked) == 4
    compare = panel.compare_readings.choice
    compare.value = ("natural_six", "always_hits")
    assert len(asked) == 5 and len(panel._compare_marks) == 12  # 6 cells: a box and words each
    compare.value = compare.options[0][1]
    assert len(asked) == 6 and not panel._compare_marks


def test_the_gun_against_armour_panel_sends_only_what_an_answer_changes_and_it_is_exact():
    """Issue 30: a click cost a whole drawing (160 ms here, the axes' ticks most of it). With a
    page showing the canvas, an answer draws the heatmaps' cells, frames, numbers and titles
    over a kept picture of the rest and sends that (``InPlacePicture``): every picture so sent
    is, pixel for pixel, the one a whole drawing makes; marks of a compared reading, or a new
    size, get a whole drawing or a kept picture made again."""
    import itertools

    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    panel = panels.gun_against_armor()
    canvas = panel.canvas
    canvas.draw()  # the page's first picture, whole
    canvas.syncing_data_url = False  # as ipympl has it once a page shows the canvas
    sent, asked = [], []
    blit = canvas.blit
    canvas.blit = lambda bbox=None: (
        sent.append(np.asarray(canvas.get_renderer().buffer_rgba()).copy()),
        blit(bbox),
    )
    canvas.draw_idle = lambda: asked.append(1)

    def whole() -> np.ndarray:
        FigureCanvasAgg.draw(canvas)
        return np.asarray(canvas.get_renderer().buffer_rgba())

    changes = []

    def answer(**values) -> None:
        for name, value in values.items():
            if panel.controls[name].value != value:
                changes.append(name)
            panel.controls[name].value = value

    for cover, veteran, shaken, six in itertools.product(
        (True, False), (True, False), (True, False), ("always_hits", "modified")
    ):
        before = len(sent)
        answer(cover=cover, veteran=veteran, shaken=shaken, natural_six=six)
        assert len(sent) > before and asked == []
        assert np.array_equal(sent[-1], whole()), (cover, veteran, shaken, six)
    assert len(sent) == len(changes) == 30  # every change of a control sent in place
    compare = panel.compare_readings.choice
    answer(cover=True, veteran=False, shaken=True)
    compare.value = ("natural_six", "always_hits")
    assert panel._compare_marks and len(asked) == 1
    answer(cover=False)  # marked cells: drawn whole
    answer(cover=True)
    assert len(asked) == 3 and len(sent) == len(changes) - 2
    compare.value = compare.options[0][1]
    assert len(asked) == 4
    panel.figure.set_size_inches(9.0, 4.0)  # as ipympl does when the page resizes it
    whole()
    answer(shaken=False)
    assert len(sent) == len(changes) - 2 and sent[-1].shape[:2] == (400, 900)
    assert np.array_equal(sent[-1], whole())
    panel.mark_stale()  # dimmed out of date: the next answer draws a new chart, then sends it
    answer(veteran=True)
    assert len(sent) == len(changes) - 2 and np.array_equal(sent[-1], whole())
    assert not panel.figure.get_suptitle().startswith("Out of date")


# --- the Pz 8 quiz as a learner uses it (test_widgets_quiz) ------------------------------------


def test_only_the_questions_i_missed():
    panel = QuizPanel.for_game("pz8")
    panel.answer_with("shot, target in the open")  # right
    panel.check()
    panel.next()
    panel.answer_with("no shot")  # wrong: the T-34 is in cover
    panel.check()
    panel.missed_only.value = True
    assert [panel.questions[i].id for i in panel.order] == ["tiger-past-the-farmhouse"]
    assert panel.question.id == "tiger-past-the-farmhouse" and "question 1 of 1" in (
        panel.header.value
    )
    panel.missed_only.value = False
    assert len(panel.order) == len(panel.questions)


def test_only_missed_with_nothing_missed_says_so():
    panel = QuizPanel.for_game("pz8")
    panel.missed_only.value = True
    assert "no missed questions" in panel.message.value
    assert panel.missed_only.value is False and len(panel.order) == len(panel.questions)


def test_clicking_tanks_answers_a_targets_question():
    panel = QuizPanel.for_game("pz8")
    go_to(panel, "kv1-targets")
    table = panel.question.board
    click(panel, *table.piece("Pz IV 1").position)
    click(panel, *table.piece("Tiger").position)
    assert panel.typed.value == "Pz IV 1, Tiger"
    click(panel, 2, 45)
    assert "no tank there" in panel.message.value
    panel.check()
    assert ">Wrong</b>: you said Pz IV 1, Tiger; the answer is <b>Pz IV 1, Pz IV 2</b>" in (
        panel.pane.value
    )
    assert "Tiger: no shot (out of range; no line of sight)" in panel.pane.value


def test_a_saved_shot_says_why_by_the_shot_not_by_the_reach_drawn_after_it():
    """Issue 40: the table panel's steps are the shot's and then the reach's; its saved picture
    gives the shot's reason under the shot's verdict, and the verdict above a step."""
    from test_pictures import saved_says

    panel = panels.TablePanel(path="unused.toml", shooter="Tiger", target="T-34 1")
    panel.show_reach.value = True
    reason = (
        "Why: a medium tank hit by a long gun saves on 6+; a failed save destroys it "
        "(Pz 8, Penetration and Damage)"
    )
    assert saved_says(panel) == (reason, "")
    panel.step_control.go(1)
    assert saved_says(panel) == (
        reason,
        'Tiger → T-34 1, 23.8": in cover (94% seen), destroyed 5/18 (27.78%)',
    )
