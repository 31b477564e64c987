"""Pz 8, beyond the card: two tanks trading shots until one is destroyed, worked out exactly
as a chain of states (who shoots, who is shaken), and the same duel at every range."""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass
from fractions import Fraction

from wbk.checks import known_keywords
from wbk.dice import chance, percent
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.table import MAX_INCHES

from .readings import NATURAL_SIX, TURNS
from .shooting import AttackChances, attack, attack_chances
from .tanks import DAMAGE, FLAG, GUN_RANGES, SHAKEN, SHOOTING, Tank

#: Ranges ``duel_curve`` covers (inches): every gun's reach and a little beyond.
DUEL_RANGES = range(1, 27)
#: The duellists' roles, as the steps are about them.
ROLES = ("first", "second")
#: What the step saying that neither gun reaches is about (a picture marks the range).
OUT_OF_RANGE = ("range", "neither")


@dataclass(frozen=True)
class Duel:
    """Who wins a duel and how long it lasts: exact chances and the mean number of attacks
    each tank makes (``mean_attacks_by``: the first's, the second's; ``mean_attacks``: both
    together). An attack is a tank shooting; a side whose gun does not reach and hands the
    turn straight back makes none. The means are ``None`` when a stalemate is possible."""

    first: str
    second: str
    first_wins: Fraction
    second_wins: Fraction
    stalemate: Fraction
    mean_attacks: Fraction | None
    steps: tuple[Step, ...]
    #: the set-up, for drawing the duel: the range, the two tanks and ``duel``'s keywords
    range_inches: float
    tanks: tuple[Tank, Tank]
    options: tuple[tuple[str, object], ...]
    mean_attacks_by: tuple[Fraction, Fraction] | None
    #: the chances of one attack of each tank at the other (the first's, the second's), at
    #: the duel's range and under its keywords; None for a tank whose gun does not reach
    one_attack_each: tuple[AttackChances | None, AttackChances | None]

    @property
    def deciding_step(self) -> Step:
        """The step the verdict rests on: how the turn passes between the two tanks (who shoots
        first wins more when a tank keeps the turn), or that neither gun reaches."""
        return next(
            step
            for about in (OUT_OF_RANGE, ("turns",))
            for step in self.steps
            if step.about == about
        )

    def _repr_html_(self) -> str:
        said = f"{self.first} wins {percent(self.first_wins)}, "
        said += f"{self.second} wins {percent(self.second_wins)}"
        return f"<b>{html.escape(said)}</b>" + steps_html(self.steps)


@dataclass(frozen=True)
class _SetUp:
    """A duel as ``duel`` checked it: the tanks, the range, whose gun reaches, who is in
    cover, and the keywords."""

    tanks: tuple[Tank, Tank]
    range_inches: float
    in_range: tuple[bool, bool]
    cover: tuple[bool, bool]
    shaken_rule: bool
    natural_six: str
    turns: str

    def attack_options(self, shooter: int, shaken: bool) -> dict:
        """The keywords of ``attack`` for tank ``shooter`` (0 or 1) shooting at the other."""
        return dict(
            cover=self.cover[1 - shooter],
            veteran=self.tanks[shooter].is_veteran,
            shaken=self.shaken_rule and shaken,
            natural_six=self.natural_six,
        )


