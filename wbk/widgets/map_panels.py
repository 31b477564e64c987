"""Panels on a drawn map: ``MapPanel``, whose boxes of hex labels a click or typing fills, and
which saves and reopens its situation as an edge case (the map inline), and ``map_canvas``, the
map on its own ipympl canvas. A chapter's map panel subclasses ``MapPanel`` and says what to
show in ``show``."""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, cast

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.draw.maps import MapView, figure_size, map_axes
from wbk.errors import WbkError
from wbk.explain import count
from wbk.hexgrid import Hex
from wbk.maps import HexMap
from wbk.widgets.edge_cases import (
    checked_text,
    checked_toml,
    public_name,
    set_settings,
    toml_block,
    toml_value,
)
from wbk.widgets.files import LIVE_ONLY
from wbk.widgets.panel import Panel, interactive_figure, reports_errors

__all__ = ["MapPanel", "map_canvas"]


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

    #: The map panels of this kernel (a notebook's, or one page's of the app), which a map
    #: editor's "Use this map in the panels" hands its map to.
    live: ClassVar[weakref.WeakSet[MapPanel]] = weakref.WeakSet()

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
        #: the row of the extra controls, where notes beside them go (empty without any)
        self.control_row = widgets.HBox(list(controls), layout=widgets.Layout(flex_flow="row wrap"))
        if controls:
            rows.append(self.control_row)
        if len(boxes) > 1:
            rows.append(self.click_sets)
        save_case = widgets.Button(
            description="Save edge case", tooltip="the map, the hexes and the settings, as TOML"
        )
        save_case.on_click(lambda _: self.save_edge_case())
        self.picture_row.children = (*self.picture_row.children, save_case)
        self.widget = widgets.VBox([*rows, self.message, self.canvas, self.picture_row, self.pane])
        MapPanel.live.add(self)

    def use_map(self, m: HexMap) -> None:
        """Answer on ``m`` from now on (a map editor's, or one it loaded): the same hexes and
        settings, the map drawn again (on new axes if its hexes differ)."""
        if list(m) == list(self.map):
            self.view.show_contents(m)
        else:
            self.figure.clear()
            self.view = MapView(m, map_axes(self.figure))
        self.map = m
        self.update()

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
            f"panel = {toml_value(public_name(type(self)))}",
            "",
            "[hexes]",
        ]
        lines += [f"{name} = {toml_value(box.value.strip())}" for name, box in self.boxes.items()]
        lines += ["", "[settings]"] + [f"{k} = {toml_value(v)}" for k, v in settings.items()]
        text = "\n".join(lines) + f"\n\n[map]\ntoml = {toml_block(self.map.to_toml())}\n"
        return text + self.compare_toml()

    @classmethod
    def from_edge_case(cls, text: str, source: str) -> MapPanel:
        """The panel showing an edge case that ``edge_case`` wrote: the map it carries, the
        hexes in the panel's boxes, its declared settings (see ``wbk.widgets.edge_cases``)."""
        from wbk.datafile import parse_toml

        data = parse_toml(text, source)
        for key in ("hexes", "settings", "map"):
            if not isinstance(data.get(key), dict):
                raise WbkError(f"{source}: [{key}]: missing")
        keys = {"panel", "hexes", "settings", "map", "compare"}
        if set(data) - keys:
            key = sorted(set(data) - keys)[0]
            raise WbkError(
                f"{source}: {key}: unknown key (expected panel, hexes, settings, map, compare)"
            )
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
        panel.set_compare(data.get("compare"), source)
        return panel

    def situation_words(self) -> list[str]:
        """A file's default name says the hexes on show: "los-1712-2014"."""
        return [box.value.strip() for box in getattr(self, "boxes", {}).values()]

    @reports_errors(beside="save_line")
    def save_edge_case(self, path: str | None = None) -> str:
        """Save the situation on show (``edge_case``) to a TOML file, beside the picture: by
        default the picture file's name with .toml; ``load_edge_case`` reads it back."""
        from wbk.datafile import write_atomically

        chosen = self._chosen_path(path, ".toml")
        if chosen.suffix in (".png", ".svg"):
            chosen = chosen.with_suffix(".toml")
        if chosen.suffix != ".toml":
            raise WbkError(f"edge case file {chosen.name!r} should end in .toml")
        if not chosen.parent.is_dir():
            raise WbkError(
                f"cannot save the edge case to {chosen}: there is no folder {chosen.parent}"
            )
        replaced = self.replacing(chosen)
        write_atomically(chosen, self.edge_case(), "edge case")
        self.written.add(chosen)
        return f"saved the edge case to {chosen}{replaced}"

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
