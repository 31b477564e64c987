"""SS Panzer (Command Magazine #36) as code, after Alan R. Arvold's unofficial errata.

Public names:

- ``Unit``, ``GameData``, ``example_data()``: units and the terrain and fire data (user data);
- 8.3 movement: ``entry_cost`` (``explain_entry`` with its steps), ``movement_range``, ``route``
  (a cheapest path, explained), ``plan_movement`` (both from one search);
- 9.4 line of sight: ``line_of_sight`` (``LosResult``), ``has_los``, ``viewshed``,
  ``intervisibility`` (every pair of hexes at once), the
  readings ``SLOPE_HEX_READINGS``, ``SLOPE_HEX_OF_READINGS``, ``SLOPE_END_READINGS``,
  ``EDGE_READINGS`` with their words for a control (``READING_WORDS``, ``READING_QUESTIONS``,
  ``READING_RULES``), and
  ``reading_differences`` (where a reading decides the answer);
- 9.5 fire: ``fire_dice``, ``hits``, ``fire_effect``, ``soviet_artillery_dice``, ``FireEffect``;
- 3.3 victory: ``geographic_victory``.

Hexes may be given as ``Hex`` or as printed labels ("1913") wherever a map is at hand, and units
as a ``Unit`` or by their name in the game data.

>>> from wbk.maps import example_map
>>> m = example_map("ss_panzer_errata_9_4")
>>> has_los(m, "1913", "1816"), has_los(m, "1913", "1716")
(True, False)
>>> entry_cost(m, "Pz IV", "1610", "1609")
6
"""

from __future__ import annotations

import enum
import functools
import heapq
import html
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from numbers import Integral
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NoReturn, cast

from wbk.checks import choice as _choice
from wbk.checks import flag as _flag
from wbk.checks import short_text
from wbk.checks import whole as _whole
from wbk.datafile import parse_toml, read_text
from wbk.dice import Dist, d6
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html
from wbk.games import Game, register
from wbk.games.ss_panzer.readings import READINGS as _DECLARED
from wbk.hexgrid import Corner, Hex, Hexside, Trace, trace
from wbk.maps import HexMap

if TYPE_CHECKING:  # imported when called: ``import wbk.games.ss_panzer`` stays free of numpy
    from wbk.games.ss_panzer.sightlines import Intervisibility

__all__ = [
    "EDGE_READINGS",
    "READING_QUESTIONS",
    "READING_RULES",
    "READING_WORDS",
    "SLOPE_END_READINGS",
    "SLOPE_HEX_OF_READINGS",
    "SLOPE_HEX_READINGS",
    "FireEffect",
    "GameData",
    "Unit",
    "entry_cost",
    "example_data",
    "explain_entry",
    "fire_dice",
    "fire_effect",
    "geographic_victory",
    "has_los",
    "hits",
    "intervisibility",
    "line_of_sight",
    "movement_range",
    "plan_movement",
    "reading_differences",
    "route",
    "soviet_artillery_dice",
    "viewshed",
]

SIDES = ("German", "Soviet")
TRENCH = "trench"
_TRENCHES = frozenset({TRENCH})
SLOPE = "slope"
Action = Literal["move", "move_and_fire"]
EdgeReading = Literal["both", "either"]
SlopeHexReading = Literal["enter_not_beyond", "hexsides_only"]
SlopeHexOfReading = Literal["both", "firer"]
SlopeEndReading = Literal["crosses", "touches"]
ZocReading = Literal["largest", "separate"]

#: Blocking terrain beside a line along a hexside or through a corner: must "both" hexes block,
#: or does "either" block? (SS Panzer's terrain chart, not the errata.)
EDGE_READINGS: tuple[EdgeReading, ...] = ("both", "either")
#: Errata 9.4's general sentence: a line between two hexes without a slope hexside may enter a
#: hex with slope symbols but not pass beyond it ("enter_not_beyond"), or only slope hexsides
#: block ("hexsides_only").
SLOPE_HEX_READINGS: tuple[SlopeHexReading, ...] = ("enter_not_beyond", "hexsides_only")
#: Whose hex that sentence looks at: the line is held at the slope hex when "both" units' hexes
#: lack a slope hexside (a line of sight stays the same both ways), or whenever the "firer"'s
#: hex lacks one (the sentence speaks of the units that trace the line).
SLOPE_HEX_OF_READINGS: tuple[SlopeHexOfReading, ...] = ("both", "firer")
#: A line through the end point of a slope hexside, from one of its hexes into the other: it
#: "crosses" the slope hexside (and is blocked like any crossing), or only "touches" it.
SLOPE_END_READINGS: tuple[SlopeEndReading, ...] = ("crosses", "touches")
#: Each reading's keyword, and each of its values in the words a control shows (the default
#: first), so that every panel and picture names a reading alike; the question each answers,
#: as a control's label; and the rule it reads.
READING_WORDS: dict[str, dict[str, str]] = {
    "slope_hex": {
        "enter_not_beyond": "may enter, not see beyond (9.4)",
        "hexsides_only": "only slope hexsides block",
    },
    "slope_hex_of": {
        "both": "either unit's hex",
        "firer": "the firer's hex",
    },
    "slope_end": {"crosses": "crosses it", "touches": "only touches it"},
    "edge": {"both": "both sides must block", "either": "either side blocks"},
}
READING_QUESTIONS: dict[str, str] = {
    "slope_hex": "slope hexes",
    "slope_hex_of": "slope hexside needed in",
    "slope_end": "a line through a slope's end",
    "edge": "along a hexside",
}
READING_RULES: dict[str, str] = {
    "slope_hex": "SS Panzer errata 9.4: may a line between hexes without a slope hexside pass "
    "beyond a hex with slope symbols?",
    "slope_hex_of": "SS Panzer errata 9.4: do the units without a slope hexside of its general "
    "sentence mean both units, or the firer?",
    "slope_end": "SS Panzer errata 9.4: does a line through the end point of a slope hexside "
    "cross it?",
    "edge": "SS Panzer's terrain chart: must the hexes on both sides of a hexside the line runs "
    "along (or of a corner it passes) block, or does either?",
}
_ACTIONS = ("move", "move_and_fire")
_FACTS = (
    "units",
    "mcf_terrain",
    "mcf_hexsides",
    "base_dice",
    "conditions",
    "one_always_hits",
    "step_loss_hits",
    "separate_fires",
)


