"""Steps of a rule's working, each citing its rule, so that a notebook can show *why*."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Step:
    """One sentence of a rule's working and the rule it applies ("Blitz Combat, Damage").

    ``about``: what the step is about, in the rules' own objects (a ``Hex``, ``Hexside`` or
    ``Corner``; a terrain name; a tank's name; a CRT column label and die row; a dice count), so
    that a picture drawn *at* this step (``wbk.draw.picture(result, step=k)``) can highlight
    them and dim the rest. It does not take part in equality: two steps saying the same thing
    under the same rule are the same step.
    """

    text: str
    rule: str
    about: tuple[object, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"{self.text} [{self.rule}]"


def count(n: int, one: str, many: str | None = None) -> str:
    """A number with its noun in the right number: "1 hex", "2 hexes".

    >>> count(1, "hex", "hexes"), count(3, "unit")
    ('1 hex', '3 units')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"


def steps_html(steps: Iterable[Step]) -> str:
    """The steps as an HTML ordered list, each with its rule in small grey type (#595959: 7:1
    on white, past WCAG AA's 4.5:1)."""
    rule = '<span style="color:#595959;font-size:smaller">({})</span>'
    items = "".join(
        f"<li>{html.escape(s.text)} {rule.format(html.escape(s.rule))}</li>" for s in steps
    )
    return f"<ol>{items}</ol>"
