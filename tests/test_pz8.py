"""Pz 8: every number checked against a brute-force enumeration of the dice (itertools.product
over the faces), written from the rule text independently of wbk.dice."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.games import pz8
from wbk.games.pz8 import AttackOutcome, Movement, Tank
from wbk.table import Table, Terrain

FACES = range(1, 7)
GUNS = ("short", "medium", "long")
CLASSES = ("light", "medium", "heavy")


# --- the brute force, straight from the card ----------------------------------------------------


def brute_attack(gun, target, *, cover=False, veteran=False, shaken=False, natural_six="modified"):
    """Every face of every gun die and every save die, counted."""
    dice = {"short": 3, "medium": 2, "long": 1}[gun]
    need = {"short": 5, "medium": 5, "long": 4}[gun]
    save = {"light": (6, 6, 6), "medium": (4, 5, 6), "heavy": (3, 4, 5)}[target][GUNS.index(gun)]
    modifier = (1 if veteran else 0) - (1 if cover else 0) - (1 if shaken else 0)
    most = dice if gun == "short" else 1
    counts = Counter()
    for faces in itertools.product(FACES, repeat=dice):
        hit_dice = [
            f for f in faces if f + modifier >= need or (natural_six == "always_hits" and f == 6)
        ]
        applied = len(hit_dice) if gun == "short" else (1 if hit_dice else 0)
        passes = any(f <= 2 for f in faces)
        for saves in itertools.product(FACES, repeat=applied):
            failed = sum(1 for s in saves if s < save)
            counts[(applied, failed > 0, applied > 0 and failed == 0, passes)] += 6 ** (
                most - applied
            )
    total = 6 ** (dice + most)
    assert sum(counts.values()) == total
    return {AttackOutcome(*k): Fraction(v, total) for k, v in counts.items()}


def chance(dist: Dist, predicate) -> Fraction:
    return sum((p for o, p in dist.probabilities().items() if predicate(o)), Fraction(0))


def brute_chance(table: dict, predicate) -> Fraction:
    return sum((p for o, p in table.items() if predicate(o)), Fraction(0))


# --- Movement -----------------------------------------------------------------------------------


@pytest.mark.parametrize("tank_class, base", [("light", 5), ("medium", 4), ("heavy", 3)])
def test_movement_is_the_move_value_plus_d6_and_a_1_or_2_passes_the_turn(tank_class, base):
    expected = Counter(Movement(base + f, f <= 2) for f in FACES)
    got = pz8.movement(tank_class)
    assert got.probabilities() == {m: Fraction(n, 6) for m, n in expected.items()}
    assert chance(got, lambda m: m.turn_passes) == Fraction(1, 3)
    assert got.map(lambda m: m.inches).mean() == base + Fraction(7, 2)


def open_table(*tanks, terrain=()):
    return Table(48, 48, terrain=terrain, pieces=tanks)


def test_movement_reach_bands_carry_the_chance_of_rolling_that_far():
    table = open_table(Tank("T-34", (24, 10), facing=90, tank_class="medium"))
    reach = pz8.movement_reach(table, "T-34")
    assert [b.inches for b in reach.bands] == [5, 6, 7, 8, 9, 10]
    assert [b.probability for b in reach.bands] == [Fraction(7 - r, 6) for r in FACES]
    assert [b.turn_passes for b in reach.bands] == [True, True, False, False, False, False]
    # straight ahead: 7.5" needs a roll of 4 (4 + 4 = 8 >= 7.5, 4 + 3 = 7 < 7.5)
    assert reach.chance_to_reach((24, 17.5)) == Fraction(1, 2)
    assert reach.chance_to_reach((24, 14)) == 1
    assert reach.chance_to_reach((24, 10.5)) == 1
    assert reach.chance_to_reach((24, 10)) == 1  # staying put
    assert reach.chance_to_reach((24, 20.5)) == 0
    # 45 degrees is allowed, 60 is not
    r45 = (24 + 6 * math.cos(math.radians(45)), 10 + 6 * math.sin(math.radians(45)))
    r60 = (24 + 6 * math.cos(math.radians(30)), 10 + 6 * math.sin(math.radians(30)))
    assert reach.chance_to_reach(r45) == Fraction(5, 6)
    assert reach.chance_to_reach(r60) == 0
    # the bands do not overlap and together are the roll-6 area
    areas = [b.area for b in reach.bands]
    for a, b in itertools.combinations(areas, 2):
        assert a.intersection(b).area < 1e-6


def test_movement_reach_rough_terrain_costs_3_inches():
    woods = Terrain("rough", ((0, 14), (48, 14), (48, 40), (0, 40)), name="woods")
    table = open_table(Tank("T-34", (24, 10), facing=90, tank_class="medium"), terrain=[woods])
    reach = pz8.movement_reach(table, "T-34")
    # entering the woods 4" ahead costs 3": a point 5" ahead needs 5 + 3 = 8 = 4 + 4
    assert reach.chance_to_reach((24, 15)) == Fraction(1, 2)
    assert reach.chance_to_reach((24, 13.9)) == 1  # short of the woods: any roll
    assert any("rough 'woods'" in s.text for s in reach.steps)


def test_movement_reach_shaken_and_wrecks_do_not_move():
    table = open_table(Tank("A", (10, 10), shaken=True), Tank("B", (20, 10), destroyed=True))
    for name in ("A", "B"):
        reach = pz8.movement_reach(table, name)
        assert reach.bands == ()
        assert reach.chance_to_reach((10, 12)) == 0
    assert pz8.movement_reach(table, "A").chance_to_reach((10, 10)) == 1


def test_platoon_move_of_the_shipped_table():
    table = pz8.example_table()
    soviet = pz8.platoon_movement(table, "Soviet")
    assert soviet.allowed
    assert set(soviet.tanks) == {"T-34 1", "T-34 2", "KV-1"}  # the T-60 is a wreck
    # the slowest is the heavy KV-1: D6 + 3, and the turn passes whatever the roll
    assert soviet.movement.probabilities() == {Movement(3 + f, True): Fraction(1, 6) for f in FACES}
    german = pz8.platoon_movement(table, "German")
    assert not german.allowed and german.movement is None
    assert any("'Tiger'" in s.text for s in german.steps)


def test_platoon_move_needs_an_hq():
    table = open_table(
        Tank("A", (10, 10), side="X", is_hq=True, destroyed=True), Tank("B", (10, 12), side="X")
    )
    assert not pz8.platoon_movement(table, "X").allowed


# --- Shooting, Penetration and Damage -----------------------------------------------------------

GRID = [
    (gun, target, cover, veteran, shaken, six)
    for gun in GUNS
    for target in CLASSES
    for cover, veteran, shaken in itertools.product((False, True), repeat=3)
    for six in pz8.READINGS["natural_six"].values
]


@pytest.mark.parametrize("gun, target, cover, veteran, shaken, six", GRID)
def test_attack_equals_the_brute_force_enumeration(gun, target, cover, veteran, shaken, six):
    got = pz8.attack(gun, target, cover=cover, veteran=veteran, shaken=shaken, natural_six=six)
    assert got.probabilities() == brute_attack(
        gun, target, cover=cover, veteran=veteran, shaken=shaken, natural_six=six
    )


@pytest.mark.parametrize(
    "kwargs, destroyed",
    [
        ({}, Fraction(91, 216)),  # 1 - (5/6)^3: each die hits 1/3 and the 4+ save fails 1/2
        ({"cover": True}, Fraction(397, 1728)),  # 1 - (11/12)^3
        ({"veteran": True}, Fraction(37, 64)),  # 1 - (3/4)^3
        ({"cover": True, "veteran": True}, Fraction(91, 216)),
    ],
)
def test_short_gun_against_a_medium_tank(kwargs, destroyed):
    got = pz8.attack("short", "medium", **kwargs)
    assert chance(got, lambda o: o.destroyed) == destroyed
    assert (
        brute_chance(brute_attack("short", "medium", **kwargs), lambda o: o.destroyed) == destroyed
    )
    assert chance(got, lambda o: o.turn_passes) == Fraction(19, 27)  # 1 - (2/3)^3, modifiers aside


@pytest.mark.parametrize(
    "gun, passes",
    [("short", Fraction(19, 27)), ("medium", Fraction(5, 9)), ("long", Fraction(1, 3))],
)
def test_the_chance_a_shot_passes_the_turn(gun, passes):
    # every die rolled counts, the unused die of a medium gun too: 1 - (4/6)^dice
    for target in CLASSES:
        assert chance(pz8.attack(gun, target), lambda o: o.turn_passes) == passes
        assert brute_chance(brute_attack(gun, target), lambda o: o.turn_passes) == passes
    assert passes == 1 - Fraction(4, 6) ** pz8.GUN_DICE[gun]


def test_the_chapters_table_of_kills_by_gun_and_class():
    expected = {
        "short": {
            "light": Fraction(3635, 5832),
            "medium": Fraction(91, 216),
            "heavy": Fraction(217, 729),
        },
        "medium": {"light": Fraction(25, 54), "medium": Fraction(10, 27), "heavy": Fraction(5, 18)},
        "long": {"light": Fraction(5, 12), "medium": Fraction(5, 12), "heavy": Fraction(1, 3)},
    }
    for gun, row in expected.items():
        for c, p in row.items():
            assert pz8.attack_chances(gun, c).destroyed == p
            assert brute_chance(brute_attack(gun, c), lambda o: o.destroyed) == p
    # a short gun at a light tank: each die destroys 1/3 × 5/6 = 5/18, three dice 1 - (13/18)^3
    assert expected["short"]["light"] == 1 - Fraction(13, 18) ** 3
    # what heavy armour takes off: a quarter against a medium gun, a fifth against a long one
    assert expected["medium"]["heavy"] / expected["medium"]["medium"] == Fraction(3, 4)
    assert expected["long"]["heavy"] / expected["long"]["medium"] == Fraction(4, 5)


def test_what_heavy_armour_is_worth_against_a_medium_gun():
    destroyed = {c: chance(pz8.attack("medium", c), lambda o: o.destroyed) for c in CLASSES}
    # a hit 1 - (2/3)^2 = 5/9, then the save fails: light 5/6, medium 4/6, heavy 3/6
    assert destroyed == {
        "light": Fraction(25, 54),
        "medium": Fraction(10, 27),
        "heavy": Fraction(5, 18),
    }
    assert destroyed["medium"] - destroyed["heavy"] == Fraction(5, 54)
    for c in CLASSES:
        assert destroyed[c] == brute_chance(brute_attack("medium", c), lambda o: o.destroyed)


@pytest.mark.parametrize("gun, target, cover, veteran, shaken, six", GRID[::7])
def test_attack_chances_equal_the_brute_force(gun, target, cover, veteran, shaken, six):
    got = pz8.attack_chances(
        gun, target, cover=cover, veteran=veteran, shaken=shaken, natural_six=six
    )
    table = brute_attack(gun, target, cover=cover, veteran=veteran, shaken=shaken, natural_six=six)
    assert got.hit == brute_chance(table, lambda o: o.hits > 0)
    assert got.destroyed == brute_chance(table, lambda o: o.destroyed)
    assert got.shaken == brute_chance(table, lambda o: o.shaken)
    assert got.turn_passes == brute_chance(table, lambda o: o.turn_passes)


def test_shaken_means_hit_but_not_destroyed():
    d = pz8.attack("long", "heavy")
    assert chance(d, lambda o: o.shaken) == Fraction(1, 6)  # hit 1/2, saved on 5+ 1/3
    assert chance(d, lambda o: o.destroyed) == Fraction(1, 3)
    assert (
        d.probability(AttackOutcome(1, True, False, True)) == 0
    )  # one die: a hit is a 4-6, never a 1-2
    assert d.probability(AttackOutcome(1, True, False, False)) == Fraction(1, 2) * Fraction(4, 6)


def test_a_natural_six_reading():
    # shaken firer, target in cover: a short gun needs a 7 and cannot hit, unless a 6 always hits
    assert chance(pz8.attack("short", "medium", cover=True, shaken=True), lambda o: o.hits > 0) == 0
    always = pz8.attack("short", "medium", cover=True, shaken=True, natural_six="always_hits")
    assert chance(always, lambda o: o.destroyed) == Fraction(397, 1728)
    procedure = pz8.attack_procedure("short", "medium", cover=True, shaken=True)
    assert procedure.hit_chance == 0 and procedure.modifier == -2
    assert any("no die can hit" in s.text for s in procedure.steps)
    # a veteran's modified 7 hits like a 6: a long gun with +1 hits on 3+
    assert pz8.attack_procedure("long", "light", veteran=True).hit_chance == Fraction(4, 6)


def test_medium_gun_applies_one_result():
    d = pz8.attack("medium", "light")
    assert set(o.hits for o in d.outcomes()) == {0, 1}
    assert chance(d, lambda o: o.hits == 1) == Fraction(5, 9)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(GUNS),
    st.sampled_from(CLASSES),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_attack_invariants(gun, target, cover, veteran, shaken):
    d = pz8.attack(gun, target, cover=cover, veteran=veteran, shaken=shaken)
    assert sum(d.probabilities().values()) == 1
    assert all(not (o.destroyed and o.shaken) for o in d.outcomes())
    assert all((o.destroyed or o.shaken) == (o.hits > 0) for o in d.outcomes())
    # a better shot never destroys less
    if not veteran:
        better = pz8.attack(gun, target, cover=cover, veteran=True, shaken=shaken)
        assert chance(better, lambda o: o.destroyed) >= chance(d, lambda o: o.destroyed)


def test_shots_on_the_shipped_table():
    table = pz8.example_table()
    s = pz8.shot(table, "Pz IV 2", "KV-1")
    assert s.can_shoot and s.in_range and not s.in_cover
    assert s.outcome == pz8.attack("medium", "heavy", veteran=True)
    s = pz8.shot(table, "Pz IV 1", "KV-1")  # the farmhouse hides part of it
    assert s.in_cover and 0 < s.visible_fraction < 1
    assert s.outcome == pz8.attack("medium", "heavy", veteran=True, cover=True)
    assert any("farmhouse" in step.text for step in s.steps)
    s = pz8.shot(table, "Pz IV 1", "T-34 1")
    assert s.in_range and not s.can_shoot  # hidden by the farmhouse
    assert pz8.shot(table, "Pz II", "KV-1").outcome is None  # a short gun reaches 12"
    assert not pz8.shot(table, "Pz IV 1", "Pz IV 2").can_shoot  # own side
    assert not pz8.shot(table, "Tiger", "T-60").can_shoot  # a wreck


def test_the_cover_readings_on_the_shipped_table():
    table = pz8.example_table()
    partly = pz8.shot(table, "Pz IV 1", "KV-1")
    half = pz8.shot(table, "Pz IV 1", "KV-1", cover_reading="half_hidden")
    assert partly.visible_fraction == half.visible_fraction == pytest.approx(0.53, abs=0.005)
    assert partly.in_cover and not half.in_cover
    destroyed = [chance(s.outcome, lambda o: o.destroyed) for s in (partly, half)]
    # veteran +1 and cover -1 cancel: 5-6 hits (1/3 a die); veteran alone: 4-6 (1/2);
    # a heavy tank saves on 4+
    assert destroyed == [Fraction(5, 18), Fraction(3, 8)]
    assert destroyed == [
        brute_chance(
            brute_attack("medium", "heavy", veteran=True, cover=True), lambda o: o.destroyed
        ),
        brute_chance(brute_attack("medium", "heavy", veteran=True), lambda o: o.destroyed),
    ]
    assert any("half or more is hidden: in the open" in s.text for s in half.steps)


def test_a_shaken_firer_shoots_at_minus_one():
    table = open_table(
        Tank("A", (10, 10), side="X", gun="long", shaken=True), Tank("B", (10, 20), side="Y")
    )
    assert pz8.shot(table, "A", "B").outcome == pz8.attack("long", "medium", shaken=True)


# --- Optional Rule: Shaken ----------------------------------------------------------------------


def brute_rally(need, bonus):
    return Fraction(sum(1 for f in FACES if f + bonus >= need), 6)


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({}, Fraction(1, 3)),
        ({"veteran": True}, Fraction(1, 2)),
        ({"hq_within_12": False}, Fraction(0)),
        ({"hq_able": False, "veteran": True}, Fraction(0)),
        ({"is_hq": True}, Fraction(1, 2)),
        ({"is_hq": True, "veteran": True, "hq_able": False}, Fraction(1, 2)),
    ],
)
def test_rally_chance(kwargs, expected):
    assert pz8.rally_chance(**kwargs) == expected
    assert brute_rally(4, 1) == Fraction(2, 3)  # a veteran HQ with the +1: the reading not taken
    if kwargs.get("is_hq"):
        assert expected == brute_rally(4, 0)
    elif kwargs.get("hq_within_12", True) and kwargs.get("hq_able", True):
        assert expected == brute_rally(5, 1 if kwargs.get("veteran") else 0)


# --- the initiative -----------------------------------------------------------------------------

DICE_OF = {"move": 1, "shoot_short": 3, "shoot_medium": 2, "shoot_long": 1}


def brute_keep(activations):
    dice = sum(DICE_OF[a] for a in activations)
    kept = sum(1 for faces in itertools.product(FACES, repeat=dice) if all(f > 2 for f in faces))
    return Fraction(kept, 6**dice)


@pytest.mark.parametrize(
    "activations, expected",
    [
        (["move"], Fraction(2, 3)),
        (["move"] * 3, Fraction(8, 27)),
        (["shoot_short"], Fraction(8, 27)),
        (["shoot_medium"], Fraction(4, 9)),
        (["shoot_long", "shoot_long"], Fraction(4, 9)),
        (["move", "shoot_medium", "shoot_long"], Fraction(16, 81)),
        ([], Fraction(1)),
    ],
)
def test_keep_initiative(activations, expected):
    assert pz8.keep_initiative(activations) == expected == brute_keep(activations)


def test_keep_initiative_platoon_and_rally():
    assert pz8.keep_initiative(["move", "platoon_move"]) == 0
    assert pz8.keep_initiative(["rally", "move"]) == Fraction(2, 3)


# --- the duel -----------------------------------------------------------------------------------


def closed_form_duel(a: Tank, b: Tank, range_inches, cover_a=False, cover_b=False):
    """x = P(A wins with A to shoot), y = the same with B to shoot:
    x = dA + kA x + pA y, y = kB y + pB x (k: shoots again, p: the turn passes)."""

    def parts(shooter, target, cover):
        if range_inches > pz8.GUN_RANGES[shooter.gun]:
            return Fraction(0), Fraction(0), Fraction(1)
        t = brute_attack(
            shooter.gun, target.tank_class, cover=cover, veteran=shooter.crew == "veteran"
        )
        d = brute_chance(t, lambda o: o.destroyed)
        k = brute_chance(t, lambda o: not o.destroyed and not o.turn_passes)
        return d, k, 1 - d - k

    dA, kA, pA = parts(a, b, cover_b)
    _dB, kB, pB = parts(b, a, cover_a)
    x = dA / (1 - kA - pA * pB / (1 - kB))
    return x


PAIRS = [
    (
        Tank("T-34", tank_class="medium", gun="medium"),
        Tank("Pz III", tank_class="medium", gun="medium"),
        10,
    ),
    (
        Tank("Tiger", tank_class="heavy", gun="long"),
        Tank("T-34", tank_class="medium", gun="medium"),
        16,
    ),
    (
        Tank("Stuart", tank_class="light", gun="short", crew="veteran"),
        Tank("Panther", tank_class="heavy", gun="long"),
        8,
    ),
    (
        Tank("KV-1", tank_class="heavy", gun="medium"),
        Tank("Pz II", tank_class="light", gun="short"),
        11,
    ),
]


@pytest.mark.parametrize("a, b, r", PAIRS, ids=lambda x: getattr(x, "name", x))
@pytest.mark.parametrize("cover_b", [False, True])
def test_duel_against_the_closed_form(a, b, r, cover_b):
    d = pz8.duel(a, b, r, second_in_cover=cover_b)
    assert d.first_wins == closed_form_duel(a, b, r, cover_b=cover_b)
    assert d.first_wins + d.second_wins == 1 and d.stalemate == 0
    assert d.mean_attacks >= 1 and d.mean_attacks == sum(d.mean_attacks_by)


def test_duel_numbers():
    # medium guns against medium tanks: an attack destroys 10/27; it shoots again (no 1-2 and no
    # kill) 4/9 - 2/9 = 2/9; it passes the turn 11/27. x = (10/27) / (1 - 2/9 - (11/27)^2 / (7/9))
    d = pz8.duel(*PAIRS[0])
    assert d.first_wins == Fraction(21, 32) == closed_form_duel(*PAIRS[0])
    assert d.mean_attacks == Fraction(27, 10)
    # a T-34 shooting first at a Tiger at 16" wins a little more often than not
    t34, tiger = (
        Tank("T-34", tank_class="medium", gun="medium"),
        Tank("Tiger", tank_class="heavy", gun="long"),
    )
    d = pz8.duel(t34, tiger, 16)
    assert d.first_wins == Fraction(9, 17) == closed_form_duel(t34, tiger, 16)


@pytest.mark.parametrize("a, b, r", PAIRS, ids=lambda x: getattr(x, "name", x))
def test_duel_taking_turns_against_the_closed_form(a, b, r):
    # one attack each: x = dA + (1 - dA)(1 - dB) x
    def kill(shooter, target):
        if r > pz8.GUN_RANGES[shooter.gun]:
            return Fraction(0)
        t = brute_attack(shooter.gun, target.tank_class, veteran=shooter.crew == "veteran")
        return brute_chance(t, lambda o: o.destroyed)

    dA, dB = kill(a, b), kill(b, a)
    d = pz8.duel(a, b, r, turns="alternate")
    assert d.first_wins == dA / (1 - (1 - dA) * (1 - dB))


def test_duel_turns_two_medium_tanks():
    a, b = PAIRS[0][0], PAIRS[0][1]
    # each attack destroys 10/27: x = (10/27) / (1 - (17/27)^2) = 27/44
    assert pz8.duel(a, b, 10, turns="alternate").first_wins == Fraction(27, 44)
    assert pz8.duel(a, b, 10).first_wins == Fraction(21, 32)


def test_duel_out_of_range_and_stalemate():
    pz2 = Tank("Pz II", tank_class="light", gun="short")
    t34 = Tank("T-34", tank_class="medium", gun="medium")
    d = pz8.duel(pz2, t34, 15)  # the Pz II's 12" gun does not reach
    assert d.second_wins == 1
    words = [s.text for s in d.steps]
    assert words[:2] == [
        'range 15": the short gun of Pz II does not reach',
        'range 15": the medium gun of T-34 reaches',
    ]
    assert "Pz II wins 0%, T-34 wins 100%" in words
    far = [s.text for s in pz8.duel(pz2, t34, 26).steps]
    assert far[-1] == 'out of range: neither gun reaches 26", so neither tank can win'
    shaken_a = Tank("A", tank_class="medium", gun="short", shaken=True)
    shaken_b = Tank("B", tank_class="medium", gun="short", shaken=True)
    d = pz8.duel(shaken_a, shaken_b, 5, first_in_cover=True, second_in_cover=True, shaken_rule=True)
    assert d.stalemate == 1 and d.mean_attacks is None
    # without the optional rule the markers are ignored: cover alone, both can hit on a 6
    d = pz8.duel(shaken_a, shaken_b, 5, first_in_cover=True, second_in_cover=True)
    assert d.stalemate == 0 and d.first_wins == closed_form_duel(shaken_a, shaken_b, 5, True, True)


def test_duel_with_the_shaken_rule_is_worse_for_the_one_shaken_first():
    a = Tank("A", tank_class="medium", gun="medium")
    b = Tank("B", tank_class="medium", gun="medium")
    plain = pz8.duel(a, b, 10)
    shaken = pz8.duel(a, b, 10, shaken_rule=True)
    assert shaken.first_wins + shaken.second_wins + shaken.stalemate == 1
    assert shaken.stalemate == 0
    assert shaken.first_wins > plain.first_wins  # the first to hit is the first to shake the other


def level_by_level_shaken_duel(a: Tank, b: Tank) -> Fraction:
    """The duel under the shaken rule, both guns in range, solved one shaken level at a time:
    markers are never removed, so from the level (A shaken, B shaken) the duel only moves to
    more shaken levels, and within a level it is two equations in x (A to shoot) and y (B to
    shoot), solved by Cramer's rule. The attacks come from the brute force."""
    value = {}
    for sa, sb in [(True, True), (True, False), (False, True), (False, False)]:
        rows = []
        for shooter, target, shaken in ((a, b, sa), (b, a, sb)):
            const, cx, cy = Fraction(0), Fraction(0), Fraction(0)
            table = brute_attack(
                shooter.gun, target.tank_class, shaken=shaken, veteran=shooter.crew == "veteran"
            )
            for o, p in table.items():
                if o.destroyed:
                    const += p if shooter is a else 0
                    continue
                level = (sa or (o.shaken and shooter is b), sb or (o.shaken and shooter is a))
                next_is_a = (shooter is a) != o.turn_passes
                if level == (sa, sb):
                    if next_is_a:
                        cx += p
                    else:
                        cy += p
                else:
                    const += p * value[level][0 if next_is_a else 1]
            rows.append((const, cx, cy))
        (c1, a11, a12), (c2, a21, a22) = rows
        # x = c1 + a11 x + a12 y; y = c2 + a21 x + a22 y
        det = (1 - a11) * (1 - a22) - a12 * a21
        x = (c1 * (1 - a22) + a12 * c2) / det
        y = (c2 * (1 - a11) + a21 * c1) / det
        value[(sa, sb)] = (x, y)
    return value[(False, False)][0]


