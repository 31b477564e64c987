"""Widget panels for the notebooks: the presentation face of wbk.

Panels hold a drawn map (an ipympl canvas, so clicks select hexes and overlays redraw cheaply)
and a few controls. Every callback reports bad input as a one-line message naming the bad value;
no callback lets a traceback reach the notebook.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable

import ipywidgets as widgets
import matplotlib
from matplotlib.figure import Figure

from wbk.charts import bar_chart
from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.hexgrid import Hex, trace
from wbk.maps import HexMap
from wbk.plot import MapView, figure_size


def interactive_figure(size: tuple[float, float]) -> tuple[Figure, widgets.DOMWidget]:
    """A matplotlib figure on its own ipympl canvas, whatever the notebook's backend is."""
    # Importing ipympl switches the whole notebook to its backend; switch back, so that the
    # worked examples keep drawing inline figures that a static page shows.
    backend = matplotlib.get_backend()
    from ipympl.backend_nbagg import Canvas, FigureManager

    matplotlib.use(backend)
    figure = Figure(figsize=size, layout="constrained")
    canvas = Canvas(figure)
    FigureManager(canvas, 0)
    canvas.header_visible = False
    canvas.toolbar_visible = False
    canvas.footer_visible = False
    return figure, canvas


def reports_errors(method):
    """Turn an exception in a widget callback into the panel's one-line message."""

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except WbkError as e:
            self.show_message(str(e))
        except Exception as e:  # a widget must never print a traceback into the notebook
            self.show_message(f"unexpected {type(e).__name__}: {e}")

    return guarded


class Panel:
    """Common frame of the panels: a message line and Jupyter display of ``self.widget``."""

    widget: widgets.Widget

    def __init__(self):
        self.message = widgets.HTML()

    def show_message(self, text: str) -> None:
        self.message.value = f'<span style="color:#b03a2e">{html.escape(text, quote=False)}</span>' if text else ""

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


class TracePanel(Panel):
    """Pick two hexes (type their labels, or click the map) and see the exact trace drawn and listed.

    A click sets the end chosen in "click sets"; typed labels are checked against the map.
    """

    def __init__(self, m: HexMap, start: str, end: str, *, width: float = 7.5):
        super().__init__()
        self.map = m
        self.start_box = widgets.Text(value=start, description="From", continuous_update=False)
        self.end_box = widgets.Text(value=end, description="To", continuous_update=False)
        self.click_sets = widgets.ToggleButtons(options=["From", "To"], description="Click sets")
        self.listing = widgets.HTML()
        self.figure, self.canvas = interactive_figure(figure_size(m, width))
        self.view = MapView(m, self.figure.add_subplot())
        self.canvas.mpl_connect("button_press_event", self.on_click)
        for box in (self.start_box, self.end_box):
            box.observe(lambda _: self.update(), names="value")
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.start_box, self.end_box]),
                self.click_sets,
                self.message,
                self.canvas,
                self.listing,
            ]
        )
        self.update()

    @reports_errors
    def on_click(self, event) -> None:
        h = self.view.hex_at(event.xdata, event.ydata)
        if h is None:
            self.show_message("that click is off the map")
            return
        box = self.start_box if self.click_sets.value == "From" else self.end_box
        box.value = self.map.label(h)

    @reports_errors
    def update(self) -> None:
        start = self.map.hex(self.start_box.value.strip())
        end = self.map.hex(self.end_box.value.strip())
        self.select(start, end)

    def select(self, start: Hex, end: Hex) -> None:
        tr = trace(start, end)
        self.view.show_trace(tr)
        self.view.redraw()
        self.show_message("")
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.map.describe(tr))
        self.listing.value = f"<ol>{items}</ol>"


def parse_whole_numbers(text: str, name: str) -> list[int]:
    """Whole numbers typed as "5, 5, 3" (or with spaces); an empty box is an empty list."""
    numbers = []
    for part in text.replace(",", " ").split():
        try:
            numbers.append(int(part))
        except ValueError:
            raise WbkError(f"{part!r} in {name} is not a whole number") from None
    return numbers


def parse_optional_number(text: str, name: str) -> int | None:
    """A whole number typed in a box, or None for an empty box."""
    text = text.strip()
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
        compute: Callable[..., object],
        draw: Callable[[Figure, object], str],
        /,
        *,
        size: tuple[float, float] = (6.0, 3.4),
        **controls,
    ):
        super().__init__()
        self.compute, self.draw = compute, draw
        self.controls = {name: widgets.interactive.widget_from_abbrev(abbrev) for name, abbrev in controls.items()}
        for name, control in self.controls.items():
            control.description = control.description or name.replace("_", " ")
            control.style = {"description_width": "initial"}
            control.observe(lambda _: self.update(), names="value")
        self.figure, self.canvas = interactive_figure(size)
        self.pane = widgets.HTML()
        self.widget = widgets.VBox(
            [
                widgets.HBox(list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap")),
                self.message,
                self.canvas,
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
