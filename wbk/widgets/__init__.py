"""Widget panels for the notebooks: the presentation face of wbk.

Panels hold a drawn map (an ipympl canvas, so clicks select hexes and overlays redraw cheaply)
and a few controls. Every callback reports bad input as a one-line message naming the bad value;
no callback lets a traceback reach the notebook.

The parts, each a module of its own and every name importable from here: ``panel`` (``Panel``,
``reports_errors``, the canvas and the readers of a box), ``map_panels`` (``MapPanel``),
``chart_panels`` (``ChartPanel``, ``DistPanel``, ``chart_edge_cases``); here, reopening an edge
case (``load_edge_case``) and chapter 00's ``TracePanel``.
"""

from __future__ import annotations

import html
import os
import sys

import ipywidgets as widgets
from matplotlib.collections import PolyCollection

from wbk.draw.maps import Z_LABELS, hex_polygons
from wbk.errors import WbkError
from wbk.hexgrid import Hex, Trace, rounded_line, trace
from wbk.maps import HexMap
from wbk.widgets.chart_panels import ChartPanel, DistPanel, chart_edge_cases
from wbk.widgets.edge_cases import (
    EDGE_CASE_KINDS,
    checked_text,
    checked_toml,
    has_edge_cases,
    set_settings,
    toml_block,
    toml_value,
)
from wbk.widgets.files import LIVE_ONLY, PANELS_ENV, FileInput, in_app
from wbk.widgets.map_panels import MapPanel, map_canvas
from wbk.widgets.panel import (
    ERROR_COLOUR,
    LIVE_NOTE,
    MESSAGE_HEIGHT,
    NOT_RUN,
    PICTURES,
    STALE,
    InPlacePicture,
    Panel,
    interactive_figure,
    paint_ahead,
    parse_optional_number,
    parse_whole_numbers,
    quoted_list,
    reports_errors,
    shown_value,
    typed,
)

__all__ = [
    "EDGE_CASE_KINDS",
    "ERROR_COLOUR",
    "LIVE_NOTE",
    "LIVE_ONLY",
    "MESSAGE_HEIGHT",
    "NOT_RUN",
    "PANELS_ENV",
    "PICTURES",
    "STALE",
    "ChartPanel",
    "DistPanel",
    "FileInput",
    "InPlacePicture",
    "MapPanel",
    "Panel",
    "TracePanel",
    "chart_edge_cases",
    "checked_text",
    "checked_toml",
    "edge_case_panel",
    "has_edge_cases",
    "in_app",
    "interactive_figure",
    "load_edge_case",
    "map_canvas",
    "paint_ahead",
    "parse_optional_number",
    "parse_whole_numbers",
    "reports_errors",
    "set_settings",
    "shown_value",
    "toml_block",
    "toml_value",
    "typed",
]


def load_edge_case(path: str | os.PathLike[str]) -> Panel:
    """The panel an edge case describes, showing it again: a TOML file that "Save edge case"
    wrote, or a PNG that "Save picture" wrote (it carries its edge case inside). See
    ``edge_case_panel``: the file may come from a stranger."""
    from wbk.datafile import read_text
    from wbk.draw import read_edge_case

    source = str(path)
    text = read_edge_case(path) if source.lower().endswith(".png") else read_text(path, "edge case")
    return edge_case_panel(text, source)


def edge_case_panel(text: str, source: str) -> Panel:
    """The panel an edge case's TOML ``text`` describes (``source`` names it in messages).

    Its first line names the panel: one of the kinds registered with ``has_edge_cases`` or
    ``chart_edge_cases`` (nothing else is imported or called), whose ``from_edge_case(text,
    source)`` reads the rest: settings the panel declares, checked as typed input, and its files
    inline. Anything else is a ``WbkError`` in one line (``wbk.widgets.edge_cases``)."""
    from wbk.datafile import parse_toml

    data = parse_toml(text, source)
    named = data.get("panel")
    if not isinstance(named, str):
        raise WbkError(f"{source}: panel: missing (the first line names the panel)")
    owner, _, name = named.partition(".")
    kind = None
    if name.isidentifier() and not name.startswith("_"):
        kind = getattr(_panels_of(owner), name, None)
    if kind is None or kind not in EDGE_CASE_KINDS:
        raise WbkError(f"{source}: panel: {named!r} is not one of wbk's panels with edge cases")
    return kind.from_edge_case(text, source)


