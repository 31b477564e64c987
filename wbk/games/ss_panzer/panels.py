"""The SS Panzer chapter's panels, each with the rules' worked examples one click away:
line of sight (``LosPanel``, 9.4), every pair of hexes at once (``IntervisibilityPanel``),
movement (``MovementPanel``, 8.3), fire (``FirePanel``, ``fire_panel``, 9.5 and 13.2), victory
(``VictoryPanel``, 3.3) and a map editor (``MapEditor``). Each draws its answer as ``picture``
does (``wbk.games.ss_panzer.draw``); the readings' controls are built from their declarations
(``wbk.games.ss_panzer.readings``)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import traitlets
from matplotlib.artist import Artist
from matplotlib.figure import Figure

from wbk.draw import clear_step, on_board, picture, show_step
from wbk.draw.maps import MapView
from wbk.explain import count
from wbk.games.ss_panzer.data import GameData, example_data
from wbk.games.ss_panzer.draw import hatch_changes, mark_compared_line, outline_other_effect
from wbk.games.ss_panzer.fire import (
    FireOutcome,
    condition_words,
    fire_dice,
    fire_outcome,
    soviet_artillery_dice,
)
from wbk.games.ss_panzer.movement import ACTION_WORDS, Movement, Route, plan_movement

# the chapter makes all its panels from this module, the map editor too
from wbk.games.ss_panzer.panel_map_editor import BRUSH_CLEAR as BRUSH_CLEAR
from wbk.games.ss_panzer.panel_map_editor import BRUSH_SLOPE as BRUSH_SLOPE
from wbk.games.ss_panzer.panel_map_editor import BRUSH_STAR as BRUSH_STAR
from wbk.games.ss_panzer.panel_map_editor import BRUSH_STREAM as BRUSH_STREAM
from wbk.games.ss_panzer.panel_map_editor import MapEditor as MapEditor
from wbk.games.ss_panzer.readings import READINGS, SIGHT_READINGS, ZOC_FIRE
from wbk.games.ss_panzer.sight import intervisibility, line_of_sight, viewshed
from wbk.games.ss_panzer.sightlines import QUESTIONS, Intervisibility
from wbk.games.ss_panzer.victory import geographic_victory
from wbk.hexgrid import Hex
from wbk.maps import HexMap
from wbk.widgets import (
    LIVE_ONLY,
    ChartPanel,
    MapPanel,
    Panel,
    map_canvas,
    parse_optional_number,
    reports_errors,
    typed,
)
from wbk.widgets.edge_cases import has_edge_cases
from wbk.widgets.readings import reading_control

# --- the parts the map panels share ------------------------------------------------------------

#: The terrain that blocks a line of sight unless a panel is told otherwise: SS Panzer's
#: terrain chart, as the chapter uses it (the rules functions block nothing by default).
USUAL_BLOCKING_TERRAIN = ("woods", "town")
NO_DIFFERENCE = "makes no difference here"
#: What a reading control says beside it while its other value would not change the answer.
NOTE_STYLE = "font-size:12px;color:#595959"
#: A note's room beside its reading, kept whether it says anything or not.
NOTE_WIDTH = "12em"


class ChoiceBoxes(widgets.HBox, widgets.ValueWidget):
    """A checkbox for each option, any number ticked: ``value`` is the tuple of the ticked
    options' values, in the options' order. Unlike a multiple-selection list it needs no
    ctrl-click, and every choice is in view."""

    value = traitlets.Tuple()

    def __init__(
        self,
        options: Sequence[str | tuple[str, str]],
        value: Sequence[str] = (),
        *,
        description: str = "",
        tooltip: str = "",
    ):
        self.options = [o if isinstance(o, tuple) else (o, o) for o in options]
        self.description = description
        self.checks = {
            v: widgets.Checkbox(
                v in value,
                description=label,
                indent=False,
                tooltip=tooltip or label,
                layout=widgets.Layout(width="auto", margin="0 12px 0 0"),
            )
            for label, v in self.options
        }
        for check in self.checks.values():
            check.add_class(LIVE_ONLY)  # a static page shows the set once, as "label: value"
            check.observe(self._ticked, names="value")
        title = widgets.Label(description, layout=widgets.Layout(margin="0 8px 0 0"))
        title.add_class(LIVE_ONLY)
        super().__init__(
            [title, *self.checks.values()], layout=widgets.Layout(flex_flow="row wrap")
        )
        self.value = tuple(v for _, v in self.options if v in value)
        self.observe(self._set, names="value")

    @property
    def label(self) -> tuple[str, ...]:
        """The ticked options' words."""
        return tuple(label for label, v in self.options if v in self.value)

    def _ticked(self, _change) -> None:
        self.value = tuple(v for v, check in self.checks.items() if check.value)

    def _set(self, change) -> None:
        for v, check in self.checks.items():
            check.value = v in change["new"]


