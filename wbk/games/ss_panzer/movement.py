"""SS Panzer errata 8.3, movement: what entering a hex costs (``explain_entry``, ``entry_cost``),
every hex a unit can reach (``plan_movement``, ``movement_range``) and a cheapest path there
(``route``). The search reads a table of every entry's cost, worked out once per map and kind of
unit (``_cost_table``); a route's steps are ``explain_entry``'s, which names each cost's terrain."""

from __future__ import annotations

import functools
import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any, Literal

from wbk.checks import Input, known_keywords, known_keywords_like
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games.ss_panzer.data import GameData, Unit, _data, _map, _rule, _unit
from wbk.hexgrid import Direction, Hex, Hexside
from wbk.maps import HexMap

TRENCH = "trench"
_TRENCHES = frozenset({TRENCH})
_DIRECTIONS = tuple(d.value for d in Direction)
Action = Literal["move", "move_and_fire"]
#: What the rules of movement take, declared once (the quiz's keys are these): the action a unit
#: moves on, whether it has moved this Action Phase, and MP (to spend, or left).
ACTION = Input.text(("move", "move_and_fire"))
#: Each action in the rules' words.
ACTION_WORDS = {"move": "Move", "move_and_fire": "Move & Fire"}
MOVED = Input.flag()
MP = Input.whole(0)


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


@dataclass(frozen=True)
class _CostTable:
    """Errata 8.3's entry costs for one map and one kind of unit, for the search: the hexes in
    ``Hex`` order (q, then r), and per hex index its neighbours' indices, each with what
    entering it from there costs, in ``HexMap.neighbors`` order."""

    hexes: tuple[Hex, ...]
    index: dict[Hex, int]
    entries: tuple[tuple[tuple[int, int], ...], ...]


# a table of an 80x60 map holds about 29,000 entries (a few MB): a few are kept, for the panel
# that asks again on every click with the same map and unit
@functools.lru_cache(maxsize=8)
def _cost_table(
    m: HexMap, german: bool, mcf: int, mcf_terrain: frozenset, mcf_hexsides: frozenset
) -> _CostTable:
    """Errata 8.3 for every hex and direction at once: entering a hex costs the unit's MCF once
    for each MCF-producing terrain type in it (for Germans the trench too) and each such feature
    on the hexside crossed, or 1 MP where there is none (what ``explain_entry`` names)."""
    hexes = tuple(sorted(m, key=lambda h: (h.q, h.r)))
    index = {(h.q, h.r): i for i, h in enumerate(hexes)}
    charged = mcf_terrain - _TRENCHES | (_TRENCHES if german else frozenset())
    into = [0] * len(hexes)  # the MCF of the terrain in each hex
    for kind in charged:
        for h in m.terrain_hexes.get(kind, ()):
            into[index[h.q, h.r]] += 1
    across: dict[tuple[int, int], int] = {}  # the MCF of each hexside, both ways across
    for feature in mcf_hexsides:
        for side in m.hexside_features.get(feature, ()):
            a, b = (index.get((h.q, h.r)) for h in side.hexes)
            if a is not None and b is not None:
                across[a, b] = across[b, a] = across.get((a, b), 0) + 1
    entries = []
    for i, h in enumerate(hexes):
        row = []
        for dq, dr in _DIRECTIONS:  # HexMap.neighbors' order
            j = index.get((h.q + dq, h.r + dr))
            if j is not None:
                count = into[j] + across.get((i, j), 0)
                row.append((j, count * mcf if count else 1))
        entries.append(tuple(row))
    return _CostTable(hexes, {h: i for i, h in enumerate(hexes)}, tuple(entries))


def _search(table: _CostTable, origin: Hex, budget: int) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    """Dijkstra over the table: the least MP to each hex within ``budget`` and the hex it is
    entered from. Each queue entry is one int, ``cost * len(hexes) + index``, so the queue pops
    by cost, then in ``Hex`` order: the order of a queue of (cost, Hex), so ties go to the same
    neighbour as they always did. The dicts list the hexes in the order they were first reached."""
    hexes, entries = table.hexes, table.entries
    size, start = len(hexes), table.index[origin]
    unreached = budget + 1
    best, came = [unreached] * size, [start] * size
    best[start] = 0
    order, queue = [start], [start]
    pop, push, append = heapq.heappop, heapq.heappush, order.append
    while queue:
        cost, i = divmod(pop(queue), size)
        if cost > best[i]:
            continue
        for j, mp in entries[i]:
            total = cost + mp
            if total < best[j]:
                if best[j] == unreached:
                    append(j)
                best[j], came[j] = total, i
                push(queue, total * size + j)
    reached = [hexes[i] for i in order]
    spent = dict(zip(reached, [best[i] for i in order], strict=True))
    previous = dict(zip(reached[1:], [hexes[came[i]] for i in order[1:]], strict=True))
    return spent, previous


def _may_exceed(action: str, moved: bool) -> bool:
    """Errata 8.3: only a Move action by a unit that has not yet moved may enter a hex it
    cannot pay for in full."""
    return action == "move" and not moved


def _cited_once(*sources: str) -> str:
    """The sources a step cites, each said once: a source another one extends ("illustrative
    game data" beside "illustrative game data, but for the Pz IV's MCF of 3") is left to it."""
    unique = dict.fromkeys(sources)
    return "; ".join(s for s in unique if not any(o != s and o.startswith(s) for o in unique))


