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
    assert (
        panel.view.ax.get_title()
        == "1913 → 1716: 3 hexes, 0 hexsides crossed, 2 hexsides run along, 4 corners"
    )
    legend = [t.get_text() for t in panel.view.ax.get_legend().get_texts()]
    assert {
        "hexside run along",
        "corner passed through",
        "slope (hachures uphill)",
        "star hex",
    } <= set(legend)
    assert {"the line traced", "from", "to"} <= set(
        legend
    ) and "firer" not in legend  # a line, not a sight


@pytest.mark.parametrize(
    "bad, named", [("1999", "hex 1999 is off the map"), ("19x3", "'19x3' is not a hex label")]
)
def test_bad_label_gives_a_one_line_message(panel, bad, named):
    before = panel.pane.value
    panel.boxes["to"].value = bad
    assert named in panel.message.value
    assert "\n" not in panel.message.value
    # the last answer is marked out of date, and the map no longer shows it
    assert (
        panel.pane.value.startswith('<div style="opacity:0.45"><p><i>Out of date')
        and before in panel.pane.value
    )
    assert panel.view.ax.get_title() == "Out of date: fix the input above"
    assert len(panel.view.line.get_xdata()) == 0
    panel.boxes["to"].value = "2014"
    assert panel.message.value == ""
    assert "Out of date" not in panel.pane.value
    assert panel.view.ax.get_title() == "1913 → 2014: 2 hexes, 1 hexside crossed"


def test_clicks_alternate_between_the_ends(panel):
    def click(label):
        x, y = center(panel.map.hex(label))
        panel.on_click(SimpleNamespace(xdata=x + 0.2, ydata=y - 0.3))

    assert panel.click_sets.value == "from"
    click("1712")
    assert panel.boxes["from"].value == "1712" and panel.click_sets.value == "to"
    click("2014")
    assert panel.boxes["to"].value == "2014" and panel.click_sets.value == "from"
    assert "crosses hexside 1813/1913" in panel.pane.value
    panel.click_sets.value = "to"  # or choose the end the next click sets
    click("2113")
    assert (panel.boxes["from"].value, panel.boxes["to"].value) == ("1712", "2113")
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


def test_a_panel_not_yet_run_says_how_to_run_it(panel):
    bundle = panel._repr_mimebundle_()
    assert (
        bundle["text/plain"]
        == "An interactive panel: run the notebook (Run > Run All Cells) to use it."
    )
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_a_panel_saves_its_picture_and_its_edge_case(tmp_path):
    from wbk.widgets import load_edge_case
    from wbk.widgets.ss_panzer import LosPanel

    m = example_map("ss_panzer_errata_9_4")
    panel = LosPanel(m, "1712", "2214")
    panel.slope_hex.value, panel.slope_end.value = "hexsides_only", "touches"
    panel.save_picture(str(tmp_path / "edge.png"))
    assert "saved the picture to" in panel.message.value
    assert (tmp_path / "edge.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    panel.save_picture(str(tmp_path / "edge.svg"))
    svg = (tmp_path / "edge.svg").read_text()
    assert "<svg" in svg and svg.count("<path") > 100  # the map, not a blank page
    panel.save_picture(str(tmp_path / "edge.jpg"))
    assert "should end in .png or .svg" in panel.message.value
    panel.save_edge_case(str(tmp_path / "edge.png"))  # the picture's name, as TOML
    again = load_edge_case(tmp_path / "edge.toml")
    assert (again.slope_hex.value, again.slope_end.value) == ("hexsides_only", "touches")
    assert again.view.ax.get_title() == panel.view.ax.get_title() == "1712 → 2214: clear"
    again.save_picture(str(tmp_path / "again.png"))
    assert (tmp_path / "again.png").read_bytes() == (tmp_path / "edge.png").read_bytes()


@pytest.mark.parametrize(
    "text, named",
    [
        (
            "panel = 'os.system'\n[hexes]\n[settings]\n[map]\ntoml = ''",
            "'os.system' is not one of wbk's panels",
        ),
        ("panel = 'wbk.widgets.ss_panzer.LosPanel'\n[hexes]\n[settings]", "map: missing"),
    ],
)
def test_a_bad_edge_case_file_is_named(tmp_path, text, named):
    from wbk.errors import WbkError
    from wbk.widgets import load_edge_case

    (tmp_path / "case.toml").write_text(text)
    with pytest.raises(WbkError, match=named):
        load_edge_case(tmp_path / "case.toml")
