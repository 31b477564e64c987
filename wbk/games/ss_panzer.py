"""SS Panzer (Command Magazine #36) as code, after Alan R. Arvold's unofficial errata.

Public names:

- ``Unit``, ``GameData``, ``example_data()``: units and the terrain and fire data (user data);
- 8.3 movement: ``entry_cost`` (``explain_entry`` with its steps), ``movement_range``, ``route``
  (a cheapest path, explained), ``plan_movement`` (both from one search);
- 9.4 line of sight: ``line_of_sight`` (``LosResult``), ``has_los``, ``viewshed``;
- 9.5 fire: ``fire_dice``, ``hits``, ``fire_effect``, ``soviet_artillery_dice``, ``FireEffect``;
- 3.3 victory: ``geographic_victory``.

Hexes may be given as ``Hex`` or as printed labels ("1913") wherever a map is at hand.

>>> from wbk.maps import example_map
>>> m = example_map("ss_panzer_errata_9_4")
>>> has_los(m, "1913", "1816"), has_los(m, "1913", "1716")
(True, False)
>>> entry_cost(m, example_data().units["Pz IV"], "1610", "1609")
6
"""

from __future__ import annotations

import enum
import functools
import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from numbers import Integral
from pathlib import Path
from typing import Literal

from wbk.datafile import parse_toml, read_text
from wbk.dice import Dist, d6
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.hexgrid import Hex, Hexside, Trace, trace
from wbk.maps import HexMap

SIDES = ("German", "Soviet")
TRENCH = "trench"
SLOPE = "slope"
Action = Literal["move", "move_and_fire"]
EdgeReading = Literal["both", "either"]
ZocReading = Literal["largest", "separate"]


def _rule(number: str) -> str:
    return f"SS Panzer errata {number}"


# --- data ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """A unit type: its side, movement points (MP) and movement cost factor (MCF)."""

    name: str
    side: str
    mp: int
    mcf: int
    motorized: bool = True

    def __post_init__(self):
        if self.side not in SIDES:
            raise WbkError(f"unit {self.name!r}: side {self.side!r} is not German or Soviet")
        for key in ("mp", "mcf"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
                raise WbkError(f"unit {self.name!r}: {key} {value!r} is not a whole number of 1 or more")
        if not self.motorized and self.side != "Soviet":
            raise WbkError(
                f"unit {self.name!r}: only the Soviet airborne battalions are non-motorized (errata 8.2)"
            )


@dataclass(frozen=True)
class GameData:
    """What SS Panzer's counters and charts give and the errata does not: unit values, which
    terrain costs an MCF, and how many dice each fire condition rolls."""

    units: Mapping[str, Unit]
    mcf_terrain: frozenset[str] = frozenset({"woods", "town"})
    mcf_hexsides: frozenset[str] = frozenset({"stream"})
    base_dice: int = 2
    condition_dice: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> GameData:
        return cls.from_toml(read_text(path, "game data"), source=str(path))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "game data") -> GameData:
        data = parse_toml(text, source)

        def fail(where: str, message: str):
            raise WbkError(f"{source}: {where}: {message}")

        def names(section: dict, key: str) -> frozenset[str]:
            value = section.get(key, [])
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                fail(f"[movement] {key}", f"{value!r} (expected a list of quoted names)")
            return frozenset(value)

        def whole(where: str, value) -> int:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                fail(where, f"{value!r} is not a whole number")
            return value

        unknown = sorted(set(data) - {"movement", "fire", "units"})
        if unknown:
            fail(unknown[0], "unknown section (expected movement, fire, units)")
        movement, fire = data.get("movement", {}), data.get("fire", {})
        conditions = {k: whole(f"[fire.conditions] {k}", v) for k, v in fire.get("conditions", {}).items()}
        units = {}
        for name, values in data.get("units", {}).items():
            if not isinstance(values, dict):
                fail(f"[units.{name!r}]", "expected a table with side, mp and mcf")
            extra = sorted(set(values) - {"side", "mp", "mcf", "motorized"})
            if extra:
                fail(f"[units.{name!r}] {extra[0]}", "unknown key (expected side, mp, mcf, motorized)")
            for key in ("side", "mp", "mcf"):
                if key not in values:
                    fail(f"[units.{name!r}] {key}", "missing")
            try:
                units[name] = Unit(name, values["side"], values["mp"], values["mcf"], values.get("motorized", True))
            except WbkError as e:
                fail(f"[units.{name!r}]", str(e))
        return cls(
            units,
            names(movement, "mcf_terrain"),
            names(movement, "mcf_hexsides"),
            whole("[fire] base_dice", fire.get("base_dice", 2)),
            conditions,
        )


