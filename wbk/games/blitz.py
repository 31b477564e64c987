"""Blitz Combat, a variant of Panzer Grenadier's fire combat (Doug McNair, 2005), as code.

The variant replaces the fire table with dice: total the firing strengths, multiply by the
modifiers, round up once, roll that many dice, and every 6 is a hit. Armor takes hits off AT fire,
a leader's 2d6 saving throws take hits off direct fire and bombardment, and the hits left decide
the damage. Unit values, morale and recovery come from the base game and are the user's data.

Public names:

- ``fire_strength(...) -> Strength``: the dice to roll, with the worked calculation;
- ``hits(dice, armor=0)``, ``unsaved_hits(hits, morale)``: exact distributions;
- ``fire_procedure(...)``, ``fire_outcome(...)``: the whole procedure, to a ``Damage`` distribution;
- ``saving_throws(morale, rolls)``: one leader's throws against rolled dice;
- ``saving_leader(leaders)``: which leader may throw for the hex;
- ``damage(hits)``, ``passenger_damage(apc)``, ``Damage``, ``Leader``, and the option values ``FIRE_TYPES``, ``TERRAINS``,
  ``CROWDED_READINGS``, ``ASSAULT_READINGS``.

>>> fire_strength([5, 5, 5], firer_disrupted=True, target_terrain="town").dice
4
>>> fire_strength([4], fire="at", range_hexes=1, target_terrain="woods").dice
20
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral
from typing import Literal

from wbk.dice import Dist, d6
from wbk.errors import WbkError
from wbk.explain import Step, steps_html

MODIFIERS = "Blitz Combat, Combat Strength Modifiers"
PROCEDURE = "Blitz Combat, Fire Procedure"
ARMOR = "Blitz Combat, Armor Protection"
LEADERS = "Blitz Combat, Leader Saving Throws"
ASSAULT = "Blitz Combat, Assault Combat"
DAMAGE = "Blitz Combat, Damage"

FireType = Literal["direct", "bombardment", "at", "assault"]
FIRE_TYPES: tuple[FireType, ...] = ("direct", "bombardment", "at", "assault")
TERRAINS = ("open", "woods", "hills", "town", "dug_in", "dug_in_woods", "bunker", "entrenchment")
_HALVING_TERRAIN = {"woods", "hills", "town", "dug_in", "dug_in_woods"}
_QUARTERING_TERRAIN = {"bunker", "entrenchment"}

#: Does "target hex contains 3 non-vehicle units" mean three or more, or exactly three?
CROWDED_READINGS = ("three_or_more", "exactly_three")
#: Do the range and terrain multipliers apply to assault combat too?
ASSAULT_READINGS = ("all_modifiers", "no_range_or_terrain")


class Strength(int):
    """The number of dice an attack rolls, carrying its worked calculation.

    ``.dice`` is the number; ``.exact`` the strength before the one rounding up; ``.steps`` the
    working, each step citing its rule.
    """

    exact: Fraction
    steps: tuple[Step, ...]

    def __new__(cls, exact: Fraction, steps: Sequence[Step]):
        obj = super().__new__(cls, math.ceil(exact))
        obj.exact = exact
        obj.steps = tuple(steps)
        return obj

    @property
    def dice(self) -> int:
        return int(self)

    def __repr__(self) -> str:
        return f"Strength({int(self)})"

    def _repr_html_(self) -> str:
        return f"<b>{int(self)} dice</b>{steps_html(self.steps)}"


def _number(value: Fraction) -> str:
    """A strength as the rules would write it: 15, 7.5, 3.75."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def _check_strengths(values, name: str) -> list[int]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise WbkError(f"{name} {values!r} is not a list of strengths")
    checked = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, Integral):
            raise WbkError(f"strength {v!r} in {name} is not a whole number")
        if v < 0:
            raise WbkError(f"strength {v} in {name} is negative")
        checked.append(int(v))
    return checked


def _choice(value, allowed: Sequence[str], name: str) -> str:
    if value not in allowed:
        raise WbkError(f"{name} {value!r} is not one of {', '.join(allowed)}")
    return value


