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
import io
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import ipywidgets as widgets
import matplotlib
from matplotlib.figure import Figure

from wbk.charts import bar_chart
from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.explain import count
from wbk.hexgrid import Hex, trace
from wbk.maps import HexMap
from wbk.plot import MapView, figure_size, map_axes


def interactive_figure(
    size: tuple[float, float], *, layout: str | None = "constrained"
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
    return figure, canvas


STALE = "<p><i>Out of date: fix the input above to see the answer again.</i></p>"
#: Where a panel's pictures go unless told otherwise: the user's folder, not the workbook's.
PICTURES = Path.home() / "wbk-pictures"
NOT_RUN = "An interactive panel: run the notebook (Run > Run All Cells) to use it."
LIVE_NOTE = (
    "A snapshot of an interactive panel. To explore it, open this chapter in JupyterLab "
    "(make lab) or in the app (make app) and run it."
)
#: The class of controls that mean nothing on a static page (which end the next click sets).
LIVE_ONLY = "wbk-live-only"
#: Set to "static" (as ``make site`` does) to show every panel as a snapshot, not a live widget.
PANELS_ENV = "WBK_PANELS"


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def load_edge_case(path: str | os.PathLike) -> MapPanel:
    """The panel an edge case file describes (see ``MapPanel.edge_case``), showing it again. A
    panel class with a ``from_edge_case(text, source)`` reads its own kind of file, which names
    the panel on its first line."""
    from wbk.datafile import parse_toml, read_text

    source = str(path)
    text = read_text(path, "edge case")
    data = parse_toml(text, source)
    if "panel" not in data:
        raise WbkError(f"{source}: panel: missing")
    module_name, _, class_name = str(data["panel"]).rpartition(".")
    if not module_name.startswith("wbk.widgets"):
        raise WbkError(f"{source}: panel: {data['panel']!r} is not one of wbk's panels")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError):
        raise WbkError(f"{source}: panel: no panel called {data['panel']!r}") from None
    if hasattr(cls, "from_edge_case"):  # a panel whose situation is more than hexes and settings
        return cls.from_edge_case(text, source)
    for key in ("hexes", "settings", "map"):
        if key not in data:
            raise WbkError(f"{source}: {key}: missing")
    m = HexMap.from_toml(data["map"].get("toml", ""), source=f"{source} [map]")
    panel = cls(m, *data["hexes"].values())
    for name, value in data["settings"].items():
        control = getattr(panel, name, None)
        if not isinstance(control, widgets.Widget):
            raise WbkError(f"{source}: [settings] {name}: the panel has no such setting")
        control.value = tuple(value) if isinstance(value, list) else value
    return panel


def _control_values(widget) -> list[tuple[str, str]]:
    """(label, value) of every control in a widget tree, in the order they are laid out."""
    found = []
    for child in getattr(widget, "children", ()):
        found += _control_values(child)
    if isinstance(widget, (widgets.HTML, widgets.Button)) or not hasattr(widget, "value"):
        return found
    if LIVE_ONLY in getattr(widget, "_dom_classes", ()):
        return found
    label = getattr(widget, "description", "") or getattr(widget, "placeholder", "")
    if not label:
        return found
    if isinstance(widget, widgets.Checkbox):
        return [*found, (label, "yes" if widget.value else "no")]
    shown = getattr(widget, "label", None) if hasattr(widget, "options") else None
    if isinstance(shown, tuple):
        shown = ", ".join(shown) or "none"
    return [*found, (label, str(shown if shown is not None else widget.value))]


