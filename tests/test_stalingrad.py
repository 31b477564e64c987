import itertools
import tomllib
from collections import Counter
from fractions import Fraction
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.games.stalingrad import (
    Crt,
    Effect,
    Situation,
    Unit,
    close_assault_bonus,
    example_crt,
    example_situation,
    retreat_after_combat,
)
from wbk.maps import HexMap

CRT1, CRT2 = example_crt("illustrative_1d6"), example_crt("illustrative_2d6")
F = Fraction

# The supplement's 9.67 example: 15 AF, the defender's 3 DF.
SEED_ATTACK = [
    Unit("I/194 GR", "German", "infantry", 6),
    Unit("Pi 336", "German", "engineer", 4),
    Unit("StuG III", "German", "tank", 5),
]
SEED_DEFENCE = [Unit("3/1045", "Soviet", "infantry", 3)]


#: The files the rule set ships, read directly (the oracle's own copy of a table)
SHIPPED = resources.files("wbk.games.stalingrad")


def shipped_table(name: str) -> dict:
    """The shipped TOML read directly, as the oracle's own copy of the table."""
    text = (SHIPPED / "crts" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


# --- 9.67 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("crt", [CRT1, CRT2], ids=["1d6", "2d6"])
def test_9_67_seed_example(crt):
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=crt)
    assert a.allowed
    assert (a.column, a.bonus_column, a.fire_column) == ("10-19", "20-29", "4")
    assert a.without.column == Dist.always("10-19")
    assert a.plain_fire_column == "3" and a.without.fire == crt.resolve(3)  # not first
    assert a.without.result == crt.resolve(15)
    assert a.with_bonus.fire == crt.resolve(3, shift=1)
    texts = [s.text for s in a.steps]
    assert "attack strength 15 AF: the 10-19 column" in texts
    assert "the defender's 3 DF fires first, one column higher: 4" in texts
    assert all(
        s.rule.startswith("Streets of Stalingrad 9.67") for s in a.steps if "column" in s.text
    )
    assert texts[0].endswith("(not the published table)")  # the illustrative tables say so
    assert "the defender always takes the first fire 9.67 lets him take" in texts
    silent = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=crt, fire_without_bonus="none")
    assert silent.plain_fire_column is None and silent.without.fire == Dist.always("no fire")
    assert silent.without.attacker_losses == Dist.always(0)
    assert silent.with_bonus == a.with_bonus


def test_9_67_what_the_bonus_is_weighed_against():
    # the seed example on 2d6: the defender's 3 DF costs 0.17 units without the bonus too
    own = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=CRT2)
    silent = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=CRT2, fire_without_bonus="none")
    assert own.without.attacker_losses.mean() == F(1, 6)  # "1P" on 9-11 of the 3 column
    assert silent.without.attacker_losses.mean() == 0
    assert own.with_bonus.attacker_losses.mean() == silent.with_bonus.attacker_losses.mean()
    assert "for 0.17 → 0.31 attacking units lost on average" in own.verdict
    assert "for 0.31 attacking units lost on average" in silent.verdict
    # two battalions with 4 DF on 1d6: the verdict turns with the reading
    two = [Unit("3/1045", "Soviet", "infantry", 2), Unit("2/1045", "Soviet", "infantry", 2)]
    own = close_assault_bonus(SEED_ATTACK, two, 4)
    silent = close_assault_bonus(SEED_ATTACK, two, 4, fire_without_bonus="none")
    assert own.verdict.startswith("Use the Close Assault Bonus")
    assert silent.verdict.startswith("Do not use the Close Assault Bonus")


def test_9_67_the_column_after_the_fire():
    # 15 AF of which a qualifying 6: losing the tank leaves 6 AF on 5-9
    attack = [Unit("GR", "German", "infantry", 6), Unit("Tiger", "German", "tank", 9)]
    left = close_assault_bonus(attack, SEED_DEFENCE, 3, column_after_fire="af_left")
    announced = close_assault_bonus(attack, SEED_DEFENCE, 3)  # the default
    assert left.with_bonus.attacker.probability("1 lost (Tiger)") == F(1, 6)
    assert left.with_bonus.column.probabilities() == {
        "10-19": F(1, 2) + F(1, 6),  # pinned on 10-19, or the Tiger lost: 5-9 one higher
        "20-29": F(1, 3),
    }
    assert announced.with_bonus.column.probabilities() == {"10-19": F(1, 2), "20-29": F(1, 2)}
    assert any("(as the example's closing sentence lets him)" in s.text for s in announced.steps)
    assert any(
        s.rule == "Streets of Stalingrad 9.67, reading: one column above the AF left after the fire"
        for s in left.steps
    )


def test_9_67_the_readings_part_after_eliminate_2():
    """GR 6 + Pi 4 + StuG 5 against 9 DF: the defender fires first on 10-19; after "eliminate
    2" the attacker keeps the GR (6 AF, on 5-9), so the bonus attack rolls on 20-29 as
    announced (the default: the example's closing sentence) or on 10-19, one above the AF left.
    The step names the reading in its words and its citation (issue 29)."""
    by = {
        reading: close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 9, column_after_fire=reading)
        for reading in ("announced", "af_left")
    }
    assert by["announced"] == close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 9)
    for a in by.values():
        assert a.fire_column == "10-19"
        assert a.with_bonus.attacker.probability("2 lost (Pi 336, StuG III)") == F(1, 6)
    after_2 = {
        reading: {e[3] for e in a.with_bonus.exchange.probabilities() if e[0] == "2"}
        for reading, a in by.items()
    }
    assert after_2 == {"announced": {"20-29"}, "af_left": {"10-19"}}
    assert by["announced"].with_bonus.column.probabilities() == {"10-19": F(1, 3), "20-29": F(2, 3)}
    assert by["af_left"].with_bonus.column.probabilities() == {"10-19": F(1, 2), "20-29": F(1, 2)}
    rules = {
        reading: [s.rule for s in a.steps if s.text.startswith("after the fire")]
        for reading, a in by.items()
    }
    assert rules == {
        "announced": ["Streets of Stalingrad 9.67, reading: after the fire: the column announced"],
        "af_left": [
            "Streets of Stalingrad 9.67, reading: one column above the AF left after the fire"
        ],
    }
    assert not [s for a in by.values() for s in a.steps if "announced'" in s.text + s.rule]


def test_9_67_seed_example_on_the_1d6_table():
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=CRT1)
    assert a.without.result.probabilities() == {
        "-": F(1, 6),
        "1": F(1, 3),
        "2": F(1, 6),
        "P": F(1, 3),
    }
    assert a.with_bonus.fire.probabilities() == {"-": F(1, 3), "1": F(1, 6), "P": F(1, 2)}
    assert a.with_bonus.column.probabilities() == {"10-19": F(1, 2), "20-29": F(1, 2)}
    assert a.with_bonus.result.probabilities() == {
        "-": F(1, 12),
        "1": F(1, 3),
        "2": F(1, 4),
        "P": F(1, 3),
    }
    assert a.with_bonus.attacker.probabilities() == {
        "none": F(1, 3),
        "pinned": F(1, 2),
        "1 lost (Pi 336)": F(1, 6),
    }
    assert a.with_bonus.attacker_losses.probabilities() == {0: F(5, 6), 1: F(1, 6)}
    # one defending unit: "2" eliminates the only one
    assert a.without.defender_losses.probabilities() == {0: F(1, 2), 1: F(1, 2)}
    assert a.with_bonus.defender_losses.probabilities() == {0: F(5, 12), 1: F(7, 12)}
    assert a.verdict == (
        "Do not use the Close Assault Bonus: the defender loses 0.50 → 0.58 units on average and "
        "is pinned or worse 83.33% → 91.67% of the time, for 0.17 attacking units lost on average."
    )


