"""Time SS Panzer's viewshed and movement range on an 80x60 map.

    .venv/bin/python benchmarks/ss_panzer_80x60.py

The map is made here, the same every run: woods and towns on about one hex in five, a stream
and slope hexsides on about one hexside in twelve.
"""

import random
import statistics
import time

from wbk.games.ss_panzer import example_data, movement_range, viewshed
from wbk.hexgrid import Hexside
from wbk.maps import HexMap


def random_map(
    columns: int, rows: int, *, woods: int, towns: int, streams: int, slopes: int, seed: int = 1
) -> HexMap:
    """A map of ``columns`` x ``rows`` hexes, the same for the same numbers: ``woods`` and
    ``towns`` hexes, ``streams`` stream hexsides and ``slopes`` slope hexsides, each slope
    uphill on a side drawn at random."""
    rng = random.Random(seed)
    frame = HexMap(f"{columns}x{rows} benchmark", (1, columns), (1, rows))
    hexes = list(frame)
    terrain = {
        "woods": frozenset(rng.sample(hexes, woods)),
        "town": frozenset(rng.sample(hexes, towns)),
    }
    sides = sorted({Hexside(h, n) for h in hexes for n in frame.neighbors(h)})
    stream_sides = frozenset(rng.sample(sides, streams))
    slope_sides = rng.sample(sides, slopes)
    uphill = {s: s.hexes[rng.randrange(2)] for s in slope_sides}
    return HexMap(
        frame.name,
        frame.columns,
        frame.rows,
        "odd",
        terrain,
        {"stream": stream_sides, "slope": frozenset(slope_sides)},
        uphill,
    )


def big_map(seed: int = 1) -> HexMap:
    """The 80x60 map: woods and towns on about one hex in five, streams and slopes on about
    one hexside in twelve."""
    return random_map(80, 60, woods=700, towns=250, streams=600, slopes=600, seed=seed)


def median_ms(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    m = big_map()
    centre = m.hex("4030")
    pz = example_data().units["Pz IV"]
    print(
        f"viewshed from the centre: {len(viewshed(m, centre))} of {len(m)} hexes seen, "
        f"{median_ms(lambda: viewshed(m, centre), 3):.0f} ms"
    )
    print(f"viewshed from a corner:   {median_ms(lambda: viewshed(m, m.hex('0101')), 3):.0f} ms")
    start = time.perf_counter()
    movement_range(m, pz, centre)
    print(f"movement range, first call (the map's cost table): {time.perf_counter() - start:.3f} s")
    print(
        f"movement range, Pz IV {pz.mp} MP: {len(movement_range(m, pz, centre))} hexes, "
        f"{median_ms(lambda: movement_range(m, pz, centre), 5):.1f} ms"
    )
    print(
        f"movement range, 200 MP (whole map): {len(movement_range(m, pz, centre, mp=200))} hexes, "
        f"{median_ms(lambda: movement_range(m, pz, centre, mp=200), 5):.1f} ms"
    )
