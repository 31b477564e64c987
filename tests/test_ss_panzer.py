from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wbk.dice import percent
from wbk.errors import WbkError
from wbk.games.ss_panzer import (
    READINGS,
    FireEffect,
    GameData,
    Unit,
    entry_cost,
    example_data,
    explain_entry,
    fire_dice,
    fire_effect,
    geographic_victory,
    has_los,
    hits,
    line_of_sight,
    movement_range,
    plan_movement,
    reading_differences,
    route,
    soviet_artillery_dice,
    viewshed,
)
from wbk.games.ss_panzer.data import EXAMPLE_DATA
from wbk.maps import HexMap, example_map

M = example_map("ss_panzer_errata_9_4")
UNITS = example_data().units
PZ4, T34 = UNITS["Pz IV"], UNITS["T-34"]


# Every worked example of SS Panzer errata 9.4, as (firer, target, can the firer see the target)
ERRATA_9_4_EXAMPLES = [
    # 1913's slope hexsides do not stop units in 1913, 1813, 1814, 1914 seeing through them
    ("1813", "2014", True),
    ("1814", "2013", True),
    ("1914", "1912", True),
    ("1913", "2113", True),
    # 1712 can see 1913 but not beyond it, even where no slope hexside is crossed
    ("1712", "1913", True),
    ("1712", "2113", False),
    ("1712", "2014", False),
    ("1712", "2015", False),
    ("1712", "2114", False),
    # 1913 sees 1915 and 1816, not 1716 behind the slope hexside 1715/1816
    ("1913", "1915", True),
    ("1913", "1816", True),
    ("1913", "1716", False),
]


@pytest.mark.parametrize("firer, target, clear", ERRATA_9_4_EXAMPLES)
def test_errata_9_4_slope_examples(firer, target, clear):
    assert has_los(M, firer, target) is clear
    assert has_los(M, target, firer) is clear


def test_a_blocked_verdict_cites_the_rule_that_blocks():
    """A wood blocks by SS Panzer's terrain chart, not by the errata: the verdict step said
    "line of sight blocked (SS Panzer errata 9.4)" where only the woods in 1614 blocked."""
    by_woods = line_of_sight(M, "1913", "1414", blocking_terrain=("woods",))
    assert by_woods.verdict == "blocked by woods in 1614"
    assert (by_woods.steps[-1].text, by_woods.steps[-1].rule) == (
        "line of sight blocked",
        "terrain chart",
    )
    by_slope = line_of_sight(M, "1913", "1716", blocking_terrain=("woods",))
    assert by_slope.steps[-1].rule == "SS Panzer errata 9.4"
    both = M.with_terrain(M.hex("1815"), {"woods"})
    assert line_of_sight(both, "1913", "1716", blocking_terrain=("woods",)).steps[-1].rule == (
        "terrain chart and SS Panzer errata 9.4"
    )


def test_errata_9_4_the_spine_example_names_its_hexside():
    result = line_of_sight(M, "1913", "1716")
    assert result.blocking == (M.hexside("1715/1816"),)
    assert "runs along slope hexside 1715/1816, between the two units: blocked" in [
        s.text for s in result.steps
    ]
    assert all(s.rule == "SS Panzer errata 9.4" for s in result.steps)
    through = line_of_sight(M, "1712", "1913")
    assert "crosses slope hexside 1813/1913, a side of the target's hex: no block" in [
        s.text for s in through.steps
    ]


def test_errata_9_4_general_sentence_is_the_default_reading():
    # 1712, 1813, 1912, 1913, 2013, 2113: clips the top of 1913 (in across hexside 1912/1913),
    # crossing none of its slopes
    through = line_of_sight(M, "1712", "2113")
    assert [M.label(h) for h in through.trace.hexes] == [
        "1712",
        "1813",
        "1912",
        "1913",
        "2013",
        "2113",
    ]
    assert through.blocking == (M.hex("1913"),)
    assert "passes through 1913, a hex with slope symbols, and beyond it" in through.steps[1].text
    assert has_los(M, "1712", "2113", slope_hex="hexsides_only")
    assert has_los(M, "1712", "1913")  # into the slope hex itself


