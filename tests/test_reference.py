"""The reference pages of the site (wbk/site/reference/) and the README: every code block is run
or checked. A Python block runs in a folder of its own; a shell block's commands are the `wbk`
command's (parsed by its own parser), make's targets, or pip installing wbk with extras it has;
a TOML block is read by the loader of its format, here or in the test module of the rule set
whose format it is (which names the page); a block that shows a file of the toy rule set is
that file as it is."""

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from wbk import cli, quiz
from wbk.maps import HexMap

ROOT = Path(__file__).parent.parent
REFERENCE = ROOT / "wbk" / "site" / "reference"
DOCUMENTS = [ROOT / "README.md", *sorted(REFERENCE.glob("*.md"))]
TOY = Path(__file__).parent / "toy_rules"
#: A fenced block, at any indent, with the line before it (a toy file's name: "`quiz.toml`:").
BLOCK = re.compile(
    r"^(?P<before>[^\n]*)\n\n(?P<indent> *)```(?P<language>[\w{}-]+)\n"
    r"(?P<code>.*?)^(?P=indent)```$",
    re.M | re.S,
)


def _blocks():
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            indent = len(match["indent"])
            code = "".join(line[indent:] + "\n" for line in match["code"].splitlines())
            line = text.count("\n", 0, match.start("indent")) + 1
            before = match["before"].strip()
            yield pytest.param(
                document, match["language"], code, before, id=f"{document.name}:{line}"
            )


BLOCKS = list(_blocks())


def test_the_pages_have_the_blocks_they_teach_with():
    languages = {p.values[1] for p in BLOCKS}
    assert {"python", "toml", "sh", "{eval-rst}"} <= languages
    assert len(BLOCKS) >= 15


@pytest.mark.parametrize("document, language, code, before", BLOCKS)
def test_every_code_block_runs(document, language, code, before, tmp_path, monkeypatch):
    shown = re.fullmatch(r"`([\w.]+)`:", before)
    if shown and (TOY / shown[1]).is_file():  # a toy file shown whole: as it is
        assert code == (TOY / shown[1]).read_text(encoding="utf-8")
    elif language == "python":
        monkeypatch.chdir(tmp_path)
        exec(compile(code, f"{document.name}", "exec"), {})
    elif language == "sh":
        for command in _commands(code):
            _check_command(command)
    elif language == "toml":
        _check_toml(document, code)
    elif language == "{eval-rst}":  # the API reference: every module it documents imports
        for module in re.findall(r"^\.\. automodule:: ([\w.]+)$", code, re.M):
            __import__(module)
    else:
        raise AssertionError(f"{document.name}: a {language} block no test runs")


def _commands(code: str) -> list[list[str]]:
    lines = (line.split("#", 1)[0].strip() for line in code.splitlines())
    return [shlex.split(line) for line in lines if line]


def _check_command(words: list[str]) -> None:
    program, *args = words
    if program == "wbk":
        try:
            known, rest = cli.parser().parse_known_args(args)
        except SystemExit as e:  # --help and --version exit, and say so with 0
            assert e.code == 0, words
            return
        assert rest == [] or known.command == "lab", words  # JupyterLab's own options
    elif program == "make":
        makefile = (ROOT / "Makefile").read_text()
        for target in args:
            assert re.search(rf"^{re.escape(target)}:", makefile, re.M), words
    elif program == "pip":
        assert args[0] == "install", words
        extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "optional-dependencies"
        ]
        for requirement in args[1:]:
            name, _, given = requirement.partition("[")
            assert name == "wbk", words
            assert set(filter(None, given.rstrip("]").split(","))) <= set(extras), words
    else:
        raise AssertionError(f"a command no test checks: {' '.join(words)}")


def _check_toml(document: Path, code: str) -> None:
    data = tomllib.loads(code)  # every block is TOML, whatever reads it
    if document.name == "maps.md":
        assert HexMap.from_toml(code, source=document.name).name == data["name"]
    elif document.name == "quizzes.md":
        assert len(quiz.from_toml(code, source=document.name).questions) == len(data["question"])
    elif document.name == "adding-a-rule-set.md":  # the entry point of a rule set's package
        assert data == {"project": {"entry-points": {"wbk.games": {"toy": "toy_rules"}}}}
    else:  # a rule set's own format: its test module reads the page's blocks
        readers = [
            path.name
            for path in Path(__file__).parent.glob("test_*.py")
            if f'reference/{document.name}"' in path.read_text(encoding="utf-8")
        ]
        assert readers, f"{document.name}: no test reads its TOML blocks"


def test_getting_started_lists_every_chapter_wbk_ships():
    from wbk.games import chapters

    page = (REFERENCE / "getting-started.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([\w.]+\.ipynb)` \|", page, re.M)
    assert sorted(listed) == sorted(path.name for path in chapters())
