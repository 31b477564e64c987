"""A reading's controls, built from its one declaration (``wbk.readings.Reading``): the dropdown
that chooses it and the words a "compare with" menu names it by. Every panel's reading controls
are made here, so that a reading reads alike in every panel, caption and quiz."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from wbk.errors import WbkError
from wbk.readings import Reading

__all__ = ["compare_words", "fitting_width", "reading_control"]


#: Pixels a character of a control's words takes, at most as the notebook sets them (wide
#: letters and digits: the longest words must show whole, issue 30 found them cut off).
CHARACTER_PX = 7.5


def fitting_width(labels, description: str = "") -> str:
    """A dropdown's width (CSS) that shows its longest option whole beside ``description``:
    about ``CHARACTER_PX`` a character, and room for the arrow."""
    longest = max((len(str(words)) for words in labels), default=0)
    label = len(description) + 1 if description else 0
    return f"{round(CHARACTER_PX * (longest + label)) + 50}px"


def reading_control(reading: Reading, value: str | None = None) -> widgets.Dropdown:
    """A dropdown for ``reading`` in its declared words, as wide as its longest words, set to
    ``value`` (its default when None). Hovering over its label shows the question in full
    and the rule it reads (the label is HTML with a ``title``: ipywidgets 8's Dropdown gives
    its ``tooltip`` no title attribute)."""
    if not isinstance(reading, Reading):
        raise WbkError(f"{reading!r} is not a wbk.readings.Reading")
    chosen = reading.default if value is None else reading.check(value)
    about = reading.asks or reading.rule
    width = fitting_width(reading.values.values(), reading.question)
    return widgets.Dropdown(
        options=reading.options,
        value=chosen,
        description=(
            f'<span title="{html.escape(about)}" style="cursor:help;'
            f'text-decoration:underline dotted">{html.escape(reading.question)}</span>'
        ),
        description_allow_html=True,
        tooltip=about,
        style={"description_width": "initial"},
        layout=widgets.Layout(width=width),
    )


def compare_words(
    readings: Sequence[Reading],
) -> tuple[dict[str, Mapping[str, str]], dict[str, str]]:
    """What ``Panel.add_compare_readings`` takes, from declared readings: each keyword's values
    with their words, and each keyword's question."""
    for reading in readings:
        if not isinstance(reading, Reading):
            raise WbkError(f"{reading!r} is not a wbk.readings.Reading")
    return (
        {r.keyword: dict(r.values) for r in readings},
        {r.keyword: r.question for r in readings},
    )