def test_errata_9_4_the_readings_differ_on_550_pairs_of_the_errata_map():
    differ = reading_differences(M, "slope_hex")
    assert len(differ) == 550
    assert len(reading_differences(M, "slope_end")) == 2
    assert len(reading_differences(M, "slope_end", slope_hex="hexsides_only")) == 57
    assert all(
        has_los(M, a, b, slope_hex="hexsides_only") for a, b in differ
    )  # only ever sees more
    assert not any(M.hex(x) in pair for pair in differ for x in ("1913", "1813", "1814", "1914"))


def test_errata_9_4_whose_hex_the_general_sentence_looks_at():
    """1808 has no slope hexside, 1914 has; the line between them passes beyond 1913."""
    assert has_los(M, "1808", "1914") and has_los(M, "1914", "1808")  # "both": symmetric
    assert not has_los(M, "1808", "1914", slope_hex_of="firer")
    assert has_los(M, "1914", "1808", slope_hex_of="firer")
    blocked = line_of_sight(M, "1808", "1914", slope_hex_of="firer")
    assert blocked.blocking == (M.hex("1913"),) and blocked.verdict == "blocked by slope hex 1913"
    texts = [s.text for s in blocked.steps]
    assert (
        "passes through 1913, a hex with slope symbols, and beyond it; the firer's hex 1808 has "
        "no slope hexside (slope hexside needed in: the firer's hex): blocked"
    ) in texts
    clear = line_of_sight(M, "1808", "1914")
    assert (
        "passes through 1913, a hex with slope symbols; 1914 has a slope hexside (slope hexside "
        "needed in: either unit's hex), so the line may go beyond it"
    ) in [s.text for s in clear.steps]
    assert all(s.rule == "SS Panzer errata 9.4" for s in blocked.steps + clear.steps)
    # the errata's own examples hold under both readings, firer first as the errata puts them
    for firer, target in (("1712", "1913"), ("1913", "1816"), ("1813", "2014")):
        for reading in READINGS["slope_hex_of"].values:
            assert has_los(M, firer, target, slope_hex_of=reading)
    # the other way round, example 1's line from 2014 (no slope hexside) goes beyond 1913
    assert not has_los(M, "2014", "1813", slope_hex_of="firer")
    # with only slope hexsides blocking, the reading has nothing to decide
    assert has_los(M, "1808", "1914", slope_hex="hexsides_only", slope_hex_of="firer")


def test_errata_9_4_whose_hex_decides_91_lines_of_the_errata_map():
    differ = reading_differences(M, "slope_hex_of")
    assert len(differ) == 91
    assert (M.hex("1808"), M.hex("1914")) in differ and (M.hex("1914"), M.hex("1808")) not in differ
    beyond = [line_of_sight(M, a, b, slope_hex_of="firer").blocking for a, b in differ]
    # 55 pass beyond 1913, the errata's slope hex; 36 beyond 1816, uphill by wbk's choice
    assert beyond.count((M.hex("1913"),)) == 55 and beyond.count((M.hex("1816"),)) == 36
    for a, b in differ:  # firer first: the firer's reading blocks it, and only that way
        assert has_los(M, a, b) and not has_los(M, a, b, slope_hex_of="firer")
        assert has_los(M, b, a, slope_hex_of="firer")
    assert reading_differences(M, "slope_hex_of", firers=["1808"]) == [
        (M.hex("1808"), b) for a, b in differ if a == M.hex("1808")
    ]
    assert reading_differences(M, "slope_hex_of", slope_hex="hexsides_only") == []


def test_every_reading_has_words_for_its_values():
    """Each reading is declared once, the default first, with words for each value, a
    question (a control's label) and the rule it reads in full (a control's tooltip)."""
    readings = {
        "slope_hex": ("enter_not_beyond", "hexsides_only"),
        "slope_hex_of": ("both", "firer"),
        "slope_end": ("crosses", "touches"),
        "edge": ("both", "either"),
        "reading": ("largest", "separate"),
    }
    assert {k: tuple(r.values) for k, r in READINGS.items()} == readings
    assert all(all(r.values.values()) and r.question for r in READINGS.values())
    sight = [r for k, r in READINGS.items() if k != "reading"]
    assert all(r.asks.startswith("SS Panzer") for r in sight)


