"""Exact result distributions: whole-number weights, no sampling.

Procedures read like the rules, in the manner of icepool:

>>> hits = 20 @ (d6 >= 6)          # roll 20 dice, every 6 is a hit
>>> hits.probability(0)
Fraction(95367431640625, 3656158440062976)
>>> hits.at_least(4)
Fraction(528259274942867, 1218719480020992)
>>> (2 @ d6).mean()
Fraction(7, 1)

``dist.map(f)`` applies ``f`` to each outcome; ``f`` may return a plain outcome or another
``Dist`` (for "for each hit, roll again"):

>>> unsaved = (3 @ (d6 >= 6)).map(lambda h: h @ (d6 <= 3))   # each hit saved on 4+
>>> unsaved.probability(0)
Fraction(1331, 1728)

Comparisons (``<``, ``<=``, ``>``, ``>=``) give a distribution of booleans; ``==`` compares whole
distributions, so use ``dist.is_in({6})`` for "rolls a 6". Probabilities are exact
``Fraction`` values and always add up to exactly 1.

A percentage is only how one is shown: ``percent(p)`` never rounds a possible outcome to 0% or an
unsure one to 100% ("<0.01%", ">99.99%"), ``chance(p)`` gives the fraction and the percent in a
sentence, and a distribution's Jupyter table renders whatever the size of its numbers:

>>> chance(hits.probability(0))
'≈ 1 in 38.3 (2.61%)'
"""

from __future__ import annotations

import enum
import html
import math
import operator
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from numbers import Integral, Rational
from typing import Any, TypeAlias

from wbk.errors import WbkError

__all__ = [
    "Dist",
    "chance",
    "d6",
    "d10",
    "d12",
    "d20",
    "die",
    "fraction_html",
    "outcome_name",
    "percent",
]

#: An outcome: any hashable value that can be put in order with the others (a number, a bool, an
#: enum member such as a damage level, a tuple). Outcomes are as varied as the rules' results, so
#: the type checker is not told more.
Outcome: TypeAlias = Any

#: A distribution's table shows at most this many outcomes one by one (see ``Dist._repr_html_``).
TABLE_ROWS = 60
#: ``chance`` writes a probability's exact fraction only when "numerator/denominator" is at most
#: this many characters ("625/26873856"); a longer one becomes odds ("≈ 1 in 38.3") or, between
#: 10% and 90%, the percent alone. Every sentence, title and label of wbk says a chance this way.
SHORT_FRACTION = 12
#: A table cell (``fraction_html``) writes a fraction out up to this many characters, a longer
#: one as odds with the exact value in its hover text.
TABLE_FRACTION = 24
#: Limits that keep every answer to a few seconds (whole numbers grow with the dice): at most
#: this many rolls in one sum (20,000 dice of two outcomes take about a second) ...
MAX_ROLLS = 20_000
#: ... at most this many possible totals in a sum of dice of three or more outcomes (the
#: convolution's work grows faster than their square: 200 @ d6, 1,001 totals, takes about a
#: third of a second, 1000 @ d6 over a minute) ...
MAX_SUMS = 1_001
#: ... and at most this many faces on one die.
MAX_FACES = 10_000
#: A long fraction's exact value goes in its hover text up to this many digits a part.
EXACT_DIGITS = 1000


def _outcome(value, what: str = "outcome") -> Outcome:
    """``value`` if it can be an outcome (hashable), else a WbkError naming it."""
    try:
        hash(value)
    except TypeError:
        raise WbkError(
            f"{what} {value!r} cannot be an outcome (outcomes must be hashable, "
            "like a number, a string, an enum member or a tuple)"
        ) from None
    return value


def _callable(value, what: str) -> Callable:
    if not callable(value):
        raise WbkError(f"{what} {value!r} is not a function")
    return value