def test_duel_with_the_shaken_rule_level_by_level():
    t34, pz3 = PAIRS[0][0], PAIRS[0][1]
    d = pz8.duel(t34, pz3, 10, shaken_rule=True)
    assert d.first_wins == Fraction(182489, 270963) == level_by_level_shaken_duel(t34, pz3)
    tiger, stuart = PAIRS[1][0], PAIRS[2][0]
    assert pz8.duel(tiger, stuart, 8, shaken_rule=True).first_wins == level_by_level_shaken_duel(
        tiger, stuart
    )


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(CLASSES),
    st.sampled_from(GUNS),
    st.sampled_from(CLASSES),
    st.sampled_from(GUNS),
    st.integers(1, 26),
    st.booleans(),
)
def test_duel_chances_add_up(c1, g1, c2, g2, r, rule):
    d = pz8.duel(
        Tank("A", tank_class=c1, gun=g1), Tank("B", tank_class=c2, gun=g2), r, shaken_rule=rule
    )
    assert d.first_wins + d.second_wins + d.stalemate == 1
    assert d.first_wins >= 0 and d.second_wins >= 0


# --- tanks and table files ----------------------------------------------------------------------


def test_the_shipped_table_is_illustrative_and_loads():
    table = pz8.example_table()
    assert "illustrative" in table.name
    assert all(isinstance(p, Tank) for p in table.pieces)
    assert table.piece("Tiger").tank_class == "heavy" and table.piece("Tiger").gun == "long"
    assert table.piece("T-60").destroyed
    assert sum(p.is_hq for p in table.pieces) == 2