@functools.cache
def example_data() -> GameData:
    """wbk's illustrative SS Panzer data (``wbk/data/ss_panzer.toml``): stand-in values, except
    where the errata gives them."""
    path = resources.files("wbk") / "data" / "ss_panzer.toml"
    return GameData.from_toml(path.read_text(encoding="utf-8"), source="wbk/data/ss_panzer.toml")


# --- 8.3 movement --------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryCost:
    """What entering one hex costs, and why."""

    mp: int
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return f"<b>{self.mp} MP</b>{steps_html(self.steps)}"


def _charged(m: HexMap, unit: Unit, a: Hex, b: Hex, data: GameData) -> list[tuple[str, Hex | Hexside]]:
    """Errata 8.3: the MCF-producing terrain met entering b from a, one (terrain, where) pair per
    MCF paid: the hex's terrain, the hexside's features, and for Germans the trench."""
    side = Hexside._unchecked(a, b)
    terrain = m.terrain(b)
    charged = [(TRENCH, b)] if TRENCH in terrain and unit.side == "German" else []
    charged += [(t, b) for t in sorted(terrain & data.mcf_terrain - {TRENCH})]
    charged += [(f, side) for f in sorted(m.features(side) & data.mcf_hexsides)]
    return charged


def _entry_mp(m: HexMap, unit: Unit, a: Hex, b: Hex, data: GameData) -> int:
    count = len(_charged(m, unit, a, b, data))
    return count * unit.mcf if count else 1


def explain_entry(m: HexMap, unit: Unit, frm: Hex | str, to: Hex | str, data: GameData | None = None) -> EntryCost:
    """Errata 8.3: the cost of entering ``to`` from the adjacent ``frm``, step by step."""
    data = data or example_data()
    a, b = m.hex(frm), m.hex(to)
    m.hexside(a, b)  # names the two hexes if they are not adjacent
    kinds = _charged(m, unit, a, b, data)
    steps = []
    if TRENCH in m.terrain(b):
        if unit.side == "German":
            steps.append(Step("German units pay an MCF for the trenchline", _rule("8.3")))
        elif kinds:
            steps.append(Step("a Soviet unit pays nothing for the trench, but pays for the other terrain", _rule("8.3")))
        else:
            steps.append(Step("a Soviet unit entering a trench hex with no other MCF terrain pays 1 MP", _rule("8.3")))
    if not kinds:
        steps.append(Step(f"{m.label(b)}: no MCF terrain, 1 MP", _rule("8.3")))
        return EntryCost(1, tuple(steps))
    cost = len(kinds) * unit.mcf
    named = [f"{kind} {'hexside ' if isinstance(where, Hexside) else 'in '}{m.label(where)}" for kind, where in kinds]
    steps.append(Step(f"{m.label(b)}: {' + '.join(named)} = {len(kinds)} MCF × {unit.mcf} = {cost} MP", _rule("8.3")))
    return EntryCost(cost, tuple(steps))


def entry_cost(m: HexMap, unit: Unit, frm: Hex | str, to: Hex | str, data: GameData | None = None) -> int:
    """Errata 8.3: 1 MP, or the unit's MCF once for each MCF-producing terrain type in the hex
    entered and on the hexside crossed. Germans pay an MCF for a trench; Soviets do not.

    >>> from wbk.maps import example_map
    >>> m, units = example_map("ss_panzer_errata_9_4"), example_data().units
    >>> entry_cost(m, units["Pz IV"], "1913", "2013"), entry_cost(m, units["T-34"], "1913", "2013")
    (3, 1)
    """
    a, b = m.hex(frm), m.hex(to)
    m.hexside(a, b)
    return _entry_mp(m, unit, a, b, data or example_data())