def _panels_of(owner: str) -> object:
    """Where the panels an edge case's ``owner`` names live: wbk's shared ones, or a registered
    rule set's ``panels`` (imported only for a name the registry knows)."""
    from wbk.games import games

    if owner == "wbk":
        return sys.modules[__name__]
    found = games().get(owner)
    return found.part("panels") if found is not None and found.has("panels") else None


@has_edge_cases
class TracePanel(MapPanel):
    """Pick two hexes (type their labels, or click the map) and see the exact trace drawn and
    listed.

    A click sets the end chosen in "click sets"; typed labels are checked against the map.
    """

    rule = "wbk's exact line between hex centres (chapter 00); geometry only, no game's rule"
    pane_lists_steps = True

    def __init__(self, m: HexMap, start: str, end: str, *, width: float = 6.0):
        self.ghost = widgets.Checkbox(
            value=False,
            description="ghost: the rounded float line",
            tooltip="the hexes of the usual method (points along the line rounded to hexes): "
            "where it parts from the exact line",
            style={"description_width": "initial"},
        )
        super().__init__(m, {"from": start, "to": end}, [self.ghost], width=width)
        self.ghost_outlines = PolyCollection(
            [], facecolor="none", edgecolor="#1a1a1a", linestyle=(0, (2, 2))
        )
        self.view.ax.add_collection(self.ghost_outlines)
        self.ghost_outlines.set_linewidth(1.6)
        # under the hex labels, which stay readable through it
        self.ghost_outlines.set_zorder(Z_LABELS - 0.5)
        self.step_control = self.add_step_control()
        self.update()

    def show(self, **hexes: Hex) -> str:
        from wbk.draw import trace_title
        from wbk.hexgrid import trace_steps

        tr = trace(hexes["from"], hexes["to"])
        self.view.show_trace(tr)
        # the distance beside the hexes passed: a line along hexsides passes fewer hexes than
        # its distance, a zig-zag more, and a reader should not take one for the other
        self.view.set_title(trace_title(self.map, tr))
        self.show_steps(trace_steps(tr, self.map.label))
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.map.describe(tr))
        return f"<ol>{items}</ol>{self.show_ghost(tr)}"

    def show_ghost(self, tr: Trace) -> str:
        """With the ghost on: outline the rounded float line's hexes (dashed) and say where it
        parts from the exact line; the pane's HTML."""
        if not self.ghost.value:
            self.ghost_outlines.set_verts([])
            self.view.set_overlay_legend("ghost", {})
            return ""
        naive = rounded_line(tr.a, tr.b)
        self.ghost_outlines.set_verts(list(hex_polygons(naive, 0.8)))
        self.view.set_overlay_legend(
            "ghost", {"the rounded float line's hexes": self.ghost_outlines}
        )
        label = self.map.label
        only_naive = [label(h) for h in naive if h not in tr.hexes]
        only_exact = [label(h) for h in tr.hexes if h not in naive]
        if not only_naive and not only_exact:
            return "<p>The rounded float line passes the same hexes as the exact line here.</p>"
        why = (
            "where the exact line runs along a hexside or through a corner, rounding picks a side"
            if tr.along or tr.touched
            else "it takes one hex for each hex of distance, and the exact line passes more"
        )
        passes = quoted_list(only_naive).replace('"', "") if only_naive else "no other hex"
        misses = quoted_list(only_exact).replace('"', "") if only_exact else "no hex of it"
        return (
            f"<p>The rounded float line parts from the exact line: it passes {html.escape(passes)} "
            f"and misses {html.escape(misses)} ({why}).</p>"
        )