def plain_words(description: str) -> str:
    """A control's label as a reader of a page sees it: the words of a reading control's
    HTML label, without its tags."""
    return html.unescape(re.sub(r"<[^>]*>", "", description))


class _ComparesOnTheMap:
    """A map panel that marks on its map what "compare with" changes: ``compare_marks``, drawn
    over the answer (its ``mark_changes``)."""

    view: MapView
    compare_marks: list[Artist]

    def take_compare_marks_off(self) -> None:
        for artist in self.compare_marks:
            artist.remove()
        self.compare_marks = []
        self.view.set_overlay_legend("compare", {})

    def show_compare_marks(self, marks: list[Artist], entries: dict[str, Artist]) -> bool:
        """Lay ``marks`` over the map, named in the legend by ``entries``; whether any changed."""
        self.compare_marks = marks
        self.view.set_overlay_legend("compare", entries)
        self.view.redraw()
        return bool(entries)


class ReadingsPanel(_ComparesOnTheMap, MapPanel):
    """A map panel with 9.4's reading controls and the blocking terrain, each reading saying
    "makes no difference here" while its other value would not change the answer on show, and
    a "compare with" menu of the readings' other values."""

    READINGS: tuple[str, ...] = ()

    def _reading_controls(self, m: HexMap, blocking_terrain: Sequence[str] | None) -> list:
        kinds = sorted(m.terrain_hexes)
        chosen = USUAL_BLOCKING_TERRAIN if blocking_terrain is None else blocking_terrain
        self.readings = {r: reading_control(READINGS[r]) for r in self.READINGS}
        for reading, control in self.readings.items():
            setattr(self, reading, control)
        self.unchanged: list[str] = []  # the readings whose other value changes nothing here
        # a note beside each reading, its room always kept: the map never moves
        self.no_difference = {
            r: widgets.HTML(layout=widgets.Layout(width=NOTE_WIDTH)) for r in self.readings
        }
        self.blocking = ChoiceBoxes(
            kinds,
            [k for k in kinds if k in chosen],
            description="blocking terrain",
            tooltip="SS Panzer's terrain chart: terrain in a hex that blocks a line through it",
        )
        return [*self.readings.values(), self.blocking]

    def _lay_out_notes(self, extra: Sequence[widgets.Widget] = ()) -> None:
        """Put each reading's note beside it (in the controls row MapPanel built), the blocking
        terrain first (it fits beside a reading, which with its note no longer fits beside
        another), and the "compare with" menu above the message line."""
        self.control_row.children = [
            self.blocking,
            *(widgets.HBox([c, self.no_difference[r]]) for r, c in self.readings.items()),
            *extra,
        ]
        self.compare_marks = []
        self.compare = self.add_compare_readings(
            [READINGS[r] for r in self.READINGS],
            mark=self.mark_changes,
            current=lambda: {r: str(control.value) for r, control in self.readings.items()},
        )

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        raise NotImplementedError

    def controls_text(self) -> list[str]:
        """The controls as a static page lists them: a reading by its words, not its HTML."""
        texts = super().controls_text()
        for control in self.readings.values():
            label = html.escape(control.description)
            words = html.escape(plain_words(control.description))
            texts = [text.replace(label, words) for text in texts]
        return texts

    def changed_settings(self) -> list[tuple[str, str]]:
        """As ``Panel.changed_settings``, a reading by its words (a saved picture's caption)."""
        return [(plain_words(label), value) for label, value in super().changed_settings()]

    def options(self) -> dict:
        return {
            # a kind ticked that the map (an editor's) no longer has blocks nothing
            "blocking_terrain": [k for k in self.blocking.value if k in self.map.terrain_hexes],
            **{r: control.value for r, control in self.readings.items()},
        }

    def note_differences(self, answer: Callable[[dict], object]) -> None:
        """Say beside each reading whether it makes no difference to ``answer(options)``."""
        options = self.options()
        shown = answer(options)
        self.unchanged = [
            reading
            for reading, control in self.readings.items()
            if all(
                answer({**options, reading: v}) == shown
                for v in READINGS[reading].values
                if v != control.value
            )
        ]
        for reading, note in self.no_difference.items():
            same = reading in self.unchanged
            note.value = f'<i style="{NOTE_STYLE}">{NO_DIFFERENCE}</i>' if same else ""


