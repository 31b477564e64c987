"""Drawing hex maps with matplotlib: flat-topped hexes in columns, as printed wargame maps are.

``draw_map(m)`` builds a ``MapView`` once: one ``PolyCollection`` for the hexes, one for the second
terrain type of mixed hexes, one ``LineCollection`` for hexside features, labels and markers.
Overlays (shaded values, a traced line) change colours and the data of a few fixed artists; they
never rebuild the map, so a widget can redraw it cheaply.
"""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Mapping

import matplotlib
import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import Normalize, to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from wbk.errors import WbkError
from wbk.hexgrid import Corner, Hex, Hexside, Trace
from wbk.maps import HexMap

SQRT3 = math.sqrt(3)
CLEAR = "#f4f1e4"
TERRAIN_COLOURS = {
    "woods": "#8fbf6a",
    "forest": "#8fbf6a",
    "town": "#b9b4ad",
    "village": "#b9b4ad",
    "hill": "#d9c08c",
    "hills": "#d9c08c",
    "rough": "#c2a67a",
    "marsh": "#a9c9c4",
    "trench": "#c9a27e",
    "orchard": "#c5dd8e",
    "wheat": "#eadf9a",
}
FEATURE_COLOURS = {"stream": "#3a78c8", "river": "#1f4f99", "slope": "#7a4a1e", "road": "#555555"}
MARKER_SYMBOLS = {"star": "*"}
_FALLBACK = matplotlib.colormaps["tab10"].colors
#: Up to this many hexes, labels are printed in every hex unless asked otherwise.
LABELLED_UP_TO = 600


def center(h: Hex) -> tuple[float, float]:
    """The drawing position of a hex's centre (hex circumradius 1, y grows downwards)."""
    return 1.5 * h.q, SQRT3 * (h.r + h.q / 2)


def hex_at(x: float, y: float) -> Hex:
    """The hex under a drawing position (the inverse of ``center``, rounded to the nearest hex)."""
    q = x / 1.5
    r = y / SQRT3 - q / 2
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(rq, rr)


def corner_point(c: Corner) -> tuple[float, float]:
    xs, ys = zip(*(center(h) for h in c.hexes))
    return sum(xs) / 3, sum(ys) / 3


