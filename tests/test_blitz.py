import re
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_bad_input import _key, _public_callables, bad

from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.games import blitz
from wbk.games.blitz import (
    PROTECTIONS,
    TARGETS,
    TERRAINS,
    Damage,
    Leader,
    Piece,
    attacks,
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

DISRUPTED_INF = Piece(5, disrupted=True)


def texts(result) -> list[str]:
    return [s.text for s in result.steps]


def test_blitz_strength_modifiers_examples():
    infantry = fire_strength([DISRUPTED_INF] * 3, target_terrain="town")
    assert infantry.dice == 4 and infantry == 4
    assert infantry.exact == Fraction(15, 4)
    assert texts(infantry) == [
        "total strength 5 + 5 + 5 = 15",
        "all 3 firers disrupted: × ½ = 7.5",
        "target in town: × ½ = 3.75",
        "3.75 rounds up to 4 dice",
    ]
    tank = fire_strength([4], fire="at", range_hexes=1, target_terrain="woods")
    assert tank.dice == 20
    assert texts(tank) == [
        "total strength 4",
        "AT fire: × 5 = 20",
        "range 1: × 2 = 40",
        "target in woods: × ½ = 20",
        "20 dice",
    ]
    assert all(s.rule.startswith("Blitz Combat, ") for s in infantry.steps + tank.steps)


@pytest.mark.parametrize(
    "strengths, options, dice",
    [
        ([6], dict(fire="bombardment", target_non_vehicle_units=3), 12),
        ([6], dict(fire="direct", target_non_vehicle_units=2), 6),
        ([6], dict(fire="direct", target_non_vehicle_units=4), 12),
        ([6], dict(fire="direct", target_non_vehicle_units=4, crowded="exactly_three"), 6),
        (
            [2],
            dict(fire="at", target_non_vehicle_units=3),
            10,
        ),  # crowding is for direct and bombardment
        ([0, 0], dict(fire="at"), 10),  # AT strength 0 fires as 1
        ([0, 0], dict(fire="direct"), 0),
        ([], dict(fire="at", engineer_strengths=[0]), 5),  # engineers' AT 0 too
        ([0], dict(fire="at", engineer_strengths=[0, 2]), 20),
        ([0], dict(fire="assault", engineer_strengths=[0]), 0),  # only AT strength 0 becomes 1
        ([5], dict(range_hexes=2), 5),
        ([3, 2], dict(fire="assault", engineer_strengths=[2]), 23),
        ([3, 2], dict(fire="assault", engineer_strengths=[2], protection="bunker"), 6),  # 5.75
        (
            [3, 2],
            dict(fire="assault", engineer_strengths=[2], protection="bunker", assault="no_terrain"),
            23,
        ),
        ([3], dict(fire="assault", target_non_vehicle_units=3), 9),
        ([3], dict(fire="direct", engineer_strengths=[2]), 5),  # engineers count x4 only in assault
        ([Piece(7, disrupted=True)], dict(range_hexes=1, protection="entrenchment"), 2),  # 1.75
    ],
)
def test_blitz_strength_modifiers(strengths, options, dice):
    assert fire_strength(strengths, **options).dice == dice


def test_crowded_hex_is_for_direct_fire_and_bombardment():
    assert texts(fire_strength([2], fire="at", target_non_vehicle_units=3))[2] == (
        "3 non-vehicle units in the target hex: no × 2, that is for direct fire and bombardment"
    )
    assert texts(fire_strength([2], fire="bombardment", target_non_vehicle_units=3))[1] == (
        "3 non-vehicle units in the target hex: × 2 = 4"
    )


def test_engineers_at_strength_zero_counts_as_one():
    strength = fire_strength([], fire="at", engineer_strengths=[0])
    assert texts(strength) == [
        "an AT strength of 0 counts as 1",
        "total strength 1",
        "AT fire: × 5 = 5",
        "5 dice",
    ]
    both = fire_strength([0], fire="at", engineer_strengths=[0])
    assert (both.dice, texts(both)[0]) == (10, "2 AT strengths of 0 count as 1")


# --- disrupted firers: each piece's part is halved (Blitz Combat, Damage) ---------------------


@pytest.mark.parametrize(
    "strengths, options, exact, dice",
    [
        ([5, DISRUPTED_INF, 5], dict(target_terrain="town"), Fraction(25, 4), 7),  # 12.5, then 6.25
        (
            [5, DISRUPTED_INF, DISRUPTED_INF],
            dict(target_terrain="town"),
            Fraction(5),
            5,
        ),  # 10, then 5
        ([DISRUPTED_INF] * 3, dict(target_terrain="town"), Fraction(15, 4), 4),  # the whole attack
        (
            [Piece(4, disrupted=True), 4],
            dict(fire="at", range_hexes=1),
            Fraction(60),
            60,
        ),  # 40 - 10, x2
        (
            [3, 2],
            dict(fire="assault", engineer_strengths=[Piece(2, disrupted=True)]),
            Fraction(19),
            19,
        ),
        (
            [Piece(3, disrupted=True)],
            dict(fire="direct", engineer_strengths=[2]),
            Fraction(7, 2),
            4,
        ),
        ([Piece(0, disrupted=True)], dict(fire="at"), Fraction(5, 2), 3),  # 0 -> 1, x5, halved
    ],
)
def test_only_disrupted_pieces_are_halved(strengths, options, exact, dice):
    strength = fire_strength(strengths, **options)
    assert (strength.exact, strength.dice) == (exact, dice)


def test_disrupted_pieces_steps():
    assert texts(fire_strength([5, DISRUPTED_INF, 5], target_terrain="town")) == [
        "total strength 5 + 5 + 5 = 15",
        "1 of 3 firers disrupted: their 5 of 15 counts half: 15 − 2.5 = 12.5",
        "target in town: × ½ = 6.25",
        "6.25 rounds up to 7 dice",
    ]
    assault = fire_strength([3, 2], fire="assault", engineer_strengths=[Piece(2, disrupted=True)])
    assert texts(assault)[1] == "1 of 3 firers disrupted: their 8 of 23 counts half: 23 − 4 = 19"
    assert assault.steps[1].rule == "Blitz Combat, Damage"
    assert texts(fire_strength([Piece(6, disrupted=True)]))[1] == "the firer is disrupted: × ½ = 3"


# --- terrain and protection -------------------------------------------------------------------

MULTIPLIER = {  # Blitz Combat, Combat Strength Modifiers, the last two modifiers
    ("open", "none"): 1,
    ("open", "dug_in"): Fraction(1, 2),
    ("open", "bunker"): Fraction(1, 4),
    ("open", "entrenchment"): Fraction(1, 4),
    **{(t, p): Fraction(1, 2) for t in ("woods", "hills", "town") for p in PROTECTIONS},
}


@pytest.mark.parametrize("terrain", TERRAINS)
@pytest.mark.parametrize("protection", PROTECTIONS)
def test_every_terrain_and_protection(terrain, protection):
    strength = fire_strength([8], target_terrain=terrain, protection=protection)
    assert strength.exact == 8 * MULTIPLIER[terrain, protection]


@pytest.mark.parametrize(
    "terrain, protection, said",
    [
        ("open", "dug_in", ["target dug in: × ½ = 4"]),
        ("open", "bunker", ["target in a bunker: × ¼ = 2"]),
        ("open", "entrenchment", ["target in an entrenchment: × ¼ = 2"]),
        ("town", "none", ["target in town: × ½ = 4"]),
        (
            "hills",
            "dug_in",
            [
                "target in hills: × ½ = 4",
                "dug in within hills: the marker adds nothing, the hex is halved once",
            ],
        ),
        (
            "woods",
            "bunker",
            [
                "target in woods: × ½ = 4",
                "bunker in woods: the ¼ does not apply in woods, hills or town;"
                " the ½ for woods does",
            ],
        ),
    ],
)
def test_terrain_steps_say_which_applied(terrain, protection, said):
    assert texts(fire_strength([8], target_terrain=terrain, protection=protection))[1:-1] == said


def test_terrain_of_an_assault_is_a_reading_and_range_never_counts():
    # wbk's reading: assault combat happens in the shared hex, so range 1 never doubles it
    assault = fire_strength([3], fire="assault", range_hexes=1, target_terrain="woods")
    assert assault.exact == Fraction(9, 2)
    assert texts(assault)[1] == "no range modifier: assault combat takes place in the shared hex"
    ignored = fire_strength(
        [3], fire="assault", range_hexes=1, target_terrain="woods", assault="no_terrain"
    )
    assert ignored.exact == 9
    (left_out,) = [s for s in ignored.steps if s.text.startswith("terrain and protection")]
    assert left_out.text == "terrain and protection left out of assault combat"
    assert left_out.rule.endswith(", reading: terrain and protection do not modify assault combat")
    assert (
        fire_strength([3], range_hexes=1, target_terrain="woods").exact == 3
    )  # direct fire: x2, x½


# --- what takes hits from what ------------------------------------------------------------------

NOTHING = Dist.always(Damage.NONE)


def all_hits(dice: int) -> Dist:
    return hits(dice).map(damage)


def test_only_vehicles_except_wagons_take_at_hits():
    assert fire_outcome(6, fire="at") == NOTHING  # a non-vehicle target, the default
    assert fire_outcome(6, fire="at", target="wagon") == NOTHING
    assert fire_outcome(6, fire="at", target="unarmored_vehicle") == all_hits(6)
    assert fire_outcome(6, fire="at", target="armored_vehicle", armor=1) == hits(6, armor=1).map(
        damage
    )
    at_truck = fire_outcome(6, fire="at", target="unarmored_vehicle")
    assert at_truck.probability(Damage.NONE) == Fraction(5, 6) ** 6 == Fraction(15625, 46656)
    assert texts(fire_procedure(6, fire="at", target="wagon"))[1] == (
        "AT fire: only vehicles other than wagons take AT hits; a wagon takes none"
    )
    assert texts(fire_procedure(6, fire="at"))[1] == (
        "AT fire: only vehicles other than wagons take AT hits; a non-vehicle unit takes none"
    )
    # non-vehicle units in a hex with the vehicle ignore the AT hits (said in the steps)
    assert "non-vehicle units in the vehicle's hex ignore these AT hits" in texts(
        fire_procedure(6, fire="at", target="unarmored_vehicle")
    )


@pytest.mark.parametrize("fire", ["direct", "bombardment"])
def test_armored_units_ignore_direct_fire_and_bombardment(fire):
    assert fire_outcome(12, fire=fire, target="armored_vehicle", armor=0) == NOTHING
    assert (
        fire_outcome(12, fire=fire, target="armored_vehicle", armor=2, leader_morale=9) == NOTHING
    )
    for target in ("non_vehicle", "unarmored_vehicle", "wagon"):
        assert fire_outcome(12, fire=fire, target=target) == all_hits(12)
        saved = unsaved_hits(hits(12), 9).map(damage)
        assert fire_outcome(12, fire=fire, target=target, leader_morale=9) == saved


@pytest.mark.parametrize("target", TARGETS)
def test_assault_hits_every_target_in_full(target):
    armor = 3 if target == "armored_vehicle" else None
    assert fire_outcome(
        5, fire="assault", target=target, armor=armor, leader_morale=10
    ) == all_hits(5)


def test_apc_passengers():
    # wbk's reading: an APC of one step that loses a step is destroyed, its passengers with it
    assert passenger_damage(Damage.STEP_LOSS, apc_steps=1) == Damage.ELIMINATED
    assert passenger_damage(Damage.STEP_LOSS, apc_steps=2) == Damage.NONE
    assert passenger_damage(Damage.ELIMINATED, apc_steps=2) == Damage.ELIMINATED
    assert passenger_damage(Damage.DEMORALIZED, apc_steps=1) == Damage.NONE


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: fire_strength([5, -1]), "strength in strengths: -1 is not a whole number of 0"),
        (lambda: fire_strength([5, "x"]), "strength in strengths: 'x' is not a whole number"),
        (lambda: fire_strength(5), "strengths 5 is not a list"),
        (lambda: fire_strength("55"), "strengths '55' is not a list"),
        (
            lambda: fire_strength([5], target_terrain="swamp"),
            "target terrain: 'swamp' is not one of open",
        ),
        (
            lambda: fire_strength([5], target_terrain="bunker"),
            "target terrain 'bunker' is a protection: give it as protection=...",
        ),
        (
            lambda: fire_strength([5], protection="foxhole"),
            "protection: 'foxhole' is not one of none",
        ),
        (
            lambda: fire_strength([5], fire="artillery"),
            "fire type: 'artillery' is not one of direct",
        ),
        (lambda: fire_strength([5], range_hexes=-2), "range: -2 is not a whole number"),
        (lambda: fire_strength([5], range_hexes=1.0), "range: 1.0 is not a whole number"),
        (
            lambda: fire_strength([5], assault="all_modifiers"),
            "reading of assault combat 'all_modifiers'",
        ),
        (lambda: fire_strength([5], target_non_vehicle_units=True), "non-vehicle units: True"),
        (lambda: fire_strength([]), "no firing units"),
        (lambda: Piece(5, disrupted="no"), "disrupted 'no' is not True or False"),
        (lambda: Piece("5"), "piece strength: '5' is not a whole number"),
        (lambda: unsaved_hits(3, 13), "leader morale: 13 is not a whole number from 2 to 12"),
        (lambda: unsaved_hits(Dist.always(-1), 8), "hits in the distribution hits_on_hex: -1"),
        (lambda: Leader(1), "leader morale: 1 is not"),
        (
            lambda: Leader(8, "disrupted", in_target_hex="no"),
            "in_target_hex 'no' is not True or False",
        ),
        (lambda: hits(-3), "number of dice: -3"),
        (lambda: hits(3, armor=-1), "armor value: -1"),
        (lambda: damage(True), "remaining hits: True is not a whole number"),
        (lambda: damage("3"), "remaining hits: '3' is not a whole number"),
        (lambda: damage(2.5), "remaining hits: 2.5 is not a whole number"),
        (lambda: saving_throws(8, [1, 5]), "saving throw: 1 is not a whole number from 2 to 12"),
        (lambda: saving_throws(8, 7), "saving throw rolls 7 is not a list"),
        (lambda: saving_throws(8, "57"), "saving throw rolls '57' is not a list"),
        (lambda: saving_leader(Leader(8)), "leaders Leader("),
        (lambda: saving_leader([8]), "leader 8 in leaders is not a Leader"),
        (
            lambda: passenger_damage("eliminated", apc_steps=1),
            "apc damage 'eliminated' is not a Damage",
        ),
        (
            lambda: passenger_damage(Damage.STEP_LOSS, apc_steps=0),
            "apc_steps 0 is not a whole number of 1",
        ),
        (lambda: fire_outcome(6, fire="at", armor=0), "armor 0 given for a non_vehicle target"),
        (
            lambda: fire_outcome(6, target="armored_vehicle"),
            "armor None: an armored_vehicle target needs",
        ),
        (
            lambda: fire_outcome(6, target="tank", armor=2),
            "target: 'tank' is not one of non_vehicle",
        ),
        (lambda: fire_procedure(6, target="armored_vehicle", armor=-1), "armor value: -1"),
        (lambda: fire_procedure(6, leader_morale="9"), "leader morale: '9'"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(WbkError, match=message.replace("(", r"\(")):
        call()


def test_public_names():
    assert set(blitz.__all__) >= {
        "fire_strength",
        "Piece",
        "TARGETS",
        "PROTECTIONS",
        "passenger_damage",
    }
    assert all(hasattr(blitz, name) for name in blitz.__all__)


#: Bad calls to every public function and class of wbk.games.blitz (and of its attacks), each a
#: WbkError naming the bad value (tests/test_bad_input.py's sweep, for this rule set).
BAD_CALLS = [
    bad(blitz.fire_strength, 5, names="strengths 5"),
    bad(blitz.fire_strength, "555", names="strengths '555'"),
    bad(blitz.fire_strength, [5, "5"], names="strength in strengths: '5'"),
    bad(blitz.fire_strength, [5, -1], names="strength in strengths: -1"),
    bad(blitz.fire_strength, [5, 2.5], names="strength in strengths: 2.5"),
    bad(blitz.fire_strength, [], names="no firing units"),
    bad(blitz.fire_strength, [5], fire="AT", names="fire type: 'AT'"),
    bad(blitz.fire_strength, [5], engineer_strengths=2, names="engineer strengths 2"),
    bad(
        blitz.fire_strength,
        [5],
        engineer_strengths=[True],
        names="strength in engineer strengths: True",
    ),
    bad(blitz.fire_strength, [5], range_hexes=-1, names="range: -1"),
    bad(blitz.fire_strength, [5], range_hexes="1", names="range: '1'"),
    bad(blitz.fire_strength, [5], target_non_vehicle_units=-1, names="non-vehicle units: -1"),
    bad(blitz.fire_strength, [5], target_non_vehicle_units=3.0, names="non-vehicle units: 3.0"),
    bad(blitz.fire_strength, [5], target_terrain="swamp", names="target terrain: 'swamp'"),
    bad(blitz.fire_strength, [5], target_terrain="dug_in", names="target terrain 'dug_in'"),
    bad(blitz.fire_strength, [5], protection="foxhole", names="protection: 'foxhole'"),
    bad(blitz.fire_strength, [5], protection=None, names="protection: None"),
    bad(blitz.fire_strength, [5], crowded="three", names="crowded hex 'three'"),
    bad(blitz.fire_strength, [5], assault=True, names="assault combat True"),
    bad(blitz.Piece, "5", names="piece strength: '5'"),
    bad(blitz.Piece, -2, names="piece strength: -2"),
    bad(blitz.Piece, 5, disrupted="no", names="disrupted 'no'"),
    bad(blitz.Piece, 5, disrupted=1, names="disrupted 1"),
    bad(blitz.hits, -1, names="number of dice: -1"),
    bad(blitz.hits, "6", names="number of dice: '6'"),
    bad(blitz.hits, 6, armor=-1, names="armor value: -1"),
    bad(blitz.hits, 6, armor=True, names="armor value: True"),
    bad(blitz.hits, 10_001, names="number of dice: 10,001 is over the limit of 10,000"),
    bad(blitz.unsaved_hits, 3, 13, names="leader morale: 13"),
    bad(blitz.unsaved_hits, 3, True, names="leader morale: True"),
    bad(blitz.unsaved_hits, -3, 8, names="hits on the hex: -3"),
    bad(blitz.unsaved_hits, "3", 8, names="hits on the hex: '3'"),
    bad(blitz.unsaved_hits, Dist.always(-1), 8, names="hits_on_hex: -1"),
    bad(blitz.damage, True, names="remaining hits: True"),
    bad(blitz.damage, "3", names="remaining hits: '3'"),
    bad(blitz.damage, 2.5, names="remaining hits: 2.5"),
    bad(blitz.damage, -1, names="remaining hits: -1"),
    bad(blitz.saving_throws, 8, 7, names="saving throw rolls 7"),
    bad(blitz.saving_throws, 8, "57", names="saving throw rolls '57'"),
    bad(blitz.saving_throws, 8, [5, 13], names="saving throw: 13"),
    bad(blitz.saving_throws, 8, [5, 5.0], names="saving throw: 5.0"),
    bad(blitz.saving_throws, 1, [5], names="leader morale: 1"),
    bad(blitz.saving_throws, "9", [5], names="leader morale: '9'"),
    bad(blitz.Leader, 13, names="leader morale: 13"),
    bad(blitz.Leader, 8, "shaken", names="leader state 'shaken'"),
    bad(blitz.Leader, 8, "disrupted", in_target_hex="no", names="in_target_hex 'no'"),
    bad(blitz.saving_leader, blitz.Leader(8), names="leaders Leader(morale=8"),
    bad(blitz.saving_leader, [9], names="leader 9 in leaders"),
    bad(blitz.fire_procedure, -1, names="number of dice: -1"),
    bad(blitz.fire_procedure, 6, fire="artillery", names="fire type: 'artillery'"),
    bad(blitz.fire_procedure, 6, target="tank", armor=1, names="target: 'tank'"),
    bad(blitz.fire_procedure, 6, target="armored_vehicle", names="armor None"),
    bad(blitz.fire_procedure, 6, target="armored_vehicle", armor=-1, names="armor value: -1"),
    bad(
        blitz.fire_procedure, 6, fire="at", armor=0, names="armor 0 given for a non_vehicle target"
    ),
    bad(blitz.fire_procedure, 6, target="wagon", armor=1, names="armor 1 given for a wagon target"),
    bad(blitz.fire_procedure, 6, leader_morale=0, names="leader morale: 0"),
    bad(blitz.fire_outcome, 6.0, names="number of dice: 6.0"),
    bad(blitz.fire_outcome, 12_000, names="number of dice: 12,000 is over the limit of 10,000"),
    bad(blitz.fire_outcome, 6, fire="at", armor=0, names="armor 0 given for a non_vehicle target"),
    bad(blitz.fire_outcome, 6, leader_morale="8", names="leader morale: '8'"),
    bad(blitz.passenger_damage, "eliminated", apc_steps=1, names="apc damage 'eliminated'"),
    bad(blitz.passenger_damage, 4, apc_steps=1, names="apc damage 4"),
    bad(blitz.passenger_damage, blitz.Damage.STEP_LOSS, apc_steps=0, names="apc_steps 0"),
    bad(blitz.passenger_damage, blitz.Damage.STEP_LOSS, apc_steps=True, names="apc_steps True"),
    # the readings' keywords, and inputs that once hung
    bad(blitz.fire_strength, [5], disrupted_firers="all", names="disrupted firers 'all'"),
    bad(blitz.fire_strength, [5] * 1_001, names="1,001 strengths are over the limit of 1,000"),
    bad(blitz.fire_strength, list(range(10**6)), names="1,000,000 strengths are over the limit"),
    bad(blitz.saving_throw_bonus, -1, names="hits on the hex: -1"),
    bad(blitz.saving_throw_bonus, 3, "odd", names="saving throw bonus 'odd'"),
    bad(blitz.unsaved_hits, 3, 8, save_bonus=None, names="saving throw bonus None"),
    bad(blitz.saving_throws, 8, [7], save_bonus="up", names="saving throw bonus 'up'"),
    bad(blitz.saving_throws, 8, [7] * 10**6, names="1,000,000 saving throw rolls are over"),
    bad(blitz.fire_outcome, 6, save_bonus="pairs", names="saving throw bonus 'pairs'"),
    bad(blitz.fire_procedure, 6, save_bonus=2, names="saving throw bonus 2"),
    bad(
        blitz.passenger_damage,
        blitz.Damage.STEP_LOSS,
        apc_steps=1,
        apc_destroyed="sunk",
        names="destroyed APC 'sunk'",
    ),
    bad(blitz.label, 3, names="option 3 is not an option's name"),
    bad(attacks.attack, [5], fire="AT", names="fire type: 'AT'"),
    bad(attacks.attack, [5], target="armored_vehicle", names="armor None"),
    bad(attacks.rolled_hits, -1, names="hits rolled: -1"),
    bad(attacks.rolled_hits, 3, target="tank", names="target: 'tank'"),
    bad(attacks.rolled_hits, 3, fire="at", target="armored_vehicle", names="armor None"),
    bad(attacks.rolled_hits, 2, leader_morale=8, rolls=[5], names="2 hits need 2 2d6 rolls"),
    bad(attacks.leader_cases, -1, names="number of dice: -1"),
    bad(attacks.leader_cases, 6, "artillery", names="fire type: 'artillery'"),
    bad(attacks.damage_curves, level=0, names="level 0 is not one of disrupted"),
    bad(attacks.damage_curves, "artillery", names="fire type: 'artillery'"),
]


@pytest.mark.parametrize("fn, args, kwargs, names", BAD_CALLS)
def test_bad_input_is_a_wbk_error_naming_the_value(fn, args, kwargs, names):
    with pytest.raises(WbkError, match=re.escape(names)):
        fn(*args, **kwargs)


def test_every_public_callable_is_swept():
    swept = {_key(p.values[0]) for p in BAD_CALLS}
    missing = sorted(_public_callables(blitz) - swept)
    assert not missing, f"wbk.games.blitz: no bad call for {', '.join(missing)}"


# --- leaders, damage, the whole procedure --------------------------------------------------------


def test_blitz_leader_saving_throws_example():
    throws = saving_throws(9, [5, 6, 7, 10])
    assert (throws.saved, throws.remaining, throws.damage) == (3, 1, Damage.DISRUPTED)
    assert throws.steps[0].text == "4 hits on the hex: + 2 to each saving throw"
    assert throws.steps[4].text == "rolled 10 + 2 = 12: not saved (morale 9)"
    assert throws.steps[5].text == "1 hit left: disrupted: all target units are disrupted"


def test_blitz_damage_three_hits_say_step_loss_demoralized_and_leader_casualties():
    """Damage: three hits cost each unit a step AND demoralize it, and leaders roll for
    casualties (standard rules): the step says all three (issue 29)."""
    step = saving_throws(9, [12, 12, 12]).steps[-1]
    assert step.text == (
        "3 hits left: step loss: each target unit loses one step and is demoralized, and "
        "leaders roll for casualties (standard rules)"
    )
    assert step.rule == "Blitz Combat, Damage"
    assert "demoralized" in Damage.STEP_LOSS.effects and "leader" in Damage.STEP_LOSS.effects
    assert Damage.ELIMINATED.effects.endswith("all target units and leaders are eliminated")


def test_blitz_crowded_target_names_the_reading_where_the_readings_part():
    """Combat Strength Modifiers, "3 non-vehicle units": 4 units double 6 to 12 under
    three_or_more and leave 6 under exactly_three; each step names its reading (issue 29)."""
    exact = fire_strength([6], target_non_vehicle_units=4, crowded="exactly_three")
    assert exact.dice == 6
    assert exact.steps[1].text == (
        "4 non-vehicle units in the target hex (read as: 3 non-vehicle units means exactly "
        "three): no × 2"
    )
    assert exact.steps[1].rule == (
        "Blitz Combat, Combat Strength Modifiers, reading: 3 non-vehicle units means exactly three"
    )
    more = fire_strength([6], target_non_vehicle_units=4)
    assert more.dice == 12
    assert "(read as: 3 non-vehicle units means three or more): × 2 = 12" in (more.steps[1].text)
    # exactly three units: the readings agree, and the step needs none
    three = fire_strength([6], target_non_vehicle_units=3, crowded="exactly_three")
    assert (
        three.dice == 12
        and three.steps[1].text == "3 non-vehicle units in the target hex: × 2 = 12"
    )


def test_blitz_armor_protection_example():
    # three AT hits on armor 1 count as two, which demoralize: three hits need all three dice 6s
    assert hits(3, armor=1).probability(2) == Fraction(1, 216)
    assert damage(2) == Damage.DEMORALIZED
    procedure = fire_procedure(3, fire="at", target="armored_vehicle", armor=1)
    assert procedure.damage.probability(Damage.DEMORALIZED) == Fraction(1, 216)
    assert texts(procedure)[1] == "AT fire: armor 1 takes 1 hit off"


def test_damage_levels():
    assert [damage(h) for h in range(6)] == [
        Damage.NONE,
        Damage.DISRUPTED,
        Damage.DEMORALIZED,
        Damage.STEP_LOSS,
        Damage.ELIMINATED,
        Damage.ELIMINATED,
    ]
    assert [str(d) for d in Damage] == [
        "none",
        "disrupted",
        "demoralized",
        "step loss",
        "eliminated",
    ]


def test_which_leader_throws():
    assert not Leader(9, "demoralized").can_save()
    assert Leader(9, "disrupted", in_target_hex=True).can_save()
    assert not Leader(9, "disrupted", in_target_hex=False).can_save()
    assert Leader(7, in_target_hex=False).can_save()
    leaders = [
        Leader(10, "demoralized"),
        Leader(9, "disrupted", in_target_hex=False),
        Leader(7, in_target_hex=False),
    ]
    choice = saving_leader([*leaders, Leader(8)])
    assert choice.leader == Leader(8)
    assert saving_leader([Leader(10, "demoralized")]).leader is None


def oracle_outcome(dice, fire, target, armor, morale):
    """The procedure written independently with icepool."""
    rolled = dice @ (icepool.d6 == 6)
    if fire == "assault":
        counted = rolled
    elif fire == "at":
        if target in ("non_vehicle", "wagon"):
            counted = icepool.Die([0])
        else:
            counted = rolled.map(lambda h: max(0, h - (armor or 0)))
    elif target == "armored_vehicle":
        counted = icepool.Die([0])
    elif morale is not None:
        counted = rolled.map(lambda h: h @ ((2 @ icepool.d6) + h // 2 > morale))
    else:
        counted = rolled
    return counted.map(lambda h: min(h, 4))


@pytest.mark.parametrize("dice", [0, 1, 4, 9, 20])
@pytest.mark.parametrize("fire", ["direct", "bombardment", "at", "assault"])
@pytest.mark.parametrize(
    "target, armor, morale",
    [
        ("non_vehicle", None, None),
        ("non_vehicle", None, 6),
        ("wagon", None, 10),
        ("unarmored_vehicle", None, None),
        ("unarmored_vehicle", None, 8),
        ("armored_vehicle", 0, None),
        ("armored_vehicle", 1, None),
        ("armored_vehicle", 2, 8),
        ("armored_vehicle", 3, None),
    ],
)
def test_fire_outcome_against_icepool(dice, fire, target, armor, morale):
    ours = fire_outcome(dice, fire=fire, target=target, armor=armor, leader_morale=morale)
    oracle = oracle_outcome(dice, fire, target, armor, morale)
    assert {int(o): p for o, p in ours.probabilities().items()} == {
        o: oracle.probability(o) for o in oracle.outcomes() if oracle.probability(o)
    }
    assert sum(ours.probabilities().values()) == 1


def test_leaders_do_not_save_against_at_or_assault():
    for fire in ("at", "assault"):
        vehicle = dict(fire=fire, target="unarmored_vehicle")
        assert fire_outcome(12, **vehicle, leader_morale=10) == fire_outcome(12, **vehicle)
    assert fire_outcome(12, leader_morale=10) != fire_outcome(12)
    procedure = fire_procedure(12, fire="at", target="armored_vehicle", armor=2, leader_morale=9)
    assert texts(procedure)[1:] == [
        "AT fire: armor 2 takes 2 hits off",
        "non-vehicle units in the vehicle's hex ignore these AT hits",
        "leaders make no saving throws against AT fire",
    ]


def test_a_good_leader_saves_more():
    p_eliminated = [
        fire_outcome(20, leader_morale=m).probability(Damage.ELIMINATED) for m in range(6, 11)
    ]
    assert p_eliminated == sorted(p_eliminated, reverse=True)
    assert fire_outcome(20).probability(Damage.ELIMINATED) > p_eliminated[0]


def test_one_die_and_one_hit_in_the_singular():
    one = fire_strength([1])
    assert str(one).splitlines()[0] == "1 die" and one._repr_html_().startswith("<b>1 die</b>")
    assert one.steps[-1].text == "1 die"
    assert fire_strength([1], target_terrain="woods").steps[-1].text == "0.5 rounds up to 1 die"
    assert texts(fire_procedure(1))[0] == "roll 1 die: every 6 is a hit"
    assert saving_throws(9, [5]).steps[0].text == "1 hit on the hex: + 0 to each saving throw"
    assert saving_throws(9, [5]).steps[-1].text == "0 hits left: none"


@pytest.mark.parametrize("strength", [10**30, blitz.MAX_STRENGTH + 1])
def test_a_strength_past_the_limit_is_one_wbk_error_line(strength):
    with pytest.raises(WbkError, match=r"over the limit of 10,000") as e:
        fire_strength([strength])
    assert "\n" not in str(e.value)
    with pytest.raises(WbkError, match=r"piece strength: .* over the limit of 10,000"):
        Piece(strength)
    assert fire_strength([blitz.MAX_STRENGTH]).dice == 10_000


def test_big_attacks_answer_exactly_up_to_the_limit_and_name_it_beyond():
    """6,000 strength at range 1 is 12,000 dice: over the limit, said before any work. The limit
    itself answers exactly (how fast: ``make bench``, not a pass or fail here)."""
    dice = fire_strength([6000], range_hexes=1).dice
    assert dice == 12_000
    with pytest.raises(WbkError, match="number of dice: 12,000 is over the limit of 10,000"):
        fire_procedure(dice, leader_morale=8)
    with pytest.raises(WbkError, match="number of dice: 10,001 is over the limit of 10,000"):
        hits(blitz.MAX_DICE + 1)
    procedure = fire_procedure(blitz.MAX_DICE, leader_morale=8)
    assert procedure.damage.probability(Damage.ELIMINATED) == 1 - sum(
        procedure.counted.probability(h) for h in range(4)
    )
    assert procedure.damage.probability(Damage.ELIMINATED) > Fraction(9_999, 10_000)
    assert "&gt;99.99%" in procedure._repr_html_()


def test_a_leader_saves_nothing_when_even_a_2_fails():
    # 14 hits: + 7 to each throw, so a morale 8 leader fails even on a 2
    assert unsaved_hits(14, 8) == Dist.always(14)
    assert unsaved_hits(13, 8) != Dist.always(13)  # + 6: a 2 saves


# --- invariants -------------------------------------------------------------------------------

pieces = st.lists(st.builds(Piece, st.integers(0, 12), disrupted=st.booleans()), max_size=5)
options = st.fixed_dictionaries(
    {
        "fire": st.sampled_from(blitz.FIRE_TYPES),
        "range_hexes": st.sampled_from([None, 1, 2]),
        "target_non_vehicle_units": st.integers(0, 5),
        "target_terrain": st.sampled_from(TERRAINS),
        "protection": st.sampled_from(PROTECTIONS),
        "assault": st.sampled_from(list(blitz.READINGS["assault"].values)),
    }
)


@given(pieces, pieces, options)
def test_strength_is_the_sum_of_each_piece_firing_alone(strengths, engineers, options):
    """Every modifier multiplies, so a group's exact strength is the sum of its pieces' (a
    disrupted piece's share halved, an AT 0 counted as 1), and rounding comes once at the end."""
    if not strengths and not engineers:
        return
    group = fire_strength(strengths, engineer_strengths=engineers, **options)
    alone = [fire_strength([p], **options).exact for p in strengths]
    alone += [fire_strength([], engineer_strengths=[p], **options).exact for p in engineers]
    assert group.exact == sum(alone)
    assert group.dice == -(-group.exact // 1)
    rallied = [Piece(p.strength) for p in strengths]
    assert fire_strength(rallied, engineer_strengths=engineers, **options).exact >= group.exact


def test_many_equal_strengths_are_a_product_not_a_long_sum():
    assert str(fire_strength([5] * 40).steps[0]).startswith("total strength 40 × 5 = 200")
    assert str(fire_strength([5, 5, 5]).steps[0]).startswith("total strength 5 + 5 + 5 = 15")


# --- readings the text leaves open (issue 16) ----------------------------------------------------


def test_every_reading_is_declared_once_with_its_default_first():
    assert list(blitz.READINGS) == [
        "crowded",
        "assault",
        "disrupted_firers",
        "save_bonus",
        "apc_destroyed",
    ]
    values = {
        "crowded": ("three_or_more", "exactly_three"),
        "assault": ("terrain_applies", "no_terrain"),
        "disrupted_firers": ("their_share", "whole_attack"),
        "save_bonus": ("whole_pairs", "rounded_up"),
        "apc_destroyed": ("eliminated_or_last_step", "eliminated_only"),
    }
    for keyword, reading in blitz.READINGS.items():
        assert tuple(reading.values) == values[keyword]
        assert reading.rule.startswith("Blitz Combat, ")
        assert all(words and "_" not in words for words in reading.values.values())


def test_a_disrupted_firer_halves_his_share_or_the_whole_attack():
    """5 + 5 + 5d at a town hex: his 5 counts 2.5 (12.5 / 2 = 6.25, 7 dice), or the whole 15 is
    halved twice (3.75, 4 dice). With every firer disrupted, the worked example, they agree."""
    group = [5, 5, Piece(5, disrupted=True)]
    share = fire_strength(group, target_terrain="town")
    whole = fire_strength(group, target_terrain="town", disrupted_firers="whole_attack")
    assert (share.exact, share.dice) == (Fraction(25, 4), 7)
    assert (whole.exact, whole.dice) == (Fraction(15, 4), 4)
    (halved,) = [step for step in whole.steps if "whole attack halved" in step.text]
    assert halved.text == "1 of 3 firers disrupted: the whole attack halved: × ½ = 7.5"
    assert halved.rule.endswith(", reading: a disrupted firer halves the whole attack")
    every = [DISRUPTED_INF] * 3
    for reading in blitz.READINGS["disrupted_firers"].values:
        assert fire_strength(every, target_terrain="town", disrupted_firers=reading).dice == 4


@pytest.mark.parametrize(
    "hits_on_hex, whole_pairs, rounded_up", [(0, 0, 0), (1, 0, 1), (2, 1, 1), (3, 1, 2), (4, 2, 2)]
)
def test_the_saving_throw_bonus_with_an_odd_number_of_hits(hits_on_hex, whole_pairs, rounded_up):
    assert blitz.saving_throw_bonus(hits_on_hex) == whole_pairs
    assert blitz.saving_throw_bonus(hits_on_hex, "rounded_up") == rounded_up


def test_three_hits_at_morale_8_under_both_bonus_readings():
    """Three hits, morale 8: +1 saves on 2d6 <= 7 (21/36), +2 only on <= 6 (15/36)."""
    whole = unsaved_hits(3, 8)
    rounded = unsaved_hits(3, 8, save_bonus="rounded_up")
    assert whole.probability(0) == Fraction(21, 36) ** 3
    assert rounded.probability(0) == Fraction(15, 36) ** 3
    assert saving_throws(8, [7, 7, 7]).remaining == 0
    assert saving_throws(8, [7, 7, 7], save_bonus="rounded_up").remaining == 3
    assert fire_outcome(3, leader_morale=8, save_bonus="rounded_up") != fire_outcome(
        3, leader_morale=8
    )
    # an even number of hits is the same either way: the worked example's four hits
    assert unsaved_hits(4, 9, save_bonus="rounded_up") == unsaved_hits(4, 9)
    assert saving_throws(9, [5, 6, 7, 10], save_bonus="rounded_up").remaining == 1


def test_the_bonus_reading_is_named_in_the_steps():
    rounded = fire_procedure(3, leader_morale=8, save_bonus="rounded_up").steps[-1]
    assert rounded.text.endswith("+ 1 per two hits, an odd hit counted as two")
    assert rounded.rule.endswith(", reading: the saving throw bonus counts an odd hit as a pair")
    assert "reading" not in fire_procedure(3, leader_morale=8).steps[-1].rule  # the default


def test_an_apc_destroyed_reading():
    last = Damage.STEP_LOSS
    assert passenger_damage(last, apc_steps=1, apc_destroyed="eliminated_only") == Damage.NONE
    assert passenger_damage(last, apc_steps=1) == Damage.ELIMINATED
    for reading in blitz.READINGS["apc_destroyed"].values:
        assert passenger_damage(Damage.ELIMINATED, apc_steps=3, apc_destroyed=reading) == (
            Damage.ELIMINATED
        )


def test_many_firers_are_summed_in_a_short_step_and_too_many_refused():
    strengths = list(range(1, 31))
    s = fire_strength(strengths)
    assert s.steps[0].text == "total strength 30 strengths = 465"
    with pytest.raises(WbkError, match="1,001 strengths are over the limit of 1,000"):
        fire_strength([5] * 1_001)
    with pytest.raises(WbkError, match="1,200 firing pieces are over the limit of 1,000"):
        fire_strength([5] * 600, fire="assault", engineer_strengths=[4] * 600)
    with pytest.raises(WbkError, match="10,001 saving throw rolls are over the limit"):
        saving_throws(9, [7] * 10_001)


def test_steps_say_what_they_are_about_for_a_picture_at_each_step():
    town = blitz.fire_strength([Piece(5, disrupted=True)] * 3, target_terrain="town")
    assert [s.about for s in town.steps] == [
        ("strength", 15),
        ("strength", Fraction(15, 2)),
        ("strength", Fraction(15, 4)),
        ("dice", 4),
    ]
    tank = blitz.fire_procedure(20, fire="at", target="armored_vehicle", armor=1)
    assert [s.about for s in tank.steps] == [
        ("rolled", 20),
        ("counted", "armor", 1),
        ("counted",),
    ]
    throws = blitz.saving_throws(9, [5, 6, 7, 10])
    assert [s.about for s in throws.steps] == [
        ("bonus", 2, 9),
        ("roll", 0, 5, "saved"),
        ("roll", 1, 6, "saved"),
        ("roll", 2, 7, "saved"),
        ("roll", 3, 10, "not saved"),
        ("damage", Damage.DISRUPTED),
    ]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: fire_strength([6], crowd="exactly_three"), "fire_strength"),
        (lambda: fire_procedure(3, bonus="rounded_up"), "fire_procedure"),
        (lambda: fire_outcome(3, save="x"), "fire_outcome"),
        (lambda: saving_throws(9, [5], bonus="x"), "saving_throws"),
        (lambda: blitz.unsaved_hits(2, 9, reading="x"), "unsaved_hits"),
        (lambda: passenger_damage(Damage.NONE, apc_steps=1, destroyed="x"), "passenger_damage"),
    ],
)
def test_an_unknown_keyword_is_one_wbk_error_line_naming_it_and_the_known_ones(call, name):
    with pytest.raises(WbkError, match=rf"^{name}: unknown keyword '\w+' \(it takes .+\)$") as e:
        call()
    assert "\n" not in str(e.value)


def test_hits_already_rolled_at_infantry_by_at_fire_count_none_said_in_the_rules_words():
    """Blitz Combat, Armor Protection: only vehicles other than wagons take AT hits; the step
    says "a non-vehicle unit", as the fire procedure does (the panel once said "units")."""
    rolled = attacks.rolled_hits(3, fire="at")
    assert rolled.marks == ("no effect",) * 3 and rolled.damage == Damage.NONE
    assert rolled.steps[1].text == (
        "AT fire: only vehicles other than wagons take AT hits; a non-vehicle unit takes none"
    )
    assert fire_procedure(3, fire="at").steps[1].text == rolled.steps[1].text


def test_a_strength_and_a_fire_procedure_say_why_under_their_verdicts():
    """Issue 40: a strength's picture says the last modifier that made its dice."""
    from test_pictures import says_why

    assert says_why(fire_strength([8], target_terrain="woods", protection="bunker")) == (
        "Why: bunker in woods: the ¼ does not apply in woods, hills or town; the ½ for woods "
        "does (Blitz Combat, Combat Strength Modifiers)"
    )
    assert says_why(fire_procedure(4, leader_morale=9)).endswith(
        "(Blitz Combat, Leader Saving Throws)"
    )
