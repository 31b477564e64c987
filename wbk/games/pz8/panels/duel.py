"""The duel calculator: two tanks trading shots until one is destroyed, the exact chances at
the chosen range and the first tank's chance at every range, step by step, with the other
reading of who shoots next compared and the card's cases as duels."""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.draw.tables import say_chance, say_inches
from wbk.explain import steps_html
from wbk.games import pz8
from wbk.games.pz8 import Tank
from wbk.games.pz8.draw.compare import mark_other_bars
from wbk.games.pz8.draw.duel import draw_duel
from wbk.games.pz8.panels.controls import (
    CLASS_LABELS,
    CasesChartPanel,
    beside,
    choices,
    compared,
    reading_choices,
    show_no_difference,
)
from wbk.games.pz8.readings import TURNS
from wbk.widgets import ChartPanel


def _duel_case(second_class: str, **settings: object) -> dict[str, object]:
    case: dict[str, object] = {
        "first_class": "medium",
        "first_gun": "medium",
        "first_crew": "regular",
        "second_class": second_class,
        "second_gun": "medium",
        "second_crew": "regular",
        "range_inches": 12,
        "first_in_cover": False,
        "second_in_cover": False,
    }
    return {**case, **settings}


#: The card's gun-against-armour cases as duels at 12": the duel calculator's presets.
DUEL_CASES: dict[str, dict[str, object]] = {
    'Duel at 12": a medium gun against a light tank (it saves on 6+)': _duel_case("light"),
    'Duel at 12": a medium gun against a medium tank (it saves on 5+)': _duel_case("medium"),
    'Duel at 12": a medium gun against a heavy tank (it saves on 4+)': _duel_case("heavy"),
    "Duel at 12\": a short gun's three dice against a medium tank's two": _duel_case(
        "medium", first_class="light", first_gun="short"
    ),
    'Duel at 12": cover and a veteran crew (the first tank)': _duel_case(
        "medium", first_crew="veteran", second_in_cover=True
    ),
}


def tank_words(t: Tank) -> str:
    """A duellist of the calculator by its class, gun and crew: "the heavy tank (long gun)"."""
    crew = ", veteran" if t.is_veteran else ""
    return f"the {CLASS_LABELS[t.tank_class]} ({t.gun} gun{crew})"


def duel_controls() -> dict[str, widgets.Widget]:
    """The calculator's controls by the names ``compute`` takes: each tank's class, gun and
    crew, the range, who is in cover, the optional rule and who shoots next."""
    return dict(
        first_class=choices(list(pz8.MOVE_VALUES), "first tank", "medium", words=CLASS_LABELS.get),
        first_gun=choices(list(pz8.GUN_RANGES), "its gun", "medium"),
        first_crew=choices(["regular", "veteran"], "its crew"),
        second_class=choices(list(pz8.MOVE_VALUES), "second tank", "heavy", words=CLASS_LABELS.get),
        second_gun=choices(list(pz8.GUN_RANGES), "its gun", "long"),
        second_crew=choices(["regular", "veteran"], "its crew"),
        range_inches=widgets.IntSlider(16, 1, 26, description="range (inches)"),
        first_in_cover=widgets.Checkbox(False, description="first in cover"),
        second_in_cover=widgets.Checkbox(False, description="second in cover"),
        shaken_rule=widgets.Checkbox(False, description="Optional Rule: Shaken"),
        turns=reading_choices(TURNS, "who shoots next", layout=widgets.Layout(width="32em")),
    )


def duel_calculator() -> ChartPanel:
    """Two tanks trading shots until one is destroyed: the exact chances at the chosen range,
    and the first tank's chance at every range from 1 to 26 inches."""
    shaken_note, turns_note = widgets.HTML(), widgets.HTML()

    def compute(**values):
        a, b, range_inches, options = _duel_set_up(**values)
        here = pz8.duel(a, b, range_inches, **options)
        curve = pz8.duel_curve(here)

        def answer(d: pz8.Duel) -> tuple:
            return (d.first_wins, d.second_wins, d.stalemate, d.mean_attacks_by)

        for note, change in (
            (shaken_note, {"shaken_rule": not options["shaken_rule"]}),
            (turns_note, {"turns": "alternate" if options["turns"] == "card" else "card"}),
        ):
            other = pz8.duel(a, b, range_inches, **{**options, **change})
            show_no_difference(note, answer(other) == answer(here))
        return a, b, range_inches, here, curve

    made: list[CasesChartPanel] = []  # the panel, once built: its compare control marks each chart

    def draw(figure: Figure, result) -> str:
        html_text = _draw_chart(figure, result)
        if made:
            panel = made[0]
            panel.shown_duel, panel.drawn = result, (id(result), None)
            panel.show_steps(result[3].steps)  # at the verdict: the whole answer, drawn above
            panel.compare_readings.refresh()
        return html_text

    panel = CasesChartPanel(compute, draw, size=(9.0, 3.8), **duel_controls())
    panel.rule = "Pz 8, Shooting and Penetration and Damage (a duel: wbk's, not the card's)"
    beside(panel, panel.controls["shaken_rule"], shaken_note)
    beside(panel, panel.controls["turns"], turns_note)
    panel.boxes = dict(panel.controls)  # the presets set the chart's controls by their names
    panel.compare = panel.add_compare_readings(
        compared(TURNS),
        mark=lambda other: _mark_other_turns(panel, other),
        current=lambda: {"turns": panel.controls["turns"].value},
    )
    panel.pane_lists_steps = True
    panel.step_control = panel.add_step_control(lambda k: _draw_at_step(panel, k))
    panel.add_presets(DUEL_CASES)
    made.append(panel)
    panel.update()  # the chart again, now that its compare control is there
    return panel


