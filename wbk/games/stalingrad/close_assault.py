"""Streets of Stalingrad 9.67: the Close Assault Bonus, as exact distributions."""

from __future__ import annotations

import functools
import html
import itertools
from collections.abc import Iterable, Sequence
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

NO_FIRE = "no fire"
NO_ATTACK = "no attack"

LossChoice = Literal["keep_bonus", "best_column"]
PinnedAttack = Literal["counts", "drops_out"]


@dataclass(frozen=True)
class AssaultOption:
    """One way of making the attack (with or without the bonus), as exact distributions.

    ``exchange`` is the whole exchange, as tuples (the defender's first fire, the attacker's
    outcome in words, attacking units lost, the attack's column, its result code, defending
    units lost); the other distributions are its parts, in that order. Without the bonus
    ``fire`` is "no fire" and the attacker's outcome "none"; the column and result are
    "no attack" when nothing is left to attack with.
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
    """9.67's question answered: may the attacker use the bonus, and is it worth it here?"""

    allowed: bool
    column: str
    bonus_column: str | None
    fire_column: str | None
    without: AssaultOption
    with_bonus: AssaultOption | None
    verdict: str
    steps: tuple[Step, ...]

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
    """
    crt = example_crt() if crt is None else crt
    if not isinstance(crt, Crt):
        raise WbkError(f"crt {crt!r} is not a Crt (load one with Crt.load(path))")
    attack = _units(attack, "the attack")
    defenders = _units(defenders, "the defence")
    if not attack:
        raise WbkError("the attack has no units")
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
    sides = {u.side for u in attack}
    if len(sides) > 1:
        raise WbkError(f"the attack mixes sides: {', '.join(sorted(sides))}")
    enemies = [u for u in defenders if u.side in sides]
    if enemies:
        first = enemies[0]
        raise WbkError(f"defending unit {first.name!r} is on the attacker's side ({first.side})")

    r967 = _rule("9.67")

    def af(units: Sequence[Unit]) -> int:
        return sum(u.strength for u in units if pinned_attack == "counts" or not u.pinned)

    def column_of(units: Sequence[Unit], bonus: bool) -> str:
        strength = af(units)
        if not units or strength < crt._bands[0][0]:
            return NO_ATTACK
        column = crt.column_for(strength)
        if bonus and any(_qualifies(u, away) for u in units):
            return crt.shift(column, 1)
        return column

    total = af(attack)
    column = crt.column_for(total)  # names a strength too low for the table
    qualifying = [u for u in attack if _qualifies(u, away)]
    allowed = bool(qualifying)
    steps = [
        Step(f"on the {crt.name}", _crt_source(crt)),
        Step(f"attack strength {total} AF: the {column} column", r967),
    ]
    if pinned_attack == "drops_out" and any(u.pinned for u in attack):
        pinned = _names(u for u in attack if u.pinned)
        steps.append(Step(f"pinned attackers add no AF (reading 'drops_out'): {pinned}", ASSUMED))
    defender_count = len(defenders)

    def attack_outcome(units: Sequence[Unit]) -> Dist:
        """(column, result code, defenders lost) of the attack made by ``units``."""
        col = column_of(units, bonus=True)
        if col == NO_ATTACK:
            return Dist.always((NO_ATTACK, NO_ATTACK, 0))
        return crt.on_column(col, drm=drm).map(
            lambda code: (col, code, crt.effect(code).losses(defender_count))
        )

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

    plain = crt.on_column(column, drm=drm).map(
        lambda code: (NO_FIRE, "none", 0, column, code, crt.effect(code).losses(defender_count))
    )
    without = split(plain, False)

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
        return CloseAssault(False, column, None, None, without, None, verdict, tuple(steps))

    bonus_column = crt.shift(column, 1)
    verb = "qualifies" if len(qualifying) == 1 else "qualify"
    steps.append(Step(f"{_names(qualifying)} {verb}: the attacker may announce the bonus", r967))
    steps.append(
        Step(
            f"with the bonus the attack would roll on {bonus_column}"
            + (" (already the last column)" if bonus_column == column else ""),
            r967,
        )
    )
    if defence_df == 0 or defence_df < crt._bands[0][0]:
        fire_column = None
        fire = Dist.always(NO_FIRE)
        steps.append(
            Step(f"the defender's {defence_df} DF has no column: he fires nothing first", ASSUMED)
        )
    else:
        own = crt.column_for(defence_df)
        fire_column = crt.shift(own, 1)
        fire = crt.on_column(fire_column, drm=fire_drm)
        last = " (already the last column)" if fire_column == own else ""
        steps.append(
            Step(
                f"the defender's {defence_df} DF fires first, one column higher: "
                f"{fire_column}{last}",
                r967,
            )
        )
    steps.append(
        Step(
            "his fire hits the attacking units as a whole: a pin pins them all, "
            "the attacker chooses the units lost",
            ASSUMED,
        )
    )
    steps.append(
        Step(
            "the attacker keeps a qualifying unit where he can"
            if losses == "keep_bonus"
            else "the attacker gives up the units whose loss leaves the best column "
            "(reading 'best_column')",
            ASSUMED,
        )
    )

    def loss_key(left: list[Unit], pin: bool) -> tuple:
        keeps = not pin and any(_qualifies(u, away) for u in left)
        col = column_of([replace(u, pinned=True) for u in left] if pin else left, bonus=True)
        rank = -1 if col == NO_ATTACK else crt.columns.index(col)
        return (keeps, af(left)) if losses == "keep_bonus" else (rank, af(left), keeps)

    def after_fire(code: str) -> Dist:
        if code == NO_FIRE:
            survivors, lost = list(attack), []
            outcome = "none"
        else:
            effect = crt.effect(code)
            n = effect.losses(len(attack))
            lost = _choose_losses(attack, n, functools.partial(loss_key, pin=effect.pin))
            survivors = [u for u in attack if u not in lost]
            if effect.pin:
                survivors = [replace(u, pinned=True) for u in survivors]
            outcome = "none"
            if lost:
                outcome = f"{len(lost)} lost ({_names(lost)})"
            if effect.pin and survivors:
                outcome = f"{outcome}, rest pinned" if lost else "pinned"
        return attack_outcome(survivors).map(lambda a: (code, outcome, len(lost), *a))

    with_bonus = split(fire.map(after_fire), True)
    steps.append(
        Step(
            "after the fire: the bonus column if a qualifying unit is left, "
            "else the column of the AF left",
            r967,
        )
    )
    verdict = _verdict(without, with_bonus, crt)
    steps.append(
        Step(
            "the verdict weighs units for units: the defending units the bonus adds to "
            "the expected losses against the attacking units expected lost",
            ASSUMED,
        )
    )
    return CloseAssault(
        True, column, bonus_column, fire_column, without, with_bonus, verdict, tuple(steps)
    )


def _choose_losses(attack: list[Unit], n: int, key) -> list[Unit]:
    """The ``n`` attacking units the attacker gives up to the defender's first fire: those whose
    loss leaves the best ``key(units left)``; among equals, the first by name."""
    if n >= len(attack):
        return list(attack)
    best, best_key = [], None
    for lost in itertools.combinations(sorted(attack, key=lambda u: u.name), n):
        k = key([u for u in attack if u not in lost])
        if best_key is None or k > best_key:
            best, best_key = list(lost), k
    return best


def _fmt(x: Fraction) -> str:
    return f"{float(x):.2f}"


def _verdict(without: AssaultOption, with_bonus: AssaultOption, crt: Crt) -> str:
    def hurt(option: AssaultOption) -> Fraction:
        hurts = option.result.map(lambda code: code != NO_ATTACK and crt.effect(code).hurts)
        return hurts.probability(True)

    before, after = without.defender_losses.mean(), with_bonus.defender_losses.mean()
    cost = with_bonus.attacker_losses.mean()
    gain = after - before
    detail = (
        f"the defender loses {_fmt(before)} → {_fmt(after)} units on average and is pinned or "
        f"worse {percent(hurt(without))} → {percent(hurt(with_bonus))} of the time, for "
        + (f"{_fmt(cost)} attacking units lost on average" if cost else "no attacking units lost")
    )
    if gain > cost:
        return f"Use the Close Assault Bonus: {detail}."
    if gain < cost:
        return f"Do not use the Close Assault Bonus: {detail}."
    return f"The Close Assault Bonus neither gains nor loses units on average: {detail}."
