"""The fast path of errata 8.3's movement range (a table of entry costs per map and kind of unit,
searched over hex indices) against its reference: a Dijkstra over ``explain_entry``, the
explained cost of each entry, on many random maps, every unit and option. Every hex reached,
its cost, the hex it is entered from (so every route) and the order the hexes are listed in
must be the same."""

import dataclasses
import heapq
import random

import pytest

from wbk.games.ss_panzer import (
    Unit,
    example_data,
    explain_entry,
    movement_range,
    plan_movement,
    route,
)
from wbk.hexgrid import Hexside
from wbk.maps import HexMap, example_map

DATA = example_data()
# the example data, and data where slopes cost an MCF too and a trench is MCF terrain for all
# (which 8.3 leaves to the German trench rule: Soviets still pay nothing for it)
DATAS = (
    DATA,
    dataclasses.replace(
        DATA,
        mcf_terrain=DATA.mcf_terrain | {"trench", "rough"},
        mcf_hexsides=DATA.mcf_hexsides | {"slope"},
    ),
    dataclasses.replace(DATA, mcf_terrain=frozenset(), mcf_hexsides=frozenset()),
)
UNITS = (
    *DATA.units.values(),
    Unit("slow German", "German", mp=2, mcf=3),
    Unit("heavy Soviet", "Soviet", mp=5, mcf=4),
)


def random_map(seed: int) -> HexMap:
    """A small map of random shape and numbering with woods, towns, trenches and rough, and
    streams and slopes on some hexsides."""
    rng = random.Random(seed)
    first_column, first_row = rng.randint(0, 5), rng.randint(0, 5)
    columns = (first_column, first_column + rng.randint(0, 11))
    rows = (first_row, first_row + rng.randint(0, 9))
    frame = HexMap(f"random {seed}", columns, rows, rng.choice(("odd", "even")))
    hexes = list(frame)
    terrain = {
        kind: frozenset(rng.sample(hexes, rng.randint(0, len(hexes) // share)))
        for kind, share in (("woods", 3), ("town", 4), ("trench", 4), ("rough", 5))
    }
    sides = sorted({Hexside(h, n) for h in hexes for n in frame.neighbors(h)})
    slopes = rng.sample(sides, rng.randint(0, len(sides) // 4))
    features = {
        "slope": frozenset(slopes),
        "stream": frozenset(rng.sample(sides, rng.randint(0, len(sides) // 3))),
    }
    uphill = {s: s.hexes[rng.randrange(2)] for s in slopes}
    return HexMap(
        frame.name,
        columns,
        rows,
        frame.low_columns,
        {k: v for k, v in terrain.items() if v},
        {k: v for k, v in features.items() if v},
        uphill,
    )


def reference(m, unit, start, mp, action, data, moved):
    """Errata 8.3 as plan_movement searched before its cost table: a queue of (MP, hex), each
    entry's cost the explained one."""
    origin = m.hex(start)
    budget = unit.mp if mp is None else mp
    spent, previous, queue = {origin: 0}, {}, [(0, origin)]
    while queue:
        cost, h = heapq.heappop(queue)
        if cost > spent[h]:
            continue
        for n in m.neighbors(h):
            total = cost + explain_entry(m, unit, h, n, data).mp
            if total <= budget and total < spent.get(n, total + 1):
                spent[n], previous[n] = total, h
                heapq.heappush(queue, (total, n))
    if action == "move" and not moved:
        for n in m.neighbors(origin):
            if n not in spent:
                spent[n], previous[n] = explain_entry(m, unit, origin, n, data).mp, origin
    return spent, previous


@pytest.mark.parametrize("seed", range(40))
def test_the_table_finds_what_the_explained_costs_find(seed):
    rng = random.Random(1000 + seed)
    m = random_map(seed)
    hexes = list(m)
    for _ in range(8):
        unit, data = rng.choice(UNITS), rng.choice(DATAS)
        start = rng.choice(hexes)
        mp = rng.choice((None, 0, 1, 2, 3, 5, 8, 13, 40))
        action = rng.choice(("move", "move_and_fire"))
        moved = rng.random() < 0.3
        plan = plan_movement(m, unit, start, mp, action, data, moved=moved)
        spent, previous = reference(m, unit, start, mp, action, data, moved)
        assert list(plan.costs.items()) == list(spent.items())
        assert list(plan.previous.items()) == list(previous.items())


def test_the_whole_of_a_large_map():
    """A 30x24 map crossed end to end: every one of its 720 hexes, its cost and its route."""
    frame = HexMap("large", (1, 30), (1, 24))
    woods = frozenset(h for h in frame if (h.q * 7 + h.r) % 5 == 0)
    big = HexMap("large", (1, 30), (1, 24), "odd", {"woods": woods, "trench": woods})
    for unit in (DATA.units["Pz IV"], DATA.units["T-34"]):
        plan = plan_movement(big, unit, "1512", 500)
        spent, previous = reference(big, unit, "1512", 500, "move", DATA, False)
        assert len(plan.costs) == len(big) == 720
        assert list(plan.costs.items()) == list(spent.items())
        assert list(plan.previous.items()) == list(previous.items())


def test_the_kept_table_follows_the_map_and_the_unit():
    m = example_map("ss_panzer_errata_9_4")
    slow = Unit("slow", "German", mp=2, mcf=3)
    assert movement_range(m, slow, "1610")[m.hex("1609")] == 6  # stream into woods
    cleared = m.with_terrain("1609", [])
    # cleared, 1609 costs 3 across the stream, but 2 by way of a neighbour without it
    assert explain_entry(cleared, slow, "1610", "1609").mp == 3
    assert movement_range(cleared, slow, "1610")[m.hex("1609")] == 2
    assert movement_range(m, slow, "1610")[m.hex("1609")] == 6  # the first map's table
    # the same map, a unit with another MCF and another side: 1609 is 2 MCF, 2013 a trench
    soviet = Unit("slow Soviet", "Soviet", mp=2, mcf=2)
    assert movement_range(m, soviet, "1610")[m.hex("1609")] == 4
    assert explain_entry(m, soviet, "1913", "2013").mp == 1
    assert explain_entry(m, slow, "1913", "2013").mp == 3


def test_a_route_is_read_off_the_table_and_explained():
    m = example_map("ss_panzer_errata_9_4")
    slow = Unit("slow", "German", mp=2, mcf=3)
    path = route(m, slow, "1610", "1710")
    # two ways cost 2 MP, by 1611 and by 1709: the tie goes to the hex first in the queue
    assert [m.label(h) for h in path.hexes] == ["1610", "1611", "1710"]
    assert path.mp == 2
    assert [step.text for step in path.steps] == [
        "1611: no MCF terrain, 1 MP",
        "1710: no MCF terrain, 1 MP",
    ]
    assert {step.rule for step in path.steps} == {"SS Panzer errata 8.3"}
