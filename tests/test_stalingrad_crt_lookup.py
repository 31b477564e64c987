"""A CRT lookup step by step (issue 19): its columns, rows and steps, its picture at each step,
and the CRT explorer's step control and worked examples."""

from fractions import Fraction as F

import pytest

from wbk.draw import picture, picture_bytes
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.games import stalingrad
from wbk.games.stalingrad import example_crt, panels
from wbk.games.stalingrad.crt import CrtCode, CrtColumn, CrtRow

CRT1 = example_crt("illustrative_1d6")
CRT2 = example_crt("illustrative_2d6")
SOURCE1 = "wbk/games/stalingrad/crts/illustrative_1d6.toml"


def texts(lookup) -> list[str]:
    return [step.text for step in lookup.steps]


def test_a_lookup_reads_the_column_shifts_and_modifies_the_roll():
    a = CRT1.lookup(12, shift=1, drm=1)
    assert (a.column, a.read_column, a.shift, a.drm) == ("10-19", "20-29", 1, 1)
    assert dict(a.rows) == {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 6}
    assert a.dist.probabilities() == {"2": F(1, 2), "1": F(1, 3), "P": F(1, 6)}
    assert a.dist == CRT1.resolve(12, shift=1, drm=1)
    assert texts(a) == [
        "12 AF reads the 10-19 column",
        "a shift of +1 (1 column right) moves from 10-19 to 20-29",
        "roll 1d6 on the 20-29 column: each row 1-6 1/6 (16.67%)",
        "a DRM of +1: a roll of 1 reads row 2; a roll of 6 would read row 7, past the last row, "
        "and reads row 6",
        "12 AF on the 20-29 column, DRM +1: P (pin) 1/6 (16.67%), 1 (eliminate 1) 1/3 (33.33%), "
        "2 (eliminate 2) 1/2 (50.00%)",
    ]
    # the table has no row 7: reading row 6 for it is wbk's assumption, and says so
    assert [step.rule for step in a.steps] == [SOURCE1] * 3 + ["wbk assumption", SOURCE1]
    assert CRT1.lookup(12, drm=-1).steps[2].rule == "wbk assumption"  # a 1 reads row 1
    assert CRT1.lookup(12, drm=0).steps[1].rule == SOURCE1
    assert a.steps[0].about == (CrtColumn("10-19"),)
    assert a.steps[1].about == (CrtColumn("10-19"), CrtColumn("20-29"))
    assert a.steps[3].about == (CrtColumn("20-29"), *(CrtRow(r) for r in range(2, 7)))
    assert set(a.steps[-1].about) >= {CrtCode("P"), CrtCode("1"), CrtCode("2")}
    assert a.verdict == a.steps[-1].text
    html = a._repr_html_()
    assert "<ol" in html and "not the published table" in html and "font-weight:bold" in html


def test_a_lookup_says_when_it_reads_the_open_last_column_or_runs_off_the_edge():
    a = CRT1.lookup(45, shift=2)
    assert texts(a)[:2] == [
        "45 AF reads the last column, 30+ (open: every strength from 30 up)",
        "a shift of +2 (2 columns right): 30+ is already the last column, the attack stays on it",
    ]
    b = CRT1.lookup(3, shift=-5)
    assert b.read_column == "1" and b.steps[1].rule == "wbk assumption"
    assert CRT1.lookup(3, shift=-2).steps[1].rule == SOURCE1  # on the table: the table's
    assert texts(b)[1] == (
        "a shift of -5 (5 columns left) runs off the table's edge: it stops at the first column, 1"
    )
    c = CRT1.lookup(20, shift=3, shift_rule="Streets of Stalingrad 9.67")
    assert c.read_column == "30+" and c.steps[1].rule == "Streets of Stalingrad 9.67"
    assert "runs off the table's edge: it stops at the last column, 30+" in c.steps[1].text


def test_a_drm_past_the_last_row_reads_the_edge_row_and_says_so():
    a = CRT2.lookup(15, drm=3)
    assert a.rows[10] == 12 and a.rows[12] == 12 and a.rows[2] == 5
    assert texts(a)[2] == (
        "a DRM of +3: a roll of 2 reads row 5; rolls 10, 11 and 12 would read rows 13, 14 and 15, "
        "past the last row, and read row 12"
    )
    assert texts(a)[1] == (
        "roll 2d6 on the 10-19 column: row 7 most likely, 1/6 (16.67%); rows 2 and 12 least, "
        "1/36 (2.78%) each"
    )
    b = CRT1.lookup(15, drm=-10)
    assert texts(b)[2] == "a DRM of -10 pushes every roll past the first row: all read row 1"
    assert b.dist.probabilities() == {"-": 1}


def test_bad_lookups_are_one_line_errors():
    with pytest.raises(WbkError, match="strength 0 is below the CRT's first column '1'"):
        CRT1.lookup(0)
    with pytest.raises(WbkError, match="column shift 'x' is not a whole number"):
        CRT1.lookup(5, shift="x")


