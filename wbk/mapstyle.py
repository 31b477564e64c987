"""The sheet every hex map picture is drawn to: where each hex sits on the page (flat-topped
hexes of circumradius 1, y growing downwards, as printed maps are laid out), the colours of
terrain, features and overlays, and the drawing order that every layer of a map picture keeps
(``wbk.plot`` draws the map, ``wbk.mapoverlays`` what is laid over it)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib import patheffects
from matplotlib.colors import TABLEAU_COLORS

from wbk.hexgrid import Corner, Hex, Hexside

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
