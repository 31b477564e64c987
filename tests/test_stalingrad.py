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


def shipped_table(name: str) -> dict:
    """The shipped TOML read directly, as the oracle's own copy of the table."""
    text = (resources.files("wbk") / "data" / "crt" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


# --- 9.67 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("crt", [CRT1, CRT2], ids=["1d6", "2d6"])
def test_9_67_seed_example(crt):
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=crt)
    assert a.allowed
    assert (a.column, a.bonus_column, a.fire_column) == ("10-19", "20-29", "4")
    assert a.without.column == Dist.always("10-19")
    assert a.without.attacker_losses == Dist.always(0)
    assert a.without.result == crt.resolve(15)
    assert a.with_bonus.fire == crt.resolve(3, shift=1)
    texts = [s.text for s in a.steps]
    assert "attack strength 15 AF: the 10-19 column" in texts
    assert "the defender's 3 DF fires first, one column higher: 4" in texts
    assert all(s.rule.startswith("Streets of Stalingrad 9.67") for s in a.steps if "column" in s.text)
    assert "ILLUSTRATIVE" in texts[0]


def test_9_67_seed_example_on_the_1d6_table():
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=CRT1)
    assert a.without.result.probabilities() == {"-": F(1, 6), "1": F(1, 3), "2": F(1, 6), "P": F(1, 3)}
    assert a.with_bonus.fire.probabilities() == {"-": F(1, 3), "1": F(1, 6), "P": F(1, 2)}
    assert a.with_bonus.column.probabilities() == {"10-19": F(1, 2), "20-29": F(1, 2)}
    assert a.with_bonus.result.probabilities() == {"-": F(1, 12), "1": F(1, 3), "2": F(1, 4), "P": F(1, 3)}
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
        "is pinned or worse 83% → 92% of the time, for 0.17 attacking units lost on average."
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


@pytest.mark.parametrize("crt, name", [(CRT1, "illustrative_1d6"), (CRT2, "illustrative_2d6")], ids=["1d6", "2d6"])
def test_9_67_seed_example_against_every_roll_of_the_dice(crt, name):
    without, exchange = _seed_oracle(name)
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=crt)
    assert a.without.result == without
    assert a.with_bonus.exchange.map(lambda e: (e[0], e[2], e[3], e[4])) == exchange
    assert sum(a.with_bonus.exchange.probabilities().values()) == 1


def test_9_67_seed_example_on_the_2d6_table():
    a = close_assault_bonus(SEED_ATTACK, SEED_DEFENCE, 3, crt=CRT2)
    # column 4 on 2d6: P on 6-8, 1P on 9-11, 2P on 12
    assert a.with_bonus.fire.probabilities() == {"-": F(10, 36), "1P": F(9, 36), "2P": F(1, 36), "P": F(16, 36)}
    assert a.with_bonus.attacker.probabilities() == {
        "none": F(10, 36),
        "pinned": F(16, 36),
        "1 lost (Pi 336), rest pinned": F(9, 36),
        "2 lost (Pi 336, StuG III), rest pinned": F(1, 36),
    }
    assert a.with_bonus.column.probabilities() == {"20-29": F(10, 36), "10-19": F(25, 36), "5-9": F(1, 36)}


@pytest.mark.parametrize(
    "attack, not_adjacent, why",
    [
        ([Unit("Pz", "German", "tank", 15)], (), "no unpinned, unspent infantry or engineer unit adjacent: no bonus"),
        ([Unit("Pz", "German", "tank", 9), Unit("GR", "German", "infantry", 6, pinned=True)], (), "(GR: pinned, spent or not adjacent)"),
        ([Unit("Pz", "German", "tank", 9), Unit("GR", "German", "infantry", 6, spent=True)], (), "(GR: pinned, spent or not adjacent)"),
        ([Unit("Pz", "German", "tank", 9), Unit("GR", "German", "infantry", 6)], ("GR",), "(GR: pinned, spent or not adjacent)"),
    ],
)
def test_9_67_bonus_needs_an_unpinned_unspent_adjacent_infantry_or_engineer(attack, not_adjacent, why):
    a = close_assault_bonus(attack, SEED_DEFENCE, 3, not_adjacent=not_adjacent)
    assert not a.allowed and a.with_bonus is None and a.bonus_column is None
    assert a.verdict.startswith("No Close Assault Bonus here")
    assert any(why in s.text for s in a.steps)
    assert a.without.result == CRT1.resolve(15)


def _table(rows: dict[int, list[str]], name: str = "test table") -> Crt:
    lines = [f'name = "{name}"', 'die = "1d6"', 'columns = ["1", "2", "3", "4-9", "10-19", "20+"]', "[results]"]
    lines += [f"{r} = {codes!r}".replace("'", '"') for r, codes in rows.items()]
    lines += ["[effects]", '"-" = "none"', '"P" = "pin"', '"1" = "eliminate 1"']
    return Crt.from_toml("\n".join(lines), source="test.toml")


#                 1    2    3    4-9  10-19 20+
ONE_LOST = _table({r: ["-", "1", "-", "P", "P", "1"] for r in range(1, 7)})
HALF_PINNED = _table({r: ["-", "-", "-", "-" if r <= 3 else "P", "P", "1"] for r in range(1, 7)})


def test_9_67_the_attacker_chooses_his_losses():
    attack = [Unit("Tiger", "German", "tank", 10), Unit("GR", "German", "infantry", 2)]
    keep = close_assault_bonus(attack, SEED_DEFENCE, 1, crt=ONE_LOST)
    assert (keep.column, keep.bonus_column, keep.fire_column) == ("10-19", "20+", "2")
    assert keep.without.result == Dist.always("P")
    # keeping the qualifying infantry leaves 2 AF: the 2 column, one higher for the bonus
    assert keep.with_bonus.attacker == Dist.always("1 lost (Tiger)")
    assert keep.with_bonus.column == Dist.always("3")
    assert keep.with_bonus.result == Dist.always("-")
    assert keep.verdict.startswith("Do not use the Close Assault Bonus")
    best = close_assault_bonus(attack, SEED_DEFENCE, 1, crt=ONE_LOST, losses="best_column")
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


@settings(max_examples=60, deadline=None)
@given(
    strengths=st.lists(st.integers(0, 12), min_size=1, max_size=4),
    kinds=st.lists(st.sampled_from(["infantry", "engineer", "tank", "gun"]), min_size=4, max_size=4),
    pinned=st.lists(st.booleans(), min_size=4, max_size=4),
    df=st.integers(0, 40),
    defenders=st.integers(1, 4),
    two_dice=st.booleans(),
    losses=st.sampled_from(["keep_bonus", "best_column"]),
)
def test_9_67_distributions_are_whole(strengths, kinds, pinned, df, defenders, two_dice, losses):
    strengths[0] = max(strengths[0], 1)
    attack = [Unit(f"A{i}", "German", kinds[i], s, pinned=pinned[i] and i > 0) for i, s in enumerate(strengths)]
    defence = [Unit(f"D{i}", "Soviet", "infantry", 2) for i in range(defenders)]
    a = close_assault_bonus(attack, defence, df, crt=CRT2 if two_dice else CRT1, losses=losses)
    options = [a.without] + ([a.with_bonus] if a.allowed else [])
    for option in options:
        for dist in (option.exchange, option.result, option.column, option.attacker_losses, option.defender_losses):
            assert sum(dist.probabilities().values()) == 1
        assert max(option.defender_losses.outcomes()) <= defenders
        assert max(option.attacker_losses.outcomes()) <= len(attack)
    assert a.allowed == any(u.kind in ("infantry", "engineer") and not u.pinned for u in attack)
