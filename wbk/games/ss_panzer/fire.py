"""SS Panzer errata 9.5 (and 13.2), fire: the dice of a unit's fire under its conditions
(``fire_dice``), of the Soviet artillery (``soviet_artillery_dice``), the hits they roll
(``hits``), the exact distribution of the effect on the target (``fire_effect``; with the dice,
``fire_outcome``) and the chance of a step loss explained (``step_loss_chance``)."""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from wbk.checks import Input, known_keywords
from wbk.checks import choice as _choice
from wbk.checks import whole as _whole
from wbk.dice import Dist, d6, percent
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html
from wbk.games.ss_panzer.data import GameData, _data, _rule
from wbk.games.ss_panzer.readings import ZOC_FIRE

ZocReading = Literal["largest", "separate"]
#: What the rules of fire take, declared once (the quiz's keys are these): the special
#: conditions of a fire, by their names in the game data, and the number a roll hits at or under.
CONDITIONS = Input.list(Input.text(), most=20)
HIT_NUMBER = Input.whole(0, 6)


@dataclass(frozen=True)
class FireDice:
    """The fires a unit makes at one target: the dice of each, and why. ``rolled_by`` names
    what gives dice (each condition, or the base, or the artillery's side) with its dice; a
    step is ``about`` those names and the fires' (``fire_names``), as a chart of the dice
    marks them."""

    fires: tuple[int, ...]
    steps: tuple[Step, ...]
    rolled_by: tuple[tuple[str, int], ...] = ()

    @property
    def fire_names(self) -> tuple[str, ...]:
        """Each fire's name in a step's ``about`` and on a chart: "the fire", or "fire 1"..."""
        if len(self.fires) == 1:
            return ("the fire",)
        return tuple(f"fire {k}" for k in range(1, len(self.fires) + 1))

    @property
    def words(self) -> str:
        """The dice of each fire in words: "4 dice", "3 dice and 4 dice"."""
        return " and ".join(count(n, "die", "dice") for n in self.fires)

    def _repr_html_(self) -> str:
        return f"<b>{self.words}</b>{steps_html(self.steps)}"


def condition_words(condition: str) -> str:
    """A fire condition as the rules write it: "kill zone", "entering ZOC"."""
    return condition.replace("_", " ").replace("zoc", "ZOC")


@known_keywords
def fire_dice(
    conditions: Sequence[str] = (),
    *,
    reading: ZocReading = "largest",
    data: GameData | None = None,
) -> FireDice:
    """Errata 9.5: the dice for fire under the given conditions ("kill_zone", "entering_zoc" in
    wbk's example data).

    ``reading="largest"`` (the unofficial errata 9.5): when several conditions apply, one fire
    with the single largest number of dice any of them gives, never the sum. ``reading="separate"``
    (the official ZOC fire rule): each condition is a fire of its own, resolved separately.

    >>> fire_dice(["kill_zone", "entering_zoc"]).fires
    (4,)
    """
    data = _data(data)
    separate = ZOC_FIRE.check(reading, "reading") == "separate"
    conditions = list(CONDITIONS.check(conditions, "fire conditions"))
    for c in conditions:
        if c not in data.condition_dice:
            raise WbkError(
                f"fire condition {c!r} is not one of {', '.join(sorted(data.condition_dice))}"
            )
        if conditions.count(c) > 1:
            raise WbkError(f"fire condition {c!r} is listed twice")
    rule = _rule("9.5")
    if not conditions:
        base = "no special condition"
        return FireDice(
            (data.base_dice,),
            (
                Step(
                    f"{base}: {count(data.base_dice, 'die', 'dice')}",
                    data.source("base_dice"),
                    about=(base, "the fire"),
                ),
            ),
            ((base, data.base_dice),),
        )
    rolled_by = tuple((condition_words(c), data.condition_dice[c]) for c in conditions)
    last_alone = not separate and len(conditions) == 1  # its step is the verdict too
    each = [
        Step(
            f"{name}: {count(dice, 'die', 'dice')}",
            data.source("conditions"),
            about=(name, "the fire") if last_alone else (name,),
        )
        for name, dice in rolled_by
    ]
    if separate:
        fires = tuple(data.condition_dice[c] for c in conditions)
        names = FireDice(fires, (), rolled_by).fire_names
        return FireDice(
            fires,
            (
                *each,
                Step(
                    "each fire resolved separately (official ZOC fire rule)",
                    "SS Panzer official errata",
                    about=names,
                ),
            ),
            rolled_by,
        )
    largest = max(data.condition_dice[c] for c in conditions)
    steps = [*each]
    if len(conditions) > 1:
        chosen = next(name for name, dice in rolled_by if dice == largest)
        steps.append(
            Step(
                f"conditions are not cumulative: the largest, {count(largest, 'die', 'dice')}",
                rule,
                about=(chosen, "the fire"),
            )
        )
    return FireDice((largest,), tuple(steps), rolled_by)


