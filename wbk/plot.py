"""Drawing hex maps with matplotlib: flat-topped hexes in columns, as printed wargame maps are.

``draw_map(m)`` builds a ``MapView`` once: one ``PolyCollection`` for the hexes, one for the second
terrain type of mixed hexes, one ``LineCollection`` for hexside features, labels and markers.
Overlays (shaded values, a traced line) change colours and the data of a few fixed artists; they
never rebuild the map, so a widget can redraw it cheaply.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any, ClassVar, cast

import matplotlib
import matplotlib.artist
import numpy as np
from matplotlib import patheffects
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colorbar import Colorbar
from matplotlib.colors import TABLEAU_COLORS, Colormap, ListedColormap, Normalize, to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.textpath import TextToPath
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import TransformedPath

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
    "balka": "#cbb68e",
    "city": "#a8a39b",
    "suburb": "#d3cec5",
    "factory": "#8e8981",
}
FEATURE_COLOURS = {"stream": "#3a78c8", "river": "#1f4f99", "slope": "#7a4a1e", "road": "#555555"}
FEATURE_NAMES = {"slope": "slope (hachures uphill)"}
MARKER_SYMBOLS = {"star": "*"}
# Overlays in the Okabe-Ito colours, which colour-blind readers tell apart; clear and blocked
# lines differ in style as well as colour.
CLEAR_LINE = "#0072B2"
BLOCKED_LINE = "#D55E00"
CROSSED = "#E69F00"
BLOCKING_SIDE = "black"
ALONG = "#CC79A7"
ROUTE = "#009E73"
SKY_BLUE = "#56B4E9"
#: Colours for terrain and features without one of their own: tab10's, in its order.
_FALLBACK: list[str] = [str(c) for c in TABLEAU_COLORS.values()]
#: Up to this many hexes, labels are printed in every hex unless asked otherwise.
LABELLED_UP_TO = 600
_TEXT_TO_PATH = TextToPath()
#: Drawing order. Terrain, then hexside features, the translucent overlay layer, outlines and
#: lines; the map's markers (stars) above lines, then the end marks; numbers and hex labels
#: last, haloed, so that nothing drawn covers them.
Z_TERRAIN, Z_LAYER, Z_FEATURES, Z_OUTLINES, Z_SIDES, Z_LINES = 1, 2.5, 3, 4, 5, 6
Z_MARKERS, Z_ENDS, Z_NUMBERS, Z_LABELS = 6.5, 7, 8, 9
#: A halo in the clear terrain's colour behind hex labels and numbers.
LABEL_HALO = [patheffects.withStroke(linewidth=2.2, foreground=CLEAR, alpha=0.85)]


def center(h: Hex) -> tuple[float, float]:
    """The drawing position of a hex's centre (hex circumradius 1, y grows downwards)."""
    return 1.5 * h.q, SQRT3 * (h.r + h.q / 2)


def marker_point(h: Hex) -> tuple[float, float]:
    """Where a map's marker (a victory star) is drawn in its hex: left of the centre."""
    x, y = center(h)
    return x - 0.5, y


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
    xs, ys = zip(*(center(h) for h in c.hexes), strict=False)
    return sum(xs) / 3, sum(ys) / 3


def hexside_segment(side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
    c1, c2 = side.corners
    return corner_point(c1), corner_point(c2)


#: The corners of a hex of circumradius 1 about its centre, east first, then clockwise on screen.
HEX_CORNERS = np.array(
    [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 60)]
)
_COMPOUND_CODES = np.array([Path.MOVETO, *[Path.LINETO] * 5, Path.CLOSEPOLY], dtype=Path.code_type)


def _polygon(h: Hex, scale: float = 1.0) -> np.ndarray:
    return np.array(center(h)) + scale * HEX_CORNERS


def hex_polygons(hexes: Sequence[Hex], scale: float = 1.0) -> np.ndarray:
    """The hexes' outlines as one (n, 6, 2) array (the fast way into a PolyCollection)."""
    q = np.fromiter((h.q for h in hexes), float, len(hexes))
    r = np.fromiter((h.r for h in hexes), float, len(hexes))
    centres = np.stack([1.5 * q, SQRT3 * (r + q / 2)], axis=1)
    return centres[:, None, :] + scale * HEX_CORNERS[None, :, :]


#: The old name of ``hex_polygons``, kept until its last caller outside this module switches.
_polygons = hex_polygons


