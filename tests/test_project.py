import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent


def normalise(requirement: str) -> tuple[str, str]:
    name, spec = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", requirement.strip()).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


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


def test_rules_layers_do_not_import_presentation():
    # top-level imports only: drawing itself in Jupyter imports wbk.plot inside _repr_png_, as
    # python-chess does
    below_the_face = [
        "hexgrid",
        "dice",
        "maps",
        "errors",
        "checks",
        "explain",
        "datafile",
        "games/ss_panzer",
        "games/blitz",
        *(f"games/stalingrad/{p.stem}" for p in (ROOT / "wbk/games/stalingrad").glob("*.py")),
    ]
    for module in below_the_face:
        source = (ROOT / "wbk" / f"{module}.py").read_text()
        assert not re.search(
            r"^(import|from) (matplotlib|ipywidgets|ipympl|numpy|wbk\.(plot|charts|widgets))",
            source,
            re.M,
        ), module
    # the table geometry measures with shapely, which needs numpy, and the fast lines of sight
    # gather with numpy: numpy is allowed there, drawing is not
    on_shapely = ["table", "games/pz8", "sightlines"]
    for module in on_shapely:
        source = (ROOT / "wbk" / f"{module}.py").read_text()
        assert not re.search(
            r"^(import|from) (matplotlib|ipywidgets|ipympl|wbk\.(plot|charts|widgets))",
            source,
            re.M,
        ), module


def test_importing_the_rules_loads_no_presentation_library():
    import subprocess
    import sys

    code = (
        "import sys, wbk, wbk.games.blitz, wbk.games.ss_panzer, wbk.games.stalingrad; "
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_importing_the_table_rules_loads_no_drawing_library():
    # shapely brings numpy; drawing (wbk.tableplot) is imported only inside Table._repr_png_
    import subprocess
    import sys

    code = (
        "import sys, wbk.table, wbk.games.pz8; print(sorted(m for m in "
        "('matplotlib', 'ipywidgets', 'wbk.tableplot') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
