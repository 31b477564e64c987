from types import SimpleNamespace

import pytest

from wbk.draw.maps import center
from wbk.maps import example_map
from wbk.widgets import TracePanel

TO_2014 = "1913 → 2014, 1 hex apart: the line passes through 2 hexes,\ncrossing 1 hexside"


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
        == "1913 → 1716, 4 hexes apart: the line passes through 3 hexes,\n"
        "crossing 0 hexsides, running along 2, through 4 corners"
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
    assert panel.view.ax.get_title() == 'Out of date: fix "to" above'
    assert len(panel.view.line.get_xdata()) == 0
    panel.boxes["to"].value = "2014"
    assert panel.message.value == ""
    assert "Out of date" not in panel.pane.value
    assert panel.view.ax.get_title() == TO_2014


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


def test_out_of_date_exactly_while_an_input_is_bad_naming_each(panel):
    panel.boxes["from"].value = "1999"
    panel.boxes["to"].value = "19x3"
    assert panel.is_out_of_date and list(panel.bad_inputs) == ["from", "to"]
    assert "from: hex 1999 is off the map" in panel.message.value
    assert "to: '19x3' is not a hex label" in panel.message.value
    assert 'Out of date while "from" and "to" are bad' in panel.pane.value
    assert panel.view.ax.get_title() == 'Out of date: fix "from" and "to" above'
    panel.boxes["from"].value = "1913"  # one fixed: still out of date, naming the other
    assert panel.is_out_of_date and list(panel.bad_inputs) == ["to"]
    assert "1999" not in panel.message.value and "19x3" in panel.message.value
    assert 'Out of date while "to" is bad' in panel.pane.value
    assert panel.view.ax.get_title() == 'Out of date: fix "to" above'
    panel.boxes["to"].value = "1716"  # both fixed: the answer is back
    assert not panel.is_out_of_date and panel.message.value == ""
    assert "Out of date" not in panel.pane.value and "along hexside 1715/1816" in panel.pane.value
    assert panel.view.ax.get_title().startswith("1913 → 1716, 4 hexes apart")


def test_a_named_input_checked_on_its_own_clears_and_brings_the_answer_back(panel):
    """The base class's mechanism, as a chapter panel uses it for an input its update does
    not read (a size typed for the next click, say)."""
    from wbk.errors import WbkError
    from wbk.widgets import reports_errors

    class Sized(TracePanel):
        size = "6 x 4"

        @reports_errors(input="size")
        def check_size(self) -> None:
            if "x" not in self.size:
                raise WbkError(f"size {self.size!r} is not width x depth")

    sized = Sized(panel.map, "1913", "1716")
    title = sized.view.ax.get_title()
    sized.size = "6"
    sized.check_size()
    assert sized.message.value.endswith("size: size '6' is not width x depth</span>")
    assert sized.view.ax.get_title() == 'Out of date: fix "size" above'
    sized.boxes["to"].value = "2014"  # another input changed: still out of date, still named
    assert sized.view.ax.get_title() == 'Out of date: fix "size" above'
    assert "size" in sized.message.value
    sized.size = "6 x 4"
    sized.check_size()
    assert sized.message.value == "" and not sized.is_out_of_date
    assert sized.view.ax.get_title() == TO_2014 != title
    sized.set_bad("size", "size is bad")  # the same, by hand
    assert sized.is_out_of_date and "size is bad" in sized.message.value
    sized.clear_bad("size")
    assert not sized.is_out_of_date and "Out of date" not in sized.pane.value


def test_the_message_line_holds_one_message_and_keeps_its_height(panel, tmp_path):
    assert panel.message.layout.min_height == "28px"  # reserved: a message never moves the map
    panel.show_done("selected 1913")
    panel.boxes["to"].value = "1999"  # a new error replaces the old success message
    assert "selected" not in panel.message.value and "1999" in panel.message.value
    panel.show_message("that click is off the map")  # a passing error beside the bad input
    assert panel.message.value.count("<span") == 2 and "; <span" in panel.message.value


def test_a_save_is_said_beside_its_buttons_and_a_refusal_replaces_the_saved_line(panel, tmp_path):
    """Issue 30: the outcome of a save is said beside the Save buttons (under the picture), not
    in the message line above the map; "saving…" while it works; an error replaces "saved"."""
    seen = []
    panel.save_line.observe(lambda change: seen.append(change["new"]), names="value")
    panel.save_picture(str(tmp_path / "a.png"))
    assert seen == ["saving…", f"saved the picture to {tmp_path / 'a.png'}"]
    assert panel.save_line in panel.picture_row.children and panel.message.value == ""
    panel.save_edge_case(str(tmp_path / "a.png"))
    assert panel.save_line.value == f"saved the edge case to {tmp_path / 'a.toml'}"
    panel.save_picture(str(tmp_path / "b.jpg"))
    assert "saved" not in panel.save_line.value
    assert "should end in .png or .svg" in panel.save_line.value
    assert panel.save_line.value.startswith('<span style="color:#b03a2e">')
    assert panel.message.value == ""  # the answer is not out of date for a refused save


def test_saving_refuses_a_folder_that_does_not_exist(panel, tmp_path):
    for save in (panel.save_picture, panel.save_edge_case):
        save(str(tmp_path / "nonexistent" / "dir" / "x.png"))
        assert f"there is no folder {tmp_path / 'nonexistent' / 'dir'}" in panel.save_line.value
        assert "\n" not in panel.save_line.value
    assert not (tmp_path / "nonexistent").exists()


