import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
#: What a rules module must not import at its top: the drawing and widget libraries and wbk's
#: own presentation modules.
PRESENTATION = r"matplotlib|ipywidgets|ipympl|wbk\.(draw|widgets)"


def normalise(requirement: str) -> tuple[str, str]:
    name, spec = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", requirement.strip()).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def top_level_import(module: str, libraries: str) -> re.Match | None:
    """The first line of wbk/``module``.py that imports one of ``libraries`` (a regex)."""
    source = (ROOT / "wbk" / f"{module}.py").read_text()
    return re.search(rf"^(import|from) ({libraries})", source, re.M)


def test_the_lock_pins_a_version_of_every_package_pyproject_asks_for():
    """A clone installs requirements.lock (make lock refreshes it): each of pyproject's
    requirements, its extras' included, pinned there at a version its range takes."""
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [r for requirements in project["optional-dependencies"].values() for r in requirements]
    pinned = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        found = re.match(r"([A-Za-z0-9_.-]+)==([^\s;]+)", line)
        if found:
            pinned[found[1].lower().replace("_", "-")] = found[2]
    for text in project["dependencies"] + extras:
        requirement = Requirement(text)
        name = requirement.name.lower().replace("_", "-")
        assert name in pinned, f"{name} is not in requirements.lock: run make lock"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (text, pinned[name])


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [r for requirements in project["optional-dependencies"].values() for r in requirements]
    wanted = {normalise(r) for r in project["dependencies"] + extras}
    wanted.add(("python", project["requires-python"]))
    lines = (ROOT / "environment.yml").read_text().split("dependencies:")[1].splitlines()
    listed = {
        normalise(line.strip()[2:])
        for line in lines
        if line.strip().startswith("- ") and line.strip()[2:] not in ("pip", "pip:")
    }
    assert listed == wanted


def test_binders_post_build_fills_the_workbook_with_every_chapter(tmp_path):
    """repo2docker (Binder) runs postBuild after installing environment.yml: after installing
    wbk, its one Python step copies every chapter into notebooks/, where Binder opens."""
    from wbk.games import chapters

    steps = [
        line for line in (ROOT / "postBuild").read_text().splitlines() if line.startswith("python ")
    ]
    assert len(steps) == 1
    command = steps[0].replace("python", sys.executable, 1)
    subprocess.run(["bash", "-c", command], cwd=tmp_path, check=True, capture_output=True)
    copied = sorted(path.name for path in (tmp_path / "notebooks").glob("*.ipynb"))
    assert copied and copied == sorted(path.name for path in chapters())


def test_the_rules_need_no_numpy_at_their_top():
    """Floors are checked at every depth in test_house; here, what a rules module loads when it
    is imported: no numpy, except the table geometry (shapely needs it), Pz 8 on the table, and
    the fast lines of sight, which gather with it."""
    on_numpy = {"table", "games/pz8/__init__", "games/ss_panzer/sightlines"}
    shared = ["hexgrid", "dice", "maps", "errors", "checks", "explain", "datafile", "readings"]
    games = [
        str(p.relative_to(ROOT / "wbk").with_suffix(""))
        for p in (ROOT / "wbk/games").rglob("*.py")
        if not any(part.startswith(("draw", "panel")) for part in p.relative_to(ROOT / "wbk").parts)
    ]
    for module in shared + games:
        if module not in on_numpy:
            assert not top_level_import(module, rf"{PRESENTATION}|numpy"), module


@pytest.mark.parametrize(
    "imports, not_loaded",
    [
        (
            "wbk, wbk.games.blitz, wbk.games.ss_panzer, wbk.games.stalingrad",
            ("matplotlib", "ipywidgets", "numpy"),
        ),
        # shapely brings numpy; drawing (wbk.draw.tables) is imported only inside Table._repr_png_
        ("wbk.table, wbk.games.pz8", ("matplotlib", "ipywidgets", "wbk.draw.tables")),
    ],
    ids=["rules", "table rules"],
)
def test_importing_the_rules_loads_no_presentation_library(imports, not_loaded):
    code = f"import sys, {imports}; print(sorted(m for m in {not_loaded!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_the_tests_and_modules_conftest_names_exist():
    """conftest marks tests slow and orders modules by name: a test renamed or a module moved
    would quietly stop being left out of make test-fast or started first."""
    from conftest import LONGEST, SLOW

    for entry in SLOW:
        path, name = entry.split("::")
        assert re.search(rf"^def {name}", (ROOT / path).read_text(), re.MULTILINE), entry
    assert all((ROOT / path).is_file() for path in LONGEST)
