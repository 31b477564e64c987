"""What a map picture lays over its map, in place: a translucent layer of values (``shade``,
``highlight``, ``dim``) with its colour bar, numbers in hexes, a traced line with what it
crosses and what blocks it, marks on two hexes, and a route. Each overlay changes the data of
a few artists made once (``add_overlay_artists``), never the map under it, so that a panel
redraws cheaply; each names what it shows in the legend."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import cast

import matplotlib
import numpy as np
from matplotlib import patheffects
from matplotlib.artist import Artist
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colorbar import Colorbar
from matplotlib.colors import Colormap, ListedColormap, Normalize
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from wbk.explain import Step
from wbk.hexgrid import Corner, Hex, Hexside, Trace
from wbk.mapartists import StampedText
from wbk.maps import HexMap
from wbk.mapstyle import (
    ALONG,
    BLOCKED_LINE,
    BLOCKING_SIDE,
    CLEAR_LINE,
    CROSSED,
    ROUTE,
    SKY_BLUE,
    Z_ENDS,
    Z_LAYER,
    Z_LINES,
    Z_NUMBERS,
    Z_OUTLINES,
    Z_SIDES,
    center,
    corner_point,
    hex_polygon,
    hex_polygons,
    hexside_segment,
)
from wbk.pictureview import STEP_COLOUR, STEP_EDGE, PictureView, step_index, step_title

__all__ = ["COLOUR_BAR_BOTTOM", "COLOUR_BAR_HEIGHT", "MOST_NUMBERS", "MapOverlays"]

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
    """The overlays of a drawn map (``wbk.plot.MapView``, which sets the map and its hexes'
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
