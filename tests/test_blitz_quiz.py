"""wbk.games.blitz.quiz: Blitz Combat's shipped quiz answers as the rules do, its readings change
the answers they should, a bad file is one line naming the key, and a question's words say only
what its situation bears out (the shared checks are in tests/test_quiz.py)."""

import re
from fractions import Fraction

import pytest

from wbk import quiz
from wbk.errors import WbkError
from wbk.games import game

SHIPPED = quiz.shipped("blitz")
HEAD = 'game = "blitz"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\n'


@pytest.mark.parametrize(
    "qid, value",
    [
        ("example-disrupted-in-town", 4),
        ("example-tank-in-woods", 20),
        ("at-zero", 10),
        ("bunker-in-woods", 4),
        ("armor-example", Fraction(1, 216)),
        ("leader-example", 1),
        ("four-dice-eliminate", Fraction(625, 26873856)),
    ],
)
def test_questions_answer_as_the_rules_do(qid, value):
    assert SHIPPED.question(qid).answer().value == value


def test_a_wrong_band_is_refused_with_both_answers():
    text = game("blitz").shipped_quiz.read_text("utf-8")
    text = text.replace('answer = "over 90%"', 'answer = "70-90%"')
    with pytest.raises(
        WbkError,
        match="question 'twenty-dice': answer: the file says 70-90%, but wbk works out over 90%",
    ):
        quiz.from_toml(text, source="b.toml")


def test_is_right():
    q = SHIPPED.question("twenty-dice")
    assert q.is_right("over 90%") and not q.is_right("70-90%")


def test_bad_answers_from_a_learner_name_the_answer():
    with pytest.raises(WbkError, match="answer 'six' is not a whole number"):
        SHIPPED.question("at-zero").is_right("six")
    with pytest.raises(WbkError, match="is not a whole number"):
        SHIPPED.question("at-zero").is_right("9" * 5000)


@pytest.mark.parametrize(
    "qid, reading, other",
    [
        ("four-in-the-hex", "crowded", "exactly_three"),
        ("assault-on-a-bunker", "assault", "no_terrain"),
        ("one-of-three-disrupted", "disrupted_firers", "whole_attack"),
        ("odd-hits-bonus", "save_bonus", "rounded_up"),
    ],
)
def test_each_reading_changes_one_shipped_answer(qid, reading, other):
    q = SHIPPED.question(qid)
    assert q.answer().value != q.answer(**{reading: other}).value
    said = quiz.reading("blitz", reading).sentence(other)
    assert any(n.startswith(f"Read as '{said}', the answer changes") for n in q.reading_notes())
    assert f"{reading}=" not in " ".join(q.reading_notes())  # words, not keys


def test_readings_that_cannot_matter_are_not_offered():
    assert SHIPPED.question("bunker-in-woods").reading_options == {}


@pytest.mark.parametrize(
    "args, message",
    [
        (("blitz", "sees", 1), "kind 'sees' is not one of dice, hits_chance"),
        (("blitz", "dice", "1"), "seed '1' is not a whole number"),
    ],
)
def test_bad_random_requests(args, message):
    with pytest.raises(WbkError, match=message):
        quiz.random_question(*args)


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


# --- a bad file is one line naming the file, the question and the key (issue 29) ---------------


