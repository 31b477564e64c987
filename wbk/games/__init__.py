"""The rule sets wbk knows: each one folder, found as Django finds its apps and pytest its plugins.

A rule set is a Python package whose ``__init__`` declares it in one line::

    GAME = Game("Toy Skirmish", cites=("Toy Skirmish",), readings=READINGS)

wbk's own are the packages of ``wbk.games``, each known by its folder's name ("ss_panzer");
anyone else's is an installed package listed in the entry-point group ``wbk.games`` (in its
``pyproject.toml``: ``[project.entry-points."wbk.games"]`` then ``toy = "toy_rules"``), known by
the entry point's name ("toy"), as Django knows an app by its label. Shared code (quizzes,
pictures, panels, the site, the app) names no game: it asks ``games()``.

The registry finds a rule set's parts by their names in its package, never by module names
written in strings:

- ``quiz``: a module whose ``QUIZ`` (``wbk.quiz.GameQuiz``) lists its kinds of question, and
  ``quiz.toml`` beside it, the quiz it ships;
- ``draw``: a module (or package) that registers the pictures of its results with ``wbk.draw``;
- ``panels``: a module (or package) of its panels, the edge-case ones among them;
- its chapters: the notebooks (``*.ipynb``) in its folder.

Every part but the rules is optional. The rules and the quiz are checked when the rule set
registers; drawings and panels, which load matplotlib and ipywidgets, when first wanted. A part
that is missing or broken is one ``WbkError`` line naming the rule set and the part.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import pkgutil
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FunctionType, ModuleType

from wbk.errors import WbkError
from wbk.readings import Reading

#: The entry-point group an installed rule set names itself in.
ENTRY_POINTS = "wbk.games"
#: wbk's chapters that belong to no rule set (hex geometry, reading a distribution).
GENERAL_CHAPTERS = Path(__file__).parent.parent / "chapters"
#: A rule set's key: what files, links and quizzes call it.
KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


@dataclass(frozen=True)
class Game:
    """A rule set, as its package declares it (``GAME = Game(...)``).

    - ``title``: its name in words ("SS Panzer errata");
    - ``cites``: how its steps cite its rules ("SS Panzer" finds "SS Panzer errata 9.4"), for
      the site's rules-by-number index;
    - ``readings``: every reading it names, by keyword (``wbk.readings.readings_by_keyword``);
    - ``key`` and ``package``, filled in by the registry: its name in files, links and code
      (its folder's or its entry point's: "ss_panzer") and the package it was found in.
    """

    title: str
    cites: tuple[str, ...]
    readings: Mapping[str, Reading] = field(default_factory=dict)
    key: str = ""
    package: str = ""

    @property
    def folder(self) -> Path:
        """The rule set's folder: its package's."""
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise WbkError(f"rule set {self.key!r}: {self.package} is not a package")
        return Path(next(iter(spec.submodule_search_locations)))

    def has(self, part: str) -> bool:
        """Whether the rule set has the part called ``part`` ("quiz", "draw", "panels")."""
        return importlib.util.find_spec(f"{self.package}.{part}") is not None

    def part(self, part: str) -> ModuleType:
        """The part called ``part``, imported; missing or broken, a ``WbkError`` naming it."""
        name = f"{self.package}.{part}"
        if not self.has(part):
            raise WbkError(f"rule set {self.key!r} has no {part} (no module {name})")
        try:
            return importlib.import_module(name)
        except Exception as e:  # any fault of its code: named in one line, not a traceback
            raise WbkError(
                f"rule set {self.key!r}: its {part} ({name}) fails to import: "
                f"{type(e).__name__}: {e}"
            ) from None

    @property
    def shipped_quiz(self) -> Path | None:
        """The quiz the rule set ships (``quiz.toml`` in its folder), or None."""
        path = self.folder / "quiz.toml"
        return path if path.is_file() else None

    @property
    def chapters(self) -> tuple[Path, ...]:
        """The rule set's chapters: the notebooks in its folder."""
        return tuple(sorted(self.folder.glob("*.ipynb")))


_GAMES: dict[str, Game] = {}
_found = False


