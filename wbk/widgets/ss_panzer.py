"""Widget panels of the SS Panzer chapter: line of sight, intervisibility, movement, fire, and a
map editor."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

import ipywidgets as widgets
import traitlets
from matplotlib.artist import Artist
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure

from wbk.charts import bar_chart
from wbk.dice import Dist, chance
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games import ss_panzer
from wbk.hexgrid import Hex, Hexside
from wbk.maps import HexMap
from wbk.plot import MapView, hex_polygons, hexside_segment, map_axes
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
from wbk.widgets.files import FileRow

if TYPE_CHECKING:
    from wbk.games.ss_panzer.sightlines import Intervisibility


#: The terrain that blocks a line of sight unless a panel is told otherwise: SS Panzer's
#: terrain chart, as the chapter uses it (the rules functions block nothing by default).
USUAL_BLOCKING_TERRAIN = ("woods", "town")
NO_DIFFERENCE = "makes no difference here"
#: What a reading control says beside it while its other value would not change the answer.
NOTE_STYLE = "font-size:12px;color:#595959"


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


def reading_control(reading: str, value: str | None = None) -> widgets.Dropdown:
    """A dropdown for one of 9.4's readings in the rules module's words (``READING_WORDS``), as
    wide as its longest words. Hovering over its label shows which rule it reads: the label is
    HTML with a ``title`` (ipywidgets 8's Dropdown gives its ``tooltip`` no title attribute);
    a panel's static snapshot and captions name it in plain words (``plain_words``)."""
    words = ss_panzer.READING_WORDS[reading]
    question = ss_panzer.READING_QUESTIONS[reading]
    rule = ss_panzer.READING_RULES[reading]
    # about 6.5 pixels a character of label and words, and room for the arrow
    width = round(6.5 * (len(question) + max(map(len, words.values())))) + 50
    return widgets.Dropdown(
        options=[(w, v) for v, w in words.items()],
        value=value or next(iter(words)),
        description=(
            f'<span title="{html.escape(rule)}" style="cursor:help;'
            f'text-decoration:underline dotted">{html.escape(question)}</span>'
        ),
        description_allow_html=True,
        tooltip=rule,
        style={"description_width": "initial"},
        layout=widgets.Layout(width=f"{width}px"),
    )


def plain_words(description: str) -> str:
    """A control's label as a reader of a page sees it: the words of a reading control's
    HTML label, without its tags."""
    return html.unescape(re.sub(r"<[^>]*>", "", description))


def hatched_hexes(view: MapView, hexes: Iterable[Hex], hatch: str) -> PolyCollection:
    """``hexes`` hatched (no fill, the terrain shows through) on ``view``: what another
    reading adds or takes away, for "compare readings"."""
    patch = PolyCollection(
        list(hex_polygons(sorted(hexes), 0.9)),
        facecolor="none",
        edgecolor="#1a1a1a",
        hatch=hatch,
        linewidth=0.0,
        zorder=28,
    )
    view.ax.add_collection(patch)
    return patch


class ReadingsPanel(MapPanel):
    """A map panel with 9.4's reading controls and the blocking terrain, each reading saying
    "makes no difference here" while its other value would not change the answer on show."""

    READINGS: tuple[str, ...] = ()

    def _reading_controls(self, m: HexMap, blocking_terrain: Sequence[str] | None) -> list:
        kinds = sorted(m.terrain_hexes)
        chosen = USUAL_BLOCKING_TERRAIN if blocking_terrain is None else blocking_terrain
        self.readings = {r: reading_control(r) for r in self.READINGS}
        for reading, control in self.readings.items():
            setattr(self, reading, control)
        self.unchanged: list[str] = []  # the readings whose other value changes nothing here
        # one line under the readings, its room always kept: the map never moves
        self.no_difference = widgets.HTML(layout=widgets.Layout(width="100%", min_height="22px"))
        self.blocking = ChoiceBoxes(
            kinds,
            [k for k in kinds if k in chosen],
            description="blocking terrain",
            tooltip="SS Panzer's terrain chart: terrain in a hex that blocks a line through it",
        )
        return [*self.readings.values(), self.blocking]

    def _lay_out_notes(self, extra: Sequence[widgets.Widget] = ()) -> None:
        """Put the readings' note under them (in the controls row MapPanel built)."""
        row = self.widget.children[1]
        row.children = [*self.readings.values(), self.no_difference, self.blocking, *extra]

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
            "blocking_terrain": list(self.blocking.value),
            **{r: control.value for r, control in self.readings.items()},
        }

    def note_differences(self, answer: Callable[[dict], object]) -> None:
        """Say under the readings which of them make no difference to ``answer(options)``."""
        options = self.options()
        shown = answer(options)
        self.unchanged = [
            reading
            for reading, control in self.readings.items()
            if all(
                answer({**options, reading: v}) == shown
                for v in ss_panzer.READING_WORDS[reading]
                if v != control.value
            )
        ]
        named = "; ".join(f"“{ss_panzer.READING_QUESTIONS[r]}”" for r in self.unchanged)
        self.no_difference.value = (
            f'<i style="{NOTE_STYLE}">{NO_DIFFERENCE}: {html.escape(named)}</i>' if named else ""
        )


