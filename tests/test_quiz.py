"""wbk.quiz: the shipped quizzes load, a wrong answer in a file is refused, every kind of question
answers as the rules do, readings are compared, and drawn questions repeat by seed."""

from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest

from wbk import quiz
from wbk.errors import WbkError


def _text(game: str) -> str:
    return (resources.files("wbk") / "data" / "quizzes" / f"{game}.toml").read_text("utf-8")


@pytest.mark.parametrize("game", ["ss_panzer", "blitz", "stalingrad", "pz8"])
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
    ("pz8", "hq-at-the-kv1"): "shot, target in cover",
    ("pz8", "t34-out-of-range"): "no shot",
    ("pz8", "kv1-targets"): frozenset({"Pz IV 1", "Pz IV 2"}),
    ("pz8", "german-platoon"): False,
    ("pz8", "short-gun-medium-tank"): Fraction(91, 216),
    ("pz8", "natural-six"): Fraction(0),
    ("pz8", "hq-rallies"): Fraction(1, 2),
}


@pytest.mark.parametrize("game, qid", list(EXPECTED), ids=lambda v: str(v))
def test_questions_answer_as_the_rules_do(game, qid):
    assert quiz.shipped(game).question(qid).answer().value == EXPECTED[game, qid]


def test_every_kind_is_asked_in_a_shipped_quiz():
    for game, kinds in quiz.KINDS.items():
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
        ("pz8", "kv1-targets", ["Pz IV 2", "Pz IV 1"], ["Pz IV 1", "Pz IV 2", "Tiger"]),
        ("pz8", "tiger-long-reach", "shot, target in the open", "no shot"),
    ],
)
def test_is_right(game, qid, right, wrong):
    q = quiz.shipped(game).question(qid)
    assert q.is_right(right) and not q.is_right(wrong)


def test_a_chance_on_a_border_is_right_in_both_bands():
    q = quiz.shipped("pz8").question("hq-rallies")
    assert q.is_right("30-50%") and q.is_right("50-70%") and not q.is_right("70-90%")
    assert q.answer().words == "30-50% or 50-70%: 1/2 (50.00%)"
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
    with pytest.raises(WbkError, match="'Panther'"):
        quiz.shipped("pz8").question("kv1-targets").is_right(["Panther"])


# --- readings --------------------------------------------------------------------------------


def test_a_reading_that_changes_the_answer_says_so():
    q = quiz.shipped("ss_panzer").question("beyond-the-hill")
    assert not q.answer().value
    assert q.answer(slope_hex="hexsides_only").value is True
    assert q.is_right("yes", slope_hex="hexsides_only") and not q.is_right("yes")
    notes = q.reading_notes()
    assert "(slope_hex=hexsides_only), the answer changes: yes: clear." in notes[0]
    assert "(slope_hex_of=firer), the answer is the same." in notes[1]
    assert "(slope_end=touches), the answer is the same." in notes[2]


def test_readings_asked_under_the_other_value():
    q = quiz.shipped("ss_panzer").question("slope-end")  # asked with slope_hex=hexsides_only
    assert q.readings == {"slope_hex": "hexsides_only"}
    assert q.answer().value is False and q.answer(slope_end="touches").value is True
    assert any(
        "slope_hex=enter_not_beyond), the answer is the same" in n for n in q.reading_notes()
    )


@pytest.mark.parametrize(
    "game, qid, reading, other",
    [
        ("ss_panzer", "wood-beside-the-line", "edge", "either"),
        ("ss_panzer", "kill-zone-and-zoc", "reading", "separate"),
        ("blitz", "four-in-the-hex", "crowded", "exactly_three"),
        ("blitz", "assault-on-a-bunker", "assault", "no_terrain"),
        ("pz8", "tiger-grazes-the-hill", "cover_reading", "half_hidden"),
        ("pz8", "natural-six", "natural_six", "always_hits"),
        ("pz8", "shaken-t34", "shaken_member", "no_platoon_move"),
        ("blitz", "one-of-three-disrupted", "disrupted_firers", "whole_attack"),
        ("blitz", "odd-hits-bonus", "save_bonus", "rounded_up"),
        ("stalingrad", "four-units-split", "retreat_into", "one_hex"),
    ],
)
def test_each_reading_changes_one_shipped_answer(game, qid, reading, other):
    q = quiz.shipped(game).question(qid)
    assert q.answer().value != q.answer(**{reading: other}).value
    assert any(f"({reading}={other}), the answer changes" in n for n in q.reading_notes())


def test_readings_that_cannot_matter_are_not_offered():
    assert quiz.shipped("ss_panzer").question("slope-example-1").reading_options == {
        "slope_hex": ("enter_not_beyond", "hexsides_only"),
        "slope_hex_of": ("both", "firer"),
        "slope_end": ("crosses", "touches"),
    }
    assert list(quiz.shipped("pz8").question("shaken-t34").reading_options) == ["shaken_member"]
    assert quiz.shipped("pz8").question("soviet-platoon").reading_options == {}
    assert quiz.shipped("blitz").question("bunker-in-woods").reading_options == {}
    with pytest.raises(WbkError, match="reading 'edge' is not one of its readings"):
        quiz.shipped("ss_panzer").question("slope-example-1").answer(edge="either")


# --- drawn questions -------------------------------------------------------------------------

ALL_KINDS = [(game, kind) for game, kinds in quiz.KINDS.items() for kind in kinds]


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