def hexside_segment(side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
    c1, c2 = side.corners
    return corner_point(c1), corner_point(c2)


def _polygon(h: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
    x, y = center(h)
    return [
        (x + scale * math.cos(math.radians(a)), y + scale * math.sin(math.radians(a)))
        for a in range(0, 360, 60)
    ]


def _colour(name: str, table: Mapping[str, str], order: list[str]) -> str:
    if name in table:
        return table[name]
    return _FALLBACK[order.index(name) % len(_FALLBACK)]


class MapView:
    """A drawn map with overlays that update in place. Build it with ``draw_map``."""

    def __init__(self, m: HexMap, ax, *, labels: bool | None = None):
        self.map, self.ax, self.figure = m, ax, ax.figure
        self.hexes = list(m)
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.faces = PolyCollection([_polygon(h) for h in self.hexes], edgecolors="#7d7668", linewidths=0.6)
        ax.add_collection(self.faces)
        self.second_terrain = PolyCollection([], edgecolors="none")
        ax.add_collection(self.second_terrain)
        self.feature_lines = LineCollection([], linewidths=2.5, zorder=3)
        ax.add_collection(self.feature_lines)
        self.slope_ticks = LineCollection([], colors=FEATURE_COLOURS["slope"], linewidths=1.2, zorder=3)
        ax.add_collection(self.slope_ticks)
        self.marker_lines: list[Line2D] = []
        self.show_contents(m)
        show_labels = len(self.hexes) <= LABELLED_UP_TO if labels is None else labels
        if show_labels:
            size = max(4.0, min(8.0, 700 / max(len(m), 1) ** 0.5 / 3))
            for h in self.hexes:
                x, y = center(h)
                ax.text(x, y - 0.62, m.label(h), ha="center", va="center", fontsize=size, color="#4d4a42")
        self.value_texts: dict[Hex, matplotlib.text.Text] = {}
        self.line = Line2D([], [], color="#c0392b", linewidth=1.8, zorder=6)
        ax.add_line(self.line)
        self.outlines = PolyCollection([], facecolors="none", edgecolors="#c0392b", linewidths=2, zorder=4)
        ax.add_collection(self.outlines)
        self.picked_sides = LineCollection([], colors="#e67e22", linewidths=4, zorder=5, alpha=0.8)
        ax.add_collection(self.picked_sides)
        self.blocking_sides = LineCollection([], colors="#c0392b", linewidths=6, zorder=5)
        ax.add_collection(self.blocking_sides)
        (self.corner_marks,) = ax.plot([], [], "o", color="#e67e22", markersize=5, zorder=7)
        (self.end_marks,) = ax.plot([], [], "o", color="#c0392b", markersize=7, zorder=7)

        xs, ys = zip(*(center(h) for h in self.hexes))
        ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
        ax.set_ylim(max(ys) + 1.2, min(ys) - 1.2)
        ax.set_aspect("equal")
        ax.set_axis_off()
        ax.set_title(m.name, fontsize=10)

    def show_contents(self, m: HexMap) -> None:
        """Show the terrain, hexside features and markers of ``m``, a map of the same extent (an
        edited copy): the artists stay, only their data change. Shading is cleared."""
        if list(m) != self.hexes:
            raise WbkError(f"map {m.name!r} does not have the extent of the drawn map ({self.map.extent})")
        self.map = m
        kinds = sorted(m.terrain_hexes)
        self.terrain_colour = {k: _colour(k, TERRAIN_COLOURS, kinds) for k in kinds}
        self.base_faces = np.array([to_rgba(self._fill(h)) for h in self.hexes])
        self.faces.set_facecolors(self.base_faces)
        mixed = [h for h in self.hexes if len(m.terrain(h)) > 1]
        self.second_terrain.set_verts([_polygon(h, 0.45) for h in mixed])
        self.second_terrain.set_facecolors([self.terrain_colour[self._ordered_terrain(h)[1]] for h in mixed])

        names = sorted(m.hexside_features)
        segments, colours, ticks = [], [], []
        for name in names:
            colour = _colour(name, FEATURE_COLOURS, names)
            for side in sorted(m.hexside_features[name]):
                segments.append(hexside_segment(side))
                colours.append(colour)
                up = m.uphill(side)
                if up is not None:
                    ticks += self._uphill_ticks(side, up)
        self.feature_lines.set_segments(segments)
        self.feature_lines.set_colors(colours)
        self.slope_ticks.set_segments(ticks)

        for line in self.marker_lines:
            line.remove()
        self.marker_lines = []
        for name, hexes in sorted(m.marker_hexes.items()):
            if hexes:
                xs, ys = zip(*(center(h) for h in sorted(hexes)))
                symbol = MARKER_SYMBOLS.get(name, "D")
                (line,) = self.ax.plot(xs, ys, symbol, color="#b22222", markersize=11, zorder=4, label=name, alpha=0.85)
                self.marker_lines.append(line)

    def _ordered_terrain(self, h: Hex) -> list[str]:
        kinds = self.map.terrain(h)
        return sorted(kinds, key=lambda k: (k not in TERRAIN_COLOURS, k))

    def _fill(self, h: Hex) -> str:
        kinds = self._ordered_terrain(h)
        return self.terrain_colour[kinds[0]] if kinds else CLEAR

    @staticmethod
    def _uphill_ticks(side: Hexside, up: Hex) -> list:
        """Short hachures on the uphill side of a slope hexside, pointing to the uphill hex."""
        (x1, y1), (x2, y2) = hexside_segment(side)
        ux, uy = center(up)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dx, dy = (ux - mx), (uy - my)
        norm = math.hypot(dx, dy)
        dx, dy = 0.22 * dx / norm, 0.22 * dy / norm
        ticks = []
        for f in (0.2, 0.4, 0.6, 0.8):
            px, py = x1 + f * (x2 - x1), y1 + f * (y2 - y1)
            ticks.append(((px, py), (px + dx, py + dy)))
        return ticks

    # --- overlays --------------------------------------------------------------------------

    def shade(
        self,
        values: Mapping[Hex, float],
        *,
        cmap: str = "YlOrRd",
        vmin: float | None = None,
        vmax: float | None = None,
        numbers: bool = True,
    ) -> None:
        """Colour the hexes in ``values`` by their value (and print it); others keep their terrain."""
        faces = self.base_faces.copy()
        shown = {h: v for h, v in values.items() if h in self.index}
        if shown:
            data = list(shown.values())
            norm = Normalize(min(data) if vmin is None else vmin, max(data) if vmax is None else vmax)
            colours = matplotlib.colormaps[cmap](norm(data), alpha=0.85)
            for h, colour in zip(shown, colours):
                faces[self.index[h]] = colour
        self.faces.set_facecolors(faces)
        for h, text in self.value_texts.items():
            text.set_visible(h in shown and numbers)
        if numbers:
            for h, v in shown.items():
                text = self.value_texts.get(h)
                if text is None:
                    x, y = center(h)
                    text = self.ax.text(x, y + 0.15, "", ha="center", va="center", fontsize=8, zorder=8)
                    self.value_texts[h] = text
                text.set_text(f"{v:g}")
                text.set_visible(True)

    def show_trace(self, tr: Trace | None, *, blocking: Collection[Hexside] = ()) -> None:
        """Draw a traced line: its hexes outlined, the hexsides it crosses or runs along picked
        out, the corners it touches dotted, and any ``blocking`` hexsides marked in red.
        ``None`` clears the line."""
        if tr is None:
            self.outlines.set_verts([])
            self.line.set_data([], [])
            self.picked_sides.set_segments([])
            self.blocking_sides.set_segments([])
            self.corner_marks.set_data([], [])
            self.end_marks.set_data([], [])
        else:
            ends = [center(tr.a), center(tr.b)]
            self.line.set_data(*zip(*ends))
            self.end_marks.set_data(*zip(*ends))
            self.outlines.set_verts([_polygon(h) for h in tr.hexes])
            sides = [s for s in (*tr.crossed, *tr.along) if s not in blocking]
            self.picked_sides.set_segments([hexside_segment(s) for s in sides])
            self.blocking_sides.set_segments([hexside_segment(s) for s in blocking])
            corners = [corner_point(c) for c in tr.touched]
            self.corner_marks.set_data(*zip(*corners) if corners else ([], []))

    def show_line_of_sight(self, result) -> None:
        """A rules module's LOS result: its line, the hexsides that block it in red, the hexes
        that block it shaded red."""
        self.show_trace(result.trace, blocking=[b for b in result.blocking if isinstance(b, Hexside)])
        self.shade({h: 1 for h in result.blocking if isinstance(h, Hex)}, cmap="Reds", vmin=0, vmax=1.6, numbers=False)

    def clear(self) -> None:
        """Remove every overlay, back to the plain map."""
        self.shade({})
        self.show_trace(None)

    def redraw(self) -> None:
        self.figure.canvas.draw_idle()

    def hexside_at(self, x: float | None, y: float | None) -> Hexside | None:
        """The hexside nearest a drawing position, or None when the position is nearer a hex's
        centre than its sides (or off the map)."""
        h = self.hex_at(x, y)
        if h is None:
            return None
        cx, cy = center(h)
        if math.hypot(x - cx, y - cy) < 0.45:
            return None
        nearest = min(h.neighbors(), key=lambda n: math.dist((x, y), center(n)))
        return Hexside(h, nearest) if nearest in self.index else None

    def hex_at(self, x: float | None, y: float | None) -> Hex | None:
        """The map hex under a drawing position (a mouse click), or None off the map."""
        if x is None or y is None:
            return None
        h = hex_at(x, y)
        return h if h in self.index else None


def draw_map(m: HexMap, *, ax=None, labels: bool | None = None, width: float | None = None) -> MapView:
    """Draw ``m`` on ``ax`` (a new figure when omitted) and return the view to add overlays to.

    ``labels``: print each hex's label (default: on maps up to ``LABELLED_UP_TO`` hexes).
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figure_size(m, width), layout="constrained")
    return MapView(m, ax, labels=labels)


def figure_size(m: HexMap, width: float | None = None) -> tuple[float, float]:
    """A figure size (inches) in the map's own proportions."""
    ncols = m.columns[1] - m.columns[0] + 1
    nrows = m.rows[1] - m.rows[0] + 1
    w = width or min(11.0, 2 + 0.45 * ncols)
    return w, w * (nrows + 0.5) * SQRT3 / (1.5 * ncols + 0.5) + 0.3


def map_png(m: HexMap) -> bytes:
    """The map drawn as PNG bytes, without pyplot (used for a HexMap's Jupyter display)."""
    fig = Figure(figsize=figure_size(m, 8), layout="constrained")
    draw_map(m, ax=fig.add_subplot())
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()


def draw_line_of_sight(m: HexMap, result, *, ax=None, width: float | None = None, reading: str = "") -> MapView:
    """A line of sight drawn on its map: the traced line, and what blocks it marked in red
    (``result`` is a rules module's LOS result with ``.trace``, ``.blocking`` and ``.verdict``).
    The title gives the verdict, after ``reading`` (the rule reading drawn) when one is named."""
    view = draw_map(m, ax=ax, width=width)
    view.show_line_of_sight(result)
    ends = f"{m.label(result.trace.a)} → {m.label(result.trace.b)}"
    view.ax.set_title(f"{reading + chr(10) if reading else ''}{ends}: {result.verdict}", fontsize=10)
    return view
