"""Stepping through an answer, comparing readings and worked examples on a panel (issue 19)."""

import pytest

from wbk.maps import example_map
from wbk.widgets import TracePanel

M = example_map("ss_panzer_errata_9_4")
ANSWER = "1912 → 2113, 2 hexes apart: the line passes through 3 hexes,\ncrossing 2 hexsides"


def title(panel: TracePanel) -> str:
    return panel.view.ax.get_title()


@pytest.fixture
def panel() -> TracePanel:
    return TracePanel(M, "1913", "1716")


def test_a_new_answer_starts_at_its_verdict_the_whole_answer(panel):
    control = panel.step_control
    assert len(control.steps) == 9 and control.index == 8 and control.at_answer
    assert control.label.value == "<b>step 9 of 9</b> (the answer)"
    assert control.next.disabled and not control.previous.disabled
    assert title(panel).startswith("1913 → 1716, 4 hexes apart")
    assert control.lines.index == 8
    assert control.lines.items[2] == (
        "runs along hexside 1814/1914 (the exact line between hex centres)"
    )


def test_previous_next_keys_and_a_click_on_a_line_step_the_picture(panel):
    control = panel.step_control
    control.previous.click()
    assert " ".join(title(panel).split()) == (
        "Step 8 of 9: passes through corner 1715/1716/1816 (the exact line between hex centres)"
    )
    assert control.lines.index == 7 and not control.next.disabled
    control.lines.index = 2  # a click on the third line
    assert control.index == 2 and title(panel).startswith("Step 3 of 9: runs along hexside")
    legend = [t.get_text() for t in panel.view.ax.get_legend().get_texts()]
    assert "this step's hexside" in legend and "not this step" in legend
    control.key("previous")
    control.key("previous")
    control.key("previous")  # stays at the first step
    assert control.index == 0 and control.previous.disabled
    control.key("next")
    assert control.index == 1
    control.next.click()
    control.go(99)  # past the end: the verdict, the whole answer again, unmarked
    assert control.at_answer and title(panel).startswith("1913 → 1716")
    legend = [t.get_text() for t in panel.view.ax.get_legend().get_texts()]
    assert "not this step" not in legend


def test_a_new_answer_lists_its_own_steps_and_shows_its_verdict(panel):
    panel.step_control.go(1)
    panel.boxes["from"].value = "1912"
    panel.boxes["to"].value = "2113"
    assert title(panel) == ANSWER
    assert panel.step_control.at_answer and len(panel.step_control.steps) == 5


def test_the_ghost_shows_where_the_rounded_float_line_parts(panel):
    panel.ghost.value = True
    assert "it passes 1914 and 1816 and misses no hex of it" in panel.pane.value
    assert len(panel.ghost_outlines.get_paths()) == 5  # distance 4: 5 points, 5 hexes
    legend = [t.get_text() for t in panel.view.ax.get_legend().get_texts()]
    assert "the rounded float line's hexes" in legend
    panel.boxes["to"].value = "1916"  # straight down a column: the two agree
    assert "passes the same hexes as the exact line" in panel.pane.value
    panel.ghost.value = False
    assert len(panel.ghost_outlines.get_paths()) == 0


def test_a_static_snapshot_lists_the_steps_once(panel):
    assert panel.static_html().count("runs along hexside 1814/1914") == 0  # the pane's words
    assert "along hexside 1814/1914" in panel.static_html()
    panel.pane_lists_steps = False
    assert "Step by step" in panel.static_html()
    assert "runs along hexside 1814/1914" in panel.static_html()