def test_load_table_names_the_file_key_and_value(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('size = [24, 24]\n[[tanks]]\nname = "A"\nposition = [5, 5]\ngun = "huge"\n')
    with pytest.raises(
        WbkError,
        match=r"bad\.toml: \[\[tanks\]\] 'A': gun: 'huge' is not one of short, medium, long",
    ):
        pz8.load_table(path)
    path.write_text('size = [24, 24]\n[[tanks]]\nname = "A"\nposition = [5, 5]\nclass = "medium"\n')
    assert pz8.load_table(path).piece("A").tank_class == "medium"


def test_bad_points_for_the_reach():
    reach = pz8.movement_reach(open_table(Tank("A", (10, 10))), "A")
    with pytest.raises(WbkError, match="point: 'here' is not a list"):
        reach.chance_to_reach("here")
    with pytest.raises(WbkError, match=r"point: item 1: 'a' is not a number"):
        reach.chance_to_reach(("a", 1))


def test_steps_read_as_the_rules_do():
    texts = [s.text for s in pz8.attack_procedure("long", "medium", veteran=True).steps]
    assert "each die hits on a 3-6 (the roll +1 must reach 4): 2/3" in texts
    texts = [
        s.text
        for s in pz8.attack_procedure(
            "short", "heavy", cover=True, shaken=True, natural_six="always_hits"
        ).steps
    ]
    assert "each die hits on a 6 (a natural 6 always hits): 1/6" in texts
    assert str(AttackOutcome(1, True, False, True)) == "destroyed, turn passes"
    assert str(Movement(7, False)) == '7"'


# --- platoons (issue 16: a side may field several, each with its own HQ) -------------------------


def two_platoons(**changes):
    tanks = {
        "HQ1": Tank("HQ1", (10, 10), side="A", is_hq=True, platoon="1"),
        "HQ2": Tank("HQ2", (30, 30), side="A", is_hq=True, platoon="2"),
        "a": Tank("a", (10, 11.6), side="A", platoon="1"),
    }
    tanks.update(changes)
    return Table(40, 40, pieces=list(tanks.values()))


def test_the_issues_two_platoons_each_move_with_their_own_hq():
    table = two_platoons()
    first = pz8.platoon_movement(table, "A", platoon="1")
    assert first.allowed and first.tanks == ("HQ1", "a")
    second = pz8.platoon_movement(table, "A", platoon="2")
    assert second.allowed and second.tanks == ("HQ2",)
    assert pz8.platoons(table, "A") == {
        "1": (table.piece("HQ1"), table.piece("a")),
        "2": (table.piece("HQ2"),),
    }


def test_a_side_of_several_platoons_must_name_one():
    with pytest.raises(WbkError, match=r"side 'A' has 2 platoons \('1', '2'\): say which"):
        pz8.platoon_movement(two_platoons(), "A")
    with pytest.raises(
        WbkError, match=r"platoon '3' is not one of side 'A''s platoons \('1', '2'\)"
    ):
        pz8.platoon_movement(two_platoons(), "A", platoon="3")


def test_two_hqs_in_one_platoon_are_an_error_naming_them():
    table = two_platoons(HQ2=Tank("HQ2", (30, 30), side="A", is_hq=True, platoon="1"))
    with pytest.raises(WbkError, match=r"A platoon '1' has 2 HQs \('HQ1', 'HQ2'\)"):
        pz8.platoon_movement(table, "A")


def test_the_platoon_key_round_trips_through_a_table_file():
    table = two_platoons()
    text = table.to_toml()
    assert text.count('platoon = "1"') == 2
    assert Table.from_toml(text, pieces=Tank) == table


@pytest.mark.parametrize(
    "shaken_hq, shaken_member, hq_shaken, member_shaken, allowed, tanks",
    [
        ("stays_put", "stays_put", True, False, True, ("a",)),
        ("no_platoon_move", "stays_put", True, False, False, ()),
        ("stays_put", "stays_put", False, True, True, ("HQ1",)),
        ("stays_put", "no_platoon_move", False, True, False, ("HQ1",)),
        ("no_platoon_move", "no_platoon_move", False, False, True, ("HQ1", "a")),
    ],
)
def test_shaken_tanks_and_the_platoon_move_by_the_readings(
    shaken_hq, shaken_member, hq_shaken, member_shaken, allowed, tanks
):
    table = two_platoons(
        HQ1=Tank("HQ1", (10, 10), side="A", is_hq=True, platoon="1", shaken=hq_shaken),
        a=Tank("a", (10, 11.6), side="A", platoon="1", shaken=member_shaken),
    )
    move = pz8.platoon_movement(
        table, "A", platoon="1", shaken_hq=shaken_hq, shaken_member=shaken_member
    )
    assert (move.allowed, move.tanks) == (allowed, tanks)


def test_platoon_warnings_follow_the_cards_3_to_5_tanks_and_one_hq():
    assert pz8.platoon_warnings(pz8.example_table()) == ()
    assert pz8.platoon_warnings(two_platoons()) == (
        "A platoon '1' has 2 tanks (the card asks for 3-5)",
        "A platoon '2' has 1 tank (the card asks for 3-5)",
    )
    no_hq = open_table(*(Tank(f"T{i}", (4 + 3 * i, 10), side="X") for i in range(6)))
    assert pz8.platoon_warnings(no_hq) == (
        "the X platoon has 6 tanks (the card asks for 3-5)",
        "the X platoon has 0 HQs (the card asks for one)",
    )


# --- a rally asked of the table ------------------------------------------------------------------


def test_a_rally_measures_to_the_tanks_own_platoons_hq():
    # "a" is 1.6" from its own HQ1 and 28" from HQ2 of the other platoon
    r = pz8.rally(two_platoons(a=Tank("a", (10, 11.6), side="A", platoon="1", shaken=True)), "a")
    assert (r.chance, r.hq, r.distance) == (Fraction(1, 3), "HQ1", pytest.approx(1.6))
    far = Tank("a", (36, 36), side="A", platoon="1", shaken=True, crew="veteran")
    r = pz8.rally(two_platoons(a=far), "a")
    assert (r.chance, r.hq, r.can_rally) == (0, "HQ1", False)
    assert 'more than 12"' in r.steps[0].text


@pytest.mark.parametrize(
    "hq_state, member, expected",
    [
        ({}, {"crew": "veteran"}, Fraction(1, 2)),
        ({"shaken": True}, {}, Fraction(0)),
        ({"destroyed": True}, {}, Fraction(0)),
        ({}, {"is_hq": False, "destroyed": True}, Fraction(0)),
    ],
)
def test_a_rally_reads_the_hq_state_and_the_crew_off_the_table(hq_state, member, expected):
    table = two_platoons(
        HQ1=Tank("HQ1", (10, 10), side="A", is_hq=True, platoon="1", **hq_state),
        a=Tank("a", (10, 11.6), side="A", platoon="1", shaken=True, **member),
    )
    assert pz8.rally(table, "a").chance == expected


def test_duel_length_counts_attacks_made_not_turns_handed_back():
    """Shooting: at 20" only the Tiger's long gun reaches (the T-34's medium gun reaches 18").
    Each Tiger attack destroys the T-34 with 1/2 (4-6 hits) x 5/6 (a medium tank saves against
    a long gun only on 6) = 5/12, so the duel lasts 12/5 attacks, all the Tiger's; the T-34's
    turns, handed straight back, are no attacks (issue 29: it said 21/5)."""
    t34 = Tank("T-34", tank_class="medium", gun="medium")
    tiger = Tank("Tiger", tank_class="heavy", gun="long")
    d = pz8.duel(t34, tiger, 20)
    assert d.second_wins == 1
    assert d.mean_attacks_by == (0, Fraction(12, 5)) and d.mean_attacks == Fraction(12, 5)
    assert d.steps[-1].text == (
        "the duel lasts 2.40 attacks on average, counting only the shots made (T-34 0.00, "
        "Tiger 2.40; a turn handed back is no attack)"
    )
    # the same count with the tanks' order swapped and one attack each in turn
    assert pz8.duel(tiger, t34, 20).mean_attacks_by == (Fraction(12, 5), 0)
    assert pz8.duel(t34, tiger, 20, turns="alternate").mean_attacks == Fraction(12, 5)
    # both in range: every turn is an attack, 27/10 of them, split between the two tanks
    pz3 = Tank("Pz III", tank_class="medium", gun="medium")
    both = pz8.duel(t34, pz3, 10)
    assert sum(both.mean_attacks_by) == Fraction(27, 10) and all(both.mean_attacks_by)
    # out of range: a stalemate, no mean
    far = pz8.duel(t34, pz3, 25)
    assert far.mean_attacks is None and far.mean_attacks_by is None


def _kv1_shaken() -> Table:
    table = pz8.example_table()
    return dataclasses.replace(
        table,
        pieces=[dataclasses.replace(p, shaken=p.name == "KV-1") for p in table.pieces],
    )


def test_platoon_pace_with_a_shaken_heavy_tank_left_behind_by_the_readings():
    """Movement, "1D6 + move value of slowest tank in platoon": the shaken KV-1 (heavy, 3) stays;
    the T-34s move at 1D6 + 4 ("movers", the default: the tanks that move together) or at
    1D6 + 3 ("whole_platoon": the KV-1 is still in the platoon). The step names the reading and
    what the other gives (issue 29)."""
    table = _kv1_shaken()
    movers = pz8.platoon_movement(table, "Soviet")
    whole = pz8.platoon_movement(table, "Soviet", platoon_pace="whole_platoon")
    assert movers.tanks == whole.tanks == ("T-34 1", "T-34 2")
    assert [m.inches for m in movers.movement.outcomes()] == list(range(5, 11))
    assert [m.inches for m in whole.movement.outcomes()] == list(range(4, 10))
    (said,) = [s for s in movers.steps if s.text.startswith("the slowest")]
    assert said.text == (
        "the slowest is 'T-34 1' (medium): each moves 1D6 + 4 (read as: the platoon moves at "
        "the pace of the slowest tank that moves; the slowest in the platoon, shaken 'KV-1', "
        "would give 1D6 + 3)"
    )
    assert said.rule == (
        "Pz 8, Movement, reading: the platoon moves at the pace of the slowest tank that moves"
    )
    (said,) = [s for s in whole.steps if s.text.startswith("the slowest")]
    assert said.text.startswith("the slowest is shaken 'KV-1' (heavy): each moves 1D6 + 3")
    assert said.rule == "Pz 8, Movement, reading: pace of the slowest, shaken too"
    # no shaken tank: the readings agree and the step names none
    plain = pz8.platoon_movement(pz8.example_table(), "Soviet", platoon_pace="whole_platoon")
    (said,) = [s for s in plain.steps if s.text.startswith("the slowest")]
    assert said.text == "the slowest is 'KV-1' (heavy): each moves 1D6 + 3"
    assert said.rule == "Pz 8, Movement"
    assert pz8.READINGS["platoon_pace"].default == "movers"


def test_a_veteran_hq_rallying_itself_states_the_reading():
    """Optional Rule: Shaken: an HQ rallies itself on 4-6; the veteran +1 is given in the
    sentence of the 5-6 roll near the HQ. Default "no_bonus": 1/2; "bonus": 3-6, 2/3. The step
    of a veteran HQ names the reading and what the other gives (issue 29)."""
    assert pz8.rally_chance(is_hq=True, veteran=True) == Fraction(1, 2)
    assert pz8.rally_chance(is_hq=True, veteran=True, veteran_hq_rally="bonus") == Fraction(2, 3)
    assert pz8.rally_chance(is_hq=True, veteran_hq_rally="bonus") == Fraction(1, 2)  # regular
    table = pz8.example_table()  # Pz IV 1 is the German HQ, with a veteran crew
    r = pz8.rally(table, "Pz IV 1")
    assert r.chance == Fraction(1, 2)
    assert r.steps[-1].text == (
        "'Pz IV 1' is the HQ, veteran: it rallies itself on 4-6, 1/2 (read as: a veteran HQ "
        "rallies itself on 4-6, like any HQ; read the other way, 3-6, 2/3)"
    )
    assert r.steps[-1].rule == (
        "Pz 8, Optional Rule: Shaken, reading: a veteran HQ rallies itself on 4-6, like any HQ"
    )
    r = pz8.rally(table, "Pz IV 1", veteran_hq_rally="bonus")
    assert r.chance == Fraction(2, 3) and "(read as: a veteran HQ rallies itself on 3-6" in (
        r.steps[-1].text
    )
    assert r.steps[-1].rule.endswith("reading: veteran HQ rallies on 3-6")
    # a regular HQ: nothing to read
    assert (
        pz8.rally(table, "T-34 1").steps[-1].text
        == "'T-34 1' is the HQ: it rallies itself on 4-6, 1/2"
    )
    with pytest.raises(WbkError, match="reading of a veteran HQ's rally 'always'"):
        pz8.rally(table, "T-34 1", veteran_hq_rally="always")


@pytest.mark.parametrize(
    "call",
    [
        lambda: pz8.duel(Tank("a"), Tank("b"), 5, turn="card"),
        lambda: pz8.platoon_movement(pz8.example_table(), "Soviet", pace="movers"),
        lambda: pz8.rally(pz8.example_table(), "KV-1", bogus=1),
        lambda: pz8.rally_chance(bogus=1),
        lambda: pz8.shot(pz8.example_table(), "Tiger", "KV-1", cover="x"),
        lambda: pz8.attack("long", "heavy", natural6="x"),
        lambda: pz8.movement_reach(pz8.example_table(), "Tiger", rough="x"),
    ],
)
def test_an_unknown_keyword_is_one_wbk_error_line_naming_it_and_the_known_ones(call):
    with pytest.raises(WbkError, match=r"unknown keyword '\w+' \(it takes .*\)") as e:
        call()
    assert "\n" not in str(e.value)


def test_an_hq_rallies_itself_and_a_platoon_without_hq_cannot():
    table = two_platoons()
    assert pz8.rally(table, "HQ2").chance == Fraction(1, 2)
    lonely = open_table(Tank("A", (10, 10), side="X", shaken=True))
    r = pz8.rally(lonely, "A")
    assert r.chance == 0 and "has no HQ" in r.steps[-1].text


# --- readings on the table ------------------------------------------------------------------------


def test_rough_terrain_a_tank_starts_in_by_the_reading():
    table = open_table(
        Tank("A", (12, 12), side="X", tank_class="heavy", facing=0),
        terrain=[Terrain("rough", ((8, 8), (16, 8), (16, 16), (8, 16)), name="wood")],
    )
    through = pz8.movement_reach(table, "A", directions=3)
    entering = pz8.movement_reach(table, "A", directions=3, rough_terrain="entering")
    # a heavy tank moves 3 + D6; moving through, 3" go on the wood it starts in: 3.5" ahead
    # needs a 4+ (7" less 3"); entering only, any roll gets there
    assert through.chance_to_reach((13, 12)) == 1
    assert through.chance_to_reach((15.5, 12)) == Fraction(1, 2)
    assert entering.chance_to_reach((15.5, 12)) == 1


def test_a_low_wall_does_not_block_the_shot_as_marked():
    wall = Terrain("obstacle", ((11, 8), (12, 8), (12, 16), (11, 16)), blocks_sight=False)
    table = open_table(Tank("A", (4, 12), side="X"), Tank("B", (20, 12), side="Y"), terrain=[wall])
    assert pz8.shot(table, "A", "B").can_shoot
    assert not pz8.shot(table, "A", "B", obstacle_sight="all_block").can_shoot


# --- calibre to gun class -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "calibre, gun",
    [
        (20, "short"),
        (37, "short"),
        (47, "short"),
        (48, "short"),  # the card's gap: wbk's decision
        (49, "short"),
        ("2 pounder", "short"),
        ("2-pdr", "short"),
        (50, "medium"),
        ("75mm", "medium"),
        (76, "medium"),
        (76.2, "medium"),  # the T-34's "76mm"
        (77, "long"),
        (85, "long"),
        ("88 mm", "long"),
    ],
)
def test_gun_for_calibre(calibre, gun):
    assert pz8.gun_for_calibre(calibre) == gun


