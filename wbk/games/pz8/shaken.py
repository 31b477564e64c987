"""Pz 8, Optional Rule: Shaken: the chance a shaken tank rallies, and its rally read off the
table (its own platoon's HQ, how far, in what state)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction

from wbk.checks import known_keywords
from wbk.dice import d6, percent
from wbk.explain import Step, steps_html
from wbk.table import Table
from wbk.tableexact import inches_against, within

from .platoons import platoon_hq, platoon_named, platoon_words
from .readings import VETERAN_HQ_RALLY
from .tanks import DAMAGE, FLAG, RALLY_RADIUS, SHAKEN, Tank, tank_on


@known_keywords
def rally_chance(
    *,
    veteran: bool = False,
    is_hq: bool = False,
    hq_within_12: bool = True,
    hq_able: bool = True,
    veteran_hq_rally: str = "no_bonus",
) -> Fraction:
    """Pz 8, Optional Rule: Shaken: the chance a shaken tank rallies with its activation.

    Within 12" of its HQ it needs 5-6 (+1 for a veteran crew); out of range, or with its HQ
    destroyed or shaken (``hq_able=False``), it cannot rally. An HQ rallies itself on 4-6.
    ``veteran_hq_rally`` reads whether a veteran HQ adds the +1 to its own rally: "no_bonus"
    (the default: the card gives the +1 in the sentence of the 5-6 roll near the HQ, and the
    HQ's own roll a number of its own) or "bonus" (3-6).

    >>> rally_chance(), rally_chance(veteran=True), rally_chance(is_hq=True)
    (Fraction(1, 3), Fraction(1, 2), Fraction(1, 2))
    >>> rally_chance(is_hq=True, veteran=True, veteran_hq_rally="bonus")
    Fraction(2, 3)
    >>> rally_chance(hq_within_12=False)
    Fraction(0, 1)
    """
    for value, name in (
        (veteran, "veteran"),
        (is_hq, "is_hq"),
        (hq_within_12, "hq_within_12"),
        (hq_able, "hq_able"),
    ):
        FLAG.check(value, name)
    reading = VETERAN_HQ_RALLY.check(veteran_hq_rally, "reading of a veteran HQ's rally")
    if is_hq:
        return (d6 + (veteran and reading == "bonus") >= 4).probability(True)
    if not (hq_within_12 and hq_able):
        return Fraction(0)
    return (d6 + veteran >= 5).probability(True)


@dataclass(frozen=True)
class Rally:
    """A shaken tank's rally, read off the table: its platoon's HQ, how far that is and in what
    state, and the chance to rally (0 when it cannot)."""

    tank: str
    chance: Fraction
    hq: str | None
    distance: float | None
    steps: tuple[Step, ...]
    #: the table the result was read off, for its picture
    table: Table | None = field(default=None, repr=False, compare=False)
    #: whether the HQ is within 12" (measured exactly, the 12" included; None: no HQ to
    #: measure to, or the tank is the HQ), and the distance in words on its side of the 12"
    hq_within_12: bool | None = None
    distance_words: str = ""

    @property
    def can_rally(self) -> bool:
        return self.chance > 0

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(self.tank)} rallies {percent(self.chance)}</b>" + steps_html(
            self.steps
        )


@known_keywords
def rally(table: Table, tank: str | Tank, *, veteran_hq_rally: str = "no_bonus") -> Rally:
    """Pz 8, Optional Rule: Shaken, asked of the table: the chance ``tank`` rallies with its
    activation, from the distance to its own platoon's HQ (``Tank.platoon``), the HQ's state
    (destroyed or shaken) and the tank's crew, as ``rally_chance`` reckons it.

    The 12" is met exactly, the limit included: the distance is compared by its square, each
    position the decimal it is written as (``wbk.tableexact``). A tank that is not shaken is
    told what it would need were it shaken. The card writes the
    range as "12’" once and "12”" once; wbk reads inches both times (twelve feet is past
    every gun's reach). ``veteran_hq_rally`` is ``rally_chance``'s reading, stated in the
    step of a veteran HQ's own rally.

    >>> from wbk.games.pz8 import example_table
    >>> r = rally(example_table(), "KV-1")
    >>> r.chance, r.hq, round(r.distance, 1)
    (Fraction(1, 3), 'T-34 1', 2.5)
    """
    t = tank_on(table, tank)
    VETERAN_HQ_RALLY.check(veteran_hq_rally, "reading of a veteran HQ's rally")
    steps: list[Step] = []
    if not t.shaken:
        steps.append(
            Step(
                f"{t.name!r} is not shaken: had it been, this is its rally", SHAKEN, about=(t.name,)
            )
        )
    if t.destroyed:
        steps.append(Step(f"{t.name!r} is a wreck: it cannot rally", DAMAGE, about=(t.name,)))
        return Rally(t.name, Fraction(0), None, None, tuple(steps), table=table)
    name, tanks = platoon_named(table, t.side, t.platoon)
    words = platoon_words(t.side, name)
    hq = platoon_hq(tanks, words)
    if t.is_hq:
        steps.append(_hq_rallies_itself(t, veteran_hq_rally))
        chance = rally_chance(veteran=t.is_veteran, is_hq=True, veteran_hq_rally=veteran_hq_rally)
        return Rally(t.name, chance, t.name, 0.0, tuple(steps), table=table)
    if hq is None:
        steps.append(Step(f"{words} has no HQ: {t.name!r} cannot rally", SHAKEN, about=(t.name,)))
        return Rally(t.name, Fraction(0), None, None, tuple(steps), table=table)
    squared = table.squared_distance(t, hq)
    near, said = within(squared, RALLY_RADIUS), inches_against(squared, RALLY_RADIUS)
    steps.append(
        Step(
            f"its HQ {hq.name!r} is {said} away: "
            + (f'within {RALLY_RADIUS}"' if near else f'more than {RALLY_RADIUS}"'),
            SHAKEN,
            about=(t.name, hq.name, f"link {t.name}", "rally radius"),
        )
    )
    able = not (hq.destroyed or hq.shaken)
    if not able:
        state = "destroyed" if hq.destroyed else "itself shaken"
        steps.append(Step(f"its HQ {hq.name!r} is {state}", SHAKEN, about=(hq.name,)))
    chance = rally_chance(veteran=t.is_veteran, hq_within_12=near, hq_able=able)
    if chance:
        bonus = " (+1 for the veteran crew)" if t.is_veteran else ""
        need = 4 if t.is_veteran else 5
        steps.append(Step(f"it rallies on {need}-6{bonus}: {chance}", SHAKEN, about=(t.name,)))
    else:
        steps.append(Step(f"{t.name!r} cannot rally", SHAKEN, about=(t.name,)))
    return Rally(t.name, chance, hq.name, table.distance(t, hq), tuple(steps), table, near, said)


def _hq_rallies_itself(t: Tank, reading: str) -> Step:
    """Optional Rule: Shaken: an HQ rallies itself on 4-6; for a veteran HQ, the step names the
    reading of the veteran +1 (``VETERAN_HQ_RALLY``) and what the other reading gives."""
    chance = rally_chance(veteran=t.is_veteran, is_hq=True, veteran_hq_rally=reading)
    if not t.is_veteran:
        return Step(
            f"{t.name!r} is the HQ: it rallies itself on 4-6, {chance}", SHAKEN, about=(t.name,)
        )
    other = "bonus" if reading == "no_bonus" else "no_bonus"
    other_chance = rally_chance(veteran=True, is_hq=True, veteran_hq_rally=other)
    need, other_need = ("4-6", "3-6") if reading == "no_bonus" else ("3-6", "4-6")
    return Step(
        f"{t.name!r} is the HQ, veteran: it rallies itself on {need}, {chance} (read as: "
        f"{VETERAN_HQ_RALLY.sentence(reading)}; read the other way, "
        f"{other_need}, {other_chance})",
        f"{SHAKEN}, {VETERAN_HQ_RALLY.cited(reading)}",
        about=(t.name,),
    )
