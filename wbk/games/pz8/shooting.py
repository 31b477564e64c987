"""Pz 8, Shooting and Penetration and Damage: one attack's exact outcome, its chances, every
gun against every class of tank, and a shot on the table (range, line of sight, cover, then the
attack)."""

from __future__ import annotations

import functools
import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from wbk.checks import known_keywords
from wbk.dice import Dist, chance, d6
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html
from wbk.table import Sight, Table
from wbk.tableexact import inches_against, within

from .readings import COVER, NATURAL_SIX, OBSTACLE_SIGHT
from .tanks import (
    DAMAGE,
    FLAG,
    GUN,
    GUN_DICE,
    GUN_RANGES,
    GUNS,
    HIT_NUMBERS,
    SAVE_NUMBERS,
    SHAKEN,
    SHOOTING,
    TANK_CLASS,
    TANK_CLASSES,
    Tank,
    tank_on,
)


@dataclass(frozen=True, order=True)
class AttackOutcome:
    """What one attack does: the hits applied, whether the target is destroyed or hit but not
    destroyed (``shaken``), and whether a gun die passed the turn."""

    hits: int
    destroyed: bool
    shaken: bool
    turn_passes: bool

    def __post_init__(self) -> None:
        if isinstance(self.hits, bool) or not isinstance(self.hits, int) or not 0 <= self.hits <= 3:
            raise WbkError(f"hits {self.hits!r} is not a whole number from 0 to 3")
        for key in ("destroyed", "shaken", "turn_passes"):
            FLAG.check(getattr(self, key), key)
        if self.destroyed and self.shaken:
            raise WbkError("an attack outcome cannot be both destroyed and shaken")
        if (self.destroyed or self.shaken) and not self.hits:
            raise WbkError(f"hits {self.hits}: a target destroyed or shaken needs a hit")

    def __str__(self) -> str:
        what = "destroyed" if self.destroyed else "hit, not destroyed" if self.shaken else "no hit"
        return what + (", turn passes" if self.turn_passes else "")


@dataclass(frozen=True)
class AttackProcedure:
    """One attack's numbers and its exact outcome."""

    dice: int
    hit_number: int
    modifier: int
    save_number: int
    hit_chance: Fraction
    outcome: Dist
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return steps_html(self.steps) + self.outcome._repr_html_()


@known_keywords
def attack_procedure(
    gun: str,
    target_class: str,
    *,
    cover: bool = False,
    veteran: bool = False,
    shaken: bool = False,
    natural_six: str = "modified",
) -> AttackProcedure:
    """Pz 8, Shooting and Penetration and Damage: one attack, its numbers and working.

    Short guns roll 3 dice and every hit applies; medium guns roll 2 and apply one result (a hit
    if either die hits); long guns roll 1. Short and medium hit on 5-6, long on 4-6; -1 when the
    target is in cover, +1 for a veteran crew firing, -1 for a shaken firer (Optional Rule:
    Shaken). A die hits when its modified roll reaches the hit number (``natural_six``: see the
    module). Any gun die showing an unmodified 1 or 2 passes the turn. Each hit needs an armour
    save; one failed save destroys the target.
    """
    GUN.check(gun, "gun")
    TANK_CLASS.check(target_class, "target class")
    for given, name in ((cover, "cover"), (veteran, "veteran"), (shaken, "shaken")):
        FLAG.check(given, name)
    NATURAL_SIX.check(natural_six, "reading of a natural 6")
    dice, need, save = GUN_DICE[gun], HIT_NUMBERS[gun], SAVE_NUMBERS[target_class][gun]
    modifier = veteran - cover - shaken

    def hits(face: int) -> bool:
        return face + modifier >= need or (natural_six == "always_hits" and face == 6)

    steps = [
        Step(
            f'{gun} gun: range {GUN_RANGES[gun]}", '
            f"{dice} {'die' if dice == 1 else 'dice'}, hits on {need}+",
            SHOOTING,
        )
    ]
    named = [
        ("target in cover", -1, cover),
        ("veteran crew firing", +1, veteran),
        ("firer shaken", -1, shaken),
    ]
    for why, value, applies in named:
        if applies:
            steps.append(Step(f"{why}: {value:+d}", SHAKEN if why == "firer shaken" else SHOOTING))
    faces = [f for f in range(1, 7) if hits(f)]
    hit_chance = Fraction(len(faces), 6)
    if faces:
        rolls = "6" if faces[0] == 6 else f"{faces[0]}-6"
        why = (
            "a natural 6 always hits"
            if natural_six == "always_hits" and 6 + modifier < need
            else f"the roll {modifier:+d} must reach {need}"
        )
        steps.append(Step(f"each die hits on a {rolls} ({why}): {hit_chance}", SHOOTING))
    else:
        steps.append(Step(f"no die can hit: even a 6 {modifier:+d} is less than {need}", SHOOTING))
    if gun == "short":
        steps.append(Step("every hit applies", SHOOTING))
    elif gun == "medium":
        steps.append(Step("one result applies: a hit if either die hits", SHOOTING))
    steps.append(
        Step(
            "an unmodified 1 or 2 on any die passes the turn"
            + (", the unused die too" if gun == "medium" else ""),
            SHOOTING,
        )
    )
    steps.append(
        Step(
            f"a {target_class} tank hit by a {gun} gun saves on {save}+; a failed save destroys it",
            DAMAGE,
        )
    )
    steps.append(Step("a save roll of 1 or 2 hands over no turn", DAMAGE))

    one_die = d6.map(lambda face: (hits(face), face <= 2))

    def applied(rolls) -> tuple[int, bool]:
        n = sum(hit for hit, _ in rolls)
        return (n if gun == "short" else min(n, 1), any(low for _, low in rolls))

    rolled = Dist.joint(*[one_die] * dice).map(applied)

    def damage(result) -> Dist:
        n, low = result
        return (n @ (d6 < save)).map(
            lambda failed: AttackOutcome(n, failed > 0, n > 0 and failed == 0, low)
        )

    return AttackProcedure(dice, need, modifier, save, hit_chance, rolled.map(damage), tuple(steps))


