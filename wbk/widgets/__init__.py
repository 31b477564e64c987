"""Widget panels for the notebooks: the presentation face of wbk.

Panels hold a drawn map (an ipympl canvas, so clicks select hexes and overlays redraw cheaply)
and a few controls. Every callback reports bad input as a one-line message naming the bad value;
no callback lets a traceback reach the notebook.
"""

from __future__ import annotations

import base64
import functools
import html
import importlib
import inspect
import io
import os
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, overload

import ipywidgets as widgets
import matplotlib
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

from wbk.charts import bar_chart
from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html
from wbk.hexgrid import Hex, Trace, rounded_line, trace
from wbk.maps import HexMap
from wbk.plot import Z_LABELS, MapView, figure_size, hex_polygons, map_axes
from wbk.widgets.edge_cases import (
    EDGE_CASE_KINDS,
    checked_text,
    checked_toml,
    has_edge_cases,
    set_settings,
    toml_block,
    toml_value,
)
from wbk.widgets.files import LIVE_ONLY, PANELS_ENV, FileInput, in_app

if TYPE_CHECKING:
    from wbk.widgets.steps import CompareReadings, Presets, StepControl

T = TypeVar("T")


def interactive_figure(
    size: tuple[float, float],
    *,
    layout: Literal["constrained", "compressed", "tight"] | None = "constrained",
) -> tuple[Figure, widgets.DOMWidget]:
    """A matplotlib figure on its own ipympl canvas, whatever the notebook's backend is."""
    # Importing ipympl switches the whole notebook to its backend; switch back, so that the
    # worked examples keep drawing inline figures that a static page shows.
    backend = matplotlib.get_backend()
    from ipympl.backend_nbagg import Canvas, FigureManager

    matplotlib.use(backend)
    figure = Figure(figsize=size, layout=layout)
    canvas = Canvas(figure)
    FigureManager(canvas, 0)
    canvas.header_visible = False
    canvas.toolbar_visible = False
    canvas.footer_visible = False
    _canvases.add(canvas)
    return figure, canvas


#: Every ipympl canvas a panel draws on, while it lives (for ``paint_ahead``).
_canvases: weakref.WeakSet = weakref.WeakSet()


def paint_ahead() -> None:
    """Give every live panel canvas its picture as it stands now, as an image the browser paints
    the moment the page's widgets arrive, before the kernel has drawn anything for it.

    The app (``make app``) calls this in a kernel that ran the chapter before any reader came:
    ipympl draws only when a page asks, so without it each canvas stays blank until the kernel
    has drawn every picture of the chapter again for the reader who just came."""
    for canvas in list(_canvases):
        figure = canvas.figure
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi="figure")
        canvas._data_url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
        canvas._size = canvas.get_width_height()  # the PNG's own size, in pixels


STALE = "<p><i>Out of date: fix the input above to see the answer again.</i></p>"
#: Where a panel's pictures go unless told otherwise: the user's folder, not the workbook's.
PICTURES = Path("~/wbk-pictures")
NOT_RUN = "An interactive panel: run the notebook (Run > Run All Cells) to use it."
LIVE_NOTE = (
    "A snapshot of an interactive panel. To explore it, open this chapter in JupyterLab "
    "(make lab) or in the app (make app) and run it."
)
#: The message line's height, kept even when it is empty, so a message never moves the picture.
MESSAGE_HEIGHT = "28px"
ERROR_COLOUR = "#b03a2e"
#: The dimmed answer of a panel that is out of date (see ``Panel.mark_stale``).
_DIMMED = '<div style="opacity:0.45">'


def load_edge_case(path: str | os.PathLike[str]) -> Panel:
    """The panel an edge case describes, showing it again: a TOML file that "Save edge case"
    wrote, or a PNG that "Save picture" wrote (it carries its edge case inside). See
    ``edge_case_panel``: the file may come from a stranger."""
    from wbk.datafile import read_text
    from wbk.pictures import read_edge_case

    source = str(path)
    text = read_edge_case(path) if source.lower().endswith(".png") else read_text(path, "edge case")
    return edge_case_panel(text, source)


def edge_case_panel(text: str, source: str) -> Panel:
    """The panel an edge case's TOML ``text`` describes (``source`` names it in messages).

    Its first line names the panel: one of the kinds registered with ``has_edge_cases`` or
    ``chart_edge_cases`` (nothing else is imported or called), whose ``from_edge_case(text,
    source)`` reads the rest: settings the panel declares, checked as typed input, and its files
    inline. Anything else is a ``WbkError`` in one line (``wbk.widgets.edge_cases``)."""
    from wbk.datafile import parse_toml

    data = parse_toml(text, source)
    named = data.get("panel")
    if not isinstance(named, str):
        raise WbkError(f"{source}: panel: missing (the first line names the panel)")
    module_name, _, class_name = named.rpartition(".")
    kind = None
    if module_name == "wbk.widgets" or module_name.startswith("wbk.widgets."):
        try:
            kind = getattr(importlib.import_module(module_name), class_name, None)
        except ImportError:
            kind = None
    if kind is None or kind not in EDGE_CASE_KINDS:
        raise WbkError(f"{source}: panel: {named!r} is not one of wbk's panels with edge cases")
    return kind.from_edge_case(text, source)


