"""Blitz Combat, a variant of Panzer Grenadier's fire combat (Doug McNair, 2005), as code.

The variant replaces the fire table with dice: total the firing strengths, multiply by the
modifiers, round up once, roll that many dice, and every 6 is a hit. Armor takes hits off AT fire,
a leader's 2d6 saving throws take hits off direct fire and bombardment, and the hits left decide
the damage. Unit values, morale and recovery come from the base game and are the user's data.

Public names (``__all__``):

- ``fire_strength(...) -> Strength``: the dice to roll, with the worked calculation; a firing
  piece is a strength, or a ``Piece(strength, disrupted=True)`` for a disrupted one;
- ``hits(dice, *, armor=0)``, ``unsaved_hits(hits, morale)``: exact distributions;
- ``fire_procedure(...)``, ``fire_outcome(...)``: the whole procedure, to a ``Damage`` distribution;
- ``saving_throws(morale, rolls)``: one leader's throws against rolled dice;
- ``saving_throw_bonus(hits_on_hex)``: what each saving throw adds for the hits on the hex;
- ``saving_leader(leaders)``: which leader may throw for the hex;
- ``damage(hits)``, ``passenger_damage(apc, apc_steps=...)``, ``Damage``, ``Leader``, ``Piece``;
- the option values ``FIRE_TYPES``, ``TARGETS``, ``TERRAINS``, ``PROTECTIONS``, each in the
  rules' words (``label``: "at" is "AT fire");
- what each input takes, declared once (``wbk.checks.Input``): ``FIRE_TYPE``, ``TARGET``,
  ``TERRAIN``, ``PROTECTION``, ``COUNT`` (hits, units, hexes, an armor value), ``MORALE`` and
  ``ROLL`` (a 2d6 saving throw), ``STRENGTH`` and ``DICE``; the rules check their arguments with
  them and the quiz's keys are them;
- ``READINGS``: every reading of the text wbk names, by keyword, as ``wbk.games.blitz.readings``
  declares them (``wbk.readings.Reading``: its values, the words for a control and a caption,
  the rule it reads);
- ``MAX_DICE``: the exact odds are worked out for up to 10,000 dice (about 0.3 s); more is a
  ``WbkError`` naming the limit, not a frozen notebook; likewise ``MAX_FIRERS`` firing pieces
  and ``MAX_STRENGTH``, the strength of one piece.

The results (``Strength``, ``FireProcedure``, ``SavingThrows``, ``LeaderChoice``) are returned,
never built by hand, so they are not in ``__all__``; a leader's ``SavingThrows`` are
``RolledHits``, each hit rolled marked with why it does not count, if it does not. Whole
attacks worked out at once, as the chapter's panels show them, are in
``wbk.games.blitz.attacks``.

Where the text leaves a choice open, it is a named reading (``READINGS``; the default is what
the text supports best, and the notebook prints a case where the values differ):

- ``crowded``: "3 non-vehicle units" as three or more (default) or exactly three;
- ``assault``: whether terrain and protection modify assault combat (they do by default);
- ``disrupted_firers``: a disrupted firer halves his own part of the attack (default: the Damage
  section halves a disrupted piece's fire value) or the whole attack;
- ``save_bonus``: "for every two hits, +1" with an odd number of hits: whole pairs only (default:
  3 hits hold one pair, +1) or the odd hit rounded up to a pair (3 hits, +2);
- ``apc_destroyed``: an APC is destroyed when eliminated, or also when it loses its last step
  (default), taking its passengers with it.

And wbk decides these without a keyword, because the text or the base game settles them:

- the strength is rounded up once, at the end: the worked example carries 7.5 and 3.75 along
  unrounded, and since every halving comes after every doubling in the text's list, rounding
  after each step would give the same dice;
- assault combat takes place in the hex both sides share, so the "range 1" doubling never
  applies to it;
- "For every two hits on the hex" counts the hits rolled against the hex, before any is saved;
- armor takes its value off the total of AT hits (the worked example: 3 hits at armor 1 count 2);
- "only one leader": one leader throws every saving throw of an attack on a hex; the owning
  player picks, and wbk picks the best morale among those allowed to throw (a disrupted leader
  only for his own hex, a demoralized one never);
- non-vehicle units in a hex whose vehicle is the target of AT fire ignore the AT hits, and AT
  fire at non-vehicles or wagons does nothing at all;
- a dug-in marker in woods, hills or town counts once: the hex is halved once, not twice.

>>> disrupted = Piece(5, disrupted=True)
>>> fire_strength([disrupted, disrupted, disrupted], target_terrain="town").dice
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

from wbk.checks import Input, choice, flag, known_keywords, whole
from wbk.dice import Dist, d6
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games import Game
from wbk.games.blitz.readings import APC_DESTROYED, CROWDED, DISRUPTED_FIRERS, READINGS, SAVE_BONUS
from wbk.games.blitz.readings import ASSAULT as ASSAULT_READING

_TWO_D6 = 2 @ d6

__all__ = [
    "COUNT",
    "DICE",
    "FIRE_TYPE",
    "FIRE_TYPES",
    "MAX_DICE",
    "MAX_FIRERS",
    "MAX_STRENGTH",
    "MORALE",
    "PROTECTION",
    "PROTECTIONS",
    "READINGS",
    "ROLL",
    "STRENGTH",
    "TARGET",
    "TARGETS",
    "TERRAIN",
    "TERRAINS",
    "Damage",
    "Leader",
    "Piece",
    "damage",
    "fire_outcome",
    "fire_procedure",
    "fire_strength",
    "hits",
    "label",
    "passenger_damage",
    "saving_leader",
    "saving_throw_bonus",
    "saving_throws",
    "unsaved_hits",
]

MODIFIERS = "Blitz Combat, Combat Strength Modifiers"
PROCEDURE = "Blitz Combat, Fire Procedure"
ARMOR = "Blitz Combat, Armor Protection"
LEADERS = "Blitz Combat, Leader Saving Throws"
ASSAULT = "Blitz Combat, Assault Combat"
DAMAGE = "Blitz Combat, Damage"

#: What a step is about (``Step.about``), for a picture drawn at the step: ("strength", the
#: running strength), ("dice", the dice rolled), ("rolled", dice), ("counted", ...) for the hits
#: that count after armor, leaders and the target's kind, ("bonus", +n, the morale) and
#: ("roll", its index, the roll, "saved" or "not saved") for a saving throw, ("leader",
#: morale), ("damage", the level).
COUNTED = ("counted",)

FIRE_TYPES = ("direct", "bombardment", "at", "assault")
#: The most dice ``hits``, ``fire_procedure`` and ``fire_outcome`` work out. Exact odds carry
#: whole numbers that grow with the dice: 10,000 dice take about 0.3 s and 50 MB with a leader's
#: saving throws; twice as many take four times both (1 s, 200 MB, measured on two cores).
MAX_DICE = 10_000
#: The most firing pieces one attack may total (a whole army is a few hundred).
MAX_FIRERS = 1_000
#: The largest strength one firing piece may have: no more than the dice wbk works out
#: (Panzer Grenadier's counters print a few dozen at most; more is a typing slip).
MAX_STRENGTH = MAX_DICE

#: What the attack is aimed at. Only an armored vehicle has an armor value.
TARGETS = ("non_vehicle", "armored_vehicle", "unarmored_vehicle", "wagon")
#: The target hex's terrain: woods, hills and town halve the attack.
TERRAINS = ("open", "woods", "hills", "town")
#: What protects the target: dug in halves, bunker and entrenchment quarter (only in the open).
PROTECTIONS = ("none", "dug_in", "bunker", "entrenchment")

#: What the user reads for each option value, and for each reading's values their declared words.
LABELS = {
    "direct": "direct fire",
    "bombardment": "bombardment",
    "at": "AT fire",
    "assault": "assault combat",
    "non_vehicle": "non-vehicle units",
    "armored_vehicle": "armored vehicle",
    "unarmored_vehicle": "unarmored vehicle",
    "wagon": "wagon",
    "open": "open",
    "woods": "woods",
    "hills": "hills",
    "town": "town",
    "none": "none",
    "dug_in": "dug in",
    "bunker": "bunker",
    "entrenchment": "entrenchment",
    **{value: words for r in READINGS.values() for value, words in r.values.items()},
}
#: The words of a step, where they differ from a label's: "a non-vehicle unit takes none".
STEP_WORDS = {
    **LABELS,
    "non_vehicle": "non-vehicle unit",
    "bunker": "a bunker",
    "entrenchment": "an entrenchment",
}


def label(value: str) -> str:
    """The words shown for an option value: ``label("at") == "AT fire"``."""
    if not isinstance(value, str):
        raise WbkError(f"option {value!r} is not an option's name")
    return LABELS.get(value, value)


def dice_said(n: int) -> str:
    """A number of dice in words: "1 die", "10,000 dice"."""
    return "1 die" if n == 1 else f"{n:,} dice"


def hits_said(n: int) -> str:
    """A number of hits in words: "1 hit", "3 hits"."""
    return "1 hit" if n == 1 else f"{n:,} hits"


# --- what the rules take ------------------------------------------------------------------


def _up_to(limit: int, why: str) -> Input:
    """A whole number from 0 to ``limit``; over it, the message says why there is a limit."""

    def problem(value: object) -> str | None:
        if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < 0:
            return f"{value!r} is not a whole number of 0 or more"
        return f"{value:,} is over the limit of {limit:,}{why}" if int(value) > limit else None

    return Input(f"a whole number from 0 to {limit:,}", problem)


FIRE_TYPE = Input.text(FIRE_TYPES)
TARGET = Input.text(TARGETS)
TERRAIN = Input.text(TERRAINS)
PROTECTION = Input.text(PROTECTIONS)
#: A number of hits, of units, of hexes, or an armor value.
COUNT = Input.whole(0)
#: A leader's morale, and a saving throw's 2d6.
MORALE = ROLL = Input.whole(2, 12)
#: The dice an attack rolls, and the strength of one firing piece.
DICE = _up_to(MAX_DICE, ": wbk works out exact odds for at most that many")
STRENGTH = _up_to(MAX_STRENGTH, " (a counter's strength is a few dozen at most)")


def _check_list(values, name: str, what: str) -> list:
    """A list or tuple (not a string, not a single number) of things to check one by one."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise WbkError(f"{name} {values!r} is not a list of {what}")
    return list(values)


