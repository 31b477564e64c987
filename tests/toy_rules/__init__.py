"""Toy Skirmish, a rule set of one rule, brought to wbk as a rules author brings one: one folder
holding its rules and reading (here), its kind of quiz question (``quiz``) and the quiz it ships
(``quiz.toml``), its picture (``draw``), its panel (``panels``) and its chapter
(``toy_skirmish.ipynb``). Its modules import one another relatively, so a copy of the folder
under another name is another rule set.

Toy Skirmish 1.1: a rifle squad hits on a roll of its range band's number or more on one die;
the text leaves open whether a natural 6 always hits (the reading ``sixes``).

>>> shot(5).chance, shot(7).chance, shot(7, sixes="always_hits").chance
(Fraction(1, 3), Fraction(0, 1), Fraction(1, 6))
"""

from dataclasses import dataclass
from fractions import Fraction

from wbk.checks import Input
from wbk.explain import Step
from wbk.games import Game
from wbk.readings import Reading, readings_by_keyword

RULE = "Toy Skirmish 1.1"
SIXES = Reading(
    "sixes",
    rule=RULE,
    question="a natural 6",
    values={"needs_the_number": "hits only if 6 is enough", "always_hits": "always hits"},
    sentences={
        "needs_the_number": "a 6 hits only when the range band allows a 6",
        "always_hits": "a natural 6 always hits",
    },
    why="the text is silent; the example's 7+ band reads as a miss",
)
#: The number a hit needs: declared once, for the rule and for the quiz's files.
NEEDED = Input.whole(2, 7)


@dataclass(frozen=True)
class Shot:
    """A squad's shot: the number it needs, the faces of the die that hit, the chance, and the
    working."""

    needed: int
    hitting: tuple[int, ...]
    chance: Fraction
    steps: tuple[Step, ...]


def shot(needed: int, *, sixes: str = SIXES.default) -> Shot:
    """Toy Skirmish 1.1: one die, a hit on ``needed`` or more (a band of 7 or more: only a 6
    that always hits)."""
    NEEDED.check(needed, "needed")
    sixes = SIXES.check(sixes)
    hitting = tuple(
        face for face in range(1, 7) if face >= needed or (face == 6 and sixes == "always_hits")
    )
    chance = Fraction(len(hitting), 6)
    steps = (
        Step(f"a hit on {needed} or more", RULE),
        Step(f"{SIXES.sentence(sixes)}: {len(hitting)} faces of 6 hit", RULE),
    )
    return Shot(needed, hitting, chance, steps)


GAME = Game("Toy Skirmish", cites=("Toy Skirmish",), readings=readings_by_keyword(SIXES))
