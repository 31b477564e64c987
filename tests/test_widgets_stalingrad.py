import html
import io
import itertools
from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace

import ipywidgets as widgets
import pytest
from matplotlib.figure import Figure

from wbk.dice import Dist, chance, percent
from wbk.draw import picture, picture_bytes
from wbk.draw.maps import center
from wbk.errors import WbkError
from wbk.explain import count
from wbk.games import stalingrad
from wbk.games.stalingrad import Situation, Unit, draw, example_crt, example_situation, panels
from wbk.games.stalingrad.close_assault import NO_ATTACK, column_order
from wbk.maps import HexMap
from wbk.widgets import ERROR_COLOUR

SHIPPED_2D6 = example_crt("illustrative_2d6")
NO_DIFFERENCE = '<i style="white-space: nowrap">makes no difference here</i>'


def click(panel, label):
    panel.on_click(
        SimpleNamespace(
            xdata=center(panel.map.hex(label))[0], ydata=center(panel.map.hex(label))[1]
        )
    )


def legend(view) -> list[str]:
    return [t.get_text() for t in view.ax.get_legend().get_texts()]


def suptitle(panel) -> str:
    return panel.figure._suptitle.get_text()


def crt_file(tmp_path, text: str, name: str = "mine.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


MY_CRT = """name = "My 2d6 table"
die = "2d6"
columns = ["1-4", "5-9", "10+"]
[results]
2 = ["-", "-", "P"]
3 = ["-", "-", "P"]
4 = ["-", "-", "P"]
5 = ["-", "P", "P"]
6 = ["-", "P", "P"]
7 = ["P", "P", "K"]
8 = ["P", "P", "K"]
9 = ["P", "K", "K"]
10 = ["P", "K", "K"]
11 = ["K", "K", "K"]
12 = ["K", "K", "K"]
[effects]
"-" = "none"
"P" = "pin"
"K" = "eliminate 1, pin"
"""


def test_numbers_as_a_wargamer_says_them():
    assert percent(Fraction(1, 3)) == "33.33%"
    assert percent(Fraction(1, 36)) == "2.78%"
    assert percent(Fraction(1, 10**5)) == "<0.01%"
    assert percent(1 - Fraction(1, 10**5)) == ">99.99%"
    assert percent(0) == "0%" and percent(1) == "100%"
    assert chance(Fraction(7, 12)) == "7/12 (58.33%)"
    assert count(1, "hex", "hexes") == "1 hex" and count(2, "hex", "hexes") == "2 hexes"


def test_crt_explorer_title_says_what_a_shift_and_a_drm_do():
    panel = panels.crt_explorer()
    assert suptitle(panel) == (
        "Illustrative CRT (not the published table)\n"
        "15 AF on 10-19: pin or worse 83.33%, a unit lost 50.00%"
    )
    ax = panel.figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()][5] == "10-19  (15 AF)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "no effect (-)",
        "P: pin",
        "1: eliminate 1",
        "2: eliminate 2",
        "3: eliminate 3",
    ]
    panel.controls["shift"].value = 1
    assert " ".join(suptitle(panel).split()).endswith(  # wrapped to the picture's width
        "15 AF, 1 column right (10-19 → 20-29): pin or worse 83.33% → 100%, "
        "a unit lost 50.00% → 66.67%"
    )
    assert next(t.get_text() for t in panel.figure.axes[0].get_yticklabels()) == "1 → 2"
    panel.controls["drm"].value = 1
    assert "and DRM +1: pin or worse 83.33% → 100%, a unit lost 50.00% → 83.33%" in " ".join(
        suptitle(panel).split()
    )
    assert "not the published table" in panel.pane.value and "20-29, DRM +1" in panel.pane.value
    panel.controls["strength"].value = "0"
    assert "strength 0 is below the CRT's first column '1'" in panel.message.value
    assert "Out of date" in panel.pane.value and "Out of date" in suptitle(panel)
    panel.controls["strength"].value = "4"
    assert panel.message.value == "" and "4 AF, 1 column right (4 → 5-9)" in suptitle(panel)


def test_crt_explorer_reads_the_2d6_table_and_a_file(tmp_path):
    panel = panels.crt_explorer()
    panel.controls["table"].value = "illustrative_2d6"
    assert suptitle(panel).startswith(
        "Illustrative 2d6 CRT (not the published table)\n15 AF on 10-19"
    )
    assert "1P: eliminate 1, pin" in legend_texts(panel)
    panel.controls["table"].value = panels.FROM_FILE
    assert "CRT file is blank" in panel.message.value
    panel.controls["file"].value = crt_file(tmp_path, MY_CRT)
    assert panel.message.value == ""
    assert suptitle(panel) == "My 2d6 table\n15 AF on 10+: pin or worse 100%, a unit lost 58.33%"
    bad = crt_file(tmp_path, MY_CRT.replace('"K" = "eliminate 1, pin"', '"K" = "kill"'), "bad.toml")
    panel.controls["file"].value = bad
    shown = panel.message.value
    assert "bad.toml: [effects] K: 'kill': unknown effect 'kill'" in shown
    assert "Traceback" not in shown and "\n" not in shown
    panel.controls["file"].value = str(tmp_path / "nowhere.toml")
    assert "nowhere.toml: cannot read the CRT" in panel.message.value