#: Errata 9.4's worked examples, each a LOS panel's firer and target, with no blocking terrain
#: (the examples are about slopes; the map's woods and towns are illustrative).
LOS_PRESETS: dict[str, dict[str, object]] = {
    "9.4 example 1: 1913 -> 2111 (from the slope hex, beyond: clear)": {
        "firer": "1913",
        "target": "2111",
        "blocking": (),
    },
    "9.4 example 1: 1813 -> 2113 (through 1913 and beyond: clear)": {
        "firer": "1813",
        "target": "2113",
        "blocking": (),
    },
    "9.4 example 1: 1814 -> 2013 (through 1913 and beyond: clear)": {
        "firer": "1814",
        "target": "2013",
        "blocking": (),
    },
    "9.4 example 1: 1914 -> 1911 (through 1913 and beyond: clear)": {
        "firer": "1914",
        "target": "1911",
        "blocking": (),
    },
    "9.4 example 2: 1712 -> 1913 (into 1913: clear)": {
        "firer": "1712",
        "target": "1913",
        "blocking": (),
    },
    "9.4 example 2: 1712 -> 2113 (beyond 1913: blocked)": {
        "firer": "1712",
        "target": "2113",
        "blocking": (),
    },
    "9.4 example 3: 1913 -> 1915 (clear)": {"firer": "1913", "target": "1915", "blocking": ()},
    "9.4 example 3: 1913 -> 1816 (clear)": {"firer": "1913", "target": "1816", "blocking": ()},
    "9.4 example 3: 1913 -> 1716 (blocked by 1715/1816)": {
        "firer": "1913",
        "target": "1716",
        "blocking": (),
    },
}


