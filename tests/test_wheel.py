"""wbk without a clone (issue 42): the sdist and the wheel built from this checkout pass twine's
check, and the wheel, installed with its site extra into a throwaway virtual environment, gives
a `wbk` command that works in an empty folder: its help, its lab's help, and a whole site of
every chapter. The packages come from uv's cache, which make filled from requirements.lock,
never from the network."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from wbk import __version__
from wbk.games import chapters

ROOT = Path(__file__).parent.parent
UV = Path(sys.executable).parent / "uv"

pytestmark = pytest.mark.slow  # a build, an install and a site: left out by make test-fast


def run(*command, cwd: Path) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(map(str, command))}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The folder of the `wbk` command of the wheel built from the checkout, installed alone."""
    work = tmp_path_factory.mktemp("wheel")
    run(UV, "build", "--offline", "-q", "--out-dir", work / "dist", ROOT, cwd=work)
    (wheel,) = (work / "dist").glob("wbk-*.whl")
    run(
        sys.executable, "-m", "twine", "check", "--strict", *(work / "dist").glob("wbk-*"), cwd=work
    )
    run(UV, "venv", "-q", "--python", sys.executable, work / "venv", cwd=work)
    # what a clone's install leaves out (pyproject's [tool.uv]), the wheel's install leaves out
    overrides = work / "overrides.txt"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    overrides.write_text("\n".join(project["tool"]["uv"]["override-dependencies"]) + "\n")
    python = work / "venv" / "bin" / "python"
    requirement = f"{wheel}[site]"
    lock, offline = ROOT / "requirements.lock", "--offline"
    run(UV, "pip", "install", "-q", offline, "--python", python, requirement, "-c", lock,
        "--override", overrides, cwd=work)  # fmt: skip
    return work / "venv" / "bin"


def test_the_wheel_holds_the_version_written_once(installed):
    said = run(installed / "wbk", "--version", cwd=installed)
    assert said.strip() == f"wbk {__version__}"


def test_the_installed_command_says_what_it_does(installed, tmp_path):
    said = run(installed / "wbk", "--help", cwd=tmp_path)
    for command in ("lab", "site", "app", "notebooks"):
        assert f"\n    {command} " in said or f"\n    {command}\n" in said, command
    lab = run(installed / "wbk", "lab", "--help", cwd=tmp_path)
    assert "usage: wbk lab [-h] [FOLDER]" in lab and "JupyterLab" in lab
    app = run(installed / "wbk", "app", "--help", cwd=tmp_path)
    assert "--kernel-memory MB" in app and "--token TOKEN" in app
    assert list(tmp_path.iterdir()) == []  # asking for help writes nothing


def test_the_installed_command_builds_the_site_in_an_empty_folder(installed, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MPLBACKEND")}
    done = subprocess.run(
        [installed / "wbk", "site", "--out", "site"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    site = tmp_path / "site"
    assert done.stdout.strip() == f"site built: {site / 'index.html'}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # nothing else left behind
    for chapter in chapters():
        assert (site / f"{chapter.stem}.html").is_file(), chapter.name
    for page in ("index", "search", "reference/api", "reference/adding-a-rule-set"):
        assert (site / f"{page}.html").is_file(), page
    api = (site / "reference" / "api.html").read_text(encoding="utf-8")
    assert "wbk.hexgrid.trace" in api and "QuizKind" in api  # autodoc ran over the installed wbk
    # a folder of the reader's own is never emptied for a site
    again = subprocess.run(
        [installed / "wbk", "site", "--out", "."], cwd=tmp_path, capture_output=True, text=True
    )
    assert again.returncode == 2 and "holds files of its own" in again.stderr
    assert (site / "index.html").is_file()