@pytest.mark.parametrize(
    ("calibre", "named", "upper_limits"),
    [
        (47, "short", "short"),
        (47.4, "short", "medium"),  # named 47 mm; over the card's 47mm
        (48, "short", "medium"),  # the card's gap: short by its first reading only
        (49, "short", "medium"),
        (49.5, "medium", "medium"),  # named 50 mm
        (50, "medium", "medium"),
        (76, "medium", "medium"),
        (76.2, "medium", "long"),  # the T-34's "76mm": over 76mm as written
        ("76.2mm", "medium", "long"),
        (76.5, "long", "long"),  # named 77 mm
        (88, "long", "long"),
        ("2 pounder", "short", "short"),
    ],
)
def test_calibres_between_the_cards_classes_by_the_reading(calibre, named, upper_limits):
    assert pz8.READINGS["calibre_gaps"].default == "named"
    assert pz8.gun_for_calibre(calibre) == named
    assert pz8.gun_for_calibre(calibre, calibre_gaps="named") == named
    assert pz8.gun_for_calibre(calibre, calibre_gaps="upper_limits") == upper_limits


def test_other_pounders_ask_for_millimetres():
    with pytest.raises(WbkError, match="calibre '6 pounder': the card names only the 2 pounder"):
        pz8.gun_for_calibre("6 pounder")