@has_edge_cases
class LosPanel(ReadingsPanel):
    """Errata 9.4: pick firer and target, see the line, its verdict and why; switch the readings
    (slope hexes, whose hex the general sentence looks at, slope ends, lines along a hexside or
    through a corner), the blocking terrain (woods and towns to start with), and show the
    firer's viewshed."""

    READINGS = ("slope_hex", "slope_hex_of", "slope_end", "edge")

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
        self._lay_out_notes([self.show_viewshed])
        #: what the compared reading changes: hexes entering / leaving the viewshed, and what
        #: blocks the line under it, drawn over the answer (``mark_changes``)
        self.compare_marks: list[Artist] = []
        self._firer: Hex | None = None
        self._target: Hex | None = None
        self.step_control = self.add_step_control(self.draw_at_step)
        self.compare = self.add_compare_readings(
            {r: ss_panzer.READING_WORDS[r] for r in self.READINGS},
            mark=self.mark_changes,
            current=lambda: {r: str(control.value) for r, control in self.readings.items()},
            questions=ss_panzer.READING_QUESTIONS,
        )
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
        self.presets.widget.layout.width = "400px"
        self.compare.choice.layout.width = "400px"
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        hexes = widgets.HBox([*boxes.children, self.click_sets], layout=wrap)
        teaching = widgets.HBox([self.presets.widget, self.compare.widget], layout=wrap)
        moved = (boxes, self.click_sets, self.presets.widget, self.compare.widget)
        self.widget.children = [hexes, teaching, *(c for c in children if c not in moved)]

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` marked on the map; the last step is the whole answer, the viewshed (which
        shares the map's one dimming layer with the steps) dimmed again if it is on."""
        from wbk.pictures import clear_step, show_step

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
        for artist in self.compare_marks:
            artist.remove()
        self.compare_marks = []
        self.view.set_overlay_legend("compare", {})
        firer, target = self._firer, self._target
        if other is None or firer is None or target is None:
            self.view.redraw()
            return False
        options = {**self.options(), **other}
        ((keyword, value),) = other.items()
        words = ss_panzer.READING_WORDS[keyword][value]
        shown = ss_panzer.line_of_sight(self.map, firer, target, **self.options())
        compared = ss_panzer.line_of_sight(self.map, firer, target, **options)
        entries: dict[str, object] = {}
        changed = compared.verdict != shown.verdict
        if changed:
            blockers = [h for h in compared.blocking if isinstance(h, Hex)]
            sides = [s for s in compared.blocking if isinstance(s, Hexside)]
            outline = PolyCollection(
                list(hex_polygons(blockers, 0.8)),
                facecolor="none",
                edgecolor="#1a1a1a",
                linestyle=(0, (3, 2)),
                linewidth=2.2,
                zorder=31,
            )
            self.compare_marks.append(self.view.ax.add_collection(outline))
            band = LineCollection(
                [hexside_segment(s) for s in sides],
                colors="#1a1a1a",
                linestyles=(0, (3, 2)),
                linewidths=3.0,
                zorder=31,
            )
            self.compare_marks.append(self.view.ax.add_collection(band))
            if blockers or sides:
                entries[f"blocks under “{words}”"] = outline if blockers else band
            self.compare_marks.append(
                self.view.ax.text(
                    0.01,
                    0.01,
                    f"under “{words}”: {compared.short_verdict()}",
                    transform=self.view.ax.transAxes,
                    fontsize=8,
                    va="bottom",
                    bbox={"facecolor": "white", "edgecolor": "#1a1a1a", "alpha": 0.9},
                    zorder=32,
                )
            )
        if self.show_viewshed.value:
            seen = self.viewshed(firer)
            under = ss_panzer.viewshed(self.map, firer, **options)
            for hexes, hatch, name in (
                (under - seen, "++", f"seen only under “{words}”"),
                (seen - under, "xx", f"not seen under “{words}”"),
            ):
                if hexes:
                    changed = True
                    patch = hatched_hexes(self.view, hexes, hatch)
                    self.compare_marks.append(patch)
                    entries[name] = patch
        self.view.set_overlay_legend("compare", entries)
        self.view.redraw()
        return changed

    def what_is_drawn(self, firer: Hex, target: Hex, options: dict) -> object:
        """What the picture shows under ``options``: the line's verdict, and the firer's
        viewshed while it is on (a reading may move the viewshed and not the one line)."""
        verdict = ss_panzer.line_of_sight(self.map, firer, target, **options).verdict
        if not self.show_viewshed.value:
            return verdict
        return verdict, frozenset(ss_panzer.viewshed(self.map, firer, **options))

    def viewshed(self, firer: Hex) -> set[Hex]:
        """The firer's viewshed, kept while firer and options stay: clicking targets is cheap."""
        key = (firer, repr(self.options()))
        if self._viewshed_key != key:
            self._viewshed = ss_panzer.viewshed(self.map, firer, **self.options())
            self._viewshed_key = key
        return self._viewshed

    def show(self, firer: Hex, target: Hex) -> str:
        result = ss_panzer.line_of_sight(self.map, firer, target, **self.options())
        self.note_differences(lambda o: self.what_is_drawn(firer, target, o))
        self.view.show_line_of_sight(result)
        self._firer, self._target = firer, target
        extra = self.dim_viewshed()
        self.show_steps(result.steps)
        self.compare.refresh()
        # the steps are listed once, by the step control (a static page lists them under it)
        return f"<b>line of sight {html.escape(result.verdict)}</b>" + extra


@has_edge_cases
class IntervisibilityPanel(ReadingsPanel):
    """Errata 9.4 over the whole map at once: shade every hex by how many hexes it sees (the
    best observation posts), dim the dead ground of hex X, or show the hexes that see X but are
    not seen from Y. The readings and the blocking terrain are those of the LOS panel; a
    reading that would change nothing on show says so."""

    QUESTIONS = (
        ("how many hexes each hex sees", "counts"),
        ("dead ground from X", "dead_ground"),
        ("hexes that see X, not seen from Y", "sees_not_seen"),
    )
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
            options=self.QUESTIONS,
            description="show",
            style={"description_width": "initial", "button_width": "auto"},
        )
        controls = self._reading_controls(m, blocking_terrain)
        self._seen: dict[str, Intervisibility] = {}
        super().__init__(m, {"X": x, "Y": y}, [self.question, *controls], width=width)
        self._lay_out_notes()
        row = self.widget.children[1]
        row.children = [self.question, *row.children]
        self.compare_marks: list[Artist] = []
        self._asked: tuple[str, Hex, Hex] | None = None
        self.compare = self.add_compare_readings(
            {r: ss_panzer.READING_WORDS[r] for r in self.READINGS},
            mark=self.mark_changes,
            current=lambda: {r: str(control.value) for r, control in self.readings.items()},
            questions=ss_panzer.READING_QUESTIONS,
        )
        self.update()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Hatch what ``other`` (one reading's other value) changes: the hexes whose count
        changes (counts), or the hexes entering (+) or leaving (x) the answer's set; None takes
        the marks off."""
        for artist in self.compare_marks:
            artist.remove()
        self.compare_marks = []
        self.view.set_overlay_legend("compare", {})
        if other is None or self._asked is None:
            self.view.redraw()
            return False
        question, x, y = self._asked
        ((keyword, value),) = other.items()
        words = ss_panzer.READING_WORDS[keyword][value]
        shown = self.answer(self.options(), question, x, y)
        under = self.answer({**self.options(), **other}, question, x, y)
        if isinstance(shown, dict) and isinstance(under, dict):
            marked = [
                (
                    {h for h in shown if shown[h] != under[h]},
                    "//",
                    f"the count changes under “{words}”",
                )
            ]
        else:
            before, after = set(cast(set, shown)), set(cast(set, under))
            marked = [
                (after - before, "++", f"added under “{words}”"),
                (before - after, "xx", f"left out under “{words}”"),
            ]
        entries: dict[str, object] = {}
        for hexes, hatch, name in marked:
            if hexes:
                patch = hatched_hexes(self.view, hexes, hatch)
                self.compare_marks.append(patch)
                entries[f"{name} ({len(hexes)})"] = patch
        self.view.set_overlay_legend("compare", entries)
        self.view.redraw()
        return bool(entries)

    def on_click(self, event) -> None:
        # the colour bar under the map is an axes of its own: a click there picks no hex
        if getattr(event, "inaxes", self.view.ax) not in (self.view.ax, None):
            return
        super().on_click(event)

    def intervisibility(self, options: dict | None = None) -> Intervisibility:
        """Every pair's line of sight under the options (the panel's own by default), kept."""
        options = self.options() if options is None else options
        key = repr(sorted(options.items()))
        if key not in self._seen:
            if len(self._seen) >= 8:
                self._seen.clear()
            self._seen[key] = ss_panzer.intervisibility(self.map, **options)
        return self._seen[key]

    def answer(self, options: dict, question: str, x: Hex, y: Hex) -> object:
        """What the picture shows for a question under ``options``."""
        seen = self.intervisibility(options)
        if question == "counts":
            return seen.counts()
        if question == "dead_ground":
            return seen.dead_ground(x)
        return seen.sees_but_not_seen_from(x, y)

    def show(self, X: Hex, Y: Hex) -> str:
        question = self.question.value
        self._asked = (question, X, Y)
        html_text = self.answer_html(self.intervisibility(), question, X, Y)
        self.compare.refresh()
        return html_text

    def answer_html(self, seen: Intervisibility, question: str, X: Hex, Y: Hex) -> str:
        """Draw the question's answer on the map; the pane's HTML."""
        m, view, label = self.map, self.view, self.map.label
        self.note_differences(lambda o: self.answer(o, question, X, Y))
        view.show_trace(None)
        view.show_route(None)
        view.show_numbers({})
        n = len(m)
        if question == "counts":
            counts = seen.counts()
            best, least = max(counts.values()), min(counts.values())
            posts = sorted(label(h) for h, c in counts.items() if c == best)
            view.shade(counts, label=f"hexes seen from the hex (of {n})", scale=True)
            if n <= 200:
                view.show_numbers(counts, label="hexes seen")
            view.mark(m.hex(posts[0]), labels=("a best observation post", ""))
            named = ", ".join(posts[:6]) + (f" and {len(posts) - 6} more" if len(posts) > 6 else "")
            view.set_title(
                f"Hexes seen from each hex: {named} "
                f"see{'s' if len(posts) == 1 else ''} the most, {best} of {n}"
            )
            both_ways = seen.pairs()
            return (
                f"<p>Each hex is shaded by how many hexes a unit there sees (its own included): "
                f"from {least} to {best} of {n}. The best observation posts: "
                f"{html.escape(named)}. {both_ways} of {n * (n - 1) // 2} pairs of hexes see "
                "each other.</p>"
            )
        if question == "dead_ground":
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
            f"{count(len(hidden), 'hex sees', 'hexes see')} {label(X)} but "
            f"{'is' if len(hidden) == 1 else 'are'} not seen from {label(Y)}"
        )
        listed = ", ".join(sorted(label(h) for h in hidden)) or "none"
        return (
            f"<p>The hexes from which a unit sees X = {label(X)}, while a unit in "
            f"Y = {label(Y)} does not see them: {listed}.</p>"
        )


#: What the movement panel compares: the action and whether the unit has moved, which decide
#: errata 8.3's one hex (not readings of an unclear text: the state of the unit).
MOVEMENT_READINGS: dict[str, dict[str, str]] = {
    "action": {"move": "on a Move action", "move_and_fire": "on a Move & Fire action"},
    "moved": {"False": "it has not moved yet", "True": "it has already moved"},
}
#: Errata 8.3's worked examples: the stream into woods, the one hex, and the trench. With 2 MP
#: the Pz IV's only way into 1609 is straight over the stream (with its full MP, going round
#: by 1509 is cheaper, 4 MP), so the first example is also the one hex a Move action enters.
MOVEMENT_PRESETS: dict[str, dict[str, object]] = {
    "8.3: Pz IV over the stream into woods 1609: 2 MCF = 6 MP, its one hex with 2 MP": {
        "unit": "Pz IV",
        "mp": "2",
        "action": "move",
        "moved": False,
        "start": "1610",
        "goal": "1609",
    },
    "8.3 one hex: the same on a Move & Fire action may not": {
        "unit": "Pz IV",
        "mp": "2",
        "action": "move_and_fire",
        "moved": False,
        "start": "1610",
        "goal": "1609",
    },
    "8.3 one hex: the same having moved may not": {
        "unit": "Pz IV",
        "mp": "2",
        "action": "move",
        "moved": True,
        "start": "1610",
        "goal": "1609",
    },
    "8.3 trench: a German Pz IV into trench hex 2013 pays its MCF, 3 MP": {
        "unit": "Pz IV",
        "mp": "",
        "action": "move",
        "moved": False,
        "start": "1913",
        "goal": "2013",
    },
    "8.3 trench: a Soviet T-34 into trench hex 2013 pays 1 MP": {
        "unit": "T-34",
        "mp": "",
        "action": "move",
        "moved": False,
        "start": "1913",
        "goal": "2013",
    },
}


@has_edge_cases
class MovementPanel(MapPanel):
    """Errata 8.3: every hex a unit can reach from its start, shaded with the MP it costs; a goal
    hex gets its cheapest path explained, or, out of reach, what it would cost. Set the MP left,
    switch Move and Move & Fire, or mark the unit as having moved, to see the one-hex rule."""

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
        self.movement: ss_panzer.Movement | None = None
        self.path: ss_panzer.Route | None = None
        #: the hatching of the hexes that enter or leave the range under a compared state
        self.compare_marks: list[Artist] = []
        self.step_control = self.add_step_control(self.draw_at_step)
        self.compare = self.add_compare_readings(
            MOVEMENT_READINGS,
            mark=self.mark_changes,
            current=lambda: {"action": self.action.value, "moved": str(self.moved.value)},
            questions={"action": "action", "moved": "this Action Phase"},
        )
        self.add_presets(MOVEMENT_PRESETS)
        self.update()

    def dim_out_of_reach(self) -> None:
        if self.movement is not None:
            reach = self.movement.costs
            self.view.dim([h for h in self.map if h not in reach], label="out of reach")

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` of the path to the goal: the path drawn as far as the hex the step
        enters, that hex (and the hexside it pays for) marked, the range's costs kept; the last
        step is the whole answer, out of reach dimmed again (steps and range share the map's
        one dimming layer)."""
        from wbk.pictures import clear_step, show_step

        path = self.path
        if self.step_control.at_answer:
            clear_step(self.view)
            self.view.set_title(self._answer_title)
            self.dim_out_of_reach()
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
        for artist in self.compare_marks:
            artist.remove()
        self.compare_marks = []
        self.view.set_overlay_legend("compare", {})
        movement = self.movement
        if other is None or movement is None:
            self.view.redraw()
            return False
        state = {"action": movement.action, "moved": str(movement.moved), **other}
        compared = ss_panzer.plan_movement(
            self.map,
            movement.unit,
            movement.start,
            movement.mp,
            action=cast(ss_panzer.Action, state["action"]),
            data=self.data,
            moved=state["moved"] == "True",
        )
        ((keyword, value),) = other.items()
        words = MOVEMENT_READINGS[keyword][value]
        shown, under = set(movement.costs), set(compared.costs)
        entries: dict[str, object] = {}
        for hexes, hatch, name in (
            (under - shown, "++", f"reached only if {words}"),
            (shown - under, "xx", f"not reached if {words}"),
        ):
            if hexes:
                patch = hatched_hexes(self.view, hexes, hatch)
                self.compare_marks.append(patch)
                entries[name] = patch
        self.view.set_overlay_legend("compare", entries)
        self.view.redraw()
        return bool(entries)

    def cost_without_limit(self, unit: ss_panzer.Unit, start: Hex, goal: Hex) -> int:
        """The MP of the cheapest path from start to goal, whatever the MP to spend."""
        # every entry costs at most the MCF once per kind of MCF terrain and hexside, plus a
        # trench: a path through every hex of the map costs no more than this
        per_entry = unit.mcf * (len(self.data.mcf_terrain) + len(self.data.mcf_hexsides) + 1)
        unlimited = ss_panzer.plan_movement(
            self.map, unit, start, per_entry * len(self.map), action="move", data=self.data
        )
        return unlimited.costs[goal]

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
        label = self.map.label
        self.movement, self.path = movement, None
        self.dim_out_of_reach()
        self.view.show_numbers(reach, label="MP spent to get there")
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
        title = f"{unit.name} from {label(start)} with {budget} MP ({self.action.label})"
        if goal in reach:
            path = self.path = movement.route(goal)
            self.view.show_route(path.hexes, label=f"cheapest path, {path.mp} MP")
            self.view.mark(start, goal, labels=("start", "goal"))
            self.view.set_title(f"{title}: {label(goal)} for {path.mp} MP")
            lines.append(
                f"<p>Cheapest path to {label(goal)}: {' → '.join(map(label, path.hexes))}</p>"
            )
            steps = path.steps  # listed by the step control, not again here
        else:
            self.view.show_route(None)
            self.view.mark(start, goal, labels=("start", "goal (out of reach)"))
            needed = self.cost_without_limit(unit, start, goal)
            self.view.set_title(f"{title}: {label(goal)} out of reach, it would take {needed} MP")
            having = ", having moved" if self.moved.value else ""
            lines.append(
                f"<p>{label(goal)} is out of reach ({self.action.label}{having}): the cheapest "
                f"path there costs {needed} MP, {needed - budget} more than the {budget} MP to "
                "spend.</p>"
                if needed > budget
                else f"<p>{label(goal)} is out of reach ({self.action.label}{having}): its "
                f"path costs {needed} MP, within the {budget} MP, but entering it is not "
                "allowed (errata 8.3).</p>"
            )
            steps = (
                Step(
                    f"{label(goal)} is out of reach ({self.action.label}{having}): "
                    f"the cheapest path there costs {needed} MP with {budget} MP to spend",
                    "SS Panzer errata 8.3",
                    about=(goal,),
                ),
            )
        self.show_steps(steps)
        self.compare.refresh()
        return "".join(lines)


#: The fire reading's words, in full, and what each reads.
FIRE_READINGS = {
    "largest": "the largest number of dice only (unofficial errata 9.5)",
    "separate": "each condition a separate fire (official ZOC fire rule)",
}


def fire_title(fires: ss_panzer.FireDice, effect: Dist, hit_number: int) -> str:
    """A fire's picture title: the dice, the hit number, and the chance of each effect."""
    dice = " and ".join(count(n, "die", "dice") for n in fires.fires)
    fired = f"{dice} ({'separate fires' if len(fires.fires) > 1 else 'one fire'})"
    chances = ", ".join(
        _whole_phrase(f"{name} {chance(effect.probability(e))}")
        for e, name in (
            (ss_panzer.FireEffect.STEP_LOSS, "step loss"),
            (ss_panzer.FireEffect.SUPPRESSED, "suppressed"),
            (ss_panzer.FireEffect.NO_EFFECT, "no effect"),
        )
    )
    return f"{fired}, hitting on {hit_number} or less\n{chances}"