def _reading_said(keyword: str, value: str) -> str:
    """A reading as a step names it, in the words its control shows: "(slope hexside needed
    in: the firer's hex)"; the code names stay in code."""
    return f"({READING_QUESTIONS[keyword]}: {READING_WORDS[keyword][value]})"


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


# --- data ----------------------------------------------------------------------------------


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
        object.__setattr__(self, "mcf_terrain", frozenset(_names(self.mcf_terrain, "mcf_terrain")))
        object.__setattr__(
            self, "mcf_hexsides", frozenset(_names(self.mcf_hexsides, "mcf_hexsides"))
        )
        _whole(self.base_dice, "base_dice", 1)
        if not isinstance(self.condition_dice, Mapping):
            raise WbkError(
                f"condition_dice {self.condition_dice!r} is not a table of dice by condition"
            )
        for condition, dice in self.condition_dice.items():
            _whole(dice, f"dice for fire condition {condition!r}", 1)
        _flag(self.one_always_hits, "one_always_hits")
        _whole(self.step_loss_hits, "step_loss_hits", 1)
        _flag(self.separate_fires, "separate_fires")
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

    sections: ClassVar[dict[str, set[str] | None]] = {
        "movement": {"mcf_terrain", "mcf_hexsides"},
        "fire": {"base_dice", "one_always_hits", "step_loss_hits", "separate_fires", "conditions"},
        "units": None,
        "sources": None,
    }

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, message: str) -> NoReturn:
        raise WbkError(f"{self.source}: {where}: {message}")

    def section(self, data: dict, name: str) -> dict:
        if name not in data:
            self.fail(f"[{name}]", "missing section")
        value = data[name]
        if not isinstance(value, dict):
            self.fail(f"[{name}]", f"{value!r} is not a table")
        known = self.sections[name]
        if known is not None:
            for key in sorted(set(value) - known):
                self.fail(f"[{name}] {key}", f"unknown key (expected {', '.join(sorted(known))})")
            for key in sorted(known - set(value)):
                self.fail(f"[{name}] {key}", "missing")
        return value

    def read(self, data: dict) -> GameData:
        for key in sorted(set(data) - set(self.sections)):
            self.fail(key, f"unknown section (expected {', '.join(self.sections)})")
        movement, fire = self.section(data, "movement"), self.section(data, "fire")
        units, sources = self.section(data, "units"), data.get("sources", {})

        def names(key: str) -> frozenset[str]:
            value = movement[key]
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                self.fail(f"[movement] {key}", f"{value!r} (expected a list of quoted names)")
            return frozenset(value)

        def whole(where: str, value: object, least: int) -> int:
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                self.fail(where, f"{value!r} is not a whole number of {least} or more")
            return value

        def flag(key: str) -> bool:
            if not isinstance(fire[key], bool):
                self.fail(f"[fire] {key}", f"{fire[key]!r} (expected true or false)")
            return fire[key]

        if not isinstance(fire["conditions"], dict):
            self.fail("[fire.conditions]", f"{fire['conditions']!r} is not a table")
        conditions = {
            k: whole(f"[fire.conditions] {k}", v, 1) for k, v in fire["conditions"].items()
        }
        read_units = {name: self.unit(name, values) for name, values in units.items()}
        if not read_units:
            self.fail("[units]", 'no units (expected at least one [units."name"] table)')
        if not isinstance(sources, dict):
            self.fail("[sources]", f"{sources!r} is not a table")
        for fact, text in sources.items():
            if fact not in _FACTS:
                self.fail(
                    f"[sources] {fact}", f"unknown fact (expected one of {', '.join(_FACTS)})"
                )
            if not isinstance(text, str):
                self.fail(f"[sources] {fact}", f"{text!r} (expected quoted text)")
        return GameData(
            read_units,
            names("mcf_terrain"),
            names("mcf_hexsides"),
            whole("[fire] base_dice", fire["base_dice"], 1),
            conditions,
            flag("one_always_hits"),
            whole("[fire] step_loss_hits", fire["step_loss_hits"], 1),
            flag("separate_fires"),
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
    """wbk's illustrative SS Panzer data (``wbk/data/ss_panzer.toml``): stand-in values, except
    where the errata gives them."""
    path = resources.files("wbk") / "data" / "ss_panzer.toml"
    return GameData.from_toml(path.read_text(encoding="utf-8"), source="wbk/data/ss_panzer.toml")


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


# --- 8.3 movement --------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryCost:
    """What entering one hex costs, whether the unit may enter it, and why."""

    mp: int
    allowed: bool
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        verdict = "" if self.allowed else ": may not enter"
        return f"<b>{self.mp} MP{verdict}</b>{steps_html(self.steps)}"


def _charged(
    m: HexMap, unit: Unit, a: Hex, b: Hex, data: GameData
) -> list[tuple[str, Hex | Hexside]]:
    """Errata 8.3: the MCF-producing terrain met entering b from a, one (terrain, where) pair per
    MCF paid: the hex's terrain, the hexside's features, and for Germans the trench."""
    side = Hexside._unchecked(a, b)
    terrain = m.terrain(b)
    charged: list[tuple[str, Hex | Hexside]] = (
        [(TRENCH, b)] if TRENCH in terrain and unit.side == "German" else []
    )
    charged += [(t, b) for t in sorted(terrain & data.mcf_terrain - {TRENCH})]
    charged += [(f, side) for f in sorted(m.features(side) & data.mcf_hexsides)]
    return charged


def _entry_mp(m: HexMap, unit: Unit, a: Hex, b: Hex, data: GameData) -> int:
    """``len(_charged(...))`` MCF, counted without naming them (the search's inner loop)."""
    terrain = m.terrain(b)
    count = len(terrain & data.mcf_terrain - _TRENCHES)
    count += unit.side == "German" and TRENCH in terrain
    if data.mcf_hexsides:
        count += len(m.features(Hexside._unchecked(a, b)) & data.mcf_hexsides)
    return count * unit.mcf if count else 1


def _may_exceed(action: str, moved: bool) -> bool:
    """Errata 8.3: only a Move action by a unit that has not yet moved may enter a hex it
    cannot pay for in full."""
    return action == "move" and not moved


def _movement_state(action: object, moved: object) -> tuple[Action, bool]:
    return cast(Action, _choice(action, _ACTIONS, "action")), _flag(moved, "moved")


def explain_entry(
    m: HexMap,
    unit: Unit | str,
    frm: Hex | str,
    to: Hex | str,
    data: GameData | None = None,
    *,
    mp_left: int | None = None,
    moved: bool = False,
    action: Action = "move",
) -> EntryCost:
    """Errata 8.3: the cost of entering ``to`` from the adjacent ``frm``, step by step.

    With ``mp_left`` it also says whether the unit may enter: a hex costing more than the MP left
    may be entered only on a Move action by a unit that has not yet moved this Action Phase
    (``moved=False``), as its one hex.
    """
    m, data = _map(m), _data(data)
    unit = _unit(unit, data)
    action, moved = _movement_state(action, moved)
    if mp_left is not None:
        _whole(mp_left, "MP left")
    a, b = m.hex(frm), m.hex(to)
    m.hexside(a, b)  # names the two hexes if they are not adjacent
    kinds = _charged(m, unit, a, b, data)
    rule = _rule("8.3")
    # each step is about the hex entered; a step naming a hexside's MCF is about that side too
    entered = (b, *{where for _, where in kinds if isinstance(where, Hexside)})
    steps = []
    if TRENCH in m.terrain(b):
        if unit.side == "German":
            steps.append(Step("German units pay an MCF for the trenchline", rule, about=(b,)))
        elif kinds:
            steps.append(
                Step(
                    "a Soviet unit pays nothing for the trench, but pays for the other terrain",
                    rule,
                    about=(b,),
                )
            )
        else:
            steps.append(
                Step(
                    "a Soviet unit entering a trench hex with no other MCF terrain pays 1 MP",
                    rule,
                    about=(b,),
                )
            )
    if kinds:
        cost = len(kinds) * unit.mcf
        named = [
            f"{kind} {'hexside ' if isinstance(where, Hexside) else 'in '}{m.label(where)}"
            for kind, where in kinds
        ]
        steps.append(
            Step(
                f"{m.label(b)}: {' + '.join(named)} = {len(kinds)} MCF × {unit.mcf} = {cost} MP",
                rule,
                about=entered,
            )
        )
    else:
        cost = 1
        steps.append(Step(f"{m.label(b)}: no MCF terrain, 1 MP", rule, about=(b,)))
    allowed = mp_left is None or cost <= mp_left or _may_exceed(action, moved)
    if mp_left is not None and cost > mp_left:
        if allowed:
            why = "a unit on a Move action that has not yet moved may always enter one hex"
        elif action == "move_and_fire":
            why = "a unit on a Move & Fire action may not enter it"
        else:
            why = "a unit that has already moved this Action Phase may not enter it"
        steps.append(Step(f"{cost} MP with {mp_left} MP left: {why}", rule, about=(b,)))
    return EntryCost(cost, allowed, tuple(steps))


def entry_cost(
    m: HexMap,
    unit: Unit | str,
    frm: Hex | str,
    to: Hex | str,
    data: GameData | None = None,
    *,
    mp_left: int | None = None,
    moved: bool = False,
    action: Action = "move",
) -> int:
    """Errata 8.3: 1 MP, or the unit's MCF once for each MCF-producing terrain type in the hex
    entered and on the hexside crossed. Germans pay an MCF for a trench; Soviets do not.

    With ``mp_left``, a hex the unit may not enter (see ``explain_entry``) is a ``WbkError``.

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> entry_cost(m, "Pz IV", "1913", "2013"), entry_cost(m, "T-34", "1913", "2013")
    (3, 1)
    """
    entry = explain_entry(m, unit, frm, to, data, mp_left=mp_left, moved=moved, action=action)
    if not entry.allowed:
        raise WbkError(
            f"{_unit(unit, _data(data)).name} may not enter {m.label(m.hex(to))}: "
            f"{entry.steps[-1].text}"
        )
    return entry.mp


@dataclass(frozen=True)
class Movement:
    """Errata 8.3: where a unit can go from ``start``: ``costs`` the least MP spent to reach each
    hex, and ``route(goal)`` a cheapest path there, explained."""

    map: HexMap
    unit: Unit
    start: Hex
    mp: int
    action: str
    moved: bool
    costs: dict[Hex, int]
    previous: dict[Hex, Hex]
    data: GameData

    def route(self, goal: Hex | str) -> Route:
        m, unit, target = self.map, self.unit, self.map.hex(goal)
        if target not in self.costs:
            how = "Move & Fire" if self.action == "move_and_fire" else "Move"
            raise WbkError(
                f"{unit.name} cannot reach {m.label(target)} from {m.label(self.start)} "
                f"with {self.mp} MP ({how}{', having moved' if self.moved else ''})"
            )
        path = [target]
        while path[-1] != self.start:
            path.append(self.previous[path[-1]])
        path.reverse()
        steps = [
            step
            for a, b in itertools.pairwise(path)
            for step in explain_entry(m, unit, a, b, self.data).steps
        ]
        if self.costs[target] > self.mp:
            steps.append(
                Step(
                    f"more than {self.mp} MP, allowed as the one hex a Move action may always "
                    "enter",
                    _rule("8.3"),
                    about=(target,),
                )
            )
        return Route(tuple(path), self.costs[target], tuple(steps))


def plan_movement(
    m: HexMap,
    unit: Unit | str,
    start: Hex | str,
    mp: int | None = None,
    action: Action = "move",
    data: GameData | None = None,
    *,
    moved: bool = False,
) -> Movement:
    """Errata 8.3: every hex a unit can reach, by Dijkstra over the entry costs.

    ``mp`` defaults to the unit's MP. On a Move action a unit that has not yet moved this Action
    Phase may always enter one adjacent hex whatever it costs, and stops there: such a hex is
    listed with its full cost, above ``mp``. On a Move & Fire action (``action="move_and_fire"``),
    or when the unit has already moved one or more hexes (``moved=True``), it may not.
    """
    m, data = _map(m), _data(data)
    unit = _unit(unit, data)
    action, moved = _movement_state(action, moved)
    origin = m.hex(start)
    budget = unit.mp if mp is None else _whole(mp, "MP")
    spent, previous = {origin: 0}, {}
    queue = [(0, origin)]
    while queue:
        cost, h = heapq.heappop(queue)
        if cost > spent.get(h, cost):
            continue
        for n in m.neighbors(h):
            total = cost + _entry_mp(m, unit, h, n, data)
            if total <= budget and total < spent.get(n, total + 1):
                spent[n], previous[n] = total, h
                heapq.heappush(queue, (total, n))
    if _may_exceed(action, moved):
        for n in m.neighbors(origin):
            if n not in spent:
                spent[n], previous[n] = _entry_mp(m, unit, origin, n, data), origin
    return Movement(m, unit, origin, budget, action, moved, spent, previous, data)


def movement_range(
    m: HexMap,
    unit: Unit | str,
    start: Hex | str,
    mp: int | None = None,
    action: Action = "move",
    data: GameData | None = None,
    *,
    moved: bool = False,
) -> dict[Hex, int]:
    """Errata 8.3: the least MP spent to reach each hex the unit can reach (``start``: 0); see
    ``plan_movement`` for the one-hex rule."""
    return plan_movement(m, unit, start, mp, action, data, moved=moved).costs


@dataclass(frozen=True)
class Route:
    """A cheapest path and what each hex of it costs."""

    hexes: tuple[Hex, ...]
    mp: int
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return f"<b>{self.mp} MP</b>{steps_html(self.steps)}"


def route(
    m: HexMap,
    unit: Unit | str,
    start: Hex | str,
    goal: Hex | str,
    mp: int | None = None,
    action: Action = "move",
    data: GameData | None = None,
    *,
    moved: bool = False,
) -> Route:
    """Errata 8.3: a cheapest path from ``start`` to ``goal`` within the unit's MP, explained."""
    return plan_movement(m, unit, start, mp, action, data, moved=moved).route(goal)


# --- 9.4 line of sight ---------------------------------------------------------------------


@dataclass(frozen=True)
class LosResult:
    """Whether a line of sight is clear, what blocks it, and why (each step cites its rule)."""

    firer: Hex
    target: Hex
    clear: bool
    blocking: tuple[Hex | Hexside, ...]
    steps: tuple[Step, ...]
    trace: Trace
    verdict: str  # in a wargamer's words: "clear", "blocked by slope hexside 1813/1913"
    reasons: tuple[str, ...] = ()  # what blocks, each as the verdict names it

    def short_verdict(self, most: int = 3) -> str:
        """The verdict naming at most ``most`` of the things that block, and how many more."""
        if len(self.reasons) <= most:
            return self.verdict
        return f"blocked by {', '.join(self.reasons[:most])} and {len(self.reasons) - most} more"

    def __bool__(self) -> bool:
        return self.clear

    def _repr_html_(self) -> str:
        return f"<b>line of sight {html.escape(self.verdict)}</b>{steps_html(self.steps)}"


def _blocking_names(m: HexMap, blocking_terrain: object) -> frozenset[str]:
    """The map's terrain names meant by ``blocking_terrain``, matched in any case."""
    known = {name.lower(): name for name in m.terrain_hexes}
    chosen = set()
    for name in _names(blocking_terrain, "blocking terrain"):
        if name.lower() not in known:
            have = ", ".join(sorted(known.values())) or "none"
            raise WbkError(
                f"blocking terrain {name!r} is not a terrain of this map (it has: {have})"
            )
        chosen.add(known[name.lower()])
    return frozenset(chosen)


def _los_options(
    m: HexMap,
    blocking_terrain: object,
    edge: object,
    slope_hex: object,
    slope_end: object,
    visibility: object,
    slope_hex_of: object = "both",
) -> dict:
    """``line_of_sight``'s options checked, the blocking terrain as the map's names."""
    options: dict[str, Any] = {
        "edge": _choice(edge, EDGE_READINGS, "edge reading"),
        "slope_hex": _choice(slope_hex, SLOPE_HEX_READINGS, "slope hex reading"),
        "slope_hex_of": _choice(slope_hex_of, SLOPE_HEX_OF_READINGS, "reading of whose hex"),
        "slope_end": _choice(slope_end, SLOPE_END_READINGS, "slope end reading"),
        "visibility": None if visibility is None else _whole(visibility, "visibility (in hexes)"),
    }
    options["blocking_terrain"] = _blocking_names(m, blocking_terrain)
    return options


def _has_slope_hexside(m: HexMap, h: Hex) -> bool:
    return h in m.hexes_beside(SLOPE)


def line_of_sight(
    m: HexMap,
    firer: Hex | str,
    target: Hex | str,
    *,
    blocking_terrain: Iterable[str] = (),
    edge: EdgeReading = "both",
    slope_hex: SlopeHexReading = "enter_not_beyond",
    slope_hex_of: SlopeHexOfReading = "both",
    slope_end: SlopeEndReading = "crosses",
    visibility: int | None = None,
) -> LosResult:
    """Errata 9.4: can a unit in ``firer`` trace a line of sight to ``target``?

    What all four of the errata's examples support, and the defaults:

    - a slope hexside the line crosses or runs along blocks, unless it is a side of the firer's
      or the target's hex (1913 sees 1816 over 1816's own slope; not 1716 along 1715/1816);
    - ``slope_hex="enter_not_beyond"``: a line between two hexes that have no slope hexside may
      enter a hex with slope symbols (the uphill hex of a slope hexside) but not pass beyond it
      (1712 sees 1913, not 2113 through the middle of 1913). ``"hexsides_only"``: only slope
      hexsides block.
    - ``slope_hex_of="both"``: that sentence holds a line only when neither unit's hex has a
      slope hexside, so a line of sight is the same both ways (1808 sees 1914 over 1913, and 1914
      sees 1808). ``"firer"``: it speaks of the firer's hex alone ("units in hexes that do not
      have a slope hexside"), so 1808 does not see 1914 while 1914 still sees 1808. The text does
      not settle it: its example (1712 into 1913) has neither end on a slope hexside.
    - ``slope_end="crosses"``: a line through the end point of a slope hexside, going from one
      of its two hexes into the other, crosses it. ``"touches"``: it only touches the slope's
      end, and that does not block. The examples do not settle this one.

    ``blocking_terrain``: hex terrain types that block a line passing through them (woods, town;
    none by default: that is SS Panzer's terrain chart, not the errata). ``edge``: where the line
    runs along a hexside between a blocking and a clear hex, or grazes a blocking hex at a corner,
    "both" (default) blocks only when the hexes on both sides block, "either" when either does.
    ``visibility``: the longest line in hexes, or None for no limit.

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> [has_los(m, "1712", "2113", slope_hex=reading) for reading in SLOPE_HEX_READINGS]
    [False, True]
    """
    m = _map(m)
    blocking_names: frozenset[str] = _los_options(
        m, blocking_terrain, edge, slope_hex, slope_end, visibility, slope_hex_of
    )["blocking_terrain"]
    a, b = m.hex(firer), m.hex(target)
    tr = trace(a, b)
    rule = _rule("9.4")
    steps = [
        Step(
            f"from {m.label(a)} to {m.label(b)}, {count(a.distance(b), 'hex', 'hexes')}",
            rule,
            about=(a, b),
        )
    ]
    blocking: list[Hex | Hexside] = []
    reasons: list[str] = []  # what blocks, as the verdict names it

    def blocked_by(item: Hex | Hexside, reason: str) -> None:
        blocking.append(item)
        if reason not in reasons:
            reasons.append(reason)

    def blocks(h: Hex) -> bool:
        # a line along the map's edge may pass hexes off the map: nothing there blocks
        return h in m and bool(m.terrain(h) & blocking_names)

    if visibility is not None and a.distance(b) > visibility:
        blocked_by(b, f"visibility ({count(visibility, 'hex', 'hexes')})")
        steps.append(
            Step(f"beyond visibility ({count(visibility, 'hex', 'hexes')})", rule, about=(a, b))
        )
    # errata 9.4's general sentence binds only lines from (reading "firer") or between (reading
    # "both") hexes without a slope hexside
    looked_at = (a,) if slope_hex_of == "firer" else (a, b)
    with_slope_side = [h for h in looked_at if _has_slope_hexside(m, h)]
    beyond_slope_hexes_blocks = slope_hex == "enter_not_beyond" and not with_slope_side
    slope_hexes = set(m.uphill_hexes.values())
    along_pairs = {h for s in tr.along for h in s.hexes}
    previous = None
    for kind, item in tr.course:
        # cross and along pass a hexside, hex a hex, corner a corner
        if isinstance(item, Hexside) and SLOPE in m.features(item):
            at_end = kind == "cross" and previous == "corner"
            how = (
                "passes through the end of"
                if at_end
                else "crosses"
                if kind == "cross"
                else "runs along"
            )
            if a in item or b in item:  # a side of either unit's own hex
                whose = "firer's" if a in item else "target's"
                steps.append(
                    Step(
                        f"{how} slope hexside {m.label(item)}, a side of the {whose} hex: no block",
                        rule,
                        about=(item,),
                    )
                )
            elif at_end and slope_end == "touches":
                steps.append(
                    Step(
                        f"{how} slope hexside {m.label(item)}: only touches it "
                        f"{_reading_said('slope_end', 'touches')}: no block",
                        rule,
                        about=(item,),
                    )
                )
            else:
                blocked_by(
                    item, f"slope hexside {m.label(item)}" + (" at its end" if at_end else "")
                )
                reading = f" {_reading_said('slope_end', 'crosses')}" if at_end else ""
                steps.append(
                    Step(
                        f"{how} slope hexside {m.label(item)}, between the two units{reading}: "
                        "blocked",
                        rule,
                        about=(item,),
                    )
                )
        if (
            isinstance(item, Hex)
            and item not in (a, b)
            and item in slope_hexes
            and slope_hex == "enter_not_beyond"
        ):
            whose_reading = _reading_said("slope_hex_of", slope_hex_of)
            if beyond_slope_hexes_blocks:
                blocked_by(item, f"slope hex {m.label(item)}")
                nobody = (
                    f"the firer's hex {m.label(a)} has no slope hexside"
                    if slope_hex_of == "firer"
                    else "neither unit's hex has a slope hexside"
                )
                steps.append(
                    Step(
                        f"passes through {m.label(item)}, a hex with slope symbols, and beyond it; "
                        f"{nobody} {whose_reading}: blocked",
                        rule,
                        about=(item,),
                    )
                )
            else:
                whose = ", ".join(m.label(h) for h in with_slope_side)
                steps.append(
                    Step(
                        f"passes through {m.label(item)}, a hex with slope symbols; {whose} has a "
                        f"slope hexside {whose_reading}, so the line may go beyond it",
                        rule,
                        about=(item, *with_slope_side),
                    )
                )
        previous = kind
        if not blocking_names:
            continue
        if isinstance(item, Hex) and item not in (a, b) and blocks(item):
            terrain = ", ".join(sorted(m.terrain(item) & blocking_names))
            blocked_by(item, f"{terrain} in {m.label(item)}")
            steps.append(
                Step(f"passes through {m.label(item)} ({terrain})", "terrain chart", about=(item,))
            )
        elif kind == "along" and isinstance(item, Hexside):
            sides = [blocks(h) for h in item.hexes]
            if all(sides) or (edge == "either" and any(sides)):
                for h in item.hexes:
                    if blocks(h):
                        blocked_by(h, f"terrain along hexside {m.label(item)}")
                steps.append(
                    Step(
                        f"runs along {m.label(item)} with blocking terrain on "
                        f"{'both sides' if all(sides) else 'one side'} "
                        + _reading_said("edge", edge),
                        "terrain chart",
                        about=(item,),
                    )
                )
        elif isinstance(item, Corner) and edge == "either":
            for h in item.hexes:
                if h not in tr.hexes and h not in along_pairs and blocks(h):
                    blocked_by(h, f"terrain at corner {m.label(item)}")
                    steps.append(
                        Step(
                            f"grazes {m.label(h)} at a corner {_reading_said('edge', 'either')}",
                            "terrain chart",
                            about=(h, item),
                        )
                    )
    clear = not blocking
    # the verdict is about what blocks the line (nothing: the whole line, unmarked)
    verdict_step = "line of sight clear" if clear else "line of sight blocked"
    steps.append(Step(verdict_step, rule, about=tuple(blocking)))
    verdict = "clear" if clear else "blocked by " + ", ".join(reasons)
    return LosResult(a, b, clear, tuple(blocking), tuple(steps), tr, verdict, tuple(reasons))


def has_los(m: HexMap, firer: Hex | str, target: Hex | str, **options: Any) -> bool:
    """Errata 9.4: True when ``line_of_sight`` finds the line clear (same options)."""
    return line_of_sight(m, firer, target, **options).clear


def viewshed(
    m: HexMap,
    firer: Hex | str,
    *,
    blocking_terrain: Iterable[str] = (),
    edge: EdgeReading = "both",
    slope_hex: SlopeHexReading = "enter_not_beyond",
    slope_hex_of: SlopeHexOfReading = "both",
    slope_end: SlopeEndReading = "crosses",
    visibility: int | None = None,
) -> set[Hex]:
    """Errata 9.4: every hex of the map that a unit in ``firer`` can see (its own hex included);
    the options are those of ``line_of_sight``, whose answer this is for every target.

    The lines are not traced one by one: ``sightlines`` has every line's course by its
    offset, compiled once per map size, and answers with one gather over what blocks (about a
    millisecond on an 80×60 map; tests check it against ``line_of_sight`` pair by pair).

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> len(viewshed(m, "1712")), len(viewshed(m, "1712", slope_hex="hexsides_only"))
    (123, 127)
    """
    m = _map(m)
    options = _los_options(
        m, blocking_terrain, edge, slope_hex, slope_end, visibility, slope_hex_of
    )
    origin = m.hex(firer)
    from wbk.games.ss_panzer.sightlines import sightlines

    return sightlines(m, **options).viewshed(origin)


def intervisibility(
    m: HexMap,
    *,
    blocking_terrain: Iterable[str] = (),
    edge: EdgeReading = "both",
    slope_hex: SlopeHexReading = "enter_not_beyond",
    slope_hex_of: SlopeHexOfReading = "both",
    slope_end: SlopeEndReading = "crosses",
    visibility: int | None = None,
) -> Intervisibility:
    """Errata 9.4 for every pair of hexes of the map at once: an ``Intervisibility``
    (``sightlines``) that says which hexes see which (``sees``, ``seen_from``), how many
    hexes each hex sees (``counts``: the best observation posts), the dead ground of a hex
    (``dead_ground``), and the hexes that see one hex but are not seen from another
    (``sees_but_not_seen_from``). The options are those of ``line_of_sight``.

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> seen = intervisibility(m)
    >>> seen.sees("1913", "1816"), seen.sees("1913", "1716"), len(seen.dead_ground("1712"))
    (True, False, 20)
    """
    m = _map(m)
    options = _los_options(
        m, blocking_terrain, edge, slope_hex, slope_end, visibility, slope_hex_of
    )
    from wbk.games.ss_panzer.sightlines import Intervisibility, sightlines

    return Intervisibility(m, options, sightlines(m, **options).matrix())


_OPTIONS = ("blocking_terrain", "edge", "slope_hex", "slope_hex_of", "slope_end", "visibility")
_READINGS = {
    "slope_hex": SLOPE_HEX_READINGS,
    "slope_hex_of": SLOPE_HEX_OF_READINGS,
    "slope_end": SLOPE_END_READINGS,
    "edge": EDGE_READINGS,
}


def reading_differences(
    m: HexMap,
    reading: str,
    *,
    firers: Iterable[Hex | str] | None = None,
    **options: Any,
) -> list[tuple[Hex, Hex]]:
    """The pairs of hexes whose line of sight one ``reading`` of 9.4 decides: clear under one of
    its two values, blocked under the other (the other ``options`` of ``line_of_sight`` held).
    Each pair once, firer first (the earlier hex of the map first, unless the reading decides
    only the line the other way: ``slope_hex_of`` does so); ``firers`` limits the firers
    (default: every hex of the map).

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> [m.label(b) for a, b in reading_differences(m, "slope_hex", firers=["1712"])]
    ['1817', '1917', '1918', '2113']
    >>> len(reading_differences(m, "slope_hex_of"))
    91
    """
    m = _map(m)
    values = _READINGS[_choice(reading, tuple(_READINGS), "reading")]
    if reading in options:
        raise WbkError(f"{reading!r} is the reading compared: leave it out of the options")
    for key in options:
        if key not in _OPTIONS:
            raise WbkError(f"option {key!r} is not one of {', '.join(_OPTIONS)}")
    hexes = list(m)
    if firers is None:
        under: list[dict[str, Any]] = [{**options, reading: v} for v in values]
        one, other = (intervisibility(m, **o).seen for o in under)
        differ = one != other
        return [
            (hexes[i], hexes[j]) if differ[i, j] else (hexes[j], hexes[i])
            for i in range(len(hexes))
            for j in ((differ[i, i + 1 :] | differ[i + 1 :, i]).nonzero()[0] + i + 1).tolist()
        ]
    chosen = [m.hex(f) for f in _names_or_hexes(firers, "firers")]
    under = [{**options, reading: v} for v in values]
    return [
        (a, b)
        for a in chosen
        for one, other in [[viewshed(m, a, **o) for o in under]]
        for b in hexes
        if b != a and (b in one) != (b in other)
    ]


def _names_or_hexes(values: object, name: str) -> list:
    if isinstance(values, (str, bytes, Hex)) or not isinstance(values, Iterable):
        raise WbkError(f"{name} {values!r} is not a list of hexes")
    return list(values)


# --- 9.5 fire ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FireDice:
    """The fires a unit makes at one target: the dice of each, and why. ``rolled_by`` names
    what gives dice (each condition, or the base, or the artillery's side) with its dice; a
    step is ``about`` those names and the fires' (``fire_names``), as a chart of the dice
    marks them."""

    fires: tuple[int, ...]
    steps: tuple[Step, ...]
    rolled_by: tuple[tuple[str, int], ...] = ()

    @property
    def fire_names(self) -> tuple[str, ...]:
        """Each fire's name in a step's ``about`` and on a chart: "the fire", or "fire 1"..."""
        if len(self.fires) == 1:
            return ("the fire",)
        return tuple(f"fire {k}" for k in range(1, len(self.fires) + 1))

    def _repr_html_(self) -> str:
        dice = " and ".join(count(n, "die", "dice") for n in self.fires)
        return f"<b>{dice}</b>{steps_html(self.steps)}"


def _condition_name(condition: str) -> str:
    """A fire condition as the rules write it: "kill zone", "entering ZOC"."""
    return condition.replace("_", " ").replace("zoc", "ZOC")


def fire_dice(
    conditions: Sequence[str] = (),
    *,
    reading: ZocReading = "largest",
    data: GameData | None = None,
) -> FireDice:
    """Errata 9.5: the dice for fire under the given conditions ("kill_zone", "entering_zoc" in
    wbk's example data).

    ``reading="largest"`` (the unofficial errata 9.5): when several conditions apply, one fire
    with the single largest number of dice any of them gives, never the sum. ``reading="separate"``
    (the official ZOC fire rule): each condition is a fire of its own, resolved separately.

    >>> fire_dice(["kill_zone", "entering_zoc"]).fires
    (4,)
    """
    data = _data(data)
    separate = _choice(reading, ("largest", "separate"), "reading") == "separate"
    conditions = _names(conditions, "fire conditions")
    for c in conditions:
        if c not in data.condition_dice:
            raise WbkError(
                f"fire condition {c!r} is not one of {', '.join(sorted(data.condition_dice))}"
            )
        if conditions.count(c) > 1:
            raise WbkError(f"fire condition {c!r} is listed twice")
    rule = _rule("9.5")
    if not conditions:
        base = "no special condition"
        return FireDice(
            (data.base_dice,),
            (
                Step(
                    f"{base}: {count(data.base_dice, 'die', 'dice')}",
                    data.source("base_dice"),
                    about=(base, "the fire"),
                ),
            ),
            ((base, data.base_dice),),
        )
    rolled_by = tuple((_condition_name(c), data.condition_dice[c]) for c in conditions)
    last_alone = not separate and len(conditions) == 1  # its step is the verdict too
    each = [
        Step(
            f"{name}: {count(dice, 'die', 'dice')}",
            data.source("conditions"),
            about=(name, "the fire") if last_alone else (name,),
        )
        for name, dice in rolled_by
    ]
    if separate:
        fires = tuple(data.condition_dice[c] for c in conditions)
        names = FireDice(fires, (), rolled_by).fire_names
        return FireDice(
            fires,
            (
                *each,
                Step(
                    "each fire resolved separately (official ZOC fire rule)",
                    "SS Panzer official errata",
                    about=names,
                ),
            ),
            rolled_by,
        )
    largest = max(data.condition_dice[c] for c in conditions)
    steps = [*each]
    if len(conditions) > 1:
        chosen = next(name for name, dice in rolled_by if dice == largest)
        steps.append(
            Step(
                f"conditions are not cumulative: the largest, {count(largest, 'die', 'dice')}",
                rule,
                about=(chosen, "the fire"),
            )
        )
    return FireDice((largest,), tuple(steps), rolled_by)


def soviet_artillery_dice(phase: Literal["bombardment", "action"]) -> FireDice:
    """Errata 9.5 and 13.2: Soviet artillery rolls 2 dice, firing its bombardment (barrage) side
    in the Bombardment Phase and its support side in the Action Phase."""
    sides = {"bombardment": "bombardment (barrage) side", "action": "support side"}
    chosen = _choice(phase, tuple(sides), "phase")
    side = f"the {sides[chosen]}"
    return FireDice(
        (2,),
        (
            Step(f"{chosen} phase: {side} fires", _rule("13.2"), about=(side,)),
            Step("Soviet artillery rolls 2 dice", _rule("9.5"), about=(side, "the fire")),
        ),
        ((side, 2),),
    )


class FireEffect(enum.IntEnum):
    """The worst effect of a unit's fire on one target."""

    NO_EFFECT = 0
    SUPPRESSED = 1  # at least one hit
    STEP_LOSS = (
        2  # the game data's step_loss_hits from one firing unit (two, by the official errata)
    )


#: The most dice wbk rolls for one target, and the most fires (an SS Panzer fire rolls a
#: handful of dice): beyond them an exact distribution takes minutes, not milliseconds.
MOST_DICE = 1_000
MOST_FIRES = 1_000


def _at_most(value: int, most: int, what: str) -> int:
    if value > most:
        raise WbkError(f"{value:,} {what} are over the limit of {most:,}")
    return value


def _check_hit_number(hit_number: object) -> int:
    if (
        isinstance(hit_number, bool)
        or not isinstance(hit_number, Integral)
        or not 0 <= int(hit_number) <= 6
    ):
        raise WbkError(f"hit number {hit_number!r} is not a whole number from 0 to 6")
    return int(hit_number)


def hits(dice: int, hit_number: int, *, data: GameData | None = None) -> Dist:
    """Hits from ``dice`` d6, a hit being a roll at or under ``hit_number`` (0 to 6); with the
    official errata's rule in the game data (``one_always_hits``), a 1 always hits.

    >>> hits(2, 0).probability(0)
    Fraction(25, 36)
    """
    dice = _at_most(_whole(dice, "number of dice"), MOST_DICE, "dice")
    _check_hit_number(hit_number)
    one_hits = _data(data).one_always_hits
    return dice @ d6.map(lambda r: (one_hits and r == 1) or r <= hit_number)


def fire_effect(
    fires: FireDice | Sequence[int], hit_number: int, *, data: GameData | None = None
) -> Dist:
    """The exact distribution of ``FireEffect`` on one target. With the official errata's rules
    in the game data, each fire's hits count on their own (fire from different units is never
    combined: ``separate_fires``) and ``step_loss_hits`` (two) hits from one fire are a step loss.

    >>> fire_effect([2], 3).probability(FireEffect.STEP_LOSS)
    Fraction(1, 4)
    """
    data = _data(data)
    _check_hit_number(hit_number)
    if isinstance(fires, FireDice):
        dice = fires.fires
    elif isinstance(fires, (str, bytes)) or not isinstance(fires, Iterable):
        raise WbkError(f"fires {fires!r} is not a list of dice, one number a fire")
    else:
        listed = list(itertools.islice(fires, MOST_FIRES + 1))
        _at_most(len(listed), MOST_FIRES, "fires")
        dice = tuple(_whole(n, "number of dice in a fire") for n in listed)
    _at_most(sum(dice), MOST_DICE, "dice in all the fires together")
    if not data.separate_fires:
        dice = (sum(dice),)
    by_dice = {
        n: hits(n, hit_number, data=data).map(
            lambda h: FireEffect.STEP_LOSS if h >= data.step_loss_hits else FireEffect(min(h, 1))
        )
        for n in set(dice)
    }
    effect = Dist.always(FireEffect.NO_EFFECT)
    for n in dice:
        effect = effect.combine(by_dice[n], max)
    return effect


# --- 3.3 victory ---------------------------------------------------------------------------

STAR_HEXES = 9
STARS_TO_WIN = 7


@dataclass(frozen=True)
class Victory:
    """Errata 3.3's verdict: whether the Soviet player won, how many of the star hexes he
    holds, and which (``held``) of which (``star_hexes``)."""

    won: bool
    controlled: int
    stars: int
    steps: tuple[Step, ...]
    held: tuple[Hex, ...] = ()
    star_hexes: tuple[Hex, ...] = ()

    def _repr_html_(self) -> str:
        verdict = "Soviet geographic victory" if self.won else "no geographic victory"
        return f"<b>{verdict}</b>{steps_html(self.steps)}"


def geographic_victory(
    m: HexMap, soviet_controlled: Iterable[Hex | str], *, marker: str = "star"
) -> Victory:
    """Errata 3.3: a Soviet geographic victory needs control of 7 or more of the 9 circled-star
    hexes (the map's ``star`` marker)."""
    m = _map(m)
    if not isinstance(marker, str):
        raise WbkError(f"marker {marker!r} is not a marker's name")
    stars = m.markers(marker)
    if len(stars) != STAR_HEXES:
        have = ", ".join(f"{k} ({len(v)})" for k, v in sorted(m.marker_hexes.items())) or "none"
        raise WbkError(
            f"errata 3.3 counts {STAR_HEXES} star hexes; this map has {len(stars)} marked "
            f"{marker!r} (its markers: {have})"
        )
    held: set[Hex] = {
        m.hex(h) for h in _names_or_hexes(soviet_controlled, "Soviet-controlled hexes")
    } & stars
    won = len(held) >= STARS_TO_WIN
    in_order = tuple(sorted(stars, key=m.label))
    held_in_order = tuple(h for h in in_order if h in held)
    steps = (
        Step(
            f"the {len(stars)} hexes with a circled star: "
            + ", ".join(m.label(h) for h in in_order),
            _rule("3.3"),
            about=in_order,
        ),
        Step(
            f"the Soviet player controls {len(held)} of the {len(stars)} star hexes"
            + (f": {', '.join(m.label(h) for h in held_in_order)}" if held else ""),
            _rule("3.3"),
            about=held_in_order,
        ),
        Step(
            f"{'at least' if won else 'fewer than'} {STARS_TO_WIN}: "
            f"{'a geographic victory' if won else 'no geographic victory'}",
            _rule("3.3"),
            about=held_in_order,  # the stars that count toward it
        ),
    )
    return Victory(won, len(held), len(stars), steps, held_in_order, in_order)


register(
    Game(
        "ss_panzer",
        title="SS Panzer errata",
        cites=("SS Panzer",),
        readings=_DECLARED,
        quiz="wbk.games.ss_panzer.quiz",
        drawings="wbk.draw.ss_panzer",
        panels="wbk.widgets.ss_panzer",
    )
)
