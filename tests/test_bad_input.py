"""Bad input to any public function of wbk is a WbkError that names the bad value, never a silent
wrong answer or a bare Python error.

Each module below lists its public names in ``__all__``. Every public function, class and method
of those must have at least one bad call here, so a new function cannot forget its checks:
``test_every_public_callable_is_swept`` fails until it has one.
"""

from __future__ import annotations

import enum
import inspect
import re
from fractions import Fraction

import pytest

from wbk import dice, draw, hexgrid, maps, quiz, table
from wbk.checks import Input
from wbk.errors import WbkError
from wbk.games import blitz, games, ss_panzer, stalingrad

SWEPT_MODULES = [draw.pictures, dice, hexgrid, maps, ss_panzer, blitz, table, stalingrad, quiz]


def bad(fn, *args, names: str, **kwargs):
    """A call that must raise a WbkError whose message contains ``names`` (the bad value)."""
    arguments = [*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())]
    label = f"{fn.__qualname__}({', '.join(arguments)})"
    # no memory addresses in a test's id: every xdist worker must collect the same ids
    label = re.sub(r" at 0x[0-9a-fA-F]+", "", label)
    return pytest.param(fn, args, kwargs, names, id=label[:90])


def _sample_map():
    return maps.example_map("ss_panzer_errata_9_4")


# --- wbk.dice -------------------------------------------------------------------------------
_D6 = dice.d6
DICE = [
    bad(dice.Dist, [1, 2, 3], names="got [1, 2, 3]"),
    bad(dice.Dist, {"hit": -1, "miss": 5}, names="weight -1 of outcome 'hit' is negative"),
    bad(dice.Dist, {"hit": 0.5}, names="weight 0.5 of outcome 'hit' is not a whole number"),
    bad(dice.Dist, {"hit": True}, names="weight True of outcome 'hit'"),
    bad(dice.Dist, {"hit": 0}, names="at least one outcome with a positive weight"),
    bad(dice.Dist, {1: 1, "a": 1}, names="outcomes [1, 'a'] cannot be put in order"),
    bad(dice.Dist.always, [6], names="outcome [6] cannot be an outcome"),
    bad(_D6.at_least, "4", names="outcome '4' cannot be compared"),
    bad(_D6.at_most, None, names="outcome None cannot be compared"),
    bad(_D6.combine, _D6, "add", names="op 'add' is not a function"),
    bad(_D6.combine, "x", lambda a, b: a + b, names="cannot combine outcome 1 with outcome 'x'"),
    bad(_D6.given, 5, names="condition 5 is not a function"),
    bad(_D6.given, lambda o: o > 6, names="the condition holds for no outcome"),
    bad(_D6.is_in, "6", names="outcomes '6' is not a collection"),
    bad(_D6.is_in, 6, names="outcomes 6 is not a collection"),
    bad(dice.Dist.joint, _D6, 3, names="argument 2 3 is not a Dist"),
    bad(dice.Dist.joint, [_D6, _D6], names="pass the distributions one by one"),
    bad(_D6.map, None, names="f None is not a function"),
    bad(_D6.map, lambda o: [o], names="[1] cannot be an outcome"),
    bad(_D6.probability, [6], names="outcome [6] cannot be an outcome"),
    bad(_D6.sum_of, -2, names="number of dice -2 is negative"),
    bad(_D6.sum_of, True, names="number of dice True is not a whole number of 0 or more"),
    bad(_D6.sum_of, 2.0, names="number of dice 2.0 is not a whole number"),
    # sums that would run for minutes are refused at once
    bad(_D6.sum_of, 1_000, names="1,000 dice of 6 outcomes have up to 5,001 totals"),
    bad((_D6 >= 6).sum_of, 10**9, names="number of dice 1,000,000,000 is over the limit"),
    bad(dice.die, 10**9, names="a die of 1,000,000,000 faces is over the limit of 10,000"),
    bad(_D6.__rmatmul__, -1, names="number of dice -1"),
    bad(_D6.__matmul__, 3, names="write the number of dice first: 3 @ dist"),
    bad(_D6.__bool__, names="neither true nor false"),
    bad(_D6.__add__, "1", names="cannot combine outcome 1 with outcome '1'"),
    bad(dice.Dist({"a": 1}).__neg__, names="outcomes ('a',) are not numbers"),
    bad(dice.die, 0, names="a die needs at least one face, got 0"),
    bad(dice.die, True, names="got True"),
    bad(dice.die, "6", names="got '6'"),
    bad(dice.fraction_html, 0.5, names="probability 0.5 is not a Fraction"),
    bad(dice.fraction_html, (_D6 >= 6).probability(True), longest=0, names="longest 0"),
    bad(dice.outcome_name, [1], names="outcome [1] cannot be an outcome"),
    bad(dice.percent, 0.5, names="probability 0.5 is not a Fraction"),
    bad(dice.percent, Fraction(3, 2), names="probability 3/2 is not between 0 and 1"),
    bad(dice.chance, -1, names="probability -1 is not between 0 and 1"),
    bad(dice.chance, Fraction(1, 2), longest=0, names="longest 0"),
]

# --- wbk.hexgrid ----------------------------------------------------------------------------
_H, _S = hexgrid.Hex(0, 0), hexgrid.Hex(0, 1)
_SIDE = hexgrid.Hexside(_H, _S)
HEXGRID = [
    bad(hexgrid.Hex, 1.5, 2, names="hex coordinate q 1.5 is not a whole number"),
    bad(hexgrid.Hex, "1", 2, names="hex coordinate q '1' is not a whole number"),
    bad(hexgrid.Hex, 0, True, names="hex coordinate r True is not a whole number"),
    bad(hexgrid.Hex, 0, 0, 0.0, names="hex coordinate s 0.0"),
    bad(hexgrid.Hex, 1, 1, 1, names="cube coordinates (1, 1, 1) do not add up to 0"),
    bad(_H.__add__, (0, 1), names="cannot add (0, 1) to Hex(0, 0, 0)"),
    bad(_H.__sub__, 1, names="cannot subtract 1 from Hex(0, 0, 0)"),
    bad(_H.__mul__, 1.5, names="factor 1.5 is not a whole number"),
    bad(_H.disk, -1, names="disk radius -1 is not a whole number of 0 or more"),
    bad(_H.distance, "1913", names="other hex '1913' is not a Hex"),
    bad(_H.dot, (1, 0), names="other hex (1, 0) is not a Hex"),
    bad(_H.is_adjacent, None, names="other hex None is not a Hex"),
    bad(_H.neighbor, "N", names="direction 'N' is not a Direction"),
    bad(_H.neighbor, 0, names="direction 0 is not a Direction"),
    bad(hexgrid.Direction, (2, 0), names="direction (2, 0) is not a Direction"),
    bad(_H.reflected, "0101", names="centre of reflection '0101' is not a Hex"),
    bad(_H.ring, -1, names="ring radius -1 is not a whole number of 0 or more"),
    bad(_H.ring, True, names="ring radius True"),
    bad(_H.rotated, 1.5, names="rotation in sixths of a turn 1.5 is not a whole number"),
    bad(_H.rotated, 1, center=(0, 0), names="centre of rotation (0, 0) is not a Hex"),
    bad(hexgrid.Hexside, _H, hexgrid.Hex(2, 0), names="Hex(2, 0, -2) are not adjacent"),
    bad(hexgrid.Hexside, _H, "0001", names="second hex '0001' is not a Hex"),
    bad(_SIDE.other, hexgrid.Hex(5, 5), names="Hex(5, 5, -10) is not on either side"),
    bad(_SIDE.other, "0001", names="hex '0001' is not a Hex"),
    bad(hexgrid.Corner, _H, _S, hexgrid.Hex(5, 5), names="Hex(5, 5, -10) do not meet at a corner"),
    bad(hexgrid.Corner, _H, _S, None, names="third hex None is not a Hex"),
    bad(hexgrid.Trace, _H, _S, (), names="course must start with ('hex', Hex(0, 0, 0))"),
    bad(hexgrid.Trace, _H, _H, "hex", names="trace course 'hex' is not a sequence"),
    bad(hexgrid.Trace, _H, _S, (("hex", _H), ("cross", _S), ("hex", _S)), names="step 1"),
    bad(hexgrid.trace, _H, "1913", names="end hex b '1913' is not a Hex"),
    bad(hexgrid.trace, "0000", _H, names="start hex a '0000' is not a Hex"),
    bad(hexgrid.rounded_line, _H, "1", names="end hex b '1' is not a Hex"),
    bad(hexgrid.trace_steps, "x", names="trace 'x' is not a Trace"),
    bad(hexgrid.trace_steps, hexgrid.trace(_H, _S), 3, names="label 3 is not a function"),
]