#: A chart of the dice: what gives dice (each condition, the base, the artillery's side) in
#: orange, the fires rolled in blue (Okabe-Ito); what a step is not about is faded to this.
DICE_SOURCE_COLOUR = "#E69F00"
FIRE_COLOUR = "#0072B2"
NOT_THIS_STEP_ALPHA = 0.25


def _whole_phrase(text: str) -> str:
    """``text`` kept on one line of a wrapped title (its spaces made non-breaking)."""
    return text.replace(" ", "\u00a0")


def fire_picture(
    fires: ss_panzer.FireDice,
    *,
    effect: Dist | None = None,
    hit_number: int | None = None,
    step: int | None = None,
    figure: Figure | None = None,
) -> Figure:
    """Errata 9.5's dice as a chart: a bar for what gives dice (each condition, or the base, or
    the Soviet artillery's side) and one for each fire rolled, each bar's dice written beside
    it; with ``effect`` (and its ``hit_number``), the chance of each effect on the target under
    it. At ``step`` (an index into ``fires.steps``) the bars the step is about stand out, the
    rest (the effect too) faded, and the title says the step; None: the whole answer, titled
    with the dice and the chances. Drawn on ``figure`` (cleared) or a new one."""
    from wbk.pictures import step_index, step_title
    from wbk.plot import PictureView

    if not isinstance(fires, ss_panzer.FireDice):
        raise WbkError(f"fire_picture: {fires!r} is not a FireDice (fire_dice's answer)")
    at = None if step is None else step_index(fires.steps, step)
    about = set(fires.steps[at].about) if at is not None else None
    rows = [*fires.rolled_by, *zip(fires.fire_names, fires.fires, strict=True)]
    if figure is None:
        figure = Figure(figsize=(5.2, 4.6 if effect is not None else 2.6), layout="constrained")
    else:
        figure.clear()
    if effect is not None:
        dice_ax, effect_ax = figure.subplots(
            2, 1, gridspec_kw={"height_ratios": [max(2, len(rows)), 3]}
        )
    else:
        dice_ax, effect_ax = figure.add_subplot(), None
    sources = len(fires.rolled_by)
    positions = list(range(len(rows)))[::-1]  # the first row on top
    for (name, dice), y, k in zip(rows, positions, range(len(rows)), strict=True):
        on_show = about is None or name in about
        bar = dice_ax.barh(
            y,
            dice,
            height=0.6,
            color=DICE_SOURCE_COLOUR if k < sources else FIRE_COLOUR,
            edgecolor="#1a1a1a" if about is not None and on_show else "none",
            linewidth=2.0,
            alpha=1.0 if on_show else NOT_THIS_STEP_ALPHA,
        )
        dice_ax.bar_label(
            bar,
            labels=[count(dice, "die", "dice")],
            padding=3,
            fontsize=8,
            alpha=1.0 if on_show else 0.5,
        )
    dice_ax.set_yticks(positions, [name for name, _ in rows], fontsize=8)
    for label, (name, _) in zip(dice_ax.get_yticklabels(), rows, strict=True):
        if about is not None and name not in about:
            label.set_color("#999999")
    most = max(dice for _, dice in rows)
    dice_ax.set_xlim(0, most + 1.2)
    dice_ax.xaxis.get_major_locator().set_params(integer=True)
    dice_ax.set_xlabel("dice", fontsize=8)
    dice_ax.tick_params(axis="x", labelsize=7)
    dice_ax.spines[["top", "right"]].set_visible(False)
    handles = [
        dice_ax.bar([0], [0], color=DICE_SOURCE_COLOUR, label="gives dice"),
        dice_ax.bar([0], [0], color=FIRE_COLOUR, label="fire rolled"),
    ]
    dice_ax.legend(
        handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False
    )
    if effect_ax is not None and effect is not None:
        bar_chart(effect, ax=effect_ax, title="", xlabel="", outcomes=EFFECTS)
        effect_ax.set_title(
            f"effect on the target, hitting on {hit_number} or less", fontsize=8, loc="left"
        )
        if about is not None and not about & set(fires.fire_names):
            for artist in (*effect_ax.patches, *effect_ax.texts):
                artist.set_alpha(NOT_THIS_STEP_ALPHA)
    view = PictureView(dice_ax)
    if at is None:
        if effect is not None and hit_number is not None:
            title = fire_title(fires, effect, hit_number)
        else:
            title = " and ".join(count(n, "die", "dice") for n in fires.fires)
    else:
        done = fires.steps[at]
        title = f"Step {at + 1} of {len(fires.steps)}: {done.text} ({done.rule})"
    step_title(view, title)
    return figure


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
#: The effects in the order the chart draws them, whichever can come up.
EFFECTS = tuple(ss_panzer.FireEffect)