def _seed_oracle(name: str) -> tuple[Dist, Dist]:
    """Brute force over every roll of the dice: (attack result without the bonus, exchange with
    it as (fire code, units lost, column, attack code)), for the seed example's three units."""
    table = shipped_table(name)
    columns, results, effects = table["columns"], table["results"], table["effects"]
    faces = range(1, 7)
    dice = [(r,) for r in faces] if table["die"] == "1d6" else list(itertools.product(faces, faces))

    def read(roll: tuple, column: str) -> str:
        return results[str(sum(roll))][columns.index(column)]

    # Worked out by hand for infantry 6, engineer 4, tank 5: the attacker keeps the infantry and
    # then the most AF; a pin leaves no qualifying unit.
    column_after = {
        (0, False): "20-29",  # 15 AF, bonus
        (0, True): "10-19",  # 15 AF, all pinned
        (1, False): "20-29",  # engineer lost: 11 AF, infantry left
        (1, True): "10-19",
        (2, False): "10-19",  # engineer and tank lost: 6 AF on 5-9, bonus
        (2, True): "5-9",
        (3, False): None,
        (3, True): None,
    }
    without, exchange = Counter(), Counter()
    for fire_roll in dice:
        code = read(fire_roll, "4")
        words = effects[code]
        pinned = "pin" in words
        numbers = [int(w) for w in words.replace(",", " ").split() if w.isdigit()]
        lost = 3 if "all" in words else min(sum(numbers), 3)
        column = column_after[(lost, pinned)]
        for attack_roll in dice:
            result = "no attack" if column is None else read(attack_roll, column)
            exchange[(code, lost, column or "no attack", result)] += 1
    for attack_roll in dice:
        without[read(attack_roll, "10-19")] += len(dice)
    return Dist(without), Dist(exchange)


@pytest.mark.parametrize(
    "crt, name", [(CRT1, "illustrative_1d6"), (CRT2, "illustrative_2d6")], ids=["1d6", "2d6"]
)
def test_9_67_seed_example_against_every_roll_of_the_dice(crt, name):
    without, exchange = _seed_oracle(name)
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=crt)
    assert a.without.result == without
    assert a.with_bonus.exchange.map(lambda e: (e[0], e[2], e[3], e[4])) == exchange
    assert sum(a.with_bonus.exchange.probabilities().values()) == 1


def test_9_67_seed_example_on_the_2d6_table():
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=CRT2)
    # column 4 on 2d6: P on 6-8, 1P on 9-11, 2P on 12
    assert a.with_bonus.fire.probabilities() == {
        "-": F(10, 36),
        "1P": F(9, 36),
        "2P": F(1, 36),
        "P": F(16, 36),
    }
    assert a.with_bonus.attacker.probabilities() == {
        "none": F(10, 36),
        "pinned": F(16, 36),
        "1 lost (Pi 336), rest pinned": F(9, 36),
        "2 lost (Pi 336, StuG III), rest pinned": F(1, 36),
    }
    assert a.with_bonus.column.probabilities() == {
        "20-29": F(10, 36),
        "10-19": F(25, 36),
        "5-9": F(1, 36),
    }


@pytest.mark.parametrize(
    "attack, not_adjacent, why",
    [
        (
            [Unit("Pz", "German", "tank", 15)],
            (),
            "no unpinned, unspent infantry or engineer unit adjacent: no bonus",
        ),
        (
            [Unit("Pz", "German", "tank", 9), Unit("GR", "German", "infantry", 6, pinned=True)],
            (),
            "(GR: pinned, spent or not adjacent)",
        ),
        (
            [Unit("Pz", "German", "tank", 9), Unit("GR", "German", "infantry", 6, spent=True)],
            (),
            "(GR: pinned, spent or not adjacent)",
        ),
        (
            [Unit("Pz", "German", "tank", 9), Unit("GR", "German", "infantry", 6)],
            ("GR",),
            "(GR: pinned, spent or not adjacent)",
        ),
    ],
)
def test_9_67_bonus_needs_an_unpinned_unspent_adjacent_infantry_or_engineer(
    attack, not_adjacent, why
):
    a = close_assault_bonus(attack, SEED_DEFENCE, 3, not_adjacent=not_adjacent)
    assert not a.allowed and a.with_bonus is None and a.bonus_column is None
    assert a.verdict.startswith("No Close Assault Bonus here")
    assert any(why in s.text for s in a.steps)
    assert a.without.result == CRT1.resolve(15)


def _table(rows: dict[int, list[str]], name: str = "test table") -> Crt:
    lines = [
        f'name = "{name}"',
        'die = "1d6"',
        'columns = ["1", "2", "3", "4-9", "10-19", "20+"]',
        "[results]",
    ]
    lines += [f"{r} = {codes!r}".replace("'", '"') for r, codes in rows.items()]
    lines += ["[effects]", '"-" = "none"', '"P" = "pin"', '"1" = "eliminate 1"']
    return Crt.from_toml("\n".join(lines), source="test.toml")


#                 1    2    3    4-9  10-19 20+
ONE_LOST = _table({r: ["-", "1", "-", "P", "P", "1"] for r in range(1, 7)})
HALF_PINNED = _table({r: ["-", "-", "-", "-" if r <= 3 else "P", "P", "1"] for r in range(1, 7)})


def test_9_67_the_attacker_chooses_his_losses():
    attack = [Unit("Tiger", "German", "tank", 10), Unit("GR", "German", "infantry", 2)]
    # under the announced column (the default) any loss that keeps the GR leaves the 20+
    announced = close_assault_bonus(attack, SEED_DEFENCE, 1, crt=ONE_LOST)
    assert announced.with_bonus.attacker == Dist.always("1 lost (Tiger)")
    assert announced.with_bonus.column == Dist.always("20+")
    keep = close_assault_bonus(attack, SEED_DEFENCE, 1, crt=ONE_LOST, column_after_fire="af_left")
    assert (keep.column, keep.bonus_column, keep.fire_column) == ("10-19", "20+", "2")
    assert keep.without.result == Dist.always("P")
    # keeping the qualifying infantry leaves 2 AF: the 2 column, one higher for the bonus
    assert keep.with_bonus.attacker == Dist.always("1 lost (Tiger)")
    assert keep.with_bonus.column == Dist.always("3")
    assert keep.with_bonus.result == Dist.always("-")
    assert keep.verdict.startswith("Do not use the Close Assault Bonus")
    best = close_assault_bonus(
        attack, SEED_DEFENCE, 1, crt=ONE_LOST, losses="best_column", column_after_fire="af_left"
    )
    assert best.with_bonus.attacker == Dist.always("1 lost (GR)")
    assert best.with_bonus.column == Dist.always("10-19")
    assert best.with_bonus.result == Dist.always("P")