def register(package: ModuleType, key: str = "") -> Game:
    """Make the rule set ``package`` declares (its ``GAME``) known as ``key`` (by default the
    package's own name) to quizzes, pictures, panels, the site and the app, its parts checked
    first (again: replaces it). ``games()`` registers wbk's own and the installed ones; a test
    or a notebook may hand one in."""
    if not isinstance(package, ModuleType) or not hasattr(package, "__path__"):
        raise WbkError(f"{package!r} is not a package (a rule set is one folder)")
    name = package.__name__
    key = key or name.rpartition(".")[2]
    declared = getattr(package, "GAME", None)
    if not isinstance(declared, Game):
        raise WbkError(f"rule set {key!r}: {name} declares no GAME = wbk.games.Game(...)")
    if not isinstance(key, str) or not KEY.fullmatch(key) or key == "wbk":
        raise WbkError(
            f"rule set {key!r} ({name}): a key is lowercase letters, digits and _ (at most 40), "
            "and not wbk"
        )
    taken = _GAMES.get(key)
    if taken is not None and taken.package != name:
        raise WbkError(f"rule set {key!r} ({name}): the key is taken by {taken.package}")
    if not isinstance(declared.title, str) or not declared.title.strip():
        raise WbkError(f"rule set {key!r}: title {declared.title!r} is not text")
    if not isinstance(declared.cites, tuple) or not all(
        isinstance(c, str) and c for c in declared.cites
    ):
        raise WbkError(f"rule set {key!r}: cites {declared.cites!r} is not a tuple of text")
    game = replace(declared, key=key, package=name)
    _check_quiz(game)
    _check_chapters(game)
    _GAMES[key] = game
    return game


def _check_quiz(game: Game) -> None:
    """A quiz file needs kinds of question to ask it with, and those must be a ``GameQuiz``."""
    if not game.has("quiz"):
        if game.shipped_quiz is not None:
            raise WbkError(
                f"rule set {game.key!r} ships quiz.toml but has no quiz (no module "
                f"{game.package}.quiz declaring QUIZ = GameQuiz(...))"
            )
        return
    declared = getattr(game.part("quiz"), "QUIZ", None)
    # a quiz module declares its QUIZ with wbk.quiz, which it has imported by then (the registry
    # sits below wbk.quiz and does not import it)
    quizzes = sys.modules.get("wbk.quiz")
    if quizzes is None or not isinstance(declared, quizzes.GameQuiz):
        raise WbkError(
            f"rule set {game.key!r}: its quiz ({game.package}.quiz) declares no "
            "QUIZ = GameQuiz(...)"
        )


def _check_chapters(game: Game) -> None:
    """A chapter is served and published by its file name: two rule sets may not ship one, nor
    one of wbk's general chapters."""
    mine = {p.name for p in game.chapters}
    others = [("wbk", {p.name for p in GENERAL_CHAPTERS.glob("*.ipynb")})]
    others += [(o.key, {p.name for p in o.chapters}) for o in _GAMES.values() if o.key != game.key]
    for key, theirs in others:
        same = mine & theirs
        if same:
            raise WbkError(
                f"rule set {game.key!r}: its chapter {sorted(same)[0]} has the name of one of "
                f"{key!r}'s"
            )


def unregister(key: str) -> None:
    """Forget the rule set called ``key`` (a test's toy, say)."""
    _GAMES.pop(key, None)


def games() -> dict[str, Game]:
    """Every rule set, by key: wbk's own packages and the installed ones (found the first time
    it is asked), and any handed to ``register``."""
    global _found
    if not _found:
        _found = True
        own = [f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if m.ispkg]
        for name in own:
            register(importlib.import_module(name))
        for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
            try:
                package = entry.load()
            except Exception as e:  # a broken installed rule set: named in one line
                raise WbkError(
                    f"rule set {entry.name!r} ({entry.value}, entry point {ENTRY_POINTS}) fails "
                    f"to import: {type(e).__name__}: {e}"
                ) from None
            register(package, entry.name)
    return dict(sorted(_GAMES.items()))  # the same order whichever was found first


def game(key: object) -> Game:
    """The rule set called ``key``; an unknown one is a ``WbkError`` naming those there are."""
    known = games()
    if not isinstance(key, str) or key not in known:
        raise WbkError(f"game {key!r} is not one of {', '.join(known)}")
    return known[key]


def chapters() -> list[Path]:
    """Every chapter the workbook has, by file name: wbk's general ones and each rule set's
    (the notebooks in its folder), so that a chapter added to a rule set's folder is in the
    site, the app and the workbook without a list to edit."""
    found = [*GENERAL_CHAPTERS.glob("*.ipynb")]
    for rules in games().values():
        found += rules.chapters
    return sorted(found, key=lambda path: path.name)


def game_of(thing: object) -> Game | None:
    """The rule set whose package defines ``thing``'s type (a result, a kind of question, a
    panel), or None for one of wbk's shared types."""
    module = thing.__module__ if isinstance(thing, type | FunctionType) else type(thing).__module__
    for found in games().values():
        if module == found.package or module.startswith(found.package + "."):
            return found
    return None