# --- strength -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """A firing piece: its strength for this fire and whether it is disrupted (Blitz Combat,
    Damage: a disrupted piece's fire value is halved). A plain number in a list of strengths is
    a piece in good order.
    """

    strength: int
    disrupted: bool = False

    def __post_init__(self):
        STRENGTH.check(self.strength, "piece strength")
        flag(self.disrupted, "disrupted")


def _check_pieces(values, name: str) -> list[Piece]:
    pieces = []
    listed = _check_list(values, name, "strengths or pieces")
    if len(listed) > MAX_FIRERS:
        raise WbkError(
            f"{len(listed):,} {name} are over the limit of {MAX_FIRERS:,} for one attack"
        )
    for v in listed:
        if not isinstance(v, Piece):
            v = Piece(STRENGTH.check(v, f"strength in {name}"))
        pieces.append(v)
    return pieces


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

    @property
    def deciding_step(self) -> Step:
        """The last step that changes the strength: the dice are that strength rounded up."""
        return self.steps[-2] if len(self.steps) > 1 else self.steps[-1]

    def __repr__(self) -> str:
        return f"Strength({int(self)})"

    def __str__(self) -> str:
        lines = [dice_said(int(self))] + [f"  {i}. {s}" for i, s in enumerate(self.steps, 1)]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<b>{dice_said(int(self))}</b>{steps_html(self.steps)}"


def strength_said(value: Fraction) -> str:
    """A strength as the rules would write it: 15, 7.5, 3.75."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def _shown(factor: Fraction) -> str:
    return {Fraction(1, 2): "½", Fraction(1, 4): "¼"}.get(factor, str(factor))