def test_9_67_a_pin_ends_the_bonus_and_may_end_the_attack():
    attack = [Unit("GR", "German", "infantry", 4)]
    counts = close_assault_bonus(attack, SEED_DEFENCE, 3, crt=HALF_PINNED)
    assert (counts.column, counts.bonus_column, counts.fire_column) == ("4-9", "10-19", "4-9")
    assert counts.with_bonus.fire.probabilities() == {"-": F(1, 2), "P": F(1, 2)}
    assert counts.with_bonus.column.probabilities() == {"10-19": F(1, 2), "4-9": F(1, 2)}
    drops = close_assault_bonus(attack, SEED_DEFENCE, 3, crt=HALF_PINNED, pinned_attack="drops_out")
    assert drops.with_bonus.column.probabilities() == {"10-19": F(1, 2), "no attack": F(1, 2)}
    assert drops.with_bonus.result.probabilities() == {"P": F(1, 2), "no attack": F(1, 2)}


def test_9_67_a_defence_of_0_df_fires_nothing_first():
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 0)
    assert a.fire_column is None and a.with_bonus.fire == Dist.always("no fire")
    assert a.with_bonus.column == Dist.always("20-29")
    assert a.verdict.startswith("Use the Close Assault Bonus")


def _brute_force_losses(attack, n, weight, qualifies, value):
    """The attacker's choice as wbk made it before: every combination tried, in name order."""
    if n >= len(attack):
        return list(attack)
    best, best_key = [], None
    for lost in itertools.combinations(sorted(attack, key=lambda u: u.name), n):
        left = [u for u in attack if u not in lost]
        key = value(sum(weight(u) for u in left), any(qualifies(u) for u in left))
        if best_key is None or key > best_key:
            best, best_key = list(lost), key
    return best


@settings(max_examples=150, deadline=None)
@given(
    strengths=st.lists(st.integers(0, 6), min_size=1, max_size=7),
    flags=st.lists(st.booleans(), min_size=7, max_size=7),
    n=st.integers(0, 7),
    steps=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    by=st.sampled_from(["qualified_first", "strength_first", "column"]),
)
def test_9_67_the_loss_choice_equals_trying_every_combination(strengths, flags, n, steps, by):
    from wbk.games.stalingrad.close_assault import _choose_losses

    attack = [Unit(f"U{i % 3}{i}", "German", "infantry", s) for i, s in enumerate(strengths)]
    qualifying = {u.name for u, f in zip(attack, flags, strict=False) if f}
    thresholds = list(itertools.accumulate(steps))  # a stand-in for columns: a step function

    def value(strength, qualified):
        if by == "qualified_first":
            return (qualified, strength)
        rank = sum(strength >= t for t in thresholds) + (2 if qualified else 0)
        return (rank, strength, qualified) if by == "column" else (strength, qualified)

    def weight(u):
        return u.strength

    def qualifies(u):
        return u.name in qualifying

    assert _choose_losses(attack, n, weight, qualifies, value) == _brute_force_losses(
        attack, n, weight, qualifies, value
    )


def test_9_67_a_big_loss_to_a_big_attack_is_chosen_without_trying_every_combination():
    # "eliminate 8" against 24 units: 735,471 ways to choose, answered in one pass
    crt = Crt.from_toml(
        'name = "t"\ndie = "1d6"\ncolumns = ["1", "2-99"]\n[results]\n'
        + "".join(f'{r} = ["1", "1"]\n' for r in range(1, 7))
        + '[effects]\n"1" = "eliminate 8"\n',
        source="big.toml",
    )
    attack = [Unit(f"T{i:02}", "German", "tank", i % 5 + 1) for i in range(22)]
    attack += [Unit("GR", "German", "infantry", 1), Unit("Pi", "German", "engineer", 2)]
    a = close_assault_bonus(attack, SEED_DEFENCE, 1, crt=crt)
    lost = a.with_bonus.attacker.outcomes()[0]
    # the attacker keeps the engineers (to keep the bonus) and then the most AF: the eight lost
    # are the infantry (1 AF), the five 1-AF tanks and two of the 2-AF ones, first by name
    assert lost == "8 lost (GR, T00, T01, T05, T06, T10, T15, T20)"
    assert a.with_bonus.column == Dist.always("2-99")


@settings(max_examples=60, deadline=None)
@given(
    strengths=st.lists(st.integers(0, 12), min_size=1, max_size=4),
    kinds=st.lists(
        st.sampled_from(["infantry", "engineer", "tank", "gun"]), min_size=4, max_size=4
    ),
    pinned=st.lists(st.booleans(), min_size=4, max_size=4),
    df=st.integers(0, 40),
    defenders=st.integers(1, 4),
    two_dice=st.booleans(),
    losses=st.sampled_from(["keep_bonus", "best_column"]),
    readings=st.tuples(
        st.sampled_from(["own_column", "none"]), st.sampled_from(["af_left", "announced"])
    ),
)
def test_9_67_distributions_are_whole(
    strengths, kinds, pinned, df, defenders, two_dice, losses, readings
):
    strengths[0] = max(strengths[0], 1)
    attack = [
        Unit(f"A{i}", "German", kinds[i], s, pinned=pinned[i] and i > 0)
        for i, s in enumerate(strengths)
    ]
    defence = [Unit(f"D{i}", "Soviet", "infantry", 2) for i in range(defenders)]
    a = close_assault_bonus(
        attack,
        defence,
        df,
        crt=CRT2 if two_dice else CRT1,
        losses=losses,
        fire_without_bonus=readings[0],
        column_after_fire=readings[1],
    )
    options = [a.without] + ([a.with_bonus] if a.allowed else [])
    for option in options:
        for dist in (
            option.exchange,
            option.result,
            option.column,
            option.attacker_losses,
            option.defender_losses,
        ):
            assert sum(dist.probabilities().values()) == 1
        assert max(option.defender_losses.outcomes()) <= defenders
        assert max(option.attacker_losses.outcomes()) <= len(attack)
    assert a.allowed == any(u.kind in ("infantry", "engineer") and not u.pinned for u in attack)


# --- CRT files -----------------------------------------------------------------------------


def test_crt_columns_of_the_seed_example():
    assert CRT1.column_for(15) == "10-19"
    assert CRT1.column_for(3) == "3"
    assert CRT1.shift("10-19", 1) == "20-29"
    assert CRT1.shift(CRT1.column_for(3), 1) == "4"
    assert CRT1.column_for(30) == CRT1.column_for(1000) == "30+"
    with pytest.raises(WbkError, match="strength 0 is below the CRT's first column '1'"):
        CRT1.column_for(0)


def test_crt_a_closed_last_column_takes_every_higher_strength():
    assert ONE_LOST.column_for(500) == "20+"
    closed = Crt.from_toml(
        shipped_table_text("illustrative_1d6").replace('"30+"', '"30-39"'), source="closed.toml"
    )
    assert closed.column_for(40) == "30-39"


def shipped_table_text(name: str) -> str:
    return (SHIPPED / "crts" / f"{name}.toml").read_text(encoding="utf-8")


def test_crt_modified_rolls_past_the_table_read_its_first_or_last_row():
    assert CRT1.resolve(15, drm=10) == Dist.always("2")
    assert CRT1.resolve(15, drm=-10) == Dist.always("-")
    assert CRT1.resolve(15, drm=1).probabilities() == {"P": F(1, 3), "1": F(1, 3), "2": F(1, 3)}
    assert CRT2.resolve(1, drm=-3).probabilities() == {"-": F(35, 36), "P": F(1, 36)}


def test_crt_effects_in_words():
    assert CRT1.effect("P") == Effect(pin=True)
    assert CRT1.effect("-") == Effect() and not Effect().hurts
    assert CRT2.effect("1P") == Effect(1, pin=True) and str(CRT2.effect("1P")) == "eliminate 1, pin"
    assert CRT2.effect("X").losses(4) == 4 and CRT1.effect("3").losses(2) == 2