@known_keywords
def duel(
    first: Tank,
    second: Tank,
    range_inches: float,
    *,
    first_in_cover: bool = False,
    second_in_cover: bool = False,
    shaken_rule: bool = False,
    natural_six: str = "modified",
    turns: str = "card",
) -> Duel:
    """Two tanks trading shots at ``range_inches`` until one is destroyed, exactly.

    ``turns="card"`` (the default) follows the card's turnover; ``turns="alternate"`` is the
    reading without it, for comparison: the tanks simply take turns, one attack each.

    ``first`` shoots first. A side whose gun die passes the turn hands the next shot to the
    other side; otherwise it shoots again (its one tank activates again). A tank whose gun does
    not reach cannot shoot, and its side passes the turn straight back. With ``shaken_rule`` (the
    optional rule) a hit that does not destroy shakes the target, which shoots at -1 for the rest
    of the duel (it never spends an activation to rally); tanks already marked shaken start
    shaken. Without it, shaken markers are ignored. ``stalemate`` is the chance of reaching a
    state from which neither tank can ever destroy the other. ``mean_attacks_by`` is the mean
    number of attacks each tank makes (the first's, the second's) and ``mean_attacks`` their sum
    (``None`` when a stalemate is possible): a turn handed back by a tank out of range is no
    attack. At 20" only the Tiger's long gun reaches, and each of its attacks destroys the T-34
    with 1/2 (a hit on 4-6) x 5/6 (the T-34 saves only on a 6), 5/12, so the duel lasts 12/5
    attacks, all the Tiger's:

    >>> t34 = Tank("T-34", tank_class="medium", gun="medium")
    >>> d = duel(t34, Tank("Tiger", tank_class="heavy", gun="long"), 20)
    >>> d.second_wins, d.mean_attacks_by, d.mean_attacks
    (Fraction(1, 1), (Fraction(0, 1), Fraction(12, 5)), Fraction(12, 5))
    >>> d = duel(t34, Tank("Pz III", tank_class="medium", gun="medium"), 10)
    >>> d.first_wins + d.second_wins
    Fraction(1, 1)
    """
    s = _checked_set_up(
        first,
        second,
        range_inches,
        (first_in_cover, second_in_cover),
        shaken_rule,
        natural_six,
        turns,
    )
    graph, start = _states(s)
    p_first, p_second, by_side = _chances(graph, start, s.in_range)
    stalemate = 1 - p_first - p_second
    each = tuple(
        attack_chances(t.gun, s.tanks[1 - i].tank_class, **s.attack_options(i, t.shaken))
        if s.in_range[i]
        else None
        for i, t in enumerate(s.tanks)
    )
    steps = _set_up_steps(s, each) + _verdict_steps(s, p_first, p_second, stalemate, by_side)
    options = (
        ("first_in_cover", s.cover[0]),
        ("second_in_cover", s.cover[1]),
        ("shaken_rule", s.shaken_rule),
        ("natural_six", natural_six),
        ("turns", turns),
    )
    return Duel(
        first.name,
        second.name,
        p_first,
        p_second,
        stalemate,
        None if by_side is None else sum(by_side, Fraction(0)),
        tuple(steps),
        range_inches,
        s.tanks,
        options,
        by_side,
        (each[0], each[1]),
    )


def _checked_set_up(
    first: Tank,
    second: Tank,
    range_inches: float,
    cover: tuple[bool, bool],
    shaken_rule: bool,
    natural_six: str,
    turns: str,
) -> _SetUp:
    """The duel's set-up, every argument checked: two tanks with two names, neither a wreck, a
    range on the table, flags, and the readings of the turns and of a natural 6."""
    tanks = (first, second)
    for t in tanks:
        if not isinstance(t, Tank):
            raise WbkError(f"{t!r} is not a Tank")
        if t.destroyed:
            raise WbkError(f"{t.name!r} is destroyed: a wreck does not duel")
    if first.name == second.name:
        raise WbkError(f"both tanks are called {first.name!r}: give the duellists two names")
    if (
        isinstance(range_inches, bool)
        or not isinstance(range_inches, numbers.Real)
        or not 0 < range_inches <= MAX_INCHES
    ):
        raise WbkError(
            f"range {range_inches!r} is not a number of inches, more than 0 "
            f"(two tanks cannot stand on one spot) and at most {MAX_INCHES}"
        )
    checked_cover = (
        FLAG.check(cover[0], "first_in_cover"),
        FLAG.check(cover[1], "second_in_cover"),
    )
    FLAG.check(shaken_rule, "shaken_rule")
    TURNS.check(turns, "duel turns")
    NATURAL_SIX.check(natural_six, "reading of a natural 6")
    in_range = (range_inches <= GUN_RANGES[first.gun], range_inches <= GUN_RANGES[second.gun])
    return _SetUp(tanks, range_inches, in_range, checked_cover, shaken_rule, natural_six, turns)