# --- errata 9.4: line of sight -----------------------------------------------------------------

#: Errata 9.4's worked examples, each a LOS panel's firer and target, with no blocking terrain
#: (the examples are about slopes; the map's woods and towns are illustrative).
#: Errata 9.4's worked examples. They set the hexes only: the chapter's map holds its woods and
#: towns off every example's line, so each answer is the errata's with the blocking terrain on.
LOS_PRESETS: dict[str, dict[str, object]] = {
    name: {"firer": firer, "target": target}
    for name, firer, target in (
        ("9.4 example 1: 1913 -> 1612 (from the slope hex, beyond: clear)", "1913", "1612"),
        ("9.4 example 1: 1813 -> 2113 (through 1913 and beyond: clear)", "1813", "2113"),
        ("9.4 example 1: 1814 -> 2013 (through 1913 and beyond: clear)", "1814", "2013"),
        ("9.4 example 1: 1914 -> 1911 (through 1913 and beyond: clear)", "1914", "1911"),
        ("9.4 example 2: 1712 -> 1913 (into 1913: clear)", "1712", "1913"),
        ("9.4 example 2: 1712 -> 2113 (beyond 1913: blocked)", "1712", "2113"),
        ("9.4 example 3: 1913 -> 1915 (clear)", "1913", "1915"),
        ("9.4 example 3: 1913 -> 1816 (clear)", "1913", "1816"),
        ("9.4 example 3: 1913 -> 1716 (blocked by 1715/1816)", "1913", "1716"),
    )
}