class FirePanel(ChartPanel):
    """Errata 9.5 and 13.2: choose who fires (a unit under some conditions, or the Soviet
    artillery in a phase), the reading of several conditions and the hit number; see the dice
    and the exact distribution of the effect on the target, the answer in the title. Step
    through how the dice are found; compare the other reading (its bars as dashed outlines)."""

    def __init__(self, data: ss_panzer.GameData | None = None):
        self.data = data or ss_panzer.example_data()
        self.conditions = ChoiceBoxes(
            [(_condition_words(c), c) for c in sorted(self.data.condition_dice)],
            description="conditions",
            tooltip="SS Panzer errata 9.5: the special conditions of this fire",
        )
        self.reading = widgets.RadioButtons(
            options=[(words, value) for value, words in FIRE_READINGS.items()],
            description="several conditions",
            tooltip="Errata 9.5 (unofficial): one fire with the most dice any condition gives; "
            "the official ZOC fire rule: each condition's fire resolved on its own",
            layout=widgets.Layout(width="auto"),
        )
        self.hit_number = widgets.IntSlider(3, 0, 6, description="hit number")
        self.shooter = widgets.Dropdown(
            options=[(words, value) for value, words in SHOOTERS.items()], description="who fires"
        )
        self.answer: tuple[ss_panzer.FireDice, Dist, int] | None = None
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
            {"reading": FIRE_READINGS},
            mark=self.mark_changes,
            current=lambda: {"reading": str(self.reading.value)},
            questions={"reading": "several conditions"},
        )
        self.add_presets(FIRE_PRESETS)
        self.update()

    def fire(
        self, shooter: str, conditions: Sequence[str], reading: str, hit_number: int
    ) -> tuple[ss_panzer.FireDice, Dist, int]:
        if shooter == "unit":
            fires = ss_panzer.fire_dice(list(conditions), reading=reading, data=self.data)  # type: ignore[arg-type]
        else:
            fires = ss_panzer.soviet_artillery_dice(shooter)  # type: ignore[arg-type]
        return fires, ss_panzer.fire_effect(fires, hit_number, data=self.data), hit_number

    def draw_fire(self, figure: Figure, result: tuple[ss_panzer.FireDice, Dist, int]) -> str:
        fires, effect, hit_number = self.answer = result
        fire_picture(fires, effect=effect, hit_number=hit_number, figure=figure)
        self.compare_marks, self._chart_top = [], None  # a new chart: the old marks went with it
        step_control = getattr(self, "step_control", None)
        if step_control is not None:  # not yet while ChartPanel draws the first answer
            step_control.set_steps(fires.steps)
            self.compare.refresh()
        note = ""
        if self.shooter.value != "unit" and self.conditions.value:
            note = "<p><i>the conditions are a unit's; the artillery rolls its 2 dice</i></p>"
        # the steps are listed once, by the step control (a static page lists them under it)
        dice = " and ".join(count(n, "die", "dice") for n in fires.fires)
        return f"<b>{dice}</b>" + effect._repr_html_() + note

    def draw_at_step(self, k: int) -> None:
        """The chart at step ``k`` (how the dice are found): the bars it is about standing out,
        the step as the title; the last step is the whole answer."""
        if self.answer is None:
            return
        fires, effect, hit_number = self.answer
        at = None if self.step_control.at_answer else k
        fire_picture(fires, effect=effect, hit_number=hit_number, step=at, figure=self.figure)
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
        shown, _, hit_number = self.answer
        fires, compared, _ = self.fire(
            self.shooter.value, self.conditions.value, other["reading"], hit_number
        )
        if fires.fires == shown.fires:
            self.canvas.draw_idle()
            return False
        dice = " and ".join(count(n, "die", "dice") for n in fires.fires)
        bars = ax.bar(
            range(len(EFFECTS)),
            [float(compared.probability(e)) for e in EFFECTS],
            width=0.8,
            facecolor="none",
            edgecolor="#1a1a1a",
            linestyle=(0, (3, 2)),
            linewidth=1.6,
            label=f"{FIRE_READINGS[other['reading']].split(' (')[0]}: {dice}",
            zorder=5,
        )
        # room for the tallest outline and the legend above it
        self._chart_top = ax.get_ylim()[1]
        tallest = max(float(compared.probability(e)) for e in EFFECTS)
        ax.set_ylim(top=max(self._chart_top, tallest * 1.3))
        legend = ax.legend(handles=[bars], fontsize=7, loc="upper left")
        self.compare_marks = [*bars, legend]
        self.canvas.draw_idle()
        return True