# --- exact at the card's limits (issue 39) -------------------------------------------------------


def test_issue_39_a_medium_gun_at_exactly_18_inches_is_in_range():
    table = open_table(
        Tank("F", (2.3, 2.7), side="A", gun="medium"), Tank("G", (13.1, 17.1), side="B")
    )
    result = pz8.shot(table, "F", "G")
    assert result.in_range and result.can_shoot
    texts = [s.text for s in result.steps]
    assert texts[0] == "'F' to 'G': 18\" centre to centre"
    assert "the medium gun of 'F' reaches 18\": at 18\" the target is in range" in texts


def test_issue_39_a_platoon_tank_at_exactly_3_inches_moves_with_its_hq():
    table = open_table(
        Tank("HQ", (3.1, 3.3), side="A", is_hq=True), Tank("a", (4.9, 5.7), side="A")
    )
    move = pz8.platoon_movement(table, "A")
    assert move.allowed and move.tanks == ("HQ", "a")
    assert move.steps[0].text == "'a' is 3\" from the HQ 'HQ': within 3\""


def test_issue_39_a_shaken_tank_at_exactly_12_inches_rallies_on_5_6():
    table = open_table(
        Tank("HQ", (2.1, 2.7), side="A", is_hq=True),
        Tank("a", (9.3, 12.3), side="A", shaken=True),
    )
    r = pz8.rally(table, "a")
    assert r.chance == Fraction(2, 6) and r.hq_within_12
    assert r.steps[0].text == "its HQ 'HQ' is 12\" away: within 12\""


