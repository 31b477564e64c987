"""Pz 8, Movement: a side's platoons, the platoon move, and the platoons unlike the card's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from wbk.checks import known_keywords
from wbk.dice import Dist, d6
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.table import Table
from wbk.tableexact import inches_against, within

from .movement import Movement
from .readings import PLATOON_PACE, SHAKEN_HQ, SHAKEN_MEMBER
from .tanks import DAMAGE, MOVE_VALUES, MOVEMENT, NAME, PLATOON_RADIUS, SHAKEN, Tank


@dataclass(frozen=True)
class PlatoonMove:
    """A platoon move: whether it is allowed, which tanks move, and the roll."""

    allowed: bool
    tanks: tuple[str, ...]
    movement: Dist | None
    steps: tuple[Step, ...]
    #: the platoon's HQ (None when it has none) and every tank of the platoon, wrecks too
    hq: str | None = None
    platoon_tanks: tuple[str, ...] = ()
    #: the table the result was read off, for its picture
    table: Table | None = field(default=None, repr=False, compare=False)

    def _repr_html_(self) -> str:
        verdict = "allowed" if self.allowed else "not allowed"
        return f"<b>platoon move {verdict}</b>{steps_html(self.steps)}"


def side_tanks(table: Table, side: str) -> list[Tank]:
    """The tanks of ``side`` on the table, wrecks included (a side with none is an error)."""
    if not isinstance(table, Table):
        raise WbkError(f"{table!r} is not a Table")
    NAME.check(side, "side")
    tanks = [p for p in table.pieces if isinstance(p, Tank) and p.side == side]
    if not tanks:
        sides = sorted({p.side for p in table.pieces if isinstance(p, Tank)})
        listed = ", ".join(map(repr, sides)) or "none"
        raise WbkError(f"side {side!r} has no tanks on the table (sides: {listed})")
    return tanks


def platoons(table: Table, side: str) -> dict[str, tuple[Tank, ...]]:
    """The platoons of ``side`` on the table, by their names in table order ("" for the tanks
    whose platoon is not given), each with its tanks, wrecks included.

    >>> from wbk.games.pz8 import example_table
    >>> {name: len(tanks) for name, tanks in platoons(example_table(), "Soviet").items()}
    {'': 4}
    """
    found: dict[str, list[Tank]] = {}
    for t in side_tanks(table, side):
        found.setdefault(t.platoon, []).append(t)
    return {name: tuple(tanks) for name, tanks in found.items()}


def platoon_words(side: str, platoon: str) -> str:
    """A platoon as the steps name it: "the German platoon", "Soviet platoon '2'"."""
    return f"the {side} platoon" if not platoon else f"{side} platoon {platoon!r}"


def platoon_named(table: Table, side: str, platoon: str | None) -> tuple[str, tuple[Tank, ...]]:
    """The named platoon of ``side``; ``None`` is the side's only platoon."""
    found = platoons(table, side)
    listed = ", ".join(repr(name) for name in found)
    if platoon is None:
        if len(found) > 1:
            raise WbkError(
                f"side {side!r} has {len(found)} platoons ({listed}): say which with platoon="
            )
        platoon = next(iter(found))
    if not isinstance(platoon, str) or platoon not in found:
        raise WbkError(f"platoon {platoon!r} is not one of side {side!r}'s platoons ({listed})")
    return platoon, found[platoon]


def platoon_hq(tanks: Sequence[Tank], words: str) -> Tank | None:
    """The platoon's HQ (destroyed or not), or None; two HQs in one platoon are an error."""
    hqs = [t for t in tanks if t.is_hq]
    if len(hqs) > 1:
        named = ", ".join(repr(t.name) for t in hqs)
        raise WbkError(
            f"{words} has {len(hqs)} HQs ({named}): the card gives each platoon one "
            "(give the others another platoon, or take their hq mark off)"
        )
    return hqs[0] if hqs else None


