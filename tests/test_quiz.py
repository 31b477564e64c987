"""wbk.quiz: the shipped quizzes load, a wrong answer in a file is refused, every kind of question
answers as the rules do, readings are compared, and drawn questions repeat by seed."""

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from wbk import quiz
from wbk.errors import WbkError
from wbk.games import game as rule_set
from wbk.games import games

#: every rule set's kinds of question, by rule set: asked of the registry, never written out
KINDS = {key: quiz.kinds(key) for key, found in games().items() if found.has("quiz")}


def _text(game: str) -> str:
    return rule_set(game).shipped_quiz.read_text("utf-8")


@pytest.mark.parametrize("game", [key for key, found in games().items() if found.shipped_quiz])
def test_shipped_quizzes_load_with_eight_questions_or_more(game):
    loaded = quiz.shipped(game)
    assert loaded.game == game and len(loaded.questions) >= 8
    assert len({q.id for q in loaded.questions}) == len(loaded.questions)
    for q in loaded.questions:
        assert q.answer().steps, q.id  # every answer shows its working


def test_load_reads_a_file_from_disk(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(_text("blitz"), encoding="utf-8")
    assert [q.id for q in quiz.load(path).questions] == [
        q.id for q in quiz.shipped("blitz").questions
    ]


def test_a_file_with_one_answer_changed_is_refused_naming_the_question(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text(_text("ss_panzer").replace("answer = 6\n", "answer = 5\n"), encoding="utf-8")
    with pytest.raises(WbkError) as e:
        quiz.load(path)
    assert str(e.value) == (
        f"{path}: question 'stream-into-woods': answer: the file says 5, but wbk works out 6 MP"
    )


def test_a_wrong_band_is_refused_with_both_answers():
    text = _text("blitz").replace('answer = "over 90%"', 'answer = "70-90%"')
    with pytest.raises(
        WbkError,
        match="question 'twenty-dice': answer: the file says 70-90%, but wbk works out over 90%",
    ):
        quiz.from_toml(text, source="b.toml")


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


@pytest.mark.parametrize(
    "text, message",
    [
        (
            'game = "chess"\n',
            "q.toml: game: 'chess' is not one of blitz, pz8, ss_panzer, stalingrad",
        ),
        ('game = "blitz"\n', "q.toml: question: missing"),
        ('game = "blitz"\nlevel = 3\n', "q.toml: level: unknown key"),
        ("game = ", "q.toml: not valid TOML"),
    ],
)
def test_bad_quiz_headers(text, message):
    with pytest.raises(WbkError, match="^" + message):
        quiz.from_toml(text, source="q.toml")


def test_ids_must_be_unique():
    one = 'id = "x"\n' + SEES + 'target = "1913"\nanswer = true\n'
    with pytest.raises(WbkError, match="question 'x': id: used twice"):
        quiz.from_toml(HEADER + one + "[[question]]\n" + one, source="q.toml")


# --- every kind answers as the rules do ------------------------------------------------------

EXPECTED = {
    ("ss_panzer", "slope-example-2"): False,
    ("ss_panzer", "both-behind-slopes"): True,
    ("ss_panzer", "stream-into-woods"): 6,
    ("ss_panzer", "trench-soviet"): 1,
    ("ss_panzer", "one-hex-rule"): frozenset({"1509", "1510", "1609", "1611", "1709", "1710"}),
    ("ss_panzer", "one-hex-rule-after-moving"): False,
    ("ss_panzer", "kill-zone-and-zoc"): (4,),
    ("ss_panzer", "step-loss-chance"): Fraction(11, 27),
    ("blitz", "example-disrupted-in-town"): 4,
    ("blitz", "example-tank-in-woods"): 20,
    ("blitz", "at-zero"): 10,
    ("blitz", "bunker-in-woods"): 4,
    ("blitz", "armor-example"): Fraction(1, 216),
    ("blitz", "leader-example"): 1,
    ("blitz", "four-dice-eliminate"): Fraction(625, 26873856),
    ("stalingrad", "example-bonus-column"): "20-29",
    ("stalingrad", "example-defender-fires-first"): "4",
    ("stalingrad", "example-bonus-allowed"): True,
    ("stalingrad", "bonus-pinned-infantry"): False,
    ("stalingrad", "one-way-out"): frozenset({"1314"}),
    ("stalingrad", "shared-hex"): 1,
    ("stalingrad", "bunker-and-dug-in-tank"): 2,
}


@pytest.mark.parametrize("game, qid", list(EXPECTED), ids=lambda v: str(v))
def test_questions_answer_as_the_rules_do(game, qid):
    assert quiz.shipped(game).question(qid).answer().value == EXPECTED[game, qid]


def test_every_kind_is_asked_in_a_shipped_quiz():
    for game, kinds in KINDS.items():
        asked = {q.kind for q in quiz.shipped(game).questions}
        assert asked == set(kinds), game


@pytest.mark.parametrize(
    "game, qid, right, wrong",
    [
        ("ss_panzer", "slope-example-1", "yes", "no"),
        ("ss_panzer", "stream-into-woods", "6", 3),
        ("ss_panzer", "one-hex-rule", "1709, 1509 1510 1609 1611 1710", ["1509", "1510"]),
        ("ss_panzer", "kill-zone-and-zoc", 4, [3, 4]),
        ("blitz", "twenty-dice", "over 90%", "70-90%"),
        ("stalingrad", "last-column", "30+", "20-29"),
        ("stalingrad", "bunker-retreat-hexes", ["1414", "1314", "1214", "1213"], ["1314"]),
    ],
)
def test_is_right(game, qid, right, wrong):
    q = quiz.shipped(game).question(qid)
    assert q.is_right(right) and not q.is_right(wrong)


def test_the_chance_bands():
    assert [name for name, _, _ in quiz.CHANCE_BANDS] == [
        "under 10%",
        "10-30%",
        "30-50%",
        "50-70%",
        "70-90%",
        "over 90%",
    ]


def test_bad_answers_from_a_learner_name_the_answer():
    q = quiz.shipped("stalingrad").question("example-column")
    with pytest.raises(WbkError, match="answer '11-19' is not one of 1, 2, 3, 4, 5-9, 10-19"):
        q.is_right("11-19")
    with pytest.raises(WbkError, match="answer 'six' is not a whole number"):
        quiz.shipped("blitz").question("at-zero").is_right("six")
    fire = quiz.shipped("ss_panzer").question("kill-zone-and-zoc")
    for given in ([4.7], 4.0, [True], [-4], "9" * 5000):  # never truncated, never a bare error
        with pytest.raises(WbkError, match="is not the dice of each fire"):
            fire.is_right(given)
    with pytest.raises(WbkError, match="is not a whole number"):
        quiz.shipped("blitz").question("at-zero").is_right("9" * 5000)


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


@pytest.mark.parametrize(
    "game, qid, reading, other",
    [
        ("ss_panzer", "wood-beside-the-line", "edge", "either"),
        ("blitz", "four-in-the-hex", "crowded", "exactly_three"),
        ("blitz", "assault-on-a-bunker", "assault", "no_terrain"),
        ("blitz", "one-of-three-disrupted", "disrupted_firers", "whole_attack"),
        ("blitz", "odd-hits-bonus", "save_bonus", "rounded_up"),
        ("stalingrad", "four-units-split", "retreat_into", "one_hex"),
        ("stalingrad", "minefield-in-the-stack", "minefields_and_bridges", "do_not_count"),
    ],
)
def test_each_reading_changes_one_shipped_answer(game, qid, reading, other):
    q = quiz.shipped(game).question(qid)
    assert q.answer().value != q.answer(**{reading: other}).value
    said = quiz.reading(game, reading).sentence(other)
    assert any(n.startswith(f"Read as '{said}', the answer changes") for n in q.reading_notes())
    assert f"{reading}=" not in " ".join(q.reading_notes())  # words, not keys


def test_readings_that_cannot_matter_are_not_offered():
    assert quiz.shipped("ss_panzer").question("slope-example-1").reading_options == {
        "slope_hex": ("enter_not_beyond", "hexsides_only"),
        "slope_hex_of": ("both", "firer"),
        "slope_end": ("crosses", "touches"),
    }
    assert quiz.shipped("blitz").question("bunker-in-woods").reading_options == {}
    with pytest.raises(WbkError, match="reading 'edge' is not one of its readings"):
        quiz.shipped("ss_panzer").question("slope-example-1").answer(edge="either")


# --- drawn questions -------------------------------------------------------------------------

ALL_KINDS = [(game, kind) for game, kinds in KINDS.items() for kind in kinds]


@pytest.mark.parametrize("game, kind", ALL_KINDS)
def test_random_questions_repeat_by_seed(game, kind):
    one, again = quiz.random_question(game, kind, 7), quiz.random_question(game, kind, 7)
    assert (one.ask, one.settings) == (again.ask, again.settings)
    assert one.answer().value == again.answer().value
    assert one.id == f"{kind} #7" and one.kind == kind
    asks = {quiz.random_question(game, kind, seed).ask for seed in range(6)}
    assert len(asks) > 1  # different seeds, different situations


def test_random_yes_no_questions_are_not_all_yes():
    answers = {quiz.random_question("ss_panzer", "sees", seed).answer().value for seed in range(8)}
    assert answers == {True, False}


@pytest.mark.parametrize(
    "args, message",
    [
        (("chess", "sees", 1), "game 'chess' is not one of"),
        (("blitz", "sees", 1), "kind 'sees' is not one of dice, hits_chance"),
        (("blitz", "dice", "1"), "seed '1' is not a whole number"),
    ],
)
def test_bad_random_requests(args, message):
    with pytest.raises(WbkError, match=message):
        quiz.random_question(*args)


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


def test_the_readme_example_loads_and_answers():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Writing a quiz") :]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    loaded = quiz.from_toml(example, source="README")
    assert [q.answer().value for q in loaded.questions] == [False, False, 6]
    assert loaded.question("wood-beside-the-line").readings == {"edge": "either"}


def test_a_damage_chance_is_asked_under_the_saving_throw_reading():
    """Issue 29: a leader's saving throws decide part of the damage, so the "+1 per two hits"
    reading is one of the question's readings, and a file may set it."""
    q = quiz.random_question("blitz", "damage_chance", 1)
    assert q.reading_options == {"save_bonus": ("whole_pairs", "rounded_up")}
    assert q.answer().value == q.answer(save_bonus="whole_pairs").value
    assert q.answer().words == "under 10%: ≈ 1 in 10.1 (9.86%)"
    assert q.answer(save_bonus="rounded_up").words == "10-30%: ≈ 13.86%"
    changed = [
        seed
        for seed in range(400)
        if any(
            "changes" in n
            for n in quiz.random_question("blitz", "damage_chance", seed).reading_notes()
        )
    ]
    assert len(changed) == 50


def test_a_quiz_file_names_a_game_only_from_the_registry():
    """A stranger's quiz file names a game; the name is looked up among the registered games,
    never imported: a module path or a game's quiz module by name is refused, nothing loaded."""
    import sys

    for name in ("os.path", "wbk.games.pz8.quiz", "wbk.widgets", "../../etc/passwd"):
        before = set(sys.modules)
        with pytest.raises(WbkError, match=r"game: .* is not one of blitz, pz8, ss_panzer"):
            quiz.from_toml(f'game = "{name}"\n[[question]]\nid = "x"\n', source="q.toml")
        assert set(sys.modules) - before == set(), name


# --- the text settles a reading --------------------------------------------------------------


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


# --- the words agree with the situation ------------------------------------------------------
# What a program can tell of a question's words: the hexes and hexsides a line of sight is said
# to pass, a point said to be in a wood or not, a tank said to be in plain view, a hex said to be
# clear or bombarded, a unit said to have moved or not, the numbers the words give. Each check is
# (a pattern of the words, whether the situation bears out one match).

HEX = r"\b(\d{4})\b"
SIDE = r"\b(\d{4})/(\d{4})\b"


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
    from wbk.games.ss_panzer.data import example_data

    return example_data().units[q.setting("unit")]


def _target_terrain(q, label: str) -> frozenset[str]:
    return q.board.map.terrain(label) - {"clear"}


STALINGRAD_CLAIMS = [
    (rf"the clear hex {HEX}", lambda q, g: not _target_terrain(q, g[0])),
    (rf"the balka hex {HEX}", lambda q, g: _target_terrain(q, g[0]) == {"balka"}),
    (
        rf"{HEX}(?:, {HEX})*(?: and {HEX})? (?:is|are) being bombarded",
        lambda q, g: q.board.map.hex(g[0]) in q.board.bombarded,
    ),
    (rf"{HEX} is being attacked", lambda q, g: q.board.map.hex(g[0]) in q.board.attacked),
    (
        r"hits the Soviet units in (?:the [a-z ]+ hex )?(\d{4})",
        lambda q, g: q.board.map.label(q.board.target) == g[0],
    ),
    (r"(\d+) AF(?: in all| attack)?", lambda q, g: int(g[0]) in _strengths(q)),
    (r"(\d+) DF", lambda q, g: int(g[0]) in (q.setting("df"), q.setting("strength"))),
    (
        r"[Pp]inned (?:grenadiers|infantry)",
        lambda q, g: any(u.get("pinned") for u in q.setting("attack")),
    ),
    (
        r"two hexes away|not adjacent",
        lambda q, g: any(u.get("adjacent") is False for u in q.setting("attack")),
    ),
    (r"all adjacent", lambda q, g: all(u.get("adjacent", True) for u in q.setting("attack"))),
    (
        r"announces the Close Assault Bonus|takes the Close Assault Bonus|fire first",
        lambda q, g: q.setting("shift") == 1,
    ),
]


def _strengths(q) -> set[int]:
    if q.kind == "crt_column":
        return {q.setting("strength")}
    attack = q.setting("attack") or []
    return {u["strength"] for u in attack} | {sum(u["strength"] for u in attack)}


NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "twenty": 20}


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def _fire(q) -> str:
    """The fire a Blitz question is about: its ``fire``; armor's is AT fire, and the fire a
    leader throws against is the question's to say (the hits are the situation)."""
    if q.kind == "hits_chance":
        return "at" if q.setting("armor") else "direct"
    if q.kind == "saves":
        return "direct"
    return q.setting("fire")


def _blitz_strengths(q) -> list:
    return [*q.setting("strengths"), *(q.setting("engineer_strengths") or [])]


BLITZ_CLAIMS = [
    (r"range (\d)", lambda q, g: q.setting("range") == int(g[0])),
    (r"adjacent", lambda q, g: q.setting("range") == 1),
    (r"all disrupted", lambda q, g: all(isinstance(v, str) for v in _blitz_strengths(q))),
    (
        r"one of them disrupted",
        lambda q, g: sum(isinstance(v, str) for v in _blitz_strengths(q)) == 1,
    ),
    (r"\bAT fire|fire AT|AT strength", lambda q, g: _fire(q) == "at"),
    (r"\bassault", lambda q, g: _fire(q) == "assault"),
    (r"direct fire", lambda q, g: _fire(q) == "direct"),
    (r"bunker", lambda q, g: q.setting("protection") == "bunker"),
    (r"\b(town|woods|hills)\b(?! or)", lambda q, g: q.setting("terrain") == g[0]),
    (r"in the open", lambda q, g: q.setting("terrain") == "open"),
    (r"morale (\d+)", lambda q, g: int(g[0]) in (q.setting("morale"), q.setting("leader_morale"))),
    (r"armor (\d)", lambda q, g: q.setting("armor") == int(g[0])),
    (r"^(\w+) dice", lambda q, g: q.setting("dice") == _number(g[0])),
    (r"its (\d+) dice", lambda q, g: q.setting("dice") == int(g[0])),
    (r"takes (\w+) hits", lambda q, g: len(q.setting("rolls")) == _number(g[0])),
    (
        r"at least (\d+) hits?|(\w+) hits or more",
        lambda q, g: q.setting("hits") == _number(g[0] or g[1]),
    ),
    (r"(\w+) non-vehicle units", lambda q, g: q.setting("non_vehicle_units") == _number(g[0])),
    (r"at a wagon", lambda q, g: q.setting("target") == "wagon"),
]

CLAIMS = {
    ("ss_panzer", "sees"): SEES_CLAIMS,
    **{("ss_panzer", k): MOVE_CLAIMS for k in ("reach", "entry_cost", "may_enter")},
    **{("stalingrad", k): STALINGRAD_CLAIMS for k in ("retreat_hexes", "retreat_losses")},
    ("stalingrad", "crt_column"): STALINGRAD_CLAIMS,
    ("stalingrad", "bonus_allowed"): STALINGRAD_CLAIMS,
    **{("blitz", k): BLITZ_CLAIMS for k in ("dice", "hits_chance", "damage_chance", "saves")},
}


def untrue(q) -> list[str]:
    """The claims of ``q``'s words its situation does not bear out, each as the words say it."""
    wrong = []
    for pattern, holds in CLAIMS.get((q.game, q.kind), []):
        for match in re.finditer(pattern, q.ask):
            if not holds(q, match.groups()):
                wrong.append(f"{q.id}: {match.group(0)!r}")
    return wrong


SHIPPED = [(game, q.id) for game in KINDS for q in quiz.shipped(game).questions]


@pytest.mark.parametrize("game, qid", SHIPPED, ids=lambda v: str(v))
def test_a_shipped_question_says_only_what_its_situation_bears_out(game, qid):
    assert untrue(quiz.shipped(game).question(qid)) == []


@pytest.mark.parametrize(
    "game, qid, old",
    [
        (
            "ss_panzer",
            "beyond-the-hill",
            "The line from 1712 to 2113 passes through the middle of 1913.",
        ),
    ],
)
def test_the_check_finds_the_untrue_words_of_issue_29(game, qid, old):
    """The wordings issue 29 found untrue are caught by the check (and so would be again)."""
    q = quiz.shipped(game).question(qid)
    assert untrue(replace(q, ask=old)) != []


def _drawn_situation_is_allowed(q) -> list[str]:
    """What the rules allow and a drawn question must keep to: assault combat has no range, a
    unit that has not moved has all its MP, a "P" falls on a hex 9.87 or 9.88 speaks of, one
    attack's chance is asked of a tank that can shoot."""
    s = q.settings
    if q.game == "blitz" and s.get("fire") == "assault" and s.get("range") is not None:
        return [f"{q.id}: assault combat at range {s['range']}"]
    if q.game == "ss_panzer" and q.kind in ("reach", "may_enter"):
        mp = s.get("mp", s.get("mp_left"))
        if not s.get("moved") and mp != _unit(q).mp:
            return [f"{q.id}: a unit that has not moved with {mp} of its {_unit(q).mp} MP"]
        if s.get("moved") and not 0 < mp < _unit(q).mp:
            return [f"{q.id}: a unit that has moved with {mp} of its {_unit(q).mp} MP left"]
    if q.game == "stalingrad" and q.kind.startswith("retreat"):
        if q.answer().result.terrain == "other":
            return [f'{q.id}: a "P" on {s["target"]}, a hex the supplement does not cover']
    return []


DRAWN = [(game, kind) for game, kinds in KINDS.items() for kind in kinds]


@pytest.mark.parametrize("game, kind", DRAWN)
def test_a_drawn_question_is_true_allowed_and_complete(game, kind):
    """Every kind over many seeds: its words agree with its situation, the situation is one the
    rules allow, and the words say what the answer hangs on (a unit's moving, a rally's HQ)."""
    slow = (game, kind) in SLOW_DRAWS or on_a_table(game)
    seeds = range(0, 400, 5) if slow else range(400)
    wrong = []
    for seed in seeds:
        q = quiz.random_question(game, kind, seed)
        wrong += untrue(q) + _drawn_situation_is_allowed(q)
        if game == "ss_panzer" and kind in ("reach", "may_enter"):
            said = "has moved already" in q.ask or "has not moved yet" in q.ask
            wrong += [] if said else [f"{q.id}: says nothing of whether the unit has moved"]
        if kind == "rally" and not q.settings.get("is_hq"):
            said = "of its HQ" in q.ask or "from its HQ" in q.ask
            wrong += [] if said else [f"{q.id}: says nothing of where its HQ is"]
    assert wrong == []


#: the kinds whose 400 draws would take seconds each: every fifth seed of them, and of every
#: kind asked on a table in inches (its sight and its moves are worked out in shapely and
#: decided exactly: a rule set's own tests draw those it checks the words of at every seed)
SLOW_DRAWS = {
    ("ss_panzer", "sees"),
}


def on_a_table(game: str) -> bool:
    """Whether ``game`` draws its questions on a table in inches."""
    from wbk.table import Table

    return isinstance(quiz.game_quiz(game).default_board(), Table)