def _duel_set_up(
    first_class,
    first_gun,
    first_crew,
    second_class,
    second_gun,
    second_crew,
    range_inches,
    first_in_cover,
    second_in_cover,
    shaken_rule,
    turns,
) -> tuple[Tank, Tank, int, dict]:
    """The two tanks the controls describe, the range, and ``pz8.duel``'s keywords."""
    a = Tank(
        f"the {first_class} tank (shooting first)",
        tank_class=first_class,
        gun=first_gun,
        crew=first_crew,
    )
    b = Tank(
        f"the {second_class} tank (shooting second)",
        tank_class=second_class,
        gun=second_gun,
        crew=second_crew,
    )
    options = dict(
        first_in_cover=first_in_cover,
        second_in_cover=second_in_cover,
        shaken_rule=shaken_rule,
        turns=turns,
    )
    return a, b, range_inches, options


def _draw_chart(figure: Figure, result, step: int | None = None) -> str:
    """The duel on ``figure`` (whole, or at ``step``); the pane's words and steps."""
    a, b, r, duel, curve = result
    draw_duel(figure, duel, step=step, curve=curve, words=tank_words)
    first, second = tank_words(a), tank_words(b)
    reaches = [r <= pz8.GUN_RANGES[t.gun] for t in (a, b)]
    mean = (
        f"; on average {first} makes {float(duel.mean_attacks_by[0]):.2f} attacks and "
        f"{second} {float(duel.mean_attacks_by[1]):.2f}"
        if duel.mean_attacks_by is not None
        else ""
    )
    if not any(reaches):
        said = f"out of range: neither gun reaches {say_inches(r)}, so neither tank can win"
    else:
        said = (
            f"at {say_inches(r)} the first wins {say_chance(duel.first_wins)}, "
            f"the second {say_chance(duel.second_wins)}"
            + (f", neither can ever win {say_chance(duel.stalemate)}" if duel.stalemate else "")
        )
    text = f"<p>first: {html.escape(first)}; second: {html.escape(second)}; {said}{mean}.</p>"
    return text + steps_html(duel.steps)


def _draw_at_step(panel: CasesChartPanel, k: int) -> None:
    """The duel on show at its step ``k`` (the last: the whole answer)."""
    result = panel.shown_duel
    step = None if panel.step_control.at_answer else k
    if result is None or panel.drawn == (id(result), step):
        return
    panel.figure.clear()
    _draw_chart(panel.figure, result, step)
    panel.drawn = (id(result), step)
    panel.compare_readings.refresh()
    panel.canvas.draw_idle()


def _mark_other_turns(panel: CasesChartPanel, other: dict[str, str] | None) -> bool:
    """The bars that move under the other ``turns``: its chances drawn as dashed outlines over
    the bars of "Who wins?"."""
    had_marks = bool(getattr(panel, "_compare_marks", []))
    panel.remove_compare_marks()
    shown = getattr(panel, "shown_duel", None)
    if other is None or shown is None or not panel.figure.axes:
        if had_marks:  # else nothing changed: an answer asks for its own picture
            panel.canvas.draw_idle()
        return False
    a, b, r, here, _curve = shown
    values = {name: control.value for name, control in panel.controls.items()}
    there = pz8.duel(
        a,
        b,
        r,
        first_in_cover=values["first_in_cover"],
        second_in_cover=values["second_in_cover"],
        shaken_rule=values["shaken_rule"],
        turns=other["turns"],
    )
    pairs = [(here.first_wins, there.first_wins), (here.second_wins, there.second_wins)]
    if here.stalemate or there.stalemate:
        pairs.append((here.stalemate, there.stalemate))
    panel._compare_marks = mark_other_bars(panel.figure.axes[0], pairs)
    if had_marks or panel._compare_marks:
        panel.canvas.draw_idle()
    return bool(panel._compare_marks)
