"""A rule set of one's own is one folder (the site's "Adding a rule set"): the toy in
tests/toy_rules is a whole one, and the shared code (the registry, pictures, quizzes, panels,
the site's rules-by-number index) finds its parts without a line of it edited. The toy is
handed in, copied into wbk's own games under other names, and installed as a package with an
entry point; the reference page shows its files as they are."""

import importlib
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import wbk.games
from wbk import draw, publish, quiz
from wbk.errors import WbkError
from wbk.games import games, register, unregister
from wbk.widgets import edge_case_panel

TOY = Path(__file__).parent / "toy_rules"
ROOT = Path(__file__).parent.parent


@pytest.fixture
def toy():
    """The toy, handed to the registry as a rule set in the making is, and forgotten after."""
    package = importlib.import_module("toy_rules")
    register(package, "toy")
    yield package
    unregister("toy")


@pytest.fixture
def fresh_registry(monkeypatch):
    """The registry found afresh (wbk's folders and the installed entry points), and as it was
    again after the test."""
    monkeypatch.setattr(wbk.games, "_GAMES", {})
    monkeypatch.setattr(wbk.games, "_found", False)


def test_the_reference_shows_the_toys_files_as_they_are():
    section = (ROOT / "wbk/site/reference/adding-a-rule-set.md").read_text(encoding="utf-8")
    shown = dict(re.findall(r"^`([\w.]+)`:\n\n```\w+\n(.*?)```$", section, re.S | re.M))
    files = {p.name for p in TOY.iterdir() if p.suffix in (".py", ".toml")}
    assert set(shown) == files
    for name, text in shown.items():
        assert text == (TOY / name).read_text(encoding="utf-8"), name


def test_the_toy_is_a_rule_set_by_the_name_it_is_handed_in_under(toy):
    found = wbk.games.game("toy")
    assert (found.title, found.package, found.folder) == ("Toy Skirmish", "toy_rules", TOY)
    assert found.readings["sixes"].default == "needs_the_number"
    assert found.chapters == (TOY / "toy_skirmish.ipynb",)
    assert wbk.games.game_of(toy.shot(5)) == found


def test_a_picture_of_the_toys_result_says_the_verdict_and_why(toy):
    title = draw.picture(toy.shot(7, sixes="always_hits")).axes[0].get_title()
    assert title == (
        "Needs 7+: hits 1/6 (16.67%)\na natural 6 always hits: 1 faces of 6 hit (Toy Skirmish 1.1)"
    )
    at_step = draw.picture(toy.shot(5), step=0).axes[0].get_title()
    assert at_step == "Step 1 of 2: a hit on 5 or more (Toy Skirmish 1.1)"


def test_the_toys_quiz_is_its_own_file_worked_out_again(toy):
    shipped = quiz.shipped("toy")
    assert [q.id for q in shipped.questions] == ["short-range", "long-range"]
    q = shipped.question("long-range")
    assert q.answer().value == 0 and q.is_right("under 10%")
    assert q.reading_notes() == [
        "Read as 'a natural 6 always hits', the answer changes: 10-30%: 1/6 (16.67%)."
    ]
    assert quiz.kinds("toy") == {"hit_chance": "chance the shot hits"}
    drawn = quiz.random_question("toy", "hit_chance", 3)
    assert drawn.answer().value == toy.shot(drawn.settings["needed"]).chance
    text = (TOY / "quiz.toml").read_text()
    with pytest.raises(WbkError, match="the file says 50-70%, but wbk works out under 10%"):
        quiz.from_toml(text.replace('answer = "under 10%"', 'answer = "50-70%"'), game="toy")
    with pytest.raises(WbkError, match="needed: 9 is not a whole number from 2 to 7"):
        quiz.from_toml(text.replace("needed = 7", "needed = 9"), game="toy")
    with pytest.raises(WbkError, match="'blitz' is not this quiz's rule set 'toy'"):
        quiz.from_toml('game = "blitz"\n' + text, game="toy")


def test_a_question_on_no_board_reveals_its_answers_own_picture(toy):
    """Issue 41: a question whose result is not a distribution drew nothing, silently."""
    from wbk.widgets.quiz import QuizPanel

    panel = QuizPanel.for_game("toy")
    assert panel.figures() == []  # nothing shown before the answer
    panel.answer_with("10-30%")
    panel.check()
    (figure,) = panel.figures()
    assert figure._suptitle.get_text() == "Wrong: 50-70%: 2/3 (66.67%)"
    assert figure.axes[0].get_title().startswith("Needs 3+: hits 2/3")


def test_the_toys_panel_draws_as_picture_does_and_reopens_from_its_edge_case(toy):
    panel = importlib.import_module("toy_rules.panels").shot_panel()
    panel.controls["needed"].value = 7
    panel.controls["sixes"].value = "always_hits"
    assert panel.figure.axes[0].get_title().startswith("Needs 7+: hits 1/6")
    assert "1 faces of 6 hit" in panel.pane.value
    case = panel.edge_case()
    assert case.startswith('panel = "toy.shot_panel"')
    again = edge_case_panel(case, "the link")
    assert {k: c.value for k, c in again.controls.items()} == {
        "needed": 7,
        "sixes": "always_hits",
    }


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
    unregister("toy")
    assert "toy" not in games()
    with pytest.raises(WbkError, match=f"game 'toy' is not one of {', '.join(games())}$"):
        quiz.kinds("toy")


