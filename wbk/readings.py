"""A reading: one place where a rule text leaves a choice open, declared once, beside its rule.

A ``Reading`` names the keyword a rule function takes, each value and its words, the rule it
reads, and which value the worked examples support (the default). The rule functions check
their keyword against it (``Reading.check``); the panels build their controls and "compare
with" menus from it, the captions and the quizzes their sentences, the saved files their keys.

>>> edge = Reading(
...     "edge",
...     rule="SS Panzer terrain chart",
...     question="along a hexside",
...     asks="must the hexes on both sides of a hexside the line runs along block, or either?",
...     values={"both": "both sides must block", "either": "either side blocks"},
...     sentences={
...         "both": "blocking terrain beside a line blocks only on both sides",
...         "either": "blocking terrain on either side of a line blocks",
...     },
...     why="the text is silent; wbk's choice",
... )
>>> edge.default, edge.check("either")
('both', 'either')
>>> edge.check("neither")
Traceback (most recent call last):
...
wbk.errors.WbkError: reading edge 'neither' is not one of both, either
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from wbk.checks import choice
from wbk.errors import WbkError


@dataclass(frozen=True)
class Reading:
    """One reading of a rule text.

    - ``keyword``: the rule function's keyword ("slope_end");
    - ``rule``: the rule it reads, as steps cite it ("SS Panzer errata 9.4");
    - ``question``: a control's label, short ("a line through a slope's end");
    - ``asks``: the question in full, for a control's tooltip;
    - ``values``: each value and its words for a control, the default first: the value the
      worked examples support, or wbk's choice where the text is silent (``why`` says which);
    - ``sentences``: each value as a sentence, for captions, quizzes and the title of a picture
      drawn under a reading that is not the default (``tag``).
    """

    keyword: str
    rule: str
    question: str
    values: Mapping[str, str]
    sentences: Mapping[str, str] = field(default_factory=dict)
    asks: str = ""
    why: str = ""
    tags: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.values:
            raise WbkError(f"reading {self.keyword!r} has no values")
        missing = set(self.sentences) - set(self.values)
        if missing:
            raise WbkError(f"reading {self.keyword!r}: sentences for no value: {sorted(missing)}")

    @property
    def default(self) -> str:
        """The value the rule functions take unless told otherwise."""
        return next(iter(self.values))

    @property
    def options(self) -> list[tuple[str, str]]:
        """(words, value) of each value, the default first: a dropdown's options."""
        return [(words, value) for value, words in self.values.items()]

    def check(self, value: object, what: str = "") -> str:
        """``value`` if it is one of the reading's values, else a ``WbkError`` naming it as
        ``what`` (as the rule's other messages name their arguments; by default "reading" and
        its keyword)."""
        return choice(value, tuple(self.values), what or f"reading {self.keyword}")

    def sentence(self, value: str) -> str:
        """The value as a sentence (its control words where no sentence is declared)."""
        self.check(value)
        return self.sentences.get(value, self.values[value])

    def cited(self, value: str) -> str:
        """The reading ``value`` as a step's source names it, in words, never its keyword:
        "reading: " and its tag, or its sentence (a default has no tag)."""
        self.check(value)
        return f"reading: {self.tags.get(value) or self.sentence(value)}"

    def tag(self, value: str) -> str:
        """A title's short tag for the value ("pinned attackers drop out"): its declared tag,
        else its question and words ("a line through a slope's end: only touches it"); the
        default needs none ("")."""
        self.check(value)
        if value == self.default:
            return ""
        return self.tags.get(value) or f"{self.question}: {self.values[value]}"


def readings_by_keyword(*readings: Reading) -> dict[str, Reading]:
    """The readings by their keywords, in order; a keyword declared twice is a ``WbkError``."""
    found: dict[str, Reading] = {}
    for reading in readings:
        if reading.keyword in found:
            raise WbkError(f"reading {reading.keyword!r} is declared twice")
        found[reading.keyword] = reading
    return found
