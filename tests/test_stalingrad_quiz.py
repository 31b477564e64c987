"""Streets of Stalingrad's quiz (test_quiz's checks, for its shipped and drawn questions): every
kind answers as the rules do, the readings change the answers they should, and the words of a
question, shipped or drawn, say only what its situation bears out."""

import re

import pytest
from test_quiz import HEX

from wbk import quiz
from wbk.errors import WbkError

SHIPPED = quiz.shipped("stalingrad")

EXPECTED = {
    "example-bonus-column": "20-29",
    "example-defender-fires-first": "4",
    "example-bonus-allowed": True,
    "bonus-pinned-infantry": False,
    "one-way-out": frozenset({"1314"}),
    "shared-hex": 1,
    "bunker-and-dug-in-tank": 2,
}


@pytest.mark.parametrize("qid", list(EXPECTED))
def test_questions_answer_as_the_rules_do(qid):
    assert SHIPPED.question(qid).answer().value == EXPECTED[qid]


@pytest.mark.parametrize(
    "qid, right, wrong",
    [
        ("last-column", "30+", "20-29"),
        ("bunker-retreat-hexes", ["1414", "1314", "1214", "1213"], ["1314"]),
    ],
)
def test_is_right(qid, right, wrong):
    q = SHIPPED.question(qid)
    assert q.is_right(right) and not q.is_right(wrong)


def test_a_learner_s_column_not_on_the_table_is_named():
    q = SHIPPED.question("example-column")
    with pytest.raises(WbkError, match="answer '11-19' is not one of 1, 2, 3, 4, 5-9, 10-19"):
        q.is_right("11-19")


@pytest.mark.parametrize(
    "qid, reading, other",
    [
        ("four-units-split", "retreat_into", "one_hex"),
        ("minefield-in-the-stack", "minefields_and_bridges", "do_not_count"),
    ],
)
def test_each_reading_changes_one_shipped_answer(qid, reading, other):
    q = SHIPPED.question(qid)
    assert q.answer().value != q.answer(**{reading: other}).value
    said = quiz.reading("stalingrad", reading).sentence(other)
    assert any(n.startswith(f"Read as '{said}', the answer changes") for n in q.reading_notes())
    assert f"{reading}=" not in " ".join(q.reading_notes())  # words, not keys


# --- the words agree with the situation (test_quiz's check, Stalingrad's claims) --------------


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


def untrue(q) -> list[str]:
    """The claims of ``q``'s words its situation does not bear out, each as the words say it."""
    wrong = []
    for pattern, holds in STALINGRAD_CLAIMS:
        for match in re.finditer(pattern, q.ask):
            if not holds(q, match.groups()):
                wrong.append(f"{q.id}: {match.group(0)!r}")
    return wrong


@pytest.mark.parametrize("qid", [q.id for q in SHIPPED.questions])
def test_a_shipped_question_says_only_what_its_situation_bears_out(qid):
    assert untrue(SHIPPED.question(qid)) == []


@pytest.mark.parametrize("kind", list(quiz.kinds("stalingrad")))
def test_a_drawn_question_is_true_and_allowed(kind):
    """Every kind over many seeds: its words agree with its situation, and a "P" falls on a hex
    9.87 or 9.88 speaks of."""
    wrong = []
    for seed in range(400):
        q = quiz.random_question("stalingrad", kind, seed)
        wrong += untrue(q)
        if kind.startswith("retreat") and q.answer().result.terrain == "other":
            wrong.append(f'{q.id}: a "P" on {q.settings["target"]}, a hex no rule covers')
    assert wrong == []
