"""SS Panzer's quiz (the checks of tests/test_quiz.py, for this rule set): its file refused when
an answer or a key is wrong, every kind answering as the rules do, readings compared and settled
by the text, drawn questions, a question's own map file, and the words of every shipped and
drawn question agreeing with its situation."""

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from test_quiz import HEX, SIDE

from wbk import quiz
from wbk.errors import WbkError
from wbk.games import game
from wbk.games.ss_panzer.data import example_data


def _text() -> str:
    return game("ss_panzer").shipped_quiz.read_text("utf-8")


def test_a_file_with_one_answer_changed_is_refused_naming_the_question(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text(_text().replace("answer = 6\n", "answer = 5\n"), encoding="utf-8")
    with pytest.raises(WbkError) as e:
        quiz.load(path)
    assert str(e.value) == (
        f"{path}: question 'stream-into-woods': answer: the file says 5, but wbk works out 6 MP"
    )


HEADER = 'game = "ss_panzer"\n[[question]]\n'
SEES = 'kind = "sees"\nrule = "r"\nask = "a"\nfirer = "1712"\n'


@pytest.mark.parametrize(
    "body, message",
    [
        (
            SEES + 'target = "1913"\nanswer = true\n',
            "q.toml: question 1: id: missing",
        ),
        (
            'id = "x"\nkind = "seez"\nrule = "r"\nask = "a"\nanswer = true\n',
            "q.toml: question 'x': kind: 'seez' is not one of sees, reach",
        ),
        (
            'id = "x"\nkind = "sees"\nrule = "r"\nask = "a"\nfirer = "1712"\nanswer = true\n',
            "q.toml: question 'x': target: missing",
        ),
        (
            'id = "x"\nkind = "sees"\nrule = "r"\nask = "a"\nfirer = "1712"\ntarget = "1913"\n'
            'colour = "red"\nanswer = true\n',
            "q.toml: question 'x': colour: unknown key for a sees question",
        ),
        (
            'id = "x"\nkind = "sees"\nrule = "r"\nask = "a"\nfirer = "1712"\ntarget = "1999"\n'
            "answer = true\n",
            "q.toml: question 'x': target: hex 1999 is off the map",
        ),
        (
            'id = "x"\nkind = "sees"\nrule = "r"\nask = "a"\nfirer = "1712"\ntarget = "1913"\n'
            'answer = "maybe"\n',
            "q.toml: question 'x': answer: answer 'maybe' is not yes or no",
        ),
        (
            'id = "x"\nkind = "sees"\nrule = "r"\nask = "a"\nfirer = "1712"\ntarget = "1913"\n'
            'readings = { slope_hex = "steep" }\nanswer = true\n',
            "q.toml: question 'x': readings: reading slope_hex 'steep' is not one of",
        ),
        (
            'id = "x"\nkind = "entry_cost"\nrule = "r"\nask = "a"\nunit = "Panther"\n'
            'from = "1610"\nto = "1609"\nanswer = 6\n',
            "q.toml: question 'x': unit: unit 'Panther' is not in the game data",
        ),
        (
            'id = "x"\nkind = "reach"\nrule = "r"\nask = "a"\nunit = "Pz IV"\nstart = "1610"\n'
            'mp = 1\nanswer = ["1509", "2999"]\n',
            "q.toml: question 'x': answer: hex 2999 is off the map",
        ),
    ],
)
def test_bad_files_name_the_file_the_question_and_the_key(body, message):
    with pytest.raises(WbkError, match="^" + message.replace("(", r"\(")):
        quiz.from_toml(HEADER + body, source="q.toml")


def test_ids_must_be_unique():
    one = 'id = "x"\n' + SEES + 'target = "1913"\nanswer = true\n'
    with pytest.raises(WbkError, match="question 'x': id: used twice"):
        quiz.from_toml(HEADER + one + "[[question]]\n" + one, source="q.toml")


EXPECTED = {
    ("slope-example-2"): False,
    ("both-behind-slopes"): True,
    ("stream-into-woods"): 6,
    ("trench-soviet"): 1,
    ("one-hex-rule"): frozenset({"1509", "1510", "1609", "1611", "1709", "1710"}),
    ("one-hex-rule-after-moving"): False,
    ("kill-zone-and-zoc"): (4,),
    ("step-loss-chance"): Fraction(11, 27),
}


@pytest.mark.parametrize("qid", list(EXPECTED))
def test_questions_answer_as_the_rules_do(qid):
    assert quiz.shipped("ss_panzer").question(qid).answer().value == EXPECTED[qid]


@pytest.mark.parametrize("qid", [q.id for q in quiz.shipped("ss_panzer").questions])
def test_the_working_cites_each_source_once(qid):
    """Issue 40: "illustrative game data; illustrative game data, but for the Pz IV's MCF of 3"
    said the data twice."""
    for step in quiz.shipped("ss_panzer").question(qid).answer().steps:
        cited = step.rule.split("; ")
        assert not any(a != b and b.startswith(a) for a in cited for b in cited), step.rule


@pytest.mark.parametrize(
    "qid, right, wrong",
    [
        ("slope-example-1", "yes", "no"),
        ("stream-into-woods", "6", 3),
        ("one-hex-rule", "1709, 1509 1510 1609 1611 1710", ["1509", "1510"]),
        ("kill-zone-and-zoc", 4, [3, 4]),
    ],
)
def test_is_right(qid, right, wrong):
    q = quiz.shipped("ss_panzer").question(qid)
    assert q.is_right(right) and not q.is_right(wrong)


def test_bad_dice_from_a_learner_name_the_answer():
    fire = quiz.shipped("ss_panzer").question("kill-zone-and-zoc")
    for given in ([4.7], 4.0, [True], [-4], "9" * 5000):  # never truncated, never a bare error
        with pytest.raises(WbkError, match="is not the dice of each fire"):
            fire.is_right(given)


# --- readings --------------------------------------------------------------------------------


def test_a_reading_that_changes_the_answer_says_so():
    q = quiz.shipped("ss_panzer").question("beyond-the-hill")
    assert not q.answer().value
    assert q.answer(slope_hex="hexsides_only").value is True
    assert q.is_right("yes", slope_hex="hexsides_only") and not q.is_right("yes")
    notes = q.reading_notes()
    assert notes == [
        "Read as 'only slope hexsides block', the answer changes: yes: clear.",
        "Read as 'the slope hex holds a line whenever the firer's hex has no slope hexside', "
        "the answer is the same.",
        "Read as 'a line through the end of a slope hexside only touches it', the answer is the "
        "same.",
    ]


def test_readings_asked_under_the_other_value():
    q = quiz.shipped("ss_panzer").question("slope-end")  # asked with slope_hex=hexsides_only
    assert q.readings == {"slope_hex": "hexsides_only"}
    assert q.answer().value is False and q.answer(slope_end="touches").value is True
    assert any(
        "Read as 'a line may enter a hex with slope symbols but not see beyond it', the answer "
        "is the same" in n
        for n in q.reading_notes()
    )


def test_the_edge_reading_changes_one_shipped_answer():
    q = quiz.shipped("ss_panzer").question("wood-beside-the-line")
    assert q.answer().value != q.answer(edge="either").value
    said = quiz.reading("ss_panzer", "edge").sentence("either")
    assert any(n.startswith(f"Read as '{said}', the answer changes") for n in q.reading_notes())
    assert "edge=" not in " ".join(q.reading_notes())  # words, not keys


def test_readings_that_cannot_matter_are_not_offered():
    assert quiz.shipped("ss_panzer").question("slope-example-1").reading_options == {
        "slope_hex": ("enter_not_beyond", "hexsides_only"),
        "slope_hex_of": ("both", "firer"),
        "slope_end": ("crosses", "touches"),
    }
    with pytest.raises(WbkError, match="reading 'edge' is not one of its readings"):
        quiz.shipped("ss_panzer").question("slope-example-1").answer(edge="either")


def test_the_text_settles_how_the_kill_zone_and_zoc_conditions_combine():
    """Issue 29: errata 9.5's own example is this question (a Kill Zone unit firing at a unit
    entering a ZOC: 4 dice, not 5), so the question says the text settles it, offers no other
    reading, and refuses to be asked under one."""
    q = quiz.shipped("ss_panzer").question("kill-zone-and-zoc")
    assert q.reading_options == {} and list(q.settled_readings) == ["reading"]
    assert q.reading_notes() == []  # no reading offered: a panel says nothing "changes"
    (note,) = q.settled_notes()
    assert note.startswith("The text settles 'several conditions' here: errata 9.5 says")
    assert "with 4 dice, not 5" in note and "changes" not in note
    assert note.endswith(
        "the answer would be 3 dice and 4 dice (2 fires), which the text rules out."
    )
    assert q.answer(reading="largest").value == (4,)
    with pytest.raises(WbkError, match="reading 'reading' is settled by the text here: errata"):
        q.answer(reading="separate")
    for seed in range(40):  # a drawn fire: several conditions settled, one alone nothing to read
        drawn = quiz.random_question("ss_panzer", "fire_dice", seed)
        assert drawn.reading_options == {}
        assert bool(drawn.settled_readings) == (len(drawn.settings["conditions"]) > 1)


# --- drawn questions and files ---------------------------------------------------------------


def test_random_yes_no_questions_are_not_all_yes():
    answers = {quiz.random_question("ss_panzer", "sees", seed).answer().value for seed in range(8)}
    assert answers == {True, False}


def test_a_quiz_may_name_its_own_map_and_table_files(tmp_path):
    from wbk.maps import example_map

    example_map("ss_panzer_errata_9_4").save(tmp_path / "hill.toml")
    (tmp_path / "q.toml").write_text(
        HEADER + 'id = "x"\nkind = "sees"\nrule = "r"\nask = "a"\nmap = "hill.toml"\n'
        'firer = "1712"\ntarget = "2014"\nanswer = false\n',
        encoding="utf-8",
    )
    assert quiz.load(tmp_path / "q.toml").questions[0].answer().value is False
    with pytest.raises(WbkError, match=r"question 'x': map: .*nowhere\.toml: cannot read"):
        quiz.from_toml(
            HEADER + 'id = "x"\nkind = "sees"\nrule = "r"\nask = "a"\nmap = "nowhere.toml"\n'
            'firer = "1712"\ntarget = "2014"\nanswer = false\n',
            source="q.toml",
            folder=Path(tmp_path),
        )


# --- the words agree with the situation (as test_quiz checks every rule set's) ----------------


def _labels(m, items) -> set[str]:
    return {m.label(h) for item in items for h in getattr(item, "hexes", (item,))}


def _sight(q):
    m, r = q.board, q.answer().result
    course = r.trace.course
    hexes = {m.label(i) for k, i in course if k == "hex"}
    sides = {frozenset(_labels(m, [i])) for k, i in course if k in ("cross", "along")}
    corners = [frozenset(_labels(m, [i])) for k, i in course if k == "corner"]
    return m, r, hexes, sides, corners


def _on_the_line(q, label: str) -> bool:
    """Whether the centre of hex ``label`` lies on the line of sight (exactly: hex centres are a
    linear image of their axial coordinates)."""
    m = q.board
    a, b, x = m.hex(q.setting("firer")), m.hex(q.setting("target")), m.hex(label)
    dq, dr, xq, xr = b.q - a.q, b.r - a.r, x.q - a.q, x.r - a.r
    return xq * dr == xr * dq and 0 <= xq * dq + xr * dr <= dq * dq + dr * dr


def _side_named(q, a: str, b: str) -> bool:
    _, _, _, sides, corners = _sight(q)
    pair = frozenset((a, b))
    return pair in sides or any(pair <= c for c in corners)


SEES_CLAIMS = [
    # every hex the words name is on the line, beside it, or set up by the question
    (
        HEX,
        lambda q, g: (
            g[0] in _sight(q)[2]
            or any(g[0] in s for s in _sight(q)[3])
            or any(g[0] in c for c in _sight(q)[4])
            or any(g[0] in hexes for hexes in (q.setting("terrain") or {}).values())
        ),
    ),
    (rf"(?:crosses|along|through the end of)[^.]*?{SIDE}", lambda q, g: _side_named(q, *g)),
    (
        r"crosses none of (?:its|\d{4}'s) slope hexsides",
        lambda q, g: not any(s in _slopes(q) for s in _sight(q)[3]),
    ),
    (rf"through the (?:centre|middle) of {HEX}", lambda q, g: _on_the_line(q, g[0])),
    (rf"clips the top of {HEX}", lambda q, g: not _on_the_line(q, g[0])),
    (
        r"runs (?:exactly )?along",
        lambda q, g: any(k == "along" for k, _ in _sight(q)[1].trace.course),
    ),
    (rf"{HEX} has no slope hexside", lambda q, g: not _has_slope(q, g[0])),
    (rf"{HEX} shares a slope hexside with {HEX}", lambda q, g: frozenset(g) in _slopes(q)),
    (
        r"Both hexes have a slope hexside",
        lambda q, g: all(_has_slope(q, q.setting(k)) for k in ("firer", "target")),
    ),
]


def _slopes(q) -> set[frozenset[str]]:
    m = q.board
    return {frozenset(_labels(m, [side])) for side in m.uphill_hexes}


def _has_slope(q, label: str) -> bool:
    return any(label in side for side in _slopes(q))


def _moved(q) -> bool:
    return q.setting("moved") is True


MOVE_CLAIMS = [
    (r"has not moved|not having moved", lambda q, g: not _moved(q)),
    (r"(?:has )?(?:already )?moved (?:already|a hex)|having moved", lambda q, g: _moved(q)),
    (
        r"(\d+) MP (?:to spend|left)\b",
        lambda q, g: int(g[0]) in (q.setting("mp"), q.setting("mp_left")),
    ),
    (r"\(MCF (\d)\)", lambda q, g: _unit(q).mcf == int(g[0])),
    (rf"the woods of {HEX}", lambda q, g: "woods" in q.board.terrain(g[0])),
    (rf"stream hexside {SIDE}", lambda q, g: "stream" in q.board.features(q.board.hexside(*g))),
    (rf"{HEX} holds a trench and nothing else", lambda q, g: q.board.terrain(g[0]) == {"trench"}),
    (r"\((\d+) MP\)", lambda q, g: q.answer().result.mp == int(g[0])),
]


def _unit(q):
    return example_data().units[q.setting("unit")]


CLAIMS = {"sees": SEES_CLAIMS, "reach": MOVE_CLAIMS, "entry_cost": MOVE_CLAIMS}
CLAIMS["may_enter"] = MOVE_CLAIMS


def untrue(q) -> list[str]:
    """The claims of ``q``'s words its situation does not bear out, each as the words say it."""
    wrong = []
    for pattern, holds in CLAIMS.get(q.kind, []):
        for match in re.finditer(pattern, q.ask):
            if not holds(q, match.groups()):
                wrong.append(f"{q.id}: {match.group(0)!r}")
    return wrong


@pytest.mark.parametrize("qid", [q.id for q in quiz.shipped("ss_panzer").questions])
def test_a_shipped_question_says_only_what_its_situation_bears_out(qid):
    assert untrue(quiz.shipped("ss_panzer").question(qid)) == []


def test_the_check_finds_the_untrue_words_of_issue_29():
    q = quiz.shipped("ss_panzer").question("beyond-the-hill")
    old = "The line from 1712 to 2113 passes through the middle of 1913."
    assert untrue(replace(q, ask=old)) != []


def _drawn_situation_is_allowed(q) -> list[str]:
    """A unit that has not moved has all its MP; one that has moved has some left, not all."""
    s = q.settings
    if q.kind in ("reach", "may_enter"):
        mp = s.get("mp", s.get("mp_left"))
        if not s.get("moved") and mp != _unit(q).mp:
            return [f"{q.id}: a unit that has not moved with {mp} of its {_unit(q).mp} MP"]
        if s.get("moved") and not 0 < mp < _unit(q).mp:
            return [f"{q.id}: a unit that has moved with {mp} of its {_unit(q).mp} MP left"]
    return []


@pytest.mark.parametrize("kind", list(quiz.kinds("ss_panzer")))
def test_a_drawn_question_is_true_allowed_and_complete(kind):
    """Every kind over many seeds (every fifth for does A see B, whose 400 would take seconds):
    its words agree with its situation, the situation is one the rules allow, and a movement
    question says whether the unit has moved."""
    seeds = range(400) if kind != "sees" else range(0, 400, 5)
    wrong = []
    for seed in seeds:
        q = quiz.random_question("ss_panzer", kind, seed)
        wrong += untrue(q) + _drawn_situation_is_allowed(q)
        if kind in ("reach", "may_enter"):
            said = "has moved already" in q.ask or "has not moved yet" in q.ask
            wrong += [] if said else [f"{q.id}: says nothing of whether the unit has moved"]
    assert wrong == []