def _colour(name: str, table: Mapping[str, str], order: list[str]) -> str:
    if name in table:
        return table[name]
    return _FALLBACK[order.index(name) % len(_FALLBACK)]


#: The most hexes ``MapView.show_numbers`` prints a number in.
MOST_NUMBERS = 1_500
#: Title sizes (points) tried in turn until the title fits on two lines.
TITLE_SIZES = (10.0, 9.0, 8.0)


def text_width(text: str, size: float) -> float:
    """The width in points of ``text`` set at ``size`` points in matplotlib's default font."""
    # measuring a text costs half a millisecond, and a title is tried at up to three sizes, word
    # by word, on every update of its panel; a width grows in proportion to the size (TextToPath
    # measures at one size and scales), so each text is measured once per font
    return _width_at_one_point(text, findfont(FontProperties())) * size


@functools.lru_cache(maxsize=4096)
def _width_at_one_point(text: str, font: str) -> float:
    width, _height, _descent = _TEXT_TO_PATH.get_text_width_height_descent(
        text, FontProperties(fname=font, size=1), ismath=False
    )
    return float(width)


def wrap_to_width(text: str, width: float, size: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` points at ``size`` points
    (a word longer than a line stays whole); its own line breaks are kept."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            tried = f"{line} {word}" if line else word
            if line and text_width(tried, size) > width:
                lines.append(line)
                line = word
            else:
                line = tried
        lines.append(line)
    return lines


#: The narrowest a character is set, in ems: no line of a title holds more than its width over
#: this, so the rest of a long title is never measured.
NARROWEST_CHARACTER = 0.2


def fit_title(text: str, width: float, most_lines: int = 2) -> tuple[list[str], float]:
    """A title's lines and size to fit ``width`` points on ``most_lines`` lines (the two kept
    above a map): at the largest of ``TITLE_SIZES`` that fits, the last line ending in "…" if
    even the smallest is too large."""
    # however long the title, only what could fit on its lines is wrapped and measured
    room = most_lines * int(width / (NARROWEST_CHARACTER * min(TITLE_SIZES))) + 1
    text = text[:room]
    for size in TITLE_SIZES:
        lines = wrap_to_width(text, width, size)
        if len(lines) <= most_lines:
            return lines, size
    last = " ".join(lines[most_lines - 1 :])
    # the longest start of the last line that fits with its "…" (found by halving)
    fits, too_long = 0, len(last) + 1
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if text_width(last[:middle] + " …", size) <= width:
            fits = middle
        else:
            too_long = middle
    return [*lines[: most_lines - 1], last[:fits].rstrip() + " …"], size


class PictureView:
    """What every drawn picture shares (a hex map, a table): its title and a legend of what it
    shows, the overlays' entries kept by overlay and the legend rebuilt only when it changes.
    A subclass says what its picture holds in ``picture_entries``."""

    #: how the legend sits below the picture
    legend_style: ClassVar[dict[str, Any]] = {
        "ncol": 3,
        "fontsize": 7,
        "frameon": False,
        "handlelength": 1.6,
        "columnspacing": 1.0,
    }

    def __init__(self, ax: Axes) -> None:
        self.ax, self.figure = ax, cast(Figure, ax.figure)
        self.overlay_legend: dict[str, dict[str, object]] = {}
        self._legend_key: list[tuple[str, tuple]] | None = None
        self._title_text = ax.get_title()

    def set_title(self, text: str) -> None:
        """The picture's title: the question it answers and its answer, wrapped at word breaks
        to the picture's width (at most two lines; smaller type rather than cut off)."""
        if text == self._title_text:
            return
        self._title_text = text
        width = self.ax.get_position().width * self.figure.get_figwidth() * 72
        lines, size = fit_title(text, width)
        # a fixed place (y=1): matplotlib's automatic title placement measures the hidden axis
        # ticks on every draw, which costs more than drawing the map
        self.ax.set_title("\n".join(lines), fontsize=size, y=1.0)

    def title(self) -> str:
        """The title as set, before it was wrapped."""
        return self._title_text

    def set_overlay_legend(self, key: str, entries: Mapping[str, object]) -> None:
        """Name in the legend what overlay ``key`` draws now (an empty ``entries``: nothing)."""
        self.overlay_legend[key] = dict(entries)
        self.update_legend()

    def picture_entries(self) -> dict[str, object]:
        """The legend entries of what the picture always shows (terrain, markers...)."""
        return {}

    def legend_entries(self) -> dict[str, object]:
        """What the picture shows, in the legend's words: its own entries, then each overlay's."""
        entries = self.picture_entries()
        for overlay in self.overlay_legend.values():
            for text, artist in overlay.items():
                entries[text] = legend_handle(artist)
        return entries

    def update_legend(self) -> None:
        entries = self.legend_entries()
        key = [(text, _handle_key(handle)) for text, handle in entries.items()]
        if key == self._legend_key:
            return  # the same legend: keep it (making one costs as much as drawing the map)
        self._legend_key = key
        old = self.ax.get_legend()
        if old is not None:
            old.remove()
        if entries:
            self.ax.legend(
                cast(list[Artist], list(entries.values())),
                list(entries),
                loc="upper center",
                bbox_to_anchor=(0.5, 0.0),
                **self.legend_style,
            )


class MapView(PictureView):
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
        self.terrain = _Cached([self.faces, self.second_terrain], ax, zorder=Z_TERRAIN)
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
                text = _StampedText(
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
            self.labels = _Cached(texts, ax, zorder=Z_LABELS)
            ax.add_artist(self.labels)
        self.value_texts: dict[Hex, Text] = {}
        self.colour_bar: Colorbar | None = None
        # overlays: a translucent layer over the terrain, never a recolouring of it
        self.layer = PolyCollection([], edgecolors="none", zorder=Z_LAYER)
        ax.add_collection(self.layer)
        self.blocking_hexes = PolyCollection(
            [],
            facecolors="none",
            edgecolors=BLOCKED_LINE,
            hatch="xx",
            linewidths=2,
            zorder=Z_OUTLINES,
        )
        ax.add_collection(self.blocking_hexes)
        self.outlines = PolyCollection(
            [],
            facecolors="none",
            edgecolors=CLEAR_LINE,
            linewidths=1.2,
            alpha=0.6,
            zorder=Z_OUTLINES,
        )
        ax.add_collection(self.outlines)
        self.crossed_sides = LineCollection([], colors=CROSSED, linewidths=4, zorder=Z_SIDES)
        ax.add_collection(self.crossed_sides)
        self.along_sides = LineCollection([], colors=ALONG, linewidths=4, zorder=Z_SIDES)
        ax.add_collection(self.along_sides)
        # black, not a second orange beside the crossed hexsides: told apart in any colour vision
        self.blocking_sides = LineCollection([], colors=BLOCKING_SIDE, linewidths=6, zorder=Z_SIDES)
        ax.add_collection(self.blocking_sides)
        self.line = Line2D([], [], color=CLEAR_LINE, linewidth=2, zorder=Z_LINES)
        ax.add_line(self.line)
        self.route = Line2D(
            [], [], color=ROUTE, linewidth=3, marker="o", markersize=4, zorder=Z_LINES
        )
        ax.add_line(self.route)
        (self.corner_marks,) = ax.plot(
            [], [], "o", color="white", markeredgecolor="black", markersize=5, zorder=Z_ENDS
        )
        (self.firer_mark,) = ax.plot([], [], "o", color="black", markersize=8, zorder=Z_ENDS)
        (self.target_mark,) = ax.plot([], [], "s", color="black", markersize=7, zorder=Z_ENDS)

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
        self.terrain_colour = {k: _colour(k, TERRAIN_COLOURS, kinds) for k in kinds}
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

    # --- overlays ---------------------------------------------------------------------------

    def shade(
        self,
        values: Mapping[Hex, float],
        *,
        cmap: str | Colormap = "cividis_r",
        vmin: float | None = None,
        vmax: float | None = None,
        label: str = "",
        alpha: float = 0.55,
        scale: bool = False,
    ) -> None:
        """Lay a translucent colour over the hexes in ``values`` by their value (``cmap``, a
        colormap or its name); the terrain shows through. ``label`` names the layer in the
        legend, or with ``scale`` beside a colour bar with its numbers under the map. An empty
        ``values`` removes it."""
        index = self.index
        norm = None
        shown = {index[h]: v for h, v in values.items() if h in index}
        colours = np.zeros((0, 4))
        verts, codes = [], []
        if shown:
            data = np.fromiter(shown.values(), float, len(shown))
            if scale and vmin is None and vmax is None and data.min() == data.max():
                vmin, vmax = data.min() - 0.5, data.max() + 0.5  # one value: the bar's middle
            where = np.fromiter(shown.keys(), np.intp, len(shown))
            norm = Normalize(
                data.min() if vmin is None else vmin, data.max() if vmax is None else vmax
            )
            colourmap = cmap if isinstance(cmap, Colormap) else matplotlib.colormaps[cmap]
            colours = colourmap(norm(data), alpha=alpha, bytes=True)
            # one compound path per colour: fast to draw, and no seams between translucent hexes
            distinct, group = np.unique(colours, axis=0, return_inverse=True)
            group = group.reshape(-1)
            order = np.argsort(group, kind="stable")
            bounds = np.searchsorted(group[order], np.arange(len(distinct) + 1))
            for k in range(len(distinct)):
                members = where[order[bounds[k] : bounds[k + 1]]]
                verts.append(self._closed[members].reshape(-1, 2))
                codes.append(np.tile(_COMPOUND_CODES, len(members)))
            colours = distinct / 255
        self.layer.set_verts_and_codes(verts, cast(Sequence[int], codes))
        self.layer.set_facecolor(cast(Sequence[str], colours))  # (n, 4) RGBA rows
        sample = tuple(colours[len(colours) // 2]) if len(colours) else None
        if scale and norm is not None:
            self.show_colour_bar(norm, colourmap, label=label, alpha=alpha)
        else:
            self.show_colour_bar(None)
        self.set_overlay_legend(
            "layer", {label: Patch(facecolor=sample)} if shown and label and not scale else {}
        )

    def show_colour_bar(
        self,
        norm: Normalize | None,
        cmap: Colormap | None = None,
        *,
        label: str = "",
        alpha: float = 1.0,
    ) -> None:
        """A colour bar with whole-number ticks at the foot of the picture, ``label`` to its
        left (``None`` hides it). It sits below the legend, in the room kept for it."""
        if norm is None:
            if self.colour_bar is not None:
                self.colour_bar.ax.set_visible(False)
            return
        height = self.figure.get_figheight()
        if self.colour_bar is None:
            bar = self.figure.add_axes(
                (0.45, COLOUR_BAR_BOTTOM / height, 0.4, COLOUR_BAR_HEIGHT / height)
            )
            bar.set_navigate(False)
            self.colour_bar = Colorbar(bar, orientation="horizontal")
        bar = self.colour_bar.ax
        bar.set_visible(True)
        self.colour_bar.update_normal(ScalarMappable(norm=norm, cmap=cmap))
        if self.colour_bar.solids is not None:
            self.colour_bar.solids.set_alpha(alpha)
        low = 0.0 if norm.vmin is None else float(norm.vmin)
        high = low if norm.vmax is None else float(norm.vmax)
        ticks = MaxNLocator(nbins=6, integer=True).tick_values(low, high)
        self.colour_bar.set_ticks([t for t in ticks if low <= t <= high] or [low])
        bar.tick_params(labelsize=7, length=2, pad=1)
        bar.set_ylabel(label, rotation=0, ha="right", va="center", fontsize=7, labelpad=6)

    def highlight(self, hexes: Collection[Hex], *, label: str = "", colour: str = SKY_BLUE) -> None:
        """Lay one translucent colour (Okabe-Ito sky blue unless told) over ``hexes``, named
        ``label`` in the legend."""
        self.shade(
            {h: 1 for h in hexes},
            cmap=ListedColormap([colour]),
            vmin=0,
            vmax=1,
            label=label,
            alpha=0.6,
        )

    def dim(self, hexes: Collection[Hex], *, label: str = "") -> None:
        """Darken ``hexes`` with a translucent grey (dead ground, out of reach): their terrain
        stays readable. ``label`` names them in the legend."""
        self.shade({h: 1 for h in hexes}, cmap="Greys", vmin=0, vmax=1, label=label, alpha=0.38)

    def show_numbers(self, values: Mapping[Hex, float], *, label: str = "") -> None:
        """Print a number low in each hex of ``values``, clear of markers and labels; ``label``
        says in the legend what the numbers are. An empty ``values`` removes them; so do more
        than ``MOST_NUMBERS`` (too small to read, and a text each to draw), the legend saying
        so."""
        shown = {h: v for h, v in values.items() if h in self.index}
        if len(shown) > MOST_NUMBERS:
            left_out = f"{label or 'numbers'}: not printed on {len(shown):,} hexes"
            self.show_numbers({})
            handle = Line2D([], [], linestyle="none")
            self.set_overlay_legend("numbers", {left_out: handle})
            return
        for h, drawn in self.value_texts.items():
            drawn.set_visible(h in shown)
        for h, v in shown.items():
            text: Text | None = self.value_texts.get(h)
            if text is None:
                x, y = center(h)
                text = _StampedText(
                    x,
                    y + 0.5,
                    "",
                    ha="center",
                    va="center",
                    fontsize=7,
                    zorder=Z_NUMBERS,
                    fontweight="bold",
                    color="black",
                    path_effects=[patheffects.withStroke(linewidth=2.5, foreground="white")],
                )
                self.ax.add_artist(text)
                self.value_texts[h] = text
            text.set_text(f"{v:g}")
            text.set_visible(True)
        handle = Line2D([], [], linestyle="none", marker="$3$", color="black", markersize=7)
        self.set_overlay_legend("numbers", {label: handle} if shown and label else {})

    def show_trace(
        self,
        tr: Trace | None,
        *,
        blocking: Collection[Hex | Hexside] = (),
        clear: bool = True,
        sight: bool = False,
    ) -> None:
        """Draw a traced line: its hexes outlined, the hexsides it crosses and those it runs along
        in two colours, the corners it passes through dotted, and what blocks it (hexsides and
        hexes in ``blocking``) marked; a blocked line (``clear=False``) is dashed. The legend
        speaks of a line of sight, a firer and a target when ``sight`` is set, else of a line
        from one hex to another. ``None`` clears the line."""
        sides: dict[str, list] = {"crossed": [], "along": []}
        if tr is None:
            ends, outlines, corners, blocking = [], [], [], ()
        else:
            ends = [center(tr.a), center(tr.b)]
            outlines = [
                self.polygons[self.index[h]] if h in self.index else _polygon(h) for h in tr.hexes
            ]
            sides["crossed"] = [hexside_segment(s) for s in tr.crossed if s not in blocking]
            sides["along"] = [hexside_segment(s) for s in tr.along if s not in blocking]
            corners = [corner_point(c) for c in tr.touched]
        colour = CLEAR_LINE if clear else BLOCKED_LINE
        self.line.set_data(*zip(*ends, strict=False) if ends else ([], []))
        self.line.set_color(colour)
        self.line.set_linestyle("-" if clear else (0, (5, 3)))
        self.firer_mark.set_data(*([ends[0][0]], [ends[0][1]]) if ends else ([], []))
        self.target_mark.set_data(*([ends[1][0]], [ends[1][1]]) if ends else ([], []))
        self.outlines.set_verts(outlines)
        self.outlines.set_edgecolor(colour)
        self.crossed_sides.set_segments(sides["crossed"])
        self.along_sides.set_segments(sides["along"])
        self.blocking_sides.set_segments(
            [hexside_segment(b) for b in blocking if isinstance(b, Hexside)]
        )
        self.blocking_hexes.set_verts([_polygon(b) for b in blocking if isinstance(b, Hex)])
        self.corner_marks.set_data(*zip(*corners, strict=False) if corners else ([], []))
        entries: dict[str, object] = {}
        if tr is not None:
            if sight:
                entries["line of sight clear" if clear else "line of sight blocked"] = self.line
                entries["firer"], entries["target"] = self.firer_mark, self.target_mark
            else:
                entries["the line traced" if clear else "the line (blocked)"] = self.line
                entries["from"], entries["to"] = self.firer_mark, self.target_mark
            if sides["crossed"]:
                entries["hexside crossed"] = self.crossed_sides
            if sides["along"]:
                entries["hexside run along"] = self.along_sides
            if corners:
                entries["corner passed through"] = self.corner_marks
            if any(isinstance(b, Hexside) for b in blocking):
                entries["blocking hexside"] = self.blocking_sides
            if any(isinstance(b, Hex) for b in blocking):
                entries["blocking hex"] = self.blocking_hexes
        self.set_overlay_legend("trace", entries)

    def mark(
        self,
        circle: Hex | None = None,
        square: Hex | None = None,
        *,
        labels: Sequence[str] = ("", ""),
    ) -> None:
        """Mark one hex with a black circle and another with a black square (as a line's firer
        and target are marked), named in the legend by ``labels``; ``None`` leaves a mark off."""
        entries = {}
        for h, artist, label in (
            (circle, self.firer_mark, labels[0]),
            (square, self.target_mark, labels[1]),
        ):
            x, y = center(h) if h is not None else (None, None)
            artist.set_data(([x], [y]) if h is not None else ([], []))
            if h is not None and label:
                entries[label] = artist
        self.set_overlay_legend("trace", entries)

    def show_line_of_sight(self, result) -> None:
        """A rules module's LOS result (with ``.trace``, ``.blocking``, ``.clear`` and
        ``.verdict``): its line drawn, what blocks it marked, the verdict in the title."""
        self.show_trace(result.trace, blocking=result.blocking, clear=result.clear, sight=True)
        m = self.map
        verdict = result.short_verdict() if hasattr(result, "short_verdict") else result.verdict
        self.set_title(f"{m.label(result.trace.a)} → {m.label(result.trace.b)}: {verdict}")

    def show_route(self, hexes: Sequence[Hex] | None, *, label: str = "route") -> None:
        """A path drawn hex centre to hex centre over the map (``None`` removes it)."""
        points = [center(h) for h in hexes or ()]
        self.route.set_data(*zip(*points, strict=False) if points else ([], []))
        self.set_overlay_legend("route", {label: self.route} if points else {})

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
            colour = _colour(name, FEATURE_COLOURS, sorted(m.hexside_features))
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
        if getattr(canvas, "syncing_data_url", True) is False and hasattr(canvas, "get_diff_image"):
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


class _Cached(matplotlib.artist.Artist):
    """Artists that change only with the map (the terrain, the hex labels) drawn as one. On a
    raster canvas drawn a second time alike they are drawn into a transparent picture of the
    canvas's size, which each later draw lays over the map: a panel redraws on every click, and
    a map's 150 labels alone cost more to draw than its hexes. A new canvas size or resolution,
    or ``changed()``, starts again; another renderer (SVG, PDF) gets the artists themselves."""

    def __init__(self, artists: list, ax, *, zorder: float):
        super().__init__()
        self.artists = artists
        for artist in artists:
            artist.set_figure(ax.figure)
            artist.axes = ax
            artist.set_transform(ax.transData)
            artist.set_clip_path(ax.patch)
        self.set_zorder(zorder)
        self._key: tuple | None = None
        self._seen: tuple | None = None
        self._picture: tuple[int, np.ndarray] | None = None
        self._version = 0

    def changed(self) -> None:
        """Say that the artists changed: the next draw draws them again."""
        self._version += 1
        self.stale = True

    def draw(self, renderer):
        if not self.get_visible():
            return
        from matplotlib.backends.backend_agg import RendererAgg

        if not isinstance(renderer, RendererAgg):
            for artist in self.artists:
                artist.draw(renderer)
            return
        ax = self.axes
        if ax is None:
            return
        key = (
            renderer.width,
            renderer.height,
            renderer.dpi,
            tuple(ax.bbox.bounds),
            ax.get_xlim(),
            ax.get_ylim(),
            self._version,
        )
        if key != self._key and key != self._seen:
            # drawn once like this so far (a picture in a notebook is drawn only once): no picture
            self._seen = key
            for artist in self.artists:
                artist.draw(renderer)
            return
        if key != self._key:
            layer = RendererAgg(int(renderer.width), int(renderer.height), renderer.dpi)
            for artist in self.artists:
                artist.draw(layer)
            picture = np.asarray(layer.buffer_rgba())
            rows = np.flatnonzero(picture[:, :, 3].any(axis=1))
            self._picture = (rows[0], picture[rows[0] : rows[-1] + 1].copy()) if len(rows) else None
            self._key = key
        if self._picture is not None:
            top, picture = self._picture
            gc = renderer.new_gc()
            renderer.draw_image(gc, 0, renderer.height - top - len(picture), picture[::-1])
            gc.restore()
        self.stale = False


class _StampedText(Text):
    """A short text drawn often (a hex's label or number): on a raster canvas, drawn once per
    string and resolution into a small picture, which is then stamped where the text goes
    (outlined text costs a millisecond a draw: a map's labels were half of the time a chapter's
    picture took, and a movement range prints a hundred numbers)."""

    _stamps: ClassVar[dict] = {}

    def draw(self, renderer):
        from matplotlib.backends.backend_agg import RendererAgg

        if not (self.get_visible() and isinstance(renderer, RendererAgg)) or self.get_rotation():
            return super().draw(renderer)
        text = self.get_text()
        if not text:
            return
        effects = tuple(
            (type(e).__name__, repr(getattr(e, "_gc", None)), repr(getattr(e, "_offset", None)))
            for e in self.get_path_effects()
        )
        key = (
            text,
            renderer.dpi,
            self.get_fontsize(),
            self.get_fontweight(),
            str(self.get_color()),
            self.get_horizontalalignment(),
            self.get_verticalalignment(),
            effects,
        )
        stamp = self._stamps.get(key)
        if stamp is None:
            size = int(renderer.dpi * max(1.0, float(self.get_fontsize()) / 72 * (len(text) + 2)))
            canvas = RendererAgg(2 * size, 2 * size, renderer.dpi)
            probe = Text(
                size,
                size,
                text,
                ha=self.get_horizontalalignment(),
                va=self.get_verticalalignment(),
                fontsize=self.get_fontsize(),
                fontweight=self.get_fontweight(),
                color=self.get_color(),
                path_effects=self.get_path_effects(),
            )
            probe.set_figure(self.figure)
            probe.set_transform(matplotlib.transforms.IdentityTransform())
            probe.draw(canvas)
            picture = np.asarray(canvas.buffer_rgba())
            rows = np.flatnonzero(picture[:, :, 3].any(axis=1))
            cols = np.flatnonzero(picture[:, :, 3].any(axis=0))
            # the anchor sits at (size, size) from the bottom left; rows count from the top
            stamp = (
                cols[0] - size,
                size - 1 - rows[-1],
                picture[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1][::-1].copy(),
            )
            if len(self._stamps) > 2000:
                self._stamps.clear()
            self._stamps[key] = stamp
        dx, dy, picture = stamp
        x, y = self.get_transform().transform(self.get_unitless_position())
        gc = renderer.new_gc()
        if self.get_clip_on():  # a zoomed map's labels end at its axes, as drawn text does
            gc.set_clip_rectangle(self.get_clip_box())
            clip = self.get_clip_path()  # stored as a TransformedPath, whatever it was set with
            gc.set_clip_path(clip if isinstance(clip, TransformedPath) else None)
        renderer.draw_image(gc, round(x) + dx, round(y) + dy, picture)
        gc.restore()
        self.stale = False


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


#: Inches below the map for its legend (six rows), and above it for a two-line title.
LEGEND_HEIGHT = 0.9
TITLE_HEIGHT = 0.45
#: Inches from the figure's foot to a colour bar's foot, and its height: below three rows of
#: legend, its numbers under it.
COLOUR_BAR_BOTTOM = 0.17
COLOUR_BAR_HEIGHT = 0.09


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


def _handle_key(handle) -> tuple:
    """What a legend handle looks like, to tell whether a legend changed."""
    parts: tuple[object, ...]
    if isinstance(handle, Patch):
        parts = ("patch", handle.get_facecolor(), handle.get_edgecolor(), handle.get_hatch())
    else:
        parts = (
            "line",
            handle.get_color(),
            handle.get_linestyle(),
            handle.get_linewidth(),
            handle.get_marker(),
            handle.get_markerfacecolor(),
            handle.get_markeredgecolor(),
        )
    return tuple(repr(np.asarray(p).tolist()) if not isinstance(p, str) else p for p in parts)


def legend_handle(artist):
    """A stand-in for an overlay artist in the legend (an empty overlay has nothing to show)."""
    if isinstance(artist, Patch):
        return artist
    if isinstance(artist, Line2D) and np.size(artist.get_xdata()) == 0:
        return artist
    if isinstance(artist, Line2D):
        return Line2D(
            [],
            [],
            color=artist.get_color(),
            linestyle=artist.get_linestyle(),
            linewidth=min(artist.get_linewidth(), 3),
            marker=artist.get_marker(),
            markerfacecolor=artist.get_markerfacecolor(),
            markeredgecolor=artist.get_markeredgecolor(),
            markersize=6,
        )
    if isinstance(artist, LineCollection):
        colour = to_rgba(np.asarray(artist.get_color())[0])
        width = float(np.atleast_1d(artist.get_linewidth())[0])
        return Line2D([], [], color=colour, linewidth=min(width, 4))
    return Patch(
        facecolor="none",
        edgecolor=artist.get_edgecolor()[0],
        hatch=artist.get_hatch(),
        linewidth=1.5,
        linestyle=artist.get_linestyle()[0],  # a dashed outline's swatch dashed too
    )