def legend_texts(panel) -> list[str]:
    return [t.get_text() for t in panel.figure.axes[0].get_legend().get_texts()]


def test_advisor_shows_both_distributions_and_the_verdict():
    panel = panels.assault_advisor()
    assert suptitle(panel).startswith(
        "Do not use the Close Assault Bonus: the defender loses 0.50 → 0.58"
    )
    assert suptitle(panel).endswith("on the Illustrative CRT (not the published table)")
    left, right = panel.figure.axes
    assert left.get_title() == "defending units eliminated"
    assert right.get_title() == "attacking units lost to the defender's fire"
    labels = [t.get_text() for t in panel.figure.legends[0].get_texts()]
    assert labels == ["without the bonus", "with the Close Assault Bonus"]
    # defending units lost: 0 or 1, without (1/2, 1/2) and with the bonus (5/12, 7/12)
    assert [t.get_text() for t in left.texts] == ["50.00%", "50.00%", "41.67%", "58.33%"]
    assert [t.get_text() for t in right.texts] == ["100%", "", "83.33%", "16.67%"]
    pane = html.unescape(panel.pane.value)
    assert "<tr><th>1 lost (engineer 4)</th><td>1/6 (16.67%)</td></tr>" in pane
    assert "the defender's 3 DF fires first, one column higher: 4" in pane
    assert "<tr><th>P: pin</th><td>1/3 (33.33%)</td><td>1/3 (33.33%)</td></tr>" in pane


@pytest.mark.parametrize(
    "control, value, message",
    [
        (
            "attack",
            "cavalry 3",
            "'cavalry 3' in the attack: 'cavalry' is not one of infantry, engineer, tank, gun",
        ),
        ("attack", "infantry", "'infantry' in the attack: give the unit's AF after its kind"),
        ("attack", "infantry 6 tired", "'tired' is not one of pinned, spent, away"),
        ("attack", " , ", "the attack is blank"),
        ("defence_df", "three", "defence DF 'three' is not a whole number"),
        ("defence_df", "-1", "defence DF: -1 is not a whole number from 0 to 1000000"),
    ],
)
def test_advisor_names_bad_input_in_one_line(control, value, message):
    panel = panels.assault_advisor()
    panel.controls[control].value = value
    assert message in panel.message.value and "Traceback" not in panel.message.value
    assert "Out of date" in panel.pane.value


def test_advisor_readings_and_kinds_in_any_case(tmp_path):
    panel = panels.assault_advisor()
    panel.controls["attack"].value = "TANK 15"
    assert suptitle(panel).startswith("No Close Assault Bonus here")
    assert len(panel.figure.legends[0].get_texts()) == 1
    panel.controls["attack"].value = "Infantry 6 away, engineer 4 pinned, tank 5"
    assert suptitle(panel).startswith("No Close Assault Bonus here")
    panel.controls["attack"].value = "infantry 6, engineer 4, tank 5"
    panel.controls["pinned_attack"].value = "drops_out"
    assert "pinned attackers add no AF" not in panel.pane.value  # none pinned before the fire
    assert "no attack" in panel.pane.value  # a pin from the first fire leaves no attack
    panel.controls["table"].value = panels.FROM_FILE
    panel.controls["file"].value = crt_file(tmp_path, MY_CRT)
    assert suptitle(panel).endswith("on the My 2d6 table [pinned attackers drop out]")
    panel.controls["file"].value = crt_file(
        tmp_path, MY_CRT.replace('5 = ["-", "P", "P"]', '5 = ["-", "P"]'), "short.toml"
    )
    assert "short.toml: [results] 5: ['-', 'P'] has 2 results for 3 columns" in panel.message.value
    assert "Out of date" in suptitle(panel)


def test_retreat_planner_answers_in_its_title_and_legend():
    planner = panels.RetreatPlanner()
    view = planner.view
    assert (
        view.ax.get_title() == '"P" in clear 1313: 2 of 3 units eliminated (Bunker 7, 2/42 Rifle)\n'
        "1/42 Rifle retreats to 1414"
    )
    assert {
        "balka",
        "city",
        "suburb",
        "German units (short names)",
        "Soviet units (short names)",
        "eliminated",
        "being attacked",
        "being bombarded",
        "legal retreat hex (9.87)",
        "enemy ZOC (6.0): closed",
        "defending hex",
        "retreat chosen",
    } == set(legend(view))
    assert "1 hex open for the retreat: 1414." in planner.pane.value
    # a static page shows the answer's controls, not what the next click would do
    assert planner.controls_text() == [
        "defending hex: 1313",
        "stacking limit: 3",
        "retreat into: any hexes (units may split)",
        "ZOC of pinned units: still exerted",
        "to stay, give up: another unit",
        "minefields, bridges: count toward the stacking limit",
    ]  # "compare with" is live-only: it means nothing on a static page
    assert "<th>2/42 Rifle</th><td>1414</td><td>eliminated</td>" in planner.pane.value
    planner.stacking.value = 5
    assert view.ax.get_title().startswith('"P" in clear 1313: 1 of 3 units eliminated (Bunker 7)')


