"""The Blitz Combat panels that step through their answer, from the strength to the damage,
compare the readings and set the rules' worked examples."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from matplotlib.figure import Figure

from wbk.errors import WbkError
from wbk.explain import Step
from wbk.games import blitz
from wbk.games.blitz.panels.controls import NotedPanel
from wbk.widgets import reports_errors
from wbk.widgets.readings import compare_words


class SteppedPanel(NotedPanel):
    """A Blitz chart panel that steps through its answer (``draw_at(figure, result, step,
    other)`` draws the result at a step, None the whole answer, and returns the pane's HTML;
    ``steps_of(result)`` its steps), compares the readings named (``other_answer(result,
    other_result, words)`` gives what to mark, or None when nothing changes) and offers the
    rules' worked examples (``presets``: name -> control values)."""

    pane_lists_steps = True

    def __init__(
        self,
        compute: Callable[..., Any],
        draw_at: Callable[[Figure, Any, int | None, Any], str],
        steps_of: Callable[[Any], tuple[Step, ...]],
        other_answer: Callable[[Any, Any, str], Any],
        readings: list[str],
        presets: dict[str, dict[str, object]],
        *,
        size: tuple[float, float],
        **controls: Any,
    ) -> None:
        self.result: Any = None
        self.other: Any = None
        #: what the figure shows: the result, the step (None: the whole answer), the other
        #: reading's answer (by id), so that a picture already on show is not drawn again
        self.drawn: tuple[int, int | None, int] = (0, None, 0)
        self.draw_at, self.steps_of, self.other_answer = draw_at, steps_of, other_answer

        def draw(figure: Figure, result: object) -> str:
            self.result = result
            self.drawn = (id(result), None, id(self.other))
            return draw_at(figure, result, None, self.other)

        super().__init__(compute, draw, size=size, **controls)
        for name, control in self.controls.items():  # presets name the controls so
            setattr(self, name, control)
        self.step_control = self.add_step_control(self.draw_step)
        words, questions = compare_words([blitz.READINGS[keyword] for keyword in readings])
        self.compare = self.add_compare_readings(
            words,
            mark=self.mark_reading,
            current=lambda: {keyword: self.controls[keyword].value for keyword in readings},
            questions=questions,
        )
        self.add_presets(presets)
        self.teach()

    def update(self) -> None:
        super().update()
        if hasattr(self, "compare"):  # not while the panel is being made
            self.teach()
            self.forget_preset()

    def apply_preset(self, values: Mapping[str, object]) -> None:
        self.applying = True
        try:
            super().apply_preset(values)
        finally:
            self.applying = False

    def forget_preset(self) -> None:
        """Once a control leaves the worked example on show, the menu says "choose" again, so
        that choosing the same example sets it again (the menu acts on a change only)."""
        menu = self.presets.menu
        example = self.presets.presets.get(menu.value)
        if getattr(self, "applying", False) or example is None:
            return
        if any(self.controls[name].value != value for name, value in example.items()):
            menu.value = self.presets.CHOOSE

    @reports_errors(stale=False)
    def teach(self) -> None:
        """A new answer: its steps listed, the verdict on show, the readings compared."""
        if self.is_out_of_date or self.result is None:
            return
        self.show_steps(self.steps_of(self.result))
        self.compare.refresh()

    def draw_step(self, k: int) -> None:
        """The picture at step ``k``; the last step is the whole answer. Not while the panel is
        out of date: the dimmed answer stays as it is until the input is fixed."""
        if self.result is None or self.stale:
            return
        step = None if self.step_control.at_answer else k
        drawn = (id(self.result), step, id(self.other))
        if drawn == self.drawn:
            return
        self.drawn = drawn
        self.figure.clear()
        self.draw_at(self.figure, self.result, step, self.other)
        self.canvas.draw_idle()

    def mark_reading(self, other: dict[str, str] | None) -> bool:
        """Draw what changes under ``other`` readings, dashed; whether anything does."""
        self.other = None
        if other is not None and self.result is not None:
            values = {name: control.value for name, control in self.controls.items()}
            values.update(other)
            ((keyword, value),) = other.items()
            reading = blitz.READINGS[keyword]
            try:
                other_result = self.compute(**values)
            except WbkError as e:
                self.show_message(f"compare readings: {e}")
            else:
                words = f"{reading.question} {reading.values[value]}"
                self.other = self.other_answer(self.result, other_result, words)
        if self.step_control.steps:
            self.draw_step(self.step_control.index)
        return self.other is not None