@pytest.mark.parametrize("directions", [3, 91, 361])
def test_issue_39_a_point_exactly_inside_a_heavy_tanks_reach(directions):
    table = open_table(Tank("H", (10, 5), side="A", tank_class="heavy", facing=90))
    reach = pz8.movement_reach(table, "H", directions=directions)
    # 9" away (5.4, 7.2: a 3-4-5 triangle), 36.87 degrees off its facing: a roll of 6
    assert reach.chance_to_reach((15.4, 12.2)) == Fraction(1, 6)
    assert reach.chance_to_reach((15.4, 12.21)) == 0


def _in_line(start, inches, hair=0.0, dx=0.6, dy=0.8):
    """A point ``inches`` (and a ``hair`` more) from ``start`` along a 3-4-5 direction."""
    return (round(start[0] + dx * inches, 10), round(start[1] + dy * inches + dy * hair, 10))


@pytest.mark.parametrize("gun, reach", [("short", 12), ("medium", 18), ("long", 24)])
@pytest.mark.parametrize("hair, in_range", [(0, True), (0.01, False), (-0.01, True)])
def test_each_gun_reaches_its_range_exactly(gun, reach, hair, in_range):
    start = (2.3, 2.7)
    target = (round(start[0] + 0.6 * reach, 10), round(start[1] + 0.8 * reach + hair, 10))
    table = open_table(Tank("F", start, side="A", gun=gun), Tank("G", target, side="B"))
    result = pz8.shot(table, "F", "G")
    assert result.in_range == in_range and result.can_shoot == in_range
    said = result.distance_words
    assert (said == f'{reach}"') == (hair == 0)
    if hair:  # on its side of the range, never as the range itself
        assert (Fraction(said.rstrip('"')) > reach) == (hair > 0)
    assert f"at {said} the target is {'in' if in_range else 'out of'} range" in " ".join(
        s.text for s in result.steps
    )


