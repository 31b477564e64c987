"""Errata 9.4 over the whole map at once: the intervisibility panel (``IntervisibilityPanel``):
observation posts, dead ground, the hexes that see X but are not seen from Y."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import ipywidgets as widgets
from matplotlib.artist import Artist

from wbk.explain import count
from wbk.games import ss_panzer
from wbk.games.ss_panzer.draw import hatch_changes
from wbk.games.ss_panzer.panels.controls import ReadingsPanel
from wbk.games.ss_panzer.readings import READINGS
from wbk.hexgrid import Hex
from wbk.maps import HexMap
from wbk.widgets.edge_cases import has_edge_cases
from wbk.widgets.readings import compare_words

if TYPE_CHECKING:
    from wbk.games.ss_panzer.sightlines import Intervisibility


@has_edge_cases
class IntervisibilityPanel(ReadingsPanel):
    """Errata 9.4 over the whole map at once: shade every hex by how many hexes it sees (the
    best observation posts), dim the dead ground of hex X, or show the hexes that see X but are
    not seen from Y. The readings and the blocking terrain are those of the LOS panel; a
    reading that would change nothing on show says so."""

    rule = "SS Panzer errata 9.4 (line of sight, every pair of hexes)"

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
        row = self.control_row
        row.children = [self.question, *row.children]
        self.compare_marks: list[Artist] = []
        self._asked: tuple[str, Hex, Hex] | None = None
        words, questions = compare_words([READINGS[r] for r in self.READINGS])
        self.compare = self.add_compare_readings(
            words,
            mark=self.mark_changes,
            current=lambda: {r: str(control.value) for r, control in self.readings.items()},
            questions=questions,
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
        words = READINGS[keyword].values[value]
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
        self.compare_marks, entries = hatch_changes(
            self.view, [(hexes, hatch, f"{name} ({len(hexes)})") for hexes, hatch, name in marked]
        )
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
            named = ", ".join(posts[:6]) + (f" and {len(posts) - 6} more" if len(posts) > 6 else "")
            # a dot in each post the title names (issue 30: only the first had one)
            dotted = [m.hex(post) for post in posts[:6]]
            best_words = "a best observation post" if len(dotted) == 1 else "best observation posts"
            view.mark(dotted, labels=(best_words, ""))
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
