"""Streets of Stalingrad 9.67: the Close Assault Bonus, as exact distributions."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from numbers import Integral
from typing import Literal

from wbk.checks import choice as _choice
from wbk.checks import whole as _whole
from wbk.dice import Dist, percent
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games.stalingrad.crt import Crt, _crt_source, example_crt
from wbk.games.stalingrad.units import ASSUMED, Unit, _names, _rule, _units

#: 9.67: the kinds of unit that qualify an attack for the Close Assault Bonus.
ASSAULT_KINDS = ("infantry", "engineer")

#: When the defender's first fire (9.67) costs the attacker units, which does he give up?
#: "keep_bonus" (default): keep a qualifying unit where he can, then as much AF as he can;
#: "best_column": whatever leaves the attack on the highest column.
LOSS_CHOICES = ("keep_bonus", "best_column")
#: Do pinned attacking units still add their AF to the attack? "counts" (default: 9.67 still
#: calls a pinned unit an "attacking" unit) or "drops_out".
PINNED_ATTACK_READINGS = ("counts", "drops_out")
#: What the bonus is weighed against: without it, does the defender fire anyway? "own_column"
#: (default: 9.67 lets him fire *first* with the bonus, so he fires without it too, on his own
#: column, not first: his fire does not change the attack) or "none" (he does not fire at all).
FIRE_WITHOUT_BONUS_READINGS = ("own_column", "none")
#: The bonus attack's column after the defender's fire, while a qualifying unit is left:
#: "af_left" (default: one above the column of the AF left, as 9.67's "one higher than his
#: total AF" reads) or "announced" (the column announced before the fire, as the example's
#: "may use the 20-29 column" reads).
COLUMN_AFTER_FIRE_READINGS = ("af_left", "announced")
#: Each 9.67 reading in short words, once (keyword -> value -> words), the default first: for
#: the panels' controls and their "compare with" menu.
READING_WORDS: dict[str, dict[str, str]] = {
    "fire_without_bonus": {
        "own_column": "without the bonus he fires anyway, not first",
        "none": "without the bonus he does not fire",
    },
    "column_after_fire": {
        "af_left": "after the fire: one above the AF left",
        "announced": "after the fire: the column announced",
    },
}

#: What a step of the advice is about, for its picture: the attack's result or the defender's
#: fire, without or with the bonus (a step names these and the CRT column it reads).
ABOUT_ATTACK, ABOUT_FIRE = "the attack", "the defender's fire"
ABOUT_WITHOUT, ABOUT_WITH = "without the bonus", "with the bonus"

#: The most attacking units ``close_assault_bonus`` answers for (1,000 take about 2 s).
MOST_ATTACKING_UNITS = 1000

NO_FIRE = "no fire"
NO_ATTACK = "no attack"

LossChoice = Literal["keep_bonus", "best_column"]
PinnedAttack = Literal["counts", "drops_out"]
FireWithoutBonus = Literal["own_column", "none"]
ColumnAfterFire = Literal["af_left", "announced"]


@dataclass(frozen=True)
class AssaultOption:
    """One way of making the attack (with or without the bonus), as exact distributions.

    ``exchange`` is the whole exchange, as tuples (the defender's first fire, the attacker's
    outcome in words, attacking units lost, the attack's column, its result code, defending
    units lost); the other distributions are its parts, in that order. Without the bonus
    ``fire`` is the defender's fire on his own column, which does not change the attack, or "no
    fire" (reading ``fire_without_bonus="none"``); the column and result are "no attack" when
    nothing is left to attack with.
    """

    bonus: bool
    exchange: Dist
    fire: Dist
    attacker: Dist
    attacker_losses: Dist
    column: Dist
    result: Dist
    defender_losses: Dist

    def _repr_html_(self) -> str:
        title = "with the Close Assault Bonus" if self.bonus else "without the bonus"
        parts = [f"<b>{title}: the attack's result</b>{self.result._repr_html_()}"]
        if self.bonus:
            lost = self.attacker_losses._repr_html_()
            parts.append(f"<b>{title}: attacking units lost</b>{lost}")
        return "".join(parts)


@dataclass(frozen=True)
class CloseAssault:
    """9.67's question answered: may the attacker use the bonus, and is it worth it here?

    ``column``: the attack's own column; ``bonus_column``: one higher, announced with the
    bonus; ``fire_column``: the column of the defender's first fire with the bonus;
    ``plain_fire_column``: the column he fires on without the bonus (None: he does not fire).
    """

    allowed: bool
    column: str
    bonus_column: str | None
    fire_column: str | None
    without: AssaultOption
    with_bonus: AssaultOption | None
    verdict: str
    steps: tuple[Step, ...]
    plain_fire_column: str | None = None

    def _repr_html_(self) -> str:
        parts = [
            f"<b>{html.escape(self.verdict)}</b>",
            steps_html(self.steps),
            self.without._repr_html_(),
        ]
        if self.with_bonus is not None:
            parts.append(self.with_bonus._repr_html_())
        return "".join(parts)


def _qualifies(u: Unit, not_adjacent: frozenset[str]) -> bool:
    return u.kind in ASSAULT_KINDS and not u.pinned and not u.spent and u.name not in not_adjacent


def close_assault_bonus(
    attack: Sequence[Unit],
    defenders: Sequence[Unit],
    defence_df: int,
    *,
    crt: Crt | None = None,
    not_adjacent: Iterable[str] = (),
    drm: int = 0,
    fire_drm: int = 0,
    losses: LossChoice = "keep_bonus",
    pinned_attack: PinnedAttack = "counts",
    fire_without_bonus: FireWithoutBonus = "own_column",
    column_after_fire: ColumnAfterFire = "af_left",
) -> CloseAssault:
    """Streets of Stalingrad 9.67: should the attacker take the Close Assault Bonus here?

    ``attack``: the attacking units (their ``strength`` is their AF); ``defenders``: the units
    in the target hex; ``defence_df``: the defence's total DF. ``crt``: the table (wbk's
    ILLUSTRATIVE 1d6 table by default). ``not_adjacent``: names of attacking units that are not
    adjacent to the target hex. ``drm``, ``fire_drm``: die roll modifiers of the attack and of
    the defender's fire.

    The bonus is allowed when an unpinned, unspent infantry or engineer unit adjacent to the
    target attacks. Without it the attack rolls on its column. With it the defender first fires
    one column above his DF's; then the attack rolls one column above the column of the AF
    left, if a qualifying unit is still there, else on that column itself.

    Readings of 9.67's own words (the example settles neither):

    - ``fire_without_bonus``: what the bonus is weighed against. "own_column" (default): "the
      defender may DF first" implies he fires anyway without the bonus, on his own DF's column,
      just not first, so his fire costs the attacker units but does not change the attack;
      "none": without the bonus he does not fire, and all his fire is charged to the bonus.
    - ``column_after_fire``: the bonus attack's column while a qualifying unit is left after the
      fire. "af_left" (default): one above the column of the AF left ("a column one higher than
      his total AF"); "announced": the column announced before the fire (the example's "may
      use the 20-29 column", which shows no losses).
    - wbk assumes the defender always takes the first fire 9.67 says he "may" take.

    Named assumptions, where the supplement leans on rules not in wbk's texts:

    - the defender's first fire hits the attacking units as a whole: a pin pins them all, an
      "eliminate N" costs N of them, the attacker choosing which (``losses``: "keep_bonus", the
      default, keeps a qualifying unit where he can, then the most AF; "best_column" gives up
      whatever leaves the attack on the highest column);
    - pinned attackers still add their AF (``pinned_attack="counts"``; 9.67 still calls a
      pinned unit "attacking"), or not (``"drops_out"``); a DF of 0 fires nothing;
    - the verdict weighs units for units: use the bonus when it adds more to the defender's
      expected losses than the attacker expects to lose to the first fire.

    >>> attack = [Unit("I/194 GR", "German", "infantry", 6),
    ...           Unit("Pi 336", "German", "engineer", 4), Unit("StuG III", "German", "tank", 5)]
    >>> a = close_assault_bonus(attack, [Unit("3/1045", "Soviet", "infantry", 3)], 3)
    >>> a.with_bonus.column.probabilities()
    {'10-19': Fraction(1, 2), '20-29': Fraction(1, 2)}
    >>> a.with_bonus.attacker.probabilities()
    {'1 lost (Pi 336)': Fraction(1, 6), 'none': Fraction(1, 3), 'pinned': Fraction(1, 2)}
    >>> a.plain_fire_column, a.without.fire.probabilities()
    ('3', {'-': Fraction(1, 2), 'P': Fraction(1, 2)})
    """
    crt = example_crt() if crt is None else crt
    if not isinstance(crt, Crt):
        raise WbkError(f"crt {crt!r} is not a Crt (load one with Crt.load(path))")
    attack = _units(attack, "the attack")
    defenders = _units(defenders, "the defence")
    if not attack:
        raise WbkError("the attack has no units")
    if len(attack) > MOST_ATTACKING_UNITS:
        raise WbkError(
            f"the attack has {len(attack)} units: wbk answers for up to "
            f"{MOST_ATTACKING_UNITS:,} (the attacker's choice of losses takes too long beyond)"
        )
    if not defenders:
        raise WbkError("the defence has no units")
    defence_df = _whole(defence_df, "defence DF")
    if isinstance(not_adjacent, str) or not isinstance(not_adjacent, Iterable):
        raise WbkError(f"not_adjacent {not_adjacent!r} is not a list of unit names")
    not_adjacent = list(not_adjacent)
    for name in not_adjacent:
        if not isinstance(name, str):
            raise WbkError(f"not_adjacent: {name!r} is not a unit name")
    away = frozenset(not_adjacent)
    unknown = sorted(away - {u.name for u in attack})
    if unknown:
        raise WbkError(f"not_adjacent names {unknown[0]!r}, which is not an attacking unit")
    for value, what in ((drm, "die roll modifier"), (fire_drm, "fire die roll modifier")):
        if isinstance(value, bool) or not isinstance(value, Integral):
            raise WbkError(f"{what} {value!r} is not a whole number")
    _choice(losses, LOSS_CHOICES, "loss choice")
    _choice(pinned_attack, PINNED_ATTACK_READINGS, "reading of pinned attackers")
    _choice(fire_without_bonus, FIRE_WITHOUT_BONUS_READINGS, "reading of fire without the bonus")
    _choice(column_after_fire, COLUMN_AFTER_FIRE_READINGS, "reading of the column after the fire")
    sides = {u.side for u in attack}
    if len(sides) > 1:
        raise WbkError(f"the attack mixes sides: {', '.join(sorted(sides))}")
    enemies = [u for u in defenders if u.side in sides]
    if enemies:
        first = enemies[0]
        raise WbkError(f"defending unit {first.name!r} is on the attacker's side ({first.side})")

    r967 = _rule("9.67")
    first_band = crt._bands[0][0]

    def af(units: Sequence[Unit]) -> int:
        return sum(u.strength for u in units if pinned_attack == "counts" or not u.pinned)

    total = af(attack)
    column = crt.column_for(total)  # names a strength too low for the table
    bonus_column = crt.shift(column, 1)

    def column_of(strength: int, qualified: bool) -> str:
        """The bonus attack's column for ``strength`` AF left, a qualifying unit left or not."""
        if qualified and column_after_fire == "announced":
            return bonus_column
        if strength < first_band:
            return NO_ATTACK
        own = crt.column_for(strength)
        return crt.shift(own, 1) if qualified else own

    qualifying = [u for u in attack if _qualifies(u, away)]
    allowed = bool(qualifying)
    steps = [
        Step(f"on the {crt.name}", _crt_source(crt)),
        Step(
            f"attack strength {total} AF: the {column} column",
            r967,
            about=(ABOUT_ATTACK, ABOUT_WITHOUT, column),
        ),
    ]
    if pinned_attack == "drops_out" and any(u.pinned for u in attack):
        pinned = _names(u for u in attack if u.pinned)
        steps.append(Step(f"pinned attackers add no AF (reading 'drops_out'): {pinned}", ASSUMED))
    defender_count = len(defenders)
    has_fire = defence_df >= max(first_band, 1)
    own_fire_column = crt.column_for(defence_df) if has_fire else None
    plain_fire_column = own_fire_column if fire_without_bonus == "own_column" else None

    def split(exchange: Dist, bonus: bool) -> AssaultOption:
        return AssaultOption(
            bonus,
            exchange,
            exchange.map(lambda e: e[0]),
            exchange.map(lambda e: e[1]),
            exchange.map(lambda e: e[2]),
            exchange.map(lambda e: e[3]),
            exchange.map(lambda e: e[4]),
            exchange.map(lambda e: e[5]),
        )

    def losses_to(code: str, *, bonus: bool) -> tuple[list[Unit], list[Unit], str]:
        """(units lost, units left, the attacker's outcome in words) after the defender's fire
        ``code``; the attacker chooses his losses as ``losses`` says."""
        if code == NO_FIRE:
            return [], list(attack), "none"
        effect = crt.effect(code)
        pin = effect.pin

        def qualifies(u: Unit) -> bool:
            return not pin and _qualifies(u, away)

        def weight(u: Unit) -> int:
            return u.strength if pinned_attack == "counts" or not u.pinned else 0

        def value(strength: int, qualified: bool) -> tuple:
            if losses == "keep_bonus" or not bonus:
                return (qualified, strength)
            counted = 0 if pin and pinned_attack == "drops_out" else strength
            col = column_of(counted, qualified)
            rank = -1 if col == NO_ATTACK else crt.columns.index(col)
            return (rank, strength, qualified)

        n = effect.losses(len(attack))
        lost = _choose_losses(attack, n, weight, qualifies, value)
        survivors = [u for u in attack if u not in lost]
        if pin:
            survivors = [replace(u, pinned=True) for u in survivors]
        outcome = f"{len(lost)} lost ({_names(lost)})" if lost else "none"
        if pin and survivors:
            outcome = f"{outcome}, rest pinned" if lost else "pinned"
        return lost, survivors, outcome

    attack_result = crt.on_column(column, drm=drm)

    def plain_exchange(code: str) -> Dist:
        lost, _, outcome = losses_to(code, bonus=False)
        return attack_result.map(
            lambda result: (
                code,
                outcome,
                len(lost),
                column,
                result,
                crt.effect(result).losses(defender_count),
            )
        )

    plain_fire = (
        Dist.always(NO_FIRE)
        if plain_fire_column is None
        else crt.on_column(plain_fire_column, drm=fire_drm)
    )
    without = split(plain_fire.map(plain_exchange), False)
    if fire_without_bonus == "own_column" and own_fire_column is not None:
        steps.append(
            Step(
                f"without the bonus the defender's {defence_df} DF fires on its own column, "
                f"{own_fire_column}, but not first: it does not change the attack",
                f"{r967}, reading 'own_column'",
                about=(ABOUT_FIRE, ABOUT_WITHOUT, own_fire_column),
            )
        )
    elif fire_without_bonus == "none":
        steps.append(
            Step(
                "without the bonus the defender does not fire (reading 'none')",
                f"{r967}, {ASSUMED}",
                about=(ABOUT_FIRE, ABOUT_WITHOUT),
            )
        )

    if not allowed:
        why = [u for u in attack if u.kind in ASSAULT_KINDS]
        detail = f" ({_names(why)}: pinned, spent or not adjacent)" if why else ""
        steps.append(
            Step(f"no unpinned, unspent infantry or engineer unit adjacent{detail}: no bonus", r967)
        )
        verdict = (
            "No Close Assault Bonus here: no unpinned, unspent infantry or engineer unit is "
            "adjacent (9.67)."
        )
        return CloseAssault(
            False,
            column,
            None,
            None,
            without,
            None,
            verdict,
            tuple(steps),
            plain_fire_column,
        )

    verb = "qualifies" if len(qualifying) == 1 else "qualify"
    steps.append(Step(f"{_names(qualifying)} {verb}: the attacker may announce the bonus", r967))
    steps.append(
        Step(
            f"with the bonus the attack would roll on {bonus_column}"
            + (" (already the last column)" if bonus_column == column else ""),
            r967,
            about=(ABOUT_ATTACK, ABOUT_WITH, bonus_column),
        )
    )
    if own_fire_column is None:
        fire_column = None
        fire = Dist.always(NO_FIRE)
        steps.append(
            Step(f"the defender's {defence_df} DF has no column: he fires nothing first", ASSUMED)
        )
    else:
        fire_column = crt.shift(own_fire_column, 1)
        fire = crt.on_column(fire_column, drm=fire_drm)
        last = " (already the last column)" if fire_column == own_fire_column else ""
        steps.append(
            Step(
                f"the defender's {defence_df} DF fires first, one column higher: "
                f"{fire_column}{last}",
                r967,
                about=(ABOUT_FIRE, ABOUT_WITH, fire_column),
            )
        )
        steps.append(Step("the defender always takes the first fire 9.67 lets him take", ASSUMED))
    steps.append(
        Step(
            "his fire hits the attacking units as a whole: a pin pins them all, "
            "the attacker chooses the units lost",
            ASSUMED,
            about=(ABOUT_FIRE, ABOUT_WITH),
        )
    )
    steps.append(
        Step(
            "the attacker keeps a qualifying unit where he can"
            if losses == "keep_bonus"
            else "the attacker gives up the units whose loss leaves the best column "
            "(reading 'best_column')",
            ASSUMED,
            about=(ABOUT_FIRE, ABOUT_WITH),
        )
    )

    def bonus_exchange(code: str) -> Dist:
        lost, survivors, outcome = losses_to(code, bonus=True)
        qualified = any(_qualifies(u, away) for u in survivors)
        col = column_of(af(survivors), qualified) if survivors else NO_ATTACK
        if col == NO_ATTACK:
            return Dist.always((code, outcome, len(lost), NO_ATTACK, NO_ATTACK, 0))
        return crt.on_column(col, drm=drm).map(
            lambda result: (
                code,
                outcome,
                len(lost),
                col,
                result,
                crt.effect(result).losses(defender_count),
            )
        )

    with_bonus = split(fire.map(bonus_exchange), True)
    steps.append(
        Step(
            "after the fire: the announced column, "
            f"{bonus_column}, if a qualifying unit is left (reading 'announced'), "
            "else the column of the AF left"
            if column_after_fire == "announced"
            else "after the fire: one column above the column of the AF left if a qualifying "
            "unit is left, else the column of the AF left",
            r967,
            about=(ABOUT_ATTACK, ABOUT_WITH),
        )
    )
    verdict = _verdict(without, with_bonus, crt)
    steps.append(
        Step(
            "the verdict weighs units for units: the defending units the bonus adds to "
            "the expected losses against the attacking units it adds to the expected losses",
            ASSUMED,
        )
    )
    return CloseAssault(
        True,
        column,
        bonus_column,
        fire_column,
        without,
        with_bonus,
        verdict,
        tuple(steps),
        plain_fire_column,
    )


def _choose_losses(
    attack: list[Unit],
    n: int,
    weight: Callable[[Unit], int],
    qualifies: Callable[[Unit], bool],
    value: Callable[[int, bool], tuple],
) -> list[Unit]:
    """The ``n`` attacking units the attacker gives up: those whose loss leaves the best
    ``value(AF left, a qualifying unit left)``; among equals, the first set in name order (as
    ``itertools.combinations`` of the units sorted by name would list them).

    ``value`` never falls as the AF left grows, nor when a qualifying unit is left, so the best
    of any choice is one of two: the units of most weight, or those with one qualifying unit
    among them. Units are decided one at a time in name order (lost if a best choice still
    remains), so the choice takes about n² steps however many combinations there are.
    """
    if n >= len(attack):
        return list(attack)
    units = sorted(attack, key=lambda u: u.name)
    weights = [weight(u) for u in units]
    qualified = [qualifies(u) for u in units]

    def best(kept_weight: int, kept_qualifies: bool, free: range, keep: int) -> tuple | None:
        """The best value when ``keep`` of the ``free`` units are kept besides those kept."""
        if not 0 <= keep <= len(free):
            return None
        heaviest = sorted(free, key=lambda i: -weights[i])[:keep]
        strength = kept_weight + sum(weights[i] for i in heaviest)
        if kept_qualifies or any(qualified[i] for i in heaviest):
            return value(strength, True)
        found = value(strength, False)
        candidates = [weights[i] for i in free if qualified[i]]
        if candidates and keep:
            swapped = strength - weights[heaviest[-1]] + max(candidates)
            found = max(found, value(swapped, True))
        return found

    target = best(0, False, range(len(units)), len(units) - n)
    lost: list[int] = []
    kept_weight, kept_qualifies = 0, False
    for i in range(len(units)):
        needed = n - len(lost)
        if not needed:
            break
        free = range(i + 1, len(units))
        if best(kept_weight, kept_qualifies, free, len(free) - (needed - 1)) == target:
            lost.append(i)
        else:
            kept_weight += weights[i]
            kept_qualifies = kept_qualifies or qualified[i]
    return [units[i] for i in lost]


def _fmt(x: Fraction) -> str:
    return f"{float(x):.2f}"


def _verdict(without: AssaultOption, with_bonus: AssaultOption, crt: Crt) -> str:
    def hurt(option: AssaultOption) -> Fraction:
        hurts = option.result.map(lambda code: code != NO_ATTACK and crt.effect(code).hurts)
        return hurts.probability(True)

    before, after = without.defender_losses.mean(), with_bonus.defender_losses.mean()
    paid_before, paid_after = without.attacker_losses.mean(), with_bonus.attacker_losses.mean()
    gain, cost = after - before, paid_after - paid_before
    if paid_before and paid_before == paid_after:
        paid = f"the same {_fmt(paid_after)} attacking units lost on average"
    elif paid_before:
        paid = f"{_fmt(paid_before)} → {_fmt(paid_after)} attacking units lost on average"
    elif paid_after:
        paid = f"{_fmt(paid_after)} attacking units lost on average"
    else:
        paid = "no attacking units lost"
    detail = (
        f"the defender loses {_fmt(before)} → {_fmt(after)} units on average and is pinned or "
        f"worse {percent(hurt(without))} → {percent(hurt(with_bonus))} of the time, for {paid}"
    )
    if gain > cost:
        return f"Use the Close Assault Bonus: {detail}."
    if gain < cost:
        return f"Do not use the Close Assault Bonus: {detail}."
    return f"The Close Assault Bonus neither gains nor loses units on average: {detail}."
