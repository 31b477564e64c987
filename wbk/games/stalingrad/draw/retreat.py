"""Streets of Stalingrad 9.87-9.89 drawn: a situation and its retreat on the map
(``RetreatOverlay``, ``draw_retreat``), its title, and what another reading changes."""

from __future__ import annotations

import textwrap
from typing import Any

from matplotlib import patheffects
from matplotlib.artist import Artist
from matplotlib.collections import PolyCollection
from matplotlib.lines import Line2D
from matplotlib.text import Text

from wbk.draw.maps import CROSSED, MapView, center, draw_map
from wbk.draw.view import SKY_BLUE
from wbk.explain import count
from wbk.games import stalingrad
from wbk.games.stalingrad import Situation
from wbk.games.stalingrad.draw.crt import GERMAN, SOVIET
from wbk.games.stalingrad.readings import RETREAT_READINGS
from wbk.hexgrid import Hex

BOMBARDED = "#CC79A7"
#: The retreat chosen: sky blue, outlined, over the green of the legal hexes.
RETREAT = SKY_BLUE
#: The legal retreat hexes: a translucent green, the terrain showing through.
OPEN_HEX = (0.16, 0.55, 0.27, 0.45)
#: The hatching of the hexes in the enemy's ZOC.
ZOC = "#8c8c8c"
SIDE_COLOURS = {"German": GERMAN, "Soviet": SOVIET}
#: Units' names go over the arrows, markers and hex numbers, and the hex numbers over the
#: arrows: a label is never covered.
Z_UNIT_NAMES, Z_ARROWS = 11, 8.6
#: The mark before the name of a unit eliminated.
LOST_MARK = "✗"
#: Names printed in one hex; more units are summed up on the last line ("+2 more").
MOST_LINES = 4
LINE_SPACING = 0.24
#: The outline of the hexes whose part in the retreat another reading changes (vermillion).
CHANGED = "#D55E00"


def retreat_changes(r: stalingrad.Retreat, other: stalingrad.Retreat) -> frozenset[Hex]:
    """The hexes entering or leaving the retreat under another reading: open to one and not
    the other, or chosen by one and not the other."""

    def open_and_chosen(x: stalingrad.Retreat) -> tuple[frozenset[Hex], frozenset[Hex]]:
        opened = frozenset().union(*x.options.values())
        return opened, frozenset(h for h in x.best.values() if h is not None)

    (open1, chosen1), (open2, chosen2) = open_and_chosen(r), open_and_chosen(other)
    return (open1 ^ open2) | (chosen1 ^ chosen2)


def readings_tag(readings: dict[str, Any]) -> str:
    """The readings that differ from the defaults, for a title: "[all into one hex]" ("" if
    none), so that a picture says what it assumes."""
    words = [r.tag(readings.get(r.keyword, r.default)) for r in RETREAT_READINGS]
    words = [tag for tag in words if tag]
    return f"[{'; '.join(words)}]" if words else ""


def unit_label(name: str, eliminated: bool = False, *, longest: int = 11) -> str:
    """A unit's name as printed in its hex: whole up to ``longest`` characters, else cut short
    with "…"; an eliminated unit's marked "✗"."""
    short = name if len(name) <= longest else name[: longest - 1].rstrip() + "…"
    return f"{LOST_MARK} {short}" if eliminated else short


def _moves(r: stalingrad.Retreat) -> str:
    """Where the retreating units go: "1/42 Rifle retreats to 1314", "A to 1314, B to 1315",
    or, when that is long, "retreat into 1213, 1214 and 1314 (4 units)"."""
    moves = [(name, r.map.label(h)) for name, h in r.best.items() if h is not None]
    if len(moves) == 1:
        return f"{moves[0][0]} retreats to {moves[0][1]}"
    named = "retreat: " + ", ".join(f"{name} to {label}" for name, label in moves)
    if len(named) <= 60:
        return named
    hexes = sorted({label for _, label in moves})
    into = hexes[0] if len(hexes) == 1 else f"{', '.join(hexes[:-1])} and {hexes[-1]}"
    return f"retreat into {into} ({count(len(moves), 'unit')})"


