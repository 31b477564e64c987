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


def big_map(seed: int = 1) -> HexMap:
    rng = random.Random(seed)
    frame = HexMap("80x60 benchmark", (1, 80), (1, 60))
    hexes = list(frame)
    terrain = {
        "woods": frozenset(rng.sample(hexes, 700)),
        "town": frozenset(rng.sample(hexes, 250)),
    }
    sides = sorted({Hexside(h, n) for h in hexes for n in frame.neighbors(h)})
    streams = frozenset(rng.sample(sides, 600))
    slopes = rng.sample(sides, 600)
    uphill = {s: s.hexes[rng.randrange(2)] for s in slopes}
    return HexMap(
        frame.name,
        frame.columns,
        frame.rows,
        "odd",
        terrain,
        {"stream": streams, "slope": frozenset(slopes)},
        uphill,
    )


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
    print(
        f"movement range, Pz IV {pz.mp} MP: {len(movement_range(m, pz, centre))} hexes, "
        f"{median_ms(lambda: movement_range(m, pz, centre), 5):.1f} ms"
    )
    print(
        f"movement range, 200 MP (whole map): {len(movement_range(m, pz, centre, mp=200))} hexes, "
        f"{median_ms(lambda: movement_range(m, pz, centre, mp=200), 3):.0f} ms"
    )
