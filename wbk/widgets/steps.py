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

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from wbk.errors import WbkError
from wbk.explain import Step
from wbk.widgets.edge_cases import checked_text, toml_value
from wbk.widgets.readings import fitting_width

__all__ = ["KEYS_CLASS", "CompareReadings", "Presets", "StepControl", "StepKeys"]

#: The class of a panel's outer box that the arrow keys step while focus is inside it.
KEYS_CLASS = "wbk-step-keys"

#: Listens on the panel's outer box (made focusable) and sends "previous" or "next" for the
#: arrow keys, except while the reader types in a box or moves through another list (which use
#: them). The list of steps is the step control's own: there too the keys step, and never reach
#: JupyterLab, whose arrow keys would move the cell selection (issue 30).
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
      const steps = event.target.closest && event.target.closest(".wbk-steps");
      if (tag === "input" || tag === "textarea") return;
      if (tag === "select" && !steps) return;
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


#: The steps as a numbered list whose lines wrap (a native list box cuts a long step off at its
#: right edge), the step on show highlighted; a click on a line sends its index.
_LIST_ESM = """
function render({ model, el }) {
  const list = document.createElement("ol");
  list.className = "wbk-step-list";
  list.tabIndex = -1;  // focused by a click, so that the arrow keys step on from there
  el.appendChild(list);
  const mark = () => [...list.children].forEach(
    (line, k) => line.classList.toggle("wbk-step-on", k === model.get("index")));
  const fill = () => {
    list.replaceChildren(...model.get("items").map((words, k) => {
      const line = document.createElement("li");
      line.textContent = words;  // text, never markup
      line.addEventListener("click", () => {
        model.set("index", k);
        model.save_changes();
        list.focus();
      });
      return line;
    }));
    mark();
  };
  model.on("change:items", fill);
  model.on("change:index", mark);  // the lines stay, and the focus with them
  fill();
}
export default { render };
"""
_LIST_CSS = """
.wbk-step-list { margin: 2px 0; padding-left: 2.2em; max-height: 12em; overflow-y: auto; }
.wbk-step-list li { cursor: pointer; white-space: normal; overflow-wrap: anywhere; }
.wbk-step-list li.wbk-step-on { background: #dbeaf7; font-weight: bold; }
"""


class StepList(anywidget.AnyWidget):
    """The steps of an answer as a numbered list of wrapped lines (``items``), ``index`` the one
    on show; a click on a line sets ``index``."""

    _esm = traitlets.Unicode(_LIST_ESM).tag(sync=True)
    _css = traitlets.Unicode(_LIST_CSS).tag(sync=True)
    items = traitlets.List(traitlets.Unicode()).tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)


class StepControl:
    """Previous / Next, "step k of n", the steps as a list of lines (the current one
    highlighted; a click jumps to it) and the arrow keys. ``draw(k)`` draws the picture at step
    ``k``."""

    def __init__(self, draw: Callable[[int], None]) -> None:
        self.draw = draw
        self.steps: tuple[Step, ...] = ()
        self.index = 0
        self.previous = widgets.Button(description="◀ Previous", tooltip="the step before")
        self.next = widgets.Button(description="Next ▶", tooltip="the step after")
        self.label = widgets.HTML()
        self.lines = StepList(layout=widgets.Layout(width="98%"))
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
            self.lines.items = [f"{s.text} ({s.rule})" for s in self.steps]
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


def option_words(question: str, words: str) -> str:
    """A "compare with" option: the reading's question and the value's words ("slope hexes:
    only slope hexsides block"), or the words alone where they begin with the question already
    ("a shaken HQ stays, its tanks may move", not "a shaken HQ: a shaken HQ stays ...")."""
    if words.casefold().startswith(question.casefold()):
        return words
    return f"{question}: {words}"


def fit_to_choice(menu: widgets.Dropdown, description: str) -> None:
    """Keep ``menu`` as wide as the words it shows. A native select is as wide as its longest
    option, and a menu of long readings or worked examples would push a panel's rows past
    JupyterLab's page; fitted to the choice, nothing shown is cut and a short choice leaves
    the row its room."""

    def fit(_: object = None) -> None:
        menu.layout.width = fitting_width([menu.label or ""], description)

    menu.observe(fit, names="value")
    fit()