def _png_base64(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def reports_errors(method=None, *, stale: bool = True):
    """Turn an exception in a widget callback into the panel's one-line message, and mark the
    answer on show out of date (``stale=False`` for callbacks, like saving, that change no
    answer)."""
    if method is None:
        return functools.partial(reports_errors, stale=stale)

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except WbkError as e:
            self.show_message(str(e))
        except Exception as e:  # a widget must never print a traceback into the notebook
            self.show_message(f"unexpected {type(e).__name__}: {e}")
        if stale:
            self.mark_stale()

    return guarded


class Panel:
    """Common frame of the panels: a message line and Jupyter display of ``self.widget``."""

    widget: widgets.Widget

    def __init__(self):
        self.message = widgets.HTML()
        self.picture_path = widgets.Text(
            "",
            description="save to",
            placeholder=str(PICTURES / "picture.png"),
            style={"description_width": "initial"},
            layout=widgets.Layout(width="360px"),
        )
        self.picture_path.add_class(LIVE_ONLY)
        save = widgets.Button(
            description="Save picture", tooltip="PNG or SVG, by the file's suffix"
        )
        save.on_click(lambda _: self.save_picture())
        self.picture_row = widgets.HBox([self.picture_path, save])

    @reports_errors(stale=False)
    def save_picture(self, path: str | None = None) -> None:
        """Save the panel's picture (title, answer and legend included) as PNG or SVG."""
        from wbk.pictures import save_picture

        chosen = path or self.picture_path.value.strip() or self.picture_path.placeholder
        written = save_picture(self.figures()[0], chosen)
        self.show_message("")
        self.message.value = f"<span>saved the picture to {html.escape(str(written))}</span>"

    def show_message(self, text: str) -> None:
        self.message.value = (
            f'<span style="color:#b03a2e">{html.escape(text, quote=False)}</span>' if text else ""
        )

    def mark_stale(self) -> None:
        """After bad input: say that what is on show no longer answers the controls."""
        pane = getattr(self, "pane", None)
        if pane is not None and STALE not in pane.value:
            pane.value = f'<div style="opacity:0.45">{STALE}{pane.value}</div>'

    def _repr_mimebundle_(self, **kwargs):
        if os.environ.get(PANELS_ENV) == "static":
            return {"text/html": self.static_html(), "text/plain": NOT_RUN}
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
        """A snapshot of the panel as it stands, for a page with no kernel behind it: its controls
        as "label: value", its pictures, its message and its text pane, and how to explore it live."""
        parts = ['<div class="wbk-panel-snapshot">']
        controls = self.controls_text()
        if controls:
            parts.append(f'<p class="wbk-controls">{" · ".join(controls)}</p>')
        if self.message.value:
            parts.append(f"<p>{self.message.value}</p>")
        for figure in self.figures():
            title = " ".join(
                t.get_text() for ax in figure.axes for t in (ax.title,) if t.get_text()
            )
            parts.append(
                f'<img src="data:image/png;base64,{_png_base64(figure)}" alt="{html.escape(title)}" '
                'style="max-width:100%">'
            )
        pane = getattr(self, "pane", None)
        if pane is not None and pane.value:
            parts.append(f"<div>{pane.value}</div>")
        parts.append(f"<p><i>{LIVE_NOTE}</i></p></div>")
        return "".join(parts)


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

    def edge_case(self) -> str:
        """The situation on show as TOML (the panel, its hexes, its settings and the map), so
        that ``load_edge_case`` brings back the same picture."""
        names = {id(w): name for name, w in vars(self).items() if isinstance(w, widgets.Widget)}
        settings = {names[id(c)]: c.value for c in self.controls if id(c) in names}
        lines = [
            f"panel = {_toml_value(f'{type(self).__module__}.{type(self).__qualname__}')}",
            "",
            "[hexes]",
        ]
        lines += [f"{name} = {_toml_value(box.value.strip())}" for name, box in self.boxes.items()]
        lines += ["", "[settings]"] + [f"{k} = {_toml_value(v)}" for k, v in settings.items()]
        # a literal multi-line string keeps the map's own TOML exactly as written
        return "\n".join(lines) + "\n\n[map]\ntoml = '''\n" + self.map.to_toml() + "'''\n"

    @reports_errors(stale=False)
    def save_edge_case(self, path: str | None = None) -> None:
        """Save the situation on show (``edge_case``) to a TOML file (by default the picture
        file's name with .toml); ``load_edge_case`` reads it back."""
        chosen = path or self.picture_path.value.strip() or self.picture_path.placeholder
        path = Path(chosen).expanduser()
        if path.suffix in (".png", ".svg"):
            path = path.with_suffix(".toml")
        if path.suffix != ".toml":
            raise WbkError(f"edge case file {path.name!r} should end in .toml")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.edge_case(), encoding="utf-8")
        except OSError as e:
            raise WbkError(f"cannot save the edge case to {path}: {e.strerror}") from None
        self.message.value = f"<span>saved the edge case to {html.escape(str(path))}</span>"

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
        parts = [
            count(len(tr.hexes), "hex", "hexes"),
            count(len(tr.crossed), "hexside crossed", "hexsides crossed"),
        ]
        if tr.along:
            parts.append(count(len(tr.along), "hexside run along", "hexsides run along"))
        if tr.touched:
            parts.append(count(len(tr.touched), "corner", "corners"))
        self.view.set_title(f"{self.map.label(tr.a)} → {self.map.label(tr.b)}: {', '.join(parts)}")
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.map.describe(tr))
        return f"<ol>{items}</ol>"


def toml_path(box: widgets.Text) -> Path:
    """The data file a panel's file box names ("~" understood); it must end in .toml."""
    path = Path(box.value.strip()).expanduser()
    if not path.name.endswith(".toml"):
        raise WbkError(f"file name {path.name!r} should end in .toml")
    return path


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
