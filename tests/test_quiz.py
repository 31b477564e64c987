"""wbk.quiz over every registered rule set: the shipped quizzes load, a bad file is refused in one
line, every kind is asked, and drawn questions repeat by seed. What each rule set's questions
answer, and the words of its drawn questions, are checked in its own test module
(tests/test_<game>_quiz.py)."""

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


def test_every_kind_is_asked_in_a_shipped_quiz():
    for game, kinds in KINDS.items():
        asked = {q.kind for q in quiz.shipped(game).questions}
        assert asked == set(kinds), game


def test_the_chance_bands():
    assert [name for name, _, _ in quiz.CHANCE_BANDS] == [
        "under 10%",
        "10-30%",
        "30-50%",
        "50-70%",
        "70-90%",
        "over 90%",
    ]


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


def test_the_reference_example_loads_and_answers():
    page = Path(__file__).parent.parent / "wbk/site/reference/quizzes.md"
    section = page.read_text(encoding="utf-8")
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


# --- the words agree with the situation ------------------------------------------------------
# Each rule set's test module checks what a program can tell of its questions' words (the hexes
# a line of sight is said to pass, a unit said to have moved, the numbers the words give), as
# (a pattern of the words, whether the situation bears out one match); these are the patterns
# of a hex and a hexside they share.

HEX = r"\b(\d{4})\b"
SIDE = r"\b(\d{4})/(\d{4})\b"
