"""Widget panels of the SS Panzer chapter: line of sight, movement, fire, and a map editor."""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.charts import bar_chart
from wbk.errors import WbkError
from wbk.explain import count
from wbk.games import ss_panzer
from wbk.hexgrid import Hex, Hexside
from wbk.maps import HexMap
from wbk.plot import MapView, map_axes
from wbk.widgets import (
    ChartPanel,
    MapPanel,
    Panel,
    map_canvas,
    parse_optional_number,
    reports_errors,
    toml_path,
)


class LosPanel(MapPanel):
    """Errata 9.4: pick firer and target, see the line, its verdict and why; switch the readings
    (slope hexes, slope ends, lines along a hexside or through a corner), the blocking terrain,
    and the firer's viewshed."""

    def __init__(self, m: HexMap, firer: str, target: str, *, width: float = 6.0):
        kinds = sorted(m.terrain_hexes)
        wide = {"description_width": "initial"}
        toggles = {**wide, "button_width": "auto"}
        self.slope_hex = widgets.ToggleButtons(
            options=[
                ("may enter, not see beyond (9.4)", "enter_not_beyond"),
                ("only slope hexsides block", "hexsides_only"),
            ],
            description="slope hexes",
            style=toggles,
        )
        self.slope_end = widgets.ToggleButtons(
            options=[("crosses it", "crosses"), ("only touches it", "touches")],
            description="a line through a slope's end",
            style=toggles,
        )
        self.edge = widgets.ToggleButtons(
            options=[("both sides must block", "both"), ("either side blocks", "either")],
            description="along a hexside",
            style=toggles,
        )
        self.blocking = widgets.SelectMultiple(
            options=kinds,
            description="blocking terrain",
            rows=min(4, max(1, len(kinds))),
            style=wide,
        )
        self.show_viewshed = widgets.Checkbox(False, description="show the firer's viewshed")
        self._viewshed_key, self._viewshed = None, set()
        controls = [self.slope_hex, self.slope_end, self.edge, self.blocking, self.show_viewshed]
        super().__init__(m, {"firer": firer, "target": target}, controls, width=width)
        self.update()

    def options(self) -> dict:
        return {
            "blocking_terrain": sorted(self.blocking.value),
            "edge": self.edge.value,
            "slope_hex": self.slope_hex.value,
            "slope_end": self.slope_end.value,
        }

    def viewshed(self, firer: Hex) -> set[Hex]:
        """The firer's viewshed, kept while firer and options stay: clicking targets is cheap."""
        key = (firer, repr(self.options()))
        if self._viewshed_key != key:
            self._viewshed = ss_panzer.viewshed(self.map, firer, **self.options())
            self._viewshed_key = key
        return self._viewshed

    def show(self, firer: Hex, target: Hex) -> str:
        result = ss_panzer.line_of_sight(self.map, firer, target, **self.options())
        self.view.show_line_of_sight(result)
        extra = ""
        if self.show_viewshed.value:
            seen = self.viewshed(firer)
            self.view.dim(
                [h for h in self.map if h not in seen],
                label=f"not seen from {self.map.label(firer)}",
            )
            extra = f"<p>{self.map.label(firer)} sees {len(seen)} of {len(self.map)} hexes; the others are dimmed.</p>"
        else:
            self.view.dim(())
        return result._repr_html_() + extra


