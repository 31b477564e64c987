"""Streets of Stalingrad (third edition) as code: Dana Lombardy's supplementary rules 9.67 and
9.87-9.89.

The supplement leans on the game's own combat results table (CRT), stacking limits (5.0) and
zones of control (6.0), which wbk does not reproduce: the CRT is a TOML file the user types in
(wbk ships two ILLUSTRATIVE tables), and stacking and ZOC are settings whose defaults are named
assumptions.

Public names:

- ``Crt`` (``Crt.load``, ``Crt.from_toml``, ``column_for``, ``shift``, ``on_column``,
  ``resolve``, ``effect``),
  ``Effect``, ``example_crt(name)``: combat results tables;
- ``Unit``: a unit on the map or in an attack;
- 9.67 ``close_assault_bonus(...) -> CloseAssault``: may the attacker take the Close Assault
  Bonus, and what it buys and costs, as exact distributions with a one-line verdict;
- 9.87-9.89 ``retreat_after_combat(...) -> Retreat``: where defenders hit by a "P" may retreat,
  who is lost, who is untouched, and whether they may stay;
- ``Situation`` (``Situation.load``, ``Situation.from_toml``, ``retreat``),
  ``example_situation(name)``: a map with units, attacked and bombarded hexes, from TOML;
- option values ``KINDS``, ``SIDES``, ``LOSS_CHOICES``, ``PINNED_ATTACK_READINGS``.

The supplement's example of 9.67: 15 AF attacks on the 10-19 column; with the bonus on 20-29,
and the defender's 3 DF fires first on the 4 column.

>>> attack = [Unit("I/194 GR", "German", "infantry", 6), Unit("Pi 336", "German", "engineer", 4),
...           Unit("StuG III", "German", "tank", 5)]
>>> a = close_assault_bonus(attack, [Unit("3/1045", "Soviet", "infantry", 3)], 3)
>>> a.allowed, a.column, a.bonus_column, a.fire_column
(True, '10-19', '20-29', '4')
>>> a.without.result.probability("P"), a.with_bonus.result.probability("P")
(Fraction(1, 3), Fraction(1, 3))
>>> a.with_bonus.fire.probabilities()
{'-': Fraction(1, 3), '1': Fraction(1, 6), 'P': Fraction(1, 2)}
"""

from __future__ import annotations

import functools
import html
import itertools
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from importlib import resources
from numbers import Integral
from pathlib import Path
from typing import Literal

from wbk.checks import choice as _choice
from wbk.checks import whole as _whole
from wbk.datafile import parse_toml, read_text, write_atomically
from wbk.dice import Dist, d6, percent
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html
from wbk.hexgrid import Hex
from wbk.maps import HexMap, _MapReader

__all__ = [
    "KINDS",
    "LOSS_CHOICES",
    "PINNED_ATTACK_READINGS",
    "SIDES",
    "Crt",
    "Effect",
    "Situation",
    "Unit",
    "close_assault_bonus",
    "example_crt",
    "example_situation",
    "retreat_after_combat",
]

SIDES = ("German", "Soviet")
KINDS = ("infantry", "engineer", "tank", "gun", "fortification", "minefield", "bridge")
#: 9.67: the kinds of unit that qualify an attack for the Close Assault Bonus.
ASSAULT_KINDS = ("infantry", "engineer")
#: wbk's default for 6.0: the kinds of unit that exert a ZOC.
ZOC_KINDS = ("infantry", "engineer", "tank", "gun")
#: 9.88: hex terrain where defenders hit by a "P" may stay by eliminating one of them.
STAY_TERRAIN = ("balka", "forest", "suburb", "village")
CLEAR = "clear"

#: When the defender's first fire (9.67) costs the attacker units, which does he give up?
#: "keep_bonus" (default): keep a qualifying unit where he can, then as much AF as he can;
#: "best_column": whatever leaves the attack on the highest column.
LOSS_CHOICES = ("keep_bonus", "best_column")
#: Do pinned attacking units still add their AF to the attack? "counts" (default: 9.67 still
#: calls a pinned unit an "attacking" unit) or "drops_out".
PINNED_ATTACK_READINGS = ("counts", "drops_out")

NO_FIRE = "no fire"
NO_ATTACK = "no attack"

LossChoice = Literal["keep_bonus", "best_column"]
PinnedAttack = Literal["counts", "drops_out"]


def _check_path(path, what: str) -> None:
    if not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"{what} path {path!r} is not a file path")


def _rule(number: str) -> str:
    return f"Streets of Stalingrad {number}"


ASSUMED = "wbk assumption"


# --- combat results tables -----------------------------------------------------------------

_DICE = {"1d6": d6, "2d6": 2 @ d6}
_CRT_KEYS = ("name", "die", "columns", "results", "effects", "note")


@dataclass(frozen=True)
class Effect:
    """What one CRT result does to the units fired on: ``eliminate`` units lost (a number, or
    "all"), and whether the rest are pinned. "none" is ``Effect()``."""

    eliminate: int | Literal["all"] = 0
    pin: bool = False

    def __post_init__(self):
        if self.eliminate != "all":
            _whole(self.eliminate, "units eliminated")
        if not isinstance(self.pin, bool):
            raise WbkError(f"pin {self.pin!r} is not True or False")

    def losses(self, units: int) -> int:
        """How many of ``units`` units this effect eliminates."""
        units = _whole(units, "number of units")
        return units if self.eliminate == "all" else min(self.eliminate, units)

    @property
    def hurts(self) -> bool:
        """Does it do anything at all (pin or eliminate)?"""
        return self.pin or self.eliminate != 0

    def __str__(self) -> str:
        parts = []
        if self.eliminate:
            parts.append(f"eliminate {self.eliminate}")
        if self.pin:
            parts.append("pin")
        return ", ".join(parts) or "none"


_EFFECT_WORD = re.compile(r"none|pin|eliminate (all|\d+)")


def _parse_effect(text) -> Effect:
    """An effect in words: "none", "pin", "eliminate N", "eliminate all", or several joined by
    commas ("eliminate 1, pin")."""
    if not isinstance(text, str) or not text.strip():
        raise WbkError(f"{text!r} is not an effect (expected words like 'pin' or 'eliminate 1')")
    eliminate: int | str = 0
    pin = False
    for part in (p.strip() for p in text.split(",")):
        match = _EFFECT_WORD.fullmatch(part)
        if not match:
            raise WbkError(
                f"{text!r}: unknown effect {part!r} "
                "(expected none, pin, eliminate N, eliminate all)"
            )
        if part == "pin":
            pin = True
        elif match.group(1) == "all":
            eliminate = "all"
        elif match.group(1):
            eliminate = int(match.group(1))
    return Effect(eliminate, pin)


