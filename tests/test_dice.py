import operator
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wbk.dice import SHORT_FRACTION, TABLE_ROWS, Dist, chance, d6, die, percent
from wbk.errors import WbkError


def same(ours: Dist, oracle: icepool.Die) -> bool:
    """Exact equality of every outcome's probability with icepool's."""
    theirs = {o: oracle.probability(o) for o in oracle.outcomes()}
    return ours.probabilities() == {o: p for o, p in theirs.items() if p}


@pytest.mark.parametrize("faces", [1, 2, 4, 6, 10, 12, 20])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 15])
def test_sum_of_n_dice_against_icepool(n, faces):
    assert same(n @ die(faces), n @ icepool.d(faces))


@pytest.mark.parametrize("n", [0, 1, 5, 20, 60])
@pytest.mark.parametrize("target", [2, 4, 6])
def test_hits_at_or_above_a_target_against_icepool(n, target):
    assert same(n @ (d6 >= target), n @ (icepool.d6 >= target))


@pytest.mark.parametrize("morale", range(2, 13))
@pytest.mark.parametrize("hits", [0, 1, 4, 9])
def test_roll_again_per_hit_against_icepool(hits, morale):
    """Each hit is saved when 2d6 plus one per two hits is at most the morale."""
    ours = (hits @ (d6 >= 6)).map(lambda h: h @ ((2 @ d6) + h // 2 > morale))
    oracle = (hits @ (icepool.d6 >= 6)).map(lambda h: h @ ((2 @ icepool.d6) + h // 2 > morale))
    assert same(ours, oracle)


@pytest.mark.parametrize(
    "op",
    [operator.add, operator.sub, operator.mul, operator.lt, operator.le, operator.gt, operator.ge],
)
def test_binary_operations_against_icepool(op):
    assert same(op(2 @ d6, die(8)), op(2 @ icepool.d6, icepool.d8))


def test_reading_a_distribution():
    two = 2 @ d6
    assert two.outcomes() == tuple(range(2, 13))
    assert two.probability(7) == Fraction(1, 6)
    assert two.probability(13) == 0
    assert two.at_least(10) == Fraction(1, 6)
    assert two.at_most(4) == Fraction(1, 6)
    assert two.mean() == 7
    assert two.total == 36
    assert two.table()[-1] == (12, Fraction(1, 36), Fraction(1, 36))
    assert two.table()[0] == (2, Fraction(1, 36), Fraction(1))


def test_conditioning_and_joint_outcomes():
    assert (2 @ d6).given(lambda x: x >= 11).probabilities() == {
        11: Fraction(2, 3),
        12: Fraction(1, 3),
    }
    both = Dist.joint(d6 >= 5, d6 >= 6)
    assert both.probability((True, True)) == Fraction(1, 18)
    assert sum(both.probabilities().values()) == 1
    with pytest.raises(WbkError, match="no outcome"):
        d6.given(lambda x: x > 6)


def test_is_in_and_equality():
    assert d6.is_in({1, 2}).probability(True) == Fraction(1, 3)
    assert Dist({1: 2, 2: 2}) == Dist({1: 1, 2: 1})
    assert Dist({1: Fraction(1, 3), 2: Fraction(2, 3)}) == Dist({1: 1, 2: 2})
    assert d6 != die(8)


def test_html_table_shows_fraction_percent_and_at_least():
    html = (d6 >= 5)._repr_html_()
    assert "<td>False</td><td>2/3</td><td>66.67%</td><td>100%</td>" in html
    assert "<td>True</td><td>1/3</td><td>33.33%</td><td>33.33%</td>" in html


@pytest.mark.parametrize(
    "p, shown",
    [
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(625, 26873856), "<0.01%"),  # eliminated by 4 dice against a morale-9 leader
        (Fraction(1, 10_000), "0.01%"),
        (Fraction(1, 6), "16.67%"),
        (Fraction(9_999, 10_000), "99.99%"),
        (1 - Fraction(1, 6**40), ">99.99%"),
    ],
)
def test_percent_never_rounds_a_chance_to_0_or_certainty(p, shown):
    assert percent(p) == shown


def test_the_table_spaces_its_own_columns():
    """A widget's pane gives a table no notebook styling: without its own spacing the headers
    read "outcomeprobabilitypercentat least"."""
    assert '<table class="wbk-dist" style="border-spacing: 1em 0">' in (2 @ d6)._repr_html_()


def test_the_table_never_shows_0_or_100_percent_for_what_may_or_may_not_happen():
    """40 dice hitting on 2: no row reads 0.00% or 100.00%, though some chances are tiny."""
    html = (40 @ (d6 >= 2))._repr_html_()
    assert html.count("<tr>") == 42
    assert "0.00%" not in html and "100.00%" not in html
    assert "≈ 1 in 1.34 × 10³¹</span></td><td>&lt;0.01%</td><td>100%</td>" in html  # no hit
    one = "≈ 1 in 6.68 × 10²⁸</span></td><td>&lt;0.01%</td><td>&gt;99.99%</td>"
    assert one in html
    assert "≈ 1 in 1,470</span></td><td>0.07%</td><td>0.07%</td>" in html  # all 40 hit


def test_chance_gives_the_fraction_and_percent_together():
    assert chance(Fraction(1, 216)) == "1/216 (0.46%)"
    assert chance(Fraction(1)) == "100%"
    assert chance((20 @ (d6 >= 6)).probability(0)) == "≈ 1 in 38.3 (2.61%)"
    assert chance(1 - (20 @ (d6 >= 6)).probability(0)) == "all but ≈ 1 in 38.3 (97.39%)"
    assert chance(Fraction(1, 43_012), longest=5) == "≈ 1 in 43,000 (<0.01%)"
    assert chance(Fraction(3, 7 * 10**30)) == "≈ 1 in 2.33 × 10³⁰ (<0.01%)"
    assert chance((20 @ (d6 >= 6)).at_least(4)) == "≈ 43.35%"


@pytest.mark.parametrize(
    "p, shown",
    [
        (Fraction(625, 26873856), "625/26873856 (<0.01%)"),  # 12 characters: still written out
        (Fraction(1, 1234567890123), "≈ 1 in 1.23 × 10¹² (<0.01%)"),  # 15 characters: odds
        (Fraction(2611944850725, 3775927000000), "≈ 69.17%"),  # the Pz 8 duel's 27 characters
        (Fraction(1, 3) - Fraction(1, 10**40), "≈ 33.33%"),
        (Fraction(7, 10**40 + 3), "≈ 1 in 1.43 × 10³⁹ (<0.01%)"),
        (1 - Fraction(7, 10**40 + 3), "all but ≈ 1 in 1.43 × 10³⁹ (>99.99%)"),
        (Fraction(5**5000, 6**5000), "≈ 1 in 8.06 × 10³⁹⁵ (<0.01%)"),  # 3,900 digits a part
        (Fraction(5, 6) ** 20_000, "≈ 1 in 4.22 × 10¹⁵⁸³ (<0.01%)"),  # past Python's 4,300
    ],
)
def test_a_chance_is_short_whatever_the_size_of_its_fraction(p, shown):
    """No sentence, title or label carries a 40-digit fraction: a fraction of at most
    ``SHORT_FRACTION`` characters, or odds to three figures, with the percent."""
    said = chance(p)
    assert said == shown
    fraction = said.split(" (")[0]
    assert "/" not in fraction or len(fraction) <= SHORT_FRACTION
    assert len(said) <= 40


def test_every_written_out_fraction_is_short():
    for n in range(1, 60):
        for p in ((n @ (d6 >= 6)).probability(1), (n @ d6).at_least(4 * n)):
            said = chance(p)
            if "/" in said:
                assert len(said.split(" (")[0]) <= SHORT_FRACTION


def test_a_huge_distribution_renders_its_table():
    """12,000 dice: weights of over 9,000 digits, which Python will not write out as text."""
    huge = 12_000 @ (d6 >= 6)
    html = huge._repr_html_()
    assert html.count("<tr>") == 1 + TABLE_ROWS + 2
    assert "<i>0 to 1969 (1,970 outcomes)</i>" in html  # the run of 60 likeliest outcomes
    assert "<td>2000</td>" in html
    assert "exact: a fraction whose denominator has 9,33" in html
    assert "<5,001-digit number ≈ 1.0000e5000>" in repr(Dist({1: 10**5000, 2: 1}))


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: -1 @ d6, "number of dice -1 is negative"),
        (lambda: 2.5 @ d6, "number of dice 2.5 is not a whole number"),
        (lambda: die(0), "a die needs at least one face, got 0"),
        (lambda: Dist({}), "at least one outcome"),
        (lambda: Dist({1: "three"}), "weight 'three' of outcome 1 is not a whole number"),
        (lambda: Dist({1: 0.5}), "weight 0.5 of outcome 1 is not a whole number"),
        (lambda: Dist({1: -1, 2: 3}), "weight -1 of outcome 1 is negative"),
        (lambda: Dist({1: 1, "a": 1}), "cannot be put in order"),
        (lambda: Dist({"a": 1}).mean(), "not numbers"),
        (lambda: True @ d6, "number of dice True is not a whole number of 0 or more"),
        (lambda: d6 @ 3, "write the number of dice first"),
        (lambda: die(6.0), "a die needs at least one face, got 6.0"),
        (lambda: d6.is_in("6"), "is_in: outcomes '6' is not a collection of outcomes"),
        (lambda: d6.is_in(6), "is_in: outcomes 6 is not a collection"),
        (lambda: d6.at_least("4"), "outcome '4' cannot be compared"),
        (lambda: d6.probability([6]), r"outcome \[6\] cannot be an outcome"),
        (lambda: d6 + "1", "cannot combine outcome 1 with outcome '1'"),
        (lambda: -Dist({"a": 1}), "cannot be negated"),
        (lambda: d6.map("double"), "map: f 'double' is not a function"),
        (lambda: d6.map(lambda o: [o]), "cannot be an outcome"),
        (lambda: Dist.joint(d6, 3), "joint: argument 2 3 is not a Dist"),
        (lambda: Dist.joint([d6, d6]), "pass the distributions one by one"),
        (lambda: Dist([1, 2, 3]), "a distribution needs a table of outcomes with weights"),
    ],
)
def test_bad_input_is_named(make, message):
    with pytest.raises(WbkError, match=message):
        make()