@pytest.mark.parametrize("slope_hex", READINGS["slope_hex"].values)
def test_errata_9_4_first_example_sees_beyond_under_both_readings(slope_hex):
    for firer in ("1913", "1813", "1814", "1914"):
        for target in ("2113", "2014", "1711", "2011"):
            assert has_los(M, firer, target, slope_hex=slope_hex) == has_los(
                M, firer, target, slope_hex="hexsides_only"
            )
    assert has_los(M, "1813", "2014", slope_hex=slope_hex)


@pytest.mark.parametrize(
    "firer, target, slope_hex, crosses_clear, touches_clear",
    [
        # from 1813 into 1913 through the end point of 1813/1913
        ("1208", "2014", "hexsides_only", False, True),
        ("1208", "2014", "enter_not_beyond", False, False),  # 1913 is passed through as well
        ("1712", "2214", "hexsides_only", False, True),
        ("1712", "2214", "enter_not_beyond", False, False),
        ("1715", "2211", "enter_not_beyond", False, True),
    ],
)
def test_errata_9_4_a_line_through_the_end_of_a_slope_hexside(
    firer, target, slope_hex, crosses_clear, touches_clear
):
    for reading, clear in (("crosses", crosses_clear), ("touches", touches_clear)):
        assert has_los(M, firer, target, slope_hex=slope_hex, slope_end=reading) is clear
        assert has_los(M, target, firer, slope_hex=slope_hex, slope_end=reading) is clear
    texts = [s.text for s in line_of_sight(M, "1712", "2214", slope_end="touches").steps]
    assert (
        "passes through the end of slope hexside 1813/1913: only touches it (a line through a "
        "slope's end: only touches it): no block" in texts
    )
    blocked = [s.text for s in line_of_sight(M, "1712", "2214").steps]
    assert (
        "passes through the end of slope hexside 1813/1913, between the two units (a line "
        "through a slope's end: crosses it): blocked" in blocked
    )


PLAIN = HexMap("plain", (12, 24), (8, 18))


def with_woods(*labels: str) -> HexMap:
    return HexMap(
        "woods", (12, 24), (8, 18), terrain_hexes={"woods": frozenset(map(PLAIN.hex, labels))}
    )


@pytest.mark.parametrize(
    "woods, edge, clear",
    [
        (["1814"], "both", True),
        (["1814"], "either", False),
        (["1814", "1914"], "both", False),
        (["1815"], "both", False),  # the line passes through the centre of 1815
        ([], "either", True),
    ],
)
def test_hexside_spine_readings(woods, edge, clear):
    m = with_woods(*woods)
    assert has_los(m, "1913", "1716", blocking_terrain={"woods"}, edge=edge) is clear


def test_corner_graze_readings():
    m = with_woods("1309")  # the line 1208-1312 touches 1309 at one corner only
    assert has_los(m, "1208", "1312", blocking_terrain={"woods"}, edge="both")
    assert not has_los(m, "1208", "1312", blocking_terrain={"woods"}, edge="either")
    assert has_los(m, "1208", "1312")  # blocking terrain is off by default


def test_blocking_terrain_in_the_firers_or_targets_hex_does_not_block():
    m = with_woods("1913", "1716")
    assert has_los(m, "1913", "1716", blocking_terrain={"woods"})


def test_visibility_limit():
    assert not has_los(M, "1913", "1915", visibility=1)
    assert has_los(M, "1913", "1915", visibility=2)


def test_bad_los_input():
    with pytest.raises(WbkError, match="hex 1999 is off the map"):
        line_of_sight(M, "1913", "1999")
    with pytest.raises(WbkError, match="edge reading 'some'"):
        line_of_sight(M, "1913", "1716", edge="some")


labels = st.sampled_from([M.label(h) for h in M])