def fire_strength(
    strengths: Sequence[int],
    *,
    fire: FireType = "direct",
    engineer_strengths: Sequence[int] = (),
    range_hexes: int | None = None,
    target_non_vehicle_units: int = 0,
    firer_disrupted: bool = False,
    target_terrain: str = "open",
    crowded: str = "three_or_more",
    assault: str = "all_modifiers",
) -> Strength:
    """Blitz Combat, Combat Strength Modifiers: the dice an attack rolls.

    ``strengths``: the firing pieces' strengths for this kind of fire. ``engineer_strengths``:
    engineers' strengths, which count four times over in assault combat (in other fire they add
    like any other). The total is multiplied by every modifier that applies, all cumulative, and
    rounded up once at the end.

    ``crowded`` reads "3 non-vehicle units in the target hex": "three_or_more" (default) or
    "exactly_three". ``assault`` reads whether range and terrain modify assault combat:
    "all_modifiers" (default: the text lists every modifier as cumulative and restricts only the
    crowded-hex one) or "no_range_or_terrain". Neither seed example settles these.

    >>> s = fire_strength([5, 5, 5], firer_disrupted=True, target_terrain="town")
    >>> [str(step) for step in s.steps][-1]
    '3.75 rounds up to 4 dice [Blitz Combat, Combat Strength Modifiers]'
    """
    fire = _choice(fire, FIRE_TYPES, "fire type")
    target_terrain = _choice(target_terrain, TERRAINS, "target terrain")
    crowded = _choice(crowded, CROWDED_READINGS, "reading of the crowded hex")
    assault = _choice(assault, ASSAULT_READINGS, "reading of assault modifiers")
    strengths = _check_strengths(strengths, "strengths")
    engineers = _check_strengths(engineer_strengths, "engineer strengths")
    if range_hexes is not None and (isinstance(range_hexes, bool) or not isinstance(range_hexes, Integral) or range_hexes < 0):
        raise WbkError(f"range {range_hexes!r} is not a whole number of hexes")
    if isinstance(target_non_vehicle_units, bool) or not isinstance(target_non_vehicle_units, Integral) or target_non_vehicle_units < 0:
        raise WbkError(f"number of non-vehicle units {target_non_vehicle_units!r} is not a whole number")
    if not strengths and not engineers:
        raise WbkError("no firing units: give at least one strength")

    steps: list[Step] = []
    if fire == "at":
        raised = [max(s, 1) for s in strengths]
        if raised != strengths:
            steps.append(Step(f"{strengths.count(0)} AT strength 0 counted as 1", MODIFIERS))
        strengths = raised

    if fire == "assault":
        ordinary, engineer = sum(strengths), sum(engineers)
        strength = Fraction(3 * ordinary + 4 * engineer)
        parts = []
        if strengths:
            parts.append(f"3 × {ordinary}")
        if engineers:
            parts.append(f"engineers 4 × {engineer}")
        steps.append(Step(f"assault combat: {' + '.join(parts)} = {_number(strength)}", MODIFIERS))
    else:
        everyone = strengths + engineers
        strength = Fraction(sum(everyone))
        total = f"{' + '.join(map(str, everyone))} = {_number(strength)}" if len(everyone) > 1 else _number(strength)
        steps.append(Step(f"total strength {total}", MODIFIERS))
        if fire == "at":
            strength *= 5
            steps.append(Step(f"AT fire: × 5 = {_number(strength)}", MODIFIERS))

    def multiply(factor: Fraction, why: str, rule: str = MODIFIERS):
        nonlocal strength
        strength *= factor
        shown = "½" if factor == Fraction(1, 2) else "¼" if factor == Fraction(1, 4) else str(factor)
        steps.append(Step(f"{why}: × {shown} = {_number(strength)}", rule))

    crowded_hex = target_non_vehicle_units >= 3 if crowded == "three_or_more" else target_non_vehicle_units == 3
    if fire in ("direct", "bombardment") and crowded_hex:
        multiply(Fraction(2), f"{target_non_vehicle_units} non-vehicle units in the target hex")
    range_and_terrain = fire != "assault" or assault == "all_modifiers"
    if range_and_terrain and range_hexes == 1:
        multiply(Fraction(2), "range 1")
    if firer_disrupted:
        multiply(Fraction(1, 2), "firer disrupted")
    if range_and_terrain and target_terrain in _HALVING_TERRAIN:
        why = {"dug_in": "target dug in", "dug_in_woods": "target in woods, hills or town (a dug-in marker adds nothing)"}
        multiply(Fraction(1, 2), why.get(target_terrain, f"target in {target_terrain}"))
    if range_and_terrain and target_terrain in _QUARTERING_TERRAIN:
        multiply(Fraction(1, 4), f"target in {target_terrain}")
    if fire == "assault" and assault == "no_range_or_terrain" and (range_hexes == 1 or target_terrain != "open"):
        steps.append(Step("range and terrain not applied to assault combat (reading no_range_or_terrain)", ASSAULT))

    dice = math.ceil(strength)
    if strength.denominator != 1:
        steps.append(Step(f"{_number(strength)} rounds up to {dice} dice", MODIFIERS))
    else:
        steps.append(Step(f"{dice} dice", PROCEDURE))
    return Strength(strength, steps)


