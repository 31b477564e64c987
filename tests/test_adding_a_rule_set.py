"""A rule set of one's own joins wbk by registering itself (README, "Adding a rule set"): the
toy in tests/toy_rules registers one rule, one reading, one kind of quiz question and one
picture, and the shared code (pictures, quizzes, the site's rules-by-number index) finds them
without a line of it edited. Every test runs twice: on tests/toy_rules, and on the README's
three code blocks written out as that package, so that the README shows what works."""

import importlib
import re
import sys
from pathlib import Path

import pytest

from wbk import games, pictures, publish, quiz


def _forget_the_toy() -> None:
    games.unregister("toy")
    for name in [n for n in sys.modules if n == "toy_rules" or n.startswith("toy_rules.")]:
        del sys.modules[name]


def _readme_toy(folder: Path) -> Path:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adding a rule set", 1)[1].split("\n## ", 1)[0]
    rules, quiz_kinds, drawing = re.findall(r"```python\n(.*?)```", section, re.S)
    package = folder / "toy_rules"
    package.mkdir()
    for name, text in (("__init__", rules), ("quiz", quiz_kinds), ("draw", drawing)):
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(params=["tests/toy_rules", "the README"])
def toy(request, tmp_path, monkeypatch):
    """The toy, imported afresh (importing it registers it), and forgotten afterwards."""
    if request.param == "the README":
        monkeypatch.syspath_prepend(str(_readme_toy(tmp_path)))
    _forget_the_toy()
    yield importlib.import_module("toy_rules")
    _forget_the_toy()


def test_the_toy_is_a_game(toy):
    found = games.game("toy")
    assert found.title == "Toy Skirmish"
    assert found.readings["sixes"].default == "needs_the_number"
    assert "toy" in games.games()


def test_a_picture_of_the_toys_result(toy):
    figure = pictures.picture(toy.shot(7, sixes="always_hits"))
    assert figure.axes[0].get_title() == "Needs 7+: hits 1/6"
    at_step = pictures.picture(toy.shot(5), step=-1)
    assert at_step.axes[0].get_title() == (
        "Step 2: a 6 hits only when the range band allows a 6: 2 faces of 6 hit (Toy Skirmish 1.1)"
    )


def test_a_quiz_of_the_toy(toy):
    toml = """
game = "toy"

[[question]]
id = "long-range"
kind = "hit_chance"
rule = "Toy Skirmish 1.1"
ask = "At long range a squad needs 7 or more. What is its chance?"
needed = 7
answer = "under 10%"
"""
    q = quiz.from_toml(toml).question("long-range")
    assert q.answer().value == 0
    assert q.is_right("under 10%")
    assert q.reading_notes() == [
        "Read as 'a natural 6 always hits', the answer changes: 10-30%: 1/6 (16.67%)."
    ]
    assert quiz.kinds("toy") == {"hit_chance": "chance the shot hits"}
    drawn = quiz.random_question("toy", "hit_chance", 3)
    assert drawn.answer().value == toy.shot(drawn.settings["needed"]).chance
    with pytest.raises(Exception, match="the file says 50-70%, but wbk works out under 10%"):
        quiz.from_toml(toml.replace('answer = "under 10%"', 'answer = "50-70%"'))


def test_the_toys_rules_in_the_sites_index(toy):
    chapter = publish.Section("toy.html", "toy", "Toy Skirmish: shooting", 1)
    rule = publish.Section("toy.html", "rule-1-1", "1.1 Shooting", 2, prose=["Shooting is 1.1."])
    worked = publish.Section(
        "toy.html", "worked", "A shot", 2, outputs=["a hit on 5 or more (Toy Skirmish 1.1)"]
    )
    quizzed = publish.Section("toy.html", "quiz", "Quiz", 2, prose=["Asked before it is told."])
    index = publish.rule_sections([chapter, rule, worked, quizzed])
    assert [(r.game, r.rule) for r in index] == [("Toy Skirmish", "1.1")]
    assert [s.id for s in index[0].computed] == ["worked"]
    assert [s.id for s in index[0].taught] == ["rule-1-1"]
    assert [s.id for s in index[0].quizzed] == ["quiz"]
    html = publish.rule_index_html(index, "../")
    assert '<h2 id="toy-skirmish">Toy Skirmish</h2>' in html
    assert 'href="../toy.html#worked"' in html


def test_once_unregistered_the_toy_is_gone(toy):
    games.unregister("toy")
    assert "toy" not in games.games()
    with pytest.raises(Exception, match="game 'toy' is not one of blitz"):
        quiz.kinds("toy")