# --- wbk.maps -------------------------------------------------------------------------------
_MAP = _sample_map()
_1913 = _MAP.hex("1913")
_SMALL = 'name = "x"\ncolumns = [1, 2]\nrows = [1, 2]\nlow_columns = "odd"\n'
MAPS = [
    bad(maps.HexMap, 7, (1, 2), (1, 2), names="map name 7 is not text"),
    bad(maps.HexMap, "x", "12-24", (8, 18), names="columns '12-24' is not a pair"),
    bad(maps.HexMap, "x", (12, 24.0), (8, 18), names="columns (12, 24.0) is not a pair"),
    bad(
        maps.HexMap,
        "x",
        (12, 24),
        (18, 8),
        names="rows [18, 8]: the first number is above the last",
    ),
    bad(maps.HexMap, "x", (12, 24), (8, 18), "left", names="low_columns 'left'"),
    bad(
        maps.HexMap,
        "x",
        (1, 2),
        (1, 2),
        terrain_hexes={"woods": "0101"},
        names="terrain_hexes 'woods' '0101'",
    ),
    bad(
        maps.HexMap,
        "x",
        (1, 2),
        (1, 2),
        hexside_features={"stream": [_H]},
        names="Hex(0, 0, 0) is not a Hexside",
    ),
    bad(
        maps.HexMap,
        "x",
        (1, 2),
        (1, 2),
        marker_hexes={"star": {_H}},
        names="star: hex 0000 is off the map",
    ),
    bad(
        maps.HexMap,
        "x",
        (12, 24),
        (8, 18),
        uphill_hexes={_MAP.hexside("1913/1914"): _1913},
        names="hexside 1913/1914 has an uphill hex but no slope",
    ),
    bad(_MAP.describe, "1913", names="describe: '1913' is not a Trace"),
    bad(_MAP.features, _1913, names=f"hexside {_1913!r} is not a Hexside"),
    bad(_MAP.features, "1913/1915", names="hexes 1913 and 1915 are not adjacent"),
    bad(_MAP.hexes_beside, 5, names="hexes_beside: feature 5 is not a name"),
    bad(_MAP.from_offset, 19, 13.0, names="row 13.0 is not a whole number"),
    bad(_MAP.from_offset, "19", 13, names="column '19' is not a whole number"),
    bad(maps.HexMap.from_toml, 5, names="the map 5 is not TOML text"),
    bad(maps.HexMap.from_toml, "name = ", names="not valid TOML"),
    bad(maps.HexMap.from_toml, _SMALL, source=None, names="source None is not text"),
    bad(maps.HexMap.from_toml, 'name = "x"', names="columns: missing"),
    bad(maps.HexMap.from_toml, _SMALL + "colour = 'red'", names="colour: unknown key"),
    bad(
        maps.HexMap.from_toml,
        "markers = 3\n" + _SMALL,
        names="markers: expected a table [markers], found 3",
    ),
    bad(
        maps.HexMap.from_toml,
        _SMALL + "[terrain]\nwoods = 5",
        names="[terrain] woods: 5 (expected a list",
    ),
    bad(
        maps.HexMap.from_toml,
        _SMALL + "[terrain]\nwoods = '0101'",
        names="[terrain] woods: '0101' (expected a list",
    ),
    bad(
        maps.HexMap.from_toml,
        _SMALL + "[hexsides]\nslope = ['0101-0102']",
        names="'0101-0102' is not a hexside label",
    ),
    bad(
        maps.HexMap.from_toml,
        _SMALL + "[hexsides]\nslope = ['0101/0102', '0102/0101']",
        names="0102/0101 is listed twice with opposite uphill hexes",
    ),
    bad(_MAP.hex, 1913, names="hex label 1913 is not text"),
    bad(_MAP.hex, "1999", names="hex 1999 is off the map (columns 12-24, rows 8-18)"),
    bad(_MAP.hex, _H, names="hex 0000 is off the map (columns 12-24, rows 8-18)"),
    bad(_MAP.hexside, "1913", "1915", names="hexes 1913 and 1915 are not adjacent"),
    bad(_MAP.hexside, "1913-1914", names="'1913-1914' is not a hexside label"),
    bad(_MAP.label, "1913", names="label: '1913' is not a Hex, Hexside or Corner"),
    bad(maps.HexMap.load, 42, names="map file 42 is not a file path"),
    bad(
        maps.HexMap.load,
        "/nonexistent/map.toml",
        names="/nonexistent/map.toml: cannot read the map",
    ),
    bad(_MAP.markers, None, names="marker None is not a name"),
    bad(_MAP.neighbors, _H, names="hex 0000 is off the map"),
    bad(_MAP.offset, "1913", names="offset: '1913' is not a Hex"),
    bad(_MAP.save, 42, names="map file 42 is not a file path"),
    bad(_MAP.save, "/nonexistent/map.toml", names="/nonexistent/map.toml: cannot save the map"),
    bad(_MAP.terrain, 1913, names="hex label 1913 is not text"),
    bad(_MAP.uphill, _1913, names=f"hexside {_1913!r} is not a Hexside"),
    bad(_MAP.with_feature, _1913, "stream", names=f"hexside {_1913!r} is not a Hexside"),
    bad(_MAP.with_feature, "1913/1914", "slope", names="a slope on 1913/1914 needs its uphill hex"),
    bad(_MAP.with_feature, "1913/1914", "slope", uphill="1712", names="(not 1712)"),
    bad(_MAP.with_marker, "1913", "", names="marker ''"),
    bad(_MAP.with_marker, "1913", "star", present="yes", names="present 'yes'"),
    bad(_MAP.with_marker, "1999", "star", names="hex 1999 is off the map"),
    bad(_MAP.with_name, 7, names="map name 7"),
    bad(maps.HexMap, "x", (1, 3), (1, 3), notes=None, names="map notes None"),
    bad(
        _MAP.with_feature,
        "1913/1914",
        "stream",
        present="yes",
        names="present 'yes' is not True or False",
    ),
    bad(_MAP.with_feature, "1913/1914", 3, names="feature 3 is not a name"),
    bad(_MAP.with_terrain, "1913", "woods", names="terrain for 1913 'woods' is not a collection"),
    bad(_MAP.with_terrain, "1999", ["woods"], names="hex 1999 is off the map"),
    bad(maps.example_map, "ss", names="no shipped map called 'ss'"),
    bad(maps.example_map, None, names="example map name None is not text"),
]

