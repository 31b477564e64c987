"""Bad input to SS Panzer's public functions is a WbkError that names the bad value (the sweep of
tests/test_bad_input.py, for wbk.games.ss_panzer): every public callable has at least one bad
call here, and a quiz file's bad key is one line naming the file, the question and the key."""

from __future__ import annotations

import re

import pytest
from test_bad_input import _key, _public_callables, bad

from wbk import maps, quiz
from wbk.errors import WbkError
from wbk.games import ss_panzer

_M = maps.example_map("ss_panzer_errata_9_4")
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
        names="base_dice: -2",
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
        names="condition_dice: ambush: 0",
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
        names="one_always_hits: 'yes'",
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
    bad(ss_panzer.entry_cost, _M, "Pz IV", "1610", "1611", moved="no", names="moved: 'no'"),
    bad(ss_panzer.entry_cost, _M, "Pz IV", "1610", "1611", mp_left=-1, names="MP left: -1"),
    bad(ss_panzer.entry_cost, "map", "Pz IV", "1610", "1611", names="'map' is not a HexMap"),
    bad(ss_panzer.entry_cost, _M, "Pz IV", "1610", "1612", names="1610 and 1612 are not adjacent"),
    bad(ss_panzer.explain_entry, _M, "Pz IV", "1610", "1611", action="run", names="action: 'run'"),
    bad(ss_panzer.explain_entry, _M, "Pz IV", "1610", "1611", data={}, names="data {}"),
    bad(ss_panzer.movement_range, _M, "Pz IV", "1610", mp=True, names="MP: True"),
    bad(ss_panzer.movement_range, _M, "Pz IV", "1999", names="hex 1999 is off the map"),
    bad(ss_panzer.plan_movement, _M, "Pz IV", "1610", moved=1, names="moved: 1"),
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
        ss_panzer.line_of_sight,
        _M,
        "1913",
        "1716",
        visibility=-1,
        names="visibility (in hexes): -1",
    ),
    bad(
        ss_panzer.line_of_sight,
        _M,
        "1913",
        "1716",
        visibility=2.5,
        names="visibility (in hexes): 2.5",
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
    bad(ss_panzer.viewshed, _M, "1913", visibility="far", names="visibility (in hexes): 'far'"),
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
    bad(ss_panzer.fire_dice, "kill_zone", names="fire conditions: 'kill_zone'"),
    bad(ss_panzer.fire_dice, ["ambush"], names="fire condition 'ambush'"),
    bad(ss_panzer.fire_dice, ["kill_zone", "kill_zone"], names="'kill_zone' is listed twice"),
    bad(ss_panzer.fire_dice, [], reading="sum", names="reading 'sum'"),
    bad(ss_panzer.hits, 2, -4, names="hit number: -4"),
    bad(ss_panzer.hits, -1, 3, names="number of dice -1"),
    bad(ss_panzer.hits, 2, 3.5, names="hit number: 3.5"),
    bad(ss_panzer.fire_effect, "44", 3, names="fires '44'"),
    bad(ss_panzer.fire_effect, [2, -1], 3, names="number of dice in a fire -1"),
    bad(ss_panzer.fire_effect, [2], 7, names="hit number: 7"),
    bad(ss_panzer.fire_effect, [], 9, names="hit number: 9"),
    bad(ss_panzer.step_loss_chance, [2], 9, names="hit number: 9"),
    bad(ss_panzer.soviet_artillery_dice, "support", names="phase 'support'"),
    bad(ss_panzer.fire_outcome, [2], 3, names="fires [2] is not a FireDice"),
    bad(ss_panzer.fire_outcome, ss_panzer.fire_dice([]), 8, names="hit number: 8"),
    bad(_SEEN.ask, "views", "1913", "1712", names="question 'views' is not one of counts"),
    bad(_SEEN.ask, "dead_ground", "1999", "1712", names="hex 1999 is off the map"),
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
    bad(ss_panzer.reading_differences, _M, "slope_hex", firers="1712", names="firers '1712'"),
    bad(
        ss_panzer.reading_differences,
        _M,
        "edge",
        edge="both",
        names="'edge' is the reading compared",
    ),
]


@pytest.mark.parametrize("fn, args, kwargs, names", SS_PANZER)
def test_bad_input_is_a_wbk_error_naming_the_value(fn, args, kwargs, names):
    with pytest.raises(WbkError, match=re.escape(names)):
        fn(*args, **kwargs)


def test_every_public_callable_is_swept():
    swept = {_key(p.values[0]) for p in SS_PANZER}
    missing = sorted(_public_callables(ss_panzer) - swept)
    assert not missing, f"no bad call for {', '.join(missing)}"


def _quiz_file(body: str, names: str):
    """A quiz file of one question 'x' that must be refused naming the file, 'x' and ``names``."""
    head = 'game = "ss_panzer"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\n'
    return pytest.param(head + body, names, id=body[:70])


#: Issue 29's quiz files, each once a bare Python error or a silently wrong answer
QUIZ_FILES = [
    _quiz_file(
        'kind = "fire_dice"\nconditions = ["kill_zone"]\nanswer = [4.7]\n',
        "answer: answer [4.7] is not the dice of each fire",
    ),
    _quiz_file(
        'kind = "fire_dice"\nconditions = ["kill_zone"]\nanswer = 3.0\n',
        "answer: answer 3.0 is not the dice of each fire",
    ),
    _quiz_file(
        'kind = "may_enter"\nunit = "Pz IV"\nfrom = "1610"\nto = "1609"\nmp_left = 1\n'
        'moved = "yes"\nanswer = false\n',
        "moved: 'yes' is not true or false",
    ),
    _quiz_file(
        'kind = "sees"\nfirer = "1913"\ntarget = "1815"\nterrain = { woods = "1814" }\n'
        "answer = true\n",
        "terrain: woods: '1814' is not a list (each a name)",
    ),
]


@pytest.mark.parametrize("text, names", QUIZ_FILES)
def test_a_bad_quiz_file_is_one_line_naming_the_file_the_question_and_the_key(text, names):
    with pytest.raises(WbkError) as e:
        quiz.from_toml(text, source="q.toml")
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"q.toml: question 'x': {names}"), message