class Dist:
    """A finite distribution over hashable, ordered outcomes, with positive whole-number weights.

    >>> Dist({"hit": 1, "miss": 5}).probability("hit")
    Fraction(1, 6)
    """

    __slots__ = ("_total", "_weights")
    _total: int
    _weights: dict[Outcome, int]

    def __init__(self, weights: Mapping[Outcome, int | Fraction]):
        if not isinstance(weights, Mapping):
            raise WbkError(
                "a distribution needs a table of outcomes with weights, "
                f"like {{'hit': 1, 'miss': 5}}; got {weights!r}"
            )
        cleaned = {}
        for outcome, weight in weights.items():
            if isinstance(weight, bool) or not isinstance(weight, Rational):
                raise WbkError(
                    f"weight {weight!r} of outcome {outcome!r} "
                    "is not a whole number or Fraction of 0 or more"
                )
            if weight < 0:
                raise WbkError(
                    f"weight {weight} of outcome {outcome!r} is negative (expected 0 or more)"
                )
            if weight:
                cleaned[outcome] = Fraction(weight)
        if not cleaned:
            raise WbkError("a distribution needs at least one outcome with a positive weight")
        scale = math.lcm(*(w.denominator for w in cleaned.values()))
        ints = {o: int(w * scale) for o, w in cleaned.items()}
        self._set(ints)

    def _set(self, ints: dict[Outcome, int]) -> None:
        # the smallest weight first: the gcd of two huge weights is slow, and a small one ends
        # the search at once (gcd stops looking once the common factor is 1)
        common = math.gcd(min(ints.values()), *ints.values())
        try:
            ordered = sorted(ints)
        except TypeError:
            raise WbkError(f"outcomes {list(ints)!r} cannot be put in order") from None
        object.__setattr__(self, "_weights", {o: ints[o] // common for o in ordered})
        object.__setattr__(self, "_total", sum(ints.values()) // common)

    @classmethod
    def _from_ints(cls, ints: dict[Outcome, int]) -> Dist:
        """Build from positive int weights that need no checking (the fast path of the algebra)."""
        dist = cls.__new__(cls)
        dist._set({o: w for o, w in ints.items() if w})
        return dist

    def __setattr__(self, name, value):
        raise AttributeError("Dist is immutable")

    # --- reading it ------------------------------------------------------------------------

    def outcomes(self) -> tuple:
        """The possible outcomes, in order."""
        return tuple(self._weights)

    @property
    def weights(self) -> dict[Outcome, int]:
        """Outcome -> whole-number weight, in lowest terms."""
        return dict(self._weights)

    @property
    def total(self) -> int:
        return self._total

    def probability(self, outcome: Outcome) -> Fraction:
        """P(result == outcome); 0 for an outcome that cannot come up."""
        return Fraction(self._weights.get(_outcome(outcome), 0), self._total)

    def probabilities(self) -> dict[Outcome, Fraction]:
        return {o: Fraction(w, self._total) for o, w in self._weights.items()}

    def at_least(self, outcome) -> Fraction:
        """P(result >= outcome)."""
        try:
            return Fraction(sum(w for o, w in self._weights.items() if o >= outcome), self._total)
        except TypeError:
            raise self._unordered(outcome) from None

    def at_most(self, outcome) -> Fraction:
        """P(result <= outcome)."""
        try:
            return Fraction(sum(w for o, w in self._weights.items() if o <= outcome), self._total)
        except TypeError:
            raise self._unordered(outcome) from None

    def _unordered(self, outcome) -> WbkError:
        return WbkError(
            f"outcome {outcome!r} cannot be compared with the outcomes {self.outcomes()!r}"
        )

    def mean(self) -> Fraction:
        try:
            return Fraction(sum(o * w for o, w in self._weights.items()), self._total)
        except TypeError:
            raise WbkError(
                f"outcomes {self.outcomes()!r} are not numbers, so they have no mean"
            ) from None

    def __len__(self) -> int:
        return len(self._weights)

    def __eq__(self, other) -> bool:
        return isinstance(other, Dist) and self._weights == other._weights

    def __hash__(self):
        return hash(tuple(self._weights.items()))

    def __repr__(self):
        inner = ", ".join(f"{o!r}: {_whole_number(w)}" for o, w in self._weights.items())
        return f"Dist({{{inner}}})"

    def table(self) -> list[tuple[Outcome, Fraction, Fraction]]:
        """Rows of (outcome, probability, probability of at least this outcome)."""
        rows, remaining = [], self._total
        for o, w in self._weights.items():
            rows.append((o, Fraction(w, self._total), Fraction(remaining, self._total)))
            remaining -= w
        return rows

    def _repr_html_(self) -> str:
        """The table: outcome, exact probability, percent, at least. A distribution of more than
        ``TABLE_ROWS`` outcomes shows the run of that many that holds the most probability, the
        outcomes below and above it each summed in one row."""
        weights = list(self._weights.values())
        first, last = _likeliest_run(weights, TABLE_ROWS)
        outcomes = list(self._weights)
        total, remaining = self._total, self._total
        rows = []
        if first > 0:
            below = sum(weights[:first])
            rows.append(_row(_span(outcomes[0], outcomes[first - 1], first), below, total, total))
            remaining -= below
        for o, w in zip(outcomes[first:last], weights[first:last], strict=False):
            rows.append(_row(html.escape(outcome_name(o)), w, remaining, total))
            remaining -= w
        if last < len(outcomes):
            shown = _span(outcomes[last], outcomes[-1], len(outcomes) - last)
            rows.append(_row(shown, remaining, remaining, total))
        return (
            # spaced columns of their own: a widget's pane gives a table no notebook styling
            '<table class="wbk-dist" style="border-spacing: 1em 0">'
            "<thead><tr><th>outcome</th><th>probability</th>"
            f"<th>percent</th><th>at least</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )

    # --- building procedures ---------------------------------------------------------------

    def map(self, f: Callable[[Outcome], Outcome | Dist]) -> Dist:
        """Apply ``f`` to every outcome; where ``f`` returns a ``Dist``, mix it in by weight."""
        _callable(f, "map: f")
        results = [(f(o), w) for o, w in self._weights.items()]
        scale = math.lcm(*(r.total for r, _ in results if isinstance(r, Dist)))
        ints: dict[Outcome, int] = {}
        for result, w in results:
            if isinstance(result, Dist):
                factor = w * (scale // result.total)
                for o, rw in result._weights.items():
                    ints[o] = ints.get(o, 0) + factor * rw
            else:
                _outcome(result, "map: the result of f,")
                ints[result] = ints.get(result, 0) + w * scale
        return Dist._from_ints(ints)

    def given(self, condition: Callable[[Outcome], bool]) -> Dist:
        """The distribution of the outcomes for which ``condition`` holds, renormalised."""
        _callable(condition, "given: condition")
        kept = {o: w for o, w in self._weights.items() if condition(o)}
        if not kept:
            raise WbkError("the condition holds for no outcome, so nothing is left to condition on")
        return Dist._from_ints(kept)

    def is_in(self, outcomes: Iterable[Outcome]) -> Dist:
        """A distribution of booleans: is the outcome one of ``outcomes``?"""
        if isinstance(outcomes, (str, bytes, Dist)) or not isinstance(outcomes, Iterable):
            raise WbkError(
                f"is_in: outcomes {outcomes!r} is not a collection of outcomes "
                f"(write is_in({{{outcomes!r}}}) for the one outcome)"
            )
        wanted = {_outcome(o, "is_in:") for o in outcomes}
        return self.map(lambda o: o in wanted)

    def combine(self, other: Dist | Outcome, op: Callable[[Outcome, Outcome], Outcome]) -> Dist:
        """The distribution of ``op(x, y)`` for independent x from here and y from ``other``."""
        other = other if isinstance(other, Dist) else Dist.always(other)
        _callable(op, "combine: op")
        ints: dict[Outcome, int] = {}
        try:
            for x, wx in self._weights.items():
                for y, wy in other._weights.items():
                    o = op(x, y)
                    ints[o] = ints.get(o, 0) + wx * wy
        except TypeError as e:  # op cannot take these outcomes, or gave an unhashable one
            raise WbkError(f"cannot combine outcome {x!r} with outcome {y!r}: {e}") from None
        return Dist._from_ints(ints)

    @staticmethod
    def always(outcome: Outcome) -> Dist:
        """The distribution of a procedure whose result is always ``outcome``."""
        return Dist._from_ints({_outcome(outcome): 1})

    @staticmethod
    def joint(*dists: Dist) -> Dist:
        """Independent procedures together: a distribution of tuples, one entry per procedure."""
        for i, d in enumerate(dists, 1):
            if not isinstance(d, Dist):
                hint = ""
                if isinstance(d, (list, tuple)):
                    hint = " (pass the distributions one by one: Dist.joint(a, b))"
                raise WbkError(f"joint: argument {i} {d!r} is not a Dist{hint}")
        result = Dist.always(())
        for d in dists:
            result = result.combine(d, lambda t, x: (*t, x))
        return result

    def sum_of(self, n: int) -> Dist:
        """The sum of ``n`` independent rolls (also written ``n @ dist``): at most ``MAX_ROLLS``
        rolls, and for dice of three or more outcomes at most ``MAX_SUMS`` possible totals."""
        if isinstance(n, bool) or not isinstance(n, Integral):
            raise WbkError(f"number of dice {n!r} is not a whole number of 0 or more")
        n = int(n)
        if n < 0:
            raise WbkError(f"number of dice {n} is negative: expected a whole number of 0 or more")
        if len(self._weights) == 1:
            (outcome,) = self._weights
            if isinstance(outcome, Rational):  # a sure outcome: its n-fold sum, at once
                return Dist.always(0 + outcome * n)
        if n > MAX_ROLLS:
            raise WbkError(
                f"number of dice {n:,} is over the limit of {MAX_ROLLS:,}: "
                "wbk works out exact odds for at most that many"
            )
        totals = n * (len(self._weights) - 1) + 1  # evenly spaced outcomes: fewer if not
        if len(self._weights) > 2 and totals > MAX_SUMS:
            raise WbkError(
                f"{n:,} dice of {len(self._weights)} outcomes have up to {totals:,} totals, over "
                f"the limit of {MAX_SUMS:,}: wbk works out exact odds for at most that many"
            )
        if len(self._weights) == 2:
            return self._binomial(n)
        result, power = Dist.always(0), self
        while n:
            if n & 1:
                result = result + power
            n >>= 1
            if n:
                power = power + power
        return result

    def _binomial(self, n: int) -> Dist:
        (lo, a), (hi, b) = self._weights.items()
        ints: dict[Outcome, int] = {}
        term = a**n  # C(n, k) b^k a^(n-k), each from the last with small factors only
        for k in range(n + 1):  # k rolls come up hi, n - k come up lo
            o = k * hi + (n - k) * lo
            ints[o] = ints.get(o, 0) + term
            term = term * (n - k) * b // ((k + 1) * a)
        return Dist._from_ints(ints)

    def __rmatmul__(self, n: int) -> Dist:
        return self.sum_of(n)

    def __matmul__(self, other):
        raise WbkError(f"write the number of dice first: {other!r} @ dist, not dist @ {other!r}")

    def __bool__(self):
        raise WbkError(
            "a distribution is neither true nor false: ask for a probability, "
            "like (d6 >= 5).probability(True)"
        )

    def __add__(self, other):
        return self.combine(other, operator.add)

    def __radd__(self, other):
        return self.combine(other, lambda x, y: y + x)

    def __sub__(self, other):
        return self.combine(other, operator.sub)

    def __rsub__(self, other):
        return self.combine(other, lambda x, y: y - x)

    def __mul__(self, other):
        return self.combine(other, operator.mul)

    def __rmul__(self, other):
        return self.combine(other, lambda x, y: y * x)

    def __neg__(self):
        try:
            return self.map(operator.neg)
        except TypeError:
            raise WbkError(
                f"outcomes {self.outcomes()!r} are not numbers, so they cannot be negated"
            ) from None

    def __lt__(self, other):
        return self.combine(other, operator.lt)

    def __le__(self, other):
        return self.combine(other, operator.le)

    def __gt__(self, other):
        return self.combine(other, operator.gt)

    def __ge__(self, other):
        return self.combine(other, operator.ge)


def die(faces: int) -> Dist:
    """A fair die numbered 1 to ``faces``.

    >>> die(6).probability(3)
    Fraction(1, 6)
    """
    if isinstance(faces, bool) or not isinstance(faces, Integral) or faces < 1:
        raise WbkError(
            f"a die needs at least one face, got {faces!r} (expected a whole number of 1 or more)"
        )
    if faces > MAX_FACES:
        raise WbkError(f"a die of {faces:,} faces is over the limit of {MAX_FACES:,}")
    return Dist._from_ints({f: 1 for f in range(1, int(faces) + 1)})


d6 = die(6)
d10 = die(10)
d12 = die(12)
d20 = die(20)


def outcome_name(outcome) -> str:
    """How an outcome is shown: an enum member by its name in words ("step loss"), anything
    else as ``str`` gives it."""
    _outcome(outcome)
    if isinstance(outcome, enum.Enum):
        return outcome.name.replace("_", " ").lower()
    return str(outcome)


def _probability(p) -> Fraction:
    if isinstance(p, bool) or not isinstance(p, Rational):
        raise WbkError(f"probability {p!r} is not a Fraction")
    exact = Fraction(p)
    if not 0 <= exact <= 1:
        raise WbkError(f"probability {p} is not between 0 and 1")
    return exact


def percent(p: Fraction) -> str:
    """A probability as a percentage with two decimals that never rounds a possible outcome to
    0% or an unsure one to 100%: "16.67%", "<0.01%", ">99.99%"; exactly 0 and 1 are "0%" and
    "100%".

    >>> percent(Fraction(625, 26873856)), percent(Fraction(1, 6)), percent(Fraction(1))
    ('<0.01%', '16.67%', '100%')
    """
    p = _probability(p)
    if p == 0 or p == 1:
        return "0%" if p == 0 else "100%"
    if p < Fraction(1, 10_000):
        return "<0.01%"
    if p > Fraction(9_999, 10_000):
        return ">99.99%"
    return f"{float(p):.2%}"


def chance(p: Fraction, longest: int = SHORT_FRACTION) -> str:
    """A probability in a sentence: the exact fraction and its percent, "1/6 (16.67%)". A
    fraction longer than ``longest`` characters (``SHORT_FRACTION`` unless told) is shown as odds
    instead, "≈ 1 in 38.3 (2.61%)", or between 10% and 90% as its percent, "≈ 43.35%"; the exact
    value is ``p`` itself. Whatever the size of its numbers, the answer is short: a fraction of
    at most ``longest`` characters, or odds of three significant figures, and a percent.

    >>> chance(Fraction(1, 216))
    '1/216 (0.46%)'
    >>> chance((20 @ (d6 >= 6)).probability(0))
    '≈ 1 in 38.3 (2.61%)'
    >>> chance(Fraction(2611944850725, 3775927000000))
    '≈ 69.17%'
    """
    p = _probability(p)
    _check_longest(longest)
    if p.denominator == 1:
        return percent(p)
    if _fits(p, longest):
        return f"{p} ({percent(p)})"
    if Fraction(1, 10) <= p <= Fraction(9, 10):
        return f"≈ {percent(p)}"
    return f"{_approximately(p)} ({percent(p)})"


def fraction_html(p: Fraction, longest: int = TABLE_FRACTION) -> str:
    """A probability as an exact fraction; one longer than ``longest`` characters is shown as
    odds ("≈ 1 in 43,000", "≈ 1 in 2.58", "all but ≈ 1 in 590") with the exact fraction in the
    hover text (or, past ``EXACT_DIGITS`` digits, the size of its denominator)."""
    p = _probability(p)
    _check_longest(longest)
    if _fits(p, longest):
        return str(p)
    digits = _digits(p.denominator)
    if digits <= EXACT_DIGITS:
        exact = f"exact: {p}"
    else:
        exact = f"exact: a fraction whose denominator has {digits:,} digits"
    style = "text-decoration: underline dotted"
    return f'<span title="{exact}" style="{style}">{_approximately(p)}</span>'


def _check_longest(longest) -> None:
    if isinstance(longest, bool) or not isinstance(longest, int) or longest < 1:
        raise WbkError(f"longest {longest!r} is not a whole number of 1 or more")


def _fits(p: Fraction, longest: int) -> bool:
    """Is "numerator/denominator" at most ``longest`` characters (found without writing it out,
    which Python refuses past 4300 digits)?"""
    if p.denominator == 1:
        return True
    return _digits(p.numerator) + 1 + _digits(p.denominator) <= longest


def _log10(n: int) -> float:
    """log10 of a positive whole number of any size."""
    shift = max(n.bit_length() - 64, 0)
    return math.log10(n >> shift) + shift * math.log10(2)


def _digits(n: int) -> int:
    """The number of decimal digits of a whole number of any size."""
    n = abs(n)
    if n < 10:
        return 1
    d = int(_log10(n)) + 1
    if n >= 10**d:
        return d + 1
    if n < 10 ** (d - 1):
        return d - 1
    return d


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _three_figures(x: float, exponent: int) -> str:
    """``x`` × 10^``exponent`` (1 <= x < 10) to three significant figures: "38.3", "43,000",
    "4.31 × 10¹²"."""
    x = round(x, 2)
    if x >= 10:
        x, exponent = x / 10, exponent + 1
    if exponent < 2:
        return f"{x * 10**exponent:.3g}"
    if exponent < 6:
        return f"{round(x * 10**exponent, 2 - exponent):,.0f}"
    return f"{x:.3g} × 10{str(exponent).translate(_SUPERSCRIPTS)}"


def _one_in(p: Fraction) -> str:
    """1/p for 0 < p < 1, to three significant figures, whatever the size of its numbers."""
    log = _log10(p.denominator) - _log10(p.numerator)
    exponent = math.floor(log)
    return _three_figures(10 ** (log - exponent), exponent)


def _approximately(p: Fraction) -> str:
    """A probability too long to read as a fraction, always as odds: "≈ 1 in 7.00" up to an
    even chance, "all but ≈ 1 in 590" above it (one format down a column, never a decimal)."""
    if p <= Fraction(1, 2):
        return f"≈ 1 in {_one_in(p)}"
    return f"all but ≈ 1 in {_one_in(1 - p)}"


def _whole_number(n: int) -> str:
    """A weight as text; past 4000 digits (which Python refuses to write out) its size."""
    if n.bit_length() < 13_000:
        return str(n)
    digits = _digits(n)
    log = _log10(n)
    return f"<{digits:,}-digit number ≈ {10 ** (log - math.floor(log)):.4f}e{math.floor(log)}>"


def _likeliest_run(weights: list[int], length: int) -> tuple[int, int]:
    """First and past-last index of the ``length`` consecutive weights with the largest sum."""
    if len(weights) <= length:
        return 0, len(weights)
    best = window = sum(weights[:length])
    start = 0
    for i in range(length, len(weights)):
        window += weights[i] - weights[i - length]
        if window > best:
            best, start = window, i - length + 1
    return start, start + length


def _span(first, last, count: int) -> str:
    names = f"{outcome_name(first)} to {outcome_name(last)}" if count > 1 else outcome_name(first)
    count_words = f"{count:,} outcome{'s' if count > 1 else ''}"
    return f"<i>{html.escape(names)} ({count_words})</i>"


def _row(shown: str, weight: int, remaining: int, total: int) -> str:
    p, up = Fraction(weight, total), Fraction(remaining, total)
    cells = (shown, fraction_html(p), html.escape(percent(p)), html.escape(percent(up)))
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"