# --- wbk.games.ss_panzer --------------------------------------------------------------------
_M = _sample_map()
_DATA = ss_panzer.example_data()
_SEEN = ss_panzer.intervisibility(_M)
SS_PANZER = [
    bad(ss_panzer.Unit, "Pz IV", "German", 9, 2.5, names="mcf 2.5"),
    bad(ss_panzer.Unit, "Pz IV", "German", "9", 3, names="mp '9'"),
    bad(ss_panzer.Unit, "Pz IV", "German", 9, 3, motorized="no", names="motorized 'no'"),
    bad(ss_panzer.Unit, None, "German", 9, 3, names="unit name None"),
    bad(
        ss_panzer.GameData,
        _DATA.units,
        ["woods"],
        ["stream"],
        -2,
        {},
        True,
        2,
        True,
        {},
        names="base_dice -2",
    ),
    bad(
        ss_panzer.GameData,
        _DATA.units,
        "woods",
        ["stream"],
        2,
        {},
        True,
        2,
        True,
        {},
        names="mcf_terrain 'woods'",
    ),
    bad(ss_panzer.GameData, {}, [], [], 2, {}, True, 2, True, {}, names="units {}"),
    bad(
        ss_panzer.GameData,
        _DATA.units,
        [],
        [],
        2,
        {"ambush": 0},
        True,
        2,
        True,
        {},
        names="'ambush' 0",
    ),
    bad(
        ss_panzer.GameData,
        _DATA.units,
        [],
        [],
        2,
        {},
        "yes",
        2,
        True,
        {},
        names="one_always_hits 'yes'",
    ),
    bad(ss_panzer.GameData.from_toml, 42, names="game data 42"),
    bad(
        ss_panzer.GameData.from_toml,
        "[movement]\nmcf_terain = []",
        source="x.toml",
        names="x.toml: [movement] mcf_terain",
    ),
    bad(
        ss_panzer.GameData.load,
        "/nonexistent/data.toml",
        names="/nonexistent/data.toml: cannot read",
    ),
    bad(_DATA.source, "luck", names="fact 'luck'"),
    bad(ss_panzer.entry_cost, _M, "Pz V", "1610", "1609", names="unit 'Pz V'"),
    bad(ss_panzer.entry_cost, _M, 7, "1610", "1609", names="unit 7"),
    bad(ss_panzer.entry_cost, _M, "Pz IV", "1610", "1611", moved="no", names="moved 'no'"),
    bad(ss_panzer.entry_cost, _M, "Pz IV", "1610", "1611", mp_left=-1, names="MP left -1"),
    bad(ss_panzer.entry_cost, "map", "Pz IV", "1610", "1611", names="'map' is not a HexMap"),
    bad(ss_panzer.entry_cost, _M, "Pz IV", "1610", "1612", names="1610 and 1612 are not adjacent"),
    bad(ss_panzer.explain_entry, _M, "Pz IV", "1610", "1611", action="run", names="action 'run'"),
    bad(ss_panzer.explain_entry, _M, "Pz IV", "1610", "1611", data={}, names="data {}"),
    bad(ss_panzer.movement_range, _M, "Pz IV", "1610", mp=True, names="MP True"),
    bad(ss_panzer.movement_range, _M, "Pz IV", "1999", names="hex 1999 is off the map"),
    bad(ss_panzer.plan_movement, _M, "Pz IV", "1610", moved=1, names="moved 1"),
    bad(ss_panzer.route, _M, "Pz IV", "1610", "2418", names="Pz IV cannot reach 2418 from 1610"),
    bad(ss_panzer.route, _M, "Pz IV", "1610", 1609, names="hex label 1609"),
    bad(
        ss_panzer.line_of_sight,
        _M,
        "1913",
        "1716",
        blocking_terrain="woods",
        names="blocking terrain 'woods'",
    ),
    bad(
        ss_panzer.line_of_sight,
        _M,
        "1913",
        "1716",
        blocking_terrain=["forest"],
        names="'forest' is not a terrain",
    ),
    bad(
        ss_panzer.line_of_sight, _M, "1913", "1716", visibility=-1, names="visibility (in hexes) -1"
    ),
    bad(
        ss_panzer.line_of_sight,
        _M,
        "1913",
        "1716",
        visibility=2.5,
        names="visibility (in hexes) 2.5",
    ),
    bad(ss_panzer.line_of_sight, _M, "1913", "1716", edge="some", names="edge reading 'some'"),
    bad(
        ss_panzer.line_of_sight, _M, "1913", "1716", slope_hex=None, names="slope hex reading None"
    ),
    bad(
        ss_panzer.line_of_sight,
        _M,
        "1913",
        "1716",
        slope_end="grazes",
        names="slope end reading 'grazes'",
    ),
    bad(
        ss_panzer.has_los,
        _M,
        "1913",
        "1716",
        blocking_terrain=[3],
        names="blocking terrain: 3 is not a name",
    ),
    bad(ss_panzer.viewshed, _M, "1913", visibility="far", names="visibility (in hexes) 'far'"),
    bad(ss_panzer.viewshed, _M, "1999", names="hex 1999 is off the map"),
    bad(ss_panzer.intervisibility, _M, edge="some", names="edge reading 'some'"),
    bad(
        ss_panzer.intervisibility,
        _M,
        blocking_terrain=["forest"],
        names="'forest' is not a terrain",
    ),
    bad(ss_panzer.intervisibility, "map", names="'map' is not a HexMap"),
    bad(_SEEN.sees, "1913", "1999", names="hex 1999 is off the map"),
    bad(_SEEN.seen_from, 1913, names="hex label 1913"),
    bad(_SEEN.dead_ground, "19x3", names="'19x3' is not a hex label"),
    bad(_SEEN.sees_but_not_seen_from, "1913", None, names="hex label None"),
    bad(ss_panzer.fire_dice, "kill_zone", names="fire conditions 'kill_zone'"),
    bad(ss_panzer.fire_dice, ["ambush"], names="fire condition 'ambush'"),
    bad(ss_panzer.fire_dice, ["kill_zone", "kill_zone"], names="'kill_zone' is listed twice"),
    bad(ss_panzer.fire_dice, [], reading="sum", names="reading 'sum'"),
    bad(ss_panzer.hits, 2, -4, names="hit number -4"),
    bad(ss_panzer.hits, -1, 3, names="number of dice -1"),
    bad(ss_panzer.hits, 2, 3.5, names="hit number 3.5"),
    bad(ss_panzer.fire_effect, "44", 3, names="fires '44'"),
    bad(ss_panzer.fire_effect, [2, -1], 3, names="number of dice in a fire -1"),
    bad(ss_panzer.fire_effect, [2], 7, names="hit number 7"),
    bad(ss_panzer.fire_effect, [], 9, names="hit number 9"),
    bad(ss_panzer.step_loss_chance, [2], 9, names="hit number 9"),
    bad(ss_panzer.soviet_artillery_dice, "support", names="phase 'support'"),
    bad(ss_panzer.geographic_victory, _M, ["1913"], marker="stars", names="0 marked 'stars'"),
    bad(ss_panzer.geographic_victory, _M, "1913", names="Soviet-controlled hexes '1913'"),
    bad(ss_panzer.geographic_victory, _M, ["1999"], names="hex 1999 is off the map"),
    bad(ss_panzer.reading_differences, _M, "slope", names="reading 'slope'"),
    bad(
        ss_panzer.reading_differences,
        _M,
        "slope_hex_of",
        sloped_hex="firer",
        names="option 'sloped_hex' is not one of",
    ),
    bad(
        ss_panzer.line_of_sight,
        _M,
        "1808",
        "1914",
        slope_hex_of="target",
        names="reading of whose hex 'target'",
    ),
    bad(ss_panzer.viewshed, _M, "1808", slope_hex_of=None, names="reading of whose hex None"),
    bad(ss_panzer.intervisibility, _M, slope_hex_of="Firer", names="reading of whose hex 'Firer'"),
    # inputs that once took minutes
    bad(ss_panzer.hits, 10**5, 3, names="100,000 dice are over the limit of 1,000"),
    bad(ss_panzer.fire_effect, [0] * 10**6, 3, names="1,001 fires are over the limit of 1,000"),
    bad(ss_panzer.fire_effect, range(10**9), 3, names="1,001 fires are over the limit"),
    bad(ss_panzer.fire_effect, [600, 600], 3, names="1,200 dice in all the fires together"),
    bad(maps.HexMap, "vast", (1, 200), (1, 200), names="200 x 200 hexes is larger than wbk"),
    bad(maps.HexMap, "wide", (1, 80), (1, 70), names="80 x 70 hexes is larger than wbk takes"),
    bad(ss_panzer.reading_differences, _M, "slope_hex", firers="1712", names="firers '1712'"),
    bad(
        ss_panzer.reading_differences,
        _M,
        "edge",
        edge="both",
        names="'edge' is the reading compared",
    ),
]

