"""Drawing hex maps with matplotlib: flat-topped hexes in columns, as printed wargame maps are.

``draw_map(m)`` builds a ``MapView`` once: one ``PolyCollection`` for the hexes, one for the second
terrain type of mixed hexes, one ``LineCollection`` for hexside features, labels and markers.
Overlays (shaded values, a traced line: ``wbk.mapoverlays``) change colours and the data of a
few fixed artists; they never rebuild the map, so a widget can redraw it cheaply.

The parts, each a module below this one, and all importable from here as before: the map's
coordinates, colours and drawing order (``wbk.mapstyle``), the overlays, the artists drawn
cheaply again (``wbk.mapartists``), and the title and legend every picture shares
(``wbk.pictureview``).
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Iterator, Sequence
from typing import cast

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from wbk.errors import WbkError
from wbk.hexgrid import Hex, Hexside
from wbk.mapartists import CachedArtists, StampedText
from wbk.mapoverlays import COLOUR_BAR_BOTTOM, COLOUR_BAR_HEIGHT, MOST_NUMBERS, MapOverlays
from wbk.maps import HexMap
from wbk.mapstyle import (
    ALONG,
    BLOCKED_LINE,
    BLOCKING_SIDE,
    CLEAR,
    CLEAR_LINE,
    CROSSED,
    FEATURE_COLOURS,
    FEATURE_NAMES,
    HEX_CORNERS,
    LABEL_HALO,
    MARKER_SYMBOLS,
    ROUTE,
    SKY_BLUE,
    SQRT3,
    TERRAIN_COLOURS,
    Z_ENDS,
    Z_FEATURES,
    Z_LABELS,
    Z_LAYER,
    Z_LINES,
    Z_MARKERS,
    Z_NUMBERS,
    Z_OUTLINES,
    Z_SIDES,
    Z_TERRAIN,
    center,
    colour_of,
    corner_point,
    hex_at,
    hex_polygons,
    hexside_segment,
    marker_point,
)
from wbk.pictureview import (
    NARROWEST_CHARACTER,
    TITLE_SIZES,
    PictureView,
    fit_title,
    legend_handle,
    text_width,
    wrap_to_width,
)

__all__ = [
    "ALONG",
    "BLOCKED_LINE",
    "BLOCKING_SIDE",
    "CLEAR",
    "CLEAR_LINE",
    "COLOUR_BAR_BOTTOM",
    "COLOUR_BAR_HEIGHT",
    "CROSSED",
    "FEATURE_COLOURS",
    "FEATURE_NAMES",
    "HEX_CORNERS",
    "LABELLED_UP_TO",
    "LABEL_HALO",
    "LEGEND_HEIGHT",
    "MARKER_SYMBOLS",
    "MOST_NUMBERS",
    "NARROWEST_CHARACTER",
    "ROUTE",
    "SKY_BLUE",
    "SQRT3",
    "TERRAIN_COLOURS",
    "TITLE_HEIGHT",
    "TITLE_SIZES",
    "Z_ENDS",
    "Z_FEATURES",
    "Z_LABELS",
    "Z_LAYER",
    "Z_LINES",
    "Z_MARKERS",
    "Z_NUMBERS",
    "Z_OUTLINES",
    "Z_SIDES",
    "Z_TERRAIN",
    "MapView",
    "PictureView",
    "center",
    "corner_point",
    "draw_line_of_sight",
    "draw_map",
    "figure_size",
    "fit_title",
    "hex_at",
    "hex_polygons",
    "hexside_segment",
    "legend_handle",
    "map_axes",
    "map_png",
    "marker_point",
    "shown_on_a_page",
    "text_width",
    "wrap_to_width",
]

#: Up to this many hexes, labels are printed in every hex unless asked otherwise.
LABELLED_UP_TO = 600
#: The old name of ``hex_polygons``, kept until its last caller outside this module switches.
_polygons = hex_polygons


def shown_on_a_page(canvas) -> bool:
    """Whether a page shows ``canvas`` now, ready for its pictures (an ipympl canvas stops
    keeping each picture as a data URL once its page has connected); False for any canvas of
    a run without a page (nbval, the site, a pool's kernel before its reader comes)."""
    return getattr(canvas, "syncing_data_url", True) is False and hasattr(canvas, "get_diff_image")


class MapView(MapOverlays):
    """A drawn map with overlays that update in place. Build it with ``draw_map``."""

    #: set while ``holding_redraws``: the redraws asked for then are left to the one after it
    _redraws_held = False

    @contextlib.contextmanager
    def holding_redraws(self) -> Iterator[None]:
        """Within it, ``redraw`` does nothing: a panel working out one answer (its overlays,
        its steps, its readings compared) then draws it once, one picture sent, not three."""
        self._redraws_held = True
        try:
            yield
        finally:
            self._redraws_held = False

    def __init__(self, m: HexMap, ax, *, labels: bool | None = None):
        super().__init__(ax)
        self.map = m
        self.hexes = list(m)
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.polygons = hex_polygons(self.hexes)
        self._closed = np.concatenate([self.polygons, self.polygons[:, :1]], axis=1)
        # the terrain under the overlays changes only with the map: drawn once, then a picture
        # an (n, 6, 2) array is a sequence of polygons to PolyCollection (its stubs want a list)
        self.faces = PolyCollection(
            cast(Sequence[np.ndarray], self.polygons), edgecolors="#7d7668", linewidths=0.6
        )
        self.second_terrain = PolyCollection([], edgecolors="none")
        self.terrain = CachedArtists([self.faces, self.second_terrain], ax, zorder=Z_TERRAIN)
        ax.add_artist(self.terrain)
        self.feature_lines = LineCollection([], linewidths=2.5, zorder=Z_FEATURES)
        ax.add_collection(self.feature_lines)
        self.slope_ticks = LineCollection(
            [], colors=FEATURE_COLOURS["slope"], linewidths=1.2, zorder=Z_FEATURES
        )
        ax.add_collection(self.slope_ticks)
        self.marker_lines: list[Line2D] = []
        self.show_contents(m)
        show_labels = len(self.hexes) <= LABELLED_UP_TO if labels is None else labels
        self.labels = None
        if show_labels:
            size = max(4.0, min(8.0, 700 / max(len(m), 1) ** 0.5 / 3))
            texts = []
            for h in self.hexes:
                x, y = center(h)
                text = StampedText(
                    x,
                    y - 0.62,
                    m.label(h),
                    ha="center",
                    va="center",
                    fontsize=size,
                    color="#4d4a42",
                    path_effects=LABEL_HALO,
                )
                text.set_transform(ax.transData)
                texts.append(text)
            # drawn last, haloed: no hexside, line or marker covers a hex's label
            self.labels = CachedArtists(texts, ax, zorder=Z_LABELS)
            ax.add_artist(self.labels)
        self.add_overlay_artists()

        centres = self.polygons.mean(axis=1)
        (x0, y0), (x1, y1) = centres.min(axis=0), centres.max(axis=0)
        ax.set_xlim(x0 - 1.2, x1 + 1.2)
        ax.set_ylim(y1 + 1.2, y0 - 1.2)
        ax.set_aspect("equal")
        ax.set_axis_off()
        self.set_title(m.name)

    def show_contents(self, m: HexMap) -> None:
        """Show the terrain, hexside features and markers of ``m``, a map of the same extent (an
        edited copy): the artists stay, only their data change. Shading is cleared."""
        extent = (m.columns, m.rows, m.low_columns)
        same = m is self.map or extent == (self.map.columns, self.map.rows, self.map.low_columns)
        if not same and list(m) != self.hexes:
            raise WbkError(
                f"map {m.name!r} does not have the extent of the drawn map ({self.map.extent})"
            )
        self.map = m
        kinds = sorted(m.terrain_hexes)
        self.terrain_colour = {k: colour_of(k, TERRAIN_COLOURS, kinds) for k in kinds}
        self.base_faces = np.tile(to_rgba(CLEAR), (len(self.hexes), 1))
        with_terrain = {h for hexes in m.terrain_hexes.values() for h in hexes}
        mixed = []
        for h in sorted(with_terrain):
            ordered = self._ordered_terrain(h)
            self.base_faces[self.index[h]] = to_rgba(self.terrain_colour[ordered[0]])
            if len(ordered) > 1:
                mixed.append((h, self.terrain_colour[ordered[1]]))
        self.faces.set_facecolor(cast(Sequence[str], self.base_faces))  # (n, 4) RGBA rows
        self.terrain.changed()
        self.second_terrain.set_verts(
            cast(Sequence[np.ndarray], hex_polygons([h for h, _ in mixed], 0.45) if mixed else [])
        )
        self.second_terrain.set_facecolor([colour for _, colour in mixed])

        names = sorted(m.hexside_features)
        segments, colours, ticks = [], [], []
        for name in names:
            colour = colour_of(name, FEATURE_COLOURS, names)
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
                # left of the centre, where a line's end marks and a hex's number never sit,
                # and above lines
                xs, ys = zip(*(marker_point(h) for h in sorted(hexes)), strict=False)
                symbol = MARKER_SYMBOLS.get(name, "D")
                (line,) = self.ax.plot(
                    xs,
                    ys,
                    symbol,
                    color="#b22222",
                    markersize=11,
                    zorder=Z_MARKERS,
                    label=name,
                    alpha=0.85,
                )
                self.marker_lines.append(line)
        self.update_legend()

    def _ordered_terrain(self, h: Hex) -> list[str]:
        kinds = self.map.terrain(h)
        return sorted(kinds, key=lambda k: (k not in TERRAIN_COLOURS, k))

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

    def picture_entries(self) -> dict[str, object]:
        """The terrain and hexside features on the map, and its markers."""
        m, entries = self.map, cast(dict[str, object], {})
        for kind in sorted(self.terrain_colour, key=lambda k: (k not in TERRAIN_COLOURS, k)):
            entries[kind] = Patch(facecolor=self.terrain_colour[kind], edgecolor="#7d7668")
        if self.second_terrain.get_paths():
            entries["inner hex: second terrain"] = Patch(
                facecolor="white", edgecolor="#7d7668", hatch=".."
            )
        for name in sorted(m.hexside_features):
            colour = colour_of(name, FEATURE_COLOURS, sorted(m.hexside_features))
            entries[FEATURE_NAMES.get(name, f"{name} hexside")] = Line2D(
                [], [], color=colour, linewidth=2.5
            )
        for line in self.marker_lines:
            entries[f"{line.get_label()} hex"] = Line2D(
                [],
                [],
                linestyle="none",
                marker=line.get_marker(),
                color=line.get_color(),
                markersize=9,
            )
        return entries

    def clear(self) -> None:
        """Remove every overlay, back to the plain map."""
        self.shade({})
        self.show_numbers({})
        self.show_trace(None)
        self.show_route(None)
        self.set_title(self.map.name)

    def redraw(self) -> None:
        """Draw the picture again. On an ipympl canvas whose page is showing it, draw now: the
        picture goes to the browser at once, where ``draw_idle`` would first ask the browser to
        ask for it. (Before the page is there, the browser must ask: it takes its first picture
        whole.)"""
        if self._redraws_held:
            return
        canvas = self.figure.canvas
        if shown_on_a_page(canvas):
            canvas.draw()
        else:
            canvas.draw_idle()

    def hexside_at(self, x: float | None, y: float | None) -> Hexside | None:
        """The hexside nearest a drawing position, or None when the position is nearer a hex's
        centre than its sides (or off the map)."""
        h = self.hex_at(x, y)
        if h is None or x is None or y is None:
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


def draw_map(
    m: HexMap, *, ax=None, labels: bool | None = None, width: float | None = None
) -> MapView:
    """Draw ``m`` on ``ax`` (a new figure when omitted) and return the view to add overlays to.

    ``labels``: print each hex's label (default: on maps up to ``LABELLED_UP_TO`` hexes).
    """
    if ax is None:
        import matplotlib.pyplot as plt

        ax = map_axes(plt.figure(figsize=figure_size(m, width)))
    return MapView(m, ax, labels=labels)


#: Inches below the map for its legend (four rows over a colour bar), and above it for a
#: two-line title.
LEGEND_HEIGHT = 1.0
TITLE_HEIGHT = 0.45


def map_axes(figure: Figure):
    """The axes for a map filling a figure of ``figure_size``: a fixed layout, room for the
    title above and the legend below, so that the map never moves when the legend grows (a
    click lands where the hex is drawn)."""
    _width, height = figure.get_size_inches()
    bottom, top = LEGEND_HEIGHT / height, TITLE_HEIGHT / height
    return figure.add_axes((0.01, bottom, 0.98, 1 - bottom - top))


def figure_size(m: HexMap, width: float | None = None) -> tuple[float, float]:
    """A figure size (inches) in the map's own proportions, with room for the title and the
    legend below the map."""
    ncols = m.columns[1] - m.columns[0] + 1
    nrows = m.rows[1] - m.rows[0] + 1
    w = width or min(11.0, 2 + 0.45 * ncols)
    return w, (w * 0.98) * (nrows + 0.5) * SQRT3 / (
        1.5 * ncols + 0.5
    ) + TITLE_HEIGHT + LEGEND_HEIGHT


def map_png(m: HexMap) -> bytes:
    """The map drawn as PNG bytes, without pyplot (used for a HexMap's Jupyter display)."""
    fig = Figure(figsize=figure_size(m, 8))
    draw_map(m, ax=map_axes(fig))
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()


def draw_line_of_sight(
    m: HexMap, result, *, ax=None, width: float | None = None, reading: str = ""
) -> MapView:
    """A line of sight drawn on its map: the traced line, what blocks it marked, a legend, and
    the verdict in the title (``result`` is a rules module's LOS result with ``.trace``,
    ``.blocking``, ``.clear`` and ``.verdict``), after ``reading`` (the rule reading drawn) when
    one is named."""
    view = draw_map(m, ax=ax, width=width)
    view.show_line_of_sight(result)
    if reading:
        view.set_title(f"{reading}\n{view.title()}")
    return view
