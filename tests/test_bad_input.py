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
from types import SimpleNamespace

import pytest
from matplotlib.figure import Figure

from wbk import dice, draw, hexgrid, maps, quiz, table
from wbk.checks import Input
from wbk.errors import WbkError
from wbk.games import games

SWEPT_MODULES = [draw.pictures, dice, hexgrid, maps, table, quiz]


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
    bad(maps.HexMap, "vast", (1, 200), (1, 200), names="200 x 200 hexes is larger than wbk"),
    bad(maps.HexMap, "wide", (1, 80), (1, 70), names="80 x 70 hexes is larger than wbk takes"),
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
    bad(draw.pictures.add_reason, "figure", None, names="figure 'figure' is not a matplotlib"),
    bad(draw.pictures.add_reason, Figure(), None, 3, names="verdict 3 is not text"),
    bad(draw.show_step, None, (), 0, names="view None is not a MapView"),
    bad(
        draw.deciding_step,
        SimpleNamespace(deciding_step="the last one"),
        names="deciding_step 'the last one' is not a wbk.explain.Step",
    ),
    bad(draw.verdict_of, object(), names="wbk cannot draw a object"),
]

# --- wbk.quiz -------------------------------------------------------------------------------
QUIZ = [
    bad(quiz.load, 42, names="quiz file 42 is not a file path"),
    bad(quiz.load, "/nonexistent/q.toml", names="/nonexistent/q.toml: cannot read"),
    bad(quiz.from_toml, 'game = "chess"', source="q.toml", names="q.toml: game: 'chess'"),
    bad(quiz.from_toml, f'game = "{min(games())}"', folder=3, names="folder 3 is not a folder"),
    bad(quiz.shipped, "chess", names=f"game 'chess' is not one of {', '.join(games())}"),
    bad(quiz.kinds, "chess", names=f"game 'chess' is not one of {', '.join(games())}"),
    bad(quiz.chance_words, "half", names="chance 'half' is not a Fraction"),
    bad(quiz.list_words, 3, names="values 3 are not a list"),
    bad(quiz.yes_no_words, "maybe", names="answer 'maybe' is not yes or no (True or False)"),
    bad(quiz.random_question, "chess", "sees", 1, names="game 'chess' is not one of"),
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


BAD_CALLS = PICTURES + DICE + HEXGRID + MAPS + TABLE + QUIZ


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