@known_keywords
def fire_strength(
    strengths: Sequence[int | Piece],
    *,
    fire: str = "direct",
    engineer_strengths: Sequence[int | Piece] = (),
    range_hexes: int | None = None,
    target_non_vehicle_units: int = 0,
    target_terrain: str = "open",
    protection: str = "none",
    crowded: str = "three_or_more",
    assault: str = "terrain_applies",
    disrupted_firers: str = "their_share",
) -> Strength:
    """Blitz Combat, Combat Strength Modifiers: the dice an attack rolls.

    ``strengths``: the firing pieces' strengths for this kind of fire, each a number (a piece in
    good order) or a ``Piece(strength, disrupted=True)``. ``engineer_strengths``: engineers,
    likewise; they count four times over in assault combat (in other fire they add like any
    other). An AT strength of 0 counts as 1, engineers' too. A disrupted piece's part of the
    total counts half; when every firer is disrupted that is the whole attack halved, as in the
    rules' example. The total is multiplied by every modifier that applies, all cumulative, and
    rounded up once at the end.

    ``target_terrain`` (open, woods, hills, town) and ``protection`` (none, dug_in, bunker,
    entrenchment) are separate: woods, hills and town halve; dug in halves, but a dug-in marker in
    woods, hills or town adds nothing (the hex is halved once); bunker and entrenchment quarter,
    except in woods, hills or town, where the terrain's half applies instead of the quarter.

    Readings (neither worked example settles them): ``crowded`` reads "3 non-vehicle units in the
    target hex" as "three_or_more" (default) or "exactly_three". ``assault`` says whether terrain
    and protection modify assault combat: "terrain_applies" (default: the text lists every
    modifier as cumulative and restricts only the crowded-hex one) or "no_terrain". The range
    doubling never applies to assault combat: it takes place in the hex both sides share.
    ``disrupted_firers``: when only some firers are disrupted, "their_share" (default: the
    Damage section halves a disrupted piece's fire value) halves their part of the total, and
    "whole_attack" halves the whole attack ("firing unit is disrupted" read as a modifier of the
    attack). The worked example, every firer disrupted, is the same either way.

    >>> s = fire_strength([Piece(5, disrupted=True)] * 3, target_terrain="town")
    >>> for step in s.steps:
    ...     print(step.text)
    total strength 5 + 5 + 5 = 15
    all 3 firers disrupted: × ½ = 7.5
    target in town: × ½ = 3.75
    3.75 rounds up to 4 dice
    """
    fire_type = FIRE_TYPE.check(fire, "fire type")
    if target_terrain in PROTECTIONS[1:]:
        raise WbkError(
            f"target terrain {target_terrain!r} is a protection: give it as protection=..."
        )
    TERRAIN.check(target_terrain, "target terrain")
    PROTECTION.check(protection, "protection")
    crowded = CROWDED.check(crowded, "reading of the crowded hex")
    assault = ASSAULT_READING.check(assault, "reading of assault combat")
    disrupted_firers = DISRUPTED_FIRERS.check(disrupted_firers, "reading of disrupted firers")
    pieces, engineers = _check_firers(strengths, engineer_strengths)
    if range_hexes is not None:
        COUNT.check(range_hexes, "range")
    crowd = COUNT.check(target_non_vehicle_units, "number of non-vehicle units")
    if not pieces and not engineers:
        raise WbkError("no firing units: give at least one strength")

    work = _Working()
    if fire_type == "at":
        pieces, engineers = _at_zero_counts_one(pieces, engineers, work)
    parts = _total(fire_type, pieces, engineers, work)
    _disrupted_firers(parts, disrupted_firers, work)
    _crowded_hex(fire_type, crowd, crowded, work)
    _range(fire_type, range_hexes, work)
    if fire_type == "assault" and assault == "no_terrain":
        if target_terrain != "open" or protection != "none":
            said = "terrain and protection left out of assault combat"
            work.say(said, f"{ASSAULT}, {ASSAULT_READING.cited('no_terrain')}")
    else:
        _cover(target_terrain, protection, work)
    return work.rounded_up()


