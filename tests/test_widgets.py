from types import SimpleNamespace

import pytest

from wbk.maps import example_map
from wbk.plot import center
from wbk.widgets import TracePanel


@pytest.fixture
def panel() -> TracePanel:
    m = example_map("ss_panzer_errata_9_4")
    return TracePanel(m, "1913", "1716")


def test_panel_lists_the_trace(panel):
    assert panel.message.value == ""
    assert "along hexside 1715/1816" in panel.pane.value
    assert len(panel.view.corner_marks.get_xdata()) == 4


@pytest.mark.parametrize("bad, named", [("1999", "hex 1999 is off the map"), ("19x3", "'19x3' is not a hex label")])
def test_bad_label_gives_a_one_line_message(panel, bad, named):
    before = panel.pane.value
    panel.boxes["to"].value = bad
    assert named in panel.message.value
    assert "\n" not in panel.message.value
    assert panel.pane.value == before  # the last good trace stays on show
    panel.boxes["to"].value = "2014"
    assert panel.message.value == ""


def test_click_sets_the_chosen_end(panel):
    x, y = center(panel.map.hex("1712"))
    panel.boxes["to"].value = "2014"
    panel.click_sets.value = "from"
    panel.on_click(SimpleNamespace(xdata=x + 0.2, ydata=y - 0.3))
    assert panel.boxes["from"].value == "1712"
    assert "crosses hexside 1813/1913" in panel.pane.value
    panel.on_click(SimpleNamespace(xdata=None, ydata=None))
    assert panel.message.value.endswith("that click is off the map</span>")


def test_dist_panel_reports_bad_input_in_one_line():
    import ipywidgets as widgets

    from wbk.dice import d6
    from wbk.widgets import DistPanel

    panel = DistPanel(lambda dice, need: dice @ (d6 >= need), dice=widgets.IntText(4), need=(2, 6))
    assert panel.pane.value.count("<tr>") == 6  # header and 0-4 hits
    panel.controls["dice"].value = -1
    assert "number of dice -1 is negative" in panel.message.value
    assert panel.pane.value.count("<tr>") == 6
    panel.controls["dice"].value = 2
    assert panel.message.value == ""
    assert [round(b.get_height(), 4) for b in panel.figure.axes[0].patches] == [0.25, 0.5, 0.25]