def _condition_words(condition: str) -> str:
    return condition.replace("_", " ").replace("zoc", "ZOC")


def fire_panel(data: ss_panzer.GameData | None = None) -> FirePanel:
    """Errata 9.5: the fire panel (see ``FirePanel``)."""
    return FirePanel(data)


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


def draw_victory(view: MapView, victory: ss_panzer.Victory) -> None:
    """Errata 3.3's answer on its map (whose star markers show the star hexes): the stars the
    Soviet player holds shaded, the verdict in the title."""
    if not isinstance(victory, ss_panzer.Victory):
        raise WbkError(f"draw_victory: {victory!r} is not a Victory (geographic_victory's answer)")
    view.highlight(list(victory.held), label="star hex the Soviet player holds")
    verdict = "a Soviet geographic victory" if victory.won else "no geographic victory"
    view.set_title(
        f"The Soviet player holds {victory.controlled} of the {victory.stars} star hexes: {verdict}"
    )


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
        m = self.map
        result = ss_panzer.geographic_victory(m, self.hexes())
        self.held = list(result.held)
        draw_victory(self.view, result)
        # the steps are listed once, by the step control (a static page lists them under it)
        verdict = "Soviet geographic victory" if result.won else "no geographic victory"
        self.pane.value = f"<b>{verdict}</b>"
        self.show_steps(result.steps)
        self.view.redraw()
        self.show_message("")

    def highlight_held(self) -> None:
        self.view.highlight(self.held, label="star hex the Soviet player holds")

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` marked (the held stars outlined); the last step is the whole answer, the
        held stars shaded again (the steps' dimming shares their layer)."""
        from wbk.pictures import clear_step, show_step

        if self.step_control.at_answer:
            clear_step(self.view)
            self.highlight_held()
            self.view.set_title(self._answer_title)
        else:
            show_step(self.view, self.step_control.steps, k)
        self.view.redraw()

    def mark_stale(self) -> None:
        super().mark_stale()
        self.view.set_title(self.stale_title())
        self.view.redraw()


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
        self.file = FileRow(
            "map",
            Path(path) if path else default_map_path(m),
            load=self.load,
            save=self.save,
            width="420px",
        )
        undo = widgets.Button(description="Undo", layout=widgets.Layout(width="70px"))
        undo.on_click(lambda _: self.undo())
        super().__init__()
        self.map = m
        self.history: list[HexMap] = []
        self.pane = widgets.HTML()
        self.figure, self.canvas, self.view = map_canvas(m, width, self.on_click)
        self.view.set_title(f"{m.name}: choose a brush and click the map")
        rows = [
            widgets.HBox([self.brush, self.name], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([*self.file.parts, undo], layout=widgets.Layout(flex_flow="row wrap")),
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
        """Save the edited map, under the name typed, to the file chosen (a download in the
        app)."""
        named = self.map.with_name(self.name.value.strip())
        where = self.file.write(named.to_toml(), default_map_path(named).name)
        self.map = named
        self.show_message("")
        self.pane.value = html.escape(f"saved {named.name!r} ({len(named)} hexes) {where}")

    @reports_errors(stale=False)
    def load(self) -> None:
        """Open the map in the file chosen (typed in JupyterLab, uploaded in the app)."""
        text, source, _ = self.file.read()
        loaded = HexMap.from_toml(text, source=source)
        if list(loaded) != list(self.map):
            self.figure.clear()
            self.view = MapView(loaded, map_axes(self.figure))
        self.history.append(self.map)
        self.name.value = loaded.name
        self.show(loaded, f"loaded {source}")