@has_edge_cases
class LosPanel(ReadingsPanel):
    """Errata 9.4: pick firer and target, see the line, its verdict and why; switch the readings
    (slope hexes, whose hex the general sentence looks at, slope ends, lines along a hexside or
    through a corner), the blocking terrain (woods and towns to start with), and show the
    firer's viewshed."""

    rule = "SS Panzer errata 9.4 (line of sight)"

    READINGS = tuple(SIGHT_READINGS)

    def __init__(
        self,
        m: HexMap,
        firer: str,
        target: str,
        *,
        width: float = 6.0,
        blocking_terrain: Sequence[str] | None = None,
    ):
        controls = self._reading_controls(m, blocking_terrain)
        self.show_viewshed = widgets.Checkbox(False, description="show the firer's viewshed")
        self._viewshed_key: tuple | None = None
        self._viewshed: set[Hex] = set()
        super().__init__(
            m, {"firer": firer, "target": target}, [*controls, self.show_viewshed], width=width
        )
        self._firer: Hex | None = None
        self._target: Hex | None = None
        self.step_control = self.add_step_control(self.draw_at_step)
        self._lay_out_notes([self.show_viewshed])
        self.add_presets(LOS_PRESETS)
        self._compact_rows()
        self.update()

    def _compact_rows(self) -> None:
        """Fewer rows above the map, so that the controls and the map with its legend fit a
        1000-pixel screen: the hex boxes beside "next click sets", the worked examples beside
        "compare with"."""
        children = list(self.widget.children)
        boxes = next(c for c in children if self.boxes["firer"] in getattr(c, "children", ()))
        for box in self.boxes.values():  # a hex label is four digits: no need for 300 px
            box.layout.width = "170px"
        # the examples' names and the readings' words are long: the menus show their start
        self.presets.menu.layout.width = "400px"
        self.compare.choice.layout.width = "400px"
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        hexes = widgets.HBox([*boxes.children, self.click_sets], layout=wrap)
        teaching = widgets.HBox([self.presets.widget, self.compare.widget], layout=wrap)
        moved = (boxes, self.click_sets, self.presets.widget, self.compare.widget)
        self.widget.children = [hexes, teaching, *(c for c in children if c not in moved)]

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` marked on the map; the last step is the whole answer, the viewshed (which
        shares the map's one dimming layer with the steps) dimmed again if it is on."""
        if self.step_control.at_answer:
            clear_step(self.view)
            self.view.set_title(self._answer_title)
            self.dim_viewshed()
        else:
            show_step(self.view, self.step_control.steps, k)
        self.view.redraw()

    def dim_viewshed(self) -> str:
        """Dim what the firer does not see while the viewshed is on; the pane's words."""
        firer = self._firer
        if not self.show_viewshed.value or firer is None:
            self.view.dim(())
            return ""
        seen = self.viewshed(firer)
        label = self.map.label(firer)
        self.view.dim([h for h in self.map if h not in seen], label=f"not seen from {label}")
        return f"<p>{label} sees {len(seen)} of {len(self.map)} hexes; the others are dimmed.</p>"

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Mark what ``other`` (one reading's other value) changes: the line's verdict (what
        blocks under it, outlined dashed, and the verdict in a box) and, with the viewshed on,
        the hexes entering it (hatched +) and leaving it (hatched x). None: marks off."""
        self.take_compare_marks_off()
        firer, target = self._firer, self._target
        if other is None or firer is None or target is None:
            self.view.redraw()
            return False
        options = {**self.options(), **other}
        ((keyword, value),) = other.items()
        words = READINGS[keyword].values[value]
        shown = line_of_sight(self.map, firer, target, **self.options())
        compared = line_of_sight(self.map, firer, target, **options)
        marks: list[Artist] = []
        entries: dict[str, Artist] = {}
        changed = compared.verdict != shown.verdict
        if changed:
            marks, entries = mark_compared_line(self.view, compared, words)
        if self.show_viewshed.value:
            seen = self.viewshed(firer)
            under = viewshed(self.map, firer, **options)
            hatched, named = hatch_changes(
                self.view,
                (
                    (under - seen, "++", f"seen only under “{words}”"),
                    (seen - under, "xx", f"not seen under “{words}”"),
                ),
            )
            changed = changed or bool(hatched)
            marks += hatched
            entries.update(named)
        self.show_compare_marks(marks, entries)
        return changed

    def what_is_drawn(self, firer: Hex, target: Hex, options: dict) -> object:
        """What the picture shows under ``options``: the line's verdict, and the firer's
        viewshed while it is on (a reading may move the viewshed and not the one line)."""
        verdict = line_of_sight(self.map, firer, target, **options).verdict
        if not self.show_viewshed.value:
            return verdict
        return verdict, frozenset(viewshed(self.map, firer, **options))

    def use_map(self, m: HexMap) -> None:
        self._viewshed_key = None  # the viewshed kept was seen on the other map
        super().use_map(m)

    def viewshed(self, firer: Hex) -> set[Hex]:
        """The firer's viewshed, kept while firer and options stay: clicking targets is cheap."""
        key = (firer, repr(self.options()))
        if self._viewshed_key != key:
            self._viewshed = viewshed(self.map, firer, **self.options())
            self._viewshed_key = key
        return self._viewshed

    def show(self, firer: Hex, target: Hex) -> str:
        result = line_of_sight(self.map, firer, target, **self.options())
        self.note_differences(lambda o: self.what_is_drawn(firer, target, o))
        on_board(result, self.view)
        self._firer, self._target = firer, target
        extra = self.dim_viewshed()
        self.show_steps(result.steps, answer=result)
        self.compare.refresh()
        # the steps are listed once, by the step control (a static page lists them under it)
        return f"<b>line of sight {html.escape(result.verdict)}</b>" + extra


@has_edge_cases
class IntervisibilityPanel(ReadingsPanel):
    """Errata 9.4 over the whole map at once: shade every hex by how many hexes it sees (the
    best observation posts), dim the dead ground of hex X, or show the hexes that see X but are
    not seen from Y. The readings and the blocking terrain are those of the LOS panel; a
    reading that would change nothing on show says so."""

    rule = "SS Panzer errata 9.4 (line of sight, every pair of hexes)"

    READINGS = ("slope_hex", "slope_hex_of", "edge")

    def __init__(
        self,
        m: HexMap,
        x: str,
        y: str,
        *,
        width: float = 6.0,
        blocking_terrain: Sequence[str] | None = None,
    ):
        self.question = widgets.ToggleButtons(
            options=[(words, question) for question, words in QUESTIONS.items()],
            description="show",
            style={"description_width": "initial", "button_width": "auto"},
        )
        controls = self._reading_controls(m, blocking_terrain)
        self._seen: dict[str, Intervisibility] = {}
        super().__init__(m, {"X": x, "Y": y}, [self.question, *controls], width=width)
        self._lay_out_notes()
        row = self.control_row
        row.children = [self.question, *row.children]
        self._asked: tuple[str, Hex, Hex] | None = None
        self.update()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Hatch what ``other`` (one reading's other value) changes: the hexes whose count
        changes (counts), or the hexes entering (+) or leaving (x) the answer's set; None takes
        the marks off."""
        self.take_compare_marks_off()
        if other is None or self._asked is None:
            self.view.redraw()
            return False
        question, x, y = self._asked
        ((keyword, value),) = other.items()
        words = READINGS[keyword].values[value]
        shown = self.answer(self.options(), question, x, y)
        under = self.answer({**self.options(), **other}, question, x, y)
        if isinstance(shown, dict) and isinstance(under, dict):
            changed = {h for h in shown if shown[h] != under[h]}
            marked = [(changed, "//", f"the count changes under “{words}”")]
        else:
            before, after = set(shown), set(under)
            marked = [
                (after - before, "++", f"added under “{words}”"),
                (before - after, "xx", f"left out under “{words}”"),
            ]
        return self.show_compare_marks(
            *hatch_changes(
                self.view,
                [(hexes, hatch, f"{name} ({len(hexes)})") for hexes, hatch, name in marked],
            )
        )

    def on_click(self, event) -> None:
        # the colour bar under the map is an axes of its own: a click there picks no hex
        if getattr(event, "inaxes", self.view.ax) not in (self.view.ax, None):
            return
        super().on_click(event)

    def use_map(self, m: HexMap) -> None:
        self._seen.clear()  # the lines of sight kept were traced on the other map
        super().use_map(m)

    def intervisibility(self, options: dict | None = None) -> Intervisibility:
        """Every pair's line of sight under the options (the panel's own by default), kept."""
        options = self.options() if options is None else options
        key = repr(sorted(options.items()))
        if key not in self._seen:
            if len(self._seen) >= 8:
                self._seen.clear()
            self._seen[key] = intervisibility(self.map, **options)
        return self._seen[key]

    def answer(self, options: dict, question: str, x: Hex, y: Hex) -> dict[Hex, int] | set[Hex]:
        """What the picture shows for a question under ``options``."""
        return self.intervisibility(options).ask(question, x, y).answer

    def show(self, X: Hex, Y: Hex) -> str:
        question = self.question.value
        self._asked = (question, X, Y)
        self.note_differences(lambda o: self.answer(o, question, X, Y))
        sighting = self.intervisibility().ask(question, X, Y)
        on_board(sighting, self.view)
        self.compare.refresh()
        return sighting._repr_html_()


# --- errata 8.3: movement ----------------------------------------------------------------------

#: What the movement panel compares: the action and whether the unit has moved, which decide
#: errata 8.3's one hex (not readings of an unclear text: the state of the unit).
MOVEMENT_STATES: dict[str, dict[str, str]] = {
    "action": {"move": "on a Move action", "move_and_fire": "on a Move & Fire action"},
    "moved": {"False": "it has not moved yet", "True": "it has already moved"},
}
#: Errata 8.3's worked examples: the stream into woods, the one hex, and the trench. With 2 MP
#: the Pz IV's only way into 1609 is straight over the stream (with its full MP, going round
#: by 1509 is cheaper, 4 MP), so the first example is also the one hex a Move action enters.
_PZ_IV: dict[str, object] = {"unit": "Pz IV", "action": "move", "moved": False}
_INTO_1609 = {**_PZ_IV, "mp": "2", "start": "1610", "goal": "1609"}
_INTO_2013 = {**_PZ_IV, "mp": "", "start": "1913", "goal": "2013"}
MOVEMENT_PRESETS: dict[str, dict[str, object]] = {
    "8.3: Pz IV over the stream into woods 1609: 2 MCF = 6 MP, its one hex with 2 MP": _INTO_1609,
    "8.3 one hex: the same on a Move & Fire action may not": {
        **_INTO_1609,
        "action": "move_and_fire",
    },
    "8.3 one hex: the same having moved may not": {**_INTO_1609, "moved": True},
    "8.3 trench: a German Pz IV into trench hex 2013 pays its MCF, 3 MP": _INTO_2013,
    "8.3 trench: a Soviet T-34 into trench hex 2013 pays 1 MP": {**_INTO_2013, "unit": "T-34"},
}


@has_edge_cases
class MovementPanel(_ComparesOnTheMap, MapPanel):
    """Errata 8.3: every hex a unit can reach from its start, shaded with the MP it costs; a goal
    hex gets its cheapest path explained, or, out of reach, what it would cost. Set the MP left,
    switch Move and Move & Fire, or mark the unit as having moved, to see the one-hex rule."""

    rule = "SS Panzer errata 8.3 (movement)"

    def __init__(
        self,
        m: HexMap,
        start: str,
        goal: str,
        data: GameData | None = None,
        *,
        width: float = 6.0,
    ):
        self.data = data or example_data()
        self.unit = widgets.Dropdown(options=list(self.data.units), description="unit")
        self.action = widgets.ToggleButtons(
            options=[(words, action) for action, words in ACTION_WORDS.items()],
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
        self.movement: Movement | None = None
        self.path: Route | None = None
        #: the hatching of the hexes that enter or leave the range under a compared state
        self.compare_marks = []
        self.step_control = self.add_step_control(self.draw_at_step)
        self.compare = self.add_compare_readings(
            MOVEMENT_STATES,
            mark=self.mark_changes,
            current=lambda: {"action": self.action.value, "moved": str(self.moved.value)},
            questions={"action": "action", "moved": "this Action Phase"},
        )
        self.add_presets(MOVEMENT_PRESETS)
        self.update()

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` of the path to the goal: the path drawn as far as the hex the step
        enters, that hex (and the hexside it pays for) marked, the range's costs kept; the last
        step is the whole answer, out of reach dimmed again (steps and range share the map's
        one dimming layer)."""
        path = self.path
        if self.step_control.at_answer:
            clear_step(self.view)
            self.view.set_title(self._answer_title)
            if self.movement is not None:
                reach = self.movement.costs
                self.view.dim([h for h in self.map if h not in reach], label="out of reach")
            if path is not None:
                self.view.show_route(path.hexes, label=f"cheapest path, {path.mp} MP")
        else:
            show_step(self.view, self.step_control.steps, k)
            if path is not None:
                about = self.step_control.steps[k].about
                entered = [path.hexes.index(h) for h in about if h in path.hexes]
                upto = max(entered, default=0)
                self.view.show_route(path.hexes[: upto + 1], label="the path so far")
        self.view.redraw()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Hatch the hexes the unit reaches only under ``other`` (+) or no longer reaches (x),
        and say the goal's fate in a box; None takes the marks off."""
        self.take_compare_marks_off()
        movement = self.movement
        if other is None or movement is None:
            self.view.redraw()
            return False
        action: Any = other.get("action", movement.action)  # checked by plan_movement
        moved = other.get("moved", str(movement.moved)) == "True"
        unit, start, mp = movement.unit, movement.start, movement.mp
        compared = plan_movement(self.map, unit, start, mp, action, self.data, moved=moved)
        ((keyword, value),) = other.items()
        words = MOVEMENT_STATES[keyword][value]
        shown, under = set(movement.costs), set(compared.costs)
        return self.show_compare_marks(
            *hatch_changes(
                self.view,
                (
                    (under - shown, "++", f"reached only if {words}"),
                    (shown - under, "xx", f"not reached if {words}"),
                ),
            )
        )

    def show(self, start: Hex, goal: Hex) -> str:
        unit = self.data.units[self.unit.value]
        mp = parse_optional_number(self.mp.value, "MP to spend")
        movement = plan_movement(
            self.map, unit, start, mp, self.action.value, self.data, moved=self.moved.value
        )
        toward = movement.toward(goal)
        self.movement, self.path = movement, toward.route
        on_board(toward, self.view)
        reach, budget, label = movement.costs, movement.mp, self.map.label
        beyond = sorted((label(h), c) for h, c in reach.items() if c > budget)
        reached = sum(c <= budget for c in reach.values()) - 1
        lines = [
            f"<p><b>{html.escape(unit.name)}</b> ({unit.side}, {unit.mp} MP, MCF {unit.mcf}) "
            f"with {budget} MP reaches {count(reached, 'hex', 'hexes')} from {label(start)}.</p>"
        ]
        if beyond:
            listed = ", ".join(f"{name} ({c} MP)" for name, c in beyond)
            lines.append(
                f"<p>The one hex a Move action may always enter (errata 8.3): {listed}.</p>"
            )
        if toward.route is not None:
            path = " → ".join(map(label, toward.route.hexes))
            lines.append(f"<p>Cheapest path to {label(goal)}: {path}</p>")
        elif toward.mp > budget:
            lines.append(
                f"<p>{label(goal)} is out of reach ({movement.how}): the cheapest path there "
                f"costs {toward.mp} MP, {toward.mp - budget} more than the {budget} MP to "
                "spend.</p>"
            )
        else:
            lines.append(
                f"<p>{label(goal)} is out of reach ({movement.how}): its path costs {toward.mp} "
                f"MP, within the {budget} MP, but entering it is not allowed (errata 8.3).</p>"
            )
        # listed by the step control, not again here
        self.show_steps(toward.steps, answer=toward)
        self.compare.refresh()
        return "".join(lines)


