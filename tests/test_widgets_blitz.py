import pytest

from wbk.widgets import blitz as panels


@pytest.fixture(scope="module")
def calculator():
    return panels.fire_calculator()


@pytest.mark.parametrize(
    "control, value, message",
    [
        ("strengths", "5, x", "'x' in strengths is not a whole number"),
        ("strengths", "5, -2", "strength -2 in strengths is negative"),
        ("terrain", "swamp", "target terrain 'swamp' is not one of open"),
        ("leader", "13", "leader morale 13 is not a whole number from 2 to 12"),
        ("leader", "nine", "leader morale 'nine' is not a whole number"),
        ("range_hexes", "-1", "range -1 is not a whole number of hexes"),
        ("armor", "-1", "armor value -1 is not a whole number"),
    ],
)
def test_calculator_names_bad_input_in_one_line(calculator, control, value, message):
    good = calculator.controls[control].value
    calculator.controls[control].value = value
    assert message in calculator.message.value and "\n" not in calculator.message.value
    calculator.controls[control].value = good
    assert calculator.message.value == ""


def test_calculator_shows_the_worked_examples(calculator):
    assert "<b>15 dice</b>" in calculator.pane.value
    calculator.controls["disrupted"].value = True
    calculator.controls["terrain"].value = "town"
    assert "<b>4 dice</b>" in calculator.pane.value
    assert "3.75 rounds up to 4 dice" in calculator.pane.value
    calculator.controls["disrupted"].value = False
    calculator.controls["terrain"].value = "open"


def test_leader_worth_compares_six_cases():
    panel = panels.leader_worth()
    assert panel.pane.value.count("<tr>") == 7
    assert "morale 10" in panel.pane.value
    panel.controls["fire"].value = "at"
    assert "Leaders make no saving throws" in panel.pane.value


def test_at_least_panel_reports_bad_morale():
    panel = panels.at_least_panel()
    assert len(panel.figure.axes) == 2
    assert len(panel.figure.axes[0].get_lines()) == 4  # disrupted ... eliminated
    panel.controls["leader"].value = "1"
    assert "leader morale 1 is not a whole number from 2 to 12" in panel.message.value