def test_crt_load_reads_the_shipped_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(shipped_table_text("illustrative_2d6"), encoding="utf-8")
    assert Crt.load(path).results == CRT2.results
    assert "ILLUSTRATIVE" in shipped_table_text("illustrative_1d6")
    assert "not the published table" in CRT1.name and "not the published table" in CRT2.name
    with pytest.raises(WbkError, match=r"missing\.toml: cannot read the CRT"):
        Crt.load(tmp_path / "missing.toml")


GOOD = shipped_table_text("illustrative_1d6")


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            '2 = ["-", "-", "-", "-", "-", "P",  "P",  "1"]',
            '2 = ["-", "-"]',
            "bad.toml: [results] 2: ['-', '-'] has 2 results for 8 columns",
        ),
        (
            '6 = ["P", "P", "P", "1", "1", "2",  "2",  "3"]',
            "",
            "bad.toml: [results]: roll 6 is missing",
        ),
        (
            '3 = ["-", "-", "-", "P"',
            '3 = ["-", "-", "-", "Q"',
            "bad.toml: [results] 3: code 'Q' has no entry in [effects]",
        ),
        ('"4", "5-9"', '"4-6", "5-9"', "bad.toml: columns: '5-9' overlaps '4-6'"),
        ('"5-9", "10-19"', '"10-19", "5-9"', "bad.toml: columns: '5-9' comes after '10-19'"),
        (
            '"4", "5-9"',
            '"4", "6-9"',
            "bad.toml: columns: '6-9' after '4' leaves strength 5 in no column",
        ),
        (
            '"20-29", "30+"',
            '"20+", "30-39"',
            "bad.toml: columns: '30-39' comes after the open column '20+'",
        ),
        ('"5-9"', '"9-5"', "bad.toml: columns: '9-5' is not a column heading"),
        ('die = "1d6"', 'die = "1d10"', "bad.toml: die: '1d10'"),
        ('die = "1d6"', 'die = "1d6"\ncolour = "red"', "bad.toml: colour: unknown key"),
        (
            "[results]",
            '[results]\n7 = ["-", "-", "-", "-", "-", "-", "-", "-"]',
            "bad.toml: [results] 7: unknown key: not a roll of 1d6",
        ),
        (
            '"P" = "pin"',
            '"P" = "suppress"',
            "bad.toml: [effects] P: 'suppress': unknown effect 'suppress'",
        ),
        ('"1" = "eliminate 1"', '"1" = "eliminate one"', "bad.toml: [effects] 1: 'eliminate one'"),
        ('"1" = "eliminate 1"', '"1" = 1', "bad.toml: [effects] 1: 1 is not an effect"),
        ('name = "Illustrative CRT (not the published table)"', "", "bad.toml: name: missing"),
        (
            'columns = ["1", "2", "3", "4", "5-9", "10-19", "20-29", "30+"]',
            "columns = 8",
            "bad.toml: columns: 8",
        ),
        ("[effects]", "[effects\n", "bad.toml: not valid TOML"),
    ],
)
def test_crt_malformed_files_name_the_file_the_key_and_the_value(old, new, message):
    assert old in GOOD
    with pytest.raises(WbkError, match=re_escape(message)):
        Crt.from_toml(GOOD.replace(old, new, 1), source="bad.toml")


def re_escape(text: str) -> str:
    import re

    return re.escape(text)


@settings(max_examples=80, deadline=None)
@given(
    strength=st.integers(1, 60),
    shift=st.integers(-10, 10),
    drm=st.integers(-15, 15),
    two=st.booleans(),
)
def test_crt_a_resolved_distribution_sums_to_1(strength, shift, drm, two):
    crt = CRT2 if two else CRT1
    dist = crt.resolve(strength, shift=shift, drm=drm)
    assert sum(dist.probabilities().values()) == 1
    column = crt.shift(crt.column_for(strength), shift)
    codes = {row[crt.columns.index(column)] for row in crt.results.values()}
    assert set(dist.outcomes()) <= codes


@given(i=st.integers(0, 7), n=st.integers(-20, 20))
def test_crt_shift_clamps_at_the_table_ends(i, n):
    column = CRT1.columns[i]
    assert CRT1.shift(column, n) == CRT1.columns[max(0, min(7, i + n))]
    assert CRT1.shift(CRT1.shift(column, n), -n) == column or not 0 <= i + n <= 7


# --- 9.87-9.89 retreat after combat ---------------------------------------------------------

# Around 1313: 1312 (N), 1413 (NE), 1414 (SE), 1314 (S), 1214 (SW), 1213 (NW).
PLAIN = HexMap("blocks", (10, 16), (10, 16))


def terrain_map(**terrain: list[str]) -> HexMap:
    return HexMap(
        "blocks",
        (10, 16),
        (10, 16),
        terrain_hexes={k: frozenset(map(PLAIN.hex, v)) for k, v in terrain.items()},
    )


def soviet(name, kind="infantry", strength=3, **state):
    return Unit(name, "Soviet", kind, strength, **state)


def german(name, kind="infantry", strength=5, **state):
    return Unit(name, "German", kind, strength, **state)


# a Pz III in 1412 puts 1312 and 1413 in its ZOC, grenadiers in 1113 put 1213 and 1214 in theirs
ENEMY = {"1412": [german("Pz III", "tank", 6)], "1113": [german("II/276 GR")]}


def labels(m, hexes):
    return sorted(m.label(h) for h in hexes)


def test_9_87_zoc_and_a_bombarded_hex_leave_one_way_out():
    units = {"1313": [soviet("1/42 Rifle")], **ENEMY}
    r = retreat_after_combat(PLAIN, units, "1313", bombarded=["1414"])
    assert r.terrain == "clear" and not r.may_stay and r.stay_eliminates is None
    assert labels(PLAIN, r.options["1/42 Rifle"]) == ["1314"]
    assert r.best == {"1/42 Rifle": PLAIN.hex("1314")}
    assert r.eliminated_at_least == 0 and r.eliminated == frozenset() and r.pinned == {"1/42 Rifle"}
    texts = [s.text for s in r.steps]
    assert "1312: in the ZOC of Pz III: no" in texts
    assert "1213: in the ZOC of II/276 GR: no" in texts
    assert "1414: being bombarded: no" in texts
    assert "1/42 Rifle retreats to 1314 and is pinned" in texts
    assert {s.rule for s in r.steps} >= {
        "Streets of Stalingrad 9.87",
        "Streets of Stalingrad 9.87; 6.0, wbk assumption",
    }
    both = retreat_after_combat(PLAIN, units, "1313", bombarded=["1414", "1213"])
    assert "1213: in the ZOC of II/276 GR; being bombarded: no" in [s.text for s in both.steps]
    # attack 1314 as well: no way out, the unit is eliminated
    r = retreat_after_combat(PLAIN, units, "1313", bombarded=["1414"], attacked=["1314"])
    assert r.options == {"1/42 Rifle": frozenset()} and r.best == {"1/42 Rifle": None}
    assert r.eliminated_at_least == 1 and r.pinned == frozenset()
    assert "1/42 Rifle: no hex to retreat into, eliminated" in [s.text for s in r.steps]