@settings(max_examples=120)
@given(
    labels,
    labels,
    st.sampled_from(["both", "either"]),
    st.sampled_from(list(READINGS["slope_hex"].values)),
    st.sampled_from(list(READINGS["slope_end"].values)),
)
def test_line_of_sight_is_symmetric(a, b, edge, slope_hex, slope_end):
    options = dict(
        blocking_terrain={"woods", "town"}, edge=edge, slope_hex=slope_hex, slope_end=slope_end
    )
    assert has_los(M, a, b, **options) == has_los(M, b, a, **options)


def test_viewshed_of_1913():
    seen = viewshed(M, "1913")
    assert {M.hex(x) for x in ("1913", "1915", "1816", "2014", "1712")} <= seen
    assert M.hex("1716") not in seen
    assert seen == {h for h in M if has_los(M, "1913", h)}
    assert {M.label(h) for h in M} - {M.label(h) for h in seen} == {
        "1716",
        "1618",
    }  # both behind 1715/1816
    assert len(viewshed(M, "1712")) < len(viewshed(M, "1712", slope_hex="hexsides_only"))


def test_blocking_terrain_names():
    m = with_woods("1815")
    assert not has_los(m, "1913", "1716", blocking_terrain=["Woods"])  # any case
    with pytest.raises(
        WbkError,
        match=r"blocking terrain 'woods' is not a list of names \(write \['woods'\] for one\)",
    ):
        has_los(m, "1913", "1716", blocking_terrain="woods")
    with pytest.raises(WbkError, match="blocking terrain 'forest' is not a terrain of this map"):
        has_los(m, "1913", "1716", blocking_terrain=["forest"])


def test_errata_8_3_stream_into_woods():
    assert entry_cost(M, PZ4, "1610", "1609") == 6
    steps = explain_entry(M, PZ4, "1610", "1609").steps
    assert steps[-1].text == "1609: woods in 1609 + stream hexside 1609/1610 = 2 MCF × 3 = 6 MP"
    # 8.3 prices an MCF; which terrain costs one is illustrative data, the Pz IV's 3 is 8.3's
    assert steps[-1].rule == (
        "SS Panzer errata 8.3; illustrative game data, but for the Pz IV's MCF of 3 (errata 8.3)"
    )
    assert entry_cost(M, PZ4, "1508", "1609") == 6
    assert entry_cost(M, PZ4, "1509", "1609") == 3  # woods, no stream on that hexside
    assert entry_cost(M, PZ4, "1912", "1913") == 1


@pytest.mark.parametrize(
    "unit, hex_, cost",
    [
        ("Pz IV", "2013", 3),  # trench alone: Germans pay an MCF
        ("T-34", "2013", 1),  # Soviets pay 1 MP
        ("Pz IV", "2012", 6),  # trench and woods: two MCF for Germans
        ("T-34", "2012", 3),  # one MCF for the woods only
        ("Rifle battalion", "2012", 2),
    ],
)
def test_errata_8_3_trench_costs(unit, hex_, cost):
    frm = next(
        n
        for n in M.neighbors(M.hex(hex_))
        if not M.terrain(n) and not M.features(M.hexside(n, M.hex(hex_)))
    )
    assert entry_cost(M, UNITS[unit], frm, hex_) == cost


def test_errata_8_3_one_hex_on_a_move_action():
    slow = Unit("slow", "German", mp=2, mcf=3)
    on_move = movement_range(M, slow, "1610")
    on_move_and_fire = movement_range(M, slow, "1610", action="move_and_fire")
    assert on_move[M.hex("1609")] == 6  # stream into woods, more than its 2 MP
    assert M.hex("1609") not in on_move_and_fire
    # 1710 lies over a stream too, but costs 2 by way of 1709
    assert on_move[M.hex("1710")] == 2
    assert {M.label(h) for h, c in on_move.items() if c > 2} == {"1609"}
    assert M.hex("1610") in on_move and on_move[M.hex("1610")] == 0