def soviet_artillery_dice(phase: Literal["bombardment", "action"]) -> FireDice:
    """Errata 9.5 and 13.2: Soviet artillery rolls 2 dice, firing its bombardment (barrage) side
    in the Bombardment Phase and its support side in the Action Phase."""
    sides = {"bombardment": "bombardment (barrage) side", "action": "support side"}
    chosen = _choice(phase, tuple(sides), "phase")
    side = f"the {sides[chosen]}"
    return FireDice(
        (2,),
        (
            Step(f"{chosen} phase: {side} fires", _rule("13.2"), about=(side,)),
            Step("Soviet artillery rolls 2 dice", _rule("9.5"), about=(side, "the fire")),
        ),
        ((side, 2),),
    )


class FireEffect(enum.IntEnum):
    """The worst effect of a unit's fire on one target."""

    NO_EFFECT = 0
    SUPPRESSED = 1  # at least one hit
    STEP_LOSS = (
        2  # the game data's step_loss_hits from one firing unit (two, by the official errata)
    )


#: The most dice wbk rolls for one target, and the most fires (an SS Panzer fire rolls a
#: handful of dice): beyond them an exact distribution takes minutes, not milliseconds.
MOST_DICE = 1_000
MOST_FIRES = 1_000


def _at_most(value: int, most: int, what: str) -> int:
    if value > most:
        raise WbkError(f"{value:,} {what} are over the limit of {most:,}")
    return value


def hits(dice: int, hit_number: int, *, data: GameData | None = None) -> Dist:
    """Hits from ``dice`` d6, a hit being a roll at or under ``hit_number`` (0 to 6); with the
    official errata's rule in the game data (``one_always_hits``), a 1 always hits.

    >>> hits(2, 0).probability(0)
    Fraction(25, 36)
    """
    dice = _at_most(_whole(dice, "number of dice"), MOST_DICE, "dice")
    HIT_NUMBER.check(hit_number, "hit number")
    one_hits = _data(data).one_always_hits
    return dice @ d6.map(lambda r: (one_hits and r == 1) or r <= hit_number)


def fire_effect(
    fires: FireDice | Sequence[int], hit_number: int, *, data: GameData | None = None
) -> Dist:
    """The exact distribution of ``FireEffect`` on one target. With the official errata's rules
    in the game data, each fire's hits count on their own (fire from different units is never
    combined: ``separate_fires``) and ``step_loss_hits`` (two) hits from one fire are a step loss.

    >>> fire_effect([2], 3).probability(FireEffect.STEP_LOSS)
    Fraction(1, 4)
    """
    data = _data(data)
    HIT_NUMBER.check(hit_number, "hit number")
    if isinstance(fires, FireDice):
        dice = fires.fires
    elif isinstance(fires, (str, bytes)) or not isinstance(fires, Iterable):
        raise WbkError(f"fires {fires!r} is not a list of dice, one number a fire")
    else:
        listed = list(itertools.islice(fires, MOST_FIRES + 1))
        _at_most(len(listed), MOST_FIRES, "fires")
        dice = tuple(_whole(n, "number of dice in a fire") for n in listed)
    _at_most(sum(dice), MOST_DICE, "dice in all the fires together")
    if not data.separate_fires:
        dice = (sum(dice),)
    by_dice = {
        n: hits(n, hit_number, data=data).map(
            lambda h: FireEffect.STEP_LOSS if h >= data.step_loss_hits else FireEffect(min(h, 1))
        )
        for n in set(dice)
    }
    effect = Dist.always(FireEffect.NO_EFFECT)
    for n in dice:
        effect = effect.combine(by_dice[n], max)
    return effect


