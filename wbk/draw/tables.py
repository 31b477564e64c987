"""Drawing a table measured in inches (``wbk.table``) with matplotlib, beside ``wbk.draw.maps``'
hexes.

``draw_table(table)`` builds a ``TableView`` once: terrain pieces by kind (rough dotted, obstacles
dark, hills with a contour), tanks as rotated rectangles with a gun barrel showing their facing,
in their side's colour, HQ and wreck symbols, names, and a 6-inch grid with its scale. Overlays
(the gun ranges around a firer, the line of sight with what hides the target, the reach of a
move by its chance, the distances from an HQ) change the data of a few fixed artists and never
rebuild the table. The layout is fixed as ``wbk.draw.maps``' maps are: the title above, the legend
below, so the table never moves when the legend grows and a click lands where it is drawn.

A ``TableView`` is made of its layers, each a class of its own: ``TerrainLayer`` (the board, its
grid and the terrain), ``PiecesLayer`` (the tanks and their names), and the overlays
``ReachOverlay``, ``RangesOverlay``, ``SightOverlay`` and ``LinksOverlay``; the view itself adds
a step's marks (``show_step``).

**At a step.** ``view.show_step(steps, k)`` outlines in sky blue what step ``k`` is about (its
``Step.about``: tanks and terrain pieces by name, ``"range <gun>"`` for a gun's range circle,
``"reach"`` or ``"reach <roll>"`` for the reach's bands, ``"platoon radius"`` / ``"rally
radius"`` for the circle around an HQ, ``"link <tank>"`` for the line from the HQ to a tank),
dims the rest of the table and titles the picture with the step. A game's results are drawn on
a table by the game's drawing module (``wbk.draw.<game>``).

Public names: ``draw_table``, ``TableView``, ``shape_paths``, ``table_axes``,
``table_figure_size``, ``table_png``, ``say_chance``, ``say_inches``, ``name_label``,
``SIDE_COLOURS``, ``TERRAIN_STYLES``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import matplotlib
from matplotlib import patheffects
from matplotlib.collections import LineCollection, PathCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch
from matplotlib.path import Path
from shapely.geometry import box
from shapely.geometry.polygon import orient
from shapely.ops import unary_union

from wbk.dice import chance, percent
from wbk.draw.maps import BLOCKED_LINE, CLEAR, CLEAR_LINE, TITLE_HEIGHT
from wbk.draw.view import STEP_COLOUR, PictureView, step_index, step_title
from wbk.explain import Step
from wbk.table import Table, seen_share
from wbk.tableexact import inches_against, squared_distance, within

#: Terrain kinds as drawn: fill, outline and hatching (rough is dotted so it reads as passable).
TERRAIN_STYLES: dict[str, dict[str, Any]] = {
    "rough": {"facecolor": "#c9b48a", "edgecolor": "#8a7348", "hatch": ".."},
    "obstacle": {"facecolor": "#7d756b", "edgecolor": "#3d3833", "hatch": None},
    "hill": {"facecolor": "#e3cf9c", "edgecolor": "#9c7a3c", "hatch": None},
}
TERRAIN_NAMES = {
    "rough": 'rough terrain (3" to move through)',
    "obstacle": "obstacle (blocks sight and movement)",
    "hill": 'hill (blocks sight; 3" to climb)',
}
#: An obstacle marked ``blocks_sight = false`` (a low wall): lighter, hatched across.
LOW_OBSTACLE_STYLE: dict[str, Any] = {"facecolor": "#bdb5aa", "edgecolor": "#3d3833", "hatch": "||"}
LOW_OBSTACLE_NAME = "low obstacle (blocks movement, not sight)"
#: Sides' colours, in order of first appearance: Okabe-Ito sky blue and yellow, then more.
SIDE_COLOURS = ("#56B4E9", "#F0E442", "#CC79A7", "#009E73")
WRECK = "#4a4a4a"
GRID = 6
RANGE_COLOUR = "#333333"
#: The reach bands: one hue (purple, clear of the terrain's tans and greys and of the sides'
#: blue and yellow), darker the likelier.
REACH_CMAP = "Purples"
#: The hidden part of the target: black cross-hatching, apart from the orange of what hides it.
HIDDEN_LINE = "black"
#: Inch labels along the table's edges.
EDGE_LABEL: dict[str, Any] = {"fontsize": 7.5, "color": "#4d4a42"}
#: Inches below the table for its legend (ten rows: the table has more to explain than a map).
LEGEND_HEIGHT = 1.45


#: The size of a tank's name (points): 9 points at the size the picture is published.
NAME_SIZE = 9


def _overlap(a, b) -> bool:
    """Whether two boxes (left, bottom, right, top) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def say_inches(x: float) -> str:
    """Inches as a wargamer says them: 14", 7.5"."""
    return f'{x:.0f}"' if abs(x - round(x)) < 0.05 else f'{x:.1f}"'