def _band(text) -> tuple[int, int | None] | None:
    """A column heading as (lowest, highest) strength, highest None for "30+"."""
    if not isinstance(text, str):
        return None
    if m := re.fullmatch(r"(\d+)", text):
        return int(m[1]), int(m[1])
    if m := re.fullmatch(r"(\d+)-(\d+)", text):
        return (int(m[1]), int(m[2])) if int(m[1]) <= int(m[2]) else None
    if m := re.fullmatch(r"(\d+)\+", text):
        return int(m[1]), None
    return None


@dataclass(frozen=True, eq=True)
class Crt:
    """A combat results table: columns of strength, one row of result codes per die roll, and
    what each code does. Read one with ``Crt.load(path)``; the format is in wbk's README.

    ``results`` maps each roll (1-6 for "1d6", 2-12 for "2d6") to one code per column;
    ``effects`` maps each code to its effect in words ("pin", "eliminate 1", ...). A strength
    above the last column reads the last column, as CRTs usually say.
    """

    name: str
    die: str
    columns: tuple[str, ...]
    results: Mapping[int, tuple[str, ...]]
    effects: Mapping[str, str]
    note: str = ""
    source: str = "CRT"

    def __post_init__(self):
        source = self.source if isinstance(self.source, str) else "CRT"

        def fail(key: str, message: str):
            raise WbkError(f"{source}: {key}: {message}")

        if not isinstance(self.name, str) or not self.name.strip():
            fail("name", f"{self.name!r} is not a name")
        if not isinstance(self.note, str):
            fail("note", f"{self.note!r} is not text")
        if not isinstance(self.die, str) or self.die not in _DICE:
            fail("die", f'{self.die!r} (expected "1d6" or "2d6")')
        columns = self.columns
        if isinstance(columns, str) or not isinstance(columns, Sequence) or not columns:
            fail("columns", f'{columns!r} (expected a list of column headings like "5-9")')
        bands = []
        for text in columns:
            band = _band(text)
            if band is None:
                fail("columns", f"{text!r} is not a column heading (expected '4', '5-9' or '30+')")
            bands.append(band)
        pairs = list(zip(columns, bands, columns[1:], bands[1:], strict=False))
        for before, (low, _), text, (start, _) in pairs:
            if start < low:
                fail("columns", f"{text!r} comes after {before!r}: columns go from low to high")
        for before, (_, high), text, _ in pairs:
            if high is None:
                fail("columns", f"{text!r} comes after the open column {before!r}")
        for before, (_, high), text, (start, _) in pairs:
            if start <= high:
                fail("columns", f"{text!r} overlaps {before!r}")
            if start > high + 1:
                gap = f"{text!r} after {before!r} leaves strength {high + 1} in no column"
                fail("columns", gap)
        object.__setattr__(self, "columns", tuple(columns))
        object.__setattr__(self, "_bands", tuple(bands))

        if not isinstance(self.effects, Mapping):
            fail("effects", f"{self.effects!r} (expected a table of code = effect)")
        parsed = {}
        for code, text in self.effects.items():
            try:
                parsed[code] = _parse_effect(text)
            except WbkError as e:
                fail(f"[effects] {code}", str(e))
        object.__setattr__(self, "effects", dict(self.effects))
        object.__setattr__(self, "_effects", parsed)

        if not isinstance(self.results, Mapping):
            fail("results", f"{self.results!r} (expected a table of roll = [codes])")
        outcomes = _DICE[self.die].outcomes()
        span = f"{outcomes[0]}-{outcomes[-1]}"
        rows: dict[int, tuple[str, ...]] = {}
        for key, row in self.results.items():
            roll = int(key) if isinstance(key, str) and key.isdigit() else key
            if isinstance(roll, bool) or roll not in outcomes:
                fail(f"[results] {key}", f"unknown key: not a roll of {self.die} ({span})")
            if roll in rows:
                fail(f"[results] {key}", "roll given twice")
            if isinstance(row, str) or not isinstance(row, Sequence):
                fail(f"[results] {key}", f"{row!r} (expected a list of result codes)")
            if len(row) != len(columns):
                count = f"{len(row)} results for {len(columns)} columns"
                fail(f"[results] {key}", f"{list(row)!r} has {count}")
            for code in row:
                if not isinstance(code, str):
                    fail(f"[results] {key}", f"{code!r} is not a quoted result code")
                if code not in parsed:
                    fail(f"[results] {key}", f"code {code!r} has no entry in [effects]")
            rows[roll] = tuple(row)
        for roll in outcomes:
            if roll not in rows:
                fail("[results]", f"roll {roll} is missing (a {self.die} table needs rows {span})")
        object.__setattr__(self, "results", {r: rows[r] for r in outcomes})

    # --- reading it ------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike) -> Crt:
        """A CRT from a TOML file (format in wbk's README)."""
        _check_path(path, "CRT")
        return cls.from_toml(read_text(path, "CRT"), source=str(path))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "CRT") -> Crt:
        """A CRT from TOML text; anything wrong is a ``WbkError`` naming ``source`` and the key."""
        if not isinstance(text, str):
            raise WbkError(f"{source}: {text!r} is not TOML text")
        data = parse_toml(text, source)
        unknown = sorted(set(data) - set(_CRT_KEYS))
        if unknown:
            raise WbkError(f"{source}: {unknown[0]}: unknown key (expected {', '.join(_CRT_KEYS)})")
        for key in ("name", "die", "columns", "results", "effects"):
            if key not in data:
                raise WbkError(f"{source}: {key}: missing")
        if not isinstance(data["columns"], list):
            columns = data["columns"]
            raise WbkError(f"{source}: columns: {columns!r} (expected a list of column headings)")
        return cls(
            data["name"],
            data["die"],
            tuple(data["columns"]),
            data["results"],
            data["effects"],
            data.get("note", ""),
            source,
        )

    @property
    def rolls(self) -> Dist:
        """The distribution of the die roll the table is read with (1d6 or 2d6)."""
        return _DICE[self.die]

    def column_for(self, strength: int) -> str:
        """The column a total strength (AF or DF) is rolled on.

        >>> crt = example_crt("illustrative_1d6")
        >>> crt.column_for(15), crt.column_for(3), crt.column_for(45)
        ('10-19', '3', '30+')
        """
        strength = _whole(strength, "strength")
        first = self._bands[0][0]
        if strength < first:
            first = self.columns[0]
            raise WbkError(f"strength {strength} is below the CRT's first column {first!r}")
        for column, (_low, high) in zip(self.columns, self._bands, strict=False):
            if high is None or strength <= high:
                return column
        return self.columns[-1]

    def shift(self, column: str, n: int) -> str:
        """The column ``n`` columns to the right (left if negative), clamped at the table's ends.

        >>> example_crt("illustrative_1d6").shift("10-19", 1)
        '20-29'
        """
        self._check_column(column)
        if isinstance(n, bool) or not isinstance(n, Integral):
            raise WbkError(f"column shift {n!r} is not a whole number")
        i = self.columns.index(column) + int(n)
        return self.columns[max(0, min(i, len(self.columns) - 1))]

    def _check_column(self, column) -> None:
        if column not in self.columns:
            known = ", ".join(self.columns)
            raise WbkError(f"column {column!r} is not one of the CRT's columns ({known})")

    def on_column(self, column: str, *, drm: int = 0) -> Dist:
        """The distribution of result codes rolled on ``column``, the roll modified by ``drm``; a
        modified roll past the table's rows reads its first or last row."""
        self._check_column(column)
        if isinstance(drm, bool) or not isinstance(drm, Integral):
            raise WbkError(f"die roll modifier {drm!r} is not a whole number")
        i = self.columns.index(column)
        low, high = min(self.results), max(self.results)
        return self.rolls.map(lambda r: self.results[max(low, min(r + int(drm), high))][i])

    def resolve(self, strength: int, *, shift: int = 0, drm: int = 0) -> Dist:
        """The exact distribution of result codes for an attack of ``strength``, ``shift``
        columns right of its own, the roll modified by ``drm``.

        >>> example_crt("illustrative_1d6").resolve(15).probabilities()
        {'-': Fraction(1, 6), '1': Fraction(1, 3), '2': Fraction(1, 6), 'P': Fraction(1, 3)}
        """
        return self.on_column(self.shift(self.column_for(strength), shift), drm=drm)

    def effect(self, code: str) -> Effect:
        """What a result code does ("P" -> pin)."""
        if not isinstance(code, str) or code not in self._effects:
            known = ", ".join(self._effects)
            raise WbkError(f"result code {code!r} is not in the CRT's effects ({known})")
        return self._effects[code]

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.columns)
        rows = "".join(
            f"<tr><th>{r}</th>{''.join(f'<td>{html.escape(c)}</td>' for c in row)}</tr>"
            for r, row in self.results.items()
        )
        key = "; ".join(f"{html.escape(c)} = {e}" for c, e in self._effects.items())
        return (
            f"<b>{html.escape(self.name)}</b> ({self.die})"
            f"<table><thead><tr><th>roll</th>{head}</tr>"
            f"</thead><tbody>{rows}</tbody></table><small>{key}</small>"
        )


