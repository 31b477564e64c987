"""The SS Panzer chapter's map editor (``MapEditor``): paint terrain, hexside features and
victory stars, save and load the map, and hand it to the chapter's map panels."""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets

from wbk.draw.maps import MapView, map_axes
from wbk.errors import WbkError
from wbk.explain import count
from wbk.hexgrid import Hex, Hexside
from wbk.maps import HexMap
from wbk.widgets import MapPanel, Panel, map_canvas, reports_errors
from wbk.widgets.files import FileRow

BRUSH_SLOPE = "slope (uphill: the clicked hex)"
BRUSH_STREAM = "stream"
BRUSH_CLEAR = "clear the hex"
BRUSH_STAR = "star (victory hex)"


def default_map_path(m: HexMap) -> Path:
    """Where the editor saves unless told otherwise: a folder of the user's, never the
    workbook's own notebooks/ folder."""
    slug = "".join(c if c.isalnum() else "_" for c in m.name.lower()).strip("_") or "map"
    return Path.home() / "wbk-maps" / f"{slug}_edited.toml"


class MapEditor(Panel):
    """Paint terrain, hexside features and victory stars by clicking; undo; name the map; save
    it as TOML and load a map file.

    A terrain brush toggles that terrain in the clicked hex; "clear the hex" removes all of it.
    Hexside brushes act on the hexside nearest the click (click inside the hex, near its side):
    a slope is made uphill on the clicked hex's side; clicking again removes it. The star brush
    toggles a victory star. The map's notes (its file's head comments: what is illustrative)
    are kept. ``editor.map`` is the edited map; "Use this map in the panels" hands it (edited
    or loaded) to every map panel of the chapter (``MapPanel.use_map``).
    """

    def __init__(self, m: HexMap, path: str | None = None, *, width: float = 6.0):
        terrain = sorted(set(m.terrain_hexes) | {"woods", "town", "trench"})
        self.brush = widgets.Dropdown(
            options=[*terrain, BRUSH_CLEAR, BRUSH_SLOPE, BRUSH_STREAM, BRUSH_STAR],
            description="brush",
        )
        self.name = widgets.Text(
            f"{m.name} (edited)", description="map name", continuous_update=False
        )
        self.file = FileRow(
            "map",
            Path(path) if path else default_map_path(m),
            load=self.load,
            save=self.save,
            width="420px",
            makes_folder=path is None,
        )
        undo = widgets.Button(description="Undo", layout=widgets.Layout(width="70px"))
        undo.on_click(lambda _: self.undo())
        use = widgets.Button(
            description="Use this map in the panels",
            tooltip="the line of sight, movement and other map panels of this chapter",
            layout=widgets.Layout(width="auto"),
        )
        use.on_click(lambda _: self.use_in_panels())
        super().__init__()
        self.map = m
        self.history: list[HexMap] = []
        self.pane = widgets.HTML()
        self.figure, self.canvas, self.view = map_canvas(m, width, self.on_click)
        self.view.set_title(f"{m.name}: choose a brush and click the map")
        rows = [
            widgets.HBox([self.brush, self.name], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox(
                [*self.file.parts, undo, use], layout=widgets.Layout(flex_flow="row wrap")
            ),
        ]
        self.widget = widgets.VBox([*rows, self.message, self.canvas, self.picture_row, self.pane])

    @reports_errors
    def on_click(self, event) -> None:
        x, y = event.xdata, event.ydata
        h = self.view.hex_at(x, y)
        if h is None:
            self.show_message("that click is off the map")
            return
        self.paint(h, self.view.hexside_at(x, y))

    def paint(self, h: Hex, side: Hexside | None) -> None:
        """Apply the brush to hex ``h`` (and to ``side``, the hexside clicked near, if any)."""
        brush, m = self.brush.value, self.map
        if brush in (BRUSH_SLOPE, BRUSH_STREAM):
            if side is None:
                raise WbkError(
                    f"click nearer a side of {m.label(h)} to paint a {brush.split()[0]} hexside"
                )
            feature = brush.split()[0]
            present = feature not in m.features(side)
            edited = m.with_feature(
                side, feature, present=present, uphill=h if feature == "slope" else None
            )
            done = f"{'added' if present else 'removed'} {feature} on {m.label(side)}"
        elif brush == BRUSH_STAR:
            present = h not in m.markers("star")
            edited = m.with_marker(h, "star", present=present)
            done = f"{'added' if present else 'removed'} the star in {m.label(h)}"
        elif brush == BRUSH_CLEAR:
            edited = m.with_terrain(h, ())
            done = f"cleared {m.label(h)}"
        else:
            present = brush not in m.terrain(h)
            edited = m.with_terrain(
                h, m.terrain(h) | {brush} if present else m.terrain(h) - {brush}
            )
            done = f"{'added' if present else 'removed'} {brush} in {m.label(h)}"
        self.history.append(m)
        self.show(edited, done)

    def show(self, m: HexMap, done: str) -> None:
        self.map = m
        self.view.show_contents(m)
        self.view.set_title(f"{m.name}: {done}")
        self.view.redraw()
        self.show_message("")
        self.pane.value = html.escape(done, quote=False)

    @reports_errors(stale=False)
    def use_in_panels(self) -> None:
        """Every map panel of the chapter answers on the editor's map from now on."""
        named = self.map.with_name(self.name.value.strip() or self.map.name)
        panels = list(MapPanel.live)
        for panel in panels:
            panel.use_map(named)
        self.pane.value = html.escape(
            f"{named.name!r} is now the map of the chapter's "
            f"{count(len(panels), 'map panel', 'map panels')}",
            quote=False,
        )

    @reports_errors(stale=False)
    def undo(self) -> None:
        if not self.history:
            raise WbkError("nothing to undo")
        self.show(self.history.pop(), "undid the last change")

    @reports_errors(beside="file.note")
    def save(self) -> str:
        """Save the edited map, under the name typed, to the file chosen (a download in the
        app); the words beside the button say where."""
        named = self.map.with_name(self.name.value.strip())
        where = self.file.write(named.to_toml(), default_map_path(named).name)
        self.map = named
        return f"saved {named.name!r} ({len(named)} hexes) {where}"

    @reports_errors(beside="file.note", working="loading…")
    def load(self) -> str:
        """Open the map in the file chosen (typed in JupyterLab, uploaded in the app)."""
        text, source, _ = self.file.read()
        loaded = HexMap.from_toml(text, source=source)
        if list(loaded) != list(self.map):
            self.figure.clear()
            self.view = MapView(loaded, map_axes(self.figure))
        self.history.append(self.map)
        self.name.value = loaded.name
        self.show(loaded, f"loaded {source}")
        return f"loaded {loaded.name!r} from {source}"
