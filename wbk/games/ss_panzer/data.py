"""SS Panzer's units and the data of its counters and charts (``GameData``, read from a TOML
file; ``example_data()`` is wbk's illustrative file), and the checks of what the rules are
given: a map, names, hexes, a unit by its name."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import NoReturn

from wbk.checks import Input, short_text
from wbk.checks import choice as _choice
from wbk.checks import flag as _flag
from wbk.datafile import parse_toml, read_text
from wbk.errors import WbkError
from wbk.hexgrid import Hex
from wbk.maps import HexMap

SIDES = ("German", "Soviet")
#: wbk's illustrative data file (``example_data``).
EXAMPLE_DATA = Path(__file__).with_name("example_data.toml")
#: What the values of a data file's sections take, declared once: ``GameData`` checks its
#: fields with them, and a data file's reader each key, naming its section.
DICE = Input.whole(1)
FLAG = Input.flag()
NAMES = Input.list(Input.text())
SECTIONS: dict[str, dict[str, Input]] = {
    "movement": {"mcf_terrain": NAMES, "mcf_hexsides": NAMES},
    "fire": {
        "base_dice": DICE,
        "conditions": Input.table(DICE),
        "one_always_hits": FLAG,
        "step_loss_hits": DICE,
        "separate_fires": FLAG,
    },
}
#: The facts a source may be named for: the units and each key of the sections.
_FACTS = ("units", *SECTIONS["movement"], *SECTIONS["fire"])


def _rule(number: str) -> str:
    return f"SS Panzer errata {number}"


def _names(values: object, name: str) -> list[str]:
    """A list of names; a lone string is refused rather than read as a list of letters."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise WbkError(f"{name} {values!r} is not a list of names (write [{values!r}] for one)")
    values = list(values)
    for v in values:
        if not isinstance(v, str):
            raise WbkError(f"{name}: {v!r} is not a name")
    return values


def _map(m: object) -> HexMap:
    if not isinstance(m, HexMap):
        raise WbkError(f"{m!r} is not a HexMap (load one with HexMap.load or example_map)")
    return m


def _names_or_hexes(values: object, name: str) -> list:
    if isinstance(values, (str, bytes, Hex)) or not isinstance(values, Iterable):
        raise WbkError(f"{name} {values!r} is not a list of hexes")
    return list(values)


@dataclass(frozen=True)
class Unit:
    """A unit type: its side, movement points (MP) and movement cost factor (MCF)."""

    name: str
    side: str
    mp: int
    mcf: int
    motorized: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise WbkError(f"unit name {self.name!r} is not a name")
        short_text(self.name, "unit name")
        if self.side not in SIDES:
            raise WbkError(f"unit {self.name!r}: side {self.side!r} is not German or Soviet")
        for key in ("mp", "mcf"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
                raise WbkError(
                    f"unit {self.name!r}: {key} {value!r} is not a whole number of 1 or more"
                )
        _flag(self.motorized, f"unit {self.name!r}: motorized")
        if not self.motorized and self.side != "Soviet":
            raise WbkError(
                f"unit {self.name!r}: only the Soviet airborne battalions are non-motorized "
                "(errata 8.2)"
            )


@dataclass(frozen=True)
class GameData:
    """What SS Panzer's counters and charts give and the errata does not: unit values, which
    terrain costs an MCF, how many dice each fire condition rolls, and the fire facts of the
    official errata. ``sources`` names the text each fact comes from; steps cite it.
    """

    units: Mapping[str, Unit]
    mcf_terrain: frozenset[str]
    mcf_hexsides: frozenset[str]
    base_dice: int
    condition_dice: Mapping[str, int]
    one_always_hits: bool
    step_loss_hits: int
    separate_fires: bool
    sources: Mapping[str, str]

    def __post_init__(self) -> None:
        if not isinstance(self.units, Mapping) or not self.units:
            raise WbkError(f"units {self.units!r} is not a table of one or more units by name")
        for name, unit in self.units.items():
            if not isinstance(unit, Unit) or unit.name != name:
                raise WbkError(f"units: {name!r} is not a Unit called {name!r}")
        for key in ("mcf_terrain", "mcf_hexsides"):  # any collection of names
            object.__setattr__(self, key, frozenset(_names(getattr(self, key), key)))
        for key, takes in SECTIONS["fire"].items():
            field = "condition_dice" if key == "conditions" else key
            takes.check(getattr(self, field), field)
        if not isinstance(self.sources, Mapping):
            raise WbkError(f"sources {self.sources!r} is not a table of sources by fact")
        for fact, text in self.sources.items():
            _choice(fact, _FACTS, "source for the fact")
            if not isinstance(text, str):
                raise WbkError(f"source of {fact} {text!r} is not text")

    def source(self, fact: str) -> str:
        """The text a fact of this data comes from, as a step cites it."""
        return self.sources.get(_choice(fact, _FACTS, "fact"), "game data")

    @classmethod
    def load(cls, path: str | Path) -> GameData:
        return cls.from_toml(read_text(path, "game data"), source=str(path))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "game data") -> GameData:
        if not isinstance(text, str):
            raise WbkError(f"game data {text!r} is not TOML text")
        return _DataReader(source).read(parse_toml(text, source))