def retreat_title(r: stalingrad.Retreat, readings: dict[str, Any] | None = None) -> str:
    """The answer in the picture's title: the terrain, the verdict (with the readings that
    differ from the defaults), who goes where and who is eliminated."""
    title = _retreat_title(r)
    tag = readings_tag(readings or {})
    first, newline, rest = title.partition("\n")
    return f"{first} {tag}{newline}{rest}" if tag else title


def _retreat_title(r: stalingrad.Retreat) -> str:
    where = r.map.label(r.target)
    if r.terrain == "other":
        kinds = ", ".join(sorted(r.map.terrain(r.target)))
        return (
            f'"P" in {kinds} {where}: the units are only pinned, no retreat\n'
            "(9.87-9.89 cover clear, balka, forest and suburb/village hexes)"
        )
    lost = lost_units(r)
    total = len(r.eliminated) + len(r.best)
    if r.may_stay and r.stay is not None:
        stay, go = r.stay.cost, len(lost)
        if stay < go:
            verdict = f"stay: it costs {count(stay, 'unit')}, a retreat {go}"
        elif go < stay:
            verdict = f"retreat: it costs {count(go, 'unit') if go else 'nothing'}, staying {stay}"
        else:
            verdict = f"stay or retreat: each costs {count(go, 'unit')}"
        first = f'"P" in {r.terrain} {where}: {verdict}'
        second = f"staying gives up {r.stay_eliminates}"
        if r.stay.cost == len(r.eliminated):
            second += ", lost anyway"
        if lost:
            second = f"retreating loses {', '.join(lost)}; {second}"
        return "\n".join([first, *textwrap.wrap(second, 75)])
    first = f'"P" in clear {where}: {stalingrad.eliminated_words(len(lost), total)}'
    if lost:
        first += f" ({', '.join(lost)})"
    details = []
    if len(lost) < total:
        details.append(_moves(r))
    if r.unaffected:
        details.append(f"untouched (9.89): {', '.join(sorted(r.unaffected))}")
    if len(lost) == 0 and len(details) == 1 and len(first) + len(details[0]) < 75:
        return f"{first}: {details[0]}"
    return "\n".join([first, *textwrap.wrap("; ".join(details), 75)])


def lost_units(r: stalingrad.Retreat) -> list[str]:
    """The units a retreat eliminates: those that never retreat, then those left without room."""
    return sorted(r.eliminated) + [name for name, h in r.best.items() if h is None]


def retreat_arrows(target: Hex, hexes) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """(start, end) of an arrow from ``target`` into each of ``hexes``: from the edge of the
    defending hex to the middle of the next, clear of the markers, the unit counts below them,
    the cross of the units lost and the hex labels at the top (an arrow north or south, along
    the labels, is moved to their left)."""
    x0, y0 = center(target)
    arrows = []
    for x, y in (center(h) for h in sorted(hexes)):
        dx, dy = x - x0, y - y0
        side = -0.45 if abs(dx) < 0.01 else 0.0
        arrows.append(
            (
                (x0 + 0.4 * dx + side, y0 + 0.4 * dy),
                (x0 + 0.78 * dx + side, y0 + 0.78 * dy),
            )
        )
    return arrows