TRIPLES = [(3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29), (9, 40, 41)]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(TRIPLES),
    st.integers(1, 150),
    st.sampled_from([(1, 1), (1, -1), (-1, 1), (-1, -1)]),
    st.booleans(),
    st.sampled_from(GUNS),
)
@example((3, 4, 5), 360, (1, 1), False, "medium")  # 18" exactly
@example((3, 4, 5), 60, (1, -1), True, "short")  # 3" exactly
def test_range_platoon_and_rally_by_exact_arithmetic(triple, hundredths, signs, swap, gun):
    """Two tanks an exact rational distance apart (a Pythagorean triple in hundredths of an
    inch, turned every way): in range, within 3" and within 12" exactly when the distance,
    worked out here as the triple's long side, is at most the limit."""
    a, b, c = triple
    legs = (b, a) if swap else (a, b)
    distance = Fraction(c * hundredths, 100)
    if distance < 3:  # closer, the footprints would overlap
        return
    start = (Fraction(10037, 100), Fraction(10021, 100))
    there = tuple(float(start[i] + Fraction(signs[i] * legs[i] * hundredths, 100)) for i in (0, 1))
    hq = Tank("HQ", (100.37, 100.21), side="A", gun=gun, is_hq=True)
    enemy = Table(200, 200, pieces=[hq, Tank("b", there, side="B")])
    assert pz8.shot(enemy, "HQ", "b").in_range == (distance <= pz8.GUN_RANGES[gun])
    friend = Table(200, 200, pieces=[hq, Tank("a", there, side="A", shaken=True)])
    assert pz8.rally(friend, "a").hq_within_12 == (distance <= 12)
    moving = friend.with_piece(dataclasses.replace(friend.piece("a"), shaken=False))
    assert pz8.platoon_movement(moving, "A").allowed == (distance <= 3)