@known_keywords
def attack(
    gun: str,
    target_class: str,
    *,
    cover: bool = False,
    veteran: bool = False,
    shaken: bool = False,
    natural_six: str = "modified",
) -> Dist:
    """Pz 8, Shooting and Penetration and Damage: the exact ``Dist`` of ``AttackOutcome`` of one
    attack (see ``attack_procedure``).

    >>> d = attack("long", "heavy")
    >>> d.map(lambda o: o.destroyed).probability(True)
    Fraction(1, 3)
    >>> d.map(lambda o: o.turn_passes).probability(True)
    Fraction(1, 3)
    """
    return attack_procedure(
        gun, target_class, cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six
    ).outcome


@dataclass(frozen=True)
class AttackChances:
    """One attack's chances, exactly: a hit applied, the target destroyed, hit but not destroyed
    (shaken, under the optional rule), and the turn passing."""

    hit: Fraction
    destroyed: Fraction
    shaken: Fraction
    turn_passes: Fraction

    @classmethod
    def of(cls, outcome: Dist) -> AttackChances:
        """The chances of an attack's ``outcome`` (``attack``'s ``Dist`` of ``AttackOutcome``)."""

        def chance_of(predicate) -> Fraction:
            return outcome.map(predicate).probability(True)

        return cls(
            chance_of(lambda o: o.hits > 0),
            chance_of(lambda o: o.destroyed),
            chance_of(lambda o: o.shaken),
            chance_of(lambda o: o.turn_passes),
        )


@known_keywords
def attack_chances(
    gun: str,
    target_class: str,
    *,
    cover: bool = False,
    veteran: bool = False,
    shaken: bool = False,
    natural_six: str = "modified",
) -> AttackChances:
    """Pz 8, Shooting and Penetration and Damage: the chances of one attack (see ``attack``).

    >>> attack_chances("short", "medium").destroyed
    Fraction(91, 216)
    >>> attack_chances("medium", "heavy").turn_passes
    Fraction(5, 9)
    """
    return AttackChances.of(
        attack(
            gun, target_class, cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six
        )
    )


@dataclass(frozen=True)
class AttackTable:
    """Every gun's one attack at every class of tank under one set of modifiers: the chances of
    each (``chances[gun, target class]``) and the working, the best and the worst of it."""

    cover: bool
    veteran: bool
    shaken: bool
    natural_six: str
    chances: Mapping[tuple[str, str], AttackChances]
    steps: tuple[Step, ...]
    #: no one step decides a table of every gun against every class (its picture's title says
    #: the best and the worst of it)
    deciding_step: ClassVar[None] = None

    @property
    def modifiers(self) -> str:
        """The modifiers in words: "target in cover, veteran crew", "no modifiers"."""
        return _modifiers(self.cover, self.veteran, self.shaken)

    def _repr_html_(self) -> str:
        header = "<tr><th>gun</th><th>target</th><th>destroyed</th><th>turn passes</th></tr>"
        rows = "".join(
            f"<tr><td>{gun}</td><td>{target}</td><td>{chance(one.destroyed)}</td>"
            f"<td>{chance(one.turn_passes)}</td></tr>"
            for (gun, target), one in self.chances.items()
        )
        said = html.escape(self.modifiers)
        return f"{steps_html(self.steps)}<p>One attack, {said}:</p><table>{header}{rows}</table>"