def _set_up_steps(s: _SetUp, each: tuple[AttackChances | None, ...]) -> list[Step]:
    """Shooting, Penetration and Damage, Optional Rule: Shaken: the duel before a shot, in steps
    about the tanks by their role ("first", "second") and a part of the duel: "range",
    "attack", "turns", "shaken" (``wbk.games.pz8.draw.duel.draw_duel`` marks them)."""
    steps = [
        Step(
            f'range {s.range_inches:g}": the {t.gun} gun of {t.name} '
            + ("reaches" if r else "does not reach"),
            SHOOTING,
            about=("range", role),
        )
        for t, r, role in zip(s.tanks, s.in_range, ROLES, strict=True)
    ]
    for shooter, role in enumerate(ROLES):
        t, target = s.tanks[shooter], s.tanks[1 - shooter]
        one = each[shooter]
        if one is None:
            said = f"{t.name} cannot shoot: its side hands the turn straight back"
        else:
            said = (
                f"{t.name} shoots: one attack destroys {target.name} {chance(one.destroyed)}, "
                f"the turn passes {chance(one.turn_passes)}"
            )
        rule = DAMAGE if s.in_range[shooter] else SHOOTING
        steps.append(Step(said, rule, about=("attack", role)))
    if s.turns == "card":
        said = (
            "a gun die of 1 or 2 passes the turn: the other tank shoots next; "
            "otherwise the same tank shoots again"
        )
    else:
        said = "read without the turnover: the tanks take turns, one attack each"
    steps.append(Step(said, SHOOTING, about=("turns",)))
    if s.shaken_rule:
        steps.append(
            Step(
                "a hit that does not destroy shakes the target: it shoots at -1 from then on "
                "and does not rally",
                SHAKEN,
                about=("shaken",),
            )
        )
    return steps


def _states(s: _SetUp) -> tuple[dict, tuple]:
    """The duel as a chain: each state (the shooter, whether the first and the second tank are
    shaken) with the chance of each next state, "first" and "second" being a win; and the
    state it starts in."""

    def transitions(state) -> dict:
        shooter, *shaken = state
        target = 1 - shooter
        if not s.in_range[shooter]:
            return {(target, *shaken): Fraction(1)}
        outcome = attack(
            s.tanks[shooter].gun,
            s.tanks[target].tank_class,
            **s.attack_options(shooter, shaken[shooter]),
        )
        result: dict = {}
        for o, p in outcome.probabilities().items():
            nxt: str | tuple
            if o.destroyed:
                nxt = ROLES[shooter]
            else:
                after = list(shaken)
                if s.shaken_rule and o.shaken:
                    after[target] = True
                nxt = (target if o.turn_passes or s.turns == "alternate" else shooter, *after)
            result[nxt] = result.get(nxt, 0) + p
        return result

    first, second = s.tanks
    start = (0, s.shaken_rule and first.shaken, s.shaken_rule and second.shaken)
    graph: dict = {}
    todo: list = [start]
    while todo:
        state = todo.pop()
        if state in graph or isinstance(state, str):
            continue
        graph[state] = transitions(state)
        todo += list(graph[state])
    return graph, start