def test_retreat_planner_clicks_place_units_mark_hexes_and_pick_the_defenders():
    planner = panels.RetreatPlanner(example_situation("one_way_out"))
    assert (
        planner.view.ax.get_title()
        == '"P" in clear 1313: no unit eliminated: 1/42 Rifle retreats to 1314'
    )
    # the ZOC that closes four of the six hexes is hatched; the retreat is an arrow
    zoc = {planner.map.label(h) for h in planner.overlay.zoc_hexes}
    assert {"1213", "1214", "1312", "1413"} <= zoc and "1314" not in zoc
    assert len(planner.overlay.arrows) == 1
    planner.click.value = "attacked"
    click(planner, "1314")
    assert planner.view.ax.get_title() == '"P" in clear 1313: the unit eliminated (1/42 Rifle)'
    assert "0 hexes open for the retreat: none." in planner.pane.value
    click(planner, "1314")  # a second click takes the mark off
    planner.click.value = "place"
    planner.side.value, planner.kind.value = "German", "engineer"
    click(planner, "1514")
    assert planner.situation.units[planner.map.hex("1514")][0].name == "German engineer 1"
    assert "1414: in the ZOC of German engineer 1; being bombarded: no" in planner.pane.value
    planner.side.value, planner.kind.value, planner.unit_name.value = (
        "Soviet",
        "infantry",
        "2/42 Rifle",
    )
    click(planner, "1313")
    assert planner.view.ax.get_title().startswith('"P" in clear 1313: no unit eliminated')
    click(planner, "1313")
    assert "unit name '2/42 Rifle' is taken" in planner.message.value
    assert planner.view.ax.get_title() == "Out of date: fix the input above"
    planner.click.value = "clear"
    click(planner, "1514")
    assert planner.message.value == "" and planner.map.hex("1514") not in planner.situation.units
    planner.click.value = "target"
    click(planner, "1412")
    assert planner.boxes["defending hex"].value == "1412"
    assert planner.view.ax.get_title().startswith('"P" in clear 1412: ')
    click(planner, "1411")
    assert "hex 1411 has no defending units" in planner.message.value
    planner.on_click(SimpleNamespace(xdata=None, ydata=None))
    assert "that click is off the map" in planner.message.value
    planner.boxes["defending hex"].value = "13x3"
    assert "'13x3' is not a hex label" in planner.message.value


def test_retreat_planner_balka_and_other_terrain():
    planner = panels.RetreatPlanner(example_situation("balka_stay_or_go"))
    assert planner.view.ax.get_title() == (
        '"P" in balka 1215: stay: it costs 1 unit, a retreat 2\n'
        "retreating loses 2/13 Gds, Mortars/13; staying gives up Mortars/13"
    )
    planner.click.value = "place"
    click(planner, "1411")
    planner.click.value = "target"
    click(planner, "1411")
    assert planner.view.ax.get_title().startswith(
        '"P" in city 1411: the units are only pinned, no retreat'
    )


def test_retreat_planner_saves_and_loads(tmp_path):
    planner = panels.RetreatPlanner()
    assert planner.file.path.value.startswith("~/wbk-situations/")  # short enough to read whole
    assert "notebooks" not in planner.file.path.value
    planner.file.path.value = str(tmp_path / "new" / "s.toml")
    planner.click.value = "bombarded"
    click(planner, "1314")
    planner.save()  # a folder typed is never made: only ~/wbk-situations is
    assert f"there is no folder {tmp_path / 'new'}" in planner.file.note.value
    assert not (tmp_path / "new").exists()
    (tmp_path / "new").mkdir()
    planner.save()
    assert "saved '9.87: a retreat from a clear hex' (7 units) to" in planner.file.note.value
    assert Situation.load(tmp_path / "new" / "s.toml") == planner.situation
    other = tmp_path / "rule_9_89.toml"
    example_situation("rule_9_89").save(other)
    planner.file.path.value = str(other)
    planner.load()
    assert "loaded '9.89: a minefield" in planner.message.value
    assert ERROR_COLOUR not in planner.message.value  # a success, not an error
    assert planner.view.ax.get_title().endswith("untouched (9.89): Minefield 3")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        other.read_text(encoding="utf-8").replace('kind = "minefield"', 'kind = "mines"'),
        encoding="utf-8",
    )
    planner.file.path.value = str(bad)
    planner.load()
    assert (
        f"{bad}: [units] 1313: unit 'Minefield 3': kind: 'mines' is not one of"
        in planner.message.value
    )
    # a file that fails to load leaves the answer on show as it was, not out of date
    assert planner.view.ax.get_title().endswith("untouched (9.89): Minefield 3")
    planner.file.path.value = str(tmp_path / "missing.toml")
    planner.load()
    assert "cannot read the situation" in planner.message.value
    assert planner.view.ax.get_title().endswith("untouched (9.89): Minefield 3")
    planner.file.path.value = str(tmp_path / "s.txt")
    planner.save()
    assert "file name 's.txt' should end in .toml" in planner.file.note.value
    small = HexMap("small", (1, 5), (1, 5))
    units = {"0303": [Unit("A", "Soviet", "infantry", 2)], "0302": [Unit("B", "German", "tank", 4)]}
    Situation("smaller map", small, units, target="0303").save(tmp_path / "small.toml")
    planner.file.path.value = str(tmp_path / "small.toml")
    planner.load()
    assert ERROR_COLOUR not in planner.message.value
    assert planner.map == small and len(planner.view.hexes) == 25
    assert planner.view.ax.get_title().startswith(
        '"P" in clear 0303: no unit eliminated: A retreats to 0404'
    )
    planner.click.value = "target"
    click(planner, "0302")
    assert planner.boxes["defending hex"].value == "0302"