# --- errata 9.5 and 13.2: fire -----------------------------------------------------------------

#: Who fires: a unit (its conditions decide the dice, 9.5) or the Soviet artillery in one of
#: its phases (13.2: barrage side in the Bombardment Phase, support side in the Action Phase).
SHOOTERS = {
    "unit": "a unit",
    "bombardment": "Soviet artillery, Bombardment Phase",
    "action": "Soviet artillery, Action Phase",
}
#: Errata 9.5's and 13.2's worked examples, each the fire panel's controls.
FIRE_PRESETS: dict[str, dict[str, object]] = {
    "9.5: Kill Zone firing at a unit entering a ZOC: 4 dice, not 5": {
        "shooter": "unit",
        "reading": "largest",
        "conditions": ("entering_zoc", "kill_zone"),
    },
    "9.5 and 13.2: Soviet artillery, Bombardment Phase (barrage side): 2 dice": {
        "shooter": "bombardment",
        "conditions": (),
    },
    "9.5 and 13.2: Soviet artillery, Action Phase (support side): 2 dice": {
        "shooter": "action",
        "conditions": (),
    },
}


class FirePanel(ChartPanel):
    """Errata 9.5 and 13.2: choose who fires (a unit under some conditions, or the Soviet
    artillery in a phase), the reading of several conditions and the hit number; see the dice
    and the exact distribution of the effect on the target, the answer in the title. Step
    through how the dice are found; compare the other reading (its bars as dashed outlines)."""

    rule = "SS Panzer errata 9.5 and 13.2 (fire)"

    def __init__(self, data: GameData | None = None):
        self.data = data or example_data()
        self.conditions = ChoiceBoxes(
            [(condition_words(c), c) for c in sorted(self.data.condition_dice)],
            description="conditions",
            tooltip="SS Panzer errata 9.5: the special conditions of this fire",
        )
        self.reading = widgets.RadioButtons(
            options=ZOC_FIRE.options,
            description=ZOC_FIRE.question,
            tooltip=ZOC_FIRE.asks,
            layout=widgets.Layout(width="auto"),
        )
        self.hit_number = widgets.IntSlider(3, 0, 6, description="hit number")
        self.shooter = widgets.Dropdown(
            options=[(words, value) for value, words in SHOOTERS.items()], description="who fires"
        )
        self.answer: FireOutcome | None = None
        self.compare_marks: list[Artist] = []
        #: the chart's top before a compared reading's taller outline raised it
        self._chart_top: float | None = None
        super().__init__(
            self.fire,
            self.draw_fire,
            size=(5.2, 4.6),
            shooter=self.shooter,
            conditions=self.conditions,
            reading=self.reading,
            hit_number=self.hit_number,
        )
        self.step_control = self.add_step_control(self.draw_at_step)
        self.compare = self.add_compare_readings(
            [ZOC_FIRE],
            mark=self.mark_changes,
            current=lambda: {ZOC_FIRE.keyword: str(self.reading.value)},
        )
        self.add_presets(FIRE_PRESETS)
        self.update()

    def fire(
        self, shooter: str, conditions: Sequence[str], reading: str, hit_number: int
    ) -> FireOutcome:
        if shooter == "unit":
            fires = fire_dice(list(conditions), reading=reading, data=self.data)  # type: ignore[arg-type]
        else:
            fires = soviet_artillery_dice(shooter)  # type: ignore[arg-type]
        return fire_outcome(fires, hit_number, data=self.data)

    def draw_fire(self, figure: Figure, outcome: FireOutcome) -> str:
        """The outcome as ``picture`` draws it; the pane: the dice and the chance of each
        effect (the steps are listed once, by the step control: a static page, under it)."""
        self.answer = outcome
        picture(outcome, figure=figure)
        self.compare_marks, self._chart_top = [], None  # a new chart: the old marks went with it
        step_control = getattr(self, "step_control", None)
        if step_control is not None:  # not yet while ChartPanel draws the first answer
            step_control.set_steps(outcome.steps)
            self.compare.refresh()
        note = ""
        if self.shooter.value != "unit" and self.conditions.value:
            note = "<p><i>the conditions are a unit's; the artillery rolls its 2 dice</i></p>"
        return f"<b>{outcome.fires.words}</b>" + outcome.effect._repr_html_() + note

    def draw_at_step(self, k: int) -> None:
        """The chart at step ``k`` (how the dice are found): the bars it is about standing out,
        the step as the title; the last step is the whole answer."""
        if self.answer is None:
            return
        at = None if self.step_control.at_answer else k
        picture(self.answer, step=at, figure=self.figure)
        self.compare_marks, self._chart_top = [], None
        self.compare.refresh()
        self.canvas.draw_idle()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """The other reading's bars as dashed outlines over the chart, and its dice in the
        legend; None takes them off."""
        for artist in self.compare_marks:
            artist.remove()
        self.compare_marks = []
        if self._chart_top is not None and len(self.figure.axes) > 1:
            self.figure.axes[1].set_ylim(top=self._chart_top)
            self._chart_top = None
        if other is None or self.answer is None or len(self.figure.axes) < 2:
            self.canvas.draw_idle()
            return False
        ax = self.figure.axes[1]  # the effect's chart, under the dice
        reading = other[ZOC_FIRE.keyword]
        compared = self.fire(
            self.shooter.value, self.conditions.value, reading, self.answer.hit_number
        )
        if compared.fires.fires == self.answer.fires.fires:
            self.canvas.draw_idle()
            return False
        label = f"{ZOC_FIRE.values[reading].split(' (')[0]}: {compared.fires.words}"
        self.compare_marks, self._chart_top = outline_other_effect(ax, compared.effect, label)
        self.canvas.draw_idle()
        return True