# --- wbk.games.blitz ------------------------------------------------------------------------
BLITZ = [
    bad(blitz.fire_strength, 5, names="strengths 5"),
    bad(blitz.fire_strength, "555", names="strengths '555'"),
    bad(blitz.fire_strength, [5, "5"], names="strength '5' in strengths"),
    bad(blitz.fire_strength, [5, -1], names="strength -1 in strengths"),
    bad(blitz.fire_strength, [5, 2.5], names="strength 2.5 in strengths"),
    bad(blitz.fire_strength, [], names="no firing units"),
    bad(blitz.fire_strength, [5], fire="AT", names="fire type 'AT'"),
    bad(blitz.fire_strength, [5], engineer_strengths=2, names="engineer strengths 2"),
    bad(
        blitz.fire_strength,
        [5],
        engineer_strengths=[True],
        names="strength True in engineer strengths",
    ),
    bad(blitz.fire_strength, [5], range_hexes=-1, names="range -1"),
    bad(blitz.fire_strength, [5], range_hexes="1", names="range '1'"),
    bad(blitz.fire_strength, [5], target_non_vehicle_units=-1, names="non-vehicle units -1"),
    bad(blitz.fire_strength, [5], target_non_vehicle_units=3.0, names="non-vehicle units 3.0"),
    bad(blitz.fire_strength, [5], target_terrain="swamp", names="target terrain 'swamp'"),
    bad(blitz.fire_strength, [5], target_terrain="dug_in", names="target terrain 'dug_in'"),
    bad(blitz.fire_strength, [5], protection="foxhole", names="protection 'foxhole'"),
    bad(blitz.fire_strength, [5], protection=None, names="protection None"),
    bad(blitz.fire_strength, [5], crowded="three", names="crowded hex 'three'"),
    bad(blitz.fire_strength, [5], assault=True, names="assault combat True"),
    bad(blitz.Piece, "5", names="piece strength '5'"),
    bad(blitz.Piece, -2, names="piece strength -2"),
    bad(blitz.Piece, 5, disrupted="no", names="disrupted 'no'"),
    bad(blitz.Piece, 5, disrupted=1, names="disrupted 1"),
    bad(blitz.hits, -1, names="number of dice -1"),
    bad(blitz.hits, "6", names="number of dice '6'"),
    bad(blitz.hits, 6, armor=-1, names="armor value -1"),
    bad(blitz.hits, 6, armor=True, names="armor value True"),
    bad(blitz.hits, 10_001, names="number of dice 10,001 is over the limit of 10,000"),
    bad(blitz.unsaved_hits, 3, 13, names="leader morale 13"),
    bad(blitz.unsaved_hits, 3, True, names="leader morale True"),
    bad(blitz.unsaved_hits, -3, 8, names="hits on the hex -3"),
    bad(blitz.unsaved_hits, "3", 8, names="hits on the hex '3'"),
    bad(blitz.unsaved_hits, dice.Dist.always(-1), 8, names="hits_on_hex -1"),
    bad(blitz.damage, True, names="remaining hits True"),
    bad(blitz.damage, "3", names="remaining hits '3'"),
    bad(blitz.damage, 2.5, names="remaining hits 2.5"),
    bad(blitz.damage, -1, names="remaining hits -1"),
    bad(blitz.saving_throws, 8, 7, names="saving throw rolls 7"),
    bad(blitz.saving_throws, 8, "57", names="saving throw rolls '57'"),
    bad(blitz.saving_throws, 8, [5, 13], names="saving throw 13"),
    bad(blitz.saving_throws, 8, [5, 5.0], names="saving throw 5.0"),
    bad(blitz.saving_throws, 1, [5], names="leader morale 1"),
    bad(blitz.saving_throws, "9", [5], names="leader morale '9'"),
    bad(blitz.Leader, 13, names="leader morale 13"),
    bad(blitz.Leader, 8, "shaken", names="leader state 'shaken'"),
    bad(blitz.Leader, 8, "disrupted", in_target_hex="no", names="in_target_hex 'no'"),
    bad(blitz.saving_leader, blitz.Leader(8), names="leaders Leader(morale=8"),
    bad(blitz.saving_leader, [9], names="leader 9 in leaders"),
    bad(blitz.fire_procedure, -1, names="number of dice -1"),
    bad(blitz.fire_procedure, 6, fire="artillery", names="fire type 'artillery'"),
    bad(blitz.fire_procedure, 6, target="tank", armor=1, names="target 'tank'"),
    bad(blitz.fire_procedure, 6, target="armored_vehicle", names="armor None"),
    bad(blitz.fire_procedure, 6, target="armored_vehicle", armor=-1, names="armor value -1"),
    bad(
        blitz.fire_procedure, 6, fire="at", armor=0, names="armor 0 given for a non_vehicle target"
    ),
    bad(blitz.fire_procedure, 6, target="wagon", armor=1, names="armor 1 given for a wagon target"),
    bad(blitz.fire_procedure, 6, leader_morale=0, names="leader morale 0"),
    bad(blitz.fire_outcome, 6.0, names="number of dice 6.0"),
    bad(blitz.fire_outcome, 12_000, names="number of dice 12,000 is over the limit of 10,000"),
    bad(blitz.fire_outcome, 6, fire="at", armor=0, names="armor 0 given for a non_vehicle target"),
    bad(blitz.fire_outcome, 6, leader_morale="8", names="leader morale '8'"),
    bad(blitz.passenger_damage, "eliminated", apc_steps=1, names="apc damage 'eliminated'"),
    bad(blitz.passenger_damage, 4, apc_steps=1, names="apc damage 4"),
    bad(blitz.passenger_damage, blitz.Damage.STEP_LOSS, apc_steps=0, names="apc_steps 0"),
    bad(blitz.passenger_damage, blitz.Damage.STEP_LOSS, apc_steps=True, names="apc_steps True"),
    # the readings' keywords, and inputs that once hung
    bad(blitz.fire_strength, [5], disrupted_firers="all", names="disrupted firers 'all'"),
    bad(blitz.fire_strength, [5] * 1_001, names="1,001 strengths are over the limit of 1,000"),
    bad(blitz.fire_strength, list(range(10**6)), names="1,000,000 strengths are over the limit"),
    bad(blitz.saving_throw_bonus, -1, names="hits on the hex -1"),
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
]