def test_retreat_planner_saves_its_picture_and_its_edge_case(tmp_path):
    planner = panels.RetreatPlanner(example_situation("shared_hex"))
    planner.click.value = "bombarded"
    click(planner, "1213")
    planner.save_picture(str(tmp_path / "case.png"))
    assert (tmp_path / "case.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    planner.save_edge_case(str(tmp_path / "case.png"))
    assert "saved the edge case to" in planner.save_line.value
    from wbk.widgets import load_edge_case

    again = load_edge_case(tmp_path / "case.toml")
    assert again.situation == planner.situation
    assert again.view.ax.get_title() == planner.view.ax.get_title()
    assert legend(again.view) == legend(planner.view)
    # a failed load changes no answer: the picture on show stays as it was
    title = planner.view.ax.get_title()
    planner.file.path.value = str(tmp_path / "missing.toml")
    planner.load()
    assert "missing.toml: cannot read the situation" in planner.message.value
    assert planner.view.ax.get_title() == title and "Out of date" not in planner.pane.value


def test_a_planner_edge_case_reloads_to_the_same_picture(tmp_path):
    from wbk.widgets import load_edge_case

    planner = panels.RetreatPlanner(example_situation("one_way_out"))
    planner.save_edge_case(str(tmp_path / "case.png"))
    planner.save_picture(str(tmp_path / "before.png"))
    again = load_edge_case(tmp_path / "case.toml")
    again.save_picture(str(tmp_path / "after.png"))
    assert again.view.ax.get_title() == planner.view.ax.get_title()
    assert (tmp_path / "after.png").read_bytes() == (tmp_path / "before.png").read_bytes()
    again.file.path.value = str(tmp_path / "case.toml")  # the planner's own Load reads it too
    again.load()
    assert again.message.value.startswith("<span>loaded ")  # no error


@pytest.mark.parametrize("typed", ["2.5", "-1", "", "2,5", "٣"])
def test_retreat_planner_names_a_bad_strength(typed):
    planner = panels.RetreatPlanner()
    units = sum(len(here) for here in planner.situation.units.values())
    planner.strength.value = typed
    said = f"strength: {typed!r} is not a whole number of 0 or more"
    assert said in planner.message.value and "<br" not in planner.message.value
    assert "strength: strength" not in planner.message.value  # the box named once
    planner.click.value = "place"
    click(planner, "1010")  # nothing placed, never a strength of 25 for "2.5"
    assert said in planner.message.value
    assert sum(len(here) for here in planner.situation.units.values()) == units
    planner.strength.value = "2"
    assert planner.message.value == ""
    click(planner, "1010")
    placed = planner.situation.units[planner.map.hex("1010")]
    assert [u.strength for u in placed] == [2]


def test_retreat_planner_drops_the_note_once_edits_change_the_situation():
    planner = panels.RetreatPlanner(example_situation("one_way_out"))
    note = planner.situation.note
    assert note and html.escape(note) in planner.pane.value
    planner.click.value = "bombarded"
    click(planner, "1414")  # the one way out is now open too: the note would be false
    assert planner.situation.note == "" and html.escape(note) not in planner.pane.value
    assert "The note the situation came with was dropped" in planner.pane.value
    again = panels.RetreatPlanner(example_situation("one_way_out"))
    again.stacking.value = 1
    assert again.situation.note == "" and "was dropped" in again.pane.value


def test_retreat_planner_prints_each_unit_s_short_name_over_everything():
    planner = panels.RetreatPlanner(example_situation("rule_9_89"))
    texts = {t.get_text(): t for t in planner.overlay.labels}
    assert set(texts) == {"Minefield 3", "✗ Bunker 7", "✗ T-34/84 Tk", "1/42 Rifle", "Pz III/24"}
    arrows = max(a.get_zorder() for a in planner.overlay.arrows)
    assert all(t.get_zorder() > max(arrows, 9) for t in texts.values())  # 9: the hex numbers
    assert draw.unit_label("Guards Rifle Regiment 42") == "Guards Rif…"
    crowded = replace(
        planner.situation,
        units={
            **planner.situation.units,
            planner.map.hex("1010"): [Unit(f"S{i}", "Soviet", "infantry", 1) for i in range(6)],
        },
    )
    planner.overlay.show_situation(crowded)
    x, _ = center(planner.map.hex("1010"))
    shown = [t.get_text() for t in planner.overlay.labels if t.get_position()[0] == x]
    assert shown == ["S0", "S1", "S2", "+3 more"]


def test_retreat_planner_says_which_settings_make_no_difference_here():
    planner = panels.RetreatPlanner(example_situation("one_way_out"))
    notes = {name: html_.value for name, html_ in planner.no_difference.items()}
    # one unit, no pinned enemy, a clear hex: only the stacking limit of 1... changes nothing
    assert notes == {
        "stacking": NO_DIFFERENCE,
        "retreat_into": NO_DIFFERENCE,
        "pinned_zoc": NO_DIFFERENCE,
        "given_up_to_stay": NO_DIFFERENCE,
        "minefields_and_bridges": NO_DIFFERENCE,
    }
    shared = panels.RetreatPlanner(example_situation("shared_hex"))
    assert shared.no_difference["stacking"].value == ""
    four = Situation(
        "four",
        HexMap("m", (10, 16), (10, 16)),
        {"1313": [Unit(f"{n}/42", "Soviet", "infantry", n) for n in (1, 2, 3, 4)]},
        target="1313",
    )
    planner = panels.RetreatPlanner(four)
    assert planner.no_difference["retreat_into"].value == ""
    planner.readings["retreat_into"].value = "one_hex"
    assert planner.view.ax.get_title().startswith('"P" in clear 1313: 1 of 4 units eliminated')


def test_retreat_planner_shows_staying_and_retreating_side_by_side():
    planner = panels.RetreatPlanner(example_situation("balka_stay_or_go"))
    pane = planner.pane.value
    assert "<th>retreat (9.87)</th><th>stay (9.88)</th>" in pane
    r = planner.situation.retreat()
    assert f"<td>{r.go.cost}: {html.escape(', '.join(r.go.eliminated))}</td>" in pane
    assert f"<td>1: {html.escape(r.stay_eliminates)}</td>" in pane


def test_panels_lay_their_controls_out_in_a_few_rows_with_whole_labels():
    for panel, rows in ((panels.crt_explorer(), 2), (panels.assault_advisor(), 4)):
        box = controls_box(panel)
        assert len(box.children) == rows
        for control in panel.controls.values():
            assert len(control.description) <= 10 and control.tooltip
            if isinstance(control, widgets.ToggleButtons):
                assert control.style.button_width == "auto"
    planner = panels.RetreatPlanner()
    # under the worked examples' menu
    assert [type(w).__name__ for w in planner.widget.children[:4]] == ["HBox"] * 4
    assert planner.presets.menu in planner.widget.children[0].children
    assert planner.click.style.button_width == "auto"


def test_in_words_names_columns_apart_from_their_chances():
    a = stalingrad.close_assault_bonus(
        [Unit("Tiger", "German", "tank", 10), Unit("GR", "German", "infantry", 2)],
        [Unit("D", "Soviet", "infantry", 3)],
        5,
        column_after_fire="af_left",
    )
    words = stalingrad.in_words(a.with_bonus.column, what="column")
    assert "column 3: 1/3 (33.33%)" in words and "no attack: 1/6" in words
    assert "column no attack" not in words


def test_retreat_planner_takes_a_stacking_limit_past_its_list(tmp_path):
    path = tmp_path / "eight.toml"
    replace(example_situation("shared_hex"), stacking_limit=8).save(path)
    planner = panels.RetreatPlanner()
    planner.file.path.value = str(path)
    planner.load()
    assert ERROR_COLOUR not in planner.message.value and planner.stacking.value == 8
    assert planner.situation.stacking_limit == 8


def test_assault_advisor_says_which_readings_make_no_difference_here():
    panel = panels.assault_advisor()
    notes = {name: note.value for name, note in _advisor_notes(panel).items()}
    # the seed example: losing the engineers leaves 11 AF, 20-29 either way; one unit lost at
    # most, so the two ways of choosing agree
    assert notes["losses"] == notes["column_after_fire"] == NO_DIFFERENCE
    assert notes["fire_without_bonus"] == notes["pinned_attack"] == notes["fire_drm"] == ""
    panel.controls["attack"].value = "infantry 6, tank 9"
    assert _advisor_notes(panel)["column_after_fire"].value == ""  # the Tiger lost: 5-9 + 1
    panel.controls["defence_df"].value = "0"  # no fire at all: no reading of it matters
    notes = {name: note.value for name, note in _advisor_notes(panel).items()}
    assert set(notes.values()) == {NO_DIFFERENCE}


def controls_box(panel):
    """The box of a chart panel's controls in rows."""
    return panel.control_row


def _advisor_notes(panel):
    rows = controls_box(panel).children
    found = {}
    for row in rows:
        children = list(row.children)
        for control, after in itertools.pairwise(children):
            if isinstance(after, widgets.HTML):
                name = next(n for n, c in panel.controls.items() if c is control)
                found[name] = after
    return found


def test_assault_advisor_weighs_the_bonus_against_the_defender_s_own_fire():
    panel = panels.assault_advisor()
    panel.controls["defending_units"].value = 2
    panel.controls["defence_df"].value = "4"
    assert suptitle(panel).startswith("Use the Close Assault Bonus")
    panel.controls["fire_without_bonus"].value = "none"
    assert suptitle(panel).startswith("Do not use the Close Assault Bonus")


def test_a_retreat_picture_says_which_readings_it_assumes():
    four = example_situation("four_in_the_open")
    planner = panels.RetreatPlanner(four)
    assert planner.view.title() == (
        '"P" in clear 1313: no unit eliminated\nretreat into 1213, 1214, 1314 and 1414 (4 units)'
    )
    planner.readings["retreat_into"].value = "one_hex"
    assert planner.view.title() == (
        '"P" in clear 1313: 1 of 4 units eliminated (Mortars/13) [all into one hex]\n'
        "retreat into 1414 (3 units)"
    )
    planner.readings["pinned_zoc"].value = "none"
    assert "[all into one hex; no ZOC from pinned units]" in planner.view.title()


def test_retreat_planner_keeps_a_situation_without_a_stacking_limit(tmp_path):
    unlimited = replace(example_situation("shared_hex"), stacking_limit=None)
    planner = panels.RetreatPlanner(unlimited)  # never silently a limit of 3
    assert planner.situation.stacking_limit is None
    assert planner.view.title().startswith('"P" in clear 1313: no unit eliminated')
    planner.stacking.value = 3
    assert planner.view.title().startswith('"P" in clear 1313: 1 of 2 units eliminated')
    planner.stacking.value = panels.NO_LIMIT
    planner.save_edge_case(str(tmp_path / "case.toml"))
    assert 'stacking_limit = "none"' in (tmp_path / "case.toml").read_text(encoding="utf-8")


def test_the_advisor_s_title_names_the_readings_it_assumes():
    panel = panels.assault_advisor()
    assert suptitle(panel).endswith("on the Illustrative CRT (not the published table)")
    panel.controls["fire_without_bonus"].value = "none"
    panel.controls["losses"].value = "best_column"
    assert suptitle(panel).endswith(
        "(not the published table) [losses keep the best column; no fire without the bonus]"
    )


def test_retreat_planner_edge_case_keeps_its_readings(tmp_path):
    from wbk.widgets import load_edge_case

    planner = panels.RetreatPlanner(example_situation("four_in_the_open"))
    planner.readings["retreat_into"].value = "one_hex"
    planner.save_edge_case(str(tmp_path / "case.toml"))
    text = (tmp_path / "case.toml").read_text(encoding="utf-8")
    assert text.split("\n")[1] == (
        'readings = { retreat_into = "one_hex", pinned_zoc = "exerts", '
        'given_up_to_stay = "another_unit", minefields_and_bridges = "count" }'
    )
    planner.save_picture(str(tmp_path / "before.png"))
    again = load_edge_case(tmp_path / "case.toml")
    assert again.readings["retreat_into"].value == "one_hex"
    again.save_picture(str(tmp_path / "after.png"))
    assert (tmp_path / "after.png").read_bytes() == (tmp_path / "before.png").read_bytes()
    # the planner's own Load reads the readings too, and names a bad one in one line
    fresh = panels.RetreatPlanner()
    fresh.file.path.value = str(tmp_path / "case.toml")
    fresh.load()
    assert fresh.readings["retreat_into"].value == "one_hex" and "[all into one hex]" in (
        fresh.view.title()
    )
    (tmp_path / "bad.toml").write_text(text.replace('"one_hex"', '"both"'), encoding="utf-8")
    fresh.file.path.value = str(tmp_path / "bad.toml")
    fresh.load()
    assert "bad.toml: readings: retreat_into: 'both' is not one of any_hexes, one_hex" in (
        fresh.message.value
    )


@pytest.mark.parametrize("make", [panels.crt_explorer, panels.assault_advisor])
def test_chart_panels_reopen_from_their_picture(make, tmp_path):
    from wbk.widgets import load_edge_case

    panel = make()
    if make is panels.assault_advisor:
        panel.controls["fire_without_bonus"].value = "none"
        panel.controls["defence_df"].value = "4"
    else:
        panel.controls["shift"].value = 2
    panel.save_picture(str(tmp_path / "before.png"))
    again = load_edge_case(tmp_path / "before.png")
    assert {k: c.value for k, c in again.controls.items()} == {
        k: c.value for k, c in panel.controls.items()
    }
    assert suptitle(again) == suptitle(panel)
    again.save_picture(str(tmp_path / "after.png"))
    assert (tmp_path / "after.png").read_bytes() == (tmp_path / "before.png").read_bytes()


def test_the_advisor_bar_numbers_never_run_together():
    """Three defenders on the 2d6 table with a DRM: four outcomes, eight bars, and the numbers
    of neighbouring bars ('41.67%' twice) stood side by side touching before they stood upright."""
    attack = [Unit("GR", "German", "infantry", 6), Unit("Pi", "German", "engineer", 4)]
    attack.append(Unit("StuG", "German", "tank", 5))
    defence = [Unit(f"D{i}", "Soviet", "infantry", 1) for i in range(3)]
    crt = example_crt("illustrative_2d6")
    advice = stalingrad.close_assault_bonus(attack, defence, 3, crt=crt, drm=2, fire_drm=-2)
    figure = picture(advice)
    figure.draw_without_rendering()
    renderer = figure._get_renderer()
    for ax in figure.axes:
        boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_text()]
        assert len(boxes) >= 3
        for one, other in itertools.combinations(boxes, 2):
            assert not one.overlaps(other), (one, other)
        top = ax.get_window_extent(renderer).y1
        assert all(box.y1 <= top for box in boxes)  # no number above the axes, into the title
        assert max(ax.get_yticks()) == 1  # no '120%' tick