def _shipped(folder) -> list[str]:
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


def example_crt(name: str = "illustrative_1d6") -> Crt:
    """A CRT shipped with wbk (``wbk/data/crt/``): "illustrative_1d6" or "illustrative_2d6",
    both ILLUSTRATIVE, not the published table."""
    if not isinstance(name, str):
        raise WbkError(f"CRT name {name!r} is not text")
    return _shipped_crt(name)


@functools.cache
def _shipped_crt(name: str) -> Crt:
    folder = resources.files("wbk") / "data" / "crt"
    names = _shipped(folder)
    if name not in names:
        raise WbkError(f"no shipped CRT called {name!r} (there are: {', '.join(names)})")
    path = folder / f"{name}.toml"
    return Crt.from_toml(path.read_text(encoding="utf-8"), source=f"wbk/data/crt/{name}.toml")


# --- units ---------------------------------------------------------------------------------


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


# --- 9.67 Close Assault Bonus --------------------------------------------------------------


@dataclass(frozen=True)
class AssaultOption:
    """One way of making the attack (with or without the bonus), as exact distributions.

    ``exchange`` is the whole exchange, as tuples (the defender's first fire, the attacker's
    outcome in words, attacking units lost, the attack's column, its result code, defending
    units lost); the other distributions are its parts, in that order. Without the bonus
    ``fire`` is "no fire" and the attacker's outcome "none"; the column and result are
    "no attack" when nothing is left to attack with.
    """

    bonus: bool
    exchange: Dist
    fire: Dist
    attacker: Dist
    attacker_losses: Dist
    column: Dist
    result: Dist
    defender_losses: Dist

    def _repr_html_(self) -> str:
        title = "with the Close Assault Bonus" if self.bonus else "without the bonus"
        parts = [f"<b>{title}: the attack's result</b>{self.result._repr_html_()}"]
        if self.bonus:
            lost = self.attacker_losses._repr_html_()
            parts.append(f"<b>{title}: attacking units lost</b>{lost}")
        return "".join(parts)


@dataclass(frozen=True)
class CloseAssault:
    """9.67's question answered: may the attacker use the bonus, and is it worth it here?"""

    allowed: bool
    column: str
    bonus_column: str | None
    fire_column: str | None
    without: AssaultOption
    with_bonus: AssaultOption | None
    verdict: str
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        parts = [
            f"<b>{html.escape(self.verdict)}</b>",
            steps_html(self.steps),
            self.without._repr_html_(),
        ]
        if self.with_bonus is not None:
            parts.append(self.with_bonus._repr_html_())
        return "".join(parts)


def _qualifies(u: Unit, not_adjacent: frozenset[str]) -> bool:
    return u.kind in ASSAULT_KINDS and not u.pinned and not u.spent and u.name not in not_adjacent


def _names(units: Iterable[Unit]) -> str:
    return ", ".join(u.name for u in units) or "none"