def _check_firers(strengths, engineer_strengths) -> tuple[list[Piece], list[Piece]]:
    """The firing pieces and the engineers, at most ``MAX_FIRERS`` of them together."""
    pieces = _check_pieces(strengths, "strengths")
    engineers = _check_pieces(engineer_strengths, "engineer strengths")
    if len(pieces) + len(engineers) > MAX_FIRERS:
        raise WbkError(
            f"{len(pieces) + len(engineers):,} firing pieces are over the limit of "
            f"{MAX_FIRERS:,} for one attack"
        )
    return pieces, engineers


class _Working:
    """An attack's strength as the modifiers change it, one after another, and the steps that
    say how (each step about the strength as it then stands)."""

    def __init__(self) -> None:
        self.strength = Fraction(0)
        self.steps: list[Step] = []

    def say(self, said: str, rule: str = MODIFIERS) -> None:
        self.steps.append(Step(said, rule, about=("strength", self.strength)))

    def multiply(self, factor: Fraction, why: str, rule: str = MODIFIERS) -> None:
        """Blitz Combat, Combat Strength Modifiers: every modifier multiplies the total."""
        self.strength *= factor
        self.say(f"{why}: × {_shown(factor)} = {strength_said(self.strength)}", rule)

    def rounded_up(self) -> Strength:
        """Blitz Combat, Combat Strength Modifiers: the strength is rounded up, once, to the
        dice the attack rolls (Fire Procedure)."""
        dice = math.ceil(self.strength)
        if self.strength.denominator != 1:
            said = f"{strength_said(self.strength)} rounds up to {dice_said(dice)}"
            self.steps.append(Step(said, MODIFIERS, about=("dice", dice)))
        else:
            self.steps.append(Step(dice_said(dice), PROCEDURE, about=("dice", dice)))
        return Strength(self.strength, self.steps)


def _at_zero_counts_one(
    pieces: list[Piece], engineers: list[Piece], work: _Working
) -> tuple[list[Piece], list[Piece]]:
    """Blitz Combat, Combat Strength Modifiers: an AT strength of 0 fires as 1, an
    engineer's too."""
    zeros = sum(p.strength == 0 for p in pieces + engineers)
    if zeros:
        said = f"{zeros} AT strengths of 0 count" if zeros > 1 else "an AT strength of 0 counts"
        work.steps.append(Step(f"{said} as 1", MODIFIERS, about=("strength",)))
    return (
        [Piece(max(p.strength, 1), p.disrupted) for p in pieces],
        [Piece(max(p.strength, 1), p.disrupted) for p in engineers],
    )


def _total(
    fire_type: str, pieces: list[Piece], engineers: list[Piece], work: _Working
) -> list[tuple[int, bool]]:
    """Blitz Combat, Combat Strength Modifiers: the firers' total, each strength three times
    over in assault combat (an engineer's four times) and five times over in AT fire. Returns
    each piece's part of the total and whether he is disrupted."""
    if fire_type == "assault":
        ordinary = sum(p.strength for p in pieces)
        engineer = sum(p.strength for p in engineers)
        work.strength = Fraction(3 * ordinary + 4 * engineer)
        terms = [f"3 × {ordinary}"] if pieces else []
        terms += [f"engineers 4 × {engineer}"] if engineers else []
        work.say(f"assault combat: {' + '.join(terms)} = {strength_said(work.strength)}")
        return [(3 * p.strength, p.disrupted) for p in pieces] + [
            (4 * p.strength, p.disrupted) for p in engineers
        ]
    everyone = pieces + engineers
    work.strength = Fraction(sum(p.strength for p in everyone))
    listed = " + ".join(str(p.strength) for p in everyone)
    if len(everyone) > 3 and len({p.strength for p in everyone}) == 1:
        listed = f"{len(everyone)} × {everyone[0].strength}"  # not "5 + 5 + ... + 5"
    elif len(everyone) > 12:  # a step is a line to read, not a column of figures
        listed = f"{len(everyone)} strengths"
    strength = strength_said(work.strength)
    total = f"{listed} = {strength}" if len(everyone) > 1 else strength
    work.say(f"total strength {total}")
    if fire_type != "at":
        return [(p.strength, p.disrupted) for p in everyone]
    work.multiply(Fraction(5), "AT fire")
    return [(5 * p.strength, p.disrupted) for p in everyone]