def _check_action(action: str) -> str:
    if action not in ("move", "move_and_fire"):
        raise WbkError(f"action {action!r} is not 'move' or 'move_and_fire'")
    return action


@dataclass(frozen=True)
class Movement:
    """Errata 8.3: where a unit can go from ``start``: ``costs`` the least MP spent to reach each
    hex, and ``route(goal)`` a cheapest path there, explained."""

    map: HexMap
    unit: Unit
    start: Hex
    mp: int
    action: str
    costs: dict[Hex, int]
    previous: dict[Hex, Hex]
    data: GameData

    def route(self, goal: Hex | str) -> Route:
        m, unit, target = self.map, self.unit, self.map.hex(goal)
        if target not in self.costs:
            raise WbkError(
                f"{unit.name} cannot reach {m.label(target)} from {m.label(self.start)} ({self.action.replace('_', ' ')})"
            )
        path = [target]
        while path[-1] != self.start:
            path.append(self.previous[path[-1]])
        path.reverse()
        steps = [step for a, b in zip(path, path[1:]) for step in explain_entry(m, unit, a, b, self.data).steps]
        if self.costs[target] > self.mp:
            steps.append(Step(f"more than {self.mp} MP, allowed as the one hex a Move action may always enter", _rule("8.3")))
        return Route(tuple(path), self.costs[target], tuple(steps))


def plan_movement(
    m: HexMap,
    unit: Unit,
    start: Hex | str,
    mp: int | None = None,
    action: Action = "move",
    data: GameData | None = None,
) -> Movement:
    """Errata 8.3: every hex a unit can reach, by Dijkstra over the entry costs.

    ``mp`` defaults to the unit's MP. On a Move action a unit that has not yet moved may always
    enter one adjacent hex whatever it costs, and stops there: such a hex is listed with its
    full cost, above ``mp``. On a Move & Fire action (``action="move_and_fire"``) it may not.
    """
    data = data or example_data()
    _check_action(action)
    origin = m.hex(start)
    budget = unit.mp if mp is None else mp
    if isinstance(budget, bool) or not isinstance(budget, Integral) or budget < 0:
        raise WbkError(f"MP {budget!r} is not a whole number of 0 or more")
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
    if action == "move":
        for n in m.neighbors(origin):
            if n not in spent:
                spent[n], previous[n] = _entry_mp(m, unit, origin, n, data), origin
    return Movement(m, unit, origin, budget, action, spent, previous, data)


def movement_range(
    m: HexMap,
    unit: Unit,
    start: Hex | str,
    mp: int | None = None,
    action: Action = "move",
    data: GameData | None = None,
) -> dict[Hex, int]:
    """Errata 8.3: the least MP spent to reach each hex the unit can reach (``start``: 0); see
    ``plan_movement`` for the one-hex rule."""
    return plan_movement(m, unit, start, mp, action, data).costs


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
    unit: Unit,
    start: Hex | str,
    goal: Hex | str,
    mp: int | None = None,
    action: Action = "move",
    data: GameData | None = None,
) -> Route:
    """Errata 8.3: a cheapest path from ``start`` to ``goal`` within the unit's MP, explained."""
    return plan_movement(m, unit, start, mp, action, data).route(goal)


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

    def __bool__(self) -> bool:
        return self.clear

    def _repr_html_(self) -> str:
        verdict = "clear" if self.clear else "blocked"
        return f"<b>line of sight {verdict}</b>{steps_html(self.steps)}"