class IntervisibilityPanel(MapPanel):
    """Errata 9.4 over the whole map at once: shade every hex by how many hexes it sees (the
    best observation posts), dim the dead ground of hex X, or show the hexes that see X but are
    not seen from Y. The readings and the blocking terrain are those of the LOS panel."""

    QUESTIONS = (
        ("how many hexes each hex sees", "counts"),
        ("dead ground from X", "dead_ground"),
        ("hexes that see X, not seen from Y", "sees_not_seen"),
    )

    def __init__(self, m: HexMap, x: str, y: str, *, width: float = 6.0):
        kinds = sorted(m.terrain_hexes)
        wide = {"description_width": "initial"}
        toggles = {**wide, "button_width": "auto"}
        self.question = widgets.ToggleButtons(
            options=self.QUESTIONS, description="show", style=toggles
        )
        self.slope_hex = widgets.ToggleButtons(
            options=[
                ("may enter, not see beyond (9.4)", "enter_not_beyond"),
                ("only slope hexsides block", "hexsides_only"),
            ],
            description="slope hexes",
            style=toggles,
        )
        self.blocking = widgets.SelectMultiple(
            options=kinds,
            description="blocking terrain",
            rows=min(4, max(1, len(kinds))),
            style=wide,
        )
        self.edge = widgets.ToggleButtons(
            options=[("both sides must block", "both"), ("either side blocks", "either")],
            description="along a hexside",
            style=toggles,
        )
        self._key, self._seen = None, None
        controls = [self.question, self.slope_hex, self.edge, self.blocking]
        super().__init__(m, {"X": x, "Y": y}, controls, width=width)
        self.update()

    def options(self) -> dict:
        return {
            "blocking_terrain": sorted(self.blocking.value),
            "edge": self.edge.value,
            "slope_hex": self.slope_hex.value,
        }

    def intervisibility(self):
        """Every pair's line of sight under the options, kept while they stay."""
        key = repr(self.options())
        if self._key != key:
            self._seen, self._key = ss_panzer.intervisibility(self.map, **self.options()), key
        return self._seen

    def show(self, X: Hex, Y: Hex) -> str:
        seen, m, view = self.intervisibility(), self.map, self.view
        label = m.label
        view.show_trace(None)
        view.show_route(None)
        view.show_numbers({})
        n = len(m)
        if self.question.value == "counts":
            counts = seen.counts()
            best, least = max(counts.values()), min(counts.values())
            posts = sorted(label(h) for h, c in counts.items() if c == best)
            view.shade(counts, label=f"hexes seen ({least} to {best} of {n}): darker sees more")
            if n <= 200:
                view.show_numbers(counts, label="hexes seen")
            view.mark(m.hex(posts[0]), labels=("a best observation post", ""))
            named = ", ".join(posts[:6]) + (f" and {len(posts) - 6} more" if len(posts) > 6 else "")
            view.set_title(
                f"Hexes seen from each hex: {named} see{'s' if len(posts) == 1 else ''} the most, {best} of {n}"
            )
            return (
                f"<p>Each hex is shaded by how many hexes a unit there sees (its own included): from "
                f"{least} to {best} of {n}. The best observation posts: {html.escape(named)}. "
                f"{seen.pairs()} of {n * (n - 1) // 2} pairs of hexes see each other.</p>"
            )
        if self.question.value == "dead_ground":
            dead = seen.dead_ground(X)
            view.dim(dead, label=f"dead ground: not seen from {label(X)}")
            view.mark(X, labels=(f"X = {label(X)}", ""))
            view.set_title(f"Dead ground from {label(X)}: {len(dead)} of {n} hexes")
            return (
                f"<p>A unit in {label(X)} sees {n - len(dead)} of {n} hexes; "
                f"{count(len(dead), 'other is', 'others are')} dimmed.</p>"
            )
        hidden = seen.sees_but_not_seen_from(X, Y)
        view.highlight(hidden, label=f"sees {label(X)}, not seen from {label(Y)}")
        view.mark(X, Y, labels=(f"X = {label(X)}", f"Y = {label(Y)}"))
        view.set_title(
            f"{count(len(hidden), 'hex sees', 'hexes see')} {label(X)} but {'is' if len(hidden) == 1 else 'are'} "
            f"not seen from {label(Y)}"
        )
        listed = ", ".join(sorted(label(h) for h in hidden)) or "none"
        return (
            f"<p>Hexes from which a unit sees {label(X)} while no unit in {label(Y)} sees it "
            f"(lines of sight are symmetric: a hex that sees {label(X)} is seen from it): {listed}.</p>"
        )


class MovementPanel(MapPanel):
    """Errata 8.3: every hex a unit can reach from its start, shaded with the MP it costs; a goal
    hex gets its cheapest path explained. Set the MP left, switch Move and Move & Fire, or mark
    the unit as having moved, to see the one-hex rule."""

    def __init__(
        self,
        m: HexMap,
        start: str,
        goal: str,
        data: ss_panzer.GameData | None = None,
        *,
        width: float = 6.0,
    ):
        self.data = data or ss_panzer.example_data()
        self.unit = widgets.Dropdown(options=list(self.data.units), description="unit")
        self.action = widgets.ToggleButtons(
            options=[("Move", "move"), ("Move & Fire", "move_and_fire")],
            description="action",
            style={"button_width": "auto"},
        )
        self.mp = widgets.Text(
            "", description="MP to spend", placeholder="the unit's MP", continuous_update=False
        )
        self.moved = widgets.Checkbox(
            False,
            description="has already moved this Action Phase",
            style={"description_width": "initial"},
        )
        super().__init__(
            m,
            {"start": start, "goal": goal},
            [self.unit, self.mp, self.action, self.moved],
            width=width,
        )
        self.update()

    def show(self, start: Hex, goal: Hex) -> str:
        unit = self.data.units[self.unit.value]
        mp = parse_optional_number(self.mp.value, "MP to spend")
        movement = ss_panzer.plan_movement(
            self.map,
            unit,
            start,
            mp,
            action=self.action.value,
            data=self.data,
            moved=self.moved.value,
        )
        reach, budget = movement.costs, movement.mp
        self.view.dim([h for h in self.map if h not in reach], label="out of reach")
        self.view.show_numbers(reach, label="MP spent to get there")
        beyond = sorted((self.map.label(h), c) for h, c in reach.items() if c > budget)
        reached = sum(c <= budget for c in reach.values()) - 1
        lines = [
            f"<p><b>{html.escape(unit.name)}</b> ({unit.side}, {unit.mp} MP, MCF {unit.mcf}) with "
            f"{budget} MP reaches {reached} hex{'es' if reached != 1 else ''} from {self.map.label(start)}.</p>"
        ]
        if beyond:
            listed = ", ".join(f"{label} ({c} MP)" for label, c in beyond)
            lines.append(
                f"<p>The one hex a Move action may always enter (errata 8.3): {listed}.</p>"
            )
        title = f"{unit.name} from {self.map.label(start)} with {budget} MP ({self.action.label})"
        if goal in reach:
            path = movement.route(goal)
            self.view.show_route(path.hexes, label=f"cheapest path to {self.map.label(goal)}")
            self.view.set_title(f"{title}: {self.map.label(goal)} for {path.mp} MP")
            lines.append(
                f"<p>Cheapest path to {self.map.label(goal)}: {' → '.join(map(self.map.label, path.hexes))}</p>"
            )
            lines.append(path._repr_html_())
        else:
            self.view.show_route(None)
            self.view.set_title(f"{title}: {self.map.label(goal)} out of reach")
            having = ", having moved" if self.moved.value else ""
            lines.append(
                f"<p>{self.map.label(goal)} is out of reach ({self.action.label}{having}).</p>"
            )
        return "".join(lines)