def test_compare_readings_says_when_the_readings_agree(panel):
    marked: list[object] = []
    differs = {"yes": True}

    def mark(other):
        marked.append(other)
        return differs["yes"]

    compare = panel.add_compare_readings(
        {"edge": {"both": "both sides block", "either": "either side blocks"}},
        mark,
        lambda: {"edge": "both"},
    )
    assert compare.widget in panel.widget.children
    compare.choice.value = ("edge", "either")
    assert marked[-1] == {"edge": "either"} and compare.note.value == ""
    differs["yes"] = False
    compare.refresh()
    assert compare.note.value == "<b>the readings agree here</b>"
    compare.choice.value = ("edge", "both")
    assert marked[-1] is None and "the reading on show" in compare.note.value
    compare.choice.value = None
    assert marked[-1] is None and compare.note.value == ""


def test_a_worked_example_is_one_click_away(panel):
    presets = panel.add_presets(
        {"the line from 1912 to 2113": {"from": "1912", "to": "2113"}, "bad": {"nothing": 1}}
    )
    assert panel.widget.children[0] is presets.widget
    presets.menu.value = "the line from 1912 to 2113"
    assert title(panel) == ANSWER
    presets.menu.value = "bad"
    assert panel.message.value.endswith("worked example: the panel has no control 'nothing'</span>")


def test_a_worked_example_is_no_longer_named_once_the_reader_changes_what_it_set(panel):
    presets = panel.add_presets({"the line from 1912 to 2113": {"from": "1912", "to": "2113"}})
    presets.menu.value = "the line from 1912 to 2113"
    panel.boxes["to"].value = "2113"  # the example's own value: still the example
    assert presets.menu.value == "the line from 1912 to 2113"
    panel.boxes["to"].value = "2014"  # typed or clicked: the menu no longer claims it
    assert presets.menu.value == presets.CHOOSE
    assert title(panel).startswith("1912 → 2014")


def test_the_ghost_lies_under_the_hex_labels_and_its_swatch_is_dashed(panel):
    from wbk.draw.maps import Z_LABELS
    from wbk.draw.view import legend_handle

    panel.ghost.value = True
    assert panel.ghost_outlines.get_zorder() < Z_LABELS
    swatch = legend_handle(panel.ghost_outlines)
    assert swatch.get_linestyle() not in ("-", "solid")


def test_compare_readings_starts_off_with_its_off_choice_shown(panel):
    compare = panel.add_compare_readings(
        {"edge": {"both": "both sides block", "either": "either side blocks"}},
        lambda other: False,
        lambda: {"edge": "both"},
    )
    assert compare.choice.label == compare.OFF  # a blank box reads as a broken control


def test_compare_readings_names_a_reading_in_words_never_its_keyword(panel):
    compare = panel.add_compare_readings(
        {
            "edge": {"both": "both sides block", "either": "either side blocks"},
            "slope_end": {"touches": "touching its end blocks"},
        },
        lambda other: False,
        lambda: {"edge": "both"},
        questions={"edge": "a line along a hexside"},
    )
    assert [label for label, _ in compare.choice.options] == [
        compare.OFF,
        "a line along a hexside: both sides block",
        "a line along a hexside: either side blocks",
        "slope end: touching its end blocks",  # no question given: its keyword in words
    ]


def test_a_static_snapshot_leaves_out_the_live_only_controls(panel):
    panel.add_compare_readings(
        {"edge": {"both": "both sides block", "either": "either side blocks"}},
        lambda other: False,
        lambda: {"edge": "both"},
    )
    panel.add_presets({"the line from 1912 to 2113": {"from": "1912", "to": "2113"}})
    snapshot = panel.static_html()
    assert "compare with" not in snapshot and "worked example" not in snapshot
    assert "from: 1913" in snapshot


def test_every_step_is_listed_whole_in_a_list_that_wraps(panel):
    """Issues 30 and 40: a long step was cut off at the right of a list box; the steps are a
    numbered list whose lines wrap, each step whole with its rule."""
    control = panel.step_control
    assert control.lines.items == [f"{s.text} ({s.rule})" for s in control.steps]
    assert "white-space: normal" in control.lines._css and "<ol" not in control.lines.items[0]