class Damage(enum.IntEnum):
    """What the hits left after armor and saving throws do to the target (Blitz Combat, Damage)."""

    NONE = 0
    DISRUPTED = 1
    DEMORALIZED = 2
    STEP_LOSS = 3  # one step lost and demoralized; the standard leader casualty roll follows
    ELIMINATED = 4


def damage(remaining_hits: int) -> Damage:
    """Blitz Combat, Damage: 1 hit disrupts, 2 demoralize, 3 cost a step, 4 or more eliminate.

    >>> damage(1), damage(7)
    (<Damage.DISRUPTED: 1>, <Damage.ELIMINATED: 4>)
    """
    if remaining_hits < 0:
        raise WbkError(f"hits {remaining_hits} is negative")
    return Damage(min(remaining_hits, 4))


def _check_morale(morale) -> int:
    if isinstance(morale, bool) or not isinstance(morale, Integral) or not 2 <= morale <= 12:
        raise WbkError(f"leader morale {morale!r} is not a whole number from 2 to 12")
    return int(morale)


def _check_armor(armor) -> int:
    if isinstance(armor, bool) or not isinstance(armor, Integral) or armor < 0:
        raise WbkError(f"armor value {armor!r} is not a whole number of 0 or more")
    return int(armor)


def _check_dice(dice) -> int:
    if isinstance(dice, bool) or not isinstance(dice, Integral) or dice < 0:
        raise WbkError(f"number of dice {dice!r} is not a whole number of 0 or more")
    return int(dice)


def hits(dice: int, armor: int = 0) -> Dist:
    """Blitz Combat, Fire Procedure and Armor Protection: hits from ``dice`` d6, every 6 a hit,
    less the target's armor value (never below 0).

    >>> hits(1).probability(1)
    Fraction(1, 6)
    """
    dice = _check_dice(dice)
    armor = _check_armor(armor)
    return (dice @ (d6 >= 6)).map(lambda h: max(0, h - armor))