@pytest.mark.parametrize("hair, within", [(0, True), (0.01, False), (-0.01, True)])
def test_the_platoons_3_inches_and_the_rallys_12_exactly(hair, within):
    hq = (3.1, 3.3)
    platoon = open_table(
        Tank("HQ", hq, side="A", is_hq=True), Tank("a", _in_line(hq, 3, hair), side="A")
    )
    assert pz8.platoon_movement(platoon, "A").allowed == within
    rallying = open_table(
        Tank("HQ", hq, side="A", is_hq=True),
        Tank("a", _in_line(hq, 12, hair), side="A", shaken=True),
    )
    r = pz8.rally(rallying, "a")
    assert r.chance == (Fraction(1, 3) if within else 0) and r.hq_within_12 == within
    assert ('within 12"' in r.steps[0].text) == within


@pytest.mark.parametrize("tank_class", CLASSES)
@pytest.mark.parametrize("roll", FACES)
def test_a_move_reaches_its_allowance_exactly(tank_class, roll):
    """Straight ahead at exactly the inches of a roll: that roll; a hair further: the next."""
    start = (24, 10)
    table = open_table(Tank("T", start, side="A", tank_class=tank_class, facing=90))
    reach = pz8.movement_reach(table, "T", directions=5)
    inches = pz8.MOVE_VALUES[tank_class] + roll
    assert reach.chance_to_reach((24, 10 + inches)) == Fraction(7 - roll, 6)
    assert reach.chance_to_reach((24, 10 + inches + 0.01)) == Fraction(6 - roll, 6)
    # along a 3-4-5 line turned 36.87 degrees: the same, exactly
    assert reach.chance_to_reach(_in_line(start, inches, dx=-0.6 * -1, dy=0.8)) == Fraction(
        7 - roll, 6
    )


@pytest.mark.parametrize(("dx", "chance"), [(6, Fraction(1, 6)), (6.01, 0), (5.99, Fraction(1, 6))])
def test_the_pivot_reaches_45_degrees_exactly(dx, chance):
    """A heavy tank facing the far edge: (6, 6) ahead is 45 degrees off, 8.49" away, a 6."""
    table = open_table(Tank("H", (10, 5), side="A", tank_class="heavy", facing=90))
    reach = pz8.movement_reach(table, "H", directions=3)
    assert reach.chance_to_reach((10 + dx, 11)) == chance
    assert reach.chance_to_reach((10 - dx, 11)) == chance


@pytest.mark.parametrize("hair, chance", [(0, Fraction(1, 2)), (0.01, Fraction(1, 3))])
def test_the_3_inch_penalty_exactly(hair, chance):
    """Woods 4" ahead: 5" ahead costs 5 + 3 = 8", a roll of 4 for a medium tank (4 + D6)."""
    woods = Terrain("rough", ((0, 14), (48, 14), (48, 40), (0, 40)), name="woods")
    table = open_table(Tank("T", (24, 10), facing=90, tank_class="medium"), terrain=[woods])
    reach = pz8.movement_reach(table, "T", directions=3)
    assert reach.chance_to_reach((24, 15 + hair)) == chance
    assert reach.chance_to_reach((24, 14)) == 1  # at the woods' edge: not in them yet


def test_the_pivot_timing_by_the_reading():
    """A wall along the tank's right side: pivoting at the start would swing it into the wall;
    the card's "during their move" lets it drive on and pivot past the wall."""
    wall = Terrain("obstacle", ((10.75, 6), (12, 6), (12, 12), (10.75, 12)), name="wall")
    table = open_table(Tank("A", (10, 10), side="X", tank_class="light", facing=90), terrain=[wall])
    assert pz8.READINGS["pivot"].default == "during"
    during = pz8.movement_reach(table, "A", directions=5)
    start = pz8.movement_reach(table, "A", directions=5, pivot="at_start")
    # 4 right and 8 ahead, 8.94" in a straight line: the way round is a little longer
    assert start.chance_to_reach((14, 18)) == 0
    assert during.chance_to_reach((14, 18)) == Fraction(2, 6)  # 10" (5 + 5) covers it
    ways = during.ways((14, 18))
    assert ways and ways[0].before > 0 and not ways[0].allows(9)
    # straight ahead, no pivot, they agree
    assert during.chance_to_reach((10, 17)) == start.chance_to_reach((10, 17)) == Fraction(5, 6)
    # any turn at the start swings the tank's rear into the wall, to the left too
    assert start.chance_to_reach((6, 18)) == 0 < during.chance_to_reach((6, 18))
    assert any("pivoting later" in s.text for s in during.steps)
    assert any("at the start only" in s.text for s in start.steps)


def test_the_crossroads_tiger_only_touches_the_marsh():
    """At 45 degrees to its right the Tiger's centre passes the marsh's corner (34, 12):
    touching is not entering, so no 3" is charged (floating point charged it)."""
    reach = pz8.movement_reach(pz8.example_table(), "Tiger")
    assert reach.chance_to_reach((34, 12)) == Fraction(4, 6)  # 5.66": 3 + 3
    assert reach.chance_to_reach((35, 13)) == Fraction(2, 6)  # 7.07": 3 + 5
    assert any("marsh' is only touched, never entered" in s.text for s in reach.steps)
    assert not any("is charged" in s.text for s in reach.steps)


def test_the_crossroads_tiger_sees_t34_2_past_hill_112s_corner():
    """The line from the Tiger (30, 8) to T-34 2's corner (27.25, 32.75) passes the hill's
    corner (28, 26) exactly: the hill hides nothing of it."""
    result = pz8.shot(pz8.example_table(), "Tiger", "T-34 2")
    assert result.sight.exact_visible == 1 and not result.in_cover
    assert "hill 'Hill 112' only touches the lines of sight" in result.steps[1].text


# --- inputs that hung or said nothing -------------------------------------------------------------


def test_a_duel_needs_two_names_and_a_range():
    t34 = Tank("T-34", tank_class="medium")
    with pytest.raises(WbkError, match="both tanks are called 'T-34'"):
        pz8.duel(t34, t34, 10)
    with pytest.raises(WbkError, match="range 0 is not a number of inches, more than 0"):
        pz8.duel(t34, Tank("Pz III"), 0)


def test_chance_to_reach_refuses_nan():
    reach = pz8.movement_reach(pz8.example_table(), "Tiger", directions=5)
    with pytest.raises(WbkError, match=r"point: item 1: nan is not a number"):
        reach.chance_to_reach((math.nan, math.nan))


def test_movement_reach_caps_directions_before_it_works():
    with pytest.raises(
        WbkError, match=r"directions 1000000 is more than wbk\.table\.MAX_DIRECTIONS"
    ):
        pz8.movement_reach(pz8.example_table(), "Tiger", directions=10**6)


def test_keep_initiative_is_quick_and_capped():
    assert pz8.keep_initiative(["move"] * 1000) == Fraction(2, 3) ** 1000
    with pytest.raises(WbkError, match="1001 activations is more than MAX_ACTIVATIONS"):
        pz8.keep_initiative(["move"] * 1001)


def test_shot_on_an_absurd_table_is_refused_by_a_named_limit():
    with pytest.raises(WbkError, match="table width 1e\\+200 is too large"):
        Table(1e200, 1e200, pieces=[Tank("A", (4, 4)), Tank("B", (10, 10))])
