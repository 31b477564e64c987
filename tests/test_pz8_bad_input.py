"""Bad input to any public function of Pz 8 is a WbkError that names the bad value (as
test_bad_input sweeps wbk's shared modules): every public callable of ``wbk.games.pz8`` has a
bad call here, and a quiz file's bad Pz 8 question is one line naming the file, the question
and the key."""

from __future__ import annotations

import math
import re

import pytest
from test_bad_input import _key, _public_callables, bad

from wbk import draw, quiz, table
from wbk.errors import WbkError
from wbk.games import pz8

_TABLE = pz8.example_table()
_GENERIC = table.Table(24, 24, pieces=[table.Piece("A", (4, 4)), table.Piece("B", (10, 10))])
BAD_CALLS = [
    bad(pz8.Tank, "T-34", (5, 5), gun="76mm", names="gun: '76mm'"),
    bad(pz8.Tank, "T-34", (5, 5), tank_class="super-heavy", names="class: 'super-heavy'"),
    bad(pz8.Tank, "T-34", (5, 5), crew="green", names="crew: 'green'"),
    bad(pz8.Tank, "T-34", (5, 5), is_hq="yes", names="hq: 'yes'"),
    bad(pz8.Movement, -1, False, names="movement inches -1"),
    bad(pz8.Movement, 6, "no", names="turn_passes: 'no'"),
    bad(pz8.AttackOutcome, 4, True, False, False, names="hits 4"),
    bad(pz8.AttackOutcome, 0, True, False, False, names="hits 0"),
    bad(pz8.movement, "super-heavy", names="class: 'super-heavy'"),
    bad(pz8.attack, "huge", "medium", names="gun: 'huge'"),
    bad(pz8.attack, "short", "tiny", names="target class: 'tiny'"),
    bad(pz8.attack, "short", "medium", cover="yes", names="cover: 'yes'"),
    bad(pz8.attack, "short", "medium", natural_six="auto", names="natural 6 'auto'"),
    bad(pz8.attack_procedure, "long", "heavy", veteran=1, names="veteran: 1"),
    bad(pz8.attack_chances, "76mm", "heavy", names="gun: '76mm'"),
    bad(pz8.shot, _TABLE, "Tiger", "Panther", names="'Panther'"),
    bad(pz8.shot, "table", "Tiger", "KV-1", names="'table' is not a Table"),
    bad(pz8.shot, _GENERIC, "A", "B", names="'A' is not a Pz 8 tank"),
    bad(pz8.shot, _TABLE, "Tiger", "KV-1", cover_reading="half", names="cover reading 'half'"),
    bad(pz8.movement_reach, _TABLE, "Panther", names="'Panther'"),
    bad(pz8.movement_reach, _TABLE, "Tiger", directions=0, names="directions 0"),
    bad(pz8.platoon_movement, _TABLE, "British", names="side 'British'"),
    bad(pz8.rally_chance, veteran="yes", names="veteran: 'yes'"),
    bad(pz8.keep_initiative, ["move", "charge"], names="activation 'charge'"),
    bad(pz8.keep_initiative, "move", names="activations 'move'"),
    bad(pz8.duel, _TABLE.piece("Tiger"), _TABLE.piece("T-60"), 10, names="'T-60' is destroyed"),
    bad(pz8.duel, _TABLE.piece("Tiger"), _TABLE.piece("KV-1"), -3, names="range -3"),
    bad(pz8.duel, _TABLE.piece("Tiger"), "KV-1", 10, names="'KV-1' is not a Tank"),
    bad(
        pz8.duel,
        _TABLE.piece("Tiger"),
        _TABLE.piece("KV-1"),
        10,
        turns="igo",
        names="duel turns 'igo'",
    ),
    bad(pz8.load_table, "/nonexistent/pz8.toml", names="/nonexistent/pz8.toml: cannot read"),
    bad(pz8.Tank, "T-34", (5, 5), platoon=1, names="platoon 1 of 'T-34'"),
    bad(pz8.movement_reach, _TABLE, "Tiger", directions=10**6, names="directions 1000000"),
    bad(pz8.movement_reach, _TABLE, "Tiger", rough_terrain="all", names="reading 'all'"),
    bad(pz8.movement_reach, _TABLE, "Tiger", pivot="later", names="pivot reading 'later'"),
    bad(
        pz8.movement_reach(_TABLE, "Tiger", directions=3).ways,
        (1, math.inf),
        names="point: item 2: inf",
    ),
    bad(pz8.gun_for_calibre, 76.2, calibre_gaps="rounded", names="classes 'rounded'"),
    bad(
        pz8.movement_reach(_TABLE, "Tiger", directions=3).chance_to_reach,
        (math.nan, math.nan),
        names="point: item 1: nan",
    ),
    bad(pz8.shot, _TABLE, "Tiger", "KV-1", obstacle_sight="some", names="reading 'some'"),
    bad(pz8.platoon_movement, _TABLE, "Soviet", platoon="2", names="platoon '2'"),
    bad(pz8.platoon_movement, _TABLE, "Soviet", shaken_hq="x", names="shaken HQ reading 'x'"),
    bad(pz8.platoon_movement, _TABLE, "Soviet", shaken_member=1, names="member reading 1"),
    bad(pz8.platoons, _TABLE, "British", names="side 'British'"),
    bad(pz8.platoon_warnings, "table", names="'table' is not a Table"),
    bad(pz8.rally, _TABLE, "Panther", names="'Panther'"),
    bad(pz8.gun_for_calibre, "6 pounder", names="calibre '6 pounder'"),
    bad(pz8.gun_for_calibre, math.nan, names="calibre: nan"),
    bad(pz8.gun_for_calibre, "big", names="calibre 'big'"),
    bad(pz8.keep_initiative, ["move"] * 1001, names="1001 activations"),
    # drawn in labels and legends: a platoon or side as long as a paste would cost seconds to draw
    bad(pz8.Tank, "a", (1, 1), platoon="1, " * 100_000, names="platoon of 'a' '1, 1, 1"),
    bad(pz8.Tank, "a", (1, 1), side="S" * 81, names="81 characters long: wbk takes 80 at most"),
    bad(pz8.duel, _TABLE.piece("Tiger"), _TABLE.piece("Tiger"), 10, names="called 'Tiger'"),
    bad(pz8.duel, _TABLE.piece("Tiger"), _TABLE.piece("KV-1"), 0, names="range 0"),
    bad(
        draw.picture,
        pz8.duel(_TABLE.piece("Tiger"), _TABLE.piece("KV-1"), 10),
        step=9,
        names="step 9 is not one of the answer's 7 steps",
    ),
    bad(
        draw.picture,
        pz8.platoon_movement(_TABLE, "German"),
        table=_TABLE,
        step=-5,
        names="step -5 is not one of the answer's 4 steps",
    ),
    bad(draw.picture, pz8.rally(_TABLE, "KV-1"), table=_TABLE, step="1", names="step '1'"),
    bad(pz8.attack_table, cover="yes", names="cover: 'yes'"),
    bad(pz8.attack_table, natural_six="auto", names="natural 6 'auto'"),
    bad(pz8.duel_curve, "duel", names="'duel' is not a Duel"),
]