def close_assault_bonus(
    attack: Sequence[Unit],
    defenders: Sequence[Unit],
    defence_df: int,
    *,
    crt: Crt | None = None,
    not_adjacent: Iterable[str] = (),
    drm: int = 0,
    fire_drm: int = 0,
    losses: LossChoice = "keep_bonus",
    pinned_attack: PinnedAttack = "counts",
) -> CloseAssault:
    """Streets of Stalingrad 9.67: should the attacker take the Close Assault Bonus here?

    ``attack``: the attacking units (their ``strength`` is their AF); ``defenders``: the units
    in the target hex; ``defence_df``: the defence's total DF. ``crt``: the table (wbk's
    ILLUSTRATIVE 1d6 table by default). ``not_adjacent``: names of attacking units that are not
    adjacent to the target hex. ``drm``, ``fire_drm``: die roll modifiers of the attack and of
    the defender's fire.

    The bonus is allowed when an unpinned, unspent infantry or engineer unit adjacent to the
    target attacks. Without it the attack rolls on its column. With it the defender first fires
    one column above his DF's; then the attack rolls one column above the column of the AF
    left, if a qualifying unit is still there, else on that column itself.

    Named assumptions, where the supplement leans on rules not in wbk's texts:

    - the defender's first fire hits the attacking units as a whole: a pin pins them all, an
      "eliminate N" costs N of them, the attacker choosing which (``losses``: "keep_bonus", the
      default, keeps a qualifying unit where he can, then the most AF; "best_column" gives up
      whatever leaves the attack on the highest column);
    - pinned attackers still add their AF (``pinned_attack="counts"``; 9.67 still calls a
      pinned unit "attacking"), or not (``"drops_out"``); a DF of 0 fires nothing;
    - the verdict weighs units for units: use the bonus when it adds more to the defender's
      expected losses than the attacker expects to lose to the first fire.

    >>> attack = [Unit("I/194 GR", "German", "infantry", 6),
    ...           Unit("Pi 336", "German", "engineer", 4), Unit("StuG III", "German", "tank", 5)]
    >>> a = close_assault_bonus(attack, [Unit("3/1045", "Soviet", "infantry", 3)], 3)
    >>> a.with_bonus.column.probabilities()
    {'10-19': Fraction(1, 2), '20-29': Fraction(1, 2)}
    >>> a.with_bonus.attacker.probabilities()
    {'1 lost (Pi 336)': Fraction(1, 6), 'none': Fraction(1, 3), 'pinned': Fraction(1, 2)}
    """
    crt = example_crt() if crt is None else crt
    if not isinstance(crt, Crt):
        raise WbkError(f"crt {crt!r} is not a Crt (load one with Crt.load(path))")
    attack = _units(attack, "the attack")
    defenders = _units(defenders, "the defence")
    if not attack:
        raise WbkError("the attack has no units")
    if not defenders:
        raise WbkError("the defence has no units")
    defence_df = _whole(defence_df, "defence DF")
    if isinstance(not_adjacent, str) or not isinstance(not_adjacent, Iterable):
        raise WbkError(f"not_adjacent {not_adjacent!r} is not a list of unit names")
    not_adjacent = list(not_adjacent)
    for name in not_adjacent:
        if not isinstance(name, str):
            raise WbkError(f"not_adjacent: {name!r} is not a unit name")
    away = frozenset(not_adjacent)
    unknown = sorted(away - {u.name for u in attack})
    if unknown:
        raise WbkError(f"not_adjacent names {unknown[0]!r}, which is not an attacking unit")
    for value, what in ((drm, "die roll modifier"), (fire_drm, "fire die roll modifier")):
        if isinstance(value, bool) or not isinstance(value, Integral):
            raise WbkError(f"{what} {value!r} is not a whole number")
    losses = _choice(losses, LOSS_CHOICES, "loss choice")
    pinned_attack = _choice(pinned_attack, PINNED_ATTACK_READINGS, "reading of pinned attackers")
    sides = {u.side for u in attack}
    if len(sides) > 1:
        raise WbkError(f"the attack mixes sides: {', '.join(sorted(sides))}")
    enemies = [u for u in defenders if u.side in sides]
    if enemies:
        first = enemies[0]
        raise WbkError(f"defending unit {first.name!r} is on the attacker's side ({first.side})")

    r967 = _rule("9.67")

    def af(units: Sequence[Unit]) -> int:
        return sum(u.strength for u in units if pinned_attack == "counts" or not u.pinned)

    def column_of(units: Sequence[Unit], bonus: bool) -> str:
        strength = af(units)
        if not units or strength < crt._bands[0][0]:
            return NO_ATTACK
        column = crt.column_for(strength)
        if bonus and any(_qualifies(u, away) for u in units):
            return crt.shift(column, 1)
        return column

    total = af(attack)
    column = crt.column_for(total)  # names a strength too low for the table
    qualifying = [u for u in attack if _qualifies(u, away)]
    allowed = bool(qualifying)
    steps = [
        Step(f"on the {crt.name}", _crt_source(crt)),
        Step(f"attack strength {total} AF: the {column} column", r967),
    ]
    if pinned_attack == "drops_out" and any(u.pinned for u in attack):
        pinned = _names(u for u in attack if u.pinned)
        steps.append(Step(f"pinned attackers add no AF (reading 'drops_out'): {pinned}", ASSUMED))
    defender_count = len(defenders)

    def attack_outcome(units: Sequence[Unit]) -> Dist:
        """(column, result code, defenders lost) of the attack made by ``units``."""
        col = column_of(units, bonus=True)
        if col == NO_ATTACK:
            return Dist.always((NO_ATTACK, NO_ATTACK, 0))
        return crt.on_column(col, drm=drm).map(
            lambda code: (col, code, crt.effect(code).losses(defender_count))
        )

    def split(exchange: Dist, bonus: bool) -> AssaultOption:
        return AssaultOption(
            bonus,
            exchange,
            exchange.map(lambda e: e[0]),
            exchange.map(lambda e: e[1]),
            exchange.map(lambda e: e[2]),
            exchange.map(lambda e: e[3]),
            exchange.map(lambda e: e[4]),
            exchange.map(lambda e: e[5]),
        )

    plain = crt.on_column(column, drm=drm).map(
        lambda code: (NO_FIRE, "none", 0, column, code, crt.effect(code).losses(defender_count))
    )
    without = split(plain, False)

    if not allowed:
        why = [u for u in attack if u.kind in ASSAULT_KINDS]
        detail = f" ({_names(why)}: pinned, spent or not adjacent)" if why else ""
        steps.append(
            Step(f"no unpinned, unspent infantry or engineer unit adjacent{detail}: no bonus", r967)
        )
        verdict = (
            "No Close Assault Bonus here: no unpinned, unspent infantry or engineer unit is "
            "adjacent (9.67)."
        )
        return CloseAssault(False, column, None, None, without, None, verdict, tuple(steps))

    bonus_column = crt.shift(column, 1)
    verb = "qualifies" if len(qualifying) == 1 else "qualify"
    steps.append(Step(f"{_names(qualifying)} {verb}: the attacker may announce the bonus", r967))
    steps.append(
        Step(
            f"with the bonus the attack would roll on {bonus_column}"
            + (" (already the last column)" if bonus_column == column else ""),
            r967,
        )
    )
    if defence_df == 0 or defence_df < crt._bands[0][0]:
        fire_column = None
        fire = Dist.always(NO_FIRE)
        steps.append(
            Step(f"the defender's {defence_df} DF has no column: he fires nothing first", ASSUMED)
        )
    else:
        own = crt.column_for(defence_df)
        fire_column = crt.shift(own, 1)
        fire = crt.on_column(fire_column, drm=fire_drm)
        last = " (already the last column)" if fire_column == own else ""
        steps.append(
            Step(
                f"the defender's {defence_df} DF fires first, one column higher: {fire_column}{last}",
                r967,
            )
        )
    steps.append(
        Step(
            "his fire hits the attacking units as a whole: a pin pins them all, "
            "the attacker chooses the units lost",
            ASSUMED,
        )
    )
    steps.append(
        Step(
            "the attacker keeps a qualifying unit where he can"
            if losses == "keep_bonus"
            else "the attacker gives up the units whose loss leaves the best column "
            "(reading 'best_column')",
            ASSUMED,
        )
    )

    def loss_key(left: list[Unit], pin: bool) -> tuple:
        keeps = not pin and any(_qualifies(u, away) for u in left)
        col = column_of([replace(u, pinned=True) for u in left] if pin else left, bonus=True)
        rank = -1 if col == NO_ATTACK else crt.columns.index(col)
        return (keeps, af(left)) if losses == "keep_bonus" else (rank, af(left), keeps)

    def after_fire(code: str) -> Dist:
        if code == NO_FIRE:
            survivors, lost = list(attack), []
            outcome = "none"
        else:
            effect = crt.effect(code)
            n = effect.losses(len(attack))
            lost = _choose_losses(attack, n, functools.partial(loss_key, pin=effect.pin))
            survivors = [u for u in attack if u not in lost]
            if effect.pin:
                survivors = [replace(u, pinned=True) for u in survivors]
            outcome = "none"
            if lost:
                outcome = f"{len(lost)} lost ({_names(lost)})"
            if effect.pin and survivors:
                outcome = f"{outcome}, rest pinned" if lost else "pinned"
        return attack_outcome(survivors).map(lambda a: (code, outcome, len(lost), *a))

    with_bonus = split(fire.map(after_fire), True)
    steps.append(
        Step(
            "after the fire: the bonus column if a qualifying unit is left, "
            "else the column of the AF left",
            r967,
        )
    )
    verdict = _verdict(without, with_bonus, crt)
    steps.append(
        Step(
            "the verdict weighs units for units: the defending units the bonus adds to "
            "the expected losses against the attacking units expected lost",
            ASSUMED,
        )
    )
    return CloseAssault(
        True, column, bonus_column, fire_column, without, with_bonus, verdict, tuple(steps)
    )