def line_of_sight(
    m: HexMap,
    firer: Hex | str,
    target: Hex | str,
    *,
    blocking_terrain: Iterable[str] = (),
    edge: EdgeReading = "both",
    visibility: int | None = None,
) -> LosResult:
    """Errata 9.4: can a unit in ``firer`` trace a line of sight to ``target``?

    The reading all four of the errata's examples support: the line is blocked by any slope
    hexside it crosses or runs along, unless that hexside is a side of the firer's hex or of the
    target's hex. A slope hexside the line runs along blocks (1913 to 1716 runs along 1715/1816).

    ``blocking_terrain``: hex terrain types that block a line passing through them (woods, town;
    none by default: that is SS Panzer's terrain chart, not the errata). ``edge``: where the line
    runs along a hexside between a blocking and a clear hex, or grazes a blocking hex at a corner,
    "both" (default) blocks only when the hexes on both sides block, "either" when either does.
    ``visibility``: the longest line in hexes, or None for no limit.
    """
    if edge not in ("both", "either"):
        raise WbkError(f"edge reading {edge!r} is not 'both' or 'either'")
    a, b = m.hex(firer), m.hex(target)
    blocking_terrain = frozenset(blocking_terrain)
    tr = trace(a, b)
    own = {Hexside._unchecked(h, n) for h in (a, b) for n in h.neighbors()}
    rule = _rule("9.4")
    steps = [Step(f"from {m.label(a)} to {m.label(b)}, {a.distance(b)} hexes", rule)]
    blocking: list[Hex | Hexside] = []

    def blocks(h: Hex) -> bool:
        # a line along the map's edge may pass hexes off the map: nothing there blocks
        return h in m and bool(m.terrain(h) & blocking_terrain)

    if visibility is not None and a.distance(b) > visibility:
        blocking.append(b)
        steps.append(Step(f"beyond visibility ({visibility} hexes)", rule))
    along_pairs = {h for s in tr.along for h in s.hexes}
    for kind, item in tr.course:
        if kind in ("cross", "along") and SLOPE in m.features(item):
            how = "crosses" if kind == "cross" else "runs along"
            if item in own:
                whose = "firer's" if a in item else "target's"
                steps.append(Step(f"{how} slope hexside {m.label(item)}, a side of the {whose} hex: no block", rule))
            else:
                blocking.append(item)
                steps.append(Step(f"{how} slope hexside {m.label(item)}, between the two units: blocked", rule))
        if not blocking_terrain:
            continue
        if kind == "hex" and item not in (a, b) and blocks(item):
            blocking.append(item)
            steps.append(Step(f"passes through {m.label(item)} ({', '.join(sorted(m.terrain(item) & blocking_terrain))})", "terrain chart"))
        elif kind == "along":
            sides = [blocks(h) for h in item.hexes]
            if all(sides) or (edge == "either" and any(sides)):
                blocking.extend(h for h in item.hexes if blocks(h))
                steps.append(Step(f"runs along {m.label(item)} with blocking terrain on {'both sides' if all(sides) else 'one side'} (reading {edge!r})", "terrain chart"))
        elif kind == "corner" and edge == "either":
            for h in item.hexes:
                if h not in tr.hexes and h not in along_pairs and blocks(h):
                    blocking.append(h)
                    steps.append(Step(f"grazes {m.label(h)} at a corner (reading 'either')", "terrain chart"))
    clear = not blocking
    steps.append(Step("line of sight clear" if clear else "line of sight blocked", rule))
    return LosResult(a, b, clear, tuple(blocking), tuple(steps), tr)


def has_los(m: HexMap, firer: Hex | str, target: Hex | str, **options) -> bool:
    """Errata 9.4: True when ``line_of_sight`` finds the line clear (same options)."""
    return line_of_sight(m, firer, target, **options).clear


def viewshed(m: HexMap, firer: Hex | str, **options) -> set[Hex]:
    """Every hex of the map that a unit in ``firer`` can see (its own hex included)."""
    origin = m.hex(firer)
    return {h for h in m if h == origin or line_of_sight(m, origin, h, **options).clear}


# --- 9.5 fire ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FireDice:
    """The fires a unit makes at one target: the dice of each, and why."""

    fires: tuple[int, ...]
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return f"<b>{' and '.join(f'{n} dice' for n in self.fires)}</b>{steps_html(self.steps)}"