def _disrupted_firers(parts: list[tuple[int, bool]], reading: str, work: _Working) -> None:
    """Blitz Combat, Combat Strength Modifiers and Damage: a disrupted firer halves the attack
    when he fires alone or with other disrupted firers only; beside firers in good order, his
    own part of the total counts half ("their_share") or the whole attack is halved
    ("whole_attack")."""
    firers = len(parts)
    disrupted = [part for part, is_disrupted in parts if is_disrupted]
    if len(disrupted) == firers:
        who = "the firer is disrupted" if firers == 1 else f"all {firers} firers disrupted"
        work.multiply(Fraction(1, 2), who)
    elif disrupted and reading == "whole_attack":
        who = f"{len(disrupted)} of {firers} firers disrupted: the whole attack halved"
        work.multiply(Fraction(1, 2), who, f"{MODIFIERS}, {DISRUPTED_FIRERS.cited('whole_attack')}")
    elif disrupted:
        share, before = Fraction(sum(disrupted)), work.strength
        work.strength -= share / 2
        said = f"{len(disrupted)} of {firers} firers disrupted"
        said += f": their {strength_said(share)} of {strength_said(before)}"
        half, after = strength_said(share / 2), strength_said(work.strength)
        arithmetic = f"{strength_said(before)} − {half} = {after}"
        work.say(f"{said} counts half: {arithmetic}", DAMAGE)


def _crowded_hex(fire_type: str, crowd: int, reading: str, work: _Working) -> None:
    """Blitz Combat, Combat Strength Modifiers: direct fire and bombardment at a hex of 3
    non-vehicle units ("three_or_more", or "exactly_three") count double."""
    crowded_hex = crowd >= 3 if reading == "three_or_more" else crowd == 3
    # more than three is where the readings part: the step names the one that decided
    read = f" (read as: {CROWDED.sentence(reading)})" if crowd > 3 else ""
    rule = f"{MODIFIERS}, {CROWDED.cited(reading)}" if crowd > 3 else MODIFIERS
    if fire_type in ("direct", "bombardment") and crowded_hex:
        work.strength *= 2
        said = f"{crowd} non-vehicle units in the target hex{read}: × 2"
        work.say(f"{said} = {strength_said(work.strength)}", rule)
    elif crowded_hex:
        said = f"{crowd} non-vehicle units in the target hex{read}: no × 2"
        work.say(said + ", that is for direct fire and bombardment", rule)
    elif crowd > 3 and fire_type in ("direct", "bombardment"):
        work.say(f"{crowd} non-vehicle units in the target hex{read}: no × 2", rule)


def _range(fire_type: str, range_hexes: int | None, work: _Working) -> None:
    """Blitz Combat, Combat Strength Modifiers: fire at range 1 counts double; assault combat,
    in the hex both sides share, has no range (Assault Combat)."""
    if fire_type == "assault":
        if range_hexes:
            said = "no range modifier: assault combat takes place in the shared hex"
            work.say(said, ASSAULT)
    elif range_hexes == 1:
        work.multiply(Fraction(2), "range 1")


def _cover(terrain: str, protection: str, work: _Working) -> None:
    """Blitz Combat, Combat Strength Modifiers: the target's terrain and protection, each as
    ``_terrain_steps`` says; a step that changes nothing says why."""
    for factor, why in _terrain_steps(terrain, protection):
        if factor == 1:
            work.say(why)
        else:
            work.multiply(factor, why)


def _terrain_steps(terrain: str, protection: str) -> list[tuple[Fraction, str]]:
    """The target's terrain and protection as (factor, reason) steps: at most one halving in
    woods, hills or town; dug in halves and bunker or entrenchment quarter in the open."""
    if terrain == "open":
        if protection == "none":
            return []
        factor = Fraction(1, 2) if protection == "dug_in" else Fraction(1, 4)
        where = "" if protection == "dug_in" else "in "
        return [(factor, f"target {where}{STEP_WORDS[protection]}")]
    steps = [(Fraction(1, 2), f"target in {terrain}")]
    if protection == "dug_in":
        said = f"dug in within {terrain}: the marker adds nothing, the hex is halved once"
        steps.append((Fraction(1), said))
    elif protection != "none":
        said = f"{protection} in {terrain}: the ¼ does not apply in woods, hills or town"
        said += f"; the ½ for {terrain} does"
        steps.append((Fraction(1), said))
    return steps


# --- hits, saving throws, damage ----------------------------------------------------------


class Damage(enum.IntEnum):
    """What the hits left after armor and saving throws do to the target (Blitz Combat, Damage)."""

    NONE = 0
    DISRUPTED = 1
    DEMORALIZED = 2
    STEP_LOSS = 3  # one step lost and demoralized; the standard leader casualty roll follows
    ELIMINATED = 4

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")

    @property
    def effects(self) -> str:
        """Everything the Damage table does at this level, as a step says it: at three hits a
        step loss, demoralized, and the leader casualty roll of the standard rules."""
        return _EFFECTS[self]

    @property
    def briefly(self) -> str:
        """Everything it does, short enough for a picture's title: "step loss, demoralized,
        leaders roll" (a step loss is never only a step loss)."""
        return _BRIEFLY.get(self, str(self))