def _crt_source(crt: Crt) -> str:
    """Where a CRT comes from, for the steps: wbk's own illustrative table, or the user's."""
    if crt.source.startswith("wbk/data/crt/"):
        return "wbk's illustrative table, not the published one"
    return "user data"


def _choose_losses(attack: list[Unit], n: int, key) -> list[Unit]:
    """The ``n`` attacking units the attacker gives up to the defender's first fire: those whose
    loss leaves the best ``key(units left)``; among equals, the first by name."""
    if n >= len(attack):
        return list(attack)
    best, best_key = [], None
    for lost in itertools.combinations(sorted(attack, key=lambda u: u.name), n):
        k = key([u for u in attack if u not in lost])
        if best_key is None or k > best_key:
            best, best_key = list(lost), k
    return best


def _fmt(x: Fraction) -> str:
    return f"{float(x):.2f}"


def _verdict(without: AssaultOption, with_bonus: AssaultOption, crt: Crt) -> str:
    def hurt(option: AssaultOption) -> Fraction:
        hurts = option.result.map(lambda code: code != NO_ATTACK and crt.effect(code).hurts)
        return hurts.probability(True)

    before, after = without.defender_losses.mean(), with_bonus.defender_losses.mean()
    cost = with_bonus.attacker_losses.mean()
    gain = after - before
    detail = (
        f"the defender loses {_fmt(before)} → {_fmt(after)} units on average and is pinned or "
        f"worse {percent(hurt(without))} → {percent(hurt(with_bonus))} of the time, for "
        + (f"{_fmt(cost)} attacking units lost on average" if cost else "no attacking units lost")
    )
    if gain > cost:
        return f"Use the Close Assault Bonus: {detail}."
    if gain < cost:
        return f"Do not use the Close Assault Bonus: {detail}."
    return f"The Close Assault Bonus neither gains nor loses units on average: {detail}."


# --- 9.87-9.89 retreat after combat --------------------------------------------------------


def _placement(m: HexMap, units) -> dict[Hex, tuple[Unit, ...]]:
    """Units by hex, checked: hexes on the map, each listed once, unit names unique."""
    if not isinstance(m, HexMap):
        raise WbkError(f"{m!r} is not a HexMap")
    if not isinstance(units, Mapping):
        raise WbkError(f"units {units!r} is not a mapping of hex -> list of units")
    placed: dict[Hex, tuple[Unit, ...]] = {}
    seen: dict[str, str] = {}
    for where, here in units.items():
        h = m.hex(where)
        if h in placed:
            raise WbkError(f"hex {m.label(h)} is listed twice in the units")
        here = _units(here, f"hex {m.label(h)}")
        for u in here:
            if u.name in seen:
                raise WbkError(
                    f"unit name {u.name!r} is used in {seen[u.name]} and {m.label(h)}: "
                    "names must be unique"
                )
            seen[u.name] = m.label(h)
        if here:
            placed[h] = tuple(here)
    return placed


def _hexes(m: HexMap, hexes, what: str) -> frozenset[Hex]:
    if isinstance(hexes, (str, Hex)) or not isinstance(hexes, Iterable):
        raise WbkError(f"{what} hexes {hexes!r} is not a list of hexes")
    return frozenset(m.hex(h) for h in hexes)


@dataclass(frozen=True)
class Retreat:
    """What a "P" result does to the defenders of one hex (9.87-9.89).

    - ``terrain``: "clear" (9.87), the 9.88 terrain ("balka", "forest", "suburb", "village"),
      or "other" where the supplement is silent and a "P" only pins;
    - ``options``: for each unit that must (or may) retreat, the hexes it could retreat into on
      its own;
    - ``best``: a choice of hexes that loses the fewest units when they must share room (None:
      eliminated);
    - ``eliminated``: the units lost whatever happens (fortifications, immobilized tanks);
    - ``eliminated_at_least``: the fewest units the defender can lose in all, staying included
      where 9.88 allows it;
    - ``unaffected``: minefields and bridges (9.89);
    - ``pinned``: the units pinned after the ``best`` retreat (all survivors but the unaffected);
    - ``may_stay``: 9.88 lets the units stay by eliminating one of them, and
    ``stay_eliminates`` names the one the defender would give up (his weakest);
    - ``zoc``: the hexes in the ZOC of the defenders' enemies (6.0, as assumed).
    """

    map: HexMap
    target: Hex
    terrain: str
    options: dict[str, frozenset[Hex]]
    best: dict[str, Hex | None]
    eliminated: frozenset[str]
    eliminated_at_least: int
    unaffected: frozenset[str]
    pinned: frozenset[str]
    may_stay: bool
    stay_eliminates: str | None
    steps: tuple[Step, ...]
    zoc: frozenset[Hex] = frozenset()

    @property
    def summary(self) -> str:
        """The answer in one line."""
        lost = self.eliminated_at_least
        where = self.map.label(self.target)
        if self.terrain == "other":
            return f"{where}: the units are pinned and stay; no retreat"
        stay = ", or stay by eliminating one" if self.may_stay else ""
        retreating = [n for n, h in self.best.items() if h is not None]
        total = len(self.best) + len(self.eliminated)
        cheaper = " (the cheaper choice)" if self.may_stay else ""
        return (
            f"{where}: {len(retreating)} of {len(self.best)} units can retreat{stay}; "
            f"{eliminated_words(lost, total)}{cheaper}"
        )

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(self.summary)}</b>{steps_html(self.steps)}"


