"""Errata 9.5's and 13.2's fire panel (``FirePanel``, ``fire_panel``): who fires, the dice,
the effect on the target; and its worked examples. The chart is ``wbk.games.ss_panzer.draw``'s
``fire_picture``."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.figure import Figure

from wbk.dice import Dist
from wbk.explain import count
from wbk.games import ss_panzer
from wbk.games.ss_panzer.draw import fire_picture, outline_other_effect
from wbk.games.ss_panzer.fire import condition_words
from wbk.games.ss_panzer.panels.controls import ChoiceBoxes
from wbk.games.ss_panzer.readings import ZOC_FIRE
from wbk.widgets import ChartPanel
from wbk.widgets.readings import compare_words

#: Who fires: a unit (its conditions decide the dice, 9.5) or the Soviet artillery in one of
#: its phases (13.2: barrage side in the Bombardment Phase, support side in the Action Phase).
SHOOTERS = {
    "unit": "a unit",
    "bombardment": "Soviet artillery, Bombardment Phase",
    "action": "Soviet artillery, Action Phase",
}
#: Errata 9.5's and 13.2's worked examples, each the fire panel's controls.
FIRE_PRESETS: dict[str, dict[str, object]] = {
    "9.5: Kill Zone firing at a unit entering a ZOC: 4 dice, not 5": {
        "shooter": "unit",
        "reading": "largest",
        "conditions": ("entering_zoc", "kill_zone"),
    },
    "9.5 and 13.2: Soviet artillery, Bombardment Phase (barrage side): 2 dice": {
        "shooter": "bombardment",
        "conditions": (),
    },
    "9.5 and 13.2: Soviet artillery, Action Phase (support side): 2 dice": {
        "shooter": "action",
        "conditions": (),
    },
}


class FirePanel(ChartPanel):
    """Errata 9.5 and 13.2: choose who fires (a unit under some conditions, or the Soviet
    artillery in a phase), the reading of several conditions and the hit number; see the dice
    and the exact distribution of the effect on the target, the answer in the title. Step
    through how the dice are found; compare the other reading (its bars as dashed outlines)."""

    rule = "SS Panzer errata 9.5 and 13.2 (fire)"

    def __init__(self, data: ss_panzer.GameData | None = None):
        self.data = data or ss_panzer.example_data()
        self.conditions = ChoiceBoxes(
            [(condition_words(c), c) for c in sorted(self.data.condition_dice)],
            description="conditions",
            tooltip="SS Panzer errata 9.5: the special conditions of this fire",
        )
        self.reading = widgets.RadioButtons(
            options=ZOC_FIRE.options,
            description=ZOC_FIRE.question,
            tooltip=ZOC_FIRE.asks,
            layout=widgets.Layout(width="auto"),
        )
        self.hit_number = widgets.IntSlider(3, 0, 6, description="hit number")
        self.shooter = widgets.Dropdown(
            options=[(words, value) for value, words in SHOOTERS.items()], description="who fires"
        )
        self.answer: tuple[ss_panzer.FireDice, Dist, int] | None = None
        self.compare_marks: list[Artist] = []
        #: the chart's top before a compared reading's taller outline raised it
        self._chart_top: float | None = None
        super().__init__(
            self.fire,
            self.draw_fire,
            size=(5.2, 4.6),
            shooter=self.shooter,
            conditions=self.conditions,
            reading=self.reading,
            hit_number=self.hit_number,
        )
        self.step_control = self.add_step_control(self.draw_at_step)
        words, questions = compare_words([ZOC_FIRE])
        self.compare = self.add_compare_readings(
            words,
            mark=self.mark_changes,
            current=lambda: {ZOC_FIRE.keyword: str(self.reading.value)},
            questions=questions,
        )
        self.add_presets(FIRE_PRESETS)
        self.update()

    def fire(
        self, shooter: str, conditions: Sequence[str], reading: str, hit_number: int
    ) -> tuple[ss_panzer.FireDice, Dist, int]:
        if shooter == "unit":
            fires = ss_panzer.fire_dice(list(conditions), reading=reading, data=self.data)  # type: ignore[arg-type]
        else:
            fires = ss_panzer.soviet_artillery_dice(shooter)  # type: ignore[arg-type]
        return fires, ss_panzer.fire_effect(fires, hit_number, data=self.data), hit_number

    def draw_fire(self, figure: Figure, result: tuple[ss_panzer.FireDice, Dist, int]) -> str:
        fires, effect, hit_number = self.answer = result
        fire_picture(fires, effect=effect, hit_number=hit_number, figure=figure)
        self.compare_marks, self._chart_top = [], None  # a new chart: the old marks went with it
        step_control = getattr(self, "step_control", None)
        if step_control is not None:  # not yet while ChartPanel draws the first answer
            step_control.set_steps(fires.steps)
            self.compare.refresh()
        note = ""
        if self.shooter.value != "unit" and self.conditions.value:
            note = "<p><i>the conditions are a unit's; the artillery rolls its 2 dice</i></p>"
        # the steps are listed once, by the step control (a static page lists them under it)
        dice = " and ".join(count(n, "die", "dice") for n in fires.fires)
        return f"<b>{dice}</b>" + effect._repr_html_() + note

    def draw_at_step(self, k: int) -> None:
        """The chart at step ``k`` (how the dice are found): the bars it is about standing out,
        the step as the title; the last step is the whole answer."""
        if self.answer is None:
            return
        fires, effect, hit_number = self.answer
        at = None if self.step_control.at_answer else k
        fire_picture(fires, effect=effect, hit_number=hit_number, step=at, figure=self.figure)
        self.compare_marks, self._chart_top = [], None
        self.compare.refresh()
        self.canvas.draw_idle()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """The other reading's bars as dashed outlines over the chart, and its dice in the
        legend; None takes them off."""
        for artist in self.compare_marks:
            artist.remove()
        self.compare_marks = []
        if self._chart_top is not None and len(self.figure.axes) > 1:
            self.figure.axes[1].set_ylim(top=self._chart_top)
            self._chart_top = None
        if other is None or self.answer is None or len(self.figure.axes) < 2:
            self.canvas.draw_idle()
            return False
        ax = self.figure.axes[1]  # the effect's chart, under the dice
        shown, _, hit_number = self.answer
        reading = other[ZOC_FIRE.keyword]
        fires, compared, _ = self.fire(
            self.shooter.value, self.conditions.value, reading, hit_number
        )
        if fires.fires == shown.fires:
            self.canvas.draw_idle()
            return False
        dice = " and ".join(count(n, "die", "dice") for n in fires.fires)
        label = f"{ZOC_FIRE.values[reading].split(' (')[0]}: {dice}"
        self.compare_marks, self._chart_top = outline_other_effect(ax, compared, label)
        self.canvas.draw_idle()
        return True


def fire_panel(data: ss_panzer.GameData | None = None) -> FirePanel:
    """Errata 9.5: the fire panel (see ``FirePanel``)."""
    return FirePanel(data)