@known_keywords
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
    ACTION.check(action, "action")
    MOVED.check(moved, "moved")
    if mp_left is not None:
        MP.check(mp_left, "MP left")
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
        # 8.3 says what an MCF costs; which terrain costs one and the unit's MCF are game data
        facts = ["units"]
        if any(isinstance(where, Hexside) for _, where in kinds):
            facts.insert(0, "mcf_hexsides")
        if any(kind != TRENCH and not isinstance(where, Hexside) for kind, where in kinds):
            facts.insert(0, "mcf_terrain")
        cites = _cited_once(rule, *(data.source(fact) for fact in facts))
        steps.append(
            Step(
                f"{m.label(b)}: {' + '.join(named)} = {len(kinds)} MCF × {unit.mcf} = {cost} MP",
                cites,
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


@known_keywords
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
    hex, ``route(goal)`` a cheapest path there, explained, and ``toward(goal)`` that path or
    what it would take."""

    map: HexMap
    unit: Unit
    start: Hex
    mp: int
    action: str
    moved: bool
    costs: dict[Hex, int]
    previous: dict[Hex, Hex]
    data: GameData

    @property
    def how(self) -> str:
        """The unit's action, and whether it has moved, in words: "Move & Fire, having moved"."""
        return ACTION_WORDS[self.action] + (", having moved" if self.moved else "")

    def route(self, goal: Hex | str) -> Route:
        m, unit, target = self.map, self.unit, self.map.hex(goal)
        if target not in self.costs:
            raise WbkError(
                f"{unit.name} cannot reach {m.label(target)} from {m.label(self.start)} "
                f"with {self.mp} MP ({self.how})"
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
        return Route(tuple(path), self.costs[target], tuple(steps), self.map)

    def toward(self, goal: Hex | str) -> Toward:
        """Errata 8.3 for one goal: a cheapest path there, or, out of reach, the MP the cheapest
        path there costs whatever the MP to spend."""
        target = self.map.hex(goal)
        if target in self.costs:
            path = self.route(target)
            return Toward(self, target, path, path.mp, path.steps)
        # every entry costs at most the MCF once per kind of MCF terrain and hexside, plus a
        # trench: a path through every hex of the map costs no more than this
        data = self.data
        per_entry = self.unit.mcf * (len(data.mcf_terrain) + len(data.mcf_hexsides) + 1)
        unlimited = plan_movement(
            self.map, self.unit, self.start, per_entry * len(self.map), data=data
        )
        needed = unlimited.costs[target]
        step = Step(
            f"{self.map.label(target)} is out of reach ({self.how}): the cheapest path there "
            f"costs {needed} MP with {self.mp} MP to spend",
            _rule("8.3"),
            about=(target,),
        )
        return Toward(self, target, None, needed, (step,))


@dataclass(frozen=True)
class Toward:
    """Errata 8.3 for a unit's goal: where the unit can go (``movement``), and a cheapest path
    to ``goal`` (``route``), or None out of reach; ``mp`` is what the cheapest path there costs
    either way (out of reach: whatever the MP to spend)."""

    movement: Movement
    goal: Hex
    route: Route | None
    mp: int
    steps: tuple[Step, ...]

    @property
    def map(self) -> HexMap:
        """The map the result was read off, for its picture."""
        return self.movement.map

    def _repr_html_(self) -> str:
        reached = "" if self.route is not None else "out of reach, it would take "
        return f"<b>{self.map.label(self.goal)}: {reached}{self.mp} MP</b>{steps_html(self.steps)}"


@known_keywords
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
    """Errata 8.3: every hex a unit can reach, by Dijkstra over the entry costs (worked out once
    per map and kind of unit, then kept for the next call).

    ``mp`` defaults to the unit's MP. On a Move action a unit that has not yet moved this Action
    Phase may always enter one adjacent hex whatever it costs, and stops there: such a hex is
    listed with its full cost, above ``mp``. On a Move & Fire action (``action="move_and_fire"``),
    or when the unit has already moved one or more hexes (``moved=True``), it may not.
    """
    m, data = _map(m), _data(data)
    unit = _unit(unit, data)
    ACTION.check(action, "action")
    MOVED.check(moved, "moved")
    origin = m.hex(start)
    budget = unit.mp if mp is None else MP.check(mp, "MP")
    table = _cost_table(m, unit.side == "German", unit.mcf, data.mcf_terrain, data.mcf_hexsides)
    spent, previous = _search(table, origin, budget)
    if _may_exceed(action, moved):
        for j, cost in table.entries[table.index[origin]]:
            n = table.hexes[j]
            if n not in spent:
                spent[n], previous[n] = cost, origin
    return Movement(m, unit, origin, budget, action, moved, spent, previous, data)


@known_keywords_like(plan_movement)
def movement_range(
    m: HexMap, unit: Unit | str, start: Hex | str, *args: Any, **options: Any
) -> dict[Hex, int]:
    """Errata 8.3: the least MP spent to reach each hex the unit can reach (``start``: 0); the
    options are ``plan_movement``'s, which says the one-hex rule."""
    return plan_movement(m, unit, start, *args, **options).costs


@dataclass(frozen=True)
class Route:
    """A cheapest path and what each hex of it costs."""

    hexes: tuple[Hex, ...]
    mp: int
    steps: tuple[Step, ...]
    #: the map the result was read off, for its picture
    map: HexMap | None = field(default=None, repr=False, compare=False)

    def _repr_html_(self) -> str:
        return f"<b>{self.mp} MP</b>{steps_html(self.steps)}"


@known_keywords_like(plan_movement)
def route(
    m: HexMap, unit: Unit | str, start: Hex | str, goal: Hex | str, *args: Any, **options: Any
) -> Route:
    """Errata 8.3: a cheapest path from ``start`` to ``goal`` within the unit's MP, explained;
    the options are ``plan_movement``'s."""
    return plan_movement(m, unit, start, *args, **options).route(goal)