_BRIEFLY = {Damage.STEP_LOSS: "step loss, demoralized, leaders roll"}
_EFFECTS = {
    Damage.NONE: "none",
    Damage.DISRUPTED: "disrupted: all target units are disrupted",
    Damage.DEMORALIZED: "demoralized: all target units are demoralized",
    Damage.STEP_LOSS: "step loss: each target unit loses one step and is demoralized, and "
    "leaders roll for casualties (standard rules)",
    Damage.ELIMINATED: "eliminated: all target units and leaders are eliminated",
}


def damage(remaining_hits: int) -> Damage:
    """Blitz Combat, Damage: 1 hit disrupts, 2 demoralize, 3 cost a step, 4 or more eliminate.

    >>> print(damage(1), damage(2), damage(7), sep=", ")
    disrupted, demoralized, eliminated
    """
    return Damage(min(COUNT.check(remaining_hits, "remaining hits"), 4))


def hits(dice: int, *, armor: int = 0) -> Dist:
    """Blitz Combat, Fire Procedure and Armor Protection: hits from ``dice`` d6, every 6 a hit,
    less the target's armor value (never below 0). At most ``MAX_DICE`` dice.

    >>> hits(1).probability(1)
    Fraction(1, 6)
    """
    DICE.check(dice, "number of dice")
    COUNT.check(armor, "armor value")
    return (dice @ (d6 >= 6)).map(lambda h: max(0, h - armor))


@known_keywords
def saving_throw_bonus(hits_on_hex: int, reading: str = "whole_pairs") -> int:
    """Blitz Combat, Leader Saving Throws: what each saving throw adds, +1 for every two hits on
    the hex. With an odd number of hits, "whole_pairs" (default: 3 hits hold one pair) counts only
    whole pairs, "rounded_up" counts the odd hit as a pair too.

    >>> [saving_throw_bonus(hits, reading) for hits in (3, 4) for reading in SAVE_BONUS.values]
    [1, 2, 2, 2]
    """
    h = COUNT.check(hits_on_hex, "hits on the hex")
    reading = SAVE_BONUS.check(reading, "reading of the saving throw bonus")
    return h // 2 if reading == "whole_pairs" else (h + 1) // 2


@known_keywords
def unsaved_hits(hits_on_hex: int | Dist, morale: int, *, save_bonus: str = "whole_pairs") -> Dist:
    """Blitz Combat, Leader Saving Throws: the hits left after a leader's saving throws.

    For H hits on the hex the leader rolls 2d6 per hit, adds 1 per two hits (``save_bonus``: H //
    2 by default, see ``saving_throw_bonus``), and saves the hit when the total is at most
    his morale. ``hits_on_hex`` is a number or a distribution.

    >>> unsaved_hits(4, 9).probability(1) == 4 * Fraction(21, 36) ** 3 * Fraction(15, 36)
    True
    """
    MORALE.check(morale, "leader morale")
    reading = SAVE_BONUS.check(save_bonus, "reading of the saving throw bonus")
    if isinstance(hits_on_hex, Dist):
        for h in hits_on_hex.outcomes():
            COUNT.check(h, "hits in the distribution hits_on_hex")
        return hits_on_hex.map(lambda h: _unsaved(h, morale, reading))
    return _unsaved(COUNT.check(hits_on_hex, "hits on the hex"), morale, reading)


def _unsaved(h: int, morale: int, reading: str) -> Dist:
    bonus = saving_throw_bonus(h, reading)
    if 2 + bonus > morale:  # even a roll of 2 fails: no hit is saved
        return Dist.always(h)
    return h @ (_TWO_D6 + bonus > morale)


@dataclass(frozen=True)
class RolledHits:
    """The dice are down: each hit rolled, whether it counts and why not, the damage, and the
    steps (each citing its rule)."""

    marks: tuple[str, ...]  # per hit: "" if it counts, else why not ("5 + 2 saved", "armor")
    damage: Damage
    steps: tuple[Step, ...]

    @property
    def remaining(self) -> int:
        return sum(not mark for mark in self.marks)

    def differs_from(self, other: RolledHits) -> bool:
        """Whether a hit that counts here does not under ``other`` (another reading), or the
        other way round."""
        return any(bool(a) != bool(b) for a, b in zip(self.marks, other.marks, strict=True))

    def _repr_html_(self) -> str:
        return steps_html(self.steps)


class SavingThrows(RolledHits):
    """One leader's saving throws against rolled hits: each hit saved or not, by its roll."""

    @property
    def saved(self) -> int:
        return len(self.marks) - self.remaining

    def _repr_html_(self) -> str:
        verdict = f"{self.saved} saved, {self.remaining} left: {self.damage}"
        return f"<b>{verdict}</b>{steps_html(self.steps)}"


