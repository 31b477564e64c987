"""Bad input to Streets of Stalingrad's rules and quiz files: a WbkError that names the bad value
(the sweep and its helpers are test_bad_input's: every public callable of the rule set has a
bad call here)."""

from __future__ import annotations

import re

import pytest
from test_bad_input import _key, _public_callables, bad

from wbk import quiz
from wbk.errors import WbkError
from wbk.games import stalingrad

_CRT = stalingrad.example_crt()
_SU = stalingrad.Unit("1/42 Rifle", "Soviet", "infantry", 3)
_GR = stalingrad.Unit("GR", "German", "infantry", 6)
_SITUATION = stalingrad.example_situation("retreat_clear_hex")
_BLOCKS = _SITUATION.map
_CRT_ROWS = {r: ["-"] for r in range(1, 7)}
STALINGRAD = [
    bad(stalingrad.in_words, "1/2", names="'1/2' is not a Dist"),
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
    bad(_CRT.column_for, "15", names="strength: '15'"),
    bad(_CRT.column_for, 2.5, names="strength: 2.5"),
    bad(_CRT.shift, "11-19", 1, names="column '11-19'"),
    bad(_CRT.shift, "10-19", 0.5, names="column shift 0.5"),
    bad(_CRT.on_column, "10-19", drm="+1", names="die roll modifier '+1'"),
    bad(_CRT.on_column, 4, names="column 4"),
    bad(_CRT.resolve, -3, names="strength: -3"),
    bad(_CRT.resolve, 15, shift=True, names="column shift True"),
    bad(_CRT.resolve, 15, drm=None, names="die roll modifier None"),
    bad(_CRT.lookup, "12", names="strength: '12'"),
    bad(_CRT.lookup, 12, shift=1.5, names="column shift 1.5"),
    bad(_CRT.lookup, 12, drm="+1", names="die roll modifier '+1'"),
    bad(_CRT.lookup, 12, shift_rule=9.67, names="shift rule 9.67"),
    bad(_CRT.effect, "Q", names="result code 'Q'"),
    bad(_CRT.effect, ["P"], names="result code ['P']"),
    bad(stalingrad.Effect, -1, names="units eliminated -1"),
    bad(stalingrad.Effect, "some", names="units eliminated 'some'"),
    bad(stalingrad.Effect, 1, pin="yes", names="pin 'yes'"),
    bad(stalingrad.Effect(1).losses, -2, names="number of units -2"),
    bad(stalingrad.Unit, "A", "Romanian", "infantry", names="side: 'Romanian'"),
    bad(stalingrad.Unit, "A", "Soviet", "cavalry", names="kind: 'cavalry'"),
    bad(stalingrad.Unit, "A", "Soviet", "tank", -1, names="strength: -1"),
    bad(stalingrad.Unit, "A", "Soviet", "tank", 5, immobilized="yes", names="immobilized: 'yes'"),
    bad(stalingrad.Unit, "", "Soviet", "tank", names="unit name ''"),
    bad(stalingrad.close_assault_bonus, [_GR], [_SU], -3, names="defence DF: -3"),
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
        names="reading losses 'cheapest'",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        pinned_attack="yes",
        names="reading pinned_attack 'yes'",
    ),
    bad(stalingrad.close_assault_bonus, [_GR], [_SU], 3, drm=0.5, names="die roll modifier 0.5"),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        fire_without_bonus="later",
        names="reading fire_without_bonus 'later'",
    ),
    bad(
        stalingrad.close_assault_bonus,
        [_GR],
        [_SU],
        3,
        column_after_fire=1,
        names="reading column_after_fire 1",
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
        names="stacking limit: 0",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        zoc_kinds=["cavalry"],
        names="ZOC kind: 'cavalry'",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        retreat_into="one",
        names="reading retreat_into 'one'",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        pinned_zoc=False,
        names="reading pinned_zoc False",
    ),
    bad(
        stalingrad.retreat_after_combat,
        _BLOCKS,
        {"1313": [_SU]},
        "1313",
        given_up_to_stay="bunker",
        names="reading given_up_to_stay 'bunker'",
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
    bad(stalingrad.Situation, "s", _BLOCKS, {}, stacking_limit=-1, names="stacking limit: -1"),
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
        names="reading retreat_into 'together'",
    ),
    bad(_SITUATION.retreat, "1412", zoc_kinds="tank", names="zoc_kinds 'tank'"),
    bad(
        stalingrad.example_crt,
        "published",
        names="CRT name: 'published' is not one of the CRTs wbk ships",
    ),
    bad(stalingrad.example_crt, ["x"], names="CRT name: ['x']"),
    bad(
        stalingrad.example_situation,
        "kessel",
        names="situation name: 'kessel' is not one of the situations wbk ships",
    ),
]


@pytest.mark.parametrize("fn, args, kwargs, names", STALINGRAD)
def test_bad_input_is_a_wbk_error_naming_the_value(fn, args, kwargs, names):
    with pytest.raises(WbkError, match=re.escape(names)):
        fn(*args, **kwargs)


def test_every_public_callable_is_swept():
    swept = {_key(p.values[0]) for p in STALINGRAD}
    missing = sorted(_public_callables(stalingrad) - swept)
    assert not missing, f"no bad call for {', '.join(missing)}"


_HEAD = 'game = "stalingrad"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\n'

#: Issue 29's quiz files, each once a bare Python error or a silently wrong answer
QUIZ_FILES = [
    pytest.param(
        'kind = "retreat_hexes"\ntarget = "1313"\nanswer = []\n'
        'units = { "1313" = [{ name = "R", side = "Soviet", kind = "infantry", '
        'colour = "red" }] }\n',
        "units: 1313: item 1: colour: unknown key (expected name, side, kind, strength",
    ),
    pytest.param(
        'kind = "retreat_hexes"\ntarget = "1313"\nanswer = []\n'
        'units = { "1313" = [{ name = "R", side = "Soviet", kind = "infantry", '
        'pinned = "no" }] }\n',
        "units: 1313: item 1: pinned: 'no' is not true or false",
    ),
    pytest.param(
        'kind = "bonus_allowed"\ndf = 3\nanswer = true\n'
        'attack = [{ name = "Pi", kind = "engineer", strength = 4, adjacent = "no" }]\n',
        "attack: item 1: adjacent: 'no' is not true or false",
    ),
    pytest.param(
        'kind = "crt_column"\nstrength = 1.5\nanswer = "1"\n',
        "strength: 1.5 is not a whole number from 0 to 1000000",
    ),
]


@pytest.mark.parametrize("body, names", QUIZ_FILES)
def test_a_bad_quiz_file_is_one_line_naming_the_file_the_question_and_the_key(body, names):
    with pytest.raises(WbkError) as e:
        quiz.from_toml(_HEAD + body, source="q.toml")
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"q.toml: question 'x': {names}"), message