def test_9_87_an_enemy_unit_blocks_its_hex_and_a_friendly_unit_does_not_cancel_a_zoc():
    units = {
        "1313": [soviet("1/42 Rifle")],
        "1312": [soviet("2/42 Rifle")],
        "1414": [german("Mines", "minefield", 0)],
        **ENEMY,
    }
    r = retreat_after_combat(PLAIN, units, "1313")
    assert labels(PLAIN, r.options["1/42 Rifle"]) == ["1314"]
    (step,) = [s for s in r.steps if s.text.startswith("1414")]
    # 9.87 closes enemy ZOC, attacked and bombarded hexes: an enemy-occupied hex is closed by
    # wbk's assumption, and the step says so and cites it as one (issue 29)
    assert step.text == (
        "1414: enemy units (Mines; closed by wbk's assumption: 9.87 names only enemy ZOC): no"
    )
    assert step.rule == "wbk assumption"
    bombarded = retreat_after_combat(PLAIN, units, "1313", bombarded=["1414"])
    (step,) = [s for s in bombarded.steps if s.text.startswith("1414")]
    assert step.rule == "Streets of Stalingrad 9.87, wbk assumption"
    assert step.text.endswith("; being bombarded: no")


def test_9_87_two_units_share_one_free_hex_and_the_stacking_limit_costs_one():
    units = {
        "1313": [soviet("1/42 Rifle", strength=4), soviet("2/42 Rifle", strength=2)],
        "1314": [soviet("3/42 Rifle"), soviet("AT/42", "gun", 2)],
        **ENEMY,
    }
    r = retreat_after_combat(PLAIN, units, "1313", bombarded=["1414"])
    assert r.options == {"1/42 Rifle": {PLAIN.hex("1314")}, "2/42 Rifle": {PLAIN.hex("1314")}}
    assert r.best == {"1/42 Rifle": PLAIN.hex("1314"), "2/42 Rifle": None}
    assert r.eliminated_at_least == 1 and r.pinned == {"1/42 Rifle"}
    assert "1314: open, room for 1 under the stacking limit of 3" in [s.text for s in r.steps]
    assert "2/42 Rifle: no room left, eliminated" in [s.text for s in r.steps]
    roomy = retreat_after_combat(PLAIN, units, "1313", bombarded=["1414"], stacking_limit=4)
    assert roomy.eliminated_at_least == 0 and set(roomy.best.values()) == {PLAIN.hex("1314")}
    full = retreat_after_combat(PLAIN, units, "1313", bombarded=["1414"], stacking_limit=2)
    assert full.options["1/42 Rifle"] == frozenset() and full.eliminated_at_least == 2
    assert "1314: 2 friendly units already, the stacking limit of 2: no" in [
        s.text for s in full.steps
    ]
    assert (
        retreat_after_combat(
            PLAIN, units, "1313", bombarded=["1414"], stacking_limit=None
        ).eliminated_at_least
        == 0
    )


def test_9_87_the_retreat_spreads_over_the_free_hexes():
    units = {
        "1313": [soviet("A", strength=1), soviet("B", strength=2), soviet("C", strength=3)],
        "1412": ENEMY["1412"],
    }
    r = retreat_after_combat(PLAIN, units, "1313")
    assert labels(PLAIN, r.options["A"]) == ["1213", "1214", "1314", "1414"]
    assert [PLAIN.label(r.best[n]) for n in "CBA"] == ["1414", "1314", "1214"]


@pytest.mark.parametrize("terrain", ["balka", "forest", "suburb", "village"])
def test_9_88_stay_or_go(terrain):
    m = terrain_map(**{terrain: ["1313"]})
    two = {
        "1313": [soviet("1/42 Rifle", strength=4), soviet("2/42 Rifle", strength=2)],
        "1314": [soviet("S1"), soviet("S2")],
        **ENEMY,
    }
    r = retreat_after_combat(m, two, "1313", bombarded=["1414"])
    assert r.terrain == terrain and r.may_stay and r.stay_eliminates == "2/42 Rifle"
    assert r.best == {"1/42 Rifle": m.hex("1314"), "2/42 Rifle": None}
    assert r.eliminated_at_least == 1
    assert "staying and retreating each cost 1 unit" in [s.text for s in r.steps]
    assert f"1313 is {terrain}: the units may retreat, or stay by eliminating one of them" in [
        s.text for s in r.steps
    ]
    # boxed in with three units: staying costs 1, retreating all 3
    three = {"1313": [soviet("A"), soviet("B"), soviet("C")], **ENEMY}
    r = retreat_after_combat(m, three, "1313", bombarded=["1414"], attacked=["1314"])
    assert r.best == {"A": None, "B": None, "C": None} and r.eliminated_at_least == 1
    assert "staying costs 1 unit, retreating 3: staying is cheaper" in [s.text for s in r.steps]
    # open ground behind: retreating costs nothing
    r = retreat_after_combat(m, {"1313": [soviet("A")]}, "1313")
    assert r.eliminated_at_least == 0 and r.may_stay
    assert "retreating costs nothing, staying 1 unit" in [s.text for s in r.steps]
    assert PLAIN.hex("1313") not in r.options["A"]


def test_9_88_stay_and_go_each_describe_one_choice_whole():
    m = terrain_map(balka=["1313"])
    two = {
        "1313": [soviet("1/42 Rifle", strength=4), soviet("2/42 Rifle", strength=2)],
        "1314": [soviet("S1"), soviet("S2")],
        **ENEMY,
    }
    r = retreat_after_combat(m, two, "1313", bombarded=["1414"])
    assert r.go.eliminated == ("2/42 Rifle",) and r.go.pinned_in == {"1/42 Rifle": m.hex("1314")}
    assert r.stay.eliminated == ("2/42 Rifle",) and r.stay.pinned_in == {
        "1/42 Rifle": m.hex("1313")
    }
    assert r.go.describe(m) == "lost: 2/42 Rifle; pinned: 1/42 Rifle in 1314"
    assert r.pinned == {"1/42 Rifle"} and r.eliminated_at_least == 1  # today's fields stay
    clear = retreat_after_combat(PLAIN, two, "1313", bombarded=["1414"])
    assert clear.stay is None and clear.go.cost == 1
    city = retreat_after_combat(terrain_map(city=["1313"]), two, "1313")
    assert city.go is None and city.stay.pinned_in == {
        "1/42 Rifle": m.hex("1313"),
        "2/42 Rifle": m.hex("1313"),
    }


def test_9_88_may_the_unit_given_up_be_one_9_89_eliminates_anyway():
    m = terrain_map(forest=["1313"])
    boxed = {
        "1313": [soviet("Bunker 7", "fortification", 0), soviet("A", strength=4), soviet("B")],
        **ENEMY,
    }
    closed = {"bombarded": ["1414"], "attacked": ["1314"]}
    another = retreat_after_combat(m, boxed, "1313", **closed)
    assert another.go.eliminated == ("Bunker 7", "A", "B") and another.go.cost == 3
    assert another.stay.eliminated == ("Bunker 7", "B") and another.eliminated_at_least == 2
    counts = retreat_after_combat(m, boxed, "1313", given_up_to_stay="a_9_89_loss", **closed)
    assert counts.stay.eliminated == ("Bunker 7",) and counts.eliminated_at_least == 1
    assert counts.stay.pinned_in == {"A": m.hex("1313"), "B": m.hex("1313")}
    assert counts.stay_eliminates == "Bunker 7"
    assert "staying costs nothing more, retreating 2: staying is cheaper" in [
        s.text for s in counts.steps
    ]
    assert counts.summary.endswith(
        "or stay at no further cost; 1 of 3 units eliminated (the cheaper choice)"
    )