@known_keywords
def saving_throws(
    morale: int, rolls: Sequence[int], *, save_bonus: str = "whole_pairs"
) -> SavingThrows:
    """Blitz Combat, Leader Saving Throws, with the 2d6 rolls given: one roll per hit on the hex
    (at most ``MAX_DICE``); ``save_bonus`` is the reading of "+1 for every two hits".

    >>> saving_throws(9, [5, 6, 7, 10]).marks
    ('5 + 2 saved', '6 + 2 saved', '7 + 2 saved', '')
    """
    MORALE.check(morale, "leader morale")
    rolls = _check_list(rolls, "saving throw rolls", "2d6 rolls")
    if len(rolls) > MAX_DICE:
        raise WbkError(
            f"{len(rolls):,} saving throw rolls are over the limit of {MAX_DICE:,} "
            "(one roll per hit, and an attack rolls at most that many dice)"
        )
    for r in rolls:
        ROLL.check(r, "saving throw")
    bonus = saving_throw_bonus(len(rolls), save_bonus)
    said = f"{hits_said(len(rolls))} on the hex: + {bonus} to each saving throw"
    steps = [Step(said, LEADERS, about=("bonus", bonus, morale))]
    marks = []
    for r in rolls:
        ok = r + bonus <= morale
        marks.append(f"{r} + {bonus} saved" if ok else "")
        verdict = "saved" if ok else "not saved"
        said = f"rolled {r} + {bonus} = {r + bonus}: {verdict} (morale {morale})"
        steps.append(Step(said, LEADERS, about=("roll", len(steps) - 1, r, verdict)))
    result = damage(marks.count(""))
    said = f"{hits_said(marks.count(''))} left: {result.effects}"
    steps.append(Step(said, DAMAGE, about=("damage", result)))
    return SavingThrows(tuple(marks), result, tuple(steps))


LEADER_STATES = ("normal", "disrupted", "demoralized")


@dataclass(frozen=True)
class Leader:
    """A leader who might make saving throws for a hex that has been hit: his morale, his state
    (normal, disrupted, demoralized) and whether he is in the target hex (else adjacent)."""

    morale: int
    state: Literal["normal", "disrupted", "demoralized"] = "normal"
    in_target_hex: bool = True

    def __post_init__(self):
        MORALE.check(self.morale, "leader morale")
        choice(self.state, LEADER_STATES, "leader state")
        flag(self.in_target_hex, "in_target_hex")

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
    leaders = _check_list(leaders, "leaders", "Leader values")
    for leader in leaders:
        if not isinstance(leader, Leader):
            raise WbkError(f"leader {leader!r} in leaders is not a Leader")
    steps = []
    able = []
    for leader in leaders:
        where = "in the hex" if leader.in_target_hex else "adjacent"
        if leader.can_save():
            able.append(leader)
        else:
            why = "demoralized" if leader.state == "demoralized" else "disrupted and not in the hex"
            said = f"leader of morale {leader.morale} ({where}) cannot throw: {why}"
            steps.append(Step(said, DAMAGE, about=("leader", leader.morale)))
    if not able:
        steps.append(Step("no leader makes saving throws for this hex", LEADERS, about=("leader",)))
        return LeaderChoice(None, tuple(steps))
    best = max(able, key=lambda leader: leader.morale)
    said = f"the leader of morale {best.morale} throws for the hex (only one leader may)"
    steps.append(Step(said, LEADERS, about=("leader", best.morale)))
    return LeaderChoice(best, tuple(steps))


# --- the whole procedure ------------------------------------------------------------------


@dataclass(frozen=True)
class FireProcedure:
    """The exact course of one attack: hits rolled, hits that count, and the damage."""

    rolled: Dist
    counted: Dist
    damage: Dist
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return steps_html(self.steps) + self.damage._repr_html_()


def _check_target(target, armor) -> tuple[str, int | None]:
    TARGET.check(target, "target")
    if target == "armored_vehicle":
        if armor is None:
            raise WbkError("armor None: an armored_vehicle target needs its armor value")
        return target, COUNT.check(armor, "armor value")
    if armor is not None:
        why = "only an armored_vehicle has an armor value"
        raise WbkError(f"armor {armor!r} given for a {target} target: {why}")
    return target, None


