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
    game = min(key for key, found in games().items() if found.shipped_quiz)
    path = tmp_path / "mine.toml"
    path.write_text(_text(game), encoding="utf-8")
    assert [q.id for q in quiz.load(path).questions] == [q.id for q in quiz.shipped(game).questions]


@pytest.mark.parametrize(
    "text, message",
    [
        (
            'game = "chess"\n',
            f"q.toml: game: 'chess' is not one of {', '.join(games())}",
        ),
        (f'game = "{min(games())}"\n', "q.toml: question: missing"),
        (f'game = "{min(games())}"\nlevel = 3\n', "q.toml: level: unknown key"),
        ("game = ", "q.toml: not valid TOML"),
    ],
)
def test_bad_quiz_headers(text, message):
    with pytest.raises(WbkError, match="^" + message):
        quiz.from_toml(text, source="q.toml")


# --- every kind answers as the rules do ------------------------------------------------------

EXPECTED = {
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
    for game, kinds in KINDS.items():
        asked = {q.kind for q in quiz.shipped(game).questions}
        assert asked == set(kinds), game


@pytest.mark.parametrize(
    "game, qid, right, wrong",
    [
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
    with pytest.raises(WbkError, match="'Panther'"):
        quiz.shipped("pz8").question("kv1-targets").is_right(["Panther"])


# --- readings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, qid, reading, other",
    [
        ("pz8", "tiger-past-the-farmhouse", "cover_reading", "half_hidden"),
        ("pz8", "natural-six", "natural_six", "always_hits"),
        ("pz8", "shaken-t34", "shaken_member", "no_platoon_move"),
        ("pz8", "veteran-hq-rallies", "veteran_hq_rally", "bonus"),
        ("pz8", "three-inch-gun", "calibre_gaps", "upper_limits"),
        ("pz8", "pz4-round-the-pz2", "pivot", "at_start"),
    ],
)
def test_each_reading_changes_one_shipped_answer(game, qid, reading, other):
    q = quiz.shipped(game).question(qid)
    assert q.answer().value != q.answer(**{reading: other}).value
    said = quiz.reading(game, reading).sentence(other)
    assert any(n.startswith(f"Read as '{said}', the answer changes") for n in q.reading_notes())
    assert f"{reading}=" not in " ".join(q.reading_notes())  # words, not keys


def test_readings_that_cannot_matter_are_not_offered():
    assert list(quiz.shipped("pz8").question("shaken-t34").reading_options) == ["shaken_member"]
    assert quiz.shipped("pz8").question("soviet-platoon").reading_options == {}


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


@pytest.mark.parametrize(
    "args, message",
    [
        (("chess", "sees", 1), "game 'chess' is not one of"),
    ],
)
def test_bad_random_requests(args, message):
    with pytest.raises(WbkError, match=message):
        quiz.random_question(*args)


def test_the_readme_example_loads_and_answers():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Writing a quiz") :]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    loaded = quiz.from_toml(example, source="README")
    assert [q.answer().value for q in loaded.questions] == [False, False, 6]
    assert loaded.question("wood-beside-the-line").readings == {"edge": "either"}


def test_a_quiz_file_names_a_game_only_from_the_registry():
    """A stranger's quiz file names a game; the name is looked up among the registered games,
    never imported: a module path or a game's quiz module by name is refused, nothing loaded."""
    import sys

    for name in ("os.path", "wbk.games.pz8.quiz", "wbk.widgets", "../../etc/passwd"):
        before = set(sys.modules)
        with pytest.raises(WbkError, match=rf"game: .* is not one of {', '.join(games())}"):
            quiz.from_toml(f'game = "{name}"\n[[question]]\nid = "x"\n', source="q.toml")
        assert set(sys.modules) - before == set(), name


# --- the text settles a reading --------------------------------------------------------------


def test_a_veteran_hq_rallying_itself_is_asked_under_its_reading():
    q = quiz.shipped("pz8").question("veteran-hq-rallies")
    assert q.reading_options == {"veteran_hq_rally": ("no_bonus", "bonus")}
    assert q.answer().value == Fraction(1, 2)
    assert q.answer(veteran_hq_rally="bonus").value == Fraction(2, 3)
    assert q.answer().steps[-1].rule == (
        "Pz 8, Optional Rule: Shaken, reading: a veteran HQ rallies itself on 4-6, like any HQ"
    )
    assert quiz.shipped("pz8").question("hq-rallies").reading_options == {}


# --- the words agree with the situation ------------------------------------------------------
# What a program can tell of a question's words: the hexes and hexsides a line of sight is said
# to pass, a point said to be in a wood or not, a tank said to be in plain view, a hex said to be
# clear or bombarded, a unit said to have moved or not, the numbers the words give. Each check is
# (a pattern of the words, whether the situation bears out one match).

HEX = r"\b(\d{4})\b"
SIDE = r"\b(\d{4})/(\d{4})\b"


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


CLAIMS = {
    **{("pz8", k): PZ8_CLAIMS for k in ("shot", "targets", "destroy_chance", "platoon", "rally")},
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
            "pz8",
            "tiger-past-the-farmhouse",
            "The Tiger fires at T-34 1 across the edge of Hill 112.",
        ),
        ("pz8", "tiger-moves-up", "The Tiger drives round the wood's edge to (14, 20)."),
    ],
)
def test_the_check_finds_the_untrue_words_of_issue_29(game, qid, old):
    """The wordings issue 29 found untrue are caught by the check (and so would be again)."""
    q = quiz.shipped(game).question(qid)
    assert untrue(replace(q, ask=old)) != []


def _drawn_situation_is_allowed(q) -> list[str]:
    """What the rules allow and a drawn question must keep to: one attack's chance is asked of a
    tank that can shoot (each rule set's own in its test module)."""
    if q.game == "pz8" and q.kind == "destroy_chance" and not q.answer().result.can_shoot:
        return [f"{q.id}: no shot, so no attack to destroy with"]
    return []


DRAWN = [(game, kind) for game, kinds in KINDS.items() for kind in kinds]


@pytest.mark.parametrize("game, kind", DRAWN)
def test_a_drawn_question_is_true_allowed_and_complete(game, kind):
    """Every kind over many seeds: its words agree with its situation, the situation is one the
    rules allow, and the words say what the answer hangs on (a unit's moving, a rally's HQ)."""
    seeds = range(400) if (game, kind) not in SLOW_DRAWS else range(0, 400, 5)
    wrong = []
    for seed in seeds:
        q = quiz.random_question(game, kind, seed)
        wrong += untrue(q) + _drawn_situation_is_allowed(q)
        if kind == "rally" and not q.settings.get("is_hq"):
            said = "of its HQ" in q.ask or "from its HQ" in q.ask
            wrong += [] if said else [f"{q.id}: says nothing of where its HQ is"]
    assert wrong == []


#: the kinds whose 400 draws would take seconds each: every fifth seed of them
SLOW_DRAWS = {
    ("pz8", "targets"),
    ("pz8", "destroy_chance"),
    ("pz8", "reach"),
}