def eliminated_words(n: int, total: int) -> str:
    """How many of ``total`` units are eliminated, in words: "no unit eliminated", "2 of 3
    units eliminated", "all 3 units eliminated" ("the unit eliminated" for one of one)."""
    if n == 0:
        return "no unit eliminated"
    if n == total:
        return "the unit eliminated" if total == 1 else f"all {total} units eliminated"
    return f"{n} of {count(total, 'unit')} eliminated"


def retreat_after_combat(
    m: HexMap,
    units: Mapping[Hex | str, Sequence[Unit]],
    target: Hex | str,
    *,
    attacked: Iterable[Hex | str] = (),
    bombarded: Iterable[Hex | str] = (),
    stacking_limit: int | None = 3,
    zoc_kinds: Iterable[str] = ZOC_KINDS,
) -> Retreat:
    """Streets of Stalingrad 9.87-9.89: a "P" result against the defenders in ``target``.

    ``units`` maps each hex (label or ``Hex``) to the units in it, both sides; unit names must
    be unique. ``attacked`` and ``bombarded``: the other hexes being attacked or bombarded.

    In a clear hex (a hex with no terrain listed is clear) every defender retreats one hex and
    is pinned; one that cannot is eliminated (9.87). Closed to it: hexes off the map, hexes
    holding an enemy unit, enemy ZOCs, hexes under attack or bombardment, and friendly hexes it
    would push over the stacking limit (5.0). In balka, forest, suburb or
    village the units may instead stay, all pinned, by eliminating one of them (9.88).
    Minefields and bridges are untouched; fortifications and immobilized Soviet tanks never
    retreat and are eliminated in those terrains (9.89).

    Named assumptions, where the supplement leans on rules not in wbk's texts or is silent:

    - ZOC (6.0): the six hexes around each enemy unit of ``zoc_kinds`` (infantry, engineer, tank
      and gun by default), whatever is in them;
    - stacking (5.0): a hex holds ``stacking_limit`` units (3 by default; None for no limit),
      counting every unit of the side already there;
    - in any other terrain (city, factory, ...), or a hex that mixes one with 9.88's, a "P" only
      pins: nobody retreats or is lost;
    - an immobilized unit other than a Soviet tank cannot retreat either, so 9.87 eliminates it;
    - the defender keeps his strongest units when not all can find room, and spreads the
      retreat over the free hexes in the order N, NE, SE, S, SW, NW.

    >>> m = HexMap("demo", (10, 16), (10, 16))
    >>> units = {"1313": [Unit("1/42 Rifle", "Soviet", "infantry", 4)],
    ...          "1412": [Unit("Pz III", "German", "tank", 6)],
    ...          "1214": [Unit("II/276 GR", "German", "infantry", 5)]}
    >>> r = retreat_after_combat(m, units, "1313")
    >>> sorted(m.label(h) for h in r.options["1/42 Rifle"])
    ['1414']
    >>> r.summary
    '1313: 1 of 1 units can retreat; no unit eliminated'
    >>> for step in r.steps[:3]:
    ...     print(step)
    a "P" result against the Soviet units in 1313 (1/42 Rifle) [Streets of Stalingrad 9.87]
    1313 is clear: the defending units retreat one hex, then are pinned [Streets of Stalingrad 9.87]
    1312: in the ZOC of Pz III: no [Streets of Stalingrad 9.87; 6.0, wbk assumption]
    """
    placed = _placement(m, units)
    t = m.hex(target)
    where = m.label(t)
    attacked = _hexes(m, attacked, "attacked")
    bombarded = _hexes(m, bombarded, "bombarded")
    if stacking_limit is not None:
        stacking_limit = _whole(stacking_limit, "stacking limit", 1)
    if isinstance(zoc_kinds, str) or not isinstance(zoc_kinds, Iterable):
        raise WbkError(f"zoc_kinds {zoc_kinds!r} is not a list of unit kinds")
    zoc_kinds = tuple(zoc_kinds)
    for kind in zoc_kinds:
        _choice(kind, KINDS, "ZOC kind")
    defenders = placed.get(t, ())
    if not defenders:
        raise WbkError(f"hex {where} has no defending units")
    sides = sorted({u.side for u in defenders})
    if len(sides) > 1:
        raise WbkError(f"hex {where} holds units of both sides: the defenders must be one side")
    side = sides[0]

    r987, r988, r989 = _rule("9.87"), _rule("9.88"), _rule("9.89")
    terrain_types = m.terrain(t) - {CLEAR}
    if not terrain_types:
        terrain = CLEAR
    elif terrain_types <= set(STAY_TERRAIN):
        terrain = ", ".join(sorted(terrain_types))
    else:
        terrain = "other"
    steps = [Step(f'a "P" result against the {side} units in {where} ({_names(defenders)})', r987)]

    unaffected = frozenset(u.name for u in defenders if u.kind in ("minefield", "bridge"))
    if unaffected:
        untouched = ", ".join(sorted(unaffected))
        steps.append(Step(f"minefields and bridges are untouched: {untouched}", r989))
    affected = [u for u in defenders if u.name not in unaffected]

    if terrain == "other":
        kinds = ", ".join(sorted(terrain_types))
        steps.append(
            Step(
                f"{where} is {kinds}: the supplement covers only clear, balka, forest and "
                'suburb/village hexes, so here a "P" only pins',
                ASSUMED,
            )
        )
        pinned = frozenset(u.name for u in affected)
        return Retreat(
            m, t, terrain, {}, {}, frozenset(), 0, unaffected, pinned, False, None, tuple(steps)
        )

    if terrain == CLEAR:
        steps.append(
            Step(f"{where} is clear: the defending units retreat one hex, then are pinned", r987)
        )
    else:
        steps.append(
            Step(
                f"{where} is {terrain}: the units may retreat, or stay by eliminating one of them",
                r988,
            )
        )

    fixed = []
    for u in affected:
        if u.kind == "fortification":
            fixed.append(u)
            steps.append(Step(f"{u.name}: a fortification never retreats and is eliminated", r989))
        elif u.immobilized and u.kind == "tank" and u.side == "Soviet":
            fixed.append(u)
            steps.append(
                Step(f"{u.name}: an immobilized Soviet tank never retreats and is eliminated", r989)
            )
        elif u.immobilized:
            fixed.append(u)
            steps.append(
                Step(
                    f"{u.name}: immobilized, so unable to retreat, and eliminated "
                    "(9.89 names only Soviet tanks)",
                    f"{r987}, {ASSUMED}",
                )
            )
    eliminated = frozenset(u.name for u in fixed)
    retreaters = [u for u in affected if u not in fixed]

    enemy_in = {h: [u for u in here if u.side != side] for h, here in placed.items()}
    enemy_in = {h: here for h, here in enemy_in.items() if here}
    zoc: dict[Hex, list[Unit]] = {}
    for h, here in enemy_in.items():
        for u in here:
            if u.kind in zoc_kinds:
                for n in m.neighbors(h):
                    zoc.setdefault(n, []).append(u)
    friendly_count = {h: sum(u.side == side for u in here) for h, here in placed.items()}

    zoc_rule, stacking_rule = f"{r987}; 6.0, {ASSUMED}", f"{r987}; 5.0, {ASSUMED}"
    free: list[Hex] = []
    room: dict[Hex, int] = {}
    off = 6 - len(m.neighbors(t))
    if off:
        verb = "is" if off == 1 else "are"
        steps.append(Step(f"{off} of the hexes around {where} {verb} off the map", r987))
    for n in m.neighbors(t):
        label = m.label(n)
        reasons = []
        if n in enemy_in:
            reasons.append(f"enemy units ({_names(enemy_in[n])})")
        if n in zoc:
            reasons.append(f"in the ZOC of {_names(zoc[n])}")
        if n in attacked:
            reasons.append("being attacked")
        if n in bombarded:
            reasons.append("being bombarded")
        if reasons:
            rule = zoc_rule if n in zoc and n not in enemy_in else r987
            steps.append(Step(f"{label}: {'; '.join(reasons)}: no", rule))
        else:
            there = friendly_count.get(n, 0)
            space = len(retreaters) if stacking_limit is None else stacking_limit - there
            if space <= 0:
                steps.append(
                    Step(
                        f"{label}: {there} friendly units already, the stacking limit of "
                        f"{stacking_limit}: no",
                        stacking_rule,
                    )
                )
                continue
            free.append(n)
            room[n] = space
            if stacking_limit is None:
                steps.append(Step(f"{label}: open", r987))
            else:
                steps.append(
                    Step(
                        f"{label}: open, room for {space} under the stacking limit of {stacking_limit}",
                        stacking_rule,
                    )
                )

    options = {u.name: frozenset(free) for u in retreaters}
    best = _assign(retreaters, free, room)
    lost = [u for u in retreaters if best[u.name] is None]
    for u in retreaters:
        if best[u.name] is not None:
            steps.append(Step(f"{u.name} retreats to {m.label(best[u.name])} and is pinned", r987))
    if lost:
        why = "no hex to retreat into" if not free else "no room left"
        steps.append(Step(f"{_names(lost)}: {why}, eliminated", r987))
    may_stay = terrain != CLEAR and bool(retreaters)
    retreat_cost = len(lost)
    at_least = len(eliminated) + (min(retreat_cost, 1) if may_stay else retreat_cost)
    stay_eliminates = None
    if may_stay:
        stay_eliminates = min(retreaters, key=lambda u: (u.strength, u.name)).name
        steps.append(Step(f"to stay, the defender would eliminate {stay_eliminates}", r988))
        if retreat_cost > 1:
            advice = f"staying costs 1 unit, retreating {retreat_cost}: staying is cheaper"
        elif retreat_cost == 1:
            advice = "staying and retreating each cost 1 unit"
        else:
            advice = "retreating costs nothing, staying 1 unit"
        steps.append(Step(advice, r988))
    survivors = {u.name for u in affected} - eliminated - {u.name for u in lost}
    lost_words = eliminated_words(at_least, len(affected))
    if at_least == len(affected):
        outcome = lost_words
    elif at_least:
        outcome = f"the defending units left are pinned; {lost_words}"
    else:
        outcome = f"the defending units are pinned; {lost_words}"
    steps.append(
        Step(outcome + (" (the cheaper choice)" if may_stay else ""), r988 if may_stay else r987)
    )
    return Retreat(
        m,
        t,
        terrain,
        options,
        best,
        eliminated,
        at_least,
        unaffected,
        frozenset(survivors),
        may_stay,
        stay_eliminates,
        tuple(steps),
        frozenset(zoc),
    )


