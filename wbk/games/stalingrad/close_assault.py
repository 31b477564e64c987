"""Streets of Stalingrad 9.67: the Close Assault Bonus, as exact distributions."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from wbk.checks import known_keywords
from wbk.dice import Dist, chance, percent
from wbk.errors import WbkError
from wbk.explain import Step, steps_html

from .crt import (
    TOTAL,
    Crt,
    _crt_source,
    chances_in_words,
    code_label,
    codes_mild_to_severe,
    dist_table,
    example_crt,
    signed_whole,
)
from .readings import COLUMN_AFTER_FIRE, FIRE_WITHOUT_BONUS, LOSSES, PINNED_ATTACK, checked
from .units import ASSUMED, Unit, checked_units, cite, named

#: 9.67: the kinds of unit that qualify an attack for the Close Assault Bonus.
ASSAULT_KINDS = ("infantry", "engineer")

#: What a step of the advice is about, for its picture: the attack's result or the defender's
#: fire, without or with the bonus (a step names these and the CRT column it reads).
ABOUT_ATTACK, ABOUT_FIRE = "the attack", "the defender's fire"
ABOUT_WITHOUT, ABOUT_WITH = "without the bonus", "with the bonus"

#: The most attacking units ``close_assault_bonus`` answers for (1,000 take about 2 s).
MOST_ATTACKING_UNITS = 1000

#: The outcomes of a fire or an attack that does not happen: not a result code, nor a column.
NO_FIRE = "no fire"
NO_ATTACK = "no attack"


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


@dataclass(frozen=True)
class CloseAssault:
    """9.67's question answered: may the attacker use the bonus, and is it worth it here?

    ``column``: the attack's own column; ``bonus_column``: one higher, announced with the
    bonus; ``fire_column``: the column of the defender's first fire with the bonus;
    ``plain_fire_column``: the column he fires on without the bonus (None: he does not fire);
    ``crt``: the table it was read on; ``readings``: the readings it was worked out under, by
    keyword (wbk's ``losses`` among them).
    """

    allowed: bool
    column: str
    bonus_column: str | None
    fire_column: str | None
    without: AssaultOption
    with_bonus: AssaultOption | None
    verdict: str
    steps: tuple[Step, ...]
    crt: Crt
    readings: Mapping[str, str]
    plain_fire_column: str | None = None

    def _repr_html_(self) -> str:
        """The verdict, its steps, the attack's result without and with the bonus, and what
        the first fire leaves of the attack."""
        crt = self.crt
        results = {"without the bonus": self.without.result}
        if self.with_bonus is not None:
            results["with the bonus"] = self.with_bonus.result
        codes = [*codes_mild_to_severe(crt), NO_ATTACK]
        order = [c for c in codes if any(d.probability(c) for d in results.values())]
        labels = {code: code_label(crt, code) for code in crt.effects}
        parts = [
            f"<p><b>{html.escape(self.verdict)}</b></p>",
            steps_html(self.steps),
            "<p>The attack's result:</p>",
            dist_table(results, order=order, labels=labels),
        ]
        if self.with_bonus is not None:
            columns = self.with_bonus.column
            parts += [
                "<p>The defender's first fire, and what it leaves of the attack:</p>",
                dist_table({"the attacking units": self.with_bonus.attacker}),
                dist_table({"the attack's column": columns}, order=column_order(crt, columns)),
            ]
        return "".join(parts)


def column_order(crt: Crt, columns: Dist) -> list[str]:
    """The columns ``columns`` may give, in the table's order (left to right), "no attack"
    last: never in the order of their names ("10-19" before "4-9")."""
    possible = [c for c in crt.columns if columns.probability(c)]
    return possible + [o for o in columns.outcomes() if o not in possible]


def in_words(dist: Dist, crt: Crt | None = None, *, what: str = "") -> str:
    """A distribution in one line, each outcome with its exact chance: "pinned: 1/2 (50%), ...",
    each outcome after ``what`` when given ("column 10-19: 1/2 (50%)"); given the ``crt``, its
    result codes from mild to severe, each saying what it does.

    >>> print(in_words(Dist({"10-19": 1, NO_ATTACK: 1}), what="column"))
    column 10-19: 1/2 (50.00%), no attack: 1/2 (50.00%)
    """
    if crt is not None:
        return chances_in_words(crt, dist)
    if not isinstance(dist, Dist):
        raise WbkError(f"{dist!r} is not a Dist")
    words = {NO_ATTACK, NO_FIRE}  # not a column: no "column no attack"
    return ", ".join(
        f"{what} {o}: {chance(p)}" if what and o not in words else f"{o}: {chance(p)}"
        for o, p in dist.probabilities().items()
    )


def _qualifies(u: Unit, not_adjacent: frozenset[str]) -> bool:
    return u.kind in ASSAULT_KINDS and not u.pinned and not u.spent and u.name not in not_adjacent


@known_keywords
def close_assault_bonus(
    attack: Sequence[Unit],
    defenders: Sequence[Unit],
    defence_df: int,
    *,
    crt: Crt | None = None,
    not_adjacent: Iterable[str] = (),
    drm: int = 0,
    fire_drm: int = 0,
    losses: str = LOSSES.default,
    pinned_attack: str = PINNED_ATTACK.default,
    fire_without_bonus: str = FIRE_WITHOUT_BONUS.default,
    column_after_fire: str = COLUMN_AFTER_FIRE.default,
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

    Readings of 9.67's own words:

    - ``fire_without_bonus``: what the bonus is weighed against. "own_column" (default): "the
      defender may DF first" implies he fires anyway without the bonus, on his own DF's column,
      just not first, so his fire costs the attacker units but does not change the attack;
      "none": without the bonus he does not fire, and all his fire is charged to the bonus.
    - ``column_after_fire``, with a qualifying unit left after the fire: "announced" (default:
      the example's closing sentence keeps the 20-29 column) or "af_left", one above the AF
      left. GR 6 + Pi 4 + StuG 5 against 9 DF, after "eliminate 2": 20-29 against 10-19.
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
    readings = checked(
        losses=losses,
        pinned_attack=pinned_attack,
        fire_without_bonus=fire_without_bonus,
        column_after_fire=column_after_fire,
    )
    a = _Attack.checked(attack, defenders, defence_df, crt, not_adjacent, drm, fire_drm, readings)
    steps = _strength_steps(a)
    without, plain_fire_column = _without_bonus(a, steps)
    qualifying = [u for u in a.units if _qualifies(u, a.away)]
    if not qualifying:
        return _no_bonus(a, without, steps, plain_fire_column)
    fire_column, fire = _first_fire(a, qualifying, steps)
    with_bonus = _split(fire.map(a.bonus_exchange), True)
    steps.append(_after_fire_step(a))
    steps.append(
        Step(
            "the verdict weighs units for units: the defending units the bonus adds to "
            "the expected losses against the attacking units it adds to the expected losses",
            ASSUMED,
        )
    )
    return CloseAssault(
        True,
        a.column,
        a.bonus_column,
        fire_column,
        without,
        with_bonus,
        _verdict(without, with_bonus, a.crt),
        tuple(steps),
        a.crt,
        a.readings,
        plain_fire_column,
    )


@dataclass
class _Attack:
    """An attack ``close_assault_bonus`` has checked, and how 9.67 reads it: the AF its units
    count for, the columns that AF reads, the units its attacker gives up to the defender's
    fire, and each exchange of fire and attack."""

    crt: Crt
    units: list[Unit]
    defender_count: int
    defence_df: int
    away: frozenset[str]
    drm: int
    fire_drm: int
    #: the readings, checked, by keyword: ``losses``, ``pinned_attack``, ``fire_without_bonus``
    #: and ``column_after_fire``
    readings: dict[str, str]
    column: str = field(init=False)
    bonus_column: str = field(init=False)

    def __post_init__(self) -> None:
        self.column = self.crt.column_for(self.af(self.units))  # names a strength too low
        self.bonus_column = self.crt.shift(self.column, 1)

    @classmethod
    def checked(
        cls,
        attack: Sequence[Unit],
        defenders: Sequence[Unit],
        defence_df: int,
        crt: Crt | None,
        not_adjacent: Iterable[str],
        drm: int,
        fire_drm: int,
        readings: dict[str, str],
    ) -> _Attack:
        """``close_assault_bonus``'s arguments checked, each bad one named, in its order."""
        crt = example_crt() if crt is None else crt
        if not isinstance(crt, Crt):
            raise WbkError(f"crt {crt!r} is not a Crt (load one with Crt.load(path))")
        attack = checked_units(attack, "the attack")
        defenders = checked_units(defenders, "the defence")
        if not attack:
            raise WbkError("the attack has no units")
        if len(attack) > MOST_ATTACKING_UNITS:
            raise WbkError(
                f"the attack has {len(attack)} units: wbk answers for up to "
                f"{MOST_ATTACKING_UNITS:,} (the attacker's choice of losses takes too long beyond)"
            )
        if not defenders:
            raise WbkError("the defence has no units")
        TOTAL.check(defence_df, "defence DF")
        away = _away(attack, not_adjacent)
        drm = signed_whole(drm, "die roll modifier")
        fire_drm = signed_whole(fire_drm, "fire die roll modifier")
        _one_side_against_another(attack, defenders)
        return cls(crt, attack, len(defenders), defence_df, away, drm, fire_drm, readings)

    @property
    def first_band(self) -> int:
        """The least strength the table has a column for."""
        return self.crt._bands[0][0]

    @property
    def own_fire_column(self) -> str | None:
        """The column of the defence's DF (None: too little DF to fire; a DF of 0 fires
        nothing)."""
        if self.defence_df >= max(self.first_band, 1):
            return self.crt.column_for(self.defence_df)
        return None

    def af(self, units: Sequence[Unit]) -> int:
        """The AF ``units`` add to the attack (pinned ones as ``pinned_attack`` reads)."""
        return sum(
            u.strength for u in units if self.readings["pinned_attack"] == "counts" or not u.pinned
        )

    def weight(self, u: Unit) -> int:
        """The AF one unit adds to the attack."""
        return u.strength if self.readings["pinned_attack"] == "counts" or not u.pinned else 0

    def column_of(self, strength: int, qualified: bool) -> str:
        """The bonus attack's column for ``strength`` AF left, a qualifying unit left or not."""
        if qualified and self.readings["column_after_fire"] == "announced":
            return self.bonus_column
        if strength < self.first_band:
            return NO_ATTACK
        own = self.crt.column_for(strength)
        return self.crt.shift(own, 1) if qualified else own

    def qualifies_after(self, pin: bool, u: Unit) -> bool:
        """Whether ``u`` still qualifies for the bonus after a fire that pins (``pin``) or not."""
        return not pin and _qualifies(u, self.away)

    def loss_value(self, pin: bool, bonus: bool, strength: int, qualified: bool) -> tuple:
        """How much the attacker values what a choice of losses leaves him (``losses``)."""
        if self.readings["losses"] == "keep_bonus" or not bonus:
            return (qualified, strength)
        counted = 0 if pin and self.readings["pinned_attack"] == "drops_out" else strength
        col = self.column_of(counted, qualified)
        rank = -1 if col == NO_ATTACK else self.crt.columns.index(col)
        return (rank, strength, qualified)

    def losses_to(self, code: str, *, bonus: bool) -> tuple[list[Unit], list[Unit], str]:
        """(units lost, units left, the attacker's outcome in words) after the defender's fire
        ``code``; the attacker chooses his losses as ``losses`` says."""
        if code == NO_FIRE:
            return [], list(self.units), "none"
        effect = self.crt.effect(code)
        pin = effect.pin
        n = effect.losses(len(self.units))
        lost = _choose_losses(
            self.units,
            n,
            self.weight,
            functools.partial(self.qualifies_after, pin),
            functools.partial(self.loss_value, pin, bonus),
        )
        survivors = [u for u in self.units if u not in lost]
        if pin:
            survivors = [replace(u, pinned=True) for u in survivors]
        outcome = f"{len(lost)} lost ({named(lost)})" if lost else "none"
        if pin and survivors:
            outcome = f"{outcome}, rest pinned" if lost else "pinned"
        return lost, survivors, outcome

    def exchanges(self, results: Dist, code: str, outcome: str, lost: int, column: str) -> Dist:
        """Each exchange after the fire ``code``: the attack on ``column`` rolling ``results``."""
        return results.map(
            lambda result: (
                code,
                outcome,
                lost,
                column,
                result,
                self.crt.effect(result).losses(self.defender_count),
            )
        )

    def plain_exchange(self, code: str, results: Dist) -> Dist:
        """Without the bonus: the defender's fire ``code`` leaves the attack on its column."""
        lost, _, outcome = self.losses_to(code, bonus=False)
        return self.exchanges(results, code, outcome, len(lost), self.column)

    def bonus_exchange(self, code: str) -> Dist:
        """With the bonus: the attack on the column of what the first fire ``code`` leaves."""
        lost, survivors, outcome = self.losses_to(code, bonus=True)
        qualified = any(_qualifies(u, self.away) for u in survivors)
        col = self.column_of(self.af(survivors), qualified) if survivors else NO_ATTACK
        if col == NO_ATTACK:
            return Dist.always((code, outcome, len(lost), NO_ATTACK, NO_ATTACK, 0))
        return self.exchanges(self.crt.on_column(col, drm=self.drm), code, outcome, len(lost), col)


def _away(attack: list[Unit], not_adjacent: Iterable[str]) -> frozenset[str]:
    """The names of the attacking units not adjacent to the target hex, checked."""
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
    return away


def _one_side_against_another(attack: list[Unit], defenders: list[Unit]) -> None:
    """The attacking units are of one side, the defending units of the other."""
    sides = {u.side for u in attack}
    if len(sides) > 1:
        raise WbkError(f"the attack mixes sides: {', '.join(sorted(sides))}")
    enemies = [u for u in defenders if u.side in sides]
    if enemies:
        first = enemies[0]
        raise WbkError(f"defending unit {first.name!r} is on the attacker's side ({first.side})")


def _split(exchange: Dist, bonus: bool) -> AssaultOption:
    """One way of making the attack, its exchanges and each part of them."""
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


def _strength_steps(a: _Attack) -> list[Step]:
    """9.67's first steps: the table, and the column of the attack's AF."""
    steps = [
        Step(f"on the {a.crt.name}", _crt_source(a.crt)),
        Step(
            f"attack strength {a.af(a.units)} AF: the {a.column} column",
            cite("9.67"),
            about=(ABOUT_ATTACK, ABOUT_WITHOUT, a.column),
        ),
    ]
    if a.readings["pinned_attack"] == "drops_out" and any(u.pinned for u in a.units):
        pinned = named(u for u in a.units if u.pinned)
        steps.append(
            Step(
                f"pinned attackers add no AF: {pinned}",
                f"{cite('9.67')}, {PINNED_ATTACK.cited('drops_out')}",
            )
        )
    return steps


def _without_bonus(a: _Attack, steps: list[Step]) -> tuple[AssaultOption, str | None]:
    """9.67 weighed against the attack without the bonus: on its own column, the defender
    firing on his, not first (or not at all, as ``fire_without_bonus`` reads). Returns the
    option and the column of his fire (None: no fire)."""
    r967, own_fire_column = cite("9.67"), a.own_fire_column
    plain_fire_column = (
        own_fire_column if a.readings["fire_without_bonus"] == "own_column" else None
    )
    attack_result = a.crt.on_column(a.column, drm=a.drm)
    plain_fire = (
        Dist.always(NO_FIRE)
        if plain_fire_column is None
        else a.crt.on_column(plain_fire_column, drm=a.fire_drm)
    )
    without = _split(plain_fire.map(lambda code: a.plain_exchange(code, attack_result)), False)
    if a.readings["fire_without_bonus"] == "own_column" and own_fire_column is not None:
        steps.append(
            Step(
                f"without the bonus the defender's {a.defence_df} DF fires on its own column, "
                f"{own_fire_column}, but not first: it does not change the attack",
                f"{r967}, {FIRE_WITHOUT_BONUS.cited('own_column')}",
                about=(ABOUT_FIRE, ABOUT_WITHOUT, own_fire_column),
            )
        )
    elif a.readings["fire_without_bonus"] == "none":
        steps.append(
            Step(
                "without the bonus the defender does not fire",
                f"{r967}, {FIRE_WITHOUT_BONUS.cited('none')}",
                about=(ABOUT_FIRE, ABOUT_WITHOUT),
            )
        )
    return without, plain_fire_column


def _no_bonus(
    a: _Attack, without: AssaultOption, steps: list[Step], plain_fire_column: str | None
) -> CloseAssault:
    """9.67's answer when no unpinned, unspent infantry or engineer unit is adjacent."""
    why = [u for u in a.units if u.kind in ASSAULT_KINDS]
    detail = f" ({named(why)}: pinned, spent or not adjacent)" if why else ""
    steps.append(
        Step(
            f"no unpinned, unspent infantry or engineer unit adjacent{detail}: no bonus",
            cite("9.67"),
        )
    )
    verdict = (
        "No Close Assault Bonus here: no unpinned, unspent infantry or engineer unit is "
        "adjacent (9.67)."
    )
    return CloseAssault(
        False,
        a.column,
        None,
        None,
        without,
        None,
        verdict,
        tuple(steps),
        a.crt,
        a.readings,
        plain_fire_column,
    )


def _first_fire(a: _Attack, qualifying: list[Unit], steps: list[Step]) -> tuple[str | None, Dist]:
    """9.67 with the bonus announced: the attack one column higher, and the defender's fire
    first, one column above his DF's. Returns that column (None: no fire) and the fire."""
    r967, own_fire_column, defence_df = cite("9.67"), a.own_fire_column, a.defence_df
    verb = "qualifies" if len(qualifying) == 1 else "qualify"
    steps.append(Step(f"{named(qualifying)} {verb}: the attacker may announce the bonus", r967))
    steps.append(
        Step(
            f"with the bonus the attack would roll on {a.bonus_column}"
            + (" (already the last column)" if a.bonus_column == a.column else ""),
            r967,
            about=(ABOUT_ATTACK, ABOUT_WITH, a.bonus_column),
        )
    )
    if own_fire_column is None:
        fire_column = None
        fire = Dist.always(NO_FIRE)
        steps.append(
            Step(f"the defender's {defence_df} DF has no column: he fires nothing first", ASSUMED)
        )
    else:
        fire_column = a.crt.shift(own_fire_column, 1)
        fire = a.crt.on_column(fire_column, drm=a.fire_drm)
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
            if a.readings["losses"] == "keep_bonus"
            else "the attacker gives up the units whose loss leaves the best column",
            f"{ASSUMED}, {LOSSES.cited(a.readings['losses'])}",
            about=(ABOUT_FIRE, ABOUT_WITH),
        )
    )
    return fire_column, fire


def _after_fire_step(a: _Attack) -> Step:
    """9.67: the bonus attack's column once the fire is over, as ``column_after_fire`` reads."""
    reading = a.readings["column_after_fire"]
    return Step(
        "after the fire: the announced column, "
        f"{a.bonus_column}, if a qualifying unit is left (as the example's closing "
        "sentence lets him), else the column of the AF left"
        if reading == "announced"
        else "after the fire: one column above the column of the AF left if a qualifying "
        "unit is left (the bonus column counted from the AF after the losses), "
        "else the column of the AF left",
        f"{cite('9.67')}, {COLUMN_AFTER_FIRE.cited(reading)}",
        about=(ABOUT_ATTACK, ABOUT_WITH),
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
