"""Pz 8's quiz (``wbk.games.pz8.quiz``, ``quiz.toml``): its kinds answer as the rules do, its
readings change the answers they should, and its words, shipped or drawn, say only what the
situation bears out (the checks of test_quiz, with Pz 8's claims)."""

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from wbk import quiz
from wbk.errors import WbkError

QUIZ = quiz.shipped("pz8")

EXPECTED = {
    "hq-at-the-kv1": "shot, target in cover",
    "t34-out-of-range": "no shot",
    "kv1-targets": frozenset({"Pz IV 1", "Pz IV 2"}),
    "german-platoon": False,
    "short-gun-medium-tank": Fraction(91, 216),
    "natural-six": Fraction(0),
    "hq-rallies": Fraction(1, 2),
}


@pytest.mark.parametrize("qid", list(EXPECTED))
def test_questions_answer_as_the_rules_do(qid):
    assert QUIZ.question(qid).answer().value == EXPECTED[qid]


@pytest.mark.parametrize(
    "qid, right, wrong",
    [
        ("kv1-targets", ["Pz IV 2", "Pz IV 1"], ["Pz IV 1", "Pz IV 2", "Tiger"]),
        ("tiger-long-reach", "shot, target in the open", "no shot"),
    ],
)
def test_is_right(qid, right, wrong):
    q = QUIZ.question(qid)
    assert q.is_right(right) and not q.is_right(wrong)


def test_a_tank_not_on_the_table_is_named():
    with pytest.raises(WbkError, match="'Panther'"):
        QUIZ.question("kv1-targets").is_right(["Panther"])


def test_a_chance_on_a_border_is_right_in_both_bands():
    q = QUIZ.question("hq-rallies")
    assert q.is_right("30-50%") and q.is_right("50-70%") and not q.is_right("70-90%")
    assert q.answer().words == "30-50% or 50-70%: 1/2 (50.00%)"


@pytest.mark.parametrize(
    "qid, reading, other",
    [
        ("tiger-past-the-farmhouse", "cover_reading", "half_hidden"),
        ("natural-six", "natural_six", "always_hits"),
        ("shaken-t34", "shaken_member", "no_platoon_move"),
        ("veteran-hq-rallies", "veteran_hq_rally", "bonus"),
        ("three-inch-gun", "calibre_gaps", "upper_limits"),
        ("pz4-round-the-pz2", "pivot", "at_start"),
    ],
)
def test_each_reading_changes_one_shipped_answer(qid, reading, other):
    q = QUIZ.question(qid)
    assert q.answer().value != q.answer(**{reading: other}).value
    said = quiz.reading("pz8", reading).sentence(other)
    assert any(n.startswith(f"Read as '{said}', the answer changes") for n in q.reading_notes())
    assert f"{reading}=" not in " ".join(q.reading_notes())  # words, not keys


def test_readings_that_cannot_matter_are_not_offered():
    assert list(QUIZ.question("shaken-t34").reading_options) == ["shaken_member"]
    assert QUIZ.question("soviet-platoon").reading_options == {}


def test_a_veteran_hq_rallying_itself_is_asked_under_its_reading():
    q = QUIZ.question("veteran-hq-rallies")
    assert q.reading_options == {"veteran_hq_rally": ("no_bonus", "bonus")}
    assert q.answer().value == Fraction(1, 2)
    assert q.answer(veteran_hq_rally="bonus").value == Fraction(2, 3)
    assert q.answer().steps[-1].rule == (
        "Pz 8, Optional Rule: Shaken, reading: a veteran HQ rallies itself on 4-6, like any HQ"
    )
    assert QUIZ.question("hq-rallies").reading_options == {}


def test_a_calibre_may_be_given_as_the_card_writes_it():
    """A calibre is what ``gun_for_calibre`` takes, its declared input: millimetres or words."""
    text = (
        'game = "pz8"\n[[question]]\nid = "x"\nrule = "r"\nask = "a"\nkind = "destroy_chance"\n'
        'calibre = "2 pounder"\ntarget_class = "medium"\nanswer = "30-50%"\n'
    )
    q = quiz.from_toml(text, source="q.toml").question("x")
    assert q.answer().steps[0].text == "a 2 pounder gun is a short gun"
    assert q.answer().value == Fraction(91, 216)