# --- issue 19: the retreat planner steps through, compares readings, has the worked retreats ---


def test_retreat_planner_presets_load_the_shipped_situations():
    planner = panels.RetreatPlanner()
    expected = {
        "9.87: a clear hex, one hex open for two units": "retreat_clear_hex",
        "9.87: one way out, 1313 -> 1314": "one_way_out",
        "9.87: two units, 1314 shared, room for one": "shared_hex",
        "9.88: balka, stay or go": "balka_stay_or_go",
        "9.89: minefield, fortification, immobilized tank": "rule_9_89",
        "9.87: four in the open, stacking limit 3": "four_in_the_open",
    }
    assert list(planner.presets.presets) == list(expected)
    for preset, name in expected.items():
        planner.presets.menu.value = preset
        answer = example_situation(name).retreat()
        assert planner.retreat.summary == answer.summary
        assert planner.step_control.steps == answer.steps
        assert planner.step_control.at_answer
    planner.presets.menu.value = "9.87: one way out, 1313 -> 1314"
    assert planner.retreat.summary == "1313: 1 of 1 units can retreat; no unit eliminated"


def test_retreat_planner_steps_through_the_hexes_considered():
    planner = panels.RetreatPlanner(example_situation("one_way_out"))
    steps = planner.step_control.steps
    assert steps[5].text == "1314: open, room for 3 under the stacking limit of 3"
    planner.step_control.go(5)
    title = planner.view.ax.get_title()
    assert title.startswith("Step 6 of 10: 1314: open")
    assert "this step's hex" in legend(planner.view)
    planner.step_control.go(len(steps) - 1)  # the answer: its own title, nothing dimmed
    assert planner.view.ax.get_title().startswith('"P" in clear 1313')
    assert "legal retreat hex (9.87)" in legend(planner.view)