def _looks_like_path(text: str) -> bool:
    """Whether a box holds a file path (of the reader's machine: not for a static page)."""
    text = text.strip()
    return (
        text.startswith(("/", "~", "\\"))
        or "/" in text
        or "\\" in text
        or (len(text) > 2 and text[1] == ":" and text[0].isalpha())
    )


def shown_value(control: widgets.Widget) -> str:
    """A control's value as its reader sees it: the label of the option chosen ("none" for an
    empty choice of several), "yes" or "no" for a switch, else the value as text."""
    value = control.value
    if hasattr(control, "options"):
        label = getattr(control, "label", None)
        if isinstance(label, tuple):
            return ", ".join(label) or "none"
        if label is not None:
            return str(label)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def _control_values(widget: widgets.Widget) -> list[tuple[str, str]]:
    """(label, value) of every control in a widget tree, in the order they are laid out; a box
    holding a file path (the reader's own folders) is left out."""
    if LIVE_ONLY in getattr(widget, "_dom_classes", ()):
        return []  # a live-only box: nothing in it means anything on a static page
    found = []
    for child in getattr(widget, "children", ()):
        found += _control_values(child)
    if isinstance(widget, (widgets.HTML, widgets.Button)) or not hasattr(widget, "value"):
        return found
    label = getattr(widget, "description", "") or getattr(widget, "placeholder", "")
    if not label:
        return found
    if isinstance(widget.value, str) and _looks_like_path(widget.value):
        return found
    return [*found, (label, shown_value(widget))]


