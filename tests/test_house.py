"""The shape of the package (README, "The package"): floors that only look down, no circle of
imports, parts a reader can hold, and no game named outside its own rooms.

Every import counts, at any depth of the code, except inside a ``_repr_*_`` method: a board
may draw itself in Jupyter, as python-chess's does.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "wbk"
MOST_MODULE_LINES, MOST_CLASS_LINES, MOST_FUNCTION_LINES = 1000, 400, 100
#: The rule sets: the packages under wbk/games/, never a written-out list.
GAMES = tuple(sorted(p.parent.name for p in (PACKAGE / "games").glob("*/__init__.py")))

#: Each floor, lowest first, by the module names that start it: a module imports only from
#: its own floor or those below. Inside a game's folder a module's floor is its role, read from
#: its name (``ROLES``).
FLOORS = {
    "rules and data": ("wbk", "wbk.errors", "wbk.checks", "wbk.explain", "wbk.dice",
                       "wbk.hexgrid", "wbk.datafile", "wbk.maps", "wbk.table", "wbk.readings",
                       "wbk.quiz", "wbk.games"),
    "drawing": ("wbk.draw",),
    "panels": ("wbk.widgets",),
    "publishing": (
        "wbk.publish",
        "wbk.appsettings",
        "wbk.appserver",
        "wbk.appkernel",
        "wbk.appguests",
        "wbk.lab",
        "wbk.jupyter_config",
        "wbk.site",
        "wbk.voila_templates",
        "wbk.cli",
    ),
}  # fmt: skip
#: A game module's floor by the start of a part of its name below the game's folder: drawing
#: modules draw, panel modules build controls, the rest are the rules.
ROLES = {"draw": "drawing", "picture": "drawing", "panel": "panels", "widget": "panels"}
#: Libraries that belong to a floor: rules never draw, drawing never builds a control.
LIBRARIES = {"matplotlib": "drawing", "ipywidgets": "panels", "ipympl": "panels",
             "anywidget": "panels"}  # fmt: skip


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def floor(name: str) -> int | None:
    """The floor of a module or library (its number), None for one that has none."""
    top = name.split(".")[0]
    if top in LIBRARIES:
        return list(FLOORS).index(LIBRARIES[top])
    parts = name.split(".")
    if parts[:2] == ["wbk", "games"] and len(parts) > 3:
        for part in parts[3:]:
            for start, role in ROLES.items():
                if part.startswith(start):
                    return list(FLOORS).index(role)
    best = None
    for number, starts in enumerate(FLOORS.values()):
        for start in starts:
            if (name == start or name.startswith(start + ".")) and (
                best is None or len(start) > len(best[1])
            ):
                best = (number, start)
    return best[0] if best else None


def imports(module: str) -> list[tuple[str, int]]:
    """(module imported, line) for every import outside a ``_repr_*_`` method."""
    tree = ast.parse(MODULES[module].read_text())
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef) and child.name.startswith("_repr_"):
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, child.lineno) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for alias in child.names:
                    inner = f"{base}.{alias.name}"
                    found.append((inner if inner in MODULES else base, child.lineno))
            visit(child)

    visit(tree)
    return found


def test_every_module_has_a_floor():
    assert [module for module in MODULES if floor(module) is None] == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_look_down(module):
    mine = floor(module)
    upward = [
        f"line {line}: {name} ({list(FLOORS)[floor(name)]})"
        for name, line in imports(module)
        if floor(name) is not None and floor(name) > mine
    ]
    assert upward == [], f"{module} ({list(FLOORS)[mine]}) imports up a floor"


def test_no_circle_of_imports():
    graph = {
        module: {name for name, _ in imports(module) if name in MODULES and name != module}
        for module in MODULES
    }
    circles = []
    state: dict[str, str] = {}

    def walk(module: str, path: list[str]) -> None:
        state[module] = "open"
        for name in sorted(graph[module]):
            if state.get(name) == "open":
                circles.append([*path[path.index(name) :], name])
            elif name not in state:
                walk(name, [*path, name])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])
    assert circles == []


def sizes(module: str) -> list[str]:
    text = MODULES[module].read_text()
    too_long = []
    if len(text.splitlines()) > MOST_MODULE_LINES:
        too_long.append(f"{len(text.splitlines())} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            lines = node.end_lineno - node.lineno + 1
            most = MOST_CLASS_LINES if isinstance(node, ast.ClassDef) else MOST_FUNCTION_LINES
            if lines > most:
                too_long.append(f"{node.name} (line {node.lineno}): {lines} lines")
    return too_long


@pytest.mark.parametrize("module", sorted(MODULES))
def test_parts_are_short_enough_to_read(module):
    assert sizes(module) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_game_is_named_only_in_its_own_rooms(module):
    """Shared code finds the games through ``wbk.games.games()``: naming one would make a fifth
    rule set edit it."""
    tree = ast.parse(MODULES[module].read_text())
    named = set()
    for node in ast.walk(tree):
        words = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = [node.value]
        elif isinstance(node, ast.alias):
            words = node.name.split(".")
        elif isinstance(node, ast.ImportFrom) and node.module:
            words = node.module.split(".")
        named.update(word for word in words if word in GAMES)
    assert named <= set(module.split(".")), f"{module} names {sorted(named)}"


def test_a_game_lives_in_its_own_folder():
    """No game's drawings or panels in a tree of their own beside the shared ones."""
    elsewhere = [
        path.relative_to(ROOT).as_posix()
        for tree in ("draw", "widgets")
        for game in GAMES
        for path in (PACKAGE / tree / game, PACKAGE / tree / f"{game}.py")
        if path.exists()
    ]
    assert elsewhere == []