def unsaved_hits(hits_on_hex: int | Dist, morale: int) -> Dist:
    """Blitz Combat, Leader Saving Throws: the hits left after a leader's saving throws.

    For H hits on the hex the leader rolls 2d6 per hit, adds 1 per two hits (H // 2), and saves
    the hit when the total is at most his morale. ``hits_on_hex`` is a number or a distribution.

    >>> unsaved_hits(4, 9).probability(1) == 4 * Fraction(21, 36) ** 3 * Fraction(15, 36)
    True
    """
    morale = _check_morale(morale)
    if isinstance(hits_on_hex, Dist):
        return hits_on_hex.map(lambda h: unsaved_hits(h, morale))
    h = _check_dice(hits_on_hex)
    return h @ ((2 @ d6) + h // 2 > morale)


@dataclass(frozen=True)
class SavingThrows:
    """One leader's saving throws against rolled dice: how many hits were saved and what is left."""

    saved: int
    remaining: int
    damage: Damage
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return f"<b>{self.saved} saved, {self.remaining} left: {self.damage.name}</b>{steps_html(self.steps)}"


def saving_throws(morale: int, rolls: Sequence[int]) -> SavingThrows:
    """Blitz Combat, Leader Saving Throws, with the 2d6 rolls given: one roll per hit on the hex.

    >>> saving_throws(9, [5, 6, 7, 10]).remaining
    1
    """
    morale = _check_morale(morale)
    for r in rolls:
        if isinstance(r, bool) or not isinstance(r, Integral) or not 2 <= r <= 12:
            raise WbkError(f"saving throw {r!r} is not a 2d6 roll (2 to 12)")
    bonus = len(rolls) // 2
    steps = [Step(f"{len(rolls)} hits on the hex: + {bonus} to each saving throw", LEADERS)]
    saved = 0
    for r in rolls:
        ok = r + bonus <= morale
        saved += ok
        steps.append(Step(f"rolled {r} + {bonus} = {r + bonus}: {'saved' if ok else 'not saved'} (morale {morale})", LEADERS))
    remaining = len(rolls) - saved
    result = damage(remaining)
    steps.append(Step(f"{remaining} hit{'s' if remaining != 1 else ''} left: {result.name.lower().replace('_', ' ')}", DAMAGE))
    return SavingThrows(saved, remaining, result, tuple(steps))


@dataclass(frozen=True)
class Leader:
    """A leader who might make saving throws for a hex that has been hit."""

    morale: int
    state: Literal["normal", "disrupted", "demoralized"] = "normal"
    in_target_hex: bool = True

    def __post_init__(self):
        _check_morale(self.morale)
        _choice(self.state, ("normal", "disrupted", "demoralized"), "leader state")

    def can_save(self) -> bool:
        """Blitz Combat, Damage: a demoralized leader makes no saving throws, a disrupted one
        only for the hex he is in."""
        if self.state == "demoralized":
            return False
        return self.state == "normal" or self.in_target_hex


@dataclass(frozen=True)
class LeaderChoice:
    leader: Leader | None
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return steps_html(self.steps)


def saving_leader(leaders: Sequence[Leader]) -> LeaderChoice:
    """Blitz Combat, Leader Saving Throws: one leader in or next to the hex throws for it; the
    owning player picks, and wbk picks the best morale among those allowed to throw."""
    steps = []
    able = []
    for leader in leaders:
        where = "in the hex" if leader.in_target_hex else "adjacent"
        if leader.can_save():
            able.append(leader)
        else:
            why = "demoralized" if leader.state == "demoralized" else "disrupted and not in the hex"
            steps.append(Step(f"leader of morale {leader.morale} ({where}) cannot throw: {why}", DAMAGE))
    if not able:
        steps.append(Step("no leader makes saving throws for this hex", LEADERS))
        return LeaderChoice(None, tuple(steps))
    best = max(able, key=lambda leader: leader.morale)
    steps.append(Step(f"the leader of morale {best.morale} throws for the hex (only one leader may)", LEADERS))
    return LeaderChoice(best, tuple(steps))


@dataclass(frozen=True)
class FireProcedure:
    """The exact course of one attack: hits rolled, hits that count, and the damage."""

    rolled: Dist
    counted: Dist
    damage: Dist
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return steps_html(self.steps) + self.damage._repr_html_()


def fire_procedure(
    dice: int, *, fire: FireType = "direct", armor: int = 0, leader_morale: int | None = None
) -> FireProcedure:
    """Blitz Combat, Fire Procedure to Damage, as exact distributions.

    ``armor`` is the target's armor value, 0 for a target without armor. Against AT fire it takes
    hits off (the target being a vehicle: only vehicles take AT hits); an armored target (armor
    1 or more) ignores direct fire and bombardment. ``leader_morale`` is the morale of the leader
    throwing for the hex; leaders throw against direct fire and bombardment only.
    """
    dice = _check_dice(dice)
    fire = _choice(fire, FIRE_TYPES, "fire type")
    armor = _check_armor(armor)
    if leader_morale is not None:
        _check_morale(leader_morale)
    rolled = hits(dice)
    steps = [Step(f"roll {dice} dice: every 6 is a hit", PROCEDURE)]
    counted = rolled
    if fire == "assault":
        steps.append(Step("assault combat: every hit counts, no armor, no saving throws", ASSAULT))
    elif fire == "at":
        counted = hits(dice, armor)
        steps.append(Step(f"AT fire: armor {armor} takes {armor} hits off", ARMOR))
        if leader_morale is not None:
            steps.append(Step("leaders make no saving throws against AT fire", ARMOR))
    elif armor:
        counted = Dist.always(0)
        steps.append(Step(f"the target is armored (armor {armor}): it ignores {fire} hits", ARMOR))
    elif leader_morale is not None:
        counted = unsaved_hits(rolled, leader_morale)
        steps.append(Step(f"a leader of morale {leader_morale} throws 2d6 per hit, + 1 per two hits", LEADERS))
    return FireProcedure(rolled, counted, counted.map(damage), tuple(steps))


def fire_outcome(
    dice: int, *, fire: FireType = "direct", armor: int = 0, leader_morale: int | None = None
) -> Dist:
    """Blitz Combat: the exact distribution of ``Damage`` from one attack (see ``fire_procedure``).

    >>> fire_outcome(4).probability(Damage.ELIMINATED)
    Fraction(1, 1296)
    """
    return fire_procedure(dice, fire=fire, armor=armor, leader_morale=leader_morale).damage


def passenger_damage(apc: Damage) -> Damage:
    """Blitz Combat, Armor Protection: units loaded on an APC take no direct or bombardment hits
    of their own, but are destroyed when the APC is.

    >>> passenger_damage(Damage.ELIMINATED), passenger_damage(Damage.STEP_LOSS)
    (<Damage.ELIMINATED: 4>, <Damage.NONE: 0>)
    """
    return Damage.ELIMINATED if apc == Damage.ELIMINATED else Damage.NONE