# --- the words agree with the situation ------------------------------------------------------


def _inside(point, polygon) -> bool:
    """Whether ``point`` is inside ``polygon`` (crossings of a ray to the right)."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _moves_agree(q) -> bool:
    """A tank moved by the question is said to be in a piece of terrain it names just when it
    is inside it ("into the birch wood"), and not round its edge when it is inside."""
    for tank in q.setting("moves") or {}:
        where = q.board.piece(tank).position
        for piece in q.board.terrain:
            named = piece.name.lower() in q.ask.lower() or piece.name.split()[-1] in q.ask
            if not named:
                continue
            said_in = bool(re.search(rf"\b(?:in|into) the {piece.name}", q.ask))
            said_out = bool(re.search(r"round the|'s edge|edge of|beside the|past the", q.ask))
            if _inside(where, list(piece.points)) != said_in or (said_in and said_out):
                return False
    return True


def _shot_names(q) -> str:
    return " ".join(s.text for s in q.answer().steps)


PZ8_CLAIMS = [
    (r"moves|drives|stops", lambda q, g: _moves_agree(q)),
    (
        r"(?:fires|past|beside|across)[^.]*?\b(farmhouse|Hill 112|stone wall|birch wood)\b",
        lambda q, g: f"'{g[0]}'" in _shot_names(q),
    ),
    (r"in plain view", lambda q, g: "is seen: in the open" in _shot_names(q)),
    (r'just under (\d+)"', lambda q, g: int(g[0]) - 1 < q.answer().result.distance < int(g[0])),
    (r"(T-34 \d|KV-1|Pz IV \d|Tiger) is shaken", lambda q, g: q.board.piece(g[0]).shaken),
    (r"The (T-60) is a wreck", lambda q, g: q.board.piece(g[0]).destroyed),
    (r"veteran", lambda q, g: q.setting("veteran") is True),
    (r"\bHQ (?:tank )?(?:with [a-z ]+ )?tries to rally itself", lambda q, g: q.setting("is_hq")),
    (r'more than 12" from its HQ', lambda q, g: q.setting("hq_within_12") is False),
    (r"(short|medium|long) gun \(", lambda q, g: q.setting("gun") in (None, g[0])),
    (r"at a (light|medium|heavy) tank", lambda q, g: q.setting("target_class") == g[0]),
    (r"medium tank in cover", lambda q, g: q.setting("cover") is True),
    (r"A shaken tank with a short gun", lambda q, g: q.setting("shaken") is True),
]


def untrue(q) -> list[str]:
    """The claims of ``q``'s words its situation does not bear out, each as the words say it."""
    wrong = []
    for pattern, holds in PZ8_CLAIMS:
        for match in re.finditer(pattern, q.ask):
            if not holds(q, match.groups()):
                wrong.append(f"{q.id}: {match.group(0)!r}")
    return wrong


@pytest.mark.parametrize("qid", [q.id for q in QUIZ.questions])
def test_a_shipped_question_says_only_what_its_situation_bears_out(qid):
    assert untrue(QUIZ.question(qid)) == []


@pytest.mark.parametrize(
    "qid, old",
    [
        ("tiger-past-the-farmhouse", "The Tiger fires at T-34 1 across the edge of Hill 112."),
        ("tiger-moves-up", "The Tiger drives round the wood's edge to (14, 20)."),
    ],
)
def test_the_check_finds_the_untrue_words_of_issue_29(qid, old):
    """The wordings issue 29 found untrue are caught by the check (and so would be again)."""
    assert untrue(replace(QUIZ.question(qid), ask=old)) != []


@pytest.mark.parametrize("kind", ["shot", "targets", "destroy_chance", "platoon", "rally"])
def test_a_drawn_question_is_true_and_allowed(kind):
    """Every kind whose words make claims, over many seeds (every fifth for those that work
    out many shots): its words agree with its situation, and one attack's chance is asked of a
    tank that can shoot."""
    seeds = range(0, 400, 5) if kind in ("targets", "destroy_chance") else range(400)
    wrong = []
    for seed in seeds:
        q = quiz.random_question("pz8", kind, seed)
        wrong += untrue(q)
        if kind == "destroy_chance" and not q.answer().result.can_shoot:
            wrong.append(f"{q.id}: no shot, so no attack to destroy with")
    assert wrong == []