@known_keywords
def attack_table(
    *,
    cover: bool = False,
    veteran: bool = False,
    shaken: bool = False,
    natural_six: str = "modified",
) -> AttackTable:
    """Pz 8, Shooting and Penetration and Damage: one attack of every gun at every class of
    tank, the target in cover or not, a veteran or a shaken firer (see ``attack``).

    >>> table = attack_table(cover=True)
    >>> table.chances["short", "medium"].destroyed, table.chances["long", "heavy"].destroyed
    (Fraction(397, 1728), Fraction(2, 9))
    """
    for value, name in ((cover, "cover"), (veteran, "veteran"), (shaken, "shaken")):
        FLAG.check(value, name)
    NATURAL_SIX.check(natural_six, "reading of a natural 6")
    return _attack_table(cover, veteran, shaken, natural_six)


@functools.lru_cache(maxsize=64)
def _attack_table(cover: bool, veteran: bool, shaken: bool, natural_six: str) -> AttackTable:
    """``attack_table``, worked out once for each set of modifiers (they never change)."""
    chances = {
        (gun, target): attack_chances(
            gun, target, cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six
        )
        for gun in GUNS
        for target in TANK_CLASSES
    }
    kills = {key: one.destroyed for key, one in chances.items()}
    best, worst = max(kills, key=kills.__getitem__), min(kills, key=kills.__getitem__)
    dice = ", ".join(
        f"{gun} {count(GUN_DICE[gun], 'die', 'dice')} at {HIT_NUMBERS[gun]}+" for gun in GUNS
    )
    modifier = veteran - cover - shaken
    steps = [
        Step(f"each gun's dice and the roll a die needs: {dice}", SHOOTING),
        Step(
            f"the modifiers: {_modifiers(cover, veteran, shaken)}"
            + (f", {modifier:+d} to each die" if modifier else ""),
            SHAKEN if shaken else SHOOTING,
        ),
    ]
    if natural_six != NATURAL_SIX.default:
        cited = f"{SHOOTING}, {NATURAL_SIX.cited(natural_six)}"
        steps.append(Step(NATURAL_SIX.sentence(natural_six), cited))
    saves = "; ".join(
        f"{target} {'/'.join(f'{SAVE_NUMBERS[target][gun]}+' for gun in GUNS)}"
        for target in TANK_CLASSES
    )
    steps.append(Step(f"the saves against a short/medium/long gun: {saves}", DAMAGE))
    steps.append(
        Step(
            f"at best a {best[0]} gun destroys a {best[1]} tank {chance(kills[best])}; at worst "
            f"a {worst[0]} gun a {worst[1]} tank {chance(kills[worst])}",
            DAMAGE,
        )
    )
    passes = ", ".join(f"{gun} {chance(chances[gun, 'medium'].turn_passes)}" for gun in GUNS)
    steps.append(Step(f"a gun die of 1 or 2 passes the turn: {passes}", SHOOTING))
    return AttackTable(cover, veteran, shaken, natural_six, chances, tuple(steps))


def _modifiers(cover: bool, veteran: bool, shaken: bool) -> str:
    named = {"target in cover": cover, "veteran crew": veteran, "firer shaken": shaken}
    return ", ".join(words for words, on in named.items() if on) or "no modifiers"


@dataclass(frozen=True)
class Shot:
    """A shot on the table: range, line of sight, cover and, when the shot can be taken, the
    attack's exact outcome (``None`` otherwise)."""

    firer: str
    target: str
    distance: float
    in_range: bool
    visible_fraction: float
    in_cover: bool
    outcome: Dist | None
    steps: tuple[Step, ...]
    #: the line of sight measured on the table, for drawing
    sight: Sight | None = None
    #: the table the result was read off, for its picture
    table: Table | None = field(default=None, repr=False, compare=False)
    #: the distance in words, on the side of the gun's range it is on (exactly the range
    #: reads as it: ``wbk.tableexact.inches_against``)
    distance_words: str = ""
    #: the step the answer rests on: out of range, the range; another reason for no shot,
    #: that reason; a shot, what a hit does to the target (its save)
    deciding_step: Step | None = field(default=None, repr=False, compare=False)

    @property
    def can_shoot(self) -> bool:
        return self.outcome is not None

    def _repr_html_(self) -> str:
        verdict = "can shoot" if self.can_shoot else "cannot shoot"
        table = self.outcome._repr_html_() if self.outcome is not None else ""
        return f"<b>{self.firer} → {self.target}: {verdict}</b>{steps_html(self.steps)}{table}"