@settings(max_examples=40, deadline=None)
@given(
    labels,
    st.sampled_from(sorted(UNITS)),
    st.integers(0, 12),
    st.sampled_from(["move", "move_and_fire"]),
)
def test_movement_range_is_the_cheapest_cost(start, name, mp, action):
    unit = UNITS[name]
    reach = movement_range(M, unit, start, mp, action)
    origin = M.hex(start)
    assert reach[origin] == 0
    for h, cost in reach.items():
        if h == origin:
            continue
        best = min(
            reach[n] + entry_cost(M, unit, n, h)
            for n in M.neighbors(h)
            if n in reach and reach[n] <= mp
        )
        if cost <= mp:
            assert cost == best
        else:
            assert (
                action == "move"
                and h in M.neighbors(origin)
                and cost == entry_cost(M, unit, origin, h)
            )
    for n in M.neighbors(origin):
        assert (n in reach) or action == "move_and_fire"


def test_errata_8_3_no_one_hex_move_after_moving():
    slow = Unit("slow", "German", mp=2, mcf=3)
    fresh = movement_range(M, slow, "1610")
    moved = movement_range(M, slow, "1610", moved=True)
    assert fresh[M.hex("1609")] == 6 and M.hex("1609") not in moved
    assert moved == movement_range(M, slow, "1610", action="move_and_fire")
    assert plan_movement(M, slow, "1610", moved=True).moved
    with pytest.raises(
        WbkError, match="slow cannot reach 1609 from 1610 with 2 MP \\(Move, having moved\\)"
    ):
        route(M, slow, "1610", "1609", moved=True)


@pytest.mark.parametrize(
    "mp_left, moved, action, allowed, why",
    [
        (6, True, "move", True, None),
        (
            4,
            False,
            "move",
            True,
            "6 MP with 4 MP left: a unit on a Move action that has not yet moved may always enter "
            "one hex",
        ),
        (
            4,
            True,
            "move",
            False,
            "6 MP with 4 MP left: a unit that has already moved this Action Phase may not enter it",
        ),
        (
            4,
            False,
            "move_and_fire",
            False,
            "6 MP with 4 MP left: a unit on a Move & Fire action may not enter it",
        ),
    ],
)
def test_errata_8_3_entering_with_too_few_mp(mp_left, moved, action, allowed, why):
    entry = explain_entry(M, "Pz IV", "1610", "1609", mp_left=mp_left, moved=moved, action=action)
    assert entry.mp == 6 and entry.allowed is allowed
    if why:
        assert entry.steps[-1].text == why
    if allowed:
        assert (
            entry_cost(M, "Pz IV", "1610", "1609", mp_left=mp_left, moved=moved, action=action) == 6
        )
    else:
        with pytest.raises(WbkError, match="Pz IV may not enter 1609: 6 MP with 4 MP left"):
            entry_cost(M, "Pz IV", "1610", "1609", mp_left=mp_left, moved=moved, action=action)


def test_units_by_name():
    assert entry_cost(M, "Pz IV", "1610", "1609") == entry_cost(M, PZ4, "1610", "1609")
    with pytest.raises(WbkError, match="unit 'Pz V' is not in the game data"):
        entry_cost(M, "Pz V", "1610", "1609")


def test_route_is_explained():
    path = route(M, PZ4, "1611", "1609")
    # round the stream: 1 + 1 MP through clear hexes, then 3 MP into the woods from the west
    assert [M.label(h) for h in path.hexes] == ["1611", "1510", "1509", "1609"]
    assert path.mp == 5
    assert path.steps[-1].text.endswith("= 1 MCF × 3 = 3 MP")
    with pytest.raises(WbkError, match="Pz IV cannot reach 2418 from 1611"):
        route(M, PZ4, "1611", "2418")


def test_units_are_checked():
    with pytest.raises(WbkError, match="only the Soviet airborne battalions are non-motorized"):
        Unit("Pioneers", "German", 4, 2, motorized=False)
    with pytest.raises(WbkError, match="side 'Finnish' is not German or Soviet"):
        Unit("Jaeger", "Finnish", 4, 2)
    assert not UNITS["Guards airborne battalion"].motorized