class CompareReadings:
    """ "compare with": another value of one of the panel's readings. ``mark(other)`` marks on
    the picture what changes under ``other`` ({keyword: value}) and returns whether anything
    does; ``mark(None)`` takes the marks off. ``current()`` gives the readings on show.
    ``questions`` names each reading in words ("slope hexes"), as its control does; a reading
    without one is named by its keyword in words ("natural six")."""

    OFF = "nothing"
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
            (option_words(named[keyword], words), (keyword, value))
            for keyword, values in readings.items()
            for value, words in values.items()
        ]
        self.choice = widgets.Dropdown(
            options=options,
            description="compare with",
            style={"description_width": "initial"},
            layout=widgets.Layout(width=fitting_width([self.OFF], "compare with")),
        )
        self.note = widgets.HTML()
        self.widget = widgets.HBox([self.choice, self.note])
        self.choice.observe(lambda _: self.refresh(), names="value")
        fit_to_choice(self.choice, "compare with")

    def toml(self) -> str:
        """The reading compared with, as the ``[compare]`` table an edge case ends with ("" for
        none): a link and a saved case bring it back (``choose``)."""
        if self.choice.value in (None, self.OFF_VALUE):
            return ""
        keyword, value = self.choice.value
        return f"\n[compare]\nreading = {toml_value(keyword)}\nvalue = {toml_value(value)}\n"

    def choose(self, given: object, source: str) -> None:
        """Compare with the reading an edge case's ``[compare]`` table names, checked against
        the menu (a case may come from a stranger)."""
        if not isinstance(given, dict) or set(given) != {"reading", "value"}:
            raise WbkError(f"{source}: [compare]: expected reading and value")
        chosen = (given["reading"], given["value"])
        offered = [value for _, value in self.choice.options if value != self.OFF_VALUE]
        if chosen not in offered:
            listed = ", ".join(f"{k}={v}" for k, v in offered)
            said = "=".join(checked_text(str(part), f"{source}: [compare]") for part in chosen)
            raise WbkError(f"{source}: [compare]: {said} is not one of {listed}")
        self.choice.value = chosen

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
            layout=widgets.Layout(width=fitting_width([self.CHOOSE], "worked example")),
        )
        fit_to_choice(self.menu, "worked example")

        def chosen(change: dict[str, Any]) -> None:
            if change["new"] in presets:
                apply(presets[change["new"]])

        self.menu.observe(chosen, names="value")
        #: beside the menu: what the example chosen changed
        self.note = widgets.HTML()
        self._applying = False
        self.widget = widgets.HBox([self.menu, self.note])
        self.widget.layout.align_items = "center"
        self.widget.layout.flex_flow = "row wrap"

    def set_controls(
        self,
        values: Mapping[str, object],
        control_named: Callable[[str], object],
        shown: Callable[[widgets.Widget], str],
    ) -> None:
        """Set each control (``control_named(name)``) to its value in ``values``, then say
        beside the menu what changed, a switch or a choice included (issue 30: a worked example
        unticked the blocking terrain without a word); ``shown(control)`` says a value."""
        said = []
        self._applying = True
        try:
            for name, value in values.items():
                control = control_named(name)
                if not isinstance(control, widgets.ValueWidget):
                    raise WbkError(f"worked example: the panel has no control {name!r}")
                before = control.value
                control.value = value
                if control.value != before:
                    words = getattr(control, "description", "") or name
                    said.append(f"{words}: {shown(control)}")
        finally:
            self._applying = False
        self.say_set(said)

    def say_set(self, changed: Sequence[str]) -> None:
        """Say beside the menu what the worked example changed ("label: value" each)."""
        if not changed:
            chosen = self.menu.value in self.presets
            self.note.value = "<i>it changed no setting</i>" if chosen else ""
            return
        listed = html.escape("; ".join(changed), quote=False)
        self.note.value = f'<span style="font-size:smaller">set {listed}</span>'

    def follow(self, name: str, control: widgets.ValueWidget) -> None:
        """Watch ``control`` (called ``name`` in the presets): once the reader sets it to a
        value the chosen example does not give it, the menu no longer names that example."""

        def changed(change: dict[str, Any]) -> None:
            if self._applying:
                return
            self.note.value = ""  # what the example set no longer all stands
            example = self.presets.get(self.menu.value)
            if example is not None and name in example and example[name] != change["new"]:
                self.menu.value = self.CHOOSE

        control.observe(changed, names="value")