def _png_base64(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _and(names: Sequence[str]) -> str:
    """The names quoted and listed: '"a"', '"a" and "b"', '"a", "b" and "c"'."""
    quoted = [f'"{name}"' for name in names]
    return " and ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)


Method = TypeVar("Method", bound=Callable[..., Any])


@overload
def reports_errors(method: Method, /) -> Method: ...
@overload
def reports_errors(
    method: None = None, /, *, stale: bool = True, input: str | None = None
) -> Callable[[Method], Method]: ...
def reports_errors(
    method: Callable[..., Any] | None = None,
    /,
    *,
    stale: bool = True,
    input: str | None = None,
) -> Any:
    """Turn an exception in a widget callback into the panel's one-line message.

    - ``input="tank name"``: the callback reads that input; an error marks the input bad (the
      panel out of date, the message line naming it) until the callback next succeeds.
    - by default (``stale=True``): an error marks the panel out of date until this callback
      next succeeds, its message shown without a name.
    - ``stale=False`` (saving, loading: callbacks that change no answer): an error is a passing
      message; the answer on show stays as it is.
    """
    if method is None:
        return functools.partial(reports_errors, stale=stale, input=input)
    name = method.__name__

    @functools.wraps(method)
    def guarded(self: Panel, *args: Any, **kwargs: Any) -> Any:
        # trying the callback again forgets its last failure: it is either gone or set again
        if input is not None:
            self.bad_inputs.pop(input, None)
        elif stale:
            self.failed_callbacks.pop(name, None)
        try:
            result = method(self, *args, **kwargs)
        except WbkError as e:
            message = str(e)
        except Exception as e:  # a widget must never print a traceback into the notebook
            message = f"unexpected {type(e).__name__}: {e}"
        else:
            if name == "update":
                self.stale = False  # an update that ran draws the answer afresh
            self.settle()
            return result
        if input is not None:
            self.set_bad(input, message)
        elif stale:
            self.failed_callbacks[name] = message
            self.note = ("", False)
            self.settle()
        else:
            self.show_message(message)
        return None

    return guarded


class Panel:
    """Common frame of the panels: a message line, saving the picture, Jupyter display of
    ``self.widget``, and what is out of date.

    A panel is out of date exactly while an input is bad (``set_bad`` / ``clear_bad``, or a
    callback decorated ``@reports_errors(input=...)``) or a callback that changes the answer
    failed (``@reports_errors``); the message line names each, and ``mark_stale`` dims the
    answer. ``show_message(text)`` and ``show_done(text)`` give a passing message (an error, a
    success) in the same line, each replacing the last.
    """

    #: The rule the panel's picture illustrates, named in the caption of a saved picture.
    rule: str = ""
    #: Whether the panel's pane lists its answer's steps already (then a static snapshot does
    #: not list them again under it).
    pane_lists_steps: bool = False

    def __init__(self) -> None:
        self.message = widgets.HTML(layout=widgets.Layout(min_height=MESSAGE_HEIGHT))
        #: input name -> what is wrong with it, for each bad input
        self.bad_inputs: dict[str, str] = {}
        #: callback name -> its error, for each failed callback that changes the answer
        self.failed_callbacks: dict[str, str] = {}
        #: the passing message: its text, and whether it is an error
        self.note: tuple[str, bool] = ("", False)
        #: whether the answer on show is dimmed as out of date
        self.stale = False
        self.picture_path = widgets.Text(
            "",
            description="save to",
            # written from "~": a page or a snapshot names no user's folder; in the app, where
            # the picture is a download, no folder at all
            placeholder="" if in_app() else str(PICTURES / "picture.png"),
            style={"description_width": "initial"},
            layout=widgets.Layout(width="360px"),
        )
        self.picture_path.add_class(LIVE_ONLY)
        save = widgets.Button(
            description="Save picture",
            tooltip="PNG or SVG, by the file's suffix; a PNG carries its settings too "
            "(wbk.widgets.load_edge_case opens it again)",
        )
        save.on_click(lambda _: self.save_picture())
        self.picture_row = widgets.HBox([self.picture_path, save])

    # --- the widget and its settings --------------------------------------------------------

    @property
    def widget(self) -> widgets.Widget:
        """The panel's whole widget tree, as a notebook displays it."""
        return self._widget

    @widget.setter
    def widget(self, value: widgets.Widget) -> None:
        self._widget = value
        if not hasattr(self, "defaults"):  # the first layout: the settings as the panel starts
            #: each setting control's value when the panel was made (by id of the control)
            self.defaults = {id(c): c.value for c in self.setting_controls()}

    def setting_controls(self) -> list[widgets.Widget]:
        """The controls the picture depends on besides its hexes or pieces (readings, blocking
        terrain, options): ``self.controls``, if the panel has it. A saved picture's caption
        names those not at their starting values."""
        controls = getattr(self, "controls", ())
        return list(controls.values() if isinstance(controls, dict) else controls)

    def changed_settings(self) -> list[tuple[str, str]]:
        """(label, value) of each setting that differs from how the panel started."""
        defaults = getattr(self, "defaults", {})
        return [
            (c.description or "setting", shown_value(c))
            for c in self.setting_controls()
            if id(c) in defaults and c.value != defaults[id(c)]
        ]

    def caption(self) -> str:
        """The small print under a saved picture: the rule it illustrates and every setting that
        differs from the panel's defaults ("" for a panel with neither)."""
        parts = [f"Rule: {self.rule}."] if self.rule else []
        changed = self.changed_settings()
        if changed:
            listed = "; ".join(f"{label}: {value}" for label, value in changed)
            parts.append(f"Settings unlike the defaults: {listed}.")
        elif self.setting_controls():
            parts.append("All settings at their defaults.")
        return " ".join(parts)

    def edge_case_text(self) -> str | None:
        """The situation on show as TOML (the panel's ``edge_case()``, which a map panel has and
        ``load_edge_case`` reads), or None for a panel without one."""
        edge_case = getattr(self, "edge_case", None)
        return edge_case() if callable(edge_case) else None

    # --- messages and what is out of date ---------------------------------------------------

    @property
    def is_out_of_date(self) -> bool:
        """Whether some input is bad, or a callback that changes the answer failed."""
        return bool(self.bad_inputs or self.failed_callbacks)

    def set_bad(self, name: str, message: str) -> None:
        """Input ``name`` is bad: say so (``message`` names the value and what was expected)
        and mark the answer out of date until ``clear_bad(name)``."""
        self.bad_inputs[name] = message
        self.note = ("", False)  # a success message must not stay beside a new error
        self.settle()

    def clear_bad(self, name: str) -> None:
        """Input ``name`` is good again; once nothing is bad, the panel shows the answer again
        (it calls ``update``, if it has one and the answer was dimmed)."""
        if self.bad_inputs.pop(name, None) is not None:
            self.settle()

    def read_input(self, name: str, read: Callable[[], T]) -> T | None:
        """``read()``'s value, input ``name`` marked good; or None, the input marked bad with
        the ``WbkError`` that ``read`` raised. For use inside a callback decorated with
        ``reports_errors``, which shows the outcome when it returns."""
        try:
            value = read()
        except WbkError as e:
            self.bad_inputs[name] = str(e)
            self.note = ("", False)
            return None
        self.bad_inputs.pop(name, None)
        return value

    def settle(self) -> None:
        """Show the message line for the panel's state, and dim the answer while it is out of
        date, or bring it back when it no longer is."""
        self.render_message()
        if self.is_out_of_date:
            self.mark_stale()
        elif self.stale:
            self.stale = False
            update = getattr(self, "update", None)
            if callable(update):
                update()

    def render_message(self) -> None:
        errors = [f"{name}: {text}" for name, text in self.bad_inputs.items()]
        errors += list(self.failed_callbacks.values())
        text, is_error = self.note
        # one line, whatever an exception's text holds
        errors, text = [" ".join(e.split()) for e in errors], " ".join(text.split())
        spans = [
            f'<span style="color:{ERROR_COLOUR}">{html.escape(e, quote=False)}</span>'
            for e in errors
        ]
        if text:
            style = f' style="color:{ERROR_COLOUR}"' if is_error else ""
            spans.append(f"<span{style}>{html.escape(text, quote=False)}</span>")
        self.message.value = "; ".join(spans)

    def show_message(self, text: str) -> None:
        """A passing error message ("" clears the passing message); the bad inputs stay named."""
        self.note = (text, bool(text))
        self.render_message()

    def show_done(self, text: str) -> None:
        """A passing success message ("saved the picture to ..."), replacing the last one."""
        self.note = (text, False)
        self.render_message()

    def stale_names(self) -> list[str]:
        return list(self.bad_inputs)

    def stale_title(self) -> str:
        """The picture's title while the panel is out of date."""
        names = self.stale_names()
        return (
            f"Out of date: fix {_and(names)} above" if names else "Out of date: fix the input above"
        )

    def mark_stale(self) -> None:
        """While out of date: say that what is on show no longer answers the controls, and which
        inputs are bad. Subclasses also dim their picture."""
        self.stale = True
        pane = getattr(self, "pane", None)
        if pane is None:
            return
        if not pane.value.startswith(_DIMMED):
            self._answer_html = pane.value
        names = self.stale_names()
        if names:
            bad = "is" if len(names) == 1 else "are"
            them = "it" if len(names) == 1 else "them"
            listed = html.escape(_and(names), quote=False)
            note = (
                f"<p><i>Out of date while {listed} {bad} bad: fix {them} above "
                "to see the answer again.</i></p>"
            )
        else:
            note = STALE
        pane.value = f"{_DIMMED}{note}{getattr(self, '_answer_html', '')}</div>"

    # --- pictures ---------------------------------------------------------------------------

    @reports_errors(stale=False)
    def save_picture(self, path: str | None = None) -> None:
        """Save the panel's picture (title, answer, legend, and a caption naming the rule and
        the settings unlike the defaults) as PNG or SVG; a PNG also carries the edge case, so
        that ``load_edge_case`` opens it again."""
        from wbk.pictures import save_picture

        chosen = self._chosen_path(path)
        written = save_picture(
            self.figures()[0], chosen, caption=self.caption(), edge_case=self.edge_case_text()
        )
        self.show_done(f"saved the picture to {written}")

    def picture_bytes(self, suffix: str = ".png") -> bytes:
        """The panel's picture as "Save picture" writes it (caption included, and a PNG's edge
        case), for a file that goes elsewhere: a download from the app, say."""
        from wbk.pictures import picture_bytes

        return picture_bytes(
            self.figures()[0], suffix, caption=self.caption(), edge_case=self.edge_case_text()
        )

    def _chosen_path(self, path: str | None) -> Path:
        """The file typed (or given), else the default, whose folder is made if need be; any
        other folder must exist."""
        chosen = Path(path or self.picture_path.value.strip() or PICTURES / "picture.png")
        chosen = chosen.expanduser()
        folder = PICTURES.expanduser()
        if chosen.parent == folder:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise WbkError(f"cannot make the folder {folder}: {e.strerror}") from None
        return chosen

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        if os.environ.get(PANELS_ENV) == "static":
            return {"text/html": self.static_html(), "text/plain": NOT_RUN}
        if os.environ.get(PANELS_ENV) == "app":  # saves download, map panels copy a link
            from wbk.widgets.app import serve

            serve(self)
        bundle = self.widget._repr_mimebundle_(**kwargs)
        # what a stored notebook shows before its cells are run, instead of "VBox(children=..."
        if isinstance(bundle, dict) and "text/plain" in bundle:
            bundle["text/plain"] = NOT_RUN
        return bundle

    def controls_text(self) -> list[str]:
        """The panel's controls as "label: value", as a reader of a static page sees them."""
        return [
            f"{html.escape(label)}: {html.escape(value)}"
            for label, value in _control_values(self.widget)
        ]

    def figures(self) -> list[Figure]:
        """The pictures the panel draws."""
        figure = getattr(self, "figure", None)
        return [figure] if figure is not None else []

    def static_html(self) -> str:
        """A snapshot of the panel as it stands, for a page with no kernel behind it: its
        controls as "label: value", its pictures, its message and its text pane, and how to
        explore it live."""
        parts = ['<div class="wbk-panel-snapshot">']
        controls = self.controls_text()
        if controls:
            parts.append(f'<p class="wbk-controls">{" · ".join(controls)}</p>')
        if self.message.value:
            parts.append(f"<p>{self.message.value}</p>")
        for figure in self.figures():
            title = " ".join(  # the alt text: the question and its answer, on one line
                " ".join(ax.get_title().split()) for ax in figure.axes if ax.get_title()
            )
            parts.append(
                f'<img src="data:image/png;base64,{_png_base64(figure)}" '
                f'alt="{html.escape(title)}" style="max-width:100%">'
            )
        pane = getattr(self, "pane", None)
        if pane is not None and pane.value:
            parts.append(f"<div>{pane.value}</div>")
        step_control = getattr(self, "step_control", None)
        if step_control is not None and step_control.steps and not self.pane_lists_steps:
            parts.append(f"<div><b>Step by step</b>{steps_html(step_control.steps)}</div>")
        parts.append(f"<p><i>{LIVE_NOTE}</i></p></div>")
        return "".join(parts)

    # --- teaching: step through, compare readings, worked examples (issue 19) ----------------

    def _place(self, part: widgets.Widget, *, before: widgets.Widget | None) -> None:
        """Lay ``part`` into the panel's outer box just before ``before`` (at the end if it is
        not there)."""
        children = list(self.widget.children)
        at = children.index(before) if before in children else len(children)
        self.widget.children = (*children[:at], part, *children[at:])

    def add_step_control(self, draw_at_step: Callable[[int], None] | None = None) -> StepControl:
        """Give the panel a step control under its picture and return it; the panel hands it
        each new answer's steps with ``show_steps(result.steps)`` at the end of ``show``.
        ``draw_at_step(k)`` draws the picture at step k; a map panel's default marks the step on
        its map (``wbk.pictures.show_step``), the last step being the whole answer."""
        from wbk.widgets.steps import KEYS_CLASS, StepControl

        self.step_control = StepControl(draw_at_step or self._draw_map_step)
        self.step_control.widget.add_class(LIVE_ONLY)
        self.widget.add_class(KEYS_CLASS)  # the arrow keys step while focus is in the panel
        self._place(self.step_control.widget, before=self.picture_row)
        return self.step_control

    def show_steps(self, steps: Sequence[Step]) -> None:
        """A new answer, drawn whole: its steps listed, the last (the verdict) on show."""
        view = getattr(self, "view", None)
        self._answer_title = view.title() if isinstance(view, MapView) else ""
        self.step_control.set_steps(steps)

    def _draw_map_step(self, k: int) -> None:
        from wbk.pictures import clear_step, show_step

        view: MapView = getattr(self, "view")  # noqa: B009 (a map panel's)
        if self.step_control.at_answer:
            clear_step(view)
            view.set_title(self._answer_title)
        else:
            show_step(view, self.step_control.steps, k)
        view.redraw()

    def add_compare_readings(
        self,
        readings: Mapping[str, Mapping[str, str]],
        mark: Callable[[dict[str, str] | None], bool],
        current: Callable[[], Mapping[str, str]],
        questions: Mapping[str, str] | None = None,
    ) -> CompareReadings:
        """A "compare with" menu of the other values of ``readings`` (keyword -> value -> words,
        as a rules module declares them), laid above the message line. ``mark(other)`` marks on
        the picture what changes under ``other`` ({keyword: value}) and says whether anything
        does (None: take the marks off); ``current()`` gives the readings on show;
        ``questions`` (keyword -> words) names the readings as their controls do. The panel
        calls ``refresh()`` on the returned control after each answer."""
        from wbk.widgets.steps import CompareReadings

        self.compare_readings = CompareReadings(readings, mark, current, questions)
        self.compare_readings.widget.add_class(LIVE_ONLY)
        self._place(self.compare_readings.widget, before=self.message)
        return self.compare_readings

    def add_presets(self, presets: Mapping[str, Mapping[str, object]]) -> Presets:
        """A menu of the rules' worked examples at the panel's top: each a name and the values
        it gives the panel's controls (a hex box by its name, another control by the panel's
        attribute), e.g. ``{"9.4 example 1: 1913 -> 1716": {"firer": "1913", "target": "1716"}}``.
        """
        from wbk.widgets.steps import Presets

        self.presets = Presets(presets, self.apply_preset)
        self.presets.widget.add_class(LIVE_ONLY)
        for name in {name for example in presets.values() for name in example}:
            control = self._preset_control(name)
            if isinstance(control, widgets.ValueWidget):
                self.presets.follow(name, control)
        self._place(self.presets.widget, before=self.widget.children[0])
        return self.presets

    def _preset_control(self, name: str) -> object:
        """The control a worked example calls ``name``: a hex box, a chart panel's named
        control, or the panel's attribute."""
        for named in (getattr(self, "boxes", None), getattr(self, "controls", None)):
            if isinstance(named, Mapping) and name in named:
                return named[name]
        return getattr(self, name, None)

    @reports_errors
    def apply_preset(self, values: Mapping[str, object]) -> None:
        """Set the controls to ``values`` (see ``add_presets``); each change updates the
        answer as if the reader had made it."""
        for name, value in values.items():
            control = self._preset_control(name)
            if not isinstance(control, widgets.ValueWidget):
                raise WbkError(f"worked example: the panel has no control {name!r}")
            control.value = value


def map_canvas(
    m: HexMap, width: float, on_click: Callable
) -> tuple[Figure, widgets.DOMWidget, MapView]:
    """A map drawn on its own ipympl canvas, ``on_click(event)`` called for each mouse click."""
    figure, canvas = interactive_figure(figure_size(m, width), layout=None)
    view = MapView(m, map_axes(figure))
    canvas.mpl_connect("button_press_event", on_click)
    return figure, canvas, view


class MapPanel(Panel):
    """A drawn map (an ipympl canvas) with boxes of hex labels that typing or a click fills,
    extra controls, and an HTML pane below. Subclasses say what to show in ``show(**hexes)``."""

    def __init__(
        self,
        m: HexMap,
        boxes: dict[str, str],
        controls: Sequence[widgets.Widget] = (),
        *,
        width: float = 6.0,
    ):
        super().__init__()
        self.map = m
        self.boxes = {
            name: widgets.Text(value=v, description=name, continuous_update=False)
            for name, v in boxes.items()
        }
        # clicks alternate between the boxes: firer, then target, then firer again...
        self.click_sets = widgets.ToggleButtons(
            options=list(boxes),
            description="next click sets",
            style={"description_width": "initial"},
        )
        self.click_sets.add_class(LIVE_ONLY)
        self.pane = widgets.HTML()
        self.controls = list(controls)
        self.figure, self.canvas, self.view = map_canvas(m, width, self.on_click)
        for control in (*self.boxes.values(), *controls):
            control.observe(lambda _: self.update(), names="value")
        rows = [widgets.HBox(list(self.boxes.values()))]
        if controls:
            rows.append(widgets.HBox(list(controls), layout=widgets.Layout(flex_flow="row wrap")))
        if len(boxes) > 1:
            rows.append(self.click_sets)
        save_case = widgets.Button(
            description="Save edge case", tooltip="the map, the hexes and the settings, as TOML"
        )
        save_case.on_click(lambda _: self.save_edge_case())
        self.picture_row.children = (*self.picture_row.children, save_case)
        self.widget = widgets.VBox([*rows, self.message, self.canvas, self.picture_row, self.pane])

    def edge_case_settings(self) -> dict[str, widgets.Widget]:
        """The settings an edge case of the panel saves and may set, by name: the controls the
        panel was given that it keeps as attributes (readings, blocking terrain, options)."""
        names = {id(w): name for name, w in vars(self).items() if isinstance(w, widgets.Widget)}
        return {names[id(c)]: c for c in self.controls if id(c) in names}

    def edge_case(self) -> str:
        """The situation on show as TOML (the panel, its hexes, its settings and the map), so
        that ``load_edge_case`` brings back the same picture."""
        settings = {name: c.value for name, c in self.edge_case_settings().items()}
        lines = [
            f"panel = {toml_value(f'{type(self).__module__}.{type(self).__qualname__}')}",
            "",
            "[hexes]",
        ]
        lines += [f"{name} = {toml_value(box.value.strip())}" for name, box in self.boxes.items()]
        lines += ["", "[settings]"] + [f"{k} = {toml_value(v)}" for k, v in settings.items()]
        return "\n".join(lines) + f"\n\n[map]\ntoml = {toml_block(self.map.to_toml())}\n"

    @classmethod
    def from_edge_case(cls, text: str, source: str) -> MapPanel:
        """The panel showing an edge case that ``edge_case`` wrote: the map it carries, the
        hexes in the panel's boxes, its declared settings (see ``wbk.widgets.edge_cases``)."""
        from wbk.datafile import parse_toml

        data = parse_toml(text, source)
        for key in ("hexes", "settings", "map"):
            if not isinstance(data.get(key), dict):
                raise WbkError(f"{source}: [{key}]: missing")
        if set(data) - {"panel", "hexes", "settings", "map"}:
            key = sorted(set(data) - {"panel", "hexes", "settings", "map"})[0]
            raise WbkError(f"{source}: {key}: unknown key (expected panel, hexes, settings, map)")
        m = HexMap.from_toml(
            checked_toml(data["map"].get("toml"), f"{source}: [map] toml"),
            source=f"{source} [map]",
        )
        hexes = {
            name: checked_text(label, f"{source}: [hexes] {name}")
            for name, label in data["hexes"].items()
        }
        wanted = [
            p.name
            for p in list(inspect.signature(cls).parameters.values())[1:]
            if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty
        ]
        if len(hexes) != len(wanted):
            raise WbkError(
                f"{source}: [hexes]: {', '.join(hexes) or 'none'} (the panel takes "
                f"{count(len(wanted), 'hex', 'hexes')})"
            )
        panel = cast(Any, cls)(m, *hexes.values())  # a subclass takes its hexes' labels
        if list(hexes) != list(panel.boxes):
            raise WbkError(f"{source}: [hexes]: expected {', '.join(panel.boxes)}")
        set_settings(panel.edge_case_settings(), data["settings"], source)
        return panel

    @reports_errors(stale=False)
    def save_edge_case(self, path: str | None = None) -> None:
        """Save the situation on show (``edge_case``) to a TOML file, beside the picture: by
        default the picture file's name with .toml; ``load_edge_case`` reads it back."""
        from wbk.datafile import write_atomically

        chosen = self._chosen_path(path)
        if chosen.suffix in (".png", ".svg"):
            chosen = chosen.with_suffix(".toml")
        if chosen.suffix != ".toml":
            raise WbkError(f"edge case file {chosen.name!r} should end in .toml")
        if not chosen.parent.is_dir():
            raise WbkError(
                f"cannot save the edge case to {chosen}: there is no folder {chosen.parent}"
            )
        write_atomically(chosen, self.edge_case(), "edge case")
        self.show_done(f"saved the edge case to {chosen}")

    @reports_errors
    def on_click(self, event: Any) -> None:
        h = self.view.hex_at(event.xdata, event.ydata)
        if h is None:
            self.show_message("that click is off the map")
            return
        names = list(self.boxes)
        chosen = self.click_sets.value
        self.click_sets.value = names[(names.index(chosen) + 1) % len(names)]
        self.boxes[chosen].value = self.map.label(h)

    @reports_errors
    def update(self) -> None:
        """Read every hex box (each bad one named), then draw the answer."""

        def reader(box: widgets.Text) -> Callable[[], Hex]:
            return lambda: self.map.hex(box.value.strip())

        hexes = {name: self.read_input(name, reader(box)) for name, box in self.boxes.items()}
        if any(name in self.bad_inputs for name in self.boxes):
            return
        with self.view.holding_redraws():
            self.pane.value = self.show(**{name: h for name, h in hexes.items() if h is not None})
        self.view.redraw()
        self.show_message("")

    def mark_stale(self) -> None:
        super().mark_stale()
        self.view.clear()
        self.view.set_title(self.stale_title())
        self.view.redraw()

    def show(self, *args: Any, **hexes: Any) -> str:
        """Draw the overlays for the chosen hexes (given by the boxes' names, each a ``Hex``),
        title the picture with its answer, and return the pane's HTML. A subclass names its
        boxes: ``show(self, firer: Hex, target: Hex)``."""
        raise NotImplementedError


@has_edge_cases
class TracePanel(MapPanel):
    """Pick two hexes (type their labels, or click the map) and see the exact trace drawn and
    listed.

    A click sets the end chosen in "click sets"; typed labels are checked against the map.
    """

    rule = "wbk's exact line between hex centres (chapter 00); geometry only, no game's rule"
    pane_lists_steps = True

    def __init__(self, m: HexMap, start: str, end: str, *, width: float = 6.0):
        self.ghost = widgets.Checkbox(
            value=False,
            description="ghost: the rounded float line",
            tooltip="the hexes of the usual method (points along the line rounded to hexes): "
            "where it parts from the exact line",
            style={"description_width": "initial"},
        )
        super().__init__(m, {"from": start, "to": end}, [self.ghost], width=width)
        self.ghost_outlines = PolyCollection(
            [], facecolor="none", edgecolor="#1a1a1a", linestyle=(0, (2, 2))
        )
        self.view.ax.add_collection(self.ghost_outlines)
        self.ghost_outlines.set_linewidth(1.6)
        # under the hex labels, which stay readable through it
        self.ghost_outlines.set_zorder(Z_LABELS - 0.5)
        self.step_control = self.add_step_control()
        self.update()

    def show(self, **hexes: Hex) -> str:
        from wbk.hexgrid import trace_steps
        from wbk.pictures import trace_title

        tr = trace(hexes["from"], hexes["to"])
        self.view.show_trace(tr)
        # the distance beside the hexes passed: a line along hexsides passes fewer hexes than
        # its distance, a zig-zag more, and a reader should not take one for the other
        self.view.set_title(trace_title(self.map, tr))
        self.show_steps(trace_steps(tr, self.map.label))
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.map.describe(tr))
        return f"<ol>{items}</ol>{self.show_ghost(tr)}"

    def show_ghost(self, tr: Trace) -> str:
        """With the ghost on: outline the rounded float line's hexes (dashed) and say where it
        parts from the exact line; the pane's HTML."""
        if not self.ghost.value:
            self.ghost_outlines.set_verts([])
            self.view.set_overlay_legend("ghost", {})
            return ""
        naive = rounded_line(tr.a, tr.b)
        self.ghost_outlines.set_verts(list(hex_polygons(naive, 0.8)))
        self.view.set_overlay_legend(
            "ghost", {"the rounded float line's hexes": self.ghost_outlines}
        )
        label = self.map.label
        only_naive = [label(h) for h in naive if h not in tr.hexes]
        only_exact = [label(h) for h in tr.hexes if h not in naive]
        if not only_naive and not only_exact:
            return "<p>The rounded float line passes the same hexes as the exact line here.</p>"
        why = (
            "where the exact line runs along a hexside or through a corner, rounding picks a side"
            if tr.along or tr.touched
            else "it takes one hex for each hex of distance, and the exact line passes more"
        )
        passes = _and(only_naive).replace('"', "") if only_naive else "no other hex"
        misses = _and(only_exact).replace('"', "") if only_exact else "no hex of it"
        return (
            f"<p>The rounded float line parts from the exact line: it passes {html.escape(passes)} "
            f"and misses {html.escape(misses)} ({why}).</p>"
        )


