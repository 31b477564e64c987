"""Hex maps drawn with matplotlib: flat-topped hexes in columns, as printed wargame maps are, and
what a picture lays over its map.

``draw_map(m)`` builds a ``MapView`` once: one ``PolyCollection`` for the hexes, one for the
second terrain type of mixed hexes, one ``LineCollection`` for hexside features, labels and
markers. Overlays (a translucent layer of values with its colour bar: ``shade``, ``highlight``,
``dim``; numbers in hexes; a traced line with what it crosses; marks on two hexes; a route)
change the data of a few artists made once, never the map under them, so that a panel redraws
cheaply; each names what it shows in the legend. A rule set's own overlays live in its own
folder and draw with these.

The sheet every map is drawn to: where each hex sits on the page (flat-topped hexes of
circumradius 1, y growing downwards, as printed maps are laid out: ``center``, ``hex_at``), the
colours of terrain, features and overlays (Okabe-Ito's, which colour-blind readers tell apart),
and the drawing order every layer keeps (``Z_*``)."""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import cast

import matplotlib
import numpy as np
from matplotlib import patheffects
from matplotlib.artist import Artist
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colorbar import Colorbar
from matplotlib.colors import TABLEAU_COLORS, Colormap, ListedColormap, Normalize, to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from wbk.draw.view import (
    SKY_BLUE,
    STEP_COLOUR,
    STEP_EDGE,
    CachedArtists,
    PictureView,
    StampedText,
    step_index,
    step_title,
)
from wbk.errors import WbkError
from wbk.explain import Step
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


#: Colours for terrain and features without one of their own: tab10's, in its order.
_FALLBACK: list[str] = [str(c) for c in TABLEAU_COLORS.values()]


#: Drawing order. Terrain, then hexside features, the translucent overlay layer, outlines and
#: the bands over the hexsides a line crosses or runs along; a slope's hachures above those
#: bands (issue 40: the "hexside crossed" band hid them, and with them which side is uphill),
#: then lines; the map's markers (stars) above lines, then the end marks; numbers and hex
#: labels last, haloed, so that nothing drawn covers them.
Z_TERRAIN, Z_LAYER, Z_FEATURES, Z_OUTLINES, Z_SIDES, Z_HACHURES, Z_LINES = 1, 2.5, 3, 4, 5, 5.5, 6


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


def hex_polygon(h: Hex, scale: float = 1.0) -> np.ndarray:
    """A hex's outline, its six corners (scaled about its centre by ``scale``)."""
    return np.array(center(h)) + scale * HEX_CORNERS


def hex_polygons(hexes: Sequence[Hex], scale: float = 1.0) -> np.ndarray:
    """The hexes' outlines as one (n, 6, 2) array (the fast way into a PolyCollection)."""
    q = np.fromiter((h.q for h in hexes), float, len(hexes))
    r = np.fromiter((h.r for h in hexes), float, len(hexes))
    centres = np.stack([1.5 * q, SQRT3 * (r + q / 2)], axis=1)
    return centres[:, None, :] + scale * HEX_CORNERS[None, :, :]


def colour_of(name: str, table: Mapping[str, str], order: list[str]) -> str:
    """The colour of terrain or a hexside feature ``name``: its own in ``table``, else tab10's
    by its place in ``order`` (the map's kinds, sorted)."""
    if name in table:
        return table[name]
    return _FALLBACK[order.index(name) % len(_FALLBACK)]


#: The most hexes ``MapOverlays.show_numbers`` prints a number in.
MOST_NUMBERS = 1_500


#: Inches from the figure's foot to a colour bar's foot, and its height: below three rows of
#: legend, its numbers under it.
COLOUR_BAR_BOTTOM = 0.17


#: What dims the hexes a picture sets aside (dead ground, not seen, out of reach): a dark
#: indigo, far in hue and darkness from the town's grey and every terrain colour.
DIMMED = "#241a5c"


COLOUR_BAR_HEIGHT = 0.09


_COMPOUND_CODES = np.array([Path.MOVETO, *[Path.LINETO] * 5, Path.CLOSEPOLY], dtype=Path.code_type)