class _DataReader:
    """Turns parsed TOML into GameData, naming the file, section and key of anything wrong."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, message: str) -> NoReturn:
        raise WbkError(f"{self.source}: {where}: {message}")

    def section(self, data: dict, name: str) -> dict:
        """The section ``name``, each of its keys (if it declares them) there and as it takes."""
        if name not in data:
            self.fail(f"[{name}]", "missing section")
        value = data[name]
        if not isinstance(value, dict):
            self.fail(f"[{name}]", f"{value!r} is not a table")
        known = SECTIONS.get(name)
        if known is not None:
            for key in sorted(set(value) - set(known)):
                self.fail(f"[{name}] {key}", f"unknown key (expected {', '.join(sorted(known))})")
            for key, takes in known.items():
                if key not in value:
                    self.fail(f"[{name}] {key}", "missing")
                wrong = takes.problem(value[key])
                if wrong:
                    self.fail(f"[{name}] {key}", wrong)
        return value

    def read(self, data: dict) -> GameData:
        sections = (*SECTIONS, "units", "sources")
        for key in sorted(set(data) - set(sections)):
            self.fail(key, f"unknown section (expected {', '.join(sections)})")
        movement, fire = self.section(data, "movement"), self.section(data, "fire")
        units = self.section(data, "units")
        sources = self.section(data, "sources") if "sources" in data else {}
        read_units = {name: self.unit(name, values) for name, values in units.items()}
        if not read_units:
            self.fail("[units]", 'no units (expected at least one [units."name"] table)')
        for fact, text in sources.items():
            if fact not in _FACTS:
                self.fail(
                    f"[sources] {fact}", f"unknown fact (expected one of {', '.join(_FACTS)})"
                )
            if not isinstance(text, str):
                self.fail(f"[sources] {fact}", f"{text!r} (expected quoted text)")
        return GameData(
            read_units,
            frozenset(movement["mcf_terrain"]),
            frozenset(movement["mcf_hexsides"]),
            fire["base_dice"],
            fire["conditions"],
            fire["one_always_hits"],
            fire["step_loss_hits"],
            fire["separate_fires"],
            sources,
        )

    def unit(self, name: str, values: object) -> Unit:
        where = f"[units.{name!r}]"
        if not isinstance(values, dict):
            self.fail(where, "expected a table with side, mp and mcf")
        for key in sorted(set(values) - {"side", "mp", "mcf", "motorized"}):
            self.fail(f"{where} {key}", "unknown key (expected side, mp, mcf, motorized)")
        for key in ("side", "mp", "mcf"):
            if key not in values:
                self.fail(f"{where} {key}", "missing")
        try:
            return Unit(
                name, values["side"], values["mp"], values["mcf"], values.get("motorized", True)
            )
        except WbkError as e:
            self.fail(where, str(e))


@functools.cache
def example_data() -> GameData:
    """wbk's illustrative SS Panzer data (``example_data.toml`` in this folder): stand-in values,
    except where the errata gives them."""
    text = EXAMPLE_DATA.read_text(encoding="utf-8")
    return GameData.from_toml(text, source="wbk/games/ss_panzer/example_data.toml")


def _data(data: object) -> GameData:
    if data is None:
        return example_data()
    if not isinstance(data, GameData):
        raise WbkError(f"data {data!r} is not GameData (load it with GameData.load)")
    return data


def _unit(unit: object, data: GameData) -> Unit:
    """A Unit, given as one or by its name in the game data."""
    if isinstance(unit, Unit):
        return unit
    if isinstance(unit, str):
        if unit not in data.units:
            raise WbkError(
                f"unit {unit!r} is not in the game data (units: {', '.join(data.units)})"
            )
        return data.units[unit]
    raise WbkError(f"unit {unit!r} is not a Unit or a unit's name")
