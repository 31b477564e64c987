"""A toy rule set, registered from outside wbk as a teacher's own would be (README, "Adding a
rule set"): one rule, one reading, one kind of quiz question, one picture.

Toy Skirmish 1.1: a rifle squad hits on a roll of its range band or more on one die; the text
leaves open whether a natural 6 always hits (the reading ``sixes``).
"""

from dataclasses import dataclass
from fractions import Fraction

from wbk.explain import Step
from wbk.games import Game, register
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


@dataclass(frozen=True)
class Shot:
    """A squad's shot: the chance it hits, and the working."""

    needed: int
    chance: Fraction
    steps: tuple[Step, ...]


def shot(needed: int, *, sixes: str = SIXES.default) -> Shot:
    """1.1: one die, a hit on ``needed`` or more (7 or more: only a 6 that always hits)."""
    sixes = SIXES.check(sixes)
    faces = [
        face for face in range(1, 7) if face >= needed or (face == 6 and sixes == "always_hits")
    ]
    chance = Fraction(len(faces), 6)
    steps = (
        Step(f"a hit on {needed} or more", RULE),
        Step(f"{SIXES.sentence(sixes)}: {len(faces)} faces of 6 hit", RULE),
    )
    return Shot(needed, chance, steps)


register(
    Game(
        "toy",
        title="Toy Skirmish",
        cites=("Toy Skirmish",),
        readings=readings_by_keyword(SIXES),
        quiz="toy_rules.quiz",
        drawings="toy_rules.draw",
    )
)