class RetreatOverlay:
    """A situation and its retreat drawn over a ``MapView``: the units (their short names in
    their hexes, in their side's colour, drawn over everything), attacked and bombarded hexes
    hatched, the defending hex outlined, the legal retreat hexes shaded, the retreat chosen
    drawn, the units lost marked "✗"; the answer in the title and every mark in the legend."""

    def __init__(self, view: MapView):
        self.view = view
        ax = view.ax
        self.attacked = PolyCollection(
            [], facecolors="none", edgecolors=CROSSED, hatch="//", linewidths=1.5, zorder=4
        )
        self.bombarded = PolyCollection(
            [], facecolors="none", edgecolors=BOMBARDED, hatch="xx", linewidths=1.5, zorder=4
        )
        self.target = PolyCollection(
            [], facecolors="none", edgecolors="black", linewidths=3, zorder=5
        )
        self.zoc = PolyCollection(
            [], facecolors="none", edgecolors=ZOC, hatch="\\", linewidths=0.5, zorder=3
        )
        # its own layer, not the map's one shade layer, which a step's dimming takes over
        self.open = PolyCollection(
            [], facecolors=OPEN_HEX, edgecolors=OPEN_HEX, linewidths=0, zorder=2.5
        )
        for artist in (self.open, self.zoc, self.attacked, self.bombarded, self.target):
            ax.add_collection(artist)
        self.zoc_hexes: frozenset[Hex] = frozenset()
        self.arrows: list = []
        self.arrow_key = Line2D(
            [], [], color=RETREAT, linestyle="none", marker=r"$\rightarrow$", markersize=14
        )
        #: the units' names printed in their hexes, drawn over everything else
        self.labels: list[Text] = []
        self.side_keys = {
            side: Line2D([], [], linestyle="none", marker="$Ab$", color=colour, markersize=12)
            for side, colour in (("German", GERMAN), ("Soviet", SOVIET))
        }
        self.lost_key = Line2D(
            [], [], linestyle="none", marker=f"${LOST_MARK}$", color="black", markersize=9
        )

    def _polygons(self, hexes) -> list:
        view = self.view
        return [view.polygons[view.index[h]] for h in sorted(hexes)]

    def show_situation(
        self, s: Situation, lost: frozenset[str] = frozenset(), lost_words: str = "eliminated"
    ) -> None:
        """Draw the situation: each unit's short name in its hex, in its side's colour (those
        in ``lost`` marked eliminated, ``lost_words`` in the legend), and the hexes attacked and
        bombarded."""
        view = self.view
        self.attacked.set_verts(self._polygons(s.attacked))
        self.bombarded.set_verts(self._polygons(s.bombarded))
        for label in self.labels:
            label.remove()
        self.labels.clear()
        halo = [patheffects.withStroke(linewidth=2.5, foreground="white")]
        for h, here in s.units.items():
            x, y = center(h)
            lines = [(u.side, unit_label(u.name, u.name in lost)) for u in here]
            if len(lines) > MOST_LINES:
                more = len(lines) - MOST_LINES + 1
                lines = [*lines[: MOST_LINES - 1], ("", f"+{more} more")]
            top = y + 0.1 - LINE_SPACING * (len(lines) - 1) / 2
            for i, (side, text) in enumerate(lines):
                colour = "black" if text.startswith(LOST_MARK) or not side else SIDE_COLOURS[side]
                self.labels.append(
                    view.ax.text(
                        x,
                        top + i * LINE_SPACING,
                        text,
                        ha="center",
                        va="center",
                        fontsize=6.5,
                        fontweight="bold",
                        color=colour,
                        zorder=Z_UNIT_NAMES,
                        path_effects=halo,
                    )
                )
        sides = {u.side for here in s.units.values() for u in here}
        entries: dict[str, Artist] = {
            f"{side} units (short names)": key
            for side, key in self.side_keys.items()
            if side in sides
        }
        if lost:
            entries[lost_words] = self.lost_key
        if s.attacked:
            entries["being attacked"] = self.attacked
        if s.bombarded:
            entries["being bombarded"] = self.bombarded
        view.set_overlay_legend("situation", entries)

    def show(
        self, s: Situation, target: Hex | str | None = None, **readings: Any
    ) -> stalingrad.Retreat:
        """Draw ``s`` and the retreat of a "P" result on ``target`` (the situation's own by
        default) under ``readings`` (keywords of ``retreat_after_combat``); return the
        retreat."""
        self.clear_retreat()
        r = s.retreat(target, **readings)
        # the arrows and marks show the retreat; where the units may stay, the title and the
        # pane weigh it against staying
        lost = "eliminated if they retreat" if r.may_stay else "eliminated"
        self.show_situation(s, frozenset(lost_units(r)), lost)
        self.show_retreat(r, readings)
        return r

    def show_retreat(self, r: stalingrad.Retreat, readings: dict[str, Any] | None = None) -> None:
        """Draw the retreat ``r`` alone (no units: a ``Retreat`` does not hold them): the
        defending hex, the legal retreat hexes, the enemy's ZOC, the arrows and the title."""
        view, t = self.view, r.target
        self.target.set_verts(self._polygons([t]))
        open_hexes = set().union(*r.options.values())
        self.open.set_verts(self._polygons(open_hexes))
        self.zoc_hexes = r.zoc & set(view.index)
        self.zoc.set_verts(self._polygons(self.zoc_hexes))
        moves = retreat_arrows(t, set(r.best.values()) - {None})
        for start, end in moves:
            self.arrows.append(
                view.ax.annotate(
                    "",
                    end,
                    start,
                    zorder=Z_ARROWS,
                    arrowprops={
                        "arrowstyle": "-|>,head_length=0.5,head_width=0.3",
                        "color": RETREAT,
                        "linewidth": 3,
                        "shrinkA": 0,
                        "shrinkB": 0,
                        "path_effects": [patheffects.withStroke(linewidth=5, foreground="black")],
                    },
                )
            )
        entries: dict[str, Artist] = {"defending hex": self.target}
        if open_hexes:
            entries["legal retreat hex (9.87)"] = self.open
        if r.zoc:
            entries["enemy ZOC (6.0): closed"] = self.zoc
        if moves:
            entries["retreat, if they go" if r.may_stay else "retreat chosen"] = self.arrow_key
        view.set_overlay_legend("retreat", entries)
        view.set_title(retreat_title(r, readings))

    def clear_retreat(self) -> None:
        self.target.set_verts([])
        self.zoc.set_verts([])
        self.zoc_hexes = frozenset()
        for arrow in self.arrows:
            arrow.remove()
        self.arrows.clear()
        self.open.set_verts([])
        self.view.set_overlay_legend("retreat", {})


