"""Whole attacks worked out at once, as the Blitz Combat chapter's panels show them: one attack
from the firing strengths to the damage (``attack``), the hits of dice already down
(``rolled_hits``), what a leader is worth (``leader_cases``) and the chance of each damage by
the dice (``damage_curves``); and an answer beside its answer under another reading
(``Compared``). Each is a result that ``wbk.draw.picture`` draws as its panel shows it.

>>> town = attack([Piece(5, disrupted=True)] * 3, target_terrain="town")
>>> town.strength.dice, town.steps[-1].text
(4, 'the hits that count decide the damage: step loss or worse 1.62%, eliminated 0.08%')
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from wbk.checks import known_keywords
from wbk.dice import Dist, percent
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games.blitz import (
    ARMOR,
    ASSAULT,
    COUNT,
    COUNTED,
    DAMAGE,
    FIRE_TYPE,
    PROCEDURE,
    READINGS,
    STEP_WORDS,
    TARGET,
    Damage,
    FireProcedure,
    Piece,
    RolledHits,
    Strength,
    damage,
    fire_outcome,
    fire_procedure,
    fire_strength,
    hits_said,
    label,
    saving_throws,
)

#: The dice the "at least" curves run over, and the morales a leader's worth is shown for.
DICE_RANGE = range(1, 41)
LEADER_MORALES = range(6, 11)


def leader_throws(fire: str, target: str) -> bool:
    """Blitz Combat, Leader Saving Throws: a leader throws only against direct fire and
    bombardment on an unarmored target (an armored vehicle ignores those hits; AT fire and
    assault combat allow no saving throws)."""
    return fire in ("direct", "bombardment") and target != "armored_vehicle"


def verdict_step(procedure: FireProcedure) -> Step:
    """The last step of an attack: the damage the hits that count do."""
    d = procedure.damage
    worst = percent(d.at_least(Damage.STEP_LOSS))
    killed = percent(d.probability(Damage.ELIMINATED))
    said = f"the hits that count decide the damage: step loss or worse {worst}, eliminated {killed}"
    return Step(said, DAMAGE, about=("damage",))


def idle_readings(
    pieces: Sequence[int | Piece],
    *,
    fire: str,
    target: str,
    terrain: str,
    protection: str,
    non_vehicle_units: int,
    with_leader: bool,
) -> dict[str, str]:
    """The readings of an attack's strength and saving throws whose values all give the same
    answer for this attack, each with the reason: the crowded hex's for fewer than four units or
    other fire, the assault reading's but for assault combat on cover, the disrupted firers'
    unless some firers (not all) are disrupted, the saving throw bonus's without a leader who
    throws."""
    idle: dict[str, str] = {}
    if fire not in ("direct", "bombardment") or non_vehicle_units < 4:
        idle["crowded"] = "the readings differ only for 4 or more units under direct fire"
    if fire != "assault" or (terrain == "open" and protection == "none"):
        idle["assault"] = "the readings differ only for assault combat on cover"
    disrupted = [isinstance(p, Piece) and p.disrupted for p in pieces]
    if all(disrupted) or not any(disrupted):
        idle["disrupted_firers"] = "the readings differ only when some firers are disrupted"
    if not leader_throws(fire, target) or not with_leader:
        idle["save_bonus"] = "it matters only when a leader makes saving throws"
    return idle


@dataclass(frozen=True)
class Attack:
    """One attack worked out whole: its strength (Combat Strength Modifiers), the procedure to
    the damage, what it is aimed at, and the readings chosen against their default that matter
    to it (keyword -> value). Its steps run from the strength to the damage."""

    strength: Strength
    procedure: FireProcedure
    fire: str
    target: str
    armor: int | None
    leader_morale: int | None
    readings: dict[str, str]

    @property
    def steps(self) -> tuple[Step, ...]:
        return (*self.strength.steps, *self.procedure.steps, verdict_step(self.procedure))

    def differs_from(self, other: Attack) -> bool:
        """Whether ``other`` (under another reading) rolls other dice or does other damage."""
        return (self.strength.dice, self.procedure.damage) != (
            other.strength.dice,
            other.procedure.damage,
        )

    def _repr_html_(self) -> str:
        damage_table = self.procedure.damage._repr_html_()
        return f"{self.strength._repr_html_()}{steps_html(self.procedure.steps)}{damage_table}"


@known_keywords
def attack(
    strengths: Sequence[int | Piece],
    *,
    fire: str = "direct",
    engineer_strengths: Sequence[int | Piece] = (),
    range_hexes: int | None = None,
    target: str = "non_vehicle",
    armor: int | None = None,
    target_terrain: str = "open",
    protection: str = "none",
    target_non_vehicle_units: int = 0,
    leader_morale: int | None = None,
    crowded: str = "three_or_more",
    assault: str = "terrain_applies",
    disrupted_firers: str = "their_share",
    save_bonus: str = "whole_pairs",
) -> Attack:
    """Blitz Combat, from the Combat Strength Modifiers to the Damage: ``fire_strength`` of the
    firing pieces, then ``fire_procedure`` of its dice at ``target`` (``armor``: an armored
    vehicle's value; ``leader_morale``: a leader throwing for the hex), each keyword as they
    take it."""
    strength = fire_strength(
        strengths,
        fire=fire,
        engineer_strengths=engineer_strengths,
        range_hexes=range_hexes,
        target_non_vehicle_units=target_non_vehicle_units,
        target_terrain=target_terrain,
        protection=protection,
        crowded=crowded,
        assault=assault,
        disrupted_firers=disrupted_firers,
    )
    procedure = fire_procedure(
        strength.dice,
        fire=fire,
        target=target,
        armor=armor,
        leader_morale=leader_morale,
        save_bonus=save_bonus,
    )
    idle = idle_readings(
        [*strengths, *engineer_strengths],
        fire=fire,
        target=target,
        terrain=target_terrain,
        protection=protection,
        non_vehicle_units=target_non_vehicle_units,
        with_leader=leader_morale is not None,
    )
    chosen = dict(
        crowded=crowded,
        assault=assault,
        disrupted_firers=disrupted_firers,
        save_bonus=save_bonus,
    )
    readings = {
        keyword: value
        for keyword, value in chosen.items()
        if value != READINGS[keyword].default and keyword not in idle
    }
    return Attack(strength, procedure, fire, target, armor, leader_morale, readings)


@known_keywords
def rolled_hits(
    hits: int,
    *,
    fire: str = "direct",
    target: str = "non_vehicle",
    armor: int | None = None,
    leader_morale: int | None = None,
    rolls: Sequence[int] = (),
    save_bonus: str = "whole_pairs",
) -> RolledHits:
    """Blitz Combat, Armor Protection, Leader Saving Throws and Damage, the dice already down:
    ``hits`` sixes of ``fire`` at ``target``, and what armor (``armor``: an armored vehicle's
    value, against AT fire), a leader's saving throws (his ``leader_morale`` and the 2d6
    ``rolls``, one a hit, against direct fire and bombardment) or the target's kind take off,
    step by step to the damage.

    >>> rolled_hits(3, fire="at", target="armored_vehicle", armor=1).marks
    ('armor', '', '')
    """
    COUNT.check(hits, "hits rolled")
    FIRE_TYPE.check(fire, "fire type")
    TARGET.check(target, "target")
    said = f"{hits_said(hits)} rolled: every 6 is a hit"
    steps = [Step(said, PROCEDURE, about=("rolled", hits))]
    marks = [""] * hits
    if fire == "assault":
        said = "assault combat: every hit counts, no armor, no saving throws"
        steps.append(Step(said, ASSAULT, about=COUNTED))
    elif fire == "at" and target in ("non_vehicle", "wagon"):
        marks = ["no effect"] * hits
        kind = STEP_WORDS[target]
        said = f"AT fire: only vehicles other than wagons take AT hits; a {kind} takes none"
        steps.append(Step(said, ARMOR, about=COUNTED))
    elif fire == "at" and target == "armored_vehicle":
        if armor is None:
            raise WbkError("armor None: an armored vehicle needs its armor value")
        off = min(COUNT.check(armor, "armor value"), hits)
        marks = ["armor"] * off + [""] * (hits - off)
        said = f"AT fire: armor {armor} takes {hits_said(off)} off, {hits - off} left"
        steps.append(Step(said, ARMOR, about=("counted", "armor", armor)))
    elif fire == "at":
        said = "AT fire on an unarmored vehicle: no armor takes hits off"
        steps.append(Step(said, ARMOR, about=COUNTED))
    elif target == "armored_vehicle":
        marks = ["ignored"] * hits
        said = f"an armored vehicle ignores {label(fire)} hits"
        steps.append(Step(said, ARMOR, about=COUNTED))
    elif leader_morale is not None:
        if len(rolls) != hits:
            raise WbkError(
                f"leader's rolls {list(rolls)}: {hits_said(hits)} need {hits} 2d6 rolls "
                f"(one a hit), not {len(rolls)}"
            )
        throws = saving_throws(leader_morale, rolls, save_bonus=save_bonus)
        return RolledHits(throws.marks, throws.damage, (*steps, *throws.steps))
    remaining = sum(not mark for mark in marks)
    result = damage(remaining)
    said = f"{hits_said(remaining)} left: {result.effects}"
    steps.append(Step(said, DAMAGE, about=("damage", result)))
    return RolledHits(tuple(marks), result, tuple(steps))


@dataclass(frozen=True)
class Compared:
    """An answer beside its answer under another reading (``said``: that reading in words), as
    "compare with" shows them: what the other reading changes drawn dashed over the answer,
    whole or at one of the answer's steps."""

    answer: Attack | RolledHits
    other: Attack | RolledHits
    said: str


