"""The parts every Pz 8 panel shares: a value's plain words, a dropdown of values in them, the
note beside a control that makes no difference, and the chart panel with the card's cases."""

from __future__ import annotations

import math

import ipywidgets as widgets
from matplotlib.artist import Artist

from wbk.errors import WbkError
from wbk.readings import Reading
from wbk.table import Table
from wbk.widgets import ChartPanel, Panel
from wbk.widgets.readings import compare_words, fitting_width
from wbk.widgets.steps import CompareReadings

#: What the user reads for each value of ``wbk.games.pz8``.
LABELS = {
    "short": 'short gun (to 12")',
    "medium": 'medium gun (to 18")',
    "long": 'long gun (to 24")',
    "light": "light tank",
    "heavy": "heavy tank",
    "regular": "regular crew",
    "veteran": "veteran crew",
    "modified": "hits if the modified roll does (wbk)",
    "always_hits": "always hits",
    "rough": "rough terrain",
    "obstacle": "obstacle",
    "low obstacle": "low obstacle (seen over)",
    "hill": "hill",
}
CLASS_LABELS = {"light": "light tank", "medium": "medium tank", "heavy": "heavy tank"}
#: When the reading of a natural 6 matters.
NATURAL_SIX_TIP = (
    "matters only when a short or medium gun needs a 7: a shaken regular crew shooting at a "
    "target in cover; otherwise both readings agree"
)
#: The panels' own words for a reading's values where a row of controls has no room for the
#: declared ones (``wbk.games.pz8.readings``), which "compare with" and the captions use.
SHORT_WORDS: dict[str, dict[str, str]] = {
    "cover_reading": {
        "partly_hidden": "any part hidden (wbk)",
        "half_hidden": "half or more hidden",
    },
    "obstacle_sight": {
        "as_marked": "seen over where marked (wbk)",
        "all_block": "block sight all the same",
    },
    "turns": {
        "card": "a 1 or 2 passes the turn (the card)",
        "alternate": "one attack each (no turnover)",
    },
}
#: Beside a control whose every value gives the same answer for the set-up on show.
NO_DIFFERENCE = "makes no difference here"


def label(value: str) -> str:
    """The words shown for a value: ``label("short") == 'short gun (to 12")'``."""
    return LABELS.get(value, value)


def choices(
    values, description: str, value: object = None, words=label, **options
) -> widgets.Dropdown:
    """A dropdown that shows each value's words and gives back the value itself, never so
    narrow that its longest words are cut off."""
    shown = [(words(v), v) for v in values]
    dropdown = widgets.Dropdown(
        options=shown,
        value=values[0] if value is None else value,
        description=description,
        **{"style": {"description_width": "initial"}, **options},
    )
    dropdown.layout.min_width = fitting_width([w for w, _ in shown], description)
    return dropdown


def reading_choices(reading: Reading, description: str, **options) -> widgets.Dropdown:
    """A dropdown of ``reading``'s declared values, the default first, each in the panels'
    short words (``SHORT_WORDS``) beside ``description``, a row's label shorter than the
    declaration's question."""
    words = SHORT_WORDS[reading.keyword]
    return choices(tuple(reading.values), description, words=words.__getitem__, **options)


def compared(*readings: Reading) -> list[Reading]:
    """What a Pz 8 panel's "compare with" menu lists: each reading's values in its declared
    words, the reading named by its declared question (never its keyword: issue 30 found
    "shaken hq:" and "cover reading: cover: ...")."""
    compare_words(readings)  # each one a declared reading
    return list(readings)


def show_no_difference(note: widgets.HTML, same: bool) -> None:
    """Say in ``note`` that its control makes no difference here, or nothing."""
    note.value = f"<i>{NO_DIFFERENCE}</i>" if same else ""


def beside(panel: Panel, control: widgets.Widget, note: widgets.Widget) -> None:
    """Put ``note`` right after ``control`` in the panel's row of controls."""
    row = panel.control_row
    children = list(row.children)
    children.insert(children.index(control) + 1, note)
    row.children = tuple(children)


class CasesChartPanel(ChartPanel):
    """A chart panel with the card's cases as presets (its controls by their names) and a
    "compare with" control whose marks are kept to take them off again."""

    boxes: dict[str, widgets.Widget]
    compare: CompareReadings
    _compare_marks: list[Artist]
    #: the duel on show (first, second, range, duel, curve), for the other reading's bars
    shown_duel: tuple | None = None
    #: what the figure shows: the duel (by id) and the step (None: the whole answer)
    drawn: tuple[int, int | None] = (0, None)

    def remove_compare_marks(self) -> None:
        """Take the marks of "compare with" off the chart."""
        for artist in getattr(self, "_compare_marks", []):
            if artist.axes is not None:
                artist.remove()
        self._compare_marks = []


def find_tank(table: Table, name: str) -> str:
    """The name of the tank called ``name`` on the table, in any case ("tiger" finds "Tiger")."""
    typed = name.strip()
    for piece in table.pieces:
        if piece.name.casefold() == typed.casefold():
            return piece.name
    known = ", ".join(p.name for p in table.pieces) or "none"
    raise WbkError(f"no tank called {typed!r} on the table (there are: {known})")


def parse_size(text: str) -> tuple[float, float]:
    """A terrain piece's size typed as "6 x 4" or "6 by 4" (inches)."""
    parts = text.lower().replace("×", "x").replace("by", "x").replace('"', "").split("x")
    try:
        width, depth = (float(p) for p in parts)
    except ValueError:
        raise WbkError(f"terrain size {text!r} is not two numbers of inches like 6 x 4") from None
    if not (0 < width < math.inf and 0 < depth < math.inf):
        raise WbkError(f"terrain size {text!r}: both numbers must be positive inches")
    return width, depth
