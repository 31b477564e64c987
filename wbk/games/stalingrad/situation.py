"""Streets of Stalingrad: situation files, a map with units for ``retreat_after_combat``."""

from __future__ import annotations

import html
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from wbk.checks import LONGEST_NOTE, known_keywords, short_text
from wbk.datafile import file_beside, parse_toml, read_text, write_atomically
from wbk.errors import WbkError
from wbk.explain import count
from wbk.hexgrid import Hex
from wbk.maps import HexMap, MapReader

from .readings import GIVEN_UP_TO_STAY, MINEFIELDS_AND_BRIDGES, PINNED_ZOC, RETREAT_INTO
from .retreat import STACKING_LIMIT, ZOC_KINDS, Retreat, _hexes, _placement, retreat_after_combat
from .units import Unit, check_path, shipped, shipped_text

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
#: The most units a situation may hold: a retreat is worked out, and each unit drawn, for all.
MOST_UNITS = 200
_UNIT_KEYS = ("name", "side", "kind", "strength", "pinned", "immobilized", "spent")


@dataclass(frozen=True)
class Situation:
    """A map with units on it, the hexes being attacked and bombarded, and optionally the target
    hex of a "P" result and the stacking limit: what ``retreat_after_combat`` needs, read from a
    TOML file (format in wbk's reference)."""

    name: str
    map: HexMap
    units: Mapping[Hex, Sequence[Unit]]
    attacked: frozenset[Hex] = frozenset()
    bombarded: frozenset[Hex] = frozenset()
    target: Hex | None = None
    stacking_limit: int | None = 3
    note: str = ""

    def __post_init__(self):
        short_text(self.name, "situation name")
        short_text(self.note, "situation note", LONGEST_NOTE, drawn=False)
        object.__setattr__(self, "units", _placement(self.map, self.units))
        placed = sum(len(here) for here in self.units.values())
        if placed > MOST_UNITS:
            raise WbkError(f"{placed:,} units is more than wbk takes ({MOST_UNITS})")
        object.__setattr__(self, "attacked", _hexes(self.map, self.attacked, "attacked"))
        object.__setattr__(self, "bombarded", _hexes(self.map, self.bombarded, "bombarded"))
        if self.target is not None:
            object.__setattr__(self, "target", self.map.hex(self.target))
        if self.stacking_limit is not None:
            STACKING_LIMIT.check(self.stacking_limit, "stacking limit")

    @classmethod
    def load(cls, path: str | os.PathLike) -> Situation:
        """A situation from a TOML file; a map file it names is read relative to its folder."""
        check_path(path, "situation")
        text = read_text(path, "situation")
        return cls.from_toml(text, source=str(path), folder=Path(path).parent)

    @classmethod
    def from_toml(
        cls, text: str, *, source: str = "situation", folder: str | os.PathLike | None = None
    ) -> Situation:
        """A situation from TOML text; ``folder`` is where a map file it names is looked for
        (see ``wbk.datafile.file_beside``; without one, the map must be inline). Anything wrong
        is a ``WbkError`` naming ``source`` and key."""
        if not isinstance(text, str):
            raise WbkError(f"{source}: {text!r} is not TOML text")
        if folder is not None:
            check_path(folder, "folder")
        data = parse_toml(text, source)

        def fail(key: str, message: str) -> NoReturn:
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
            try:
                m = HexMap.load(file_beside(folder, where, "map"))
            except WbkError as e:
                fail("map", str(e))
        elif isinstance(where, dict):
            m = MapReader(f"{source}: [map]").read(where)
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
        elif STACKING_LIMIT.problem(limit):
            fail("stacking_limit", f'{STACKING_LIMIT.problem(limit)}, nor "none"')

        table = data["units"]
        if not isinstance(table, dict):
            fail("units", f"expected a table [units] of hex = [units], found {table!r}")
        listed_units = sum(len(v) for v in table.values() if isinstance(v, list))
        if listed_units > MOST_UNITS:  # before a unit is read
            fail("units", f"{listed_units:,} units is more than wbk takes ({MOST_UNITS})")
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

    @known_keywords
    def retreat(
        self,
        target: Hex | str | None = None,
        *,
        zoc_kinds: Iterable[str] = ZOC_KINDS,
        retreat_into: str = RETREAT_INTO.default,
        pinned_zoc: str = PINNED_ZOC.default,
        given_up_to_stay: str = GIVEN_UP_TO_STAY.default,
        minefields_and_bridges: str = MINEFIELDS_AND_BRIDGES.default,
    ) -> Retreat:
        """``retreat_after_combat`` in this situation, for ``target`` (the situation's own target
        by default), under the readings given (see ``retreat_after_combat``)."""
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
            retreat_into=retreat_into,
            pinned_zoc=pinned_zoc,
            given_up_to_stay=given_up_to_stay,
            minefields_and_bridges=minefields_and_bridges,
        )

    def to_toml(self) -> str:
        """The situation in the TOML format ``from_toml`` reads, its map inline: units by hex,
        hexes sorted, a unit's optional keys written only where they differ from the default."""
        m, text = self.map, json.dumps
        lines = [
            "# A Streets of Stalingrad situation; the format is described in wbk's reference.",
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
                pairs = (f"{k} = {_toml_value(v)}" for k, v in values.items())
                listed.append("{ " + ", ".join(pairs) + " }")
            lines.append(f'"{m.label(h)}" = [\n    ' + ",\n    ".join(listed) + ",\n]")
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike) -> None:
        """Write the situation as TOML (``file_text``); ``Situation.load`` reads it back."""
        check_path(path, "situation")
        path = Path(path).expanduser()
        if path.name == ".toml":
            raise WbkError("situation file name '.toml' needs a name before .toml")
        if path.suffix != ".toml":
            raise WbkError(f"situation file name {path.name!r} should end in .toml")
        write_atomically(path, self.file_text(), "situation")

    def file_text(self) -> str:
        """The situation as a file holds it (``to_toml``), once every text in it can be written:
        a lone surrogate (a broken character) in a name is a ``WbkError`` naming it."""
        for what, text in self._texts():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise WbkError(
                    f"{what} {text!r} cannot be written to a file: it holds a lone surrogate "
                    "(a broken character); nothing was written"
                ) from None
        text = self.to_toml()
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:  # a terrain or feature name of the map
            raise WbkError(
                f"the situation's text {e.object[max(0, e.start - 20) : e.end]!r} cannot be "
                "written to a file: it holds a lone surrogate; nothing was written"
            ) from None
        return text

    def _texts(self) -> list[tuple[str, str]]:
        """Every text the situation writes, with what it is: its name, its note, unit names."""
        texts = [("situation name", self.name), ("situation note", self.note)]
        texts += [("map name", self.map.name)]
        texts += [("unit name", u.name) for here in self.units.values() for u in here]
        return texts

    def _repr_html_(self) -> str:
        units = count(sum(len(here) for here in self.units.values()), "unit")
        return f"<b>{html.escape(self.name)}</b>: {units} on {html.escape(self.map.name)}"


def _toml_value(value: object) -> str:
    """A unit's value as TOML: true/false, a number or a quoted string."""
    if isinstance(value, bool):
        return str(value).lower()
    return json.dumps(value, ensure_ascii=False)


#: The name of a situation wbk ships (the chapter's, all illustrative).
SHIPPED = shipped("situations", "situations")


def example_situation(name: str) -> Situation:
    """A situation shipped with wbk (in the rule set's ``situations/``), by file name without
    ".toml"."""
    text, source = shipped_text("situations", SHIPPED.check(name, "situation name"))
    return Situation.from_toml(text, source=source)