#: The leader table's columns, heading and numbers alike: names on the left, chances right.
LEADER_TABLE_STYLE = (
    "<style>.wbk-leaders th, .wbk-leaders td {text-align: right; padding: 0 0.6em}"
    " .wbk-leaders th:first-child, .wbk-leaders td:first-child {text-align: left}</style>"
)


@dataclass(frozen=True)
class LeaderCases:
    """What a leader is worth: the damage from ``dice`` of ``fire`` at ``target``, with no
    leader and with each leader's morale (by name: "no leader", "morale 6", ...). Shown as a
    table of the chances of a step loss or worse and of elimination."""

    dice: int
    fire: str
    target: str
    cases: dict[str, Dist]

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{name}</td><td>{html.escape(percent(d.at_least(Damage.STEP_LOSS)))}</td>"
            f"<td>{html.escape(percent(d.probability(Damage.ELIMINATED)))}</td></tr>"
            for name, d in self.cases.items()
        )
        note = ""
        if self.fire not in ("direct", "bombardment"):
            note += "<p>Leaders make no saving throws against this fire.</p>"
        if self.fire == "at" and self.target != "unarmored_vehicle":
            note += "<p>Only vehicles other than wagons take hits from AT fire.</p>"
        header = "<tr><th>leader</th><th>step loss or worse</th><th>eliminated</th></tr>"
        return f'{note}{LEADER_TABLE_STYLE}<table class="wbk-leaders">{header}{rows}</table>'


