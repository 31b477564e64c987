"""Pz 8, beyond the card: the chance a side keeps the initiative through its activations (a
movement or gun die of 1 or 2 passes the turn)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from wbk.checks import choice
from wbk.errors import WbkError

from .tanks import GUN_DICE

#: The most activations ``keep_initiative`` follows: a side keeps the turn through 1,000 moves
#: with a chance below 10^-176, and longer lists only make ever longer fractions.
MAX_ACTIVATIONS = 1000

#: The kinds of activation ``keep_initiative`` knows.
ACTIVATIONS = ("move", "platoon_move", "shoot_short", "shoot_medium", "shoot_long", "rally")


def _keeps(activation: str) -> Fraction:
    """The chance one activation of the kind leaves the side the initiative."""
    if activation == "move":
        return Fraction(2, 3)
    if activation == "platoon_move":
        return Fraction(0)
    if activation == "rally":
        return Fraction(1)
    return Fraction(2, 3) ** GUN_DICE[activation.removeprefix("shoot_")]


def keep_initiative(activations: Sequence[str]) -> Fraction:
    """The chance a side still has the initiative after the given activations, one after the
    other: each "move" (any class: a movement D6 of 1-2 passes), "shoot_short" / "shoot_medium" /
    "shoot_long" (a gun die of 1-2 passes: 3, 2 or 1 dice), "platoon_move" (always passes) or
    "rally" (read as never passing). The chance that a side gets to make k activations is this
    chance for the first k - 1.

    >>> keep_initiative(["move", "move", "move"])
    Fraction(8, 27)
    >>> keep_initiative(["shoot_medium"])
    Fraction(4, 9)
    """
    if isinstance(activations, (str, bytes)) or not isinstance(activations, Sequence):
        raise WbkError(f"activations {activations!r} is not a list of activations")
    if len(activations) > MAX_ACTIVATIONS:
        raise WbkError(
            f"{len(activations)} activations is more than MAX_ACTIVATIONS ({MAX_ACTIVATIONS})"
        )
    counts: dict[str, int] = {}
    for activation in activations:
        kind = choice(activation, ACTIVATIONS, "activation")
        counts[kind] = counts.get(kind, 0) + 1
    chance = Fraction(1)
    for kind, n in counts.items():
        chance *= _keeps(kind) ** n
    return chance