@known_keywords
def shot(
    table: Table,
    firer: str | Tank,
    target: str | Tank,
    *,
    natural_six: str = "modified",
    cover_reading: str = "partly_hidden",
    obstacle_sight: str = "as_marked",
) -> Shot:
    """Pz 8, Shooting on the table: is the target in range (centre to centre) and in sight, is it
    in cover, and what the attack does.

    The range is met exactly: the card's 12", 18" and 24" include the range itself, and the
    distance is compared by its square, each position the decimal it is written as
    (``wbk.tableexact``): a target exactly 18" away is in a medium gun's range, one a hair
    further is not, and the steps say so in that many digits.

    The card gives cover when "a shot is partially obscured": ``cover_reading="partly_hidden"``
    (the default) reads that as any part of the footprint hidden; ``"half_hidden"`` asks for at
    least half of it hidden (a common table habit, not the card's words).

    "Most obstacles block line of sight", says the card: a table file may mark an obstacle that
    does not (``blocks_sight = false``, a low wall a tank sees over but cannot drive through).
    ``obstacle_sight="as_marked"`` (the default) follows the marks; ``"all_block"`` lets every
    obstacle block, as if the table had no such marks.

    A wreck neither shoots nor is shot at; a tank does not shoot at its own side. The firer's
    shaken marker gives -1 (Optional Rule: Shaken).
    """
    a, b = tank_on(table, firer), tank_on(table, target)
    NATURAL_SIX.check(natural_six, "reading of a natural 6")
    COVER.check(cover_reading, "cover reading")
    OBSTACLE_SIGHT.check(obstacle_sight, "obstacle sight reading")
    reach = GUN_RANGES[a.gun]
    sight = table.line_of_sight(
        a, b, obstacle_sight=obstacle_sight, measured_against=reach, rule=SHOOTING
    )
    in_cover, steps = _cover(sight, cover_reading, b)
    squared = table.squared_distance(a, b)
    in_range = within(squared, reach)
    said = inches_against(squared, reach)
    steps.append(
        Step(
            f'the {a.gun} gun of {a.name!r} reaches {reach}": at {said} '
            f"the target is {'in' if in_range else 'out of'} range",
            SHOOTING,
            about=(a.name, b.name, f"range {a.gun}"),
        )
    )
    range_step = steps[-1]
    reasons = _no_shot_reasons(a, b, in_range, sight.has_los)
    steps += [Step(f"no shot: {why}", rule, about=(a.name, b.name)) for why, rule in reasons]
    deciding = range_step if not in_range else steps[-len(reasons)] if reasons else None
    outcome = None
    if not reasons:
        procedure = attack_procedure(
            a.gun,
            b.tank_class,
            cover=in_cover,
            veteran=a.is_veteran,
            shaken=a.shaken,
            natural_six=natural_six,
        )
        attack = _attack_steps_on_the_table(procedure, a, b)
        deciding = next(s for s in attack if s.rule == DAMAGE)
        steps += attack
        outcome = procedure.outcome
    return Shot(
        a.name,
        b.name,
        sight.distance,
        in_range,
        sight.visible_fraction,
        in_cover,
        outcome,
        tuple(steps),
        sight,
        table,
        said,
        deciding,
    )


def _cover(sight: Sight, cover_reading: str, target: Tank) -> tuple[bool, list[Step]]:
    """Shooting: whether the target is in cover under ``cover_reading``, and the steps of the
    line of sight that tell (with the half-hidden reading's verdict where it is asked)."""
    steps = list(sight.steps)
    in_cover = (
        sight.in_cover if cover_reading == "partly_hidden" else 0 < sight.seen <= Fraction(1, 2)
    )
    if cover_reading == "half_hidden" and sight.in_cover:
        verdict = "in cover" if in_cover else "in the open"
        steps.append(
            Step(
                f"read as cover only when half or more is hidden: {verdict}",
                SHOOTING,
                about=(target.name,),
            )
        )
    return in_cover, steps


def _no_shot_reasons(a: Tank, b: Tank, in_range: bool, has_los: bool) -> list[tuple[str, str]]:
    """Shooting, Penetration and Damage: why ``a`` cannot shoot at ``b``, each with its rule
    (none when it can)."""
    reasons = []
    if a.destroyed:
        reasons.append((f"{a.name!r} is a wreck", DAMAGE))
    if b.destroyed:
        reasons.append((f"{b.name!r} is already a wreck", DAMAGE))
    if a.side == b.side:
        reasons.append((f"{b.name!r} is on the same side", SHOOTING))
    if not in_range:
        reasons.append(("out of range", SHOOTING))
    if not has_los:
        reasons.append(("no line of sight", SHOOTING))
    return reasons


def _attack_steps_on_the_table(procedure: AttackProcedure, a: Tank, b: Tank) -> list[Step]:
    """The attack's steps, each about the firer's dice or about the target (its cover, its
    save), so that a picture of the shot can mark what a step is about."""
    return [
        Step(
            s.text, s.rule, about=(b.name,) if s.rule == DAMAGE or "target" in s.text else (a.name,)
        )
        for s in procedure.steps
    ]