def _chances(
    graph: dict, start: tuple, in_range: tuple[bool, bool]
) -> tuple[Fraction, Fraction, tuple[Fraction, Fraction] | None]:
    """The chance each tank wins from ``start``, and the mean number of attacks each makes
    (None when the duel may reach a state from which neither tank can win). A state is an
    attack by its shooter when the shooter's gun reaches (``in_range``); otherwise the turn is
    only handed back."""
    # states from which a win is reachable; the rest are stalemates
    live = set()
    changed = True
    while changed:
        changed = False
        for state, nxt in graph.items():
            if state not in live and any(isinstance(n, str) or n in live for n in nxt):
                live.add(state)
                changed = True
    order = sorted(live)
    first_wins = _absorb(
        graph, order, lambda n: Fraction(n == "first") if isinstance(n, str) else None
    )
    second_wins = _absorb(
        graph, order, lambda n: Fraction(n == "second") if isinstance(n, str) else None
    )
    p_first = first_wins.get(start, Fraction(0))
    p_second = second_wins.get(start, Fraction(0))
    if 1 - p_first - p_second != 0:
        return p_first, p_second, None

    def attacks_by(side: int) -> Fraction:
        def cost(state: tuple) -> Fraction:
            return Fraction(state[0] == side and in_range[side])

        return _absorb(graph, order, lambda n: Fraction(0) if isinstance(n, str) else None, cost)[
            start
        ]

    return p_first, p_second, (attacks_by(0), attacks_by(1))


def _verdict_steps(
    s: _SetUp,
    p_first: Fraction,
    p_second: Fraction,
    stalemate: Fraction,
    by_side: tuple[Fraction, Fraction] | None,
) -> list[Step]:
    """Shooting: who wins, how often neither can, and how long the duel lasts."""
    first, second = s.tanks
    steps = []
    if not any(s.in_range):
        said = f'out of range: neither gun reaches {s.range_inches:g}", so neither tank can win'
        steps.append(Step(said, SHOOTING, about=OUT_OF_RANGE))
    else:
        said = f"{first.name} wins {chance(p_first)}, {second.name} wins {chance(p_second)}"
        steps.append(Step(said, SHOOTING, about=("wins", "first", "second")))
    if stalemate:
        if any(s.in_range):
            steps.append(
                Step(
                    f"neither can ever destroy the other: {chance(stalemate)}",
                    SHOOTING,
                    about=("neither",),
                )
            )
    elif by_side is not None:
        steps.append(
            Step(
                f"the duel lasts {float(sum(by_side)):.2f} attacks on average, counting only "
                f"the shots made ({first.name} {float(by_side[0]):.2f}, "
                f"{second.name} {float(by_side[1]):.2f}; a turn handed back is no attack)",
                SHOOTING,
                about=("wins", "first", "second"),
            )
        )
    return steps


def _absorb(graph: dict, order: list, terminal, cost=None) -> dict:
    """Solve x[s] = cost(s) + sum p * x[n] over the live states ``order`` exactly (Gauss-Jordan
    over Fractions; no cost by default); a terminal state n has the value ``terminal(n)``, a
    dead state 0."""
    index = {s: i for i, s in enumerate(order)}
    n = len(order)
    rows = []
    for s in order:
        row = [Fraction(0)] * (n + 1)
        row[index[s]] += 1
        row[n] = Fraction(0) if cost is None else cost(s)
        for nxt, p in graph[s].items():
            value = terminal(nxt)
            if value is not None:
                row[n] += p * value
            elif nxt in index:
                row[index[nxt]] -= p
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[col], strict=False)]
    return {s: rows[index[s]][n] for s in order}


def duel_curve(d: Duel) -> dict[int, Duel]:
    """The duel of ``d``'s tanks and keywords at every range of ``DUEL_RANGES`` (only which guns
    reach changes the answer, so one duel is worked out for each such set)."""
    if not isinstance(d, Duel):
        raise WbkError(f"{d!r} is not a Duel (wbk.games.pz8.duel's answer)")
    first, second = d.tanks
    found: dict[tuple[bool, bool], Duel] = {}
    curve = {}
    for r in DUEL_RANGES:
        key = (r <= GUN_RANGES[first.gun], r <= GUN_RANGES[second.gun])
        if key not in found:
            found[key] = duel(first, second, r, **dict(d.options))  # type: ignore[arg-type]
        curve[r] = found[key]
    return curve