def typed(text: str, name: str) -> str:
    """What a box holds, no longer than ``LONGEST_TYPED`` (checked before it is read)."""
    return checked_text(text, name)


def parse_whole_numbers(text: str, name: str) -> list[int]:
    """Whole numbers typed as "5, 5, 3" (or with spaces); an empty box is an empty list."""
    typed(text, name)
    numbers = []
    for part in text.replace(",", " ").split():
        try:
            numbers.append(int(part))
        except ValueError:
            raise WbkError(f"{part!r} in {name} is not a whole number") from None
    return numbers


def parse_optional_number(text: str, name: str) -> int | None:
    """A whole number typed in a box, or None for an empty box."""
    text = typed(text, name).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise WbkError(f"{name} {text!r} is not a whole number") from None


class ChartPanel(Panel):
    """Controls, a chart and an HTML pane below it, redrawn whenever a control changes.

    ``compute(**values)`` turns the control values into a result and may raise ``WbkError``
    (shown as the panel's message, the last good chart staying up); ``draw(figure, result)``
    draws the result on the cleared figure and returns the HTML for the pane.

    Controls are given as ``ipywidgets.interact`` abbreviates them: ``(0, 30)`` a slider,
    ``["open", "woods"]`` a dropdown, ``True`` a checkbox, or a ready widget.
    """

    def __init__(
        self,
        compute: Callable[..., Any],
        draw: Callable[[Figure, Any], str],
        /,
        *,
        size: tuple[float, float] = (6.0, 3.4),
        rule: str = "",
        **controls: Any,
    ):
        super().__init__()
        self.compute, self.draw = compute, draw
        if rule:
            self.rule = rule
        self.controls = {
            name: widgets.interactive.widget_from_abbrev(abbrev)
            for name, abbrev in controls.items()
        }
        for name, control in self.controls.items():
            control.description = control.description or name.replace("_", " ")
            control.style = {"description_width": "initial"}
            control.observe(lambda _: self.update(), names="value")
        self.figure, self.canvas = interactive_figure(size)
        self.pane = widgets.HTML()
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap")
                ),
                self.message,
                self.canvas,
                self.picture_row,
                self.pane,
            ]
        )
        self.update()

    @reports_errors
    def update(self) -> None:
        result = self.compute(**{name: control.value for name, control in self.controls.items()})
        self.figure.clear()
        self.pane.value = self.draw(self.figure, result)
        self.canvas.draw_idle()
        self.show_message("")

    def mark_stale(self) -> None:
        super().mark_stale()
        self.figure.suptitle(self.stale_title(), color=ERROR_COLOUR, fontsize=10)
        for ax in self.figure.axes:
            for artist in (*ax.patches, *ax.lines, *ax.collections):
                artist.set_alpha(0.25)
        self.canvas.draw_idle()


