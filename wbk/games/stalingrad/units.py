"""Streets of Stalingrad: units, what each of their values takes (declared once, for the rules
and for a quiz file's units), and what every rule module of the chapter shares: how a step
cites a rule, and the files the rule set ships."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from wbk.checks import Input, short_text
from wbk.errors import WbkError

SIDES = ("German", "Soviet")
KINDS = ("infantry", "engineer", "tank", "gun", "fortification", "minefield", "bridge")

#: What each value of a unit takes: ``Unit`` checks itself with these, and a quiz file's units
#: are checked with ``UNIT`` before any work is done.
NAME = Input.text()
SIDE = Input.text(SIDES)
KIND = Input.text(KINDS)
#: A strength (a unit's AF, a defence's DF).
STRENGTH = Input.whole(0, 1000)
FLAG = Input.flag()
UNIT = Input.record(
    {
        "name": NAME,
        "side": SIDE,
        "kind": KIND,
        "strength": STRENGTH,
        "pinned": FLAG,
        "immobilized": FLAG,
        "spent": FLAG,
    },
    required=("name", "side", "kind"),
)

#: What a step cites when wbk assumes what the supplement leaves to rules not in its texts.
ASSUMED = "wbk assumption"
#: The rule set's package, and its folder as a step cites a file it ships
#: ("wbk/games/stalingrad/crts/illustrative_1d6.toml").
PACKAGE = __name__.rpartition(".")[0]
HOME = PACKAGE.replace(".", "/")


def cite(number: str) -> str:
    """A rule of the supplement as a step cites it: "Streets of Stalingrad 9.87"."""
    return f"Streets of Stalingrad {number}"


@dataclass(frozen=True)
class Unit:
    """A unit: its name (unique within a situation), side, kind, strength (AF in an attack) and
    state. ``spent``: it has already acted this turn (9.67 asks for unspent units)."""

    name: str
    side: str
    kind: str
    strength: int = 0
    pinned: bool = False
    immobilized: bool = False
    spent: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise WbkError(f"unit name {self.name!r} is not a name")
        short_text(self.name, "unit name")
        unit = f"unit {self.name!r}"
        SIDE.check(self.side, f"{unit}: side")
        KIND.check(self.kind, f"{unit}: kind")
        STRENGTH.check(self.strength, f"{unit}: strength")
        for key in ("pinned", "immobilized", "spent"):
            FLAG.check(getattr(self, key), f"{unit}: {key}")


def checked_units(units: object, what: str) -> list[Unit]:
    """``units`` as a list of ``Unit`` s, each name used once (``what`` names them in an
    error: "the attack")."""
    if isinstance(units, (str, bytes, Unit)) or not isinstance(units, Iterable):
        raise WbkError(f"{what} {units!r} is not a list of units")
    units = list(units)
    for u in units:
        if not isinstance(u, Unit):
            raise WbkError(f"{u!r} in {what} is not a Unit")
    names = [u.name for u in units]
    for name in names:
        if names.count(name) > 1:
            raise WbkError(f"unit name {name!r} is used twice in {what}: names must be unique")
    return units


def named(units: Iterable[Unit]) -> str:
    """The units' names in a line: "1/42 Rifle, Pz III" ("none" for no unit)."""
    return ", ".join(u.name for u in units) or "none"


def check_path(path: object, what: str) -> None:
    """A file path (text or a path), or a ``WbkError`` naming ``what`` the file holds."""
    if not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"{what} path {path!r} is not a file path")


def shipped(folder: str, what: str) -> Input:
    """What names a file the rule set ships in ``folder`` ("crts", "situations"): one of its
    files' names, without ".toml"."""
    files = resources.files(PACKAGE) / folder
    names = sorted(
        p.name.removesuffix(".toml") for p in files.iterdir() if p.name.endswith(".toml")
    )
    return Input.text(names, what=f"one of the {what} wbk ships ({', '.join(names)})")


def shipped_text(folder: str, name: str) -> tuple[str, str]:
    """The text of the file ``name`` the rule set ships in ``folder`` (a name ``shipped``
    takes), and its path as a step cites it."""
    text = (resources.files(PACKAGE) / folder / f"{name}.toml").read_text(encoding="utf-8")
    return text, f"{HOME}/{folder}/{name}.toml"