weights = st.dictionaries(st.integers(-5, 5), st.integers(1, 9), min_size=1, max_size=5)
dists = weights.map(Dist)


@given(dists, st.integers(0, 12))
def test_sums_add_up_to_one_and_match_icepool(d, n):
    rolled = n @ d
    assert sum(rolled.probabilities().values()) == 1
    assert same(rolled, n @ icepool.Die(d.weights))


@given(dists, dists, dists)
def test_addition_is_associative_and_commutative(a, b, c):
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a


@given(dists, st.integers(0, 6), st.integers(0, 6))
def test_sum_of_sums(d, m, n):
    assert (m @ d) + (n @ d) == (m + n) @ d


@given(dists, st.integers(-5, 5))
def test_at_least_and_at_most_are_complements(d, x):
    assert d.at_least(x) + d.at_most(x - 1) == 1


@given(dists)
def test_map_to_dists_mixes_by_weight(d):
    mixed = d.map(lambda o: abs(o) @ die(3))
    assert sum(mixed.probabilities().values()) == 1
    assert same(mixed, icepool.Die(d.weights).map(lambda o: abs(o) @ icepool.d3))


def test_long_fractions_are_shortened_in_the_table():
    from wbk.dice import fraction_html

    assert fraction_html(Fraction(1, 6)) == "1/6"
    long = (30 @ (d6 >= 6)).probability(1)
    shown = fraction_html(long)
    assert shown.startswith(f'<span title="exact: {long}"') and shown.endswith(
        ">≈ 1 in 39.6</span>"
    )
    middle = (20 @ (d6 >= 6)).at_least(4)
    # odds, as the rest of the column: never a decimal beside them
    assert fraction_html(middle).endswith(">≈ 1 in 2.31</span>")
    assert fraction_html(1 - long).endswith(">all but ≈ 1 in 39.6</span>")


def test_sums_of_a_sure_outcome_and_of_two_outcome_dice():
    assert 5 @ Dist.always(2) == Dist.always(10)
    assert 3 @ Dist.always(True) == Dist.always(3)
    assert 0 @ Dist.always(Fraction(1, 2)) == Dist.always(0)
    assert 3 @ Dist({0: 1, 2: 3}) == Dist({0: 1, 2: 9, 4: 27, 6: 27})


def test_a_distribution_is_not_a_truth_value():
    """``if d6 >= 5:`` would always be true (a Dist has a length): it is an error instead."""
    with pytest.raises(WbkError, match="neither true nor false"):
        if d6 >= 5:
            pass