def say_chance(p: Fraction) -> str:
    """A chance as every wbk picture says one (``wbk.dice.chance``): "91/216 (42.13%)", a long
    fraction as odds or its percent, never a 40-digit fraction (0 and 1 as they are)."""
    return chance(Fraction(p))


def _drawn_as(terrain) -> str:
    """The style a terrain piece is drawn in: its kind, or "low" for an obstacle seen over."""
    return "low" if terrain.kind == "obstacle" and not terrain.blocks_sight else terrain.kind


def name_label(piece) -> str:
    """The words under a piece on the picture: its name, and its platoon when it has one."""
    platoon = getattr(piece, "platoon", "")
    return f"{piece.name} · pl. {platoon}" if platoon else piece.name


def _side_colours(table: Table) -> dict[str, str]:
    sides = list(dict.fromkeys(p.side for p in table.pieces))
    return {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sides)}


def _coords(polygon) -> list[tuple[float, float]]:
    return [tuple(c) for c in polygon.exterior.coords[:-1]]


def _polygons(geometry) -> list:
    """The polygons of a shapely geometry (points and lines dropped)."""
    if geometry is None or geometry.is_empty:
        return []
    if geometry.geom_type == "Polygon":
        return [geometry]
    return [g for part in getattr(geometry, "geoms", []) for g in _polygons(part)]


def shape_paths(geometry) -> list[Path]:
    """A geometry's polygons as matplotlib paths, their holes left open (a band of reach is a
    ring around the nearer bands)."""
    paths = []
    for polygon in _polygons(geometry):
        polygon = orient(polygon, 1.0)  # holes run the other way: the nonzero rule leaves them out
        rings = [polygon.exterior, *polygon.interiors]
        paths.append(
            Path.make_compound_path(*(Path(list(ring.coords), closed=True) for ring in rings))
        )
    return paths


