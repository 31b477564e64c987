"""The parts the SS Panzer panels share: a row of checkboxes (``ChoiceBoxes``) and a map panel
with 9.4's reading controls and the blocking terrain (``ReadingsPanel``), the controls built
from the readings' declarations (``wbk.games.ss_panzer.readings``)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

import ipywidgets as widgets
import traitlets

from wbk.games.ss_panzer.readings import READINGS
from wbk.maps import HexMap
from wbk.widgets import LIVE_ONLY, MapPanel
from wbk.widgets.readings import reading_control

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


def plain_words(description: str) -> str:
    """A control's label as a reader of a page sees it: the words of a reading control's
    HTML label, without its tags."""
    return html.unescape(re.sub(r"<[^>]*>", "", description))


class ReadingsPanel(MapPanel):
    """A map panel with 9.4's reading controls and the blocking terrain, each reading saying
    "makes no difference here" while its other value would not change the answer on show."""

    READINGS: tuple[str, ...] = ()

    def _reading_controls(self, m: HexMap, blocking_terrain: Sequence[str] | None) -> list:
        kinds = sorted(m.terrain_hexes)
        chosen = USUAL_BLOCKING_TERRAIN if blocking_terrain is None else blocking_terrain
        self.readings = {r: reading_control(READINGS[r]) for r in self.READINGS}
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
        self.control_row.children = [
            *self.readings.values(),
            self.no_difference,
            self.blocking,
            *extra,
        ]

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
                for v in READINGS[reading].values
                if v != control.value
            )
        ]
        named = "; ".join(f"“{READINGS[r].question}”" for r in self.unchanged)
        self.no_difference.value = (
            f'<i style="{NOTE_STYLE}">{NO_DIFFERENCE}: {html.escape(named)}</i>' if named else ""
        )
