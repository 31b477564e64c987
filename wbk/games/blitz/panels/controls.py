"""The controls every Blitz Combat panel is made of: dropdowns in the rules' words, sliders
wide enough to drag, a note beside a control that changes nothing for the set-up on show, and
firing strengths typed as "5, 5d, 3"."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as widgets

from wbk.errors import WbkError
from wbk.games import blitz
from wbk.games.blitz import Piece
from wbk.games.blitz.draw import label
from wbk.widgets import ChartPanel

DICE_RANGE = range(1, 41)
#: Said beside a control whose every value gives the same answer for the set-up on show.
NO_DIFFERENCE = "makes no difference here"
#: No panel is wider than this: it must fit beside JupyterLab's file browser.
PANEL_WIDTH = "700px"
UNARMORED_TARGETS = ("non_vehicle", "unarmored_vehicle", "wagon")


def reading_choices(keyword: str) -> widgets.Dropdown:
    """The dropdown of one of ``wbk.games.blitz.READINGS``: its question and its values' words,
    as the reading declares them."""
    reading = blitz.READINGS[keyword]
    dropdown = _dropdown(reading.options, reading.question, reading.default)
    dropdown.tooltip = f"a reading of {reading.rule}: the text does not settle it"
    return dropdown


def choices(values, description: str, value: str | None = None) -> widgets.Dropdown:
    """A dropdown that shows each option value's words and gives back the value itself."""
    return _dropdown([(label(v), v) for v in values], description, value or values[0])


def _dropdown(options: Sequence[tuple[str, str]], description: str, value: str) -> widgets.Dropdown:
    # wide enough for the description and the longest choice, which are never cut off, not
    # even in a row too narrow for it (issue 30: "a disrupted firer halves his o...")
    width = f"{7 * len(description) + 8 * max(len(words) for words, _ in options) + 60}px"
    return widgets.Dropdown(
        options=options,
        value=value,
        description=description,
        layout=widgets.Layout(width=width, min_width=width, flex="0 0 auto"),
    )


def slider(value: int, low: int, high: int, description: str) -> widgets.IntSlider:
    """A whole-number slider wide enough for its description and a track to drag (about 7
    pixels a character of description, 200 for the track and the number)."""
    width = f"{7 * len(description) + 200}px"
    return widgets.IntSlider(
        value,
        low,
        high,
        description=description,
        style={"description_width": "initial"},
        layout=widgets.Layout(width=width),
    )


def narrow(panel: ChartPanel) -> ChartPanel:
    """At most ``PANEL_WIDTH`` wide: the controls wrap, the chart is drawn that small."""
    panel.widget.layout.max_width = PANEL_WIDTH
    return panel


def add_notes(panel: ChartPanel, names: list[str]) -> dict[str, widgets.HTML]:
    """A note beside each named control, empty until ``show_notes`` fills it."""
    # hidden while empty: an empty HTML widget still takes a widget's default width
    notes = {
        name: widgets.HTML("", layout=widgets.Layout(width="auto", display="none"))
        for name in names
    }
    panel.control_row.children = [
        widgets.HBox([control, notes[name]]) if name in notes else control
        for name, control in panel.controls.items()
    ]
    return notes


def show_notes(notes: Mapping[str, widgets.HTML], idle: Mapping[str, str]) -> None:
    """Say "makes no difference here" (and why, on hover) beside each control in ``idle``."""
    for name, note in notes.items():
        why = idle.get(name)
        note.value = (
            f'<span style="color:#666" title="{html.escape(why)}"><i>{NO_DIFFERENCE}</i></span>'
            if why
            else ""
        )
        note.layout.display = "" if why else "none"


class NotedPanel(ChartPanel):
    """A chart panel whose ``notes`` say beside a control when it makes no difference."""

    notes: dict[str, widgets.HTML]

    def setting_controls(self) -> list[widgets.Widget]:
        """The controls the picture depends on: not those that make no difference to it now (a
        saved picture's caption naming a wagon's armor value would suggest that it counted)."""
        notes = getattr(self, "notes", {})  # none yet while the panel is being made
        idle = {id(self.controls[name]) for name, note in notes.items() if note.value}
        return [c for c in super().setting_controls() if id(c) not in idle]


def keep_notes(panel: NotedPanel, names: list[str], idle: Callable[..., dict[str, str]]) -> None:
    """Notes beside ``names`` kept up to date: ``idle(**values)`` says which controls change
    nothing now, and why."""
    notes = add_notes(panel, names)
    panel.notes = notes

    def refresh(_=None) -> None:
        values = {name: control.value for name, control in panel.controls.items()}
        show_notes(notes, idle(**values))
        if "armor" in panel.controls:
            panel.controls["armor"].disabled = values.get("target") != "armored_vehicle"

    for control in panel.controls.values():
        control.observe(refresh, names="value")
    refresh()


#: Why the leader's controls change nothing when ``leader_throws`` says no.
NO_LEADER_THROWS = "leaders throw only against direct fire and bombardment on unarmored units"


def leader_throws(fire: str, target: str) -> bool:
    """Blitz Combat, Leader Saving Throws: a leader throws only against direct fire and
    bombardment on an unarmored target (an armored vehicle ignores those hits; AT fire and
    assault combat allow no saving throws)."""
    return fire in ("direct", "bombardment") and target != "armored_vehicle"


_PIECE = re.compile(r"(-?\d+)(d?)", re.IGNORECASE)


def parse_pieces(text: str, name: str) -> list[int | Piece]:
    """Firing strengths typed as "5, 5d, 3": a "d" after a strength marks a disrupted piece."""
    pieces: list[int | Piece] = []
    for part in text.replace(",", " ").split():
        match = _PIECE.fullmatch(part)
        if match is None:
            expected = "(5, or 5d for a disrupted piece)"
            raise WbkError(f"{part!r} in {name} is not a whole number {expected}")
        strength = int(match[1])
        pieces.append(Piece(strength, disrupted=True) if match[2] and strength >= 0 else strength)
    return pieces
