"""Errata 9.4's line-of-sight panel (``LosPanel``) and its worked examples."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets
from matplotlib.artist import Artist

from wbk.games import ss_panzer
from wbk.games.ss_panzer.draw import hatch_changes, mark_compared_line
from wbk.games.ss_panzer.panels.controls import ReadingsPanel
from wbk.games.ss_panzer.readings import READINGS, SIGHT_READINGS
from wbk.hexgrid import Hex
from wbk.maps import HexMap
from wbk.widgets.edge_cases import has_edge_cases
from wbk.widgets.readings import compare_words

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
        self._lay_out_notes([self.show_viewshed])
        #: what the compared reading changes: hexes entering / leaving the viewshed, and what
        #: blocks the line under it, drawn over the answer (``mark_changes``)
        self.compare_marks: list[Artist] = []
        self._firer: Hex | None = None
        self._target: Hex | None = None
        self.step_control = self.add_step_control(self.draw_at_step)
        words, questions = compare_words([READINGS[r] for r in self.READINGS])
        self.compare = self.add_compare_readings(
            words,
            mark=self.mark_changes,
            current=lambda: {r: str(control.value) for r, control in self.readings.items()},
            questions=questions,
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
        from wbk.draw import clear_step, show_step

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
        words = READINGS[keyword].values[value]
        shown = ss_panzer.line_of_sight(self.map, firer, target, **self.options())
        compared = ss_panzer.line_of_sight(self.map, firer, target, **options)
        entries: dict[str, Artist] = {}
        changed = compared.verdict != shown.verdict
        if changed:
            self.compare_marks, entries = mark_compared_line(self.view, compared, words)
        if self.show_viewshed.value:
            seen = self.viewshed(firer)
            under = ss_panzer.viewshed(self.map, firer, **options)
            hatched, named = hatch_changes(
                self.view,
                (
                    (under - seen, "++", f"seen only under “{words}”"),
                    (seen - under, "xx", f"not seen under “{words}”"),
                ),
            )
            changed = changed or bool(hatched)
            self.compare_marks += hatched
            entries.update(named)
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