@pytest.mark.parametrize("fn, args, kwargs, names", BAD_CALLS)
def test_bad_input_is_a_wbk_error_naming_the_value(fn, args, kwargs, names):
    with pytest.raises(WbkError, match=re.escape(names)):
        fn(*args, **kwargs)


def test_every_public_callable_is_swept():
    swept = {_key(p.values[0]) for p in BAD_CALLS}
    missing = sorted(_public_callables(pz8) - swept)
    assert not missing, f"wbk.games.pz8: no bad call for {', '.join(missing)}"


_QUIZ_HEAD = 'game = "pz8"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\n'


@pytest.mark.parametrize(
    "body, names",
    [
        (
            'kind = "targets"\nfirer = "Tiger"\nmoves = { Tiger = ["14", 20] }\nanswer = []\n',
            "moves: Tiger: item 1: '14' is not a number from -1000 to 1000",
        ),
        (
            'kind = "platoon"\nside = "Soviet"\nshaken_tanks = "KV-1"\nanswer = true\n',
            "shaken_tanks: 'KV-1' is not a list (each a name)",
        ),
        ('kind = "rally"\nveteran = 1\nanswer = "30-50%"\n', "veteran: 1 is not true or false"),
        (
            'kind = "destroy_chance"\ncalibre = [75]\ntarget_class = "heavy"\nanswer = "10-30%"\n',
            "calibre: [75] is not a number from 1 to 1000 or a name",
        ),
    ],
)
def test_a_bad_quiz_file_is_one_line_naming_the_file_the_question_and_the_key(body, names):
    with pytest.raises(WbkError) as e:
        quiz.from_toml(_QUIZ_HEAD + body, source="q.toml")
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"q.toml: question 'x': {names}"), message