@known_keywords
def platoon_movement(
    table: Table,
    side: str,
    *,
    platoon: str | None = None,
    shaken_hq: str = "stays_put",
    shaken_member: str = "stays_put",
    platoon_pace: str = "movers",
) -> PlatoonMove:
    """Pz 8, Movement: a platoon whose tanks are all within 3" of its HQ moves together, each
    tank 1D6 + the move value of the slowest tank; then the turn passes, whatever the roll.

    ``platoon`` names the platoon (``Tank.platoon``); it may be left out when ``side`` fields
    only one. The platoon's HQ must be on the table and not destroyed; wrecks are left out, and
    every moving tank must be within 3" of the HQ, centre to centre.

    The card does not say what a shaken tank (which cannot move) does to a platoon move:

    - ``shaken_hq``: ``"stays_put"`` (the default) keeps a shaken HQ where it is and lets the
      tanks within 3" of it move; ``"no_platoon_move"`` reads a shaken HQ as unable to lead one
      (as it cannot let its tanks rally, Optional Rule: Shaken).
    - ``shaken_member``: ``"stays_put"`` (the default) leaves a shaken tank behind and moves the
      rest; ``"no_platoon_move"`` reads "all within 3 inches ... move together" as the whole
      platoon, so one shaken tank rules the platoon move out.

    >>> table = Table(40, 40, pieces=[Tank("HQ1", (10, 10), side="A", is_hq=True, platoon="1"),
    ...     Tank("HQ2", (30, 30), side="A", is_hq=True, platoon="2"),
    ...     Tank("a", (10, 11.6), side="A", platoon="1")])
    >>> platoon_movement(table, "A", platoon="1").tanks
    ('HQ1', 'a')
    """
    SHAKEN_HQ.check(shaken_hq, "shaken HQ reading")
    SHAKEN_MEMBER.check(shaken_member, "shaken member reading")
    PLATOON_PACE.check(platoon_pace, "platoon pace reading")
    name, tanks = platoon_named(table, side, platoon)
    words = platoon_words(side, name)
    hq = platoon_hq(tanks, words)
    everyone = tuple(t.name for t in tanks)
    steps: list[Step] = []

    def answer(allowed: bool, movers=(), movement: Dist | None = None) -> PlatoonMove:
        moving = tuple(t.name for t in movers)
        hq_name = None if hq is None else hq.name
        return PlatoonMove(allowed, moving, movement, tuple(steps), hq_name, everyone, table=table)

    refused = _hq_cannot_lead(hq, words, everyone, shaken_hq)
    if refused is not None:
        steps.append(refused)
        return answer(False)
    assert hq is not None  # a platoon without an HQ was refused just above
    movers, held_by, said = _who_can_move(tanks, hq, shaken_member)
    steps += said
    if held_by:
        steps.append(
            Step(
                "no platoon move: read as the whole platoon moving, and a shaken tank cannot",
                MOVEMENT,
                about=tuple(t.name for t in held_by),
            )
        )
        return answer(False, movers)
    steps += _distances_to_hq(table, movers, hq)
    far = [
        t
        for t in movers
        if t is not hq and not within(table.squared_distance(t, hq), PLATOON_RADIUS)
    ]
    if far or not movers:
        steps.append(
            Step(
                'no platoon move: not every tank is within 3" of the HQ'
                if far
                else "no tank can move",
                MOVEMENT,
                about=(*(t.name for t in far), *(f"link {t.name}" for t in far)),
            )
        )
        return answer(False, movers)
    behind = [t for t in tanks if t.shaken and not t.destroyed]
    said, roll = _moving_together(movers, hq, words, behind, platoon_pace)
    steps += said
    return answer(True, movers, roll)


def _hq_cannot_lead(
    hq: Tank | None, words: str, everyone: tuple[str, ...], shaken_hq: str
) -> Step | None:
    """Movement and Optional Rule: Shaken: the step that rules the platoon move out for want of
    an HQ able to lead it (none, a wreck, or shaken under ``shaken_hq="no_platoon_move"``), or
    None when the HQ may lead."""
    if hq is None or hq.destroyed:
        why = "no HQ" if hq is None else f"its HQ {hq.name!r} is destroyed"
        return Step(f"{words} has {why}: no platoon move", MOVEMENT, about=everyone)
    if hq.shaken and shaken_hq == "no_platoon_move":
        return Step(
            f"its HQ {hq.name!r} is shaken: read as unable to lead a platoon move",
            SHAKEN,
            about=(hq.name,),
        )
    return None


def _who_can_move(
    tanks: Sequence[Tank], hq: Tank, shaken_member: str
) -> tuple[list[Tank], list[Tank], list[Step]]:
    """Movement, Penetration and Damage, Optional Rule: Shaken: the tanks that may move (not
    wrecks, not shaken), the shaken tanks that hold the whole platoon back under
    ``shaken_member="no_platoon_move"``, and a step for each tank that stays."""
    movers, held_by, steps = [], [], []
    for t in tanks:
        if t.destroyed:
            steps.append(Step(f"{t.name!r} is a wreck: it stays", DAMAGE, about=(t.name,)))
        elif t.shaken:
            if t is not hq and shaken_member == "no_platoon_move":
                held_by.append(t)
                steps.append(Step(f"{t.name!r} is shaken: it cannot move", SHAKEN, about=(t.name,)))
            else:
                steps.append(Step(f"{t.name!r} is shaken: it stays", SHAKEN, about=(t.name,)))
        else:
            movers.append(t)
    return movers, held_by, steps