def test_9_87_the_hex_he_retreats_into():
    four = {"1313": [soviet(f"{n}/42 Rifle", strength=n) for n in (1, 2, 3, 4)]}
    any_hexes = retreat_after_combat(PLAIN, four, "1313", stacking_limit=3)
    assert any_hexes.eliminated_at_least == 0
    assert len(set(any_hexes.best.values())) == 4  # spread over four of the six hexes
    one_hex = retreat_after_combat(PLAIN, four, "1313", stacking_limit=3, retreat_into="one_hex")
    assert one_hex.eliminated_at_least == 1 and one_hex.go.eliminated == ("1/42 Rifle",)
    assert set(one_hex.go.pinned_in.values()) == {PLAIN.hex("1312")}
    (together,) = [s for s in one_hex.steps if "together" in s.text]
    assert together.text == "the units retreat together into one hex: 1312, with room for 3"
    assert together.rule == "Streets of Stalingrad 9.87, wbk assumption, reading: all into one hex"
    # one hex with room for the four, the other hexes with none: the same either way
    crowded = {**four, "1314": [soviet("S1")]}
    for h in ("1212", "1213", "1412", "1413", "1312"):
        crowded[h] = [soviet(f"{h}a"), soviet(f"{h}b"), soviet(f"{h}c")]
    for reading in ("any_hexes", "one_hex"):
        r = retreat_after_combat(PLAIN, crowded, "1313", stacking_limit=5, retreat_into=reading)
        assert r.go.eliminated == ()


def test_9_87_zoc_of_pinned_or_spent_units():
    pinned = {
        "1412": [german("Pz III", "tank", 6, pinned=True)],
        "1113": [german("GR", spent=True)],
    }
    units = {"1313": [soviet("1/42 Rifle")], **pinned}
    exerts = retreat_after_combat(PLAIN, units, "1313")
    assert labels(PLAIN, exerts.options["1/42 Rifle"]) == ["1314", "1414"]
    none = retreat_after_combat(PLAIN, units, "1313", pinned_zoc="none")
    assert labels(PLAIN, none.options["1/42 Rifle"]) == [
        "1213",
        "1214",
        "1312",
        "1314",
        "1413",
        "1414",
    ]
    (idle,) = [s for s in none.steps if s.text.startswith("pinned or spent")]
    assert idle.text == "pinned or spent, so exerting no ZOC: Pz III, GR"
    assert idle.rule == "6.0, wbk assumption, reading: no ZOC from pinned units"


def test_9_89_minefields_bridges_fortifications_and_immobilized_tanks():
    units = {
        "1313": [
            soviet("Mines", "minefield", 0),
            soviet("Bridge", "bridge", 0),
            soviet("Bunker", "fortification", 0),
            soviet("T-34 (dug in)", "tank", 5, immobilized=True),
            soviet("1/42 Rifle"),
        ],
        **ENEMY,
    }
    r = retreat_after_combat(PLAIN, units, "1313")
    assert r.unaffected == {"Mines", "Bridge"}
    assert r.eliminated == {"Bunker", "T-34 (dug in)"}
    assert set(r.options) == set(r.best) == {"1/42 Rifle"}
    assert r.eliminated_at_least == 2 and r.pinned == {"1/42 Rifle"}
    texts = [s.text for s in r.steps]
    assert "minefields and bridges are untouched: Bridge, Mines" in texts
    assert "Bunker: a fortification never retreats and is eliminated" in texts
    assert "T-34 (dug in): an immobilized Soviet tank never retreats and is eliminated" in texts
    # in a forest too; and there staying costs one more unit, so at least 2 either way
    forest = retreat_after_combat(terrain_map(forest=["1313"]), units, "1313")
    assert forest.eliminated == {"Bunker", "T-34 (dug in)"} and forest.eliminated_at_least == 2
    # an immobilized German tank: 9.89 names only Soviet tanks; unable to retreat, 9.87
    # eliminates it
    german_tank = retreat_after_combat(
        PLAIN, {"1313": [german("Pz IV", "tank", 7, immobilized=True)]}, "1313"
    )
    assert german_tank.eliminated == {"Pz IV"}
    assert german_tank.steps[2].rule == "Streets of Stalingrad 9.87, wbk assumption"


def test_9_87_other_terrain_only_pins():
    units = {
        "1313": [
            soviet("1/42 Rifle"),
            soviet("Bunker", "fortification", 0),
            soviet("Mines", "minefield", 0),
        ],
        **ENEMY,
    }
    r = retreat_after_combat(terrain_map(city=["1313"]), units, "1313")
    assert r.terrain == "other" and not r.may_stay
    assert r.options == {} and r.best == {} and r.eliminated_at_least == 0
    assert r.pinned == {"1/42 Rifle", "Bunker"} and r.unaffected == {"Mines"}
    assert r.steps[-1].rule == "wbk assumption" and "only pins" in r.steps[-1].text
    assert r.summary == "1313: the units are pinned and stay; no retreat"
    # clear listed explicitly is clear; a forest with a factory in it is not one of 9.88's terrains
    assert retreat_after_combat(terrain_map(clear=["1313"]), units, "1313").terrain == "clear"
    assert (
        retreat_after_combat(terrain_map(forest=["1313"], factory=["1313"]), units, "1313").terrain
        == "other"
    )


def test_9_87_at_the_map_edge():
    r = retreat_after_combat(PLAIN, {"1010": [soviet("A")]}, PLAIN.hex("1010"))
    assert len(r.options["A"]) == len(PLAIN.neighbors(PLAIN.hex("1010")))
    assert any("off the map" in s.text for s in r.steps)


@pytest.mark.parametrize(
    "units, target, message",
    [
        (
            {"1313": [soviet("A")], "1314": [german("A")]},
            "1313",
            "unit name 'A' is used in 1313 and 1314",
        ),
        ({"1313": [soviet("A"), soviet("A")]}, "1313", "unit name 'A' is used twice in hex 1313"),
        ({"1313": [soviet("A"), german("B")]}, "1313", "hex 1313 holds units of both sides"),
        ({"1313": [soviet("A")]}, "1314", "hex 1314 has no defending units"),
        (
            {"1313": [soviet("A")], PLAIN.hex("1313"): [soviet("B")]},
            "1313",
            "hex 1313 is listed twice",
        ),
        ({"1399": [soviet("A")]}, "1313", "hex 1399 is off the map"),
    ],
)
def test_9_87_bad_situations(units, target, message):
    with pytest.raises(WbkError, match=re_escape(message)):
        retreat_after_combat(PLAIN, units, target)


HEXES = [PLAIN.label(h) for h in PLAIN if h != PLAIN.hex("1313")]


