import ipywidgets as widgets
import pytest

from wbk.errors import WbkError
from wbk.games import blitz
from wbk.games.blitz import Damage, Piece
from wbk.widgets import blitz as panels


@pytest.fixture(scope="module")
def calculator():
    return panels.fire_calculator()


def set_and_restore(panel, **values):
    """Set controls, return the pane and message, and put the controls back as they were."""
    before = {name: panel.controls[name].value for name in values}
    for name, value in values.items():
        panel.controls[name].value = value
    seen = panel.pane.value, panel.message.value
    for name, value in before.items():
        panel.controls[name].value = value
    return seen


@pytest.mark.parametrize(
    "control, value, message",
    [
        ("strengths", "5, x", "'x' in strengths is not a whole number"),
        ("strengths", "5, 5e", "'5e' in strengths is not a whole number"),
        ("strengths", "5, -2", "strength -2 in strengths is negative"),
        ("strengths", "", "no firing units"),
        ("engineers", "2x", "'2x' in engineer strengths is not a whole number"),
        ("leader", "13", "leader morale 13 is not a whole number from 2 to 12"),
        ("leader", "nine", "leader morale 'nine' is not a whole number"),
        ("range_hexes", "-1", "range -1 is not a whole number of hexes"),
    ],
)
def test_calculator_names_bad_input_in_one_line(calculator, control, value, message):
    _, shown = set_and_restore(calculator, **{control: value})
    assert message in shown and "\n" not in shown and "Traceback" not in shown
    assert calculator.message.value == ""


def test_calculator_armor_value_only_for_armored_vehicles(calculator):
    _, shown = set_and_restore(calculator, target="armored_vehicle", armor="-1")
    assert "armor value -1 is not a whole number" in shown
    _, shown = set_and_restore(calculator, target="armored_vehicle", armor="")
    assert "armor value is blank" in shown
    _, shown = set_and_restore(calculator, target="wagon", armor="")
    assert shown == ""


def test_calculator_shows_the_worked_examples(calculator):
    assert "<b>15 dice</b>" in calculator.pane.value
    pane, _ = set_and_restore(calculator, strengths="5d, 5d, 5d", terrain="town")
    assert "<b>4 dice</b>" in pane
    assert "all 3 firers disrupted: × ½ = 7.5" in pane and "3.75 rounds up to 4 dice" in pane
    pane, _ = set_and_restore(calculator, strengths="5, 5D, 5", terrain="town")
    assert "<b>7 dice</b>" in pane and "1 of 3 firers disrupted" in pane
    tank = dict(fire="at", range_hexes="1", terrain="woods", target="armored_vehicle", armor="1")
    pane, _ = set_and_restore(calculator, strengths="4", **tank)
    assert "<b>20 dice</b>" in pane and "AT fire: armor 1 takes 1 hit off" in pane


def test_calculator_terrain_and_protection_apart(calculator):
    pane, _ = set_and_restore(calculator, strengths="8", terrain="woods", protection="bunker")
    assert "<b>4 dice</b>" in pane and "bunker in woods: the ¼ does not apply" in pane
    pane, _ = set_and_restore(calculator, strengths="8", protection="bunker")
    assert "<b>2 dice</b>" in pane


def test_calculator_at_fire_at_non_vehicles_does_nothing(calculator):
    pane, _ = set_and_restore(calculator, fire="at", target="non_vehicle")
    assert "a non-vehicle unit takes none" in pane


def test_choices_show_words_and_give_back_the_option_names(calculator):
    controls = calculator.controls
    dropdowns = {name: c for name, c in controls.items() if isinstance(c, widgets.Dropdown)}
    shown = {name: dict(c.options) for name, c in dropdowns.items()}
    assert shown["fire"] == {
        "direct fire": "direct", "bombardment": "bombardment", "AT fire": "at", "assault combat": "assault",
    }
    assert shown["crowded"] == {"three or more": "three_or_more", "exactly three": "exactly_three"}
    assert shown["protection"]["dug in"] == "dug_in"
    assert shown["target"]["non-vehicle units"] == "non_vehicle"
    assert set(shown["target"].values()) == set(blitz.TARGETS)
    assert set(shown["assault"].values()) == set(blitz.ASSAULT_READINGS)
    every_label = [label for options in shown.values() for label in options]
    assert not [label for label in every_label if "_" in label]


def test_parse_pieces():
    pieces = panels.parse_pieces("5, 5d 3D", "strengths")
    assert pieces == [5, Piece(5, disrupted=True), Piece(3, disrupted=True)]
    with pytest.raises(WbkError, match="'d' in strengths"):
        panels.parse_pieces("5 d", "strengths")


def test_leader_worth_compares_six_cases():
    panel = panels.leader_worth()
    assert panel.pane.value.count("<tr>") == 7
    assert "morale 10" in panel.pane.value
    panel.controls["fire"].value = "at"
    assert "Leaders make no saving throws" in panel.pane.value
    assert "Only vehicles other than wagons take hits from AT fire" in panel.pane.value
    assert "<td>no leader</td><td>0.0%</td>" in panel.pane.value  # non-vehicle units: nothing
    panel.controls["target"].value = "unarmored_vehicle"
    assert "Only vehicles" not in panel.pane.value


def test_at_least_panel_reports_bad_morale():
    panel = panels.at_least_panel()
    assert len(panel.figure.axes) == 2
    assert len(panel.figure.axes[0].get_lines()) == 4  # disrupted ... eliminated
    assert [t.get_text() for t in panel.figure.axes[1].get_legend().get_texts()] == [
        "unarmored vehicle", "armor 1", "armor 2", "armor 3",
    ]
    panel.controls["fire"].value = "at"
    panel.controls["target"].value = "wagon"
    assert panel.figure.axes[0].get_title() == "AT fire at a wagon"
    panel.controls["level"].value = Damage.ELIMINATED
    assert panel.figure.axes[1].get_title() == "AT fire at a vehicle: at least eliminated"
    panel.controls["leader"].value = "1"
    assert "leader morale 1 is not a whole number from 2 to 12" in panel.message.value