@dataclass(frozen=True)
class FireOutcome:
    """A fire at one target, as errata 9.5 works it out: its dice and how they are found
    (``fires``, whose steps are the outcome's), the hit number, and the exact distribution of
    ``FireEffect`` on the target (``effect``)."""

    fires: FireDice
    hit_number: int
    effect: Dist

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.fires.steps

    def _repr_html_(self) -> str:
        return self.fires._repr_html_() + self.effect._repr_html_()


def fire_outcome(fires: FireDice, hit_number: int, *, data: GameData | None = None) -> FireOutcome:
    """Errata 9.5: what a fire (``fire_dice``'s or ``soviet_artillery_dice``'s answer) does to
    one target hit at or under ``hit_number``: its dice beside the exact distribution of its
    effect (``fire_effect``).

    >>> outcome = fire_outcome(fire_dice(["kill_zone", "entering_zoc"]), 3)
    >>> outcome.fires.fires, outcome.effect.probability(FireEffect.STEP_LOSS)
    ((4,), Fraction(11, 16))
    """
    if not isinstance(fires, FireDice):
        raise WbkError(f"fires {fires!r} is not a FireDice (fire_dice's answer)")
    return FireOutcome(fires, hit_number, fire_effect(fires, hit_number, data=data))


@dataclass(frozen=True)
class StepLossChance:
    """The chance a unit's fire costs its target a step, with the distribution of
    ``FireEffect`` it comes from and the steps, each citing the source the game data names for
    its fact (``GameData.source``)."""

    chance: Fraction
    effect: Dist
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return f"<b>a step loss {percent(self.chance)}</b>{steps_html(self.steps)}"


def step_loss_chance(
    fires: FireDice | Sequence[int], hit_number: int, *, data: GameData | None = None
) -> StepLossChance:
    """The chance of a step loss on one target (``fire_effect`` at least ``STEP_LOSS``), with
    steps that say the game data's fire facts and cite where the data says each comes from: a 1
    always hitting, fires resolved separately and the hits from one fire that cost a step
    (wbk's data: the official errata, not the unofficial 9.5).

    >>> r = step_loss_chance([2], 3)
    >>> r.chance
    Fraction(1, 4)
    >>> print(*r.steps, sep="\\n")
    a hit is a roll of 3 or less; a 1 always hits [SS Panzer official errata (Command Magazine)]
    a step loss (2 hits from one fire): 1/4 = 25.00% [SS Panzer official errata (Command Magazine)]
    """
    data = _data(data)
    if not isinstance(fires, (FireDice, str, bytes)) and isinstance(fires, Iterable):
        fires = list(itertools.islice(fires, MOST_FIRES + 1))  # read once, checked below
    effect = fire_effect(fires, hit_number, data=data)
    p = effect.at_least(FireEffect.STEP_LOSS)
    dice = fires.fires if isinstance(fires, FireDice) else tuple(fires)
    one = "; a 1 always hits" if data.one_always_hits else ""
    steps = [Step(f"a hit is a roll of {hit_number} or less{one}", data.source("one_always_hits"))]
    if len(dice) > 1:
        said = (
            "each fire's hits count on their own, never combined"
            if data.separate_fires
            else "the fires' hits are counted together"
        )
        steps.append(Step(said, data.source("separate_fires")))
    steps.append(
        Step(
            f"a step loss ({data.step_loss_hits} hits from one fire): {p} = {percent(p)}",
            data.source("step_loss_hits"),
        )
    )
    return StepLossChance(p, effect, tuple(steps))