# --- wbk.table ------------------------------------------------------------------------------
_TABLE = table.Table(48, 48, pieces=[table.Piece("Tiger", (40, 8)), table.Piece("KV-1", (20, 30))])
TABLE = [
    bad(table.seen_share, 1.5, names="share 1.5 is not a number from 0 to 1"),
    bad(table.seen_share, "half", names="share 'half'"),
    bad(table.Terrain, "lava", ((0, 0), (1, 0), (0, 1)), names="terrain kind 'lava'"),
    bad(table.Terrain, "rough", ((0, 0), (1, 0)), names="[(0.0, 0.0), (1.0, 0.0)]"),
    bad(table.Piece, "A", (1, "x"), names="'x' is not a number"),
    bad(table.Piece, "A", (1, 1), facing="north", names="facing of 'A' 'north'"),
    bad(table.Piece, "A", (1, 1), width=0, names="width of 'A' 0"),
    bad(table.Table, -24, 24, names="table width -24"),
    bad(
        table.Table, 24, 24, pieces=[table.Piece("A", (30, 5))], names="'A' at position [30.0, 5.0]"
    ),
    bad(table.Table, 24, 24, pieces=["A"], names="'A' is not a Piece"),
    bad(table.Table.load, "/nonexistent/t.toml", names="/nonexistent/t.toml: cannot read"),
    bad(
        table.Table.from_toml, 'size = [24, "x"]', source="t.toml", names="t.toml: size: [24, 'x']"
    ),
    bad(table.Table.from_toml, "size = [24, 24]", pieces=dict, names="pieces <class 'dict'>"),
    bad(_TABLE.piece, "Panther", names="'Panther'"),
    bad(_TABLE.footprint, "Panther", names="'Panther'"),
    bad(_TABLE.distance, "Tiger", "Panther", names="'Panther'"),
    bad(_TABLE.with_piece, "Tiger", names="'Tiger' is not a Piece"),
    bad(
        _TABLE.with_piece,
        table.Piece("Tiger", (47.9, 10)),
        names="'Tiger' at position [47.9, 10.0]",
    ),
    bad(_TABLE.hills_under, "Panther", names="'Panther'"),
    bad(_TABLE.line_of_sight, "Tiger", "Tiger", names="'Tiger' cannot look at itself"),
    bad(_TABLE.line_of_sight, "Tiger", "Panther", names="'Panther'"),
    bad(_TABLE.reach, "Tiger", -2, names="move of -2"),
    bad(_TABLE.reach, "Tiger", 6, max_pivot=270, names="max pivot 270"),
    bad(_TABLE.reach, "Tiger", 6, directions=1, names="directions 1"),
    bad(_TABLE.reach, "Tiger", 6, rough_cost="3", names="rough cost '3'"),
    bad(_TABLE.reach, "Tiger", 6, pivot="never", names="pivot reading 'never'"),
    bad(_TABLE.reaches, "Tiger", 6, names="allowances 6 is not a list of inches"),
    bad(_TABLE.reaches, "Tiger", [], names="allowances: no move to work out"),
    bad(_TABLE.reaches, "Tiger", [4, "5"], names="move of '5'"),
    bad(_TABLE.squared_distance, "Tiger", "Panther", names="'Panther'"),
    bad(_TABLE.reach("Tiger", 6).can_reach, (1, "x"), names="point 'x' is not a number"),
    bad(_TABLE.reach("Tiger", 6).ways, "here", names="point 'here'"),
    bad(_TABLE.without_piece, "Panther", names="'Panther'"),
    bad(_TABLE.save, b"t.toml", names="table file b't.toml'"),
    bad(_TABLE.save, "/", names="table file name '' should end in .toml"),
    bad(_TABLE.save, "t.txt", names="table file name 't.txt' should end in .toml"),
    bad(
        table.Table(24, 24, pieces=[table.Piece("\ud800", (4, 4))]).save,
        "/nonexistent/t.toml",
        names="'\\ud800'",
    ),
    bad(table.Table, 1e200, 1e200, names="table width 1e+200 is too large"),
    bad(table.Table, 24, 24, name=5, names="table name 5"),
    bad(_TABLE.save, "/tmp/\ud800.toml", names="is not a file name the system can spell"),
    bad(table.Table.load, "/tmp/\ud800.toml", names="is not a file name the system can spell"),
    bad(table.Terrain, "rough", ((0, 0), (1, 0), (0, 1)), blocks_sight=True, names="blocks_sight"),
    bad(_TABLE.reach, "Tiger", 6, directions=10**6, names="directions 1000000"),
    bad(_TABLE.reach, "Tiger", 6, rough_charged="leaving", names="rough terrain reading 'leaving'"),
    bad(_TABLE.line_of_sight, "Tiger", "KV-1", obstacle_sight="low", names="reading 'low'"),
]