SHIPPED_DATA = EXAMPLE_DATA.read_text()


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("mp = 9\nmcf = 3", "mp = 9", r"\[units.'Pz IV'\] mcf: missing"),
        ("mp = 9\nmcf = 3", "mp = 9\nmcf = 0", r"\[units.'Pz IV'\]: unit 'Pz IV': mcf 0"),
        (
            'mcf_terrain = ["woods", "town"]',
            "mcf_terrain = 'woods'",
            r"\[movement\] mcf_terrain: 'woods'",
        ),
        ("mcf_terrain =", "mcf_terain =", r"\[movement\] mcf_terain: unknown key"),
        ("kill_zone = 3", "kill_zone = -3", r"\[fire\] conditions: kill_zone: -3"),
        (
            "base_dice = 2 ",
            "base_dice = -2 ",
            r"\[fire\] base_dice: -2 is not a whole number of 1 or more",
        ),
        (
            "one_always_hits = true",
            "one_always_hits = 'yes'",
            r"\[fire\] one_always_hits: 'yes' is not true or false",
        ),
        (
            'one_always_hits = "SS',
            "luck = 'me'\none_always_hits = \"SS",
            r"\[sources\] luck: unknown fact",
        ),
        ("[movement]", "[moves]", r"moves: unknown section"),
        ("step_loss_hits = 2", "", r"\[fire\] step_loss_hits: missing"),
    ],
)
def test_game_data_errors_name_the_key(old, new, message):
    assert old in SHIPPED_DATA
    with pytest.raises(WbkError, match="data.toml: " + message):
        GameData.from_toml(SHIPPED_DATA.replace(old, new, 1), source="data.toml")


def test_game_data_needs_every_section():
    without_movement = (
        SHIPPED_DATA.replace("[movement]", "")
        .replace("mcf_terrain =", "# ")
        .replace("mcf_hexsides =", "# ")
    )
    with pytest.raises(WbkError, match=r"data.toml: \[movement\]: missing section"):
        GameData.from_toml(without_movement, source="data.toml")


def test_example_data_is_labelled_illustrative():
    text = EXAMPLE_DATA.read_text()
    assert "ILLUSTRATIVE" in text
    assert PZ4.mcf == 3


def test_errata_9_5_largest_condition_not_the_sum():
    assert fire_dice(["kill_zone", "entering_zoc"]).fires == (4,)
    assert fire_dice([]).fires == (2,)
    assert fire_dice(["kill_zone", "entering_zoc"], reading="separate").fires == (3, 4)
    with pytest.raises(
        WbkError, match="fire condition 'ambush' is not one of entering_zoc, kill_zone"
    ):
        fire_dice(["ambush"])


def test_errata_9_5_and_13_2_soviet_artillery():
    for phase, side in (("bombardment", "bombardment (barrage) side"), ("action", "support side")):
        dice = soviet_artillery_dice(phase)
        assert dice.fires == (2,)
        assert side in dice.steps[0].text


def test_a_one_always_hits():
    assert hits(1, 0).probability(1) == Fraction(1, 6)
    assert hits(1, 3).probability(1) == Fraction(1, 2)
    assert hits(2, 1).probability(2) == Fraction(1, 36)


def test_the_official_errata_facts_come_from_the_game_data():
    from dataclasses import replace

    data = example_data()
    assert data.source("one_always_hits") == "SS Panzer official errata (Command Magazine)"
    assert (data.one_always_hits, data.step_loss_hits, data.separate_fires) == (True, 2, True)
    no_auto = replace(data, one_always_hits=False)
    assert hits(1, 0, data=no_auto).probability(1) == 0
    three_for_a_step = replace(data, step_loss_hits=3)
    assert fire_effect([3], 3, data=three_for_a_step).probability(FireEffect.STEP_LOSS) == Fraction(
        1, 8
    )
    combined = replace(data, separate_fires=False)
    assert fire_effect([1, 1], 3, data=combined).probability(FireEffect.STEP_LOSS) == Fraction(1, 4)


