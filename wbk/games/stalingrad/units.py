"""Streets of Stalingrad: units, and what every rule module of the chapter shares."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from wbk.checks import short_text
from wbk.checks import whole as _whole
from wbk.errors import WbkError

SIDES = ("German", "Soviet")
KINDS = ("infantry", "engineer", "tank", "gun", "fortification", "minefield", "bridge")


def _check_path(path, what: str) -> None:
    if not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"{what} path {path!r} is not a file path")


def _rule(number: str) -> str:
    return f"Streets of Stalingrad {number}"


ASSUMED = "wbk assumption"


def _shipped(folder) -> list[str]:
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


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
        if self.side not in SIDES:
            raise WbkError(f"unit {self.name!r}: side {self.side!r} is not German or Soviet")
        if self.kind not in KINDS:
            kinds = ", ".join(KINDS)
            raise WbkError(f"unit {self.name!r}: kind {self.kind!r} is not one of {kinds}")
        _whole(self.strength, f"unit {self.name!r}: strength")
        for key in ("pinned", "immobilized", "spent"):
            if not isinstance(getattr(self, key), bool):
                value = getattr(self, key)
                raise WbkError(f"unit {self.name!r}: {key} {value!r} is not true or false")


def _units(units, what: str) -> list[Unit]:
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


def _names(units: Iterable[Unit]) -> str:
    return ", ".join(u.name for u in units) or "none"