def _distances_to_hq(table: Table, movers: Sequence[Tank], hq: Tank) -> list[Step]:
    """Movement: how far each moving tank is from its HQ, and whether that is within 3" (the 3"
    included, measured exactly: ``wbk.tableexact``)."""
    steps = []
    for t in movers:
        if t is not hq:
            squared = table.squared_distance(t, hq)
            near = within(squared, PLATOON_RADIUS)
            steps.append(
                Step(
                    f"{t.name!r} is {inches_against(squared, PLATOON_RADIUS)} from the HQ "
                    f"{hq.name!r}: "
                    + (f'within {PLATOON_RADIUS}"' if near else f'more than {PLATOON_RADIUS}"'),
                    MOVEMENT,
                    about=(t.name, hq.name, f"link {t.name}", "platoon radius"),
                )
            )
    return steps


def _moving_together(
    movers: Sequence[Tank], hq: Tank, words: str, behind: Sequence[Tank], pace: str
) -> tuple[list[Step], Dist]:
    """Movement: the platoon moves at the slowest tank's move value + 1D6, and the turn passes
    whatever the roll; the slowest of the ``movers``, or under ``pace="whole_platoon"`` of the
    shaken tanks left ``behind`` too."""

    def slowest_of(group: Sequence[Tank]) -> Tank:
        return min(group, key=lambda t: MOVE_VALUES[t.tank_class])

    of_movers, of_all = slowest_of(movers), slowest_of([*movers, *behind])
    slowest = of_all if pace == "whole_platoon" else of_movers
    base = MOVE_VALUES[slowest.tank_class]
    pace_said, rule = "", MOVEMENT
    if MOVE_VALUES[of_movers.tank_class] != MOVE_VALUES[of_all.tank_class]:
        other = of_movers if pace == "whole_platoon" else of_all
        other_said = "slowest that moves" if pace == "whole_platoon" else "slowest in the platoon"
        pace_said = (
            f" (read as: {PLATOON_PACE.sentence(pace)}; the {other_said}, "
            f"{'shaken ' if other.shaken else ''}{other.name!r}, would give 1D6 + "
            f"{MOVE_VALUES[other.tank_class]})"
        )
        rule = f"{MOVEMENT}, {PLATOON_PACE.cited(pace)}"
    shaken = "shaken " if slowest.shaken else ""
    steps = [
        Step(
            f'{len(movers)} tanks of {words} within {PLATOON_RADIUS}" of the HQ {hq.name!r} '
            "move together",
            MOVEMENT,
            about=(*(t.name for t in movers), "platoon radius"),
        ),
        Step(
            f"the slowest is {shaken}{slowest.name!r} ({slowest.tank_class}): each moves "
            f"1D6 + {base}{pace_said}",
            rule,
            about=(slowest.name,),
        ),
        Step("then the turn passes automatically", MOVEMENT),
    ]
    return steps, d6.map(lambda roll: Movement(base + roll, True))


def platoon_warnings(table: Table) -> tuple[str, ...]:
    """What You Need: the card asks for 3-5 tanks a platoon and one HQ in each. The ways the
    table's platoons differ from that, one sentence each (an empty tuple when none do). These
    are warnings, not errors: a scenario may field what it likes. Wrecks count: they are still
    the platoon's tanks.

    >>> from wbk.games.pz8 import example_table
    >>> platoon_warnings(example_table())
    ()
    """
    if not isinstance(table, Table):
        raise WbkError(f"{table!r} is not a Table")
    said = []
    sides = dict.fromkeys(p.side for p in table.pieces if isinstance(p, Tank))
    for side in sides:
        for name, tanks in platoons(table, side).items():
            words = platoon_words(side, name)
            if not 3 <= len(tanks) <= 5:
                tanks_said = f"{len(tanks)} tank" + ("" if len(tanks) == 1 else "s")
                said.append(f"{words} has {tanks_said} (the card asks for 3-5)")
            hqs = [t.name for t in tanks if t.is_hq]
            if len(hqs) != 1:
                named = f" ({', '.join(map(repr, hqs))})" if hqs else ""
                said.append(f"{words} has {len(hqs)} HQs{named} (the card asks for one)")
    return tuple(said)