class MapOverlays(PictureView):
    """The overlays of a drawn map (``wbk.draw.maps.MapView``, which sets the map and its hexes'
    outlines before it calls ``add_overlay_artists``)."""

    map: HexMap
    #: each drawn hex's place in ``polygons``
    index: dict[Hex, int]
    #: the drawn hexes' outlines, (n, 6, 2), and closed, (n, 7, 2), for compound paths
    polygons: np.ndarray
    _closed: np.ndarray

    def add_overlay_artists(self) -> None:
        """Make the overlays' artists, empty, above the map's terrain and features."""
        ax = self.ax
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

    def highlight(
        self,
        hexes: Collection[Hex],
        *,
        label: str = "",
        colour: str = SKY_BLUE,
        alpha: float = 0.6,
    ) -> None:
        """Lay one translucent colour (Okabe-Ito sky blue unless told) over ``hexes``, named
        ``label`` in the legend."""
        self.shade(
            {h: 1 for h in hexes},
            cmap=ListedColormap([colour]),
            vmin=0,
            vmax=1,
            label=label,
            alpha=alpha,
        )

    def dim(self, hexes: Collection[Hex], *, label: str = "") -> None:
        """Darken ``hexes`` with a translucent dark indigo (dead ground, not seen, out of
        reach): their terrain stays readable, and a dimmed hex is never taken for a town's grey
        (issue 30: a grey dimming was). ``label`` names them in the legend."""
        self.highlight(hexes, label=label, colour=DIMMED, alpha=0.55)

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
                text = StampedText(
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
                self.polygons[self.index[h]] if h in self.index else hex_polygon(h)
                for h in tr.hexes
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
        self.blocking_hexes.set_verts([hex_polygon(b) for b in blocking if isinstance(b, Hex)])
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
        circle: Hex | Collection[Hex] | None = None,
        square: Hex | None = None,
        *,
        labels: Sequence[str] = ("", ""),
    ) -> None:
        """Mark one hex (or several: each hex a picture names, say) with a black circle and
        another with a black square (as a line's firer and target are marked), named in the
        legend by ``labels``; ``None`` leaves a mark off."""
        entries = {}
        for h, artist, label in (
            (circle, self.firer_mark, labels[0]),
            (square, self.target_mark, labels[1]),
        ):
            if h is None:
                artist.set_data([], [])
                continue
            marked = [h] if isinstance(h, Hex) else sorted(h)
            points = [center(one) for one in marked]
            artist.set_data([x for x, _ in points], [y for _, y in points])
            if label:
                entries[label] = artist
        self.set_overlay_legend("trace", entries)

    def show_route(self, hexes: Sequence[Hex] | None, *, label: str = "route") -> None:
        """A path drawn hex centre to hex centre over the map (``None`` removes it)."""
        points = [center(h) for h in hexes or ()]
        self.route.set_data(*zip(*points, strict=False) if points else ([], []))
        self.set_overlay_legend("route", {label: self.route} if points else {})

    # --- a result at a step -------------------------------------------------------------------

    def show_step(self, steps: Sequence[Step], k: int, *, extra: Sequence[Hex] = ()) -> None:
        """Mark step ``k`` of ``steps`` on the map already showing the whole answer: the hexes,
        hexsides and corners its ``about`` names (and the hexes in ``extra``, for a drawing that
        reads more from it) outlined in sky blue, the hexes beside none of them dimmed, and the
        step in words with its rule as the title. A step about nothing on the map dims nothing."""
        step = steps[step_index(steps, k)]
        self.clear_step()
        about = [*step.about, *extra]
        hexes = [h for h in about if isinstance(h, Hex)]
        sides = [s for s in about if isinstance(s, Hexside)]
        corners = [c for c in about if isinstance(c, Corner)]
        near = set(hexes)
        for side in sides:
            near.update(side.hexes)
        for corner in corners:
            near.update(corner.hexes)
        artists: list[Artist] = []
        entries: dict[str, object] = {}
        if near:
            self.dim([h for h in self.map if h not in near], label="not this step")
        if hexes:
            outline = PolyCollection(
                list(hex_polygons(hexes, 0.92)),
                facecolor="none",
                edgecolor=STEP_COLOUR,
                linewidth=3.2,
                zorder=30,
            )
            artists.append(self.ax.add_collection(outline))
            entries["this step's hex"] = outline
        if sides:
            segments = [hexside_segment(s) for s in sides]
            edge = LineCollection(segments, colors=STEP_EDGE, linewidths=7.5, zorder=30)
            band = LineCollection(segments, colors=STEP_COLOUR, linewidths=5.0, zorder=30.1)
            artists += [self.ax.add_collection(edge), self.ax.add_collection(band)]
            entries["this step's hexside"] = band
        if corners:
            xs, ys = zip(*(corner_point(c) for c in corners), strict=True)
            (ring,) = self.ax.plot(
                xs,
                ys,
                linestyle="none",
                marker="o",
                markersize=13,
                markerfacecolor="none",
                markeredgecolor=STEP_COLOUR,
                markeredgewidth=3,
                zorder=30.2,
            )
            artists.append(ring)
            entries["this step's corner"] = ring
        self._step_artists = artists
        self.set_overlay_legend("step", entries)
        step_title(self, f"Step {k + 1} of {len(steps)}: {step.text} ({step.rule})")

    def clear_step(self) -> None:
        """Take a step's marks off (its dimming too): the whole answer again."""
        for artist in getattr(self, "_step_artists", ()):
            artist.remove()
        self._step_artists = []
        self.dim(())
        self.set_overlay_legend("step", {})


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
            [], colors=FEATURE_COLOURS["slope"], linewidths=1.2, zorder=Z_HACHURES
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