def fire_panel(data: GameData | None = None) -> FirePanel:
    """Errata 9.5: the fire panel (see ``FirePanel``)."""
    return FirePanel(data)


# --- errata 3.3: victory -----------------------------------------------------------------------

#: Errata 3.3's example, each the Soviet-controlled hexes of the victory panel: the stars of
#: the example map (illustrative: not the game map's) all but two, then all but three.
VICTORY_PRESETS: dict[str, dict[str, object]] = {
    "3.3: 7 of the 9 star hexes: a Soviet geographic victory": {
        "controlled": "1310 1412 1715 1816 1913 2013 2118",
    },
    "3.3: 6 of the 9 star hexes: no geographic victory": {
        "controlled": "1310 1412 1715 1816 1913 2013",
    },
}


class VictoryPanel(Panel):
    """Errata 3.3: type the hexes the Soviet player controls (or click the map to add or take
    away one) and see whether he holds the 7 of the 9 star hexes a geographic victory needs."""

    rule = "SS Panzer errata 3.3"

    def __init__(self, m: HexMap, controlled: str = "", *, width: float = 6.0):
        super().__init__()
        self.map = m
        self.controlled = widgets.Text(
            controlled,
            description="Soviet-controlled hexes",
            placeholder="labels, e.g. 1913 2013",
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="460px"),
        )
        self.controlled.observe(lambda _: self.update(), names="value")
        self.pane = widgets.HTML()
        self.figure, self.canvas, self.view = map_canvas(m, width, self.on_click)
        self.widget = widgets.VBox(
            [self.controlled, self.message, self.canvas, self.picture_row, self.pane]
        )
        self.held: list[Hex] = []
        self.step_control = self.add_step_control(self.draw_at_step)
        self.add_presets(VICTORY_PRESETS)
        self.update()

    def hexes(self) -> list[Hex]:
        """The typed labels as hexes (each checked against the map)."""
        text = typed(self.controlled.value, "Soviet-controlled hexes")
        return [self.map.hex(label) for label in text.replace(",", " ").split()]

    @reports_errors
    def on_click(self, event) -> None:
        h = self.view.hex_at(event.xdata, event.ydata)
        if h is None:
            self.show_message("that click is off the map")
            return
        hexes = self.hexes()
        hexes = [x for x in hexes if x != h] if h in hexes else [*hexes, h]
        self.controlled.value = " ".join(self.map.label(x) for x in hexes)

    @reports_errors
    def update(self) -> None:
        result = geographic_victory(self.map, self.hexes())
        self.held = list(result.held)
        on_board(result, self.view)
        # the steps are listed once, by the step control (a static page lists them under it)
        verdict = "Soviet geographic victory" if result.won else "no geographic victory"
        self.pane.value = f"<b>{verdict}</b>"
        self.show_steps(result.steps, answer=result)
        self.view.redraw()
        self.show_message("")

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` marked (the held stars outlined); the last step is the whole answer, the
        held stars shaded again (the steps' dimming shares their layer)."""
        if self.step_control.at_answer:
            clear_step(self.view)
            self.view.highlight(self.held, label="star hex the Soviet player holds")
            self.view.set_title(self._answer_title)
        else:
            show_step(self.view, self.step_control.steps, k)
        self.view.redraw()

    def mark_stale(self) -> None:
        super().mark_stale()
        self.view.set_title(self.stale_title())
        self.view.redraw()