def test_a_retreat_is_drawn_on_its_own_map_with_its_units():
    """A retreat carries its situation: ``picture`` needs no map=, and draws what the planner
    draws (the units, the hexes attacked and bombarded, the retreat), titled with the answer
    and the readings it assumes."""
    s = example_situation("one_way_out")
    r = s.retreat()
    whole = picture(r)
    assert whole.axes[0].get_title() == picture(r, map=r.map).axes[0].get_title()
    planner = panels.RetreatPlanner(s)
    assert whole.axes[0].get_title() == planner.view.ax.get_title()
    names = {t.get_text() for t in whole.axes[0].texts}
    assert {"1/42 Rifle", "Pz III/24", "II/276 GR"} <= names
    one_hex = picture(example_situation("four_in_the_open").retreat(retreat_into="one_hex"))
    assert "[all into one hex]" in one_hex.axes[0].get_title()


def test_retreat_pictures_differ_step_to_step_and_refuse_a_bad_step():
    s = example_situation("one_way_out")
    r = s.retreat()
    pngs = {picture_bytes(r, map=s.map, step=k) for k in range(len(r.steps))}
    assert len(pngs) == len(r.steps)
    with pytest.raises(WbkError, match="step 10 is not one of the answer's 10 steps"):
        picture_bytes(r, map=s.map, step=10)