def test_the_picture_differs_step_to_step_and_a_bad_step_is_refused():
    a = CRT1.lookup(12, shift=1, drm=1)
    pictures = [picture_bytes(a, step=k) for k in range(len(a.steps))]
    pictures.append(picture_bytes(a))
    assert len(set(pictures)) == len(pictures)
    with pytest.raises(WbkError, match="step 5 is not one of the answer's 5 steps"):
        picture(a, step=5)
    with pytest.raises(WbkError, match="step 'next' is not a whole number"):
        picture(a, step="next")
    figure = picture(a, step=-1)
    assert figure.axes[1].get_title().startswith("Step 5 of 5: 12 AF on the 20-29 column")
    legend = [t.get_text() for t in figure.axes[1].get_legend().get_texts()]
    assert legend == ["this step", "not this step (faded)"]
    whole = picture(a)
    assert whole.get_suptitle().startswith("Illustrative CRT (not the published table)\n12 AF")
    assert [t.get_text() for t in whole.axes[1].get_legend().get_texts()] == ["cells read"]


def title_fits(figure) -> bool:
    figure.draw_without_rendering()
    renderer = figure._get_renderer()
    inside = figure.bbox
    boxes = [ax.title.get_window_extent(renderer) for ax in figure.axes]
    if figure._suptitle is not None:
        boxes.append(figure._suptitle.get_window_extent(renderer))
    return all(b.x0 >= inside.x0 and b.x1 <= inside.x1 and b.y1 <= inside.y1 for b in boxes)


def test_the_longest_titles_fit():
    """The longest steps: a 2d6 table, a shift off the edge and a DRM pushing rolls past it."""
    for crt, strength, shift, drm in ((CRT2, 1000, -9, -3), (CRT2, 3, 9, 3), (CRT1, 45, 3, -3)):
        a = crt.lookup(strength, shift=shift, drm=drm)
        for k in (None, *range(len(a.steps))):
            assert title_fits(picture(a, step=k)), (strength, shift, drm, k)


def test_the_explorer_steps_through_its_lookup():
    explorer = panels.crt_explorer()
    control = explorer.step_control
    assert len(control.steps) == 3 and control.at_answer
    assert explorer.figure.get_suptitle().startswith("Illustrative CRT")
    explorer.controls["shift"].value = 1
    explorer.controls["drm"].value = 1
    assert len(control.steps) == 5 and control.index == 4  # a new answer starts at its verdict
    control.previous.click()
    table = explorer.figure.axes[1]
    assert table.get_title().startswith("Step 4 of 5: a DRM of +1: a roll of 1 reads row 2")
    assert explorer.figure.get_suptitle() == ""
    control.go(0)
    assert table is not explorer.figure.axes[1]  # drawn again
    assert explorer.figure.axes[1].get_title() == (  # the table's file on a line of its own
        f"Step 1 of 5: 15 AF reads the 10-19 column\n({SOURCE1})"
    )
    control.key("next")
    assert explorer.figure.axes[1].get_title().startswith("Step 2 of 5: a shift of +1")
    control.go(99)
    assert control.at_answer and "DRM +1" in explorer.figure.get_suptitle()
    assert steps_html(control.steps) in explorer.static_html()  # in the pane, listed once
    assert "Step by step" not in explorer.static_html()
    explorer.controls["strength"].value = "x"  # the old answer, out of date, at every step
    control.previous.click()
    assert "Out of date" in explorer.figure.get_suptitle()
    assert explorer.figure.axes[1].get_title().startswith("Step 4 of 5")


@pytest.mark.parametrize(
    ("name", "column", "read"),
    [
        ("9.67: 15 AF on the 10-19 column", "10-19", "10-19"),
        ("9.67: 15 AF with the Close Assault Bonus, 20-29 (shift +1)", "10-19", "20-29"),
        ("9.67: the defender's 3 DF fires first on the 4 column (shift +1)", "3", "4"),
    ],
)
def test_9_67_presets_give_the_seeds_columns(name, column, read):
    explorer = panels.crt_explorer()
    explorer.controls["table"].value = "illustrative_2d6"
    explorer.presets.menu.value = name
    lookup = explorer.compute(**{k: c.value for k, c in explorer.controls.items()})
    assert (lookup.column, lookup.read_column) == (column, read)
    assert explorer.controls["table"].value == "illustrative_1d6"
    assert f"rolls on the {column} column" in explorer.pane.value
    assert explorer.step_control.steps == lookup.steps


def test_every_worked_example_of_the_seed_is_a_preset_in_a_stalingrad_panel():
    """The supplement's one worked example (9.67: 15 AF on 10-19, 20-29 with the bonus, the
    defender's 3 DF first on 4) is the advisor's preset, and its lookups the explorer's."""
    assert "9.67: 15 AF against 3 DF" in panels.ADVISOR_PRESETS
    a = stalingrad.close_assault_bonus(
        [
            stalingrad.Unit("I", "German", "infantry", 10),
            stalingrad.Unit("E", "German", "engineer", 5),
        ],
        [stalingrad.Unit("D", "Soviet", "infantry", 3)],
        3,
    )
    assert (a.column, a.bonus_column, a.fire_column) == ("10-19", "20-29", "4")
    assert CRT1.lookup(3, shift=1).read_column == a.fire_column
    assert CRT1.lookup(15, shift=1).read_column == a.bonus_column


def test_a_strength_past_a_closed_last_column_reads_it_as_wbk_assumes():
    crt = stalingrad.Crt(
        "closed",
        "1d6",
        ("1-4", "5-9"),
        {roll: ("-", "P") for roll in range(1, 7)},
        {"-": "none", "P": "pin"},
    )
    a = crt.lookup(12)
    assert a.read_column == "5-9" and a.dist.probabilities() == {"P": 1}
    assert a.steps[0].text == "12 AF is past the last column, 5-9, and reads it"
    assert a.steps[0].rule == "wbk assumption"
    assert crt.lookup(7).steps[0].rule == "user data"
