"""Widget panels for the notebooks: the presentation face of wbk.

Panels hold a drawn map (an ipympl canvas, so clicks select hexes and overlays redraw cheaply)
and a few controls. Every callback reports bad input as a one-line message naming the bad value;
no callback lets a traceback reach the notebook.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets
import matplotlib
from matplotlib.figure import Figure

from wbk.charts import bar_chart
from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.hexgrid import Hex, trace
from wbk.maps import HexMap
from wbk.plot import MapView, figure_size, map_axes


def interactive_figure(size: tuple[float, float], *, layout: str | None = "constrained") -> tuple[Figure, widgets.DOMWidget]:
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
    return figure, canvas


STALE = "<p><i>Out of date: fix the input above to see the answer again.</i></p>"
NOT_RUN = "An interactive panel: run the notebook (Run > Run All Cells) to use it."


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
        self.mark_stale()

    return guarded


class Panel:
    """Common frame of the panels: a message line and Jupyter display of ``self.widget``."""

    widget: widgets.Widget

    def __init__(self):
        self.message = widgets.HTML()

    def show_message(self, text: str) -> None:
        self.message.value = f'<span style="color:#b03a2e">{html.escape(text, quote=False)}</span>' if text else ""

    def mark_stale(self) -> None:
        """After bad input: say that what is on show no longer answers the controls."""
        pane = getattr(self, "pane", None)
        if pane is not None and STALE not in pane.value:
            pane.value = f'<div style="opacity:0.45">{STALE}{pane.value}</div>'

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        # what a stored notebook shows before its cells are run, instead of "VBox(children=..."
        if isinstance(bundle, dict) and "text/plain" in bundle:
            bundle["text/plain"] = NOT_RUN
        return bundle


def map_canvas(m: HexMap, width: float, on_click: Callable) -> tuple[Figure, widgets.DOMWidget, MapView]:
    """A map drawn on its own ipympl canvas, ``on_click(event)`` called for each mouse click."""
    figure, canvas = interactive_figure(figure_size(m, width), layout=None)
    view = MapView(m, map_axes(figure))
    canvas.mpl_connect("button_press_event", on_click)
    return figure, canvas, view


class MapPanel(Panel):
    """A drawn map (an ipympl canvas) with boxes of hex labels that typing or a click fills,
    extra controls, and an HTML pane below. Subclasses say what to show in ``show(**hexes)``."""

    def __init__(self, m: HexMap, boxes: dict[str, str], controls: Sequence[widgets.Widget] = (), *, width: float = 6.0):
        super().__init__()
        self.map = m
        self.boxes = {name: widgets.Text(value=v, description=name, continuous_update=False) for name, v in boxes.items()}
        # clicks alternate between the boxes: firer, then target, then firer again...
        self.click_sets = widgets.ToggleButtons(options=list(boxes), description="next click sets",
                                                style={"description_width": "initial"})
        self.pane = widgets.HTML()
        self.figure, self.canvas, self.view = map_canvas(m, width, self.on_click)
        for control in (*self.boxes.values(), *controls):
            control.observe(lambda _: self.update(), names="value")
        rows = [widgets.HBox(list(self.boxes.values()))]
        if controls:
            rows.append(widgets.HBox(list(controls), layout=widgets.Layout(flex_flow="row wrap")))
        if len(boxes) > 1:
            rows.append(self.click_sets)
        self.widget = widgets.VBox([*rows, self.message, self.canvas, self.pane])

    @reports_errors
    def on_click(self, event) -> None:
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
        hexes = {name: self.map.hex(box.value.strip()) for name, box in self.boxes.items()}
        self.pane.value = self.show(**hexes)
        self.view.redraw()
        self.show_message("")

    def mark_stale(self) -> None:
        super().mark_stale()
        self.view.clear()
        self.view.set_title("Out of date: fix the input above")
        self.view.redraw()

    def show(self, **hexes: Hex) -> str:
        """Draw the overlays for the chosen hexes, title the picture with its answer, and return
        the pane's HTML."""
        raise NotImplementedError


class TracePanel(MapPanel):
    """Pick two hexes (type their labels, or click the map) and see the exact trace drawn and listed.

    A click sets the end chosen in "click sets"; typed labels are checked against the map.
    """

    def __init__(self, m: HexMap, start: str, end: str, *, width: float = 6.0):
        super().__init__(m, {"from": start, "to": end}, width=width)
        self.update()

    def show(self, **hexes: Hex) -> str:
        tr = trace(hexes["from"], hexes["to"])
        self.view.show_trace(tr)
        parts = [_count(len(tr.hexes), "hex", "hexes"), _count(len(tr.crossed), "hexside crossed", "hexsides crossed")]
        if tr.along:
            parts.append(_count(len(tr.along), "hexside run along", "hexsides run along"))
        if tr.touched:
            parts.append(_count(len(tr.touched), "corner", "corners"))
        self.view.set_title(f"{self.map.label(tr.a)} → {self.map.label(tr.b)}: {', '.join(parts)}")
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.map.describe(tr))
        return f"<ol>{items}</ol>"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


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

    def mark_stale(self) -> None:
        super().mark_stale()
        self.figure.suptitle("Out of date: fix the input above", color="#b03a2e", fontsize=10)
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