def _assign(retreaters: list[Unit], free: list[Hex], room: dict[Hex, int]) -> dict[str, Hex | None]:
    """A hex for as many retreaters as there is room for, the strongest first, spread over the
    free hexes one unit at a time in their order."""
    order = sorted(retreaters, key=lambda u: (-u.strength, u.name))
    left = dict(room)
    best: dict[str, Hex | None] = {u.name: None for u in retreaters}
    i = 0
    for u in order:
        open_hexes = [h for h in free if left[h] > 0]
        if not open_hexes:
            break
        h = open_hexes[i % len(open_hexes)]
        left[h] -= 1
        best[u.name] = h
        i += 1
    return {u.name: best[u.name] for u in retreaters}


# --- situations ----------------------------------------------------------------------------

_SITUATION_KEYS = (
    "name",
    "note",
    "map",
    "target",
    "stacking_limit",
    "attacked",
    "bombarded",
    "units",
)
_UNIT_KEYS = ("name", "side", "kind", "strength", "pinned", "immobilized", "spent")


@dataclass(frozen=True)
class Situation:
    """A map with units on it, the hexes being attacked and bombarded, and optionally the target
    hex of a "P" result and the stacking limit: what ``retreat_after_combat`` needs, read from a
    TOML file (format in wbk's README)."""

    name: str
    map: HexMap
    units: Mapping[Hex, tuple[Unit, ...]]
    attacked: frozenset[Hex] = frozenset()
    bombarded: frozenset[Hex] = frozenset()
    target: Hex | None = None
    stacking_limit: int | None = 3
    note: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise WbkError(f"situation name {self.name!r} is not text")
        if not isinstance(self.note, str):
            raise WbkError(f"situation note {self.note!r} is not text")
        object.__setattr__(self, "units", _placement(self.map, self.units))
        object.__setattr__(self, "attacked", _hexes(self.map, self.attacked, "attacked"))
        object.__setattr__(self, "bombarded", _hexes(self.map, self.bombarded, "bombarded"))
        if self.target is not None:
            object.__setattr__(self, "target", self.map.hex(self.target))
        if self.stacking_limit is not None:
            _whole(self.stacking_limit, "stacking limit", 1)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Situation:
        """A situation from a TOML file; a map file it names is read relative to its folder."""
        _check_path(path, "situation")
        text = read_text(path, "situation")
        return cls.from_toml(text, source=str(path), folder=Path(path).parent)

    @classmethod
    def from_toml(
        cls, text: str, *, source: str = "situation", folder: str | os.PathLike | None = None
    ) -> Situation:
        """A situation from TOML text; ``folder`` is where a relative map path is looked for (the
        current folder by default). Anything wrong is a ``WbkError`` naming ``source`` and key."""
        if not isinstance(text, str):
            raise WbkError(f"{source}: {text!r} is not TOML text")
        if folder is not None:
            _check_path(folder, "folder")
        data = parse_toml(text, source)

        def fail(key: str, message: str):
            raise WbkError(f"{source}: {key}: {message}")

        unknown = sorted(set(data) - set(_SITUATION_KEYS))
        if unknown:
            fail(unknown[0], f"unknown key (expected {', '.join(_SITUATION_KEYS)})")
        for key in ("name", "map", "units"):
            if key not in data:
                fail(key, "missing")
        name, note = data["name"], data.get("note", "")
        if not isinstance(name, str):
            fail("name", f"{name!r} is not text")
        if not isinstance(note, str):
            fail("note", f"{note!r} is not text")

        where = data["map"]
        if isinstance(where, str):
            path = Path(folder or ".") / where
            try:
                m = HexMap.load(path)
            except WbkError as e:
                fail("map", str(e))
        elif isinstance(where, dict):
            m = _MapReader(f"{source}: [map]").read(where)
        else:
            fail("map", f"{where!r} (expected a map file's path or a [map] table)")

        def hexes(key: str) -> frozenset[Hex]:
            values = data.get(key, [])
            if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
                fail(key, f"{values!r} (expected a list of quoted hex labels)")
            try:
                return frozenset(m.hex(v) for v in values)
            except WbkError as e:
                fail(key, str(e))

        attacked, bombarded = hexes("attacked"), hexes("bombarded")
        target = data.get("target")
        if target is not None:
            try:
                target = m.hex(target)
            except WbkError as e:
                fail("target", str(e))
        limit = data.get("stacking_limit", 3)
        if limit == "none":
            limit = None
        elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            fail("stacking_limit", f'{limit!r} is not a whole number of 1 or more, or "none"')

        table = data["units"]
        if not isinstance(table, dict):
            fail("units", f"expected a table [units] of hex = [units], found {table!r}")
        units: dict[Hex, list[Unit]] = {}
        for label, listed in table.items():
            key = f"[units] {label}"
            try:
                h = m.hex(label)
            except WbkError as e:
                fail(key, str(e))
            if not isinstance(listed, list):
                example = "{ name = ..., side = ..., kind = ... }"
                fail(key, f"{listed!r} (expected a list of units like {example})")
            here = []
            for values in listed:
                if not isinstance(values, dict):
                    fail(key, f"{values!r} is not a unit table")
                extra = sorted(set(values) - set(_UNIT_KEYS))
                if extra:
                    fail(key, f"{extra[0]}: unknown key (expected {', '.join(_UNIT_KEYS)})")
                for needed in ("name", "side", "kind"):
                    if needed not in values:
                        fail(key, f"{needed}: missing")
                try:
                    here.append(Unit(**values))
                except WbkError as e:
                    fail(key, str(e))
            units[h] = here
        try:
            return cls(name, m, units, attacked, bombarded, target, limit, note)
        except WbkError as e:
            fail("units", str(e))

    def retreat(
        self, target: Hex | str | None = None, *, zoc_kinds: Iterable[str] = ZOC_KINDS
    ) -> Retreat:
        """``retreat_after_combat`` in this situation, for ``target`` (the situation's own target
        by default)."""
        if target is None:
            if self.target is None:
                raise WbkError(f"situation {self.name!r} names no target: give the defenders' hex")
            target = self.target
        return retreat_after_combat(
            self.map,
            self.units,
            target,
            attacked=self.attacked,
            bombarded=self.bombarded,
            stacking_limit=self.stacking_limit,
            zoc_kinds=zoc_kinds,
        )

    def to_toml(self) -> str:
        """The situation in the TOML format ``from_toml`` reads, its map inline: units by hex,
        hexes sorted, a unit's optional keys written only where they differ from the default."""
        m, text = self.map, json.dumps
        lines = [
            "# A Streets of Stalingrad situation; the format is described in wbk's README.",
            f"name = {text(self.name, ensure_ascii=False)}",
        ]
        if self.note:
            lines.append(f"note = {text(self.note, ensure_ascii=False)}")
        if self.target is not None:
            lines.append(f"target = {text(m.label(self.target))}")
        limit = '"none"' if self.stacking_limit is None else self.stacking_limit
        lines.append(f"stacking_limit = {limit}")
        for key in ("attacked", "bombarded"):
            hexes = sorted(m.label(h) for h in getattr(self, key))
            if hexes:
                lines.append(f"{key} = {text(hexes)}")
        lines.append("\n[map]")
        for line in m.to_toml().splitlines():
            if line.startswith("#"):
                continue
            lines.append(f"[map.{line[1:]}" if line.startswith("[") else line)
        lines.append("\n[units]")
        for h, here in sorted(self.units.items(), key=lambda item: m.label(item[0])):
            listed = []
            for u in here:
                values = {"name": u.name, "side": u.side, "kind": u.kind}
                values |= {k: getattr(u, k) for k in _UNIT_KEYS[3:] if getattr(u, k)}
                listed.append(
                    "{ "
                    + ", ".join(
                        f"{k} = {str(v).lower() if isinstance(v, bool) else text(v, ensure_ascii=False)}"
                        for k, v in values.items()
                    )
                    + " }"
                )
            lines.append(f'"{m.label(h)}" = [\n    ' + ",\n    ".join(listed) + ",\n]")
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike) -> None:
        """Write the situation as TOML (``to_toml``); ``Situation.load`` reads it back."""
        _check_path(path, "situation")
        path = Path(path).expanduser()
        if path.suffix != ".toml":
            raise WbkError(f"situation file name {path.name!r} should end in .toml")
        write_atomically(path, self.to_toml(), "situation")

    def _repr_html_(self) -> str:
        units = count(sum(len(here) for here in self.units.values()), "unit")
        return f"<b>{html.escape(self.name)}</b>: {units} on {html.escape(self.map.name)}"


def example_situation(name: str) -> Situation:
    """A situation shipped with wbk (``wbk/data/situations/``), by file name without ".toml"."""
    folder = resources.files("wbk") / "data" / "situations"
    names = _shipped(folder)
    if name not in names:
        raise WbkError(f"no shipped situation called {name!r} (there are: {', '.join(names)})")
    path = folder / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    return Situation.from_toml(text, source=f"wbk/data/situations/{name}.toml")