def test_retreat_planner_compares_readings_and_marks_what_changes():
    planner = panels.RetreatPlanner(example_situation("four_in_the_open"))
    compare = planner.compare
    compare.choice.value = ("retreat_into", "one_hex")
    assert compare.note.value == ""
    marks = legend(planner.view)
    assert "lost under 'one_hex': Mortars/13" in marks
    assert "changes under 'one_hex'" in marks
    assert retreat_changes_labels(planner) == ["1213", "1214", "1314"]
    compare.choice.value = ("given_up_to_stay", "a_9_89_loss")  # no one may stay in the open
    assert compare.note.value == "<b>the readings agree here</b>"
    assert not any(mark.startswith("changes under") for mark in legend(planner.view))
    compare.choice.value = ("retreat_into", "any_hexes")
    assert compare.note.value == "<i>that is the reading on show</i>"
    compare.choice.value = None
    assert not any("under '" in mark for mark in legend(planner.view))


def retreat_changes_labels(planner) -> list[str]:
    r = planner.retreat
    other = planner.situation.retreat(r.target, retreat_into="one_hex")
    return sorted(r.map.label(h) for h in draw.retreat_changes(r, other))


# --- issue 19: the Close Assault Bonus advisor steps, compares readings, has 9.67's example ---


def test_advisor_preset_is_the_seeds_9_67_example():
    advisor = panels.assault_advisor()
    assert list(advisor.presets.presets) == ["9.67: 15 AF against 3 DF"]
    advisor.presets.menu.value = "9.67: 15 AF against 3 DF"
    assert advisor.controls["attack"].value == "infantry 10, engineer 5"
    steps = [s.text for s in advisor.step_control.steps]
    assert "attack strength 15 AF: the 10-19 column" in steps
    assert "with the bonus the attack would roll on 20-29" in steps
    assert "the defender's 3 DF fires first, one column higher: 4" in steps
    assert advisor.step_control.at_answer


def test_advisor_draws_each_step_the_chart_it_is_about():
    advisor = panels.assault_advisor()
    advisor.presets.menu.value = "9.67: 15 AF against 3 DF"
    control = advisor.step_control
    fire = [s.text for s in control.steps].index(
        "the defender's 3 DF fires first, one column higher: 4"
    )
    control.go(fire)
    assert advisor.figure.get_suptitle().startswith("Step 6 of 11: the defender's 3 DF fires")
    attack, defence_fire = advisor.figure.axes[:2]
    assert (
        defence_fire.spines["left"].get_edgecolor()[:3] != attack.spines["left"].get_edgecolor()[:3]
    )
    faded = [bar.get_alpha() for bar in attack.containers[0]]
    assert faded == [0.2] * len(faded)  # the attack's chart is not this step's
    a = stalingrad.close_assault_bonus(
        [Unit("inf", "German", "infantry", 10), Unit("eng", "German", "engineer", 5)],
        [Unit("d", "Soviet", "infantry", 3)],
        3,
    )
    pngs = set()
    for k in range(len(a.steps)):
        figure = Figure(figsize=(7, 3.8), layout="constrained")
        draw.assault_bars(a, figure, step=k)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=50)
        pngs.add(buffer.getvalue())
    assert len(pngs) == len(a.steps)
    with pytest.raises(WbkError, match="step 11 is not one of the answer's 11 steps"):
        draw.assault_bars(a, Figure(), step=11)


