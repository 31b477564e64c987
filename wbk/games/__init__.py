"""The rule sets wbk knows, each a package of ``wbk.games`` that registers itself here.

Shared code (quizzes, pictures, panels, the site) names no game: it asks this registry, as
python-chess's ``VARIANTS`` list is asked for its variants. A game's package calls
``register(Game(...))`` when it is imported, and ``games()`` imports every package in
``wbk.games`` (and any module that registered a game before) the first time it is asked. A rule
set of one's own registers the same way, from anywhere (the README's "Adding a rule set").

A game says about itself: its name and how its steps cite it, its readings (``wbk.readings``),
and the modules that hold its quizzes (``wbk.quiz.GameQuiz``) and draw its results, each
imported when a quiz or a picture is first wanted, so that ``import wbk.games.blitz`` stays
light and no game module imports a floor above its own. (A chapter imports its panels itself.)
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass, field

from wbk.errors import WbkError
from wbk.readings import Reading


@dataclass(frozen=True)
class Game:
    """A rule set: what shared code needs to know of it.

    - ``key``: its name in files and code ("ss_panzer"); ``title``: in words ("SS Panzer");
    - ``cites``: how its steps cite its rules, for the site's rules-by-number index ("SS Panzer",
      which also finds "SS Panzer errata 9.4"; "Pz 8");
    - ``readings``: every reading it names, by keyword;
    - ``quiz``: the module whose ``QUIZ`` (a ``wbk.quiz.GameQuiz``) holds its kinds of question;
    - ``drawings``: the module that registers its results' pictures with ``wbk.pictures``.
    """

    key: str
    title: str
    cites: tuple[str, ...]
    readings: Mapping[str, Reading] = field(default_factory=dict)
    quiz: str = ""
    drawings: str = ""


_GAMES: dict[str, Game] = {}
_found = False


def register(game: Game) -> Game:
    """Make ``game`` known to quizzes, pictures, panels and the site (again: replaces it)."""
    if not isinstance(game, Game):
        raise WbkError(f"{game!r} is not a wbk.games.Game")
    _GAMES[game.key] = game
    return game


def unregister(key: str) -> None:
    """Forget the rule set called ``key`` (a test's toy, say); wbk's own come back with their
    packages only when imported anew."""
    _GAMES.pop(key, None)


def games() -> dict[str, Game]:
    """Every rule set, by key: the packages of ``wbk.games`` and any other registered."""
    global _found
    if not _found:
        _found = True
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
    return dict(sorted(_GAMES.items()))  # the same order whichever was imported first


def game(key: object) -> Game:
    """The rule set called ``key``; an unknown one is a ``WbkError`` naming those there are."""
    known = games()
    if not isinstance(key, str) or key not in known:
        raise WbkError(f"game {key!r} is not one of {', '.join(known)}")
    return known[key]


def load_drawings() -> None:
    """Import every game's drawings, so that ``wbk.pictures.picture`` knows their results."""
    for found in games().values():
        if found.drawings:
            importlib.import_module(found.drawings)