def leader_cases(dice: int, fire: str = "direct", target: str = "non_vehicle") -> LeaderCases:
    """Blitz Combat, Leader Saving Throws: the damage from ``dice`` of ``fire`` at ``target``
    with no leader and with a leader of each morale of ``LEADER_MORALES``.

    >>> cases = leader_cases(20).cases
    >>> [percent(cases[name].at_least(Damage.STEP_LOSS)) for name in ("no leader", "morale 10")]
    ['67.13%', '9.06%']
    """
    cases = {"no leader": fire_outcome(dice, fire=fire, target=target)}
    for morale in LEADER_MORALES:
        cases[f"morale {morale}"] = fire_outcome(
            dice, fire=fire, target=target, leader_morale=morale
        )
    return LeaderCases(dice, fire, target, cases)


@dataclass(frozen=True)
class DamageCurves:
    """The chance of each damage level or worse from ``fire`` at ``target`` (a leader of
    ``leader_morale`` throwing, if any) by the number of dice, and the chance of ``level`` or
    worse from AT fire at a vehicle by its armor ("unarmored vehicle", "armor 1", ...)."""

    fire: str
    target: str
    leader_morale: int | None
    level: Damage
    by_dice: dict[int, Dist]
    by_armor: dict[str, dict[int, Dist]]


def damage_curves(
    fire: str = "direct",
    target: str = "non_vehicle",
    *,
    leader_morale: int | None = None,
    level: int = Damage.STEP_LOSS,
) -> DamageCurves:
    """Blitz Combat, Fire Procedure to Damage: the damage from each number of dice of
    ``DICE_RANGE``, and AT fire's against each armor from none to 3."""
    if level not in list(Damage)[1:]:
        raise WbkError(f"level {level!r} is not one of {', '.join(map(str, list(Damage)[1:]))}")
    by_dice = {
        n: fire_outcome(n, fire=fire, target=target, leader_morale=leader_morale)
        for n in DICE_RANGE
    }
    by_armor = {
        "unarmored vehicle": {
            n: fire_outcome(n, fire="at", target="unarmored_vehicle") for n in DICE_RANGE
        }
    }
    for a in range(1, 4):
        by_armor[f"armor {a}"] = {
            n: fire_outcome(n, fire="at", target="armored_vehicle", armor=a) for n in DICE_RANGE
        }
    return DamageCurves(fire, target, leader_morale, Damage(level), by_dice, by_armor)