def fire_panel(data: ss_panzer.GameData | None = None) -> ChartPanel:
    """Errata 9.5: choose the conditions of the fire, the reading and the hit number; see the
    dice and the exact distribution of the effect on the target."""
    data = data or ss_panzer.example_data()

    def compute(conditions, reading, hit_number):
        fires = ss_panzer.fire_dice(list(conditions), reading=reading, data=data)
        return fires, ss_panzer.fire_effect(fires, hit_number), hit_number

    def draw(figure: Figure, result) -> str:
        fires, effect, hit_number = result
        bar_chart(
            effect,
            ax=figure.add_subplot(),
            title=f"effect, hitting on {hit_number} or less (a 1 always hits)",
            xlabel="",
        )
        return fires._repr_html_() + effect._repr_html_()

    return ChartPanel(
        compute,
        draw,
        size=(5.2, 3.0),
        conditions=widgets.SelectMultiple(
            options=[
                (c.replace("_", " ").replace("zoc", "ZOC"), c) for c in sorted(data.condition_dice)
            ],
            description="conditions",
            rows=3,
        ),
        reading=widgets.ToggleButtons(
            options=[
                ("the largest only (9.5)", "largest"),
                ("each fire apart (ZOC rule)", "separate"),
            ],
            description="several conditions",
            style={"description_width": "initial", "button_width": "auto"},
        ),
        hit_number=widgets.IntSlider(3, 0, 6, description="hit number"),
    )


BRUSH_SLOPE, BRUSH_STREAM, BRUSH_CLEAR = (
    "slope (uphill: the clicked hex)",
    "stream",
    "clear the hex",
)
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
    are kept. ``editor.map`` is the edited map.
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
        self.path = widgets.Text(
            str(path or default_map_path(m)),
            description="file",
            layout=widgets.Layout(width="420px"),
        )
        buttons = {"Undo": self.undo, "Save": self.save, "Load": self.load}
        self.buttons = {
            label: widgets.Button(description=label, layout=widgets.Layout(width="70px"))
            for label in buttons
        }
        for label, action in buttons.items():
            self.buttons[label].on_click(lambda _, action=action: action())
        super().__init__()
        self.map, self.history = m, []
        self.pane = widgets.HTML()
        self.figure, self.canvas, self.view = map_canvas(m, width, self.on_click)
        self.view.set_title(f"{m.name}: choose a brush and click the map")
        rows = [
            widgets.HBox([self.brush, self.name], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox(
                [self.path, *self.buttons.values()], layout=widgets.Layout(flex_flow="row wrap")
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
    def undo(self) -> None:
        if not self.history:
            raise WbkError("nothing to undo")
        self.show(self.history.pop(), "undid the last change")

    @reports_errors(stale=False)
    def save(self) -> None:
        path = toml_path(self.path)
        named = self.map.with_name(self.name.value.strip())
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            named.save(path)
        except OSError as e:
            raise WbkError(f"cannot save to {path}: {e.strerror}") from None
        self.map = named
        self.show_message("")
        self.pane.value = html.escape(
            f"saved {named.name!r} ({len(named)} hexes) to {path}", quote=False
        )

    @reports_errors(stale=False)
    def load(self) -> None:
        loaded = HexMap.load(toml_path(self.path))
        if list(loaded) != list(self.map):
            self.figure.clear()
            self.view = MapView(loaded, map_axes(self.figure))
        self.history.append(self.map)
        self.name.value = loaded.name
        self.show(loaded, f"loaded {self.path.value.strip()}")