# --- wbk.games.stalingrad -------------------------------------------------------------------
_CRT = stalingrad.example_crt()
_SU = stalingrad.Unit("1/42 Rifle", "Soviet", "infantry", 3)
_GR = stalingrad.Unit("GR", "German", "infantry", 6)
_SITUATION = stalingrad.example_situation("retreat_clear_hex")
_BLOCKS = _SITUATION.map
_CRT_ROWS = {r: ["-"] for r in range(1, 7)}
STALINGRAD = [
    bad(stalingrad.Crt, "t", "1d10", ("1",), _CRT_ROWS, {"-": "none"}, names="die: '1d10'"),
    bad(stalingrad.Crt, "t", "1d6", "1-9", _CRT_ROWS, {"-": "none"}, names="columns: '1-9'"),
    bad(
        stalingrad.Crt,
        "t",
        "1d6",
        ("1", "1-9"),
        _CRT_ROWS,
        {"-": "none"},
        names="'1-9' overlaps '1'",
    ),
    bad(stalingrad.Crt, "t", "1d6", ("1",), {1: ["-"]}, {"-": "none"}, names="roll 2 is missing"),
    bad(
        stalingrad.Crt,
        "t",
        "1d6",
        ("1",),
        _CRT_ROWS,
        {"-": "nothing"},
        names="unknown effect 'nothing'",
    ),
    bad(stalingrad.Crt, None, "1d6", ("1",), _CRT_ROWS, {"-": "none"}, names="name: None"),
    bad(
        stalingrad.Crt,
        "t",
        "1d6",
        ("1",),
        _CRT_ROWS,
        {"-": "pin, pin, eliminate 1, eliminate 2"},
        names="'pin' is given twice",
    ),
    bad(
        stalingrad.Crt,
        "t",
        "1d6",
        ("1",),
        _CRT_ROWS,
        {"-": "eliminate 1, eliminate 2"},
        names="'eliminate' is given twice",
    ),
    bad(
        stalingrad.Crt,
        "t",
        "1d6",
        ("1",),
        _CRT_ROWS,
        {"-": "none, pin"},
        names="'none' cannot be joined with other effects",
    ),
    bad(stalingrad.Crt.load, "/nonexistent/crt.toml", names="/nonexistent/crt.toml: cannot read"),
    bad(stalingrad.Crt.load, 7, names="CRT path 7"),
    bad(stalingrad.Crt.from_toml, 'name = "t"', source="c.toml", names="c.toml: die: missing"),
    bad(stalingrad.Crt.from_toml, b"name", names="b'name' is not TOML text"),
    bad(_CRT.column_for, 0, names="strength 0 is below the CRT's first column '1'"),
    bad(_CRT.column_for, "15", names="strength '15'"),
    bad(_CRT.column_for, 2.5, names="strength 2.5"),
    bad(_CRT.shift, "11-19", 1, names="column '11-19'"),
    bad(_CRT.shift, "10-19", 0.5, names="column shift 0.5"),
    bad(_CRT.on_column, "10-19", drm="+1", names="die roll modifier '+1'"),
    bad(_CRT.on_column, 4, names="column 4"),
    bad(_CRT.resolve, -3, names="strength -3"),
    bad(_CRT.resolve, 15, shift=True, names="column shift True"),
    bad(_CRT.resolve, 15, drm=None, names="die roll modifier None"),
    bad(_CRT.lookup, "12", names="strength '12'"),
    bad(_CRT.lookup, 12, shift=1.5, names="column shift 1.5"),
    bad(_CRT.lookup, 12, drm="+1", names="die roll modifier '+1'"),
    bad(_CRT.lookup, 12, shift_rule=9.67, names="shift rule 9.67"),
    bad(_CRT.effect, "Q", names="result code 'Q'"),
    bad(_CRT.effect, ["P"], names="result code ['P']"),
    bad(stalingrad.Effect, -1, names="units eliminated -1"),
    bad(stalingrad.Effect, "some", names="units eliminated 'some'"),
    bad(stalingrad.Effect, 1, pin="yes", names="pin 'yes'"),
    bad(stalingrad.Effect(1).losses, -2, names="number of units -2"),
    bad(stalingrad.Unit, "A", "Romanian", "infantry", names="side 'Romanian'"),
    bad(stalingrad.Unit, "A", "Soviet", "cavalry", names="kind 'cavalry'"),
    bad(stalingrad.Unit, "A", "Soviet", "tank", -1, names="strength -1"),
    bad(stalingrad.Unit, "A", "Soviet", "tank", 5, immobilized="yes", names="immobilized 'yes'"),
    bad(stalingrad.Unit, "", "Soviet", "tank", names="unit name ''"),
    bad(stalingrad.close_assault_bonus, [_GR], [_SU], -3, names="defence DF -3"),
    bad(stalingrad.close_assault_bonus, _GR, [_SU], 3, names="the attack Unit(name='GR'"),
    bad(stalingrad.close_assault_bonus, ["GR"], [_SU], 3, names="'GR' in the attack is not a Unit"),
    bad(stalingrad.close_assault_bonus, [], [_SU], 3, names="the attack has no units"),
    bad(
        stalingrad.close_assault_bonus,
        [stalingrad.Unit(f"A{i}", "German", "tank", 1) for i in range(1001)],
        [_SU],
        3,
        names="the attack has 1001 units: wbk answers for up to 1,000",
    ),
    bad(_SITUATION.save, "/nonexistent/.toml", names="'.toml' needs a name before .toml"),
    bad(stalingrad.close_assault_bonus, [_GR], [], 3, names="the defence has no units"),
    bad(stalingrad.close_assault_bonus, [_GR, _GR], [_SU], 3, names="unit name 'GR' is used twice"),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_GR.__class__("X", "German", "gun")],
        3,
        names="defending unit 'X' is on the attacker's side",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        crt="illustrative_1d6",
        names="crt 'illustrative_1d6'",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        not_adjacent="GR",
        names="not_adjacent 'GR'",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        not_adjacent=["Gr"],
        names="not_adjacent names 'Gr'",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        losses="cheapest",
        names="loss choice 'cheapest'",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        pinned_attack="yes",
        names="pinned attackers 'yes'",
    ),
    bad(stalingrad.close_assault_bonus, [_GR], [_SU], 3, drm=0.5, names="die roll modifier 0.5"),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        fire_without_bonus="later",
        names="reading of fire without the bonus 'later'",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        column_after_fire=1,
        names="reading of the column after the fire 1",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR.__class__("Z", "German", "tank", 0)],
        [_SU],
        3,
        names="strength 0 is below",
    ),
    bad(
        stalingrad.retreat_after_combat,
        "map",
        {"1313": [_SU]},
        "1313",
        names="'map' is not a HexMap",
    ),
    bad(stalingrad.retreat_after_combat, _BLOCKS, [_SU], "1313", names="units [Unit("),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1314",
        names="hex 1314 has no defending units",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1399",
        names="hex 1399 is off the map",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        attacked="1314",
        names="attacked hexes '1314'",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        bombarded=["9"],
        names="'9' is not a hex label",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        stacking_limit=0,
        names="stacking limit 0",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        zoc_kinds=["cavalry"],
        names="ZOC kind 'cavalry'",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        retreat_into="one",
        names="reading of the hex retreated into 'one'",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        pinned_zoc=False,
        names="reading of pinned units' ZOC False",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        given_up_to_stay="bunker",
        names="reading of the unit given up to stay 'bunker'",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU], "1314": [_SU]},
        "1313",
        names="'1/42 Rifle' is used in 1313 and 1314",
    ),
    bad(stalingrad.Situation, "s", "map", {}, names="'map' is not a HexMap"),
    bad(stalingrad.Situation, "s", _BLOCKS, {}, target="1399", names="hex 1399 is off the map"),
    bad(stalingrad.Situation, "s", _BLOCKS, {}, stacking_limit=-1, names="stacking limit -1"),
    bad(stalingrad.Situation, 5, _BLOCKS, {}, names="situation name 5"),
    bad(stalingrad.Situation.load, "/nonexistent/s.toml", names="/nonexistent/s.toml: cannot read"),
    bad(stalingrad.Situation.load, None, names="situation path None"),
    bad(
        stalingrad.Situation.from_toml, 'name = "s"', source="s.toml", names="s.toml: map: missing"
    ),
    bad(stalingrad.Situation.from_toml, 'name = "s"', folder=3, names="folder path 3"),
    bad(_SITUATION.retreat, "1999", names="hex 1999 is off the map"),
    bad(_SITUATION.save, 7, names="situation path 7"),
    bad(
        _SITUATION.save,
        "/nonexistent/s.txt",
        names="situation file name 's.txt' should end in .toml",
    ),
    bad(
        stalingrad.Situation("\ud800", _BLOCKS, {}).save,
        "/nonexistent/s.toml",
        names="situation name '\\ud800' cannot be written to a file",
    ),
    bad(
        _SITUATION.retreat,
        "1313",
        retreat_into="together",
        names="reading of the hex retreated into 'together'",
    ),
    bad(_SITUATION.retreat, "1412", zoc_kinds="tank", names="zoc_kinds 'tank'"),
    bad(stalingrad.example_crt, "published", names="no shipped CRT called 'published'"),
    bad(stalingrad.example_crt, ["x"], names="CRT name ['x']"),
    bad(stalingrad.example_situation, "kessel", names="no shipped situation called 'kessel'"),
]