@pytest.mark.parametrize("name", ["aardvark", "zulu_rules"])
def test_a_copy_of_the_folder_among_wbks_games_is_a_rule_set_of_its_name(
    name, tmp_path, monkeypatch, fresh_registry
):
    """The folder copied into wbk/games/ under a name sorting before or after wbk's own: the
    folder is laid beside wbk's games (wbk.games.__path__), so that no test writes into wbk."""
    shutil.copytree(TOY, tmp_path / name, ignore=shutil.ignore_patterns("*.ipynb"))
    monkeypatch.setattr(wbk.games, "__path__", [*wbk.games.__path__, str(tmp_path)])
    found = games()
    assert name in found and list(found) == sorted(found)
    copy = importlib.import_module(f"wbk.games.{name}")
    assert found[name].package == copy.__name__
    assert draw.picture(copy.shot(3)).axes[0].get_title().startswith("Needs 3+: hits 2/3")
    assert quiz.shipped(name).question("short-range").answer().value == Fraction(2, 3)
    panel = importlib.import_module(f"wbk.games.{name}.panels").shot_panel()
    assert panel.edge_case().startswith(f'panel = "{name}.shot_panel"')
    index = publish.rule_sections(
        [
            publish.Section("c.html", "c", "Toy Skirmish: shooting", 1),
            publish.Section("c.html", "w", "A shot", 2, outputs=["(Toy Skirmish 1.1)"]),
        ]
    )
    assert [(r.game, r.rule) for r in index] == [("Toy Skirmish", "1.1")]
    for module in [m for m in sys.modules if m.startswith(f"wbk.games.{name}")]:
        monkeypatch.delitem(sys.modules, module)


def test_the_folder_installed_as_a_package_is_found_by_its_entry_point(
    tmp_path, monkeypatch, fresh_registry
):
    """The toy's folder as another author's package, ``skirmish_rules``, built and installed
    (into a folder of its own on the path) with an entry point ``skirmish``."""
    project = tmp_path / "project"
    shutil.copytree(TOY, project / "skirmish_rules")
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "skirmish-rules"\nversion = "0.1"\n'
        '[project.entry-points."wbk.games"]\nskirmish = "skirmish_rules"\n'
        '[tool.setuptools.package-data]\nskirmish_rules = ["*.toml", "*.ipynb"]\n'
    )
    installed = tmp_path / "site"
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"),
            *("--no-build-isolation", "--target", str(installed), str(project)),
        ],
        check=True,
        capture_output=True,
    )
    monkeypatch.syspath_prepend(str(installed))
    found = games()["skirmish"]
    assert found.package == "skirmish_rules" and found.folder == installed / "skirmish_rules"
    assert [p.name for p in found.chapters] == ["toy_skirmish.ipynb"]
    assert quiz.shipped("skirmish").question("long-range").answer().value == 0
    rules = importlib.import_module("skirmish_rules")
    assert draw.picture(rules.shot(6)).axes[0].get_title().startswith("Needs 6+: hits 1/6")
    for module in [m for m in sys.modules if m.startswith("skirmish_rules")]:
        monkeypatch.delitem(sys.modules, module)


def test_a_rule_set_with_a_part_missing_or_broken_is_one_line_naming_it(
    tmp_path, monkeypatch, fresh_registry
):
    broken = tmp_path / "broken_rules"
    shutil.copytree(TOY, broken, ignore=shutil.ignore_patterns("*.ipynb"))
    monkeypatch.syspath_prepend(str(tmp_path))
    (broken / "quiz.py").write_text("from . import RULE\n")  # no QUIZ
    with pytest.raises(WbkError, match=r"^rule set 'broken': its quiz \(broken_rules.quiz\)"):
        register(importlib.import_module("broken_rules"), "broken")
    (broken / "quiz.py").unlink()
    monkeypatch.delitem(sys.modules, "broken_rules.quiz")
    with pytest.raises(WbkError, match=r"ships quiz\.toml but has no quiz"):
        register(importlib.import_module("broken_rules"), "broken")
    (broken / "quiz.toml").unlink()
    (broken / "draw.py").write_text("import no_such_module\n")
    rules = register(importlib.import_module("broken_rules"), "broken")
    with pytest.raises(WbkError, match=r"^rule set 'broken': its draw \(broken_rules.draw\) fails"):
        draw.picture(importlib.import_module("broken_rules").shot(5))
    # another rule set's results are drawn whatever this one's drawings do
    other = next(key for key, g in games().items() if key != "broken" and g.shipped_quiz)
    assert draw.picture(quiz.shipped(other).questions[0].answer().result)
    assert rules.key == "broken"
    for module in [m for m in sys.modules if m.startswith("broken_rules")]:
        monkeypatch.delitem(sys.modules, module)
