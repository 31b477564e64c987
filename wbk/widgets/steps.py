"""Stepping through an answer, comparing readings, and the rules' worked examples one click away:
the parts a panel adds to teach the *why* (issue 19).

- ``StepControl``: Previous / Next, "step k of n", the steps as lines to click, and the arrow
  keys while the panel has focus. A panel gets one with ``Panel.add_step_control`` and hands it
  each new answer's steps (``Panel.show_steps``); a new answer starts at its verdict, the last
  step, which shows the whole answer.
- ``CompareReadings``: "compare with" another value of a reading; the panel marks what changes
  (``Panel.add_compare_readings``), and the control says "the readings agree here" when nothing
  does.
- ``Presets``: a menu of worked examples that sets the panel's controls
  (``Panel.add_presets``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from wbk.explain import Step

__all__ = ["KEYS_CLASS", "CompareReadings", "Presets", "StepControl", "StepKeys"]

#: The class of a panel's outer box that the arrow keys step while focus is inside it.
KEYS_CLASS = "wbk-step-keys"

#: Listens on the panel's outer box (made focusable) and sends "previous" or "next" for the
#: arrow keys, except while the reader types in a box or moves through a list (which use them).
_KEYS_ESM = """
function render({ model, el }) {
  el.classList.add("wbk-step-keys-hint");
  el.textContent = "← → step through";
  el.title = "the arrow keys step through the answer while the panel has focus";
  const attach = () => {
    const panel = el.closest(".@PANEL@");
    if (!panel || panel.dataset.wbkStepKeys) return;
    panel.dataset.wbkStepKeys = "1";
    if (!panel.hasAttribute("tabindex")) panel.tabIndex = 0;
    panel.addEventListener("keydown", (event) => {
      const tag = (event.target.tagName || "").toLowerCase();
      if (tag === "input" || tag === "textarea" || tag === "select") return;
      const where = { ArrowLeft: "previous", ArrowUp: "previous",
                      ArrowRight: "next", ArrowDown: "next" }[event.key];
      if (!where) return;
      event.preventDefault();
      event.stopPropagation();
      model.send({ step: where });
    });
  };
  // the box is in the page only once the panel's whole tree is drawn
  requestAnimationFrame(attach);
  setTimeout(attach, 500);
}
export default { render };
""".replace("@PANEL@", KEYS_CLASS)


class StepKeys(anywidget.AnyWidget):
    """A small hint ("← → step through") whose script makes the panel around it focusable and
    turns its arrow keys into "previous" / "next" messages for ``on_step``."""

    _esm = traitlets.Unicode(_KEYS_ESM).tag(sync=True)

    def __init__(self, on_step: Callable[[str], None]) -> None:
        super().__init__()
        self.on_msg(lambda _widget, content, _buffers: on_step(str(content.get("step", ""))))


class StepControl:
    """Previous / Next, "step k of n", the steps as lines (the current one highlighted; a click
    jumps to it) and the arrow keys. ``draw(k)`` draws the picture at step ``k``."""

    def __init__(self, draw: Callable[[int], None]) -> None:
        self.draw = draw
        self.steps: tuple[Step, ...] = ()
        self.index = 0
        self.previous = widgets.Button(description="◀ Previous", tooltip="the step before")
        self.next = widgets.Button(description="Next ▶", tooltip="the step after")
        self.label = widgets.HTML()
        self.lines = widgets.Select(options=[], rows=1, layout=widgets.Layout(width="98%"))
        self.keys = StepKeys(self.key)
        self.previous.on_click(lambda _: self.go(self.index - 1))
        self.next.on_click(lambda _: self.go(self.index + 1))
        self.lines.observe(self._picked, names="index")
        row = widgets.HBox([self.previous, self.label, self.next, self.keys])
        row.layout.align_items = "center"
        self.widget = widgets.VBox([row, self.lines])
        self.widget.add_class("wbk-steps")
        self._moving = False

    @property
    def at_answer(self) -> bool:
        """Whether the last step (the verdict: the whole answer) is on show."""
        return self.index == len(self.steps) - 1

    def set_steps(self, steps: Sequence[Step]) -> None:
        """A new answer's steps: listed, and the last (the verdict) on show."""
        self.steps = tuple(steps)
        self._moving = True
        try:
            self.lines.options = [
                (f"{k + 1}. {s.text} ({s.rule})", k) for k, s in enumerate(self.steps)
            ]
            self.lines.rows = max(1, min(len(self.steps), 8))
        finally:
            self._moving = False
        self.go(len(self.steps) - 1)

    def go(self, k: int) -> None:
        """Show step ``k`` (kept within the steps): its line highlighted, the picture drawn."""
        if not self.steps:
            self.label.value = "no steps"
            return
        self.index = max(0, min(k, len(self.steps) - 1))
        n = len(self.steps)
        verdict = " (the answer)" if self.at_answer else ""
        self.label.value = f"<b>step {self.index + 1} of {n}</b>{verdict}"
        self.previous.disabled = self.index == 0
        self.next.disabled = self.at_answer
        self._moving = True
        try:
            self.lines.index = self.index
        finally:
            self._moving = False
        self.draw(self.index)

    def key(self, where: str) -> None:
        """An arrow key: "previous" or "next"."""
        if where in ("previous", "next"):
            self.go(self.index + (1 if where == "next" else -1))

    def _picked(self, change: dict[str, Any]) -> None:
        if not self._moving and change["new"] is not None:
            self.go(int(change["new"]))