# --- wbk.draw ------------------------------------------------------------------------------
PICTURES = [
    bad(draw.picture, object(), map=_sample_map(), names="wbk cannot draw a object"),
    bad(draw.picture, 3, map="a map", names="'a map' is not a wbk.maps.HexMap"),
    bad(draw.picture, 3, names="wbk cannot draw a int"),
    bad(
        draw.picture,
        hexgrid.trace(hexgrid.Hex(0, 0), hexgrid.Hex(2, 1)),
        names="a picture of Trace needs its board",
    ),
    bad(draw.on_board, object(), None, names="wbk cannot draw a object on a board"),
    bad(draw.in_figure, object(), None, names="wbk cannot draw a object in a figure"),
    bad(draw.save_picture, _sample_map(), "x.gif", names="'x.gif' should end in .png or .svg"),
    bad(draw.save_picture, _sample_map(), 42, names="picture file 42 is not a file path"),
    bad(
        draw.save_picture,
        _sample_map(),
        "/nonexistent/dir/x.png",
        names="cannot save the picture to /nonexistent/dir/x.png: there is no folder "
        "/nonexistent/dir",
    ),
    bad(draw.read_edge_case, "/nonexistent/x.png", names="/nonexistent/x.png: cannot read"),
    bad(draw.edge_case_in_png, b"GIF89a", "x.gif", names="x.gif: not a PNG picture"),
    bad(draw.picture_bytes, _sample_map(), ".gif", names="format '.gif' is not one of .png"),
    bad(draw.trace_title, _sample_map(), "1712", names="trace '1712' is not a Trace"),
    bad(draw.trace_title, "map", None, names="map 'map' is not a HexMap"),
    bad(draw.step_index, (1, 2), 5, names="step 5 is not one of the answer's 2 steps"),
    bad(draw.step_index, (1, 2), "1", names="step '1' is not a whole number"),
    bad(draw.step_title, None, "x", names="view None is not a PictureView"),
    bad(draw.clear_step, "view", names="view 'view' is not a PictureView"),
    bad(draw.show_step, None, (), 0, names="view None is not a MapView"),
]

# --- wbk.quiz -------------------------------------------------------------------------------
QUIZ = [
    bad(quiz.load, 42, names="quiz file 42 is not a file path"),
    bad(quiz.load, "/nonexistent/q.toml", names="/nonexistent/q.toml: cannot read"),
    bad(quiz.from_toml, 'game = "chess"', source="q.toml", names="q.toml: game: 'chess'"),
    bad(quiz.from_toml, 'game = "blitz"', folder=3, names="folder 3 is not a folder path"),
    bad(quiz.shipped, "chess", names="game 'chess' is not one of blitz, pz8, ss_panzer"),
    bad(quiz.kinds, "chess", names="game 'chess' is not one of blitz"),
    bad(quiz.chance_words, "half", names="chance 'half' is not a Fraction"),
    bad(quiz.list_words, 3, names="values 3 are not a list"),
    bad(quiz.yes_no_words, "maybe", names="answer 'maybe' is not yes or no (True or False)"),
    bad(quiz.random_question, "blitz", "sees", 1, names="kind 'sees' is not one of dice"),
    # what a kind says its keys take
    bad(Input, "x", None, names="problem None is not a function"),
    bad(Input.whole, "1", names="least '1' is not a whole number"),
    bad(Input.whole, 5, 2, names="most 2 is less than least 5"),
    bad(Input.number, 0, 1.5, names="most 1.5 is not a whole number"),
    bad(Input.text, "abc", names="choices 'abc' are not a list of names"),
    bad(Input.list, int, names="<class 'int'> is not an Input"),
    bad(Input.table, None, names="None is not an Input"),
    bad(Input.record, {}, names="fields {} are not a table of name = Input"),
    bad(Input.record, {"a": Input.flag()}, required=("b",), names="required ('b',)"),
    bad(Input.either, names="either needs at least one Input"),
    bad(quiz.GameQuiz, names="are not QuizKind classes"),
    bad(quiz.GameQuiz, dict, names="are not QuizKind classes"),
]


@pytest.mark.parametrize(
    "declared, names",
    [
        ({"form": "essay"}, "form 'essay' is not one of yes_no"),
        ({"what": None}, "what is not declared as text"),
        ({"keys": {"n": 3}}, "keys {'n': 3} are not a table of key = Input"),
        ({"defaults": {"m": 1}}, "default 'm' is not a key"),
    ],
)
def test_a_kind_of_question_declared_wrong_is_one_line(declared, names):
    attributes = {
        "name": "count",
        "form": "number",
        "what": "how many",
        "rule": "Toy 1.1",
        "keys": {"n": Input.whole(0, 9)},
        **declared,
    }
    with pytest.raises(WbkError, match=re.escape(names)):
        type("Count", (quiz.QuizKind,), attributes)


_QUIZ_HEAD = {
    "blitz": 'game = "blitz"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\n',
    "stalingrad": 'game = "stalingrad"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\n',
    "ss_panzer": 'game = "ss_panzer"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\n',
}


def _quiz_file(game: str, body: str, names: str):
    """A quiz file of one question 'x' that must be refused naming the file, 'x' and ``names``."""
    return pytest.param(_QUIZ_HEAD[game] + body, names, id=f"{game}: {body[:70]}")