class TerrainLayer(PictureView):
    """The table itself: the board, its grid and inch labels, the terrain pieces by kind and
    their names."""

    table: Table

    def _add_board(self, table: Table) -> None:
        ax = self.ax
        self.board = matplotlib.patches.Rectangle(
            (0, 0),
            table.width,
            table.depth,
            facecolor=CLEAR,
            edgecolor="#7d7668",
            linewidth=1.2,
            zorder=0,
        )
        ax.add_patch(self.board)
        self.grid = LineCollection(
            self._grid_lines(table), colors="#bdb6a6", linewidths=0.5, zorder=0.5
        )
        ax.add_collection(self.grid)
        for x in range(GRID, int(table.width) + 1 - GRID // 2, GRID):
            ax.text(
                x,
                0.3,
                say_inches(x),
                ha="center",
                va="bottom",
                zorder=0.6,
                **EDGE_LABEL,
            )
        for y in range(GRID, int(table.depth) + 1 - GRID // 2, GRID):
            ax.text(
                0.3,
                y,
                say_inches(y),
                ha="left",
                va="center",
                zorder=0.6,
                **EDGE_LABEL,
            )
        self.terrain = {}
        for kind, style in [*TERRAIN_STYLES.items(), ("low", LOW_OBSTACLE_STYLE)]:
            collection = PolyCollection(
                [], linewidths=1.2 if kind == "hill" else 0.8, zorder=1, **style
            )
            ax.add_collection(collection)
            self.terrain[kind] = collection
        self.terrain_names: list = []

    @staticmethod
    def _grid_lines(table: Table) -> list:
        lines = [((x, 0), (x, table.depth)) for x in range(GRID, math.ceil(table.width), GRID)]
        return lines + [
            ((0, y), (table.width, y)) for y in range(GRID, math.ceil(table.depth), GRID)
        ]

    def _show_terrain(self, table: Table) -> None:
        """The terrain pieces of ``table`` and their names."""
        for kind, collection in self.terrain.items():
            collection.set_verts([t.points for t in table.terrain if _drawn_as(t) == kind])
        for text in self.terrain_names:
            text.remove()
        self.terrain_names = [
            self.ax.text(
                t.polygon.representative_point().x,
                t.polygon.representative_point().y,
                t.name,
                fontsize=6.5,
                ha="center",
                va="center",
                style="italic",
                color="#3d3833",
                zorder=4.4,
                path_effects=[patheffects.withStroke(linewidth=2, foreground="white")],
            )
            for t in table.terrain
            if t.name
        ]

    def terrain_entries(self) -> dict[str, object]:
        """The legend's terrain kinds, those on the table."""
        entries: dict[str, object] = {}
        kinds = {_drawn_as(t) for t in self.table.terrain}
        for kind, style in TERRAIN_STYLES.items():
            if kind in kinds:
                entries[TERRAIN_NAMES[kind]] = Patch(**style)
        if "low" in kinds:
            entries[LOW_OBSTACLE_NAME] = Patch(**LOW_OBSTACLE_STYLE)
        return entries


class PiecesLayer(PictureView):
    """The tanks: rectangles in their side's colour (a wreck grey), a barrel showing the facing,
    HQ, wreck and shaken marks, and names placed where they cover no other tank or name."""

    table: Table

    def _add_pieces(self) -> None:
        ax = self.ax
        self.tanks = PolyCollection([], edgecolors="black", linewidths=0.8, zorder=3)
        ax.add_collection(self.tanks)
        self.barrels = LineCollection([], colors="black", linewidths=1.6, zorder=3.1)
        ax.add_collection(self.barrels)
        (self.hq_marks,) = ax.plot(
            [], [], "*", color="white", markeredgecolor="black", markersize=9, zorder=4.2
        )
        (self.wreck_marks,) = ax.plot(
            [], [], "x", color="white", markeredgewidth=1.8, markersize=7, zorder=4.2
        )
        (self.shaken_marks,) = ax.plot(
            [], [], "o", color="#D55E00", markeredgecolor="white", markersize=5, zorder=4.3
        )
        self.names: list = []

    def _show_pieces(self, table: Table) -> None:
        """The pieces of ``table``, its names last of all."""
        for text in self.names:
            text.remove()
        self.side_colour = _side_colours(table)
        pieces = table.pieces
        self.tanks.set_verts([_coords(p.footprint) for p in pieces])
        self.tanks.set_facecolor(
            [WRECK if getattr(p, "destroyed", False) else self.side_colour[p.side] for p in pieces]
        )
        barrels = []
        for p in pieces:
            a = math.radians(p.facing)
            tip = 0.5 * p.length + 0.7
            barrels.append(
                (p.position, (p.position[0] + tip * math.cos(a), p.position[1] + tip * math.sin(a)))
            )
        self.barrels.set_segments(barrels)

        def centres(keep):
            chosen = [p.position for p in pieces if keep(p)]
            return ([x for x, _ in chosen], [y for _, y in chosen])

        self.hq_marks.set_data(
            *centres(lambda p: getattr(p, "is_hq", False) and not getattr(p, "destroyed", False))
        )
        self.wreck_marks.set_data(*centres(lambda p: getattr(p, "destroyed", False)))
        self.shaken_marks.set_data(
            *(
                [p.position[0] + 0.45 for p in pieces if getattr(p, "shaken", False)],
                [p.position[1] - 0.45 for p in pieces if getattr(p, "shaken", False)],
            )
        )
        # names last of all (above every overlay) and haloed, so nothing drawn covers them
        self.names = [
            self.ax.text(
                x,
                y,
                name_label(p),
                fontsize=NAME_SIZE,
                ha=ha,
                va=va,
                zorder=5,
                path_effects=[patheffects.withStroke(linewidth=3, foreground="white")],
            )
            for p, (x, y, ha, va) in zip(pieces, self._name_places(pieces), strict=False)
        ]

    def inches_per_point(self) -> float:
        """Table inches per typographic point at the figure's size."""
        figure_width = self.figure.bbox.width / self.figure.dpi * self.ax.get_position().width
        return (self.table.width + 1) / (figure_width * 72)

    def _name_places(self, pieces) -> list[tuple[float, float, str, str]]:
        """Where each tank's name goes: above the tank, else below, right or left of it, the
        first place where it runs into no name already placed and no other tank."""
        per_point = self.inches_per_point()
        placed: list[tuple[float, float, float, float]] = []
        tanks = [p.footprint.bounds for p in pieces]
        places = {}
        for p in sorted(pieces, key=lambda p: (p.position[0], p.position[1])):
            half = 0.5 * max(p.width, p.length) + 0.3
            width = len(name_label(p)) * 0.58 * NAME_SIZE * per_point + 0.3
            height = 1.25 * NAME_SIZE * per_point
            x, y = p.position
            options = [  # (x, y, ha, va) and the box the name covers there
                ((x, y + half, "center", "bottom"), (x - width / 2, y + half, width, height)),
                ((x, y - half, "center", "top"), (x - width / 2, y - half - height, width, height)),
                ((x + half, y, "left", "center"), (x + half, y - height / 2, width, height)),
                (
                    (x - half, y, "right", "center"),
                    (x - half - width, y - height / 2, width, height),
                ),
            ]
            own = p.footprint.bounds
            for place, (left, bottom, w, h) in options:  # noqa: B007 (the else keeps the first)
                box = (left, bottom, left + w, bottom + h)
                others = [t for t in tanks if t != own]
                if not any(_overlap(box, other) for other in [*placed, *others]):
                    break
            else:
                place, (left, bottom, w, h) = options[0]
                box = (left, bottom, left + w, bottom + h)
            placed.append(box)
            places[p.name] = place
        return [places[p.name] for p in pieces]

    def pieces_entries(self) -> dict[str, object]:
        """The legend's sides (those with a tank standing), HQ, wrecks and shaken markers."""
        entries: dict[str, object] = {}
        for side, colour in self.side_colour.items():
            if any(
                p.side == side and not getattr(p, "destroyed", False) for p in self.table.pieces
            ):
                entries[f"{side or 'no side'} tank (barrel: facing)"] = Patch(
                    facecolor=colour, edgecolor="black"
                )
        if self.hq_marks.get_xdata():
            entries["HQ"] = Line2D(
                [],
                [],
                linestyle="none",
                marker="*",
                color="white",
                markeredgecolor="black",
                markersize=8,
            )
        if self.wreck_marks.get_xdata():
            entries["wreck (blocks like a tank)"] = Line2D(
                [],
                [],
                linestyle="none",
                marker="x",
                color="white",
                markeredgewidth=1.8,
                markersize=7,
                markerfacecolor=WRECK,
                markeredgecolor=WRECK,
            )
        if self.shaken_marks.get_xdata():
            entries["shaken"] = Line2D(
                [], [], linestyle="none", marker="o", color="#D55E00", markersize=5
            )
        return entries


class ReachOverlay(PictureView):
    """Where a tank can move: each roll's band of places, darker the likelier."""

    def _add_reach(self) -> None:
        ax = self.ax
        self.reach = PathCollection([], edgecolors="none", zorder=1.5)
        ax.add_collection(self.reach)
        self.reach_bands: dict[int, Any] = {}

    def show_reach(self, reach) -> None:
        """A reach by the roll (its ``bands``, as Pz 8's ``MovementReach``): each roll's band of
        places, translucent and darker the more likely (the terrain shows through). ``None``
        removes it."""
        entries: dict[str, object] = {}
        bands = [] if reach is None else [b for b in reach.bands if not b.area.is_empty]
        paths, colours = [], []
        cmap = matplotlib.colormaps[REACH_CMAP]
        for band in bands:
            colour = cmap(0.2 + 0.8 * float(band.probability), alpha=0.7)
            found = shape_paths(band.area)
            paths += found
            colours += [colour] * len(found)
            roll = "any roll" if band.roll == 1 else f"{band.roll}+"
            entries[f"reach {say_inches(band.inches)} ({roll}): {percent(band.probability)}"] = (
                Patch(facecolor=colour, edgecolor="none")
            )
        self.reach_bands = {band.roll: band.area for band in bands}
        self.reach.set_paths(paths)
        self.reach.set_facecolor(colours)
        self.set_overlay_legend("reach", entries)


class RangesOverlay(PictureView):
    """The gun ranges around a firer: a circle for each range, labelled where it hides least."""

    table: Table
    board: matplotlib.patches.Rectangle

    def _add_ranges(self) -> None:
        ax = self.ax
        self.ranges = [Circle((0, 0), 1, fill=False, visible=False, zorder=1.6) for _ in range(3)]
        for circle in self.ranges:
            ax.add_patch(circle)
            circle.set_clip_path(self.board)
        self.range_texts = [
            ax.text(
                0,
                0,
                "",
                fontsize=7,
                ha="center",
                va="center",
                color=RANGE_COLOUR,
                zorder=1.7,
                path_effects=[patheffects.withStroke(linewidth=2, foreground="white")],
            )
            for _ in range(3)
        ]
        self.range_of: dict[str, tuple[float, float, float]] = {}

    def show_ranges(
        self, firer: str | None, ranges: Mapping[str, float] | None = None, *, gun: str = ""
    ) -> None:
        """Circles of the gun ranges (``{"short": 12, ...}``) around ``firer``'s centre; the
        firer's own ``gun`` drawn solid, the others dotted. ``None`` removes them."""
        ranges = dict(ranges or {})
        entries: dict[str, object] = {}
        if firer is None or not ranges:
            for circle, text in zip(self.ranges, self.range_texts, strict=False):
                circle.set_visible(False)
                text.set_text("")
        else:
            x, y = self.table.piece(firer).position
            self.range_of = {name: (x, y, r) for name, r in ranges.items()}
            for circle, text, (name, r) in zip(
                self.ranges, self.range_texts, ranges.items(), strict=False
            ):
                own = name == gun
                circle.set(
                    center=(x, y),
                    radius=r,
                    visible=True,
                    edgecolor=RANGE_COLOUR,
                    linestyle="-" if own else ":",
                    linewidth=1.6 if own else 0.9,
                )
                text.set(**self._range_label_place(x, y, r), text=f"{name} {say_inches(r)}")
            listed = ", ".join(f"{n} {say_inches(r)}" for n, r in ranges.items() if n != gun)
            if gun in ranges:
                entries[f"{firer}'s {gun} gun: {say_inches(ranges[gun])}"] = Line2D(
                    [], [], color=RANGE_COLOUR, linewidth=1.6
                )
            if listed:
                entries[f"other guns: {listed}"] = Line2D(
                    [], [], color=RANGE_COLOUR, linewidth=0.9, linestyle=":"
                )
        self.set_overlay_legend("ranges", entries)

    def _range_label_place(self, x: float, y: float, r: float) -> dict:
        """Where to print a range circle's label: on the circle, inside the table, as far as
        the circle allows from the pieces and the terrain (so it hides nothing)."""
        from shapely.geometry import Point

        shapes = [p.footprint for p in self.table.pieces] + [t.polygon for t in self.table.terrain]
        # the inch labels along the near and left edges
        shapes += [Point(x, 0.8) for x in range(GRID, int(self.table.width) + 1, GRID)]
        shapes += [Point(1.2, y) for y in range(GRID, int(self.table.depth) + 1, GRID)]
        best, place = (
            -1.0,
            {
                "x": min(max(x, 1), self.table.width - 1),
                "y": min(max(y + r, 1), self.table.depth - 1),
            },
        )
        for angle in range(45, 405, 15):
            px, py = x + r * math.cos(math.radians(angle)), y + r * math.sin(math.radians(angle))
            if not (2 <= px <= self.table.width - 2 and 1 <= py <= self.table.depth - 1):
                continue
            clear = min((shape.distance(Point(px, py)) for shape in shapes), default=99.0)
            if clear > best + 0.5:
                best, place = clear, {"x": px, "y": py}
        return place


class SightOverlay(PictureView):
    """A line of sight: the line centre to centre, the lines to the target's edges, what hides
    the target and its hidden part, the firer and the target marked."""

    table: Table

    def _add_sight(self) -> None:
        ax = self.ax
        self.blockers = PolyCollection(
            [], facecolors="none", edgecolors=BLOCKED_LINE, hatch="//", linewidths=2, zorder=3.5
        )
        ax.add_collection(self.blockers)
        self.hidden = PathCollection(
            [], facecolors="none", edgecolors=HIDDEN_LINE, hatch="xxxx", linewidths=1, zorder=3.6
        )
        ax.add_collection(self.hidden)
        self.fan = LineCollection([], colors=CLEAR_LINE, linewidths=0.8, linestyles=":", zorder=3.7)
        ax.add_collection(self.fan)
        self.line = Line2D([], [], color=CLEAR_LINE, linewidth=2, zorder=3.8)
        ax.add_line(self.line)
        (self.firer_mark,) = ax.plot(
            [],
            [],
            "o",
            markerfacecolor="none",
            markeredgecolor="black",
            markeredgewidth=2,
            markersize=22,
            zorder=3.9,
        )
        (self.target_mark,) = ax.plot(
            [],
            [],
            "s",
            markerfacecolor="none",
            markeredgecolor="black",
            markeredgewidth=2,
            markersize=18,
            zorder=3.9,
        )

    def show_sight(self, sight) -> None:
        """A line of sight (a ``wbk.table.Sight``): the line centre to centre, the sight lines to
        the target's edges, what hides the target outlined and hatched, the hidden part of the
        target cross-hatched. ``None`` removes it."""
        entries: dict[str, object] = {}
        if sight is None:
            self.line.set_data([], [])
            self.fan.set_segments([])
            self.blockers.set_verts([])
            self.hidden.set_paths([])
            self.firer_mark.set_data([], [])
            self.target_mark.set_data([], [])
        else:
            a, b = self.table.piece(sight.firer), self.table.piece(sight.target)
            (ax_, ay), (bx, by) = a.position, b.position
            seen = sight.has_los
            colour = CLEAR_LINE if seen else BLOCKED_LINE
            self.line.set_data([ax_, bx], [ay, by])
            self.line.set_color(colour)
            self.line.set_linestyle("-" if sight.all_seen else (0, (5, 3)))
            corners = _coords(b.footprint)
            base = math.atan2(by - ay, bx - ax_)

            def bearing(c):
                return (math.atan2(c[1] - ay, c[0] - ax_) - base + math.pi) % (
                    2 * math.pi
                ) - math.pi

            edges = [min(corners, key=bearing), max(corners, key=bearing)]
            self.fan.set_segments([(a.position, c) for c in edges])
            self.fan.set_color(colour)
            shapes = {f"{p.name!r}": p.footprint for p in self.table.pieces}
            shapes.update({t.label: t.polygon for t in self.table.terrain})
            self.blockers.set_verts(
                [_coords(shapes[label]) for label, _ in sight.hidden_by if label in shapes]
            )
            self.hidden.set_paths(shape_paths(getattr(sight, "hidden", None)))
            self.firer_mark.set_data([ax_], [ay])
            self.target_mark.set_data([bx], [by])
            if sight.all_seen:
                verdict = "line of sight: in the open"
            elif seen:
                verdict = f"line of sight: in cover ({seen_share(sight.visible_fraction)} seen)"
            else:
                verdict = "no line of sight"
            entries[verdict] = self.line
            entries["lines to the target's edges"] = Line2D(
                [], [], color=colour, linestyle=":", linewidth=0.8
            )
            entries["firer"], entries["target"] = self.firer_mark, self.target_mark
            if sight.hidden_by:
                entries["hides the target"] = self.blockers
                entries["hidden part of the target"] = self.hidden
        self.set_overlay_legend("sight", entries)


class LinksOverlay(PictureView):
    """The distances that decide a platoon move or a rally: the radius around the HQ and a line
    from the HQ to each tank measured, with its length."""

    table: Table
    board: matplotlib.patches.Rectangle

    def _add_links(self) -> None:
        ax = self.ax
        self.radius = Circle((0, 0), 1, fill=False, visible=False, zorder=1.6, linestyle="--")
        ax.add_patch(self.radius)
        self.radius.set_clip_path(self.board)
        self.links = LineCollection([], linewidths=2, zorder=3.8)
        ax.add_collection(self.links)
        self.link_texts: list = []
        self.link_shapes: dict[str, Any] = {}
        self.radius_shape: Any = None

    def show_links(
        self,
        hq: str | None,
        tanks: Sequence[str],
        radius: float,
        words: str,
    ) -> None:
        """The distances that decide a platoon move or a rally: a dashed circle of ``radius``
        inches around the HQ's centre and a line from the HQ to each of ``tanks``, blue within
        the radius and vermillion beyond, its length in inches at its middle. ``words`` says
        what the radius is for ("platoon move", "rally"). ``hq=None`` removes them."""
        from shapely.geometry import LineString, Point

        for text in self.link_texts:
            text.remove()
        self.link_texts, self.link_shapes, self.radius_shape = [], {}, None
        entries: dict[str, object] = {}
        if hq is None:
            self.radius.set_visible(False)
            self.links.set_segments([])
            self.set_overlay_legend("links", entries)
            return
        centre = self.table.piece(hq).position
        self.radius.set(center=centre, radius=radius, visible=True, edgecolor="#0072B2")
        self.radius_shape = Point(centre).buffer(radius).exterior.buffer(0.25)
        entries[f"{say_inches(radius)} around the HQ ({words})"] = Line2D(
            [], [], color="#0072B2", linestyle="--", linewidth=1
        )
        segments, colours = [], []
        for name in tanks:
            if name == hq:
                continue
            there = self.table.piece(name).position
            squared = squared_distance(centre, there)
            near = within(squared, radius)  # the limit met exactly, as the rules meet it
            colour = CLEAR_LINE if near else BLOCKED_LINE
            segments.append((centre, there))
            colours.append(colour)
            self.link_shapes[name] = LineString([centre, there]).buffer(0.3)
            middle = ((centre[0] + there[0]) / 2, (centre[1] + there[1]) / 2)
            self.link_texts.append(
                self.ax.text(
                    *middle,
                    inches_against(squared, radius),
                    fontsize=8,
                    ha="center",
                    va="center",
                    color=colour,
                    zorder=4.7,  # over a step's marks: the length stays readable
                    path_effects=[patheffects.withStroke(linewidth=2.5, foreground="white")],
                )
            )
            key = (
                f"within {say_inches(radius)} of the HQ"
                if near
                else (f"more than {say_inches(radius)} from the HQ")
            )
            entries[key] = Line2D([], [], color=colour, linewidth=2)
        self.links.set_segments(segments)
        self.links.set_color(colours)
        self.set_overlay_legend("links", entries)


class TableView(TerrainLayer, PiecesLayer, ReachOverlay, RangesOverlay, SightOverlay, LinksOverlay):
    """A drawn table with overlays that update in place. Build it with ``draw_table``."""

    legend_style: ClassVar[dict[str, object]] = {
        "ncol": 3,
        "fontsize": 7,
        "frameon": False,
        "handlelength": 1.3,
        "handletextpad": 0.5,
        "columnspacing": 0.7,
    }

    def __init__(self, table: Table, ax):
        super().__init__(ax)
        self.table = table
        # the layers add their artists in this order: of two artists at the same z-order, the
        # one added first is drawn first
        self._add_board(table)
        self._add_reach()
        self._add_ranges()
        self._add_pieces()
        self._add_sight()
        self._add_links()
        self._add_step_marks()
        self.show_contents(table)
        ax.set_xlim(-0.5, table.width + 0.5)
        ax.set_ylim(-0.5, table.depth + 0.5)
        ax.set_aspect("equal")
        ax.set_axis_off()
        self.set_title(table.name)

    def _add_step_marks(self) -> None:
        """A step's marks, over everything: the rest of the table dimmed, its part outlined."""
        self.step_dim = PathCollection(
            [], facecolors="white", edgecolors="none", alpha=0.6, zorder=4.5
        )
        self.step_marks = PathCollection(
            [], facecolors="none", edgecolors=STEP_COLOUR, linewidths=3, zorder=4.6
        )
        self.ax.add_collection(self.step_dim)
        self.ax.add_collection(self.step_marks)

    def show_contents(self, table: Table) -> None:
        """Show the terrain and pieces of ``table`` (an edited copy of the same size): the
        artists stay, only their data change. Overlays are kept; redraw them if they changed."""
        if (table.width, table.depth) != (self.table.width, self.table.depth):
            raise ValueError(f"table {table.name!r} is not the size of the drawn table")
        self.table = table
        self._show_terrain(table)
        self._show_pieces(table)
        self.update_legend()

    def picture_entries(self) -> dict[str, object]:
        """Terrain kinds, sides, HQ, wrecks, shaken markers and the grid."""
        return {
            **self.terrain_entries(),
            **self.pieces_entries(),
            f"grid: {GRID} inches": Line2D([], [], color="#bdb6a6", linewidth=1),
        }

    def about_shape(self, about: object):
        """The table's shape (a shapely geometry) that a step's ``about`` names, or None: a
        piece by its name (as given, or quoted as a sight's steps name what hides), a terrain
        piece by its label, ``"range <gun>"`` a range circle on show, ``"reach"`` /
        ``"reach <roll>"`` the reach's bands on show."""
        from shapely.geometry import Point

        if not isinstance(about, str):
            return None
        for p in self.table.pieces:
            if about in (p.name, repr(p.name)):
                return p.footprint
        for t in self.table.terrain:
            # a reach's steps add what was charged: "rough 'marsh' (3")"
            if about == t.label or about.startswith(t.label + " ("):
                return t.polygon
        if about.startswith("range ") and about[6:] in self.range_of:
            x, y, r = self.range_of[about[6:]]
            return Point(x, y).buffer(r).exterior.buffer(0.25)
        if about in ("platoon radius", "rally radius") and self.radius_shape is not None:
            return self.radius_shape
        if about.startswith("link ") and about[5:] in self.link_shapes:
            return self.link_shapes[about[5:]]
        if about == "reach" and self.reach_bands:
            return unary_union(list(self.reach_bands.values()))
        if about.startswith("reach ") and about[6:].isdigit():
            return self.reach_bands.get(int(about[6:]))
        return None

    def show_step(self, steps: Sequence[Step], k: int) -> None:
        """Mark step ``k`` of ``steps`` on the table already showing the whole answer: what it is
        about outlined in sky blue, the rest of the table dimmed ("not this step"), the step in
        words with its rule as the title. A step about nothing drawn dims nothing."""
        k = step_index(steps, k)
        step = steps[k]
        self.clear_step()
        shapes = [s for s in (self.about_shape(a) for a in step.about) if s is not None]
        shapes = [s for s in shapes if not s.is_empty]
        entries: dict[str, object] = {}
        if shapes:
            board = box(0, 0, self.table.width, self.table.depth)
            about = unary_union(shapes).intersection(board)
            rest = board.difference(about.buffer(0.4))
            self.step_dim.set_paths(shape_paths(rest))
            self.step_marks.set_paths(shape_paths(about))
            entries["this step's part"] = Patch(
                facecolor="none", edgecolor=STEP_COLOUR, linewidth=3
            )
            entries["not this step"] = Patch(facecolor="white", edgecolor="#999999", alpha=0.6)
        self.set_overlay_legend("step", entries)
        step_title(self, f"Step {k + 1} of {len(steps)}: {step.text} ({step.rule})")

    def clear_step(self) -> None:
        """Take a step's marks off: the whole answer again (the title stays)."""
        self.step_dim.set_paths([])
        self.step_marks.set_paths([])
        self.set_overlay_legend("step", {})

    def clear(self) -> None:
        """Remove every overlay, back to the plain table."""
        self.clear_step()
        self.show_ranges(None)
        self.show_sight(None)
        self.show_reach(None)
        self.show_links(None, (), 0, "")
        self.set_title(self.table.name)

    def redraw(self) -> None:
        self.figure.canvas.draw_idle()

    def point_at(self, x: float | None, y: float | None) -> tuple[float, float] | None:
        """The table point under a drawing position (a mouse click), or None off the table."""
        if (
            x is None
            or y is None
            or not (0 <= x <= self.table.width and 0 <= y <= self.table.depth)
        ):
            return None
        return (float(x), float(y))

    def piece_at(self, x: float | None, y: float | None) -> str | None:
        """The name of the piece under a drawing position, or None."""
        from shapely.geometry import Point

        if self.point_at(x, y) is None:
            return None
        for p in self.table.pieces:
            if p.footprint.buffer(0.25).covers(Point(x, y)):
                return p.name
        return None


def draw_table(table: Table, *, ax=None, width: float | None = None) -> TableView:
    """Draw ``table`` on ``ax`` (a new figure of ``table_figure_size`` when omitted) and return
    the view to add overlays to."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = table_axes(plt.figure(figsize=table_figure_size(table, width)))
    return TableView(table, ax)


def table_axes(figure: Figure):
    """The axes for a table filling a figure of ``table_figure_size``: a fixed layout with room
    for a two-line title above and the legend below (a click lands where the table is drawn)."""
    _width, height = figure.get_size_inches()
    bottom, top = LEGEND_HEIGHT / height, TITLE_HEIGHT / height
    return figure.add_axes((0.01, bottom, 0.98, 1 - bottom - top))


def table_figure_size(table: Table, width: float | None = None) -> tuple[float, float]:
    """A figure size (inches) in the table's proportions, with room for the title and legend."""
    w = width or 6.5
    return w, (w * 0.98) * (table.depth + 1) / (table.width + 1) + TITLE_HEIGHT + LEGEND_HEIGHT


def table_png(table: Table) -> bytes:
    """The table drawn as PNG bytes, without pyplot (used for a Table's Jupyter display)."""
    fig = Figure(figsize=table_figure_size(table, 6.5))
    draw_table(table, ax=table_axes(fig))
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()