def test_a_static_snapshot_says_yes_and_no_and_shows_no_paths():
    import ipywidgets as widgets

    from wbk.widgets import ChartPanel

    chart = ChartPanel(
        lambda **values: values,
        lambda figure, values: "",
        hq=widgets.ToggleButton(False, description="HQ"),
        shaken=widgets.Checkbox(True, description="shaken"),
        file=widgets.Text("/root/pz8_table.toml", description="file"),
        other=widgets.Text("~/wbk-maps/x.toml", description="map file"),
        name=widgets.Text("Tiger", description="tank name"),
    )
    assert chart.controls_text() == ["HQ: no", "shaken: yes", "tank name: Tiger"]
    assert "/root" not in chart.static_html() and "False" not in chart.static_html()


def test_a_snapshots_picture_says_its_answer_on_one_line(panel):
    assert (
        'alt="1913 → 1716, 4 hexes apart: the line passes through 3 hexes, crossing 0 hexsides, '
        'running along 2, through 4 corners"'
    ) in panel.static_html()


def test_a_saved_picture_names_the_rule_and_the_settings_unlike_the_defaults():
    trace_panel = TracePanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")
    assert trace_panel.caption() == f"Rule: {TracePanel.rule}. All settings at their defaults."
    trace_panel.ghost.value = True
    assert "ghost: the rounded float line: yes" in trace_panel.caption()


def test_a_picture_carries_its_edge_case_and_reopens_to_the_identical_picture(tmp_path):
    from PIL import Image

    from wbk.draw.pictures import EDGE_CASE_KEY
    from wbk.widgets import load_edge_case

    panel = TracePanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")
    panel.ghost.value = True
    panel.save_picture(str(tmp_path / "trace.png"))
    with Image.open(tmp_path / "trace.png") as image:
        image.load()
        assert image.text[EDGE_CASE_KEY] == panel.edge_case()
    reopened = load_edge_case(tmp_path / "trace.png")
    assert isinstance(reopened, TracePanel) and reopened.boxes["to"].value == "1716"
    assert reopened.ghost.value
    reopened.save_picture(str(tmp_path / "again.png"))
    assert (tmp_path / "again.png").read_bytes() == (tmp_path / "trace.png").read_bytes()


@pytest.mark.parametrize(
    "content, named",
    [
        (None, "the picture holds no edge case"),
        (b"not a picture", "not a PNG picture"),
    ],
)
def test_a_picture_without_an_edge_case_is_named(tmp_path, content, named):
    from matplotlib.figure import Figure

    from wbk.errors import WbkError
    from wbk.widgets import load_edge_case

    path = tmp_path / "plain.png"
    if content is None:
        Figure().savefig(path)
    else:
        path.write_bytes(content)
    with pytest.raises(WbkError, match=named):
        load_edge_case(path)


@pytest.mark.parametrize(
    "text, named",
    [
        (
            "panel = 'os.system'\n[hexes]\n[settings]\n[map]\ntoml = ''",
            "'os.system' is not one of wbk's panels",
        ),
        ("panel = 'wbk.TracePanel'\n[hexes]\n[settings]", r"\[map\]: missing"),
    ],
)
def test_a_bad_edge_case_file_is_named(tmp_path, text, named):
    from wbk.errors import WbkError
    from wbk.widgets import load_edge_case

    (tmp_path / "case.toml").write_text(text)
    with pytest.raises(WbkError, match=named):
        load_edge_case(tmp_path / "case.toml")


def test_a_chart_made_by_a_marked_function_reopens_from_its_picture(tmp_path, monkeypatch):
    import ipywidgets as widgets

    import wbk.widgets as module
    from wbk.dice import d6
    from wbk.errors import WbkError
    from wbk.widgets import DistPanel, chart_edge_cases, load_edge_case

    def hits() -> DistPanel:
        return DistPanel(
            lambda dice, need: dice @ (d6 >= need),
            dice=widgets.IntSlider(3, 1, 12, description="dice"),
            need=widgets.Dropdown(options=[4, 5, 6], value=5, description="hits on"),
        )

    hits.__module__, hits.__qualname__ = module.__name__, "hits"
    monkeypatch.setattr(module, "hits", chart_edge_cases(hits), raising=False)
    monkeypatch.setattr(module, "unmarked", hits, raising=False)
    chart = module.hits()
    chart.controls["dice"].value, chart.controls["need"].value = 7, 6
    chart.save_picture(str(tmp_path / "hits.png"))
    assert chart.caption() == "Settings unlike the defaults: dice: 7; hits on: 6."
    again = load_edge_case(tmp_path / "hits.png")
    assert (again.controls["dice"].value, again.controls["need"].value) == (7, 6)
    again.save_picture(str(tmp_path / "again.png"))
    assert (tmp_path / "again.png").read_bytes() == (tmp_path / "hits.png").read_bytes()
    # a function not marked is never called by load_edge_case
    text = tmp_path / "case.toml"
    text.write_text("panel = 'wbk.unmarked'\n[settings]\n")
    with pytest.raises(WbkError, match="is not one of wbk's panels"):
        load_edge_case(text)


def test_a_trace_reaches_no_verdict_so_its_saved_picture_gives_no_reason(panel):
    """A panel's saved picture says why as ``picture`` does: a trace is no answer to a rule's
    question, and neither its picture nor its panel's adds a "Why:" line."""
    from test_pictures import saved_says

    from wbk.draw import picture
    from wbk.hexgrid import trace

    assert saved_says(panel) == ("", "")
    whole = picture(trace(panel.map.hex("1913"), panel.map.hex("1716")), map=panel.map)
    assert not [text for text in whole.texts if text.get_gid()]