class DistPanel(ChartPanel):
    """Controls for the parameters of ``procedure`` and, live, the bar chart and exact table of
    the distribution it returns.

    >>> from wbk.dice import d6
    >>> panel = DistPanel(lambda dice, need: dice @ (d6 >= need), dice=(1, 20), need=(2, 6))
    >>> panel.controls["dice"].value, panel.pane.value.count("<tr>")
    (10, 12)
    """

    def __init__(self, procedure: Callable[..., Dist], /, *, title: str | None = None, **controls):
        def compute(**values) -> Dist:
            dist = procedure(**values)
            if not isinstance(dist, Dist):
                raise WbkError(f"the procedure gave {type(dist).__name__}, not a Dist")
            return dist

        def draw(figure: Figure, dist: Dist) -> str:
            bar_chart(dist, ax=figure.add_subplot(), title=title)
            return dist._repr_html_()

        super().__init__(compute, draw, **controls)


def chart_edge_cases(make: Callable[[], ChartPanel]) -> Callable[[], ChartPanel]:
    """Decorate a function (of no arguments) that makes a chart panel, so that its panels have
    an edge case: the function's name, every control's value as TOML, and each file a
    ``FileInput`` control holds, inline. A saved PNG then carries it, and ``load_edge_case``
    calls the function and sets the controls again (each checked as a reader's choice)."""
    name = f"{make.__module__}.{make.__qualname__}"

    @functools.wraps(make)
    def made() -> ChartPanel:
        chart = make()

        def edge_case() -> str:
            lines = [f"panel = {toml_value(name)}", "", "[settings]"]
            files = []
            for key, control in chart.controls.items():
                if not isinstance(control, FileInput):
                    lines.append(f"{key} = {toml_value(control.value)}")
                    continue
                try:
                    text, _ = control.text()
                except WbkError:
                    continue  # no file, or one the panel says it cannot read: none to carry
                files += [
                    "",
                    f"[files.{key}]",
                    f"name = {toml_value(Path(control.value).name)}",
                    f"toml = {toml_block(text)}",
                ]
            return "\n".join(lines + files) + "\n"

        # an attribute of these charts only: a panel without one has no "Save edge case"
        setattr(chart, "edge_case", edge_case)  # noqa: B010
        return chart

    def from_edge_case(text: str, source: str) -> ChartPanel:
        from wbk.datafile import parse_toml

        data = parse_toml(text, source)
        if set(data) - {"panel", "settings", "files"}:
            key = sorted(set(data) - {"panel", "settings", "files"})[0]
            raise WbkError(f"{source}: {key}: unknown key (expected panel, settings, files)")
        chart = made()
        files = {k: c for k, c in chart.controls.items() if isinstance(c, FileInput)}
        given = data.get("files", {})
        if not isinstance(given, dict):
            raise WbkError(f"{source}: [files]: {given!r} is not a table of files")
        for key, file in given.items():
            if key not in files or not isinstance(file, dict):
                raise WbkError(f"{source}: [files] {key}: the panel reads no such file")
            where = f"{source}: [files.{key}]"
            files[key].carry(
                checked_text(file.get("name", key), f"{where} name"),
                checked_toml(file.get("toml"), f"{where} toml"),
            )
        declared = {k: c for k, c in chart.controls.items() if k not in files}
        set_settings(declared, data.get("settings", {}), source)
        return chart

    setattr(made, "from_edge_case", from_edge_case)  # noqa: B010
    return has_edge_cases(made)