#: Issue 29's quiz files, each once a bare Python error or a silently wrong answer
QUIZ_FILES = [
    _quiz_file(
        "blitz",
        'kind = "dice"\nstrengths = 5\nanswer = 5\n',
        'strengths: 5 is not a list (each a whole number from 0 to 100 or "5d"',
    ),
    _quiz_file(
        "blitz",
        'kind = "saves"\nmorale = 9\nrolls = 5\nanswer = 0\n',
        "rolls: 5 is not a list (each a whole number from 2 to 12)",
    ),
    _quiz_file(
        "blitz",
        'kind = "saves"\nmorale = 9\nrolls = [5, 13]\nanswer = 0\n',
        "rolls: item 2: 13 is not a whole number from 2 to 12",
    ),
    _quiz_file(
        "stalingrad",
        'kind = "retreat_hexes"\ntarget = "1313"\nanswer = []\n'
        'units = { "1313" = [{ name = "R", side = "Soviet", kind = "infantry", '
        'colour = "red" }] }\n',
        "units: 1313: item 1: colour: unknown key (expected name, side, kind, strength",
    ),
    _quiz_file(
        "stalingrad",
        'kind = "retreat_hexes"\ntarget = "1313"\nanswer = []\n'
        'units = { "1313" = [{ name = "R", side = "Soviet", kind = "infantry", '
        'pinned = "no" }] }\n',
        "units: 1313: item 1: pinned: 'no' is not true or false",
    ),
    _quiz_file(
        "blitz",
        'kind = "dice"\nstrengths = [6]\nnon_vehicle_units = "3"\nanswer = 12\n',
        "non_vehicle_units: '3' is not a whole number from 0 to 20",
    ),
    _quiz_file(
        "blitz",
        'kind = "damage_chance"\ndice = 4\ndamage = 3\nanswer = "under 10%"\n',
        "damage: 3 is not one of disrupted, demoralized, step_loss, eliminated",
    ),
    _quiz_file(
        "blitz",
        'kind = "damage_chance"\ndice = 4\ndamage = "none"\nanswer = "over 90%"\n',
        "damage: 'none' is not one of disrupted, demoralized, step_loss, eliminated",
    ),
    _quiz_file(
        "stalingrad",
        'kind = "bonus_allowed"\ndf = 3\nanswer = true\n'
        'attack = [{ name = "Pi", kind = "engineer", strength = 4, adjacent = "no" }]\n',
        "attack: item 1: adjacent: 'no' is not true or false",
    ),
    _quiz_file(
        "ss_panzer",
        'kind = "fire_dice"\nconditions = ["kill_zone"]\nanswer = [4.7]\n',
        "answer: answer [4.7] is not the dice of each fire",
    ),
    _quiz_file(
        "ss_panzer",
        'kind = "fire_dice"\nconditions = ["kill_zone"]\nanswer = 3.0\n',
        "answer: answer 3.0 is not the dice of each fire",
    ),
    _quiz_file(
        "blitz",
        'kind = "hits_chance"\ndice = 3\nhits = -1\nanswer = "over 90%"\n',
        "hits: -1 is not a whole number from 1 to 200",
    ),
    _quiz_file(
        "blitz",
        'kind = "dice"\nstrengths = [3]\nfire = "assault"\nrange = 2\nanswer = 15\n',
        "range: range 2: assault combat takes place in the hex both sides share",
    ),
    _quiz_file(
        "blitz",
        'kind = "hits_chance"\ndice = 1000000\nhits = 1\nanswer = "over 90%"\n',
        "dice: 1000000 is not a whole number from 1 to 200",
    ),
    _quiz_file(
        "ss_panzer",
        'kind = "may_enter"\nunit = "Pz IV"\nfrom = "1610"\nto = "1609"\nmp_left = 1\n'
        'moved = "yes"\nanswer = false\n',
        "moved: 'yes' is not true or false",
    ),
    _quiz_file(
        "ss_panzer",
        'kind = "sees"\nfirer = "1913"\ntarget = "1815"\nterrain = { woods = "1814" }\n'
        "answer = true\n",
        "terrain: woods: '1814' is not a list (each a name)",
    ),
    _quiz_file(
        "stalingrad",
        'kind = "crt_column"\nstrength = 1.5\nanswer = "1"\n',
        "strength: 1.5 is not a whole number from 1 to 1000",
    ),
    pytest.param(
        'game = "blitz"\n[[question]]\nid = "x"\nrule = "r"\nask = "costs $5$"\n'
        'kind = "saves"\nmorale = 9\nrolls = [5]\nanswer = 0\n',
        "ask: holds a $",
        id="blitz: a $ in the ask",
    ),
]


@pytest.mark.parametrize("text, names", QUIZ_FILES)
def test_a_bad_quiz_file_is_one_line_naming_the_file_the_question_and_the_key(text, names):
    with pytest.raises(WbkError) as e:
        quiz.from_toml(text, source="q.toml")
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"q.toml: question 'x': {names}"), message


def _toml_value(value) -> str:
    """A value written as TOML (strings, numbers, flags, arrays and inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return repr(value) if not isinstance(value, str) else '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f'"{k}" = {_toml_value(v)}' for k, v in value.items()) + " }"


def _toml_question(game: str, data: dict) -> str:
    lines = [f'game = "{game}"', "[[question]]"]
    lines += [f'"{k}" = {_toml_value(v)}' for k, v in data.items()]
    return "\n".join(lines) + "\n"


#: wrong types and values for any key: text for a number, a number for a list, yes-ish text,
#: negatives, fractions, huge numbers, empty and nested things
WRONG = ["3", 3, -1, 1.5, "no", "yes", True, 10**18, [], [1.5], ["no"], [-1], {"a": 1}, "x" * 200]


def _quiz_keys():
    import tomllib

    for game, found in games().items():
        if found.shipped_quiz is None:
            continue
        gq = quiz.game_quiz(game)
        shipped = tomllib.loads(found.shipped_quiz.read_text("utf-8"))["question"]
        for name, kind in gq.kinds.items():
            base = next(q for q in shipped if q["kind"] == name)
            for key in (*kind.keys, *gq.board_keys):
                yield pytest.param(game, base, key, id=f"{game}-{name}-{key}")


@pytest.mark.parametrize("game, base, key", list(_quiz_keys()))
def test_every_quiz_key_refuses_wrong_values_in_one_line(game, base, key):
    """Every key of every kind of question, given each wrong value: one WbkError line naming the
    file, the question and the key where the key does not take it, and never a bare Python
    error where it does (the rules then check it)."""
    gq = quiz.game_quiz(game)
    kind = gq.kinds[base["kind"]]
    check = {**gq.board_keys, **kind.keys}[key]
    for value in WRONG:
        text = _toml_question(game, {**base, "id": "x", key: value})
        try:
            quiz.from_toml(text, source="q.toml")
        except WbkError as e:
            message = str(e)
            assert "\n" not in message and message.startswith("q.toml: question 'x': "), message
            if check.problem(value) is not None:
                assert message.startswith(f"q.toml: question 'x': {key}: "), message
        else:
            assert check.problem(value) is None, f"{key} = {value!r} was taken"


BAD_CALLS = PICTURES + DICE + HEXGRID + MAPS + SS_PANZER + BLITZ + TABLE + STALINGRAD + QUIZ


@pytest.mark.parametrize("fn, args, kwargs, names", BAD_CALLS)
def test_bad_input_is_a_wbk_error_naming_the_value(fn, args, kwargs, names):
    with pytest.raises(WbkError, match=re.escape(names)):
        fn(*args, **kwargs)


def _public_callables(module) -> set[str]:
    """Qualified names of the module's public functions, classes and the classes' public methods
    that take arguments (exceptions, enums, properties and functions without parameters have
    nothing to check)."""
    found = set()
    public = getattr(module, "__all__", None) or [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_") and getattr(obj, "__module__", None) == module.__name__
    ]
    for name in public:
        obj = getattr(module, name)
        if inspect.isfunction(obj):
            if inspect.signature(obj).parameters:
                found.add(_key(obj))
        elif obj is quiz.QuizKind:
            continue  # a base class: declared wrong, a kind is one line (its own test below)
        elif inspect.isclass(obj) and not issubclass(obj, (BaseException, enum.Enum)):
            found.add(_key(obj))
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                function = (
                    member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                )
                if inspect.isfunction(function):
                    parameters = list(inspect.signature(function).parameters)
                    if len(parameters) > (0 if isinstance(member, staticmethod) else 1):
                        found.add(_key(function))
    return found


def _key(fn) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


@pytest.mark.parametrize("module", SWEPT_MODULES, ids=lambda m: m.__name__)
def test_every_public_callable_is_swept(module):
    swept = {_key(p.values[0]) for p in BAD_CALLS}
    missing = sorted(_public_callables(module) - swept)
    assert not missing, f"{module.__name__}: no bad call for {', '.join(missing)}"