def fire_dice(conditions: Sequence[str] = (), *, reading: ZocReading = "largest", data: GameData | None = None) -> FireDice:
    """Errata 9.5: the dice for fire under the given conditions ("kill_zone", "entering_zoc" in
    wbk's example data).

    ``reading="largest"`` (the unofficial errata 9.5): when several conditions apply, one fire
    with the single largest number of dice any of them gives, never the sum. ``reading="separate"``
    (the official ZOC fire rule): each condition is a fire of its own, resolved separately.

    >>> fire_dice(["kill_zone", "entering_zoc"]).fires
    (4,)
    """
    data = data or example_data()
    if reading not in ("largest", "separate"):
        raise WbkError(f"reading {reading!r} is not 'largest' or 'separate'")
    for c in conditions:
        if c not in data.condition_dice:
            raise WbkError(f"fire condition {c!r} is not one of {', '.join(sorted(data.condition_dice))}")
    rule = _rule("9.5")
    if not conditions:
        return FireDice((data.base_dice,), (Step(f"no special condition: {data.base_dice} dice", "game data"),))
    each = [Step(f"{c.replace('_', ' ')}: {data.condition_dice[c]} dice", "game data") for c in conditions]
    if reading == "separate":
        fires = tuple(data.condition_dice[c] for c in conditions)
        return FireDice(fires, (*each, Step("each fire resolved separately (official ZOC fire rule)", "SS Panzer official errata")))
    largest = max(data.condition_dice[c] for c in conditions)
    steps = [*each]
    if len(conditions) > 1:
        steps.append(Step(f"conditions are not cumulative: the largest, {largest} dice", rule))
    return FireDice((largest,), tuple(steps))


def soviet_artillery_dice(phase: Literal["bombardment", "action"]) -> FireDice:
    """Errata 9.5 and 13.2: Soviet artillery rolls 2 dice, firing its bombardment (barrage) side
    in the Bombardment Phase and its support side in the Action Phase."""
    sides = {"bombardment": "bombardment (barrage) side", "action": "support side"}
    if phase not in sides:
        raise WbkError(f"phase {phase!r} is not 'bombardment' or 'action'")
    return FireDice(
        (2,),
        (Step(f"{phase} phase: the {sides[phase]} fires", _rule("13.2")), Step("Soviet artillery rolls 2 dice", _rule("9.5"))),
    )


class FireEffect(enum.IntEnum):
    """The worst effect of a unit's fire on one target."""

    NO_EFFECT = 0
    SUPPRESSED = 1  # at least one hit
    STEP_LOSS = 2  # two hits from one firing unit


def hits(dice: int, hit_number: int) -> Dist:
    """Hits from ``dice`` d6, a hit being a roll at or under ``hit_number``; a 1 always hits."""
    if isinstance(dice, bool) or not isinstance(dice, Integral) or dice < 0:
        raise WbkError(f"number of dice {dice!r} is not a whole number of 0 or more")
    if isinstance(hit_number, bool) or not isinstance(hit_number, Integral):
        raise WbkError(f"hit number {hit_number!r} is not a whole number")
    return dice @ d6.map(lambda r: r == 1 or r <= hit_number)


def fire_effect(fires: FireDice | Sequence[int], hit_number: int) -> Dist:
    """The exact distribution of ``FireEffect`` on one target: each fire's hits counted on their
    own (fire from different units is never combined), two hits from one fire a step loss."""
    dice = fires.fires if isinstance(fires, FireDice) else tuple(fires)
    effect = Dist.always(FireEffect.NO_EFFECT)
    for n in dice:
        one = hits(n, hit_number).map(lambda h: FireEffect(min(h, 2)))
        effect = effect.combine(one, max)
    return effect


# --- 3.3 victory ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Victory:
    won: bool
    controlled: int
    stars: int
    steps: tuple[Step, ...]

    def _repr_html_(self) -> str:
        return f"<b>{'Soviet geographic victory' if self.won else 'no geographic victory'}</b>{steps_html(self.steps)}"


def geographic_victory(m: HexMap, soviet_controlled: Iterable[Hex | str], *, marker: str = "star") -> Victory:
    """Errata 3.3: the Soviet player wins a geographic victory by controlling at least 7 of the
    (nine) hexes with the circled Soviet star, marked ``star`` on the map."""
    stars = m.markers(marker)
    held = {m.hex(h) for h in soviet_controlled} & stars
    won = len(held) >= 7
    steps = (
        Step(f"the Soviet player controls {len(held)} of the {len(stars)} star hexes"
             + (f": {', '.join(sorted(m.label(h) for h in held))}" if held else ""), _rule("3.3")),
        Step(f"{'at least' if won else 'fewer than'} 7: {'a geographic victory' if won else 'no geographic victory'}", _rule("3.3")),
    )
    return Victory(won, len(held), len(stars), steps)
