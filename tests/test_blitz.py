from fractions import Fraction

import icepool
import pytest

from wbk.errors import WbkError
from wbk.games.blitz import (
    Damage,
    Leader,
    damage,
    fire_outcome,
    fire_procedure,
    fire_strength,
    hits,
    passenger_damage,
    saving_leader,
    saving_throws,
    unsaved_hits,
)


def test_blitz_strength_modifiers_examples():
    infantry = fire_strength([5, 5, 5], firer_disrupted=True, target_terrain="town")
    assert infantry.dice == 4 and infantry == 4
    assert infantry.exact == Fraction(15, 4)
    assert [s.text for s in infantry.steps] == [
        "total strength 5 + 5 + 5 = 15",
        "firer disrupted: × ½ = 7.5",
        "target in town: × ½ = 3.75",
        "3.75 rounds up to 4 dice",
    ]
    tank = fire_strength([4], fire="at", range_hexes=1, target_terrain="woods")
    assert tank.dice == 20
    assert [s.text for s in tank.steps][1:3] == ["AT fire: × 5 = 20", "range 1: × 2 = 40"]
    assert all(s.rule.startswith("Blitz Combat, ") for s in tank.steps)


@pytest.mark.parametrize(
    "strengths, options, dice",
    [
        ([6], dict(fire="bombardment", target_non_vehicle_units=3), 12),
        ([6], dict(fire="direct", target_non_vehicle_units=2), 6),
        ([6], dict(fire="direct", target_non_vehicle_units=4), 12),
        ([6], dict(fire="direct", target_non_vehicle_units=4, crowded="exactly_three"), 6),
        ([2], dict(fire="at", target_non_vehicle_units=3), 10),  # crowding is for direct and bombardment
        ([0, 0], dict(fire="at"), 10),  # AT strength 0 fires as 1
        ([0, 0], dict(fire="direct"), 0),
        ([8], dict(target_terrain="dug_in_woods"), 4),  # the dug-in marker adds nothing to woods
        ([8], dict(target_terrain="dug_in"), 4),
        ([8], dict(target_terrain="hills"), 4),
        ([8], dict(target_terrain="entrenchment"), 2),
        ([5], dict(target_terrain="bunker"), 2),  # 1.25 rounds up
        ([5], dict(range_hexes=2), 5),
        ([3, 2], dict(fire="assault", engineer_strengths=[2]), 23),
        ([3, 2], dict(fire="assault", engineer_strengths=[2], target_terrain="bunker"), 6),
        ([3, 2], dict(fire="assault", engineer_strengths=[2], target_terrain="bunker", assault="no_range_or_terrain"), 23),
        ([3], dict(fire="assault", target_non_vehicle_units=3), 9),
        ([3], dict(fire="direct", engineer_strengths=[2]), 5),  # engineers count x4 only in assault
        ([7], dict(fire="direct", range_hexes=1, firer_disrupted=True, target_terrain="entrenchment"), 2),
    ],
)
def test_blitz_strength_modifiers(strengths, options, dice):
    assert fire_strength(strengths, **options).dice == dice


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: fire_strength([5, -1]), "strength -1 in strengths is negative"),
        (lambda: fire_strength([5, "x"]), "strength 'x' in strengths is not a whole number"),
        (lambda: fire_strength(5), "strengths 5 is not a list"),
        (lambda: fire_strength([5], target_terrain="swamp"), "target terrain 'swamp' is not one of open, woods"),
        (lambda: fire_strength([5], fire="artillery"), "fire type 'artillery' is not one of direct"),
        (lambda: fire_strength([5], range_hexes=-2), "range -2 is not a whole number"),
        (lambda: fire_strength([]), "no firing units"),
        (lambda: unsaved_hits(3, 13), "leader morale 13 is not a whole number from 2 to 12"),
        (lambda: Leader(1), "leader morale 1 is not"),
        (lambda: hits(-3), "number of dice -3"),
        (lambda: saving_throws(8, [1, 5]), "saving throw 1 is not a 2d6 roll"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(WbkError, match=message):
        call()


def test_blitz_leader_saving_throws_example():
    throws = saving_throws(9, [5, 6, 7, 10])
    assert (throws.saved, throws.remaining, throws.damage) == (3, 1, Damage.DISRUPTED)
    assert throws.steps[0].text == "4 hits on the hex: + 2 to each saving throw"
    assert throws.steps[4].text == "rolled 10 + 2 = 12: not saved (morale 9)"


def test_blitz_armor_protection_example():
    # three AT hits on armor 1 count as two, which demoralize: three hits need all three dice 6s
    assert hits(3, armor=1).probability(2) == Fraction(1, 216)
    assert damage(2) == Damage.DEMORALIZED


def test_damage_levels():
    assert [damage(h) for h in range(6)] == [
        Damage.NONE, Damage.DISRUPTED, Damage.DEMORALIZED, Damage.STEP_LOSS, Damage.ELIMINATED, Damage.ELIMINATED,
    ]
    assert passenger_damage(Damage.ELIMINATED) == Damage.ELIMINATED
    assert passenger_damage(Damage.DEMORALIZED) == Damage.NONE


def test_which_leader_throws():
    assert not Leader(9, "demoralized").can_save()
    assert Leader(9, "disrupted", in_target_hex=True).can_save()
    assert not Leader(9, "disrupted", in_target_hex=False).can_save()
    assert Leader(7, in_target_hex=False).can_save()
    choice = saving_leader([Leader(10, "demoralized"), Leader(9, "disrupted", in_target_hex=False), Leader(7, in_target_hex=False), Leader(8)])
    assert choice.leader == Leader(8)
    assert saving_leader([Leader(10, "demoralized")]).leader is None


def oracle_outcome(dice, fire, armor, morale):
    """The procedure written independently with icepool."""
    rolled = dice @ (icepool.d6 == 6)
    if fire == "assault":
        counted = rolled
    elif fire == "at":
        counted = rolled.map(lambda h: max(0, h - armor))
    elif armor:
        counted = icepool.Die([0])
    elif morale is not None:
        counted = rolled.map(lambda h: h @ ((2 @ icepool.d6) + h // 2 > morale))
    else:
        counted = rolled
    return counted.map(lambda h: min(h, 4))


@pytest.mark.parametrize("dice", [0, 1, 4, 9, 20])
@pytest.mark.parametrize("fire", ["direct", "bombardment", "at", "assault"])
@pytest.mark.parametrize("armor, morale", [(0, None), (0, 6), (0, 10), (1, None), (2, 8), (3, None)])
def test_fire_outcome_against_icepool(dice, fire, armor, morale):
    ours = fire_outcome(dice, fire=fire, armor=armor, leader_morale=morale)
    oracle = oracle_outcome(dice, fire, armor, morale)
    assert {int(o): p for o, p in ours.probabilities().items()} == {
        o: oracle.probability(o) for o in oracle.outcomes() if oracle.probability(o)
    }
    assert sum(ours.probabilities().values()) == 1


def test_leaders_do_not_save_against_at_or_assault():
    for fire in ("at", "assault"):
        assert fire_outcome(12, fire=fire, leader_morale=10) == fire_outcome(12, fire=fire)
    assert fire_outcome(12, leader_morale=10) != fire_outcome(12)
    assert fire_outcome(12, armor=1) == fire_outcome(0)
    procedure = fire_procedure(12, fire="at", armor=2, leader_morale=9)
    assert [s.text for s in procedure.steps][1:3] == [
        "AT fire: armor 2 takes 2 hits off",
        "leaders make no saving throws against AT fire",
    ]


def test_a_good_leader_saves_more():
    p_eliminated = [fire_outcome(20, leader_morale=m).probability(Damage.ELIMINATED) for m in range(6, 11)]
    assert p_eliminated == sorted(p_eliminated, reverse=True)
    assert fire_outcome(20).probability(Damage.ELIMINATED) > p_eliminated[0]