def test_fire_effect_exactly():
    two = fire_effect([2], hit_number=3)  # each die hits on 1-3
    assert two.probabilities() == {
        FireEffect.NO_EFFECT: Fraction(1, 4),
        FireEffect.SUPPRESSED: Fraction(1, 2),
        FireEffect.STEP_LOSS: Fraction(1, 4),
    }
    # separate fires are never combined: two fires of one die each cannot cause a step loss
    assert fire_effect([1, 1], hit_number=3).probability(FireEffect.STEP_LOSS) == 0
    step_3 = hits(3, 2).at_least(2)
    step_4 = hits(4, 2).at_least(2)
    separate = fire_effect(fire_dice(["kill_zone", "entering_zoc"], reading="separate"), 2)
    assert separate.probability(FireEffect.STEP_LOSS) == 1 - (1 - step_3) * (1 - step_4)
    assert (
        fire_effect(fire_dice(["kill_zone", "entering_zoc"]), 2).probability(FireEffect.STEP_LOSS)
        == step_4
    )


def test_errata_3_3_geographic_victory():
    stars = sorted(M.label(h) for h in M.markers("star"))
    assert len(stars) == 9
    assert geographic_victory(M, stars[:7]).won
    result = geographic_victory(M, [*stars[:6], "1208"])
    assert not result.won and result.controlled == 6
    assert result.steps[-1].text == "fewer than 7: no geographic victory"
    with pytest.raises(
        WbkError, match="this map has 0 marked 'stars' \\(its markers: star \\(9\\)\\)"
    ):
        geographic_victory(M, stars[:7], marker="stars")
    five = HexMap(
        "five", (12, 24), (8, 18), marker_hexes={"star": frozenset(map(M.hex, stars[:5]))}
    )
    with pytest.raises(WbkError, match=r"errata 3\.3 counts 9 star hexes; this map has 5"):
        geographic_victory(five, stars[:5])


def test_game_data_file_round_trip_and_missing_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(EXAMPLE_DATA.read_text())
    assert GameData.load(path) == example_data()
    with pytest.raises(WbkError, match=r"nothing\.toml: cannot read the game data"):
        GameData.load(tmp_path / "nothing.toml")


def test_pictures_at_each_step_of_a_line_of_sight_and_a_route():
    """Issue 19: 9.4's example 2 and 8.3's stream into woods drawn at every step, each step's
    picture unlike the others; a step that is not there is refused in one line."""
    from wbk.draw import picture, picture_bytes

    los = line_of_sight(M, "1712", "2014")
    path = route(M, "Pz IV", "1610", "1609", mp=2)
    assert path.steps[0].about == (M.hex("1609"), M.hexside("1609", "1610"))
    for result in (los, path):
        n = len(result.steps)
        pngs = {picture_bytes(result, map=M, step=k) for k in range(n)}
        assert len(pngs) == n
        with pytest.raises(WbkError, match=f"step {n} is not one of the answer's {n} steps"):
            picture(result, map=M, step=n)
    title = picture(los, map=M, step=2).axes[0].get_title().replace("\n", " ")
    assert (
        "neither unit's hex has a slope hexside (slope hexside needed in: either unit's hex): "
        "blocked" in title
    )