@pytest.mark.parametrize(
    "body, names",
    [
        (
            'kind = "dice"\nstrengths = 5\nanswer = 5\n',
            'strengths: 5 is not a list (each a whole number from 0 to 10,000 or "5d"',
        ),
        (
            'kind = "saves"\nmorale = 9\nrolls = 5\nanswer = 0\n',
            "rolls: 5 is not a list (each a whole number from 2 to 12)",
        ),
        (
            'kind = "saves"\nmorale = 9\nrolls = [5, 13]\nanswer = 0\n',
            "rolls: item 2: 13 is not a whole number from 2 to 12",
        ),
        (
            'kind = "dice"\nstrengths = [6]\nnon_vehicle_units = "3"\nanswer = 12\n',
            "non_vehicle_units: '3' is not a whole number of 0 or more",
        ),
        (
            'kind = "damage_chance"\ndice = 4\ndamage = 3\nanswer = "under 10%"\n',
            "damage: 3 is not one of disrupted, demoralized, step_loss, eliminated",
        ),
        (
            'kind = "damage_chance"\ndice = 4\ndamage = "none"\nanswer = "over 90%"\n',
            "damage: 'none' is not one of disrupted, demoralized, step_loss, eliminated",
        ),
        (
            'kind = "hits_chance"\ndice = 3\nhits = -1\nanswer = "over 90%"\n',
            "hits: -1 is not a whole number from 1 to 200",
        ),
        (
            'kind = "dice"\nstrengths = [3]\nfire = "assault"\nrange = 2\nanswer = 15\n',
            "range: range 2: assault combat takes place in the hex both sides share",
        ),
        (
            'kind = "hits_chance"\ndice = 1000000\nhits = 1\nanswer = "over 90%"\n',
            "dice: 1000000 is not a whole number from 1 to 200",
        ),
    ],
    ids=lambda v: v[:70],
)
def test_a_bad_quiz_file_is_one_line_naming_the_file_the_question_and_the_key(body, names):
    with pytest.raises(WbkError) as e:
        quiz.from_toml(HEAD + body, source="q.toml")
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"q.toml: question 'x': {names}"), message


def test_a_dollar_in_the_ask_is_refused():
    text = HEAD.replace('ask = "a"', 'ask = "costs $5$"')
    text += 'kind = "saves"\nmorale = 9\nrolls = [5]\nanswer = 0\n'
    with pytest.raises(WbkError) as e:
        quiz.from_toml(text, source="q.toml")
    assert str(e.value).startswith("q.toml: question 'x': ask: holds a $")


# --- a question says only what its situation bears out (issue 29) ------------------------------

NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "twenty": 20}


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def _fire(q) -> str:
    """The fire a question is about: its ``fire``; armor's is AT fire, and the fire a leader
    throws against is the question's to say (the hits are the situation)."""
    if q.kind == "hits_chance":
        return "at" if q.setting("armor") else "direct"
    if q.kind == "saves":
        return "direct"
    return q.setting("fire")


def _strengths(q) -> list:
    return [*q.setting("strengths"), *(q.setting("engineer_strengths") or [])]


#: What a question's words claim, and whether its situation bears the claim out.
CLAIMS = [
    (r"range (\d)", lambda q, g: q.setting("range") == int(g[0])),
    (r"adjacent", lambda q, g: q.setting("range") == 1),
    (r"all disrupted", lambda q, g: all(isinstance(v, str) for v in _strengths(q))),
    (
        r"one of them disrupted",
        lambda q, g: sum(isinstance(v, str) for v in _strengths(q)) == 1,
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


def untrue(q) -> list[str]:
    """The claims of ``q``'s words its situation does not bear out, and a situation the rules
    do not allow (assault combat has no range)."""
    wrong = [
        f"{q.id}: {match.group(0)!r}"
        for pattern, holds in CLAIMS
        for match in re.finditer(pattern, q.ask)
        if not holds(q, match.groups())
    ]
    s = q.settings
    if s.get("fire") == "assault" and s.get("range") is not None:
        wrong.append(f"{q.id}: assault combat at range {s['range']}")
    return wrong


@pytest.mark.parametrize("qid", [q.id for q in SHIPPED.questions])
def test_a_shipped_question_says_only_what_its_situation_bears_out(qid):
    assert untrue(SHIPPED.question(qid)) == []


@pytest.mark.parametrize("kind", quiz.kinds("blitz"))
def test_a_drawn_question_is_true_and_allowed(kind):
    wrong = []
    for seed in range(400):
        wrong += untrue(quiz.random_question("blitz", kind, seed))
    assert wrong == []