class CompareReadings:
    """ "compare with": another value of one of the panel's readings. ``mark(other)`` marks on
    the picture what changes under ``other`` ({keyword: value}) and returns whether anything
    does; ``mark(None)`` takes the marks off. ``current()`` gives the readings on show.
    ``questions`` names each reading in words ("slope hexes"), as its control does; a reading
    without one is named by its keyword in words ("natural six")."""

    OFF = "nothing (compare readings off)"
    #: the value of OFF: not None, which a dropdown shows as no choice at all (a blank box)
    OFF_VALUE = ("", "")

    def __init__(
        self,
        readings: Mapping[str, Mapping[str, str]],
        mark: Callable[[dict[str, str] | None], bool],
        current: Callable[[], Mapping[str, str]],
        questions: Mapping[str, str] | None = None,
    ) -> None:
        self.readings = readings
        self.mark, self.current = mark, current
        named = {keyword: keyword.replace("_", " ") for keyword in readings} | dict(questions or {})
        options: list[tuple[str, tuple[str, str]]] = [(self.OFF, self.OFF_VALUE)]
        options += [
            (f"{named[keyword]}: {words}", (keyword, value))
            for keyword, values in readings.items()
            for value, words in values.items()
        ]
        self.choice = widgets.Dropdown(
            options=options,
            description="compare with",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"),
        )
        self.note = widgets.HTML()
        self.widget = widgets.HBox([self.choice, self.note])
        self.choice.observe(lambda _: self.refresh(), names="value")

    def refresh(self) -> None:
        """Mark the changes for the answer on show (a panel calls this after each answer)."""
        chosen = self.choice.value
        if chosen is None or chosen == self.OFF_VALUE:
            self.mark(None)
            self.note.value = ""
            return
        keyword, value = chosen
        if self.current().get(keyword) == value:
            self.mark(None)
            self.note.value = "<i>that is the reading on show</i>"
            return
        changed = self.mark({keyword: value})
        self.note.value = "" if changed else "<b>the readings agree here</b>"


class Presets:
    """A menu of worked examples: choosing one calls ``apply(values)`` with its control values."""

    CHOOSE = "choose a worked example…"

    def __init__(
        self,
        presets: Mapping[str, Mapping[str, object]],
        apply: Callable[[Mapping[str, object]], None],
    ) -> None:
        self.presets = presets
        self.menu = widgets.Dropdown(
            options=[self.CHOOSE, *presets],
            description="worked example",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"),
        )

        def chosen(change: dict[str, Any]) -> None:
            if change["new"] in presets:
                apply(presets[change["new"]])

        self.menu.observe(chosen, names="value")
        self.widget = self.menu

    def follow(self, name: str, control: widgets.ValueWidget) -> None:
        """Watch ``control`` (called ``name`` in the presets): once the reader sets it to a
        value the chosen example does not give it, the menu no longer names that example."""

        def changed(change: dict[str, Any]) -> None:
            example = self.presets.get(self.menu.value)
            if example is not None and name in example and example[name] != change["new"]:
                self.menu.value = self.CHOOSE

        control.observe(changed, names="value")