def test_pictures_at_each_step_of_the_fire_dice_and_a_victory():
    """Issue 19: 9.5's example (Kill Zone firing at a unit entering a ZOC) and 3.3's seven of
    nine stars drawn at every step, each step's picture unlike the others; each step is about
    what its picture marks (a bar of the dice chart, the star hexes); a bad step is refused."""
    from wbk.draw import picture, picture_bytes

    fires = fire_dice(["kill_zone", "entering_zoc"])
    assert fires.rolled_by == (("kill zone", 3), ("entering ZOC", 4))
    assert [s.about for s in fires.steps] == [
        ("kill zone",),
        ("entering ZOC",),
        ("entering ZOC", "the fire"),
    ]
    separate = fire_dice(["kill_zone", "entering_zoc"], reading="separate")
    assert separate.fire_names == ("fire 1", "fire 2")
    assert separate.steps[-1].about == ("fire 1", "fire 2")
    stars = ["1310", "1412", "1715", "1816", "1913", "2013", "2118"]
    victory = geographic_victory(M, stars)
    assert [M.label(h) for h in victory.held] == stars and len(victory.star_hexes) == 9
    assert [len(s.about) for s in victory.steps] == [9, 7, 7]
    for result, on in ((fires, None), (victory, M)):
        n = len(result.steps)
        assert len({picture_bytes(result, map=on, step=k) for k in range(n)}) == n
        with pytest.raises(WbkError, match=f"step {n} is not one of the answer's {n} steps"):
            picture(result, map=on, step=n)
        with pytest.raises(WbkError, match="step 'last' is not a whole number"):
            picture(result, map=on, step="last")  # type: ignore[arg-type]
    title = picture(fires, step=0).axes[0].get_title().replace("\n", " ")
    assert title.startswith("Step 1 of 3: kill zone: 3 dice (SS Panzer errata 9.5")
    assert picture(fires).axes[0].get_title() == "4 dice"
    title = picture(victory, map=M, step=1).axes[0].get_title().replace("\n", " ")
    assert title.startswith("Step 2 of 3: the Soviet player controls 7 of the 9 star hexes")
    assert picture(victory, map=M).axes[0].get_title() == (
        "The Soviet player holds 7 of the 9 star hexes: a Soviet geographic victory"
    )


# --- issue 29: steps cite the source the game data names; unknown keywords -------------------


def test_a_step_loss_cites_the_official_errata_the_data_credits_not_the_unofficial_9_5():
    """wbk's data credits a 1 always hitting, fires resolved separately and 2 hits from one
    fire being a step loss to the official errata (its [sources]); the unofficial 9.5 says none
    of them, so no step of the chance cites it."""
    from wbk.games.ss_panzer import example_data, step_loss_chance

    data = example_data()
    official = "SS Panzer official errata (Command Magazine)"
    assert {data.source(f) for f in ("one_always_hits", "separate_fires", "step_loss_hits")} == {
        official
    }
    r = step_loss_chance(fire_dice(["kill_zone", "entering_zoc"], reading="separate"), 3)
    assert [(s.text, s.rule) for s in r.steps] == [
        ("a hit is a roll of 3 or less; a 1 always hits", official),
        ("each fire's hits count on their own, never combined", official),
        (f"a step loss (2 hits from one fire): {r.chance} = {percent(r.chance)}", official),
    ]
    assert r.chance == fire_effect([3, 4], 3).at_least(FireEffect.STEP_LOSS)
    assert step_loss_chance([2], 3).chance == Fraction(1, 4)
    assert not any("9.5" in s.rule for s in r.steps)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: has_los(M, "1712", "2113", bogus=1), "has_los"),
        (lambda: line_of_sight(M, "1712", "2113", edges="both"), "line_of_sight"),
        (lambda: fire_dice(["kill_zone"], zoc_fire="largest"), "fire_dice"),
    ],
)
def test_an_unknown_keyword_is_one_wbk_error_line_naming_it_and_the_known_ones(call, name):
    with pytest.raises(WbkError, match=rf"^{name}: unknown keyword '\w+' \(it takes .+\)$") as e:
        call()
    assert "\n" not in str(e.value)
    with pytest.raises(WbkError, match=r"it takes m, firer, target, blocking_terrain, edge, "):
        has_los(M, "1712", "2113", bogus=1)


def test_the_reference_example_of_game_data_reads_as_the_shipped_data():
    from pathlib import Path

    from wbk.games.ss_panzer.data import GameData

    page = Path(__file__).parent.parent / "wbk/site/reference/ss-panzer-data.md"
    (text,) = [b.split("```")[0] for b in page.read_text(encoding="utf-8").split("```toml\n")[1:]]
    data = GameData.from_toml(text, source=page.name)
    assert data.units["Pz IV"].mcf == GameData.load(EXAMPLE_DATA).units["Pz IV"].mcf == 3
    assert not data.units["Guards airborne battalion"].motorized
    assert data.condition_dice == {"kill_zone": 3, "entering_zoc": 4}
    assert (data.base_dice, data.step_loss_hits, data.one_always_hits) == (2, 2, True)
    assert data.sources["step_loss_hits"] == "SS Panzer official errata (Command Magazine)"