@known_keywords
def fire_procedure(
    dice: int,
    *,
    fire: str = "direct",
    target: str = "non_vehicle",
    armor: int | None = None,
    leader_morale: int | None = None,
    save_bonus: str = "whole_pairs",
) -> FireProcedure:
    """Blitz Combat, Fire Procedure to Damage, as exact distributions.

    ``target`` is what the attack is aimed at: "non_vehicle" (default), "armored_vehicle" (give
    its ``armor`` value), "unarmored_vehicle" or "wagon". Only vehicles other than wagons take AT
    hits, an armored vehicle's armor taking hits off; AT fire at a non-vehicle or a wagon does
    nothing, and non-vehicle units sharing the hex with the vehicle ignore the AT hits. An armored
    vehicle ignores direct fire and bombardment; unarmored targets (unarmored vehicles and wagons
    included) take them, and a leader of ``leader_morale`` may throw against them (``save_bonus``:
    the reading of "+1 for every two hits", see ``saving_throw_bonus``). In assault combat every
    hit counts, whatever the target.

    >>> fire_procedure(6, fire="at").damage.probability(Damage.NONE)
    Fraction(1, 1)
    """
    DICE.check(dice, "number of dice")
    fire_type = FIRE_TYPE.check(fire, "fire type")
    target, armor_value = _check_target(target, armor)
    if leader_morale is not None:
        MORALE.check(leader_morale, "leader morale")
    bonus_reading = SAVE_BONUS.check(save_bonus, "reading of the saving throw bonus")
    rolled = hits(dice)
    steps = [Step(f"roll {dice_said(dice)}: every 6 is a hit", PROCEDURE, about=("rolled", dice))]
    counted = rolled
    kind = STEP_WORDS[target]
    if fire_type == "assault":
        steps.append(
            Step(
                "assault combat: every hit counts, no armor, no saving throws",
                ASSAULT,
                about=COUNTED,
            )
        )
    elif fire_type == "at":
        if target in ("non_vehicle", "wagon"):
            counted = Dist.always(0)
            said = f"AT fire: only vehicles other than wagons take AT hits; a {kind} takes none"
            steps.append(Step(said, ARMOR, about=COUNTED))
        else:
            if armor_value is not None:  # an armored vehicle
                counted = hits(dice, armor=armor_value)
                said = f"AT fire: armor {armor_value} takes {hits_said(armor_value)} off"
                steps.append(Step(said, ARMOR, about=("counted", "armor", armor_value)))
            else:
                said = "AT fire on an unarmored vehicle: no armor takes hits off"
                steps.append(Step(said, ARMOR, about=COUNTED))
            steps.append(
                Step(
                    "non-vehicle units in the vehicle's hex ignore these AT hits",
                    ARMOR,
                    about=COUNTED,
                )
            )
        if leader_morale is not None:
            steps.append(
                Step("leaders make no saving throws against AT fire", ARMOR, about=COUNTED)
            )
    elif target == "armored_vehicle":
        counted = Dist.always(0)
        said = f"an armored vehicle (armor {armor_value}) ignores {STEP_WORDS[fire_type]} hits"
        steps.append(Step(said, ARMOR, about=COUNTED))
    else:
        article = "an" if kind[0] in "aeiou" else "a"
        said = f"{article} {kind} has no armor value: it takes {STEP_WORDS[fire_type]} hits"
        steps.append(Step(said, ARMOR, about=COUNTED))
        if leader_morale is not None:
            counted = unsaved_hits(rolled, leader_morale, save_bonus=bonus_reading)
            per = "+ 1 per two hits"
            if bonus_reading == "rounded_up":
                per += ", an odd hit counted as two"
            said = f"a leader of morale {leader_morale} throws 2d6 per hit, {per}"
            source = LEADERS
            if bonus_reading != SAVE_BONUS.default:
                source = f"{LEADERS}, {SAVE_BONUS.cited(bonus_reading)}"
            steps.append(Step(said, source, about=("counted", "leader", leader_morale)))
    return FireProcedure(rolled, counted, counted.map(damage), tuple(steps))


@known_keywords
def fire_outcome(
    dice: int,
    *,
    fire: str = "direct",
    target: str = "non_vehicle",
    armor: int | None = None,
    leader_morale: int | None = None,
    save_bonus: str = "whole_pairs",
) -> Dist:
    """Blitz Combat: the exact distribution of ``Damage`` from one attack (see ``fire_procedure``).

    >>> fire_outcome(4).probability(Damage.ELIMINATED)
    Fraction(1, 1296)
    """
    procedure = fire_procedure(
        dice,
        fire=fire,
        target=target,
        armor=armor,
        leader_morale=leader_morale,
        save_bonus=save_bonus,
    )
    return procedure.damage


@known_keywords
def passenger_damage(
    apc: Damage, *, apc_steps: int, apc_destroyed: str = "eliminated_or_last_step"
) -> Damage:
    """Blitz Combat, Armor Protection: units loaded on an APC take no direct or bombardment hits
    of their own, but are destroyed when the APC is.

    ``apc`` is the APC's damage and ``apc_steps`` its steps before the hits. ``apc_destroyed``
    reads "destroyed", which the text does not define: "eliminated_or_last_step" (default: a
    unit that loses its last step is gone, however the Damage table words it) or
    "eliminated_only" (only four or more hits destroy it).

    >>> print(passenger_damage(Damage.STEP_LOSS, apc_steps=1))
    eliminated
    >>> print(passenger_damage(Damage.STEP_LOSS, apc_steps=2))
    none
    >>> print(passenger_damage(Damage.STEP_LOSS, apc_steps=1, apc_destroyed="eliminated_only"))
    none
    """
    if not isinstance(apc, Damage):
        raise WbkError(f"apc damage {apc!r} is not a Damage (none, disrupted, ... eliminated)")
    whole(apc_steps, "apc_steps", 1)
    reading = APC_DESTROYED.check(apc_destroyed, "reading of a destroyed APC")
    last_step = reading == "eliminated_or_last_step" and apc == Damage.STEP_LOSS and apc_steps == 1
    destroyed = apc == Damage.ELIMINATED or last_step
    return Damage.ELIMINATED if destroyed else Damage.NONE


GAME = Game(
    "Blitz Combat",
    cites=("Blitz Combat",),
    readings=READINGS,
)