@settings(max_examples=60, deadline=None)
@given(
    friends=st.dictionaries(st.sampled_from(HEXES), st.integers(1, 3), max_size=6),
    enemies=st.lists(st.sampled_from(HEXES), max_size=3),
    defenders=st.integers(1, 5),
    limit=st.integers(1, 4),
    bombarded=st.lists(st.sampled_from(HEXES), max_size=3),
)
def test_9_87_the_best_retreat_keeps_within_the_options_and_the_stacking_limit(
    friends, enemies, defenders, limit, bombarded
):
    units = {h: [soviet(f"{h}-{i}") for i in range(n)] for h, n in friends.items()}
    for h in enemies:
        units[h] = [german(f"G{h}")]
    units["1313"] = [soviet(f"D{i}", strength=i) for i in range(defenders)]
    r = retreat_after_combat(PLAIN, units, "1313", bombarded=bombarded, stacking_limit=limit)
    stack = Counter(h for h in r.best.values() if h is not None)
    for name, h in r.best.items():
        assert h is None or h in r.options[name]
    for h, n in stack.items():
        already = sum(u.side == "Soviet" for u in units.get(PLAIN.label(h), ()))
        assert already + n <= limit
    room = sum(
        limit - sum(u.side == "Soviet" for u in units.get(PLAIN.label(h), ()))
        for h in r.options["D0"]
    )
    assert sum(stack.values()) == min(defenders, room)
    lost = [n for n, h in r.best.items() if h is None]
    assert r.eliminated_at_least == len(lost)
    assert all(int(a[1:]) <= int(b[1:]) for a in lost for b in r.best if r.best[b] is not None)


# --- situations ----------------------------------------------------------------------------


def test_shipped_situation():
    s = example_situation("retreat_clear_hex")
    assert s.target == s.map.hex("1313") and s.stacking_limit == 3
    r = s.retreat()
    assert r.best == {"1/42 Rifle": s.map.hex("1414"), "2/42 Rifle": None}
    assert r.eliminated == {"Bunker 7"} and r.eliminated_at_least == 2
    assert r.summary == "1313: 1 of 2 units can retreat; 2 of 3 units eliminated"


SITUATION = """
name = "test"
map = "blocks.toml"
target = "1313"
attacked = ["1314"]
bombarded = ["1414"]
stacking_limit = 2

[units]
"1313" = [{ name = "A", side = "Soviet", kind = "infantry", strength = 3 }]
"1412" = [{ name = "Pz III", side = "German", kind = "tank", strength = 6, pinned = true }]
"""


def test_situation_load_reads_its_map_next_to_it(tmp_path):
    (tmp_path / "blocks.toml").write_text(PLAIN.to_toml(), encoding="utf-8")
    (tmp_path / "s.toml").write_text(SITUATION, encoding="utf-8")
    s = Situation.load(tmp_path / "s.toml")
    assert (
        s.map == PLAIN and s.attacked == {PLAIN.hex("1314")} and s.bombarded == {PLAIN.hex("1414")}
    )
    assert s.units[PLAIN.hex("1412")][0] == Unit("Pz III", "German", "tank", 6, pinned=True)
    r = s.retreat()
    assert labels(PLAIN, r.options["A"]) == ["1213", "1214"]
    assert s.retreat("1412").terrain == "clear"


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('name = "test"', 'name = "test"\nweather = "snow"', "s.toml: weather: unknown key"),
        ('map = "blocks.toml"', 'map = "nowhere.toml"', "s.toml: map: "),
        (
            'map = "blocks.toml"',
            "map = 3",
            "s.toml: map: 3 (expected a map file's path or a [map] table)",
        ),
        ('target = "1313"', 'target = "1399"', "s.toml: target: hex 1399 is off the map"),
        (
            'attacked = ["1314"]',
            'attacked = "1314"',
            "s.toml: attacked: '1314' (expected a list of quoted hex labels)",
        ),
        (
            "stacking_limit = 2",
            "stacking_limit = 0",
            's.toml: stacking_limit: 0 is not a whole number from 1 to 100, nor "none"',
        ),
        ('"1313" = [', '"13x3" = [', "s.toml: [units] 13x3: '13x3' is not a hex label"),
        (
            'kind = "infantry"',
            'kind = "cavalry"',
            "s.toml: [units] 1313: unit 'A': kind: 'cavalry' is not one of",
        ),
        (
            "strength = 3 }",
            "strength = 3, morale = 7 }",
            "s.toml: [units] 1313: morale: unknown key",
        ),
        ('name = "A", ', "", "s.toml: [units] 1313: name: missing"),
        ('name = "Pz III"', 'name = "A"', "s.toml: units: unit name 'A' is used in 1313 and 1412"),
        ("[units]", "", "s.toml: units: missing"),
    ],
)
def test_situation_bad_files_name_the_file_and_key(tmp_path, old, new, message):
    (tmp_path / "blocks.toml").write_text(PLAIN.to_toml(), encoding="utf-8")
    assert old in SITUATION
    text = SITUATION.replace(old, new, 1)
    if old == "[units]":
        text = text.split("\n\n", 1)[0]
    with pytest.raises(WbkError, match=re_escape(message)):
        Situation.from_toml(text, source="s.toml", folder=tmp_path)


def test_situation_inline_map_errors_name_the_map_table():
    text = SITUATION.replace('map = "blocks.toml"\n', "").replace(
        "\n[units]",
        '\n[map]\nname = "m"\ncolumns = [10, 16]\nrows = [10, 16]\nlow_columns = "odd"\n'
        "hills = 1\n\n[units]",
    )
    with pytest.raises(WbkError, match=re_escape("s.toml: [map]: hills: unknown key")):
        Situation.from_toml(text, source="s.toml")
    fixed = Situation.from_toml(text.replace("hills = 1\n", ""), source="s.toml")
    assert fixed.map == HexMap("m", (10, 16), (10, 16))
    with pytest.raises(WbkError, match="situation 'test' names no target"):
        Situation(fixed.name, fixed.map, fixed.units).retreat()


def test_the_reference_examples_load():
    from pathlib import Path

    page = Path(__file__).parent.parent / "wbk/site/reference/stalingrad-data.md"
    section = page.read_text(encoding="utf-8")
    crt_text, situation_text = [block.split("\n", 1)[1] for block in section.split("```toml")[1:3]]
    crt_text, situation_text = crt_text.split("```")[0], situation_text.split("```")[0]
    assert Crt.from_toml(crt_text, source="README").results == CRT1.results
    s = Situation.from_toml(situation_text, source="README")
    r = s.retreat()
    assert r.eliminated == {"Bunker 7"} and r.best == {"1/42 Rifle": s.map.hex("1414")}


def test_situation_to_toml_reads_back_the_same_situation(tmp_path):
    s = example_situation("retreat_clear_hex")
    assert Situation.from_toml(s.to_toml(), source="again.toml") == s
    s.save(tmp_path / "saved.toml")
    assert Situation.load(tmp_path / "saved.toml") == s
    unlimited = Situation(
        "no limit",
        PLAIN,
        {"1313": [soviet("A", pinned=True, immobilized=True)]},
        stacking_limit=None,
        note='a "quoted" note',
    )
    text = unlimited.to_toml()
    assert 'stacking_limit = "none"' in text and "pinned = true, immobilized = true" in text
    assert Situation.from_toml(text, source="n.toml") == unlimited
    with pytest.raises(
        WbkError, match=re_escape("situation file name 'saved.txt' should end in .toml")
    ):
        s.save(tmp_path / "saved.txt")
    with pytest.raises(
        WbkError, match=re_escape("x.toml: cannot save the situation (No such file or directory)")
    ):
        s.save(tmp_path / "missing" / "x.toml")