def draw_retreat(
    s: Situation,
    target: Hex | str | None = None,
    *,
    ax=None,
    width: float | None = None,
    **readings: Any,
) -> MapView:
    """A situation and the retreat of a "P" result on ``target`` drawn on its map, the answer
    in the title (a new figure when ``ax`` is omitted); ``readings`` are keywords of
    ``retreat_after_combat`` (``retreat_into="one_hex"``...)."""
    view = draw_map(s.map, ax=ax, width=width)
    RetreatOverlay(view).show(s, target, **readings)
    return view


def mark_changes(
    view: MapView, r: stalingrad.Retreat, other: stalingrad.Retreat, value: str
) -> tuple[list[Artist], dict[str, Artist]]:
    """Over a retreat ``r`` drawn on ``view``, the hexes whose part in it changes under another
    reading (``value``, whose retreat is ``other``) outlined, and the units lost under it
    named; returns the marks drawn and their legend's entries (none: nothing changes)."""
    changed_hexes = retreat_changes(r, other)
    lost, lost2 = lost_units(r), lost_units(other)
    marks: list[Artist] = []
    entries: dict[str, Artist] = {}
    if changed_hexes:
        outline = PolyCollection(
            [view.polygons[view.index[h]] for h in sorted(changed_hexes)],
            facecolor="none",
            edgecolor=CHANGED,
            linewidth=2.5,
            linestyle=(0, (3, 2)),
            zorder=29,
        )
        marks.append(view.ax.add_collection(outline))
        entries[f"changes under '{value}'"] = outline
    if lost != lost2:
        key = Line2D([], [], color=CHANGED, linewidth=0)
        entries[f"lost under '{value}': {', '.join(lost2) or 'none'}"] = key
    return marks, entries