def test_advisor_compares_readings_and_marks_the_bars_that_move():
    advisor = panels.assault_advisor()
    advisor.controls["defence_df"].value = "40"
    compare = advisor.compare_readings
    compare.choice.value = ("fire_without_bonus", "none")
    assert compare.note.value == ""
    assert "under 'none': " in advisor.figure.get_suptitle()
    assert any(line.get_marker() == "_" for line in advisor.figure.axes[1].lines)
    advisor.controls["defence_df"].value = "3"
    advisor.controls["attack"].value = "infantry 10, engineer 5"
    compare.choice.value = ("column_after_fire", "af_left")
    assert compare.note.value == "<b>the readings agree here</b>"
    compare.choice.value = None
    assert not any(ax.lines for ax in advisor.figure.axes)


def test_advisor_verdict_says_the_same_when_the_attackers_losses_do_not_move():
    a = stalingrad.close_assault_bonus(
        [Unit("inf", "German", "infantry", 6), Unit("tank", "German", "tank", 9)],
        [Unit("d", "Soviet", "infantry", 3)],
        40,
    )
    assert "for the same 1.33 attacking units lost on average" in a.verdict


def test_advisor_names_a_negative_af_as_negative():
    advisor = panels.assault_advisor()
    advisor.controls["attack"].value = "infantry -3"
    assert "'infantry -3' in the attack: AF -3 is negative: an AF is 0 or more" in (
        advisor.message.value
    )
    assert "after its kind" not in advisor.message.value


def test_explorer_names_its_strength_box_one_way_and_writes_thousands_apart():
    explorer = panels.crt_explorer()
    strength = explorer.controls["strength"]
    strength.value = "-5"
    assert "attack strength -5 is not a whole number of 0 or more" in explorer.message.value
    strength.value = "x"
    assert "attack strength 'x' is not a whole number" in explorer.message.value
    strength.value = "1000"
    assert "\n1,000 AF on 30+: " in explorer.figure.get_suptitle()
    assert "<b>1,000 AF</b> rolls on the 30+ column" in explorer.pane.value


def test_advisor_lists_the_attacks_columns_in_table_order():
    advisor = panels.assault_advisor()
    advisor.controls["table"].value = "illustrative_2d6"
    advisor.presets.menu.value = "9.67: 15 AF against 3 DF"  # sets the 1d6 table again
    advisor.controls["table"].value = "illustrative_2d6"
    crt = example_crt("illustrative_2d6")
    pane = advisor.pane.value
    table = pane[pane.index("the attack&#x27;s column") :]
    shown = [c for c in crt.columns if f"<th>{html.escape(c)}</th>" in table]
    assert len(shown) > 1
    assert sorted(shown, key=lambda c: table.index(f"<th>{html.escape(c)}</th>")) == shown
    # where the fire can leave 5-9, it comes before 10-19, never after it as names sort
    columns = Dist({"10-19": 1, "5-9": 1, NO_ATTACK: 1})
    order = column_order(crt, columns)
    assert order == ["5-9", "10-19", NO_ATTACK]


def test_the_planners_edge_case_carries_its_compare_with_reading():
    """Issue 30: a link and an edge case carry everything the panel shows, "compare with" too."""
    from wbk.widgets import edge_case_panel

    planner = panels.RetreatPlanner()
    planner.compare_readings.choice.value = ("retreat_into", "one_hex")
    case = planner.edge_case()
    assert case.split("\n")[2] == 'compare = { reading = "retreat_into", value = "one_hex" }'
    again = edge_case_panel(case, "the link")
    assert again.compare_readings.choice.value == ("retreat_into", "one_hex")
    assert again.edge_case() == case
    bad = case.replace('value = "one_hex"', 'value = "all"')
    with pytest.raises(WbkError, match=r"the link: \[compare\]: retreat_into=all is not one of"):
        edge_case_panel(bad, "the link")


def test_a_saved_retreat_says_why_by_the_terrain_its_verdict_follows_from():
    """Issue 40: the retreat planner's saved picture carries the deciding step under its
    verdict, as ``picture`` of the retreat does."""
    from test_pictures import saved_says

    planner = panels.RetreatPlanner(example_situation("shared_hex"))
    assert saved_says(planner) == (
        "Why: 1313 is clear: the defending units retreat one hex, then are pinned "
        "(Streets of Stalingrad 9.87)",
        "",
    )
    planner.step_control.go(0)  # the step in the title, the whole answer above it
    assert saved_says(planner)[1] == (
        '"P" in clear 1313: 1 of 2 units eliminated (2/42 Rifle)\n1/42 Rifle retreats to 1314'
    )