# The chapter's worked examples of 9.87-9.89, shipped as situation files (name: legal hexes of
# each unit, where the best retreat sends it, units eliminated at least, may stay, steps shown).
SHIPPED_RETREATS = [
    (
        "one_way_out",
        {"1/42 Rifle": ["1314"]},
        {"1/42 Rifle": "1314"},
        0,
        False,
        [
            "1312: in the ZOC of Pz III/24: no",
            "1414: being bombarded: no",
            "1213: in the ZOC of II/276 GR: no",
        ],
    ),
    (
        "shared_hex",
        {"1/42 Rifle": ["1314"], "2/42 Rifle": ["1314"]},
        {"1/42 Rifle": "1314", "2/42 Rifle": None},
        1,
        False,
        [
            "1314: open, room for 1 under the stacking limit of 3",
            "2/42 Rifle: no room left, eliminated",
        ],
    ),
    (
        "balka_stay_or_go",
        {n: ["1315"] for n in ("1/13 Gds", "2/13 Gds", "Mortars/13")},
        {"1/13 Gds": "1315", "2/13 Gds": None, "Mortars/13": None},
        1,
        True,
        [
            "staying costs 1 unit, retreating 2: staying is cheaper",
            "to stay, the defender would eliminate Mortars/13 (the weakest: 9.88 lets him "
            "choose, and wbk picks for him)",
        ],
    ),
    (
        "rule_9_89",
        {"1/42 Rifle": ["1213", "1214", "1314", "1414"]},
        {"1/42 Rifle": "1414"},
        2,
        False,
        [
            "minefields and bridges are untouched: Minefield 3",
            "Bunker 7: a fortification never retreats and is eliminated",
            "T-34/84 Tk: an immobilized Soviet tank never retreats and is eliminated",
        ],
    ),
    (
        "four_in_the_open",
        {n: ["1213", "1214", "1314", "1414"] for n in ("1/13 Gds", "2/13 Gds", "3/13 Gds")}
        | {"Mortars/13": ["1213", "1214", "1314", "1414"]},
        {"1/13 Gds": "1414", "2/13 Gds": "1314", "3/13 Gds": "1214", "Mortars/13": "1213"},
        0,
        False,
        ["1413: in the ZOC of Pz III/24: no", "1312: in the ZOC of Pz III/24: no"],
    ),
]


@pytest.mark.parametrize(
    "name, options, best, at_least, may_stay, steps",
    SHIPPED_RETREATS,
    ids=[case[0] for case in SHIPPED_RETREATS],
)
def test_9_87_to_9_89_shipped_situations(name, options, best, at_least, may_stay, steps):
    s = example_situation(name)
    r = s.retreat()
    assert {u: labels(s.map, hexes) for u, hexes in r.options.items()} == options
    assert {u: h and s.map.label(h) for u, h in r.best.items()} == best
    assert r.eliminated_at_least == at_least and r.may_stay == may_stay
    assert set(steps) <= {step.text for step in r.steps}
    assert "ILLUSTRATIVE" in (SHIPPED / "situations" / f"{name}.toml").read_text(encoding="utf-8")
    assert Situation.from_toml(s.to_toml(), source=name) == s


def test_retreat_words_give_the_exact_number_lost_and_the_zoc():
    one_way = example_situation("one_way_out").retreat()
    assert one_way.steps[-1].text == "the defending units are pinned; no unit eliminated"
    assert one_way.summary.endswith("; no unit eliminated")
    labels = {one_way.map.label(h) for h in one_way.zoc}
    assert {"1213", "1214", "1312", "1413"} <= labels and "1314" not in labels
    m = HexMap("demo", (10, 16), (10, 16))
    cut_off = {"1313": [Unit(f"R{i}", "Soviet", "infantry", 2) for i in range(3)]}
    r = retreat_after_combat(m, cut_off, "1313", bombarded=m.neighbors(m.hex("1313")))
    assert r.steps[-1].text == "all 3 units eliminated"


def test_the_steps_say_whose_table_it_is_and_a_free_bonus_costs_nothing():
    attack = [Unit("GR", "German", "infantry", 6)]
    defence = [Unit("D", "Soviet", "infantry", 0)]
    a = close_assault_bonus(attack, defence, 0)
    # the table's name says it is not the published one; the citation names its file
    assert str(a.steps[0]) == (
        "on the Illustrative CRT (not the published table) "
        "[wbk/games/stalingrad/crts/illustrative_1d6.toml]"
    )
    assert "for no attacking units lost" in a.verdict and "0.00 attacking" not in a.verdict
    assert close_assault_bonus(attack, defence, 0, crt=ONE_LOST).steps[0].rule == "user data"


def test_situation_save_refuses_a_lone_surrogate_before_writing(tmp_path):
    s = example_situation("shared_hex")
    units = {h: list(here) for h, here in s.units.items()}
    first = next(iter(units))
    units[first][0] = Unit("1/42 \ud800", "Soviet", "infantry", 3)
    broken = Situation(s.name, s.map, units, target=s.target)
    path = tmp_path / "s.toml"
    with pytest.raises(WbkError, match=r"unit name '1/42 \\ud800' cannot be written to a file"):
        broken.save(path)
    assert list(tmp_path.iterdir()) == []


def test_crt_an_effect_given_twice_is_refused():
    text = (SHIPPED / "crts" / "illustrative_1d6.toml").read_text()
    text = text.replace('"2" = "eliminate 2"', '"2" = "pin, pin, eliminate 1, eliminate 2"')
    with pytest.raises(WbkError, match=r"c.toml: \[effects\] 2: .*'pin' is given twice"):
        Crt.from_toml(text, source="c.toml")


@pytest.mark.parametrize(
    "call, name",
    [
        (
            lambda: close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, column="af_left"),
            "close_assault_bonus",
        ),
        (
            lambda: retreat_after_combat(PLAIN, {"1313": [soviet("a")]}, "1313", into="one_hex"),
            "retreat_after_combat",
        ),
    ],
)
def test_an_unknown_keyword_is_one_wbk_error_line_naming_it_and_the_known_ones(call, name):
    with pytest.raises(WbkError, match=rf"^{name}: unknown keyword '\w+' \(it takes .+\)$") as e:
        call()
    assert "\n" not in str(e.value)


def test_a_situations_retreat_names_an_unknown_keyword():
    with pytest.raises(WbkError, match=r"^Situation.retreat: unknown keyword 'bogus' \(it takes "):
        example_situation("one_way_out").retreat(bogus=1)


def test_a_retreat_carries_its_map():
    from wbk.draw import picture

    retreat = example_situation("one_way_out").retreat()
    title = picture(retreat).axes[0].get_title()
    assert title == picture(retreat, map=retreat.map).axes[0].get_title()


def test_a_lookup_an_assault_and_a_retreat_say_why_under_their_verdicts():
    """Issue 40: each picture says the step its verdict rests on, with its rule."""
    from test_pictures import says_why

    crt = example_crt("illustrative_1d6")
    assert says_why(crt.lookup(15, shift=1)).startswith("Why: 15 AF on the 20-29 column: P (pin)")
    attack = [Unit("I/194 GR", "German", "infantry", 6), Unit("Pi 336", "German", "engineer", 4)]
    bonus = close_assault_bonus(attack, [Unit("3/1045", "Soviet", "infantry", 3)], 3, crt=crt)
    assert says_why(bonus).startswith("Why: the verdict weighs units for units")
    assert says_why(example_situation("one_way_out").retreat()) == (
        "Why: 1313 is clear: the defending units retreat one hex, then are pinned "
        "(Streets of Stalingrad 9.87)"
    )
    assert says_why(example_situation("balka_stay_or_go").retreat()).startswith(
        "Why: 1215 is balka: the units may retreat, or stay by eliminating one of them"
    )
